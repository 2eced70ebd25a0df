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
 *
 * The step of a counter shared by many generators (xid.c's process
 * counter) and the write of the ID are inline in internal.h: the default
 * XID takes them on every ID.
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
int mintid_seconds_counter_exhausted(const mintid_seconds_counter *st, const char *kind, char *err)
{
    return mintid_fail(err, MINTID_EOVERFLOW,
                       "%s counter exhausted: 16777216 IDs in second %" PRId64 ", wait for the next", kind,
                       st->last_s);
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
            return mintid_seconds_counter_exhausted(st, kind, err);
        st->counter = next;
    }
    return mintid_seconds_counter_put(st, seconds, middle, out);
}
