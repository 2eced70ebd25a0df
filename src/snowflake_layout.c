/*
 * snowflake_layout.c: where the time, the machine id and the sequence sit
 * in a 64-bit Snowflake ID (SPEC "Snowflake layouts"), the presets of the
 * systems that store such IDs, and the reading of an ID back by a layout.
 * Every rule of a layout is checked here, once; the generator (snowflake.c)
 * and the fence (fence.c) only shift and mask by what it worked out.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const order_names[] = { "time-machine-seq", "time-seq-machine" };

/* The published field widths, units, epochs and orders. */
static const struct {
    const char *name;
    uint8_t time_bits;
    uint32_t unit_ms;
    uint8_t machine_bits, seq_bits;
    int64_t epoch;
    uint8_t order;
} presets[] = {
    { "mintid", 42, 1, 10, 12, 0, MINTID_SNOWFLAKE_ORDER_TMS },                /* SPEC "Snowflake" */
    { "twitter", 41, 1, 10, 12, INT64_C(1288834974657), MINTID_SNOWFLAKE_ORDER_TMS },
    { "discord", 42, 1, 10, 12, INT64_C(1420070400000), MINTID_SNOWFLAKE_ORDER_TMS },
    { "instagram", 41, 1, 13, 10, INT64_C(1314220021721), MINTID_SNOWFLAKE_ORDER_TMS },
    { "sonyflake", 39, 10, 16, 8, INT64_C(1409529600000), MINTID_SNOWFLAKE_ORDER_TSM },
};
#define PRESET_COUNT (sizeof presets / sizeof presets[0])

int mintid_snowflake_order_of(const char *name, size_t len)
{
    int i;

    for (i = 0; i < 2; i++)
        if (strlen(order_names[i]) == len && memcmp(order_names[i], name, len) == 0)
            return i;
    return -1;
}

const char *mintid_snowflake_order_name(int order)
{
    return order == MINTID_SNOWFLAKE_ORDER_TSM ? order_names[1] : order_names[0];
}

static int same_fields(const mintid_snowflake_layout_state *a, const mintid_snowflake_layout_state *b)
{
    return a->epoch == b->epoch && a->unit_ms == b->unit_ms && a->time_bits == b->time_bits &&
           a->machine_bits == b->machine_bits && a->seq_bits == b->seq_bits && a->order == b->order;
}

/* The derived fields of l from its own: the shifts, and the preset it equals. */
static void work_out(mintid_snowflake_layout_state *l)
{
    size_t i;

    l->time_shift = (uint8_t)(l->machine_bits + l->seq_bits);
    l->seq_mask = mintid_low_mask(l->seq_bits);
    l->spec_fields = l->time_bits == 42 && l->unit_ms == 1 && l->machine_bits == 10 && l->seq_bits == 12 &&
                     l->order == MINTID_SNOWFLAKE_ORDER_TMS;
    if (l->order == MINTID_SNOWFLAKE_ORDER_TSM) {
        l->seq_shift = l->machine_bits;
        l->machine_shift = 0;
    } else {
        l->seq_shift = 0;
        l->machine_shift = l->seq_bits;
    }
    l->preset = 0;
    for (i = 0; i < PRESET_COUNT; i++) {
        mintid_snowflake_layout_state p;
        p.epoch = presets[i].epoch;
        p.unit_ms = presets[i].unit_ms;
        p.time_bits = presets[i].time_bits;
        p.machine_bits = presets[i].machine_bits;
        p.seq_bits = presets[i].seq_bits;
        p.order = presets[i].order;
        if (same_fields(l, &p)) {
            l->preset = (uint8_t)(i + 1);
            break;
        }
    }
}

int mintid_snowflake_layout_init(mintid_snowflake_layout *pub, int64_t time_bits, int64_t time_unit_ms,
                                 int64_t machine_bits, int64_t seq_bits, int64_t epoch, int order, char *err)
{
    mintid_snowflake_layout_state l;

    memset(&l, 0, sizeof l);
    /* One field at a time, each named, so that the sum below cannot overflow. */
    if (time_bits < 1 || time_bits > 64)
        return mintid_fail(err, MINTID_EARG, "time_bits must be 1..64, got %" PRId64, time_bits);
    if (machine_bits < 0 || machine_bits > 64)
        return mintid_fail(err, MINTID_EARG, "machine_bits must be 0..64, got %" PRId64, machine_bits);
    if (seq_bits < 1 || seq_bits > 64)
        return mintid_fail(err, MINTID_EARG, "seq_bits must be 1..64, got %" PRId64, seq_bits);
    if (time_bits + machine_bits + seq_bits > 64)
        return mintid_fail(err, MINTID_EARG, "time_bits + machine_bits + seq_bits must be <= 64, got %" PRId64,
                           time_bits + machine_bits + seq_bits);
    if (time_unit_ms < 1 || time_unit_ms > MINTID_SNOWFLAKE_MAX_UNIT_MS)
        return mintid_fail(err, MINTID_EARG, "time_unit_ms must be 1..%" PRId64 ", got %" PRId64,
                           (int64_t)MINTID_SNOWFLAKE_MAX_UNIT_MS, time_unit_ms);
    if (epoch < 0)
        return mintid_fail(err, MINTID_EARG, "epoch must be >= 0, got %" PRId64, epoch);
    if (order != MINTID_SNOWFLAKE_ORDER_TMS && order != MINTID_SNOWFLAKE_ORDER_TSM)
        return mintid_fail(err, MINTID_EARG, "order must be \"time-machine-seq\" or \"time-seq-machine\"");
    l.epoch = epoch;
    l.unit_ms = (uint32_t)time_unit_ms;
    l.time_bits = (uint8_t)time_bits;
    l.machine_bits = (uint8_t)machine_bits;
    l.seq_bits = (uint8_t)seq_bits;
    l.order = (uint8_t)order;
    work_out(&l);
    *mintid_snowflake_layout_state_of(pub) = l;
    return MINTID_OK;
}

static void preset_state(size_t i, mintid_snowflake_layout_state *l)
{
    memset(l, 0, sizeof *l);
    l->epoch = presets[i].epoch;
    l->unit_ms = presets[i].unit_ms;
    l->time_bits = presets[i].time_bits;
    l->machine_bits = presets[i].machine_bits;
    l->seq_bits = presets[i].seq_bits;
    l->order = presets[i].order;
    work_out(l);
}

void mintid_snowflake_layout_default_state(mintid_snowflake_layout_state *l)
{
    preset_state(0, l);
}

void mintid_snowflake_layout_default(mintid_snowflake_layout *l)
{
    preset_state(0, mintid_snowflake_layout_state_of(l));
}

int mintid_snowflake_layout_preset(mintid_snowflake_layout *l, const char *name, size_t len, char *err)
{
    size_t i;

    for (i = 0; i < PRESET_COUNT; i++) {
        if (strlen(presets[i].name) == len && memcmp(presets[i].name, name, len) == 0) {
            preset_state(i, mintid_snowflake_layout_state_of(l));
            return MINTID_OK;
        }
    }
    return mintid_fail(err, MINTID_EARG, "unknown layout preset '%.*s' (mintid, twitter, discord, instagram, "
                       "sonyflake)", len > 32 ? 32 : (int)len, name);
}

int mintid_snowflake_layout_set_epoch(mintid_snowflake_layout *pub, int64_t epoch, char *err)
{
    mintid_snowflake_layout_state *l = mintid_snowflake_layout_state_of(pub);

    if (epoch < 0)
        return mintid_fail(err, MINTID_EARG, "epoch must be >= 0, got %" PRId64, epoch);
    l->epoch = epoch;
    work_out(l);
    return MINTID_OK;
}

void mintid_snowflake_layout_fields(const mintid_snowflake_layout *pub, int64_t fields[6])
{
    const mintid_snowflake_layout_state *l = mintid_snowflake_layout_state_of_const(pub);

    fields[0] = l->time_bits;
    fields[1] = l->unit_ms;
    fields[2] = l->machine_bits;
    fields[3] = l->seq_bits;
    fields[4] = l->epoch;
    fields[5] = l->order;
}

const char *mintid_snowflake_layout_name(const mintid_snowflake_layout *pub)
{
    const mintid_snowflake_layout_state *l = mintid_snowflake_layout_state_of_const(pub);

    return l->preset == 0 ? NULL : presets[l->preset - 1].name;
}

int mintid_snowflake_layout_state_equal(const mintid_snowflake_layout_state *a,
                                        const mintid_snowflake_layout_state *b)
{
    return same_fields(a, b);
}

int mintid_snowflake_layout_equal(const mintid_snowflake_layout *a, const mintid_snowflake_layout *b)
{
    return same_fields(mintid_snowflake_layout_state_of_const(a), mintid_snowflake_layout_state_of_const(b));
}

size_t mintid_fingerprint_of(const mintid_snowflake_layout_state *l, char out[MINTID_SNOWFLAKE_FINGERPRINT_MAX])
{
    /* At most 2 + 10 + 2 + 2 + 19 + 16 characters and 5 slashes. */
    int n = snprintf(out, MINTID_SNOWFLAKE_FINGERPRINT_MAX, "%u/%" PRIu32 "/%u/%u/%" PRId64 "/%s",
                     (unsigned)l->time_bits, l->unit_ms, (unsigned)l->machine_bits, (unsigned)l->seq_bits,
                     l->epoch, mintid_snowflake_order_name(l->order));
    return n < 0 ? 0 : (size_t)n;
}

size_t mintid_snowflake_layout_fingerprint(const mintid_snowflake_layout *l,
                                           char out[MINTID_SNOWFLAKE_FINGERPRINT_MAX])
{
    return mintid_fingerprint_of(mintid_snowflake_layout_state_of_const(l), out);
}

int64_t mintid_snowflake_unit_start(const mintid_snowflake_layout_state *l, uint64_t t)
{
    /* Saturated: a unit past INT64_MAX is reached by no clock. */
    if (t > ((uint64_t)INT64_MAX - (uint64_t)l->epoch) / l->unit_ms)
        return INT64_MAX;
    return l->epoch + (int64_t)(t * l->unit_ms);
}

int64_t mintid_snowflake_ready_ms(const mintid_snowflake_layout_state *l, int64_t floor_ms)
{
    return mintid_snowflake_unit_start(l, mintid_snowflake_first_unit_after(l, floor_ms));
}

int mintid_snowflake_layout_split(const mintid_snowflake_layout *pub, uint64_t id, int64_t max_timestamp,
                                  int64_t *timestamp, uint64_t *machine_id, uint64_t *sequence, char *err)
{
    const mintid_snowflake_layout_state *l = mintid_snowflake_layout_state_of_const(pub);
    unsigned width = (unsigned)l->time_bits + l->time_shift;
    uint64_t t;

    if (width < 64 && id >> width != 0)
        return mintid_fail(err, MINTID_EPARSE, "snowflake ID %" PRIu64 " sets bits above the layout's %u: not "
                           "of this layout", id, width);
    t = id >> l->time_shift;
    /* E + t * U, compared before it is made: it must not wrap. */
    if (l->epoch > max_timestamp || t > ((uint64_t)(max_timestamp - l->epoch)) / l->unit_ms)
        return mintid_fail(err, MINTID_ERANGE, "snowflake timestamp: unit %" PRIu64 " of %" PRIu32 " ms + epoch %"
                           PRId64 " does not fit (max %" PRId64 ")", t, l->unit_ms, l->epoch, max_timestamp);
    *timestamp = l->epoch + (int64_t)(t * l->unit_ms);
    *machine_id = (id >> l->machine_shift) & mintid_low_mask(l->machine_bits);
    *sequence = (id >> l->seq_shift) & mintid_low_mask(l->seq_bits);
    return MINTID_OK;
}
