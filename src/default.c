/* default.c: the process-wide generators behind mintid.ulid() and friends,
 * shared by every thread and Lua state of the process. */
#define _POSIX_C_SOURCE 200809L /* pthread, getpid */

#include <pthread.h>
#include <sys/types.h>
#include <unistd.h>

#include "internal.h"

/* One lock covers both generators: the clock read and the step happen
 * under it, so IDs strictly increase across all threads (not only within
 * one). Lock order is always default_lock, then random.c's pool lock. */
static pthread_mutex_t default_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static mintid_ulid_gen ulid_gen;
static mintid_uuid7_gen uuid7_gen;
/* Fallback if pthread_atfork failed: notice a fork by the pid instead.
 * Both are written under default_once (or the lock) and read under the lock. */
static int fork_handlers;
static pid_t owner_pid;

static void reset_generators(void)
{
    mintid_ulid_gen_init(&ulid_gen);
    mintid_uuid7_gen_init(&uuid7_gen);
}

static void default_prepare(void)
{
    pthread_mutex_lock(&default_lock);
}

static void default_parent(void)
{
    pthread_mutex_unlock(&default_lock);
}

/* A child that continued the parent's (last_ms, counter) would make the
 * same IDs as the parent in the same ms; it starts over with a fresh draw. */
static void default_child(void)
{
    reset_generators();
    pthread_mutex_unlock(&default_lock); /* held by this thread since prepare */
}

static void default_setup(void)
{
    reset_generators();
    owner_pid = getpid();
    /* random.c registers first, so its prepare handler runs after ours
     * (POSIX runs prepare handlers in reverse order of registration): the
     * forking thread takes the locks in the same order as every caller. */
    mintid_random_fork_init();
    fork_handlers = pthread_atfork(default_prepare, default_parent, default_child) == 0;
}

static void lock_generators(void)
{
    pthread_once(&default_once, default_setup);
    pthread_mutex_lock(&default_lock);
    if (!fork_handlers && getpid() != owner_pid) {
        reset_generators();
        owner_pid = getpid();
    }
}

/* One step of a default generator at now_ms. */
typedef int (*step_fn)(int64_t now_ms, uint8_t out[16], char *err);

static int step_ulid(int64_t now_ms, uint8_t out[16], char *err)
{
    return mintid_ulid_gen_next(&ulid_gen, now_ms, mintid_random_pool, err, out, err);
}

static int step_uuid7(int64_t now_ms, uint8_t out[16], char *err)
{
    return mintid_uuid7_gen_next(&uuid7_gen, now_ms, mintid_random_pool, err, out, err);
}

/* Clock read and step both under default_lock (see there). */
static int default_next(step_fn step, uint8_t out[16], char *err)
{
    int64_t now;
    int rc;

    lock_generators();
    rc = mintid_clock_ms(&now, err);
    if (rc == MINTID_OK)
        rc = step(now, out, err);
    pthread_mutex_unlock(&default_lock);
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
