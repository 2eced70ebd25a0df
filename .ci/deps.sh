#!/bin/sh
# .ci/deps.sh [ARCH...]: as root on Debian, installs every package that the
# build and the stages of `make test` need (this is the one list), and adds
# the package lists of each foreign ARCH, whose Lua .ci/foreign-root.sh
# fetches without installing it. `make deps` runs it with the Makefile's
# FOREIGN architectures.
set -eu

# the build, the busted suite on every Lua, the release (make dist)
packages="make build-essential ca-certificates python3 git zip unzip
    lua5.4 liblua5.4-dev lua5.3 liblua5.3-dev lua5.2 liblua5.2-dev
    lua5.1 liblua5.1-0-dev luajit2 libluajit2-5.1-dev lua-busted luarocks lua-check"
# groff, which checks that the man page (doc/mintid.1) reads without a warning
packages="$packages groff-base"
# the memory checks, and libFuzzer (its runtime is libclang-rt-dev, which
# clang only recommends)
packages="$packages valgrind clang libclang-rt-dev"
# nginx under load, and the database specs; procps (pgrep), with which the
# fleet runs find nginx's workers to stop them
packages="$packages procps nginx libnginx-mod-http-lua libnginx-mod-http-ndk lua-resty-core
    lua-resty-lrucache wrk curl lua-sql-sqlite3 lua-sql-postgres postgresql sqlite3"
# the hosts mintid is embedded in: haproxy (Lua 5.3, 4 threads), and the
# LÖVE game engine (LuaJIT) with xvfb, for an SDL that wants a display
packages="$packages haproxy love xvfb"
# machine-id leases on a real Redis (mk/lease.mk): the server, redis-lua
# over LuaSocket for plain Lua; lua-resty-redis comes from lua-nginx-redis
# by apt-get download at build time (installed, it pulls in nginx-extras)
packages="$packages redis-server redis-tools lua-redis lua-socket"
# the npm references that read back what mintid mints (spec/npm): Debian's
# node and npm, unless an npm is there already (NodeSource's nodejs bundles
# one, and conflicts with Debian's npm package)
command -v npm >/dev/null 2>&1 || packages="$packages nodejs npm"
# cross toolchains and qemu-user for every platform (make test-<target>)
packages="$packages gcc-i686-linux-gnu musl-tools gcc-mips-linux-gnu gcc-arm-linux-gnueabihf
    gcc-s390x-linux-gnu gcc-mingw-w64-x86-64 qemu-user"

for arch in "$@"; do
    dpkg --add-architecture "$arch"
done
export DEBIAN_FRONTEND=noninteractive
retry="sh $(dirname "$0")/retry.sh"
# A list that a mirror keeps serving wrong (one foreign architecture's
# security list did for days) fails `apt-get update`, which still keeps
# every list it got: after three tries, go on with those. An install below
# that misses a package still fails, and says which.
RETRY_TRIES=3 $retry apt-get update ||
    echo "deps.sh: apt-get update left out the lists above; going on with the rest" >&2
# shellcheck disable=SC2086 # one package a word
$retry apt-get install -y $packages
# wine64 alone, without its recommends: the `wine` launcher package and
# wine32, which apt would satisfy with another architecture's build once a
# foreign architecture is added (wine32:armhf, an ARM binary the launcher
# then prefers). spec/platform.sh runs the 64-bit loader itself.
$retry apt-get install -y --no-install-recommends "wine64:$(dpkg --print-architecture)"
