/*
 * trace.c: W3C Trace Context (Recommendation of 23 November 2021), the
 * traceparent header and the IDs it carries. Every rule of the header is
 * here, for both bindings and for C callers; the section numbers are the
 * Recommendation's.
 *
 * A traceparent is version "-" trace-id "-" parent-id "-" trace-flags,
 * each field lowercase hex (3.2.2): 2, 32, 16 and 2 digits, 55 characters
 * in all. Version ff is invalid (3.2.2.1); version 00 is exactly those 55
 * characters, and a higher version may carry more after a '-' that
 * follows the flags (3.2.4); an all-zero trace-id or parent-id is invalid
 * (3.2.2.3, 3.2.2.4). Flags are 8 bits, each one's meaning the caller's
 * (3.2.2.5): the parser returns them as they came, the builder writes the
 * caller's.
 *
 * IDs mintid makes are 16 or 8 bytes from the pool, drawn again in the
 * (2^-128, 2^-64) case that every bit came out zero. Every bit of them is
 * random, what the Level 2 draft's "random" flag (0x02) promises of the
 * right-most 7 bytes; the flag is not set here (the caller's flags are
 * written as given), so a caller who starts a trace may set it.
 */
#include <string.h>

#include "internal.h"

#define VERSION_LEN 2
#define FLAGS_LEN 2
#define TRACE_ID_AT 3                                        /* "vv-" */
#define PARENT_ID_AT (TRACE_ID_AT + MINTID_TRACE_ID_TEXT_LEN + 1)
#define FLAGS_AT (PARENT_ID_AT + MINTID_SPAN_ID_TEXT_LEN + 1)
#define MAX_FLAGS 255
MINTID_STATIC_ASSERT(FLAGS_AT + FLAGS_LEN == MINTID_TRACEPARENT_LEN, traceparent_layout);

/* A source that gave only zero bytes this many times in a row is broken,
 * not unlucky: the call fails rather than loop. */
#define MAX_ZERO_DRAWS 4

/* 0..15 for a lowercase hex digit (HEXDIGLC, 3.2.2), -1 for any other
 * byte, uppercase included. */
static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* n is 8 or 16: 8 bytes at a time. */
static int all_zero(const uint8_t *b, size_t n)
{
    uint64_t any = 0, w;
    size_t i;

    for (i = 0; i + 8 <= n; i += 8) {
        memcpy(&w, b + i, 8);
        any |= w;
    }
    for (; i < n; i++)
        any |= b[i];
    return any == 0;
}

int mintid_trace_draw_id(mintid_random_fn rnd, void *ctx, size_t n, char *out, char *err)
{
    uint8_t id[MINTID_TRACE_ID_BYTES], *bytes;
    const char *kind = n == MINTID_TRACE_ID_BYTES ? "trace-id" : "span-id";
    int tries, rc, zero;

    if (n != MINTID_TRACE_ID_BYTES && n != MINTID_SPAN_ID_BYTES)
        return mintid_fail(err, MINTID_EARG, "trace ID of %zu bytes, want 16 or 8", n);
    for (tries = 0; tries < MAX_ZERO_DRAWS; tries++) {
        rc = mintid_draw_once(rnd, ctx, id, n, kind, err, &bytes);
        if (rc != MINTID_OK)
            return rc;
        zero = all_zero(bytes, n);
        if (!zero) {
            if (n == MINTID_TRACE_ID_BYTES)
                mintid_hex_encode16(bytes, out);
            else
                mintid_hex_encode(bytes, n, out);
        }
        mintid_secure_zero_small(bytes, n);
        if (!zero)
            return MINTID_OK;
    }
    return mintid_fail(err, MINTID_ERANDOM, "%s random source gave all zero bytes %d times", kind, MAX_ZERO_DRAWS);
}

/* The lowercase hex field of len digits at text[at..]: EPARSE "<what>:
 * bad character ..." naming the first bad byte and its 1-based position. */
static int check_hex(const char *text, size_t at, size_t len, const char *what, char *err)
{
    char desc[8];
    size_t i;

    for (i = at; i < at + len; i++) {
        unsigned char c = (unsigned char)text[i];

        if (hex_value(c) < 0)
            return mintid_fail(err, MINTID_EPARSE, "%s: bad character %s at %zu (want lowercase hex)",
                               what, mintid_describe_byte(c, desc), i + 1);
    }
    return MINTID_OK;
}

static int all_zero_digits(const char *text, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (text[i] != '0')
            return 0;
    return 1;
}

/* An ID given on its own (traceparent's arguments): len digits of
 * lowercase hex, not all zero. */
static int check_id(const char *id, size_t id_len, size_t want, const char *what, char *err)
{
    int rc;

    if (id_len != want)
        return mintid_fail(err, MINTID_EPARSE, "%s: length %zu, want %zu", what, id_len, want);
    rc = check_hex(id, 0, want, what, err);
    if (rc == MINTID_OK && all_zero_digits(id, want))
        return mintid_fail(err, MINTID_EPARSE, "%s: all zero", what);
    return rc;
}

/* A '-' at text[at] (between fields, 3.2.2). */
static int check_dash(const char *text, size_t at, char *err)
{
    char desc[8];

    if (text[at] == '-')
        return MINTID_OK;
    return mintid_fail(err, MINTID_EPARSE, "invalid traceparent: want '-' at %zu, got %s", at + 1,
                       mintid_describe_byte((unsigned char)text[at], desc));
}

int mintid_traceparent_parse(const char *header, size_t len, char trace_id[32], char parent_id[16],
                             uint8_t *flags, char *err)
{
    static const char what[] = "invalid traceparent";
    int rc;

    if (len < MINTID_TRACEPARENT_LEN)
        return mintid_fail(err, MINTID_EPARSE, "%s: length %zu, want at least %d", what, len,
                           MINTID_TRACEPARENT_LEN);
    rc = check_hex(header, 0, VERSION_LEN, what, err);
    if (rc != MINTID_OK)
        return rc;
    if (header[0] == 'f' && header[1] == 'f')
        return mintid_fail(err, MINTID_EPARSE, "%s: version ff is invalid", what);
    /* 3.2.4: version 00 is exactly 55 characters; a later version may add
     * fields, after a '-' that ends the flags. */
    if (header[0] == '0' && header[1] == '0' && len != MINTID_TRACEPARENT_LEN)
        return mintid_fail(err, MINTID_EPARSE, "%s: length %zu, want %d for version 00", what, len,
                           MINTID_TRACEPARENT_LEN);
    if ((rc = check_dash(header, TRACE_ID_AT - 1, err)) != MINTID_OK ||
        (rc = check_hex(header, TRACE_ID_AT, MINTID_TRACE_ID_TEXT_LEN, what, err)) != MINTID_OK ||
        (rc = check_dash(header, PARENT_ID_AT - 1, err)) != MINTID_OK ||
        (rc = check_hex(header, PARENT_ID_AT, MINTID_SPAN_ID_TEXT_LEN, what, err)) != MINTID_OK ||
        (rc = check_dash(header, FLAGS_AT - 1, err)) != MINTID_OK ||
        (rc = check_hex(header, FLAGS_AT, FLAGS_LEN, what, err)) != MINTID_OK)
        return rc;
    if (len > MINTID_TRACEPARENT_LEN && (rc = check_dash(header, MINTID_TRACEPARENT_LEN, err)) != MINTID_OK)
        return rc;
    if (all_zero_digits(header + TRACE_ID_AT, MINTID_TRACE_ID_TEXT_LEN))
        return mintid_fail(err, MINTID_EPARSE, "%s: trace-id is all zero", what);
    if (all_zero_digits(header + PARENT_ID_AT, MINTID_SPAN_ID_TEXT_LEN))
        return mintid_fail(err, MINTID_EPARSE, "%s: parent-id is all zero", what);
    memcpy(trace_id, header + TRACE_ID_AT, MINTID_TRACE_ID_TEXT_LEN);
    memcpy(parent_id, header + PARENT_ID_AT, MINTID_SPAN_ID_TEXT_LEN);
    *flags = (uint8_t)(hex_value((unsigned char)header[FLAGS_AT]) << 4 |
                       hex_value((unsigned char)header[FLAGS_AT + 1]));
    return MINTID_OK;
}

int mintid_traceparent_make(const char *trace_id, size_t trace_id_len, const char *parent_id, size_t parent_id_len,
                            int64_t flags, mintid_random_fn rnd, void *ctx, char out[55], char *err)
{
    int rc;

    /* Everything given is checked before anything is drawn. */
    if (flags < 0 || flags > MAX_FLAGS)
        return mintid_fail(err, MINTID_EARG, "flags must be an integer 0..255");
    if (trace_id != NULL &&
        (rc = check_id(trace_id, trace_id_len, MINTID_TRACE_ID_TEXT_LEN, "invalid trace-id", err)) != MINTID_OK)
        return rc;
    if (parent_id != NULL &&
        (rc = check_id(parent_id, parent_id_len, MINTID_SPAN_ID_TEXT_LEN, "invalid parent-id", err)) != MINTID_OK)
        return rc;
    if (trace_id == NULL &&
        (rc = mintid_trace_draw_id(rnd, ctx, MINTID_TRACE_ID_BYTES, out + TRACE_ID_AT, err)) != MINTID_OK)
        return rc;
    if (parent_id == NULL &&
        (rc = mintid_trace_draw_id(rnd, ctx, MINTID_SPAN_ID_BYTES, out + PARENT_ID_AT, err)) != MINTID_OK)
        return rc;
    if (trace_id != NULL)
        memcpy(out + TRACE_ID_AT, trace_id, MINTID_TRACE_ID_TEXT_LEN);
    if (parent_id != NULL)
        memcpy(out + PARENT_ID_AT, parent_id, MINTID_SPAN_ID_TEXT_LEN);
    out[0] = out[1] = '0';
    out[TRACE_ID_AT - 1] = out[PARENT_ID_AT - 1] = out[FLAGS_AT - 1] = '-';
    memcpy(out + FLAGS_AT, mintid_hex_pairs[flags], FLAGS_LEN);
    return MINTID_OK;
}

/* ---- the ABI: the calling thread's pool, its err as the pool's ctx ---- */

int mintid_trace_id_text(char out[32], char *err)
{
    return mintid_trace_draw_id(mintid_random_pool, err, MINTID_TRACE_ID_BYTES, out, err);
}

int mintid_span_id_text(char out[16], char *err)
{
    return mintid_trace_draw_id(mintid_random_pool, err, MINTID_SPAN_ID_BYTES, out, err);
}

int mintid_traceparent_text(const char *trace_id, size_t trace_id_len, const char *parent_id, size_t parent_id_len,
                            int64_t flags, char out[55], char *err)
{
    return mintid_traceparent_make(trace_id, trace_id_len, parent_id, parent_id_len, flags, mintid_random_pool,
                                   err, out, err);
}
