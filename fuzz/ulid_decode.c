/*
 * ulid_decode.c: mintid_ulid_decode on any bytes. It accepts exactly the
 * 26-symbol texts of SPEC (Crockford base32 in either case, no I L O U,
 * first symbol 0-7); what it accepts re-encodes to the input upper-cased,
 * and what it refuses gets a one-line message.
 */
#include "fuzz.h"

/* SPEC's rule, written apart from the decoder's table. */
static int is_valid_ulid(const uint8_t *t, size_t len)
{
    size_t i;

    if (len != MINTID_ULID_TEXT_LEN)
        return 0;
    for (i = 0; i < len; i++) {
        unsigned char c = fuzz_upper(t[i]);

        if (c == '\0' || strchr(mintid_base32_alphabet, c) == NULL)
            return 0;
    }
    return t[0] >= '0' && t[0] <= '7';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[MINTID_ERRMSG_SIZE], text[MINTID_ULID_TEXT_LEN];
    uint8_t id[16], again[16];
    size_t i;
    int rc;

    fuzz_err_reset(err);
    rc = mintid_ulid_decode((const char *)data, size, id, err);
    if (!fuzz_decoded(rc, is_valid_ulid(data, size), err))
        return 0;
    mintid_ulid_encode(id, text);
    for (i = 0; i < MINTID_ULID_TEXT_LEN; i++)
        FUZZ_ASSERT(text[i] == (char)fuzz_upper(data[i]));
    FUZZ_ASSERT(mintid_ulid_decode(text, sizeof text, again, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(id, again, sizeof id) == 0);
    FUZZ_ASSERT(mintid_ulid_time(id) >= 0 && mintid_ulid_time(id) <= MINTID_MAX_MS);
    return 0;
}
