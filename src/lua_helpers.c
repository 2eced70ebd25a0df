/*
 * lua_helpers.c: what every file of the binding uses (lua_helpers.h):
 * the errors (nil, message for bad data; raised for the rest), text and
 * key arguments, and the metatables of a kind.
 */
#include "lua_helpers.h"

#include <inttypes.h>
#include <stdio.h>

/* lua_pushfstring has no 64-bit conversion before 5.3. */
const char *mintid_lua_i64str(char buf[MINTID_LUA_INT_TEXT_SIZE], int64_t v)
{
    snprintf(buf, MINTID_LUA_INT_TEXT_SIZE, "%" PRId64, v);
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
const uint8_t *mintid_lua_check_number_key(lua_State *L, int arg, char buf[MINTID_LUA_INT_TEXT_SIZE],
                                           size_t *len)
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

/* Raises unless every key of the options table at 1 is a string of known
 * (NULL-terminated), read raw: a misspelt option silently ignored would
 * make a wrong object. */
void mintid_lua_check_option_names(lua_State *L, const char *const known[])
{
    int i;

    lua_pushnil(L);
    while (lua_next(L, 1)) {
        const char *key;
        size_t len;
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_argerror(L, 1, lua_pushfstring(L, "option names must be strings, got %s", luaL_typename(L, -1)));
        key = lua_tolstring(L, -1, &len);
        for (i = 0; known[i] != NULL; i++)
            if (strlen(known[i]) == len && memcmp(known[i], key, len) == 0)
                break;
        if (known[i] == NULL)
            luaL_argerror(L, 1, lua_pushfstring(L, "unknown option '%s'", key));
    }
}

/* _ffi.fail(rc, message): what this module's functions do with the status
 * rc of a core call and its message ("" for the status's own words), for
 * resty.mintid to tail-call, so that a raised error names the same place. */
int mintid_lua_ffi_fail(lua_State *L)
{
    return mintid_lua_fail(L, (int)luaL_checkinteger(L, 1), luaL_optstring(L, 2, ""));
}

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

void mintid_lua_push_weak_keys(lua_State *L, const char *name)
{
    lua_getfield(L, LUA_REGISTRYINDEX, name);
    if (lua_istable(L, -1))
        return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, name);
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

