/*
 * mintid.h: the C core of mintid, with no Lua dependency.
 *
 * Every rule here is one of ../SPEC.md (shipped as the project's contract).
 * The core is plain C99 with <stdint.h> types; byte strings are big-endian
 * by construction (shifts, never casts), so it runs the same on any host.
 *
 * Conventions of this ABI
 * - Functions that can fail return MINTID_OK (0) or a negative MINTID_E*
 *   code. Those that take `char *err` write a one-line, NUL-terminated
 *   message of at most MINTID_ERRMSG_SIZE bytes there (err may be NULL).
 *   Messages are lowercase fragments with no final full stop, e.g.
 *   "invalid ULID: bad character 'U' at 7" (positions are 1-based).
 * - On any error nothing is published and generator state is unchanged;
 *   an output buffer may have been partly written and must not be used.
 * - Output buffers have fixed sizes (uint8_t out[16], char out[26]); text
 *   outputs are NOT NUL-terminated.
 * - Timestamps are Unix milliseconds as int64_t, so a negative reading is
 *   representable and rejected with MINTID_ERANGE.
 *
 * Using mintid from C, with no Lua (a supported interface)
 * - Build: compile build/amalgamation/mintid.c (make amalgamation) with
 *   -DMINTID_NO_LUA next to this header, or link build/libmintid.a (make
 *   lib; a program that never names luaopen_mintid pulls no Lua code from
 *   it). Link with -pthread (POSIX) or -lbcrypt (Windows). A program calls
 *   only the MINTID_API functions; the MINTID_INTERNAL ones are the core's
 *   own (static in the single file).
 * - Minting: mintid_ulid_text, mintid_uuid7_text and mintid_uuid4_text use
 *   the process-wide default generators. A generator of one's own is a
 *   struct in the caller's memory, set up by its *_init function:
 *     ULID      mintid_ulid_gen + mintid_ulid_gen_next_text  -> char[26]
 *     UUIDv7    mintid_uuid7_gen + mintid_uuid7_gen_next_text -> char[36]
 *     relative  mintid_relative_gen_init(secret of >= 16 bytes, salt) +
 *               mintid_relative_gen_next_text(key)            -> char[28];
 *               mintid_relative_gen_tag + mintid_relative_prefix give a
 *               key's 7-char prefix; mintid_relative_gen_wipe when done
 *               (the struct is secret-equivalent)
 *     Snowflake mintid_snowflake_gen_init(machine_id 0..1023, epoch) +
 *               mintid_snowflake_gen_next_text -> 1..20 digits (returns the
 *               length), EAGAIN when 4096 IDs of one ms were used and the
 *               clock did not move on within max_wait_ms
 *     Nano ID   mintid_nanoid_spec_init(alphabet, size) + mintid_nanoid_text
 *               -> char[size]
 *   Sizes: MINTID_ULID_TEXT_LEN, MINTID_UUID_TEXT_LEN,
 *   MINTID_RELATIVE_TEXT_LEN, MINTID_RELATIVE_PREFIX_LEN,
 *   MINTID_SNOWFLAKE_DECIMAL_MAX; add 1 for a NUL of your own.
 * - Parsing: mintid_ulid_decode, mintid_uuid_decode (either case, version
 *   in id[6] >> 4) and mintid_relative_decode (28- or 26-char form) give the
 *   16 bytes, EPARSE with the reason in err for bad text; *_encode write
 *   the canonical text back. mintid_snowflake_parse_decimal gives the
 *   64-bit ID and mintid_snowflake_split its timestamp, machine and
 *   sequence. mintid_ulid_to_uuid_text and mintid_uuid_to_ulid_text convert.
 * - Errors: the return code says which kind of failure (MINTID_E* below;
 *   mintid_strerror(code) names it), err says what and where, in the same
 *   words the Lua module uses. ERANDOM and ECLOCK are the OS failing; EARG
 *   a caller's mistake (a short secret, a machine id of 5000); EFORK a
 *   snowflake generator used in a process forked after its init.
 * - Threads: the default generators and the random pool are locked, shared
 *   by every thread, and start afresh in a forked child. The decode, encode
 *   and conversion functions keep no state. A generator struct of your own
 *   is not locked: use it from one thread at a time (a snowflake generator
 *   may be shared where GCC/clang do 64-bit compare-and-swap inline; see
 *   snowflake.c). Every monotonic generator draws afresh after a fork.
 * examples/embed/mint.c does each of these.
 */
#ifndef MINTID_H
#define MINTID_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MINTID_VERSION "0.1.0"

/* MINTID_API marks the functions the shared object exports: the ABI for
 * foreign callers (LuaJIT's FFI, C programs). The core's files include this
 * header through internal.h, which makes every other name hidden, so the
 * module adds only luaopen_mintid and the MINTID_API functions to a host's
 * symbol table, whatever flags the build passes. */
#if defined(_WIN32)
#define MINTID_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define MINTID_API __attribute__((visibility("default")))
#else
#define MINTID_API
#endif

/* MINTID_INTERNAL marks the core's own functions and tables: declared in
 * this header (and internal.h) for the core's files and tests, but not part
 * of the ABI. In the split build they are extern and hidden (internal.h);
 * the single-file build (make amalgamation) defines MINTID_INTERNAL as
 * static first, as Lua's onelua.c does with LUAI_FUNC, so they never reach
 * a host's symbol table there either. A table's definition carries
 * MINTID_INTERNAL_DATA (nothing, or static), since `extern` there would
 * declare rather than define it. */
#ifndef MINTID_INTERNAL
#define MINTID_INTERNAL extern
#endif
#ifndef MINTID_INTERNAL_DATA
#define MINTID_INTERNAL_DATA
#endif

/* Aligns a 64-bit field to 8 bytes. i386 ABIs align uint64_t struct fields
 * to 4 only, and a 64-bit atomic on such a field is either refused (clang
 * -Watomic-alignment) or compiled to libatomic calls the module does not
 * link. A compiler that is neither GNU-like nor C11 gets nothing, which is
 * harmless: snowflake.c uses atomics only under __GNUC__/__clang__. */
#if defined(__GNUC__) || defined(__clang__)
#define MINTID_ALIGNED8 __attribute__((aligned(8)))
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define MINTID_ALIGNED8 _Alignas(8)
#else
#define MINTID_ALIGNED8
#endif

/* Status codes: 0 is success, every error is negative. */
#define MINTID_OK          0
#define MINTID_EPARSE     (-1) /* text or bytes that are not a valid ID */
#define MINTID_ERANGE     (-2) /* timestamp or field outside its range */
#define MINTID_EOVERFLOW  (-3) /* monotonic counter would pass its maximum */
#define MINTID_ERANDOM    (-4) /* the randomness source failed */
#define MINTID_ECLOCK     (-5) /* the clock could not be read */
#define MINTID_EAGAIN     (-6) /* snowflake: sequence exhausted; read the clock again, or waited max_wait_ms */
#define MINTID_EARG       (-7) /* an argument outside its documented domain */
#define MINTID_ENOMEM     (-8) /* an allocation failed */
#define MINTID_EFORK      (-9) /* snowflake: generator made before a fork(), in another process */

#define MINTID_ERRMSG_SIZE 128

#define MINTID_MAX_MS            INT64_C(0xFFFFFFFFFFFF) /* 2^48 - 1 */
#define MINTID_ULID_TEXT_LEN     26
#define MINTID_UUID_TEXT_LEN     36
#define MINTID_RELATIVE_TEXT_LEN 28
#define MINTID_RELATIVE_PREFIX_LEN 7 /* "TAG6CH-" */
#define MINTID_RELATIVE_MIN_SECRET 16
#define MINTID_SNOWFLAKE_DECIMAL_MAX 20 /* digits of 2^64 - 1 */
#define MINTID_NANOID_DEFAULT_SIZE 21
#define MINTID_NANOID_MAX_SIZE   1048576 /* a larger request is a misuse, not a need */

/*
 * A source of randomness: fill buf with exactly n bytes and return
 * MINTID_OK, or return a negative code (normally MINTID_ERANDOM).
 * mintid_random_pool below is the default; bindings pass their own to
 * inject test streams. Generators call it only when SPEC.md says to draw.
 */
typedef int (*mintid_random_fn)(void *ctx, uint8_t *buf, size_t n);

MINTID_API const char *mintid_strerror(int code);

/* ---- random.c: OS CSPRNG and the process-wide pool ---------------------- */
/* Direct read from the OS (getrandom, retried on EINTR and short reads;
 * /dev/urandom where getrandom is missing). */
MINTID_INTERNAL int mintid_os_random(uint8_t *buf, size_t n, char *err);
/* From the process-wide pool: a ChaCha20 generator keyed from the OS (fast
 * key erasure, a new OS key after 1 MiB). Thread-safe; a forked child never
 * continues its parent's pool. Requests over 992 bytes read the OS directly. */
MINTID_INTERNAL int mintid_random_bytes(uint8_t *buf, size_t n, char *err);
/* mintid_random_bytes as a mintid_random_fn. ctx is NULL or a
 * char[MINTID_ERRMSG_SIZE] that receives the OS's reason on failure: pass
 * the err buffer of the generator call as ctx, and that call's message is
 * "OS random source failed: <strerror text>" instead of a generic one. */
MINTID_INTERNAL int mintid_random_pool(void *ctx, uint8_t *buf, size_t n);
/* Overwrite memory in a way the compiler may not elide (secrets). */
MINTID_INTERNAL void mintid_secure_zero(void *p, size_t n);

/* ---- clock.c ------------------------------------------------------------ */
MINTID_INTERNAL int mintid_clock_ms(int64_t *now_ms, char *err);

/* ---- base32.c: Crockford base32, SPEC alphabet, no aliases --------------- */
MINTID_INTERNAL const char mintid_base32_alphabet[33]; /* "0123456789ABCDEFGHJKMNPQRSTVWXYZ" */
/* 0..31 for a symbol of the alphabet in either case, -1 for anything else
 * (I, L, O, U included). */
MINTID_INTERNAL int mintid_base32_value(unsigned char c);

/* ---- monotonic.c: the (last_ms, last_rand) rule shared by ULID, UUIDv7 and
 * relative IDs. The counter is an unsigned big-endian integer of `bits` bits
 * (at most 80), right-aligned in counter[10]. ---------------------------- */
typedef struct {
    /* -1 for a new generator: every valid now_ms is greater, so its first
     * call always draws, even at ms 0. */
    int64_t last_ms;
    uint8_t counter[10];
    /* The process (fork generation) last_ms and counter belong to: in a
     * process forked after they were set, the next call draws afresh, as a
     * new generator's first call does, so parent and child never continue
     * one counter. */
    uint32_t generation;
} mintid_monotonic;

MINTID_INTERNAL void mintid_monotonic_init(mintid_monotonic *st);

/* ---- ulid.c ------------------------------------------------------------- */
MINTID_INTERNAL int  mintid_ulid_from_parts(int64_t ms, const uint8_t rand[10], uint8_t out[16], char *err);
MINTID_API void mintid_ulid_encode(const uint8_t id[16], char out[26]);
MINTID_API int  mintid_ulid_decode(const char *text, size_t len, uint8_t out[16], char *err);
MINTID_INTERNAL int64_t mintid_ulid_time(const uint8_t id[16]); /* bytes 0..5; also UUIDv7's */

typedef struct { mintid_monotonic st; } mintid_ulid_gen;
MINTID_API void mintid_ulid_gen_init(mintid_ulid_gen *g);
/* SPEC monotonic ULID: 10 fresh bytes when now > last_ms (or first call),
 * else the 80-bit counter + 1; EOVERFLOW / ERANGE leave g unchanged. */
MINTID_INTERNAL int  mintid_ulid_gen_next(mintid_ulid_gen *g, int64_t now_ms,
                                          mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);

/* ---- uuid.c: RFC 9562 UUIDv4 / UUIDv7 ----------------------------------- */
MINTID_API void mintid_uuid_encode(const uint8_t id[16], char out[36]); /* lowercase */
MINTID_API int  mintid_uuid_decode(const char *text, size_t len, uint8_t out[16], char *err);
MINTID_INTERNAL unsigned mintid_uuid_version(const uint8_t id[16]); /* b[6] >> 4 */
/* b[6] = (b[6] & 0x0F) | version << 4; b[8] = (b[8] & 0x3F) | 0x80 */
MINTID_INTERNAL void mintid_uuid_set_version(uint8_t id[16], unsigned version);
MINTID_INTERNAL int  mintid_uuid4_make(mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);
MINTID_INTERNAL int  mintid_uuid7_from_parts(int64_t ms, const uint8_t rand[10], uint8_t out[16], char *err);

typedef struct { mintid_monotonic st; } mintid_uuid7_gen;
MINTID_API void mintid_uuid7_gen_init(mintid_uuid7_gen *g);
/* SPEC monotonic UUIDv7: the 74-bit counter rand_a << 62 | rand_b. */
MINTID_INTERNAL int  mintid_uuid7_gen_next(mintid_uuid7_gen *g, int64_t now_ms,
                                           mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);

/* ---- sha256.c: FIPS 180-4 SHA-256 and RFC 2104 HMAC ---------------------- */
typedef struct {
    uint32_t h[8];
    uint64_t length;     /* bytes absorbed so far */
    uint8_t block[64];
    size_t used;         /* bytes waiting in block */
} mintid_sha256_ctx;

MINTID_INTERNAL void mintid_sha256_init(mintid_sha256_ctx *c);
MINTID_INTERNAL void mintid_sha256_update(mintid_sha256_ctx *c, const uint8_t *data, size_t n);
MINTID_INTERNAL void mintid_sha256_final(mintid_sha256_ctx *c, uint8_t digest[32]);
MINTID_INTERNAL void mintid_sha256(const uint8_t *data, size_t n, uint8_t digest[32]);
/* The two contexts every HMAC with this key starts from: inner has absorbed
 * K0 ^ ipad, outer K0 ^ opad. Secret-equivalent: sha256_final wipes them,
 * a caller that keeps them wipes them itself (mintid_secure_zero). Then
 * HMAC(key, msg) = final(outer + final(inner + msg)). */
MINTID_INTERNAL void mintid_hmac_sha256_init(mintid_sha256_ctx *inner, mintid_sha256_ctx *outer,
                                             const uint8_t *key, size_t key_len);
MINTID_INTERNAL void mintid_hmac_sha256(const uint8_t *key, size_t key_len,
                                        const uint8_t *msg, size_t msg_len, uint8_t mac[32]);

/* ---- relative.c: relative IDs (tag << 98 | ms << 50 | rand) -------------- */
#define MINTID_RELATIVE_MAX_TAG  UINT32_C(0x3FFFFFFF)          /* 2^30 - 1 */
#define MINTID_RELATIVE_MAX_RAND UINT64_C(0x3FFFFFFFFFFFF)     /* 2^50 - 1 */

/* tag = BE32(HMAC-SHA-256(secret, BE32(len(salt)) || salt || key)[0..4]) >> 2 */
MINTID_INTERNAL int  mintid_relative_tag(const uint8_t *secret, size_t secret_len,
                                         const uint8_t *salt, size_t salt_len,
                                         const uint8_t *key, size_t key_len,
                                         uint32_t *tag, char *err); /* EARG: secret < 16 bytes */
/* ERANGE for a tag, ms or rand outside its field (negative ones included:
 * the parts are host integers, checked here for every binding). */
MINTID_INTERNAL int  mintid_relative_from_parts(int64_t tag, int64_t ms, int64_t rand,
                                                uint8_t out[16], char *err);
MINTID_INTERNAL void mintid_relative_split(const uint8_t id[16], uint32_t *tag, int64_t *ms, uint64_t *rand);
MINTID_API void mintid_relative_encode(const uint8_t id[16], char out[28]);
MINTID_API void mintid_relative_prefix(uint32_t tag, char out[7]);
/* the 28-char form (hyphens at offsets 6 and 17) or the same 26 chars */
MINTID_API int  mintid_relative_decode(const char *text, size_t len, uint8_t out[16], char *err);

#define MINTID_RELATIVE_CACHED_KEY_MAX 64 /* longer keys are always hashed */

typedef struct {
    /* HMAC key schedule with BE32(len(salt)) || salt already absorbed:
     * secret-equivalent, wiped by mintid_relative_gen_wipe. */
    mintid_sha256_ctx inner, outer;
    mintid_monotonic st; /* one state for every key, 50-bit counter */
    /* One-entry cache of the last key gen_next saw and its tag, so a run
     * of IDs for one key skips the HMAC (gen_tag reads it, never fills it).
     * A (key, tag) pair is derived from the secret, so
     * mintid_relative_gen_wipe wipes it too. */
    uint8_t cached_key[MINTID_RELATIVE_CACHED_KEY_MAX];
    size_t cached_len;
    uint32_t cached_tag;
    int cached; /* 0 until gen_next has stored a key */
} mintid_relative_gen;

MINTID_API int  mintid_relative_gen_init(mintid_relative_gen *g,
                                         const uint8_t *secret, size_t secret_len,
                                         const uint8_t *salt, size_t salt_len, char *err);
MINTID_API void mintid_relative_gen_wipe(mintid_relative_gen *g);
MINTID_API uint32_t mintid_relative_gen_tag(const mintid_relative_gen *g,
                                            const uint8_t *key, size_t key_len);
/* rand = BE56(7 fresh bytes) & (2^50 - 1) on a fresh ms, else counter + 1 */
MINTID_INTERNAL int  mintid_relative_gen_next(mintid_relative_gen *g, int64_t now_ms,
                                              const uint8_t *key, size_t key_len,
                                              mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);

/* ---- snowflake.c: 42-bit ms | 10-bit machine id | 12-bit sequence -------- */
#define MINTID_SNOWFLAKE_MAX_MACHINE 1023
/* How long gen_next waits for the clock to pass an exhausted ms: SPEC's
 * spin, bounded so that a clock stepped back an hour fails instead of
 * blocking a worker for an hour. */
#define MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS 1000
#define MINTID_SNOWFLAKE_MAX_WAIT_LIMIT_MS   60000
typedef struct {
    /* (last_ms - epoch) << 12 | seq; updated by compare-and-swap, hence
     * MINTID_ALIGNED8. */
    MINTID_ALIGNED8 uint64_t state;
    int64_t epoch;
    int64_t max_wait_ms; /* gen_init sets the default; gen_set_max_wait changes it */
    uint32_t machine_id;
    /* The process (fork generation) the generator was made in. Its machine
     * id is all that keeps processes apart, so in a forked child it refuses
     * (MINTID_EFORK) rather than continue the parent's sequence. */
    uint32_t generation;
} mintid_snowflake_gen;

/* EARG for a machine_id outside 0..1023 or a negative epoch. */
MINTID_API int  mintid_snowflake_gen_init(mintid_snowflake_gen *g, int64_t machine_id,
                                          int64_t epoch, char *err);
/* The epochs gen_init takes (parse_snowflake's must be one of them). */
MINTID_API int  mintid_snowflake_check_epoch(int64_t epoch, char *err);
/* One attempt at now_ms: MINTID_OK, ERANGE (now - epoch negative or not in
 * 42 bits), EFORK (made in another process: make one per process, each with
 * its own machine_id), or EAGAIN when 4096 IDs were already given at last_ms and
 * now_ms has not passed it (the caller reads its clock again). */
MINTID_INTERNAL int  mintid_snowflake_gen_try(mintid_snowflake_gen *g, int64_t now_ms,
                                              uint64_t *id, char *err);
/* EARG unless 0 <= max_wait_ms <= MINTID_SNOWFLAKE_MAX_WAIT_LIMIT_MS. */
MINTID_INTERNAL int  mintid_snowflake_gen_set_max_wait(mintid_snowflake_gen *g, int64_t max_wait_ms, char *err);
/* After gen_try's EAGAIN at now_ms: MINTID_OK if the clock has to pass
 * last_ms within g->max_wait_ms (read it again), else EAGAIN with
 * "snowflake: clock moved back N ms ..." (or, at the same ms, "snowflake:
 * 4096 IDs used at ms ..."). Lets a caller with its own clock share the
 * bound that gen_next applies to the OS clock. */
MINTID_INTERNAL int  mintid_snowflake_gen_may_wait(const mintid_snowflake_gen *g, int64_t now_ms, char *err);
/* Loop over the OS clock until an ID is made (SPEC: spin), for at most
 * g->max_wait_ms of clock time; past it EAGAIN, state unchanged. */
MINTID_INTERNAL int  mintid_snowflake_gen_next(mintid_snowflake_gen *g, uint64_t *id, char *err);
MINTID_API void mintid_snowflake_split(uint64_t id, int64_t epoch,
                                       int64_t *timestamp, uint32_t *machine_id, uint32_t *sequence);
/* The timestamp of id, (id >> 22) + epoch, or ERANGE when it is above
 * max_timestamp (INT64_MAX for int64 hosts, 2^53 - 1 where integers are
 * doubles) and would wrap or lose precision. */
MINTID_API int  mintid_snowflake_timestamp(uint64_t id, int64_t epoch, int64_t max_timestamp,
                                           int64_t *timestamp, char *err);
/* Decimal text of 1..20 digits with no sign, space or leading '+'. */
MINTID_API int  mintid_snowflake_parse_decimal(const char *text, size_t len, uint64_t *id, char *err);
MINTID_INTERNAL size_t mintid_snowflake_format_decimal(uint64_t id, char out[20]); /* returns length */
/* ERANGE for an ID with bit 63 set, which a signed 64-bit host cannot hold
 * (SPEC): every binding refuses it alike, in these words. */
MINTID_INTERNAL int  mintid_snowflake_check_signed(uint64_t id, char *err);

/* ---- nanoid.c ---------------------------------------------------------- */
MINTID_INTERNAL const char mintid_nanoid_default_alphabet[65];

typedef struct {
    uint8_t alphabet[256];
    uint32_t n;     /* symbols, 1..256 */
    uint32_t mask;  /* smallest 2^k - 1 >= n - 1 */
    size_t size;    /* symbols per ID, 1..MINTID_NANOID_MAX_SIZE */
    size_t step;    /* random bytes per draw */
} mintid_nanoid_spec;

/* Symbols are single bytes. EARG (with a message) for an alphabet of 0 or
 * more than 256 bytes, one holding the same byte twice, one that is UTF-8
 * text with multi-byte characters, or a size outside 1..MAX_SIZE. */
MINTID_API int  mintid_nanoid_spec_init(mintid_nanoid_spec *s, const uint8_t *alphabet, size_t alen,
                                        int64_t size, char *err);
/* EARG unless 1 <= size <= MINTID_NANOID_MAX_SIZE. */
MINTID_INTERNAL int  mintid_nanoid_check_size(int64_t size, char *err);
/* The same alphabet at another size (the step depends on the size). */
MINTID_INTERNAL int  mintid_nanoid_spec_resize(mintid_nanoid_spec *s, int64_t size, char *err);
/* Writes exactly s->size bytes to out. Draws s->step bytes at a time. */
MINTID_INTERNAL int  mintid_nanoid_generate(const mintid_nanoid_spec *s, mintid_random_fn rnd, void *ctx,
                                            uint8_t *out, char *err);

/* ---- default.c: process-wide default generators ------------------------ */
/* Shared by every Lua state and thread of the process, guarded by a mutex;
 * fresh in a forked child, as every generator is (mintid_monotonic). */
MINTID_INTERNAL int mintid_default_ulid(uint8_t out[16], char *err);
MINTID_INTERNAL int mintid_default_uuid7(uint8_t out[16], char *err);
MINTID_INTERNAL int mintid_default_uuid4(uint8_t out[16], char *err);

/* ---- abi.c: whole calls for foreign callers ------------------------------
 * Each reads the OS clock, draws from the process-wide pool and writes the
 * text form in one call, so a caller through an FFI makes one crossing per
 * ID. Outputs are fixed-size and not NUL-terminated; nothing is allocated.
 * The return is MINTID_OK or a negative MINTID_E* code with err written,
 * except where a length is returned. Generator states are the structs
 * above, in the caller's memory, set up by their *_init functions. */
MINTID_API int mintid_ulid_text(char out[26], char *err);   /* default generators */
MINTID_API int mintid_uuid7_text(char out[36], char *err);
MINTID_API int mintid_uuid4_text(char out[36], char *err);
/* s->size bytes to out, from the pool (mintid_nanoid_spec_init makes s). */
MINTID_API int mintid_nanoid_text(const mintid_nanoid_spec *s, char *out, char *err);
MINTID_API int mintid_ulid_gen_next_text(mintid_ulid_gen *g, char out[26], char *err);
MINTID_API int mintid_uuid7_gen_next_text(mintid_uuid7_gen *g, char out[36], char *err);
MINTID_API int mintid_relative_gen_next_text(mintid_relative_gen *g, const uint8_t *key, size_t key_len,
                                             char out[28], char *err);
/* The decimal text of the next snowflake ID: returns its length (1..20) or
 * a negative code. An ID with bit 63 set is refused with ERANGE (SPEC: a
 * signed host could not hold it), the state left as it was. */
MINTID_API int mintid_snowflake_gen_next_text(mintid_snowflake_gen *g, char out[20], char *err);
/* The same 16 bytes in the other text form (EPARSE for bad text). */
MINTID_API int mintid_ulid_to_uuid_text(const char *text, size_t len, char out[36], char *err);
MINTID_API int mintid_uuid_to_ulid_text(const char *text, size_t len, char out[26], char *err);
/* sizeof of a struct of this header by its typedef name ("mintid_ulid_gen"),
 * 0 for any other name: an FFI checks its declarations against it. */
MINTID_API size_t mintid_abi_sizeof(const char *type_name);

#ifdef __cplusplus
}
#endif
#endif
