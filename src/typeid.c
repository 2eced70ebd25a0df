/*
 * typeid.c: TypeIDs (jetify-com/typeid spec v0.3.0, SPEC "TypeID"): a type
 * prefix, '_', and a UUID's 16 bytes in the ULID's base32, lowercase and
 * strict. The suffix is the ULID text form, so ulid.c encodes and decodes
 * it; only the stricter character rules are checked here.
 */
#include <string.h>

#include "internal.h"

#define SEPARATOR '_'

static int is_prefix_letter(unsigned char c)
{
    return c >= 'a' && c <= 'z';
}

int mintid_typeid_check_prefix(const char *prefix, size_t len, int code, char *err)
{
    char desc[8];
    size_t i;

    if (len > MINTID_TYPEID_MAX_PREFIX)
        return mintid_fail(err, code, "invalid TypeID prefix: length %zu, want at most %d",
                           len, MINTID_TYPEID_MAX_PREFIX);
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)prefix[i];

        if (!is_prefix_letter(c) && c != SEPARATOR)
            return mintid_fail(err, code, "invalid TypeID prefix: bad character %s at %zu (want a-z or '_')",
                               mintid_describe_byte(c, desc), i + 1);
    }
    if (len > 0 && (prefix[0] == SEPARATOR || prefix[len - 1] == SEPARATOR))
        return mintid_fail(err, code, "invalid TypeID prefix: '_' at %zu (not allowed first or last)",
                           prefix[0] == SEPARATOR ? (size_t)1 : len);
    return MINTID_OK;
}

int mintid_typeid_encode(const char *prefix, size_t prefix_len, const uint8_t id[16],
                         char out[MINTID_TYPEID_MAX_TEXT_LEN], char *err)
{
    size_t at = prefix_len, i;
    int rc = mintid_typeid_check_prefix(prefix, prefix_len, MINTID_EARG, err);

    if (rc != MINTID_OK)
        return rc;
    if (prefix_len > 0) {
        memcpy(out, prefix, prefix_len);
        out[at++] = SEPARATOR;
    }
    mintid_ulid_encode(id, out + at);
    /* Crockford's symbols are digits and capitals: lowercase the letters. */
    for (i = at; i < at + MINTID_TYPEID_SUFFIX_LEN; i++)
        if (out[i] >= 'A' && out[i] <= 'Z')
            out[i] = (char)(out[i] - 'A' + 'a');
    return (int)(at + MINTID_TYPEID_SUFFIX_LEN);
}

/* The suffix's own rules, with positions in the whole text (at is where
 * the suffix starts). */
static int check_suffix(const char *s, size_t len, size_t at, char *err)
{
    char desc[8];
    size_t i;

    if (len != MINTID_TYPEID_SUFFIX_LEN)
        return mintid_fail(err, MINTID_EPARSE, "invalid TypeID: suffix length %zu, want 26", len);
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c >= 'A' && c <= 'Z')
            return mintid_fail(err, MINTID_EPARSE, "invalid TypeID: bad character %s at %zu (the suffix is lowercase)",
                               mintid_describe_byte(c, desc), at + i + 1);
        if (mintid_base32_values[c] < 0)
            return mintid_fail(err, MINTID_EPARSE, "invalid TypeID: bad character %s at %zu",
                               mintid_describe_byte(c, desc), at + i + 1);
    }
    if (s[0] > '7')
        return mintid_fail(err, MINTID_EPARSE,
                           "invalid TypeID: first suffix character %s overflows 128 bits (want 0-7)",
                           mintid_describe_byte((unsigned char)s[0], desc));
    return MINTID_OK;
}

int mintid_typeid_decode(const char *text, size_t len, size_t *prefix_len, uint8_t id[16], char *err)
{
    size_t sep = len, at = 0;
    int rc;

    /* The last '_' separates: a prefix may hold '_' itself, the suffix never. */
    while (sep > 0 && text[sep - 1] != SEPARATOR)
        sep--;
    if (sep > 0) {
        if (sep == 1)
            return mintid_fail(err, MINTID_EPARSE, "invalid TypeID: '_' with an empty prefix");
        rc = mintid_typeid_check_prefix(text, sep - 1, MINTID_EPARSE, err);
        if (rc != MINTID_OK)
            return rc;
        at = sep;
    }
    rc = check_suffix(text + at, len - at, at, err);
    if (rc != MINTID_OK)
        return rc;
    rc = mintid_ulid_decode(text + at, MINTID_TYPEID_SUFFIX_LEN, id, err);
    if (rc == MINTID_OK)
        *prefix_len = at > 0 ? at - 1 : 0;
    return rc;
}

int mintid_typeid_gen_next(mintid_uuid7_state *g, const char *prefix, size_t prefix_len,
                           int64_t now_ms, mintid_random_fn rnd, void *ctx,
                           char out[MINTID_TYPEID_MAX_TEXT_LEN], char *err)
{
    uint8_t id[16];
    int rc = mintid_typeid_check_prefix(prefix, prefix_len, MINTID_EARG, err);

    if (rc != MINTID_OK)
        return rc;
    rc = mintid_uuid7_gen_next(g, now_ms, rnd, ctx, id, err);
    if (rc != MINTID_OK)
        return rc;
    return mintid_typeid_encode(prefix, prefix_len, id, out, err);
}
