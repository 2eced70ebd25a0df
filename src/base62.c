/*
 * base62.c: the KSUID text alphabet, 0-9 A-Z a-z. It is in ASCII order, so
 * fixed-width base62 text sorts as its value does (with a byte-wise
 * collation). The 160-bit value is held as five 32-bit words, most
 * significant first, and converted by schoolbook division and
 * multiplication: 27 symbols, never a bignum library.
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

void mintid_base62_encode160(const uint8_t in[20], char out[27])
{
    uint32_t w[WORDS];
    int i, k;

    for (k = 0; k < WORDS; k++)
        w[k] = mintid_load_be32(in + 4 * k);
    /* Each pass divides the value by 62; the remainder is the next symbol
     * from the right. 27 passes always, so the text is left-padded with 0. */
    for (i = SYMBOLS - 1; i >= 0; i--) {
        uint64_t rem = 0;

        for (k = 0; k < WORDS; k++) {
            uint64_t cur = rem << 32 | w[k];

            w[k] = (uint32_t)(cur / 62);
            rem = cur % 62;
        }
        out[i] = mintid_base62_alphabet[rem];
    }
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
