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

#ifdef MINTID_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
