-- Every other UUID version (SPEC.md "UUID, every version"): Gregorian time
-- (v1, v6), name-based (v3, v5, v8 with SHA-256), custom v8, the variant,
-- the constants and the v1 <-> v6 conversions.
local h = require "helper"
local mintid = require(h.module_name)

local NAMESPACES = {
    dns = mintid.NAMESPACE_DNS, url = mintid.NAMESPACE_URL, oid = mintid.NAMESPACE_OID, x500 = mintid.NAMESPACE_X500,
}
local NAME_BASED = { ["3"] = mintid.uuid3, ["5"] = mintid.uuid5, ["8"] = mintid.uuid8_sha256 }
local TIME_GENERATORS = { ["1"] = mintid.uuid1_generator, ["6"] = mintid.uuid6_generator }
local V1_PATTERN = "^" .. ("%x"):rep(8) .. "%-" .. ("%x"):rep(4) .. "%-1" .. ("%x"):rep(3) .. "%-[89ab]"
local V6_PATTERN = "^" .. ("%x"):rep(8) .. "%-" .. ("%x"):rep(4) .. "%-6" .. ("%x"):rep(3) .. "%-[89ab]"

-- The v1 fields in time order, so that v1 texts compare by time.
local function v1_time_key(text)
    return text:sub(16, 18) .. text:sub(10, 13) .. text:sub(1, 8)
end

describe("UUID versions", function()
    describe("vectors", function()
        it("uuid_time.txt: the v1 and v6 layouts of (ticks, clock_seq, node), their times and conversions", function()
            h.each_vector("uuid_time.txt", { "ticks", "clock_seq", "node_hex", "v1", "v6", "ms" }, function(r, w)
                local ms = h.num(r.ms)
                assert.are.equal(r.v6, mintid.uuid1_to_uuid6(r.v1), w)
                assert.are.equal(r.v1, mintid.uuid6_to_uuid1(r.v6), w)
                assert.are.equal(r.v6, mintid.uuid1_to_uuid6(r.v1:upper()), w)
                assert.are.equal(ms, mintid.parse_uuid(r.v1):time(), w)
                assert.are.equal(ms, mintid.parse_uuid(r.v6):time(), w)
                assert.are.equal(1, mintid.parse_uuid(r.v1):version(), w)
                assert.are.equal(6, mintid.parse_uuid(r.v6):version(), w)
                assert.are.equal(h.fromhex(r.node_hex), mintid.parse_uuid(r.v1):bytes():sub(11), w)
            end)
        end)

        it("uuid_name.txt: uuid3, uuid5 and uuid8_sha256 of a name space as text and as a value", function()
            h.each_vector("uuid_name.txt", { "version", "namespace", "name_hex", "text" }, function(r, w)
                local make = assert(NAME_BASED[r.version], w .. ": version " .. r.version)
                local ns = NAMESPACES[r.namespace] or r.namespace
                local name = h.fromhex(r.name_hex)
                assert.are.equal(r.text, make(ns, name), w)
                assert.are.equal(r.text, make(ns:upper(), name), w)
                assert.are.equal(r.text, make(mintid.parse_uuid(ns), name), w)
            end)
        end)

        it("uuid8.txt: uuid8 sets version 8 and the variant, keeping the other 122 bits", function()
            h.each_vector("uuid8.txt", { "bytes_hex", "text" }, function(r, w)
                assert.are.equal(r.text, mintid.uuid8(h.fromhex(r.bytes_hex)), w)
                assert.are.equal(8, mintid.parse_uuid(r.text):version(), w)
            end)
        end)

        it("uuid_fields.txt: :version(), :variant(), :time() and which conversions refuse", function()
            h.each_vector("uuid_fields.txt", { "text", "version", "variant", "ms" }, function(r, w)
                local u = assert(mintid.parse_uuid(r.text), w)
                assert.are.equal(h.num(r.version), u:version(), w)
                assert.are.equal(r.variant, u:variant(), w)
                if r.ms == "-" then
                    assert.is_nil(u:time(), w)
                else
                    assert.are.equal(h.num(r.ms), u:time(), w)
                end
                if r.version ~= "1" then
                    h.assert_bad_data(mintid.uuid1_to_uuid6(r.text), select(2, mintid.uuid1_to_uuid6(r.text)),
                        "not 1", w)
                end
                if r.version ~= "6" then
                    h.assert_bad_data(mintid.uuid6_to_uuid1(r.text), select(2, mintid.uuid6_to_uuid1(r.text)),
                        "not 6", w)
                end
            end)
        end)

        it("uuid_time_monotonic.txt: every scenario with a clock option replayed on a new generator", function()
            local columns = { "scenario", "version", "node_hex", "clock_seq", "now_ms", "now_100ns", "random_hex",
                "expect" }
            local replayed = 0
            for _, sc in ipairs(h.scenarios("uuid_time_monotonic.txt", columns)) do
                local first = sc.rows[1]
                -- The OS clock's 100-ns readings cannot be injected from Lua
                -- (the clock option gives ms): test_vectors replays those.
                if first.now_ms ~= "-" then
                    local clock, rnd = h.clock_var(sc.name), h.random_script(sc.name)
                    if first.random_hex ~= "-" then rnd.expect_hex(first.random_hex, first._where) end
                    local opts = { clock = clock.fn, random = rnd.fn }
                    if first.node_hex ~= "-" then opts.node = h.fromhex(first.node_hex) end
                    if first.clock_seq ~= "-" then opts.clock_seq = h.num(first.clock_seq) end
                    local new = TIME_GENERATORS[first.version]
                    if first.expect == "error:arg" then
                        -- a bad option: the constructor raises
                        h.raises(function() return new(opts) end, "bad argument #1")
                        replayed = replayed + 1
                    end
                    local g = first.expect ~= "error:arg" and new(opts)
                    if g then rnd.assert_drained(first._where) end
                    for _, r in ipairs(g and sc.rows or {}) do
                        local w = r._where .. " (" .. sc.name .. ")"
                        clock.now = h.exact_int(r.now_ms)
                        local got, msg = g:next()
                        h.check_expect(r.expect, got, msg, w, "out of range")
                        rnd.assert_drained(w)
                        replayed = replayed + 1
                    end
                end
            end
            assert.is_true(replayed > 20, "rows replayed: " .. replayed)
        end)
    end)

    describe("edge cases", function()
        it("the constants are the RFC 9562 texts", function()
            assert.are.equal("6ba7b810-9dad-11d1-80b4-00c04fd430c8", mintid.NAMESPACE_DNS)
            assert.are.equal("6ba7b811-9dad-11d1-80b4-00c04fd430c8", mintid.NAMESPACE_URL)
            assert.are.equal("6ba7b812-9dad-11d1-80b4-00c04fd430c8", mintid.NAMESPACE_OID)
            assert.are.equal("6ba7b814-9dad-11d1-80b4-00c04fd430c8", mintid.NAMESPACE_X500)
            assert.are.equal("00000000-0000-0000-0000-000000000000", mintid.UUID_NIL)
            assert.are.equal("ffffffff-ffff-ffff-ffff-ffffffffffff", mintid.UUID_MAX)
            assert.are.equal("ncs", mintid.parse_uuid(mintid.UUID_NIL):variant())
            assert.are.equal("future", mintid.parse_uuid(mintid.UUID_MAX):variant())
        end)

        it("a name is bytes: empty, NUL and every byte", function()
            assert.are.equal(36, #mintid.uuid5(mintid.NAMESPACE_URL, ""))
            assert.are_not.equal(mintid.uuid5(mintid.NAMESPACE_URL, "a\0b"), mintid.uuid5(mintid.NAMESPACE_URL, "a"))
            assert.are.equal(mintid.uuid3(mintid.NAMESPACE_OID, h.ALL_BYTES), mintid.uuid3(mintid.NAMESPACE_OID, h.ALL_BYTES))
        end)

        it("a time before 1970 is negative, the Gregorian start included", function()
            local g = mintid.uuid6_generator { clock = function() return -12219292800000 end }
            assert.are.equal("00000000-0000-6000", g:next():sub(1, 18))
            assert.are.equal(-12219292800000, g:next_value():time())
            h.assert_bad_data(mintid.uuid1_generator { clock = function() return -12219292800001 end }:next(),
                select(2, mintid.uuid1_generator { clock = function() return -12219292800001 end }:next()),
                "out of range")
        end)

        it("a fixed node and clock_seq are used as given; node[0] of a random one has the multicast bit", function()
            local g = mintid.uuid1_generator { node = "\0\1\2\3\4\5", clock_seq = 16383 }
            assert.are.equal("-bfff-000102030405", g:next():sub(19))
            for _ = 1, 20 do
                local b = mintid.parse_uuid(mintid.uuid1_generator():next()):bytes()
                assert.are.equal(1, b:byte(11) % 2)
            end
        end)
    end)

    describe("bad input", function()
        it("bad data returns nil, message", function()
            for _, make in pairs(NAME_BASED) do
                h.assert_bad_data(make("not-a-uuid", "x"), select(2, make("not-a-uuid", "x")), "invalid UUID")
            end
            h.assert_bad_data(mintid.uuid8("short"), select(2, mintid.uuid8("short")), "length 5, want 16")
            h.assert_bad_data(mintid.uuid1_to_uuid6("x"), select(2, mintid.uuid1_to_uuid6("x")), "invalid UUID")
            h.assert_bad_data(mintid.uuid6_to_uuid1(mintid.uuid4()), select(2, mintid.uuid6_to_uuid1(mintid.uuid4())),
                "UUID is version 4, not 6")
        end)

        it("bad arguments raise naming the argument", function()
            h.raises(function() return mintid.uuid5(5, "x") end, "bad argument #1", "UUID text or value expected")
            h.raises(function() return mintid.uuid5(mintid.NAMESPACE_DNS, 5) end, "bad argument #2", "string expected")
            h.raises(function() return mintid.uuid3(mintid.parse_ulid(mintid.ulid()), "x") end, "bad argument #1")
            h.raises(function() return mintid.uuid8(16) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.uuid1_to_uuid6(1) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.uuid1_generator { node = "12345" } end, "node must be 6 bytes, got 5")
            h.raises(function() return mintid.uuid6_generator { node = 5 } end, "node must be a string")
            h.raises(function() return mintid.uuid1_generator { clock_seq = 16384 } end, "clock_seq must be 0..16383")
            h.raises(function() return mintid.uuid1_generator { clock_seq = -1 } end, "clock_seq must be 0..16383")
            h.raises(function() return mintid.uuid6_generator { clock_seq = 1.5 } end, "clock_seq must be an integer")
            h.raises(function() return mintid.uuid1_generator { nodes = "x" } end, "unknown option 'nodes'")
            h.raises(function() return mintid.uuid1_generator { random = function() return "x" end } end,
                "random(8) returned 1 bytes, want 8")
        end)
    end)

    describe("properties", function()
        it("uuid1() and uuid6() are monotonic (v6 as text, v1 by its time fields)", function()
            h.assert_strictly_increasing(mintid.uuid6, 20000, V6_PATTERN, "uuid6()")
            h.assert_strictly_increasing(function() return v1_time_key(mintid.uuid1()) end, 20000, "^1%x+$", "uuid1()")
            assert.is_truthy(mintid.uuid1():match(V1_PATTERN))
        end)

        it("a generator on a stopped clock stays monotonic, through the FFI path and the C one", function()
            local g6 = mintid.uuid6_generator()
            h.assert_strictly_increasing(function() return g6:next() end, 20000, V6_PATTERN, "uuid6_generator")
            local g1 = mintid.uuid1_generator { clock = function() return 1700000000000 end }
            h.assert_strictly_increasing(function() return v1_time_key(g1:next()) end, 10000, "^1%x+$",
                "uuid1_generator on a stopped clock")
        end)

        it("the conversions are inverse on minted IDs", function()
            for _ = 1, 100 do
                local v1 = mintid.uuid1()
                assert.are.equal(v1, mintid.uuid6_to_uuid1(mintid.uuid1_to_uuid6(v1)))
                local v6 = mintid.uuid6()
                assert.are.equal(v6, mintid.uuid1_to_uuid6(mintid.uuid6_to_uuid1(v6)))
            end
        end)

        it("a generator used in a forked child draws a fresh node and clock_seq", function()
            local ok, testfork = pcall(require, "testfork")
            if not ok then return end
            local g = mintid.uuid6_generator { clock = function() return 1700000000000 end }
            local parent_identity = g:next():sub(20)
            local path = os.tmpname()
            local pid = testfork.fork()
            if pid == 0 then
                local f = io.open(path, "wb")
                f:write(g:next():sub(20) .. "\n" .. mintid.uuid6():sub(20))
                f:close()
                testfork.exit(0)
            end
            assert.are.equal(0, testfork.wait(pid))
            local f = assert(io.open(path, "rb"))
            local child, child_default = f:read("*l"), f:read("*l")
            f:close()
            os.remove(path)
            assert.are_not.equal(parent_identity, child)
            assert.are.equal(parent_identity, g:next():sub(20))
            assert.are_not.equal(mintid.uuid6():sub(20), child_default)
        end)
    end)
end)
