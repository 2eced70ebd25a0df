/*
 * base62.c: the KSUID text alphabet, 0-9 A-Z a-z. It is in ASCII order, so
 * fixed-width base62 text sorts as its value does (with a byte-wise
 * collation). The 160-bit value is held as five 32-bit words, most
 * significant first, and converted by schoolbook division (by 62^4, four
 * symbols a pass) and multiplication: 27 symbols, never a bignum library.
 */
#include "internal.h"

#define WORDS 5
#define SYMBOLS 27 /* 62^27 > 2^160 > 62^26 */

MINTID_INTERNAL_DATA const char mintid_base62_alphabet[63] =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

int mintid_base62_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 36;
    return -1;
}

/* 62^4, the largest power of 62 below 2^32: one division pass over the
 * words yields four symbols. */
#define BASE4 UINT64_C(14776336)

void mintid_base62_encode160(const uint8_t in[20], char out[27])
{
    uint32_t w[WORDS];
    int i = SYMBOLS - 1, pass, j, k;

    for (k = 0; k < WORDS; k++)
        w[k] = mintid_load_be32(in + 4 * k);
    /* Each pass divides the value by 62^4; the remainder is the next four
     * symbols from the right. Six passes leave a value below 62^3 (the
     * 160 bits are under 62^27) in the last word: the first three symbols,
     * so the text is always 27 symbols, left-padded with 0. */
    for (pass = 0; pass < (SYMBOLS - 3) / 4; pass++) {
        uint64_t rem = 0;

        for (k = 0; k < WORDS; k++) {
            uint64_t cur = rem << 32 | w[k];

            w[k] = (uint32_t)(cur / BASE4);
            rem = cur % BASE4;
        }
        for (j = 0; j < 4; j++, rem /= 62)
            out[i--] = mintid_base62_alphabet[rem % 62];
    }
    for (; i >= 0; i--, w[WORDS - 1] /= 62)
        out[i] = mintid_base62_alphabet[w[WORDS - 1] % 62];
}

int mintid_base62_decode160(const char text[27], uint8_t out[20])
{
    uint32_t w[WORDS] = { 0, 0, 0, 0, 0 };
    int i, k;

    for (i = 0; i < SYMBOLS; i++) {
        int v = mintid_base62_value((unsigned char)text[i]);
        uint64_t carry = (uint64_t)(v < 0 ? 0 : v);

        /* value = value * 62 + v; a carry out of the top word is a value
         * past 2^160 - 1. */
        for (k = WORDS - 1; k >= 0; k--) {
            uint64_t cur = (uint64_t)w[k] * 62 + carry;

            w[k] = (uint32_t)cur;
            carry = cur >> 32;
        }
        if (carry != 0)
            return -1;
    }
    for (k = 0; k < WORDS; k++)
        mintid_store_be32(out + 4 * k, w[k]);
    return 0;
}
