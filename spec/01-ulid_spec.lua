-- ULID (SPEC.md "ULID"): 48-bit ms + 80 random bits, Crockford base32.
local h = require "helper"
local mintid = require(h.module_name)

local ULID_COLUMNS = { "ms", "rand_hex", "text", "bytes_hex", "uuid" }
local MONOTONIC_COLUMNS = { "scenario", "now_ms", "random_hex", "expect" }
local RAND = "\1\2\3\4\5\6\7\8\9\10"

-- A call at a fresh ms draws anew: the ULID of (ms, RAND).
local function assert_fresh_draw(g, clock, rnd, ms, label)
    clock.now = ms
    rnd.expect(RAND, label)
    assert.are.equal(tostring(mintid.ulid_from(ms, RAND)), g:next(), label)
    rnd.assert_drained(label)
end

describe("ULID", function()
    describe("vectors", function()
        it("ulid.txt: ulid_from, text, bytes, time, UUID mapping, parsing and ulid_from_bytes", function()
            h.each_vector("ulid.txt", ULID_COLUMNS, function(r, w)
                local ms, rand, bytes = h.num(r.ms), h.fromhex(r.rand_hex), h.fromhex(r.bytes_hex)

                local v, err = mintid.ulid_from(ms, rand)
                assert(v ~= nil, w .. ": ulid_from returned nil, " .. tostring(err))
                assert.are.equal(r.text, tostring(v), w)
                assert.are.equal(r.bytes_hex, h.tohex(v:bytes()), w)
                assert.are.equal(ms, v:time(), w)
                if h.has_integers then assert.are.equal("integer", math.type(v:time()), w) end

                assert.are.equal(r.uuid, mintid.ulid_to_uuid(r.text), w)
                assert.are.equal(r.uuid, mintid.ulid_to_uuid(r.text:lower()), w)
                assert.are.equal(r.text, mintid.uuid_to_ulid(r.uuid), w)
                assert.are.equal(r.text, mintid.uuid_to_ulid(r.uuid:upper()), w)
                assert.are.equal(r.uuid, tostring(v:uuid()), w)
                assert.are.equal(v, mintid.parse_uuid(r.uuid):ulid(), w)

                local p = mintid.parse_ulid(r.text)
                assert(p ~= nil, w .. ": parse_ulid failed")
                assert.are.equal(v, p, w)
                assert.are.equal(r.text, tostring(p), w)
                local pl = mintid.parse_ulid(r.text:lower())
                assert(pl ~= nil, w .. ": parse_ulid of the lowercase text failed")
                assert.are.equal(p, pl, w)
                assert.are.equal(r.text, tostring(pl), w)

                local b = mintid.ulid_from_bytes(bytes)
                assert(b ~= nil, w .. ": ulid_from_bytes failed")
                assert.are.equal(v, b, w)
                assert.are.equal(r.text, tostring(b), w)
                assert.are.equal(ms, b:time(), w)

                -- A new generator's first call draws these exact bytes.
                local rnd = h.random_script(w)
                rnd.expect(rand, w)
                local g = mintid.ulid_generator { clock = function() return ms end, random = rnd.fn }
                assert.are.equal(r.text, g:next(), w)
                rnd.assert_drained(w)
            end)
        end)

        it("ulid_invalid.txt: parse_ulid and ulid_to_uuid return nil and a one-line message with the reason", function()
            h.each_invalid("ulid_invalid.txt", { parse_ulid = mintid.parse_ulid, ulid_to_uuid = mintid.ulid_to_uuid })
        end)

        it("ulid_monotonic.txt: every scenario replayed on a new generator with injected clock and random", function()
            h.replay_scenarios {
                file = "ulid_monotonic.txt", columns = MONOTONIC_COLUMNS, draw = 10,
                new = mintid.ulid_generator,
            }
        end)
    end)

    describe("edge cases", function()
        it("the smallest and largest values", function()
            local zero = mintid.ulid_from(0, ("\0"):rep(10))
            assert.are.equal(("0"):rep(26), tostring(zero))
            assert.are.equal(0, zero:time())
            local max = mintid.ulid_from(h.MAX_MS, ("\255"):rep(10))
            assert.are.equal("7" .. ("Z"):rep(25), tostring(max))
            assert.are.equal(h.MAX_MS, max:time())
            assert.are.equal(("\255"):rep(16), max:bytes())
            assert.are.equal("ffffffff-ffff-ffff-ffff-ffffffffffff", mintid.ulid_to_uuid(tostring(max)))
        end)

        it("timestamps outside 0..2^48-1 are bad data (nil, message)", function()
            h.assert_ms_out_of_range("ULID", function(ms) return mintid.ulid_from(ms, RAND) end)
            assert.is_not_nil(mintid.ulid_from(h.MAX_MS, RAND))
        end)

        it("decoding is case-insensitive and rejects I, L, O, U (no aliases)", function()
            local text = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
            local v = mintid.parse_ulid(text)
            assert.is_not_nil(v)
            assert.are.equal(v, mintid.parse_ulid("01arz3ndektsv4rrffq69g5fav"))
            assert.are.equal(v, mintid.parse_ulid("01aRz3NdEkTsV4rRfFq69G5fAv"))
            for _, c in ipairs({ "I", "L", "O", "U", "i", "l", "o", "u" }) do
                local bad = text:sub(1, 6) .. c .. text:sub(8)
                local p, msg = mintid.parse_ulid(bad)
                h.assert_bad_data(p, msg, "bad character '" .. c .. "' at 7", bad)
            end
        end)

        it("reports errors in the documented order and words", function()
            local Z = function(n) return ("0"):rep(n) end
            local cases = {
                { Z(25), "invalid ULID: length 25, want 26" },
                { Z(27), "invalid ULID: length 27, want 26" },
                { "", "invalid ULID: length 0, want 26" },
                { Z(6) .. "U" .. Z(19), "invalid ULID: bad character 'U' at 7" },
                { "8" .. ("Z"):rep(25), "invalid ULID: first character '8' overflows 128 bits (want 0-7)" },
                { "Z" .. Z(25), "invalid ULID: first character 'Z' overflows 128 bits (want 0-7)" },
                -- the first character is checked for being a symbol before the overflow
                { "U" .. Z(25), "invalid ULID: bad character 'U' at 1" },
                -- characters are checked left to right
                { Z(25) .. "!", "invalid ULID: bad character '!' at 26" },
                { "8" .. Z(24) .. "!", "invalid ULID: first character '8' overflows 128 bits (want 0-7)" },
                { Z(3) .. "*" .. Z(5) .. "U" .. Z(16), "invalid ULID: bad character '*' at 4" },
                -- bytes outside 0x21..0x7E are shown as two lowercase hex digits
                { Z(4) .. " " .. Z(21), "invalid ULID: bad character 0x20 at 5" },
                { Z(13) .. "\0" .. Z(12), "invalid ULID: bad character 0x00 at 14" },
                { "0" .. "\195\169" .. Z(23), "invalid ULID: bad character 0xc3 at 2" },
                { Z(25) .. "\127", "invalid ULID: bad character 0x7f at 26" },
                -- the length is checked first, in bytes
                { Z(25) .. "\0", "invalid ULID: bad character 0x00 at 26" },
                { Z(24) .. "\195\169", "invalid ULID: bad character 0xc3 at 25" },
                { Z(26) .. "\0", "invalid ULID: length 27, want 26" },
            }
            h.each_bad_input(mintid.parse_ulid, cases)
        end)

        it("a new generator's first call draws, even at ms 0", function()
            local rnd = h.random_script("first call")
            local clock = h.clock_list({ 0, 0 }, "first call")
            rnd.expect(RAND)
            local g = mintid.ulid_generator { clock = clock.fn, random = rnd.fn }
            assert.are.equal(tostring(mintid.ulid_from(0, RAND)), g:next())
            rnd.assert_drained("first call")
            -- the same ms again: no draw, the 80-bit counter + 1
            local second = g:next()
            assert.are.equal(tostring(mintid.ulid_from(0, "\1\2\3\4\5\6\7\8\9\11")), second)
            rnd.assert_drained("second call")
            assert.are.equal(2, clock.calls)
        end)

        it("draws only on a fresh ms; the same ms and a clock going back add 1 and keep last_ms", function()
            local g, clock, rnd = h.scripted(mintid.ulid_generator, "monotonic")
            local r1 = "\0" .. ("\255"):rep(9)
            clock.now = 1000
            rnd.expect(r1)
            assert.are.equal(tostring(mintid.ulid_from(1000, r1)), g:next())
            -- the carry runs through all nine 0xff bytes
            assert.are.equal(tostring(mintid.ulid_from(1000, "\1" .. ("\0"):rep(9))), g:next())
            clock.now = 999 -- backwards: still last_ms 1000, counter + 1
            assert.are.equal(tostring(mintid.ulid_from(1000, "\1" .. ("\0"):rep(8) .. "\1")), g:next())
            clock.now = 0
            assert.are.equal(tostring(mintid.ulid_from(1000, "\1" .. ("\0"):rep(8) .. "\2")), g:next())
            rnd.assert_drained("no draws on ms <= last_ms")
            assert_fresh_draw(g, clock, rnd, 1001, "fresh ms")
        end)

        it("counter overflow is nil, message, and leaves the state unchanged", function()
            local g, clock, rnd = h.scripted(mintid.ulid_generator, "overflow")
            local top = ("\255"):rep(10)
            clock.now = 1234
            rnd.expect(top)
            assert.are.equal(tostring(mintid.ulid_from(1234, top)), g:next())
            h.assert_fails_alike(function() return g:next() end, 3,
                "ULID counter overflow at ms 1234 (80-bit randomness exhausted)")
            assert_fresh_draw(g, clock, rnd, 1235, "after the overflow")
        end)

        it("a clock reading out of range is nil, message, and leaves the state unchanged", function()
            local g, clock, rnd = h.scripted(mintid.ulid_generator, "range")
            h.assert_ms_out_of_range("ULID", function(ms) clock.now = ms; return g:next() end)
            -- still a new generator: the next call draws, even at ms 0
            assert_fresh_draw(g, clock, rnd, 0, "after the range errors")
        end)

        it("ulid_from_bytes wants exactly 16 bytes", function()
            h.assert_bad_lengths(mintid.ulid_from_bytes, { 0, 15, 17 }, "ulid_from_bytes")
            assert.are.equal(("0"):rep(26), tostring(mintid.ulid_from_bytes(("\0"):rep(16))))
        end)

        it("ulid_from wants exactly 10 random bytes", function()
            for _, n in ipairs({ 0, 9, 11 }) do
                h.rejects(function() return mintid.ulid_from(0, ("\0"):rep(n)) end, n .. " bytes")
            end
        end)

        it("mintid.ulid() returns canonical 26-char text with the current time", function()
            local before = os.time() * 1000
            local text = mintid.ulid()
            local after = os.time() * 1000
            assert.is_truthy(text:match(h.ULID_PATTERN), text)
            local t = mintid.parse_ulid(text):time()
            assert.is_true(t >= before - 1000 and t < after + 2000, "time " .. tostring(t))
        end)

        it("a generator with the OS clock and random source makes increasing IDs", function()
            local g = mintid.ulid_generator()
            h.assert_strictly_increasing(function() return g:next() end, 1001, h.ULID_PATTERN, "ulid_generator")
        end)
    end)
end)
