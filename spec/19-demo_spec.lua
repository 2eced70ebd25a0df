-- `make demo` (examples/demo.lua) shows every kind of ID: the kinds are the
-- module's generators (ulid_generator: ULID, ...) and its name-based UUID
-- versions (uuid3, uuid5, uuid8), found at run time, so a new kind that the
-- demo leaves out fails here.
local h = require "helper"
local mintid = require "mintid" -- what the demo loads

-- Whether a word the demo printed is an ID of the kind.
local function uuid_of_version(n)
    return function(word)
        local u = #word == 36 and mintid.parse_uuid(word)
        return u and u:version() == n
    end
end
local IS_KIND = {
    ulid = function(word) return word:match(h.ULID_PATTERN) ~= nil end,
    relative = function(word) return word:match(h.RELATIVE_PATTERN) ~= nil end,
    snowflake = function(word) return word:match("^%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d+$") ~= nil end,
    nanoid = function(word)
        return #word == 21 and not word:find("[^" .. h.DEFAULT_ALPHABET:gsub("%-", "%%-") .. "]")
    end,
    ksuid = function(word) return #word == 27 and mintid.parse_ksuid(word) ~= nil end,
    cuid2 = function(word) return #word == 24 and word:match("^[a-z][0-9a-z]+$") ~= nil and mintid.is_cuid2(word) end,
    objectid = function(word) return #word == 24 and mintid.parse_objectid(word) ~= nil end,
    xid = function(word) return #word == 20 and mintid.parse_xid(word) ~= nil end,
    typeid = function(word)
        local t = mintid.parse_typeid(word)
        return t ~= nil and t:prefix() ~= ""
    end,
}
for n = 1, 8 do IS_KIND["uuid" .. n] = uuid_of_version(n) end

local function demo_words()
    local words, real_print = {}, print
    _G.print = function(...)
        for i = 1, select("#", ...) do
            for word in tostring((select(i, ...))):gmatch("[^%s,:']+") do words[#words + 1] = word end
        end
    end
    local ok, err = pcall(dofile, h.testdata_dir .. "/../examples/demo.lua")
    _G.print = real_print
    assert(ok, err)
    return words
end

describe("make demo", function()
    it("prints an ID of every kind the module makes", function()
        local kinds = {}
        for name, f in pairs(mintid) do
            local kind = type(f) == "function" and (name:match("^(.+)_generator$") or name:match("^uuid[358]$"))
            if kind then kinds[#kinds + 1] = kind end
        end
        table.sort(kinds)
        assert.is_true(#kinds >= 13, "kinds found: " .. table.concat(kinds, " "))
        local words, missing = demo_words(), {}
        for _, kind in ipairs(kinds) do
            local is_kind = IS_KIND[kind]
            assert(is_kind, "spec/19-demo_spec.lua cannot tell an ID of kind " .. kind .. ": add it to IS_KIND")
            local seen = false
            for _, word in ipairs(words) do seen = seen or is_kind(word) end
            if not seen then missing[#missing + 1] = kind end
        end
        assert(#missing == 0, "examples/demo.lua prints no ID of kind " .. table.concat(missing, ", "))
    end)
end)
