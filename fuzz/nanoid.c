/*
 * nanoid.c: Nano ID setup and generation from fuzzer bytes.
 *
 * Input: 2 bytes choose the size (mostly 0..2047, the top 16 values land
 * around MINTID_NANOID_MAX_SIZE); 2 bytes the alphabet's length (0..511)
 * or the default alphabet; the alphabet's bytes; then the random stream,
 * served to generate until it runs out (then the source fails).
 *
 * Properties: spec_init refuses only what SPEC and mintid.h refuse (a bad
 * length, a repeated byte, a bad size, UTF-8 text with multi-byte
 * characters, never an alphabet with a byte no UTF-8 text holds) with a
 * one-line message; spec_resize gives what spec_init gives; generate gives exactly what SPEC's algorithm, run here
 * on the same stream, gives (every symbol in the alphabet, the same bytes
 * consumed), or MINTID_ERANDOM where that algorithm runs out of bytes or
 * sees 64 draws in a row with no symbol.
 */
#include "fuzz.h"

#define MAX_EMPTY_DRAWS 64

static int64_t size_of(uint16_t raw)
{
    if (raw >= 0xFFF0)
        return MINTID_NANOID_MAX_SIZE - 8 + (int64_t)(raw - 0xFFF0);
    return raw % 2048;
}

/* SPEC "Nano ID", written apart from nanoid.c: the output for the stream,
 * the bytes it consumes, and the code generate must return. */
static int expected_output(const uint8_t *alphabet, size_t n, size_t size, fuzz_input stream,
                           uint8_t *out, size_t *consumed)
{
    size_t mask = 1, step, got = 0, start = stream.left;
    int empty = 0;

    while (mask < n - 1)
        mask = mask * 2 + 1;
    if (mask + 1 == n)
        step = size;
    else
        step = (8 * mask * size + 5 * n - 1) / (5 * n);
    while (got < size) {
        size_t i, before = got;

        if (stream.left < step)
            return MINTID_ERANDOM;
        for (i = 0; i < step && got < size; i++) {
            size_t j = stream.p[i] & mask;
            if (j < n)
                out[got++] = alphabet[j];
        }
        stream.p += step;
        stream.left -= step;
        empty = got == before ? empty + 1 : 0;
        if (empty == MAX_EMPTY_DRAWS)
            return MINTID_ERANDOM;
    }
    *consumed = start - stream.left;
    return MINTID_OK;
}

/* The same alphabet at another size is what spec_init gives at that size. */
static void check_resize(const mintid_nanoid_spec *spec, const uint8_t *alphabet, size_t alen, int64_t size)
{
    mintid_nanoid_spec resized_pub, fresh_pub;
    mintid_nanoid_state *resized = mintid_nanoid_state_of(&resized_pub), *fresh = mintid_nanoid_state_of(&fresh_pub);
    char err[MINTID_ERRMSG_SIZE];
    int rc;

    memcpy(&resized_pub, spec, sizeof resized_pub);
    memset(&fresh_pub, 0, sizeof fresh_pub);
    fuzz_err_reset(err);
    rc = mintid_nanoid_spec_resize(resized, size, err);
    if (size < 1) {
        FUZZ_ASSERT(rc == MINTID_EARG && memcmp(&resized_pub, spec, sizeof resized_pub) == 0);
        fuzz_check_message(err);
        return;
    }
    FUZZ_ASSERT(rc == MINTID_OK);
    FUZZ_ASSERT(mintid_nanoid_spec_init(&fresh_pub, alphabet, alen, size, NULL) == MINTID_OK);
    FUZZ_ASSERT(resized->n == fresh->n && resized->mask == fresh->mask && resized->size == fresh->size &&
                resized->step == fresh->step && memcmp(resized->alphabet, fresh->alphabet, alen) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = { data, size };
    char err[MINTID_ERRMSG_SIZE];
    int64_t id_size = size_of((uint16_t)fuzz_be(&in, 2));
    size_t alen = (size_t)fuzz_be(&in, 2);
    const uint8_t *alphabet = in.p;
    uint8_t seen[256], *out, *want;
    mintid_nanoid_spec spec;
    const mintid_nanoid_state *st = mintid_nanoid_state_of(&spec);
    size_t i, consumed = 0, start;
    int use_default = (alen & 0x8000) != 0, repeats = 0, non_ascii = 0, not_text = 0, rc, want_rc;

    if (use_default) {
        alphabet = (const uint8_t *)mintid_nanoid_default_alphabet;
        alen = 64;
    } else {
        alen &= 0x1FF;
        if (alen > in.left)
            alen = in.left;
        in.p += alen;
        in.left -= alen;
    }
    memset(seen, 0, sizeof seen);
    for (i = 0; i < alen; i++) {
        repeats |= seen[alphabet[i]];
        seen[alphabet[i]] = 1;
        non_ascii |= alphabet[i] >= 0x80;
        not_text |= alphabet[i] == 0xC0 || alphabet[i] == 0xC1 || alphabet[i] >= 0xF5;
    }

    fuzz_err_reset(err);
    rc = mintid_nanoid_spec_init(&spec, alphabet, alen, id_size, err);
    FUZZ_ASSERT(rc == MINTID_OK || rc == MINTID_EARG);
    if (alen == 0 || alen > 256 || repeats || id_size < 1 || id_size > MINTID_NANOID_MAX_SIZE) {
        FUZZ_ASSERT(rc == MINTID_EARG);
    } else if (!non_ascii || not_text) {
        FUZZ_ASSERT(rc == MINTID_OK);
    } else if (rc != MINTID_OK) {
        FUZZ_ASSERT(strstr(err, "multi-byte") != NULL);
    }
    if (rc != MINTID_OK) {
        fuzz_check_message(err);
        return 0;
    }
    FUZZ_ASSERT(st->n == alen && st->size == (size_t)id_size);
    check_resize(&spec, alphabet, alen, id_size % 97);

    out = malloc(st->size);
    want = malloc(st->size);
    FUZZ_ASSERT(out != NULL && want != NULL);
    want_rc = expected_output(alphabet, alen, st->size, in, want, &consumed);
    start = in.left;
    fuzz_err_reset(err);
    rc = mintid_nanoid_generate(st, fuzz_random, &in, out, err);
    FUZZ_ASSERT(rc == want_rc);
    if (rc == MINTID_OK) {
        FUZZ_ASSERT(start - in.left == consumed);
        FUZZ_ASSERT(memcmp(out, want, st->size) == 0);
        for (i = 0; i < st->size; i++)
            FUZZ_ASSERT(memchr(alphabet, out[i], alen) != NULL);
    } else {
        fuzz_check_message(err);
    }
    free(out);
    free(want);
    return 0;
}
