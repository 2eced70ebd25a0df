-- mintid: sortable unique IDs (ULID, UUIDv4/v7, relative IDs, snowflakes,
-- Nano IDs). The work is done by the C module mintid.core; this module
-- re-exports its functions as they are (mintid.ulid IS the C function, so
-- the hot path has no Lua wrapper) and adds the helpers that need no C.

local core = require "mintid.core"

local byte, format, sub, upper = string.byte, string.format, string.sub, string.upper

local mintid = {}
for name, value in pairs(core) do
    mintid[name] = value
end
mintid._VERSION = core._VERSION

-- Crockford base32 as in SPEC.md, without I, L, O and U.
local SYMBOLS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
local is_symbol = {}
for i = 1, #SYMBOLS do
    local b = byte(SYMBOLS, i)
    is_symbol[b] = true
    is_symbol[byte(string.lower(string.char(b)))] = true
end

-- The core's way of quoting a byte in a message: 'U', or 0x20 for bytes a
-- terminal would not show unambiguously.
local function describe(b)
    if b >= 0x21 and b <= 0x7E then
        return "'" .. string.char(b) .. "'"
    end
    return format("0x%02x", b)
end

--- lo, hi = mintid.relative_range(prefix_or_id)
-- The bounds of every relative ID of one tag, for `id >= lo AND id < hi`
-- scans: "TAG6CH-" and "TAG6CH." ('.' is the byte after '-'). Takes the
-- 7-char prefix of g:prefix(key), or any relative ID text (its tag is the
-- first 6 chars). Text that is neither gives nil, message.
function mintid.relative_range(s)
    if type(s) ~= "string" then
        error(format("bad argument #1 to 'relative_range' (string expected, got %s)", type(s)), 2)
    end
    local tag
    if #s == 7 then
        for i = 1, 6 do
            local b = byte(s, i)
            if not is_symbol[b] then
                return nil, format("invalid relative ID prefix: bad character %s at %d", describe(b), i)
            end
        end
        if byte(s, 7) ~= 45 then -- '-'
            return nil, format("invalid relative ID prefix: want '-' at 7, got %s", describe(byte(s, 7)))
        end
        tag = upper(sub(s, 1, 6))
    elseif #s == 26 or #s == 28 then
        local id, err = core.parse_relative(s)
        if not id then
            return nil, err
        end
        tag = sub(tostring(id), 1, 6)
    else
        return nil, format("invalid relative ID prefix: length %d, want 7 (or a 28- or 26-char relative ID)", #s)
    end
    return tag .. "-", tag .. "."
end

return mintid
