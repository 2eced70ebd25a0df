#!/bin/sh
# The single-file build (make amalgamation): build/amalgamation/mintid.c
# compiles with no warning against the headers of every Lua and with
# -DMINTID_NO_LUA, and its external symbols are exactly luaopen_mintid (with
# Lua) and the MINTID_API functions: every other name is static. Prints TAP.
BUILD=${BUILD:-build}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. spec/tap.sh

src=$BUILD/amalgamation/mintid.c
flags="-std=c99 -pedantic -Wall -Wextra -Werror -Wmissing-prototypes -Wstrict-prototypes -Wshadow -O2"

# The MINTID_API functions of src/mintid.h (one declaration may span lines).
tr '\n' ' ' < src/mintid.h | grep -o 'MINTID_API [^;(]*(' |
    sed 's/($//; s/.*[ *]//' | grep '^mintid_[a-z0-9_]*$' | sort -u > "$tmp/api"
check "src/mintid.h declares MINTID_API functions" test -s "$tmp/api"
(echo luaopen_mintid; cat "$tmp/api") | sort > "$tmp/api+lua"

# external NAME OBJ ALLOWED: OBJ defines exactly the external names in ALLOWED
external() {
    nm -g --defined-only "$2" | awk 'NF == 3 { print $3 }' | sort > "$tmp/$1.nm" &&
    diff "$3" "$tmp/$1.nm"
}
for v in 5.1 5.2 5.3 5.4 jit; do
    case $v in jit) inc=/usr/include/luajit-2.1 ;; *) inc=/usr/include/lua$v ;; esac
    check "Lua $v headers: mintid.c compiles with no warning" \
        $CC $flags -I"$inc" -c -o "$tmp/$v.o" "$src"
    check "Lua $v headers: external symbols are luaopen_mintid and the MINTID_API functions only" \
        external "$v" "$tmp/$v.o" "$tmp/api+lua"
done
check "-DMINTID_NO_LUA: mintid.c compiles with no warning and no Lua header" \
    $CC $flags -DMINTID_NO_LUA -c -o "$tmp/core.o" "$src"
check "-DMINTID_NO_LUA: external symbols are the MINTID_API functions only" \
    external core "$tmp/core.o" "$tmp/api"
# The other compiler a host may build it with (clang warns of unused
# static functions in a single file where gcc does not).
if command -v clang >/dev/null; then
    check "clang: mintid.c compiles with no warning (Lua 5.4 headers, and -DMINTID_NO_LUA)" \
        sh -c "clang $flags -I/usr/include/lua5.4 -c -o '$tmp/clang.o' '$src' &&
               clang $flags -DMINTID_NO_LUA -c -o '$tmp/clang-core.o' '$src'"
fi
check "build/amalgamation/mintid.h is src/mintid.h" \
    sh -c "tail -n +2 '$BUILD/amalgamation/mintid.h' | cmp - src/mintid.h"

tap_done
