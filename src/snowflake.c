/*
 * snowflake.c: 64-bit IDs of a time unit since the epoch, a machine id and
 * a sequence, placed by the generator's layout (SPEC "Snowflake", "Snowflake
 * layouts"; snowflake_layout.c checks a layout and works out its shifts).
 *
 * The whole generator state is one word, last_t << S | seq, so a
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

#define UNSTARTED MINTID_SNOWFLAKE_UNSTARTED

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

/* g ready to mint with layout l (checked) and no fence yet. */
static void init_state(mintid_snowflake_state *g, const mintid_snowflake_layout_state *l, uint64_t machine_id)
{
    g->state = UNSTARTED;
    g->layout = *l;
    g->machine_part = machine_id << l->machine_shift;
    g->max_wait_ms = MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS;
    g->generation = mintid_os_fork_generation();
    g->fence = NULL;
}

/* EARG unless machine_id is in 0 .. 2^M - 1 of l. */
int mintid_snowflake_check_machine(const mintid_snowflake_layout_state *l, int64_t machine_id, char *err)
{
    uint64_t max = mintid_low_mask(l->machine_bits);

    if (machine_id < 0 || (uint64_t)machine_id > max)
        return mintid_fail(err, MINTID_EARG, "machine_id must be 0..%" PRIu64 ", got %" PRId64, max, machine_id);
    return MINTID_OK;
}

int mintid_snowflake_gen_init_layout(mintid_snowflake_gen *pub, const mintid_snowflake_layout *layout,
                                     int64_t machine_id, char *err)
{
    const mintid_snowflake_layout_state *l = mintid_snowflake_layout_state_of_const(layout);
    int rc = mintid_snowflake_check_machine(l, machine_id, err);

    if (rc == MINTID_OK)
        init_state(mintid_snowflake_state_of(pub), l, (uint64_t)machine_id);
    return rc;
}

/* The default layout with this epoch. */
static int default_with_epoch(mintid_snowflake_layout *l, int64_t epoch, char *err)
{
    mintid_snowflake_layout_default(l);
    return mintid_snowflake_layout_set_epoch(l, epoch, err);
}

int mintid_snowflake_gen_init(mintid_snowflake_gen *pub, int64_t machine_id,
                              int64_t epoch, char *err)
{
    mintid_snowflake_layout l;
    int rc;

    /* The machine id first: its error is the one callers knew. */
    mintid_snowflake_layout_default(&l);
    rc = mintid_snowflake_check_machine(mintid_snowflake_layout_state_of(&l), machine_id, err);
    if (rc == MINTID_OK)
        rc = default_with_epoch(&l, epoch, err);
    if (rc == MINTID_OK)
        rc = mintid_snowflake_gen_init_layout(pub, &l, machine_id, err);
    return rc;
}

int mintid_snowflake_gen_init_fenced_layout(mintid_snowflake_gen *pub, mintid_fence *f,
                                            const mintid_snowflake_layout *l, char *err)
{
    mintid_snowflake_state *g = mintid_snowflake_state_of(pub);
    mintid_fence_state *fs = mintid_fence_state_of(f);
    mintid_snowflake_layout own;
    int rc;

    /* No layout: the fence's, which this generator then fixes. */
    if (l == NULL) {
        mintid_fence_layout(f, &own);
        l = &own;
    }
    rc = mintid_fence_bind_layout(f, l, err);
    if (rc != MINTID_OK)
        return rc;
    init_state(g, &fs->layout, 0);
    g->fence = fs;
    return MINTID_OK;
}

int mintid_snowflake_gen_init_fenced(mintid_snowflake_gen *pub, mintid_fence *f, int64_t epoch, char *err)
{
    mintid_snowflake_layout l;
    int rc = default_with_epoch(&l, epoch, err);

    return rc != MINTID_OK ? rc : mintid_snowflake_gen_init_fenced_layout(pub, f, &l, err);
}

int mintid_snowflake_gen_set_max_wait(mintid_snowflake_state *g, int64_t max_wait_ms, char *err)
{
    if (max_wait_ms < 0 || max_wait_ms > MINTID_SNOWFLAKE_MAX_WAIT_LIMIT_MS)
        return mintid_fail(err, MINTID_EARG, "max_wait_ms must be 0..%d, got %" PRId64,
                           MINTID_SNOWFLAKE_MAX_WAIT_LIMIT_MS, max_wait_ms);
    g->max_wait_ms = (int32_t)max_wait_ms;
    return MINTID_OK;
}

/* The IDs of one unit, 2^S, for messages ("4096 IDs used"). */
static uint64_t ids_per_unit(const mintid_snowflake_layout_state *l)
{
    return l->seq_mask + 1; /* S <= 63 */
}

/* After gen_try's EAGAIN at now_ms: MINTID_OK if the clock has to reach
 * the unit after last_t within g->max_wait_ms (read it again), else EAGAIN
 * with "snowflake: clock moved back N ms ..." (or, in the same unit,
 * "snowflake: 4096 IDs used at ms ..."). */
static int may_wait(const mintid_snowflake_state *g, int64_t now_ms, char *err)
{
    const mintid_snowflake_layout_state *l = &g->layout;
    uint64_t old = g->fence != NULL ? LOAD_WORD(g->fence->word) : LOAD_WORD(g->state);
    uint64_t last_t = old >> l->seq_bits;
    int64_t last_start = mintid_snowflake_unit_start(l, last_t), next_start = mintid_snowflake_unit_start(l, last_t + 1);

    if (old == UNSTARTED || (old & l->seq_mask) != l->seq_mask ||
        now_ms >= next_start)
        return MINTID_OK; /* nothing to wait for: try again at once */
    /* now_ms passed gen_try's range checks: now_ms >= epoch >= 0, and
     * next_start > now_ms, so the difference cannot overflow. */
    if (next_start - now_ms <= g->max_wait_ms)
        return MINTID_OK;
    if (now_ms >= last_start)
        return mintid_fail(err, MINTID_EAGAIN,
                           "snowflake: %" PRIu64 " IDs used at ms %" PRId64 " and max_wait_ms %" PRId32
                           " forbids waiting for the next %s", ids_per_unit(l), last_start, g->max_wait_ms,
                           l->unit_ms == 1 ? "ms" : "unit");
    return mintid_fail(err, MINTID_EAGAIN,
                       "snowflake: clock moved back %" PRId64 " ms (reads %" PRId64 ", IDs used up to %"
                       PRId64 "), more than max_wait_ms %" PRId32,
                       last_start - now_ms, now_ms, last_start, g->max_wait_ms);
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

/* The fields of a layout as try_at reads them: constants for SPEC's
 * fields (the compiler then shifts by constants, as before layouts), the
 * layout's otherwise. */
typedef struct {
    unsigned time_bits, machine_bits, seq_bits;
    uint64_t unit_ms, seq_mask, low;
} try_fields;

static inline try_fields try_fields_of(const mintid_snowflake_layout_state *l, int spec)
{
    try_fields f;

    if (spec) {
        f.time_bits = 42, f.machine_bits = 10, f.seq_bits = 12, f.unit_ms = 1, f.seq_mask = 4095, f.low = 4095;
    } else {
        f.time_bits = l->time_bits, f.machine_bits = l->machine_bits, f.seq_bits = l->seq_bits;
        f.unit_ms = l->unit_ms, f.seq_mask = l->seq_mask;
        /* the bits of next that stay in place: the sequence before a machine id */
        f.low = l->order == MINTID_SNOWFLAKE_ORDER_TMS ? l->seq_mask : 0;
    }
    return f;
}

/* One attempt with machine_part (the machine id where the layout puts it).
 * fenced and spec are constants of each call, so that the compiler keeps
 * the static path of SPEC's fields as it was before layouts: its word is
 * g->state; a fenced one's is the fence's (in the same layout: one fence,
 * one layout), and mints only units >= min_t (those starting after
 * floor_ms) and < max_t (those starting at or before last_ms), each
 * named by its refusal. */
static inline int try_at(mintid_snowflake_state *g, int fenced, int spec, int64_t now_ms, uint64_t machine_part,
                         uint64_t min_t, int64_t floor_ms, uint64_t max_t, int64_t last_ms, uint64_t *id,
                         char *err)
{
    const mintid_snowflake_layout_state *l = &g->layout;
    const try_fields f = try_fields_of(l, spec);
    uint64_t d, t, old, next, made;
    int rc;

    /* Compared before subtracting: now_ms - epoch can overflow int64. */
    if (now_ms < l->epoch)
        return mintid_fail(err, MINTID_ERANGE, "snowflake timestamp %" PRId64 " is before epoch %" PRId64,
                           now_ms, l->epoch);
    d = (uint64_t)now_ms - (uint64_t)l->epoch;
    t = mintid_snowflake_units(d, f.unit_ms);
    if (t >> f.time_bits != 0)
        return mintid_fail(err, MINTID_ERANGE,
                           "snowflake timestamp %" PRId64 " is more than %u bits%s past epoch %" PRId64,
                           now_ms, f.time_bits, f.unit_ms == 1 ? "" : " of units", l->epoch);
    old = fenced ? LOAD_WORD(g->fence->word) : LOAD_WORD(g->state);
    do {
        if (old != UNSTARTED && t <= old >> f.seq_bits) {
            /* Same unit or the clock went back: keep last_t so IDs still rise. */
            if ((old & f.seq_mask) == f.seq_mask)
                return mintid_fail(err, MINTID_EAGAIN,
                                   "snowflake sequence exhausted at ms %" PRId64 " (%" PRIu64 " IDs used)",
                                   mintid_snowflake_unit_start(l, old >> f.seq_bits), f.seq_mask + 1);
            next = old + 1;
        } else {
            next = t << f.seq_bits;
        }
        /* The unit minted, not the clock's: a clock set back mints last_t. */
        if (fenced && next >> f.seq_bits < min_t)
            return mintid_fence_refuse_floor(floor_ms, err);
        if (fenced && next >> f.seq_bits >= max_t)
            return mintid_fence_refuse_last(last_ms, err);
        /* next is t << S | seq: in order time-machine-seq the machine id
         * goes between them (t << (M + S) | machine << S | seq), in
         * time-seq-machine below both (t << (S + M) | seq << M | machine):
         * one shift either way, the machine id's part worked out before. */
        made = (next & ~f.low) << f.machine_bits | (next & f.low) | machine_part;
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
    uint64_t machine_id = 0;
    int64_t floor_ms = 0, last_ms = 0;
    uint64_t last_unit = 0;
    int rc;

    /* A guarded fence (a lock file's) is asked again once its last ms is
     * reached: minting goes on while the guard says the id is still held. */
    if (g->fence->guard != NULL && now_ms >= g->fence->last_start &&
        (rc = mintid_fence_recheck(g->fence, now_ms, err)) != MINTID_OK)
        return rc;
    rc = mintid_fence_open(g->fence, &machine_id, &floor_ms, &last_ms, &last_unit, err);
    if (rc != MINTID_OK)
        return rc;
    return try_at(g, 1, 0, now_ms, machine_id << g->layout.machine_shift,
                  mintid_snowflake_first_unit_after(&g->layout, floor_ms), floor_ms, last_unit, last_ms, id, err);
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
    if (g->layout.spec_fields)
        return try_at(g, 0, 1, now_ms, g->machine_part, 0, 0, 0, 0, id, err);
    return try_at(g, 0, 0, now_ms, g->machine_part, 0, 0, 0, 0, id, err);
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
                               "snowflake: clock stuck at ms %" PRId64 " with %" PRIu64 " IDs used (waited "
                               "max_wait_ms %" PRId32 " for it to move)", latest, ids_per_unit(&g->layout),
                               g->max_wait_ms);
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

/* The default layout's reading, for callers of the epoch-only ABI. */
void mintid_snowflake_split(uint64_t id, int64_t epoch,
                            int64_t *timestamp, uint32_t *machine_id, uint32_t *sequence)
{
    mintid_snowflake_layout_state l;
    uint64_t t;

    mintid_snowflake_layout_default_state(&l);
    t = id >> l.time_shift;
    /* Unsigned sum: an absurd epoch wraps instead of overflowing int64. */
    *timestamp = (int64_t)(t + (uint64_t)epoch);
    *machine_id = (uint32_t)((id >> l.machine_shift) & mintid_low_mask(l.machine_bits));
    *sequence = (uint32_t)((id >> l.seq_shift) & mintid_low_mask(l.seq_bits));
}

int mintid_snowflake_timestamp(uint64_t id, int64_t epoch, int64_t max_timestamp,
                               int64_t *timestamp, char *err)
{
    mintid_snowflake_layout l;
    uint64_t machine_id, sequence;

    mintid_snowflake_layout_default(&l);
    if (epoch < 0 || max_timestamp < 0 || mintid_snowflake_layout_set_epoch(&l, epoch, NULL) != MINTID_OK)
        return mintid_fail(err, MINTID_ERANGE, "snowflake timestamp + epoch %" PRId64 " does not fit (max %"
                           PRId64 ")", epoch, max_timestamp);
    return mintid_snowflake_layout_split(&l, id, max_timestamp, timestamp, &machine_id, &sequence, err);
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

/* "00" to "99": two digits a lookup. */
static const char decimal_pairs[201] =
    "00010203040506070809"
    "10111213141516171819"
    "20212223242526272829"
    "30313233343536373839"
    "40414243444546474849"
    "50515253545556575859"
    "60616263646566676869"
    "70717273747576777879"
    "80818283848586878889"
    "90919293949596979899";

/* v < 10^8 as its 8 digits, leading zeros included. */
static void eight_digits(uint32_t v, char *out)
{
    const uint32_t hi = v / 10000, lo = v % 10000;

    memcpy(out, decimal_pairs + 2 * (hi / 100), 2);
    memcpy(out + 2, decimal_pairs + 2 * (hi % 100), 2);
    memcpy(out + 4, decimal_pairs + 2 * (lo / 100), 2);
    memcpy(out + 6, decimal_pairs + 2 * (lo % 100), 2);
}

/* Three runs of 8 digits, each worked out apart from the others (a digit
 * at a time, each division waits for the one before: 19 in a row), then
 * the leading zeros dropped. */
size_t mintid_snowflake_format_decimal(uint64_t id, char out[20])
{
    char digits[24];
    const uint64_t top = id / 100000000;
    size_t lead = 0;

    eight_digits((uint32_t)(top / 100000000), digits); /* < 1845 */
    eight_digits((uint32_t)(top % 100000000), digits + 8);
    eight_digits((uint32_t)(id % 100000000), digits + 16);
    while (lead < sizeof digits - 1 && digits[lead] == '0')
        lead++;
    memcpy(out, digits + lead, sizeof digits - lead);
    return sizeof digits - lead;
}
