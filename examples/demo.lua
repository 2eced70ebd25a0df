-- make demo: one tour of every kind of ID mintid makes and reads.
local mintid = require "mintid"

local function section(title) print(("\n== %s"):format(title)) end

section("ULID: 26 chars, sortable, monotonic within a millisecond")
for _ = 1, 3 do print(mintid.ulid()) end
local u = mintid.parse_ulid(mintid.ulid())
print(("parsed %s: ms %d, same bytes as UUID %s"):format(tostring(u), u:time(), mintid.ulid_to_uuid(tostring(u))))

section("UUIDv7 (time-ordered) and UUIDv4 (random)")
for _ = 1, 2 do print(mintid.uuid7()) end
print(mintid.uuid4())
local v = mintid.parse_uuid(mintid.uuid7())
print(("version %d, ms %d"):format(v:version(), v:time()))

section("UUIDv1 and UUIDv6: a 100 ns clock, a clock sequence and a node; v6 sorts by time")
local v1, v6 = mintid.uuid1(), mintid.uuid6()
print(v1, "version " .. mintid.parse_uuid(v1):version())
print(v6, "version " .. mintid.parse_uuid(v6):version())
print(("v1 %s as v6 %s, ms %d"):format(v1, mintid.uuid1_to_uuid6(v1), mintid.parse_uuid(v1):time()))

section("UUIDv3 (MD5) and UUIDv5 (SHA-1): the same name space and name, the same UUID")
print(mintid.uuid3(mintid.NAMESPACE_DNS, "example.com"), "v3 of example.com")
print(mintid.uuid5(mintid.NAMESPACE_DNS, "example.com"), "v5 of example.com")
print(mintid.uuid5(mintid.NAMESPACE_URL, "https://example.com/"), "v5 of a URL")

section("UUIDv8: custom bytes, or the name-based SHA-256 of RFC 9562")
print(mintid.uuid8("0123456789abcdef"), "16 bytes of your own, version and variant set")
print(mintid.uuid8_sha256(mintid.NAMESPACE_DNS, "www.example.com"), "SHA-256 of a name")

section("KSUID: 27 base62 chars, seconds since 2014 and 16 random bytes")
for _ = 1, 2 do print(mintid.ksuid()) end
local k = mintid.parse_ksuid(mintid.ksuid())
print(("parsed %s: ms %d, payload %d bytes"):format(tostring(k), k:time(), #k:payload()))

section("MongoDB ObjectId and XID: seconds, this process's identity and a counter")
for _ = 1, 2 do print(mintid.objectid()) end
for _ = 1, 2 do print(mintid.xid()) end
local x = mintid.parse_xid(mintid.xid())
print(("parsed %s: ms %d, machine %d bytes, pid %d, counter %d"):format(tostring(x), x:time(), #x:machine(),
    x:pid(), x:counter()))

section("TypeID: a type prefix and a UUIDv7 in base32")
print(mintid.typeid("user"))
local t = mintid.parse_typeid(mintid.typeid("order"))
print(("parsed %s: prefix %s, UUID %s"):format(tostring(t), t:prefix(), tostring(t:uuid())))

section("Relative IDs: every ID of one customer starts with the same tag")
-- The secret comes from the environment (or a key store), never from source
-- code; this demo falls back to a throwaway one so that it runs anywhere.
local secret = os.getenv("MINTID_SECRET") or "demo-only secret, never use in production"
local orders = mintid.relative_generator { secret = secret, salt = "orders" }
for _, customer in ipairs { "customer-17", "customer-17", "customer-99" } do
   print(("%-12s %s"):format(customer, orders:next(customer)))
end
local lo, hi = mintid.relative_range(orders:prefix("customer-17"))
print(("SQL scan for customer-17: id >= '%s' AND id < '%s'"):format(lo, hi))

section("Snowflake: 64-bit integers, 4096 per ms per machine")
local flakes = mintid.snowflake_generator { machine_id = 42, epoch = 1288834974657 }
local id = flakes:next()
print(id, "-> timestamp, machine, sequence:", mintid.parse_snowflake(id, 1288834974657))

section("Nano ID: URL-safe random strings")
print(mintid.nanoid())
print(mintid.nanoid(10, "0123456789"))

section("CUID2: a letter and base-36 digits of a SHA3-512, paralleldrive/cuid2's")
print(mintid.cuid2())
print(mintid.cuid2(10), "length 10", mintid.is_cuid2(mintid.cuid2(10)))

section("W3C Trace Context: continue a valid traceparent as a new span, or start a trace")
local incoming = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
local trace_id, _, flags = mintid.parse_traceparent(incoming)
print(incoming, "->", mintid.traceparent(trace_id, nil, flags))
print(mintid.parse_traceparent("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
print("a new trace:", mintid.traceparent())

section("Bad input is data, not a crash")
print(mintid.parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAU"))
print(mintid.parse_uuid("{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}"))
