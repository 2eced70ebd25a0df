/*
 * lua_binding.h: what the files of the Lua binding share, and nothing
 * else; private to them (the ABI is mintid.h, the core's own internal.h).
 *   lua_mintid.c      the module: luaopen_mintid, mintid._ffi, the helpers
 *                     below (errors, text and key arguments)
 *   lua_values.c      value kinds (ULID, UUID, relative ID, KSUID, TypeID):
 *                     their methods, parsing, building, name-based UUIDs
 *   lua_generators.c  generator kinds, their hooks and options, and the
 *                     calls of the process-wide default generators
 * As in the core, the shared names are hidden (static in the single-file
 * build) and carry the mintid_lua_ prefix.
 */
#ifndef MINTID_LUA_BINDING_H
#define MINTID_LUA_BINDING_H

#include "lua_int64.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#pragma GCC visibility push(hidden)
#define MINTID_LUA_VISIBILITY_PUSHED 1
#endif

/* ---- helpers (lua_mintid.c) ---------------------------------------------- */

/* lua_pushfstring has no 64-bit conversion before 5.3. */
MINTID_INTERNAL const char *mintid_lua_i64str(char buf[24], int64_t v);
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

/* Room for the decimal text of any int64 and its NUL. */
#define KEY_NUMBER_SIZE 24
MINTID_INTERNAL const uint8_t *mintid_lua_check_number_key(lua_State *L, int arg, char buf[KEY_NUMBER_SIZE], size_t *len);

/*
 * The key of a relative ID at arg (its bytes go into the tag): a string as
 * it is, or an integer-valued number as its decimal text, written to buf.
 * luaL_checklstring would turn 42.0 into "42.0" on 5.3+ but "42" on 5.1,
 * so one key would have different tags on different Lua versions.
 */
static inline const uint8_t *mintid_lua_check_key(lua_State *L, int arg, char buf[KEY_NUMBER_SIZE], size_t *len)
{
    if (lua_type(L, arg) == LUA_TSTRING)
        return (const uint8_t *)lua_tolstring(L, arg, len);
    return mintid_lua_check_number_key(L, arg, buf, len);
}

/* ---- values (lua_values.c) ----------------------------------------------- */

/* Room for any value's bytes: a TypeID's (typeid_value). */
#define VALUE_MAX_SIZE 80
/* Room for any ID's text: a TypeID's. */
#define TEXT_MAX_LEN MINTID_TYPEID_MAX_TEXT_LEN

typedef struct {
    const char *tname;  /* metatable name */
    const char *name;   /* in messages */
    size_t text_len;
    void (*encode)(const uint8_t *id, char *out);
    int (*decode)(const char *text, size_t len, uint8_t *out, char *err);
    size_t size;        /* bytes of the userdata, compared by __eq */
    size_t bytes_len;   /* what :bytes() returns: the first bytes_len */
    /* Text of a length of its own (TypeID; else NULL: encode, text_len);
     * such values are ordered by their text. */
    size_t (*text)(const uint8_t *v, char out[TEXT_MAX_LEN]);
} value_kind;

/* A TypeID value: the UUID first (so :bytes() is its 16 bytes), then the
 * prefix, zero-padded so that __eq compares the whole userdata. */
typedef struct {
    uint8_t id[16];
    uint8_t prefix_len;
    char prefix[MINTID_TYPEID_MAX_PREFIX];
} typeid_value;
typedef char typeid_value_fits[sizeof(typeid_value) <= VALUE_MAX_SIZE ? 1 : -1];

/* How an ID leaves C: as text or as a value object (mintid_lua_push_text,
 * mintid_lua_push_value). */
typedef void (*push_id_fn)(lua_State *L, const uint8_t *id, const value_kind *k);

MINTID_INTERNAL const value_kind mintid_lua_ulid_kind;
MINTID_INTERNAL const value_kind mintid_lua_uuid_kind;
MINTID_INTERNAL const value_kind mintid_lua_relative_kind;
MINTID_INTERNAL const value_kind mintid_lua_ksuid_kind;
MINTID_INTERNAL const value_kind mintid_lua_typeid_kind;

/* A new value of kind k holding the k->size bytes at id. */
MINTID_INTERNAL void mintid_lua_push_value(lua_State *L, const uint8_t *id, const value_kind *k);

static inline size_t mintid_lua_value_text(const uint8_t *id, const value_kind *k, char out[TEXT_MAX_LEN])
{
    if (k->text != NULL)
        return k->text(id, out);
    k->encode(id, out);
    return k->text_len;
}

static inline void mintid_lua_push_text(lua_State *L, const uint8_t *id, const value_kind *k)
{
    char text[TEXT_MAX_LEN];
    size_t len = mintid_lua_value_text(id, k, text);

    lua_pushlstring(L, text, len);
}


/* The value metatables, the value functions and constants in the module
 * table at module, _ffi.new_values in the table at ffi. */
MINTID_INTERNAL void mintid_lua_open_values(lua_State *L, int module, int ffi);

/* ---- generators (lua_generators.c) --------------------------------------- */

/* The generator kinds' metatables and constructors and the default
 * generators' calls in the module table at module; what resty.mintid takes
 * of them (new, meta, methods, the Nano ID specs, the state offset) in the
 * table at ffi. */
MINTID_INTERNAL void mintid_lua_open_generators(lua_State *L, int module, int ffi);

/* A metatable registered as tname with meta and an __index table of
 * methods (no upvalues), and module[name] = constructor (module: an absolute index). */
MINTID_INTERNAL void mintid_lua_new_class(lua_State *L, int module, const char *tname, const luaL_Reg *meta,
                                          const luaL_Reg *methods, const char *name, lua_CFunction constructor);

/* ---- lease fences (lua_fence.c) ------------------------------------------ */

/* mintid._lease_fence and the fence metatable, in the module table at module. */
MINTID_INTERNAL void mintid_lua_open_fence(lua_State *L, int module);
/* The fence userdata at idx, or NULL if it is none. */
MINTID_INTERNAL const mintid_fence *mintid_lua_to_fence(lua_State *L, int idx);

/* mintid._lock_file and the lock file metatable (lua_lock_file.c). */
MINTID_INTERNAL void mintid_lua_open_lock_file(lua_State *L, int module);

#ifdef MINTID_LUA_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
