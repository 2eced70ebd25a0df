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
