/*
 * os_hostid.c: what identifies this host and process to an XID (xid.c),
 * read where rs/xid reads it on each platform (its hostid_*.go):
 * - Linux: /etc/machine-id, else /sys/class/dmi/id/product_uuid, whole
 *   (a final newline included, as Go's os.ReadFile gives it);
 * - macOS: the IOPlatformUUID, lowercase; rs/xid runs `ioreg` for it, a
 *   library must not spawn processes, and sysctl kern.uuid holds the same
 *   value;
 * - FreeBSD: sysctl kern.hostuuid; OpenBSD: sysctl hw.uuid;
 * - Windows: HKLM\SOFTWARE\Microsoft\Cryptography MachineGuid when it is
 *   36 characters;
 * - elsewhere none (rs/xid's hostid_fallback.go).
 * Also the host name, the process id, and /proc/self/cpuset (Linux).
 */
#if !defined(_WIN32) && !defined(__APPLE__) && !defined(__FreeBSD__) && !defined(__NetBSD__) && \
    !defined(__OpenBSD__) && !defined(__DragonFly__)
#  define _POSIX_C_SOURCE 200809L /* gethostname, O_CLOEXEC */
#endif

#include <stddef.h> /* first: the lines above are the file's feature macros */

#include <string.h>

#ifdef _WIN32
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>
#  if defined(_MSC_VER)
#    pragma comment(lib, "advapi32")
#  endif
#else
#  include <errno.h>
#  include <fcntl.h>
#  include <unistd.h>
#  if defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__)
#    include <sys/types.h>
#    include <sys/sysctl.h>
#  endif
#endif

#include "internal.h"

#ifndef _WIN32
/* The whole of a small file, or MINTID_EARG when it cannot be read or
 * does not fit. */
static int read_small_file(const char *path, uint8_t *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    int fd, rc = MINTID_OK;

    do
        fd = open(path, O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return MINTID_EARG;
    for (;;) {
        ssize_t r = read(fd, buf + n, cap - n);

        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 || (r > 0 && n + (size_t)r == cap)) {
            rc = MINTID_EARG; /* an error, or maybe more than fits */
            break;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    *len = n;
    return rc;
}
#endif

#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__)
static int read_sysctl_text(char *buf, size_t cap, size_t *len)
{
    size_t size = cap;
#  if defined(__OpenBSD__)
    int mib[2] = { CTL_HW, HW_UUID };

    if (sysctl(mib, 2, buf, &size, NULL, 0) != 0)
        return MINTID_EARG;
#  else
    if (sysctlbyname(
#    if defined(__APPLE__)
            "kern.uuid",
#    else
            "kern.hostuuid",
#    endif
            buf, &size, NULL, 0) != 0)
        return MINTID_EARG;
#  endif
    /* A C string: Go's Sysctl drops the NUL. */
    while (size > 0 && buf[size - 1] == '\0')
        size--;
    *len = size;
    return MINTID_OK;
}
#endif

int mintid_os_platform_machine_id(char *buf, size_t cap, size_t *len)
{
#if defined(__linux__)
    if (read_small_file("/etc/machine-id", (uint8_t *)buf, cap, len) == MINTID_OK && *len > 0)
        return MINTID_OK;
    return read_small_file("/sys/class/dmi/id/product_uuid", (uint8_t *)buf, cap, len);
#elif defined(__APPLE__)
    size_t i;

    if (read_sysctl_text(buf, cap, len) != MINTID_OK)
        return MINTID_EARG;
    for (i = 0; i < *len; i++)
        if (buf[i] >= 'A' && buf[i] <= 'Z')
            buf[i] = (char)(buf[i] - 'A' + 'a');
    return MINTID_OK;
#elif defined(__FreeBSD__) || defined(__OpenBSD__)
    return read_sysctl_text(buf, cap, len);
#elif defined(_WIN32)
    char guid[64];
    DWORD size = sizeof guid;

    if (RegGetValueA(HKEY_LOCAL_MACHINE, "SOFTWARE\\Microsoft\\Cryptography", "MachineGuid",
                     RRF_RT_REG_SZ | RRF_SUBKEY_WOW6464KEY, NULL, guid, &size) != ERROR_SUCCESS)
        return MINTID_EARG;
    if (size != 37 || cap < 36) /* rs/xid takes a 36-char GUID only; size counts the NUL */
        return MINTID_EARG;
    memcpy(buf, guid, 36);
    *len = 36;
    return MINTID_OK;
#else
    (void)buf;
    (void)cap;
    *len = 0;
    return MINTID_EARG;
#endif
}

int mintid_os_hostname(char *buf, size_t cap, size_t *len)
{
#ifdef _WIN32
    /* What Go's os.Hostname reads there. */
    DWORD size = (DWORD)cap;

    if (cap < 2 || !GetComputerNameExA(ComputerNameDnsHostname, buf, &size))
        return MINTID_EARG;
#else
    if (cap < 2 || gethostname(buf, cap - 1) != 0)
        return MINTID_EARG;
#endif
    buf[cap - 1] = '\0';
    *len = strlen(buf);
    return *len > 0 ? MINTID_OK : MINTID_EARG;
}

uint32_t mintid_os_process_id(void)
{
#ifdef _WIN32
    return (uint32_t)GetCurrentProcessId();
#else
    return (uint32_t)getpid();
#endif
}

int mintid_os_cpuset(uint8_t *buf, size_t cap, size_t *len)
{
#if defined(__linux__)
    return read_small_file("/proc/self/cpuset", buf, cap, len);
#else
    (void)buf;
    (void)cap;
    *len = 0;
    return MINTID_EARG;
#endif
}
