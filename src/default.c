/* default.c: the process-wide generators behind mintid.ulid() and friends,
 * shared by every thread and Lua state of the process. */
#include "internal.h"

/* One lock covers both generators: the clock read and the step happen
 * under it, so IDs strictly increase across all threads (not only within
 * one). Lock order is always default_lock, then random.c's pool lock. */
static mintid_lock default_lock = MINTID_LOCK_INIT;
static mintid_once default_once = MINTID_ONCE_INIT;
static int default_ready; /* set (release) by default_setup: no pthread_once per ID */
static mintid_ulid_gen ulid_gen;
static mintid_uuid7_gen uuid7_gen;

/* The lock is held across fork() so that no other thread is half-way
 * through a step then; the child needs no reset of its own, since a
 * generator's state records its process and its next step in a forked
 * child draws afresh (monotonic.c). A child made without the handlers
 * (raw clone) has the same fresh start; only the lock's state is then
 * whatever the parent's other threads left it in, as with any lock. */
static void default_prepare(void)
{
    mintid_lock_take(&default_lock);
}

static void default_unlock(void)
{
    mintid_lock_release(&default_lock);
}

static void default_setup(void)
{
    mintid_ulid_gen_init(&ulid_gen);
    mintid_uuid7_gen_init(&uuid7_gen);
    /* random.c registers first, so its prepare handler runs after ours
     * (mintid_os_atfork): the forking thread takes the locks in the same
     * order as every caller. */
    mintid_random_fork_init();
    mintid_os_atfork(default_prepare, default_unlock, default_unlock);
    MINTID_STORE_RELEASE(&default_ready, 1);
}

static void lock_generators(void)
{
    if (!MINTID_LOAD_ACQUIRE(&default_ready))
        mintid_run_once(&default_once, default_setup);
    mintid_lock_take(&default_lock);
}

/* One step of a default generator at now_ms. */
typedef int (*step_fn)(int64_t now_ms, uint8_t out[16], char *err);

static int step_ulid(int64_t now_ms, uint8_t out[16], char *err)
{
    return mintid_ulid_gen_next(mintid_ulid_state_of(&ulid_gen), now_ms, mintid_random_pool, err, out, err);
}

static int step_uuid7(int64_t now_ms, uint8_t out[16], char *err)
{
    return mintid_uuid7_gen_next(mintid_uuid7_state_of(&uuid7_gen), now_ms, mintid_random_pool, err, out, err);
}

/* Clock read and step both under default_lock (see there). */
static int default_next(step_fn step, uint8_t out[16], char *err)
{
    int64_t now;
    int rc;

    lock_generators();
    rc = mintid_os_clock_ms(&now, err);
    if (rc == MINTID_OK)
        rc = step(now, out, err);
    mintid_lock_release(&default_lock);
    return rc;
}

int mintid_default_ulid(uint8_t out[16], char *err)
{
    return default_next(step_ulid, out, err);
}

int mintid_default_uuid7(uint8_t out[16], char *err)
{
    return default_next(step_uuid7, out, err);
}

/* No state to guard: the pool is thread-safe and fork-safe on its own. */
int mintid_default_uuid4(uint8_t out[16], char *err)
{
    return mintid_uuid4_make(mintid_random_pool, err, out, err);
}
