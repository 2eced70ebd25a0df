/*
 * sha3.c: SHA3-512 (FIPS 202), the hash of CUID2. Keccak-f[1600] over 25
 * 64-bit lanes; FIPS 202 numbers the bytes of a lane little-endian, so
 * lanes are loaded and stored by shifts, the same digest
 * on big-endian hosts. Message bytes are XORed into the state as they
 * come, so there is no block buffer beyond the state itself.
 */
#include <string.h>

#include "internal.h"

#define RATE 72 /* bytes: 1600 - 2 * 512 bits of capacity */

static const uint64_t RC[24] = {
    UINT64_C(0x0000000000000001), UINT64_C(0x0000000000008082), UINT64_C(0x800000000000808a),
    UINT64_C(0x8000000080008000), UINT64_C(0x000000000000808b), UINT64_C(0x0000000080000001),
    UINT64_C(0x8000000080008081), UINT64_C(0x8000000000008009), UINT64_C(0x000000000000008a),
    UINT64_C(0x0000000000000088), UINT64_C(0x0000000080008009), UINT64_C(0x000000008000000a),
    UINT64_C(0x000000008000808b), UINT64_C(0x800000000000008b), UINT64_C(0x8000000000008089),
    UINT64_C(0x8000000000008003), UINT64_C(0x8000000000008002), UINT64_C(0x8000000000000080),
    UINT64_C(0x000000000000800a), UINT64_C(0x800000008000000a), UINT64_C(0x8000000080008081),
    UINT64_C(0x8000000000008080), UINT64_C(0x0000000080000001), UINT64_C(0x8000000080008008)
};

/* By shifts, whatever the host's byte order. */
static uint64_t load_le64(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static void store_le64(uint8_t *p, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t rotl(uint64_t x, unsigned n)
{
    return (x << n) | (x >> (64 - n));
}

/* Keccak-f[1600], written out lane by lane: loops over the 25 lanes
 * with table lookups cost several times more at -O2. theta's column
 * parities c, its d, then rho and pi into b (b[y, 2x + 3y] = rot(a[x, y]
 * ^ d[x], r[x, y])), then chi and iota. */
static void keccak_f1600(uint64_t a[25])
{
    uint64_t b[25], c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
    int round;

    for (round = 0; round < 24; round++) {
        c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
        c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
        c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
        c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
        c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
        d0 = c4 ^ rotl(c1, 1);
        d1 = c0 ^ rotl(c2, 1);
        d2 = c1 ^ rotl(c3, 1);
        d3 = c2 ^ rotl(c4, 1);
        d4 = c3 ^ rotl(c0, 1);
        b[0] = a[0] ^ d0;
        b[16] = rotl(a[5] ^ d0, 36);
        b[7] = rotl(a[10] ^ d0, 3);
        b[23] = rotl(a[15] ^ d0, 41);
        b[14] = rotl(a[20] ^ d0, 18);
        b[10] = rotl(a[1] ^ d1, 1);
        b[1] = rotl(a[6] ^ d1, 44);
        b[17] = rotl(a[11] ^ d1, 10);
        b[8] = rotl(a[16] ^ d1, 45);
        b[24] = rotl(a[21] ^ d1, 2);
        b[20] = rotl(a[2] ^ d2, 62);
        b[11] = rotl(a[7] ^ d2, 6);
        b[2] = rotl(a[12] ^ d2, 43);
        b[18] = rotl(a[17] ^ d2, 15);
        b[9] = rotl(a[22] ^ d2, 61);
        b[5] = rotl(a[3] ^ d3, 28);
        b[21] = rotl(a[8] ^ d3, 55);
        b[12] = rotl(a[13] ^ d3, 25);
        b[3] = rotl(a[18] ^ d3, 21);
        b[19] = rotl(a[23] ^ d3, 56);
        b[15] = rotl(a[4] ^ d4, 27);
        b[6] = rotl(a[9] ^ d4, 20);
        b[22] = rotl(a[14] ^ d4, 39);
        b[13] = rotl(a[19] ^ d4, 8);
        b[4] = rotl(a[24] ^ d4, 14);
        a[0] = b[0] ^ (~b[1] & b[2]);
        a[1] = b[1] ^ (~b[2] & b[3]);
        a[2] = b[2] ^ (~b[3] & b[4]);
        a[3] = b[3] ^ (~b[4] & b[0]);
        a[4] = b[4] ^ (~b[0] & b[1]);
        a[5] = b[5] ^ (~b[6] & b[7]);
        a[6] = b[6] ^ (~b[7] & b[8]);
        a[7] = b[7] ^ (~b[8] & b[9]);
        a[8] = b[8] ^ (~b[9] & b[5]);
        a[9] = b[9] ^ (~b[5] & b[6]);
        a[10] = b[10] ^ (~b[11] & b[12]);
        a[11] = b[11] ^ (~b[12] & b[13]);
        a[12] = b[12] ^ (~b[13] & b[14]);
        a[13] = b[13] ^ (~b[14] & b[10]);
        a[14] = b[14] ^ (~b[10] & b[11]);
        a[15] = b[15] ^ (~b[16] & b[17]);
        a[16] = b[16] ^ (~b[17] & b[18]);
        a[17] = b[17] ^ (~b[18] & b[19]);
        a[18] = b[18] ^ (~b[19] & b[15]);
        a[19] = b[19] ^ (~b[15] & b[16]);
        a[20] = b[20] ^ (~b[21] & b[22]);
        a[21] = b[21] ^ (~b[22] & b[23]);
        a[22] = b[22] ^ (~b[23] & b[24]);
        a[23] = b[23] ^ (~b[24] & b[20]);
        a[24] = b[24] ^ (~b[20] & b[21]);
        a[0] ^= RC[round];
    }
    mintid_secure_zero(b, sizeof b);
}

/* Byte i of the rate, as FIPS 202 orders the state's bytes. */
static void xor_byte(uint64_t a[25], size_t i, uint8_t b)
{
    a[i / 8] ^= (uint64_t)b << (8 * (i % 8));
}

void mintid_sha3_512_init(mintid_sha3_512_ctx *c)
{
    memset(c, 0, sizeof *c);
}

void mintid_sha3_512_update(mintid_sha3_512_ctx *c, const uint8_t *data, size_t n)
{
    size_t used = c->used;

    /* Whole lanes while the position is lane-aligned, else byte by byte. */
    while (n > 0) {
        if (used % 8 == 0 && n >= 8) {
            c->a[used / 8] ^= load_le64(data);
            used += 8;
            data += 8;
            n -= 8;
        } else {
            xor_byte(c->a, used++, *data++);
            n--;
        }
        if (used == RATE) {
            keccak_f1600(c->a);
            used = 0;
        }
    }
    c->used = used;
}

void mintid_sha3_512_final(mintid_sha3_512_ctx *c, uint8_t digest[64])
{
    int i;

    /* SHA-3's domain bits 01, then pad10*1 (FIPS 202 B.2: 0x06 ... 0x80). */
    xor_byte(c->a, c->used, 0x06);
    xor_byte(c->a, RATE - 1, 0x80);
    keccak_f1600(c->a);
    for (i = 0; i < 8; i++)
        store_le64(digest + 8 * i, c->a[i]);
    mintid_secure_zero(c, sizeof *c);
}

void mintid_sha3_512(const uint8_t *data, size_t n, uint8_t digest[64])
{
    mintid_sha3_512_ctx c;

    mintid_sha3_512_init(&c);
    mintid_sha3_512_update(&c, data, n);
    mintid_sha3_512_final(&c, digest);
}
