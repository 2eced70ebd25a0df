/*
 * lua_fence.h: the lease fence userdata (lua_fence.c), which a Snowflake
 * generator's lease option holds.
 */
#ifndef MINTID_LUA_FENCE_H
#define MINTID_LUA_FENCE_H

#include "lua_helpers.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#pragma GCC visibility push(hidden)
#define MINTID_LUA_FENCE_VISIBILITY_PUSHED 1
#endif

/* mintid._lease_fence and the fence metatable, in the module table at module. */
MINTID_INTERNAL void mintid_lua_open_fence(lua_State *L, int module);
/* The fence userdata at idx, or NULL if it is none. */
MINTID_INTERNAL mintid_fence *mintid_lua_to_fence(lua_State *L, int idx);

#ifdef MINTID_LUA_FENCE_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
