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

local NANO = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"
local NANO_T = {}
for i = 1, 64 do NANO_T[i - 1] = NANO:sub(i, i) end
local function lua_nanoid()
   local out = {}
   for i = 1, 21 do out[i] = NANO_T[random(0, 63)] end
   return concat(out)
end

-- string.sub of a long text at a moving offset: one C call that returns a
-- new 26-char string each time, the least any ID-returning C call costs.
local SOURCE = {}
for i = 1, 4096 do SOURCE[i] = B32[random(0, 31)] end
SOURCE = concat(SOURCE)
local offset = 0
local sub = string.sub
local function c_fresh_string()
   offset = offset % 4000 + 1
   return sub(SOURCE, offset, offset + 25)
end

-- runs ----------------------------------------------------------------------
local ulid_g = mintid.ulid_generator()
local uuid7_g = mintid.uuid7_generator()
local rel_g = mintid.relative_generator { secret = "bench-secret-0123456789abcdef" }
local snow_g = mintid.snowflake_generator { machine_id = 7, epoch = 1288834974657 }
local nano_g = mintid.nanoid_generator { size = 16, alphabet = "0123456789abcdef" }
local sample_ulid = mintid.ulid()

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
print()
print("'faster than Lua' compares with a pure-Lua math.random implementation of the")
print("same kind measured in this run (uuid7 against the Lua UUIDv4, the closest one).")
print("Under LuaJIT the pure-Lua baselines are JIT-compiled while a Lua C API call")
print("ends the trace, so these ratios are PUC Lua's; LuaJIT's fast path is an FFI binding.")
