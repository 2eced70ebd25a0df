/*
 * uuid_name.c: name-based UUIDs (RFC 9562 5.3 v3, 5.5 v5, B.2 v8 with
 * SHA-256) and the custom v8 (5.8): the first 16 bytes of
 * hash(namespace || name), then the version and variant of every UUID.
 */
#include <string.h>

#include "internal.h"

/* RFC 9562 6.6: they differ only in byte 3. */
#define NAMESPACE(b3) { 0x6b, 0xa7, 0xb8, b3, 0x9d, 0xad, 0x11, 0xd1, \
                        0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8 }
MINTID_INTERNAL_DATA const uint8_t mintid_uuid_namespace_dns[16] = NAMESPACE(0x10);
MINTID_INTERNAL_DATA const uint8_t mintid_uuid_namespace_url[16] = NAMESPACE(0x11);
MINTID_INTERNAL_DATA const uint8_t mintid_uuid_namespace_oid[16] = NAMESPACE(0x12);
MINTID_INTERNAL_DATA const uint8_t mintid_uuid_namespace_x500[16] = NAMESPACE(0x14);
#undef NAMESPACE

/* digest holds at least 16 bytes of the hash; the rest is dropped. */
static void name_finish(const uint8_t *digest, unsigned version, uint8_t out[16])
{
    memcpy(out, digest, 16);
    mintid_uuid_set_version(out, version);
}

void mintid_uuid3(const uint8_t ns[16], const uint8_t *name, size_t name_len, uint8_t out[16])
{
    mintid_md5_ctx c;
    uint8_t digest[16];

    mintid_md5_init(&c);
    mintid_md5_update(&c, ns, 16);
    mintid_md5_update(&c, name, name_len);
    mintid_md5_final(&c, digest);
    name_finish(digest, 3, out);
}

void mintid_uuid5(const uint8_t ns[16], const uint8_t *name, size_t name_len, uint8_t out[16])
{
    mintid_sha1_ctx c;
    uint8_t digest[20];

    mintid_sha1_init(&c);
    mintid_sha1_update(&c, ns, 16);
    mintid_sha1_update(&c, name, name_len);
    mintid_sha1_final(&c, digest);
    name_finish(digest, 5, out);
}

void mintid_uuid8_sha256(const uint8_t ns[16], const uint8_t *name, size_t name_len, uint8_t out[16])
{
    mintid_sha256_ctx c;
    uint8_t digest[32];

    mintid_sha256_init(&c);
    mintid_sha256_update(&c, ns, 16);
    mintid_sha256_update(&c, name, name_len);
    mintid_sha256_final(&c, digest);
    name_finish(digest, 8, out);
}

void mintid_uuid8(const uint8_t b[16], uint8_t out[16])
{
    name_finish(b, 8, out);
}
