/*
 * short_uuid_decode.c: short UUIDs on any bytes. The input is an alphabet
 * and a text: a first byte b, then the b + 1 bytes of the alphabet (1..256
 * symbols), then the text. An alphabet is taken only with distinct bytes; decoding
 * accepts exactly L symbols of it whose value is below 2^128, by a rule
 * written here apart from the decoder (schoolbook, byte by byte); what it
 * accepts re-encodes to the input, and any 16 bytes round-trip.
 */
#include "fuzz.h"

/* Whether the symbols of t (values val[]) make a number below 2^128, by
 * value = value * n + v on 17 bytes, the 17th the overflow. */
static int below_2_128(const int *val, const uint8_t *t, size_t len, unsigned n)
{
    uint8_t v[17];
    size_t i;
    int k;

    memset(v, 0, sizeof v);
    for (i = 0; i < len; i++) {
        unsigned carry = (unsigned)val[t[i]];

        for (k = 16; k >= 0; k--) {
            unsigned cur = v[k] * n + carry;

            v[k] = (uint8_t)cur;
            carry = cur >> 8;
        }
        if (carry != 0 || v[0] != 0)
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mintid_short_uuid_alphabet a;
    char err[MINTID_ERRMSG_SIZE], text[MINTID_SHORT_UUID_MAX_LEN];
    uint8_t id[16], again[16];
    const uint8_t *alphabet, *t;
    size_t n, len, L, i;
    int val[256], valid, rc;

    if (size == 0)
        return 0;
    n = (size_t)data[0] + 1;
    if (size - 1 < n)
        return 0;
    alphabet = data + 1;
    t = data + 1 + n;
    len = size - 1 - n;
    fuzz_err_reset(err);
    rc = mintid_short_uuid_alphabet_init(&a, alphabet, n, err);
    for (i = 0; i < 256; i++)
        val[i] = -1;
    for (i = 0; i < n && rc == MINTID_OK; i++) {
        FUZZ_ASSERT(val[alphabet[i]] < 0); /* a taken alphabet has distinct bytes */
        val[alphabet[i]] = (int)i;
    }
    if (rc != MINTID_OK) {
        FUZZ_ASSERT(rc == MINTID_EARG);
        fuzz_check_message(err);
        return 0;
    }
    L = mintid_short_uuid_length(&a);
    FUZZ_ASSERT(L >= 16 && L <= MINTID_SHORT_UUID_MAX_LEN);

    valid = len == L;
    for (i = 0; i < len && valid; i++)
        valid = val[t[i]] >= 0;
    valid = valid && below_2_128(val, t, len, (unsigned)n);
    fuzz_err_reset(err);
    rc = mintid_short_uuid_decode(&a, (const char *)t, len, id, err);
    if (fuzz_decoded(rc, valid, err)) {
        mintid_short_uuid_encode(&a, id, text);
        FUZZ_ASSERT(memcmp(text, t, L) == 0);
    }

    /* Any 16 bytes of the input: encoded, every symbol of the alphabet,
     * decoded back. */
    memset(id, 0, sizeof id);
    memcpy(id, t, len < 16 ? len : 16);
    mintid_short_uuid_encode(&a, id, text);
    for (i = 0; i < L; i++)
        FUZZ_ASSERT(val[(uint8_t)text[i]] >= 0);
    fuzz_err_reset(err);
    FUZZ_ASSERT(mintid_short_uuid_decode(&a, text, L, again, err) == MINTID_OK);
    FUZZ_ASSERT(memcmp(again, id, 16) == 0);
    return 0;
}
