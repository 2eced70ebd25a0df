-- mintid.lease: machine ids for Snowflake generators, handed out and taken
-- back safely (doc/leases.md, doc/fleet.md).
--
--   local lease = require "mintid.lease"
--   local l = lease.lock_file { path = "/run/myapp/mintid.lock" }
--   assert(l:acquire())
--   local g = require("mintid").snowflake_generator { lease = l }
--
-- A lease object keeps its fence (mintid._lease_fence()) as the field
-- _fence; a generator made with `lease = l` mints only inside it. The same
-- module serves mintid and resty.mintid: both take the C module's fence.
local lease = {}

-- One host, no server: id i held by an OS lock on byte i of a file.
function lease.lock_file(opts) return require("mintid.lease.lock_file").new(opts) end

-- The ids in machine_ids locked in the file by some process now.
function lease.lock_file_holders(opts) return require("mintid.lease.lock_file").holders(opts) end

-- A fleet: ids held in the Redis the user runs.
function lease.redis(opts) return require("mintid.lease.redis").new(opts) end

return lease
