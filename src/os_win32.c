/* os_win32.c: the platform layer on Windows (internal.h "the platform
 * layer"), the interface os_posix.c gives elsewhere: BCryptGenRandom, the
 * system time and tick count, SRW locks and InitOnce, fiber-local storage
 * for a pointer per thread. Windows has no fork,
 * so fork handling is a constant. */
#ifdef _WIN32
/* SRW locks and InitOnce need Vista; GetSystemTimePreciseAsFileTime needs
 * Windows 8, the oldest Windows the core runs on. */
#  ifndef _WIN32_WINNT
#    define _WIN32_WINNT 0x0602
#  endif
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#endif

#include <stddef.h> /* first: the lines above are the file's feature macros */

#ifdef _WIN32
#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <bcrypt.h>

#include "internal.h"

MINTID_STATIC_ASSERT(sizeof(mintid_lock) == sizeof(SRWLOCK), srwlock_size);
MINTID_STATIC_ASSERT(sizeof(mintid_once) == sizeof(INIT_ONCE), init_once_size);

int mintid_os_random(uint8_t *buf, size_t n, char *err)
{
    while (n > 0) {
        ULONG take = n > 0x40000000 ? 0x40000000 : (ULONG)n;
        NTSTATUS status = BCryptGenRandom(NULL, buf, take, BCRYPT_USE_SYSTEM_PREFERRED_RNG);

        if (!BCRYPT_SUCCESS(status))
            return mintid_fail(err, MINTID_ERANDOM, "OS random source failed: BCryptGenRandom status 0x%08lx",
                               (unsigned long)status);
        buf += take;
        n -= take;
    }
    return MINTID_OK;
}

void mintid_secure_zero(void *p, size_t n)
{
    SecureZeroMemory(p, n);
}

/* FILETIME counts 100 ns ticks since 1601-01-01, 11644473600 s before 1970.
 * The precise variant (Windows 8) follows the wall clock to the tick; the
 * plain one moves only at the timer interrupt (about 15.6 ms). */
#define UNIX_EPOCH_TICKS UINT64_C(116444736000000000)

static uint64_t filetime_ticks(void)
{
    FILETIME ft;

    GetSystemTimePreciseAsFileTime(&ft);
    return (uint64_t)ft.dwHighDateTime << 32 | ft.dwLowDateTime;
}

int mintid_os_clock_ms(int64_t *now_ms, char *err)
{
    uint64_t ticks = filetime_ticks();

    (void)err;
    /* A clock before 1970 comes back negative (floored), as on POSIX. */
    if (ticks >= UNIX_EPOCH_TICKS)
        *now_ms = (int64_t)((ticks - UNIX_EPOCH_TICKS) / 10000);
    else
        *now_ms = -(int64_t)((UNIX_EPOCH_TICKS - ticks + 9999) / 10000);
    return MINTID_OK;
}

int mintid_os_clock_100ns(int64_t *ticks, char *err)
{
    uint64_t t = filetime_ticks();

    (void)err;
    *ticks = t >= UNIX_EPOCH_TICKS ? (int64_t)(t - UNIX_EPOCH_TICKS) : -(int64_t)(UNIX_EPOCH_TICKS - t);
    return MINTID_OK;
}

/* Whole seconds from the system time as the last tick left it (cheaper
 * than the precise reading): the resolution ObjectIds and XIDs need. */
int mintid_os_clock_s(int64_t *now_s, char *err)
{
    FILETIME ft;
    uint64_t t;

    (void)err;
    GetSystemTimeAsFileTime(&ft);
    t = (uint64_t)ft.dwHighDateTime << 32 | ft.dwLowDateTime;
    *now_s = t >= UNIX_EPOCH_TICKS ? (int64_t)((t - UNIX_EPOCH_TICKS) / 10000000)
                                   : -(int64_t)((UNIX_EPOCH_TICKS - t + 9999999) / 10000000);
    return MINTID_OK;
}

/* Milliseconds since boot; never goes back, whatever the system time does. */
int64_t mintid_os_monotonic_ms(void)
{
    return (int64_t)GetTickCount64();
}

/* GetTickCount64 itself is cheap and moves at the timer interrupt: it lags
 * by less than one (15.625 ms at most). */
int64_t mintid_os_deadline_ms(void)
{
    return (int64_t)GetTickCount64();
}

int64_t mintid_os_deadline_slack_ms(void)
{
    return 17;
}

void mintid_os_pause(void)
{
    /* Sleep(1) would wait a whole timer tick (up to 15.6 ms): yield only. */
    SwitchToThread();
}

void mintid_lock_take(mintid_lock *l)
{
    AcquireSRWLockExclusive((PSRWLOCK)(void *)l);
}

void mintid_lock_release(mintid_lock *l)
{
    ReleaseSRWLockExclusive((PSRWLOCK)(void *)l);
}

/* The function travels inside a struct: C has no portable cast between
 * function and object pointers. */
typedef struct {
    void (*fn)(void);
} once_call;

static BOOL CALLBACK once_trampoline(PINIT_ONCE once, PVOID param, PVOID *ctx)
{
    (void)once;
    (void)ctx;
    ((const once_call *)param)->fn();
    return TRUE;
}

void mintid_run_once(mintid_once *once, void (*fn)(void))
{
    once_call call;

    call.fn = fn;
    InitOnceExecuteOnce((PINIT_ONCE)(void *)once, once_trampoline, &call, NULL);
}

/* No fork on Windows: one process, one generation, no handlers to run. */
int mintid_os_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void))
{
    (void)prepare;
    (void)parent;
    (void)child;
    return 0;
}

/* What mintid_os_fork_generation reads inline: never changes here. */
MINTID_INTERNAL_DATA uint32_t mintid_os_generation;
MINTID_INTERNAL_DATA unsigned char *mintid_os_sentinel;

uint32_t mintid_os_fork_generation_slow(void)
{
    return 0;
}

int mintid_os_fork_watched(void)
{
    return 1;
}

/* ---- lock files -------------------------------------------------------------
 *
 * LockFileEx byte locks belong to the handle: another handle conflicts,
 * also in this process, and the system frees them when the process ends.
 * Windows has no fork to mind. The lock file and its pinned layout record
 * are opened without FILE_SHARE_DELETE: neither can be removed or renamed
 * while a lease has it open, so no process can make a second file of that
 * name whose locks it would not see (what the POSIX checks look for). */
struct mintid_lock_file {
    HANDLE h;
    HANDLE record;  /* the pinned layout record, or INVALID_HANDLE_VALUE */
    char *path;
};

static int lock_file_fail(char *err, const char *what)
{
    return mintid_fail(err, MINTID_EARG, "%s: Windows error %lu", what, (unsigned long)GetLastError());
}

/* CreateFileW of a UTF-8 path; INVALID_HANDLE_VALUE with the error set. */
static HANDLE open_utf8(const char *path, DWORD access, DWORD disposition)
{
    wchar_t *wide;
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    HANDLE h;

    if (n <= 0) {
        SetLastError(ERROR_NO_UNICODE_TRANSLATION);
        return INVALID_HANDLE_VALUE;
    }
    wide = (wchar_t *)malloc((size_t)n * sizeof *wide);
    if (wide == NULL) {
        SetLastError(ERROR_NOT_ENOUGH_MEMORY);
        return INVALID_HANDLE_VALUE;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wide, n);
    h = CreateFileW(wide, access, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, disposition, FILE_ATTRIBUTE_NORMAL, NULL);
    free(wide);
    return h;
}

static char *copy_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = (char *)malloc(n);

    if (c != NULL)
        memcpy(c, s, n);
    return c;
}

int mintid_os_lock_file_open(const char *path, int create, mintid_lock_file **out, char *err)
{
    mintid_lock_file *f;
    HANDLE h = open_utf8(path, create ? GENERIC_READ | GENERIC_WRITE : GENERIC_READ,
                         create ? OPEN_ALWAYS : OPEN_EXISTING);

    *out = NULL;
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        if (!create && (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND))
            return MINTID_OK;
        if (e == ERROR_NO_UNICODE_TRANSLATION)
            return mintid_fail(err, MINTID_EARG, "cannot open: the path is not UTF-8");
        return lock_file_fail(err, "cannot open");
    }
    f = (mintid_lock_file *)malloc(sizeof *f);
    if (f == NULL || (f->path = copy_text(path)) == NULL) {
        free(f);
        CloseHandle(h);
        return mintid_fail(err, MINTID_ENOMEM, "out of memory");
    }
    f->h = h;
    f->record = INVALID_HANDLE_VALUE;
    *out = f;
    return MINTID_OK;
}

const char *mintid_os_lock_file_path(const mintid_lock_file *f)
{
    return f->path;
}

int mintid_os_lock_file_pin(mintid_lock_file *f, const char *record, char *line, size_t size, int *found,
                            char *err)
{
    DWORD n = 0;
    HANDLE h = open_utf8(record, GENERIC_READ, OPEN_EXISTING);

    *found = 0;
    line[0] = '\0';
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        return e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND ? MINTID_OK
                                                                      : lock_file_fail(err, "cannot read its layout record");
    }
    if (!ReadFile(h, line, (DWORD)(size - 1), &n, NULL)) {
        CloseHandle(h);
        return lock_file_fail(err, "cannot read its layout record");
    }
    line[n] = '\0';
    line[strcspn(line, "\r\n")] = '\0';
    if (f->record != INVALID_HANDLE_VALUE)
        CloseHandle(f->record);
    f->record = h;
    *found = n > 0;
    return MINTID_OK;
}

/* Neither file can be removed while open (see above): a second name is
 * all there is to look for. */
int mintid_os_lock_file_check(mintid_lock_file *f, char *err)
{
    BY_HANDLE_FILE_INFORMATION info;

    if (!GetFileInformationByHandle(f->h, &info))
        return lock_file_fail(err, "cannot stat");
    if (info.nNumberOfLinks != 1)
        return mintid_fail(err, MINTID_ELEASE, "has %lu names (hard links): a lock file must have one",
                           (unsigned long)info.nNumberOfLinks);
    return MINTID_OK;
}

int mintid_os_lock_file_changed_ms(mintid_lock_file *f, int64_t *ms, char *err)
{
    (void)f;
    (void)err;
    *ms = 0;
    return MINTID_OK;
}

/* No query of another handle's locks: each byte is tried in turn. */
int mintid_os_lock_file_find(mintid_lock_file *f, uint32_t from, uint32_t to, int *found, uint32_t *first,
                             uint32_t *last, char *err)
{
    uint32_t i = from;

    for (;;) {
        int rc = mintid_os_lock_file_taken(f, i, found, err);

        if (rc != MINTID_OK || *found) {
            *first = *last = i;
            return rc;
        }
        if (i == to)
            return MINTID_OK;
        i++;
    }
}

int mintid_os_lock_file_try(mintid_lock_file *f, uint32_t byte, int *got, char *err)
{
    OVERLAPPED ov;

    memset(&ov, 0, sizeof ov);
    ov.Offset = byte;
    *got = 0;
    if (LockFileEx(f->h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ov)) {
        *got = 1;
        return MINTID_OK;
    }
    if (GetLastError() == ERROR_LOCK_VIOLATION || GetLastError() == ERROR_IO_PENDING)
        return MINTID_OK;
    return lock_file_fail(err, "cannot lock");
}

int mintid_os_lock_file_unlock(mintid_lock_file *f, uint32_t byte, char *err)
{
    OVERLAPPED ov;

    memset(&ov, 0, sizeof ov);
    ov.Offset = byte;
    if (!UnlockFileEx(f->h, 0, 1, 0, &ov))
        return lock_file_fail(err, "cannot unlock");
    return MINTID_OK;
}

/* No test-only call: a lock taken and given back at once. */
int mintid_os_lock_file_taken(mintid_lock_file *f, uint32_t byte, int *taken, char *err)
{
    int got = 0, rc = mintid_os_lock_file_try(f, byte, &got, err);

    if (rc != MINTID_OK)
        return rc;
    *taken = !got;
    return got ? mintid_os_lock_file_unlock(f, byte, err) : MINTID_OK;
}

void mintid_os_lock_file_close(mintid_lock_file *f)
{
    if (f == NULL)
        return;
    CloseHandle(f->h);
    if (f->record != INVALID_HANDLE_VALUE)
        CloseHandle(f->record);
    free(f->path);
    free(f);
}

/* ---- a pointer per thread -------------------------------------------------
 *
 * Fiber-local storage, whose callback runs when a thread (or fiber) that
 * set it exits: the Windows counterpart of a pthread key's destructor. The
 * index is freed when the DLL is unloaded (FreeLibrary as Lua closes the
 * state), so no thread exiting later calls a callback that is gone. */
static DWORD slot_index = FLS_OUT_OF_INDEXES;
static void (*slot_at_exit)(void *p);

static VOID NTAPI slot_callback(PVOID p)
{
    if (p != NULL)
        slot_at_exit(p);
}

int mintid_os_thread_slot_init(void (*at_exit)(void *p))
{
    slot_at_exit = at_exit;
    slot_index = FlsAlloc(slot_callback);
    return slot_index == FLS_OUT_OF_INDEXES ? -1 : 0;
}

void *mintid_os_thread_slot(void)
{
    return FlsGetValue(slot_index);
}

int mintid_os_thread_slot_set(void *p)
{
    return FlsSetValue(slot_index, p) ? 0 : -1;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((destructor)) static void slot_unload(void)
{
    if (slot_index != FLS_OUT_OF_INDEXES)
        FlsFree(slot_index);
}
#endif

#else
/* A translation unit may not be empty (ISO C); this one is for Windows. */
typedef int mintid_os_win32_unused;
#endif
