/*
 * frozen_clock.c: an LD_PRELOAD shim that stops the wall clock, as a stuck
 * VM clock or faketime's absolute mode does: CLOCK_REALTIME (and
 * gettimeofday, time) read the same instant for the whole process, the
 * first one read, while CLOCK_MONOTONIC and every other clock go on.
 * spec/native/test_frozen_clock.c runs itself under it.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t id, struct timespec *ts);

static clock_gettime_fn real_clock_gettime;
static struct timespec frozen;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void freeze(void)
{
    void *p = dlsym(RTLD_NEXT, "clock_gettime");

    /* ISO C has no cast from an object pointer to a function pointer. */
    memcpy(&real_clock_gettime, &p, sizeof real_clock_gettime);
    real_clock_gettime(CLOCK_REALTIME, &frozen);
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    pthread_once(&once, freeze);
    if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) {
        *ts = frozen;
        return 0;
    }
    return real_clock_gettime(id, ts);
}

int gettimeofday(struct timeval *tv, void *tz)
{
    (void)tz;
    pthread_once(&once, freeze);
    /* glibc declares tv nonnull. */
    tv->tv_sec = frozen.tv_sec;
    tv->tv_usec = (suseconds_t)(frozen.tv_nsec / 1000);
    return 0;
}

time_t time(time_t *t)
{
    pthread_once(&once, freeze);
    if (t != NULL)
        *t = frozen.tv_sec;
    return frozen.tv_sec;
}
