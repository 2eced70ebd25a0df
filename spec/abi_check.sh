#!/bin/sh
# The exported ABI of mintid.so and the FFI declarations of resty.mintid.
# Prints TAP.
BUILD=${BUILD:-build}
TEST_LUAS=${TEST_LUAS:-5.4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. spec/tap.sh

check "lua/resty/mintid/cdef.lua matches a fresh generation from src/mintid.h" \
    python3 tools/gen_cdef.py --check

# The names mintid.so may export: the opener and the declared ABI functions.
sed -n '/^    functions = {$/,/^    },$/s/^        "\(mintid_[a-z0-9_]*\)",$/\1/p' lua/resty/mintid/cdef.lua > "$tmp/declared"
echo luaopen_mintid >> "$tmp/declared"
sort -o "$tmp/declared" "$tmp/declared"
exports() { # exports SO: its defined dynamic symbols are exactly the declared ones
    nm -D --defined-only "$1" | awk 'NF == 3 { print $3 }' | sort > "$tmp/exported" &&
    diff "$tmp/declared" "$tmp/exported"
}
for v in $TEST_LUAS; do
    check "nm -D of $BUILD/$v/mintid.so: only luaopen_mintid and the ABI" \
        exports "$BUILD/$v/mintid.so"
done

# luarocks passes no flag of ours: the hiding is in the sources.
rocks_exports() {
    # the whole checkout but its build tree: on Unix the rockspec builds through the Makefile
    mkdir -p "$tmp/src" && tar -cf - --exclude=./build --exclude=./.git . | tar -xf - -C "$tmp/src" &&
    (cd "$tmp/src" && luarocks --lua-version=5.4 make --tree="$tmp/rocks" rockspec/mintid-scm-1.rockspec >/dev/null) &&
    exports "$tmp/rocks/lib/lua/5.4/mintid.so"
}
check "nm -D of a luarocks build: only luaopen_mintid and the ABI" rocks_exports

# Without ffi (plain Lua), resty.mintid is the mintid module itself.
plain() {
    LUA_PATH="lua/?.lua" LUA_CPATH="$BUILD/5.1/?.so" lua5.1 -e '
        local r, m = require "resty.mintid", require "mintid"
        assert(r == m, "resty.mintid is not the mintid module")
        assert(#r.ulid() == 26)'
}
case " $TEST_LUAS " in *" 5.1 "*) check "lua5.1: require 'resty.mintid' returns the mintid module" plain ;; esac

# Installed by make install, found through package.cpath as require finds it.
installed() {
    make -s install BUILD="$BUILD" LUA_VERSION=jit DESTDIR="$tmp/dest" PREFIX=/usr/local >/dev/null &&
    LUA_PATH="$tmp/dest/usr/local/share/lua/jit/?.lua" LUA_CPATH="$tmp/dest/usr/local/lib/lua/jit/?.so" luajit -e '
        local r = require "resty.mintid"
        assert(r.ulid ~= require("mintid").ulid, "not the FFI path")
        assert(#r.ulid() == 26 and #r.ulid_generator():next() == 26)
        assert(package.searchpath("mintid", package.cpath):find("^'"$tmp"'"))'
}
case " $TEST_LUAS " in *" jit "*) check "make install, then luajit: resty.mintid from the installed tree" installed ;; esac

tap_done
