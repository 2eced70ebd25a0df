/*
 * lua_values.c: the binding's values (lua_binding.h): ULID, UUID, relative
 * ID, KSUID, ObjectId, XID and TypeID userdata with their metamethods and methods, and the
 * module functions that parse, build or convert them, or derive a UUID
 * from a name or from bytes.
 */
#include "lua_values.h"

#include <stdio.h>

/* ---- each kind's time, in Unix ms --------------------------------------- */

static int ulid_ms(const uint8_t *v, int64_t *ms)
{
    *ms = mintid_ulid_time(v);
    return 1;
}

/* SPEC: the timestamp is defined for versions 1, 6 and 7. */
static int uuid_ms(const uint8_t *v, int64_t *ms) { return mintid_uuid_unix_ms(v, ms); }

static int relative_ms(const uint8_t *v, int64_t *ms)
{
    uint32_t tag;
    uint64_t rnd;

    mintid_relative_split(v, &tag, ms, &rnd);
    return 1;
}

static int ksuid_ms(const uint8_t *v, int64_t *ms)
{
    *ms = mintid_ksuid_time(v) * 1000;
    return 1;
}

/* ObjectId, XID: 32-bit Unix seconds first. */
static int seconds_ms(const uint8_t *v, int64_t *ms)
{
    *ms = (int64_t)mintid_load_be32(v) * 1000;
    return 1;
}

static int typeid_ms(const uint8_t *v, int64_t *ms)
{
    return mintid_uuid_unix_ms(((const typeid_value *)(const void *)v)->id, ms);
}

MINTID_INTERNAL_DATA const value_kind mintid_lua_ulid_kind = {
    "mintid.ULID", "ULID", MINTID_ULID_TEXT_LEN, mintid_ulid_encode, mintid_ulid_decode, 16, 16, NULL, ulid_ms
};
MINTID_INTERNAL_DATA const value_kind mintid_lua_uuid_kind = {
    "mintid.UUID", "UUID", MINTID_UUID_TEXT_LEN, mintid_uuid_encode, mintid_uuid_decode, 16, 16, NULL, uuid_ms
};
MINTID_INTERNAL_DATA const value_kind mintid_lua_relative_kind = {
    "mintid.RelativeID", "relative ID", MINTID_RELATIVE_TEXT_LEN, mintid_relative_encode,
    mintid_relative_decode, 16, 16, NULL, relative_ms
};
MINTID_INTERNAL_DATA const value_kind mintid_lua_ksuid_kind = {
    "mintid.KSUID", "KSUID", MINTID_KSUID_TEXT_LEN, mintid_ksuid_encode, mintid_ksuid_decode,
    MINTID_KSUID_BYTES, MINTID_KSUID_BYTES, NULL, ksuid_ms
};

MINTID_INTERNAL_DATA const value_kind mintid_lua_objectid_kind = {
    "mintid.ObjectId", "ObjectId", MINTID_OBJECTID_TEXT_LEN, mintid_objectid_encode, mintid_objectid_decode,
    MINTID_OBJECTID_BYTES, MINTID_OBJECTID_BYTES, NULL, seconds_ms
};
MINTID_INTERNAL_DATA const value_kind mintid_lua_xid_kind = {
    "mintid.XID", "XID", MINTID_XID_TEXT_LEN, mintid_xid_encode, mintid_xid_decode,
    MINTID_XID_BYTES, MINTID_XID_BYTES, NULL, seconds_ms
};

static size_t typeid_text(const uint8_t *v, char out[TEXT_MAX_LEN])
{
    const typeid_value *t = (const typeid_value *)(const void *)v;

    /* The prefix was checked when the value was made. */
    return (size_t)mintid_typeid_encode(t->prefix, t->prefix_len, t->id, out, NULL);
}

MINTID_INTERNAL_DATA const value_kind mintid_lua_typeid_kind = {
    "mintid.TypeID", "TypeID", 0, NULL, NULL, sizeof(typeid_value), 16, typeid_text, typeid_ms
};

void mintid_lua_push_value(lua_State *L, const uint8_t *id, const value_kind *k)
{
    uint8_t *p = (uint8_t *)compat_newuserdatauv(L, k->size, 0);

    memcpy(p, id, k->size);
    luaL_setmetatable(L, k->tname);
}

static const uint8_t *check_value(lua_State *L, int idx, const value_kind *k)
{
    return (const uint8_t *)luaL_checkudata(L, idx, k->tname);
}

static const value_kind *upvalue_value_kind(lua_State *L)
{
    return (const value_kind *)lua_touserdata(L, lua_upvalueindex(1));
}

static int value_tostring(lua_State *L)
{
    const value_kind *k = upvalue_value_kind(L);

    mintid_lua_push_text(L, check_value(L, 1, k), k);
    return 1;
}

/* Comparing with anything else (another kind, a number) is simply false;
 * __eq may be reached with a foreign userdata first. */
static int value_eq(lua_State *L)
{
    const char *tname = upvalue_value_kind(L)->tname;
    const uint8_t *a = (const uint8_t *)luaL_testudata(L, 1, tname);
    const uint8_t *b = (const uint8_t *)luaL_testudata(L, 2, tname);

    lua_pushboolean(L, a != NULL && b != NULL && memcmp(a, b, upvalue_value_kind(L)->size) == 0);
    return 1;
}

/* Ordering across kinds has no meaning, so it raises. */
static int value_compare(lua_State *L, int or_equal)
{
    const value_kind *k = upvalue_value_kind(L);
    /* Apart, so that argument 1 is checked (and blamed) first. */
    const uint8_t *a = check_value(L, 1, k);
    const uint8_t *b = check_value(L, 2, k);
    int c;

    if (k->text != NULL) {
        char ta[TEXT_MAX_LEN], tb[TEXT_MAX_LEN];
        size_t la = k->text(a, ta), lb = k->text(b, tb);

        c = memcmp(ta, tb, la < lb ? la : lb);
        if (c == 0)
            c = la < lb ? -1 : la > lb;
    } else {
        c = memcmp(a, b, k->size);
    }

    lua_pushboolean(L, or_equal ? c <= 0 : c < 0);
    return 1;
}

static int value_lt(lua_State *L) { return value_compare(L, 0); }
static int value_le(lua_State *L) { return value_compare(L, 1); }

static int value_bytes(lua_State *L)
{
    const value_kind *k = upvalue_value_kind(L);

    lua_pushlstring(L, (const char *)check_value(L, 1, k), k->bytes_len);
    return 1;
}

/* ULID and UUID are two texts of the same 16 bytes. */
static int value_as(lua_State *L, const value_kind *from, const value_kind *to)
{
    mintid_lua_push_value(L, check_value(L, 1, from), to);
    return 1;
}

static int ulid_uuid(lua_State *L) { return value_as(L, &mintid_lua_ulid_kind, &mintid_lua_uuid_kind); }
static int uuid_ulid(lua_State *L) { return value_as(L, &mintid_lua_uuid_kind, &mintid_lua_ulid_kind); }

/* SPEC "ULID": the randomness is bytes 6..15, after the 48-bit time. */
static int ulid_random(lua_State *L)
{
    lua_pushlstring(L, (const char *)check_value(L, 1, &mintid_lua_ulid_kind) + 6, 10);
    return 1;
}

/* :time(): Unix ms, nil where the value has no time. */
static int value_time(lua_State *L)
{
    const value_kind *k = upvalue_value_kind(L);
    int64_t ms;

    if (k->time(check_value(L, 1, k), &ms))
        compat_pushint64(L, ms);
    else
        lua_pushnil(L);
    return 1;
}

/* :iso(): the time as RFC 3339 text; nil where the value has no time; a
 * time of no four-digit year is bad data. */
static int value_iso(lua_State *L)
{
    const value_kind *k = upvalue_value_kind(L);
    char out[MINTID_ISO_TEXT_LEN], err[MINTID_ERRMSG_SIZE];
    int64_t ms;
    int rc;

    if (!k->time(check_value(L, 1, k), &ms)) {
        lua_pushnil(L);
        return 1;
    }
    err[0] = '\0';
    rc = mintid_iso_text(ms, out, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    lua_pushlstring(L, out, sizeof out);
    return 1;
}

/* :hex(): the 32 digits, :urn(): RFC 9562's URN of the UUID. */
static int uuid_hex(lua_State *L)
{
    char out[32];

    mintid_hex_encode16(check_value(L, 1, &mintid_lua_uuid_kind), out);
    lua_pushlstring(L, out, sizeof out);
    return 1;
}

static int uuid_urn(lua_State *L)
{
    char out[9 + MINTID_UUID_TEXT_LEN] = "urn:uuid:";

    mintid_uuid_encode(check_value(L, 1, &mintid_lua_uuid_kind), out + 9);
    lua_pushlstring(L, out, sizeof out);
    return 1;
}

/* The Gregorian-time fields of a v1 or v6 UUID: 1, or 0 with nil pushed
 * (every other version has none). */
typedef struct {
    uint64_t ticks;
    uint16_t clock_seq;
    uint8_t node[6];
} uuid_time_fields;

static int check_uuid_time_fields(lua_State *L, uuid_time_fields *f)
{
    if (mintid_uuid_time_split(check_value(L, 1, &mintid_lua_uuid_kind), &f->ticks, &f->clock_seq, f->node,
                               NULL) == MINTID_OK)
        return 1;
    lua_pushnil(L);
    return 0;
}

static int uuid_node(lua_State *L)
{
    uuid_time_fields f;

    if (check_uuid_time_fields(L, &f))
        lua_pushlstring(L, (const char *)f.node, sizeof f.node);
    return 1;
}

static int uuid_clock_seq(lua_State *L)
{
    uuid_time_fields f;

    if (check_uuid_time_fields(L, &f))
        lua_pushinteger(L, (lua_Integer)f.clock_seq);
    return 1;
}

/* 60 bits: past 2^53 (every time after 1611) an int64 cdata on LuaJIT;
 * on a Lua whose integers are doubles, a double only when it holds the
 * ticks exactly, else bad data, never a rounded number. */
static int uuid_ticks(lua_State *L)
{
    uuid_time_fields f;

    if (!check_uuid_time_fields(L, &f))
        return 1;
    if (f.ticks <= (uint64_t)MINTID_LUA_MAX_EXACT)
        compat_pushint64(L, (int64_t)f.ticks);
    else if (compat_push_int64_cdata(L, (int64_t)f.ticks))
        return 1;
    else if ((uint64_t)(lua_Number)f.ticks == f.ticks)
        lua_pushnumber(L, (lua_Number)f.ticks);
    else
        return mintid_lua_fail_msg(L, "UUID ticks do not fit this Lua's integers (above 2^53)");
    return 1;
}

static int uuid_variant(lua_State *L)
{
    lua_pushstring(L, mintid_uuid_variant_name(mintid_uuid_variant(check_value(L, 1, &mintid_lua_uuid_kind))));
    return 1;
}

static int ksuid_payload(lua_State *L)
{
    lua_pushlstring(L, (const char *)check_value(L, 1, &mintid_lua_ksuid_kind) + 4, 16);
    return 1;
}

/* ObjectId and XID: the 24-bit counter of bytes 9..11. */
static int seconds_counter_method(lua_State *L, const value_kind *k)
{
    const uint8_t *v = check_value(L, 1, k);

    lua_pushinteger(L, (lua_Integer)((uint32_t)v[9] << 16 | (uint32_t)v[10] << 8 | v[11]));
    return 1;
}

static int objectid_counter(lua_State *L) { return seconds_counter_method(L, &mintid_lua_objectid_kind); }
static int xid_counter(lua_State *L) { return seconds_counter_method(L, &mintid_lua_xid_kind); }

static int xid_machine(lua_State *L)
{
    lua_pushlstring(L, (const char *)check_value(L, 1, &mintid_lua_xid_kind) + 4, 3);
    return 1;
}

static int xid_pid(lua_State *L)
{
    const uint8_t *v = check_value(L, 1, &mintid_lua_xid_kind);

    lua_pushinteger(L, (lua_Integer)((unsigned)v[7] << 8 | v[8]));
    return 1;
}

static const typeid_value *check_typeid(lua_State *L)
{
    return (const typeid_value *)(const void *)check_value(L, 1, &mintid_lua_typeid_kind);
}

static int typeid_prefix(lua_State *L)
{
    const typeid_value *t = check_typeid(L);

    lua_pushlstring(L, t->prefix, t->prefix_len);
    return 1;
}

static int typeid_uuid(lua_State *L)
{
    mintid_lua_push_value(L, check_typeid(L)->id, &mintid_lua_uuid_kind);
    return 1;
}

static int uuid_version(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)mintid_uuid_version(check_value(L, 1, &mintid_lua_uuid_kind)));
    return 1;
}

typedef struct {
    uint32_t tag;
    int64_t ms;
    uint64_t rand;
} relative_parts;

static relative_parts check_relative_parts(lua_State *L)
{
    relative_parts p;

    mintid_relative_split(check_value(L, 1, &mintid_lua_relative_kind), &p.tag, &p.ms, &p.rand);
    return p;
}

static int relative_tag_method(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)check_relative_parts(L).tag);
    return 1;
}

/* The tag's text, as relative_generator:prefix gives it for the key. */
static int relative_prefix_method(lua_State *L)
{
    char prefix[MINTID_RELATIVE_PREFIX_LEN];

    mintid_relative_prefix(check_relative_parts(L).tag, prefix);
    lua_pushlstring(L, prefix, sizeof prefix);
    return 1;
}

static int relative_rand(lua_State *L)
{
    compat_pushint64(L, (int64_t)check_relative_parts(L).rand);
    return 1;
}

/* ---- parsing and building values ---------------------------------------- */

/* Text of kind `from` at argument 1, pushed as `to` (the same kind for the
 * parse_* calls; the other text form for ulid_to_uuid, uuid_to_ulid). */
static int reparse(lua_State *L, const value_kind *from, const value_kind *to, push_id_fn push)
{
    size_t len;
    const char *text = mintid_lua_check_text(L, 1, &len);
    uint8_t id[MINTID_KSUID_BYTES]; /* the largest */
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = from->decode(text, len, id, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    push(L, id, to);
    return 1;
}

static int m_parse_ulid(lua_State *L) { return reparse(L, &mintid_lua_ulid_kind, &mintid_lua_ulid_kind, mintid_lua_push_value); }
/* parse_uuid(text [, mode]): mode "lenient" also takes the other
 * systems' forms (mintid_uuid_decode_lenient); none, or "strict", the
 * one form. */
static int m_parse_uuid(lua_State *L)
{
    static const value_kind lenient = {
        "mintid.UUID", "UUID", MINTID_UUID_TEXT_LEN, mintid_uuid_encode, mintid_uuid_decode_lenient, 16, 16,
        NULL, uuid_ms
    };
    const char *mode;
    size_t len;

    if (lua_isnoneornil(L, 2))
        return reparse(L, &mintid_lua_uuid_kind, &mintid_lua_uuid_kind, mintid_lua_push_value);
    mode = mintid_lua_check_text(L, 2, &len);
    if (len == 7 && memcmp(mode, "lenient", 7) == 0)
        return reparse(L, &lenient, &mintid_lua_uuid_kind, mintid_lua_push_value);
    if (len != 6 || memcmp(mode, "strict", 6) != 0)
        return luaL_argerror(L, 2, lua_pushfstring(L, "mode must be \"strict\" or \"lenient\", got \"%s\"", mode));
    return reparse(L, &mintid_lua_uuid_kind, &mintid_lua_uuid_kind, mintid_lua_push_value);
}
static int m_parse_relative(lua_State *L) { return reparse(L, &mintid_lua_relative_kind, &mintid_lua_relative_kind, mintid_lua_push_value); }
static int m_ulid_to_uuid(lua_State *L) { return reparse(L, &mintid_lua_ulid_kind, &mintid_lua_uuid_kind, mintid_lua_push_text); }
static int m_uuid_to_ulid(lua_State *L) { return reparse(L, &mintid_lua_uuid_kind, &mintid_lua_ulid_kind, mintid_lua_push_text); }
static int m_parse_ksuid(lua_State *L) { return reparse(L, &mintid_lua_ksuid_kind, &mintid_lua_ksuid_kind, mintid_lua_push_value); }
static int m_parse_objectid(lua_State *L) { return reparse(L, &mintid_lua_objectid_kind, &mintid_lua_objectid_kind, mintid_lua_push_value); }
static int m_parse_xid(lua_State *L) { return reparse(L, &mintid_lua_xid_kind, &mintid_lua_xid_kind, mintid_lua_push_value); }

/* kind_of(text) -> the name of the kind whose shape the text has */
static int m_kind_of(lua_State *L)
{
    size_t len;
    const char *text = mintid_lua_check_text(L, 1, &len);
    char err[MINTID_KIND_ERRMSG_SIZE];
    const char *kind = mintid_kind_of(text, len, err);

    if (kind == NULL)
        return mintid_lua_fail_msg(L, err);
    lua_pushstring(L, kind);
    return 1;
}

/* is_ulid, is_uuid, is_ksuid(text): whether the kind's strict parser
 * takes the text, by the same decoder, into a buffer on the stack. */
static int is_kind(lua_State *L, const value_kind *k)
{
    size_t len;
    const char *text = mintid_lua_check_text(L, 1, &len);
    uint8_t id[MINTID_KSUID_BYTES]; /* the largest */

    lua_pushboolean(L, k->decode(text, len, id, NULL) == MINTID_OK);
    return 1;
}

static int m_is_ulid(lua_State *L) { return is_kind(L, &mintid_lua_ulid_kind); }
static int m_is_uuid(lua_State *L) { return is_kind(L, &mintid_lua_uuid_kind); }
static int m_is_ksuid(lua_State *L) { return is_kind(L, &mintid_lua_ksuid_kind); }

static int m_is_typeid(lua_State *L)
{
    size_t len, prefix_len;
    const char *text = mintid_lua_check_text(L, 1, &len);
    uint8_t id[16];

    lua_pushboolean(L, mintid_typeid_decode(text, len, &prefix_len, id, NULL) == MINTID_OK);
    return 1;
}

/* parse_snowflake(id [, layout_or_epoch]) -> timestamp, machine_id, sequence:
 * a number is an epoch of the default layout, as before layouts. */
static int m_parse_snowflake(lua_State *L)
{
    uint64_t id = 0, machine_id, sequence;
    int64_t timestamp;
    mintid_snowflake_layout layout;
    char err[MINTID_ERRMSG_SIZE];
    char buf[MINTID_LUA_INT_TEXT_SIZE];
    const char *text = NULL; /* decimal text for the core to parse */
    size_t len = 0;

    if (lua_type(L, 1) == LUA_TSTRING) {
        text = lua_tolstring(L, 1, &len);
    } else if (lua_type(L, 1) == LUA_TNUMBER) {
        int64_t v;
#if MINTID_LUA_INT64
        v = compat_checkint64(L, 1);
#else
        /* A double holds every integer only up to MINTID_LUA_MAX_EXACT;
         * above it the ID the caller meant may already be lost. */
        lua_Number x = lua_tonumber(L, 1);
        if (!(x <= (lua_Number)MINTID_LUA_MAX_EXACT) || !compat_toint64(L, 1, &v))
            return luaL_argerror(L, 1, "a number snowflake ID must be an integer below 2^53 "
                                       "on this Lua; pass larger IDs as decimal text");
#endif
        if (v >= 0) {
            id = (uint64_t)v;
        } else {
            /* The core's message for the same number as text ("invalid
             * snowflake ID: bad character '-' at 1"), from the core itself. */
            text = mintid_lua_i64str(buf, v);
            len = strlen(text);
        }
    } else if ((text = compat_cdata_digits(L, 1, buf)) != NULL) {
        /* LuaJIT's uint64 cdata reaches 2^64 - 1, as decimal text does. */
        len = strlen(text);
    } else {
        return luaL_argerror(L, 1, lua_pushfstring(L, "integer or decimal string expected, got %s",
                                                   luaL_typename(L, 1)));
    }
    err[0] = '\0';
    if (text != NULL && mintid_snowflake_parse_decimal(text, len, &id, err) != MINTID_OK)
        return mintid_lua_fail(L, MINTID_EPARSE, err);
    mintid_snowflake_layout_default(&layout);
    if (lua_type(L, 2) == LUA_TSTRING || lua_type(L, 2) == LUA_TTABLE) {
        mintid_lua_check_layout(L, 2, 2, &layout);
    } else if (!lua_isnoneornil(L, 2)) {
        int64_t epoch = compat_checkint64(L, 2);
        err[0] = '\0';
        if (mintid_snowflake_layout_set_epoch(&layout, epoch, err) != MINTID_OK)
            return luaL_argerror(L, 2, err);
    }
    /* A timestamp past what this Lua holds exactly would wrap or round. */
    err[0] = '\0';
    if (mintid_snowflake_layout_split(&layout, id, MINTID_LUA_MAX_EXACT, &timestamp, &machine_id, &sequence, err) !=
        MINTID_OK)
        return mintid_lua_fail(L, MINTID_EPARSE, err);
    if (machine_id > (uint64_t)MINTID_LUA_MAX_EXACT || sequence > (uint64_t)MINTID_LUA_MAX_EXACT)
        return mintid_lua_fail_msg(L, "snowflake machine_id or sequence does not fit this Lua's integers");
    compat_pushint64(L, timestamp);
    compat_pushint64(L, (int64_t)machine_id);
    compat_pushint64(L, (int64_t)sequence);
    return 3;
}

/* snowflake_layout(L) -> the normalized table */
static int m_snowflake_layout(lua_State *L)
{
    mintid_snowflake_layout layout;

    mintid_lua_check_layout(L, 1, 1, &layout);
    mintid_lua_push_layout(L, &layout);
    return 1;
}

/* The byte string at arg when it holds want bytes; else NULL, with nil and
 * the message pushed (the caller returns 2). A part of an ID is named as a
 * part ("ULID randomness must be 10 bytes, got 1"), a whole ID's bytes by
 * their kind ("invalid ULID bytes: length 5, want 16"). */
static const uint8_t *check_bytes(lua_State *L, int arg, size_t want, const char *part, const char *kind)
{
    size_t len;
    const char *b = mintid_lua_check_text(L, arg, &len);
    char err[MINTID_ERRMSG_SIZE];

    if (len == want)
        return (const uint8_t *)b;
    if (part != NULL)
        snprintf(err, sizeof err, "%s must be %zu bytes, got %zu", part, want, len);
    else
        snprintf(err, sizeof err, "invalid %s bytes: length %zu, want %zu", kind, len, want);
    mintid_lua_fail_msg(L, err);
    return NULL;
}

/* A value of kind k from a time integer at 1 and a byte string of want
 * bytes at 2 (what names it in the message), by the core's make. */
typedef int (*from_parts_fn)(int64_t t, const uint8_t *b, uint8_t *out, char *err);

static int from_parts(lua_State *L, from_parts_fn make, size_t want, const char *what, const value_kind *k)
{
    int64_t t = compat_checkint64(L, 1);
    const uint8_t *b = check_bytes(L, 2, want, what, NULL);
    uint8_t id[VALUE_MAX_SIZE];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    if (b == NULL)
        return 2;
    err[0] = '\0';
    rc = make(t, b, id, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    mintid_lua_push_value(L, id, k);
    return 1;
}

static int m_ulid_from(lua_State *L)
{
    return from_parts(L, mintid_ulid_from_parts, 10, "ULID randomness", &mintid_lua_ulid_kind);
}

/* ksuid_from(unix_seconds, payload16) */
static int m_ksuid_from(lua_State *L)
{
    return from_parts(L, mintid_ksuid_from_parts, 16, "KSUID payload", &mintid_lua_ksuid_kind);
}

static int from_bytes(lua_State *L, const value_kind *k)
{
    const uint8_t *b = check_bytes(L, 1, k->size, NULL, k->name);

    if (b == NULL)
        return 2;
    mintid_lua_push_value(L, b, k);
    return 1;
}

static int m_ulid_from_bytes(lua_State *L) { return from_bytes(L, &mintid_lua_ulid_kind); }
static int m_uuid_from_bytes(lua_State *L) { return from_bytes(L, &mintid_lua_uuid_kind); }
static int m_ksuid_from_bytes(lua_State *L) { return from_bytes(L, &mintid_lua_ksuid_kind); }
static int m_objectid_from_bytes(lua_State *L) { return from_bytes(L, &mintid_lua_objectid_kind); }
static int m_xid_from_bytes(lua_State *L) { return from_bytes(L, &mintid_lua_xid_kind); }


/* The UUID at arg, text or value, into id: MINTID_OK, or the parser's
 * status with err written (bad text is data); anything else raises. */
static int check_uuid_arg(lua_State *L, int arg, uint8_t id[16], char *err)
{
    const uint8_t *v;

    err[0] = '\0';
    if (lua_type(L, arg) == LUA_TSTRING) {
        size_t len;
        const char *text = lua_tolstring(L, arg, &len);

        return mintid_uuid_decode(text, len, id, err);
    }
    v = (const uint8_t *)luaL_testudata(L, arg, mintid_lua_uuid_kind.tname);
    if (v == NULL)
        return luaL_argerror(L, arg, lua_pushfstring(L, "UUID text or value expected, got %s",
                                                     luaL_typename(L, arg)));
    memcpy(id, v, 16);
    return MINTID_OK;
}


int mintid_lua_check_uuid(lua_State *L, int arg, uint8_t id[16], char *err)
{
    return check_uuid_arg(L, arg, id, err);
}

/* uuid3, uuid5, uuid8_sha256(namespace, name) */
static int name_uuid(lua_State *L, mintid_name_uuid_fn make)
{
    uint8_t ns[16], id[16];
    char err[MINTID_ERRMSG_SIZE];
    size_t len;
    const char *name;
    int rc = check_uuid_arg(L, 1, ns, err);

    name = mintid_lua_check_text(L, 2, &len);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    make(ns, (const uint8_t *)name, len, id);
    mintid_lua_push_text(L, id, &mintid_lua_uuid_kind);
    return 1;
}

static int m_uuid3(lua_State *L) { return name_uuid(L, mintid_uuid3); }
static int m_uuid5(lua_State *L) { return name_uuid(L, mintid_uuid5); }
static int m_uuid8_sha256(lua_State *L) { return name_uuid(L, mintid_uuid8_sha256); }

static int m_uuid8(lua_State *L)
{
    const uint8_t *b = check_bytes(L, 1, 16, NULL, "UUIDv8");
    uint8_t id[16];

    if (b == NULL)
        return 2;
    mintid_uuid8(b, id);
    mintid_lua_push_text(L, id, &mintid_lua_uuid_kind);
    return 1;
}

/* uuid1_to_uuid6(text), uuid6_to_uuid1(text) */
static int convert_uuid(lua_State *L, int (*to_other)(const uint8_t in[16], uint8_t out[16], char *err))
{
    size_t len;
    const char *text = mintid_lua_check_text(L, 1, &len);
    uint8_t in[16], out[16];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_uuid_decode(text, len, in, err);
    if (rc == MINTID_OK)
        rc = to_other(in, out, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    mintid_lua_push_text(L, out, &mintid_lua_uuid_kind);
    return 1;
}

static int m_uuid1_to_uuid6(lua_State *L) { return convert_uuid(L, mintid_uuid1_to_uuid6); }
static int m_uuid6_to_uuid1(lua_State *L) { return convert_uuid(L, mintid_uuid6_to_uuid1); }

static int m_parse_typeid(lua_State *L)
{
    size_t len, prefix_len = 0;
    const char *text = mintid_lua_check_text(L, 1, &len);
    typeid_value v;
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    memset(&v, 0, sizeof v);
    err[0] = '\0';
    rc = mintid_typeid_decode(text, len, &prefix_len, v.id, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    v.prefix_len = (uint8_t)prefix_len;
    memcpy(v.prefix, text, prefix_len);
    mintid_lua_push_value(L, (const uint8_t *)&v, &mintid_lua_typeid_kind);
    return 1;
}

/* typeid_from(prefix, uuid): text */
static int m_typeid_from(lua_State *L)
{
    size_t prefix_len;
    const char *prefix = mintid_lua_check_typeid_prefix(L, 1, &prefix_len);
    uint8_t id[16];
    char out[MINTID_TYPEID_MAX_TEXT_LEN], err[MINTID_ERRMSG_SIZE];
    int rc = check_uuid_arg(L, 2, id, err);

    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    rc = mintid_typeid_encode(prefix, prefix_len, id, out, err);
    lua_pushlstring(L, out, (size_t)rc); /* the prefix was checked */
    return 1;
}

/* relative_from(tag, ms, rand): the core checks all three ranges. */
static int m_relative_from(lua_State *L)
{
    int64_t tag = compat_checkint64(L, 1);
    int64_t ms = compat_checkint64(L, 2);
    int64_t rnd = compat_checkint64(L, 3);
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_relative_from_parts(tag, ms, rnd, id, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    mintid_lua_push_value(L, id, &mintid_lua_relative_kind);
    return 1;
}

/* relative_tag(secret, salt, key); a nil salt is the empty one. */
static int m_relative_tag(lua_State *L)
{
    size_t secret_len, salt_len = 0, key_len;
    const char *secret, *salt = "";
    char keybuf[MINTID_LUA_INT_TEXT_SIZE];
    const uint8_t *key;
    uint32_t tag;
    char err[MINTID_ERRMSG_SIZE];

    /* Strings only, as in relative_generator's options: a number would be
     * "42.0" on Lua 5.3+ but "42" on 5.1, a different secret or salt. */
    secret = mintid_lua_check_text(L, 1, &secret_len);
    if (!lua_isnoneornil(L, 2))
        salt = mintid_lua_check_text(L, 2, &salt_len);
    key = mintid_lua_check_key(L, 3, keybuf, &key_len);
    err[0] = '\0';
    if (mintid_relative_tag((const uint8_t *)secret, secret_len, (const uint8_t *)salt, salt_len,
                            key, key_len, &tag, err) != MINTID_OK) {
        /* The secret's length is the one argument the core can refuse
         * (besides a salt of 4 GiB). */
        return luaL_argerror(L, secret_len < MINTID_RELATIVE_MIN_SECRET ? 1 : 2, err);
    }
    lua_pushinteger(L, (lua_Integer)tag);
    return 1;
}

/* lo, hi = relative_range(prefix_or_id): the bounds of every relative ID of
 * one tag, for `id >= lo AND id < hi` scans: "TAG6CH-" and "TAG6CH." ('.'
 * is the byte after '-'). Takes the 7-char prefix of g:prefix(key), or any
 * relative ID text, in either case; anything else gives nil, message. */
static int m_relative_range(lua_State *L)
{
    /* A prefix padded with the smallest time and rand fields is a relative
     * ID, so the parser checks it with the same rules and messages. */
    static const char padding[] = "0000000000-0000000000";
    size_t len;
    const char *text = mintid_lua_check_text(L, 1, &len);
    char padded[MINTID_RELATIVE_TEXT_LEN];
    char bound[MINTID_RELATIVE_PREFIX_LEN];
    uint8_t id[16];
    uint32_t tag;
    int64_t ms;
    uint64_t rnd;
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    if (len == MINTID_RELATIVE_PREFIX_LEN && text[len - 1] == '-') {
        memcpy(padded, text, len);
        memcpy(padded + len, padding, sizeof padding - 1);
        text = padded;
        len = sizeof padded;
    }
    err[0] = '\0';
    rc = mintid_relative_decode(text, len, id, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    mintid_relative_split(id, &tag, &ms, &rnd);
    mintid_relative_prefix(tag, bound);
    lua_pushlstring(L, bound, sizeof bound);
    bound[sizeof bound - 1] = '.';
    lua_pushlstring(L, bound, sizeof bound);
    return 2;
}

/* ---- what resty.mintid needs (mintid._ffi.new_values) ------------------- */

/*
 * _ffi.new_values(value, n, t): t[1..n] = n new values of value's kind, all
 * zero bytes. resty.mintid's FFI path decodes an ID straight into the 16
 * bytes of such a value (LuaJIT hands a userdata's payload to the FFI as a
 * pointer): one Lua C API call then serves n parses, and the value is this
 * module's own, with its metatable and methods.
 */
static int ffi_new_values(lua_State *L)
{
    static const value_kind *const kinds[] = { &mintid_lua_ulid_kind, &mintid_lua_uuid_kind, &mintid_lua_relative_kind };
    static const uint8_t zero[16] = { 0 };
    const value_kind *k = NULL;
    lua_Integer i, n;
    size_t j;

    for (j = 0; j < sizeof kinds / sizeof kinds[0] && k == NULL; j++)
        if (luaL_testudata(L, 1, kinds[j]->tname) != NULL)
            k = kinds[j];
    if (k == NULL)
        return luaL_argerror(L, 1, "mintid value expected");
    n = luaL_checkinteger(L, 2);
    luaL_argcheck(L, n >= 1 && n <= 1024, 2, "count must be 1..1024");
    luaL_checktype(L, 3, LUA_TTABLE);
    lua_settop(L, 3);
    for (i = 1; i <= n; i++) {
        mintid_lua_push_value(L, zero, k);
        lua_rawseti(L, 3, (int)i);
    }
    return 1;
}


/* ---- the metatables and the module's value functions -------------------- */

/* Every value kind shares its metamethods; all read the kind from upvalue 1. */
static const luaL_Reg value_meta[] = {
    { "__tostring", value_tostring }, { "__eq", value_eq }, { "__lt", value_lt }, { "__le", value_le },
    { NULL, NULL }
};
static const luaL_Reg ulid_methods[] = {
    { "bytes", value_bytes }, { "time", value_time }, { "iso", value_iso }, { "uuid", ulid_uuid },
    { "random", ulid_random }, { NULL, NULL }
};
static const luaL_Reg uuid_methods[] = {
    { "bytes", value_bytes }, { "time", value_time }, { "iso", value_iso }, { "version", uuid_version },
    { "ulid", uuid_ulid }, { "variant", uuid_variant }, { "hex", uuid_hex }, { "urn", uuid_urn },
    { "node", uuid_node }, { "clock_seq", uuid_clock_seq }, { "ticks", uuid_ticks }, { NULL, NULL }
};
static const luaL_Reg ksuid_methods[] = {
    { "bytes", value_bytes }, { "time", value_time }, { "iso", value_iso }, { "payload", ksuid_payload },
    { NULL, NULL }
};
static const luaL_Reg objectid_methods[] = {
    { "bytes", value_bytes }, { "time", value_time }, { "iso", value_iso }, { "counter", objectid_counter },
    { NULL, NULL }
};
static const luaL_Reg xid_methods[] = {
    { "bytes", value_bytes }, { "time", value_time }, { "iso", value_iso }, { "machine", xid_machine },
    { "pid", xid_pid }, { "counter", xid_counter }, { NULL, NULL }
};
static const luaL_Reg typeid_methods[] = {
    { "bytes", value_bytes }, { "time", value_time }, { "iso", value_iso }, { "prefix", typeid_prefix },
    { "uuid", typeid_uuid }, { NULL, NULL }
};
static const luaL_Reg relative_methods[] = {
    { "bytes", value_bytes }, { "time", value_time }, { "iso", value_iso }, { "tag", relative_tag_method },
    { "rand", relative_rand }, { "prefix", relative_prefix_method }, { NULL, NULL }
};

static const luaL_Reg value_funcs[] = {
    { "parse_ulid", m_parse_ulid },
    { "parse_uuid", m_parse_uuid },
    { "parse_relative", m_parse_relative },
    { "parse_snowflake", m_parse_snowflake },
    { "snowflake_layout", m_snowflake_layout },
    { "ulid_from", m_ulid_from },
    { "ulid_from_bytes", m_ulid_from_bytes },
    { "uuid_from_bytes", m_uuid_from_bytes },
    { "relative_from", m_relative_from },
    { "relative_tag", m_relative_tag },
    { "ulid_to_uuid", m_ulid_to_uuid },
    { "uuid_to_ulid", m_uuid_to_ulid },
    { "relative_range", m_relative_range },
    { "uuid3", m_uuid3 },
    { "uuid5", m_uuid5 },
    { "uuid8_sha256", m_uuid8_sha256 },
    { "uuid8", m_uuid8 },
    { "uuid1_to_uuid6", m_uuid1_to_uuid6 },
    { "uuid6_to_uuid1", m_uuid6_to_uuid1 },
    { "parse_ksuid", m_parse_ksuid },
    { "ksuid_from", m_ksuid_from },
    { "ksuid_from_bytes", m_ksuid_from_bytes },
    { "parse_objectid", m_parse_objectid },
    { "objectid_from_bytes", m_objectid_from_bytes },
    { "parse_xid", m_parse_xid },
    { "xid_from_bytes", m_xid_from_bytes },
    { "parse_typeid", m_parse_typeid },
    { "typeid_from", m_typeid_from },
    { "kind_of", m_kind_of },
    { "is_ulid", m_is_ulid },
    { "is_uuid", m_is_uuid },
    { "is_ksuid", m_is_ksuid },
    { "is_typeid", m_is_typeid },
    { NULL, NULL }
};

static void create_value_meta(lua_State *L, const value_kind *k, const luaL_Reg *methods)
{
    luaL_newmetatable(L, k->tname);
    mintid_lua_fill_meta(L, lua_gettop(L), k, lua_gettop(L), 0, value_meta, methods);
    lua_pop(L, 1);
}

/* NAMESPACE_DNS, _URL, _OID, _X500 (RFC 9562 6.6), UUID_NIL, UUID_MAX. */
static void push_uuid_constants(lua_State *L, int module)
{
    static const uint8_t nil[16] = { 0 };
    static const uint8_t max[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    static const struct { const char *name; const uint8_t *id; } constants[] = {
        { "NAMESPACE_DNS", mintid_uuid_namespace_dns }, { "NAMESPACE_URL", mintid_uuid_namespace_url },
        { "NAMESPACE_OID", mintid_uuid_namespace_oid }, { "NAMESPACE_X500", mintid_uuid_namespace_x500 },
        { "UUID_NIL", nil }, { "UUID_MAX", max },
    };
    size_t i;

    for (i = 0; i < sizeof constants / sizeof constants[0]; i++) {
        mintid_lua_push_text(L, constants[i].id, &mintid_lua_uuid_kind);
        lua_setfield(L, module, constants[i].name);
    }
}

/* _ffi.snowflake_layout(L) -> a userdata holding the core's layout of L
 * (raises as snowflake_layout does), for resty.mintid's parse_snowflake. */
static int ffi_snowflake_layout(lua_State *L)
{
    mintid_snowflake_layout layout;

    mintid_lua_check_layout(L, 1, 1, &layout);
    *(mintid_snowflake_layout *)compat_newuserdatauv(L, sizeof layout, 0) = layout;
    return 1;
}

static const luaL_Reg ffi_value_funcs[] = {
    { "new_values", ffi_new_values }, { "snowflake_layout", ffi_snowflake_layout }, { NULL, NULL }
};

void mintid_lua_open_values(lua_State *L, int module, int ffi)
{
    create_value_meta(L, &mintid_lua_ulid_kind, ulid_methods);
    create_value_meta(L, &mintid_lua_uuid_kind, uuid_methods);
    create_value_meta(L, &mintid_lua_relative_kind, relative_methods);
    create_value_meta(L, &mintid_lua_ksuid_kind, ksuid_methods);
    create_value_meta(L, &mintid_lua_objectid_kind, objectid_methods);
    create_value_meta(L, &mintid_lua_xid_kind, xid_methods);
    create_value_meta(L, &mintid_lua_typeid_kind, typeid_methods);
    lua_pushvalue(L, module);
    luaL_setfuncs(L, value_funcs, 0);
    lua_pop(L, 1);
    lua_pushvalue(L, ffi);
    luaL_setfuncs(L, ffi_value_funcs, 0);
    lua_pop(L, 1);
    push_uuid_constants(L, module);
}
