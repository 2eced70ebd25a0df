/*
 * seconds_counter.c: the rule MongoDB ObjectIds and XIDs share (SPEC
 * "ObjectId", "XID"): 32-bit big-endian Unix seconds in bytes 0..3 that
 * never go back within one generator, and a 24-bit big-endian counter in
 * bytes 9..11 that starts at a random value and adds 1 per ID, 0xFFFFFF
 * wrapping to 0. The five bytes between are each kind's own (objectid.c,
 * xid.c). Unlike the monotonic rule (monotonic.c) the counter is drawn once
 * per process, not per time unit, and wraps: the seconds and the process
 * identity keep IDs apart, as the references do, until 2^24 IDs in one
 * second would bring the counter back to that second's first ID.
 */
#include <inttypes.h>

#include "internal.h"

#define COUNTER_MASK UINT32_C(0xFFFFFF)

void mintid_seconds_counter_init(mintid_seconds_counter *st)
{
    st->last_s = -1; /* a new state: its first step takes a drawn start */
    st->counter = 0;
    st->first = 0;
    st->first_ticket = 0;
    st->generation = mintid_os_fork_generation();
}

int mintid_seconds_out_of_range(const char *kind, int64_t seconds, char *err)
{
    return mintid_fail(err, MINTID_ERANGE, "%s timestamp %" PRId64 " out of range 0..4294967295", kind, seconds);
}

/* The ID that would repeat its second's first: refused, the state kept. */
static int exhausted(const mintid_seconds_counter *st, const char *kind, char *err)
{
    return mintid_fail(err, MINTID_EOVERFLOW,
                       "%s counter exhausted: 16777216 IDs in second %" PRId64 ", wait for the next", kind,
                       st->last_s);
}

/* The ID, once the step has chosen its counter: the second, the kind's
 * five bytes (middle, a 40-bit big-endian number) and the counter. A clock
 * set back keeps the last second, so one generator's IDs increase until
 * its counter wraps within a second. Two stores, of bytes 0..7 and 8..11:
 * an encoder that reads the ID back in those pieces (hex.c's SSE2, xid.c)
 * has them forwarded from the stores, where a read across several
 * narrower stores waits until they have reached the cache. */
static int put_id(mintid_seconds_counter *st, int64_t seconds, uint64_t middle, uint8_t out[12])
{
    if (seconds > st->last_s)
        st->last_s = seconds;
    mintid_store_be64(out, (uint64_t)(uint32_t)st->last_s << 32 | middle >> 8);
    mintid_store_be32(out + 8, (uint32_t)(middle & 0xFF) << 24 | st->counter);
    return MINTID_OK;
}

int mintid_seconds_counter_step(mintid_seconds_counter *st, const char *kind, int64_t seconds, uint32_t generation,
                                const uint8_t start[3], uint64_t middle, uint8_t out[12], char *err)
{
    if (mintid_seconds_counter_fresh(st, generation)) {
        st->counter = (uint32_t)start[0] << 16 | (uint32_t)start[1] << 8 | start[2];
        st->first = st->counter;
        st->generation = generation;
    } else if (seconds > st->last_s) {
        st->counter = (st->counter + 1) & COUNTER_MASK;
        st->first = st->counter;
    } else {
        /* The same second (or a clock set back, which keeps it): after 2^24
         * IDs the counter comes back to this second's first, and the ID
         * would repeat it byte for byte. The references wrap and repeat;
         * this generator refuses until its second moves on. */
        uint32_t next = (st->counter + 1) & COUNTER_MASK;

        if (next == st->first)
            return exhausted(st, kind, err);
        st->counter = next;
    }
    return put_id(st, seconds, middle, out);
}

int mintid_seconds_counter_step_shared(mintid_seconds_counter *st, const char *kind, int64_t seconds,
                                       uint32_t generation, uint64_t ticket, uint32_t counter, uint64_t middle,
                                       uint8_t out[12], char *err)
{
    if (mintid_seconds_counter_fresh(st, generation) || seconds > st->last_s) {
        st->first_ticket = ticket;
        st->generation = generation;
    } else if (ticket - st->first_ticket >= (UINT64_C(1) << 24)) {
        /* Other generators took the values between: 2^24 tickets since this
         * second's first, and this value may be one of its own again. */
        return exhausted(st, kind, err);
    }
    st->counter = counter & COUNTER_MASK;
    return put_id(st, seconds, middle, out);
}
