/*
 * testfork.c: a Lua module for the suite only (never installed), so that
 * spec/11-fork_spec.lua can fork the Lua process itself on every Lua
 * version: testfork.fork() -> pid (0 in the child), testfork.exit(code)
 * (_exit: no second flush of the test runner's buffers), testfork.wait(pid)
 * -> the child's exit status, or nil when it did not exit normally.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lauxlib.h"
#include "lua.h"

int luaopen_testfork(lua_State *L);

static int testfork_fork(lua_State *L)
{
    pid_t pid;

    fflush(NULL);
    pid = fork();
    if (pid < 0)
        return luaL_error(L, "fork failed");
    lua_pushinteger(L, (lua_Integer)pid);
    return 1;
}

static int testfork_exit(lua_State *L)
{
    _exit((int)luaL_checkinteger(L, 1));
    return 0;
}

static int testfork_wait(lua_State *L)
{
    pid_t pid = (pid_t)luaL_checkinteger(L, 1);
    int status;

    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return 0;
    lua_pushinteger(L, WEXITSTATUS(status));
    return 1;
}

int luaopen_testfork(lua_State *L)
{
    static const luaL_Reg funcs[] = {
        { "fork", testfork_fork }, { "exit", testfork_exit }, { "wait", testfork_wait }, { NULL, NULL }
    };

#if LUA_VERSION_NUM >= 502
    luaL_newlib(L, funcs);
#else
    lua_newtable(L);
    luaL_register(L, NULL, funcs);
#endif
    return 1;
}
