/* uuid.c: RFC 9562 text, UUIDv4 and (monotonic) UUIDv7, as SPEC states them. */
#include <string.h>

#include "internal.h"

#define UUID7_RAND_BITS 74 /* rand_a (12) << 62 | rand_b (62) */
#define UUID7_RAND_BYTES 10

/* Crockford's alphabet starts with the 16 hex digits, so base32's table
 * (either case, -1 for a non-symbol) gives every hex digit its value, and
 * a byte is a hex digit when its value is 0..15. */
static int is_hex_value(int v)
{
    return v >= 0 && v <= 15;
}

/* Where each byte's two digits start in the 8-4-4-4-12 text. */
static const uint8_t digit_offset[16] = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};

#ifdef __SSE2__
/* The bytes of v moved up by n places (the first n zero), kept where m is
 * 0xFF: the part of a digit register that lands in a group. */
#define GROUP(v, n, m) _mm_and_si128(_mm_slli_si128((v), (n)), (m))
#define BYTES_AT(from, to) _mm_setr_epi8(BYTE_AT(0, from, to), BYTE_AT(1, from, to), BYTE_AT(2, from, to), \
    BYTE_AT(3, from, to), BYTE_AT(4, from, to), BYTE_AT(5, from, to), BYTE_AT(6, from, to),             \
    BYTE_AT(7, from, to), BYTE_AT(8, from, to), BYTE_AT(9, from, to), BYTE_AT(10, from, to),            \
    BYTE_AT(11, from, to), BYTE_AT(12, from, to), BYTE_AT(13, from, to), BYTE_AT(14, from, to),         \
    BYTE_AT(15, from, to))
#define BYTE_AT(i, from, to) (char)((i) >= (from) && (i) <= (to) ? 0xFF : 0)
#define HYPHENS_AT(a, b) _mm_setr_epi8(HYPHEN_AT(0, a, b), HYPHEN_AT(1, a, b), HYPHEN_AT(2, a, b),      \
    HYPHEN_AT(3, a, b), HYPHEN_AT(4, a, b), HYPHEN_AT(5, a, b), HYPHEN_AT(6, a, b), HYPHEN_AT(7, a, b), \
    HYPHEN_AT(8, a, b), HYPHEN_AT(9, a, b), HYPHEN_AT(10, a, b), HYPHEN_AT(11, a, b),                   \
    HYPHEN_AT(12, a, b), HYPHEN_AT(13, a, b), HYPHEN_AT(14, a, b), HYPHEN_AT(15, a, b))
#define HYPHEN_AT(i, a, b) (char)((i) == (a) || (i) == (b) ? '-' : 0)

/* The 32 digits in two registers, and the 8-4-4-4-12 text in three
 * stores: text 0-15 is digits 0-7, '-', 8-11, '-', 12-13 (digits moved up
 * by 0, 1 and 2 places); text 16-31 is digits 14-15, '-', 16-19, '-',
 * 20-27; text 32-35 is digits 28-31. A text stored in one piece per
 * register, not one per group, is read back by the next load (Lua
 * hashing and copying it) straight from those stores. */
void mintid_uuid_encode(const uint8_t id[16], char out[36])
{
    __m128i d[2];
    int last;

    mintid_hex_digits16(id, d);
    _mm_storeu_si128((__m128i *)(void *)out,
                     _mm_or_si128(_mm_or_si128(GROUP(d[0], 0, BYTES_AT(0, 7)), GROUP(d[0], 1, BYTES_AT(9, 12))),
                                  _mm_or_si128(GROUP(d[0], 2, BYTES_AT(14, 15)), HYPHENS_AT(8, 13))));
    _mm_storeu_si128((__m128i *)(void *)(out + 16),
                     _mm_or_si128(_mm_or_si128(_mm_srli_si128(d[0], 14), GROUP(d[1], 3, BYTES_AT(3, 6))),
                                  _mm_or_si128(GROUP(d[1], 4, BYTES_AT(8, 15)), HYPHENS_AT(2, 7))));
    last = _mm_cvtsi128_si32(_mm_srli_si128(d[1], 12));
    memcpy(out + 32, &last, 4);
}
#undef GROUP
#undef BYTES_AT
#undef BYTE_AT
#undef HYPHENS_AT
#undef HYPHEN_AT
#else
/* The 32 digits, then the five groups copied into place around the
 * hyphens. */
void mintid_uuid_encode(const uint8_t id[16], char out[36])
{
    char digits[32];

    mintid_hex_encode16(id, digits);
    memcpy(out, digits, 8);
    memcpy(out + 9, digits + 8, 4);
    memcpy(out + 14, digits + 12, 4);
    memcpy(out + 19, digits + 16, 4);
    memcpy(out + 24, digits + 20, 12);
    out[8] = out[13] = out[18] = out[23] = '-';
}
#endif

static int is_hyphen_offset(size_t i)
{
    return i == 8 || i == 13 || i == 18 || i == 23;
}

/* The slow path of decode, for the message: the first bad position, left
 * to right, counted from `skipped` chars before text (a prefix read
 * already). */
static int uuid_decode_error(const char *text, size_t skipped, char *err)
{
    char desc[8];
    size_t i;

    for (i = 0; i < MINTID_UUID_TEXT_LEN; i++) {
        unsigned char c = (unsigned char)text[i];

        if (is_hyphen_offset(i)) {
            if (c != '-')
                return mintid_fail(err, MINTID_EPARSE, "invalid UUID: want '-' at %zu, got %s",
                                   skipped + i + 1, mintid_describe_byte(c, desc));
        } else if (!is_hex_value(mintid_base32_values[c])) {
            return mintid_fail(err, MINTID_EPARSE, "invalid UUID: bad character %s at %zu",
                               mintid_describe_byte(c, desc), skipped + i + 1);
        }
    }
    return mintid_fail(err, MINTID_EPARSE, "invalid UUID"); /* not reached */
}

#ifdef __SSE2__
static uint32_t load_u32(const unsigned char *p)
{
    uint32_t v;

    memcpy(&v, p, sizeof v);
    return v;
}

/* The 16 bytes of v that are hex digits of either case: 0xFF where a byte
 * - '0' is at most 9 or (byte | 0x20) - 'a' at most 5 (unsigned). */
static __m128i hex_digit_bytes(const __m128i v)
{
    const __m128i digit = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    const __m128i letter = _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));

    return _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(digit, _mm_set1_epi8(9)), digit),
                        _mm_cmpeq_epi8(_mm_min_epu8(letter, _mm_set1_epi8(5)), letter));
}

/* Sixteen hex digits (checked) to 8 bytes in the low bytes of the 16-bit
 * lanes: a digit's value is its low 4 bits, + 9 for a letter (above '9'),
 * and each lane's first digit (its low byte) is the high half. */
static __m128i hex_digit_pairs(const __m128i v)
{
    const __m128i value = _mm_add_epi8(_mm_and_si128(v, _mm_set1_epi8(0x0F)),
                                       _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('9')), _mm_set1_epi8(9)));

    return _mm_and_si128(_mm_or_si128(_mm_slli_epi16(value, 4), _mm_srli_epi16(value, 8)), _mm_set1_epi16(0xFF));
}

/* The 32 digits around the hyphens (checked already) with SSE2 (every
 * x86-64): 1 with id written if each is a hex digit of either case, else
 * 0 with nothing written (the table's loop then finds the bad one). The
 * digits in two registers, in text order, straight from the text with
 * no store between (the caller's next step reads id at once): digits 0-15
 * are text 0-7, 9-12 and 14-17; digits 16-31 are text 19-22 and 24-35,
 * the last 12 where a load at text 20 has them. */
static int decode_digits_sse2(const unsigned char *t, uint8_t id[16])
{
    const __m128i first = _mm_unpacklo_epi64(
        _mm_loadl_epi64((const __m128i *)(const void *)t),
        _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)load_u32(t + 9)), _mm_cvtsi32_si128((int)load_u32(t + 14))));
    const __m128i second = _mm_or_si128(
        _mm_cvtsi32_si128((int)load_u32(t + 19)),
        _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(t + 20)),
                      _mm_setr_epi32(0, -1, -1, -1)));

    if (_mm_movemask_epi8(_mm_and_si128(hex_digit_bytes(first), hex_digit_bytes(second))) != 0xFFFF)
        return 0;
    _mm_storeu_si128((__m128i *)(void *)id, _mm_packus_epi16(hex_digit_pairs(first), hex_digit_pairs(second)));
    return 1;
}
#endif

int mintid_uuid_decode(const char *text, size_t len, uint8_t out[16], char *err)
{
    const unsigned char *t = (const unsigned char *)text;
    uint8_t id[16];
    int bad = 0, k;

    /* One text form only: no braces, no urn:uuid:, no 32-digit form. */
    if (len != MINTID_UUID_TEXT_LEN)
        return mintid_fail(err, MINTID_EPARSE, "invalid UUID: length %zu, want 36", len);
    if (t[8] != '-' || t[13] != '-' || t[18] != '-' || t[23] != '-')
        return uuid_decode_error(text, 0, err);
#ifdef __SSE2__
    if (decode_digits_sse2(t, out))
        return MINTID_OK;
#endif
    for (k = 0; k < 16; k++) {
        int hi = mintid_base32_values[t[digit_offset[k]]];
        int lo = mintid_base32_values[t[digit_offset[k] + 1]];

        bad |= hi | lo;
        id[k] = (uint8_t)((hi & 15) << 4 | (lo & 15));
    }
    /* The OR of values in -1..31 is negative if one was -1 and above 15 if
     * one was a base32-only symbol (G..Z). */
    if (!is_hex_value(bad))
        return uuid_decode_error(text, 0, err);
    /* Any version and variant is accepted (nil and max included). */
    memcpy(out, id, sizeof id);
    return MINTID_OK;
}

/* PostgreSQL's uuid input (string_to_uuid): an optional pair of braces
 * around the whole, 32 hex digits of either case, one optional '-' after
 * any group of four but the last; or "urn:uuid:" (either case, as URN
 * prefixes are) before the strict form. Positions in messages are the
 * text's own. */
int mintid_uuid_decode_lenient(const char *text, size_t len, uint8_t out[16], char *err)
{
    static const char urn[] = "urn:uuid:";
    const size_t urn_len = sizeof urn - 1;
    const unsigned char *t = (const unsigned char *)text;
    size_t at = 0, end = len, i;
    uint8_t id[16];
    char desc[8];
    int k;

    for (i = 0; i < urn_len && i < len && (t[i] | 0x20) == (unsigned char)urn[i]; i++)
        ;
    if (i == urn_len) {
        if (len - urn_len != MINTID_UUID_TEXT_LEN)
            return mintid_fail(err, MINTID_EPARSE, "invalid UUID: want the 36-char form after urn:uuid:, got %zu chars",
                               len - urn_len);
        if (mintid_uuid_decode(text + urn_len, len - urn_len, out, NULL) == MINTID_OK)
            return MINTID_OK;
        return uuid_decode_error(text + urn_len, urn_len, err);
    }
    if (len > 0 && t[0] == '{') {
        if (len < 2 || t[len - 1] != '}')
            return mintid_fail(err, MINTID_EPARSE, "invalid UUID: '{' without a closing '}' at the end");
        at = 1;
        end = len - 1;
    }
    for (k = 0; k < 16; k++) {
        int hi, lo;

        if (end - at < 2)
            return mintid_fail(err, MINTID_EPARSE, "invalid UUID: %d hex digits, want 32", 2 * k + (end > at));
        hi = mintid_base32_values[t[at]];
        lo = mintid_base32_values[t[at + 1]];
        if (!is_hex_value(hi) || !is_hex_value(lo)) {
            at += is_hex_value(hi);
            return mintid_fail(err, MINTID_EPARSE, "invalid UUID: bad character %s at %zu",
                               mintid_describe_byte(t[at], desc), at + 1);
        }
        id[k] = (uint8_t)(hi << 4 | lo);
        at += 2;
        if (k % 2 == 1 && k < 15 && at < end && t[at] == '-')
            at++;
    }
    if (at != end)
        return mintid_fail(err, MINTID_EPARSE, "invalid UUID: bad character %s at %zu after 32 hex digits",
                           mintid_describe_byte(t[at], desc), at + 1);
    memcpy(out, id, sizeof id);
    return MINTID_OK;
}

unsigned mintid_uuid_version(const uint8_t id[16])
{
    return id[6] >> 4;
}

/* The version nibble (top of byte 6) and the variant bits 10 (top of
 * byte 8) on the ID as two big-endian words, hi and lo. */
static inline void version_words(uint64_t *hi, uint64_t *lo, unsigned version)
{
    *hi = (*hi & ~((uint64_t)0xF << 12)) | (uint64_t)(version & 0xF) << 12;
    *lo = (*lo & ~((uint64_t)0xC0 << 56)) | (uint64_t)0x80 << 56;
}

/* Read and written 8 bytes at a time, as the IDs are built and encoded
 * (mintid_store_ms_words). */
static inline void set_version(uint8_t id[16], unsigned version)
{
    uint64_t hi = mintid_load_be64(id), lo = mintid_load_be64(id + 8);

    version_words(&hi, &lo, version);
    mintid_store_be64(id, hi);
    mintid_store_be64(id + 8, lo);
}

void mintid_uuid_set_version(uint8_t id[16], unsigned version)
{
    set_version(id, version);
}

int mintid_uuid4_make(mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err)
{
    uint8_t id[16], *bytes;
    int rc = mintid_draw_once(rnd, ctx, id, sizeof id, "UUIDv4", err, &bytes);

    if (rc != MINTID_OK)
        return rc;
    memcpy(out, bytes, sizeof id);
    mintid_secure_zero_small(bytes, sizeof id);
    set_version(out, 4);
    return MINTID_OK;
}

/* No range check: from_parts checks ms itself, and the generator's ms was
 * checked by mintid_monotonic_next. */
static void store_uuid7(int64_t ms, const uint8_t rand[10], uint8_t *out)
{
    mintid_store_ms_words(out, ms, (unsigned)rand[0] << 8 | rand[1], mintid_load_be64(rand + 2));
    set_version(out, 7);
}

int mintid_uuid7_from_parts(int64_t ms, const uint8_t rand[10], uint8_t out[16], char *err)
{
    int rc = mintid_check_ms(ms, "UUIDv7", err);

    if (rc == MINTID_OK)
        store_uuid7(ms, rand, out);
    return rc;
}

/* The counter is rand_a << 62 | rand_b, right-aligned in 80 bits: the
 * version nibble (top of R[0]) and variant bits (top of R[2]) are dropped,
 * so an increment carries from rand_b straight into rand_a (SPEC). */
static void uuid7_load(const uint8_t *r, uint8_t counter[10])
{
    unsigned rand_a = (unsigned)(r[0] & 0x0F) << 8 | r[1];

    counter[0] = (uint8_t)(rand_a >> 10);
    counter[1] = (uint8_t)(rand_a >> 2);
    counter[2] = (uint8_t)((rand_a & 0x03) << 6 | (r[2] & 0x3F));
    memcpy(counter + 3, r + 3, 7);
}

void mintid_uuid7_gen_init(mintid_uuid7_gen *g)
{
    mintid_monotonic_init(&mintid_uuid7_state_of(g)->st);
}

/* The inverse of uuid7_load (store_uuid7 sets the version and variant
 * bits), so a fresh draw R gives exactly mintid_uuid7_from_parts(ms, R). */
static void store_uuid7_counter(int64_t ms, const uint8_t c[10], uint8_t *out)
{
    unsigned rand_a = (unsigned)(c[0] & 0x03) << 10 | (unsigned)c[1] << 2 | c[2] >> 6;
    /* rand_b: the low 6 bits of c[2] and c[3..9], bytes 8..15 of the ID. */
    uint64_t rand_b = mintid_load_be64(c + 2) & ~((uint64_t)0xC0 << 56);

    mintid_store_ms_words(out, ms, rand_a, rand_b);
    set_version(out, 7);
}

MINTID_INTERNAL_DATA const mintid_monotonic_kind mintid_uuid7_kind = {
    "UUIDv7", UUID7_RAND_BITS, UUID7_RAND_BYTES, uuid7_load, store_uuid7_counter
};

int mintid_uuid7_gen_next(mintid_uuid7_state *g, int64_t now_ms,
                          mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err)
{
    return mintid_monotonic_kind_next(&g->st, &mintid_uuid7_kind, now_ms, rnd, ctx, out, err);
}

unsigned mintid_uuid_variant(const uint8_t id[16])
{
    unsigned top = id[8] >> 5;

    if (top < 4)
        return MINTID_UUID_VARIANT_NCS;       /* 0xx */
    if (top < 6)
        return MINTID_UUID_VARIANT_RFC9562;   /* 10x */
    if (top == 6)
        return MINTID_UUID_VARIANT_MICROSOFT; /* 110 */
    return MINTID_UUID_VARIANT_FUTURE;        /* 111 */
}

const char *mintid_uuid_variant_name(unsigned variant)
{
    static const char *const names[4] = { "ncs", "rfc9562", "microsoft", "future" };

    return names[variant & 3];
}
