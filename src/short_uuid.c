/*
 * short_uuid.c: short UUIDs (SPEC "Short UUIDs", npm short-uuid): the
 * 128-bit value of a UUID in an alphabet of n = 2..256 single-byte
 * symbols, most significant first, left-padded with the first symbol to L
 * symbols, L the smallest with n^L >= 2^128 (the reference's
 * Math.ceil(128 / Math.log2(n)) for every n, SPEC says why).
 *
 * Encoding is the hot path (one call per ID written for a URL), so it
 * avoids long division, whose every step waits for the one before: the
 * value is cut into chunks of k symbols (D = n^k) by multiplying its four
 * 32-bit words by the chunks of 2^0, 2^32, 2^64 and 2^96, precomputed once
 * per alphabet; one carry pass makes the chunks proper (dividing by D with
 * a multiply-high, divide.c); each chunk's k symbols then come from a
 * 64-bit fixed-point fraction chunk / D, times n once a symbol (times n^2
 * for two, looked up in a table of pairs, for the reference's two named
 * alphabets), every chunk independent of the others.
 */
#include <string.h>

#include "internal.h"

#define WORDS 4

/* The pairs of the reference's named alphabets (n^2 of them, 6.6 and 15.8
 * KiB), made once for the process and shared by every alphabet state of
 * the same symbols: a table in each state would make every alphabet, a
 * custom one too, 17 KiB. */
static uint8_t flickr_pairs[58 * 58][2], cookie_pairs[90 * 90][2];
static mintid_once pairs_once = MINTID_ONCE_INIT;

static void fill_pairs(uint8_t (*pair)[2], const char *symbols, uint32_t n)
{
    uint32_t j;

    for (j = 0; j < n * n; j++) {
        pair[j][0] = (uint8_t)symbols[j / n];
        pair[j][1] = (uint8_t)symbols[j % n];
    }
}

static void make_pairs(void)
{
    fill_pairs(flickr_pairs, MINTID_SHORT_UUID_FLICKR, 58);
    fill_pairs(cookie_pairs, MINTID_SHORT_UUID_COOKIE, 90);
}

/* The pairs of symbols[0..n), NULL unless they are a named alphabet. */
static const uint8_t (*pairs_of(const uint8_t *symbols, size_t n))[2]
{
    const uint8_t(*pair)[2] = NULL;

    if (n == sizeof MINTID_SHORT_UUID_FLICKR - 1 && memcmp(symbols, MINTID_SHORT_UUID_FLICKR, n) == 0)
        pair = (const uint8_t(*)[2])flickr_pairs;
    else if (n == sizeof MINTID_SHORT_UUID_COOKIE - 1 && memcmp(symbols, MINTID_SHORT_UUID_COOKIE, n) == 0)
        pair = (const uint8_t(*)[2])cookie_pairs;
    if (pair != NULL)
        mintid_run_once(&pairs_once, make_pairs);
    return pair;
}

/* D = n^k <= 2^30 keeps a chunk's sum of four products below 2^32 * D and
 * its carry (below 2^64 / D) under 2^64, and D^2 <= 2^64 keeps the 64-bit
 * fraction of chunk_symbols exact. */
#define MAX_CHUNK (UINT64_C(1) << 30)

/* L, the smallest with n^L >= 2^128: powers of n as four 32-bit words (w[0]
 * most significant) until a carry leaves the top one. */
static uint32_t padded_length(uint32_t n)
{
    uint32_t w[WORDS] = { 0, 0, 0, 1 };
    uint32_t len = 0;

    for (;;) {
        uint64_t carry = 0;
        int i;

        for (i = WORDS - 1; i >= 0; i--) {
            uint64_t cur = (uint64_t)w[i] * n + carry;

            w[i] = (uint32_t)cur;
            carry = cur >> 32;
        }
        len++;
        if (carry != 0 || (w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 0))
            return len; /* n^len >= 2^128 (exactly 2^128 for n = 2^j, j | 128) */
    }
}

/* The chunks (base D, least significant first) of 2^(32 * p), p = 0..3. */
static void power_chunks(mintid_short_uuid_state *s)
{
    uint32_t p, i;

    for (p = 0; p < WORDS; p++) {
        /* 2^(32p) in base D: start from 1 and multiply by 2^32 p times. */
        uint64_t digits[MINTID_SHORT_UUID_MAX_CHUNKS];
        uint32_t step;

        memset(digits, 0, sizeof digits);
        digits[0] = 1;
        for (step = 0; step < p; step++) {
            uint64_t carry = 0;

            for (i = 0; i < s->chunks; i++) {
                uint64_t cur = (digits[i] << 32) + carry; /* digits < 2^29: no overflow */

                digits[i] = cur % s->chunk;
                carry = cur / s->chunk;
            }
        }
        for (i = 0; i < s->chunks; i++)
            s->power[WORDS - 1 - p][i] = (uint32_t)digits[i];
    }
}

int mintid_short_uuid_alphabet_init(mintid_short_uuid_alphabet *pub, const uint8_t *symbols, size_t n, char *err)
{
    mintid_short_uuid_state *s = mintid_short_uuid_state_of(pub);
    mintid_nanoid_spec check;
    uint64_t d;
    uint32_t k, i;
    int rc;

    if (n < 2 || n > 256)
        return mintid_fail(err, MINTID_EARG, "alphabet must have 2 to 256 symbols, got %zu", n);
    /* Nano ID's alphabet rules, the one place they are written: distinct
     * bytes, and no text of multi-byte characters split into bytes. */
    rc = mintid_nanoid_spec_init(&check, symbols, n, 1, err);
    if (rc != MINTID_OK)
        return rc;

    memset(s, 0, sizeof *s);
    memcpy(s->symbol, symbols, n);
    for (i = 0; i < 256; i++)
        s->value[i] = -1;
    for (i = 0; i < n; i++)
        s->value[symbols[i]] = (int16_t)i;
    s->n = (uint32_t)n;
    s->length = padded_length(s->n);
    /* k as large as MAX_CHUNK allows. */
    for (k = 1, d = s->n; d * s->n <= MAX_CHUNK; k++)
        d *= s->n;
    s->per_chunk = k;
    s->chunk = (uint32_t)d;
    s->chunks = (s->length + k - 1) / k;
    s->recip = mintid_div_ceil_pow2(64, d);
    s->chunk_magic = mintid_div_magic_inc(d, &s->chunk_shift, &s->chunk_inc);
    for (i = 0, d = 1; i < s->length - (s->chunks - 1) * k; i++)
        d *= s->n;
    s->top_recip = mintid_div_ceil_pow2(64, d);
    power_chunks(s);
    s->pair = pairs_of(symbols, n);
    return MINTID_OK;
}

size_t mintid_short_uuid_length(const mintid_short_uuid_alphabet *a)
{
    return mintid_short_uuid_state_of_const(a)->length;
}

/* The integer part of f * n, a symbol, with f left as the fraction part:
 * one 64 x 64 -> 128-bit product where the compiler has one. */
static MINTID_ALWAYS_INLINE uint64_t fraction_symbol(uint64_t *f, uint64_t n)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 mintid_u128;
    const mintid_u128 p = (mintid_u128)*f * n;

    *f = (uint64_t)p;
    return (uint64_t)(p >> 64);
#else
    const uint64_t symbol = mintid_mul_high(*f, n);

    *f *= n;
    return symbol;
#endif
}

/* The k symbols of a chunk x < n^k to out[0..k), from r = ceil(2^64 /
 * n^k): the fraction x / n^k in 64 bits, rounded up, times n once a symbol,
 * whose integer part (the high word of the product) is the symbol.
 * Rounding up adds less than x / 2^64, and since x * n^k < 2^64 that never
 * reaches the next integer at any step: each symbol is exactly
 * floor(x / n^(k-i)) mod n. */
static void chunk_symbols(const uint8_t *symbol, uint64_t n, uint64_t x, uint64_t r, uint32_t k, char *out)
{
    uint64_t f = x * r; /* below 2^64 as x * n^k < 2^64 */
    uint32_t i;

    for (i = 0; i < k; i++)
        out[i] = (char)symbol[fraction_symbol(&f, n)];
}

/* n^k, for a constant n and k <= 5: a constant; and ceil(2^64 / n^k) for
 * n^k not a power of 2, chunk_symbols' r. */
#define POWER(n, k) ((k) == 0 ? UINT64_C(1) : (k) == 1 ? (n) : (k) == 2 ? (n) * (n) : \
                     (k) == 3 ? (n) * (n) * (n) : (k) == 4 ? (n) * (n) * (n) * (n) : (n) * (n) * (n) * (n) * (n))
#define RECIP(n, k) (UINT64_MAX / POWER(n, k) + 1)

/* The low word of a product: f's fraction after the steps whose factors
 * make up m. */
#define FRACTION_AFTER(f, m) ((uint64_t)((f) * (m)))

/* chunk_symbols for constants n and k <= 5, from the chunk's fraction f =
 * x * ceil(2^64 / n^k): with pairs (a named alphabet), two symbols a step
 * and the last one alone for an odd k; else one a step. A step times n^2
 * is exact by chunk_symbols' argument: after i symbols the fraction has
 * been multiplied by n^i, the integer part is floor(x / n^(k-i)), whose
 * fraction is a multiple of 1 / n^(k-i), and the rounding (below x /
 * 2^64, times n^i) stays below that as x * n^k < 2^64; so the high word
 * of f * n^2 is exactly the next two symbols, n times the first plus the
 * second, a pair's index. The fraction before each step is the low word
 * of f times the steps' factors so far, taken from f at once (one low
 * product, not a chain of them): the steps of a chunk overlap. */
static MINTID_ALWAYS_INLINE void fixed_symbols(const uint8_t *symbol, const uint8_t (*pair)[2], const uint64_t n,
                                               const uint32_t k, const uint64_t f, char *out)
{
    const uint32_t singles_from = pair != NULL ? k & ~UINT32_C(1) : 0;
    uint64_t g;

    if (pair != NULL && k >= 2) {
        g = f;
        memcpy(out, pair[fraction_symbol(&g, n * n)], 2);
    }
    if (pair != NULL && k >= 4) {
        g = FRACTION_AFTER(f, n * n);
        memcpy(out + 2, pair[fraction_symbol(&g, n * n)], 2);
    }
#define SINGLE(i)                                                 \
    if (k > i && i >= singles_from) {                             \
        g = FRACTION_AFTER(f, POWER(n, i));                       \
        out[i] = (char)symbol[fraction_symbol(&g, n)];            \
    }
    SINGLE(0)
    SINGLE(1)
    SINGLE(2)
    SINGLE(3)
    SINGLE(4)
#undef SINGLE
}

/* The fraction of chunk x - q * n^k (q = floor(x / n^k)), fixed_symbols'
 * f: (x - q * n^k) * r modulo 2^64 as x * r - q * (n^k * r), the product
 * by x made alongside the division rather than after it; the result is
 * below 2^64 (chunk_symbols), so the modulo takes nothing off. */
#define CHUNK_FRACTION(n, k, x, q) \
    ((uint64_t)((x) * RECIP(n, k) - (q) * (uint64_t)(POWER(n, k) * RECIP(n, k))))

/* encode_general for one alphabet size n, inlined with n and its
 * constants (k symbols a chunk, L symbols) known: the chunks' symbol
 * chains overlap in the pipeline, each division by D is the compiler's
 * own for a constant, and the products by powers that are 0 are left
 * out. With D = n^k above 2^24, 2^(32j) has j + 1 chunks
 * (D^j <= 2^(32j) < D^(j+1)), so word p (weight 2^(32(3-p))) reaches
 * chunks 0..3-p only, and there are 5 chunks. The top chunk, the carry
 * out of the fourth, is below n^(L - 4k): for n = 58 two symbols, their
 * pair's index already. pair: the alphabet's pairs, or NULL (a constant
 * either way, for fixed_symbols' choice). */
static MINTID_ALWAYS_INLINE void encode_fixed(const mintid_short_uuid_state *s, const uint8_t id[16], char *out,
                                              const uint64_t n, const uint32_t k, const uint32_t length,
                                              const uint8_t (*pair)[2])
{
    const uint8_t *symbol = s->symbol;
    const uint64_t d = POWER(n, k);
    const uint64_t w0 = mintid_load_be32(id), w1 = mintid_load_be32(id + 4), w2 = mintid_load_be32(id + 8),
                   w3 = mintid_load_be32(id + 12);
    const uint64_t x0 = (w0 * s->power[0][0] + w1 * s->power[1][0]) + (w2 * s->power[2][0] + w3);
    const uint64_t x1 = (w0 * s->power[0][1] + w1 * s->power[1][1]) + w2 * s->power[2][1];
    const uint64_t x2 = w0 * s->power[0][2] + w1 * s->power[1][2];
    const uint64_t x3 = w0 * s->power[0][3];
    uint64_t x, carry;

    x = x0;
    carry = x / d;
    fixed_symbols(symbol, pair, n, k, CHUNK_FRACTION(n, k, x, carry), out + length - k);
    x = x1 + carry;
    carry = x / d;
    fixed_symbols(symbol, pair, n, k, CHUNK_FRACTION(n, k, x, carry), out + length - 2 * k);
    x = x2 + carry;
    carry = x / d;
    fixed_symbols(symbol, pair, n, k, CHUNK_FRACTION(n, k, x, carry), out + length - 3 * k);
    x = x3 + carry;
    carry = x / d;
    fixed_symbols(symbol, pair, n, k, CHUNK_FRACTION(n, k, x, carry), out + length - 4 * k);
    if (pair != NULL && length - 4 * k == 2)
        memcpy(out, pair[carry], 2);
    else
        fixed_symbols(symbol, pair, n, length - 4 * k, CHUNK_FRACTION(n, length - 4 * k, carry, 0), out);
}

/* The conversion, any alphabet: the value's 32-bit words times the chunks
 * of their weights, one carry pass, each chunk's symbols. */
static void encode_general(const mintid_short_uuid_state *s, const uint8_t id[16], char *out)
{
    /* In locals: a store through out (a char *) could change *s as far as
     * the compiler knows, and would make it read every field again. */
    const uint64_t w0 = mintid_load_be32(id), w1 = mintid_load_be32(id + 4), w2 = mintid_load_be32(id + 8),
                   w3 = mintid_load_be32(id + 12);
    const uint8_t *symbol = s->symbol;
    const uint64_t n = s->n, d = s->chunk, magic = s->chunk_magic, inc = s->chunk_inc, recip = s->recip;
    const uint32_t shift = s->chunk_shift, k = s->per_chunk, last = s->chunks - 1;
    uint64_t carry = 0;
    char *at = out + s->length;
    uint32_t i;

    /* Least significant chunk first, written from the end of out: each
     * chunk's symbols depend only on it, and go alongside the next
     * chunk's carry, the one chain of the conversion. */
    for (i = 0; i < last; i++) {
        /* Four products of below 2^32 * 2^30 and a carry: below 2^64 - 2^32
         * (MAX_CHUNK). Summed in pairs, with the divisor's increment: the
         * carry is added last, to sums ready beforehand. */
        uint64_t x = ((w0 * s->power[0][i] + w1 * s->power[1][i]) + (w2 * s->power[2][i] + w3 * s->power[3][i]) +
                      inc) + carry;

        /* A multiply-high and a shift, not a divide instruction (tens of
         * cycles, and each chunk's carry waits for the one before). */
        carry = mintid_div_quotient_inc(magic, shift, x);
        at -= k;
        chunk_symbols(symbol, n, x - carry * d - inc, recip, k, at);
    }
    /* The value is below n^L, so the top chunk is below n^top (top =
     * L - (chunks - 1) * k symbols) and nothing is left over. */
    chunk_symbols(symbol, n,
                  (w0 * s->power[0][i] + w1 * s->power[1][i]) + (w2 * s->power[2][i] + w3 * s->power[3][i]) + carry,
                  s->top_recip, (uint32_t)(at - out), out);
}

size_t mintid_short_uuid_write(const mintid_short_uuid_alphabet *pub, const uint8_t id[16], char *out)
{
    const mintid_short_uuid_state *s = mintid_short_uuid_state_of_const(pub);
    const uint8_t(*pair)[2] = s->pair;

    /* The sizes of the reference's two alphabets, flickr base58 (the
     * default) and the cookie one. 58: L = 22, four chunks of 5 and a top
     * of 2. 90: L = 20, five chunks of 4. Any alphabet of those sizes
     * takes the same path, with pairs only for the named ones. */
    if (pair != NULL && s->n == 58)
        encode_fixed(s, id, out, 58, 5, 22, pair);
    else if (pair != NULL)
        encode_fixed(s, id, out, 90, 4, 20, pair);
    else if (s->n == 58)
        encode_fixed(s, id, out, 58, 5, 22, NULL);
    else if (s->n == 90)
        encode_fixed(s, id, out, 90, 4, 20, NULL);
    else
        encode_general(s, id, out);
    return s->length;
}

/* The exported call, the same conversion: one copy of the paths above. */
void mintid_short_uuid_encode(const mintid_short_uuid_alphabet *pub, const uint8_t id[16], char *out)
{
    (void)mintid_short_uuid_write(pub, id, out);
}

int mintid_short_uuid_decode(const mintid_short_uuid_alphabet *pub, const char *text, size_t len, uint8_t out[16],
                             char *err)
{
    const mintid_short_uuid_state *s = mintid_short_uuid_state_of_const(pub);
    uint32_t w[WORDS] = { 0, 0, 0, 0 };
    char desc[8];
    size_t i;

    if (len != s->length)
        return mintid_fail(err, MINTID_EPARSE, "invalid short UUID: length %zu, want %u", len,
                           (unsigned)s->length);
    for (i = 0; i < len; i++) {
        int v = s->value[(unsigned char)text[i]];
        uint64_t carry;
        int p;

        if (v < 0)
            return mintid_fail(err, MINTID_EPARSE, "invalid short UUID: bad character %s at %zu",
                               mintid_describe_byte((unsigned char)text[i], desc), i + 1);
        /* value = value * n + v; a carry out of the top word is a value
         * of 2^128 or more. */
        carry = (uint64_t)v;
        for (p = WORDS - 1; p >= 0; p--) {
            uint64_t cur = (uint64_t)w[p] * s->n + carry;

            w[p] = (uint32_t)cur;
            carry = cur >> 32;
        }
        if (carry != 0)
            return mintid_fail(err, MINTID_EPARSE, "invalid short UUID: value overflows 128 bits");
    }
    for (i = 0; i < WORDS; i++)
        mintid_store_be32(out + 4 * i, w[i]);
    return MINTID_OK;
}

int mintid_short_uuid_text(const mintid_short_uuid_alphabet *a, const char *uuid, size_t len, char *out,
                           char *err)
{
    uint8_t id[16];
    int rc = mintid_uuid_decode(uuid, len, id, err);

    if (rc != MINTID_OK)
        return rc;
    mintid_short_uuid_encode(a, id, out);
    return (int)mintid_short_uuid_length(a);
}
