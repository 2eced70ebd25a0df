#!/bin/sh
# The demo and spec/memcheck.lua under valgrind (Lua 5.4 build): any invalid
# read or write, use of uninitialised memory, or definite leak fails. Prints TAP.
BUILD=${BUILD:-build}
n=0
fails=0
for script in examples/demo.lua spec/memcheck.lua; do
    n=$((n + 1))
    if out=$(LUA_CPATH="$BUILD/5.4/?.so;;" \
        valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
        lua5.4 "$script" 2>&1); then
        echo "ok $n - valgrind clean: $script"
    else
        echo "not ok $n - valgrind: $script"
        echo "$out" | tail -40 | sed 's/^/# /'
        fails=$((fails + 1))
    fi
done
echo "1..$n"
[ "$fails" -eq 0 ]
