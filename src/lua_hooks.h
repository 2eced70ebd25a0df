/*
 * lua_hooks.h: a generator userdata (a header of flags, then the core
 * state of its kind), what tells its kinds apart, and the machinery every
 * call of one goes through (lua_hooks.c): its clock and random options,
 * the checks that it is open and not re-entered, and the commit of its new
 * state once the ID is in Lua's hands.
 */
#ifndef MINTID_LUA_HOOKS_H
#define MINTID_LUA_HOOKS_H

#include "lua_values.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#pragma GCC visibility push(hidden)
#define MINTID_LUA_HOOKS_VISIBILITY_PUSHED 1
#endif

/*
 * The clock and random options are user values of the generator's userdata
 * (UV_CLOCK, UV_RANDOM), never registry references: a registry reference is
 * a root for the collector, so a hook that reaches its own generator (a
 * clock reading a field of the object that holds the generator) would keep
 * both alive forever. The flags say whether they are there, so a generator
 * without hooks never looks at its user values on the hot path.
 */
/* (The lease fence a Snowflake generator mints inside is kept by a weak
 * registry table instead, lua_generators.c: the core state points into it,
 * so the debug library must not be able to let it go.) */
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
        mintid_cuid2_gen cuid2;
        mintid_objectid_gen objectid;
        mintid_xid_gen xid;
    } g;
} gen_layout;

#define GEN_STATE_OFFSET offsetof(gen_layout, g)

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
    int reads_os_clock;       /* make reads the OS clock itself when there is no option */
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

static inline void *mintid_lua_gen_state(gen_ud *u) { return (char *)u + GEN_STATE_OFFSET; }

static inline const gen_kind *mintid_lua_upvalue_gen_kind(lua_State *L)
{
    return (const gen_kind *)lua_touserdata(L, lua_upvalueindex(1));
}

/* Every method and metamethod of a generator takes it as argument 1. */
#define GEN_ARG 1

/*
 * The random option as the core's random source (a mintid_random_fn). It
 * runs under lua_pcall; what it returned is checked in random_from_lua,
 * next to the copy of the bytes, and a refusal is raised by
 * mintid_lua_random_end once the core has returned. No C function of this binding is on the stack for
 * this, and no pointer ever reaches Lua: a hook can fetch anything the
 * stack holds (debug.getlocal) and call it with any arguments.
 */
enum { RANDOM_GOOD, RANDOM_NOT_STRING, RANDOM_WRONG_LENGTH, RANDOM_CLOSED };

typedef struct {
    lua_State *L;
    int fn;     /* stack index of the random option, 0 for the pool */
    int raised; /* an error object waits on the stack top */
    int refused;           /* RANDOM_*: why the option's result was refused */
    const char *got_type;  /* RANDOM_NOT_STRING: its type */
    size_t want, got_len;  /* the n of the refused call; RANDOM_WRONG_LENGTH: the length */
    const gen_hooks *h;
    const char *tname; /* of the generator, for the message of a closed one */
} random_ctx;

/* A closed generator would quietly fall back to the OS clock and random
 * (or, for relative IDs, a wiped key). */
static inline void mintid_lua_gen_check_open(lua_State *L, const gen_kind *k, const gen_ud *u)
{
    if (u->h.closed)
        luaL_error(L, "attempt to use a closed %s", k->tname);
}

/*
 * The generator of kind k at GEN_ARG. Its userdata has one of the kind's
 * two metatables, upvalues 2 and 3 (createmeta): this module's, or the
 * one of the objects resty.mintid serves. One comparison of addresses
 * each instead of luaL_checkudata's registry lookup by name, which stays
 * the way to a non-generator's error message. Two tables are the same
 * table exactly when lua_topointer gives the same address (both are alive
 * here: one on the stack, one an upvalue), and lua_topointer costs half
 * of lua_rawequal, which goes through the general equality of values.
 */
static inline gen_ud *mintid_lua_find_gen(lua_State *L, const gen_kind *k)
{
    gen_ud *u = (gen_ud *)lua_touserdata(L, GEN_ARG);
    const void *mt;
    int same = 0;

    if (u != NULL && lua_getmetatable(L, GEN_ARG)) {
        mt = lua_topointer(L, -1);
        lua_pop(L, 1);
        same = mt == lua_topointer(L, lua_upvalueindex(2)) || mt == lua_topointer(L, lua_upvalueindex(3));
    }
    return same ? u : (gen_ud *)luaL_checkudata(L, GEN_ARG, k->tname);
}

/* Raises unless u may make an ID now. Checked again after anything that
 * may have run Lua code (a hook, a finalizer during an allocation): that
 * code may have closed the generator. A re-entrant call from the
 * generator's own random option would interleave two updates of one
 * state: it raises, as a closed one does. */
static inline void mintid_lua_gen_ready(lua_State *L, const gen_kind *k, const gen_ud *u)
{
    mintid_lua_gen_check_open(L, k, u);
    if (u->h.busy)
        luaL_error(L, "%s called again from its own random function", k->tname);
}

static inline gen_ud *mintid_lua_check_gen(lua_State *L, const gen_kind *k)
{
    gen_ud *u = mintid_lua_find_gen(L, k);

    mintid_lua_gen_ready(L, k, u);
    return u;
}

/* The random source of one core call of the generator u of kind k at
 * stack index gen (u NULL for a one-shot call), its ctx and the err of
 * the call, and, after the core call, what the option raised or why its
 * result was refused. The pool, the common case, is inline: a generator
 * with no random option needs only its last check (lua_hooks.c has why);
 * the option's calls are lua_hooks.c's. */
MINTID_INTERNAL void mintid_lua_random_begin_option(lua_State *L, const gen_kind *k, gen_ud *u, int gen,
                                                    random_ctx *c, mintid_random_fn *fn, void **ctx);
MINTID_INTERNAL void mintid_lua_random_end_option(lua_State *L, gen_ud *u, const random_ctx *c);

static inline void mintid_lua_random_begin(lua_State *L, const gen_kind *k, gen_ud *u, int gen, random_ctx *c,
                                           mintid_random_fn *fn, void **ctx, char *err)
{
    if (u != NULL && u->h.has_random) {
        mintid_lua_random_begin_option(L, k, u, gen, c, fn, ctx);
        return;
    }
    c->fn = 0; /* all mintid_lua_random_end reads of a pool call */
    if (u != NULL)
        mintid_lua_gen_ready(L, k, u);
    *fn = mintid_random_pool;
    *ctx = err;
}

static inline void mintid_lua_random_end(lua_State *L, gen_ud *u, const random_ctx *c)
{
    if (c->fn != 0)
        mintid_lua_random_end_option(L, u, c);
}

/* Raises the OS clock's failure, err (its reason) or the status's words. */
MINTID_INTERNAL int mintid_lua_clock_failed(lua_State *L, const char *err);
/* The OS clock in ms (raises if it fails); inline, as every generator
 * call on the OS clock reads it, and only its failure needs a call. */
static inline int64_t mintid_lua_os_now(lua_State *L)
{
    int64_t now = 0;
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_os_clock_ms(&now, err) != MINTID_OK)
        mintid_lua_clock_failed(L, err);
    return now;
}
/* The clock option's reading (checked, and the generator checked open
 * after it). */
MINTID_INTERNAL int64_t mintid_lua_hook_now(lua_State *L, const gen_kind *k, const gen_ud *u);
/* The time of the generator at GEN_ARG, from its clock option if it has one. */
static inline int64_t mintid_lua_gen_now(lua_State *L, const gen_kind *k, const gen_ud *u)
{
    return u->h.has_clock ? mintid_lua_hook_now(L, k, u) : mintid_lua_os_now(L);
}

/* __gc and __close: wipes a secret, lets the hooks go, marks u closed. */
MINTID_INTERNAL void mintid_lua_gen_close(lua_State *L, const gen_kind *k, gen_ud *u, int gen);

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
 * state that is no longer current, is dropped and made again, but only
 * MINTID_LUA_PUSH_TRIES times in all: a finalizer that mints from it at
 * every collection cycle, in a collector that runs one at every
 * allocation, would otherwise keep this call from ever returning.
 *
 * Inline, so that each caller's state size, attempt and push are
 * constants: the copies and the comparison become a few moves, and the
 * attempt and push direct calls (out of line, memcpy and memcmp of a
 * variable size and two calls through pointers cost more than the work).
 */
#define MINTID_LUA_PUSH_TRIES 4

/* The error of a call whose every try a finalizer spoilt (lua_hooks.c). */
MINTID_INTERNAL int mintid_lua_push_tries_spent(lua_State *L, const gen_kind *k);

static MINTID_ALWAYS_INLINE int mintid_lua_push_committed(lua_State *L, const gen_kind *k, gen_ud *u, void *st,
                                                          size_t size, attempt_fn attempt, push_made_fn push,
                                                          void *arg)
{
    /* room for any such state */
    union {
        mintid_monotonic m; uint64_t snowflake; mintid_uuid_time_state t; mintid_ksuid_state k;
        mintid_cuid2_moving cuid2;
        mintid_objectid_state o; mintid_xid_state x;
    } saved, made;
    char err[MINTID_ERRMSG_SIZE];
    int rc, tries;

    for (tries = 1;; tries++) {
        if (st != NULL)
            memcpy(&saved, st, size);
        err[0] = '\0';
        rc = attempt(L, arg, &saved, err);
        if (rc != MINTID_OK)
            return mintid_lua_fail(L, rc, err);
        if (st == NULL) {
            push(L, arg);
            mintid_lua_gen_check_open(L, k, u); /* a finalizer the push ran closed it */
            return 1;
        }
        memcpy(&made, st, size);
        memcpy(st, &saved, size);
        push(L, arg);
        /* A finalizer the push ran may have closed the generator: it
         * raises then, the state as it was, the ID never returned. */
        mintid_lua_gen_check_open(L, k, u);
        if (memcmp(st, &saved, size) == 0) {
            memcpy(st, &made, size);
            return 1;
        }
        lua_pop(L, 1);
        mintid_lua_gen_check_open(L, k, u);
        if (tries == MINTID_LUA_PUSH_TRIES)
            return mintid_lua_push_tries_spent(L, k);
    }
}
/* One ID of a Snowflake generator with a clock option: the core's wait
 * loop on the Lua clock; *saved is the state before the attempt that made
 * the ID. The caller's upvalues are the generator kind's. */
MINTID_INTERNAL int mintid_lua_snowflake_hook_next(lua_State *L, gen_ud *u, uint64_t *saved, uint64_t *id,
                                                   char *err);

#ifdef MINTID_LUA_HOOKS_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
