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
-- MODE (default "plain") adds one of the three ways leases once minted IDs
-- twice (issue 26), which must now be refused or harmless:
--   fork CHILD  the lease is made, never acquired, then the process forks:
--               the child runs as CHILD (the parent writes its pid to
--               DIR/CHILD.pid) with the parent's lease object;
--   slow        the first connect (a claim's) writes DIR/NAME.slow, then
--               waits until DIR/NAME.go exists: a claim slow to reach the
--               store, its clocks read long before (the controller cuts
--               the id's holder off and loses its key meanwhile);
--   epochs      a second generator of epoch 1000 on the same lease
--               ("t_ms epoch2 ..." says what its construction did); if
--               made, the two take turns.
-- In every mode, connect() fails while DIR/NAME.cut exists (this holder
-- cut off from the store, the store still up for the others).
-- The environment's CHAOS_LAYOUT is the lease's layout (default mintid).
-- lua worker.lua PORT DIR NAME LO HI TTL LIMIT [MODE [CHILD]]
local redis = require "redis"
local socket = require "socket"
local mintid = require "mintid"
local lease = require "mintid.lease"

local port, dir, name = tonumber(arg[1]), arg[2], arg[3]
local lo, hi, ttl, limit = tonumber(arg[4]), tonumber(arg[5]), tonumber(arg[6]), tonumber(arg[7])
local mode, child = arg[8] or "plain", arg[9]
local layout = os.getenv("CHAOS_LAYOUT") or "mintid"
local BATCH, PAUSE = 20, 0.005
local GAP = ttl + 0.5

local function now_ms() return math.floor(socket.gettime() * 1000) end

local events, ids
local function event(text) events:write(now_ms(), " ", text, "\n") end
local function open_files()
    events = assert(io.open(dir .. "/" .. name .. ".events", "w"))
    events:setvbuf("line")
    ids = assert(io.open(dir .. "/" .. name .. ".ids", "w"))
end

local slow = mode == "slow"
local l = lease.redis {
    connect = function()
        if slow then assert(io.open(dir .. "/" .. name .. ".slow", "w")):close() end
        while slow do
            local go = io.open(dir .. "/" .. name .. ".go")
            if go then go:close() slow = false else socket.sleep(0.005) end
        end
        local cut = io.open(dir .. "/" .. name .. ".cut")
        if cut then
            cut:close()
            return nil, "cut off from the store"
        end
        return redis.connect { host = "127.0.0.1", port = port, timeout = 0.2 }
    end,
    namespace = "chaos", ttl = ttl, machine_ids = { lo, hi }, layout = layout,
    margin = 0.2, max_skew = 0.2,
    log = function(level, message) event("log " .. level .. ": " .. message) end,
}
if mode == "fork" then
    local pid = require("testfork").fork()
    if pid == 0 then
        name = child
    else
        local f = assert(io.open(dir .. "/" .. child .. ".pid.tmp", "w"))
        f:write(pid, "\n")
        f:close()
        os.rename(dir .. "/" .. child .. ".pid.tmp", dir .. "/" .. child .. ".pid")
    end
end
open_files()
local g = mintid.snowflake_generator { lease = l }
local g2
if mode == "epochs" then
    local ok, made = pcall(mintid.snowflake_generator, { lease = l, epoch = 1000 })
    g2 = ok and made or nil
    event("epoch2 " .. (ok and "made" or "refused: " .. tostring(made)))
end

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
        local id, err = (g2 and i % 2 == 0 and g2 or g):next()
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
