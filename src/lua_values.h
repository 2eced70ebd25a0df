/*
 * lua_values.h: the binding's value kinds (lua_values.c): ULID, UUID,
 * relative ID, KSUID and TypeID userdata, and how an ID leaves C as text
 * or as a value.
 */
#ifndef MINTID_LUA_VALUES_H
#define MINTID_LUA_VALUES_H

#include "lua_helpers.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#pragma GCC visibility push(hidden)
#define MINTID_LUA_VALUES_VISIBILITY_PUSHED 1
#endif

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
    /* The value's time in Unix ms: 1 with *ms written, or 0 where it has
     * none (a UUID of a version without one). */
    int (*time)(const uint8_t *v, int64_t *ms);
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
MINTID_INTERNAL const value_kind mintid_lua_objectid_kind;
MINTID_INTERNAL const value_kind mintid_lua_xid_kind;
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

/* The UUID at arg, text or value, into id: MINTID_OK, or the parser's
 * status with err written (bad text is data); anything else raises. */
MINTID_INTERNAL int mintid_lua_check_uuid(lua_State *L, int arg, uint8_t id[16], char *err);

/* The value metatables, the value functions and constants in the module
 * table at module, _ffi.new_values in the table at ffi. */
MINTID_INTERNAL void mintid_lua_open_values(lua_State *L, int module, int ffi);

#ifdef MINTID_LUA_VALUES_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
