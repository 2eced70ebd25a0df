/*
 * lua_mintid.c: the Lua binding of the mintid core, module mintid.core.
 *
 * Bad data returns nil, message (the core's message); bad arguments raise
 * through luaL_argerror. The core never sees a Lua error: Lua code (an
 * injected clock) runs before a core call, and an injected random runs
 * under lua_pcall, its error re-raised once the core has returned.
 */
#include "lua_compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mintid.h"

#if defined(_WIN32)
#define MINTID_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
/* The opener stays public even in a -fvisibility=hidden build. */
#define MINTID_EXPORT __attribute__((visibility("default")))
#else
#define MINTID_EXPORT
#endif

MINTID_EXPORT int luaopen_mintid_core(lua_State *L);

#define ULID_T       "mintid.ULID"
#define UUID_T       "mintid.UUID"
#define RELATIVE_T   "mintid.RelativeID"
#define ULID_GEN_T   "mintid.ULIDGenerator"
#define UUID7_GEN_T  "mintid.UUID7Generator"
#define UUID4_GEN_T  "mintid.UUID4Generator"
#define REL_GEN_T    "mintid.RelativeGenerator"
#define SNOW_GEN_T   "mintid.SnowflakeGenerator"
#define NANO_GEN_T   "mintid.NanoIDGenerator"

/* Text of a Nano ID up to this size is built on the C stack. */
#define NANOID_STACK_SIZE 256
/* An injected clock that never passes a full millisecond would hang next(). */
#define SNOWFLAKE_MAX_CLOCK_READS 1000000

/* ---- small helpers ------------------------------------------------------ */

/* lua_pushfstring has no 64-bit conversion before 5.3. */
static const char *i64str(char buf[24], int64_t v)
{
    snprintf(buf, 24, "%" PRId64, v);
    return buf;
}

/* Data the caller got wrong is a nil, message return; a failing OS source
 * (or a core misuse) is an exception, since no retry by the caller helps. */
static int fail(lua_State *L, int rc, const char *err)
{
    const char *msg = err[0] != '\0' ? err : mintid_strerror(rc);

    if (rc == MINTID_ERANDOM || rc == MINTID_ECLOCK || rc == MINTID_ENOMEM || rc == MINTID_EARG)
        return luaL_error(L, "%s", msg);
    lua_pushnil(L);
    lua_pushstring(L, msg);
    return 2;
}

static int fail_msg(lua_State *L, const char *msg)
{
    lua_pushnil(L);
    lua_pushstring(L, msg);
    return 2;
}

/* The pool with err as ctx, so that the monotonic generators and UUIDv4
 * keep the OS's own reason when it fails. */
static int pool_draw(void *ctx, uint8_t *buf, size_t n)
{
    return mintid_random_bytes(buf, n, (char *)ctx);
}

/* ---- values: 16 bytes in a userdata ------------------------------------ */

typedef struct {
    const char *tname;
    size_t text_len;
    void (*encode)(const uint8_t *id, char *out);
} value_kind;

static const value_kind ulid_kind = { ULID_T, MINTID_ULID_TEXT_LEN, mintid_ulid_encode };
static const value_kind uuid_kind = { UUID_T, MINTID_UUID_TEXT_LEN, mintid_uuid_encode };
static const value_kind relative_kind = { RELATIVE_T, MINTID_RELATIVE_TEXT_LEN, mintid_relative_encode };

static void push_value(lua_State *L, const uint8_t id[16], const char *tname)
{
    uint8_t *p = (uint8_t *)lua_newuserdatauv(L, 16, 0);

    memcpy(p, id, 16);
    luaL_setmetatable(L, tname);
}

static void push_text(lua_State *L, const uint8_t id[16], const value_kind *k)
{
    char text[MINTID_UUID_TEXT_LEN]; /* the longest form */

    k->encode(id, text);
    lua_pushlstring(L, text, k->text_len);
}

static int value_tostring(lua_State *L, const value_kind *k)
{
    push_text(L, (const uint8_t *)luaL_checkudata(L, 1, k->tname), k);
    return 1;
}

/* Comparing with anything else (another kind, a number) is simply false;
 * __eq may be reached with a foreign userdata first. */
static int value_eq(lua_State *L, const char *tname)
{
    const uint8_t *a = (const uint8_t *)luaL_testudata(L, 1, tname);
    const uint8_t *b = (const uint8_t *)luaL_testudata(L, 2, tname);

    lua_pushboolean(L, a != NULL && b != NULL && memcmp(a, b, 16) == 0);
    return 1;
}

/* Ordering across kinds has no meaning, so it raises. */
static int value_cmp(lua_State *L, const char *tname, int or_equal)
{
    const uint8_t *a = (const uint8_t *)luaL_checkudata(L, 1, tname);
    const uint8_t *b = (const uint8_t *)luaL_checkudata(L, 2, tname);
    int c = memcmp(a, b, 16);

    lua_pushboolean(L, or_equal ? c <= 0 : c < 0);
    return 1;
}

static int value_bytes(lua_State *L, const char *tname)
{
    lua_pushlstring(L, (const char *)luaL_checkudata(L, 1, tname), 16);
    return 1;
}

static int ulid_tostring(lua_State *L) { return value_tostring(L, &ulid_kind); }
static int ulid_eq(lua_State *L) { return value_eq(L, ULID_T); }
static int ulid_lt(lua_State *L) { return value_cmp(L, ULID_T, 0); }
static int ulid_le(lua_State *L) { return value_cmp(L, ULID_T, 1); }
static int ulid_bytes(lua_State *L) { return value_bytes(L, ULID_T); }

static int ulid_time(lua_State *L)
{
    mintid_pushint64(L, mintid_ulid_time((const uint8_t *)luaL_checkudata(L, 1, ULID_T)));
    return 1;
}

static int ulid_uuid(lua_State *L)
{
    push_value(L, (const uint8_t *)luaL_checkudata(L, 1, ULID_T), UUID_T);
    return 1;
}

static int uuid_tostring(lua_State *L) { return value_tostring(L, &uuid_kind); }
static int uuid_eq(lua_State *L) { return value_eq(L, UUID_T); }
static int uuid_lt(lua_State *L) { return value_cmp(L, UUID_T, 0); }
static int uuid_le(lua_State *L) { return value_cmp(L, UUID_T, 1); }
static int uuid_bytes(lua_State *L) { return value_bytes(L, UUID_T); }

/* SPEC: the timestamp is only defined for version 7. */
static int uuid_time(lua_State *L)
{
    const uint8_t *id = (const uint8_t *)luaL_checkudata(L, 1, UUID_T);

    if (mintid_uuid_version(id) == 7)
        mintid_pushint64(L, mintid_ulid_time(id));
    else
        lua_pushnil(L);
    return 1;
}

static int uuid_version(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)mintid_uuid_version((const uint8_t *)luaL_checkudata(L, 1, UUID_T)));
    return 1;
}

static int uuid_ulid(lua_State *L)
{
    push_value(L, (const uint8_t *)luaL_checkudata(L, 1, UUID_T), ULID_T);
    return 1;
}

static int relative_tostring(lua_State *L) { return value_tostring(L, &relative_kind); }
static int relative_eq(lua_State *L) { return value_eq(L, RELATIVE_T); }
static int relative_lt(lua_State *L) { return value_cmp(L, RELATIVE_T, 0); }
static int relative_le(lua_State *L) { return value_cmp(L, RELATIVE_T, 1); }
static int relative_bytes(lua_State *L) { return value_bytes(L, RELATIVE_T); }

static int relative_time(lua_State *L)
{
    uint32_t tag;
    int64_t ms;
    uint64_t rnd;

    mintid_relative_split((const uint8_t *)luaL_checkudata(L, 1, RELATIVE_T), &tag, &ms, &rnd);
    mintid_pushint64(L, ms);
    return 1;
}

static int relative_tag_method(lua_State *L)
{
    uint32_t tag;
    int64_t ms;
    uint64_t rnd;

    mintid_relative_split((const uint8_t *)luaL_checkudata(L, 1, RELATIVE_T), &tag, &ms, &rnd);
    lua_pushinteger(L, (lua_Integer)tag);
    return 1;
}

static int relative_rand(lua_State *L)
{
    uint32_t tag;
    int64_t ms;
    uint64_t rnd;

    mintid_relative_split((const uint8_t *)luaL_checkudata(L, 1, RELATIVE_T), &tag, &ms, &rnd);
    mintid_pushint64(L, (int64_t)rnd);
    return 1;
}

/* ---- generators: shared hooks ------------------------------------------ */

/* The first member of every generator userdata, so that check_gen and
 * gen_gc serve all kinds. */
typedef struct {
    int clock_ref;  /* the clock option, or LUA_NOREF for the OS clock */
    int random_ref; /* random_checked wrapping the random option, or LUA_NOREF */
    int closed;     /* __gc or __close ran: the refs (and a secret) are gone */
    int busy;       /* inside a core call that may run the random option */
} gen_hooks;

typedef struct {
    lua_State *L;
    int ref;
    int raised; /* an error object waits on the stack top */
} random_ctx;

static void hooks_init(gen_hooks *h)
{
    h->clock_ref = LUA_NOREF;
    h->random_ref = LUA_NOREF;
    h->closed = 0;
    h->busy = 0;
}

/* Setting LUA_NOREF makes a second run (__close, then __gc) harmless. */
static void hooks_release(lua_State *L, gen_hooks *h)
{
    luaL_unref(L, LUA_REGISTRYINDEX, h->clock_ref);
    luaL_unref(L, LUA_REGISTRYINDEX, h->random_ref);
    h->clock_ref = LUA_NOREF;
    h->random_ref = LUA_NOREF;
    h->closed = 1;
}

/*
 * A closed generator would quietly fall back to the OS clock and random
 * (or, for relative IDs, a wiped key), and a re-entrant call from its own
 * random option would interleave two updates of one state: both raise.
 */
static void *check_gen(lua_State *L, const char *tname)
{
    gen_hooks *h = (gen_hooks *)luaL_checkudata(L, 1, tname);

    if (h->closed)
        luaL_error(L, "attempt to use a closed %s", tname);
    if (h->busy)
        luaL_error(L, "%s called again from its own random function", tname);
    return h;
}

/* Runs under lua_pcall, so its errors never cross core frames. */
static int random_checked(lua_State *L)
{
    int64_t want = 0;
    char w[24];
    size_t len;

    mintid_toint64(L, 1, &want);
    i64str(w, want);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
        return luaL_error(L, "random(%s) returned %s, want %s bytes", w, luaL_typename(L, -1), w);
    lua_tolstring(L, -1, &len);
    if ((int64_t)len != want) {
        char g[24];
        return luaL_error(L, "random(%s) returned %s bytes, want %s", w, i64str(g, (int64_t)len), w);
    }
    return 1;
}

static int random_from_lua(void *ctx, uint8_t *buf, size_t n)
{
    random_ctx *c = (random_ctx *)ctx;
    lua_State *L = c->L;

    if (c->raised)
        return MINTID_ERANDOM;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->ref);
    lua_pushinteger(L, (lua_Integer)n);
    if (lua_pcall(L, 1, 1, 0) != 0) {
        c->raised = 1;
        return MINTID_ERANDOM;
    }
    memcpy(buf, lua_tostring(L, -1), n); /* length checked by random_checked */
    lua_pop(L, 1);
    return MINTID_OK;
}

/* The random source of one core call: the option if given, else the pool. */
static void random_begin(lua_State *L, gen_hooks *h, random_ctx *c,
                         mintid_random_fn *fn, void **ctx, char *err)
{
    c->L = L;
    c->ref = h->random_ref;
    c->raised = 0;
    if (h->random_ref == LUA_NOREF) {
        *fn = pool_draw;
        *ctx = err;
        return;
    }
    /* Room for the function, n and its result, checked before the core runs. */
    luaL_checkstack(L, 4, "mintid random");
    *fn = random_from_lua;
    *ctx = c;
    h->busy = 1;
}

static void random_end(lua_State *L, gen_hooks *h, const random_ctx *c)
{
    h->busy = 0;
    if (c->raised)
        lua_error(L);
}

/* The clock option runs here, before any core call, so it may raise. */
static int64_t gen_now(lua_State *L, const gen_hooks *h)
{
    int64_t now = 0;

    if (h->clock_ref == LUA_NOREF) {
        char err[MINTID_ERRMSG_SIZE];
        err[0] = '\0';
        if (mintid_clock_ms(&now, err) != MINTID_OK)
            luaL_error(L, "%s", err[0] != '\0' ? err : mintid_strerror(MINTID_ECLOCK));
        return now;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->clock_ref);
    lua_call(L, 0, 1);
    if (!mintid_toint64(L, -1, &now)) {
        if (lua_type(L, -1) == LUA_TNUMBER)
            luaL_error(L, "clock must return an integer (ms), got %s", lua_tostring(L, -1));
        else
            luaL_error(L, "clock must return an integer (ms), got %s", luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    return now;
}

static int gen_tostring(lua_State *L, const char *tname)
{
    lua_pushfstring(L, "%s (%p)", tname, luaL_checkudata(L, 1, tname));
    return 1;
}

static int gen_gc(lua_State *L, const char *tname)
{
    hooks_release(L, (gen_hooks *)luaL_checkudata(L, 1, tname));
    return 0;
}

/* ---- options tables ------------------------------------------------------ */

/* Options errors blame argument 1, the table, and name the option. */
static int opt_error(lua_State *L, const char *what, const char *name, const char *got)
{
    return luaL_argerror(L, 1, lua_pushfstring(L, "%s must be %s, got %s", name, what, got));
}

/*
 * Leaves the table at 1 (or nil) and pushes each known option's value, in
 * the order of `known`, at 2, 3, ...; raises on a key not in `known`, since
 * a misspelt option silently ignored is a wrong generator.
 */
static void opt_read(lua_State *L, const char *const known[])
{
    int i;

    lua_settop(L, 1);
    if (!lua_isnil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            const char *key;
            size_t len;
            lua_pop(L, 1);
            if (lua_type(L, -1) != LUA_TSTRING)
                opt_error(L, "strings", "option names", luaL_typename(L, -1));
            key = lua_tolstring(L, -1, &len);
            for (i = 0; known[i] != NULL; i++)
                if (strlen(known[i]) == len && memcmp(known[i], key, len) == 0)
                    break;
            if (known[i] == NULL)
                luaL_argerror(L, 1, lua_pushfstring(L, "unknown option '%s'", key));
        }
    }
    for (i = 0; known[i] != NULL; i++) {
        if (lua_isnil(L, 1)) {
            lua_pushnil(L);
        } else {
            lua_pushstring(L, known[i]);
            lua_rawget(L, 1);
        }
    }
}

static void opt_check_function(lua_State *L, int idx, const char *name)
{
    if (!lua_isnil(L, idx) && lua_type(L, idx) != LUA_TFUNCTION)
        opt_error(L, "a function", name, luaL_typename(L, idx));
}

static const char *opt_string(lua_State *L, int idx, const char *name, const char *def, size_t *len)
{
    if (lua_isnil(L, idx)) {
        *len = strlen(def);
        return def;
    }
    if (lua_type(L, idx) != LUA_TSTRING)
        opt_error(L, "a string", name, luaL_typename(L, idx));
    return lua_tolstring(L, idx, len);
}

static int64_t opt_int64(lua_State *L, int idx, const char *name, int64_t def)
{
    int64_t v = 0;

    if (lua_isnil(L, idx))
        return def;
    if (!mintid_toint64(L, idx, &v)) {
        if (lua_type(L, idx) == LUA_TNUMBER)
            opt_error(L, "an integer", name, lua_tostring(L, idx));
        opt_error(L, "an integer", name, luaL_typename(L, idx));
    }
    return v;
}

/* The clock and random options, at stack slots 2 and 3 by opt_read, are
 * checked before the generator exists; they are bound to it only once its
 * metatable (hence its __gc) is set, so no reference can leak. */
static void hooks_check(lua_State *L)
{
    opt_check_function(L, 2, "clock");
    opt_check_function(L, 3, "random");
}

/* Leaves the stack as it found it (the new generator on top). A generator
 * that has no use for one of the two options does not keep it. */
static void hooks_bind(lua_State *L, gen_hooks *h, int use_clock, int use_random)
{
    if (use_clock && !lua_isnil(L, 2)) {
        lua_pushvalue(L, 2);
        h->clock_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    if (use_random && !lua_isnil(L, 3)) {
        lua_pushvalue(L, 3);
        lua_pushcclosure(L, random_checked, 1);
        h->random_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
}

/* ---- the one-shot calls (hot path) -------------------------------------- */

static int m_ulid(lua_State *L)
{
    uint8_t id[16];
    char text[MINTID_ULID_TEXT_LEN];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_default_ulid(id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    mintid_ulid_encode(id, text);
    lua_pushlstring(L, text, sizeof text);
    return 1;
}

static int m_uuid7(lua_State *L)
{
    uint8_t id[16];
    char text[MINTID_UUID_TEXT_LEN];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_default_uuid7(id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    mintid_uuid_encode(id, text);
    lua_pushlstring(L, text, sizeof text);
    return 1;
}

static int m_uuid4(lua_State *L)
{
    uint8_t id[16];
    char text[MINTID_UUID_TEXT_LEN];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_default_uuid4(id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    mintid_uuid_encode(id, text);
    lua_pushlstring(L, text, sizeof text);
    return 1;
}

static void check_nanoid_size(lua_State *L, int arg, int64_t size)
{
    char buf[24];

    if (size < 1 || size > MINTID_NANOID_MAX_SIZE)
        luaL_argerror(L, arg, lua_pushfstring(L, "size must be 1..%d, got %s",
                                              MINTID_NANOID_MAX_SIZE, i64str(buf, size)));
}

/* A Nano ID of spec s from rnd: on the C stack when small, else in a
 * scratch userdata that the GC reclaims even if an error is raised. */
static int push_nanoid(lua_State *L, const mintid_nanoid_spec *s, gen_hooks *h)
{
    char stackbuf[NANOID_STACK_SIZE];
    char err[MINTID_ERRMSG_SIZE];
    char *out = stackbuf;
    random_ctx c;
    mintid_random_fn fn = mintid_random_pool;
    void *ctx = NULL;
    int rc;

    if (s->size > sizeof stackbuf)
        out = (char *)lua_newuserdatauv(L, s->size, 0);
    if (h != NULL)
        random_begin(L, h, &c, &fn, &ctx, err);
    err[0] = '\0';
    rc = mintid_nanoid_generate(s, fn, ctx, (uint8_t *)out, err);
    if (h != NULL)
        random_end(L, h, &c);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    lua_pushlstring(L, out, s->size);
    return 1;
}

/* mintid.nanoid([size [, alphabet]]); upvalue 1 holds the spec of the
 * default size and alphabet, so the common call validates nothing. */
static int m_nanoid(lua_State *L)
{
    const mintid_nanoid_spec *def = (const mintid_nanoid_spec *)lua_touserdata(L, lua_upvalueindex(1));
    mintid_nanoid_spec spec;
    int64_t size = MINTID_NANOID_DEFAULT_SIZE;
    const char *alphabet;
    size_t alen;
    char err[MINTID_ERRMSG_SIZE];

    if (lua_isnoneornil(L, 1) && lua_isnoneornil(L, 2))
        return push_nanoid(L, def, NULL);
    if (!lua_isnoneornil(L, 1)) {
        size = mintid_checkint64(L, 1);
        check_nanoid_size(L, 1, size);
    }
    if (lua_isnoneornil(L, 2)) {
        /* SPEC: with 64 symbols every byte is used, so a draw is exactly
         * `size` bytes; only the size differs from the default spec. */
        spec = *def;
        spec.size = (size_t)size;
        spec.step = (size_t)size;
        return push_nanoid(L, &spec, NULL);
    }
    alphabet = luaL_checklstring(L, 2, &alen);
    err[0] = '\0';
    /* The size is valid by now, so any complaint is about the alphabet. */
    if (mintid_nanoid_spec_init(&spec, (const uint8_t *)alphabet, alen, (size_t)size, err) != MINTID_OK)
        return luaL_argerror(L, 2, err);
    return push_nanoid(L, &spec, NULL);
}

/* ---- parsing and building values ---------------------------------------- */

static int m_parse_ulid(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_ulid_decode(text, len, id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    push_value(L, id, ULID_T);
    return 1;
}

static int m_parse_uuid(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_uuid_decode(text, len, id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    push_value(L, id, UUID_T);
    return 1;
}

static int m_parse_relative(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_relative_decode(text, len, id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    push_value(L, id, RELATIVE_T);
    return 1;
}

/* parse_snowflake(id [, epoch]) -> timestamp, machine_id, sequence */
static int m_parse_snowflake(lua_State *L)
{
    uint64_t id = 0;
    int64_t epoch = 0, timestamp;
    uint32_t machine_id, sequence;
    char err[MINTID_ERRMSG_SIZE];
    char buf[24];

    if (lua_type(L, 1) == LUA_TSTRING) {
        size_t len;
        const char *text = lua_tolstring(L, 1, &len);
        err[0] = '\0';
        if (mintid_snowflake_parse_decimal(text, len, &id, err) != MINTID_OK)
            return fail(L, MINTID_EPARSE, err);
    } else if (lua_type(L, 1) == LUA_TNUMBER) {
        int64_t v;
#if MINTID_LUA_INT64
        v = mintid_checkint64(L, 1);
#else
        /* A double holds every integer only up to 2^53; above it the ID
         * the caller meant may already be lost. */
        lua_Number x = lua_tonumber(L, 1);
        if (!(x < 9007199254740992.0) || !mintid_toint64(L, 1, &v))
            return luaL_argerror(L, 1, "a number snowflake ID must be an integer below 2^53 "
                                       "on this Lua; pass larger IDs as decimal text");
#endif
        if (v < 0)
            return fail_msg(L, "invalid snowflake ID: negative");
        id = (uint64_t)v;
    } else {
        return luaL_argerror(L, 1, lua_pushfstring(L, "integer or decimal string expected, got %s",
                                                   luaL_typename(L, 1)));
    }
    if (!lua_isnoneornil(L, 2)) {
        epoch = mintid_checkint64(L, 2);
        /* The generators take the same epochs (mintid_snowflake_gen_init). */
        if (epoch < 0)
            return luaL_argerror(L, 2, lua_pushfstring(L, "epoch must be >= 0, got %s", i64str(buf, epoch)));
    }
    mintid_snowflake_split(id, epoch, &timestamp, &machine_id, &sequence);
    mintid_pushint64(L, timestamp);
    lua_pushinteger(L, (lua_Integer)machine_id);
    lua_pushinteger(L, (lua_Integer)sequence);
    return 3;
}

static int m_ulid_from(lua_State *L)
{
    int64_t ms = mintid_checkint64(L, 1);
    size_t len;
    const char *rnd = luaL_checklstring(L, 2, &len);
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    if (len != 10) {
        snprintf(err, sizeof err, "ULID randomness must be 10 bytes, got %zu", len);
        return fail_msg(L, err);
    }
    err[0] = '\0';
    rc = mintid_ulid_from_parts(ms, (const uint8_t *)rnd, id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    push_value(L, id, ULID_T);
    return 1;
}

static int from_bytes(lua_State *L, const char *kind, const char *tname)
{
    size_t len;
    const char *b = luaL_checklstring(L, 1, &len);
    char err[MINTID_ERRMSG_SIZE];

    if (len != 16) {
        snprintf(err, sizeof err, "invalid %s bytes: length %zu, want 16", kind, len);
        return fail_msg(L, err);
    }
    push_value(L, (const uint8_t *)b, tname);
    return 1;
}

static int m_ulid_from_bytes(lua_State *L) { return from_bytes(L, "ULID", ULID_T); }
static int m_uuid_from_bytes(lua_State *L) { return from_bytes(L, "UUID", UUID_T); }

/* relative_from(tag, ms, rand): values beyond the core's C types get the
 * core's message here, in the core's order (tag, ms, rand). */
static int m_relative_from(lua_State *L)
{
    int64_t tag = mintid_checkint64(L, 1);
    int64_t ms = mintid_checkint64(L, 2);
    int64_t rnd = mintid_checkint64(L, 3);
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];
    char buf[24];
    int rc;

    if (tag < 0 || tag > (int64_t)UINT32_MAX) {
        snprintf(err, sizeof err, "relative ID tag %s out of range 0..%" PRIu32,
                 i64str(buf, tag), MINTID_RELATIVE_MAX_TAG);
        return fail_msg(L, err);
    }
    err[0] = '\0';
    rc = mintid_relative_from_parts((uint32_t)tag, ms, rnd < 0 ? 0 : (uint64_t)rnd, id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    if (rnd < 0) {
        snprintf(err, sizeof err, "relative ID rand %s out of range 0..%" PRIu64,
                 i64str(buf, rnd), MINTID_RELATIVE_MAX_RAND);
        return fail_msg(L, err);
    }
    push_value(L, id, RELATIVE_T);
    return 1;
}

/* relative_tag(secret, salt, key); a nil salt is the empty one. */
static int m_relative_tag(lua_State *L)
{
    size_t secret_len, salt_len, key_len;
    const char *secret = luaL_checklstring(L, 1, &secret_len);
    const char *salt = luaL_optlstring(L, 2, "", &salt_len);
    const char *key = luaL_checklstring(L, 3, &key_len);
    uint32_t tag;
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_relative_tag((const uint8_t *)secret, secret_len, (const uint8_t *)salt, salt_len,
                            (const uint8_t *)key, key_len, &tag, err) != MINTID_OK) {
        /* The secret's length is the one argument the core can refuse
         * (besides a salt of 4 GiB). */
        return luaL_argerror(L, secret_len < MINTID_RELATIVE_MIN_SECRET ? 1 : 2, err);
    }
    lua_pushinteger(L, (lua_Integer)tag);
    return 1;
}

static int m_ulid_to_uuid(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    uint8_t id[16];
    char out[MINTID_UUID_TEXT_LEN];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_ulid_decode(text, len, id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    mintid_uuid_encode(id, out);
    lua_pushlstring(L, out, sizeof out);
    return 1;
}

static int m_uuid_to_ulid(lua_State *L)
{
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    uint8_t id[16];
    char out[MINTID_ULID_TEXT_LEN];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_uuid_decode(text, len, id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    mintid_ulid_encode(id, out);
    lua_pushlstring(L, out, sizeof out);
    return 1;
}

/* ---- ULID and UUIDv7 generators ----------------------------------------- */

typedef struct {
    gen_hooks h;
    mintid_ulid_gen g;
} ulid_gen_ud;

typedef struct {
    gen_hooks h;
    mintid_uuid7_gen g;
} uuid7_gen_ud;

typedef struct {
    gen_hooks h;
} uuid4_gen_ud;

static const char *const hook_options[] = { "clock", "random", NULL };

static int m_ulid_generator(lua_State *L)
{
    ulid_gen_ud *u;

    opt_read(L, hook_options);
    hooks_check(L);
    u = (ulid_gen_ud *)lua_newuserdatauv(L, sizeof *u, 0);
    hooks_init(&u->h);
    mintid_ulid_gen_init(&u->g);
    luaL_setmetatable(L, ULID_GEN_T);
    hooks_bind(L, &u->h, 1, 1);
    return 1;
}

static int m_uuid7_generator(lua_State *L)
{
    uuid7_gen_ud *u;

    opt_read(L, hook_options);
    hooks_check(L);
    u = (uuid7_gen_ud *)lua_newuserdatauv(L, sizeof *u, 0);
    hooks_init(&u->h);
    mintid_uuid7_gen_init(&u->g);
    luaL_setmetatable(L, UUID7_GEN_T);
    hooks_bind(L, &u->h, 1, 1);
    return 1;
}

/* The clock option is accepted (every constructor takes it) but a UUIDv4
 * has no time, so it is never called. */
static int m_uuid4_generator(lua_State *L)
{
    uuid4_gen_ud *u;

    opt_read(L, hook_options);
    hooks_check(L);
    u = (uuid4_gen_ud *)lua_newuserdatauv(L, sizeof *u, 0);
    hooks_init(&u->h);
    luaL_setmetatable(L, UUID4_GEN_T);
    hooks_bind(L, &u->h, 0, 1);
    return 1;
}

/* One step of a ULID generator into id; 0 or a fail() return count. */
static int ulid_gen_step(lua_State *L, uint8_t id[16])
{
    ulid_gen_ud *u = (ulid_gen_ud *)check_gen(L, ULID_GEN_T);
    int64_t now = gen_now(L, &u->h);
    char err[MINTID_ERRMSG_SIZE];
    random_ctx c;
    mintid_random_fn fn;
    void *ctx;
    int rc;

    random_begin(L, &u->h, &c, &fn, &ctx, err);
    err[0] = '\0';
    rc = mintid_ulid_gen_next(&u->g, now, fn, ctx, id, err);
    random_end(L, &u->h, &c);
    return rc == MINTID_OK ? 0 : fail(L, rc, err);
}

static int ulid_gen_next(lua_State *L)
{
    uint8_t id[16];
    int n = ulid_gen_step(L, id);

    if (n != 0)
        return n;
    push_text(L, id, &ulid_kind);
    return 1;
}

static int ulid_gen_next_value(lua_State *L)
{
    uint8_t id[16];
    int n = ulid_gen_step(L, id);

    if (n != 0)
        return n;
    push_value(L, id, ULID_T);
    return 1;
}

static int uuid7_gen_step(lua_State *L, uint8_t id[16])
{
    uuid7_gen_ud *u = (uuid7_gen_ud *)check_gen(L, UUID7_GEN_T);
    int64_t now = gen_now(L, &u->h);
    char err[MINTID_ERRMSG_SIZE];
    random_ctx c;
    mintid_random_fn fn;
    void *ctx;
    int rc;

    random_begin(L, &u->h, &c, &fn, &ctx, err);
    err[0] = '\0';
    rc = mintid_uuid7_gen_next(&u->g, now, fn, ctx, id, err);
    random_end(L, &u->h, &c);
    return rc == MINTID_OK ? 0 : fail(L, rc, err);
}

static int uuid7_gen_next(lua_State *L)
{
    uint8_t id[16];
    int n = uuid7_gen_step(L, id);

    if (n != 0)
        return n;
    push_text(L, id, &uuid_kind);
    return 1;
}

static int uuid7_gen_next_value(lua_State *L)
{
    uint8_t id[16];
    int n = uuid7_gen_step(L, id);

    if (n != 0)
        return n;
    push_value(L, id, UUID_T);
    return 1;
}

static int uuid4_gen_step(lua_State *L, uint8_t id[16])
{
    uuid4_gen_ud *u = (uuid4_gen_ud *)check_gen(L, UUID4_GEN_T);
    char err[MINTID_ERRMSG_SIZE];
    random_ctx c;
    mintid_random_fn fn;
    void *ctx;
    int rc;

    random_begin(L, &u->h, &c, &fn, &ctx, err);
    err[0] = '\0';
    rc = mintid_uuid4_make(fn, ctx, id, err);
    random_end(L, &u->h, &c);
    return rc == MINTID_OK ? 0 : fail(L, rc, err);
}

static int uuid4_gen_next(lua_State *L)
{
    uint8_t id[16];
    int n = uuid4_gen_step(L, id);

    if (n != 0)
        return n;
    push_text(L, id, &uuid_kind);
    return 1;
}

static int uuid4_gen_next_value(lua_State *L)
{
    uint8_t id[16];
    int n = uuid4_gen_step(L, id);

    if (n != 0)
        return n;
    push_value(L, id, UUID_T);
    return 1;
}

static int ulid_gen_tostring(lua_State *L) { return gen_tostring(L, ULID_GEN_T); }
static int ulid_gen_gc(lua_State *L) { return gen_gc(L, ULID_GEN_T); }
static int uuid7_gen_tostring(lua_State *L) { return gen_tostring(L, UUID7_GEN_T); }
static int uuid7_gen_gc(lua_State *L) { return gen_gc(L, UUID7_GEN_T); }
static int uuid4_gen_tostring(lua_State *L) { return gen_tostring(L, UUID4_GEN_T); }
static int uuid4_gen_gc(lua_State *L) { return gen_gc(L, UUID4_GEN_T); }

/* ---- relative ID generator ----------------------------------------------- */

typedef struct {
    gen_hooks h;
    mintid_relative_gen g;
} relative_gen_ud;

static int m_relative_generator(lua_State *L)
{
    static const char *const known[] = { "clock", "random", "secret", "salt", NULL };
    relative_gen_ud *u;
    size_t secret_len, salt_len;
    const char *secret, *salt;
    char err[MINTID_ERRMSG_SIZE];

    opt_read(L, known);
    hooks_check(L);
    if (lua_type(L, 4) != LUA_TSTRING)
        opt_error(L, "a string of at least 16 bytes", "secret", luaL_typename(L, 4));
    secret = lua_tolstring(L, 4, &secret_len);
    salt = opt_string(L, 5, "salt", "", &salt_len);

    /* Zeroed and given its metatable before the key schedule is written, so
     * __gc wipes it whatever happens next. */
    u = (relative_gen_ud *)lua_newuserdatauv(L, sizeof *u, 0);
    hooks_init(&u->h);
    memset(&u->g, 0, sizeof u->g);
    luaL_setmetatable(L, REL_GEN_T);
    err[0] = '\0';
    if (mintid_relative_gen_init(&u->g, (const uint8_t *)secret, secret_len,
                                 (const uint8_t *)salt, salt_len, err) != MINTID_OK) {
        mintid_relative_gen_wipe(&u->g);
        return luaL_argerror(L, 1, err);
    }
    hooks_bind(L, &u->h, 1, 1);
    return 1;
}

static relative_gen_ud *check_relative_gen(lua_State *L)
{
    return (relative_gen_ud *)check_gen(L, REL_GEN_T);
}

static int relative_gen_step(lua_State *L, uint8_t id[16])
{
    relative_gen_ud *u = check_relative_gen(L);
    size_t key_len;
    const char *key = luaL_checklstring(L, 2, &key_len);
    int64_t now = gen_now(L, &u->h);
    char err[MINTID_ERRMSG_SIZE];
    random_ctx c;
    mintid_random_fn fn;
    void *ctx;
    int rc;

    random_begin(L, &u->h, &c, &fn, &ctx, err);
    err[0] = '\0';
    rc = mintid_relative_gen_next(&u->g, now, (const uint8_t *)key, key_len, fn, ctx, id, err);
    random_end(L, &u->h, &c);
    return rc == MINTID_OK ? 0 : fail(L, rc, err);
}

static int relative_gen_next(lua_State *L)
{
    uint8_t id[16];
    int n = relative_gen_step(L, id);

    if (n != 0)
        return n;
    push_text(L, id, &relative_kind);
    return 1;
}

static int relative_gen_next_value(lua_State *L)
{
    uint8_t id[16];
    int n = relative_gen_step(L, id);

    if (n != 0)
        return n;
    push_value(L, id, RELATIVE_T);
    return 1;
}

static int relative_gen_prefix(lua_State *L)
{
    relative_gen_ud *u = check_relative_gen(L);
    size_t key_len;
    const char *key = luaL_checklstring(L, 2, &key_len);
    char out[MINTID_RELATIVE_PREFIX_LEN];

    mintid_relative_prefix(mintid_relative_gen_tag(&u->g, (const uint8_t *)key, key_len), out);
    lua_pushlstring(L, out, sizeof out);
    return 1;
}

static int relative_gen_tag(lua_State *L)
{
    relative_gen_ud *u = check_relative_gen(L);
    size_t key_len;
    const char *key = luaL_checklstring(L, 2, &key_len);

    lua_pushinteger(L, (lua_Integer)mintid_relative_gen_tag(&u->g, (const uint8_t *)key, key_len));
    return 1;
}

static int relative_gen_tostring(lua_State *L) { return gen_tostring(L, REL_GEN_T); }

static int relative_gen_gc(lua_State *L)
{
    relative_gen_ud *u = (relative_gen_ud *)luaL_checkudata(L, 1, REL_GEN_T);

    mintid_relative_gen_wipe(&u->g);
    hooks_release(L, &u->h);
    return 0;
}

/* ---- snowflake generator ------------------------------------------------- */

typedef struct {
    gen_hooks h;
    mintid_snowflake_gen g;
} snowflake_gen_ud;

/* The random option is accepted like everywhere, but snowflakes draw none. */
static int m_snowflake_generator(lua_State *L)
{
    static const char *const known[] = { "clock", "random", "machine_id", "epoch", NULL };
    snowflake_gen_ud *u;
    mintid_snowflake_gen g;
    int64_t machine_id, epoch;
    char err[MINTID_ERRMSG_SIZE];
    char buf[24];

    opt_read(L, known);
    hooks_check(L);
    machine_id = opt_int64(L, 4, "machine_id", 1);
    epoch = opt_int64(L, 5, "epoch", 0);
    /* Checked here too: the core takes a uint32_t, which a negative or huge
     * Lua value would wrap into. */
    if (machine_id < 0 || machine_id > MINTID_SNOWFLAKE_MAX_MACHINE)
        return luaL_argerror(L, 1, lua_pushfstring(L, "machine_id must be 0..%d, got %s",
                                                   MINTID_SNOWFLAKE_MAX_MACHINE, i64str(buf, machine_id)));
    err[0] = '\0';
    if (mintid_snowflake_gen_init(&g, (uint32_t)machine_id, epoch, err) != MINTID_OK)
        return luaL_argerror(L, 1, err);
    u = (snowflake_gen_ud *)lua_newuserdatauv(L, sizeof *u, 0);
    hooks_init(&u->h);
    u->g = g;
    luaL_setmetatable(L, SNOW_GEN_T);
    hooks_bind(L, &u->h, 1, 0);
    return 1;
}

static int snowflake_gen_next(lua_State *L)
{
    snowflake_gen_ud *u = (snowflake_gen_ud *)check_gen(L, SNOW_GEN_T);
    uint64_t id = 0, saved = u->g.state;
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    if (u->h.clock_ref == LUA_NOREF) {
        /* The OS clock passes every millisecond: the core may spin. */
        rc = mintid_snowflake_gen_next(&u->g, &id, err);
    } else {
        uint32_t reads = 0;
        for (;;) {
            int64_t now = gen_now(L, &u->h);
            /* Taken after the clock ran, which could have used this generator. */
            saved = u->g.state;
            rc = mintid_snowflake_gen_try(&u->g, now, &id, err);
            if (rc != MINTID_EAGAIN)
                break;
            if (++reads == SNOWFLAKE_MAX_CLOCK_READS) {
                char buf[24];
                int64_t last_ms = (int64_t)(u->g.state >> 12) + u->g.epoch;
                snprintf(err, sizeof err, "snowflake: clock stuck at ms %s with 4096 IDs used",
                         i64str(buf, last_ms));
                return fail_msg(L, err);
            }
        }
    }
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    /*
     * Bit 63 would make a negative Lua integer on 5.3+ and break signed
     * hosts (SPEC), so every Lua version refuses it alike; the state goes
     * back to where it was, as for any other error.
     */
    if (id >> 63) {
        u->g.state = saved;
        snprintf(err, sizeof err, "snowflake ID %" PRIu64 " sets bit 63 (past the signed 64-bit range); "
                 "use a later epoch", id);
        return fail_msg(L, err);
    }
#if MINTID_LUA_INT64
    lua_pushinteger(L, (lua_Integer)id);
#else
    {
        char digits[MINTID_SNOWFLAKE_DECIMAL_MAX];
        lua_pushlstring(L, digits, mintid_snowflake_format_decimal(id, digits));
    }
#endif
    return 1;
}

static int snowflake_gen_tostring(lua_State *L) { return gen_tostring(L, SNOW_GEN_T); }
static int snowflake_gen_gc(lua_State *L) { return gen_gc(L, SNOW_GEN_T); }

/* ---- Nano ID generator --------------------------------------------------- */

typedef struct {
    gen_hooks h;
    mintid_nanoid_spec s;
} nanoid_gen_ud;

/* The clock option is accepted like everywhere, but Nano IDs hold no time. */
static int m_nanoid_generator(lua_State *L)
{
    static const char *const known[] = { "clock", "random", "size", "alphabet", NULL };
    nanoid_gen_ud *u;
    mintid_nanoid_spec s;
    int64_t size;
    size_t alen;
    const char *alphabet;
    char err[MINTID_ERRMSG_SIZE];

    opt_read(L, known);
    hooks_check(L);
    size = opt_int64(L, 4, "size", MINTID_NANOID_DEFAULT_SIZE);
    alphabet = opt_string(L, 5, "alphabet", mintid_nanoid_default_alphabet, &alen);
    check_nanoid_size(L, 1, size);
    err[0] = '\0';
    if (mintid_nanoid_spec_init(&s, (const uint8_t *)alphabet, alen, (size_t)size, err) != MINTID_OK)
        return luaL_argerror(L, 1, err);
    u = (nanoid_gen_ud *)lua_newuserdatauv(L, sizeof *u, 0);
    hooks_init(&u->h);
    u->s = s;
    luaL_setmetatable(L, NANO_GEN_T);
    hooks_bind(L, &u->h, 0, 1);
    return 1;
}

static int nanoid_gen_next(lua_State *L)
{
    nanoid_gen_ud *u = (nanoid_gen_ud *)check_gen(L, NANO_GEN_T);

    return push_nanoid(L, &u->s, &u->h);
}

static int nanoid_gen_tostring(lua_State *L) { return gen_tostring(L, NANO_GEN_T); }
static int nanoid_gen_gc(lua_State *L) { return gen_gc(L, NANO_GEN_T); }

/* ---- metatables and the module ------------------------------------------ */

static const luaL_Reg ulid_meta[] = {
    { "__tostring", ulid_tostring }, { "__eq", ulid_eq }, { "__lt", ulid_lt }, { "__le", ulid_le },
    { NULL, NULL }
};
static const luaL_Reg ulid_methods[] = {
    { "bytes", ulid_bytes }, { "time", ulid_time }, { "uuid", ulid_uuid }, { NULL, NULL }
};

static const luaL_Reg uuid_meta[] = {
    { "__tostring", uuid_tostring }, { "__eq", uuid_eq }, { "__lt", uuid_lt }, { "__le", uuid_le },
    { NULL, NULL }
};
static const luaL_Reg uuid_methods[] = {
    { "bytes", uuid_bytes }, { "time", uuid_time }, { "version", uuid_version }, { "ulid", uuid_ulid },
    { NULL, NULL }
};

static const luaL_Reg relative_meta[] = {
    { "__tostring", relative_tostring }, { "__eq", relative_eq }, { "__lt", relative_lt },
    { "__le", relative_le }, { NULL, NULL }
};
static const luaL_Reg relative_methods[] = {
    { "bytes", relative_bytes }, { "time", relative_time }, { "tag", relative_tag_method },
    { "rand", relative_rand }, { NULL, NULL }
};

static const luaL_Reg ulid_gen_meta[] = {
    { "__tostring", ulid_gen_tostring }, { "__gc", ulid_gen_gc }, { "__close", ulid_gen_gc }, { NULL, NULL }
};
static const luaL_Reg ulid_gen_methods[] = {
    { "next", ulid_gen_next }, { "next_value", ulid_gen_next_value }, { NULL, NULL }
};

static const luaL_Reg uuid7_gen_meta[] = {
    { "__tostring", uuid7_gen_tostring }, { "__gc", uuid7_gen_gc }, { "__close", uuid7_gen_gc }, { NULL, NULL }
};
static const luaL_Reg uuid7_gen_methods[] = {
    { "next", uuid7_gen_next }, { "next_value", uuid7_gen_next_value }, { NULL, NULL }
};

static const luaL_Reg uuid4_gen_meta[] = {
    { "__tostring", uuid4_gen_tostring }, { "__gc", uuid4_gen_gc }, { "__close", uuid4_gen_gc }, { NULL, NULL }
};
static const luaL_Reg uuid4_gen_methods[] = {
    { "next", uuid4_gen_next }, { "next_value", uuid4_gen_next_value }, { NULL, NULL }
};

static const luaL_Reg relative_gen_meta[] = {
    { "__tostring", relative_gen_tostring }, { "__gc", relative_gen_gc }, { "__close", relative_gen_gc },
    { NULL, NULL }
};
static const luaL_Reg relative_gen_methods[] = {
    { "next", relative_gen_next }, { "next_value", relative_gen_next_value },
    { "prefix", relative_gen_prefix }, { "tag", relative_gen_tag }, { NULL, NULL }
};

static const luaL_Reg snowflake_gen_meta[] = {
    { "__tostring", snowflake_gen_tostring }, { "__gc", snowflake_gen_gc }, { "__close", snowflake_gen_gc },
    { NULL, NULL }
};
static const luaL_Reg snowflake_gen_methods[] = {
    { "next", snowflake_gen_next }, { NULL, NULL }
};

static const luaL_Reg nanoid_gen_meta[] = {
    { "__tostring", nanoid_gen_tostring }, { "__gc", nanoid_gen_gc }, { "__close", nanoid_gen_gc },
    { NULL, NULL }
};
static const luaL_Reg nanoid_gen_methods[] = {
    { "next", nanoid_gen_next }, { NULL, NULL }
};

static const luaL_Reg module_funcs[] = {
    { "ulid", m_ulid },
    { "uuid4", m_uuid4 },
    { "uuid7", m_uuid7 },
    { "ulid_generator", m_ulid_generator },
    { "uuid7_generator", m_uuid7_generator },
    { "uuid4_generator", m_uuid4_generator },
    { "relative_generator", m_relative_generator },
    { "snowflake_generator", m_snowflake_generator },
    { "nanoid_generator", m_nanoid_generator },
    { "parse_ulid", m_parse_ulid },
    { "parse_uuid", m_parse_uuid },
    { "parse_relative", m_parse_relative },
    { "parse_snowflake", m_parse_snowflake },
    { "ulid_from", m_ulid_from },
    { "ulid_from_bytes", m_ulid_from_bytes },
    { "uuid_from_bytes", m_uuid_from_bytes },
    { "relative_from", m_relative_from },
    { "relative_tag", m_relative_tag },
    { "ulid_to_uuid", m_ulid_to_uuid },
    { "uuid_to_ulid", m_uuid_to_ulid },
    { NULL, NULL }
};

static void createmeta(lua_State *L, const char *tname, const luaL_Reg *meta, const luaL_Reg *methods)
{
    luaL_newmetatable(L, tname);
    luaL_setfuncs(L, meta, 0);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
}

MINTID_EXPORT int luaopen_mintid_core(lua_State *L)
{
    mintid_nanoid_spec *def;
    char err[MINTID_ERRMSG_SIZE];

    createmeta(L, ULID_T, ulid_meta, ulid_methods);
    createmeta(L, UUID_T, uuid_meta, uuid_methods);
    createmeta(L, RELATIVE_T, relative_meta, relative_methods);
    createmeta(L, ULID_GEN_T, ulid_gen_meta, ulid_gen_methods);
    createmeta(L, UUID7_GEN_T, uuid7_gen_meta, uuid7_gen_methods);
    createmeta(L, UUID4_GEN_T, uuid4_gen_meta, uuid4_gen_methods);
    createmeta(L, REL_GEN_T, relative_gen_meta, relative_gen_methods);
    createmeta(L, SNOW_GEN_T, snowflake_gen_meta, snowflake_gen_methods);
    createmeta(L, NANO_GEN_T, nanoid_gen_meta, nanoid_gen_methods);

    luaL_newlib(L, module_funcs);

    def = (mintid_nanoid_spec *)lua_newuserdatauv(L, sizeof *def, 0);
    err[0] = '\0';
    if (mintid_nanoid_spec_init(def, (const uint8_t *)mintid_nanoid_default_alphabet, 64,
                                MINTID_NANOID_DEFAULT_SIZE, err) != MINTID_OK)
        return luaL_error(L, "mintid: %s", err);
    lua_pushcclosure(L, m_nanoid, 1);
    lua_setfield(L, -2, "nanoid");

    lua_pushliteral(L, MINTID_VERSION);
    lua_setfield(L, -2, "_VERSION");
    return 1;
}
