-- mintid.lease.options: the options tables of the lease constructors, read
-- as mintid's C constructors read theirs (doc/guide.md "Errors"): every value as Lua reads
-- a field (an __index is honoured), an unknown key raises, and a bad value
-- raises "bad argument #1 to '<fn>' (<what>)".
local M = {}

local type, tostring, tonumber, next, error, floor = type, tostring, tonumber, next, error, math.floor
-- No position, as a C function's luaL_argerror has none.
function M.raise(fn, what)
    error("bad argument #1 to '" .. fn .. "' (" .. what .. ")", 0)
end
local raise = M.raise

-- opts must be a table whose raw keys are all in known (a set); returns it.
-- next(), not pairs(): see resty.mintid on LuaJIT's compiled pairs().
function M.table(opts, fn, known)
    if type(opts) ~= "table" then
        raise(fn, "options must be a table, got " .. type(opts))
    end
    local k = next(opts)
    while k ~= nil do
        if type(k) ~= "string" then
            raise(fn, "option names must be strings, got " .. type(k))
        end
        if not known[k] then
            raise(fn, "unknown option '" .. k .. "'")
        end
        k = next(opts, k)
    end
    return opts
end

-- An integer in lo..hi: a Lua number with an integer value, or LuaJIT's
-- int64/uint64 cdata.
local function integer(v)
    if type(v) == "cdata" then v = tonumber(v) end
    if type(v) == "number" and v % 1 == 0 then return floor(v) end -- an integer on 5.3+
    return nil
end
M.integer = integer

-- The largest machine id of a layout table: 2^machine_bits - 1, in
-- integer arithmetic on 5.3+.
function M.max_machine(layout)
    local max = 1
    for _ = 1, layout.machine_bits do max = max * 2 end
    return max - 1
end

-- machine_ids = {lo, hi}: 0 <= lo <= hi <= max, default {0, max} (the
-- layout's whole range).
function M.machine_ids(v, fn, max)
    if v == nil then return 0, max end
    if type(v) ~= "table" then
        raise(fn, "machine_ids must be a table {lo, hi}, got " .. type(v))
    end
    local lo, hi = integer(v[1]), integer(v[2])
    if lo == nil or hi == nil then
        raise(fn, "machine_ids must be {lo, hi} of integers, got {" .. tostring(v[1]) .. ", "
            .. tostring(v[2]) .. "}")
    end
    if lo < 0 or hi > max or lo > hi then
        raise(fn, ("machine_ids must be {lo, hi} with 0 <= lo <= hi <= %.0f, got {%.0f, %.0f}"):format(max, lo, hi))
    end
    return lo, hi
end

-- layout = L (a preset name or a table; default "mintid") and epoch = E
-- (replaces its epoch): the lease's layout, whose fence it returns too,
-- bound to it (one lease, one layout). The C module checks every rule; its
-- message is re-raised as the lease constructor's.
function M.layout(layout, epoch, fn)
    local mintid = require "mintid"
    local function call(f, arg)
        local ok, v = pcall(f, arg)
        if not ok then raise(fn, tostring(v):match("%((layout: .*)%)$") or tostring(v)) end
        return v
    end
    local t = call(mintid.snowflake_layout, layout == nil and "mintid" or layout)
    if epoch ~= nil then
        if integer(epoch) == nil or integer(epoch) < 0 then
            raise(fn, "epoch must be an integer >= 0, got " .. tostring(epoch))
        end
        t.epoch, t.name = integer(epoch), nil
        t = call(mintid.snowflake_layout, t)
    end
    return t, call(mintid._lease_fence, t)
end

return M
