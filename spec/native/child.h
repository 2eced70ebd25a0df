/*
 * child.h: forked children that report back through a pipe, and the check
 * that the IDs of all processes are distinct, shared by the native fork
 * tests. A test that makes its children otherwise (raw clone) defines
 * new_child() before including it.
 */
#ifndef MINTID_TEST_CHILD_H
#define MINTID_TEST_CHILD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef new_child
#define new_child() fork()
#endif

static int compare_ids(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

/* No two equal IDs among n sorted ones. */
static int all_distinct(uint8_t (*ids)[16], size_t n)
{
    size_t i;

    qsort(ids, n, 16, compare_ids);
    for (i = 1; i < n; i++)
        if (memcmp(ids[i - 1], ids[i], 16) == 0)
            return 0;
    return 1;
}

static int write_all(int fd, const void *buf, size_t n)
{
    const uint8_t *p = buf;

    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w <= 0)
            return 0;
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

static int read_all(int fd, void *buf, size_t n)
{
    uint8_t *p = buf;

    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r <= 0)
            return 0;
        p += r;
        n -= (size_t)r;
    }
    return 1;
}

/* A forked child runs work(out) at once, sends the size bytes of *out through
 * a pipe and _exits (no atexit handlers, no second flush of our stdout).
 * Returns the child's pid (*fd: the read end), or -1. */
static pid_t spawn(void (*work)(void *out), void *out, size_t size, int *fd)
{
    int p[2];
    pid_t pid;

    if (pipe(p) != 0)
        return -1;
    fflush(stdout);
    pid = new_child();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        work(out);
        _exit(write_all(p[1], out, size) ? 0 : 1);
    }
    close(p[1]);
    *fd = p[0];
    return pid;
}

/* What spawn's child sent, and whether all of it came and the child exited 0.
 * A child blocked on a full pipe waits until its turn here. */
static int collect(pid_t pid, int fd, void *out, size_t size)
{
    int ok = read_all(fd, out, size), status;

    close(fd);
    if (waitpid(pid, &status, 0) != pid)
        return 0;
    return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

#endif
