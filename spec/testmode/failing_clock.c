/*
 * failing_clock.c: an LD_PRELOAD shim under which the wall clock fails
 * (clock_gettime(CLOCK_REALTIME) returns -1, EINVAL) while every other
 * clock goes on: the one way to reach the binding's OS-clock failure
 * (mintid_lua_clock_failed) from Lua, for the HARDMEMTESTS subset
 * (spec/testmode/hardmem.sh).
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t id, struct timespec *ts);

int clock_gettime(clockid_t id, struct timespec *ts)
{
    void *p;
    clock_gettime_fn real;

    if (id == CLOCK_REALTIME) {
        errno = EINVAL;
        return -1;
    }
    p = dlsym(RTLD_NEXT, "clock_gettime");
    /* ISO C has no cast from an object pointer to a function pointer. */
    memcpy(&real, &p, sizeof real);
    return real(id, ts);
}
