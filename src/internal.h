/*
 * internal.h: every declaration the core's files share, and the one
 * private header: the real layouts of the opaque states of mintid.h, the
 * core's own functions, and the platform layer's interface (os_posix.c,
 * os_win32.c). Not part of the ABI: a program sees only mintid.h.
 * One section per source file: what every file uses first, then the
 * platform layer and the layers the kinds share (errors, randomness,
 * encodings, the monotonic rule, the hashes), then each kind's file in the
 * order SPEC.md presents the kinds, then the default generators. (abi.c and
 * kind.c declare nothing here: their functions are mintid.h's.)
 */
#ifndef MINTID_INTERNAL_H
#define MINTID_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h> /* memcpy, for the inline helpers below */

/* The lock and run-once primitives below are the platform's own types;
 * their headers come here, before the visibility push (see there). */
#ifndef _WIN32
#include <pthread.h>
#endif
#ifdef __SSE2__
#include <emmintrin.h> /* mintid_hex_digits16 */
#endif

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

/* MINTID_INTERNAL marks the core's own functions and tables. In the split
 * build they are extern and hidden (above); the single-file build (make
 * amalgamation) defines MINTID_INTERNAL as static first, as Lua's onelua.c
 * does with LUAI_FUNC, so they never reach a host's symbol table there
 * either. A table's definition carries MINTID_INTERNAL_DATA (nothing, or
 * static), since `extern` there would declare rather than define it. */
#ifndef MINTID_INTERNAL
#define MINTID_INTERNAL extern
#endif
#ifndef MINTID_INTERNAL_DATA
#define MINTID_INTERNAL_DATA
#endif

#if defined(__MINGW32__)
/* error.c formats with MinGW's C99 printf (it asks for
 * __USE_MINGW_ANSI_STDIO), not msvcrt's, which lacks %zu and %lld. */
#define MINTID_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#elif defined(__GNUC__) || defined(__clang__)
#define MINTID_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define MINTID_PRINTF(f, a)
#endif

/* A C99 static assertion: an array of negative size when cond is false. */
#define MINTID_STATIC_ASSERT(cond, name) typedef char mintid_assert_##name[(cond) ? 1 : -1]

/* ==== every file: random and clock sources, opaque states, byte order ===== */
/*
 * A source of randomness: fill buf with exactly n bytes and return
 * MINTID_OK, or return a negative code (normally MINTID_ERANDOM).
 * mintid_random_pool is the default; bindings pass their own to inject
 * test streams. Generators call it only when SPEC.md says to draw.
 */
typedef int (*mintid_random_fn)(void *ctx, uint8_t *buf, size_t n);

/* A clock: Unix time in ms to *now_ms and MINTID_OK, or a negative code
 * with err written. mintid_os_clock_ms is the OS one; a binding passes its
 * own to inject a clock (it must not raise through the core: it records
 * its error, returns MINTID_ECLOCK and raises once the core returned). */
typedef int (*mintid_clock_fn)(void *ctx, int64_t *now_ms, char *err);

/* The real layouts of mintid.h's opaque states.
 * Each public type is converted to its state here only, by one accessor
 * (and its const twin) per type; the assertions keep every state within
 * its opaque type's size and alignment on every build. */
/* A file uses some of the accessors only; in the single file (make
 * amalgamation) clang would call the others unused. */
#if defined(__GNUC__) || defined(__clang__)
#define MINTID_MAYBE_UNUSED __attribute__((unused))
#else
#define MINTID_MAYBE_UNUSED
#endif
/* The hot path of a call kept small: its rare branch in a function of its
 * own, which would otherwise be inlined and make every call save the
 * registers only that branch uses. */
/* And the reverse: a generic step inlined where its sizes are constants,
 * so that its copies become plain moves. */
#if defined(__GNUC__) || defined(__clang__)
#define MINTID_NOINLINE __attribute__((noinline))
#define MINTID_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define MINTID_NOINLINE
#define MINTID_ALWAYS_INLINE inline
#endif

#define MINTID_OPAQUE_STATE(public_type, state_type, accessor)                          \
    /* C99 has no alignof: a type's alignment is its offset after a char. */              \
    struct accessor##_align_public { char c; public_type t; };                            \
    struct accessor##_align_state { char c; state_type t; };                              \
    MINTID_STATIC_ASSERT(sizeof(state_type) <= sizeof(public_type), accessor##_size);     \
    MINTID_STATIC_ASSERT(offsetof(struct accessor##_align_public, t) %                    \
                         offsetof(struct accessor##_align_state, t) == 0, accessor##_align); \
    MINTID_MAYBE_UNUSED static inline state_type *accessor(public_type *p)                 \
    {                                                                                      \
        return (state_type *)(void *)p->opaque;                                            \
    }                                                                                      \
    MINTID_MAYBE_UNUSED static inline const state_type *accessor##_const(const public_type *p) \
    {                                                                                      \
        return (const state_type *)(const void *)p->opaque;                                \
    }

/* Big-endian stores and loads by shifts, so byte order never depends on the host. */
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

/* 8 bytes big-endian: one load or store and a byte swap where the compiler
 * says the host's byte order (GCC and clang; their byte-by-byte forms are
 * not always merged into one access), else written out byte by byte. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint64_t mintid_load_be64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

static inline void mintid_store_be64(uint8_t *p, uint64_t v)
{
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
}
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static inline uint64_t mintid_load_be64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return v;
}

static inline void mintid_store_be64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}
#else
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
#endif

/* ==== divide.c: v / d by a multiply-high, d fixed before the hot loop ==== */
/* The high 64 bits of a * b. */
static inline uint64_t mintid_mul_high(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 mintid_u128;
    return (uint64_t)(((mintid_u128)a * b) >> 64);
#else
    /* 32-bit targets and MSVC: four 32 x 32-bit products. */
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p01 = a0 * b1, p10 = a1 * b0;
    uint64_t mid = ((a0 * b0) >> 32) + (uint32_t)p01 + (uint32_t)p10;
    return a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}
/* The magic and shift of a divisor d >= 2, for mintid_div_quotient. */
MINTID_INTERNAL uint64_t mintid_div_magic(uint64_t d, uint32_t *shift);
/* floor(v / d) for every 64-bit v, from d's magic and shift. */
static inline uint64_t mintid_div_quotient(uint64_t magic, uint32_t shift, uint64_t v)
{
    uint64_t t = mintid_mul_high(magic, v);

    return (t + ((v - t) >> 1)) >> shift;
}

/* ceil(2^s / d), s <= 64, d >= 2: the round-up reciprocal of fixed-point
 * conversions. */
MINTID_INTERNAL uint64_t mintid_div_ceil_pow2(uint32_t s, uint64_t d);
/* The magic, shift and increment (0 or 1) of a divisor 2 <= d < 2^63, for
 * mintid_div_quotient_inc: one step shorter than mintid_div_quotient where
 * a chain of divisions waits on each. */
MINTID_INTERNAL uint64_t mintid_div_magic_inc(uint64_t d, uint32_t *shift, uint32_t *inc);
/* floor(v / d) for every v < 2^64 - 1, from d's magic, shift and
 * increment (the caller may add inc to v ahead of time, off its chain). */
static inline uint64_t mintid_div_quotient_inc(uint64_t magic, uint32_t shift, uint64_t v_plus_inc)
{
    return mintid_mul_high(magic, v_plus_inc) >> shift;
}

/* The 48-bit ms then 80 bits (ULID, UUIDv7): top16 << 64 | low64, as two
 * 8-byte words rather than 6 + 10 bytes. The IDs are built, versioned and
 * encoded 8 bytes at a time: a read over bytes just stored in other pieces
 * waits until they reach the cache. */
static inline void mintid_store_ms_words(uint8_t out[16], int64_t ms, unsigned top16, uint64_t low64)
{
    mintid_store_be64(out, (uint64_t)ms << 16 | (top16 & 0xFFFFu));
    mintid_store_be64(out + 8, low64);
}

/* ==== the platform layer: os_posix.c, os_win32.c ===========================
 * Everything that differs between operating systems, one file per OS
 * (macOS and the BSDs inside os_posix.c); no other file tests _WIN32 but
 * the lock primitives here. */

/* Fill buf from the OS CSPRNG: BCryptGenRandom (Windows), arc4random_buf
 * (macOS, BSDs), getrandom(2) retried on EINTR and short reads, with
 * /dev/urandom where the C library or kernel lacks it (Linux). */
MINTID_INTERNAL int mintid_os_random(uint8_t *buf, size_t n, char *err);
/* The wall clock, Unix ms (floored; negative before 1970, which callers
 * reject with their range message; saturated where ms would not fit). */
MINTID_INTERNAL int mintid_os_clock_ms(int64_t *now_ms, char *err);
/* The wall clock in 100-ns ticks since 1970 (UUIDv1/v6 time). */
MINTID_INTERNAL int mintid_os_clock_100ns(int64_t *ticks, char *err);
/* Unix time in whole seconds, floored, from a coarse clock where there is
 * one (it may lag the others by a tick). */
MINTID_INTERNAL int mintid_os_clock_s(int64_t *now_s, char *err);
/* A clock in ms that only moves forward, whatever the wall clock does
 * (CLOCK_MONOTONIC, GetTickCount64): bounds every wait. Its origin is
 * arbitrary; only differences mean anything. */
MINTID_INTERNAL int64_t mintid_os_monotonic_ms(void);
/* The clock of lease deadlines (fence.c), read on every ID of a leased
 * generator, hence the cheapest monotonic one (CLOCK_MONOTONIC_COARSE,
 * GetTickCount64): in ms, arbitrary origin, behind the true monotonic time
 * by less than mintid_os_deadline_slack_ms(). */
MINTID_INTERNAL int64_t mintid_os_deadline_ms(void);
MINTID_INTERNAL int64_t mintid_os_deadline_slack_ms(void);
/* Give the CPU away for a little while (about 0.1 ms) in a wait loop. */
MINTID_INTERNAL void mintid_os_pause(void);
/* Overwrite memory in a way the compiler may not elide (secrets). */
MINTID_INTERNAL void mintid_secure_zero(void *p, size_t n);
/* The same for a few dozen bytes on a hot path: with GCC and clang a plain
 * memset the compiler may inline, kept by an empty asm that the compiler
 * must assume reads the memory (what glibc's explicit_bzero does inside);
 * elsewhere mintid_secure_zero. 16 to 32 bytes, the IDs' own sizes, are
 * two overlapping 16-byte stores instead of a call of memset. */
#if defined(__GNUC__) || defined(__clang__)
static inline void mintid_secure_zero_small(void *p, size_t n)
{
    if (n >= 16 && n <= 32) {
        memset(p, 0, 16);
        memset((char *)p + n - 16, 0, 16);
    } else {
        memset(p, 0, n);
    }
    __asm__ __volatile__("" : : "r"(p) : "memory");
}
#else
#define mintid_secure_zero_small mintid_secure_zero
#endif

/* Locks and run-once, the platform's own (pthreads; SRW locks and InitOnce
 * on Windows, whose storage is one pointer, zero to start: os_win32.c
 * checks the sizes). */
#ifdef _WIN32
typedef struct { void *ptr; } mintid_lock;
#define MINTID_LOCK_INIT { 0 }
typedef struct { void *ptr; } mintid_once;
#define MINTID_ONCE_INIT { 0 }
MINTID_INTERNAL void mintid_lock_take(mintid_lock *l);
MINTID_INTERNAL void mintid_lock_release(mintid_lock *l);
MINTID_INTERNAL void mintid_run_once(mintid_once *once, void (*fn)(void));
#else
typedef pthread_mutex_t mintid_lock;
#define MINTID_LOCK_INIT PTHREAD_MUTEX_INITIALIZER
typedef pthread_once_t mintid_once;
#define MINTID_ONCE_INIT PTHREAD_ONCE_INIT
#define mintid_lock_take(l) ((void)pthread_mutex_lock(l))
#define mintid_lock_release(l) ((void)pthread_mutex_unlock(l))
#define mintid_run_once(once, fn) ((void)pthread_once((once), (fn)))
#endif

/* A flag or counter written by one thread and read by any without the
 * lock (the fork generation, "set up already"): atomic loads and stores
 * where the compiler has them. */
#if defined(__GNUC__) || defined(__clang__)
#  define MINTID_LOAD_ACQUIRE(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#  define MINTID_STORE_RELEASE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
/* A counter no decision depends on (the tests' reseed count). */
#  define MINTID_ADD_RELAXED(p, v) ((void)__atomic_add_fetch((p), (v), __ATOMIC_RELAXED))
#else
#  define MINTID_LOAD_ACQUIRE(p) (*(p))
#  define MINTID_STORE_RELEASE(p, v) (*(p) = (v))
#  define MINTID_ADD_RELAXED(p, v) ((void)(*(p) += (v)))
#endif

/* Fork handling. A module whose state must not survive into a forked
 * child as it is registers handlers here (pthread_atfork; nothing to do on
 * Windows, which has no fork). POSIX runs prepare handlers in the reverse
 * order of registration, child and parent ones in that order: a module
 * that holds its own lock while taking another module's registers after
 * it (calls its *_fork_init first), so the forking thread takes the locks
 * in the order every caller does. 0 when registered. */
MINTID_INTERNAL int mintid_os_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void));
/* Which process this is, as state records it: a value that differs in
 * every process forked from this one (and in their own children), read
 * without a system call where the fork is watched: the MADV_WIPEONFORK
 * sentinel (Linux >= 4.14, any way of forking) and a pthread_atfork child
 * handler, both set up on the first call. A state whose value differs was
 * made before a fork and must not continue. Inline: where the sentinel
 * holds this process's mark (set up, no new process since) one load of
 * the generation; otherwise mintid_os_fork_generation_slow, which sets the
 * watch up, tells a new process and reads the process id where there is
 * no watch. */
MINTID_INTERNAL uint32_t mintid_os_fork_generation_slow(void);
/* What the inline read reads (the OS layer alone writes them): the
 * generation, and the sentinel page whose first byte the kernel zeroes in
 * a child (NULL where there is none; published once marked). */
MINTID_INTERNAL uint32_t mintid_os_generation;
MINTID_INTERNAL unsigned char *mintid_os_sentinel;
static inline uint32_t mintid_os_fork_generation(void)
{
    const unsigned char *sentinel = MINTID_LOAD_ACQUIRE(&mintid_os_sentinel);

    if (sentinel != NULL && MINTID_LOAD_ACQUIRE(sentinel) != 0)
        return MINTID_LOAD_ACQUIRE(&mintid_os_generation);
    return mintid_os_fork_generation_slow();
}
/* 1 if mintid_os_fork_generation tells a forked child without a system
 * call; 0 if it has to ask for the process id on every call (no sentinel
 * and pthread_atfork failed): then a cache such as the pool is not worth
 * keeping. */
MINTID_INTERNAL int mintid_os_fork_watched(void);

/* A pointer per thread: NULL in every new thread; at_exit(p) runs when a
 * thread whose pointer is not NULL exits (a pthread key's destructor; a
 * fiber-local storage callback on Windows). mintid_os_thread_slot_init is
 * called once, before the others; 0 on success, as is the setter's. */
MINTID_INTERNAL int mintid_os_thread_slot_init(void (*at_exit)(void *p));
MINTID_INTERNAL void *mintid_os_thread_slot(void);
MINTID_INTERNAL int mintid_os_thread_slot_set(void *p);

/* Lock files (the lock-file lease: byte i of a file locked for machine id
 * i): a file opened by one lease, whose byte locks are the kernel's and
 * end with the process however it ends. Open file description (OFD) locks
 * on Linux: each handle conflicts with every other one, also of this
 * process, and another open() and close() of the file does not drop them;
 * LockFileEx on Windows. A handle is never used by a forked child: the
 * child closes its copy at the fork (pthread_atfork, and on its first
 * call after a fork made without the handlers), which leaves the parent's
 * locks held and never keeps them alive. Other POSIX systems have no OFD
 * locks (record locks are per process and dropped at any close of the
 * file): open refuses there. Messages say what failed, not which file
 * ("cannot open: Permission denied"): the caller names it. */
typedef struct mintid_lock_file mintid_lock_file;
/* The file at path (UTF-8), created if missing when create is 1; with
 * create 0 a missing file gives MINTID_OK and *out NULL, and the file is
 * opened for reading only (enough to see the locks, not to take one). */
MINTID_INTERNAL int mintid_os_lock_file_open(const char *path, int create, mintid_lock_file **out, char *err);
/* The path the file was opened by, with every symbolic link resolved (as
 * given where the system cannot say): the one name its layout record and
 * its checks go by, whatever name reached it. */
MINTID_INTERNAL const char *mintid_os_lock_file_path(const mintid_lock_file *f);
/* Opens the file at record (the lock file's layout record), for reading,
 * and keeps it open, in place of one opened before: the record f is
 * checked against from then on. Its first line (without the newline, cut
 * to size - 1 bytes) goes to line; *found 0 when there is no such file or
 * it is empty (a first lease made it and has not written its line yet). */
MINTID_INTERNAL int mintid_os_lock_file_pin(mintid_lock_file *f, const char *record, char *line, size_t size,
                                            int *found, char *err);
/* MINTID_OK if the lock file, and its pinned record, are still the files
 * their paths name and the lock file has one name; else ELEASE saying
 * which changed ("was removed or replaced", "has 2 names (hard links)"):
 * a lease on a file that another process can then create anew must stop,
 * since that process cannot see this one's locks. */
MINTID_INTERNAL int mintid_os_lock_file_check(mintid_lock_file *f, char *err);
/* The Unix ms of the latest change of the lock file's inode or of its
 * pinned record's (ctime: set by the kernel at creation, rename and link,
 * never by a user; 0 where files cannot be removed while open). */
MINTID_INTERNAL int mintid_os_lock_file_changed_ms(mintid_lock_file *f, int64_t *ms, char *err);
/* The held bytes from..to in one walk: each call names one lock another
 * handle holds in that range (*found 1, its first and last byte), so a
 * caller splits the range around it; *found 0: none there. */
MINTID_INTERNAL int mintid_os_lock_file_find(mintid_lock_file *f, uint32_t from, uint32_t to, int *found,
                                             uint32_t *first, uint32_t *last, char *err);
/* An exclusive lock on one byte, not waiting: *got 1, or 0 if another
 * handle (of any process) holds it. EFORK in a forked child. */
MINTID_INTERNAL int mintid_os_lock_file_try(mintid_lock_file *f, uint32_t byte, int *got, char *err);
MINTID_INTERNAL int mintid_os_lock_file_unlock(mintid_lock_file *f, uint32_t byte, char *err);
/* *taken 1 if another handle holds a lock on the byte now. */
MINTID_INTERNAL int mintid_os_lock_file_taken(mintid_lock_file *f, uint32_t byte, int *taken, char *err);
/* Closes the handle (its locks end; in a forked child, only the child's
 * copy is closed) and frees it. */
MINTID_INTERNAL void mintid_os_lock_file_close(mintid_lock_file *f);

/* ==== error.c ============================================================= */
/* Write a one-line message to err (if not NULL) and return code. */
MINTID_INTERNAL int mintid_fail(char *err, int code, const char *fmt, ...) MINTID_PRINTF(3, 4);
/* Describe the byte c for a message: "'U'" for printable ASCII, "0x00"
 * otherwise. out must hold 8 bytes. */
MINTID_INTERNAL const char *mintid_describe_byte(unsigned char c, char out[8]);
/* The shared range check of every 48-bit timestamp:
 * "<kind> timestamp <ms> out of range 0..281474976710655". */
MINTID_INTERNAL int mintid_check_ms(int64_t ms, const char *kind, char *err);

/* ==== chacha20.c: RFC 8439 ChaCha20 ======================================= */
/* The keystream's implementations, all giving the same bytes: the scalar
 * one (every platform; the one RFC 8439's vectors were first checked on)
 * and, on x86-64 with GCC or clang (chacha20_simd.c), SSE2 four blocks at
 * a time, AVX2 eight and AVX-512 sixteen, the last two where the CPU and
 * OS have them (cpuid and xgetbv, read once). Neither on Windows: GCC
 * there does not align the stack to the 32 or 64 bytes its spills of AVX
 * registers assume. */
enum {
    MINTID_CHACHA20_SCALAR,
    MINTID_CHACHA20_SSE2,
    MINTID_CHACHA20_AVX2,
    MINTID_CHACHA20_AVX512,
    MINTID_CHACHA20_IMPLS
};
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MINTID_HAVE_CHACHA20_SSE2 1
/* AVX2 and AVX-512 code in a file compiled for plain x86-64 needs the
 * target attribute's intrinsics: GCC 5 on (4.9 had them, not all of
 * AVX-512's), and clang. */
#if !defined(_WIN32) && !defined(MINTID_NO_AVX2) && (defined(__clang__) || __GNUC__ >= 5)
#define MINTID_HAVE_CHACHA20_AVX2 1
#endif
#endif

/* nblocks 64-byte blocks of the RFC 8439 ChaCha20 keystream, the first with
 * block counter `counter` (a 32-bit counter: it wraps, as the RFC's does),
 * by the fastest implementation this CPU has. */
MINTID_INTERNAL void mintid_chacha20_blocks(const uint8_t key[32], uint32_t counter,
                                            const uint8_t nonce[12], uint8_t *out, size_t nblocks);
/* The same by implementation impl (MINTID_CHACHA20_*): MINTID_OK, or
 * MINTID_EARG with nothing written when this build or CPU lacks it (the
 * tests compare each with the scalar one, the bench times them). */
MINTID_INTERNAL int mintid_chacha20_blocks_by(int impl, const uint8_t key[32], uint32_t counter,
                                              const uint8_t nonce[12], uint8_t *out, size_t nblocks);
/* The implementation mintid_chacha20_blocks uses here, and a name for it. */
MINTID_INTERNAL int mintid_chacha20_best(void);
MINTID_INTERNAL const char *mintid_chacha20_name(int impl);

/* chacha20_simd.c: whole groups of 4 (SSE2) or 8 (AVX2) blocks of the
 * state in (the 16 input words, in[12] the first block's counter), the
 * rest left to the scalar code; each returns the blocks it wrote and
 * advances in[12] past them. */
#ifdef MINTID_HAVE_CHACHA20_SSE2
MINTID_INTERNAL size_t mintid_chacha20_sse2(uint32_t in[16], uint8_t *out, size_t nblocks);
#endif
#ifdef MINTID_HAVE_CHACHA20_AVX2
MINTID_INTERNAL size_t mintid_chacha20_avx2(uint32_t in[16], uint8_t *out, size_t nblocks);
MINTID_INTERNAL int mintid_cpu_has_avx2(void);
MINTID_INTERNAL size_t mintid_chacha20_avx512(uint32_t in[16], uint8_t *out, size_t nblocks);
MINTID_INTERNAL int mintid_cpu_has_avx512(void);
#endif

/* ==== random.c: the pool ================================================== */
/* From the pool: the calling thread's own ChaCha20 generator, keyed from the
 * OS (fast key erasure, a new OS key after 1 MiB), no lock taken. A forked
 * child never continues any thread's stream. Requests over a batch's
 * output (MINTID_RANDOM_BATCH_BLOCKS blocks less the next key's 32 bytes)
 * read the OS directly. */
MINTID_INTERNAL int mintid_random_bytes(uint8_t *buf, size_t n, char *err);
/* mintid_random_bytes as a mintid_random_fn. ctx is NULL or a
 * char[MINTID_ERRMSG_SIZE] that receives the OS's reason on failure: pass
 * the err buffer of the generator call as ctx, and that call's message is
 * "OS random source failed: <strerror text>" instead of a generic one. */
MINTID_INTERNAL int mintid_random_pool(void *ctx, uint8_t *buf, size_t n);
/* Fill buf with n bytes from rnd. On failure the code is negative (a
 * positive one becomes MINTID_ERANDOM) and err holds the source's own
 * message if it wrote one, else "<kind> random source failed". */
MINTID_INTERNAL int mintid_draw_random(mintid_random_fn rnd, void *ctx, uint8_t *buf, size_t n,
                                       const char *kind, char *err);
/* n bytes of the calling thread's batch in place, for a caller that reads
 * them once and is done: what mintid_random_bytes would hand out, without
 * the copy. The pool has moved past them, so they are the caller's alone,
 * and the caller must wipe them (mintid_secure_zero_small) as soon as it has
 * read them, before it calls anything that may draw. NULL where only the
 * full draw serves (a thread's or process's first draw, a refill due, no
 * pool): the caller then draws with mintid_random_bytes, which sets those
 * up, so the next call lends again. */
MINTID_INTERNAL uint8_t *mintid_random_lend(size_t n);
/* n bytes from rnd for a caller that reads them once, at *bytes: lent in
 * place where rnd is the pool and it can lend, else drawn into buf
 * (mintid_draw_random, whose errors these are). The caller wipes them
 * with mintid_secure_zero_small once read, wherever they are. */
static inline int mintid_draw_once(mintid_random_fn rnd, void *ctx, uint8_t *buf, size_t n, const char *kind,
                                   char *err, uint8_t **bytes)
{
    uint8_t *lent = rnd == mintid_random_pool ? mintid_random_lend(n) : NULL;

    if (lent != NULL) {
        *bytes = lent;
        return MINTID_OK;
    }
    *bytes = buf;
    return mintid_draw_random(rnd, ctx, buf, n, kind, err);
}
/* Registers the pool's fork handlers (once; cheap to call again): see
 * mintid_os_atfork for who calls it first. */
MINTID_INTERNAL void mintid_random_fork_init(void);
/* The pool's generator takes a new key from the OS before its output under
 * one key would pass this many bytes. */
#define MINTID_RANDOM_RESEED_BYTES ((size_t)1 << 20)
/* ChaCha20 blocks a refill computes (4 KiB): a refill's fixed costs, the
 * wipe of the vector code's frames above all, are shared by 4064 bytes of
 * output. A multiple of 16, the widest vector code's step. */
#define MINTID_RANDOM_BATCH_BLOCKS 64
/* How many keys the pool's generators have taken from the OS in this
 * process so far (the tests watch the reseeds with it). */
MINTID_INTERNAL uint64_t mintid_random_reseeds(void);
/* How many threads' generators exist now (the tests watch that a thread's
 * is gone once it exited). */
MINTID_INTERNAL size_t mintid_random_threads(void);
/* The calling thread's batch, its size in *size (NULL when the thread has
 * no generator): the tests read what a draw left there. */
MINTID_INTERNAL const uint8_t *mintid_random_batch(size_t *size);

/* ==== hex.c: lowercase hex text ============================================ */
/* Byte b's two lowercase digits: mintid_hex_pairs[b]. */
MINTID_INTERNAL const char mintid_hex_pairs[256][2];
/* The 2n digits of b[0 .. n) to out (no terminator). */
MINTID_INTERNAL void mintid_hex_encode(const uint8_t *b, size_t n, char *out);
/* The same for 16 bytes (UUIDs, trace-ids): SSE2 where the compiler
 * targets it (every x86-64), the table elsewhere; the vectors of every
 * platform check both. */
MINTID_INTERNAL void mintid_hex_encode16(const uint8_t b[16], char out[32]);
/* The same for 12 bytes (ObjectIds), the same two ways. */
MINTID_INTERNAL void mintid_hex_encode12(const uint8_t b[12], char out[24]);
#ifdef __SSE2__
/* The SSE2 way (every x86-64): the 32 digits of the 16 bytes of v left in
 * d[0] and d[1], each byte's high and low nibble side by side, '0' added
 * to each, and 'a' - '0' - 10 more to those above 9. */
static inline void mintid_hex_digits_of(__m128i v, __m128i d[2])
{
    const __m128i low4 = _mm_set1_epi8(0x0F), nine = _mm_set1_epi8(9);
    const __m128i zero_char = _mm_set1_epi8('0'), past_nine = _mm_set1_epi8('a' - '0' - 10);
    const __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), low4), lo = _mm_and_si128(v, low4);
    int i;

    d[0] = _mm_unpacklo_epi8(hi, lo);
    d[1] = _mm_unpackhi_epi8(hi, lo);
    for (i = 0; i < 2; i++)
        d[i] = _mm_add_epi8(d[i], _mm_add_epi8(zero_char, _mm_and_si128(_mm_cmpgt_epi8(d[i], nine), past_nine)));
}

/* mintid_hex_encode16's digits, for a caller that puts more around them
 * (UUID text's hyphens). */
static inline void mintid_hex_digits16(const uint8_t b[16], __m128i d[2])
{
    /* Two 8-byte reads, the way the IDs were stored (mintid_store_ms_words). */
    mintid_hex_digits_of(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)b),
                                            _mm_loadl_epi64((const __m128i *)(const void *)(b + 8))),
                         d);
}
#endif

/* ==== base32.c: Crockford base32, SPEC alphabet, no aliases =============== */
MINTID_INTERNAL const char mintid_base32_alphabet[33]; /* "0123456789ABCDEFGHJKMNPQRSTVWXYZ" */
/* The two symbols of a 10-bit value v: mintid_base32_pairs[v] (the ULID
 * encoder's table: 13 of them make the 26 symbols). */
MINTID_INTERNAL const char mintid_base32_pairs[1024][2];
/* 0..31 for a symbol of the alphabet in either case, -1 for anything else
 * (I, L, O, U included). */
MINTID_INTERNAL int mintid_base32_value(unsigned char c);
/* The table behind mintid_base32_value, for decoders whose per-symbol
 * lookup must be inlined (value 0..31, or -1). UUID decoding uses it for
 * hex digits too: the alphabet starts 0-9, A-F. */
MINTID_INTERNAL const signed char mintid_base32_values[256];

/* ==== monotonic.c: the (last_ms, last_rand) rule shared by ULID, UUIDv7 and
 * relative IDs. The counter is an unsigned big-endian integer of `bits` bits
 * (at most 80), right-aligned in counter[10]. ============================== */
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

/* One call of the SPEC rule.
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

/* One monotonic kind (ulid.c, uuid.c): its counter, and how (ms, counter)
 * become the ID's bytes. */
typedef struct {
    const char *name;
    unsigned bits;
    size_t draw_len;
    mintid_counter_load_fn load;
    void (*store)(int64_t ms, const uint8_t counter[10], uint8_t *out);
} mintid_monotonic_kind;
MINTID_INTERNAL const mintid_monotonic_kind mintid_ulid_kind;
MINTID_INTERNAL const mintid_monotonic_kind mintid_uuid7_kind;

/* The rule for kind k, for a caller that draws outside a lock it holds for
 * the step alone (default.c), with generation the fork generation it read:
 * drawn NULL, MINTID_MONOTONIC_WANTS_DRAW (st unchanged) when the step
 * installs a new ms, which wants k->draw_len fresh bytes; with drawn
 * holding them, the step whatever it does (drawn ignored if it installs
 * none). On MINTID_OK *ms and counter hold the values to encode. */
#define MINTID_MONOTONIC_WANTS_DRAW 1
MINTID_INTERNAL int mintid_monotonic_step(mintid_monotonic *st, const mintid_monotonic_kind *k, int64_t now_ms,
                                          uint32_t generation, const uint8_t *drawn, int64_t *ms,
                                          uint8_t counter[10], char *err);

/* mintid_monotonic_next for kind k, the ID's bytes in out. */
MINTID_INTERNAL int mintid_monotonic_kind_next(mintid_monotonic *st, const mintid_monotonic_kind *k,
                                               int64_t now_ms, mintid_random_fn rnd, void *ctx,
                                               uint8_t *out, char *err);

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

/* ==== hash_block.c: the block framing of MD5, SHA-1 and SHA-256 =========== */
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

/* ==== sha256.c: FIPS 180-4 SHA-256 and RFC 2104 HMAC ====================== */
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

/* ==== md5.c: RFC 1321 MD5, for UUIDv3 only ================================ */
typedef struct { uint32_t h[4]; uint64_t length; uint8_t block[64]; size_t used; } mintid_md5_ctx;
MINTID_INTERNAL void mintid_md5_init(mintid_md5_ctx *c);
MINTID_INTERNAL void mintid_md5_update(mintid_md5_ctx *c, const uint8_t *data, size_t n);
MINTID_INTERNAL void mintid_md5_final(mintid_md5_ctx *c, uint8_t digest[16]);
MINTID_INTERNAL void mintid_md5(const uint8_t *data, size_t n, uint8_t digest[16]);

/* ==== sha1.c: FIPS 180-4 SHA-1, for UUIDv5 only =========================== */
typedef struct { uint32_t h[5]; uint64_t length; uint8_t block[64]; size_t used; } mintid_sha1_ctx;
MINTID_INTERNAL void mintid_sha1_init(mintid_sha1_ctx *c);
MINTID_INTERNAL void mintid_sha1_update(mintid_sha1_ctx *c, const uint8_t *data, size_t n);
MINTID_INTERNAL void mintid_sha1_final(mintid_sha1_ctx *c, uint8_t digest[20]);
MINTID_INTERNAL void mintid_sha1(const uint8_t *data, size_t n, uint8_t digest[20]);

/* ==== sha3.c: FIPS 202 SHA3-512, for CUID2 ================================= */
typedef struct {
    uint64_t a[25]; /* the Keccak state, lanes x + 5y */
    size_t used;    /* bytes of the current block absorbed */
} mintid_sha3_512_ctx;
MINTID_INTERNAL void mintid_sha3_512_init(mintid_sha3_512_ctx *c);
MINTID_INTERNAL void mintid_sha3_512_update(mintid_sha3_512_ctx *c, const uint8_t *data, size_t n);
MINTID_INTERNAL void mintid_sha3_512_final(mintid_sha3_512_ctx *c, uint8_t digest[64]);
MINTID_INTERNAL void mintid_sha3_512(const uint8_t *data, size_t n, uint8_t digest[64]);

/* ==== cuid2.c: CUID2 (SPEC "CUID2") ======================================= */
#define MINTID_CUID2_MIN_LEN         2
#define MINTID_CUID2_DEFAULT_LEN     24
#define MINTID_CUID2_FINGERPRINT_LEN 32  /* a drawn fingerprint's base-36 digits */
#define MINTID_CUID2_FINGERPRINT_MAX 256 /* bytes of a given one */
/* What a call moves: the binding saves and restores it around the push. */
typedef struct {
    uint64_t counter;     /* the next ID's */
    uint32_t generation;  /* the process (fork generation) the counter and a drawn fingerprint belong to */
    uint32_t ready;       /* 0: the next call draws the counter (and a fingerprint not given) */
    char fingerprint[MINTID_CUID2_FINGERPRINT_LEN]; /* drawn */
} mintid_cuid2_moving;
typedef struct {
    mintid_cuid2_moving m;
    uint32_t length;      /* of each ID, 2..32 */
    uint32_t given_len;   /* 0: the fingerprint is drawn, in m */
    uint8_t given[MINTID_CUID2_FINGERPRINT_MAX];
} mintid_cuid2_state;
MINTID_OPAQUE_STATE(mintid_cuid2_gen, mintid_cuid2_state, mintid_cuid2_state_of)
/* EARG "length must be 2..32, got <n>". */
MINTID_INTERNAL int mintid_cuid2_check_length(int64_t length, char *err);
/* The ID of g at now_ms, its random draws from rnd (SPEC "CUID2" has their
 * order); its length, or a status < 0 with g unchanged. */
MINTID_INTERNAL int mintid_cuid2_gen_next(mintid_cuid2_state *g, int64_t now_ms, mintid_random_fn rnd, void *ctx,
                                          char out[MINTID_CUID2_MAX_LEN], char *err);

/* The kinds, in the order SPEC.md presents them. */

/* ==== ulid.c ============================================================== */
typedef struct { mintid_monotonic st; } mintid_ulid_state;
MINTID_OPAQUE_STATE(mintid_ulid_gen, mintid_ulid_state, mintid_ulid_state_of)

MINTID_INTERNAL int  mintid_ulid_from_parts(int64_t ms, const uint8_t rand[10], uint8_t out[16], char *err);
MINTID_INTERNAL int64_t mintid_ulid_time(const uint8_t id[16]); /* bytes 0..5; also UUIDv7's */
/* SPEC monotonic ULID: 10 fresh bytes when now > last_ms (or first call),
 * else the 80-bit counter + 1; EOVERFLOW / ERANGE leave g unchanged. */
MINTID_INTERNAL int  mintid_ulid_gen_next(mintid_ulid_state *g, int64_t now_ms,
                                          mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);

/* ==== uuid.c: UUIDv4 and v7, and any UUID's version and variant =========== */
typedef struct { mintid_monotonic st; } mintid_uuid7_state;
MINTID_OPAQUE_STATE(mintid_uuid7_gen, mintid_uuid7_state, mintid_uuid7_state_of)

MINTID_INTERNAL unsigned mintid_uuid_version(const uint8_t id[16]); /* b[6] >> 4 */
/* b[6] = (b[6] & 0x0F) | version << 4; b[8] = (b[8] & 0x3F) | 0x80 */
MINTID_INTERNAL void mintid_uuid_set_version(uint8_t id[16], unsigned version);
MINTID_INTERNAL int  mintid_uuid4_make(mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);
MINTID_INTERNAL int  mintid_uuid7_from_parts(int64_t ms, const uint8_t rand[10], uint8_t out[16], char *err);
/* SPEC monotonic UUIDv7: the 74-bit counter rand_a << 62 | rand_b. */
MINTID_INTERNAL int  mintid_uuid7_gen_next(mintid_uuid7_state *g, int64_t now_ms,
                                           mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);

/* The variant of any UUID, from the top bits of b[8]. */
#define MINTID_UUID_VARIANT_NCS       0 /* 0xx */
#define MINTID_UUID_VARIANT_RFC9562   1 /* 10x */
#define MINTID_UUID_VARIANT_MICROSOFT 2 /* 110 */
#define MINTID_UUID_VARIANT_FUTURE    3 /* 111 */
MINTID_INTERNAL unsigned mintid_uuid_variant(const uint8_t id[16]);
/* "ncs", "rfc9562", "microsoft" or "future" */
MINTID_INTERNAL const char *mintid_uuid_variant_name(unsigned variant);

/* ==== relative.c: relative IDs (tag << 98 | ms << 50 | rand) ============== */
#define MINTID_RELATIVE_MAX_TAG  UINT32_C(0x3FFFFFFF)          /* 2^30 - 1 */
#define MINTID_RELATIVE_MAX_RAND UINT64_C(0x3FFFFFFFFFFFF)     /* 2^50 - 1 */
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
} mintid_relative_state;
MINTID_OPAQUE_STATE(mintid_relative_gen, mintid_relative_state, mintid_relative_state_of)

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
/* rand = BE56(7 fresh bytes) & (2^50 - 1) on a fresh ms, else counter + 1 */
MINTID_INTERNAL int  mintid_relative_gen_next(mintid_relative_state *g, int64_t now_ms,
                                              const uint8_t *key, size_t key_len,
                                              mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);

/* ==== snowflake_layout.c: where the fields of a Snowflake ID sit ========= */
typedef struct {
    int64_t epoch;     /* Unix ms of unit 0 */
    uint32_t unit_ms;  /* ms per time unit, 1..2^32 - 1 */
    uint8_t time_bits, machine_bits, seq_bits, order;
    /* Worked out once (layout_init), so that minting and parsing shift and
     * mask and never decide: order "time-machine-seq" puts the machine id
     * above the sequence, "time-seq-machine" below it. */
    uint8_t time_shift, machine_shift, seq_shift;
    uint8_t preset;    /* 1 + the index of the preset it equals, or 0 */
    /* SPEC "Snowflake"'s fields (42/1/10/12, time-machine-seq), any
     * epoch: the generator's path with constant shifts, as fast as before
     * layouts. */
    uint8_t spec_fields;
    uint64_t seq_mask; /* 2^S - 1 */
} mintid_snowflake_layout_state;
MINTID_OPAQUE_STATE(mintid_snowflake_layout, mintid_snowflake_layout_state, mintid_snowflake_layout_state_of)

/* 2^bits - 1, for bits 0..63. */
MINTID_MAYBE_UNUSED static inline uint64_t mintid_low_mask(unsigned bits)
{
    return bits == 0 ? 0 : UINT64_MAX >> (64 - bits);
}
/* The default layout's state (SPEC "Snowflake"). */
MINTID_INTERNAL void mintid_snowflake_layout_default_state(mintid_snowflake_layout_state *l);
MINTID_INTERNAL int  mintid_snowflake_layout_state_equal(const mintid_snowflake_layout_state *a,
                                                         const mintid_snowflake_layout_state *b);
/* "T/U/M/S/E/order" (mintid_snowflake_layout_fingerprint) of a state. */
MINTID_INTERNAL size_t mintid_fingerprint_of(const mintid_snowflake_layout_state *l,
                                             char out[MINTID_SNOWFLAKE_FINGERPRINT_MAX]);
/* The Unix ms E + t * U at which unit t starts (INT64_MAX past it). */
MINTID_INTERNAL int64_t mintid_snowflake_unit_start(const mintid_snowflake_layout_state *l, uint64_t t);
/* The start of the first unit after floor_ms: a lease's holder mints from
 * then on. */
MINTID_INTERNAL int64_t mintid_snowflake_ready_ms(const mintid_snowflake_layout_state *l, int64_t floor_ms);
/* The whole units of unit_ms in ms_since_epoch: no division for units of
 * 1 ms (every preset but Sonyflake's), as every ID asks. */
static inline uint64_t mintid_snowflake_units(uint64_t ms_since_epoch, uint64_t unit_ms)
{
    return unit_ms == 1 ? ms_since_epoch : ms_since_epoch / unit_ms;
}
/* The first unit whose start E + t * U is above floor_ms (0 below E).
 * Inline: a generator on a lease asks on every ID. */
static inline uint64_t mintid_snowflake_first_unit_after(const mintid_snowflake_layout_state *l, int64_t floor_ms)
{
    if (floor_ms < l->epoch)
        return 0;
    return mintid_snowflake_units((uint64_t)floor_ms - (uint64_t)l->epoch, l->unit_ms) + 1;
}

/* ==== fence.c: the lease fence of a Snowflake generator =================== */
/* A fence's guard: MINTID_OK with the new last ms while what holds the id
 * still holds it, else the error the refusal gives. */
typedef int (*mintid_fence_guard_fn)(void *ctx, int64_t *last_ms, char *err);
typedef struct {
    /* The Snowflake state of every generator on the fence, shared so that
     * two of them never make the same ID: last_t << S | seq in the
     * fence's layout, which all of them mint (one fence, one layout);
     * MINTID_SNOWFLAKE_UNSTARTED before the first ID. A hold keeps it:
     * IDs go on rising across a change of machine id. */
    MINTID_ALIGNED uint64_t word;
    /* On mintid_os_deadline_ms, less its slack: minting ends while that
     * clock reads below it, never after the lease's own deadline.
     * MINTID_FENCE_FOREVER: none (and no clock read per ID). */
    int64_t deadline_ms;
    int64_t floor_ms;     /* Unix ms: only units starting later are minted */
    /* Unix ms: only units starting at or before it are minted (the floor
     * the lease last gave its store, above which the id's next holder
     * mints), whatever the monotonic clock says: a clock that did not
     * count a suspend still reads inside the deadline after it.
     * MINTID_FENCE_FOREVER: none. */
    int64_t last_ms;
    /* The first unit after last_ms in the fence's layout, the first one
     * refused (UINT64_MAX: none): worked out at each hold and bind, not
     * on every ID. */
    uint64_t last_unit;
    int64_t last_start;   /* the Unix ms last_unit starts at (INT64_MAX: none) */
    /* A guard (a lock file's check), or NULL: past the last ms, minting
     * asks it again instead of refusing, and the fence is lost when it
     * refuses. Set by mintid_fence_guard, cleared by every hold and drop. */
    mintid_fence_guard_fn guard;
    void *guard_ctx;
    uint64_t machine_id;
    uint32_t generation;  /* the process (fork generation) that made or last held it */
    int held;             /* UNHELD, HELD, RELEASED or LOST */
    mintid_snowflake_layout_state layout; /* the default until bound */
    int bound;            /* layout fixed by mintid_fence_bind_layout */
} mintid_fence_state;
MINTID_OPAQUE_STATE(mintid_fence, mintid_fence_state, mintid_fence_state_of)
/* The state of f now, with the ms left to the deadline for HELD and
 * WAITING; the floor and the last ms are compared with the wall clock
 * only when wall is not NULL (a generator compares them with the unit it
 * mints). The deadline clock is read only when there is a deadline.
 * Inline: a generator on the fence asks on every ID. */
static inline int mintid_fence_state_at(const mintid_fence_state *f, const int64_t *wall, int64_t *ms_left)
{
    int64_t now = 0;

    if (f->generation != mintid_os_fork_generation())
        return MINTID_FENCE_FORKED;
    if (f->held != MINTID_FENCE_HELD)
        return f->held;
    if (f->deadline_ms != MINTID_FENCE_FOREVER) {
        now = mintid_os_deadline_ms();
        if (now >= f->deadline_ms)
            return MINTID_FENCE_EXPIRED;
    }
    if (ms_left != NULL)
        *ms_left = f->deadline_ms == MINTID_FENCE_FOREVER ? MINTID_FENCE_FOREVER : f->deadline_ms - now;
    if (wall != NULL && *wall >= f->last_start)
        return MINTID_FENCE_EXPIRED;
    if (wall != NULL && *wall < mintid_snowflake_ready_ms(&f->layout, f->floor_ms))
        return MINTID_FENCE_WAITING;
    return MINTID_FENCE_HELD;
}
/* ELEASE with why a fence in state (not HELD) refuses an ID ("snowflake:
 * lease expired", ...). */
MINTID_INTERNAL int mintid_fence_refuse(int state, char *err);
/* MINTID_OK with the machine id, the floor and the last ms while f is
 * held in this process inside its deadline, else mintid_fence_refuse's
 * error. The floor and the last ms are the caller's to compare with the
 * ms it mints: mintid_fence_refuse_floor says the floor was not passed,
 * mintid_fence_refuse_last that the last ms was. */
static inline int mintid_fence_open(const mintid_fence_state *f, uint64_t *machine_id, int64_t *floor_ms,
                                    int64_t *last_ms, uint64_t *last_unit, char *err)
{
    int state = mintid_fence_state_at(f, NULL, NULL);

    if (state != MINTID_FENCE_HELD)
        return mintid_fence_refuse(state, err);
    *machine_id = f->machine_id;
    *floor_ms = f->floor_ms;
    *last_ms = f->last_ms;
    *last_unit = f->last_unit;
    return MINTID_OK;
}
MINTID_INTERNAL int mintid_fence_refuse_floor(int64_t floor_ms, char *err);
/* Guards a held fence: guard is asked once now (its error refuses the
 * guard, the fence unchanged) and again each time the wall clock passes
 * the last ms it gives; ctx must live while the fence is held. */
MINTID_INTERNAL int mintid_fence_guard(mintid_fence *f, mintid_fence_guard_fn guard, void *ctx, char *err);
/* A guarded fence whose last ms the wall clock now_ms has reached asks its
 * guard: MINTID_OK with a new last ms, or the guard's error and the fence
 * lost. Without a guard (or before the last ms), MINTID_OK and nothing. */
MINTID_INTERNAL int mintid_fence_recheck(mintid_fence_state *f, int64_t now_ms, char *err);
MINTID_INTERNAL int mintid_fence_refuse_last(int64_t last_ms, char *err);

/* ==== lock_file.c: the lock-file lease ==================================== */
/* lock_file.c: try to lock byte machine_id of f; when *got, *floor_ms is
 * the wall ms read after the lock was taken (the floor of the new holder),
 * and the wall clock has reached the first unit of layout l after it
 * (waited for, boundedly). */
MINTID_INTERNAL int mintid_lock_file_take(mintid_lock_file *f, uint32_t machine_id,
                                          const mintid_snowflake_layout_state *l, int *got, int64_t *floor_ms,
                                          char *err);
/* The guard of a fence held by a lock file (mintid_fence_guard): MINTID_OK
 * with the last ms it may mint until its next check while the lock file
 * and its pinned record are the files their paths name, else ELEASE
 * ("snowflake: lease lost: lock file PATH was removed or replaced ..."). */
MINTID_INTERNAL int mintid_lock_file_check(mintid_lock_file *f, int64_t *last_ms, char *err);

/* ==== snowflake.c ========================================================= */
/* How long gen_next waits for the clock to pass an exhausted ms: SPEC's
 * spin, bounded so that a clock stepped back an hour, or one that stopped,
 * fails instead of blocking a worker for an hour. */
#define MINTID_SNOWFLAKE_DEFAULT_MAX_WAIT_MS 1000
#define MINTID_SNOWFLAKE_MAX_WAIT_LIMIT_MS   60000
typedef struct {
    /* last_t << S | seq (t the time unit since the layout's epoch); updated
     * by compare-and-swap, hence 8-byte aligned (see MINTID_ALIGNED). */
    MINTID_ALIGNED uint64_t state;
    mintid_snowflake_layout_state layout;
    uint64_t machine_part; /* machine_id << the layout's machine_shift */
    int32_t max_wait_ms; /* gen_init sets the default; gen_set_max_wait changes it */
    /* The process (fork generation) the generator was made in. Its machine
     * id is all that keeps processes apart, so in a forked child it refuses
     * (MINTID_EFORK) rather than continue the parent's sequence. */
    uint32_t generation;
    /* NULL for a static machine_id; else the lease fence whose machine id
     * it mints with, which alone decides whether it may (its own
     * generation is not looked at: the fence knows its holder process),
     * and whose word is then its state (`state` unused). Its layout is
     * the fence's. */
    mintid_fence_state *fence;
} mintid_snowflake_state;
MINTID_OPAQUE_STATE(mintid_snowflake_gen, mintid_snowflake_state, mintid_snowflake_state_of)

/* The state word of a generator that never made an ID (no real one reaches
 * 2^64 - 1): its first call starts the sequence at 0 whatever ms it sees. */
#define MINTID_SNOWFLAKE_UNSTARTED UINT64_MAX

/* The word g's IDs move (its own, or its fence's), for a caller that puts
 * it back when a result cannot be delivered (the binding). */
MINTID_MAYBE_UNUSED static inline uint64_t *mintid_snowflake_word(mintid_snowflake_state *g)
{
    return g->fence != NULL ? &g->fence->word : &g->state;
}

/* One attempt at now_ms: MINTID_OK, ERANGE (now - epoch negative or not in
 * 42 bits, or an ID with bit 63 set, which a signed 64-bit host cannot hold:
 * SPEC), EFORK (made in another process: make one per process, each with
 * its own machine_id), or EAGAIN when 4096 IDs were already given at
 * last_ms and now_ms has not passed it (the caller reads its clock again).
 * On any error g is unchanged. */
MINTID_INTERNAL int  mintid_snowflake_gen_try(mintid_snowflake_state *g, int64_t now_ms,
                                              uint64_t *id, char *err);
/* EARG unless machine_id is in 0 .. 2^M - 1 of l ("machine_id must be 0..N"). */
MINTID_INTERNAL int  mintid_snowflake_check_machine(const mintid_snowflake_layout_state *l, int64_t machine_id,
                                                    char *err);
/* EARG unless 0 <= max_wait_ms <= MINTID_SNOWFLAKE_MAX_WAIT_LIMIT_MS. */
MINTID_INTERNAL int  mintid_snowflake_gen_set_max_wait(mintid_snowflake_state *g, int64_t max_wait_ms,
                                                       char *err);
/* The one wait loop (SPEC: spin): read `clock`, try, and while the ms is
 * used up wait for the clock to pass it. EAGAIN at once when max_wait_ms
 * is 0 or the clock is back more than max_wait_ms ("snowflake: clock moved
 * back ..."); EAGAIN "snowflake: clock stuck ..." when for max_wait_ms,
 * both in ms of mintid_os_monotonic_ms and in readings, none was later
 * than the latest (a frozen clock). A clock's own error is returned as it
 * is. */
MINTID_INTERNAL int  mintid_snowflake_gen_next_on(mintid_snowflake_state *g, mintid_clock_fn clock,
                                                  void *clock_ctx, uint64_t *id, char *err);
/* gen_next_on with the OS wall clock. */
MINTID_INTERNAL int  mintid_snowflake_gen_next(mintid_snowflake_state *g, uint64_t *id, char *err);
MINTID_INTERNAL size_t mintid_snowflake_format_decimal(uint64_t id, char out[20]); /* returns length */

/* ==== nanoid.c ============================================================ */
MINTID_INTERNAL const char mintid_nanoid_default_alphabet[65];

typedef struct {
    uint8_t alphabet[256];
    uint32_t n;     /* symbols, 1..256 */
    uint32_t mask;  /* smallest 2^k - 1 >= n - 1 */
    size_t size;    /* symbols per ID, 1..MINTID_NANOID_MAX_SIZE */
    size_t step;    /* random bytes per draw */
} mintid_nanoid_state;
MINTID_OPAQUE_STATE(mintid_nanoid_spec, mintid_nanoid_state, mintid_nanoid_state_of)

/* The default spec (SPEC "Nano ID": the default alphabet, 21 symbols). */
MINTID_INTERNAL int  mintid_nanoid_spec_default(mintid_nanoid_spec *s, char *err);
/* EARG unless 1 <= size <= MINTID_NANOID_MAX_SIZE. */
MINTID_INTERNAL int  mintid_nanoid_check_size(int64_t size, char *err);
/* The same alphabet at another size (the step depends on the size). */
MINTID_INTERNAL int  mintid_nanoid_spec_resize(mintid_nanoid_state *s, int64_t size, char *err);
/* For an alphabet of 2^k symbols, where byte i of a draw gives symbol i:
 * the symbols of bytes[0 .. size) to out by implementation impl, MINTID_OK;
 * MINTID_EARG with nothing written where this build, CPU, alphabet or size
 * lacks it (WORDS: any power of 2 on every platform; SSSE3: x86-64 with
 * SSSE3, at most 64 symbols, size >= 16). The tests compare the two. */
enum { MINTID_NANOID_MAP_WORDS, MINTID_NANOID_MAP_SSSE3 };
MINTID_INTERNAL int mintid_nanoid_map_by(int impl, const mintid_nanoid_state *s, const uint8_t *bytes, size_t size,
                                         uint8_t *out);
/* Writes exactly s->size bytes to out. Draws s->step bytes at a time. */
MINTID_INTERNAL int  mintid_nanoid_generate(const mintid_nanoid_state *s, mintid_random_fn rnd, void *ctx,
                                            uint8_t *out, char *err);

/* ==== sqids.c, sqids_blocklist.c ======================================== */
#define MINTID_SQIDS_DEFAULT_WORDS 560
MINTID_INTERNAL const char *const mintid_sqids_default_words[MINTID_SQIDS_DEFAULT_WORDS];
MINTID_INTERNAL const char mintid_sqids_default_alphabet[63];

/* ==== uuid_time.c: UUIDv1 and v6 ========================================== */
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
} mintid_uuid_time_state;
MINTID_OPAQUE_STATE(mintid_uuid_time_gen, mintid_uuid_time_state, mintid_uuid_time_state_of)
/* node NULL: random (node[0] |= 0x01, RFC 9562 6.10), else node_len must
 * be 6; clock_seq -1: random, else 0..16383 (EARG otherwise). The random
 * parts are one draw: 2 bytes of clock_seq (masked to 14 bits) then 6 of
 * node, whichever are random, drawn here and again on the first call in a
 * forked child. */
MINTID_INTERNAL int mintid_uuid_time_state_init(mintid_uuid_time_state *g, unsigned version,
                                                const uint8_t *node, size_t node_len, int64_t clock_seq,
                                                mintid_random_fn rnd, void *ctx, char *err);
/* now_ticks from mintid_uuid_ticks_from_ms/_100ns. Uses now if it is past
 * last_ticks, else last_ticks + 1; EOVERFLOW past 2^60 - 1. */
MINTID_INTERNAL int mintid_uuid_time_gen_next(mintid_uuid_time_state *g, uint64_t now_ticks,
                                              mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);
/* gen_next at a clock hook's Unix ms, or at the OS clock's 100-ns reading
 * (ERANGE, named for g's version, outside the 60-bit ticks). */
MINTID_INTERNAL int mintid_uuid_time_gen_next_ms(mintid_uuid_time_state *g, int64_t now_ms,
                                                 mintid_random_fn rnd, void *ctx, uint8_t out[16], char *err);
MINTID_INTERNAL int mintid_uuid_time_gen_next_100ns(mintid_uuid_time_state *g, int64_t unix_100ns,
                                                    mintid_random_fn rnd, void *ctx, uint8_t out[16],
                                                    char *err);

/* ==== uuid_name.c: UUIDv3, v5 and v8 ====================================== */
/* uuid_name.c: name-based v3 (MD5), v5 (SHA-1), v8 (SHA-256, RFC 9562
 * B.2), the custom v8, and the RFC 9562 6.6 name spaces. name may be NULL
 * when name_len is 0. */
MINTID_INTERNAL const uint8_t mintid_uuid_namespace_dns[16];
MINTID_INTERNAL const uint8_t mintid_uuid_namespace_url[16];
MINTID_INTERNAL const uint8_t mintid_uuid_namespace_oid[16];
MINTID_INTERNAL const uint8_t mintid_uuid_namespace_x500[16];
typedef void (*mintid_name_uuid_fn)(const uint8_t ns[16], const uint8_t *name, size_t name_len, uint8_t out[16]);
MINTID_INTERNAL void mintid_uuid3(const uint8_t ns[16], const uint8_t *name, size_t name_len, uint8_t out[16]);
MINTID_INTERNAL void mintid_uuid5(const uint8_t ns[16], const uint8_t *name, size_t name_len, uint8_t out[16]);
MINTID_INTERNAL void mintid_uuid8_sha256(const uint8_t ns[16], const uint8_t *name, size_t name_len,
                                         uint8_t out[16]);
/* The 16 bytes with version 8 and the variant set, the other 122 bits kept. */
MINTID_INTERNAL void mintid_uuid8(const uint8_t b[16], uint8_t out[16]);

/* ==== base62.c ============================================================ */
/* base62.c: the KSUID alphabet (ASCII order: text order is byte order). */
MINTID_INTERNAL const char mintid_base62_alphabet[63];
MINTID_INTERNAL int mintid_base62_value(unsigned char c); /* 0..61, or -1 */
/* The 160-bit big-endian value in 27 symbols, most significant first. */
MINTID_INTERNAL void mintid_base62_encode160(const uint8_t in[20], char out[27]);
/* 27 symbols (each checked by the caller to be in the alphabet) into 20
 * bytes; non-zero when the value passes 2^160 - 1, out then unwritten. */
MINTID_INTERNAL int mintid_base62_decode160(const char text[27], uint8_t out[20]);

/* ==== ksuid.c ============================================================= */
/* ksuid.c: 32-bit seconds since 1400000000 | 128-bit payload. */
#define MINTID_KSUID_BYTES    20
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
} mintid_ksuid_state;
MINTID_OPAQUE_STATE(mintid_ksuid_gen, mintid_ksuid_state, mintid_ksuid_state_of)
/* now_ms is Unix ms (the clock hook's unit), used as floor(now_ms / 1000):
 * 16 fresh bytes in a new second, else the payload + 1 (EOVERFLOW past
 * 2^128 - 1); ERANGE outside the KSUID seconds. */
MINTID_INTERNAL int mintid_ksuid_gen_next(mintid_ksuid_state *g, int64_t now_ms,
                                          mintid_random_fn rnd, void *ctx, uint8_t out[20], char *err);

/* ==== short_uuid.c: a UUID's 128 bits in an alphabet of 2..256 symbols ==== */
#define MINTID_SHORT_UUID_MAX_CHUNKS 8 /* at most 7, for n = 129 */
typedef struct {
    uint8_t symbol[256];
    int16_t value[256];     /* a byte's symbol value, -1 outside the alphabet */
    uint32_t n;             /* symbols, 2..256 */
    uint32_t length;        /* L: the smallest with n^L >= 2^128 */
    uint32_t per_chunk;     /* k symbols a chunk */
    uint32_t chunk;         /* D = n^k */
    uint32_t chunks;        /* ceil(L / k) */
    uint64_t recip;         /* ceil(2^64 / D) */
    uint64_t top_recip;     /* ceil(2^64 / n^top), top = L - (chunks - 1) * k */
    uint64_t chunk_magic;   /* x / D by a multiply-high (divide.c) */
    uint32_t chunk_shift;
    uint32_t chunk_inc;
    /* power[p][i]: chunk i (least significant first) of 2^(32 * (3 - p)),
     * the weight of the value's 32-bit word p (word 0 most significant). */
    uint32_t power[4][MINTID_SHORT_UUID_MAX_CHUNKS];
    /* The two-symbol pairs of a reference alphabet (short_uuid.c), NULL
     * for any other: pair[j], j < n^2, is symbols j / n and j % n. */
    const uint8_t (*pair)[2];
} mintid_short_uuid_state;
MINTID_OPAQUE_STATE(mintid_short_uuid_alphabet, mintid_short_uuid_state, mintid_short_uuid_state_of)
/* mintid_short_uuid_encode, returning the length it wrote: the binding's
 * one call for both, not through the exported symbols' indirection. */
MINTID_INTERNAL size_t mintid_short_uuid_write(const mintid_short_uuid_alphabet *a, const uint8_t id[16], char *out);
/* ==== seconds_counter.c, objectid.c, xid.c, os_hostid.c =================== */
/* seconds_counter.c: the rule ObjectIds and XIDs share: bytes 0..3 the
 * seconds (never back within a generator), bytes 9..11 a 24-bit counter
 * from a start drawn once per process, + 1 per ID, wrapping. */
#define MINTID_OBJECTID_BYTES 12
#define MINTID_XID_BYTES      12
typedef struct {
    int64_t last_s;      /* Unix seconds; -1 for a new state */
    uint32_t counter;    /* the last ID's */
    uint32_t generation; /* the process the counter belongs to */
    uint32_t first;      /* the counter of the first ID in second last_s */
    uint64_t first_ticket; /* shared counters: the ticket of that first ID */
} mintid_seconds_counter;
MINTID_INTERNAL void mintid_seconds_counter_init(mintid_seconds_counter *st);
/* 1 when the next step takes a drawn start: a new state, or a process
 * forked since the last step (a forked child must not continue its
 * parent's counter, nor, for an ObjectId, its random bytes). Inline: every
 * ID asks it. */
static inline int mintid_seconds_counter_fresh(const mintid_seconds_counter *st, uint32_t generation)
{
    return st->last_s < 0 || st->generation != generation;
}
/* floor(now_ms / 1000): C's division truncates toward zero, the floor
 * for every ms >= 0; a negative ms is refused either way, but its
 * message names the second it falls in. */
static inline int64_t mintid_seconds_of_ms(int64_t now_ms)
{
    return now_ms / 1000 - (now_ms % 1000 < 0);
}
/* MINTID_OK for seconds 0..4294967295, else ERANGE "<kind> timestamp <s>
 * out of range 0..4294967295" (written out of line: the check is inline,
 * as every ID asks it). */
MINTID_INTERNAL int mintid_seconds_out_of_range(const char *kind, int64_t seconds, char *err);
static inline int mintid_seconds_check(const char *kind, int64_t seconds, char *err)
{
    if (seconds < 0 || seconds > INT64_C(0xFFFFFFFF))
        return mintid_seconds_out_of_range(kind, seconds, err);
    return MINTID_OK;
}
/* The step: seconds checked by mintid_seconds_check, start read only when
 * fresh; writes the ID, bytes 4..8 the kind's own, middle (40 bits, the
 * first byte highest). EOVERFLOW "<kind> counter exhausted ..." (the
 * state unchanged) when the counter would come back to the first of its
 * second: 2^24 IDs in one second, the next would repeat. */
MINTID_INTERNAL int mintid_seconds_counter_step(mintid_seconds_counter *st, const char *kind, int64_t seconds,
                                                uint32_t generation, const uint8_t start[3], uint64_t middle,
                                                uint8_t out[12], char *err);
/* The ID that would repeat its second's first (EOVERFLOW, above), out of
 * line: the steps are inline. */
MINTID_INTERNAL int mintid_seconds_counter_exhausted(const mintid_seconds_counter *st, const char *kind, char *err);
/* The ID, once a step has chosen its counter: the second, the kind's five
 * bytes (middle, a 40-bit big-endian number) and the counter. A clock set
 * back keeps the last second, so one generator's IDs increase until its
 * counter wraps within a second. Two stores, of bytes 0..7 and 8..11: an
 * encoder that reads the ID back in those pieces (hex.c's SSE2, xid.c)
 * has them forwarded from the stores, where a read across several
 * narrower stores waits until they have reached the cache. */
static inline int mintid_seconds_counter_put(mintid_seconds_counter *st, int64_t seconds, uint64_t middle,
                                             uint8_t out[12])
{
    if (seconds > st->last_s)
        st->last_s = seconds;
    mintid_store_be64(out, (uint64_t)(uint32_t)st->last_s << 32 | middle >> 8);
    mintid_store_be32(out + 8, (uint32_t)(middle & 0xFF) << 24 | st->counter);
    return MINTID_OK;
}
/* The same step with a counter taken from a counter shared by many
 * generators (xid.c's process counter): ticket the shared counter's count
 * of values taken, counter its value. EOVERFLOW, as above, once 2^24
 * tickets have passed since this generator's first ID of its second: a
 * counter value could then come back within that second. Inline: the
 * default XID takes this step on every ID. */
static inline int mintid_seconds_counter_step_shared(mintid_seconds_counter *st, const char *kind, int64_t seconds,
                                                     uint32_t generation, uint64_t ticket, uint32_t counter,
                                                     uint64_t middle, uint8_t out[12], char *err)
{
    if (mintid_seconds_counter_fresh(st, generation) || seconds > st->last_s) {
        st->first_ticket = ticket;
        st->generation = generation;
    } else if (ticket - st->first_ticket >= (UINT64_C(1) << 24)) {
        /* Other generators took the values between: 2^24 tickets since this
         * second's first, and this value may be one of its own again. */
        return mintid_seconds_counter_exhausted(st, kind, err);
    }
    st->counter = counter & UINT32_C(0xFFFFFF);
    return mintid_seconds_counter_put(st, seconds, middle, out);
}

/* objectid.c */
typedef struct {
    mintid_seconds_counter sc;
    uint8_t random[5]; /* drawn with the counter's start */
} mintid_objectid_state;
MINTID_OPAQUE_STATE(mintid_objectid_gen, mintid_objectid_state, mintid_objectid_state_of)
/* 8 bytes drawn from rnd on a fresh state (5 random, 3 the start). */
MINTID_INTERNAL int mintid_objectid_gen_next(mintid_objectid_state *g, int64_t now_ms, mintid_random_fn rnd,
                                             void *ctx, uint8_t out[12], char *err);
/* The same at Unix seconds (a clock that reads seconds: no ms between). */
MINTID_INTERNAL int mintid_objectid_gen_next_s(mintid_objectid_state *g, int64_t seconds, mintid_random_fn rnd,
                                               void *ctx, uint8_t out[12], char *err);

/* xid.c */
typedef struct {
    mintid_seconds_counter sc;
    uint8_t machine[3];
    uint8_t pid_given; /* else pid is the process's, again in a forked child */
    uint8_t shares;    /* the process's identity: the process's one counter */
    uint16_t pid;
} mintid_xid_state;
MINTID_OPAQUE_STATE(mintid_xid_gen, mintid_xid_state, mintid_xid_state_of)
/* 3 bytes drawn from rnd on a fresh state (the start), or for the process
 * counter (default.c) when it has none in this process yet. */
MINTID_INTERNAL int mintid_xid_gen_next(mintid_xid_state *g, int64_t now_ms, mintid_random_fn rnd, void *ctx,
                                        uint8_t out[12], char *err);
/* The process's one XID counter (default.c owns it and its lock): its
 * start drawn at its first use in a process (a forked child's too). */
typedef struct {
    int drawn;           /* start drawn in process generation */
    uint32_t generation;
    uint32_t start;
    uint64_t tickets;    /* values taken since the start */
} mintid_xid_counter;
/* mintid_xid_gen_next at Unix seconds. A generator of the process's
 * identity takes its counter from held when the caller holds that
 * counter's lock (default.c's default XID, which steps under it), else
 * (held NULL) through mintid_default_xid_counter. */
MINTID_INTERNAL int mintid_xid_gen_next_s(mintid_xid_state *g, int64_t seconds, mintid_random_fn rnd, void *ctx,
                                          mintid_xid_counter *held, uint8_t out[12], char *err);
/* default.c: the one XID counter of this process (rs/xid has one per
 * process), which every generator of the process's identity takes its
 * counter from, so that two of them never give one ID: its start drawn
 * from rnd at its first use in a process (a forked child's too); ticket
 * the count of values taken before this one. Takes the counter's lock. */
MINTID_INTERNAL int mintid_default_xid_counter(uint32_t generation, mintid_random_fn rnd, void *ctx,
                                               uint64_t *ticket, uint32_t *counter, char *err);
/* This process's pid as rs/xid works it out (xid.c). */
MINTID_INTERNAL uint16_t mintid_xid_process_pid(void);
/* The counter's next value, its owner's lock held. In a new process (a
 * forked child) the counter starts afresh, from a new draw. */
static inline int mintid_xid_counter_take(mintid_xid_counter *c, uint32_t generation, mintid_random_fn rnd,
                                          void *ctx, uint64_t *ticket, uint32_t *counter, char *err)
{
    uint8_t start[3];
    int rc;

    if (!c->drawn || c->generation != generation) {
        rc = mintid_draw_random(rnd, ctx, start, sizeof start, "XID", err);
        if (rc != MINTID_OK)
            return rc;
        c->start = (uint32_t)start[0] << 16 | (uint32_t)start[1] << 8 | start[2];
        c->tickets = 0;
        c->generation = generation;
        c->drawn = 1;
    }
    *ticket = c->tickets++;
    *counter = (c->start + (uint32_t)*ticket) & UINT32_C(0xFFFFFF);
    return MINTID_OK;
}
/* Bytes 4..8 of g's IDs, the machine id and the pid, as a 40-bit number. */
static inline uint64_t mintid_xid_identity(const mintid_xid_state *g)
{
    return (uint64_t)g->machine[0] << 32 | (uint64_t)g->machine[1] << 24 | (uint64_t)g->machine[2] << 16 | g->pid;
}
/* mintid_xid_gen_next_s of a generator of the process's identity
 * (g->shares). Inline: default.c's default XID steps so on every ID, with
 * the counter's lock held. */
static inline int mintid_xid_next_shared(mintid_xid_state *g, int64_t seconds, mintid_random_fn rnd, void *ctx,
                                         mintid_xid_counter *held, uint8_t out[12], char *err)
{
    uint32_t generation = mintid_os_fork_generation();
    uint64_t ticket = 0;
    uint32_t counter = 0;
    int rc;

    rc = mintid_seconds_check("XID", seconds, err);
    if (rc != MINTID_OK)
        return rc;
    /* Generators of the process's identity share its one counter: apart,
     * two of them would give one ID once their counters met. */
    if (held != NULL)
        rc = mintid_xid_counter_take(held, generation, rnd, ctx, &ticket, &counter, err);
    else
        rc = mintid_default_xid_counter(generation, rnd, ctx, &ticket, &counter, err);
    if (rc != MINTID_OK)
        return rc;
    /* In a new process (a forked child) the pid is its own and the counter
     * new (above): a child whose pid matched its parent's in the low 16
     * bits must not continue the parent's counter either. */
    if (mintid_seconds_counter_fresh(&g->sc, generation))
        g->pid = mintid_xid_process_pid();
    return mintid_seconds_counter_step_shared(&g->sc, "XID", seconds, generation, ticket, counter,
                                              mintid_xid_identity(g), out, err);
}
MINTID_INTERNAL uint32_t mintid_crc32_ieee(const uint8_t *p, size_t n);
/* This process's machine id as rs/xid works it out. */
MINTID_INTERNAL int mintid_xid_process_machine(uint8_t machine[3], char *err);

/* os_hostid.c: the platform's machine id as rs/xid reads it, the host
 * name, the process id and /proc/self/cpuset; MINTID_OK with *len bytes,
 * or MINTID_EARG where there is none (or it does not fit). */
#define MINTID_OS_HOST_ID_MAX 256
#define MINTID_OS_CPUSET_MAX  4096
MINTID_INTERNAL int mintid_os_platform_machine_id(char *buf, size_t cap, size_t *len);
MINTID_INTERNAL int mintid_os_hostname(char *buf, size_t cap, size_t *len);
MINTID_INTERNAL uint32_t mintid_os_process_id(void);
MINTID_INTERNAL int mintid_os_cpuset(uint8_t *buf, size_t cap, size_t *len);

/* ==== typeid.c ============================================================ */
/* typeid.c: prefix '_' suffix, the suffix a UUID's 16 bytes in lowercase
 * ULID base32. */
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
MINTID_INTERNAL int mintid_typeid_gen_next(mintid_uuid7_state *g, const char *prefix, size_t prefix_len,
                                           int64_t now_ms, mintid_random_fn rnd, void *ctx,
                                           char out[MINTID_TYPEID_MAX_TEXT_LEN], char *err);

/* ==== trace.c: W3C Trace Context ========================================== */
#define MINTID_TRACE_ID_BYTES 16
#define MINTID_SPAN_ID_BYTES  8
/* n (16 or 8) bytes from rnd as 2n lowercase hex digits to out, drawn
 * again while all zero (ERANDOM after 4 such draws). */
MINTID_INTERNAL int mintid_trace_draw_id(mintid_random_fn rnd, void *ctx, size_t n, char *out, char *err);
/* mintid_traceparent_text with the fresh IDs drawn from rnd. */
MINTID_INTERNAL int mintid_traceparent_make(const char *trace_id, size_t trace_id_len,
                                            const char *parent_id, size_t parent_id_len, int64_t flags,
                                            mintid_random_fn rnd, void *ctx, char out[55], char *err);

/* ==== default.c: the process-wide default generators ====================== */
/* Shared by every Lua state and thread of the process, each monotonic one
 * under a lock of its own held for the step alone; fresh in a forked
 * child, as every generator is (mintid_monotonic). */
MINTID_INTERNAL int mintid_default_ulid(uint8_t out[16], char *err);
MINTID_INTERNAL int mintid_default_uuid7(uint8_t out[16], char *err);
MINTID_INTERNAL int mintid_default_uuid4(uint8_t out[16], char *err);
MINTID_INTERNAL int mintid_default_uuid1(uint8_t *out, char *err); /* 16 bytes */
MINTID_INTERNAL int mintid_default_uuid6(uint8_t *out, char *err); /* 16 bytes */
MINTID_INTERNAL int mintid_default_ksuid(uint8_t *out, char *err); /* 20 bytes */
MINTID_INTERNAL int mintid_default_objectid(uint8_t *out, char *err); /* 12 bytes */
MINTID_INTERNAL int mintid_default_xid(uint8_t *out, char *err); /* 12 bytes */
/* Each thread draws from its own pool: no state to guard. */
MINTID_INTERNAL int mintid_default_nanoid(char out[MINTID_NANOID_DEFAULT_SIZE], char *err);

#ifdef MINTID_VISIBILITY_PUSHED
#pragma GCC visibility pop
#endif

#endif
