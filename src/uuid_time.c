/*
 * uuid_time.c: Gregorian-time UUIDs, v1 and v6 (RFC 9562 5.1, 5.6, SPEC):
 * a 60-bit count of 100-ns ticks since 1582-10-15, a 14-bit clock_seq and
 * a 48-bit node, in two layouts of the same fields, and their monotonic
 * generator.
 */
#include <inttypes.h>
#include <string.h>

#include "internal.h"

#define TICKS_PER_MS 10000
/* Unix ms whose ticks fit 60 bits: -OFFSET / 10000 (exact) and the floor
 * of (2^60 - 1 - OFFSET) / 10000. */
#define MIN_MS (-(int64_t)(MINTID_UUID_GREGORIAN_OFFSET / TICKS_PER_MS))
#define MAX_MS ((int64_t)((MINTID_UUID_MAX_TICKS - MINTID_UUID_GREGORIAN_OFFSET) / TICKS_PER_MS))
#define MIN_100NS (-(int64_t)MINTID_UUID_GREGORIAN_OFFSET)
#define MAX_100NS ((int64_t)(MINTID_UUID_MAX_TICKS - MINTID_UUID_GREGORIAN_OFFSET))

int mintid_uuid_ticks_from_ms(int64_t ms, const char *kind, uint64_t *ticks, char *err)
{
    /* Checked before multiplying: an arbitrary int64 ms would overflow. */
    if (ms < MIN_MS || ms > MAX_MS)
        return mintid_fail(err, MINTID_ERANGE, "%s timestamp %" PRId64 " out of range %" PRId64 "..%" PRId64,
                           kind, ms, MIN_MS, MAX_MS);
    *ticks = (uint64_t)(ms - MIN_MS) * TICKS_PER_MS;
    return MINTID_OK;
}

int mintid_uuid_ticks_from_100ns(int64_t unix_100ns, const char *kind, uint64_t *ticks, char *err)
{
    if (unix_100ns < MIN_100NS || unix_100ns > MAX_100NS)
        return mintid_fail(err, MINTID_ERANGE,
                           "%s timestamp %" PRId64 " (100 ns since 1970) out of range %" PRId64 "..%" PRId64,
                           kind, unix_100ns, MIN_100NS, MAX_100NS);
    *ticks = (uint64_t)(unix_100ns - MIN_100NS);
    return MINTID_OK;
}

int64_t mintid_uuid_ticks_to_ms(uint64_t ticks)
{
    /* Both sides fit int64 (ticks < 2^60); C division truncates toward
     * zero, so a negative remainder steps one ms down: floor. */
    int64_t since_1970 = (int64_t)(ticks & MINTID_UUID_MAX_TICKS) - (int64_t)MINTID_UUID_GREGORIAN_OFFSET;
    int64_t ms = since_1970 / TICKS_PER_MS;

    return since_1970 % TICKS_PER_MS < 0 ? ms - 1 : ms;
}

/* Bytes 0-7 of either layout, with the version nibble. */
static void store_time(unsigned version, uint64_t ticks, uint8_t out[8])
{
    if (version == 1) {
        mintid_store_be32(out, (uint32_t)ticks);
        out[4] = (uint8_t)(ticks >> 40);
        out[5] = (uint8_t)(ticks >> 32);
        out[6] = (uint8_t)(0x10 | ((ticks >> 56) & 0x0F));
        out[7] = (uint8_t)(ticks >> 48);
    } else {
        mintid_store_be32(out, (uint32_t)(ticks >> 28));
        out[4] = (uint8_t)(ticks >> 20);
        out[5] = (uint8_t)(ticks >> 12);
        out[6] = (uint8_t)(0x60 | ((ticks >> 8) & 0x0F));
        out[7] = (uint8_t)ticks;
    }
}

static uint64_t load_time(unsigned version, const uint8_t id[8])
{
    uint64_t hi = (uint64_t)(id[6] & 0x0F) << 8 | id[7];
    uint64_t mid = (uint64_t)id[4] << 8 | id[5];
    uint64_t low = mintid_load_be32(id);

    if (version == 1)
        return hi << 48 | mid << 32 | low;
    return low << 28 | mid << 12 | hi;
}

static void store_fields(unsigned version, uint64_t ticks, uint16_t clock_seq, const uint8_t node[6],
                         uint8_t out[16])
{
    store_time(version, ticks, out);
    out[8] = (uint8_t)(0x80 | (clock_seq >> 8 & 0x3F));
    out[9] = (uint8_t)clock_seq;
    memcpy(out + 10, node, 6);
}

int mintid_uuid_time_from_parts(unsigned version, uint64_t ticks, int64_t clock_seq,
                                const uint8_t node[6], uint8_t out[16], char *err)
{
    if (version != 1 && version != 6)
        return mintid_fail(err, MINTID_EARG, "Gregorian-time UUID version must be 1 or 6, got %u", version);
    if (ticks > MINTID_UUID_MAX_TICKS)
        return mintid_fail(err, MINTID_ERANGE, "UUIDv%u ticks %" PRIu64 " out of range 0..%" PRIu64,
                           version, ticks, MINTID_UUID_MAX_TICKS);
    if (clock_seq < 0 || clock_seq > MINTID_UUID_MAX_CLOCK_SEQ)
        return mintid_fail(err, MINTID_ERANGE, "UUIDv%u clock_seq %" PRId64 " out of range 0..%d",
                           version, clock_seq, MINTID_UUID_MAX_CLOCK_SEQ);
    store_fields(version, ticks, (uint16_t)clock_seq, node, out);
    return MINTID_OK;
}

static int want_version(const uint8_t id[16], unsigned want, char *err)
{
    unsigned v = mintid_uuid_version(id);

    if (v == want)
        return MINTID_OK;
    return mintid_fail(err, MINTID_EPARSE, "UUID is version %u, not %u", v, want);
}

int mintid_uuid_time_split(const uint8_t id[16], uint64_t *ticks, uint16_t *clock_seq, uint8_t node[6],
                           char *err)
{
    unsigned v = mintid_uuid_version(id);

    if (v != 1 && v != 6)
        return mintid_fail(err, MINTID_EPARSE, "UUID is version %u, not 1 or 6", v);
    *ticks = load_time(v, id);
    *clock_seq = (uint16_t)((id[8] & 0x3F) << 8 | id[9]);
    memcpy(node, id + 10, 6);
    return MINTID_OK;
}

/* Bytes 8-15 (variant, clock_seq, node) are copied as they are. */
static int convert(const uint8_t in[16], unsigned from, unsigned to, uint8_t out[16], char *err)
{
    uint8_t id[16];
    int rc = want_version(in, from, err);

    if (rc != MINTID_OK)
        return rc;
    store_time(to, load_time(from, in), id);
    memcpy(id + 8, in + 8, 8);
    memcpy(out, id, sizeof id);
    return MINTID_OK;
}

int mintid_uuid1_to_uuid6(const uint8_t in[16], uint8_t out[16], char *err)
{
    return convert(in, 1, 6, out, err);
}

int mintid_uuid6_to_uuid1(const uint8_t in[16], uint8_t out[16], char *err)
{
    return convert(in, 6, 1, out, err);
}

int mintid_uuid_unix_ms(const uint8_t id[16], int64_t *ms)
{
    unsigned v = mintid_uuid_version(id);

    if (v == 7) {
        *ms = mintid_ulid_time(id);
        return 1;
    }
    if (v != 1 && v != 6)
        return 0;
    *ms = mintid_uuid_ticks_to_ms(load_time(v, id));
    return 1;
}

/* ---- the generator ------------------------------------------------------- */

/* Draws the parts the caller did not fix into *clock_seq and node. */
static int draw_identity(const mintid_uuid_time_state *g, mintid_random_fn rnd, void *ctx,
                         uint16_t *clock_seq, uint8_t node[6], const char *kind, char *err)
{
    uint8_t drawn[8];
    size_t n = (g->fixed_clock_seq ? 0 : 2) + (g->fixed_node ? 0 : 6);
    int rc;

    if (n == 0)
        return MINTID_OK;
    rc = mintid_draw_random(rnd, ctx, drawn, n, kind, err);
    if (rc != MINTID_OK)
        return rc;
    if (!g->fixed_clock_seq)
        *clock_seq = (uint16_t)((drawn[0] << 8 | drawn[1]) & MINTID_UUID_MAX_CLOCK_SEQ);
    if (!g->fixed_node) {
        memcpy(node, drawn + n - 6, 6);
        node[0] |= 0x01; /* RFC 9562 6.10: the multicast bit, never a real IEEE 802 address */
    }
    return MINTID_OK;
}

static const char *uuid_time_kind(unsigned version)
{
    return version == 1 ? "UUIDv1" : "UUIDv6";
}

int mintid_uuid_time_state_init(mintid_uuid_time_state *g, unsigned version,
                                const uint8_t *node, size_t node_len, int64_t clock_seq,
                                mintid_random_fn rnd, void *ctx, char *err)
{
    mintid_uuid_time_state next;
    int rc;

    if (version != 1 && version != 6)
        return mintid_fail(err, MINTID_EARG, "Gregorian-time UUID version must be 1 or 6, got %u", version);
    if (node != NULL && node_len != 6)
        return mintid_fail(err, MINTID_EARG, "node must be 6 bytes, got %zu", node_len);
    if (clock_seq < -1 || clock_seq > MINTID_UUID_MAX_CLOCK_SEQ)
        return mintid_fail(err, MINTID_EARG, "clock_seq must be 0..%d, got %" PRId64,
                           MINTID_UUID_MAX_CLOCK_SEQ, clock_seq);
    memset(&next, 0, sizeof next);
    next.last_ticks = -1;
    next.version = (uint8_t)version;
    next.fixed_node = node != NULL;
    next.fixed_clock_seq = clock_seq >= 0;
    if (node != NULL)
        memcpy(next.node, node, 6);
    if (clock_seq >= 0)
        next.clock_seq = (uint16_t)clock_seq;
    next.generation = mintid_os_fork_generation();
    rc = draw_identity(&next, rnd, ctx, &next.clock_seq, next.node, uuid_time_kind(version), err);
    if (rc != MINTID_OK)
        return rc;
    *g = next;
    return MINTID_OK;
}

/* The pool's ctx is the err buffer, so an OS failure keeps its reason. */
int mintid_uuid_time_gen_init(mintid_uuid_time_gen *g, unsigned version,
                              const uint8_t *node, size_t node_len, int64_t clock_seq, char *err)
{
    return mintid_uuid_time_state_init(mintid_uuid_time_state_of(g), version, node, node_len, clock_seq,
                                       mintid_random_pool, err, err);
}

int mintid_uuid_time_gen_next(mintid_uuid_time_state *g, uint64_t now_ticks,
                              mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err)
{
    const char *kind = uuid_time_kind(g->version);
    uint32_t current = mintid_os_fork_generation();
    uint16_t clock_seq = g->clock_seq;
    uint8_t node[6];
    int64_t ticks;
    int rc;

    /* With nothing to draw, a forked child would make its parent's IDs. */
    if (current != g->generation && g->fixed_node && g->fixed_clock_seq)
        return mintid_fail(err, MINTID_EFORK,
                           "%s generator made in another process (before fork()) with node and clock_seq "
                           "fixed: make one per process", kind);
    if (now_ticks > MINTID_UUID_MAX_TICKS)
        return mintid_fail(err, MINTID_ERANGE, "%s ticks %" PRIu64 " out of range 0..%" PRIu64,
                           kind, now_ticks, MINTID_UUID_MAX_TICKS);
    if ((int64_t)now_ticks > g->last_ticks) {
        ticks = (int64_t)now_ticks;
    } else if (g->last_ticks < (int64_t)MINTID_UUID_MAX_TICKS) {
        /* The same tick, or the clock went backwards: one tick on. */
        ticks = g->last_ticks + 1;
    } else {
        return mintid_fail(err, MINTID_EOVERFLOW,
                           "%s counter overflow at tick %" PRId64 " (60-bit timestamp exhausted)",
                           kind, g->last_ticks);
    }
    memcpy(node, g->node, 6);
    /* A forked child must not share its parent's node and clock_seq (and
     * so, at the same tick, its IDs): it draws the part not fixed, and a
     * draw of the very identity the parent goes on with (a random option
     * that repeats itself; a 14-bit clock_seq by chance) is moved off it. */
    if (current != g->generation) {
        rc = draw_identity(g, rnd, ctx, &clock_seq, node, kind, err);
        if (rc != MINTID_OK)
            return rc;
        if (clock_seq == g->clock_seq && memcmp(node, g->node, 6) == 0) {
            if (!g->fixed_clock_seq)
                clock_seq = (uint16_t)((clock_seq + 1) & MINTID_UUID_MAX_CLOCK_SEQ);
            else
                node[5] ^= 1; /* a drawn node; bit 0 of byte 0 stays the multicast bit */
        }
    }
    store_fields(g->version, (uint64_t)ticks, clock_seq, node, out);
    g->last_ticks = ticks;
    g->clock_seq = clock_seq;
    memcpy(g->node, node, 6);
    g->generation = current;
    return MINTID_OK;
}

int mintid_uuid_time_gen_next_ms(mintid_uuid_time_state *g, int64_t now_ms,
                                 mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err)
{
    uint64_t ticks = 0;
    int rc = mintid_uuid_ticks_from_ms(now_ms, uuid_time_kind(g->version), &ticks, err);

    return rc == MINTID_OK ? mintid_uuid_time_gen_next(g, ticks, rnd, ctx, out, err) : rc;
}

int mintid_uuid_time_gen_next_100ns(mintid_uuid_time_state *g, int64_t unix_100ns,
                                    mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err)
{
    uint64_t ticks = 0;
    int rc = mintid_uuid_ticks_from_100ns(unix_100ns, uuid_time_kind(g->version), &ticks, err);

    return rc == MINTID_OK ? mintid_uuid_time_gen_next(g, ticks, rnd, ctx, out, err) : rc;
}
