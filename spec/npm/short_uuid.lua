-- spec/npm/short_uuid.lua FILE: short UUIDs both ways against the reference
-- (npm short-uuid), through the module MINTID_MODULE names (default mintid).
-- FILE holds the reference's texts (spec/npm/short_uuid_ref.mjs). For each:
-- a "read" line, what mintid made of the reference's text (its UUID and
-- length, or the message where it refused it); then for each alphabet, a
-- "mint" line of a fresh random UUID that mintid wrote in it, for
-- spec/npm/short_uuid.mjs to have the reference write it too. One copy of
-- a minted text with its last symbol changed is marked "corrupt": the check
-- must catch it. TAB-separated: kind, module, alphabet_hex, uuid, text_hex,
-- and for reads the verdict.
local module_name = os.getenv("MINTID_MODULE") or "mintid"
local mintid = require(module_name)

local function hex(s)
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

local function fromhex(h)
    return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end))
end

local function random_uuid()
    local b = {}
    for i = 1, 16 do b[i] = string.char(math.random(0, 255)) end
    return tostring(mintid.uuid_from_bytes(table.concat(b)))
end

math.randomseed(os.time())
local out, seen, corrupted = {}, {}, false
for line in io.lines(arg[1]) do
    local alphabet_hex, uuid, text_hex, max_length = line:match("^(%x+)\t([%x-]+)\t(%x+)\t(%d+)$")
    assert(alphabet_hex, "a line that is not alphabet, uuid, text, length: " .. line)
    local alphabet, text = fromhex(alphabet_hex), fromhex(text_hex)
    local v, msg = mintid.parse_short_uuid(text, alphabet)
    local verdict
    if v == nil then
        verdict = "refused: " .. msg
    elseif tostring(v) ~= uuid then
        verdict = "parsed as " .. tostring(v)
    elseif #mintid.short_uuid(uuid, alphabet) ~= tonumber(max_length) then
        verdict = "length " .. #mintid.short_uuid(uuid, alphabet) .. ", the reference's maxLength " .. max_length
    else
        verdict = "ok"
    end
    out[#out + 1] = table.concat({ "read", module_name, alphabet_hex, uuid, text_hex, verdict }, "\t")
    if not seen[alphabet_hex] then
        seen[alphabet_hex] = true
        local count = #alphabet == 58 and 400 or 4
        for _ = 1, count do
            local u = random_uuid()
            local t = mintid.short_uuid(u, alphabet)
            out[#out + 1] = table.concat({ "mint", module_name, alphabet_hex, u, hex(t) }, "\t")
            if not corrupted then
                corrupted = true
                local last = t:sub(-1) == alphabet:sub(1, 1) and alphabet:sub(2, 2) or alphabet:sub(1, 1)
                out[#out + 1] = table.concat({ "corrupt", module_name, alphabet_hex, u, hex(t:sub(1, -2) .. last) }, "\t")
            end
        end
    end
end
io.write(table.concat(out, "\n"), "\n")
