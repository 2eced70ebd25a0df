/*
 * cuid2.c: CUID2 (SPEC "CUID2"), as paralleldrive/cuid2's src/index.js
 * makes them: a random letter, then digits of the base-36 form of
 * SHA3-512(time + salt + counter + fingerprint). Every random choice is an
 * unbiased draw from the caller's source (the pool by default), where the
 * reference scales a float.
 */
#include <inttypes.h>
#include <string.h>

#include "internal.h"

#define COUNTER_START_MAX UINT32_C(476782367) /* the reference's initialCountMax */
#define HASH_DIGITS_MAX   100                 /* 36^99 < 2^512 <= 36^100 */
#define U64_DIGITS_MAX    13                  /* of 2^64 - 1 in base 36 */
/* Bytes a draw may reject in a row before the source is deemed broken: a
 * byte is rejected with probability at most 22/256 (a letter), so 64 in a
 * row come with probability below 2^-226 from a CSPRNG; only a test
 * source giving 0xFF forever gets here. */
#define MAX_REJECTED 64

static const char DIGITS[] = "0123456789abcdefghijklmnopqrstuvwxyz";

int mintid_cuid2_check_length(int64_t length, char *err)
{
    if (length < MINTID_CUID2_MIN_LEN || length > MINTID_CUID2_MAX_LEN)
        return mintid_fail(err, MINTID_EARG, "length must be %d..%d, got %" PRId64, MINTID_CUID2_MIN_LEN,
                           MINTID_CUID2_MAX_LEN, length);
    return MINTID_OK;
}

/* ---- base 36 --------------------------------------------------------------- */

/* v in base 36 as JavaScript's Number toString(36) writes an integer: most
 * significant first, "0" for 0. Returns the digit count. */
static size_t u64_base36(uint64_t v, char out[U64_DIGITS_MAX])
{
    char rev[U64_DIGITS_MAX];
    size_t n = 0, i;

    do {
        rev[n++] = DIGITS[v % 36];
        v /= 36;
    } while (v != 0);
    for (i = 0; i < n; i++)
        out[i] = rev[n - 1 - i];
    return n;
}

/* The digest as one 512-bit number X, written in base 36 as the
 * reference's bufToBigInt(...).toString(36) writes it, but only its
 * leading digits: an ID uses its first length + 1, the fingerprint its
 * first 33 of the 99 or so. Those are the digits of Q = floor(X / 36^m)
 * for any m up to the count of digits past them, and since 36^m = 4^m *
 * 9^m, Q is X shifted right by 2m bits, then divided by 9^m: a short
 * division of a number m * 5.17 bits shorter than X by a divisor of
 * m * 3.17 bits, where writing all of X needs 9 passes of 36^12 over the
 * whole of it. m is chosen for X of 96 digits or more (all but about
 * 2^-20.9 of digests); a smaller X is written from m = 0, all of it.
 *
 * Limbs of 64 bits where the compiler has a 128-bit product (GCC and
 * Clang on 64-bit hosts), each step a division of two limbs by one by a
 * precomputed reciprocal (Moller and Granlund, "Improved division by
 * invariant integers", 2011, algorithm 4), as a 128-bit division by a
 * variable is a slow library call; else limbs of 32 bits and plain 64-bit
 * divisions, which those compilers make multiplications. */
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 cuid2_u128;
typedef uint64_t cuid2_limb;
#define LIMB_BITS  64
#define NINES      20 /* 9^20 < 2^64 */
#define B36_DIGITS 12 /* 36^12 < 2^64 */

/* (hi:lo) / (dn >> s), the remainder to *hi, for hi < dn >> s: dn is the
 * divisor shifted left by s so that its top bit is set, v its reciprocal
 * floor((2^128 - 1) / dn) - 2^64. */
static inline cuid2_limb cuid2_div_step(cuid2_limb *hi, cuid2_limb lo, uint64_t dn, uint64_t v, unsigned s)
{
    uint64_t u1 = s != 0 ? *hi << s | lo >> (64 - s) : *hi, u0 = lo << s, q1, q0, r;
    cuid2_u128 q = (cuid2_u128)v * u1 + ((cuid2_u128)u1 << 64 | u0);

    uint64_t back;

    q1 = (uint64_t)(q >> 64) + 1;
    q0 = (uint64_t)q;
    r = u0 - q1 * dn;
    /* one back as often as not: by a mask, where a branch mispredicts */
    back = (uint64_t)0 - (uint64_t)(r > q0);
    q1 += back;
    r += back & dn;
    if (r >= dn) {
        q1++;
        r -= dn;
    }
    *hi = r >> s;
    return q1;
}
/* 9^20 (top bit set) and 2 * 36^12 with their reciprocals */
#define DIV_NINES(hi, lo) cuid2_div_step(hi, lo, UINT64_C(0xa8b8b452291fe821), UINT64_C(0x846d550e37b5063d), 0)
#define DIV_B36(hi, lo)   cuid2_div_step(hi, lo, UINT64_C(0x83843971c2000000), UINT64_C(0xf24f62335024a295), 1)
#else
typedef uint32_t cuid2_limb;
#define LIMB_BITS  32
#define NINES      10 /* 9^10 < 2^32 */
#define B36_DIGITS 6  /* 36^6 < 2^32 */

static inline cuid2_limb cuid2_div_step(cuid2_limb *hi, cuid2_limb lo, uint32_t d)
{
    uint64_t cur = (uint64_t)*hi << 32 | lo;

    *hi = (cuid2_limb)(cur % d);
    return (cuid2_limb)(cur / d);
}
#define DIV_NINES(hi, lo) cuid2_div_step(hi, lo, UINT32_C(3486784401)) /* 9^10 */
#define DIV_B36(hi, lo)   cuid2_div_step(hi, lo, UINT32_C(2176782336)) /* 36^6 */
#endif
#define LIMBS (512 / LIMB_BITS)
#define DIGITS_SURE 96 /* X has this many digits or more but with probability 2^-20.9 */

/* w[top..LIMBS) (most significant first) divided in place by the divisor
 * of DIV; returns the remainder and moves *top past the zero limbs. */
#define DIVIDE_PASS(w, top, DIV, rem)                            \
    do {                                                         \
        size_t i_;                                               \
        rem = 0;                                                 \
        for (i_ = *(top); i_ < LIMBS; i_++)                      \
            (w)[i_] = DIV(&rem, (w)[i_]);                        \
        while (*(top) < LIMBS && (w)[*(top)] == 0)               \
            (*(top))++;                                          \
    } while (0)

/* X shifted right by `bits` (under 512) into w; returns the first
 * nonzero limb's index (LIMBS for 0). */
static size_t load_shifted(const uint8_t digest[64], unsigned bits, cuid2_limb w[LIMBS])
{
    const unsigned whole = bits / LIMB_BITS, part = bits % LIMB_BITS;
    size_t i, top = 0;

    for (i = 0; i < LIMBS; i++) {
        const uint8_t *p = digest + i * (LIMB_BITS / 8);
#if LIMB_BITS == 64
        w[i] = mintid_load_be64(p);
#else
        w[i] = mintid_load_be32(p);
#endif
    }
    for (i = LIMBS; i-- > 0;) {
        cuid2_limb v = i >= whole ? w[i - whole] : 0;
        if (part != 0)
            v = v >> part | (i > whole ? w[i - whole - 1] << (LIMB_BITS - part) : 0);
        w[i] = v;
    }
    while (top < LIMBS && w[top] == 0)
        top++;
    return top;
}

/* The B36_DIGITS digits of v < 36^B36_DIGITS, least significant first:
 * two halves below 36^6 < 2^32 worked apart, two chains of 32-bit steps
 * where one of 64-bit steps would be twice as long. */
static void put_base36_digits(char *rev, cuid2_limb v)
{
    uint32_t lo = (uint32_t)(v % UINT32_C(2176782336)), hi = (uint32_t)(v / UINT32_C(2176782336));
    int k;

    for (k = 0; k < 6; k++) {
        rev[k] = DIGITS[lo % 36];
        lo /= 36;
        if (B36_DIGITS > 6) {
            rev[6 + k] = DIGITS[hi % 36];
            hi /= 36;
        }
    }
}

/* The digits of w in base 36 into rev, least significant first, no
 * leading zero: none for 0. Returns their count. */
static size_t limbs_base36(cuid2_limb w[LIMBS], size_t top, char rev[HASH_DIGITS_MAX + B36_DIGITS])
{
    size_t n = 0;

    while (top < LIMBS) {
        cuid2_limb rem;
        DIVIDE_PASS(w, &top, DIV_B36, rem);
        put_base36_digits(rev + n, rem);
        n += B36_DIGITS;
    }
    while (n > 0 && rev[n - 1] == '0')
        n--;
    return n;
}

/* The first min(count, need) digits of X to out, no leading zero ("0"
 * for 0); returns count, X's number of digits (1..100). */
static size_t digest_base36(const uint8_t digest[64], size_t need, char out[HASH_DIGITS_MAX])
{
    cuid2_limb w[LIMBS];
    char rev[HASH_DIGITS_MAX + B36_DIGITS];
    unsigned m = need < DIGITS_SURE ? (unsigned)(DIGITS_SURE - need) / NINES * NINES : 0;
    size_t top, n, i;

    for (;;) {
        unsigned j;
        top = load_shifted(digest, 2 * m, w);
        for (j = 0; j < m; j += NINES) {
            cuid2_limb rem;
            DIVIDE_PASS(w, &top, DIV_NINES, rem);
            (void)rem;
        }
        n = limbs_base36(w, top, rev);
        if (m == 0 || n >= need)
            break;
        m = 0; /* X has under DIGITS_SURE digits */
    }
    if (n == 0)
        rev[n++] = '0';
    for (i = 0; i < n && i < need; i++)
        out[i] = rev[n - 1 - i];
    mintid_secure_zero(w, sizeof w);
    mintid_secure_zero(rev, sizeof rev);
    return m + n;
}

/* ---- the random draws (SPEC "CUID2": how each is drawn) -------------------- */

/* Symbols of one radix from draws of `chunk` bytes: a byte below the
 * largest multiple of the radix gives byte % radix, any other is skipped;
 * the bytes of the last draw that no symbol used are dropped. */
typedef struct {
    mintid_random_fn rnd;
    void *ctx;
    uint8_t buf[MINTID_CUID2_MAX_LEN + 1];
    size_t chunk, pos;
} symbol_source;

static MINTID_ALWAYS_INLINE int next_symbol(symbol_source *s, unsigned radix, unsigned *value, char *err)
{
    const unsigned limit = 256 - 256 % radix;
    int rejected = 0, rc;

    for (;;) {
        uint8_t b;
        if (s->pos == s->chunk) {
            rc = mintid_draw_random(s->rnd, s->ctx, s->buf, s->chunk, "CUID2", err);
            if (rc != MINTID_OK)
                return rc;
            s->pos = 0;
        }
        b = s->buf[s->pos++];
        if (b < limit) {
            *value = b % radix;
            return MINTID_OK;
        }
        if (++rejected == MAX_REJECTED)
            return mintid_fail(err, MINTID_ERANDOM, "CUID2 random source gave %d bytes in a row that no symbol uses",
                               MAX_REJECTED);
    }
}

static void source_begin(symbol_source *s, mintid_random_fn rnd, void *ctx, size_t chunk)
{
    s->rnd = rnd;
    s->ctx = ctx;
    s->chunk = chunk;
    s->pos = chunk; /* the first symbol draws */
}

/* count base-36 digits (the reference's createEntropy) to out. */
static int draw_digits(symbol_source *s, size_t count, char *out, char *err)
{
    unsigned v = 0;
    size_t i;
    int rc;

    for (i = 0; i < count; i++) {
        rc = next_symbol(s, 36, &v, err);
        if (rc != MINTID_OK)
            return rc;
        out[i] = DIGITS[v];
    }
    return MINTID_OK;
}

/* The counter's start, uniform below 476782367: 4-byte big-endian draws,
 * each kept when below the largest multiple of that bound under 2^32. */
static int draw_counter(mintid_random_fn rnd, void *ctx, uint64_t *counter, char *err)
{
    const uint32_t limit = UINT32_MAX - (uint32_t)((UINT64_C(1) << 32) % COUNTER_START_MAX) + 1;
    uint8_t b[4];
    int tries, rc;

    for (tries = 0; tries < MAX_REJECTED; tries++) {
        uint32_t v;
        rc = mintid_draw_random(rnd, ctx, b, sizeof b, "CUID2", err);
        if (rc != MINTID_OK)
            return rc;
        v = mintid_load_be32(b);
        if (v < limit) {
            *counter = v % COUNTER_START_MAX;
            return MINTID_OK;
        }
    }
    return mintid_fail(err, MINTID_ERANDOM, "CUID2 random source gave %d counter draws in a row out of range",
                       MAX_REJECTED);
}

/* The reference's createFingerprint with no global object: the first 32
 * digits of hash(32 random base-36 digits), hash dropping the first
 * digit. Nothing of the process but the pool's entropy goes in: the pool
 * is already unique to the process and fresh in a forked child. */
static int draw_fingerprint(mintid_random_fn rnd, void *ctx, char fp[MINTID_CUID2_FINGERPRINT_LEN], char *err)
{
    symbol_source s;
    char entropy[MINTID_CUID2_FINGERPRINT_LEN], digits[HASH_DIGITS_MAX];
    uint8_t digest[64];
    size_t n;
    int rc;

    source_begin(&s, rnd, ctx, sizeof entropy);
    rc = draw_digits(&s, sizeof entropy, entropy, err);
    if (rc == MINTID_OK) {
        mintid_sha3_512((const uint8_t *)entropy, sizeof entropy, digest);
        n = digest_base36(digest, 1 + MINTID_CUID2_FINGERPRINT_LEN, digits);
        /* 33 digits or more but with probability 36^-67 */
        if (n < 1 + MINTID_CUID2_FINGERPRINT_LEN)
            rc = mintid_fail(err, MINTID_ERANDOM, "CUID2 fingerprint hash has only %zu base-36 digits", n);
        else
            memcpy(fp, digits + 1, MINTID_CUID2_FINGERPRINT_LEN);
    }
    mintid_secure_zero(&s, sizeof s);
    mintid_secure_zero(entropy, sizeof entropy);
    return rc;
}

/* The counter, and a fingerprint unless one is given, of the process
 * calling: drawn on a first call and in a forked child. */
static int make_ready(mintid_cuid2_moving *m, int draw_fingerprint_too, mintid_random_fn rnd, void *ctx, char *err)
{
    uint32_t generation = mintid_os_fork_generation();
    int rc;

    if (m->ready && m->generation == generation)
        return MINTID_OK;
    rc = draw_counter(rnd, ctx, &m->counter, err);
    if (rc == MINTID_OK && draw_fingerprint_too)
        rc = draw_fingerprint(rnd, ctx, m->fingerprint, err);
    if (rc != MINTID_OK)
        return rc;
    m->generation = generation;
    m->ready = 1;
    return MINTID_OK;
}

/* ---- an ID ------------------------------------------------------------------- */

/* Checked before anything is drawn: time is written in base 36 unsigned. */
static int check_time(int64_t now_ms, char *err)
{
    if (now_ms < 0)
        return mintid_fail(err, MINTID_ERANGE, "CUID2 timestamp %" PRId64 " is before 1970", now_ms);
    return MINTID_OK;
}

/* The reference's cuid2(): a letter, then a salt of `length` digits (one
 * draw source of length + 1 bytes), hash(time + salt + count + fingerprint)
 * with its first digit dropped, and its digits 1 up to length. Returns the
 * length written: `length` but for a hash of under length + 1 digits
 * (probability 36^-(99 - length)), which gives the shorter ID the
 * reference gives. */
static int make_id(int64_t now_ms, uint64_t count, const uint8_t *fp, size_t fp_len, size_t length,
                   mintid_random_fn rnd, void *ctx, char out[MINTID_CUID2_MAX_LEN], char *err)
{
    symbol_source s;
    mintid_sha3_512_ctx h;
    char salt[MINTID_CUID2_MAX_LEN], num[U64_DIGITS_MAX], digits[HASH_DIGITS_MAX];
    uint8_t digest[64];
    unsigned letter = 0;
    size_t n, take;
    int rc;

    source_begin(&s, rnd, ctx, length + 1);
    rc = next_symbol(&s, 26, &letter, err);
    if (rc == MINTID_OK)
        rc = draw_digits(&s, length, salt, err);
    mintid_secure_zero(&s, sizeof s);
    if (rc != MINTID_OK)
        return rc;

    mintid_sha3_512_init(&h);
    n = u64_base36((uint64_t)now_ms, num);
    mintid_sha3_512_update(&h, (const uint8_t *)num, n);
    mintid_sha3_512_update(&h, (const uint8_t *)salt, length);
    n = u64_base36(count, num);
    mintid_sha3_512_update(&h, (const uint8_t *)num, n);
    mintid_sha3_512_update(&h, fp, fp_len);
    mintid_sha3_512_final(&h, digest);
    n = digest_base36(digest, length + 1, digits);

    out[0] = (char)('a' + letter);
    take = n > 2 ? n - 2 : 0;
    if (take > length - 1)
        take = length - 1;
    memcpy(out + 1, digits + 2, take);
    mintid_secure_zero(salt, sizeof salt);
    mintid_secure_zero(digits, sizeof digits);
    return (int)(1 + take);
}

int mintid_cuid2_gen_next(mintid_cuid2_state *g, int64_t now_ms, mintid_random_fn rnd, void *ctx,
                          char out[MINTID_CUID2_MAX_LEN], char *err)
{
    mintid_cuid2_moving m = g->m;
    const uint8_t *fp;
    size_t fp_len;
    int rc;

    rc = check_time(now_ms, err);
    if (rc == MINTID_OK)
        rc = make_ready(&m, g->given_len == 0, rnd, ctx, err);
    if (rc != MINTID_OK)
        return rc;
    fp = g->given_len != 0 ? g->given : (const uint8_t *)m.fingerprint;
    fp_len = g->given_len != 0 ? g->given_len : sizeof m.fingerprint;
    rc = make_id(now_ms, m.counter, fp, fp_len, g->length, rnd, ctx, out, err);
    if (rc < 0)
        return rc;
    m.counter++;
    g->m = m;
    return rc;
}

int mintid_cuid2_gen_init(mintid_cuid2_gen *pub, int64_t length, const uint8_t *fingerprint, size_t fingerprint_len,
                          char *err)
{
    mintid_cuid2_state *g = mintid_cuid2_state_of(pub);
    int rc = mintid_cuid2_check_length(length, err);

    if (rc != MINTID_OK)
        return rc;
    if (fingerprint != NULL && (fingerprint_len == 0 || fingerprint_len > MINTID_CUID2_FINGERPRINT_MAX))
        return mintid_fail(err, MINTID_EARG, "fingerprint must be 1..%d bytes, got %zu", MINTID_CUID2_FINGERPRINT_MAX,
                           fingerprint_len);
    memset(g, 0, sizeof *g);
    g->length = (uint32_t)length;
    if (fingerprint != NULL) {
        memcpy(g->given, fingerprint, fingerprint_len);
        g->given_len = (uint32_t)fingerprint_len;
    }
    return MINTID_OK;
}

int mintid_cuid2_gen_next_text(mintid_cuid2_gen *g, char out[MINTID_CUID2_MAX_LEN], char *err)
{
    int64_t now = 0;
    int rc = mintid_os_clock_ms(&now, err);

    if (rc != MINTID_OK)
        return rc;
    return mintid_cuid2_gen_next(mintid_cuid2_state_of(g), now, mintid_random_pool, err, out, err);
}

/* ---- the process-wide generator ------------------------------------------- */

/* Its counter and fingerprint under a lock held for the step alone (the
 * draws of a first call or a forked child's too, rare); the salt, the
 * hash and the digits outside it. The lock is held across fork(), so no
 * child starts with it taken. */
static mintid_lock cuid2_lock = MINTID_LOCK_INIT;
static mintid_cuid2_moving cuid2_moving; /* under cuid2_lock */
static mintid_once cuid2_once = MINTID_ONCE_INIT;
static int cuid2_ready;

static void cuid2_prepare(void) { mintid_lock_take(&cuid2_lock); }
static void cuid2_unlock(void) { mintid_lock_release(&cuid2_lock); }

static void cuid2_setup(void)
{
    mintid_os_atfork(cuid2_prepare, cuid2_unlock, cuid2_unlock);
    MINTID_STORE_RELEASE(&cuid2_ready, 1);
}

int mintid_cuid2_text(int64_t length, char out[MINTID_CUID2_MAX_LEN], char *err)
{
    char fp[MINTID_CUID2_FINGERPRINT_LEN];
    uint64_t count = 0;
    int64_t now = 0;
    int rc = mintid_cuid2_check_length(length, err);

    if (rc != MINTID_OK)
        return rc;
    if (!MINTID_LOAD_ACQUIRE(&cuid2_ready))
        mintid_run_once(&cuid2_once, cuid2_setup);
    rc = mintid_os_clock_ms(&now, err);
    if (rc == MINTID_OK)
        rc = check_time(now, err);
    if (rc != MINTID_OK)
        return rc;
    mintid_lock_take(&cuid2_lock);
    rc = make_ready(&cuid2_moving, 1, mintid_random_pool, err, err);
    if (rc == MINTID_OK) {
        count = cuid2_moving.counter++;
        memcpy(fp, cuid2_moving.fingerprint, sizeof fp);
    }
    mintid_lock_release(&cuid2_lock);
    if (rc != MINTID_OK)
        return rc;
    /* A failure here skips one count: no ID was published with it. */
    return make_id(now, count, (const uint8_t *)fp, sizeof fp, (size_t)length, mintid_random_pool, err, out, err);
}

/* ---- validation --------------------------------------------------------------- */

/* The reference's isCuid: /^[a-z][0-9a-z]+$/ and a length within bounds. */
int mintid_cuid2_valid(const char *text, size_t len, int64_t min_len, int64_t max_len)
{
    size_t i;

    if (len < 2 || (int64_t)len < min_len || (int64_t)len > max_len)
        return 0;
    if (text[0] < 'a' || text[0] > 'z')
        return 0;
    for (i = 1; i < len; i++)
        if (!((text[i] >= 'a' && text[i] <= 'z') || (text[i] >= '0' && text[i] <= '9')))
            return 0;
    return 1;
}
