#!/bin/sh
# Finalizer-storm mode (spec/storm/main.lua) on every Lua and module:
# mintid on Lua 5.4, 5.1, 5.5 (built from source) and LuaJIT with the JIT on and off, resty.mintid
# on LuaJIT with the JIT on and off. Prints TAP and ends with one line
# "N passed, M failed"; exits non-zero on any failure. STORM_SECONDS is
# the CPU time each run spends (default 4); a run still going after three
# times that (and 10 s) is killed and fails.
BUILD=${BUILD:-build}
seconds=${STORM_SECONDS:-4}
limit=$((seconds * 3 + 10))
log=$(mktemp)
trace=$(mktemp)
# $trace.lock: the lock file of spec/storm/cases.lua's lease cases.
trap 'rm -f "$log" "$trace" "$trace.lock"' EXIT
. spec/tap.sh
passed=0
failed=0

# storm DIR MODULE LUA...: one run, on the module in $BUILD/DIR
storm() {
    dir=$1 module=$2
    shift 2
    label="$* $module"
    # A run that hangs is killed, and counted as a failure.
    timeout -s KILL "$limit" env LUA_PATH="lua/?.lua;spec/?.lua;;" LUA_CPATH="$BUILD/$dir/?.so;;" \
        STORM_MODULE="$module" STORM_SECONDS="$seconds" STORM_LABEL="$label" STORM_TRACE="$trace" \
        "$@" spec/storm/main.lua > "$log" 2>&1
    rc=$?
    cat "$log"
    [ "$rc" -eq 137 ] && echo "# $label: killed after $limit s"
    [ "$rc" -ne 0 ] && echo "# $label: the last call under the storm: $(tail -1 "$trace")"
    tap_count "$label" "$rc" "$log"
    passed=$((passed + ok))
    failed=$((failed + notok))
}

# TEST_LUAS (as for spec/run.sh) narrows the Luas; others than these are skipped.
for v in ${TEST_LUAS:-5.4 5.1 jit}; do
    case $v in
        5.4 | 5.1) storm "$v" mintid "lua$v" ;;
        5.5) storm "$v" mintid "$BUILD/lua-5.5/lua" ;;
        jit)
            storm jit mintid luajit
            storm jit mintid luajit -joff
            storm jit resty.mintid luajit
            storm jit resty.mintid luajit -joff
            ;;
    esac
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
