/*
 * host.c: a C program that embeds Lua and links mintid into itself, the way
 * a game engine or a router daemon does: no dlopen, no package.cpath, no
 * Lua file of mintid. Built from the single file (build/amalgamation/mintid.c)
 * or from build/libmintid.a, against Lua 5.1 to 5.4 (see the Makefile's
 * embed rules and doc/guide.md "Embedding").
 *
 *   host script.lua
 *
 * runs script.lua (every kind minted and parsed), then two OS threads, each
 * with its own lua_State, minting from the process-wide default generators
 * that mintid keeps; it checks that every ID is unique and that each
 * thread's IDs strictly increase. Prints TAP; exits 1 if a test failed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

/* The opener of mintid, from mintid.c or libmintid.a. */
int luaopen_mintid(lua_State *L);

#define THREADS 2
#define IDS_PER_THREAD 20000
#define ULID_LEN 26
#define UUID_LEN 36

static int tests, failures;

static void check(int ok, const char *what)
{
    printf("%s %d - %s\n", ok ? "ok" : "not ok", ++tests, what);
    if (!ok)
        failures++;
}

/* tap(ok, what) for the script */
static int lua_tap(lua_State *L)
{
    check(lua_toboolean(L, 1), luaL_checkstring(L, 2));
    return 0;
}

/* The only thing a host does for mintid: register its opener, so that
 * require "mintid" finds it (5.2+: luaL_requiref also loads it now). */
static void register_mintid(lua_State *L)
{
#if LUA_VERSION_NUM >= 502
    luaL_requiref(L, "mintid", luaopen_mintid, 0);
    lua_pop(L, 1);
#else
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "preload");
    lua_pushcfunction(L, luaopen_mintid);
    lua_setfield(L, -2, "mintid");
    lua_pop(L, 2);
#endif
}

/* A state with the standard libraries and mintid, and no search path: a
 * require "mintid" that looked for a file would fail. */
static lua_State *new_state(void)
{
    lua_State *L = luaL_newstate();

    if (L == NULL)
        return NULL;
    luaL_openlibs(L);
    register_mintid(L);
    lua_getglobal(L, "package");
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "path");
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "cpath");
    lua_pop(L, 1);
    return L;
}

/* ---- two threads on the shared default generators ----------------------- */

static const char thread_chunk[] =
    "local mintid = require 'mintid'\n"
    "local n = ...\n"
    "local ulids, uuids = {}, {}\n"
    "for i = 1, n do ulids[i] = mintid.ulid(); uuids[i] = mintid.uuid7() end\n"
    "return table.concat(ulids), table.concat(uuids)\n";

typedef struct {
    char *ulids; /* IDS_PER_THREAD * ULID_LEN chars */
    char *uuids; /* IDS_PER_THREAD * UUID_LEN chars */
    const char *error;
} thread_result;

static char *copy_ids(lua_State *L, int idx, size_t id_len)
{
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    char *out;

    if (s == NULL || len != id_len * IDS_PER_THREAD || (out = malloc(len)) == NULL)
        return NULL;
    memcpy(out, s, len);
    return out;
}

static void *mint(void *arg)
{
    thread_result *r = arg;
    lua_State *L = new_state();

    if (L == NULL) {
        r->error = "luaL_newstate failed";
        return NULL;
    }
    if (luaL_loadstring(L, thread_chunk) != 0) {
        r->error = "thread chunk does not load";
    } else {
        lua_pushinteger(L, IDS_PER_THREAD);
        if (lua_pcall(L, 1, 2, 0) != 0) {
            r->error = "thread chunk failed";
            fprintf(stderr, "# %s\n", lua_tostring(L, -1));
        } else {
            r->ulids = copy_ids(L, -2, ULID_LEN);
            r->uuids = copy_ids(L, -1, UUID_LEN);
            if (r->ulids == NULL || r->uuids == NULL)
                r->error = "thread chunk returned IDs of the wrong size";
        }
    }
    lua_close(L);
    return NULL;
}

/* Each thread's IDs in strictly increasing order (the text order of ULIDs
 * and of UUIDv7s is their byte order). */
static int increasing(const char *ids, size_t id_len)
{
    size_t i;

    for (i = 1; i < IDS_PER_THREAD; i++)
        if (memcmp(ids + (i - 1) * id_len, ids + i * id_len, id_len) >= 0)
            return 0;
    return 1;
}

static size_t sort_len;

static int compare_ids(const void *a, const void *b)
{
    return memcmp(a, b, sort_len);
}

/* No ID twice among every thread's. */
static int unique(const thread_result *r, int uuid)
{
    size_t id_len = uuid ? UUID_LEN : ULID_LEN, per = IDS_PER_THREAD * id_len, i;
    char *all = malloc(per * THREADS);
    int t, ok = all != NULL;

    for (t = 0; ok && t < THREADS; t++)
        memcpy(all + t * per, uuid ? r[t].uuids : r[t].ulids, per);
    if (ok) {
        sort_len = id_len;
        qsort(all, IDS_PER_THREAD * THREADS, id_len, compare_ids);
        for (i = 1; ok && i < IDS_PER_THREAD * THREADS; i++)
            ok = memcmp(all + (i - 1) * id_len, all + i * id_len, id_len) != 0;
    }
    free(all);
    return ok;
}

static void run_threads(void)
{
    pthread_t tid[THREADS];
    thread_result r[THREADS];
    int t, started = 0, minted = 1, ulids_up = 1, uuids_up = 1;

    memset(r, 0, sizeof r);
    while (started < THREADS && pthread_create(&tid[started], NULL, mint, &r[started]) == 0)
        started++;
    for (t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    check(started == THREADS, "two threads started, each with its own lua_State");
    for (t = 0; t < started; t++) {
        if (r[t].error != NULL) {
            printf("# thread %d: %s\n", t + 1, r[t].error);
            minted = 0;
        }
    }
    if (started == THREADS && minted) {
        check(1, "each thread minted its ULIDs and UUIDv7s from the default generators");
        for (t = 0; t < THREADS; t++) {
            ulids_up = ulids_up && increasing(r[t].ulids, ULID_LEN);
            uuids_up = uuids_up && increasing(r[t].uuids, UUID_LEN);
        }
        check(ulids_up, "each thread's ULIDs strictly increase");
        check(uuids_up, "each thread's UUIDv7s strictly increase");
        check(unique(r, 0), "no ULID twice across both threads");
        check(unique(r, 1), "no UUIDv7 twice across both threads");
    } else if (started == THREADS) {
        check(0, "each thread minted its ULIDs and UUIDv7s from the default generators");
    }
    for (t = 0; t < THREADS; t++) {
        free(r[t].ulids);
        free(r[t].uuids);
    }
}

int main(int argc, char **argv)
{
    lua_State *L;

    if (argc != 2) {
        fprintf(stderr, "usage: %s script.lua\n", argv[0]);
        return 2;
    }
    L = new_state();
    if (L == NULL) {
        puts("Bail out! luaL_newstate failed");
        return 1;
    }
    lua_register(L, "tap", lua_tap);
    if (luaL_dofile(L, argv[1]) != 0) {
        printf("# %s\n", lua_tostring(L, -1));
        check(0, "the script runs to its end");
    }
    lua_close(L);
    run_threads();
    printf("1..%d\n", tests);
    return failures == 0 ? 0 : 1;
}
