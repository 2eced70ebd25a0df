/*
 * bench/core.c (make bench): the C core alone, no Lua. Time per call of
 * each whole ID call of the ABI (clock, lock, pool, step, text), of its
 * parts (the clock, a lock pair, the text encodings) and of the randomness
 * source per 16 bytes: the OS (getrandom) against the pool's user-space
 * ChaCha20 generator. Each figure is the best of ROUNDS rounds. Prints figures;
 * never fails on timing.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mintid.h"
#include "internal.h" /* the pool and the OS source, timed alone */

/* Best of: a round the machine slowed counts for nothing, so more rounds
 * find a quiet one more often (these VMs share their cores). */
#define ROUNDS 9

static volatile uint8_t sink; /* keeps the results alive */
static char err[MINTID_ERRMSG_SIZE];
static mintid_ulid_gen ulid_g;
static mintid_uuid7_gen uuid7_g;
static mintid_relative_gen rel_g;
static mintid_snowflake_gen snow_g;
static mintid_nanoid_spec nano_default, nano_hex;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef void (*op_fn)(void);

/* One round of n calls, in ns per call. */
static double time_op_once(op_fn op, long n)
{
    double t0 = now_ns();
    long i;

    for (i = 0; i < n; i++)
        op();
    return (now_ns() - t0) / (double)n;
}

/* Calls of op for about a second, untimed: a VM's core that was idle runs
 * slow for its first moments of work (the first rows of a run measured up
 * to half again their time without this). */
static void warm_up(op_fn op)
{
    double t0 = now_ns();

    while (now_ns() - t0 < 1e9)
        op();
}

/* Best of ROUNDS rounds of n calls, in ns per call. */
static double time_op(op_fn op, long n)
{
    double best = 0;
    int r;

    for (r = 0; r < ROUNDS; r++) {
        double per = time_op_once(op, n);

        if (r == 0 || per < best)
            best = per;
    }
    return best;
}

/* Best of ROUNDS rounds of n calls of a and of b, in ns per call, their
 * rounds in turn: a target relative to b (the clock) then compares
 * figures the machine's slow moments weighed on alike. */
static void time_pair(op_fn a, op_fn b, long n, double *a_ns, double *b_ns)
{
    int r;

    for (r = 0; r < ROUNDS; r++) {
        double ta = time_op_once(a, n), tb = time_op_once(b, n);

        if (r == 0 || ta < *a_ns)
            *a_ns = ta;
        if (r == 0 || tb < *b_ns)
            *b_ns = tb;
    }
}

static void op_clock_gettime(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    sink ^= (uint8_t)ts.tv_nsec;
}

static void op_lock_pair(void)
{
    pthread_mutex_lock(&mutex);
    sink ^= 1;
    pthread_mutex_unlock(&mutex);
}

static void op_os_random(void)
{
    uint8_t b[16];

    mintid_os_random(b, sizeof b, err);
    sink ^= b[0];
}

static void op_pool_random(void)
{
    uint8_t b[16];

    mintid_random_bytes(b, sizeof b, err);
    sink ^= b[0];
}

/* The encoders read one of 64 IDs in turn (filled from the pool once):
 * bytes changed just before would time a stalled store-to-load forward. */
static uint8_t ids[64][16];
static unsigned id_turn;

static void op_ulid_encode(void)
{
    char out[26];

    mintid_ulid_encode(ids[id_turn++ & 63], out);
    sink ^= (uint8_t)out[25];
}

static void op_uuid_encode(void)
{
    char out[36];

    mintid_uuid_encode(ids[id_turn++ & 63], out);
    sink ^= (uint8_t)out[35];
}

/* 16 blocks (1 KiB) of keystream by one implementation, with what each
 * call costs besides (the overwrite of the vector code's frames); a refill
 * of the pool is MINTID_RANDOM_BATCH_BLOCKS blocks. */
static int chacha_impl;
static uint8_t keystream[1024];

static void op_chacha_1k(void)
{
    static const uint8_t key[32], nonce[12];

    mintid_chacha20_blocks_by(chacha_impl, key, 0, nonce, keystream, 16);
    sink ^= keystream[0];
}

static const char sample_ulid[] = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
static const char sample_uuid[] = "0190163d-8694-739b-aea5-966c26f8ad91";

static void op_ulid_decode(void)
{
    uint8_t id[16];

    mintid_ulid_decode(sample_ulid, 26, id, err);
    sink ^= id[15];
}

static void op_uuid_decode(void)
{
    uint8_t id[16];

    mintid_uuid_decode(sample_uuid, 36, id, err);
    sink ^= id[15];
}

static void op_trace_id(void)
{
    char out[MINTID_TRACE_ID_TEXT_LEN];

    mintid_trace_id_text(out, err);
    sink ^= (uint8_t)out[0];
}

static void op_ulid(void)
{
    char out[26];

    mintid_ulid_text(out, err);
    sink ^= (uint8_t)out[25];
}

static void op_uuid7(void)
{
    char out[36];

    mintid_uuid7_text(out, err);
    sink ^= (uint8_t)out[35];
}

static void op_uuid4(void)
{
    char out[36];

    mintid_uuid4_text(out, err);
    sink ^= (uint8_t)out[35];
}

static void op_nanoid(void)
{
    char out[MINTID_NANOID_DEFAULT_SIZE];

    mintid_nanoid_text(&nano_default, out, err);
    sink ^= (uint8_t)out[0];
}

static void op_ulid_gen(void)
{
    char out[26];

    mintid_ulid_gen_next_text(&ulid_g, out, err);
    sink ^= (uint8_t)out[25];
}

static void op_uuid7_gen(void)
{
    char out[36];

    mintid_uuid7_gen_next_text(&uuid7_g, out, err);
    sink ^= (uint8_t)out[35];
}

static void op_relative_gen(void)
{
    char out[28];

    mintid_relative_gen_next_text(&rel_g, (const uint8_t *)"customer-42", 11, out, err);
    sink ^= (uint8_t)out[27];
}

static void op_snowflake_gen(void)
{
    char out[20];

    mintid_snowflake_gen_next_text(&snow_g, out, err);
    sink ^= (uint8_t)out[0];
}

/* Sixteen generators in turn, each with its own machine id (4096 IDs a ms
 * would bound one alone): static, or each on a lease fence of its own. */
static mintid_snowflake_gen snow16[16], leased16[16], timed16[16];
static mintid_fence fences[16], timed_fences[16];
static unsigned snow_turn;

static void op_snowflake16(void)
{
    char out[20];

    mintid_snowflake_gen_next_text(&snow16[snow_turn++ & 15], out, err);
    sink ^= (uint8_t)out[0];
}

static void op_leased16(void)
{
    char out[20];

    mintid_snowflake_gen_next_text(&leased16[snow_turn++ & 15], out, err);
    sink ^= (uint8_t)out[0];
}

static void op_timed16(void)
{
    char out[20];

    mintid_snowflake_gen_next_text(&timed16[snow_turn++ & 15], out, err);
    sink ^= (uint8_t)out[0];
}

static int init_snowflake16(void)
{
    int i;

    for (i = 0; i < 16; i++) {
        mintid_fence_init(&fences[i]);
        mintid_fence_init(&timed_fences[i]);
        if (mintid_snowflake_gen_init(&snow16[i], i, 1288834974657, err) ||
            mintid_fence_hold(&fences[i], i, MINTID_FENCE_FOREVER, 0, err) ||
            mintid_snowflake_gen_init_fenced(&leased16[i], &fences[i], 1288834974657, err) ||
            mintid_fence_hold(&timed_fences[i], i, 3600000, 0, err) ||
            mintid_snowflake_gen_init_fenced(&timed16[i], &timed_fences[i], 1288834974657, err))
            return -1;
    }
    return 0;
}

static void op_nanoid_hex(void)
{
    char out[16];

    mintid_nanoid_text(&nano_hex, out, err);
    sink ^= (uint8_t)out[0];
}

static double row(const char *name, op_fn op, long n)
{
    double ns = time_op(op, n);

    printf("%-44s %8.1f ns\n", name, ns);
    return ns;
}

/* A row of the target table (issue 27), appended to the file BENCH_TARGETS
 * names, which `make bench` prints once every part has run. */
static void target(const char *what, double ns, double limit, const char *limit_text)
{
    const char *path = getenv("BENCH_TARGETS");
    FILE *f;

    if (path == NULL || (f = fopen(path, "a")) == NULL)
        return;
    fprintf(f, "C %s\t%.1f ns\t%s\t%s\n", what, ns, limit_text, ns <= limit ? "met" : "not met");
    fclose(f);
}

/* The decoders' times before issue 27's work (this bench, this machine), which
 * they must not exceed. */
#define ULID_DECODE_BEFORE_NS 17
#define UUID_DECODE_BEFORE_NS 16

int main(void)
{
    static const char secret[] = "bench-secret-0123456789abcdef";
    long n = 1000000;

    mintid_random_bytes(&ids[0][0], sizeof ids, err);
    mintid_ulid_gen_init(&ulid_g);
    mintid_uuid7_gen_init(&uuid7_g);
    if (mintid_relative_gen_init(&rel_g, (const uint8_t *)secret, sizeof secret - 1, NULL, 0, err) ||
        mintid_snowflake_gen_init(&snow_g, 7, 1288834974657, err) ||
        mintid_nanoid_spec_default(&nano_default, err) ||
        mintid_nanoid_spec_init(&nano_hex, (const uint8_t *)"0123456789abcdef", 16, 16, err) ||
        init_snowflake16()) {
        fprintf(stderr, "bench/core: %s\n", err);
        return 1;
    }
    warm_up(op_ulid);
    printf("C core alone (no Lua), best of %d rounds of %ld calls\n", ROUNDS, n);
    printf("parts of a call:\n");
    {
        double clock_ns = row("  clock_gettime(CLOCK_REALTIME)", op_clock_gettime, n);
        double ulid_enc, uuid_enc, ulid_dec, uuid_dec, pool, uuid4, nanoid, trace, ulid, uuid7;
        char limit[64];

        row("  pthread mutex lock + unlock", op_lock_pair, n);
        ulid_enc = row("  ULID text encoding (26 chars)", op_ulid_encode, n);
        uuid_enc = row("  UUID text encoding (36 chars)", op_uuid_encode, n);
        ulid_dec = row("  ULID text decoding (mintid_ulid_decode)", op_ulid_decode, n);
        uuid_dec = row("  UUID text decoding (mintid_uuid_decode)", op_uuid_decode, n);
        printf("ChaCha20 keystream, 1 KiB in one call, by implementation (the pool's: %s):\n",
               mintid_chacha20_name(mintid_chacha20_best()));
        for (chacha_impl = 0; chacha_impl < MINTID_CHACHA20_IMPLS; chacha_impl++) {
            char name[64];
            double ns;

            if (mintid_chacha20_blocks_by(chacha_impl, keystream, 0, keystream, keystream, 1) != MINTID_OK)
                continue; /* not in this build or on this CPU */
            ns = time_op(op_chacha_1k, n / 100);
            snprintf(name, sizeof name, "  %s", mintid_chacha20_name(chacha_impl));
            printf("%-44s %8.1f ns (%.2f bytes/ns)\n", name, ns, 1024 / ns);
        }
        printf("randomness source, per 16 bytes:\n");
        row("  OS (getrandom)", op_os_random, n / 10);
        pool = row("  pool (user-space ChaCha20)", op_pool_random, n);
        printf("whole ID calls (clock, lock, random, step, text):\n");
        ulid = row("  mintid_ulid_text", op_ulid, n);
        uuid7 = row("  mintid_uuid7_text", op_uuid7, n);
        uuid4 = row("  mintid_uuid4_text", op_uuid4, n);
        nanoid = row("  mintid_nanoid_text (21, default)", op_nanoid, n);
        trace = row("  mintid_trace_id_text", op_trace_id, n);
        row("  mintid_ulid_gen_next_text", op_ulid_gen, n);
        row("  mintid_uuid7_gen_next_text", op_uuid7_gen, n);
        row("  mintid_relative_gen_next_text (same key)", op_relative_gen, n);
        row("  mintid_snowflake_gen_next_text", op_snowflake_gen, n);
        row("  mintid_nanoid_text (16, hex)", op_nanoid_hex, n);

        target("pool, 16 bytes", pool, 8, "<= 8 ns");
        target("ULID text encoding", ulid_enc, 5, "<= 5 ns");
        target("UUID text encoding", uuid_enc, 5, "<= 5 ns");
        snprintf(limit, sizeof limit, "<= %d ns (before)", ULID_DECODE_BEFORE_NS);
        target("ULID text decoding", ulid_dec, ULID_DECODE_BEFORE_NS, limit);
        snprintf(limit, sizeof limit, "<= %d ns (before)", UUID_DECODE_BEFORE_NS);
        target("UUID text decoding", uuid_dec, UUID_DECODE_BEFORE_NS, limit);
        target("mintid_uuid4_text", uuid4, 20, "<= 20 ns");
        target("mintid_nanoid_text (21)", nanoid, 20, "<= 20 ns");
        target("mintid_trace_id_text", trace, 20, "<= 20 ns");
        /* Against the clock read in the same rounds. */
        time_pair(op_ulid, op_clock_gettime, n, &ulid, &clock_ns);
        snprintf(limit, sizeof limit, "<= clock %.1f + 15 ns", clock_ns);
        target("mintid_ulid_text (clock in turn)", ulid, clock_ns + 15, limit);
        time_pair(op_uuid7, op_clock_gettime, n, &uuid7, &clock_ns);
        snprintf(limit, sizeof limit, "<= clock %.1f + 15 ns", clock_ns);
        target("mintid_uuid7_text (clock in turn)", uuid7, clock_ns + 15, limit);
    }
    printf("snowflake: static machine_id against a lease fence (16 generators in turn):\n");
    {
        double st = time_op(op_snowflake16, n), le = time_op(op_leased16, n), ti = time_op(op_timed16, n);
        printf("%-44s %8.1f ns\n", "  static machine_id", st);
        printf("%-44s %8.1f ns (%.2fx; target within 1.10x)\n", "  lease, no deadline (a lock file)", le, le / st);
        printf("%-44s %8.1f ns (%.2fx)\n", "  lease with a deadline (Redis)", ti, ti / st);
    }
    mintid_relative_gen_wipe(&rel_g);
    return 0;
}
