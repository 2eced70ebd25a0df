-- The binding's paths that neither spec/memcheck.lua nor one short storm
-- is sure to reach, for the HARDMEMTESTS subset (spec/testmode/hardmem.sh):
-- the functions resty.mintid calls through mintid._ffi, and a generator
-- giving up when a finalizer mints from it during every try. With the
-- argument "clock" (run under failing_clock.so): the OS clock's failure.
local m = require "mintid"

if arg[1] == "clock" then
    for _, f in ipairs({ m.ulid, function() return m.ulid_generator():next() end }) do
        local ok, err = pcall(f)
        assert(not ok and tostring(err):find("clock_gettime failed", 1, true), tostring(err))
        print("paths: the OS clock's failure raised: " .. tostring(err))
    end
    return
end

local F = m._ffi
assert(type(F.nanoid_spec(21, "abc")) == "userdata", "_ffi.nanoid_spec of a good alphabet")
assert(select("#", F.nanoid_spec(0, "")) == 0, "_ffi.nanoid_spec of a bad size: nothing")
local none, msg = F.fail(1, "bad data")
assert(none == nil and msg == "bad data", tostring(msg))
local values = F.new_values(assert(m.parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAV")), 3, {})
assert(#values == 3 and tostring(values[3]) == "00000000000000000000000000", tostring(values[3]))
assert(type(F.snowflake_layout("sonyflake")) == "userdata", "_ffi.snowflake_layout")
assert(not pcall(F.snowflake_layout, "no-such-layout"))
assert(type(F.short_uuid_alphabet("0123456789")) == "userdata", "_ffi.short_uuid_alphabet of a good alphabet")
assert(F.short_uuid_alphabet("aa") == nil, "_ffi.short_uuid_alphabet of a bad alphabet: nil")

-- Paths a short storm may miss: a Sqids number that is not an integer,
-- and a TypeID value's methods.
local encoded, why = pcall(m.sqids().encode, m.sqids(), { 1.5 })
assert(not encoded and tostring(why):find("got 1.5", 1, true), tostring(why))
local t = assert(m.parse_typeid("user_01h455vb4pex5vsknk084sn02q"))
assert(t:prefix() == "user" and t:uuid() and t:time() and t:iso() and tostring(t), "TypeID value methods")
assert(tostring(m.typeid_from("user", t:uuid())) == tostring(t), "typeid_from")

-- Finalizers one per collection cycle (each lets go of the next), each
-- minting from g while g:next() runs: under HARDMEMTESTS every allocation
-- is a whole cycle, so every try of g:next() is made stale.
local ms = 1700000000000
local g = m.ulid_generator { clock = function() ms = ms + 1; return ms end,
    random = function(n) return ("\7"):rep(n) end }
local on, held, minted = false, {}, 0
for i = 1, 50 do
    held[i] = setmetatable({}, { __gc = function()
        held[i + 1] = nil
        if on then
            minted = minted + 1
            pcall(g.next, g)
        end
    end })
end
on = true
held[1] = nil
local ok, err = pcall(g.next, g)
on = false
assert(not ok and tostring(err):find("used by a finalizer during each of 4 tries", 1, true), tostring(err))
assert(minted >= 4, "finalizers that minted: " .. minted)
assert(held[50], "every finalizer of the chain ran: it gave up for want of finalizers, not of tries")
print("paths: _ffi functions, and a generator giving up after " .. minted .. " mints of its finalizers: done")
