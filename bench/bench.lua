-- make bench: time per ID for each mintid call, next to baselines measured in
-- the same run (these machines are noisy, so only same-run ratios mean much).
-- Baselines: the floor (bench/floor.c: a C function of no arguments that
-- returns a fresh string of the ID's length), and pure-Lua ULID / UUIDv4 /
-- Nano ID written the way the common Lua libraries do it (math.random),
-- which is what mintid replaces.
-- Prints figures; never fails on timing.
local mintid = require "mintid"

local clock = os.clock
local floor, random, concat = math.floor, math.random, table.concat
local format = string.format

-- Each figure is the median of ROUNDS rounds of about ROUND seconds, so one
-- noisy round (another process, a GC cycle) does not move it.
local ROUND = tonumber(os.getenv("BENCH_SECONDS") or "") or 0.05
local ROUNDS = 11

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

-- The floor (bench/floor.c): fresh<N>() returns a string of N bytes that
-- no call returned before, from a C function of no arguments; the least any
-- ID-returning call can cost, since each ID is such a string. Every "x floor"
-- figure is a call against the floor of its length, the two timed round by
-- round in turn (a slow moment of the machine weighs on both alike), medians.
-- Called as each row calls mintid: one Lua function that looks the C
-- function up in its module table and calls it.
local fresh = require "mintid_bench_floor"
local function floor_of(len)
   assert(fresh["fresh" .. len], "no floor of that length")
   return assert(load("local fresh = ...; return function() return fresh.fresh" .. len .. "() end"))(fresh)
end

-- Each round starts from a collected heap (outside the timing), so that
-- neither side pays for garbage the other left; the collector's work on a
-- round's own garbage is in its time, as it is in a user's.
local function paired(f, floor_f)
   local n = calibrate(f)
   local a, b = {}, {}
   for r = 1, ROUNDS do
      collectgarbage()
      local t0 = clock()
      for _ = 1, n do f() end
      a[r] = (clock() - t0) / n * 1e9
      collectgarbage()
      t0 = clock()
      for _ = 1, n do floor_f() end
      b[r] = (clock() - t0) / n * 1e9
   end
   table.sort(a)
   table.sort(b)
   return a[(ROUNDS + 1) / 2], b[(ROUNDS + 1) / 2]
end

-- Rows of the target table (issue 27): appended to the file BENCH_TARGETS
-- names, which `make bench` prints once every part has run.
local targets_file = os.getenv("BENCH_TARGETS")
local function target_row(what, measured, limit, ok)
   local line = format("%s\t%s\t%s\t%s\n", what, measured, limit, ok and "met" or "not met")
   if targets_file then
      local f = assert(io.open(targets_file, "a"))
      f:write(line)
      f:close()
   end
end

-- runs ----------------------------------------------------------------------
-- Snowflake: 16 generators in turn, each with its own machine id, so that
-- the 4096 IDs a millisecond one may give do not bound the call.
local function sixteen(make)
   local gens, i = {}, 0
   for id = 0, 15 do gens[id + 1] = make(id) end
   return function()
      i = i % 16 + 1
      return gens[i]:next()
   end
end
-- The floor of such a row turns over 16 entries the same way, so that the
-- turning is on both sides: only g:next() against the floor's call remains.
local function sixteen_floor(f)
   local fs, i = {}, 0
   for k = 1, 16 do fs[k] = f end
   return function()
      i = i % 16 + 1
      return fs[i]()
   end
end
local ulid_g = mintid.ulid_generator()
local uuid7_g = mintid.uuid7_generator()
local rel_g = mintid.relative_generator { secret = "bench-secret-0123456789abcdef" }
local static16 = sixteen(function(id) return mintid.snowflake_generator { machine_id = id, epoch = 1288834974657 } end)
local nano_g = mintid.nanoid_generator { size = 16, alphabet = "0123456789abcdef" }
local cuid2_g = mintid.cuid2_generator()
local sample_ulid = mintid.ulid()
local sample_uuid = mintid.uuid7()
local sample_traceparent = mintid.traceparent(nil, nil, 1)
local SNOW_LEN = #tostring(static16()) -- its decimal length (a string on Lua 5.1 and 5.2)

print(format("mintid %s on %s", mintid._VERSION, _VERSION .. (jit and (" / " .. jit.version) or "")))
print(format("floor: a C function of no arguments returning a fresh N-byte string (lua_pushlstring),"))
print(format("or a fresh integer for a call that returns one;"))
print(format("each row against the floor of its length, %d rounds in turn, medians", ROUNDS))
print()
print(format("%-36s %8s %9s %9s %14s", "call", "ns/ID", "floor ns", "x floor", "faster than Lua"))

local measured = {}
-- Every row, baselines included, is one Lua function calling what it names;
-- len is the length of its result (26 for a parsed value: the ULID's).
local function row(name, f, len, lua_f, floor_f)
   local ns, fl = paired(f, floor_f or floor_of(len))
   local vs_lua = ""
   if lua_f then vs_lua = format("%13.1fx", time_per_call(lua_f) / ns) end
   measured[name] = ns / fl
   -- A parse makes no new ID string (a value, or strings its header held,
   -- found in the string table): the floor for scale, no ratio.
   local vs_floor = name:find("^mintid%.parse_") and format("%9s", "-") or format("%8.2fx", ns / fl)
   print(format("%-36s %8.1f %9.1f %s %14s", name, ns, fl, vs_floor, vs_lua))
end

row("mintid.ulid()", function() return mintid.ulid() end, 26, lua_ulid)
row("mintid.uuid7()", function() return mintid.uuid7() end, 36, lua_uuid4)
row("mintid.uuid4()", function() return mintid.uuid4() end, 36, lua_uuid4)
row("mintid.nanoid()", function() return mintid.nanoid() end, 21, lua_nanoid)
-- Not mintid: the floor's string with its counter where Lua 5.4 hashes it
-- first (bench/floor.c has why), against the floor: what the floor saves
-- by where its counter is, which no random ID's string can.
row("  the floor, counter hashed first", function() return fresh.counter_at_end21() end, 21)
row("mintid.trace_id()", function() return mintid.trace_id() end, 32, lua_trace_id)
row("ulid_generator():next()", function() return ulid_g:next() end, 26, lua_ulid)
row("uuid7_generator():next()", function() return uuid7_g:next() end, 36)
row("relative_generator():next(key)", function() return rel_g:next("customer-42") end, 28)
if math.type and math.type(static16()) == "integer" then
   -- It returns an integer here: the cheapest honest floor is a new
   -- integer, and the target row is against it; the string of its decimal
   -- length (what it returns on Lua 5.1 and 5.2) below it.
   row("snowflake_generator():next() x16", static16, nil, nil, sixteen_floor(fresh.fresh_integer))
   row("  vs a string of its length", static16, SNOW_LEN, nil,
      sixteen_floor(fresh["fresh" .. SNOW_LEN]))
   -- Not mintid: the same look-up and call of a C method that does no
   -- work (bench/floor.c's holder), against the same floor: how near any
   -- g:next() can come to it.
   row("  a C method doing nothing x16", sixteen(fresh.holder), nil, nil,
      sixteen_floor(fresh.fresh_integer))
else
   row("snowflake_generator():next() x16", static16, SNOW_LEN, nil, sixteen_floor(fresh["fresh" .. SNOW_LEN]))
end
row("nanoid_generator{16, hex}:next()", function() return nano_g:next() end, 16)
row("mintid.span_id()", function() return mintid.span_id() end, 16)
row("mintid.traceparent()", function() return mintid.traceparent() end, 55)
-- CUID2: a SHA3-512 (one Keccak-f[1600] permutation) and a 512-bit
-- base-36 conversion per ID, far above any floor; against the floor of
-- its 24 characters all the same, the honest one.
row("mintid.cuid2()", function() return mintid.cuid2() end, 24)
row("cuid2_generator():next()", function() return cuid2_g:next() end, 24)
row("mintid.parse_ulid(text) (a value)", function() return mintid.parse_ulid(sample_ulid) end, 26)
row("mintid.parse_uuid(text) (a value)", function() return mintid.parse_uuid(sample_uuid) end, 26)
row("mintid.parse_traceparent(header)", function() return mintid.parse_traceparent(sample_traceparent) end, 32)
-- Sqids: one number of 63 bits (11 symbols and the prefix), a new one each
-- call, in one table the loop refills (as a caller encoding row ids would).
do
   local s, numbers, n = mintid.sqids(), { 0 }, math.maxinteger and math.maxinteger // 2 or 2 ^ 53 - 1
   local len = #s:encode({ n })
   row("sqids():encode({ 63-bit number })", function()
      n = n - 1
      numbers[1] = n
      return s:encode(numbers)
   end, len)
end

-- Short UUIDs: 4096 UUIDs in turn, as text and as values, against the
-- floor of a conversion (bench/floor.c's cut22_*: the UUID read, 22 bytes
-- of it returned, repeating as the short UUIDs do).
do
   local texts, values, shorts, i = {}, {}, {}, 0
   for k = 1, 4096 do
      texts[k] = mintid.uuid4()
      values[k] = mintid.parse_uuid(texts[k])
   end
   local function turn(f, list)
      return function()
         i = i % 4096 + 1
         return f(list[i])
      end
   end
   local short_uuid, parse_short_uuid = mintid.short_uuid, mintid.parse_short_uuid
   row("mintid.short_uuid(text)", turn(function(t) return short_uuid(t) end, texts), nil, nil,
      turn(function(t) return fresh.cut22_text(t) end, texts))
   row("mintid.short_uuid(value)", turn(function(v) return short_uuid(v) end, values), nil, nil,
      turn(function(v) return fresh.cut22_value(v) end, values))
   local cookie = mintid.SHORT_UUID_COOKIE
   row("mintid.short_uuid(text, cookie)", turn(function(t) return short_uuid(t, cookie) end, texts), nil, nil,
      turn(function(t) return fresh.cut22_text(t) end, texts))
   -- Made only now: held in a table before, the conversions' strings
   -- would stay in Lua's string table through each round's collection,
   -- found there where the floor's are made again.
   for k = 1, 4096 do shorts[k] = short_uuid(texts[k]) end
   row("mintid.parse_short_uuid(text) (a value)", turn(function(t) return parse_short_uuid(t) end, shorts), 26)
end

-- The targets of issues 27 and 39 this part measures.
for _, t in ipairs({
   { "mintid.uuid4()", 1.25 }, { "mintid.nanoid()", 1.25 }, { "mintid.trace_id()", 1.25 },
   { "mintid.ulid()", 1.5 }, { "mintid.uuid7()", 1.5 },
   { "relative_generator():next(key)", 1.8 }, { "snowflake_generator():next() x16", 1.2 },
   { "mintid.short_uuid(text)", 1.3 }, { "mintid.short_uuid(value)", 1.3 },
   { "sqids():encode({ 63-bit number })", 2.0 }, { "mintid.cuid2()", 3.0 },
}) do
   local ratio = measured[t[1]]
   target_row("Lua 5.4 " .. t[1], format("%.2fx floor", ratio), format("<= %.2fx", t[2]), ratio <= t[2])
end

-- ObjectId and XID (issue 39): the process-wide generators (a lock held
-- for the step) and generators of their own, against the floor of their
-- text's length.
do
   local oid_g, xid_g = mintid.objectid_generator(), mintid.xid_generator()
   row("mintid.objectid()", function() return mintid.objectid() end, 24)
   row("mintid.xid()", function() return mintid.xid() end, 20)
   row("objectid_generator():next()", function() return oid_g:next() end, 24)
   row("xid_generator():next()", function() return xid_g:next() end, 20)
   for _, t in ipairs({ { "mintid.objectid()", 1.3 }, { "mintid.xid()", 1.3 } }) do
      local ratio = measured[t[1]]
      target_row("Lua 5.4 " .. t[1], format("%.2fx floor", ratio), format("<= %.2fx", t[2]), ratio <= t[2])
   end
end

-- Leases (issue 21): next() of a generator on a held lease fence against a
-- static machine_id one, each rotating over 16 machine ids so that 4096
-- IDs a ms do not bound it; measured round by round in turn.
-- valid_for: math.huge as a lock file holds, an hour as a Redis lease does
-- (whose deadline is read on every ID, and which gives its fence the last
-- ms it told its store, an hour on). The floor, as a take leaves it: the
-- wall ms of the take (here a few seconds back, so that no ID waits for
-- it), which every ID is checked against.
local TAKEN_MS = (os.time() - 2) * 1000
local function leased16(valid_for)
   return sixteen(function(id)
      local fence = mintid._lease_fence()
      fence:hold(id, valid_for, TAKEN_MS, nil, valid_for < math.huge and TAKEN_MS + valid_for * 1000 or nil)
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
memory("snowflake_generator():next() x16", static16)

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
gen_size("cuid2_generator()", mintid.cuid2_generator)
print("  (the same userdata before sizing per kind: 344 bytes of state for every kind)")

print()
print("'faster than Lua' compares with a pure-Lua math.random implementation of the")
print("same kind measured in this run (uuid7 against the Lua UUIDv4, the closest one).")
print("Under LuaJIT the pure-Lua baselines are JIT-compiled while a Lua C API call")
print("ends the trace, so these ratios are PUC Lua's; LuaJIT's fast path is an FFI binding.")
