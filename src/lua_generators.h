/*
 * lua_generators.h: the generator kinds (lua_generators.c): their
 * constructors, options, methods and metatables.
 */
#ifndef MINTID_LUA_GENERATORS_H
#define MINTID_LUA_GENERATORS_H

#include "lua_fence.h"
#include "lua_hooks.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#pragma GCC visibility push(hidden)
#define MINTID_LUA_GENERATORS_VISIBILITY_PUSHED 1
#endif

/* A Nano ID of spec s from the random option of the generator u at
 * GEN_ARG if it has one (u NULL: a one-shot call), else from the pool. */
MINTID_INTERNAL int mintid_lua_push_nanoid(lua_State *L, const mintid_nanoid_spec *s, const gen_kind *k,
                                           gen_ud *u);
/* A Nano ID size at arg that the core accepts, else raised (before the
 * alphabet is looked at, so that an error blames the size). */
MINTID_INTERNAL void mintid_lua_check_nanoid_size(lua_State *L, int arg, int64_t size);

/* The generator kinds' metatables and constructors in the module table at
 * module; what resty.mintid takes of them (new, meta, methods, the state
 * offset) in the table at ffi. */
MINTID_INTERNAL void mintid_lua_open_generators(lua_State *L, int module, int ffi);

#ifdef MINTID_LUA_GENERATORS_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
