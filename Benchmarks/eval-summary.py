#!/usr/bin/env python3
"""Summarises EvalBenchmarks text output (run with --scale, so values are per
iteration of 1,000,000 objects) as ns/object.

  swift package --disable-sandbox benchmark --target EvalBenchmarks --no-progress --scale > run1.txt
  python3 eval-summary.py run1.txt [run2.txt ...]

For each benchmark: the median over the files of the p50 wall clock, in
ns/object, with the min-max of the per-file p50s; for the memory benchmarks,
the p50 peak resident memory, its growth during the run, and mallocs/object.
"""
import re
import statistics
import sys

N = 1_000_000
UNITS = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}


def number(text, scale):
    return float(text.replace(",", "")) * scale


def parse(path):
    results = {}
    name = None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if re.match(r"^\d[a-z]\d? ", line):
            name = line.strip()
            results.setdefault(name, {})
            continue
        m = re.match(r"^│ (.+?)\s+│(.*)│\s*$", line)
        if not m or name is None or m.group(1).startswith("Metric"):
            continue
        label = m.group(1).strip()
        cells = [c.strip() for c in m.group(2).split("│")]
        unit = re.search(r"\((K|M|G)\)", label)
        scale = UNITS[unit.group(1)] if unit else 1
        if label.startswith("Time (wall clock)"):
            if "(μs)" in label:
                scale = 1e3
            elif "(ms)" in label:
                scale = 1e6
            results[name]["ns"] = number(cells[2], scale) / N
        elif label.startswith("Malloc (total)"):
            results[name]["mallocs"] = number(cells[2], scale) / N
        elif label.startswith("Memory (resident peak)"):
            results[name]["peak"] = number(cells[2], scale)
        elif label.startswith("Memory Δ (resident peak)"):
            results[name]["delta"] = number(cells[2], scale)
    return results


def main(paths):
    runs = [parse(p) for p in paths]
    names = []
    for r in runs:
        for n in r:
            if n not in names:
                names.append(n)
    for n in names:
        rows = [r[n] for r in runs if n in r]
        times = [r["ns"] for r in rows if "ns" in r]
        if times:
            med = statistics.median(times)
            print(f"{med:10.2f} ns/object  ({min(times):.2f}–{max(times):.2f}, {len(times)} runs)  {n}")
        if any("peak" in r for r in rows):
            peak = statistics.median(r["peak"] for r in rows if "peak" in r) / 1e6
            delta = statistics.median(r.get("delta", 0) for r in rows) / 1e6
            mallocs = statistics.median(r.get("mallocs", 0) for r in rows)
            print(f"{'':10} peak {peak:.0f} MB, growth {delta:.0f} MB, {mallocs:.3f} mallocs/object  {n}")


if __name__ == "__main__":
    main(sys.argv[1:])
