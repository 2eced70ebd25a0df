-- TypeID (SPEC.md "TypeID"): a prefix, '_', and a UUID in lowercase base32.
local h = require "helper"
local mintid = require(h.module_name)

local SUFFIX = "[0-7]" .. ("[0-9a-hjkmnp-tv-z]"):rep(25)

describe("TypeID", function()
    describe("vectors", function()
        it("typeid.txt: parse_typeid, prefix, uuid, bytes and typeid_from both ways", function()
            h.each_vector("typeid.txt", { "text", "prefix", "uuid" }, function(r, w)
                local prefix = r.prefix == "-" and "" or r.prefix
                local t = mintid.parse_typeid(r.text)
                assert(t ~= nil, w .. ": parse_typeid failed")
                assert.are.equal(r.text, tostring(t), w)
                assert.are.equal(prefix, t:prefix(), w)
                assert.are.equal(r.uuid, tostring(t:uuid()), w)
                assert.are.equal(t:uuid():bytes(), t:bytes(), w)
                assert.are.equal(t:uuid():time(), t:time(), w)
                assert.are.equal(r.text, mintid.typeid_from(prefix, r.uuid), w)
                assert.are.equal(r.text, mintid.typeid_from(prefix, mintid.parse_uuid(r.uuid)), w)
            end)
        end)

        it("typeid_invalid.txt: parse_typeid returns nil and a one-line message with the reason", function()
            h.each_invalid("typeid_invalid.txt", { parse_typeid = mintid.parse_typeid })
        end)

        it("typeid_monotonic.txt: every scenario replayed on a new generator with injected clock and random", function()
            h.replay_scenarios {
                file = "typeid_monotonic.txt", columns = { "scenario", "prefix", "now_ms", "random_hex", "expect" },
                draw = 10, new = mintid.typeid_generator,
                call = function(g, r)
                    local prefix = r.prefix == "-" and "" or r.prefix
                    if r.expect == "error:arg" then
                        h.raises(function() return g:next(prefix) end, "bad argument #", "invalid TypeID prefix")
                        return "error:arg"
                    end
                    return g:next(prefix)
                end,
            }
        end)
    end)

    describe("edge cases", function()
        it("the empty prefix and a 63-character one", function()
            assert.is_truthy(mintid.typeid(""):match("^" .. SUFFIX .. "$"))
            local long = ("a"):rep(63)
            assert.is_truthy(mintid.typeid(long):match("^" .. long .. "_" .. SUFFIX .. "$"))
            assert.are.equal(long, mintid.parse_typeid(mintid.typeid(long)):prefix())
            assert.is_truthy(mintid.typeid("a_b"):match("^a_b_" .. SUFFIX .. "$"))
        end)

        it("typeid() takes the process-wide UUIDv7 generator's next UUID", function()
            local t = mintid.parse_typeid(mintid.typeid("user"))
            assert.are.equal(7, t:uuid():version())
            local next7 = mintid.uuid7()
            assert.is_true(tostring(t:uuid()) < next7)
        end)

        it("values order by their canonical text, equal by prefix and UUID", function()
            local a = mintid.parse_typeid("a_00000000000000000000000001")
            local ab = mintid.parse_typeid("ab_00000000000000000000000000")
            local b = mintid.parse_typeid("b_00000000000000000000000000")
            assert.is_true(a < ab and ab < b and a <= a)
            assert.is_false(b < a)
            assert.are.equal(a, mintid.parse_typeid("a_00000000000000000000000001"))
            assert.are_not.equal(a, mintid.parse_typeid("b_00000000000000000000000001"))
        end)
    end)

    describe("bad input", function()
        it("bad data returns nil, message", function()
            h.assert_bad_data(mintid.typeid_from("user", "x"), select(2, mintid.typeid_from("user", "x")),
                "invalid UUID")
        end)

        it("bad arguments raise naming the argument", function()
            h.raises(function() return mintid.typeid("User") end, "bad argument #1", "invalid TypeID prefix")
            h.raises(function() return mintid.typeid(("a"):rep(64)) end, "bad argument #1")
            h.raises(function() return mintid.typeid("_a") end, "bad argument #1")
            h.raises(function() return mintid.typeid(5) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.typeid() end, "bad argument #1")
            h.raises(function() return mintid.typeid_from("a-b", mintid.UUID_NIL) end, "bad argument #1")
            h.raises(function() return mintid.typeid_from("ab", 5) end, "bad argument #2", "UUID text or value expected")
            h.raises(function() return mintid.parse_typeid(5) end, "bad argument #1", "string expected")
            local g = mintid.typeid_generator()
            h.raises(function() return g:next("A") end, "bad argument #", "invalid TypeID prefix")
            h.raises(function() return g:next(5) end, "bad argument #", "string expected")
            h.raises(function() return g:next() end, "bad argument #")
        end)
    end)

    describe("properties", function()
        it("a generator's TypeIDs increase within a prefix, and typeid() too", function()
            local g = mintid.typeid_generator()
            h.assert_strictly_increasing(function() return g:next("user") end, 20000, "^user_" .. SUFFIX .. "$",
                "typeid_generator")
            h.assert_strictly_increasing(function() return mintid.typeid("post") end, 20000, "^post_" .. SUFFIX .. "$",
                "typeid()")
        end)

        it("a generator used in a forked child draws afresh", function()
            local ok, testfork = pcall(require, "testfork")
            if not ok then return end
            local g = mintid.typeid_generator { clock = function() return 1700000000000 end }
            g:next("x")
            local path = os.tmpname()
            local pid = testfork.fork()
            if pid == 0 then
                local f = io.open(path, "wb")
                f:write(g:next("x"))
                f:close()
                testfork.exit(0)
            end
            assert.are.equal(0, testfork.wait(pid))
            local f = assert(io.open(path, "rb"))
            local child = f:read("*a")
            f:close()
            os.remove(path)
            assert.are_not.equal(g:next("x"), child)
        end)
    end)
end)
