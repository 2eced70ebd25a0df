/*
 * lua_compat.h: what lua_mintid.c needs from Lua 5.1, 5.2, 5.3, 5.4, 5.5
 * and LuaJIT, included before anything else of Lua: the calls the binding
 * makes that older versions lack, and user values of userdata (built into
 * 5.4 and 5.5). None of 5.5's API changes (its manual, "Incompatibilities
 * with the previous version") touches a call the binding makes: it builds
 * on 5.5 as on 5.4. 64-bit integers are lua_int64.h's. Its helpers are
 * static inline and prefixed compat_, so they read apart from the core's
 * mintid_ ABI.
 */
#ifndef MINTID_LUA_COMPAT_H
#define MINTID_LUA_COMPAT_H

#include "lua.h"
#include "lauxlib.h"

/* PUC Lua 5.1 (and LuaJIT 2.0). LuaJIT 2.1 declares these itself and
 * defines luaL_newlib, which tells it apart. */
#if LUA_VERSION_NUM < 502 && !defined(luaL_newlib)

#define luaL_newlib(L, l) \
    (lua_createtable((L), 0, (int)(sizeof(l) / sizeof((l)[0]) - 1)), luaL_setfuncs((L), (l), 0))

static inline void luaL_setfuncs(lua_State *L, const luaL_Reg *l, int nup)
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

static inline void luaL_setmetatable(lua_State *L, const char *tname)
{
    luaL_getmetatable(L, tname);
    lua_setmetatable(L, -2);
}

static inline void *luaL_testudata(lua_State *L, int ud, const char *tname)
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

/* A state with the allocator f (for the tests that embed Lua: the binding
 * never makes one): 5.5 also takes the seed of its string hashes. */
#if LUA_VERSION_NUM >= 505
#define compat_newstate(f, ud) lua_newstate((f), (ud), luaL_makeseed(NULL))
#else
#define compat_newstate(f, ud) lua_newstate((f), (ud))
#endif

/*
 * User values: Lua values that a full userdata keeps alive, numbered from 1.
 * Unlike a registry reference, which the collector treats as a root, a user
 * value dies with its userdata, so a function held there may refer back to
 * the userdata without keeping it alive forever. 5.4 has them built in;
 * below, they are the fields 1..nuv of a table that is the userdata's one
 * uservalue (5.2, 5.3) or its environment (5.1, LuaJIT), made here.
 *
 * Set and get only user values 1..nuv of a userdata that
 * compat_newuserdatauv made: on 5.1 any other userdata's environment is a
 * table too (the globals, most likely), which compat_setuservalue would write.
 */
static inline void *compat_newuserdatauv(lua_State *L, size_t size, int nuv)
{
#if LUA_VERSION_NUM >= 504
    return lua_newuserdatauv(L, size, nuv);
#else
    void *p = lua_newuserdata(L, size);

    if (nuv > 0) {
        lua_createtable(L, nuv, 0);
#if LUA_VERSION_NUM >= 502
        lua_setuservalue(L, -2);
#else
        lua_setfenv(L, -2);
#endif
    }
    return p;
#endif
}

#if LUA_VERSION_NUM < 504
/* Pushes the table of user values of the userdata at idx. */
static inline void compat_pushuservalues(lua_State *L, int idx)
{
#if LUA_VERSION_NUM >= 502
    lua_getuservalue(L, idx);
#else
    lua_getfenv(L, idx);
#endif
}
#endif

/* Pops a value and makes it user value n of the userdata at idx. */
static inline void compat_setuservalue(lua_State *L, int idx, int n)
{
#if LUA_VERSION_NUM >= 504
    lua_setiuservalue(L, idx, n);
#else
    if (idx < 0 && idx > LUA_REGISTRYINDEX)
        idx = lua_gettop(L) + idx + 1; /* the table is pushed below */
    compat_pushuservalues(L, idx);
    lua_insert(L, -2);
    lua_rawseti(L, -2, n);
    lua_pop(L, 1);
#endif
}

/* Pushes user value n of the userdata at idx. */
static inline void compat_getuservalue(lua_State *L, int idx, int n)
{
#if LUA_VERSION_NUM >= 504
    lua_getiuservalue(L, idx, n);
#else
    compat_pushuservalues(L, idx);
    lua_rawgeti(L, -1, n);
    lua_remove(L, -2);
#endif
}

#endif
