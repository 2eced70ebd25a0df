-- Sqids (SPEC.md "Sqids"): the algorithm of the Sqids specification's
-- reference, src/index.ts; its own tests are testdata/sqids_spec.txt, the
-- independent Python reference's vectors testdata/sqids.txt.
local h = require "helper"
local mintid = require(h.module_name)
local unpack = table.unpack or unpack

-- The largest number this Lua holds exactly, and its text.
local MAX = h.has_integers and math.maxinteger or 9007199254740991
local MAX_TEXT = h.has_integers and "9223372036854775807" or "9007199254740991"
local DEFAULT_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

local function split(text, sep)
    local out = {}
    if text == "" then return out end
    for part in (text .. sep):gmatch("(.-)" .. sep) do out[#out + 1] = part end
    return out
end

-- Decimal texts of a numbers column ("" or "-": none).
local function number_texts(column)
    if column == "-" then return {} end
    return split(column, ",")
end

local function above_max(text)
    return h.dec_cmp(text, MAX_TEXT) > 0
end

local function numbers_of(texts)
    local out = {}
    for i, t in ipairs(texts) do out[i] = h.exact_int(t) end
    return out
end

local function texts_of(numbers)
    local out = {}
    for i, v in ipairs(numbers) do out[i] = h.dec(v) end
    return out
end

local function same_numbers(want_texts, got, where)
    assert.are.same(want_texts, texts_of(got), where)
end

local function encode_error(i, got)
    return "bad argument #1 to 'encode' (numbers[" .. i .. "] must be an integer 0.." .. MAX_TEXT .. ", got " .. got .. ")"
end

-- fn() raises want (its text without the position prefix). fn is a closure
-- over the call as a user writes it, not a tail call, so that every Lua
-- names the callee.
local function raises(want, fn)
    local ok, err = pcall(fn)
    assert.is_false(ok, "no error, want: " .. want)
    assert.are.equal(want, (tostring(err):gsub("^[^:]*:%d+: ", "")))
end

-- The words of a blocklist as isBlockedId reads them, to check IDs with.
local function is_blocked(words, alphabet, id)
    local allowed = {}
    for c in alphabet:lower():gmatch(".") do allowed[c] = true end
    id = id:lower()
    for _, w in ipairs(words) do
        w = w:lower()
        local kept = #w >= 3 and not w:find("[^%z\1-\127]")
        for c in w:gmatch(".") do kept = kept and allowed[c] end
        if kept and #w <= #id then
            if #id <= 3 or #w <= 3 then
                if id == w then return true end
            elseif w:find("%d") then
                if id:sub(1, #w) == w or id:sub(-#w) == w then return true end
            elseif id:find(w, 1, true) then
                return true
            end
        end
    end
    return false
end

describe("Sqids", function()
    describe("vectors", function()
        it("sqids_spec.txt: every case of the specification's own tests", function()
            local columns = { "test", "op", "alphabet", "min_length", "blocklist", "numbers", "id" }
            local ours = {
                ["Alphabet cannot contain multibyte characters"] = function()
                    return "alphabet cannot contain multibyte characters"
                end,
                ["Alphabet must contain unique characters"] = function()
                    return "alphabet must contain unique characters, 'a' repeats"
                end,
                ["Alphabet length must be at least 3"] = function()
                    return "alphabet must have at least 3 symbols, got 2"
                end,
                ["Minimum length has to be between 0 and 255"] = function(r)
                    return "min_length must be 0..255, got " .. r.min_length
                end,
            }
            local n = h.each_vector("sqids_spec.txt", columns, function(r, w)
                local opts = { min_length = h.num(r.min_length) }
                if r.alphabet ~= "-" then opts.alphabet = r.alphabet end
                if r.blocklist ~= "-" then opts.blocklist = split(r.blocklist, ",") end
                if r.op == "option-error" then
                    raises("bad argument #1 to 'sqids' (" .. ours[r.id](r) .. ")", function() mintid.sqids(opts) end)
                    return
                end
                local s = mintid.sqids(opts)
                local want = number_texts(r.numbers)
                if r.op == "both" or r.op == "encode" then
                    assert.are.equal(r.id, s:encode(numbers_of(want)), w)
                end
                if r.op == "both" or r.op == "decode" then
                    same_numbers(want, s:decode(r.id), w)
                end
                if r.op == "roundtrip" then
                    same_numbers(want, s:decode(s:encode(numbers_of(want))), w)
                end
                if r.op == "encode-error" and r.id:find("^Reached max attempts") then
                    raises("sqids: reached max attempts to re-generate the ID", function() s:encode(numbers_of(want)) end)
                elseif r.op == "encode-error" then
                    -- The reference's bound is JavaScript's 2^53 - 1; here it is this Lua's.
                    if r.numbers == "-1" or above_max(r.numbers) then
                        local got = r.numbers == "-1" and "-1" or h.dec(h.exact_int(r.numbers))
                        raises(encode_error(1, got), function() s:encode(numbers_of(want)) end)
                    else
                        same_numbers(want, s:decode(s:encode(numbers_of(want))), w)
                    end
                end
            end)
            assert.are.equal(126, n)
        end)

        it("sqids.txt: the Python reference's IDs for random alphabets, min_lengths and blocklists", function()
            local columns = { "alphabet_hex", "min_length", "blocklist", "numbers", "id_hex" }
            local n = h.each_vector("sqids.txt", columns, function(r, w)
                local opts = { alphabet = h.fromhex(r.alphabet_hex), min_length = h.num(r.min_length) }
                if r.blocklist == "none" then
                    opts.blocklist = {}
                elseif r.blocklist ~= "default" then
                    opts.blocklist = {}
                    for i, word in ipairs(split(r.blocklist, ",")) do opts.blocklist[i] = h.fromhex(word) end
                end
                local s = mintid.sqids(opts)
                local want = number_texts(r.numbers)
                for i, t in ipairs(want) do
                    if above_max(t) then
                        -- only where numbers are doubles: this one is the nearest double
                        local numbers = numbers_of({ unpack(want, 1, i - 1) })
                        numbers[i] = tonumber(t)
                        raises(encode_error(i, ("%.0f"):format(tonumber(t))), function() s:encode(numbers) end)
                        -- no encoder of this Lua made that text
                        assert.are.same({}, s:decode(h.fromhex(r.id_hex)), w)
                        return
                    end
                end
                if r.id_hex == "error:max-attempts" then
                    raises("sqids: reached max attempts to re-generate the ID", function() s:encode(numbers_of(want)) end)
                    return
                end
                assert.are.equal(r.id_hex, h.tohex(s:encode(numbers_of(want))) == "" and "-"
                    or h.tohex(s:encode(numbers_of(want))), w)
                same_numbers(want, s:decode(h.fromhex(r.id_hex)), w)
            end)
            assert.is_true(n >= 300)
        end)
    end)

    describe("edge cases", function()
        local s = mintid.sqids()

        it("is a userdata made once, whose methods only read it", function()
            assert.are.equal("userdata", type(s))
            assert.is_truthy(tostring(s):find("^mintid%.Sqids %(0x%x+%)$"), tostring(s))
            assert.are.equal(s:encode({ 1, 2, 3 }), s:encode({ 1, 2, 3 }))
            assert.are.equal("86Rf07", mintid.sqids({}):encode({ 1, 2, 3 }))
            assert.are.equal("86Rf07", mintid.sqids({ alphabet = DEFAULT_ALPHABET, min_length = 0 }):encode({ 1, 2, 3 }))
        end)

        it("encodes 0 and this Lua's largest number, and decodes them back", function()
            for _, v in ipairs({ 0, 1, 60, 61, 62, MAX - 1, MAX }) do
                assert.are.same({ h.dec(v) }, texts_of(s:decode(s:encode({ v }))))
            end
            assert.are.equal("bM", s:encode({ 0 }))
            if h.has_integers then
                assert.are.equal("AqkYhRmbHpEX", s:encode({ math.maxinteger }))
                assert.are.equal(math.maxinteger, s:decode("AqkYhRmbHpEX")[1])
                assert.are.equal("integer", math.type(s:decode("bM")[1]))
            end
        end)

        it("decodes text whose numbers are past this Lua's integers as no ID: {}", function()
            -- 2^63 and 2^64 - 1 in the C core's 64 bits, each above every Lua's bound
            local past = h.has_integers and "AqkYhRmbHpEY" or nil
            local big = mintid.sqids({ alphabet = "0123456789abcdef", blocklist = {} })
            local id = big:encode({ 1 })
            assert.are.same({}, big:decode(id .. ("f"):rep(20)))
            if past then assert.are.same({}, s:decode(past)) end
            -- a number just within the bound still decodes
            assert.are.same({ MAX_TEXT }, texts_of(s:decode(s:encode({ MAX }))))
        end)

        it("gives {} for text that is not an ID: empty, a symbol outside the alphabet, a lone prefix", function()
            assert.are.same({}, s:decode(""))
            assert.are.same({}, s:decode("*"))
            assert.are.same({}, s:decode("86Rf0*"))
            assert.are.same({}, s:decode("é"))
            assert.are.same({}, s:decode("\0"))
            assert.are.same({}, s:decode("8"))
            assert.are.same({}, mintid.sqids({ alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" }):decode("86Rf07"))
        end)

        it("encodes {} as the empty text and skips no element: one that is no number raises", function()
            assert.are.equal("", s:encode({}))
            raises(encode_error(2, "boolean"), function() s:encode({ 1, false, 3 }) end)
        end)

        it("pads to min_length 255 and keeps every ID of a longer list whole", function()
            local long = mintid.sqids({ min_length = 255 })
            local id = long:encode({ 7 })
            assert.are.equal(255, #id)
            assert.are.same({ "7" }, texts_of(long:decode(id)))
            local list = {}
            for i = 1, 1000 do list[i] = i * 7919 end
            local text = long:encode(list)
            assert.is_true(#text > 255)
            assert.are.same(texts_of(list), texts_of(long:decode(text)))
        end)

        it("takes any ASCII byte as a symbol, NUL included, and lowercases only ASCII letters", function()
            local bytes = {}
            for b = 0, 127 do bytes[#bytes + 1] = string.char(b) end
            local all = mintid.sqids({ alphabet = table.concat(bytes), blocklist = {} })
            local id = all:encode({ 0, MAX, 12345 })
            assert.are.same({ "0", MAX_TEXT, "12345" }, texts_of(all:decode(id)))
            local nul = mintid.sqids({ alphabet = "\0\1\2", blocklist = { "\0\0\0" } })
            assert.are.same({ "5" }, texts_of(nul:decode(nul:encode({ 5 }))))
        end)

        it("filters the blocklist as the reference: words of 3 or more symbols of the alphabet, either case", function()
            -- "ab" and "a*c" can never block; "86U" blocks "86u" as "86u" does
            local base = mintid.sqids({ blocklist = {} })
            assert.are.equal("86u", base:encode({ 100 }))
            assert.are.equal("86u", mintid.sqids({ blocklist = { "86", "86*" } }):encode({ 100 }))
            assert.are.equal("sec", mintid.sqids({ blocklist = { "86U" } }):encode({ 100 }))
            assert.are.equal("sec", mintid.sqids({ blocklist = { "86u", "86u" } }):encode({ 100 }))
            assert.are.equal("86u", mintid.sqids({ blocklist = { "86u\255" } }):encode({ 100 }))
        end)

        it("raises on bad options with one clear line", function()
            raises("bad argument #1 to 'sqids' (alphabet cannot contain multibyte characters)",
                function() mintid.sqids({ alphabet = "ab\200" }) end)
            raises("bad argument #1 to 'sqids' (alphabet must have at least 3 symbols, got 0)",
                function() mintid.sqids({ alphabet = "" }) end)
            raises("bad argument #1 to 'sqids' (alphabet must contain unique characters, 'b' repeats)",
                function() mintid.sqids({ alphabet = "abcb" }) end)
            raises("bad argument #1 to 'sqids' (min_length must be an integer, got 1.5)", function() mintid.sqids({ min_length = 1.5 }) end)
            raises("bad argument #1 to 'sqids' (min_length must be an integer, got string)",
                function() mintid.sqids({ min_length = "3" }) end)
            raises("bad argument #1 to 'sqids' (alphabet must be a string, got number)", function() mintid.sqids({ alphabet = 123 }) end)
            raises("bad argument #1 to 'sqids' (blocklist must be an array of strings, got string)",
                function() mintid.sqids({ blocklist = "abc" }) end)
            raises("bad argument #1 to 'sqids' (blocklist[2] must be a string, got number)",
                function() mintid.sqids({ blocklist = { "abc", 1 } }) end)
            raises("bad argument #1 to 'sqids' (unknown option 'minLength')", function() mintid.sqids({ minLength = 3 }) end)
            raises("bad argument #1 to 'sqids' (option names must be strings, got number)", function() mintid.sqids({ 3 }) end)
            raises("bad argument #1 to 'sqids' (table expected, got string)", function() mintid.sqids("abc") end)
        end)

        it("raises on numbers that are negative, not integers, past this Lua's integers or not numbers", function()
            raises(encode_error(1, "-1"), function() s:encode({ -1 }) end)
            raises(encode_error(2, "1.5"), function() s:encode({ 0, 1.5 }) end)
            raises(encode_error(1, "string"), function() s:encode({ "1" }) end)
            raises(encode_error(1, "inf"), function() s:encode({ math.huge }) end)
            if not h.has_integers then
                raises(encode_error(1, "9007199254740992"), function() s:encode({ 9007199254740992 }) end)
            end
            raises("bad argument #1 to 'encode' (table expected, got number)", function() s:encode(1) end)
            raises("bad argument #1 to 'decode' (string expected, got number)", function() s:decode(86) end)
        end)

        it("reads the options as Lua reads a field", function()
            local opts = setmetatable({}, { __index = { min_length = 10 } })
            assert.are.equal(10, #mintid.sqids(opts):encode({ 1 }))
        end)
    end)

    describe("properties", function()
        local function random_alphabet()
            local pool = {}
            for b = 33, 126 do pool[#pool + 1] = string.char(b) end
            for i = #pool, 2, -1 do
                local j = math.random(i)
                pool[i], pool[j] = pool[j], pool[i]
            end
            return table.concat(pool, "", 1, math.random(3, #pool))
        end

        local function random_number()
            local pick = math.random(4)
            if pick == 1 then return math.random(0, 100) end
            if pick == 2 then return math.random(0, 2 ^ 30) end
            if pick == 3 then return MAX - math.random(0, 1000) end
            return math.floor(math.random() * 2 ^ 52)
        end

        it("decode(encode(x)) == x, in the alphabet, at least min_length long, holding no blocked word", function()
            math.randomseed(31)
            for _ = 1, 300 do
                local alphabet = math.random(3) == 1 and DEFAULT_ALPHABET or random_alphabet()
                local min_length = math.random(0, 3) == 0 and math.random(0, 255) or 0
                local words = {}
                for i = 1, math.random(0, 8) do
                    local a, b = math.random(#alphabet), math.random(3, 5)
                    words[i] = alphabet:sub(a, a + b)
                end
                local s = mintid.sqids({ alphabet = alphabet, min_length = min_length, blocklist = words })
                local numbers = {}
                for i = 1, math.random(1, 6) do numbers[i] = random_number() end
                local ok, id = pcall(s.encode, s, numbers)
                if ok then
                    local where = ("%q %d %s"):format(alphabet, min_length, table.concat(texts_of(numbers), ","))
                    assert.are.same(texts_of(numbers), texts_of(s:decode(id)), where)
                    assert.is_true(#id >= min_length, where)
                    assert.is_true(h.only_symbols_of(id, alphabet), where)
                    assert.is_false(is_blocked(words, alphabet, id), where)
                else
                    assert.are.equal("sqids: reached max attempts to re-generate the ID",
                        (tostring(id):gsub("^[^:]*:%d+: ", "")))
                end
            end
        end)

        -- One number's ID has a path of its own in the core, its filter
        -- read at every other place from keys made beside the digits.
        it("blocks a one-number ID by a word cut from it at any place, in either case, as the reference", function()
            for _, alphabet in ipairs({ DEFAULT_ALPHABET, "0123456789abcdef" }) do
                local plain = mintid.sqids({ alphabet = alphabet, blocklist = {} })
                for _, v in ipairs({ MAX, MAX - 12345, 1099511627783, 12345678901, 7 }) do
                    local id = plain:encode({ v })
                    for at = 1, #id do
                        for len = 3, 5 do
                            local word = id:sub(at, at + len - 1)
                            word = at % 2 == 0 and word:upper() or word
                            local s = mintid.sqids({ alphabet = alphabet, blocklist = { word } })
                            local got, where = s:encode({ v }), ("%s %s %q"):format(alphabet, h.dec(v), word)
                            if is_blocked({ word }, alphabet, id) then
                                assert.are_not.equal(id, got, where)
                                assert.is_false(is_blocked({ word }, alphabet, got), where)
                            else
                                assert.are.equal(id, got, where)
                            end
                            assert.are.same({ h.dec(v) }, texts_of(s:decode(got)), where)
                        end
                    end
                end
            end
        end)

        it("never holds a word of the default blocklist where the reference would find it", function()
            local s = mintid.sqids()
            for v = 0, 20000 do
                local id = s:encode({ v })
                assert.is_false(is_blocked({ "aho1e", "ahole", "anal", "anus", "arse", "sex", "fuck", "shit" },
                    DEFAULT_ALPHABET, id), id)
                assert.are.same({ h.dec(v) }, texts_of(s:decode(id)))
            end
        end)
    end)
end)
