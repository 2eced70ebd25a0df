/*
 * sha1.c: SHA-1 (FIPS 180-4), for name-based UUIDv5 only (RFC 9562 5.5).
 * SHA-1 is broken for collisions; v5 needs it because the RFC fixes the
 * hash, not for any security. Words are big-endian by shifts.
 */
#include <string.h>

#include "internal.h"

static uint32_t sha1_rotl(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

static void sha1_block(void *state, const uint8_t *p)
{
    uint32_t *h = state, w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    int t;

    for (t = 0; t < 16; t++)
        w[t] = mintid_load_be32(p + 4 * t);
    for (t = 16; t < 80; t++)
        w[t] = sha1_rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    for (t = 0; t < 80; t++) {
        uint32_t f, k, tmp;

        if (t < 20) {
            f = (b & c) | (~b & d);
            k = 0x5a827999;
        } else if (t < 40) {
            f = b ^ c ^ d;
            k = 0x6ed9eba1;
        } else if (t < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8f1bbcdc;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6;
        }
        tmp = sha1_rotl(a, 5) + f + e + k + w[t];
        e = d;
        d = c;
        c = sha1_rotl(b, 30);
        b = a;
        a = tmp;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

void mintid_sha1_init(mintid_sha1_ctx *c)
{
    static const uint32_t iv[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

    memcpy(c->h, iv, sizeof iv);
    c->length = 0;
    c->used = 0;
}

void mintid_sha1_update(mintid_sha1_ctx *c, const uint8_t *data, size_t n)
{
    mintid_hash_absorb(&c->length, c->block, &c->used, sha1_block, c->h, data, n);
}

void mintid_sha1_final(mintid_sha1_ctx *c, uint8_t digest[20])
{
    int i;

    mintid_hash_pad(c->length, c->block, c->used, sha1_block, c->h, 0);
    for (i = 0; i < 5; i++)
        mintid_store_be32(digest + 4 * i, c->h[i]);
}

void mintid_sha1(const uint8_t *data, size_t n, uint8_t digest[20])
{
    mintid_sha1_ctx c;

    mintid_sha1_init(&c);
    mintid_sha1_update(&c, data, n);
    mintid_sha1_final(&c, digest);
}
