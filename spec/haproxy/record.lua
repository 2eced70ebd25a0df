-- Test only (make test-haproxy): loaded before the file under test, in the
-- same Lua state, it wraps core.register_fetches and core.register_action
-- so that every value a fetch returns, and every var(txn.traceparent) the
-- action sets (with the request's traceparent), is also written by the
-- state itself to a file of its own: $MINTID_RECORD/PID-THREAD (THREAD 0
-- for the one shared state of lua-load). spec/haproxy/check.lua compares
-- that record, what the Lua code made, with what HAProxy logged.
local dir = assert(os.getenv("MINTID_RECORD"), "MINTID_RECORD is not set")
local out

-- The file opens at the first value, in the worker (the master loads this
-- file before it forks), inside haproxy.cfg's chroot: the worker's pid
-- comes from HAProxy ("show info"), as /proc is not there.
local function record(...)
    if not out then
        local pid = assert(tonumber(tostring(core.get_info().Pid)), "no Pid in core.get_info()")
        out = assert(io.open(("%s/%d-%d"):format(dir, pid, core.thread), "a"))
        out:setvbuf("line")
    end
    out:write(table.concat({ ... }, "|"), "\n")
end

local register_fetches, register_action = core.register_fetches, core.register_action

function core.register_fetches(name, fetch)
    register_fetches(name, function(...)
        local value = fetch(...)
        record(name, tostring(value))
        return value
    end)
end

function core.register_action(name, actions, action, ...)
    register_action(name, actions, function(txn, ...)
        action(txn, ...)
        record(name, tostring(txn:get_var("txn." .. name)), txn.sf:req_hdr("traceparent") or "")
    end, ...)
end
