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

/* Written out, not looped: GCC merges the eight stores into one (with a
 * byte swap on a big-endian host), where it left the loop as 64 byte
 * stores for a digest, about 20 ns of a CUID2's hash. */
static void store_le64(uint8_t *p, uint64_t v)
{
    p[0] = (uint8_t)v;         p[1] = (uint8_t)(v >> 8);  p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
    p[4] = (uint8_t)(v >> 32); p[5] = (uint8_t)(v >> 40); p[6] = (uint8_t)(v >> 48); p[7] = (uint8_t)(v >> 56);
}

static uint64_t rotl(uint64_t x, unsigned n)
{
    return (x << n) | (x >> (64 - n));
}

/* Keccak-f[1600] with the 25 lanes in local variables, two rounds per
 * pass (a to e, then e back to a), so that the compiler may keep lanes
 * in registers and nothing is copied between rounds; the loop over 25
 * lanes with index tables it replaces cost about twice as much at -O2.
 * Lane a<y><x> is lane x + 5y of FIPS 202. One row of chi at a time: its
 * five inputs are theta's d, then rho and pi (input lane (x, y) goes to
 * (y, 2x + 3y) rotated by its rho offset). */
#define LANES(p) p##00, p##01, p##02, p##03, p##04, p##10, p##11, p##12, p##13, p##14, p##20, p##21, \
                 p##22, p##23, p##24, p##30, p##31, p##32, p##33, p##34, p##40, p##41, p##42, p##43, p##44
#define CHI_ROW(o, r, b0, b1, b2, b3, b4) \
    o##r##0 = b0 ^ (~b1 & b2);            \
    o##r##1 = b1 ^ (~b2 & b3);            \
    o##r##2 = b2 ^ (~b3 & b4);            \
    o##r##3 = b3 ^ (~b4 & b0);            \
    o##r##4 = b4 ^ (~b0 & b1)
#define ROUND(i, o, k)                                                                                       \
    do {                                                                                                     \
        uint64_t c0 = i##00 ^ i##10 ^ i##20 ^ i##30 ^ i##40, c1 = i##01 ^ i##11 ^ i##21 ^ i##31 ^ i##41;       \
        uint64_t c2 = i##02 ^ i##12 ^ i##22 ^ i##32 ^ i##42, c3 = i##03 ^ i##13 ^ i##23 ^ i##33 ^ i##43;       \
        uint64_t c4 = i##04 ^ i##14 ^ i##24 ^ i##34 ^ i##44;                                                 \
        uint64_t d0 = c4 ^ rotl(c1, 1), d1 = c0 ^ rotl(c2, 1), d2 = c1 ^ rotl(c3, 1);                        \
        uint64_t d3 = c2 ^ rotl(c4, 1), d4 = c3 ^ rotl(c0, 1);                                               \
        uint64_t b0, b1, b2, b3, b4;                                                                         \
        b0 = i##00 ^ d0;                                                                                     \
        b1 = rotl(i##11 ^ d1, 44);                                                                           \
        b2 = rotl(i##22 ^ d2, 43);                                                                           \
        b3 = rotl(i##33 ^ d3, 21);                                                                           \
        b4 = rotl(i##44 ^ d4, 14);                                                                           \
        CHI_ROW(o, 0, b0, b1, b2, b3, b4);                                                                   \
        o##00 ^= RC[k];                                                                                      \
        b0 = rotl(i##03 ^ d3, 28);                                                                           \
        b1 = rotl(i##14 ^ d4, 20);                                                                           \
        b2 = rotl(i##20 ^ d0, 3);                                                                            \
        b3 = rotl(i##31 ^ d1, 45);                                                                           \
        b4 = rotl(i##42 ^ d2, 61);                                                                           \
        CHI_ROW(o, 1, b0, b1, b2, b3, b4);                                                                   \
        b0 = rotl(i##01 ^ d1, 1);                                                                            \
        b1 = rotl(i##12 ^ d2, 6);                                                                            \
        b2 = rotl(i##23 ^ d3, 25);                                                                           \
        b3 = rotl(i##34 ^ d4, 8);                                                                            \
        b4 = rotl(i##40 ^ d0, 18);                                                                           \
        CHI_ROW(o, 2, b0, b1, b2, b3, b4);                                                                   \
        b0 = rotl(i##04 ^ d4, 27);                                                                           \
        b1 = rotl(i##10 ^ d0, 36);                                                                           \
        b2 = rotl(i##21 ^ d1, 10);                                                                           \
        b3 = rotl(i##32 ^ d2, 15);                                                                           \
        b4 = rotl(i##43 ^ d3, 56);                                                                           \
        CHI_ROW(o, 3, b0, b1, b2, b3, b4);                                                                   \
        b0 = rotl(i##02 ^ d2, 62);                                                                           \
        b1 = rotl(i##13 ^ d3, 55);                                                                           \
        b2 = rotl(i##24 ^ d4, 39);                                                                           \
        b3 = rotl(i##30 ^ d0, 41);                                                                           \
        b4 = rotl(i##41 ^ d1, 2);                                                                            \
        CHI_ROW(o, 4, b0, b1, b2, b3, b4);                                                                   \
    } while (0)

static void keccak_f1600(uint64_t s[25])
{
    uint64_t LANES(a), LANES(e);
    int k;

    a00 = s[0], a01 = s[1], a02 = s[2], a03 = s[3], a04 = s[4];
    a10 = s[5], a11 = s[6], a12 = s[7], a13 = s[8], a14 = s[9];
    a20 = s[10], a21 = s[11], a22 = s[12], a23 = s[13], a24 = s[14];
    a30 = s[15], a31 = s[16], a32 = s[17], a33 = s[18], a34 = s[19];
    a40 = s[20], a41 = s[21], a42 = s[22], a43 = s[23], a44 = s[24];
    for (k = 0; k < 24; k += 2) {
        ROUND(a, e, k);
        ROUND(e, a, k + 1);
    }
    s[0] = a00, s[1] = a01, s[2] = a02, s[3] = a03, s[4] = a04;
    s[5] = a10, s[6] = a11, s[7] = a12, s[8] = a13, s[9] = a14;
    s[10] = a20, s[11] = a21, s[12] = a22, s[13] = a23, s[14] = a24;
    s[15] = a30, s[16] = a31, s[17] = a32, s[18] = a33, s[19] = a34;
    s[20] = a40, s[21] = a41, s[22] = a42, s[23] = a43, s[24] = a44;
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
