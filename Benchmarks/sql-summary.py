#!/usr/bin/env python3
"""Summarises SQLBenchmarks text output as Markdown tables.

  swift package --disable-sandbox benchmark --target SQLBenchmarks --no-progress > run1.txt
  python3 sql-summary.py run1.txt [run2.txt ...]

Each figure is the median over the files of the benchmark's p50 (with the
min-max of the per-file p50s when there are several files):

* lowering: µs and mallocs per `FetchSpecification.sql(in:dialect:)`, both dialects;
* queries: the lowered COUNT(*) (prepared at each run, and prepared once)
  and full select next to every hand-written
  form, and lowered / hand-written for each (the best hand-written form is
  the fastest one of the same run).
"""
import re
import statistics
import sys

UNITS = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}
TIME_UNITS = {"(ns)": 1, "(μs)": 1e3, "(us)": 1e3, "(ms)": 1e6, "(s)": 1e9}


def parse(path):
    """{benchmark name: {"ns": p50 ns, "mallocs": p50}}"""
    results = {}
    name = None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if re.match(r"^\d[csp]? (lower|count|select) ", line):
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
        p50 = float(cells[2].replace(",", "")) * scale
        if label.startswith("Time (wall clock)"):
            for u, f in TIME_UNITS.items():
                if u in label:
                    p50 *= f
            results[name]["ns"] = p50
        elif label.startswith("Malloc (total)"):
            results[name]["mallocs"] = p50
    return results


def us(ns):
    v = ns / 1e3
    if v >= 100:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def main(paths):
    runs = [parse(p) for p in paths]

    def values(name, key="ns"):
        return [r[name][key] for r in runs if name in r and key in r[name]]

    def cell(name, key="ns"):
        v = values(name, key)
        if not v:
            return "–"
        text = us(statistics.median(v)) if key == "ns" else f"{statistics.median(v):.0f}"
        if len(v) > 1 and key == "ns":
            text += f" ({us(min(v))}–{us(max(v))})"
        return text

    names = []
    for r in runs:
        for n in r:
            if n not in names:
                names.append(n)

    cases = {}
    for n in names:
        m = re.match(r"^(\d) lower (\w+): (.*)$", n)
        if m:
            c = cases.setdefault(m.group(1), {"format": m.group(3), "lower": {}, "c": {}, "p": {}, "s": {}})
            c["lower"][m.group(2)] = n
            continue
        m = re.match(r"^(\d)([csp]) (?:count|select) (lowered|hand-written(?: ([^:]+))?): (.*)$", n)
        if m:
            c = cases.setdefault(m.group(1), {"format": "", "lower": {}, "c": {}, "p": {}, "s": {}})
            key = "lowered" if m.group(3) == "lowered" else (m.group(4) or "hand-written")
            c[m.group(2)][key] = n
            if m.group(3) == "lowered":
                c["format"] = m.group(5)

    print(f"Lowering, µs per request (p50, median of {len(runs)} run(s)), and mallocs per request:\n")
    print("| # | predicate | SQLite | mallocs | PostgreSQL | mallocs |")
    print("|---|---|---:|---:|---:|---:|")
    for k in sorted(cases):
        c = cases[k]
        s, p = c["lower"].get("sqlite"), c["lower"].get("postgres")
        print(f"| {k} | `{c['format']}` | {cell(s) if s else '–'} | {cell(s, 'mallocs') if s else '–'} "
              f"| {cell(p) if p else '–'} | {cell(p, 'mallocs') if p else '–'} |")

    for kind, title in (("c", "COUNT(*)"), ("p", "COUNT(*), each statement prepared once and reused"),
                        ("s", "full select, ids fetched")):
        print(f"\n{title}, µs per query (p50, median of {len(runs)} run(s)); ratio = lowered / hand-written:\n")
        print("| # | predicate | lowered | hand-written form | hand-written | ratio |")
        print("|---|---|---:|---|---:|---:|")
        for k in sorted(cases):
            c = cases[k]
            lowered = c[kind].get("lowered")
            if not lowered or not values(lowered):
                continue
            low = statistics.median(values(lowered))
            forms = [(f, n) for f, n in c[kind].items() if f != "lowered" and values(n)]
            best = min((statistics.median(values(n)) for _, n in forms), default=None)
            for i, (form, n) in enumerate(forms):
                h = statistics.median(values(n))
                mark = " (best)" if len(forms) > 1 and h == best else ""
                first = i == 0
                print(f"| {k if first else ''} | {'`' + c['format'] + '`' if first else ''} "
                      f"| {cell(lowered) if first else ''} | {form}{mark} | {cell(n)} | **{low / h:.2f}×** |")


if __name__ == "__main__":
    main(sys.argv[1:])
