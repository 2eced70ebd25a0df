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

/* A lock file and its layout record can be removed, or replaced, while
 * their ids are held (a tmp cleaner, an operator, a deploy that makes the
 * folder anew): a process that then makes the file again sees none of the
 * old file's locks and hands out ids still in use. Two rules keep their
 * IDs apart, on the one wall clock of the host:
 * - a holder checks its files every CHECK_MS of wall time it mints in (it
 *   mints no unit past the last check + CHECK_MS), and stops when either
 *   file is no longer the one its path names;
 * - a new holder mints only after the files' last change (their ctime,
 *   which a new file takes from the kernel's clock at its creation) +
 *   CHECK_MS + CTIME_SLACK_MS: by then every holder of a removed file has
 *   made its check, seen it removed, and stopped.
 * CTIME_SLACK_MS covers the kernel's coarse file times (a tick behind
 * CLOCK_REALTIME at most: 10 ms at HZ=100). */
#define CHECK_MS       100
#define CTIME_SLACK_MS 20

int mintid_lock_file_take(mintid_lock_file *f, uint32_t machine_id, const mintid_snowflake_layout_state *l,
                          int *got, int64_t *floor_ms, char *err)
{
    int64_t now = 0, start, ready, changed = 0;
    int rc = mintid_os_lock_file_try(f, machine_id, got, err);

    if (rc != MINTID_OK || !*got)
        return rc;
    rc = mintid_os_clock_ms(floor_ms, err);
    if (rc == MINTID_OK)
        rc = mintid_os_lock_file_changed_ms(f, &changed, err);
    if (rc != MINTID_OK) {
        (void)mintid_os_lock_file_unlock(f, machine_id, NULL);
        *got = 0;
        return rc;
    }
    if (changed > 0 && changed + CHECK_MS + CTIME_SLACK_MS > *floor_ms)
        *floor_ms = changed + CHECK_MS + CTIME_SLACK_MS;
    /* The next unit is at most one unit away (a ms for most layouts; after
     * a new file, CHECK_MS more): acquire returns once minting is safe. */
    ready = mintid_snowflake_ready_ms(l, *floor_ms);
    start = mintid_os_monotonic_ms();
    while (mintid_os_clock_ms(&now, NULL) == MINTID_OK && now < ready &&
           mintid_os_monotonic_ms() - start < FLOOR_WAIT_MS)
        mintid_os_pause();
    return MINTID_OK;
}

int mintid_lock_file_check(mintid_lock_file *f, int64_t *last_ms, char *err)
{
    int64_t now = 0;
    char why[MINTID_ERRMSG_SIZE];
    /* The clock is read first: the files were still this holder's at a
     * time at or after it, so a file made anew after the check is made
     * after now, and its new holder mints past now + CHECK_MS. */
    int rc = mintid_os_clock_ms(&now, err);

    if (rc != MINTID_OK)
        return rc;
    why[0] = '\0';
    rc = mintid_os_lock_file_check(f, why);
    if (rc != MINTID_OK)
        return mintid_fail(err, rc, "snowflake: lease lost: lock file %s %s",
                           mintid_os_lock_file_path(f), why);
    *last_ms = now + CHECK_MS;
    return MINTID_OK;
}
