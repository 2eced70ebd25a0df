/*
 * lua_sqids.c: mintid.sqids(opts), a Sqids encoder (sqids.c) as a userdata
 * made once: its memory is the core's encoder itself (the shuffled alphabet
 * and the filtered blocklist), so s:encode and s:decode only read it, and
 * allocate nothing but their result for IDs of ordinary size.
 *
 * Numbers are those this Lua holds exactly: 0..2^63 - 1 where integers are
 * 64 bits, 0..2^53 - 1 where they are doubles (the reference's own limit,
 * Number.MAX_SAFE_INTEGER). A text whose numbers pass that bound is no ID
 * an encoder here makes: decode gives {} for it.
 */
#include <stdio.h>

#include "lua_binding.h"

/* An array's length, read raw (no __len runs in the middle of a call). */
#if LUA_VERSION_NUM < 502
#define raw_length(L, idx) lua_objlen((L), (idx))
#else
#define raw_length(L, idx) lua_rawlen((L), (idx))
#endif

#define SQIDS_TNAME "mintid.Sqids"
/* The stack's share of a call: up to this many numbers, symbols. */
#define STACK_NUMBERS 32
#define STACK_TEXT    512

/* The encoder at 1: a userdata of either metatable, this module's (upvalue
 * 1 of every method) or resty.mintid's (upvalue 2), told apart with no
 * look-up by name; anything else raises as luaL_checkudata does. Its
 * metatable stays on the stack (one call fewer): every method reads its
 * arguments at their own indices and returns what it pushes last. */
static inline const mintid_sqids *check_sqids(lua_State *L)
{
    void *p = lua_touserdata(L, 1);

    if (p != NULL && lua_getmetatable(L, 1)) {
        /* tables' addresses: cheaper than lua_rawequal's general compare */
        const void *mt = lua_topointer(L, -1);
        if (mt == lua_topointer(L, lua_upvalueindex(1)) || mt == lua_topointer(L, lua_upvalueindex(2)))
            return (const mintid_sqids *)p;
        lua_pop(L, 1);
    }
    return (const mintid_sqids *)luaL_checkudata(L, 1, SQIDS_TNAME); /* raises */
}

/* numbers[i] of the array at 2, pushed: whether it is an integer
 * 0..MINTID_LUA_MAX_EXACT, to *out. Where Lua integers are 64 bits, an
 * integer is read with two calls (lua_rawgeti says its type). */
static int read_number(lua_State *L, size_t i, uint64_t *out)
{
    int64_t v;

#if MINTID_LUA_INT64
    if (lua_rawgeti(L, 2, (lua_Integer)i) == LUA_TNUMBER) {
        int isint;
        lua_Integer x = lua_tointegerx(L, -1, &isint);
        if (isint) {
            *out = (uint64_t)x;
            return x >= 0; /* and at most INT64_MAX, MINTID_LUA_MAX_EXACT */
        }
    }
#else
    lua_rawgeti(L, 2, (lua_Integer)i);
#endif
    if (!compat_toint64(L, -1, &v) || v < 0 || v > MINTID_LUA_MAX_EXACT)
        return 0;
    *out = (uint64_t)v;
    return 1;
}

/* Room of n items of size each: on the C stack when it fits there, else a
 * scratch userdata left on the Lua stack (collected after the call). */
static void *scratch(lua_State *L, void *stack_room, size_t stack_size, size_t n, size_t size)
{
    if (n <= stack_size / size)
        return stack_room;
    if (n > (size_t)-1 / size)
        luaL_error(L, "sqids: %d items are too many", (int)n);
    return compat_newuserdatauv(L, n * size, 0);
}

/* A number as a message shows it: an integer-valued double of 64 bits or
 * fewer in full (2^53 is 9007199254740992, not 9.007199254741e+15). */
static const char *describe_number(lua_State *L, int idx)
{
    char buf[32];
    lua_Number v;

    if (lua_type(L, idx) != LUA_TNUMBER)
        return mintid_lua_describe(L, idx);
#if LUA_VERSION_NUM >= 503
    if (lua_isinteger(L, idx))
        return mintid_lua_describe(L, idx);
#endif
    v = lua_tonumber(L, idx);
    /* NaN fails both; every double of 2^63 or more is an integer */
    if (!(v > -18446744073709551616.0 && v < 18446744073709551616.0))
        return mintid_lua_describe(L, idx);
    if (v > -9223372036854775808.0 && v < 9223372036854775808.0 && (lua_Number)(int64_t)v != v)
        return mintid_lua_describe(L, idx);
    snprintf(buf, sizeof buf, "%.0f", (double)v);
    lua_pushstring(L, buf);
    return lua_tostring(L, -1);
}

static int sqids_opt_error(lua_State *L, const char *name, const char *what, const char *got)
{
    return luaL_argerror(L, 1, lua_pushfstring(L, "%s must be %s, got %s", name, what, got));
}

/* The blocklist option at idx, an array of strings read raw: pointers and
 * lengths in a scratch userdata pushed on the stack (the strings stay
 * alive in the table, at its own index on the stack). */
static size_t opt_blocklist(lua_State *L, int idx, const uint8_t *const **words, const size_t **lens)
{
    size_t n, i;
    const uint8_t **w;
    size_t *l;

    if (lua_type(L, idx) != LUA_TTABLE)
        sqids_opt_error(L, "blocklist", "an array of strings", luaL_typename(L, idx));
    n = (size_t)raw_length(L, idx);
    w = (const uint8_t **)compat_newuserdatauv(L, (n + 1) * (sizeof *w + sizeof *l), 0);
    l = (size_t *)(void *)(w + n + 1);
    for (i = 0; i < n; i++) {
        lua_rawgeti(L, idx, (lua_Integer)i + 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            char name[40];
            snprintf(name, sizeof name, "blocklist[%d]", (int)i + 1);
            sqids_opt_error(L, name, "a string", luaL_typename(L, -1));
        }
        w[i] = (const uint8_t *)lua_tolstring(L, -1, &l[i]);
        lua_pop(L, 1);
    }
    *words = w;
    *lens = l;
    return n;
}

/* mintid.sqids([opts]): options alphabet, min_length, blocklist, read as
 * Lua reads a field; an unknown one raises. */
static int m_sqids(lua_State *L)
{
    static const char *const known[] = { "alphabet", "min_length", "blocklist", NULL };
    const char *alphabet = mintid_sqids_default_alphabet;
    size_t alen = sizeof mintid_sqids_default_alphabet - 1, n_words = 0, size;
    int64_t min_length = 0;
    const uint8_t *const *words = NULL;
    const size_t *lens = NULL;
    char err[MINTID_ERRMSG_SIZE];
    void *s;
    int i;

    lua_settop(L, 1);
    if (!lua_isnil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        mintid_lua_check_option_names(L, known);
        for (i = 0; known[i] != NULL; i++)
            lua_getfield(L, 1, known[i]);
        if (!lua_isnil(L, 2)) {
            if (lua_type(L, 2) != LUA_TSTRING)
                sqids_opt_error(L, "alphabet", "a string", luaL_typename(L, 2));
            alphabet = lua_tolstring(L, 2, &alen);
        }
        if (!lua_isnil(L, 3) && !compat_toint64(L, 3, &min_length))
            sqids_opt_error(L, "min_length", "an integer", mintid_lua_describe(L, 3));
        if (!lua_isnil(L, 4))
            n_words = opt_blocklist(L, 4, &words, &lens);
    }
    size = mintid_sqids_size((const uint8_t *)alphabet, alen, words, lens, n_words);
    s = compat_newuserdatauv(L, size, 0);
    err[0] = '\0';
    if (mintid_sqids_init((mintid_sqids *)s, size, (const uint8_t *)alphabet, alen, min_length, words, lens,
                          n_words, err) != MINTID_OK)
        return luaL_argerror(L, 1, err);
    /* the constructor's upvalue: the metatable of this module's objects,
     * or of resty.mintid's */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_setmetatable(L, -2);
    return 1;
}

/* s:encode(numbers): the ID of an array of integers ({} gives ""). */
static int sqids_encode(lua_State *L)
{
    const mintid_sqids *s = check_sqids(L);
    uint64_t stack_numbers[STACK_NUMBERS], *numbers;
    char stack_text[STACK_TEXT], *text, err[MINTID_ERRMSG_SIZE];
    size_t n, i, len;
    int rc;

    if (lua_type(L, 2) != LUA_TTABLE)
        luaL_checktype(L, 2, LUA_TTABLE); /* raises */
    n = (size_t)raw_length(L, 2);
    if (n > MINTID_SQIDS_MAX_NUMBERS)
        return luaL_argerror(L, 2, lua_pushfstring(L, "at most %d numbers, got %d", MINTID_SQIDS_MAX_NUMBERS,
                                                   (int)n));
    numbers = (uint64_t *)scratch(L, stack_numbers, sizeof stack_numbers, n, sizeof *numbers);
    for (i = 0; i < n; i++) {
        if (i > 0)
            lua_pop(L, 1); /* the last one stays: the call ends soon */
        if (!read_number(L, i + 1, &numbers[i])) {
            char max[MINTID_LUA_INT_TEXT_SIZE];
            return luaL_argerror(L, 2, lua_pushfstring(L, "numbers[%d] must be an integer 0..%s, got %s",
                                                       (int)i + 1, mintid_lua_i64str(max, MINTID_LUA_MAX_EXACT),
                                                       describe_number(L, -1)));
        }
    }
    /* a number takes at most 64 symbols and a separator, and padding at
     * most 255: the exact length only for a list that may not fit */
    len = n <= (STACK_TEXT - 1) / 65 ? STACK_TEXT : mintid_sqids_encoded_len(s, numbers, n);
    text = (char *)scratch(L, stack_text, sizeof stack_text, len, 1);
    err[0] = '\0';
    rc = mintid_sqids_encode(s, numbers, n, text, err);
    if (rc < 0)
        return luaL_error(L, "%s", err);
    lua_pushlstring(L, text, (size_t)rc);
    return 1;
}

/* s:decode(text): the array of its numbers; {} when text is no ID of s. */
static int sqids_decode(lua_State *L)
{
    const mintid_sqids *s = check_sqids(L);
    uint64_t stack_numbers[STACK_NUMBERS], *numbers;
    size_t len;
    const char *text = mintid_lua_check_text(L, 2, &len);
    int n, i;

    numbers = (uint64_t *)scratch(L, stack_numbers, sizeof stack_numbers, len, sizeof *numbers);
    n = mintid_sqids_decode(s, text, len, (uint64_t)MINTID_LUA_MAX_EXACT, numbers, NULL);
    if (n < 0)
        n = 0; /* a number past this Lua's integers: no encoder here made it */
    lua_createtable(L, n, 0);
    for (i = 0; i < n; i++) {
        compat_pushint64(L, (int64_t)numbers[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int sqids_tostring(lua_State *L)
{
    lua_pushfstring(L, SQIDS_TNAME " (%p)", lua_topointer(L, 1));
    return 1;
}

static const luaL_Reg sqids_meta[] = { { "__tostring", sqids_tostring }, { NULL, NULL } };
static const luaL_Reg sqids_methods[] = { { "encode", sqids_encode }, { "decode", sqids_decode }, { NULL, NULL } };

/* Two metatables of one kind: this module's, registered as SQIDS_TNAME,
 * and resty.mintid's (_ffi.sqids_meta), whose methods that module replaces
 * with FFI ones that hand any unusual call to these. Both have every method
 * with the two as upvalues, so either accepts an object of either. */
void mintid_lua_open_sqids(lua_State *L, int module, int ffi)
{
    int mt, ffi_mt, target;

    luaL_newmetatable(L, SQIDS_TNAME);
    mt = lua_gettop(L);
    lua_newtable(L);
    ffi_mt = lua_gettop(L);
    lua_pushliteral(L, SQIDS_TNAME);
    lua_setfield(L, ffi_mt, "__name");
    for (target = mt; target <= ffi_mt; target++) {
        lua_pushvalue(L, target);
        lua_pushvalue(L, mt);
        lua_pushvalue(L, ffi_mt);
        luaL_setfuncs(L, sqids_meta, 2);
        lua_newtable(L);
        lua_pushvalue(L, mt);
        lua_pushvalue(L, ffi_mt);
        luaL_setfuncs(L, sqids_methods, 2);
        lua_setfield(L, -2, "__index");
        lua_pop(L, 1);
    }
    lua_pushvalue(L, mt);
    lua_pushcclosure(L, m_sqids, 1);
    lua_setfield(L, module, "sqids");
    lua_pushvalue(L, ffi_mt);
    lua_pushcclosure(L, m_sqids, 1);
    lua_setfield(L, ffi, "sqids");
    lua_setfield(L, ffi, "sqids_meta");
    lua_pop(L, 1);
}
