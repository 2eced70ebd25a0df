-- lease.redis (lua/mintid/lease/redis.lua) against spec/fake_redis.lua, an
-- in-process store that runs the lease's own scripts, with fake clocks: the
-- store's clock moves on at the test's word (keys expire), each client's
-- wall clock may be set off from the others, and the store can go down,
-- lose a reply, reply late or lose every key. The monotonic clock is the
-- real one (the C fence's), so the lease's times here are tenths of a
-- second. No server: this runs in every busted stage.
local h = require "helper"
local mintid = require(h.module_name)
local lease = require "mintid.lease"
local fake_redis = require "fake_redis"
local lease_redis = require "mintid.lease.redis"

local TTL, MARGIN, DRIFT, SKEW, RENEW = 0.4, 0.05, 0.01, 0.05, 0.1
local VALID = TTL * (1 - DRIFT) - MARGIN -- 0.346 s from the sending
local TTL_MS, SKEW_MS = 400, 50

local socket_ok, socket = pcall(require, "socket")
local function sleep(s)
    if socket_ok then socket.sleep(s) else os.execute(("sleep %.3f"):format(s)) end
end

local c_mintid = require "mintid"
local function real_ms() return c_mintid.parse_ulid(c_mintid.ulid()):time() end

-- A wall clock offset_ms ahead of the real one.
local function clock_at(offset_ms)
    return function() return real_ms() + offset_ms end
end

local function new_store()
    local store = fake_redis.new()
    store.wall_ms, store.sleep = real_ms, sleep
    return store
end

-- A lease of `store` over ids lo..hi, its log lines kept in l.logged.
local function new_lease(store, opts)
    opts = opts or {}
    local logged = {}
    local o = {
        connect = store:connector(opts.style or "nil_err"), namespace = "spec",
        ttl = TTL, margin = MARGIN, drift = DRIFT, max_skew = SKEW, renew_every = RENEW,
        machine_ids = opts.machine_ids == nil and { 5, 5 } or opts.machine_ids or nil, sleep = sleep,
        log = function(level, message) logged[#logged + 1] = level .. ": " .. message end,
    }
    for k, v in pairs(opts) do if k ~= "style" and k ~= "machine_ids" then o[k] = v end end
    local l = lease.redis(o)
    l.logged = logged
    return l
end

-- The keys of machine ids in the store (the layout, a range's count and
-- index are the namespace's, not a holder's).
local function id_keys(store)
    local taken = {}
    for k in pairs(store.keys) do
        if k:match("^mintid:{spec}:m:") then taken[#taken + 1] = k end
    end
    return taken
end

local function generator(l, clock)
    return mintid.snowflake_generator { lease = l, clock = clock }
end

-- ms, machine id of a Snowflake ID
local function parts(id)
    local ms, machine = mintid.parse_snowflake(id)
    return ms, machine
end

-- Mints until the generator refuses (bounded): the IDs, the refusal.
local function mint_until_refused(g, seconds)
    local ids, t0 = {}, real_ms()
    while real_ms() - t0 < seconds * 1000 do
        local id, err = g:next()
        if not id then return ids, err end
        ids[#ids + 1] = id
        sleep(0.005)
    end
    return ids, nil
end

-- The first ID of a lease waiting for its floor, renewing it meanwhile (a
-- floor may outlast one renewal), within 2 s.
local function first_id(l, g)
    local t0 = real_ms()
    while real_ms() - t0 < 2000 do
        l:step()
        local id = g:next()
        if id then return id end
        sleep(0.005)
    end
    return nil
end

-- ga (an old holder) and gb (on lease b, stepped) mint side by side until
-- ga refuses and gb minted, 2 s at most: ga's last ID, gb's first, and the
-- count of IDs both made.
local function side_by_side(ga, b, gb)
    local seen, a_last, b_first, twice = {}, nil, nil, 0
    local t0 = real_ms()
    while real_ms() - t0 < 2000 and not (b_first and a_last and not ga:next()) do
        b:step()
        for _, g in ipairs { ga, gb } do
            local id = g:next()
            if id then
                if seen[id] then twice = twice + 1 end
                seen[id] = true
                if g == ga then a_last = id elseif not b_first then b_first = id end
            end
        end
        sleep(0.002)
    end
    return a_last, b_first, twice
end

local WAITING = "^snowflake: waiting for the previous holder's last ms %(until ms (%d+)%)$"
local function past_last(ms) return "snowflake: lease expired: the clock passed its last ms (" .. ms .. ")" end

describe("lease.redis on a fake store", function()
    describe("claim", function()
        it("takes a free id with a 128-bit token, PX ttl and the floor; mints after the quarantine", function()
            local store = new_store()
            local clock = clock_at(0)
            local l = new_lease(store, { machine_ids = { 3, 9 }, clock = clock })
            local before = real_ms()
            local id = l:acquire()
            assert.is_number(id)
            assert.is_true(id >= 3 and id <= 9, "id in 3..9, got " .. tostring(id))
            local key = store:get("mintid:{spec}:m:" .. id)
            assert.is_truthy(key, "the id's key is set")
            assert.is_truthy(key.value:match("^%x+$") and #key.value == 32, "a 32-hex-digit token, got " .. key.value)
            assert.is_true(key.expires - store:now_ms() <= TTL_MS, "PX is at most the ttl")
            local floor = tonumber(store.hashes["mintid:{spec}:floor"][tostring(id)])
            assert.is_true(floor >= before + TTL_MS, "stored floor >= wall ms at claim + ttl")
            -- acquire waited out ttl + max_skew: the first ID is past it
            local ms, machine = parts(assert(generator(l, clock):next()))
            assert.are.equal(id, machine)
            assert.is_true(ms > before + TTL_MS + SKEW_MS, "first ID's ms past the quarantine")
            assert.are.equal("held", (l:state()))
            assert.are.equal(id, l:machine_id())
        end)

        it("without waiting, the fence refuses until ttl + max_skew has passed", function()
            local store = new_store()
            local l = new_lease(store, { wait = false })
            local before = real_ms()
            assert.are.equal(5, l:acquire())
            local id, err = generator(l):next()
            assert.is_nil(id)
            local until_ms = tonumber((assert(err and err:match(WAITING), "the waiting message, got " .. tostring(err))))
            assert.is_true(until_ms >= before + TTL_MS + SKEW_MS and until_ms <= real_ms() + TTL_MS + SKEW_MS,
                "waits until claim wall ms + ttl + max_skew, got " .. until_ms)
            assert.are.equal("waiting", (l:state()))
        end)

        it("quarantine = false: a never-used id mints at once", function()
            local l = new_lease(new_store(), { quarantine = false, wait = false })
            assert.are.equal(5, l:acquire())
            assert.is_truthy(generator(l):next(), "an ID at once")
        end)

        it("two leases never share an id; a full range is a message", function()
            local store = new_store()
            local a = new_lease(store, { machine_ids = { 0, 1 }, wait = false })
            local b = new_lease(store, { machine_ids = { 0, 1 }, wait = false })
            local c = new_lease(store, { machine_ids = { 0, 1 }, wait = false })
            local ia, ib = a:acquire(), b:acquire()
            assert.are_not.equal(ia, ib)
            local ic, err = c:acquire()
            assert.is_nil(ic)
            assert.are.equal("lease: every machine id in 0..1 is taken", err)
        end)

        it("a claim whose reply was lost is found again by the retry: one key taken", function()
            local store = new_store()
            local l = new_lease(store, { machine_ids = { 0, 63 }, wait = false })
            store.lose_replies = 1
            local id, err = l:acquire()
            assert.is_nil(id)
            assert.are.equal("lease: store unreachable (timeout)", err)
            local taken = id_keys(store)
            assert.are.equal(1, #taken, "the lost claim took one key")
            id = assert(l:acquire())
            assert.are.equal("mintid:{spec}:m:" .. id, taken[1])
            assert.are.equal(1, #id_keys(store), "still one key after the retry")
        end)
    end)

    describe("acquire", function()
        it("returns nil, message when the lease expired while it waited out the quarantine", function()
            local store = new_store()
            local l = new_lease(store) -- the quarantine (0.45 s) outlasts the validity (0.346 s)
            store.on_reply = function() store.down = true end -- unreachable right after the claim
            local id, err = l:acquire()
            assert.are.equal(nil, id)
            assert.is_truthy(err and err:match("^lease: machine id 5 expired while waiting out its floor %(lease: "
                .. "store unreachable %(cannot connect: connection refused%); machine id 5 [^)]*%)$"), err)
            assert.are.equal("snowflake: lease expired", select(2, generator(l):next()))
            store.down = false
            assert.are.equal(5, l:acquire(), "the key is still ours once the store is back")
            assert.are.equal("held", (l:state()))
        end)

        -- Units of 5 s: the first unit after the floor (the quarantine,
        -- 0.45 s on) starts `gap` ms after it. acquire() waits for that
        -- start only within ttl + max_skew + 1 s, sleeping until it (or a
        -- renewal), never in steps of 1 ms.
        for _, case in ipairs { { gap = 500, state = "held" }, { gap = 3000, state = "waiting" } } do
            it(("units over 1 s, the first after the floor %d ms after it: waits %s"):format(case.gap,
                case.state == "held" and "until it starts" or "no longer than ttl + max_skew + 1 s"), function()
                local t0, unit = real_ms(), 5000
                local layout = { time_bits = 41, time_unit_ms = unit, machine_bits = 10, seq_bits = 12,
                                 epoch = t0 + TTL_MS + SKEW_MS + case.gap - unit }
                local sleeps = 0
                local l = new_lease(new_store(), { layout = layout, sleep = function(s)
                    sleeps = sleeps + 1
                    sleep(s)
                end })
                assert.are.equal(5, l:acquire())
                local took = real_ms() - t0
                assert.are.equal(case.state, (l:state()))
                assert.is_true(took <= TTL_MS + SKEW_MS + 1000 + 150, "acquire() took " .. took .. " ms")
                -- a sleep or two per renewal (every 0.1 s: a sleep may wake a
                -- little early), and one to the unit's start: never 1 ms steps
                assert.is_true(sleeps <= 3 * math.ceil(took / (RENEW * 1000)) + 3, sleeps .. " sleeps in " .. took .. " ms")
                local id, err = generator(l):next()
                if case.state == "held" then
                    assert.is_truthy(id, err)
                else
                    assert.is_truthy(err:match(WAITING), err)
                end
            end)
        end
    end)

    describe("release stops the background work", function()
        it("step() claims nothing after release() until acquire() is called again", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.equal(5, l:acquire())
            assert.is_true(l:release())
            for _ = 1, 3 do
                l._next_step = 0 -- every step due at once
                l:step()
            end
            assert.are.equal("released", (l:state()))
            assert.is_nil(store:get("mintid:{spec}:m:5"), "no key claimed by step()")
            assert.are.equal(5, l:acquire())
            l._next_step = 0
            l:step()
            assert.are.equal("held", (l:state()), "renewed by step() again after acquire()")
        end)

        it("release() with nothing held stops step() too", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.same({ nil, "lease: not held" }, { l:release() })
            l:step()
            assert.are.equal("unheld", (l:state()))
            assert.is_nil(next(store.keys), "no key claimed by step()")
        end)
    end)

    describe("deadline", function()
        it("a holder that stops renewing refuses after ttl * (1 - drift) - margin", function()
            local l = new_lease(new_store(), { quarantine = false })
            assert.are.equal(5, l:acquire())
            local g = generator(l)
            local t0 = real_ms()
            local ids, err = mint_until_refused(g, 2)
            assert.are.equal("snowflake: lease expired", err)
            -- by the IDs' own times, not by when the refusal was seen: a
            -- busy machine may see it late, but mints nothing past it
            local lasted = #ids > 0 and (parts(ids[#ids]) - t0) / 1000
            assert.is_true(lasted and lasted <= VALID + 0.05,
                ("last ID %s s after the claim, want <= %.3f"):format(tostring(lasted), VALID))
            assert.is_nil(l:machine_id())
        end)

        it("counts from when the renewal was sent: a slow reply shortens the lease", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.equal(5, l:acquire())
            store.reply_delay = 0.15
            assert.is_true(l:renew())
            local _, left = l:state()
            assert.is_true(left <= VALID - 0.15 + 0.01, ("%.3f s left, want <= %.3f"):format(left, VALID - 0.15))
            store.reply_delay = VALID + 0.05
            local ok, err = l:renew()
            assert.is_nil(ok)
            assert.are.equal("lease: the renewal's reply came after the lease's validity", err)
            assert.are.equal("snowflake: lease expired", select(2, generator(l):next()))
        end)

        it("a lost renewal reply keeps the earlier deadline, though the store renewed", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.equal(5, l:acquire())
            local g = generator(l)
            local t0 = real_ms()
            local claimed_until = store.keys["mintid:{spec}:m:5"].expires
            sleep(0.1)
            store.lose_replies = 1
            local ok, err = l:renew()
            assert.is_nil(ok)
            assert.is_truthy(err:match("^lease: store unreachable %(timeout%); machine id 5 usable for 0%.%d s more$"), err)
            -- the store did renew: the key's expiry moved on by the sleep
            local renewed_until = store.keys["mintid:{spec}:m:5"].expires
            assert.is_true(renewed_until >= claimed_until + 90, "the store renewed the key: its expiry moved "
                .. (renewed_until - claimed_until) .. " ms")
            local ids, refusal = mint_until_refused(g, 2)
            assert.are.equal("snowflake: lease expired", refusal)
            -- the IDs' own times (none at all on a machine slow enough to
            -- pass the deadline before minting): none past the claim's
            local last = #ids > 0 and parts(ids[#ids]) or t0
            assert.is_true(last - t0 <= (VALID + 0.05) * 1000, "refused by the claim's deadline: last ID "
                .. (last - t0) .. " ms after it")
            -- the key is still ours: the next renewal holds it again. The
            -- lease refuses some 54 ms before the key expires; a machine
            -- that takes longer than that to get from the refusal to the
            -- store (an emulated CPU under load) finds the key gone, as it
            -- must, and only then may the renewal fail.
            local sent = real_ms()
            local again, again_err = l:renew()
            if not again and sent >= renewed_until - 25 then
                assert.are.equal("lease: machine id 5 lost (its key expired or has another holder)", again_err)
            else
                assert.is_true(again, again_err)
                assert.is_truthy(g:next(), "minting again after a good renewal")
            end
        end)
    end)

    -- A client that yields between send and reply (a cosocket) lets a
    -- request's call run while the timer's renewal or claim is on its way:
    -- the caller's last word wins, a reply that comes after it changes nothing.
    describe("a reply that arrives after the caller's last word", function()
        local LATE_RENEWAL = "lease: the renewal's reply came after a release, a loss or another claim: dropped"
        local LATE_CLAIM = "lease: the claim's reply came after a release: dropped"

        it("a renewal's reply after release() changes nothing", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.equal(5, l:acquire())
            local g = generator(l)
            store.on_reply = function() assert.is_true(l:release()) end
            local ok, err = l:renew()
            assert.are.equal(nil, ok)
            assert.are.equal(LATE_RENEWAL, err)
            assert.are.equal("released", (l:state()))
            assert.are.equal(nil, l:machine_id())
            assert.are.equal("snowflake: lease released", select(2, g:next()))
            assert.is_nil(store:get("mintid:{spec}:m:5"), "no key in the store")
        end)

        it("a renewal's reply after a loss changes nothing", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.equal(5, l:acquire())
            store.on_reply = function()
                store:flush()
                assert.are.equal(nil, (l:renew()))
            end
            local ok, err = l:renew()
            assert.are.equal(nil, ok)
            assert.are.equal(LATE_RENEWAL, err)
            assert.are.equal("lost", (l:state()))
            assert.are.equal("snowflake: lease lost", select(2, generator(l):next()))
        end)

        it("a renewal's reply after a loss and another claim changes nothing", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false, machine_ids = { 5, 6 } })
            local first = assert(l:acquire())
            local other = new_lease(store, { quarantine = false, machine_ids = { first, first } })
            local second
            store.on_reply = function()
                store:flush()
                assert.are.equal(nil, (l:renew())) -- lost
                assert.are.equal(first, other:acquire()) -- another process takes it
                second = assert(l:acquire())
            end
            local ok, err = l:renew()
            assert.are.equal(nil, ok)
            assert.are.equal(LATE_RENEWAL, err)
            assert.are_not.equal(first, second)
            assert.are.equal(second, l:machine_id(), "the new claim's id, never the one other holds")
            assert.are.equal(second, select(2, parts(assert(generator(l):next()))))
        end)

        -- One lease's two claims carry one token: the store hands both the
        -- same id, and the one that answers last finds it held.
        it("a claim's reply after another claim of the lease (start()'s timer, acquire()): the id held", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false, wait = false, machine_ids = { 5, 6 } })
            store.on_reply = function() l:step() end
            assert.are.equal(5, l:acquire(), "acquire() whose claim overlapped the timer's")
            assert.are.equal(5, l:machine_id())
            assert.are.same({ "mintid:{spec}:m:5" }, id_keys(store))
            local other = new_lease(store, { quarantine = false, wait = false, machine_ids = { 5, 6 } })
            local got
            store.on_reply = function() got = other:acquire() end
            other:step()
            assert.are.equal(6, got)
            assert.are.equal(6, other:machine_id(), "the timer's claim that overlapped acquire()")
            -- the later claim found the earlier one's floor: minted after it
            assert.are.equal(5, select(2, parts(assert(first_id(l, generator(l))))))
        end)

        it("a claim's reply after a loss: dropped, saying so", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false, wait = false })
            assert.are.equal(5, l:acquire())
            store.on_reply = function()
                store:flush()
                assert.are.equal(nil, (l:renew()))
            end
            local id, err = l:_claim()
            assert.are.equal(nil, id)
            assert.are.equal("lease: the claim's reply came after a loss: dropped", err)
        end)

        it("a claim's reply after release() changes nothing", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false, wait = false })
            store.on_reply = function() l:release() end
            local id, err = l:acquire()
            assert.are.equal(nil, id)
            assert.are.equal(LATE_CLAIM, err)
            assert.are.equal("unheld", (l:state()))
            assert.are.equal("snowflake: lease not held yet", select(2, generator(l):next()))
        end)
    end)

    describe("acquire past the deadline", function()
        it("renews a key still its own, keeping the id; with the store down, says so", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.equal(5, l:acquire())
            sleep(VALID + 0.02)
            assert.are.equal("expired", (l:state()))
            store.down = true
            local id, err = l:acquire()
            assert.is_nil(id)
            assert.are.equal("lease: store unreachable (cannot connect: connection refused); "
                .. "machine id 5 past its deadline", err)
            store.down = false
            assert.are.equal(5, l:acquire())
            assert.are.equal("held", (l:state()))
        end)
    end)

    describe("a paused holder", function()
        it("refuses on waking; the new holder mints only past its floor; no ID twice", function()
            local store = new_store()
            local a = new_lease(store, { quarantine = false })
            local b = new_lease(store, { quarantine = false, wait = false })
            assert.are.equal(5, a:acquire())
            local ga = generator(a)
            local a_ids = mint_until_refused(ga, 0.1)
            -- a is paused: no renewal; the store's clock runs past the ttl
            store:advance(TTL + 0.1)
            local floor = tonumber(store.hashes["mintid:{spec}:floor"]["5"])
            assert.are.equal(5, b:acquire())
            local gb = generator(b)
            local id, err = gb:next()
            if id == nil then
                assert.are.equal(floor, tonumber(err:match(WAITING)), "b waits for a's stored floor")
            end
            sleep(VALID)
            local more, refusal = mint_until_refused(ga, 0.2)
            assert.are.equal(0, #more, "a mints nothing on waking")
            assert.are.equal("snowflake: lease expired", refusal)
            local ok, rerr = a:renew()
            assert.is_nil(ok)
            assert.are.equal("lease: machine id 5 lost (its key expired or has another holder)", rerr)
            assert.are.equal("lost", (a:state()))
            assert.are.equal("snowflake: lease lost", select(2, ga:next()))
            local last_a = parts(a_ids[#a_ids])
            local first_b = parts(assert(first_id(b, gb)))
            assert.is_true(first_b > floor and first_b > last_a,
                ("b's first ms %d > floor %d > a's last ms %d"):format(first_b, floor, last_a))
        end)
    end)

    describe("a suspended machine", function()
        -- A suspend stops the monotonic clock of the fence's deadline while
        -- the store's expiry and every wall clock go on: on waking, the
        -- holder is inside its deadline, its key gone to the next holder,
        -- whose floor is the one the holder gave the store.
        it("the old holder stops at its last ms, inside its deadline; the next holder never overlaps it", function()
            local store = new_store()
            local slept_ms = 0
            local function wall() return real_ms() + slept_ms end
            local a = new_lease(store, { quarantine = false, clock = wall })
            local b = new_lease(store, { quarantine = false, wait = false, clock = wall })
            assert.are.equal(5, a:acquire())
            local a_last_ms = tonumber(store.hashes["mintid:{spec}:floor"]["5"])
            local ga = generator(a, wall)
            assert.is_truthy(ga:next(), "a mints before the suspend")
            store:advance(1)
            slept_ms = 1000
            assert.are.equal(5, b:acquire())
            local gb = generator(b, wall)
            assert.are.same({ nil, past_last(a_last_ms) }, { ga:next() }, "a on waking, inside its deadline")
            local seen, twice, a_after = {}, 0, 0
            local t0 = real_ms()
            while real_ms() - t0 < 50 do
                for _, g in ipairs { ga, gb } do
                    local id = g:next()
                    if id then
                        if seen[id] then twice = twice + 1 end
                        seen[id] = true
                        if g == ga then a_after = a_after + 1 end
                    end
                end
            end
            assert.are.equal(0, a_after, "IDs a minted after the suspend")
            assert.are.equal(0, twice, "IDs minted by both")
            assert.is_true(next(seen) ~= nil, "b minted")
        end)

        it("a renewal after waking holds with a new last ms: minting goes on if the key is still its own", function()
            local store = new_store()
            local slept_ms = 0
            local function wall() return real_ms() + slept_ms end
            local a = new_lease(store, { quarantine = false, clock = wall })
            assert.are.equal(5, a:acquire())
            local ga = generator(a, wall)
            slept_ms = 1000 -- a wall clock stepped ahead (the store's expiry did not move)
            local id, refusal = ga:next()
            assert.is_nil(id, "past the last ms")
            assert.is_truthy(refusal:find("the clock passed its last ms", 1, true), refusal)
            assert.is_true(a:renew())
            assert.is_truthy(ga:next(), "a mints again after the renewal")
        end)
    end)

    describe("data loss", function()
        it("with quarantine, a holder the store forgot and the next one never overlap", function()
            local store = new_store()
            local a = new_lease(store, { quarantine = false })
            local b = new_lease(store, { wait = false })
            assert.are.equal(5, a:acquire())
            local ga = generator(a)
            store:flush() -- restart without persistence: key and floor gone
            assert.are.equal(5, b:acquire())
            local gb = generator(b)
            local a_last, b_first, twice = side_by_side(ga, b, gb)
            assert.are.equal(0, twice, "IDs minted by both")
            assert.is_truthy(a_last, "a minted until its deadline")
            assert.is_truthy(b_first, "b minted after its quarantine")
            assert.is_true(parts(b_first) > parts(a_last), "b's first ID after a's last")
        end)

        -- The quarantine counts from after the claim's reply: a claimer
        -- slow to connect (or paused) while the old holder renews must not
        -- let that holder mint past the new one's floor once the store
        -- forgets the key.
        it("with quarantine, a claim slow to reach the store still never overlaps the holder it forgot", function()
            local store = new_store()
            local a = new_lease(store, { quarantine = false })
            local b = new_lease(store, { wait = false })
            assert.are.equal(5, a:acquire())
            local ga = generator(a)
            store.on_connect = function()
                sleep(0.18) -- more than ttl * drift + margin + max_skew (0.104 s), less than the validity: a renews meanwhile
                assert.is_true(a:renew())
                store:flush()
            end
            assert.are.equal(5, b:acquire())
            local gb = generator(b)
            local a_last, b_first, twice = side_by_side(ga, b, gb)
            assert.is_truthy(a_last, "a minted until its deadline")
            assert.is_truthy(b_first, "b minted after its quarantine")
            assert.is_true(parts(b_first) > parts(a_last),
                ("b's first ms %d after a's last %d"):format(parts(b_first), parts(a_last)))
            assert.are.equal(0, twice, "IDs minted by both")
        end)

        it("quarantine = false is unsafe when the store loses writes: the two overlap", function()
            local store = new_store()
            local a = new_lease(store, { quarantine = false })
            local b = new_lease(store, { quarantine = false, wait = false })
            assert.are.equal(5, a:acquire())
            local ga = generator(a)
            store:flush()
            assert.are.equal(5, b:acquire())
            local gb = generator(b)
            local b_first = assert(gb:next())
            local a_next = assert(ga:next())
            assert.is_true(parts(a_next) >= parts(b_first), "both mint with id 5 in the same ms range")
        end)
    end)

    describe("clock offsets and the floor", function()
        it("a next holder whose clock is behind waits until it passes the release floor", function()
            local store = new_store()
            local ahead, behind = clock_at(300), clock_at(0)
            local a = new_lease(store, { quarantine = false, clock = ahead })
            local b = new_lease(store, { quarantine = false, clock = behind, wait = false })
            assert.are.equal(5, a:acquire())
            local a_ids = mint_until_refused(generator(a, ahead), 0.05)
            assert.is_true(a:release())
            assert.are.equal("snowflake: lease released", select(2, generator(a, ahead):next()))
            assert.is_nil(store:get("mintid:{spec}:m:5"), "release deletes the key")
            local floor = tonumber(store.hashes["mintid:{spec}:floor"]["5"])
            assert.is_true(floor >= parts(a_ids[#a_ids]), "release floor >= a's last ms")
            assert.are.equal(5, b:acquire())
            local gb = generator(b, behind)
            local _, err = gb:next()
            assert.are.equal(floor, tonumber((assert(err and err:match(WAITING), tostring(err)))))
            assert.is_true(parts(assert(first_id(b, gb))) > floor, "b mints only past a's floor")
        end)

        it("renewals raise the stored floor to wall ms at sending + ttl", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false, clock = clock_at(5000) })
            assert.are.equal(5, l:acquire())
            local sent = real_ms() + 5000
            assert.is_true(l:renew())
            local floor = tonumber(store.hashes["mintid:{spec}:floor"]["5"])
            assert.is_true(floor >= sent + TTL_MS and floor <= real_ms() + 5000 + TTL_MS,
                ("floor %d = this clock at sending + ttl"):format(floor))
        end)
    end)

    describe("ownership", function()
        it("renews and releases only a key that holds its token", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.equal(5, l:acquire())
            local key = store:get("mintid:{spec}:m:5")
            key.value, key.expires = "someone else", store:now_ms() + 60000
            local ok, err = l:renew()
            assert.is_nil(ok)
            assert.are.equal("lease: machine id 5 lost (its key expired or has another holder)", err)
            assert.are.equal("someone else", store:get("mintid:{spec}:m:5").value)
            assert.is_true(store:get("mintid:{spec}:m:5").expires - store:now_ms() > 50000, "its expiry untouched")
            assert.are.same({ nil, "lease: not held" }, { l:release() })
        end)
    end)

    describe("an outage", function()
        for _, style in ipairs { "nil_err", "raise" } do
            it("(" .. style .. " client) mints until the deadline, retries with backoff, logs changes only", function()
                local store = new_store()
                local l = new_lease(store, { quarantine = false, style = style })
                assert.are.equal(5, l:acquire())
                local g = generator(l)
                store.down = true
                local connects, steps, minted, refusal = store.connects, 0, 0, nil
                local t0 = real_ms()
                while real_ms() - t0 < 800 do
                    l:step()
                    steps = steps + 1
                    local id, err = g:next()
                    if id then minted = minted + 1 else refusal = err end
                    sleep(0.01)
                end
                assert.is_true(minted > 0, "minted during the outage")
                assert.are.equal("snowflake: lease expired", refusal)
                local tries = store.connects - connects
                -- backoff capped at renew_every (0.1 s, jitter 20 %): at most
                -- 12 tries in the 0.8 s, however many steps a fast or an
                -- emulated host makes (natively ~80, each a try without backoff)
                assert.is_true(tries >= 2 and tries <= 12, ("%d tries in %d steps"):format(tries, steps))
                assert.are.equal(2, #l.logged - 1, "two lines after the claim's: " .. table.concat(l.logged, " | "))
                local unreachable = "^warn: store unreachable, machine id 5 usable for .*: cannot connect: .*connection refused"
                assert.is_truthy(l.logged[2]:match(unreachable), l.logged[2])
                assert.are.equal("error: machine id 5: past its deadline, generators refuse", l.logged[3])
                -- back up: the key expired meanwhile, so the id is claimed again
                store.down = false
                store:advance(TTL)
                assert.is_truthy(first_id(l, g), "minting again")
                assert.are.equal(5, l:machine_id())
                assert.are.equal("notice: store reachable again", l.logged[4])
            end)
        end

        it("a store that is down is a message from acquire", function()
            local store = new_store()
            store.down = true
            local l = new_lease(store, { style = "raise" })
            local id, err = l:acquire()
            assert.is_nil(id)
            assert.is_truthy(err:match("^lease: store unreachable %(cannot connect: .*connection refused%]%)$"), err)
        end)
    end)

    describe("fork", function()
        it("a lease made before fork() refuses in the child", function()
            local l = new_lease(new_store(), { quarantine = false })
            assert.are.equal(5, l:acquire())
            local out = h.in_child(function()
                local _, err = l:renew()
                return err .. "|" .. tostring(l:machine_id())
            end)
            assert.are.equal("lease: made in another process (before fork()): make one in each process|nil", out)
        end)

        -- Its token is the parent's, drawn at construction, and a claim
        -- treats a key holding our token as ours: a child of a lease never
        -- held (or released, or lost) would take the very id the parent
        -- holds. Refused whatever the state, by every call.
        local FORKED = "lease: made in another process (before fork()): make one in each process"
        for _, case in ipairs({ "never acquired", "released", "lost" }) do
            it("a lease made before fork() and " .. case .. " there refuses every call in the child", function()
                local store = new_store()
                local l = new_lease(store, { quarantine = false })
                if case ~= "never acquired" then
                    assert.are.equal(5, l:acquire())
                    if case == "released" then
                        assert.is_true(l:release())
                    else
                        store:flush()
                        assert.is_nil(l:renew())
                    end
                end
                local out = h.in_child(function()
                    local got = {}
                    for _, method in ipairs({ "acquire", "renew", "release" }) do
                        local v, err = l[method](l)
                        got[#got + 1] = method .. "=" .. tostring(v) .. ":" .. tostring(err)
                    end
                    got[#got + 1] = "step=" .. tostring(pcall(l.step, l)) .. ":" .. tostring(l:machine_id())
                    got[#got + 1] = "state=" .. l:state()
                    got[#got + 1] = "keys=" .. tostring(#id_keys(store) > 0)
                    return table.concat(got, " ")
                end)
                assert.are.equal("acquire=nil:" .. FORKED .. " renew=nil:" .. FORKED .. " release=nil:" .. FORKED
                    .. " step=true:nil state=forked keys=false", out)
            end)
        end

    end)

    -- A broken store or client never makes a call raise, and never reaches
    -- the fence with a value it has not checked: nil, message.
    describe("a broken store or client", function()
        -- A lease over ids 5..5 whose connect() gives what `give` returns.
        local function lease_of(give, opts)
            opts = opts or {}
            opts.connect = give
            opts.quarantine = false
            return new_lease(new_store(), opts)
        end
        local function replying(reply)
            return function() return { eval = function() return reply end } end
        end

        local claims = {
            { "connect() returning true", function() return true end,
                "lease: store unreachable (cannot connect: connect() returned a boolean, not a client with :eval)" },
            { "connect() returning a number", function() return 5 end,
                "lease: store unreachable (cannot connect: connect() returned a number, not a client with :eval)" },
            { "a claim replying a number", replying(7), "lease: unexpected reply to a claim: a number (7)" },
            { "a claim replying true", replying(true), "lease: unexpected reply to a claim: a boolean (true)" },
            { "a claim replying an empty table", replying({}), "lease: unexpected reply to a claim: {}" },
            { "a claim replying a table of strings", replying({ "x", "y" }),
                "lease: unexpected reply to a claim: {\"x\", \"y\"}" },
            { "a claim replying an id outside the range", replying({ 2000, "0" }),
                "lease: unexpected reply to a claim: {2000, \"0\"}" },
            { "a claim replying a floor of 1e999", replying({ 5, "1e999" }),
                "lease: unexpected reply to a claim: {5, \"1e999\"}" },
            { "a claim replying a fractional floor", replying({ 5, "12.5" }),
                "lease: unexpected reply to a claim: {5, \"12.5\"}" },
        }
        for _, case in ipairs(claims) do
            it("acquire() with " .. case[1] .. ": nil, message", function()
                local l = lease_of(case[2])
                local ok, id, err = pcall(l.acquire, l)
                assert.is_true(ok, "acquire raised: " .. tostring(id))
                assert.are.equal(nil, id)
                assert.are.equal(case[3], err)
                assert.are.equal("unheld", (l:state()))
            end)
        end

        it("a renewal replying junk is a failure that keeps the deadline", function()
            local store = new_store()
            local reply
            local good = store:connector("nil_err")
            local l = new_lease(store, { quarantine = false, connect = function()
                if reply == nil then return good() end
                return { eval = function() return reply end }
            end })
            assert.are.equal(5, l:acquire())
            for _, junk in ipairs({ 7, true, {}, "yes" }) do
                reply = junk
                local ok, res, err = pcall(l.renew, l)
                assert.is_true(ok, "renew raised: " .. tostring(res))
                assert.are.equal(nil, res)
                assert.is_truthy(err:match("^lease: unexpected reply to a renewal: "), err)
                assert.are.equal("held", (l:state()), "the lease stays usable until its deadline")
            end
        end)

        it("a non-numeric floor of the id: nil, message, and no key left taken", function()
            local store = new_store()
            store.hashes["mintid:{spec}:floor"] = { ["5"] = "abc" }
            local l = new_lease(store, { quarantine = false })
            local id, err = l:acquire()
            assert.are.equal(nil, id)
            assert.are.equal("lease: the store refused the claim: the floor of machine id 5 in mintid:{spec}:floor "
                .. "is not Unix ms: abc", err)
            assert.is_nil(next(store.keys), "no key taken")
        end)

        it("a floor key of another type: nil, message, and no key left taken", function()
            local store = new_store()
            store.keys["mintid:{spec}:floor"] = { value = "junk" }
            local l = new_lease(store, { quarantine = false })
            local id, err = l:acquire()
            assert.are.equal(nil, id)
            assert.are.equal("lease: the store refused the claim: mintid:{spec}:floor is a string, not a hash", err)
            local n = 0
            for _ in pairs(store.keys) do n = n + 1 end
            assert.are.equal(1, n, "no key taken besides the junk")
            local ok, rerr = pcall(l.renew, l)
            assert.is_true(ok, rerr)
        end)

        it("an id's key of another type counts as taken", function()
            local store = new_store()
            store.hashes["mintid:{spec}:m:5"] = { a = "b" }
            local l = new_lease(store, { quarantine = false, machine_ids = { 5, 6 } })
            assert.are.equal(6, l:acquire())
            local only = new_lease(store, { quarantine = false })
            assert.are.same({ nil, "lease: every machine id in 5..5 is taken" }, { only:acquire() })
        end)

        it("renew and release refuse a junk floor without a partial write", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.equal(5, l:acquire())
            local expires = store:get("mintid:{spec}:m:5").expires
            store.hashes["mintid:{spec}:floor"]["5"] = "abc"
            sleep(0.01)
            local ok, err = l:renew()
            assert.are.equal(nil, ok)
            assert.are.equal("lease: the store refused the renewal: the floor of machine id 5 in mintid:{spec}:floor "
                .. "is not Unix ms: abc", err)
            assert.are.equal(expires, store:get("mintid:{spec}:m:5").expires, "the key's expiry untouched")
            ok, err = l:release()
            assert.are.equal(nil, ok)
            assert.are.equal("lease: the store refused the release: the floor of machine id 5 in mintid:{spec}:floor "
                .. "is not Unix ms: abc", err)
            assert.is_truthy(store:get("mintid:{spec}:m:5"), "the key left to expire")
            assert.are.equal("released", (l:state()), "released here whatever the store said")
        end)

        it("holders() with a junk floor: nil, message", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.equal(5, l:acquire())
            store.hashes["mintid:{spec}:floor"]["5"] = "abc"
            local list, err = require("mintid.lease.redis").holders {
                connect = store:connector("raise"), namespace = "spec", machine_ids = { 0, 9 },
            }
            assert.are.equal(nil, list)
            assert.are.equal("unexpected reply to a listing: the floor of machine id 5 is not Unix ms: abc", err)
        end)
    end)

    describe("the clock option", function()
        it("fractional ms (ngx.now() * 1000) are floored: the lease works", function()
            local store = new_store()
            local clock = function() return real_ms() + 0.75 end
            local l = new_lease(store, { clock = clock, wait = true })
            assert.are.equal(5, l:acquire())
            assert.is_true(l:renew())
            assert.is_truthy(generator(l):next())
            assert.is_true(l:release())
            local floor = store.hashes["mintid:{spec}:floor"]["5"]
            assert.is_truthy(floor:match("^%d+$"), "an integer floor stored, got " .. floor)
        end)

        for _, case in ipairs({ { "a string", "soon" }, { "nil", nil }, { "NaN", 0 / 0 }, { "1e300", 1e300 },
                                { "a negative number", -5 } }) do
            it("returning " .. case[1] .. ": nil, message before any key is taken", function()
                local store = new_store()
                local l = new_lease(store, { clock = function() return case[2] end })
                local ok, id, err = pcall(l.acquire, l)
                assert.is_true(ok, "acquire raised: " .. tostring(id))
                assert.are.equal(nil, id)
                assert.is_truthy(err:match("^lease: option 'clock' returned .*, not Unix ms$"), err)
                assert.is_nil(next(store.keys), "no key taken")
            end)
        end
    end)

    describe("holders", function()
        it("lists the ids held, their expiry and floor", function()
            local store = new_store()
            local l = new_lease(store, { quarantine = false })
            assert.are.equal(5, l:acquire())
            local list = assert(require("mintid.lease.redis").holders {
                connect = store:connector("raise"), namespace = "spec", machine_ids = { 0, 9 },
            })
            assert.are.equal(1, #list)
            assert.are.equal(5, list[1].id)
            assert.is_true(list[1].expires_in > 0 and list[1].expires_in <= TTL)
            assert.are.equal(tonumber(store.hashes["mintid:{spec}:floor"]["5"]), list[1].floor)
        end)

        -- Found through the floor hash, which has a field for every id ever
        -- claimed (HSCAN, a page a script): the work follows the ids used,
        -- not the range, which 32 machine bits make 2^32 ids.
        it("walks the ids ever claimed, not the range: 32 machine bits in a few scripts", function()
            local store = new_store()
            local layout = { time_bits = 21, machine_bits = 32, seq_bits = 10 }
            local held = {}
            -- held for 30 s, not the 0.4 s of the other cases: the listing
            -- below scans 3000 fields, seconds under qemu on a busy machine,
            -- and must find the three ids still held
            for _, range in ipairs { { 0, 0 }, { 123456789, 123456789 }, { 4294967295, 4294967295 }, { 77, 77 } } do
                local l = new_lease(store, { layout = layout, machine_ids = range, quarantine = false, wait = false,
                                             ttl = 30 })
                held[#held + 1] = assert(l:acquire())
                if range[1] == 77 then assert(l:release()) end -- claimed once, held no more
            end
            -- 3000 ids claimed and released long ago: pages of the hash
            for i = 1000, 3999 do store.hashes["mintid:{spec}:floor"][tostring(i)] = "1" end
            store.evals = 0
            -- a listing that probes the range stops here, not hours later
            local connect, connects = store:connector("raise"), 0
            local function bounded()
                connects = connects + 1
                if connects > 100 then error("more than 100 scripts") end
                return connect()
            end
            local list = assert(lease_redis.holders { connect = bounded, namespace = "spec", layout = layout })
            local ids = {}
            for i, x in ipairs(list) do ids[i] = x.id end
            assert.are.same({ 0, 123456789, 4294967295 }, ids)
            assert.is_true(store.evals <= 2 * math.ceil(3004 / lease_redis.HOLDERS_PAGE) + 2, store.evals .. " scripts")
            assert.is_true(store.max_calls <= lease_redis.HOLDERS_PAGE * 2 + 4, store.max_calls .. " calls in a script")
            list = assert(lease_redis.holders {
                connect = store:connector("raise"), namespace = "spec", layout = layout, machine_ids = { 1, 4294967294 },
            })
            assert.are.equal(1, #list)
            assert.are.equal(123456789, list[1].id)
        end)
    end)

    describe("layouts", function()
        it("layout = L: machine_ids default to 0..2^M - 1 and are checked; a generator on it mints L", function()
            local store = new_store()
            local l = new_lease(store, { layout = "sonyflake", machine_ids = false, quarantine = false })
            local id = assert(l:acquire())
            assert.is_true(id >= 0 and id <= 65535, "an id of the 16-bit range, got " .. id)
            local g = mintid.snowflake_generator { lease = l }
            local ts, mid = mintid.parse_snowflake(assert(g:next()), "sonyflake")
            assert.are.equal(id, mid)
            assert.is_true(ts > 1409529600000)
            assert.are.equal("39/10/16/8/1409529600000/time-seq-machine", store.keys["mintid:{spec}:layout"].value)
            h.raises(function() new_lease(store, { layout = "sonyflake", machine_ids = { 0, 65536 } }) end,
                "bad argument #1 to 'redis' (machine_ids must be {lo, hi} with 0 <= lo <= hi <= 65535, got {0, 65536})")
            h.raises(function() new_lease(store, { layout = { time_bits = 41, machine_bits = 10 } }) end,
                "bad argument #1 to 'redis' (layout: field 'seq_bits' is required)")
        end)

        it("the lease's epoch is its generators': an equal one is accepted, another raises naming both", function()
            local l = new_lease(new_store(), { epoch = 1288834974657 })
            assert.is_truthy(mintid.snowflake_generator { lease = l, epoch = 1288834974657 })
            h.raises(function() mintid.snowflake_generator { lease = l, epoch = 0 } end, "bad argument #1",
                "snowflake: lease layout 42/1/10/12/1288834974657/time-machine-seq, not "
                .. "42/1/10/12/0/time-machine-seq")
            h.raises(function() mintid.snowflake_generator { lease = l, layout = "twitter" } end, "bad argument #1",
                "not 41/1/10/12/1288834974657/time-machine-seq")
        end)

        it("one namespace, one layout: a lease of another layout or epoch refuses to claim, naming both", function()
            local store = new_store()
            local a = new_lease(store, { quarantine = false })
            assert.are.equal(5, a:acquire())
            for _, other in ipairs { { layout = "sonyflake", fp = "39/10/16/8/1409529600000/time-seq-machine" },
                                     { epoch = 1, fp = "42/1/10/12/1/time-machine-seq" } } do
                local b = new_lease(store, { layout = other.layout, epoch = other.epoch, machine_ids = { 0, 9 } })
                local id, err = b:acquire()
                assert.are.equal(nil, id)
                assert.are.equal("lease: namespace 'spec' holds layout 42/1/10/12/0/time-machine-seq, this lease's is "
                    .. other.fp .. ": one namespace, one layout (a new layout needs a new namespace)", err)
            end
            assert.are.equal(6, new_lease(store, { machine_ids = { 5, 6 } }):acquire(), "the same layout claims")
        end)

        it("a namespace used before layouts (a floor hash, no layout key) holds the default layout", function()
            local store = new_store()
            store.hashes["mintid:{spec}:floor"] = { ["5"] = "1" }
            local id, err = new_lease(store, { layout = "discord" }):acquire()
            assert.are.equal(nil, id)
            assert.is_truthy(err:find("holds layout 42/1/10/12/0/time-machine-seq", 1, true), err)
            assert.are.equal(5, new_lease(store, { quarantine = false }):acquire())
            assert.are.equal("42/1/10/12/0/time-machine-seq", store.keys["mintid:{spec}:layout"].value)
        end)

        -- Redis runs one script at a time: a claim, a renewal and a release
        -- each do bounded work, however many ids the range holds.
        it("a 16-bit range nearly full: claims stay bounded, find the free ids, and say when none is left", function()
            local store = new_store()
            local now, far = store:now_ms(), store:now_ms() + 3600 * 1000
            local index, free = {}, { [1234] = true, [54321] = true }
            for i = 0, 65535 do
                local expires = free[i] and now - 1 or far
                store.keys["mintid:{spec}:m:" .. i] = { value = "another holder", expires = expires }
                index[tostring(i)] = expires
            end
            -- 40 ids whose index entry is stale (the key was renewed since):
            -- looked at first, they fill one claim's tries
            for i = 100, 139 do index[tostring(i)] = now - 100 end
            store.zsets["mintid:{spec}:idx:0-65535"] = index
            store.keys["mintid:{spec}:fresh:0-65535"] = { value = "65536" }
            store.keys["mintid:{spec}:layout"] = { value = "39/10/16/8/1409529600000/time-seq-machine" }
            local bound = lease_redis.CLAIM_MAX_COMMANDS
            local function claim()
                store.max_calls = 0
                local l = new_lease(store, { layout = "sonyflake", machine_ids = false, quarantine = false, ttl = 30, wait = false })
                local id, err = l:acquire()
                assert.is_true(store.max_calls <= bound, "a claim made " .. store.max_calls .. " calls, bound " .. bound)
                return id, err, l
            end
            local id, err = claim()
            assert.are.equal(nil, id)
            assert.are.equal("lease: no free machine id among the 64 looked at; try again", err)
            local got = {}
            for _ = 1, 2 do
                local l
                id, err, l = claim()
                assert(id, err)
                got[#got + 1] = id
                store.max_calls = 0
                assert(l:renew())
                assert.is_true(store.max_calls <= 8, "a renewal made " .. store.max_calls .. " calls")
                assert(l:release())
                assert.is_true(store.max_calls <= 8, "a release made " .. store.max_calls .. " calls")
                assert.are.equal(id, l:acquire(), "the released id, first in the index, is taken again")
            end
            table.sort(got)
            assert.are.same({ 1234, 54321 }, got)
            id, err = claim()
            assert.are.equal(nil, id)
            assert.are.equal("lease: every machine id in 0..65535 is taken", err)
        end)
    end)

    describe("options", function()
        local store = new_store()
        local connect = store:connector("nil_err")
        local cases = {
            { { connect = connect, namespace = "n", ttll = 3 }, "unknown option 'ttll'" },
            { { namespace = "n" }, "option 'connect' is required" },
            { { connect = connect }, "option 'namespace' is required" },
            { { connect = connect, namespace = "a b" }, "namespace must be 1..64 letters, digits, '_', '.' or '-'" },
            { { connect = connect, namespace = "n", machine_ids = { 3, 1024 } },
                "machine_ids must be {lo, hi} with 0 <= lo <= hi <= 1023, got {3, 1024}" },
            { { connect = connect, namespace = "n", ttl = 0 }, "option 'ttl' must be a positive number of seconds" },
            { { connect = connect, namespace = "n", ttl = "15" }, "option 'ttl': number expected, got string" },
            { { connect = connect, namespace = "n", ttl = 0.005 }, "option 'ttl' must be at least 0.01 s" },
            { { connect = connect, namespace = "n", ttl = 3, renew_every = 3 },
                "option 'renew_every' (3 s) must be below ttl * (1 - drift) - margin (2.67 s)" },
            { { connect = connect, namespace = "n", ttl = 1e300 }, "option 'ttl' must be at most 86400 s" },
            { { connect = connect, namespace = "n", max_skew = 1e300 }, "option 'max_skew' must be 0..86400 s" },
            { { connect = connect, namespace = "n", max_skew = -1 }, "option 'max_skew' must be 0..86400 s" },
            { { connect = connect, namespace = "n", max_skew = 0 / 0 }, "option 'max_skew' must be 0..86400 s" },
        }
        for _, case in ipairs(cases) do
            it("raises " .. case[2], function()
                assert.has_error(function() lease.redis(case[1]) end, "bad argument #1 to 'redis' (" .. case[2] .. ")")
            end)
        end
    end)
end)
