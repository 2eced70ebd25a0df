/* chacha20_simd.c: the ChaCha20 keystream (RFC 8439) several blocks at a
 * time on x86-64: SSE2 four, AVX2 eight. Each vector register holds one of
 * the 16 state words for 4 or 8 consecutive blocks (the counter word one
 * higher in each lane), the 20 rounds run on all at once, and a transpose
 * turns the words back into blocks. chacha20.c picks one and finishes what
 * is left of a request with the scalar code; the tests check each against
 * it across block boundaries and a counter that wraps. Each that wrote a
 * group clears the vector registers before it returns, as the scalar
 * code's words are cleared: they hold the last group's keystream, which
 * the pool hands out and wipes, and a signal frame or a core dump would
 * keep it. Elsewhere this file is empty. */
#include "internal.h"

#ifdef MINTID_HAVE_CHACHA20_SSE2
#include <emmintrin.h>

/* The 20 rounds (RFC 8439 2.3) on the word registers x[16] with the
 * quarter round QR: a column round and a diagonal round, ten times. */
#define CHACHA_20_ROUNDS(QR, x)                                              \
    do {                                                                     \
        int round_;                                                          \
        for (round_ = 0; round_ < 10; round_++) {                            \
            QR(x[0], x[4], x[8], x[12]);                                     \
            QR(x[1], x[5], x[9], x[13]);                                     \
            QR(x[2], x[6], x[10], x[14]);                                    \
            QR(x[3], x[7], x[11], x[15]);                                    \
            QR(x[0], x[5], x[10], x[15]);                                    \
            QR(x[1], x[6], x[11], x[12]);                                    \
            QR(x[2], x[7], x[8], x[13]);                                     \
            QR(x[3], x[4], x[9], x[14]);                                     \
        }                                                                    \
    } while (0)

/* The stores of the keystream come before these ("memory"), and the
 * compiler keeps nothing in the registers across them (the clobbers). */
#define XMM_0_15 "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", \
                 "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"
#define PXOR(n) "pxor %%xmm" #n ", %%xmm" #n "\n\t"

static void sse_clear(void)
{
    __asm__ volatile(PXOR(0) PXOR(1) PXOR(2) PXOR(3) PXOR(4) PXOR(5) PXOR(6) PXOR(7)
                     PXOR(8) PXOR(9) PXOR(10) PXOR(11) PXOR(12) PXOR(13) PXOR(14) PXOR(15)
                     : : : "memory", XMM_0_15);
}

/* ---- SSE2: 4 blocks ----------------------------------------------------- */

/* SSE2 has no rotate: two shifts and an or. */
#define SSE_ROTL(v, n) _mm_or_si128(_mm_slli_epi32((v), (n)), _mm_srli_epi32((v), 32 - (n)))
#define SSE_QR(a, b, c, d)                                                          \
    do {                                                                            \
        a = _mm_add_epi32(a, b); d = _mm_xor_si128(d, a); d = SSE_ROTL(d, 16);      \
        c = _mm_add_epi32(c, d); b = _mm_xor_si128(b, c); b = SSE_ROTL(b, 12);      \
        a = _mm_add_epi32(a, b); d = _mm_xor_si128(d, a); d = SSE_ROTL(d, 8);       \
        c = _mm_add_epi32(c, d); b = _mm_xor_si128(b, c); b = SSE_ROTL(b, 7);       \
    } while (0)

/* Words a..d of blocks 0..3 (one register per word) to each block's four
 * words (one register per block), stored at out + 64 * block. */
static void sse_store4(__m128i a, __m128i b, __m128i c, __m128i d, uint8_t *out)
{
    __m128i ab_lo = _mm_unpacklo_epi32(a, b), ab_hi = _mm_unpackhi_epi32(a, b);
    __m128i cd_lo = _mm_unpacklo_epi32(c, d), cd_hi = _mm_unpackhi_epi32(c, d);

    _mm_storeu_si128((__m128i *)(void *)out, _mm_unpacklo_epi64(ab_lo, cd_lo));
    _mm_storeu_si128((__m128i *)(void *)(out + 64), _mm_unpackhi_epi64(ab_lo, cd_lo));
    _mm_storeu_si128((__m128i *)(void *)(out + 128), _mm_unpacklo_epi64(ab_hi, cd_hi));
    _mm_storeu_si128((__m128i *)(void *)(out + 192), _mm_unpackhi_epi64(ab_hi, cd_hi));
}

size_t mintid_chacha20_sse2(uint32_t in[16], uint8_t *out, size_t nblocks)
{
    size_t done;
    int i;

    for (done = 0; done + 4 <= nblocks; done += 4, out += 256, in[12] += 4) {
        __m128i s[16], x[16];

        for (i = 0; i < 16; i++)
            s[i] = _mm_set1_epi32((int)in[i]);
        s[12] = _mm_add_epi32(s[12], _mm_set_epi32(3, 2, 1, 0));
        for (i = 0; i < 16; i++)
            x[i] = s[i];
        CHACHA_20_ROUNDS(SSE_QR, x);
        for (i = 0; i < 16; i++)
            x[i] = _mm_add_epi32(x[i], s[i]);
        for (i = 0; i < 4; i++)
            sse_store4(x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3], out + 16 * i);
    }
    if (done > 0)
        sse_clear();
    return done;
}
#endif /* MINTID_HAVE_CHACHA20_SSE2 */

#ifdef MINTID_HAVE_CHACHA20_AVX2
#include <cpuid.h>
#include <immintrin.h>

/* ---- AVX2: 8 blocks, chosen at run time ----------------------------------- */

/* The CPU has AVX2 (cpuid leaf 7) and the OS saves the YMM registers
 * (OSXSAVE, and XCR0's SSE and AVX bits). */
/* The low word of XCR0: which register states the OS saves (bit 1 SSE,
 * 2 AVX, 5-7 the AVX-512 opmask and ZMM registers). Only once OSXSAVE. */
static unsigned os_saved_states(void)
{
    unsigned lo, hi;

    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return lo;
}

int mintid_cpu_has_avx2(void)
{
    unsigned a, b, c, d;

    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX))
        return 0;
    if ((os_saved_states() & 6) != 6)
        return 0;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & bit_AVX2) != 0;
}

#define AVX2 __attribute__((target("avx2")))

/* ymm0-15 whole (zmm0-15 too where there are). */
AVX2 static void avx_clear(void)
{
    __asm__ volatile("vzeroall" : : : "memory", XMM_0_15);
}

/* Rotations by 16 and 8 are byte shuffles, one instruction; 12 and 7 two
 * shifts and an or. */
#define AVX_ROTL(v, n) _mm256_or_si256(_mm256_slli_epi32((v), (n)), _mm256_srli_epi32((v), 32 - (n)))
#define AVX_QR(a, b, c, d)                                                                        \
    do {                                                                                          \
        a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = _mm256_shuffle_epi8(d, rot16); \
        c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = AVX_ROTL(b, 12);              \
        a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a); d = _mm256_shuffle_epi8(d, rot8);  \
        c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c); b = AVX_ROTL(b, 7);               \
    } while (0)

/* Words 4g..4g+3 of 4 consecutive blocks in each 128-bit lane of the
 * registers w[0..3] (one register per word), transposed in each lane:
 * r[k] then holds those words of block k of each lane's four (AVX2: blocks
 * k and k + 4; AVX-512: k, k + 4, k + 8 and k + 12). W is 256 or 512. */
#define TRANSPOSE_LANES4(W, w, r)                                                       \
    do {                                                                                \
        __m##W##i ab_lo_ = _mm##W##_unpacklo_epi32((w)[0], (w)[1]);                    \
        __m##W##i ab_hi_ = _mm##W##_unpackhi_epi32((w)[0], (w)[1]);                    \
        __m##W##i cd_lo_ = _mm##W##_unpacklo_epi32((w)[2], (w)[3]);                    \
        __m##W##i cd_hi_ = _mm##W##_unpackhi_epi32((w)[2], (w)[3]);                    \
        (r)[0] = _mm##W##_unpacklo_epi64(ab_lo_, cd_lo_);                              \
        (r)[1] = _mm##W##_unpackhi_epi64(ab_lo_, cd_lo_);                              \
        (r)[2] = _mm##W##_unpacklo_epi64(ab_hi_, cd_hi_);                              \
        (r)[3] = _mm##W##_unpackhi_epi64(ab_hi_, cd_hi_);                              \
    } while (0)

AVX2 size_t mintid_chacha20_avx2(uint32_t in[16], uint8_t *out, size_t nblocks)
{
    size_t done;
    int i, k;

    for (done = 0; done + 8 <= nblocks; done += 8, out += 512, in[12] += 8) {
        const __m256i rot16 = _mm256_set_epi8(13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2,
                                              13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2);
        const __m256i rot8 = _mm256_set_epi8(14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3,
                                             14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3);
        __m256i s[16], x[16], g[4][4];

        for (i = 0; i < 16; i++)
            s[i] = _mm256_set1_epi32((int)in[i]);
        s[12] = _mm256_add_epi32(s[12], _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0));
        for (i = 0; i < 16; i++)
            x[i] = s[i];
        CHACHA_20_ROUNDS(AVX_QR, x);
        for (i = 0; i < 16; i++)
            x[i] = _mm256_add_epi32(x[i], s[i]);
        for (i = 0; i < 4; i++)
            TRANSPOSE_LANES4(256, x + 4 * i, g[i]);
        /* Block k: the low halves of g[0..3][k]; block k + 4: the high ones. */
        for (k = 0; k < 4; k++) {
            uint8_t *lo = out + 64 * k, *hi = out + 64 * (k + 4);

            _mm256_storeu_si256((__m256i *)(void *)lo, _mm256_permute2x128_si256(g[0][k], g[1][k], 0x20));
            _mm256_storeu_si256((__m256i *)(void *)(lo + 32), _mm256_permute2x128_si256(g[2][k], g[3][k], 0x20));
            _mm256_storeu_si256((__m256i *)(void *)hi, _mm256_permute2x128_si256(g[0][k], g[1][k], 0x31));
            _mm256_storeu_si256((__m256i *)(void *)(hi + 32), _mm256_permute2x128_si256(g[2][k], g[3][k], 0x31));
        }
    }
    if (done > 0)
        avx_clear();
    return done;
}
/* ---- AVX-512: 16 blocks, chosen at run time -------------------------------- */

/* The CPU has AVX-512F and the OS saves the opmask and ZMM registers too. */
int mintid_cpu_has_avx512(void)
{
    unsigned a, b, c, d;

    if (!mintid_cpu_has_avx2() || (os_saved_states() & 0xE6) != 0xE6)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & bit_AVX512F) != 0;
}

#define AVX512 __attribute__((target("avx512f")))

/* zmm0-15 by vzeroall, zmm16-31 (beyond its reach) by an EVEX xor of
 * their low lanes, which zeroes the rest of each. */
#define VPXORD(n) "vpxord %%xmm" #n ", %%xmm" #n ", %%xmm" #n "\n\t"
AVX512 static void avx512_clear(void)
{
    __asm__ volatile("vzeroall\n\t"
                     VPXORD(16) VPXORD(17) VPXORD(18) VPXORD(19) VPXORD(20) VPXORD(21) VPXORD(22) VPXORD(23)
                     VPXORD(24) VPXORD(25) VPXORD(26) VPXORD(27) VPXORD(28) VPXORD(29) VPXORD(30) VPXORD(31)
                     : : : "memory", XMM_0_15, "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",
                       "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31");
}
/* Before each loop over the registers: unrolled, each x[i] is a variable
 * of its own that lives in one of the 32 registers; rolled, GCC keeps the
 * arrays on the stack and loads and stores them in every round. (SSE2 and
 * AVX2 have 16 registers, too few for x[] alone: unrolling gains nothing.) */
#define UNROLLED _Pragma("GCC unroll 16")

/* AVX-512 rotates in one instruction. */
#define Z_QR(a, b, c, d)                                                                                   \
    do {                                                                                                   \
        a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a); d = _mm512_rol_epi32(d, 16);              \
        c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c); b = _mm512_rol_epi32(b, 12);              \
        a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a); d = _mm512_rol_epi32(d, 8);               \
        c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c); b = _mm512_rol_epi32(b, 7);               \
    } while (0)

AVX512 size_t mintid_chacha20_avx512(uint32_t in[16], uint8_t *out, size_t nblocks)
{
    const __m512i lanes = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    size_t done;
    int i, k;

    for (done = 0; done + 16 <= nblocks; done += 16, out += 1024, in[12] += 16) {
        /* The input words are broadcast again for the final add rather
         * than kept: 16 registers of them beside the 16 of x would not fit
         * in the 32 there are, and spills would put key words on the stack. */
        __m512i x[16], g[4][4];

        UNROLLED
        for (i = 0; i < 16; i++)
            x[i] = _mm512_set1_epi32((int)in[i]);
        x[12] = _mm512_add_epi32(x[12], lanes);
        CHACHA_20_ROUNDS(Z_QR, x);
        /* in[] may have changed for all the compiler knows: it reads the
         * words again instead of keeping their broadcasts across the rounds. */
        __asm__ volatile("" ::: "memory");
        UNROLLED
        for (i = 0; i < 16; i++)
            x[i] = _mm512_add_epi32(x[i], _mm512_set1_epi32((int)in[i]));
        x[12] = _mm512_add_epi32(x[12], lanes);
        UNROLLED
        for (i = 0; i < 4; i++)
            TRANSPOSE_LANES4(512, x + 4 * i, g[i]);
        /* Lane L of g[0..3][k] is block k + 4L: a 4x4 transpose of lanes. */
        UNROLLED
        for (k = 0; k < 4; k++) {
            __m512i t0 = _mm512_shuffle_i32x4(g[0][k], g[1][k], 0x44), t1 = _mm512_shuffle_i32x4(g[0][k], g[1][k], 0xEE);
            __m512i t2 = _mm512_shuffle_i32x4(g[2][k], g[3][k], 0x44), t3 = _mm512_shuffle_i32x4(g[2][k], g[3][k], 0xEE);

            _mm512_storeu_si512((void *)(out + 64 * k), _mm512_shuffle_i32x4(t0, t2, 0x88));
            _mm512_storeu_si512((void *)(out + 64 * (k + 4)), _mm512_shuffle_i32x4(t0, t2, 0xDD));
            _mm512_storeu_si512((void *)(out + 64 * (k + 8)), _mm512_shuffle_i32x4(t1, t3, 0x88));
            _mm512_storeu_si512((void *)(out + 64 * (k + 12)), _mm512_shuffle_i32x4(t1, t3, 0xDD));
        }
    }
    if (done > 0)
        avx512_clear();
    return done;
}
#endif /* MINTID_HAVE_CHACHA20_AVX2 */

#ifndef MINTID_HAVE_CHACHA20_SSE2
/* ISO C wants something in every translation unit. */
typedef int mintid_chacha20_simd_unused;
#endif
