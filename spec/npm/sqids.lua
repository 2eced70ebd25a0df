-- spec/npm/sqids.lua: Sqids IDs for spec/npm/sqids.mjs to recompute with the
-- npm reference (sqids): option sets of random alphabets (any ASCII byte,
-- NUL included), min_lengths and blocklists (words cut from this encoder's
-- IDs, so that some block), each with many lists of numbers up to 2^53 - 1
-- (the reference's bound), encoded by the module MINTID_MODULE names
-- (default mintid). One JSON object a line on stdout: the options and
-- `cases`, pairs of numbers and the ID. The last option set of each module
-- is marked "corrupt" (one ID changed): the check must catch it.
local module_name = os.getenv("MINTID_MODULE") or "mintid"
local mintid = require(module_name)

local SETS, LISTS = 40, 100
local MAX = 9007199254740991
local DEFAULT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

local function json_string(s)
    return '"' .. s:gsub('[%c"\\\127]', function(c) return string.format("\\u%04x", c:byte()) end) .. '"'
end

local function dec(v)
    if math.type and math.type(v) == "integer" then return string.format("%d", v) end
    return string.format("%.0f", v)
end

-- Seeded: the same sets on every run and for both modules (a product
-- below 2^53, exact where numbers are doubles).
local seed = 20260105
local function rand(n) -- 1..n
    seed = seed * 16807 % 2147483647
    return seed % n + 1
end

local function number()
    local pick = rand(4)
    if pick == 1 then return rand(101) - 1 end
    if pick == 2 then return rand(2 ^ 30) end
    if pick == 3 then return MAX - rand(1000) + 1 end
    return (rand(2 ^ 26) - 1) * 2 ^ 27 + rand(2 ^ 27) - 1
end

local function list()
    local t = {}
    for i = 1, ({ 1, 1, 2, 3, 5, 8, 20 })[rand(7)] do t[i] = number() end
    return t
end

local function alphabet()
    if rand(4) == 1 then return DEFAULT end
    local low = rand(3) == 1 and 0 or 33
    local pool = {}
    for b = low, 126 do pool[#pool + 1] = string.char(b) end
    for i = #pool, 2, -1 do
        local j = rand(i)
        pool[i], pool[j] = pool[j], pool[i]
    end
    return table.concat(pool, "", 1, rand(#pool - 2) + 2)
end

for set = 1, SETS do
    local opts = { alphabet = alphabet(), min_length = ({ 0, 0, 1, 5, 10, 40, 255 })[rand(7)] }
    local kind = rand(3)
    if kind == 2 then
        opts.blocklist = {}
    elseif kind == 3 then
        local plain = mintid.sqids { alphabet = opts.alphabet, min_length = opts.min_length, blocklist = {} }
        opts.blocklist = {}
        for i = 1, rand(8) do
            local id = plain:encode(list())
            local from = rand(#id)
            local word = id:sub(from, from + rand(6))
            opts.blocklist[i] = rand(3) == 1 and word:upper() or word
        end
    end
    local s = mintid.sqids(opts)
    local cases = {}
    for i = 1, LISTS do
        local numbers = list()
        local ok, id = pcall(s.encode, s, numbers)
        local texts = {}
        for k, v in ipairs(numbers) do texts[k] = dec(v) end
        -- an ID of every attempt blocked: the reference must throw too
        cases[i] = "[[" .. table.concat(texts, ",") .. "]," .. (ok and json_string(id) or "null") .. "]"
    end
    local corrupt = set == SETS
    if corrupt then cases[1] = cases[1]:gsub('"(.-)"%]$', '"%1x"]') end
    local words = "null"
    if opts.blocklist then
        local quoted = {}
        for i, w in ipairs(opts.blocklist) do quoted[i] = json_string(w) end
        words = "[" .. table.concat(quoted, ",") .. "]"
    end
    io.write('{"kind":"sqids","module":', json_string(module_name), ',"set":', set,
        corrupt and ',"corrupt":true' or "", ',"alphabet":', json_string(opts.alphabet),
        ',"minLength":', opts.min_length, ',"blocklist":', words, ',"cases":[', table.concat(cases, ","), "]}\n")
end
