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
 *   it). Link with -pthread (POSIX) or -lbcrypt (Windows). This header is
 *   the whole interface: the core's own declarations are in src/internal.h
 *   (static in the single file), never reached by a program.
 * - Minting: mintid_ulid_text, mintid_uuid7_text, mintid_uuid4_text,
 *   mintid_uuid1_text, mintid_uuid6_text, mintid_ksuid_text,
 *   mintid_objectid_text, mintid_xid_text and
 *   mintid_typeid_text use the process-wide default generators;
 *   mintid_uuid3_text, _uuid5_text and _uuid8_sha256_text are name-based. A generator of one's own is an
 *   opaque struct in the caller's memory (a fixed size, aligned to 8, room
 *   left for later versions; its layout is the core's own), set up by its
 *   *_init function:
 *     ULID      mintid_ulid_gen + mintid_ulid_gen_next_text  -> char[26]
 *     UUIDv7    mintid_uuid7_gen + mintid_uuid7_gen_next_text -> char[36]
 *     UUIDv1/v6 mintid_uuid_time_gen_init(version 1 or 6, node, clock_seq)
 *               + mintid_uuid_time_gen_next_text              -> char[36]
 *     KSUID     mintid_ksuid_gen + mintid_ksuid_gen_next_text -> char[27]
 *     ObjectId  mintid_objectid_gen + mintid_objectid_gen_next_text -> char[24]
 *     XID       mintid_xid_gen_init(machine or NULL, pid or -1)
 *               + mintid_xid_gen_next_text                      -> char[20]
 *     TypeID    mintid_uuid7_gen + mintid_typeid_gen_next_text(prefix)
 *               -> up to char[90] (returns the length)
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
 *               -> char[size] (mintid_nanoid_spec_size tells the size)
 *     CUID2     mintid_cuid2_gen_init(length, fingerprint) +
 *               mintid_cuid2_gen_next_text -> up to char[32] (returns the
 *               length); mintid_cuid2_text from a process-wide one
 *     Sqids     mintid_sqids_init(alphabet, min_length, blocklist) in
 *               mintid_sqids_size() bytes + mintid_sqids_encode(numbers)
 *               -> char[mintid_sqids_encoded_len]; mintid_sqids_decode
 *   Sizes: MINTID_ULID_TEXT_LEN, MINTID_UUID_TEXT_LEN,
 *   MINTID_RELATIVE_TEXT_LEN, MINTID_RELATIVE_PREFIX_LEN,
 *   MINTID_SNOWFLAKE_DECIMAL_MAX; add 1 for a NUL of your own.
 * - Parsing: mintid_ulid_decode, mintid_uuid_decode (either case, version
 *   in id[6] >> 4) and mintid_relative_decode (28- or 26-char form) give the
 *   16 bytes, EPARSE with the reason in err for bad text; *_encode write
 *   the canonical text back. mintid_snowflake_parse_decimal gives the
 *   64-bit ID and mintid_snowflake_split its timestamp, machine and
 *   sequence. mintid_ulid_to_uuid_text and mintid_uuid_to_ulid_text convert.
 *   mintid_objectid_decode (either case) and mintid_xid_decode (rs/xid's
 *   strict rule) give 12 bytes.
 * - Errors: the return code says which kind of failure (MINTID_E* below;
 *   mintid_strerror(code) names it), err says what and where, in the same
 *   words the Lua module uses. ERANDOM and ECLOCK are the OS failing; EARG
 *   a caller's mistake (a short secret, a machine id of 5000); EFORK a
 *   snowflake generator used in a process forked after its init; ELEASE
 *   a snowflake generator outside its lease fence (mintid_fence).
 * - Threads: the default generators and the random pool are locked, shared
 *   by every thread, and start afresh in a forked child. The decode, encode
 *   and conversion functions keep no state. A generator struct of your own
 *   is not locked: use it from one thread at a time (a snowflake generator
 *   may be shared where GCC/clang do 64-bit compare-and-swap inline; see
 *   snowflake.c). Every monotonic generator draws afresh after a fork.
 * - Trace context: mintid_trace_id_text, mintid_span_id_text,
 *   mintid_traceparent_text and mintid_traceparent_parse (W3C Trace
 *   Context's traceparent header).
 * examples/embed/mint.c does each of these.
 */
#ifndef MINTID_H
#define MINTID_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The one place the version is written (the Makefile and the single-file
 * build read it here). */
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

/* Aligns an opaque state to 8 bytes, what its 64-bit fields need, also on
 * i386 ABIs that align uint64_t struct fields to 4 only (a 64-bit atomic
 * there is refused or becomes a libatomic call). The core checks at
 * compile time that every state fits its opaque type in size and
 * alignment, so a compiler this misses fails to build the core. */
#if defined(__GNUC__) || defined(__clang__)
#define MINTID_ALIGNED __attribute__((aligned(8)))
#elif defined(_MSC_VER)
#define MINTID_ALIGNED __declspec(align(8))
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define MINTID_ALIGNED _Alignas(8)
#else
#define MINTID_ALIGNED
#endif

/* Status codes: 0 is success, every error is negative. */
#define MINTID_OK          0
#define MINTID_EPARSE     (-1) /* text or bytes that are not a valid ID */
#define MINTID_ERANGE     (-2) /* timestamp or field outside its range */
#define MINTID_EOVERFLOW  (-3) /* monotonic counter would pass its maximum */
#define MINTID_ERANDOM    (-4) /* the randomness source failed */
#define MINTID_ECLOCK     (-5) /* the clock could not be read */
#define MINTID_EAGAIN     (-6) /* snowflake: sequence exhausted and the clock did not pass it within max_wait_ms */
#define MINTID_EARG       (-7) /* an argument outside its documented domain */
#define MINTID_ENOMEM     (-8) /* an allocation failed */
#define MINTID_EFORK      (-9) /* snowflake: generator made before a fork(), in another process */
#define MINTID_ELEASE    (-10) /* snowflake: the generator's lease does not allow minting now */

#define MINTID_ERRMSG_SIZE 128

#define MINTID_MAX_MS            INT64_C(0xFFFFFFFFFFFF) /* 2^48 - 1 */
#define MINTID_ULID_TEXT_LEN     26
#define MINTID_UUID_TEXT_LEN     36
#define MINTID_RELATIVE_TEXT_LEN 28
#define MINTID_RELATIVE_PREFIX_LEN 7 /* "TAG6CH-" */
#define MINTID_RELATIVE_MIN_SECRET 16
#define MINTID_SNOWFLAKE_DECIMAL_MAX 20 /* digits of 2^64 - 1 */
#define MINTID_SNOWFLAKE_MAX_MACHINE 1023
#define MINTID_NANOID_DEFAULT_SIZE 21
#define MINTID_NANOID_MAX_SIZE   1048576 /* a larger request is a misuse, not a need */
#define MINTID_KSUID_TEXT_LEN    27
#define MINTID_OBJECTID_TEXT_LEN 24
#define MINTID_XID_TEXT_LEN      20
#define MINTID_TYPEID_MAX_PREFIX 63
#define MINTID_TYPEID_SUFFIX_LEN 26
#define MINTID_TYPEID_MAX_TEXT_LEN (MINTID_TYPEID_MAX_PREFIX + 1 + MINTID_TYPEID_SUFFIX_LEN) /* 90 */
#define MINTID_TRACE_ID_TEXT_LEN 32
#define MINTID_SPAN_ID_TEXT_LEN  16
#define MINTID_TRACEPARENT_LEN   55 /* version 00: "00-" trace-id "-" parent-id "-" flags */
#define MINTID_CUID2_MAX_LEN     32

/* The sizes of the opaque states below, in bytes. */
#define MINTID_ULID_GEN_SIZE      64
#define MINTID_UUID7_GEN_SIZE     64
#define MINTID_RELATIVE_GEN_SIZE  512
#define MINTID_SNOWFLAKE_GEN_SIZE 64
#define MINTID_NANOID_SPEC_SIZE   384
#define MINTID_UUID_TIME_GEN_SIZE 64
#define MINTID_KSUID_GEN_SIZE     64
#define MINTID_OBJECTID_GEN_SIZE  64
#define MINTID_XID_GEN_SIZE       64
#define MINTID_FENCE_SIZE         128
#define MINTID_SNOWFLAKE_LAYOUT_SIZE 32
#define MINTID_CUID2_GEN_SIZE     320
#define MINTID_SQIDS_SIZE         2048

/* One-line name of a status code ("invalid ID"); err says more. */
MINTID_API const char *mintid_strerror(int code);

/* ---- ULID (SPEC "ULID") -------------------------------------------------- */
/* The 26-char Crockford text of 16 bytes, uppercase. */
MINTID_API void mintid_ulid_encode(const uint8_t id[16], char out[26]);
/* Text of exactly 26 chars in either case to bytes; EPARSE with the bad
 * character and its 1-based position, or an overflowing first char. */
MINTID_API int  mintid_ulid_decode(const char *text, size_t len, uint8_t out[16], char *err);

/* A monotonic ULID generator of the caller's own (SPEC: 10 fresh bytes in a
 * new ms, else the 80-bit counter + 1). */
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_ULID_GEN_SIZE]; } mintid_ulid_gen;
MINTID_API void mintid_ulid_gen_init(mintid_ulid_gen *g);

/* ---- UUID (RFC 9562 v4 and v7) ------------------------------------------- */
/* The 36-char hyphenated text, lowercase. */
MINTID_API void mintid_uuid_encode(const uint8_t id[16], char out[36]);
/* Hyphenated text in either case, any version and variant; the version is
 * id[6] >> 4. */
MINTID_API int  mintid_uuid_decode(const char *text, size_t len, uint8_t out[16], char *err);
/* The forms PostgreSQL's uuid input takes (either case, 32 digits with a
 * '-' after any group of four or none, braces around the whole) and
 * "urn:uuid:" before the 36-char form; EPARSE for anything else. */
MINTID_API int  mintid_uuid_decode_lenient(const char *text, size_t len, uint8_t out[16], char *err);

/* A monotonic UUIDv7 generator (SPEC: the 74-bit counter rand_a, rand_b). */
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_UUID7_GEN_SIZE]; } mintid_uuid7_gen;
MINTID_API void mintid_uuid7_gen_init(mintid_uuid7_gen *g);

/* A monotonic UUIDv1 or v6 generator (SPEC "Gregorian time": 60-bit
 * 100-ns ticks, last + 1 within a tick). version 1 or 6; node NULL for a
 * random one (multicast bit set), else node_len 6; clock_seq -1 for a
 * random one, else 0..16383 (EARG otherwise). The random parts are drawn
 * from the process-wide pool here, and again in a forked child. */
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_UUID_TIME_GEN_SIZE]; } mintid_uuid_time_gen;
MINTID_API int  mintid_uuid_time_gen_init(mintid_uuid_time_gen *g, unsigned version,
                                          const uint8_t *node, size_t node_len, int64_t clock_seq,
                                          char *err);

/* ---- KSUID (SPEC "KSUID": 32-bit seconds since 1400000000 | payload) ---- */
/* A monotonic KSUID generator (SPEC: 16 fresh bytes in a new second, else
 * the 128-bit payload + 1). TypeIDs are minted on a mintid_uuid7_gen. */
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_KSUID_GEN_SIZE]; } mintid_ksuid_gen;
MINTID_API void mintid_ksuid_gen_init(mintid_ksuid_gen *g);

/* ---- MongoDB ObjectId and XID (SPEC "MongoDB ObjectId", "XID") ----------
 * 12 bytes each: 4-byte seconds, 5 bytes of process identity, a 3-byte
 * counter from a random start. A generator's seconds never go back; its
 * identity and counter start are drawn again in a forked child. */
/* 24 lowercase hex digits; decode takes either case. */
MINTID_API void mintid_objectid_encode(const uint8_t id[12], char out[24]);
MINTID_API int  mintid_objectid_decode(const char *text, size_t len, uint8_t out[12], char *err);
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_OBJECTID_GEN_SIZE]; } mintid_objectid_gen;
MINTID_API void mintid_objectid_gen_init(mintid_objectid_gen *g);
/* 20 symbols of 0-9a-v; decode is rs/xid's: lowercase only, and the last
 * symbol's 4 padding bits zero. */
MINTID_API void mintid_xid_encode(const uint8_t id[12], char out[20]);
MINTID_API int  mintid_xid_decode(const char *text, size_t len, uint8_t out[12], char *err);
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_XID_GEN_SIZE]; } mintid_xid_gen;
/* machine NULL for this host's (rs/xid's rule, xid.c), else machine_len 3;
 * pid -1 for this process's (again in a forked child), else 0..65535.
 * With both the process's, the generator takes its counter from the
 * process's one counter, as the default does (rs/xid has one per process).
 * EARG otherwise; ERANDOM when the host has no id and no randomness. */
MINTID_API int  mintid_xid_gen_init(mintid_xid_gen *g, const uint8_t *machine, size_t machine_len, int64_t pid,
                                    char *err);

/* ---- relative IDs (SPEC "Relative IDs": tag << 98 | ms << 50 | rand) ----- */
MINTID_API void mintid_relative_encode(const uint8_t id[16], char out[28]);
/* The 7-char "TAG6CH-" prefix of a 30-bit tag. */
MINTID_API void mintid_relative_prefix(uint32_t tag, char out[7]);
/* The 28-char form (hyphens at offsets 6 and 17) or the same 26 chars. */
MINTID_API int  mintid_relative_decode(const char *text, size_t len, uint8_t out[16], char *err);

/* A relative generator holds the HMAC key schedule of its secret:
 * secret-equivalent memory, to be wiped with mintid_relative_gen_wipe. */
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_RELATIVE_GEN_SIZE]; } mintid_relative_gen;
/* EARG for a secret shorter than MINTID_RELATIVE_MIN_SECRET bytes. */
MINTID_API int  mintid_relative_gen_init(mintid_relative_gen *g,
                                         const uint8_t *secret, size_t secret_len,
                                         const uint8_t *salt, size_t salt_len, char *err);
MINTID_API void mintid_relative_gen_wipe(mintid_relative_gen *g);
/* The 30-bit tag of a key under g's secret and salt. */
MINTID_API uint32_t mintid_relative_gen_tag(const mintid_relative_gen *g,
                                            const uint8_t *key, size_t key_len);

/* ---- Snowflake layouts (SPEC "Snowflake layouts") ------------------------ */
/* Where the time, the machine id and the sequence sit in the 64-bit ID:
 * time_bits T, time_unit_ms U, machine_bits M, seq_bits S, epoch E (Unix
 * ms) and order, checked once, with the shifts and masks of the ID worked
 * out then. The default ("mintid") is SPEC "Snowflake": 42/1/10/12, E 0. */
#define MINTID_SNOWFLAKE_ORDER_TMS 0 /* "time-machine-seq" */
#define MINTID_SNOWFLAKE_ORDER_TSM 1 /* "time-seq-machine" (Sonyflake) */
#define MINTID_SNOWFLAKE_MAX_UNIT_MS 4294967295 /* 2^32 - 1: a unit of 49 days */
/* The fingerprint text: "T/U/M/S/E/order", at most this many bytes. */
#define MINTID_SNOWFLAKE_FINGERPRINT_MAX 64
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_SNOWFLAKE_LAYOUT_SIZE]; } mintid_snowflake_layout;
/* The default layout. */
MINTID_API void mintid_snowflake_layout_default(mintid_snowflake_layout *l);
/* EARG naming the field ("seq_bits must be >= 1, got 0", "time_bits +
 * machine_bits + seq_bits must be <= 64, got 65", ...), l unchanged. */
MINTID_API int  mintid_snowflake_layout_init(mintid_snowflake_layout *l, int64_t time_bits, int64_t time_unit_ms,
                                             int64_t machine_bits, int64_t seq_bits, int64_t epoch, int order,
                                             char *err);
/* A preset by name ("mintid", "twitter", "discord", "instagram",
 * "sonyflake"); EARG for another name. */
MINTID_API int  mintid_snowflake_layout_preset(mintid_snowflake_layout *l, const char *name, size_t len,
                                               char *err);
/* The order named by its text; -1 for an unknown one. */
MINTID_API int  mintid_snowflake_order_of(const char *name, size_t len);
MINTID_API const char *mintid_snowflake_order_name(int order);
/* The layout's epoch replaced (EARG for a negative one). */
MINTID_API int  mintid_snowflake_layout_set_epoch(mintid_snowflake_layout *l, int64_t epoch, char *err);
/* fields[] = T, U, M, S, E, order. */
MINTID_API void mintid_snowflake_layout_fields(const mintid_snowflake_layout *l, int64_t fields[6]);
/* The preset's name when l is one (every field equal), else NULL. */
MINTID_API const char *mintid_snowflake_layout_name(const mintid_snowflake_layout *l);
/* 1 when a and b make the same IDs (every field equal), else 0. */
MINTID_API int  mintid_snowflake_layout_equal(const mintid_snowflake_layout *a, const mintid_snowflake_layout *b);
/* "T/U/M/S/E/order" (NUL-terminated), what a lease store keeps: returns
 * its length. */
MINTID_API size_t mintid_snowflake_layout_fingerprint(const mintid_snowflake_layout *l,
                                                      char out[MINTID_SNOWFLAKE_FINGERPRINT_MAX]);
/* The fields of id under l, the timestamp the Unix ms E + t * U of the
 * unit's start: EPARSE when id sets a bit above T + M + S ("not of this
 * layout"), ERANGE when the timestamp is above max_timestamp (INT64_MAX,
 * or 2^53 - 1 where integers are doubles). */
MINTID_API int  mintid_snowflake_layout_split(const mintid_snowflake_layout *l, uint64_t id, int64_t max_timestamp,
                                              int64_t *timestamp, uint64_t *machine_id, uint64_t *sequence,
                                              char *err);

/* ---- Snowflake (SPEC "Snowflake": 42-bit ms | 10-bit machine | 12-bit seq) */
/* A Snowflake generator; may be shared between threads where the compiler
 * does 64-bit compare-and-swap inline (GCC, clang; see snowflake.c). When
 * the 4096 IDs of a ms are used it waits for the clock to pass it, but
 * fails with EAGAIN instead when the clock is more than max_wait_ms (1000)
 * behind, or has not moved for max_wait_ms (timed on a clock that moves
 * even when the wall clock is frozen). */
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_SNOWFLAKE_GEN_SIZE]; } mintid_snowflake_gen;
/* EARG for a machine_id outside 0..1023 or a negative epoch. */
MINTID_API int  mintid_snowflake_gen_init(mintid_snowflake_gen *g, int64_t machine_id,
                                          int64_t epoch, char *err);
/* A generator of layout l; EARG for a machine_id outside 0..2^M - 1. */
MINTID_API int  mintid_snowflake_gen_init_layout(mintid_snowflake_gen *g, const mintid_snowflake_layout *l,
                                                 int64_t machine_id, char *err);
/* A lease fence (fence.c): the machine id a lease holds, until a deadline
 * on the monotonic clock, and a floor (Unix ms) that the IDs minted with it
 * must pass: the last ms the id's previous holder may have used. A
 * generator made by gen_init_fenced mints only inside its fence, with the
 * fence's machine id at that moment; outside it, ELEASE with the reason
 * ("snowflake: lease expired", ...). The caller's lease code holds and
 * drops it; the fence is not locked (hold, drop and mint from one thread,
 * or under a lock of the caller's) and must outlive its generators.
 * States, as mintid_fence_state_now reads them (mintid_fence_state_name gives
 * "unheld", "held", "waiting", "expired", "released", "lost", "forked"): */
#define MINTID_FENCE_UNHELD   0 /* never held: the state of a new fence */
#define MINTID_FENCE_HELD     1 /* minting allowed */
#define MINTID_FENCE_WAITING  2 /* held, but the wall clock has not passed the floor */
#define MINTID_FENCE_EXPIRED  3 /* held, past the deadline */
#define MINTID_FENCE_RELEASED 4 /* dropped: given back */
#define MINTID_FENCE_LOST     5 /* dropped: taken away (another holder may have it) */
#define MINTID_FENCE_FORKED   6 /* made or held by the process this one was forked from */
/* A valid_for_ms of no deadline. */
#define MINTID_FENCE_FOREVER  INT64_MAX
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_FENCE_SIZE]; } mintid_fence;
MINTID_API void mintid_fence_init(mintid_fence *f);
/* One fence, one layout (its IDs share one sequence, so its generators must
 * agree on every field, the epoch too): the first bind fixes it, a later
 * one with another layout is EARG naming both ("the lease's fence mints
 * layout 42/1/10/12/0/time-machine-seq, not 39/10/16/8/..."). A lease binds
 * its layout when it is made, a generator made on the fence binds its own. */
MINTID_API int  mintid_fence_bind_layout(mintid_fence *f, const mintid_snowflake_layout *l, char *err);
/* The fence's layout (the default before any bind). */
MINTID_API void mintid_fence_layout(const mintid_fence *f, mintid_snowflake_layout *l);
/* Held from now on: machine_id 0..2^M - 1 of the fence's layout (0..1023
 * before a bind), for valid_for_ms from now (>= 0;
 * MINTID_FENCE_FOREVER or more: no deadline), minting only ms > floor_ms
 * (>= 0; 0: no floor). Again while held is a renewal (deadline and floor
 * replaced); another machine_id is allowed (acquired anew). EARG for a
 * value outside those ranges, the fence unchanged. */
MINTID_API int  mintid_fence_hold(mintid_fence *f, int64_t machine_id, int64_t valid_for_ms,
                                  int64_t floor_ms, char *err);
/* The same, minting also only units that start at or before last_ms
 * (>= 0; MINTID_FENCE_FOREVER: no such bound, as mintid_fence_hold): a
 * lease that tells its store a floor for the id's next holder holds with
 * that floor as last_ms, so that its IDs stay below the next holder's
 * even when its monotonic clock did not count a suspend. Past it the
 * fence reads EXPIRED (by the wall clock) until held again. */
MINTID_API int  mintid_fence_hold_until(mintid_fence *f, int64_t machine_id, int64_t valid_for_ms,
                                        int64_t floor_ms, int64_t last_ms, char *err);
/* reason MINTID_FENCE_RELEASED or MINTID_FENCE_LOST (EARG otherwise). */
MINTID_API int  mintid_fence_drop(mintid_fence *f, int reason, char *err);
/* The state now; for HELD and WAITING *ms_left (if not NULL) gets the ms
 * left to the deadline (MINTID_FENCE_FOREVER for none). */
MINTID_API int  mintid_fence_state_now(mintid_fence *f, int64_t *ms_left);
MINTID_API const char *mintid_fence_state_name(int state);
/* The monotonic clock that deadlines are counted on, in ms (coarse: a few
 * ms a step, never behind what a deadline is compared with). A lease reads
 * it before it sends a renewal, so that the validity it then holds counts
 * from the sending, not from the reply. */
MINTID_API int64_t mintid_fence_clock_ms(void);
/* The machine id while held (or waiting) inside the deadline in this
 * process and, by the wall clock, not past its last ms; else -1. */
MINTID_API int64_t mintid_fence_machine_id(mintid_fence *f);
/* A generator on the fence f (which must outlive it), of the default
 * layout with this epoch: EARG for a negative epoch, or when the fence
 * holds another layout (mintid_fence_bind_layout). Every generator on one
 * fence moves one sequence, kept in the fence: two of them never make the
 * same ID. Unlike a generator of gen_init, it may be used in a forked
 * child once the child holds f itself: the fence is what keeps processes
 * apart. */
MINTID_API int  mintid_snowflake_gen_init_fenced(mintid_snowflake_gen *g, mintid_fence *f,
                                                 int64_t epoch, char *err);
/* The same of layout l, or of the fence's layout when l is NULL. */
MINTID_API int  mintid_snowflake_gen_init_fenced_layout(mintid_snowflake_gen *g, mintid_fence *f,
                                                        const mintid_snowflake_layout *l, char *err);
/* The epochs gen_init takes (parse_snowflake's must be one of them). */
MINTID_API int  mintid_snowflake_check_epoch(int64_t epoch, char *err);
MINTID_API void mintid_snowflake_split(uint64_t id, int64_t epoch,
                                       int64_t *timestamp, uint32_t *machine_id, uint32_t *sequence);
/* The timestamp of id, (id >> 22) + epoch, or ERANGE when it is above
 * max_timestamp (INT64_MAX for int64 hosts, 2^53 - 1 where integers are
 * doubles) and would wrap or lose precision. */
MINTID_API int  mintid_snowflake_timestamp(uint64_t id, int64_t epoch, int64_t max_timestamp,
                                           int64_t *timestamp, char *err);
/* Decimal text of 1..20 digits with no sign, space or leading '+'. */
MINTID_API int  mintid_snowflake_parse_decimal(const char *text, size_t len, uint64_t *id, char *err);

/* ---- Nano ID (SPEC "Nano ID") -------------------------------------------- */
/* An alphabet and a size, checked once. */
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_NANOID_SPEC_SIZE]; } mintid_nanoid_spec;
/* Symbols are single bytes. EARG (with a message) for an alphabet of 0 or
 * more than 256 bytes, one holding the same byte twice, one that is UTF-8
 * text with multi-byte characters, or a size outside 1..MAX_SIZE. */
MINTID_API int  mintid_nanoid_spec_init(mintid_nanoid_spec *s, const uint8_t *alphabet, size_t alen,
                                        int64_t size, char *err);
/* The symbols per ID of s: the bytes mintid_nanoid_text writes. */
MINTID_API size_t mintid_nanoid_spec_size(const mintid_nanoid_spec *s);
/* 1 when text is a Nano ID of s: its size, every byte a symbol of its
 * alphabet; else 0. */
MINTID_API int mintid_nanoid_valid(const mintid_nanoid_spec *s, const char *text, size_t len);

/* ---- short UUIDs (SPEC "Short UUIDs", npm short-uuid) ------------------- */
/* A UUID's 128 bits in an alphabet of 2..256 single-byte symbols, most
 * significant first, padded with the first symbol to the alphabet's
 * length L (22 for the default, flickrBase58): the smallest with
 * n^L >= 2^128, at most MINTID_SHORT_UUID_MAX_LEN (n = 2). */
#define MINTID_SHORT_UUID_MAX_LEN 128
#define MINTID_SHORT_UUID_ALPHABET_SIZE 1024
/* The reference's named alphabets. */
#define MINTID_SHORT_UUID_FLICKR "123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"
#define MINTID_SHORT_UUID_COOKIE \
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&'()*+-./:<=>?@[]^_`{|}~"
/* An alphabet, checked once and its conversion constants worked out. */
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_SHORT_UUID_ALPHABET_SIZE]; } mintid_short_uuid_alphabet;
/* EARG for fewer than 2 or more than 256 symbols, a repeated byte, or
 * UTF-8 text with multi-byte characters (Nano ID's rules). */
MINTID_API int  mintid_short_uuid_alphabet_init(mintid_short_uuid_alphabet *a, const uint8_t *symbols, size_t n,
                                                char *err);
/* L, the length of every short UUID of a. */
MINTID_API size_t mintid_short_uuid_length(const mintid_short_uuid_alphabet *a);
/* mintid_short_uuid_length(a) symbols to out. */
MINTID_API void mintid_short_uuid_encode(const mintid_short_uuid_alphabet *a, const uint8_t id[16], char *out);
/* Text of exactly L symbols of a, of a value below 2^128, to the 16
 * bytes; EPARSE naming the length, the bad character or the overflow. */
MINTID_API int  mintid_short_uuid_decode(const mintid_short_uuid_alphabet *a, const char *text, size_t len,
                                         uint8_t out[16], char *err);
/* The short text of a UUID text (mintid_uuid_decode's, EPARSE for bad
 * text): returns L, or a negative code. */
MINTID_API int  mintid_short_uuid_text(const mintid_short_uuid_alphabet *a, const char *uuid, size_t len, char *out,
                                       char *err);

/* ---- CUID2 (SPEC "CUID2") ------------------------------------------------ */
/* A generator of CUID2s of one length (2..32), its counter drawn on its
 * first call (and again in a forked child), as is its fingerprint unless
 * one is given (1..256 bytes, used as is); EARG otherwise. */
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_CUID2_GEN_SIZE]; } mintid_cuid2_gen;
MINTID_API int mintid_cuid2_gen_init(mintid_cuid2_gen *g, int64_t length, const uint8_t *fingerprint,
                                     size_t fingerprint_len, char *err);
/* The next CUID2 of g (OS clock, pool): its length, or a negative code. */
MINTID_API int mintid_cuid2_gen_next_text(mintid_cuid2_gen *g, char out[32], char *err);
/* One of the process-wide generator, of length 2..32 (EARG otherwise):
 * its length, or a negative code. */
MINTID_API int mintid_cuid2_text(int64_t length, char out[32], char *err);
/* 1 when text is a CUID2 as the reference's isCuid says: min_len <= len <=
 * max_len, a letter a-z, then one or more of 0-9 a-z; else 0. */
MINTID_API int mintid_cuid2_valid(const char *text, size_t len, int64_t min_len, int64_t max_len);

/* ---- Sqids (SPEC "Sqids") ------------------------------------------------ */
#define MINTID_SQIDS_MAX_MIN_LENGTH 255
#define MINTID_SQIDS_MAX_NUMBERS    1048576 /* per ID: a longer list is a misuse */
/* An encoder: the alphabet shuffled, min_length and the blocklist filtered
 * for the alphabet, made once. It lives in mintid_sqids_size() bytes of the
 * caller's (aligned to 8): a mintid_sqids followed by its blocklist; it
 * keeps no pointer into them, so the memory may be moved or copied whole. */
typedef struct { MINTID_ALIGNED uint8_t opaque[MINTID_SQIDS_SIZE]; } mintid_sqids;
/* words NULL: the default blocklist (n_words ignored); else n_words words
 * of word_lens[i] bytes (n_words 0: no blocklist). */
MINTID_API size_t mintid_sqids_size(const uint8_t *alphabet, size_t alen, const uint8_t *const *words,
                                    const size_t *word_lens, size_t n_words);
/* EARG, as the reference throws: an alphabet with a byte above 127
 * (multibyte), of fewer than 3 symbols or repeating one; min_length
 * outside 0..255; size below mintid_sqids_size() of the same arguments. */
MINTID_API int  mintid_sqids_init(mintid_sqids *s, size_t size, const uint8_t *alphabet, size_t alen,
                                  int64_t min_length, const uint8_t *const *words, const size_t *word_lens,
                                  size_t n_words, char *err);
/* The length of the ID of n numbers (0 for none); every attempt the
 * blocklist makes has this length. */
MINTID_API size_t mintid_sqids_encoded_len(const mintid_sqids *s, const uint64_t *numbers, size_t n);
/* The ID of n numbers to out (mintid_sqids_encoded_len bytes): returns its
 * length, or EARG for more than MAX_NUMBERS numbers, or EOVERFLOW when
 * every re-encoding held a blocked word ("reached max attempts"). */
MINTID_API int  mintid_sqids_encode(const mintid_sqids *s, const uint64_t *numbers, size_t n, char *out,
                                    char *err);
/* The numbers of text to out (room for len numbers: each takes a symbol
 * at least): returns their count, 0 for text that is no ID of s (empty, a
 * symbol outside the alphabet); ERANGE when a number is above max (a
 * caller's bound: no encoder of it made that text). */
MINTID_API int  mintid_sqids_decode(const mintid_sqids *s, const char *text, size_t len, uint64_t max,
                                    uint64_t *out, char *err);

/* ---- RFC 3339 time (iso.c) ----------------------------------------------- */
/* "2024-01-02T03:04:05.678Z": a Unix ms time in UTC with milliseconds, in
 * the proleptic Gregorian calendar; ERANGE before year 0000 or past
 * 9999-12-31 (RFC 3339 has four-digit years). */
#define MINTID_ISO_TEXT_LEN 24
MINTID_API int mintid_iso_text(int64_t ms, char out[MINTID_ISO_TEXT_LEN], char *err);

/* ---- the kind of an ID text (kind.c) ------------------------------------ */
/* The kind whose text form the text has the shape of: "ulid", "uuid",
 * "relative", "ksuid", "objectid", "xid", "typeid", "snowflake" or "traceparent" (kind.c
 * holds the rule; a 26-char text is "ulid", whatever else it could be).
 * NULL when no kind has its shape, with why in err (of
 * MINTID_KIND_ERRMSG_SIZE bytes; err may be NULL). A shape, not a check:
 * the kind's parser says whether the text is valid. */
#define MINTID_KIND_ERRMSG_SIZE 256
MINTID_API const char *mintid_kind_of(const char *text, size_t len, char *err);

/* ---- whole calls for foreign callers (abi.c) -----------------------------
 * Each reads the OS clock, draws from the calling thread's pool and writes the
 * text form in one call, so a caller through an FFI makes one crossing per
 * ID. Outputs are fixed-size and not NUL-terminated; nothing is allocated.
 * The return is MINTID_OK or a negative MINTID_E* code with err written,
 * except where a length is returned. */
MINTID_API int mintid_ulid_text(char out[26], char *err);   /* default generators */
MINTID_API int mintid_uuid7_text(char out[36], char *err);
MINTID_API int mintid_uuid4_text(char out[36], char *err);
MINTID_API int mintid_uuid1_text(char out[36], char *err);
MINTID_API int mintid_uuid6_text(char out[36], char *err);
MINTID_API int mintid_ksuid_text(char out[27], char *err);
MINTID_API int mintid_objectid_text(char out[24], char *err);
MINTID_API int mintid_xid_text(char out[20], char *err);
/* A TypeID of prefix (0..63 chars of SPEC "TypeID"; EARG otherwise) over
 * the default UUIDv7 generator, the one of mintid_uuid7_text: returns the
 * text's length (26..90) or a negative code. */
MINTID_API int mintid_typeid_text(const char *prefix, size_t prefix_len, char out[90], char *err);
/* Name-based UUIDs (v3 MD5, v5 SHA-1, v8 SHA-256) of a name space given as
 * UUID text (EPARSE for bad text) and a name of any bytes. */
MINTID_API int mintid_uuid3_text(const char *ns, size_t ns_len, const uint8_t *name, size_t name_len,
                                 char out[36], char *err);
MINTID_API int mintid_uuid5_text(const char *ns, size_t ns_len, const uint8_t *name, size_t name_len,
                                 char out[36], char *err);
MINTID_API int mintid_uuid8_sha256_text(const char *ns, size_t ns_len, const uint8_t *name, size_t name_len,
                                        char out[36], char *err);
/* mintid_nanoid_spec_size(s) bytes to out, from the pool. */
MINTID_API int mintid_nanoid_text(const mintid_nanoid_spec *s, char *out, char *err);
MINTID_API int mintid_ulid_gen_next_text(mintid_ulid_gen *g, char out[26], char *err);
MINTID_API int mintid_uuid7_gen_next_text(mintid_uuid7_gen *g, char out[36], char *err);
MINTID_API int mintid_relative_gen_next_text(mintid_relative_gen *g, const uint8_t *key, size_t key_len,
                                             char out[28], char *err);
/* The decimal text of the next snowflake ID: returns its length (1..20) or
 * a negative code. An ID with bit 63 set is refused with ERANGE (SPEC: a
 * signed host could not hold it), the state left as it was. */
MINTID_API int mintid_snowflake_gen_next_text(mintid_snowflake_gen *g, char out[20], char *err);
/* The OS clock in 100-ns units (SPEC "Gregorian time"). */
MINTID_API int mintid_uuid_time_gen_next_text(mintid_uuid_time_gen *g, char out[36], char *err);
MINTID_API int mintid_ksuid_gen_next_text(mintid_ksuid_gen *g, char out[27], char *err);
MINTID_API int mintid_objectid_gen_next_text(mintid_objectid_gen *g, char out[24], char *err);
MINTID_API int mintid_xid_gen_next_text(mintid_xid_gen *g, char out[20], char *err);
/* The length (26..90) or a negative code; a bad prefix (EARG) leaves g
 * unchanged. */
MINTID_API int mintid_typeid_gen_next_text(mintid_uuid7_gen *g, const char *prefix, size_t prefix_len,
                                           char out[90], char *err);
/* The same 16 bytes in the other text form (EPARSE for bad text). */
MINTID_API int mintid_ulid_to_uuid_text(const char *text, size_t len, char out[36], char *err);
MINTID_API int mintid_uuid_to_ulid_text(const char *text, size_t len, char out[26], char *err);
/* ---- W3C Trace Context (trace.c) -----------------------------------------
 * Lowercase hex IDs from the pool, never all zero (ERANDOM if the source
 * gave only zeros 4 times running). */
MINTID_API int mintid_trace_id_text(char out[32], char *err);
MINTID_API int mintid_span_id_text(char out[16], char *err);
/* A version-00 traceparent: trace_id (32 digits) and parent_id (16),
 * either NULL for a fresh one, and flags 0..255 (EARG otherwise). A given
 * ID that is not lowercase hex of its length, or is all zero, is EPARSE;
 * everything given is checked before anything is drawn. */
MINTID_API int mintid_traceparent_text(const char *trace_id, size_t trace_id_len,
                                       const char *parent_id, size_t parent_id_len,
                                       int64_t flags, char out[55], char *err);
/* A traceparent header by the Recommendation's rules (lowercase hex,
 * version ff invalid, version 00 exactly 55 chars, a later one longer
 * only after a '-', no all-zero ID): its IDs' text and flags, or EPARSE. */
MINTID_API int mintid_traceparent_parse(const char *header, size_t len, char trace_id[32], char parent_id[16],
                                        uint8_t *flags, char *err);
/* sizeof of a state type of this header by its typedef name
 * ("mintid_ulid_gen"), 0 for any other name: an FFI checks its
 * declarations against it. */
MINTID_API size_t mintid_abi_sizeof(const char *type_name);

#ifdef __cplusplus
}
#endif
#endif
