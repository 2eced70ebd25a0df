-- What users of other ID libraries reach for (doc/guide.md "Everyday
-- habits"): validators, UUIDs in the forms other systems write, a UUID's
-- fields, every time as RFC 3339 text, and IDs as table keys.
local h = require "helper"
local mintid = require(h.module_name)

local RAND10 = ("\0"):rep(10)
-- RFC 9562 appendix A: one moment as v1, v6 and v7.
local V1 = "c232ab00-9414-11ec-b3c8-9f6bdeced846"
local V6 = "1ec9414c-232a-6b00-b3c8-9f6bdeced846"
local V7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
local V4 = "919108f7-52d1-4320-9bac-f847db4148a8"
local AT = "2022-02-22T19:22:22.000Z"

-- Memory the GC counts across n calls of f, with the collector stopped
-- (and, on LuaJIT, the JIT off: a trace is a GC object of its own).
local function kib_allocated(f, n)
    if jit then jit.off() end
    collectgarbage("collect")
    collectgarbage("stop")
    local before = collectgarbage("count")
    for _ = 1, n do f() end
    local after = collectgarbage("count")
    collectgarbage("restart")
    if jit then jit.on() end
    return after - before
end

describe("validators", function()
    local KINDS = {
        { "is_ulid", "parse_ulid", "ulid.txt", { "ms", "rand_hex", "text", "bytes_hex", "uuid" }, "ulid_invalid.txt" },
        { "is_uuid", "parse_uuid", "uuid.txt", { "input", "canonical", "bytes_hex", "version", "time" },
            "uuid_invalid.txt" },
        { "is_ksuid", "parse_ksuid", "ksuid.txt", { "text", "bytes_hex", "unix_s" }, "ksuid_invalid.txt" },
        { "is_typeid", "parse_typeid", "typeid.txt", { "text", "prefix", "uuid" }, "typeid_invalid.txt" },
    }

    for _, k in ipairs(KINDS) do
        local is, parse, valid, columns, invalid = k[1], k[2], k[3], k[4], k[5]

        it(is .. " is true for every text of " .. valid .. " and false for every one of " .. invalid, function()
            h.each_vector(valid, columns, function(r, w)
                assert.are.equal(true, mintid[is](r[columns[1] == "ms" and "text" or columns[1]]), w)
            end)
            h.each_vector(invalid, { "input", "reason" }, function(r, w)
                assert.are.equal(false, mintid[is](h.unescape(r.input)), w)
            end)
        end)

        it(is .. " judges as " .. parse .. " (strict) does: the other kinds' texts and the lenient forms are false",
            function()
                local texts = { mintid.ulid(), mintid.uuid7(), mintid.ksuid(), mintid.typeid("user"),
                    mintid.typeid(""), mintid.ulid():lower(), mintid.uuid4():upper(), "", "x",
                    "{" .. V1 .. "}", V1:gsub("-", ""), "urn:uuid:" .. V1, mintid.nanoid() }
                for _, text in ipairs(texts) do
                    assert.are.equal(mintid[parse](text) ~= nil, mintid[is](text), text)
                end
            end)

        it(is .. " raises on a non-string, as the parsers do", function()
            h.raises(function() return mintid[is](42) end, "bad argument #1", "string expected")
            h.raises(function() return mintid[is](nil) end, "bad argument #1", "string expected")
        end)

        it(is .. " allocates nothing", function()
            local good, bad = mintid[parse] == mintid.parse_ulid and mintid.ulid() or tostring(assert(
                mintid[parse](({ parse_uuid = V4, parse_ksuid = mintid.ksuid(), parse_typeid = "user_"
                    .. mintid.ulid():lower() })[parse]))), "not an ID at all"
            local f = mintid[is]
            assert.are.equal(0, kib_allocated(function() f(good); f(bad) end, 2000))
        end)
    end

    describe("is_nanoid", function()
        it("is true for a Nano ID of the default size and alphabet, and of a given size and alphabet", function()
            assert.are.equal(true, mintid.is_nanoid(mintid.nanoid()))
            assert.are.equal(true, mintid.is_nanoid(mintid.nanoid(10), 10))
            assert.are.equal(true, mintid.is_nanoid(mintid.nanoid(8, "abc"), 8, "abc"))
            assert.are.equal(true, mintid.is_nanoid(h.DEFAULT_ALPHABET:sub(1, 21)))
        end)

        it("is false for another length or a byte outside the alphabet", function()
            assert.are.equal(false, mintid.is_nanoid(mintid.nanoid(20)), "20 symbols, want 21")
            assert.are.equal(false, mintid.is_nanoid(mintid.nanoid(10), 11), "10 symbols, want 11")
            assert.are.equal(false, mintid.is_nanoid(("a"):rep(20) .. "+"), "'+' is not in the default alphabet")
            assert.are.equal(false, mintid.is_nanoid("abcd", 4, "abc"), "'d' is not in abc")
            assert.are.equal(false, mintid.is_nanoid(("a"):rep(20) .. "\0"), "a NUL byte")
            assert.are.equal(false, mintid.is_nanoid(""), "empty")
        end)

        it("raises for a size or alphabet that nanoid would refuse, naming the argument", function()
            h.raises(function() return mintid.is_nanoid("abc", 0) end, "bad argument #2",
                "size must be 1..1048576, got 0")
            h.raises(function() return mintid.is_nanoid("abc", 3, "aa") end, "bad argument #3",
                "alphabet repeats the symbol 'a' at 2")
            h.raises(function() return mintid.is_nanoid(42) end, "bad argument #1", "string expected")
        end)

        it("allocates nothing, with the default spec or a given one", function()
            local id, custom = mintid.nanoid(), mintid.nanoid(12, "0123456789")
            local f = mintid.is_nanoid
            assert.are.equal(0, kib_allocated(function() f(id); f(custom, 12, "0123456789") end, 2000))
        end)
    end)
end)

describe("UUID values", function()
    describe(":hex() and :urn()", function()
        it("give the 32 lowercase digits and urn:uuid: with the canonical text", function()
            local u = mintid.parse_uuid(V1:upper())
            assert.are.equal("c232ab00941411ecb3c89f6bdeced846", u:hex())
            assert.are.equal("urn:uuid:" .. V1, u:urn())
            assert.are.equal(("f"):rep(32), mintid.parse_uuid(mintid.UUID_MAX):hex())
        end)
    end)

    describe(":node(), :clock_seq(), :ticks()", function()
        it("uuid_time.txt: the node, clock sequence and 100-ns ticks of v1 and v6", function()
            h.each_vector("uuid_time.txt", { "ticks", "clock_seq", "node_hex", "v1", "v6", "ms" }, function(r, w)
                for _, text in ipairs({ r.v1, r.v6 }) do
                    local u = mintid.parse_uuid(text)
                    assert.are.equal(h.fromhex(r.node_hex), u:node(), w)
                    assert.are.equal(h.num(r.clock_seq), u:clock_seq(), w)
                    local ok, ticks = pcall(h.exact_int, r.ticks)
                    if ok then -- an integer, an int64 cdata on LuaJIT, or a double that holds it
                        assert.are.equal(ticks, u:ticks(), w)
                    else -- not exact in a double, on a Lua of doubles only
                        h.assert_bad_data(u:ticks(), select(2, u:ticks()),
                            "UUID ticks do not fit this Lua's integers (above 2^53)", w)
                    end
                end
            end)
        end)

        it("are nil for every version but 1 and 6", function()
            h.each_vector("uuid_fields.txt", { "text", "version", "variant", "ms" }, function(r, w)
                if r.version ~= "1" and r.version ~= "6" then
                    local u = mintid.parse_uuid(r.text)
                    assert.is_nil(u:node(), w)
                    assert.is_nil(u:clock_seq(), w)
                    assert.is_nil(u:ticks(), w)
                end
            end)
        end)

        it("give the RFC 9562 example's fields", function()
            local u = mintid.parse_uuid(V1)
            assert.are.equal(h.fromhex("9f6bdeced846"), u:node())
            assert.are.equal(0x33c8, u:clock_seq())
            assert.are.equal(mintid.parse_uuid(V6):clock_seq(), u:clock_seq())
        end)
    end)

    describe("parse_uuid(text, \"lenient\")", function()
        it("uuid_lenient.txt: PostgreSQL's uuid input forms and urn:uuid: give the UUID, the rest nil, message",
            function()
                h.each_vector("uuid_lenient.txt", { "input", "canonical" }, function(r, w)
                    local u, msg = mintid.parse_uuid(r.input, "lenient")
                    if r.canonical == "error:parse" then
                        h.assert_bad_data(u, msg, "invalid UUID", w)
                    else
                        assert.are.equal(r.canonical, tostring(u), w)
                    end
                end)
            end)

        it("strict without a mode or with \"strict\": only the 36-char form", function()
            h.each_vector("uuid_lenient.txt", { "input", "canonical" }, function(r, w)
                local strict = r.input:match("^" .. ("%x"):rep(8) .. ("%-" .. ("%x"):rep(4)):rep(3) .. "%-"
                    .. ("%x"):rep(12) .. "$") ~= nil
                assert.are.equal(strict, mintid.parse_uuid(r.input) ~= nil, w)
                assert.are.equal(strict, mintid.parse_uuid(r.input, "strict") ~= nil, w)
                assert.are.equal(strict, mintid.parse_uuid(r.input, nil) ~= nil, w)
            end)
        end)

        it("says what is wrong, with the text's own positions", function()
            assert.are.same({ nil, "invalid UUID: bad character '-' at 6" },
                { mintid.parse_uuid("a0eeb-c99-9c0b-4ef8-bb6d-6bb9bd380a11", "lenient") })
            assert.are.same({ nil, "invalid UUID: '{' without a closing '}' at the end" },
                { mintid.parse_uuid("{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "lenient") })
            assert.are.same({ nil, "invalid UUID: 30 hex digits, want 32" },
                { mintid.parse_uuid("a0eebc999c0b4ef8bb6d6bb9bd380a", "lenient") })
            assert.are.same({ nil, "invalid UUID: bad character '-' at 37 after 32 hex digits" },
                { mintid.parse_uuid("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-", "lenient") })
            assert.are.same({ nil, "invalid UUID: want the 36-char form after urn:uuid:, got 32 chars" },
                { mintid.parse_uuid("urn:uuid:a0eebc999c0b4ef8bb6d6bb9bd380a11", "lenient") })
            assert.are.same({ nil, "invalid UUID: bad character 'g' at 45" },
                { mintid.parse_uuid("urn:uuid:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1g", "lenient") })
            assert.are.same({ nil, "invalid UUID: want '-' at 18, got '0'" },
                { mintid.parse_uuid("urn:uuid:a0eebc9909c0b-4ef8-bb6d-6bb9bd380a11", "lenient") })
        end)

        it("raises for another mode, naming it", function()
            h.raises(function() return mintid.parse_uuid(V1, "loose") end, "bad argument #2",
                'mode must be "strict" or "lenient", got "loose"')
            h.raises(function() return mintid.parse_uuid(V1, "LENIENT") end, "bad argument #2",
                'mode must be "strict" or "lenient", got "LENIENT"')
            h.raises(function() return mintid.parse_uuid(V1, 1) end, "bad argument #2", "string expected")
        end)
    end)
end)

describe("value:iso()", function()
    it("iso.txt: a ULID's time as RFC 3339 text, or nil, message past 9999-12-31", function()
        h.each_vector("iso.txt", { "ms", "text" }, function(r, w)
            local ok, ms = pcall(h.num, r.ms)
            if ok and ms >= 0 and ms <= h.MAX_MS then
                local v = assert(mintid.ulid_from(ms, RAND10), w)
                if r.text == "error:range" then
                    h.assert_bad_data(v:iso(), select(2, v:iso()),
                        "time " .. r.ms .. " ms is past 9999-12-31T23:59:59.999Z", w)
                else
                    assert.are.equal(r.text, v:iso(), w)
                end
            end
        end)
    end)

    it("every kind with a time: one moment in v1, v6, v7 and the ULID, TypeID of the v7", function()
        assert.are.equal(AT, mintid.parse_uuid(V1):iso())
        assert.are.equal(AT, mintid.parse_uuid(V6):iso())
        assert.are.equal(AT, mintid.parse_uuid(V7):iso():sub(1, 19) .. ".000Z")
        assert.are.equal("2022-02-22T19:22:22.000Z", mintid.ulid_from(1645557742000, RAND10):iso())
        assert.are.equal(mintid.parse_uuid(V7):iso(), mintid.parse_uuid(V7):ulid():iso())
        assert.are.equal(mintid.parse_uuid(V7):iso(), mintid.parse_typeid(mintid.typeid_from("user", V7)):iso())
        assert.are.equal("2014-05-13T16:53:20.000Z", mintid.ksuid_from(1400000000, ("\0"):rep(16)):iso())
        assert.are.equal("1970-01-01T00:00:01.234Z", mintid.relative_from(0, 1234, 0):iso())
    end)

    it("v1 times before 1970, and the largest 60-bit time", function()
        local zero = mintid.uuid_from_bytes(("\0"):rep(6) .. "\16" .. ("\0"):rep(9)) -- v1, ticks 0
        assert.are.equal("1582-10-15T00:00:00.000Z", zero:iso())
        local max = mintid.parse_uuid("ffffffff-ffff-1fff-8000-000000000000")
        assert.are.equal("5236-03-31T21:21:00.684Z", max:iso())
    end)

    it("is nil for a UUID whose version has no time, as :time() is", function()
        assert.is_nil(mintid.parse_uuid(V4):iso())
        assert.is_nil(mintid.parse_typeid(mintid.typeid_from("user", V4)):iso())
    end)
end)

describe("IDs as table keys", function()
    it("two parses are two values, equal by ==; their text is the one key", function()
        local text = mintid.ulid()
        local seen = {}
        seen[tostring(mintid.parse_ulid(text))] = true
        assert.is_true(seen[tostring(mintid.parse_ulid(text))])
        assert.is_true(seen[tostring(mintid.parse_ulid(text:lower()))], "either case: one canonical text")
        assert.are.equal(mintid.parse_uuid(V1), mintid.parse_uuid("{" .. V1:upper() .. "}", "lenient"))
    end)
end)
