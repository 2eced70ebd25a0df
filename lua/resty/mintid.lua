-- resty.mintid: mintid for LuaJIT and OpenResty, the hot paths through the FFI.
--
-- Every name of the mintid module, with the same values and errors. Under
-- LuaJIT a Lua C API call ends a trace; these calls go through the FFI into
-- the ABI that the same shared object (mintid.so) exports, with one
-- reusable output buffer and ffi.string for the result, so the JIT compiles
-- them. What the FFI path does not cover (generators with clock/random hooks
-- or options it does not know, arguments of unusual types) is the mintid
-- module's own function, so its errors are the same by construction. On a
-- Lua without ffi this module is the mintid module itself.
local has_ffi, ffi = pcall(require, "ffi")
local mintid = require "mintid"
if not has_ffi then
    return mintid
end

-- The C module, required above, is loaded first: the FFI then opens the
-- very file require loaded, so both bindings share one library and its
-- process-wide statics (the default generators, the random pool).
local core = mintid
local abi = require "resty.mintid.cdef"

local C
do
    local path = package.searchpath("mintid", package.cpath)
    -- Guarded: a second load of this module (package.loaded cleared) must
    -- not declare the types again.
    if not pcall(ffi.typeof, "mintid_ulid_gen") then
        ffi.cdef(abi.cdef)
    end
    -- No file on the cpath: the module was linked into the host (a static
    -- build), whose own symbols then hold the ABI.
    C = path and ffi.load(path) or ffi.C
    if not pcall(function() return C.mintid_abi_sizeof end) then
        error("resty.mintid: the mintid ABI is not in " .. (path or "the host program")
            .. " (is mintid on package.cpath?)", 2)
    end
end

local K = abi.constants
local ffi_new, ffi_string, ffi_cast, ffi_gc = ffi.new, ffi.string, ffi.cast, ffi.gc
local type, tostring, tonumber, getmetatable, error, pairs, select = type, tostring, tonumber, getmetatable, error,
    pairs, select
local format = string.format

local M = {}
for name, value in pairs(mintid) do
    M[name] = value
end

---------------------------------------------------------------------------
-- Buffers made once; a call writes and reads them with no yield in between,
-- so coroutines share them safely.

local ULID_LEN, UUID_LEN = K.MINTID_ULID_TEXT_LEN, K.MINTID_UUID_TEXT_LEN
local RELATIVE_LEN, PREFIX_LEN = K.MINTID_RELATIVE_TEXT_LEN, K.MINTID_RELATIVE_PREFIX_LEN
local NANOID_DEFAULT, NANOID_MAX = K.MINTID_NANOID_DEFAULT_SIZE, K.MINTID_NANOID_MAX_SIZE
-- Nano IDs up to this size use the shared buffer; larger ones a fresh one.
local BUF_SIZE = 256

local buf = ffi_new("char[?]", BUF_SIZE)
local errbuf = ffi_new("char[?]", K.MINTID_ERRMSG_SIZE)
local u64box = ffi_new("uint64_t[1]")
local i64box = ffi_new("int64_t[1]")
local u32box = ffi_new("uint32_t[2]")
local u8p = ffi.typeof("uint8_t *")

-- Codes no retry by the caller helps raise, as in the C binding; the rest
-- (bad data, overflow, range) are nil, message.
local RAISES = {}
for _, name in pairs({ "MINTID_ERANDOM", "MINTID_ECLOCK", "MINTID_ENOMEM", "MINTID_EARG", "MINTID_EFORK" }) do
    if K[name] then RAISES[K[name]] = true end
end

-- The failure of the ABI call that returned rc: its message in errbuf.
local function fail(rc)
    local msg = errbuf[0] ~= 0 and ffi_string(errbuf) or ffi_string(C.mintid_strerror(rc))
    if RAISES[rc] then
        -- Always tail-called, so level 2 is the caller of the API function,
        -- whose position LuaJIT's luaL_error adds too.
        error(msg, 2)
    end
    return nil, msg
end

-- luaL_argerror's words, for errors this module raises itself (a generator
-- method of the FFI path). Called as a statement, never a tail call, from
-- the method or `depth` calls below it: the method is named by its call
-- site as C's would be, and its caller's position is the one LuaJIT adds
-- to a C function's errors.
local function argerror(narg, extramsg, depth)
    local level = 2 + (depth or 0)
    local ar = debug.getinfo(level, "n")
    local name = ar and ar.name or "?"
    if ar and ar.namewhat == "method" then
        narg = narg - 1
        if narg == 0 then
            error(format("calling '%s' on bad self (%s)", name, extramsg), level + 1)
        end
    end
    error(format("bad argument #%d to '%s' (%s)", narg, name, extramsg), level + 1)
end

-- Lua's type name of an argument as luaL_typename gives it.
local function typename(v, absent)
    if v == nil and absent then return "no value" end
    return type(v)
end

-- An integer-valued Lua number in int64 range, as lua_Integer reads it.
local function is_int64(v)
    return type(v) == "number" and v % 1 == 0 and v >= -9223372036854775808 and v < 9223372036854775808
end

---------------------------------------------------------------------------
-- Values: the C module's own userdata. The FFI decodes into the 16 bytes of
-- a zeroed value made in batches by the C module's new_values (kept in the
-- registry, not a name of the module), so a parse costs no Lua C API call
-- of its own. A value taken from a pool is returned only once decoded.

local new_values = assert(debug.getregistry()["mintid.new_values"], "the mintid module has no new_values")
local BATCH = 64
local function value_pool(sample)
    local pool, n = {}, 0
    return function()
        if n == 0 then
            new_values(sample, BATCH, pool)
            n = BATCH
        end
        local v = pool[n]
        pool[n] = nil
        n = n - 1
        return v
    end
end
local ZERO16 = ("\0"):rep(16)
local ulid_blank = value_pool(core.ulid_from_bytes(ZERO16))
local uuid_blank = value_pool(core.uuid_from_bytes(ZERO16))
local relative_blank = value_pool(core.relative_from(0, 0, 0))

-- A value of kind `blank` decoded from text by `decode`, or nil, message.
-- The value taken is given back to no one on failure: the next one is fresh.
local function parse_into(decode, blank, text)
    local v = blank()
    errbuf[0] = 0
    local rc = decode(text, #text, ffi_cast(u8p, v), errbuf)
    if rc ~= 0 then
        return fail(rc)
    end
    return v
end

-- parse_*(text): a string through the FFI, anything else to the C function
-- (tail-called, so that its error names the call as the caller wrote it).
local function parser(c_parse, decode, blank)
    return function(...)
        local text = ...
        if type(text) ~= "string" then
            return c_parse(...)
        end
        return parse_into(decode, blank, text)
    end
end
M.parse_ulid = parser(core.parse_ulid, C.mintid_ulid_decode, ulid_blank)
M.parse_uuid = parser(core.parse_uuid, C.mintid_uuid_decode, uuid_blank)
M.parse_relative = parser(core.parse_relative, C.mintid_relative_decode, relative_blank)

-- The same 16 bytes in the other text form.
local function converter(c_convert, convert, len)
    return function(...)
        local text = ...
        if type(text) ~= "string" then
            return c_convert(...)
        end
        errbuf[0] = 0
        local rc = convert(text, #text, buf, errbuf)
        if rc ~= 0 then return fail(rc) end
        return ffi_string(buf, len)
    end
end
M.ulid_to_uuid = converter(core.ulid_to_uuid, C.mintid_ulid_to_uuid_text, UUID_LEN)
M.uuid_to_ulid = converter(core.uuid_to_ulid, C.mintid_uuid_to_ulid_text, ULID_LEN)

-- parse_snowflake(id [, epoch]): decimal text through the FFI; a number ID
-- (exact only below 2^53 here) or an unusual epoch goes to the C function.
do
    local parse_snowflake = core.parse_snowflake
    local parse_decimal, check_epoch, split = C.mintid_snowflake_parse_decimal,
        C.mintid_snowflake_check_epoch, C.mintid_snowflake_split
    local timestamp_of = C.mintid_snowflake_timestamp
    -- Integers here are doubles: a timestamp above 2^53 - 1 would round.
    local MAX_EXACT = 9007199254740991

    function M.parse_snowflake(...)
        local id, epoch = ...
        if type(id) ~= "string" or (epoch ~= nil and not is_int64(epoch)) then
            return parse_snowflake(...)
        end
        errbuf[0] = 0
        local rc = parse_decimal(id, #id, u64box, errbuf)
        if rc ~= 0 then
            return nil, ffi_string(errbuf)
        end
        epoch = epoch or 0
        if epoch ~= 0 and check_epoch(epoch, errbuf) ~= 0 then
            return parse_snowflake(...) -- raises, naming argument 2
        end
        errbuf[0] = 0
        if timestamp_of(u64box[0], epoch, MAX_EXACT, i64box, errbuf) ~= 0 then
            return nil, ffi_string(errbuf)
        end
        split(u64box[0], epoch, i64box, u32box, u32box + 1)
        return tonumber(i64box[0]), tonumber(u32box[0]), tonumber(u32box[1])
    end
end

---------------------------------------------------------------------------
-- One-shot calls: the process-wide default generators, shared with mintid.

local function one_shot(make_text, len)
    return function()
        errbuf[0] = 0
        local rc = make_text(buf, errbuf)
        if rc ~= 0 then return fail(rc) end
        return ffi_string(buf, len)
    end
end
M.ulid = one_shot(C.mintid_ulid_text, ULID_LEN)
M.uuid7 = one_shot(C.mintid_uuid7_text, UUID_LEN)
M.uuid4 = one_shot(C.mintid_uuid4_text, UUID_LEN)

-- Nano IDs of a spec (alphabet and size) the FFI made.
local nanoid_text, spec_size = C.mintid_nanoid_text, C.mintid_nanoid_spec_size
local function nanoid_of(spec, size)
    local out = buf
    if size > BUF_SIZE then out = ffi_new("char[?]", size) end
    errbuf[0] = 0
    local rc = nanoid_text(spec, out, errbuf)
    if rc ~= 0 then return fail(rc) end
    return ffi_string(out, size)
end

local spec_init = C.mintid_nanoid_spec_init
local DEFAULT_ALPHABET = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"

-- A spec of a valid size and alphabet, or nil (the C function then says why).
local function new_nanoid_spec(size, alphabet)
    if not is_int64(size) or size < 1 or size > NANOID_MAX or type(alphabet) ~= "string" then
        return nil
    end
    local spec = ffi_new("mintid_nanoid_spec")
    if spec_init(spec, alphabet, #alphabet, size, nil) ~= 0 then
        return nil
    end
    return spec
end

do
    local nanoid = core.nanoid
    local default_spec = assert(new_nanoid_spec(NANOID_DEFAULT, DEFAULT_ALPHABET))
    -- The spec of the last custom call, reused while the arguments repeat.
    local last_spec, last_size, last_alphabet

    function M.nanoid(...)
        local size, alphabet = ...
        if size == nil and alphabet == nil then
            return nanoid_of(default_spec, NANOID_DEFAULT)
        end
        if size ~= last_size or alphabet ~= last_alphabet then
            -- nil is the default; false is a value the C function refuses.
            local n, a = size, alphabet
            if n == nil then n = NANOID_DEFAULT end
            if a == nil then a = DEFAULT_ALPHABET end
            local spec = new_nanoid_spec(n, a)
            if spec == nil then
                return nanoid(...) -- raises as the C module does
            end
            last_spec, last_size, last_alphabet = spec, size, alphabet
        end
        return nanoid_of(last_spec, tonumber(spec_size(last_spec)))
    end
end

---------------------------------------------------------------------------
-- Generators. A generator of the FFI path is a userdata (newproxy) sharing
-- its kind's metatable, as the C module's are; its state is a cdata of the
-- C struct in memory the GC owns, found in the kind's weak-keyed table
-- (false once closed). Any option the FFI path does not handle (the clock
-- and random hooks, an unknown key, a value of an unusual type, an
-- invalid one) makes the C module's generator, which says why or does it.

local newproxy = newproxy

-- The state of the generator g of `kind` (tname, methods, states), or an
-- error (raised as argerror does, `depth` calls below the method). The
-- methods take their arguments as `...` and pass their count, so that a
-- missing argument is told from a nil one, as C's luaL_typename does.
local function check_gen(kind, depth, nargs, g)
    local st = kind.states[g]
    if not st then
        depth = depth + 1
        if st == false then
            error("attempt to use a closed " .. kind.tname, 2 + depth)
        end
        argerror(1, kind.tname .. " expected, got " .. typename(g, nargs == 0), depth)
    end
    return st
end

local function new_kind(tname, methods, wipe)
    local kind = { tname = tname, methods = methods, states = setmetatable({}, { __mode = "k" }) }
    local template = newproxy(true)
    local mt = getmetatable(template)
    mt.__name = tname
    mt.__index = methods
    mt.__tostring = function(g)
        local st = kind.states[g]
        local addr = st and tostring(ffi_cast("void *", st)):match("0x%x+") or "closed"
        return format("%s (%s)", tname, addr)
    end
    -- Also __close (5.4 names; LuaJIT has no to-be-closed variables, but a
    -- caller may run it through the metatable, as with the C module).
    mt.__gc = function(g)
        local st = kind.states[g]
        if st and wipe then wipe(st) end
        if st ~= nil then kind.states[g] = false end
    end
    mt.__close = mt.__gc
    kind.new = function(st)
        local g = newproxy(template)
        kind.states[g] = st
        return g
    end
    return kind
end

-- opts: nil, or a plain table whose keys are all in `known`.
local function ffi_options(opts, known)
    if opts == nil then return true end
    if type(opts) ~= "table" or getmetatable(opts) ~= nil then return false end
    for k in pairs(opts) do
        if not known[k] then return false end
    end
    return true
end

local NO_OPTIONS = {}

-- An option's value, def only when it is nil (false is a value to refuse).
local function option(opts, key, def)
    local v = opts and opts[key]
    if v == nil then return def end
    return v
end

-- ULID and UUIDv7: one monotonic state, text from one ABI call; the
-- constructor of the C module serves the options the FFI path does not take.
local function monotonic_kind(tname, c_generator, ctype, init, next_text, len, from_text)
    local methods = {}
    local kind = new_kind(tname, methods)
    function methods.next(...)
        local st = check_gen(kind, 0, select("#", ...), ...)
        errbuf[0] = 0
        local rc = next_text(st, buf, errbuf)
        if rc ~= 0 then return fail(rc) end
        return ffi_string(buf, len)
    end
    -- Not through next: fail must be tail-called from the method itself,
    -- so that a raised error names the caller's position.
    function methods.next_value(...)
        local st = check_gen(kind, 0, select("#", ...), ...)
        errbuf[0] = 0
        local rc = next_text(st, buf, errbuf)
        if rc ~= 0 then return fail(rc) end
        return from_text(ffi_string(buf, len))
    end
    return function(...)
        local opts = ...
        if not ffi_options(opts, NO_OPTIONS) then
            return c_generator(...)
        end
        local st = ffi_new(ctype)
        init(st)
        return kind.new(st)
    end
end
M.ulid_generator = monotonic_kind("mintid.ULIDGenerator", core.ulid_generator, "mintid_ulid_gen",
    C.mintid_ulid_gen_init, C.mintid_ulid_gen_next_text, ULID_LEN, M.parse_ulid)
M.uuid7_generator = monotonic_kind("mintid.UUID7Generator", core.uuid7_generator, "mintid_uuid7_gen",
    C.mintid_uuid7_gen_init, C.mintid_uuid7_gen_next_text, UUID_LEN, M.parse_uuid)

-- UUIDv4: no state; a one-byte cdata stands for it in the states table.
do
    local uuid4_generator = core.uuid4_generator
    local uuid4 = M.uuid4
    local methods = {}
    local kind = new_kind("mintid.UUID4Generator", methods)
    function methods.next(...)
        check_gen(kind, 0, select("#", ...), ...)
        return uuid4()
    end
    function methods.next_value(...)
        check_gen(kind, 0, select("#", ...), ...)
        local id, msg = uuid4()
        if id == nil then return nil, msg end
        return M.parse_uuid(id)
    end
    function M.uuid4_generator(...)
        local opts = ...
        if not ffi_options(opts, NO_OPTIONS) then
            return uuid4_generator(...)
        end
        return kind.new(ffi_new("char[1]"))
    end
end

-- Relative IDs: the key schedule is secret-equivalent, so the state is
-- wiped by the core when the generator is closed or collected.
do
    local relative_generator = core.relative_generator
    local gen_init, gen_wipe, gen_tag = C.mintid_relative_gen_init, C.mintid_relative_gen_wipe,
        C.mintid_relative_gen_tag
    local next_text, prefix_of = C.mintid_relative_gen_next_text, C.mintid_relative_prefix
    local KNOWN = { secret = true, salt = true }
    local methods = {}
    local kind = new_kind("mintid.RelativeGenerator", methods, gen_wipe)

    -- A key as the C binding reads it: a string, or an integer (a number,
    -- or LuaJIT's int64_t/uint64_t cdata in int64 range) as its decimal
    -- text. Returns nil for anything else (the method raises).
    local INT64_MAX = ffi_cast("uint64_t", 0x7fffffff) * 0x100000000 + 0xffffffff
    local function key_text(key)
        if type(key) == "string" then return key end
        if is_int64(key) then return format("%d", key) end
        if ffi.istype("int64_t", key) then return (tostring(key):gsub("LL$", "")) end
        if ffi.istype("uint64_t", key) and key <= INT64_MAX then return (tostring(key):gsub("ULL$", "")) end
        return nil
    end

    -- absent: no key argument at all ("no value"), rather than a nil one.
    local function key_error(key, absent)
        local got = type(key) == "number" and tostring(key) or typename(key, absent)
        return "key must be a string or a 64-bit integer, got " .. got
    end

    -- The state and key text of g:method(key), in the C binding's order:
    -- the generator is checked first, then the key. The methods take the
    -- key as `...`, so that a missing one is told from a nil one.
    local function state_and_key(...)
        local nargs = select("#", ...)
        local st = check_gen(kind, 1, nargs, ...)
        local key = select(2, ...)
        local text = key_text(key)
        if text == nil then argerror(2, key_error(key, nargs < 2), 1) end
        return st, text
    end

    local function next_id(st, key)
        errbuf[0] = 0
        local rc = next_text(st, key, #key, buf, errbuf)
        if rc ~= 0 then return fail(rc) end
        return ffi_string(buf, RELATIVE_LEN)
    end

    function methods.next(...)
        local st, text = state_and_key(...)
        return next_id(st, text)
    end

    function methods.next_value(...)
        local st, text = state_and_key(...)
        local id, msg = next_id(st, text)
        if id == nil then return nil, msg end
        return M.parse_relative(id)
    end

    function methods.tag(...)
        local st, text = state_and_key(...)
        return tonumber(gen_tag(st, text, #text))
    end

    function methods.prefix(...)
        local st, text = state_and_key(...)
        prefix_of(gen_tag(st, text, #text), buf)
        return ffi_string(buf, PREFIX_LEN)
    end

    function M.relative_generator(...)
        local opts = ...
        if opts == nil or not ffi_options(opts, KNOWN) or type(opts.secret) ~= "string"
            or (opts.salt ~= nil and type(opts.salt) ~= "string") then
            return relative_generator(...)
        end
        local secret, salt = opts.secret, opts.salt or ""
        -- The wipe runs when the cdata goes, also if the generator (the
        -- userdata) was collected without running its __gc first.
        local st = ffi_gc(ffi_new("mintid_relative_gen"), gen_wipe)
        if gen_init(st, secret, #secret, salt, #salt, nil) ~= 0 then
            gen_wipe(st)
            return relative_generator(...) -- raises, with the core's message
        end
        return kind.new(st)
    end
end

-- Snowflakes: decimal text under LuaJIT, as the C module gives.
do
    local snowflake_generator = core.snowflake_generator
    local gen_init, next_text = C.mintid_snowflake_gen_init, C.mintid_snowflake_gen_next_text
    local KNOWN = { machine_id = true, epoch = true }
    local methods = {}
    local kind = new_kind("mintid.SnowflakeGenerator", methods)

    function methods.next(...)
        local st = check_gen(kind, 0, select("#", ...), ...)
        errbuf[0] = 0
        local n = next_text(st, buf, errbuf)
        if n < 0 then return fail(n) end
        return ffi_string(buf, n)
    end

    function M.snowflake_generator(...)
        local opts = ...
        if not ffi_options(opts, KNOWN) or not is_int64(option(opts, "machine_id", 1))
            or not is_int64(option(opts, "epoch", 0)) then
            return snowflake_generator(...)
        end
        local st = ffi_new("mintid_snowflake_gen")
        if gen_init(st, option(opts, "machine_id", 1), option(opts, "epoch", 0), nil) ~= 0 then
            return snowflake_generator(...) -- raises, with the core's message
        end
        return kind.new(st)
    end
end

-- Nano IDs: the spec is the state.
do
    local nanoid_generator = core.nanoid_generator
    local KNOWN = { size = true, alphabet = true }
    local methods = {}
    local kind = new_kind("mintid.NanoIDGenerator", methods)

    function methods.next(...)
        local st = check_gen(kind, 0, select("#", ...), ...)
        return nanoid_of(st, tonumber(spec_size(st)))
    end

    function M.nanoid_generator(...)
        local opts = ...
        local spec
        if ffi_options(opts, KNOWN) then
            spec = new_nanoid_spec(option(opts, "size", NANOID_DEFAULT), option(opts, "alphabet", DEFAULT_ALPHABET))
        end
        if spec == nil then
            return nanoid_generator(...)
        end
        return kind.new(spec)
    end
end

return M
