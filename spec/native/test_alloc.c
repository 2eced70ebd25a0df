/*
 * test_alloc.c: out-of-memory safety of the binding, the way Lua's own test
 * suite drives memory errors. A script calls every public function once;
 * it is run with an allocator that fails every allocation from the Nth on,
 * for N = 0, 1, 2, ... until the script completes. After each run:
 * - the run either completed or raised a memory error (nothing else);
 * - every generator the script used gives the same next ID as its twin, a
 *   generator with the same frozen clock and random option that made only
 *   the calls that returned (a failed call leaves the state as it was);
 * - lua_close gives back every byte (and, under LeakSanitizer, no C leak).
 * Built for Lua 5.4, 5.1 and 5.5 (each takes an allocator in lua_newstate);
 * the binding is compiled in, as in test_wipe. Prints TAP; exits 1 on a failure.
 */
#define _POSIX_C_SOURCE 200809L

#include "lua_mintid.c"
#include "lua_helpers.c"
#include "lua_layout.c"
#include "lua_values.c"
#include "lua_fence.c"
#include "lua_hooks.c"
#include "lua_generators.c"
#include "lua_defaults.c"
#include "lua_trace.c"
#include "lua_short_uuid.c"
#include "lua_sqids.c"
#include "lua_lock_file.c"

#include <stdlib.h>
#include <time.h>

#include "lualib.h"
#include "tap.h"

/* A script that does not complete within this many failing runs is itself
 * a failure (it allocates a few hundred times). */
#define MAX_RUNS 20000
/* Details printed for at most this many failures of each kind. */
#define MAX_SHOWN 5

static struct {
    long count;   /* allocations seen since failing was armed */
    long fail_at; /* -1: never fail; else fail every allocation from this one on */
    size_t in_use;
} mem;

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    void *p;

    (void)ud;
    if (ptr == NULL)
        osize = 0; /* 5.4 passes the object's type there */
    if (nsize == 0) {
        free(ptr);
        mem.in_use -= osize;
        return NULL;
    }
    /* Only a block that grows can fail; Lua may assume a shrink succeeds. */
    if (nsize > osize && mem.fail_at >= 0 && mem.count++ >= mem.fail_at)
        return NULL;
    p = realloc(ptr, nsize);
    if (p != NULL)
        mem.in_use += nsize - osize; /* size_t wraps back on a shrink */
    return p;
}

/* Run before failing is armed: the generators under test and their twins,
 * the progress table (every key present, so that setting one never
 * allocates), and the module as users require it (registered in preload). */
static const char setup_chunk[] =
    "local mintid = require 'mintid'\n"
    "local T = 1700000000000\n"
    "local function hooks() return { clock = function() return T end,\n"
    "  random = function(n) return ('\\7'):rep(n) end } end\n"
    "local function with(t, extra) for k, v in pairs(extra) do t[k] = v end; return t end\n"
    "local SECRET = '0123456789abcdef'\n"
    "local kinds = {\n"
    "  ulid = function() return mintid.ulid_generator(hooks()) end,\n"
    "  uuid7 = function() return mintid.uuid7_generator(hooks()) end,\n"
    "  uuid4 = function() return mintid.uuid4_generator(hooks()) end,\n"
    "  relative = function() return mintid.relative_generator(with(hooks(), { secret = SECRET })) end,\n"
    "  snowflake = function() return mintid.snowflake_generator(with(hooks(), { machine_id = 5 })) end,\n"
    "  nanoid = function() return mintid.nanoid_generator(with(hooks(), { size = 300, alphabet = 'abcd' })) end,\n"
    "  uuid1 = function() return mintid.uuid1_generator(hooks()) end,\n"
    "  uuid6 = function() return mintid.uuid6_generator(with(hooks(), { node = '123456', clock_seq = 9 })) end,\n"
    "  ksuid = function() return mintid.ksuid_generator(hooks()) end,\n"
    "  typeid = function() return mintid.typeid_generator(hooks()) end,\n"
    "  objectid = function() return mintid.objectid_generator(hooks()) end,\n"
    "  xid = function() return mintid.xid_generator(with(hooks(), { machine = 'abc', pid = 7 })) end,\n"
    "}\n"
    "G, TWIN, DONE = {}, {}, {}\n"
    "for name, new in pairs(kinds) do G[name] = new(); TWIN[name] = new(); DONE[name] = 0 end\n"
    "_G.MINTID, _G.SECRET = mintid, SECRET\n";

/* The calls under test: every public function once, every generator's
 * methods, every value's methods and metamethods. DONE[kind] counts the
 * generator calls that returned. */
static const char script_chunk[] =
    "local m, G, DONE, SECRET = MINTID, G, DONE, SECRET\n"
    "local R10 = ('\\1'):rep(10)\n"
    "assert(m.ulid()); assert(m.uuid4()); assert(m.uuid7())\n"
    "assert(m.nanoid()); assert(m.nanoid(8)); assert(m.nanoid(300, 'xyz'))\n"
    "local g = G.ulid\n"
    "assert(g:next()); DONE.ulid = 1\n"
    "local u = assert(g:next_value()); DONE.ulid = 2\n"
    "g = G.uuid7\n"
    "assert(g:next()); DONE.uuid7 = 1\n"
    "assert(g:next_value()); DONE.uuid7 = 2\n"
    "g = G.uuid4\n"
    "assert(g:next()); DONE.uuid4 = 1\n"
    "assert(g:next_value()); DONE.uuid4 = 2\n"
    "g = G.relative\n"
    "assert(g:next('customer-17')); DONE.relative = 1\n"
    "local r = assert(g:next_value(42)); DONE.relative = 2\n"
    "assert(g:prefix('k')); assert(g:tag('k'))\n"
    "assert(G.snowflake:next()); DONE.snowflake = 1\n"
    "assert(G.nanoid:next()); DONE.nanoid = 1\n"
    "assert(tostring(G.relative))\n"
    "assert(m.ulid_generator()); assert(m.uuid7_generator()); assert(m.uuid4_generator())\n"
    "assert(m.relative_generator({ secret = SECRET, salt = 's' }))\n"
    "assert(m.snowflake_generator({ machine_id = 3, epoch = 1288834974657, max_wait_ms = 5 }))\n"
    "assert(m.nanoid_generator({ size = 8, alphabet = '0123456789' }))\n"
    "local a = assert(m.parse_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV'))\n"
    "local v = assert(m.parse_uuid('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'))\n"
    "local p = assert(m.parse_relative('3F8KQZ-01J8Y4Q9M3-X3B0N6E3P8'))\n"
    "assert(m.parse_snowflake('18446744073709551615', 0)); assert(m.parse_snowflake(4194308096))\n"
    "assert(m.ulid_from(1469918176385, R10)); assert(m.ulid_from_bytes(R10 .. '123456'))\n"
    "assert(m.uuid_from_bytes(R10 .. '123456')); assert(m.relative_from(1, 2, 3))\n"
    "assert(m.relative_tag(SECRET, 'orders', 'customer-17'))\n"
    "assert(m.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV'))\n"
    "assert(m.uuid_to_ulid('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'))\n"
    "assert(m.relative_range('3F8KQZ-'))\n"
    "assert(tostring(a)); assert(a:bytes()); assert(a:time()); assert(a:uuid())\n"
    "assert(tostring(v)); assert(v:version()); assert(v:time()); assert(v:ulid())\n"
    "assert(tostring(p)); assert(p:tag()); assert(p:time()); assert(p:rand())\n"
    "assert(a == a and not (a < a) and a <= a and u ~= a and r ~= p)\n"
    "assert(m.parse_ulid('nope') == nil)\n"
    "assert(m.uuid1()); assert(m.uuid6()); assert(m.ksuid()); assert(m.typeid('user'))\n"
    "assert(G.uuid1:next()); DONE.uuid1 = 1\n"
    "assert(G.uuid1:next_value()); DONE.uuid1 = 2\n"
    "assert(G.uuid6:next()); DONE.uuid6 = 1\n"
    "assert(G.ksuid:next()); DONE.ksuid = 1\n"
    "local k = assert(G.ksuid:next_value()); DONE.ksuid = 2\n"
    "assert(G.typeid:next('user')); DONE.typeid = 1\n"
    "assert(m.uuid1_generator({ node = '123456', clock_seq = 7 })); assert(m.uuid6_generator())\n"
    "assert(m.ksuid_generator()); assert(m.typeid_generator())\n"
    "assert(m.uuid3(m.NAMESPACE_DNS, 'x')); assert(m.uuid5(v, 'x')); assert(m.uuid8_sha256(m.NAMESPACE_URL, 'x'))\n"
    "assert(m.uuid8(R10 .. '123456')); assert(m.uuid1_to_uuid6('c232ab00-9414-11ec-b3c8-9f6bdeced846'))\n"
    "assert(m.uuid6_to_uuid1('1ec9414c-232a-6b00-b3c8-9f6bdeced846'))\n"
    "local q = assert(m.parse_ksuid('0ujtsYcgvSTl8PAuAdqWYSMnLOv'))\n"
    "assert(m.ksuid_from(1507608047, R10 .. '123456')); assert(m.ksuid_from_bytes(R10 .. R10))\n"
    "assert(tostring(q)); assert(q:bytes()); assert(q:payload()); assert(q:time()); assert(q ~= k and q <= q)\n"
    "local t = assert(m.parse_typeid('prefix_01h455vb4pex5vsknk084sn02q')); assert(m.typeid_from('user', v))\n"
    "assert(tostring(t)); assert(t:prefix()); assert(t:uuid()); assert(t:bytes()); assert(t:time())\n"
    "assert(t == t and not (t < t)); assert(v:variant())\n"
    "assert(m.parse_ksuid('nope') == nil); assert(m.parse_typeid('nope') == nil)\n"
    "assert(#m.trace_id() == 32); assert(#m.span_id() == 16); assert(m.traceparent())\n"
    "assert(m.traceparent('4bf92f3577b34da6a3ce929d0e0e4736', nil, 1)); assert(m.traceparent('x') == nil)\n"
    "assert(m.parse_traceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01') == '4bf92f3577b34da6a3ce929d0e0e4736')\n"
    "assert(m.parse_traceparent('nope') == nil)\n"
    "local f = m._lease_fence(); assert(f:hold(4, 30, 0, {})); assert(f:state()); assert(f:machine_id())\n"
    "assert(tostring(f)); assert(m.snowflake_generator({ lease = { _fence = f }, epoch = 1288834974657 }):next())\n"
    "assert(f:drop('lost')); assert(m._lock_file('/nonexistent-dir-of-mintid/x', false) == false)\n"
    "LAYOUTS()\n"
    "OBJECTID_XID()\n"
    "CUID2()\n"
    "SQIDS()\n";

/* The Snowflake layouts' and short UUIDs' calls, a function the script ends
 * with (one string literal stays within C99's 4095 characters). */
static const char layouts_chunk[] =
    "function LAYOUTS()\n"
    "  local m = MINTID\n"
    "  local L = { time_bits = 41, time_unit_ms = 10, machine_bits = 4, seq_bits = 8, order = 'time-seq-machine' }\n"
    "  assert(m.snowflake_layout(L).time_bits == 41); assert(m.snowflake_layout('sonyflake').name)\n"
    "  assert(m.parse_snowflake(assert(m.snowflake_generator({ layout = L, machine_id = 3 }):next()), L))\n"
    "  assert(m.parse_snowflake('414234261491552820', 'sonyflake'))\n"
    "  assert(select(2, m._lease_fence('twitter'):layout()))\n"
    "  local s = assert(m.short_uuid(m.UUID_MAX)); assert(m.parse_short_uuid(s))\n"
    "  assert(m.short_uuid(m.parse_uuid(m.NAMESPACE_DNS), m.SHORT_UUID_COOKIE)); assert(m.short_uuid(m.UUID_NIL, '01'))\n"
    "  assert(m.parse_short_uuid(('0'):rep(128), '01')); assert(m.parse_short_uuid('nope') == nil)\n"
    "end\n";

/* The ObjectId and XID calls, CUID2's and Sqids', functions of their own
 * (as LAYOUTS). */
static const char objectid_xid_chunk[] =
    "function OBJECTID_XID()\n"
    "  local m, G, DONE = MINTID, G, DONE\n"
    "  assert(m.objectid()); assert(m.xid())\n"
    "  assert(G.objectid:next()); DONE.objectid = 1\n"
    "  local o = assert(G.objectid:next_value()); DONE.objectid = 2\n"
    "  assert(G.xid:next()); DONE.xid = 1\n"
    "  local x = assert(G.xid:next_value()); DONE.xid = 2\n"
    "  assert(m.objectid_generator()); assert(m.xid_generator()); assert(m.xid_generator({ pid = 1 }))\n"
    "  local p = assert(m.parse_objectid('507f1f77bcf86cd799439011')); assert(m.objectid_from_bytes(('\\1'):rep(12)))\n"
    "  local q = assert(m.parse_xid('9m4e2mr0ui3e8a215n4g')); assert(m.xid_from_bytes(('\\1'):rep(12)))\n"
    "  assert(tostring(p)); assert(p:bytes()); assert(p:time()); assert(p:iso()); assert(p:counter())\n"
    "  assert(tostring(q)); assert(q:machine()); assert(q:pid()); assert(q:counter()); assert(q:iso())\n"
    "  assert(p ~= o and p <= p and q ~= x and not (q < q))\n"
    "  assert(m.parse_objectid('nope') == nil); assert(m.parse_xid('nope') == nil)\n"
    "  assert(m.kind_of('9m4e2mr0ui3e8a215n4g') == 'xid')\n"
    "end\n"
    "function CUID2()\n"
    "  local m = MINTID\n"
    "  assert(#m.cuid2() == 24); assert(#m.cuid2(2) == 2); assert(m.is_cuid2(m.cuid2(32)))\n"
    "  local g = m.cuid2_generator({ length = 10, fingerprint = 'host' }); assert(#g:next() == 10)\n"
    "  assert(m.cuid2_generator():next()); assert(tostring(g))\n"
    "end\n"
    "function SQIDS()\n"
    "  local m = MINTID\n"
    "  local sq = m.sqids({ min_length = 8, blocklist = { 'abc' } }); assert(#sq:encode({ 1, 2 }) >= 8)\n"
    "  assert(sq:decode(sq:encode({ 7 }))[1] == 7); assert(tostring(sq))\n"
    "end\n";

/* With failing disarmed: each generator against its twin advanced by the
 * calls that returned. Returns nil, or the first difference. */
static const char check_chunk[] =
    "for name, g in pairs(G) do\n"
    "  local twin = TWIN[name]\n"
    "  local arg = name == 'relative' and 'customer-17' or name == 'typeid' and 'user' or nil\n"
    "  for _ = 1, DONE[name] do assert(twin:next(arg)) end\n"
    "  local want, got = twin:next(arg), g:next(arg)\n"
    "  if want ~= got then\n"
    "    return name .. ' after ' .. DONE[name] .. ' calls: ' .. tostring(got) .. ', want ' .. tostring(want)\n"
    "  end\n"
    "end\n";

static int run_chunk(lua_State *L, const char *chunk, int nresults)
{
    return luaL_loadstring(L, chunk) != 0 ? -1 : lua_pcall(L, 0, nresults, 0);
}

static void preload_core(lua_State *L)
{
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "preload");
    lua_pushcfunction(L, luaopen_mintid);
    lua_setfield(L, -2, "mintid");
    lua_pop(L, 2);
}

/* Out of memory can also surface as luaL_checkstack's "stack overflow"
 * (growing the stack failed) or as the error of a random option that the
 * binding re-raises; anything else is a bug. */
static int is_memory_error(int rc, const char *msg)
{
    return rc == LUA_ERRMEM ||
           (msg != NULL && (strstr(msg, "not enough memory") != NULL || strstr(msg, "stack overflow") != NULL));
}

int main(void)
{
    long n, runs = 0, failed_runs = 0, stack_errors = 0;
    int completed = 0, bad_errors = 0, mismatches = 0, leaks = 0, setup_ok = 1;
    clock_t started = clock();

    for (n = 0; n < MAX_RUNS && !completed; n++) {
        lua_State *L;
        int rc;
        const char *msg;

        mem.fail_at = -1;
        L = compat_newstate(failing_alloc, NULL);
        if (L == NULL) {
            setup_ok = 0;
            break;
        }
        luaL_openlibs(L);
        preload_core(L);
        if (run_chunk(L, setup_chunk, 0) != 0 || run_chunk(L, layouts_chunk, 0) != 0 ||
            run_chunk(L, objectid_xid_chunk, 0) != 0 ||
            luaL_loadstring(L, script_chunk) != 0) {
            printf("# setup: %s\n", lua_tostring(L, -1));
            setup_ok = 0;
            lua_close(L);
            break;
        }
        mem.count = 0;
        mem.fail_at = n;
        runs++;
        rc = lua_pcall(L, 0, 0, 0);
        mem.fail_at = -1;
        if (rc == 0) {
            completed = 1;
        } else {
            failed_runs++;
            msg = lua_tostring(L, -1);
            stack_errors += rc != LUA_ERRMEM && msg != NULL && strstr(msg, "stack overflow") != NULL;
            if (!is_memory_error(rc, msg) && bad_errors++ < MAX_SHOWN)
                printf("# failing allocation %ld: not a memory error: %s\n", n, msg != NULL ? msg : "?");
            if (bad_errors > MAX_SHOWN)
                n = MAX_RUNS; /* the script is broken: stop after this run */
        }
        lua_settop(L, 0);
        rc = run_chunk(L, check_chunk, 1);
        if (rc != 0 || !lua_isnil(L, -1)) {
            if (mismatches++ < MAX_SHOWN)
                printf("# failing allocation %ld: %s\n", n, lua_tostring(L, -1));
        }
        lua_close(L);
        if (mem.in_use != 0 && leaks++ < MAX_SHOWN)
            printf("# failing allocation %ld: %zu bytes not given back by lua_close\n", n, mem.in_use);
        mem.in_use = 0;
    }
    check(setup_ok, "%s: the state and the generators are set up", LUA_VERSION);
    check(completed, "%s: the script completes once allocations stop failing (after %ld failing runs)",
        LUA_VERSION, failed_runs);
    check(failed_runs > 30, "%s: the script allocates often enough to test (%ld failing runs)",
        LUA_VERSION, failed_runs);
    check(bad_errors == 0, "%s: every failing run raised a memory error (%d did not)", LUA_VERSION, bad_errors);
    check(mismatches == 0, "%s: after every run each generator gives its twin's next ID (%d differ)",
        LUA_VERSION, mismatches);
    check(leaks == 0, "%s: lua_close gives back every byte after every run (%d runs leaked)",
        LUA_VERSION, leaks);
    printf("# %s: %ld runs in %.1f s of CPU (%ld ended in a stack that could not grow)\n", LUA_VERSION,
           runs, (double)(clock() - started) / CLOCKS_PER_SEC, stack_errors);
    return tap_done();
}
