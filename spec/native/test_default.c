/*
 * test_default.c: the process-wide default generators and random pool under
 * threads and fork (doc/design.md "Details worth knowing": safe from several OS
 * threads; a forked child never continues its parent's pool or counter).
 * Prints TAP; exits 1 on a failure.
 *
 * Built with -DTEST_RAW_CLONE, every child is made by
 * syscall(SYS_clone, SIGCHLD, 0), which runs no pthread_atfork handler:
 * then only the core's MADV_WIPEONFORK sentinel can tell it is a new process.
 */
#define _POSIX_C_SOURCE 200809L
#ifdef TEST_RAW_CLONE
#define _DEFAULT_SOURCE /* syscall */
#include <signal.h>
#include <sys/syscall.h>
#define new_child() ((pid_t)syscall(SYS_clone, SIGCHLD, 0))
#else
#define new_child() fork()
#endif

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mintid.h"
#include "internal.h" /* the UUIDv1/v6, KSUID and TypeID generators */
#include "tap.h"
#include "child.h"

/*
 * The clock the core reads in this test, which links the core with
 * --wrap=mintid_os_clock_ms (Makefile): the OS wall clock, or frozen_ms
 * while it is >= 0. A
 * fork takes over a millisecond on some machines (3 ms on average on a
 * loaded 2-core VM), so with the real clock a child could never be seen
 * minting in its parent's millisecond, the one case where continuing the
 * parent's counter repeats IDs. A frozen clock puts every process there.
 */
static int64_t frozen_ms = -1;

int __wrap_mintid_os_clock_ms(int64_t *now_ms, char *err);
int __wrap_mintid_os_clock_ms(int64_t *now_ms, char *err)
{
    struct timespec ts;

    (void)err;
    if (frozen_ms >= 0) {
        *now_ms = frozen_ms;
        return MINTID_OK;
    }
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return MINTID_ECLOCK;
    *now_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    return MINTID_OK;
}

/* Stops the clock at its current ms (later than every ID made so far) for
 * every process until thaw_clock. */
static void freeze_clock(void)
{
    int64_t now = 0;

    frozen_ms = -1;
    __wrap_mintid_os_clock_ms(&now, NULL);
    frozen_ms = now;
}

static void thaw_clock(void)
{
    frozen_ms = -1;
}

#define THREADS 4
#define PER_THREAD 50000
#define PER_PROCESS 2000

typedef struct {
    int (*make)(uint8_t out[16], char *err);
    uint8_t (*ids)[16];
    int increasing;
    int errors;
} thread_job;

static void *run_job(void *arg)
{
    thread_job *job = arg;
    size_t i;

    job->increasing = 1;
    for (i = 0; i < PER_THREAD; i++) {
        if (job->make(job->ids[i], NULL) != MINTID_OK)
            job->errors++;
        else if (i > 0 && memcmp(job->ids[i - 1], job->ids[i], 16) >= 0)
            job->increasing = 0;
    }
    return NULL;
}

static void check_threads(const char *kind, int (*make)(uint8_t out[16], char *err), int monotonic)
{
    uint8_t (*ids)[16] = malloc(sizeof *ids * THREADS * PER_THREAD);
    thread_job jobs[THREADS];
    pthread_t threads[THREADS];
    int i, increasing = 1, errors = 0;

    if (ids == NULL) {
        check(0, "memory for the thread test");
        return;
    }
    for (i = 0; i < THREADS; i++) {
        jobs[i].make = make;
        jobs[i].ids = ids + (size_t)i * PER_THREAD;
        jobs[i].errors = 0;
        pthread_create(&threads[i], NULL, run_job, &jobs[i]);
    }
    for (i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        increasing &= jobs[i].increasing;
        errors += jobs[i].errors;
    }
    check(errors == 0, "%s from %d threads: no errors", kind, THREADS);
    if (monotonic)
        check(increasing, "%s from %d threads: each thread's IDs strictly increase", kind, THREADS);
    check(all_distinct(ids, (size_t)THREADS * PER_THREAD), "%s from %d threads: all %d IDs distinct",
          kind, THREADS, THREADS * PER_THREAD);
    free(ids);
}

/* ---- fork ---------------------------------------------------------------- */

/* Every check below forks TWO children from one parent state and compares
 * them with each other as well as with the parent: a child that reads zeros,
 * or its parent's leftover pool or counter, then matches its sibling exactly,
 * whatever the parent did after the fork. */

#define POOL_SAMPLE 16

/* Two children forked from the parent's current state, one after the other
 * with no draw in between; each runs work(out[i]). 0 if a fork failed. */
static int spawn_two(void (*work)(void *out), void *out0, void *out1, size_t size,
                     pid_t pid[2], int fd[2])
{
    pid[0] = spawn(work, out0, size, &fd[0]);
    if (pid[0] < 0)
        return 0;
    pid[1] = spawn(work, out1, size, &fd[1]);
    if (pid[1] < 0) {
        collect(pid[0], fd[0], out0, size);
        return 0;
    }
    return 1;
}

static int all_zero(const uint8_t *p, size_t n)
{
    while (n-- > 0)
        if (*p++ != 0)
            return 0;
    return 1;
}

/* What one process makes right after the fork: pool bytes first, then IDs. */
typedef struct {
    uint8_t pool[POOL_SAMPLE];
    uint8_t ulid[PER_PROCESS][16];
    uint8_t uuid7[PER_PROCESS][16];
} after_fork;

static void make_after_fork(void *out)
{
    after_fork *a = out;
    size_t i;

    mintid_random_bytes(a->pool, POOL_SAMPLE, NULL);
    for (i = 0; i < PER_PROCESS; i++) {
        mintid_default_ulid(a->ulid[i], NULL);
        mintid_default_uuid7(a->uuid7[i], NULL);
    }
}

/*
 * The pool. Must run before anything else in this process draws: the pool
 * then starts empty and the warm-up below uses only 23 of its 256 bytes, so
 * each process's 16-byte sample comes wholly from the bytes left at the fork.
 * (If a refill fell inside the sample, a child that kept its parent's pool
 * would differ from it in the refilled bytes.) A child that kept the pool
 * reads the parent's next bytes, as its sibling does; one that zeroed the
 * pool but kept the read position reads zeros, as its sibling does.
 */
static void check_fork_pool(void)
{
    static after_fork proc[3]; /* the parent, then the two children */
    static uint8_t all[3 * PER_PROCESS][16];
    uint8_t warm[16];
    pid_t pid[2];
    int fd[2], i, ok;

    mintid_default_ulid(warm, NULL);
    mintid_default_uuid7(warm, NULL);
    mintid_random_bytes(warm, 3, NULL);

    if (!spawn_two(make_after_fork, &proc[1], &proc[2], sizeof proc[1], pid, fd)) {
        check(0, "fork (pool): fork two children");
        return;
    }
    make_after_fork(&proc[0]);
    ok = collect(pid[0], fd[0], &proc[1], sizeof proc[1]);
    ok &= collect(pid[1], fd[1], &proc[2], sizeof proc[2]);
    check(ok, "fork (pool): both children report their pool bytes and IDs");
    if (!ok)
        return;

    check(!all_zero(proc[1].pool, POOL_SAMPLE) && !all_zero(proc[2].pool, POOL_SAMPLE) &&
          !all_zero(proc[0].pool, POOL_SAMPLE),
          "fork (pool): no process's first 16 pool bytes after the fork are all zero");
    check(memcmp(proc[1].pool, proc[2].pool, POOL_SAMPLE) != 0,
          "fork (pool): the two children's first 16 pool bytes differ");
    check(memcmp(proc[0].pool, proc[1].pool, POOL_SAMPLE) != 0 &&
          memcmp(proc[0].pool, proc[2].pool, POOL_SAMPLE) != 0,
          "fork (pool): each child's first 16 pool bytes differ from the parent's");

    for (i = 0; i < 3; i++)
        memcpy(all + i * PER_PROCESS, proc[i].ulid, sizeof proc[i].ulid);
    check(all_distinct(all, 3 * PER_PROCESS), "fork: parent and two children: all %d ULIDs distinct",
          3 * PER_PROCESS);
    for (i = 0; i < 3; i++)
        memcpy(all + i * PER_PROCESS, proc[i].uuid7, sizeof proc[i].uuid7);
    check(all_distinct(all, 3 * PER_PROCESS), "fork: parent and two children: all %d UUIDv7s distinct",
          3 * PER_PROCESS);
}

/* The first ULID and UUIDv7 of a process after the fork. */
typedef struct {
    uint8_t ulid[16];
    uint8_t uuid7[16];
} first_ids;

static void make_first_ids(void *out)
{
    first_ids *f = out;

    mintid_default_ulid(f->ulid, NULL);
    mintid_default_uuid7(f->uuid7, NULL);
}

/* The ID a generator that continued after id makes in the same ms (SPEC):
 * ULID: the 80-bit counter in bytes 6..15 plus 1. */
static void ulid_successor(const uint8_t id[16], uint8_t out[16])
{
    int i;

    memcpy(out, id, 16);
    for (i = 15; i >= 6; i--)
        if (++out[i] != 0)
            break;
}

/* UUIDv7: the 74-bit counter rand_a << 62 | rand_b plus 1, where rand_b is
 * the low 6 bits of byte 8 and bytes 9..15, rand_a the low nibble of byte 6
 * and byte 7; the version and variant bits stay. */
static void uuid7_successor(const uint8_t id[16], uint8_t out[16])
{
    int i;

    memcpy(out, id, 16);
    for (i = 15; i >= 9; i--)
        if (++out[i] != 0)
            return;
    out[8] = (uint8_t)((out[8] & 0xC0) | ((out[8] + 1) & 0x3F));
    if ((out[8] & 0x3F) != 0)
        return;
    if (++out[7] != 0)
        return;
    out[6] = (uint8_t)((out[6] & 0xF0) | ((out[6] + 1) & 0x0F));
}

/* The checks below are only as good as the two successor functions: the
 * parent's own second ID in one ms must be exactly successor(first). */
static void check_successor(const char *kind, int (*make)(uint8_t out[16], char *err),
                            void (*successor)(const uint8_t id[16], uint8_t out[16]))
{
    uint8_t a[16], b[16], next[16];

    freeze_clock();
    make(a, NULL);
    make(b, NULL);
    thaw_clock();
    successor(a, next);
    check(memcmp(b, next, 16) == 0,
          "fork (counter): the test's %s + 1 is the generator's next %s in the same ms", kind, kind);
}

/* What the fork check saw for one kind. */
typedef struct {
    const char *kind;
    void (*successor)(const uint8_t id[16], uint8_t out[16]);
    int landed;    /* a child's first ID fell in the warm-up's ms */
    int continued; /* ... and was warm-up + 1: the parent's counter */
    int repeated;  /* two of the three processes' first IDs were equal */
} counter_seen;

static void look_at_fork(counter_seen *s, const uint8_t warm[16], const uint8_t *parent,
                            const uint8_t *child0, const uint8_t *child1)
{
    const uint8_t *child[2];
    uint8_t next[16];
    int i;

    child[0] = child0;
    child[1] = child1;
    s->successor(warm, next);
    for (i = 0; i < 2; i++) {
        if (mintid_ulid_time(child[i]) != mintid_ulid_time(warm))
            continue;
        s->landed = 1;
        if (memcmp(child[i], next, 16) == 0)
            s->continued = 1;
    }
    if (memcmp(parent, child0, 16) == 0 || memcmp(parent, child1, 16) == 0 ||
        memcmp(child0, child1, 16) == 0)
        s->repeated = 1;
}

static void report_counter(const counter_seen *s)
{
    if (!s->landed) {
        check(0, "fork (counter): no child's first %s fell in the warm-up's ms, so a child "
              "continuing the parent's counter could not be seen", s->kind);
        return;
    }
    check(!s->continued, "fork (counter): a child's first %s in the warm-up's ms is not "
          "warm-up + 1 (it does not continue the parent's counter)", s->kind);
    check(!s->repeated, "fork (counter): the first %ss of the parent and the two children are distinct",
          s->kind);
}

/*
 * The counter. A child that kept its parent's (last_ms, counter) shows it
 * only while the clock still reads the warm-up's ms: then its first ID is
 * warm-up + 1 instead of a fresh draw. So the clock stands still from the
 * warm-up until every process has minted.
 */
static void check_fork_counter(void)
{
    counter_seen ulid = { "ULID", ulid_successor, 0, 0, 0 };
    counter_seen uuid7 = { "UUIDv7", uuid7_successor, 0, 0, 0 };
    first_ids warm, first[3]; /* the parent, then the two children */
    pid_t pid[2];
    int fd[2], forks_ok;

    check_successor("ULID", mintid_default_ulid, ulid_successor);
    check_successor("UUIDv7", mintid_default_uuid7, uuid7_successor);
    /* Every process mints in the warm-up's ms. Each child is collected
     * before the next step and the parent mints after both, so both children
     * fork from the same state. */
    freeze_clock();
    make_first_ids(&warm);
    pid[0] = spawn(make_first_ids, &first[1], sizeof first[1], &fd[0]);
    forks_ok = pid[0] >= 0 && collect(pid[0], fd[0], &first[1], sizeof first[1]);
    pid[1] = forks_ok ? spawn(make_first_ids, &first[2], sizeof first[2], &fd[1]) : -1;
    forks_ok = forks_ok && pid[1] >= 0 && collect(pid[1], fd[1], &first[2], sizeof first[2]);
    make_first_ids(&first[0]);
    thaw_clock();
    if (forks_ok) {
        look_at_fork(&ulid, warm.ulid, first[0].ulid, first[1].ulid, first[2].ulid);
        look_at_fork(&uuid7, warm.uuid7, first[0].uuid7, first[1].uuid7, first[2].uuid7);
    }
    check(forks_ok, "fork (counter): two children forked and reported their first IDs");
    if (!forks_ok)
        return;
    report_counter(&ulid);
    report_counter(&uuid7);
}

/* ---- generator objects across fork ---------------------------------------- */

/*
 * A generator object (not a default one) made and used before fork(): the
 * parent and two children each make two IDs at the parent's last ms (the
 * clock is an argument here, so every process mints in the same ms). A
 * child that continued the object's (last_ms, counter) would make exactly
 * the parent's IDs; each must draw afresh instead. Deterministic: no retry.
 */
#define GEN_FORK_MS INT64_C(1700000000000)
#define GEN_FORK_ROUNDS 20

typedef struct {
    const char *kind;
    /* One step of the object at GEN_FORK_MS. */
    int (*step)(uint8_t out[16]);
} object_kind;

static mintid_ulid_gen fork_ulid;
static mintid_uuid7_gen fork_uuid7;
static mintid_relative_gen fork_relative;
static mintid_uuid_time_state fork_uuid1, fork_uuid6;
static mintid_ksuid_gen fork_ksuid;
static mintid_uuid7_gen fork_typeid;
static const object_kind *fork_kind; /* what the children step */

static int step_ulid_object(uint8_t out[16])
{
    return mintid_ulid_gen_next(mintid_ulid_state_of(&fork_ulid), GEN_FORK_MS, mintid_random_pool, NULL, out, NULL);
}

static int step_uuid7_object(uint8_t out[16])
{
    return mintid_uuid7_gen_next(mintid_uuid7_state_of(&fork_uuid7), GEN_FORK_MS, mintid_random_pool, NULL, out, NULL);
}

static int step_relative_object(uint8_t out[16])
{
    return mintid_relative_gen_next(mintid_relative_state_of(&fork_relative), GEN_FORK_MS, (const uint8_t *)"tenant-7", 8,
                                    mintid_random_pool, NULL, out, NULL);
}

/* v1/v6 at one tick: a child continues last_ticks, so only the node and
 * clock_seq it draws afresh keep its IDs apart from its parent's. */
static int step_uuid_time_object(mintid_uuid_time_state *g, uint8_t out[16])
{
    uint64_t ticks;

    if (mintid_uuid_ticks_from_ms(GEN_FORK_MS, "UUIDv1", &ticks, NULL) != MINTID_OK)
        return MINTID_ERANGE;
    return mintid_uuid_time_gen_next(g, ticks, mintid_random_pool, NULL, out, NULL);
}

static int step_uuid1_object(uint8_t out[16]) { return step_uuid_time_object(&fork_uuid1, out); }
static int step_uuid6_object(uint8_t out[16]) { return step_uuid_time_object(&fork_uuid6, out); }

/* The 16 payload bytes: every process mints in the same second. */
static int step_ksuid_object(uint8_t out[16])
{
    uint8_t id[MINTID_KSUID_BYTES];
    int rc = mintid_ksuid_gen_next(mintid_ksuid_state_of(&fork_ksuid), GEN_FORK_MS, mintid_random_pool, NULL, id, NULL);

    memcpy(out, id + 4, 16);
    return rc;
}

/* The suffix, decoded back: the TypeID's UUIDv7. */
static int step_typeid_object(uint8_t out[16])
{
    char text[MINTID_TYPEID_MAX_TEXT_LEN];
    size_t prefix_len;
    int n = mintid_typeid_gen_next(mintid_uuid7_state_of(&fork_typeid), "user", 4, GEN_FORK_MS, mintid_random_pool, NULL, text, NULL);

    if (n < 0)
        return n;
    return mintid_typeid_decode(text, (size_t)n, &prefix_len, out, NULL);
}

typedef struct {
    uint8_t id[2][16];
    int ok;
} two_ids;

static void make_two_ids(void *out)
{
    two_ids *t = out;

    t->ok = fork_kind->step(t->id[0]) == MINTID_OK && fork_kind->step(t->id[1]) == MINTID_OK;
}

static void check_object_fork(const object_kind *k)
{
    two_ids proc[3]; /* the parent, then the two children */
    uint8_t all[3 * 2 * GEN_FORK_ROUNDS][16], warm[16];
    pid_t pid[2];
    int fd[2], round, i, forked = 1, made = 1, increasing = 1;
    size_t n = 0;

    fork_kind = k;
    made = k->step(warm) == MINTID_OK;
    for (round = 0; round < GEN_FORK_ROUNDS && forked; round++) {
        memset(proc, 0, sizeof proc);
        if (!spawn_two(make_two_ids, &proc[1], &proc[2], sizeof proc[1], pid, fd)) {
            forked = 0;
            break;
        }
        make_two_ids(&proc[0]);
        forked &= collect(pid[0], fd[0], &proc[1], sizeof proc[1]);
        forked &= collect(pid[1], fd[1], &proc[2], sizeof proc[2]);
        for (i = 0; i < 3 && forked; i++) {
            made &= proc[i].ok;
            /* Within one process the object is still monotonic. */
            increasing &= memcmp(proc[i].id[0], proc[i].id[1], 16) < 0;
            memcpy(all[n++], proc[i].id[0], 16);
            memcpy(all[n++], proc[i].id[1], 16);
        }
    }
    check(forked && made, "fork (%s object): %d rounds of a parent and two children each made two IDs",
          k->kind, GEN_FORK_ROUNDS);
    if (!forked || !made)
        return;
    check(increasing, "fork (%s object): each process's two IDs in one ms increase", k->kind);
    check(all_distinct(all, n), "fork (%s object): all %zu IDs of parents and children, all minted in "
          "the parent's ms, are distinct", k->kind, n);
}

static void snowflake_in_child(void *out)
{
    mintid_snowflake_state *g = mintid_snowflake_state_of(out);
    uint64_t id = 0;
    char err[MINTID_ERRMSG_SIZE];
    int rc = mintid_snowflake_gen_try(g, GEN_FORK_MS, &id, err);

    /* The child reports its verdict in the state word it sends back. */
    g->state = rc == MINTID_EFORK && strstr(err, "machine_id") != NULL ? 1 : 0;
}

/* A Snowflake generator's machine_id is all that keeps processes apart:
 * in a child it must refuse, used before the fork or not; the parent goes on. */
static void check_snowflake_fork(void)
{
    mintid_snowflake_gen used, unused, sent[2];
    uint64_t before = 0, after = 0;
    pid_t pid[2];
    int fd[2], ok;

    mintid_snowflake_gen_init(&used, 5, 0, NULL);
    mintid_snowflake_gen_init(&unused, 6, 0, NULL);
    ok = mintid_snowflake_gen_try(mintid_snowflake_state_of(&used), GEN_FORK_MS, &before, NULL) == MINTID_OK;
    sent[0] = used;
    sent[1] = unused;
    if (!spawn_two(snowflake_in_child, &sent[0], &sent[1], sizeof sent[0], pid, fd)) {
        check(0, "fork (snowflake object): fork two children");
        return;
    }
    ok &= collect(pid[0], fd[0], &sent[0], sizeof sent[0]);
    ok &= collect(pid[1], fd[1], &sent[1], sizeof sent[1]);
    check(ok && mintid_snowflake_state_of(&sent[0])->state == 1 &&
          mintid_snowflake_state_of(&sent[1])->state == 1,
          "fork (snowflake object): in a child, a generator made before the fork (used or not) "
          "refuses with MINTID_EFORK and a message naming machine_id");
    check(mintid_snowflake_gen_try(mintid_snowflake_state_of(&used), GEN_FORK_MS, &after, NULL) == MINTID_OK &&
          after == before + 1,
          "fork (snowflake object): the parent's generator goes on with its sequence");
}

static void check_objects_fork(void)
{
    static const object_kind kinds[] = {
        { "ULID", step_ulid_object },
        { "UUIDv7", step_uuid7_object },
        { "relative", step_relative_object },
        { "UUIDv1", step_uuid1_object },
        { "UUIDv6", step_uuid6_object },
        { "KSUID", step_ksuid_object },
        { "TypeID", step_typeid_object },
    };
    size_t i;

    mintid_ulid_gen_init(&fork_ulid);
    mintid_uuid7_gen_init(&fork_uuid7);
    mintid_relative_gen_init(&fork_relative, (const uint8_t *)"0123456789abcdef", 16,
                             (const uint8_t *)"", 0, NULL);
    mintid_uuid_time_state_init(&fork_uuid1, 1, NULL, 0, -1, mintid_random_pool, NULL, NULL);
    mintid_uuid_time_state_init(&fork_uuid6, 6, NULL, 0, -1, mintid_random_pool, NULL, NULL);
    mintid_ksuid_gen_init(&fork_ksuid);
    mintid_uuid7_gen_init(&fork_typeid);
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        check_object_fork(&kinds[i]);
    check_snowflake_fork();
}

int main(void)
{
    /* First: check_fork_pool needs the pool as a new process has it. */
    check_fork_pool();
    check_fork_counter();
    check_objects_fork();
    check_threads("mintid_default_ulid", mintid_default_ulid, 1);
    check_threads("mintid_default_uuid7", mintid_default_uuid7, 1);
    check_threads("mintid_default_uuid4", mintid_default_uuid4, 0);
    return tap_done();
}
