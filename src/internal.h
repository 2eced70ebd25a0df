/*
 * internal.h: helpers shared by the core's files; not part of the ABI.
 */
#ifndef MINTID_INTERNAL_H
#define MINTID_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* Every name declared from here on is hidden unless marked MINTID_API
 * (mintid.h), so the core's internals never reach a host's symbol table,
 * also in builds that pass no -fvisibility flag (luarocks). System headers
 * must come before this point (every core file includes them first), since
 * a hidden declaration of a C library function would not link. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#pragma GCC visibility push(hidden)
#define MINTID_VISIBILITY_PUSHED 1
#endif

#include "mintid.h"

#if defined(__MINGW32__)
/* error.c formats with MinGW's C99 printf (it asks for
 * __USE_MINGW_ANSI_STDIO), not msvcrt's, which lacks %zu and %lld. */
#define MINTID_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#elif defined(__GNUC__) || defined(__clang__)
#define MINTID_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define MINTID_PRINTF(f, a)
#endif

/* error.c: write a one-line message to err (if not NULL) and return code. */
MINTID_INTERNAL int mintid_fail(char *err, int code, const char *fmt, ...) MINTID_PRINTF(3, 4);

/* error.c: describe the byte c for a message: "'U'" for printable ASCII,
 * "0x00" otherwise. out must hold 8 bytes. */
MINTID_INTERNAL const char *mintid_describe_byte(unsigned char c, char out[8]);

/* base32.c: the table behind mintid_base32_value, for decoders whose
 * per-symbol lookup must be inlined (value 0..31, or -1). UUID decoding
 * uses it for hex digits too: the alphabet starts 0-9, A-F. */
MINTID_INTERNAL const signed char mintid_base32_values[256];

/* error.c: the shared range check of every 48-bit timestamp:
 * "<kind> timestamp <ms> out of range 0..281474976710655". */
MINTID_INTERNAL int mintid_check_ms(int64_t ms, const char *kind, char *err);

/* error.c: "<what>: <strerror text of errnum>" (thread-safe strerror_r). */
MINTID_INTERNAL int mintid_fail_errno(char *err, int code, const char *what, int errnum);

/* random.c: fill buf with n bytes from rnd. On failure the code is negative
 * (a positive one becomes MINTID_ERANDOM) and err holds the source's own
 * message if it wrote one, else "<kind> random source failed". */
MINTID_INTERNAL int mintid_draw_random(mintid_random_fn rnd, void *ctx, uint8_t *buf, size_t n,
                                       const char *kind, char *err);

/* random.c: registers the pool's fork handlers (once; cheap to call again).
 * A module that holds its own lock while drawing from the pool calls this
 * before its own pthread_atfork, so that POSIX's reverse order runs its
 * prepare handler first: locks are always taken as (its lock, pool lock). */
MINTID_INTERNAL void mintid_random_fork_init(void);

/* chacha20.c: nblocks 64-byte blocks of the RFC 8439 ChaCha20 keystream,
 * the first with block counter `counter`. */
MINTID_INTERNAL void mintid_chacha20_blocks(const uint8_t key[32], uint32_t counter,
                                            const uint8_t nonce[12], uint8_t *out, size_t nblocks);

/* random.c: the pool's generator takes a new key from the OS before its
 * output under one key would pass this many bytes. */
#define MINTID_RANDOM_RESEED_BYTES ((size_t)1 << 20)

/* random.c: how many keys the pool's generator has taken from the OS in
 * this process so far (the tests watch the reseeds with it). */
MINTID_INTERNAL uint64_t mintid_random_reseeds(void);

/* random.c: which process this is, as generator state records it: a value
 * that differs in every process forked from this one (and in their own
 * children), read without a system call. A generator whose state carries
 * another value was made before a fork and must not continue that state. */
MINTID_INTERNAL uint32_t mintid_fork_generation(void);

/* monotonic.c: one call of the SPEC rule.
 * - now_ms > last_ms (always on a new generator's first call, whose last_ms
 *   is -1): draw draw_len (<= 10) bytes with rnd,
 *   turn them into the counter with `load`, store (now_ms, counter);
 * - otherwise keep last_ms and add 1 to the `bits`-bit counter;
 *   EOVERFLOW ("<kind> counter overflow ...") when it would pass 2^bits - 1.
 * now_ms is range-checked first (ERANGE). On any error st is unchanged.
 * load may be NULL: the drawn bytes, big-endian, right-aligned. Either way
 * the counter is then masked to `bits` bits.
 * On success *ms and counter hold the values to encode. */
typedef void (*mintid_counter_load_fn)(const uint8_t *drawn, uint8_t counter[10]);
MINTID_INTERNAL int mintid_monotonic_next(mintid_monotonic *st, int64_t now_ms,
                                          unsigned bits, size_t draw_len, mintid_counter_load_fn load,
                                          mintid_random_fn rnd, void *ctx, const char *kind,
                                          int64_t *ms, uint8_t counter[10], char *err);

/* Big-endian stores and loads by shifts, so byte order never depends on the host. */
static inline void mintid_store_be48(uint8_t *p, uint64_t v)
{
    p[0] = (uint8_t)(v >> 40); p[1] = (uint8_t)(v >> 32); p[2] = (uint8_t)(v >> 24);
    p[3] = (uint8_t)(v >> 16); p[4] = (uint8_t)(v >> 8);  p[5] = (uint8_t)v;
}

static inline uint64_t mintid_load_be48(const uint8_t *p)
{
    return (uint64_t)p[0] << 40 | (uint64_t)p[1] << 32 | (uint64_t)p[2] << 24 |
           (uint64_t)p[3] << 16 | (uint64_t)p[4] << 8 | (uint64_t)p[5];
}

static inline uint32_t mintid_load_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void mintid_store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/* Written out byte by byte (not as two 32-bit halves), the form compilers
 * turn into one byte-swapped load or store. */
static inline uint64_t mintid_load_be64(const uint8_t *p)
{
    return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 | (uint64_t)p[3] << 32 |
           (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 | (uint64_t)p[6] << 8 | (uint64_t)p[7];
}

static inline void mintid_store_be64(uint8_t *p, uint64_t v)
{
    p[0] = (uint8_t)(v >> 56); p[1] = (uint8_t)(v >> 48); p[2] = (uint8_t)(v >> 40); p[3] = (uint8_t)(v >> 32);
    p[4] = (uint8_t)(v >> 24); p[5] = (uint8_t)(v >> 16); p[6] = (uint8_t)(v >> 8);  p[7] = (uint8_t)v;
}

/* ---- formats: every RFC 9562 UUID version, KSUID and TypeID (SPEC.md) ----
 * The core of issue 16, in one block so that it moves as one piece. The
 * conventions are the rest of the core's: MINTID_OK or a negative code,
 * a one-line message in err, fixed-size outputs (not NUL-terminated),
 * nothing published and no state changed on an error. */

/* hash_block.c: the 64-byte block framing of MD5, SHA-1 and SHA-256, over
 * a context's (length, block, used) fields: length counts the bytes
 * absorbed, block[0 .. used) waits for more. */
typedef void (*mintid_hash_block_fn)(void *state, const uint8_t *block);
MINTID_INTERNAL void mintid_hash_absorb(uint64_t *length, uint8_t block[64], size_t *used,
                                        mintid_hash_block_fn compress, void *state,
                                        const uint8_t *data, size_t n);
/* 0x80, zeros and the 64-bit bit count (little-endian for MD5), then the
 * last blocks compressed; the context is spent. */
MINTID_INTERNAL void mintid_hash_pad(uint64_t length, uint8_t block[64], size_t used,
                                     mintid_hash_block_fn compress, void *state, int little_endian);

/* md5.c (RFC 1321) and sha1.c (FIPS 180-4): for UUIDv3 and v5 only. */
typedef struct { uint32_t h[4]; uint64_t length; uint8_t block[64]; size_t used; } mintid_md5_ctx;
MINTID_INTERNAL void mintid_md5_init(mintid_md5_ctx *c);
MINTID_INTERNAL void mintid_md5_update(mintid_md5_ctx *c, const uint8_t *data, size_t n);
MINTID_INTERNAL void mintid_md5_final(mintid_md5_ctx *c, uint8_t digest[16]);
MINTID_INTERNAL void mintid_md5(const uint8_t *data, size_t n, uint8_t digest[16]);

typedef struct { uint32_t h[5]; uint64_t length; uint8_t block[64]; size_t used; } mintid_sha1_ctx;
MINTID_INTERNAL void mintid_sha1_init(mintid_sha1_ctx *c);
MINTID_INTERNAL void mintid_sha1_update(mintid_sha1_ctx *c, const uint8_t *data, size_t n);
MINTID_INTERNAL void mintid_sha1_final(mintid_sha1_ctx *c, uint8_t digest[20]);
MINTID_INTERNAL void mintid_sha1(const uint8_t *data, size_t n, uint8_t digest[20]);

/* monotonic.c: the same rule over a counter of up to 16 bytes with any
 * time unit (KSUID: seconds, 128-bit payload). last is -1 for a new state;
 * now must already be range-checked by the caller. On success *last,
 * counter and *generation hold the new state (the values to encode); on
 * any error they are unchanged. */
typedef struct {
    const char *kind;  /* "KSUID", for messages */
    const char *unit;  /* "s": "KSUID counter overflow at s 5" */
    unsigned bits;     /* counter width, 1..8 * len */
    size_t len;        /* counter bytes, 1..16 */
    size_t draw_len;   /* fresh bytes per new time unit, 1..len */
    mintid_counter_load_fn load; /* NULL: drawn bytes right-aligned */
} mintid_counter_rule;
MINTID_INTERNAL int mintid_counter_step(const mintid_counter_rule *rule, int64_t *last, uint8_t *counter,
                                        uint32_t *generation, int64_t now,
                                        mintid_random_fn rnd, void *ctx, char *err);

/* uuid.c: the variant of any UUID, from the top bits of b[8]. */
#define MINTID_UUID_VARIANT_NCS       0 /* 0xx */
#define MINTID_UUID_VARIANT_RFC9562   1 /* 10x */
#define MINTID_UUID_VARIANT_MICROSOFT 2 /* 110 */
#define MINTID_UUID_VARIANT_FUTURE    3 /* 111 */
MINTID_INTERNAL unsigned mintid_uuid_variant(const uint8_t id[16]);
/* "ncs", "rfc9562", "microsoft" or "future" */
MINTID_INTERNAL const char *mintid_uuid_variant_name(unsigned variant);

/* uuid_name.c: name-based v3 (MD5), v5 (SHA-1), v8 (SHA-256, RFC 9562
 * B.2), the custom v8, and the RFC 9562 6.6 name spaces. name may be NULL
 * when name_len is 0. */
MINTID_INTERNAL const uint8_t mintid_uuid_namespace_dns[16];
MINTID_INTERNAL const uint8_t mintid_uuid_namespace_url[16];
MINTID_INTERNAL const uint8_t mintid_uuid_namespace_oid[16];
MINTID_INTERNAL const uint8_t mintid_uuid_namespace_x500[16];
MINTID_INTERNAL void mintid_uuid3(const uint8_t ns[16], const uint8_t *name, size_t name_len, uint8_t out[16]);
MINTID_INTERNAL void mintid_uuid5(const uint8_t ns[16], const uint8_t *name, size_t name_len, uint8_t out[16]);
MINTID_INTERNAL void mintid_uuid8_sha256(const uint8_t ns[16], const uint8_t *name, size_t name_len,
                                         uint8_t out[16]);
/* The 16 bytes with version 8 and the variant set, the other 122 bits kept. */
MINTID_INTERNAL void mintid_uuid8(const uint8_t b[16], uint8_t out[16]);

/* uuid_time.c: Gregorian-time UUIDs v1 and v6 (60-bit 100-ns ticks since
 * 1582-10-15). */
#define MINTID_UUID_GREGORIAN_OFFSET UINT64_C(0x01B21DD213814000) /* ticks at 1970-01-01 */
#define MINTID_UUID_MAX_TICKS        ((UINT64_C(1) << 60) - 1)
#define MINTID_UUID_MAX_CLOCK_SEQ    0x3FFF
/* ticks = ms * 10000 + offset (a clock hook's Unix ms), or unix_100ns +
 * offset (the OS reading); ERANGE "<kind> timestamp ... out of range ..."
 * outside 0..2^60 - 1. */
MINTID_INTERNAL int mintid_uuid_ticks_from_ms(int64_t ms, const char *kind, uint64_t *ticks, char *err);
MINTID_INTERNAL int mintid_uuid_ticks_from_100ns(int64_t unix_100ns, const char *kind, uint64_t *ticks,
                                                 char *err);
MINTID_INTERNAL int64_t mintid_uuid_ticks_to_ms(uint64_t ticks); /* floor; negative before 1970 */
/* The v1 or v6 layout of (ticks, clock_seq, node); EARG for another
 * version, ERANGE for ticks or clock_seq outside their fields. */
MINTID_INTERNAL int mintid_uuid_time_from_parts(unsigned version, uint64_t ticks, int64_t clock_seq,
                                                const uint8_t node[6], uint8_t out[16], char *err);
/* The fields of a v1 or v6 UUID (EPARSE for any other version). */
MINTID_INTERNAL int mintid_uuid_time_split(const uint8_t id[16], uint64_t *ticks, uint16_t *clock_seq,
                                           uint8_t node[6], char *err);
/* RFC 9562 5.6: only the timestamp bits move. EPARSE unless in is the
 * source version: "UUID is version 4, not 1". */
MINTID_INTERNAL int mintid_uuid1_to_uuid6(const uint8_t in[16], uint8_t out[16], char *err);
MINTID_INTERNAL int mintid_uuid6_to_uuid1(const uint8_t in[16], uint8_t out[16], char *err);
/* Unix ms of a v1, v6 or v7 UUID: 1 with *ms set, 0 for other versions. */
MINTID_INTERNAL int mintid_uuid_unix_ms(const uint8_t id[16], int64_t *ms);

typedef struct {
    int64_t last_ticks;   /* -1 for a new generator */
    uint32_t generation;  /* process the random node/clock_seq were drawn in */
    uint16_t clock_seq;
    uint8_t node[6];
    uint8_t version;      /* 1 or 6 */
    uint8_t fixed_node, fixed_clock_seq; /* given by the caller: kept in a child */
} mintid_uuid_time_gen;
/* node NULL: random (node[0] |= 0x01, RFC 9562 6.10), else node_len must
 * be 6; clock_seq -1: random, else 0..16383 (EARG otherwise). The random
 * parts are one draw: 2 bytes of clock_seq (masked to 14 bits) then 6 of
 * node, whichever are random, drawn here and again on the first call in a
 * forked child. */
MINTID_INTERNAL int mintid_uuid_time_gen_init(mintid_uuid_time_gen *g, unsigned version,
                                              const uint8_t *node, size_t node_len, int64_t clock_seq,
                                              mintid_random_fn rnd, void *ctx, char *err);
/* now_ticks from mintid_uuid_ticks_from_ms/_100ns. Uses now if it is past
 * last_ticks, else last_ticks + 1; EOVERFLOW past 2^60 - 1. */
MINTID_INTERNAL int mintid_uuid_time_gen_next(mintid_uuid_time_gen *g, uint64_t now_ticks,
                                              mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);

/* clock.c: Unix time in 100-ns units (CLOCK_REALTIME ns / 100, FILETIME). */
MINTID_INTERNAL int mintid_clock_100ns(int64_t *now_100ns, char *err);

/* base62.c: the KSUID alphabet (ASCII order: text order is byte order). */
MINTID_INTERNAL const char mintid_base62_alphabet[63];
MINTID_INTERNAL int mintid_base62_value(unsigned char c); /* 0..61, or -1 */
/* The 160-bit big-endian value in 27 symbols, most significant first. */
MINTID_INTERNAL void mintid_base62_encode160(const uint8_t in[20], char out[27]);
/* 27 symbols (each checked by the caller to be in the alphabet) into 20
 * bytes; non-zero when the value passes 2^160 - 1, out then unwritten. */
MINTID_INTERNAL int mintid_base62_decode160(const char text[27], uint8_t out[20]);

/* ksuid.c: 32-bit seconds since 1400000000 | 128-bit payload. */
#define MINTID_KSUID_BYTES    20
#define MINTID_KSUID_TEXT_LEN 27
#define MINTID_KSUID_EPOCH    INT64_C(1400000000)
#define MINTID_KSUID_MAX_UNIX (MINTID_KSUID_EPOCH + INT64_C(0xFFFFFFFF))
/* ERANGE "KSUID timestamp <s> out of range 1400000000..5694967295". */
MINTID_INTERNAL int mintid_ksuid_from_parts(int64_t unix_s, const uint8_t payload[16], uint8_t out[20],
                                            char *err);
MINTID_INTERNAL void mintid_ksuid_encode(const uint8_t id[20], char out[27]);
MINTID_INTERNAL int mintid_ksuid_decode(const char *text, size_t len, uint8_t out[20], char *err);
MINTID_INTERNAL int64_t mintid_ksuid_time(const uint8_t id[20]); /* Unix seconds */

typedef struct {
    int64_t last_s;       /* Unix seconds; -1 for a new generator */
    uint8_t payload[16];
    uint32_t generation;
} mintid_ksuid_gen;
MINTID_INTERNAL void mintid_ksuid_gen_init(mintid_ksuid_gen *g);
/* now_ms is Unix ms (the clock hook's unit), used as floor(now_ms / 1000):
 * 16 fresh bytes in a new second, else the payload + 1 (EOVERFLOW past
 * 2^128 - 1); ERANGE outside the KSUID seconds. */
MINTID_INTERNAL int mintid_ksuid_gen_next(mintid_ksuid_gen *g, int64_t now_ms,
                                          mintid_random_fn rnd, void *ctx, uint8_t out[20], char *err);

/* typeid.c: prefix '_' suffix, the suffix a UUID's 16 bytes in lowercase
 * ULID base32. */
#define MINTID_TYPEID_MAX_PREFIX   63
#define MINTID_TYPEID_SUFFIX_LEN   26
#define MINTID_TYPEID_MAX_TEXT_LEN (MINTID_TYPEID_MAX_PREFIX + 1 + MINTID_TYPEID_SUFFIX_LEN)
/* code is returned with the message: EARG where a caller gave the prefix,
 * EPARSE where it came from parsed text. */
MINTID_INTERNAL int mintid_typeid_check_prefix(const char *prefix, size_t len, int code, char *err);
/* Writes the text, returns its length (26..90) or EARG for a bad prefix. */
MINTID_INTERNAL int mintid_typeid_encode(const char *prefix, size_t prefix_len, const uint8_t id[16],
                                         char out[MINTID_TYPEID_MAX_TEXT_LEN], char *err);
/* The prefix is text[0 .. *prefix_len); EPARSE with the reason otherwise. */
MINTID_INTERNAL int mintid_typeid_decode(const char *text, size_t len, size_t *prefix_len, uint8_t id[16],
                                         char *err);
/* The prefix is checked first, so a bad one leaves g unchanged; returns
 * the text's length or a negative code. */
MINTID_INTERNAL int mintid_typeid_gen_next(mintid_uuid7_gen *g, const char *prefix, size_t prefix_len,
                                           int64_t now_ms, mintid_random_fn rnd, void *ctx,
                                           char out[MINTID_TYPEID_MAX_TEXT_LEN], char *err);
/* ---- end of formats ---- */

#ifdef MINTID_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
