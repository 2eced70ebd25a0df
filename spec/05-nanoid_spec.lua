-- Nano ID (SPEC.md "Nano ID"): the default alphabet maps byte & 63; a custom
-- alphabet of n symbols uses mask and step and rejects i >= n, consuming the
-- random stream in forward order, in whole draws of `step` bytes.
local h = require "helper"
local mintid = require(h.module_name)

-- SPEC: the smallest 2^k - 1 >= n - 1 (at least 1), and the draw size.
local function mask_of(n)
    local m = 1
    while m < n - 1 do m = m * 2 + 1 end
    return m
end

local function step_of(n, size)
    local m = mask_of(n)
    if m + 1 == n then return size end
    return math.ceil(8 * m * size / (5 * n))
end

local only_symbols_of = h.only_symbols_of

describe("Nano ID", function()
    describe("vectors", function()
        it("nanoid.txt: a generator fed the stream draws `step` bytes at a time, consumes it all, and gives the output", function()
            h.each_vector("nanoid.txt", { "size", "alphabet_hex", "step", "stream_hex", "output_hex" }, function(r, w)
                local size, step = h.num(r.size), h.num(r.step)
                local stream = h.fromhex(r.stream_hex)
                assert.is_true(#stream > 0 and #stream % step == 0, w .. ": the stream is whole draws of step bytes")
                local alphabets
                if r.alphabet_hex == "-" then
                    alphabets = { false, h.DEFAULT_ALPHABET } -- the default, then the same alphabet given explicitly
                else
                    alphabets = { h.fromhex(r.alphabet_hex) }
                end
                for _, alphabet in ipairs(alphabets) do
                    local ww = w .. (alphabet == h.DEFAULT_ALPHABET and " (explicit default alphabet)" or "")
                    local rnd = h.random_script(ww)
                    for i = 1, #stream, step do rnd.expect(stream:sub(i, i + step - 1), ww) end
                    local opts = { size = size, random = rnd.fn }
                    if alphabet then
                        opts.alphabet = alphabet
                        assert.are.equal(step, step_of(#alphabet, size), ww .. ": the vector's step")
                    end
                    local g = mintid.nanoid_generator(opts)
                    local out = g:next()
                    assert.are.equal(r.output_hex, h.tohex(out), ww)
                    assert.are.equal(size, #out, ww)
                    rnd.assert_drained(ww)
                end
            end)
        end)

        it("nanoid_alphabet.txt: an alphabet is bytes unless it is all UTF-8 text with a character past ASCII", function()
            h.each_vector("nanoid_alphabet.txt", { "alphabet_hex", "error" }, function(r, w)
                local alphabet = h.fromhex(r.alphabet_hex)
                if r.error == "-" then
                    local id = mintid.nanoid(64, alphabet)
                    assert.is_true(#id == 64 and only_symbols_of(id, alphabet), w .. ": an ID of the alphabet's bytes")
                    local g = mintid.nanoid_generator { size = 64, alphabet = alphabet }
                    assert.is_true(only_symbols_of(g:next(), alphabet), w .. ": a generator's ID of its bytes")
                else
                    h.raises(function() return mintid.nanoid(64, alphabet) end, "bad argument #2", r.error)
                    h.raises(function() return mintid.nanoid_generator { alphabet = alphabet } end, r.error)
                end
            end)
        end)
    end)

    describe("edge cases", function()
        it("the default alphabet maps each byte to alphabet[byte & 63], one draw of `size` bytes", function()
            local rnd = h.random_script("default")
            rnd.expect(h.ALL_BYTES)
            local g = mintid.nanoid_generator { size = 256, random = rnd.fn }
            local out = g:next()
            rnd.assert_drained("default")
            assert.are.equal(256, #out)
            for b = 0, 255 do
                assert.are.equal(h.DEFAULT_ALPHABET:sub(b % 64 + 1, b % 64 + 1), out:sub(b + 1, b + 1), "byte " .. b)
            end
        end)

        it("custom alphabets draw exactly `step` bytes per draw, for many sizes", function()
            for _, n in ipairs({ 1, 2, 3, 10, 16, 26, 36, 63, 64, 65, 100, 200, 255, 256 }) do
                -- symbols are bytes: the top n ASCII bytes, or the top n byte values past 128
                local alphabet = n <= 128 and h.ALL_BYTES:sub(129 - n, 128) or h.ALL_BYTES:sub(257 - n)
                assert.are.equal(n, #alphabet)
                for _, size in ipairs({ 1, 2, 3, 7, 21, 33, 64, 100 }) do
                    local where = n .. " symbols, size " .. size
                    local step = step_of(n, size)
                    local rnd = h.random_script(where)
                    -- byte 0 is always accepted (index 0), so one draw suffices
                    rnd.expect(("\0"):rep(step), where)
                    local g = mintid.nanoid_generator { size = size, alphabet = alphabet, random = rnd.fn }
                    assert.are.equal(alphabet:sub(1, 1):rep(size), g:next(), where)
                    rnd.assert_drained(where)
                end
            end
        end)

        it("a draw wholly rejected is followed by another draw", function()
            -- 3 symbols: mask 3, step(2) = ceil(8 * 3 * 2 / 15) = 4; index 3 is rejected
            local rnd = h.random_script("rejected")
            rnd.expect("\3\3\3\3")
            rnd.expect("\4\5\255\0") -- 4 & 3 = 0, 5 & 3 = 1: size reached, the rest discarded
            local g = mintid.nanoid_generator { size = 2, alphabet = "abc", random = rnd.fn }
            assert.are.equal("ab", g:next())
            rnd.assert_drained("rejected")
        end)

        it("a random source that only gives rejected bytes raises after 64 empty draws, never hangs", function()
            -- "abc": mask 3, every 0xFF is index 3; "x": mask 1, every 0x01 is index 1
            for _, case in ipairs({ { "abc", "\255" }, { "x", "\1" } }) do
                local alphabet, byte = case[1], case[2]
                local draws = 0
                local g = mintid.nanoid_generator { alphabet = alphabet, random = function(n)
                    draws = draws + 1
                    return byte:rep(n)
                end }
                local ok, err = pcall(g.next, g)
                assert.is_false(ok, alphabet)
                assert.are.equal("Nano ID random source gave 64 draws with no usable byte", err, alphabet)
                assert.are.equal(64, draws, alphabet)
            end
        end)

        it("a draw with one usable byte restarts the count of empty draws", function()
            -- 63 empty draws, one with a symbol, 63 empty, one with the last symbol
            local draws = 0
            local g = mintid.nanoid_generator { size = 2, alphabet = "abc", random = function(n)
                draws = draws + 1
                return (draws % 64 == 0 and "\1" or "\255") .. ("\255"):rep(n - 1)
            end }
            assert.are.equal("bb", g:next())
            assert.are.equal(128, draws)
        end)

        it("mintid.nanoid([size [, alphabet]])", function()
            local id = mintid.nanoid()
            assert.are.equal(21, #id)
            assert.is_true(only_symbols_of(id, h.DEFAULT_ALPHABET), id)
            assert.are.equal(10, #mintid.nanoid(10))
            local abc = mintid.nanoid(50, "abc")
            assert.are.equal(50, #abc)
            assert.is_true(only_symbols_of(abc, "abc"), abc)
            local defaulted = mintid.nanoid(nil, "xyz")
            assert.are.equal(21, #defaulted)
            assert.is_true(only_symbols_of(defaulted, "xyz"), defaulted)
            assert.are.equal("aaaaa", mintid.nanoid(5, "a"))
            assert.are.equal(1, #mintid.nanoid(1))
        end)

        it("mintid.nanoid() and nanoid(size) draw every symbol of the 64 of the default alphabet", function()
            -- 21000 symbols miss one of 64 with probability below 2^-400
            for _, size in ipairs({ false, 30 }) do
                local seen, n = {}, 0
                for _ = 1, 1000 do
                    local id = size and mintid.nanoid(size) or mintid.nanoid()
                    for i = 1, #id do
                        local c = id:sub(i, i)
                        if not seen[c] then seen[c], n = true, n + 1 end
                    end
                end
                assert.are.equal(64, n, "symbols seen, size " .. tostring(size))
            end
        end)

        it("accepts a 256-symbol alphabet (every byte value) and the largest size", function()
            local id = mintid.nanoid(1000, h.ALL_BYTES)
            assert.are.equal(1000, #id)
            local big = mintid.nanoid(1048576)
            assert.are.equal(1048576, #big)
            assert.is_true(only_symbols_of(big, h.DEFAULT_ALPHABET))
            local g = mintid.nanoid_generator { size = 1048576, alphabet = "0123456789" }
            local digits = g:next()
            assert.are.equal(1048576, #digits)
            assert.is_truthy(digits:match("^%d+$"))
        end)

        it("a generator keeps its size and alphabet and draws fresh bytes each call", function()
            local g = mintid.nanoid_generator { size = 12, alphabet = "0123456789abcdef" }
            local seen = {}
            for _ = 1, 1000 do
                local id = g:next()
                assert.are.equal(12, #id)
                assert.is_truthy(id:match("^[0-9a-f]+$"), id)
                assert.is_nil(seen[id], "repeated " .. id)
                seen[id] = true
            end
            local d = mintid.nanoid_generator()
            local id = d:next()
            assert.are.equal(21, #id)
            assert.is_true(only_symbols_of(id, h.DEFAULT_ALPHABET), id)
        end)
    end)
end)
