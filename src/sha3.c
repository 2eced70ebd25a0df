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

/* rho's rotation and pi's destination, in the order pi visits the lanes
 * starting from lane 1 (x + 5y indexing). */
static const unsigned ROTC[24] = { 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14,
                                   27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44 };
static const unsigned PILN[24] = { 10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4,
                                   15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1 };

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

static void keccak_f1600(uint64_t a[25])
{
    uint64_t bc[5], t;
    int round, i, j;

    for (round = 0; round < 24; round++) {
        /* theta */
        for (i = 0; i < 5; i++)
            bc[i] = a[i] ^ a[i + 5] ^ a[i + 10] ^ a[i + 15] ^ a[i + 20];
        for (i = 0; i < 5; i++) {
            t = bc[(i + 4) % 5] ^ rotl(bc[(i + 1) % 5], 1);
            for (j = 0; j < 25; j += 5)
                a[j + i] ^= t;
        }
        /* rho and pi */
        t = a[1];
        for (i = 0; i < 24; i++) {
            uint64_t next = a[PILN[i]];
            a[PILN[i]] = rotl(t, ROTC[i]);
            t = next;
        }
        /* chi */
        for (j = 0; j < 25; j += 5) {
            for (i = 0; i < 5; i++)
                bc[i] = a[j + i];
            for (i = 0; i < 5; i++)
                a[j + i] ^= ~bc[(i + 1) % 5] & bc[(i + 2) % 5];
        }
        /* iota */
        a[0] ^= RC[round];
    }
    mintid_secure_zero(bc, sizeof bc);
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
