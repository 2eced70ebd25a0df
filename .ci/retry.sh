#!/bin/sh
# .ci/retry.sh CMD [ARG...]: runs CMD, and again after 15, 30, 60 and 120 s
# while it fails (RETRY_TRIES tries in all, 5 unless set). Debian's mirrors
# fail now and then for minutes at a time ("File has unexpected size ...
# Mirror sync in progress?" from apt-get update): a fresh machine's set-up
# waits those out instead of failing CI.
set -u
wait=15
tries=1
max=${RETRY_TRIES:-5}
while :; do
    "$@" && exit 0
    status=$?
    if [ "$tries" -ge "$max" ]; then
        echo "retry.sh: $1 failed $tries times, last with exit status $status" >&2
        exit "$status"
    fi
    echo "retry.sh: $1 failed (exit status $status), trying again in $wait s" >&2
    sleep "$wait"
    tries=$((tries + 1))
    wait=$((wait * 2))
done
