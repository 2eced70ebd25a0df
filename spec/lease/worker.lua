-- One holder of the chaos run (spec/lease/chaos.sh), in plain Lua with
-- redis-lua over LuaSocket: mints Snowflake IDs through a Redis lease until
-- the file DIR/stop appears (or LIMIT s pass), and writes
--   DIR/NAME.ids     the IDs, one per line;
--   DIR/NAME.events  "t_ms = outcome" each time the outcome of next()
--                    changes (minting, or a refusal's message) and "t_ms x
--                    N" when it ends (N calls had it); "t_ms gap S outcome"
--                    for the first next() after the loop stood still for
--                    more than ttl + 0.5 s (a SIGSTOP); "t_ms log ..." the
--                    lease's log lines;
--   DIR/NAME.state   the machine id held (or "-"), when that changes.
-- lua worker.lua PORT DIR NAME LO HI TTL LIMIT [LAYOUT]
local redis = require "redis"
local socket = require "socket"
local mintid = require "mintid"
local lease = require "mintid.lease"

local port, dir, name = tonumber(arg[1]), arg[2], arg[3]
local lo, hi, ttl, limit = tonumber(arg[4]), tonumber(arg[5]), tonumber(arg[6]), tonumber(arg[7])
local layout = arg[8] or "mintid"
local BATCH, PAUSE = 20, 0.005
local GAP = ttl + 0.5

local function now_ms() return math.floor(socket.gettime() * 1000) end

local events = assert(io.open(dir .. "/" .. name .. ".events", "w"))
events:setvbuf("line")
local ids = assert(io.open(dir .. "/" .. name .. ".ids", "w"))
local function event(text) events:write(now_ms(), " ", text, "\n") end

local l = lease.redis {
    connect = function()
        return redis.connect { host = "127.0.0.1", port = port, timeout = 0.2 }
    end,
    namespace = "chaos", ttl = ttl, machine_ids = { lo, hi }, layout = layout,
    margin = 0.2, max_skew = 0.2,
    log = function(level, message) event("log " .. level .. ": " .. message) end,
}
local g = mintid.snowflake_generator { lease = l }

local held = false
local function write_state()
    local id = l:machine_id()
    if (id or false) == held then return end
    held = id or false
    local f = assert(io.open(dir .. "/" .. name .. ".state.tmp", "w"))
    f:write(id and tostring(id) or "-", "\n")
    f:close()
    os.rename(dir .. "/" .. name .. ".state.tmp", dir .. "/" .. name .. ".state")
end

local started, last, outcome, count = socket.gettime(), socket.gettime(), nil, 0
while socket.gettime() - started < limit do
    local f = io.open(dir .. "/stop")
    if f then f:close() break end
    local t = socket.gettime()
    local gap = t - last > GAP and t - last
    last = t
    local batch = {}
    for i = 1, BATCH do
        local id, err = g:next()
        local this = id and "minting" or err
        if gap and i == 1 then event(("gap %.1f %s"):format(gap, this)) end
        if this ~= outcome then
            if outcome then event("x " .. count) end
            outcome, count = this, 0
            event("= " .. this)
        end
        count = count + 1
        if not id then break end
        batch[#batch + 1] = id
    end
    if #batch > 0 then
        batch[#batch + 1] = ""
        ids:write(table.concat(batch, "\n"))
        ids:flush()
    end
    l:step()
    write_state()
    socket.sleep(PAUSE)
end
ids:close()
event("x " .. count)
event("stopped")
events:close()
