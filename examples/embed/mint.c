/*
 * mint.c: mintid from C with no Lua at all, through the MINTID_API functions
 * of mintid.h (doc/guide.md "Embedding", third way). Built from the single
 * file compiled with -DMINTID_NO_LUA:
 *
 *   cc -DMINTID_NO_LUA -Ibuild/amalgamation -o mint examples/embed/mint.c \
 *       build/amalgamation/mintid.c -pthread
 *
 * Mints and parses every kind; prints TAP, exits 1 if a test failed.
 */
#include <stdio.h>
#include <string.h>

#include "mintid.h"

static int tests, failures;

static void check(int ok, const char *what, const char *detail)
{
    printf("%s %d - %s%s%s\n", ok ? "ok" : "not ok", ++tests, what, detail ? ": " : "", detail ? detail : "");
    if (!ok)
        failures++;
}

int main(void)
{
    char err[MINTID_ERRMSG_SIZE] = "";
    char ulid[MINTID_ULID_TEXT_LEN + 1] = "", uuid[MINTID_UUID_TEXT_LEN + 1] = "";
    char rel[MINTID_RELATIVE_TEXT_LEN + 1] = "", flake[MINTID_SNOWFLAKE_DECIMAL_MAX + 1] = "";
    char nano[17] = "";
    char ksuid[MINTID_KSUID_TEXT_LEN + 1] = "";
    char typeid[MINTID_TYPEID_MAX_TEXT_LEN + 1] = "";
    uint8_t id[16];
    int rc, len;

    /* The default generators: process-wide, thread-safe, fresh after fork. */
    rc = mintid_ulid_text(ulid, err);
    check(rc == MINTID_OK && mintid_ulid_decode(ulid, MINTID_ULID_TEXT_LEN, id, err) == MINTID_OK,
          "ULID: mintid_ulid_text, parsed back by mintid_ulid_decode", ulid);
    rc = mintid_uuid7_text(uuid, err);
    check(rc == MINTID_OK && mintid_uuid_decode(uuid, MINTID_UUID_TEXT_LEN, id, err) == MINTID_OK &&
          id[6] >> 4 == 7, "UUIDv7: mintid_uuid7_text, parsed back by mintid_uuid_decode", uuid);
    rc = mintid_uuid4_text(uuid, err);
    check(rc == MINTID_OK && mintid_uuid_decode(uuid, MINTID_UUID_TEXT_LEN, id, err) == MINTID_OK &&
          id[6] >> 4 == 4, "UUIDv4: mintid_uuid4_text", uuid);

    rc = mintid_uuid6_text(uuid, err);
    check(rc == MINTID_OK && mintid_uuid_decode(uuid, MINTID_UUID_TEXT_LEN, id, err) == MINTID_OK &&
          id[6] >> 4 == 6, "UUIDv6: mintid_uuid6_text", uuid);
    rc = mintid_uuid5_text("6ba7b810-9dad-11d1-80b4-00c04fd430c8", 36, (const uint8_t *)"www.example.com", 15,
                           uuid, err);
    check(rc == MINTID_OK && memcmp(uuid, "2ed6657d-e927-568b-95e1-2665a8aea6a2", 36) == 0,
          "UUIDv5: mintid_uuid5_text of the RFC 9562 example", uuid);
    rc = mintid_ksuid_text(ksuid, err);
    check(rc == MINTID_OK, "KSUID: mintid_ksuid_text", ksuid);
    len = mintid_typeid_text("user", 4, typeid, err);
    if (len > 0)
        typeid[len] = '\0';
    check(len == 31 && memcmp(typeid, "user_", 5) == 0, "TypeID: mintid_typeid_text", typeid);

    /* W3C Trace Context: continue a valid incoming trace as a new span, or
     * start one (doc/trace.md). */
    {
        static const char incoming[] = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        char trace_id[MINTID_TRACE_ID_TEXT_LEN], parent_id[MINTID_SPAN_ID_TEXT_LEN];
        char header[MINTID_TRACEPARENT_LEN + 1] = "";
        uint8_t flags = 0;

        rc = mintid_traceparent_parse(incoming, sizeof incoming - 1, trace_id, parent_id, &flags, err);
        if (rc == MINTID_OK)
            rc = mintid_traceparent_text(trace_id, sizeof trace_id, NULL, 0, flags, header, err);
        check(rc == MINTID_OK && memcmp(header, incoming, 36) == 0 && memcmp(header + 52, "-01", 3) == 0 &&
              memcmp(header + 36, incoming + 36, 16) != 0,
              "traceparent: mintid_traceparent_parse, a new span by mintid_traceparent_text", header);
        rc = mintid_traceparent_parse("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", 55, trace_id,
                                      parent_id, &flags, err);
        check(rc == MINTID_EPARSE && strcmp(err, "invalid traceparent: version ff is invalid") == 0,
              "traceparent: version ff refused", err);
        rc = mintid_trace_id_text(trace_id, err);
        check(rc == MINTID_OK, "trace-id: mintid_trace_id_text", NULL);
    }

    /* A generator of one's own lives in the caller's memory. */
    {
        static const char secret[] = "example secret, not for production";
        mintid_relative_gen g;
        uint32_t tag;
        char prefix[MINTID_RELATIVE_PREFIX_LEN];

        rc = mintid_relative_gen_init(&g, (const uint8_t *)secret, sizeof secret - 1,
                                      (const uint8_t *)"orders", 6, err);
        if (rc == MINTID_OK)
            rc = mintid_relative_gen_next_text(&g, (const uint8_t *)"customer-17", 11, rel, err);
        tag = mintid_relative_gen_tag(&g, (const uint8_t *)"customer-17", 11);
        mintid_relative_prefix(tag, prefix);
        mintid_relative_gen_wipe(&g); /* the key schedule is secret-equivalent */
        check(rc == MINTID_OK && mintid_relative_decode(rel, MINTID_RELATIVE_TEXT_LEN, id, err) == MINTID_OK &&
              memcmp(rel, prefix, sizeof prefix) == 0, "relative ID: starts with its key's prefix", rel);
    }
    {
        mintid_snowflake_gen g;
        uint64_t value = 0;
        int64_t ms = 0;
        uint32_t machine = 0, seq = 0;

        rc = mintid_snowflake_gen_init(&g, 7, INT64_C(1288834974657), err);
        len = rc == MINTID_OK ? mintid_snowflake_gen_next_text(&g, flake, err) : rc;
        if (len > 0)
            flake[len] = '\0';
        rc = len > 0 ? mintid_snowflake_parse_decimal(flake, (size_t)len, &value, err) : len;
        if (rc == MINTID_OK)
            mintid_snowflake_split(value, INT64_C(1288834974657), &ms, &machine, &seq);
        check(rc == MINTID_OK && machine == 7, "Snowflake: machine 7, parsed back", flake);
    }
    {
        static const char hex[] = "0123456789abcdef";
        mintid_nanoid_spec spec;

        rc = mintid_nanoid_spec_init(&spec, (const uint8_t *)hex, 16, 16, err);
        if (rc == MINTID_OK)
            rc = mintid_nanoid_text(&spec, nano, err);
        check(rc == MINTID_OK && strspn(nano, hex) == 16, "Nano ID: 16 hex symbols", nano);
    }

    {
        static const uint8_t node[6] = { 1, 2, 3, 4, 5, 6 };
        mintid_uuid_time_gen v6;
        mintid_ksuid_gen kg;
        mintid_uuid7_gen tg;

        rc = mintid_uuid_time_gen_init(&v6, 6, node, sizeof node, 42, err);
        if (rc == MINTID_OK)
            rc = mintid_uuid_time_gen_next_text(&v6, uuid, err);
        check(rc == MINTID_OK && memcmp(uuid + 19, "802a-010203040506", 17) == 0,
              "UUIDv6: a generator with its own node and clock_seq", uuid);
        mintid_ksuid_gen_init(&kg);
        rc = mintid_ksuid_gen_next_text(&kg, ksuid, err);
        check(rc == MINTID_OK, "KSUID: a generator of one's own", ksuid);
        mintid_uuid7_gen_init(&tg);
        len = mintid_typeid_gen_next_text(&tg, "post", 4, typeid, err);
        if (len > 0)
            typeid[len] = '\0';
        check(len == 31 && memcmp(typeid, "post_", 5) == 0, "TypeID: on a UUIDv7 generator of one's own", typeid);
    }

    {
        char cuid[MINTID_CUID2_MAX_LEN + 1] = "";
        mintid_cuid2_gen cg;

        len = mintid_cuid2_text(24, cuid, err);
        if (len > 0)
            cuid[len] = '\0';
        check(len == 24 && mintid_cuid2_valid(cuid, (size_t)len, 2, 32), "CUID2: mintid_cuid2_text", cuid);
        rc = mintid_cuid2_gen_init(&cg, 10, (const uint8_t *)"host-17", 7, err);
        len = rc == MINTID_OK ? mintid_cuid2_gen_next_text(&cg, cuid, err) : rc;
        if (len > 0)
            cuid[len] = '\0';
        check(len == 10 && mintid_cuid2_valid(cuid, (size_t)len, 10, 10), "CUID2: a generator of one's own, length 10",
              cuid);
    }

    /* Bad data: a negative code and a one-line message. */
    rc = mintid_ulid_decode("01ARZ3NDEKTSV4RRFFQ69G5FAU", 26, id, err);
    check(rc == MINTID_EPARSE && strcmp(err, "invalid ULID: bad character 'U' at 26") == 0,
          "bad ULID text: MINTID_EPARSE and its message", err);
    check(strcmp(mintid_strerror(MINTID_EPARSE), "") != 0, "mintid_strerror names a code",
          mintid_strerror(MINTID_EPARSE));

    printf("1..%d\n", tests);
    return failures == 0 ? 0 : 1;
}
