#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests.
#
#   scripts/postgres.sh start DIR   create and start a cluster in DIR (removed
#                                   first if a previous run left it), print
#                                   its libpq connection string and write it
#                                   to DIR/conninfo
#   scripts/postgres.sh stop DIR    stop the cluster in DIR and remove DIR
#   scripts/postgres.sh run CMD...  run CMD with a cluster of its own in a
#                                   temporary directory, with SIFT_POSTGRES
#                                   set to its connection string and
#                                   SIFT_REQUIRE_POSTGRES=1; exits with CMD's
#                                   status
#   scripts/postgres.sh start-sharded DIR   a coordinator and two shard
#                                   clusters in DIR (DIR/coordinator,
#                                   DIR/shard0, DIR/shard1), the coordinator
#                                   set up by scripts/postgres-sharded.sql
#                                   (postgres_fdw servers sift_shard_0 and
#                                   sift_shard_1, and the function
#                                   sift_create_distributed_table); prints the
#                                   coordinator's connection string and
#                                   writes it to DIR/conninfo
#   scripts/postgres.sh stop-sharded DIR    stop the three and remove DIR
#   scripts/postgres.sh run-sharded CMD...  run CMD with such clusters of
#                                   its own, with SIFT_POSTGRES_SHARDED set
#                                   to the coordinator's connection string
#                                   and SIFT_REQUIRE_SHARDED=1
#
# The cluster listens on 127.0.0.1 on a free port from 54329 upward (or
# from $SIFT_POSTGRES_PORT), with its unix socket inside DIR, trust
# authentication, superuser `postgres` and a database `sift_test`. It never
# uses the system's own clusters or their directories. Missing packages
# (postgresql, postgresql-contrib, libpq-dev) are installed with apt-get
# when run as root. As root the server runs as the `postgres` user;
# otherwise as the current user.
set -eu

PACKAGES="postgresql postgresql-contrib libpq-dev"
FIRST_PORT="${SIFT_POSTGRES_PORT:-54329}"
PORT_TRIES=50
DATABASE=sift_test
MARKER=.sift-postgres   # marks a directory as one of ours, safe to remove

die() { echo "postgres.sh: $*" >&2; exit 1; }

is_root() { [ "$(id -u)" = 0 ]; }

# The newest server installed under /usr/lib/postgresql (or $PG_BINDIR).
find_bindir() {
    if [ -n "${PG_BINDIR:-}" ]; then
        echo "$PG_BINDIR"
        return
    fi
    local d best=""
    for d in /usr/lib/postgresql/*/bin; do
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] || continue
        best="$d"
    done
    # The glob sorts versions in order: every supported one has two digits.
    echo "$best"
}

ensure_installed() {
    local p missing=""
    BINDIR="$(find_bindir)"
    if ! command -v dpkg-query > /dev/null; then
        [ -n "$BINDIR" ] || die "no initdb/pg_ctl under /usr/lib/postgresql/*/bin (set PG_BINDIR)"
        return
    fi
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
            || missing="$missing $p"
    done
    if [ -z "$missing" ] && [ -n "$BINDIR" ]; then
        return
    fi
    [ -n "$missing" ] || die "the packages are installed but there is no initdb/pg_ctl under /usr/lib/postgresql/*/bin (set PG_BINDIR)"
    if ! is_root; then
        die "missing:$missing (run 'sudo apt-get install$missing', or run as root)"
    fi
    echo "postgres.sh: installing$missing" >&2
    # Installing the server package may create and start Debian's default
    # cluster; that one is left alone (it listens on its own port).
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
    BINDIR="$(find_bindir)"
    [ -n "$BINDIR" ] || die "no initdb/pg_ctl under /usr/lib/postgresql/*/bin after installing"
}

# Runs a command as the cluster's owner: `postgres` when we are root.
as_owner() {
    if is_root; then
        (cd / && runuser -u postgres -- "$@")
    else
        "$@"
    fi
}

# True when something accepts TCP connections on 127.0.0.1:$1.
port_in_use() {
    (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null
}

absolute() {
    case "$1" in
        /*) echo "$1" ;;
        *) echo "$(pwd)/$1" ;;
    esac
}

# Refuses directories that are not ours: the system's clusters, and any
# non-empty directory without our marker.
check_ours() {
    local dir="$1"
    case "$dir" in
        / | /var/lib/postgresql | /var/lib/postgresql/* | /etc/postgresql | /etc/postgresql/* \
        | /var/run/postgresql | /var/run/postgresql/* | /run/postgresql | /run/postgresql/*)
            die "refusing to use $dir" ;;
    esac
    if [ -d "$dir" ] && [ ! -e "$dir/$MARKER" ] && [ -n "$(ls -A "$dir")" ]; then
        die "$dir is not empty and was not made by this script; refusing to remove it"
    fi
}

# Stops a cluster left in DIR, if any, and removes DIR.
remove_cluster() {
    local dir="$1"
    [ -e "$dir" ] || return 0
    check_ours "$dir"
    local pid=""
    if [ -f "$dir/data/postmaster.pid" ]; then
        pid="$(head -n 1 "$dir/data/postmaster.pid")"
    fi
    # Only a live postmaster needs stopping (one killed outright leaves its
    # postmaster.pid behind).
    if [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null; then
        local bindir
        bindir="${BINDIR:-$(find_bindir)}"
        if [ -n "$bindir" ]; then
            as_owner "$bindir/pg_ctl" -D "$dir/data" -m "${2:-fast}" -w -t 30 stop > /dev/null 2>&1 || true
        fi
    fi
    rm -rf "$dir"
}

start() {
    [ $# = 1 ] || die "usage: $0 start DIR"
    local dir
    dir="$(absolute "$1")"
    ensure_installed

    # A stale cluster from an earlier run: stop it (quickly) and remove it.
    # An empty directory (such as a fresh mktemp -d) is used as it is.
    check_ours "$dir"
    if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
        remove_cluster "$dir" immediate
    fi
    mkdir -p "$dir"
    touch "$dir/$MARKER"
    chmod 700 "$dir"
    if is_root; then
        chown -R postgres: "$dir"
        as_owner test -w "$dir" \
            || die "the postgres user cannot reach $dir; every directory above it must be searchable by that user"
    fi
    # The unix socket lives in DIR; its path must fit in sun_path.
    [ ${#dir} -le 90 ] || die "$dir is too long a path for a unix socket directory"

    as_owner "$BINDIR/initdb" -D "$dir/data" -U postgres --auth=trust \
        --encoding=UTF8 --locale=C.UTF-8 --no-sync --no-instructions \
        > "$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; die "initdb failed"; }

    local port="$FIRST_PORT" last=$((FIRST_PORT + PORT_TRIES)) started=""
    while [ "$port" -lt "$last" ]; do
        if ! port_in_use "$port"; then
            rm -f "$dir/server.log"
            # A durability-free server: the data is thrown away anyway.
            if as_owner "$BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
                -o "-c listen_addresses=127.0.0.1 -p $port -k '$dir' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
                start > /dev/null 2>&1; then
                started=1
                break
            fi
            # Lost a race for the port, or the server failed: the log tells.
            if ! grep -q "could not bind\|Address already in use" "$dir/server.log" 2> /dev/null; then
                cat "$dir/server.log" >&2 2> /dev/null || true
                die "the server did not start"
            fi
        fi
        port=$((port + 1))
    done
    [ -n "$started" ] || die "no free port in $FIRST_PORT..$((last - 1))"

    local conninfo="host=127.0.0.1 port=$port user=postgres dbname=$DATABASE"
    "$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -d "host=127.0.0.1 port=$port user=postgres dbname=postgres" \
        -c "CREATE DATABASE $DATABASE" > /dev/null \
        || die "could not create database $DATABASE"
    echo "$conninfo" > "$dir/conninfo"
    echo "$conninfo"
}

stop() {
    [ $# = 1 ] || die "usage: $0 stop DIR"
    local dir
    dir="$(absolute "$1")"
    remove_cluster "$dir" fast
}

# Where `run` puts its cluster: $SIFT_POSTGRES_TMPDIR if set, else /dev/shm
# when it is a roomy tmpfs (initdb there takes about half the time it takes
# on disk), else $TMPDIR or /tmp.
scratch_parent() {
    if [ -n "${SIFT_POSTGRES_TMPDIR:-}" ]; then
        echo "$SIFT_POSTGRES_TMPDIR"
        return
    fi
    local free
    if [ -d /dev/shm ] && [ -w /dev/shm ]; then
        free="$(df -Pk /dev/shm 2> /dev/null | awk 'NR == 2 { print $4 }')"
        if [ -n "$free" ] && [ "$free" -ge 1048576 ]; then
            echo /dev/shm
            return
        fi
    fi
    echo "${TMPDIR:-/tmp}"
}

run() {
    [ $# -ge 1 ] || die "usage: $0 run CMD..."
    run_with sift-pg start stop PostgreSQL SIFT_POSTGRES SIFT_REQUIRE_POSTGRES "$@"
}

# run_with NAME START STOP LABEL VARIABLE REQUIRED CMD...: runs CMD with
# the clusters that START makes in a temporary directory NAME.XXXXXX, with
# VARIABLE set to the connection string START prints and REQUIRED=1; STOP
# removes them however we leave: normal exit, Ctrl-C or kill (of the process
# group, as a terminal or make does; a signal to this script alone is acted
# on once CMD has finished). Exits with CMD's status.
run_with() {
    local name="$1" start_command="$2" label="$4" variable="$5" required="$6" conninfo status
    RUN_STOP="$3"
    shift 6
    RUN_DIR="$(mktemp -d "$(scratch_parent)/$name.XXXXXX")"
    trap '"$RUN_STOP" "$RUN_DIR"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    conninfo="$("$start_command" "$RUN_DIR")"
    echo "postgres.sh: $label at $conninfo" >&2
    set +e
    env "$variable=$conninfo" "$required=1" "$@"
    status=$?
    set -e
    exit "$status"
}

# The sharded profile: three clusters started one after the other by
# `start` (each initdb takes about a second), then the coordinator's
# servers and function (scripts/postgres-sharded.sql).
SHARDS="shard0 shard1"

start_sharded() {
    [ $# = 1 ] || die "usage: $0 start-sharded DIR"
    local dir name conninfo
    dir="$(absolute "$1")"
    ensure_installed
    check_ours "$dir"
    if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
        stop_sharded "$dir"
    fi
    mkdir -p "$dir"
    touch "$dir/$MARKER"
    chmod 755 "$dir"
    for name in $SHARDS coordinator; do
        conninfo="$(start "$dir/$name")"
    done
    "$BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -d "$conninfo" \
        -v shard0_port="$(port_of "$dir/shard0")" -v shard1_port="$(port_of "$dir/shard1")" \
        -v async_capable="${SIFT_ASYNC_CAPABLE:-false}" \
        -f "$(dirname "$0")/postgres-sharded.sql" > "$dir/setup.log" 2>&1 \
        || { cat "$dir/setup.log" >&2; die "could not set up the coordinator"; }
    echo "$conninfo" > "$dir/conninfo"
    echo "$conninfo"
}

# The port in the connection string a cluster's DIR/conninfo holds.
port_of() {
    sed -n 's/.*port=\([0-9]*\).*/\1/p' "$1/conninfo"
}

stop_sharded() {
    [ $# = 1 ] || die "usage: $0 stop-sharded DIR"
    local dir name
    dir="$(absolute "$1")"
    [ -e "$dir" ] || return 0
    check_ours "$dir"
    for name in coordinator $SHARDS; do
        remove_cluster "$dir/$name" fast
    done
    rm -rf "$dir"
}

run_sharded() {
    [ $# -ge 1 ] || die "usage: $0 run-sharded CMD..."
    run_with sift-pg-sharded start_sharded stop_sharded "sharded PostgreSQL (coordinator)" \
        SIFT_POSTGRES_SHARDED SIFT_REQUIRE_SHARDED "$@"
}

[ $# -ge 1 ] || die "usage: $0 start DIR | stop DIR | run CMD... | start-sharded DIR | stop-sharded DIR | run-sharded CMD..."
command="$1"
shift
case "$command" in
    start) start "$@" ;;
    stop) stop "$@" ;;
    run) run "$@" ;;
    start-sharded) start_sharded "$@" ;;
    stop-sharded) stop_sharded "$@" ;;
    run-sharded) run_sharded "$@" ;;
    *) die "unknown command $command (start DIR | stop DIR | run CMD... | start-sharded DIR | stop-sharded DIR | run-sharded CMD...)" ;;
esac
