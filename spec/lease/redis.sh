# spec/lease/redis.sh: sourced by chaos.sh and fleet.sh, which set $tmp and
# stop $redis_pid on every way out: a free loopback port, the failing check
# that ends a run, and a redis-server that keeps nothing on disk.

# free_port: a TCP port on 127.0.0.1 that nothing listens on now
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# bail NAME [LOG]: the run's first test fails as NAME, LOG shown under it
bail() {
    echo "not ok 1 - $1"
    [ -n "${2:-}" ] && sed 's/^/# /' "$2" 2>/dev/null
    exit 1
}

# start_redis_on PORT [FLAG...]: redis-server on 127.0.0.1:PORT with no
# persistence, its files in $tmp, its pid in $redis_pid; bails unless it
# answers PING within 10 s.
start_redis_on() {
    redis_port_=$1
    shift
    redis-server --bind 127.0.0.1 --port "$redis_port_" --save "" --appendonly no --dir "$tmp" \
        --logfile "$tmp/redis.log" "$@" &
    redis_pid=$!
    i=0
    until timeout 5 redis-cli -h 127.0.0.1 -p "$redis_port_" ping >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -ge 100 ] && bail "redis-server starts on 127.0.0.1:$redis_port_" "$tmp/redis.log"
        sleep 0.1
    done
}

# fill_sonyflake_ids PORT NAMESPACE FREE [SKIP]: every id of the Sonyflake
# layout's 16-bit range but FREE and SKIP ("a,b,...": ids left untouched,
# for holders of ranges of their own) held for 10 minutes in NAMESPACE, as the
# lease's claims keep them (the key, the range's index, its fresh count),
# the free ones in the index as released ids are (score 0, never over a
# key a holder took: NX); then the command counts reset, so that from here
# they are the holders' own. One script: setup, not a lease's work.
fill_sonyflake_ids() {
    # redis-cli exits 0 on a script's error: its reply is checked instead
    fill_out_=$(timeout 10 redis-cli -h 127.0.0.1 -p "$1" EVAL 'local ns, free = ARGV[1], {}
for id in string.gmatch(ARGV[2], "%d+") do free[tonumber(id)] = true end
local skip = {}
for id in string.gmatch(ARGV[3], "%d+") do skip[tonumber(id)] = true end
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000
for i = 0, 65535 do
    if skip[i] then
    elseif free[i] then
        redis.call("ZADD", "mintid:{" .. ns .. "}:idx:0-65535", "NX", 0, i)
    elseif redis.call("SET", "mintid:{" .. ns .. "}:m:" .. i, "filler", "NX", "PX", 600000) then
        redis.call("ZADD", "mintid:{" .. ns .. "}:idx:0-65535", now + 600000, i)
    end
end
redis.call("SET", "mintid:{" .. ns .. "}:fresh:0-65535", 65536)
redis.call("SET", "mintid:{" .. ns .. "}:layout", "39/10/16/8/1409529600000/time-seq-machine")
return "filled"' 0 "$2" "$3" "${4:--}") && [ "$fill_out_" = filled ] &&
        timeout 10 redis-cli -h 127.0.0.1 -p "$1" CONFIG RESETSTAT > /dev/null
}
