/*
 * snowflake_decode.c: mintid_snowflake_parse_decimal on any bytes. It
 * accepts exactly 1 to 20 ASCII digits whose value is at most 2^64 - 1;
 * what it accepts formats back to the input without its leading zeros, and
 * splits into parts that rebuild the ID; what it refuses gets a one-line
 * message.
 */
#include "fuzz.h"

static const char uint64_max_text[] = "18446744073709551615";

/* The rule, written apart from the parser: compared as text. */
static int is_valid_decimal(const uint8_t *t, size_t len, size_t *zeros)
{
    size_t i, digits;

    if (len == 0 || len > MINTID_SNOWFLAKE_DECIMAL_MAX)
        return 0;
    for (i = 0; i < len; i++)
        if (t[i] < '0' || t[i] > '9')
            return 0;
    for (*zeros = 0; *zeros < len - 1 && t[*zeros] == '0'; (*zeros)++)
        ;
    digits = len - *zeros;
    return digits < MINTID_SNOWFLAKE_DECIMAL_MAX ||
           memcmp(t + *zeros, uint64_max_text, MINTID_SNOWFLAKE_DECIMAL_MAX) <= 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[MINTID_ERRMSG_SIZE], text[MINTID_SNOWFLAKE_DECIMAL_MAX];
    uint64_t id = 0, again = 0;
    int64_t timestamp;
    uint32_t machine, sequence;
    size_t zeros = 0, len;
    int rc;

    fuzz_err_reset(err);
    rc = mintid_snowflake_parse_decimal((const char *)data, size, &id, err);
    if (!fuzz_decoded(rc, is_valid_decimal(data, size, &zeros), err))
        return 0;
    len = mintid_snowflake_format_decimal(id, text);
    FUZZ_ASSERT(len == size - zeros && memcmp(text, data + zeros, len) == 0);
    FUZZ_ASSERT(mintid_snowflake_parse_decimal(text, len, &again, NULL) == MINTID_OK && again == id);

    /* SPEC's parse with epoch 0: the three fields put back give the ID. */
    mintid_snowflake_split(id, 0, &timestamp, &machine, &sequence);
    FUZZ_ASSERT(machine <= MINTID_SNOWFLAKE_MAX_MACHINE && sequence <= 4095);
    FUZZ_ASSERT(((uint64_t)timestamp << 22 | (uint64_t)machine << 12 | sequence) == id);
    return 0;
}
