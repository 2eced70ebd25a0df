/* random.c: the pool, a ChaCha20 generator per thread keyed from the OS
 * (mintid_os_random) that spares the hot path a system call per ID and a
 * lock, and the one way generators draw from a source. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- the pool: a user-space ChaCha20 generator per thread ----------------
 *
 * Built the way OpenBSD's arc4random and the Linux kernel's crng are: a
 * ChaCha20 key drawn from the OS source; each refill computes a batch of
 * keystream blocks, whose first 32 bytes at once become the next key (the
 * old one is overwritten: "fast key erasure", so a later snapshot of this
 * memory cannot give back bytes already handed out) and whose rest is the
 * output. Each byte is wiped as it is handed out (copied out and wiped
 * here, or lent in place to a caller that reads it once and wipes it
 * before anything else can draw). A fresh key comes from
 * the OS after MINTID_RANDOM_RESEED_BYTES of output, and in a forked child
 * before its first byte. The nonce stays zero and the block counter starts
 * at 0 in every batch: no key ever encrypts twice.
 *
 * Each OS thread has a generator of its own (the platform layer's thread
 * slot), so a draw takes no lock and no two cores share its memory. It is
 * made, and keyed from the OS, on the thread's first draw, and wiped and
 * freed when the thread exits. Every thread's generator is on one list,
 * whose lock is taken only to add or remove one and across fork(): the
 * forked child wipes them all at once (the parent's other threads are not
 * there to use theirs; the forking thread keys its own afresh), and a
 * generator whose fork generation is not the process's (a child made
 * without the handlers) is wiped before its next byte. */

#define KEY_SIZE 32
#define BATCH_BLOCKS MINTID_RANDOM_BATCH_BLOCKS
#define BATCH_SIZE (64 * BATCH_BLOCKS)
#define BATCH_OUTPUT (BATCH_SIZE - KEY_SIZE)

typedef struct thread_pool {
    size_t next;                /* first unused byte; BATCH_SIZE = empty */
    size_t since_key;           /* output bytes made with keys since the OS one */
    uint32_t generation;        /* the process (fork generation) key and bytes belong to */
    int keyed;                  /* key came from the OS in that process */
    struct thread_pool *prev, *after; /* the list, under pools_lock */
    uint8_t key[KEY_SIZE];
    uint8_t bytes[BATCH_SIZE];
    /* Two threads' generators may be neighbours in the heap: a cache line
     * of nothing after the bytes keeps them off each other's lines. */
    unsigned char apart[64];
} thread_pool;

static mintid_once pool_once = MINTID_ONCE_INIT;
/* Set (release) once pool_register has run, so the hot path tests one flag
 * instead of calling pthread_once. */
static int pool_registered;
/* Written once under pool_once, read after it: no race. Without a way to
 * see a fork a child could repeat its parent's bytes, and without a thread
 * slot no generator is a thread's own: then no pool, the OS for each draw. */
static int pool_usable;
static mintid_lock pools_lock = MINTID_LOCK_INIT;
static thread_pool *pools;      /* every thread's generator, under pools_lock */
static size_t pools_count;      /* under pools_lock */
static uint32_t pool_reseeds;   /* OS keys taken, all threads (atomic): for the tests */

static void pool_forget(thread_pool *p)
{
    mintid_secure_zero(p->key, sizeof p->key);
    mintid_secure_zero(p->bytes, sizeof p->bytes);
    p->keyed = 0;
    p->next = BATCH_SIZE;
}

static void pools_prepare(void)
{
    mintid_lock_take(&pools_lock);
}

static void pools_parent(void)
{
    mintid_lock_release(&pools_lock);
}

/* The only thread of the child: no generator is in use. */
static void pools_child(void)
{
    thread_pool *p;

    for (p = pools; p != NULL; p = p->after)
        pool_forget(p);
    mintid_lock_release(&pools_lock);
}

/* A thread with a generator exits (the thread slot's destructor). */
static void pool_thread_exit(void *arg)
{
    thread_pool *p = arg;

    mintid_lock_take(&pools_lock);
    if (p->prev != NULL)
        p->prev->after = p->after;
    else
        pools = p->after;
    if (p->after != NULL)
        p->after->prev = p->prev;
    pools_count--;
    mintid_lock_release(&pools_lock);
    mintid_secure_zero(p, sizeof *p);
    free(p);
}

static void pool_register(void)
{
    /* The OS layer's fork watch first: its child handler then runs before
     * ours, and the generation is read below. */
    pool_usable = mintid_os_fork_watched() &&
                  mintid_os_atfork(pools_prepare, pools_parent, pools_child) == 0 &&
                  mintid_os_thread_slot_init(pool_thread_exit) == 0;
    MINTID_STORE_RELEASE(&pool_registered, 1);
}

void mintid_random_fork_init(void)
{
    if (!MINTID_LOAD_ACQUIRE(&pool_registered))
        mintid_run_once(&pool_once, pool_register);
}

/* The calling thread's generator, made on its first draw; NULL if memory
 * or the slot failed (the caller then asks the OS). */
static thread_pool *my_pool(void)
{
    thread_pool *p = mintid_os_thread_slot();

    if (p != NULL)
        return p;
    p = malloc(sizeof *p);
    if (p == NULL)
        return NULL;
    memset(p, 0, sizeof *p);
    p->next = BATCH_SIZE;
    p->generation = mintid_os_fork_generation();
    if (mintid_os_thread_slot_set(p) != 0) {
        free(p);
        return NULL;
    }
    mintid_lock_take(&pools_lock);
    p->after = pools;
    if (pools != NULL)
        pools->prev = p;
    pools = p;
    pools_count++;
    mintid_lock_release(&pools_lock);
    return p;
}

/* A new batch: a new key from the OS first when there is none in this
 * process or this one's output reached the bound. On failure p is as it
 * was (empty). */
static int pool_refill(thread_pool *p, char *err)
{
    static const uint8_t zero_nonce[12];
    int rc;

    if (!p->keyed || p->since_key + BATCH_OUTPUT > MINTID_RANDOM_RESEED_BYTES) {
        /* Straight into the key: a failed read leaves keyed 0, so a partly
         * written key is never used. */
        p->keyed = 0;
        rc = mintid_os_random(p->key, KEY_SIZE, err);
        if (rc != MINTID_OK) {
            mintid_secure_zero(p->key, sizeof p->key);
            return rc;
        }
        p->keyed = 1;
        p->since_key = 0;
        MINTID_ADD_RELAXED(&pool_reseeds, 1);
    }
    mintid_chacha20_blocks(p->key, 0, zero_nonce, p->bytes, BATCH_BLOCKS);
    memcpy(p->key, p->bytes, KEY_SIZE);
    mintid_secure_zero(p->bytes, KEY_SIZE);
    p->next = KEY_SIZE;
    p->since_key += BATCH_OUTPUT;
    return MINTID_OK;
}

/* piece bytes (a constant: a plain move and store) from `from` to buf,
 * then wiped there. */
#define MOVE_PIECE(buf, from, piece)       \
    do {                                   \
        memcpy((buf), (from), (piece));    \
        memset((from), 0, (piece));        \
        (buf) += (piece), (from) += (piece); \
    } while (0)

/* n bytes of the batch (n <= what is left) to buf, each wiped in the
 * batch: never handed out twice, nor kept after the caller is done with
 * it (Nano IDs and UUIDv4s may be used as secrets). A draw is 7 to 32
 * bytes mostly, for which calls of memcpy and memset cost more than the
 * copy. The pieces never overlap (16 bytes, then 8, 4, 2, 1 by the bits of
 * what is left): a caller's word read across two overlapping stores would
 * wait for both to reach the cache instead of taking its bytes from one. */
static inline void hand_out(thread_pool *p, uint8_t *buf, size_t n)
{
    uint8_t *from = p->bytes + p->next;

    p->next += n;
    for (; n >= 16; n -= 16)
        MOVE_PIECE(buf, from, 16);
    if (n & 8)
        MOVE_PIECE(buf, from, 8);
    if (n & 4)
        MOVE_PIECE(buf, from, 4);
    if (n & 2)
        MOVE_PIECE(buf, from, 2);
    if (n & 1)
        MOVE_PIECE(buf, from, 1);
}

uint64_t mintid_random_reseeds(void)
{
    return MINTID_LOAD_ACQUIRE(&pool_reseeds);
}

size_t mintid_random_threads(void)
{
    size_t n;

    mintid_lock_take(&pools_lock);
    n = pools_count;
    mintid_lock_release(&pools_lock);
    return n;
}

const uint8_t *mintid_random_batch(size_t *size)
{
    const thread_pool *p = pool_usable ? (const thread_pool *)mintid_os_thread_slot() : NULL;

    *size = BATCH_SIZE;
    return p != NULL ? p->bytes : NULL;
}

/* A draw the batch does not hold: refills as it goes. */
static MINTID_NOINLINE int draw_across_batches(thread_pool *p, uint8_t *buf, size_t n, char *err)
{
    while (n > 0) {
        size_t take;

        if (p->next == BATCH_SIZE) {
            int rc = pool_refill(p, err);

            if (rc != MINTID_OK)
                return rc;
        }
        take = BATCH_SIZE - p->next;
        if (take > n)
            take = n;
        hand_out(p, buf, take);
        buf += take;
        n -= take;
    }
    return MINTID_OK;
}

/* Every draw the fast path below does not take: the first of a thread or
 * of a process, one the batch does not hold, one without a pool. */
static MINTID_NOINLINE int random_bytes_slow(uint8_t *buf, size_t n, char *err)
{
    thread_pool *p;
    uint32_t generation;

    mintid_random_fork_init();
    if (n > BATCH_OUTPUT || !pool_usable || (p = my_pool()) == NULL)
        return mintid_os_random(buf, n, err);
    generation = mintid_os_fork_generation();
    if (p->generation != generation) {
        /* Made before a fork: both processes would hand out its stream. */
        pool_forget(p);
        p->generation = generation;
    }
    if (n <= BATCH_SIZE - p->next) {
        hand_out(p, buf, n);
        return MINTID_OK;
    }
    return draw_across_batches(p, buf, n, err);
}

/* The thread's generator in the common case, with nothing to set up or
 * refill: it exists, belongs to this process and its batch holds n more
 * bytes; else NULL. Each test is one random_bytes_slow makes too, so both
 * hand out the same bytes. */
static inline thread_pool *ready_pool(size_t n)
{
    thread_pool *p;

    if (MINTID_LOAD_ACQUIRE(&pool_registered) && pool_usable && n <= BATCH_OUTPUT &&
        (p = mintid_os_thread_slot()) != NULL && p->generation == mintid_os_fork_generation() &&
        n <= BATCH_SIZE - p->next)
        return p;
    return NULL;
}

int mintid_random_bytes(uint8_t *buf, size_t n, char *err)
{
    thread_pool *p = ready_pool(n);

    if (p == NULL)
        return random_bytes_slow(buf, n, err);
    hand_out(p, buf, n);
    return MINTID_OK;
}

uint8_t *mintid_random_lend(size_t n)
{
    thread_pool *p = ready_pool(n);
    uint8_t *lent;

    if (p == NULL)
        return NULL;
    lent = p->bytes + p->next;
    p->next += n;
    return lent;
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
    /* The pool called directly, not through the pointer: most draws. */
    rc = rnd == mintid_random_pool ? mintid_random_bytes(buf, n, (char *)ctx) : rnd(ctx, buf, n);
    if (rc == MINTID_OK)
        return MINTID_OK;
    if (rc > 0)
        rc = MINTID_ERANDOM; /* callers rely on errors being negative */
    if (err == NULL || err[0] == '\0')
        return mintid_fail(err, rc, "%s random source failed", kind);
    return rc;
}
