#!/bin/sh
# make test-haproxy: Debian's haproxy (2.6, Lua 5.3) runs spec/haproxy/haproxy.cfg
# (master-worker, nbthread 4, 127.0.0.1 on a free port, the guide's chroot
# line with the run's folder as the chroot when run as root) first with the
# lock file's folder missing (each request a 503, the error logged), then
# three times, each under wrk until it has logged REQUESTS answers:
# - "per-thread": ids.lua (the guide's Lua file) with lua-load-per-thread,
#   one Lua state per thread; a reload (SIGUSR2) halfway, then bad input (a
#   malformed and an oversized traceparent, a burst of connections);
# - "shared": ids.lua with lua-load, one state for the 4 threads;
# - "control": control.lua (plain Lua, no mintid) with lua-load, which
#   shows HAProxy's own faults in that mode.
# record.lua keeps what each Lua state returned; once haproxy has stopped,
# spec/haproxy/check.lua compares it with HAProxy's log and checks the IDs.
# Prints TAP. haproxy is stopped on every way out, a failing check included.
# KEEP=1 keeps the run's folder (logs, records) and prints its path.
BUILD=${BUILD:-build}
REQUESTS=${REQUESTS:-40000}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) build=$BUILD ;; *) build=$root/$BUILD ;; esac
started=$(date +%s)
. "$root/spec/tap.sh"
. "$root/spec/server.sh"

for tool in haproxy wrk curl; do
    if ! command -v $tool > /dev/null; then
        echo "not ok 1 - $tool is not installed (Debian's $tool package: make deps)"
        echo "1..1"
        exit 1
    fi
done
if [ ! -f "$build/5.3/mintid.so" ]; then
    echo "not ok 1 - $build/5.3/mintid.so is not built (make $BUILD/5.3/mintid.so)"
    echo "1..1"
    exit 1
fi
tmp=$(mktemp -d)
master=
client=
holder=

# workers: the haproxy processes whose parent is the master
workers() {
    for pid in $(children "$master"); do
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = haproxy ] && echo "$pid"
    done
}

# haproxy_left: those of this run's haproxy processes that still run
haproxy_left() {
    for pid in $master $(cat "$dir/workers" 2>/dev/null); do
        alive "$pid" && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = haproxy ] && echo "$pid"
    done
}

# note_workers: every worker seen, once, in $dir/workers
note_workers() {
    for pid in $(workers); do
        grep -qx "$pid" "$dir/workers" 2>/dev/null || echo "$pid" >> "$dir/workers"
    done
}

# Soft stop (SIGUSR1 to the master), then KILL what still runs after 10 s.
stop_haproxy() {
    [ -n "$master" ] || return 0
    note_workers
    stop_server haproxy USR1 "$master" haproxy_left
    master=
}

trap '[ -n "$client" ] && kill "$client" 2>/dev/null; [ -n "$holder" ] && kill "$holder" 2>/dev/null; stop_haproxy; [ -n "${KEEP:-}" ] && echo "# kept $tmp" || rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port/

# cli COMMAND: COMMAND on the master CLI (haproxy -S)
cli() {
    python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
s.connect(sys.argv[1])
s.sendall(sys.argv[2].encode() + b"\n")
s.shutdown(socket.SHUT_WR)
out = s.recv(1 << 20)
while out and not out.endswith(b"\n\n"):
    more = s.recv(1 << 20)
    if not more:
        break
    out += more
sys.stdout.write(out.decode("latin-1"))' "$dir/master.sock" "$1"
}

# note_dropped PID...: the log lines each worker dropped so far (under load
# HAProxy drops one now and then, and counts it), into $dir/dropped
note_dropped() {
    for pid in "$@"; do
        for _ in 1 2 3; do
            count=$(cli "@!$pid show info" | sed -n 's/^DroppedLogs: //p')
            [ -n "$count" ] && break
            sleep 0.5
        done
        echo "$pid ${count:-unknown: $(cli "@!$pid show info" 2>&1 | head -n 2 | tr '\n' ' ')}" >> "$dir/dropped"
    done
}

# answered: the answers with IDs haproxy has logged
answered() { grep -c ' www 200 ' "$dir/log"; }

# load UNTIL: wrk until haproxy has logged UNTIL answers (30 s at most)
load() {
    wrk -t 2 -c 16 -d 30s --timeout 5s -s "$root/spec/haproxy/load.lua" "$url" >> "$dir/wrk.out" 2>&1 &
    client=$!
    while alive "$client" && [ "$(answered)" -lt "$1" ]; do
        note_workers
        sleep 0.2
    done
    kill -INT "$client" 2>/dev/null
    wait "$client"
    client=
}

# get NAME [CURL ARGS...]: one request, recorded in curl.out as
# NAME|status|X-Request-Id|traceparent|body
get() {
    name=$1
    shift
    code=$(curl -s --max-time 5 -D "$dir/headers" -o "$dir/body" -w '%{http_code}' "$@" "$url")
    header() { tr -d '\r' < "$dir/headers" | sed -n "s/^$1: //Ip" | tr '\n' ' '; }
    printf '%s|%s|%s|%s|%s\n' "$name" "$code" "$(header x-request-id)" "$(header traceparent)" \
        "$(tr '\n' ';' < "$dir/body")" >> "$dir/curl.out"
}

# bad_input: a malformed, an oversized and a too large traceparent, then a
# burst of 256 connections for 2 s
bad_input() {
    T=4bf92f3577b34da6a3ce929d0e0e4736 P=00f067aa0ba902b7
    long=$(head -c 6000 /dev/zero | tr '\0' 'a')
    huge=$(head -c 20000 /dev/zero | tr '\0' 'a')
    get valid -H "traceparent: 00-$T-$P-01"
    get malformed -H "traceparent: 00-$T-$P-0x"
    get binary -H "traceparent: $(printf '00-\001\002\177-\377')"
    get oversized-00 -H "traceparent: 00-$T-$P-01-$long"
    get oversized-later -H "traceparent: 42-$T-$P-01-$long"
    get too-large -H "traceparent: 00-$T-$P-01-$huge"
    wrk -t 2 -c 256 -d 2s --timeout 5s "$url" > "$dir/burst.out" 2>&1
    get after-burst
}

# serve NAME LOAD LUA [reload]: haproxy with LOAD (lua-load-per-thread or
# lua-load) and the Lua file LUA under wrk, in $tmp/NAME
# start NAME LOAD LUA [FOLDER]: haproxy with LOAD (lua-load-per-thread or
# lua-load) and the Lua file LUA, in $tmp/NAME, until it answers; FOLDER
# "none" leaves out the lock file's folder.
start() {
    dir=$tmp/$1
    mkdir -p "$dir/record"
    [ "${4:-}" = none ] || mkdir -p "$dir/mintid"
    # The run's folder is the worker's chroot, where the Lua file as printed
    # finds its lock file (/mintid/mintid.lock) and record.lua its record.
    # chroot needs root: otherwise no chroot line, and the paths outside.
    if [ "$(id -u)" -eq 0 ]; then
        chroot_line="chroot $dir" record=/record
        cp "$3" "$dir/ids.lua"
    else
        chroot_line="# not root: no chroot" record=$dir/record
        sed "s|\"/mintid/mintid.lock\"|\"$dir/mintid/mintid.lock\"|" "$3" > "$dir/ids.lua"
    fi
    sed -e "s|@ROOT@|$root|g" -e "s|@CPATH@|$build/5.3|g" -e "s|@LOAD@|$2|g" \
        -e "s|@LUA@|$dir/ids.lua|g" -e "s|@PORT@|$port|g" -e "s|chroot @CHROOT@|$chroot_line|" \
        "$root/spec/haproxy/haproxy.cfg" > "$dir/haproxy.cfg"
    # (log stdout: haproxy's log is a file opened for appending)
    MINTID_RECORD=$record haproxy -W -S "$dir/master.sock" -C "$dir" -f "$dir/haproxy.cfg" >> "$dir/log" 2> "$dir/stderr" &
    master=$!
    i=0
    until curl -s -o /dev/null --max-time 1 "$url"; do
        i=$((i + 1))
        if ! alive "$master" || [ $i -ge 100 ]; then
            check "$1: haproxy starts on $url" sh -c "cat '$dir/stderr'; exit 1"
            return 1
        fi
        sleep 0.1
    done
}

# serve NAME LOAD LUA [reload]: haproxy with LOAD and the Lua file LUA
# under wrk, in $tmp/NAME
serve() {
    start "$1" "$2" "$3" || return 1
    note_workers
    if [ "${4:-}" = reload ]; then
        load $((REQUESTS / 2))
        old=$(workers)
        # A request the old worker has begun to read keeps it alive through
        # the reload until this ends, to read its count of dropped log lines.
        python3 -c 'import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET / HTTP/1.1\r\nHost: test\r\n")
open(sys.argv[2], "w").close()
time.sleep(30)' "$port" "$dir/holding" &
        holder=$!
        i=0
        while [ ! -e "$dir/holding" ] && [ $i -lt 100 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        sleep 0.2
        # SIGUSR2: the master loads the configuration again and forks a new
        # worker; the old one finishes its connections and exits.
        kill -USR2 "$master"
        i=0
        while [ "$(workers | grep -vcx "$old")" -eq 0 ] && [ $i -lt 100 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        note_workers
        load "$REQUESTS"
        echo "$old" > "$dir/old"
        note_dropped "$old"
        # the old worker held its machine ids until at least this ms
        date +%s%3N > "$dir/old-alive-ms"
        kill "$holder"
        wait "$holder" 2>/dev/null
        holder=
        i=0
        while alive "$old" && [ $i -lt 150 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        check "$1: the old worker $old exits after the reload" sh -c "! kill -0 $old 2>/dev/null"
        before=$(workers)
        bad_input
        after=$(workers)
        note_workers
        check "$1: bad input crashed no worker: the one before ($before) is the one after" \
            sh -c "echo 'workers after: $after'; [ -n '$before' ] && [ '$before' = '$after' ]"
    else
        load "$REQUESTS"
    fi
    note_dropped $(workers)
    stop_haproxy
    check "$1: haproxy stopped, no process of this run left" sh -c "[ -z '$(haproxy_left)' ]"
}

# unopenable: the guide's Lua file whose lock file cannot be opened (its
# folder missing in the chroot, as a path outside the chroot is): each
# request answered 503 with no X-Snowflake-Id, the error in HAProxy's log.
unopenable() {
    start unopenable lua-load-per-thread "$root/spec/haproxy/ids.lua" none || return 1
    get unopenable
    stop_haproxy
    answer=$(grep '^unopenable|' "$dir/curl.out")
    refused() {
        echo "answer: $answer"
        tail -n 5 "$dir/log" "$dir/stderr"
        case $answer in "unopenable|503|"*) ;; *) return 1 ;; esac
        ! tr -d '\r' < "$dir/headers" | grep -qi '^x-snowflake-id:' &&
            grep -q 'lock file /mintid/mintid.lock: cannot open' "$dir/log" "$dir/stderr"
    }
    check "a lock file the worker cannot open: 503, no X-Snowflake-Id, the error in HAProxy's log" refused
}

[ "$(id -u)" -eq 0 ] || echo "# not root: haproxy runs without its chroot line"
unopenable
serve per-thread lua-load-per-thread "$root/spec/haproxy/ids.lua" reload
serve shared lua-load "$root/spec/haproxy/ids.lua"
serve control lua-load "$root/spec/haproxy/control.lua"

LUA_PATH="$root/lua/?.lua;$root/spec/?.lua;;" LUA_CPATH="$build/5.3/?.so;;" \
    lua5.3 "$root/spec/haproxy/check.lua" "$n" "$tmp" "$REQUESTS" "$root/doc/guide.md" \
    "$root/spec/haproxy/haproxy.cfg" "$root/spec/haproxy/ids.lua"
rc=$?
echo "# test-haproxy took $(($(date +%s) - started)) s"
[ "$fails" -eq 0 ] && [ "$rc" -eq 0 ]
