/* monotonic.c: SPEC's (last_ms, last_rand) rule, the one implementation
 * behind the ULID, UUIDv7, relative ID and KSUID generators. */
#include <inttypes.h>
#include <string.h>

#include "internal.h"

#define COUNTER_BYTES 10
#define MIN_COUNTER_BYTES 8
#define MAX_COUNTER_BYTES 16 /* KSUID's 128-bit payload */

void mintid_monotonic_init(mintid_monotonic *st)
{
    /* Below every valid timestamp (0..2^48 - 1), so the first call draws
     * fresh randomness even at ms 0. */
    st->last_ms = -1;
    memset(st->counter, 0, sizeof st->counter);
    st->generation = mintid_os_fork_generation();
}

/* Keeps the len-byte counter within 2^bits - 1 whatever `load` produced,
 * which the overflow test of add_one relies on. */
static void mask_to_bits(uint8_t *c, size_t len, unsigned bits)
{
    /* c is big-endian: c[top] is the most significant byte kept whole,
     * c[top - 1] keeps only its low (bits % 8) bits, earlier bytes none. */
    size_t top = len - bits / 8;

    if (top > 0) {
        c[top - 1] &= (uint8_t)((1u << (bits % 8)) - 1);
        memset(c, 0, top - 1);
    }
}

/* The counter is read and written in two pieces, big-endian: its last 8
 * bytes (lo) and the len - 8 before them (hi), never in a piece that spans
 * both. A read over bytes stored in other pieces waits until they reach
 * the cache; the kinds' stores read the counter in these pieces too. */
static MINTID_ALWAYS_INLINE void counter_get(const uint8_t *c, size_t len, uint64_t *hi, uint64_t *lo)
{
    size_t i;

    *hi = 0;
    for (i = 0; i + 8 < len; i++)
        *hi = *hi << 8 | c[i];
    *lo = mintid_load_be64(c + len - 8);
}

static MINTID_ALWAYS_INLINE void counter_put(uint8_t *c, size_t len, uint64_t hi, uint64_t lo)
{
    uint8_t top[8];

    /* hi's len - 8 bytes in one piece (counter_get reads them so). */
    mintid_store_be64(top, hi);
    memcpy(c, top + (16 - len), len - 8);
    mintid_store_be64(c + len - 8, lo);
}

/* Adds 1 to a counter hi << 64 | lo <= 2^bits - 1; non-zero when the sum
 * is 2^bits, i.e. the increment would pass the maximum. */
static MINTID_ALWAYS_INLINE int add_one(uint64_t *hi, uint64_t *lo, unsigned bits)
{
    if (++*lo == 0)
        ++*hi;
    if (bits == 128)
        return *lo == 0 && *hi == 0;
    if (bits > 64)
        return (*hi >> (bits - 64)) != 0;
    return *hi != 0 || (bits < 64 && (*lo >> bits) != 0);
}

static int check_rule(const mintid_counter_rule *rule, char *err)
{
    if (rule->len < MIN_COUNTER_BYTES || rule->len > MAX_COUNTER_BYTES || rule->bits == 0 || rule->bits > 8 * rule->len ||
        rule->draw_len == 0 || rule->draw_len > rule->len)
        return mintid_fail(err, MINTID_EARG, "%s generator: unsupported %u-bit counter from %zu bytes",
                           rule->kind, rule->bits, rule->draw_len);
    return MINTID_OK;
}

static int counter_draws(int64_t last, uint32_t last_generation, int64_t now, uint32_t generation)
{
    /* A new state's last is -1, so its first call draws; so does the first
     * call in a process forked since the state was set, which must not
     * continue the counter its parent continues too. */
    return now > last || generation != last_generation;
}

/* The step, with drawn holding the draw of a step that installs a new time
 * unit, once the rule is known good. Inline: the ms steps below pass a
 * rule of COUNTER_BYTES, and a constant length makes the counter's copies
 * plain moves instead of calls. */
static MINTID_ALWAYS_INLINE int commit(const mintid_counter_rule *rule, int64_t *last, uint8_t *counter,
                         uint32_t *last_generation, int64_t now, uint32_t generation,
                         const uint8_t *drawn, char *err)
{
    uint8_t next[MAX_COUNTER_BYTES];
    size_t len = rule->len;
    uint64_t hi, lo;

    /* The new state is built in hi and lo and committed at the end, so
     * every error return leaves the state as it was (SPEC). */
    if (counter_draws(*last, *last_generation, now, generation)) {
        if (drawn == NULL)
            return mintid_fail(err, MINTID_EARG, "%s generator: a step at a new %s without its draw",
                               rule->kind, rule->unit);
        if (rule->load != NULL) {
            rule->load(drawn, next);
        } else {
            memset(next, 0, len - rule->draw_len);
            memcpy(next + (len - rule->draw_len), drawn, rule->draw_len);
        }
        mask_to_bits(next, len, rule->bits);
        counter_get(next, len, &hi, &lo);
        *last = now;
    } else {
        /* Same time unit, or the clock went backwards: keep last so that
         * the output still increases strictly. */
        counter_get(counter, len, &hi, &lo);
        if (add_one(&hi, &lo, rule->bits))
            return mintid_fail(err, MINTID_EOVERFLOW,
                               "%s counter overflow at %s %" PRId64 " (%u-bit randomness exhausted)",
                               rule->kind, rule->unit, *last, rule->bits);
    }
    counter_put(counter, len, hi, lo);
    *last_generation = generation;
    return MINTID_OK;
}

/* mintid_counter_step once the rule is known good; inline as commit is. */
static MINTID_ALWAYS_INLINE int step(const mintid_counter_rule *rule, int64_t *last, uint8_t *counter,
                                     uint32_t *last_generation, int64_t now, uint32_t generation,
                                     mintid_random_fn rnd, void *ctx, char *err)
{
    uint8_t drawn[MAX_COUNTER_BYTES];
    int draws = counter_draws(*last, *last_generation, now, generation);

    /* Exactly SPEC's draws for a source the caller gave: one, only when the
     * step installs a new time unit, and only once the rule is known good. */
    if (draws) {
        int rc = mintid_draw_random(rnd, ctx, drawn, rule->draw_len, rule->kind, err);

        if (rc != MINTID_OK)
            return rc;
    }
    return commit(rule, last, counter, last_generation, now, generation, draws ? drawn : NULL, err);
}

int mintid_counter_step(const mintid_counter_rule *rule, int64_t *last, uint8_t *counter,
                        uint32_t *last_generation, int64_t now,
                        mintid_random_fn rnd, void *ctx, char *err)
{
    int rc = check_rule(rule, err);

    if (rc != MINTID_OK)
        return rc;
    return step(rule, last, counter, last_generation, now, mintid_os_fork_generation(), rnd, ctx, err);
}

/* The step of nearly every call, in a few instructions: a valid now_ms no
 * later than last_ms, in the process that set the state, only adds 1 to
 * the counter (the rule's "otherwise"). 0, and st as it was, for any other
 * step, and for a sum past 2^bits - 1: the whole rule then, with its
 * draw or its error. last_ms >= 0 here: a new state's -1 is below every
 * valid now_ms. */
static MINTID_ALWAYS_INLINE int same_ms_step(mintid_monotonic *st, int64_t now_ms, uint32_t generation,
                                             unsigned bits, int64_t *ms, uint8_t counter[10])
{
    uint64_t hi, lo;

    if (now_ms < 0 || now_ms > st->last_ms || generation != st->generation)
        return 0;
    counter_get(st->counter, COUNTER_BYTES, &hi, &lo);
    if (add_one(&hi, &lo, bits))
        return 0;
    counter_put(st->counter, COUNTER_BYTES, hi, lo);
    counter_put(counter, COUNTER_BYTES, hi, lo);
    *ms = st->last_ms;
    return 1;
}

/* The rule on st's ms counter past same_ms_step: with the caller's draw
 * (drawn), or drawing from rnd here when draw_here. Out of line, so that
 * the path of nearly every call saves no registers for it. */
static MINTID_NOINLINE int ms_step(mintid_monotonic *st, unsigned bits, size_t draw_len,
                                   mintid_counter_load_fn load, const char *kind, int64_t now_ms,
                                   uint32_t generation, int draw_here, const uint8_t *drawn,
                                   mintid_random_fn rnd, void *ctx, int64_t *ms, uint8_t counter[10], char *err)
{
    const mintid_counter_rule rule = { kind, "ms", bits, COUNTER_BYTES, draw_len, load };
    int rc = check_rule(&rule, err);

    if (rc == MINTID_OK)
        rc = mintid_check_ms(now_ms, kind, err);
    if (rc == MINTID_OK && draw_here)
        rc = step(&rule, &st->last_ms, st->counter, &st->generation, now_ms, generation, rnd, ctx, err);
    else if (rc == MINTID_OK)
        rc = commit(&rule, &st->last_ms, st->counter, &st->generation, now_ms, generation, drawn, err);
    if (rc != MINTID_OK)
        return rc;
    *ms = st->last_ms;
    {
        uint64_t hi, lo;

        counter_get(st->counter, COUNTER_BYTES, &hi, &lo);
        counter_put(counter, COUNTER_BYTES, hi, lo);
    }
    return MINTID_OK;
}

int mintid_monotonic_step(mintid_monotonic *st, const mintid_monotonic_kind *k, int64_t now_ms,
                          uint32_t generation, const uint8_t *drawn, int64_t *ms, uint8_t counter[10], char *err)
{
    if (same_ms_step(st, now_ms, generation, k->bits, ms, counter))
        return MINTID_OK;
    if (drawn == NULL && counter_draws(st->last_ms, st->generation, now_ms, generation))
        return MINTID_MONOTONIC_WANTS_DRAW;
    return ms_step(st, k->bits, k->draw_len, k->load, k->name, now_ms, generation, 0, drawn, NULL, NULL, ms,
                   counter, err);
}

int mintid_monotonic_next(mintid_monotonic *st, int64_t now_ms,
                          unsigned bits, size_t draw_len, mintid_counter_load_fn load,
                          mintid_random_fn rnd, void *ctx, const char *kind,
                          int64_t *ms, uint8_t counter[10], char *err)
{
    uint32_t generation = mintid_os_fork_generation();

    if (same_ms_step(st, now_ms, generation, bits, ms, counter))
        return MINTID_OK;
    return ms_step(st, bits, draw_len, load, kind, now_ms, generation, 1, NULL, rnd, ctx, ms, counter, err);
}

int mintid_monotonic_kind_next(mintid_monotonic *st, const mintid_monotonic_kind *k, int64_t now_ms,
                               mintid_random_fn rnd, void *ctx, uint8_t *out, char *err)
{
    uint8_t counter[COUNTER_BYTES];
    int64_t ms;
    int rc = mintid_monotonic_next(st, now_ms, k->bits, k->draw_len, k->load, rnd, ctx, k->name,
                                   &ms, counter, err);

    if (rc == MINTID_OK)
        k->store(ms, counter, out);
    return rc;
}
