/*
 * lua_short_uuid.c: short_uuid(uuid [, alphabet]), parse_short_uuid(text
 * [, alphabet]) and the reference's named alphabets. An alphabet is
 * checked and its constants worked out once (mintid_short_uuid_alphabet):
 * the default at module load, a custom one when a call names it and kept
 * for the next call that names the same string, so a program using one
 * alphabet pays for its check once.
 */
#include "lua_binding.h"

/* Upvalues of the two calls: the default alphabet (a default_alphabet),
 * then the last custom alphabet string and its checked alphabet (nil
 * before the first), then the metatable of UUID values (which it keeps
 * alive while the calls may compare its address). */
#define UP_DEFAULT lua_upvalueindex(1)
#define UP_LAST_TEXT lua_upvalueindex(2)
#define UP_LAST lua_upvalueindex(3)
#define UP_UUID_MT lua_upvalueindex(4)

/* Upvalue 1: the default alphabet first (resty.mintid reads the block as
 * one), then the address of upvalue 4, read with the alphabet that every
 * call looks up: an upvalue's own look-up is a good part of a call's. */
typedef struct {
    mintid_short_uuid_alphabet alphabet;
    const void *uuid_mt;
} default_alphabet;

/* A new userdata holding the checked alphabet of the string at arg;
 * raises naming arg when it is not one. */
static const mintid_short_uuid_alphabet *new_alphabet(lua_State *L, int arg)
{
    size_t len;
    const char *text = mintid_lua_check_text(L, arg, &len);
    mintid_short_uuid_alphabet a, *ud;
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_short_uuid_alphabet_init(&a, (const uint8_t *)text, len, err) != MINTID_OK)
        luaL_argerror(L, arg, err);
    ud = (mintid_short_uuid_alphabet *)compat_newuserdatauv(L, sizeof *ud, 0);
    *ud = a;
    return ud;
}

/* The alphabet of argument arg, of type type (taken before anything was
 * pushed: an argument that was not passed reads as none then, and the
 * one type look-up tells none, nil and a string apart): the default for
 * none or nil, else the cached one when the string is the last one's (raw
 * equality: the same bytes), else a new one, which becomes the cached
 * one. */
static MINTID_ALWAYS_INLINE const mintid_short_uuid_alphabet *check_short_uuid_alphabet(lua_State *L, int arg,
                                                                                     int type,
                                                                                     const default_alphabet *def)
{
    const mintid_short_uuid_alphabet *a;

    if (type == LUA_TNONE || type == LUA_TNIL)
        return &def->alphabet;
    if (type == LUA_TSTRING && lua_rawequal(L, arg, UP_LAST_TEXT))
        return (const mintid_short_uuid_alphabet *)lua_touserdata(L, UP_LAST);
    a = new_alphabet(L, arg);
    lua_replace(L, UP_LAST);
    lua_pushvalue(L, arg);
    lua_replace(L, UP_LAST_TEXT);
    return a;
}

/* short_uuid(uuid [, alphabet]): uuid a UUID text or value. */
static int m_short_uuid(lua_State *L)
{
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE], out[MINTID_SHORT_UUID_MAX_LEN];
    const mintid_short_uuid_alphabet *a;
    const default_alphabet *def = (const default_alphabet *)lua_touserdata(L, UP_DEFAULT);
    const int alphabet_type = lua_type(L, 2);
    int rc = MINTID_OK;

    if (lua_type(L, 1) == LUA_TSTRING) {
        /* A text, parsed here: the common way's look-ups (a userdata
         * first, then the type again) are a good part of the call's own
         * cost. */
        size_t len;
        const char *text = lua_tolstring(L, 1, &len);

        err[0] = '\0';
        rc = mintid_uuid_decode(text, len, id, err);
    } else {
        /* A UUID value known by its metatable in an upvalue: the registry
         * look-up of luaL_testudata is a good part of the call's own
         * cost. Any other argument goes the common way, which also
         * raises. */
        const uint8_t *v = (const uint8_t *)lua_touserdata(L, 1);
        int known = 0;

        /* The metatable stays on the stack (not popped: one call less);
         * what follows reads arguments by absolute index and the type of
         * argument 2 taken above, and returns the value it pushes last.
         * Compared by address, as mintid_lua_find_gen does (both tables
         * alive: on the stack and an upvalue), for a fraction of
         * lua_rawequal's cost. */
        if (v != NULL && lua_getmetatable(L, 1))
            known = lua_topointer(L, -1) == def->uuid_mt;
        if (known)
            memcpy(id, v, sizeof id);
        else
            rc = mintid_lua_check_uuid(L, 1, id, err);
    }
    a = check_short_uuid_alphabet(L, 2, alphabet_type, def);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    lua_pushlstring(L, out, mintid_short_uuid_write(a, id, out));
    return 1;
}

/* parse_short_uuid(text [, alphabet]) -> the UUID value */
static int m_parse_short_uuid(lua_State *L)
{
    size_t len;
    const char *text = mintid_lua_check_text(L, 1, &len);
    const mintid_short_uuid_alphabet *a =
        check_short_uuid_alphabet(L, 2, lua_type(L, 2), (const default_alphabet *)lua_touserdata(L, UP_DEFAULT));
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_short_uuid_decode(a, text, len, id, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    mintid_lua_push_value(L, id, &mintid_lua_uuid_kind);
    return 1;
}

/* _ffi.short_uuid_alphabet(alphabet): the checked alphabet as a userdata,
 * or nothing where short_uuid would raise (resty.mintid then calls
 * short_uuid for the error). */
static int ffi_new_alphabet(lua_State *L)
{
    new_alphabet(L, 1);
    return 1;
}

static int ffi_short_uuid_alphabet(lua_State *L)
{
    lua_settop(L, 1);
    lua_pushcfunction(L, ffi_new_alphabet);
    lua_insert(L, 1);
    return lua_pcall(L, 1, 1, 0) == 0 ? 1 : 0;
}

/* A call over the default alphabet at index def, with an empty cache. */
static void push_call(lua_State *L, int def, lua_CFunction f)
{
    lua_pushvalue(L, def);
    lua_pushnil(L);
    lua_pushnil(L);
    luaL_getmetatable(L, mintid_lua_uuid_kind.tname);
    lua_pushcclosure(L, f, 4);
}

void mintid_lua_open_short_uuid(lua_State *L, int module, int ffi)
{
    default_alphabet *def;
    int at;

    def = (default_alphabet *)compat_newuserdatauv(L, sizeof *def, 0);
    at = lua_gettop(L);
    if (mintid_short_uuid_alphabet_init(&def->alphabet, (const uint8_t *)MINTID_SHORT_UUID_FLICKR,
                                        sizeof MINTID_SHORT_UUID_FLICKR - 1, NULL) != MINTID_OK)
        luaL_error(L, "mintid: the default short UUID alphabet is refused");
    luaL_getmetatable(L, mintid_lua_uuid_kind.tname);
    def->uuid_mt = lua_topointer(L, -1);
    lua_pop(L, 1);
    push_call(L, at, m_short_uuid);
    lua_setfield(L, module, "short_uuid");
    push_call(L, at, m_parse_short_uuid);
    lua_setfield(L, module, "parse_short_uuid");
    lua_pushliteral(L, MINTID_SHORT_UUID_FLICKR);
    lua_setfield(L, module, "SHORT_UUID_FLICKR");
    lua_pushliteral(L, MINTID_SHORT_UUID_COOKIE);
    lua_setfield(L, module, "SHORT_UUID_COOKIE");
    lua_setfield(L, ffi, "short_uuid_default"); /* the default's userdata */
    lua_pushcfunction(L, ffi_short_uuid_alphabet);
    lua_setfield(L, ffi, "short_uuid_alphabet");
}
