/*
 * objectid.c: MongoDB ObjectIds (SPEC "MongoDB ObjectId"): 4-byte seconds,
 * 5 random bytes drawn once per process (and again in a forked child), a
 * 3-byte counter from a random start (seconds_counter.c); 24 lowercase hex
 * digits, read in either case.
 */
#include <string.h>

#include "internal.h"

#define RANDOM_BYTES 5
#define START_BYTES  3

void mintid_objectid_encode(const uint8_t id[12], char out[24])
{
    mintid_hex_encode12(id, out);
}

int mintid_objectid_decode(const char *text, size_t len, uint8_t out[12], char *err)
{
    uint8_t id[MINTID_OBJECTID_BYTES];
    char desc[8];
    size_t i;

    if (len != MINTID_OBJECTID_TEXT_LEN)
        return mintid_fail(err, MINTID_EPARSE, "invalid ObjectId: length %zu, want 24", len);
    for (i = 0; i < MINTID_OBJECTID_TEXT_LEN; i++) {
        /* The Crockford table reads 0-9 and a-f/A-F as 0..15. */
        int v = mintid_base32_values[(unsigned char)text[i]];

        if (v < 0 || v > 15)
            return mintid_fail(err, MINTID_EPARSE, "invalid ObjectId: bad character %s at %zu",
                               mintid_describe_byte((unsigned char)text[i], desc), i + 1);
        if (i % 2 == 0)
            id[i / 2] = (uint8_t)(v << 4);
        else
            id[i / 2] |= (uint8_t)v;
    }
    memcpy(out, id, sizeof id);
    return MINTID_OK;
}

void mintid_objectid_gen_init(mintid_objectid_gen *pub)
{
    mintid_objectid_state *g = mintid_objectid_state_of(pub);

    mintid_seconds_counter_init(&g->sc);
    memset(g->random, 0, sizeof g->random);
}

int mintid_objectid_gen_next(mintid_objectid_state *g, int64_t now_ms, mintid_random_fn rnd, void *ctx,
                             uint8_t out[12], char *err)
{
    return mintid_objectid_gen_next_s(g, mintid_seconds_of_ms(now_ms), rnd, ctx, out, err);
}

int mintid_objectid_gen_next_s(mintid_objectid_state *g, int64_t seconds, mintid_random_fn rnd, void *ctx,
                               uint8_t out[12], char *err)
{
    uint8_t drawn[RANDOM_BYTES + START_BYTES];
    uint32_t generation = mintid_os_fork_generation();
    int rc;

    rc = mintid_seconds_check("ObjectId", seconds, err);
    if (rc != MINTID_OK)
        return rc;
    /* One draw per process: the 5 bytes, then the counter's start. */
    if (mintid_seconds_counter_fresh(&g->sc, generation)) {
        rc = mintid_draw_random(rnd, ctx, drawn, sizeof drawn, "ObjectId", err);
        if (rc != MINTID_OK)
            return rc;
        memcpy(g->random, drawn, RANDOM_BYTES);
    }
    return mintid_seconds_counter_step(&g->sc, "ObjectId", seconds, generation, drawn + RANDOM_BYTES,
                                       (uint64_t)mintid_load_be32(g->random) << 8 | g->random[4], out, err);
}
