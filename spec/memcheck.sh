#!/bin/sh
# The demo and spec/memcheck.lua under valgrind (Lua 5.4 build, and 5.5's
# when TEST_LUAS has it): any invalid read or write, use of uninitialised
# memory, or definite leak fails. Prints TAP.
BUILD=${BUILD:-build}
n=0
fails=0
luas=5.4
case " ${TEST_LUAS:-} " in *" 5.5 "*) luas="5.4 5.5" ;; esac
for v in $luas; do
    case $v in 5.5) lua=$BUILD/lua-5.5/lua ;; *) lua=lua$v ;; esac
    for script in examples/demo.lua spec/memcheck.lua; do
        n=$((n + 1))
        if out=$(LUA_CPATH="$BUILD/$v/?.so;;" \
            valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
            "$lua" "$script" 2>&1); then
            echo "ok $n - valgrind clean on Lua $v: $script"
        else
            echo "not ok $n - valgrind on Lua $v: $script"
            echo "$out" | tail -40 | sed 's/^/# /'
            fails=$((fails + 1))
        fi
    done
done
echo "1..$n"
[ "$fails" -eq 0 ]
