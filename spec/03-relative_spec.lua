-- Relative IDs (SPEC.md "Relative ID"): tag << 98 | ms << 50 | rand, where
-- the 30-bit tag is the top of HMAC-SHA-256(secret, BE32(len salt) || salt || key).
local h = require "helper"
local mintid = require(h.module_name)

local SECRET = "0123456789abcdef" -- 16 bytes: the shortest allowed
local unpack = unpack or table.unpack
local MONOTONIC_COLUMNS = { "scenario", "secret_hex", "salt_hex", "key_hex", "now_ms", "random_hex", "expect" }

local function between(id, lo, hi)
    return h.bytes_cmp(lo, id) <= 0 and h.bytes_cmp(id, hi) < 0
end

describe("relative ID", function()
    describe("vectors", function()
        it("relative_tag.txt: relative_tag, g:tag, g:prefix, relative_range and the IDs' first field", function()
            h.each_vector("relative_tag.txt", { "secret_hex", "salt_hex", "key_hex", "tag", "prefix" }, function(r, w)
                local secret, salt, key = h.fromhex(r.secret_hex), h.fromhex(r.salt_hex), h.fromhex(r.key_hex)
                local tag = h.num(r.tag)
                assert.are.equal(tag, mintid.relative_tag(secret, salt, key), w)
                if h.has_integers then assert.are.equal("integer", math.type(mintid.relative_tag(secret, salt, key)), w) end

                local rnd = h.random_script(w)
                local g = mintid.relative_generator {
                    secret = secret, salt = salt, random = rnd.fn,
                    clock = function() return 1700000000000 end,
                }
                assert.are.equal(tag, g:tag(key), w)
                assert.are.equal(r.prefix, g:prefix(key), w)
                if salt == "" then
                    local unsalted = mintid.relative_generator { secret = secret }
                    assert.are.equal(tag, unsalted:tag(key), w .. ": salt defaults to ''")
                    assert.are.equal(r.prefix, unsalted:prefix(key), w)
                end
                local lo, hi = mintid.relative_range(r.prefix)
                assert.are.equal(r.prefix, lo, w)
                assert.are.equal(r.prefix:sub(1, 6) .. ".", hi, w)

                rnd.expect("\0\0\0\0\0\0\5", w)
                local id = g:next(key)
                rnd.assert_drained(w)
                assert.are.equal(r.prefix .. "01HF7YAT00-0000000005", id, w)
                assert.are.equal(tag, mintid.parse_relative(id):tag(), w)
                assert.is_true(between(id, lo, hi), w)
                local lo2, hi2 = mintid.relative_range(id)
                assert.are.equal(lo, lo2, w)
                assert.are.equal(hi, hi2, w)
            end)
        end)

        it("sha256.txt: a secret longer than a SHA-256 block is hashed first (HMAC), so it tags like its digest", function()
            local long = 0
            h.each_vector("sha256.txt", { "message_hex", "digest_hex" }, function(r, w)
                local message = h.fromhex(r.message_hex)
                if #message > 64 then
                    local digest = h.fromhex(r.digest_hex)
                    for _, key in ipairs({ "", "customer-42" }) do
                        assert.are.equal(mintid.relative_tag(digest, "", key),
                            mintid.relative_tag(message, "", key), w)
                    end
                    long = long + 1
                end
            end)
            assert.is_true(long > 0, "sha256.txt has no message longer than 64 bytes")
        end)

        it("relative.txt: relative_from, text, bytes, fields, and parse_relative of both forms in both cases", function()
            h.each_vector("relative.txt", { "tag", "ms", "rand", "text", "bytes_hex" }, function(r, w)
                local tag, ms, rand = h.num(r.tag), h.num(r.ms), h.num(r.rand)
                local v, err = mintid.relative_from(tag, ms, rand)
                assert(v ~= nil, w .. ": relative_from returned nil, " .. tostring(err))
                assert.are.equal(r.text, tostring(v), w)
                assert.are.equal(r.bytes_hex, h.tohex(v:bytes()), w)
                assert.are.equal(tag, v:tag(), w)
                assert.are.equal(ms, v:time(), w)
                assert.are.equal(rand, v:rand(), w)
                if h.has_integers then
                    assert.are.equal("integer", math.type(v:tag()), w)
                    assert.are.equal("integer", math.type(v:time()), w)
                    assert.are.equal("integer", math.type(v:rand()), w)
                end
                local short = (r.text:gsub("-", ""))
                assert.are.equal(26, #short, w)
                for _, form in ipairs({ r.text, r.text:lower(), short, short:lower() }) do
                    local p, perr = mintid.parse_relative(form)
                    assert(p ~= nil, w .. ": parse_relative(" .. form .. ") returned nil, " .. tostring(perr))
                    assert.are.equal(v, p, w .. " " .. form)
                    assert.are.equal(r.text, tostring(p), w .. " " .. form)
                    assert.are.equal(rand, p:rand(), w .. " " .. form)
                end
            end)
        end)

        it("relative_invalid.txt: parse_relative returns nil and a one-line message with the reason", function()
            h.each_invalid("relative_invalid.txt", { parse_relative = mintid.parse_relative })
        end)

        it("relative_monotonic.txt: every scenario replayed on a new generator with injected clock and random", function()
            h.replay_scenarios {
                file = "relative_monotonic.txt", columns = MONOTONIC_COLUMNS, draw = 7,
                same = { "secret_hex", "salt_hex" },
                new = mintid.relative_generator,
                options = function(first)
                    return { secret = h.fromhex(first.secret_hex), salt = h.fromhex(first.salt_hex) }
                end,
                call = function(g, r) return g:next(h.fromhex(r.key_hex)) end,
                check = function(g, r, id, w) assert.are.equal(g:prefix(h.fromhex(r.key_hex)), id:sub(1, 7), w) end,
            }
        end)
    end)

    describe("edge cases", function()
        local KEYS = { "customer-42", "customer-43", "", "tenant/7", "caf\195\169", "a\0b" }

        it("every ID of a key starts with g:prefix(key) and sorts inside relative_range; other tags' IDs sort outside", function()
            local g = mintid.relative_generator { secret = SECRET, salt = "orders" }
            local ids, tags = {}, {}
            for _, key in ipairs(KEYS) do
                local prefix = g:prefix(key)
                assert.is_truthy(prefix:match("^" .. ("[0-9A-HJKMNP-TV-Z]"):rep(6) .. "%-$"), prefix)
                tags[key] = g:tag(key)
                ids[key] = {}
                for _ = 1, 50 do
                    local id = g:next(key)
                    assert.is_truthy(id:match(h.RELATIVE_PATTERN), id)
                    assert.are.equal(prefix, id:sub(1, 7))
                    ids[key][#ids[key] + 1] = id
                end
            end
            for _, key in ipairs(KEYS) do
                local lo, hi = mintid.relative_range(g:prefix(key))
                for _, other in ipairs(KEYS) do
                    for _, id in ipairs(ids[other]) do
                        if tags[other] == tags[key] then
                            assert.is_true(between(id, lo, hi), id .. " outside " .. lo .. ".." .. hi)
                        else
                            assert.is_false(between(id, lo, hi), id .. " inside " .. lo .. ".." .. hi)
                        end
                    end
                end
            end
            -- the keys above do have distinct tags, so the second branch ran
            assert.are_not.equal(tags[KEYS[1]], tags[KEYS[2]])
        end)

        it("relative_range takes a prefix or an ID, in either case, and rejects anything else", function()
            local g = mintid.relative_generator { secret = SECRET }
            local prefix = g:prefix("k")
            local id = g:next("k")
            local want_lo, want_hi = prefix, prefix:sub(1, 6) .. "."
            for _, input in ipairs({ prefix, prefix:lower(), id, id:lower(), (id:gsub("-", "")) }) do
                local lo, hi = mintid.relative_range(input)
                assert.are.equal(want_lo, lo, input)
                assert.are.equal(want_hi, hi, input)
            end
            for _, bad in ipairs({ "", "ABC", "ABCDEF", "ABCDEFG", "ABCDE!-", "000000-8000000000-0000000000" }) do
                local lo, msg = mintid.relative_range(bad)
                h.assert_bad_data(lo, msg, nil, "relative_range('" .. bad .. "')")
            end
        end)

        it("IDs are unique across keys sharing one generator in one ms: one counter for every key", function()
            local rnd = h.random_script("one draw")
            rnd.expect("\0\0\0\0\0\0\0")
            local g = mintid.relative_generator {
                secret = SECRET, clock = function() return 1700000000000 end, random = rnd.fn,
            }
            local seen = {}
            for i = 0, 999 do
                local key = KEYS[i % 2 + 1]
                local id = g:next(key)
                assert.is_nil(seen[id], "repeated " .. id)
                seen[id] = true
                local v = mintid.parse_relative(id)
                assert.are.equal(g:tag(key), v:tag())
                assert.are.equal(1700000000000, v:time())
                assert.are.equal(i, v:rand())
            end
            rnd.assert_drained("one draw")
        end)

        it("a new generator's first call draws, even at ms 0; the draw is masked to 50 bits", function()
            local rnd = h.random_script("first call")
            -- 0xfc sets only bits 50..55 of the 56 drawn: all masked off
            rnd.expect("\252\0\0\0\0\0\0")
            local g = mintid.relative_generator { secret = SECRET, clock = function() return 0 end, random = rnd.fn }
            local id = g:next("k")
            rnd.assert_drained("first call")
            assert.are.equal(g:prefix("k") .. "0000000000-0000000000", id)
            assert.are.equal(g:prefix("k") .. "0000000000-0000000001", g:next("k"))
            rnd.expect("\1\2\3\4\5\6\7")
            local g2 = mintid.relative_generator { secret = SECRET, clock = function() return 0 end, random = rnd.fn }
            local v = mintid.parse_relative(g2:next("k"))
            rnd.assert_drained("second generator")
            -- 0x01020304050607 has bit 48 set and nothing above bit 49: kept whole
            assert.are.equal(h.be_number("\1\2\3\4\5\6\7"), v:rand())
            -- 0xff keeps its two low bits (48 and 49)
            rnd.expect("\255\0\0\0\0\0\0")
            local g3 = mintid.relative_generator { secret = SECRET, clock = function() return 0 end, random = rnd.fn }
            assert.are.equal(g3:prefix("k") .. "0000000000-R000000000", g3:next("k"))
            rnd.assert_drained("third generator")
        end)

        it("counter overflow and clock range errors are nil, message, and leave the state unchanged", function()
            local g, clock, rnd = h.scripted(mintid.relative_generator, "overflow", { secret = SECRET })
            clock.now = -1
            local v, msg = g:next("k")
            h.assert_bad_data(v, msg, nil, "clock -1")
            assert.are.equal("relative ID timestamp -1 out of range 0..281474976710655", msg)
            clock.now = 1234
            rnd.expect(("\255"):rep(7))
            assert.are.equal(g:prefix("k") .. "000000016J-ZZZZZZZZZZ", g:next("k"))
            v, msg = g:next("other key")
            h.assert_bad_data(v, msg, nil, "overflow")
            assert.are.equal("relative ID counter overflow at ms 1234 (50-bit randomness exhausted)", msg)
            clock.now = h.int(2 ^ 48)
            v, msg = g:next("k")
            assert.is_nil(v)
            assert.are.equal("relative ID timestamp 281474976710656 out of range 0..281474976710655", msg)
            clock.now = 1235
            rnd.expect(("\0"):rep(7))
            assert.are.equal(g:prefix("k") .. "000000016K-0000000000", g:next("k"))
            rnd.assert_drained("overflow")
        end)

        it("relative_from checks each field's range", function()
            local cases = {
                { { h.int(2 ^ 30), 0, 0 }, "relative ID tag 1073741824 out of range 0..1073741823" },
                { { -1, 0, 0 }, "relative ID tag -1 out of range 0..1073741823" },
                { { 0, 0, h.int(2 ^ 50) }, "relative ID rand 1125899906842624 out of range 0..1125899906842623" },
                { { 0, 0, -1 }, "relative ID rand -1 out of range 0..1125899906842623" },
                { { 0, -1, 0 }, "relative ID timestamp -1 out of range 0..281474976710655" },
                { { 0, h.int(2 ^ 48), 0 }, "relative ID timestamp 281474976710656 out of range 0..281474976710655" },
            }
            h.each_bad_input(function(args) return mintid.relative_from(unpack(args)) end, cases)
            local max = mintid.relative_from(h.int(2 ^ 30 - 1), h.MAX_MS, h.int(2 ^ 50 - 1))
            assert.are.equal("ZZZZZZ-7ZZZZZZZZZ-ZZZZZZZZZZ", tostring(max))
            assert.are.equal(("\255"):rep(16), max:bytes())
        end)

        it("parse_relative reports errors in the documented words", function()
            local cases = {
                { ("0"):rep(27), "invalid relative ID: length 27, want 28 (or 26 without hyphens)" },
                { ("0"):rep(29), "invalid relative ID: length 29, want 28 (or 26 without hyphens)" },
                { "", "invalid relative ID: length 0, want 28 (or 26 without hyphens)" },
                { "000000X0000000000-0000000000", "invalid relative ID: want '-' at 7, got 'X'" },
                { "000000-0000000000_0000000000", "invalid relative ID: want '-' at 18, got '_'" },
                { "00U000-0000000000-0000000000", "invalid relative ID: bad character 'U' at 3" },
                { "000000-0000000000-000000000L", "invalid relative ID: bad character 'L' at 28" },
                { "000000-8000000000-0000000000", "invalid relative ID: first time character '8' at 8 overflows 48 bits (want 0-7)" },
                { "000000Z0000000000000000000", "invalid relative ID: first time character 'Z' at 7 overflows 48 bits (want 0-7)" },
                { "00U00000000000000000000000", "invalid relative ID: bad character 'U' at 3" },
                { "000000-0000000000000000000", "invalid relative ID: bad character '-' at 7" },
                { "000000-0000000000-000000000 ", "invalid relative ID: bad character 0x20 at 28" },
            }
            h.each_bad_input(mintid.parse_relative, cases)
        end)

        it("the salt gives the same key an unrelated tag; the length prefix separates salt from key", function()
            local plain = mintid.relative_generator { secret = SECRET }
            local orders = mintid.relative_generator { secret = SECRET, salt = "orders" }
            assert.are.equal(mintid.relative_tag(SECRET, "", "k"), plain:tag("k"))
            assert.are.equal(mintid.relative_tag(SECRET, "orders", "k"), orders:tag("k"))
            assert.are_not.equal(plain:tag("k"), orders:tag("k"))
            assert.are_not.equal(mintid.relative_tag(SECRET, "ab", "c"), mintid.relative_tag(SECRET, "a", "bc"))
            -- tags are 30-bit integers
            for _, key in ipairs(KEYS) do
                local t = orders:tag(key)
                assert.is_true(t >= 0 and t < 2 ^ 30, tostring(t))
            end
        end)

        it("a number key is its integer's decimal text on every Lua; other keys raise", function()
            local g = mintid.relative_generator { secret = SECRET, clock = function() return 1000 end }
            -- 42.0 is "42.0" to tostring on Lua 5.3+ and "42" on 5.1: the key is neither text
            local same = {
                { "42", 42, 42.0 },
                { "-7", -7, -7.0 },
                { "0", 0, -0.0 },
                { "9007199254740992", 2 ^ 53, h.int(2 ^ 53) },
                { "4611686018427387904", 2 ^ 62 },
            }
            for _, c in ipairs(same) do
                local text = c[1]
                for i = 2, #c do
                    local key = c[i]
                    local w = text .. " as the number " .. tostring(key)
                    assert.are.equal(g:prefix(text), g:prefix(key), w)
                    assert.are.equal(g:tag(text), g:tag(key), w)
                    assert.are.equal(mintid.relative_tag(SECRET, "", text), mintid.relative_tag(SECRET, "", key), w)
                    assert.are.equal(g:prefix(text), g:next(key):sub(1, 7), w)
                    assert.are.equal(g:tag(text), g:next_value(key):tag(), w)
                end
            end
            local bad = {
                { 42.5, "42.5" }, { -0.5, "-0.5" }, { 1 / 0, nil }, { 0 / 0, nil }, { 2 ^ 63, nil },
                { {}, "table" }, { true, "boolean" }, { print, "function" },
            }
            for _, c in ipairs(bad) do
                local want = "key must be a string or a 64-bit integer, got " .. (c[2] or "")
                for _, m in ipairs({ "next", "next_value", "prefix", "tag" }) do
                    h.raises(function() return g[m](g, c[1]) end, "bad argument", want)
                end
                h.raises(function() return mintid.relative_tag(SECRET, "", c[1]) end, "bad argument #3", want)
            end
            h.raises(function() return mintid.relative_tag(SECRET, "") end, "bad argument #3", "got no value")
        end)

        it("tostring of a generator never shows the secret", function()
            local secret = "s3cr3t-from-the-key-store!"
            local g = mintid.relative_generator { secret = secret, salt = "orders" }
            local text = tostring(g)
            assert.is_truthy(text:find("^mintid%.RelativeGenerator"), text)
            assert.is_falsy(text:find(secret, 1, true), text)
            assert.is_falsy(text:find(h.tohex(secret), 1, true), text)
            assert.is_falsy(text:lower():find("s3cr3t", 1, true), text)
        end)

        it("a generator with the OS clock and random source: 28-char IDs, increasing per key", function()
            local g = mintid.relative_generator { secret = SECRET }
            local prev = {}
            for i = 1, 2000 do
                local key = KEYS[i % #KEYS + 1]
                local id = g:next(key)
                assert.is_truthy(id:match(h.RELATIVE_PATTERN), id)
                if prev[key] then assert.is_true(h.bytes_cmp(prev[key], id) < 0, prev[key] .. " !< " .. id) end
                prev[key] = id
            end
        end)
    end)
end)
