/*
 * test_vectors.c: every file of testdata/ replayed against the C core, with
 * no Lua, so that any C compiler and host can run the conformance vectors
 * (make test-c, test-i686, test-musl, test-mips, test-armhf, test-s390x,
 * test-windows).
 * Then the platform layer itself (clock, OS randomness, the RFC 8439
 * ChaCha20 vectors of the pool's generator, on every host), the lock
 * files of lease.lock_file, and the default generators under threads. Prints TAP. Usage: test_vectors testdata-dir
 *
 * Files are read as spec/helper.lua reads them, so both suites see the same
 * rows: the first line is the "# columns" header and must name the
 * README's columns; later '#' lines and blank lines are skipped; every other
 * line has exactly one field per column. A missing or empty file, a wrong
 * header or a malformed row fails loudly; so does a file with no rows.
 */
#include <inttypes.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mintid.h"
#include "internal.h" /* the ChaCha20 block function */
#include "tap.h"

#if defined(_WIN32)
#include <windows.h>
#define HAVE_THREADS 1
#elif !defined(TEST_NO_THREADS)
#include <pthread.h>
#define HAVE_THREADS 1
#endif

#define MAX_COLS 8
#define MAX_BYTES 1024 /* longest hex field of any file, decoded */

static const char *testdata_dir;

/* ---- reading vector files ------------------------------------------------ */

typedef struct {
    const char *file;
    int line;
    char *col[MAX_COLS];
    int ncols;
} row;

/* The checks of one file: each row's check returns 1 when it passed and
 * reports why it did not as "# file:line: ..." diagnostics. */
typedef int (*row_fn)(const row *r);

static void diag(const row *r, const char *what)
{
    printf("# %s:%d: %s\n", r->file, r->line, what);
}

/* A file's whole text, NUL-terminated; NULL (reported) when unreadable. */
static char *slurp(const char *name)
{
    char path[1024];
    FILE *f;
    char *text = NULL;
    size_t len = 0, cap = 0, got;

    snprintf(path, sizeof path, "%s/%s", testdata_dir, name);
    f = fopen(path, "rb"); /* binary: "\r\n" is handled below on every host */
    if (f == NULL) {
        check(0, "%s: vector file missing (%s)", name, path);
        return NULL;
    }
    do {
        if (cap - len < 4096) {
            char *bigger = realloc(text, cap = cap * 2 + 4096);
            if (bigger == NULL) {
                fputs("Bail out! out of memory\n", stdout);
                exit(1);
            }
            text = bigger;
        }
        got = fread(text + len, 1, cap - len - 1, f);
        len += got;
    } while (got > 0);
    fclose(f);
    text[len] = '\0';
    return text;
}

static int blank(const char *s)
{
    return s[strspn(s, " \t\v\f")] == '\0';
}

/* Replays every row of name (header `columns`, space-separated) through
 * check_row: one TAP line for the file, every failing row as a diagnostic.
 * Returns the number of rows read. */
static int each_row(const char *name, const char *columns, row_fn check_row)
{
    char *text = slurp(name), *line, *next;
    int lineno = 0, rows = 0, passed = 0, ncols = 0, malformed = 0;
    char header[256];

    if (text == NULL)
        return 0;
    for (line = text; line != NULL && *line != '\0' ; line = next) {
        size_t len;
        row r;

        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        len = strlen(line);
        if (len > 0 && line[len - 1] == '\r')
            line[--len] = '\0';
        lineno++;
        if (lineno == 1) {
            /* The header's words, single-spaced, against the README's. */
            char *w = line + 1;
            size_t hl = 0;

            if (line[0] != '#')
                break;
            header[0] = '\0';
            while (*w != '\0') {
                size_t wl;

                w += strspn(w, " \t");
                wl = strcspn(w, " \t");
                if (wl == 0)
                    break;
                if (hl + wl + 2 > sizeof header)
                    break;
                if (hl > 0)
                    header[hl++] = ' ';
                memcpy(header + hl, w, wl);
                header[hl += wl] = '\0';
                ncols++;
                w += wl;
            }
            if (strcmp(header, columns) != 0) {
                check(0, "%s: header names columns '%s', want '%s'", name, header, columns);
                free(text);
                return 0;
            }
            continue;
        }
        if (line[0] == '#' || blank(line))
            continue;
        r.file = name;
        r.line = lineno;
        r.ncols = 0;
        for (;;) {
            char *tab = strchr(line, '\t');

            if (r.ncols < MAX_COLS)
                r.col[r.ncols] = line;
            r.ncols++;
            if (tab == NULL)
                break;
            *tab = '\0';
            line = tab + 1;
        }
        rows++;
        if (r.ncols != ncols) {
            printf("# %s:%d: %d TAB-separated fields, want %d (%s)\n", name, lineno, r.ncols, ncols,
                   columns);
            malformed++;
            continue;
        }
        passed += check_row(&r);
    }
    free(text);
    if (lineno == 0 || ncols == 0) {
        check(0, "%s: %s", name, lineno == 0 ? "empty file (no header)"
                                             : "the first line must be the '# columns' header");
        return 0;
    }
    if (rows == 0) {
        check(0, "%s: no vectors (a test would pass vacuously)", name);
        return 0;
    }
    check(passed == rows && malformed == 0, "%s: %d of %d rows pass", name, passed, rows);
    return rows;
}

/* ---- field conversions --------------------------------------------------- */

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1; /* the files' hex is lowercase */
}

/* Lowercase hex ("-" is empty) into out; -1 for malformed or too long. */
static int from_hex(const char *s, uint8_t out[MAX_BYTES])
{
    size_t len = strcmp(s, "-") == 0 ? 0 : strlen(s), i;

    if (len % 2 != 0 || len / 2 > MAX_BYTES)
        return -1;
    for (i = 0; i < len / 2; i++) {
        int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);

        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (int)(len / 2);
}

static int same_hex(const uint8_t *got, size_t n, const char *want_hex)
{
    uint8_t want[MAX_BYTES];

    return from_hex(want_hex, want) == (int)n && memcmp(got, want, n) == 0;
}

/* A decimal column (optionally negative) as int64_t; 0 when malformed. */
static int to_i64(const char *s, int64_t *v)
{
    uint64_t u;
    int neg = *s == '-';

    if (mintid_snowflake_parse_decimal(s + neg, strlen(s + neg), &u, NULL) != MINTID_OK ||
        u > (uint64_t)INT64_MAX)
        return 0;
    *v = neg ? -(int64_t)u : (int64_t)u;
    return 1;
}

static int same_text(const char *got, size_t n, const char *want)
{
    return strlen(want) == n && memcmp(got, want, n) == 0;
}

/* The README's escapes of the invalid lists: \xHH, \t, \\, \s. */
static size_t unescape(const char *s, char *out)
{
    size_t n = 0;

    while (*s != '\0') {
        if (s[0] == '\\' && s[1] == 'x' && hex_digit(s[2] | 0x20) >= 0 && hex_digit(s[3] | 0x20) >= 0) {
            out[n++] = (char)(hex_digit(s[2] | 0x20) << 4 | hex_digit(s[3] | 0x20));
            s += 4;
        } else if (s[0] == '\\' && (s[1] == 't' || s[1] == '\\' || s[1] == 's')) {
            out[n++] = s[1] == 't' ? '\t' : s[1] == 's' ? ' ' : '\\';
            s += 2;
        } else {
            out[n++] = *s++;
        }
    }
    return n;
}

/* ---- a scripted random source ------------------------------------------- */

/* Hands out `bytes` in draws of exactly `step` bytes (0: any size); a draw
 * past the end or of another size is recorded and fails. */
typedef struct {
    uint8_t bytes[MAX_BYTES];
    size_t len, pos, step;
    int wrong;
} script;

static int script_random(void *ctx, uint8_t *buf, size_t n)
{
    script *s = ctx;

    if (n > s->len - s->pos || (s->step != 0 && n != s->step)) {
        s->wrong = 1;
        return MINTID_ERANDOM;
    }
    memcpy(buf, s->bytes + s->pos, n);
    s->pos += n;
    return MINTID_OK;
}

/* Loads a row's draw ("-": none) for the next call. */
static int script_load(script *s, const char *hex, size_t step)
{
    int n = from_hex(hex, s->bytes);

    s->len = n < 0 ? 0 : (size_t)n;
    s->pos = 0;
    s->step = step;
    s->wrong = 0;
    return n >= 0 && (n == 0 || step == 0 || (size_t)n % step == 0);
}

/* The call drew exactly what the row holds. */
static int script_drained(const row *r, const script *s)
{
    if (s->wrong || s->pos != s->len) {
        diag(r, s->wrong ? "a draw the vectors do not expect" : "an expected draw did not happen");
        return 0;
    }
    return 1;
}

/* A scenario's `expect`: error:overflow / error:range, or a value. */
static int expect_error(const row *r, const char *expect, int rc, const char *err, const char *range_reason)
{
    if (strcmp(expect, "error:overflow") == 0 && rc == MINTID_EOVERFLOW && strstr(err, "counter overflow"))
        return 1;
    if (strcmp(expect, "error:range") == 0 && rc == MINTID_ERANGE && strstr(err, range_reason))
        return 1;
    printf("# %s:%d: want %s, got code %d (%s)\n", r->file, r->line, expect, rc, rc ? err : "no error");
    return 0;
}

static int is_error(const char *expect)
{
    return strncmp(expect, "error:", 6) == 0;
}

/* ---- ULID ---------------------------------------------------------------- */

static int ulid_row(const row *r)
{
    uint8_t rand[MAX_BYTES], id[16], back[16];
    char text[26], uuid[36], lower[26];
    int64_t ms;
    size_t i;
    script s;
    mintid_ulid_gen g;

    if (!to_i64(r->col[0], &ms) || from_hex(r->col[1], rand) != 10)
        return diag(r, "malformed ms or rand_hex"), 0;
    if (mintid_ulid_from_parts(ms, rand, id, NULL) != MINTID_OK || !same_hex(id, 16, r->col[3]))
        return diag(r, "ulid_from_parts: bytes"), 0;
    mintid_ulid_encode(id, text);
    mintid_uuid_encode(id, uuid);
    if (!same_text(text, 26, r->col[2]) || !same_text(uuid, 36, r->col[4]) || mintid_ulid_time(id) != ms)
        return diag(r, "text, UUID form or time"), 0;
    for (i = 0; i < 26; i++)
        lower[i] = (char)(text[i] >= 'A' && text[i] <= 'Z' ? text[i] + 32 : text[i]);
    if (mintid_ulid_decode(r->col[2], 26, back, NULL) != MINTID_OK || memcmp(back, id, 16) != 0 ||
        mintid_ulid_decode(lower, 26, back, NULL) != MINTID_OK || memcmp(back, id, 16) != 0 ||
        mintid_uuid_decode(r->col[4], 36, back, NULL) != MINTID_OK || memcmp(back, id, 16) != 0)
        return diag(r, "parsing the text, its lowercase or the UUID form"), 0;
    /* A new generator's first call draws these exact bytes. */
    mintid_ulid_gen_init(&g);
    script_load(&s, r->col[1], 10);
    if (mintid_ulid_gen_next(mintid_ulid_state_of(&g), ms, script_random, &s, back, NULL) != MINTID_OK ||
        memcmp(back, id, 16) != 0)
        return diag(r, "a new generator's first ID"), 0;
    return script_drained(r, &s);
}

/* One generator per scenario (a run of rows with one name), as the busted
 * suite's replay_scenarios: the scenario state lives between rows. */
static char scenario_name[128];
static script scenario_random;
static union {
    mintid_ulid_gen ulid;
    mintid_uuid7_gen uuid7;
    mintid_relative_gen relative;
    mintid_snowflake_gen snowflake;
    mintid_uuid_time_state uuid_time;
    mintid_ksuid_gen ksuid;
    mintid_objectid_gen objectid;
    mintid_xid_gen xid;
} scenario_gen;

/* 1 when r starts a new scenario. */
static int new_scenario(const row *r)
{
    if (strcmp(scenario_name, r->col[0]) == 0)
        return 0;
    snprintf(scenario_name, sizeof scenario_name, "%s", r->col[0]);
    return 1;
}

/* The text of a 16-byte ID of either form. */
typedef void (*encode_fn)(const uint8_t id[16], char *out);

static int monotonic_result(const row *r, int rc, const uint8_t id[16], const char *err,
                            encode_fn encode, size_t text_len)
{
    const char *expect = r->col[r->ncols - 1];
    char text[64];

    if (!script_drained(r, &scenario_random))
        return 0;
    if (is_error(expect))
        return expect_error(r, expect, rc, err, "out of range");
    if (rc != MINTID_OK) {
        printf("# %s:%d: want %s, got an error: %s\n", r->file, r->line, expect, err);
        return 0;
    }
    encode(id, text);
    if (!same_text(text, text_len, expect)) {
        printf("# %s:%d: want %s, got %.*s\n", r->file, r->line, expect, (int)text_len, text);
        return 0;
    }
    return 1;
}

static void encode_ulid(const uint8_t id[16], char *out) { mintid_ulid_encode(id, out); }
static void encode_uuid(const uint8_t id[16], char *out) { mintid_uuid_encode(id, out); }
static void encode_relative(const uint8_t id[16], char *out) { mintid_relative_encode(id, out); }

/* ulid_monotonic.txt and uuid7_monotonic.txt: scenario now_ms random_hex expect */
static int monotonic_row(const row *r, int uuid7)
{
    uint8_t id[16];
    char err[MINTID_ERRMSG_SIZE] = "";
    int64_t now;
    int rc;

    if (new_scenario(r)) {
        if (uuid7)
            mintid_uuid7_gen_init(&scenario_gen.uuid7);
        else
            mintid_ulid_gen_init(&scenario_gen.ulid);
    }
    if (!to_i64(r->col[1], &now) || !script_load(&scenario_random, r->col[2], 10))
        return diag(r, "malformed now_ms or random_hex"), 0;
    if (uuid7)
        rc = mintid_uuid7_gen_next(mintid_uuid7_state_of(&scenario_gen.uuid7), now, script_random, &scenario_random, id, err);
    else
        rc = mintid_ulid_gen_next(mintid_ulid_state_of(&scenario_gen.ulid), now, script_random, &scenario_random, id, err);
    return monotonic_result(r, rc, id, err, uuid7 ? encode_uuid : encode_ulid, uuid7 ? 36 : 26);
}

static int ulid_monotonic_row(const row *r) { return monotonic_row(r, 0); }
static int uuid7_monotonic_row(const row *r) { return monotonic_row(r, 1); }

/* The invalid lists: input reason. Every decoder of the kind rejects the
 * input with a one-line message containing the reason. */
typedef int (*decode_fn)(const char *text, size_t len, uint8_t out[16], char *err);

static int invalid_row(const row *r, decode_fn decode)
{
    char input[MAX_BYTES], err[MINTID_ERRMSG_SIZE];
    uint8_t out[16];
    size_t n;

    if (strlen(r->col[0]) >= sizeof input)
        return diag(r, "input too long for this runner"), 0;
    n = unescape(r->col[0], input);
    err[0] = '\0';
    if (decode(input, n, out, err) != MINTID_EPARSE || strchr(err, '\n') != NULL ||
        strstr(err, r->col[1]) == NULL) {
        printf("# %s:%d: want a message containing '%s', got '%s'\n", r->file, r->line, r->col[1], err);
        return 0;
    }
    return 1;
}

static int ulid_invalid_row(const row *r) { return invalid_row(r, mintid_ulid_decode); }
static int uuid_invalid_row(const row *r) { return invalid_row(r, mintid_uuid_decode); }
static int relative_invalid_row(const row *r) { return invalid_row(r, mintid_relative_decode); }

/* ---- UUID ---------------------------------------------------------------- */

/* uuid.txt: input canonical bytes_hex version time */
static int uuid_row(const row *r)
{
    uint8_t id[16];
    char text[36];
    int64_t version, ms = -1;

    if (!to_i64(r->col[3], &version) || (strcmp(r->col[4], "-") != 0 && !to_i64(r->col[4], &ms)))
        return diag(r, "malformed version or time"), 0;
    if (mintid_uuid_decode(r->col[0], strlen(r->col[0]), id, NULL) != MINTID_OK ||
        !same_hex(id, 16, r->col[2]))
        return diag(r, "parsing the input"), 0;
    mintid_uuid_encode(id, text);
    if (!same_text(text, 36, r->col[1]) || mintid_uuid_version(id) != (unsigned)version ||
        (ms >= 0 && mintid_ulid_time(id) != ms))
        return diag(r, "canonical text, version or time"), 0;
    return 1;
}

/* uuid4.txt: rand_hex text */
static int uuid4_row(const row *r)
{
    uint8_t id[16];
    char text[36];
    script s;

    if (!script_load(&s, r->col[0], 16) || s.len != 16)
        return diag(r, "malformed rand_hex"), 0;
    if (mintid_uuid4_make(script_random, &s, id, NULL) != MINTID_OK || !script_drained(r, &s))
        return diag(r, "uuid4_make"), 0;
    mintid_uuid_encode(id, text);
    return same_text(text, 36, r->col[1]) ? 1 : (diag(r, "text"), 0);
}

/* uuid7.txt: ms rand_hex text */
static int uuid7_row(const row *r)
{
    uint8_t rand[MAX_BYTES], id[16];
    char text[36];
    int64_t ms;

    if (!to_i64(r->col[0], &ms) || from_hex(r->col[1], rand) != 10)
        return diag(r, "malformed ms or rand_hex"), 0;
    if (mintid_uuid7_from_parts(ms, rand, id, NULL) != MINTID_OK)
        return diag(r, "uuid7_from_parts failed"), 0;
    mintid_uuid_encode(id, text);
    return same_text(text, 36, r->col[2]) && mintid_ulid_time(id) == ms ? 1 : (diag(r, "text or time"), 0);
}

/* ---- relative IDs -------------------------------------------------------- */

/* relative.txt: tag ms rand text bytes_hex */
static int relative_row(const row *r)
{
    int64_t tag, ms, rand, got_ms;
    uint32_t got_tag;
    uint64_t got_rand;
    uint8_t id[16], back[16];
    char text[28], short_form[26];

    if (!to_i64(r->col[0], &tag) || !to_i64(r->col[1], &ms) || !to_i64(r->col[2], &rand))
        return diag(r, "malformed tag, ms or rand"), 0;
    if (mintid_relative_from_parts(tag, ms, rand, id, NULL) != MINTID_OK || !same_hex(id, 16, r->col[4]))
        return diag(r, "relative_from_parts: bytes"), 0;
    mintid_relative_encode(id, text);
    mintid_relative_split(id, &got_tag, &got_ms, &got_rand);
    if (!same_text(text, 28, r->col[3]) || got_tag != (uint32_t)tag || got_ms != ms ||
        got_rand != (uint64_t)rand)
        return diag(r, "text or split parts"), 0;
    /* The same 26 symbols without the hyphens parse to the same ID. */
    memcpy(short_form, text, 6);
    memcpy(short_form + 6, text + 7, 10);
    memcpy(short_form + 16, text + 18, 10);
    if (mintid_relative_decode(text, 28, back, NULL) != MINTID_OK || memcmp(back, id, 16) != 0 ||
        mintid_relative_decode(short_form, 26, back, NULL) != MINTID_OK || memcmp(back, id, 16) != 0)
        return diag(r, "parsing the 28- and 26-character forms"), 0;
    return 1;
}

/* relative_tag.txt: secret_hex salt_hex key_hex tag prefix */
static int relative_tag_row(const row *r)
{
    uint8_t secret[MAX_BYTES], salt[MAX_BYTES], key[MAX_BYTES];
    int sn = from_hex(r->col[0], secret), an = from_hex(r->col[1], salt), kn = from_hex(r->col[2], key);
    int64_t want;
    uint32_t tag = 0;
    char prefix[7];
    mintid_relative_gen g;
    int ok;

    if (sn < 0 || an < 0 || kn < 0 || !to_i64(r->col[3], &want))
        return diag(r, "malformed row"), 0;
    if (mintid_relative_tag(secret, (size_t)sn, salt, (size_t)an, key, (size_t)kn, &tag, NULL) != MINTID_OK ||
        tag != (uint32_t)want)
        return diag(r, "relative_tag"), 0;
    mintid_relative_prefix(tag, prefix);
    if (!same_text(prefix, 7, r->col[4]))
        return diag(r, "prefix"), 0;
    if (mintid_relative_gen_init(&g, secret, (size_t)sn, salt, (size_t)an, NULL) != MINTID_OK)
        return diag(r, "relative_gen_init"), 0;
    ok = mintid_relative_gen_tag(&g, key, (size_t)kn) == tag;
    mintid_relative_gen_wipe(&g);
    return ok ? 1 : (diag(r, "a generator's tag"), 0);
}

/* relative_monotonic.txt: scenario secret_hex salt_hex key_hex now_ms random_hex expect */
static int relative_monotonic_row(const row *r)
{
    uint8_t secret[MAX_BYTES], salt[MAX_BYTES], key[MAX_BYTES], id[16];
    int sn = from_hex(r->col[1], secret), an = from_hex(r->col[2], salt), kn = from_hex(r->col[3], key);
    char err[MINTID_ERRMSG_SIZE] = "", prefix[7];
    int64_t now;
    int rc;

    if (sn < 0 || an < 0 || kn < 0 || !to_i64(r->col[4], &now) ||
        !script_load(&scenario_random, r->col[5], 7))
        return diag(r, "malformed row"), 0;
    /* A scenario keeps one secret and salt: the generator is made from its
     * first row. */
    if (new_scenario(r) &&
        mintid_relative_gen_init(&scenario_gen.relative, secret, (size_t)sn, salt, (size_t)an, err) != MINTID_OK)
        return diag(r, err), 0;
    rc = mintid_relative_gen_next(mintid_relative_state_of(&scenario_gen.relative), now, key, (size_t)kn, script_random,
                                  &scenario_random, id, err);
    if (!monotonic_result(r, rc, id, err, encode_relative, 28))
        return 0;
    mintid_relative_prefix(mintid_relative_gen_tag(&scenario_gen.relative, key, (size_t)kn), prefix);
    if (rc == MINTID_OK && memcmp(r->col[6], prefix, 7) != 0)
        return diag(r, "the ID does not start with the key's prefix"), 0;
    return 1;
}

/* ---- Snowflake ----------------------------------------------------------- */

/* snowflake.txt: id epoch timestamp machine_id sequence */
static int snowflake_row(const row *r)
{
    uint64_t id;
    int64_t epoch, ts, want_ts, want_machine, want_seq;
    uint32_t machine, seq;
    char text[20];
    size_t n;

    if (mintid_snowflake_parse_decimal(r->col[0], strlen(r->col[0]), &id, NULL) != MINTID_OK ||
        !to_i64(r->col[1], &epoch) || !to_i64(r->col[2], &want_ts) || !to_i64(r->col[3], &want_machine) ||
        !to_i64(r->col[4], &want_seq))
        return diag(r, "malformed row or parse_decimal failed"), 0;
    mintid_snowflake_split(id, epoch, &ts, &machine, &seq);
    if (ts != want_ts || machine != (uint32_t)want_machine || seq != (uint32_t)want_seq)
        return diag(r, "split parts"), 0;
    n = mintid_snowflake_format_decimal(id, text);
    return same_text(text, n, r->col[0]) ? 1 : (diag(r, "decimal text"), 0);
}

/* One call of the scenario's generator at now: column 4 expects the ID, or
 * error:range with range_reason in the message. */
static int snowflake_try_row(const row *r, int64_t now, const char *range_reason)
{
    uint64_t id = 0;
    char err[MINTID_ERRMSG_SIZE] = "", text[20];
    size_t n;
    int rc = mintid_snowflake_gen_try(mintid_snowflake_state_of(&scenario_gen.snowflake), now, &id, err);

    if (is_error(r->col[4]))
        return expect_error(r, r->col[4], rc, err, range_reason);
    if (rc != MINTID_OK)
        return diag(r, err), 0;
    n = mintid_snowflake_format_decimal(id, text);
    if (!same_text(text, n, r->col[4])) {
        printf("# %s:%d: want %s, got %.*s\n", r->file, r->line, r->col[4], (int)n, text);
        return 0;
    }
    return 1;
}

/* snowflake_sequence.txt: scenario machine_id epoch now_ms expect */
static int snowflake_sequence_row(const row *r)
{
    int64_t machine, epoch, now;
    char err[MINTID_ERRMSG_SIZE] = "";

    if (!to_i64(r->col[1], &machine) || !to_i64(r->col[2], &epoch) || !to_i64(r->col[3], &now))
        return diag(r, "malformed row"), 0;
    if (new_scenario(r) && mintid_snowflake_gen_init(&scenario_gen.snowflake, machine, epoch, err) != MINTID_OK)
        return diag(r, err), 0;
    return snowflake_try_row(r, now, "snowflake timestamp");
}

/* A layout column: a preset name or "T/U/M/S/E/order". */
static int layout_column(const char *text, mintid_snowflake_layout *l)
{
    long long t, u, m, sq, e;
    char order[32];

    if (mintid_snowflake_layout_preset(l, text, strlen(text), NULL) == MINTID_OK)
        return 1;
    if (sscanf(text, "%lld/%lld/%lld/%lld/%lld/%31s", &t, &u, &m, &sq, &e, order) != 6)
        return 0;
    return mintid_snowflake_layout_init(l, t, u, m, sq, e, mintid_snowflake_order_of(order, strlen(order)),
                                        NULL) == MINTID_OK;
}

/* snowflake_layout.txt: layout id timestamp machine_id sequence
 * (timestamp "error:parse" for an ID with bits above the layout's width,
 * "error:range" for a timestamp past 2^53 - 1) */
static int snowflake_layout_row(const row *r)
{
    mintid_snowflake_layout l;
    uint64_t id, machine, seq;
    int64_t ts, want_ts, want_machine, want_seq;
    char err[MINTID_ERRMSG_SIZE] = "";
    int rc;

    if (!layout_column(r->col[0], &l) ||
        mintid_snowflake_parse_decimal(r->col[1], strlen(r->col[1]), &id, NULL) != MINTID_OK)
        return diag(r, "malformed row"), 0;
    rc = mintid_snowflake_layout_split(&l, id, (INT64_C(1) << 53) - 1, &ts, &machine, &seq, err);
    if (strcmp(r->col[2], "error:parse") == 0)
        return rc == MINTID_EPARSE && strstr(err, "not of this layout") ? 1 : (diag(r, "want error:parse"), 0);
    if (strcmp(r->col[2], "error:range") == 0)
        return rc == MINTID_ERANGE && strstr(err, "does not fit") ? 1 : (diag(r, "want error:range"), 0);
    if (rc != MINTID_OK || !to_i64(r->col[2], &want_ts) || !to_i64(r->col[3], &want_machine) ||
        !to_i64(r->col[4], &want_seq))
        return diag(r, err), 0;
    if (ts != want_ts || machine != (uint64_t)want_machine || seq != (uint64_t)want_seq)
        return diag(r, "split parts"), 0;
    return 1;
}

/* snowflake_layout_sequence.txt: scenario layout machine_id now_ms expect */
static int snowflake_layout_sequence_row(const row *r)
{
    mintid_snowflake_layout l;
    int64_t machine, now;
    char err[MINTID_ERRMSG_SIZE] = "";

    if (!layout_column(r->col[1], &l) || !to_i64(r->col[2], &machine) || !to_i64(r->col[3], &now))
        return diag(r, "malformed row"), 0;
    if (new_scenario(r) && mintid_snowflake_gen_init_layout(&scenario_gen.snowflake, &l, machine, err) != MINTID_OK)
        return diag(r, err), 0;
    return snowflake_try_row(r, now, "snowflake");
}

/* ---- Nano ID ------------------------------------------------------------- */

/* nanoid.txt: size alphabet_hex step stream_hex output_hex ("-": the
 * default alphabet, which the binding passes to the core as any other). */
static int nanoid_row(const row *r)
{
    uint8_t alphabet[MAX_BYTES], out[MAX_BYTES];
    int64_t size, step;
    int alen = from_hex(r->col[1], alphabet);
    mintid_nanoid_spec spec;
    script s;

    if (!to_i64(r->col[0], &size) || !to_i64(r->col[2], &step) || size < 1 || size > MAX_BYTES ||
        step < 1 || alen < 0 || !script_load(&s, r->col[3], (size_t)step) || s.len == 0)
        return diag(r, "malformed row"), 0;
    if (strcmp(r->col[1], "-") == 0) {
        alen = (int)strlen(mintid_nanoid_default_alphabet);
        memcpy(alphabet, mintid_nanoid_default_alphabet, (size_t)alen);
    }
    if (mintid_nanoid_spec_init(&spec, alphabet, (size_t)alen, size, NULL) != MINTID_OK)
        return diag(r, "nanoid_spec_init"), 0;
    if (mintid_nanoid_state_of(&spec)->step != (size_t)step)
        return diag(r, "step"), 0;
    if (mintid_nanoid_generate(mintid_nanoid_state_of(&spec), script_random, &s, out, NULL) != MINTID_OK ||
        !script_drained(r, &s) || !same_hex(out, (size_t)size, r->col[4]))
        return diag(r, "output"), 0;
    return 1;
}

/* nanoid_alphabet.txt: alphabet_hex error ("-": accepted, and it makes an
 * ID of its own symbols). */
static int nanoid_alphabet_row(const row *r)
{
    uint8_t alphabet[MAX_BYTES], out[8], used[256];
    char err[MINTID_ERRMSG_SIZE];
    int alen = from_hex(r->col[0], alphabet), rc, i;
    mintid_nanoid_spec spec;

    if (alen < 0)
        return diag(r, "malformed row"), 0;
    err[0] = '\0';
    rc = mintid_nanoid_spec_init(&spec, alphabet, (size_t)alen, (int64_t)sizeof out, err);
    if (strcmp(r->col[1], "-") != 0) {
        if (rc != MINTID_EARG || strcmp(err, r->col[1]) != 0) {
            printf("# %s:%d: want EARG \"%s\", got %d \"%s\"\n", r->file, r->line, r->col[1], rc, err);
            return 0;
        }
        return 1;
    }
    if (rc != MINTID_OK)
        return diag(r, err), 0;
    if (mintid_nanoid_text(&spec, (char *)out, err) != MINTID_OK)
        return diag(r, err), 0;
    memset(used, 0, sizeof used);
    for (i = 0; i < alen; i++)
        used[alphabet[i]] = 1;
    for (i = 0; i < (int)sizeof out; i++)
        if (!used[out[i]])
            return diag(r, "a symbol outside the alphabet"), 0;
    return 1;
}

/* ---- SHA-256 and HMAC ---------------------------------------------------- */

static int sha256_row(const row *r)
{
    uint8_t msg[MAX_BYTES], digest[32];
    int n = from_hex(r->col[0], msg), i;
    mintid_sha256_ctx c;

    if (n < 0)
        return diag(r, "malformed message_hex"), 0;
    mintid_sha256(msg, (size_t)n, digest);
    if (!same_hex(digest, 32, r->col[1]))
        return diag(r, "digest"), 0;
    mintid_sha256_init(&c);
    for (i = 0; i < n; i++)
        mintid_sha256_update(&c, msg + i, 1);
    mintid_sha256_final(&c, digest);
    return same_hex(digest, 32, r->col[1]) ? 1 : (diag(r, "digest, byte by byte"), 0);
}

static int hmac_row(const row *r)
{
    uint8_t key[MAX_BYTES], msg[MAX_BYTES], mac[32];
    int kn = from_hex(r->col[0], key), mn = from_hex(r->col[1], msg);

    if (kn < 0 || mn < 0)
        return diag(r, "malformed row"), 0;
    mintid_hmac_sha256(key, (size_t)kn, msg, (size_t)mn, mac);
    return same_hex(mac, 32, r->col[2]) ? 1 : (diag(r, "mac"), 0);
}

/* ---- SHA3-512 and CUID2 --------------------------------------------------- */

static int sha3_512_row(const row *r)
{
    uint8_t msg[MAX_BYTES], digest[64];
    int n = from_hex(r->col[0], msg), i;
    mintid_sha3_512_ctx c;

    if (n < 0)
        return diag(r, "malformed message_hex"), 0;
    mintid_sha3_512(msg, (size_t)n, digest);
    if (!same_hex(digest, 64, r->col[1]))
        return diag(r, "digest"), 0;
    mintid_sha3_512_init(&c);
    for (i = 0; i < n; i++)
        mintid_sha3_512_update(&c, msg + i, 1);
    mintid_sha3_512_final(&c, digest);
    return same_hex(digest, 64, r->col[1]) ? 1 : (diag(r, "digest, byte by byte"), 0);
}

/* Draws of exactly the sizes of a row's comma-separated list, in order. */
#define CUID2_MAX_DRAWS 64
typedef struct {
    script s;
    size_t sizes[CUID2_MAX_DRAWS], n, next;
} draw_list;

static int draw_list_random(void *ctx, uint8_t *buf, size_t n)
{
    draw_list *d = ctx;

    if (d->next == d->n || d->sizes[d->next] != n) {
        d->s.wrong = 1;
        return MINTID_ERANDOM;
    }
    d->next++;
    return script_random(&d->s, buf, n);
}

static int draw_list_load(draw_list *d, const char *list)
{
    char hex[2 * MAX_BYTES + 1];
    size_t hn = 0;
    const char *p = list;

    d->n = d->next = 0;
    while (*p != '\0') {
        size_t k = strcspn(p, ",");
        if (d->n == CUID2_MAX_DRAWS || k % 2 != 0 || hn + k > 2 * MAX_BYTES)
            return 0;
        d->sizes[d->n++] = k / 2;
        memcpy(hex + hn, p, k);
        hn += k;
        p += k + (p[k] == ',');
    }
    hex[hn] = '\0';
    return script_load(&d->s, hex, 0);
}

static int cuid2_row(const row *r)
{
    static draw_list d;
    mintid_cuid2_gen g;
    uint8_t fp[MAX_BYTES];
    int64_t length, now;
    int fn = strcmp(r->col[1], "-") == 0 ? 0 : from_hex(r->col[1], fp), n;
    const char *t = r->col[2], *id = r->col[4];
    char out[MINTID_CUID2_MAX_LEN], err[MINTID_ERRMSG_SIZE];

    if (!to_i64(r->col[0], &length) || fn < 0 || !draw_list_load(&d, r->col[3]))
        return diag(r, "malformed row"), 0;
    if (mintid_cuid2_gen_init(&g, length, fn > 0 ? fp : NULL, (size_t)fn, err) != MINTID_OK)
        return diag(r, err), 0;
    while (*t != '\0' && *id != '\0') {
        char num[32];
        size_t k = strcspn(t, ","), idlen = strcspn(id, ",");
        if (k >= sizeof num)
            return diag(r, "malformed times_ms"), 0;
        memcpy(num, t, k);
        num[k] = '\0';
        if (!to_i64(num, &now))
            return diag(r, "malformed times_ms"), 0;
        err[0] = '\0';
        n = mintid_cuid2_gen_next(mintid_cuid2_state_of(&g), now, draw_list_random, &d, out, err);
        if (n < 0)
            return diag(r, err), 0;
        if ((size_t)n != idlen || memcmp(out, id, idlen) != 0)
            return diag(r, "ID"), 0;
        t += k + (t[k] == ',');
        id += idlen + (id[idlen] == ',');
    }
    if (*t != '\0' || *id != '\0')
        return diag(r, "times_ms and ids differ in count"), 0;
    if (d.next != d.n)
        return diag(r, "an expected draw did not happen"), 0;
    return script_drained(r, &d.s);
}

/* ---- MD5 and SHA-1 (for UUIDv3 and v5) ---------------------------------- */

static void md5_whole(const uint8_t *d, size_t n, uint8_t *out) { mintid_md5(d, n, out); }
static void sha1_whole(const uint8_t *d, size_t n, uint8_t *out) { mintid_sha1(d, n, out); }

/* md5.txt and sha1.txt: message_hex digest_hex, in one call and byte by byte. */
static int digest_row(const row *r, int sha1)
{
    uint8_t msg[MAX_BYTES], digest[20];
    size_t len = sha1 ? 20 : 16;
    int n = from_hex(r->col[0], msg), i;

    if (n < 0)
        return diag(r, "malformed message_hex"), 0;
    (sha1 ? sha1_whole : md5_whole)(msg, (size_t)n, digest);
    if (!same_hex(digest, len, r->col[1]))
        return diag(r, "digest"), 0;
    if (sha1) {
        mintid_sha1_ctx c;

        mintid_sha1_init(&c);
        for (i = 0; i < n; i++)
            mintid_sha1_update(&c, msg + i, 1);
        mintid_sha1_final(&c, digest);
    } else {
        mintid_md5_ctx c;

        mintid_md5_init(&c);
        for (i = 0; i < n; i++)
            mintid_md5_update(&c, msg + i, 1);
        mintid_md5_final(&c, digest);
    }
    return same_hex(digest, len, r->col[1]) ? 1 : (diag(r, "digest, byte by byte"), 0);
}

static int md5_row(const row *r) { return digest_row(r, 0); }
static int sha1_row(const row *r) { return digest_row(r, 1); }

/* ---- UUID: every other version (v1, v6, v3, v5, v8) ---------------------- */

/* Parses a canonical UUID column into id; 0 (reported) when it does not. */
static int uuid_col(const row *r, const char *text, uint8_t id[16])
{
    if (mintid_uuid_decode(text, strlen(text), id, NULL) != MINTID_OK)
        return diag(r, "a UUID column does not parse"), 0;
    return 1;
}

static int same_uuid(const uint8_t id[16], const char *want)
{
    char text[36];

    mintid_uuid_encode(id, text);
    return same_text(text, 36, want);
}

/* uuid_name.txt: version namespace name_hex text; the namespace is a UUID
 * or the name of an RFC 9562 one, which checks the core's constants. */
static int uuid_name_row(const row *r)
{
    static const struct { const char *name; const uint8_t *bytes; } spaces[] = {
        { "dns", mintid_uuid_namespace_dns }, { "url", mintid_uuid_namespace_url },
        { "oid", mintid_uuid_namespace_oid }, { "x500", mintid_uuid_namespace_x500 },
    };
    uint8_t ns[16], name[MAX_BYTES], id[16];
    int64_t version;
    int n = from_hex(r->col[2], name);
    size_t i;
    int named = 0;

    for (i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        if (strcmp(r->col[1], spaces[i].name) == 0) {
            memcpy(ns, spaces[i].bytes, 16);
            named = 1;
        }
    if (!named && !uuid_col(r, r->col[1], ns))
        return 0;
    if (!to_i64(r->col[0], &version) || n < 0)
        return diag(r, "malformed row"), 0;
    if (version == 3)
        mintid_uuid3(ns, n ? name : NULL, (size_t)n, id);
    else if (version == 5)
        mintid_uuid5(ns, n ? name : NULL, (size_t)n, id);
    else if (version == 8)
        mintid_uuid8_sha256(ns, n ? name : NULL, (size_t)n, id);
    else
        return diag(r, "version must be 3, 5 or 8"), 0;
    return same_uuid(id, r->col[3]) ? 1 : (diag(r, "name-based UUID"), 0);
}

/* uuid8.txt: bytes_hex text */
static int uuid8_row(const row *r)
{
    uint8_t b[MAX_BYTES], id[16];

    if (from_hex(r->col[0], b) != 16)
        return diag(r, "malformed bytes_hex"), 0;
    mintid_uuid8(b, id);
    return same_uuid(id, r->col[1]) ? 1 : (diag(r, "custom v8"), 0);
}

/* iso.txt: ms text: RFC 3339 text, or ERANGE with the bound named. */
static int iso_row(const row *r)
{
    int64_t ms;
    char out[MINTID_ISO_TEXT_LEN], err[MINTID_ERRMSG_SIZE] = "";
    int rc;

    if (!to_i64(r->col[0], &ms))
        return diag(r, "malformed ms"), 0;
    rc = mintid_iso_text(ms, out, err);
    if (strcmp(r->col[1], "error:range") == 0)
        return rc == MINTID_ERANGE && (strstr(err, "0000-01-01") || strstr(err, "9999-12-31")) ? 1
               : (diag(r, "want ERANGE naming the bound"), 0);
    if (rc != MINTID_OK || strlen(r->col[1]) != sizeof out || memcmp(out, r->col[1], sizeof out) != 0)
        return diag(r, "RFC 3339 text"), 0;
    return 1;
}

/* uuid_lenient.txt: input canonical: the lenient parse, or EPARSE. */
static int uuid_lenient_row(const row *r)
{
    uint8_t id[16];
    int rc = mintid_uuid_decode_lenient(r->col[0], strlen(r->col[0]), id, NULL);

    if (strcmp(r->col[1], "error:parse") == 0)
        return rc == MINTID_EPARSE ? 1 : (diag(r, "want EPARSE"), 0);
    return rc == MINTID_OK && same_uuid(id, r->col[1]) ? 1 : (diag(r, "lenient parse"), 0);
}

/* uuid_time.txt: ticks clock_seq node_hex v1 v6 ms: both layouts, split
 * back, converted either way, and the Unix ms. */
static int uuid_time_row(const row *r)
{
    uint8_t node[MAX_BYTES], v1[16], v6[16], got[16], back_node[6];
    int64_t ticks, clock_seq, ms, got_ms = 0;
    uint64_t back_ticks = 0, via_100ns = 0;
    uint16_t back_seq = 0;

    if (!to_i64(r->col[0], &ticks) || !to_i64(r->col[1], &clock_seq) || from_hex(r->col[2], node) != 6 ||
        !to_i64(r->col[5], &ms))
        return diag(r, "malformed row"), 0;
    if (mintid_uuid_time_from_parts(1, (uint64_t)ticks, clock_seq, node, v1, NULL) != MINTID_OK ||
        mintid_uuid_time_from_parts(6, (uint64_t)ticks, clock_seq, node, v6, NULL) != MINTID_OK ||
        !same_uuid(v1, r->col[3]) || !same_uuid(v6, r->col[4]))
        return diag(r, "the v1 and v6 layouts"), 0;
    if (mintid_uuid_time_split(v6, &back_ticks, &back_seq, back_node, NULL) != MINTID_OK ||
        back_ticks != (uint64_t)ticks || back_seq != clock_seq || memcmp(back_node, node, 6) != 0 ||
        mintid_uuid_time_split(v1, &back_ticks, &back_seq, back_node, NULL) != MINTID_OK ||
        back_ticks != (uint64_t)ticks || back_seq != clock_seq || memcmp(back_node, node, 6) != 0)
        return diag(r, "the fields read back"), 0;
    if (mintid_uuid1_to_uuid6(v1, got, NULL) != MINTID_OK || memcmp(got, v6, 16) != 0 ||
        mintid_uuid6_to_uuid1(v6, got, NULL) != MINTID_OK || memcmp(got, v1, 16) != 0)
        return diag(r, "v1 <-> v6 conversion"), 0;
    if (!mintid_uuid_unix_ms(v1, &got_ms) || got_ms != ms || !mintid_uuid_unix_ms(v6, &got_ms) || got_ms != ms ||
        mintid_uuid_ticks_to_ms((uint64_t)ticks) != ms)
        return diag(r, "the Unix ms"), 0;
    /* The OS clock's 100-ns reading maps to the same ticks. */
    if (mintid_uuid_ticks_from_100ns(ticks - (int64_t)MINTID_UUID_GREGORIAN_OFFSET, "UUIDv1", &via_100ns, NULL) !=
            MINTID_OK || via_100ns != (uint64_t)ticks)
        return diag(r, "ticks from a 100-ns Unix time"), 0;
    return 1;
}

/* uuid_fields.txt: text version variant ms; v1 <-> v6 conversions refused
 * for every other version. */
static int uuid_fields_row(const row *r)
{
    uint8_t id[16], other[16];
    int64_t version, ms = 0, got_ms = 0;
    int has_ms = strcmp(r->col[3], "-") != 0, got_has;
    char err[MINTID_ERRMSG_SIZE] = "";
    int to6, to1;

    if (!uuid_col(r, r->col[0], id) || !to_i64(r->col[1], &version) || (has_ms && !to_i64(r->col[3], &ms)))
        return diag(r, "malformed row"), 0;
    if (mintid_uuid_version(id) != (unsigned)version ||
        strcmp(mintid_uuid_variant_name(mintid_uuid_variant(id)), r->col[2]) != 0)
        return diag(r, "version or variant"), 0;
    got_has = mintid_uuid_unix_ms(id, &got_ms);
    if (got_has != has_ms || (has_ms && got_ms != ms))
        return diag(r, "time"), 0;
    to6 = mintid_uuid1_to_uuid6(id, other, err);
    if ((to6 == MINTID_OK) != (version == 1) || (to6 != MINTID_OK && (to6 != MINTID_EPARSE || !strstr(err, "not 1"))))
        return diag(r, "uuid1_to_uuid6 accepts exactly version 1"), 0;
    to1 = mintid_uuid6_to_uuid1(id, other, err);
    if ((to1 == MINTID_OK) != (version == 6) || (to1 != MINTID_OK && (to1 != MINTID_EPARSE || !strstr(err, "not 6"))))
        return diag(r, "uuid6_to_uuid1 accepts exactly version 6"), 0;
    return 1;
}

/* The error words of a scenario's expect: error:arg as well as the others. */
static int scenario_error(const row *r, const char *expect, int rc, const char *err)
{
    if (strcmp(expect, "error:arg") == 0) {
        if (rc == MINTID_EARG)
            return 1;
        printf("# %s:%d: want error:arg, got code %d (%s)\n", r->file, r->line, rc, rc ? err : "no error");
        return 0;
    }
    return expect_error(r, expect, rc, err, "out of range");
}

/* uuid_time_monotonic.txt: scenario version node_hex clock_seq now_ms
 * now_100ns random_hex expect. The generator is made at a scenario's first
 * row, which holds its draw (the calls themselves never draw here). */
static int uuid_time_monotonic_row(const row *r)
{
    static int made;
    uint8_t node[MAX_BYTES], id[16];
    int64_t version, clock_seq = -1, now;
    int node_len = from_hex(r->col[2], node);
    const char *expect = r->col[7];
    char err[MINTID_ERRMSG_SIZE] = "";
    uint64_t ticks = 0;
    int rc = MINTID_OK;

    if (!to_i64(r->col[1], &version) || node_len < 0 ||
        (strcmp(r->col[3], "-") != 0 && !to_i64(r->col[3], &clock_seq)) ||
        !script_load(&scenario_random, r->col[6], 0))
        return diag(r, "malformed row"), 0;
    if (new_scenario(r)) {
        rc = mintid_uuid_time_state_init(&scenario_gen.uuid_time, (unsigned)version,
                                       strcmp(r->col[2], "-") == 0 ? NULL : node, (size_t)node_len, clock_seq,
                                       script_random, &scenario_random, err);
        made = rc == MINTID_OK;
    } else if (!made) {
        return diag(r, "a scenario whose generator could not be made goes on"), 0;
    }
    if (rc == MINTID_OK) {
        if (strcmp(r->col[4], "-") != 0)
            rc = to_i64(r->col[4], &now) ? mintid_uuid_ticks_from_ms(now, "UUIDv1", &ticks, err) : MINTID_EARG;
        else
            rc = to_i64(r->col[5], &now) ? mintid_uuid_ticks_from_100ns(now, "UUIDv1", &ticks, err) : MINTID_EARG;
    }
    if (rc == MINTID_OK)
        rc = mintid_uuid_time_gen_next(&scenario_gen.uuid_time, ticks, script_random, &scenario_random, id, err);
    if (!script_drained(r, &scenario_random))
        return 0;
    if (is_error(expect))
        return scenario_error(r, expect, rc, err);
    if (rc != MINTID_OK) {
        printf("# %s:%d: want %s, got an error: %s\n", r->file, r->line, expect, err);
        return 0;
    }
    if (!same_uuid(id, expect))
        return diag(r, "the UUID"), 0;
    return 1;
}

/* ---- KSUID --------------------------------------------------------------- */

/* ksuid.txt: text bytes_hex unix_s */
static int ksuid_row(const row *r)
{
    uint8_t b[MAX_BYTES], id[20];
    char text[27];
    int64_t unix_s;

    if (from_hex(r->col[1], b) != 20 || !to_i64(r->col[2], &unix_s))
        return diag(r, "malformed row"), 0;
    mintid_ksuid_encode(b, text);
    if (!same_text(text, 27, r->col[0]) || mintid_ksuid_time(b) != unix_s)
        return diag(r, "text or time"), 0;
    if (mintid_ksuid_decode(r->col[0], strlen(r->col[0]), id, NULL) != MINTID_OK || memcmp(id, b, 20) != 0)
        return diag(r, "parsing the text"), 0;
    if (mintid_ksuid_from_parts(unix_s, b + 4, id, NULL) != MINTID_OK || memcmp(id, b, 20) != 0)
        return diag(r, "ksuid_from_parts"), 0;
    return 1;
}

/* ksuid_monotonic.txt: scenario now_ms random_hex expect (16-byte draws) */
static int ksuid_monotonic_row(const row *r)
{
    uint8_t id[20];
    char err[MINTID_ERRMSG_SIZE] = "", text[27];
    const char *expect = r->col[3];
    int64_t now;
    int rc;

    if (new_scenario(r))
        mintid_ksuid_gen_init(&scenario_gen.ksuid);
    if (!to_i64(r->col[1], &now) || !script_load(&scenario_random, r->col[2], 16))
        return diag(r, "malformed now_ms or random_hex"), 0;
    rc = mintid_ksuid_gen_next(mintid_ksuid_state_of(&scenario_gen.ksuid), now, script_random, &scenario_random, id, err);
    if (!script_drained(r, &scenario_random))
        return 0;
    if (is_error(expect))
        return expect_error(r, expect, rc, err, "out of range");
    if (rc != MINTID_OK)
        return diag(r, err), 0;
    mintid_ksuid_encode(id, text);
    if (!same_text(text, 27, expect)) {
        printf("# %s:%d: want %s, got %.27s\n", r->file, r->line, expect, text);
        return 0;
    }
    return 1;
}

static int ksuid_decode16(const char *text, size_t len, uint8_t out[16], char *err)
{
    uint8_t id[20];
    int rc = mintid_ksuid_decode(text, len, id, err);

    memcpy(out, id, 16);
    return rc;
}

static int ksuid_invalid_row(const row *r) { return invalid_row(r, ksuid_decode16); }

/* ---- short UUIDs ---------------------------------------------------------- */

/* An alphabet column: "flickr", "cookie" or hex bytes; 0 when malformed or
 * refused (reported). */
static int short_uuid_alphabet_col(const row *r, const char *col, mintid_short_uuid_alphabet *a)
{
    uint8_t bytes[MAX_BYTES];
    char err[MINTID_ERRMSG_SIZE];
    int n;

    if (strcmp(col, "flickr") == 0 || strcmp(col, "cookie") == 0) {
        const char *named = col[0] == 'f' ? MINTID_SHORT_UUID_FLICKR : MINTID_SHORT_UUID_COOKIE;
        n = (int)strlen(named);
        memcpy(bytes, named, (size_t)n);
    } else if ((n = from_hex(col, bytes)) < 0) {
        return diag(r, "malformed alphabet"), 0;
    }
    err[0] = '\0';
    if (mintid_short_uuid_alphabet_init(a, bytes, (size_t)n, err) != MINTID_OK)
        return diag(r, err), 0;
    return 1;
}

/* short_uuid.txt: alphabet length uuid text_hex */
static int short_uuid_row(const row *r)
{
    mintid_short_uuid_alphabet a;
    uint8_t id[16], back[16];
    char text[MINTID_SHORT_UUID_MAX_LEN], err[MINTID_ERRMSG_SIZE];
    int64_t length;
    int n;

    if (!short_uuid_alphabet_col(r, r->col[0], &a))
        return 0;
    if (!to_i64(r->col[1], &length) || !uuid_col(r, r->col[2], id))
        return diag(r, "malformed row"), 0;
    if (mintid_short_uuid_length(&a) != (size_t)length)
        return diag(r, "length"), 0;
    mintid_short_uuid_encode(&a, id, text);
    if (!same_hex((const uint8_t *)text, (size_t)length, r->col[3]))
        return diag(r, "short_uuid_encode"), 0;
    n = mintid_short_uuid_text(&a, r->col[2], strlen(r->col[2]), text, err);
    if (n != length || !same_hex((const uint8_t *)text, (size_t)length, r->col[3]))
        return diag(r, "short_uuid_text"), 0;
    if (mintid_short_uuid_decode(&a, text, (size_t)length, back, err) != MINTID_OK || memcmp(back, id, 16) != 0)
        return diag(r, "short_uuid_decode"), 0;
    return 1;
}

/* short_uuid_decode.txt: alphabet text_hex expect (a UUID or the message) */
static int short_uuid_decode_row(const row *r)
{
    mintid_short_uuid_alphabet a;
    uint8_t text[MAX_BYTES], id[16];
    char err[MINTID_ERRMSG_SIZE];
    int len = from_hex(r->col[1], text), rc;

    if (!short_uuid_alphabet_col(r, r->col[0], &a))
        return 0;
    if (len < 0)
        return diag(r, "malformed row"), 0;
    err[0] = '\0';
    rc = mintid_short_uuid_decode(&a, (const char *)text, (size_t)len, id, err);
    if (strncmp(r->col[2], "invalid ", 8) == 0) {
        if (rc != MINTID_EPARSE || strcmp(err, r->col[2]) != 0) {
            printf("# %s:%d: want EPARSE \"%s\", got %d \"%s\"\n", r->file, r->line, r->col[2], rc, err);
            return 0;
        }
        return 1;
    }
    if (rc != MINTID_OK)
        return diag(r, err), 0;
    return same_uuid(id, r->col[2]) || (diag(r, "uuid"), 0);
}

/* short_uuid_alphabet.txt: alphabet_hex error ("-": taken) */
static int short_uuid_alphabet_row(const row *r)
{
    mintid_short_uuid_alphabet a;
    uint8_t bytes[MAX_BYTES];
    char err[MINTID_ERRMSG_SIZE];
    int n = from_hex(r->col[0], bytes), rc;

    if (n < 0)
        return diag(r, "malformed row"), 0;
    err[0] = '\0';
    rc = mintid_short_uuid_alphabet_init(&a, bytes, (size_t)n, err);
    if (strcmp(r->col[1], "-") == 0)
        return rc == MINTID_OK || (diag(r, err), 0);
    if (rc != MINTID_EARG || strcmp(err, r->col[1]) != 0) {
        printf("# %s:%d: want EARG \"%s\", got %d \"%s\"\n", r->file, r->line, r->col[1], rc, err);
        return 0;
    }
    return 1;
}

/* ---- MongoDB ObjectId and XID ---------------------------------------------- */

static uint32_t be24(const uint8_t *p) { return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]; }

/* objectid.txt: text bytes_hex unix_s counter */
static int objectid_row(const row *r)
{
    uint8_t b[MAX_BYTES], id[12];
    char text[24], upper[25];
    int64_t unix_s, counter;
    size_t i;

    if (from_hex(r->col[1], b) != 12 || !to_i64(r->col[2], &unix_s) || !to_i64(r->col[3], &counter))
        return diag(r, "malformed row"), 0;
    mintid_objectid_encode(b, text);
    if (!same_text(text, 24, r->col[0]) || mintid_load_be32(b) != unix_s || be24(b + 9) != counter)
        return diag(r, "text, time or counter"), 0;
    if (mintid_objectid_decode(r->col[0], 24, id, NULL) != MINTID_OK || memcmp(id, b, 12) != 0)
        return diag(r, "parsing the text"), 0;
    for (i = 0; i < 24; i++)
        upper[i] = (char)toupper((unsigned char)r->col[0][i]);
    if (mintid_objectid_decode(upper, 24, id, NULL) != MINTID_OK || memcmp(id, b, 12) != 0)
        return diag(r, "parsing the uppercase text"), 0;
    return strcmp(mintid_kind_of(r->col[0], 24, NULL), "objectid") == 0 || (diag(r, "kind_of"), 0);
}

/* xid.txt: text bytes_hex unix_s machine_hex pid counter */
static int xid_row(const row *r)
{
    uint8_t b[MAX_BYTES], machine[MAX_BYTES], id[12];
    char text[20];
    int64_t unix_s, pid, counter;

    if (from_hex(r->col[1], b) != 12 || !to_i64(r->col[2], &unix_s) || from_hex(r->col[3], machine) != 3 ||
        !to_i64(r->col[4], &pid) || !to_i64(r->col[5], &counter))
        return diag(r, "malformed row"), 0;
    mintid_xid_encode(b, text);
    if (!same_text(text, 20, r->col[0]) || mintid_load_be32(b) != unix_s || memcmp(b + 4, machine, 3) != 0 ||
        ((int64_t)b[7] << 8 | b[8]) != pid || be24(b + 9) != counter)
        return diag(r, "text or fields"), 0;
    if (mintid_xid_decode(r->col[0], 20, id, NULL) != MINTID_OK || memcmp(id, b, 12) != 0)
        return diag(r, "parsing the text"), 0;
    return 1;
}

/* objectid_sequence.txt, xid_sequence.txt: scenario now_ms random_hex expect */
static int seconds_counter_row(const row *r, int xid)
{
    uint8_t id[12];
    char err[MINTID_ERRMSG_SIZE] = "", text[24];
    const char *expect = r->col[3];
    size_t len = xid ? 20 : 24;
    int64_t now;
    int rc;

    if (new_scenario(r)) {
        if (xid)
            mintid_xid_gen_init(&scenario_gen.xid, (const uint8_t *)"mid", 3, 0x1234, NULL);
        else
            mintid_objectid_gen_init(&scenario_gen.objectid);
    }
    if (!to_i64(r->col[1], &now) || !script_load(&scenario_random, r->col[2], xid ? 3 : 8))
        return diag(r, "malformed now_ms or random_hex"), 0;
    if (xid)
        rc = mintid_xid_gen_next(mintid_xid_state_of(&scenario_gen.xid), now, script_random, &scenario_random, id,
                                 err);
    else
        rc = mintid_objectid_gen_next(mintid_objectid_state_of(&scenario_gen.objectid), now, script_random,
                                      &scenario_random, id, err);
    if (!script_drained(r, &scenario_random))
        return 0;
    if (is_error(expect))
        return expect_error(r, expect, rc, err, "out of range");
    if (rc != MINTID_OK)
        return diag(r, err), 0;
    if (xid)
        mintid_xid_encode(id, text);
    else
        mintid_objectid_encode(id, text);
    if (!same_text(text, len, expect)) {
        printf("# %s:%d: want %s, got %.*s\n", r->file, r->line, expect, (int)len, text);
        return 0;
    }
    return 1;
}

static int objectid_sequence_row(const row *r) { return seconds_counter_row(r, 0); }
static int xid_sequence_row(const row *r) { return seconds_counter_row(r, 1); }

static int objectid_decode16(const char *text, size_t len, uint8_t out[16], char *err)
{
    memset(out, 0, 16);
    return mintid_objectid_decode(text, len, out, err);
}

static int xid_decode16(const char *text, size_t len, uint8_t out[16], char *err)
{
    memset(out, 0, 16);
    return mintid_xid_decode(text, len, out, err);
}

static int objectid_invalid_row(const row *r) { return invalid_row(r, objectid_decode16); }
static int xid_invalid_row(const row *r) { return invalid_row(r, xid_decode16); }

/* ---- TypeID -------------------------------------------------------------- */

/* typeid.txt: text prefix uuid ("-": no prefix) */
static int typeid_row(const row *r)
{
    const char *prefix = strcmp(r->col[1], "-") == 0 ? "" : r->col[1];
    size_t plen = strlen(prefix), got_plen = 99;
    uint8_t want[16], id[16];
    char text[MINTID_TYPEID_MAX_TEXT_LEN];
    int n;

    if (!uuid_col(r, r->col[2], want))
        return 0;
    n = mintid_typeid_encode(prefix, plen, want, text, NULL);
    if (n < 0 || !same_text(text, (size_t)n, r->col[0]))
        return diag(r, "typeid_encode"), 0;
    if (mintid_typeid_decode(r->col[0], strlen(r->col[0]), &got_plen, id, NULL) != MINTID_OK ||
        got_plen != plen || memcmp(r->col[0], prefix, plen) != 0 || memcmp(id, want, 16) != 0)
        return diag(r, "typeid_decode"), 0;
    return 1;
}

/* typeid_monotonic.txt: scenario prefix now_ms random_hex expect */
static int typeid_monotonic_row(const row *r)
{
    const char *prefix = strcmp(r->col[1], "-") == 0 ? "" : r->col[1];
    char err[MINTID_ERRMSG_SIZE] = "", text[MINTID_TYPEID_MAX_TEXT_LEN];
    const char *expect = r->col[4];
    int64_t now;
    int n;

    if (new_scenario(r))
        mintid_uuid7_gen_init(&scenario_gen.uuid7);
    if (!to_i64(r->col[2], &now) || !script_load(&scenario_random, r->col[3], 10))
        return diag(r, "malformed now_ms or random_hex"), 0;
    n = mintid_typeid_gen_next(mintid_uuid7_state_of(&scenario_gen.uuid7), prefix, strlen(prefix), now, script_random, &scenario_random,
                               text, err);
    if (!script_drained(r, &scenario_random))
        return 0;
    if (is_error(expect))
        return scenario_error(r, expect, n < 0 ? n : MINTID_OK, err);
    if (n < 0)
        return diag(r, err), 0;
    if (!same_text(text, (size_t)n, expect)) {
        printf("# %s:%d: want %s, got %.*s\n", r->file, r->line, expect, n, text);
        return 0;
    }
    return 1;
}

static int typeid_decode16(const char *text, size_t len, uint8_t out[16], char *err)
{
    size_t plen;

    return mintid_typeid_decode(text, len, &plen, out, err);
}

static int typeid_invalid_row(const row *r) { return invalid_row(r, typeid_decode16); }

/* ---- W3C Trace Context ---------------------------------------------------- */

/* trace_id.txt: bytes stream_hex text (draws of `bytes` until one is not
 * all zero; error:random after 4 zero draws) */
static int trace_id_row(const row *r)
{
    script s;
    char text[MINTID_TRACE_ID_TEXT_LEN], err[MINTID_ERRMSG_SIZE];
    size_t n = (size_t)strtoul(r->col[0], NULL, 10);
    int rc;

    if (!script_load(&s, r->col[1], n))
        return diag(r, "stream_hex"), 0;
    err[0] = '\0';
    rc = mintid_trace_draw_id(script_random, &s, n, text, err);
    if (strcmp(r->col[2], "error:random") == 0) {
        if (rc != MINTID_ERANDOM || strstr(err, "gave all zero bytes 4 times") == NULL)
            return diag(r, "want ERANDOM after 4 zero draws"), 0;
        return script_drained(r, &s);
    }
    if (rc != MINTID_OK || !same_text(text, 2 * n, r->col[2]))
        return diag(r, err[0] ? err : "text"), 0;
    return script_drained(r, &s);
}

/* traceparent.txt: header trace_id parent_id flags rebuilt */
static int traceparent_row(const row *r)
{
    char trace_id[MINTID_TRACE_ID_TEXT_LEN], parent_id[MINTID_SPAN_ID_TEXT_LEN], out[MINTID_TRACEPARENT_LEN];
    char err[MINTID_ERRMSG_SIZE];
    uint8_t flags = 0;
    long want_flags = strtol(r->col[3], NULL, 10);

    err[0] = '\0';
    if (mintid_traceparent_parse(r->col[0], strlen(r->col[0]), trace_id, parent_id, &flags, err) != MINTID_OK)
        return diag(r, err), 0;
    if (!same_text(trace_id, MINTID_TRACE_ID_TEXT_LEN, r->col[1]) ||
        !same_text(parent_id, MINTID_SPAN_ID_TEXT_LEN, r->col[2]) || flags != want_flags)
        return diag(r, "parsed fields"), 0;
    if (mintid_traceparent_text(r->col[1], MINTID_TRACE_ID_TEXT_LEN, r->col[2], MINTID_SPAN_ID_TEXT_LEN, want_flags, out, err) != MINTID_OK ||
        !same_text(out, MINTID_TRACEPARENT_LEN, r->col[4]))
        return diag(r, "rebuilt header"), 0;
    return 1;
}

static int traceparent_decode16(const char *text, size_t len, uint8_t out[16], char *err)
{
    char trace_id[MINTID_TRACE_ID_TEXT_LEN], parent_id[MINTID_SPAN_ID_TEXT_LEN];
    uint8_t flags;

    memset(out, 0, 16);
    return mintid_traceparent_parse(text, len, trace_id, parent_id, &flags, err);
}

static int traceparent_invalid_row(const row *r) { return invalid_row(r, traceparent_decode16); }

/* ---- the platform layer -------------------------------------------------- */

/* RFC 8439 section 2.3.2 (the block function) and 2.4.2 (the keystream
 * XORed into "Ladies and Gentlemen..."): key 00..1f, block counter 1. Here,
 * so that big-endian hosts (mips, s390x) run them too. */
static void check_chacha20_vectors(void)
{
    static const char block_232[] =
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
        "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e";
    static const char cipher_242[] =
        "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
        "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
        "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
        "5af90bbf74a35be6b40b8eedf2785e42874d";
    static const char plain_242[] = "Ladies and Gentlemen of the class of '99: If I could offer you "
                                    "only one tip for the future, sunscreen would be it.";
    static const uint8_t nonce_232[12] = { 0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0 };
    static const uint8_t nonce_242[12] = { 0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0 };
    uint8_t key[32], got[128], one[64];
    size_t i, n = sizeof plain_242 - 1;

    for (i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    mintid_chacha20_blocks(key, 1, nonce_232, got, 1);
    check(same_hex(got, 64, block_232), "ChaCha20: RFC 8439 2.3.2 block function vector");

    mintid_chacha20_blocks(key, 1, nonce_242, got, 2);
    for (i = 0; i < n; i++)
        got[i] ^= (uint8_t)plain_242[i];
    check(n == 114 && same_hex(got, n, cipher_242),
          "ChaCha20: RFC 8439 2.4.2 keystream over two blocks encrypts the sunscreen text");

    mintid_chacha20_blocks(key, 7, nonce_242, got, 2);
    mintid_chacha20_blocks(key, 8, nonce_242, one, 1);
    check(memcmp(got + 64, one, 64) == 0, "ChaCha20: the second block of a batch is the next counter's block");
}

/* Every implementation this build and CPU have (SSE2 and AVX2 on x86-64)
 * gives the scalar one's bytes: the RFC's block, then 1 to 20 blocks from
 * counters at, before and across the 32-bit wrap, so that every split of a
 * request into vector groups and a scalar rest is compared. */
static void check_chacha20_implementations(void)
{
    static const uint8_t nonce_232[12] = { 0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0 };
    static const uint32_t counters[] = { 0, 1, 7, 0xfffffff9u, 0xfffffffcu, 0xffffffffu };
    static uint8_t want[20 * 64], got[20 * 64 + 1];
    uint8_t key[32], nonce[12];
    size_t i, c, n;
    int impl;

    for (i = 0; i < 32; i++)
        key[i] = (uint8_t)(i * 29 + 11);
    for (i = 0; i < 12; i++)
        nonce[i] = (uint8_t)(i * 13 + 5);
    check(mintid_chacha20_blocks_by(MINTID_CHACHA20_SCALAR, key, 0, nonce, want, 1) == MINTID_OK,
          "ChaCha20: the scalar implementation is there on every platform");
#ifdef MINTID_HAVE_CHACHA20_SSE2
    check(mintid_chacha20_blocks_by(MINTID_CHACHA20_SSE2, key, 0, nonce, got, 1) == MINTID_OK,
          "ChaCha20: an x86-64 build has the SSE2 implementation");
#endif
    for (impl = MINTID_CHACHA20_SCALAR + 1; impl < MINTID_CHACHA20_IMPLS; impl++) {
        int same = 1;

        for (i = 0; i < 32; i++)
            key[i] = (uint8_t)i;
        if (mintid_chacha20_blocks_by(impl, key, 1, nonce_232, got, 16) != MINTID_OK)
            continue; /* not in this build, or not on this CPU */
        mintid_chacha20_blocks_by(MINTID_CHACHA20_SCALAR, key, 1, nonce_232, want, 16);
        check(memcmp(got, want, 16 * 64) == 0,
              "ChaCha20 %s: the RFC 8439 2.3.2 block, first of a group, and the scalar code's next 15",
              mintid_chacha20_name(impl));
        for (i = 0; i < 32; i++)
            key[i] = (uint8_t)(i * 29 + 11);
        for (c = 0; c < sizeof counters / sizeof counters[0]; c++) {
            for (n = 1; n <= 20; n++) {
                got[n * 64] = 0xA5; /* nothing written past the request */
                mintid_chacha20_blocks_by(MINTID_CHACHA20_SCALAR, key, counters[c], nonce, want, n);
                mintid_chacha20_blocks_by(impl, key, counters[c], nonce, got, n);
                if (memcmp(got, want, n * 64) != 0 || got[n * 64] != 0xA5)
                    same = 0;
            }
        }
        check(same, "ChaCha20 %s: the scalar code's bytes for 1..20 blocks from counters 0, 1, 7 and across "
              "the 32-bit wrap", mintid_chacha20_name(impl));
    }
    check(mintid_chacha20_blocks_by(mintid_chacha20_best(), key, 0, nonce, got, 1) == MINTID_OK,
          "ChaCha20: the pool's implementation here (%s) is one this build has",
          mintid_chacha20_name(mintid_chacha20_best()));
}

/* mintid_hex_encode16 and mintid_hex_encode12 (SSE2 on x86-64) write the
 * table's digits for every byte value (the 12-byte one: in each of its
 * positions, and nothing past its 24 digits). */
static void check_hex_encoders(void)
{
    uint8_t b[16];
    char fast[32], table[32];
    int v, i, same = 1, same12 = 1;

    for (v = 0; v < 256; v += 16) {
        for (i = 0; i < 16; i++)
            b[i] = (uint8_t)(v + (i * 7) % 16);
        mintid_hex_encode16(b, fast);
        mintid_hex_encode(b, 16, table);
        if (memcmp(fast, table, 32) != 0)
            same = 0;
    }
    for (v = 0; v < 256; v++) {
        for (i = 0; i < 12; i++)
            b[i] = (uint8_t)(v + i * 23);
        memset(fast, '!', sizeof fast);
        mintid_hex_encode12(b, fast);
        mintid_hex_encode(b, 12, table);
        if (memcmp(fast, table, 24) != 0 || fast[24] != '!')
            same12 = 0;
    }
    check(same, "hex: the 16-byte encoder writes the table's digits for all 256 byte values");
    check(same12, "hex: the 12-byte encoder writes the table's digits for all 256 byte values, no more");
}

/* Nano IDs of a 2^k-symbol alphabet: the SSSE3 map (x86-64) writes the
 * word map's symbols, for every such alphabet it takes (2 to 64 symbols),
 * every byte value in every position and sizes 16 to 80 (whole vectors and
 * a tail of 0 to 15 bytes), and nothing past the ID. */
static void check_nanoid_maps(void)
{
    static const char symbols[] = "ZYXWVUTSRQPONMLKJIHGFEDCBA_-zyxwvutsrqponmlkjihgfedcba9876543210";
    mintid_nanoid_spec spec;
    const mintid_nanoid_state *st = mintid_nanoid_state_of(&spec);
    uint8_t bytes[80], words[81], simd[81];
    size_t n, size, i, compared = 0;
    int shift, same = 1;

    for (n = 2; n <= 64; n *= 2) {
        if (mintid_nanoid_spec_init(&spec, (const uint8_t *)symbols, n, 16, NULL) != MINTID_OK) {
            same = 0;
            continue;
        }
        for (shift = 0; shift < 256; shift++) {
            for (i = 0; i < sizeof bytes; i++)
                bytes[i] = (uint8_t)(i * 97 + (size_t)shift);
            for (size = 16; size <= sizeof bytes; size++) {
                words[size] = simd[size] = 0xA5;
                if (mintid_nanoid_map_by(MINTID_NANOID_MAP_SSSE3, st, bytes, size, simd) != MINTID_OK)
                    continue; /* not in this build, or not on this CPU */
                mintid_nanoid_map_by(MINTID_NANOID_MAP_WORDS, st, bytes, size, words);
                if (memcmp(simd, words, size + 1) != 0)
                    same = 0;
                compared++;
            }
        }
    }
    check(same, "Nano ID: the SSSE3 map writes the word map's symbols (%lu IDs compared)", (unsigned long)compared);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    check(compared > 0, "Nano ID: an x86-64 build maps by SSSE3 (every x86-64 CPU since 2006 has it)");
#endif
}

/* A hex digit's value in either case, -1 for any other byte: the test's
 * own reading (hex_digit's, with upper case folded to lower). */
static int hex_value(int c)
{
    return hex_digit((char)(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c));
}

/* mintid_uuid_decode (SSE2 on x86-64, the table elsewhere) against the
 * test's own reading: every byte value at every digit position of a UUID
 * is taken exactly when it is a hex digit of either case, and then gives
 * that digit's value in its nibble, the rest of the ID unchanged. */
static void check_uuid_decoder(void)
{
    static const char base[] = "0123abCD-ef45-6789-AbCd-Ef0123456789";
    char text[37];
    uint8_t got[16], want[16];
    int pos, c, i, same = 1;

    for (pos = 0; pos < 36; pos++) {
        if (pos == 8 || pos == 13 || pos == 18 || pos == 23)
            continue;
        for (c = 0; c < 256; c++) {
            int ok = 1, d;

            memcpy(text, base, sizeof base);
            text[pos] = (char)c;
            for (i = 0, d = 0; i < 36; i++) {
                int v;

                if (i == 8 || i == 13 || i == 18 || i == 23)
                    continue;
                v = hex_value((unsigned char)text[i]);
                if (v < 0)
                    ok = 0;
                else if (d % 2 == 0)
                    want[d / 2] = (uint8_t)(v << 4);
                else
                    want[d / 2] |= (uint8_t)v;
                d++;
            }
            memset(got, 0xA5, sizeof got);
            if ((mintid_uuid_decode(text, 36, got, NULL) == MINTID_OK) != ok ||
                (ok ? memcmp(got, want, 16) != 0 : got[0] != 0xA5))
                same = 0;
        }
    }
    check(same, "UUID decoding: each byte value at each digit position taken exactly when a hex digit, "
          "with its value; a refused text writes nothing");
}

/* mintid_uuid_encode (SSE2 on x86-64, the table elsewhere) against
 * printf's digits: every byte value at every byte position, the other
 * bytes a fixed pattern, and nothing written past the 36 characters. */
static void check_uuid_encoder(void)
{
    uint8_t id[16];
    char got[37], want[37];
    int pos, v, i, same = 1;

    for (pos = 0; pos < 16; pos++) {
        for (v = 0; v < 256; v++) {
            for (i = 0; i < 16; i++)
                id[i] = (uint8_t)(i == pos ? v : i * 37 + 11);
            snprintf(want, sizeof want, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                     id[0], id[1], id[2], id[3], id[4], id[5], id[6], id[7], id[8], id[9], id[10], id[11], id[12],
                     id[13], id[14], id[15]);
            got[36] = 'Z';
            mintid_uuid_encode(id, got);
            if (memcmp(got, want, 36) != 0 || got[36] != 'Z')
                same = 0;
        }
    }
    check(same, "UUID encoding: each byte value at each position gives printf's two lowercase digits, "
          "the hyphens at 8, 13, 18 and 23, nothing past 36");
}

/* Snowflake IDs as decimal text: printf's digits for 0, each power of 10
 * and its neighbours, 2^64 - 1, and values with every digit in play. */
static void check_snowflake_decimal(void)
{
    uint64_t v, p = 1;
    char got[MINTID_SNOWFLAKE_DECIMAL_MAX + 1], want[32];
    size_t n;
    int i, same = 1, k;

    for (i = 0; i <= 20 * 3 + 40; i++) {
        if (i <= 60) {
            /* p - 1, p, p + 1 for p = 10^0 .. 10^19, then 2^64 - 1 at the end */
            v = i % 3 == 0 ? p - 1 : i % 3 == 1 ? p : p + 1;
            if (i % 3 == 2)
                p = p > UINT64_MAX / 10 ? UINT64_MAX : p * 10;
        } else {
            for (v = 0, k = 0; k < 20; k++)
                v = v * 10 + (uint64_t)((k * 7 + i) % 10);
            v ^= (uint64_t)i << 60;
        }
        n = mintid_snowflake_format_decimal(v, got);
        got[n] = '\0';
        snprintf(want, sizeof want, "%" PRIu64, v);
        if (strcmp(got, want) != 0)
            same = 0;
    }
    n = mintid_snowflake_format_decimal(UINT64_MAX, got);
    got[n] = '\0';
    check(same && strcmp(got, "18446744073709551615") == 0,
          "snowflake: decimal text is printf's for 0, 10^k - 1, 10^k, 10^k + 1, 2^64 - 1 and mixed digits");
}

static void check_platform(void)
{
    int64_t now = 0, ticks = 0, mono, mono_later;
    uint8_t a[64], b[64], zero[64];
    char err[MINTID_ERRMSG_SIZE] = "";
    int rc = mintid_os_clock_ms(&now, err);

    /* 2020-01-01 .. 2100-01-01: catches a wrong epoch or unit (Windows
     * FILETIME counts 100 ns from 1601) and a 32-bit time_t overflow. */
    check(rc == MINTID_OK && now > INT64_C(1577836800000) && now < INT64_C(4102444800000),
          "the clock reads a plausible Unix time in ms (%s)", rc == MINTID_OK ? "ok" : err);
    rc = mintid_os_clock_100ns(&ticks, err);
    check(rc == MINTID_OK && ticks / 10000 >= now && ticks / 10000 - now < 60000,
          "the 100-ns clock reads the same Unix time, in 100-ns ticks (%s)", rc == MINTID_OK ? "ok" : err);
    mono = mintid_os_monotonic_ms();
    mintid_os_pause();
    do
        mono_later = mintid_os_monotonic_ms();
    while (mono_later == mono);
    check(mono_later > mono && mono_later - mono < 1000, "the monotonic clock moves forward, in ms");
    memset(zero, 0, sizeof zero);
    check(mintid_os_random(a, sizeof a, err) == MINTID_OK && mintid_os_random(b, sizeof b, err) == MINTID_OK &&
          memcmp(a, b, sizeof a) != 0 && memcmp(a, zero, sizeof a) != 0,
          "the OS random source gives two different 64-byte draws");
    check(mintid_random_bytes(a, sizeof a, err) == MINTID_OK && mintid_random_bytes(b, sizeof b, err) == MINTID_OK &&
          memcmp(a, b, sizeof a) != 0 && memcmp(a, zero, sizeof a) != 0,
          "the pool gives two different 64-byte draws");
    check(mintid_os_random(a, 0, err) == MINTID_OK, "an empty draw succeeds");
    check_chacha20_vectors();
    check_chacha20_implementations();
    check_hex_encoders();
    check_nanoid_maps();
    check_snowflake_decimal();
    check_uuid_decoder();
    check_uuid_encoder();
}

/* ---- the default generators under threads -------------------------------- */

#ifdef HAVE_THREADS
#define THREADS 4
#define PER_THREAD 5000

typedef struct {
    int (*make)(uint8_t out[16], char *err);
    uint8_t (*ids)[16];
    int increasing, errors;
} thread_job;

static void run_job(thread_job *job)
{
    int i;

    job->increasing = 1;
    job->errors = 0;
    for (i = 0; i < PER_THREAD; i++) {
        if (job->make(job->ids[i], NULL) != MINTID_OK)
            job->errors++;
        else if (i > 0 && memcmp(job->ids[i - 1], job->ids[i], 16) >= 0)
            job->increasing = 0;
    }
}

#ifdef _WIN32
static DWORD WINAPI job_thread(LPVOID arg)
{
    run_job(arg);
    return 0;
}
#else
static void *job_thread(void *arg)
{
    run_job(arg);
    return NULL;
}
#endif

static int compare_ids(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

/* The other defaults as 16 bytes in their order: v1 as its v6
 * (the same fields, time first); a KSUID's seconds and the low 96 bits of
 * its payload, which within a second is a counter (its top 32 bits change
 * only after 2^96 increments). */
static int default_uuid1_as_v6(uint8_t out[16], char *err)
{
    uint8_t v1[16];
    int rc = mintid_default_uuid1(v1, err);

    return rc == MINTID_OK ? mintid_uuid1_to_uuid6(v1, out, err) : rc;
}

static int default_ksuid_key(uint8_t out[16], char *err)
{
    uint8_t id[MINTID_KSUID_BYTES];
    int rc = mintid_default_ksuid(id, err);

    memcpy(out, id, 4);
    memcpy(out + 4, id + 8, 12);
    return rc;
}

/* An ObjectId's or XID's 12 bytes, then zeros. */
static int default_objectid_key(uint8_t out[16], char *err)
{
    memset(out, 0, 16);
    return mintid_default_objectid(out, err);
}

static int default_xid_key(uint8_t out[16], char *err)
{
    memset(out, 0, 16);
    return mintid_default_xid(out, err);
}

/* A trace-id's 16 bytes, read back from its hex. */
static int trace_id_bytes(uint8_t out[16], char *err)
{
    char text[MINTID_TRACE_ID_TEXT_LEN + 1];
    uint8_t b[MAX_BYTES];
    int rc = mintid_trace_id_text(text, err);

    text[MINTID_TRACE_ID_TEXT_LEN] = '\0';
    if (rc == MINTID_OK && from_hex(text, b) == 16)
        memcpy(out, b, 16);
    else
        memset(out, 0, 16);
    return rc;
}

/* A CUID2's first 16 characters (its letter and 15 digits, about 82 bits). */
static int cuid2_key(uint8_t out[16], char *err)
{
    char text[MINTID_CUID2_MAX_LEN];
    int n = mintid_cuid2_text(24, text, err);

    if (n == 24)
        memcpy(out, text, 16);
    else
        memset(out, 0, 16);
    return n == 24 ? MINTID_OK : n < 0 ? n : MINTID_ERANGE;
}

static void check_threads(const char *kind, int (*make)(uint8_t out[16], char *err), int monotonic)
{
    static uint8_t ids[THREADS * PER_THREAD][16];
    thread_job jobs[THREADS];
    int i, increasing = 1, errors = 0, started = 1, distinct = 1;
    size_t generators = mintid_random_threads();
#ifdef _WIN32
    HANDLE threads[THREADS];
#else
    pthread_t threads[THREADS];
#endif

    for (i = 0; i < THREADS; i++) {
        jobs[i].make = make;
        jobs[i].ids = ids + i * PER_THREAD;
#ifdef _WIN32
        threads[i] = CreateThread(NULL, 0, job_thread, &jobs[i], 0, NULL);
        started &= threads[i] != NULL;
#else
        started &= pthread_create(&threads[i], NULL, job_thread, &jobs[i]) == 0;
#endif
    }
    if (!started) {
        check(0, "%s: start %d threads", kind, THREADS);
        exit(tap_done()); /* a job may still run: leave, do not free */
    }
    for (i = 0; i < THREADS; i++) {
#ifdef _WIN32
        WaitForSingleObject(threads[i], INFINITE);
        CloseHandle(threads[i]);
#else
        pthread_join(threads[i], NULL);
#endif
        increasing &= jobs[i].increasing;
        errors += jobs[i].errors;
    }
    check(errors == 0, "%s from %d threads: no errors", kind, THREADS);
    /* Each thread drew from a generator of its own, gone as it exited (a
     * pthread key's destructor; fiber-local storage's callback on Windows). */
    check(mintid_random_threads() == generators, "%s from %d threads: no thread's random generator "
          "outlives it (%lu before, %lu after)", kind, THREADS, (unsigned long)generators,
          (unsigned long)mintid_random_threads());
    if (monotonic)
        check(increasing, "%s from %d threads: each thread's IDs strictly increase", kind, THREADS);
    qsort(ids, THREADS * PER_THREAD, 16, compare_ids);
    for (i = 1; i < THREADS * PER_THREAD; i++)
        distinct &= memcmp(ids[i - 1], ids[i], 16) != 0;
    check(distinct, "%s from %d threads: all %d IDs distinct", kind, THREADS, THREADS * PER_THREAD);
}
#endif

/* ---- lock files: the byte locks of lease.lock_file ------------------------ *
 * OFD locks on Linux (natively and under qemu-user), LockFileEx on Windows
 * (under wine): two handles of one process conflict, a handle's unlock and
 * close free its bytes, and a new holder's floor is a wall ms the clock has
 * passed. */
static void lock_file_path(char *path, size_t size)
{
#ifdef _WIN32
    char dir[MAX_PATH + 1];
    DWORD n = GetTempPathA(sizeof dir, dir);

    snprintf(path, size, "%smintid-lock-%lu.tmp", n > 0 && n < sizeof dir ? dir : ".\\",
             (unsigned long)GetCurrentProcessId());
#else
    snprintf(path, size, "/tmp/mintid-lock-%lu.tmp", (unsigned long)mintid_os_monotonic_ms());
#endif
}

static void check_lock_file(void)
{
    char path[512], err[MINTID_ERRMSG_SIZE];
    mintid_lock_file *a = NULL, *b = NULL, *c = NULL;
    int got = 0, taken = 0, rc;
    int64_t floor_ms = 0, now = 0;
    mintid_snowflake_layout sonyflake;

    err[0] = '\0';
    lock_file_path(path, sizeof path);
    remove(path);
    check(mintid_os_lock_file_open(path, 0, &a, err) == MINTID_OK && a == NULL,
          "lock file: a missing file, not created, is none");
    if (mintid_os_lock_file_open(path, 1, &a, err) != MINTID_OK ||
        mintid_os_lock_file_open(path, 1, &b, err) != MINTID_OK) {
        check(0, "lock file: two handles of %s (%s)", path, err);
        return;
    }
    /* Sonyflake's 10 ms units: take returns once the first unit after the
     * floor has begun, the first one its holder may mint. */
    mintid_snowflake_layout_preset(&sonyflake, "sonyflake", 9, NULL);
    rc = mintid_lock_file_take(a, 3, mintid_snowflake_layout_state_of(&sonyflake), &got, &floor_ms, err);
    check(rc == MINTID_OK && got, "lock file: the first handle takes byte 3 (%s)", rc != MINTID_OK ? err : "taken");
    check(mintid_os_clock_ms(&now, err) == MINTID_OK && floor_ms > 0 && now > floor_ms &&
          (now - INT64_C(1409529600000)) / 10 > (floor_ms - INT64_C(1409529600000)) / 10,
          "lock file: the wall clock has reached the unit after the floor when take returns");
    rc = mintid_os_lock_file_try(b, 3, &got, err);
    check(rc == MINTID_OK && !got, "lock file: a second handle of this process cannot take byte 3%s",
          got ? " (it took it)" : "");
    check(mintid_os_lock_file_taken(b, 3, &taken, err) == MINTID_OK && taken,
          "lock file: the second handle sees byte 3 taken");
    check(mintid_os_lock_file_try(b, 4, &got, err) == MINTID_OK && got,
          "lock file: the second handle takes byte 4");
    check(mintid_os_lock_file_unlock(a, 3, err) == MINTID_OK && mintid_os_lock_file_try(b, 3, &got, err) ==
          MINTID_OK && got, "lock file: unlocked by the first, byte 3 is the second's");
    mintid_os_lock_file_close(b);
    if (mintid_os_lock_file_open(path, 0, &c, err) != MINTID_OK || c == NULL) {
        check(0, "lock file: open %s again (%s)", path, err);
    } else {
        check(mintid_os_lock_file_taken(c, 3, &taken, err) == MINTID_OK && !taken &&
              mintid_os_lock_file_taken(c, 4, &taken, err) == MINTID_OK && !taken,
              "lock file: closing the second handle freed bytes 3 and 4");
        mintid_os_lock_file_close(c);
    }
    mintid_os_lock_file_close(a);
    remove(path);
}

/* ---- Sqids ---------------------------------------------------------------- */

#define SQIDS_MAX_WORDS   16
#define SQIDS_MAX_NUMBERS 32

/* sqids.txt: alphabet_hex min_length blocklist numbers id_hex (README): the
 * encoder of those options encodes the numbers to the ID, or reaches max
 * attempts, and decodes the ID back to them. */
static int sqids_row(const row *r)
{
    uint8_t alphabet[MAX_BYTES], words[SQIDS_MAX_WORDS][MAX_BYTES], want[MAX_BYTES];
    const uint8_t *word_ptr[SQIDS_MAX_WORDS];
    size_t word_len[SQIDS_MAX_WORDS], n_words = 0, n = 0, size, len;
    uint64_t numbers[SQIDS_MAX_NUMBERS], back[MAX_BYTES];
    int64_t min_length;
    int alen = from_hex(r->col[0], alphabet), wlen, rc, ok;
    char err[MINTID_ERRMSG_SIZE], id[MAX_BYTES], *p, *end;
    mintid_sqids *s;

    if (alen < 0 || !to_i64(r->col[1], &min_length))
        return diag(r, "malformed row"), 0;
    if (strcmp(r->col[2], "default") != 0 && strcmp(r->col[2], "none") != 0) {
        for (p = r->col[2]; n_words < SQIDS_MAX_WORDS; p = end + 1) {
            char hex[2 * MAX_BYTES + 1];
            end = strchr(p, ',');
            len = end != NULL ? (size_t)(end - p) : strlen(p);
            if (len > 2 * MAX_BYTES)
                return diag(r, "malformed word"), 0;
            memcpy(hex, p, len);
            hex[len] = '\0';
            if ((wlen = from_hex(hex, words[n_words])) < 0)
                return diag(r, "malformed word"), 0;
            word_ptr[n_words] = words[n_words];
            word_len[n_words++] = (size_t)wlen;
            if (end == NULL)
                break;
        }
    }
    if (strcmp(r->col[3], "-") != 0)
        for (p = r->col[3]; n < SQIDS_MAX_NUMBERS; p = end + 1) {
            numbers[n++] = strtoull(p, &end, 10);
            if (*end != ',')
                break;
        }
    size = mintid_sqids_size(alphabet, (size_t)alen, strcmp(r->col[2], "default") == 0 ? NULL : word_ptr,
                             word_len, n_words);
    if ((s = (mintid_sqids *)malloc(size)) == NULL)
        return diag(r, "out of memory"), 0;
    err[0] = '\0';
    if (mintid_sqids_init(s, size, alphabet, (size_t)alen, min_length,
                          strcmp(r->col[2], "default") == 0 ? NULL : word_ptr, word_len, n_words, err) != MINTID_OK) {
        printf("# %s:%d: init: %s\n", r->file, r->line, err);
        free(s);
        return 0;
    }
    len = mintid_sqids_encoded_len(s, numbers, n);
    rc = len <= sizeof id ? mintid_sqids_encode(s, numbers, n, id, err) : MINTID_EARG;
    if (strcmp(r->col[4], "error:max-attempts") == 0) {
        ok = rc == MINTID_EOVERFLOW && strcmp(err, "sqids: reached max attempts to re-generate the ID") == 0;
    } else {
        int wn = strcmp(r->col[4], "-") == 0 ? 0 : from_hex(r->col[4], want);
        ok = rc >= 0 && (size_t)rc == len && wn == rc && memcmp(id, want, (size_t)rc) == 0 &&
             mintid_sqids_decode(s, id, (size_t)rc, UINT64_MAX, back, err) == (int)n &&
             memcmp(back, numbers, n * sizeof numbers[0]) == 0;
    }
    free(s);
    if (!ok)
        printf("# %s:%d: encode gave %d, want %s\n", r->file, r->line, rc, r->col[4]);
    return ok;
}

/* ---- main ---------------------------------------------------------------- */

int main(int argc, char **argv)
{
    static const struct {
        const char *file, *columns;
        row_fn check_row;
    } files[] = {
        { "ulid.txt", "ms rand_hex text bytes_hex uuid", ulid_row },
        { "ulid_invalid.txt", "input reason", ulid_invalid_row },
        { "ulid_monotonic.txt", "scenario now_ms random_hex expect", ulid_monotonic_row },
        { "uuid.txt", "input canonical bytes_hex version time", uuid_row },
        { "uuid_invalid.txt", "input reason", uuid_invalid_row },
        { "uuid4.txt", "rand_hex text", uuid4_row },
        { "uuid7.txt", "ms rand_hex text", uuid7_row },
        { "uuid7_monotonic.txt", "scenario now_ms random_hex expect", uuid7_monotonic_row },
        { "relative.txt", "tag ms rand text bytes_hex", relative_row },
        { "relative_tag.txt", "secret_hex salt_hex key_hex tag prefix", relative_tag_row },
        { "relative_invalid.txt", "input reason", relative_invalid_row },
        { "relative_monotonic.txt", "scenario secret_hex salt_hex key_hex now_ms random_hex expect",
          relative_monotonic_row },
        { "snowflake.txt", "id epoch timestamp machine_id sequence", snowflake_row },
        { "snowflake_sequence.txt", "scenario machine_id epoch now_ms expect", snowflake_sequence_row },
        { "snowflake_layout.txt", "layout id timestamp machine_id sequence", snowflake_layout_row },
        { "snowflake_layout_sequence.txt", "scenario layout machine_id now_ms expect", snowflake_layout_sequence_row },
        { "nanoid.txt", "size alphabet_hex step stream_hex output_hex", nanoid_row },
        { "nanoid_alphabet.txt", "alphabet_hex error", nanoid_alphabet_row },
        { "sha256.txt", "message_hex digest_hex", sha256_row },
        { "hmac_sha256.txt", "key_hex message_hex mac_hex", hmac_row },
        { "md5.txt", "message_hex digest_hex", md5_row },
        { "sha1.txt", "message_hex digest_hex", sha1_row },
        { "uuid_name.txt", "version namespace name_hex text", uuid_name_row },
        { "uuid8.txt", "bytes_hex text", uuid8_row },
        { "uuid_time.txt", "ticks clock_seq node_hex v1 v6 ms", uuid_time_row },
        { "uuid_fields.txt", "text version variant ms", uuid_fields_row },
        { "uuid_time_monotonic.txt", "scenario version node_hex clock_seq now_ms now_100ns random_hex expect",
          uuid_time_monotonic_row },
        { "ksuid.txt", "text bytes_hex unix_s", ksuid_row },
        { "ksuid_invalid.txt", "input reason", ksuid_invalid_row },
        { "ksuid_monotonic.txt", "scenario now_ms random_hex expect", ksuid_monotonic_row },
        { "short_uuid.txt", "alphabet length uuid text_hex", short_uuid_row },
        { "short_uuid_decode.txt", "alphabet text_hex expect", short_uuid_decode_row },
        { "short_uuid_alphabet.txt", "alphabet_hex error", short_uuid_alphabet_row },
        { "objectid.txt", "text bytes_hex unix_s counter", objectid_row },
        { "objectid_invalid.txt", "input reason", objectid_invalid_row },
        { "objectid_sequence.txt", "scenario now_ms random_hex expect", objectid_sequence_row },
        { "xid.txt", "text bytes_hex unix_s machine_hex pid counter", xid_row },
        { "xid_invalid.txt", "input reason", xid_invalid_row },
        { "xid_sequence.txt", "scenario now_ms random_hex expect", xid_sequence_row },
        { "typeid.txt", "text prefix uuid", typeid_row },
        { "typeid_invalid.txt", "input reason", typeid_invalid_row },
        { "typeid_monotonic.txt", "scenario prefix now_ms random_hex expect", typeid_monotonic_row },
        { "trace_id.txt", "bytes stream_hex text", trace_id_row },
        { "traceparent.txt", "header trace_id parent_id flags rebuilt", traceparent_row },
        { "traceparent_invalid.txt", "input reason", traceparent_invalid_row },
        { "iso.txt", "ms text", iso_row },
        { "uuid_lenient.txt", "input canonical", uuid_lenient_row },
        { "sha3_512.txt", "message_hex digest_hex", sha3_512_row },
        { "cuid2.txt", "length fingerprint_hex times_ms draws_hex ids", cuid2_row },
        { "sqids.txt", "alphabet_hex min_length blocklist numbers id_hex", sqids_row },
    };
    size_t i;
    int total = 0;

    if (argc != 2) {
        fputs("usage: test_vectors testdata-dir\n", stderr);
        return 2;
    }
    testdata_dir = argv[1];
    for (i = 0; i < sizeof files / sizeof files[0]; i++) {
        scenario_name[0] = '\0';
        total += each_row(files[i].file, files[i].columns, files[i].check_row);
    }
    printf("# %d vector rows in %u files\n", total, (unsigned)(sizeof files / sizeof files[0]));
    check_platform();
    check_lock_file();
#ifdef HAVE_THREADS
    check_threads("mintid_default_ulid", mintid_default_ulid, 1);
    check_threads("mintid_default_uuid7", mintid_default_uuid7, 1);
    check_threads("mintid_default_uuid4", mintid_default_uuid4, 0);
    check_threads("mintid_default_uuid1", default_uuid1_as_v6, 1);
    check_threads("mintid_default_uuid6", mintid_default_uuid6, 1);
    check_threads("mintid_default_ksuid", default_ksuid_key, 1);
    /* Their counters may wrap within a second: distinct, not increasing. */
    check_threads("mintid_default_objectid", default_objectid_key, 0);
    check_threads("mintid_default_xid", default_xid_key, 0);
    check_threads("mintid_trace_id_text", trace_id_bytes, 0);
    check_threads("mintid_cuid2_text", cuid2_key, 0);
#else
    printf("# no threads in this build: thread test skipped\n");
#endif
    return tap_done();
}
