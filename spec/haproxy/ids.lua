-- mintid in HAProxy: request IDs, UUIDv7s, Snowflake IDs and W3C trace
-- context, for `lua-load-per-thread` (one Lua state per thread; each state
-- runs this file). doc/guide.md "HAProxy" says how to use it.
local mintid = require "mintid"
local lease = require "mintid.lease"

-- %[lua.ulid], %[lua.uuid7]: the process-wide default generators, which
-- every thread's state shares safely.
core.register_fetches("ulid", function() return mintid.ulid() end)
core.register_fetches("uuid7", function() return mintid.uuid7() end)

-- %[lua.snowflake]: each state mints with a machine id of its own, held by
-- a lock on the lock file (every haproxy process of the host uses the same
-- one, the old workers of a reload included). The master loads this file
-- before it forks the worker, so a state acquires at its first use, in the
-- worker: a lease taken in the master would refuse in the worker. So the
-- worker opens the lock file after haproxy.cfg's `chroot /var/lib/haproxy`:
-- its path is the one seen from inside, /var/lib/haproxy/mintid/mintid.lock
-- on the host (without a chroot line: a path such as /run/haproxy/...).
local machine_ids = lease.lock_file { path = "/mintid/mintid.lock", machine_ids = { 0, 63 } }
local flakes
core.register_fetches("snowflake", function()
    if not flakes then
        assert(machine_ids:acquire())
        flakes = mintid.snowflake_generator { lease = machine_ids }
    end
    return assert(flakes:next())
end)

-- http-request lua.traceparent: the request's traceparent continued as a
-- new span when valid, a new trace when missing or invalid, in
-- var(txn.traceparent).
core.register_action("traceparent", { "http-req" }, function(txn)
    local trace_id, _, flags = mintid.parse_traceparent(txn.sf:req_hdr("traceparent") or "")
    txn:set_var("txn.traceparent", mintid.traceparent(trace_id, nil, flags))
end)
