/*
 * lua_helpers.h: what every file of the Lua binding uses (lua_helpers.c):
 * errors, text and key arguments, a kind's metatables. The binding's
 * headers include each other one way only, each the layer below it:
 *   lua_helpers.h      (lua_helpers.c)   errors, arguments, metatables
 *                      (lua_layout.c)    Snowflake layout arguments
 *   lua_values.h       (lua_values.c)    the value kinds
 *   lua_fence.h        (lua_fence.c)     the lease fence userdata
 *   lua_hooks.h        (lua_hooks.c)     generator userdata and their hooks
 *   lua_generators.h   (lua_generators.c) the generator kinds
 *   lua_binding.h      every part's opener, for lua_mintid.c (luaopen
 *                      alone), lua_defaults.c, lua_trace.c, lua_lock_file.c
 * Private to the binding (the ABI is mintid.h, the core's own internal.h).
 * As in the core, the shared names are hidden (static in the single-file
 * build) and carry the mintid_lua_ prefix.
 */
#ifndef MINTID_LUA_HELPERS_H
#define MINTID_LUA_HELPERS_H

#include "lua_int64.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#pragma GCC visibility push(hidden)
#define MINTID_LUA_HELPERS_VISIBILITY_PUSHED 1
#endif

/* lua_pushfstring has no 64-bit conversion before 5.3. */
MINTID_INTERNAL const char *mintid_lua_i64str(char buf[MINTID_LUA_INT_TEXT_SIZE], int64_t v);
/* nil, msg: 2 results. */
MINTID_INTERNAL int mintid_lua_fail_msg(lua_State *L, const char *msg);
/* What a function does with a core status: nil, message for bad data,
 * raised for the OS failing or a misuse (EARG, EFORK, ENOMEM). */
MINTID_INTERNAL int mintid_lua_fail(lua_State *L, int rc, const char *err);
/* A number's own text, or a non-number's type name, for messages. */
MINTID_INTERNAL const char *mintid_lua_describe(lua_State *L, int idx);
/* The string at arg; anything else, a number included, raises. */
MINTID_INTERNAL const char *mintid_lua_check_text(lua_State *L, int arg, size_t *len);
/* A TypeID prefix at arg that the TypeID rules accept, else raised. */
MINTID_INTERNAL const char *mintid_lua_check_typeid_prefix(lua_State *L, int arg, size_t *len);
/* The metatable at target gets meta and an __index table of methods, all
 * with the kind and its metatables (mt, and ffi_mt unless 0) as upvalues. */
MINTID_INTERNAL void mintid_lua_fill_meta(lua_State *L, int target, const void *kind, int mt, int ffi_mt,
                               const luaL_Reg *meta, const luaL_Reg *methods);

/* The Snowflake layout at idx (a preset name or a table, lua_layout.c),
 * else raised naming argument arg and the field ("layout: seq_bits must
 * be 1..64, got 0"). */
MINTID_INTERNAL void mintid_lua_check_layout(lua_State *L, int idx, int arg, mintid_snowflake_layout *out);
/* The normalized table of l (doc/fleet.md "Layouts"), pushed. */
MINTID_INTERNAL void mintid_lua_push_layout(lua_State *L, const mintid_snowflake_layout *l);

MINTID_INTERNAL const uint8_t *mintid_lua_check_number_key(lua_State *L, int arg, char buf[MINTID_LUA_INT_TEXT_SIZE],
                                                           size_t *len);

/*
 * The key of a relative ID at arg (its bytes go into the tag): a string as
 * it is, or an integer-valued number as its decimal text, written to buf.
 * luaL_checklstring would turn 42.0 into "42.0" on 5.3+ but "42" on 5.1,
 * so one key would have different tags on different Lua versions.
 */
static inline const uint8_t *mintid_lua_check_key(lua_State *L, int arg, char buf[MINTID_LUA_INT_TEXT_SIZE],
                                                  size_t *len)
{
    if (lua_type(L, arg) == LUA_TSTRING)
        return (const uint8_t *)lua_tolstring(L, arg, len);
    return mintid_lua_check_number_key(L, arg, buf, len);
}

/* A metatable registered as tname with meta and an __index table of
 * methods (no upvalues), and module[name] = constructor (module: an absolute index). */
MINTID_INTERNAL void mintid_lua_new_class(lua_State *L, int module, const char *tname, const luaL_Reg *meta,
                                          const luaL_Reg *methods, const char *name, lua_CFunction constructor);

/* registry[name], a table of weak keys (made on first use), pushed: what
 * a userdata keeps alive there lives as long as it does, whatever the
 * debug library does to its user values (a core state may point into it).
 * An ephemeron from Lua 5.2 on; below, a strong value, so the value must
 * never reach its key. */
MINTID_INTERNAL void mintid_lua_push_weak_keys(lua_State *L, const char *name);

/* Raises unless every key of the options table at 1 is a string of known
 * (NULL-terminated): "unknown option 'x'", naming argument 1. */
MINTID_INTERNAL void mintid_lua_check_option_names(lua_State *L, const char *const known[]);

/* _ffi.fail(rc, message): what this module's functions do with the status
 * rc of a core call and its message ("" for the status's own words), for
 * resty.mintid to tail-call, so that a raised error names the same place. */
MINTID_INTERNAL int mintid_lua_ffi_fail(lua_State *L);

#ifdef MINTID_LUA_HELPERS_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
