#!/bin/sh
# spec/platform.sh TARGET: runs the C vector runner built for TARGET
# (make test-TARGET builds it as $BUILD/platform/TARGET/test_vectors[.exe])
# on this host: natively, under qemu-user, or under wine. Prints its TAP,
# then "N passed, M failed"; exits non-zero on any failure.
BUILD=${BUILD:-build}
target=$1
exe=$BUILD/platform/$target/test_vectors
start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. spec/tap.sh

case $target in
    c|musl) set -- "$exe" ;;
    # An x86-64 kernel runs i386 binaries only with IA32 emulation built in.
    i686) if "$exe" >/dev/null 2>&1; [ $? -ne 2 ]; then set -- qemu-i386 "$exe"; else set -- "$exe"; fi ;;
    mips) set -- qemu-mips "$exe" ;;
    armhf) set -- qemu-arm "$exe" ;;
    s390x) set -- qemu-s390x "$exe" ;;
    windows)
        # Headless and non-interactive: a new 64-bit prefix in a temporary
        # folder (its first start takes most of this target's time), no
        # display, no Mono or Gecko installer, no debug chatter.
        WINEPREFIX=$tmp/wine
        mkdir "$WINEPREFIX"
        unset DISPLAY WAYLAND_DISPLAY
        export WINEPREFIX WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
        # wine64's own loader, never the `wine` launcher: that one prefers a
        # wine32 when any is installed, and apt satisfies wine32 with another
        # architecture's build once one is added (wine32:armhf: "Exec format
        # error"). Debian keeps the loader and its server in /usr/lib/wine.
        wine=/usr/lib/wine/wine64 wineserver=/usr/lib/wine/wineserver64
        [ -x "$wine" ] || wine=wine64 wineserver=wineserver
        set -- "$wine" "$exe.exe" ;;
    *) echo "platform.sh: unknown target '$target'" >&2; exit 2 ;;
esac

echo "# test-$target: $*"
# wine's notes on a new prefix (no 32-bit wine is installed) are not errors.
"$@" testdata > "$tmp/out" 2>&1
rc=$?
# This prefix's wineserver lingers a few seconds after its last program.
[ "$target" = windows ] && "$wineserver" -k 2>/dev/null
grep -v '^wine: \(failed to open L".*syswow64.*rundll32.exe": c0000135\|configuration in L".*" has been updated\.\)$' \
    "$tmp/out" > "$tmp/tap"
cat "$tmp/tap"
tap_count "test-$target" "$rc" "$tmp/tap"
echo "# test-$target: $(($(date +%s) - start)) s"
echo "$ok passed, $notok failed"
[ "$notok" -eq 0 ]
