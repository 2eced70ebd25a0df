/*
 * test_threads.c: the process-wide defaults under many threads, and threads
 * that fork while others mint (doc/design.md "Threads"). Prints TAP; exits 1 on a
 * failure. With the argument "helgrind" it runs only the tests without a
 * fork, shorter, with the core's one-time set-up done before any thread
 * starts (helgrind cannot see that the atomic flags guarding it order the
 * threads; ThreadSanitizer, which can, runs the full test).
 *
 * - IDs strictly increase across all threads, not only within each: an ID
 *   made after another one was returned (to any thread) is greater, also
 *   when the threads' clocks disagree (the core's clock here is this
 *   test's, through the link's --wrap=mintid_os_clock_ms).
 * - While threads mint, another thread forks children that mint too: no ID
 *   twice across the parent's threads and every child; no child continues
 *   the forking thread's random stream (two children forked from one state
 *   draw different bytes, both different from the parent's next ones); a
 *   thread a child starts after the fork draws afresh.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mintid.h"
#include "internal.h"
#include "tap.h"
#include "child.h"

typedef int (*make_fn)(uint8_t out[16], char *err);

/* The clock the core reads here: the OS wall clock, lag_ms behind in the
 * threads that set it. A thread that read an older ms than the one another
 * thread installed must take the increment path. */
static pthread_key_t lag_key;

int __wrap_mintid_os_clock_ms(int64_t *now_ms, char *err);
int __wrap_mintid_os_clock_ms(int64_t *now_ms, char *err)
{
    struct timespec ts;
    const int64_t *lag = pthread_getspecific(lag_key);

    (void)err;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return MINTID_ECLOCK;
    *now_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 - (lag != NULL ? *lag : 0);
    return MINTID_OK;
}

/* ---- strict increase across threads ---------------------------------------
 *
 * Each thread reads the greatest ID any thread has published, then mints,
 * then publishes its ID. Every published ID was returned before the read,
 * so the new ID must be greater than the greatest one read: the defaults
 * are one sequence for the whole process. The mutex is the test's own; the
 * minting happens outside it, so threads do mint at the same time.
 */
#define ORDER_THREADS 8
#define ORDER_PER_THREAD 20000
#define ORDER_PER_THREAD_HELGRIND 2000

static long order_per_thread = ORDER_PER_THREAD;

static pthread_mutex_t published_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t published[16];

typedef struct {
    make_fn make;
    int64_t lag_ms; /* this thread's clock: lag_ms behind the OS one */
    long errors, out_of_order;
} order_job;

static void *run_order(void *arg)
{
    order_job *job = arg;
    uint8_t before[16], id[16];
    long i;

    pthread_setspecific(lag_key, &job->lag_ms);
    for (i = 0; i < order_per_thread; i++) {
        pthread_mutex_lock(&published_lock);
        memcpy(before, published, 16);
        pthread_mutex_unlock(&published_lock);
        if (job->make(id, NULL) != MINTID_OK) {
            job->errors++;
            continue;
        }
        if (memcmp(id, before, 16) <= 0)
            job->out_of_order++;
        pthread_mutex_lock(&published_lock);
        if (memcmp(id, published, 16) > 0)
            memcpy(published, id, 16);
        pthread_mutex_unlock(&published_lock);
    }
    return NULL;
}

static void check_order(const char *kind, make_fn make)
{
    pthread_t threads[ORDER_THREADS];
    order_job jobs[ORDER_THREADS];
    long errors = 0, out_of_order = 0;
    int i, started = 1;

    memset(published, 0, sizeof published);
    for (i = 0; i < ORDER_THREADS; i++) {
        jobs[i].make = make;
        jobs[i].lag_ms = i % 4; /* 0 to 3 ms behind */
        jobs[i].errors = jobs[i].out_of_order = 0;
        started &= pthread_create(&threads[i], NULL, run_order, &jobs[i]) == 0;
    }
    for (i = 0; i < ORDER_THREADS; i++) {
        pthread_join(threads[i], NULL);
        errors += jobs[i].errors;
        out_of_order += jobs[i].out_of_order;
    }
    check(started && errors == 0, "%s from %d threads: no errors", kind, ORDER_THREADS);
    check(out_of_order == 0, "%s from %d threads whose clocks lag 0-3 ms: every ID is greater than "
          "every ID returned to any thread before it was asked for (%ld were not)",
          kind, ORDER_THREADS, out_of_order);
}

/* ---- threads that fork while others mint ---------------------------------- */

#define MINTERS 3
#define MINTER_CAP 30000   /* the last IDs of each kind each minting thread keeps */
#define FORK_ROUNDS 4      /* each round forks two children */
#define CHILD_IDS 1000     /* IDs of each kind per child */
#define SAMPLE 16          /* pool bytes compared across processes */
#define KINDS 5

/* 12-byte IDs in a 16-byte slot, the rest zero. */
static int objectid16(uint8_t out[16], char *err)
{
    memset(out + 12, 0, 4);
    return mintid_default_objectid(out, err);
}

static int xid16(uint8_t out[16], char *err)
{
    memset(out + 12, 0, 4);
    return mintid_default_xid(out, err);
}

static const make_fn kinds[KINDS] = { mintid_default_ulid, mintid_default_uuid7, mintid_default_uuid4, objectid16,
                                      xid16 };
static const char *const kind_names[KINDS] = { "ULID", "UUIDv7", "UUIDv4", "ObjectId", "XID" };

typedef struct {
    uint8_t (*ids)[MINTER_CAP][16]; /* [KINDS], a ring: the last MINTER_CAP */
    size_t made;                    /* atomic: the forking thread reads it */
    long errors;
} minter;

static minter minters[MINTERS];
static int stop_minting;

/* Mints until told to stop, keeping the last MINTER_CAP IDs of each kind
 * (those made while the forks happen). */
static void *run_minter(void *arg)
{
    minter *m = arg;
    size_t made = 0;
    int k;

    while (!__atomic_load_n(&stop_minting, __ATOMIC_ACQUIRE)) {
        for (k = 0; k < KINDS; k++)
            if (kinds[k](m->ids[k][made % MINTER_CAP], NULL) != MINTID_OK)
                m->errors++;
        __atomic_store_n(&m->made, ++made, __ATOMIC_RELEASE);
    }
    return NULL;
}

static size_t minted_so_far(void)
{
    size_t n = 0;
    int i;

    for (i = 0; i < MINTERS; i++)
        n += __atomic_load_n(&minters[i].made, __ATOMIC_ACQUIRE);
    return n;
}

static size_t kept(const minter *m)
{
    return m->made < MINTER_CAP ? m->made : MINTER_CAP;
}

/* What a child (or, after the fork, the forking thread) sends back. */
typedef struct {
    uint8_t first[SAMPLE];          /* its first pool bytes after the fork */
    uint8_t new_thread[SAMPLE];     /* the first pool bytes of a thread it started */
    uint8_t ids[KINDS][CHILD_IDS][16];
    uint8_t thread_ids[KINDS][16];  /* one ID of each kind from that thread */
    int ok;
} child_report;

static void *fresh_thread(void *arg)
{
    child_report *r = arg;
    int k;

    r->ok &= mintid_random_bytes(r->new_thread, SAMPLE, NULL) == MINTID_OK;
    for (k = 0; k < KINDS; k++)
        r->ok &= kinds[k](r->thread_ids[k], NULL) == MINTID_OK;
    return NULL;
}

/* In a child: the pool bytes first, then IDs, then a thread of its own. */
static void child_work(void *out)
{
    child_report *r = out;
    pthread_t t;
    int k, i;

    r->ok = mintid_random_bytes(r->first, SAMPLE, NULL) == MINTID_OK;
    for (i = 0; i < CHILD_IDS; i++)
        for (k = 0; k < KINDS; k++)
            r->ok &= kinds[k](r->ids[k][i], NULL) == MINTID_OK;
    if (pthread_create(&t, NULL, fresh_thread, r) == 0)
        pthread_join(t, NULL);
    else
        r->ok = 0;
}

typedef struct {
    child_report child[FORK_ROUNDS][2];
    uint8_t parent_next[FORK_ROUNDS][SAMPLE]; /* the forking thread's next bytes */
    size_t minted_during;                     /* IDs the other threads made meanwhile */
    int ok;
} fork_log;

/* The forking thread: warms its own pool, then forks two children with no
 * draw in between, then draws its own next bytes; FORK_ROUNDS times. */
static void *run_forker(void *arg)
{
    fork_log *log = arg;
    uint8_t warm[3];
    int round, c;
    size_t minted_before = minted_so_far();

    log->ok = 1;
    for (round = 0; round < FORK_ROUNDS && log->ok; round++) {
        pid_t pid[2];
        int fd[2];

        log->ok &= mintid_random_bytes(warm, sizeof warm, NULL) == MINTID_OK;
        for (c = 0; c < 2; c++)
            if ((pid[c] = spawn(child_work, &log->child[round][c], sizeof log->child[round][c], &fd[c])) < 0)
                log->ok = 0;
        log->ok &= mintid_random_bytes(log->parent_next[round], SAMPLE, NULL) == MINTID_OK;
        for (c = 0; c < 2; c++)
            if (pid[c] >= 0)
                log->ok &= collect(pid[c], fd[c], &log->child[round][c], sizeof log->child[round][c]) &&
                           log->child[round][c].ok;
    }
    log->minted_during = minted_so_far() - minted_before;
    return NULL;
}

static int samples_differ(uint8_t (*s)[SAMPLE], size_t n)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        for (j = 0; j < SAMPLE && s[i][j] == 0; j++)
            ;
        if (j == SAMPLE)
            return 0; /* all zero: a wiped pool read as if it were full */
        for (j = i + 1; j < n; j++)
            if (memcmp(s[i], s[j], SAMPLE) == 0)
                return 0;
    }
    return 1;
}

static void check_fork_while_minting(void)
{
    static fork_log log;
    static uint8_t samples[FORK_ROUNDS * 5][SAMPLE];
    pthread_t mt[MINTERS], ft;
    uint8_t (*all)[16];
    size_t n = 0, max_ids = (size_t)MINTERS * MINTER_CAP + FORK_ROUNDS * 2 * (CHILD_IDS + 1);
    long errors = 0;
    int i, k, round, c, started = 1;

    all = malloc(max_ids * 16);
    for (i = 0; i < MINTERS; i++) {
        minters[i].ids = malloc(sizeof *minters[i].ids * KINDS);
        minters[i].made = 0;
        minters[i].errors = 0;
        if (all == NULL || minters[i].ids == NULL) {
            check(0, "memory for the fork test");
            return;
        }
    }
    __atomic_store_n(&stop_minting, 0, __ATOMIC_RELEASE);
    for (i = 0; i < MINTERS; i++)
        started &= pthread_create(&mt[i], NULL, run_minter, &minters[i]) == 0;
    started &= pthread_create(&ft, NULL, run_forker, &log) == 0;
    if (started)
        pthread_join(ft, NULL);
    __atomic_store_n(&stop_minting, 1, __ATOMIC_RELEASE);
    for (i = 0; i < MINTERS; i++) {
        pthread_join(mt[i], NULL);
        errors += minters[i].errors;
    }
    check(started && log.ok, "fork while minting: %d threads minted while a fourth forked %d children, "
          "which minted, started a thread and reported back", MINTERS, FORK_ROUNDS * 2);
    check(errors == 0 && log.minted_during > 0, "fork while minting: the parent's other threads minted "
          "without errors, %zu times while the children were forked", log.minted_during);
    if (!started || !log.ok)
        return;

    for (k = 0; k < KINDS; k++) {
        n = 0;
        for (i = 0; i < MINTERS; i++) {
            memcpy(all[n], minters[i].ids[k], kept(&minters[i]) * 16);
            n += kept(&minters[i]);
        }
        for (round = 0; round < FORK_ROUNDS; round++)
            for (c = 0; c < 2; c++) {
                memcpy(all[n], log.child[round][c].ids[k], sizeof log.child[round][c].ids[k]);
                n += CHILD_IDS;
                memcpy(all[n++], log.child[round][c].thread_ids[k], 16);
            }
        check(all_distinct(all, n), "fork while minting: all %zu %ss of the parent's threads, the children "
              "and their threads are distinct", n, kind_names[k]);
    }

    n = 0;
    for (round = 0; round < FORK_ROUNDS; round++) {
        memcpy(samples[n++], log.parent_next[round], SAMPLE);
        for (c = 0; c < 2; c++) {
            memcpy(samples[n++], log.child[round][c].first, SAMPLE);
            memcpy(samples[n++], log.child[round][c].new_thread, SAMPLE);
        }
    }
    check(samples_differ(samples, n), "fork while minting: the forking thread's next pool bytes, each "
          "child's first ones and those of a thread each child started differ, none all zero (%zu samples)", n);

    for (i = 0; i < MINTERS; i++)
        free(minters[i].ids);
    free(all);
}

/* ---- a thread's generator ends with it ------------------------------------ */

#define EXITING_THREADS 4

static void *draw_once(void *arg)
{
    uint8_t b[SAMPLE];

    *(int *)arg = mintid_random_bytes(b, sizeof b, NULL) == MINTID_OK;
    return NULL;
}

/* Each thread that draws gets a generator of its own, wiped and freed as
 * it exits: the count goes up by one per live thread, back once joined. */
static void check_thread_exit(void)
{
    pthread_t t[EXITING_THREADS];
    int drew[EXITING_THREADS], i, ok = 1;
    size_t before = mintid_random_threads();

    for (i = 0; i < EXITING_THREADS; i++)
        ok &= pthread_create(&t[i], NULL, draw_once, &drew[i]) == 0;
    for (i = 0; i < EXITING_THREADS; i++) {
        pthread_join(t[i], NULL);
        ok &= drew[i];
    }
    check(ok, "%d threads each drew from the pool", EXITING_THREADS);
    check(mintid_random_threads() == before, "once they exited, their generators are gone "
          "(%zu before, %zu after)", before, mintid_random_threads());
}

int main(int argc, char **argv)
{
    int helgrind = argc > 1 && strcmp(argv[1], "helgrind") == 0;

    pthread_key_create(&lag_key, NULL);
    if (helgrind) {
        uint8_t warm[16];

        order_per_thread = ORDER_PER_THREAD_HELGRIND;
        mintid_random_bytes(warm, sizeof warm, NULL);
        mintid_default_ulid(warm, NULL);
        mintid_default_uuid7(warm, NULL);
    }
    check_thread_exit();
    check_order("mintid_default_ulid", mintid_default_ulid);
    check_order("mintid_default_uuid7", mintid_default_uuid7);
    if (!helgrind)
        check_fork_while_minting();
    return tap_done();
}
