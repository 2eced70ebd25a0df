/*
 * test_random.c: the OS random source's fallbacks, tested rather than only
 * written. Linked with -Wl,--wrap=getrandom,--wrap=open,--wrap=read, so
 * that the core's calls reach the fakes below, which can fail with EINTR,
 * return short reads, report a kernel without getrandom (ENOSYS) or a
 * seccomp filter (EPERM), or make /dev/urandom unopenable or unreadable.
 * Built twice: as is, and with -DMINTID_NO_GETRANDOM in the core and here
 * (a C library without getrandom: /dev/urandom alone). Also: the pool is
 * the ChaCha20 keystream of the OS's key, each batch keyed by the previous
 * batch's first 32 bytes. Prints TAP.
 */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mintid.h"
#include "internal.h" /* the ChaCha20 block function */
#include "tap.h"

ssize_t __real_getrandom(void *buf, size_t n, unsigned flags);
ssize_t __wrap_getrandom(void *buf, size_t n, unsigned flags);
int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
ssize_t __real_read(int fd, void *buf, size_t n);
ssize_t __wrap_read(int fd, void *buf, size_t n);

/* What a fake does: pass through, a known stream in short pieces with
 * EINTR between them, or fail with errno `fail_errno` (0 with FAIL: EOF). */
enum mode { REAL, SHORT, FAIL };

static enum mode getrandom_mode, open_mode, read_mode;
static int getrandom_errno, open_errno, read_errno;
static int getrandom_calls, urandom_opens, urandom_fd = -1, eintrs, pieces;
static unsigned stream_pos; /* the known stream: byte k is (k * 7 + 3) & 0xFF */

static ssize_t short_piece(uint8_t *buf, size_t n)
{
    size_t i;

    /* Every third call is interrupted; the others give at most 5 bytes. */
    if (pieces++ % 3 == 0) {
        eintrs++;
        errno = EINTR;
        return -1;
    }
    if (n > 5)
        n = 5;
    for (i = 0; i < n; i++, stream_pos++)
        buf[i] = (uint8_t)(stream_pos * 7 + 3);
    return (ssize_t)n;
}

ssize_t __wrap_getrandom(void *buf, size_t n, unsigned flags)
{
    getrandom_calls++;
    if (getrandom_mode == SHORT)
        return short_piece(buf, n);
    if (getrandom_mode == FAIL) {
        errno = getrandom_errno;
        return getrandom_errno == 0 ? 0 : -1;
    }
    return __real_getrandom(buf, n, flags);
}

int __wrap_open(const char *path, int flags, ...)
{
    int fd;

    if (strcmp(path, "/dev/urandom") != 0)
        return __real_open(path, flags, 0);
    urandom_opens++;
    if (open_mode == FAIL) {
        errno = open_errno;
        return -1;
    }
    fd = __real_open(path, flags, 0);
    urandom_fd = fd;
    return fd;
}

ssize_t __wrap_read(int fd, void *buf, size_t n)
{
    if (fd != urandom_fd || read_mode == REAL)
        return __real_read(fd, buf, n);
    if (read_mode == SHORT)
        return short_piece(buf, n);
    errno = read_errno;
    return read_errno == 0 ? 0 : -1;
}

static void reset(enum mode g, int g_errno, enum mode o, int o_errno, enum mode r, int r_errno)
{
    getrandom_mode = g;
    getrandom_errno = g_errno;
    open_mode = o;
    open_errno = o_errno;
    read_mode = r;
    read_errno = r_errno;
    getrandom_calls = urandom_opens = eintrs = pieces = 0;
    urandom_fd = -1;
    stream_pos = 0;
}

/* buf holds the known stream from its start. */
static int is_stream(const uint8_t *buf, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (buf[i] != (uint8_t)(i * 7 + 3))
            return 0;
    return 1;
}

/* err is exactly "OS random source failed: <this C library's text>". */
static int says(const char *err, int errnum)
{
    char want[MINTID_ERRMSG_SIZE];

    snprintf(want, sizeof want, "OS random source failed: %s", strerror(errnum));
    if (strcmp(err, want) != 0) {
        printf("# got '%s', want '%s'\n", err, want);
        return 0;
    }
    return 1;
}

static int fd_closed(int fd)
{
    return fd >= 0 && fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

/* Both sources fail: every path that draws from the OS reports why, and a
 * failed call leaves a generator as it was. Runs first, while the pool is
 * still empty, so that the pool's refill is what fails. */
static void check_both_fail(void)
{
    char err[MINTID_ERRMSG_SIZE] = "";
    uint8_t id[16], again[16];
    mintid_ulid_gen pub;
    mintid_ulid_state *g = mintid_ulid_state_of(&pub);
    int rc;

    reset(FAIL, ENOSYS, FAIL, EACCES, REAL, 0);
    rc = mintid_default_uuid4(id, err);
    check(rc == MINTID_ERANDOM && says(err, EACCES),
          "both sources fail: mintid_default_uuid4 returns MINTID_ERANDOM and the reason");
    err[0] = '\0';
    rc = mintid_default_ulid(id, err);
    check(rc == MINTID_ERANDOM && says(err, EACCES),
          "both sources fail: mintid_default_ulid returns MINTID_ERANDOM and the reason");
    mintid_ulid_gen_init(&pub);
    err[0] = '\0';
    rc = mintid_ulid_gen_next(g, 1000, mintid_random_pool, err, id, err);
    check(rc == MINTID_ERANDOM && says(err, EACCES) && g->st.last_ms == -1,
          "both sources fail: a ULID generator on the pool fails with the reason, its state unchanged");
    reset(REAL, 0, REAL, 0, REAL, 0);
    check(mintid_ulid_gen_next(g, 1000, mintid_random_pool, err, id, err) == MINTID_OK &&
          mintid_default_ulid(again, err) == MINTID_OK,
          "the sources back: the same generator and the default one make IDs");
}

#ifndef MINTID_NO_GETRANDOM
static void check_getrandom(void)
{
    uint8_t buf[100];
    char err[MINTID_ERRMSG_SIZE] = "";

    int rc;

    reset(SHORT, 0, FAIL, EACCES, REAL, 0);
    rc = mintid_os_random(buf, sizeof buf, err);
    check(rc == MINTID_OK && is_stream(buf, sizeof buf) && eintrs > 0 && urandom_opens == 0,
          "getrandom failing with EINTR and returning at most 5 bytes: retried until all 100 "
          "bytes are in place, in order (%d calls, %d EINTR)", getrandom_calls, eintrs);

    reset(FAIL, ENOSYS, REAL, 0, SHORT, 0);
    check(mintid_os_random(buf, sizeof buf, err) == MINTID_OK && is_stream(buf, sizeof buf) &&
          urandom_opens == 1 && fd_closed(urandom_fd),
          "getrandom missing (ENOSYS, an old kernel): /dev/urandom instead, EINTR and short reads "
          "retried, the file closed");
    reset(FAIL, EPERM, REAL, 0, REAL, 0);
    check(mintid_os_random(buf, sizeof buf, err) == MINTID_OK && urandom_opens == 1,
          "getrandom refused (EPERM, a seccomp filter): /dev/urandom instead");

    reset(FAIL, EIO, REAL, 0, REAL, 0);
    check(mintid_os_random(buf, sizeof buf, err) == MINTID_ERANDOM && says(err, EIO) && urandom_opens == 0,
          "getrandom failing otherwise: MINTID_ERANDOM with its reason, no fallback");
    reset(FAIL, 0, REAL, 0, REAL, 0);
    check(mintid_os_random(buf, sizeof buf, err) == MINTID_ERANDOM && says(err, EIO),
          "getrandom returning 0 bytes: MINTID_ERANDOM, not a loop");
}
#else
static void check_getrandom(void)
{
    uint8_t buf[100];
    char err[MINTID_ERRMSG_SIZE] = "";

    reset(FAIL, EIO, REAL, 0, SHORT, 0);
    check(mintid_os_random(buf, sizeof buf, err) == MINTID_OK && is_stream(buf, sizeof buf) &&
          getrandom_calls == 0 && urandom_opens == 1 && fd_closed(urandom_fd),
          "built without getrandom: /dev/urandom alone, EINTR and short reads retried, the file closed");
}
#endif

static void check_urandom_failures(void)
{
    uint8_t buf[100];
    char err[MINTID_ERRMSG_SIZE] = "";

    reset(FAIL, ENOSYS, FAIL, ENOENT, REAL, 0);
    check(mintid_os_random(buf, sizeof buf, err) == MINTID_ERANDOM && says(err, ENOENT),
          "no /dev/urandom (a chroot): MINTID_ERANDOM with the reason");
    reset(FAIL, ENOSYS, REAL, 0, FAIL, 0);
    check(mintid_os_random(buf, sizeof buf, err) == MINTID_ERANDOM && says(err, EIO) && fd_closed(urandom_fd),
          "/dev/urandom at end of file: MINTID_ERANDOM (EIO), the file closed");
    reset(FAIL, ENOSYS, REAL, 0, FAIL, EIO);
    check(mintid_os_random(buf, sizeof buf, err) == MINTID_ERANDOM && says(err, EIO) && fd_closed(urandom_fd),
          "/dev/urandom read failing: MINTID_ERANDOM with the reason, the file closed");
    reset(REAL, 0, REAL, 0, REAL, 0);
}

/* In a forked child (whose pool has no key yet), with the OS giving the
 * known stream: the first 16 pool bytes are bytes 32..47 of the ChaCha20
 * keystream (counter 0, nonce 0) under the OS's 32 bytes, and once that
 * batch is used up the next one is keyed by its first 32 bytes, with no
 * read from the OS. The child reports one bit per failed check. */
#define BATCH (64 * MINTID_RANDOM_BATCH_BLOCKS)
static void check_pool_construction(void)
{
    static const uint8_t zero_nonce[12];
    uint8_t key[32], batch[BATCH], got[BATCH];
    int status = -1, i;
    size_t n, at;
    pid_t pid;

    for (i = 0; i < 32; i++)
        key[i] = (uint8_t)(i * 7 + 3);
    mintid_chacha20_blocks(key, 0, zero_nonce, batch, MINTID_RANDOM_BATCH_BLOCKS);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        int bad = 0;

        /* /dev/urandom in pieces: in the build without getrandom too. */
        reset(FAIL, ENOSYS, REAL, 0, SHORT, 0);
        if (mintid_random_bytes(got, 16, NULL) != MINTID_OK || memcmp(got, batch + 32, 16) != 0)
            bad |= 1;
        if (mintid_random_bytes(got, BATCH - 32 - 16, NULL) != MINTID_OK ||
            memcmp(got, batch + 48, BATCH - 48) != 0)
            bad |= 2;
        i = urandom_opens;
        memcpy(key, batch, 32);
        mintid_chacha20_blocks(key, 0, zero_nonce, batch, MINTID_RANDOM_BATCH_BLOCKS);
        if (mintid_random_bytes(got, 16, NULL) != MINTID_OK || memcmp(got, batch + 32, 16) != 0 ||
            urandom_opens != i)
            bad |= 4;
        /* Then draws of every size from 1 to 40 bytes in turn (820 bytes,
         * within the batch): each size moved in its own pieces (16 bytes
         * at a time, then 8, 4, 2 and 1 by the bits of what is left). */
        for (n = 1, at = 48; n <= 40; at += n, n++)
            if (mintid_random_bytes(got, n, NULL) != MINTID_OK || memcmp(got, batch + at, n) != 0)
                bad |= 8;
        /* Every byte handed out (and the next key) is zero in the batch,
         * and only those. */
        {
            size_t size = 0;
            const uint8_t *left = mintid_random_batch(&size);

            if (left == NULL || size != sizeof batch || memcmp(left + at, batch + at, size - at) != 0)
                bad |= 16;
            for (n = 0; left != NULL && n < at; n++)
                if (left[n] != 0)
                    bad |= 16;
        }
        _exit(bad);
    }
    if (pid > 0)
        waitpid(pid, &status, 0);
    check(pid > 0 && WIFEXITED(status), "pool (forked child): the child ran");
    status = pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : 15;
    check(!(status & 1), "pool: its first bytes are the ChaCha20 keystream of the OS's key, past the next key");
    check(!(status & 2), "pool: the whole batch is handed out in keystream order");
    check(!(status & 4), "pool: the next batch is keyed by the previous one's first 32 bytes, "
                         "without reading the OS");
    check(!(status & 8), "pool: draws of 1 to 40 bytes in turn hand out the keystream in order");
    check(!(status & 16), "pool: each byte handed out is wiped in the batch, and no byte still to come");
}

/* Lending: the bytes a draw would copy, used where the pool holds them,
 * are the same keystream in the same order, wiped once read, and never a
 * forked child's before that child has a key of its own. */
static void check_pool_lending(void)
{
    static const uint8_t zero_nonce[12];
    uint8_t key[32], batch[BATCH], next_batch[BATCH], got[16], want[32];
    char text[32], symbols[MINTID_NANOID_DEFAULT_SIZE];
    mintid_nanoid_spec spec;
    int status = -1, i;
    pid_t pid;

    for (i = 0; i < 32; i++)
        key[i] = (uint8_t)(i * 7 + 3);
    mintid_chacha20_blocks(key, 0, zero_nonce, batch, MINTID_RANDOM_BATCH_BLOCKS);
    memcpy(key, batch, 32);
    mintid_chacha20_blocks(key, 0, zero_nonce, next_batch, MINTID_RANDOM_BATCH_BLOCKS);
    mintid_nanoid_spec_default(&spec, NULL);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        const mintid_nanoid_state *st = mintid_nanoid_state_of(&spec);
        size_t size = 0, at = 48, n;
        const uint8_t *left;
        uint8_t *lent;
        int bad = 0, child_status = -1;
        pid_t grandchild;

        reset(FAIL, ENOSYS, REAL, 0, SHORT, 0);
        if (mintid_random_bytes(got, 16, NULL) != MINTID_OK || (left = mintid_random_batch(&size)) == NULL)
            _exit(255);
        /* 21 bytes lent where they are; wiped, and only they. */
        lent = mintid_random_lend(21);
        if (lent != left + at || memcmp(lent, batch + at, 21) != 0)
            bad |= 1;
        mintid_secure_zero_small(lent, 21);
        for (n = at; n < at + 21; n++)
            if (left[n] != 0)
                bad |= 2;
        at += 21;
        if (memcmp(left + at, batch + at, BATCH - at) != 0)
            bad |= 2;
        /* The kinds that read lent bytes: the symbols, UUID and hex of the
         * keystream's next bytes, each wiped. */
        if (mintid_default_nanoid(symbols, NULL) != MINTID_OK ||
            mintid_nanoid_map_by(MINTID_NANOID_MAP_WORDS, st, batch + at, 21, want) != MINTID_OK ||
            memcmp(symbols, want, 21) != 0)
            bad |= 4;
        at += 21;
        memcpy(want, batch + at, 16);
        mintid_uuid_set_version(want, 4);
        if (mintid_uuid4_make(mintid_random_pool, NULL, got, NULL) != MINTID_OK || memcmp(got, want, 16) != 0)
            bad |= 8;
        at += 16;
        mintid_hex_encode(batch + at, 16, (char *)want);
        if (mintid_trace_id_text(text, NULL) != MINTID_OK || memcmp(text, want, 32) != 0)
            bad |= 16;
        at += 16;
        mintid_hex_encode(batch + at, 8, (char *)want);
        if (mintid_span_id_text(text, NULL) != MINTID_OK || memcmp(text, want, 16) != 0)
            bad |= 16;
        at += 8;
        for (n = 48; n < at; n++)
            if (left[n] != 0)
                bad |= 2;
        /* No more than the batch holds; then all of it. */
        if (mintid_random_lend(BATCH - at + 1) != NULL || (lent = mintid_random_lend(BATCH - at)) != left + at)
            bad |= 32;
        else
            mintid_secure_zero_small(lent, BATCH - at);
        /* An empty batch: the ID's draw refills (the next batch, keyed by
         * this one's first 32 bytes), then lends again. */
        if (mintid_random_lend(1) != NULL || mintid_nanoid_text(&spec, symbols, NULL) != MINTID_OK ||
            mintid_nanoid_map_by(MINTID_NANOID_MAP_WORDS, st, next_batch + 32, 21, want) != MINTID_OK ||
            memcmp(symbols, want, 21) != 0 || mintid_random_lend(16) != left + 32 + 21)
            bad |= 64;
        /* A child by fork() (whose handlers wipe the pools), and one by a
         * raw clone, which runs none: only the fork generation tells. */
        for (i = 0; i < 2; i++) {
            fflush(stdout);
            grandchild = i == 0 ? fork() : (pid_t)syscall(SYS_clone, SIGCHLD, 0);
            if (grandchild == 0)
                _exit(mintid_random_lend(16) == NULL ? 0 : 1);
            if (grandchild < 0 || waitpid(grandchild, &child_status, 0) != grandchild ||
                !WIFEXITED(child_status) || WEXITSTATUS(child_status) != 0)
                bad |= 128;
        }
        _exit(bad);
    }
    if (pid > 0)
        waitpid(pid, &status, 0);
    check(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) != 255, "pool lending (forked child): the child ran");
    status = pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : 255;
    check(!(status & 1), "pool lending: the bytes lent are the batch's next, the keystream in order, in place");
    check(!(status & 2), "pool lending: each byte lent is wiped once read, and no byte still to come");
    check(!(status & 4), "pool lending: the default Nano ID is the symbols of the keystream's next 21 bytes");
    check(!(status & 8), "pool lending: a UUIDv4 is the keystream's next 16 bytes with its version and variant");
    check(!(status & 16), "pool lending: a trace-id and a span-id are the hex of the keystream's next 16 and 8 bytes");
    check(!(status & 32), "pool lending: no more than the batch holds is lent, and all it holds is");
    check(!(status & 64), "pool lending: an empty batch lends nothing; an ID's draw refills it and lending goes on");
    check(!(status & 128), "pool lending: a child by fork() or a raw clone lends nothing before a draw gives it "
                           "a key of its own");
}

int main(void)
{
    check_both_fail();
    check_getrandom();
    check_urandom_failures();
    check_pool_construction();
    check_pool_lending();
    return tap_done();
}
