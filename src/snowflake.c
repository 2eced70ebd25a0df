/*
 * snowflake.c: 64-bit IDs of 42-bit ms since epoch | 10-bit machine id |
 * 12-bit sequence (SPEC "Snowflake").
 *
 * The whole generator state is one word, (last_ms - epoch) << 12 | seq, so a
 * single compare-and-swap makes an ID: threads sharing a generator never get
 * the same one. CAS is used with GCC or clang on targets that do 64-bit CAS
 * inline (__GCC_HAVE_SYNC_COMPARE_AND_SWAP_8: x86-64, i586 and later,
 * ARMv7, AArch64, ...); the word is 8-byte aligned (MINTID_ALIGNED) so that
 * i386 gets those inline instructions too, never libatomic calls. Elsewhere
 * the word is updated plainly, and a generator must then not be shared
 * between threads without a lock of the caller's.
 */
#include <inttypes.h>

#include "internal.h"

#define SEQ_BITS  12
#define SEQ_MAX   UINT64_C(4095)
#define TIME_BITS 42
#define MACHINE_SHIFT 12
#define TIME_SHIFT    22

#define UNSTARTED MINTID_SNOWFLAKE_UNSTARTED
/* A generator on a fence keeps Unix ms in its word (the fence's): up to 2^52. */
#define WORD_MS_BITS 52

#if (defined(__GNUC__) || defined(__clang__)) && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_8)
/* Relaxed order is enough: the word is the whole state, nothing else is
 * published with it. The builtins see the word itself (g->state, or
 * g->fence->word), both 8-byte aligned members: through a plain uint64_t *
 * the compiler would know only 4-byte alignment on i386. */
#define LOAD_WORD(w) __atomic_load_n(&(w), __ATOMIC_RELAXED)
#define SWAP_WORD(w, expected, desired) \
    __atomic_compare_exchange_n(&(w), (expected), (desired), 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)
#else
#define LOAD_WORD(w) (w)
#define SWAP_WORD(w, expected, desired) ((w) = (desired), 1)
#endif

int mintid_snowflake_check_epoch(int64_t epoch, char *err)
{
    if (epoch < 0)
        return mintid_fail(err, MINTID_EARG, "epoch must be >= 0, got %" PRId64, epoch);
    return MINTID_OK;
}

int mintid_snowflake_gen_init(mintid_snowflake_gen *pub, int64_t machine_id,
                              int64_t epoch, char *err)
{
    mintid_snowflake_state *g = mintid_snowflake_state_of(pub);
    int rc;

    if (machine_id < 0 || machine_id > MINTID_SNOWFLAKE_MAX_MACHINE)
        return mintid_fail(err, MINTID_EARG, "machine_id must be 0..%d, got %" PRId64,
                           MINTID_SNOWFLAKE_MAX_MACHINE, machine_id);
    rc = mintid_snowflake_check_epoch(epoch, err);
    if (rc != MINTID_OK)
        return rc;
    g->state = UNSTARTED;
    g->epoch = epoch;
    g->machine_id = (uint32_t)machine_id;
    g->max_wait_ms = MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS;
    g->generation = mintid_os_fork_generation();
    g->fence = NULL;
    return MINTID_OK;
}

int mintid_snowflake_gen_init_fenced(mintid_snowflake_gen *pub, mintid_fence *f, int64_t epoch, char *err)
{
    int rc = mintid_snowflake_gen_init(pub, 0, epoch, err);

    if (rc == MINTID_OK)
        rc = mintid_fence_bind_epoch(mintid_fence_state_of(f), epoch, err);
    if (rc == MINTID_OK)
        mintid_snowflake_state_of(pub)->fence = mintid_fence_state_of(f);
    return rc;
}

int mintid_snowflake_gen_set_max_wait(mintid_snowflake_state *g, int64_t max_wait_ms, char *err)
{
    if (max_wait_ms < 0 || max_wait_ms > MINTID_SNOWFLAKE_MAX_WAIT_LIMIT_MS)
        return mintid_fail(err, MINTID_EARG, "max_wait_ms must be 0..%d, got %" PRId64,
                           MINTID_SNOWFLAKE_MAX_WAIT_LIMIT_MS, max_wait_ms);
    g->max_wait_ms = max_wait_ms;
    return MINTID_OK;
}

/* After gen_try's EAGAIN at now_ms: MINTID_OK if the clock has to pass
 * last_ms within g->max_wait_ms (read it again), else EAGAIN with
 * "snowflake: clock moved back N ms ..." (or, at the same ms, "snowflake:
 * 4096 IDs used at ms ..."). */
static int may_wait(const mintid_snowflake_state *g, int64_t now_ms, char *err)
{
    uint64_t old = g->fence != NULL ? LOAD_WORD(g->fence->word) : LOAD_WORD(g->state);
    /* now_ms passed gen_try's range checks, and last_ms is within 42 bits
     * of the epoch (52 bits of 0 on a fence): neither sum nor difference
     * overflows. */
    int64_t last_ms = (int64_t)(old >> SEQ_BITS) + (g->fence != NULL ? 0 : g->epoch);

    if (old == UNSTARTED || (old & SEQ_MAX) != SEQ_MAX || now_ms > last_ms)
        return MINTID_OK; /* nothing to wait for: try again at once */
    /* The wait is last_ms + 1 - now_ms, written so that nothing can
     * overflow: both are >= epoch >= 0 here. */
    if (last_ms - now_ms < g->max_wait_ms)
        return MINTID_OK;
    if (now_ms == last_ms)
        return mintid_fail(err, MINTID_EAGAIN,
                           "snowflake: 4096 IDs used at ms %" PRId64 " and max_wait_ms %" PRId64
                           " forbids waiting for the next ms", last_ms, g->max_wait_ms);
    return mintid_fail(err, MINTID_EAGAIN,
                       "snowflake: clock moved back %" PRId64 " ms (reads %" PRId64 ", IDs used up to %"
                       PRId64 "), more than max_wait_ms %" PRId64,
                       last_ms - now_ms, now_ms, last_ms, g->max_wait_ms);
}

/* SPEC: an ID with bit 63 set would be negative on a signed 64-bit host
 * (a Lua 5.3+ integer), so every binding refuses it alike, in these words. */
static int check_signed(uint64_t id, char *err)
{
    if (id >> 63)
        return mintid_fail(err, MINTID_ERANGE, "snowflake ID %" PRIu64 " sets bit 63 (past the "
                           "signed 64-bit range); use a later epoch", id);
    return MINTID_OK;
}

/* One attempt with machine_id. fenced is a constant of each call, so that
 * the compiler keeps the static path as it was: its word is g->state, in
 * ms since the epoch; a fenced one's is the fence's, in Unix ms, and mints
 * only ms >= min_ms (floor_ms + 1, named by the refusal). */
static inline int try_at(mintid_snowflake_state *g, int fenced, int64_t now_ms, uint32_t machine_id,
                         uint64_t min_ms, int64_t floor_ms, uint64_t *id, char *err)
{
    uint64_t base = fenced ? 0 : (uint64_t)g->epoch;
    uint64_t w, t, old, next, made;
    int rc;

    /* Compared before subtracting: now_ms - epoch can overflow int64. */
    if (now_ms < g->epoch)
        return mintid_fail(err, MINTID_ERANGE, "snowflake timestamp %" PRId64 " is before epoch %" PRId64,
                           now_ms, g->epoch);
    if (((uint64_t)now_ms - (uint64_t)g->epoch) >> TIME_BITS != 0 || (fenced && (uint64_t)now_ms >> WORD_MS_BITS))
        return mintid_fail(err, MINTID_ERANGE,
                           "snowflake timestamp %" PRId64 " is more than 42 bits past epoch %" PRId64,
                           now_ms, g->epoch);
    w = (uint64_t)now_ms - base;

    old = fenced ? LOAD_WORD(g->fence->word) : LOAD_WORD(g->state);
    do {
        if (old != UNSTARTED && w <= old >> SEQ_BITS) {
            /* Same ms or the clock went back: keep last_ms so IDs still rise. */
            if ((old & SEQ_MAX) == SEQ_MAX)
                return mintid_fail(err, MINTID_EAGAIN,
                                   "snowflake sequence exhausted at ms %" PRId64 " (4096 IDs used)",
                                   (int64_t)((old >> SEQ_BITS) + base));
            next = old + 1;
        } else {
            next = w << SEQ_BITS;
        }
        /* The ms minted, not the clock's: a clock set back mints last_ms. */
        if (fenced && next >> SEQ_BITS < min_ms)
            return mintid_fence_refuse_floor(floor_ms, err);
        t = (next >> SEQ_BITS) + base - (uint64_t)g->epoch;
        /* Another generator on the fence may have left a last_ms that this
         * one's epoch cannot hold. */
        if (fenced && t >> TIME_BITS != 0)
            return mintid_fail(err, MINTID_ERANGE,
                               "snowflake timestamp %" PRId64 " is more than 42 bits past epoch %" PRId64,
                               (int64_t)(next >> SEQ_BITS), g->epoch);
        made = t << TIME_SHIFT | (uint64_t)machine_id << MACHINE_SHIFT | (next & SEQ_MAX);
        /* Refused before the state moves: nothing to roll back. */
        rc = check_signed(made, err);
        if (rc != MINTID_OK)
            return rc;
    } while (!(fenced ? SWAP_WORD(g->fence->word, &old, next) : SWAP_WORD(g->state, &old, next)));

    *id = made;
    return MINTID_OK;
}

/* A generator on a fence: the fence's machine id, above its floor. */
static int fenced_try(mintid_snowflake_state *g, int64_t now_ms, uint64_t *id, char *err)
{
    uint32_t machine_id = 0;
    int64_t floor_ms = 0;
    int rc = mintid_fence_open(g->fence, &machine_id, &floor_ms, err);

    if (rc != MINTID_OK)
        return rc;
    return try_at(g, 1, now_ms, machine_id, (uint64_t)floor_ms + 1, floor_ms, id, err);
}

int mintid_snowflake_gen_try(mintid_snowflake_state *g, int64_t now_ms,
                             uint64_t *id, char *err)
{
    /* The one branch a static machine_id pays for leases. */
    if (g->fence != NULL)
        return fenced_try(g, now_ms, id, err);
    if (g->generation != mintid_os_fork_generation())
        return mintid_fail(err, MINTID_EFORK,
                           "snowflake generator made in another process (before fork()): "
                           "make one per process, each with its own machine_id");
    return try_at(g, 0, now_ms, g->machine_id, 0, 0, id, err);
}

int mintid_snowflake_gen_next_on(mintid_snowflake_state *g, mintid_clock_fn clock, void *clock_ctx,
                                 uint64_t *id, char *err)
{
    int64_t latest = INT64_MIN, since = 0, readings = 0;

    for (;;) {
        int64_t now;
        int rc = clock(clock_ctx, &now, err);

        if (rc != MINTID_OK)
            return rc;
        rc = mintid_snowflake_gen_try(g, now, id, err);
        if (rc != MINTID_EAGAIN)
            return rc;
        rc = may_wait(g, now, err);
        if (rc != MINTID_OK)
            return rc;
        /* may_wait bounds how far the clock has to go; this, how long it
         * may take to get anywhere: a clock that has read nothing later
         * than its latest for max_wait_ms is stuck (a frozen VM clock,
         * faketime's absolute mode, an injected one). The ms are those of
         * a clock that moves whatever `clock` does; the readings keep a
         * scripted clock's outcome the same on a loaded machine. A clock
         * that keeps moving on passes last_ms within max_wait_ms steps. */
        if (now > latest) {
            latest = now;
            since = mintid_os_monotonic_ms();
            readings = 0;
        } else if (++readings >= g->max_wait_ms && mintid_os_monotonic_ms() - since >= g->max_wait_ms) {
            return mintid_fail(err, MINTID_EAGAIN,
                               "snowflake: clock stuck at ms %" PRId64 " with 4096 IDs used (waited "
                               "max_wait_ms %" PRId64 " for it to move)", latest, g->max_wait_ms);
        }
        mintid_os_pause();
    }
}

static int os_clock(void *ctx, int64_t *now_ms, char *err)
{
    (void)ctx;
    return mintid_os_clock_ms(now_ms, err);
}

int mintid_snowflake_gen_next(mintid_snowflake_state *g, uint64_t *id, char *err)
{
    return mintid_snowflake_gen_next_on(g, os_clock, NULL, id, err);
}

void mintid_snowflake_split(uint64_t id, int64_t epoch,
                            int64_t *timestamp, uint32_t *machine_id, uint32_t *sequence)
{
    /* Unsigned sum: an absurd epoch wraps instead of overflowing int64. */
    *timestamp = (int64_t)((id >> TIME_SHIFT) + (uint64_t)epoch);
    *machine_id = (uint32_t)(id >> MACHINE_SHIFT) & MINTID_SNOWFLAKE_MAX_MACHINE;
    *sequence = (uint32_t)(id & SEQ_MAX);
}

int mintid_snowflake_timestamp(uint64_t id, int64_t epoch, int64_t max_timestamp,
                               int64_t *timestamp, char *err)
{
    uint64_t t = id >> TIME_SHIFT; /* below 2^42 */

    if (epoch < 0 || max_timestamp < 0 || epoch > max_timestamp || t > (uint64_t)(max_timestamp - epoch))
        return mintid_fail(err, MINTID_ERANGE,
                           "snowflake timestamp %" PRIu64 " + epoch %" PRId64 " does not fit (max %" PRId64 ")",
                           t, epoch, max_timestamp);
    *timestamp = (int64_t)t + epoch;
    return MINTID_OK;
}

int mintid_snowflake_parse_decimal(const char *text, size_t len, uint64_t *id, char *err)
{
    uint64_t v = 0;
    int overflow = 0;
    char what[8];
    size_t i;

    if (len == 0)
        return mintid_fail(err, MINTID_EPARSE, "invalid snowflake ID: empty");
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < '0' || c > '9')
            return mintid_fail(err, MINTID_EPARSE, "invalid snowflake ID: bad character %s at %zu",
                               mintid_describe_byte(c, what), i + 1);
    }
    for (i = 0; i < len && !overflow; i++) {
        uint64_t d = (uint64_t)(text[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            overflow = 1;
        else
            v = v * 10 + d;
    }
    if (overflow)
        return mintid_fail(err, MINTID_EPARSE, "invalid snowflake ID: more than 2^64 - 1");
    /* Leading zeros could keep a longer text in range, but it is no canonical ID. */
    if (len > MINTID_SNOWFLAKE_DECIMAL_MAX)
        return mintid_fail(err, MINTID_EPARSE, "invalid snowflake ID: more than %d digits",
                           MINTID_SNOWFLAKE_DECIMAL_MAX);
    *id = v;
    return MINTID_OK;
}

size_t mintid_snowflake_format_decimal(uint64_t id, char out[20])
{
    char digits[MINTID_SNOWFLAKE_DECIMAL_MAX];
    size_t n = 0, i;

    do {
        digits[n++] = (char)('0' + id % 10);
        id /= 10;
    } while (id != 0);
    for (i = 0; i < n; i++)
        out[i] = digits[n - 1 - i];
    return n;
}
