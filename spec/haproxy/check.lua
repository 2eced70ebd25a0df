-- The checks of `make test-haproxy`, run by spec/haproxy/run.sh after haproxy
-- has stopped: reads each run's log, record, answers and stderr, and the
-- guide, and prints TAP numbered from FIRST + 1.
-- lua5.3 check.lua FIRST TMPDIR REQUESTS GUIDE HAPROXY_CFG IDS_LUA
local mintid = require "mintid"
local tap = require("tap").new(tonumber(arg[1]))
local lines = tap.lines
local tmp, requests, guide_path, cfg_path, ids_path = arg[2], tonumber(arg[3]), arg[4], arg[5], arg[6]

local function check(ok, name, diagnostics) tap:check(ok, name, diagnostics) end

-- HAProxy's own faults allowed in lua-load mode (one state for 4 threads):
-- logged values that differ from what the Lua code returned, per 10,000
-- answers, and at least 2 (seen here: 1 in about 250,000; reported with
-- plain-Lua fetches too, which the control run serves).
local HOST_FAULTS_PER_10000 = 2
local KINDS = { "ulid", "uuid7", "snowflake", "traceparent" }

-- add(list, line): list with line added, if it has fewer than 5
local function add(list, line)
    if #list < 5 then list[#list + 1] = line end
    return list
end

---------------------------------------------------------------------------
-- One run: what haproxy logged and what the Lua states returned.
local function read_run(name)
    local run = { name = name, dir = tmp .. "/" .. name, answers = {}, unparsed = {}, logged = {} }
    for _, kind in ipairs(KINDS) do run.logged[kind] = {} end
    -- the log-format of spec/haproxy/haproxy.cfg: client [time] frontend
    -- status bytes ID traceparent pid thread uuid7 snowflake
    for _, line in ipairs(lines(run.dir .. "/log")) do
        if line:match("^127%.0%.0%.1:") then
            local status, ulid, tp, pid, thread, uuid7, flake = line:match(
                "^%S+ %[%S+%] www (%-?%d+) %d+ (%S+) (%S+) (%d+) (%d+) (%S+) (%S+)$")
            if not status then
                run.unparsed[#run.unparsed + 1] = line
            else
                run.answers[#run.answers + 1] = { status = tonumber(status), pid = pid, thread = thread }
                local values = { ulid = ulid, uuid7 = uuid7, snowflake = flake, traceparent = tp }
                for kind, value in pairs(values) do
                    if value ~= "-" then table.insert(run.logged[kind], value) end
                end
            end
        end
    end
    -- record/PID-THREAD: kind|value[|incoming traceparent], by state
    run.states = {}
    local listing = io.popen("ls '" .. run.dir .. "/record'")
    for file in listing:lines() do
        local pid, thread = file:match("^(%d+)%-(%d+)$")
        local state = { pid = pid, thread = tonumber(thread), name = file }
        for _, kind in ipairs(KINDS) do state[kind] = {} end
        for _, line in ipairs(lines(run.dir .. "/record/" .. file)) do
            local kind, value, incoming = line:match("^(%w+)|([^|]*)|?(.*)$")
            local list = kind and state[kind]
            if list then
                list[#list + 1] = value
                if kind == "traceparent" then
                    state.incoming = state.incoming or {}
                    state.incoming[#list] = incoming
                end
            end
        end
        run.states[#run.states + 1] = state
    end
    listing:close()
    table.sort(run.states, function(a, b) return a.name < b.name end)
    return run
end

local function status_counts(run)
    local ok, other = 0, {}
    for _, a in ipairs(run.answers) do
        if a.status == 200 then ok = ok + 1 else other[a.status] = (other[a.status] or 0) + 1 end
    end
    return ok, other
end

-- wrk's reports in a file: the requests sent, and its lines on socket
-- errors and answers other than 2xx or 3xx (wrk prints them only if any)
local function wrk_errors(path)
    local bad, total = {}, 0
    for _, line in ipairs(lines(path)) do
        total = total + (tonumber(line:match("^%s*(%d+) requests in")) or 0)
        if line:match("Socket errors") or line:match("Non%-2xx") then add(bad, line) end
    end
    return total, bad
end

-- Logged values against recorded ones, kind by kind. Returns the faults
-- of HAProxy's log (a logged value no state returned: corrupted; a value
-- logged more often than returned), the values returned but not logged
-- beyond the log lines the worker counted as dropped (DroppedLogs) and
-- those corrupted, and the number of dropped lines.
local function compare(run)
    local faults, unexplained = {}, {}
    local dropped = {}
    for _, line in ipairs(lines(run.dir .. "/dropped")) do
        local pid, count = line:match("^(%d+) (.*)$")
        if pid then dropped[pid] = tonumber(count) or count end
    end
    local total_dropped = 0
    for _, count in pairs(dropped) do total_dropped = total_dropped + (tonumber(count) or 0) end
    for _, kind in ipairs(KINDS) do
        local made, pid_of = {}, {}
        for _, state in ipairs(run.states) do
            for _, value in ipairs(state[kind]) do
                made[value] = (made[value] or 0) + 1
                pid_of[value] = state.pid
            end
        end
        local logged, corrupted = {}, 0
        for _, value in ipairs(run.logged[kind]) do
            if made[value] then
                logged[value] = (logged[value] or 0) + 1
            else
                corrupted = corrupted + 1
                faults[#faults + 1] = ("%s logged, returned by no state: %q"):format(kind, value)
            end
        end
        for value, count in pairs(made) do
            local n = logged[value] or 0
            if n > count then
                corrupted = corrupted + n - count
                faults[#faults + 1] = ("%s returned %d times, logged %d times: %s"):format(kind, count, n, value)
            end
        end
        local missing = {}
        for value, count in pairs(made) do
            local n = logged[value] or 0
            if n < count then
                local pid = pid_of[value]
                missing[pid] = (missing[pid] or 0) + count - n
            end
        end
        -- (a corrupted value stands for one returned)
        for pid, count in pairs(missing) do
            if count > (tonumber(dropped[pid]) or 0) + corrupted then
                unexplained[#unexplained + 1] = ("worker %s: %d %s values not logged, %s log lines dropped, "
                    .. "%d corrupted"):format(pid, count, kind, tostring(dropped[pid]), corrupted)
            end
        end
    end
    for _, line in ipairs(run.unparsed) do faults[#faults + 1] = ("log line unparsed: %q"):format(line) end
    return faults, unexplained, total_dropped
end

local function stderr_clean(run)
    local bad = {}
    for _, line in ipairs(lines(run.dir .. "/stderr")) do
        local code = line:match("exited with code (%d+)")
        if line:match("^%[ALERT%]") or line:lower():match("lua") and line:lower():match("error")
            or code and code ~= "0" then
            add(bad, line)
        end
    end
    return #bad == 0, bad
end

---------------------------------------------------------------------------
-- The IDs the Lua states of a mintid run returned
local function is_ulid(id)
    local v = mintid.parse_ulid(id)
    return v ~= nil and tostring(v) == id
end
local function is_uuid7(id)
    local v = mintid.parse_uuid(id)
    return v ~= nil and v:version() == 7 and tostring(v) == id
end

local function check_ids(run)
    local label = run.name
    -- unique, and well-formed, kind by kind
    local seen, repeats, bad = {}, {}, {}
    local counts = { ulid = 0, uuid7 = 0, snowflake = 0, traceparent = 0 }
    local spans, new_traces = {}, {}
    local continued, started, broken = 0, 0, {}
    for _, state in ipairs(run.states) do
        for _, kind in ipairs { "ulid", "uuid7", "snowflake" } do
            for _, id in ipairs(state[kind]) do
                counts[kind] = counts[kind] + 1
                local key = kind .. " " .. id
                if seen[key] then add(repeats, ("%s twice (state %s)"):format(key, state.name)) end
                seen[key] = true
                local good = kind == "ulid" and is_ulid(id) or kind == "uuid7" and is_uuid7(id)
                    or kind == "snowflake" and mintid.parse_snowflake(id) ~= nil
                if not good then add(bad, ("%s %q (state %s)"):format(kind, id, state.name)) end
            end
        end
        for i, tp in ipairs(state.traceparent) do
            counts.traceparent = counts.traceparent + 1
            local trace_id, parent_id, flags = mintid.parse_traceparent(tp)
            local in_trace, in_parent, in_flags = mintid.parse_traceparent(state.incoming[i] or "")
            if not trace_id or tp:sub(1, 3) ~= "00-" then
                add(bad, ("traceparent %q (state %s)"):format(tp, state.name))
            else
                if spans[parent_id] then add(repeats, "span id twice: " .. parent_id) end
                spans[parent_id] = true
                if in_trace then
                    continued = continued + 1
                    if trace_id ~= in_trace or flags ~= in_flags or parent_id == in_parent then
                        add(broken, ("%q answered %q"):format(state.incoming[i], tp))
                    end
                else
                    started = started + 1
                    if new_traces[trace_id] then add(repeats, "new trace-id twice: " .. trace_id) end
                    new_traces[trace_id] = true
                    if flags ~= 0 then add(broken, ("%q answered %q"):format(state.incoming[i], tp)) end
                end
            end
        end
    end
    check(#repeats == 0 and counts.ulid >= requests, ("%s: %d ULIDs, %d UUIDv7s, %d Snowflake IDs, "
        .. "%d span ids and %d new trace-ids, each unique"):format(label, counts.ulid, counts.uuid7,
        counts.snowflake, continued + started, started), repeats)
    check(#bad == 0 and counts.ulid > 0, ("%s: every ID parses as its kind (canonical ULID, UUID "
        .. "version 7, Snowflake, traceparent version 00)"):format(label), bad)
    check(#broken == 0 and continued >= requests / 4 and started >= requests / 4,
        ("%s: %d valid incoming traceparents continued as a new span of their trace, %d missing or "
        .. "invalid ones started a trace"):format(label, continued, started), broken)

    -- The record of a state is in mint order: the process-wide ULID and
    -- UUIDv7 sequences, and the state's Snowflake generator, strictly
    -- increase in it (equal-length text: byte order is the order).
    local unordered = {}
    for _, state in ipairs(run.states) do
        for _, kind in ipairs { "ulid", "uuid7", "snowflake" } do
            local list = state[kind]
            for i = 2, #list do
                if not (#list[i - 1] == #list[i] and list[i - 1] < list[i]) then
                    add(unordered, ("state %s: %s %s then %s"):format(state.name, kind, list[i - 1], list[i]))
                    break
                end
            end
        end
    end
    check(#unordered == 0, label .. ": in each Lua state's mint order, ULIDs, UUIDv7s and Snowflake IDs "
        .. "strictly increase", unordered)

    -- Snowflake machine ids: one per state; two states with one machine id
    -- never minted in the same ms range (the lock file's promise: a new
    -- holder only after the old one's end).
    local held, problems = {}, {}
    for _, state in ipairs(run.states) do
        local machine, first, last
        for _, id in ipairs(state.snowflake) do
            local ms, m = mintid.parse_snowflake(id)
            if ms then
                if machine and m ~= machine then
                    add(problems, ("state %s minted with machine ids %d and %d"):format(state.name, machine, m))
                end
                machine, first, last = m, math.min(first or ms, ms), math.max(last or ms, ms)
            end
        end
        if machine then
            for _, other in ipairs(held[machine] or {}) do
                if not (other.last < first or last < other.first) then
                    add(problems, ("machine id %d: state %s minted in ms %d..%d, state %s in %d..%d"):format(
                        machine, other.name, other.first, other.last, state.name, first, last))
                end
            end
            held[machine] = held[machine] or {}
            table.insert(held[machine], { name = state.name, first = first, last = last, pid = state.pid })
        end
    end
    local machines = {}
    for machine, holders in pairs(held) do
        local names = {}
        for _, h in ipairs(holders) do names[#names + 1] = h.name end
        machines[#machines + 1] = ("%d: %s"):format(machine, table.concat(names, ", "))
    end
    table.sort(machines)
    print(("# %s: Snowflake machine ids by state (PID-THREAD): %s"):format(label, table.concat(machines, "; ")))
    return held, problems
end

---------------------------------------------------------------------------
local runs = {}
for _, name in ipairs { "per-thread", "shared", "control" } do runs[name] = read_run(name) end

for _, name in ipairs { "per-thread", "shared", "control" } do
    local run = runs[name]
    local ok, other = status_counts(run)
    local total, wrk_bad = wrk_errors(run.dir .. "/wrk.out")
    local others = {}
    for status, count in pairs(other) do others[#others + 1] = ("%d x %d"):format(count, status) end
    check(ok >= requests and #wrk_bad == 0, ("%s: %d answers 200 logged (want >= %d; %d states, "
        .. "wrk sent %d), wrk saw no socket, HTTP or timeout error"):format(name, ok, requests,
        #run.states, total), add(wrk_bad, "other statuses: " .. table.concat(others, ", ")))
    local clean, alerts = stderr_clean(run)
    check(clean, name .. ": haproxy's stderr has no [ALERT], no Lua error, no worker exiting "
        .. "with a code other than 0", alerts)
end

-- lua-load-per-thread: 4 states per worker, a reload, the IDs exact.
do
    local run = runs["per-thread"]
    local held, problems = check_ids(run)
    local old = (lines(run.dir .. "/old")[1] or ""):match("%d+")
    local by_pid = {}
    for _, state in ipairs(run.states) do
        by_pid[state.pid] = by_pid[state.pid] or {}
        table.insert(by_pid[state.pid], state.thread)
    end
    local pids = {}
    for pid, threads in pairs(by_pid) do
        table.sort(threads)
        pids[#pids + 1] = ("%s%s: states of threads %s"):format(pid, pid == old and " (old)" or "",
            table.concat(threads, " "))
    end
    table.sort(pids)
    local new_states, old_states = 0, 0
    for _, state in ipairs(run.states) do
        if state.pid == old then old_states = old_states + 1 else new_states = new_states + 1 end
    end
    -- A machine id of the old worker's, which held it until at least
    -- old_alive (its process was alive then), minted with by a new state
    -- before that: taken while still held.
    local old_alive = tonumber(lines(run.dir .. "/old-alive-ms")[1] or "")
    if not old_alive then add(problems, "no old-alive-ms: the reload did not run") end
    local shared_ids = 0
    for machine, holders in pairs(held) do
        local old_held, new_first = false, nil
        for _, h in ipairs(holders) do
            if h.pid == old then old_held = true else new_first = math.min(new_first or h.first, h.first) end
        end
        if old_held and new_first then
            shared_ids = shared_ids + 1
            if new_first <= (old_alive or math.huge) then
                add(problems, ("machine id %d: the old worker held it until ms %s, a new state minted with "
                    .. "it from ms %d"):format(machine, tostring(old_alive), new_first))
            end
        end
    end
    check(#pids == 2 and old_states == 4 and new_states == 4 and #problems == 0,
        ("per-thread: a reload: the old worker's %d states and the new worker's %d (want 4 each; their IDs "
        .. "unique together, above) each minted with a machine id of its own, none taken while an old state "
        .. "held it (%d ids held by old and new in turn)")
        :format(old_states, new_states, shared_ids), add(problems, table.concat(pids, "; ")))
    local faults, unexplained, dropped = compare(run)
    for _, f in ipairs(unexplained) do faults[#faults + 1] = f end
    check(#faults == 0, ("per-thread: HAProxy logged every value each Lua state returned, unchanged, once "
        .. "(%d answers; but for the %d log lines it counted as dropped)"):format(#run.answers, dropped), faults)
end

-- lua-load: one state, the same IDs exact as the Lua code made them; what
-- HAProxy logs differs now and then, as it does with the plain-Lua control.
do
    local run, control = runs.shared, runs.control
    local _, problems = check_ids(run)
    check(#run.states >= 1 and #problems == 0 and #run.states <= 1,
        ("shared: one Lua state (%d) minted Snowflake IDs with one machine id"):format(#run.states), problems)
    local faults, unexplained, dropped = compare(run)
    local control_faults, control_unexplained, control_dropped = compare(control)
    for _, f in ipairs(control_unexplained) do unexplained[#unexplained + 1] = "control: " .. f end
    check(#unexplained == 0, ("shared: every value the Lua state returned was logged, but for the log lines "
        .. "HAProxy counted as dropped (%d, %d in the control run)"):format(dropped, control_dropped), unexplained)
    local bound = math.max(2, HOST_FAULTS_PER_10000 * #run.answers // 10000)
    local control_bound = math.max(2, HOST_FAULTS_PER_10000 * #control.answers // 10000)
    print(("# lua-load with 4 threads: %d logged values differ from the Lua state's in %d answers with "
        .. "mintid, %d in %d answers of plain Lua (HAProxy's own fault)"):format(#faults, #run.answers,
        #control_faults, #control.answers))
    for _, f in ipairs(faults) do print("# shared: " .. f) end
    for _, f in ipairs(control_faults) do print("# control: " .. f) end
    check(#faults <= bound and #control_faults <= control_bound and #control.answers >= requests,
        ("shared: HAProxy's log differs from what the Lua code returned in %d values (at most %d), the "
        .. "plain-Lua control in %d (at most %d)"):format(#faults, bound, #control_faults, control_bound))
end

---------------------------------------------------------------------------
-- Bad input (per-thread run): clean answers, the worker alive (run.sh).
do
    local T = "4bf92f3577b34da6a3ce929d0e0e4736"
    local answers = {}
    for _, line in ipairs(lines(tmp .. "/per-thread/curl.out")) do
        local name, status, request_id, tp, body = line:match("^(.-)|(%d+)|(.-)|(.-)|(.*)$")
        if name then
            answers[name] = { status = tonumber(status), request_id = request_id:match("%S+"),
                traceparent = tp:match("%S+"), body = body }
        end
    end
    -- name, status, the trace-id of the answer's traceparent (false: a new one)
    local want = {
        { "valid", 200, T }, { "malformed", 200, false }, { "binary", 200, false },
        { "oversized-00", 200, false }, { "oversized-later", 200, T }, { "too-large", 400 },
        { "after-burst", 200, false },
    }
    local bad = {}
    for _, w in ipairs(want) do
        local a = answers[w[1]] or {}
        local good = a.status == w[2]
        if w[2] == 200 then
            local trace_id = mintid.parse_traceparent(a.traceparent or "")
            good = good and is_ulid(a.request_id or "") and trace_id ~= nil
                and (w[3] and trace_id == w[3] or not w[3] and trace_id ~= T)
                and a.body:match("^(%S+)") == a.request_id
        end
        if not good then
            add(bad, ("%s: %s X-Request-Id %q traceparent %q body %q"):format(w[1], tostring(a.status),
                tostring(a.request_id), tostring(a.traceparent), tostring(a.body)))
        end
    end
    check(#bad == 0, "bad input: a malformed, a binary or an oversized traceparent gets 200 and a new trace "
        .. "(a later version's long one is continued), one too large for HAProxy's buffer a clean 400", bad)
    local count, burst_bad = wrk_errors(tmp .. "/per-thread/burst.out")
    check(count > 0 and #burst_bad == 0,
        ("bad input: a burst of 256 connections: %d requests, each answered 200"):format(count),
        lines(tmp .. "/per-thread/burst.out"))
end

---------------------------------------------------------------------------
-- doc/guide.md "HAProxy": its haproxy.cfg is a subset of the tested one
-- (paths, bind and the backend aside, its chroot folder the run's own; its
-- log-format starts the tested one), its Lua file is ids.lua.
do
    local tested = {}
    for _, line in ipairs(lines(cfg_path)) do tested[#tested + 1] = line:match("^%s*(.-)%s*$") end
    local function in_tested(l)
        for _, t in ipairs(tested) do
            if t == l or l:match('^log%-format ') and t:sub(1, #l - 1) == l:sub(1, -2)
                or l:match("^chroot %S+$") and t == "chroot @CHROOT@" then
                return true
            end
        end
        return false
    end
    local blocks, block = {}, nil
    for _, line in ipairs(lines(guide_path)) do
        local lang = line:match("^```(%S+)")
        if lang and not block then
            block = { lang = lang }
        elseif block and line:match("^```") then
            blocks[#blocks + 1] = block
            block = nil
        elseif block then
            block[#block + 1] = line
        end
    end
    local cfg, lua
    for _, b in ipairs(blocks) do
        if b.lang == "haproxy" then cfg = b end
        if b.lang == "lua" and (b[1] or ""):match("^%-%- mintid in HAProxy") then lua = b end
    end
    local missing = {}
    for _, line in ipairs(cfg or {}) do
        local l = line:match("^%s*(.-)%s*$")
        local skip = l == "" or l:match("^#") or l:match("^lua%-prepend%-path ") or l:match("^lua%-load")
            or l:match("^bind ") or l:match("^default_backend ") or l:match("^backend ") or l:match("^server ")
        if not skip and not in_tested(l) then missing[#missing + 1] = "not tested: " .. l end
    end
    check(cfg and #cfg > 15 and #missing == 0, ("doc/guide.md's haproxy.cfg (%d lines) is a subset of "
        .. "spec/haproxy/haproxy.cfg"):format(cfg and #cfg or 0), missing)
    local source = lines(ids_path)
    local differ = {}
    for i = 1, math.max(#source, lua and #lua or 0) do
        if (lua or {})[i] ~= source[i] then
            add(differ, ("line %d: guide %q, ids.lua %q"):format(i, tostring((lua or {})[i]), tostring(source[i])))
        end
    end
    check(lua and #differ == 0, "doc/guide.md's HAProxy Lua file is spec/haproxy/ids.lua, line for line", differ)
end

tap:finish()
