#!/bin/sh
# spec/lease/chaos.sh: Snowflake IDs through Redis leases, under chaos, on a
# real redis-server (127.0.0.1, a free port, no persistence). WORKERS
# plain-Lua holders (spec/lease/worker.lua, redis-lua over LuaSocket) share
# ids 0..WORKERS-2, so one always waits and every id freed is taken again.
# Then: a holder stopped (SIGSTOP) past the ttl and continued; the server
# stopped for longer than the ttl (DEBUG SLEEP); the server restarted with
# every key lost (SHUTDOWN NOSAVE); two holders killed (-9) and replaced; a
# second holder stopped. Beside them, on ids of their own, the three ways
# leases once minted IDs twice (issue 26; worker.lua's modes): a lease made
# before fork() and never held, used by parent and child (id 4); a claim
# slow to reach the store, whose id's key (and floor) the store loses
# meanwhile while its holder mints on (id 5); two generators of other
# epochs on one lease (id 6). spec/lease/check.lua then reads every file: no
# ID twice, every stalled holder refused, the forked child and the second
# epoch refused. Prints TAP. Every process it starts is stopped on every
# way out, a failing check included.
# With LAYOUT=sonyflake the holders lease Sonyflake ids of the whole 16-bit
# range, all of them held (by a filler, through the lease's own index) but
# WORKERS-1 spread over it, so that ids are still reused (ids 4..6 left to
# the three above); check.lua also reads Redis's command counts: a claim,
# renewal or release does bounded work however many ids are held.
# sh spec/lease/chaos.sh (LEASE_LUA: the Lua of the holders, default 5.3;
# LAYOUT: mintid, the default, or sonyflake)
BUILD=${BUILD:-build}
LEASE_LUA=${LEASE_LUA:-5.3}
LAYOUT=${LAYOUT:-mintid}
WORKERS=5
TTL=2
case $LAYOUT in
mintid) lo=0 hi=$((WORKERS - 2)) free=$(seq -s , 0 "$hi") ;;
sonyflake) lo=0 hi=65535 free=1,21845,43690,65535 ;;
*) echo "chaos.sh: LAYOUT mintid or sonyflake, got $LAYOUT" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) build=$BUILD ;; *) build=$root/$BUILD ;; esac
tmp=$(mktemp -d)
. "$root/spec/lease/redis.sh"
redis_pid=
pids=
started=$(date +%s)

stop_all() {
    for pid in $pids $redis_pid; do kill -CONT "$pid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null; done
    for pid in $pids $redis_pid; do wait "$pid" 2>/dev/null; done
    rm -rf "$tmp"
}
trap stop_all EXIT
trap 'exit 1' HUP INT TERM


now_ms() { date +%s%3N; }
cli() { timeout 10 redis-cli -h 127.0.0.1 -p "$port" "$@"; }

port=$(free_port)
start_redis() { start_redis_on "$port" --enable-debug-command yes; }
fill() {
    [ "$LAYOUT" = sonyflake ] || return 0
    fill_sonyflake_ids "$port" chaos "$free" 4,5,6 || bail "the 16-bit range filled"
}
start_redis
fill
echo "# redis-server $(redis-server --version | sed 's/.* v=\([^ ]*\).*/\1/') on 127.0.0.1:$port"

lua=lua$LEASE_LUA
[ "$LEASE_LUA" = jit ] && lua=luajit
export LUA_PATH="$root/lua/?.lua;$root/spec/?.lua;;" LUA_CPATH="$build/$LEASE_LUA/?.so;;" CHAOS_LAYOUT="$LAYOUT"
n=0
start_worker() {
    n=$((n + 1))
    "$lua" "$root/spec/lease/worker.lua" "$port" "$tmp" "w$n" "$lo" "$hi" "$TTL" 120 \
        2> "$tmp/w$n.stderr" &
    pids="$pids $!"
    eval "pid_w$n=$!"
    plain="$plain w$n"
}
plain=
for _ in $(seq "$WORKERS"); do start_worker; done
# wait_for FILE NAME LOG: until FILE exists, 10 s at most (then bail NAME)
wait_for() {
    i=0
    until [ -e "$1" ]; do
        i=$((i + 1))
        [ $i -ge 1000 ] && bail "$2" "$3"
        sleep 0.01
    done
}
# start_special MODE LO HI: a holder of ids LO..HI in worker.lua's MODE
start_special() {
    n=$((n + 1))
    "$lua" "$root/spec/lease/worker.lua" "$port" "$tmp" "w$n" "$2" "$3" "$TTL" 120 "$1" "w$((n + 1))" \
        2> "$tmp/w$n.stderr" &
    pids="$pids $!"
    eval "pid_w$n=$!"
}
# The forked pair: w$n the parent, w$((n + 1)) the child.
start_special fork 4 4
echo "$(now_ms) fork w$n" >> "$tmp/chaos"
echo "$(now_ms) fork-child w$((n + 1))" >> "$tmp/chaos"
n=$((n + 1))
wait_for "$tmp/w$n.pid" "the forked holder's child starts" "$tmp/w$((n - 1)).stderr"
eval "pid_w$n=$(cat "$tmp/w$n.pid")"
pids="$pids $(cat "$tmp/w$n.pid")"
start_special epochs 6 6
echo "$(now_ms) epochs w$n" >> "$tmp/chaos"
start_special plain 5 5
old_holder=w$n

# outcome WORKER: what its last next() did ("minting" or a refusal)
outcome() { sed -n 's/^[0-9]* = //p' "$tmp/$1.events" 2>/dev/null | tail -n 1; }
# holder: a live worker of ids 0..WORKERS-2 that holds an id and mints
holder() {
    for w in $plain; do
        f=$tmp/$w.state
        kill -0 "$(pid_of "$w")" 2>/dev/null || continue
        [ "$(cat "$f" 2>/dev/null)" != - ] && [ "$(outcome "$w")" = minting ] && { echo "$w"; return; }
    done
}
pid_of() { eval "echo \$pid_$1"; }

# Until every id is held and minting (quarantine included), 15 s at most.
i=0
while [ "$(for w in $(seq "$WORKERS"); do outcome "w$w"; done | grep -c '^minting$')" -lt $((WORKERS - 1)) ]; do
    i=$((i + 1))
    [ $i -ge 150 ] && bail "$((WORKERS - 1)) holders minting within 15 s" "$tmp/w1.events"
    sleep 0.1
done
sleep 2

chaos=$tmp/chaos
# The slow claim (id 5): its clocks read, then its connect held up 1.3 s,
# longer than ttl x drift + margin + max_skew (0.42 s) and shorter than
# its validity (1.78 s), while id 5's holder renews. Then that holder is
# cut off from the store (it mints on until its deadline), the store loses
# id 5's key and floor (a failover that lost those writes), and the claim
# runs at once. Its floor must lie past the old holder's deadline.
start_special slow 5 5
slow=w$n
echo "$(now_ms) slow $slow $old_holder" >> "$chaos"
wait_for "$tmp/$slow.slow" "the slow claimer reaches its claim" "$tmp/$slow.stderr"
sleep 1.3
[ "$(outcome "$old_holder")" = minting ] || bail "id 5's holder minting before the slow claim" "$tmp/$old_holder.events"
touch "$tmp/$old_holder.cut"
cli EVAL "redis.call('DEL', KEYS[1]) redis.call('HDEL', KEYS[2], ARGV[1])" 2 'mintid:{chaos}:m:5' \
    'mintid:{chaos}:floor' 5 > /dev/null
touch "$tmp/$slow.go"
echo "$(now_ms) lose 5" >> "$chaos"
sleep $((TTL + 2))
rm -f "$tmp/$old_holder.cut"
stall() { # stall WORKER: SIGSTOP for 2 ttl + 0.5 s, then SIGCONT
    pid=$(pid_of "$1")
    echo "$(now_ms) stop $1" >> "$chaos"
    kill -STOP "$pid"
    sleep $((2 * TTL)).5
    kill -CONT "$pid"
    echo "$(now_ms) cont $1" >> "$chaos"
}

victim=$(holder)
[ -n "$victim" ] || bail "a holder to stop"
stall "$victim"
sleep 3

echo "$(now_ms) sleep-start 3500" >> "$chaos"
cli DEBUG SLEEP 3.5 > /dev/null
echo "$(now_ms) sleep-end" >> "$chaos"
sleep 4

echo "$(now_ms) shutdown" >> "$chaos"
cli SHUTDOWN NOSAVE > /dev/null 2>&1
wait "$redis_pid" 2>/dev/null
sleep 1
start_redis
fill
echo "$(now_ms) restarted" >> "$chaos"
sleep 5

for _ in 1 2; do
    w=$(holder)
    [ -n "$w" ] || bail "a holder to kill"
    kill -KILL "$(pid_of "$w")"
    echo - > "$tmp/$w.state"
    echo "$(now_ms) kill $w" >> "$chaos"
    start_worker
    echo "$(now_ms) start w$n" >> "$chaos"
done
sleep 6

victim2=$(holder)
[ -n "$victim2" ] || bail "a second holder to stop"
stall "$victim2"
sleep 3

touch "$tmp/stop"
i=0
while [ $i -lt 100 ]; do
    left=0
    for pid in $pids; do kill -0 "$pid" 2>/dev/null && left=$((left + 1)); done
    [ $left -eq 0 ] && break
    i=$((i + 1))
    sleep 0.1
done
for pid in $pids; do kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
pids=
cli INFO commandstats > "$tmp/commandstats" 2>&1
cli SHUTDOWN NOSAVE > /dev/null 2>&1
wait "$redis_pid" 2>/dev/null
redis_pid=

# After the restart that loses every key the holders claim afresh, from id
# 0, before the filler is back: with Sonyflake's range any id is theirs.
allowed=$free,4,5,6
[ "$LAYOUT" = sonyflake ] && allowed=any
"$lua" "$root/spec/lease/check.lua" "$tmp" "$TTL" "$LAYOUT" "$allowed"
rc=$?
for f in "$tmp"/w*.stderr; do
    [ -s "$f" ] && { echo "# $(basename "$f"):"; sed 's/^/#   /' "$f"; }
done
echo "# chaos on Redis ($LAYOUT layout) took $(($(date +%s) - started)) s"
exit $rc
