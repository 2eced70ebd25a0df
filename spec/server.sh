# spec/server.sh: sourced by the stages that start a server of their own
# (spec/nginx/run.sh, spec/haproxy/run.sh): its processes, and a stop that
# leaves none of them running, whatever state they are in.

# alive PID: the process exists and is not a zombie
alive() {
    [ -e "/proc/$1" ] && ! grep -q ') Z ' "/proc/$1/stat" 2>/dev/null
}

# children PID: the processes whose parent is PID
children() {
    for stat in /proc/[0-9]*/stat; do
        read -r pid comm state ppid rest 2>/dev/null < "$stat" || continue
        [ "$ppid" = "$1" ] && echo "$pid"
    done
}

# stop_server NAME SIGNAL PID LEFT: SIGNAL to PID (the server's first
# process, a child of this shell) for a graceful stop, then SIGKILL to each
# process the command LEFT still prints after 10 s (named in a comment).
stop_server() {
    kill -"$2" "$3" 2>/dev/null
    i=0
    while [ -n "$($4)" ] && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    for pid in $($4); do
        echo "# $1 process $pid did not stop: killed"
        kill -KILL "$pid" 2>/dev/null
    done
    wait "$3" 2>/dev/null
}
