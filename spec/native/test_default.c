/*
 * test_default.c: the process-wide default generators and random pool under
 * threads and fork (API.md: safe from several OS threads; a forked child never
 * continues its parent's pool or counter). Prints TAP; exits 1 on a failure.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mintid.h"

#define THREADS 4
#define PER_THREAD 50000
#define PER_PROCESS 2000
#define POOL_SAMPLE 64

static int tests, failures;

static void check(int ok, const char *what)
{
    tests++;
    if (!ok)
        failures++;
    printf("%s %d - %s\n", ok ? "ok" : "not ok", tests, what);
}

static int compare_ids(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

/* No two equal IDs among n sorted ones. */
static int all_distinct(uint8_t (*ids)[16], size_t n)
{
    size_t i;

    qsort(ids, n, 16, compare_ids);
    for (i = 1; i < n; i++)
        if (memcmp(ids[i - 1], ids[i], 16) == 0)
            return 0;
    return 1;
}

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
    char what[128];

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
    snprintf(what, sizeof what, "%s from %d threads: no errors", kind, THREADS);
    check(errors == 0, what);
    if (monotonic) {
        snprintf(what, sizeof what, "%s from %d threads: each thread's IDs strictly increase", kind, THREADS);
        check(increasing, what);
    }
    snprintf(what, sizeof what, "%s from %d threads: all %d IDs distinct", kind, THREADS, THREADS * PER_THREAD);
    check(all_distinct(ids, (size_t)THREADS * PER_THREAD), what);
    free(ids);
}

/* What one process makes right after the fork: IDs of each kind and pool bytes. */
typedef struct {
    uint8_t ulid[PER_PROCESS][16];
    uint8_t uuid7[PER_PROCESS][16];
    uint8_t pool[POOL_SAMPLE];
} after_fork;

static void make_after_fork(after_fork *a)
{
    size_t i;

    mintid_random_bytes(a->pool, POOL_SAMPLE, NULL);
    for (i = 0; i < PER_PROCESS; i++) {
        mintid_default_ulid(a->ulid[i], NULL);
        mintid_default_uuid7(a->uuid7[i], NULL);
    }
}

static void check_fork(void)
{
    static after_fork parent, child;
    static uint8_t both[2 * PER_PROCESS][16];
    uint8_t warm[16];
    int pipefd[2], status;
    pid_t pid;
    size_t got = 0;

    /* The parent has a counter and a partly used pool before it forks: a
     * child that kept them would make the parent's next IDs and bytes. */
    mintid_default_ulid(warm, NULL);
    mintid_default_uuid7(warm, NULL);
    mintid_random_bytes(warm, 3, NULL);

    if (pipe(pipefd) != 0 || (pid = fork()) < 0) {
        check(0, "fork");
        return;
    }
    if (pid == 0) {
        size_t off = 0;

        close(pipefd[0]);
        make_after_fork(&child);
        while (off < sizeof child) {
            ssize_t w = write(pipefd[1], (uint8_t *)&child + off, sizeof child - off);
            if (w <= 0)
                _exit(1);
            off += (size_t)w;
        }
        _exit(0);
    }
    close(pipefd[1]);
    make_after_fork(&parent);
    while (got < sizeof child) {
        ssize_t r = read(pipefd[0], (uint8_t *)&child + got, sizeof child - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(pipefd[0]);
    waitpid(pid, &status, 0);
    check(got == sizeof child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "fork: the child reports its IDs");
    check(memcmp(parent.pool, child.pool, POOL_SAMPLE) != 0,
          "fork: the child's pool bytes differ from the parent's");

    memcpy(both, parent.ulid, sizeof parent.ulid);
    memcpy(both + PER_PROCESS, child.ulid, sizeof child.ulid);
    check(all_distinct(both, 2 * PER_PROCESS), "fork: parent and child ULIDs all distinct");
    memcpy(both, parent.uuid7, sizeof parent.uuid7);
    memcpy(both + PER_PROCESS, child.uuid7, sizeof child.uuid7);
    check(all_distinct(both, 2 * PER_PROCESS), "fork: parent and child UUIDv7s all distinct");
}

int main(void)
{
    check_threads("mintid_default_ulid", mintid_default_ulid, 1);
    check_threads("mintid_default_uuid7", mintid_default_uuid7, 1);
    check_threads("mintid_default_uuid4", mintid_default_uuid4, 0);
    check_fork();
    printf("1..%d\n", tests);
    return failures > 0 ? 1 : 0;
}
