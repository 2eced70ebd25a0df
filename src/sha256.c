/*
 * sha256.c: SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), used for the
 * tags of relative IDs (and, without HMAC, the name-based UUIDv8). Words are
 * loaded and stored big-endian by shifts, so the digest is the same on every
 * host; the block framing is hash_block.c's.
 */
#include <string.h>

#include "internal.h"

#define BLOCK 64 /* HMAC's key block */

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

static uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

/* The block function for hash_block.c. The schedule w is derived from the
 * message, which for HMAC is the key: wiped after every block. */
static void compress(void *state, const uint8_t *p)
{
    uint32_t *h = state, w[64], a, b, c, d, e, f, g, hh;
    int i;

    for (i = 0; i < 16; i++)
        w[i] = mintid_load_be32(p + 4 * i);
    for (i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }

    a = h[0]; b = h[1]; c = h[2]; d = h[3];
    e = h[4]; f = h[5]; g = h[6]; hh = h[7];
    for (i = 0; i < 64; i++) {
        uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    mintid_secure_zero(w, sizeof w);
}

void mintid_sha256_init(mintid_sha256_ctx *c)
{
    static const uint32_t iv[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    };
    memcpy(c->h, iv, sizeof iv);
    c->length = 0;
    c->used = 0;
}

void mintid_sha256_update(mintid_sha256_ctx *c, const uint8_t *data, size_t n)
{
    mintid_hash_absorb(&c->length, c->block, &c->used, compress, c->h, data, n);
}

void mintid_sha256_final(mintid_sha256_ctx *c, uint8_t digest[32])
{
    int i;

    mintid_hash_pad(c->length, c->block, c->used, compress, c->h, 0);
    for (i = 0; i < 8; i++)
        mintid_store_be32(digest + 4 * i, c->h[i]);
    /* An HMAC context is secret-equivalent; leave nothing of it behind. */
    mintid_secure_zero(c, sizeof *c);
}

void mintid_sha256(const uint8_t *data, size_t n, uint8_t digest[32])
{
    mintid_sha256_ctx c;
    mintid_sha256_init(&c);
    mintid_sha256_update(&c, data, n);
    mintid_sha256_final(&c, digest);
}

/* H(K0 ^ pad) started: the block every HMAC with this key begins with. */
static void start_padded(mintid_sha256_ctx *c, const uint8_t k0[BLOCK], uint8_t pad)
{
    uint8_t block[BLOCK];
    int i;

    for (i = 0; i < BLOCK; i++)
        block[i] = (uint8_t)(k0[i] ^ pad);
    mintid_sha256_init(c);
    mintid_sha256_update(c, block, BLOCK);
    mintid_secure_zero(block, sizeof block);
}

void mintid_hmac_sha256_init(mintid_sha256_ctx *inner, mintid_sha256_ctx *outer,
                             const uint8_t *key, size_t key_len)
{
    uint8_t k0[BLOCK];

    /* RFC 2104: a key longer than the block is replaced by its hash. */
    memset(k0, 0, sizeof k0);
    if (key_len > BLOCK)
        mintid_sha256(key, key_len, k0);
    else if (key_len > 0)
        memcpy(k0, key, key_len);

    start_padded(inner, k0, 0x36);
    start_padded(outer, k0, 0x5c);
    mintid_secure_zero(k0, sizeof k0);
}

void mintid_hmac_sha256(const uint8_t *key, size_t key_len,
                        const uint8_t *msg, size_t msg_len, uint8_t mac[32])
{
    mintid_sha256_ctx inner, outer;
    uint8_t inner_digest[32];

    mintid_hmac_sha256_init(&inner, &outer, key, key_len);
    mintid_sha256_update(&inner, msg, msg_len);
    mintid_sha256_final(&inner, inner_digest);
    mintid_sha256_update(&outer, inner_digest, sizeof inner_digest);
    mintid_sha256_final(&outer, mac);
    /* final wiped both contexts; the inner digest is key-dependent too. */
    mintid_secure_zero(inner_digest, sizeof inner_digest);
}
