/*
 * roundtrip.c: two arbitrary 16-byte values a and b (the input, zero-padded
 * to 32 bytes). Each goes through every encoder and back: ULID, UUID and
 * relative-ID text (every 128-bit value is a relative ID: 30 + 48 + 50
 * bits) decode to the same bytes, and so do their lower- and upper-case
 * forms and the relative ID's 26-symbol form. The texts of a and b compare
 * as a and b do (SPEC: text order is byte order), and so do the decimal
 * texts of their first 8 bytes read as Snowflake IDs, by length then digits;
 * their first 12 bytes as ObjectId text (either case) and XID text decode
 * back and compare as those bytes do.
 */
#include "fuzz.h"

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

typedef int (*decode_fn)(const char *text, size_t len, uint8_t out[16], char *err);

/* text, and the same in lower and in upper case, decode to id. */
static void decodes_to(decode_fn decode, const char *text, size_t len, const uint8_t id[16])
{
    char folded[MINTID_UUID_TEXT_LEN];
    uint8_t back[16];
    size_t i;
    int upper;

    FUZZ_ASSERT(len <= sizeof folded);
    FUZZ_ASSERT(decode(text, len, back, NULL) == MINTID_OK && memcmp(id, back, 16) == 0);
    for (upper = 0; upper < 2; upper++) {
        for (i = 0; i < len; i++)
            folded[i] = (char)(upper ? fuzz_upper((unsigned char)text[i]) : fuzz_lower((unsigned char)text[i]));
        FUZZ_ASSERT(decode(folded, len, back, NULL) == MINTID_OK && memcmp(id, back, 16) == 0);
    }
}

typedef struct {
    char ulid[MINTID_ULID_TEXT_LEN];
    char uuid[MINTID_UUID_TEXT_LEN];
    char relative[MINTID_RELATIVE_TEXT_LEN];
    char snowflake[MINTID_SNOWFLAKE_DECIMAL_MAX];
    size_t snowflake_len;
    char objectid[MINTID_OBJECTID_TEXT_LEN];
    char xid[MINTID_XID_TEXT_LEN];
} encodings;

/* The first 12 bytes as an ObjectId (and its uppercase form) and an XID. */
static void round_trip12(const uint8_t id[16], encodings *e)
{
    char upper[MINTID_OBJECTID_TEXT_LEN];
    uint8_t back[12];
    size_t i;

    mintid_objectid_encode(id, e->objectid);
    FUZZ_ASSERT(mintid_objectid_decode(e->objectid, sizeof e->objectid, back, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(id, back, 12) == 0);
    for (i = 0; i < sizeof upper; i++)
        upper[i] = (char)fuzz_upper((unsigned char)e->objectid[i]);
    FUZZ_ASSERT(mintid_objectid_decode(upper, sizeof upper, back, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(id, back, 12) == 0);
    mintid_xid_encode(id, e->xid);
    FUZZ_ASSERT(mintid_xid_decode(e->xid, sizeof e->xid, back, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(id, back, 12) == 0);
}

static void round_trip(const uint8_t id[16], encodings *e)
{
    char short_form[MINTID_RELATIVE_TEXT_LEN - 2], prefix[MINTID_RELATIVE_PREFIX_LEN];
    uint8_t parts[16];
    uint32_t tag;
    int64_t ms;
    uint64_t rand, flake = 0, flake_back = 0;
    size_t i;

    mintid_ulid_encode(id, e->ulid);
    decodes_to(mintid_ulid_decode, e->ulid, sizeof e->ulid, id);
    FUZZ_ASSERT(mintid_ulid_from_parts(mintid_ulid_time(id), id + 6, parts, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(id, parts, 16) == 0);

    mintid_uuid_encode(id, e->uuid);
    decodes_to(mintid_uuid_decode, e->uuid, sizeof e->uuid, id);

    mintid_relative_encode(id, e->relative);
    decodes_to(mintid_relative_decode, e->relative, sizeof e->relative, id);
    memcpy(short_form, e->relative, 6);
    memcpy(short_form + 6, e->relative + 7, 10);
    memcpy(short_form + 16, e->relative + 18, 10);
    decodes_to(mintid_relative_decode, short_form, sizeof short_form, id);
    mintid_relative_split(id, &tag, &ms, &rand);
    FUZZ_ASSERT(mintid_relative_from_parts(tag, ms, (int64_t)rand, parts, NULL) == MINTID_OK);
    FUZZ_ASSERT(memcmp(id, parts, 16) == 0);
    mintid_relative_prefix(tag, prefix);
    FUZZ_ASSERT(memcmp(prefix, e->relative, sizeof prefix) == 0);

    for (i = 0; i < 8; i++)
        flake = flake << 8 | id[i];
    e->snowflake_len = mintid_snowflake_format_decimal(flake, e->snowflake);
    FUZZ_ASSERT(e->snowflake_len >= 1 && e->snowflake_len <= MINTID_SNOWFLAKE_DECIMAL_MAX);
    FUZZ_ASSERT(e->snowflake_len == 1 || e->snowflake[0] != '0');
    FUZZ_ASSERT(mintid_snowflake_parse_decimal(e->snowflake, e->snowflake_len, &flake_back, NULL) ==
                MINTID_OK);
    FUZZ_ASSERT(flake_back == flake);
    round_trip12(id, e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t a[16], b[16];
    encodings ea, eb;
    int order, flake_order;

    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    memcpy(a, data, size < 16 ? size : 16);
    if (size > 16)
        memcpy(b, data + 16, size - 16 < 16 ? size - 16 : 16);

    round_trip(a, &ea);
    round_trip(b, &eb);
    order = sign(memcmp(a, b, 16));
    FUZZ_ASSERT(sign(memcmp(ea.ulid, eb.ulid, sizeof ea.ulid)) == order);
    FUZZ_ASSERT(sign(memcmp(ea.uuid, eb.uuid, sizeof ea.uuid)) == order);
    FUZZ_ASSERT(sign(memcmp(ea.relative, eb.relative, sizeof ea.relative)) == order);
    FUZZ_ASSERT(sign(memcmp(ea.objectid, eb.objectid, sizeof ea.objectid)) == sign(memcmp(a, b, 12)));
    FUZZ_ASSERT(sign(memcmp(ea.xid, eb.xid, sizeof ea.xid)) == sign(memcmp(a, b, 12)));

    /* Canonical decimals order by length first. */
    flake_order = sign(memcmp(a, b, 8));
    if (ea.snowflake_len != eb.snowflake_len)
        FUZZ_ASSERT(sign((int)ea.snowflake_len - (int)eb.snowflake_len) == flake_order);
    else
        FUZZ_ASSERT(sign(memcmp(ea.snowflake, eb.snowflake, ea.snowflake_len)) == flake_order);
    return 0;
}
