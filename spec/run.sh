#!/bin/sh
# spec/run.sh [fast]: the stages of `make test` (with "fast", only the first
# ones: those of `make test-fast`), each through stage(), which prints its
# failures and its time; ends with one line "N passed, M failed" summed over
# every stage, and exits non-zero on any failure. The Makefile builds what
# the stages run and passes the lists below (mk/*.mk say what each is).
# A new stage is one line: stage NAME COMMAND...
BUILD=${BUILD:-build}
TEST_LUAS=${TEST_LUAS:-5.4}
SAN_LUA=${SAN_LUA:-5.4}
DB_LUA=${DB_LUA:-5.4}
LEASE_LUA=${LEASE_LUA:-5.3}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
passed=0
failed=0
# No pathname expansion: the ?s of Lua paths pass through unquoted words.
set -f

# stage NAME COMMAND...: runs COMMAND, which prints TAP, and adds its
# results to the totals. Its output is shown but for its passing tests (and
# the summary line of a runner of its own); one that exits non-zero without
# a failing test, or runs no test, counts as a failure.
stage() {
    name=$1
    shift
    echo "# $name"
    t0=$(date +%s)
    "$@" > "$log/stage" 2>&1
    rc=$?
    grep -v '^ok \|^[0-9]* passed, [0-9]* failed$' "$log/stage"
    ok=$(grep -c '^ok ' "$log/stage")
    notok=$(grep -c '^not ok ' "$log/stage")
    if [ "$rc" -ne 0 ] && [ "$notok" -eq 0 ]; then
        echo "# $name exited with status $rc without a failing test: counted as a failure"
        notok=1
    fi
    if [ $((ok + notok)) -eq 0 ]; then
        echo "# $name ran no test: counted as a failure"
        notok=1
    fi
    echo "# $name: $ok passed, $notok failed, $(($(date +%s) - t0)) s"
    passed=$((passed + ok))
    failed=$((failed + notok))
}

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

# lua_env DIR: the environment of a busted run on the module in $BUILD/DIR
lua_env() {
    echo "env LUA_PATH=lua/?.lua;spec/?.lua;; LUA_CPATH=$BUILD/$1/?.so;;"
}
busted="/usr/bin/busted -o TAP"

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

# ---- the stages of `make test-fast` come first
for v in $TEST_LUAS; do
    case $v in jit) lua=luajit ;; *) lua=lua$v ;; esac
    stage "busted on $lua" $(lua_env "$v") $lua $busted spec
done
# The whole suite again through resty.mintid, the LuaJIT FFI binding, with
# its own specs (spec/ffi/*_ffispec.lua, which only this pass runs).
case " $TEST_LUAS " in *" jit "*)
    stage "busted on luajit through resty.mintid" $(lua_env jit) MINTID_MODULE=resty.mintid \
        luajit $busted -p _spec -p _ffispec spec ;;
esac
for exe in $NATIVE_EXES; do
    stage "native ${exe#"$BUILD"/}" env ASAN_OPTIONS=detect_leaks=1 "$exe" testdata
done
# The C vector runner on every platform (make test-<target>). A target
# whose toolchain is missing fails.
for p in $PLATFORMS; do
    stage "test-$p" sh spec/platform.sh "$p"
done
[ "${1:-}" = fast ] && finish

# ---- the rest of `make test`
case " $PLATFORMS " in *" windows "*) stage "Windows module (mintid.dll)" windows_dll ;; esac
# Foreign Luas under qemu, each ARCH:LUA:QEMU (make test FOREIGN= skips them);
# MINTID_LUA: the CLI spec runs bin/mintid with that Lua too.
for foreign in $FOREIGN_LUAS; do
    arch=${foreign%%:*} rest=${foreign#*:}
    root=$BUILD/$arch/root
    lua="${rest#*:} -L $root $root/usr/bin/lua${rest%%:*}"
    stage "busted on $arch Lua ${rest%%:*} under ${rest#*:}" $(lua_env "$arch") MINTID_LUA="$lua" $lua $busted spec
done
# ASan and UBSan stop at the first error; leaks are valgrind's job below.
stage "busted on lua$SAN_LUA under ASan and UBSan" $(lua_env asan) ASAN_OPTIONS=detect_leaks=0 \
    LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so)" lua$SAN_LUA $busted spec
# Every public function under a storm of finalizers (spec/storm/run.sh)
stage "finalizer storm" env BUILD="$BUILD" TEST_LUAS="$TEST_LUAS" sh spec/storm/run.sh
# make test-alloc: every allocation of a script failing in turn
for exe in $ALLOC_EXES; do
    stage "out-of-memory runs: ${exe##*/}" env ASAN_OPTIONS=detect_leaks=1 "$exe"
done
stage "valgrind (the demo, spec/memcheck.lua)" sh spec/memcheck.sh
stage "lint (luacheck)" make -s lint LINT_FORMAT=TAP
stage "SQLite through LuaSQL (lua$DB_LUA)" $(lua_env "$DB_LUA") lua$DB_LUA $busted spec/db/sqlite_test.lua
stage "PostgreSQL through LuaSQL (lua$DB_LUA)" sh spec/db/with_postgres.sh \
    $(lua_env "$DB_LUA") lua$DB_LUA $busted spec/db/postgres_test.lua
stage "npm references read back what mintid mints (make test-npm)" sh spec/npm/run.sh
stage "ABI checks" sh spec/abi_check.sh
stage "install checks" sh spec/install_check.sh
stage "threads: test_threads, ThreadSanitizer, helgrind" env BUILD="$BUILD" sh spec/threads.sh
# Embedding (make amalgamation, make lib, make embed): the single file per
# Lua and without Lua, then each build of the example host (a script and two
# threads) and of the C-only program, plain and under ASan/UBSan.
stage "amalgamation" sh spec/amalgamation_check.sh
for exe in $EMBED_EXES; do
    case $exe in */mint) script= ;; *) script=examples/embed/script.lua ;; esac
    stage "embed: ${exe#"$BUILD"/}" env ASAN_OPTIONS=detect_leaks=1 "$exe" $script
done
stage "nginx under load (make test-nginx)" sh spec/nginx/run.sh
# Leases on a real Redis (make test-lease): the chaos run, then the fleet.
stage "leases: chaos on redis-server (lua$LEASE_LUA holders)" env BUILD="$BUILD" LEASE_LUA="$LEASE_LUA" \
    sh spec/lease/chaos.sh
stage "leases: three nginx nodes on one redis-server, a reload" env BUILD="$BUILD" sh spec/lease/fleet.sh
stage "fuzzing: each libFuzzer target for ${FUZZ_SECONDS:-30} s" sh fuzz/run.sh
finish
