-- Rows and checks shared by the database specs (sqlite_test.lua,
-- postgres_test.lua): IDs minted on a scripted clock that repeats
-- milliseconds and steps back, inserted in a shuffled order, so that the
-- database's own ORDER BY has to restore time order.
local mintid = require "mintid"

local M = {}

local SECRET = "database spec secret, not a real one"

--- A clock that returns the i-th reading of `ms_list` on the i-th call.
local function list_clock(ms_list)
    local i = 0
    return function()
        i = i + 1
        return assert(ms_list[i], "clock read past the end of the list")
    end
end

--- Readings from 2023-11-14: 5 IDs per millisecond, `step` ms apart
-- (default 37), and one step back of a second every 50 IDs (monotonic IDs
-- keep their order).
local function readings(count, step)
    local list, ms = {}, 1700000000000
    for i = 1, count do
        if i % 50 == 0 then ms = ms - 1000 elseif i % 5 == 0 then ms = ms + (step or 37) end
        list[i] = ms
    end
    return list
end

--- The time-ordered kinds: name, a generator maker, a parser, the size of
-- the binary form, for a TypeID the prefix of every ID, and the clock's
-- step. A UUIDv6's is 7.9 s, so that its readings span more than the 429 s
-- after which a v1's leading time_low wraps: v1s in its place fail.
function M.ordered_kinds()
    return {
        { name = "ulid", new = mintid.ulid_generator, parse = mintid.parse_ulid, size = 16 },
        { name = "uuid7", new = mintid.uuid7_generator, parse = mintid.parse_uuid, size = 16 },
        { name = "uuid6", new = mintid.uuid6_generator, parse = mintid.parse_uuid, size = 16, step = 7919 },
        { name = "ksuid", new = mintid.ksuid_generator, parse = mintid.parse_ksuid, size = 20 },
        { name = "typeid", new = mintid.typeid_generator, parse = mintid.parse_typeid, size = 16, prefix = "user" },
    }
end

--- The kind of that name.
function M.kind(name)
    for _, kind in ipairs(M.ordered_kinds()) do
        if kind.name == name then return kind end
    end
    error("no ordered kind " .. name)
end

--- `count` IDs of a kind in the order minted: { id, bytes, ms, n }.
function M.minted_rows(kind, count)
    count = count or 400
    local g = kind.new { clock = list_clock(readings(count, kind.step)) }
    local rows = {}
    for n = 1, count do
        local id
        if kind.prefix then id = assert(g:next(kind.prefix)) else id = assert(g:next()) end
        local v = assert(kind.parse(id))
        rows[n] = { id = id, bytes = v:bytes(), ms = v:time(), n = n }
    end
    return rows
end

--- A copy of `list` in a fixed pseudo-random order (Park-Miller, exact in doubles).
function M.shuffled(list)
    local out, seed = {}, 4242
    for i, v in ipairs(list) do out[i] = v end
    for i = #out, 2, -1 do
        seed = seed * 16807 % 2147483647
        local j = seed % i + 1
        out[i], out[j] = out[j], out[i]
    end
    return out
end

--- An SQL string literal.
function M.quote(s)
    return "'" .. s:gsub("'", "''") .. "'"
end

function M.hex(bytes)
    return (bytes:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

--- `got` (rows with n and ms, as the database ordered them) is the minted
-- order, and its times never go back.
function M.assert_time_order(rows, got, where)
    assert(#got == #rows, where .. ": " .. #got .. " rows back, " .. #rows .. " inserted")
    for i, r in ipairs(got) do
        assert(tonumber(r.n) == i, where .. ": row " .. i .. " of ORDER BY id is the ID minted "
            .. tostring(r.n) .. "th")
        assert(tonumber(r.ms) == rows[i].ms, where .. ": row " .. i .. " has the wrong time")
        if i > 1 then assert(tonumber(r.ms) >= tonumber(got[i - 1].ms), where .. ": time goes back at " .. i) end
    end
end

--- A relative generator on a scripted clock and rows for several keys,
-- interleaved: { id, key, n }; returns the generator, the rows, the keys.
function M.relative_rows(key_count, per_key)
    key_count, per_key = key_count or 8, per_key or 40
    local keys = {}
    for k = 1, key_count do keys[k] = "customer-" .. k end
    local g = mintid.relative_generator {
        secret = SECRET, salt = "orders", clock = list_clock(readings(key_count * per_key)),
    }
    local rows = {}
    for _ = 1, per_key do
        for _, key in ipairs(keys) do
            rows[#rows + 1] = { id = assert(g:next(key)), key = key, n = #rows + 1 }
        end
    end
    return g, rows, keys
end

--- `got` (rows with id, customer and n, ordered by id) is exactly the rows
-- of `key`, in the order they were minted.
function M.assert_one_key(rows, key, got)
    local want = {}
    for _, r in ipairs(rows) do
        if r.key == key then want[#want + 1] = r end
    end
    assert(#got == #want, key .. ": " .. #got .. " rows in the range, want " .. #want)
    for i, r in ipairs(got) do
        assert(r.customer == key, key .. ": the range holds a row of " .. tostring(r.customer))
        assert(r.id == want[i].id and tonumber(r.n) == want[i].n,
            key .. ": row " .. i .. " out of time order: " .. r.id)
    end
end

--- Every row of a query on a LuaSQL connection, as tables by column name.
function M.rows(conn, sql)
    local cur = assert(conn:execute(sql))
    local rows = {}
    local row = cur:fetch({}, "a")
    while row do
        rows[#rows + 1] = row
        row = cur:fetch({}, "a")
    end
    cur:close()
    return rows
end

return M
