/* chacha20.c: the ChaCha20 block function of RFC 8439 section 2.3, the
 * keystream behind random.c's user-space generator: the scalar one, and the
 * choice of implementation (chacha20_simd.c holds the vector ones). Words
 * are loaded and stored little-endian by shifts, so the output is the RFC's
 * on any host. */
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

/* nblocks blocks of the state in, in[12] the first one's counter. */
static void scalar_blocks(uint32_t in[16], uint8_t *out, size_t nblocks)
{
    size_t b;
    int i;

    for (b = 0; b < nblocks; b++, out += 64, in[12]++) {
        /* Sixteen named words, not an array: the compiler keeps them in
         * registers (some 20% faster than x[16] here). */
        uint32_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
        uint32_t x4 = in[4], x5 = in[5], x6 = in[6], x7 = in[7];
        uint32_t x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11];
        uint32_t x12 = in[12], x13 = in[13], x14 = in[14], x15 = in[15];

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
}

#ifdef MINTID_HAVE_CHACHA20_AVX2
/* What available() found of the CPU: -1 until a first call looked (once
 * per process: cpuid leaves a VM for its host, some microseconds). Atomic,
 * as any thread may look first. */
static int cpu_avx2 = -1, cpu_avx512 = -1;

static int cpu_has(int *found, int (*probe)(void))
{
    if (MINTID_LOAD_ACQUIRE(found) < 0)
        MINTID_STORE_RELEASE(found, probe());
    return MINTID_LOAD_ACQUIRE(found);
}
#endif

static int available(int impl)
{
    switch (impl) {
    case MINTID_CHACHA20_SCALAR:
        return 1;
#ifdef MINTID_HAVE_CHACHA20_SSE2
    case MINTID_CHACHA20_SSE2:
        return 1; /* every x86-64 CPU */
#endif
#ifdef MINTID_HAVE_CHACHA20_AVX2
    case MINTID_CHACHA20_AVX2:
        return cpu_has(&cpu_avx2, mintid_cpu_has_avx2);
    case MINTID_CHACHA20_AVX512:
        return cpu_has(&cpu_avx512, mintid_cpu_has_avx512);
#endif
    default:
        return 0;
    }
}

/* -1 until a first call chose. */
static int best_impl = -1;

int mintid_chacha20_best(void)
{
    int best = MINTID_LOAD_ACQUIRE(&best_impl);

    if (best < 0) {
        for (best = MINTID_CHACHA20_IMPLS - 1; !available(best); best--)
            ;
        MINTID_STORE_RELEASE(&best_impl, best);
    }
    return best;
}

const char *mintid_chacha20_name(int impl)
{
    static const char *const names[MINTID_CHACHA20_IMPLS] = { "scalar", "SSE2 (4 blocks)", "AVX2 (8 blocks)",
                                                                     "AVX-512 (16 blocks)" };

    return impl >= 0 && impl < MINTID_CHACHA20_IMPLS ? names[impl] : "none";
}

#ifdef MINTID_HAVE_CHACHA20_SSE2
/* The vector code's frames (its spills hold the key's words and the
 * keystream) lie below the caller's, where this one's array lands next:
 * overwritten, as the scalar code's input words are, for fast key erasure.
 * 4 KiB covers them (some 3 KiB for the AVX-512 code with GCC 12). */
static MINTID_NOINLINE void burn_vector_frames(void)
{
    unsigned char frames[4096];

    mintid_secure_zero(frames, sizeof frames);
}
#endif

int mintid_chacha20_blocks_by(int impl, const uint8_t key[32], uint32_t counter, const uint8_t nonce[12],
                              uint8_t *out, size_t nblocks)
{
    uint32_t in[16];
    size_t done = 0;
    int i;

    if (!available(impl))
        return MINTID_EARG;
    /* "expand 32-byte k" */
    in[0] = 0x61707865u; in[1] = 0x3320646eu; in[2] = 0x79622d32u; in[3] = 0x6b206574u;
    for (i = 0; i < 8; i++)
        in[4 + i] = load_le32(key + 4 * i);
    in[12] = counter;
    for (i = 0; i < 3; i++)
        in[13 + i] = load_le32(nonce + 4 * i);
#ifdef MINTID_HAVE_CHACHA20_AVX2
    if (impl == MINTID_CHACHA20_AVX512)
        done = mintid_chacha20_avx512(in, out, nblocks);
    if (impl >= MINTID_CHACHA20_AVX2)
        done += mintid_chacha20_avx2(in, out + 64 * done, nblocks - done);
#endif
#ifdef MINTID_HAVE_CHACHA20_SSE2
    if (impl >= MINTID_CHACHA20_SSE2) {
        done += mintid_chacha20_sse2(in, out + 64 * done, nblocks - done);
        burn_vector_frames();
    }
#endif
    scalar_blocks(in, out + 64 * done, nblocks - done);
    /* The key's words stay behind on the stack otherwise. */
    mintid_secure_zero(in, sizeof in);
    return MINTID_OK;
}

void mintid_chacha20_blocks(const uint8_t key[32], uint32_t counter, const uint8_t nonce[12],
                            uint8_t *out, size_t nblocks)
{
    (void)mintid_chacha20_blocks_by(mintid_chacha20_best(), key, counter, nonce, out, nblocks);
}
