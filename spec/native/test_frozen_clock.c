/*
 * test_frozen_clock.c: "no call waits without bound" on a wall clock that
 * does not move (a stuck VM clock, faketime's absolute mode): a Snowflake
 * generator that has used the 4096 IDs of the frozen ms returns EAGAIN
 * after max_wait_ms, timed on CLOCK_MONOTONIC, instead of spinning for
 * ever. Runs itself again under the frozen_clock.so shim found next to it
 * (Makefile), which freezes CLOCK_REALTIME only. Prints TAP.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, clock_gettime, nanosleep */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mintid.h"
#include "internal.h" /* set_max_wait */
#include "tap.h"

#define SHIM "frozen_clock.so"

/* The test's own clock, not the core's. */
static int64_t elapsed_ms_since(const struct timespec *start)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)(now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* Under the shim, or exec'd again with it preloaded. */
static void preload_shim(char **argv)
{
    const char *preloaded = getenv("LD_PRELOAD");
    const char *slash = strrchr(argv[0], '/');
    size_t dir = slash != NULL ? (size_t)(slash - argv[0]) + 1 : 0;
    char *path;

    if (preloaded != NULL && strstr(preloaded, SHIM) != NULL)
        return;
    path = malloc(dir + sizeof SHIM);
    if (path == NULL)
        return;
    memcpy(path, argv[0], dir);
    memcpy(path + dir, SHIM, sizeof SHIM);
    setenv("LD_PRELOAD", path, 1);
    execv(argv[0], argv);
    perror("execv"); /* then the check below fails */
}

static void check_clocks_under_shim(void)
{
    struct timespec pause = { 0, 20000000 }, start;
    int64_t a = 0, b = 0, mono_a, mono_b;

    clock_gettime(CLOCK_MONOTONIC, &start);
    mintid_os_clock_ms(&a, NULL);
    mono_a = mintid_os_monotonic_ms();
    nanosleep(&pause, NULL);
    mintid_os_clock_ms(&b, NULL);
    mono_b = mintid_os_monotonic_ms();
    check(a == b && a > 0, "under the shim the wall clock stands still (%lld, then %lld)", (long long)a,
          (long long)b);
    check(mono_b - mono_a >= 15 && elapsed_ms_since(&start) >= 15,
          "under the shim the monotonic clock moves (%lld ms)", (long long)(mono_b - mono_a));
}

/* The 4096 IDs of the frozen ms, then one more: EAGAIN within
 * max_wait_ms + 500 ms, and no sooner than max_wait_ms - 5 ms. */
static void check_exhausted(int64_t max_wait_ms)
{
    mintid_snowflake_gen g;
    struct timespec start;
    char out[MINTID_SNOWFLAKE_DECIMAL_MAX], err[MINTID_ERRMSG_SIZE] = "";
    int i, rc, made = 1;
    int64_t took;

    mintid_snowflake_gen_init(&g, 7, 0, NULL);
    if (max_wait_ms != MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS)
        mintid_snowflake_gen_set_max_wait(mintid_snowflake_state_of(&g), max_wait_ms, NULL);
    for (i = 0; i < 4096; i++)
        made &= mintid_snowflake_gen_next_text(&g, out, err) > 0;
    check(made, "max_wait_ms %lld: the 4096 IDs of the frozen ms are made", (long long)max_wait_ms);
    clock_gettime(CLOCK_MONOTONIC, &start);
    rc = mintid_snowflake_gen_next_text(&g, out, err);
    took = elapsed_ms_since(&start);
    check(rc == MINTID_EAGAIN && took <= max_wait_ms + 500 && took >= max_wait_ms - 5,
          "max_wait_ms %lld: the 4097th is EAGAIN after %lld ms: %s", (long long)max_wait_ms,
          (long long)took, rc == MINTID_EAGAIN ? err : "(no EAGAIN)");
    if (max_wait_ms == 0)
        check(strstr(err, "max_wait_ms 0 forbids waiting") != NULL, "max_wait_ms 0: fails at once, saying so");
    else
        check(strstr(err, "snowflake: clock stuck at ms ") != NULL && strchr(err, '\n') == NULL,
              "max_wait_ms %lld: the message is one line naming the stuck clock", (long long)max_wait_ms);
}

int main(int argc, char **argv)
{
    (void)argc;
    preload_shim(argv);
    check_clocks_under_shim();
    check_exhausted(MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS);
    check_exhausted(0);
    check_exhausted(50);
    return tap_done();
}
