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
 *
 * resty.mintid, the LuaJIT FFI binding, keeps no rule of its own: it takes
 * this module's constructors, checks and errors through mintid._ffi
 * (create_ffi_table) and runs only the hot paths on the objects' own state.
 */
#include "lua_int64.h"

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
    const char *msg = err != NULL && err[0] != '\0' ? err : mintid_strerror(rc);

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

/* ---- values: the ID's bytes in a userdata ------------------------------- */

/* Room for any value's bytes: a TypeID's (typeid_value). */
#define VALUE_MAX_SIZE 80
/* Room for any ID's text: a TypeID's. */
#define TEXT_MAX_LEN MINTID_TYPEID_MAX_TEXT_LEN

typedef struct {
    const char *tname;  /* metatable name */
    const char *name;   /* in messages */
    size_t text_len;
    void (*encode)(const uint8_t *id, char *out);
    int (*decode)(const char *text, size_t len, uint8_t *out, char *err);
    size_t size;        /* bytes of the userdata, compared by __eq */
    size_t bytes_len;   /* what :bytes() returns: the first bytes_len */
    /* Text of a length of its own (TypeID; else NULL: encode, text_len);
     * such values are ordered by their text. */
    size_t (*text)(const uint8_t *v, char out[TEXT_MAX_LEN]);
} value_kind;

static const value_kind ulid_kind = {
    "mintid.ULID", "ULID", MINTID_ULID_TEXT_LEN, mintid_ulid_encode, mintid_ulid_decode, 16, 16, NULL
};
static const value_kind uuid_kind = {
    "mintid.UUID", "UUID", MINTID_UUID_TEXT_LEN, mintid_uuid_encode, mintid_uuid_decode, 16, 16, NULL
};
static const value_kind relative_kind = {
    "mintid.RelativeID", "relative ID", MINTID_RELATIVE_TEXT_LEN, mintid_relative_encode,
    mintid_relative_decode, 16, 16, NULL
};
static const value_kind ksuid_kind = {
    "mintid.KSUID", "KSUID", MINTID_KSUID_TEXT_LEN, mintid_ksuid_encode, mintid_ksuid_decode,
    MINTID_KSUID_BYTES, MINTID_KSUID_BYTES, NULL
};

/* A TypeID value: the UUID first (so :bytes() is its 16 bytes), then the
 * prefix, zero-padded so that __eq compares the whole userdata. */
typedef struct {
    uint8_t id[16];
    uint8_t prefix_len;
    char prefix[MINTID_TYPEID_MAX_PREFIX];
} typeid_value;
typedef char typeid_value_fits[sizeof(typeid_value) <= VALUE_MAX_SIZE ? 1 : -1];

static size_t typeid_text(const uint8_t *v, char out[TEXT_MAX_LEN])
{
    const typeid_value *t = (const typeid_value *)(const void *)v;

    /* The prefix was checked when the value was made. */
    return (size_t)mintid_typeid_encode(t->prefix, t->prefix_len, t->id, out, NULL);
}

static const value_kind typeid_kind = {
    "mintid.TypeID", "TypeID", 0, NULL, NULL, sizeof(typeid_value), 16, typeid_text
};

/* How an ID leaves C: as text or as a value object (push_text, push_value). */
typedef void (*push_id_fn)(lua_State *L, const uint8_t *id, const value_kind *k);

static void push_value(lua_State *L, const uint8_t *id, const value_kind *k)
{
    uint8_t *p = (uint8_t *)compat_newuserdatauv(L, k->size, 0);

    memcpy(p, id, k->size);
    luaL_setmetatable(L, k->tname);
}

static size_t value_text(const uint8_t *id, const value_kind *k, char out[TEXT_MAX_LEN])
{
    if (k->text != NULL)
        return k->text(id, out);
    k->encode(id, out);
    return k->text_len;
}

static inline void push_text(lua_State *L, const uint8_t *id, const value_kind *k)
{
    char text[TEXT_MAX_LEN];
    size_t len = value_text(id, k, text);

    lua_pushlstring(L, text, len);
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

/* SPEC: the timestamp is defined for versions 1, 6 and 7. */
static int push_uuid_time(lua_State *L, const uint8_t *id)
{
    int64_t ms;

    if (mintid_uuid_unix_ms(id, &ms))
        compat_pushint64(L, ms);
    else
        lua_pushnil(L);
    return 1;
}

static int uuid_time(lua_State *L) { return push_uuid_time(L, check_value(L, 1, &uuid_kind)); }

static int uuid_variant(lua_State *L)
{
    lua_pushstring(L, mintid_uuid_variant_name(mintid_uuid_variant(check_value(L, 1, &uuid_kind))));
    return 1;
}

static int ksuid_payload(lua_State *L)
{
    lua_pushlstring(L, (const char *)check_value(L, 1, &ksuid_kind) + 4, 16);
    return 1;
}

static int ksuid_time(lua_State *L)
{
    compat_pushint64(L, mintid_ksuid_time(check_value(L, 1, &ksuid_kind)) * 1000);
    return 1;
}

static const typeid_value *check_typeid(lua_State *L)
{
    return (const typeid_value *)(const void *)check_value(L, 1, &typeid_kind);
}

static int typeid_prefix(lua_State *L)
{
    const typeid_value *t = check_typeid(L);

    lua_pushlstring(L, t->prefix, t->prefix_len);
    return 1;
}

static int typeid_uuid(lua_State *L)
{
    push_value(L, check_typeid(L)->id, &uuid_kind);
    return 1;
}

static int typeid_time(lua_State *L) { return push_uuid_time(L, check_typeid(L)->id); }

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
    .value = &ulid_kind, .make = make_ulid, .state = state_ulid, .state_bytes = sizeof(mintid_monotonic)
};
static const gen_kind uuid7_gen_kind = {
    .tname = "mintid.UUID7Generator", .state_size = sizeof(mintid_uuid7_gen), .uses_clock = 1, .uses_random = 1, .init = init_uuid7,
    .value = &uuid_kind, .make = make_uuid7, .state = state_uuid7, .state_bytes = sizeof(mintid_monotonic)
};
/* The constructor fills the state (a draw of node and clock_seq). */
static const gen_kind uuid1_gen_kind = {
    .tname = "mintid.UUID1Generator", .state_size = sizeof(mintid_uuid_time_gen), .uses_clock = 1, .uses_random = 1,
    .value = &uuid_kind, .make = make_uuid_time, .state = state_uuid_time, .state_bytes = sizeof(mintid_uuid_time_state)
};
static const gen_kind uuid6_gen_kind = {
    .tname = "mintid.UUID6Generator", .state_size = sizeof(mintid_uuid_time_gen), .uses_clock = 1, .uses_random = 1,
    .value = &uuid_kind, .make = make_uuid_time, .state = state_uuid_time, .state_bytes = sizeof(mintid_uuid_time_state)
};
static const gen_kind ksuid_gen_kind = {
    .tname = "mintid.KSUIDGenerator", .state_size = sizeof(mintid_ksuid_gen), .uses_clock = 1, .uses_random = 1, .init = init_ksuid,
    .value = &ksuid_kind, .make = make_ksuid, .state = state_ksuid, .state_bytes = sizeof(mintid_ksuid_state)
};
/* TypeIDs: a UUIDv7 state; :next(prefix) is its own (typeid_gen_next). */
static const gen_kind typeid_gen_kind = {
    .tname = "mintid.TypeIDGenerator", .state_size = sizeof(mintid_uuid7_gen), .uses_clock = 1, .uses_random = 1,
    .init = init_uuid7, .state = state_uuid7, .state_bytes = sizeof(mintid_monotonic)
};
static const gen_kind uuid4_gen_kind = {
    .tname = "mintid.UUID4Generator", .uses_random = 1,
    .value = &uuid_kind, .make = make_uuid4
};
static const gen_kind relative_gen_kind = {
    .tname = "mintid.RelativeGenerator", .state_size = sizeof(mintid_relative_gen),
    .uses_clock = 1, .uses_random = 1, .wipe = wipe_relative,
    .value = &relative_kind, .takes_key = 1, .make = make_relative, .state = state_relative,
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
    int fn;     /* stack index of the random option, 0 for the pool */
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
 * Under lua_pcall, as the option itself: raises unless the random option's
 * result (argument 1) is a string of n (argument 2) bytes, else returns it.
 * Checked here, next to the copy of the bytes, never in a wrapper of the
 * option: the debug library can replace a user value with anything.
 */
static int random_check_result(lua_State *L)
{
    size_t n = (size_t)lua_tointeger(L, 2), len;
    char want[24], got[24];

    i64str(want, (int64_t)n);
    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_error(L, "random(%s) returned %s, want %s bytes", want, luaL_typename(L, 1), want);
    lua_tolstring(L, 1, &len);
    if (len != n)
        return luaL_error(L, "random(%s) returned %s bytes, want %s", want, i64str(got, (int64_t)len), want);
    lua_settop(L, 1);
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
    /* pushfstring may raise "not enough memory": pushed under a pcall of
     * its own, as the option's call itself ran. */
    lua_pushcfunction(L, random_check_result);
    lua_insert(L, -2);
    lua_pushinteger(L, (lua_Integer)n);
    if (lua_pcall(L, 2, 1, 0) != 0) {
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
    memcpy(buf, lua_tostring(L, -1), n); /* length checked by random_check_result */
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
        /* Room for the function, its copy, n, the result and its check. */
        luaL_checkstack(L, 5, "mintid random");
        compat_getuservalue(L, GEN_ARG, UV_RANDOM);
        c->fn = lua_gettop(L);
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
        return opt_error(L, "0..16383", "clock_seq", describe_non_integer(L, 5));
    u = gen_new(L, k);
    c.L = L;
    c.fn = lua_isnil(L, 3) ? 0 : 3;
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
        return fail(L, rc, err);
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
        return fail(L, rc, err);
    push_text(L, id, k);
    return 1;
}

static int m_ulid(lua_State *L) { return push_default_id(L, mintid_default_ulid, &ulid_kind); }
static int m_uuid7(lua_State *L) { return push_default_id(L, mintid_default_uuid7, &uuid_kind); }
static int m_uuid4(lua_State *L) { return push_default_id(L, mintid_default_uuid4, &uuid_kind); }
static int m_uuid1(lua_State *L) { return push_default_id(L, mintid_default_uuid1, &uuid_kind); }
static int m_uuid6(lua_State *L) { return push_default_id(L, mintid_default_uuid6, &uuid_kind); }
static int m_ksuid(lua_State *L) { return push_default_id(L, mintid_default_ksuid, &ksuid_kind); }

/* A TypeID prefix at arg: a string the TypeID rules accept, else raised. */
static const char *check_typeid_prefix(lua_State *L, int arg, size_t *len)
{
    const char *prefix = check_text(L, arg, len);
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_typeid_check_prefix(prefix, *len, MINTID_EARG, err) != MINTID_OK)
        luaL_argerror(L, arg, err);
    return prefix;
}

/* mintid.typeid(prefix): over the default UUIDv7 generator. */
static int m_typeid(lua_State *L)
{
    size_t len;
    const char *prefix = check_typeid_prefix(L, 1, &len);
    char out[MINTID_TYPEID_MAX_TEXT_LEN], err[MINTID_ERRMSG_SIZE];
    int n;

    err[0] = '\0';
    n = mintid_typeid_text(prefix, len, out, err);
    if (n < 0)
        return fail(L, n, err);
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
            return fail(L, rc, err);
        if (st == NULL) {
            push(L, arg);
            return 1;
        }
        memcpy(&made, st, size);
        memcpy(st, &saved, size);
        push(L, arg);
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
        c.a.key = check_key(L, 2, keybuf, &c.a.key_len);
    c.a.now_ms = c.k->uses_clock ? gen_now(L, c.k, c.u) : 0;
    return push_committed(L, c.k, c.u, c.k->state != NULL ? c.k->state(c.u) : NULL,
                          c.k->state_bytes, id_attempt, id_push, &c);
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

    gen_ready(L, &relative_gen_kind, u); /* the key's conversion may allocate */
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
    c.prefix = check_typeid_prefix(L, 2, &c.prefix_len);
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
        return fail(L, rc, err);
    lua_pushlstring(L, out, size);
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
    alphabet = check_text(L, 2, &alen);
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

/* ---- parsing and building values ---------------------------------------- */

/* Text of kind `from` at argument 1, pushed as `to` (the same kind for the
 * parse_* calls; the other text form for ulid_to_uuid, uuid_to_ulid). */
static int reparse(lua_State *L, const value_kind *from, const value_kind *to, push_id_fn push)
{
    size_t len;
    const char *text = check_text(L, 1, &len);
    uint8_t id[MINTID_KSUID_BYTES]; /* the largest */
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
static int m_parse_ksuid(lua_State *L) { return reparse(L, &ksuid_kind, &ksuid_kind, push_value); }

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

    if (len != k->size) {
        snprintf(err, sizeof err, "invalid %s bytes: length %zu, want %zu", k->name, len, k->size);
        return fail_msg(L, err);
    }
    push_value(L, (const uint8_t *)b, k);
    return 1;
}

static int m_ulid_from_bytes(lua_State *L) { return from_bytes(L, &ulid_kind); }
static int m_uuid_from_bytes(lua_State *L) { return from_bytes(L, &uuid_kind); }
static int m_ksuid_from_bytes(lua_State *L) { return from_bytes(L, &ksuid_kind); }

/* ksuid_from(unix_seconds, payload16) */
static int m_ksuid_from(lua_State *L)
{
    int64_t seconds = compat_checkint64(L, 1);
    size_t len;
    const char *payload = check_text(L, 2, &len);
    uint8_t id[MINTID_KSUID_BYTES];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    if (len != 16) {
        snprintf(err, sizeof err, "KSUID payload must be 16 bytes, got %zu", len);
        return fail_msg(L, err);
    }
    err[0] = '\0';
    rc = mintid_ksuid_from_parts(seconds, (const uint8_t *)payload, id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    push_value(L, id, &ksuid_kind);
    return 1;
}

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
    v = (const uint8_t *)luaL_testudata(L, arg, uuid_kind.tname);
    if (v == NULL)
        return luaL_argerror(L, arg, lua_pushfstring(L, "UUID text or value expected, got %s",
                                                     luaL_typename(L, arg)));
    memcpy(id, v, 16);
    return MINTID_OK;
}


/* uuid3, uuid5, uuid8_sha256(namespace, name) */
static int name_uuid(lua_State *L, mintid_name_uuid_fn make)
{
    uint8_t ns[16], id[16];
    char err[MINTID_ERRMSG_SIZE];
    size_t len;
    const char *name;
    int rc = check_uuid_arg(L, 1, ns, err);

    name = check_text(L, 2, &len);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    make(ns, (const uint8_t *)name, len, id);
    push_text(L, id, &uuid_kind);
    return 1;
}

static int m_uuid3(lua_State *L) { return name_uuid(L, mintid_uuid3); }
static int m_uuid5(lua_State *L) { return name_uuid(L, mintid_uuid5); }
static int m_uuid8_sha256(lua_State *L) { return name_uuid(L, mintid_uuid8_sha256); }

static int m_uuid8(lua_State *L)
{
    size_t len;
    const char *b = check_text(L, 1, &len);
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];

    if (len != 16) {
        snprintf(err, sizeof err, "invalid UUIDv8 bytes: length %zu, want 16", len);
        return fail_msg(L, err);
    }
    mintid_uuid8((const uint8_t *)b, id);
    push_text(L, id, &uuid_kind);
    return 1;
}

/* uuid1_to_uuid6(text), uuid6_to_uuid1(text) */
static int convert_uuid(lua_State *L, int (*to_other)(const uint8_t in[16], uint8_t out[16], char *err))
{
    size_t len;
    const char *text = check_text(L, 1, &len);
    uint8_t in[16], out[16];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_uuid_decode(text, len, in, err);
    if (rc == MINTID_OK)
        rc = to_other(in, out, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    push_text(L, out, &uuid_kind);
    return 1;
}

static int m_uuid1_to_uuid6(lua_State *L) { return convert_uuid(L, mintid_uuid1_to_uuid6); }
static int m_uuid6_to_uuid1(lua_State *L) { return convert_uuid(L, mintid_uuid6_to_uuid1); }

static int m_parse_typeid(lua_State *L)
{
    size_t len, prefix_len = 0;
    const char *text = check_text(L, 1, &len);
    typeid_value v;
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    memset(&v, 0, sizeof v);
    err[0] = '\0';
    rc = mintid_typeid_decode(text, len, &prefix_len, v.id, err);
    if (rc != MINTID_OK)
        return fail(L, rc, err);
    v.prefix_len = (uint8_t)prefix_len;
    memcpy(v.prefix, text, prefix_len);
    push_value(L, (const uint8_t *)&v, &typeid_kind);
    return 1;
}

/* typeid_from(prefix, uuid): text */
static int m_typeid_from(lua_State *L)
{
    size_t prefix_len;
    const char *prefix = check_typeid_prefix(L, 1, &prefix_len);
    uint8_t id[16];
    char out[MINTID_TYPEID_MAX_TEXT_LEN], err[MINTID_ERRMSG_SIZE];
    int rc = check_uuid_arg(L, 2, id, err);

    if (rc != MINTID_OK)
        return fail(L, rc, err);
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

/* ---- what resty.mintid needs (mintid._ffi) ------------------------------ */

/*
 * _ffi.new_values(value, n, t): t[1..n] = n new values of value's kind, all
 * zero bytes. resty.mintid's FFI path decodes an ID straight into the 16
 * bytes of such a value (LuaJIT hands a userdata's payload to the FFI as a
 * pointer): one Lua C API call then serves n parses, and the value is this
 * module's own, with its metatable and methods.
 */
static int ffi_new_values(lua_State *L)
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

/* _ffi.fail(rc, message): what this module's functions do with the status
 * rc of a core call and its message ("" for the status's own words), for
 * resty.mintid to tail-call, so that a raised error names the same place. */
static int ffi_fail(lua_State *L)
{
    return fail(L, (int)luaL_checkinteger(L, 1), luaL_optstring(L, 2, ""));
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
    { "variant", uuid_variant }, { NULL, NULL }
};
static const luaL_Reg ksuid_methods[] = {
    { "bytes", value_bytes }, { "time", ksuid_time }, { "payload", ksuid_payload }, { NULL, NULL }
};
static const luaL_Reg typeid_methods[] = {
    { "bytes", value_bytes }, { "time", typeid_time }, { "prefix", typeid_prefix }, { "uuid", typeid_uuid },
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

static const luaL_Reg module_funcs[] = {
    { "ulid", m_ulid },
    { "uuid4", m_uuid4 },
    { "uuid7", m_uuid7 },
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
    { "uuid1", m_uuid1 },
    { "uuid6", m_uuid6 },
    { "uuid3", m_uuid3 },
    { "uuid5", m_uuid5 },
    { "uuid8_sha256", m_uuid8_sha256 },
    { "uuid8", m_uuid8 },
    { "uuid1_to_uuid6", m_uuid1_to_uuid6 },
    { "uuid6_to_uuid1", m_uuid6_to_uuid1 },
    { "ksuid", m_ksuid },
    { "parse_ksuid", m_parse_ksuid },
    { "ksuid_from", m_ksuid_from },
    { "ksuid_from_bytes", m_ksuid_from_bytes },
    { "typeid", m_typeid },
    { "parse_typeid", m_parse_typeid },
    { "typeid_from", m_typeid_from },
    { NULL, NULL }
};

static const luaL_Reg ffi_funcs[] = { { "fail", ffi_fail }, { "new_values", ffi_new_values }, { NULL, NULL } };

/* Lua has no const light userdata; the kinds are only ever read. Pushes
 * the kind and the metatables at mt and ffi_mt (absolute indexes; ffi_mt
 * 0: the value kinds have one), the upvalues of every function of a kind. */
static void push_kind_upvalues(lua_State *L, const void *kind, int mt, int ffi_mt)
{
    lua_pushlightuserdata(L, (void *)kind);
    lua_pushvalue(L, mt);
    if (ffi_mt != 0)
        lua_pushvalue(L, ffi_mt);
}

/* The metatable at target gets meta, and a new __index table with methods,
 * all with the upvalues of push_kind_upvalues. */
static void fill_meta(lua_State *L, int target, const void *kind, int mt, int ffi_mt,
                      const luaL_Reg *meta, const luaL_Reg *methods)
{
    int nup = ffi_mt != 0 ? 3 : 2;

    lua_pushvalue(L, target);
    push_kind_upvalues(L, kind, mt, ffi_mt);
    luaL_setfuncs(L, meta, nup);
    lua_newtable(L);
    push_kind_upvalues(L, kind, mt, ffi_mt);
    luaL_setfuncs(L, methods, nup);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
}

static void create_value_meta(lua_State *L, const value_kind *k, const luaL_Reg *methods)
{
    luaL_newmetatable(L, k->tname);
    fill_meta(L, lua_gettop(L), k, lua_gettop(L), 0, value_meta, methods);
    lua_pop(L, 1);
}

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
    fill_meta(L, mt, gen_kinds[i].kind, mt, ffi_mt, gen_meta, gen_kinds[i].methods);
    fill_meta(L, ffi_mt, gen_kinds[i].kind, mt, ffi_mt, gen_meta, gen_kinds[i].methods);
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

/* mintid._ffi: what resty.mintid takes from this module, so that it keeps
 * no rule of its own; not a name for other callers. */
static void create_ffi_table(lua_State *L, int module, int def)
{
    int ffi, new, meta, methods;
    size_t i;

    luaL_newlib(L, ffi_funcs);
    ffi = lua_gettop(L);
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
    lua_pushvalue(L, def);
    lua_setfield(L, ffi, "nanoid_default");
    lua_pushvalue(L, def);
    lua_pushcclosure(L, ffi_nanoid_spec, 1);
    lua_setfield(L, ffi, "nanoid_spec");
    lua_pushinteger(L, (lua_Integer)GEN_STATE_OFFSET);
    lua_setfield(L, ffi, "state_offset");
    compat_pushint64(L, MINTID_LUA_MAX_EXACT);
    lua_setfield(L, ffi, "max_exact");
    lua_setfield(L, module, "_ffi");
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
        push_text(L, constants[i].id, &uuid_kind);
        lua_setfield(L, module, constants[i].name);
    }
}

MINTID_API int luaopen_mintid(lua_State *L)
{
    mintid_nanoid_spec *def;
    char err[MINTID_ERRMSG_SIZE];
    int module;

    create_value_meta(L, &ulid_kind, ulid_methods);
    create_value_meta(L, &uuid_kind, uuid_methods);
    create_value_meta(L, &relative_kind, relative_methods);
    create_value_meta(L, &ksuid_kind, ksuid_methods);
    create_value_meta(L, &typeid_kind, typeid_methods);

    luaL_newlib(L, module_funcs);
    module = lua_gettop(L);

    def = (mintid_nanoid_spec *)compat_newuserdatauv(L, sizeof *def, 0);
    err[0] = '\0';
    if (mintid_nanoid_spec_init(def, (const uint8_t *)mintid_nanoid_default_alphabet, 64,
                                MINTID_NANOID_DEFAULT_SIZE, err) != MINTID_OK)
        return luaL_error(L, "mintid: %s", err);
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, m_nanoid, 1);
    lua_setfield(L, module, "nanoid");
    create_ffi_table(L, module, lua_gettop(L));
    lua_pop(L, 1);

    lua_pushliteral(L, MINTID_VERSION);
    lua_setfield(L, module, "_VERSION");
    push_uuid_constants(L, module);

    compat_cdata_keep(L);
    return 1;
}
