-- API conventions (doc/guide.md "Errors"): bad data returns nil, message;
-- bad arguments raise, naming the argument; options are validated.
local h = require "helper"
local mintid = require(h.module_name)

local SECRET = "0123456789abcdef" -- 16 bytes
local RAND10 = "\1\2\3\4\5\6\7\8\9\10"
local unpack = unpack or table.unpack

-- Every constructor with the smallest options it needs.
local CONSTRUCTORS = {
    { "ulid_generator", {} },
    { "uuid7_generator", {} },
    { "uuid4_generator", {} },
    { "relative_generator", { secret = SECRET } },
    { "snowflake_generator", {} },
    { "nanoid_generator", {} },
    { "cuid2_generator", {} },
}

local function with(base, extra)
    local t = {}
    for k, v in pairs(base) do t[k] = v end
    for k, v in pairs(extra) do t[k] = v end
    return t
end

-- The generators that read a clock, and a call of each.
local CLOCKED = {
    { "ulid_generator", {}, function(g) return g:next() end },
    { "uuid7_generator", {}, function(g) return g:next() end },
    { "relative_generator", { secret = SECRET }, function(g) return g:next("k") end },
    { "snowflake_generator", {}, function(g) return g:next() end },
    { "cuid2_generator", {}, function(g) return g:next() end },
}

-- The generators that draw, with the size of their first draw.
local DRAWING = {
    { "ulid_generator", {}, 10, function(g) return g:next() end },
    { "uuid7_generator", {}, 10, function(g) return g:next() end },
    { "uuid4_generator", {}, 16, function(g) return g:next() end },
    { "relative_generator", { secret = SECRET }, 7, function(g) return g:next("k") end },
    { "nanoid_generator", {}, 21, function(g) return g:next() end },
}

-- The error spec of every function of the module, by name: the arguments
-- of one bad call and what it gets. The module is enumerated at run time,
-- so a function added without an entry here fails the suite.
local function raises(position, message, ...)
    return { args = { n = select("#", ...), ... }, raises = "bad argument #" .. position, message = message }
end
local function bad_data(message, ...)
    return { args = { n = select("#", ...), ... }, message = message }
end
-- A call that takes no argument and has no bad data: extra arguments are
-- ignored (as Lua functions ignore them) and it gives its text still.
local function ignores(...)
    return { args = { n = select("#", ...), ... }, ignored = true }
end

local V4 = "00000000-0000-4000-8000-000000000000"
local BAD_PREFIX = "invalid TypeID prefix: bad character 'B' at 1 (want a-z or '_')"
local ERROR_SPECS = {
    ulid = ignores(5, {}), uuid4 = ignores(5, {}), uuid7 = ignores(5, {}),
    uuid1 = ignores(5, {}), uuid6 = ignores(5, {}), ksuid = ignores(5, {}),
    nanoid = raises(1, "size must be 1..1048576, got 0", 0),
    typeid = raises(1, BAD_PREFIX, "Bad"),

    ulid_generator = raises(1, "unknown option 'x'", { x = 1 }),
    uuid7_generator = raises(1, "unknown option 'x'", { x = 1 }),
    uuid4_generator = raises(1, "unknown option 'x'", { x = 1 }),
    relative_generator = raises(1, "secret must be at least 16 bytes, got 5", { secret = "short" }),
    snowflake_generator = raises(1, "machine_id must be 0..1023, got 1024", { machine_id = 1024 }),
    nanoid_generator = raises(1, "alphabet repeats the symbol 'a' at 2", { alphabet = "aa" }),
    uuid1_generator = raises(1, "clock_seq must be 0..16383, got 16384", { clock_seq = 16384 }),
    uuid6_generator = raises(1, "node must be 6 bytes, got 5", { node = "12345" }),
    ksuid_generator = raises(1, "unknown option 'x'", { x = 1 }),
    typeid_generator = raises(1, "unknown option 'x'", { x = 1 }),
    cuid2 = raises(1, "length must be 2..32, got 33", 33),
    cuid2_generator = raises(1, "fingerprint must be 1..256 bytes, got 0", { fingerprint = "" }),
    is_cuid2 = raises(1, "string expected", 42),

    parse_ulid = bad_data("invalid ULID: length 4, want 26", "nope"),
    parse_uuid = bad_data("invalid UUID: length 4, want 36", "nope"),
    parse_relative = bad_data("invalid relative ID: length 4, want 28 (or 26 without hyphens)", "nope"),
    parse_snowflake = bad_data("invalid snowflake ID: bad character 'n' at 1", "nope"),
    parse_ksuid = bad_data("invalid KSUID: length 1, want 27", "x"),
    parse_typeid = bad_data("invalid TypeID: suffix length 1, want 26", "x"),
    ulid_to_uuid = bad_data("invalid ULID: length 4, want 26", "nope"),
    uuid_to_ulid = bad_data("invalid UUID: length 4, want 36", "nope"),
    ulid_from = bad_data("ULID timestamp -1 out of range 0..281474976710655", -1, RAND10),
    ulid_from_bytes = bad_data("invalid ULID bytes: length 5, want 16", "short"),
    uuid_from_bytes = bad_data("invalid UUID bytes: length 5, want 16", "short"),
    relative_from = bad_data("relative ID timestamp -1 out of range 0..281474976710655", 0, -1, 0),
    relative_tag = raises(1, "secret must be at least 16 bytes, got 5", "short", "", "k"),
    relative_range = bad_data("invalid relative ID: length 1, want 28 (or 26 without hyphens)", "x"),
    uuid3 = bad_data("invalid UUID: length 1, want 36", "x", "name"),
    uuid5 = bad_data("invalid UUID: length 1, want 36", "x", "name"),
    uuid8_sha256 = bad_data("invalid UUID: length 1, want 36", "x", "name"),
    uuid8 = bad_data("invalid UUIDv8 bytes: length 1, want 16", "x"),
    uuid1_to_uuid6 = bad_data("UUID is version 4, not 1", V4),
    uuid6_to_uuid1 = bad_data("UUID is version 4, not 6", V4),
    ksuid_from = bad_data("KSUID payload must be 16 bytes, got 1", 1400000000, "x"),
    ksuid_from_bytes = bad_data("invalid KSUID bytes: length 1, want 20", "x"),
    objectid = ignores(5, {}), xid = ignores(5, {}),
    objectid_generator = raises(1, "unknown option 'x'", { x = 1 }),
    xid_generator = raises(1, "pid must be 0..65535, got 65536", { pid = 65536 }),
    parse_objectid = bad_data("invalid ObjectId: length 1, want 24", "x"),
    parse_xid = bad_data("invalid XID: length 1, want 20", "x"),
    objectid_from_bytes = bad_data("invalid ObjectId bytes: length 1, want 12", "x"),
    xid_from_bytes = bad_data("invalid XID bytes: length 1, want 12", "x"),
    typeid_from = raises(1, BAD_PREFIX, "Bad", V4),
    short_uuid = bad_data("invalid UUID: length 4, want 36", "nope"),
    parse_short_uuid = bad_data("invalid short UUID: length 4, want 22", "nope"),
    is_ulid = raises(1, "string expected", 42),
    is_uuid = raises(1, "string expected", 42),
    is_ksuid = raises(1, "string expected", 42),
    is_typeid = raises(1, "string expected", 42),
    is_nanoid = raises(2, "size must be 1..1048576, got 0", "x", 0),
    kind_of = bad_data("unrecognised ID: length 4 (want a 26-char ULID, a 36-char UUID, a 27-char KSUID,"
        .. " a TypeID prefix_suffix, a 28-char relative ID, a 24-char ObjectId, a 20-char XID, Snowflake digits or a"
        .. " traceparent header)", "nope"),

    trace_id = ignores(5, {}), span_id = ignores(5, {}),
    traceparent = bad_data("invalid trace-id: length 4, want 32", "nope"),
    parse_traceparent = bad_data("invalid traceparent: length 4, want at least 55", "nope"),
    sqids = raises(1, "min_length must be 0..255, got 256", { min_length = 256 }),

    _lease_fence = raises(1, "layout: unknown layout preset 'nope'", "nope"),
    snowflake_layout = raises(1, "layout: unknown layout preset 'nope'", "nope"),
    _lock_file = raises(1, "path is empty", ""),
}

local sorted_keys = h.sorted_keys

describe("API conventions", function()
    describe("the module", function()
        -- The storm (spec/storm) finds the public functions the same way:
        -- every function value of the module table, "_" names included.
        it("every function of the module has an error spec in ERROR_SPECS, and every spec a function", function()
            local missing = {}
            for _, name in ipairs(sorted_keys(mintid)) do
                if type(mintid[name]) == "function" and not ERROR_SPECS[name] then
                    missing[#missing + 1] = "mintid." .. name
                end
            end
            assert(#missing == 0, "no error spec for " .. table.concat(missing, ", ")
                .. ": add one to ERROR_SPECS in spec/07-errors_spec.lua")
            for _, name in ipairs(sorted_keys(ERROR_SPECS)) do
                assert.are.equal("function", type(mintid[name]), "ERROR_SPECS names mintid." .. name)
            end
            assert.are.equal("string", type(mintid._VERSION))
            assert.is_true(#mintid._VERSION > 0)
        end)

        for _, name in ipairs(sorted_keys(ERROR_SPECS)) do
            local spec = ERROR_SPECS[name]
            local what = spec.ignored and "ignores extra arguments" or spec.raises and "raises: " .. spec.message
                or "nil, " .. spec.message
            it("mintid." .. name .. " " .. what, function()
                local function call() return mintid[name](unpack(spec.args, 1, spec.args.n)) end
                if spec.raises then
                    h.raises(call, spec.raises, spec.message)
                elseif spec.ignored then
                    local v = call()
                    local want = spec.ignored == true and "string" or spec.ignored
                    assert.are.equal(want, type(v), name)
                    if want == "string" then assert.are.equal(#mintid[name](), #v, name) end
                else
                    local ok, v, msg = pcall(call)
                    assert.is_true(ok, name .. " raised: " .. tostring(v))
                    h.assert_bad_data(v, msg, spec.message, name)
                    assert.are.equal(spec.message, msg, name)
                end
            end)
        end

        it("the one-shot calls are the C functions themselves, or FFI calls (no Lua wrapper around a C API call)", function()
            local core = require "mintid"
            -- resty.mintid under LuaJIT: Lua functions the JIT compiles, around one FFI call
            local ffi_path = h.module_name == "resty.mintid" and jit ~= nil
            for _, name in ipairs({ "ulid", "uuid4", "uuid7", "nanoid", "trace_id", "span_id" }) do
                assert.are.equal(not ffi_path, rawequal(core[name], mintid[name]), name)
            end
        end)

        it("every generator's methods exist", function()
            for _, c in ipairs(CONSTRUCTORS) do
                local g = mintid[c[1]](with(c[2], {}))
                assert.are.equal("userdata", type(g), c[1])
                assert.are.equal("function", type(g.next), c[1] .. ":next")
            end
            local r = mintid.relative_generator { secret = SECRET }
            assert.are.equal("function", type(r.prefix))
            assert.are.equal("function", type(r.tag))
            for _, name in ipairs({ "ulid_generator", "uuid7_generator", "uuid4_generator" }) do
                assert.are.equal("function", type(mintid[name]().next_value), name .. ":next_value")
            end
            assert.are.equal("function", type(r.next_value), "relative_generator:next_value")
        end)
    end)

    describe("bad data returns nil and a one-line message", function()
        it("for every parser, converter and builder", function()
            local cases = {
                { "parse_ulid", { "nope" }, "invalid ULID: length 4, want 26" },
                { "parse_uuid", { "nope" }, "invalid UUID: length 4, want 36" },
                { "parse_relative", { "nope" }, "invalid relative ID: length 4, want 28 (or 26 without hyphens)" },
                { "parse_snowflake", { "nope" }, "invalid snowflake ID: bad character 'n' at 1" },
                { "ulid_to_uuid", { "nope" }, "invalid ULID: length 4, want 26" },
                { "uuid_to_ulid", { "nope" }, "invalid UUID: length 4, want 36" },
                { "ulid_from", { -1, RAND10 }, "ULID timestamp -1 out of range 0..281474976710655" },
                { "relative_from", { 0, -1, 0 }, "relative ID timestamp -1 out of range 0..281474976710655" },
                { "ulid_from_bytes", { "short" }, nil },
                { "uuid_from_bytes", { "short" }, nil },
                { "parse_traceparent", { "nope" }, "invalid traceparent: length 4, want at least 55" },
                { "traceparent", { "nope" }, "invalid trace-id: length 4, want 32" },
                { "traceparent", { nil, "nope" }, "invalid parent-id: length 4, want 16" },
            }
            for _, c in ipairs(cases) do
                -- (a leading nil: the length of { nil, x } may be 0 or 2, and is 0 on 5.5)
                local ok, v, msg = pcall(mintid[c[1]], unpack(c[2], 1, c[2][1] == nil and 2 or #c[2]))
                assert.is_true(ok, c[1] .. " raised: " .. tostring(v))
                h.assert_bad_data(v, msg, c[3], c[1])
                if c[3] then assert.are.equal(c[3], msg, c[1]) end
            end
        end)

        it("a negative number to parse_snowflake gets the message of the same decimal text", function()
            for _, n in ipairs({ -1, -5, -1.0, -4194308096 }) do
                local text = string.format("%d", n)
                local v, msg = mintid.parse_snowflake(n)
                h.assert_bad_data(v, msg, nil, "parse_snowflake(" .. text .. ")")
                local _, want = mintid.parse_snowflake(text)
                assert.are.equal("invalid snowflake ID: bad character '-' at 1", want)
                assert.are.equal(want, msg)
            end
            -- the epoch is checked as the generators check it
            h.raises(function() return mintid.parse_snowflake("1", -5) end,
                "bad argument #2", "epoch must be >= 0, got -5")
            h.raises(function() return mintid.snowflake_generator { epoch = -5 } end,
                "epoch must be >= 0, got -5")
        end)
    end)

    describe("bad arguments raise", function()

        it("wrong types, naming the argument", function()
            local cases = {
                { "parse_ulid", {}, 1, "string expected, got no value" },
                { "parse_ulid", { {} }, 1, "string expected, got table" },
                { "parse_ulid", { true }, 1, "string expected, got boolean" },
                { "parse_uuid", { nil }, 1, "string expected, got no value" },
                { "parse_uuid", { {} }, 1, "string expected, got table" },
                { "parse_relative", { nil }, 1, "string expected, got no value" },
                { "parse_relative", { print }, 1, "string expected, got function" },
                { "ulid_to_uuid", { {} }, 1, "string expected, got table" },
                { "uuid_to_ulid", { false }, 1, "string expected, got boolean" },
                { "ulid_from_bytes", { {} }, 1, "string expected, got table" },
                { "uuid_from_bytes", { nil }, 1, "string expected, got no value" },
                { "ulid_from", { {}, RAND10 }, 1, "integer expected, got table" },
                { "ulid_from", { "abc", RAND10 }, 1, "integer expected, got string" },
                { "ulid_from", { 0, nil }, 2, "string expected, got no value" },
                { "ulid_from", { 0, {} }, 2, "string expected, got table" },
                { "relative_from", { nil, 0, 0 }, 1, "integer expected, got nil" },
                { "relative_from", { 0, {}, 0 }, 2, "integer expected, got table" },
                { "relative_from", { 0, 0, "x" }, 3, "integer expected, got string" },
                { "relative_tag", { {}, "", "k" }, 1, "string expected, got table" },
                { "relative_tag", { SECRET, {}, "k" }, 2, "string expected, got table" },
                { "relative_tag", { SECRET, "", {} }, 3, "key must be a string or a 64-bit integer, got table" },
                { "relative_tag", { nil, "", "k" }, 1, "string expected, got nil" },
                -- numbers are not secrets or salts: 42.0 would be "42.0" on 5.3+, "42" on 5.1
                { "relative_tag", { 1234567890123456, "", "k" }, 1, "string expected, got number" },
                { "relative_tag", { SECRET, 42, "k" }, 2, "string expected, got number" },
                { "parse_snowflake", { nil }, 1, "integer or decimal string expected, got no value" },
                { "parse_snowflake", { {} }, 1, "integer or decimal string expected, got table" },
                { "parse_snowflake", { "1", {} }, 2, "layout: field 'time_bits' is required" },
                { "parse_snowflake", { "1", true }, 2, "integer expected, got boolean" },
                { "nanoid", { "x" }, 1, "integer expected, got string" },
                { "nanoid", { {} }, 1, "integer expected, got table" },
                { "nanoid", { 21, {} }, 2, "string expected, got table" },
                { "parse_traceparent", {}, 1, "string expected, got no value" },
                { "parse_traceparent", { {} }, 1, "string expected, got table" },
                { "traceparent", { 5 }, 1, "string expected, got number" },
                { "traceparent", { nil, true }, 2, "string expected, got boolean" },
                { "traceparent", { nil, nil, {} }, 3, "flags must be an integer 0..255, got table" },
            }
            for _, c in ipairs(cases) do
                local args = c[2]
                local n = 0
                for k in pairs(args) do if k > n then n = k end end
                h.raises(function() return mintid[c[1]](unpack(args, 1, math.max(n, #args))) end,
                    "bad argument #" .. c[3], c[4])
            end
        end)

        it("non-integer numbers where integers are wanted", function()
            local no_int = "number has no integer representation"
            h.raises(function() return mintid.ulid_from(1.5, RAND10) end, "bad argument #1", no_int)
            h.raises(function() return mintid.relative_from(0.5, 0, 0) end, "bad argument #1", no_int)
            h.raises(function() return mintid.relative_from(0, 0.5, 0) end, "bad argument #2", no_int)
            h.raises(function() return mintid.relative_from(0, 0, 0.5) end, "bad argument #3", no_int)
            h.raises(function() return mintid.nanoid(1.5) end, "bad argument #1", no_int)
            h.raises(function() return mintid.snowflake_generator { machine_id = 1.5 } end,
                "machine_id must be an integer, got 1.5")
            h.raises(function() return mintid.snowflake_generator { epoch = 0.5 } end, "epoch must be an integer, got 0.5")
            h.raises(function() return mintid.parse_snowflake("1", 0.5) end, "bad argument #2", no_int)
            h.raises(function() return mintid.traceparent(nil, nil, 0.5) end, "bad argument #3",
                "flags must be an integer 0..255, got 0.5")
        end)

        it("a secret shorter than 16 bytes", function()
            h.raises(function() return mintid.relative_generator { secret = "short" } end,
                "secret must be at least 16 bytes, got 5")
            h.raises(function() return mintid.relative_generator { secret = SECRET:sub(1, 15) } end,
                "secret must be at least 16 bytes, got 15")
            h.raises(function() return mintid.relative_generator { secret = "" } end,
                "secret must be at least 16 bytes, got 0")
            h.raises(function() return mintid.relative_tag("short", "", "k") end,
                "secret must be at least 16 bytes, got 5")
            h.raises(function() return mintid.relative_generator {} end, "secret")
            h.raises(function() return mintid.relative_generator() end, "secret")
            -- 16 bytes are enough, and the 16th byte is part of the key
            local tag = mintid.relative_tag(SECRET, "", "k")
            local id = mintid.relative_generator { secret = SECRET }:next("k")
            assert.are.equal(tag, assert(mintid.parse_relative(id)):tag(), id)
            local other = SECRET:sub(1, 15) .. "g"
            assert.are_not.equal(tag, mintid.relative_tag(other, "", "k"), "the secrets differ in byte 16 only")
        end)

        it("machine_id outside 0..1023", function()
            h.raises(function() return mintid.snowflake_generator { machine_id = 1024 } end,
                "machine_id must be 0..1023, got 1024")
            h.raises(function() return mintid.snowflake_generator { machine_id = -1 } end,
                "machine_id must be 0..1023, got -1")
            h.raises(function() return mintid.snowflake_generator { machine_id = h.int(2 ^ 32) } end,
                "machine_id must be 0..1023, got 4294967296")
            for _, mid in ipairs({ 0, 1023 }) do
                local g = mintid.snowflake_generator { machine_id = mid, clock = function() return 1 end }
                local _, got = mintid.parse_snowflake(g:next())
                assert.are.equal(mid, got)
            end
        end)

        it("alphabets of 0 or more than 256 symbols, repeated symbols, multi-byte UTF-8", function()
            local cases = {
                { "", "alphabet must have 1 to 256 symbols, got 0" },
                { h.ALL_BYTES .. "a", "alphabet must have 1 to 256 symbols, got 257" },
                { h.ALL_BYTES .. h.ALL_BYTES, "alphabet must have 1 to 256 symbols, got 512" },
                { "abcda", "alphabet repeats the symbol 'a' at 5" },
                { "aa", "alphabet repeats the symbol 'a' at 2" },
                { "\1\2\1", "alphabet repeats the symbol 0x01 at 3" },
                { "\206\177\206\178\206\179", "alphabet symbols are single bytes, but it holds a multi-byte UTF-8 character at byte 1" },
                { "abc\195\169", "alphabet symbols are single bytes, but it holds a multi-byte UTF-8 character at byte 4" },
            }
            for _, c in ipairs(cases) do
                h.raises(function() return mintid.nanoid(21, c[1]) end, c[2])
                h.raises(function() return mintid.nanoid_generator { alphabet = c[1] } end, c[2])
            end
        end)

        it("sizes outside 1..1048576, huge ones included (an error, no crash)", function()
            local cases = {
                { 0, "size must be 1..1048576, got 0" },
                { -1, "size must be 1..1048576, got -1" },
                { 1048577, "size must be 1..1048576, got 1048577" },
                { h.int(2 ^ 40), "size must be 1..1048576, got 1099511627776" },
                { h.int(2 ^ 53), "size must be 1..1048576, got 9007199254740992" },
            }
            for _, c in ipairs(cases) do
                h.raises(function() return mintid.nanoid(c[1]) end, c[2])
                h.raises(function() return mintid.nanoid(c[1], "abc") end, c[2])
                h.raises(function() return mintid.nanoid_generator { size = c[1] } end, c[2])
                h.raises(function() return mintid.nanoid_generator { size = c[1], alphabet = "abc" } end, c[2])
            end
            h.raises(function() return mintid.nanoid(1e300) end, "number has no integer representation")
            h.raises(function() return mintid.nanoid(-1e300) end, "number has no integer representation")
            h.raises(function() return mintid.nanoid_generator { size = 1 / 0 } end, "size must be an integer, got inf")
            h.raises(function() return mintid.nanoid_generator { size = 0 / 0 } end, "size must be an integer, got nan")
        end)

        it("methods without their key, or with keys of the wrong type", function()
            local g = mintid.relative_generator { secret = SECRET }
            for _, m in ipairs({ "next", "prefix", "tag", "next_value" }) do
                h.raises(function() return g[m](g) end, "bad argument")
                h.raises(function() return g[m](g, {}) end, "bad argument")
            end
            h.raises(function() return mintid.relative_range() end, "bad argument #1", "string expected, got no value")
        end)
    end)

    describe("options", function()
        it("an options argument that is not a table raises", function()
            for _, c in ipairs(CONSTRUCTORS) do
                h.raises(function() return mintid[c[1]](5) end, "bad argument #1", "table expected, got number")
                h.raises(function() return mintid[c[1]]("clock") end, "bad argument #1", "table expected, got string")
                h.raises(function() return mintid[c[1]](true) end, "bad argument #1", "table expected, got boolean")
            end
            -- no options at all is fine where nothing is required, and gives
            -- the defaults: the generator mints an ID of its kind
            local mints = {
                ulid_generator = function(id) return id:match(h.ULID_PATTERN) ~= nil end,
                uuid7_generator = function(id) return assert(mintid.parse_uuid(id)):version() == 7 end,
                uuid4_generator = function(id) return assert(mintid.parse_uuid(id)):version() == 4 end,
                -- machine_id 1 and epoch 0: a time within a day of now
                snowflake_generator = function(id)
                    local ts, mid = h.snowflake_parts(id, 0)
                    return mid == 1 and math.abs(ts - os.time() * 1000) < 86400000
                end,
                nanoid_generator = function(id)
                    return #id == 21 and not id:find("[^" .. h.DEFAULT_ALPHABET:gsub("%-", "%%-") .. "]")
                end,
            }
            for name, is_default in pairs(mints) do
                for _, g in ipairs({ mintid[name](), mintid[name](nil), mintid[name]({}) }) do
                    local id = g:next()
                    assert.is_true(is_default(id), name .. " with no options: " .. tostring(id))
                end
            end
        end)

        it("unknown option keys raise, naming the key", function()
            h.raises(function() return mintid.snowflake_generator { machineid = 5 } end, "unknown option 'machineid'")
            h.raises(function() return mintid.ulid_generator { secret = SECRET } end, "unknown option 'secret'")
            h.raises(function() return mintid.uuid4_generator { epoch = 0 } end, "unknown option 'epoch'")
            h.raises(function() return mintid.uuid7_generator { size = 5 } end, "unknown option 'size'")
            h.raises(function() return mintid.relative_generator { secret = SECRET, machine_id = 1 } end,
                "unknown option 'machine_id'")
            h.raises(function() return mintid.nanoid_generator { salt = "x" } end, "unknown option 'salt'")
            for _, c in ipairs(CONSTRUCTORS) do
                h.raises(function() return mintid[c[1]](with(c[2], { clocks = os.time })) end, "unknown option 'clocks'")
                h.raises(function() return mintid[c[1]](with(c[2], { [1] = "x" })) end,
                    "option names must be strings, got number")
            end
        end)

        it("every constructor accepts clock and random", function()
            for _, c in ipairs(CONSTRUCTORS) do
                local g = mintid[c[1]](with(c[2], { clock = function() return 1 end, random = function(n) return ("\0"):rep(n) end }))
                assert.are.equal("userdata", type(g), c[1])
            end
        end)

        it("generators use only what their kind needs: no clock for UUIDv4 and Nano ID, no random for snowflakes", function()
            local no_clock = function() error("this generator must not read the clock", 0) end
            local zeros = function(n) return ("\0"):rep(n) end
            local g4 = mintid.uuid4_generator { clock = no_clock, random = zeros }
            assert.are.equal("00000000-0000-4000-8000-000000000000", g4:next())
            local gn = mintid.nanoid_generator { clock = no_clock, random = zeros }
            assert.are.equal(("u"):rep(21), gn:next())
            local gs = mintid.snowflake_generator { clock = function() return 1000 end, random = h.no_random("snowflake") }
            assert.are.equal("4194308096", h.dec(gs:next()))
        end)

        it("options of the wrong type raise, naming the option", function()
            local cases = {
                { "ulid_generator", { clock = 5 }, "clock" },
                { "ulid_generator", { random = "x" }, "random" },
                { "uuid7_generator", { clock = {} }, "clock" },
                { "uuid4_generator", { random = true }, "random" },
                { "relative_generator", { secret = {} }, "secret" },
                { "relative_generator", { secret = SECRET, salt = {} }, "salt" },
                { "relative_generator", { secret = SECRET, clock = "now" }, "clock" },
                { "snowflake_generator", { machine_id = "x" }, "machine_id" },
                { "snowflake_generator", { epoch = {} }, "epoch" },
                { "nanoid_generator", { size = {} }, "size" },
                { "nanoid_generator", { size = "big" }, "size" },
                { "nanoid_generator", { alphabet = {} }, "alphabet" },
                { "nanoid_generator", { random = 1 }, "random" },
            }
            for _, c in ipairs(cases) do
                h.raises(function() return mintid[c[1]](c[2]) end, c[3])
            end
        end)
    end)

    describe("injected clock", function()
        it("a non-integer reading raises", function()
            for _, c in ipairs(CLOCKED) do
                for _, bad in ipairs({ { "1000", "string" }, { false, "boolean" }, { {}, "table" } }) do
                    local g = mintid[c[1]](with(c[2], { clock = function() return bad[1] end }))
                    h.raises(function() return c[3](g) end, "clock must return an integer (ms), got " .. bad[2])
                end
                local g = mintid[c[1]](with(c[2], { clock = function() return nil end }))
                h.raises(function() return c[3](g) end, "clock must return an integer (ms)")
                g = mintid[c[1]](with(c[2], { clock = function() return 1.5 end }))
                h.raises(function() return c[3](g) end, "clock must return an integer (ms)")
            end
        end)

        it("an error in the clock propagates, and the generator stays usable", function()
            for _, c in ipairs(CLOCKED) do
                local fail = true
                local g = mintid[c[1]](with(c[2], {
                    clock = function()
                        if fail then error("clock exploded") end
                        return 1000
                    end,
                }))
                h.raises(function() return c[3](g) end, "clock exploded")
                fail = false
                assert.is_not_nil(c[3](g), c[1])
            end
        end)

        it("a reading out of range is nil, message (bad data, not an error)", function()
            for _, c in ipairs(CLOCKED) do
                local g = mintid[c[1]](with(c[2], { clock = function() return -1 end }))
                local ok, v, msg = pcall(c[3], g)
                assert.is_true(ok, c[1] .. " raised: " .. tostring(v))
                h.assert_bad_data(v, msg, "timestamp -1", c[1])
            end
        end)
    end)

    describe("injected random", function()
        it("a result of the wrong length raises, and the state is unchanged", function()
            for _, c in ipairs(DRAWING) do
                local n = c[3]
                for _, bad in ipairs({ n - 1, n + 1, 0 }) do
                    local draws, good = 0, false
                    local g = mintid[c[1]](with(c[2], {
                        clock = function() return 1000 end,
                        random = function(k)
                            draws = draws + 1
                            if k ~= n then error(c[1] .. ": random(" .. tostring(k) .. "), want " .. n, 0) end
                            return ("\0"):rep(good and k or bad)
                        end,
                    }))
                    h.raises(function() return c[4](g) end,
                        "random(" .. n .. ") returned " .. bad .. " bytes, want " .. n)
                    -- nothing was recorded: the next call draws again, as a first call
                    good = true
                    local v, msg = c[4](g)
                    assert(v ~= nil, c[1] .. ": " .. tostring(msg))
                    assert.are.equal(2, draws, c[1] .. ": the call after the error drew fresh bytes")
                end
            end
        end)

        it("a result of the wrong type raises", function()
            for _, c in ipairs(DRAWING) do
                for _, bad in ipairs({ false, 12345, {} }) do
                    local g = mintid[c[1]](with(c[2], { clock = function() return 1000 end, random = function() return bad end }))
                    h.raises(function() return c[4](g) end, "random(" .. c[3] .. ")")
                end
                local g = mintid[c[1]](with(c[2], { clock = function() return 1000 end, random = function() return nil end }))
                h.raises(function() return c[4](g) end, "random(" .. c[3] .. ")")
            end
        end)

        it("an error in random propagates, and the next call draws again as a first call", function()
            for _, c in ipairs(DRAWING) do
                local fail = true
                local draws = 0
                local g = mintid[c[1]](with(c[2], {
                    clock = function() return 1000 end,
                    random = function(n)
                        draws = draws + 1
                        if fail then error("random exploded") end
                        return ("\0"):rep(n)
                    end,
                }))
                h.raises(function() return c[4](g) end, "random exploded")
                assert.are.equal(1, draws, c[1])
                fail = false
                assert.is_not_nil(c[4](g), c[1])
                assert.are.equal(2, draws, c[1] .. ": the call after the error drew fresh bytes")
            end
        end)
    end)

    describe("hooks, closing and the collector", function()
        -- Every generator kind, a call of it, and how many of the two hooks
        -- it keeps (UUIDv4 and Nano ID read no clock, snowflakes draw nothing).
        local HOOKED = {
            { "ulid_generator", {}, function(g) return g:next() end, 2 },
            { "uuid7_generator", {}, function(g) return g:next() end, 2 },
            { "uuid4_generator", {}, function(g) return g:next() end, 1 },
            { "relative_generator", { secret = SECRET }, function(g) return g:next("k") end, 2 },
            { "snowflake_generator", {}, function(g) return g:next() end, 1 },
            { "nanoid_generator", {}, function(g) return g:next() end, 1 },
        }

        local function count(t)
            local n = 0
            for _ in pairs(t) do n = n + 1 end
            return n
        end

        it("a generator whose own hooks reach it is collected once dropped", function()
            local alive = setmetatable({}, { __mode = "k" })
            -- In a function of its own, so no dead local of the caller's
            -- frame still holds the last generator during the collection.
            local function make_and_drop(c)
                for _ = 1, 200 do
                    local svc = { now = 1000 }
                    svc.gen = mintid[c[1]](with(c[2], {
                        clock = function() return svc.now end,
                        random = function(n) return svc.gen and ("\0"):rep(n) end,
                    }))
                    assert(c[3](svc.gen) ~= nil, c[1])
                    alive[svc.gen] = true
                end
            end
            for _, c in ipairs(HOOKED) do
                make_and_drop(c)
                assert.are.equal(200, count(alive), c[1])
                collectgarbage()
                collectgarbage()
                assert.are.equal(0, count(alive), c[1] .. ": generators still alive after two collections")
            end
        end)

        it("closing a generator lets its hooks go while the generator lives on", function()
            for _, c in ipairs(HOOKED) do
                local hooks = setmetatable({}, { __mode = "v" })
                local function make()
                    local state = {}
                    hooks.clock = function() return state.now or 1000 end
                    hooks.random = function(n) return state.bytes or ("\0"):rep(n) end
                    return mintid[c[1]](with(c[2], { clock = hooks.clock, random = hooks.random }))
                end
                local g = make()
                assert(c[3](g) ~= nil, c[1])
                collectgarbage()
                assert.are.equal(c[4], count(hooks), c[1] .. ": a live generator keeps its hooks")
                getmetatable(g).__gc(g)
                collectgarbage()
                collectgarbage()
                assert.are.equal(0, count(hooks), c[1] .. ": hooks still alive after __gc")
                h.raises(function() return c[3](g) end, "attempt to use a closed mintid.")
            end
        end)

        it("closing a generator from its own random function closes it, and that call raises", function()
            for _, c in ipairs(DRAWING) do
                for _, close in ipairs({ "__gc", "__close" }) do
                    for _, caught in ipairs({ true, false }) do
                        local g
                        local tried = 0
                        g = mintid[c[1]](with(c[2], {
                            clock = function() return 1000 end,
                            random = function(n)
                                tried = tried + 1
                                if caught then
                                    assert(pcall(getmetatable(g)[close], g))
                                else
                                    getmetatable(g)[close](g)
                                end
                                return ("\0"):rep(n)
                            end,
                        }))
                        local w = c[1] .. " " .. close .. (caught and " (caught)" or "")
                        local want = "attempt to use a closed " .. tostring(g):match("^(%S+)")
                        -- no ID of a wiped key (or of hooks let go) comes out
                        h.raises(function() return c[4](g) end, want)
                        h.raises(function() return c[4](g) end, want)
                        assert.are.equal(1, tried, w)
                    end
                end
            end
        end)

        it("closing a generator from its own clock makes that call raise, as for a closed one", function()
            for _, c in ipairs(CLOCKED) do
                for _, close in ipairs({ "__gc", "__close" }) do
                    local g
                    g = mintid[c[1]](with(c[2], {
                        clock = function()
                            getmetatable(g)[close](g)
                            return 1000
                        end,
                    }))
                    h.raises(function() return c[3](g) end, "attempt to use a closed mintid.")
                    h.raises(function() return c[3](g) end, "attempt to use a closed mintid.")
                end
            end
        end)
    end)

    -- Leases (doc/leases.md): the fence, the lock file
    -- handle under lease.lock_file, and the lease objects' bad data.
    describe("leases", function()
        local lease = require "mintid.lease"

        it("fence methods: wrong types and values raise, naming the argument", function()
            local f = mintid._lease_fence()
            -- Called as methods, so Lua counts the arguments after self.
            local cases = {
                { function() f:hold("x", 1, 0) end, "bad argument #1 to 'hold'", "integer expected" },
                { function() f:hold(1.5, 1, 0) end, "bad argument #1 to 'hold'", "number has no integer representation" },
                { function() f:hold(1024, 1, 0) end, "bad argument #1 to 'hold'", "machine_id must be 0..1023, got 1024" },
                { function() f:hold(-1, 1, 0) end, "bad argument #1 to 'hold'", "machine_id must be 0..1023, got -1" },
                { function() f:hold(1, "x", 0) end, "bad argument #2 to 'hold'", "number expected" },
                { function() f:hold(1, -0.5, 0) end, "bad argument #2 to 'hold'", "valid_for must be >= 0 seconds, got -0.5" },
                { function() f:hold(1, 0 / 0, 0) end, "bad argument #2 to 'hold'", "valid_for must be >= 0 seconds, got nan" },
                { function() f:hold(1, 1, nil) end, "bad argument #3 to 'hold'", "integer expected" },
                { function() f:hold(1, 1, -1) end, "bad argument #3 to 'hold'", "floor_ms must be >= 0, got -1" },
                { function() f:drop() end, "bad argument #1 to 'drop'" },
                { function() f:drop("gone") end, "bad argument #1 to 'drop'", "invalid option 'gone'" },
                { function() f.hold({}, 1, 1, 0) end, "bad argument #1", "mintid.LeaseFence expected" },
                { function() f.state(nil) end, "bad argument #1", "mintid.LeaseFence expected" },
                { function() f.machine_id(mintid.snowflake_generator {}) end, "bad argument #1" },
            }
            for _, c in ipairs(cases) do h.raises(c[1], c[2], c[3]) end
            assert.are.equal("unheld", f:state(), "a refused hold leaves the fence as it was")
        end)

        it("the lock file handle: path and byte checked, a closed one raises", function()
            h.raises(function() mintid._lock_file(nil) end, "bad argument #1", "string expected")
            h.raises(function() mintid._lock_file(42) end, "bad argument #1", "string expected")
            h.raises(function() mintid._lock_file("") end, "bad argument #1", "path is empty")
            h.raises(function() mintid._lock_file("a\0b") end, "bad argument #1", "path holds a zero byte")
            local path = os.tmpname()
            local lf = assert(mintid._lock_file(path))
            h.raises(function() lf:lock(4294967296) end, "bad argument #1 to 'lock'",
                "machine id must be 0..4294967295 (a byte of the lock file)")
            h.raises(function() lf:lock(-1) end, "bad argument #1 to 'lock'", "machine id must be 0..4294967295")
            h.raises(function() lf:lock(1, {}) end, "bad argument #2 to 'lock'", "a lease fence expected")
            h.raises(function() lf:taken("x") end, "bad argument #1 to 'taken'", "integer expected")
            lf:close()
            lf:close() -- twice is fine
            h.raises(function() lf:lock(1) end, "attempt to use a closed mintid.LockFile")
            os.remove(path)
        end)

        it("a lock the OS refuses is nil and a message naming the file, with a fence or without", function()
            -- opened for reading only (as a holders listing opens it), so
            -- a write lock fails in the OS, as one on a file system with no
            -- locks (ENOLCK) would
            local path = os.tmpname()
            local lf = assert(mintid._lock_file(path, false))
            local want = "lock file " .. path .. ": cannot lock: Bad file descriptor"
            local fence = mintid._lease_fence()
            for _, call in ipairs { function() return lf:lock(1) end, function() return lf:lock(1, fence) end } do
                local floor_ms, msg = call()
                assert.are.equal(nil, floor_ms)
                assert.are.equal(want, msg)
            end
            lf:close()
            os.remove(path)
        end)

        it("bad data is nil and a one-line message naming the file", function()
            local dir = os.tmpname()
            os.remove(dir)
            assert(os.execute("mkdir " .. dir))
            local id, msg = lease.lock_file { path = dir }:acquire()
            assert.are.equal(nil, id)
            assert.are.equal("lock file " .. dir .. ": cannot open: Is a directory", msg)
            local held, hmsg = lease.lock_file_holders { path = dir }
            assert.are.equal(nil, held)
            assert.are.equal("lock file " .. dir .. ": cannot open: Is a directory", hmsg)
            os.remove(dir)
        end)

        it("snowflake_generator{lease}: a bad lease or one with machine_id raises", function()
            h.raises(function() mintid.snowflake_generator { lease = true } end,
                "bad argument #1", "lease must be a lease object, got boolean")
            h.raises(function() mintid.snowflake_generator { lease = { _fence = mintid._lease_fence() }, machine_id = 2 } end,
                "bad argument #1", "machine_id and lease exclude each other")
        end)
    end)
end)
