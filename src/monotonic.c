/* monotonic.c: SPEC's (last_ms, last_rand) rule, the one implementation
 * behind the ULID, UUIDv7 and relative ID generators. */
#include <inttypes.h>
#include <string.h>

#include "internal.h"

#define COUNTER_BYTES 10
#define COUNTER_BITS  80

void mintid_monotonic_init(mintid_monotonic *st)
{
    /* Below every valid timestamp (0..2^48 - 1), so the first call draws
     * fresh randomness even at ms 0. */
    st->last_ms = -1;
    memset(st->counter, 0, sizeof st->counter);
    st->generation = mintid_os_fork_generation();
}

/* Keeps the counter within 2^bits - 1 whatever `load` produced, which the
 * overflow test of add_one relies on. */
static void mask_to_bits(uint8_t c[COUNTER_BYTES], unsigned bits)
{
    /* c is big-endian: c[top] is the most significant byte kept whole,
     * c[top - 1] keeps only its low (bits % 8) bits, earlier bytes none. */
    size_t top = COUNTER_BYTES - bits / 8;

    if (top > 0) {
        c[top - 1] &= (uint8_t)((1u << (bits % 8)) - 1);
        memset(c, 0, top - 1);
    }
}

/* Adds 1 to a counter <= 2^bits - 1; non-zero when the sum is 2^bits,
 * i.e. the increment would pass the maximum. */
static int add_one(uint8_t c[COUNTER_BYTES], unsigned bits)
{
    unsigned carry = 1;
    int i;

    for (i = COUNTER_BYTES - 1; i >= 0 && carry; i--) {
        c[i] = (uint8_t)(c[i] + 1);
        carry = c[i] == 0;
    }
    if (bits == COUNTER_BITS)
        return (int)carry;
    return (c[COUNTER_BYTES - 1 - bits / 8] >> (bits % 8)) & 1;
}

static int check_counter(unsigned bits, size_t draw_len, const char *kind, char *err)
{
    if (bits == 0 || bits > COUNTER_BITS || draw_len == 0 || draw_len > COUNTER_BYTES)
        return mintid_fail(err, MINTID_EARG, "%s generator: unsupported %u-bit counter from %zu bytes",
                           kind, bits, draw_len);
    return MINTID_OK;
}

int mintid_monotonic_draws(const mintid_monotonic *st, int64_t now_ms, uint32_t generation)
{
    /* A new generator's last_ms is -1, so its first call draws; so does the
     * first call in a process forked since st was set, which must not
     * continue the counter its parent continues too. */
    return now_ms > st->last_ms || generation != st->generation;
}

int mintid_monotonic_step(mintid_monotonic *st, int64_t now_ms, uint32_t generation,
                          unsigned bits, size_t draw_len, mintid_counter_load_fn load,
                          const uint8_t *drawn, const char *kind,
                          int64_t *ms, uint8_t counter[10], char *err)
{
    uint8_t next[COUNTER_BYTES];
    int64_t next_ms = st->last_ms;
    int rc = check_counter(bits, draw_len, kind, err);

    if (rc == MINTID_OK)
        rc = mintid_check_ms(now_ms, kind, err);
    if (rc != MINTID_OK)
        return rc;

    /* The new state is built in next_ms/next and committed at the end, so
     * every error return leaves st as it was (SPEC). */
    if (mintid_monotonic_draws(st, now_ms, generation)) {
        if (drawn == NULL)
            return mintid_fail(err, MINTID_EARG, "%s generator: a step at a new ms without its draw", kind);
        if (load != NULL) {
            load(drawn, next);
        } else {
            memset(next, 0, COUNTER_BYTES - draw_len);
            memcpy(next + (COUNTER_BYTES - draw_len), drawn, draw_len);
        }
        mask_to_bits(next, bits);
        next_ms = now_ms;
    } else {
        /* Same ms, or the clock went backwards: keep last_ms so that the
         * output still increases strictly. */
        memcpy(next, st->counter, COUNTER_BYTES);
        if (add_one(next, bits))
            return mintid_fail(err, MINTID_EOVERFLOW,
                               "%s counter overflow at ms %" PRId64 " (%u-bit randomness exhausted)",
                               kind, st->last_ms, bits);
    }
    st->last_ms = next_ms;
    memcpy(st->counter, next, COUNTER_BYTES);
    st->generation = generation;
    *ms = next_ms;
    memcpy(counter, next, COUNTER_BYTES);
    return MINTID_OK;
}

int mintid_monotonic_next(mintid_monotonic *st, int64_t now_ms,
                          unsigned bits, size_t draw_len, mintid_counter_load_fn load,
                          mintid_random_fn rnd, void *ctx, const char *kind,
                          int64_t *ms, uint8_t counter[10], char *err)
{
    uint8_t drawn[COUNTER_BYTES];
    uint32_t generation = mintid_os_fork_generation();
    int rc = check_counter(bits, draw_len, kind, err), draws;

    /* Exactly SPEC's draws for a source the caller gave: one, only when the
     * step installs a new ms, and only once the arguments are known good. */
    if (rc == MINTID_OK)
        rc = mintid_check_ms(now_ms, kind, err);
    if (rc != MINTID_OK)
        return rc;
    draws = mintid_monotonic_draws(st, now_ms, generation);
    if (draws) {
        rc = mintid_draw_random(rnd, ctx, drawn, draw_len, kind, err);
        if (rc != MINTID_OK)
            return rc;
    }
    return mintid_monotonic_step(st, now_ms, generation, bits, draw_len, load, draws ? drawn : NULL,
                                 kind, ms, counter, err);
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
