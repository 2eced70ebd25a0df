#!/bin/sh
# spec/run.sh [fast|list]: the stages of `make test` (with "fast", only the
# first ones: those of `make test-fast`), each through stage(), which prints
# its failures and its time; ends with one line "N passed, M failed" summed
# over every stage, and exits non-zero on any failure. With "list" (`make
# test-plan`) it prints the name of every stage instead of running it.
# This file is the one statement of what `make test` runs: the comment above
# each stage says what it checks. The Makefile builds what the stages run
# and passes the lists below (mk/*.mk say how each is built).
# A new stage is one line: stage NAME COMMAND...
BUILD=${BUILD:-build}
TEST_LUAS=${TEST_LUAS:-5.4}
SAN_LUA=${SAN_LUA:-5.4}
DB_LUA=${DB_LUA:-5.4}
LEASE_LUA=${LEASE_LUA:-5.3}
log=$(mktemp -d)
trap 'if [ -n "$beside_pid" ]; then kill "$beside_pid" 2>/dev/null; wait; fi; rm -rf "$log"' EXIT
. spec/tap.sh
passed=0
failed=0
# No pathname expansion: the ?s of Lua paths pass through unquoted words.
set -f
mode=${1:-all}

# stage NAME COMMAND...: runs COMMAND, which prints TAP, and adds its
# results to the totals. Its output is shown but for its passing tests (and
# the summary line of a runner of its own); one that exits non-zero without
# a failing test, or runs no test, counts as a failure.
stage() {
    name=$1
    shift
    if [ "$mode" = list ]; then
        echo "$name"
        return
    fi
    echo "# $name"
    run_stage "$log/stage" "$@"
    report_stage "$name" "$log/stage"
}

# run_stage FILE COMMAND...: runs COMMAND, its output to FILE, and its exit
# status and time in seconds to FILE.rc.
run_stage() {
    out=$1
    shift
    t0=$(date +%s)
    "$@" > "$out" 2>&1
    echo "$? $(($(date +%s) - t0))" > "$out.rc"
}

# report_stage NAME FILE: the stage's lines (run_stage's FILE) as stage()
# prints them, its results added to the totals; a stage with no FILE.rc
# never ended.
report_stage() {
    rc=1 secs=?
    [ -f "$2" ] || : > "$2"
    [ -f "$2.rc" ] && read -r rc secs < "$2.rc"
    grep -v '^ok \|^[0-9]* passed, [0-9]* failed$' "$2" 2>/dev/null
    tap_count "$1" "$rc" "$2"
    echo "# $1: $ok passed, $notok failed, $secs s"
    passed=$((passed + ok))
    failed=$((failed + notok))
}

# beside NAME COMMAND...: a stage run beside the stages that follow it, on
# the other core (stage() runs one at a time): queued now, all of them
# started in order by beside_start, reported by beside_report. NAME and
# each word of COMMAND are kept one per line (no word holds a newline).
beside_n=0
beside_pid=
beside() {
    beside_n=$((beside_n + 1))
    printf '%s\n' "$@" > "$log/beside.$beside_n.args"
}
beside_start() {
    [ "$mode" = list ] || [ "$beside_n" -eq 0 ] && return
    (
        i=0
        while [ "$i" -lt "$beside_n" ]; do
            i=$((i + 1))
            set --
            while IFS= read -r word; do set -- "$@" "$word"; done < "$log/beside.$i.args"
            shift # the name
            run_stage "$log/beside.$i" "$@"
        done
    ) &
    beside_pid=$!
}
beside_report() {
    i=0
    while [ "$i" -lt "$beside_n" ]; do
        i=$((i + 1))
        IFS= read -r name < "$log/beside.$i.args"
        if [ "$mode" = list ]; then
            echo "$name"
            continue
        fi
        [ "$i" -eq 1 ] && wait "$beside_pid"
        echo "# $name (run beside the stages above)"
        report_stage "$name" "$log/beside.$i"
    done
    beside_n=0
    beside_pid=
}

finish() {
    [ "$mode" = list ] && exit 0
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

# lua_env DIR: the environment of a busted run on the module in $BUILD/DIR
lua_env() {
    echo "env LUA_PATH=lua/?.lua;spec/?.lua;; LUA_CPATH=$BUILD/$1/?.so;;"
}
busted="/usr/bin/busted -o TAP"
# source_env DIR LUA [SHARE]: the same for a Lua built from source
# (mk/lua55.mk, mk/testmode.mk), which has no busted of its own: Debian's
# Lua code for 5.4 (after SHARE, the copies of it that 5.5 compiles), C
# parts built in $BUILD/DIR; the CLI specs run bin/mintid with LUA.
source_env() {
    share=${3:-$BUSTED_SHARE}
    echo "env LUA_PATH=lua/?.lua;spec/?.lua;$share/?.lua;$share/?/init.lua;$BUSTED_SHARE/?.lua;$BUSTED_SHARE/?/init.lua;;" \
        "LUA_CPATH=$BUILD/$1/?.so;; MINTID_LUA=$2"
}
# no_source NAME VERSION: the stage NAME without the source of that Lua
# (../shared/lua/VERSION.N): skipped, and said so (here and in `make
# test-plan`), or failed in CI.
no_source() {
    if [ "${CI:-}" = true ]; then
        stage "$1" echo "not ok 1 - no Lua $2 source (../shared/lua/$2.N, or the make variable naming it): CI runs every stage"
    else
        stage "$1 (skipped: no Lua $2 source)" echo "ok 1 # skip no Lua $2 source"
    fi
}

# ---- Lua's test mode (mk/testmode.mk): Lua 5.4.8 and 5.5.0 built with
# ltests.h (every C API call checked, assertions on, and at exit every
# block freed, else an abort) and HARDSTACKTESTS (the stack reallocated,
# so moved, at every chance), the module and busted's C parts built against
# the same headers and defines. The whole busted suite on each (busted's
# runner ends by os.exit(code, true), which closes the state); then the
# HARDMEMTESTS build (a whole collection at every allocation) on a subset
# that reaches every C function of the binding, which gcov of it proves
# (spec/testmode/hardmem.sh).
testmode_stages() {
    run=${1:-stage}
    for v in 5.4 5.5; do
        case $v in 5.4) src=$TESTMODE_SRC_5_4 share= ;; 5.5) src=$TESTMODE_SRC_5_5 share=$BUILD/5.5/share ;; esac
        name="Lua $v test mode (ltests.h, HARDSTACKTESTS): busted"
        if [ -z "$src" ]; then
            no_source "$name" "$v"
            continue
        fi
        "$run" "$name" $(source_env "tm-$v" "$(cd "$BUILD" 2>/dev/null && pwd)/tm-$v/lua" $share) \
            "$BUILD/tm-$v/lua" $busted spec
    done
    for v in 5.4 5.5; do
        case $v in 5.4) src=$TESTMODE_SRC_5_4 ;; 5.5) src=$TESTMODE_SRC_5_5 ;; esac
        name="Lua $v test mode with HARDMEMTESTS: memcheck.lua, a storm, paths.lua; gcov of src/lua_*.c"
        if [ -z "$src" ]; then
            no_source "$name" "$v"
            continue
        fi
        "$run" "$name" sh spec/testmode/hardmem.sh "$BUILD/hm-$v"
    done
}
if [ "$mode" = testmode ]; then
    testmode_stages
    finish
fi

# windows_dll: TAP for the cross-built Lua module for Windows
windows_dll() {
    dll=$BUILD/windows/mintid.dll
    if x86_64-w64-mingw32-objdump -p "$dll" | grep -q 'DLL Name: lua54.dll' &&
       x86_64-w64-mingw32-objdump -p "$dll" | grep -q ' luaopen_mintid$'; then
        echo "ok 1 - $dll links against lua54.dll and exports luaopen_mintid"
    else
        echo "not ok 1 - $dll: no lua54.dll import or no luaopen_mintid export"
    fi
}

# ---- stages beside the others (beside() above): from the first stage of
# `make test` to the load tests, these run one after another on CI's
# second core, and their results come just before the load tests, which
# keep the machine to themselves. `make test-fast` runs none of them.
if [ "$mode" != fast ]; then
    # Foreign Luas under qemu, each ARCH:LUA:QEMU: big-endian s390x Lua 5.4
    # and 32-bit armhf Lua 5.1 (mk/foreign.mk; make test FOREIGN= skips
    # them): every spec but those of the CLI and the docs (12, 24, 25, 26,
    # 27), Lua scripts over the module that start a process per check, slow
    # under emulation, and that meet the CPU only through the module the
    # other specs test; every native busted stage runs them.
    foreign_specs=$(find spec -maxdepth 1 -name '*_spec.lua' | sort |
        grep -v -e '/12-cli_' -e '/24-lease_cli_' -e '/25-doc_' -e '/26-doc_' -e '/27-fleet_doc_')
    for foreign in $FOREIGN_LUAS; do
        arch=${foreign%%:*} rest=${foreign#*:}
        root=$BUILD/$arch/root
        lua="${rest#*:} -L $root $root/usr/bin/lua${rest%%:*}"
        beside "busted on $arch Lua ${rest%%:*} under ${rest#*:} (all but the CLI and doc specs)" $(lua_env "$arch") \
            MINTID_LUA="$lua" \
            $lua $busted $foreign_specs
    done
    # ASan and UBSan stop at the first error; leaks are valgrind's job below.
    beside "busted on lua$SAN_LUA under ASan and UBSan" $(lua_env asan) ASAN_OPTIONS=detect_leaks=0 \
        LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so)" lua$SAN_LUA $busted spec
    # Lua's test mode, above.
    testmode_stages beside
    beside_start
fi

# ---- the stages of `make test-fast` come first
# The busted suite (spec/*_spec.lua: every vector of testdata/ through the
# Lua API, the reference, the bad-input table of doc/guide.md, the CLI) on
# each of TEST_LUAS (5.4 5.3 5.2 5.1 jit 5.5; `make test TEST_LUAS=5.4` runs
# one Lua only, `make test-fast` FAST_LUA alone). Lua 5.5 is built from its
# source (mk/lua55.mk), and so are busted's C parts for it: lfs from
# Debian's source, stand-ins for luasystem and lua-term (whose sources
# Debian's mirror does not serve).
for v in $TEST_LUAS; do
    case $v in
        jit) stage "busted on luajit" $(lua_env jit) luajit $busted spec ;;
        5.5)
            if [ -z "$LUA_SRC_5_5" ]; then
                no_source "busted on Lua 5.5" 5.5
                # (and the stages after this one go without it)
                TEST_LUAS=$(echo " $TEST_LUAS " | sed 's/ 5\.5 / /')
                export TEST_LUAS
            else
                stage "busted on Lua 5.5 (built from source; lfs from Debian's source, stand-ins for luasystem and lua-term)" \
                    $(source_env 5.5 "$(cd "$BUILD" 2>/dev/null && pwd)/lua-5.5/lua" "$BUILD/5.5/share") \
                    "$BUILD/lua-5.5/lua" $busted spec
            fi ;;
        *) stage "busted on lua$v" $(lua_env "$v") lua$v $busted spec ;;
    esac
done
# The whole suite again through resty.mintid, the LuaJIT FFI binding, with
# its own specs (spec/ffi/*_ffispec.lua, which only this pass runs).
case " $TEST_LUAS " in *" jit "*)
    stage "busted on luajit through resty.mintid" $(lua_env jit) MINTID_MODULE=resty.mintid \
        luajit $busted -p _spec -p _ffispec spec ;;
esac
# The native tests of the C core (mk/native.mk, mk/sanitize.mk): SHA-256/HMAC,
# MD5, SHA-1 and ChaCha20 vectors, threads and fork(), the randomness
# fallbacks, the lease fence through the ABI, the wall clock's ms (a read
# on every call, steps seen at once, no rdtsc), plain and under ASan/UBSan.
for exe in $NATIVE_EXES; do
    stage "native ${exe#"$BUILD"/}" env ASAN_OPTIONS=detect_leaks=1 "$exe" testdata
done
# The C vector runner on every platform (make test-<target>: c, i686, musl,
# mips, armhf, s390x, windows, with the lock file lease's byte locks: OFD
# locks, and LockFileEx under wine; doc/design.md "Platforms"). A target
# whose toolchain is missing fails.
for p in $PLATFORMS; do
    stage "test-$p" sh spec/platform.sh "$p"
done
[ "${1:-}" = fast ] && finish

# ---- the rest of `make test`
case " $PLATFORMS " in *" windows "*) stage "Windows module (mintid.dll)" windows_dll ;; esac
# Every public function under a storm of finalizers (spec/storm/run.sh):
# every public function of mintid (Lua 5.4, 5.1, LuaJIT with the JIT on and
# off) and of resty.mintid (LuaJIT, JIT on and off), found by walking the
# module and the metatables of its generators and values (a function no
# case calls fails the run, by name), is called while every allocation runs
# a whole collection cycle and so a finalizer, which closes the generator in
# use at a chosen point, calls other mintid functions and re-arms itself.
# Each call is made deterministic with injected clock and random hooks (or
# compared by what is deterministic: a tag, a machine id, a shape) and must
# give what the same call gave without the storm, or a clean error that its
# case names as expected; a generator closed during or before a call must
# fail as closed, never return an ID. In one run in three of a stateful
# generator the finalizer also mints from the generator in use (at the first
# ticks of each call, or at every one): each result must then be clean and
# of the calm result's shape, and no ID may come out twice; a call whose ID
# a finalizer made stale four times in a row gives up ("... used by a
# finalizer during each of 4 tries to make its ID") instead of trying
# forever. STORM_SECONDS (default 4) is the CPU time of each of the six runs.
stage "finalizer storm" env BUILD="$BUILD" TEST_LUAS="$TEST_LUAS" sh spec/storm/run.sh
# make test-alloc: a script calling every public function under Lua 5.4,
# 5.1 and 5.5 (when built from its source) with an allocator that fails
# every allocation from the Nth on, for N = 0, 1, 2, ... until the script
# completes, under ASan and LeakSanitizer: no
# crash, no leak, and every generator left exactly as if the failed call had
# not happened.
for exe in $ALLOC_EXES; do
    stage "out-of-memory runs: ${exe##*/}" env ASAN_OPTIONS=detect_leaks=1 "$exe"
done
# The demo and spec/memcheck.lua under valgrind (Lua 5.4 and 5.5); luacheck (make lint); the
# database specs against SQLite and a throwaway PostgreSQL cluster
# (doc/guide.md "IDs in databases").
stage "valgrind (the demo, spec/memcheck.lua; Lua 5.4, and 5.5 if built)" sh spec/memcheck.sh
stage "lint (luacheck)" make -s lint LINT_FORMAT=TAP
stage "SQLite through LuaSQL (lua$DB_LUA)" $(lua_env "$DB_LUA") lua$DB_LUA $busted spec/db/sqlite_test.lua
stage "PostgreSQL through LuaSQL (lua$DB_LUA)" sh spec/db/with_postgres.sh \
    $(lua_env "$DB_LUA") lua$DB_LUA $busted spec/db/postgres_test.lua
# The npm references uuid, ksuid and typeid-js (installed into build/npm at
# test time, never into the tree; node and npm are Debian's nodejs and npm,
# or a node that has its own npm; the install needs the npm registry, or
# npm's cache of an earlier run) read back UUIDs of versions 1, 3, 5, 6, 7
# and 8, KSUIDs and TypeIDs minted through mintid and resty.mintid: each is
# parsed or recomputed by the reference (a v1/v6 from its time, clock_seq and
# node, a v3/v5 from its name space and name) and compared with what mintid
# says of it; one deliberately corrupted ID per kind must be caught. short-uuid
# and mintid write the same short UUIDs in its alphabets and one of every size
# 2..256, each reading the other's back (spec/npm/short_uuid.sh).
stage "npm references read back what mintid mints (make test-npm)" sh spec/npm/run.sh
# The exported ABI and the FFI declarations; an install through luarocks,
# make install and the release rock of make dist (whose mintid command it
# then runs), and generate_vectors.py --check.
stage "ABI checks" sh spec/abi_check.sh
stage "install checks" sh spec/install_check.sh
# test_threads, then the thread tests under ThreadSanitizer and helgrind.
stage "threads: test_threads, ThreadSanitizer, helgrind" env BUILD="$BUILD" sh spec/threads.sh
# Embedding (make amalgamation, make lib, make embed): the single file per
# Lua and without Lua, then each build of the example host (a script and two
# threads) and of the C-only program, plain and under ASan/UBSan.
stage "amalgamation" sh spec/amalgamation_check.sh
for exe in $EMBED_EXES; do
    case $exe in */mint) script= ;; *) script=examples/embed/script.lua ;; esac
    stage "embed: ${exe#"$BUILD"/}" env ASAN_OPTIONS=detect_leaks=1 "$exe" $script
done
# The stages run beside those above (foreign Luas, ASan, test mode).
beside_report
# Debian's nginx with 4 workers under load, the guide's nginx.conf inside
# (doc/guide.md "OpenResty").
stage "nginx under load (make test-nginx)" sh spec/nginx/run.sh
# Debian's haproxy (Lua 5.3), master-worker with 4 threads, chrooted (as
# root), under load: the guide's Lua file as printed (doc/guide.md
# "HAProxy"; first without its lock file's folder: 503s, the error logged)
# with lua-load-per-thread through a reload and bad input, then with
# lua-load, then a plain-Lua control run;
# every ID unique and of its kind, each state's own machine id, HAProxy's
# log against what each Lua state returned (make test-haproxy).
stage "haproxy with 4 threads under load (make test-haproxy)" sh spec/haproxy/run.sh
# A headless LÖVE game (LuaJIT; make test-love), shipped as doc/guide.md
# "Game engines" says, its first lines that section's block as printed (a
# lock file lease in a fresh save folder): two clients started together
# mint entity IDs in love.update through mintid and resty.mintid, save them
# with love.filesystem and parse them back; no ID twice, both modules
# alike, a machine id of its own per client.
stage "LÖVE game, two clients (make test-love)" sh spec/love/run.sh
# make test-lease: Snowflake machine ids leased from a real redis-server by
# plain-Lua holders under chaos (SIGSTOP, DEBUG SLEEP, a restart that loses
# every key, kill -9) and by three nginx nodes through a reload: no ID
# twice, every stalled holder refuses (doc/fleet.md). The chaos run, then
# the fleet, each once more with Sonyflake ids spread over the 16-bit range
# (all others held): claims stay bounded (commands per script counted).
stage "leases: chaos on redis-server (lua$LEASE_LUA holders)" env BUILD="$BUILD" LEASE_LUA="$LEASE_LUA" \
    sh spec/lease/chaos.sh
stage "leases: chaos on redis-server, Sonyflake ids over the 16-bit range" env BUILD="$BUILD" \
    LEASE_LUA="$LEASE_LUA" LAYOUT=sonyflake sh spec/lease/chaos.sh
# And lock-file leases while the file changes under them: removed (alone or
# with its layout record) or renamed away while holders mint, new holders
# taking the same ids; reached through a symlink by a lease of the same
# layout and of another: no ID twice, every old holder stopped.
stage "leases: a lock file removed, renamed or reached by a symlink (lua$LEASE_LUA holders)" env BUILD="$BUILD" \
    LEASE_LUA="$LEASE_LUA" sh spec/lease/lock_file_chaos.sh
stage "leases: three nginx nodes on one redis-server, a reload" env BUILD="$BUILD" sh spec/lease/fleet.sh
stage "leases: three nginx nodes, Sonyflake ids over the 16-bit range" env BUILD="$BUILD" LAYOUT=sonyflake \
    sh spec/lease/fleet.sh
# doc/fleet.md's nginx.conf as printed (but for Redis's address, the port
# and the Lua paths) on one redis-server: 503 with the refusal while the
# lease waits out its quarantine, then 200 with an ID, both in its log.
stage "leases: doc/fleet.md's nginx.conf as printed" env BUILD="$BUILD" sh spec/lease/fleet_doc.sh
# make fuzz: one libFuzzer target per decoder of the C core (ULID, UUID,
# relative ID, Snowflake decimal, KSUID, TypeID, W3C traceparent, Nano ID
# setup and generation), a round trip through every encoder, and a generator
# target that feeds the ULID, UUIDv7, relative and Snowflake generators
# arbitrary clock readings and random bytes and checks the monotonic rules;
# each runs for FUZZ_SECONDS (default 16) with ASan and UBSan, seeded from
# testdata/; a crash, a failed property or a hang fails it, and the input is
# kept in build/fuzz/artifacts/.
stage "fuzzing: each libFuzzer target for ${FUZZ_SECONDS:-16} s" sh fuzz/run.sh
finish
