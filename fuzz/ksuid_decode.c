/*
 * ksuid_decode.c: mintid_ksuid_decode on any bytes. It accepts exactly
 * SPEC's text form (27 base62 characters, case-sensitive, a value below
 * 2^160); what it accepts re-encodes to the input, and what it refuses gets
 * a one-line message.
 */
#include "fuzz.h"
#include "internal.h"

static int is_base62(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* SPEC's rule, written apart from the decoder: the 27 symbols compare as
 * bytes against the largest KSUID, since the alphabet is in ASCII order. */
static int is_valid_ksuid(const uint8_t *t, size_t len)
{
    static const char largest[] = "aWgEPTl1tmebfsQzFP4bxwgy80V";
    size_t i;

    if (len != MINTID_KSUID_TEXT_LEN)
        return 0;
    for (i = 0; i < len; i++)
        if (!is_base62(t[i]))
            return 0;
    return memcmp(t, largest, MINTID_KSUID_TEXT_LEN) <= 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[MINTID_ERRMSG_SIZE], text[MINTID_KSUID_TEXT_LEN];
    uint8_t id[MINTID_KSUID_BYTES];
    int64_t s;
    int rc;

    fuzz_err_reset(err);
    rc = mintid_ksuid_decode((const char *)data, size, id, err);
    if (!fuzz_decoded(rc, is_valid_ksuid(data, size), err))
        return 0;
    mintid_ksuid_encode(id, text);
    FUZZ_ASSERT(memcmp(text, data, sizeof text) == 0);
    s = mintid_ksuid_time(id);
    FUZZ_ASSERT(s >= MINTID_KSUID_EPOCH && s <= MINTID_KSUID_MAX_UNIX);
    return 0;
}
