-- ULID (SPEC.md "ULID"): 48-bit ms + 80 random bits, Crockford base32.
local h = require "helper"
local mintid = require "mintid"

local ULID_COLUMNS = { "ms", "rand_hex", "text", "bytes_hex", "uuid" }
local MONOTONIC_COLUMNS = { "scenario", "now_ms", "random_hex", "expect" }

describe("ULID", function()
    describe("vectors", function()
        it("ulid.txt: ulid_from, text, bytes, time, UUID mapping, parsing and ulid_from_bytes", function()
            local seen = 0
            for _, r in ipairs(h.read_vectors("ulid.txt", ULID_COLUMNS)) do
                local w = r._where
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
                seen = seen + 1
            end
            assert.is_true(seen > 0)
        end)

        it("ulid_invalid.txt: parse_ulid and ulid_to_uuid return nil and a one-line message with the reason", function()
            local seen = 0
            for _, r in ipairs(h.read_vectors("ulid_invalid.txt", { "input", "reason" })) do
                local input = h.unescape(r.input)
                local v, msg = mintid.parse_ulid(input)
                h.assert_bad_data(v, msg, r.reason, r._where .. " parse_ulid")
                local u, msg2 = mintid.ulid_to_uuid(input)
                h.assert_bad_data(u, msg2, r.reason, r._where .. " ulid_to_uuid")
                seen = seen + 1
            end
            assert.is_true(seen > 0)
        end)

        it("ulid_monotonic.txt: every scenario replayed on a new generator with injected clock and random", function()
            local seen = 0
            for _, sc in ipairs(h.scenarios("ulid_monotonic.txt", MONOTONIC_COLUMNS)) do
                local clock = h.clock_var(sc.name)
                local rnd = h.random_script(sc.name)
                local g = mintid.ulid_generator { clock = clock.fn, random = rnd.fn }
                for _, r in ipairs(sc.rows) do
                    local w = r._where .. " (" .. sc.name .. ")"
                    clock.now = h.num(r.now_ms)
                    if r.random_hex ~= "-" then rnd.expect_hex(r.random_hex, w) end
                    local before = clock.calls
                    local got, msg = g:next()
                    assert.is_true(clock.calls > before, w .. ": the clock was not read")
                    rnd.assert_drained(w)
                    h.check_expect(r.expect, got, msg, w, "out of range")
                    seen = seen + 1
                end
                rnd.assert_drained(sc.name)
            end
            assert.is_true(seen > 0)
        end)
    end)

    describe("edge cases", function()
        local RAND = "\1\2\3\4\5\6\7\8\9\10"

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
            local v, msg = mintid.ulid_from(-1, RAND)
            h.assert_bad_data(v, msg, nil, "ulid_from(-1)")
            assert.are.equal("ULID timestamp -1 out of range 0..281474976710655", msg)
            v, msg = mintid.ulid_from(h.int(2 ^ 48), RAND)
            h.assert_bad_data(v, msg, nil, "ulid_from(2^48)")
            assert.are.equal("ULID timestamp 281474976710656 out of range 0..281474976710655", msg)
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
            for _, c in ipairs(cases) do
                local v, msg = mintid.parse_ulid(c[1])
                h.assert_bad_data(v, msg, nil, c[2])
                assert.are.equal(c[2], msg)
            end
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
            local clock = h.clock_var("clock")
            local rnd = h.random_script("monotonic")
            local g = mintid.ulid_generator { clock = clock.fn, random = rnd.fn }
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
            clock.now = 1001
            rnd.expect(RAND)
            assert.are.equal(tostring(mintid.ulid_from(1001, RAND)), g:next())
            rnd.assert_drained("fresh ms")
        end)

        it("counter overflow is nil, message, and leaves the state unchanged", function()
            local clock = h.clock_var("clock")
            local rnd = h.random_script("overflow")
            local g = mintid.ulid_generator { clock = clock.fn, random = rnd.fn }
            local top = ("\255"):rep(10)
            clock.now = 1234
            rnd.expect(top)
            assert.are.equal(tostring(mintid.ulid_from(1234, top)), g:next())
            for _ = 1, 3 do
                local v, msg = g:next()
                h.assert_bad_data(v, msg, nil, "overflow")
                assert.are.equal("ULID counter overflow at ms 1234 (80-bit randomness exhausted)", msg)
            end
            clock.now = 1235
            rnd.expect(RAND)
            assert.are.equal(tostring(mintid.ulid_from(1235, RAND)), g:next())
            rnd.assert_drained("overflow")
        end)

        it("a clock reading out of range is nil, message, and leaves the state unchanged", function()
            local clock = h.clock_var("clock")
            local rnd = h.random_script("range")
            local g = mintid.ulid_generator { clock = clock.fn, random = rnd.fn }
            clock.now = -1
            local v, msg = g:next()
            h.assert_bad_data(v, msg, nil, "clock -1")
            assert.are.equal("ULID timestamp -1 out of range 0..281474976710655", msg)
            clock.now = h.int(2 ^ 48)
            v, msg = g:next()
            assert.are.equal("ULID timestamp 281474976710656 out of range 0..281474976710655", msg)
            assert.is_nil(v)
            -- still a new generator: the next call draws, even at ms 0
            clock.now = 0
            rnd.expect(RAND)
            assert.are.equal(tostring(mintid.ulid_from(0, RAND)), g:next())
            rnd.assert_drained("range")
        end)

        it("ulid_from_bytes wants exactly 16 bytes", function()
            for _, n in ipairs({ 0, 15, 17 }) do
                local v, msg = mintid.ulid_from_bytes(("\0"):rep(n))
                h.assert_bad_data(v, msg, nil, "ulid_from_bytes of " .. n .. " bytes")
            end
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
            local prev = g:next()
            assert.is_truthy(prev:match(h.ULID_PATTERN), prev)
            for _ = 1, 1000 do
                local id = g:next()
                assert.is_true(h.bytes_cmp(prev, id) < 0, prev .. " !< " .. id)
                prev = id
            end
        end)
    end)
end)
