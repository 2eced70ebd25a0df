/*
 * lua_generators.c: the binding's generator kinds (lua_generators.h):
 * ULID, UUIDv7, UUIDv4, UUIDv1/v6, relative ID, Snowflake, Nano ID, KSUID,
 * ObjectId, XID, TypeID and CUID2 generators, their options, constructors, methods and
 * metatables. Every call goes through the hook machinery of lua_hooks.c;
 * the one-shot calls of the default generators are lua_defaults.c's.
 */
#include "lua_generators.h"

/* Text of a Nano ID up to this size is built on the C stack. */
#define NANOID_STACK_SIZE 256

/* ---- generators: what tells the kinds apart ------------------------------ */

/* The state of each kind, after the hooks (lua_hooks.h's gen_layout). */
static inline mintid_ulid_gen *ulid_of(gen_ud *u)
{
    return (mintid_ulid_gen *)mintid_lua_gen_state(u);
}
static inline mintid_uuid7_gen *uuid7_of(gen_ud *u)
{
    return (mintid_uuid7_gen *)mintid_lua_gen_state(u);
}
static inline mintid_relative_gen *relative_of(gen_ud *u)
{
    return (mintid_relative_gen *)mintid_lua_gen_state(u);
}
static inline mintid_snowflake_gen *snowflake_of(gen_ud *u)
{
    return (mintid_snowflake_gen *)mintid_lua_gen_state(u);
}
static inline mintid_nanoid_spec *nanoid_of(gen_ud *u)
{
    return (mintid_nanoid_spec *)mintid_lua_gen_state(u);
}
static inline mintid_uuid_time_state *uuid_time_of(gen_ud *u)
{
    return mintid_uuid_time_state_of((mintid_uuid_time_gen *)mintid_lua_gen_state(u));
}
static inline mintid_ksuid_gen *ksuid_of(gen_ud *u)
{
    return (mintid_ksuid_gen *)mintid_lua_gen_state(u);
}

static void init_ulid(gen_ud *u) { mintid_ulid_gen_init(ulid_of(u)); }
static void init_uuid7(gen_ud *u) { mintid_uuid7_gen_init(uuid7_of(u)); }
static void wipe_relative(gen_ud *u) { mintid_relative_gen_wipe(relative_of(u)); }
static void *state_ulid(gen_ud *u) { return &mintid_ulid_state_of(ulid_of(u))->st; }
static void *state_uuid7(gen_ud *u) { return &mintid_uuid7_state_of(uuid7_of(u))->st; }
static void *state_relative(gen_ud *u) { return &mintid_relative_state_of(relative_of(u))->st; }
static void *state_uuid_time(gen_ud *u) { return uuid_time_of(u); }
static void *state_ksuid(gen_ud *u) { return mintid_ksuid_state_of(ksuid_of(u)); }
static void init_ksuid(gen_ud *u) { mintid_ksuid_gen_init(ksuid_of(u)); }
static inline mintid_objectid_gen *objectid_of(gen_ud *u)
{
    return (mintid_objectid_gen *)mintid_lua_gen_state(u);
}
static inline mintid_xid_gen *xid_of(gen_ud *u)
{
    return (mintid_xid_gen *)mintid_lua_gen_state(u);
}
static void *state_objectid(gen_ud *u) { return mintid_objectid_state_of(objectid_of(u)); }
static void init_objectid(gen_ud *u) { mintid_objectid_gen_init(objectid_of(u)); }
static void *state_xid(gen_ud *u) { return mintid_xid_state_of(xid_of(u)); }

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

/* ObjectId, XID: a clock option gives ms; the OS clock is read here, in
 * the whole seconds these IDs hold (the coarse clock the defaults read). */
static int make_objectid(gen_ud *u, const id_args *a, uint8_t *out, char *err)
{
    mintid_objectid_state *g = mintid_objectid_state_of(objectid_of(u));
    int64_t now = 0;
    int rc;

    if (u->h.has_clock)
        return mintid_objectid_gen_next(g, a->now_ms, a->rnd, a->ctx, out, err);
    rc = mintid_os_clock_s(&now, err);
    if (rc != MINTID_OK)
        return rc;
    return mintid_objectid_gen_next_s(g, now, a->rnd, a->ctx, out, err);
}

static int make_xid(gen_ud *u, const id_args *a, uint8_t *out, char *err)
{
    mintid_xid_state *g = mintid_xid_state_of(xid_of(u));
    int64_t now = 0;
    int rc;

    if (u->h.has_clock)
        return mintid_xid_gen_next(g, a->now_ms, a->rnd, a->ctx, out, err);
    rc = mintid_os_clock_s(&now, err);
    if (rc != MINTID_OK)
        return rc;
    return mintid_xid_gen_next_s(g, now, a->rnd, a->ctx, NULL, out, err);
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
static const gen_kind objectid_gen_kind = {
    .tname = "mintid.ObjectIdGenerator", .state_size = sizeof(mintid_objectid_gen), .uses_clock = 1, .reads_os_clock = 1,
    .uses_random = 1,
    .init = init_objectid, .value = &mintid_lua_objectid_kind, .make = make_objectid, .state = state_objectid,
    .state_bytes = sizeof(mintid_objectid_state)
};
/* The constructor sets the machine and pid (xid_generator). */
static const gen_kind xid_gen_kind = {
    .tname = "mintid.XIDGenerator", .state_size = sizeof(mintid_xid_gen), .uses_clock = 1, .reads_os_clock = 1,
    .uses_random = 1,
    .value = &mintid_lua_xid_kind, .make = make_xid, .state = state_xid, .state_bytes = sizeof(mintid_xid_state)
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

static int gen_tostring(lua_State *L)
{
    const gen_kind *k = mintid_lua_upvalue_gen_kind(L);

    lua_pushfstring(L, "%s (%p)", k->tname, (void *)mintid_lua_find_gen(L, k));
    return 1;
}

static int gen_gc(lua_State *L)
{
    const gen_kind *k = mintid_lua_upvalue_gen_kind(L);

    mintid_lua_gen_close(L, k, mintid_lua_find_gen(L, k), GEN_ARG);
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
        mintid_lua_check_option_names(L, known);
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
static gen_ud *gen_new(lua_State *L, const gen_kind *k)
{
    int with_clock = k->uses_clock && !lua_isnil(L, 2);
    int with_random = k->uses_random && !lua_isnil(L, 3);
    size_t size = GEN_STATE_OFFSET + k->state_size;
    gen_ud *u = (gen_ud *)compat_newuserdatauv(L, size, with_clock || with_random ? UV_COUNT : 0);

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
static mintid_fence *opt_lease_fence(lua_State *L, int idx)
{
    mintid_fence *f;
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

/* The generator's layout: the option at 8 (default "mintid"; on a lease,
 * the lease's), its epoch replaced by the epoch option at 5 if given. */
static void opt_layout(lua_State *L, mintid_fence *fence, mintid_snowflake_layout *out)
{
    char err[MINTID_ERRMSG_SIZE];

    if (!lua_isnil(L, 8))
        mintid_lua_check_layout(L, 8, 1, out);
    else if (fence != NULL)
        mintid_fence_layout(fence, out);
    else
        mintid_snowflake_layout_default(out);
    err[0] = '\0';
    if (!lua_isnil(L, 5) && mintid_snowflake_layout_set_epoch(out, opt_int64(L, 5, "epoch", 0), err) != MINTID_OK)
        luaL_argerror(L, 1, err);
}

/* The fence at fence outlives the generator at gen (the core state
 * points into it), whatever becomes of the generator's user values:
 * registry[FENCES_KEY][generator] = fence (0: nil, taken back); a fence
 * never reaches its generators. Pushes the table. */
#define FENCES_KEY "mintid.lease_fences"
static void keep_fence(lua_State *L, int gen, int fence)
{
    mintid_lua_push_weak_keys(L, FENCES_KEY);
    lua_pushvalue(L, gen);
    if (fence != 0)
        lua_pushvalue(L, fence);
    else
        lua_pushnil(L);
    lua_rawset(L, -3);
}

/* machine_id at 4 and lease at 7 exclude each other: a lease gives the id
 * (and the layout: one given here must be the lease's). */
static int m_snowflake_generator(lua_State *L)
{
    static const char *const known[] = { "clock", "random", "machine_id", "epoch", "max_wait_ms", "lease",
                                         "layout", NULL };
    gen_ud *u;
    mintid_snowflake_gen g;
    mintid_snowflake_layout layout;
    mintid_fence *fence = NULL;
    int64_t machine_id = 1, max_wait_ms;
    char err[MINTID_ERRMSG_SIZE];

    gen_options(L, known);
    if (!lua_isnil(L, 7)) {
        if (!lua_isnil(L, 4))
            luaL_argerror(L, 1, "machine_id and lease exclude each other: the lease gives the machine id");
        fence = opt_lease_fence(L, 7); /* at 9 */
    } else {
        machine_id = opt_int64(L, 4, "machine_id", 1);
    }
    opt_layout(L, fence, &layout);
    max_wait_ms = opt_int64(L, 6, "max_wait_ms", MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS);
    err[0] = '\0';
    if (fence == NULL) {
        if (mintid_snowflake_gen_init_layout(&g, &layout, machine_id, err) != MINTID_OK ||
            mintid_snowflake_gen_set_max_wait(mintid_snowflake_state_of(&g), max_wait_ms, err) != MINTID_OK)
            return luaL_argerror(L, 1, err);
        u = gen_new(L, &snowflake_gen_kind);
        *snowflake_of(u) = g;
        return 1;
    }
    /* Every allocation before the fence is bound to the layout, so that a
     * constructor failing for memory leaves it as it was. */
    u = gen_new(L, &snowflake_gen_kind); /* at 10 */
    keep_fence(L, 10, 9);
    /* max_wait_ms checked first (init sets the default), then set again. */
    if (mintid_snowflake_gen_set_max_wait(mintid_snowflake_state_of(&g), max_wait_ms, err) != MINTID_OK ||
        mintid_snowflake_gen_init_fenced_layout(&g, fence, &layout, err) != MINTID_OK) {
        keep_fence(L, 10, 0);
        return luaL_argerror(L, 1, err);
    }
    mintid_snowflake_gen_set_max_wait(mintid_snowflake_state_of(&g), max_wait_ms, err);
    *snowflake_of(u) = g;
    lua_settop(L, 10);
    return 1;
}

/* The size is checked before the alphabet, so that an error blames it. */
void mintid_lua_check_nanoid_size(lua_State *L, int arg, int64_t size)
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
    mintid_lua_check_nanoid_size(L, 1, size);
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
 * option or the pool, as every call of the generator draws. The option
 * can reach the generator while it is half built: it is busy meanwhile,
 * and closed if the draw fails, so that it never mints.
 */
static int new_uuid_time_gen(lua_State *L, const gen_kind *k, unsigned version)
{
    static const char *const known[] = { "clock", "random", "node", "clock_seq", NULL };
    gen_ud *u;
    size_t node_len = 0;
    const char *node = NULL;
    int64_t clock_seq;
    random_ctx c;
    mintid_random_fn fn;
    void *ctx;
    char err[MINTID_ERRMSG_SIZE];
    int gen, rc;

    gen_options(L, known);
    if (!lua_isnil(L, 4))
        node = opt_string(L, 4, "node", "", &node_len);
    clock_seq = opt_int64(L, 5, "clock_seq", -1);
    if (!lua_isnil(L, 5) && clock_seq < 0)
        return opt_error(L, "0..16383", "clock_seq", mintid_lua_describe(L, 5));
    u = gen_new(L, k);
    gen = lua_gettop(L);
    mintid_lua_random_begin(L, k, u, gen, &c, &fn, &ctx, err);
    err[0] = '\0';
    rc = mintid_uuid_time_state_init(uuid_time_of(u), version, (const uint8_t *)node, node_len, clock_seq,
                                     fn, ctx, err);
    if (rc != MINTID_OK)
        mintid_lua_gen_close(L, k, u, gen);
    mintid_lua_random_end(L, u, &c);
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
static int m_objectid_generator(lua_State *L) { return new_hooks_only_gen(L, &objectid_gen_kind); }

/* xid_generator{ machine = 3 bytes, pid = 0..65535 }: each this host's and
 * process's (rs/xid's rule) when not given. */
static int m_xid_generator(lua_State *L)
{
    static const char *const known[] = { "clock", "random", "machine", "pid", NULL };
    mintid_xid_gen g;
    gen_ud *u;
    size_t machine_len = 0;
    const char *machine = NULL;
    int64_t pid;
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    gen_options(L, known);
    if (!lua_isnil(L, 4))
        machine = opt_string(L, 4, "machine", "", &machine_len);
    if (machine != NULL && machine_len != 3)
        return opt_error(L, "a string of 3 bytes", "machine", lua_pushfstring(L, "%d bytes", (int)machine_len));
    pid = opt_int64(L, 5, "pid", -1);
    if (!lua_isnil(L, 5) && (pid < 0 || pid > 65535))
        return opt_error(L, "0..65535", "pid", mintid_lua_describe(L, 5));
    err[0] = '\0';
    rc = mintid_xid_gen_init(&g, (const uint8_t *)machine, machine_len, pid, err);
    if (rc == MINTID_EARG)
        return luaL_argerror(L, 1, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    u = gen_new(L, &xid_gen_kind);
    *xid_of(u) = g;
    return 1;
}

/* ---- making IDs (the hot path) ------------------------------------------- */

/* A call of a generator of 16-byte IDs. Its address goes to no function
 * that is not inlined (the ID's bytes, the args and the random source are
 * copies or pointers to other locals), so that the compiler sees the kind
 * and push stored here as the constants they are. */
typedef struct {
    const gen_kind *k;
    gen_ud *u;
    id_args a;
    uint8_t *id;
    push_id_fn push;
} id_call;

static MINTID_ALWAYS_INLINE int id_attempt(lua_State *L, void *arg, void *saved, char *err)
{
    id_call *c = (id_call *)arg;
    id_args a = c->a;
    random_ctx r;
    int rc;

    (void)saved;
    mintid_lua_random_begin(L, c->k, c->u, GEN_ARG, &r, &a.rnd, &a.ctx, err);
    rc = c->k->make(c->u, &a, c->id, err);
    mintid_lua_random_end(L, c->u, &r);
    return rc;
}

static MINTID_ALWAYS_INLINE void id_push(lua_State *L, void *arg)
{
    id_call *c = (id_call *)arg;

    c->push(L, c->id, c->k->value);
}

/* g:next(...) and g:next_value(...) of a generator of 16-byte IDs of kind
 * k; always inlined with a constant k (ID_GEN_METHODS), so that what the
 * kind says (a key, the clock, its state and size, its make) folds into
 * one straight path per kind. */
static MINTID_ALWAYS_INLINE int id_gen_push_next(lua_State *L, const gen_kind *k, push_id_fn push)
{
    id_call c;
    uint8_t id[MINTID_KSUID_BYTES]; /* the largest */
    char keybuf[MINTID_LUA_INT_TEXT_SIZE];
    size_t key_len = 0;

    c.k = k;
    c.u = mintid_lua_check_gen(L, k);
    c.id = id;
    c.push = push;
    c.a.key = k->takes_key ? mintid_lua_check_key(L, 2, keybuf, &key_len) : NULL;
    c.a.key_len = key_len;
    c.a.now_ms = k->uses_clock && (c.u->h.has_clock || !k->reads_os_clock) ? mintid_lua_gen_now(L, k, c.u) : 0;
    return mintid_lua_push_committed(L, k, c.u, k->state != NULL ? k->state(c.u) : NULL, k->state_bytes,
                                     id_attempt, id_push, &c);
}

/* The :next and :next_value methods of one kind of 16-byte IDs. */
#define ID_GEN_METHODS(name, kind)                                                                           \
    static int name##_next(lua_State *L) { return id_gen_push_next(L, &kind, mintid_lua_push_text); }      \
    static int name##_next_value(lua_State *L) { return id_gen_push_next(L, &kind, mintid_lua_push_value); }

ID_GEN_METHODS(ulid_gen, ulid_gen_kind)
ID_GEN_METHODS(uuid7_gen, uuid7_gen_kind)
ID_GEN_METHODS(uuid4_gen, uuid4_gen_kind)
ID_GEN_METHODS(uuid1_gen, uuid1_gen_kind)
ID_GEN_METHODS(uuid6_gen, uuid6_gen_kind)
ID_GEN_METHODS(ksuid_gen, ksuid_gen_kind)
ID_GEN_METHODS(objectid_gen, objectid_gen_kind)
ID_GEN_METHODS(xid_gen, xid_gen_kind)
ID_GEN_METHODS(relative_gen, relative_gen_kind)

/* The tag of relative_gen:prefix(key) and relative_gen:tag(key). */
static uint32_t relative_gen_key_tag(lua_State *L)
{
    gen_ud *u = mintid_lua_check_gen(L, &relative_gen_kind);
    char keybuf[MINTID_LUA_INT_TEXT_SIZE];
    size_t key_len;
    const uint8_t *key = mintid_lua_check_key(L, 2, keybuf, &key_len);

    mintid_lua_gen_ready(L, &relative_gen_kind, u); /* the key's conversion may allocate */
    return mintid_relative_gen_tag(relative_of(u), key, key_len);
}

static int relative_gen_prefix(lua_State *L)
{
    char out[MINTID_RELATIVE_PREFIX_LEN];

    mintid_relative_prefix(relative_gen_key_tag(L), out);
    lua_pushlstring(L, out, sizeof out);
    /* the push may run a finalizer */
    mintid_lua_gen_check_open(L, &relative_gen_kind, (gen_ud *)lua_touserdata(L, GEN_ARG));
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
    mintid_lua_random_begin(L, &typeid_gen_kind, c->u, GEN_ARG, &r, &fn, &ctx, err);
    c->len = mintid_typeid_gen_next(mintid_uuid7_state_of(uuid7_of(c->u)), c->prefix, c->prefix_len,
                                    c->now_ms, fn, ctx, c->out, err);
    mintid_lua_random_end(L, c->u, &r);
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

    c.u = mintid_lua_check_gen(L, &typeid_gen_kind);
    /* The clock first, as every call of the generator reads it. */
    c.now_ms = mintid_lua_gen_now(L, &typeid_gen_kind, c.u);
    c.prefix = mintid_lua_check_typeid_prefix(L, 2, &c.prefix_len);
    return mintid_lua_push_committed(L, &typeid_gen_kind, c.u, state_uuid7(c.u), sizeof(mintid_monotonic),
                                     typeid_attempt, typeid_push, &c);
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
    return mintid_lua_snowflake_hook_next(L, c->u, (uint64_t *)saved, &c->id, err);
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

    c.u = mintid_lua_check_gen(L, &snowflake_gen_kind);
    c.id = 0;
    return mintid_lua_push_committed(L, &snowflake_gen_kind, c.u,
                                     mintid_snowflake_word(mintid_snowflake_state_of(snowflake_of(c.u))), sizeof c.id,
                                     snowflake_attempt, snowflake_push, &c);
}

/* A Nano ID of spec s, from the random option of the generator u at
 * GEN_ARG if it has one (u NULL: a one-shot call), else from the pool: on
 * the C stack when small, else in a scratch userdata that the GC reclaims
 * even if an error is raised. Inlined in the generator's :next, where u is
 * never NULL and k a constant. */
static MINTID_ALWAYS_INLINE int push_nanoid(lua_State *L, const mintid_nanoid_spec *s, const gen_kind *k,
                                            gen_ud *u)
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
    /* after the allocation, which may run a finalizer */
    mintid_lua_random_begin(L, k, u, GEN_ARG, &c, &fn, &ctx, err);
    err[0] = '\0';
    rc = mintid_nanoid_generate(mintid_nanoid_state_of_const(s), fn, ctx, (uint8_t *)out, err);
    mintid_lua_random_end(L, u, &c);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    lua_pushlstring(L, out, size);
    if (u != NULL)
        mintid_lua_gen_check_open(L, k, u); /* the push may run a finalizer that closes it */
    return 1;
}

int mintid_lua_push_nanoid(lua_State *L, const mintid_nanoid_spec *s, const gen_kind *k, gen_ud *u)
{
    return push_nanoid(L, s, k, u);
}

static int nanoid_gen_next(lua_State *L)
{
    gen_ud *u = mintid_lua_check_gen(L, &nanoid_gen_kind);

    return push_nanoid(L, nanoid_of(u), &nanoid_gen_kind, u);
}

/* ---- CUID2 generators ------------------------------------------------------ */

/* The counter, and a fingerprint not given, are drawn on the first :next
 * (in a forked child, again): a constructor that draws nothing cannot fail
 * half-way, and the child case needs that path anyway. */
static const gen_kind cuid2_gen_kind = {
    .tname = "mintid.CUID2Generator", .state_size = sizeof(mintid_cuid2_gen), .uses_clock = 1, .uses_random = 1
};

static inline mintid_cuid2_state *cuid2_of(gen_ud *u)
{
    return mintid_cuid2_state_of((mintid_cuid2_gen *)mintid_lua_gen_state(u));
}

static int m_cuid2_generator(lua_State *L)
{
    static const char *const known[] = { "clock", "random", "length", "fingerprint", NULL };
    mintid_cuid2_gen g;
    int64_t length;
    size_t fp_len = 0;
    const char *fp = NULL;
    char err[MINTID_ERRMSG_SIZE];

    gen_options(L, known);
    length = opt_int64(L, 4, "length", MINTID_CUID2_DEFAULT_LEN);
    if (!lua_isnil(L, 5))
        fp = opt_string(L, 5, "fingerprint", "", &fp_len);
    err[0] = '\0';
    if (mintid_cuid2_gen_init(&g, length, (const uint8_t *)fp, fp_len, err) != MINTID_OK)
        return luaL_argerror(L, 1, err);
    memcpy(mintid_lua_gen_state(gen_new(L, &cuid2_gen_kind)), &g, sizeof g);
    return 1;
}

typedef struct {
    gen_ud *u;
    int64_t now_ms;
    char out[MINTID_CUID2_MAX_LEN];
    int len;
} cuid2_call;

static int cuid2_attempt(lua_State *L, void *arg, void *saved, char *err)
{
    cuid2_call *c = (cuid2_call *)arg;
    random_ctx r;
    mintid_random_fn fn;
    void *ctx;

    (void)saved;
    mintid_lua_random_begin(L, &cuid2_gen_kind, c->u, GEN_ARG, &r, &fn, &ctx, err);
    c->len = mintid_cuid2_gen_next(cuid2_of(c->u), c->now_ms, fn, ctx, c->out, err);
    mintid_lua_random_end(L, c->u, &r);
    return c->len < 0 ? c->len : MINTID_OK;
}

static void cuid2_push(lua_State *L, void *arg)
{
    cuid2_call *c = (cuid2_call *)arg;

    lua_pushlstring(L, c->out, (size_t)c->len);
}

static int cuid2_gen_next(lua_State *L)
{
    cuid2_call c;

    c.u = mintid_lua_check_gen(L, &cuid2_gen_kind);
    c.now_ms = mintid_lua_gen_now(L, &cuid2_gen_kind, c.u);
    return mintid_lua_push_committed(L, &cuid2_gen_kind, c.u, &cuid2_of(c.u)->m, sizeof(mintid_cuid2_moving),
                                     cuid2_attempt, cuid2_push, &c);
}

static const luaL_Reg cuid2_gen_methods[] = { { "next", cuid2_gen_next }, { NULL, NULL } };

/* ---- the metatables and the module's generator functions ---------------- */

/* Every generator kind shares its __tostring, __gc and __close; all read
 * the kind from upvalue 1. */
static const luaL_Reg gen_meta[] = {
    { "__tostring", gen_tostring }, { "__gc", gen_gc }, { "__close", gen_gc }, { NULL, NULL }
};
/* Each kind of 16-byte IDs has its own :next and :next_value. */
#define ID_GEN_METHOD_TABLE(name) \
    static const luaL_Reg name##_methods[] = { { "next", name##_next }, { "next_value", name##_next_value }, \
                                               { NULL, NULL } };
ID_GEN_METHOD_TABLE(ulid_gen)
ID_GEN_METHOD_TABLE(uuid7_gen)
ID_GEN_METHOD_TABLE(uuid4_gen)
ID_GEN_METHOD_TABLE(uuid1_gen)
ID_GEN_METHOD_TABLE(uuid6_gen)
ID_GEN_METHOD_TABLE(ksuid_gen)
ID_GEN_METHOD_TABLE(objectid_gen)
ID_GEN_METHOD_TABLE(xid_gen)
static const luaL_Reg relative_gen_methods[] = {
    { "next", relative_gen_next }, { "next_value", relative_gen_next_value },
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
    { "ulid_generator", m_ulid_generator, &ulid_gen_kind, ulid_gen_methods },
    { "uuid7_generator", m_uuid7_generator, &uuid7_gen_kind, uuid7_gen_methods },
    { "uuid4_generator", m_uuid4_generator, &uuid4_gen_kind, uuid4_gen_methods },
    { "relative_generator", m_relative_generator, &relative_gen_kind, relative_gen_methods },
    { "snowflake_generator", m_snowflake_generator, &snowflake_gen_kind, snowflake_gen_methods },
    { "nanoid_generator", m_nanoid_generator, &nanoid_gen_kind, nanoid_gen_methods },
    { "uuid1_generator", m_uuid1_generator, &uuid1_gen_kind, uuid1_gen_methods },
    { "uuid6_generator", m_uuid6_generator, &uuid6_gen_kind, uuid6_gen_methods },
    { "ksuid_generator", m_ksuid_generator, &ksuid_gen_kind, ksuid_gen_methods },
    { "objectid_generator", m_objectid_generator, &objectid_gen_kind, objectid_gen_methods },
    { "xid_generator", m_xid_generator, &xid_gen_kind, xid_gen_methods },
    { "typeid_generator", m_typeid_generator, &typeid_gen_kind, typeid_gen_methods },
    { "cuid2_generator", m_cuid2_generator, &cuid2_gen_kind, cuid2_gen_methods },
};

/*
 * A generator kind's two metatables: this module's, registered under its
 * name, and one for the objects of resty.mintid, with the same __name,
 * metamethods and methods in an __index table of its own that
 * resty.mintid fills with its FFI methods; every C function of the kind
 * takes objects of both (mintid_lua_find_gen). Sets module[name] and
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

/* The generator kinds (gen_kinds) in the module table at module; their
 * constructors, metatables and methods for resty.mintid, and the state
 * offset, in the table at ffi. */
void mintid_lua_open_generators(lua_State *L, int module, int ffi)
{
    int new, meta, methods;
    size_t i;

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

    lua_pushinteger(L, (lua_Integer)GEN_STATE_OFFSET);
    lua_setfield(L, ffi, "state_offset");
}
