#!/usr/bin/env bash
# Callgrind profile of one predicate evaluated by EvalProfile (release build).
# Only the passes over the data are measured (--toggle-collect on
# EvalProfile's measured(_:)), not the data generation. Prints the top
# functions by inclusive and by self instruction count, demangled, and Ir per
# object.
#
#   Benchmarks/Tools/profile.sh CASE [VARIANT] [N] [REPS] [TOP]
#   Benchmarks/Tools/profile.sh 4                     # ANY tags == 'x', typed, 100,000 x 20
#   Benchmarks/Tools/profile.sh 5 dynamic 100000 20
#
# VARIANT is an EvalProfile variant: typed (TypedFilter count(where:), the
# default), filter, dynamic (CompiledFilter over Value dictionaries), inline,
# hand, opaque, predicate. Output: Benchmarks/.build/profile/<variant><case>.out
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$(cd "$here/.." && pwd)"
CASE=${1:?case 1-5}
VARIANT=${2:-typed}
N=${3:-100000}
REPS=${4:-20}
TOP=${5:-20}

(cd "$bench" && swift build -c release --product EvalProfile >&2)
bin="$bench/.build/release/EvalProfile"
# EvalProfile runs each pass inside measured(_:); collect only in there.
sym=$(nm "$bin" | awk '{ print $3 }' | grep -E '^\$s11EvalProfile8measured' | head -n 1)
[ -n "$sym" ] || { echo "error: EvalProfile.measured(_:) not found in $bin" >&2; exit 1; }
mkdir -p "$bench/.build/profile"
out="$bench/.build/profile/$VARIANT$CASE.out"

valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$sym" \
  "$bin" --case "$CASE" --variant "$VARIANT" --n "$N" --reps "$REPS" 2>"$out.log"
total=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)/\1/p' "$out.log")
echo "Ir measured: $total over $((N * REPS)) evaluations = $((total / (N * REPS))) Ir/object"

# callgrind_annotate prints "Ir (pct)  file:function [object]"; the same
# function can appear under several files (inlined code), so entries are
# merged by function: self counts are added, inclusive counts take the largest.
top() {
  callgrind_annotate --auto=no --inclusive="$1" --threshold=100 "$out" 2>/dev/null \
    | python3 -c '
import re, sys
inclusive, top, n, total = sys.argv[1] == "yes", int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
counts = {}
for line in sys.stdin:
    m = re.match(r"^\s*([0-9,]+) \(\s*[0-9.]+%\)\s+(.*?)(?: \[[^]]*\])?$", line)
    if not m or "PROGRAM TOTALS" in line:
        continue
    ir, where = int(m.group(1).replace(",", "")), m.group(2)
    fn = where.split(":", 1)[1] if ":" in where else where
    counts[fn] = max(counts.get(fn, 0), ir) if inclusive else counts.get(fn, 0) + ir
if inclusive:
    # Leave out the frames above measured(_:) (main, libc start...).
    counts = {f: ir for f, ir in counts.items() if ir < total or "8measured" in f}
for fn, ir in sorted(counts.items(), key=lambda kv: -kv[1])[:top]:
    print(f"{ir:>14,} {100 * ir / total:6.2f}% {ir / n:8.1f}/obj  {fn}")
' "$1" "$TOP" $((N * REPS)) "$total" | swift demangle --simplified
}
echo; echo "top $TOP by inclusive Ir (% of the Ir measured):"; top yes
echo; echo "top $TOP by self Ir:"; top no
