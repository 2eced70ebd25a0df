/*
 * lua_compat.h: what lua_mintid.c needs from Lua 5.1, 5.2, 5.3, 5.4 and
 * LuaJIT, included before anything else of Lua. It shims only the calls the
 * binding makes, carries user values of userdata (built into 5.4 only),
 * and the helpers that move 64-bit integers in and out of Lua, where
 * lua_Integer may be 32 bits and numbers may be doubles. Its helpers are
 * static inline and prefixed compat_, so they read apart from the core's
 * mintid_ ABI.
 */
#ifndef MINTID_LUA_COMPAT_H
#define MINTID_LUA_COMPAT_H

#include <stdint.h>
#include <string.h>

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

/* Where a Lua integer holds any int64 (5.3 and 5.4 in their default
 * configuration), 64-bit values such as snowflake IDs can be Lua integers. */
#if LUA_VERSION_NUM >= 503 && defined(LUA_MAXINTEGER) && LUA_MAXINTEGER >= INT64_MAX
#define MINTID_LUA_INT64 1
#else
#define MINTID_LUA_INT64 0
#endif

/* lua_type of a LuaJIT cdata; no PUC Lua has a type 10. */
#define MINTID_LUA_TCDATA 10
/* Registry field holding the tostring of the state that opened the module. */
#define MINTID_TOSTRING_KEY "mintid.tostring"
/* '-', 20 digits and the NUL */
#define MINTID_CDATA_DIGITS_SIZE 24

/*
 * The decimal digits (with '-' if negative) of a LuaJIT int64_t or uint64_t
 * cdata at idx, written to buf, or NULL for any other value. The C API
 * cannot see a ctype, but tostring shows it: "-12LL" for an int64_t,
 * "12ULL" for a uint64_t; any other cdata (a pointer, a double, a struct)
 * prints otherwise. The tostring is the one luaopen_mintid kept, so a
 * redefined global cannot make a table pass for a number. Cold path: only
 * values whose lua_type is neither number nor string come here.
 */
static inline const char *compat_cdata_digits(lua_State *L, int idx, char buf[MINTID_CDATA_DIGITS_SIZE])
{
    const char *s;
    size_t len, n, i, first = 0;

    if (lua_type(L, idx) != MINTID_LUA_TCDATA)
        return NULL;
    if (idx < 0 && idx > LUA_REGISTRYINDEX)
        idx = lua_gettop(L) + idx + 1;
    lua_getfield(L, LUA_REGISTRYINDEX, MINTID_TOSTRING_KEY);
    if (lua_type(L, -1) != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return NULL;
    }
    lua_pushvalue(L, idx);
    lua_call(L, 1, 1);
    s = lua_tolstring(L, -1, &len);
    n = 0;
    if (s != NULL && len > 3 && memcmp(s + len - 3, "ULL", 3) == 0)
        n = len - 3;
    else if (s != NULL && len > 2 && memcmp(s + len - 2, "LL", 2) == 0 && s[0] == '-')
        n = len - 2, first = 1;
    else if (s != NULL && len > 2 && memcmp(s + len - 2, "LL", 2) == 0)
        n = len - 2;
    if (n <= first || n >= MINTID_CDATA_DIGITS_SIZE)
        n = 0;
    for (i = first; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            n = 0;
    if (n > 0)
        memcpy(buf, s, n);
    buf[n] = '\0';
    lua_pop(L, 1);
    return n > 0 ? buf : NULL;
}

/* An int64_t or uint64_t cdata whose value fits in an int64. */
static inline int compat_cdata_toint64(lua_State *L, int idx, int64_t *out)
{
    char buf[MINTID_CDATA_DIGITS_SIZE];
    const char *d = compat_cdata_digits(L, idx, buf);
    uint64_t v = 0, limit;
    int neg;

    if (d == NULL)
        return 0;
    neg = d[0] == '-';
    limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (d += neg; *d != '\0'; d++) {
        uint64_t digit = (uint64_t)(*d - '0');
        if (v > (limit - digit) / 10)
            return 0;
        v = v * 10 + digit;
    }
    /* -2^63 has no positive int64 to negate. */
    *out = neg ? (v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return 1;
}

/* The largest integer this Lua holds exactly: any int64, or 2^53 - 1
 * where integers are doubles. */
#if MINTID_LUA_INT64
#define MINTID_LUA_MAX_EXACT INT64_MAX
#else
#define MINTID_LUA_MAX_EXACT INT64_C(9007199254740991)
#endif

/*
 * The int64 value of the number at idx, if it is a number with an exact
 * integer value that fits (a float such as 3.0 counts, 3.5 does not), or a
 * LuaJIT int64_t/uint64_t cdata that fits.
 * Strings are not numbers here: an ID library should not guess at "12".
 */
static inline int compat_toint64(lua_State *L, int idx, int64_t *out)
{
    lua_Number x;

    if (lua_type(L, idx) != LUA_TNUMBER)
        return compat_cdata_toint64(L, idx, out);
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

/* compat_toint64 or a Lua argument error, in the words Lua 5.3 uses. */
static inline int64_t compat_checkint64(lua_State *L, int arg)
{
    int64_t v = 0;

    if (!compat_toint64(L, arg, &v)) {
        if (lua_type(L, arg) == LUA_TNUMBER)
            luaL_argerror(L, arg, "number has no integer representation");
        else
            luaL_argerror(L, arg, lua_pushfstring(L, "integer expected, got %s", luaL_typename(L, arg)));
    }
    return v;
}

/* An integer on 5.3+, a number below (exact up to 2^53, which bounds every
 * timestamp, tag and rand of this library). */
static inline void compat_pushint64(lua_State *L, int64_t v)
{
#if MINTID_LUA_INT64
    lua_pushinteger(L, (lua_Integer)v);
#else
#if LUA_VERSION_NUM >= 503
    /* A narrower lua_Integer (LUA_32BITS): only values in its range become
     * integers; casting any other into it would be implementation-defined. */
    if (v >= LUA_MININTEGER && v <= LUA_MAXINTEGER) {
        lua_pushinteger(L, (lua_Integer)v);
        return;
    }
#endif
    lua_pushnumber(L, (lua_Number)v);
#endif
}

#endif
