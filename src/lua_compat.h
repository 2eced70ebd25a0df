/*
 * lua_compat.h: what lua_mintid.c needs from Lua 5.1, 5.2, 5.3, 5.4 and
 * LuaJIT, included before anything else of Lua. It shims only the calls the
 * binding makes, and carries the two helpers that move 64-bit integers in
 * and out of Lua, where lua_Integer may be 32 bits and numbers may be
 * doubles.
 */
#ifndef MINTID_LUA_COMPAT_H
#define MINTID_LUA_COMPAT_H

#include <stdint.h>

#include "lua.h"
#include "lauxlib.h"

/* PUC Lua 5.1 (and LuaJIT 2.0). LuaJIT 2.1 declares these itself and
 * defines luaL_newlib, which tells it apart. */
#if LUA_VERSION_NUM < 502 && !defined(luaL_newlib)

#define luaL_newlib(L, l) \
    (lua_createtable((L), 0, (int)(sizeof(l) / sizeof((l)[0]) - 1)), luaL_setfuncs((L), (l), 0))

static void luaL_setfuncs(lua_State *L, const luaL_Reg *l, int nup)
{
    luaL_checkstack(L, nup + 1, "too many upvalues");
    for (; l->name != NULL; l++) {
        int i;
        for (i = 0; i < nup; i++)
            lua_pushvalue(L, -nup);
        lua_pushcclosure(L, l->func, nup);
        lua_setfield(L, -(nup + 2), l->name);
    }
    lua_pop(L, nup);
}

static void luaL_setmetatable(lua_State *L, const char *tname)
{
    luaL_getmetatable(L, tname);
    lua_setmetatable(L, -2);
}

static void *luaL_testudata(lua_State *L, int ud, const char *tname)
{
    void *p = lua_touserdata(L, ud);

    if (p == NULL || !lua_getmetatable(L, ud))
        return NULL;
    luaL_getmetatable(L, tname);
    if (!lua_rawequal(L, -1, -2))
        p = NULL;
    lua_pop(L, 2);
    return p;
}

#endif

/* Userdata never need user values here; before 5.4 there is no such thing. */
#if LUA_VERSION_NUM < 504
#define lua_newuserdatauv(L, size, nuv) ((void)(nuv), lua_newuserdata((L), (size)))
#endif

/* Where a Lua integer holds any int64 (5.3 and 5.4 in their default
 * configuration), 64-bit values such as snowflake IDs can be Lua integers. */
#if LUA_VERSION_NUM >= 503 && defined(LUA_MAXINTEGER) && LUA_MAXINTEGER >= INT64_MAX
#define MINTID_LUA_INT64 1
#else
#define MINTID_LUA_INT64 0
#endif

/*
 * The int64 value of the number at idx, if it is a number with an exact
 * integer value that fits (a float such as 3.0 counts, 3.5 does not).
 * Strings are not numbers here: an ID library should not guess at "12".
 */
static int mintid_toint64(lua_State *L, int idx, int64_t *out)
{
    lua_Number x;

    if (lua_type(L, idx) != LUA_TNUMBER)
        return 0;
#if LUA_VERSION_NUM >= 503
    {
        int isint;
        lua_Integer i = lua_tointegerx(L, idx, &isint);
        if (isint) {
            *out = (int64_t)i;
            return 1;
        }
    }
#endif
    /* Below 5.3, or a float beyond a narrow lua_Integer. The bounds are
     * exact powers of two, so the comparisons are exact; NaN fails both. */
    x = lua_tonumber(L, idx);
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
        return 0;
    if ((lua_Number)(int64_t)x != x)
        return 0;
    *out = (int64_t)x;
    return 1;
}

/* mintid_toint64 or a Lua argument error, in the words Lua 5.3 uses. */
static int64_t mintid_checkint64(lua_State *L, int arg)
{
    int64_t v = 0;

    if (!mintid_toint64(L, arg, &v)) {
        if (lua_type(L, arg) == LUA_TNUMBER)
            luaL_argerror(L, arg, "number has no integer representation");
        else
            luaL_argerror(L, arg, lua_pushfstring(L, "integer expected, got %s", luaL_typename(L, arg)));
    }
    return v;
}

/* An integer on 5.3+, a number below (exact up to 2^53, which bounds every
 * timestamp, tag and rand of this library). */
static void mintid_pushint64(lua_State *L, int64_t v)
{
#if LUA_VERSION_NUM >= 503
    if ((int64_t)(lua_Integer)v == v) {
        lua_pushinteger(L, (lua_Integer)v);
        return;
    }
#endif
    lua_pushnumber(L, (lua_Number)v);
}

#endif
