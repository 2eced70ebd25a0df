/*
 * bench/threads.c (make bench): the process-wide defaults under threads, as
 * a host that runs Lua states in several OS threads uses them. Each OS
 * thread runs its own Lua 5.4 state calling mintid.X() in a loop (the
 * module is build/5.4/mintid.so, loaded by require as any host loads it),
 * or calls the C ABI alone. IDs per second over all threads, at 1 and 2
 * threads and at the machine's core count, and the ratio to one thread.
 * Rounds are interleaved (every row and thread count in turn, ROUNDS
 * times) and each figure is the best round: the machine is shared, and
 * another process only ever makes a round slower. The
 * first row is the machine's own scaling for the same Lua work without
 * mintid: a C function returning a fresh 36-char string (never one made
 * before, as each ID is), which no thread shares with another.
 * Usage: bench_threads MODULE-DIR. Prints figures; never fails on timing.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "mintid.h"
#include "internal.h"

#define ROUNDS 9
#define ROUND_MS 100
#define LUA_CHUNK_CALLS 2000
#define C_CHUNK_CALLS 5000
#define MAX_COUNTS 3
#define MAX_THREADS 64

static const char *module_dir;
static mintid_nanoid_spec nano_default;

/* ---- what one thread runs ------------------------------------------------ */

typedef struct row row;

typedef struct {
    const row *r;
    pthread_barrier_t *start;
    const int *stop;
    lua_State *L;
    double calls, seconds;
    const char *error;
} worker;

struct row {
    const char *name;
    const char *lua_call;        /* mintid.<lua_call>(), or NULL: C */
    void (*c_call)(char *err);   /* one C call */
};

static void c_ulid(char *err)
{
    char out[MINTID_ULID_TEXT_LEN];

    mintid_ulid_text(out, err);
}

static void c_uuid7(char *err)
{
    char out[MINTID_UUID_TEXT_LEN];

    mintid_uuid7_text(out, err);
}

static void c_uuid4(char *err)
{
    char out[MINTID_UUID_TEXT_LEN];

    mintid_uuid4_text(out, err);
}

static void c_nanoid(char *err)
{
    char out[MINTID_NANOID_DEFAULT_SIZE];

    mintid_nanoid_text(&nano_default, out, err);
}

static void c_pool16(char *err)
{
    uint8_t out[16];

    mintid_random_bytes(out, sizeof out, err);
}

static const row rows[] = {
    { "fresh 36-char string (no ID)", "fresh36", NULL },
    { "mintid.uuid4()", "uuid4", NULL },
    { "mintid.nanoid()", "nanoid", NULL },
    { "mintid.ulid()", "ulid", NULL },
    { "mintid.uuid7()", "uuid7", NULL },
    { "C mintid_ulid_text", NULL, c_ulid },
    { "C mintid_uuid7_text", NULL, c_uuid7 },
    { "C mintid_uuid4_text", NULL, c_uuid4 },
    { "C mintid_nanoid_text (21)", NULL, c_nanoid },
    { "C 16 bytes from the pool", NULL, c_pool16 },
};
#define NROWS (sizeof rows / sizeof rows[0])

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The control row's function: a 36-char string this state never made
 * before (a per-state counter in hex), so Lua hashes and interns a new one
 * on every call, as it does for every ID. */
static int fresh36(lua_State *L)
{
    static const char hex[] = "0123456789abcdef";
    char s[36];
    lua_Integer n = lua_tointeger(L, lua_upvalueindex(1)) + 1;
    uint64_t x = (uint64_t)n;
    int i;

    memset(s, '0', sizeof s);
    for (i = 35; i >= 20; i--, x >>= 4)
        s[i] = hex[x & 15];
    lua_pushinteger(L, n);
    lua_replace(L, lua_upvalueindex(1));
    lua_pushlstring(L, s, sizeof s);
    return 1;
}

/* A state whose function at the top runs mintid.<call>() n times (or the
 * control function for "fresh36"). */
static lua_State *lua_worker(const char *call)
{
    char chunk[512];
    lua_State *L = luaL_newstate();

    if (L == NULL)
        return NULL;
    luaL_openlibs(L);
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, fresh36, 1);
    lua_setglobal(L, "fresh36");
    snprintf(chunk, sizeof chunk,
             "package.cpath = ... .. '/?.so'\n"
             "local f = %s%s\n"
             "return function(n) for _ = 1, n do f() end end\n",
             strcmp(call, "fresh36") == 0 ? "" : "require('mintid').", call);
    lua_pushstring(L, module_dir);
    if (luaL_loadstring(L, chunk) != LUA_OK || (lua_insert(L, -2), lua_pcall(L, 1, 1, 0) != LUA_OK)) {
        fprintf(stderr, "bench/threads: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return NULL;
    }
    return L;
}

static void *run_worker(void *arg)
{
    worker *w = arg;
    char err[MINTID_ERRMSG_SIZE];
    double t0;
    long n = 0;
    int i;

    pthread_barrier_wait(w->start);
    t0 = now_s();
    while (!__atomic_load_n(w->stop, __ATOMIC_RELAXED)) {
        if (w->L != NULL) {
            lua_pushvalue(w->L, -1);
            lua_pushinteger(w->L, LUA_CHUNK_CALLS);
            if (lua_pcall(w->L, 1, 0, 0) != LUA_OK) {
                w->error = "Lua loop failed";
                break;
            }
            n += LUA_CHUNK_CALLS;
        } else {
            for (i = 0; i < C_CHUNK_CALLS; i++)
                w->r->c_call(err);
            n += C_CHUNK_CALLS;
        }
    }
    w->seconds = now_s() - t0;
    w->calls = (double)n;
    return NULL;
}

/* IDs per second over nthreads threads running r for ROUND_MS, or -1. */
static double measure(const row *r, int nthreads)
{
    pthread_t tid[MAX_THREADS];
    worker w[MAX_THREADS];
    pthread_barrier_t start;
    struct timespec pause = { ROUND_MS / 1000, (long)(ROUND_MS % 1000) * 1000000L };
    int stop = 0, i, ok = 1;
    double rate = 0;

    pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1);
    for (i = 0; i < nthreads; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].r = r;
        w[i].start = &start;
        w[i].stop = &stop;
        if (r->lua_call != NULL && (w[i].L = lua_worker(r->lua_call)) == NULL)
            exit(1);
        pthread_create(&tid[i], NULL, run_worker, &w[i]);
    }
    pthread_barrier_wait(&start);
    nanosleep(&pause, NULL);
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    for (i = 0; i < nthreads; i++) {
        pthread_join(tid[i], NULL);
        if (w[i].error != NULL || w[i].seconds <= 0)
            ok = 0;
        else
            rate += w[i].calls / w[i].seconds;
        if (w[i].L != NULL)
            lua_close(w[i].L);
    }
    pthread_barrier_destroy(&start);
    return ok ? rate : -1;
}

/* A row of the target table (issue 27), appended to the file BENCH_TARGETS
 * names: a random kind's 2-thread gain against the control row's, met
 * within 10% of it (the rounds' noise). */
static void target_row(const char *name, double gain, double control)
{
    const char *path = getenv("BENCH_TARGETS");
    FILE *f;

    if (path == NULL || (f = fopen(path, "a")) == NULL)
        return;
    fprintf(f, "threads: %s, 2 threads / 1\t%.2f\t>= 0.9 x control %.2f\t%s\n", name, gain, control,
            gain >= 0.9 * control ? "met" : "not met");
    fclose(f);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    static double rate[NROWS][MAX_COUNTS][ROUNDS];
    double scaling[NROWS]; /* 2 threads / 1 */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int counts[MAX_COUNTS] = { 1, 2, 0 }, ncounts = 2, c, round;
    char err[MINTID_ERRMSG_SIZE];
    size_t k;

    if (argc != 2) {
        fprintf(stderr, "usage: bench_threads MODULE-DIR (the directory of mintid.so for Lua 5.4)\n");
        return 2;
    }
    module_dir = argv[1];
    if (mintid_nanoid_spec_default(&nano_default, err) != MINTID_OK) {
        fprintf(stderr, "bench/threads: %s\n", err);
        return 1;
    }
    if (cores > 2)
        counts[ncounts++] = cores > MAX_THREADS ? MAX_THREADS : (int)cores;

    for (round = 0; round < ROUNDS; round++)
        for (k = 0; k < NROWS; k++)
            for (c = 0; c < ncounts; c++)
                rate[k][c][round] = measure(&rows[k], counts[c]);

    printf("Threads: the process-wide defaults from several OS threads, one Lua 5.4 state\n"
           "per thread or the C ABI alone; all threads' IDs per second, best of %d\n"
           "interleaved rounds of %d ms (%ld cores online)\n", ROUNDS, ROUND_MS, cores);
    printf("%-28s", "call");
    for (c = 0; c < ncounts; c++)
        printf(" %3d thread%s", counts[c], counts[c] == 1 ? " " : "s");
    for (c = 1; c < ncounts; c++)
        printf("  %2d / 1", counts[c]);
    printf("\n");
    for (k = 0; k < NROWS; k++) {
        double best[MAX_COUNTS];

        for (c = 0; c < ncounts; c++) {
            qsort(rate[k][c], ROUNDS, sizeof rate[k][c][0], compare_double);
            best[c] = rate[k][c][ROUNDS - 1];
        }
        scaling[k] = best[0] > 0 ? best[1] / best[0] : 0.0;
        printf("%-28s", rows[k].name);
        for (c = 0; c < ncounts; c++)
            printf(" %7.2f M/s", best[c] / 1e6);
        for (c = 1; c < ncounts; c++)
            printf("  %6.2f", best[0] > 0 ? best[c] / best[0] : 0.0);
        printf("\n");
    }
    /* Issue 27's row: the random kinds scale as the control row does. */
    for (k = 1; k <= 2; k++)
        target_row(rows[k].name, scaling[k], scaling[0]);
    return 0;
}
