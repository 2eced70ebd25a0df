/* hex.c: lowercase hex text, two digits per byte (UUID text, W3C trace
 * IDs, the bytes of error messages). */
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
/* SSE2 (every x86-64): each byte's high and low nibble side by side in two
 * registers, '0' added to each, and 'a' - '0' - 10 more to those above 9. */
void mintid_hex_encode16(const uint8_t b[16], char out[32])
{
    const __m128i low4 = _mm_set1_epi8(0x0F), nine = _mm_set1_epi8(9);
    const __m128i zero_char = _mm_set1_epi8('0'), past_nine = _mm_set1_epi8('a' - '0' - 10);
    /* Two 8-byte reads, the way the IDs were stored (mintid_store_ms_words). */
    __m128i v = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)b),
                                   _mm_loadl_epi64((const __m128i *)(const void *)(b + 8)));
    __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), low4), lo = _mm_and_si128(v, low4);
    __m128i d[2];
    int i;

    d[0] = _mm_unpacklo_epi8(hi, lo);
    d[1] = _mm_unpackhi_epi8(hi, lo);
    for (i = 0; i < 2; i++) {
        __m128i letters = _mm_and_si128(_mm_cmpgt_epi8(d[i], nine), past_nine);

        _mm_storeu_si128((__m128i *)(void *)(out + 16 * i), _mm_add_epi8(d[i], _mm_add_epi8(zero_char, letters)));
    }
}
#else
void mintid_hex_encode16(const uint8_t b[16], char out[32])
{
    mintid_hex_encode(b, 16, out);
}
#endif
