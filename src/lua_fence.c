/*
 * lua_fence.c: the binding's lease fence (fence.c), the userdata a lease
 * object keeps as its field _fence and a Snowflake generator made with
 * `lease = l` mints inside: mintid._lease_fence() -> f, with f:hold,
 * f:drop, f:machine_id, f:state and f:clock. Durations are seconds, as in ngx.
 */
#include "lua_fence.h"

#include <math.h> /* HUGE_VAL */

#define FENCE_TNAME "mintid.LeaseFence"

/* A fence userdata holds the core's fence and nothing else: no __gc, no
 * user value. Its generators point into it; registry tables of weak keys
 * (mintid_lua_push_weak_keys) keep it for as long as any of them lives,
 * and its anchor for as long as it lives. */
static mintid_fence *check_fence(lua_State *L)
{
    return (mintid_fence *)luaL_checkudata(L, 1, FENCE_TNAME);
}

mintid_fence *mintid_lua_to_fence(lua_State *L, int idx)
{
    return (mintid_fence *)luaL_testudata(L, idx, FENCE_TNAME);
}

/* mintid._lease_fence([layout]): a layout given binds the fence to it (a
 * lease's); else the first generator made on it does. */
static int new_fence(lua_State *L)
{
    mintid_snowflake_layout layout;
    mintid_fence *f;
    int given = !lua_isnoneornil(L, 1);

    if (given)
        mintid_lua_check_layout(L, 1, 1, &layout);
    f = (mintid_fence *)compat_newuserdatauv(L, sizeof *f, 0);
    mintid_fence_init(f);
    if (given)
        (void)mintid_fence_bind_layout(f, &layout, NULL); /* a new fence takes any */
    luaL_setmetatable(L, FENCE_TNAME);
    return 1;
}

/* Seconds to ms, rounded down so that a deadline is never later than the
 * lease allows; math.huge (or past int64) is no deadline. */
static int64_t check_valid_for(lua_State *L, int arg)
{
    lua_Number s = luaL_checknumber(L, arg);

    if (!(s >= 0))
        luaL_argerror(L, arg, lua_pushfstring(L, "valid_for must be >= 0 seconds, got %s",
                                              mintid_lua_describe(L, arg)));
    if (s * 1000 >= 9223372036854775807.0)
        return MINTID_FENCE_FOREVER;
    return (int64_t)(s * 1000); /* truncation: the floor of a number >= 0 */
}

/* The anchors of fences: registry[ANCHORS_KEY][fence] = what holds its id
 * (a lock file's handle, whose collection would free the lock), so that
 * it lives as long as the fence and so as any generator on it, whatever
 * becomes of the lease object or of any user value. */
#define ANCHORS_KEY "mintid.fence_anchors"

/* The anchor table at the top, fence at 1: its entry set to the value at
 * val (0: nil). Setting an existing key never allocates. */
static void set_anchor(lua_State *L, int val)
{
    lua_pushvalue(L, 1);
    if (val != 0)
        lua_pushvalue(L, val);
    else
        lua_pushnil(L);
    lua_rawset(L, -3);
}

/* f:hold(machine_id, valid_for_s, floor_ms [, anchor [, last_ms]]) ->
 * true. anchor, if given, is kept alive by the fence until the next hold
 * or drop; last_ms (nil: none) bounds the units minted from above. */
static int fence_hold(lua_State *L)
{
    mintid_fence *f = check_fence(L);
    int64_t machine_id = compat_checkint64(L, 2);
    int64_t valid_for = check_valid_for(L, 3);
    int64_t floor_ms = compat_checkint64(L, 4);
    int64_t last_ms = lua_isnoneornil(L, 6) ? MINTID_FENCE_FOREVER : compat_checkint64(L, 6);
    char err[MINTID_ERRMSG_SIZE];

    lua_settop(L, 5);
    /* The anchor set before the hold, the old one kept (at 7) for a
     * refused hold: a memory error never leaves a held fence unanchored. */
    mintid_lua_push_weak_keys(L, ANCHORS_KEY); /* at 6 */
    lua_pushvalue(L, 1);
    lua_rawget(L, 6);
    lua_pushvalue(L, 6);
    set_anchor(L, 5);
    lua_pop(L, 1);
    err[0] = '\0';
    /* valid_for was checked above: a refusal is of machine_id, floor_ms
     * or last_ms. */
    if (mintid_fence_hold_until(f, machine_id, valid_for, floor_ms, last_ms, err) != MINTID_OK) {
        lua_pushvalue(L, 6);
        set_anchor(L, 7);
        return luaL_argerror(L, strncmp(err, "machine_id", 10) == 0 ? 2 : strncmp(err, "floor_ms", 8) == 0 ? 4 : 6,
                             err);
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* f:drop(reason): "released" or "lost" -> true */
static int fence_drop(lua_State *L)
{
    static const char *const reasons[] = { "released", "lost", NULL };
    static const int codes[] = { MINTID_FENCE_RELEASED, MINTID_FENCE_LOST };
    mintid_fence *f = check_fence(L);
    int i = luaL_checkoption(L, 2, NULL, reasons);

    mintid_fence_drop(f, codes[i], NULL);
    mintid_lua_push_weak_keys(L, ANCHORS_KEY);
    set_anchor(L, 0);
    lua_pushboolean(L, 1);
    return 1;
}

/* f:machine_id() -> the id while held inside the deadline here, or nil */
static int fence_machine_id(lua_State *L)
{
    int64_t id = mintid_fence_machine_id(check_fence(L));

    if (id < 0)
        lua_pushnil(L);
    else
        compat_pushint64(L, id);
    return 1;
}

/* f:layout() -> the normalized table of the fence's layout, and its
 * fingerprint "T/U/M/S/E/order" (what a lease's store keeps) */
static int fence_layout(lua_State *L)
{
    mintid_snowflake_layout layout;
    char fp[MINTID_SNOWFLAKE_FINGERPRINT_MAX];

    mintid_fence_layout(check_fence(L), &layout);
    mintid_lua_push_layout(L, &layout);
    lua_pushlstring(L, fp, mintid_snowflake_layout_fingerprint(&layout, fp));
    return 2;
}

/* f:state() -> name [, seconds left to the deadline (math.huge: none)] */
static int fence_state(lua_State *L)
{
    int64_t left = 0;
    int s = mintid_fence_state_now(check_fence(L), &left);

    lua_pushstring(L, mintid_fence_state_name(s));
    if (s != MINTID_FENCE_HELD && s != MINTID_FENCE_WAITING)
        return 1;
    lua_pushnumber(L, left == MINTID_FENCE_FOREVER ? (lua_Number)HUGE_VAL : (lua_Number)left / 1000);
    return 2;
}

/* Seconds on the deadlines' monotonic clock: what a lease reads before it
 * sends a renewal (its validity counts from then). */
static int fence_clock(lua_State *L)
{
    check_fence(L);
    lua_pushnumber(L, (lua_Number)mintid_fence_clock_ms() / 1000);
    return 1;
}

static int fence_tostring(lua_State *L)
{
    mintid_fence *f = check_fence(L);
    int64_t id = mintid_fence_machine_id(f);
    char buf[MINTID_LUA_INT_TEXT_SIZE];

    if (id < 0)
        lua_pushfstring(L, FENCE_TNAME " (%s)", mintid_fence_state_name(mintid_fence_state_now(f, NULL)));
    else
        lua_pushfstring(L, FENCE_TNAME " (%s, machine_id %s)",
                        mintid_fence_state_name(mintid_fence_state_now(f, NULL)), mintid_lua_i64str(buf, id));
    return 1;
}

void mintid_lua_open_fence(lua_State *L, int module)
{
    static const luaL_Reg meta[] = { { "__tostring", fence_tostring }, { NULL, NULL } };
    static const luaL_Reg methods[] = {
        { "hold", fence_hold }, { "drop", fence_drop }, { "machine_id", fence_machine_id },
        { "state", fence_state }, { "clock", fence_clock }, { "layout", fence_layout }, { NULL, NULL }
    };

    mintid_lua_new_class(L, module, FENCE_TNAME, meta, methods, "_lease_fence", new_fence);
}
