#!/bin/sh
# spec/testmode/hardmem.sh DIR: the HARDMEMTESTS subset on the test-mode
# Lua in DIR (mk/testmode.mk's hm-V: a whole collection at every
# allocation, API checks, every block freed at exit), as TAP: the script of
# the valgrind stage (spec/memcheck.lua: every path that allocates, frees,
# raises or wipes), one short finalizer storm (every public function under
# a storm of finalizers, spec/storm), and spec/testmode/paths.lua (the
# _ffi functions, a generator giving up, the OS clock's failure under
# failing_clock.so). Then gcov of the binding built in DIR: every function
# of src/lua_*.c must have run (coverage.py); the lines reached are said.
dir=$1
lua=$dir/lua
. spec/tap.sh
rm -f "$dir"/bind/*.gcda
trace=$(mktemp)
trap 'rm -f "$trace" "$trace.lock"' EXIT
export LUA_PATH="lua/?.lua;spec/?.lua;;" LUA_CPATH="$dir/?.so;;"
check "spec/memcheck.lua" "$lua" spec/memcheck.lua
# (its collector's pace left to HARDMEMTESTS: see STORM_GC in spec/storm/storm.lua)
check "a finalizer storm of ${STORM_SECONDS:-1} s (spec/storm)" env STORM_SECONDS="${STORM_SECONDS:-1}" \
    STORM_GC=lua STORM_TRACE="$trace" STORM_LABEL="$lua" "$lua" spec/storm/main.lua
check "spec/testmode/paths.lua" "$lua" spec/testmode/paths.lua
check "spec/testmode/paths.lua clock, the wall clock failing" env LD_PRELOAD="$(pwd)/${dir%/*}/failing_clock.so" \
    "$lua" spec/testmode/paths.lua clock
first=$((n + 1))
set -- src/lua_*.c
python3 spec/testmode/coverage.py "$first" "$dir/bind" "$@" > "$trace.cov"
rc=$?
cat "$trace.cov"
rm -f "$trace.cov"
n=$((n + $#))
[ "$rc" -eq 0 ] || fails=$((fails + 1))
tap_done
