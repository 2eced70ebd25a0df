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
 * fixed-point fraction chunk / D, times n once a symbol, every chunk
 * independent of the others.
 */
#include <string.h>

#include "internal.h"

#define WORDS 4

/* n^k <= 2^29 keeps a chunk's sum of four 32-bit products below 2^63;
 * D^2 <= 2^frac_bits keeps the fraction exact (see chunk_symbols). */
#define MAX_CHUNK (UINT64_C(1) << 29)

/* The bits of the smallest power of 2 >= n: n << frac_bits stays in 64. */
static unsigned ceil_log2(uint32_t n)
{
    unsigned l = 0;

    while ((UINT64_C(1) << l) < n)
        l++;
    return l;
}

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
    s->frac_bits = 64 - ceil_log2(s->n);
    /* k as large as both bounds allow: D <= 2^29, D^2 <= 2^frac_bits
     * (D <= 2^29 is checked first, so D^2 stays in 64 bits). */
    for (k = 1, d = s->n;; k++) {
        uint64_t next = d * s->n;

        if (next > MAX_CHUNK || next * next > (UINT64_C(1) << s->frac_bits))
            break;
        d = next;
    }
    s->per_chunk = k;
    s->chunk = (uint32_t)d;
    s->chunks = (s->length + k - 1) / k;
    s->recip = ((UINT64_C(1) << s->frac_bits) + d - 1) / d;
    s->chunk_magic = mintid_div_magic(d, &s->chunk_shift);
    power_chunks(s);
    return MINTID_OK;
}

size_t mintid_short_uuid_length(const mintid_short_uuid_alphabet *a)
{
    return mintid_short_uuid_state_of_const(a)->length;
}

/* The k symbols of chunk x < D to out[0..k): the fraction x / D in
 * frac_bits bits (rounded up), times n once a symbol, whose integer part
 * is the symbol. Rounding up adds less than x / 2^frac_bits, and since
 * x * D < D^2 <= 2^frac_bits that never reaches the next integer at any
 * step: each symbol is exactly floor(x / n^(k-i)) mod n. */
static void chunk_symbols(const mintid_short_uuid_state *s, uint32_t x, uint32_t k, char *out)
{
    /* In locals: a store through out (a char *) could change *s as far as
     * the compiler knows, and would make it read every field again. */
    const uint8_t *symbol = s->symbol;
    const uint64_t n = s->n;
    const unsigned bits = s->frac_bits;
    const uint64_t mask = (UINT64_C(1) << bits) - 1;
    uint64_t f = (uint64_t)x * s->recip;
    uint32_t i, skip = s->per_chunk - k;

    /* The top chunk may be shorter: its leading symbols are zeros. */
    for (i = 0; i < skip; i++)
        f = (f * n) & mask;
    for (i = 0; i < k; i++) {
        f *= n;
        out[i] = (char)symbol[f >> bits];
        f &= mask;
    }
}

/* chunk_symbols for two full chunks at once (k = per_chunk each): the two
 * chains of multiplications run side by side, where one chunk's symbols
 * each wait for the one before. */
static void chunk_symbols_pair(const mintid_short_uuid_state *s, uint32_t x, uint32_t y, char *out_x, char *out_y)
{
    const uint8_t *symbol = s->symbol;
    const uint64_t n = s->n;
    const unsigned bits = s->frac_bits;
    const uint64_t mask = (UINT64_C(1) << bits) - 1;
    uint64_t f = (uint64_t)x * s->recip, g = (uint64_t)y * s->recip;
    uint32_t i, k = s->per_chunk;

    for (i = 0; i < k; i++) {
        f *= n;
        g *= n;
        out_x[i] = (char)symbol[f >> bits];
        out_y[i] = (char)symbol[g >> bits];
        f &= mask;
        g &= mask;
    }
}

void mintid_short_uuid_encode(const mintid_short_uuid_alphabet *pub, const uint8_t id[16], char *out)
{
    const mintid_short_uuid_state *s = mintid_short_uuid_state_of_const(pub);
    uint64_t w[WORDS], carry = 0;
    uint32_t chunk[MINTID_SHORT_UUID_MAX_CHUNKS];
    uint32_t i, top;
    int p;

    for (p = 0; p < WORDS; p++)
        w[p] = mintid_load_be32(id + 4 * p);
    for (i = 0; i < s->chunks; i++) {
        /* Four products of at most 2^32 * 2^29: the sum stays below 2^63.
         * Written out and summed in pairs: the chain below adds the carry
         * last, to sums ready beforehand. */
        uint64_t x = (w[0] * s->power[0][i] + w[1] * s->power[1][i]) +
                     (w[2] * s->power[2][i] + w[3] * s->power[3][i]) + carry;

        /* A multiply-high, not a divide instruction (tens of cycles, and
         * each chunk's carry waits for the one before). */
        carry = mintid_div_quotient(s->chunk_magic, s->chunk_shift, x);
        chunk[i] = (uint32_t)(x - carry * s->chunk);
    }
    /* The value is below n^L, so nothing is left over past the top chunk. */
    top = s->length - (s->chunks - 1) * s->per_chunk;
    chunk_symbols(s, chunk[s->chunks - 1], top, out);
    /* The full chunks below it, two at a time, highest first. */
    for (i = 1; i + 1 < s->chunks; i += 2)
        chunk_symbols_pair(s, chunk[s->chunks - 1 - i], chunk[s->chunks - 2 - i],
                           out + top + (i - 1) * s->per_chunk, out + top + i * s->per_chunk);
    if (i < s->chunks)
        chunk_symbols(s, chunk[0], s->per_chunk, out + top + (i - 1) * s->per_chunk);
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
