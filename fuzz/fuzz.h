/*
 * fuzz.h: what the libFuzzer targets of fuzz/ share. Each target is one
 * LLVMFuzzerTestOneInput in its own file; a failed property aborts, which
 * libFuzzer reports as a crash and saves the input that caused it.
 */
#ifndef MINTID_FUZZ_H
#define MINTID_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mintid.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property that must hold: say which, then abort for libFuzzer. */
#define FUZZ_ASSERT(cond)                                                        \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                             \
        }                                                                        \
    } while (0)

/* Filled into err before a call, so that a message the core forgot to
 * terminate shows. */
#define FUZZ_ERR_FILL 0xA5

static inline void fuzz_err_reset(char err[MINTID_ERRMSG_SIZE])
{
    memset(err, FUZZ_ERR_FILL, MINTID_ERRMSG_SIZE);
}

/* The core's message contract (mintid.h): NUL-terminated within
 * MINTID_ERRMSG_SIZE, not empty, one line of printable ASCII, no final
 * full stop. */
static inline void fuzz_check_message(const char err[MINTID_ERRMSG_SIZE])
{
    const char *end = memchr(err, '\0', MINTID_ERRMSG_SIZE);
    size_t len, i;

    FUZZ_ASSERT(end != NULL);
    len = (size_t)(end - err);
    FUZZ_ASSERT(len > 0);
    for (i = 0; i < len; i++)
        FUZZ_ASSERT(err[i] >= 0x20 && err[i] <= 0x7E);
    FUZZ_ASSERT(err[len - 1] != '.');
}

/* A decoder's verdict on the input: MINTID_OK exactly when the rule
 * written in the harness says the text is valid, else MINTID_EPARSE with a
 * well-formed message. Returns whether it accepted. */
static inline int fuzz_decoded(int rc, int valid, const char err[MINTID_ERRMSG_SIZE])
{
    FUZZ_ASSERT(rc == MINTID_OK || rc == MINTID_EPARSE);
    FUZZ_ASSERT((rc == MINTID_OK) == (valid != 0));
    if (rc != MINTID_OK)
        fuzz_check_message(err);
    return rc == MINTID_OK;
}

static inline unsigned char fuzz_upper(unsigned char c)
{
    return c >= 'a' && c <= 'z' ? (unsigned char)(c - 'a' + 'A') : c;
}

static inline unsigned char fuzz_lower(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* The input read front to back; reads past its end give zeros. */
typedef struct {
    const uint8_t *p;
    size_t left;
} fuzz_input;

static inline uint8_t fuzz_byte(fuzz_input *in)
{
    if (in->left == 0)
        return 0;
    in->left--;
    return *in->p++;
}

/* n bytes (at most 8) big-endian. */
static inline uint64_t fuzz_be(fuzz_input *in, int n)
{
    uint64_t v = 0;

    while (n-- > 0)
        v = v << 8 | fuzz_byte(in);
    return v;
}

/* A mintid_random_fn that serves the input's next bytes, and fails as a
 * broken source does once they run out (writing nothing). */
static inline int fuzz_random(void *ctx, uint8_t *buf, size_t n)
{
    fuzz_input *in = (fuzz_input *)ctx;

    if (in->left < n)
        return MINTID_ERANDOM;
    memcpy(buf, in->p, n);
    in->p += n;
    in->left -= n;
    return MINTID_OK;
}

#endif
