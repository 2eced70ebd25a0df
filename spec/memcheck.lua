-- Run under valgrind by spec/memcheck.sh: every path that allocates, frees,
-- raises or wipes, once, so that a read past a buffer or a leak shows up.
local m = require "mintid"
-- f(...) raises an error containing want (any error would hide a typo).
local function raises(want, f, ...)
   local ok, err = pcall(f, ...)
   assert(not ok and tostring(err):find(want, 1, true), tostring(err))
end

for _ = 1, 50 do
   m.ulid(); m.uuid4(); m.uuid7(); m.nanoid(); m.nanoid(300, "0123456789abc")
end
for _, bad in ipairs { "", "01ARZ3NDEKTSV4RRFFQ69G5FA", "01ARZ3NDEKTSV4RRFFQ69G5FA\0", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ" } do
   assert(not m.parse_ulid(bad)); assert(not m.parse_uuid(bad)); assert(not m.parse_relative(bad))
end
assert(not m.parse_snowflake("184467440737095516160"))
raises("size must be 1..1048576, got 0", m.nanoid, 0)
raises("alphabet must have 1 to 256 symbols, got 0", m.nanoid, 5, "")
raises("multi-byte UTF-8 character at byte 1", m.nanoid, 5, "αβγ")
raises("size must be 1..1048576, got 1099511627776", m.nanoid, 2^40)
raises("secret must be at least 16 bytes, got 5", m.relative_generator, { secret = "short" })
raises("unknown option 'nope'", m.ulid_generator, { nope = true })
raises("machine_id must be 0..1023, got 1024", m.snowflake_generator, { machine_id = 1024 })

local draws = 0
local g = m.ulid_generator { clock = function() return 5 end, random = function(n) draws = draws + 1; return ("\255"):rep(n) end }
g:next(); assert(not g:next()) -- overflow, state kept
local short = m.ulid_generator { random = function() return "x" end }
raises("random(10) returned 1 bytes, want 10", short.next, short)
local failing = m.uuid7_generator { random = function() error("boom") end }
raises("boom", failing.next, failing) -- the error of random itself

for i = 1, 200 do
   local r = m.relative_generator { secret = ("secret-%04d-0123456789"):format(i), salt = "s" }
   r:next("key"); r:next(("k"):rep(100)); r:prefix("key")
   local v = m.parse_relative(r:next("key")); assert(v:tag() == r:tag("key"))
end
local n = m.nanoid_generator { size = 2000, alphabet = "abc" }
assert(#n:next() == 2000)
-- CUID2: every length, a long given fingerprint, a source it rejects
for length = 2, 32 do assert(m.is_cuid2(m.cuid2(length))) end
local c2 = m.cuid2_generator { fingerprint = ("f"):rep(256), length = 32 }
for _ = 1, 50 do assert(#c2:next() == 32) end
local rejected = m.cuid2_generator { fingerprint = "fp", random = function(k) return ("\255"):rep(k) end }
raises("64 counter draws in a row out of range", rejected.next, rejected)
raises("length must be 2..32, got 33", m.cuid2, 33)
local s = m.snowflake_generator { machine_id = 3, epoch = 1288834974657 }
for _ = 1, 5000 do s:next() end
-- layouts: presets and tables, read back, refused (naming the field), on a fence
for _, layout in ipairs { "sonyflake", "instagram", { time_bits = 41, time_unit_ms = 1000, machine_bits = 4,
      seq_bits = 8, order = "time-seq-machine" } } do
   local lg = m.snowflake_generator { layout = layout, machine_id = 3 }
   for _ = 1, 300 do assert(m.parse_snowflake(lg:next(), layout)) end
   assert(m.snowflake_layout(layout).time_bits)
   local lf = m._lease_fence(layout)
   assert(select(2, lf:layout()))
end
raises("layout: unknown field 'x'", m.snowflake_layout, { time_bits = 1, machine_bits = 1, seq_bits = 1, x = 1 })
raises("layout: unknown layout preset", m.snowflake_generator, { layout = "nope" })
raises("machine_id must be 0..65535, got 65536", m.snowflake_generator, { layout = "sonyflake", machine_id = 65536 })
assert(not m.parse_snowflake("18446744073709551615", "sonyflake"))
local u = m.parse_uuid(m.uuid7())
assert(u:time() and u:ulid() and u == m.uuid_from_bytes(u:bytes()))
-- hooks kept as user values, reachable from the generator they belong to
for _ = 1, 100 do
   local holder = {}
   holder.g = m.relative_generator { secret = ("x"):rep(32), clock = function() return holder.now or 1 end,
      random = function(k) return ("\1"):rep(k) end }
   holder.g:next(42); holder.g:next("key")
end
-- trace context: fresh and given ids, every way a header or an id is refused
for _ = 1, 50 do
   local header = m.traceparent(m.trace_id(), m.span_id(), 1)
   local t, p, f = m.parse_traceparent(header)
   assert(m.traceparent(t, p, f) == header and m.traceparent(nil, p) and m.traceparent(t))
end
local T, P = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
for _, bad in ipairs { "", "ff-" .. T .. "-" .. P .. "-01", "00-" .. T .. "-" .. P .. "-01\0", "00-" .. T:upper() .. "-" .. P .. "-01",
   "01-" .. T .. "-" .. P .. "-01x", "00-" .. ("0"):rep(32) .. "-" .. P .. "-01" } do
   assert(not m.parse_traceparent(bad)); assert(not m.traceparent(bad:sub(4, 35)) or bad:sub(4, 35) == T)
end
assert(m.parse_traceparent("01-" .. T .. "-" .. P .. "-01-" .. ("x"):rep(5000)))
raises("flags must be an integer 0..255, got 256", m.traceparent, nil, nil, 256)
raises("string expected, got number", m.traceparent, 5)
raises("string expected, got nil", m.parse_traceparent, nil)
-- leases: a fence kept by its generators, the anchor kept by the fence, and
-- lock file handles (malloc'd by the platform layer) closed and collected
local lock_path = os.tmpname()
for i = 1, 50 do
   local f = m._lease_fence()
   local gen = m.snowflake_generator { lease = { _fence = f } }
   assert(not gen:next())
   local lf = assert(m._lock_file(lock_path))
   assert(lf:lock(i % 8))
   f:hold(i % 8, i % 2 == 0 and math.huge or 30, 0, lf)
   for _ = 1, 100 do assert(gen:next()) end
   assert(f:state() == "held" and f:machine_id() == i % 8 and tostring(f))
   raises("machine_id must be 0..1023, got 1024", f.hold, f, 1024, 1, 0)
   if i % 3 == 0 then lf:close() end -- else collected once the fence lets it go
   f:drop("released")
   assert(not gen:next())
   lf = nil -- luacheck: ignore 311
   collectgarbage()
end
-- a generator whose user values the debug library cleared still keeps its
-- fence: no read or write of freed memory when it mints after a collection
do
   local f = m._lease_fence()
   f:hold(9, 30, 0)
   local gen = m.snowflake_generator { lease = { _fence = f } }
   for i = 1, 8 do debug.setuservalue(gen, nil, i) end
   f = nil -- luacheck: ignore 311
   collectgarbage(); collectgarbage()
   local others = {}
   for i = 1, 50 do others[i] = m._lease_fence() end
   local id = assert(gen:next())
   assert(select(2, m.parse_snowflake(id)) == 9 and others[50]:state() == "unheld")
end
assert(m._lock_file("/nonexistent-dir-of-mintid/x") == nil)
collectgarbage(); collectgarbage()
os.remove(lock_path)
collectgarbage(); collectgarbage()
print("memcheck script done")
