/*
 * xid_decode.c: mintid_xid_decode on any bytes. It accepts exactly rs/xid's
 * text form (20 symbols of 0-9a-v, the last one's four padding bits zero);
 * what it accepts re-encodes to the input, and what it refuses gets a
 * one-line message.
 */
#include "fuzz.h"
#include "internal.h"

static int value_of(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'v')
        return c - 'a' + 10;
    return -1;
}

static int is_valid_xid(const uint8_t *t, size_t len)
{
    size_t i;

    if (len != MINTID_XID_TEXT_LEN)
        return 0;
    for (i = 0; i < len; i++)
        if (value_of(t[i]) < 0)
            return 0;
    return (value_of(t[len - 1]) & 15) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[MINTID_ERRMSG_SIZE], text[MINTID_XID_TEXT_LEN];
    uint8_t id[MINTID_XID_BYTES];
    int rc;

    fuzz_err_reset(err);
    rc = mintid_xid_decode((const char *)data, size, id, err);
    if (!fuzz_decoded(rc, is_valid_xid(data, size), err))
        return 0;
    mintid_xid_encode(id, text);
    FUZZ_ASSERT(memcmp(text, data, sizeof text) == 0);
    return 0;
}
