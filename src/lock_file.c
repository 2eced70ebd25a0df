/*
 * lock_file.c: the lock-file lease's rule on top of the platform's byte
 * locks (internal.h "Lock files"): machine id i is byte i of the file, and
 * its new holder mints only ms above the wall clock read once the lock is
 * taken. The previous holder's locks ended with it, so every ID it made
 * has a ms at or below that reading (one host, one wall clock; a clock
 * stepped back across the change of holder is not covered).
 */
#include "internal.h"

/* A wall clock that does not pass the floor within this much monotonic
 * time is left to the generator, which refuses until it does. */
#define FLOOR_WAIT_MS 1000

int mintid_lock_file_take(mintid_lock_file *f, uint32_t machine_id, const mintid_snowflake_layout_state *l,
                          int *got, int64_t *floor_ms, char *err)
{
    int64_t now = 0, start, ready;
    int rc = mintid_os_lock_file_try(f, machine_id, got, err);

    if (rc != MINTID_OK || !*got)
        return rc;
    rc = mintid_os_clock_ms(floor_ms, err);
    if (rc != MINTID_OK) {
        (void)mintid_os_lock_file_unlock(f, machine_id, NULL);
        *got = 0;
        return rc;
    }
    /* The next unit is at most one unit away (a ms for most layouts):
     * acquire returns once minting is safe. */
    ready = mintid_snowflake_ready_ms(l, *floor_ms);
    start = mintid_os_monotonic_ms();
    while (mintid_os_clock_ms(&now, NULL) == MINTID_OK && now < ready &&
           mintid_os_monotonic_ms() - start < FLOOR_WAIT_MS)
        mintid_os_pause();
    return MINTID_OK;
}
