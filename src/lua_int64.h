/*
 * lua_int64.h: 64-bit integers in and out of Lua 5.1-5.5 and LuaJIT, where
 * lua_Integer may be 32 bits, numbers may be doubles, and LuaJIT has int64
 * cdata. Static inline, prefixed compat_, as lua_compat.h.
 */
#ifndef MINTID_LUA_INT64_H
#define MINTID_LUA_INT64_H

#include <stdint.h>
#include <string.h>

#include "lua_compat.h"

/* Where a Lua integer holds any int64 (5.3 and 5.4 in their default
 * configuration), 64-bit values such as snowflake IDs can be Lua integers. */
#if LUA_VERSION_NUM >= 503 && defined(LUA_MAXINTEGER) && LUA_MAXINTEGER >= INT64_MAX
#define MINTID_LUA_INT64 1
#else
#define MINTID_LUA_INT64 0
#endif

/* lua_type of a LuaJIT cdata; no PUC Lua has a type 10. */
#define MINTID_LUA_TCDATA 10
/* Registry fields that luaopen_mintid fills under LuaJIT: ffi.istype and
 * the ctypes int64_t and uint64_t (compat_cdata_keep). */
#define MINTID_ISTYPE_KEY "mintid.ffi.istype"
#define MINTID_INT64_KEY "mintid.ffi.int64_t"
#define MINTID_UINT64_KEY "mintid.ffi.uint64_t"
/* Room for the decimal text of any 64-bit integer, signed or unsigned, and
 * its NUL ('-', 20 digits, NUL): the binding's one size of such a buffer. */
#define MINTID_LUA_INT_TEXT_SIZE 24

/* Under LuaJIT, keeps what compat_cdata_value needs, from the ffi module of
 * this state; elsewhere (no ffi module) does nothing, and no value is a
 * cdata. */
static inline void compat_cdata_keep(lua_State *L)
{
    lua_getglobal(L, "require");
    lua_pushliteral(L, "ffi");
    if (lua_type(L, -2) != LUA_TFUNCTION || lua_pcall(L, 1, 1, 0) != 0 || lua_type(L, -1) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    lua_getfield(L, -1, "istype");
    lua_setfield(L, LUA_REGISTRYINDEX, MINTID_ISTYPE_KEY);
    lua_getfield(L, -1, "typeof");
    lua_pushliteral(L, "int64_t");
    lua_call(L, 1, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, MINTID_INT64_KEY);
    lua_getfield(L, -1, "typeof");
    lua_pushliteral(L, "uint64_t");
    lua_call(L, 1, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, MINTID_UINT64_KEY);
    lua_pop(L, 1);
}

/* Whether the cdata at the absolute index idx is of the ctype kept at
 * registry field key. ffi.istype reads the ctype itself: no __tostring or
 * other metamethod of the value runs, so no Lua code of the caller's. */
static inline int compat_cdata_is(lua_State *L, int idx, const char *key)
{
    int is;

    lua_getfield(L, LUA_REGISTRYINDEX, MINTID_ISTYPE_KEY);
    lua_getfield(L, LUA_REGISTRYINDEX, key);
    lua_pushvalue(L, idx);
    lua_call(L, 2, 1);
    is = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return is;
}

/*
 * The 64 bits of a LuaJIT int64_t or uint64_t cdata at idx, and whether it
 * is the signed one; 0 for any other value (a pointer, a double, a struct
 * whatever its __tostring says). Told by the ctype, then read through
 * lua_topointer, which gives a cdata's payload. Cold path: only values
 * whose lua_type is neither number nor string come here.
 */
static inline int compat_cdata_value(lua_State *L, int idx, uint64_t *bits, int *is_signed)
{
    const void *p;

    if (lua_type(L, idx) != MINTID_LUA_TCDATA)
        return 0;
    if (idx < 0 && idx > LUA_REGISTRYINDEX)
        idx = lua_gettop(L) + idx + 1;
    lua_getfield(L, LUA_REGISTRYINDEX, MINTID_ISTYPE_KEY);
    p = lua_type(L, -1) == LUA_TFUNCTION ? lua_topointer(L, idx) : NULL;
    lua_pop(L, 1);
    if (p == NULL)
        return 0;
    if (compat_cdata_is(L, idx, MINTID_INT64_KEY))
        *is_signed = 1;
    else if (compat_cdata_is(L, idx, MINTID_UINT64_KEY))
        *is_signed = 0;
    else
        return 0;
    memcpy(bits, p, sizeof *bits);
    return 1;
}

/* The decimal digits (with '-' if negative) of a LuaJIT int64_t or uint64_t
 * cdata at idx, written to buf, or NULL for any other value. */
static inline const char *compat_cdata_digits(lua_State *L, int idx, char buf[MINTID_LUA_INT_TEXT_SIZE])
{
    uint64_t bits, mag;
    int is_signed, neg;
    char rev[MINTID_LUA_INT_TEXT_SIZE];
    size_t n = 0, i = 0;

    if (!compat_cdata_value(L, idx, &bits, &is_signed))
        return NULL;
    neg = is_signed && (bits >> 63) != 0;
    mag = neg ? ~bits + 1 : bits; /* two's complement magnitude, 2^63 included */
    do {
        rev[n++] = (char)('0' + mag % 10);
        mag /= 10;
    } while (mag != 0);
    if (neg)
        buf[i++] = '-';
    while (n > 0)
        buf[i++] = rev[--n];
    buf[i] = '\0';
    return buf;
}

/* v as a new LuaJIT int64_t cdata, its payload written through
 * lua_topointer (as compat_cdata_value reads one): 1, or 0 with nothing
 * pushed where there is no ffi module. */
static inline int compat_push_int64_cdata(lua_State *L, int64_t v)
{
    const void *p;

    lua_getfield(L, LUA_REGISTRYINDEX, MINTID_INT64_KEY);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushinteger(L, 0);
    lua_call(L, 1, 1);
    p = lua_topointer(L, -1);
    memcpy((void *)(uintptr_t)p, &v, sizeof v);
    return 1;
}

/* An int64_t or uint64_t cdata whose value fits in an int64. */
static inline int compat_cdata_toint64(lua_State *L, int idx, int64_t *out)
{
    uint64_t bits;
    int is_signed;

    if (!compat_cdata_value(L, idx, &bits, &is_signed))
        return 0;
    if (!is_signed && bits > (uint64_t)INT64_MAX)
        return 0;
    memcpy(out, &bits, sizeof *out); /* the int64_t of the same bits */
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
