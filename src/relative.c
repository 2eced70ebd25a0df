/*
 * relative.c: relative IDs, the 128-bit value tag << 98 | ms << 50 | rand
 * (SPEC "Relative ID"). The tag is the top 30 bits of an HMAC-SHA-256 over
 * BE32(len(salt)) || salt || key, so every ID of one key shares a prefix.
 */
#include <inttypes.h>
#include <string.h>

#include "internal.h"

#define TAG_CHARS  6
#define TIME_CHARS 10
#define RAND_CHARS 10
#define TIME_AT    (TAG_CHARS + 1)              /* offset of the time field, 28 form */
#define RAND_AT    (TIME_AT + TIME_CHARS + 1)   /* offset of the rand field, 28 form */
#define SHORT_LEN  (TAG_CHARS + TIME_CHARS + RAND_CHARS)

/* The 48-bit ms straddles the two 64-bit halves: its top 34 bits end hi,
 * its low 14 bits start lo. */
static void store_value(uint32_t tag, uint64_t ms, uint64_t rand, uint8_t out[16])
{
    mintid_store_be64(out, (uint64_t)tag << 34 | ms >> 14);
    mintid_store_be64(out + 8, (ms & 0x3FFF) << 50 | rand);
}

void mintid_relative_split(const uint8_t id[16], uint32_t *tag, int64_t *ms, uint64_t *rand)
{
    uint64_t hi = mintid_load_be64(id), lo = mintid_load_be64(id + 8);

    *tag = (uint32_t)(hi >> 34);
    *ms = (int64_t)((hi & UINT64_C(0x3FFFFFFFF)) << 14 | lo >> 50);
    *rand = lo & MINTID_RELATIVE_MAX_RAND;
}

int mintid_relative_from_parts(int64_t tag, int64_t ms, int64_t rand,
                               uint8_t out[16], char *err)
{
    int rc;

    if (tag < 0 || tag > (int64_t)MINTID_RELATIVE_MAX_TAG)
        return mintid_fail(err, MINTID_ERANGE, "relative ID tag %" PRId64 " out of range 0..%" PRIu32,
                           tag, MINTID_RELATIVE_MAX_TAG);
    rc = mintid_check_ms(ms, "relative ID", err);
    if (rc != MINTID_OK)
        return rc;
    if (rand < 0 || rand > (int64_t)MINTID_RELATIVE_MAX_RAND)
        return mintid_fail(err, MINTID_ERANGE, "relative ID rand %" PRId64 " out of range 0..%" PRIu64,
                           rand, MINTID_RELATIVE_MAX_RAND);
    store_value((uint32_t)tag, (uint64_t)ms, (uint64_t)rand, out);
    return MINTID_OK;
}

/* Two base32 symbols of v's low 10 bits, from the pair table. */
static MINTID_ALWAYS_INLINE void put_pair(uint64_t v, char *out)
{
    memcpy(out, mintid_base32_pairs[v & 1023], 2);
}

/* `chars` (6 or 10) base32 symbols of v, most significant first. The pairs
 * are written out, not counted in a loop: the loop's counting cost as much
 * as its copies, on every relative ID's way to text. */
MINTID_STATIC_ASSERT(TAG_CHARS == 6 && TIME_CHARS == 10 && RAND_CHARS == 10, relative_fields_6_or_10);
static MINTID_ALWAYS_INLINE void put_field(uint64_t v, int chars, char *out)
{
    if (chars == 10) {
        put_pair(v >> 40, out);
        put_pair(v >> 30, out + 2);
        out += 4;
    }
    put_pair(v >> 20, out);
    put_pair(v >> 10, out + 2);
    put_pair(v, out + 4);
}

void mintid_relative_encode(const uint8_t id[16], char out[28])
{
    uint32_t tag;
    int64_t ms;
    uint64_t rand;

    mintid_relative_split(id, &tag, &ms, &rand);
    put_field(tag, TAG_CHARS, out);
    out[TAG_CHARS] = '-';
    put_field((uint64_t)ms, TIME_CHARS, out + TIME_AT);
    out[RAND_AT - 1] = '-';
    put_field(rand, RAND_CHARS, out + RAND_AT);
}

/* Only the low 30 bits of tag are used: a larger one is no tag. */
void mintid_relative_prefix(uint32_t tag, char out[7])
{
    put_field(tag, TAG_CHARS, out);
    out[TAG_CHARS] = '-';
}

int mintid_relative_decode(const char *text, size_t len, uint8_t out[16], char *err)
{
    int hyphens = len == MINTID_RELATIVE_TEXT_LEN;
    uint64_t fields[3] = { 0, 0, 0 };
    size_t i, sym = 0; /* symbols read so far: both forms share the field bounds */
    char what[8];

    if (len != MINTID_RELATIVE_TEXT_LEN && len != SHORT_LEN)
        return mintid_fail(err, MINTID_EPARSE, "invalid relative ID: length %zu, want 28 (or 26 without hyphens)",
                           len);
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        int v;

        if (hyphens && (i == TIME_AT - 1 || i == RAND_AT - 1)) {
            if (c != '-')
                return mintid_fail(err, MINTID_EPARSE, "invalid relative ID: want '-' at %zu, got %s",
                                   i + 1, mintid_describe_byte(c, what));
            continue;
        }
        v = mintid_base32_value(c);
        if (v < 0)
            return mintid_fail(err, MINTID_EPARSE, "invalid relative ID: bad character %s at %zu",
                               mintid_describe_byte(c, what), i + 1);
        /* The time field holds 50 bits for a 48-bit ms: its first symbol is 0-7. */
        if (sym == TAG_CHARS && v > 7)
            return mintid_fail(err, MINTID_EPARSE,
                               "invalid relative ID: first time character %s at %zu overflows 48 bits (want 0-7)",
                               mintid_describe_byte(c, what), i + 1);
        if (sym < TAG_CHARS)
            fields[0] = fields[0] << 5 | (uint64_t)v;
        else if (sym < TAG_CHARS + TIME_CHARS)
            fields[1] = fields[1] << 5 | (uint64_t)v;
        else
            fields[2] = fields[2] << 5 | (uint64_t)v;
        sym++;
    }
    store_value((uint32_t)fields[0], fields[1], fields[2], out);
    return MINTID_OK;
}

/* BE32(len(salt)) is part of the MAC input, so a salt must fit in it. */
static int check_key_inputs(size_t secret_len, size_t salt_len, char *err)
{
    if (secret_len < MINTID_RELATIVE_MIN_SECRET)
        return mintid_fail(err, MINTID_EARG, "secret must be at least %d bytes, got %zu",
                           MINTID_RELATIVE_MIN_SECRET, secret_len);
#if SIZE_MAX > UINT32_MAX
    if (salt_len > UINT32_MAX)
        return mintid_fail(err, MINTID_EARG, "salt must be at most %" PRIu32 " bytes, got %zu",
                           UINT32_MAX, salt_len);
#else
    (void)salt_len;
#endif
    return MINTID_OK;
}

/*
 * The HMAC key schedule with the salt prefix already absorbed: every tag of
 * one (secret, salt) pair starts from these two states, so a tag costs only
 * the compressions of the key itself and the outer hash.
 */
static void key_schedule(mintid_sha256_ctx *inner, mintid_sha256_ctx *outer,
                         const uint8_t *secret, size_t secret_len,
                         const uint8_t *salt, size_t salt_len)
{
    uint8_t salt_len_be[4];

    mintid_hmac_sha256_init(inner, outer, secret, secret_len);
    mintid_store_be32(salt_len_be, (uint32_t)salt_len);
    mintid_sha256_update(inner, salt_len_be, sizeof salt_len_be);
    mintid_sha256_update(inner, salt, salt_len);
}

static uint32_t finish_tag(const mintid_sha256_ctx *inner, const mintid_sha256_ctx *outer,
                           const uint8_t *key, size_t key_len)
{
    mintid_sha256_ctx c;
    uint8_t digest[32];
    uint32_t tag;

    c = *inner;
    mintid_sha256_update(&c, key, key_len);
    mintid_sha256_final(&c, digest);
    c = *outer;
    mintid_sha256_update(&c, digest, sizeof digest);
    mintid_sha256_final(&c, digest);
    tag = mintid_load_be32(digest) >> 2;
    mintid_secure_zero(digest, sizeof digest);
    return tag;
}

int mintid_relative_tag(const uint8_t *secret, size_t secret_len,
                        const uint8_t *salt, size_t salt_len,
                        const uint8_t *key, size_t key_len,
                        uint32_t *tag, char *err)
{
    mintid_sha256_ctx inner, outer;
    int rc = check_key_inputs(secret_len, salt_len, err);

    if (rc != MINTID_OK)
        return rc;
    key_schedule(&inner, &outer, secret, secret_len, salt, salt_len);
    *tag = finish_tag(&inner, &outer, key, key_len);
    mintid_secure_zero(&inner, sizeof inner);
    mintid_secure_zero(&outer, sizeof outer);
    return MINTID_OK;
}

int mintid_relative_gen_init(mintid_relative_gen *pub,
                             const uint8_t *secret, size_t secret_len,
                             const uint8_t *salt, size_t salt_len, char *err)
{
    mintid_relative_state *g = mintid_relative_state_of(pub);
    int rc = check_key_inputs(secret_len, salt_len, err);

    if (rc != MINTID_OK)
        return rc;
    key_schedule(&g->inner, &g->outer, secret, secret_len, salt, salt_len);
    mintid_monotonic_init(&g->st);
    memset(g->cached_key, 0, sizeof g->cached_key);
    g->cached_len = 0;
    g->cached_tag = 0;
    g->cached = 0;
    return MINTID_OK;
}

/* The whole opaque struct, not only the state's bytes within it. */
void mintid_relative_gen_wipe(mintid_relative_gen *g)
{
    mintid_secure_zero(g, sizeof *g);
}

/* A key longer than the cache never matches, as cached_len is at most its
 * size: memcmp never reads past cached_key. */
static int cache_holds(const mintid_relative_state *g, const uint8_t *key, size_t key_len)
{
    /* key may be NULL when key_len is 0, and memcmp of NULL is undefined
     * even for 0 bytes. */
    return g->cached && g->cached_len == key_len &&
           (key_len == 0 || memcmp(g->cached_key, key, key_len) == 0);
}

/* Reads the cache but never fills it, so that g stays const. */
uint32_t mintid_relative_gen_tag(const mintid_relative_gen *pub,
                                 const uint8_t *key, size_t key_len)
{
    const mintid_relative_state *g = mintid_relative_state_of_const(pub);

    if (cache_holds(g, key, key_len))
        return g->cached_tag;
    return finish_tag(&g->inner, &g->outer, key, key_len);
}

/* A caller typically makes runs of IDs for one key, and the HMAC is nearly
 * all the cost of an ID: remember the last key's tag. */
static uint32_t next_tag(mintid_relative_state *g, const uint8_t *key, size_t key_len)
{
    uint32_t tag;

    if (cache_holds(g, key, key_len))
        return g->cached_tag;
    tag = finish_tag(&g->inner, &g->outer, key, key_len);
    if (key_len <= sizeof g->cached_key) {
        /* No tail of a longer earlier key outlives it. */
        memset(g->cached_key, 0, sizeof g->cached_key);
        if (key_len > 0)
            memcpy(g->cached_key, key, key_len);
        g->cached_len = key_len;
        g->cached_tag = tag;
        g->cached = 1;
    }
    return tag;
}

int mintid_relative_gen_next(mintid_relative_state *g, int64_t now_ms,
                             const uint8_t *key, size_t key_len,
                             mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err)
{
    uint8_t counter[10];
    int64_t ms;
    /* SPEC's rand, BE56(7 bytes) masked to 50 bits, is what a NULL load and
     * the monotonic rule's own masking give. */
    int rc = mintid_monotonic_next(&g->st, now_ms, 50, 7, NULL, rnd, ctx,
                                   "relative ID", &ms, counter, err);

    if (rc != MINTID_OK)
        return rc;
    /* The counter is below 2^50, so its low 8 bytes hold all of it. */
    store_value(next_tag(g, key, key_len), (uint64_t)ms, mintid_load_be64(counter + 2), out);
    return MINTID_OK;
}
