/*
 * lua_trace.c: the W3C Trace Context calls of the module (trace.c holds
 * every rule): trace_id, span_id, traceparent, parse_traceparent.
 */
#include "lua_binding.h"

typedef int (*id_text_fn)(char *out, char *err);

static int push_id(lua_State *L, id_text_fn make, size_t len)
{
    char out[MINTID_TRACE_ID_TEXT_LEN], err[MINTID_ERRMSG_SIZE];
    int rc;

    err[0] = '\0';
    rc = make(out, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    lua_pushlstring(L, out, len);
    return 1;
}

static int m_trace_id(lua_State *L) { return push_id(L, mintid_trace_id_text, MINTID_TRACE_ID_TEXT_LEN); }
static int m_span_id(lua_State *L) { return push_id(L, mintid_span_id_text, MINTID_SPAN_ID_TEXT_LEN); }

/* An ID argument: nil or none for a fresh one (NULL), else a string. */
static const char *opt_id(lua_State *L, int arg, size_t *len)
{
    *len = 0;
    return lua_isnoneornil(L, arg) ? NULL : mintid_lua_check_text(L, arg, len);
}

/* mintid.traceparent([trace_id [, parent_id [, flags]]]) */
static int m_traceparent(lua_State *L)
{
    size_t trace_len, parent_len;
    const char *trace_id = opt_id(L, 1, &trace_len);
    const char *parent_id = opt_id(L, 2, &parent_len);
    char out[MINTID_TRACEPARENT_LEN], err[MINTID_ERRMSG_SIZE];
    int64_t flags = 0;
    int rc;

    /* Not an integer: -1, which the core refuses with its own words. */
    if (!lua_isnoneornil(L, 3) && !compat_toint64(L, 3, &flags))
        flags = -1;
    err[0] = '\0';
    rc = mintid_traceparent_text(trace_id, trace_len, parent_id, parent_len, flags, out, err);
    if (rc == MINTID_EARG)
        return luaL_argerror(L, 3, lua_pushfstring(L, "%s, got %s", err, mintid_lua_describe(L, 3)));
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    lua_pushlstring(L, out, MINTID_TRACEPARENT_LEN);
    return 1;
}

/* mintid.parse_traceparent(header) -> trace_id, parent_id, flags */
static int m_parse_traceparent(lua_State *L)
{
    size_t len;
    const char *header = mintid_lua_check_text(L, 1, &len);
    char trace_id[MINTID_TRACE_ID_TEXT_LEN], parent_id[MINTID_SPAN_ID_TEXT_LEN], err[MINTID_ERRMSG_SIZE];
    uint8_t flags = 0;
    int rc;

    err[0] = '\0';
    rc = mintid_traceparent_parse(header, len, trace_id, parent_id, &flags, err);
    if (rc != MINTID_OK)
        return mintid_lua_fail(L, rc, err);
    lua_pushlstring(L, trace_id, sizeof trace_id);
    lua_pushlstring(L, parent_id, sizeof parent_id);
    lua_pushinteger(L, (lua_Integer)flags);
    return 3;
}

static const luaL_Reg trace_funcs[] = {
    { "trace_id", m_trace_id },
    { "span_id", m_span_id },
    { "traceparent", m_traceparent },
    { "parse_traceparent", m_parse_traceparent },
    { NULL, NULL }
};

void mintid_lua_open_trace(lua_State *L, int module)
{
    lua_pushvalue(L, module);
    luaL_setfuncs(L, trace_funcs, 0);
    lua_pop(L, 1);
}
