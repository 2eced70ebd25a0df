/*
 * test_core.c: native checks of the core's SHA-256, HMAC-SHA-256, relative-ID tags,
 * the random pool's reseed bound and the bounded wait of a Snowflake generator on the OS clock, printed as TAP;
 * then MD5 and SHA-1 on inputs too long for a vector file, and the error paths of the
 * UUID v1/v6, KSUID and TypeID core, and the ObjectId and XID counter's bound.
 * Usage: test_core [testdata-dir]
 *
 * The vector files are checked, and the published FIPS 180-4 and RFC 4231
 * answers are embedded too, so a wrong vector file cannot hide a wrong hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mintid.h"
#include "internal.h" /* the pool's reseed count */
#include "tap.h"

#define MAX_COLS 8


static void *xmalloc(size_t n)
{
    void *p = malloc(n > 0 ? n : 1);
    if (p == NULL) {
        fputs("Bail out! out of memory\n", stdout);
        exit(1);
    }
    return p;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes hex (the vector files' "-" is the empty string) into a new buffer;
 * NULL for text that is not hex. */
static uint8_t *from_hex(const char *s, size_t *n)
{
    size_t len = strlen(s), i;
    uint8_t *p;

    if (strcmp(s, "-") == 0)
        len = 0;
    if (len % 2 != 0)
        return NULL;
    p = xmalloc(len / 2);
    for (i = 0; i < len / 2; i++) {
        int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(p);
            return NULL;
        }
        p[i] = (uint8_t)(hi << 4 | lo);
    }
    *n = len / 2;
    return p;
}

static int same_hex(const uint8_t *got, size_t n, const char *want_hex)
{
    size_t wn = 0;
    uint8_t *want = from_hex(want_hex, &wn);
    int same = want != NULL && wn == n && memcmp(got, want, n) == 0;

    free(want);
    return same;
}

/* One line of any length without its line end; 0 at end of file. */
static int read_line(FILE *f, char **buf, size_t *cap)
{
    size_t len = 0;
    int c;

    while ((c = fgetc(f)) != EOF && c != '\n') {
        if (len + 1 >= *cap) {
            char *bigger;
            *cap = *cap ? *cap * 2 : 256;
            bigger = realloc(*buf, *cap);
            if (bigger == NULL) {
                fputs("Bail out! out of memory\n", stdout);
                exit(1);
            }
            *buf = bigger;
        }
        (*buf)[len++] = (char)c;
    }
    if (c == EOF && len == 0)
        return 0;
    if (*buf == NULL) {
        *cap = 1;
        *buf = xmalloc(1);
    }
    if (len > 0 && (*buf)[len - 1] == '\r')
        len--;
    (*buf)[len] = '\0';
    return 1;
}

typedef void (*vector_fn)(char **cols, int lineno);

/* Calls fn for each vector line of dir/name with exactly ncols columns. */
static void each_vector(const char *dir, const char *name, int ncols, vector_fn fn)
{
    char path[1024];
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, vectors = 0;
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "r");
    if (f == NULL) {
        check(0, "open %s", path);
        return;
    }
    while (read_line(f, &line, &cap)) {
        char *cols[MAX_COLS];
        int n = 0;
        char *p = line;

        lineno++;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        for (;;) {
            char *tab = strchr(p, '\t');
            if (n < MAX_COLS)
                cols[n] = p;
            n++;
            if (tab == NULL)
                break;
            *tab = '\0';
            p = tab + 1;
        }
        if (n != ncols) {
            check(0, "%s line %d: %d columns, want %d", name, lineno, n, ncols);
            continue;
        }
        vectors++;
        fn(cols, lineno);
    }
    free(line);
    fclose(f);
    check(vectors > 0, "%s holds vectors (%d)", name, vectors);
}

static void sha256_streamed(const uint8_t *msg, size_t n, uint8_t digest[32])
{
    mintid_sha256_ctx c;
    size_t i;

    mintid_sha256_init(&c);
    for (i = 0; i < n; i++)
        mintid_sha256_update(&c, msg + i, 1);
    mintid_sha256_final(&c, digest);
}

static void sha256_vector(char **cols, int lineno)
{
    size_t n = 0;
    uint8_t *msg = from_hex(cols[0], &n);
    uint8_t digest[32];

    if (msg == NULL) {
        check(0, "sha256.txt line %d: bad hex", lineno);
        return;
    }
    mintid_sha256(msg, n, digest);
    check(same_hex(digest, 32, cols[1]), "sha256.txt line %d: %zu-byte message", lineno, n);
    sha256_streamed(msg, n, digest);
    check(same_hex(digest, 32, cols[1]), "sha256.txt line %d: byte by byte", lineno);
    free(msg);
}

static void hmac_vector(char **cols, int lineno)
{
    size_t kn = 0, mn = 0;
    uint8_t *key = from_hex(cols[0], &kn), *msg = from_hex(cols[1], &mn);
    uint8_t mac[32];

    if (key == NULL || msg == NULL) {
        check(0, "hmac_sha256.txt line %d: bad hex", lineno);
    } else {
        mintid_hmac_sha256(key, kn, msg, mn, mac);
        check(same_hex(mac, 32, cols[2]), "hmac_sha256.txt line %d: %zu-byte key, %zu-byte message",
              lineno, kn, mn);
    }
    free(key);
    free(msg);
}

static void check_sha256_published(void)
{
    static const struct { const char *msg; const char *digest; } fips[] = {
        { "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
        { "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
        { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
        { "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
          "mnopqrstnopqrstu",
          "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
    };
    static const char million_a[] = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    const size_t million = 1000000;
    uint8_t digest[32];
    uint8_t *a;
    mintid_sha256_ctx c;
    size_t i;

    for (i = 0; i < sizeof fips / sizeof fips[0]; i++) {
        const uint8_t *msg = (const uint8_t *)fips[i].msg;
        size_t n = strlen(fips[i].msg);

        mintid_sha256(msg, n, digest);
        check(same_hex(digest, 32, fips[i].digest), "FIPS 180-4 sha256 of a %zu-byte message", n);
        sha256_streamed(msg, n, digest);
        check(same_hex(digest, 32, fips[i].digest), "FIPS 180-4 sha256 of a %zu-byte message, byte by byte", n);
    }

    a = xmalloc(million);
    memset(a, 'a', million);
    mintid_sha256(a, million, digest);
    check(same_hex(digest, 32, million_a), "FIPS 180-4 sha256 of one million 'a'");
    mintid_sha256_init(&c);
    for (i = 0; i < million; i += 1000)
        mintid_sha256_update(&c, a, 1000);
    mintid_sha256_final(&c, digest);
    check(same_hex(digest, 32, million_a), "FIPS 180-4 sha256 of one million 'a', 1000 at a time");
    sha256_streamed(a, million, digest);
    check(same_hex(digest, 32, million_a), "FIPS 180-4 sha256 of one million 'a', byte by byte");
    free(a);
}

/* Every two-part split and a run of odd chunk sizes give the one-shot digest:
 * the block buffer is right wherever a call boundary falls. */
static void check_sha256_splits(void)
{
    uint8_t msg[300], want[32], got[32];
    mintid_sha256_ctx c;
    size_t k, n, at;
    int splits_ok = 1, chunks_ok = 1;

    for (k = 0; k < sizeof msg; k++)
        msg[k] = (uint8_t)(k * 131 + 7);
    mintid_sha256(msg, sizeof msg, want);
    for (k = 0; k <= sizeof msg; k++) {
        mintid_sha256_init(&c);
        mintid_sha256_update(&c, msg, k);
        mintid_sha256_update(&c, msg + k, sizeof msg - k);
        mintid_sha256_final(&c, got);
        if (memcmp(got, want, 32) != 0)
            splits_ok = 0;
    }
    check(splits_ok, "sha256 streaming: every two-part split of 300 bytes equals one-shot");

    for (k = 1; k <= 130; k++) {
        mintid_sha256_init(&c);
        for (at = 0; at < sizeof msg; at += n) {
            n = sizeof msg - at < k ? sizeof msg - at : k;
            mintid_sha256_update(&c, msg + at, n);
        }
        mintid_sha256_final(&c, got);
        if (memcmp(got, want, 32) != 0)
            chunks_ok = 0;
    }
    check(chunks_ok, "sha256 streaming: chunks of 1..130 bytes equal one-shot");

    mintid_sha256_init(&c);
    mintid_sha256_update(&c, NULL, 0);
    mintid_sha256_update(&c, msg, 3);
    mintid_sha256_update(&c, NULL, 0);
    mintid_sha256_final(&c, got);
    mintid_sha256(msg, 3, want);
    check(memcmp(got, want, 32) == 0, "sha256 streaming: empty updates change nothing");
}

static void check_hmac_published(void)
{
    /* RFC 4231 section 4; case 5 publishes only the first 128 bits. */
    static const struct { const char *key, *data, *mac; size_t mac_len; } rfc[] = {
        { "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
          "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", 32 },
        { "4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", 32 },
        { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
          "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd",
          "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe", 32 },
        { "0102030405060708090a0b0c0d0e0f10111213141516171819",
          "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
          "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b", 32 },
        { "0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c", "546573742057697468205472756e636174696f6e",
          "a3b6167473100ee06e0c796c2955552b", 16 },
        { NULL, "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579"
                "204669727374",
          "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54", 32 },
        { NULL, "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b"
                "657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e"
                "6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d4143"
                "20616c676f726974686d2e",
          "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2", 32 },
    };
    uint8_t long_key[131];
    size_t i;

    /* Cases 6 and 7 use 131 bytes of 0xaa: longer than a block, hashed first. */
    memset(long_key, 0xaa, sizeof long_key);
    for (i = 0; i < sizeof rfc / sizeof rfc[0]; i++) {
        size_t kn = sizeof long_key, dn = 0, wn = 0;
        uint8_t *key = rfc[i].key ? from_hex(rfc[i].key, &kn) : NULL;
        uint8_t *data = from_hex(rfc[i].data, &dn);
        uint8_t *want = from_hex(rfc[i].mac, &wn);
        uint8_t mac[32];

        mintid_hmac_sha256(key ? key : long_key, kn, data, dn, mac);
        check(wn == rfc[i].mac_len && memcmp(mac, want, wn) == 0, "RFC 4231 test case %zu", i + 1);
        free(key);
        free(data);
        free(want);
    }
}

/* The tag the SPEC defines, computed the long way with the one-shot HMAC. */
static uint32_t tag_by_hand(const uint8_t *secret, size_t secret_len, const uint8_t *salt, size_t salt_len,
                            const uint8_t *key, size_t key_len)
{
    size_t n = 4 + salt_len + key_len;
    uint8_t *input = xmalloc(n);
    uint8_t mac[32];

    input[0] = (uint8_t)(salt_len >> 24);
    input[1] = (uint8_t)(salt_len >> 16);
    input[2] = (uint8_t)(salt_len >> 8);
    input[3] = (uint8_t)salt_len;
    if (salt_len > 0)
        memcpy(input + 4, salt, salt_len);
    if (key_len > 0)
        memcpy(input + 4 + salt_len, key, key_len);
    mintid_hmac_sha256(secret, secret_len, input, n, mac);
    free(input);
    return ((uint32_t)mac[0] << 24 | (uint32_t)mac[1] << 16 | (uint32_t)mac[2] << 8 | mac[3]) >> 2;
}

static void check_relative_tag_case(const char *what, const uint8_t *secret, size_t secret_len,
                                    const uint8_t *salt, size_t salt_len, const uint8_t *key, size_t key_len)
{
    uint32_t want = tag_by_hand(secret, secret_len, salt, salt_len, key, key_len);
    uint32_t got = 0, from_gen;
    mintid_relative_gen g;
    int rc = mintid_relative_tag(secret, secret_len, salt, salt_len, key, key_len, &got, NULL);

    check(rc == MINTID_OK && got == want, "relative tag equals HMAC by hand: %s", what);
    rc = mintid_relative_gen_init(&g, secret, secret_len, salt, salt_len, NULL);
    from_gen = mintid_relative_gen_tag(&g, key, key_len);
    check(rc == MINTID_OK && from_gen == want, "relative generator tag equals HMAC by hand: %s", what);
    mintid_relative_gen_wipe(&g);
}

static void check_relative_tags(void)
{
    uint8_t secret[100], salt[150], key[300];
    uint8_t zero[sizeof(mintid_relative_gen)];
    mintid_relative_gen g;
    char err[MINTID_ERRMSG_SIZE];
    uint32_t t1 = 0, t2 = 0;
    size_t i;
    int rc;

    for (i = 0; i < sizeof secret; i++)
        secret[i] = (uint8_t)(i * 7 + 1);
    for (i = 0; i < sizeof salt; i++)
        salt[i] = (uint8_t)('a' + i % 26);
    for (i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)(i * 13);

    check_relative_tag_case("16-byte secret, no salt", secret, 16, NULL, 0, key, 11);
    check_relative_tag_case("empty key", secret, 32, salt, 6, NULL, 0);
    check_relative_tag_case("64-byte secret", secret, 64, salt, 3, key, 20);
    check_relative_tag_case("100-byte secret, hashed first", secret, 100, salt, 10, key, 40);
    check_relative_tag_case("salt ending at a block boundary", secret, 20, salt, 124, key, 5);
    check_relative_tag_case("150-byte salt, 300-byte key", secret, 33, salt, 150, key, 300);

    /* The length prefix keeps salt "ab" + key "c" apart from "a" + "bc". */
    mintid_relative_tag(secret, 16, (const uint8_t *)"ab", 2, (const uint8_t *)"c", 1, &t1, NULL);
    mintid_relative_tag(secret, 16, (const uint8_t *)"a", 1, (const uint8_t *)"bc", 2, &t2, NULL);
    check(t1 != t2 && t1 <= MINTID_RELATIVE_MAX_TAG && t2 <= MINTID_RELATIVE_MAX_TAG,
          "relative tag: salt and key boundary matters");

    rc = mintid_relative_tag(secret, 15, NULL, 0, key, 1, &t1, err);
    check(rc == MINTID_EARG && strcmp(err, "secret must be at least 16 bytes, got 15") == 0,
          "relative tag: a 15-byte secret is refused");
    rc = mintid_relative_gen_init(&g, secret, 5, NULL, 0, err);
    check(rc == MINTID_EARG && strcmp(err, "secret must be at least 16 bytes, got 5") == 0,
          "relative generator: a 5-byte secret is refused");

    mintid_relative_gen_init(&g, secret, 16, salt, 5, NULL);
    mintid_relative_gen_wipe(&g);
    memset(zero, 0, sizeof zero);
    check(memcmp(&g, zero, sizeof g) == 0, "relative generator: wipe leaves only zeros");
}

/* A deterministic random source: the tag does not depend on it. */
static int counting_random(void *ctx, uint8_t *buf, size_t n)
{
    unsigned *next = (unsigned *)ctx;
    size_t i;

    for (i = 0; i < n; i++)
        buf[i] = (uint8_t)(*next)++;
    return MINTID_OK;
}

/* gen_next caches the last key's tag: runs of one key, alternating keys,
 * keys that differ only in length or in their last byte, a key changed in
 * place between calls, and keys around the 64-byte cache limit must all
 * give the tag mintid_relative_tag gives. */
static void check_relative_cache(void)
{
    static const struct { size_t at, len; } keys[] = {
        { 0, 5 }, { 0, 5 }, { 0, 5 }, { 5, 5 }, { 0, 5 }, { 5, 5 }, { 5, 5 }, { 7, 5 },
        { 0, 4 }, { 0, 5 }, { 0, 6 }, { 0, 0 }, { 0, 0 }, { 0, 5 },
        { 0, 64 }, { 0, 64 }, { 1, 64 }, { 7, 64 }, { 0, 65 }, { 0, 65 }, { 1, 65 }, { 0, 65 },
        { 0, 64 }, { 0, 200 }, { 0, 200 }, { 0, 5 },
    };
    uint8_t secret[32], key[256], id[16];
    uint8_t zero[sizeof(mintid_relative_gen)];
    mintid_relative_gen g;
    unsigned counter = 0;
    uint32_t want = 0, tag;
    int64_t ms;
    uint64_t rand;
    size_t i;
    int rc, next_ok = 1, tag_ok = 1, long_ok = 1, inplace_ok = 1;

    for (i = 0; i < sizeof secret; i++)
        secret[i] = (uint8_t)(i * 5 + 3);
    for (i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)(i % 7); /* offset 7 is the same key as offset 0 */
    mintid_relative_gen_init(&g, secret, sizeof secret, (const uint8_t *)"salt", 4, NULL);

    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const uint8_t *k = keys[i].len > 0 ? key + keys[i].at : NULL;

        mintid_relative_tag(secret, sizeof secret, (const uint8_t *)"salt", 4, k, keys[i].len, &want, NULL);
        rc = mintid_relative_gen_next(mintid_relative_state_of(&g), 1000 + (int64_t)i / 2, k, keys[i].len,
                                      counting_random, &counter, id, NULL);
        mintid_relative_split(id, &tag, &ms, &rand);
        if (rc != MINTID_OK || tag != want) {
            next_ok = 0;
            printf("# call %zu: %zu-byte key at %zu: tag %lu, want %lu\n", i + 1, keys[i].len,
                   keys[i].at, (unsigned long)tag, (unsigned long)want);
        }
        if (mintid_relative_gen_tag(&g, k, keys[i].len) != want)
            tag_ok = 0;
        if (keys[i].len > MINTID_RELATIVE_CACHED_KEY_MAX && mintid_relative_state_of(&g)->cached_len == keys[i].len)
            long_ok = 0;
    }
    check(next_ok, "relative generator cache: next gives mintid_relative_tag's tag for every key");
    check(tag_ok, "relative generator cache: gen_tag agrees after each next");
    check(long_ok, "relative generator cache: keys over %d bytes are not cached",
          MINTID_RELATIVE_CACHED_KEY_MAX);

    /* The cache compares bytes, not pointers: the same buffer with new
     * contents is a new key. */
    for (i = 0; i < 3; i++) {
        key[0] = (uint8_t)(0xA0 + i);
        mintid_relative_tag(secret, sizeof secret, (const uint8_t *)"salt", 4, key, 9, &want, NULL);
        rc = mintid_relative_gen_next(mintid_relative_state_of(&g), 2000, key, 9, counting_random, &counter, id, NULL);
        mintid_relative_split(id, &tag, &ms, &rand);
        if (rc != MINTID_OK || tag != want)
            inplace_ok = 0;
    }
    check(inplace_ok, "relative generator cache: a key changed in place gets its own tag");

    mintid_relative_gen_wipe(&g);
    memset(zero, 0, sizeof zero);
    check(memcmp(&g, zero, sizeof g) == 0, "relative generator: wipe leaves only zeros, cached key included");
}

/* A source that fails with a positive code (callers must make it negative),
 * first writing msg into err when msg is set, as the default generators'
 * source does with the err they pass it as ctx. */
typedef struct { char *err; const char *msg; } failing_ctx;

static int failing_random(void *ctx, uint8_t *buf, size_t n)
{
    failing_ctx *f = (failing_ctx *)ctx;

    (void)buf;
    (void)n;
    if (f->msg != NULL)
        snprintf(f->err, MINTID_ERRMSG_SIZE, "%s", f->msg);
    return 1;
}

/* Every caller of a random source words a failure the same way, and keeps
 * the source's own message when it wrote one. */
static void check_random_failures(void)
{
    static const char *const kinds[] = { "ULID", "UUIDv7", "UUIDv4", "relative ID", "Nano ID" };
    char err[MINTID_ERRMSG_SIZE], want[MINTID_ERRMSG_SIZE];
    uint8_t secret[16], id[16], text[MINTID_NANOID_DEFAULT_SIZE];
    mintid_ulid_gen ug;
    mintid_uuid7_gen vg;
    mintid_relative_gen rg;
    mintid_nanoid_spec spec;
    failing_ctx f;
    size_t k;
    int own, rc = 0;

    memset(secret, 7, sizeof secret);
    mintid_nanoid_spec_default(&spec, NULL);
    for (own = 0; own < 2; own++) {
        for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            f.err = err;
            f.msg = own ? "OS random source failed: test" : NULL;
            strcpy(err, "stale");
            mintid_ulid_gen_init(&ug);
            mintid_uuid7_gen_init(&vg);
            mintid_relative_gen_init(&rg, secret, sizeof secret, NULL, 0, NULL);
            switch (k) {
            case 0: rc = mintid_ulid_gen_next(mintid_ulid_state_of(&ug), 1, failing_random, &f, id, err); break;
            case 1: rc = mintid_uuid7_gen_next(mintid_uuid7_state_of(&vg), 1, failing_random, &f, id, err); break;
            case 2: rc = mintid_uuid4_make(failing_random, &f, id, err); break;
            case 3: rc = mintid_relative_gen_next(mintid_relative_state_of(&rg), 1, NULL, 0, failing_random, &f, id, err); break;
            default: rc = mintid_nanoid_generate(mintid_nanoid_state_of(&spec), failing_random, &f, text, err); break;
            }
            mintid_relative_gen_wipe(&rg);
            if (own)
                snprintf(want, sizeof want, "%s", f.msg);
            else
                snprintf(want, sizeof want, "%s random source failed", kinds[k]);
            check(rc == MINTID_ERANDOM && strcmp(err, want) == 0, "%s: a failing source %s: %s",
                  kinds[k], own ? "keeps its own message" : "gets the caller's message", err);
        }
    }
    f.err = err;
    f.msg = NULL;
    check(mintid_nanoid_generate(mintid_nanoid_state_of(&spec), failing_random, &f, text, NULL) == MINTID_ERANDOM,
          "Nano ID: a failing source with err NULL is MINTID_ERANDOM");
}

/* A source that gives one byte value forever, counting its draws. */
typedef struct { uint8_t byte; unsigned draws; } constant_ctx;

static int constant_random(void *ctx, uint8_t *buf, size_t n)
{
    constant_ctx *c = (constant_ctx *)ctx;

    c->draws++;
    memset(buf, c->byte, n);
    return MINTID_OK;
}

/* A source whose every byte the mask rejects ("abc" with 0xFF, index 3;
 * "x" with 0x01, index 1) once made generate loop forever: it now fails
 * after 64 draws in a row with no symbol, as a misbehaving source. */
static void check_nanoid_rejecting_source(void)
{
    static const struct { const char *alphabet; uint8_t byte; } cases[] = {
        { "abc", 0xFF }, { "x", 0x01 },
    };
    char err[MINTID_ERRMSG_SIZE];
    uint8_t out[MINTID_NANOID_DEFAULT_SIZE];
    mintid_nanoid_spec spec;
    constant_ctx c;
    size_t k;
    int rc;

    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mintid_nanoid_spec_init(&spec, (const uint8_t *)cases[k].alphabet, strlen(cases[k].alphabet),
                                MINTID_NANOID_DEFAULT_SIZE, NULL);
        c.byte = cases[k].byte;
        c.draws = 0;
        rc = mintid_nanoid_generate(mintid_nanoid_state_of(&spec), constant_random, &c, out, err);
        check(rc == MINTID_ERANDOM && c.draws == 64 &&
              strcmp(err, "Nano ID random source gave 64 draws with no usable byte") == 0,
              "Nano ID: alphabet \"%s\" and only 0x%02x bytes fail after %u draws: %s",
              cases[k].alphabet, cases[k].byte, c.draws, rc == MINTID_OK ? "(no error)" : err);
    }
}

/* ---- the random pool ------------------------------------------------------- */

/* The pool takes a new key from the OS before one key's output passes
 * MINTID_RANDOM_RESEED_BYTES: drawing 4 bounds' worth takes 4 or 5 keys
 * (5 when the key in use at the start was already partly spent). */
static void check_pool_reseed(void)
{
    enum { BOUNDS = 4 };
    uint8_t buf[16];
    uint64_t before, after;
    size_t drawn;
    int ok = 1;

    ok &= mintid_random_bytes(buf, sizeof buf, NULL) == MINTID_OK;
    before = mintid_random_reseeds();
    for (drawn = 0; drawn < BOUNDS * MINTID_RANDOM_RESEED_BYTES; drawn += sizeof buf)
        ok &= mintid_random_bytes(buf, sizeof buf, NULL) == MINTID_OK;
    after = mintid_random_reseeds();
    check(ok && before >= 1 && after - before >= BOUNDS && after - before <= BOUNDS + 1,
          "pool: %d MiB drawn 16 bytes at a time took %d or %d new OS keys (took %llu)", BOUNDS,
          BOUNDS, BOUNDS + 1, (unsigned long long)(after - before));
}

static void relative_tag_vector(char **cols, int lineno)
{
    size_t sn = 0, an = 0, kn = 0;
    uint8_t *secret = from_hex(cols[0], &sn), *salt = from_hex(cols[1], &an), *key = from_hex(cols[2], &kn);
    uint32_t tag = 0;
    char prefix[MINTID_RELATIVE_PREFIX_LEN];
    int rc;

    if (secret == NULL || salt == NULL || key == NULL) {
        check(0, "relative_tag.txt line %d: bad hex", lineno);
    } else {
        rc = mintid_relative_tag(secret, sn, salt, an, key, kn, &tag, NULL);
        mintid_relative_prefix(tag, prefix);
        check(rc == MINTID_OK && strtoul(cols[3], NULL, 10) == tag &&
              strlen(cols[4]) == sizeof prefix && memcmp(prefix, cols[4], sizeof prefix) == 0,
              "relative_tag.txt line %d: tag %s, prefix %s", lineno, cols[3], cols[4]);
    }
    free(secret);
    free(salt);
    free(key);
}

/* gen_next on the OS clock waits at most max_wait_ms for the clock to pass
 * an exhausted ms: a state an hour ahead of the clock (as after the clock
 * stepped back an hour) fails at once, state unchanged; one at the current
 * ms waits the millisecond. */
static void check_snowflake_wait(void)
{
    mintid_snowflake_gen pub;
    mintid_snowflake_state *g = mintid_snowflake_state_of(&pub);
    char err[MINTID_ERRMSG_SIZE];
    uint64_t id = 0, ahead;
    int64_t now = 0;
    int rc;

    err[0] = '\0';
    check(mintid_snowflake_gen_init(&pub, 1, 0, err) == MINTID_OK &&
          g->max_wait_ms == MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS,
          "snowflake: gen_init sets max_wait_ms to its default, %d", MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS);
    check(mintid_snowflake_gen_set_max_wait(g, -1, err) == MINTID_EARG &&
          mintid_snowflake_gen_set_max_wait(g, MINTID_SNOWFLAKE_MAX_WAIT_LIMIT_MS + 1, NULL) == MINTID_EARG &&
          g->max_wait_ms == MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS,
          "snowflake: set_max_wait refuses -1 and the limit + 1, and keeps the value (%s)", err);
    check(mintid_snowflake_gen_set_max_wait(g, 5, err) == MINTID_OK && g->max_wait_ms == 5,
          "snowflake: set_max_wait(5)");
    mintid_os_clock_ms(&now, NULL);
    ahead = (uint64_t)(now + 3600000) << 12 | 4095;
    g->state = ahead;
    err[0] = '\0';
    rc = mintid_snowflake_gen_next(g, &id, err);
    check(rc == MINTID_EAGAIN && strstr(err, "snowflake: clock moved back ") != NULL && g->state == ahead,
          "snowflake: gen_next an hour behind its last ms gives EAGAIN at once, state unchanged: %s", err);
    mintid_os_clock_ms(&now, NULL);
    g->state = (uint64_t)now << 12 | 4095;
    rc = mintid_snowflake_gen_next(g, &id, err);
    check(rc == MINTID_OK && (id & 4095) == 0 && (int64_t)(id >> 22) > now,
          "snowflake: gen_next at an exhausted current ms waits for the next ms");
    check(mintid_snowflake_gen_set_max_wait(g, 0, err) == MINTID_OK, "snowflake: set_max_wait(0)");
    mintid_os_clock_ms(&now, NULL);
    ahead = (uint64_t)(now + 50) << 12 | 4095;
    g->state = ahead;
    rc = mintid_snowflake_gen_next(g, &id, err);
    check(rc == MINTID_EAGAIN && g->state == ahead, "snowflake: max_wait_ms 0 never waits: %s", err);
}

/* ---- MD5 and SHA-1 (for UUIDv3 and v5) ------------------------------------ */

/* The digest of n bytes of 'a', fed in uneven chunks. */
static void million_a(int sha1, size_t n, uint8_t *digest)
{
    uint8_t chunk[997];
    size_t done = 0;
    mintid_md5_ctx m;
    mintid_sha1_ctx s;

    memset(chunk, 'a', sizeof chunk);
    mintid_md5_init(&m);
    mintid_sha1_init(&s);
    while (done < n) {
        size_t take = n - done < sizeof chunk ? n - done : sizeof chunk;

        if (sha1)
            mintid_sha1_update(&s, chunk, take);
        else
            mintid_md5_update(&m, chunk, take);
        done += take;
    }
    if (sha1)
        mintid_sha1_final(&s, digest);
    else
        mintid_md5_final(&m, digest);
}

/* RFC 3174 test 3 and its MD5 counterpart, too long for a vector file. */
static void check_digest_published(void)
{
    static const uint8_t md5_abc[16] = { 0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                                         0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72 };
    static const uint8_t md5_million[16] = { 0x77, 0x07, 0xd6, 0xae, 0x4e, 0x02, 0x7c, 0x70,
                                             0xee, 0xa2, 0xa9, 0x35, 0xc2, 0x29, 0x6f, 0x21 };
    static const uint8_t sha1_million[20] = { 0x34, 0xaa, 0x97, 0x3c, 0xd4, 0xc4, 0xda, 0xa4, 0xf6, 0x1e,
                                              0xeb, 0x2b, 0xdb, 0xad, 0x27, 0x31, 0x65, 0x34, 0x01, 0x6f };
    uint8_t digest[20];

    mintid_md5((const uint8_t *)"abc", 3, digest);
    check(memcmp(digest, md5_abc, 16) == 0, "MD5: RFC 1321 A.5 \"abc\"");
    million_a(0, 1000000, digest);
    check(memcmp(digest, md5_million, 16) == 0, "MD5: a million 'a' in 997-byte chunks");
    million_a(1, 1000000, digest);
    check(memcmp(digest, sha1_million, 20) == 0, "SHA-1: RFC 3174 test 3, a million 'a' in 997-byte chunks");
}

/* ---- UUIDv1/v6, KSUID and TypeID: decoders and errors ---------------------- */

/* Each decoder on heap copies of exactly len bytes (no NUL after them), so
 * that the sanitized build sees any read past the text. */
static void check_typeid_ksuid_exact_buffers(void)
{
    static const char *const texts[] = {
        "user_01h455vb4pex5vsknk084sn02q", "01h455vb4pex5vsknk084sn02q", "prefix__00000000000000000000000000",
        "0ujtsYcgvSTl8PAuAdqWYSMnLOv", "aWgEPTl1tmebfsQzFP4bxwgy80V", "_", "",
    };
    size_t t, len;
    int bad = 0;

    for (t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        size_t full = strlen(texts[t]);

        for (len = 0; len <= full; len++) {
            char *copy = xmalloc(len);
            uint8_t id[20];
            size_t plen;
            char err[MINTID_ERRMSG_SIZE] = "";
            int rc;

            memcpy(copy, texts[t], len);
            rc = mintid_typeid_decode(copy, len, &plen, id, err);
            bad |= rc != MINTID_OK && (rc != MINTID_EPARSE || strchr(err, '\n') != NULL || err[0] == '\0');
            rc = mintid_ksuid_decode(copy, len, id, err);
            bad |= rc != MINTID_OK && (rc != MINTID_EPARSE || err[0] == '\0');
            rc = mintid_typeid_check_prefix(copy, len, MINTID_EARG, err);
            bad |= rc != MINTID_OK && rc != MINTID_EARG;
            free(copy);
        }
    }
    check(!bad, "TypeID and KSUID decoders on every prefix of their texts, in buffers of exactly that size: "
                "MINTID_OK or EPARSE with a one-line message");
}

/* Arguments outside their fields, and failing sources: an error, and the
 * state as it was. */
static void check_uuid_time_errors(void)
{
    static const uint8_t node[6] = { 1, 2, 3, 4, 5, 6 };
    char err[MINTID_ERRMSG_SIZE];
    uint8_t id[16];
    mintid_uuid_time_state g, before;
    failing_ctx f;
    uint64_t ticks = 0;

    check(mintid_uuid_time_from_parts(4, 0, 0, node, id, err) == MINTID_EARG &&
          mintid_uuid_time_from_parts(1, MINTID_UUID_MAX_TICKS + 1, 0, node, id, err) == MINTID_ERANGE &&
          mintid_uuid_time_from_parts(6, 0, 16384, node, id, err) == MINTID_ERANGE &&
          mintid_uuid_time_from_parts(6, 0, -1, node, id, err) == MINTID_ERANGE,
          "uuid_time_from_parts: another version is EARG, ticks past 2^60 - 1 or clock_seq outside 0..16383 ERANGE");
    check(mintid_uuid_ticks_from_ms(INT64_MAX, "UUIDv1", &ticks, err) == MINTID_ERANGE &&
          mintid_uuid_ticks_from_ms(INT64_MIN, "UUIDv1", &ticks, err) == MINTID_ERANGE &&
          mintid_uuid_ticks_from_100ns(INT64_MIN, "UUIDv6", &ticks, err) == MINTID_ERANGE && ticks == 0 &&
          strstr(err, "UUIDv6 timestamp") != NULL,
          "uuid ticks: int64 extremes are ERANGE, never a wrapped product (%s)", err);

    f.err = err;
    f.msg = NULL;
    memset(&g, 0x5a, sizeof g);
    memcpy(&before, &g, sizeof g);
    check(mintid_uuid_time_state_init(&g, 1, NULL, 0, -1, failing_random, &f, err) == MINTID_ERANDOM &&
          memcmp(&g, &before, sizeof g) == 0 && strcmp(err, "UUIDv1 random source failed") == 0,
          "uuid_time_gen_init: a failing source is ERANDOM and leaves the struct unwritten (%s)", err);
    check(mintid_uuid_time_state_init(&g, 6, node, 6, 5, failing_random, &f, err) == MINTID_OK,
          "uuid_time_gen_init: a fixed node and clock_seq draw nothing");
    check(mintid_uuid_time_state_init(&g, 2, NULL, 0, -1, failing_random, &f, err) == MINTID_EARG &&
          mintid_uuid_time_state_init(&g, 1, node, 7, -1, failing_random, &f, err) == MINTID_EARG &&
          strstr(err, "node must be 6 bytes, got 7") != NULL,
          "uuid_time_gen_init: version 2 or a 7-byte node is EARG (%s)", err);
}

static void check_ksuid_errors(void)
{
    char err[MINTID_ERRMSG_SIZE];
    uint8_t id[20];
    mintid_ksuid_gen k, kbefore;
    failing_ctx f;

    f.err = err;
    f.msg = NULL;
    memset(&k, 0, sizeof k);
    mintid_ksuid_gen_init(&k);
    memcpy(&kbefore, &k, sizeof k);
    check(mintid_ksuid_gen_next(mintid_ksuid_state_of(&k), INT64_C(1700000000000), failing_random, &f, id, err) == MINTID_ERANDOM &&
          memcmp(&k, &kbefore, sizeof k) == 0 && strcmp(err, "KSUID random source failed") == 0,
          "ksuid_gen_next: a failing source is ERANDOM and leaves the state as it was (%s)", err);
}

static void check_typeid_errors(void)
{
    char err[MINTID_ERRMSG_SIZE], text[MINTID_TYPEID_MAX_TEXT_LEN];
    uint8_t zero[16];
    mintid_uuid7_gen v;
    failing_ctx f;

    f.err = err;
    f.msg = NULL;
    memset(zero, 0, sizeof zero);
    mintid_uuid7_gen_init(&v);
    check(mintid_typeid_gen_next(mintid_uuid7_state_of(&v), "Bad", 3, 1, failing_random, &f, text, err) == MINTID_EARG &&
          mintid_uuid7_state_of(&v)->st.last_ms == -1 && strstr(err, "invalid TypeID prefix: bad character 'B' at 1") != NULL,
          "typeid_gen_next: a bad prefix is EARG before any draw (%s)", err);
    check(mintid_typeid_encode("a_", 2, zero, text, err) == MINTID_EARG &&
          mintid_typeid_encode("", 0, zero, text, err) == MINTID_TYPEID_SUFFIX_LEN,
          "typeid_encode: a bad prefix is EARG; the empty prefix gives the bare suffix");
}

static int fixed_start(void *ctx, uint8_t *buf, size_t n)
{
    (void)ctx;
    memset(buf, 0xAB, n);
    return 0;
}

/* 2^24 IDs of one second take every counter once; the next would repeat
 * the second's first ID byte for byte, so the generator refuses (the
 * state unchanged) until its second moves on, even on a clock set back. */
static void check_seconds_counter_exhausted(void)
{
    char err[MINTID_ERRMSG_SIZE];
    uint8_t id[12], first[12];
    mintid_objectid_gen o, obefore;
    mintid_xid_gen x;
    const int64_t t = INT64_C(1700000000000);
    uint32_t i;
    int ok = 1, rc;

    mintid_objectid_gen_init(&o);
    for (i = 0; i < (UINT32_C(1) << 24) && ok; i++) {
        ok = mintid_objectid_gen_next(mintid_objectid_state_of(&o), t + (i & 511), fixed_start, NULL, id, err) ==
             MINTID_OK;
        if (i == 0)
            memcpy(first, id, sizeof id);
    }
    check(ok, "objectid_gen_next: 2^24 IDs in one second, every one made");
    memcpy(&obefore, &o, sizeof o);
    err[0] = '\0';
    rc = mintid_objectid_gen_next(mintid_objectid_state_of(&o), t + 999, fixed_start, NULL, id, err);
    check(rc == MINTID_EOVERFLOW && memcmp(&o, &obefore, sizeof o) == 0 &&
              strcmp(err, "ObjectId counter exhausted: 16777216 IDs in second 1700000000, wait for the next") == 0,
          "objectid_gen_next: the next ID of that second is EOVERFLOW, the state unchanged (%s)", err);
    rc = mintid_objectid_gen_next(mintid_objectid_state_of(&o), t - 5000, fixed_start, NULL, id, err);
    check(rc == MINTID_EOVERFLOW, "objectid_gen_next: a clock set back keeps the second, and the refusal");
    rc = mintid_objectid_gen_next(mintid_objectid_state_of(&o), t + 1000, fixed_start, NULL, id, err);
    check(rc == MINTID_OK && memcmp(id, first, 4) > 0 && memcmp(id + 9, first + 9, 3) == 0,
          "objectid_gen_next: the next second goes on, its counter where the last second's began");

    mintid_xid_gen_init(&x, (const uint8_t *)"mid", 3, 7, NULL);
    for (i = 0, ok = 1; i < (UINT32_C(1) << 24) && ok; i++)
        ok = mintid_xid_gen_next(mintid_xid_state_of(&x), t, fixed_start, NULL, id, err) == MINTID_OK;
    err[0] = '\0';
    rc = mintid_xid_gen_next(mintid_xid_state_of(&x), t, fixed_start, NULL, id, err);
    check(ok && rc == MINTID_EOVERFLOW &&
              strcmp(err, "XID counter exhausted: 16777216 IDs in second 1700000000, wait for the next") == 0,
          "xid_gen_next: 2^24 IDs in one second, then EOVERFLOW (%s)", err);
}

static uint32_t be24_of(const uint8_t *p) { return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]; }

/* Two generators of the process's identity share one counter: 2^24 values
 * taken by one since the other's first ID of a second, and the other's
 * next ID in that second could repeat its first: refused. */
static void check_xid_shared_counter(void)
{
    char err[MINTID_ERRMSG_SIZE];
    uint8_t a[12], b[12], id[12];
    mintid_xid_gen g1, g2, before;
    const int64_t t = INT64_C(1700000000000);
    uint32_t i;
    int ok, rc;

    ok = mintid_xid_gen_init(&g1, NULL, 0, -1, err) == MINTID_OK && mintid_xid_gen_init(&g2, NULL, 0, -1, err) == MINTID_OK;
    ok = ok && mintid_xid_gen_next(mintid_xid_state_of(&g1), t, fixed_start, NULL, a, err) == MINTID_OK &&
         mintid_xid_gen_next(mintid_xid_state_of(&g2), t, fixed_start, NULL, b, err) == MINTID_OK;
    check(ok && ((be24_of(a + 9) + 1) & 0xFFFFFF) == be24_of(b + 9),
          "xid_gen_next: two generators of the process's identity take consecutive values of one counter");
    for (i = 0; i < (UINT32_C(1) << 24) - 1 && ok; i++)
        ok = mintid_xid_gen_next(mintid_xid_state_of(&g2), t + 1000, fixed_start, NULL, id, err) == MINTID_OK;
    memcpy(&before, &g1, sizeof g1);
    err[0] = '\0';
    rc = mintid_xid_gen_next(mintid_xid_state_of(&g1), t, fixed_start, NULL, id, err);
    check(ok && rc == MINTID_EOVERFLOW && memcmp(&before, &g1, sizeof g1) == 0 &&
              strcmp(err, "XID counter exhausted: 16777216 IDs in second 1700000000, wait for the next") == 0,
          "xid_gen_next: 2^24 values taken by another since a generator's first of its second: EOVERFLOW (%s)", err);
    rc = mintid_xid_gen_next(mintid_xid_state_of(&g1), t + 2000, fixed_start, NULL, id, err);
    check(rc == MINTID_OK && memcmp(id + 9, a + 9, 3) != 0, "xid_gen_next: the next second goes on");
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "testdata";

    each_vector(dir, "sha256.txt", 2, sha256_vector);
    each_vector(dir, "hmac_sha256.txt", 3, hmac_vector);
    each_vector(dir, "relative_tag.txt", 5, relative_tag_vector);
    check_sha256_published();
    check_sha256_splits();
    check_hmac_published();
    check_relative_tags();
    check_relative_cache();
    check_random_failures();
    check_snowflake_wait();
    check_nanoid_rejecting_source();
    check_pool_reseed();
    check_digest_published();
    check_typeid_ksuid_exact_buffers();
    check_uuid_time_errors();
    check_ksuid_errors();
    check_typeid_errors();
    check_seconds_counter_exhausted();
    check_xid_shared_counter();

    return tap_done();
}
