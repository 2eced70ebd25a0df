/*
 * lua_defaults.c: the module's one-shot calls (lua_binding.h): mintid.ulid(),
 * uuid7(), uuid4(), uuid1(), uuid6(), ksuid(), objectid(), xid(), typeid(prefix),
 * nanoid([size [, alphabet]]) and cuid2([length]), each from the core's process-wide default
 * generator (or, for nanoid, the default spec) with no object of its own.
 */
#include "lua_binding.h"

/* mintid.ulid(), uuid7(), uuid4(): text from a process-wide generator. */
static inline int push_default_id(lua_State *L, int (*make)(uint8_t *out, char *err), const value_kind *k)
{
    uint8_t id[MINTID_KSUID_BYTES]; /* the largest */
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = make(id, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    mintid_lua_push_text(L, id, k);
    return 1;
}

static int m_ulid(lua_State *L) { return push_default_id(L, mintid_default_ulid, &mintid_lua_ulid_kind); }
static int m_uuid7(lua_State *L) { return push_default_id(L, mintid_default_uuid7, &mintid_lua_uuid_kind); }
static int m_uuid4(lua_State *L) { return push_default_id(L, mintid_default_uuid4, &mintid_lua_uuid_kind); }
static int m_uuid1(lua_State *L) { return push_default_id(L, mintid_default_uuid1, &mintid_lua_uuid_kind); }
static int m_uuid6(lua_State *L) { return push_default_id(L, mintid_default_uuid6, &mintid_lua_uuid_kind); }
static int m_ksuid(lua_State *L) { return push_default_id(L, mintid_default_ksuid, &mintid_lua_ksuid_kind); }
static int m_objectid(lua_State *L) { return push_default_id(L, mintid_default_objectid, &mintid_lua_objectid_kind); }

/* mintid.xid(): push_default_id with its encoder called by name, not
 * through the kind's pointer (the call is held to a speed target). */
static int m_xid(lua_State *L)
{
    uint8_t id[MINTID_XID_BYTES];
    char text[MINTID_XID_TEXT_LEN], err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = mintid_default_xid(id, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    mintid_xid_encode(id, text);
    lua_pushlstring(L, text, sizeof text);
    return 1;
}

/* mintid.typeid(prefix): over the default UUIDv7 generator. */
static int m_typeid(lua_State *L)
{
    size_t len;
    const char *prefix = mintid_lua_check_typeid_prefix(L, 1, &len);
    char out[MINTID_TYPEID_MAX_TEXT_LEN], err[MINTID_ERRMSG_SIZE];
    int n;

    err[0] = '\0';
    n = mintid_typeid_text(prefix, len, out, err);
    if (n < 0)
        return mintid_lua_fail(L, n, err);
    lua_pushlstring(L, out, (size_t)n);
    return 1;
}

/* The spec of nanoid(size, alphabet) at arguments arg and arg + 1: def
 * (the default size and alphabet, checked once at load) or *spec, written
 * here; or a raised argument error. */
static const mintid_nanoid_spec *check_nanoid_args(lua_State *L, int arg, const mintid_nanoid_spec *def,
                                                   mintid_nanoid_spec *spec)
{
    int64_t size = MINTID_NANOID_DEFAULT_SIZE;
    const char *alphabet;
    size_t alen;
    char err[MINTID_ERRMSG_SIZE];

    if (lua_isnoneornil(L, arg) && lua_isnoneornil(L, arg + 1))
        return def;
    if (!lua_isnoneornil(L, arg)) {
        size = compat_checkint64(L, arg);
        mintid_lua_check_nanoid_size(L, arg, size);
    }
    if (lua_isnoneornil(L, arg + 1)) {
        /* The default alphabet at another size. */
        *spec = *def;
        mintid_nanoid_spec_resize(mintid_nanoid_state_of(spec), size, NULL); /* the size is valid */
        return spec;
    }
    alphabet = mintid_lua_check_text(L, arg + 1, &alen);
    err[0] = '\0';
    /* The size is valid by now, so any complaint is about the alphabet. */
    if (mintid_nanoid_spec_init(spec, (const uint8_t *)alphabet, alen, size, err) != MINTID_OK)
        luaL_argerror(L, arg + 1, err);
    return spec;
}

static const mintid_nanoid_spec *upvalue_default_spec(lua_State *L)
{
    return (const mintid_nanoid_spec *)lua_touserdata(L, lua_upvalueindex(1));
}

/* mintid.nanoid([size [, alphabet]]); upvalue 1 holds the default spec, so
 * the common call validates nothing. That call, with no argument at all,
 * goes straight to the core's default, as ulid() does: no random option,
 * generator or upvalue to look at. */
static int m_nanoid(lua_State *L)
{
    mintid_nanoid_spec spec;

    if (lua_gettop(L) == 0) {
        char out[MINTID_NANOID_DEFAULT_SIZE], err[MINTID_ERRMSG_SIZE];
        int rc;

        err[0] = '\0';
        rc = mintid_default_nanoid(out, err);
        if (rc != MINTID_OK)
            return mintid_lua_fail(L, rc, err);
        lua_pushlstring(L, out, sizeof out);
        return 1;
    }
    return mintid_lua_push_nanoid(L, check_nanoid_args(L, 1, upvalue_default_spec(L), &spec), NULL, NULL);
}

/* is_nanoid(text [, size [, alphabet]]): whether text is a Nano ID of the
 * spec nanoid(size, alphabet) uses (a bad size or alphabet raises as
 * there); the spec is the default one or on the stack. */
static int m_is_nanoid(lua_State *L)
{
    mintid_nanoid_spec spec;
    size_t len;
    const char *text = mintid_lua_check_text(L, 1, &len);

    lua_pushboolean(L, mintid_nanoid_valid(check_nanoid_args(L, 2, upvalue_default_spec(L), &spec), text, len));
    return 1;
}

/* A userdata holding the spec of nanoid(size, alphabet); raises as nanoid. */
static int new_nanoid_spec(lua_State *L)
{
    mintid_nanoid_spec spec, *ud;
    const mintid_nanoid_spec *s = check_nanoid_args(L, 1, upvalue_default_spec(L), &spec);

    ud = (mintid_nanoid_spec *)compat_newuserdatauv(L, sizeof *ud, 0);
    *ud = *s;
    return 1;
}

/* _ffi.nanoid_spec(size, alphabet): new_nanoid_spec, or nothing where
 * nanoid would raise (resty.mintid then calls nanoid for the error). */
static int ffi_nanoid_spec(lua_State *L)
{
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushcclosure(L, new_nanoid_spec, 1);
    lua_insert(L, 1);
    return lua_pcall(L, 2, 1, 0) == 0 ? 1 : 0;
}

/* mintid.cuid2([length]) from the core's process-wide CUID2 generator;
 * is_cuid2(text [, min_length [, max_length]]) as the reference's isCuid,
 * text a string as for every is_* (a number raises, as in is_ulid). */
static int m_cuid2(lua_State *L)
{
    int64_t length = lua_isnoneornil(L, 1) ? MINTID_CUID2_DEFAULT_LEN : compat_checkint64(L, 1);
    char out[MINTID_CUID2_MAX_LEN], err[MINTID_ERRMSG_SIZE];
    int n;

    err[0] = '\0';
    if (mintid_cuid2_check_length(length, err) != MINTID_OK)
        return luaL_argerror(L, 1, err);
    n = mintid_cuid2_text(length, out, err);
    if (n < 0)
        return mintid_lua_fail(L, n, err);
    lua_pushlstring(L, out, (size_t)n);
    return 1;
}

static int m_is_cuid2(lua_State *L)
{
    size_t len = 0;
    const char *text = mintid_lua_check_text(L, 1, &len);
    int64_t min_len = lua_isnoneornil(L, 2) ? MINTID_CUID2_MIN_LEN : compat_checkint64(L, 2);
    int64_t max_len = lua_isnoneornil(L, 3) ? MINTID_CUID2_MAX_LEN : compat_checkint64(L, 3);

    lua_pushboolean(L, mintid_cuid2_valid(text, len, min_len, max_len));
    return 1;
}

static const luaL_Reg default_funcs[] = {
    { "ulid", m_ulid },
    { "uuid4", m_uuid4 },
    { "uuid7", m_uuid7 },
    { "uuid1", m_uuid1 },
    { "uuid6", m_uuid6 },
    { "ksuid", m_ksuid },
    { "objectid", m_objectid },
    { "xid", m_xid },
    { "typeid", m_typeid },
    { "cuid2", m_cuid2 },
    { "is_cuid2", m_is_cuid2 },
    { NULL, NULL }
};

/* The one-shot calls in the module table at module. The Nano ID default
 * spec, checked once here, is the upvalue of nanoid and _ffi.nanoid_spec,
 * and _ffi.nanoid_default (in the table at ffi). */
void mintid_lua_open_defaults(lua_State *L, int module, int ffi)
{
    mintid_nanoid_spec *def;
    char err[MINTID_ERRMSG_SIZE];

    lua_pushvalue(L, module);
    luaL_setfuncs(L, default_funcs, 0);
    lua_pop(L, 1);
    def = (mintid_nanoid_spec *)compat_newuserdatauv(L, sizeof *def, 0);
    err[0] = '\0';
    if (mintid_nanoid_spec_default(def, err) != MINTID_OK)
        luaL_error(L, "mintid: %s", err);
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, m_nanoid, 1);
    lua_setfield(L, module, "nanoid");
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, m_is_nanoid, 1);
    lua_setfield(L, module, "is_nanoid");
    lua_pushvalue(L, -1);
    lua_setfield(L, ffi, "nanoid_default");
    lua_pushcclosure(L, ffi_nanoid_spec, 1);
    lua_setfield(L, ffi, "nanoid_spec");
}
