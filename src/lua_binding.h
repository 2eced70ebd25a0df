/*
 * lua_binding.h: the parts of the module, as luaopen_mintid (lua_mintid.c)
 * opens them: the openers of every part (the values' and the generators'
 * are in their own headers, included here).
 */
#ifndef MINTID_LUA_BINDING_H
#define MINTID_LUA_BINDING_H

#include "lua_generators.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#pragma GCC visibility push(hidden)
#define MINTID_LUA_BINDING_VISIBILITY_PUSHED 1
#endif

/* ---- the one-shot calls (lua_defaults.c) --------------------------------- */

/* ulid, uuid7, uuid4, uuid1, uuid6, ksuid, typeid and nanoid in the module
 * table at module; the Nano ID specs resty.mintid takes in the table at
 * ffi. */
MINTID_INTERNAL void mintid_lua_open_defaults(lua_State *L, int module, int ffi);

/* ---- trace context (lua_trace.c) ----------------------------------------- */

/* trace_id, span_id, traceparent and parse_traceparent in the module table
 * at module. */
MINTID_INTERNAL void mintid_lua_open_trace(lua_State *L, int module);

/* ---- short UUIDs (lua_short_uuid.c) ------------------------------------- */

/* short_uuid, parse_short_uuid and the named alphabets in the module table
 * at module; the default alphabet and a maker of others for resty.mintid
 * in the table at ffi. */
MINTID_INTERNAL void mintid_lua_open_short_uuid(lua_State *L, int module, int ffi);

/* ---- Sqids (lua_sqids.c) ------------------------------------------------- */

/* sqids in the module table at module; its metatable, for resty.mintid's
 * methods, in the table at ffi. */
MINTID_INTERNAL void mintid_lua_open_sqids(lua_State *L, int module, int ffi);

/* ---- lock files (lua_lock_file.c) ---------------------------------------- */

/* mintid._lock_file and the lock file metatable (lua_lock_file.c). */
MINTID_INTERNAL void mintid_lua_open_lock_file(lua_State *L, int module);

#ifdef MINTID_LUA_BINDING_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
