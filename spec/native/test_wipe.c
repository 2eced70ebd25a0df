/*
 * test_wipe.c: a relative generator's secret-equivalent state (HMAC key
 * schedule, tag cache, counter) is wiped when __gc or __close runs
 * (lua_generators.c gen_gc), and the generator refuses further use. Embeds
 * Lua 5.4 and reads the generator's own userdata bytes while it is still
 * alive, which no Lua-level test can do. Prints TAP; exits 1 on a failure.
 *
 * The binding is compiled in by #include rather than linked, so that the
 * test sees a generator userdata (its gen_hooks header, then at
 * GEN_STATE_OFFSET the relative generator's state) exactly as the binding lays it out, and breaks at build time if that changes.
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

#include <stddef.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lualib.h"
#include "tap.h"

#if LUA_VERSION_NUM < 504
#error "test_wipe needs Lua 5.4 (<close> variables)"
#endif

/* Distinctive, and shorter than an HMAC block, so that K0 is this text
 * itself, zero-padded: a copy of it, or of it XOR ipad/opad, is findable. */
static const char wipe_secret[] = "wipe-me:0123456789-abcdefghijklmnopqrstuvwxyz";
#define WINDOW 16 /* bytes of the secret that must not occur in a row */
#define CLOSED_MSG "attempt to use a closed mintid.RelativeGenerator"
/* A relative generator's userdata: the hooks, then its state alone. */
#define RELATIVE_UD_SIZE (GEN_STATE_OFFSET + sizeof(mintid_relative_gen))

/* Whether p[0..n) holds WINDOW bytes in a row of the secret, either as it
 * is or XOR one of the HMAC pads (K0 ^ ipad, K0 ^ opad). */
static int holds_secret(const uint8_t *p, size_t n)
{
    static const uint8_t pads[] = { 0x00, 0x36, 0x5c };
    const size_t len = sizeof wipe_secret - 1;
    uint8_t w[WINDOW];
    size_t pad, off, at, i;

    for (pad = 0; pad < sizeof pads; pad++)
        for (off = 0; off + WINDOW <= len; off++) {
            for (i = 0; i < WINDOW; i++)
                w[i] = (uint8_t)((uint8_t)wipe_secret[off + i] ^ pads[pad]);
            for (at = 0; at + WINDOW <= n; at++)
                if (memcmp(p + at, w, WINDOW) == 0)
                    return 1;
        }
    return 0;
}

/* Non-zero bytes of the generator state, i.e. after the gen_hooks header
 * (whose closed flag is legitimately non-zero once closed): all of it must
 * be zero. */
static size_t state_nonzero(const uint8_t *p, size_t n)
{
    size_t i, count = 0;

    for (i = GEN_STATE_OFFSET; i < n; i++)
        count += p[i] != 0;
    return count;
}

/* The userdata in global `name` (the global keeps it alive). */
static const uint8_t *global_ud(lua_State *L, const char *name, size_t *len)
{
    const uint8_t *p;

    lua_getglobal(L, name);
    p = (const uint8_t *)lua_touserdata(L, -1);
    *len = p != NULL ? lua_rawlen(L, -1) : 0;
    lua_pop(L, 1);
    return p;
}

static int run(lua_State *L, const char *what, const char *chunk)
{
    if (luaL_loadstring(L, chunk) != LUA_OK || lua_pcall(L, 0, 0, 0) != LUA_OK) {
        check(0, "%s: %s", what, lua_tostring(L, -1));
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

/* The live state before the wipe, so a scan that sees nothing cannot pass
 * for a wiped one: the header size, the userdata size and a non-zero state. */
static void check_before(lua_State *L, const char *how, const char *name)
{
    size_t len;
    const uint8_t *p = global_ud(L, name, &len);

    check(p != NULL && len == RELATIVE_UD_SIZE, "%s: the generator is a %u-byte userdata (hooks, then its state)",
        how, (unsigned)RELATIVE_UD_SIZE);
    check(p != NULL && state_nonzero(p, len) > 0,
        "%s: before the wipe, its state after the %u-byte header is not all zero",
        how, (unsigned)GEN_STATE_OFFSET);
}

static void check_wiped(lua_State *L, const char *how, const char *name)
{
    size_t len, left;
    const uint8_t *p = global_ud(L, name, &len);

    if (p == NULL || len != RELATIVE_UD_SIZE) {
        check(0, "%s: the generator is still reachable for the scan", how);
        return;
    }
    check(!holds_secret(p, len), "%s: no %d-byte run of the secret (or of it XOR an HMAC pad) "
        "is left in the userdata", how, WINDOW);
    left = state_nonzero(p, len);
    check(left == 0, "%s: every byte after the gen_hooks header is zero (%u non-zero)",
        how, (unsigned)left);
}

/* Every method of the closed generator raises CLOSED_MSG. */
static void check_refuses(lua_State *L, const char *how, const char *name)
{
    static const char *const methods[] = { "next", "next_value", "prefix", "tag" };
    size_t i;

    for (i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        int ok;

        lua_getglobal(L, "use_closed");
        lua_getglobal(L, name);
        lua_pushstring(L, methods[i]);
        if (lua_pcall(L, 2, 2, 0) != LUA_OK) {
            check(0, "%s: g:%s raises \"%s\": %s", how, methods[i], CLOSED_MSG, lua_tostring(L, -1));
            lua_pop(L, 1);
            continue;
        }
        ok = lua_toboolean(L, -2);
        check(ok, "%s: g:%s(\"k\") afterwards raises \"%s\"%s%s", how, methods[i], CLOSED_MSG,
            ok ? "" : "; got: ", ok ? "" : lua_tostring(L, -1));
        lua_pop(L, 2);
    }
}

static const char setup_chunk[] =
    "core = require 'mintid'\n"
    "function new_gen() return core.relative_generator{ secret = SECRET, salt = 'x' } end\n"
    "function use_closed(g, method)\n"
    "  local ok, err = pcall(g[method], g, 'k')\n"
    "  return not ok and type(err) == 'string' and err:find('" CLOSED_MSG "', 1, true) ~= nil,\n"
    "         ok and 'no error' or tostring(err)\n"
    "end\n";

/* __gc called by hand while g is still referenced, then the real collection
 * (a second run of the same function) must be harmless. */
static void check_gc(lua_State *L)
{
    const char *how = "__gc";

    if (!run(L, "__gc: make a generator and one ID", "g = new_gen(); assert(g:next('k'))"))
        return;
    check_before(L, how, "g");
    if (!run(L, "__gc: call it by hand", "getmetatable(g).__gc(g)"))
        return;
    check_wiped(L, how, "g");
    check_refuses(L, how, "g");
    check(run(L, "__gc: collect", "g = nil; collectgarbage(); collectgarbage()"),
        "__gc: collecting it afterwards (__gc again) is harmless");
}

/* __close on leaving the scope of a <close> variable; a global keeps the
 * userdata alive for the scan. */
static int keep_before(lua_State *L)
{
    lua_setglobal(L, "kept");
    check_before(L, "__close", "kept");
    return 0;
}

static void check_close(lua_State *L)
{
    const char *how = "__close";

    lua_register(L, "keep_before", keep_before);
    if (!run(L, "__close: a <close> generator leaves its scope",
             "do\n"
             "  local g <close> = new_gen()\n"
             "  assert(g:next('k'))\n"
             "  keep_before(g)\n"
             "end\n"))
        return;
    check_wiped(L, how, "kept");
    check_refuses(L, how, "kept");
    check(run(L, "__close: collect", "kept = nil; collectgarbage(); collectgarbage()"),
        "__close: collecting it afterwards (__gc after __close) is harmless");
}

/* ---- os.exit(0, true) from inside the generator's own random option ----
 * lua_close then runs __gc on a generator that is making an ID; the
 * userdata's memory is freed right after. A child process runs it (os.exit
 * ends the process) with an allocator that scans the generator's bytes as
 * its block is freed, and reports to the parent through a pipe:
 * 'W' wiped, 'S' a run of the secret left, 'N' other state left. */
static const void *watched_ud; /* the generator's gen_ud, NULL until known */
static int report_fd = -1;

static void *scanning_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    if (nsize == 0) {
        const uint8_t *p = (const uint8_t *)watched_ud;
        if (p != NULL && ptr != NULL && p >= (const uint8_t *)ptr && p < (const uint8_t *)ptr + osize) {
            char verdict = holds_secret(p, RELATIVE_UD_SIZE) ? 'S' : state_nonzero(p, RELATIVE_UD_SIZE) ? 'N' : 'W';
            if (write(report_fd, &verdict, 1) != 1)
                _exit(3);
            watched_ud = NULL;
        }
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

static int watch(lua_State *L)
{
    watched_ud = lua_touserdata(L, 1);
    return 0;
}

static const char exit_chunk[] =
    "local t = 1000\n"
    "g = core.relative_generator{ secret = SECRET, salt = 'x',\n"
    "  clock = function() t = t + 1; return t end,\n"
    "  random = function(n) if EXIT then os.exit(0, true) end; return ('\\1'):rep(n) end }\n"
    "assert(g:next('k'))\n"
    "watch(g)\n"
    "EXIT = true\n"
    "g:next('k')\n"
    "error('os.exit returned')\n";

static void run_exit_child(int fd)
{
    lua_State *L = lua_newstate(scanning_alloc, NULL);

    report_fd = fd;
    if (L == NULL)
        _exit(2);
    luaL_openlibs(L);
    luaL_requiref(L, "mintid", luaopen_mintid, 0);
    lua_setglobal(L, "core");
    lua_pushstring(L, wipe_secret);
    lua_setglobal(L, "SECRET");
    lua_register(L, "watch", watch);
    if (luaL_loadstring(L, exit_chunk) != LUA_OK || lua_pcall(L, 0, 0, 0) != LUA_OK)
        fprintf(stderr, "exit chunk: %s\n", lua_tostring(L, -1));
    _exit(4); /* os.exit never returned */
}

static void check_exit_from_random(void)
{
    int fds[2], status = 0;
    char verdict = '?';
    pid_t pid;

    fflush(stdout);
    if (pipe(fds) != 0 || (pid = fork()) < 0) {
        check(0, "os.exit: pipe and fork");
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        run_exit_child(fds[1]);
    }
    close(fds[1]);
    if (read(fds[0], &verdict, 1) != 1)
        verdict = '?';
    close(fds[0]);
    waitpid(pid, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
        "os.exit(0, true) from the random option: the child exits with status 0 (status %d)", status);
    check(verdict != '?', "os.exit(0, true) from the random option: lua_close frees the generator");
    check(verdict != 'S', "os.exit(0, true) from the random option: no run of the secret is left "
        "in the freed generator");
    check(verdict == 'W', "os.exit(0, true) from the random option: every byte after the gen_hooks "
        "header is zero when it is freed (verdict %c)", verdict);
}

int main(void)
{
    lua_State *L = luaL_newstate();

    if (L == NULL) {
        puts("Bail out! luaL_newstate failed");
        return 1;
    }
    luaL_openlibs(L);
    luaL_requiref(L, "mintid", luaopen_mintid, 0);
    lua_pop(L, 1);
    lua_pushstring(L, wipe_secret);
    /* The scan itself finds the secret where it is. */
    check(holds_secret((const uint8_t *)lua_tostring(L, -1), sizeof wipe_secret - 1),
        "the scan finds the secret in the Lua string SECRET");
    lua_setglobal(L, "SECRET");
    if (run(L, "load mintid", setup_chunk)) {
        check_gc(L);
        check_close(L);
    }
    lua_close(L);
    check_exit_from_random();
    return tap_done();
}
