/*
 * uuid_decode.c: mintid_uuid_decode on any bytes. It accepts exactly SPEC's
 * one text form (36 characters, '-' at offsets 8, 13, 18 and 23, a hex
 * digit of either case everywhere else); what it accepts re-encodes to the
 * input lower-cased, and what it refuses gets a one-line message.
 */
#include "fuzz.h"

static int is_hyphen_at(size_t i)
{
    return i == 8 || i == 13 || i == 18 || i == 23;
}

/* SPEC's rule, written apart from the decoder's table. */
static int is_valid_uuid(const uint8_t *t, size_t len)
{
    size_t i;

    if (len != MINTID_UUID_TEXT_LEN)
        return 0;
    for (i = 0; i < len; i++) {
        unsigned char c = fuzz_lower(t[i]);

        if (is_hyphen_at(i) ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[MINTID_ERRMSG_SIZE], text[MINTID_UUID_TEXT_LEN];
    uint8_t id[16], again[16];
    size_t i;
    int rc;

    fuzz_err_reset(err);
    rc = mintid_uuid_decode((const char *)data, size, id, err);
    if (!fuzz_decoded(rc, is_valid_uuid(data, size), err))
        return 0;
    mintid_uuid_encode(id, text);
    for (i = 0; i < MINTID_UUID_TEXT_LEN; i++)
        FUZZ_ASSERT(text[i] == (char)fuzz_lower(data[i]));
    FUZZ_ASSERT(mintid_uuid_decode(text, sizeof text, again, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(id, again, sizeof id) == 0);
    FUZZ_ASSERT(mintid_uuid_version(id) == (unsigned)(id[6] >> 4));
    return 0;
}
