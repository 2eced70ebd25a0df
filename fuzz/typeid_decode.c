/*
 * typeid_decode.c: mintid_typeid_decode on any bytes. It accepts exactly
 * SPEC's text form (a prefix of 0-63 of a-z and '_', neither first nor
 * last, a '_' unless the prefix is empty, and 26 lowercase base32 symbols,
 * the first 0-7); what it accepts re-encodes to the input, and what it
 * refuses gets a one-line message.
 */
#include "fuzz.h"
#include "internal.h"

static int is_suffix_symbol(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z' && c != 'i' && c != 'l' && c != 'o' && c != 'u');
}

/* SPEC's rule, written apart from the decoder. */
static int is_valid_typeid(const uint8_t *t, size_t len, size_t *prefix_len)
{
    size_t i, p;

    if (len < MINTID_TYPEID_SUFFIX_LEN)
        return 0;
    p = len - MINTID_TYPEID_SUFFIX_LEN;
    for (i = p; i < len; i++)
        if (!is_suffix_symbol(t[i]))
            return 0;
    if (t[p] > '7')
        return 0;
    if (p == 0) {
        *prefix_len = 0;
        return 1;
    }
    /* A prefix, then '_' right before the suffix. */
    if (p < 2 || p - 1 > MINTID_TYPEID_MAX_PREFIX || t[p - 1] != '_' || t[0] == '_' || t[p - 2] == '_')
        return 0;
    for (i = 0; i < p - 1; i++)
        if (!((t[i] >= 'a' && t[i] <= 'z') || t[i] == '_'))
            return 0;
    *prefix_len = p - 1;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[MINTID_ERRMSG_SIZE], text[MINTID_TYPEID_MAX_TEXT_LEN];
    uint8_t id[16];
    size_t prefix_len = 0, want_prefix = 0;
    int rc, n;

    fuzz_err_reset(err);
    rc = mintid_typeid_decode((const char *)data, size, &prefix_len, id, err);
    if (!fuzz_decoded(rc, is_valid_typeid(data, size, &want_prefix), err))
        return 0;
    FUZZ_ASSERT(prefix_len == want_prefix);
    n = mintid_typeid_encode((const char *)data, prefix_len, id, text, NULL);
    FUZZ_ASSERT(n >= 0 && (size_t)n == size && memcmp(text, data, size) == 0);
    return 0;
}
