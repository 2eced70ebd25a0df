/* random.c: the OS CSPRNG, the process-wide pool (a ChaCha20 generator
 * keyed from it) that spares the hot path a system call per ID, and the
 * one way generators draw from a source.
 *
 * Sources: BCryptGenRandom on Windows; arc4random_buf on macOS and the
 * BSDs (kernel-seeded, never fails, reseeds itself in a forked child);
 * getrandom(2) on Linux, with /dev/urandom where the C library or the
 * kernel lacks it. */
#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__NetBSD__) || \
    defined(__OpenBSD__) || defined(__DragonFly__)
/* No feature macros here: with _POSIX_C_SOURCE these headers hide
 * arc4random_buf. */
#  define MINTID_HAVE_ARC4RANDOM 1
#elif !defined(_WIN32)
#  define _DEFAULT_SOURCE           /* explicit_bzero (glibc), MAP_ANONYMOUS */
#  define _POSIX_C_SOURCE 200809L   /* O_CLOEXEC, pthread */
#endif

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "platform.h"

#ifdef _WIN32
#  include <bcrypt.h>
#else
#  include <fcntl.h>
#  include <unistd.h>
#endif

/* getrandom(2) where the C library declares it (glibc >= 2.25, musl,
 * recent bionic); /dev/urandom everywhere else. macOS also has a
 * <sys/random.h>, with getentropy only, hence the __linux__ test.
 * MINTID_NO_GETRANDOM builds the /dev/urandom path alone (a test build). */
#if defined(__linux__) && !(defined(__ANDROID__) && __ANDROID_API__ < 28) && \
    !defined(MINTID_NO_GETRANDOM)
#  if defined(__has_include)
#    if __has_include(<sys/random.h>)
#      define MINTID_HAVE_GETRANDOM 1
#    endif
#  elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 25))
#    define MINTID_HAVE_GETRANDOM 1
#  endif
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 25))
#  define MINTID_HAVE_EXPLICIT_BZERO 1
#endif

#ifdef MINTID_HAVE_GETRANDOM
#include <sys/random.h>
#endif

/* The fork sentinel: a page the kernel zeroes in every child, whatever made
 * it (fork, _Fork, raw clone, posix_spawn's internals): Linux >= 4.14's
 * MADV_WIPEONFORK. MINTID_NO_WIPEONFORK leaves the pthread_atfork handlers
 * alone in charge (a test build of that path). */
#if defined(__linux__) && !defined(MINTID_NO_WIPEONFORK)
#  include <sys/mman.h>
#  ifdef MADV_WIPEONFORK
#    define MINTID_HAVE_WIPEONFORK 1
#  endif
#endif

#define RANDOM_FAILED "OS random source failed"

#ifdef _WIN32
int mintid_os_random(uint8_t *buf, size_t n, char *err)
{
    while (n > 0) {
        ULONG take = n > 0x40000000 ? 0x40000000 : (ULONG)n;
        NTSTATUS status = BCryptGenRandom(NULL, buf, take, BCRYPT_USE_SYSTEM_PREFERRED_RNG);

        if (!BCRYPT_SUCCESS(status))
            return mintid_fail(err, MINTID_ERANDOM, RANDOM_FAILED ": BCryptGenRandom status 0x%08lx",
                               (unsigned long)status);
        buf += take;
        n -= take;
    }
    return MINTID_OK;
}
#elif defined(MINTID_HAVE_ARC4RANDOM)
int mintid_os_random(uint8_t *buf, size_t n, char *err)
{
    (void)err;
    arc4random_buf(buf, n);
    return MINTID_OK;
}
#else
static int read_urandom(uint8_t *buf, size_t n, char *err)
{
    int fd, saved;

    do {
        fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return mintid_fail_errno(err, MINTID_ERANDOM, RANDOM_FAILED, errno);
    while (n > 0) {
        ssize_t r = read(fd, buf, n);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            saved = r < 0 ? errno : EIO; /* EOF on a device that never ends */
            close(fd);
            return mintid_fail_errno(err, MINTID_ERANDOM, RANDOM_FAILED, saved);
        }
        buf += r;
        n -= (size_t)r;
    }
    close(fd);
    return MINTID_OK;
}

int mintid_os_random(uint8_t *buf, size_t n, char *err)
{
#ifdef MINTID_HAVE_GETRANDOM
    while (n > 0) {
        /* Flags 0: blocks only until the kernel pool is first seeded. */
        ssize_t r = getrandom(buf, n, 0);

        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == ENOSYS || errno == EPERM))
            return read_urandom(buf, n, err); /* old kernel, or a seccomp filter */
        if (r <= 0)
            return mintid_fail_errno(err, MINTID_ERANDOM, RANDOM_FAILED, r < 0 ? errno : EIO);
        buf += r;
        n -= (size_t)r;
    }
    return MINTID_OK;
#else
    return n > 0 ? read_urandom(buf, n, err) : MINTID_OK;
#endif
}
#endif

void mintid_secure_zero(void *p, size_t n)
{
#if defined(_WIN32)
    SecureZeroMemory(p, n);
#elif defined(MINTID_HAVE_EXPLICIT_BZERO)
    explicit_bzero(p, n);
#else
    /* Stores through a volatile pointer may not be dropped as dead. */
    volatile unsigned char *q = (volatile unsigned char *)p;

    while (n-- > 0)
        *q++ = 0;
#endif
}

/* ---- the pool: a user-space ChaCha20 generator -------------------------
 *
 * Built the way OpenBSD's arc4random and the Linux kernel's crng are: a
 * ChaCha20 key drawn from the OS source; each refill computes a batch of
 * keystream blocks, whose first 32 bytes at once become the next key (the
 * old one is overwritten: "fast key erasure", so a later snapshot of this
 * memory cannot give back bytes already handed out) and whose rest is the
 * output. Each byte is wiped as it is handed out. A fresh key comes from
 * the OS after MINTID_RANDOM_RESEED_BYTES of output, and in a forked child
 * before its first byte (new_process_locked). The nonce stays zero and the
 * block counter starts at 0 in every batch: no key ever encrypts twice. */

#define KEY_SIZE 32
#define BATCH_BLOCKS 16
#define BATCH_SIZE (64 * BATCH_BLOCKS)
#define BATCH_OUTPUT (BATCH_SIZE - KEY_SIZE)

static mintid_lock pool_lock = MINTID_LOCK_INIT;
static mintid_once pool_once = MINTID_ONCE_INIT;
/* Set (release) once pool_register has run, so the hot path tests one flag
 * instead of calling pthread_once. */
static int pool_registered;
/* Bumped in every new process (forked child) before it uses the pool or a
 * generator, so a generator object can tell, with one load and no system
 * call, that it now runs in another process than the one its state was
 * made in. Written under pool_lock; read without it (atomically). */
static uint32_t fork_generation;
/* The generator, all under pool_lock. */
static uint8_t pool_key[KEY_SIZE];
static int pool_keyed;                 /* pool_key came from the OS in this process */
static size_t pool_since_key;          /* output bytes made with keys since the OS one */
static uint64_t pool_reseeds;          /* OS keys taken: for the tests */
static uint8_t pool[BATCH_SIZE];
static size_t pool_next = BATCH_SIZE;  /* first unused byte; BATCH_SIZE = empty */
/* Written once under pool_once, read after it: no race. Without a way to
 * see a fork a child could repeat its parent's bytes, so then no pool. */
static int pool_fork_safe;

#ifndef _WIN32
/* This process was forked from the one the pool and generation belong to:
 * drop the parent's key and bytes (both processes would hand out the same
 * stream, hence the same IDs) and move to a new generation. pool_lock is
 * held. */
static void new_process_locked(void);
#endif

#ifdef MINTID_HAVE_WIPEONFORK
/* A page the kernel zeroes in each child; its first byte is 1 in the
 * process that set it. Found 0: this is a new process (made by any means,
 * including those that run no pthread_atfork handler). */
static unsigned char *fork_sentinel;

static void sentinel_setup(void)
{
    long page = sysconf(_SC_PAGESIZE);
    void *p;

    if (page <= 0)
        return;
    p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    /* EINVAL before Linux 4.14: pthread_atfork alone then. */
    if (madvise(p, (size_t)page, MADV_WIPEONFORK) != 0) {
        munmap(p, (size_t)page);
        return;
    }
    fork_sentinel = p;
    MINTID_STORE_RELEASE(fork_sentinel, 1);
}

/* With pool_lock held. */
static void sentinel_check_locked(void)
{
    if (fork_sentinel != NULL && MINTID_LOAD_ACQUIRE(fork_sentinel) == 0)
        new_process_locked();
}

/* The hot path: one load; the lock only in a new process's first call. */
static void sentinel_check(void)
{
    if (fork_sentinel != NULL && MINTID_LOAD_ACQUIRE(fork_sentinel) == 0) {
        mintid_lock_take(&pool_lock);
        sentinel_check_locked();
        mintid_lock_release(&pool_lock);
    }
}
#else
#define sentinel_setup() ((void)0)
#define sentinel_check_locked() ((void)0)
#define sentinel_check() ((void)0)
#endif

#ifdef _WIN32
/* No fork on Windows: one process, one generation. */
static void pool_register(void)
{
    pool_fork_safe = 1;
    MINTID_STORE_RELEASE(&pool_registered, 1);
}
#else
static void new_process_locked(void)
{
    /* Forget the key and every byte not yet handed out: the next draw
     * takes a new key from the OS. */
    mintid_secure_zero(pool_key, sizeof pool_key);
    mintid_secure_zero(pool, sizeof pool);
    pool_keyed = 0;
    pool_next = BATCH_SIZE;
    MINTID_STORE_RELEASE(&fork_generation, fork_generation + 1);
#ifdef MINTID_HAVE_WIPEONFORK
    if (fork_sentinel != NULL)
        MINTID_STORE_RELEASE(fork_sentinel, 1); /* after the generation: see sentinel_check */
#endif
}

static void pool_prepare(void)
{
    mintid_lock_take(&pool_lock);
}

static void pool_parent(void)
{
    mintid_lock_release(&pool_lock);
}

static void pool_child(void)
{
    new_process_locked();
    mintid_lock_release(&pool_lock); /* held by this thread since prepare */
}

static void pool_register(void)
{
    sentinel_setup();
    pool_fork_safe = pthread_atfork(pool_prepare, pool_parent, pool_child) == 0;
#ifdef MINTID_HAVE_WIPEONFORK
    pool_fork_safe |= fork_sentinel != NULL;
#endif
    MINTID_STORE_RELEASE(&pool_registered, 1);
}
#endif

void mintid_random_fork_init(void)
{
    if (!MINTID_LOAD_ACQUIRE(&pool_registered))
        mintid_run_once(&pool_once, pool_register);
}

uint32_t mintid_fork_generation(void)
{
    mintid_random_fork_init();
    sentinel_check();
#ifdef _WIN32
    return MINTID_LOAD_ACQUIRE(&fork_generation);
#else
    /* Without fork handlers or sentinel nothing bumps the counter: the
     * process id tells processes apart instead, at a system call per read. */
    return pool_fork_safe ? MINTID_LOAD_ACQUIRE(&fork_generation) : (uint32_t)getpid();
#endif
}

/* A new batch: a new key from the OS first when there is none in this
 * process or this one's output reached the bound. On failure the pool is
 * as it was (empty). pool_lock is held. */
static int pool_refill_locked(char *err)
{
    static const uint8_t zero_nonce[12];
    int rc;

    if (!pool_keyed || pool_since_key + BATCH_OUTPUT > MINTID_RANDOM_RESEED_BYTES) {
        /* Straight into the key: a failed read leaves pool_keyed 0, so a
         * partly written key is never used. */
        pool_keyed = 0;
        rc = mintid_os_random(pool_key, KEY_SIZE, err);
        if (rc != MINTID_OK) {
            mintid_secure_zero(pool_key, sizeof pool_key);
            return rc;
        }
        pool_keyed = 1;
        pool_since_key = 0;
        pool_reseeds++;
    }
    mintid_chacha20_blocks(pool_key, 0, zero_nonce, pool, BATCH_BLOCKS);
    memcpy(pool_key, pool, KEY_SIZE);
    mintid_secure_zero(pool, KEY_SIZE);
    pool_next = KEY_SIZE;
    pool_since_key += BATCH_OUTPUT;
    return MINTID_OK;
}

uint64_t mintid_random_reseeds(void)
{
    uint64_t n;

    mintid_lock_take(&pool_lock);
    n = pool_reseeds;
    mintid_lock_release(&pool_lock);
    return n;
}

int mintid_random_bytes(uint8_t *buf, size_t n, char *err)
{
    int rc = MINTID_OK;

    mintid_random_fork_init();
    if (n > BATCH_OUTPUT || !pool_fork_safe)
        return mintid_os_random(buf, n, err);
    mintid_lock_take(&pool_lock);
    sentinel_check_locked();
    while (n > 0) {
        size_t take;

        if (pool_next == BATCH_SIZE) {
            rc = pool_refill_locked(err);
            if (rc != MINTID_OK)
                break;
        }
        take = BATCH_SIZE - pool_next;
        if (take > n)
            take = n;
        memcpy(buf, pool + pool_next, take);
        /* Never hand a byte out twice, nor keep a copy of it after the
         * caller is done (Nano IDs and UUIDv4s may be used as secrets). */
        memset(pool + pool_next, 0, take);
        pool_next += take;
        buf += take;
        n -= take;
    }
    mintid_lock_release(&pool_lock);
    return rc;
}

int mintid_random_pool(void *ctx, uint8_t *buf, size_t n)
{
    return mintid_random_bytes(buf, n, (char *)ctx);
}

int mintid_draw_random(mintid_random_fn rnd, void *ctx, uint8_t *buf, size_t n,
                       const char *kind, char *err)
{
    int rc;

    /* A source may write its own, more precise message (mintid_random_pool
     * does when err is its ctx): cleared first, so one that is there after
     * a failure is the source's, and kept. */
    if (err != NULL)
        err[0] = '\0';
    rc = rnd(ctx, buf, n);
    if (rc == MINTID_OK)
        return MINTID_OK;
    if (rc > 0)
        rc = MINTID_ERANDOM; /* callers rely on errors being negative */
    if (err == NULL || err[0] == '\0')
        return mintid_fail(err, rc, "%s random source failed", kind);
    return rc;
}
