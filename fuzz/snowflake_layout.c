/*
 * snowflake_layout.c: Snowflake layouts (SPEC "Snowflake layouts") from any
 * fields, and IDs read and minted by them. The input is a layout (T, M, S
 * and order one byte each, U 4 bytes, E 8 bytes), an ID, a clock reading
 * and a machine id (8 bytes each, big-endian). The layout is accepted
 * exactly when the rules written here hold, else refused with a one-line
 * message naming the field; its fingerprint reads back to the same layout.
 * An ID is refused exactly when it sets a bit above T + M + S; one read
 * gives fields that rebuild it. A generator of the layout mints, at the
 * clock reading, only an ID that reads back to its machine id and a unit no
 * later than the reading's, with bit 63 clear, and its next ID is larger.
 */
#include <inttypes.h>

#include "fuzz.h"

/* The rules, written apart from the core. */
static int is_valid_layout(int64_t t, int64_t u, int64_t m, int64_t s, int64_t e, int order)
{
    return t >= 1 && m >= 0 && s >= 1 && t + m + s <= 64 && u >= 1 && u <= INT64_C(4294967295) && e >= 0 &&
           (order == 0 || order == 1);
}

static uint64_t mask(int64_t bits)
{
    return bits == 0 ? 0 : UINT64_MAX >> (64 - bits);
}

/* The value of the fields in the layout's order. */
static uint64_t value_of(const int64_t f[6], uint64_t t, uint64_t machine, uint64_t seq)
{
    if (f[5] == MINTID_SNOWFLAKE_ORDER_TSM)
        return t << (f[3] + f[2]) | seq << f[2] | machine;
    return t << (f[2] + f[3]) | machine << f[3] | seq;
}

static void check_fingerprint(const mintid_snowflake_layout *l)
{
    char fp[MINTID_SNOWFLAKE_FINGERPRINT_MAX], order[32];
    long long t, u, m, s, e;
    mintid_snowflake_layout back;
    size_t n = mintid_snowflake_layout_fingerprint(l, fp);

    FUZZ_ASSERT(n > 0 && n < sizeof fp && strlen(fp) == n);
    FUZZ_ASSERT(sscanf(fp, "%lld/%lld/%lld/%lld/%lld/%31s", &t, &u, &m, &s, &e, order) == 6);
    FUZZ_ASSERT(mintid_snowflake_layout_init(&back, t, u, m, s, e, mintid_snowflake_order_of(order, strlen(order)),
                                             NULL) == MINTID_OK);
    FUZZ_ASSERT(mintid_snowflake_layout_equal(&back, l));
}

static void check_split(const mintid_snowflake_layout *l, const int64_t f[6], uint64_t id)
{
    char err[MINTID_ERRMSG_SIZE];
    int64_t ts;
    uint64_t machine, seq, t;
    int width = (int)(f[0] + f[2] + f[3]), rc;

    fuzz_err_reset(err);
    rc = mintid_snowflake_layout_split(l, id, INT64_MAX, &ts, &machine, &seq, err);
    if (width < 64 && id >> width != 0) {
        FUZZ_ASSERT(rc == MINTID_EPARSE);
        fuzz_check_message(err);
        return;
    }
    if (rc == MINTID_ERANGE) {
        /* E + t * U past int64: only then */
        t = id >> (f[2] + f[3]);
        FUZZ_ASSERT(t > (uint64_t)(INT64_MAX - f[4]) / (uint64_t)f[1]);
        fuzz_check_message(err);
        return;
    }
    FUZZ_ASSERT(rc == MINTID_OK && ts >= f[4] && (uint64_t)(ts - f[4]) % (uint64_t)f[1] == 0);
    FUZZ_ASSERT(machine <= mask(f[2]) && seq <= mask(f[3]));
    FUZZ_ASSERT(value_of(f, (uint64_t)(ts - f[4]) / (uint64_t)f[1], machine, seq) == id);
}

static void check_generator(const mintid_snowflake_layout *l, const int64_t f[6], int64_t now, uint64_t machine)
{
    mintid_snowflake_gen g;
    mintid_snowflake_layout_state *gl;
    char err[MINTID_ERRMSG_SIZE];
    uint64_t id, next, got_machine, seq;
    int64_t ts;
    int rc;

    machine &= mask(f[2]);
    FUZZ_ASSERT(mintid_snowflake_gen_init_layout(&g, l, (int64_t)machine, NULL) == MINTID_OK);
    if (f[2] < 63)
        FUZZ_ASSERT(mintid_snowflake_gen_init_layout(&g, l, (int64_t)mask(f[2]) + 1, NULL) == MINTID_EARG);
    FUZZ_ASSERT(mintid_snowflake_gen_init_layout(&g, l, (int64_t)machine, NULL) == MINTID_OK);
    gl = &mintid_snowflake_state_of(&g)->layout;
    fuzz_err_reset(err);
    rc = mintid_snowflake_gen_try(mintid_snowflake_state_of(&g), now, &id, err);
    if (rc != MINTID_OK) {
        FUZZ_ASSERT(rc == MINTID_ERANGE);
        fuzz_check_message(err);
        /* the state is as it was: unstarted */
        FUZZ_ASSERT(mintid_snowflake_state_of(&g)->state == MINTID_SNOWFLAKE_UNSTARTED);
        return;
    }
    FUZZ_ASSERT(id >> 63 == 0);
    FUZZ_ASSERT(mintid_snowflake_layout_split(l, id, INT64_MAX, &ts, &got_machine, &seq, NULL) == MINTID_OK);
    FUZZ_ASSERT(got_machine == machine && seq == 0);
    FUZZ_ASSERT(ts <= now && now - ts < (int64_t)gl->unit_ms);
    /* the same reading again: the same unit, the next sequence (or exhausted) */
    rc = mintid_snowflake_gen_try(mintid_snowflake_state_of(&g), now, &next, NULL);
    if (rc == MINTID_OK)
        FUZZ_ASSERT(next > id);
    else
        FUZZ_ASSERT(rc == MINTID_EAGAIN || rc == MINTID_ERANGE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = { data, size };
    char err[MINTID_ERRMSG_SIZE];
    mintid_snowflake_layout l;
    int64_t f[6], want[6];
    int64_t t = fuzz_byte(&in), m = fuzz_byte(&in), s = fuzz_byte(&in);
    int order = fuzz_byte(&in);
    int64_t u = (int64_t)fuzz_be(&in, 4), e = (int64_t)fuzz_be(&in, 8);
    uint64_t id = fuzz_be(&in, 8);
    int64_t now = (int64_t)fuzz_be(&in, 8);
    uint64_t machine = fuzz_be(&in, 8);
    int rc;

    /* Widths past 64 and orders past 1 are as wrong as any: keep some. */
    if (t > 70)
        t -= 256;
    fuzz_err_reset(err);
    rc = mintid_snowflake_layout_init(&l, t, u, m, s, e, order, err);
    if (!is_valid_layout(t, u, m, s, e, order)) {
        FUZZ_ASSERT(rc == MINTID_EARG);
        fuzz_check_message(err);
        return 0;
    }
    FUZZ_ASSERT(rc == MINTID_OK);
    mintid_snowflake_layout_fields(&l, f);
    want[0] = t, want[1] = u, want[2] = m, want[3] = s, want[4] = e, want[5] = order;
    FUZZ_ASSERT(memcmp(f, want, sizeof f) == 0);
    check_fingerprint(&l);
    check_split(&l, f, id);
    check_generator(&l, f, now, machine);
    return 0;
}
