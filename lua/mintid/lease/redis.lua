-- mintid.lease.redis: Snowflake machine ids leased from a Redis server
-- (`lease.redis{...}` of mintid.lease; doc/fleet.md says how to run it).
--
-- Id i of a namespace is the key mintid:{ns}:m:<i>, holding the holder's
-- random 128-bit token with a PX expiry; mintid:{ns}:floor is a hash, never
-- expired, of id -> the highest Unix ms any holder of that id may have
-- minted; mintid:{ns}:layout the fingerprint of the one layout the
-- namespace holds. Every step is one server-side script (EVAL), so a claim
-- takes a free id atomically and a renewal or release touches only a key
-- that still holds our token. The lease never decides alone that minting
-- is safe: it tells the C fence (mintid._lease_fence) the id, a deadline
-- and a floor, and the generator bound to the fence refuses outside them.
--
-- Redis runs one script at a time, so no script walks the range: a claim
-- finds a free id through an index of the range's ids by expiry (the sorted
-- set mintid:{ns}:idx:<lo>-<hi>, kept by claims, renewals and releases in
-- the server's time) and a count of the ids never handed out
-- (mintid:{ns}:fresh:<lo>-<hi>), and looks at most CLAIM_TRIES ids of each.
--
-- Plain Lua 5.1-5.5 and LuaJIT: no integer division, no bitwise operators,
-- no goto. Any client with :eval(script, numkeys, ...) works, whether its
-- calls return nil, err (lua-resty-redis) or raise (redis-lua).
local mintid = require "mintid"
local options = require "mintid.lease.options"

local M = {}

local Lease = {}
Lease.__index = Lease

local floor, huge, max, min = math.floor, math.huge, math.max, math.min
local ngx = rawget(_G, "ngx")
local unpack_ = rawget(table, "unpack") or rawget(_G, "unpack")

---------------------------------------------------------------------------
-- The scripts. Lua 5.1 inside Redis; a missing key or field reads as false.
-- Numbers travel as decimal text and come back as integers or text only: a
-- script never returns nil inside an array (Redis would cut it there).

-- The ids a claim looks at, at most, in each of its two searches (expired
-- ids of the index, never-used ids): its work is bounded whatever the range.
M.CLAIM_TRIES = 32
-- The most commands one claim makes: a handful of its own, at most 8 for
-- each id it looks at (its own earlier claim's, the one it held last, and
-- CLAIM_TRIES of each search).
M.CLAIM_MAX_COMMANDS = 8 + (2 + 2 * M.CLAIM_TRIES) * 8

-- The server's time in ms, which the index's scores and PX share.
local NOW = [[
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
]]

-- The start of the scripts that write: floor_of(hash, id) -> the floor of
-- id (text) in the floor hash as a number and its text ("0" if none), or
-- nil, why: the hash key of another type, or a field that is not Unix ms.
-- Read before any write, so that junk in the store is refused with no
-- effect (a claim that took a key and then failed would leave it taken by
-- our token, found again by every retry).
local FLOOR_OF = [[
local function floor_of(hash, id)
    local kind = redis.call('TYPE', hash)
    if type(kind) == 'table' then kind = kind.ok end
    if kind ~= 'hash' and kind ~= 'none' then return nil, hash .. ' is a ' .. tostring(kind) .. ', not a hash' end
    local text = redis.call('HGET', hash, id)
    if not text then return 0, '0' end
    local ms = tonumber(text)
    if not ms or ms ~= ms or ms < 0 or ms >= 9007199254740992 or ms ~= math.floor(ms) then
        return nil, 'the floor of machine id ' .. id .. ' in ' .. hash .. ' is not Unix ms: ' .. text
    end
    return ms, text
end
]]

-- KEYS: the floor hash, the layout key, the range's index, the range's
-- fresh count, our token's key. ARGV: token, ttl ms, our floor ms (wall ms
-- at sending + ttl), lo, hi, the id to try first (-1: none), the layout's
-- fingerprint, the default layout's, CLAIM_TRIES, the id keys' prefix.
-- A key that already holds our token is ours (the reply to an earlier try
-- was lost: our token's key names it); a key of another type is not free.
-- Returns {id, the id's floor before this claim}, {-1, "0"} when every id
-- of lo..hi is taken, {-3, "0"} when none was free among those looked at,
-- {-4, the namespace's layout} when it holds another layout, {-2, why} for
-- junk in the store (nothing written but the index). A namespace used
-- before layouts existed (a floor hash, no layout key) holds the default
-- layout; the layout key is written by the first claim that succeeds.
M.CLAIM = FLOOR_OF .. NOW .. [[
local token, ttl, ours = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local lo, hi, prefer, tries = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[9])
local function junk(key, what) return { -2, key .. ' is not ' .. what } end
local stored = redis.pcall('GET', KEYS[2])
if type(stored) == 'table' then return junk(KEYS[2], 'a string') end
local held = stored
if not held and redis.call('EXISTS', KEYS[1]) == 1 then held = ARGV[8] end
if held and held ~= ARGV[7] then return { -4, held } end
local function take(id)
    local sid = string.format('%.0f', id)
    local key = ARGV[10] .. sid
    local holder = redis.pcall('GET', key)
    if type(holder) == 'table' then return nil end
    if holder and holder ~= token then
        -- held: the index follows the key's expiry
        local left = redis.call('PTTL', key)
        if left < 0 then left = ttl end
        redis.call('ZADD', KEYS[3], now + left, id)
        return nil
    end
    local before, text = floor_of(KEYS[1], sid)
    if not before then return { -2, text } end
    if holder == token then
        redis.call('PEXPIRE', key, ttl)
    elseif not redis.call('SET', key, token, 'NX', 'PX', ttl) then
        return nil
    end
    redis.call('ZADD', KEYS[3], now + ttl, id)
    redis.call('SET', KEYS[5], sid, 'PX', ttl)
    if tonumber(ours) > before then redis.call('HSET', KEYS[1], sid, ours) end
    if not stored then redis.call('SET', KEYS[2], ARGV[7]) end
    return { id, text }
end
local kind = redis.call('TYPE', KEYS[3])
if type(kind) == 'table' then kind = kind.ok end
if kind ~= 'zset' and kind ~= 'none' then return junk(KEYS[3], 'a sorted set') end
local fresh = redis.pcall('GET', KEYS[4])
fresh = type(fresh) ~= 'table' and tonumber(fresh or '0')
if not fresh then return junk(KEYS[4], 'a count') end
local mine = redis.pcall('GET', KEYS[5])
mine = type(mine) ~= 'table' and tonumber(mine or '-1') or -1
local got
if mine >= lo and mine <= hi then got = take(mine) if got then return got end end
if prefer >= lo and prefer <= hi then got = take(prefer) if got then return got end end
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, tries)
for i = 1, #expired do
    got = take(tonumber(expired[i]))
    if got then return got end
end
local n, left = hi - lo + 1, tries
while fresh < n and left > 0 and not got do
    got = take(lo + fresh)
    fresh, left = fresh + 1, left - 1
end
if got and got[1] == -2 then return got end -- junk: nothing written
redis.call('SET', KEYS[4], string.format('%.0f', fresh))
if got then return got end
if fresh >= n and #expired < tries then return { -1, '0' } end
return { -3, '0' }
]]

-- KEYS: the id's key, the floor hash, the range's index. ARGV: token, ttl
-- ms, id, floor ms. 1 if the key held our token (expiry renewed, floor
-- raised, the index following), 0 if not, {-2, why} for junk in the floor
-- hash (nothing written).
M.RENEW = FLOOR_OF .. NOW .. [[
if redis.pcall('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local before, why = floor_of(KEYS[2], ARGV[3])
if not before then return { -2, why } end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.pcall('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[3])
if tonumber(ARGV[4]) > before then redis.call('HSET', KEYS[2], ARGV[3], ARGV[4]) end
return 1
]]

-- KEYS: the id's key, the floor hash, the range's index, our token's key.
-- ARGV: token, id, floor ms. 1 if the key held our token (floor raised,
-- key deleted, the id first in the index), 0 if not, {-2, why} for junk in
-- the floor hash (nothing written).
M.RELEASE = FLOOR_OF .. [[
if redis.pcall('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local before, why = floor_of(KEYS[2], ARGV[2])
if not before then return { -2, why } end
if tonumber(ARGV[3]) > before then redis.call('HSET', KEYS[2], ARGV[2], ARGV[3]) end
redis.call('DEL', KEYS[1], KEYS[4])
redis.pcall('ZADD', KEYS[3], 0, ARGV[2])
return 1
]]

-- KEYS[1] the floor hash. ARGV: the cursor, COUNT, lo, hi. One page of
-- HSCAN of the floor hash, which has a field for every id ever claimed: a
-- flat array of the next cursor ("0": done) and the ids of the page in
-- lo..hi (the id keys' to look at), or {"junk", why} for a floor key of
-- another type.
M.HOLDERS_SCAN = [[
local kind = redis.call('TYPE', KEYS[1])
if type(kind) == 'table' then kind = kind.ok end
if kind ~= 'hash' and kind ~= 'none' then return { 'junk', KEYS[1] .. ' is a ' .. tostring(kind) .. ', not a hash' } end
local lo, hi = tonumber(ARGV[3]), tonumber(ARGV[4])
local page = redis.call('HSCAN', KEYS[1], ARGV[1], 'COUNT', ARGV[2])
local out = { page[1] }
for i = 1, #page[2], 2 do
    local id = tonumber(page[2][i])
    if id and id >= lo and id <= hi and id == math.floor(id) then out[#out + 1] = page[2][i] end
end
return out
]]

-- KEYS[1] the floor hash, KEYS[2..n+1] the keys of ids ARGV[1..n]. A flat
-- array: id, ms to expiry (-1: none), floor (as stored: checked by the
-- caller), for each id held now.
M.HOLDERS = [[
local out = {}
for i = 2, #KEYS do
    local left = redis.call('PTTL', KEYS[i])
    if left >= -1 then
        out[#out + 1] = ARGV[i - 1]
        out[#out + 1] = left
        local floor = redis.pcall('HGET', KEYS[1], ARGV[i - 1])
        if type(floor) == 'table' then floor = 'a key of another type' end
        out[#out + 1] = floor or '0'
    end
end
return out
]]

---------------------------------------------------------------------------
-- Options

local function ms_text(ms)
    return ("%.0f"):format(ms)
end

-- What a namespace used before layouts holds.
local DEFAULT_FINGERPRINT = select(2, mintid._lease_fence("mintid"):layout())

local bad = options.raise

local LEASE_OPTIONS = {
    connect = "function", namespace = "string", ttl = "number", machine_ids = "table",
    renew_every = "number", drift = "number", margin = "number", max_skew = "number",
    quarantine = "boolean", wait = "boolean", clock = "function", sleep = "function",
    log = "function", layout = "any", epoch = "any",
}
local HOLDERS_OPTIONS = { connect = "function", namespace = "string", machine_ids = "table", layout = "any" }

-- opts[name] for every option of `known` (a metatable's __index honoured);
-- an unknown key or a value of the wrong type raises.
local function read_options(fname, opts, known, required)
    options.table(opts, fname, known)
    local o = {}
    for name, want in pairs(known) do
        local v = opts[name]
        if v ~= nil and type(v) ~= want and name ~= "machine_ids" and want ~= "any" then
            bad(fname, ("option '%s': %s expected, got %s"):format(name, want, type(v)))
        end
        o[name] = v
    end
    for _, name in ipairs(required) do
        if o[name] == nil then bad(fname, "option '" .. name .. "' is required") end
    end
    if o.namespace ~= nil and (#o.namespace > 64 or not o.namespace:match("^[%w_.%-]+$")) then
        bad(fname, "namespace must be 1..64 letters, digits, '_', '.' or '-'")
    end
    o.layout, o.fence = options.layout(o.layout, o.epoch, fname)
    o.lo, o.hi = options.machine_ids(o.machine_ids, fname, options.max_machine(o.layout))
    return o
end

local function positive(fname, name, value)
    if not (value > 0 and value < huge) then
        bad(fname, ("option '%s' must be a positive number of seconds"):format(name))
    end
    return value
end

-- The longest duration an option may give: a day, far beyond any sane
-- ttl or clock skew, and far below what would carry a floor out of the
-- integers (a ms count past 2^53).
local MAX_SECONDS = 86400

---------------------------------------------------------------------------
-- Time

-- A Unix ms integer from the system's real-time clock (the one a Snowflake
-- generator mints with by default), through mintid's default ULID
-- generator: a ULID's time never runs behind that clock.
local function system_ms()
    return mintid.parse_ulid(mintid.ulid()):time()
end

---------------------------------------------------------------------------
-- Randomness: tokens and scan starts from mintid's CSPRNG.

local HEX = "0123456789abcdef"

local function new_token()
    return mintid.nanoid(32, HEX) -- 128 bits
end

local function random_below(n)
    return tonumber(mintid.nanoid(8, HEX), 16) % n
end

-- A factor in [1 - spread, 1 + spread].
local function jitter(spread)
    return 1 + spread * (2 * random_below(10001) / 10000 - 1)
end

---------------------------------------------------------------------------
-- The store: connect, one script, hand the client back.

local function one_line(err)
    return (tostring(err):gsub("[\r\n]+", " "))
end

local function hand_back(client, ok)
    if ok and type(client.set_keepalive) == "function" then
        pcall(client.set_keepalive, client)
    elseif type(client.close) == "function" then
        pcall(client.close, client)
    elseif type(client.quit) == "function" then
        pcall(client.quit, client)
    end
end

-- A value from the store or an option, for a message: its type and value,
-- or a table's values in braces.
local function shown(v)
    if type(v) == "table" then
        local items = {}
        for i = 1, min(#v, 8) do
            local x = v[i]
            items[i] = type(x) == "string" and one_line(("%q"):format(x)) or tostring(x)
        end
        return "{" .. table.concat(items, ", ") .. (#v > 8 and ", ..." or "") .. "}"
    end
    if v == nil then return "nil" end
    return ("a %s (%s)"):format(type(v), type(v) == "string" and one_line(("%q"):format(v)) or tostring(v))
end

-- A Unix ms integer from a number or decimal text of one (floored: a
-- clock may give fractional ms), or nil.
local function unix_ms(v)
    v = tonumber(v)
    if not v or v ~= v or v < 0 or v >= 9007199254740992 then return nil end
    return floor(v)
end

-- eval(connect, script, keys, args) -> the reply, or nil, message.
local function eval(connect, script, keys, args)
    local ok, client, err = pcall(connect)
    if not ok or not client then
        return nil, "cannot connect: " .. one_line(ok and err or client)
    end
    if type(client) ~= "table" and type(client) ~= "userdata" then
        return nil, ("cannot connect: connect() returned a %s, not a client with :eval"):format(type(client))
    end
    local n = #keys
    local call = {}
    for i = 1, n do call[i] = keys[i] end
    -- Every argument as text, integers without a ".0" (Lua 5.3's tostring).
    for i = 1, #args do
        local a = args[i]
        call[n + i] = type(a) == "number" and ms_text(a) or a
    end
    local good, res, e = pcall(function() return client:eval(script, n, unpack_(call, 1, n + #args)) end)
    local replied = good and res ~= nil and res ~= false and not (ngx and res == ngx.null)
    pcall(hand_back, client, replied)
    if not good then return nil, one_line(res) end
    if not replied then return nil, one_line(e or "no reply") end
    return res
end

---------------------------------------------------------------------------
-- The lease

local function default_log(level, message)
    if ngx and ngx.log then
        local levels = { notice = ngx.NOTICE, warn = ngx.WARN, error = ngx.ERR }
        ngx.log(levels[level] or ngx.NOTICE, "mintid lease: ", message)
    else
        io.stderr:write("mintid lease: ", level, ": ", message, "\n")
    end
end

function M.new(opts)
    local o = read_options("redis", opts, LEASE_OPTIONS, { "connect", "namespace" })
    local ttl = positive("redis", "ttl", o.ttl or 15)
    if ttl < 0.01 then bad("redis", "option 'ttl' must be at least 0.01 s") end
    if ttl > MAX_SECONDS then bad("redis", "option 'ttl' must be at most " .. MAX_SECONDS .. " s") end
    local drift = o.drift or 0.01
    if not (drift >= 0 and drift < 0.5) then bad("redis", "option 'drift' must be in 0 <= drift < 0.5") end
    local margin = o.margin or min(1, ttl / 10)
    if not (margin >= 0 and margin < ttl) then bad("redis", "option 'margin' must be >= 0 and below ttl") end
    local valid = ttl * (1 - drift) - margin
    local renew_every = positive("redis", "renew_every", o.renew_every or ttl / 3)
    if renew_every >= valid then
        bad("redis", ("option 'renew_every' (%g s) must be below ttl * (1 - drift) - margin (%g s)")
            :format(renew_every, valid))
    end
    local max_skew = o.max_skew or 2
    if not (max_skew >= 0 and max_skew <= MAX_SECONDS) then
        bad("redis", "option 'max_skew' must be 0.." .. MAX_SECONDS .. " s")
    end
    local ns = o.namespace
    local self = setmetatable({
        _fence = o.fence,
        _namespace = ns,
        _fingerprint = select(2, o.fence:layout()),
        _epoch = o.layout.epoch, _unit_ms = o.layout.time_unit_ms,
        _connect = o.connect,
        _lo = o.lo, _hi = o.hi,
        _ttl = ttl, _ttl_ms = floor(ttl * 1000 + 0.5),
        _valid = valid,
        _renew_every = renew_every,
        _skew_ms = floor(max_skew * 1000 + 0.5),
        _quarantine = o.quarantine ~= false,
        _wait = o.wait ~= false,
        _clock = o.clock or system_ms,
        _sleep = o.sleep,
        _log = o.log or default_log,
        _token = new_token(),
        _floor_key = "mintid:{" .. ns .. "}:floor",
        _prefix = "mintid:{" .. ns .. "}:m:",
        _next_step = 0,
        -- Moved on by every claim, loss and release (_turn_by says which
        -- last): a reply to a call sent in an earlier turn is dropped.
        _turn = 0,
        _reported = { store = "reachable", lease = "unheld" },
    }, Lease)
    local range = ("%.0f-%.0f"):format(o.lo, o.hi)
    self._index_key = "mintid:{" .. ns .. "}:idx:" .. range
    self._claim_keys = { self._floor_key, "mintid:{" .. ns .. "}:layout", self._index_key,
                         "mintid:{" .. ns .. "}:fresh:" .. range }
    return self
end

-- The key naming the id our token took (found again after a lost reply).
function Lease:_token_key(token)
    return "mintid:{" .. self._namespace .. "}:t:" .. (token or self._token)
end

-- The keys of a listing: the floor hash, then those of the ids (text).
function M.keys(namespace, ids)
    local keys = { "mintid:{" .. namespace .. "}:floor" }
    for i, id in ipairs(ids) do keys[i + 1] = ("mintid:{%s}:m:%s"):format(namespace, id) end
    return keys
end

-- Logs a change of state, never a repeated attempt. Two states change
-- apart: the store's ("reachable", "unreachable", "full") and the lease's.
function Lease:_report(what, state, level, message)
    if self._reported[what] == state then return end
    self._reported[what] = state
    self._log(level, message)
end

-- The store answered: logged after an outage.
function Lease:_reachable()
    if self._reported.store == "unreachable" then
        self:_report("store", "reachable", "notice", "store reachable again")
    end
    self._reported.store = "reachable"
end

function Lease:_forked()
    return self._fence:state() == "forked"
end

local FORKED = "lease: made in another process (before fork()): make one in each process"

-- How long a renewal sent at `sent` (the fence's clock, seconds) keeps the lease:
-- the deadline counts from the sending, minus drift and margin.
function Lease:_valid_for(sent)
    return self._valid - (self._fence:clock() - sent)
end

-- One claim on the store: the fence held with the id (waiting for its
-- floor) on success. Returns the id, or nil, message.
-- The wall clock (the clock option) in Unix ms, floored (ngx.now() * 1000
-- gives fractions), or nil, message for a reading that is no Unix ms.
function Lease:_wall()
    local v = self._clock()
    local ms = unix_ms(type(v) == "number" and v or nil)
    if not ms then return nil, ("lease: option 'clock' returned %s, not Unix ms"):format(shown(v)) end
    return ms
end

-- A claim's reply checked: id (-1: every id taken, -3: none free among
-- those looked at), floor; or nil, message.
function Lease:_claim_reply(res)
    if type(res) == "table" and res[1] == -2 and type(res[2]) == "string" then
        return nil, "lease: the store refused the claim: " .. res[2]
    end
    if type(res) == "table" and res[1] == -4 and type(res[2]) == "string" then
        return nil, ("lease: namespace '%s' holds layout %s, this lease's is %s: one namespace, one layout "
            .. "(a new layout needs a new namespace)"):format(self._namespace, res[2], self._fingerprint)
    end
    local id = type(res) == "table" and tonumber(res[1])
    local before = type(res) == "table" and type(res[2]) == "string" and unix_ms(res[2])
    if not (id and before and (id == -1 or id == -3 or (id >= self._lo and id <= self._hi and id % 1 == 0))
            and tonumber(res[2]) == before) then
        return nil, "lease: unexpected reply to a claim: " .. shown(res)
    end
    return id, before
end

-- A renewal's or a release's reply: 1 (ours) or 0 (not), or nil, message.
local function owned_reply(res, what)
    if type(res) == "table" and res[1] == -2 and type(res[2]) == "string" then
        return nil, "lease: the store refused the " .. what .. ": " .. res[2]
    end
    local n = tonumber(res)
    if (type(res) ~= "number" and type(res) ~= "string") or (n ~= 0 and n ~= 1) then
        return nil, "lease: unexpected reply to a " .. what .. ": " .. shown(res)
    end
    return n
end

function Lease:_claim()
    if self:_forked() then return nil, FORKED end
    local prefer = self._prefer or -1
    local turn = self._turn
    local sent = self._fence:clock()
    local wall, werr = self:_wall()
    if not wall then return nil, werr end
    -- The floor this claim gives the store: its next holder mints above
    -- it, so it is also the last ms this holder may mint.
    local last_ms = wall + self._ttl_ms
    local keys = { self._claim_keys[1], self._claim_keys[2], self._claim_keys[3], self._claim_keys[4],
                   self:_token_key() }
    local res, err = eval(self._connect, M.CLAIM, keys, {
        self._token, self._ttl_ms, ms_text(last_ms), self._lo, self._hi, prefer, self._fingerprint,
        DEFAULT_FINGERPRINT, M.CLAIM_TRIES, self._prefix,
    })
    -- A release or a loss while the claim was on its way (a client that
    -- yields): the caller's last word wins; a key we took meanwhile expires
    -- by itself. Another claim of this lease (start()'s timer and
    -- acquire()) carried the same token, so the store gave both the id now
    -- held: that id.
    if self._turn ~= turn then
        if self._id and self._turn_by == "claim" then return self._id end
        return nil, "lease: the claim's reply came after a " .. self._turn_by .. ": dropped"
    end
    if not res then
        self:_report("store", "unreachable", "warn", "store unreachable while claiming: " .. err)
        return nil, "lease: store unreachable (" .. err .. ")"
    end
    local id, before = self:_claim_reply(res)
    if not id then
        self:_report("store", "broken", "error", before)
        return nil, before
    end
    if id == -1 then
        self:_report("store", "full", "warn", ("every machine id in %.0f..%.0f is taken"):format(self._lo, self._hi))
        return nil, ("lease: every machine id in %.0f..%.0f is taken"):format(self._lo, self._hi)
    end
    if id < 0 then
        return nil, ("lease: no free machine id among the %d looked at; try again"):format(2 * M.CLAIM_TRIES)
    end
    local valid_for = self:_valid_for(sent)
    if valid_for <= 0 then
        return nil, "lease: the claim's reply came after the lease's validity"
    end
    -- The quarantine: a holder whose key the store lost may mint until its
    -- deadline, which its last renewal, run in the store before our claim,
    -- set at most ttl after it, by a clock up to max_skew ahead of ours.
    -- Counted from the wall read after the reply, never from `wall`: a slow
    -- connect or a pause between that reading and the claim's run would let
    -- the old holder renew meanwhile and mint past our floor.
    local fence_floor = before
    if self._quarantine then
        local now, nerr = self:_wall()
        if not now then return nil, nerr end
        fence_floor = max(before, now + self._ttl_ms + self._skew_ms)
    end
    -- Minting also stops at the floor the claim gave the store, above
    -- which the id's next holder mints, whatever the fence's monotonic
    -- clock says: that clock does not count a suspend, which the store's
    -- expiry and the wall clock do. Each renewal moves it on.
    self._fence:hold(id, valid_for, fence_floor, nil, last_ms)
    self._id, self._floor, self._prefer = id, fence_floor, id
    self._turn, self._turn_by = self._turn + 1, "claim"
    self:_reachable()
    self:_report("lease", "held", "notice", ("holds machine id %.0f%s"):format(id,
        fence_floor > 0 and " (minting after ms " .. ms_text(fence_floor) .. ")" or ""))
    return id
end

-- The Unix ms at which the first time unit after the floor starts, as the
-- fence reckons it: generators mint from then on.
function Lease:_ready_ms()
    local epoch, unit = self._epoch, self._unit_ms
    if self._floor < epoch then return epoch end
    return epoch + (floor((self._floor - epoch) / unit) + 1) * unit
end

-- The sleep acquire() waits with: the option, ngx.sleep where it may
-- yield, LuaSocket's if the client loaded it; else none.
function Lease:_sleeper()
    if self._sleep then return self._sleep end
    if ngx and ngx.sleep and ngx.get_phase then
        local phase = ngx.get_phase()
        if phase ~= "init" and phase ~= "init_worker" and phase ~= "exit_worker" then return ngx.sleep end
        return nil
    end
    local socket = package.loaded.socket
    return type(socket) == "table" and type(socket.sleep) == "function" and socket.sleep or nil
end

function Lease:acquire()
    if self:_forked() then return nil, FORKED end
    self._stopped = nil -- start()'s timers may work again
    local id = self._id
    if id then
        local state = self._fence:state()
        if state == "held" then return id end
        if state ~= "waiting" then
            -- past its deadline: renewed if the key is still ours, else claimed anew
            local ok, err = self:renew()
            if not ok and self._id then return nil, err end
            id = self._id
            if ok then self._next_renew = self._fence:clock() + self._renew_every end
        end
    end
    if not id then
        local err
        id, err = self:_claim()
        if not id then return nil, err end
        self._next_renew = self._fence:clock() + self._renew_every
    end
    -- Wait until minting starts, renewing on time, if something can sleep:
    -- at the first time unit after the floor, a unit later at most. One
    -- that starts further off than the quarantine and a second (a previous
    -- holder's clock far ahead, or units longer than that) is left to the
    -- fence, whose generators refuse until then.
    local sleep = self._wait and self:_sleeper()
    local wall, werr = self:_wall()
    if not wall then return nil, werr end
    local limit = wall + self._ttl_ms + self._skew_ms + 1000
    local last_err
    while sleep and self._fence:state() == "waiting" and self:_ready_ms() <= limit do
        local now = self._fence:clock()
        if now >= self._next_renew then
            local ok, rerr = self:renew()
            if not ok and not self._id then return nil, rerr end
            last_err = not ok and rerr or nil
            self._next_renew = now + (ok and self._renew_every or self._renew_every / 4)
        end
        wall, werr = self:_wall()
        if not wall then return nil, werr end
        sleep(max(0.001, min((self:_ready_ms() - wall) / 1000, self._next_renew - now)))
    end
    -- Only an id minting with is safe: held, or waiting for a floor left
    -- to the fence (no sleep, wait = false, or further off than the
    -- quarantine). Past its deadline (renewals failed meanwhile), or
    -- released or claimed anew by a call made while this one slept: nil.
    local state = self._fence:state()
    if self._id ~= id or not (state == "held" or state == "waiting") then
        return nil, ("lease: machine id %.0f %s while waiting out its floor%s"):format(id, state,
            last_err and " (" .. last_err .. ")" or "")
    end
    return id
end

function Lease:renew()
    if self:_forked() then return nil, FORKED end
    local id = self._id
    if not id then return nil, "lease: not held" end
    local turn = self._turn
    local sent = self._fence:clock()
    local wall, werr = self:_wall()
    if not wall then return nil, werr end
    local last_ms = wall + self._ttl_ms -- the floor sent, as in a claim
    local res, err = eval(self._connect, M.RENEW, { self._prefix .. ms_text(id), self._floor_key, self._index_key },
        { self._token, self._ttl_ms, ms_text(id), ms_text(last_ms) })
    -- A release, a loss or another claim while this was on its way (a
    -- client that yields): the reply is about a lease that is no more.
    if self._turn ~= turn then
        return nil, "lease: the renewal's reply came after a release, a loss or another claim: dropped"
    end
    if not res then
        local state, left = self._fence:state()
        local until_ = (state == "held" or state == "waiting")
            and ("usable for %.1f s more"):format(left) or "past its deadline"
        self:_report("store", "unreachable", "warn",
            ("store unreachable, machine id %.0f %s: %s"):format(id, until_, err))
        return nil, ("lease: store unreachable (%s); machine id %.0f %s"):format(err, id, until_)
    end
    local owned, rerr = owned_reply(res, "renewal")
    if not owned then
        -- Like an outage: the lease stays usable until its deadline.
        self:_report("store", "broken", "error", rerr)
        return nil, rerr
    end
    if owned == 0 then
        self._fence:drop("lost")
        self._id = nil
        self._turn, self._turn_by = self._turn + 1, "loss"
        self:_reachable()
        self:_report("lease", "lost", "error",
            ("machine id %.0f lost: its key expired or has another holder"):format(id))
        return nil, ("lease: machine id %.0f lost (its key expired or has another holder)"):format(id)
    end
    local valid_for = self:_valid_for(sent)
    if valid_for <= 0 then
        return nil, "lease: the renewal's reply came after the lease's validity"
    end
    self._fence:hold(id, valid_for, self._floor, nil, last_ms)
    self:_reachable()
    self:_report("lease", "held", "notice", ("holds machine id %.0f again"):format(id))
    return true
end

function Lease:release()
    if self:_forked() then return nil, FORKED end
    -- The caller's last word, even with nothing held: a claim on its way
    -- is dropped, and start()'s timers claim nothing until acquire() or
    -- start() is called again.
    self._turn, self._turn_by = self._turn + 1, "release"
    self._stopped = true
    local id = self._id
    if not id then return nil, "lease: not held" end
    -- Refuse first: from here on nothing is minted with id, so the floor
    -- below is above every ID minted with it.
    self._fence:drop("released")
    self._id, self._prefer = nil, nil
    local token = self._token
    self._token = new_token()
    self:_report("lease", "released", "notice", ("released machine id %.0f"):format(id))
    -- The release floor: the clock now, or (a clock gone wrong) the one the
    -- id was held with, whose renewals raised the stored floor past it.
    local wall = self:_wall() or self._floor
    local res, err = eval(self._connect, M.RELEASE,
        { self._prefix .. ms_text(id), self._floor_key, self._index_key, self:_token_key(token) },
        { token, ms_text(id), ms_text(wall) })
    if not res then return nil, "lease: store unreachable (" .. err .. "); its key expires by itself" end
    local owned, rerr = owned_reply(res, "release")
    if not owned then return nil, rerr end
    if owned ~= 1 then return nil, ("lease: machine id %.0f was no longer held"):format(id) end
    return true
end

function Lease:machine_id()
    return self._fence:machine_id()
end

-- The fence's state: "unheld", "held", "waiting", "expired", "released",
-- "lost" or "forked", and for "held"/"waiting" the seconds left.
function Lease:state()
    return self._fence:state()
end

-- Does what is due now: a claim while no id is held, a renewal every
-- renew_every (jittered), retries with backoff after a failure. Returns the
-- seconds until it has something to do again. A loop of plain Lua calls it
-- now and then; start() calls it from ngx timers. Never waits for a floor.
function Lease:step()
    local now = self._fence:clock()
    -- After release(): nothing until acquire() or start() is called again.
    if self._stopped then return self._renew_every end
    if now < self._next_step then return self._next_step - now end
    local had = self._id
    local ok
    if had then ok = self:renew() else ok = self:_claim() end
    local delay
    if ok then
        self._backoff = nil
        delay = self._renew_every * jitter(0.1)
    elseif had and not self._id then
        delay = 0 -- just lost: claim again at once
    else
        self._backoff = min(self._renew_every, (self._backoff or self._renew_every / 8) * 2)
        delay = self._backoff * jitter(0.2)
    end
    if self._id and self._fence:state() == "expired" then
        self:_report("lease", "expired", "error",
            ("machine id %.0f: past its deadline, generators refuse"):format(self._id))
    end
    self._next_step = now + delay
    return delay
end

-- OpenResty: from init_worker_by_lua*, claims in a timer (no cosockets in
-- init phases) and renews from ngx.timer.every; never from a request. A
-- worker that starts exiting (reload, quit) stops renewing, so its
-- generators refuse after the lease's deadline.
function Lease:start()
    if not (ngx and ngx.timer) then error("lease:start() needs OpenResty (ngx.timer)", 2) end
    if self:_forked() then error(FORKED, 2) end
    if self._started then
        -- After release(): the timers run on; they may claim again.
        if not self._stopped then error("lease:start(): already started", 2) end
        self._stopped, self._next_step = nil, 0
        return true
    end
    self._started = true
    local function run(premature)
        if premature or ngx.worker.exiting() then
            self:_report("lease", "stopped", "notice",
                "worker exiting: renewals stop, generators refuse after the deadline")
            return
        end
        if self._busy then return end
        self._busy = true
        local ok, err = pcall(self.step, self)
        self._busy = false
        if not ok then self:_report("lease", "failed", "error", "step failed: " .. one_line(err)) end
    end
    local ok, err = ngx.timer.at(0, run)
    if not ok then error("lease:start(): " .. tostring(err), 2) end
    local tick = max(0.05, min(1, self._renew_every / 5))
    ok, err = ngx.timer.every(tick, run)
    if not ok then error("lease:start(): " .. tostring(err), 2) end
    return true
end

---------------------------------------------------------------------------
-- For operators (`mintid lease`): who holds which id of a namespace.

-- holders{ connect, namespace, machine_ids } -> an array of
-- { id = i, expires_in = seconds or math.huge, floor = Unix ms } in the
-- order of the ids, or nil, message. The ids to look at come from the floor
-- hash, whose fields are the ids ever claimed, a page of HSCAN at a time:
-- the work follows the ids the namespace used (claims reuse ids before
-- taking new ones), never the range's size (2^32 ids for 32 machine bits).
-- Each page is two scripts: no script walks the hash or many keys.
M.HOLDERS_PAGE = 1024

-- The ids a page of the scan names, checked: the next cursor (text) and
-- the ids as text, or nil, message.
local function scan_page(res)
    if type(res) == "table" and res[1] == "junk" and type(res[2]) == "string" then
        return nil, "the store refused the listing: " .. res[2]
    end
    local cursor = type(res) == "table" and res[1]
    cursor = type(cursor) == "number" and ms_text(cursor) or cursor
    if type(cursor) ~= "string" or not cursor:match("^%d+$") then
        return nil, "unexpected reply to a listing: " .. shown(res)
    end
    local ids = {}
    for i = 2, #res do
        local id = tonumber(res[i])
        if not id then return nil, "unexpected reply to a listing: " .. shown(res) end
        ids[#ids + 1] = ms_text(id)
    end
    return cursor, ids
end

function M.holders(opts)
    local o = read_options("holders", opts, HOLDERS_OPTIONS, { "connect", "namespace" })
    local list, seen = {}, {}
    local floor_key = "mintid:{" .. o.namespace .. "}:floor"
    local cursor = "0"
    repeat
        local res, err = eval(o.connect, M.HOLDERS_SCAN, { floor_key }, { cursor, M.HOLDERS_PAGE, o.lo, o.hi })
        if not res then return nil, err end
        local ids
        cursor, ids = scan_page(res)
        if not cursor then return nil, ids end
        -- HSCAN may name a field twice
        local fresh = {}
        for _, id in ipairs(ids) do
            if not seen[id] then fresh[#fresh + 1], seen[id] = id, true end
        end
        if #fresh > 0 then
            res, err = eval(o.connect, M.HOLDERS, M.keys(o.namespace, fresh), fresh)
            if not res then return nil, err end
            if type(res) ~= "table" or #res % 3 ~= 0 then
                return nil, "unexpected reply to a listing: " .. shown(res)
            end
            for i = 1, #res - 2, 3 do
                local id, left, floor_ms = tonumber(res[i]), tonumber(res[i + 1]), unix_ms(res[i + 2])
                if not (id and seen[ms_text(id)] and left) then
                    return nil, "unexpected reply to a listing: " .. shown(res)
                end
                if not floor_ms or tonumber(res[i + 2]) ~= floor_ms then
                    return nil, ("unexpected reply to a listing: the floor of machine id %.0f is not Unix ms: %s")
                        :format(id, tostring(res[i + 2]))
                end
                list[#list + 1] = { id = id, expires_in = left < 0 and huge or left / 1000, floor = floor_ms }
            end
        end
    until cursor == "0"
    table.sort(list, function(a, b) return a.id < b.id end)
    return list
end

return M
