/* default.c: the process-wide generators behind mintid.ulid() and friends,
 * shared by every thread and Lua state of the process. */
#include "internal.h"

/*
 * Each default generator holds its own lock for the step alone: the clock
 * read, the draw and the encoding happen outside it; inside are only the
 * compare, the increment or install, and the copy. A thread whose clock
 * read is older than the ms another thread installed meanwhile takes the
 * increment path, so IDs strictly increase across all threads, not only
 * within one. The draw comes before the lock when the step will likely
 * install a new ms (the ms the last step left differs from this clock
 * read); when another thread installed that ms first, the bytes are dropped
 * (SPEC allows it for the defaults; a generator object with a caller's
 * `random` still sees exactly SPEC's draws, through mintid_monotonic_next).
 */
/* The step's lock and state on cache lines of their own (two, as CPUs
 * fetch lines in pairs): only a step writes them, so a core takes them
 * once per step and no other generator's steps move them. The hint, read
 * by every call, sits on the next line, written once per ms. */
#define STEP_BYTES 128
#define HINT_BYTES 64
#if defined(__GNUC__) || defined(__clang__)
#define ALIGNED_LINES __attribute__((aligned(STEP_BYTES)))
#else
#define ALIGNED_LINES /* padded, if not aligned */
#endif
typedef struct {
    union {
        struct {
            mintid_lock lock;
            mintid_monotonic st; /* under lock */
        } s;
        unsigned char lines[STEP_BYTES];
    } step;
    union {
        struct {
            /* The low 32 bits of st.last_ms, stored under the lock when
             * they change, loaded without it: only a guess whether to draw
             * first (32 bits: an atomic on every target), so a stale or
             * wrapped value costs a draw at most. */
            uint32_t last_ms_hint;
            const mintid_monotonic_kind *kind;
        } s;
        unsigned char line[HINT_BYTES];
    } hint;
} ALIGNED_LINES default_gen;

/* The default generators: one line each. */
#define DEFAULT_GENERATORS(X) \
    X(ulid, mintid_ulid_kind)  \
    X(uuid7, mintid_uuid7_kind)

enum {
#define DEFAULT_INDEX(name, kind) DEFAULT_##name,
    DEFAULT_GENERATORS(DEFAULT_INDEX)
    DEFAULT_COUNT
};

/* last_ms -1: the first step draws (monotonic.c). */
static default_gen gens[DEFAULT_COUNT] = {
#define DEFAULT_STATE(name, kind) { { { MINTID_LOCK_INIT, { -1, { 0 }, 0 } } }, { { UINT32_MAX, &kind } } },
    DEFAULT_GENERATORS(DEFAULT_STATE)
};

/*
 * The UUIDv1, UUIDv6, KSUID and ObjectId defaults: a generator object of the core each, under
 * its own padded lock held for the step alone, the clock read outside it
 * (the step's last + 1 keeps a late reading in order). They draw rarely (a
 * KSUID in a new second; a v1/v6 node and clock_seq, an ObjectId's
 * identity and counter start, on first use and in a forked child), so the
 * draw stays inside. One line each. The XID default is the same but for
 * its lock, the process XID counter's (below).
 */
typedef struct {
    int (*clock)(int64_t *now, char *err); /* the unit the step takes */
    int (*init)(void *gen, char *err);
    int (*step)(void *gen, int64_t now, uint8_t *out, char *err);
} object_kind;
typedef union {
    struct {
        mintid_lock lock;
        int ready; /* under lock: gen initialised */
        union {
            mintid_uuid_time_gen uuid_time;
            mintid_ksuid_gen ksuid;
            mintid_objectid_gen objectid;
        } gen;
    } s;
    unsigned char lines[2 * STEP_BYTES];
} ALIGNED_LINES object_gen;
MINTID_STATIC_ASSERT(sizeof(object_gen) == 2 * STEP_BYTES, object_gen_padded);

static int object_init_uuid1(void *g, char *err) { return mintid_uuid_time_gen_init(g, 1, NULL, 0, -1, err); }
static int object_init_uuid6(void *g, char *err) { return mintid_uuid_time_gen_init(g, 6, NULL, 0, -1, err); }
static int object_init_ksuid(void *g, char *err) { (void)err; mintid_ksuid_gen_init(g); return MINTID_OK; }

/* ObjectId: this process's identity, drawn again in a forked child. */
static int object_init_objectid(void *g, char *err) { (void)err; mintid_objectid_gen_init(g); return MINTID_OK; }

/* At the clock's seconds: the ID holds no more. */
static int object_step_objectid(void *g, int64_t now, uint8_t *out, char *err)
{
    return mintid_objectid_gen_next_s(mintid_objectid_state_of(g), now, mintid_random_pool, err, out, err);
}

static int object_step_uuid_time(void *g, int64_t now, uint8_t *out, char *err)
{
    return mintid_uuid_time_gen_next_100ns(mintid_uuid_time_state_of(g), now, mintid_random_pool, err, out, err);
}

static int object_step_ksuid(void *g, int64_t now, uint8_t *out, char *err)
{
    return mintid_ksuid_gen_next(mintid_ksuid_state_of(g), now, mintid_random_pool, err, out, err);
}

static const object_kind object_uuid1 = { mintid_os_clock_100ns, object_init_uuid1, object_step_uuid_time };
static const object_kind object_uuid6 = { mintid_os_clock_100ns, object_init_uuid6, object_step_uuid_time };
static const object_kind object_ksuid = { mintid_os_clock_ms, object_init_ksuid, object_step_ksuid };
static const object_kind object_objectid = { mintid_os_clock_s, object_init_objectid, object_step_objectid };

#define OBJECT_GENERATORS(X) \
    X(uuid1, object_uuid1)     \
    X(uuid6, object_uuid6)     \
    X(ksuid, object_ksuid)     \
    X(objectid, object_objectid)

enum {
#define OBJECT_INDEX(name, kind) OBJECT_##name,
    OBJECT_GENERATORS(OBJECT_INDEX)
    OBJECT_COUNT
};

static object_gen objects[OBJECT_COUNT] = {
#define OBJECT_STATE(name, kind) { { MINTID_LOCK_INIT, 0, { { { 0 } } } } },
    OBJECT_GENERATORS(OBJECT_STATE)
};

/* The process's one XID counter (mintid_default_xid_counter) and the
 * default XID generator, which takes its counter from it, under one lock:
 * one lock per default XID, not its own and then the counter's. fork()
 * takes it with every other lock, last. Padded as an object_gen is. */
typedef union {
    struct {
        mintid_lock lock;
        mintid_xid_counter counter; /* under lock */
        int ready; /* under lock: gen initialised */
        mintid_xid_gen gen;
    } s;
    unsigned char lines[2 * STEP_BYTES];
} ALIGNED_LINES process_xid_state;
MINTID_STATIC_ASSERT(sizeof(process_xid_state) == 2 * STEP_BYTES, process_xid_padded);
static process_xid_state process_xid = { { MINTID_LOCK_INIT, { 0, 0, 0, 0 }, 0, { { 0 } } } };

/* SPEC's default Nano ID (the default alphabet, 21 symbols): no state to
 * guard, set once by default_setup and only read after. */
static mintid_nanoid_spec nanoid_spec;

static mintid_once default_once = MINTID_ONCE_INIT;
static int default_ready; /* set (release) by default_setup: no pthread_once per ID */

/* Every lock is held across fork() so that no other thread is half-way
 * through a step then; the child needs no reset of its own, since a
 * generator's state records its process and its next step in a forked
 * child draws afresh (monotonic.c). A child made without the handlers
 * (raw clone) has the same fresh start; only a lock's state is then
 * whatever the parent's other threads left it in, as with any lock. The
 * XID counter's lock is taken last: no generator's lock of this file is
 * ever taken while it is held (the default XID steps under it, not under
 * a lock of its own). */
static void default_prepare(void)
{
    int i;

    for (i = 0; i < DEFAULT_COUNT; i++)
        mintid_lock_take(&gens[i].step.s.lock);
    for (i = 0; i < OBJECT_COUNT; i++)
        mintid_lock_take(&objects[i].s.lock);
    mintid_lock_take(&process_xid.s.lock);
}

static void default_unlock(void)
{
    int i;

    mintid_lock_release(&process_xid.s.lock);
    for (i = OBJECT_COUNT - 1; i >= 0; i--)
        mintid_lock_release(&objects[i].s.lock);
    for (i = DEFAULT_COUNT - 1; i >= 0; i--)
        mintid_lock_release(&gens[i].step.s.lock);
}

static void default_setup(void)
{
    mintid_nanoid_spec_default(&nanoid_spec, NULL); /* cannot fail */
    mintid_os_atfork(default_prepare, default_unlock, default_unlock);
    MINTID_STORE_RELEASE(&default_ready, 1);
}

int mintid_default_xid_counter(uint32_t generation, mintid_random_fn rnd, void *ctx, uint64_t *ticket,
                               uint32_t *counter, char *err)
{
    int rc;

    if (!MINTID_LOAD_ACQUIRE(&default_ready))
        mintid_run_once(&default_once, default_setup);
    mintid_lock_take(&process_xid.s.lock);
    rc = mintid_xid_counter_take(&process_xid.s.counter, generation, rnd, ctx, ticket, counter, err);
    mintid_lock_release(&process_xid.s.lock);
    return rc;
}

static int default_next(default_gen *g, uint8_t *out, char *err)
{
    const mintid_monotonic_kind *k = g->hint.s.kind;
    uint8_t drawn[10], counter[10];
    int64_t now, ms;
    uint32_t generation, hint;
    int have_draw = 0, want_draw = 0, rc;

    if (!MINTID_LOAD_ACQUIRE(&default_ready))
        mintid_run_once(&default_once, default_setup);
    rc = mintid_os_clock_ms(&now, err);
    if (rc != MINTID_OK)
        return rc;
    generation = mintid_os_fork_generation();
    for (;;) {
        if (!have_draw && (want_draw || (uint32_t)now != MINTID_LOAD_ACQUIRE(&g->hint.s.last_ms_hint))) {
            rc = mintid_draw_random(mintid_random_pool, err, drawn, k->draw_len, k->name, err);
            if (rc != MINTID_OK)
                return rc;
            have_draw = 1;
        }
        mintid_lock_take(&g->step.s.lock);
        rc = mintid_monotonic_step(&g->step.s.st, k, now, generation, have_draw ? drawn : NULL, &ms, counter, err);
        /* Rarely: another thread's clock went back, or this is the first
         * step in a forked child; draw outside the lock and look again. */
        want_draw = rc == MINTID_MONOTONIC_WANTS_DRAW;
        if (!want_draw)
            break;
        mintid_lock_release(&g->step.s.lock);
    }
    hint = (uint32_t)g->step.s.st.last_ms;
    if (MINTID_LOAD_ACQUIRE(&g->hint.s.last_ms_hint) != hint)
        MINTID_STORE_RELEASE(&g->hint.s.last_ms_hint, hint);
    mintid_lock_release(&g->step.s.lock);
    if (rc == MINTID_OK)
        k->store(ms, counter, out);
    return rc;
}

#define DEFAULT_FUNCTION(name, kind) \
    int mintid_default_##name(uint8_t out[16], char *err) { return default_next(&gens[DEFAULT_##name], out, err); }
DEFAULT_GENERATORS(DEFAULT_FUNCTION)

/* Inline, with k a constant of each caller: its clock and step are then
 * direct calls, not calls through a pointer. */
static inline int object_next(object_gen *g, const object_kind *k, uint8_t *out, char *err)
{
    int64_t now = 0;
    int rc;

    if (!MINTID_LOAD_ACQUIRE(&default_ready))
        mintid_run_once(&default_once, default_setup);
    rc = k->clock(&now, err);
    if (rc != MINTID_OK)
        return rc;
    mintid_lock_take(&g->s.lock);
    if (!g->s.ready) {
        rc = k->init(&g->s.gen, err);
        g->s.ready = rc == MINTID_OK;
    }
    if (rc == MINTID_OK)
        rc = k->step(&g->s.gen, now, out, err);
    mintid_lock_release(&g->s.lock);
    return rc;
}

#define OBJECT_FUNCTION(name, kind) \
    int mintid_default_##name(uint8_t *out, char *err) { return object_next(&objects[OBJECT_##name], &kind, out, err); }
OBJECT_GENERATORS(OBJECT_FUNCTION)

/* object_next's steps under the XID counter's lock, the generator's
 * counter taken with that lock already held (inline: no call per step).
 * The generator is of the process's identity, so it shares the counter. */
int mintid_default_xid(uint8_t *out, char *err)
{
    int64_t now = 0;
    int rc;

    if (!MINTID_LOAD_ACQUIRE(&default_ready))
        mintid_run_once(&default_once, default_setup);
    rc = mintid_os_clock_s(&now, err);
    if (rc != MINTID_OK)
        return rc;
    mintid_lock_take(&process_xid.s.lock);
    if (!process_xid.s.ready) {
        /* This process's identity, its pid again in a forked child. */
        rc = mintid_xid_gen_init(&process_xid.s.gen, NULL, 0, -1, err);
        process_xid.s.ready = rc == MINTID_OK;
    }
    if (rc == MINTID_OK)
        rc = mintid_xid_next_shared(mintid_xid_state_of(&process_xid.s.gen), now, mintid_random_pool, err,
                                    &process_xid.s.counter, out, err);
    mintid_lock_release(&process_xid.s.lock);
    return rc;
}

/* No state to guard: each thread draws from its own pool. */
int mintid_default_uuid4(uint8_t out[16], char *err)
{
    return mintid_uuid4_make(mintid_random_pool, err, out, err);
}

int mintid_default_nanoid(char out[MINTID_NANOID_DEFAULT_SIZE], char *err)
{
    if (!MINTID_LOAD_ACQUIRE(&default_ready))
        mintid_run_once(&default_once, default_setup);
    return mintid_nanoid_generate(mintid_nanoid_state_of(&nanoid_spec), mintid_random_pool, err, (uint8_t *)out,
                                  err);
}
