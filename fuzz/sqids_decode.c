/*
 * sqids_decode.c: mintid_sqids_decode on any bytes, under one of a few
 * encoders (the first byte picks it). Whatever the text, decoding writes
 * at most one number a byte and never fails but on a number above its
 * bound (2^64 - 1 at most); the numbers of a text that decodes encode to an ID that decodes
 * to them again (or every attempt of theirs is blocked), of at least
 * min_length symbols of the alphabet; and a tighter bound refuses exactly
 * the texts with a number above it.
 */
#include "fuzz.h"

#define ENCODERS 4
#define MAX_DECODED 4096

static mintid_sqids *encoder(unsigned which, const uint8_t **alphabet, size_t *alen)
{
    static mintid_sqids *made[ENCODERS];
    static uint8_t all[128];
    static const uint8_t *const words_b[] = { (const uint8_t *)"cab", (const uint8_t *)"abc", (const uint8_t *)"bca" };
    static const size_t lens_b[] = { 3, 3, 3 };
    static const uint8_t *const words_d[] = { (const uint8_t *)"\0\1\2", (const uint8_t *)"ABCD", (const uint8_t *)"x9" };
    static const size_t lens_d[] = { 3, 4, 2 };
    const uint8_t *const *words = NULL;
    const size_t *lens = NULL;
    size_t n_words = 0, size;
    int64_t min_length = 0;
    char err[MINTID_ERRMSG_SIZE];
    unsigned i;

    for (i = 0; i < 128; i++)
        all[i] = (uint8_t)i;
    switch (which) {
    case 0: *alphabet = (const uint8_t *)mintid_sqids_default_alphabet; *alen = 62; break;
    case 1: *alphabet = (const uint8_t *)"0123456789abcdef"; *alen = 16; min_length = 10; words = words_b; n_words = 0; break;
    case 2: *alphabet = (const uint8_t *)"abc"; *alen = 3; min_length = 3; words = words_b; lens = lens_b; n_words = 3; break;
    default: *alphabet = all; *alen = 128; min_length = 255; words = words_d; lens = lens_d; n_words = 3; break;
    }
    if (made[which] == NULL) {
        size = mintid_sqids_size(*alphabet, *alen, words, lens, n_words);
        made[which] = (mintid_sqids *)malloc(size);
        FUZZ_ASSERT(made[which] != NULL);
        FUZZ_ASSERT(mintid_sqids_init(made[which], size, *alphabet, *alen, min_length, words, lens, n_words, err)
                    == MINTID_OK);
    }
    return made[which];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint64_t numbers[MAX_DECODED], again[MAX_DECODED];
    static char id[MAX_DECODED * 66 + 256];
    const mintid_sqids *s;
    const uint8_t *alphabet;
    const char *text = (const char *)data + 1;
    size_t alen, len, i, id_len;
    char err[MINTID_ERRMSG_SIZE];
    int n, m, rc;

    if (size < 1 || size - 1 > MAX_DECODED)
        return 0;
    s = encoder(data[0] % ENCODERS, &alphabet, &alen);
    len = size - 1;
    fuzz_err_reset(err);
    n = mintid_sqids_decode(s, text, len, UINT64_MAX, numbers, err);
    if (n == MINTID_ERANGE) { /* a number past 64 bits: past every bound */
        fuzz_check_message(err);
        FUZZ_ASSERT(mintid_sqids_decode(s, text, len, UINT64_C(9007199254740991), again, err) == MINTID_ERANGE);
        return 0;
    }
    FUZZ_ASSERT(n >= 0 && (size_t)n <= len);
    if (len == 0)
        FUZZ_ASSERT(n == 0);

    /* The bound of a double's integers: refused exactly when a number passes it. */
    fuzz_err_reset(err);
    m = mintid_sqids_decode(s, text, len, UINT64_C(9007199254740991), again, err);
    for (i = 0, rc = 0; i < (size_t)n; i++)
        rc |= numbers[i] > UINT64_C(9007199254740991);
    if (rc) {
        FUZZ_ASSERT(m == MINTID_ERANGE);
        fuzz_check_message(err);
    } else {
        FUZZ_ASSERT(m == n && memcmp(numbers, again, (size_t)n * sizeof numbers[0]) == 0);
    }
    if (n == 0)
        return 0;

    id_len = mintid_sqids_encoded_len(s, numbers, (size_t)n);
    FUZZ_ASSERT(id_len <= sizeof id);
    fuzz_err_reset(err);
    rc = mintid_sqids_encode(s, numbers, (size_t)n, id, err);
    if (rc == MINTID_EOVERFLOW) {
        fuzz_check_message(err);
        return 0;
    }
    FUZZ_ASSERT(rc >= 0 && (size_t)rc == id_len);
    for (i = 0; i < id_len; i++)
        FUZZ_ASSERT(memchr(alphabet, (unsigned char)id[i], alen) != NULL);
    m = mintid_sqids_decode(s, id, id_len, UINT64_MAX, again, err);
    FUZZ_ASSERT(m == n && memcmp(numbers, again, (size_t)n * sizeof numbers[0]) == 0);
    return 0;
}
