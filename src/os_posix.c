/* os_posix.c: the platform layer on Linux, macOS and the BSDs (internal.h
 * "the platform layer"): OS entropy, the clocks, pausing, secure zeroing,
 * fork handling, a pointer per thread. os_win32.c is the same interface on
 * Windows.
 *
 * Entropy: arc4random_buf on macOS and the BSDs (kernel-seeded, never
 * fails, reseeds itself in a forked child); getrandom(2) on Linux, with
 * /dev/urandom where the C library or the kernel lacks it. */
#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__NetBSD__) || \
    defined(__OpenBSD__) || defined(__DragonFly__)
/* No feature macros here: with _POSIX_C_SOURCE these headers hide
 * arc4random_buf. */
#  define MINTID_HAVE_ARC4RANDOM 1
#elif !defined(_WIN32)
#  define _DEFAULT_SOURCE           /* explicit_bzero (glibc), MAP_ANONYMOUS */
#  define _POSIX_C_SOURCE 200809L   /* O_CLOEXEC, clock_gettime, nanosleep, strerror_r */
/* A 32-bit time_t ends in January 2038, after which 32-bit glibc's
 * clock_gettime fails with EOVERFLOW and every generator with it. These ask
 * for the 64-bit time_t (glibc >= 2.34 honours them, and wants
 * _FILE_OFFSET_BITS 64 with _TIME_BITS 64; other C libraries ignore them).
 * Only 32-bit hosts need it (LP64 ones have a 64-bit time_t), and only
 * there is it asked for, since it renames open() to open64(), which the
 * link-time fakes of spec/native/test_random.c would miss. It is safe in
 * this file: no time_t or struct timespec crosses its interface. */
#  if defined(__SIZEOF_LONG__) && __SIZEOF_LONG__ == 4
#    define _TIME_BITS 64
#    define _FILE_OFFSET_BITS 64
#  endif
#endif

#include <stddef.h> /* first: the lines above are the file's feature macros */

#ifndef _WIN32
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
 * MADV_WIPEONFORK. MINTID_NO_WIPEONFORK leaves the pthread_atfork handler
 * alone in charge (a test build of that path). */
#if defined(__linux__) && !defined(MINTID_NO_WIPEONFORK)
#  include <sys/mman.h>
#  ifdef MADV_WIPEONFORK
#    define MINTID_HAVE_WIPEONFORK 1
#  endif
#endif

#include "internal.h"

#define RANDOM_FAILED "OS random source failed"

/* "<what>: <strerror text of errnum>", thread-safe: strerror may share one
 * static buffer between threads; strerror_r does not. A build that defines
 * _GNU_SOURCE gets glibc's char * variant. */
static int fail_errno(char *err, int code, const char *what, int errnum)
{
    char text[96];

    if (err == NULL)
        return code;
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
    return mintid_fail(err, code, "%s: %s", what, strerror_r(errnum, text, sizeof text));
#else
    if (strerror_r(errnum, text, sizeof text) != 0)
        return mintid_fail(err, code, "%s: errno %d", what, errnum);
    return mintid_fail(err, code, "%s: %s", what, text);
#endif
}

/* ---- entropy ------------------------------------------------------------- */

#ifdef MINTID_HAVE_ARC4RANDOM
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
        return fail_errno(err, MINTID_ERANDOM, RANDOM_FAILED, errno);
    while (n > 0) {
        ssize_t r = read(fd, buf, n);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            saved = r < 0 ? errno : EIO; /* EOF on a device that never ends */
            close(fd);
            return fail_errno(err, MINTID_ERANDOM, RANDOM_FAILED, saved);
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
            return fail_errno(err, MINTID_ERANDOM, RANDOM_FAILED, r < 0 ? errno : EIO);
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
#if defined(MINTID_HAVE_EXPLICIT_BZERO)
    explicit_bzero(p, n);
#else
    /* Stores through a volatile pointer may not be dropped as dead. */
    volatile unsigned char *q = (volatile unsigned char *)p;

    while (n-- > 0)
        *q++ = 0;
#endif
}

/* ---- clocks and pausing -------------------------------------------------- */

/* The wall clock in units of 1/per_second s (1000: ms, 10^7: 100 ns), read
 * on every call (doc/design.md "The wall clock's millisecond"). A clock
 * before 1970 comes back negative (tv_nsec is never negative, so this
 * floors); callers reject it with their range message. A tv_sec that
 * would not fit int64_t in these units saturates, also out of range. */
static int read_wall_clock(int64_t per_second, int64_t *out, char *err)
{
    struct timespec ts;
    int64_t sec;

    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return fail_errno(err, MINTID_ECLOCK, "clock_gettime failed", errno);
    sec = (int64_t)ts.tv_sec;
    if (sec > INT64_MAX / per_second - 1)
        *out = INT64_MAX;
    else if (sec < INT64_MIN / per_second + 1)
        *out = INT64_MIN;
    else
        *out = sec * per_second + (int64_t)ts.tv_nsec / (1000000000 / per_second);
    return MINTID_OK;
}

int mintid_os_clock_ms(int64_t *now_ms, char *err)
{
    return read_wall_clock(1000, now_ms, err);
}

int mintid_os_clock_100ns(int64_t *ticks, char *err)
{
    return read_wall_clock(10000000, ticks, err);
}

/* Whole seconds from time(): on Linux the vDSO's one load of the coarse
 * wall clock's seconds (those of CLOCK_REALTIME_COARSE, at most a tick
 * behind), about half what clock_gettime of that clock costs; elsewhere
 * the platform's own. The resolution ObjectIds and XIDs need. */
int mintid_os_clock_s(int64_t *now_s, char *err)
{
    time_t t = time(NULL);

    if (t == (time_t)-1)
        return fail_errno(err, MINTID_ECLOCK, "time failed", errno);
    *now_s = (int64_t)t;
    return MINTID_OK;
}

int64_t mintid_os_monotonic_ms(void)
{
    struct timespec ts;

    /* CLOCK_MONOTONIC is in every POSIX.1-2008 system and cannot fail with
     * a valid clock id; 0 would only make a wait end early. */
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (int64_t)ts.tv_sec * 1000 + (int64_t)(ts.tv_nsec / 1000000);
}

/* The deadline clock: Linux's coarse monotonic clock is read from the vDSO
 * without touching the hardware clock (a few ns instead of tens), and lags
 * CLOCK_MONOTONIC by less than its resolution (a timer tick). */
#if defined(__linux__) && !defined(CLOCK_MONOTONIC_COARSE)
#define CLOCK_MONOTONIC_COARSE 6
#endif
#ifdef CLOCK_MONOTONIC_COARSE
#define DEADLINE_CLOCK CLOCK_MONOTONIC_COARSE
#else
#define DEADLINE_CLOCK CLOCK_MONOTONIC
#endif

int64_t mintid_os_deadline_ms(void)
{
    struct timespec ts;

    /* Unreadable: as late as can be, so that every deadline has passed. */
    if (clock_gettime(DEADLINE_CLOCK, &ts) != 0)
        return INT64_MAX - 1;
    return (int64_t)ts.tv_sec * 1000 + (int64_t)(ts.tv_nsec / 1000000);
}

int64_t mintid_os_deadline_slack_ms(void)
{
    struct timespec res;

    if (clock_getres(DEADLINE_CLOCK, &res) != 0 || res.tv_sec > 0)
        return 1000;
    /* The resolution rounded up, and 1 for the ms both readings drop. */
    return (int64_t)((res.tv_nsec + 999999) / 1000000) + 1;
}

/* Sleep a little while the clock catches up instead of burning a core. */
void mintid_os_pause(void)
{
    struct timespec ts;

    ts.tv_sec = 0;
    ts.tv_nsec = 100000;
    nanosleep(&ts, NULL);
}

/* ---- fork handling -------------------------------------------------------- */

int mintid_os_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
    return pthread_atfork(prepare, parent, child) == 0 ? 0 : -1;
}

static mintid_once fork_once = MINTID_ONCE_INIT;
/* Set (release) once fork_setup has run, so the hot path tests one flag
 * instead of calling pthread_once. */
static int fork_ready;
/* Written once under fork_once, read after it. */
static int fork_watched;
/* Bumped in every new process (forked child) before any state sees it, so
 * a state can tell, with one load and no system call, that it now runs in
 * another process than the one it was made in. Written under fork_lock;
 * read without it (atomically), also by mintid_os_fork_generation inline. */
MINTID_INTERNAL_DATA uint32_t mintid_os_generation;
/* Held across fork() (prepare to parent/child), so that the child never
 * inherits it taken by a thread that is not there. */
static mintid_lock fork_lock = MINTID_LOCK_INIT;

/* A page the kernel zeroes in each child; its first byte is 1 in the
 * process that set it. Found 0: this is a new process (made by any means,
 * including those that run no pthread_atfork handler). NULL without
 * MADV_WIPEONFORK. */
MINTID_INTERNAL_DATA unsigned char *mintid_os_sentinel;

#ifdef MINTID_HAVE_WIPEONFORK

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
    /* Marked, then published: a thread that finds the page finds the mark. */
    MINTID_STORE_RELEASE((unsigned char *)p, 1);
    MINTID_STORE_RELEASE(&mintid_os_sentinel, (unsigned char *)p);
}

static int sentinel_tripped(void)
{
    return mintid_os_sentinel != NULL && MINTID_LOAD_ACQUIRE(mintid_os_sentinel) == 0;
}

static void sentinel_rearm(void)
{
    if (mintid_os_sentinel != NULL)
        MINTID_STORE_RELEASE(mintid_os_sentinel, 1);
}
#else
#define sentinel_setup() ((void)0)
#define sentinel_tripped() 0
#define sentinel_rearm() ((void)0)
#endif

/* A new process: a new generation, then the sentinel set again (in that
 * order: a thread that sees the sentinel set sees the new generation).
 * fork_lock is held. */
static void new_process_locked(void)
{
    MINTID_STORE_RELEASE(&mintid_os_generation, mintid_os_generation + 1);
    sentinel_rearm();
}

static void fork_prepare(void)
{
    mintid_lock_take(&fork_lock);
}

static void fork_parent(void)
{
    mintid_lock_release(&fork_lock);
}

/* Registered before any module's handlers (they all read the generation
 * first), so it runs before theirs in the child: POSIX runs child handlers
 * in order of registration. */
static void fork_child(void)
{
    new_process_locked();
    mintid_lock_release(&fork_lock); /* held by this thread since prepare */
}

static void fork_setup(void)
{
    sentinel_setup();
    fork_watched = mintid_os_atfork(fork_prepare, fork_parent, fork_child) == 0;
#ifdef MINTID_HAVE_WIPEONFORK
    fork_watched |= mintid_os_sentinel != NULL;
#endif
    MINTID_STORE_RELEASE(&fork_ready, 1);
}

int mintid_os_fork_watched(void)
{
    if (!MINTID_LOAD_ACQUIRE(&fork_ready))
        mintid_run_once(&fork_once, fork_setup);
    return fork_watched;
}

uint32_t mintid_os_fork_generation_slow(void)
{
    if (!mintid_os_fork_watched())
        return (uint32_t)getpid(); /* a system call per read, the only way left */
    /* Here where there is no sentinel (one load then), or in a new
     * process's first call, which takes the lock (a child made without
     * the handlers, e.g. by a raw clone). */
    if (sentinel_tripped()) {
        mintid_lock_take(&fork_lock);
        if (sentinel_tripped())
            new_process_locked();
        mintid_lock_release(&fork_lock);
    }
    return MINTID_LOAD_ACQUIRE(&mintid_os_generation);
}

/* ---- lock files -------------------------------------------------------------
 *
 * OFD locks (Linux >= 3.15): fcntl's F_OFD_* commands, whose numbers are
 * the same on every Linux architecture; glibc shows them only with
 * _GNU_SOURCE, which would also change strerror_r above, hence here. An
 * older kernel refuses them with EINVAL, and the lease with it.
 *
 * A forked child shares the parent's open file description, hence its
 * locks: were it to keep its copy open, the parent's ids would stay taken
 * after the parent's end for as long as the child runs. So every handle is
 * on a list, and a fork handler closes the child's copies (closing one
 * reference of a description leaves its locks to the other); a child made
 * without the handlers closes its copy on its first call. The child never
 * unlocks: that would free the parent's lock. */
#ifdef __linux__
#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#endif
#include <stdlib.h>
#include <sys/stat.h>

struct mintid_lock_file {
    int fd;                  /* -1 once the child's copy was closed */
    int record_fd;           /* the pinned layout record, or -1 */
    uint32_t generation;     /* the process that opened it */
    char *path;              /* resolved: see mintid_os_lock_file_path */
    char *record;            /* the pinned record's path, or NULL */
    mintid_lock_file *prev, *next;
};

static mintid_once lock_files_once = MINTID_ONCE_INIT;
static mintid_lock lock_files_lock = MINTID_LOCK_INIT;
static mintid_lock_file *lock_files;

static void lock_files_prepare(void)
{
    mintid_lock_take(&lock_files_lock);
}

static void lock_files_parent(void)
{
    mintid_lock_release(&lock_files_lock);
}

static void lock_files_child(void)
{
    mintid_lock_file *f;

    for (f = lock_files; f != NULL; f = f->next) {
        if (f->fd >= 0)
            close(f->fd);
        if (f->record_fd >= 0)
            close(f->record_fd);
        f->fd = -1;
        f->record_fd = -1;
    }
    mintid_lock_release(&lock_files_lock);
}

/* After the generation's own handlers (see mintid_os_atfork). */
static void lock_files_setup(void)
{
    (void)mintid_os_fork_generation();
    (void)mintid_os_atfork(lock_files_prepare, lock_files_parent, lock_files_child);
}

static int open_retrying(const char *path, int flags)
{
    int fd;

    do
        fd = open(path, flags | O_CLOEXEC, 0666);
    while (fd < 0 && errno == EINTR);
    return fd;
}

int mintid_os_lock_file_open(const char *path, int create, mintid_lock_file **out, char *err)
{
    mintid_lock_file *f;
    struct stat st;
    int fd;

    mintid_run_once(&lock_files_once, lock_files_setup);
    *out = NULL;
    fd = open_retrying(path, create ? O_RDWR | O_CREAT : O_RDONLY);
    if (fd < 0) {
        if (!create && errno == ENOENT)
            return MINTID_OK;
        return fail_errno(err, MINTID_EARG, "cannot open", errno);
    }
    /* Opened for reading, a folder would open, and show no locks. */
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return fail_errno(err, MINTID_EARG, "cannot open", EISDIR);
    }
    f = (mintid_lock_file *)malloc(sizeof *f);
    /* realpath allocates: NULL only for want of memory, the file being
     * open (a name removed since is a later check's to see). */
    if (f == NULL || (f->path = realpath(path, NULL)) == NULL) {
        free(f);
        close(fd);
        return mintid_fail(err, MINTID_ENOMEM, "out of memory");
    }
    f->fd = fd;
    f->record_fd = -1;
    f->record = NULL;
    f->generation = mintid_os_fork_generation();
    f->prev = NULL;
    mintid_lock_take(&lock_files_lock);
    f->next = lock_files;
    if (lock_files != NULL)
        lock_files->prev = f;
    lock_files = f;
    mintid_lock_release(&lock_files_lock);
    *out = f;
    return MINTID_OK;
}

const char *mintid_os_lock_file_path(const mintid_lock_file *f)
{
    return f->path;
}

/* MINTID_OK if f may be used by this process; else its copy is closed. */
static int lock_file_ours(mintid_lock_file *f, char *err)
{
    if (f->generation == mintid_os_fork_generation() && f->fd >= 0)
        return MINTID_OK;
    mintid_lock_take(&lock_files_lock);
    if (f->fd >= 0)
        close(f->fd);
    if (f->record_fd >= 0)
        close(f->record_fd);
    f->fd = -1;
    f->record_fd = -1;
    mintid_lock_release(&lock_files_lock);
    return mintid_fail(err, MINTID_EFORK, "opened in another process (before fork())");
}

static int lock_file_fcntl(mintid_lock_file *f, int cmd, short type, uint32_t byte, struct flock *fl)
{
    int rc;

    memset(fl, 0, sizeof *fl); /* l_pid 0, as OFD commands want */
    fl->l_type = type;
    fl->l_whence = SEEK_SET;
    fl->l_start = (off_t)byte;
    fl->l_len = 1;
    do
        rc = fcntl(f->fd, cmd, fl);
    while (rc != 0 && errno == EINTR);
    return rc;
}

int mintid_os_lock_file_try(mintid_lock_file *f, uint32_t byte, int *got, char *err)
{
    struct flock fl;
    int rc = lock_file_ours(f, err);

    if (rc != MINTID_OK)
        return rc;
    *got = 0;
    if (lock_file_fcntl(f, F_OFD_SETLK, F_WRLCK, byte, &fl) == 0) {
        *got = 1;
        return MINTID_OK;
    }
    if (errno == EAGAIN || errno == EACCES)
        return MINTID_OK;
    if (errno == EINVAL)
        return mintid_fail(err, MINTID_EARG, "the kernel has no OFD locks (Linux >= 3.15 needed)");
    return fail_errno(err, MINTID_EARG, "cannot lock", errno);
}

int mintid_os_lock_file_unlock(mintid_lock_file *f, uint32_t byte, char *err)
{
    struct flock fl;
    int rc = lock_file_ours(f, err);

    if (rc != MINTID_OK)
        return rc;
    if (lock_file_fcntl(f, F_OFD_SETLK, F_UNLCK, byte, &fl) != 0)
        return fail_errno(err, MINTID_EARG, "cannot unlock", errno);
    return MINTID_OK;
}

int mintid_os_lock_file_taken(mintid_lock_file *f, uint32_t byte, int *taken, char *err)
{
    struct flock fl;
    int rc = lock_file_ours(f, err);

    if (rc != MINTID_OK)
        return rc;
    if (lock_file_fcntl(f, F_OFD_GETLK, F_WRLCK, byte, &fl) != 0) {
        if (errno == EINVAL)
            return mintid_fail(err, MINTID_EARG, "the kernel has no OFD locks (Linux >= 3.15 needed)");
        return fail_errno(err, MINTID_EARG, "cannot test a lock", errno);
    }
    *taken = fl.l_type != F_UNLCK;
    return MINTID_OK;
}

int mintid_os_lock_file_pin(mintid_lock_file *f, const char *record, char *line, size_t size, int *found,
                            char *err)
{
    char *copy;
    ssize_t n;
    size_t len = strlen(record);
    int fd, rc = lock_file_ours(f, err);

    if (rc != MINTID_OK)
        return rc;
    *found = 0;
    line[0] = '\0';
    fd = open_retrying(record, O_RDONLY);
    if (fd < 0)
        return errno == ENOENT ? MINTID_OK : fail_errno(err, MINTID_EARG, "cannot read its layout record", errno);
    copy = (char *)malloc(len + 1);
    if (copy == NULL) {
        close(fd);
        return mintid_fail(err, MINTID_ENOMEM, "out of memory");
    }
    memcpy(copy, record, len + 1);
    do
        n = pread(fd, line, size - 1, 0);
    while (n < 0 && errno == EINTR);
    if (n < 0) {
        rc = errno;
        close(fd);
        free(copy);
        return fail_errno(err, MINTID_EARG, "cannot read its layout record", rc);
    }
    line[n] = '\0';
    line[strcspn(line, "\n")] = '\0';
    mintid_lock_take(&lock_files_lock);
    if (f->record_fd >= 0)
        close(f->record_fd);
    free(f->record);
    f->record_fd = fd;
    f->record = copy;
    mintid_lock_release(&lock_files_lock);
    /* Empty: made by a first lease that has not written its line yet. */
    *found = n > 0;
    return MINTID_OK;
}

/* 1 if path names the open file whose fstat is open_st. */
static int names_file(const char *path, const struct stat *open_st)
{
    struct stat st;

    return stat(path, &st) == 0 && st.st_dev == open_st->st_dev && st.st_ino == open_st->st_ino;
}

int mintid_os_lock_file_check(mintid_lock_file *f, char *err)
{
    struct stat st, rec;
    int rc = lock_file_ours(f, err);

    if (rc != MINTID_OK)
        return rc;
    if (fstat(f->fd, &st) != 0 || !names_file(f->path, &st))
        return mintid_fail(err, MINTID_ELEASE, "was removed or replaced while held");
    if (st.st_nlink != 1)
        return mintid_fail(err, MINTID_ELEASE, "has %lu names (hard links): a lock file must have one",
                           (unsigned long)st.st_nlink);
    if (f->record_fd >= 0 && (fstat(f->record_fd, &rec) != 0 || !names_file(f->record, &rec)))
        return mintid_fail(err, MINTID_ELEASE, "had its layout record removed or replaced");
    return MINTID_OK;
}

static int64_t ctime_ms(const struct stat *st)
{
#if defined(__APPLE__)
    return (int64_t)st->st_ctimespec.tv_sec * 1000 + st->st_ctimespec.tv_nsec / 1000000;
#else
    return (int64_t)st->st_ctim.tv_sec * 1000 + st->st_ctim.tv_nsec / 1000000;
#endif
}

int mintid_os_lock_file_changed_ms(mintid_lock_file *f, int64_t *ms, char *err)
{
    struct stat st;
    int rc = lock_file_ours(f, err);

    if (rc != MINTID_OK)
        return rc;
    if (fstat(f->fd, &st) != 0)
        return fail_errno(err, MINTID_EARG, "cannot stat", errno);
    *ms = ctime_ms(&st);
    if (f->record_fd >= 0) {
        if (fstat(f->record_fd, &st) != 0)
            return fail_errno(err, MINTID_EARG, "cannot stat its layout record", errno);
        if (ctime_ms(&st) > *ms)
            *ms = ctime_ms(&st);
    }
    return MINTID_OK;
}

int mintid_os_lock_file_find(mintid_lock_file *f, uint32_t from, uint32_t to, int *found, uint32_t *first,
                             uint32_t *last, char *err)
{
    struct flock fl;
    int rc = lock_file_ours(f, err);

    if (rc != MINTID_OK)
        return rc;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = (off_t)from;
    fl.l_len = (off_t)to - (off_t)from + 1;
    do
        rc = fcntl(f->fd, F_OFD_GETLK, &fl);
    while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        if (errno == EINVAL)
            return mintid_fail(err, MINTID_EARG, "the kernel has no OFD locks (Linux >= 3.15 needed)");
        return fail_errno(err, MINTID_EARG, "cannot test a lock", errno);
    }
    *found = fl.l_type != F_UNLCK;
    if (*found) {
        /* A lock reaching past the range (l_len 0: to the end) counts to to. */
        *first = fl.l_start < (off_t)from ? from : (uint32_t)fl.l_start;
        *last = fl.l_len == 0 || fl.l_start + fl.l_len - 1 > (off_t)to ? to : (uint32_t)(fl.l_start + fl.l_len - 1);
    }
    return MINTID_OK;
}

void mintid_os_lock_file_close(mintid_lock_file *f)
{
    if (f == NULL)
        return;
    mintid_lock_take(&lock_files_lock);
    if (f->fd >= 0)
        close(f->fd);
    if (f->record_fd >= 0)
        close(f->record_fd);
    if (f->prev != NULL)
        f->prev->next = f->next;
    else
        lock_files = f->next;
    if (f->next != NULL)
        f->next->prev = f->prev;
    mintid_lock_release(&lock_files_lock);
    free(f->path);
    free(f->record);
    free(f);
}
#else
/* Record locks (F_SETLK) are the process's, not the handle's: two leases of
 * one process would both get an id, and any close of the file, by anyone
 * in the process, would drop them. No lock file lease, then. */
int mintid_os_lock_file_open(const char *path, int create, mintid_lock_file **out, char *err)
{
    (void)path;
    (void)create;
    *out = NULL;
    return mintid_fail(err, MINTID_EARG, "no OFD locks on this system (Linux and Windows only)");
}

int mintid_os_lock_file_try(mintid_lock_file *f, uint32_t byte, int *got, char *err)
{
    (void)f;
    (void)byte;
    *got = 0;
    return mintid_fail(err, MINTID_EARG, "no OFD locks on this system");
}

int mintid_os_lock_file_unlock(mintid_lock_file *f, uint32_t byte, char *err)
{
    return mintid_os_lock_file_try(f, byte, &(int){ 0 }, err);
}

int mintid_os_lock_file_taken(mintid_lock_file *f, uint32_t byte, int *taken, char *err)
{
    return mintid_os_lock_file_try(f, byte, taken, err);
}

const char *mintid_os_lock_file_path(const mintid_lock_file *f)
{
    (void)f;
    return "";
}

int mintid_os_lock_file_pin(mintid_lock_file *f, const char *record, char *line, size_t size, int *found,
                            char *err)
{
    (void)record;
    (void)size;
    line[0] = '\0';
    return mintid_os_lock_file_try(f, 0, found, err);
}

int mintid_os_lock_file_check(mintid_lock_file *f, char *err)
{
    return mintid_os_lock_file_try(f, 0, &(int){ 0 }, err);
}

int mintid_os_lock_file_changed_ms(mintid_lock_file *f, int64_t *ms, char *err)
{
    *ms = 0;
    return mintid_os_lock_file_try(f, 0, &(int){ 0 }, err);
}

int mintid_os_lock_file_find(mintid_lock_file *f, uint32_t from, uint32_t to, int *found, uint32_t *first,
                             uint32_t *last, char *err)
{
    (void)to;
    *first = *last = from;
    return mintid_os_lock_file_try(f, from, found, err);
}

void mintid_os_lock_file_close(mintid_lock_file *f)
{
    (void)f;
}
#endif

/* ---- a pointer per thread -------------------------------------------------
 *
 * A pthread key whose destructor runs when a thread that set it exits. The
 * key is deleted when the module is unloaded (Lua's dlclose as the last
 * state that required it closes), so no thread exiting later calls a
 * destructor that is no longer mapped; a thread still alive then keeps its
 * pointer's memory, unwiped. */
static pthread_key_t slot_key;
static int slot_made;

int mintid_os_thread_slot_init(void (*at_exit)(void *p))
{
    if (pthread_key_create(&slot_key, at_exit) != 0)
        return -1;
    slot_made = 1;
    return 0;
}

void *mintid_os_thread_slot(void)
{
    return pthread_getspecific(slot_key);
}

int mintid_os_thread_slot_set(void *p)
{
    return pthread_setspecific(slot_key, p) == 0 ? 0 : -1;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((destructor)) static void slot_unload(void)
{
    if (slot_made)
        pthread_key_delete(slot_key);
}
#endif

#else
/* A translation unit may not be empty (ISO C); this one is for POSIX. */
typedef int mintid_os_posix_unused;
#endif
