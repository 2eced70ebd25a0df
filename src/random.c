/* random.c: the OS CSPRNG, the process-wide pool that spares the hot path
 * a system call per ID, and the one way generators draw from a source. */
#define _DEFAULT_SOURCE           /* explicit_bzero (glibc) */
#define _POSIX_C_SOURCE 200809L   /* O_CLOEXEC, pthread */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* getrandom(2) where the C library declares it (glibc >= 2.25, musl,
 * recent bionic); /dev/urandom everywhere else. macOS also has a
 * <sys/random.h>, with getentropy only, hence the __linux__ test. */
#if defined(__linux__) && !(defined(__ANDROID__) && __ANDROID_API__ < 28)
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

#define RANDOM_FAILED "OS random source failed"

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

void mintid_secure_zero(void *p, size_t n)
{
#ifdef MINTID_HAVE_EXPLICIT_BZERO
    explicit_bzero(p, n);
#else
    /* Stores through a volatile pointer may not be dropped as dead. */
    volatile unsigned char *q = (volatile unsigned char *)p;

    while (n-- > 0)
        *q++ = 0;
#endif
}

/* ---- the pool ---------------------------------------------------------- */

#define POOL_SIZE 256

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
/* Bumped in every forked child before it runs anything else, so a generator
 * object can tell, with one load and no system call, that it now runs in
 * another process than the one its state was made in. Only the child's
 * single thread writes it, before any other thread exists there. */
static uint32_t fork_generation;
static uint8_t pool[POOL_SIZE];
static size_t pool_next = POOL_SIZE; /* first unused byte; POOL_SIZE = empty */
/* Written once under pool_once, read after it: no race. Without fork
 * handlers a child could repeat its parent's bytes, so then no pool. */
static int pool_fork_safe;

static void pool_prepare(void)
{
    pthread_mutex_lock(&pool_lock);
}

static void pool_parent(void)
{
    pthread_mutex_unlock(&pool_lock);
}

/* The bytes left in the pool are the parent's: using them here would give
 * parent and child the same "random" bytes, hence the same IDs. */
static void pool_child(void)
{
    mintid_secure_zero(pool, sizeof pool);
    pool_next = POOL_SIZE;
    fork_generation++;
    pthread_mutex_unlock(&pool_lock); /* held by this thread since prepare */
}

static void pool_register(void)
{
    pool_fork_safe = pthread_atfork(pool_prepare, pool_parent, pool_child) == 0;
}

void mintid_random_fork_init(void)
{
    pthread_once(&pool_once, pool_register);
}

uint32_t mintid_fork_generation(void)
{
    mintid_random_fork_init();
    /* Without fork handlers nothing bumps the counter: the process id tells
     * processes apart instead, at a system call per read. */
    return pool_fork_safe ? fork_generation : (uint32_t)getpid();
}

int mintid_random_bytes(uint8_t *buf, size_t n, char *err)
{
    int rc = MINTID_OK;

    mintid_random_fork_init();
    if (n > POOL_SIZE || !pool_fork_safe)
        return mintid_os_random(buf, n, err);
    pthread_mutex_lock(&pool_lock);
    while (n > 0) {
        size_t take;

        if (pool_next == POOL_SIZE) {
            rc = mintid_os_random(pool, POOL_SIZE, err);
            if (rc != MINTID_OK)
                break;
            pool_next = 0;
        }
        take = POOL_SIZE - pool_next;
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
    pthread_mutex_unlock(&pool_lock);
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
