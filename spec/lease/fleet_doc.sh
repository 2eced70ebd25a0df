#!/bin/sh
# spec/lease/fleet_doc.sh: doc/fleet.md's nginx.conf ("A fleet of OpenResty
# nodes") as printed, on Debian's nginx and a redis-server of its own
# (127.0.0.1, free ports, no persistence). The only changes are where it
# runs: Redis's address and the listen port, the Lua paths (the checkout,
# the build's mintid.so and lua-resty-redis), and, as root, a `user` line
# so that the workers may read the checkout. While the worker's lease waits
# out its quarantine (ttl + max_skew, 17 s with the block's defaults) /id
# must answer 503 with the generator's refusal; once /ready answers 200,
# /id must answer 200 with a Snowflake ID of the block's epoch, and the
# access log must hold what each answer carried. Prints TAP. nginx and
# redis-server are stopped on every way out, a failing check included.
BUILD=${BUILD:-build}
EPOCH=1288834974657
root=$(cd "$(dirname "$0")/../.." && pwd)
case $BUILD in /*) build=$BUILD ;; *) build=$root/$BUILD ;; esac
tmp=$(mktemp -d)
started=$(date +%s)
. "$root/spec/tap.sh"
. "$root/spec/server.sh"
. "$root/spec/lease/redis.sh"
redis_pid=
master=

# nginx_left: this run's nginx processes that still run
nginx_left() {
    for pid in $master $(children "$master" 2>/dev/null); do
        alive "$pid" && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = nginx ] && echo "$pid"
    done
}
stop_all() {
    [ -n "$master" ] && stop_server nginx QUIT "$master" nginx_left
    [ -n "$redis_pid" ] && kill -KILL "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap stop_all EXIT
trap 'exit 1' HUP INT TERM

for tool in nginx redis-server redis-cli curl; do
    command -v $tool > /dev/null || bail "$tool is installed (make deps)"
done
for f in "$build/jit/mintid.so" "$build/lua-resty-redis/resty/redis.lua"; do
    [ -f "$f" ] || bail "$f is built (make test-lease)"
done

# The block, and the places it says where things are, each replaced once.
awk '/^## A fleet of OpenResty nodes/ { in_section = 1; next } in_section && /^## / { exit }
     in_section && /^```nginx/ { in_block = 1; next } in_block && /^```/ { exit } in_block' \
    "$root/doc/fleet.md" > "$tmp/printed.conf"
redis_port=$(free_port)
port=$(free_port)
user=
[ "$(id -u)" -eq 0 ] && user="user $(id -un) $(id -gn);"
sed -e "s|\"10\.0\.0\.5\", 6379|\"127.0.0.1\", $redis_port|" -e "s|listen 8080;|listen 127.0.0.1:$port;|" \
    -e "s|lua_package_path \"/usr/local/share/lua/5.1/?.lua;;\"|lua_package_path \"$root/lua/?.lua;$build/lua-resty-redis/?.lua;;\"|" \
    -e "s|lua_package_cpath \"/usr/local/lib/lua/5.1/?.so;;\"|lua_package_cpath \"$build/jit/?.so;;\"|" \
    -e "s|^worker_processes 3;|worker_processes 3; $user|" "$tmp/printed.conf" > "$tmp/nginx.conf"
# placed WHAT: the line the run needs is in the configuration
placed() { grep -qF "$1" "$tmp/nginx.conf"; }
located() {
    cat "$tmp/printed.conf"
    placed "\"127.0.0.1\", $redis_port" && placed "listen 127.0.0.1:$port;" &&
        placed "lua_package_path \"$root/lua/" && placed "lua_package_cpath \"$build/jit/" &&
        placed "worker_processes 3; $user"
}
check "doc/fleet.md's nginx.conf found, its Redis, port and Lua paths where the run puts them" located
[ "$fails" -eq 0 ] || { tap_done; exit 1; }

start_redis_on "$redis_port"
mkdir -p "$tmp/logs"
nginx -p "$tmp/" -c "$tmp/nginx.conf" > "$tmp/stderr" 2>&1 &
master=$!
url=http://127.0.0.1:$port
# get PATH: one request; its status and body (one line) in $code, $body
get() {
    : > "$tmp/body"
    code=$(curl -s --max-time 5 -o "$tmp/body" -w '%{http_code}' "$url$1")
    body=$(tr '\n' ' ' < "$tmp/body")
}

# The first answer of /id, as soon as nginx answers (10 s at most).
i=0
code=000
while [ "$code" = 000 ] && [ $i -lt 100 ]; do
    get /id
    [ "$code" = 000 ] && sleep 0.1
    i=$((i + 1))
done
warming="$code $body"
refused() {
    case $warming in "503 snowflake: "*) return 0 ;; esac
    cat "$tmp/stderr" "$tmp/logs/error.log" 2>/dev/null | tail -n 20
    return 1
}
check "during warm-up /id answers 503 with the generator's refusal (got: $warming)" refused

# Ready within ttl + max_skew and some (30 s at most).
i=0
get /ready
while [ "$code" != 200 ] && [ $i -lt 300 ]; do
    sleep 0.1
    get /ready
    i=$((i + 1))
done
check "/ready answers 200 once the lease holds ($code $body)" sh -c "[ '$code' = 200 ]"
# The block's 3 workers claim at about the same time: another may still
# be a moment behind the one that answered /ready (5 s at most).
i=0
get /id
while [ "$code" != 200 ] && [ $i -lt 50 ]; do
    sleep 0.1
    get /id
    i=$((i + 1))
done
id=${body% }
check "then /id answers 200 with an ID ($code $id)" sh -c "[ '$code' = 200 ]"
parsed=$(LUA_CPATH="$build/jit/?.so;;" luajit - "$id" "$EPOCH" <<'LUA'
local ms, machine = require("mintid").parse_snowflake(arg[1], tonumber(arg[2]))
if ms and math.abs(tonumber(ms) - os.time() * 1000) < 60000 then print(machine) end
LUA
)
check "the ID is a Snowflake ID of the block's epoch, of now, machine id ${parsed:-none}" sh -c "[ -n '$parsed' ]"

stop_server nginx QUIT "$master" nginx_left
master=
check "nginx stopped, no process of this run left" sh -c "[ -z '$(nginx_left)' ]"
logged() {
    cat "$tmp/logs/ids.log"
    grep -q ' 503 id= err="snowflake: ' "$tmp/logs/ids.log" && grep -qF " 200 id=$id err=\"\"" "$tmp/logs/ids.log"
}
check "the access log holds the refusal of the 503 and the ID of the 200 (\$mint_err, \$mint_id)" logged
echo "# fleet_doc.sh took $(($(date +%s) - started)) s"
tap_done
