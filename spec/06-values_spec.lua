-- Value objects of every kind (doc/guide.md "Tour", doc/reference.md):
-- __tostring, __eq, __lt/__le in byte order, methods, and kinds kept apart.
local h = require "helper"
local mintid = require(h.module_name)

local SECRET = "0123456789abcdef"

-- Deterministic pseudo-random bytes (no bitwise operators needed).
local seed = 12345
local function prng_byte()
    seed = seed * 16807 % 2147483647 -- Park-Miller: exact in doubles too
    return math.floor(seed / 256) % 256
end
local function prng_bytes(n)
    local t = {}
    for i = 1, n do t[i] = string.char(prng_byte()) end
    return table.concat(t)
end

-- 16-byte strings with shared prefixes, equal pairs and the extremes, so
-- comparisons have to look past the first byte.
local function sample_bytes()
    local list = { ("\0"):rep(16), ("\255"):rep(16), ("\0"):rep(15) .. "\1", "\1" .. ("\0"):rep(15) }
    for _ = 1, 20 do
        local b = prng_bytes(16)
        list[#list + 1] = b
        local pos = prng_byte() % 16 + 1
        -- the same bytes with one later byte changed, and an exact copy
        list[#list + 1] = b:sub(1, pos - 1) .. string.char(prng_byte()) .. b:sub(pos + 1)
        list[#list + 1] = b
    end
    return list
end

-- A value of each sample_bytes() string, made by from_bytes.
local function values_from_bytes(from_bytes)
    local values = {}
    for _, b in ipairs(sample_bytes()) do values[#values + 1] = assert(from_bytes(b)) end
    return values
end

-- Check __eq, __lt and __le against byte order, and the text order too.
local function check_order(values, kind)
    local pairs_checked = 0
    for i = 1, #values do
        for j = 1, #values do
            local a, b = values[i], values[j]
            local c = h.bytes_cmp(a:bytes(), b:bytes())
            local where = kind .. " " .. tostring(a) .. " vs " .. tostring(b)
            assert.are.equal(c == 0, a == b, where .. " (==)")
            assert.are.equal(c ~= 0, a ~= b, where .. " (~=)")
            assert.are.equal(c < 0, a < b, where .. " (<)")
            assert.are.equal(c <= 0, a <= b, where .. " (<=)")
            assert.are.equal(c > 0, a > b, where .. " (>)")
            assert.are.equal(c >= 0, a >= b, where .. " (>=)")
            -- the canonical text sorts like the bytes
            assert.are.equal(c, h.bytes_cmp(tostring(a), tostring(b)), where .. " (text order)")
            pairs_checked = pairs_checked + 1
        end
    end
    assert.is_true(pairs_checked > 1000)
    -- table.sort with the metamethods sorts by bytes
    local sorted = {}
    for i, v in ipairs(values) do sorted[i] = v end
    table.sort(sorted, function(x, y) return x < y end)
    for i = 2, #sorted do
        assert.is_true(h.bytes_cmp(sorted[i - 1]:bytes(), sorted[i]:bytes()) <= 0, kind .. " sort")
    end
end

describe("values", function()
    local ulid_text = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
    local ulid, uuid, rel

    before_each(function()
        ulid = assert(mintid.parse_ulid(ulid_text))
        uuid = assert(mintid.parse_uuid(mintid.ulid_to_uuid(ulid_text)))
        rel = assert(mintid.relative_from(123456, 1700000000000, 42))
    end)

    describe("ULID", function()
        it("tostring, bytes, time and uuid()", function()
            assert.are.equal("userdata", type(ulid))
            assert.are.equal(ulid_text, tostring(ulid))
            assert.are.equal(16, #ulid:bytes())
            assert.are.equal(h.be_number(ulid:bytes():sub(1, 6)), ulid:time())
            local u = ulid:uuid()
            assert.are.equal(ulid:bytes(), u:bytes())
            assert.are.equal(mintid.ulid_to_uuid(ulid_text), tostring(u))
            assert.are.equal(ulid, u:ulid())
            assert.are.equal(ulid_text, tostring(u:ulid()))
        end)

        it("random() is the 10 bytes after the time, those ulid_from was given", function()
            for _, r in ipairs(h.read_vectors("ulid.txt")) do
                local v = assert(mintid.parse_ulid(r.text))
                assert.are.equal(r.rand_hex, h.tohex(v:random()), r._where)
                assert.are.equal(v:bytes():sub(7), v:random(), r._where)
            end
            local rand = prng_bytes(10)
            assert.are.equal(rand, assert(mintid.ulid_from(1469922850259, rand)):random())
        end)

        it("__eq, __lt and __le follow byte order (and text order)", function()
            check_order(values_from_bytes(mintid.ulid_from_bytes), "ULID")
        end)
    end)

    describe("UUID", function()
        it("tostring, bytes, version, time for versions 1, 6 and 7 only, and ulid()", function()
            assert.are.equal(mintid.ulid_to_uuid(ulid_text), tostring(uuid))
            assert.are.equal(ulid:bytes(), uuid:bytes())
            local v4 = mintid.parse_uuid(mintid.uuid4())
            assert.are.equal(4, v4:version())
            assert.is_nil(v4:time())
            local v7 = mintid.parse_uuid("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
            assert.are.equal(7, v7:version())
            assert.are.equal(1645557742000, v7:time())
            local v1 = mintid.parse_uuid("017f22e2-79b0-1cc3-98c4-dc0c0c07398f")
            assert.are.equal(1, v1:version())
            -- ticks 0xcc379b0017f22e2: Unix ms floor((ticks - 0x01B21DD213814000) / 10000)
            assert.are.equal(79751961776002, v1:time())
            local v4b = mintid.parse_uuid("017f22e2-79b0-4cc3-98c4-dc0c0c07398f")
            assert.is_nil(v4b:time())
            local as_ulid = v7:ulid()
            assert.are.equal(v7:bytes(), as_ulid:bytes())
            assert.are.equal(1645557742000, as_ulid:time())
        end)

        it("__eq, __lt and __le follow byte order (and text order)", function()
            check_order(values_from_bytes(mintid.uuid_from_bytes), "UUID")
        end)
    end)

    describe("relative ID", function()
        it("tostring (28-char form), bytes, tag, time and rand", function()
            local text = tostring(rel)
            assert.are.equal(28, #text)
            assert.is_truthy(text:match(h.RELATIVE_PATTERN), text)
            assert.are.equal(123456, rel:tag())
            assert.are.equal(1700000000000, rel:time())
            assert.are.equal(42, rel:rand())
            assert.are.equal(16, #rel:bytes())
            assert.are.equal(rel, mintid.parse_relative(text))
            assert.are.equal(rel, mintid.parse_relative((text:gsub("-", ""))))
        end)

        it("prefix() is the tag's text: the ID's first 7 chars, the generator's prefix of the key", function()
            for _, r in ipairs(h.read_vectors("relative.txt")) do
                local v = assert(mintid.parse_relative(r.text))
                assert.are.equal(r.text:sub(1, 7), v:prefix(), r._where)
            end
            local g = mintid.relative_generator { secret = SECRET, salt = "orders" }
            for _, key in ipairs({ "customer-17", "", 42 }) do
                assert.are.equal(g:prefix(key), g:next_value(key):prefix(), tostring(key))
            end
            assert.are.equal("3F8KQZ-", mintid.parse_relative("3F8KQZ-01J8Y4Q9M3-X3B0N6E3P8"):prefix())
        end)

        it("__eq, __lt and __le follow byte order (and text order)", function()
            local values = {}
            local tags = { 0, 1, 123456, 1073741823 }
            local times = { 0, 1, 1700000000000, h.MAX_MS }
            local rands = { 0, 1, 42, 1125899906842623 }
            for _, t in ipairs(tags) do
                for _, ms in ipairs(times) do
                    for _, r in ipairs(rands) do
                        if prng_byte() < 128 or (t == 0 and ms == 0) then
                            values[#values + 1] = assert(mintid.relative_from(t, ms, r))
                        end
                    end
                end
            end
            values[#values + 1] = assert(mintid.relative_from(123456, 1700000000000, 42))
            values[#values + 1] = assert(mintid.relative_from(123456, 1700000000000, 42))
            check_order(values, "relative ID")
        end)
    end)

    describe("kinds", function()
        it("__eq is false across kinds, even for the same 16 bytes", function()
            assert.are.equal(ulid:bytes(), uuid:bytes())
            assert.is_false(ulid == uuid)
            assert.is_true(ulid ~= uuid)
            assert.is_false(uuid == ulid)
            local rel_same = mintid.relative_from(0, 0, 0)
            local ulid_zero = mintid.ulid_from_bytes(("\0"):rep(16))
            local uuid_zero = mintid.uuid_from_bytes(("\0"):rep(16))
            assert.are.equal(rel_same:bytes(), ulid_zero:bytes())
            assert.is_false(rel_same == ulid_zero)
            assert.is_false(ulid_zero == rel_same)
            assert.is_false(rel_same == uuid_zero)
            assert.is_false(uuid_zero == ulid_zero)
            -- nor equal to their text
            assert.is_false(ulid == ulid_text)
            assert.is_false(ulid_text == ulid)
        end)

        it("ordering across kinds raises, naming the kinds", function()
            local cases = {
                { ulid, uuid, "mintid.ULID", "mintid.UUID" },
                { uuid, ulid, "mintid.UUID", "mintid.ULID" },
                { ulid, rel, "mintid.ULID", "mintid.RelativeID" },
                { rel, uuid, "mintid.RelativeID", "mintid.UUID" },
            }
            for _, c in ipairs(cases) do
                local a, b = c[1], c[2]
                for _, op in ipairs({ function() return a < b end, function() return a <= b end }) do
                    local msg = h.raises(op, h.compare_error(c[3], b))
                    if h.has_names then
                        assert.is_truthy(msg:find(c[4], 1, true), msg)
                    end
                end
            end
            h.raises(function() return ulid < ulid_text end, h.compare_error("mintid.ULID", ulid_text))
            h.raises(function() return ulid < 5 end, h.compare_error("mintid.ULID", 5))
        end)

        it("metatables are named mintid.<Kind> (__name, Lua 5.3+)", function()
            if h.has_names then
                assert.are.equal("mintid.ULID", getmetatable(ulid).__name)
                assert.are.equal("mintid.UUID", getmetatable(uuid).__name)
                assert.are.equal("mintid.RelativeID", getmetatable(rel).__name)
                assert.are.equal("mintid.ULIDGenerator", getmetatable(mintid.ulid_generator()).__name)
                assert.are.equal("mintid.UUID7Generator", getmetatable(mintid.uuid7_generator()).__name)
                assert.are.equal("mintid.UUID4Generator", getmetatable(mintid.uuid4_generator()).__name)
                assert.are.equal("mintid.RelativeGenerator", getmetatable(mintid.relative_generator { secret = SECRET }).__name)
                assert.are.equal("mintid.SnowflakeGenerator", getmetatable(mintid.snowflake_generator()).__name)
                assert.are.equal("mintid.NanoIDGenerator", getmetatable(mintid.nanoid_generator()).__name)
            end
            -- every kind has its own metatable, on every Lua
            assert.are_not.equal(getmetatable(ulid), getmetatable(uuid))
            assert.are_not.equal(getmetatable(ulid), getmetatable(rel))
            assert.are.equal(getmetatable(ulid), getmetatable(mintid.ulid_from_bytes(("\0"):rep(16))))
        end)

        it("a generator method called on another kind of generator raises, naming the kind", function()
            local g = mintid.ulid_generator()
            local other = mintid.uuid7_generator()
            local msg = h.raises(function() return g.next(other) end,
                "bad argument #1", "mintid.ULIDGenerator expected, got")
            if h.has_names then
                assert.is_truthy(msg:find("got mintid.UUID7Generator", 1, true), msg)
            end
            h.raises(function() return g.next(nil) end, "bad argument #1", "mintid.ULIDGenerator expected, got nil")
            h.raises(function() return g.next(ulid) end, "bad argument #1", "mintid.ULIDGenerator expected, got")
        end)

        it("methods return new values, never views that change", function()
            local b = ulid:bytes()
            local u = ulid:uuid()
            assert.are.equal(b, ulid:bytes())
            assert.are.equal(b, u:bytes())
            assert.are.equal(ulid_text, tostring(ulid))
        end)
    end)

    describe("generators' next_value", function()
        it("returns a value of the generator's kind, equal to the text next() would give", function()
            local function twins(ctor, opts_of)
                local r1, r2 = h.random_script("text"), h.random_script("value")
                local g1, g2 = ctor(opts_of(r1)), ctor(opts_of(r2))
                return g1, g2, r1, r2
            end
            local clock = function() return 1700000000000 end
            local draws = {
                { mintid.ulid_generator, 10, mintid.parse_ulid },
                { mintid.uuid7_generator, 10, mintid.parse_uuid },
                { mintid.uuid4_generator, 16, mintid.parse_uuid },
            }
            for _, d in ipairs(draws) do
                local g1, g2, r1, r2 = twins(d[1], function(r) return { clock = clock, random = r.fn } end)
                local bytes = prng_bytes(d[2])
                r1.expect(bytes)
                r2.expect(bytes)
                local text = g1:next()
                local value = g2:next_value()
                assert.are.equal("userdata", type(value))
                assert.are.equal(text, tostring(value))
                assert.are.equal(d[3](text), value)
                r1.assert_drained("text")
                r2.assert_drained("value")
                -- the second call counts on (or draws again, for v4) the same way
                if d[2] == 16 then r1.expect(bytes); r2.expect(bytes) end
                assert.are.equal(g1:next(), tostring(g2:next_value()))
            end
            local g1, g2, r1, r2 = twins(mintid.relative_generator,
                function(r) return { secret = SECRET, clock = clock, random = r.fn } end)
            r1.expect("\0\0\0\0\0\0\9")
            r2.expect("\0\0\0\0\0\0\9")
            local text = g1:next("k")
            local value = g2:next_value("k")
            assert.are.equal(text, tostring(value))
            assert.are.equal(mintid.parse_relative(text), value)
            assert.are.equal(g2:tag("k"), value:tag())
            assert.are.equal(9, value:rand())
            r1.assert_drained("relative text")
            r2.assert_drained("relative value")
        end)
    end)

    describe("kind_of", function()
        local UNRECOGNISED = "unrecognised ID: length %d (want a 26-char ULID, a 36-char UUID, a 27-char KSUID,"
            .. " a TypeID prefix_suffix, a 28-char relative ID, a 24-char ObjectId, a 20-char XID, Snowflake digits or a"
            .. " traceparent header)"

        it("the vectors of each kind: the kind of their text", function()
            local cases = {
                { "ulid.txt", "text", function() return "ulid" end },
                { "uuid.txt", "canonical", function() return "uuid" end },
                { "uuid.txt", "input", function() return "uuid" end },
                { "relative.txt", "text", function() return "relative" end },
                { "ksuid.txt", "text", function() return "ksuid" end },
                { "objectid.txt", "text", function() return "objectid" end },
                -- 20 digits are a Snowflake's text first (kind.c)
                { "xid.txt", "text", function(r) return r.text:find("^%d+$") and "snowflake" or "xid" end },
                { "snowflake.txt", "id", function() return "snowflake" end },
                { "traceparent.txt", "header", function() return "traceparent" end },
                -- a TypeID without prefix is a ULID's text
                { "typeid.txt", "text", function(r) return r.prefix == "-" and "ulid" or "typeid" end },
            }
            for _, c in ipairs(cases) do
                for _, r in ipairs(h.read_vectors(c[1])) do
                    assert.are.equal(c[3](r), mintid.kind_of(r[c[2]]), r._where .. ": " .. r[c[2]])
                end
            end
        end)

        it("26 chars are a ULID: a relative ID without hyphens and a TypeID without prefix too", function()
            local compact = ("3F8KQZ-01J8Y4Q9M3-X3B0N6E3P8"):gsub("-", "")
            assert.are.equal("ulid", mintid.kind_of(compact))
            assert.are.equal("ulid", mintid.kind_of("01h455vb4pex5vsknk084sn02q"))
            assert.are.equal("ulid", mintid.kind_of(("1"):rep(26)), "26 digits")
            assert.are.equal("uuid", mintid.kind_of(("1"):rep(36)), "36 digits")
            assert.are.equal("ksuid", mintid.kind_of(("1"):rep(27)), "27 digits")
        end)

        it("a '_' makes a TypeID at any length, even a relative ID's or a UUID's", function()
            for _, text in ipairs({ "_", "a_", "user_01h455vb4pex5vsknk084sn02q", "3F8KQZ_01J8Y4Q9M3-X3B0N6E3P8",
                ("_"):rep(36), ("1"):rep(25) .. "_" }) do
                assert.are.equal("typeid", mintid.kind_of(text), text)
            end
        end)

        it("a 28-char text is a relative ID only with '-' at 7 and 18", function()
            assert.are.equal("relative", mintid.kind_of(("x"):rep(6) .. "-" .. ("x"):rep(10) .. "-" .. ("x"):rep(10)))
            for _, text in ipairs({ ("x"):rep(28), "3F8KQZ-01J8Y4Q9M3X-3B0N6E3P8", "3F8KQZ01-J8Y4Q9M3-X3B0N6E3P8" }) do
                local kind, msg = mintid.kind_of(text)
                h.assert_bad_data(kind, msg, UNRECOGNISED:format(28), text)
                assert.are.equal(UNRECOGNISED:format(28), msg, text)
            end
        end)

        it("any other text: nil and a message naming its length", function()
            for _, text in ipairs({ "", "hello", "12a", " 1", "1 ", "-1", "+1", ("x"):rep(25), ("x"):rep(37),
                ("x"):rep(200), "1\0002" }) do
                local kind, msg = mintid.kind_of(text)
                h.assert_bad_data(kind, msg, UNRECOGNISED:format(#text), text)
                assert.are.equal(UNRECOGNISED:format(#text), msg, text)
            end
        end)

        it("55 chars or more with '-' at 3 are a traceparent header, of any version, even with a '_'", function()
            local header = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            for _, text in ipairs({ header, "cc" .. header:sub(3) .. "-what-comes-later", ("x"):rep(2) .. "-"
                .. ("_"):rep(52), ("1"):rep(2) .. "-" .. ("1"):rep(60) }) do
                assert.are.equal("traceparent", mintid.kind_of(text), text)
            end
            local short = header:sub(1, 54)
            local kind, msg = mintid.kind_of(short)
            h.assert_bad_data(kind, msg, UNRECOGNISED:format(54), short)
            assert.are.equal(UNRECOGNISED:format(54), msg)
            assert.are.equal("typeid", mintid.kind_of("00_" .. header:sub(4)), "'_' at 3")
        end)

        it("digits only, of any other length, are a Snowflake", function()
            for _, text in ipairs({ "0", "1541815603604516864", ("9"):rep(25), ("0"):rep(100) }) do
                assert.are.equal("snowflake", mintid.kind_of(text), text)
            end
        end)

        it("a non-string raises, naming the argument", function()
            h.raises(function() return mintid.kind_of(123) end, "bad argument #1", "string expected, got number")
            h.raises(function() return mintid.kind_of() end, "bad argument #1", "string expected, got no value")
        end)

        it("every kind's minted text is of its kind", function()
            local rel_gen = mintid.relative_generator { secret = SECRET }
            local cases = {
                { "ulid", mintid.ulid() }, { "uuid", mintid.uuid4() }, { "uuid", mintid.uuid7() },
                { "uuid", mintid.uuid1() }, { "uuid", mintid.uuid6() }, { "ksuid", mintid.ksuid() },
                { "typeid", mintid.typeid("user") }, { "ulid", mintid.typeid("") },
                { "relative", rel_gen:next("k") }, { "snowflake", h.dec(mintid.snowflake_generator():next()) },
                { "traceparent", mintid.traceparent() },
            }
            for _, c in ipairs(cases) do
                assert.are.equal(c[1], mintid.kind_of(c[2]), c[2])
            end
        end)
    end)

    describe("tostring", function()
        it("never fails, for values and generators", function()
            for _, v in ipairs({ ulid, uuid, rel, mintid.ulid_generator(), mintid.uuid7_generator(),
                mintid.uuid4_generator(), mintid.relative_generator { secret = SECRET },
                mintid.snowflake_generator(), mintid.nanoid_generator() }) do
                assert.are.equal("string", type(tostring(v)))
            end
        end)
    end)
end)
