-- make bench: time per ID for each mintid call, next to baselines measured in
-- the same run (these machines are noisy, so only same-run ratios mean much).
-- Baselines: a C function returning a fresh 26-char string (the floor for any
-- ID from C), and pure-Lua ULID / UUIDv4 / Nano ID written the way the common
-- Lua libraries do it (math.random), which is what mintid replaces.
-- Prints figures; never fails on timing.
local mintid = require "mintid"

local clock = os.clock
local floor, random, concat = math.floor, math.random, table.concat
local format = string.format

-- Each figure is the median of ROUNDS rounds of about ROUND seconds, so one
-- noisy round (another process, a GC cycle) does not move it.
local ROUND = tonumber(os.getenv("BENCH_SECONDS") or "") or 0.05
local ROUNDS = 7

-- Calls per round: grown until one round takes ROUND seconds.
local function calibrate(f)
   local n = 1000
   while true do
      local t0 = clock()
      for _ = 1, n do f() end
      local dt = clock() - t0
      if dt >= ROUND then return n end
      n = n * (dt > 0.005 and math.ceil(ROUND / dt * 1.1) or 10)
   end
end

local function time_per_call(f)
   local n = calibrate(f)
   local ns = {}
   for r = 1, ROUNDS do
      local t0 = clock()
      for _ = 1, n do f() end
      ns[r] = (clock() - t0) / n * 1e9
   end
   table.sort(ns)
   return ns[(ROUNDS + 1) / 2]
end

-- pure-Lua baselines ------------------------------------------------------
local B32 = {}
do
   local a = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
   for i = 1, 32 do B32[i - 1] = a:sub(i, i) end
end
math.randomseed(os.time())

local function lua_ulid()
   local t = floor(os.time() * 1000)
   local out = {}
   for i = 10, 1, -1 do
      out[i] = B32[t % 32]
      t = floor(t / 32)
   end
   for i = 11, 26 do out[i] = B32[random(0, 31)] end
   return concat(out)
end

-- 16-bit pieces: Lua 5.1's math.random takes C ints only.
local function lua_uuid4()
   return (format("%04x%04x-%04x-4%03x-%x%03x-%04x%04x%04x", random(0, 0xffff), random(0, 0xffff),
      random(0, 0xffff), random(0, 0xfff), random(8, 11), random(0, 0xfff),
      random(0, 0xffff), random(0, 0xffff), random(0, 0xffff)))
end

-- A trace-id the way Lua tracers make one: math.random, 16 bits at a time.
local function lua_trace_id()
   return (format("%04x%04x%04x%04x%04x%04x%04x%04x", random(0, 0xffff), random(0, 0xffff), random(0, 0xffff),
      random(0, 0xffff), random(0, 0xffff), random(0, 0xffff), random(0, 0xffff), random(0, 0xffff)))
end

local NANO = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"
local NANO_T = {}
for i = 1, 64 do NANO_T[i - 1] = NANO:sub(i, i) end
local function lua_nanoid()
   local out = {}
   for i = 1, 21 do out[i] = NANO_T[random(0, 63)] end
   return concat(out)
end

-- string.sub of a long random text at a moving offset: one C call that
-- returns a new 26-char string each time, the least any ID-returning C call
-- costs. The text is long enough that no string repeats within a round: Lua
-- interns short strings, and a repeated one still in the string table would
-- be found there instead of allocated, a floor no ID could reach.
local OFFSETS = 1048576
local SOURCE = {}
for i = 1, OFFSETS + 64 do SOURCE[i] = B32[random(0, 31)] end
SOURCE = concat(SOURCE)
local offset = 0
local sub = string.sub
local function c_fresh_string()
   offset = offset % OFFSETS + 1
   return sub(SOURCE, offset, offset + 25)
end

-- runs ----------------------------------------------------------------------
local ulid_g = mintid.ulid_generator()
local uuid7_g = mintid.uuid7_generator()
local rel_g = mintid.relative_generator { secret = "bench-secret-0123456789abcdef" }
local snow_g = mintid.snowflake_generator { machine_id = 7, epoch = 1288834974657 }
local nano_g = mintid.nanoid_generator { size = 16, alphabet = "0123456789abcdef" }
local sample_ulid = mintid.ulid()
local sample_traceparent = mintid.traceparent(nil, nil, 1)

print(format("mintid %s on %s", mintid._VERSION, _VERSION .. (jit and (" / " .. jit.version) or "")))
local floor_ns = time_per_call(c_fresh_string)
print(format("%-40s %8.1f ns", "baseline: fresh 26-char string from C", floor_ns))
print()
print(format("%-40s %10s %12s %14s", "call", "ns/ID", "x C floor", "faster than Lua"))

local function row(name, f, lua_f)
   local ns = time_per_call(f)
   local vs_lua = ""
   if lua_f then vs_lua = format("%13.1fx", time_per_call(lua_f) / ns) end
   print(format("%-40s %10.1f %11.2fx %14s", name, ns, ns / floor_ns, vs_lua))
end

-- Every row, baselines included, is one Lua function calling what it names.
row("mintid.ulid()", function() return mintid.ulid() end, lua_ulid)
row("mintid.uuid7()", function() return mintid.uuid7() end, lua_uuid4)
row("mintid.uuid4()", function() return mintid.uuid4() end, lua_uuid4)
row("mintid.nanoid()", function() return mintid.nanoid() end, lua_nanoid)
row("ulid_generator():next()", function() return ulid_g:next() end, lua_ulid)
row("uuid7_generator():next()", function() return uuid7_g:next() end)
row("relative_generator():next(key)", function() return rel_g:next("customer-42") end)
row("snowflake_generator():next()", function() return snow_g:next() end)
row("nanoid_generator{16, hex}:next()", function() return nano_g:next() end)
row("mintid.parse_ulid(text)", function() return mintid.parse_ulid(sample_ulid) end)
row("mintid.trace_id()", function() return mintid.trace_id() end, lua_trace_id)
row("mintid.span_id()", function() return mintid.span_id() end)
row("mintid.traceparent()", function() return mintid.traceparent() end)
row("mintid.parse_traceparent(header)", function() return mintid.parse_traceparent(sample_traceparent) end)

-- Targets (issue 9): each call against a fresh string of its own length,
-- the two measured round by round in turn, so a slow moment of the machine
-- weighs on both alike.
local function fresh_string_of(len)
   local off = 0
   return function()
      off = off % OFFSETS + 1
      return sub(SOURCE, off, off + len - 1)
   end
end

local function paired(f, floor_f)
   local n = calibrate(f)
   local a, b = {}, {}
   for r = 1, ROUNDS do
      local t0 = clock()
      for _ = 1, n do f() end
      a[r] = (clock() - t0) / n * 1e9
      t0 = clock()
      for _ = 1, n do floor_f() end
      b[r] = (clock() - t0) / n * 1e9
   end
   table.sort(a)
   table.sort(b)
   return a[(ROUNDS + 1) / 2], b[(ROUNDS + 1) / 2]
end

print()
print(format("%-36s %8s %10s %8s %8s  %s", "target (same-length floor)", "ns/ID", "floor ns", "ratio", "target", "met"))
local met, total = 0, 0
local function target(name, f, len, limit)
   local ns, fl = paired(f, fresh_string_of(len))
   local ok = ns / fl <= limit
   total = total + 1
   if ok then met = met + 1 end
   print(format("%-36s %8.1f %10.1f %7.2fx %7.1fx  %s", name, ns, fl, ns / fl, limit, ok and "yes" or "NO"))
end
target("mintid.uuid4() (36)", function() return mintid.uuid4() end, 36, 1.4)
target("mintid.nanoid() (21)", function() return mintid.nanoid() end, 21, 1.4)
target("mintid.trace_id() (32)", function() return mintid.trace_id() end, 32, 1.4)
target("mintid.ulid() (26)", function() return mintid.ulid() end, 26, 1.5)
target("mintid.uuid7() (36)", function() return mintid.uuid7() end, 36, 1.5)
target("snowflake_generator():next() (19)", function() return snow_g:next() end, 19, 1.5)
target("relative next(same key) (28)", function() return rel_g:next("customer-42") end, 28, 1.7)
print(format("%d of %d targets met in this run", met, total))

-- Leases (issue 21): next() of a generator on a held lease fence against a
-- static machine_id one, each rotating over 16 machine ids so that 4096
-- IDs a ms do not bound it; measured round by round in turn.
local function sixteen(make)
   local gens, i = {}, 0
   for id = 0, 15 do gens[id + 1] = make(id) end
   return function()
      i = i % 16 + 1
      return gens[i]:next()
   end
end
local static16 = sixteen(function(id) return mintid.snowflake_generator { machine_id = id, epoch = 1288834974657 } end)
-- valid_for: math.huge as a lock file holds, an hour as a Redis lease does
-- (whose deadline is read on every ID).
local function leased16(valid_for)
   return sixteen(function(id)
      local fence = mintid._lease_fence()
      fence:hold(id, valid_for, 0)
      return mintid.snowflake_generator { lease = { _fence = fence }, epoch = 1288834974657 }
   end)
end
print()
for _, case in ipairs({ { "no deadline", math.huge }, { "a deadline", 3600 } }) do
   local le, st = paired(leased16(case[2]), static16)
   print(format("%-44s %8.1f ns, static x16 %8.1f ns: %.2fx (target within 1.10x: %s)",
      "snowflake next() x16, lease with " .. case[1], le, st, le / st, le / st <= 1.10 and "yes" or "NO"))
end

-- Layouts (issue 28): a Sonyflake generator's next() (10 ms units: one
-- division a call) against the default layout's, each rotating over 4096
-- generators so that neither waits for a unit (Sonyflake's 256 IDs per 10
-- ms make 100M IDs/s over them; the default layout's 1024 machine ids are
-- taken four times, with four epochs); measured round by round in turn.
local function rotating4096(layout)
   local gens, i = {}, 0
   for id = 0, 4095 do
      local max = mintid.snowflake_layout(layout).machine_bits >= 12 and 4096 or 1024
      gens[id + 1] = mintid.snowflake_generator { layout = layout, machine_id = id % max,
         epoch = mintid.snowflake_layout(layout).epoch + (id - id % max) / max }
   end
   return function()
      i = i % 4096 + 1
      return gens[i]:next()
   end
end
do
   local sony, default = paired(rotating4096("sonyflake"), rotating4096("mintid"))
   print(format("%-44s %8.1f ns, default layout %8.1f ns: %.2fx (target within 1.10x: %s)",
      "snowflake next() x4096, Sonyflake layout", sony, default, sony / default,
      sony / default <= 1.10 and "yes" or "NO"))
end

-- Memory: 10M calls of each kind (BENCH_CALLS to change) must leave the Lua
-- heap and the process's resident set flat.
local function rss_kb()
   local f = io.open("/proc/self/statm")
   if not f then return nil end
   local pages = f:read("*n") and f:read("*n")
   f:close()
   return pages and pages * 4
end

local CALLS = tonumber(os.getenv("BENCH_CALLS") or "") or 10000000
print()
print(format("memory over %d calls of each (Lua heap KiB, process RSS KiB, after a full GC):", CALLS))
print(format("%-36s %10s %10s %10s %10s", "call", "heap before", "heap after", "RSS before", "RSS after"))
local function memory(name, f)
   collectgarbage()
   collectgarbage()
   local h0, r0 = collectgarbage("count"), rss_kb()
   for _ = 1, CALLS do f() end
   collectgarbage()
   collectgarbage()
   local h1, r1 = collectgarbage("count"), rss_kb()
   print(format("%-36s %10.0f %10.0f %10s %10s", name, h0, h1, r0 or "n/a", r1 or "n/a"))
end
local uuid4_g = mintid.uuid4_generator()
memory("mintid.ulid()", function() return mintid.ulid() end)
memory("mintid.uuid7()", function() return mintid.uuid7() end)
memory("mintid.uuid4()", function() return mintid.uuid4() end)
memory("mintid.nanoid()", function() return mintid.nanoid() end)
memory("mintid.trace_id()", function() return mintid.trace_id() end)
memory("ulid_generator():next()", function() return ulid_g:next() end)
memory("uuid7_generator():next()", function() return uuid7_g:next() end)
memory("uuid4_generator():next()", function() return uuid4_g:next() end)
memory("relative_generator():next(key)", function() return rel_g:next("customer-42") end)
memory("snowflake_generator():next()", function() return snow_g:next() end)

-- Generator size: the Lua heap one generator takes (its userdata, sized for
-- its kind's state, with Lua's own header), from 1000 of them.
print()
print("generator objects (Lua heap per object, userdata header included):")
local function gen_size(name, make, opts)
   local keep = {}
   for i = 1, 1000 do keep[i] = false end -- the table's own growth is not counted
   collectgarbage()
   collectgarbage()
   collectgarbage("stop")
   local h0 = collectgarbage("count")
   for i = 1, 1000 do keep[i] = make(opts) end
   local h1 = collectgarbage("count")
   collectgarbage("restart")
   print(format("  %-34s %6.0f bytes", name, (h1 - h0) * 1024 / #keep))
end
gen_size("ulid_generator()", mintid.ulid_generator)
gen_size("uuid7_generator()", mintid.uuid7_generator)
gen_size("uuid4_generator()", mintid.uuid4_generator)
gen_size("relative_generator{secret}", mintid.relative_generator, { secret = "bench-secret-0123456789abcdef" })
gen_size("snowflake_generator{machine_id}", mintid.snowflake_generator, { machine_id = 7 })
gen_size("nanoid_generator()", mintid.nanoid_generator)
print("  (the same userdata before sizing per kind: 344 bytes of state for every kind)")

print()
print("'faster than Lua' compares with a pure-Lua math.random implementation of the")
print("same kind measured in this run (uuid7 against the Lua UUIDv4, the closest one).")
print("Under LuaJIT the pure-Lua baselines are JIT-compiled while a Lua C API call")
print("ends the trace, so these ratios are PUC Lua's; LuaJIT's fast path is an FFI binding.")
