-- resty.mintid: mintid for LuaJIT and OpenResty, the hot paths through the FFI.
--
-- Every name of the mintid module, with the same values and errors. Under
-- LuaJIT a Lua C API call ends a trace; the hot paths here are FFI calls
-- into the ABI that the same shared object (mintid.so) exports, with one
-- reusable output buffer and ffi.string for the result, so the JIT compiles
-- them. This module keeps no rule of its own: the C module makes and checks
-- every object (options, secrets, alphabets) and raises every error. A
-- generator is the C module's own userdata, made with a second metatable
-- (mintid._ffi.meta) whose methods are the FFI ones below; they run the
-- core on the object's own state, and hand any call they do not serve (a
-- closed generator, hooks, an argument of an unusual type) to the C
-- module's method, which does it or raises the exact error. On a Lua
-- without ffi this module is the mintid module itself.
--
-- No call iterates with pairs(): LuaJIT 2.1's compiled pairs() loop can
-- spin forever when a finalizer runs in it (an options check did, under
-- spec/storm); a loop a call needs uses next().
local has_ffi, ffi = pcall(require, "ffi")
local mintid = require "mintid"
if not has_ffi then
    return mintid
end

-- The C module, required above, is loaded first: the FFI then opens the
-- very file require loaded, so both bindings share one library and its
-- process-wide statics (the default generators, the random pool).
local F = mintid._ffi
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
local ffi_new, ffi_string, ffi_cast, ffi_typeof = ffi.new, ffi.string, ffi.cast, ffi.typeof
local type, tonumber, getmetatable, pairs = type, tonumber, getmetatable, pairs
local fail = F.fail -- fail(rc, message): raises or returns nil, message; always tail-called

local M = {}
for name, value in pairs(mintid) do
    if name ~= "_ffi" then M[name] = value end
end

---------------------------------------------------------------------------
-- Buffers made once; a call writes and reads them with no yield in between,
-- so coroutines share them safely. Each FFI result is read straight after
-- its C call, before anything that allocates (and so may run a finalizer
-- that makes another call).

local ULID_LEN, UUID_LEN, RELATIVE_LEN = K.MINTID_ULID_TEXT_LEN, K.MINTID_UUID_TEXT_LEN, K.MINTID_RELATIVE_TEXT_LEN
local KSUID_LEN, EARG = K.MINTID_KSUID_TEXT_LEN, K.MINTID_EARG
local OBJECTID_LEN, XID_LEN = K.MINTID_OBJECTID_TEXT_LEN, K.MINTID_XID_TEXT_LEN
-- Nano IDs up to this size use the shared buffer; larger ones the C module.
local BUF_SIZE = 256

local buf = ffi_new("char[?]", BUF_SIZE)
local errbuf = ffi_new("char[?]", K.MINTID_ERRMSG_SIZE)
local u64box = ffi_new("uint64_t[1]")
local i64box = ffi_new("int64_t[1]")
local u32box = ffi_new("uint32_t[2]")
local u8p, u32p = ffi_typeof("uint8_t *"), ffi_typeof("uint32_t *")

-- The flags of the header of the generator g (lua_binding.h's gen_hooks),
-- one uint32_t: zero when an FFI method may serve the call.
local function flags_of(g)
    return ffi_cast(u32p, g)[0]
end

---------------------------------------------------------------------------
-- Values: the C module's own userdata. The FFI decodes into the 16 bytes of
-- a zeroed value made in batches by the C module's new_values, so a parse
-- costs no Lua C API call of its own. A value taken from a pool is returned
-- only once decoded; a failed parse gives it back to no one. A batch is made
-- into a table of its own and becomes the pool only when full: making it
-- allocates, so a finalizer may take values from the pool meanwhile.

local new_values = F.new_values
local BATCH = 64
local function value_pool(sample)
    local pool, n = {}, 0
    return function()
        if n == 0 then
            local batch = {}
            new_values(sample, BATCH, batch)
            pool, n = batch, BATCH
        end
        local v = pool[n]
        pool[n] = nil
        n = n - 1
        return v
    end
end
local ZERO16 = ("\0"):rep(16)

-- parse_*(text [, mode]): a string through the FFI, decoded by the mode's
-- decoder (modes[mode]; no mode: decode), anything else (another mode
-- too) to the C function (tail-called, so that its error names the call as
-- the caller wrote it).
local function parser(c_parse, decode, sample, modes)
    local blank = value_pool(sample)
    return function(...)
        local text, mode = ...
        local by = decode
        if mode ~= nil then by = modes and modes[mode] end
        if type(text) ~= "string" or not by then
            return c_parse(...)
        end
        local v = blank()
        local p = ffi_cast(u8p, v)
        errbuf[0] = 0
        local rc = by(text, #text, p, errbuf)
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        return v
    end
end
M.parse_ulid = parser(mintid.parse_ulid, C.mintid_ulid_decode, mintid.ulid_from_bytes(ZERO16))
M.parse_uuid = parser(mintid.parse_uuid, C.mintid_uuid_decode, mintid.uuid_from_bytes(ZERO16),
    { strict = C.mintid_uuid_decode, lenient = C.mintid_uuid_decode_lenient })
M.parse_relative = parser(mintid.parse_relative, C.mintid_relative_decode, mintid.relative_from(0, 0, 0))

-- The same 16 bytes in the other text form.
local function converter(c_convert, convert, len)
    return function(...)
        local text = ...
        if type(text) ~= "string" then
            return c_convert(...)
        end
        errbuf[0] = 0
        local rc = convert(text, #text, buf, errbuf)
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        return ffi_string(buf, len)
    end
end
M.ulid_to_uuid = converter(mintid.ulid_to_uuid, C.mintid_ulid_to_uuid_text, UUID_LEN)
M.uuid_to_ulid = converter(mintid.uuid_to_ulid, C.mintid_uuid_to_ulid_text, ULID_LEN)

-- parse_snowflake(id [, epoch]): decimal text, with no epoch or one that is
-- an integer every Lua number holds exactly, through the FFI; so is a
-- preset name as the layout (the C module's layout of each name is kept).
-- Anything else (a number ID, another epoch, a layout table, which
-- may change between calls) to the C function, which decides.
do
    local parse_snowflake = mintid.parse_snowflake
    local parse_decimal, check_epoch, timestamp_of, split = C.mintid_snowflake_parse_decimal,
        C.mintid_snowflake_check_epoch, C.mintid_snowflake_timestamp, C.mintid_snowflake_split
    local layout_split, new_layout = C.mintid_snowflake_layout_split, F.snowflake_layout
    local layout_p = ffi_typeof("const mintid_snowflake_layout *")
    local MAX_EXACT = F.max_exact
    -- Machine id and sequence, read as 32-bit halves: no boxing (which
    -- allocates, and so may run a finalizer that calls this again).
    local u64pair = ffi_new("uint64_t[2]")
    local halves = ffi_cast(u32p, u64pair)
    local LO, HI = ffi.abi("le") and 0 or 1, ffi.abi("le") and 1 or 0
    -- The layout of each preset name used, kept for good (there are five):
    -- its userdata alive whatever a nested call does meanwhile.
    local layouts = {} -- name -> { the C module's userdata, the layout in it }

    local function by_layout(layout, id, ...)
        local kept = layouts[layout]
        if kept == nil then
            local ok, ud = pcall(new_layout, layout)
            if not ok then return parse_snowflake(...) end -- raises, naming argument 2
            kept = { ud, ffi_cast(layout_p, ud) }
            layouts[layout] = kept
        end
        local l = kept[2]
        errbuf[0] = 0
        local rc = parse_decimal(id, #id, u64box, errbuf)
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        local n = u64box[0] -- boxed: u64box may be written again from here on
        errbuf[0] = 0
        rc = layout_split(l, n, MAX_EXACT, i64box, u64pair, u64pair + 1, errbuf)
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        if halves[HI] ~= 0 or halves[2 + HI] ~= 0 then return parse_snowflake(...) end -- past 2^32
        local machine_id, sequence = halves[LO], halves[2 + LO]
        -- Last: reading i64box boxes (allocates).
        return tonumber(i64box[0]), machine_id, sequence
    end

    function M.parse_snowflake(...)
        local id, epoch = ...
        if type(id) == "string" and type(epoch) == "string" then return by_layout(epoch, id, ...) end
        if type(id) ~= "string" or (epoch ~= nil and not (type(epoch) == "number" and epoch >= 0
                and epoch <= MAX_EXACT and epoch % 1 == 0)) then
            return parse_snowflake(...)
        end
        epoch = epoch or 0
        errbuf[0] = 0
        local rc = parse_decimal(id, #id, u64box, errbuf)
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        local n = u64box[0] -- boxed: u64box may be written again from here on
        if epoch ~= 0 and check_epoch(epoch, errbuf) ~= 0 then
            return parse_snowflake(...) -- raises, naming argument 2
        end
        errbuf[0] = 0
        rc = timestamp_of(n, epoch, MAX_EXACT, i64box, errbuf)
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        split(n, epoch, i64box, u32box, u32box + 1)
        -- The numbers first: reading i64box boxes (allocates).
        local machine_id, sequence = u32box[0], u32box[1]
        return tonumber(i64box[0]), machine_id, sequence
    end
end

---------------------------------------------------------------------------
-- One-shot calls: the process-wide default generators, shared with mintid.

local function one_shot(make_text, len)
    return function()
        errbuf[0] = 0
        local rc = make_text(buf, errbuf)
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        return ffi_string(buf, len)
    end
end
M.ulid = one_shot(C.mintid_ulid_text, ULID_LEN)
M.uuid7 = one_shot(C.mintid_uuid7_text, UUID_LEN)
M.uuid4 = one_shot(C.mintid_uuid4_text, UUID_LEN)
M.uuid1 = one_shot(C.mintid_uuid1_text, UUID_LEN)
M.uuid6 = one_shot(C.mintid_uuid6_text, UUID_LEN)
M.ksuid = one_shot(C.mintid_ksuid_text, KSUID_LEN)
M.objectid = one_shot(C.mintid_objectid_text, OBJECTID_LEN)
M.xid = one_shot(C.mintid_xid_text, XID_LEN)
M.trace_id = one_shot(C.mintid_trace_id_text, K.MINTID_TRACE_ID_TEXT_LEN)
M.span_id = one_shot(C.mintid_span_id_text, K.MINTID_SPAN_ID_TEXT_LEN)

-- traceparent([trace_id [, parent_id [, flags]]]): ids nil (fresh, NULL to
-- the core) or strings, flags nil or a number every Lua number holds as an
-- integer, through the FFI; anything else, and flags the core refuses
-- (EARG), to the C function, which raises naming the argument.
-- parse_traceparent(header): a string through the FFI.
do
    local traceparent, traceparent_text = mintid.traceparent, C.mintid_traceparent_text
    local parse_traceparent, parse = mintid.parse_traceparent, C.mintid_traceparent_parse
    local TRACEPARENT_LEN, TRACE_LEN, SPAN_LEN = K.MINTID_TRACEPARENT_LEN, K.MINTID_TRACE_ID_TEXT_LEN,
        K.MINTID_SPAN_ID_TEXT_LEN
    local MAX_EXACT = F.max_exact
    local u8box = ffi_new("uint8_t[1]")

    function M.traceparent(...)
        local trace_id, parent_id, flags = ...
        if (trace_id ~= nil and type(trace_id) ~= "string") or (parent_id ~= nil and type(parent_id) ~= "string")
                or (flags ~= nil and not (type(flags) == "number" and flags >= -MAX_EXACT and flags <= MAX_EXACT
                    and flags % 1 == 0)) then
            return traceparent(...)
        end
        errbuf[0] = 0
        local rc = traceparent_text(trace_id, trace_id and #trace_id or 0, parent_id, parent_id and #parent_id or 0,
            flags or 0, buf, errbuf)
        if rc == EARG then return traceparent(...) end
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        return ffi_string(buf, TRACEPARENT_LEN)
    end

    function M.parse_traceparent(...)
        local header = ...
        if type(header) ~= "string" then return parse_traceparent(...) end
        errbuf[0] = 0
        local rc = parse(header, #header, buf, buf + TRACE_LEN, u8box, errbuf)
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        local flags = u8box[0]
        -- One string: a finalizer run by a first allocation could write buf.
        local ids = ffi_string(buf, TRACE_LEN + SPAN_LEN)
        return ids:sub(1, TRACE_LEN), ids:sub(TRACE_LEN + 1), flags
    end
end

-- typeid(prefix): a string through the FFI; a prefix the core refuses (EARG,
-- before anything is minted) or any other argument to the C function, which
-- raises naming it.
do
    local typeid, typeid_text = mintid.typeid, C.mintid_typeid_text
    function M.typeid(...)
        local prefix = ...
        if type(prefix) ~= "string" then return typeid(...) end
        errbuf[0] = 0
        local n = typeid_text(prefix, #prefix, buf, errbuf)
        if n == EARG then return typeid(...) end
        if n < 0 then return fail(n, ffi_string(errbuf)) end
        return ffi_string(buf, n)
    end
end

-- uuid3/uuid5/uuid8_sha256(namespace, name): two strings through the FFI (the
-- name space parsed by the core), a name space value or anything else to the
-- C function.
local function name_based(c_make, make_text)
    return function(...)
        local ns, name = ...
        if type(ns) ~= "string" or type(name) ~= "string" then return c_make(...) end
        errbuf[0] = 0
        local rc = make_text(ns, #ns, name, #name, buf, errbuf)
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        return ffi_string(buf, UUID_LEN)
    end
end
M.uuid3 = name_based(mintid.uuid3, C.mintid_uuid3_text)
M.uuid5 = name_based(mintid.uuid5, C.mintid_uuid5_text)
M.uuid8_sha256 = name_based(mintid.uuid8_sha256, C.mintid_uuid8_sha256_text)

-- A Nano ID of the spec s (size bytes, at most BUF_SIZE) from the pool; for
-- the generator g, c_next(g) (which raises) if g was closed meanwhile.
local nanoid_text, spec_size = C.mintid_nanoid_text, C.mintid_nanoid_spec_size
local function nanoid_of(s, size, g, c_next)
    errbuf[0] = 0
    local rc = nanoid_text(s, buf, errbuf)
    if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
    local id = ffi_string(buf, size)
    if g ~= nil and flags_of(g) ~= 0 then return c_next(g) end
    return id
end

local spec_p = ffi_typeof("const mintid_nanoid_spec *")
do
    local nanoid, nanoid_spec = mintid.nanoid, F.nanoid_spec
    local default_spec = ffi_cast(spec_p, F.nanoid_default)
    local DEFAULT_SIZE = tonumber(spec_size(default_spec))
    -- The spec the C module made for the last custom call (last_ud, which
    -- keeps it alive), reused while the arguments repeat; nil is the
    -- default and false a value the C function refuses, so they stay apart.
    local last_size, last_alphabet, last_ud, last_spec, last_len

    function M.nanoid(...)
        local size, alphabet = ...
        if size == nil and alphabet == nil then
            return nanoid_of(default_spec, DEFAULT_SIZE)
        end
        if last_ud == nil or size ~= last_size or alphabet ~= last_alphabet then
            local ud = nanoid_spec(size, alphabet)
            if ud == nil then
                return nanoid(...) -- raises
            end
            local s = ffi_cast(spec_p, ud)
            last_ud, last_size, last_alphabet, last_spec, last_len = ud, size, alphabet, s, tonumber(spec_size(s))
        end
        if last_len > BUF_SIZE then
            return nanoid(...)
        end
        return nanoid_of(last_spec, last_len)
    end
end

-- short_uuid(uuid [, alphabet]), parse_short_uuid(text [, alphabet]): the
-- alphabet the C module checked (its default, or the last custom string
-- named, kept with its userdata while the string repeats); a UUID text or
-- value and text to parse through the FFI; anything else, and an alphabet
-- the C module refuses, to the C function, which decides or raises.
do
    local short_uuid, parse_short_uuid = mintid.short_uuid, mintid.parse_short_uuid
    local new_alphabet, alphabet_p = F.short_uuid_alphabet, ffi_typeof("const mintid_short_uuid_alphabet *")
    local length_of, encode, text_of, decode = C.mintid_short_uuid_length, C.mintid_short_uuid_encode,
        C.mintid_short_uuid_text, C.mintid_short_uuid_decode
    local default = ffi_cast(alphabet_p, F.short_uuid_default)
    local default_len = tonumber(length_of(default))
    local uuid_mt = getmetatable(mintid.uuid_from_bytes(ZERO16))
    local blank = value_pool(mintid.uuid_from_bytes(ZERO16))
    local last_text, last_ud, last, last_len

    -- The alphabet and its length, or nil where the C function must decide.
    local function alphabet_of(alphabet)
        if alphabet == nil then return default, default_len end
        if alphabet ~= last_text or last_ud == nil then
            if type(alphabet) ~= "string" then return nil end
            local ud = new_alphabet(alphabet)
            if ud == nil then return nil end
            local a = ffi_cast(alphabet_p, ud)
            last_text, last_ud, last, last_len = alphabet, ud, a, tonumber(length_of(a))
        end
        return last, last_len
    end

    function M.short_uuid(...)
        local uuid, alphabet = ...
        local a, len = alphabet_of(alphabet)
        if a == nil then return short_uuid(...) end
        if type(uuid) == "string" then
            errbuf[0] = 0
            local n = text_of(a, uuid, #uuid, buf, errbuf)
            if n < 0 then return fail(n, ffi_string(errbuf)) end
            return ffi_string(buf, n)
        end
        if getmetatable(uuid) ~= uuid_mt then return short_uuid(...) end
        encode(a, ffi_cast(u8p, uuid), buf)
        return ffi_string(buf, len)
    end

    function M.parse_short_uuid(...)
        local text, alphabet = ...
        local a = alphabet_of(alphabet)
        if a == nil or type(text) ~= "string" then return parse_short_uuid(...) end
        local v = blank()
        errbuf[0] = 0
        local rc = decode(a, text, #text, ffi_cast(u8p, v), errbuf)
        if rc ~= 0 then return fail(rc, ffi_string(errbuf)) end
        return v
    end
end

-- cuid2([length]): nil or an integer 2..32 through the FFI, anything else
-- (and a length the core refuses, EARG) to the C function, which raises
-- naming it. is_cuid2(text [, min [, max]]): a string and nil or integer
-- bounds (within what a double holds exactly) through the FFI.
do
    local cuid2, cuid2_text = mintid.cuid2, C.mintid_cuid2_text
    local is_cuid2, cuid2_valid = mintid.is_cuid2, C.mintid_cuid2_valid
    local DEFAULT_LEN, MAX_LEN, MAX_EXACT = 24, K.MINTID_CUID2_MAX_LEN, F.max_exact

    function M.cuid2(...)
        local length = ...
        if length == nil then
            length = DEFAULT_LEN
        elseif type(length) ~= "number" or length % 1 ~= 0 or length < 2 or length > MAX_LEN then
            return cuid2(...)
        end
        errbuf[0] = 0
        local n = cuid2_text(length, buf, errbuf)
        if n < 0 then return fail(n, ffi_string(errbuf)) end
        return ffi_string(buf, n)
    end

    local function bound(v)
        return v == nil or (type(v) == "number" and v % 1 == 0 and v >= -MAX_EXACT and v <= MAX_EXACT)
    end

    function M.is_cuid2(...)
        local text, min_len, max_len = ...
        if type(text) ~= "string" or not bound(min_len) or not bound(max_len) then return is_cuid2(...) end
        return cuid2_valid(text, #text, min_len or 2, max_len or MAX_LEN) == 1
    end
end

---------------------------------------------------------------------------
-- Generators: the C module's constructors of objects with the FFI
-- metatable, whose methods next (and nothing else) are replaced here.
-- Every flag of the object's header (closed, hooks, busy) sends the call to
-- the C module's method; so does an object of another kind (a wrong self).
-- A generator closed during a call (a finalizer at the allocation of the
-- result) fails it: the flags are read again once the result is made.

local OFFSET = F.state_offset

-- The state of the generator g as a `ptr` cdata, or nil when a flag is
-- set. The flags are read last, after the casts (which allocate, so may
-- run a finalizer that closes g): nothing between this check and the
-- caller's C call may allocate.
local function state_of(g, ptr)
    local st = ffi_cast(ptr, ffi_cast(u8p, g) + OFFSET)
    if flags_of(g) ~= 0 then return nil end
    return st
end

-- kind(name, methods): methods(mt, c) gives the FFI methods of the kind,
-- mt its FFI metatable, c the C module's methods.
local function kind(name, methods)
    local mt = F.meta[name]
    for method, f in pairs(methods(mt, F.methods[name])) do
        mt.__index[method] = f
    end
    M[name] = F.new[name]
end

-- next through the FFI on the state of a `ctype`: text(st, key) writes the
-- ID to buf and returns its length, or a status < 0. keyed: the first
-- argument is a key, which only a string is through the FFI (the C module
-- converts and checks any other). A status EARG (a bad argument, refused
-- before the state moved) goes to the C method, which raises naming it.
local function ffi_next(ctype, text, keyed)
    local ptr = ffi_typeof(ctype .. " *")
    return function(mt, c)
        local c_next = c.next
        return {
            next = function(...)
                local g, key = ...
                local st = getmetatable(g) == mt and (not keyed or type(key) == "string") and state_of(g, ptr)
                if not st then return c_next(...) end
                errbuf[0] = 0
                local n = text(st, key)
                if n == EARG then return c_next(...) end
                if n < 0 then return fail(n, ffi_string(errbuf)) end
                local id = ffi_string(buf, n)
                if flags_of(g) ~= 0 then return c_next(...) end
                return id
            end,
        }
    end
end

-- An ABI call that returns a status for text of a fixed length.
local function fixed(next_text, len)
    return function(st)
        local rc = next_text(st, buf, errbuf)
        if rc ~= 0 then return rc end
        return len
    end
end

kind("ulid_generator", ffi_next("mintid_ulid_gen", fixed(C.mintid_ulid_gen_next_text, ULID_LEN)))
kind("uuid7_generator", ffi_next("mintid_uuid7_gen", fixed(C.mintid_uuid7_gen_next_text, UUID_LEN)))
kind("uuid1_generator", ffi_next("mintid_uuid_time_gen", fixed(C.mintid_uuid_time_gen_next_text, UUID_LEN)))
kind("uuid6_generator", ffi_next("mintid_uuid_time_gen", fixed(C.mintid_uuid_time_gen_next_text, UUID_LEN)))
kind("ksuid_generator", ffi_next("mintid_ksuid_gen", fixed(C.mintid_ksuid_gen_next_text, KSUID_LEN)))
kind("objectid_generator", ffi_next("mintid_objectid_gen", fixed(C.mintid_objectid_gen_next_text, OBJECTID_LEN)))
kind("xid_generator", ffi_next("mintid_xid_gen", fixed(C.mintid_xid_gen_next_text, XID_LEN)))
-- TypeIDs: g:next(prefix), the prefix a key that must be a string.
do
    local next_text = C.mintid_typeid_gen_next_text
    kind("typeid_generator", ffi_next("mintid_uuid7_gen", function(st, prefix)
        return next_text(st, prefix, #prefix, buf, errbuf)
    end, true))
end
do
    local next_text = C.mintid_relative_gen_next_text
    kind("relative_generator", ffi_next("mintid_relative_gen", function(st, key)
        local rc = next_text(st, key, #key, buf, errbuf)
        if rc ~= 0 then return rc end
        return RELATIVE_LEN
    end, true))
end
-- Snowflakes: decimal text under LuaJIT, as the C module gives; the ABI
-- call returns its length.
do
    local next_text = C.mintid_snowflake_gen_next_text
    kind("snowflake_generator", ffi_next("mintid_snowflake_gen", function(st) return next_text(st, buf, errbuf) end))
end

-- CUID2s: the ABI call returns the length.
do
    local next_text = C.mintid_cuid2_gen_next_text
    kind("cuid2_generator", ffi_next("mintid_cuid2_gen", function(st) return next_text(st, buf, errbuf) end))
end

-- UUIDv4: no state, only the flags.
do
    local uuid4_text = C.mintid_uuid4_text
    kind("uuid4_generator", ffi_next("uint8_t", fixed(function(_, out, err) return uuid4_text(out, err) end, UUID_LEN)))
end

-- Nano IDs: the spec is the state; its size is read before the flags.
kind("nanoid_generator", function(mt, c)
    local c_next = c.next
    return {
        next = function(...)
            local g = ...
            if getmetatable(g) ~= mt then return c_next(...) end
            local s = ffi_cast(spec_p, ffi_cast(u8p, g) + OFFSET)
            local size = tonumber(spec_size(s))
            if size > BUF_SIZE or flags_of(g) ~= 0 then return c_next(...) end
            return nanoid_of(s, size, g, c_next)
        end,
    }
end)

---------------------------------------------------------------------------
-- Sqids: the C module's encoders with the FFI metatable (_ffi.sqids_meta),
-- whose encode runs the core on the object's memory (the core's encoder
-- itself). A call it does not serve as plainly (more than SQIDS_NUMBERS
-- numbers, a value that is no number in range, a wrong self, an error)
-- goes to the C method, which does it or raises the exact error. decode
-- stays the C method: its result is a table the C API builds as fast, and
-- a buffer of numbers read back would have to outlive the table's
-- allocation (a finalizer's call there would overwrite it).
do
    local mt = F.sqids_meta
    local c_encode = mt.__index.encode
    local encode = C.mintid_sqids_encode
    local sqids_p = ffi_typeof("const mintid_sqids *")
    local MAX = F.max_exact
    -- 16 numbers of at most 54 symbols (2^53 in base 2), 15 separators and
    -- the prefix, or 255 of min_length: within the text buffer.
    local SQIDS_NUMBERS, SQIDS_TEXT = 16, 1024
    local numbers_buf = ffi_new("uint64_t[?]", SQIDS_NUMBERS)
    local text_buf = ffi_new("char[?]", SQIDS_TEXT)
    local rawget = rawget

    function mt.__index.encode(...)
        local s, numbers = ...
        if getmetatable(s) ~= mt or type(numbers) ~= "table" or type(MAX) ~= "number" then
            return c_encode(...)
        end
        local n = #numbers
        if n > SQIDS_NUMBERS then return c_encode(...) end
        -- The cast allocates (a finalizer may encode meanwhile): done before
        -- the numbers are written; nothing from there to the read allocates.
        local st = ffi_cast(sqids_p, s)
        for i = 1, n do
            local v = rawget(numbers, i)
            if type(v) ~= "number" or not (v >= 0 and v <= MAX) or v % 1 ~= 0 then return c_encode(...) end
            numbers_buf[i - 1] = v
        end
        local len = encode(st, numbers_buf, n, text_buf, nil)
        if len < 0 then return c_encode(...) end
        return ffi_string(text_buf, len)
    end

    M.sqids = F.sqids
end

return M
