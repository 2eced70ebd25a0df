/*
 * test_clock_cache.c: the wall clock's ms as the core reads it
 * (mintid_os_clock_ms), with the clock cache of src/clock_cache.c where it
 * is built: every answer lies between a read of the wall clock made before
 * it and one made after it, from several threads at once; a step of the
 * wall clock, forward or back, shows within 1 ms; and where the CPU has an
 * invariant TSC, most answers in one ms come without a read, also in a
 * child forked while another thread was writing the cache's record. The
 * core's clock_gettime calls come here (-Wl,--wrap=clock_gettime):
 * CLOCK_REALTIME ones are counted and moved by the step the test sets; the
 * cache's own CLOCK_MONOTONIC reads (it measures the counter's rate with
 * them while it writes its record) are where the fork test forks. Prints
 * TAP.
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

#ifdef MINTID_HAVE_CLOCK_CACHE
#include <cpuid.h>
#endif

#define THREADS 4
#define CALLS_PER_THREAD 300000
#define STEP_SETTLE_NS 1100000 /* 1 ms, and 0.1 ms for the call's own time */

int __real_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);

static int64_t step_s;            /* added to CLOCK_REALTIME */
static unsigned long wall_reads;  /* of CLOCK_REALTIME, by the core */
static void (*on_core_monotonic)(void); /* called on the core's first CLOCK_MONOTONIC read */

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
    if (id == CLOCK_MONOTONIC && on_core_monotonic != NULL) {
        void (*hook)(void) = on_core_monotonic;

        on_core_monotonic = NULL;
        hook();
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

/* A step of the wall clock by by_s seconds: from 1.1 ms after it on, the
 * answers lie between the stepped clock's reads again. */
static void check_step(int64_t by_s)
{
    bracket_run r = { 0 };
    int64_t from;

    __atomic_add_fetch(&step_s, by_s, __ATOMIC_RELAXED);
    from = monotonic_ns();
    r.not_before_ns = from + STEP_SETTLE_NS;
    do {
        r.calls = 1000;
        bracket_calls(&r);
    } while (monotonic_ns() - from < 20000000);
    check(r.outside == 0 && r.errors == 0,
          "a step of the wall clock by %+lld s shows in every answer 1.1 ms after it (%ld answers outside)",
          (long long)by_s, r.outside);
}

/* Whether the cache should answer: built for this platform, the CPU says
 * its TSC runs at one rate in every state (CPUID 0x80000007 EDX 8), and
 * the kernel's clock source, where /sys shows it, is read from the TSC. */
static int cache_expected(void)
{
#ifdef MINTID_HAVE_CLOCK_CACHE
    unsigned int eax, ebx, ecx, edx;
    char source[64] = "";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

    if (f != NULL) {
        if (fgets(source, sizeof source, f) == NULL)
            source[0] = '\0';
        fclose(f);
    }
    if (source[0] != '\0' && strcmp(source, "tsc\n") != 0 && strcmp(source, "kvm-clock\n") != 0 &&
        strcmp(source, "xen\n") != 0 && strcmp(source, "hyperv_clocksource_tsc_page\n") != 0)
        return 0;
    if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007u)
        return 0;
    __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
    return (edx & (1u << 8)) != 0;
#else
    return 0;
#endif
}

/* After 250 ms of calls (the cache measures the counter's rate over its
 * first 200 ms), the reads of the wall clock by 200,000 calls in a row. */
static unsigned long reads_of_calls(long calls)
{
    int64_t from = monotonic_ns(), now;
    long i;

    while (monotonic_ns() - from < 250000000)
        mintid_os_clock_ms(&now, NULL);
    __atomic_store_n(&wall_reads, 0, __ATOMIC_RELAXED);
    for (i = 0; i < calls; i++)
        mintid_os_clock_ms(&now, NULL);
    return __atomic_load_n(&wall_reads, __ATOMIC_RELAXED);
}

static int reads_as_expected(unsigned long reads, long calls)
{
    return cache_expected() ? reads < (unsigned long)calls / 10 : reads == (unsigned long)calls;
}

/* The fork test: the main thread's first read of the wall clock writes
 * the cache's first record, and its CLOCK_MONOTONIC read there (the
 * record's count odd) has a second thread fork and waits until it has. */
static pthread_mutex_t fork_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fork_cond = PTHREAD_COND_INITIALIZER;
static int fork_stage; /* 1: fork now; 2: forked */
static int child_status = -1;

static void set_fork_stage(int stage)
{
    pthread_mutex_lock(&fork_mutex);
    fork_stage = stage;
    pthread_cond_broadcast(&fork_cond);
    pthread_mutex_unlock(&fork_mutex);
}

static void wait_fork_stage(int stage)
{
    pthread_mutex_lock(&fork_mutex);
    while (fork_stage < stage)
        pthread_cond_wait(&fork_cond, &fork_mutex);
    pthread_mutex_unlock(&fork_mutex);
}

static void fork_while_writing(void)
{
    set_fork_stage(1);
    wait_fork_stage(2);
}

static void *forking_thread(void *arg)
{
    pid_t pid;
    int status;

    (void)arg;
    wait_fork_stage(1);
    pid = fork();
    if (pid == 0)
        _exit(reads_as_expected(reads_of_calls(200000), 200000) ? 0 : 1);
    set_fork_stage(2);
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
        child_status = WEXITSTATUS(status);
    return NULL;
}

static void check_fork_while_writing(void)
{
    pthread_t forker;
    int64_t now;
    int started = pthread_create(&forker, NULL, forking_thread, NULL) == 0;

    on_core_monotonic = fork_while_writing;
    if (started)
        mintid_os_clock_ms(&now, NULL);
    /* No cache here, so no write to fork in: the fork comes after it. */
    if (on_core_monotonic != NULL) {
        on_core_monotonic = NULL;
        if (started)
            fork_while_writing();
    }
    if (started)
        pthread_join(forker, NULL);
    check(started && child_status == 0,
          "a child forked while another thread writes the record %s (exit status %d)",
          cache_expected() ? "has the cache answer most calls" : "reads the wall clock on every call",
          child_status);
}

static void check_reads(void)
{
    long calls = 200000;
    unsigned long reads = reads_of_calls(calls);

    check(reads_as_expected(reads, calls), "%s, %ld calls read the wall clock %lu times",
          cache_expected() ? "with an invariant TSC" : "without the cache", calls, reads);
}

int main(void)
{
    check_fork_while_writing();
    check_reads();
    check_between_reads();
    check_step(5);
    check_step(-10);
    check_step(5);
    return tap_done();
}
