/*
 * bench/floor.c (make bench): the floor every "x floor" figure is measured
 * against, a Lua module (mintid_bench_floor) built for Lua 5.4 and for
 * LuaJIT. fresh<N>() takes no argument and returns a string of N bytes
 * that no earlier call returned: the cheapest C call that hands Lua a new
 * string of an ID's length. No ID can cost less: each one is such a
 * string, which Lua allocates, hashes and interns (IDs are short strings)
 * exactly as it does here. A string that repeated would be found in the
 * string table instead of made, a cost no new ID has.
 */
#include <stdint.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

/* One counter for every length: a new value on every call of any of them. */
static uint64_t calls;

/* A stack buffer of n bytes, the counter's 8 in front, the rest fixed. */
#define FRESH(n)                                          \
    static int fresh##n(lua_State *L)                     \
    {                                                     \
        char s[n];                                        \
        uint64_t c = ++calls;                             \
        memset(s, 'A', sizeof s);                         \
        memcpy(s, &c, sizeof c);                          \
        lua_pushlstring(L, s, sizeof s);                  \
        return 1;                                         \
    }
/* The lengths of the IDs make bench times (and the 16 of a span-id). */
#define LENGTHS(X) X(10) X(12) X(16) X(19) X(20) X(21) X(24) X(26) X(27) X(28) X(31) X(32) X(36) X(55)
LENGTHS(FRESH)

/* Not a floor: fresh21's string with the counter at its end, its lowest
 * byte last, for the reader of the random kinds' rows. Lua 5.4 hashes a
 * short string from its last byte to its first, so fresh<N>'s counter,
 * in front, is hashed last: each call's hash is near the one before, and
 * its string goes to a bucket of the string table near the one before. A
 * random ID's string goes anywhere in the table; this one's, whose counter
 * is hashed first, does too. (Its lowest bytes are also the last four,
 * which LuaJIT's hash of a string reads.) */
static int counter_at_end21(lua_State *L)
{
    char s[21];
    uint64_t c = ++calls;
    size_t i;

    memset(s, 'A', sizeof s);
    for (i = 0; i < 8; i++, c >>= 8)
        s[sizeof s - 1 - i] = (char)(c & 0xFF);
    lua_pushlstring(L, s, sizeof s);
    return 1;
}

/* A Snowflake generator's next() returns an integer where Lua has them
 * (5.3 on): its cheapest honest floor is a new integer, no string at all. */
static int fresh_integer(lua_State *L)
{
#if LUA_VERSION_NUM >= 503
    lua_pushinteger(L, (lua_Integer)++calls);
#else
    lua_pushnumber(L, (lua_Number)++calls);
#endif
    return 1;
}

/* Not a floor: what a method call costs before its method does anything,
 * for the reader of the Snowflake row. holder() makes a userdata whose
 * metatable's __index table has next (fresh_integer), as a generator's
 * has: h:next() is g:next()'s look-up and call, with no work and no check
 * of self. */
#define HOLDER "mintid_bench_floor.holder"

static int holder(lua_State *L)
{
#if LUA_VERSION_NUM >= 504
    lua_newuserdatauv(L, 8, 0);
#else
    lua_newuserdata(L, 8);
#endif
    luaL_getmetatable(L, HOLDER);
    lua_setmetatable(L, -2);
    return 1;
}

/* The floor of a conversion of one UUID to 22 bytes (a short UUID): a C
 * function that takes the UUID, as text (its 36 bytes read) or as a value
 * (a userdata's first 16 bytes), and returns 22 bytes cut from it. Its
 * results repeat exactly when the conversion's do (the same UUIDs in the
 * same turn), so Lua finds as many of them in its string table on both
 * sides. */
static int cut22_text(lua_State *L)
{
    size_t len;
    const char *t = luaL_checklstring(L, 1, &len);

    luaL_argcheck(L, len == 36, 1, "a 36-byte UUID text expected");
    lua_pushlstring(L, t + 14, 22);
    return 1;
}

static int cut22_value(lua_State *L)
{
    const unsigned char *v = (const unsigned char *)lua_touserdata(L, 1);
    char s[22];

    luaL_argcheck(L, v != NULL, 1, "a UUID value expected");
    memcpy(s, v, 16);
    memset(s + 16, 'A', 6);
    lua_pushlstring(L, s, sizeof s);
    return 1;
}

#define ENTRY(n) { "fresh" #n, fresh##n },
static const luaL_Reg funcs[] = { LENGTHS(ENTRY) { "fresh_integer", fresh_integer }, { "holder", holder },
                                  { "counter_at_end21", counter_at_end21 },
                                  { "cut22_text", cut22_text }, { "cut22_value", cut22_value }, { NULL, NULL } };

int luaopen_mintid_bench_floor(lua_State *L);
int luaopen_mintid_bench_floor(lua_State *L)
{
    luaL_newmetatable(L, HOLDER);
    lua_newtable(L);
    lua_pushcfunction(L, fresh_integer);
    lua_setfield(L, -2, "next");
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    lua_newtable(L);
#if LUA_VERSION_NUM >= 502
    luaL_setfuncs(L, funcs, 0);
#else
    luaL_register(L, NULL, funcs);
#endif
    return 1;
}
