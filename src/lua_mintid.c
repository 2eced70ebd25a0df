/*
 * lua_mintid.c: the Lua binding of the mintid core: the module mintid, whole
 * in C, so a host that links it statically registers luaopen_mintid and
 * ships no Lua file. This file only opens the module (luaopen_mintid); its
 * parts are lua_values.c (the values), lua_generators.c (the generator
 * kinds) over lua_hooks.c (what every generator call does around the
 * core), lua_defaults.c (the one-shot calls), lua_trace.c (the trace
 * context), lua_fence.c and lua_lock_file.c (leases), all over
 * lua_helpers.c (errors, arguments, metatables); lua_helpers.h says how
 * their headers include each other.
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

/* The opener stays public even in a -fvisibility=hidden build. */
MINTID_API int luaopen_mintid(lua_State *L);

static const luaL_Reg ffi_funcs[] = { { "fail", mintid_lua_ffi_fail }, { NULL, NULL } };

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
    mintid_lua_open_defaults(L, module, ffi);
    mintid_lua_open_trace(L, module);
    mintid_lua_open_short_uuid(L, module, ffi);
    mintid_lua_open_sqids(L, module, ffi);
    mintid_lua_open_fence(L, module);
    mintid_lua_open_lock_file(L, module);
    lua_setfield(L, module, "_ffi");

    lua_pushliteral(L, MINTID_VERSION);
    lua_setfield(L, module, "_VERSION");

    compat_cdata_keep(L);
    return 1;
}
