-- spec/fake_redis.lua: an in-process stand-in for a Redis server, for the
-- lease specs. It runs the lease's own EVAL scripts with the few commands
-- they call (GET, SET NX PX, PEXPIRE, PTTL, DEL, EXISTS, HGET, HSET, HSCAN,
-- TIME, ZADD, ZRANGEBYSCORE), counting them (store.calls, store.max_calls: the
-- most one script made), converting
-- values the way Redis does (a missing key or field is false inside a
-- script; a reply array stops at its first nil). Keys expire by the
-- store's own clock, which a test moves on at will, and faults are set by
-- hand: the store down, a reply lost after the script ran, a slow reply,
-- a slow connect (store.on_connect, run once before the next connect
-- completes), a reply on its way while the caller does something else
-- (store.on_reply, run once after the next script ran), every key lost (a
-- restart without persistence).
local M = {}
M.__index = M

local load51 = rawget(_G, "loadstring")
local setfenv_ = rawget(_G, "setfenv")

-- store = fake_redis.new() ; its clock is the real one plus store.offset_ms.
function M.new()
    return setmetatable({
        keys = {}, hashes = {}, zsets = {}, offset_ms = 0, calls = 0, max_calls = 0,
        down = false, lose_replies = 0, reply_delay = 0,
        evals = 0, connects = 0, sleep = nil,
    }, M)
end

function M:now_ms()
    return self.wall_ms() + self.offset_ms
end

-- Moves the store's clock on: keys whose PX runs out in that time expire.
function M:advance(seconds)
    self.offset_ms = self.offset_ms + seconds * 1000
end

-- A restart without persistence: every key and the floor hash gone.
function M:flush()
    self.keys, self.hashes, self.zsets = {}, {}, {}
end

function M:get(key)
    local e = self.keys[key]
    if e and e.expires and e.expires <= self:now_ms() then
        self.keys[key] = nil
        e = nil
    end
    return e
end

local commands = {}

-- A command on a key of the other kind (a string key, a hash) fails as
-- Redis's does.
local WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value"
local function string_key(store, key)
    if store.hashes[key] or store.zsets[key] then error(WRONGTYPE, 0) end
end
local function hash_key(store, key)
    if store:get(key) or store.zsets[key] then error(WRONGTYPE, 0) end
end

function commands.TYPE(store, key)
    if store.hashes[key] then return { ok = "hash" } end
    if store.zsets[key] then return { ok = "zset" } end
    return { ok = store:get(key) and "string" or "none" }
end

function commands.GET(store, key)
    string_key(store, key)
    local e = store:get(key)
    return e and e.value or false
end

function commands.SET(store, key, value, ...)
    local nx, px = false, nil
    local rest = { ... }
    local i = 1
    while i <= #rest do
        local flag = rest[i]:upper()
        if flag == "NX" then nx = true
        elseif flag == "PX" then px = tonumber(rest[i + 1]); i = i + 1
        else error("fake redis: SET flag " .. flag) end
        i = i + 1
    end
    if nx and store:get(key) then return false end
    store.keys[key] = { value = value, expires = px and store:now_ms() + px or nil }
    return { ok = "OK" }
end

function commands.PEXPIRE(store, key, ms)
    local e = store:get(key)
    if not e then return 0 end
    e.expires = store:now_ms() + tonumber(ms)
    return 1
end

function commands.PTTL(store, key)
    local e = store:get(key)
    if not e then return -2 end
    if not e.expires then return -1 end
    return math.floor(e.expires - store:now_ms())
end

function commands.DEL(store, ...)
    local n = 0
    for _, key in ipairs { ... } do
        n = n + (store:get(key) and 1 or 0)
        store.keys[key] = nil
    end
    return n
end

function commands.EXISTS(store, key)
    return (store:get(key) or store.hashes[key] or store.zsets[key]) and 1 or 0
end

function commands.TIME(store)
    local ms = store:now_ms()
    return { ("%.0f"):format(math.floor(ms / 1000)), ("%.0f"):format((ms % 1000) * 1000) }
end

-- A sorted set is member -> score; ZRANGEBYSCORE sorts by score, then member.
function commands.ZADD(store, key, score, member)
    store.zsets[key] = store.zsets[key] or {}
    local z = store.zsets[key]
    local new = z[tostring(member)] == nil and 1 or 0
    z[tostring(member)] = tonumber(score)
    return new
end

function commands.ZRANGEBYSCORE(store, key, min, max, limit, offset, count)
    assert(min == "-inf" and limit == "LIMIT", "fake redis: ZRANGEBYSCORE -inf max LIMIT offset count only")
    local out = {}
    for member, score in pairs(store.zsets[key] or {}) do
        if score <= tonumber(max) then out[#out + 1] = { member, score } end
    end
    table.sort(out, function(a, b) if a[2] ~= b[2] then return a[2] < b[2] end return a[1] < b[1] end)
    local page = {}
    for i = offset + 1, math.min(#out, offset + count) do page[#page + 1] = out[i][1] end
    return page
end

function commands.HGET(store, key, field)
    hash_key(store, key)
    local h = store.hashes[key]
    return h and h[field] or false
end

function commands.HSET(store, key, field, value)
    hash_key(store, key)
    store.hashes[key] = store.hashes[key] or {}
    local new = store.hashes[key][field] == nil and 1 or 0
    store.hashes[key][field] = value
    return new
end

-- HSCAN key cursor [COUNT n]: {next cursor, {field, value, ...}} as Redis
-- replies, the cursor text and "0" once the walk is done. Here the cursor
-- is an offset in the fields' order, which holds while no field is
-- deleted (the store deletes none): a field there for the whole walk is
-- returned, as Redis promises. Redis returns about COUNT (default 10)
-- fields a call, all of a small hash at once; this returns COUNT.
function commands.HSCAN(store, key, cursor, ...)
    hash_key(store, key)
    local rest, count = { ... }, 10
    for i = 1, #rest, 2 do
        assert(rest[i]:upper() == "COUNT", "fake redis: HSCAN key cursor [COUNT n] only")
        count = tonumber(rest[i + 1])
    end
    local fields = {}
    for field in pairs(store.hashes[key] or {}) do fields[#fields + 1] = field end
    table.sort(fields)
    local from = assert(tonumber(cursor), "fake redis: HSCAN cursor " .. tostring(cursor))
    local page = {}
    for i = from + 1, math.min(#fields, from + count) do
        page[#page + 1] = fields[i]
        page[#page + 1] = store.hashes[key][fields[i]]
    end
    local next_cursor = from + count >= #fields and "0" or ("%d"):format(from + count)
    return { next_cursor, page }
end

-- What EVAL replies for a script's Lua value (as a client would see it).
local function to_reply(v)
    if type(v) == "number" then return math.floor(v) end
    if type(v) == "string" then return v end
    if type(v) == "table" then
        local out = {}
        local i = 1
        while v[i] ~= nil do
            out[i] = to_reply(v[i])
            i = i + 1
        end
        return out
    end
    return nil
end

function M:run(script, keys, argv)
    local calls = 0
    local function call(cmd, ...)
        local f = commands[cmd:upper()]
        if not f then error("fake redis: no command " .. cmd) end
        calls = calls + 1
        return f(self, ...)
    end
    local env = {
        KEYS = keys, ARGV = argv, tonumber = tonumber, tostring = tostring, type = type, string = string,
        math = math,
        redis = {
            call = call,
            -- an error as a table { err = message }, as Redis's pcall gives it
            pcall = function(...)
                local ok, res = pcall(call, ...)
                if ok then return res end
                return { err = tostring(res) }
            end,
        },
    }
    local chunk
    if setfenv_ then
        chunk = assert(load51(script, "=script"))
        setfenv_(chunk, env)
    else
        chunk = assert(load(script, "=script", "t", env))
    end
    local reply = to_reply(chunk())
    self.calls = self.calls + calls
    if calls > self.max_calls then self.max_calls = calls end
    return reply
end

-- client = store:client(style): "nil_err" clients return nil, message on
-- every failure (lua-resty-redis); "raise" clients raise (redis-lua).
function M:client(style)
    local store = self
    local function fail(msg)
        if style == "raise" then error(msg, 2) end
        return nil, msg
    end
    local c = { closed = false }
    function c.eval(_, script, numkeys, ...)
        local args = { ... }
        local keys, argv = {}, {}
        for i = 1, #args do
            local a = args[i]
            if type(a) ~= "string" then return fail("fake redis: argument " .. i .. " is not a string") end
            if i <= numkeys then keys[#keys + 1] = a else argv[#argv + 1] = a end
        end
        if store.down then return fail("connection refused") end
        store.evals = store.evals + 1
        local reply = store:run(script, keys, argv)
        if store.reply_delay > 0 then store.sleep(store.reply_delay) end
        -- A client that yields between send and reply (a cosocket): the
        -- test's hook runs (once) while this reply is on its way.
        local hook = store.on_reply
        if hook then
            store.on_reply = nil
            hook()
        end
        if store.lose_replies > 0 then
            store.lose_replies = store.lose_replies - 1
            return fail("timeout")
        end
        return reply
    end
    function c.close() c.closed = true end
    return c
end

-- connect = store:connector(style): the lease's connect option.
function M:connector(style)
    return function()
        self.connects = self.connects + 1
        -- A slow connect: the test's hook runs (once) before it completes.
        local hook = self.on_connect
        if hook then
            self.on_connect = nil
            hook()
        end
        if self.down then
            if style == "raise" then error("could not connect to 127.0.0.1:6379 [connection refused]") end
            return nil, "connection refused"
        end
        return self:client(style)
    end
end

return M
