#!/bin/sh
# .ci/foreign-root.sh ARCH ROOT PACKAGE...: Debian's PACKAGEs of the foreign
# architecture ARCH, fetched with apt-get download and unpacked into ROOT,
# never installed: a Lua and its libraries that qemu-user runs with -L ROOT.
# Needs ARCH's package lists (`make deps` as root adds them).
set -eu
arch=$1
root=$2
shift 2
if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
    echo "foreign-root.sh: no $arch package lists: run make deps as root" \
        "(or skip the foreign Lua stages: make test FOREIGN=)" >&2
    exit 1
fi
debs=$root.debs
rm -rf "$debs" "$root"
mkdir -p "$debs" "$root"
names=
for p in "$@"; do names="$names $p:$arch"; done
# shellcheck disable=SC2086 # one package a word
retry=$(cd "$(dirname "$0")" && pwd)/retry.sh
(cd "$debs" && sh "$retry" apt-get download $names)
for deb in "$debs"/*.deb; do
    dpkg -x "$deb" "$root"
done
rm -rf "$debs"
