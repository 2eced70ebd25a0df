-- spec/npm/mint.lua: IDs of every kind that the npm references read (UUID
-- versions 1, 3, 5, 6, 7 and the SHA-256 v8, KSUID, TypeID, Snowflakes of
-- the Twitter, Discord, Sonyflake and default layouts, CUID2), minted by the
-- module MINTID_MODULE names (default mintid), one JSON object a line on
-- stdout with what the module says of each ID (version, time, payload,
-- prefix, uuid, the other layout of a v1/v6, the inputs of a name-based
-- one). spec/npm/check.mjs has the references parse or recompute each.
-- Per kind, one copy of an ID with its last character changed is marked
-- "corrupt": the checks must catch it, so the stage is seen to be able to fail.
local module_name = os.getenv("MINTID_MODULE") or "mintid"
local mintid = require(module_name)

local function json_string(s)
    return '"' .. s:gsub('[%c"\\]', function(c) return string.format("\\u%04x", c:byte()) end) .. '"'
end

-- An integer (a 5.3+ integer, a double, or LuaJIT's int64 cdata) as decimal.
local function int(v)
    if type(v) == "cdata" then return (tostring(v):gsub("U?LL$", "")) end
    return string.format("%d", v)
end

local function hex(bytes)
    return (bytes:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

local function fromhex(h)
    return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end))
end

-- Field order is fixed so that the file reads the same on every run.
local ORDER = { "kind", "module", "id", "corrupt", "version", "time", "msecs", "clockseq", "node", "namespace",
    "name", "uuid1", "uuid6", "typeid", "payload", "prefix", "uuid", "layout", "epoch", "units", "machine", "seq",
    "counter", "letter", "salt", "entropy", "fingerprint", "valid", "random", "pid", "origin" }

local function emit(record)
    record.module = module_name
    local parts = {}
    for _, key in ipairs(ORDER) do
        local v = record[key]
        if v ~= nil then
            local text
            if type(v) == "boolean" then
                text = tostring(v)
            elseif type(v) == "string" then
                text = json_string(v)
            else
                text = int(v)
            end
            parts[#parts + 1] = json_string(key) .. ":" .. text
        end
    end
    io.write("{", table.concat(parts, ","), "}\n")
end

-- The same record with the last character of its ID changed, to be caught.
local function corrupt(record)
    local copy = {}
    for k, v in pairs(record) do copy[k] = v end
    copy.id = copy.id:sub(1, -2) .. (copy.id:sub(-1) == "0" and "1" or "0")
    copy.corrupt = true
    emit(copy)
end

-- Every UUID also carries its TypeID without prefix (the same 16 bytes in
-- lowercase base32), which typeid-js computes from the UUID text.
local function uuid_record(kind, id, extra)
    local v = assert(mintid.parse_uuid(id))
    local r = { kind = kind, id = id, version = v:version(), typeid = assert(mintid.typeid_from("", id)) }
    local ms = v:time()
    if ms then r.time = ms end
    for k, x in pairs(extra or {}) do r[k] = x end
    return r
end

---------------------------------------------------------------------------
-- The constants.
emit({ kind = "constants", namespace = mintid.NAMESPACE_DNS .. " " .. mintid.NAMESPACE_URL .. " "
    .. mintid.NAMESPACE_OID .. " " .. mintid.NAMESPACE_X500, id = mintid.UUID_NIL, uuid = mintid.UUID_MAX })

---------------------------------------------------------------------------
-- Name-based: each RFC name space and two others, names of every sort,
-- the name space given as text and as a value.
local namespaces = { mintid.NAMESPACE_DNS, mintid.NAMESPACE_URL, mintid.NAMESPACE_OID, mintid.NAMESPACE_X500,
    mintid.uuid4(), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f" }
local names = { "www.example.com", "", "h\195\169llo w\195\182rld \230\151\165\230\156\172", 'a "quoted" \\ name',
    ("long name "):rep(100) }
for i, ns in ipairs(namespaces) do
    for j, name in ipairs(names) do
        -- alternately the name space as text and as a UUID value
        local given = (i + j) % 2 == 0 and ns or assert(mintid.parse_uuid(ns))
        for _, kind in ipairs({ "uuid3", "uuid5", "uuid8_sha256" }) do
            local r = uuid_record(kind, assert(mintid[kind](given, name)), { namespace = ns, name = name })
            emit(r)
            if i == 1 and j == 1 then corrupt(r) end
        end
    end
end

---------------------------------------------------------------------------
-- Gregorian time: generators with a fixed node and clock_seq on a clock
-- that moves on at every call (a fresh tick each time: the reference's
-- nsecs is 0), from 1970 to the last millisecond of the 60-bit range; then
-- the process-wide ones on the real clock.
local readings = { 0, 1, 1645557742000, 1645557742001, 1700000000000, 4102444800000, 103072857660684 }
local nodes = {
    { node = fromhex("9f6bdeced846"), clock_seq = 0x33C8 }, -- RFC 9562 Appendix A
    { node = fromhex("000000000000"), clock_seq = 0 },
    { node = fromhex("ffffffffffff"), clock_seq = 16383 },
    { node = fromhex("0123456789ab"), clock_seq = 4660 },
}
for _, version in ipairs({ 1, 6 }) do
    local kind = "uuid" .. version
    local twin = version == 1 and "uuid6" or "uuid1"
    local convert = version == 1 and mintid.uuid1_to_uuid6 or mintid.uuid6_to_uuid1
    for n, fixed in ipairs(nodes) do
        local i = 0
        local g = mintid[kind .. "_generator"] { node = fixed.node, clock_seq = fixed.clock_seq, clock = function()
            i = i + 1
            return readings[i]
        end }
        for k, ms in ipairs(readings) do
            local id = assert(g:next())
            local r = uuid_record(kind, id, { msecs = ms, clockseq = fixed.clock_seq, node = hex(fixed.node),
                [twin] = assert(convert(id)) })
            emit(r)
            if n == 1 and k == 3 then corrupt(r) end
        end
    end
    for _ = 1, 5 do
        local id = mintid[kind]()
        emit(uuid_record(kind, id, { [twin] = assert(convert(id)) }))
    end
end

---------------------------------------------------------------------------
-- UUIDv7 (the references check the version and the bytes through typeid-js).
for k = 1, 5 do
    local r = uuid_record("uuid7", mintid.uuid7())
    emit(r)
    if k == 1 then corrupt(r) end
end

---------------------------------------------------------------------------
-- KSUID: the process-wide generator (monotonic within a second), one on a
-- stopped clock whose payloads count up across a byte, the ends of the
-- time range and segmentio's example.
local function ksuid_record(id)
    local v = assert(mintid.parse_ksuid(id))
    return { kind = "ksuid", id = tostring(v), time = v:time(), payload = hex(v:payload()) }
end
for k = 1, 10 do
    local r = ksuid_record(mintid.ksuid())
    emit(r)
    if k == 1 then corrupt(r) end
end
local stopped = mintid.ksuid_generator { clock = function() return 1700000000123 end,
    random = function(n) return ("\0"):rep(n - 2) .. "\255\253" end }
for _ = 1, 6 do emit(ksuid_record(assert(stopped:next()))) end
local payload = fromhex("b5a1cd34b5f99d1154fb6853345c9735")
for _, v in ipairs({ assert(mintid.ksuid_from(1507608047, payload)), assert(mintid.ksuid_from(1400000000, ("\0"):rep(16))),
    assert(mintid.ksuid_from(1400000000 + 4294967295, ("\255"):rep(16))),
    assert(mintid.ksuid_from_bytes(fromhex("0669f7ef") .. payload)),
    assert(mintid.parse_ksuid("0ujtsYcgvSTl8PAuAdqWYSMnLOv")) }) do
    emit(ksuid_record(tostring(v)))
end

---------------------------------------------------------------------------
-- TypeID: the process-wide generator and one of its own, prefixes of every
-- shape (none, with underscores, 63 letters), and UUIDs of other versions.
local function typeid_record(id)
    local v = assert(mintid.parse_typeid(id))
    return { kind = "typeid", id = id, prefix = v:prefix(), uuid = tostring(v:uuid()) }
end
for k, prefix in ipairs({ "user", "user", "", "a_b", "pre_fix_x", ("z"):rep(63) }) do
    local r = typeid_record(mintid.typeid(prefix))
    emit(r)
    if k == 1 then corrupt(r) end
end
local own = mintid.typeid_generator()
for _ = 1, 3 do emit(typeid_record(own:next("order"))) end
for _, uuid in ipairs({ "01890a5d-ac96-774b-bcce-b302099a8057", mintid.UUID_NIL, mintid.UUID_MAX, mintid.uuid4(),
    mintid.uuid6(), mintid.uuid5(mintid.NAMESPACE_DNS, "www.example.com") }) do
    emit(typeid_record(assert(mintid.typeid_from("prefix", uuid))))
    emit(typeid_record(assert(mintid.typeid_from("", assert(mintid.parse_uuid(uuid))))))
end

---------------------------------------------------------------------------
-- Snowflakes: generators of each layout on a clock the script sets, with
-- machine ids at the edges of the layout's range, several IDs in one time
-- unit (the sequence counting up), and the parts parse_snowflake gives.
-- "sonyflake_ms" is the layout the npm sonyflake package itself mints: 1 ms
-- units in Sonyflake's field widths (doc/fleet.md "Layouts").
local layouts = {
    { kind = "snowflake_twitter", layout = "twitter", machines = { 0, 31, 32, 378, 1023 } },
    { kind = "snowflake_discord", layout = "discord", machines = { 0, 1, 512, 1023 } },
    { kind = "sonyflake", layout = "sonyflake", machines = { 0, 1, 4660, 65535 } },
    { kind = "sonyflake_ms", layout = { time_bits = 39, time_unit_ms = 1, machine_bits = 16, seq_bits = 8,
        epoch = 1409529600000, order = "time-seq-machine" }, machines = { 0, 255, 256, 65535 } },
    { kind = "snowflake_id", layout = "mintid", machines = { 1, 7, 512, 1022 } },
}
local clock_readings = { 1656432460105, 1700000000000, 1700000000009, 1735689600000 }
for _, l in ipairs(layouts) do
    local normal = mintid.snowflake_layout(l.layout)
    for n, machine in ipairs(l.machines) do
        local now = 0
        local g = mintid.snowflake_generator { layout = l.layout, machine_id = machine, clock = function() return now end }
        for k, reading in ipairs(clock_readings) do
            now = reading
            for _ = 1, (k == 2 and 3 or 1) do -- three IDs in one unit: sequence 0, 1, 2
                local id = tostring(assert(g:next()))
                local ts, mid, seq = assert(mintid.parse_snowflake(id, l.layout))
                local r = { kind = l.kind, id = id, layout = type(l.layout) == "string" and l.layout or "custom",
                    time = ts, epoch = normal.epoch, units = math.floor((ts - normal.epoch) / normal.time_unit_ms),
                    machine = mid, seq = seq }
                emit(r)
                if n == 1 and k == 1 then corrupt(r) end
            end
        end
    end
end

---------------------------------------------------------------------------
-- CUID2: generators on a clock and random source the script sets, with
-- each ID's inputs (time, counter, letter, salt, and the fingerprint or the
-- 32 digits it was hashed from), which the reference's own init and
-- createFingerprint turn into the same ID; the process-wide generator's
-- IDs (the reference's isCuid only); and the reference's IDs (the file
-- CUID2_REFERENCE, from spec/npm/cuid2_reference.mjs), which is_cuid2 reads.
local DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
local LETTERS = "abcdefghijklmnopqrstuvwxyz"
-- Bytes below 234 only: none is rejected (SPEC "CUID2"), so each draw's
-- symbols are byte % radix and the script knows every input.
local function byte_stream(seed)
    local i = seed
    local function next_byte()
        i = i + 1
        return (i * 97 + seed) % 234
    end
    return next_byte
end
for n, case in ipairs({ { length = 24, fingerprint = "host-a" }, { length = 2, fingerprint = "f" },
    { length = 32, fingerprint = ("x"):rep(256) }, { length = 24 }, { length = 10 }, { length = 32 } }) do
    local next_byte = byte_stream(n * 13)
    local queue, draws = {}, {}
    local g = mintid.cuid2_generator { length = case.length, fingerprint = case.fingerprint,
        clock = function() return 1700000000000 + n * 1000 + #draws end,
        random = function(size)
            local t = {}
            for k = 1, size do t[k] = next_byte() end
            draws[#draws + 1] = t
            return string.char((unpack or table.unpack)(t))
        end }
    for k = 1, 3 do
        local first = #draws + 1
        local time = 1700000000000 + n * 1000 + #draws
        local id = assert(g:next())
        -- the generator's first call drew the counter (4 bytes) and, with
        -- no fingerprint given, the 32 digits of one; then letter and salt
        local at = first
        local r = { kind = "cuid2", id = id, time = time }
        if k == 1 then
            local c = draws[at]
            queue.counter = ((c[1] * 256 + c[2]) * 256 + c[3]) * 256 + c[4]
            queue.counter = queue.counter % 476782367
            at = at + 1
            if not case.fingerprint then
                local e = {}
                for j, b in ipairs(draws[at]) do e[j] = DIGITS:sub(b % 36 + 1, b % 36 + 1) end
                queue.entropy = table.concat(e)
                at = at + 1
            end
        end
        local d = draws[at]
        local salt = {}
        for j = 2, #d do salt[#salt + 1] = DIGITS:sub(d[j] % 36 + 1, d[j] % 36 + 1) end
        r.counter = queue.counter + k - 1
        r.letter = LETTERS:sub(d[1] % 26 + 1, d[1] % 26 + 1)
        r.salt = table.concat(salt)
        r.entropy = queue.entropy
        r.fingerprint = case.fingerprint
        assert(at == #draws, "one draw of length + 1 bytes per ID")
        emit(r)
        if n == 1 and k == 1 then corrupt(r) end
        if n == 4 and k == 2 then corrupt(r) end
    end
end
for length = 2, 32 do
    emit({ kind = "cuid2", id = mintid.cuid2(length) })
end
local own_cuid2 = mintid.cuid2_generator()
for _ = 1, 3 do emit({ kind = "cuid2", id = own_cuid2:next() }) end
local reference = os.getenv("CUID2_REFERENCE")
if reference then
    local count = 0
    for line in assert(io.open(reference)):lines() do
        emit({ kind = "cuid2_reference", id = line, valid = mintid.is_cuid2(line) })
        count = count + 1
    end
    assert(count > 0, "no CUID2 in " .. reference)
end

---------------------------------------------------------------------------
-- ObjectId and XID: the process-wide generators, generators at the ends of
-- the time range and across a counter wrap, bytes; then the IDs the npm
-- references minted (NPM_REFS, spec/npm/objectid_xid_refs.mjs), as mintid
-- reads them: check.mjs has the reference read the same fields.
local function objectid_record(id, origin)
    local v = assert(mintid.parse_objectid(id))
    return { kind = "objectid", id = tostring(v), time = v:time(), random = hex(v:bytes():sub(5, 9)),
        counter = v:counter(), origin = origin }
end
local function xid_record(id, origin)
    local v = assert(mintid.parse_xid(id))
    return { kind = "xid", id = tostring(v), time = v:time(), machine = hex(v:machine()), pid = v:pid(),
        counter = v:counter(), origin = origin }
end
for k = 1, 6 do
    local o, x = objectid_record(mintid.objectid()), xid_record(mintid.xid())
    emit(o)
    emit(x)
    if k == 1 then
        corrupt(o)
        corrupt(x)
    end
end
for _, ms in ipairs({ 0, 999, 1350508407000, 1700000000123, 4294967295999 }) do
    local near_wrap = function(n) return ("\171"):rep(n - 3) .. "\255\255\254" end
    local o = mintid.objectid_generator { clock = function() return ms end, random = near_wrap }
    local x = mintid.xid_generator { clock = function() return ms end, random = near_wrap, machine = "\1\2\3",
        pid = ms % 65536 }
    for _ = 1, 3 do
        emit(objectid_record(assert(o:next())))
        emit(xid_record(assert(x:next())))
    end
end
emit(objectid_record(tostring(assert(mintid.objectid_from_bytes(("\255"):rep(12))))))
emit(xid_record(tostring(assert(mintid.xid_from_bytes(("\255"):rep(11) .. "\254")))))
local refs = os.getenv("NPM_REFS")
if refs then
    for line in assert(io.open(refs)):lines() do
        local kind, id = line:match('^{"kind":"(%a+)","id":"(%w+)"}$')
        assert(kind, "NPM_REFS: unexpected line " .. line)
        emit((kind == "objectid" and objectid_record or xid_record)(id, "reference"))
    end
end
