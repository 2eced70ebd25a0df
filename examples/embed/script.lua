-- script.lua: run by host.c in a lua_State where mintid was registered by the
-- host (package.path and package.cpath are empty: nothing is loaded from a
-- file). Mints and parses every kind; tap(ok, what) is the host's.
local mintid = require "mintid"

tap(package.loaded.mintid == mintid and type(mintid.ulid) == "function",
    "require 'mintid' gives the module the host registered (" .. _VERSION .. ")")

local ulid = mintid.ulid()
local u = mintid.parse_ulid(ulid)
tap(u ~= nil and tostring(u) == ulid and u:time() > 0, "ULID: minted and parsed back")

local v7 = mintid.uuid7()
local v = mintid.parse_uuid(v7)
tap(v ~= nil and tostring(v) == v7 and v:version() == 7, "UUIDv7: minted and parsed back")
local v4 = mintid.parse_uuid(mintid.uuid4())
tap(v4 ~= nil and v4:version() == 4, "UUIDv4: minted and parsed back")
tap(mintid.uuid_to_ulid(mintid.ulid_to_uuid(ulid)) == ulid, "ULID to UUID and back")

-- A real secret comes from the host's key store, never from source code.
local orders = mintid.relative_generator { secret = "example secret, not for production", salt = "orders" }
local rid = orders:next("customer-17")
local r = mintid.parse_relative(rid)
local lo, hi = mintid.relative_range(orders:prefix("customer-17"))
tap(r ~= nil and r:tag() == orders:tag("customer-17") and rid >= lo and rid < hi,
    "relative ID: minted, parsed, inside relative_range of its key")

local epoch = 1288834974657
local flake = mintid.snowflake_generator { machine_id = 7, epoch = epoch }:next()
local _, machine = mintid.parse_snowflake(flake, epoch)
tap(machine == 7, "Snowflake: minted and parsed back (machine 7)")

local nano = mintid.nanoid(12, "0123456789abcdef")
tap(#nano == 12 and nano:match("^[0-9a-f]+$") ~= nil and #mintid.nanoid() == 21, "Nano ID: minted")

local v1, v6 = mintid.parse_uuid(mintid.uuid1()), mintid.parse_uuid(mintid.uuid6())
tap(v1:version() == 1 and v6:version() == 6 and v6:time() >= v1:time()
    and mintid.uuid6_to_uuid1(mintid.uuid1_to_uuid6(tostring(v1))) == tostring(v1), "UUIDv1, v6: minted, timed, converted")
tap(mintid.uuid5(mintid.NAMESPACE_DNS, "www.example.com") == "2ed6657d-e927-568b-95e1-2665a8aea6a2",
    "UUIDv5: the RFC 9562 example")
local k = mintid.parse_ksuid(mintid.ksuid())
tap(k ~= nil and #k:bytes() == 20 and k:time() > 0, "KSUID: minted and parsed back")
local t = mintid.parse_typeid(mintid.typeid("user"))
tap(t ~= nil and t:prefix() == "user" and t:uuid():version() == 7, "TypeID: minted and parsed back")

local bad, msg = mintid.parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAU")
tap(bad == nil and type(msg) == "string", "bad text is nil, message: " .. tostring(msg))
