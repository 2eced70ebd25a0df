/*
 * hash_block.c: the Merkle-Damgard framing that MD5, SHA-1 and SHA-256
 * share: 64-byte blocks buffered from any run of updates, then the final
 * 0x80, zeros and the message's bit count in the last 8 bytes (big-endian
 * for the SHAs, little-endian for MD5). Each hash supplies only its block
 * function.
 */
#include <string.h>

#include "internal.h"

#define BLOCK 64

void mintid_hash_absorb(mintid_hash_blocks *b, mintid_hash_block_fn compress, void *state,
                        const uint8_t *data, size_t n)
{
    /* memcpy from a NULL pointer is undefined even for 0 bytes. */
    if (n == 0)
        return;
    b->length += n;
    if (b->used > 0) {
        size_t take = BLOCK - b->used;

        if (take > n)
            take = n;
        memcpy(b->block + b->used, data, take);
        b->used += take;
        data += take;
        n -= take;
        if (b->used < BLOCK)
            return;
        compress(state, b->block);
        b->used = 0;
    }
    /* Whole blocks straight from the caller's buffer: no copy. */
    for (; n >= BLOCK; data += BLOCK, n -= BLOCK)
        compress(state, data);
    if (n > 0) {
        memcpy(b->block, data, n);
        b->used = n;
    }
}

void mintid_hash_pad(mintid_hash_blocks *b, mintid_hash_block_fn compress, void *state, int little_endian)
{
    /* The standards define the count modulo 2^64 bits; unsigned arithmetic
     * keeps it so for any length, with no undefined behaviour. */
    uint64_t bits = b->length << 3;
    int i;

    b->block[b->used++] = 0x80;
    if (b->used > BLOCK - 8) {
        memset(b->block + b->used, 0, BLOCK - b->used);
        compress(state, b->block);
        b->used = 0;
    }
    memset(b->block + b->used, 0, BLOCK - 8 - b->used);
    for (i = 0; i < 8; i++)
        b->block[little_endian ? BLOCK - 8 + i : BLOCK - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(state, b->block);
    b->used = 0;
}
