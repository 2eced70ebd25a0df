-- mintid: sortable unique IDs (ULID, UUIDv4/v7, relative IDs, snowflakes,
-- Nano IDs). The work is done by the C module mintid.core; this module
-- re-exports its functions as they are (mintid.ulid IS the C function, so
-- the hot path has no Lua wrapper) and adds the helpers that need no C.

local core = require "mintid.core"

local byte, sub = string.byte, string.sub

local mintid = {}
for name, value in pairs(core) do
    mintid[name] = value
end

-- A prefix "TAG6CH-" padded with the smallest time and rand fields is a
-- relative ID, so the C parser checks it with the same rules and messages.
local PREFIX_PADDING = "0000000000-0000000000"

--- lo, hi = mintid.relative_range(prefix_or_id)
-- The bounds of every relative ID of one tag, for `id >= lo AND id < hi`
-- scans: "TAG6CH-" and "TAG6CH." ('.' is the byte after '-'). Takes the
-- 7-char prefix of g:prefix(key), or any relative ID text (its tag is the
-- first 6 chars), in either case. Anything else gives nil, message.
function mintid.relative_range(s)
    if type(s) ~= "string" then
        error(("bad argument #1 to 'relative_range' (string expected, got %s)"):format(type(s)), 2)
    end
    local text = s
    if #s == 7 and byte(s, 7) == 45 then -- '-'
        text = s .. PREFIX_PADDING
    end
    local id, err = core.parse_relative(text)
    if not id then
        return nil, err
    end
    local tag = sub(tostring(id), 1, 6)
    return tag .. "-", tag .. "."
end

return mintid
