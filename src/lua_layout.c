/*
 * lua_layout.c: Snowflake layouts as Lua writes them (doc/fleet.md
 * "Layouts"): a preset name or a table of fields, read into the core's
 * layout (snowflake_layout.c checks every rule), and the normalized table
 * back: mintid.snowflake_layout(L), and the layout of the generators, the
 * parser and the leases' fences.
 */
#include "lua_helpers.h"

static const char *const layout_fields[] = { "time_bits", "time_unit_ms", "machine_bits", "seq_bits",
                                             "epoch", "order", "name", NULL };
enum { F_TIME, F_UNIT, F_MACHINE, F_SEQ, F_EPOCH, F_ORDER, F_NAME, F_COUNT };

static int layout_error(lua_State *L, int arg, const char *what)
{
    return luaL_argerror(L, arg, lua_pushfstring(L, "layout: %s", what));
}

/* The integer field at idx, def when nil (required when def < 0). */
static int64_t int_field(lua_State *L, int idx, int arg, const char *name, int64_t def)
{
    int64_t v = 0;

    if (lua_isnil(L, idx)) {
        if (def < 0)
            layout_error(L, arg, lua_pushfstring(L, "field '%s' is required", name));
        return def;
    }
    if (!compat_toint64(L, idx, &v))
        layout_error(L, arg, lua_pushfstring(L, "%s must be an integer, got %s", name, mintid_lua_describe(L, idx)));
    return v;
}

/* The table at idx: its raw keys all fields, each read as Lua reads a
 * field (an __index honoured). */
static void table_layout(lua_State *L, int idx, int arg, mintid_snowflake_layout *out)
{
    int top = lua_gettop(L), base, i, order = MINTID_SNOWFLAKE_ORDER_TMS, rc;
    int64_t v[F_ORDER];
    char err[MINTID_ERRMSG_SIZE];

    lua_pushnil(L);
    while (lua_next(L, idx)) {
        const char *key;
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            layout_error(L, arg, lua_pushfstring(L, "field names must be strings, got %s", luaL_typename(L, -1)));
        key = lua_tostring(L, -1);
        for (i = 0; layout_fields[i] != NULL; i++)
            if (strcmp(layout_fields[i], key) == 0)
                break;
        if (layout_fields[i] == NULL)
            layout_error(L, arg, lua_pushfstring(L, "unknown field '%s'", key));
    }
    base = lua_gettop(L) + 1;
    for (i = 0; i < F_COUNT; i++)
        lua_getfield(L, idx, layout_fields[i]);
    v[F_TIME] = int_field(L, base + F_TIME, arg, "time_bits", -1);
    v[F_UNIT] = int_field(L, base + F_UNIT, arg, "time_unit_ms", 1);
    v[F_MACHINE] = int_field(L, base + F_MACHINE, arg, "machine_bits", -1);
    v[F_SEQ] = int_field(L, base + F_SEQ, arg, "seq_bits", -1);
    v[F_EPOCH] = int_field(L, base + F_EPOCH, arg, "epoch", 0);
    if (!lua_isnil(L, base + F_ORDER)) {
        size_t len;
        const char *name = lua_type(L, base + F_ORDER) == LUA_TSTRING ? lua_tolstring(L, base + F_ORDER, &len)
                                                                     : NULL;
        order = name == NULL ? -1 : mintid_snowflake_order_of(name, len);
        if (order < 0)
            layout_error(L, arg, "order must be \"time-machine-seq\" or \"time-seq-machine\"");
    }
    err[0] = '\0';
    rc = mintid_snowflake_layout_init(out, v[F_TIME], v[F_UNIT], v[F_MACHINE], v[F_SEQ], v[F_EPOCH], order, err);
    if (rc != MINTID_OK)
        layout_error(L, arg, err);
    /* A name (as snowflake_layout gives it) must be the preset the fields are. */
    if (!lua_isnil(L, base + F_NAME)) {
        const char *preset = mintid_snowflake_layout_name(out);
        if (lua_type(L, base + F_NAME) != LUA_TSTRING || preset == NULL ||
            strcmp(preset, lua_tostring(L, base + F_NAME)) != 0)
            layout_error(L, arg, lua_pushfstring(L, "name %s%s%s is not the preset of these fields (%s)",
                                                 lua_type(L, base + F_NAME) == LUA_TSTRING ? "\"" : "",
                                                 lua_type(L, base + F_NAME) == LUA_TSTRING
                                                     ? lua_tostring(L, base + F_NAME)
                                                     : mintid_lua_describe(L, base + F_NAME),
                                                 lua_type(L, base + F_NAME) == LUA_TSTRING ? "\"" : "",
                                                 preset != NULL ? preset : "none"));
    }
    lua_settop(L, top);
}

void mintid_lua_check_layout(lua_State *L, int idx, int arg, mintid_snowflake_layout *out)
{
    char err[MINTID_ERRMSG_SIZE];

    if (lua_type(L, idx) == LUA_TSTRING) {
        size_t len;
        const char *name = lua_tolstring(L, idx, &len);
        err[0] = '\0';
        if (mintid_snowflake_layout_preset(out, name, len, err) != MINTID_OK)
            layout_error(L, arg, err);
    } else if (lua_type(L, idx) == LUA_TTABLE) {
        table_layout(L, idx, arg, out);
    } else {
        layout_error(L, arg, lua_pushfstring(L, "a preset name or a table expected, got %s", luaL_typename(L, idx)));
    }
}

void mintid_lua_push_layout(lua_State *L, const mintid_snowflake_layout *l)
{
    int64_t v[6];
    const char *name = mintid_snowflake_layout_name(l);
    int i;

    mintid_snowflake_layout_fields(l, v);
    lua_createtable(L, 0, 7);
    for (i = 0; i < F_ORDER; i++) {
        compat_pushint64(L, v[i]);
        lua_setfield(L, -2, layout_fields[i]);
    }
    lua_pushstring(L, mintid_snowflake_order_name((int)v[F_ORDER]));
    lua_setfield(L, -2, "order");
    if (name != NULL) {
        lua_pushstring(L, name);
        lua_setfield(L, -2, "name");
    }
}
