#!/bin/sh
# spec/busted_c/debian_source.sh DIR: the source of busted's C part lfs for
# the Luas built from source (mk/lua55.mk): Debian 12's lua-filesystem
# (lfs.c, for Penlight), by apt-get source through an apt configuration of
# DIR's own (no deb-src line is added to the machine's), unpacked as
# DIR/lfs. luasystem and lua-term have stand-ins (spec/busted_c/standins.c).
set -eu
dir=$1
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
dir=$(cd "$dir" && pwd)
release=$(. /etc/os-release && echo "$VERSION_CODENAME")
echo "deb-src http://deb.debian.org/debian $release main" > "$dir/sources.list"
apt() {
    apt-get -q -o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
        -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" -o APT::Sandbox::User="$(id -un)" "$@"
}
apt update > "$dir/update.log" 2>&1 || { cat "$dir/update.log"; exit 1; }
cd "$dir"
apt source --download-only lua-filesystem
rm -rf lfs && mkdir lfs
tar -xzf lua-filesystem_*.orig.tar.gz --strip-components=2 -C lfs --wildcards '*/src/lfs.[ch]'
# lfs 1.8.0 stops at Lua 5.4 only because it checks the version: 5.5's
# luaL_Stream is 5.4's (lfs 1.9 accepts any version from 5.2 on).
sed -i 's/LUA_VERSION_NUM <= 504/LUA_VERSION_NUM <= 505/' lfs/lfs.c
