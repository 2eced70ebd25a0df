-- The checks of spec/lease/fleet.sh, once every nginx has stopped: reads
-- each node's logs/mint.log ("msec|pid|status|ID|refusal") and the slow
-- request's logs/slow-PID.log ("ms serving|exiting ID-or-refusal"); prints
-- TAP numbered from FIRST + 1.
-- luajit fleet_check.lua FIRST DIR TTL RELOAD_MS DOC CONF LAYOUT
-- (LAYOUT: a preset, or the default layout's epoch as a number)
local mintid = require "mintid"

local first, dir, ttl, reload_ms, doc_path, conf_path =
    tonumber(arg[1]), arg[2], tonumber(arg[3]), tonumber(arg[4]), arg[5], arg[6]
local LAYOUT = tonumber(arg[7]) or arg[7]
local tap = require("tap").new(first)
local function check(ok, name, diagnostics) tap:check(ok, name, diagnostics) end
local lines = require("tap").lines

local seen, repeats, duplicates, total = {}, {}, 0, 0
local by_machine = {}
local function minted(id, who)
    total = total + 1
    local _, machine = mintid.parse_snowflake(id, LAYOUT)
    by_machine[machine] = by_machine[machine] or {}
    by_machine[machine][who] = true
    if seen[id] then
        duplicates = duplicates + 1
        if #repeats < 10 then repeats[#repeats + 1] = id .. " minted by " .. seen[id] .. " and " .. who end
    end
    seen[id] = who
end

local refusals, per_node, first_seen, statuses = {}, {}, {}, {}
for node = 1, 3 do
    local workers, count = {}, 0
    for _, line in ipairs(lines(("%s/node%d/logs/mint.log"):format(dir, node))) do
        local msec, pid, status, id, err = line:match("^([%d.]+)|(%d+)|(%d+)|([^|]*)|(.*)$")
        statuses[tostring(status)] = (statuses[tostring(status)] or 0) + 1
        if status == "200" and id ~= "" then
            minted(id, "node " .. node .. " pid " .. pid)
            workers[pid] = true
            count = count + 1
            local t = tonumber(msec) * 1000
            first_seen[pid] = math.min(first_seen[pid] or t, t)
        elseif status == "503" and err ~= "" then -- (not /ready's)
            local kind = err:gsub("%d+", "N")
            refusals[kind] = (refusals[kind] or 0) + 1
        end
    end
    local list = {}
    for pid in pairs(workers) do list[#list + 1] = pid end
    per_node[node] = { count = count, workers = list }
end

-- the slow request's worker
local slow_pid, slow = nil, {}
local p = io.popen("ls " .. dir .. "/node1/logs/")
for name in p:lines() do slow_pid = name:match("^slow%-(%d+)%.log$") or slow_pid end
p:close()
for _, line in ipairs(slow_pid and lines(("%s/node1/logs/slow-%s.log"):format(dir, slow_pid)) or {}) do
    local ms, phase, what = line:match("^(%d+) (%S+) (.*)$")
    slow[#slow + 1] = { ms = tonumber(ms), phase = phase, what = what }
    if what:match("^%d+$") then minted(what, "node 1 pid " .. slow_pid) end
end

for node = 1, 3 do
    print(("# node %d: %d IDs from %d workers"):format(node, per_node[node].count, #per_node[node].workers))
end
local kinds = {}
for msg, c in pairs(refusals) do kinds[#kinds + 1] = ("#   %6d  %s"):format(c, msg) end
table.sort(kinds)
local counts = {}
for status, c in pairs(statuses) do counts[#counts + 1] = status .. " " .. c end
table.sort(counts)
print("# responses by status: " .. table.concat(counts, ", "))
print("# refusals (503):")
for _, line in ipairs(kinds) do print(line) end
print(("# IDs minted: %d, duplicates: %d"):format(total, duplicates))

check(total >= 3000, ("%d IDs minted (want >= 3000)"):format(total))
check(duplicates == 0, ("no ID twice across the three nodes (%d IDs)"):format(total), repeats)
for node = 1, 3 do
    check(#per_node[node].workers >= 2, ("node %d: %d workers minted (want >= 2)"):format(node, #per_node[node].workers))
end

-- The old worker: IDs before and after the reload until its deadline, then
-- only refusals, the first by reload + ttl (+ 0.5 s of slack).
do
    local before, exiting_ids, refused_at, after_refusal = 0, 0, nil, 0
    for _, e in ipairs(slow) do
        local is_id = e.what:match("^%d+$")
        if refused_at and is_id then after_refusal = after_refusal + 1 end
        if not refused_at and not is_id and e.phase == "exiting" then refused_at = e end
        if is_id and e.phase == "serving" then before = before + 1 end
        if is_id and e.phase == "exiting" then exiting_ids = exiting_ids + 1 end
    end
    print(("# the slow request's worker %s: %d IDs before the reload, %d after; refused %s"):format(
        tostring(slow_pid), before, exiting_ids,
        refused_at and ("%.1f s after the reload: %s"):format((refused_at.ms - reload_ms) / 1000, refused_at.what)
        or "never"))
    check(before > 0 and refused_at ~= nil and refused_at.what == "snowflake: lease expired"
        and refused_at.ms <= reload_ms + ttl * 1000 + 500 and after_refusal == 0,
        "the old worker kept by a slow request refuses (lease expired) by reload + ttl, and mints no more")
end

-- The reload's new workers on node 1 minted, one with an id an old worker had.
do
    local new = {}
    for _, pid in ipairs(per_node[1].workers) do
        if first_seen[pid] > reload_ms then new[#new + 1] = pid end
    end
    check(#new >= 1, ("node 1: %d new workers minted after the reload"):format(#new))
    local shared = {}
    for machine, who in pairs(by_machine) do
        local list = {}
        for w in pairs(who) do list[#list + 1] = w end
        if #list >= 2 then table.sort(list); shared[#shared + 1] = machine .. ": " .. table.concat(list, ", ") end
    end
    for _, line in ipairs(shared) do print("# machine id " .. line) end
    check(#shared >= 1, ("%d machine ids minted by more than one worker over the run (want >= 1)"):format(#shared))
end

-- doc/fleet.md's nginx.conf is a subset of the one tested (but for paths,
-- the listen line, the Redis address, the test's short ttl, its events
-- block and its log of $mint_id and $mint_err, which the tested one writes
-- in a format of its own for these checks).
do
    local tested = {}
    for _, line in ipairs(lines(conf_path)) do tested[line:match("^%s*(.-)%s*$")] = true end
    local inside, count, missing = false, 0, {}
    for _, line in ipairs(lines(doc_path)) do
        if line:match("^```nginx") then inside = true
        elseif inside and line:match("^```") then inside = false
        elseif inside then
            count = count + 1
            local l = line:match("^%s*(.-)%s*$")
            local skip = l == "" or l:match("^#") or l:match("^%-%-") or l:match("^lua_package_c?path ")
                or l:match("^listen ") or l:match("red:connect%(") or l:match("^namespace =")
                or l:match("^epoch =") -- the tested one's layout option is the run's
                or l:match("^events ") or l:match("^log_format ") or l:match("^access_log ")
            if not skip and not tested[l] then missing[#missing + 1] = "not tested: " .. l end
        end
    end
    check(count > 20 and #missing == 0, ("doc/fleet.md's nginx.conf (%d lines) is a subset of spec/lease/fleet.conf"):format(count),
        missing)
end

do
    local bad = {}
    for node = 1, 3 do
        for _, line in ipairs(lines(("%s/node%d/logs/error.log"):format(dir, node))) do
            if line:match("%[alert%]") or line:match("%[crit%]") or line:match("%[emerg%]")
                or line:match("runtime error") or line:match("entry thread aborted") then
                if #bad < 10 then bad[#bad + 1] = "node " .. node .. ": " .. line end
            end
        end
    end
    check(#bad == 0, "no [alert], [crit], [emerg] or Lua error in any error.log", bad)
end

tap:finish()
