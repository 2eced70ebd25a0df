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
    uint32_t in[16], x[16];
    size_t b;
    int i;

    /* "expand 32-byte k" */
    in[0] = 0x61707865u; in[1] = 0x3320646eu; in[2] = 0x79622d32u; in[3] = 0x6b206574u;
    for (i = 0; i < 8; i++)
        in[4 + i] = load_le32(key + 4 * i);
    for (i = 0; i < 3; i++)
        in[13 + i] = load_le32(nonce + 4 * i);
    for (b = 0; b < nblocks; b++, out += 64) {
        in[12] = counter + (uint32_t)b;
        for (i = 0; i < 16; i++)
            x[i] = in[i];
        for (i = 0; i < 10; i++) { /* 20 rounds: a column and a diagonal round each */
            QUARTER_ROUND(x[0], x[4], x[8], x[12]);
            QUARTER_ROUND(x[1], x[5], x[9], x[13]);
            QUARTER_ROUND(x[2], x[6], x[10], x[14]);
            QUARTER_ROUND(x[3], x[7], x[11], x[15]);
            QUARTER_ROUND(x[0], x[5], x[10], x[15]);
            QUARTER_ROUND(x[1], x[6], x[11], x[12]);
            QUARTER_ROUND(x[2], x[7], x[8], x[13]);
            QUARTER_ROUND(x[3], x[4], x[9], x[14]);
        }
        for (i = 0; i < 16; i++)
            store_le32(out + 4 * i, x[i] + in[i]);
    }
    /* The key's words stay behind on the stack otherwise. */
    mintid_secure_zero(in, sizeof in);
    mintid_secure_zero(x, sizeof x);
}
