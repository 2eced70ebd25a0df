/*
 * test_fence.c: the lease fence through the public ABI alone (mintid.h), as
 * an embedder uses it: a Snowflake generator of
 * mintid_snowflake_gen_init_fenced mints only inside its fence, with its
 * machine id; the states and refusals, a real deadline of a few ms, the
 * floor, the last ms, a forked child, and the argument checks. TAP on
 * stdout.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mintid.h"
#include "tap.h"

static void sleep_ms(long ms)
{
    struct timespec ts;

    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

static int64_t wall_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The next ID as decimal text: its length, or the negative code with err. */
static int next(mintid_snowflake_gen *g, char *text, char *err)
{
    char out[MINTID_SNOWFLAKE_DECIMAL_MAX];
    int n;

    err[0] = '\0';
    n = mintid_snowflake_gen_next_text(g, out, err);
    if (n > 0) {
        memcpy(text, out, (size_t)n);
        text[n] = '\0';
    }
    return n;
}

/* The machine id of the next ID, or -1 with the refusal in err. */
static int next_machine(mintid_snowflake_gen *g, char *err)
{
    char text[MINTID_SNOWFLAKE_DECIMAL_MAX + 1];
    uint64_t id = 0;
    int64_t ts;
    uint32_t machine, seq;

    if (next(g, text, err) < 0)
        return -1;
    if (mintid_snowflake_parse_decimal(text, strlen(text), &id, err) != MINTID_OK)
        return -1;
    mintid_snowflake_split(id, 0, &ts, &machine, &seq);
    return (int)machine;
}

static void refuses(mintid_snowflake_gen *g, const char *want, const char *what)
{
    char text[MINTID_SNOWFLAKE_DECIMAL_MAX + 1], err[MINTID_ERRMSG_SIZE];
    int rc = next(g, text, err);

    check(rc == MINTID_ELEASE && strcmp(err, want) == 0, "%s: ELEASE \"%s\" (got %d \"%s\")", what, want, rc, err);
}

int main(void)
{
    mintid_fence f;
    mintid_snowflake_gen g, plain;
    char err[MINTID_ERRMSG_SIZE], want[MINTID_ERRMSG_SIZE];
    int64_t left = 0, floor_ms;
    int id, status;
    pid_t pid;

    mintid_fence_init(&f);
    check(mintid_fence_state_now(&f, NULL) == MINTID_FENCE_UNHELD, "a new fence is unheld");
    check(strcmp(mintid_fence_state_name(MINTID_FENCE_UNHELD), "unheld") == 0 &&
          strcmp(mintid_fence_state_name(MINTID_FENCE_FORKED), "forked") == 0 &&
          strcmp(mintid_fence_state_name(99), "unknown") == 0, "state names: unheld .. forked, unknown past them");
    check(mintid_snowflake_gen_init_fenced(&g, &f, 0, err) == MINTID_OK, "a generator on the fence");
    refuses(&g, "snowflake: lease not held yet", "unheld");
    check(mintid_fence_machine_id(&f) == -1, "unheld: no machine id");

    check(mintid_fence_hold(&f, 42, 60000, 0, err) == MINTID_OK, "hold 42 for 60 s");
    check(mintid_fence_state_now(&f, &left) == MINTID_FENCE_HELD && left > 59000 && left <= 60000,
          "held, with 59..60 s left (got %" PRId64 " ms)", left);
    id = next_machine(&g, err);
    check(id == 42, "mints with machine id 42 (got %d, %s)", id, err);

    check(mintid_fence_hold(&f, 43, 60000, 0, err) == MINTID_OK && next_machine(&g, err) == 43,
          "held again with 43: mints with 43");

    floor_ms = wall_ms() + 3600000;
    mintid_fence_hold(&f, 44, 60000, floor_ms, err);
    check(mintid_fence_state_now(&f, NULL) == MINTID_FENCE_WAITING, "a floor an hour ahead: waiting");
    check(mintid_fence_machine_id(&f) == 44, "waiting: the machine id is held");
    snprintf(want, sizeof want, "snowflake: waiting for the previous holder's last ms (until ms %" PRId64 ")",
             floor_ms);
    refuses(&g, want, "below the floor");

    mintid_fence_hold(&f, 45, 30, 0, err);
    check(next_machine(&g, err) == 45, "30 ms lease: mints at once");
    sleep_ms(60);
    check(mintid_fence_state_now(&f, NULL) == MINTID_FENCE_EXPIRED, "60 ms later: expired");
    refuses(&g, "snowflake: lease expired", "expired");

    /* The last ms: a suspend the monotonic clock did not count leaves the
     * deadline ahead while the wall clock, by which the id's next holder
     * mints above this holder's floor, is past it. */
    check(mintid_fence_hold_until(&f, 49, 3600000, 0, wall_ms() - 10000, err) == MINTID_OK,
          "hold 49 for an hour with a last ms 10 s back");
    check(mintid_fence_state_now(&f, &left) == MINTID_FENCE_EXPIRED && mintid_fence_machine_id(&f) == -1,
          "past the last ms inside the deadline: expired, no machine id");
    {
        const char *prefix = "snowflake: lease expired: the clock passed its last ms (";
        char text[MINTID_SNOWFLAKE_DECIMAL_MAX + 1];
        int rc = next(&g, text, err);

        check(rc == MINTID_ELEASE && strncmp(err, prefix, strlen(prefix)) == 0,
              "past the last ms: ELEASE naming it (got %d \"%s\")", rc, err);
    }
    check(mintid_fence_hold_until(&f, 49, 3600000, 0, wall_ms() + 60000, err) == MINTID_OK &&
          next_machine(&g, err) == 49 && mintid_fence_machine_id(&f) == 49,
          "held again with a last ms a minute ahead: mints with 49 (%s)", err);
    check(mintid_fence_hold_until(&f, 1, 1000, 0, -1, err) == MINTID_EARG &&
          strcmp(err, "last_ms must be >= 0, got -1") == 0 && next_machine(&g, err) == 49,
          "last_ms -1: EARG, the fence as it was (%s)", err);

    mintid_fence_hold(&f, 46, MINTID_FENCE_FOREVER, 0, err);
    check(mintid_fence_state_now(&f, &left) == MINTID_FENCE_HELD && left == MINTID_FENCE_FOREVER,
          "MINTID_FENCE_FOREVER: held, no deadline");
    mintid_fence_drop(&f, MINTID_FENCE_RELEASED, err);
    refuses(&g, "snowflake: lease released", "released");
    mintid_fence_hold(&f, 46, 60000, 0, err);
    mintid_fence_drop(&f, MINTID_FENCE_LOST, err);
    refuses(&g, "snowflake: lease lost", "lost");
    check(mintid_fence_machine_id(&f) == -1, "lost: no machine id");

    mintid_fence_hold(&f, 47, 60000, 0, err);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        char text[MINTID_SNOWFLAKE_DECIMAL_MAX + 1], cerr[MINTID_ERRMSG_SIZE];
        int ok = next(&g, text, cerr) == MINTID_ELEASE &&
                 strcmp(cerr, "snowflake: lease belongs to the parent process (forked)") == 0 &&
                 mintid_fence_state_now(&f, NULL) == MINTID_FENCE_FORKED && mintid_fence_machine_id(&f) == -1;
        /* Held in the child itself: the generator mints there. */
        ok = ok && mintid_fence_hold(&f, 48, 60000, 0, cerr) == MINTID_OK && next_machine(&g, cerr) == 48;
        _exit(ok ? 0 : 1);
    }
    check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "a forked child refuses with the parent's fence (forked), and mints once it holds it itself");
    check(next_machine(&g, err) == 47, "the parent still mints with 47");

    check(mintid_fence_hold(&f, 1024, 1000, 0, err) == MINTID_EARG &&
          strcmp(err, "machine_id must be 0..1023, got 1024") == 0, "hold 1024: EARG (%s)", err);
    check(mintid_fence_hold(&f, 1, -1, 0, err) == MINTID_EARG &&
          strcmp(err, "valid_for must be >= 0, got -1 ms") == 0, "valid_for -1: EARG (%s)", err);
    check(mintid_fence_hold(&f, 1, 1000, -1, err) == MINTID_EARG &&
          strcmp(err, "floor_ms must be >= 0, got -1") == 0, "floor -1: EARG (%s)", err);
    check(next_machine(&g, err) == 47, "a refused hold leaves the fence as it was");
    check(mintid_fence_drop(&f, MINTID_FENCE_HELD, err) == MINTID_EARG, "drop as held: EARG (%s)", err);
    check(mintid_snowflake_gen_init_fenced(&g, &f, -1, err) == MINTID_EARG, "a negative epoch: EARG");
    check(mintid_abi_sizeof("mintid_fence") == sizeof(mintid_fence), "mintid_abi_sizeof knows mintid_fence");

    /* Two generators on one fence move one sequence: taking turns in the
     * same ms, they never make the same ID. */
    {
        mintid_snowflake_gen g2;
        char a[MINTID_SNOWFLAKE_DECIMAL_MAX + 1], b[MINTID_SNOWFLAKE_DECIMAL_MAX + 1];
        int i, same = 0, fails = 0;

        mintid_fence_hold(&f, 50, 60000, 0, err);
        mintid_snowflake_gen_init_fenced(&g2, &f, 0, err);
        for (i = 0; i < 2000; i++) {
            fails += next(&g, a, err) < 0;
            fails += next(&g2, b, err) < 0;
            same += strcmp(a, b) == 0;
        }
        check(fails == 0 && same == 0, "two generators on one fence, in turn: no ID twice (%d the same, %d failed)",
              same, fails);
    }

    /* One fence, one epoch: the sequence word is shared, so a generator of
     * another epoch would repeat, epoch ms later, the IDs of the first. */
    {
        mintid_snowflake_gen g3;

        check(mintid_snowflake_gen_init_fenced(&g3, &f, 1000, err) == MINTID_EARG &&
              strcmp(err, "snowflake: lease layout 42/1/10/12/0/time-machine-seq, "
                     "not 42/1/10/12/1000/time-machine-seq") == 0,
              "a generator of another epoch on the fence: EARG naming both (%s)", err);
        check(mintid_snowflake_gen_init_fenced(&g3, &f, 0, err) == MINTID_OK, "the fence's epoch again: OK");
    }

    /* A static machine_id generator knows nothing of fences. */
    mintid_snowflake_gen_init(&plain, 5, 0, err);
    check(next_machine(&plain, err) == 5, "a static generator mints with its machine_id");
    return tap_done();
}
