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

/* The open handle at 1; its path (user value 1) pushed, at *path_idx,
 * for the messages of lock_file_fail. */
static mintid_lock_file *check_open(lua_State *L, int *path_idx)
{
    lock_file_ud *u = (lock_file_ud *)luaL_checkudata(L, 1, LOCK_FILE_TNAME);

    if (u->f == NULL)
        luaL_error(L, "attempt to use a closed " LOCK_FILE_TNAME);
    compat_getuservalue(L, 1, 1);
    *path_idx = lua_gettop(L);
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
    int path_idx;

    if (lua_isnoneornil(L, 3)) {
        mintid_snowflake_layout_default(&layout);
    } else {
        const mintid_fence *fence = mintid_lua_to_fence(L, 3);
        if (fence == NULL)
            luaL_argerror(L, 3, "a lease fence expected");
        mintid_fence_layout(fence, &layout);
    }
    f = check_open(L, &path_idx);
    i = check_byte(L, 2);
    err[0] = '\0';
    if (mintid_lock_file_take(f, i, mintid_snowflake_layout_state_of(&layout), &got, &floor_ms, err) != MINTID_OK)
        return lock_file_fail(L, path_idx, err);
    if (!got)
        lua_pushboolean(L, 0);
    else
        compat_pushint64(L, floor_ms);
    return 1;
}

static int lock_file_unlock(lua_State *L)
{
    int path_idx;
    mintid_lock_file *f = check_open(L, &path_idx);
    uint32_t i = check_byte(L, 2);
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_os_lock_file_unlock(f, i, err) != MINTID_OK)
        return lock_file_fail(L, path_idx, err);
    lua_pushboolean(L, 1);
    return 1;
}

static int lock_file_taken(lua_State *L)
{
    int path_idx;
    mintid_lock_file *f = check_open(L, &path_idx);
    uint32_t i = check_byte(L, 2);
    int taken = 0;
    char err[MINTID_ERRMSG_SIZE];

    err[0] = '\0';
    if (mintid_os_lock_file_taken(f, i, &taken, err) != MINTID_OK)
        return lock_file_fail(L, path_idx, err);
    lua_pushboolean(L, taken);
    return 1;
}

/* h:held(lo, hi) -> the ids lo..hi another handle holds, in no order: one
 * query per lock found and per range around it, not one per id (a layout
 * of 32 machine bits has 2^32). OFD locks name any conflicting lock, not
 * the lowest, so each range is split around the one found. */
static int lock_file_held(lua_State *L)
{
    int path_idx, ids, todo;
    mintid_lock_file *f = check_open(L, &path_idx);
    uint32_t lo = check_byte(L, 2), hi = check_byte(L, 3);
    lua_Integer n = 0, ranges = 0;
    char err[MINTID_ERRMSG_SIZE];

    lua_newtable(L); /* the ids */
    ids = lua_gettop(L);
    lua_newtable(L); /* the ranges still to search, as lo, hi pairs */
    todo = lua_gettop(L);
    if (lo <= hi) {
        compat_pushint64(L, lo);
        lua_rawseti(L, todo, ++ranges);
        compat_pushint64(L, hi);
        lua_rawseti(L, todo, ++ranges);
    }
    while (ranges > 0) {
        uint32_t from, to, first = 0, last = 0, i;
        int found = 0;

        lua_rawgeti(L, todo, ranges--);
        lua_rawgeti(L, todo, ranges--);
        from = (uint32_t)compat_checkint64(L, -1);
        to = (uint32_t)compat_checkint64(L, -2);
        lua_pop(L, 2);
        err[0] = '\0';
        if (mintid_os_lock_file_find(f, from, to, &found, &first, &last, err) != MINTID_OK)
            return lock_file_fail(L, path_idx, err);
        if (!found)
            continue;
        for (i = first;; i++) {
            compat_pushint64(L, (int64_t)i);
            lua_rawseti(L, ids, ++n);
            if (i == last)
                break;
        }
        if (first > from) {
            compat_pushint64(L, from);
            lua_rawseti(L, todo, ++ranges);
            compat_pushint64(L, first - 1);
            lua_rawseti(L, todo, ++ranges);
        }
        if (last < to) {
            compat_pushint64(L, last + 1);
            lua_rawseti(L, todo, ++ranges);
            compat_pushint64(L, to);
            lua_rawseti(L, todo, ++ranges);
        }
    }
    lua_pop(L, 1);
    return 1;
}

/* h:path() -> the path the file was opened by, symbolic links resolved */
static int lock_file_path(lua_State *L)
{
    int path_idx;

    lua_pushstring(L, mintid_os_lock_file_path(check_open(L, &path_idx)));
    return 1;
}

/* h:pin(record) -> the first line of the layout record, now kept open and
 * checked by h:guard (false: no such file, or an empty one) */
static int lock_file_pin(lua_State *L)
{
    int path_idx;
    mintid_lock_file *f = check_open(L, &path_idx);
    size_t len;
    const char *record = mintid_lua_check_text(L, 2, &len);
    char line[MINTID_ERRMSG_SIZE], err[MINTID_ERRMSG_SIZE];
    int found = 0;

    err[0] = '\0';
    if (mintid_os_lock_file_pin(f, record, line, sizeof line, &found, err) != MINTID_OK)
        return lock_file_fail(L, path_idx, err);
    if (found)
        lua_pushstring(L, line);
    else
        lua_pushboolean(L, 0);
    return 1;
}

static int guard_check(void *ctx, int64_t *last_ms, char *err)
{
    const lock_file_ud *u = (const lock_file_ud *)ctx;

    if (u->f == NULL)
        return mintid_fail(err, MINTID_ELEASE, "snowflake: lease lost: its lock file was closed");
    return mintid_lock_file_check(u->f, last_ms, err);
}

/* h:guard(fence) -> true: the fence, just held with an id of this file
 * (which it anchors), mints only while the file and its pinned record
 * are still the ones their paths name (lock_file.c) */
static int lock_file_guard(lua_State *L)
{
    lock_file_ud *u = (lock_file_ud *)luaL_checkudata(L, 1, LOCK_FILE_TNAME);
    mintid_fence *fence = mintid_lua_to_fence(L, 2);
    char err[MINTID_ERRMSG_SIZE];
    int path_idx;

    if (fence == NULL)
        luaL_argerror(L, 2, "a lease fence expected");
    (void)check_open(L, &path_idx);
    err[0] = '\0';
    if (mintid_fence_guard(fence, guard_check, u, err) != MINTID_OK) {
        lua_pushnil(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_pushboolean(L, 1);
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
        { "held", lock_file_held }, { "path", lock_file_path }, { "pin", lock_file_pin },
        { "guard", lock_file_guard }, { "close", lock_file_close }, { NULL, NULL }
    };

    mintid_lua_new_class(L, module, LOCK_FILE_TNAME, meta, methods, "_lock_file", m_lock_file);
}
