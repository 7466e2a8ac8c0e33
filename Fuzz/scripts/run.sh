#!/bin/sh
# Runs fuzz targets one after another, each for SECONDS, on the corpus kept in
# Fuzz/.build/corpus/<target> (seeded from the conformance cases), and
# reports executions, speed and any crash. Exits non-zero if a target
# crashed, timed out or ran out of memory.
#
#   Fuzz/scripts/run.sh SECONDS TARGET...
#
# Build the targets first (see the Makefile's fuzz-build). Extra libFuzzer
# flags can be given in FUZZ_FLAGS (e.g. FUZZ_FLAGS=-jobs=2).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/.." && pwd)
seconds=$1
shift
bin="$here/.build/debug"
work="$here/.build"

cat "$root"/Tests/Fixtures/cases/*.jsonl | python3 "$here/scripts/seeds.py" "$work/seeds" "$@" || exit 1

# Swift's own crash backtracer would run inside AddressSanitizer's process:
# leave crashes to libFuzzer. Leak checking is off: Swift stores enum tags in
# pointer bits, which LeakSanitizer takes for lost memory.
SWIFT_BACKTRACE=enable=no
ASAN_OPTIONS=detect_leaks=0:${ASAN_OPTIONS:-}
export SWIFT_BACKTRACE ASAN_OPTIONS

status=0
for target in "$@"; do
    corpus="$work/corpus/$target"
    artifacts="$work/artifacts/$target"
    log="$work/logs/$target.log"
    mkdir -p "$corpus" "$artifacts" "$work/logs"
    echo "== $target: ${seconds}s (log: $log)"
    # shellcheck disable=SC2086
    "$bin/$target" "$corpus" "$work/seeds/$target" \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -detect_leaks=0 \
        -dict="$here/predicate.dict" -print_final_stats=1 -artifact_prefix="$artifacts/" ${FUZZ_FLAGS:-} \
        > "$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    files=$(find "$corpus" -type f | wc -l)
    echo "   ${runs:-?} executions, ${speed:-?}/s, corpus $files inputs"
    if [ $rc -ne 0 ]; then
        status=1
        echo "   FAILED (exit $rc):"
        # The broken property or the sanitizer's report, without the stacks.
        awk '/Fatal error|==ERROR|ERROR: libFuzzer/ { show = 1; shown = 0 }
             /Current stack trace|^    #[0-9]/ { show = 0 }
             show && shown++ < 25 { print }
             /Test unit written/ { print }' "$log" | sed 's/^/   | /'
        echo "   inputs that failed are in $artifacts/; reproduce with:"
        echo "   SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $bin/$target $artifacts/<file>"
    fi
done
exit $status
