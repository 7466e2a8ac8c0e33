#!/usr/bin/env bash
# scripts/timed.sh SECONDS COMMAND...
#
# Runs COMMAND. If it still runs after SECONDS, every test process under it
# (a *.xctest) gets SIGQUIT, on which a Swift program prints each thread's
# backtrace, so that a stalled test run says where it stalled; 60 seconds
# later everything under COMMAND gets SIGKILL, and the script fails.
# (`timeout` signals its own process group only, and `swift test` starts
# the test process in a group of its own.) The watchdog ends with the
# script, whichever way it ends (Ctrl-C included), and signals only
# processes that are still COMMAND's.
set -u
limit=$1
shift
script=$$

descendants() {
    local child
    for child in $(pgrep -P "$1"); do
        echo "$child"
        descendants "$child"
    done
}

# Whether `$1` is still the command this script started.
ours() {
    [ "$(ps -o ppid= -p "$1" 2>/dev/null | tr -d ' ')" = "$script" ]
}

"$@" &
pid=$!
(
    sleeper=
    trap 'kill $sleeper 2>/dev/null; exit 0' TERM
    sleep "$limit" &
    sleeper=$!
    wait "$sleeper"
    ours "$pid" || exit 0
    echo "timed.sh: still running after $limit s: $*" >&2
    for p in $(descendants "$pid"); do
        case "$(ps -o args= -p "$p" 2>/dev/null)" in
            *.xctest*) kill -QUIT "$p" 2>/dev/null ;;
        esac
    done
    sleep 60 &
    sleeper=$!
    wait "$sleeper"
    ours "$pid" || exit 0
    kill -KILL $(descendants "$pid") "$pid" 2>/dev/null
    exit 0
) &
watchdog=$!
trap 'kill "$watchdog" 2>/dev/null' EXIT
trap 'kill "$watchdog" "$pid" 2>/dev/null; exit 130' INT
trap 'kill "$watchdog" "$pid" 2>/dev/null; exit 143' TERM
wait "$pid"
status=$?
kill "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null
exit "$status"
