/* ulid.c: ULID bytes, Crockford text and the monotonic generator (SPEC). */
#include <string.h>

#include "internal.h"

#define ULID_RAND_BITS 80
#define ULID_RAND_BYTES 10

/* No range check: from_parts checks ms itself, and the generator's ms was
 * checked by mintid_monotonic_next. */
static void store_ulid(int64_t ms, const uint8_t rand[10], uint8_t *out)
{
    mintid_store_ms_words(out, ms, (unsigned)rand[0] << 8 | rand[1], mintid_load_be64(rand + 2));
}

int mintid_ulid_from_parts(int64_t ms, const uint8_t rand[10], uint8_t out[16], char *err)
{
    int rc = mintid_check_ms(ms, "ULID", err);

    if (rc == MINTID_OK)
        store_ulid(ms, rand, out);
    return rc;
}

/* The 128 bits are read as 130 with 2 leading zero bits (SPEC): 13 groups
 * of 10 bits, each two symbols of mintid_base32_pairs. Group k holds bits
 * 120 - 10k .. 129 - 10k of the number hi << 64 | lo; group 6 straddles
 * the halves. */
#define ULID_PAIR(out, k, v) memcpy((out) + 2 * (k), mintid_base32_pairs[(v) & 1023], 2)

void mintid_ulid_encode(const uint8_t id[16], char out[26])
{
    uint64_t hi = mintid_load_be64(id), lo = mintid_load_be64(id + 8);

    ULID_PAIR(out, 0, hi >> 56);
    ULID_PAIR(out, 1, hi >> 46);
    ULID_PAIR(out, 2, hi >> 36);
    ULID_PAIR(out, 3, hi >> 26);
    ULID_PAIR(out, 4, hi >> 16);
    ULID_PAIR(out, 5, hi >> 6);
    ULID_PAIR(out, 6, hi << 4 | lo >> 60);
    ULID_PAIR(out, 7, lo >> 50);
    ULID_PAIR(out, 8, lo >> 40);
    ULID_PAIR(out, 9, lo >> 30);
    ULID_PAIR(out, 10, lo >> 20);
    ULID_PAIR(out, 11, lo >> 10);
    ULID_PAIR(out, 12, lo);
}

/* The slow path of decode, for the message: the first bad symbol, left
 * to right, with the first one also checked for the 2 padding bits. */
static int ulid_decode_error(const char *text, char *err)
{
    char desc[8];
    size_t i;

    for (i = 0; i < MINTID_ULID_TEXT_LEN; i++) {
        unsigned char c = (unsigned char)text[i];
        int v = mintid_base32_values[c];

        if (v < 0)
            return mintid_fail(err, MINTID_EPARSE, "invalid ULID: bad character %s at %zu",
                               mintid_describe_byte(c, desc), i + 1);
        if (i == 0 && v > 7)
            return mintid_fail(err, MINTID_EPARSE,
                               "invalid ULID: first character %s overflows 128 bits (want 0-7)",
                               mintid_describe_byte(c, desc));
    }
    return mintid_fail(err, MINTID_EPARSE, "invalid ULID"); /* not reached */
}

/* The 10-bit value of symbols 2k and 2k + 1, their values ORed into bad
 * (negative if one was not a symbol). */
#define ULID_PAIR_VALUE(t, k, bad)                                                     \
    ((bad) |= mintid_base32_values[(t)[2 * (k)]] | mintid_base32_values[(t)[2 * (k) + 1]], \
     (uint64_t)(mintid_base32_values[(t)[2 * (k)]] & 31) << 5 | (uint64_t)(mintid_base32_values[(t)[2 * (k) + 1]] & 31))

int mintid_ulid_decode(const char *text, size_t len, uint8_t out[16], char *err)
{
    const unsigned char *t = (const unsigned char *)text;
    uint64_t p[13], hi, lo;
    int bad = 0, k;

    if (len != MINTID_ULID_TEXT_LEN)
        return mintid_fail(err, MINTID_EPARSE, "invalid ULID: length %zu, want 26", len);
    /* The encoder's 13 pairs read back; validated once at the end (the
     * masks keep a -1 from doing harm meanwhile), the message from the
     * slow path. */
    for (k = 0; k < 13; k++)
        p[k] = ULID_PAIR_VALUE(t, k, bad);
    if (bad < 0 || p[0] > 255) /* p[0] > 255: a first symbol above 7 */
        return ulid_decode_error(text, err);
    hi = p[0] << 56 | p[1] << 46 | p[2] << 36 | p[3] << 26 | p[4] << 16 | p[5] << 6 | p[6] >> 4;
    lo = p[6] << 60 | p[7] << 50 | p[8] << 40 | p[9] << 30 | p[10] << 20 | p[11] << 10 | p[12];
    /* Written only once the whole text is valid: no half-written ID. */
    mintid_store_be64(out, hi);
    mintid_store_be64(out + 8, lo);
    return MINTID_OK;
}

int64_t mintid_ulid_time(const uint8_t id[16])
{
    return (int64_t)mintid_load_be48(id);
}

void mintid_ulid_gen_init(mintid_ulid_gen *g)
{
    mintid_monotonic_init(&mintid_ulid_state_of(g)->st);
}

/* The 80-bit counter is the 10 random bytes as they are, so a NULL load
 * (right-aligned bytes) is exactly right. */
MINTID_INTERNAL_DATA const mintid_monotonic_kind mintid_ulid_kind = {
    "ULID", ULID_RAND_BITS, ULID_RAND_BYTES, NULL, store_ulid
};

int mintid_ulid_gen_next(mintid_ulid_state *g, int64_t now_ms,
                         mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err)
{
    return mintid_monotonic_kind_next(&g->st, &mintid_ulid_kind, now_ms, rnd, ctx, out, err);
}
