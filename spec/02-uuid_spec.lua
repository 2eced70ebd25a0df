-- UUIDs (SPEC.md "UUIDv4 and UUIDv7", RFC 9562): parsing any version,
-- UUIDv4 from 16 random bytes, monotonic UUIDv7.
local h = require "helper"
local mintid = require(h.module_name)

local MONOTONIC_COLUMNS = { "scenario", "now_ms", "random_hex", "expect" }
local RAND = "\1\2\3\4\5\6\7\8\9\10"

-- The RFC 9562 version and variant rule, on text.
local function assert_version_variant(text, version, where)
    assert.is_truthy(text:match(h.UUID_PATTERN), where .. ": not canonical: " .. tostring(text))
    assert.are.equal(tostring(version), text:sub(15, 15), where .. ": version digit of " .. text)
    assert.is_truthy(text:sub(20, 20):match("^[89ab]$"), where .. ": variant digit of " .. text)
end

describe("UUID", function()
    describe("vectors", function()
        it("uuid.txt: parse_uuid gives the canonical text, bytes, version and time", function()
            h.each_vector("uuid.txt", { "input", "canonical", "bytes_hex", "version", "time" }, function(r, w)
                local u, err = mintid.parse_uuid(r.input)
                assert(u ~= nil, w .. ": parse_uuid returned nil, " .. tostring(err))
                assert.are.equal(r.canonical, tostring(u), w)
                assert.are.equal(r.bytes_hex, h.tohex(u:bytes()), w)
                assert.are.equal(h.num(r.version), u:version(), w)
                if h.has_integers then assert.are.equal("integer", math.type(u:version()), w) end
                if r.version == "1" or r.version == "6" then
                    -- Gregorian time: uuid_fields.txt (spec/16-uuid_versions_spec.lua)
                    assert.are.equal("number", type(u:time()), w)
                elseif r.time == "-" then
                    assert.is_nil(u:time(), w)
                else
                    assert.are.equal(7, u:version(), w .. ": only version 7 has a time")
                    assert.are.equal(h.num(r.time), u:time(), w)
                end
                assert.are.equal(u, mintid.parse_uuid(r.canonical), w)
                assert.are.equal(u, mintid.parse_uuid(r.canonical:upper()), w)
                local b = mintid.uuid_from_bytes(h.fromhex(r.bytes_hex))
                assert(b ~= nil, w .. ": uuid_from_bytes failed")
                assert.are.equal(u, b, w)
                assert.are.equal(r.canonical, tostring(b), w)
                -- the same 16 bytes as a ULID, and back
                local ulid_text = mintid.uuid_to_ulid(r.input)
                assert.are.equal(tostring(u:ulid()), ulid_text, w)
                assert.are.equal(r.canonical, mintid.ulid_to_uuid(ulid_text), w)
            end)
        end)

        it("uuid_invalid.txt: parse_uuid and uuid_to_ulid return nil and a one-line message with the reason", function()
            h.each_invalid("uuid_invalid.txt", { parse_uuid = mintid.parse_uuid, uuid_to_ulid = mintid.uuid_to_ulid })
        end)

        it("uuid4.txt: a generator with injected random makes each UUIDv4 from its 16 bytes", function()
            h.each_vector("uuid4.txt", { "rand_hex", "text" }, function(r, w)
                local rnd = h.random_script(w)
                rnd.expect_hex(r.rand_hex, w)
                local g = mintid.uuid4_generator { random = rnd.fn }
                assert.are.equal(r.text, g:next(), w)
                rnd.assert_drained(w)
                assert_version_variant(r.text, 4, w)
                -- every call draws 16 fresh bytes
                rnd.expect_hex(r.rand_hex, w)
                assert.are.equal(r.text, g:next(), w)
                rnd.assert_drained(w)
            end)
        end)

        it("uuid7.txt: a new generator at ms with 10 injected bytes makes each UUIDv7", function()
            h.each_vector("uuid7.txt", { "ms", "rand_hex", "text" }, function(r, w)
                local ms = h.num(r.ms)
                local rnd = h.random_script(w)
                rnd.expect_hex(r.rand_hex, w)
                local g = mintid.uuid7_generator { clock = function() return ms end, random = rnd.fn }
                assert.are.equal(r.text, g:next(), w)
                rnd.assert_drained(w)
                assert_version_variant(r.text, 7, w)
                local u = mintid.parse_uuid(r.text)
                assert.are.equal(ms, u:time(), w)
                assert.are.equal(7, u:version(), w)
            end)
        end)

        it("uuid7_monotonic.txt: every scenario replayed on a new generator with injected clock and random", function()
            h.replay_scenarios {
                file = "uuid7_monotonic.txt", columns = MONOTONIC_COLUMNS, draw = 10,
                new = mintid.uuid7_generator,
                check = function(_, _, id, w) assert_version_variant(id, 7, w) end,
            }
        end)
    end)

    describe("edge cases", function()
        it("accepts the nil and max UUIDs and any version and variant", function()
            local nil_uuid = mintid.parse_uuid("00000000-0000-0000-0000-000000000000")
            assert.are.equal(("\0"):rep(16), nil_uuid:bytes())
            assert.are.equal(0, nil_uuid:version())
            assert.is_nil(nil_uuid:time())
            local max = mintid.parse_uuid("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")
            assert.are.equal("ffffffff-ffff-ffff-ffff-ffffffffffff", tostring(max))
            assert.are.equal(15, max:version())
            assert.is_nil(max:time())
            for v = 0, 15 do
                local text = ("01234567-89ab-%xdef-0123-456789abcdef"):format(v)
                local u = mintid.parse_uuid(text)
                assert.are.equal(text, tostring(u))
                assert.are.equal(v, u:version())
                if v == 7 then
                    assert.are.equal(h.be_number("\1\35\69\103\137\171"), u:time())
                elseif v == 1 or v == 6 then
                    -- Gregorian time (spec/16-uuid_versions_spec.lua has its vectors)
                    assert.are.equal("number", type(u:time()), text)
                else
                    assert.is_nil(u:time(), text)
                end
            end
        end)

        it("accepts only the 36-char hyphenated form", function()
            local cases = {
                { "{01234567-89ab-cdef-0123-456789abcdef}", "invalid UUID: length 38, want 36" },
                { "urn:uuid:01234567-89ab-cdef-0123-456789abcdef", "invalid UUID: length 45, want 36" },
                { "0123456789abcdef0123456789abcdef", "invalid UUID: length 32, want 36" },
                { "", "invalid UUID: length 0, want 36" },
                { "01234567a89ab-cdef-0123-456789abcdef", "invalid UUID: want '-' at 9, got 'a'" },
                { "01234567-89ab-cdef-0123-456789abcdef0", "invalid UUID: length 37, want 36" },
                { "01234567-89abacdef-0123-456789abcde", "invalid UUID: length 35, want 36" },
                { "01234567-89ab-cdef-0123+456789abcdef", "invalid UUID: want '-' at 24, got '+'" },
                { "01g34567-89ab-cdef-0123-456789abcdef", "invalid UUID: bad character 'g' at 3" },
                { "01234567-89ab-cdef-0123-456789abcde ", "invalid UUID: bad character 0x20 at 36" },
                { "01234567 89ab-cdef-0123-456789abcdef", "invalid UUID: want '-' at 9, got 0x20" },
                -- positions are checked left to right
                { "0123456g-89ab-cdef_0123-456789abcdef", "invalid UUID: bad character 'g' at 8" },
                { "01234567-89ab_cdef-0123-456789abcdeg", "invalid UUID: want '-' at 14, got '_'" },
            }
            h.each_bad_input(mintid.parse_uuid, cases)
        end)

        it("uuid_from_bytes wants exactly 16 bytes", function()
            h.assert_bad_lengths(mintid.uuid_from_bytes, { 0, 15, 17 }, "uuid_from_bytes")
        end)

        it("UUIDv4 sets version 4 and the RFC variant over any 16 bytes", function()
            local cases = {
                { ("\0"):rep(16), "00000000-0000-4000-8000-000000000000" },
                { ("\255"):rep(16), "ffffffff-ffff-4fff-bfff-ffffffffffff" },
            }
            for _, c in ipairs(cases) do
                local rnd = h.random_script("uuid4")
                rnd.expect(c[1])
                local g = mintid.uuid4_generator { random = rnd.fn }
                assert.are.equal(c[2], g:next())
                rnd.assert_drained("uuid4")
            end
        end)

        it("a new UUIDv7 generator's first call draws, even at ms 0", function()
            local rnd = h.random_script("first call")
            rnd.expect(("\0"):rep(10))
            local g = mintid.uuid7_generator { clock = function() return 0 end, random = rnd.fn }
            assert.are.equal("00000000-0000-7000-8000-000000000000", g:next())
            rnd.assert_drained("first call")
            assert.are.equal("00000000-0000-7000-8000-000000000001", g:next())
            rnd.assert_drained("second call")
        end)

        it("the 74-bit counter skips the version and variant bits", function()
            local g, clock, rnd = h.scripted(mintid.uuid7_generator, "counter")
            clock.now = 1000
            -- rand_a = 0, rand_b all ones; the drawn version/variant bits are overwritten
            rnd.expect("\240\0\255" .. ("\255"):rep(7))
            assert.are.equal("00000000-03e8-7000-bfff-ffffffffffff", g:next())
            assert.are.equal("00000000-03e8-7001-8000-000000000000", g:next())
            clock.now = 5 -- backwards: last_ms stays 1000
            assert.are.equal("00000000-03e8-7001-8000-000000000001", g:next())
            rnd.assert_drained("counter")
        end)

        it("counter overflow is nil, message, and leaves the state unchanged", function()
            local g, clock, rnd = h.scripted(mintid.uuid7_generator, "overflow")
            clock.now = 1234
            rnd.expect(("\255"):rep(10))
            assert.are.equal("00000000-04d2-7fff-bfff-ffffffffffff", g:next())
            h.assert_fails_alike(function() return g:next() end, 2,
                "UUIDv7 counter overflow at ms 1234 (74-bit randomness exhausted)")
            clock.now = 1235
            rnd.expect(RAND)
            local text = g:next()
            assert.are.equal(1235, mintid.parse_uuid(text):time())
            rnd.assert_drained("overflow")
        end)

        it("a clock reading out of range is nil, message", function()
            local g, clock, rnd = h.scripted(mintid.uuid7_generator, "range")
            h.assert_ms_out_of_range("UUIDv7", function(ms) clock.now = ms; return g:next() end)
            clock.now = h.MAX_MS
            rnd.expect(("\0"):rep(10))
            assert.are.equal("ffffffff-ffff-7000-8000-000000000000", g:next())
            rnd.assert_drained("range")
        end)

        it("mintid.uuid4() and mintid.uuid7() return canonical lowercase text", function()
            local t4 = mintid.uuid4()
            assert_version_variant(t4, 4, "uuid4()")
            local before = os.time() * 1000
            local t7 = mintid.uuid7()
            local after = os.time() * 1000
            assert_version_variant(t7, 7, "uuid7()")
            local ms = mintid.parse_uuid(t7):time()
            assert.is_true(ms >= before - 1000 and ms < after + 2000, "time " .. tostring(ms))
        end)

        it("generators with the OS clock and random source", function()
            local g7, g4 = mintid.uuid7_generator(), mintid.uuid4_generator()
            h.assert_strictly_increasing(function()
                local id = g7:next()
                assert_version_variant(id, 7, "uuid7_generator")
                assert_version_variant(g4:next(), 4, "uuid4_generator")
                return id
            end, 1001, h.UUID_PATTERN, "uuid7_generator")
        end)
    end)
end)
