#!/usr/bin/env bash
# scripts/timed.sh SECONDS COMMAND...
#
# Runs COMMAND. If it still runs after SECONDS, every test process under it
# (a *.xctest) gets SIGQUIT, on which a Swift program prints each thread's
# backtrace, so that a stalled test run says where it stalled; 60 seconds
# later everything under COMMAND gets SIGKILL, and the script fails.
# (`timeout` signals its own process group only, and `swift test` starts
# the test process in a group of its own.)
set -u
limit=$1
shift

descendants() {
    local child
    for child in $(pgrep -P "$1"); do
        echo "$child"
        descendants "$child"
    done
}

"$@" &
pid=$!
(
    trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
    sleep "$limit" &
    sleeper=$!
    wait "$sleeper"
    echo "timed.sh: still running after $limit s: $*" >&2
    for p in $(descendants "$pid"); do
        case "$(ps -o args= -p "$p" 2>/dev/null)" in
            *.xctest*) kill -QUIT "$p" 2>/dev/null ;;
        esac
    done
    sleep 60 &
    sleeper=$!
    wait "$sleeper"
    kill -KILL $(descendants "$pid") "$pid" 2>/dev/null
    exit 0
) &
watchdog=$!
wait "$pid"
status=$?
kill "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null
exit "$status"
