/* random.c: the process-wide pool, a ChaCha20 generator keyed from the
 * OS (mintid_os_random) that spares the hot path a system call per ID, and
 * the one way generators draw from a source. */
#include <string.h>

#include "internal.h"

/* ---- the pool: a user-space ChaCha20 generator -------------------------
 *
 * Built the way OpenBSD's arc4random and the Linux kernel's crng are: a
 * ChaCha20 key drawn from the OS source; each refill computes a batch of
 * keystream blocks, whose first 32 bytes at once become the next key (the
 * old one is overwritten: "fast key erasure", so a later snapshot of this
 * memory cannot give back bytes already handed out) and whose rest is the
 * output. Each byte is wiped as it is handed out. A fresh key comes from
 * the OS after MINTID_RANDOM_RESEED_BYTES of output, and in a forked child
 * before its first byte (pool_check_process_locked). The nonce stays zero and the
 * block counter starts at 0 in every batch: no key ever encrypts twice. */

#define KEY_SIZE 32
#define BATCH_BLOCKS 16
#define BATCH_SIZE (64 * BATCH_BLOCKS)
#define BATCH_OUTPUT (BATCH_SIZE - KEY_SIZE)

static mintid_lock pool_lock = MINTID_LOCK_INIT;
static mintid_once pool_once = MINTID_ONCE_INIT;
/* Set (release) once pool_register has run, so the hot path tests one flag
 * instead of calling pthread_once. */
static int pool_registered;
/* The generator, all under pool_lock. */
static uint8_t pool_key[KEY_SIZE];
static int pool_keyed;                 /* pool_key came from the OS in this process */
static size_t pool_since_key;          /* output bytes made with keys since the OS one */
static uint64_t pool_reseeds;          /* OS keys taken: for the tests */
static uint8_t pool[BATCH_SIZE];
static size_t pool_next = BATCH_SIZE;  /* first unused byte; BATCH_SIZE = empty */
static uint32_t pool_generation;       /* the process (fork generation) key and bytes belong to */
/* Written once under pool_once, read after it: no race. Without a way to
 * see a fork a child could repeat its parent's bytes, so then no pool. */
static int pool_fork_safe;

/* The pool's lock is held across fork() so that the child never inherits it
 * taken by a thread that is not there; the child's pool is dropped by its
 * first draw (pool_check_process_locked). */
static void pool_prepare(void)
{
    mintid_lock_take(&pool_lock);
}

static void pool_unlock(void)
{
    mintid_lock_release(&pool_lock);
}

static void pool_register(void)
{
    /* The OS layer's fork watch first: its child handler then runs before
     * ours, and the generation is read below. */
    pool_fork_safe = mintid_os_fork_watched() && mintid_os_atfork(pool_prepare, pool_unlock, pool_unlock) == 0;
    pool_generation = mintid_os_fork_generation();
    MINTID_STORE_RELEASE(&pool_registered, 1);
}

void mintid_random_fork_init(void)
{
    if (!MINTID_LOAD_ACQUIRE(&pool_registered))
        mintid_run_once(&pool_once, pool_register);
}

/* In a process forked from the one the key and bytes belong to, drop them
 * (both processes would hand out the same stream, hence the same IDs): the
 * next draw takes a new key from the OS. pool_lock is held. */
static void pool_check_process_locked(void)
{
    uint32_t generation = mintid_os_fork_generation();

    if (generation == pool_generation)
        return;
    mintid_secure_zero(pool_key, sizeof pool_key);
    mintid_secure_zero(pool, sizeof pool);
    pool_keyed = 0;
    pool_next = BATCH_SIZE;
    pool_generation = generation;
}

/* A new batch: a new key from the OS first when there is none in this
 * process or this one's output reached the bound. On failure the pool is
 * as it was (empty). pool_lock is held. */
static int pool_refill_locked(char *err)
{
    static const uint8_t zero_nonce[12];
    int rc;

    if (!pool_keyed || pool_since_key + BATCH_OUTPUT > MINTID_RANDOM_RESEED_BYTES) {
        /* Straight into the key: a failed read leaves pool_keyed 0, so a
         * partly written key is never used. */
        pool_keyed = 0;
        rc = mintid_os_random(pool_key, KEY_SIZE, err);
        if (rc != MINTID_OK) {
            mintid_secure_zero(pool_key, sizeof pool_key);
            return rc;
        }
        pool_keyed = 1;
        pool_since_key = 0;
        pool_reseeds++;
    }
    mintid_chacha20_blocks(pool_key, 0, zero_nonce, pool, BATCH_BLOCKS);
    memcpy(pool_key, pool, KEY_SIZE);
    mintid_secure_zero(pool, KEY_SIZE);
    pool_next = KEY_SIZE;
    pool_since_key += BATCH_OUTPUT;
    return MINTID_OK;
}

uint64_t mintid_random_reseeds(void)
{
    uint64_t n;

    mintid_lock_take(&pool_lock);
    n = pool_reseeds;
    mintid_lock_release(&pool_lock);
    return n;
}

int mintid_random_bytes(uint8_t *buf, size_t n, char *err)
{
    int rc = MINTID_OK;

    mintid_random_fork_init();
    if (n > BATCH_OUTPUT || !pool_fork_safe)
        return mintid_os_random(buf, n, err);
    mintid_lock_take(&pool_lock);
    pool_check_process_locked();
    while (n > 0) {
        size_t take;

        if (pool_next == BATCH_SIZE) {
            rc = pool_refill_locked(err);
            if (rc != MINTID_OK)
                break;
        }
        take = BATCH_SIZE - pool_next;
        if (take > n)
            take = n;
        memcpy(buf, pool + pool_next, take);
        /* Never hand a byte out twice, nor keep a copy of it after the
         * caller is done (Nano IDs and UUIDv4s may be used as secrets). */
        memset(pool + pool_next, 0, take);
        pool_next += take;
        buf += take;
        n -= take;
    }
    mintid_lock_release(&pool_lock);
    return rc;
}

int mintid_random_pool(void *ctx, uint8_t *buf, size_t n)
{
    return mintid_random_bytes(buf, n, (char *)ctx);
}

int mintid_draw_random(mintid_random_fn rnd, void *ctx, uint8_t *buf, size_t n,
                       const char *kind, char *err)
{
    int rc;

    /* A source may write its own, more precise message (mintid_random_pool
     * does when err is its ctx): cleared first, so one that is there after
     * a failure is the source's, and kept. */
    if (err != NULL)
        err[0] = '\0';
    rc = rnd(ctx, buf, n);
    if (rc == MINTID_OK)
        return MINTID_OK;
    if (rc > 0)
        rc = MINTID_ERANDOM; /* callers rely on errors being negative */
    if (err == NULL || err[0] == '\0')
        return mintid_fail(err, rc, "%s random source failed", kind);
    return rc;
}
