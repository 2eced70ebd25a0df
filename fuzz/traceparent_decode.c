/*
 * traceparent_decode.c: mintid_traceparent_parse on any bytes. It accepts
 * exactly the W3C Trace Context Recommendation's headers (3.2.2: lowercase
 * hex fields of 2, 32, 16 and 2 digits between '-'; 3.2.2.1: not version
 * ff; 3.2.4: version 00 exactly 55 bytes, a later one longer only after a
 * '-'; 3.2.2.3, 3.2.2.4: no all-zero ID); what it accepts comes back from
 * mintid_traceparent_text, with a later version's extra fields dropped, and
 * what it refuses gets a one-line message.
 */
#include "fuzz.h"

static int is_lower_hex(uint8_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* The Recommendation's rule, written apart from the parser: the version-00
 * layout character by character. */
static int is_valid_traceparent(const uint8_t *t, size_t len)
{
    static const char layout[] = "hh-hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh-hhhhhhhhhhhhhhhh-hh";
    int trace_zero = 1, parent_zero = 1;
    size_t i;

    if (len < 55)
        return 0;
    for (i = 0; i < 55; i++) {
        if (layout[i] == '-' ? t[i] != '-' : !is_lower_hex(t[i]))
            return 0;
        if (i >= 3 && i < 35 && t[i] != '0')
            trace_zero = 0;
        if (i >= 36 && i < 52 && t[i] != '0')
            parent_zero = 0;
    }
    if (t[0] == 'f' && t[1] == 'f')
        return 0;
    if (t[0] == '0' && t[1] == '0' && len != 55)
        return 0;
    if (len > 55 && t[55] != '-')
        return 0;
    return !trace_zero && !parent_zero;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[MINTID_ERRMSG_SIZE], trace_id[32], parent_id[16], out[MINTID_TRACEPARENT_LEN];
    uint8_t flags = 0;
    int rc;

    fuzz_err_reset(err);
    rc = mintid_traceparent_parse((const char *)data, size, trace_id, parent_id, &flags, err);
    if (!fuzz_decoded(rc, is_valid_traceparent(data, size), err))
        return 0;
    FUZZ_ASSERT(memcmp(trace_id, data + 3, 32) == 0 && memcmp(parent_id, data + 36, 16) == 0);
    FUZZ_ASSERT(mintid_traceparent_text(trace_id, 32, parent_id, 16, flags, out, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(out, "00", 2) == 0 && memcmp(out + 2, data + 2, 53) == 0);
    return 0;
}
