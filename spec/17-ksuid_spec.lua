-- KSUID (SPEC.md "KSUID"): 32-bit seconds since 1400000000 | 128-bit
-- payload, 27 characters of base62.
local h = require "helper"
local mintid = require(h.module_name)

local KSUID_PATTERN = "^[0-9A-Za-z]" .. ("[0-9A-Za-z]"):rep(26) .. "$"
local MIN_S, MAX_S = 1400000000, 5694967295

describe("KSUID", function()
    describe("vectors", function()
        it("ksuid.txt: parse_ksuid, bytes, payload, time, ksuid_from and ksuid_from_bytes", function()
            h.each_vector("ksuid.txt", { "text", "bytes_hex", "unix_s" }, function(r, w)
                local bytes, s = h.fromhex(r.bytes_hex), h.num(r.unix_s)
                local k = mintid.parse_ksuid(r.text)
                assert(k ~= nil, w .. ": parse_ksuid failed")
                assert.are.equal(r.text, tostring(k), w)
                assert.are.equal(r.bytes_hex, h.tohex(k:bytes()), w)
                assert.are.equal(bytes:sub(5), k:payload(), w)
                assert.are.equal(s * 1000, k:time(), w)
                assert.are.equal(k, mintid.ksuid_from(s, bytes:sub(5)), w)
                assert.are.equal(k, mintid.ksuid_from_bytes(bytes), w)
                assert.are.equal(r.text, tostring(mintid.ksuid_from_bytes(bytes)), w)
            end)
        end)

        it("ksuid_invalid.txt: parse_ksuid returns nil and a one-line message with the reason", function()
            h.each_invalid("ksuid_invalid.txt", { parse_ksuid = mintid.parse_ksuid })
        end)

        it("ksuid_monotonic.txt: every scenario replayed on a new generator with injected clock and random", function()
            h.replay_scenarios {
                file = "ksuid_monotonic.txt", columns = { "scenario", "now_ms", "random_hex", "expect" }, draw = 16,
                new = mintid.ksuid_generator,
            }
        end)
    end)

    describe("edge cases", function()
        it("the smallest and largest values and seconds", function()
            assert.are.equal(("0"):rep(27), tostring(mintid.ksuid_from(MIN_S, ("\0"):rep(16))))
            local max = mintid.ksuid_from(MAX_S, ("\255"):rep(16))
            assert.are.equal("aWgEPTl1tmebfsQzFP4bxwgy80V", tostring(max))
            assert.are.equal(MAX_S * 1000, max:time())
            h.assert_bad_data(mintid.ksuid_from(MIN_S - 1, ("\0"):rep(16)),
                select(2, mintid.ksuid_from(MIN_S - 1, ("\0"):rep(16))), "out of range")
            h.assert_bad_data(mintid.ksuid_from(MAX_S + 1, ("\0"):rep(16)),
                select(2, mintid.ksuid_from(MAX_S + 1, ("\0"):rep(16))), "out of range")
        end)

        it("values compare by their bytes, which is their text order", function()
            local a, b = mintid.parse_ksuid("0ujtsYcgvSTl8PAuAdqWYSMnLOv"), mintid.parse_ksuid("aWgEPTl1tmebfsQzFP4bxwgy80V")
            assert.is_true(a < b)
            assert.is_true(a <= a)
            assert.is_false(b < a)
            assert.are.equal(a, mintid.parse_ksuid("0ujtsYcgvSTl8PAuAdqWYSMnLOv"))
            assert.are_not.equal(a, mintid.parse_uuid(mintid.UUID_NIL))
            local nil_uuid = mintid.parse_uuid(mintid.UUID_NIL)
            h.raises(function() return a < nil_uuid end, h.compare_error("mintid.KSUID", nil_uuid))
        end)

        it("ksuid_generator's next_value is a KSUID value", function()
            local v = mintid.ksuid_generator():next_value()
            assert.are.equal(20, #v:bytes())
            assert.is_truthy(tostring(v):match(KSUID_PATTERN))
        end)
    end)

    describe("bad input", function()
        it("bad data returns nil, message", function()
            h.assert_bad_data(mintid.ksuid_from(MIN_S, "short"), select(2, mintid.ksuid_from(MIN_S, "short")),
                "KSUID payload must be 16 bytes, got 5")
            h.assert_bad_data(mintid.ksuid_from_bytes(("\0"):rep(16)), select(2, mintid.ksuid_from_bytes(("\0"):rep(16))),
                "invalid KSUID bytes: length 16, want 20")
        end)

        it("bad arguments raise naming the argument", function()
            h.raises(function() return mintid.parse_ksuid(5) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.ksuid_from("1400000000", ("\0"):rep(16)) end, "bad argument #1")
            h.raises(function() return mintid.ksuid_from(1.5, ("\0"):rep(16)) end, "bad argument #1")
            h.raises(function() return mintid.ksuid_from(MIN_S, 16) end, "bad argument #2", "string expected")
            h.raises(function() return mintid.ksuid_from_bytes(20) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.ksuid_generator { size = 1 } end, "unknown option 'size'")
        end)
    end)

    describe("properties", function()
        it("ksuid() and a generator's next are monotonic within a second", function()
            h.assert_strictly_increasing(mintid.ksuid, 20000, KSUID_PATTERN, "ksuid()")
            local g = mintid.ksuid_generator()
            h.assert_strictly_increasing(function() return g:next() end, 20000, KSUID_PATTERN, "ksuid_generator")
            local stopped = mintid.ksuid_generator { clock = function() return 1700000000000 end }
            h.assert_strictly_increasing(function() return stopped:next() end, 5000, KSUID_PATTERN, "a stopped clock")
        end)

        it("a generator used in a forked child draws a fresh payload", function()
            local g = mintid.ksuid_generator { clock = function() return 1700000000000 end }
            g:next()
            local child, child_default = h.in_child(function()
                return g:next() .. " " .. mintid.ksuid()
            end):match("^(%S+) (%S+)$")
            assert.are_not.equal(g:next(), child)
            assert.are_not.equal(mintid.ksuid():sub(1, 20), child_default:sub(1, 20))
        end)
    end)
end)
