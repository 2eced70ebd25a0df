/*
 * lua_mintid.c: the Lua binding of the mintid core: the module mintid, whole
 * in C, so a host that links it statically registers luaopen_mintid and
 * ships no Lua file. This file opens the module and holds the helpers that
 * every part of the binding shares (lua_binding.h); the values are in
 * lua_values.c, the generators in lua_generators.c.
 *
 * Bad data returns nil, message (the core's message); bad arguments raise
 * through luaL_argerror. The core never sees a Lua error: an injected
 * clock runs before a core call (or, in Snowflake's wait loop, as the
 * core's clock callback under lua_pcall), and an injected random runs
 * under lua_pcall, its error re-raised once the core has returned.
 *
 * The value kinds and the generator kinds differ in a few fields
 * (value_kind, gen_kind); every metamethod and method reads its kind from
 * upvalue 1, so each mechanism is written once.
 *
 * resty.mintid, the LuaJIT FFI binding, keeps no rule of its own: it takes
 * this module's constructors, checks and errors through mintid._ffi and
 * runs only the hot paths on the objects' own state.
 */
#include "lua_binding.h"

#include <inttypes.h>
#include <stdio.h>

/* The opener stays public even in a -fvisibility=hidden build. */
MINTID_API int luaopen_mintid(lua_State *L);

/* ---- helpers ------------------------------------------------------------ */

/* lua_pushfstring has no 64-bit conversion before 5.3. */
const char *mintid_lua_i64str(char buf[24], int64_t v)
{
    snprintf(buf, 24, "%" PRId64, v);
    return buf;
}

int mintid_lua_fail_msg(lua_State *L, const char *msg)
{
    lua_pushnil(L);
    lua_pushstring(L, msg);
    return 2;
}

/* Data the caller got wrong is a nil, message return; a failing OS source,
 * a core misuse or a Snowflake generator used in a forked child (a program
 * error: each process needs its own machine_id) is an exception, since no
 * retry by the caller helps. */
int mintid_lua_fail(lua_State *L, int rc, const char *err)
{
    const char *msg = err != NULL && err[0] != '\0' ? err : mintid_strerror(rc);

    if (rc == MINTID_ERANDOM || rc == MINTID_ECLOCK || rc == MINTID_ENOMEM || rc == MINTID_EARG ||
        rc == MINTID_EFORK)
        return luaL_error(L, "%s", msg);
    return mintid_lua_fail_msg(L, msg);
}

/* A number's own text (3.5 has no integer value) or a non-number's type.
 * NaN is "nan" whatever sign the C library would print. */
const char *mintid_lua_describe(lua_State *L, int idx)
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
const char *mintid_lua_check_text(lua_State *L, int arg, size_t *len)
{
    luaL_checktype(L, arg, LUA_TSTRING);
    return lua_tolstring(L, arg, len);
}

/* mintid_lua_check_key for anything but a string. */
const uint8_t *mintid_lua_check_number_key(lua_State *L, int arg, char buf[KEY_NUMBER_SIZE], size_t *len)
{
    int64_t v = 0;

    if (!compat_toint64(L, arg, &v))
        luaL_argerror(L, arg, lua_pushfstring(L, "key must be a string or a 64-bit integer, got %s",
                                              mintid_lua_describe(L, arg)));
    *len = strlen(mintid_lua_i64str(buf, v));
    return (const uint8_t *)buf;
}

/* A TypeID prefix at arg: a string the TypeID rules accept, else raised. */
const char *mintid_lua_check_typeid_prefix(lua_State *L, int arg, size_t *len)
{
    const char *prefix = mintid_lua_check_text(L, arg, len);
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_typeid_check_prefix(prefix, *len, MINTID_EARG, err) != MINTID_OK)
        luaL_argerror(L, arg, err);
    return prefix;
}

/* _ffi.fail(rc, message): what this module's functions do with the status
 * rc of a core call and its message ("" for the status's own words), for
 * resty.mintid to tail-call, so that a raised error names the same place. */
static int ffi_fail(lua_State *L)
{
    return mintid_lua_fail(L, (int)luaL_checkinteger(L, 1), luaL_optstring(L, 2, ""));
}

/* ---- metatables and the module ------------------------------------------ */

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
void mintid_lua_fill_meta(lua_State *L, int target, const void *kind, int mt, int ffi_mt,
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

/* A metatable registered as tname with meta and an __index table of
 * methods (no upvalues), and module[name] = constructor. */
void mintid_lua_new_class(lua_State *L, int module, const char *tname, const luaL_Reg *meta,
                          const luaL_Reg *methods, const char *name, lua_CFunction constructor)
{
    luaL_newmetatable(L, tname);
    luaL_setfuncs(L, meta, 0);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    lua_pushcfunction(L, constructor);
    lua_setfield(L, module, name);
}

static const luaL_Reg ffi_funcs[] = { { "fail", ffi_fail }, { NULL, NULL } };

MINTID_API int luaopen_mintid(lua_State *L)
{
    int module, ffi;

    lua_newtable(L);
    module = lua_gettop(L);
    /* mintid._ffi: what resty.mintid takes from this module, so that it
     * keeps no rule of its own; not a name for other callers. */
    luaL_newlib(L, ffi_funcs);
    ffi = lua_gettop(L);
    compat_pushint64(L, MINTID_LUA_MAX_EXACT);
    lua_setfield(L, ffi, "max_exact");
    mintid_lua_open_values(L, module, ffi);
    mintid_lua_open_generators(L, module, ffi);
    mintid_lua_open_fence(L, module);
    mintid_lua_open_lock_file(L, module);
    lua_setfield(L, module, "_ffi");

    lua_pushliteral(L, MINTID_VERSION);
    lua_setfield(L, module, "_VERSION");

    compat_cdata_keep(L);
    return 1;
}
