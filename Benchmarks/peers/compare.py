#!/usr/bin/env python3
"""Sift against its peers on the same data, side by side, in one run.

Every contender runs the five predicates of EvalBenchmarks over the same
generated people (EvalSupport's seeded generator; Go reads them as the JSON
EvalProfile writes), each in its own process, the contenders alternating in
a rotating order, ROUNDS times, each process timing REPS passes after a
warm-up. The table gives the median ns per object over all samples, the
spread (the lowest and highest per-process median), each contender's ratio
to Sift typed, the match counts and the peak memory of the process.

  Benchmarks/peers/compare.py                  1,000,000 people, 3 processes x 5 passes (make bench)
  Benchmarks/peers/compare.py --quick          2,000 people, 1 round, debug build (make bench-quick)
  Benchmarks/peers/compare.py --markdown FILE  also write the tables as Markdown
  Benchmarks/peers/compare.py --scaling        also: Sift per object from 10^3 to 10^7 people,
                                               and parse time for 1 to 5,000 terms

Contenders: hand-written Swift (inlined, and an opaque stored closure), Sift
typed, dynamic (`[Value]` dictionaries) and table (`ValueTable` of the same
dictionaries), Foundation #Predicate, SQLite with the lowered SQL (with
and without indexes on the compared columns), Go's expr (antonmedv/expr
from Debian) and GNUstep's NSPredicate on the same people as JSON
(`gnustep/filter.m`), each when its toolchain is installed (make bench-deps).
Parsing is measured for Sift, expr and GNUstep.
"""
import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
EXPR_SOURCE = "/usr/share/gocode/src/github.com/antonmedv/expr"

# name, label, how to run it
SWIFT = [
    ("hand", "hand-written, inlined", "inline"),
    ("opaque", "hand-written, stored closure", "opaque"),
    ("typed", "Sift typed", "typed"),
    ("dynamic", "Sift dynamic", "dynamic"),
    ("table", "Sift table", "table"),
    ("predicate", "#Predicate", "predicate"),
    ("converted", "Sift from #Predicate", "converted"),
    ("sqlite", "SQLite, no index", "sqlite"),
    ("sqlite-indexed", "SQLite, indexed", "sqlite-indexed"),
]
# Peers that cannot fold diacritics match fewer names in (3).
CASE_ONLY = {(3, "predicate"), (3, "goexpr"), (3, "gnustep")}
FORMATS = {
    1: "age > 30",
    2: "name BEGINSWITH[c] 'ab'",
    3: "name CONTAINS[cd] 'ery'",
    4: "ANY tags == 'x'",
    5: "age > 30 AND score < 0.5 OR author.name == 'Ann'",
}


def timed(cmd):
    """Runs one contender process: its samples, match count and peak
    resident memory in MB (from GNU time, when it is installed); None when
    the contender refuses the case (a #Predicate Sift does not convert)."""
    if os.path.exists("/usr/bin/time"):
        full = ["/usr/bin/time", "-f", "PEAK %M"] + cmd
        process = subprocess.run(full, capture_output=True, text=True)
        if process.returncode != 0:
            sys.exit(f"failed ({process.returncode}): {' '.join(cmd)}\n{process.stderr}")
        peak = 0.0
        for line in process.stderr.splitlines():
            if line.startswith("PEAK "):
                peak = int(line.split()[1]) / 1024.0
        out = process.stdout
    else:
        process = subprocess.run(cmd, capture_output=True, text=True)
        if process.returncode != 0:
            sys.exit(f"failed ({process.returncode}): {' '.join(cmd)}\n{process.stderr}")
        out, peak = process.stdout, float("nan")
    samples, matches = [], None
    for line in out.splitlines():
        if " refused: " in line:
            return None
        if line.startswith("samples "):
            samples = [float(x) for x in line.split()[1:]]
        for word in line.split():
            if word.startswith("matches="):
                matches = int(word.split("=")[1])
    if not samples:
        sys.exit(f"no samples from {' '.join(cmd)}:\n{out}")
    return samples, matches, peak


def build(quick):
    config = "debug" if quick else "release"
    print(f"building EvalProfile ({config})…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", config, "--product", "EvalProfile"], cwd=BENCH, check=True,
                   stdout=subprocess.DEVNULL)
    profile = os.path.join(BENCH, ".build", config, "EvalProfile")
    goexpr = None
    if shutil.which("go") and os.path.isdir(EXPR_SOURCE):
        goexpr = os.path.join(BENCH, ".build", "peers", "goexpr")
        os.makedirs(os.path.dirname(goexpr), exist_ok=True)
        env = dict(os.environ, GO111MODULE="off", GOPATH="/usr/share/gocode",
                   GOCACHE=os.path.join(BENCH, ".build", "peers", "gocache"))
        subprocess.run(["go", "build", "-o", goexpr, "."], cwd=os.path.join(HERE, "goexpr"), env=env, check=True)
    else:
        print("Go's expr is not installed (apt-get install golang-go golang-github-antonmedv-expr-dev): "
              "left out", file=sys.stderr)
    gnustep = None
    if shutil.which("gnustep-config") and shutil.which("gcc"):
        gnustep = os.path.join(BENCH, ".build", "peers", "gnustep-filter")
        os.makedirs(os.path.dirname(gnustep), exist_ok=True)
        flags = [f for f in subprocess.run(["gnustep-config", "--objc-flags"], capture_output=True, text=True,
                                           check=True).stdout.split() if f not in ("-MMD", "-MP")]
        libs = subprocess.run(["gnustep-config", "--base-libs"], capture_output=True, text=True,
                              check=True).stdout.split()
        subprocess.run(["gcc", "-x", "objective-c", "-std=gnu99", "-O2"] + flags
                       + [os.path.join(HERE, "gnustep", "filter.m"), "-o", gnustep] + libs, check=True)
    else:
        print("GNUstep is not installed (apt-get install gobjc libgnustep-base-dev gnustep-make): left out",
              file=sys.stderr)
    return profile, goexpr, gnustep


def fmt(x):
    if x != x:
        return "–"
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def scaling(profile, quick, problems):
    """Sift's time per object as the data grows (typed to 10^7 people,
    dynamic to 10^6, whose dictionaries take about 0.8 GB per million), and
    parse time as the predicate grows. Each cell is one process; small sizes
    get more passes (about 2 * 10^7 evaluations per cell), the median is
    shown."""
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000, 1_000_000, 10_000_000]
    largest = {"typed": sizes[-1], "dynamic": min(sizes[-1], 1_000_000)}
    lines = ["", "Scaling: Sift, ns per object (median of the passes) by the number of people; "
             "the last column is the largest size ÷ the smallest", ""]
    lines.append("| # | variant | " + " | ".join(f"{n:,}" for n in sizes) + " | largest ÷ 1,000 |")
    lines.append("|---|---|" + "---:|" * (len(sizes) + 1))
    for number in FORMATS:
        for variant in ("typed", "dynamic"):
            cells, medians = [], []
            for n in sizes:
                if n > largest[variant]:
                    cells.append("–")
                    continue
                reps = 2 if quick else max(5, min(20_000, 20_000_000 // n))
                samples, _, _ = timed([profile, "--variant", variant, "--case", str(number), "--n", str(n),
                                       "--reps", str(reps), "--samples"])
                medians.append(statistics.median(samples))
                cells.append(fmt(medians[-1]))
            lines.append(f"| {number} `{FORMATS[number]}` | {variant} | " + " | ".join(cells)
                         + f" | {medians[-1] / medians[0]:.2f}× |")
        print(f"scaling: case {number} done", file=sys.stderr)
    counts = [1, 10, 100] if quick else [1, 10, 100, 1_000, 5_000]
    lines += ["", "Scaling: Sift parse + bind of a predicate of K comparisons (the five cases' comparisons in "
              "turn, joined by AND and OR)", ""]
    lines.append("| terms | bytes | µs per parse | ns per term |")
    lines.append("|---:|---:|---:|---:|")
    per_term = []
    for k in counts:
        cmd = [profile, "--variant", "parse", "--n", "0", "--terms", str(k), "--reps", "2" if quick else "7",
               "--samples"]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        samples = [float(x) for line in out.splitlines() if line.startswith("samples ") for x in line.split()[1:]]
        size = next(w for line in out.splitlines() for w in [line.split(", ")[-1]] if "bytes" in line)
        m = statistics.median(samples)
        per_term.append(m / k)
        lines.append(f"| {k:,} | {size.split()[0]} | {m / 1000:,.2f} | {fmt(m / k)} |")
    if not quick and per_term[-1] > 3 * per_term[1]:
        problems.append(f"parse time per term grows: {per_term}")
    key_counts = [10, 100, 1_000] if quick else [10, 1_000, 10_000, 60_000]
    lines += ["", "Scaling: Sift parse + bind of one comparison of a key path of K keys (`a.a.a… == 1`, "
              "after an index `arr[0].a.a…`, after a variable `$x.a.a…`), ns per key", ""]
    lines.append("| keys | plain | indexed | variable |")
    lines.append("|---:|---:|---:|---:|")
    per_key = {}
    for k in key_counts:
        cells = []
        for shape in ("plain", "indexed", "variable"):
            cmd = [profile, "--variant", "parse", "--n", "0", "--keys", str(k), "--shape", shape,
                   "--reps", "2" if quick else "5", "--samples"]
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            samples = [float(x) for line in out.splitlines() if line.startswith("samples ") for x in line.split()[1:]]
            per_key.setdefault(shape, []).append(statistics.median(samples) / k)
            cells.append(fmt(per_key[shape][-1]))
        lines.append(f"| {k:,} | " + " | ".join(cells) + " |")
    for shape, values in per_key.items():
        if not quick and values[-1] > 3 * values[1]:
            problems.append(f"parse time per key grows ({shape}): {values}")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2,000 people, 1 round, 2 reps, debug build")
    parser.add_argument("--n", type=int, help="people (default 1,000,000; 2,000 with --quick)")
    parser.add_argument("--rounds", type=int, help="processes per contender and predicate (default 3)")
    parser.add_argument("--reps", type=int, help="timed passes per process (default 5)")
    parser.add_argument("--cases", default="1,2,3,4,5")
    parser.add_argument("--markdown", help="write the tables as Markdown to this file")
    parser.add_argument("--scaling", action="store_true",
                        help="also measure Sift from 10^3 to 10^7 objects and 1 to 5,000 terms (10^3-10^4 and "
                             "1-100 with --quick)")
    args = parser.parse_args()
    n = args.n or (2000 if args.quick else 1_000_000)
    rounds = args.rounds or (1 if args.quick else 3)
    reps = args.reps or (2 if args.quick else 5)
    cases = [int(c) for c in args.cases.split(",")]

    profile, goexpr, gnustep = build(args.quick)
    data = os.path.join(BENCH, ".build", "peers", f"people-{n}.json")
    if (goexpr or gnustep) and not os.path.exists(data):
        os.makedirs(os.path.dirname(data), exist_ok=True)
        subprocess.run([profile, "--json", data, "--n", str(n)], check=True, stdout=subprocess.DEVNULL)

    contenders = [(key, label, [profile, "--variant", v, "--n", str(n), "--reps", str(reps), "--samples"])
                  for key, label, v in SWIFT]
    if goexpr:
        contenders.append(("goexpr", "Go expr", [goexpr, "-data", data, "-reps", str(reps), "-samples"]))
    if gnustep:
        contenders.append(("gnustep", "GNUstep", [gnustep, "-data", data, "-reps", str(reps), "-samples"]))
    parsers = [("typed", "Sift parse + bind", [profile, "--variant", "parse", "--n", "0", "--reps", str(reps),
                                                "--samples"]),
               ("convert", "Sift from #Predicate", [profile, "--variant", "convert", "--n", "0", "--reps",
                                                    str(reps), "--samples"])]
    if goexpr:
        parsers.append(("goexpr", "Go expr compile", [goexpr, "-parse", "-reps", str(reps), "-samples"]))
    if gnustep:
        parsers.append(("gnustep", "GNUstep predicateWithFormat:", [gnustep, "-parse", "-reps", str(reps),
                                                                   "-samples"]))

    def case_args(key, number):
        if key == "gnustep":
            # GNUstep binds OR tighter than AND: (5) gets the parentheses
            # that make it mean what Apple and Sift read.
            text = "(age > 30 AND score < 0.5) OR author.name == 'Ann'" if number == 5 else FORMATS[number]
            return ["-case", str(number), "-format", text]
        return ["-case", str(number)] if key == "goexpr" else ["--case", str(number)]

    results = {}  # (kind, case, key) -> {"samples": [], "medians": [], "matches": set(), "peak": 0}
    started = time.time()
    for r in range(rounds):
        for number in cases:
            for kind, group in (("eval", contenders), ("parse", parsers)):
                order = group[r % len(group):] + group[:r % len(group)]
                for key, label, cmd in order:
                    result = timed(cmd + case_args(key, number))
                    entry = results.setdefault((kind, number, key), {"label": label, "samples": [], "medians": [],
                                                                      "matches": set(), "peak": 0.0})
                    if result is None:
                        entry["refused"] = True
                        continue
                    samples, matches, peak = result
                    entry["samples"] += samples
                    entry["medians"].append(statistics.median(samples))
                    entry["matches"].add(matches)
                    entry["peak"] = max(entry["peak"], peak)
        print(f"round {r + 1} of {rounds} done ({time.time() - started:.0f} s)", file=sys.stderr)

    lines = []
    cores = os.cpu_count()
    lines.append(f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, {cores} cores, N = {n:,} people, "
                 f"{rounds} process{'es' if rounds > 1 else ''} × {reps} passes per cell"
                 + (" (quick: debug build, not a measurement)" if args.quick else ""))
    lines.append("")
    lines.append("Evaluation, ns per object: median (lowest–highest process median), ratio to Sift typed "
                 "(> 1: slower than Sift)")
    lines.append("")
    keys = [c[0] for c in contenders]
    labels = {c[0]: c[1] for c in contenders}
    extra = " | GNUstep ÷ Sift dynamic | GNUstep ÷ Sift table" if gnustep else ""
    lines.append("| # | " + " | ".join(labels[k] for k in keys) + " | Sift typed ÷ inlined" + extra + " |")
    lines.append("|---|" + "---:|" * (len(keys) + 1 + (2 if gnustep else 0)))
    problems = []
    for number in cases:
        sift = statistics.median(results[("eval", number, "typed")]["samples"])
        cells = []
        for k in keys:
            e = results[("eval", number, k)]
            if e.get("refused"):
                cells.append("refused")
                continue
            m = statistics.median(e["samples"])
            spread = f" ({fmt(min(e['medians']))}–{fmt(max(e['medians']))})" if len(e["medians"]) > 1 else ""
            cells.append(f"{fmt(m)}{spread} · {m / sift:.2f}×")
            if len(e["matches"]) > 1:
                problems.append(f"case {number} {k}: match counts differ between processes {e['matches']}")
        floor = statistics.median(results[("eval", number, "hand")]["samples"])
        row = f"| {number} `{FORMATS[number]}` | " + " | ".join(cells) + f" | {sift / floor:.1f}×"
        if gnustep:
            peer = statistics.median(results[("eval", number, "gnustep")]["samples"])
            for variant in ("dynamic", "table"):
                row += f" | {peer / statistics.median(results[('eval', number, variant)]['samples']):.1f}×"
        lines.append(row + " |")
    lines.append("")
    lines.append("Matches (must agree, except where a peer cannot fold diacritics) and peak memory of the "
                 "process (MB, largest over its runs):")
    lines.append("")
    lines.append("| # | " + " | ".join(labels[k] for k in keys) + " |")
    lines.append("|---|" + "---:|" * len(keys))
    for number in cases:
        cells = []
        for k in keys:
            e = results[("eval", number, k)]
            if e.get("refused"):
                cells.append("refused")
                continue
            cells.append(f"{'/'.join(str(m) for m in sorted(e['matches']))} · {fmt(e['peak'])} MB")
        lines.append(f"| {number} | " + " | ".join(cells) + " |")
        agreeing = {k: results[("eval", number, k)]["matches"] for k in keys
                    if (number, k) not in CASE_ONLY and not results[("eval", number, k)].get("refused")}
        if len({frozenset(v) for v in agreeing.values()}) > 1:
            problems.append(f"case {number}: contenders disagree on matches: {agreeing}")
    lines.append("")
    lines.append("Parsing, ns per parse (Sift: parse and bind the format string; Sift from #Predicate: convert "
                 "the #Predicate to a filter; expr: compile the expression):")
    lines.append("")
    plabels = {p[0]: p[1] for p in parsers}
    lines.append("| # | " + " | ".join(plabels[k] for k in plabels) + " |")
    lines.append("|---|" + "---:|" * len(plabels))
    for number in cases:
        sift = statistics.median(results[("parse", number, "typed")]["samples"])
        cells = []
        for k in plabels:
            e = results[("parse", number, k)]
            if e.get("refused"):
                cells.append("refused")
                continue
            m = statistics.median(e["samples"])
            cells.append(f"{fmt(m)} · {m / sift:.2f}×")
        lines.append(f"| {number} | " + " | ".join(cells) + " |")
    if args.scaling:
        lines += scaling(profile, args.quick, problems)
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")
    for p in problems:
        print("problem: " + p, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
