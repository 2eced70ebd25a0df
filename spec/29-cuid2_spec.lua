-- CUID2 (SPEC.md "CUID2"): a random letter, then base-36 digits of
-- SHA3-512(time + salt + counter + fingerprint), as paralleldrive/cuid2
-- makes them; SHA3-512 itself against FIPS 202.
local h = require "helper"
local mintid = require(h.module_name)

local function split(list)
    local out = {}
    for item in list:gmatch("[^,]+") do out[#out + 1] = item end
    return out
end

local function cuid2_pattern(length)
    return "^[a-z]" .. ("[0-9a-z]"):rep(length - 1) .. "$"
end

-- A generator whose random option records the size of each draw (bytes from
-- the given function, the pool's stand-in).
local function recording_generator(opts, bytes)
    local sizes = {}
    local o = { length = opts.length, fingerprint = opts.fingerprint }
    o.random = function(n)
        sizes[#sizes + 1] = n
        return bytes(n)
    end
    return mintid.cuid2_generator(o), sizes
end

describe("CUID2", function()
    describe("vectors", function()
        it("cuid2.txt: a generator fed the clock and the draws of each row makes its IDs, drawing exactly those bytes", function()
            h.each_vector("cuid2.txt", { "length", "fingerprint_hex", "times_ms", "draws_hex", "ids" }, function(r, w)
                local rnd = h.random_script(w)
                for _, d in ipairs(split(r.draws_hex)) do rnd.expect_hex(d, w) end
                local times = {}
                for i, t in ipairs(split(r.times_ms)) do times[i] = h.num(t) end
                local opts = { length = h.num(r.length), clock = h.clock_list(times, w).fn, random = rnd.fn }
                if r.fingerprint_hex ~= "-" then opts.fingerprint = h.fromhex(r.fingerprint_hex) end
                local g = mintid.cuid2_generator(opts)
                for i, id in ipairs(split(r.ids)) do
                    assert.are.equal(id, g:next(), w .. ": ID " .. i)
                end
                rnd.assert_drained(w)
            end)
        end)

        -- The C vector runner checks the core's SHA3-512 against every row.
        it("sha3_512.txt holds FIPS 202's published SHA3-512 of the empty message and 'abc'", function()
            local published = {
                [""] = "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
                    .. "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26",
                ["616263"] = "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
                    .. "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
            }
            local seen = 0
            h.each_vector("sha3_512.txt", { "message_hex", "digest_hex" }, function(r, w)
                local msg = r.message_hex == "-" and "" or r.message_hex
                if published[msg] then
                    assert.are.equal(published[msg], r.digest_hex, w)
                    seen = seen + 1
                end
            end)
            assert.are.equal(2, seen, "the FIPS 202 examples for the empty message and 'abc'")
        end)
    end)

    describe("edge cases", function()
        it("cuid2() is 24 characters, cuid2(length) any length 2..32", function()
            assert.matches(cuid2_pattern(24), mintid.cuid2())
            assert.matches(cuid2_pattern(24), mintid.cuid2(nil))
            for length = 2, 32 do
                assert.matches(cuid2_pattern(length), mintid.cuid2(length), "length " .. length)
                assert.matches(cuid2_pattern(length), mintid.cuid2_generator({ length = length }):next())
            end
        end)

        it("a length outside 2..32, or not an integer, raises naming it", function()
            h.raises(function() return mintid.cuid2(1) end, "bad argument #1", "length must be 2..32, got 1")
            h.raises(function() return mintid.cuid2(33) end, "bad argument #1", "length must be 2..32, got 33")
            h.raises(function() return mintid.cuid2(-1) end, "length must be 2..32, got -1")
            h.raises(function() return mintid.cuid2("x") end, "bad argument #1", "integer expected, got string")
            h.raises(function() return mintid.cuid2(2.5) end, "bad argument #1")
            h.raises(function() return mintid.cuid2_generator({ length = 0 }) end,
                "bad argument #1", "length must be 2..32, got 0")
            h.raises(function() return mintid.cuid2_generator({ length = 33 }) end, "length must be 2..32, got 33")
            h.raises(function() return mintid.cuid2_generator({ length = "24" }) end, "length must be an integer, got string")
        end)

        it("the generator's options: fingerprint 1..256 bytes, nothing unknown", function()
            h.raises(function() return mintid.cuid2_generator({ fingerprint = "" }) end,
                "bad argument #1", "fingerprint must be 1..256 bytes, got 0")
            h.raises(function() return mintid.cuid2_generator({ fingerprint = ("x"):rep(257) }) end,
                "fingerprint must be 1..256 bytes, got 257")
            h.raises(function() return mintid.cuid2_generator({ fingerprint = 5 }) end,
                "fingerprint must be a string, got number")
            h.raises(function() return mintid.cuid2_generator({ size = 5 }) end, "unknown option 'size'")
            h.raises(function() return mintid.cuid2_generator({ clock = 5 }) end, "clock must be a function, got number")
            assert.matches(cuid2_pattern(24), mintid.cuid2_generator({ fingerprint = ("x"):rep(256) }):next())
            assert.matches(cuid2_pattern(24), mintid.cuid2_generator():next())
        end)

        it("a clock before 1970 is refused with nil and a message, the counter unmoved", function()
            local now = -1
            local g = mintid.cuid2_generator({ fingerprint = "fp", clock = function() return now end,
                random = function(n) return ("\0"):rep(n) end })
            local id, msg = g:next()
            h.assert_bad_data(id, msg, "CUID2 timestamp -1 is before 1970")
            now = 1700000000000
            -- The counter started at 0 (zero bytes) and no ID used it: the
            -- next two IDs are those of counters 0 and 1.
            local a, b = g:next(), g:next()
            local fresh = mintid.cuid2_generator({ fingerprint = "fp", clock = function() return now end,
                random = function(n) return ("\0"):rep(n) end })
            assert.are.equal(fresh:next(), a)
            assert.are.equal(fresh:next(), b)
        end)

        it("a random source that gives only rejected bytes fails with a message, and a broken one raises", function()
            local g = mintid.cuid2_generator({ fingerprint = "fp", random = function(n) return ("\255"):rep(n) end })
            h.raises(function() return g:next() end, "CUID2 random source gave 64 counter draws in a row out of range")
            local calls = 0
            local g2 = mintid.cuid2_generator({ fingerprint = "fp", random = function(n)
                calls = calls + 1
                return (calls == 1 and "\0" or "\255"):rep(n)
            end })
            h.raises(function() return g2:next() end, "CUID2 random source gave 64 bytes in a row that no symbol uses")
            local g3 = mintid.cuid2_generator({ random = function() return 5 end })
            h.raises(function() return g3:next() end, "random")
        end)

        it("a random option that raises or gives the wrong length leaves the generator as new: the next call draws all again", function()
            local sizes, fail = {}, "raise"
            local g = mintid.cuid2_generator({ length = 10, random = function(n)
                sizes[#sizes + 1] = n
                if #sizes == 2 and fail == "raise" then error("random exploded", 0) end
                if #sizes == 2 then return "short" end
                return ("\3"):rep(n)
            end })
            h.raises(function() return g:next() end, "random exploded")
            assert.matches(cuid2_pattern(10), g:next())
            assert.are.same({ 4, 32, 4, 32, 11 }, sizes, "the counter and fingerprint drawn again")
            sizes, fail = {}, "short"
            local g2 = mintid.cuid2_generator({ length = 10, random = function(n)
                sizes[#sizes + 1] = n
                if #sizes == 2 then return "short" end
                return ("\3"):rep(n)
            end })
            h.raises(function() return g2:next() end, "random(32) returned 5 bytes, want 32")
            assert.matches(cuid2_pattern(10), g2:next())
            assert.are.same({ 4, 32, 4, 32, 11 }, sizes)
        end)

        it("is_cuid2 is the reference's isCuid: a-z, then one or more 0-9 a-z, length within [min, max]; "
            .. "text not a string raises", function()
            assert.is_true(mintid.is_cuid2("ab"))
            assert.is_true(mintid.is_cuid2("a" .. ("0"):rep(31)))
            assert.is_false(mintid.is_cuid2("a" .. ("0"):rep(32)), "33 characters")
            assert.is_false(mintid.is_cuid2("a"), "one character: the pattern needs two")
            assert.is_false(mintid.is_cuid2(""))
            assert.is_false(mintid.is_cuid2("1abc"), "a digit first")
            assert.is_false(mintid.is_cuid2("Abc"), "an upper-case letter")
            assert.is_false(mintid.is_cuid2("abC"), "an upper-case letter later")
            assert.is_false(mintid.is_cuid2("ab-c"))
            assert.is_false(mintid.is_cuid2("ab\0c"))
            assert.is_true(mintid.is_cuid2("abcdef", 6, 6))
            assert.is_false(mintid.is_cuid2("abcdef", 7))
            assert.is_false(mintid.is_cuid2("abcdef", 2, 5))
            assert.is_true(mintid.is_cuid2("a" .. ("z"):rep(99), 2, 100))
            assert.is_false(mintid.is_cuid2("a", 1, 1), "the pattern's two characters, whatever the bounds")
            h.raises(function() return mintid.is_cuid2(nil) end, "bad argument #1", "string expected, got nil")
            h.raises(function() return mintid.is_cuid2(12) end, "bad argument #1", "string expected, got number")
            h.raises(function() return mintid.is_cuid2("ab", "x") end, "bad argument #2", "integer expected, got string")
            h.raises(function() return mintid.is_cuid2("ab", 2, {}) end, "bad argument #3", "integer expected, got table")
        end)
    end)

    describe("properties", function()
        it("10000 IDs of the default generator are distinct CUID2s", function()
            local seen = {}
            for i = 1, 10000 do
                local id = mintid.cuid2()
                assert(mintid.is_cuid2(id), id)
                assert(not seen[id], "repeated at " .. i .. ": " .. id)
                seen[id] = true
            end
        end)

        it("one generator at one frozen ms, with the same salt draws each time, still differs by its counter", function()
            local g = mintid.cuid2_generator({ fingerprint = "fp", clock = function() return 1700000000000 end,
                random = function(n) return ("\1"):rep(n) end })
            local seen = {}
            for i = 1, 1000 do
                local id = g:next()
                assert(not seen[id], "repeated at " .. i .. ": " .. id)
                seen[id] = true
            end
        end)

        it("the counter and a drawn fingerprint are drawn on the first call only: 4 and 32 bytes, then length + 1 per ID", function()
            local g, sizes = recording_generator({ length = 10 }, function(n) return ("\7"):rep(n) end)
            g:next()
            g:next()
            assert.are.same({ 4, 32, 11, 11 }, sizes)
            local g2, sizes2 = recording_generator({ length = 10, fingerprint = "fp" }, function(n) return ("\7"):rep(n) end)
            g2:next()
            assert.are.same({ 4, 11 }, sizes2)
        end)

        it("letters and digits are uniform: each of the 26 letters and 36 digits shows up", function()
            local letters, digits = {}, {}
            for _ = 1, 2000 do
                local id = mintid.cuid2(32)
                letters[id:sub(1, 1)] = true
                for c in id:sub(2):gmatch(".") do digits[c] = true end
            end
            local nl, nd = 0, 0
            for _ in pairs(letters) do nl = nl + 1 end
            for _ in pairs(digits) do nd = nd + 1 end
            assert.are.equal(26, nl)
            assert.are.equal(36, nd)
        end)
    end)

    describe("fork()", function()
        it("a generator made before the fork draws its counter and fingerprint afresh in the child", function()
            local g, sizes = recording_generator({ length = 24 }, function(n) return ("\9"):rep(n) end)
            g:next()
            local child = h.in_child(function()
                g:next()
                g:next()
                return table.concat(sizes, " ")
            end)
            assert.are.equal("4 32 25 4 32 25 25", child)
            g:next()
            assert.are.same({ 4, 32, 25, 25 }, sizes, "the parent goes on with its own")
        end)

        it("a given fingerprint stays; the child draws only its counter again", function()
            local g, sizes = recording_generator({ length = 24, fingerprint = "host" }, function(n) return ("\9"):rep(n) end)
            g:next()
            local child = h.in_child(function()
                g:next()
                return table.concat(sizes, " ")
            end)
            assert.are.equal("4 25 4 25", child)
        end)

        it("the process-wide and pool-backed generators never repeat an ID of the parent in the child", function()
            local g = mintid.cuid2_generator()
            mintid.cuid2()
            g:next()
            local seen = {}
            for _ = 1, 5 do
                local child = h.in_child(function() return mintid.cuid2() .. " " .. g:next() end)
                for id in child:gmatch("%S+") do
                    assert(mintid.is_cuid2(id), id)
                    assert(not seen[id], "repeated: " .. id)
                    seen[id] = true
                end
                for _, id in ipairs({ mintid.cuid2(), g:next() }) do
                    assert(not seen[id], "repeated: " .. id)
                    seen[id] = true
                end
            end
        end)
    end)
end)
