/* hex.c: lowercase hex text, two digits per byte (UUID text, W3C trace
 * IDs, ObjectIds, the bytes of error messages). */
#include <string.h>

#include "internal.h"

/* Entry b is byte b's two digits: one load and one 2-byte store per byte,
 * where splitting it into nibbles and looking each up takes twice the
 * work. */
#define HEX_ROW(c)                                                                          \
    { c, '0' }, { c, '1' }, { c, '2' }, { c, '3' }, { c, '4' }, { c, '5' }, { c, '6' },     \
    { c, '7' }, { c, '8' }, { c, '9' }, { c, 'a' }, { c, 'b' }, { c, 'c' }, { c, 'd' },     \
    { c, 'e' }, { c, 'f' }
MINTID_INTERNAL_DATA const char mintid_hex_pairs[256][2] = {
    HEX_ROW('0'), HEX_ROW('1'), HEX_ROW('2'), HEX_ROW('3'), HEX_ROW('4'), HEX_ROW('5'), HEX_ROW('6'), HEX_ROW('7'),
    HEX_ROW('8'), HEX_ROW('9'), HEX_ROW('a'), HEX_ROW('b'), HEX_ROW('c'), HEX_ROW('d'), HEX_ROW('e'), HEX_ROW('f')
};

void mintid_hex_encode(const uint8_t *b, size_t n, char *out)
{
    size_t i;

    for (i = 0; i < n; i++)
        memcpy(out + 2 * i, mintid_hex_pairs[b[i]], 2);
}

#ifdef __SSE2__
void mintid_hex_encode16(const uint8_t b[16], char out[32])
{
    __m128i d[2];

    mintid_hex_digits16(b, d);
    _mm_storeu_si128((__m128i *)(void *)out, d[0]);
    _mm_storeu_si128((__m128i *)(void *)(out + 16), d[1]);
}

void mintid_hex_encode12(const uint8_t b[12], char out[24])
{
    __m128i d[2];
    int32_t tail;

    /* 8 bytes and 4: no read past the 12. */
    memcpy(&tail, b + 8, sizeof tail);
    mintid_hex_digits_of(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)b),
                                            _mm_cvtsi32_si128(tail)),
                         d);
    _mm_storeu_si128((__m128i *)(void *)out, d[0]);
    _mm_storel_epi64((__m128i *)(void *)(out + 16), d[1]);
}
#else
void mintid_hex_encode16(const uint8_t b[16], char out[32])
{
    mintid_hex_encode(b, 16, out);
}

void mintid_hex_encode12(const uint8_t b[12], char out[24])
{
    mintid_hex_encode(b, 12, out);
}
#endif
