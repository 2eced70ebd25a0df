/*
 * objectid_decode.c: mintid_objectid_decode on any bytes. It accepts exactly
 * SPEC's text form (24 hex digits of either case); what it accepts
 * re-encodes to the input in lowercase, and what it refuses gets a one-line
 * message.
 */
#include <ctype.h>

#include "fuzz.h"
#include "internal.h"

static int is_valid_objectid(const uint8_t *t, size_t len)
{
    size_t i;

    if (len != MINTID_OBJECTID_TEXT_LEN)
        return 0;
    for (i = 0; i < len; i++)
        if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'f') || (t[i] >= 'A' && t[i] <= 'F')))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[MINTID_ERRMSG_SIZE], text[MINTID_OBJECTID_TEXT_LEN];
    uint8_t id[MINTID_OBJECTID_BYTES];
    size_t i;
    int rc;

    fuzz_err_reset(err);
    rc = mintid_objectid_decode((const char *)data, size, id, err);
    if (!fuzz_decoded(rc, is_valid_objectid(data, size), err))
        return 0;
    mintid_objectid_encode(id, text);
    for (i = 0; i < sizeof text; i++)
        FUZZ_ASSERT(text[i] == tolower(data[i]));
    FUZZ_ASSERT(strcmp(mintid_kind_of((const char *)data, size, NULL), "objectid") == 0);
    return 0;
}
