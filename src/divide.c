/*
 * divide.c: division by a divisor known before the hot loop (an alphabet's
 * size or a power of it), by multiplication: a divide instruction is tens
 * of cycles and every digit conversion chains them, a multiply-high a few.
 */
#include "internal.h"

/* floor(rem * 2^64 / d) for rem < d, by long division, one bit a step,
 * the remainder to *left; a bit shifted out of rem (d > 2^63) is kept in
 * top. */
static uint64_t divide_shifted(uint64_t rem, uint64_t d, uint64_t *left)
{
    uint64_t q = 0;
    uint32_t i;

    for (i = 0; i < 64; i++) {
        uint64_t top = rem >> 63;

        rem <<= 1;
        q <<= 1;
        if (top || rem >= d) {
            rem -= d;
            q |= 1;
        }
    }
    *left = rem;
    return q;
}

/* The round-down method of Granlund and Montgomery ("Division by invariant
 * integers using multiplication", 1994), the "add" variant: with l =
 * ceil(log2 d), m = floor(2^64 (2^l - d) / d) + 1 fits 64 bits for every
 * d >= 2, and mintid_div_quotient is exact for every 64-bit v. */
uint64_t mintid_div_magic(uint64_t d, uint32_t *shift)
{
    uint64_t rem;
    uint32_t l = 0;

    while (l < 64 && (UINT64_C(1) << l) < d)
        l++;
    /* floor(2^64 (2^l - d) / d) */
    *shift = l - 1;
    return divide_shifted((l == 64 ? 0 : (UINT64_C(1) << l)) - d, d, &rem) + 1;
}

/* Robison's method ("N-bit unsigned division via N-bit multiply-add",
 * 2005), for a multiply-high and one shift, no fix-up: with s =
 * floor(log2 d) and d not a power of 2, q = floor(2^(64+s) / d) and
 * r = 2^(64+s) mod d = d - e. The round-up magic q + 1 is exact for every
 * v < 2^64 when e <= 2^s; else r < 2^s, and q with v + 1 is exact for
 * every v + 1 <= 2^64. One of them always fits 64 bits. */
uint64_t mintid_div_magic_inc(uint64_t d, uint32_t *shift, uint32_t *inc)
{
    uint64_t q, rem;
    uint32_t s = 0;

    while (s < 63 && (UINT64_C(1) << (s + 1)) <= d)
        s++;
    if ((d & (d - 1)) == 0) {
        /* 2^s: half of v by the multiply-high, the rest by the shift. */
        *shift = s - 1;
        *inc = 0;
        return UINT64_C(1) << 63;
    }
    /* floor(2^(64+s) / d), from 2^s < d */
    q = divide_shifted(UINT64_C(1) << s, d, &rem);
    *shift = s;
    *inc = d - rem <= (UINT64_C(1) << s) ? 0 : 1;
    return q + (*inc == 0);
}

/* ceil(2^s / d) for s <= 64 and d >= 2 (so below 2^64): the round-up
 * reciprocals of the fixed-point conversions (sqids.c, short_uuid.c),
 * as floor((2^s - 1) / d) + 1. */
uint64_t mintid_div_ceil_pow2(uint32_t s, uint64_t d)
{
    return (s == 64 ? UINT64_MAX : (UINT64_C(1) << s) - 1) / d + 1;
}
