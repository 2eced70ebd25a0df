/*
 * tap.h: the TAP output shared by the native tests: one "ok N - what" or
 * "not ok N - what" line per check, then the plan "1..N". spec/run.sh
 * counts these lines into the suite's "N passed, M failed".
 */
#ifndef MINTID_TAP_H
#define MINTID_TAP_H

#include <stdarg.h>
#include <stdio.h>

#if defined(__GNUC__) || defined(__clang__)
#define TEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TEST_PRINTF(f, a)
#endif

static int tap_tests, tap_failures;

static void check(int ok, const char *fmt, ...) TEST_PRINTF(2, 3);

static void check(int ok, const char *fmt, ...)
{
    va_list ap;

    tap_tests++;
    if (!ok)
        tap_failures++;
    printf("%s %d - ", ok ? "ok" : "not ok", tap_tests);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* Prints the plan; returns main's exit status. */
static int tap_done(void)
{
    printf("1..%d\n", tap_tests);
    return tap_failures > 0 ? 1 : 0;
}

#endif
