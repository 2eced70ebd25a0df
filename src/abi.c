/*
 * abi.c: the ABI for foreign callers. Each function composes core pieces
 * into one whole call (clock, pool, generator step, text), so that LuaJIT's
 * FFI, or a C program with no Lua, makes one crossing per ID, with output
 * buffers of fixed size and nothing allocated.
 */
#include <string.h>

#include "internal.h"

/* rc, after the ID was written to id by a core call that returned rc; on
 * success its text form is written to out. */
static int text_of(int rc, const uint8_t *id, void (*encode)(const uint8_t *id, char *out), char *out)
{
    if (rc == MINTID_OK)
        encode(id, out);
    return rc;
}

int mintid_ulid_text(char out[26], char *err)
{
    uint8_t id[16];

    return text_of(mintid_default_ulid(id, err), id, mintid_ulid_encode, out);
}

int mintid_uuid7_text(char out[36], char *err)
{
    uint8_t id[16];

    return text_of(mintid_default_uuid7(id, err), id, mintid_uuid_encode, out);
}

int mintid_uuid4_text(char out[36], char *err)
{
    uint8_t id[16];

    return text_of(mintid_default_uuid4(id, err), id, mintid_uuid_encode, out);
}

int mintid_uuid1_text(char out[36], char *err)
{
    uint8_t id[16];

    return text_of(mintid_default_uuid1(id, err), id, mintid_uuid_encode, out);
}

int mintid_uuid6_text(char out[36], char *err)
{
    uint8_t id[16];

    return text_of(mintid_default_uuid6(id, err), id, mintid_uuid_encode, out);
}

int mintid_ksuid_text(char out[27], char *err)
{
    uint8_t id[MINTID_KSUID_BYTES];

    return text_of(mintid_default_ksuid(id, err), id, mintid_ksuid_encode, out);
}

int mintid_objectid_text(char out[24], char *err)
{
    uint8_t id[MINTID_OBJECTID_BYTES];

    return text_of(mintid_default_objectid(id, err), id, mintid_objectid_encode, out);
}

int mintid_xid_text(char out[20], char *err)
{
    uint8_t id[MINTID_XID_BYTES];

    return text_of(mintid_default_xid(id, err), id, mintid_xid_encode, out);
}

/* The prefix is checked before the default generator steps, so a bad one
 * takes no UUIDv7 from it. */
int mintid_typeid_text(const char *prefix, size_t prefix_len, char out[90], char *err)
{
    uint8_t id[16];
    int rc = mintid_typeid_check_prefix(prefix, prefix_len, MINTID_EARG, err);

    if (rc == MINTID_OK)
        rc = mintid_default_uuid7(id, err);
    return rc == MINTID_OK ? mintid_typeid_encode(prefix, prefix_len, id, out, err) : rc;
}

/* The pool's ctx is the err buffer, so an OS failure keeps its reason. */
int mintid_nanoid_text(const mintid_nanoid_spec *s, char *out, char *err)
{
    return mintid_nanoid_generate(mintid_nanoid_state_of_const(s), mintid_random_pool, err, (uint8_t *)out, err);
}

int mintid_ulid_gen_next_text(mintid_ulid_gen *g, char out[26], char *err)
{
    uint8_t id[16];
    int64_t now = 0;
    int rc = mintid_os_clock_ms(&now, err);

    if (rc == MINTID_OK)
        rc = mintid_ulid_gen_next(mintid_ulid_state_of(g), now, mintid_random_pool, err, id, err);
    return text_of(rc, id, mintid_ulid_encode, out);
}

int mintid_uuid7_gen_next_text(mintid_uuid7_gen *g, char out[36], char *err)
{
    uint8_t id[16];
    int64_t now = 0;
    int rc = mintid_os_clock_ms(&now, err);

    if (rc == MINTID_OK)
        rc = mintid_uuid7_gen_next(mintid_uuid7_state_of(g), now, mintid_random_pool, err, id, err);
    return text_of(rc, id, mintid_uuid_encode, out);
}

int mintid_relative_gen_next_text(mintid_relative_gen *g, const uint8_t *key, size_t key_len,
                                  char out[28], char *err)
{
    uint8_t id[16];
    int64_t now = 0;
    int rc = mintid_os_clock_ms(&now, err);

    if (rc == MINTID_OK)
        rc = mintid_relative_gen_next(mintid_relative_state_of(g), now, key, key_len, mintid_random_pool, err, id, err);
    return text_of(rc, id, mintid_relative_encode, out);
}

int mintid_snowflake_gen_next_text(mintid_snowflake_gen *g, char out[20], char *err)
{
    uint64_t id = 0;
    int rc = mintid_snowflake_gen_next(mintid_snowflake_state_of(g), &id, err);

    if (rc != MINTID_OK)
        return rc;
    return (int)mintid_snowflake_format_decimal(id, out);
}

int mintid_uuid_time_gen_next_text(mintid_uuid_time_gen *g, char out[36], char *err)
{
    uint8_t id[16];
    int64_t now = 0;
    int rc = mintid_os_clock_100ns(&now, err);

    if (rc == MINTID_OK)
        rc = mintid_uuid_time_gen_next_100ns(mintid_uuid_time_state_of(g), now, mintid_random_pool, err, id, err);
    return text_of(rc, id, mintid_uuid_encode, out);
}

int mintid_ksuid_gen_next_text(mintid_ksuid_gen *g, char out[27], char *err)
{
    uint8_t id[MINTID_KSUID_BYTES];
    int64_t now = 0;
    int rc = mintid_os_clock_ms(&now, err);

    if (rc == MINTID_OK)
        rc = mintid_ksuid_gen_next(mintid_ksuid_state_of(g), now, mintid_random_pool, err, id, err);
    return text_of(rc, id, mintid_ksuid_encode, out);
}

int mintid_objectid_gen_next_text(mintid_objectid_gen *g, char out[24], char *err)
{
    uint8_t id[MINTID_OBJECTID_BYTES];
    int64_t seconds = 0;
    int rc = mintid_os_clock_s(&seconds, err);

    if (rc == MINTID_OK)
        rc = mintid_objectid_gen_next_s(mintid_objectid_state_of(g), seconds, mintid_random_pool, err, id, err);
    return text_of(rc, id, mintid_objectid_encode, out);
}

int mintid_xid_gen_next_text(mintid_xid_gen *g, char out[20], char *err)
{
    uint8_t id[MINTID_XID_BYTES];
    int64_t seconds = 0;
    int rc = mintid_os_clock_s(&seconds, err);

    if (rc == MINTID_OK)
        rc = mintid_xid_gen_next_s(mintid_xid_state_of(g), seconds, mintid_random_pool, err,
                                   NULL, id, err);
    return text_of(rc, id, mintid_xid_encode, out);
}

int mintid_typeid_gen_next_text(mintid_uuid7_gen *g, const char *prefix, size_t prefix_len,
                                char out[90], char *err)
{
    int64_t now = 0;
    int rc = mintid_os_clock_ms(&now, err);

    if (rc != MINTID_OK)
        return rc;
    return mintid_typeid_gen_next(mintid_uuid7_state_of(g), prefix, prefix_len, now, mintid_random_pool, err,
                                  out, err);
}

static int name_text(mintid_name_uuid_fn make, const char *ns, size_t ns_len, const uint8_t *name, size_t name_len,
                     char out[36], char *err)
{
    uint8_t ns_id[16], id[16];
    int rc = mintid_uuid_decode(ns, ns_len, ns_id, err);

    if (rc == MINTID_OK)
        make(ns_id, name, name_len, id);
    return text_of(rc, id, mintid_uuid_encode, out);
}

int mintid_uuid3_text(const char *ns, size_t ns_len, const uint8_t *name, size_t name_len,
                      char out[36], char *err)
{
    return name_text(mintid_uuid3, ns, ns_len, name, name_len, out, err);
}

int mintid_uuid5_text(const char *ns, size_t ns_len, const uint8_t *name, size_t name_len,
                      char out[36], char *err)
{
    return name_text(mintid_uuid5, ns, ns_len, name, name_len, out, err);
}

int mintid_uuid8_sha256_text(const char *ns, size_t ns_len, const uint8_t *name, size_t name_len,
                             char out[36], char *err)
{
    return name_text(mintid_uuid8_sha256, ns, ns_len, name, name_len, out, err);
}

int mintid_ulid_to_uuid_text(const char *text, size_t len, char out[36], char *err)
{
    uint8_t id[16];

    return text_of(mintid_ulid_decode(text, len, id, err), id, mintid_uuid_encode, out);
}

int mintid_uuid_to_ulid_text(const char *text, size_t len, char out[26], char *err)
{
    uint8_t id[16];

    return text_of(mintid_uuid_decode(text, len, id, err), id, mintid_ulid_encode, out);
}

size_t mintid_abi_sizeof(const char *type_name)
{
    static const struct { const char *name; size_t size; } sizes[] = {
        { "mintid_ulid_gen", sizeof(mintid_ulid_gen) },
        { "mintid_uuid7_gen", sizeof(mintid_uuid7_gen) },
        { "mintid_relative_gen", sizeof(mintid_relative_gen) },
        { "mintid_snowflake_gen", sizeof(mintid_snowflake_gen) },
        { "mintid_nanoid_spec", sizeof(mintid_nanoid_spec) },
        { "mintid_uuid_time_gen", sizeof(mintid_uuid_time_gen) },
        { "mintid_ksuid_gen", sizeof(mintid_ksuid_gen) },
        { "mintid_cuid2_gen", sizeof(mintid_cuid2_gen) },
        { "mintid_objectid_gen", sizeof(mintid_objectid_gen) },
        { "mintid_xid_gen", sizeof(mintid_xid_gen) },
        { "mintid_fence", sizeof(mintid_fence) },
        { "mintid_snowflake_layout", sizeof(mintid_snowflake_layout) },
        { "mintid_short_uuid_alphabet", sizeof(mintid_short_uuid_alphabet) },
        { "mintid_sqids", sizeof(mintid_sqids) },
    };
    size_t i;

    for (i = 0; type_name != NULL && i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(sizes[i].name, type_name) == 0)
            return sizes[i].size;
    return 0;
}
