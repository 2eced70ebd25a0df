-- Short UUIDs (SPEC.md "Short UUIDs", npm short-uuid): a UUID's 128 bits in
-- an alphabet of 2 to 256 byte symbols, most significant first, padded with
-- the first symbol to the smallest length L with n^L >= 2^128.
local h = require "helper"
local mintid = require(h.module_name)

local FLICKR = "123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"
local COOKIE = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&'()*+-./:<=>?@[]^_`{|}~"
local NAMED = { flickr = FLICKR, cookie = COOKIE }

local function alphabet_of(column)
    return NAMED[column] or h.fromhex(column)
end

-- The text of value v (a table of 16 bytes) in alphabet a, by repeated
-- division of the bytes (schoolbook, on Lua numbers below 2^16): another
-- way than the core's chunks, for the properties.
local function long_division(bytes, a)
    local n, digits, len = #a, {}, 0
    local value = { bytes:byte(1, 16) }
    local L = #mintid.short_uuid(mintid.UUID_NIL, a)
    for _ = 1, L do
        local rem = 0
        for i = 1, 16 do
            local cur = rem * 256 + value[i]
            value[i] = (cur - cur % n) / n
            rem = cur % n
        end
        len = len + 1
        digits[len] = a:sub(rem + 1, rem + 1)
    end
    local out = {}
    for i = len, 1, -1 do out[#out + 1] = digits[i] end
    return table.concat(out)
end

-- n distinct bytes in a random order, not UTF-8 text (a byte >= 0xF5 is
-- never UTF-8) when n is large enough to hold one.
local function random_alphabet(n)
    local all = {}
    for i = 0, 255 do all[i + 1] = i end
    for i = 256, 2, -1 do
        local j = math.random(i)
        all[i], all[j] = all[j], all[i]
    end
    local picked = {}
    for i = 1, n do picked[i] = string.char(all[i]) end
    local a = table.concat(picked)
    if a:find("[\128-\255]") and not a:find("[\245-\255]") then
        a = "\255" .. a:sub(2):gsub("\255", a:sub(1, 1))
    end
    return a
end

local function random_uuid()
    local b = {}
    for i = 1, 16 do b[i] = string.char(math.random(0, 255)) end
    return mintid.uuid_from_bytes(table.concat(b))
end

describe("short UUID", function()
    describe("vectors", function()
        it("short_uuid.txt: short_uuid of text and value, parse_short_uuid back, the length rule", function()
            h.each_vector("short_uuid.txt", { "alphabet", "length", "uuid", "text_hex" }, function(r, w)
                local a, text = alphabet_of(r.alphabet), h.fromhex(r.text_hex)
                assert.are.equal(h.num(r.length), #text, w)
                assert.are.equal(text, mintid.short_uuid(r.uuid, a), w)
                assert.are.equal(text, mintid.short_uuid(r.uuid:upper(), a), w)
                assert.are.equal(text, mintid.short_uuid(mintid.parse_uuid(r.uuid), a), w)
                if a == FLICKR then
                    assert.are.equal(text, mintid.short_uuid(r.uuid), w .. ": flickrBase58 is the default")
                end
                local v = mintid.parse_short_uuid(text, a)
                assert(v ~= nil, w .. ": parse_short_uuid failed")
                assert.are.equal(r.uuid, tostring(v), w)
                assert.are.equal(mintid.parse_uuid(r.uuid), v, w)
            end)
        end)

        it("short_uuid_decode.txt: parse_short_uuid gives the UUID or nil and the exact message", function()
            h.each_vector("short_uuid_decode.txt", { "alphabet", "text_hex", "expect" }, function(r, w)
                local a = alphabet_of(r.alphabet)
                local text = r.text_hex == "-" and "" or h.fromhex(r.text_hex)
                local v, msg = mintid.parse_short_uuid(text, a)
                if r.expect:find("^invalid") then
                    h.assert_bad_data(v, msg, nil, w)
                    assert.are.equal(r.expect, msg, w)
                else
                    assert(v ~= nil, w .. ": " .. tostring(msg))
                    assert.are.equal(r.expect, tostring(v), w)
                    assert.are.equal(text, mintid.short_uuid(v, a), w)
                end
            end)
        end)

        it("short_uuid_alphabet.txt: an alphabet is taken or raises with the exact message", function()
            h.each_vector("short_uuid_alphabet.txt", { "alphabet_hex", "error" }, function(r, w)
                local a = r.alphabet_hex == "-" and "" or h.fromhex(r.alphabet_hex)
                if r.error == "-" then
                    assert.are.equal(a:sub(1, 1):rep(#mintid.short_uuid(mintid.UUID_NIL, a)),
                        mintid.short_uuid(mintid.UUID_NIL, a), w)
                else
                    h.raises(function() return mintid.short_uuid(mintid.UUID_NIL, a) end,
                        "bad argument #2 to '", "(" .. r.error .. ")")
                    h.raises(function() return mintid.parse_short_uuid("1", a) end,
                        "bad argument #2 to '", "(" .. r.error .. ")")
                end
            end)
        end)
    end)

    describe("edge cases", function()
        it("the reference's alphabets are the constants", function()
            assert.are.equal(FLICKR, mintid.SHORT_UUID_FLICKR)
            assert.are.equal(COOKIE, mintid.SHORT_UUID_COOKIE)
        end)

        it("the nil and max UUIDs in the default alphabet", function()
            assert.are.equal(("1"):rep(22), mintid.short_uuid(mintid.UUID_NIL))
            assert.are.equal("xBuEXKpA6iqZQK5Kf2TnkV", mintid.short_uuid(mintid.UUID_MAX))
            assert.are.equal(mintid.UUID_MAX, tostring(mintid.parse_short_uuid("xBuEXKpA6iqZQK5Kf2TnkV")))
            assert.are.equal(mintid.UUID_NIL, tostring(mintid.parse_short_uuid(("1"):rep(22))))
        end)

        it("a value of 2^128 or more at full length is refused", function()
            h.assert_bad_data(mintid.parse_short_uuid("xBuEXKpA6iqZQK5Kf2TnkW"),
                select(2, mintid.parse_short_uuid("xBuEXKpA6iqZQK5Kf2TnkW")), "invalid short UUID: value overflows 128 bits")
            h.assert_bad_data(mintid.parse_short_uuid(("Z"):rep(22)),
                select(2, mintid.parse_short_uuid(("Z"):rep(22))), "invalid short UUID: value overflows 128 bits")
            -- n^L = 2^128 exactly (n = 2): every text of L symbols fits
            assert.are.equal(mintid.UUID_MAX, tostring(mintid.parse_short_uuid(("1"):rep(128), "01")))
        end)

        it("another length, or a byte outside the alphabet, is refused with where", function()
            local _, msg = mintid.parse_short_uuid(("1"):rep(21))
            assert.are.equal("invalid short UUID: length 21, want 22", msg)
            _, msg = mintid.parse_short_uuid("")
            assert.are.equal("invalid short UUID: length 0, want 22", msg)
            _, msg = mintid.parse_short_uuid("111l111111111111111111")
            assert.are.equal("invalid short UUID: bad character 'l' at 4", msg)
            _, msg = mintid.parse_short_uuid("1111111111111111111110", FLICKR)
            assert.are.equal("invalid short UUID: bad character '0' at 22", msg)
            _, msg = mintid.parse_short_uuid(("1"):rep(21) .. "\0")
            assert.are.equal("invalid short UUID: bad character 0x00 at 22", msg)
        end)

        it("bad UUID text is data: nil and the UUID parser's message", function()
            local v, msg = mintid.short_uuid("not-a-uuid")
            h.assert_bad_data(v, msg, "invalid UUID: length 10, want 36")
            v, msg = mintid.short_uuid("6ba7b8109dad11d180b400c04fd430c8")
            h.assert_bad_data(v, msg, "invalid UUID: length 32, want 36")
        end)

        it("bad arguments raise naming the argument", function()
            h.raises(function() return mintid.short_uuid(5) end, "bad argument #1", "UUID text or value expected, got number")
            h.raises(function() return mintid.short_uuid(nil) end, "bad argument #1", "UUID text or value expected, got nil")
            h.raises(function() return mintid.short_uuid(mintid.parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAV")) end,
                "bad argument #1", "UUID text or value expected, got userdata")
            h.raises(function() return mintid.short_uuid(mintid.UUID_NIL, 58) end, "bad argument #2", "string expected")
            h.raises(function() return mintid.short_uuid(mintid.UUID_NIL, "") end,
                "bad argument #2", "alphabet must have 2 to 256 symbols, got 0")
            h.raises(function() return mintid.short_uuid(mintid.UUID_NIL, "x") end,
                "bad argument #2", "alphabet must have 2 to 256 symbols, got 1")
            h.raises(function() return mintid.short_uuid(mintid.UUID_NIL, ("a"):rep(257)) end,
                "bad argument #2", "alphabet must have 2 to 256 symbols, got 257")
            h.raises(function() return mintid.short_uuid(mintid.UUID_NIL, "abcb") end,
                "bad argument #2", "alphabet repeats the symbol 'b' at 4")
            h.raises(function() return mintid.short_uuid(mintid.UUID_NIL, "ab\206\177") end,
                "bad argument #2", "alphabet symbols are single bytes, but it holds a multi-byte UTF-8 character at byte 3")
            h.raises(function() return mintid.parse_short_uuid(5) end, "bad argument #1", "string expected")
            h.raises(function() return mintid.parse_short_uuid(("1"):rep(22), {}) end, "bad argument #2", "string expected")
        end)

        it("a bad alphabet raises even after a good one was cached, and the cache follows the string", function()
            assert.are.equal("00", mintid.short_uuid(mintid.UUID_NIL, "0123456789abcdef"):sub(1, 2))
            h.raises(function() return mintid.short_uuid(mintid.UUID_NIL, "00") end,
                "bad argument #2", "alphabet repeats the symbol '0' at 2")
            assert.are.equal(("a"):rep(32), mintid.short_uuid(mintid.UUID_NIL, "abcdefghijklmnop"))
            assert.are.equal(("0"):rep(32), mintid.short_uuid(mintid.UUID_NIL, "0123456789abcdef"))
            assert.are.equal("ffffffffffffffffffffffffffffffff", mintid.short_uuid(mintid.UUID_MAX, "0123456789abcdef"))
        end)
    end)

    describe("properties", function()
        it("random UUIDs round-trip in random alphabets of every size, as long division writes them", function()
            for i = 1, 600 do
                local n = i <= 255 and i + 1 or math.random(2, 256)
                local a = random_alphabet(n)
                local u = random_uuid()
                local text = mintid.short_uuid(u, a)
                assert.are.equal(long_division(u:bytes(), a), text, "n " .. n)
                assert.are.equal(u, mintid.parse_short_uuid(text, a), "n " .. n)
                assert.are.equal(text, mintid.short_uuid(tostring(u), a), "n " .. n)
            end
        end)

        it("the length is the smallest L with n^L >= 2^128 for every n", function()
            for n = 2, 256 do
                local a = random_alphabet(n)
                local L = #mintid.short_uuid(mintid.UUID_MAX, a)
                assert.are_not.equal(a:sub(1, 1), mintid.short_uuid(mintid.UUID_MAX, a):sub(1, 1), "n " .. n)
                assert.are.equal(L, #mintid.short_uuid(mintid.UUID_NIL, a), "n " .. n)
                -- L - 1 symbols cannot hold every UUID (the max needs its top
                -- symbol), and L symbols of the largest one overflow unless
                -- n^L is 2^128 exactly (n = 2, 4, 16, 256)
                local top = a:sub(n, n):rep(L)
                local v = mintid.parse_short_uuid(top, a)
                local exact = (n == 2 or n == 4 or n == 16 or n == 256)
                assert.are.equal(exact, v ~= nil, "n " .. n)
            end
        end)

        -- The sizes of the reference's alphabets (58, 90) write two
        -- symbols a step from a table of every pair: each pair, at every
        -- position, of the named alphabets and of another of each size.
        it("every pair of symbols at every position of the 58 and 90 symbol alphabets", function()
            for _, a in ipairs({ mintid.SHORT_UUID_FLICKR, mintid.SHORT_UUID_COOKIE, random_alphabet(58),
                                 random_alphabet(90) }) do
                local n = #a
                local L = #mintid.short_uuid(mintid.UUID_NIL, a)
                for j = 0, n * n - 1 do
                    local q = math.floor(j / n)
                    local hi, lo = a:sub(q + 1, q + 1), a:sub(j % n + 1, j % n + 1)
                    for start = 1, 2 do
                        -- the pair from position start on, one symbol
                        -- before it when it starts second
                        local text = (start == 2 and a:sub(1, 1) or "") .. (hi .. lo):rep(L):sub(1, L + 1 - start)
                        local u = mintid.parse_short_uuid(text, a)
                        if u == nil then -- above 2^128: a first symbol of 0
                            text = a:sub(1, 1) .. text:sub(2)
                            u = mintid.parse_short_uuid(text, a)
                        end
                        assert.are.equal(text, mintid.short_uuid(u, a), "n " .. n .. " pair " .. j)
                        assert.are.equal(text, mintid.short_uuid(tostring(u), a), "n " .. n .. " pair " .. j)
                    end
                end
            end
        end)

        it("text order is value order when the alphabet is in byte order", function()
            local a = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
            for _ = 1, 200 do
                local x, y = random_uuid(), random_uuid()
                assert.are.equal(x < y, mintid.short_uuid(x, a) < mintid.short_uuid(y, a))
            end
        end)
    end)
end)
