/*
 * bench/core.c (make bench): the C core alone, no Lua. Time per call of
 * each whole ID call of the ABI (clock, lock, pool, step, text), of its
 * parts (the clock, a lock pair, the text encodings) and of the randomness
 * source per 16 bytes: the OS (getrandom) against the pool's user-space
 * ChaCha20 generator. Each figure is the best of ROUNDS rounds, every row's
 * rounds in turn with the others'. Prints figures;
 * never fails on timing.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mintid.h"
#include "internal.h" /* the pool, the OS source and SHA3-512, timed alone */

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

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

static void op_clock_gettime(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    sink ^= (uint8_t)ts.tv_nsec;
}

/* The ms the core's clocked kinds use: a read of the clock above on every
 * call (doc/design.md "The wall clock's millisecond"). */
static void op_clock_ms(void)
{
    int64_t ms = 0;

    mintid_os_clock_ms(&ms, NULL);
    sink ^= (uint8_t)ms;
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

/* Each fence is held as a take leaves it: with a floor, the wall ms of
 * the take (here a second back, so that no ID waits for it), which every
 * ID is checked against; the one with a deadline, as a Redis lease's, also
 * with the last ms it gave its store (an hour on). */
static int init_snowflake16(void)
{
    int64_t floor_ms = 0;
    int i;

    if (mintid_os_clock_ms(&floor_ms, err) != MINTID_OK)
        return -1;
    floor_ms -= 1000;
    for (i = 0; i < 16; i++) {
        mintid_fence_init(&fences[i]);
        mintid_fence_init(&timed_fences[i]);
        if (mintid_snowflake_gen_init(&snow16[i], i, 1288834974657, err) ||
            mintid_fence_hold(&fences[i], i, MINTID_FENCE_FOREVER, floor_ms, err) ||
            mintid_snowflake_gen_init_fenced(&leased16[i], &fences[i], 1288834974657, err) ||
            mintid_fence_hold_until(&timed_fences[i], i, 3600000, floor_ms, floor_ms + 3600000, err) ||
            mintid_snowflake_gen_init_fenced(&timed16[i], &timed_fences[i], 1288834974657, err))
            return -1;
    }
    /* The rows time IDs, not refusals (their calls drop the result). */
    for (i = 0; i < 16; i++) {
        char out[20];

        if (mintid_snowflake_gen_next_text(&leased16[i], out, err) < 0 ||
            mintid_snowflake_gen_next_text(&timed16[i], out, err) < 0)
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

/* ---- issue 39's kinds ---- */
static mintid_short_uuid_alphabet flickr;
static mintid_sqids *sqids_default;
static uint64_t sqids_number = UINT64_C(0x3fffffffffffffff); /* 63 bits, a new one each call */

static void op_objectid(void)
{
    char out[24];

    mintid_objectid_text(out, err);
    sink ^= (uint8_t)out[23];
}

static void op_xid(void)
{
    char out[20];

    mintid_xid_text(out, err);
    sink ^= (uint8_t)out[19];
}

static void op_short_uuid_encode(void)
{
    char out[MINTID_SHORT_UUID_MAX_LEN];

    mintid_short_uuid_encode(&flickr, ids[id_turn++ & 63], out);
    sink ^= (uint8_t)out[0];
}

static void op_sqids_encode(void)
{
    char out[32];
    uint64_t n = sqids_number--;

    mintid_sqids_encode(sqids_default, &n, 1, out, err);
    sink ^= (uint8_t)out[0];
}

static void op_cuid2(void)
{
    char out[32];

    mintid_cuid2_text(24, out, err);
    sink ^= (uint8_t)out[0];
}

/* What a CUID2 hashes: about 70 bytes, one block of SHA3-512's 72-byte
 * rate, so one Keccak-f[1600] permutation. */
#define SHA3_MESSAGE 70
static uint8_t sha3_message[SHA3_MESSAGE];

static void op_sha3_512(void)
{
    uint8_t digest[64];

    sha3_message[0]++;
    mintid_sha3_512(sha3_message, sizeof sha3_message, digest);
    sink ^= digest[0];
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

/* The timed rows: a label, an op, calls per round (n / div) and the best
 * round's ns per call. Every row's rounds run in turn with every other
 * row's (ROUNDS passes over them all), so that a slow stretch of the
 * machine, which lasts seconds on these VMs, takes no row's every round,
 * and the clock and the calls that read it are timed in the same passes. */
typedef struct {
    const char *label;
    op_fn op;
    long div;
    double ns;
} timed_row;

enum {
    CLOCK, CLOCK_MS, LOCK, ULID_ENC, UUID_ENC, ULID_DEC, UUID_DEC,
    OS_RANDOM, POOL,
    ULID, UUID7, UUID4, NANOID, TRACE, ULID_GEN, UUID7_GEN, REL_GEN, SNOW_GEN, NANOID_HEX,
    SNOW16, LEASED16, TIMED16,
    OBJECTID, XID, SHORT_UUID_ENC, SQIDS_ENC, CUID2, SHA3_512,
    ROWS
};

static timed_row rows[ROWS] = {
    [CLOCK] = { "  clock_gettime(CLOCK_REALTIME)", op_clock_gettime, 1, 0 },
    [CLOCK_MS] = { "  wall clock ms (mintid_os_clock_ms)", op_clock_ms, 1, 0 },
    [LOCK] = { "  pthread mutex lock + unlock", op_lock_pair, 1, 0 },
    [ULID_ENC] = { "  ULID text encoding (26 chars)", op_ulid_encode, 1, 0 },
    [UUID_ENC] = { "  UUID text encoding (36 chars)", op_uuid_encode, 1, 0 },
    [ULID_DEC] = { "  ULID text decoding (mintid_ulid_decode)", op_ulid_decode, 1, 0 },
    [UUID_DEC] = { "  UUID text decoding (mintid_uuid_decode)", op_uuid_decode, 1, 0 },
    [OS_RANDOM] = { "  OS (getrandom)", op_os_random, 10, 0 },
    [POOL] = { "  pool (user-space ChaCha20)", op_pool_random, 1, 0 },
    [ULID] = { "  mintid_ulid_text", op_ulid, 1, 0 },
    [UUID7] = { "  mintid_uuid7_text", op_uuid7, 1, 0 },
    [UUID4] = { "  mintid_uuid4_text", op_uuid4, 1, 0 },
    [NANOID] = { "  mintid_nanoid_text (21, default)", op_nanoid, 1, 0 },
    [TRACE] = { "  mintid_trace_id_text", op_trace_id, 1, 0 },
    [ULID_GEN] = { "  mintid_ulid_gen_next_text", op_ulid_gen, 1, 0 },
    [UUID7_GEN] = { "  mintid_uuid7_gen_next_text", op_uuid7_gen, 1, 0 },
    [REL_GEN] = { "  mintid_relative_gen_next_text (same key)", op_relative_gen, 1, 0 },
    [SNOW_GEN] = { "  mintid_snowflake_gen_next_text", op_snowflake_gen, 1, 0 },
    [NANOID_HEX] = { "  mintid_nanoid_text (16, hex)", op_nanoid_hex, 1, 0 },
    [SNOW16] = { "static", op_snowflake16, 1, 0 },
    [LEASED16] = { "lease, no deadline", op_leased16, 1, 0 },
    [TIMED16] = { "lease with a deadline", op_timed16, 1, 0 },
    [OBJECTID] = { "  mintid_objectid_text", op_objectid, 1, 0 },
    [XID] = { "  mintid_xid_text", op_xid, 1, 0 },
    [SHORT_UUID_ENC] = { "  short UUID encoding (flickrBase58, 22)", op_short_uuid_encode, 1, 0 },
    [SQIDS_ENC] = { "  Sqids encoding of one 63-bit number", op_sqids_encode, 1, 0 },
    [CUID2] = { "  mintid_cuid2_text (24)", op_cuid2, 4, 0 },
    [SHA3_512] = { "  SHA3-512 of 70 bytes (one permutation)", op_sha3_512, 4, 0 },
};

static void time_rows(long n)
{
    int r, i;

    for (r = 0; r < ROUNDS; r++)
        for (i = 0; i < ROWS; i++) {
            double ns = time_op_once(rows[i].op, n / rows[i].div);

            if (r == 0 || ns < rows[i].ns)
                rows[i].ns = ns;
        }
}

static void print_rows(int first, int last)
{
    int i;

    for (i = first; i <= last; i++)
        printf("%-44s %8.1f ns\n", rows[i].label, rows[i].ns);
}

/* SHA3-512's rate in time-stamp counter ticks per byte of its 72-byte
 * block: the best of ROUNDS rounds. The TSC ticks at a fixed rate (the
 * CPU's nominal clock), which a core running above it beats; -1 where
 * there is no TSC to read. */
static double sha3_ticks_per_byte(long n)
{
#ifdef HAVE_TSC
    double best = -1;
    int r;

    for (r = 0; r < ROUNDS; r++) {
        unsigned long long t0 = __rdtsc();
        double per;
        long i;

        for (i = 0; i < n; i++)
            op_sha3_512();
        per = (double)(__rdtsc() - t0) / (double)n / 72;
        if (r == 0 || per < best)
            best = per;
    }
    return best;
#else
    (void)n;
    return -1;
#endif
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
        init_snowflake16() ||
        mintid_short_uuid_alphabet_init(&flickr, (const uint8_t *)MINTID_SHORT_UUID_FLICKR,
                                        sizeof MINTID_SHORT_UUID_FLICKR - 1, err)) {
        fprintf(stderr, "bench/core: %s\n", err);
        return 1;
    }
    {
        const uint8_t *alphabet = (const uint8_t *)mintid_sqids_default_alphabet;
        size_t size = mintid_sqids_size(alphabet, sizeof mintid_sqids_default_alphabet - 1, NULL, NULL, 0);

        sqids_default = malloc(size);
        if (sqids_default == NULL ||
            mintid_sqids_init(sqids_default, size, alphabet, sizeof mintid_sqids_default_alphabet - 1, 0, NULL, NULL, 0,
                              err) != MINTID_OK) {
            fprintf(stderr, "bench/core: %s\n", sqids_default == NULL ? "out of memory" : err);
            return 1;
        }
    }
    warm_up(op_ulid);
    time_rows(n);
    printf("C core alone (no Lua), best of %d rounds of %ld calls, every row's rounds in turn\n", ROUNDS, n);
    printf("parts of a call:\n");
    print_rows(CLOCK, UUID_DEC);
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
    print_rows(OS_RANDOM, POOL);
    printf("whole ID calls (clock, lock, random, step, text):\n");
    print_rows(ULID, NANOID_HEX);
    printf("snowflake: static machine_id against a lease fence (16 generators in turn):\n");
    printf("%-44s %8.1f ns\n", "  static machine_id", rows[SNOW16].ns);
    printf("%-44s %8.1f ns (%.2fx; target within 1.10x)\n", "  lease, no deadline (a lock file)", rows[LEASED16].ns,
           rows[LEASED16].ns / rows[SNOW16].ns);
    printf("%-44s %8.1f ns (%.2fx)\n", "  lease with a deadline (Redis)", rows[TIMED16].ns,
           rows[TIMED16].ns / rows[SNOW16].ns);
    printf("issue 39's kinds:\n");
    print_rows(OBJECTID, CUID2);
    {
        double ticks = sha3_ticks_per_byte(n / 4);

        if (ticks > 0)
            printf("%-44s %8.1f ns (%.1f TSC ticks per byte of its 72-byte block)\n", rows[SHA3_512].label,
                   rows[SHA3_512].ns, ticks);
        else
            print_rows(SHA3_512, SHA3_512);
    }
    {
        char limit[64];

        target("pool, 16 bytes", rows[POOL].ns, 8, "<= 8 ns");
        target("ULID text encoding", rows[ULID_ENC].ns, 5, "<= 5 ns");
        target("UUID text encoding", rows[UUID_ENC].ns, 5, "<= 5 ns");
        snprintf(limit, sizeof limit, "<= %d ns (before)", ULID_DECODE_BEFORE_NS);
        target("ULID text decoding", rows[ULID_DEC].ns, ULID_DECODE_BEFORE_NS, limit);
        snprintf(limit, sizeof limit, "<= %d ns (before)", UUID_DECODE_BEFORE_NS);
        target("UUID text decoding", rows[UUID_DEC].ns, UUID_DECODE_BEFORE_NS, limit);
        target("mintid_uuid4_text", rows[UUID4].ns, 20, "<= 20 ns");
        target("mintid_nanoid_text (21)", rows[NANOID].ns, 20, "<= 20 ns");
        target("mintid_trace_id_text", rows[TRACE].ns, 20, "<= 20 ns");
        /* Against the clock read in the same rounds. */
        snprintf(limit, sizeof limit, "<= clock %.1f + 15 ns", rows[CLOCK].ns);
        target("mintid_ulid_text", rows[ULID].ns, rows[CLOCK].ns + 15, limit);
        target("mintid_uuid7_text", rows[UUID7].ns, rows[CLOCK].ns + 15, limit);
    }
    mintid_relative_gen_wipe(&rel_g);
    free(sqids_default);
    return 0;
}
