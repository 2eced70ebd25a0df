-- The checks of `make test-nginx`, run by spec/nginx/run.sh after nginx has
-- stopped: reads the logs and answers of the run and prints TAP, numbered
-- from FIRST + 1. Uses the C API module (require "mintid") as the reference
-- the module under test (resty.mintid, in nginx) is compared with.
-- luajit check.lua FIRST TMPDIR GUIDE NGINX_CONF
local mintid = require "mintid"

local first, tmp, guide_path, conf_path = tonumber(arg[1]), arg[2], arg[3], arg[4]
local secret = assert(os.getenv("MINTID_SECRET"), "MINTID_SECRET is not set")
local node = tonumber(os.getenv("MINTID_NODE") or "0")
local WORKERS, LOAD_MIN = 4, 60000

local tap = require("tap").new(first)
local function check(ok, name, diagnostics) tap:check(ok, name, diagnostics) end

local lines = require("tap").lines

local function split(s, sep)
    local t = {}
    for field in (s .. sep):gmatch("(.-)" .. sep:gsub("%p", "%%%0")) do t[#t + 1] = field end
    return t
end

local function unescape(s)
    return (s:gsub("%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end))
end

-- the IDs of one kind: unique? (with diagnostics naming the repeats)
local function unique(list, seen)
    seen = seen or {}
    local repeats = {}
    for _, id in ipairs(list) do
        if seen[id] then repeats[#repeats + 1] = "repeated: " .. id end
        seen[id] = true
        if #repeats >= 5 then break end
    end
    return #repeats == 0, repeats
end

-- Each worker's IDs of one kind, in mint order, strictly increasing?
-- by_worker[pid] = { {seq, id}, ... }
local function increasing(by_worker)
    local bad = {}
    for pid, minted in pairs(by_worker) do
        table.sort(minted, function(a, b) return a[1] < b[1] end)
        for i = 2, #minted do
            if minted[i - 1][2] >= minted[i][2] then
                bad[#bad + 1] = ("worker %s: #%d %s then #%d %s"):format(
                    pid, minted[i - 1][1], minted[i - 1][2], minted[i][1], minted[i][2])
                break
            end
        end
    end
    return #bad == 0, bad
end

---------------------------------------------------------------------------
-- The access log for checks: pid|worker id|status|request seq|X-Request-Id|
-- mint seq|minted ID|request URI
local records = {}
for _, line in ipairs(lines(tmp .. "/logs/mint.log")) do
    local f = split(line, "|")
    local uri = f[8] or ""
    local path, query = uri:match("^([^?]*)%??(.*)$")
    local args = {}
    for k, v in query:gmatch("([^&=]+)=([^&]*)") do args[unescape(k)] = unescape(v) end
    local function field(i) return (f[i] ~= "" and f[i] ~= "-") and f[i] or nil end
    records[#records + 1] = {
        pid = f[1], worker = tonumber(f[2]), status = tonumber(f[3]),
        req_seq = tonumber(f[4]), request_id = field(5),
        mint_seq = tonumber(f[6]), id = field(7), path = path, args = args,
    }
end

-- The curl answers: NAME|status|X-Request-Id|body
local answers = {}
for _, line in ipairs(lines(tmp .. "/curl.out")) do
    local name, status, header, body = line:match("^(.-)|(%d+)|(.-)|(.*)$")
    local list = answers[name] or {}
    answers[name] = list
    list[#list + 1] = { status = tonumber(status), header = header, body = body }
end
local function answer(name) return (answers[name] or {})[1] or { body = "" } end

-- What the master minted before the fork
local in_master = {}
for entry in answer("master").body:gmatch("[^;]+") do
    local name, id = entry:match("^(%S+) (%S+)$")
    if name then in_master[name] = id end
end

---------------------------------------------------------------------------
-- The load
local wrk = table.concat(lines(tmp .. "/wrk.out"), "\n")
local connections = tonumber(wrk:match("(%d+) connections") or 0)
local errors = { wrk:match("wrk: requests (%d+) connect (%d+) read (%d+) write (%d+) status (%d+) timeout (%d+)") }
local wrk_ok = #errors == 6 and connections >= 16
for i = 2, 6 do wrk_ok = wrk_ok and tonumber(errors[i]) == 0 end
check(wrk_ok, ("wrk: %s requests over %d connections, no socket, HTTP or timeout error")
    :format(errors[1] or "?", connections), { wrk })

local LOAD = { ["/ulid"] = true, ["/uuid7"] = true, ["/snowflake"] = true, ["/relative"] = true,
    ["/frozen/ulid"] = true, ["/frozen/uuid7"] = true, ["/frozen/relative"] = true }
local per_path, load_total, not_200 = {}, 0, {}
for _, r in ipairs(records) do
    -- (the one /relative without a key is curl's, answered 400 on purpose)
    if LOAD[r.path] and not (r.path == "/relative" and not r.args.key) then
        if r.status == 200 then
            per_path[r.path] = (per_path[r.path] or 0) + 1
            load_total = load_total + 1
        elseif #not_200 < 5 then
            not_200[#not_200 + 1] = ("%s %s"):format(r.status, r.path)
        end
    end
end
local counts = {}
for path in pairs(LOAD) do counts[#counts + 1] = ("%s %d"):format(path, per_path[path] or 0) end
table.sort(counts)
print("# answered with an ID: " .. table.concat(counts, ", ") .. " (" .. #records .. " requests logged)")
local spread = true
for path in pairs(LOAD) do spread = spread and (per_path[path] or 0) >= 1000 end
check(load_total >= LOAD_MIN and spread and #not_200 == 0,
    ("%d ID requests answered 200 (want >= %d), every kind >= 1000"):format(load_total, LOAD_MIN), not_200)

---------------------------------------------------------------------------
-- Workers
local worker_of, pids, bad_workers = {}, {}, {}
for _, r in ipairs(records) do
    if worker_of[r.pid] == nil then
        worker_of[r.pid] = r.worker
        pids[#pids + 1] = r.pid
    elseif worker_of[r.pid] ~= r.worker then
        bad_workers[#bad_workers + 1] = ("pid %s logged worker ids %s and %s"):format(r.pid, worker_of[r.pid], r.worker)
    end
    if not (r.worker and r.worker >= 0 and r.worker < WORKERS) then
        bad_workers[#bad_workers + 1] = ("pid %s: worker id %s"):format(r.pid, tostring(r.worker))
    end
end
check(#pids >= 2 and #bad_workers == 0,
    ("%d workers served (want >= 2), each pid with one worker id in 0..%d"):format(#pids, WORKERS - 1), bad_workers)

-- Every ID a worker minted was logged once, in order: its sequence numbers
-- are exactly 1..N.
local gaps = {}
do
    local seqs = {}
    for _, r in ipairs(records) do
        local s = seqs[r.pid] or {}
        seqs[r.pid] = s
        for _, seq in ipairs { r.req_seq, r.mint_seq } do
            if s[seq] then gaps[#gaps + 1] = ("worker %s: #%d logged twice"):format(r.pid, seq) end
            s[seq] = true
        end
    end
    for pid, s in pairs(seqs) do
        local count = 0
        for _ in pairs(s) do count = count + 1 end
        for seq = 1, count do
            if not s[seq] then
                gaps[#gaps + 1] = ("worker %s: #%d missing of %d"):format(pid, seq, count)
                break
            end
        end
    end
end
check(#gaps == 0, "each worker's mint sequence is complete: every ID minted is logged once", gaps)

---------------------------------------------------------------------------
-- Request IDs: ULIDs from a generator made in the master, one per request
local request_ids, request_order, malformed = {}, {}, {}
for _, r in ipairs(records) do
    if r.request_id and mintid.parse_ulid(r.request_id) then
        request_ids[#request_ids + 1] = r.request_id
        local list = request_order[r.pid] or {}
        request_order[r.pid] = list
        list[#list + 1] = { r.req_seq, r.request_id }
    elseif #malformed < 5 then
        malformed[#malformed + 1] = ("%s %s: X-Request-Id %q"):format(r.status, r.path, tostring(r.request_id))
    end
end
check(#records > 0 and #malformed == 0, "every response carries one X-Request-Id, a ULID", malformed)

-- The guide's access log has the same request IDs.
local guide_log_ids = {}
for _, line in ipairs(lines(tmp .. "/logs/access.log")) do
    guide_log_ids[#guide_log_ids + 1] = line:match(" (%S+)$")
end
table.sort(guide_log_ids)
local sorted_ids = {}
for i, id in ipairs(request_ids) do sorted_ids[i] = id end
table.sort(sorted_ids)
local guide_log_ok = #guide_log_ids == #sorted_ids
for i = 1, #sorted_ids do guide_log_ok = guide_log_ok and sorted_ids[i] == guide_log_ids[i] end
check(guide_log_ok, "access.log (the guide's format) logs the same request IDs",
    { ("%d lines, %d request IDs"):format(#guide_log_ids, #sorted_ids) })

local ok, diag = unique(request_ids, { [in_master.requests or ""] = true, [in_master.ulid or ""] = true })
check(ok and in_master.requests ~= nil,
    ("%d request ULIDs unique across workers and the master's"):format(#request_ids), diag)
check(increasing(request_order), "each worker's request ULIDs strictly increase in mint order",
    select(2, increasing(request_order)))

---------------------------------------------------------------------------
-- IDs minted in the content phase, by location
local function minted(path, validate)
    local list, order, bad = {}, {}, {}
    for _, r in ipairs(records) do
        if r.path == path and r.status == 200 then
            local why = r.id and validate(r.id, r) or "no ID logged"
            if why ~= true then
                if #bad < 5 then bad[#bad + 1] = ("%s: %s %s"):format(path, tostring(r.id), why) end
            else
                list[#list + 1] = r.id
                local group = r.pid .. (r.args.key and " key " .. r.args.key or "")
                order[group] = order[group] or {}
                table.insert(order[group], { r.mint_seq, r.id })
            end
        end
    end
    return list, order, bad
end

local function is_uuid7(id)
    local u, err = mintid.parse_uuid(id)
    if not u then return err end
    return (u:version() == 7 and tostring(u) == id) or "not canonical UUIDv7 text"
end
local function is_ulid(id)
    local u, err = mintid.parse_ulid(id)
    return u and tostring(u) == id or err or "not canonical"
end
local reference = mintid.relative_generator { secret = secret, salt = "orders" }
local prefixes = {}
local function is_relative(id, r)
    local key = r.args.key
    prefixes[key] = prefixes[key] or reference:prefix(key)
    local v, err = mintid.parse_relative(id)
    if not v then return err end
    return id:sub(1, 7) == prefixes[key] or ("not the prefix %s of key %q"):format(prefixes[key], key)
end

local function kind_checks(label, path, validate, also_unique_with)
    local list, order, bad = minted(path, validate)
    check(#list > 0 and #bad == 0, ("%s: %d well-formed"):format(label, #list), bad)
    local seen = {}
    for _, id in ipairs(also_unique_with or {}) do seen[id] = true end
    local uniq, repeats = unique(list, seen)
    check(uniq, ("%s: unique across workers and the master's%s"):format(label,
        also_unique_with and #also_unique_with > 3 and " and every request ULID" or ""), repeats)
    check(increasing(order), ("%s: each worker's strictly increase in mint order"):format(label),
        select(2, increasing(order)))
    return list
end

kind_checks("UUIDv7s of a generator made in the master", "/uuid7", is_uuid7, { in_master.uuid7 })
kind_checks("relative IDs of a generator made in the master (per key)", "/relative",
    is_relative, { in_master.relative })
local keys = {}
for key in pairs(prefixes) do keys[#keys + 1] = ("%q %s"):format(key, prefixes[key]) end
table.sort(keys)
print("# relative ID keys and prefixes: " .. table.concat(keys, ", "))
check(#keys >= 6, ("relative IDs of %d keys (want >= 6) start with their key's g:prefix(key)"):format(#keys))

-- Snowflakes: one generator per worker, machine_id = node * 4 + worker id
local function is_snowflake(id, r)
    local _, machine = mintid.parse_snowflake(id)
    if not machine then return "does not parse" end
    return machine == node * WORKERS + r.worker
        or ("machine id %d, want %d for worker %d of node %d"):format(machine, node * WORKERS + r.worker, r.worker, node)
end
kind_checks(("Snowflake IDs, machine id = %d * %d + worker id"):format(node, WORKERS), "/snowflake", is_snowflake)

-- Generators made in the master with a clock frozen at its millisecond: a
-- worker that did not draw afresh would repeat the other workers' IDs.
local frozen_ms = mintid.parse_ulid(in_master.frozen_ulid or "") and mintid.parse_ulid(in_master.frozen_ulid):time()
local function frozen(validate)
    return function(id, r)
        local why = validate(id, r)
        if why ~= true then return why end
        local v = mintid.parse_ulid(id) or mintid.parse_uuid(id) or mintid.parse_relative(id)
        return v:time() == frozen_ms or ("time %s, want the master's %s"):format(v:time(), tostring(frozen_ms))
    end
end
local all_ulids = { in_master.frozen_ulid, in_master.requests, in_master.ulid }
for _, id in ipairs(request_ids) do all_ulids[#all_ulids + 1] = id end
kind_checks("ULIDs of a master-made generator in the master's ms (fork safety)", "/frozen/ulid",
    frozen(is_ulid), all_ulids)
kind_checks("UUIDv7s of a master-made generator in the master's ms (fork safety)", "/frozen/uuid7",
    frozen(is_uuid7), { in_master.frozen_uuid7 })
kind_checks("relative IDs of a master-made generator in the master's ms (fork safety)", "/frozen/relative",
    frozen(is_relative), { in_master.frozen_relative })

---------------------------------------------------------------------------
-- The curl answers
local function one_line(a) return a.body:match("^([^;]*);$") end

do
    local a, p = answer("ulid"), answer("proxied")
    check(a.status == 200 and one_line(a) == a.header and mintid.parse_ulid(a.header) ~= nil
        and p.status == 200 and one_line(p) == p.header and mintid.parse_ulid(p.header) ~= nil,
        "/ulid answers its X-Request-Id, and a proxied request's upstream saw the one the client got",
        { ("/ulid: %s %q header %q"):format(a.status, a.body, a.header),
          ("/hello: %s %q header %q"):format(p.status, p.body, p.header) })
end

do
    local a = answer("redirect")
    check(a.status == 404 and one_line(a) == a.header and mintid.parse_ulid(a.header) ~= nil,
        "an internal redirect keeps the request's ULID (404 page /ulid answers the X-Request-Id)",
        { ("%s %q header %q"):format(a.status, a.body, a.header) })
end

do
    local bad = {}
    for name, list in pairs(answers) do
        local input = name:match("^parse:(.*)$")
        if input then
            local a = list[1]
            local v, err = mintid.parse_ulid(input)
            local want_status, want = 400, err
            if v then want_status, want = 200, tostring(v) .. " " .. ("%.0f"):format(v:time()) end
            if a.status ~= want_status or one_line(a) ~= want then
                bad[#bad + 1] = ("%q: %s %q, want %d %q"):format(input, a.status, a.body, want_status, want)
            end
        end
    end
    local short = answer("parse:01ARZ3NDEKTSV4RRFFQ69G5FA")
    local good = answer("parse:01arz3ndektsv4rrffq69g5fav")
    local missing = answer("parse-missing")
    check(#bad == 0 and short.status == 400 and one_line(short) == "invalid ULID: length 25, want 26"
        and good.status == 200 and one_line(good) == "01ARZ3NDEKTSV4RRFFQ69G5FAV 1469922850259"
        and missing.status == 400 and one_line(missing) == "missing id",
        "/parse: 200 with canonical text and time, 400 with the one-line message for bad input", bad)
end

do
    local list, bad = answers["from-master"] or {}, {}
    for _, a in ipairs(list) do
        local message = one_line(a)
        local lower = (message or ""):lower()
        if a.status ~= 500 or not (lower:find("worker", 1, true) or lower:find("fork", 1, true)) then
            bad[#bad + 1] = ("%s %q"):format(a.status, a.body)
        end
    end
    local _, machine = mintid.parse_snowflake(in_master.snowflake or "x")
    check(#list > 0 and #bad == 0 and machine == 1023,
        "a Snowflake generator made in the master refuses in every worker (500, message says why)", bad)
    if list[1] then print("# its message: " .. (one_line(list[1]) or list[1].body)) end
end

do
    local missing = answer("relative-missing")
    check(missing.status == 400 and one_line(missing) == "missing key", "/relative without key: 400 \"missing key\"",
        { ("%s %q"):format(missing.status, missing.body) })
end

-- doc/guide.md "Trace context": a valid incoming trace continued as a new span,
-- anything else a new trace; the client and the upstream see one header.
do
    local T, P = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    local want = {
        { "trace-none", nil, 0 }, { "trace-valid", T, 1 }, { "trace-later", T, 3 },
        { "trace-ff", nil, 0 }, { "trace-upper", nil, 0 },
    }
    local bad = {}
    for _, w in ipairs(want) do
        local a = answer(w[1])
        local trace_id, parent_id, flags = mintid.parse_traceparent(a.header)
        local good = a.status == 200 and one_line(a) == a.header and trace_id ~= nil and flags == w[3]
            and parent_id ~= P and (w[2] == nil and trace_id ~= T or trace_id == w[2])
        if not good then bad[#bad + 1] = ("%s: %s header %q body %q"):format(w[1], a.status, a.header, a.body) end
    end
    local none = answers["trace-none"] or {}
    if #none ~= 2 or none[1].header == none[2].header then bad[#bad + 1] = "two new traces are not distinct" end
    check(#bad == 0, "/api/ (doc/guide.md): a valid traceparent continued as a new span, an invalid or missing one "
        .. "starts a trace; client and upstream see the same header", bad)
end

---------------------------------------------------------------------------
-- The guide's nginx.conf is a subset of the one tested: every line but
-- comments, paths, listen and proxy_pass appears in spec/nginx/nginx.conf.
do
    local tested = {}
    for _, line in ipairs(lines(conf_path)) do tested[line:match("^%s*(.-)%s*$")] = true end
    local snippet, inside, missing = 0, false, {}
    for _, line in ipairs(lines(guide_path)) do
        if line:match("^```nginx") then
            inside = true
        elseif inside and line:match("^```") then
            inside = false
        elseif inside then
            snippet = snippet + 1
            local l = line:match("^%s*(.-)%s*$")
            local skip = l == "" or l:match("^#") or l:match("^%-%-")
                or l:match("^lua_package_c?path ") or l:match("^listen ") or l:match("^proxy_pass ")
            if not skip and not tested[l] then missing[#missing + 1] = "not tested: " .. l end
        end
    end
    check(snippet > 20 and #missing == 0,
        ("doc/guide.md's nginx.conf (%d lines) is a subset of spec/nginx/nginx.conf"):format(snippet), missing)
end

do
    local bad = {}
    for _, line in ipairs(lines(tmp .. "/logs/error.log")) do
        local level = line:match("%[(%a+)%]")
        if level and level ~= "notice" and level ~= "info" and level ~= "debug" then
            if #bad < 10 then bad[#bad + 1] = line end
        end
    end
    check(#bad == 0, "no [warn], [error], [crit], [alert] or [emerg] in error.log", bad)
end

tap:finish()
