/*
 * relative_decode.c: mintid_relative_decode on any bytes. It accepts
 * exactly SPEC's two forms (28 characters with '-' at offsets 6 and 17, or
 * the same 26 symbols without), Crockford base32 in either case, first time
 * symbol 0-7. What it accepts re-encodes to the 28-character form of the
 * input upper-cased, and the other form decodes to the same bytes; what it
 * refuses gets a one-line message.
 */
#include "fuzz.h"

#define SHORT_LEN (MINTID_RELATIVE_TEXT_LEN - 2)

static int is_hyphen_at(size_t i)
{
    return i == 6 || i == 17;
}

/* SPEC's rule, written apart from the decoder: the input's symbols in
 * order (hyphens dropped) into sym[26], or 0 when it is not a relative ID. */
static int symbols_of(const uint8_t *t, size_t len, char sym[SHORT_LEN])
{
    size_t i, n = 0;

    if (len != MINTID_RELATIVE_TEXT_LEN && len != SHORT_LEN)
        return 0;
    for (i = 0; i < len; i++) {
        unsigned char c = fuzz_upper(t[i]);

        if (len == MINTID_RELATIVE_TEXT_LEN && is_hyphen_at(i)) {
            if (c != '-')
                return 0;
            continue;
        }
        if (c == '\0' || strchr(mintid_base32_alphabet, c) == NULL)
            return 0;
        sym[n++] = (char)c;
    }
    return sym[6] >= '0' && sym[6] <= '7'; /* the time field's 2 spare bits */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[MINTID_ERRMSG_SIZE], sym[SHORT_LEN], text[MINTID_RELATIVE_TEXT_LEN], other[SHORT_LEN];
    uint8_t id[16], again[16], parts[16];
    uint32_t tag;
    int64_t ms;
    uint64_t rand;
    size_t i, n;
    int rc;

    fuzz_err_reset(err);
    rc = mintid_relative_decode((const char *)data, size, id, err);
    if (!fuzz_decoded(rc, symbols_of(data, size, sym), err))
        return 0;
    mintid_relative_encode(id, text);
    for (i = 0, n = 0; i < MINTID_RELATIVE_TEXT_LEN; i++) {
        if (is_hyphen_at(i)) {
            FUZZ_ASSERT(text[i] == '-');
        } else {
            FUZZ_ASSERT(text[i] == sym[n]);
            other[n++] = text[i];
        }
    }
    FUZZ_ASSERT(mintid_relative_decode(text, sizeof text, again, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(id, again, sizeof id) == 0);
    FUZZ_ASSERT(mintid_relative_decode(other, sizeof other, again, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(id, again, sizeof id) == 0);

    /* The parts are in range and build the same value back. */
    mintid_relative_split(id, &tag, &ms, &rand);
    FUZZ_ASSERT(tag <= MINTID_RELATIVE_MAX_TAG && ms >= 0 && ms <= MINTID_MAX_MS &&
                rand <= MINTID_RELATIVE_MAX_RAND);
    FUZZ_ASSERT(mintid_relative_from_parts(tag, ms, (int64_t)rand, parts, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(id, parts, sizeof id) == 0);
    return 0;
}
