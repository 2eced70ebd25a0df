/*
 * iso.c: a Unix ms time as RFC 3339 text, UTC with milliseconds, the one
 * date arithmetic of the core: the day number to the proleptic Gregorian
 * date (Howard Hinnant's civil_from_days, exact over the whole range by
 * 400-year eras, with no table and no libc time function, whose range and
 * time zone depend on the host).
 */
#define __USE_MINGW_ANSI_STDIO 1 /* MinGW: C99 snprintf (PRId64) */

#include <inttypes.h>

#include "internal.h"

#define MS_PER_DAY INT64_C(86400000)
/* RFC 3339 has four-digit years: 0000-01-01T00:00:00.000Z and
 * 9999-12-31T23:59:59.999Z as Unix ms. */
#define ISO_MIN_MS INT64_C(-62167219200000)
#define ISO_MAX_MS INT64_C(253402300799999)

/* Days since 1970-01-01 to year, month 1..12 and day 1..31. */
static void civil_from_days(int64_t days, int64_t *year, unsigned *month, unsigned *day)
{
    int64_t z = days + 719468; /* days since 0000-03-01 */
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);                             /* 0..146096 */
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;    /* 0..399 */
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                  /* 0..365, from March */
    unsigned mp = (5 * doy + 2) / 153;                                       /* 0..11, March first */

    *day = doy - (153 * mp + 2) / 5 + 1;
    *month = mp < 10 ? mp + 3 : mp - 9;
    *year = (int64_t)yoe + era * 400 + (*month <= 2);
}

static char *put_digits(char *p, unsigned v, int n)
{
    int i;

    for (i = n - 1; i >= 0; i--) {
        p[i] = (char)('0' + v % 10);
        v /= 10;
    }
    return p + n;
}

int mintid_iso_text(int64_t ms, char out[MINTID_ISO_TEXT_LEN], char *err)
{
    int64_t days, year;
    unsigned month, day, in_day;
    char *p = out;

    if (ms < ISO_MIN_MS)
        return mintid_fail(err, MINTID_ERANGE, "time %" PRId64 " ms is before 0000-01-01T00:00:00.000Z", ms);
    if (ms > ISO_MAX_MS)
        return mintid_fail(err, MINTID_ERANGE, "time %" PRId64 " ms is past 9999-12-31T23:59:59.999Z", ms);
    days = (ms >= 0 ? ms : ms - (MS_PER_DAY - 1)) / MS_PER_DAY; /* floored */
    in_day = (unsigned)(ms - days * MS_PER_DAY);
    civil_from_days(days, &year, &month, &day);
    p = put_digits(p, (unsigned)year, 4);
    *p++ = '-';
    p = put_digits(p, month, 2);
    *p++ = '-';
    p = put_digits(p, day, 2);
    *p++ = 'T';
    p = put_digits(p, in_day / 3600000, 2);
    *p++ = ':';
    p = put_digits(p, in_day / 60000 % 60, 2);
    *p++ = ':';
    p = put_digits(p, in_day / 1000 % 60, 2);
    *p++ = '.';
    p = put_digits(p, in_day % 1000, 3);
    *p = 'Z';
    return MINTID_OK;
}
