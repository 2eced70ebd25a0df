/*
 * Stand-ins for luasystem's system.core and lua-term's term.core, for
 * busted on the Luas built from source (Lua 5.5, and the test-mode builds
 * of mk/testmode.mk): Debian's mirror serves no source of lua-system, nor
 * the packaging of lua-term (apt-get source gets a 404), and busted calls
 * only these (busted/core.lua: gettime, monotime, sleep; the runner and
 * its output handlers: isatty). One file, built as both modules.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "lua.h"
#include "lauxlib.h"

int luaopen_system_core(lua_State *L);
int luaopen_term_core(lua_State *L);

static double seconds(clockid_t clock)
{
    struct timespec ts;

    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int gettime(lua_State *L)
{
    lua_pushnumber(L, seconds(CLOCK_REALTIME));
    return 1;
}

static int monotime(lua_State *L)
{
    lua_pushnumber(L, seconds(CLOCK_MONOTONIC));
    return 1;
}

static int sleep_for(lua_State *L)
{
    double s = luaL_checknumber(L, 1);
    struct timespec ts;

    if (!(s > 0))
        s = 0;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
    return 0;
}

/* isatty(file): as lua-term's, for io.stdout and the other files of io */
static int is_a_tty(lua_State *L)
{
    FILE **f = (FILE **)luaL_checkudata(L, 1, LUA_FILEHANDLE);

    lua_pushboolean(L, *f != NULL && isatty(fileno(*f)));
    return 1;
}

int luaopen_system_core(lua_State *L)
{
    static const luaL_Reg funcs[] = {
        { "gettime", gettime }, { "monotime", monotime }, { "sleep", sleep_for }, { NULL, NULL }
    };

    lua_newtable(L);
    luaL_setfuncs(L, funcs, 0);
    return 1;
}

int luaopen_term_core(lua_State *L)
{
    lua_newtable(L);
    lua_pushcfunction(L, is_a_tty);
    lua_setfield(L, -2, "isatty");
    return 1;
}
