#!/bin/sh
# spec/lease/fleet.sh: a fleet of three nginx nodes (own prefixes and ports,
# 3 workers each, spec/lease/fleet.conf) leasing Snowflake machine ids from
# one redis-server (127.0.0.1, a free port, no persistence), under bounded
# load (wrk, spec/lease/fleet_load.lua). While a slow request keeps one of
# node 1's workers busy, node 1 is reloaded (`nginx -s reload`): that old
# worker stops renewing and must refuse after its deadline, while the new
# workers take ids. Before the load, a lease made in the master must
# refuse start() in a worker (issue 26: it crossed fork()), and one worker
# of node 2 releases its lease and must stay released while its timers
# tick, until it calls start() again. The ids are 0..8, one per worker of the three nodes,
# so every new worker mints only with an id an old worker held. Then every
# server is stopped and spec/lease/fleet_check.lua reads the logs. Prints
# TAP. Every process it starts is stopped on every way out.
# With LAYOUT=sonyflake the workers lease Sonyflake ids of the whole 16-bit
# range, all held (redis.sh's filler) but nine spread over it.
# sh spec/lease/fleet.sh (LAYOUT: mintid, the default, with the Twitter
# epoch, or sonyflake)
BUILD=${BUILD:-build}
LAYOUT=${LAYOUT:-mintid}
TTL=2
case $LAYOUT in
mintid) ids='{ 0, 8 }' layout_option='epoch = 1288834974657' check_layout=1288834974657 ;;
sonyflake) ids='{ 0, 65535 }' layout_option='layout = "sonyflake"' check_layout=sonyflake
    free=0,8191,16383,24575,32767,40959,49151,57343,65535 ;;
*) echo "fleet.sh: LAYOUT mintid or sonyflake, got $LAYOUT" >&2; exit 2 ;;
esac
NODES="1 2 3"
root=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) build=$BUILD ;; *) build=$root/$BUILD ;; esac
tmp=$(mktemp -d)
. "$root/spec/lease/redis.sh"
redis_pid=
masters=
clients=
started=$(date +%s)

# nginx_pids: every nginx process whose prefix is in this run's folder
nginx_pids() {
    for pid in $masters $(for m in $masters; do pgrep -P "$m"; done); do
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = nginx ] && echo "$pid"
    done
}
stop_all() {
    for pid in $clients; do kill -KILL "$pid" 2>/dev/null; done
    for m in $masters; do kill -QUIT "$m" 2>/dev/null; done
    i=0
    while [ -n "$(nginx_pids)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    for pid in $(nginx_pids); do kill -KILL "$pid" 2>/dev/null; done
    [ -n "$redis_pid" ] && kill -KILL "$redis_pid" 2>/dev/null
    for pid in $clients $masters $redis_pid; do wait "$pid" 2>/dev/null; done
    rm -rf "$tmp"
}
trap stop_all EXIT
trap 'exit 1' HUP INT TERM


redis_port=$(free_port)
start_redis_on "$redis_port"
[ "$LAYOUT" = sonyflake ] && { fill_sonyflake_ids "$redis_port" fleet "$free" || bail "the 16-bit range filled"; }

user=
[ "$(id -u)" -eq 0 ] && user="user $(id -un) $(id -gn);"
for node in $NODES; do
    p=$tmp/node$node
    mkdir -p "$p/logs" "$p/tmp"
    port=$(free_port)
    echo "$port" > "$p/port"
    sed -e "s|@USER@|$user|" -e "s|@ROOT@|$root|g" -e "s|@CPATH@|$build/jit|g" \
        -e "s|@RESTY@|$build/lua-resty-redis|g" -e "s|@PORT@|$port|g" \
        -e "s|@REDIS_PORT@|$redis_port|g" -e "s|@TTL@|$TTL|g" -e "s|@IDS@|$ids|g" \
        -e "s|@LAYOUT@|$layout_option|g" "$root/spec/lease/fleet.conf" > "$p/nginx.conf"
    nginx -p "$p/" -c "$p/nginx.conf" > "$p/stderr" 2>&1 &
    masters="$masters $!"
done

# Readiness: every node answers /ready with 200 (its lease holds and is
# past the quarantine), 15 s at most.
for node in $NODES; do
    url=http://127.0.0.1:$(cat "$tmp/node$node/port")
    i=0
    until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$url/ready")" = 200 ]; do
        i=$((i + 1))
        [ $i -ge 150 ] && bail "node $node ready on $url within 15 s" "$tmp/node$node/logs/error.log"
        sleep 0.1
    done
done
echo "ok 1 - three nodes of 3 workers each ready (/ready 200), redis-server on 127.0.0.1:$redis_port"

# A lease made in init_by_lua (the master) refuses l:start() in a worker,
# whatever its state: its token would be the master's in every worker.
out=$(curl -s --max-time 5 "http://127.0.0.1:$(cat "$tmp/node3/port")/master-lease")
case $out in
"false "*"lease: made in another process (before fork()): make one in each process")
    echo "ok 2 - a lease made in init_by_lua refuses start() in a worker: $out" ;;
*) echo "not ok 2 - a lease made in init_by_lua refuses start() in a worker: $out" ;;
esac

# release() stops l:start()'s timers (they tick every 0.13 s here) until
# start() is called again: 1.5 s later the lease is still released.
url2=http://127.0.0.1:$(cat "$tmp/node2/port")
out=$(curl -s --max-time 10 "$url2/release?s=1.5")
case $out in
*" released "[0-9]*": true; 1.5 s later: released, snowflake: lease released")
    echo "ok 3 - a worker's release() lasts past its timers' ticks: $out" ;;
*) echo "not ok 3 - a worker's release() lasts past its timers' ticks: $out" ;;
esac

# The load: 12 s per node, 4 connections pacing 2 ms between requests.
for node in $NODES; do
    wrk -t 1 -c 4 -d 12s --timeout 5s -s "$root/spec/lease/fleet_load.lua" \
        "http://127.0.0.1:$(cat "$tmp/node$node/port")" > "$tmp/node$node/wrk.out" 2>&1 &
    clients="$clients $!"
done
sleep 2
# The slow request on node 1: 3 ttl of minting every 50 ms.
url1=http://127.0.0.1:$(cat "$tmp/node1/port")
curl -s --max-time 20 "$url1/slow?s=$((3 * TTL))" > "$tmp/slow.out" 2>&1 &
slow=$!
clients="$clients $slow"
sleep 0.5
date +%s%3N > "$tmp/reload_ms"
nginx -p "$tmp/node1/" -c "$tmp/node1/nginx.conf" -s reload 2> "$tmp/reload.err" || bail "nginx -s reload" "$tmp/reload.err"
for pid in $clients; do wait "$pid"; done
clients=
for node in $NODES; do sed "s/^/# node $node: /" "$tmp/node$node/wrk.out" | grep 'wrk:'; done

for m in $masters; do kill -QUIT "$m" 2>/dev/null; done
i=0
while [ -n "$(nginx_pids)" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
left=$(nginx_pids)
[ -z "$left" ] && echo "ok 4 - every nginx stopped" || echo "not ok 4 - nginx processes left: $left"
masters=

LUA_PATH="$root/lua/?.lua;$root/spec/?.lua;;" LUA_CPATH="$build/jit/?.so;;" \
    luajit "$root/spec/lease/fleet_check.lua" 4 "$tmp" "$TTL" "$(cat "$tmp/reload_ms")" \
    "$root/doc/fleet.md" "$root/spec/lease/fleet.conf" "$check_layout"
rc=$?
echo "# the fleet run ($LAYOUT layout) took $(($(date +%s) - started)) s"
[ -z "$left" ] && [ $rc -eq 0 ]
