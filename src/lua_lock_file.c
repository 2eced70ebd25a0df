/*
 * lua_lock_file.c: the byte locks under lease.lock_file (lock_file.c, the
 * platform layer's lock files), for lua/mintid/lease/lock_file.lua only:
 * mintid._lock_file(path, create) -> h (nil, message; false when create is
 * false and there is no file), h:lock(i) -> floor_ms or false (taken),
 * h:unlock(i) -> true, h:taken(i) -> boolean, h:close(). Every failure of
 * the OS is nil, message naming the file: a lease reports it to its caller.
 */
#include "lua_binding.h"

#define LOCK_FILE_TNAME "mintid.LockFile"

typedef struct {
    mintid_lock_file *f; /* NULL once closed */
} lock_file_ud;

/* The open handle at 1, and its path (user value 1) at the stack top. */
static mintid_lock_file *check_open(lua_State *L)
{
    lock_file_ud *u = (lock_file_ud *)luaL_checkudata(L, 1, LOCK_FILE_TNAME);

    if (u->f == NULL)
        luaL_error(L, "attempt to use a closed " LOCK_FILE_TNAME);
    compat_getuservalue(L, 1, 1);
    return u->f;
}

static uint32_t check_byte(lua_State *L, int arg)
{
    int64_t i = compat_checkint64(L, arg);

    /* A byte offset of the file: the platform layer's are 32-bit. */
    if (i < 0 || i > (int64_t)UINT32_MAX)
        luaL_argerror(L, arg, "machine id must be 0..4294967295 (a byte of the lock file)");
    return (uint32_t)i;
}

/* nil, "lock file <path>: <err>"; the path is at path_idx. */
static int lock_file_fail(lua_State *L, int path_idx, const char *err)
{
    lua_pushnil(L);
    lua_pushfstring(L, "lock file %s: %s", lua_tostring(L, path_idx), err);
    return 2;
}

static int m_lock_file(lua_State *L)
{
    size_t len;
    const char *path = mintid_lua_check_text(L, 1, &len);
    int create = lua_isnone(L, 2) || lua_toboolean(L, 2);
    lock_file_ud *u;
    mintid_lock_file *f = NULL;
    char err[MINTID_ERRMSG_SIZE];

    if (len == 0 || strlen(path) != len)
        return luaL_argerror(L, 1, len == 0 ? "path is empty" : "path holds a zero byte");
    lua_settop(L, 2);
    /* Made first, so that the handle is never lost to a failed allocation. */
    u = (lock_file_ud *)compat_newuserdatauv(L, sizeof *u, 1);
    u->f = NULL;
    luaL_setmetatable(L, LOCK_FILE_TNAME);
    lua_pushvalue(L, 1);
    compat_setuservalue(L, -2, 1);
    err[0] = '\0';
    if (mintid_os_lock_file_open(path, create, &f, err) != MINTID_OK)
        return lock_file_fail(L, 1, err);
    if (f == NULL) {
        lua_pushboolean(L, 0);
        return 1;
    }
    u->f = f;
    return 1;
}

/* h:lock(i [, fence]): the wait is for the first unit of the fence's
 * layout after the floor (default layout: the next ms). */
static int lock_file_lock(lua_State *L)
{
    mintid_lock_file *f;
    uint32_t i;
    int64_t floor_ms = 0;
    int got = 0;
    mintid_snowflake_layout layout;
    char err[MINTID_ERRMSG_SIZE];

    /* Read before check_open, which pushes the handle's user value. */
    if (lua_isnoneornil(L, 3)) {
        mintid_snowflake_layout_default(&layout);
    } else {
        const mintid_fence *fence = mintid_lua_to_fence(L, 3);
        if (fence == NULL)
            luaL_argerror(L, 3, "a lease fence expected");
        mintid_fence_layout(fence, &layout);
    }
    f = check_open(L);
    i = check_byte(L, 2);
    err[0] = '\0';
    if (mintid_lock_file_take(f, i, mintid_snowflake_layout_state_of(&layout), &got, &floor_ms, err) != MINTID_OK)
        return lock_file_fail(L, 3, err);
    if (!got)
        lua_pushboolean(L, 0);
    else
        compat_pushint64(L, floor_ms);
    return 1;
}

static int lock_file_unlock(lua_State *L)
{
    mintid_lock_file *f = check_open(L);
    uint32_t i = check_byte(L, 2);
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_os_lock_file_unlock(f, i, err) != MINTID_OK)
        return lock_file_fail(L, 3, err);
    lua_pushboolean(L, 1);
    return 1;
}

static int lock_file_taken(lua_State *L)
{
    mintid_lock_file *f = check_open(L);
    uint32_t i = check_byte(L, 2);
    int taken = 0;
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_os_lock_file_taken(f, i, &taken, err) != MINTID_OK)
        return lock_file_fail(L, 3, err);
    lua_pushboolean(L, taken);
    return 1;
}

/* Also __gc and __close: safe to run twice. */
static int lock_file_close(lua_State *L)
{
    lock_file_ud *u = (lock_file_ud *)luaL_checkudata(L, 1, LOCK_FILE_TNAME);
    mintid_lock_file *f = u->f;

    u->f = NULL;
    mintid_os_lock_file_close(f);
    return 0;
}

static int lock_file_tostring(lua_State *L)
{
    lock_file_ud *u = (lock_file_ud *)luaL_checkudata(L, 1, LOCK_FILE_TNAME);

    compat_getuservalue(L, 1, 1);
    lua_pushfstring(L, LOCK_FILE_TNAME " (%s%s)", lua_tostring(L, -1), u->f == NULL ? ", closed" : "");
    return 1;
}

void mintid_lua_open_lock_file(lua_State *L, int module)
{
    static const luaL_Reg meta[] = {
        { "__gc", lock_file_close }, { "__close", lock_file_close }, { "__tostring", lock_file_tostring },
        { NULL, NULL }
    };
    static const luaL_Reg methods[] = {
        { "lock", lock_file_lock }, { "unlock", lock_file_unlock }, { "taken", lock_file_taken },
        { "close", lock_file_close }, { NULL, NULL }
    };

    mintid_lua_new_class(L, module, LOCK_FILE_TNAME, meta, methods, "_lock_file", m_lock_file);
}
