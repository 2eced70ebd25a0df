/*
 * test_chacha_registers.c: a vector ChaCha20 refill (SSE2, AVX2, AVX-512)
 * leaves none of its keystream in the vector registers. The pool hands
 * those bytes out and wipes them, so a copy left in a register would outlive
 * them into signal frames and core dumps. Right after each refill of a
 * pool's batch (MINTID_RANDOM_BATCH_BLOCKS blocks), every register the CPU
 * has (xmm0-15, ymm0-15 or zmm0-31) is stored and searched for 8 bytes in a
 * row of that keystream. x86-64 only; prints TAP.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

#define WINDOW 8 /* bytes of the keystream that must not occur in a row */
#define BATCH (64 * MINTID_RANDOM_BATCH_BLOCKS)

#ifdef MINTID_HAVE_CHACHA20_SSE2
enum { XMM, YMM, ZMM };

static uint8_t keystream[BATCH];
static uint8_t regs[32][64]; /* register n at regs[n], as wide as the CPU's */

/* The widest registers this CPU has and the OS saves. */
static int widest(void)
{
#ifdef MINTID_HAVE_CHACHA20_AVX2
    if (mintid_cpu_has_avx512())
        return ZMM;
    if (mintid_cpu_has_avx2())
        return YMM;
#endif
    return XMM;
}

#define STORE_XMM(n) "movdqu %%xmm" #n ", " #n "*64(%0)\n\t"
#define STORE_YMM(n) "vmovdqu %%ymm" #n ", " #n "*64(%0)\n\t"
#define STORE_ZMM(n) "vmovdqu64 %%zmm" #n ", " #n "*64(%0)\n\t"
#define EACH_16(S) S(0) S(1) S(2) S(3) S(4) S(5) S(6) S(7) S(8) S(9) S(10) S(11) S(12) S(13) S(14) S(15)
#define EACH_HIGH_16(S) S(16) S(17) S(18) S(19) S(20) S(21) S(22) S(23) S(24) S(25) S(26) S(27) S(28) S(29) \
    S(30) S(31)

#define CLEAR_XMM(n) "pxor %%xmm" #n ", %%xmm" #n "\n\t"
#define CLEAR_ZMM(n) "vpxord %%xmm" #n ", %%xmm" #n ", %%xmm" #n "\n\t"
#define XMM_0_15 "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", \
                 "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

/* Every register zeroed first, so that what the test's own calls left in
 * them (qsort's copies of the keystream) is not taken for the refill's;
 * then a refill by impl, and the registers stored as it left them: nothing
 * runs between its return and the stores but the choice of their width. */
static MINTID_NOINLINE int refill_and_store(int impl, int width)
{
    static const uint8_t key[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                     17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };
    static const uint8_t nonce[12] = { 0 };
    int rc;

    if (width == ZMM)
        __asm__ volatile("vzeroall\n\t" EACH_HIGH_16(CLEAR_ZMM) : : : "memory", XMM_0_15);
    else if (width == YMM)
        __asm__ volatile("vzeroall" : : : "memory", XMM_0_15);
    else
        __asm__ volatile(EACH_16(CLEAR_XMM) : : : "memory", XMM_0_15);
    rc = mintid_chacha20_blocks_by(impl, key, 0, nonce, keystream, MINTID_RANDOM_BATCH_BLOCKS);
    if (width == ZMM)
        __asm__ volatile(EACH_16(STORE_ZMM) EACH_HIGH_16(STORE_ZMM) : : "r"(regs) : "memory");
    else if (width == YMM)
        __asm__ volatile(EACH_16(STORE_YMM) : : "r"(regs) : "memory");
    else
        __asm__ volatile(EACH_16(STORE_XMM) : : "r"(regs) : "memory");
    return rc;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

/* Registers holding WINDOW bytes in a row of the keystream, at any offset
 * in either; the first such register in *first. */
static int registers_holding_keystream(int width, int *first)
{
    static uint64_t runs[BATCH - WINDOW + 1];
    int reg_count = width == ZMM ? 32 : 16, reg, holding = 0;
    size_t bytes = width == ZMM ? 64 : width == YMM ? 32 : 16, i, at;

    for (i = 0; i + WINDOW <= BATCH; i++)
        memcpy(&runs[i], keystream + i, WINDOW);
    qsort(runs, BATCH - WINDOW + 1, sizeof runs[0], compare_u64);
    *first = -1;
    for (reg = 0; reg < reg_count; reg++)
        for (at = 0; at + WINDOW <= bytes; at++) {
            uint64_t run;

            memcpy(&run, regs[reg] + at, WINDOW);
            if (bsearch(&run, runs, BATCH - WINDOW + 1, sizeof runs[0], compare_u64) != NULL) {
                if (holding++ == 0)
                    *first = reg;
                break;
            }
        }
    return holding;
}

int main(void)
{
    static const char *const names[] = { "xmm0-15", "ymm0-15", "zmm0-31" };
    int width = widest(), impl;

    for (impl = MINTID_CHACHA20_SSE2; impl < MINTID_CHACHA20_IMPLS; impl++) {
        int first, holding;
        char which[40] = "";

        if (refill_and_store(impl, width) != MINTID_OK) {
            printf("# ChaCha20 %s: not on this CPU, skipped\n", mintid_chacha20_name(impl));
            continue;
        }
        holding = registers_holding_keystream(width, &first);
        if (holding > 0)
            snprintf(which, sizeof which, ", the first number %d", first);
        check(holding == 0, "ChaCha20 %s: after a refill of %d blocks, none of %s holds %d bytes in a row of its "
              "keystream (%d do%s)", mintid_chacha20_name(impl), MINTID_RANDOM_BATCH_BLOCKS, names[width], WINDOW,
              holding, which);
    }
    return tap_done();
}
#else
int main(void)
{
    printf("# no vector ChaCha20 in this build (x86-64 with GCC or clang only): skipped\n");
    return tap_done();
}
#endif
