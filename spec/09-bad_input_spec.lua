-- The bad-input table of doc/guide.md ("Errors"): one spec per row, named by the
-- row's first column, and a check that the table and these specs list the
-- same rows.
local h = require "helper"
local mintid = require(h.module_name)

local SECRET = "0123456789abcdef" -- 16 bytes
local R10 = ("\1"):rep(10)
local T = 1700000000000
local MB = 2 ^ 20

-- The message of a call that must raise, containing each of the substrings.
local raises = h.raises

local function bad_data(fn, reason, where)
    local ok, v, msg = pcall(fn)
    assert(ok, (where or "?") .. " raised: " .. tostring(v))
    return h.assert_bad_data(v, msg, reason, where)
end

local function frozen(options)
    options = options or {}
    options.clock = options.clock or function() return T end
    return options
end

-- row name -> its spec, in the table's order
local ROWS = {}
local ORDER = {}
local PENDING = {} -- row name -> why its spec cannot run on this Lua
local function row(name, fn)
    ROWS[name] = fn
    ORDER[#ORDER + 1] = name
end

row("A number where text is expected", function()
    raises(function() return mintid.parse_ulid(123) end, "bad argument #1", "string expected, got number")
    raises(function() return mintid.ulid_from_bytes(1.5) end, "bad argument #1", "string expected, got number")
    raises(function() return mintid.nanoid(5, 1) end, "bad argument #2", "string expected, got number")
    raises(function() return mintid.relative_generator { secret = 1234567890123456 } end,
        "secret must be a string")
end)

row("nil, a missing argument or a table", function()
    raises(function() return mintid.parse_uuid() end, "bad argument #1", "string expected, got no value")
    raises(function() return mintid.parse_uuid({}) end, "bad argument #1", "string expected, got table")
    raises(function() return mintid.relative_tag(SECRET, "", nil) end, "bad argument #3",
        "key must be a string or a 64-bit integer, got nil")
    raises(function() return mintid.ulid_from(nil, R10) end, "bad argument #1", "integer expected, got nil")
end)

row("Text where an integer is expected", function()
    raises(function() return mintid.nanoid("5") end, "bad argument #1", "integer expected, got string")
    raises(function() return mintid.ulid_from("1", R10) end, "bad argument #1", "integer expected, got string")
    raises(function() return mintid.snowflake_generator { machine_id = "7" } end,
        "machine_id must be an integer, got string")
end)

row("NaN or infinity", function()
    raises(function() return mintid.nanoid(0 / 0) end, "bad argument #1", "no integer representation")
    raises(function() return mintid.ulid_from(math.huge, R10) end, "bad argument #1", "no integer representation")
    raises(function() return mintid.relative_from(0, -math.huge, 0) end, "bad argument #2")
    raises(function() return mintid.ulid_generator(frozen { clock = function() return 0 / 0 end }):next() end,
        "clock must return an integer (ms), got nan")
    raises(function() return mintid.relative_tag(SECRET, "", 1 / 0) end, "bad argument #3")
end)

row("A fraction", function()
    raises(function() return mintid.nanoid(2.5) end, "bad argument #1")
    raises(function() return mintid.relative_from(1.5, 0, 0) end, "bad argument #1")
    raises(function() return mintid.parse_snowflake(1.5) end, "bad argument #1")
    raises(function() return mintid.snowflake_generator { max_wait_ms = 0.5 } end, "max_wait_ms")
    raises(function() return mintid.ulid_generator { clock = function() return 1.5 end }:next() end,
        "clock must return an integer (ms), got 1.5")
end)

row("A negative time or part", function()
    bad_data(function() return mintid.ulid_from(-1, R10) end, "ULID timestamp -1 out of range 0..281474976710655")
    bad_data(function() return mintid.relative_from(0, -1, 0) end, "relative ID timestamp -1 out of range")
    bad_data(function() return mintid.relative_from(-1, 0, 0) end, "relative ID tag -1 out of range")
    bad_data(function() return mintid.uuid7_generator { clock = function() return -1 end }:next() end,
        "timestamp -1 out of range")
end)

row("A negative, zero or huge size, machine_id or epoch", function()
    raises(function() return mintid.nanoid(0) end, "size must be 1..1048576, got 0")
    raises(function() return mintid.nanoid(-1) end, "size must be 1..1048576, got -1")
    raises(function() return mintid.nanoid(2 ^ 40) end, "size must be 1..1048576")
    raises(function() return mintid.nanoid_generator { size = MB + 1 } end, "size must be 1..1048576")
    raises(function() return mintid.snowflake_generator { machine_id = 1024 } end, "machine_id must be 0..1023")
    raises(function() return mintid.snowflake_generator { machine_id = -1 } end, "machine_id must be 0..1023")
    raises(function() return mintid.snowflake_generator { epoch = -1 } end, "epoch must be >= 0")
    raises(function() return mintid.parse_snowflake(1, -1) end, "bad argument #2", "epoch must be >= 0")
    raises(function() return mintid.nanoid(2 ^ 70) end, "bad argument #1")
end)

row("A time past 2^48 - 1 ms", function()
    bad_data(function() return mintid.ulid_from(2 ^ 48, R10) end, "out of range 0..281474976710655")
    bad_data(function() return mintid.relative_from(0, 2 ^ 48, 0) end, "out of range 0..281474976710655")
    bad_data(function() return mintid.ulid_generator { clock = function() return 2 ^ 48 end }:next() end,
        "out of range")
    bad_data(function() return mintid.snowflake_generator { clock = function() return 2 ^ 42 end }:next() end,
        "more than 42 bits past epoch 0")
end)

row("A Snowflake ID that is negative, past 2^64 - 1 or not decimal", function()
    bad_data(function() return mintid.parse_snowflake(-1) end, "invalid snowflake ID: bad character '-' at 1")
    bad_data(function() return mintid.parse_snowflake("18446744073709551616") end, "more than 2^64 - 1")
    bad_data(function() return mintid.parse_snowflake("1e3") end, "bad character 'e' at 2")
    bad_data(function() return mintid.parse_snowflake("") end, "invalid snowflake ID: empty")
end)

row("A Snowflake epoch whose sum with the ID's time does not fit", function()
    if h.has_integers then
        bad_data(function() return mintid.parse_snowflake(4194304, math.maxinteger) end, "does not fit")
    else
        bad_data(function() return mintid.parse_snowflake("4194304", 2 ^ 53 - 1) end, "does not fit")
    end
end)

row("A Snowflake ID with bit 63 set", function()
    local ts, mid, seq = mintid.parse_snowflake("9223372036854775808")
    assert.are.equal(h.int(2 ^ 41), ts)
    assert.are.equal(0, mid)
    assert.are.equal(0, seq)
    bad_data(function() return mintid.snowflake_generator { clock = function() return 2 ^ 41 end }:next() end,
        "sets bit 63")
end)

row("An embedded NUL in an ID", function()
    bad_data(function() return mintid.parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FA\0") end,
        "invalid ULID: bad character 0x00 at 26")
    bad_data(function() return mintid.parse_uuid("017f22e2-79b0-7cc3-98c4-dc0c0c07398\0") end, "0x00")
    bad_data(function() return mintid.parse_snowflake("12\0") end, "bad character 0x00 at 3")
end)

row("An embedded NUL in a key, secret, salt or alphabet", function()
    local g = mintid.relative_generator { secret = SECRET .. "\0", salt = "a\0b" }
    assert.are_not.equal(g:tag("a\0b"), g:tag("a"))
    assert.are.equal(mintid.relative_tag(SECRET .. "\0", "a\0b", "a\0b"), g:tag("a\0b"))
    assert.are_not.equal(mintid.relative_tag("\0" .. SECRET, "", "k"), mintid.relative_tag(SECRET, "", "k"))
    -- HMAC pads a key shorter than its block with zero bytes (RFC 2104)
    assert.are.equal(mintid.relative_tag(SECRET .. "\0", "", "k"), mintid.relative_tag(SECRET, "", "k"))
    local id = mintid.nanoid_generator { size = 6, alphabet = "\0ab", random = function(n) return ("\0"):rep(n) end }:next()
    assert.are.equal(("\0"):rep(6), id)
end)

row("A 1 MB string", function()
    local big = ("0"):rep(MB)
    bad_data(function() return mintid.parse_ulid(big) end, "invalid ULID: length 1048576, want 26")
    bad_data(function() return mintid.parse_relative(big) end, "length 1048576")
    bad_data(function() return mintid.parse_snowflake(big) end, "invalid snowflake ID")
    bad_data(function() return mintid.ulid_from_bytes(big) end, "length 1048576, want 16")
    assert.is_number(mintid.relative_tag(big, big, big))
    local g = mintid.relative_generator { secret = big, salt = big }
    assert.is_truthy(g:next(big):match(h.RELATIVE_PATTERN))
    raises(function() return mintid.nanoid(5, big) end, "alphabet must have 1 to 256 symbols, got 1048576")
    assert.are.equal(MB, #mintid.nanoid(MB))
end)

row("A wrong-length byte string", function()
    bad_data(function() return mintid.ulid_from(0, "x") end, "ULID randomness must be 10 bytes, got 1")
    bad_data(function() return mintid.ulid_from_bytes(("x"):rep(15)) end, "invalid ULID bytes: length 15, want 16")
    bad_data(function() return mintid.uuid_from_bytes(("x"):rep(17)) end, "invalid UUID bytes: length 17, want 16")
end)

row("An empty alphabet or one over 256 symbols", function()
    raises(function() return mintid.nanoid(5, "") end, "alphabet must have 1 to 256 symbols, got 0")
    raises(function() return mintid.nanoid_generator { alphabet = "" } end, "alphabet must have 1 to 256 symbols")
    raises(function() return mintid.nanoid(5, h.ALL_BYTES .. "a") end, "got 257")
end)

row("A repeating alphabet", function()
    raises(function() return mintid.nanoid(5, "aab") end, "alphabet repeats the symbol 'a' at 2")
    raises(function() return mintid.nanoid_generator { alphabet = "abcb" } end, "repeats the symbol 'b' at 4")
end)

row("A multi-byte UTF-8 alphabet", function()
    raises(function() return mintid.nanoid(5, "αβγ") end, "bad argument #2",
        "alphabet symbols are single bytes, but it holds a multi-byte UTF-8 character at byte 1")
    raises(function() return mintid.nanoid_generator { alphabet = "abcé" } end, "character at byte 4")
end)

row("An alphabet of every byte value", function()
    local g = mintid.nanoid_generator { size = 256, alphabet = h.ALL_BYTES,
        random = function(n) return h.ALL_BYTES:sub(1, n) end }
    assert.are.equal(h.ALL_BYTES, g:next())
    assert.are.equal(7, #mintid.nanoid(7, h.ALL_BYTES))
end)

row("A secret under 16 bytes", function()
    raises(function() return mintid.relative_generator { secret = ("s"):rep(15) } end,
        "secret must be at least 16 bytes, got 15")
    raises(function() return mintid.relative_generator { secret = "" } end, "secret must be at least 16 bytes, got 0")
    raises(function() return mintid.relative_tag(("s"):rep(15), "", "k") end, "bad argument #1",
        "secret must be at least 16 bytes")
    raises(function() return mintid.relative_generator {} end, "secret must be a string")
end)

row("An unknown option, a wrong option type, options not a table", function()
    raises(function() return mintid.snowflake_generator { machineid = 3 } end, "unknown option 'machineid'")
    raises(function() return mintid.ulid_generator { [1] = 3 } end, "option names must be strings")
    raises(function() return mintid.nanoid_generator { alphabet = 5 } end, "alphabet must be a string, got number")
    raises(function() return mintid.ulid_generator { clock = 5 } end, "clock must be a function, got number")
    raises(function() return mintid.snowflake_generator("x") end, "bad argument #1", "table expected, got string")
end)

row("Options behind __index", function()
    local opts = setmetatable({ clock = function() return T end }, { __index = { machine_id = 7 } })
    local _, mid = mintid.parse_snowflake(mintid.snowflake_generator(opts):next())
    assert.are.equal(7, mid)
    raises(function()
        return mintid.ulid_generator(setmetatable({}, { __index = function() error("no options here") end }))
    end, "no options here")
end)

row("A clock that returns no integer", function()
    for _, v in ipairs({ "nil", "'5'", "1.5", "{}" }) do
        local value = assert((loadstring or load)("return " .. v))()
        raises(function() return mintid.ulid_generator { clock = function() return value end }:next() end,
            "clock must return an integer (ms), got")
    end
end)

row("A clock or random that raises", function()
    local fail = false
    local g = mintid.ulid_generator(frozen { random = function(n)
        if fail then error("no entropy today", 0) end
        return ("\1"):rep(n)
    end })
    local twin = mintid.ulid_generator(frozen { random = function(n) return ("\1"):rep(n) end })
    fail = true
    raises(function() return g:next() end, "no entropy today")
    fail = false
    assert.are.equal(twin:next(), g:next())
    local c = mintid.uuid7_generator { clock = function() error("clock is broken", 0) end }
    raises(function() return c:next() end, "clock is broken")
end)

row("A random of the wrong length or type", function()
    raises(function() return mintid.ulid_generator { random = function(n) return ("x"):rep(n - 1) end }:next() end,
        "random(10) returned 9 bytes, want 10")
    raises(function() return mintid.uuid4_generator { random = function() return nil end }:next() end,
        "random(16) returned nil, want 16 bytes")
    raises(function() return mintid.nanoid_generator { random = function(n) return n end }:next() end,
        "returned number")
end)

row("A random that only gives bytes the alphabet rejects", function()
    for _, case in ipairs({ { "abc", "\255" }, { "x", "\1" } }) do
        local g = mintid.nanoid_generator { alphabet = case[1], random = function(n) return case[2]:rep(n) end }
        raises(function() return g:next() end, "Nano ID random source gave 64 draws with no usable byte")
    end
end)

row("A hook that yields", function()
    local yielding = true
    local g = mintid.ulid_generator(frozen { random = function(n)
        if yielding then coroutine.yield() end
        return ("\1"):rep(n)
    end })
    local ok, err = coroutine.resume(coroutine.create(function() return g:next() end))
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("yield", 1, true), tostring(err))
    yielding = false
    local twin = mintid.ulid_generator(frozen { random = function(n) return ("\1"):rep(n) end })
    assert.are.equal(twin:next(), g:next())
end)

row("A hook that calls or closes its own generator", function()
    local g
    g = mintid.ulid_generator(frozen { random = function(n) g:next(); return ("\1"):rep(n) end })
    raises(function() return g:next() end, "called again from its own random function")
    -- spec/15-reentry_spec.lua: a uuid1_generator's random reaching the one it builds
    local r
    r = mintid.relative_generator { secret = SECRET, random = function(n)
        getmetatable(r).__gc(r)
        return ("\1"):rep(n)
    end }
    raises(function() return r:next("k") end, "attempt to use a closed mintid.RelativeGenerator")
end)

row("A clock that steps back past max_wait_ms", function()
    local now = T
    local g = mintid.snowflake_generator { max_wait_ms = 10, clock = function() return now end }
    for i = 1, 4096 do assert(g:next(), "ID " .. i) end
    now = T - 3600000
    bad_data(function() return g:next() end, "snowflake: clock moved back 3600000 ms")
    now = T + 1
    local ts, _, seq = mintid.parse_snowflake(g:next())
    assert.are.equal(T + 1, ts)
    assert.are.equal(0, seq)
end)

row("A clock that stands still", function()
    local g = mintid.snowflake_generator { max_wait_ms = 20, clock = function() return T end }
    for i = 1, 4096 do assert(g:next(), "ID " .. i) end
    local start = os.clock()
    bad_data(function() return g:next() end, "snowflake: clock stuck at ms " .. T .. " with 4096 IDs used")
    -- os.clock is CPU time: the wait pauses, it does not spin a core.
    assert.is_true(os.clock() - start < 0.5)
end)

row("A monotonic counter that would overflow", function()
    for _, name in ipairs({ "ulid_generator", "uuid7_generator" }) do
        local g = mintid[name](frozen { random = function(n) return ("\255"):rep(n) end })
        assert(g:next())
        bad_data(function() return g:next() end, "counter overflow at ms " .. T)
        bad_data(function() return g:next() end, "counter overflow at ms " .. T)
    end
    local r = mintid.relative_generator(frozen { secret = SECRET, random = function(n) return ("\255"):rep(n) end })
    assert(r:next("k"))
    bad_data(function() return r:next("k") end, "counter overflow")
end)

row("A userdata or cdata where an integer is expected", function()
    raises(function() return mintid.nanoid(io.stdout) end, "bad argument #1", "integer expected, got userdata")
    raises(function() return mintid.parse_snowflake(io.stdout) end, "bad argument #1")
    if jit then
        local ffi = require "ffi"
        raises(function() return mintid.nanoid(ffi.new("double", 5)) end, "integer expected, got cdata")
        assert.are.equal(10, #mintid.nanoid(ffi.new("int64_t", 10)))
        assert.are.equal(10, #mintid.nanoid(ffi.new("uint64_t", 10)))
    end
end)

row("A bad `mintid` option value", function()
    local out = h.cli_fails_to(nil, 2, { "inspect", "--epoch", "-5", "4194304", "4194305" }, nil,
        "mintid: epoch must be >= 0, got -5 (see mintid --help)")
    assert.are.equal("", out)
    assert.are.equal("", (h.cli_fails_to(nil, 2, { "snowflake", "--machine-id", "1024" }, nil,
        "machine_id must be 0..1023, got 1024")))
end)

row("A `mintid` integer option this Lua cannot hold exactly", function()
    assert.are.equal("", (h.cli_fails_to(nil, 2, { "ulid", "-n", "99999999999999999999" }, nil,
        "-n wants an integer that this Lua's numbers", "hold exactly, got '99999999999999999999'")))
    local out, _, status = h.cli_run({ "inspect", "--json", "--epoch", "9007199254740993", "0" })
    if h.has_integers then
        assert.are.equal(0, status)
        assert.is_truthy(out:find('"epoch":9007199254740993,', 1, true), out)
    else
        assert.are.equal(2, status)
        assert.are.equal("", out)
    end
end)

row("`mintid` output that cannot be written", function()
    h.cli_fails_to(">/dev/full", 1, { "ulid", "-n", "3" }, nil, "mintid: cannot write to stdout: No space left on device")
    h.cli_fails_to(">&-", 1, { "ulid" }, nil, "mintid: cannot write to stdout: ")
end)

row("A line of `mintid inspect`'s standard input that is no ID, or input that cannot be read", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write("nope\n01ARZ3NDEKTSV4RRFFQ69G5FAV\n")
    f:close()
    local out, err, status = h.cli_run({ "inspect" }, nil, "<" .. path)
    os.remove(path)
    assert.are.equal(1, status)
    assert.is_truthy(out:find("^01ARZ3NDEKTSV4RRFFQ69G5FAV\n  kind: +ulid\n"), out)
    assert.is_truthy(err:find("^mintid: stdin line 1: unrecognised ID: length 4 %(.*%)\n$"), err)
    h.cli_fails_to("</", 1, { "inspect" }, nil, "mintid: cannot read stdin: Is a directory")
end)

row("A struct cdata that prints like an integer", function()
    if jit then
        local ffi = require "ffi"
        pcall(ffi.cdef, "typedef struct { int x; } mintid_spec09_liar;")
        local S = ffi.metatype("mintid_spec09_liar", { __tostring = function() return "5LL" end })
        raises(function() return mintid.nanoid(S()) end, "integer expected, got cdata")
    end
end)

row("An alphabet of bytes that a UTF-8 character can be read in", function()
    local a = "αя\255"
    assert.are.equal(5, #a)
    local g = mintid.nanoid_generator { size = 5, alphabet = a,
        random = function(n) return ("\4\3\2\1\0"):rep(n):sub(1, n) end }
    assert.are.equal("\255\143\209\177\206", g:next()) -- 5 symbols, one per byte
    local all = "αя" -- then every other byte value
    for b = 0, 255 do
        if not all:find(string.char(b), 1, true) then all = all .. string.char(b) end
    end
    assert.are.equal(256, #all)
    assert.is_true(h.only_symbols_of(mintid.nanoid(9, all), all))
end)

row("A random option replaced through the debug library", function()
    local g = mintid.uuid4_generator { random = function(n) return ("\1"):rep(n) end }
    local function none() end
    if h.builtin_user_values then
        debug.setuservalue(g, none, 2)
    else
        (debug.getuservalue or debug.getfenv)(g)[2] = none
    end
    raises(function() return g:next() end, "random(16) returned nil, want 16 bytes")
end)

row("A generator's metamethod on another value", function()
    for _, m in ipairs({ "__gc", "__close", "__tostring" }) do
        raises(function() return getmetatable(mintid.ulid_generator())[m](5) end, "bad argument #1")
    end
end)

row("A finalizer that mints from the generator in use at every collection cycle", function()
    -- spec/15-reentry_spec.lua runs it under a collector that runs a cycle
    -- at every allocation; here, a push whose every try the finalizer undoes
    local g = mintid.ulid_generator(frozen { random = function(n) return ("\1"):rep(n) end })
    local ok, err = h.next_while_a_finalizer_mints(g, nil, 50)
    assert(not ok, "returned " .. tostring(err))
    assert.matches("mintid.ULIDGenerator used by a finalizer during each of 4 tries to make its ID", err, 1, true)
end)

if not h.finalizer_at_each_allocation then
    PENDING["A finalizer that mints from the generator in use at every collection cycle"] =
        h.NO_FINALIZER_AT_EACH_ALLOCATION
end

row("A C function a hook fetches from the stack", function()
    local call
    local g = mintid.snowflake_generator { clock = function()
        call = call or debug.getinfo(2, "f").func
        return T
    end }
    assert(g:next())
    for _, x in ipairs({ false, mintid.parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAV") }) do
        raises(function() return call(x or nil) end, "bad argument #1", "SnowflakeGenerator expected")
    end
end)

row("A finalizer that closes a generator during a call", function()
    -- spec/15-reentry_spec.lua runs such finalizers at every allocation
    local g = mintid.relative_generator { secret = SECRET }
    getmetatable(g).__gc(g)
    raises(function() return g:next(42) end, "attempt to use a closed mintid.RelativeGenerator")
end)

row("A KSUID that is not 27 base62 characters, or passes 2^160 - 1", function()
    bad_data(function() return mintid.parse_ksuid("0ujtsYcgvSTl8PAuAdqWYSMnLO") end, "invalid KSUID: length 26, want 27")
    bad_data(function() return mintid.parse_ksuid("aWgEPTl1tmebfsQzFP4bxwgy80W") end, "value overflows 160 bits")
    bad_data(function() return mintid.parse_ksuid("0ujtsYcgvSTl8PAuAdqWYSMnLO-") end, "invalid KSUID")
end)

row("A KSUID time outside its 32-bit seconds", function()
    local p16 = ("\0"):rep(16)
    bad_data(function() return mintid.ksuid_from(1399999999, p16) end,
        "KSUID timestamp 1399999999 out of range 1400000000..5694967295")
    bad_data(function() return mintid.ksuid_from(5694967296, p16) end, "out of range")
    bad_data(function() return mintid.ksuid_generator(frozen { clock = function() return 0 end }):next() end,
        "KSUID timestamp 0 out of range")
end)

row("A TypeID with a bad prefix or suffix", function()
    bad_data(function() return mintid.parse_typeid("User_01h455vb4pex5vsknk084sn02q") end,
        "invalid TypeID prefix: bad character 'U' at 1 (want a-z or '_')")
    bad_data(function() return mintid.parse_typeid("_01h455vb4pex5vsknk084sn02q") end, "invalid TypeID")
    bad_data(function() return mintid.parse_typeid("prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz") end, "invalid TypeID")
    raises(function() return mintid.typeid("User") end, "bad argument #1", "invalid TypeID prefix")
    raises(function() return mintid.typeid_from("User", mintid.UUID_NIL) end, "bad argument #1", "invalid TypeID prefix")
    local g = mintid.typeid_generator()
    raises(function() return g:next("User") end, "bad argument #", "invalid TypeID prefix")
end)

row("A name space that is not a UUID", function()
    bad_data(function() return mintid.uuid5("dns", "www.example.com") end, "invalid UUID: length 3, want 36")
    raises(function() return mintid.uuid3(5, "www.example.com") end, "bad argument #1",
        "UUID text or value expected, got number")
end)

row("A v1/v6 conversion of another version", function()
    bad_data(function() return mintid.uuid1_to_uuid6(mintid.uuid4()) end, "UUID is version 4, not 1")
    bad_data(function() return mintid.uuid6_to_uuid1(mintid.uuid1()) end, "UUID is version 1, not 6")
end)

row("A v1/v6 node or clock_seq outside its field", function()
    raises(function() return mintid.uuid1_generator { node = "12345" } end, "node must be 6 bytes, got 5")
    raises(function() return mintid.uuid6_generator { clock_seq = 16384 } end, "clock_seq must be 0..16383, got 16384")
end)

local TP = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" -- Trace Context 3.2.3

row("A traceparent header the W3C rules refuse", function()
    bad_data(function() return mintid.parse_traceparent("ff" .. TP:sub(3)) end,
        "invalid traceparent: version ff is invalid")
    bad_data(function() return mintid.parse_traceparent(TP .. "0") end,
        "invalid traceparent: length 56, want 55 for version 00")
    bad_data(function() return mintid.parse_traceparent(TP:sub(1, 3) .. "A" .. TP:sub(5)) end,
        "invalid traceparent: bad character 'A' at 4 (want lowercase hex)")
    bad_data(function() return mintid.parse_traceparent("00-" .. ("0"):rep(32) .. TP:sub(36)) end,
        "invalid traceparent: trace-id is all zero")
end)

row("A trace-id or parent-id for `traceparent` that is not one", function()
    bad_data(function() return mintid.traceparent("ABC") end, "invalid trace-id: length 3, want 32")
    bad_data(function() return mintid.traceparent(nil, ("0"):rep(16)) end, "invalid parent-id: all zero")
    raises(function() return mintid.traceparent({}) end, "bad argument #1", "string expected, got table")
end)

row("Trace flags outside a byte", function()
    raises(function() return mintid.traceparent(nil, nil, 256) end, "bad argument #3",
        "flags must be an integer 0..255, got 256")
    raises(function() return mintid.traceparent(nil, nil, 1.5) end, "bad argument #3",
        "flags must be an integer 0..255, got 1.5")
end)

-- The rows of the guide's table: the first cell of each line after the
-- header row of the "Errors" section's table.
local function guide_rows()
    local path = h.testdata_dir .. "/../doc/guide.md"
    local f = assert(io.open(path, "rb"), "doc/guide.md not found at " .. path)
    local text = f:read("*a")
    f:close()
    local rows, in_table = {}, false
    for line in (text .. "\n"):gmatch("([^\n]*)\n") do
        if line:match("^| Bad input |") then
            in_table = true
        elseif in_table and line:match("^|[-| ]+$") then
            -- the separator row
        elseif in_table and line:match("^| ") then
            rows[#rows + 1] = line:match("^| ([^|]-) +|")
        elseif in_table then
            break
        end
    end
    return rows
end

describe("bad input (the table of doc/guide.md)", function()
    for _, name in ipairs(ORDER) do
        if PENDING[name] then
            pending(name .. " (" .. PENDING[name] .. ")")
        else
            it(name, ROWS[name])
        end
    end

    it("every row of the guide's table has a spec here, and every spec a row, in the same order", function()
        local rows = guide_rows()
        assert.is_true(#rows > 0, "no bad-input table found in doc/guide.md")
        assert.are.same(ORDER, rows)
    end)
end)
