#!/bin/sh
# with_postgres.sh COMMAND...: runs COMMAND against a throwaway PostgreSQL
# cluster and removes the cluster afterwards, whatever COMMAND does.
# The cluster lives in a temporary folder: initdb there, a Unix socket there
# and no TCP listener (listen_addresses=''), trust authentication for the
# user "mintid". COMMAND gets its connection string in MINTID_PG.
# PostgreSQL refuses to run as root: as root, the server runs as nobody.
set -u

bindir=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ]; then
    echo "not ok 1 - PostgreSQL server programs not found (make deps installs postgresql)"
    exit 1
fi

# Under /tmp whatever TMPDIR says: the server user must reach it, and a
# socket path is limited to about 100 bytes.
dir=$(mktemp -d /tmp/mintid-pg.XXXXXX) || exit 1
if [ "$(id -u)" = 0 ]; then
    chown nobody "$dir"
    as_server() { runuser -u nobody -- "$@"; }
else
    as_server() { "$@"; }
fi

stop() {
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_server "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
    fi
    rm -rf "$dir"
}
trap stop EXIT
trap 'exit 1' INT TERM HUP

show_log() { sed 's/^/# /' "$1" 2>/dev/null; }

if ! as_server "$bindir/initdb" -D "$dir/data" -U mintid --auth=trust -E UTF8 --locale=C.UTF-8 \
        >"$dir/initdb.log" 2>&1; then
    echo "not ok 1 - initdb failed"
    show_log "$dir/initdb.log"
    exit 1
fi
# fsync off: the cluster is thrown away, and the suite must stay quick.
if ! as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off -c full_page_writes=off" \
        start >/dev/null 2>&1; then
    echo "not ok 1 - the PostgreSQL server did not start"
    show_log "$dir/data/server.log"
    exit 1
fi

MINTID_PG="host=$dir port=5432 user=mintid dbname=postgres" "$@"
status=$?
exit $status
