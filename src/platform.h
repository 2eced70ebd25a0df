/*
 * platform.h: the core's one lock and one-time initialisation, over POSIX
 * threads or Windows (SRW locks, InitOnceExecuteOnce), so that random.c and
 * default.c read the same on both. Not part of the ABI. A file that
 * includes it defines its feature macros (_POSIX_C_SOURCE) first.
 */
#ifndef MINTID_PLATFORM_H
#define MINTID_PLATFORM_H

#ifdef _WIN32
/* SRW locks and InitOnce need Vista; GetSystemTimePreciseAsFileTime
 * (clock.c) needs Windows 8, the oldest Windows the core runs on. */
#ifndef _WIN32_WINNT
#define _WIN32_WINNT 0x0602
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

typedef SRWLOCK mintid_lock;
#define MINTID_LOCK_INIT SRWLOCK_INIT
typedef INIT_ONCE mintid_once;
#define MINTID_ONCE_INIT INIT_ONCE_STATIC_INIT

#define mintid_lock_take(l) AcquireSRWLockExclusive(l)
#define mintid_lock_release(l) ReleaseSRWLockExclusive(l)

/* The function travels inside a struct: C has no portable cast between
 * function and object pointers. */
typedef struct {
    void (*fn)(void);
} mintid_once_call;

static inline BOOL CALLBACK mintid_once_trampoline(PINIT_ONCE once, PVOID param, PVOID *ctx)
{
    (void)once;
    (void)ctx;
    ((const mintid_once_call *)param)->fn();
    return TRUE;
}

static inline void mintid_run_once(mintid_once *once, void (*fn)(void))
{
    mintid_once_call call;

    call.fn = fn;
    InitOnceExecuteOnce(once, mintid_once_trampoline, &call, NULL);
}

#else
#include <pthread.h>

typedef pthread_mutex_t mintid_lock;
#define MINTID_LOCK_INIT PTHREAD_MUTEX_INITIALIZER
typedef pthread_once_t mintid_once;
#define MINTID_ONCE_INIT PTHREAD_ONCE_INIT

#define mintid_lock_take(l) pthread_mutex_lock(l)
#define mintid_lock_release(l) pthread_mutex_unlock(l)
#define mintid_run_once(once, fn) pthread_once((once), (fn))
#endif

/* A flag or counter written by one thread and read by any without the
 * lock (the fork generation, "set up already"): atomic loads and stores
 * where the compiler has them. */
#if defined(__GNUC__) || defined(__clang__)
#  define MINTID_LOAD_ACQUIRE(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#  define MINTID_STORE_RELEASE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#else
#  define MINTID_LOAD_ACQUIRE(p) (*(p))
#  define MINTID_STORE_RELEASE(p, v) (*(p) = (v))
#endif

#endif
