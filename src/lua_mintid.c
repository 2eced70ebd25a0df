/*
 * lua_mintid.c: the Lua binding of the mintid core: the module mintid, whole
 * in C, so a host that links it statically registers luaopen_mintid and
 * ships no Lua file.
 *
 * Bad data returns nil, message (the core's message); bad arguments raise
 * through luaL_argerror. The core never sees a Lua error: an injected
 * clock runs before a core call (or, in Snowflake's wait loop, as the
 * core's clock callback under lua_pcall), and an injected random runs
 * under lua_pcall, its error re-raised once the core has returned.
 *
 * The three value kinds and the six generator kinds differ in a few fields
 * (value_kind, gen_kind); every metamethod and method reads its kind from
 * upvalue 1, so each mechanism is written once.
 */
#include "lua_compat.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The opener stays public even in a -fvisibility=hidden build. */
MINTID_API int luaopen_mintid(lua_State *L);

/* Text of a Nano ID up to this size is built on the C stack. */
#define NANOID_STACK_SIZE 256

/* ---- small helpers ------------------------------------------------------ */

/* lua_pushfstring has no 64-bit conversion before 5.3. */
static const char *i64str(char buf[24], int64_t v)
{
    snprintf(buf, 24, "%" PRId64, v);
    return buf;
}

static int fail_msg(lua_State *L, const char *msg)
{
    lua_pushnil(L);
    lua_pushstring(L, msg);
    return 2;
}

/* Data the caller got wrong is a nil, message return; a failing OS source,
 * a core misuse or a Snowflake generator used in a forked child (a program
 * error: each process needs its own machine_id) is an exception, since no
 * retry by the caller helps. */
static int fail(lua_State *L, int rc, const char *err)
{
    const char *msg = err[0] != '\0' ? err : mintid_strerror(rc);

    if (rc == MINTID_ERANDOM || rc == MINTID_ECLOCK || rc == MINTID_ENOMEM || rc == MINTID_EARG ||
        rc == MINTID_EFORK)
        return luaL_error(L, "%s", msg);
    return fail_msg(L, msg);
}

/* A number's own text (3.5 has no integer value) or a non-number's type.
 * NaN is "nan" whatever sign the C library would print. */
static const char *describe_non_integer(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TNUMBER)
        return luaL_typename(L, idx);
    if (lua_tonumber(L, idx) != lua_tonumber(L, idx))
        return "nan";
    return lua_tostring(L, idx);
}

/* The string at arg; anything else, a number included, raises "string
 * expected": luaL_checklstring would turn 1.5 into "1.5", and an integer-
 * valued float into "42.0" on 5.3+ but "42" on 5.1. */
static const char *check_text(lua_State *L, int arg, size_t *len)
{
    luaL_checktype(L, arg, LUA_TSTRING);
    return lua_tolstring(L, arg, len);
}

/* Room for the decimal text of any int64 and its NUL. */
#define KEY_NUMBER_SIZE 24

/* check_key for anything but a string. */
static const uint8_t *check_number_key(lua_State *L, int arg, char buf[KEY_NUMBER_SIZE], size_t *len)
{
    int64_t v = 0;

    if (!compat_toint64(L, arg, &v))
        luaL_argerror(L, arg, lua_pushfstring(L, "key must be a string or a 64-bit integer, got %s",
                                              describe_non_integer(L, arg)));
    *len = strlen(i64str(buf, v));
    return (const uint8_t *)buf;
}

/*
 * The key of a relative ID at arg (its bytes go into the tag): a string as
 * it is, or an integer-valued number as its decimal text, written to buf.
 * luaL_checklstring would turn 42.0 into "42.0" on 5.3+ but "42" on 5.1,
 * so one key would have different tags on different Lua versions.
 */
static inline const uint8_t *check_key(lua_State *L, int arg, char buf[KEY_NUMBER_SIZE], size_t *len)
{
    if (lua_type(L, arg) == LUA_TSTRING)
        return (const uint8_t *)lua_tolstring(L, arg, len);
    return check_number_key(L, arg, buf, len);
}

/* ---- values: 16 bytes in a userdata ------------------------------------ */

typedef struct {
    const char *tname;  /* metatable name */
    const char *name;   /* in messages */
    size_t text_len;
    void (*encode)(const uint8_t *id, char *out);
    int (*decode)(const char *text, size_t len, uint8_t *out, char *err);
} value_kind;

static const value_kind ulid_kind = {
    "mintid.ULID", "ULID", MINTID_ULID_TEXT_LEN, mintid_ulid_encode, mintid_ulid_decode
};
static const value_kind uuid_kind = {
    "mintid.UUID", "UUID", MINTID_UUID_TEXT_LEN, mintid_uuid_encode, mintid_uuid_decode
};
static const value_kind relative_kind = {
    "mintid.RelativeID", "relative ID", MINTID_RELATIVE_TEXT_LEN, mintid_relative_encode,
    mintid_relative_decode
};

/* How an ID leaves C: as text or as a value object (push_text, push_value). */
typedef void (*push_id_fn)(lua_State *L, const uint8_t id[16], const value_kind *k);

static void push_value(lua_State *L, const uint8_t id[16], const value_kind *k)
{
    uint8_t *p = (uint8_t *)compat_newuserdatauv(L, 16, 0);

    memcpy(p, id, 16);
    luaL_setmetatable(L, k->tname);
}

static inline void push_text(lua_State *L, const uint8_t id[16], const value_kind *k)
{
    char text[MINTID_UUID_TEXT_LEN]; /* the longest form */

    k->encode(id, text);
    lua_pushlstring(L, text, k->text_len);
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

    push_text(L, check_value(L, 1, k), k);
    return 1;
}

/* Comparing with anything else (another kind, a number) is simply false;
 * __eq may be reached with a foreign userdata first. */
static int value_eq(lua_State *L)
{
    const char *tname = upvalue_value_kind(L)->tname;
    const uint8_t *a = (const uint8_t *)luaL_testudata(L, 1, tname);
    const uint8_t *b = (const uint8_t *)luaL_testudata(L, 2, tname);

    lua_pushboolean(L, a != NULL && b != NULL && memcmp(a, b, 16) == 0);
    return 1;
}

/* Ordering across kinds has no meaning, so it raises. */
static int value_compare(lua_State *L, int or_equal)
{
    const value_kind *k = upvalue_value_kind(L);
    /* Apart, so that argument 1 is checked (and blamed) first. */
    const uint8_t *a = check_value(L, 1, k);
    const uint8_t *b = check_value(L, 2, k);
    int c = memcmp(a, b, 16);

    lua_pushboolean(L, or_equal ? c <= 0 : c < 0);
    return 1;
}

static int value_lt(lua_State *L) { return value_compare(L, 0); }
static int value_le(lua_State *L) { return value_compare(L, 1); }

static int value_bytes(lua_State *L)
{
    lua_pushlstring(L, (const char *)check_value(L, 1, upvalue_value_kind(L)), 16);
    return 1;
}

/* ULID and UUID are two texts of the same 16 bytes. */
static int value_as(lua_State *L, const value_kind *from, const value_kind *to)
{
    push_value(L, check_value(L, 1, from), to);
    return 1;
}

static int ulid_uuid(lua_State *L) { return value_as(L, &ulid_kind, &uuid_kind); }
static int uuid_ulid(lua_State *L) { return value_as(L, &uuid_kind, &ulid_kind); }

static int ulid_time(lua_State *L)
{
    compat_pushint64(L, mintid_ulid_time(check_value(L, 1, &ulid_kind)));
    return 1;
}

/* SPEC: the timestamp is only defined for version 7. */
static int uuid_time(lua_State *L)
{
    const uint8_t *id = check_value(L, 1, &uuid_kind);

    if (mintid_uuid_version(id) == 7)
        compat_pushint64(L, mintid_ulid_time(id));
    else
        lua_pushnil(L);
    return 1;
}

static int uuid_version(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)mintid_uuid_version(check_value(L, 1, &uuid_kind)));
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

    mintid_relative_split(check_value(L, 1, &relative_kind), &p.tag, &p.ms, &p.rand);
    return p;
}

static int relative_time(lua_State *L)
{
    compat_pushint64(L, check_relative_parts(L).ms);
    return 1;
}

static int relative_tag_method(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)check_relative_parts(L).tag);
    return 1;
}

static int relative_rand(lua_State *L)
{
    compat_pushint64(L, (int64_t)check_relative_parts(L).rand);
    return 1;
}

/* ---- generators: what tells the kinds apart ------------------------------ */

/*
 * The clock and random options are user values of the generator's userdata
 * (UV_CLOCK, UV_RANDOM), never registry references: a registry reference is
 * a root for the collector, so a hook that reaches its own generator (a
 * clock reading a field of the object that holds the generator) would keep
 * both alive forever. The flags say whether they are there, so a generator
 * without hooks never looks at its user values on the hot path.
 */
enum { UV_CLOCK = 1, UV_RANDOM, UV_COUNT = UV_RANDOM };

typedef struct {
    int has_clock;  /* user value UV_CLOCK is the clock option; else the OS clock */
    int has_random; /* user value UV_RANDOM is random_checked wrapping the random option */
    int closed;     /* __gc or __close ran: the hooks (and a secret) are gone */
    int busy;       /* inside a core call that may run the random option */
} gen_hooks;

/* Every generator userdata starts with its hooks, so that the shared hooks,
 * __gc and __tostring serve all kinds; the state of its kind follows at
 * GEN_STATE_OFFSET, and only as many bytes as that kind's state are
 * allocated (gen_kind.state_size): a Snowflake generator is not as large as
 * a relative one's HMAC key schedule. */
typedef struct {
    gen_hooks h;
} gen_ud;

/* Only for the offset: one past the hooks, aligned for every kind's state. */
typedef struct {
    gen_hooks h;
    union {
        mintid_ulid_gen ulid;
        mintid_uuid7_gen uuid7;
        mintid_relative_gen relative;
        mintid_snowflake_gen snowflake;
        mintid_nanoid_spec nanoid;
    } g;
} gen_layout;

#define GEN_STATE_OFFSET offsetof(gen_layout, g)

static inline void *gen_state(gen_ud *u) { return (char *)u + GEN_STATE_OFFSET; }
static inline mintid_ulid_gen *ulid_of(gen_ud *u) { return (mintid_ulid_gen *)gen_state(u); }
static inline mintid_uuid7_gen *uuid7_of(gen_ud *u) { return (mintid_uuid7_gen *)gen_state(u); }
static inline mintid_relative_gen *relative_of(gen_ud *u) { return (mintid_relative_gen *)gen_state(u); }
static inline mintid_snowflake_gen *snowflake_of(gen_ud *u) { return (mintid_snowflake_gen *)gen_state(u); }
static inline mintid_nanoid_spec *nanoid_of(gen_ud *u) { return (mintid_nanoid_spec *)gen_state(u); }

/* The inputs of one core call of a generator of 16-byte IDs. */
typedef struct {
    int64_t now_ms;
    const uint8_t *key; /* relative IDs only */
    size_t key_len;
    mintid_random_fn rnd;
    void *ctx;
} id_args;

/* Upvalue 1 of a generator kind's metamethods and methods. */
typedef struct {
    const char *tname;
    size_t state_size;        /* bytes of state after the hooks */
    /* A kind with no use for the clock or random option accepts it (every
     * constructor does) but does not keep it. */
    int uses_clock;
    int uses_random;
    void (*init)(gen_ud *u);  /* NULL: the constructor fills the state */
    void (*wipe)(gen_ud *u);  /* secret-equivalent state, erased on __gc */
    /* Generators of 16-byte IDs (:next and :next_value) only: */
    const value_kind *value;
    int takes_key;            /* :next(key) */
    int (*make)(gen_ud *u, const id_args *a, uint8_t out[16], char *err);
    /* The state `make` moves on (NULL: none), put back while the ID is
     * pushed, which may raise "not enough memory". */
    mintid_monotonic *(*state)(gen_ud *u);
} gen_kind;

static void init_ulid(gen_ud *u) { mintid_ulid_gen_init(ulid_of(u)); }
static void init_uuid7(gen_ud *u) { mintid_uuid7_gen_init(uuid7_of(u)); }
static void wipe_relative(gen_ud *u) { mintid_relative_gen_wipe(relative_of(u)); }
static mintid_monotonic *state_ulid(gen_ud *u) { return &mintid_ulid_state_of(ulid_of(u))->st; }
static mintid_monotonic *state_uuid7(gen_ud *u) { return &mintid_uuid7_state_of(uuid7_of(u))->st; }
static mintid_monotonic *state_relative(gen_ud *u) { return &mintid_relative_state_of(relative_of(u))->st; }

static int make_ulid(gen_ud *u, const id_args *a, uint8_t out[16], char *err)
{
    return mintid_ulid_gen_next(mintid_ulid_state_of(ulid_of(u)), a->now_ms, a->rnd, a->ctx, out, err);
}

static int make_uuid7(gen_ud *u, const id_args *a, uint8_t out[16], char *err)
{
    return mintid_uuid7_gen_next(mintid_uuid7_state_of(uuid7_of(u)), a->now_ms, a->rnd, a->ctx, out, err);
}

static int make_uuid4(gen_ud *u, const id_args *a, uint8_t out[16], char *err)
{
    (void)u;
    return mintid_uuid4_make(a->rnd, a->ctx, out, err);
}

static int make_relative(gen_ud *u, const id_args *a, uint8_t out[16], char *err)
{
    return mintid_relative_gen_next(mintid_relative_state_of(relative_of(u)), a->now_ms, a->key, a->key_len,
                                    a->rnd, a->ctx, out, err);
}

static const gen_kind ulid_gen_kind = {
    .tname = "mintid.ULIDGenerator", .state_size = sizeof(mintid_ulid_gen), .uses_clock = 1, .uses_random = 1, .init = init_ulid,
    .value = &ulid_kind, .make = make_ulid, .state = state_ulid
};
static const gen_kind uuid7_gen_kind = {
    .tname = "mintid.UUID7Generator", .state_size = sizeof(mintid_uuid7_gen), .uses_clock = 1, .uses_random = 1, .init = init_uuid7,
    .value = &uuid_kind, .make = make_uuid7, .state = state_uuid7
};
static const gen_kind uuid4_gen_kind = {
    .tname = "mintid.UUID4Generator", .uses_random = 1,
    .value = &uuid_kind, .make = make_uuid4
};
static const gen_kind relative_gen_kind = {
    .tname = "mintid.RelativeGenerator", .state_size = sizeof(mintid_relative_gen),
    .uses_clock = 1, .uses_random = 1, .wipe = wipe_relative,
    .value = &relative_kind, .takes_key = 1, .make = make_relative, .state = state_relative
};
/* Snowflakes draw no randomness. */
static const gen_kind snowflake_gen_kind = {
    .tname = "mintid.SnowflakeGenerator", .state_size = sizeof(mintid_snowflake_gen), .uses_clock = 1
};
/* Nano IDs hold no time. */
static const gen_kind nanoid_gen_kind = {
    .tname = "mintid.NanoIDGenerator", .state_size = sizeof(mintid_nanoid_spec), .uses_random = 1
};

static const gen_kind *upvalue_gen_kind(lua_State *L)
{
    return (const gen_kind *)lua_touserdata(L, lua_upvalueindex(1));
}

/* ---- generators: the clock and random hooks ------------------------------ */

/* Every method and metamethod of a generator takes it as argument 1. */
#define GEN_ARG 1

typedef struct {
    lua_State *L;
    int fn;     /* stack index of random_checked, 0 for the pool */
    int raised; /* an error object waits on the stack top */
    const gen_hooks *h;
    const char *tname; /* of the generator, for the message of a closed one */
} random_ctx;

/* A closed generator would quietly fall back to the OS clock and random
 * (or, for relative IDs, a wiped key). */
static void gen_check_open(lua_State *L, const gen_kind *k, const gen_ud *u)
{
    if (u->h.closed)
        luaL_error(L, "attempt to use a closed %s", k->tname);
}

/* A re-entrant call from the generator's own random option would
 * interleave two updates of one state: it raises, as a closed one does. */
static gen_ud *check_gen(lua_State *L, const gen_kind *k)
{
    gen_ud *u = (gen_ud *)lua_touserdata(L, GEN_ARG);

    /* The kind's metatable is upvalue 2 (createmeta): one raw comparison
     * instead of luaL_checkudata's registry lookup by name, which stays
     * the way to a non-generator's error message. */
    if (u != NULL && lua_getmetatable(L, GEN_ARG)) {
        int same = lua_rawequal(L, -1, lua_upvalueindex(2));

        lua_pop(L, 1);
        if (!same)
            u = NULL;
    } else {
        u = NULL;
    }
    if (u == NULL)
        u = (gen_ud *)luaL_checkudata(L, GEN_ARG, k->tname);

    gen_check_open(L, k, u);
    if (u->h.busy)
        luaL_error(L, "%s called again from its own random function", k->tname);
    return u;
}

/* Runs under lua_pcall, so its errors never cross core frames. */
static int random_checked(lua_State *L)
{
    int64_t want = 0;
    char w[24];
    size_t len;

    compat_toint64(L, 1, &want);
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
    lua_pushvalue(L, c->fn);
    lua_pushinteger(L, (lua_Integer)n);
    if (lua_pcall(L, 1, 1, 0) != 0) {
        c->raised = 1;
        return MINTID_ERANDOM;
    }
    /* The function closed (and wiped) its own generator: the core call
     * must not go on to publish an ID made from the wiped state. */
    if (c->h->closed) {
        lua_pop(L, 1);
        lua_pushfstring(L, "attempt to use a closed %s", c->tname);
        c->raised = 1;
        return MINTID_ERANDOM;
    }
    memcpy(buf, lua_tostring(L, -1), n); /* length checked by random_checked */
    lua_pop(L, 1);
    return MINTID_OK;
}

/* The random source of one core call: the option if the generator at
 * GEN_ARG has one (pushed, so that it lives through the call whatever the
 * option does), else the pool, with err as its ctx to keep the OS's reason. */
static void random_begin(lua_State *L, gen_hooks *h, const char *tname, random_ctx *c,
                         mintid_random_fn *fn, void **ctx, char *err)
{
    c->L = L;
    c->fn = 0;
    c->raised = 0;
    c->h = h;
    c->tname = tname;
    if (h == NULL || !h->has_random) {
        *fn = mintid_random_pool;
        *ctx = err;
        return;
    }
    /* Room for the function, its copy, n and the result, checked before
     * the core runs. */
    luaL_checkstack(L, 4, "mintid random");
    compat_getuservalue(L, GEN_ARG, UV_RANDOM);
    c->fn = lua_gettop(L);
    *fn = random_from_lua;
    *ctx = c;
    h->busy = 1;
}

static void random_end(lua_State *L, gen_hooks *h, const random_ctx *c)
{
    if (c->fn == 0)
        return;
    h->busy = 0;
    if (c->raised)
        lua_error(L);
    lua_pop(L, 1);
}

static int64_t os_now(lua_State *L)
{
    int64_t now = 0;
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_os_clock_ms(&now, err) != MINTID_OK)
        luaL_error(L, "%s", err[0] != '\0' ? err : mintid_strerror(MINTID_ECLOCK));
    return now;
}

/* The clock option runs here, before any core call, so it may raise. */
static int64_t hook_now(lua_State *L, const gen_kind *k, const gen_ud *u)
{
    int64_t now = 0;

    compat_getuservalue(L, GEN_ARG, UV_CLOCK);
    lua_call(L, 0, 1);
    if (!compat_toint64(L, -1, &now))
        luaL_error(L, "clock must return an integer (ms), got %s", describe_non_integer(L, -1));
    lua_pop(L, 1);
    /* The clock may have closed its own generator (__gc, __close). */
    gen_check_open(L, k, u);
    return now;
}

/* The time of the generator at GEN_ARG, from its clock option if it has one. */
static inline int64_t gen_now(lua_State *L, const gen_kind *k, const gen_ud *u)
{
    return u->h.has_clock ? hook_now(L, k, u) : os_now(L);
}

static int gen_tostring(lua_State *L)
{
    const char *tname = upvalue_gen_kind(L)->tname;

    lua_pushfstring(L, "%s (%p)", tname, luaL_checkudata(L, 1, tname));
    return 1;
}

/*
 * Also __close, so it may run twice. Only the generator's own random
 * option can reach it while busy: by hand, or through lua_close when the
 * option calls os.exit(0, true), where refusing would free the key
 * unwiped. So it wipes even then; random_from_lua sees `closed` when the
 * option returns and fails the running call, which never gets to use the
 * wiped key.
 */
static int gen_gc(lua_State *L)
{
    const gen_kind *k = upvalue_gen_kind(L);
    gen_ud *u = (gen_ud *)luaL_checkudata(L, GEN_ARG, k->tname);

    if (k->wipe != NULL)
        k->wipe(u);
    /* Let the hooks go now, not when the userdata itself is collected. */
    if (u->h.has_clock) {
        lua_pushnil(L);
        compat_setuservalue(L, GEN_ARG, UV_CLOCK);
    }
    if (u->h.has_random) {
        lua_pushnil(L);
        compat_setuservalue(L, GEN_ARG, UV_RANDOM);
    }
    u->h.has_clock = 0;
    u->h.has_random = 0;
    u->h.closed = 1;
    return 0;
}

/* ---- options tables ------------------------------------------------------ */

/* Options errors blame argument 1, the table, and name the option. */
static int opt_error(lua_State *L, const char *what, const char *name, const char *got)
{
    return luaL_argerror(L, 1, lua_pushfstring(L, "%s must be %s, got %s", name, what, got));
}

static void opt_check_function(lua_State *L, int idx, const char *name)
{
    if (!lua_isnil(L, idx) && lua_type(L, idx) != LUA_TFUNCTION)
        opt_error(L, "a function", name, luaL_typename(L, idx));
}

/*
 * Leaves the table at 1 (or nil) and pushes each known option's value, in
 * the order of `known` (which starts with "clock", "random"), at 2, 3, ...,
 * read as Lua reads a field (an __index is honoured); raises on a raw key
 * not in `known`, since a misspelt option silently ignored is a wrong
 * generator. The clock and random options are checked here,
 * before the generator exists, and bound to it by gen_new.
 */
static void gen_options(lua_State *L, const char *const known[])
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
        if (lua_isnil(L, 1))
            lua_pushnil(L);
        else
            lua_getfield(L, 1, known[i]);
    }
    opt_check_function(L, 2, "clock");
    opt_check_function(L, 3, "random");
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
    if (!compat_toint64(L, idx, &v))
        opt_error(L, "an integer", name, describe_non_integer(L, idx));
    return v;
}

/* ---- generators: construction -------------------------------------------- */

/*
 * The new generator, left on the stack top with the hooks of gen_options
 * (at 2 and 3) that its kind uses as its user values. Zeroed and given its
 * metatable before the state is written, so __gc (which wipes a relative
 * ID key) runs whatever happens next. Only a generator with hooks gets
 * room for them (below 5.4, a table).
 */
static gen_ud *gen_new(lua_State *L, const gen_kind *k)
{
    int with_clock = k->uses_clock && !lua_isnil(L, 2);
    int with_random = k->uses_random && !lua_isnil(L, 3);
    size_t size = GEN_STATE_OFFSET + k->state_size;
    gen_ud *u = (gen_ud *)compat_newuserdatauv(L, size, with_clock || with_random ? UV_COUNT : 0);

    memset(u, 0, size);
    luaL_setmetatable(L, k->tname);
    if (k->init != NULL)
        k->init(u);
    if (with_clock) {
        lua_pushvalue(L, 2);
        compat_setuservalue(L, -2, UV_CLOCK);
        u->h.has_clock = 1;
    }
    if (with_random) {
        lua_pushvalue(L, 3);
        lua_pushcclosure(L, random_checked, 1);
        compat_setuservalue(L, -2, UV_RANDOM);
        u->h.has_random = 1;
    }
    return u;
}

/* ULID, UUIDv7 and UUIDv4 generators take no option but the two hooks. */
static int new_hooks_only_gen(lua_State *L, const gen_kind *k)
{
    static const char *const known[] = { "clock", "random", NULL };

    gen_options(L, known);
    gen_new(L, k);
    return 1;
}

static int m_ulid_generator(lua_State *L) { return new_hooks_only_gen(L, &ulid_gen_kind); }
static int m_uuid7_generator(lua_State *L) { return new_hooks_only_gen(L, &uuid7_gen_kind); }
static int m_uuid4_generator(lua_State *L) { return new_hooks_only_gen(L, &uuid4_gen_kind); }

static int m_relative_generator(lua_State *L)
{
    static const char *const known[] = { "clock", "random", "secret", "salt", NULL };
    gen_ud *u;
    size_t secret_len, salt_len;
    const char *secret, *salt;
    char err[MINTID_ERRMSG_SIZE];

    gen_options(L, known);
    if (lua_type(L, 4) != LUA_TSTRING)
        opt_error(L, "a string of at least 16 bytes", "secret", luaL_typename(L, 4));
    secret = lua_tolstring(L, 4, &secret_len);
    salt = opt_string(L, 5, "salt", "", &salt_len);

    u = gen_new(L, &relative_gen_kind);
    err[0] = '\0';
    if (mintid_relative_gen_init(relative_of(u), (const uint8_t *)secret, secret_len,
                                 (const uint8_t *)salt, salt_len, err) != MINTID_OK) {
        mintid_relative_gen_wipe(relative_of(u));
        return luaL_argerror(L, 1, err);
    }
    return 1;
}

static int m_snowflake_generator(lua_State *L)
{
    static const char *const known[] = { "clock", "random", "machine_id", "epoch", "max_wait_ms", NULL };
    gen_ud *u;
    mintid_snowflake_gen g;
    int64_t machine_id, epoch, max_wait_ms;
    char err[MINTID_ERRMSG_SIZE];

    gen_options(L, known);
    machine_id = opt_int64(L, 4, "machine_id", 1);
    epoch = opt_int64(L, 5, "epoch", 0);
    max_wait_ms = opt_int64(L, 6, "max_wait_ms", MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS);
    err[0] = '\0';
    if (mintid_snowflake_gen_init(&g, machine_id, epoch, err) != MINTID_OK ||
        mintid_snowflake_gen_set_max_wait(mintid_snowflake_state_of(&g), max_wait_ms, err) != MINTID_OK)
        return luaL_argerror(L, 1, err);
    u = gen_new(L, &snowflake_gen_kind);
    *snowflake_of(u) = g;
    return 1;
}

/* The size is checked before the alphabet, so that an error blames it. */
static void check_nanoid_size(lua_State *L, int arg, int64_t size)
{
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_nanoid_check_size(size, err) != MINTID_OK)
        luaL_argerror(L, arg, err);
}

static int m_nanoid_generator(lua_State *L)
{
    static const char *const known[] = { "clock", "random", "size", "alphabet", NULL };
    gen_ud *u;
    mintid_nanoid_spec s;
    int64_t size;
    size_t alen;
    const char *alphabet;
    char err[MINTID_ERRMSG_SIZE];

    gen_options(L, known);
    size = opt_int64(L, 4, "size", MINTID_NANOID_DEFAULT_SIZE);
    alphabet = opt_string(L, 5, "alphabet", mintid_nanoid_default_alphabet, &alen);
    check_nanoid_size(L, 1, size);
    err[0] = '\0';
    if (mintid_nanoid_spec_init(&s, (const uint8_t *)alphabet, alen, size, err) != MINTID_OK)
        return luaL_argerror(L, 1, err);
    u = gen_new(L, &nanoid_gen_kind);
    *nanoid_of(u) = s;
    return 1;
}

/* ---- making IDs (the hot path) ------------------------------------------- */

/* mintid.ulid(), uuid7(), uuid4(): text from a process-wide generator. */
static inline int push_default_id(lua_State *L, int (*make)(uint8_t out[16], char *err), const value_kind *k)
{
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = make(id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    push_text(L, id, k);
    return 1;
}

static int m_ulid(lua_State *L) { return push_default_id(L, mintid_default_ulid, &ulid_kind); }
static int m_uuid7(lua_State *L) { return push_default_id(L, mintid_default_uuid7, &uuid_kind); }
static int m_uuid4(lua_State *L) { return push_default_id(L, mintid_default_uuid4, &uuid_kind); }

static int same_monotonic(const mintid_monotonic *a, const mintid_monotonic *b)
{
    return a->last_ms == b->last_ms && memcmp(a->counter, b->counter, sizeof a->counter) == 0;
}

/*
 * g:next(...) and g:next_value(...) of a generator of 16-byte IDs, whose
 * kind is upvalue 1. A call that fails leaves the state as it was, even
 * when pushing the ID raises "not enough memory": the state the core made
 * is held aside, the old one put back for the push, and the new one
 * committed only after it. A push may also run a finalizer that uses this
 * generator; then the ID, made from a state that is no longer current,
 * is dropped and made again.
 */
static inline int id_gen_push_next(lua_State *L, push_id_fn push)
{
    const gen_kind *k = upvalue_gen_kind(L);
    gen_ud *u = check_gen(L, k);
    mintid_monotonic *st = k->state != NULL ? k->state(u) : NULL;
    mintid_monotonic saved, made;
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];
    char keybuf[KEY_NUMBER_SIZE];
    random_ctx c;
    id_args a;
    int rc;

    a.key = NULL;
    a.key_len = 0;
    if (k->takes_key)
        a.key = check_key(L, 2, keybuf, &a.key_len);
    a.now_ms = k->uses_clock ? gen_now(L, k, u) : 0;
    for (;;) {
        if (st != NULL)
            saved = *st;
        random_begin(L, &u->h, k->tname, &c, &a.rnd, &a.ctx, err);
        err[0] = '\0';
        rc = k->make(u, &a, id, err);
        random_end(L, &u->h, &c);
        if (rc != MINTID_OK)
            return fail(L, rc, err);
        if (st == NULL) {
            push(L, id, k->value);
            return 1;
        }
        made = *st;
        *st = saved;
        push(L, id, k->value);
        if (same_monotonic(st, &saved)) {
            *st = made;
            return 1;
        }
        lua_pop(L, 1);
        gen_check_open(L, k, u);
    }
}

static int id_gen_next(lua_State *L) { return id_gen_push_next(L, push_text); }
static int id_gen_next_value(lua_State *L) { return id_gen_push_next(L, push_value); }

/* The tag of relative_gen:prefix(key) and relative_gen:tag(key). */
static uint32_t relative_gen_key_tag(lua_State *L)
{
    gen_ud *u = check_gen(L, &relative_gen_kind);
    char keybuf[KEY_NUMBER_SIZE];
    size_t key_len;
    const uint8_t *key = check_key(L, 2, keybuf, &key_len);

    return mintid_relative_gen_tag(relative_of(u), key, key_len);
}

static int relative_gen_prefix(lua_State *L)
{
    char out[MINTID_RELATIVE_PREFIX_LEN];

    mintid_relative_prefix(relative_gen_key_tag(L), out);
    lua_pushlstring(L, out, sizeof out);
    return 1;
}

static int relative_gen_tag(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)relative_gen_key_tag(L));
    return 1;
}

/* The clock option as the core's clock (a mintid_clock_fn): the Lua clock
 * runs under lua_pcall, so its errors never cross core frames; the error
 * stays on the stack and is raised once the core has returned. */
typedef struct {
    lua_State *L;
    int call;          /* stack index of snowflake_clock_call */
    gen_ud *u;
    uint64_t *saved;   /* the state as the clock left it */
    int64_t now;
    int raised;
} clock_ctx;

/* Under lua_pcall: argument 1 is the generator (GEN_ARG, where hook_now
 * finds it), 2 the clock_ctx. hook_now checks what the clock returned and
 * that it did not close its own generator. */
static int snowflake_clock_call(lua_State *L)
{
    clock_ctx *c = (clock_ctx *)lua_touserdata(L, 2);

    c->now = hook_now(L, &snowflake_gen_kind, c->u);
    return 0;
}

static int clock_from_lua(void *ctx, int64_t *now_ms, char *err)
{
    clock_ctx *c = (clock_ctx *)ctx;
    lua_State *L = c->L;

    (void)err;
    lua_pushvalue(L, c->call);
    lua_pushvalue(L, GEN_ARG);
    lua_pushlightuserdata(L, c);
    if (lua_pcall(L, 2, 0, 0) != 0) {
        c->raised = 1;
        return MINTID_ECLOCK;
    }
    /* Taken after the clock ran, which could have used this generator. */
    *c->saved = mintid_snowflake_state_of(snowflake_of(c->u))->state;
    *now_ms = c->now;
    return MINTID_OK;
}

/* One ID of a Snowflake generator with a clock option: the core's loop
 * (mintid_snowflake_gen_next_on) on the Lua clock. *saved is the state
 * before the attempt that made the ID. */
static int snowflake_hook_next(lua_State *L, gen_ud *u, uint64_t *saved, uint64_t *id, char *err)
{
    clock_ctx c;
    int rc;

    /* Room for the function, the call's copy and its two arguments, and
     * the function itself pushed before the core runs: nothing the
     * callback does then allocates outside lua_pcall. */
    luaL_checkstack(L, 4, "mintid clock");
    lua_pushcfunction(L, snowflake_clock_call);
    c.L = L;
    c.call = lua_gettop(L);
    c.u = u;
    c.saved = saved;
    c.now = 0;
    c.raised = 0;
    rc = mintid_snowflake_gen_next_on(mintid_snowflake_state_of(snowflake_of(u)), clock_from_lua, &c,
                                      id, err);
    if (c.raised)
        lua_error(L);
    lua_pop(L, 1);
    return rc;
}

/* As id_gen_push_next: the new state is committed after the push. */
static int snowflake_gen_next(lua_State *L)
{
    gen_ud *u = check_gen(L, &snowflake_gen_kind);
    mintid_snowflake_state *g = mintid_snowflake_state_of(snowflake_of(u));
    uint64_t id = 0, saved, made;
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    for (;;) {
        err[0] = '\0';
        saved = g->state;
        if (!u->h.has_clock)
            rc = mintid_snowflake_gen_next(g, &id, err);
        else
            rc = snowflake_hook_next(L, u, &saved, &id, err);
        if (rc != MINTID_OK)
            return fail(L, rc, err);
        made = g->state;
        g->state = saved;
#if MINTID_LUA_INT64
        lua_pushinteger(L, (lua_Integer)id);
#else
        {
            char digits[MINTID_SNOWFLAKE_DECIMAL_MAX];
            lua_pushlstring(L, digits, mintid_snowflake_format_decimal(id, digits));
        }
#endif
        if (g->state == saved) {
            g->state = made;
            return 1;
        }
        lua_pop(L, 1);
        gen_check_open(L, &snowflake_gen_kind, u);
    }
}

/* A Nano ID of spec s, from the random option of h (the hooks of the
 * generator at GEN_ARG) if h has one, else from the pool: on the C stack
 * when small, else in a scratch userdata that the GC reclaims even if an
 * error is raised. */
static int push_nanoid(lua_State *L, const mintid_nanoid_spec *s, gen_hooks *h, const char *tname)
{
    char stackbuf[NANOID_STACK_SIZE];
    char err[MINTID_ERRMSG_SIZE];
    char *out = stackbuf;
    random_ctx c;
    mintid_random_fn fn;
    void *ctx;
    size_t size = mintid_nanoid_spec_size(s);
    int rc;

    if (size > sizeof stackbuf)
        out = (char *)compat_newuserdatauv(L, size, 0);
    random_begin(L, h, tname, &c, &fn, &ctx, err);
    err[0] = '\0';
    rc = mintid_nanoid_generate(mintid_nanoid_state_of_const(s), fn, ctx, (uint8_t *)out, err);
    random_end(L, h, &c);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    lua_pushlstring(L, out, size);
    return 1;
}

static int nanoid_gen_next(lua_State *L)
{
    gen_ud *u = check_gen(L, &nanoid_gen_kind);

    return push_nanoid(L, nanoid_of(u), &u->h, nanoid_gen_kind.tname);
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
        return push_nanoid(L, def, NULL, NULL);
    if (!lua_isnoneornil(L, 1)) {
        size = compat_checkint64(L, 1);
        check_nanoid_size(L, 1, size);
    }
    if (lua_isnoneornil(L, 2)) {
        /* The default alphabet, checked once at load, at another size. */
        spec = *def;
        mintid_nanoid_spec_resize(mintid_nanoid_state_of(&spec), size, NULL); /* the size is valid */
        return push_nanoid(L, &spec, NULL, NULL);
    }
    alphabet = check_text(L, 2, &alen);
    err[0] = '\0';
    /* The size is valid by now, so any complaint is about the alphabet. */
    if (mintid_nanoid_spec_init(&spec, (const uint8_t *)alphabet, alen, size, err) != MINTID_OK)
        return luaL_argerror(L, 2, err);
    return push_nanoid(L, &spec, NULL, NULL);
}

/* ---- parsing and building values ---------------------------------------- */

/* Text of kind `from` at argument 1, pushed as `to` (the same kind for the
 * parse_* calls; the other text form for ulid_to_uuid, uuid_to_ulid). */
static int reparse(lua_State *L, const value_kind *from, const value_kind *to, push_id_fn push)
{
    size_t len;
    const char *text = check_text(L, 1, &len);
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = from->decode(text, len, id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    push(L, id, to);
    return 1;
}

static int m_parse_ulid(lua_State *L) { return reparse(L, &ulid_kind, &ulid_kind, push_value); }
static int m_parse_uuid(lua_State *L) { return reparse(L, &uuid_kind, &uuid_kind, push_value); }
static int m_parse_relative(lua_State *L) { return reparse(L, &relative_kind, &relative_kind, push_value); }
static int m_ulid_to_uuid(lua_State *L) { return reparse(L, &ulid_kind, &uuid_kind, push_text); }
static int m_uuid_to_ulid(lua_State *L) { return reparse(L, &uuid_kind, &ulid_kind, push_text); }

/* parse_snowflake(id [, epoch]) -> timestamp, machine_id, sequence */
static int m_parse_snowflake(lua_State *L)
{
    uint64_t id = 0;
    int64_t epoch = 0, timestamp;
    uint32_t machine_id, sequence;
    char err[MINTID_ERRMSG_SIZE];
    char buf[MINTID_CDATA_DIGITS_SIZE];
    const char *text = NULL; /* decimal text for the core to parse */
    size_t len = 0;

    if (lua_type(L, 1) == LUA_TSTRING) {
        text = lua_tolstring(L, 1, &len);
    } else if (lua_type(L, 1) == LUA_TNUMBER) {
        int64_t v;
#if MINTID_LUA_INT64
        v = compat_checkint64(L, 1);
#else
        /* A double holds every integer only up to 2^53; above it the ID
         * the caller meant may already be lost. */
        lua_Number x = lua_tonumber(L, 1);
        if (!(x < 9007199254740992.0) || !compat_toint64(L, 1, &v))
            return luaL_argerror(L, 1, "a number snowflake ID must be an integer below 2^53 "
                                       "on this Lua; pass larger IDs as decimal text");
#endif
        if (v >= 0) {
            id = (uint64_t)v;
        } else {
            /* The core's message for the same number as text ("invalid
             * snowflake ID: bad character '-' at 1"), from the core itself. */
            text = i64str(buf, v);
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
        return fail(L, MINTID_EPARSE, err);
    if (!lua_isnoneornil(L, 2)) {
        epoch = compat_checkint64(L, 2);
        err[0] = '\0';
        if (mintid_snowflake_check_epoch(epoch, err) != MINTID_OK)
            return luaL_argerror(L, 2, err);
    }
    /* A sum past what this Lua holds exactly would wrap or round. */
    err[0] = '\0';
    if (mintid_snowflake_timestamp(id, epoch, MINTID_LUA_MAX_EXACT, &timestamp, err) != MINTID_OK)
        return fail(L, MINTID_ERANGE, err);
    mintid_snowflake_split(id, epoch, &timestamp, &machine_id, &sequence);
    compat_pushint64(L, timestamp);
    lua_pushinteger(L, (lua_Integer)machine_id);
    lua_pushinteger(L, (lua_Integer)sequence);
    return 3;
}

static int m_ulid_from(lua_State *L)
{
    int64_t ms = compat_checkint64(L, 1);
    size_t len;
    const char *rnd = check_text(L, 2, &len);
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
    push_value(L, id, &ulid_kind);
    return 1;
}

static int from_bytes(lua_State *L, const value_kind *k)
{
    size_t len;
    const char *b = check_text(L, 1, &len);
    char err[MINTID_ERRMSG_SIZE];

    if (len != 16) {
        snprintf(err, sizeof err, "invalid %s bytes: length %zu, want 16", k->name, len);
        return fail_msg(L, err);
    }
    push_value(L, (const uint8_t *)b, k);
    return 1;
}

static int m_ulid_from_bytes(lua_State *L) { return from_bytes(L, &ulid_kind); }
static int m_uuid_from_bytes(lua_State *L) { return from_bytes(L, &uuid_kind); }

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
        return fail(L, rc, err);
    push_value(L, id, &relative_kind);
    return 1;
}

/* relative_tag(secret, salt, key); a nil salt is the empty one. */
static int m_relative_tag(lua_State *L)
{
    size_t secret_len, salt_len = 0, key_len;
    const char *secret, *salt = "";
    char keybuf[KEY_NUMBER_SIZE];
    const uint8_t *key;
    uint32_t tag;
    char err[MINTID_ERRMSG_SIZE];

    /* Strings only, as in relative_generator's options: a number would be
     * "42.0" on Lua 5.3+ but "42" on 5.1, a different secret or salt. */
    secret = check_text(L, 1, &secret_len);
    if (!lua_isnoneornil(L, 2))
        salt = check_text(L, 2, &salt_len);
    key = check_key(L, 3, keybuf, &key_len);
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
    const char *text = check_text(L, 1, &len);
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
        return fail(L, rc, err);
    mintid_relative_split(id, &tag, &ms, &rnd);
    mintid_relative_prefix(tag, bound);
    lua_pushlstring(L, bound, sizeof bound);
    bound[sizeof bound - 1] = '.';
    lua_pushlstring(L, bound, sizeof bound);
    return 2;
}

/*
 * new_values(value, n, t): t[1..n] = n new values of value's kind, all
 * zero bytes. Not a name of the module: the registry holds it, at
 * NEW_VALUES_KEY, for resty.mintid, whose FFI path decodes an ID straight
 * into the 16 bytes of such a value (LuaJIT hands a userdata's payload to
 * the FFI as a pointer): one Lua C API call then serves n parses, and the
 * value is this module's own, with its metatable and methods.
 */
#define NEW_VALUES_KEY "mintid.new_values"

static int m_new_values(lua_State *L)
{
    static const value_kind *const kinds[] = { &ulid_kind, &uuid_kind, &relative_kind };
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
        push_value(L, zero, k);
        lua_rawseti(L, 3, (int)i);
    }
    return 1;
}

/* ---- metatables and the module ------------------------------------------ */

/* Every value kind shares its metamethods, and every generator kind its
 * __tostring, __gc and __close; all read the kind from upvalue 1. */
static const luaL_Reg value_meta[] = {
    { "__tostring", value_tostring }, { "__eq", value_eq }, { "__lt", value_lt }, { "__le", value_le },
    { NULL, NULL }
};
static const luaL_Reg ulid_methods[] = {
    { "bytes", value_bytes }, { "time", ulid_time }, { "uuid", ulid_uuid }, { NULL, NULL }
};
static const luaL_Reg uuid_methods[] = {
    { "bytes", value_bytes }, { "time", uuid_time }, { "version", uuid_version }, { "ulid", uuid_ulid },
    { NULL, NULL }
};
static const luaL_Reg relative_methods[] = {
    { "bytes", value_bytes }, { "time", relative_time }, { "tag", relative_tag_method },
    { "rand", relative_rand }, { NULL, NULL }
};

static const luaL_Reg gen_meta[] = {
    { "__tostring", gen_tostring }, { "__gc", gen_gc }, { "__close", gen_gc }, { NULL, NULL }
};
static const luaL_Reg id_gen_methods[] = {
    { "next", id_gen_next }, { "next_value", id_gen_next_value }, { NULL, NULL }
};
static const luaL_Reg relative_gen_methods[] = {
    { "next", id_gen_next }, { "next_value", id_gen_next_value },
    { "prefix", relative_gen_prefix }, { "tag", relative_gen_tag }, { NULL, NULL }
};
static const luaL_Reg snowflake_gen_methods[] = { { "next", snowflake_gen_next }, { NULL, NULL } };
static const luaL_Reg nanoid_gen_methods[] = { { "next", nanoid_gen_next }, { NULL, NULL } };

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
    { "relative_range", m_relative_range },
    { NULL, NULL }
};

/* Lua has no const light userdata; the kinds are only ever read. Every
 * function also gets the metatable itself, as upvalue 2, so that the hot
 * path tells its own objects by one comparison (check_gen). */
static void createmeta(lua_State *L, const char *tname, const void *kind,
                       const luaL_Reg *meta, const luaL_Reg *methods)
{
    luaL_newmetatable(L, tname);
    lua_pushlightuserdata(L, (void *)kind);
    lua_pushvalue(L, -2);
    luaL_setfuncs(L, meta, 2);
    lua_newtable(L);
    lua_pushlightuserdata(L, (void *)kind);
    lua_pushvalue(L, -3);
    luaL_setfuncs(L, methods, 2);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
}

static void create_value_meta(lua_State *L, const value_kind *k, const luaL_Reg *methods)
{
    createmeta(L, k->tname, k, value_meta, methods);
}

static void create_gen_meta(lua_State *L, const gen_kind *k, const luaL_Reg *methods)
{
    createmeta(L, k->tname, k, gen_meta, methods);
}

MINTID_API int luaopen_mintid(lua_State *L)
{
    mintid_nanoid_spec *def;
    char err[MINTID_ERRMSG_SIZE];

    create_value_meta(L, &ulid_kind, ulid_methods);
    create_value_meta(L, &uuid_kind, uuid_methods);
    create_value_meta(L, &relative_kind, relative_methods);
    create_gen_meta(L, &ulid_gen_kind, id_gen_methods);
    create_gen_meta(L, &uuid7_gen_kind, id_gen_methods);
    create_gen_meta(L, &uuid4_gen_kind, id_gen_methods);
    create_gen_meta(L, &relative_gen_kind, relative_gen_methods);
    create_gen_meta(L, &snowflake_gen_kind, snowflake_gen_methods);
    create_gen_meta(L, &nanoid_gen_kind, nanoid_gen_methods);

    luaL_newlib(L, module_funcs);

    def = (mintid_nanoid_spec *)compat_newuserdatauv(L, sizeof *def, 0);
    err[0] = '\0';
    if (mintid_nanoid_spec_init(def, (const uint8_t *)mintid_nanoid_default_alphabet, 64,
                                MINTID_NANOID_DEFAULT_SIZE, err) != MINTID_OK)
        return luaL_error(L, "mintid: %s", err);
    lua_pushcclosure(L, m_nanoid, 1);
    lua_setfield(L, -2, "nanoid");

    lua_pushcfunction(L, m_new_values);
    lua_setfield(L, LUA_REGISTRYINDEX, NEW_VALUES_KEY);

    lua_pushliteral(L, MINTID_VERSION);
    lua_setfield(L, -2, "_VERSION");

    /* LuaJIT's int64 cdata tell their ctype only through tostring
     * (lua_compat.h, compat_cdata_digits); keep the one of this state. */
    lua_getglobal(L, "tostring");
    lua_setfield(L, LUA_REGISTRYINDEX, MINTID_TOSTRING_KEY);
    return 1;
}
