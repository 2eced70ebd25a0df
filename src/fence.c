/*
 * fence.c: the lease fence of a Snowflake generator (doc/leases.md).
 *
 * A machine id is unique only while its holder has it: a lease (a lock
 * file, a Redis key) hands one out, and the fence is what the generator
 * checks on every ID. It holds the id, a deadline on the monotonic clock
 * (counted by the lease from when its right began, so a paused or cut-off
 * process stops at the deadline whatever the store says later), a floor
 * (the last Unix ms the id's previous holder may have used: only later ms
 * are minted) and the process it was held in (a forked child never mints
 * with its parent's id). The generator refuses outside it; it never picks
 * another id by itself.
 */
#include <inttypes.h>

#include "internal.h"

/* The stored states; WAITING, EXPIRED and FORKED are read from the clocks
 * and the process at each look. */
MINTID_STATIC_ASSERT(MINTID_FENCE_UNHELD == 0, unheld_is_zero); /* a zeroed fence is unheld */

static const char *const state_names[] = {
    "unheld", "held", "waiting", "expired", "released", "lost", "forked"
};

const char *mintid_fence_state_name(int state)
{
    if (state < 0 || state >= (int)(sizeof state_names / sizeof state_names[0]))
        return "unknown";
    return state_names[state];
}

int64_t mintid_fence_clock_ms(void)
{
    return mintid_os_deadline_ms();
}

/* The last ms and its first refused unit, in the fence's layout. */
static void set_last(mintid_fence_state *f, int64_t last_ms)
{
    f->last_ms = last_ms;
    f->last_unit = last_ms == MINTID_FENCE_FOREVER ? UINT64_MAX
                                                   : mintid_snowflake_first_unit_after(&f->layout, last_ms);
    f->last_start = f->last_unit == UINT64_MAX ? INT64_MAX : mintid_snowflake_unit_start(&f->layout, f->last_unit);
}

void mintid_fence_init(mintid_fence *pub)
{
    mintid_fence_state *f = mintid_fence_state_of(pub);

    f->word = MINTID_SNOWFLAKE_UNSTARTED;
    f->deadline_ms = 0;
    f->floor_ms = 0;
    f->machine_id = 0;
    /* Made here: in a forked child it reads FORKED, whatever its state,
     * until the child holds it itself (a lease object made before fork()
     * carries its parent's token: the child must not use it). */
    f->generation = mintid_os_fork_generation();
    f->held = MINTID_FENCE_UNHELD;
    mintid_snowflake_layout_default_state(&f->layout);
    set_last(f, MINTID_FENCE_FOREVER);
    f->guard = NULL;
    f->guard_ctx = NULL;
    f->bound = 0;
}

int mintid_fence_bind_layout(mintid_fence *pub, const mintid_snowflake_layout *layout, char *err)
{
    mintid_fence_state *f = mintid_fence_state_of(pub);
    const mintid_snowflake_layout_state *l = mintid_snowflake_layout_state_of_const(layout);
    char mine[MINTID_SNOWFLAKE_FINGERPRINT_MAX], other[MINTID_SNOWFLAKE_FINGERPRINT_MAX];

    if (!f->bound) {
        /* A machine id held before the bind must fit the layout. */
        if (f->held != MINTID_FENCE_UNHELD && mintid_snowflake_check_machine(l, (int64_t)f->machine_id, err) != MINTID_OK)
            return MINTID_EARG;
        f->layout = *l;
        set_last(f, f->last_ms); /* its unit in the layout now bound */
        f->bound = 1;
        return MINTID_OK;
    }
    if (mintid_snowflake_layout_state_equal(&f->layout, l))
        return MINTID_OK;
    mintid_fingerprint_of(&f->layout, mine);
    mintid_fingerprint_of(l, other);
    return mintid_fail(err, MINTID_EARG, "snowflake: lease layout %s, not %s", mine, other);
}

void mintid_fence_layout(const mintid_fence *pub, mintid_snowflake_layout *l)
{
    *mintid_snowflake_layout_state_of(l) = mintid_fence_state_of_const(pub)->layout;
}

int mintid_fence_hold(mintid_fence *pub, int64_t machine_id, int64_t valid_for_ms, int64_t floor_ms,
                      char *err)
{
    return mintid_fence_hold_until(pub, machine_id, valid_for_ms, floor_ms, MINTID_FENCE_FOREVER, err);
}

int mintid_fence_hold_until(mintid_fence *pub, int64_t machine_id, int64_t valid_for_ms, int64_t floor_ms,
                            int64_t last_ms, char *err)
{
    mintid_fence_state *f = mintid_fence_state_of(pub);
    int64_t now;

    if (mintid_snowflake_check_machine(&f->layout, machine_id, err) != MINTID_OK)
        return MINTID_EARG;
    if (valid_for_ms < 0)
        return mintid_fail(err, MINTID_EARG, "valid_for must be >= 0, got %" PRId64 " ms", valid_for_ms);
    if (floor_ms < 0)
        return mintid_fail(err, MINTID_EARG, "floor_ms must be >= 0, got %" PRId64, floor_ms);
    if (last_ms < 0)
        return mintid_fail(err, MINTID_EARG, "last_ms must be >= 0, got %" PRId64, last_ms);
    now = mintid_os_deadline_ms();
    /* Saturated: a validity past the clock's range is no deadline. The
     * clock lags by less than its slack, so a reading below deadline_ms is
     * a time below now + valid_for_ms. */
    f->deadline_ms = valid_for_ms >= INT64_MAX - now ? MINTID_FENCE_FOREVER
                                                      : now + valid_for_ms - mintid_os_deadline_slack_ms();
    f->floor_ms = floor_ms;
    set_last(f, last_ms);
    f->machine_id = (uint64_t)machine_id;
    f->generation = mintid_os_fork_generation();
    f->held = MINTID_FENCE_HELD;
    f->guard = NULL; /* a guard is its holder's: set again after each hold */
    f->guard_ctx = NULL;
    return MINTID_OK;
}

int mintid_fence_guard(mintid_fence *pub, mintid_fence_guard_fn guard, void *ctx, char *err)
{
    mintid_fence_state *f = mintid_fence_state_of(pub);
    int64_t last_ms = 0;
    int rc = guard(ctx, &last_ms, err);

    if (rc != MINTID_OK)
        return rc;
    f->guard = guard;
    f->guard_ctx = ctx;
    set_last(f, last_ms);
    return MINTID_OK;
}

int mintid_fence_recheck(mintid_fence_state *f, int64_t now_ms, char *err)
{
    int64_t last_ms = 0;
    int rc;

    if (f->guard == NULL || now_ms < f->last_start || mintid_fence_state_at(f, NULL, NULL) != MINTID_FENCE_HELD)
        return MINTID_OK;
    rc = f->guard(f->guard_ctx, &last_ms, err);
    if (rc != MINTID_OK) {
        f->held = MINTID_FENCE_LOST;
        f->guard = NULL;
        f->guard_ctx = NULL;
        return rc;
    }
    set_last(f, last_ms);
    return MINTID_OK;
}

int mintid_fence_drop(mintid_fence *pub, int reason, char *err)
{
    mintid_fence_state *f = mintid_fence_state_of(pub);

    if (reason != MINTID_FENCE_RELEASED && reason != MINTID_FENCE_LOST)
        return mintid_fail(err, MINTID_EARG, "a fence is dropped as released (%d) or lost (%d), got %d",
                           MINTID_FENCE_RELEASED, MINTID_FENCE_LOST, reason);
    f->held = reason;
    f->guard = NULL;
    f->guard_ctx = NULL;
    return MINTID_OK;
}

int mintid_fence_state_now(mintid_fence *pub, int64_t *ms_left)
{
    mintid_fence_state *f = mintid_fence_state_of(pub);
    int64_t wall = 0;
    char err[MINTID_ERRMSG_SIZE];

    /* An unreadable wall clock cannot show the floor or the last ms passed. */
    if (mintid_os_clock_ms(&wall, err) != MINTID_OK)
        wall = INT64_MIN;
    /* A guarded fence past its last ms is held if its guard says so. */
    (void)mintid_fence_recheck(f, wall, err);
    return mintid_fence_state_at(f, &wall, ms_left);
}

int64_t mintid_fence_machine_id(mintid_fence *pub)
{
    int s = mintid_fence_state_now(pub, NULL);

    /* Waiting for the floor, the id is held all the same. */
    return s == MINTID_FENCE_HELD || s == MINTID_FENCE_WAITING ? (int64_t)mintid_fence_state_of_const(pub)->machine_id
                                                                : -1;
}

int mintid_fence_refuse(int state, char *err)
{
    switch (state) {
    case MINTID_FENCE_EXPIRED:
        return mintid_fail(err, MINTID_ELEASE, "snowflake: lease expired");
    case MINTID_FENCE_RELEASED:
        return mintid_fail(err, MINTID_ELEASE, "snowflake: lease released");
    case MINTID_FENCE_LOST:
        return mintid_fail(err, MINTID_ELEASE, "snowflake: lease lost");
    case MINTID_FENCE_FORKED:
        return mintid_fail(err, MINTID_ELEASE, "snowflake: lease belongs to the parent process (forked)");
    default:
        return mintid_fail(err, MINTID_ELEASE, "snowflake: lease not held yet");
    }
}

int mintid_fence_refuse_floor(int64_t floor_ms, char *err)
{
    return mintid_fail(err, MINTID_ELEASE, "snowflake: waiting for the previous holder's last ms (until ms %"
                       PRId64 ")", floor_ms);
}

int mintid_fence_refuse_last(int64_t last_ms, char *err)
{
    return mintid_fail(err, MINTID_ELEASE, "snowflake: lease expired: the clock passed its last ms (%" PRId64 ")",
                       last_ms);
}
