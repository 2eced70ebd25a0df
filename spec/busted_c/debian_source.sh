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
cat > "$dir/apt.conf" <<EOF
Dir::Etc::SourceList "$dir/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$dir/lists";
Dir::Cache "$dir/cache";
APT::Sandbox::User "$(id -un)";
EOF
export APT_CONFIG="$dir/apt.conf"
retry=$(cd "$(dirname "$0")/../../.ci" && pwd)/retry.sh
sh "$retry" sh -c 'apt-get -q update > "$1" 2>&1 || { cat "$1"; exit 1; }' sh "$dir/update.log"
cd "$dir"
sh "$retry" apt-get -q source --download-only lua-filesystem
rm -rf lfs && mkdir lfs
tar -xzf lua-filesystem_*.orig.tar.gz --strip-components=2 -C lfs --wildcards '*/src/lfs.[ch]'
# lfs 1.8.0 stops at Lua 5.4 only because it checks the version: 5.5's
# luaL_Stream is 5.4's (lfs 1.9 accepts any version from 5.2 on).
sed -i 's/LUA_VERSION_NUM <= 504/LUA_VERSION_NUM <= 505/' lfs/lfs.c
