/*
 * cuid2.c: CUID2 generators from fuzzer bytes, and is_cuid2's rule.
 *
 * Input: 1 byte the length (-3..36, so bad ones too), 1 byte the
 * fingerprint (0: drawn; 255: a given one of 0 bytes; else that many
 * bytes follow), then operations to the end. An operation is one byte:
 *   bits 0-1  clock: the same reading, + byte, any int64 (8 bytes), -byte - 1
 *   bit 2     the random source fails in this operation
 *   bit 3     is_cuid2's rule on the next byte's count of input bytes, with
 *             bounds from two more bytes (-8..247)
 * Random bytes are served from the input when the generator draws.
 *
 * Properties: init refuses exactly a length outside 2..32 and a given
 * fingerprint of 0 or more than 256 bytes (EARG, a one-line message);
 * next gives a CUID2 of the length (a letter, then 0-9 a-z) that
 * mintid_cuid2_valid accepts, moving the counter by one in the state, or
 * ERANGE exactly for a time before 1970 and ERANDOM for a failing source,
 * the state's bytes unchanged; mintid_cuid2_valid is the reference's
 * isCuid, written here apart.
 */
#include "fuzz.h"

static int valid_model(const uint8_t *t, size_t n, int64_t min_len, int64_t max_len)
{
    size_t i;

    if (n < 2 || (int64_t)n < min_len || (int64_t)n > max_len || !(t[0] >= 'a' && t[0] <= 'z'))
        return 0;
    for (i = 1; i < n; i++)
        if (!((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= '0' && t[i] <= '9')))
            return 0;
    return 1;
}

typedef struct {
    fuzz_input *in;
    int fail;
} source;

static int source_fn(void *ctx, uint8_t *buf, size_t n)
{
    source *s = (source *)ctx;

    if (s->fail)
        return MINTID_ERANDOM;
    return fuzz_random(s->in, buf, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = { data, size };
    mintid_cuid2_gen g, before;
    mintid_cuid2_state *st = mintid_cuid2_state_of(&g);
    uint8_t fp[256];
    int64_t length = (int64_t)fuzz_byte(&in) % 40 - 3, now = 1700000000000;
    unsigned fb = fuzz_byte(&in);
    size_t fp_len = fb == 255 ? 0 : fb, i;
    const uint8_t *given = fb == 0 ? NULL : fp;
    char out[MINTID_CUID2_MAX_LEN], err[MINTID_ERRMSG_SIZE];
    int rc, calls = 0;

    for (i = 0; i < fp_len; i++)
        fp[i] = fuzz_byte(&in);
    fuzz_err_reset(err);
    rc = mintid_cuid2_gen_init(&g, length, given, fp_len, err);
    if (length < 2 || length > 32 || (given != NULL && fp_len == 0)) {
        FUZZ_ASSERT(rc == MINTID_EARG);
        fuzz_check_message(err);
        return 0;
    }
    FUZZ_ASSERT(rc == MINTID_OK);

    while (in.left > 0 && calls++ < 2000) {
        uint8_t op = fuzz_byte(&in);
        source s;
        int was_ready = st->m.ready;
        uint64_t counter = st->m.counter;

        switch (op & 3) {
        case 0:
            break;
        case 1:
            /* past INT64_MAX it wraps to a time before 1970 (no signed
             * overflow in the harness): both ends get their answer */
            now = (int64_t)((uint64_t)now + fuzz_byte(&in));
            break;
        case 2:
            now = (int64_t)fuzz_be(&in, 8);
            break;
        default:
            now = -(int64_t)fuzz_byte(&in) - 1;
            break;
        }
        if (op & 8) {
            size_t n = fuzz_byte(&in);
            int64_t lo = (int64_t)fuzz_byte(&in) - 8, hi = (int64_t)fuzz_byte(&in) - 8;
            if (n > in.left)
                n = in.left;
            FUZZ_ASSERT(mintid_cuid2_valid((const char *)in.p, n, lo, hi) == valid_model(in.p, n, lo, hi));
        }
        s.in = &in;
        s.fail = (op & 4) != 0;
        before = g;
        fuzz_err_reset(err);
        rc = mintid_cuid2_gen_next(st, now, source_fn, &s, out, err);
        if (rc < 0) {
            FUZZ_ASSERT(rc == (now < 0 ? MINTID_ERANGE : MINTID_ERANDOM));
            fuzz_check_message(err);
            FUZZ_ASSERT(memcmp(&before, &g, sizeof g) == 0);
            continue;
        }
        /* A shorter ID needs a digest below 36^length: not from a fuzzer. */
        FUZZ_ASSERT(rc == length);
        FUZZ_ASSERT(valid_model((const uint8_t *)out, (size_t)rc, 2, 32));
        FUZZ_ASSERT(mintid_cuid2_valid(out, (size_t)rc, 2, 32));
        FUZZ_ASSERT(st->m.ready);
        if (was_ready && st->m.generation == mintid_cuid2_state_of(&before)->m.generation)
            FUZZ_ASSERT(st->m.counter == counter + 1);
        else
            FUZZ_ASSERT(st->m.counter < UINT64_C(476782367) + 1);
    }
    return 0;
}
