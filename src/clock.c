/* clock.c: Unix time from the OS wall clock, in ms and (UUIDv1/v6) in 100 ns. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* A 32-bit time_t ends in January 2038, after which 32-bit glibc's
 * clock_gettime fails with EOVERFLOW and every generator with it. These ask
 * for the 64-bit time_t (glibc >= 2.34 honours them, and wants
 * _FILE_OFFSET_BITS 64 with _TIME_BITS 64; other C libraries and 64-bit
 * hosts ignore them). Only this file needs it, and it is safe here alone:
 * no time_t or struct timespec crosses its interface (int64_t ms). */
#define _TIME_BITS 64
#define _FILE_OFFSET_BITS 64

#include <errno.h>
#include <time.h>

#include "internal.h"

#ifdef _WIN32
#include "platform.h"

/* FILETIME counts 100 ns ticks since 1601-01-01, 11644473600 s before 1970.
 * The precise variant (Windows 8) follows the wall clock to the tick; the
 * plain one moves only at the timer interrupt (about 15.6 ms). */
#define UNIX_EPOCH_TICKS UINT64_C(116444736000000000)

int mintid_clock_100ns(int64_t *now_100ns, char *err)
{
    FILETIME ft;
    uint64_t ticks;

    (void)err;
    GetSystemTimePreciseAsFileTime(&ft);
    ticks = (uint64_t)ft.dwHighDateTime << 32 | ft.dwLowDateTime;
    *now_100ns = ticks >= UNIX_EPOCH_TICKS ? (int64_t)(ticks - UNIX_EPOCH_TICKS)
                                           : -(int64_t)(UNIX_EPOCH_TICKS - ticks);
    return MINTID_OK;
}

int mintid_clock_ms(int64_t *now_ms, char *err)
{
    int64_t t;

    mintid_clock_100ns(&t, err);
    /* A clock before 1970 comes back negative (floored), as on POSIX. */
    *now_ms = t >= 0 ? t / 10000 : -((-t + 9999) / 10000);
    return MINTID_OK;
}
#else
/* The wall clock in units of 1/per_second s (1000: ms, 10^7: 100 ns). */
static int clock_in(int64_t per_second, int64_t *now, char *err)
{
    struct timespec ts;
    int64_t sec;

    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return mintid_fail_errno(err, MINTID_ECLOCK, "clock_gettime failed", errno);
    /* A clock before 1970 comes back negative (tv_nsec is never negative,
     * so this floors); callers reject it with their range message. A
     * tv_sec whose count would not fit int64_t saturates, also out of range. */
    sec = (int64_t)ts.tv_sec;
    if (sec > INT64_MAX / per_second - 1)
        *now = INT64_MAX;
    else if (sec < INT64_MIN / per_second + 1)
        *now = INT64_MIN;
    else
        *now = sec * per_second + (int64_t)ts.tv_nsec / (1000000000 / per_second);
    return MINTID_OK;
}

int mintid_clock_ms(int64_t *now_ms, char *err)
{
    return clock_in(1000, now_ms, err);
}

int mintid_clock_100ns(int64_t *now_100ns, char *err)
{
    return clock_in(10000000, now_100ns, err);
}
#endif
