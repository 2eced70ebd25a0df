/*
 * nanoid.c: Nano IDs (SPEC "Nano ID"), the reference's customRandom: draw
 * `step` bytes, keep byte & mask when it indexes the alphabet, repeat. The
 * default alphabet is its n = 64 case, where every byte is used.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_SYMBOLS 256
#define STACK_STEP  256

/*
 * Draws in a row that may give no symbol before the source is deemed
 * broken. mask is the smallest 2^k - 1 >= n - 1, so n > (mask + 1) / 2 and
 * a CSPRNG's byte is rejected with probability at most 1/2 (exactly 1/2
 * only for n = 1). Bytes can be rejected only when mask + 1 != n, and then
 * step = ceil(8 * mask * size / (5 * n)) >= 2 (mask >= n, or n = 1 and
 * mask = 1). A whole draw is thus rejected with probability <= 2^-2, and 64
 * in a row with probability <= 2^-128: far below 2^-100, so only a source
 * that is not random (a test hook giving one byte forever) gets here.
 */
#define MAX_EMPTY_DRAWS 64

MINTID_INTERNAL_DATA const char mintid_nanoid_default_alphabet[65] =
    "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict";

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs, no
 * surrogates, nothing past U+10FFFF), or 0 when there is none. */
static size_t utf8_sequence(const uint8_t *p, size_t avail)
{
    size_t need, i;
    uint8_t lo = 0x80, hi = 0xBF;

    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        need = 2;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF)
        need = 3;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4)
        need = 4;
    else
        return 0;
    if (avail < need)
        return 0;
    /* Only the second byte has a narrower range, and only after these leads. */
    if (p[0] == 0xE0)
        lo = 0xA0;
    else if (p[0] == 0xED)
        hi = 0x9F;
    else if (p[0] == 0xF0)
        lo = 0x90;
    else if (p[0] == 0xF4)
        hi = 0x8F;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (i = 2; i < need; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return need;
}

/*
 * 1-based offset of the first multi-byte character when the whole alphabet
 * is well-formed UTF-8 text holding one, else 0. Symbols are single bytes;
 * text like "αβγ" most likely meant its characters as symbols, which this
 * byte-wise generator would split, so it raises. Any byte that is not
 * UTF-8 ("αя\xFF", or a permutation of the 256 byte values) makes the whole
 * alphabet bytes, whatever pairs its order happens to form.
 */
static size_t multibyte_text_at(const uint8_t *a, size_t n)
{
    size_t i = 0, first = 0, len;

    while (i < n) {
        len = utf8_sequence(a + i, n - i);
        if (len == 0)
            return 0;
        if (len > 1 && first == 0)
            first = i + 1;
        i += len;
    }
    return first;
}

int mintid_nanoid_check_size(int64_t size, char *err)
{
    if (size < 1 || size > MINTID_NANOID_MAX_SIZE)
        return mintid_fail(err, MINTID_EARG, "size must be 1..%d, got %" PRId64, MINTID_NANOID_MAX_SIZE, size);
    return MINTID_OK;
}

/* SPEC step 2: the bytes a draw needs depend on the size as well as on n. */
static void set_size(mintid_nanoid_state *s, size_t size)
{
    s->size = size;
    if (s->mask + 1 == s->n) {
        s->step = size;
    } else {
        /* The reference's ceil(1.6 * mask * size / n), in exact integers. */
        uint64_t num = UINT64_C(8) * s->mask * size, den = UINT64_C(5) * s->n;
        s->step = (size_t)((num + den - 1) / den);
    }
}

int mintid_nanoid_spec_resize(mintid_nanoid_state *s, int64_t size, char *err)
{
    int rc = mintid_nanoid_check_size(size, err);

    if (rc == MINTID_OK)
        set_size(s, (size_t)size);
    return rc;
}

int mintid_nanoid_spec_init(mintid_nanoid_spec *pub, const uint8_t *alphabet, size_t alen,
                            int64_t size, char *err)
{
    mintid_nanoid_state *s = mintid_nanoid_state_of(pub);
    uint8_t seen[MAX_SYMBOLS];
    char what[8];
    size_t at, i;
    uint32_t top;
    int rc;

    if (alen == 0 || alen > MAX_SYMBOLS)
        return mintid_fail(err, MINTID_EARG, "alphabet must have 1 to 256 symbols, got %zu", alen);
    at = multibyte_text_at(alphabet, alen);
    if (at != 0)
        return mintid_fail(err, MINTID_EARG,
                           "alphabet symbols are single bytes, but it holds a multi-byte UTF-8 character at byte %zu",
                           at);
    memset(seen, 0, sizeof seen);
    for (i = 0; i < alen; i++) {
        if (seen[alphabet[i]])
            return mintid_fail(err, MINTID_EARG, "alphabet repeats the symbol %s at %zu",
                               mintid_describe_byte(alphabet[i], what), i + 1);
        seen[alphabet[i]] = 1;
    }
    rc = mintid_nanoid_check_size(size, err);
    if (rc != MINTID_OK)
        return rc;

    memcpy(s->alphabet, alphabet, alen);
    s->n = (uint32_t)alen;
    /* mask = (2 << floor(log2((n - 1) | 1))) - 1 */
    for (top = (s->n - 1) | 1, s->mask = 1; top > 1; top >>= 1)
        s->mask = s->mask << 1 | 1;
    set_size(s, (size_t)size);
    return MINTID_OK;
}

int mintid_nanoid_spec_default(mintid_nanoid_spec *s, char *err)
{
    return mintid_nanoid_spec_init(s, (const uint8_t *)mintid_nanoid_default_alphabet,
                                   sizeof mintid_nanoid_default_alphabet - 1, MINTID_NANOID_DEFAULT_SIZE, err);
}

int mintid_nanoid_valid(const mintid_nanoid_spec *pub, const char *text, size_t len)
{
    const mintid_nanoid_state *s = mintid_nanoid_state_of_const(pub);
    uint8_t in_alphabet[MAX_SYMBOLS];
    size_t i;

    if (len != s->size)
        return 0;
    memset(in_alphabet, 0, sizeof in_alphabet);
    for (i = 0; i < s->n; i++)
        in_alphabet[s->alphabet[i]] = 1;
    for (i = 0; i < len; i++)
        if (!in_alphabet[(unsigned char)text[i]])
            return 0;
    return 1;
}

size_t mintid_nanoid_spec_size(const mintid_nanoid_spec *s)
{
    return mintid_nanoid_state_of_const(s)->size;
}

/* ---- byte i to symbol i, for an alphabet of 2^k symbols ------------------
 * (no byte is rejected there and step is size). */

/* 8 bytes read and 8 symbols written at a time: an eighth of a byte loop's
 * loads and stores besides the table's. The fixed byte order (big endian)
 * keeps byte i at symbol i on every platform. */
static void map_words(const uint8_t *alphabet, uint32_t mask, const uint8_t *bytes, size_t size, uint8_t *out)
{
    size_t i;

    for (i = 0; i + 8 <= size; i += 8) {
        const uint64_t b = mintid_load_be64(bytes + i);
#define SYMBOL_AT(shift) ((uint64_t)alphabet[(b >> (shift)) & mask] << (shift))
        mintid_store_be64(out + i, SYMBOL_AT(56) | SYMBOL_AT(48) | SYMBOL_AT(40) | SYMBOL_AT(32) | SYMBOL_AT(24) |
                                       SYMBOL_AT(16) | SYMBOL_AT(8) | SYMBOL_AT(0));
#undef SYMBOL_AT
    }
    for (; i < size; i++)
        out[i] = alphabet[bytes[i] & mask];
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_MAP_SSSE3 1
#include <cpuid.h>
#include <tmmintrin.h>

/* -1 until a first call asked cpuid (SSSE3 is not in every x86-64 CPU's
 * base set, though in each one since 2006). */
static int ssse3_known = -1;

static inline int cpu_has_ssse3(void)
{
    int known = MINTID_LOAD_ACQUIRE(&ssse3_known);

    if (known < 0) {
        unsigned a, b, c, d;

        known = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) != 0;
        MINTID_STORE_RELEASE(&ssse3_known, known);
    }
    return known;
}

#define SSSE3 __attribute__((target("ssse3")))

/* 16 symbols at once: pshufb looks 16 indexes up in a table of 16 symbols;
 * an alphabet of up to 64 is up to 4 such tables (mask >> 4 is 0, 1 or 3),
 * and bits 4-5 of each index choose whose lookup it keeps. */
#define LOOKUP(t)                                                                                          \
    _mm_and_si128(_mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(alphabet + 16 * (t))), idx), \
                  _mm_cmpeq_epi8(table_of, _mm_set1_epi8(t)))
SSSE3 static inline void map16_ssse3(const uint8_t *alphabet, uint32_t mask, const uint8_t *bytes, uint8_t *out)
{
    const __m128i idx = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)bytes),
                                      _mm_set1_epi8((char)mask));
    /* Bits 4-5 (a 16-bit shift brings the next byte's bits in above them). */
    const __m128i table_of = _mm_and_si128(_mm_srli_epi16(idx, 4), _mm_set1_epi8(3));
    __m128i symbols;

    if (mask < 16)
        symbols = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)alphabet), idx);
    else if (mask < 32)
        symbols = _mm_or_si128(LOOKUP(0), LOOKUP(1));
    else
        symbols = _mm_or_si128(_mm_or_si128(LOOKUP(0), LOOKUP(1)), _mm_or_si128(LOOKUP(2), LOOKUP(3)));
    _mm_storeu_si128((__m128i *)(void *)out, symbols);
}
#undef LOOKUP

/* size >= 16, mask <= 63 (alphabet has 256 bytes: the tables never read
 * past it). The last 16 symbols at once too, over ones already written:
 * symbol i depends on byte i alone. (The bytes are mostly the pool's,
 * lent in place; a copy of them in a buffer the pool filled in pieces of
 * 16, 8, 4, 2 and 1 bytes costs that load a wait for those stores, a draw
 * the lent bytes did not serve: the first of a thread, or one across a
 * refill.) */
SSSE3 static void map_ssse3(const uint8_t *alphabet, uint32_t mask, const uint8_t *bytes, size_t size, uint8_t *out)
{
    size_t i;

    for (i = 0; i + 16 <= size; i += 16)
        map16_ssse3(alphabet, mask, bytes + i, out + i);
    if (i < size)
        map16_ssse3(alphabet, mask, bytes + size - 16, out + size - 16);
}
#endif

#ifdef HAVE_MAP_SSSE3
/* 1 if the SSSE3 map takes this alphabet (mask) and size on this CPU. */
static inline int ssse3_takes(uint32_t mask, size_t size)
{
    return mask <= 63 && size >= 16 && cpu_has_ssse3();
}
#endif

/* The best map here: what generate uses. */
static inline void map_symbols(const uint8_t *alphabet, uint32_t mask, const uint8_t *bytes, size_t size, uint8_t *out)
{
#ifdef HAVE_MAP_SSSE3
    if (ssse3_takes(mask, size)) {
        map_ssse3(alphabet, mask, bytes, size, out);
        return;
    }
#endif
    map_words(alphabet, mask, bytes, size, out);
}

int mintid_nanoid_map_by(int impl, const mintid_nanoid_state *s, const uint8_t *bytes, size_t size, uint8_t *out)
{
    if (s->mask + 1 != s->n)
        return MINTID_EARG;
    if (impl == MINTID_NANOID_MAP_WORDS) {
        map_words(s->alphabet, s->mask, bytes, size, out);
        return MINTID_OK;
    }
#ifdef HAVE_MAP_SSSE3
    if (impl == MINTID_NANOID_MAP_SSSE3 && ssse3_takes(s->mask, size)) {
        map_ssse3(s->alphabet, s->mask, bytes, size, out);
        return MINTID_OK;
    }
#endif
    return MINTID_EARG;
}

/* Every generation the lent bytes do not serve: SPEC's draws of step
 * bytes, from any source, with rejection where the alphabet needs it. */
static MINTID_NOINLINE int generate_drawn(const mintid_nanoid_state *s, mintid_random_fn rnd, void *ctx,
                                          uint8_t *out, char *err)
{
    uint8_t stack_buf[STACK_STEP];
    uint8_t *buf = stack_buf;
    /* In locals: out may alias *s as far as the compiler knows, which
     * would reload each of them after every symbol written. */
    const uint8_t *alphabet = s->alphabet;
    const uint32_t mask = s->mask, n = s->n;
    const size_t size = s->size, step = s->step;
    size_t got = 0;
    unsigned empty_draws = 0;
    int rc = MINTID_OK;

    if (step > STACK_STEP) {
        buf = malloc(step);
        if (buf == NULL)
            return mintid_fail(err, MINTID_ENOMEM, "out of memory for %zu random bytes", step);
    }
    while (got < size) {
        size_t i, before = got;

        rc = mintid_draw_random(rnd, ctx, buf, step, "Nano ID", err);
        if (rc != MINTID_OK)
            break;
        if (mask + 1 == n) {
            map_symbols(alphabet, mask, buf, size, out);
            got = size;
        }
        for (i = 0; i < step && got < size; i++) {
            uint32_t j = buf[i] & mask;
            if (j < n)
                out[got++] = alphabet[j];
        }
        empty_draws = got == before ? empty_draws + 1 : 0;
        if (empty_draws == MAX_EMPTY_DRAWS) {
            rc = mintid_fail(err, MINTID_ERANDOM, "Nano ID random source gave %d draws with no usable byte",
                             MAX_EMPTY_DRAWS);
            break;
        }
    }
    /* The drawn bytes determine the ID, which may serve as a token. */
    mintid_secure_zero_small(buf, step);
    if (buf != stack_buf)
        free(buf);
    return rc;
}

int mintid_nanoid_generate(const mintid_nanoid_state *s, mintid_random_fn rnd, void *ctx,
                           uint8_t *out, char *err)
{
    /* An alphabet of 2^k symbols from the pool, the default's case: one
     * draw of size bytes (step is size), mapped where the pool holds them.
     * The same bytes as the draw's, so the same symbols. */
    if (rnd == mintid_random_pool && s->mask + 1 == s->n) {
        uint8_t *lent = mintid_random_lend(s->size);

        if (lent != NULL) {
            map_symbols(s->alphabet, s->mask, lent, s->size, out);
            mintid_secure_zero_small(lent, s->size);
            return MINTID_OK;
        }
    }
    return generate_drawn(s, rnd, ctx, out, err);
}
