-- The checks of spec/lease/chaos.sh, once every holder has stopped: reads
-- DIR/w*.ids, DIR/w*.events (spec/lease/worker.lua says what they hold)
-- and DIR/chaos (the controller's "t_ms what [worker]" lines); prints TAP.
-- With LAYOUT sonyflake, DIR/commandstats (Redis's INFO commandstats since
-- the filler) shows the commands per script: bounded whatever the range.
-- lua check.lua DIR TTL [LAYOUT [FREE]] (FREE: the ids the holders share,
-- "a,b,...", or "any" id of the layout)
local mintid = require "mintid"
local lease_redis = require "mintid.lease.redis"

local dir, ttl, layout = arg[1], tonumber(arg[2]), arg[3] or "mintid"
local free = {}
for id in (arg[4] or ""):gmatch("%d+") do free[tonumber(id)] = true end
local TTL_MS = ttl * 1000
local tap = require("tap").new()
local function check(ok, name, diagnostics) tap:check(ok, name, diagnostics) end

local function read(path)
    local f = io.open(path, "rb")
    if not f then return nil end
    local s = f:read("*a")
    f:close()
    return s
end

-- the workers: w1, w2, ... while their files exist
local workers = {}
for i = 1, 100 do
    local ids = read(("%s/w%d.ids"):format(dir, i))
    if not ids then break end
    local w = { name = "w" .. i, ids = ids, events = {} }
    for line in (read(("%s/w%d.events"):format(dir, i)) or ""):gmatch("[^\n]+") do
        local t, rest = line:match("^(%d+) (.*)$")
        if t then w.events[#w.events + 1] = { t = tonumber(t), what = rest } end
    end
    workers[#workers + 1] = w
end
local chaos = {}
for line in (read(dir .. "/chaos") or ""):gmatch("[^\n]+") do
    local t, what, who = line:match("^(%d+) (%S+) ?(%S*)")
    chaos[#chaos + 1] = { t = tonumber(t), what = what, who = who }
end
local function at(what)
    local list = {}
    for _, c in ipairs(chaos) do if c.what == what then list[#list + 1] = c end end
    return list
end

-- Every ID of every file (a last line cut by kill -9 left out), by value.
local seen, total, repeats, duplicates, bad_ids = {}, 0, {}, 0, {}
local by_machine, minted, twice_on = {}, {}, {}
for _, w in ipairs(workers) do
    local count = 0
    for id in w.ids:gmatch("(%d+)\n") do
        count = count + 1
        local ms, machine = mintid.parse_snowflake(id, layout)
        if not ms or not (free[machine] or arg[4] == "any" or arg[4] == nil and machine <= #workers) then
            if #bad_ids < 5 then bad_ids[#bad_ids + 1] = w.name .. ": " .. id end
        else
            by_machine[machine] = by_machine[machine] or {}
            by_machine[machine][w.name] = true
            if seen[id] then
                duplicates = duplicates + 1
                twice_on[machine] = (twice_on[machine] or 0) + 1
                if #repeats < 10 then
                    repeats[#repeats + 1] = ("%s (ms %d, machine %d) minted by %s and %s"):format(id, ms, machine,
                        seen[id], w.name)
                end
            else
                seen[id] = w.name
            end
            w.ms = w.ms or {}
            w.ms[#w.ms + 1] = ms
        end
    end
    minted[w.name] = count
    total = total + count
end

-- refusals: the calls that refused, by message
local refusals, refused = {}, 0
for _, w in ipairs(workers) do
    local current
    for _, e in ipairs(w.events) do
        local what = e.what:match("^= (.*)$")
        if what then current = what end
        local calls = tonumber(e.what:match("^x (%d+)$"))
        if calls and current ~= "minting" and current then
            local kind = current:gsub("%d+", "N")
            refusals[kind] = (refusals[kind] or 0) + calls
            refused = refused + calls
        end
    end
end

print(("# IDs minted: %d by %d processes (%s)"):format(total, #workers, (function()
    local t = {}
    for _, w in ipairs(workers) do t[#t + 1] = w.name .. " " .. minted[w.name] end
    return table.concat(t, ", ")
end)()))
print(("# refusals: %d calls"):format(refused))
local kinds = {}
for msg, c in pairs(refusals) do kinds[#kinds + 1] = ("#   %7d  %s"):format(c, msg) end
table.sort(kinds)
for _, line in ipairs(kinds) do print(line) end
print(("# duplicates: %d"):format(duplicates))
for machine = 0, 1023 do
    if twice_on[machine] then print(("#   %7d  with machine id %d"):format(twice_on[machine], machine)) end
end

check(#workers >= 7 and total >= 20000, ("%d IDs from %d processes (want >= 20000 from 7)"):format(total, #workers))
check(#bad_ids == 0, "every ID parses (" .. layout .. " layout) with a machine id the holders share", bad_ids)

-- Commands per script: what claims, renewals and releases did since the
-- filler held all but a few of 65,536 ids; a claim makes at most
-- CLAIM_MAX_COMMANDS.
local stats = read(dir .. "/commandstats")
if layout == "sonyflake" then
    local scripts, commands = 0, 0
    for name, calls in (stats or ""):gmatch("cmdstat_([%w|]+):calls=(%d+)") do
        if name == "eval" or name == "evalsha" then
            scripts = scripts + tonumber(calls)
        elseif name ~= "info" and name ~= "config|resetstat" and name ~= "ping" and name ~= "debug" then
            commands = commands + tonumber(calls)
        end
    end
    local bound = lease_redis.CLAIM_MAX_COMMANDS
    print(("# %d scripts made %d commands (%.1f each) with 65,536 ids nearly all held"):format(scripts, commands,
        commands / math.max(scripts, 1)))
    check(scripts > 100 and commands / scripts <= bound,
        ("commands per script %.1f, at most %d (a bounded claim), over %d scripts"):format(commands / math.max(scripts, 1),
            bound, scripts))
end
check(duplicates == 0, ("no ID twice among %d"):format(total), repeats)

local reused = {}
for machine, names in pairs(by_machine) do
    local list = {}
    for name in pairs(names) do list[#list + 1] = name end
    if #list >= 2 then table.sort(list); reused[#reused + 1] = machine .. ": " .. table.concat(list, " ") end
end
table.sort(reused)
for _, line in ipairs(reused) do print("# machine id " .. line) end
check(#reused >= 2, ("%d machine ids minted by more than one process (want >= 2)"):format(#reused))

-- A stopped holder's first next() after SIGCONT refuses.
local function worker(name)
    for _, w in ipairs(workers) do if w.name == name then return w end end
end
for _, stop in ipairs(at("stop")) do
    local w = worker(stop.who)
    local gap
    for _, e in ipairs(w and w.events or {}) do
        if e.t > stop.t and e.what:match("^gap ") then gap = e.what break end
    end
    local outcome = gap and gap:match("^gap [%d.]+ (.*)$")
    check(outcome and outcome ~= "minting",
        ("%s, stopped %.1f s (ttl %g s), refused on waking: %s"):format(stop.who, 2 * ttl + 0.5, ttl, tostring(outcome)))
end

-- DEBUG SLEEP: every holder minting when the store stopped refused by its
-- deadline, and nobody minted in the rest of the sleep.
for _, s in ipairs(at("sleep-start")) do
    local stop_by = s.t + TTL_MS + 500
    local done = at("sleep-end")[1].t
    local late = {}
    for _, w in ipairs(workers) do
        local current, refused_at
        for _, e in ipairs(w.events) do
            local what = e.what:match("^= (.*)$")
            if what then
                if e.t <= s.t then current = what
                elseif not refused_at and current == "minting" and what ~= "minting" then refused_at = e.t end
            end
        end
        if current == "minting" and not (refused_at and refused_at <= stop_by) then
            late[#late + 1] = ("%s: refused at %s, want by %d"):format(w.name, tostring(refused_at), stop_by)
        end
        for _, ms in ipairs(w.ms or {}) do
            if ms > stop_by and ms < done - 50 then
                late[#late + 1] = ("%s minted at ms %d, in the sleep past the deadlines"):format(w.name, ms)
                break
            end
        end
    end
    check(#late == 0, ("the store asleep %.1f s (ttl %g s): every holder refused by its deadline"):format(
        (done - s.t) / 1000, ttl), late)
end

-- issue 26's duplicate paths (beside "no ID twice" above, which each of
-- them broke): the child of a lease made before fork() minted nothing and
-- was refused as forked; the slow claimer minted, after id 5's old holder
-- stopped; the second epoch was refused at construction.
local function events_of(name)
    local list = {}
    for _, e in ipairs(worker(name) and worker(name).events or {}) do list[#list + 1] = e.what end
    return list
end
local function has_event(name, pattern)
    for _, what in ipairs(events_of(name)) do if what:match(pattern) then return what end end
    return nil
end
for _, c in ipairs(at("fork")) do
    check((minted[c.who] or 0) > 0, ("%s, the parent of a lease made before fork(), minted %d IDs"):format(
        c.who, minted[c.who] or 0))
end
for _, c in ipairs(at("fork-child")) do
    check((minted[c.who] or -1) == 0 and has_event(c.who,
        "^= snowflake: lease belongs to the parent process %(forked%)$") ~= nil,
        ("%s, the forked child of a lease never held, minted %s IDs and was refused as forked"):format(
        c.who, tostring(minted[c.who])), events_of(c.who))
end
for _, c in ipairs(at("epochs")) do
    local what = has_event(c.who, "^epoch2 ")
    -- the lease's layout, then the same with epoch 1000
    local fp = select(2, mintid._lease_fence(layout):layout())
    local other = fp:gsub("^(%d+/%d+/%d+/%d+/)%d+", "%11000")
    local want = "epoch2 refused: bad argument #1 to 'snowflake_generator' (snowflake: lease layout " .. fp
        .. ", not " .. other .. ")"
    check(what ~= nil and what:gsub("'[%w_.]*snowflake_generator'", "'snowflake_generator'") == want,
        ("%s: a second generator of another epoch on its lease refused: %s"):format(c.who, tostring(what)))
end
for _, c in ipairs(at("slow")) do
    check((minted[c.who] or 0) > 0, ("%s, a claim slow to reach the store, minted %d IDs once in"):format(
        c.who, minted[c.who] or 0))
end

-- The replacements of the killed holders got ids and minted.
for _, s in ipairs(at("start")) do
    check((minted[s.who] or 0) > 0, ("%s, started after a kill -9, minted %d IDs"):format(s.who, minted[s.who] or 0))
end

tap:finish()
