/*
 * snowflake_decode.c: mintid_snowflake_parse_decimal on any bytes. It
 * accepts exactly 1 to 20 ASCII digits whose value is at most 2^64 - 1;
 * what it accepts formats back to the input without its leading zeros,
 * splits into parts that rebuild the ID, and has a timestamp exactly when
 * it fits the host's integers; what it refuses gets a one-line message.
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

/* mintid_snowflake_timestamp: (id >> 22) + epoch when that is at most the
 * host's max (int64, or 2^53 - 1 for doubles), else ERANGE with a message;
 * tried at the epochs on either side of that edge. */
static void check_timestamp(uint64_t id)
{
    static const int64_t maxes[] = { INT64_MAX, (INT64_C(1) << 53) - 1 };
    const int64_t t = (int64_t)(id >> 22);
    char err[MINTID_ERRMSG_SIZE];
    int64_t got, epoch;
    size_t m;
    int d, rc;

    for (m = 0; m < sizeof maxes / sizeof maxes[0]; m++) {
        for (d = -1; d <= 1; d++) {
            if (d > 0 && t == 0 && maxes[m] == INT64_MAX)
                break; /* no int64 epoch is past INT64_MAX */
            epoch = maxes[m] - t + d;
            fuzz_err_reset(err);
            rc = mintid_snowflake_timestamp(id, epoch, maxes[m], &got, err);
            if (d <= 0) {
                FUZZ_ASSERT(rc == MINTID_OK && got == t + epoch);
            } else {
                FUZZ_ASSERT(rc == MINTID_ERANGE);
                fuzz_check_message(err);
            }
        }
        FUZZ_ASSERT(mintid_snowflake_timestamp(id, 0, maxes[m], &got, NULL) == MINTID_OK && got == t);
    }
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
    check_timestamp(id);
    return 0;
}
