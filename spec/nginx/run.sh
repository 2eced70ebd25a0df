#!/bin/sh
# make test-nginx: Debian's nginx with its Lua module runs spec/nginx/nginx.conf
# (4 workers, 127.0.0.1 on a free port, a temporary prefix), wrk sends it
# REQUESTS requests over 16 connections, curl a few more, then nginx is
# stopped and spec/nginx/check.lua checks the logs and answers. Prints TAP.
# nginx is stopped on every way out of this script, a failing check included.
BUILD=${BUILD:-build}
REQUESTS=${REQUESTS:-64000}
CONNECTIONS=16
THREADS=2
root=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) build=$BUILD ;; *) build=$root/$BUILD ;; esac
started=$(date +%s)
tmp=$(mktemp -d)
master=
workers=
client=
n=0
fails=0

tap() { # tap STATUS NAME [DIAGNOSTICS]: STATUS 0 is ok
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        [ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
        fails=$((fails + 1))
    fi
}

. "$root/spec/server.sh"

# nginx_left: those of this run's nginx processes that still run
nginx_left() {
    for pid in $master $workers; do
        alive "$pid" && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = nginx ] && echo "$pid"
    done
}

# Graceful stop (QUIT), then KILL what is still there after 10 s.
stop_nginx() {
    [ -n "$master" ] || return 0
    stop_server nginx QUIT "$master" nginx_left
}

trap '[ -n "$client" ] && kill "$client" 2>/dev/null; stop_nginx; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Workers run as the user running the test: the default (nobody) may not
# read a checkout under a private home such as /root.
user=
[ "$(id -u)" -eq 0 ] && user="user $(id -un) $(id -gn);"
sed -e "s|@USER@|$user|" -e "s|@ROOT@|$root|g" -e "s|@CPATH@|$build/jit|g" \
    -e "s|@PORT@|$port|g" "$root/spec/nginx/nginx.conf" > "$tmp/nginx.conf"
mkdir -p "$tmp/logs" "$tmp/tmp"
url=http://127.0.0.1:$port

# The relative-ID secret reaches the workers through `env MINTID_SECRET;`,
# and node 3 of a cluster gets machine ids 12..15 for its 4 workers.
MINTID_SECRET=$(od -An -tx1 -N24 /dev/urandom | tr -d ' \n')
MINTID_NODE=3
export MINTID_SECRET MINTID_NODE
nginx -p "$tmp/" -c "$tmp/nginx.conf" > "$tmp/stderr" 2>&1 &
master=$!
i=0
until curl -s -o /dev/null --max-time 1 "$url/master"; do
    i=$((i + 1))
    if ! alive "$master" || [ $i -ge 100 ]; then
        tap 1 "nginx starts on $url" "$(cat "$tmp/stderr" "$tmp/logs/error.log" 2>/dev/null)"
        exit 1
    fi
    sleep 0.1
done
i=0
while workers=$(children "$master"); count=$(echo $workers | wc -w); [ "$count" -lt 4 ] && [ $i -lt 20 ]; do
    sleep 0.1
    i=$((i + 1))
done
tap "$([ "$count" -eq 4 ] && echo 0 || echo 1)" "nginx starts on $url with 4 workers (master $master)" \
    "$count workers: $workers"

# The load: wrk until nginx has logged REQUESTS requests (wrk stops and
# reports on SIGINT), 40 s at most.
wrk -t $THREADS -c $CONNECTIONS -d 40s --timeout 5s -s "$root/spec/nginx/load.lua" \
    "$url" > "$tmp/wrk.out" 2>&1 &
client=$!
while alive "$client" && [ "$(wc -l < "$tmp/logs/mint.log")" -lt "$REQUESTS" ]; do
    sleep 0.2
done
kill -INT "$client" 2>/dev/null
wait "$client"
client=
sed 's/^/# /' "$tmp/wrk.out"

# get NAME PATH: one request, recorded as NAME|status|X-Request-Id|body
# (several X-Request-Id headers separated by spaces, body lines by ';').
get() {
    code=$(curl -s --max-time 5 -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' "$url$2")
    ids=$(tr -d '\r' < "$tmp/headers" | sed -n 's/^[Xx]-[Rr]equest-[Ii][Dd]: //p' | tr '\n' ' ')
    printf '%s|%s|%s|%s\n' "$1" "$code" "${ids% }" "$(tr '\n' ';' < "$tmp/body")" >> "$tmp/curl.out"
}
get master /master
get ulid /ulid
get proxied /hello
get redirect /redirect
for i in 1 2 3 4 5 6 7 8; do
    get from-master /snowflake-from-master
done
for id in 01arz3ndektsv4rrffq69g5fav 01ARZ3NDEKTSV4RRFFQ69G5FA 01ARZ3NDEKTSV4RRFFQ69G5FAU \
    01ARZ3NDEKTSV4RRFFQ69G5FAVX 8ZZZZZZZZZZZZZZZZZZZZZZZZZ 7ZZZZZZZZZZZZZZZZZZZZZZZZZ ''; do
    get "parse:$id" "/parse?id=$id"
done
get parse-missing /parse
for key in customer-1 customer-2 42 a%20b %C3%A9 %2Fweird%3Fkey%3D; do
    get "relative:$key" "/relative?key=$key"
    get "relative:$key" "/relative?key=$key"
done
get relative-missing /relative
# trace NAME [TRACEPARENT]: /api/ with that incoming header (none if not
# given), recorded as NAME|status|traceparent of the answer|body
trace() {
    code=$(curl -s --max-time 5 -D "$tmp/headers" -o "$tmp/body" -w '%{http_code}' \
        ${2:+-H "traceparent: $2"} "$url/api/x")
    tp=$(tr -d '\r' < "$tmp/headers" | sed -n 's/^[Tt]raceparent: //p' | tr '\n' ' ')
    printf '%s|%s|%s|%s\n' "$1" "$code" "${tp% }" "$(tr '\n' ';' < "$tmp/body")" >> "$tmp/curl.out"
}
trace trace-none
trace trace-none
trace trace-valid 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01
trace trace-later 01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03-more
trace trace-ff ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01
trace trace-upper 00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01

stop_nginx
left=$(nginx_left)
tap "$([ -z "$left" ] && echo 0 || echo 1)" "nginx stopped, no process of this run left" "left: $left"
master=

LUA_PATH="$root/lua/?.lua;$root/spec/?.lua;;" LUA_CPATH="$build/jit/?.so;;" \
    luajit "$root/spec/nginx/check.lua" "$n" "$tmp" "$root/doc/guide.md" "$root/spec/nginx/nginx.conf"
rc=$?
echo "# test-nginx took $(($(date +%s) - started)) s"
[ "$fails" -eq 0 ] && [ "$rc" -eq 0 ]
