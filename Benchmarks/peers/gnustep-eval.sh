#!/usr/bin/env bash
# Times GNUstep's -[NSArray filteredArrayUsingPredicate:] on the data set of
# EvalBenchmarks: the same 1,000,000 people, written as JSON by EvalProfile
# and loaded by nspred (--data) as NSDictionary/NSArray/NSString/NSNumber.
#
#   Benchmarks/peers/gnustep-eval.sh                 build if needed, then run
#   SKIP_APT=1 Benchmarks/peers/gnustep-eval.sh      never call apt-get
#   RUNS=3 REPS=3 Benchmarks/peers/gnustep-eval.sh   the defaults
#
# nspred is built by gnustep.sh (BUILD_ONLY=1) into Benchmarks/.build/peers/,
# and the JSON (~100 MB) is written there once. Each predicate runs in RUNS
# processes of REPS filteredArrayUsingPredicate: calls over all objects
# (`nspred --bench --parse-iters 1`; nspred filters once more as a warm-up).
# Loading the JSON takes about 10 s and 2 GB per process. The line printed
# per predicate is the median ns/object over all RUNS x REPS samples, with
# min–max and the match count.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
bench="$(cd "$here/.." && pwd)"
out="$bench/.build/peers"
RUNS=${RUNS:-3}
REPS=${REPS:-3}

BUILD_ONLY=1 "$here/gnustep.sh"
bin="$out/nspred"
data="$out/people.json"

if [ ! -s "$data" ]; then
  (cd "$bench" && swift build -c release --product EvalProfile >&2)
  "$bench/.build/release/EvalProfile" --json "$data" >&2
fi

# The formats of EvalBenchmarks. GNUstep 1.28 binds OR tighter than AND, so
# (5) is parenthesised to mean what Sift and Apple read.
formats=(
  "age > 30"
  "name BEGINSWITH[c] 'ab'"
  "name CONTAINS[cd] 'ery'"
  "ANY tags == 'x'"
  "(age > 30 AND score < 0.5) OR author.name == 'Ann'"
)

version=$(dpkg-query -W -f='${Version}' libgnustep-base1.28 2>/dev/null || echo "?")
echo "GNUstep Base $version filteredArrayUsingPredicate: on $(basename "$data")"
echo "$RUNS processes x $REPS reps; $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-55s %10s %20s %10s\n' "format" "ns/object" "min–max" "matched"
for f in "${formats[@]}"; do
  samples=""
  matched=""
  for _ in $(seq 1 "$RUNS"); do
    o=$("$bin" --bench --data "$data" --format "$f" --parse-iters 1 --reps "$REPS" 2>/dev/null)
    s=$(echo "$o" | sed -n 's/^{"rep".*"eval_ns": \([0-9.]*\).*/\1/p')
    [ -n "$s" ] || { echo "error: nspred --bench failed on: $f" >&2; exit 1; }
    samples="$samples $s"
    matched=$(echo "$o" | sed -n 's/.*"summary".*"matched": \([0-9]*\).*/\1/p')
  done
  echo "$samples" | tr ' ' '\n' | sed '/^$/d' | sort -g | awk -v f="$f" -v m="$matched" '
    { v[NR] = $1 }
    END {
      med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%-55s %10.1f %9.1f–%-10.1f %10s\n", f, med, v[1], v[NR], m
    }'
done
