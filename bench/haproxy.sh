#!/bin/sh
# make bench (not a test): what an ID from mintid costs HAProxy per request.
# One haproxy (nbthread 2, loopback) answers on two ports: one with
# HAProxy's own UUIDv4 (%[uuid], in C), the baseline, one with a ULID from
# the guide's Lua file (%[lua.ulid], spec/haproxy/ids.lua loaded with
# lua-load-per-thread). wrk measures each in turn, ROUNDS rounds of SECONDS
# s (HAPROXY_SECONDS) interleaved, and the medians are printed with their ratio.
BUILD=${BUILD:-build}
ROUNDS=${ROUNDS:-5}
SECONDS_EACH=${HAPROXY_SECONDS:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
case $BUILD in /*) build=$BUILD ;; *) build=$root/$BUILD ;; esac
for tool in haproxy wrk; do
    if ! command -v $tool > /dev/null; then
        echo "HAProxy: skipped, $tool is not installed (make deps)"
        exit 0
    fi
done
tmp=$(mktemp -d)
master=
trap '[ -n "$master" ] && kill -USR1 "$master" 2>/dev/null && wait "$master"; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
uuid_port=$(free_port)
lua_port=$(free_port)
# (no chroot here: the lock file in the run's folder)
sed "s|\"/mintid/mintid.lock\"|\"$tmp/mintid.lock\"|" "$root/spec/haproxy/ids.lua" > "$tmp/ids.lua"
cat > "$tmp/haproxy.cfg" <<CFG
global
    master-worker
    nbthread 2
    lua-prepend-path $root/lua/?.lua
    lua-prepend-path $build/5.3/?.so cpath
    lua-load-per-thread $tmp/ids.lua

defaults
    mode http
    timeout connect 5s
    timeout client 30s
    timeout server 30s

frontend uuid
    bind 127.0.0.1:$uuid_port
    http-request return status 200 content-type text/plain lf-string "%[uuid]\n"

frontend ulid
    bind 127.0.0.1:$lua_port
    http-request return status 200 content-type text/plain lf-string "%[lua.ulid]\n"
CFG
haproxy -W -C "$tmp" -f "$tmp/haproxy.cfg" > "$tmp/stderr" 2>&1 &
master=$!
i=0
until curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$lua_port/"; do
    i=$((i + 1))
    if [ $i -ge 100 ]; then
        cat "$tmp/stderr"
        echo "HAProxy: haproxy did not start"
        exit 1
    fi
    sleep 0.1
done

# rate PORT: requests per second of one wrk round
rate() {
    wrk -t 1 -c 8 -d "${SECONDS_EACH}s" "http://127.0.0.1:$1/" | sed -n 's/^Requests\/sec: *\([0-9]*\).*/\1/p'
}
round=0
while [ $round -lt "$ROUNDS" ]; do
    echo "$(rate "$uuid_port")" >> "$tmp/uuid"
    echo "$(rate "$lua_port")" >> "$tmp/ulid"
    round=$((round + 1))
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
uuid=$(median "$tmp/uuid")
ulid=$(median "$tmp/ulid")
echo "HAProxy $(haproxy -v | sed -n '1s/^HAProxy version \([^ ]*\).*/\1/p'), nbthread 2, wrk -c 8, medians of $ROUNDS interleaved rounds of ${SECONDS_EACH} s:"
printf '  %-52s %8s requests/s\n' "%[uuid] (HAProxy's own UUIDv4, in C): the baseline" "$uuid" \
    "%[lua.ulid] (mintid.ulid() in a Lua fetch)" "$ulid"
awk -v a="$ulid" -v b="$uuid" 'BEGIN { if (b > 0) printf "  %%[lua.ulid] / %%[uuid]: %.2f\n", a / b }'
