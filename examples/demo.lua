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

section("W3C Trace Context: continue a valid traceparent as a new span, or start a trace")
local incoming = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
local trace_id, _, flags = mintid.parse_traceparent(incoming)
print(incoming, "->", mintid.traceparent(trace_id, nil, flags))
print(mintid.parse_traceparent("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
print("a new trace:", mintid.traceparent())

section("Bad input is data, not a crash")
print(mintid.parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAU"))
print(mintid.parse_uuid("{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}"))
