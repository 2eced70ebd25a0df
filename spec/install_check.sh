#!/bin/sh
# Installs mintid the ways a user does and checks that `require "mintid"`
# then works with nothing else on the paths. Prints TAP.
LUA_VERSION=${LUA_VERSION:-5.4}
lua=lua$LUA_VERSION
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. spec/tap.sh
# The version, as the Makefile reads it from src/mintid.h.
version=$(make -s --no-print-directory print-version)

smoke='local m = require "mintid"
assert(#m.ulid() == 26 and #m.uuid7() == 36, "bad IDs")
assert(package.searchpath("mintid", package.cpath), "module not found")
print(m.ulid())'

# mintid.lease, a Lua module installed next to the C one: its lock file
# lease gives an id that a generator then mints with.
lease_smoke='local lease = require "mintid.lease"
local path = os.tmpname()
local l = lease.lock_file { path = path, machine_ids = { 5, 5 } }
assert(l:acquire() == 5, "no machine id 5")
local g = require("mintid").snowflake_generator { lease = l }
assert(select(2, require("mintid").parse_snowflake(g:next())) == 5, "not minted with 5")
l:release()
os.remove(path)'

# Every Lua file the Makefile installs ($LUA_SRC: lua/mintid/lease/*.lua
# among them), in the tree under $1.
lua_files_in() {
    for f in $(make -s --no-print-directory print-lua); do
        [ -f "$1/${f#lua/}" ] || { echo "not installed: $f"; return 1; }
    done
}

# copy_checkout DIR: this checkout's files (not build/ nor .git) in DIR, a
# checkout for luarocks to build in.
copy_checkout() {
    mkdir -p "$1" && tar cf - --exclude=./build --exclude=./.git . | tar xf - -C "$1"
}

rocks() {
    # luarocks builds in the source folder: give it a copy, not this checkout
    copy_checkout "$tmp/src" &&
    (cd "$tmp/src" && luarocks --lua-version="$LUA_VERSION" make --tree="$tmp/rocks" rockspec/mintid-scm-1.rockspec) &&
    eval "$(luarocks --lua-version="$LUA_VERSION" path --tree="$tmp/rocks")" &&
    LUA_INIT= $lua -e "$smoke" && LUA_INIT= $lua -e "$lease_smoke" &&
    lua_files_in "$tmp/rocks/share/lua/$LUA_VERSION" &&
    # a rock tree has no man folder: the page is in the rock's doc/, as
    # luarocks copies it (`luarocks doc mintid` lists it)
    cmp doc/mintid.1 "$tmp/rocks/lib/luarocks/rocks-$LUA_VERSION/mintid/scm-1/doc/mintid.1"
}
check "luarocks make into a temporary tree, then require mintid and mintid.lease; every Lua file and the man page installed" rocks

# The README's and the guide's steps for two Luas, one after the other, in
# one checkout: every build stays under build/, so a Lua of the other
# version started in the checkout (whose package.cpath starts with ./?.so)
# never finds the module built last there ("undefined symbol").
two_luas() {
    copy_checkout "$tmp/two" && touch "$tmp/two.before" &&
    (cd "$tmp/two" &&
     luarocks --lua-version=5.1 make --tree="$tmp/two-5.1" rockspec/mintid-scm-1.rockspec >/dev/null &&
     luarocks --lua-version=5.4 make --tree="$tmp/two-5.4" rockspec/mintid-scm-1.rockspec >/dev/null &&
     left=$(find . -newer "$tmp/two.before" -type f ! -path './build/*') &&
     { [ -z "$left" ] || { echo "left in the checkout, outside build/: $left"; exit 1; }; } &&
     LUA_INIT= LUA_PATH= LUA_CPATH="./?.so;$tmp/two-5.1/lib/lua/5.1/?.so" luajit -e 'print(require("mintid").ulid())' &&
     LUA_INIT= LUA_PATH= LUA_CPATH="./?.so;$tmp/two-5.4/lib/lua/5.4/?.so" lua5.4 -e 'print(require("mintid").ulid())')
}
if command -v luajit >/dev/null 2>&1 && command -v lua5.1 >/dev/null 2>&1; then
    check "luarocks make for Lua 5.1, then 5.4, in one checkout: nothing built outside build/" two_luas
fi

# What a user does (issue: "luarocks make ... so that a plain lua5.4 -e
# 'print(require("mintid").ulid())' works"): into the system tree, so only on
# CI's throwaway machine, as root, and removed again afterwards.
system_rocks() {
    (cd "$tmp/src" && luarocks --lua-version="$LUA_VERSION" make rockspec/mintid-scm-1.rockspec) &&
    (cd / && env -u LUA_PATH -u LUA_CPATH $lua -e 'print(require("mintid").ulid())')
    rc=$?
    luarocks --lua-version="$LUA_VERSION" remove mintid >/dev/null 2>&1
    return $rc
}
if [ "${CI:-}" = true ] && [ "$(id -u)" = 0 ]; then
    check "luarocks make into the system tree, then a plain $lua -e 'require(\"mintid\")'" system_rocks
fi

makeinstall() {
    make -s install BUILD="${BUILD:-build}" LUA_VERSION="$LUA_VERSION" DESTDIR="$tmp/dest" PREFIX=/usr/local >/dev/null &&
    LUA_PATH="$tmp/dest/usr/local/share/lua/$LUA_VERSION/?.lua" \
    LUA_CPATH="$tmp/dest/usr/local/lib/lua/$LUA_VERSION/?.so" $lua -e "$smoke" &&
    LUA_PATH="$tmp/dest/usr/local/share/lua/$LUA_VERSION/?.lua" \
    LUA_CPATH="$tmp/dest/usr/local/lib/lua/$LUA_VERSION/?.so" $lua -e "$lease_smoke" &&
    lua_files_in "$tmp/dest/usr/local/share/lua/$LUA_VERSION"
}
check "make install into a DESTDIR, then require mintid and mintid.lease; every Lua file installed" makeinstall

# The command `make install` puts in PREFIX/bin (its man page in
# PREFIX/share/man/man1): run from anywhere with no
# LUA_PATH nor LUA_CPATH, by the Lua of LUA_VERSION (a plain `lua` may be
# another version), it finds the module installed with it; `make
# uninstall` then removes every file the install put, and the folders of
# mintid's own modules. $1: the Lua version, $2: a DESTDIR or "".
install_command() {
    dest=$2 p=$tmp/cmd-$1
    make -s install BUILD="${BUILD:-build}" LUA_VERSION="$1" DESTDIR="$dest" PREFIX="$p" >/dev/null || return 1
    mintid=$dest$p/bin/mintid
    [ -x "$mintid" ] || { echo "not installed: $mintid"; return 1; }
    cmp doc/mintid.1 "$dest$p/share/man/man1/mintid.1" || { echo "man page not installed"; return 1; }
    if [ -z "$dest" ]; then
        out=$(cd / && env -u LUA_PATH -u LUA_CPATH -u LUA_INIT "$mintid" inspect 01ARZ3NDEKTSV4RRFFQ69G5FAV) &&
        echo "$out" | grep -q '^  time: *2016-07-30T23:54:10.259Z$' &&
        [ "$(cd / && env -u LUA_PATH -u LUA_CPATH -u LUA_INIT "$mintid" --version)" = "mintid $version" ] ||
            { echo "the installed mintid does not run: $out"; return 1; }
    fi
    make -s uninstall LUA_VERSION="$1" DESTDIR="$dest" PREFIX="$p" >/dev/null || return 1
    left=$(find "$dest$p" ! -type d) &&
    { [ -z "$left" ] || { echo "left after make uninstall: $left"; return 1; }; } &&
    left=$(find "$dest$p" -name '*mintid*' -o -name resty) &&
    { [ -z "$left" ] || { echo "left after make uninstall: $left"; return 1; }; }
}
check "make install PREFIX=...: the mintid command runs from there on its own; make uninstall removes it all" \
    install_command "$LUA_VERSION" ""
check "make install DESTDIR=... PREFIX=..., then make uninstall with both: nothing of mintid left" \
    install_command "$LUA_VERSION" "$tmp/destdir"
if command -v lua5.1 >/dev/null 2>&1; then
    check "make install LUA_VERSION=5.1: the command runs on Lua 5.1, whatever a plain lua is" install_command 5.1 ""
fi

# The release (issue: "make dist ... make test installs that rock with
# luarocks install <file> into a temporary tree"): the source rock of the
# committed tree, installed as `luarocks install mintid` will, and its
# command run from that tree.
release_rock() {
    rock=${BUILD:-build}/dist/mintid-$version-1.src.rock
    make -s dist BUILD="${BUILD:-build}" >/dev/null &&
    unzip -p "$rock" "mintid-$version-1.rockspec" | cmp - "rockspec/mintid-$version-1.rockspec" &&
    luarocks --lua-version="$LUA_VERSION" install --tree="$tmp/release" "$rock" &&
    out=$("$tmp/release/bin/mintid" inspect 01ARZ3NDEKTSV4RRFFQ69G5FAV) &&
    echo "$out" && echo "$out" | grep -q '^  time: *2016-07-30T23:54:10.259Z$' &&
    "$tmp/release/bin/mintid" convert 01ARZ3NDEKTSV4RRFFQ69G5FAV | grep -qx 01563e3a-b5d3-d676-4c61-efb99302bd5b &&
    "$tmp/release/bin/mintid" ulid | grep -qx '[0-7][0-9A-HJKMNP-TV-Z]\{25\}'
}
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    check "make dist, luarocks install the source rock into a temporary tree, run its mintid inspect" release_rock
else
    # a release tarball has no commits to pack
    n=$((n + 1)); echo "ok $n - # SKIP make dist packs HEAD: not a git checkout"
fi
check "the rockspecs are those of a fresh make rockspecs" make -s --no-print-directory check-rockspecs
check "both rockspecs pass luarocks lint" sh -c \
    "luarocks lint rockspec/mintid-scm-1.rockspec && luarocks lint rockspec/mintid-$version-1.rockspec"

if command -v python3 >/dev/null 2>&1; then
    check "testdata matches generate_vectors.py" python3 testdata/generate_vectors.py --check
else
    n=$((n + 1)); echo "not ok $n - python3 missing: cannot check testdata"; fails=$((fails + 1))
fi

tap_done
