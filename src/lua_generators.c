/*
 * lua_generators.c: the binding's generators (lua_binding.h): ULID, UUIDv7,
 * UUIDv4, UUIDv1/v6, relative ID, Snowflake, Nano ID, KSUID and TypeID
 * generator userdata (a header of flags, then the core state of their
 * kind), their clock and random hooks, options and methods, and the
 * module's calls of the process-wide default generators.
 */
#include "lua_binding.h"

#include <stdio.h>

/* Text of a Nano ID up to this size is built on the C stack. */
#define NANOID_STACK_SIZE 256

/* ---- generators: what tells the kinds apart ------------------------------ */

/*
 * The clock and random options are user values of the generator's userdata
 * (UV_CLOCK, UV_RANDOM), as is the lease fence a Snowflake generator mints
 * inside (UV_LEASE, which keeps it alive: the core state points into it),
 * never registry references: a registry reference is
 * a root for the collector, so a hook that reaches its own generator (a
 * clock reading a field of the object that holds the generator) would keep
 * both alive forever. The flags say whether they are there, so a generator
 * without hooks never looks at its user values on the hot path.
 */
enum { UV_CLOCK = 1, UV_RANDOM, UV_LEASE, UV_COUNT = UV_LEASE };

typedef struct {
    uint8_t has_clock;  /* user value UV_CLOCK is the clock option; else the OS clock */
    uint8_t has_random; /* user value UV_RANDOM is the random option; else the pool */
    uint8_t closed;     /* __gc or __close ran: the hooks (and a secret) are gone */
    uint8_t busy;       /* inside a core call that may run the random option */
} gen_hooks;

/* resty.mintid reads the four flags as one uint32_t: zero when its FFI
 * method may serve the call, else it calls this module's method. */
typedef char gen_hooks_is_four_bytes[sizeof(gen_hooks) == 4 ? 1 : -1];

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
        mintid_uuid_time_gen uuid_time;
        mintid_ksuid_gen ksuid;
    } g;
} gen_layout;

#define GEN_STATE_OFFSET offsetof(gen_layout, g)

static inline void *gen_state(gen_ud *u) { return (char *)u + GEN_STATE_OFFSET; }
static inline mintid_ulid_gen *ulid_of(gen_ud *u) { return (mintid_ulid_gen *)gen_state(u); }
static inline mintid_uuid7_gen *uuid7_of(gen_ud *u) { return (mintid_uuid7_gen *)gen_state(u); }
static inline mintid_relative_gen *relative_of(gen_ud *u) { return (mintid_relative_gen *)gen_state(u); }
static inline mintid_snowflake_gen *snowflake_of(gen_ud *u) { return (mintid_snowflake_gen *)gen_state(u); }
static inline mintid_nanoid_spec *nanoid_of(gen_ud *u) { return (mintid_nanoid_spec *)gen_state(u); }
static inline mintid_uuid_time_state *uuid_time_of(gen_ud *u)
{
    return mintid_uuid_time_state_of((mintid_uuid_time_gen *)gen_state(u));
}
static inline mintid_ksuid_gen *ksuid_of(gen_ud *u) { return (mintid_ksuid_gen *)gen_state(u); }

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
    /* Generators of IDs of fixed size (:next and :next_value) only: */
    const value_kind *value;
    int takes_key;            /* :next(key) */
    int (*make)(gen_ud *u, const id_args *a, uint8_t *out, char *err);
    /* The state `make` moves on (NULL: none) and its size, put back while
     * the ID is pushed, which may raise "not enough memory". */
    void *(*state)(gen_ud *u);
    size_t state_bytes;
} gen_kind;

static void init_ulid(gen_ud *u) { mintid_ulid_gen_init(ulid_of(u)); }
static void init_uuid7(gen_ud *u) { mintid_uuid7_gen_init(uuid7_of(u)); }
static void wipe_relative(gen_ud *u) { mintid_relative_gen_wipe(relative_of(u)); }
static void *state_ulid(gen_ud *u) { return &mintid_ulid_state_of(ulid_of(u))->st; }
static void *state_uuid7(gen_ud *u) { return &mintid_uuid7_state_of(uuid7_of(u))->st; }
static void *state_relative(gen_ud *u) { return &mintid_relative_state_of(relative_of(u))->st; }
static void *state_uuid_time(gen_ud *u) { return uuid_time_of(u); }
static void *state_ksuid(gen_ud *u) { return mintid_ksuid_state_of(ksuid_of(u)); }
static void init_ksuid(gen_ud *u) { mintid_ksuid_gen_init(ksuid_of(u)); }

static int make_ulid(gen_ud *u, const id_args *a, uint8_t *out, char *err)
{
    return mintid_ulid_gen_next(mintid_ulid_state_of(ulid_of(u)), a->now_ms, a->rnd, a->ctx, out, err);
}

static int make_uuid7(gen_ud *u, const id_args *a, uint8_t *out, char *err)
{
    return mintid_uuid7_gen_next(mintid_uuid7_state_of(uuid7_of(u)), a->now_ms, a->rnd, a->ctx, out, err);
}

static int make_uuid4(gen_ud *u, const id_args *a, uint8_t *out, char *err)
{
    (void)u;
    return mintid_uuid4_make(a->rnd, a->ctx, out, err);
}

static int make_relative(gen_ud *u, const id_args *a, uint8_t *out, char *err)
{
    return mintid_relative_gen_next(mintid_relative_state_of(relative_of(u)), a->now_ms, a->key, a->key_len,
                                    a->rnd, a->ctx, out, err);
}

/* A clock option gives ms; the OS clock is read here in 100 ns. */
static int make_uuid_time(gen_ud *u, const id_args *a, uint8_t *out, char *err)
{
    int64_t now = 0;
    int rc;

    if (u->h.has_clock)
        return mintid_uuid_time_gen_next_ms(uuid_time_of(u), a->now_ms, a->rnd, a->ctx, out, err);
    rc = mintid_os_clock_100ns(&now, err);
    if (rc != MINTID_OK)
        return rc;
    return mintid_uuid_time_gen_next_100ns(uuid_time_of(u), now, a->rnd, a->ctx, out, err);
}

static int make_ksuid(gen_ud *u, const id_args *a, uint8_t *out, char *err)
{
    return mintid_ksuid_gen_next(mintid_ksuid_state_of(ksuid_of(u)), a->now_ms, a->rnd, a->ctx, out, err);
}

static const gen_kind ulid_gen_kind = {
    .tname = "mintid.ULIDGenerator", .state_size = sizeof(mintid_ulid_gen), .uses_clock = 1, .uses_random = 1, .init = init_ulid,
    .value = &mintid_lua_ulid_kind, .make = make_ulid, .state = state_ulid, .state_bytes = sizeof(mintid_monotonic)
};
static const gen_kind uuid7_gen_kind = {
    .tname = "mintid.UUID7Generator", .state_size = sizeof(mintid_uuid7_gen), .uses_clock = 1, .uses_random = 1, .init = init_uuid7,
    .value = &mintid_lua_uuid_kind, .make = make_uuid7, .state = state_uuid7, .state_bytes = sizeof(mintid_monotonic)
};
/* The constructor fills the state (a draw of node and clock_seq). */
static const gen_kind uuid1_gen_kind = {
    .tname = "mintid.UUID1Generator", .state_size = sizeof(mintid_uuid_time_gen), .uses_clock = 1, .uses_random = 1,
    .value = &mintid_lua_uuid_kind, .make = make_uuid_time, .state = state_uuid_time, .state_bytes = sizeof(mintid_uuid_time_state)
};
static const gen_kind uuid6_gen_kind = {
    .tname = "mintid.UUID6Generator", .state_size = sizeof(mintid_uuid_time_gen), .uses_clock = 1, .uses_random = 1,
    .value = &mintid_lua_uuid_kind, .make = make_uuid_time, .state = state_uuid_time, .state_bytes = sizeof(mintid_uuid_time_state)
};
static const gen_kind ksuid_gen_kind = {
    .tname = "mintid.KSUIDGenerator", .state_size = sizeof(mintid_ksuid_gen), .uses_clock = 1, .uses_random = 1, .init = init_ksuid,
    .value = &mintid_lua_ksuid_kind, .make = make_ksuid, .state = state_ksuid, .state_bytes = sizeof(mintid_ksuid_state)
};
/* TypeIDs: a UUIDv7 state; :next(prefix) is its own (typeid_gen_next). */
static const gen_kind typeid_gen_kind = {
    .tname = "mintid.TypeIDGenerator", .state_size = sizeof(mintid_uuid7_gen), .uses_clock = 1, .uses_random = 1,
    .init = init_uuid7, .state = state_uuid7, .state_bytes = sizeof(mintid_monotonic)
};
static const gen_kind uuid4_gen_kind = {
    .tname = "mintid.UUID4Generator", .uses_random = 1,
    .value = &mintid_lua_uuid_kind, .make = make_uuid4
};
static const gen_kind relative_gen_kind = {
    .tname = "mintid.RelativeGenerator", .state_size = sizeof(mintid_relative_gen),
    .uses_clock = 1, .uses_random = 1, .wipe = wipe_relative,
    .value = &mintid_lua_relative_kind, .takes_key = 1, .make = make_relative, .state = state_relative,
    .state_bytes = sizeof(mintid_monotonic)
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
    int fn;     /* stack index of the random option (random_check_result
                 * above it), 0 for the pool */
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

/*
 * The generator of kind k at GEN_ARG. Its userdata has one of the kind's
 * two metatables, upvalues 2 and 3 (createmeta): this module's, or the
 * one of the objects resty.mintid serves. One raw comparison each instead
 * of luaL_checkudata's registry lookup by name, which stays the way to a
 * non-generator's error message.
 */
static gen_ud *find_gen(lua_State *L, const gen_kind *k)
{
    gen_ud *u = (gen_ud *)lua_touserdata(L, GEN_ARG);
    int same = 0;

    if (u != NULL && lua_getmetatable(L, GEN_ARG)) {
        same = lua_rawequal(L, -1, lua_upvalueindex(2)) || lua_rawequal(L, -1, lua_upvalueindex(3));
        lua_pop(L, 1);
    }
    return same ? u : (gen_ud *)luaL_checkudata(L, GEN_ARG, k->tname);
}

/* Raises unless u may make an ID now. Checked again after anything that
 * may have run Lua code (a hook, a finalizer during an allocation): that
 * code may have closed the generator. A re-entrant call from the
 * generator's own random option would interleave two updates of one
 * state: it raises, as a closed one does. */
static void gen_ready(lua_State *L, const gen_kind *k, const gen_ud *u)
{
    gen_check_open(L, k, u);
    if (u->h.busy)
        luaL_error(L, "%s called again from its own random function", k->tname);
}

static gen_ud *check_gen(lua_State *L, const gen_kind *k)
{
    gen_ud *u = find_gen(L, k);

    gen_ready(L, k, u);
    return u;
}

/*
 * Under lua_pcall, as the option itself, with the random option's result
 * (argument 1), n (2) and the random_ctx (3): raises unless the result is
 * a string of n bytes and the option left its generator open (a closed
 * one must not publish an ID made from its wiped state), else returns it.
 * Checked here, next to the copy of the bytes, never in a wrapper of the
 * option: the debug library can replace a user value with anything.
 */
static int random_check_result(lua_State *L)
{
    size_t n = (size_t)lua_tointeger(L, 2), len;
    const random_ctx *c = (const random_ctx *)lua_touserdata(L, 3);
    char want[24], got[24];

    mintid_lua_i64str(want, (int64_t)n);
    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_error(L, "random(%s) returned %s, want %s bytes", want, luaL_typename(L, 1), want);
    lua_tolstring(L, 1, &len);
    if (len != n)
        return luaL_error(L, "random(%s) returned %s bytes, want %s", want, mintid_lua_i64str(got, (int64_t)len), want);
    if (c->h->closed)
        return luaL_error(L, "attempt to use a closed %s", c->tname);
    lua_settop(L, 1);
    return 1;
}

static int random_from_lua(void *ctx, uint8_t *buf, size_t n)
{
    random_ctx *c = (random_ctx *)ctx;
    lua_State *L = c->L;

    if (c->raised)
        return MINTID_ERANDOM;
    /* Nothing here allocates outside a lua_pcall (a "not enough memory"
     * would cross core frames): the checker was pushed with the option,
     * and its messages are made under the pcall. */
    lua_pushvalue(L, c->fn);
    lua_pushinteger(L, (lua_Integer)n);
    if (lua_pcall(L, 1, 1, 0) != 0) {
        c->raised = 1;
        return MINTID_ERANDOM;
    }
    lua_pushvalue(L, c->fn + 1);
    lua_insert(L, -2);
    lua_pushinteger(L, (lua_Integer)n);
    lua_pushlightuserdata(L, c);
    if (lua_pcall(L, 3, 1, 0) != 0) {
        c->raised = 1;
        return MINTID_ERANDOM;
    }
    memcpy(buf, lua_tostring(L, -1), n); /* checked by random_check_result */
    lua_pop(L, 1);
    return MINTID_OK;
}

/*
 * The random source of one core call of the generator u of kind k at
 * GEN_ARG (NULL for a one-shot call): its option if it has one (pushed, so
 * that it lives through the call whatever the option does), else the pool,
 * with err as its ctx to keep the OS's reason. The generator's last check
 * before the core: nothing between it and the core call runs Lua code.
 */
static void random_begin(lua_State *L, const gen_kind *k, gen_ud *u, random_ctx *c,
                         mintid_random_fn *fn, void **ctx, char *err)
{
    int hooked = u != NULL && u->h.has_random;

    c->L = L;
    c->fn = 0;
    c->raised = 0;
    c->h = u != NULL ? &u->h : NULL;
    c->tname = k != NULL ? k->tname : NULL;
    if (hooked) {
        /* Room for the option and its checker, the option's copy and n,
         * then the checker's copy and its three arguments. */
        luaL_checkstack(L, 6, "mintid random");
        compat_getuservalue(L, GEN_ARG, UV_RANDOM);
        c->fn = lua_gettop(L);
        lua_pushcfunction(L, random_check_result);
    }
    if (u != NULL)
        gen_ready(L, k, u);
    if (!hooked) {
        *fn = mintid_random_pool;
        *ctx = err;
        return;
    }
    *fn = random_from_lua;
    *ctx = c;
    u->h.busy = 1;
}

static void random_end(lua_State *L, gen_ud *u, const random_ctx *c)
{
    if (c->fn == 0)
        return;
    u->h.busy = 0;
    if (c->raised)
        lua_error(L);
    lua_pop(L, 2);
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

    /* Whatever ran since the last check (a finalizer at a GC step before
     * this call) may have closed the generator, and taken its clock. */
    gen_check_open(L, k, u);
    compat_getuservalue(L, GEN_ARG, UV_CLOCK);
    lua_call(L, 0, 1);
    if (!compat_toint64(L, -1, &now))
        luaL_error(L, "clock must return an integer (ms), got %s", mintid_lua_describe(L, -1));
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
    const gen_kind *k = upvalue_gen_kind(L);

    lua_pushfstring(L, "%s (%p)", k->tname, (void *)find_gen(L, k));
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
    gen_ud *u = find_gen(L, k);

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
        opt_error(L, "an integer", name, mintid_lua_describe(L, idx));
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
static gen_ud *gen_new_uv(lua_State *L, const gen_kind *k, int with_lease)
{
    int with_clock = k->uses_clock && !lua_isnil(L, 2);
    int with_random = k->uses_random && !lua_isnil(L, 3);
    size_t size = GEN_STATE_OFFSET + k->state_size;
    gen_ud *u = (gen_ud *)compat_newuserdatauv(L, size,
                                               with_clock || with_random || with_lease ? UV_COUNT : 0);

    memset(u, 0, size);
    /* The constructor's upvalue 1: this module's metatable of the kind, or
     * the one of resty.mintid's objects (luaopen_mintid). */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_setmetatable(L, -2);
    if (k->init != NULL)
        k->init(u);
    if (with_clock) {
        lua_pushvalue(L, 2);
        compat_setuservalue(L, -2, UV_CLOCK);
        u->h.has_clock = 1;
    }
    if (with_random) {
        lua_pushvalue(L, 3);
        compat_setuservalue(L, -2, UV_RANDOM);
        u->h.has_random = 1;
    }
    return u;
}

static gen_ud *gen_new(lua_State *L, const gen_kind *k)
{
    return gen_new_uv(L, k, 0);
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

/* The fence of the lease option at idx (a table or userdata whose _fence
 * is one of mintid._lease_fence()), pushed; raises naming the option. */
static const mintid_fence *opt_lease_fence(lua_State *L, int idx)
{
    const mintid_fence *f;
    int t = lua_type(L, idx);

    if (t != LUA_TTABLE && t != LUA_TUSERDATA)
        opt_error(L, "a lease object", "lease", luaL_typename(L, idx));
    lua_getfield(L, idx, "_fence");
    f = mintid_lua_to_fence(L, -1);
    if (f == NULL)
        luaL_argerror(L, 1, lua_pushfstring(L, "lease must be a lease object, got a %s whose _fence is %s, "
                                            "not a mintid._lease_fence()", luaL_typename(L, idx),
                                            luaL_typename(L, -1)));
    return f;
}

/* machine_id at 4 and lease at 7 exclude each other: a lease gives the id. */
static int m_snowflake_generator(lua_State *L)
{
    static const char *const known[] = { "clock", "random", "machine_id", "epoch", "max_wait_ms", "lease",
                                         NULL };
    gen_ud *u;
    mintid_snowflake_gen g;
    const mintid_fence *fence = NULL;
    int64_t machine_id = 1, epoch, max_wait_ms;
    int rc;
    char err[MINTID_ERRMSG_SIZE];

    gen_options(L, known);
    if (!lua_isnil(L, 7)) {
        if (!lua_isnil(L, 4))
            luaL_argerror(L, 1, "machine_id and lease exclude each other: the lease gives the machine id");
        fence = opt_lease_fence(L, 7); /* at 8 */
    } else {
        machine_id = opt_int64(L, 4, "machine_id", 1);
    }
    epoch = opt_int64(L, 5, "epoch", 0);
    max_wait_ms = opt_int64(L, 6, "max_wait_ms", MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS);
    err[0] = '\0';
    rc = fence != NULL ? mintid_snowflake_gen_init_fenced(&g, fence, epoch, err)
                       : mintid_snowflake_gen_init(&g, machine_id, epoch, err);
    if (rc != MINTID_OK ||
        mintid_snowflake_gen_set_max_wait(mintid_snowflake_state_of(&g), max_wait_ms, err) != MINTID_OK)
        return luaL_argerror(L, 1, err);
    u = gen_new_uv(L, &snowflake_gen_kind, fence != NULL);
    *snowflake_of(u) = g;
    if (fence != NULL) {
        lua_pushvalue(L, 8);
        compat_setuservalue(L, -2, UV_LEASE);
    }
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

/*
 * uuid1_generator, uuid6_generator: node (6 bytes) and clock_seq
 * (0..16383), each random when not given, drawn here from the random
 * option (under lua_pcall, as every call of it) or the pool.
 */
static int new_uuid_time_gen(lua_State *L, const gen_kind *k, unsigned version)
{
    static const char *const known[] = { "clock", "random", "node", "clock_seq", NULL };
    gen_ud *u;
    size_t node_len = 0;
    const char *node = NULL;
    int64_t clock_seq;
    random_ctx c;
    mintid_random_fn fn = mintid_random_pool;
    void *ctx;
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    gen_options(L, known);
    if (!lua_isnil(L, 4))
        node = opt_string(L, 4, "node", "", &node_len);
    clock_seq = opt_int64(L, 5, "clock_seq", -1);
    if (!lua_isnil(L, 5) && clock_seq < 0)
        return opt_error(L, "0..16383", "clock_seq", mintid_lua_describe(L, 5));
    /* The option and its checker on top, as random_begin leaves them. */
    c.fn = 0;
    if (!lua_isnil(L, 3)) {
        lua_pushvalue(L, 3);
        lua_pushcfunction(L, random_check_result);
        c.fn = lua_gettop(L) - 1;
    }
    u = gen_new(L, k);
    c.L = L;
    c.raised = 0;
    c.h = &u->h;
    c.tname = k->tname;
    ctx = err;
    if (c.fn != 0) {
        fn = random_from_lua;
        ctx = &c;
    }
    err[0] = '\0';
    rc = mintid_uuid_time_state_init(uuid_time_of(u), version, (const uint8_t *)node, node_len, clock_seq,
                                     fn, ctx, err);
    if (c.raised)
        lua_error(L);
    if (rc == MINTID_EARG)
        return luaL_argerror(L, 1, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    return 1;
}

static int m_uuid1_generator(lua_State *L) { return new_uuid_time_gen(L, &uuid1_gen_kind, 1); }
static int m_uuid6_generator(lua_State *L) { return new_uuid_time_gen(L, &uuid6_gen_kind, 6); }
static int m_ksuid_generator(lua_State *L) { return new_hooks_only_gen(L, &ksuid_gen_kind); }
static int m_typeid_generator(lua_State *L) { return new_hooks_only_gen(L, &typeid_gen_kind); }

/* ---- making IDs (the hot path) ------------------------------------------- */

/* mintid.ulid(), uuid7(), uuid4(): text from a process-wide generator. */
static inline int push_default_id(lua_State *L, int (*make)(uint8_t *out, char *err), const value_kind *k)
{
    uint8_t id[MINTID_KSUID_BYTES]; /* the largest */
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = make(id, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    mintid_lua_push_text(L, id, k);
    return 1;
}

static int m_ulid(lua_State *L) { return push_default_id(L, mintid_default_ulid, &mintid_lua_ulid_kind); }
static int m_uuid7(lua_State *L) { return push_default_id(L, mintid_default_uuid7, &mintid_lua_uuid_kind); }
static int m_uuid4(lua_State *L) { return push_default_id(L, mintid_default_uuid4, &mintid_lua_uuid_kind); }
static int m_uuid1(lua_State *L) { return push_default_id(L, mintid_default_uuid1, &mintid_lua_uuid_kind); }
static int m_uuid6(lua_State *L) { return push_default_id(L, mintid_default_uuid6, &mintid_lua_uuid_kind); }
static int m_ksuid(lua_State *L) { return push_default_id(L, mintid_default_ksuid, &mintid_lua_ksuid_kind); }

/* mintid.typeid(prefix): over the default UUIDv7 generator. */
static int m_typeid(lua_State *L)
{
    size_t len;
    const char *prefix = mintid_lua_check_typeid_prefix(L, 1, &len);
    char out[MINTID_TYPEID_MAX_TEXT_LEN], err[MINTID_ERRMSG_SIZE];
    int n;

    err[0] = '\0';
    n = mintid_typeid_text(prefix, len, out, err);
    if (n < 0)
        return mintid_lua_fail(L, n, err);
    lua_pushlstring(L, out, (size_t)n);
    return 1;
}

/* One attempt at a generator's ID: it moves the state from *saved (which
 * an attempt that runs Lua code first updates) and keeps the ID in arg. */
typedef int (*attempt_fn)(lua_State *L, void *arg, void *saved, char *err);
typedef void (*push_made_fn)(lua_State *L, void *arg);

/*
 * The ID of one call of the generator u, made by attempt and pushed by
 * push; st is the state (size bytes, NULL: none) the call moves. A call
 * that fails leaves the state as it was, even when the push raises "not
 * enough memory": the state the core made is held aside, the old one put
 * back for the push, and the new one committed only after it. A push may
 * also run a finalizer that uses this generator; then the ID, made from a
 * state that is no longer current, is dropped and made again.
 */
static int push_committed(lua_State *L, const gen_kind *k, gen_ud *u, void *st, size_t size,
                          attempt_fn attempt, push_made_fn push, void *arg)
{
    /* room for any such state */
    union { mintid_monotonic m; uint64_t snowflake; mintid_uuid_time_state t; mintid_ksuid_state k; } saved, made;
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    for (;;) {
        if (st != NULL)
            memcpy(&saved, st, size);
        err[0] = '\0';
        rc = attempt(L, arg, &saved, err);
        if (rc != MINTID_OK)
            return mintid_lua_fail(L, rc, err);
        if (st == NULL) {
            push(L, arg);
            gen_check_open(L, k, u); /* a finalizer the push ran closed it */
            return 1;
        }
        memcpy(&made, st, size);
        memcpy(st, &saved, size);
        push(L, arg);
        /* A finalizer the push ran may have closed the generator: it
         * raises then, the state as it was, the ID never returned. */
        gen_check_open(L, k, u);
        if (memcmp(st, &saved, size) == 0) {
            memcpy(st, &made, size);
            return 1;
        }
        lua_pop(L, 1);
        gen_check_open(L, k, u);
    }
}

/* A call of a generator of 16-byte IDs. */
typedef struct {
    const gen_kind *k;
    gen_ud *u;
    id_args a;
    uint8_t id[MINTID_KSUID_BYTES]; /* the largest */
    push_id_fn push;
} id_call;

static int id_attempt(lua_State *L, void *arg, void *saved, char *err)
{
    id_call *c = (id_call *)arg;
    random_ctx r;
    int rc;

    (void)saved;
    random_begin(L, c->k, c->u, &r, &c->a.rnd, &c->a.ctx, err);
    rc = c->k->make(c->u, &c->a, c->id, err);
    random_end(L, c->u, &r);
    return rc;
}

static void id_push(lua_State *L, void *arg)
{
    id_call *c = (id_call *)arg;

    c->push(L, c->id, c->k->value);
}

/* g:next(...) and g:next_value(...) of a generator of 16-byte IDs, whose
 * kind is upvalue 1. */
static inline int id_gen_push_next(lua_State *L, push_id_fn push)
{
    id_call c;
    char keybuf[KEY_NUMBER_SIZE];

    c.k = upvalue_gen_kind(L);
    c.u = check_gen(L, c.k);
    c.push = push;
    c.a.key = NULL;
    c.a.key_len = 0;
    if (c.k->takes_key)
        c.a.key = mintid_lua_check_key(L, 2, keybuf, &c.a.key_len);
    c.a.now_ms = c.k->uses_clock ? gen_now(L, c.k, c.u) : 0;
    return push_committed(L, c.k, c.u, c.k->state != NULL ? c.k->state(c.u) : NULL,
                          c.k->state_bytes, id_attempt, id_push, &c);
}

static int id_gen_next(lua_State *L) { return id_gen_push_next(L, mintid_lua_push_text); }
static int id_gen_next_value(lua_State *L) { return id_gen_push_next(L, mintid_lua_push_value); }

/* The tag of relative_gen:prefix(key) and relative_gen:tag(key). */
static uint32_t relative_gen_key_tag(lua_State *L)
{
    gen_ud *u = check_gen(L, &relative_gen_kind);
    char keybuf[KEY_NUMBER_SIZE];
    size_t key_len;
    const uint8_t *key = mintid_lua_check_key(L, 2, keybuf, &key_len);

    gen_ready(L, &relative_gen_kind, u); /* the key's conversion may allocate */
    return mintid_relative_gen_tag(relative_of(u), key, key_len);
}

static int relative_gen_prefix(lua_State *L)
{
    char out[MINTID_RELATIVE_PREFIX_LEN];

    mintid_relative_prefix(relative_gen_key_tag(L), out);
    lua_pushlstring(L, out, sizeof out);
    gen_check_open(L, &relative_gen_kind, (gen_ud *)lua_touserdata(L, GEN_ARG)); /* the push may run a finalizer */
    return 1;
}

static int relative_gen_tag(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)relative_gen_key_tag(L));
    return 1;
}

/* g:next(prefix) of a TypeID generator. */
typedef struct {
    gen_ud *u;
    int64_t now_ms;
    const char *prefix;
    size_t prefix_len;
    char out[MINTID_TYPEID_MAX_TEXT_LEN];
    int len;
} typeid_call;

static int typeid_attempt(lua_State *L, void *arg, void *saved, char *err)
{
    typeid_call *c = (typeid_call *)arg;
    random_ctx r;
    mintid_random_fn fn;
    void *ctx;

    (void)saved;
    random_begin(L, &typeid_gen_kind, c->u, &r, &fn, &ctx, err);
    c->len = mintid_typeid_gen_next(mintid_uuid7_state_of(uuid7_of(c->u)), c->prefix, c->prefix_len,
                                    c->now_ms, fn, ctx, c->out, err);
    random_end(L, c->u, &r);
    return c->len < 0 ? c->len : MINTID_OK;
}

static void typeid_push(lua_State *L, void *arg)
{
    typeid_call *c = (typeid_call *)arg;

    lua_pushlstring(L, c->out, (size_t)c->len);
}

static int typeid_gen_next(lua_State *L)
{
    typeid_call c;

    c.u = check_gen(L, &typeid_gen_kind);
    /* The clock first, as every call of the generator reads it. */
    c.now_ms = gen_now(L, &typeid_gen_kind, c.u);
    c.prefix = mintid_lua_check_typeid_prefix(L, 2, &c.prefix_len);
    return push_committed(L, &typeid_gen_kind, c.u, state_uuid7(c.u), sizeof(mintid_monotonic),
                          typeid_attempt, typeid_push, &c);
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

typedef struct {
    gen_ud *u;
    uint64_t id;
} snowflake_call;

static int snowflake_attempt(lua_State *L, void *arg, void *saved, char *err)
{
    snowflake_call *c = (snowflake_call *)arg;

    if (!c->u->h.has_clock)
        return mintid_snowflake_gen_next(mintid_snowflake_state_of(snowflake_of(c->u)), &c->id, err);
    return snowflake_hook_next(L, c->u, (uint64_t *)saved, &c->id, err);
}

static void snowflake_push(lua_State *L, void *arg)
{
    uint64_t id = ((snowflake_call *)arg)->id;
#if MINTID_LUA_INT64
    lua_pushinteger(L, (lua_Integer)id);
#else
    char digits[MINTID_SNOWFLAKE_DECIMAL_MAX];

    lua_pushlstring(L, digits, mintid_snowflake_format_decimal(id, digits));
#endif
}

static int snowflake_gen_next(lua_State *L)
{
    snowflake_call c;

    c.u = check_gen(L, &snowflake_gen_kind);
    c.id = 0;
    return push_committed(L, &snowflake_gen_kind, c.u, &mintid_snowflake_state_of(snowflake_of(c.u))->state,
                          sizeof c.id, snowflake_attempt, snowflake_push, &c);
}

/* A Nano ID of spec s, from the random option of the generator u at
 * GEN_ARG if it has one (u NULL: a one-shot call), else from the pool: on
 * the C stack when small, else in a scratch userdata that the GC reclaims
 * even if an error is raised. */
static int push_nanoid(lua_State *L, const mintid_nanoid_spec *s, const gen_kind *k, gen_ud *u)
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
    random_begin(L, k, u, &c, &fn, &ctx, err); /* after the allocation, which may run a finalizer */
    err[0] = '\0';
    rc = mintid_nanoid_generate(mintid_nanoid_state_of_const(s), fn, ctx, (uint8_t *)out, err);
    random_end(L, u, &c);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    lua_pushlstring(L, out, size);
    if (u != NULL)
        gen_check_open(L, k, u); /* the push may run a finalizer that closes it */
    return 1;
}

static int nanoid_gen_next(lua_State *L)
{
    gen_ud *u = check_gen(L, &nanoid_gen_kind);

    return push_nanoid(L, nanoid_of(u), &nanoid_gen_kind, u);
}

/* The spec of nanoid(size, alphabet) at arguments 1 and 2: def (the
 * default size and alphabet, checked once at load) or *spec, written here;
 * or a raised argument error. */
static const mintid_nanoid_spec *check_nanoid_args(lua_State *L, const mintid_nanoid_spec *def,
                                                   mintid_nanoid_spec *spec)
{
    int64_t size = MINTID_NANOID_DEFAULT_SIZE;
    const char *alphabet;
    size_t alen;
    char err[MINTID_ERRMSG_SIZE];

    if (lua_isnoneornil(L, 1) && lua_isnoneornil(L, 2))
        return def;
    if (!lua_isnoneornil(L, 1)) {
        size = compat_checkint64(L, 1);
        check_nanoid_size(L, 1, size);
    }
    if (lua_isnoneornil(L, 2)) {
        /* The default alphabet at another size. */
        *spec = *def;
        mintid_nanoid_spec_resize(mintid_nanoid_state_of(spec), size, NULL); /* the size is valid */
        return spec;
    }
    alphabet = mintid_lua_check_text(L, 2, &alen);
    err[0] = '\0';
    /* The size is valid by now, so any complaint is about the alphabet. */
    if (mintid_nanoid_spec_init(spec, (const uint8_t *)alphabet, alen, size, err) != MINTID_OK)
        luaL_argerror(L, 2, err);
    return spec;
}

static const mintid_nanoid_spec *upvalue_default_spec(lua_State *L)
{
    return (const mintid_nanoid_spec *)lua_touserdata(L, lua_upvalueindex(1));
}

/* mintid.nanoid([size [, alphabet]]); upvalue 1 holds the default spec, so
 * the common call validates nothing. */
static int m_nanoid(lua_State *L)
{
    mintid_nanoid_spec spec;

    return push_nanoid(L, check_nanoid_args(L, upvalue_default_spec(L), &spec), NULL, NULL);
}

/* A userdata holding the spec of nanoid(size, alphabet); raises as nanoid. */
static int new_nanoid_spec(lua_State *L)
{
    mintid_nanoid_spec spec, *ud;
    const mintid_nanoid_spec *s = check_nanoid_args(L, upvalue_default_spec(L), &spec);

    ud = (mintid_nanoid_spec *)compat_newuserdatauv(L, sizeof *ud, 0);
    *ud = *s;
    return 1;
}

/* _ffi.nanoid_spec(size, alphabet): new_nanoid_spec, or nothing where
 * nanoid would raise (resty.mintid then calls nanoid for the error). */
static int ffi_nanoid_spec(lua_State *L)
{
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, new_nanoid_spec, 1);
    lua_insert(L, 1);
    return lua_pcall(L, 2, 1, 0) == 0 ? 1 : 0;
}

/* ---- the metatables and the module's generator functions ---------------- */

/* Every generator kind shares its __tostring, __gc and __close; all read
 * the kind from upvalue 1. */
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
static const luaL_Reg typeid_gen_methods[] = { { "next", typeid_gen_next }, { NULL, NULL } };

/* A generator kind is one row: its constructor, kind and methods. */
static const struct {
    const char *name; /* of the constructor */
    lua_CFunction new;
    const gen_kind *kind;
    const luaL_Reg *methods;
} gen_kinds[] = {
    { "ulid_generator", m_ulid_generator, &ulid_gen_kind, id_gen_methods },
    { "uuid7_generator", m_uuid7_generator, &uuid7_gen_kind, id_gen_methods },
    { "uuid4_generator", m_uuid4_generator, &uuid4_gen_kind, id_gen_methods },
    { "relative_generator", m_relative_generator, &relative_gen_kind, relative_gen_methods },
    { "snowflake_generator", m_snowflake_generator, &snowflake_gen_kind, snowflake_gen_methods },
    { "nanoid_generator", m_nanoid_generator, &nanoid_gen_kind, nanoid_gen_methods },
    { "uuid1_generator", m_uuid1_generator, &uuid1_gen_kind, id_gen_methods },
    { "uuid6_generator", m_uuid6_generator, &uuid6_gen_kind, id_gen_methods },
    { "ksuid_generator", m_ksuid_generator, &ksuid_gen_kind, id_gen_methods },
    { "typeid_generator", m_typeid_generator, &typeid_gen_kind, typeid_gen_methods },
};

static const luaL_Reg default_funcs[] = {
    { "ulid", m_ulid },
    { "uuid4", m_uuid4 },
    { "uuid7", m_uuid7 },
    { "uuid1", m_uuid1 },
    { "uuid6", m_uuid6 },
    { "ksuid", m_ksuid },
    { "typeid", m_typeid },
    { NULL, NULL }
};

/*
 * A generator kind's two metatables: this module's, registered under its
 * name, and one for the objects of resty.mintid, with the same __name,
 * metamethods and methods in an __index table of its own that
 * resty.mintid fills with its FFI methods; every C function of the kind
 * takes objects of both (find_gen). Sets module[name] and
 * ffi.new[name] to the constructors of each, and ffi.meta[name] and
 * ffi.methods[name] to the second metatable and this module's methods.
 * module, new, meta and methods: absolute indexes.
 */
static void create_gen_kind(lua_State *L, size_t i, int module, int new, int meta, int methods)
{
    int mt, ffi_mt;

    luaL_newmetatable(L, gen_kinds[i].kind->tname);
    mt = lua_gettop(L);
    lua_newtable(L);
    ffi_mt = lua_gettop(L);
    lua_getfield(L, mt, "__name"); /* none before 5.3 */
    lua_setfield(L, ffi_mt, "__name");
    mintid_lua_fill_meta(L, mt, gen_kinds[i].kind, mt, ffi_mt, gen_meta, gen_kinds[i].methods);
    mintid_lua_fill_meta(L, ffi_mt, gen_kinds[i].kind, mt, ffi_mt, gen_meta, gen_kinds[i].methods);
    lua_getfield(L, mt, "__index");
    lua_setfield(L, methods, gen_kinds[i].name);
    lua_pushvalue(L, mt);
    lua_pushcclosure(L, gen_kinds[i].new, 1);
    lua_setfield(L, module, gen_kinds[i].name);
    lua_pushvalue(L, ffi_mt);
    lua_pushcclosure(L, gen_kinds[i].new, 1);
    lua_setfield(L, new, gen_kinds[i].name);
    lua_pushvalue(L, ffi_mt);
    lua_setfield(L, meta, gen_kinds[i].name);
    lua_pop(L, 2);
}

/* The Nano ID default spec, checked once here, is the upvalue of nanoid
 * and _ffi.nanoid_spec, and _ffi.nanoid_default. */
void mintid_lua_open_generators(lua_State *L, int module, int ffi)
{
    mintid_nanoid_spec *def;
    char err[MINTID_ERRMSG_SIZE];
    int new, meta, methods;
    size_t i;

    lua_pushvalue(L, module);
    luaL_setfuncs(L, default_funcs, 0);
    lua_pop(L, 1);
    lua_newtable(L);
    new = lua_gettop(L);
    lua_newtable(L);
    meta = lua_gettop(L);
    lua_newtable(L);
    methods = lua_gettop(L);
    for (i = 0; i < sizeof gen_kinds / sizeof gen_kinds[0]; i++)
        create_gen_kind(L, i, module, new, meta, methods);
    lua_setfield(L, ffi, "methods");
    lua_setfield(L, ffi, "meta");
    lua_setfield(L, ffi, "new");

    def = (mintid_nanoid_spec *)compat_newuserdatauv(L, sizeof *def, 0);
    err[0] = '\0';
    if (mintid_nanoid_spec_init(def, (const uint8_t *)mintid_nanoid_default_alphabet, 64,
                                MINTID_NANOID_DEFAULT_SIZE, err) != MINTID_OK)
        luaL_error(L, "mintid: %s", err);
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, m_nanoid, 1);
    lua_setfield(L, module, "nanoid");
    lua_pushvalue(L, -1);
    lua_setfield(L, ffi, "nanoid_default");
    lua_pushcclosure(L, ffi_nanoid_spec, 1);
    lua_setfield(L, ffi, "nanoid_spec");
    lua_pushinteger(L, (lua_Integer)GEN_STATE_OFFSET);
    lua_setfield(L, ffi, "state_offset");
}
