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

void mintid_hash_absorb(uint64_t *length, uint8_t block[64], size_t *used,
                        mintid_hash_block_fn compress, void *state, const uint8_t *data, size_t n)
{
    /* memcpy from a NULL pointer is undefined even for 0 bytes. */
    if (n == 0)
        return;
    *length += n;
    if (*used > 0) {
        size_t take = BLOCK - *used;

        if (take > n)
            take = n;
        memcpy(block + *used, data, take);
        *used += take;
        data += take;
        n -= take;
        if (*used < BLOCK)
            return;
        compress(state, block);
        *used = 0;
    }
    /* Whole blocks straight from the caller's buffer: no copy. */
    for (; n >= BLOCK; data += BLOCK, n -= BLOCK)
        compress(state, data);
    if (n > 0) {
        memcpy(block, data, n);
        *used = n;
    }
}

void mintid_hash_pad(uint64_t length, uint8_t block[64], size_t used,
                     mintid_hash_block_fn compress, void *state, int little_endian)
{
    /* FIPS 180-4 and RFC 1321 define the count modulo 2^64 bits (input of
     * 2^61 bytes is beyond any caller); unsigned arithmetic keeps it so,
     * with no undefined behaviour. */
    uint64_t bits = length << 3;
    int i;

    block[used++] = 0x80;
    if (used > BLOCK - 8) {
        memset(block + used, 0, BLOCK - used);
        compress(state, block);
        used = 0;
    }
    memset(block + used, 0, BLOCK - 8 - used);
    for (i = 0; i < 8; i++)
        block[little_endian ? BLOCK - 8 + i : BLOCK - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(state, block);
}
