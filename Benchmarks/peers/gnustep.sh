#!/usr/bin/env bash
# Builds the GNUstep NSPredicate peer (nspred) from ../shared/peers/gnustep,
# beside the repository checkout, and times NSPredicate predicateWithFormat:
# (parse only) on the three predicates that ParseBenchmarks also times.
#
#   Benchmarks/peers/gnustep.sh                 build if needed, then run
#   SKIP_APT=1 Benchmarks/peers/gnustep.sh      never call apt-get
#   RUNS=3 ITERS=100000 REPS=3 Benchmarks/peers/gnustep.sh
#   GNUSTEP_PEER_DIR=/path/to/gnustep Benchmarks/peers/gnustep.sh
#   BUILD_ONLY=1 Benchmarks/peers/gnustep.sh    build nspred and stop (gnustep-eval.sh uses this)
#
# The peer's sources stay where they are: nspred is compiled into
# Benchmarks/.build/peers/ (git-ignored). Each format runs in RUNS separate
# processes of REPS repetitions of ITERS parses; the line printed per format is
# the median over all RUNS x REPS samples, in µs per parse, with min–max.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
peer="${GNUSTEP_PEER_DIR:-$repo/../shared/peers/gnustep}"
out="$(cd "$here/.." && pwd)/.build/peers"
RUNS=${RUNS:-3}
ITERS=${ITERS:-100000}
REPS=${REPS:-3}

if [ ! -f "$peer/nspred.m" ]; then
  echo "error: GNUstep peer not found: expected $peer/nspred.m" >&2
  echo "       (the peer lives in shared/peers/gnustep beside the checkout;" >&2
  echo "        set GNUSTEP_PEER_DIR to point elsewhere)" >&2
  exit 1
fi
peer="$(cd "$peer" && pwd)"

# Debian 12 packages: GCC's Objective-C front end, GNUstep Base 1.28, and
# gnustep-config. Installed only when missing.
PKGS="gobjc libgnustep-base-dev gnustep-make"
if [ -z "${SKIP_APT:-}" ]; then
  missing=""
  for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    echo "installing:$missing" >&2
    $SUDO apt-get update >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $missing >&2
  fi
fi
command -v gnustep-config >/dev/null || { echo "error: gnustep-config not found (install gnustep-make)" >&2; exit 1; }

mkdir -p "$out"
bin="$out/nspred"
if [ ! -x "$bin" ] || [ "$peer/nspred.m" -nt "$bin" ]; then
  # gnustep-config --objc-flags adds -MMD -MP (dependency files); drop them.
  objc_flags=$(gnustep-config --objc-flags | sed -e 's/-MMD//' -e 's/-MP//')
  base_libs=$(gnustep-config --base-libs)
  # shellcheck disable=SC2086
  gcc -x objective-c -O2 $objc_flags "$peer/nspred.m" -o "$bin" $base_libs
  echo "built $bin" >&2
fi
[ -z "${BUILD_ONLY:-}" ] || exit 0

formats=(
  "age > 30"
  "name BEGINSWITH[c] 'ab'"
  "score > 50.0 AND ANY authors.age > 60"
)

version=$(dpkg-query -W -f='${Version}' libgnustep-base1.28 2>/dev/null || echo "?")
echo "GNUstep Base $version NSPredicate predicateWithFormat: (parse only)"
echo "$RUNS processes x $REPS reps x $ITERS parses; $(nproc) cores; $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-40s %12s %22s\n' "format" "µs/parse" "min–max (µs)"
for f in "${formats[@]}"; do
  samples=""
  for _ in $(seq 1 "$RUNS"); do
    # --n 1: one generated object, so the evaluation step takes no time.
    s=$("$bin" --bench --format "$f" --n 1 --parse-iters "$ITERS" --reps "$REPS" 2>/dev/null \
        | sed -n 's/.*"parse_ns": \([0-9.]*\).*/\1/p')
    [ -n "$s" ] || { echo "error: nspred --bench failed on: $f" >&2; exit 1; }
    samples="$samples $s"
  done
  echo "$samples" | tr ' ' '\n' | sed '/^$/d' | sort -g | awk -v f="$f" '
    { v[NR] = $1 }
    END {
      m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%-40s %12.2f %10.2f–%-10.2f\n", f, m / 1000, v[1] / 1000, v[NR] / 1000
    }'
done
