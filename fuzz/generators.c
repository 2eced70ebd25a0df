/*
 * generators.c: the ULID, UUIDv7, relative-ID and Snowflake generators
 * driven by a script of calls with fuzzer-chosen clock readings and random
 * bytes, each result checked against SPEC's monotonic rules as a model
 * kept here.
 *
 * Input: 2 bytes machine_id (signed), 1 byte epoch mode (+ its bytes), then
 * operations to the end of the input. An operation is one byte:
 *   bits 0-1  generator: ULID, UUIDv7, relative ID, Snowflake
 *   bits 2-4  clock: same reading, + byte, - byte, any int64 (8 bytes),
 *             an edge (byte picks: -1, 0, 2^48 - 1, 2^48, INT64_MIN,
 *             epoch - 1, epoch + 2^42, ...), + 1, a burst of calls at
 *             the same reading (byte: 1..64, or 4088..4103), any 48-bit
 *             ms (6 bytes)
 *   bit 5     the random source fails in this operation (byte: how)
 *   bits 6-7  the relative ID's key (one of four)
 * followed by that operation's bytes. Random bytes are served from the
 * input, after the operation's own bytes, when a generator draws.
 *
 * Rules checked on every call (the model's last_ms / last ID per
 * generator): a draw happens exactly when now > last_ms and now is in
 * range; a fresh ID is from_parts(now, drawn bytes); otherwise the ms stays
 * and the counter is the previous one + 1 (carries included); every ID is
 * strictly greater than the generator's previous one; an error is ERANGE,
 * EOVERFLOW (counter at its maximum), ERANDOM (the draw failed) or, for
 * Snowflake, EAGAIN (4096 IDs at last_ms), and leaves the generator's
 * bytes as they were, with a one-line message.
 */
#include "fuzz.h"

enum { GEN_ULID, GEN_UUID7, GEN_RELATIVE, GEN_SNOWFLAKE };
enum { CLOCK_SAME, CLOCK_FORWARD, CLOCK_BACK, CLOCK_ANY, CLOCK_EDGE, CLOCK_NEXT, CLOCK_BURST, CLOCK_MS };

#define MAX_CALLS   20000 /* per input, so that no input is slow */
#define SEQ_MAX     4095
#define KEYS        4
#define OWN_MESSAGE "fuzz source: own message"

/* The random source: the input's bytes, or a failure when the operation
 * says so (three ways: MINTID_ERANDOM, a positive code, its own message). */
typedef struct {
    fuzz_input *in;
    int fail;        /* 0, or 1 + the way to fail */
    char *err;       /* the call's err, for a source that writes its own */
    unsigned calls;
    int failed;      /* the last call failed */
    uint8_t drawn[10];
    size_t drawn_len;
} source;

static int source_fn(void *ctx, uint8_t *buf, size_t n)
{
    source *s = (source *)ctx;
    int rc;

    s->calls++;
    s->failed = 1;
    FUZZ_ASSERT(n <= sizeof s->drawn);
    switch (s->fail) {
    case 0:
        break;
    case 1:
        return MINTID_ERANDOM;
    case 2:
        return 1; /* callers must turn it negative */
    default:
        snprintf(s->err, MINTID_ERRMSG_SIZE, "%s", OWN_MESSAGE);
        return MINTID_ERANDOM;
    }
    rc = fuzz_random(s->in, buf, n);
    if (rc == MINTID_OK) {
        memcpy(s->drawn, buf, n);
        s->drawn_len = n;
        s->failed = 0;
    }
    return rc;
}

/* An ID's ms and counter: ULID's 80 bits, UUIDv7's rand_a << 62 | rand_b,
 * a relative ID's 50-bit rand, as hi << 64 | lo. */
typedef struct {
    int64_t ms;
    uint64_t hi, lo;
} position;

static uint64_t load_be(const uint8_t *p, int n)
{
    uint64_t v = 0;

    while (n-- > 0)
        v = v << 8 | *p++;
    return v;
}

static position position_of(int kind, const uint8_t id[16], uint32_t *tag)
{
    position p;
    uint64_t rand_a;

    p.ms = (int64_t)load_be(id, 6);
    switch (kind) {
    case GEN_ULID:
        p.hi = load_be(id + 6, 2);
        p.lo = load_be(id + 8, 8);
        break;
    case GEN_UUID7:
        FUZZ_ASSERT(id[6] >> 4 == 7 && (id[8] & 0xC0) == 0x80);
        rand_a = (uint64_t)(id[6] & 0x0F) << 8 | id[7];
        p.hi = rand_a >> 2;
        p.lo = (rand_a & 3) << 62 | (uint64_t)(id[8] & 0x3F) << 56 | load_be(id + 9, 7);
        break;
    default:
        mintid_relative_split(id, tag, &p.ms, &p.lo);
        p.hi = 0;
        break;
    }
    return p;
}

static int counter_is_max(int kind, position p)
{
    switch (kind) {
    case GEN_ULID:  return p.hi == 0xFFFF && p.lo == UINT64_MAX;
    case GEN_UUID7: return p.hi == 0x3FF && p.lo == UINT64_MAX;
    default:        return p.lo == MINTID_RELATIVE_MAX_RAND;
    }
}

static int position_less(position a, position b)
{
    if (a.ms != b.ms)
        return a.ms < b.ms;
    if (a.hi != b.hi)
        return a.hi < b.hi;
    return a.lo < b.lo;
}

typedef struct {
    int64_t last_ms; /* -1 until the first ID */
    uint8_t last[16];
} mono_model;

typedef struct {
    int started;
    uint64_t last_t; /* ms since epoch */
    uint32_t seq;
    uint64_t last_id;
} flake_model;

typedef struct {
    mintid_ulid_gen ulid;
    mintid_uuid7_gen uuid7;
    mintid_relative_gen relative;
    mintid_snowflake_gen snowflake;
    mono_model model[3];
    flake_model flake;
    int64_t machine_id, epoch;
    int64_t now;
    source src;
    unsigned calls;
} world;

static const uint8_t secret[] = "fuzz secret, 16+ bytes";
static const uint8_t salt[] = "fuzz salt";
static const char *const key_text[KEYS] = {
    "", "customer-42", "customer-43",
    "a key longer than the 64 bytes a relative generator caches, so that its tag is never cached",
};
static uint32_t key_tag[KEYS];

static void init_tags(void)
{
    static int done;
    int k;

    if (done)
        return;
    for (k = 0; k < KEYS; k++)
        FUZZ_ASSERT(mintid_relative_tag(secret, sizeof secret - 1, salt, sizeof salt - 1,
                                        (const uint8_t *)key_text[k], strlen(key_text[k]),
                                        &key_tag[k], NULL) == MINTID_OK);
    done = 1;
}

static void check_monotonic(world *w, int kind, int key)
{
    static const size_t draw_len[3] = { 10, 10, 7 };
    static const size_t gen_size[3] = { sizeof(mintid_ulid_gen), sizeof(mintid_uuid7_gen),
                                        sizeof(mintid_relative_gen) };
    void *gen = kind == GEN_ULID ? (void *)&w->ulid : kind == GEN_UUID7 ? (void *)&w->uuid7
                                                                        : (void *)&w->relative;
    mono_model *m = &w->model[kind];
    const uint8_t *k = (const uint8_t *)key_text[key];
    size_t key_len = strlen(key_text[key]);
    unsigned char before[sizeof(mintid_relative_gen)];
    char err[MINTID_ERRMSG_SIZE];
    uint8_t out[16], want[16];
    unsigned calls = w->src.calls;
    int in_range = w->now >= 0 && w->now <= MINTID_MAX_MS;
    int fresh = in_range && w->now > m->last_ms;
    uint32_t tag = 0, prev_tag = 0;
    position p, prev;
    int rc;

    FUZZ_ASSERT(gen_size[kind] <= sizeof before);
    memcpy(before, gen, gen_size[kind]);
    fuzz_err_reset(err);
    w->src.err = err;
    w->src.failed = 0;
    switch (kind) {
    case GEN_ULID:
        rc = mintid_ulid_gen_next(mintid_ulid_state_of(&w->ulid), w->now, source_fn, &w->src, out, err);
        break;
    case GEN_UUID7:
        rc = mintid_uuid7_gen_next(mintid_uuid7_state_of(&w->uuid7), w->now, source_fn, &w->src, out, err);
        break;
    default:
        rc = mintid_relative_gen_next(mintid_relative_state_of(&w->relative), w->now, key_len ? k : NULL, key_len,
                                      source_fn, &w->src, out, err);
        break;
    }
    /* SPEC: a draw exactly when now > last_ms, of the kind's length. */
    FUZZ_ASSERT(w->src.calls - calls == (unsigned)fresh);
    FUZZ_ASSERT(!fresh || w->src.failed || w->src.drawn_len == draw_len[kind]);

    if (rc != MINTID_OK) {
        FUZZ_ASSERT(memcmp(before, gen, gen_size[kind]) == 0);
        fuzz_check_message(err);
        if (!in_range) {
            FUZZ_ASSERT(rc == MINTID_ERANGE);
        } else if (fresh) {
            FUZZ_ASSERT(rc == MINTID_ERANDOM && w->src.failed);
            if (w->src.fail == 3)
                FUZZ_ASSERT(strcmp(err, OWN_MESSAGE) == 0);
        } else {
            FUZZ_ASSERT(rc == MINTID_EOVERFLOW);
            FUZZ_ASSERT(counter_is_max(kind, position_of(kind, m->last, &prev_tag)));
        }
        return;
    }
    FUZZ_ASSERT(in_range && !(fresh && w->src.failed));
    p = position_of(kind, out, &tag);
    if (kind == GEN_RELATIVE)
        FUZZ_ASSERT(tag == key_tag[key]);
    if (fresh) {
        const uint8_t *d = w->src.drawn;

        if (kind == GEN_ULID)
            FUZZ_ASSERT(mintid_ulid_from_parts(w->now, d, want, NULL) == MINTID_OK);
        else if (kind == GEN_UUID7)
            FUZZ_ASSERT(mintid_uuid7_from_parts(w->now, d, want, NULL) == MINTID_OK);
        else
            FUZZ_ASSERT(mintid_relative_from_parts(key_tag[key], w->now,
                                                   (int64_t)(load_be(d, 7) & MINTID_RELATIVE_MAX_RAND),
                                                   want, NULL) == MINTID_OK);
        FUZZ_ASSERT(memcmp(out, want, 16) == 0);
    } else {
        /* Same ms or the clock went back: last_ms kept, counter + 1. */
        prev = position_of(kind, m->last, &prev_tag);
        FUZZ_ASSERT(p.ms == m->last_ms);
        FUZZ_ASSERT(p.lo == prev.lo + 1 && p.hi == prev.hi + (p.lo == 0));
    }
    if (m->last_ms >= 0)
        FUZZ_ASSERT(position_less(position_of(kind, m->last, &prev_tag), p));
    m->last_ms = p.ms;
    memcpy(m->last, out, 16);
}

static void check_snowflake(world *w)
{
    flake_model *m = &w->flake;
    mintid_snowflake_gen before;
    char err[MINTID_ERRMSG_SIZE];
    uint64_t id = 0, t, want_t;
    uint32_t want_seq, machine, sequence;
    int64_t timestamp;
    int rc;

    memcpy(&before, &w->snowflake, sizeof before);
    fuzz_err_reset(err);
    rc = mintid_snowflake_gen_try(mintid_snowflake_state_of(&w->snowflake), w->now, &id, err);
    if (rc != MINTID_OK) {
        FUZZ_ASSERT(memcmp(&before, &w->snowflake, sizeof before) == 0);
        fuzz_check_message(err);
    }
    /* SPEC: ms - epoch must be in 0..2^42 - 1. */
    if (w->now < w->epoch || ((uint64_t)w->now - (uint64_t)w->epoch) >> 42 != 0) {
        FUZZ_ASSERT(rc == MINTID_ERANGE);
        return;
    }
    t = (uint64_t)w->now - (uint64_t)w->epoch;
    if (m->started && t <= m->last_t) {
        /* Same ms or the clock went back: last_ms kept, seq + 1, or wait. */
        if (m->seq == SEQ_MAX) {
            FUZZ_ASSERT(rc == MINTID_EAGAIN);
            return;
        }
        want_t = m->last_t;
        want_seq = m->seq + 1;
    } else {
        want_t = t;
        want_seq = 0;
    }
    /* SPEC: an ID with bit 63 set (t >= 2^41) is refused, state unchanged. */
    if (want_t >> 41 != 0) {
        FUZZ_ASSERT(rc == MINTID_ERANGE && strstr(err, "bit 63") != NULL);
        return;
    }
    FUZZ_ASSERT(rc == MINTID_OK);
    FUZZ_ASSERT(id == (want_t << 22 | (uint64_t)w->machine_id << 12 | want_seq));
    FUZZ_ASSERT(!m->started || id > m->last_id);
    mintid_snowflake_split(id, w->epoch, &timestamp, &machine, &sequence);
    FUZZ_ASSERT(timestamp == (int64_t)want_t + w->epoch && machine == (uint32_t)w->machine_id &&
                sequence == want_seq);
    m->started = 1;
    m->last_t = want_t;
    m->seq = want_seq;
    m->last_id = id;
}

static int64_t edge_reading(const world *w, uint8_t pick)
{
    const uint64_t e = (uint64_t)w->epoch, span = UINT64_C(1) << 42;
    const int64_t edges[] = {
        -1, 0, 1, MINTID_MAX_MS - 1, MINTID_MAX_MS, MINTID_MAX_MS + 1, INT64_MIN, INT64_MAX,
        (int64_t)(e - 1), (int64_t)e, (int64_t)(e + span - 1), (int64_t)(e + span),
        w->model[GEN_ULID].last_ms, w->model[GEN_RELATIVE].last_ms,
        (int64_t)(e + w->flake.last_t), (int64_t)(e + w->flake.last_t - 1),
    };

    return edges[pick % (sizeof edges / sizeof edges[0])];
}

static void init_snowflake(world *w, fuzz_input *in)
{
    char err[MINTID_ERRMSG_SIZE];
    uint8_t mode;
    int rc;

    w->machine_id = (int16_t)fuzz_be(in, 2);
    mode = fuzz_byte(in);
    switch (mode % 4) {
    case 0: w->epoch = 0; break;
    case 1: w->epoch = (int64_t)fuzz_be(in, 6); break;
    case 2: w->epoch = (int64_t)fuzz_be(in, 8); break;
    default: w->epoch = INT64_C(1288834974657); break;
    }
    fuzz_err_reset(err);
    rc = mintid_snowflake_gen_init(&w->snowflake, w->machine_id, w->epoch, err);
    if (w->machine_id < 0 || w->machine_id > MINTID_SNOWFLAKE_MAX_MACHINE || w->epoch < 0) {
        FUZZ_ASSERT(rc == MINTID_EARG);
        fuzz_check_message(err);
        w->machine_id &= MINTID_SNOWFLAKE_MAX_MACHINE;
        w->epoch &= INT64_MAX;
        rc = mintid_snowflake_gen_init(&w->snowflake, w->machine_id, w->epoch, NULL);
    }
    FUZZ_ASSERT(rc == MINTID_OK);
}

/* Mostly short runs; the top 16 values reach Snowflake's 4096 per ms. */
static unsigned burst_length(uint8_t pick)
{
    return pick >= 0xF0 ? SEQ_MAX - 7u + (pick - 0xF0u) : 1u + pick % 64u;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_input in = { data, size };
    world w;
    int i;

    init_tags();
    memset(&w, 0, sizeof w);
    mintid_ulid_gen_init(&w.ulid);
    mintid_uuid7_gen_init(&w.uuid7);
    FUZZ_ASSERT(mintid_relative_gen_init(&w.relative, secret, sizeof secret - 1, salt, sizeof salt - 1,
                                         NULL) == MINTID_OK);
    for (i = 0; i < 3; i++)
        w.model[i].last_ms = -1;
    init_snowflake(&w, &in);
    w.now = INT64_C(1700000000000);
    w.src.in = &in;

    while (in.left > 0 && w.calls < MAX_CALLS) {
        uint8_t op = fuzz_byte(&in);
        int kind = op & 3, clock = op >> 2 & 7, key = op >> 6;
        unsigned repeat = 1, r;

        switch (clock) {
        case CLOCK_SAME: break;
        case CLOCK_FORWARD: w.now = (int64_t)((uint64_t)w.now + fuzz_byte(&in)); break;
        case CLOCK_BACK: w.now = (int64_t)((uint64_t)w.now - fuzz_byte(&in)); break;
        case CLOCK_ANY: w.now = (int64_t)fuzz_be(&in, 8); break;
        case CLOCK_EDGE: w.now = edge_reading(&w, fuzz_byte(&in)); break;
        case CLOCK_NEXT: w.now = (int64_t)((uint64_t)w.now + 1); break;
        case CLOCK_BURST: repeat = burst_length(fuzz_byte(&in)); break;
        default: w.now = (int64_t)fuzz_be(&in, 6); break;
        }
        w.src.fail = op & 0x20 ? 1 + fuzz_byte(&in) % 3 : 0;
        for (r = 0; r < repeat && w.calls < MAX_CALLS; r++, w.calls++) {
            if (kind == GEN_SNOWFLAKE)
                check_snowflake(&w);
            else
                check_monotonic(&w, kind, key);
        }
    }
    mintid_relative_gen_wipe(&w.relative);
    return 0;
}
