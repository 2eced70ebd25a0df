#!/bin/sh
# Runs every suite and ends with one line "N passed, M failed", summed over
# every Lua version in TEST_LUAS; exits non-zero on any failure.
# Each suite prints TAP; a suite that dies without reporting counts as failed.
BUILD=${BUILD:-build}
TEST_LUAS=${TEST_LUAS:-5.4}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
passed=0
failed=0

# count FILE RC NAME: add FILE's TAP results to the totals
count() {
    ok=$(grep -c '^ok ' "$1")
    notok=$(grep -c '^not ok ' "$1")
    if [ "$2" -ne 0 ] && [ "$notok" -eq 0 ]; then
        echo "# $3 exited with status $2 without a failing test: counted as a failure"
        notok=1
    fi
    if [ $((ok + notok)) -eq 0 ]; then
        echo "# $3 ran no test: counted as a failure"
        notok=1
    fi
    echo "# $3: $ok passed, $notok failed"
    passed=$((passed + ok))
    failed=$((failed + notok))
}

# busted DIR LUA [ENV...]: the Lua suite on the module in $BUILD/DIR
busted() {
    dir=$1 lua=$2
    shift 2
    echo "# busted on $lua ($dir)"
    t0=$(date +%s)
    env LUA_PATH="lua/?.lua;spec/?.lua;;" LUA_CPATH="$BUILD/$dir/?.so;;" "$@" \
        $lua /usr/bin/busted -o TAP spec > "$log/busted-$dir" 2>&1
    rc=$?
    grep -v '^ok ' "$log/busted-$dir"
    count "$log/busted-$dir" $rc "busted ($lua, $dir)"
    echo "# busted on $lua ($dir) took $(($(date +%s) - t0)) s"
}

for v in $TEST_LUAS; do
    case $v in
        jit) busted jit luajit ;;
        *) busted "$v" "lua$v" ;;
    esac
done
# The whole suite again through resty.mintid, the LuaJIT FFI binding, with
# its own specs (spec/ffi/*_ffispec.lua, which only this pass runs).
case " $TEST_LUAS " in *" jit "*)
    echo "# busted on luajit through resty.mintid"
    start=$(date +%s)
    env LUA_PATH="lua/?.lua;spec/?.lua;;" LUA_CPATH="$BUILD/jit/?.so;;" MINTID_MODULE=resty.mintid \
        luajit /usr/bin/busted -o TAP -p _spec -p _ffispec spec > "$log/busted-resty" 2>&1
    rc=$?
    grep -v '^ok ' "$log/busted-resty"
    count "$log/busted-resty" $rc "busted (luajit, resty.mintid), $(($(date +%s) - start)) s"
    ;;
esac
# Big-endian: Debian's s390x Lua 5.4 under qemu-s390x (make test S390X= skips it).
if [ -n "$S390X_ROOT" ]; then
    start=$(date +%s)
    s390x_lua="qemu-s390x -L $S390X_ROOT $S390X_ROOT/usr/bin/lua5.4"
    # MINTID_LUA: the CLI spec runs bin/mintid with this Lua too
    busted s390x "$s390x_lua" MINTID_LUA="$s390x_lua"
    echo "# busted on s390x: $(($(date +%s) - start)) s"
fi
# ASan and UBSan stop at the first error; leaks are valgrind's job below.
busted asan lua5.4 ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so)"

for t in core default wipe asan/test_core asan/test_default asan/test_wipe \
         random random_urandom default_clone default_atfork frozen_clock; do
    case $t in asan/*) exe=$BUILD/$t ;; *) exe=$BUILD/test_$t ;; esac
    echo "# native tests: $t"
    start=$(date +%s)
    ASAN_OPTIONS=detect_leaks=1 "$exe" testdata > "$log/native" 2>&1
    rc=$?
    echo "# native $t: $(($(date +%s) - start)) s"
    grep -v '^ok ' "$log/native"
    count "$log/native" $rc "native $t"
done

# make test-alloc: every allocation of a script failing in turn, Lua 5.4 and 5.1
for v in 5.4 5.1; do
    echo "# out-of-memory runs: Lua $v"
    ASAN_OPTIONS=detect_leaks=1 "$BUILD/asan/test_alloc-$v" > "$log/alloc" 2>&1
    rc=$?
    grep -v '^ok ' "$log/alloc"
    count "$log/alloc" $rc "test_alloc $v"
done

# The C vector runner on every platform (make test-<target>; spec/platform.sh
# prints each one's time). A target whose toolchain is missing fails.
for p in $PLATFORMS; do
    sh spec/platform.sh "$p" > "$log/platform" 2>&1
    rc=$?
    grep -v '^ok \|^[0-9]* passed, [0-9]* failed$' "$log/platform"
    count "$log/platform" $rc "test-$p"
done
if [ -n "$PLATFORMS" ]; then
    echo "# Windows module: mintid.dll imports lua54.dll and exports luaopen_mintid"
    dll=$BUILD/windows/mintid.dll
    { x86_64-w64-mingw32-objdump -p "$dll" | grep -q 'DLL Name: lua54.dll' &&
      x86_64-w64-mingw32-objdump -p "$dll" | grep -q ' luaopen_mintid$' &&
      echo "ok 1 - $dll links against lua54.dll and exports luaopen_mintid" ||
      echo "not ok 1 - $dll: no lua54.dll import or no luaopen_mintid export"; } > "$log/dll" 2>&1
    cat "$log/dll"
    count "$log/dll" 0 "windows module"
fi

echo "# memory checks"
t0=$(date +%s)
sh spec/memcheck.sh > "$log/memcheck" 2>&1
rc=$?
cat "$log/memcheck"
count "$log/memcheck" $rc "valgrind"
echo "# memory checks took $(($(date +%s) - t0)) s"

# stage NAME COMMAND...: one more suite, its output shown, its time printed
stage() {
    name=$1
    shift
    echo "# $name"
    t0=$(date +%s)
    "$@" > "$log/stage" 2>&1
    rc=$?
    grep -v '^ok ' "$log/stage"
    count "$log/stage" $rc "$name"
    echo "# $name took $(($(date +%s) - t0)) s"
}

stage "lint (luacheck)" make -s lint LINT_FORMAT=TAP
# The database specs need LuaSQL, which Debian builds for 5.1-5.4: they run
# once, under DB_LUA, on the module built for it. With set -f, the unquoted
# $db_busted splits into words without globbing the ?s.
DB_LUA=${DB_LUA:-5.4}
db_busted="env LUA_PATH=lua/?.lua;spec/?.lua;; LUA_CPATH=$BUILD/$DB_LUA/?.so;; lua$DB_LUA /usr/bin/busted -o TAP"
set -f
stage "SQLite through LuaSQL (lua$DB_LUA)" $db_busted spec/db/sqlite_test.lua
stage "PostgreSQL through LuaSQL (lua$DB_LUA)" sh spec/db/with_postgres.sh $db_busted spec/db/postgres_test.lua
set +f

stage "ABI checks" env TEST_LUAS="$TEST_LUAS" BUILD="$BUILD" sh spec/abi_check.sh
stage "install checks" sh spec/install_check.sh

# Embedding (make amalgamation, make lib, examples/embed): the single file
# per Lua and without Lua, then each build of the example host (a script
# and two threads) and of the C-only program, plain and under ASan/UBSan.
stage "amalgamation" env BUILD="$BUILD" CC="${CC:-cc}" sh spec/amalgamation_check.sh
for exe in $EMBED_HOSTS; do
    case $exe in */mint) script= ;; *) script=examples/embed/script.lua ;; esac
    stage "embed: $exe" env ASAN_OPTIONS=detect_leaks=1 "$exe" $script
done

echo "# nginx under load (make test-nginx)"
BUILD="$BUILD" sh spec/nginx/run.sh > "$log/nginx" 2>&1
rc=$?
cat "$log/nginx"
count "$log/nginx" $rc "nginx"

echo "# fuzzing: each libFuzzer target for ${FUZZ_SECONDS:-30}s"
sh fuzz/run.sh > "$log/fuzz" 2>&1
rc=$?
cat "$log/fuzz"
count "$log/fuzz" $rc "fuzz"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
