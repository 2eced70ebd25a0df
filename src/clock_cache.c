/* clock_cache.c: the wall clock's millisecond without a read of the clock
 * when the CPU's cycle counter proves that the millisecond of the last
 * read has not ended (internal.h "the clock cache").
 *
 * Why: on x86-64 Linux, clock_gettime(CLOCK_REALTIME) costs 20-30 ns (a
 * fenced rdtsc and the kernel's scaling, more under a hypervisor), the
 * largest part of a ULID or UUIDv7 call, while thousands of calls fall in
 * one millisecond. A plain rdtsc costs less than half of it.
 *
 * The rule. A read of the clock at wall time t (ns), made after the
 * counter read c0, ends its millisecond r = 1 ms - (t mod 1 ms) later. At
 * a later counter reading c, the wall time is at most t + (c - c0) / f,
 * f the counter's true rate; so with f_low <= f, c - c0 < (r - margin) *
 * f_low proves the millisecond is still t's, and that ms is the answer a
 * read would give. The answer can differ from a read's only when the wall
 * clock is set (a step, not a slew) within that millisecond: it is seen at
 * most 1 ms late, as if the call had come that much earlier. The
 * uniqueness of every kind never rests on the clock (monotonic.c,
 * snowflake.c take any reading), and the answer is never a millisecond
 * the clock has not shown.
 *
 * f_low: the counter ticks between two CLOCK_MONOTONIC reads, counted from
 * the counter read after the first to the one before the second, over the
 * ns between them (a lower bound however long either read took), over at
 * least CALIBRATE_MIN_NS; the largest such bound while the interval grows
 * to CALIBRATE_DONE_NS, less CALIBRATE_SLACK for a rate NTP changes
 * later. MARGIN_NS covers the counters of two cores that disagree by a
 * little (the kernel chose the TSC as its clock only if they agree).
 *
 * Used only with an invariant TSC (CPUID 0x80000007 EDX bit 8: a constant
 * rate, counting in every sleep state), and not when rdtsc is made to
 * fault (prctl PR_SET_TSC). A counter read lower than c0 (another core, a
 * resume that reset it) never proves anything: the difference is unsigned.
 *
 * The cache is one record for the process, read by any thread without a
 * lock (a sequence count: odd while one writer changes it, which any other
 * would-be writer then leaves to it). A forked child keeps it: the
 * counter and the wall clock are the machine's.
 */
#if defined(__linux__)
#  define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif

#include "internal.h"

#ifdef MINTID_HAVE_CLOCK_CACHE

#include <cpuid.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define MS_NS 1000000
#define MARGIN_NS 20000
#define CALIBRATE_MIN_NS 10000000  /* 10 ms */
#define CALIBRATE_DONE_NS 200000000 /* 200 ms */
#define CALIBRATE_SLACK (1.0 - 1.0 / 512)

enum { CACHE_UNKNOWN, CACHE_CALIBRATING, CACHE_READY, CACHE_OFF };

static struct {
    uint32_t seq;
    uint64_t c0;     /* the counter just before the read */
    uint64_t window; /* ticks after c0 within which the read's ms has not ended */
    int64_t ms;
} cache;

/* The writer's own, under the odd sequence count. */
static struct {
    int state;
    int fork_handled;
    uint64_t c_start;       /* the counter after the first monotonic read */
    int64_t mono_start;     /* that read, ns */
    double ticks_per_ns;    /* f_low with its slack; 0 until calibrated */
} calibration;

static inline uint64_t cycle_count(void)
{
    uint32_t lo, hi;

    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

static int64_t monotonic_ns(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return -1;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The kernel's clock source: the TSC, or a hypervisor's clock read from
 * it; any other (hpet, acpi_pm) means the kernel found the TSC unfit.
 * Unreadable (no /sys): the CPU's word alone. */
static int kernel_trusts_tsc(void)
{
    static const char *const tsc_based[] = { "tsc\n", "kvm-clock\n", "xen\n", "hyperv_clocksource_tsc_page\n" };
    char name[64];
    ssize_t got;
    size_t i;
    int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return 1;
    got = read(fd, name, sizeof name - 1);
    close(fd);
    if (got <= 0)
        return 1;
    name[got] = '\0';
    for (i = 0; i < sizeof tsc_based / sizeof tsc_based[0]; i++)
        if (strcmp(name, tsc_based[i]) == 0)
            return 1;
    return 0;
}

static int counter_usable(void)
{
    unsigned int eax, ebx, ecx, edx;
    int tsc_mode = 0;

    if (__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) == 0 || eax < 0x80000007u)
        return 0;
    __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
    if ((edx & (1u << 8)) == 0)
        return 0;
#ifdef PR_GET_TSC
    if (prctl(PR_GET_TSC, &tsc_mode, 0, 0, 0) == 0 && tsc_mode == PR_TSC_SIGSEGV)
        return 0;
#else
    (void)tsc_mode;
#endif
    return kernel_trusts_tsc();
}

/* A child forked while another thread of its parent wrote the record holds
 * that half-written record and calibration, and an odd count that no
 * writer will end: it starts them afresh. */
static void clock_cache_child(void)
{
    if ((cache.seq & 1) != 0) {
        cache.window = 0;
        if (calibration.state == CACHE_CALIBRATING)
            calibration.state = CACHE_UNKNOWN;
        cache.seq++;
    }
}

/* One more lower bound of the rate, from the first monotonic read to now. */
static void calibrate(void)
{
    uint64_t c_before, c_after;
    int64_t mono, span;
    double bound;

    if (calibration.state == CACHE_UNKNOWN) {
        if (!counter_usable()) {
            calibration.state = CACHE_OFF;
            return;
        }
        if (!calibration.fork_handled)
            calibration.fork_handled = mintid_os_atfork(NULL, NULL, clock_cache_child) == 0;
        calibration.mono_start = monotonic_ns();
        calibration.c_start = cycle_count();
        calibration.state = calibration.mono_start < 0 ? CACHE_OFF : CACHE_CALIBRATING;
        return;
    }
    c_before = cycle_count();
    mono = monotonic_ns();
    c_after = cycle_count();
    span = mono - calibration.mono_start;
    if (mono < 0 || c_after < c_before || c_before < calibration.c_start) {
        calibration.state = CACHE_UNKNOWN; /* start again */
        return;
    }
    if (span < CALIBRATE_MIN_NS)
        return;
    bound = (double)(c_before - calibration.c_start) / (double)span * CALIBRATE_SLACK;
    if (bound > calibration.ticks_per_ns)
        calibration.ticks_per_ns = bound;
    if (span >= CALIBRATE_DONE_NS)
        calibration.state = CACHE_READY;
}

int mintid_clock_cache_get(int64_t *now_ms, uint64_t *counter)
{
    uint32_t seq = __atomic_load_n(&cache.seq, __ATOMIC_ACQUIRE);
    /* Acquire loads, so that the second load of seq comes after them. */
    uint64_t c0 = __atomic_load_n(&cache.c0, __ATOMIC_ACQUIRE);
    uint64_t window = __atomic_load_n(&cache.window, __ATOMIC_ACQUIRE);
    int64_t ms = __atomic_load_n(&cache.ms, __ATOMIC_ACQUIRE);
    uint64_t c = cycle_count();

    *counter = c;
    if ((seq & 1) != 0 || __atomic_load_n(&cache.seq, __ATOMIC_RELAXED) != seq || c - c0 >= window)
        return 0;
    *now_ms = ms;
    return 1;
}

void mintid_clock_cache_put(uint64_t counter, int64_t ms, int32_t ns_into_ms)
{
    uint32_t seq = __atomic_load_n(&cache.seq, __ATOMIC_RELAXED);
    uint64_t window = 0;
    int64_t left = (int64_t)MS_NS - ns_into_ms - MARGIN_NS;

    /* Another writer at work: it keeps the record. */
    if ((seq & 1) != 0 ||
        !__atomic_compare_exchange_n(&cache.seq, &seq, seq + 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return;
    if (calibration.state != CACHE_READY && calibration.state != CACHE_OFF)
        calibrate();
    if (calibration.ticks_per_ns > 0 && left > 0)
        window = (uint64_t)((double)left * calibration.ticks_per_ns);
    /* Release stores: a reader that sees one sees the odd count too. */
    __atomic_store_n(&cache.window, window, __ATOMIC_RELEASE);
    __atomic_store_n(&cache.c0, counter, __ATOMIC_RELEASE);
    __atomic_store_n(&cache.ms, ms, __ATOMIC_RELEASE);
    __atomic_store_n(&cache.seq, seq + 2, __ATOMIC_RELEASE);
}

#else
/* A translation unit may not be empty (ISO C); this one is for x86-64 Linux. */
typedef int mintid_clock_cache_unused;
#endif
