/*
 * md5.c: MD5 (RFC 1321), for name-based UUIDv3 only (RFC 9562 5.3). MD5 is
 * broken for collisions; v3 needs it because the RFC fixes the hash, not for
 * any security. Words are little-endian by shifts, so every host agrees.
 */
#include <string.h>

#include "internal.h"

/* RFC 1321 3.4: T[i] = floor(2^32 * abs(sin(i + 1))), and the per-round shifts. */
static const uint32_t md5_t[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391
};
static const uint8_t md5_shift[4][4] = { { 7, 12, 17, 22 }, { 5, 9, 14, 20 }, { 4, 11, 16, 23 }, { 6, 10, 15, 21 } };

static uint32_t md5_load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t md5_rotl(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

static void md5_block(void *state, const uint8_t *p)
{
    uint32_t *h = state, x[16], a = h[0], b = h[1], c = h[2], d = h[3];
    int i;

    for (i = 0; i < 16; i++)
        x[i] = md5_load_le32(p + 4 * i);
    for (i = 0; i < 64; i++) {
        int round = i / 16;
        uint32_t f, tmp;
        unsigned k;

        /* The four auxiliary functions F, G, H, I and their word orders. */
        if (round == 0) {
            f = (b & c) | (~b & d);
            k = (unsigned)i;
        } else if (round == 1) {
            f = (b & d) | (c & ~d);
            k = (unsigned)(5 * i + 1) % 16;
        } else if (round == 2) {
            f = b ^ c ^ d;
            k = (unsigned)(3 * i + 5) % 16;
        } else {
            f = c ^ (b | ~d);
            k = (unsigned)(7 * i) % 16;
        }
        tmp = d;
        d = c;
        c = b;
        b = b + md5_rotl(a + f + md5_t[i] + x[k], md5_shift[round][i % 4]);
        a = tmp;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
}

void mintid_md5_init(mintid_md5_ctx *c)
{
    static const uint32_t iv[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };

    memcpy(c->h, iv, sizeof iv);
    c->length = 0;
    c->used = 0;
}

void mintid_md5_update(mintid_md5_ctx *c, const uint8_t *data, size_t n)
{
    mintid_hash_absorb(&c->length, c->block, &c->used, md5_block, c->h, data, n);
}

void mintid_md5_final(mintid_md5_ctx *c, uint8_t digest[16])
{
    int i, j;

    mintid_hash_pad(c->length, c->block, c->used, md5_block, c->h, 1);
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            digest[4 * i + j] = (uint8_t)(c->h[i] >> (8 * j));
}

void mintid_md5(const uint8_t *data, size_t n, uint8_t digest[16])
{
    mintid_md5_ctx c;

    mintid_md5_init(&c);
    mintid_md5_update(&c, data, n);
    mintid_md5_final(&c, digest);
}
