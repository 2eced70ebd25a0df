/*
 * lua_hooks.c: what a generator call does around the core (lua_hooks.h):
 * the random option as the core's random source and the clock option as
 * its clock, both run so that no Lua error crosses a core frame; the
 * checks that a generator is open and not re-entered, made again after
 * anything that can run Lua code; and the commit of a call's new state
 * only once its ID is in Lua's hands.
 */
#include "lua_hooks.h"

/* Nothing here allocates outside a lua_pcall (a "not enough memory" would
 * cross core frames): the option was pushed before the core ran, and the
 * checks of its result read a type, a length and a flag. The result must
 * be a string of n bytes, and the option must have left its generator open
 * (a closed one must not publish an ID made from its wiped state). Checked
 * here, never in a wrapper of the option: the debug library can replace a
 * user value with anything. */
static int random_from_lua(void *ctx, uint8_t *buf, size_t n)
{
    random_ctx *c = (random_ctx *)ctx;
    lua_State *L = c->L;
    const char *bytes;
    size_t len = 0;

    if (c->raised || c->refused != RANDOM_GOOD)
        return MINTID_ERANDOM;
    lua_pushvalue(L, c->fn);
    lua_pushinteger(L, (lua_Integer)n);
    if (lua_pcall(L, 1, 1, 0) != 0) {
        c->raised = 1;
        return MINTID_ERANDOM;
    }
    c->want = n;
    bytes = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
    if (bytes == NULL) {
        c->refused = RANDOM_NOT_STRING;
        c->got_type = luaL_typename(L, -1);
    } else if (len != n) {
        c->refused = RANDOM_WRONG_LENGTH;
        c->got_len = len;
    } else if (c->h->closed) {
        c->refused = RANDOM_CLOSED;
    } else {
        memcpy(buf, bytes, n);
    }
    lua_pop(L, 1);
    return c->refused == RANDOM_GOOD ? MINTID_OK : MINTID_ERANDOM;
}

/*
 * The random source of one core call of the generator u of kind k at stack
 * index gen: its option if it has one (this function, pushed, so that it
 * lives through the call whatever the option does), else the pool, with
 * err as its ctx to keep the OS's reason (mintid_lua_random_begin, inline).
 * The generator's last check before the core: nothing between it and the
 * core call runs Lua code. From here to mintid_lua_random_end the
 * generator is busy: a call of it from its own random option (which can
 * reach it, even half built in its constructor, through the debug library)
 * raises.
 */
void mintid_lua_random_begin_option(lua_State *L, const gen_kind *k, gen_ud *u, int gen, random_ctx *c,
                                    mintid_random_fn *fn, void **ctx)
{
    c->L = L;
    c->raised = 0;
    c->refused = RANDOM_GOOD;
    c->h = &u->h;
    c->tname = k->tname;
    /* Room for the option, then its copy and n. */
    luaL_checkstack(L, 3, "mintid random");
    compat_getuservalue(L, gen, UV_RANDOM);
    c->fn = lua_gettop(L);
    mintid_lua_gen_ready(L, k, u);
    *fn = random_from_lua;
    *ctx = c;
    u->h.busy = 1;
}

/* After the core call: raises what the option raised, or why its result
 * was refused. */
void mintid_lua_random_end_option(lua_State *L, gen_ud *u, const random_ctx *c)
{
    char want[MINTID_LUA_INT_TEXT_SIZE], got[MINTID_LUA_INT_TEXT_SIZE];

    u->h.busy = 0;
    if (c->raised)
        lua_error(L);
    lua_pop(L, 1);
    if (c->refused == RANDOM_GOOD)
        return;
    mintid_lua_i64str(want, (int64_t)c->want);
    switch (c->refused) {
    case RANDOM_NOT_STRING:
        luaL_error(L, "random(%s) returned %s, want %s bytes", want, c->got_type, want);
        break;
    case RANDOM_WRONG_LENGTH:
        luaL_error(L, "random(%s) returned %s bytes, want %s", want, mintid_lua_i64str(got, (int64_t)c->got_len),
                   want);
        break;
    default: /* RANDOM_CLOSED */
        luaL_error(L, "attempt to use a closed %s", c->tname);
        break;
    }
}

int mintid_lua_clock_failed(lua_State *L, const char *err)
{
    return luaL_error(L, "%s", err[0] != '\0' ? err : mintid_strerror(MINTID_ECLOCK));
}

/* The clock option runs here, before any core call, so it may raise. */
int64_t mintid_lua_hook_now(lua_State *L, const gen_kind *k, const gen_ud *u)
{
    int64_t now = 0;

    /* Whatever ran since the last check (a finalizer at a GC step before
     * this call) may have closed the generator, and taken its clock. */
    mintid_lua_gen_check_open(L, k, u);
    compat_getuservalue(L, GEN_ARG, UV_CLOCK);
    lua_call(L, 0, 1);
    if (!compat_toint64(L, -1, &now))
        luaL_error(L, "clock must return an integer (ms), got %s", mintid_lua_describe(L, -1));
    lua_pop(L, 1);
    /* The clock may have closed its own generator (__gc, __close). */
    mintid_lua_gen_check_open(L, k, u);
    return now;
}

/*
 * Also __close, so it may run twice. Only the generator's own random
 * option can reach it while busy: by hand, or through lua_close when the
 * option calls os.exit(0, true), where refusing would free the key
 * unwiped. So it wipes even then; random_from_lua sees `closed` when the
 * option returns and fails the running call, which never gets to use the
 * wiped key.
 */
void mintid_lua_gen_close(lua_State *L, const gen_kind *k, gen_ud *u, int gen)
{
    if (k->wipe != NULL)
        k->wipe(u);
    /* Let the hooks go now, not when the userdata itself is collected. */
    if (u->h.has_clock) {
        lua_pushnil(L);
        compat_setuservalue(L, gen, UV_CLOCK);
    }
    if (u->h.has_random) {
        lua_pushnil(L);
        compat_setuservalue(L, gen, UV_RANDOM);
    }
    u->h.has_clock = 0;
    u->h.has_random = 0;
    u->h.closed = 1;
}

int mintid_lua_push_tries_spent(lua_State *L, const gen_kind *k)
{
    return luaL_error(L, "%s used by a finalizer during each of %d tries to make its ID", k->tname,
                      MINTID_LUA_PUSH_TRIES);
}

static mintid_snowflake_state *snowflake_state(gen_ud *u)
{
    return mintid_snowflake_state_of((mintid_snowflake_gen *)mintid_lua_gen_state(u));
}

/* The clock option as the core's clock (a mintid_clock_fn): the Lua clock
 * runs under lua_pcall, so its errors never cross core frames; the error
 * stays on the stack and is raised once the core has returned. */
typedef struct {
    lua_State *L;
    int call;          /* stack index of the snowflake_clock_call closure */
    gen_ud *u;
    uint64_t *saved;   /* the state as the clock left it */
    int raised;        /* an error object waits on the stack top */
    int no_reading;    /* the call returned no reading (a hook replaced it) */
} clock_ctx;

/*
 * Under lua_pcall, a closure with the upvalues of the generator's methods:
 * argument 1 is the generator (GEN_ARG, where mintid_lua_hook_now finds it); returns
 * the clock's reading as the 8 bytes of an int64_t. mintid_lua_hook_now checks what
 * the clock returned and that it did not close its own generator. A hook
 * can fetch this function from the stack and call it with anything, so it
 * checks its generator as a method does, and takes no pointer: its caller
 * keeps the call's state in C.
 */
static int snowflake_clock_call(lua_State *L)
{
    const gen_kind *k = mintid_lua_upvalue_gen_kind(L);
    gen_ud *u = mintid_lua_find_gen(L, k);
    int64_t now;

    mintid_lua_gen_check_open(L, k, u);
    if (!u->h.has_clock)
        return luaL_error(L, "%s has no clock option", k->tname);
    now = mintid_lua_hook_now(L, k, u);
    lua_pushlstring(L, (const char *)&now, sizeof now);
    return 1;
}

static int clock_from_lua(void *ctx, int64_t *now_ms, char *err)
{
    clock_ctx *c = (clock_ctx *)ctx;
    lua_State *L = c->L;
    const char *reading;
    size_t len = 0;

    (void)err;
    lua_pushvalue(L, c->call);
    lua_pushvalue(L, GEN_ARG);
    if (lua_pcall(L, 1, 1, 0) != 0) {
        c->raised = 1;
        return MINTID_ECLOCK;
    }
    reading = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
    if (reading == NULL || len != sizeof *now_ms) {
        lua_pop(L, 1);
        c->no_reading = 1;
        return MINTID_ECLOCK;
    }
    memcpy(now_ms, reading, sizeof *now_ms);
    lua_pop(L, 1);
    /* Taken after the clock ran, which could have used this generator. */
    *c->saved = *mintid_snowflake_word(snowflake_state(c->u));
    return MINTID_OK;
}

/* One ID of a Snowflake generator with a clock option: the core's loop
 * (mintid_snowflake_gen_next_on) on the Lua clock. *saved is the state
 * before the attempt that made the ID. */
int mintid_lua_snowflake_hook_next(lua_State *L, gen_ud *u, uint64_t *saved, uint64_t *id, char *err)
{
    clock_ctx c;
    int rc;

    /* Room for the closure's upvalues, then the closure, its copy and its
     * argument; the closure is made before the core runs: nothing the
     * callback does then allocates outside lua_pcall. */
    luaL_checkstack(L, 4, "mintid clock");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, lua_upvalueindex(3));
    lua_pushcclosure(L, snowflake_clock_call, 3);
    c.L = L;
    c.call = lua_gettop(L);
    c.u = u;
    c.saved = saved;
    c.raised = 0;
    c.no_reading = 0;
    rc = mintid_snowflake_gen_next_on(snowflake_state(u), clock_from_lua, &c, id, err);
    if (c.raised)
        lua_error(L);
    lua_pop(L, 1);
    if (c.no_reading)
        return luaL_error(L, "snowflake clock call gave no reading");
    return rc;
}

