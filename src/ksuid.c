/*
 * ksuid.c: KSUIDs (segmentio/ksuid, SPEC "KSUID"): 32-bit seconds since
 * 1400000000 then a 128-bit payload, 27 characters of base62, and the
 * monotonic generator, the ULID rule at one-second resolution.
 */
#include <inttypes.h>
#include <string.h>

#include "internal.h"

#define PAYLOAD_BYTES 16

static int check_seconds(int64_t unix_s, char *err)
{
    if (unix_s >= MINTID_KSUID_EPOCH && unix_s <= MINTID_KSUID_MAX_UNIX)
        return MINTID_OK;
    return mintid_fail(err, MINTID_ERANGE, "KSUID timestamp %" PRId64 " out of range %" PRId64 "..%" PRId64,
                       unix_s, MINTID_KSUID_EPOCH, MINTID_KSUID_MAX_UNIX);
}

/* No range check: callers have checked unix_s. */
static void store_ksuid(int64_t unix_s, const uint8_t payload[16], uint8_t out[20])
{
    mintid_store_be32(out, (uint32_t)(unix_s - MINTID_KSUID_EPOCH));
    memcpy(out + 4, payload, PAYLOAD_BYTES);
}

int mintid_ksuid_from_parts(int64_t unix_s, const uint8_t payload[16], uint8_t out[20], char *err)
{
    int rc = check_seconds(unix_s, err);

    if (rc == MINTID_OK)
        store_ksuid(unix_s, payload, out);
    return rc;
}

void mintid_ksuid_encode(const uint8_t id[20], char out[27])
{
    mintid_base62_encode160(id, out);
}

int mintid_ksuid_decode(const char *text, size_t len, uint8_t out[20], char *err)
{
    uint8_t id[MINTID_KSUID_BYTES];
    char desc[8];
    size_t i;

    if (len != MINTID_KSUID_TEXT_LEN)
        return mintid_fail(err, MINTID_EPARSE, "invalid KSUID: length %zu, want 27", len);
    for (i = 0; i < MINTID_KSUID_TEXT_LEN; i++)
        if (mintid_base62_value((unsigned char)text[i]) < 0)
            return mintid_fail(err, MINTID_EPARSE, "invalid KSUID: bad character %s at %zu",
                               mintid_describe_byte((unsigned char)text[i], desc), i + 1);
    if (mintid_base62_decode160(text, id) != 0)
        return mintid_fail(err, MINTID_EPARSE,
                           "invalid KSUID: value overflows 160 bits (the largest is aWgEPTl1tmebfsQzFP4bxwgy80V)");
    memcpy(out, id, sizeof id);
    return MINTID_OK;
}

int64_t mintid_ksuid_time(const uint8_t id[20])
{
    return MINTID_KSUID_EPOCH + (int64_t)mintid_load_be32(id);
}

void mintid_ksuid_gen_init(mintid_ksuid_gen *pub)
{
    mintid_ksuid_state *g = mintid_ksuid_state_of(pub);

    g->last_s = -1; /* below every valid second: the first call draws */
    memset(g->payload, 0, sizeof g->payload);
    g->generation = mintid_os_fork_generation();
}

int mintid_ksuid_gen_next(mintid_ksuid_state *g, int64_t now_ms,
                          mintid_random_fn rnd, void *ctx, uint8_t out[20], char *err)
{
    static const mintid_counter_rule rule = { "KSUID", "s", 128, PAYLOAD_BYTES, PAYLOAD_BYTES, NULL };
    /* floor(now_ms / 1000). C division truncates toward zero, which is the
     * floor for every ms >= 0; a negative ms is out of range either way,
     * but its message should name the second it falls in. */
    int64_t now_s = now_ms / 1000 - (now_ms % 1000 < 0);
    int rc = check_seconds(now_s, err);

    if (rc != MINTID_OK)
        return rc;
    rc = mintid_counter_step(&rule, &g->last_s, g->payload, &g->generation, now_s, rnd, ctx, err);
    if (rc == MINTID_OK)
        store_ksuid(g->last_s, g->payload, out);
    return rc;
}
