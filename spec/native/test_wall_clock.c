/*
 * test_wall_clock.c: the wall clock's ms as the core reads it
 * (mintid_os_clock_ms): every call reads CLOCK_REALTIME, so every answer
 * lies between a read made before it and one made after it, from several
 * threads at once, and a step of the clock, forward or back, shows in the
 * next answer; and the core runs no rdtsc: its machine code has none (read
 * by objdump), and a process that forbids rdtsc (prctl PR_SET_TSC, after
 * which it raises SIGSEGV) mints ULIDs and UUIDv7s, before and after its
 * first ID, where the machine traps it. The core's clock_gettime calls
 * come here (-Wl,--wrap=clock_gettime): CLOCK_REALTIME ones are counted
 * and moved by the step the test sets. Prints TAP.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

#if defined(__linux__)
#include <sys/prctl.h>
#endif

#define THREADS 4
#define CALLS_PER_THREAD 300000

int __real_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);

static int64_t step_s;            /* added to CLOCK_REALTIME */
static unsigned long wall_reads;  /* of CLOCK_REALTIME, by the core */

static void stepped(struct timespec *ts)
{
    ts->tv_sec += (time_t)__atomic_load_n(&step_s, __ATOMIC_RELAXED);
}

int __wrap_clock_gettime(clockid_t id, struct timespec *ts)
{
    int rc = __real_clock_gettime(id, ts);

    if (rc == 0 && id == CLOCK_REALTIME) {
        __atomic_add_fetch(&wall_reads, 1, __ATOMIC_RELAXED);
        stepped(ts);
    }
    return rc;
}

/* The test's own reads: uncounted, stepped as the core's are. */
static int64_t wall_ms(void)
{
    struct timespec ts;

    __real_clock_gettime(CLOCK_REALTIME, &ts);
    stepped(&ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t monotonic_ns(void)
{
    struct timespec ts;

    __real_clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Answers outside [a read before, a read after], of calls made from
 * not_before_ns (monotonic) on, within a run of calls. */
typedef struct {
    int64_t not_before_ns;
    long calls, outside, errors;
    int64_t first_outside, outside_before, outside_after;
} bracket_run;

static void *bracket_calls(void *arg)
{
    bracket_run *r = (bracket_run *)arg;
    int64_t before, now = 0, after;
    long i;

    for (i = 0; i < r->calls; i++) {
        int64_t started = monotonic_ns();

        before = wall_ms();
        if (mintid_os_clock_ms(&now, NULL) != MINTID_OK)
            r->errors++;
        after = wall_ms();
        if (started >= r->not_before_ns && (now < before || now > after) && r->outside++ == 0) {
            r->first_outside = now;
            r->outside_before = before;
            r->outside_after = after;
        }
    }
    return NULL;
}

static void check_between_reads(void)
{
    pthread_t threads[THREADS];
    bracket_run runs[THREADS] = { { 0 } };
    long outside = 0, errors = 0;
    int i, started = 0;

    for (i = 0; i < THREADS; i++) {
        runs[i].calls = CALLS_PER_THREAD;
        started += pthread_create(&threads[i], NULL, bracket_calls, &runs[i]) == 0;
    }
    for (i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    for (i = 0; i < THREADS; i++) {
        outside += runs[i].outside;
        errors += runs[i].errors;
    }
    check(started == THREADS && errors == 0, "%d threads make %d calls each without an error", THREADS,
          CALLS_PER_THREAD);
    check(outside == 0, "every answer lies between the wall clock's ms before and after it (%ld outside%s)",
          outside, outside > 0 ? ", e.g. one" : "");
    for (i = 0; i < THREADS && outside > 0; i++)
        if (runs[i].outside > 0) {
            printf("# %lld, read between %lld and %lld\n", (long long)runs[i].first_outside,
                   (long long)runs[i].outside_before, (long long)runs[i].outside_after);
            break;
        }
}

/* A step of the wall clock by by_s seconds: every answer after it lies
 * between the stepped clock's reads. */
static void check_step(int64_t by_s)
{
    bracket_run r = { 0 };
    int64_t from;

    __atomic_add_fetch(&step_s, by_s, __ATOMIC_RELAXED);
    from = monotonic_ns();
    r.not_before_ns = from;
    do {
        r.calls = 1000;
        bracket_calls(&r);
    } while (monotonic_ns() - from < 20000000);
    check(r.outside == 0 && r.errors == 0,
          "a step of the wall clock by %+lld s shows in every answer after it (%ld answers outside)",
          (long long)by_s, r.outside);
}

/* Every call reads the wall clock once: nothing answers from an earlier
 * read (doc/design.md "The wall clock's millisecond"). */
static void check_reads(void)
{
    long calls = 200000, i;
    int64_t now;
    unsigned long reads;

    __atomic_store_n(&wall_reads, 0, __ATOMIC_RELAXED);
    for (i = 0; i < calls; i++)
        mintid_os_clock_ms(&now, NULL);
    reads = __atomic_load_n(&wall_reads, __ATOMIC_RELAXED);
    check(reads == (unsigned long)calls, "each of %ld calls reads the wall clock once (%lu reads)", calls, reads);
}

#if defined(__linux__) && defined(PR_SET_TSC) && defined(__x86_64__)
#define FORBIDS_RDTSC 1
#define CHILD_NO_PRCTL 2 /* the kernel would not forbid rdtsc */

enum { READ_CLOCK, RUN_RDTSC, MINT };

/* A child that forbids rdtsc after `ids_before` ULIDs, then reads the
 * clock, runs rdtsc itself, or mints a ULID and a UUIDv7: its wait status
 * (exit 0 when it could; killed by SIGSEGV where rdtsc ran), -1 unforked. */
static int forbidden_rdtsc_child(int ids_before, int then)
{
    char ulid[26], uuid[36];
    struct timespec ts;
    uint32_t lo, hi;
    int status, i;
    pid_t pid = fork();

    if (pid == 0) {
        for (i = 0; i < ids_before; i++)
            mintid_ulid_text(ulid, NULL);
        if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) != 0)
            _exit(CHILD_NO_PRCTL);
        if (then == READ_CLOCK)
            _exit(__real_clock_gettime(CLOCK_REALTIME, &ts) == 0 ? 0 : 1);
        if (then == RUN_RDTSC) {
            __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
            _exit(lo == 0 && hi == 0); /* uses them */
        }
        _exit(mintid_ulid_text(ulid, NULL) == MINTID_OK && mintid_uuid7_text(uuid, NULL) == MINTID_OK ? 0 : 1);
    }
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return status;
}

static int exited_with(int status, int code)
{
    return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == code;
}

static const char *child_end(int status, char *buf, size_t size)
{
    if (status >= 0 && WIFSIGNALED(status))
        snprintf(buf, size, "killed by signal %d", WTERMSIG(status));
    else if (status >= 0 && WIFEXITED(status))
        snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
    else
        snprintf(buf, size, "not forked");
    return buf;
}

/* This program's machine code (the core's objects are linked in), but
 * forbidden_rdtsc_child's own rdtsc: the instructions objdump shows as
 * rdtsc or rdtscp, or -1 without objdump. */
static long rdtsc_in_own_code(void)
{
    char cmd[128], line[512];
    long found = 0, lines = 0;
    int in_child = 0;
    FILE *p;

    snprintf(cmd, sizeof cmd, "objdump -d --no-show-raw-insn /proc/%ld/exe 2>/dev/null", (long)getpid());
    if ((p = popen(cmd, "r")) == NULL)
        return -1;
    while (fgets(line, sizeof line, p) != NULL) {
        lines++;
        if (strstr(line, ">:\n") != NULL) /* "ADDRESS <function>:" */
            in_child = strstr(line, "<forbidden_rdtsc_child>:") != NULL;
        else if (!in_child && strstr(line, "\trdtsc") != NULL)
            found++;
    }
    return pclose(p) == 0 && lines > 0 ? found : -1;
}
#endif

/* A process may forbid rdtsc at any moment (a sandbox, a record-and-replay
 * tool), after which each rdtsc raises SIGSEGV: the core runs none. Where
 * the machine does not trap it (some hypervisors ignore the ban), the
 * children prove nothing, and the core's code says it. */
static void check_forbidden_rdtsc(void)
{
#ifdef FORBIDS_RDTSC
    static const int ids_before[] = { 0, 1000 };
    char end[64];
    int status = forbidden_rdtsc_child(0, READ_CLOCK);
    long found = rdtsc_in_own_code();
    size_t i;

    if (found < 0)
        printf("# no objdump here: the scan of the core's code for rdtsc skipped\n");
    else
        check(found == 0, "the core's machine code runs no rdtsc or rdtscp (%ld found)", found);
    if (exited_with(status, CHILD_NO_PRCTL)) {
        printf("# prctl(PR_SET_TSC) refused here: the children's checks skipped\n");
        return;
    }
    if (!exited_with(status, 0)) {
        /* The kernel's own clock read (a vDSO reading the TSC) faults: no
         * code can read the clock in such a process. */
        printf("# clock_gettime itself fails once rdtsc is forbidden here (%s): the children's checks skipped\n",
               child_end(status, end, sizeof end));
        return;
    }
    status = forbidden_rdtsc_child(0, RUN_RDTSC);
    if (exited_with(status, 0) || exited_with(status, 1)) {
        printf("# rdtsc runs here even when forbidden (the machine does not trap it): "
               "the children's checks skipped\n");
        return;
    }
    for (i = 0; i < sizeof ids_before / sizeof ids_before[0]; i++) {
        status = forbidden_rdtsc_child(ids_before[i], MINT);
        check(exited_with(status, 0), "a process that forbids rdtsc after %d IDs mints a ULID and a UUIDv7 (%s)",
              ids_before[i], child_end(status, end, sizeof end));
    }
#else
    printf("# no prctl(PR_SET_TSC) on this platform: the rdtsc checks skipped\n");
#endif
}

int main(void)
{
    check_forbidden_rdtsc();
    check_reads();
    check_between_reads();
    check_step(5);
    check_step(-10);
    check_step(5);
    return tap_done();
}
