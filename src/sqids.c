/*
 * sqids.c: Sqids (SPEC "Sqids"), the algorithm of the specification's
 * reference (sqids-spec src/index.ts) over bytes: the same shuffle, offset,
 * separators, min_length padding, blocklist filtering and re-encoding, with
 * 64-bit unsigned numbers. Symbols are ASCII bytes (the reference refuses
 * multibyte ones), so an alphabet has at most 128 of them and every
 * working copy of it fits on the stack: encoding allocates nothing.
 *
 * The blocklist check is the reference's isBlockedId, made fast: a word (of
 * 3 bytes or more) can only match where the ID's three lowercased bytes at
 * that place begin it, so the words are bucketed by a hash of their first
 * three and each place of the ID looks at one bucket, most often empty (the
 * reference scans every word at every call). Once the ID is written,
 * every other place reads one bit of a filter of FILTER_BITS, with no
 * branch (maybe_blocked has why every other one is enough): about 1 ID in
 * 14 of the default encoder finds one set, and only those look at the
 * buckets.
 */
#include <inttypes.h>
#include <string.h>

#include "internal.h"

#define MAX_SYMBOLS 128
#define BUCKETS     4096 /* for the 560 default words: mostly 0 or 1 a bucket */
#define FILTER_BITS 32768 /* 4 KiB: a bit for each three 5-bit codes of bytes (code_of) */
#define NO_SYMBOL   0xFF
/* A loop of a constant count unrolled whole, which -O2 does not do: its
 * steps' chains side by side, and no count kept (encode_one). */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define PRAGMA_TEXT(x) #x
#define UNROLL(count)  _Pragma(PRAGMA_TEXT(GCC unroll count))
#else
#define UNROLL(count)
#endif
#define DEFAULT_PER 4 /* digits_per_chunk of 38..91 symbols, the default's 62 among them: encode_one */
#define KEY_SYMBOLS 12 /* the 5-bit codes one 64-bit key holds: encode_one */

MINTID_INTERNAL_DATA const char mintid_sqids_default_alphabet[63] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* A word of the filtered blocklist: its lowercased bytes at off from the
 * start of the encoder's memory, the first three also in key. */
typedef struct {
    uint32_t off;
    uint32_t len;
    uint32_t key;
    uint32_t has_digit; /* the reference's /\d/: such a word matches at either end only */
} sqids_word;

typedef struct {
    uint8_t alphabet[MAX_SYMBOLS]; /* shuffled once, as the reference's constructor does */
    uint8_t reversed[2 * MAX_SYMBOLS]; /* alphabet[(n - 1 - k) mod n], k < 2n: an encode's working
                                        * alphabet at offset is reversed + n - offset (no copy) */
    uint8_t pos[MAX_SYMBOLS];      /* byte -> its place in alphabet, NO_SYMBOL if none */
    uint8_t code[MAX_SYMBOLS];     /* byte -> its filter code, code_of */
    uint32_t n;                    /* symbols, 3..128 */
    uint32_t min_length;           /* 0..255 */
    /* Division without a divide instruction (the hot path's cost): x / n
     * for the shuffle's x < 2^15 is (x * n_magic) >> 32, x / (n - 1) for
     * x < 2^26 is (x * digit_magic) >> 33, both exact (mintid_sqids_init
     * says why); a number is cut into chunks of digits_per_chunk digits below
     * chunk = (n - 1)^digits_per_chunk <= 2^26 by multiply-high
     * divisions (mintid_div_quotient, divide.c). */
    uint64_t n_magic, digit_magic, chunk;
    uint32_t digits_per_chunk;
    uint32_t power[26]; /* (n - 1)^k below digits_per_chunk <= 26: a chunk's digit count */
    uint64_t fraction[27]; /* ceil(2^52 / (n - 1)^(k - 1)): write_digits of k digits */
    uint64_t chunk_magic, n_magic64; /* v / chunk and v / n for any 64-bit v: mintid_div_quotient */
    uint32_t chunk_shift, n_shift;
    uint64_t chunk2_magic; /* v / chunk^2 (below 2^52) beside v / chunk: encode_one */
    uint32_t chunk2_shift;
    uint8_t rcode[2 * MAX_SYMBOLS]; /* code[reversed[k]]: a digit's filter code with no symbol read */
    uint8_t one_offset[MAX_SYMBOLS]; /* (1 + alphabet[k]) mod n: the first offset of one number, k = v mod n */
    uint32_t n_words; /* after the state when not 0: uint64_t filter[FILTER_BITS / 64],
                       * uint32_t bucket[BUCKETS + 1] (the words of bucket b are
                       * [bucket[b], bucket[b + 1])), the sqids_word table, the
                       * words' bytes */
    uint64_t size;    /* the whole memory, words included */
} sqids_state;
MINTID_OPAQUE_STATE(mintid_sqids, sqids_state, sqids_state_of)

static inline uint8_t lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* The three lowercased bytes at p, the first one highest. */
static inline uint32_t key_of(const uint8_t *p)
{
    return (uint32_t)lower(p[0]) << 16 | (uint32_t)lower(p[1]) << 8 | (uint32_t)lower(p[2]);
}

/* A byte's code in the filter, 0..31: a letter's low 5 bits (its two
 * cases share them), any other byte's too, which a filter allows (it only
 * rules places out), but for digits, whose low 5 bits are those of p..y:
 * the default words' digits (0 for o, 1 for i or l) would let an ID's
 * p..y through, and an ID's digits the words' p..y. With codes no letter
 * has (0 and 1 alone, the rest in pairs), 1 ID in 20 of the default
 * encoder finds a place instead of 1 in 10. Read from the encoder's
 * code[]: a table read costs the hot path no more than the mask did. */
static uint8_t code_of(uint8_t c)
{
    static const uint8_t digit[10] = { 27, 28, 29, 29, 30, 30, 31, 31, 0, 0 };

    c = lower(c);
    return c >= '0' && c <= '9' ? digit[c - '0'] : (uint8_t)(c & 31u);
}

/* The filter's bit of a place, from the codes of its three bytes (folded
 * holds the first two): the key's older bytes fall off the top. */
static inline uint32_t filter_bit_of(uint32_t folded, uint8_t code)
{
    return (folded << 5 | code) & (FILTER_BITS - 1);
}

static inline uint32_t bucket_of(uint32_t key)
{
    return (key * UINT32_C(2654435761)) >> 20; /* Fibonacci hashing to 12 bits */
}

/* An encoder with no words reads this filter: no bit set. */
static const uint64_t no_words[FILTER_BITS / 64];

static inline const uint64_t *filter_of(const sqids_state *st)
{
    if (st->n_words == 0)
        return no_words;
    return (const uint64_t *)(const void *)((const uint8_t *)st + sizeof(mintid_sqids));
}

/* The words' memory, when there are words. */
static inline const uint32_t *buckets_of(const sqids_state *st)
{
    return (const uint32_t *)(const void *)((const uint8_t *)st + sizeof(mintid_sqids) + FILTER_BITS / 8);
}

static inline const sqids_word *words_of(const sqids_state *st)
{
    return (const sqids_word *)(const void *)(buckets_of(st) + BUCKETS + 1);
}

static inline uint64_t chunk_quotient(const sqids_state *st, uint64_t v)
{
    return mintid_div_quotient(st->chunk_magic, st->chunk_shift, v);
}

/* v mod n, the symbols. */
static inline uint32_t mod_n(const sqids_state *st, uint64_t v)
{
    return (uint32_t)(v - mintid_div_quotient(st->n_magic64, st->n_shift, v) * st->n);
}

/* x mod n for x < 2^15 (n_magic). */
static inline uint32_t small_mod_n(const sqids_state *st, uint32_t x)
{
    return x - (uint32_t)((x * st->n_magic) >> 32) * st->n;
}

/* The reference's consistent shuffle, in place. */
static void shuffle(const sqids_state *st, uint8_t *w)
{
    uint32_t i, j;

    for (i = 0, j = st->n - 1; j > 0; i++, j--) {
        uint32_t r = small_mod_n(st, i * j + w[i] + w[j]);
        uint8_t t = w[i];
        w[i] = w[r];
        w[r] = t;
    }
}

/* ---- construction -------------------------------------------------------- */

/* Word i of the given list, or of the default one when words is NULL. */
static const uint8_t *word_at(const uint8_t *const *words, const size_t *lens, size_t i, size_t *len)
{
    if (words == NULL) {
        *len = strlen(mintid_sqids_default_words[i]);
        return (const uint8_t *)mintid_sqids_default_words[i];
    }
    *len = lens[i];
    return words[i];
}

/* The reference's filter: at least 3 symbols, each one, lowercased, a
 * symbol of the lowercased alphabet (allowed[]). */
static int word_kept(const uint8_t allowed[256], const uint8_t *w, size_t len)
{
    size_t i;

    if (len < 3)
        return 0;
    for (i = 0; i < len; i++)
        if (!allowed[lower(w[i])])
            return 0;
    return 1;
}

static void allowed_of(const uint8_t *alphabet, size_t alen, uint8_t allowed[256])
{
    size_t i;

    memset(allowed, 0, 256);
    for (i = 0; i < alen; i++)
        allowed[lower(alphabet[i])] = 1;
}

size_t mintid_sqids_size(const uint8_t *alphabet, size_t alen, const uint8_t *const *words,
                         const size_t *word_lens, size_t n_words)
{
    uint8_t allowed[256];
    size_t i, kept = 0, size = sizeof(mintid_sqids);

    if (words == NULL)
        n_words = MINTID_SQIDS_DEFAULT_WORDS;
    allowed_of(alphabet, alen, allowed);
    for (i = 0; i < n_words; i++) {
        size_t len;
        const uint8_t *w = word_at(words, word_lens, i, &len);
        if (word_kept(allowed, w, len)) {
            size += sizeof(sqids_word) + len;
            kept++;
        }
    }
    return kept > 0 ? size + FILTER_BITS / 8 + (BUCKETS + 1) * sizeof(uint32_t) : size;
}

static int check_sqids_alphabet(const uint8_t *alphabet, size_t alen, char *err)
{
    uint8_t seen[MAX_SYMBOLS];
    size_t i;

    for (i = 0; i < alen; i++)
        if (alphabet[i] >= MAX_SYMBOLS)
            return mintid_fail(err, MINTID_EARG, "alphabet cannot contain multibyte characters");
    if (alen < 3)
        return mintid_fail(err, MINTID_EARG, "alphabet must have at least 3 symbols, got %zu", alen);
    memset(seen, 0, sizeof seen);
    for (i = 0; i < alen; i++) {
        if (seen[alphabet[i]])
            return mintid_fail(err, MINTID_EARG, "alphabet must contain unique characters, '%c' repeats",
                               alphabet[i] >= 32 && alphabet[i] < 127 ? alphabet[i] : '?');
        seen[alphabet[i]] = 1;
    }
    return MINTID_OK;
}

int mintid_sqids_init(mintid_sqids *s, size_t size, const uint8_t *alphabet, size_t alen, int64_t min_length,
                      const uint8_t *const *words, const size_t *word_lens, size_t n_words, char *err)
{
    sqids_state *st = sqids_state_of(s);
    uint8_t allowed[256];
    uint64_t *filter;
    uint32_t *bucket;
    sqids_word *table;
    size_t i, need, kept = 0, off;
    int rc = check_sqids_alphabet(alphabet, alen, err);

    if (rc != MINTID_OK)
        return rc;
    if (min_length < 0 || min_length > MINTID_SQIDS_MAX_MIN_LENGTH)
        return mintid_fail(err, MINTID_EARG, "min_length must be 0..%d, got %" PRId64,
                           MINTID_SQIDS_MAX_MIN_LENGTH, min_length);
    need = mintid_sqids_size(alphabet, alen, words, word_lens, n_words);
    if (size < need)
        return mintid_fail(err, MINTID_EARG, "sqids encoder needs %zu bytes, got %zu", need, size);
    if (need > UINT32_MAX)
        return mintid_fail(err, MINTID_EARG, "sqids blocklist of %zu bytes is too large", need);
    if (words == NULL)
        n_words = MINTID_SQIDS_DEFAULT_WORDS;

    memset(st, 0, sizeof *st);
    memcpy(st->alphabet, alphabet, alen);
    st->n = (uint32_t)alen;
    /* With m = ceil(2^s / d), m * d = 2^s + e with 0 <= e < d, and
     * (x * m) >> s = floor(x / d + x * e / (d * 2^s)), which is floor(x /
     * d) whenever x * e < 2^s. The shuffle's x < 2^15 and e < n <= 128
     * (s = 32); a chunk's x < 2^26 and e < 127 (s = 33): both hold, with
     * the products below 2^64. */
    st->n_magic = mintid_div_ceil_pow2(32, st->n);
    st->digit_magic = mintid_div_ceil_pow2(33, st->n - 1);
    st->chunk = st->n - 1;
    st->digits_per_chunk = 1;
    st->power[0] = 1;
    st->fraction[1] = UINT64_C(1) << 52;
    while (st->chunk * (st->n - 1) <= (UINT64_C(1) << 26)) {
        st->power[st->digits_per_chunk++] = (uint32_t)st->chunk;
        st->fraction[st->digits_per_chunk] = mintid_div_ceil_pow2(52, st->chunk);
        st->chunk *= st->n - 1;
    }
    st->chunk_magic = mintid_div_magic(st->chunk, &st->chunk_shift);
    st->n_magic64 = mintid_div_magic(st->n, &st->n_shift);
    st->chunk2_magic = mintid_div_magic(st->chunk * st->chunk, &st->chunk2_shift);
    shuffle(st, st->alphabet);
    for (i = 0; i < alen; i++)
        st->one_offset[i] = (uint8_t)small_mod_n(st, 1 + st->alphabet[i]);
    memset(st->pos, NO_SYMBOL, sizeof st->pos);
    for (i = 0; i < MAX_SYMBOLS; i++)
        st->code[i] = code_of((uint8_t)i);
    for (i = 0; i < alen; i++) {
        st->pos[st->alphabet[i]] = (uint8_t)i;
        st->reversed[alen - 1 - i] = st->reversed[2 * alen - 1 - i] = st->alphabet[i];
        st->rcode[alen - 1 - i] = st->rcode[2 * alen - 1 - i] = st->code[st->alphabet[i]];
    }
    st->min_length = (uint32_t)min_length;
    st->size = need;

    /* The words by bucket, a counting sort: count, then each bucket's end,
     * then each word placed below its bucket's end, which leaves every
     * bucket[b] at its start. */
    allowed_of(alphabet, alen, allowed);
    for (i = 0; i < n_words; i++) {
        size_t len;
        const uint8_t *w = word_at(words, word_lens, i, &len);
        kept += word_kept(allowed, w, len);
    }
    st->n_words = (uint32_t)kept;
    if (kept == 0)
        return MINTID_OK;
    filter = (uint64_t *)(void *)((uint8_t *)s + sizeof(mintid_sqids));
    bucket = (uint32_t *)(void *)(filter + FILTER_BITS / 64);
    memset(filter, 0, FILTER_BITS / 8);
    memset(bucket, 0, (BUCKETS + 1) * sizeof *bucket);
    for (i = 0; i < n_words; i++) {
        size_t len;
        const uint8_t *w = word_at(words, word_lens, i, &len);
        if (word_kept(allowed, w, len)) {
            uint32_t f = filter_bit_of(filter_bit_of(filter_bit_of(0, code_of(w[0])), code_of(w[1])),
                                       code_of(w[2]));
            bucket[bucket_of(key_of(w))]++;
            filter[f / 64] |= UINT64_C(1) << (f % 64);
            if (len >= 4) { /* its next three too: maybe_blocked */
                f = filter_bit_of(f, code_of(w[3]));
                filter[f / 64] |= UINT64_C(1) << (f % 64);
            }
        }
    }
    for (i = 1; i <= BUCKETS; i++)
        bucket[i] += bucket[i - 1];
    table = (sqids_word *)(void *)(bucket + BUCKETS + 1);
    off = (size_t)((uint8_t *)(table + kept) - (uint8_t *)s);
    for (i = 0; i < n_words; i++) {
        size_t len, k;
        const uint8_t *w = word_at(words, word_lens, i, &len);
        uint8_t *to = (uint8_t *)s + off;
        sqids_word *e;
        if (!word_kept(allowed, w, len))
            continue;
        e = &table[--bucket[bucket_of(key_of(w))]];
        e->off = (uint32_t)off;
        e->len = (uint32_t)len;
        e->key = key_of(w);
        e->has_digit = 0;
        for (k = 0; k < len; k++) {
            to[k] = lower(w[k]);
            if (to[k] >= '0' && to[k] <= '9')
                e->has_digit = 1;
        }
        off += len;
    }
    return MINTID_OK;
}

/* ---- encoding ------------------------------------------------------------ */

/* Symbols of v in base n - 1 (at least 1): whole chunks, then the rest. */
static size_t digit_count(const sqids_state *st, uint64_t v)
{
    size_t d = 1;
    uint32_t x;

    while (v >= st->chunk) {
        v = chunk_quotient(st, v);
        d += st->digits_per_chunk;
    }
    for (x = (uint32_t)v; x >= st->n - 1; d++)
        x = (uint32_t)((x * st->digit_magic) >> 33);
    return d;
}

size_t mintid_sqids_encoded_len(const mintid_sqids *s, const uint64_t *numbers, size_t n)
{
    const sqids_state *st = sqids_state_of_const(s);
    size_t i, len;

    if (n == 0)
        return 0;
    len = n; /* the prefix and n - 1 separators */
    for (i = 0; i < n; i++)
        len += digit_count(st, numbers[i]);
    return len > st->min_length ? len : st->min_length;
}

static inline int same_lowered(const uint8_t *id, const uint8_t *word, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (lower(id[i]) != word[i])
            return 0;
    return 1;
}

/* Whether a word of the bucket of place i blocks id (isBlockedId's rules:
 * a word of at most 3 symbols, or any word against an ID of at most 3,
 * must be the whole ID; a word with a digit must begin or end it; any
 * other word may be anywhere). */
static int blocked_at(const sqids_state *st, const uint8_t *id, size_t len, size_t i)
{
    const uint32_t *bucket = buckets_of(st);
    const sqids_word *table = words_of(st);
    uint32_t key = key_of(id + i), b = bucket_of(key), k;

    for (k = bucket[b]; k < bucket[b + 1]; k++) {
        const sqids_word *w = &table[k];
        if (w->key != key || w->len > len - i)
            continue;
        if (len <= 3 || w->len <= 3) {
            if (i != 0 || w->len != len)
                continue;
        } else if (w->has_digit && i != 0 && i + w->len != len) {
            continue;
        }
        if (same_lowered(id + i + 3, (const uint8_t *)st + w->off + 3, w->len - 3))
            return 1;
    }
    return 0;
}

/* Whether the filter finds a place of id where a word may be, reading
 * every other place only, the last one among them (half the reads): a
 * word of 4 symbols or more covers two places in a row, its first three
 * codes in the filter for the one and its next three for the other; a
 * word of 3 can block only an ID of 3 (isBlockedId), whose one place is
 * the last. A loop of its own over the finished ID: the filter is no
 * longer read inside the digits' chains. */
static int maybe_blocked(const sqids_state *st, const uint8_t *id, size_t len)
{
    const uint64_t *filter = filter_of(st);
    const uint8_t *code = st->code;
    uint64_t key, hit = 0;
    size_t p;

    if (len < 3)
        return 0;
    for (p = (len - 3) & 1, key = code[id[p]]; p + 3 <= len; p += 2) {
        key = key << 10 | (uint64_t)code[id[p + 1]] << 5 | code[id[p + 2]];
        hit |= filter[(key >> 6) & (FILTER_BITS / 64 - 1)] >> (key & 63);
    }
    return (int)(hit & 1);
}

/* The reference's isBlockedId, for an ID whose filter run found a bit:
 * the places maybe_blocked reads, and where one's bit is set, the words
 * of its bucket and of the one before it (a word of 4 symbols or more at
 * place i sets the bits of i and i + 1, one of which is read). A word of 3
 * blocks only an ID of 3, at its one place, the last. */
static int blocked(const sqids_state *st, const uint8_t *id, size_t len)
{
    const uint64_t *filter = filter_of(st);
    size_t p;

    if (st->n_words == 0 || len < 3)
        return 0;
    for (p = len - 3;; p -= 2) {
        uint32_t f = filter_bit_of(filter_bit_of(filter_bit_of(0, st->code[id[p]]), st->code[id[p + 1]]),
                                   st->code[id[p + 2]]);
        if ((filter[f / 64] >> (f % 64) & 1) &&
            (blocked_at(st, id, len, p) || (p > 0 && blocked_at(st, id, len, p - 1))))
            return 1;
        if (p < 2)
            return 0;
    }
}

/*
 * The count digits of x < (n - 1)^count <= 2^26 in base n - 1, most
 * significant first, as symbols to out (digit d's is symbol[d]), with no
 * division: f = x * fraction[count] is 2^52 (x / D + err), D = (n -
 * 1)^(count - 1), in fixed point; its integer part is the first digit, and
 * its fraction times n - 1 gives the next. With fraction = (2^52 + e) / D,
 * 0 <= e < D, err = x e / (D 2^52) < 1 / D, as x D < (n - 1)^(2 count) <=
 * 2^52. Step j's exact fraction is at most 1 - (n - 1)^j / D, its error
 * err (n - 1)^j is below (n - 1)^j / D: no floor moves. f stays below
 * 2^52 (n - 1) + x < 2^60.
 */
static inline void write_digits(uint64_t f, uint32_t count, uint32_t b, const uint8_t *symbol, uint8_t *out)
{
    const uint64_t low52 = (UINT64_C(1) << 52) - 1;
    const uint8_t *end = out + count;

    for (; out < end; out++) {
        *out = symbol[f >> 52];
        f = (f & low52) * b;
    }
}

/* The symbols of v in base n - 1, most significant first, to out (the
 * symbol of digit d is symbol[d]): returns how many (at least 1). The
 * number is cut into chunks of digits_per_chunk digits by multiply-high
 * divisions (at most 3 for 64 bits: a chunk is above 2^26 / 127); the
 * count is known from them and the top chunk. Inlined: a call of its own
 * cost a one-number ID about 6% of its instructions (the call, the saved
 * registers, the filter run passed through memory). */
static MINTID_ALWAYS_INLINE size_t write_number(const sqids_state *st, uint64_t v, const uint8_t *symbol,
                                                uint8_t *out)
{
    uint32_t chunks[4], b = st->n - 1, per = st->digits_per_chunk, x;
    size_t levels = 0, top = 1, len;

    while (v >= st->chunk) {
        uint64_t q = chunk_quotient(st, v);
        chunks[levels++] = (uint32_t)(v - q * st->chunk);
        v = q;
    }
    x = (uint32_t)v;
    while (top < per && x >= st->power[top])
        top++;
    len = top + levels * per;
    write_digits(x * st->fraction[top], (uint32_t)top, b, symbol, out);
    for (out += top; levels > 0; out += per)
        write_digits(chunks[--levels] * st->fraction[per], per, b, symbol, out);
    return len;
}

/* The reference's first offset, (n + sum of alphabet[v % n] + i) mod n,
 * kept below n as it goes (each sum below 2^15). */
static uint32_t offset_of(const sqids_state *st, const uint64_t *numbers, size_t n)
{
    uint32_t offset = n < st->n ? (uint32_t)n : mod_n(st, n), i_mod = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        offset = small_mod_n(st, offset + st->alphabet[mod_n(st, numbers[i])] + i_mod);
        if (++i_mod == st->n)
            i_mod = 0;
    }
    return offset;
}

/* One attempt of the reference's encodeNumbers, at this offset (the first
 * one plus the attempt's increment, mod n): its length, and in *maybe
 * whether the filter found a place where a word may be. Its working
 * alphabet starts as the shuffled one rotated to offset and reversed, w[k]
 * = alphabet[(offset - 1 - k) mod n]: read in place for the first number,
 * copied only when a shuffle comes. */
static size_t encode_once(const sqids_state *st, const uint64_t *numbers, size_t n, uint32_t offset,
                          uint8_t *out)
{
    const uint8_t *first = st->reversed + st->n - offset;
    uint8_t w[MAX_SYMBOLS];
    size_t i, k, len;

    out[0] = st->alphabet[offset];
    len = 1 + write_number(st, numbers[0], first + 1, out + 1);
    if (n > 1 || st->min_length > len) {
        memcpy(w, first, st->n);
        for (i = 1; i < n; i++) {
            out[len++] = w[0];
            shuffle(st, w);
            len += write_number(st, numbers[i], w + 1, out + len);
        }
        if (st->min_length > len) {
            out[len++] = w[0];
            while (st->min_length > len) {
                size_t take = st->min_length - len;
                shuffle(st, w);
                if (take > st->n)
                    take = st->n;
                for (k = 0; k < take; k++)
                    out[len++] = w[k];
            }
        }
    }
    return len;
}

/* One number's ID at its first offset, the usual call, when it needs no
 * padding and v < chunk^3 (at most two whole chunks: every 64-bit v for
 * the default alphabet's chunk of 61^4): its length, 0 otherwise, and in
 * *maybe maybe_blocked's answer. encode_once's symbols, with fewer steps
 * in a row: v / chunk and v / chunk^2 side by side, the offset from a
 * table, and the two whole chunks' digits in one loop, each one's chain
 * beside the other's. Their filter codes come with them (rcode, indexed as
 * the symbols are), each chunk's in a key of its own; an ID of up to
 * KEY_SYMBOLS symbols has them all in one key, read for every other place
 * as maybe_blocked reads them, with no byte of the ID read back. */
static MINTID_ALWAYS_INLINE size_t encode_one(const sqids_state *st, uint64_t v, uint8_t *out, int *maybe,
                                              const uint32_t per)
{
    const uint64_t low52 = (UINT64_C(1) << 52) - 1;
    const uint32_t b = st->n - 1;
    const uint64_t q1 = chunk_quotient(st, v), q2 = mintid_div_quotient(st->chunk2_magic, st->chunk2_shift, v);
    const uint32_t offset = st->one_offset[mod_n(st, v)];
    const uint8_t *symbol = st->reversed + st->n - offset + 1;
    const uint8_t *csym = st->rcode + st->n - offset + 1;
    uint32_t top = 1, x, j, r, reads;
    uint64_t ft, f1, f0, kt = 0, k1 = 0, k0 = 0, key, hit = 0;
    const uint64_t *filter = filter_of(st);
    uint8_t *mid;
    size_t len;

    if (q2 >= st->chunk)
        return 0;
    x = (uint32_t)(q2 != 0 ? q2 : q1 != 0 ? q1 : v);
    while (top < per && x >= st->power[top])
        top++;
    len = 1 + top + ((q1 != 0) + (q2 != 0)) * per;
    if (st->min_length > len)
        return 0;
    out[0] = st->alphabet[offset];
    mid = out + 1 + top;
    ft = x * st->fraction[top];
    if (q2 == 0) {
        write_digits(ft, top, b, symbol, out + 1);
        if (q1 != 0)
            write_digits((uint32_t)(v - q1 * st->chunk) * st->fraction[per], per, b, symbol, mid);
        *maybe = maybe_blocked(st, out, len);
        return len;
    }
    f1 = (uint32_t)(q1 - q2 * st->chunk) * st->fraction[per];
    f0 = (uint32_t)(v - q1 * st->chunk) * st->fraction[per];
    for (j = 0; j < top; j++) {
        out[1 + j] = symbol[ft >> 52];
        kt = kt << 5 | csym[ft >> 52];
        ft = (ft & low52) * b;
    }
    UNROLL(4)
    for (j = 0; j < per; j++) {
        mid[j] = symbol[f1 >> 52];
        k1 = k1 << 5 | csym[f1 >> 52];
        f1 = (f1 & low52) * b;
        mid[per + j] = symbol[f0 >> 52];
        k0 = k0 << 5 | csym[f0 >> 52];
        f0 = (f0 & low52) * b;
    }
    if (len > KEY_SYMBOLS) {
        *maybe = maybe_blocked(st, out, len);
        return len;
    }
    /* the last symbol's code lowest: the place ending there is key's low 15 bits */
    key = (((uint64_t)st->code[out[0]] << 5 * top | kt) << 5 * per | k1) << 5 * per | k0;
    /* the places ending 0, 2, 4... symbols before the last: len - 2 of
     * them, halved, rounded up; with DEFAULT_PER's len of 10..12 always 5,
     * whose last for 10 symbols holds codes 0 above the first (a place no
     * ID has, so at worst a call of blocked) */
    reads = per == DEFAULT_PER ? 5 : (uint32_t)(len - 1) / 2;
    UNROLL(5)
    for (r = 0; r < reads; r++) {
        uint64_t k = key >> 10 * r;
        hit |= filter[(k >> 6) & (FILTER_BITS / 64 - 1)] >> (k & 63);
    }
    *maybe = (int)(hit & 1);
    return len;
}

/* Every other call: the reference's encodeNumbers, attempt by attempt. */
static MINTID_NOINLINE int encode_numbers(const sqids_state *st, const uint64_t *numbers, size_t n, char *out,
                                          char *err)
{
    uint32_t increment, offset = offset_of(st, numbers, n);

    /* The reference tries increments 0..n symbols, then gives up. */
    for (increment = 0; increment <= st->n; increment++) {
        uint32_t at = offset + increment; /* below 2n */
        size_t len = encode_once(st, numbers, n, at >= st->n ? at - st->n : at, (uint8_t *)out);
        if (!maybe_blocked(st, (const uint8_t *)out, len) || !blocked(st, (const uint8_t *)out, len))
            return (int)len;
    }
    return mintid_fail(err, MINTID_EOVERFLOW, "sqids: reached max attempts to re-generate the ID");
}

int mintid_sqids_encode(const mintid_sqids *s, const uint64_t *numbers, size_t n, char *out, char *err)
{
    const sqids_state *st = sqids_state_of_const(s);

    if (n > MINTID_SQIDS_MAX_NUMBERS)
        return mintid_fail(err, MINTID_EARG, "sqids: at most %d numbers, got %zu", MINTID_SQIDS_MAX_NUMBERS, n);
    if (n == 0)
        return 0;
    if (n == 1) {
        int maybe;
        size_t len = st->digits_per_chunk == DEFAULT_PER
                         ? encode_one(st, numbers[0], (uint8_t *)out, &maybe, DEFAULT_PER)
                         : encode_one(st, numbers[0], (uint8_t *)out, &maybe, st->digits_per_chunk);
        if (len > 0 && (!maybe || !blocked(st, (const uint8_t *)out, len)))
            return (int)len;
    }
    return encode_numbers(st, numbers, n, out, err);
}

/* ---- decoding ------------------------------------------------------------ */

int mintid_sqids_decode(const mintid_sqids *s, const char *text, size_t len, uint64_t max, uint64_t *out,
                        char *err)
{
    const sqids_state *st = sqids_state_of_const(s);
    const uint8_t *id = (const uint8_t *)text, *end = id + len;
    uint8_t w[MAX_SYMBOLS], place[MAX_SYMBOLS];
    uint32_t a = st->n, offset, k, at;
    int count = 0;
    size_t i;

    if (len == 0 || len > (size_t)INT32_MAX)
        return 0;
    for (i = 0; i < len; i++)
        if (id[i] >= MAX_SYMBOLS || st->pos[id[i]] == NO_SYMBOL)
            return 0;
    offset = st->pos[id[0]];
    for (k = 0, at = offset + a - 1; k < a; k++, at--)
        w[k] = st->alphabet[at >= a ? at - a : at];
    id++;
    while (id < end) {
        const uint8_t *sep = (const uint8_t *)memchr(id, w[0], (size_t)(end - id));
        const uint8_t *chunk_end = sep != NULL ? sep : end;
        uint64_t v = 0;
        if (chunk_end == id)
            return count; /* two separators in a row: the rest is padding */
        for (k = 0; k < a; k++)
            place[w[k]] = (uint8_t)k;
        for (; id < chunk_end; id++) {
            uint64_t digit = place[*id] - 1u; /* the chunk holds no separator, w[0] */
            if (digit > max || v > (max - digit) / (a - 1))
                return mintid_fail(err, MINTID_ERANGE, "sqids: number above %" PRIu64, max);
            v = v * (a - 1) + digit;
        }
        out[count++] = v;
        if (sep != NULL) {
            shuffle(st, w);
            id = sep + 1;
        }
    }
    return count;
}
