#!/bin/sh
# spec/lease/lock_file_chaos.sh: lock-file leases while something outside
# changes the file (doc/leases.md "Where the lock file lives"). Real
# processes (spec/lease/lock_file_worker.lua) hold ids of one lock file and
# mint; meanwhile the file is removed (alone, or with its layout record) or
# renamed away, and new holders take the same ids from the file made anew;
# or it is reached through a symlink by a lease of the same layout and one
# of another. Checks: no ID twice across all holders, every old holder
# stopped with the lease-lost message, every new one minted, the other
# layout refused naming the one recorded. Prints TAP; every process it
# starts is stopped on every way out.
# sh spec/lease/lock_file_chaos.sh (LEASE_LUA: the holders' Lua, default 5.4)
BUILD=${BUILD:-build}
LEASE_LUA=${LEASE_LUA:-5.4}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) build=$BUILD ;; *) build=$root/$BUILD ;; esac
lua=lua$LEASE_LUA
[ "$LEASE_LUA" = jit ] && lua=luajit
export LUA_PATH="$root/lua/?.lua;$root/spec/?.lua;;" LUA_CPATH="$build/$LEASE_LUA/?.so;;"
tmp=$(mktemp -d)
pids=
started=$(date +%s)
stop_all() {
    for pid in $pids; do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    rm -rf "$tmp"
}
trap stop_all EXIT
trap 'exit 1' HUP INT TERM

t=0
failed=0
tap() { # tap OK DESCRIPTION
    t=$((t + 1))
    if [ "$1" = 0 ]; then echo "ok $t - $2"; else echo "not ok $t - $2"; failed=$((failed + 1)); fi
}
# start DIR NAME PATH LO HI [LAYOUT]
start() {
    "$lua" "$root/spec/lease/lock_file_worker.lua" "$3" "$4" "$5" "${6:-mintid}" "$1" "$2" 2> "$1/$2.stderr" &
    pids="$pids $!"
}
# minting DIR NAME...: until each has minted (or ended), 10 s at most
minting() {
    d=$1
    shift
    for w in "$@"; do
        i=0
        until [ -e "$d/$w.held" ] || [ -e "$d/$w.end" ] || [ $i -ge 200 ]; do i=$((i + 1)); sleep 0.05; done
    done
}
# finish DIR: stop every holder and wait for all of them
finish() {
    touch "$1/stop"
    for pid in $pids; do wait "$pid" 2>/dev/null; done
    pids=
}
no_id_twice() { # no_id_twice DIR WHAT
    n=$(cat "$1"/*.ids | wc -l)
    twice=$(cat "$1"/*.ids | sort | uniq -d | wc -l)
    [ "$twice" -eq 0 ] && [ "$n" -gt 0 ]
    tap $? "$2: $n IDs, $twice twice"
}
ended_with() { # ended_with FILE TEXT WHAT
    grep -qxF "$2" "$1"
    tap $? "$3 (it said: $(cat "$1" 2>/dev/null))"
}

for change in "rm lock" "rm lock and record" "mv lock away"; do
    d=$tmp/$(echo "$change" | tr ' ' _)
    mkdir "$d"
    p=$d/ids.lock
    for w in a1 a2 a3; do start "$d" $w "$p" 0 2; done
    minting "$d" a1 a2 a3
    sleep 0.3
    case $change in
    "rm lock") rm "$p" ;;
    "rm lock and record") rm "$p" "$p.layout" ;;
    "mv lock away") mv "$p" "$p.old" ;;
    esac
    for w in b1 b2 b3; do start "$d" $w "$p" 0 2; done
    minting "$d" b1 b2 b3
    sleep 0.5
    finish "$d"
    no_id_twice "$d" "$change while 3 holders mint, 3 new holders of the same ids"
    for w in a1 a2 a3; do
        ended_with "$d/$w.end" "snowflake: lease lost: lock file $p was removed or replaced while held" \
            "$change: old holder $w stopped"
    done
    for w in b1 b2 b3; do
        [ -s "$d/$w.ids" ]
        tap $? "$change: new holder $w minted"
    done
done

d=$tmp/symlink
mkdir "$d"
p=$d/ids.lock
for w in a1 a2; do start "$d" $w "$p" 0 3; done
minting "$d" a1 a2
ln -s "$p" "$d/link.lock"
start "$d" b1 "$d/link.lock" 0 3
start "$d" b2 "$d/link.lock" 0 3 sonyflake
minting "$d" b1 b2
sleep 0.5
finish "$d"
no_id_twice "$d" "through a symlink, a holder of the same layout beside 2 on the file"
[ "$(cat "$d/b1.held" 2>/dev/null)" = 2 ]
tap $? "through a symlink: the next id of the same file (got $(cat "$d/b1.held" 2>/dev/null))"
ended_with "$d/b2.end" "refused: lock file $d/link.lock holds layout 42/1/10/12/0/time-machine-seq ($p.layout), this lease's is 39/10/16/8/1409529600000/time-seq-machine: use another lock file for another layout" \
    "through a symlink: another layout refused"

for f in "$tmp"/*/*.stderr; do
    [ -s "$f" ] && { echo "# $f:"; sed 's/^/#   /' "$f"; }
done
echo "1..$t"
echo "# lock-file chaos took $(($(date +%s) - started)) s"
[ "$failed" -eq 0 ]
