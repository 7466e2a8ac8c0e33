#!/usr/bin/env python3
"""`sift filter` on a real-size JSON file against the tools people would
pick instead, side by side, in one run.

The same generated people (id, a name with non-ASCII letters, age, score,
tags, and an author object that is sometimes null) are written once as JSON
Lines and once as one JSON array. Every contender counts the records that
match the same three predicates, each in its own process, the contenders
alternating in a rotating order, ROUNDS times. The table gives each
contender's median wall-clock time over its processes (startup, reading and
parsing included: what a user waits for), the spread (lowest-highest), its
peak resident memory, and its ratio to `sift filter` (> 1: slower than Sift).
Every contender's count must equal Sift's, or the run fails.

  Benchmarks/peers/files.py                  1,000,000 people, 3 rounds, release build (make bench)
  Benchmarks/peers/files.py --quick          2,000 people, 1 round, debug build (make bench-quick)
  Benchmarks/peers/files.py --markdown FILE  also write the table as Markdown

Contenders: `sift filter FORMAT FILE --count`; DuckDB (`read_json`, from
PyPI, in a virtual environment under Benchmarks/.build); Python with orjson,
a loop over the lines (or over the parsed array); jq and gojq (Debian), each
left out with a note when it is not installed (make bench-deps installs
them).
"""
import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
BUILD = os.path.join(BENCH, ".build", "files")
VENV = os.path.join(BENCH, ".build", "venv")
# Pinned, so that a ratio means the same from one run to the next.
PYPI = ["duckdb==2.0.0", "orjson==3.13.0"]

# The predicates, as Sift writes them, and as each peer does. The names are
# made so that case folding agrees everywhere: every 'ann' in any case is
# ASCII, the non-ASCII letters are elsewhere in the names.
PREDICATES = [
    {
        "sift": "age > 30",
        "sql": "age > 30",
        "python": lambda r: r["age"] > 30,
        "jq": ".age > 30",
    },
    {
        "sift": "name CONTAINS[c] 'ann'",
        "sql": "lower(name) LIKE '%ann%'",
        "python": lambda r: "ann" in r["name"].lower(),
        "jq": '(.name | ascii_downcase | contains("ann"))',
    },
    {
        "sift": "age > 30 AND score < 0.5 OR author.name == 'Ann'",
        "sql": "(age > 30 AND score < 0.5) OR author.name = 'Ann'",
        "python": lambda r: (r["age"] > 30 and r["score"] < 0.5) or (r["author"] or {}).get("name") == "Ann",
        "jq": '(.age > 30 and .score < 0.5) or .author.name == "Ann"',
    },
]

FIRST = ["Ann", "Anneliese", "JOANNA", "Zoë", "Åsa", "Björn", "Chloé", "Dmitrij", "Émile", "Jürgen", "Léa",
         "Marianne", "Noémie", "Øyvind", "Søren", "Ümit", "Zdeněk", "Łukasz", "Bob", "Cid"]
LAST = ["Ångström", "Brontë", "Müller", "Núñez", "Østergaard", "Dvořák", "Smith", "Hanna", "Lee", "Çelik"]
TAGS = ["x", "y", "z", "swift", "linux", "db", "json", "café"]


def generate(n, lines_path, array_path):
    """Writes n people as JSON Lines and as a JSON array (seeded: the same
    file on every machine)."""
    rng = random.Random(20261124)
    os.makedirs(os.path.dirname(lines_path), exist_ok=True)
    with open(lines_path + ".tmp", "w", encoding="utf-8") as lines, \
            open(array_path + ".tmp", "w", encoding="utf-8") as array:
        array.write("[\n")
        for i in range(n):
            author = None if rng.random() < 0.2 else {"name": rng.choice(FIRST), "born": rng.randint(1900, 2000)}
            record = {
                "id": i,
                "name": rng.choice(FIRST) + " " + rng.choice(LAST),
                "age": rng.randint(0, 99),
                "score": round(rng.random(), 6),
                "tags": rng.sample(TAGS, rng.randint(0, 4)),
                "author": author,
            }
            text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            lines.write(text + "\n")
            array.write(("" if i == 0 else ",\n") + text)
        array.write("\n]\n")
    os.replace(lines_path + ".tmp", lines_path)
    os.replace(array_path + ".tmp", array_path)


def python_venv(quick):
    """The virtual environment with DuckDB and orjson: its python, or None
    (with the reason on standard error) when it cannot be made."""
    python = os.path.join(VENV, "bin", "python")
    check = "import duckdb, orjson, sys; sys.exit(duckdb.__version__ + ' ' + orjson.__version__ != '2.0.0 3.13.0')"
    if os.path.exists(python) and subprocess.run([python, "-c", check], capture_output=True).returncode == 0:
        return python
    print("installing " + " ".join(PYPI) + " into Benchmarks/.build/venv…", file=sys.stderr)
    made = subprocess.run([sys.executable, "-m", "venv", "--clear", VENV], capture_output=True, text=True)
    if made.returncode == 0:
        made = subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + PYPI,
                              capture_output=True, text=True)
    if made.returncode != 0:
        print("DuckDB and orjson could not be installed (" + (made.stderr.strip().splitlines() or ["?"])[-1]
              + "): left out", file=sys.stderr)
        return None
    return python


def build_sift(quick):
    config = "debug" if quick else "release"
    print(f"building sift ({config})…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", config, "--product", "sift"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(ROOT, ".build", config, "sift")


def commands(sift, python, path, form, predicate):
    """Each contender's command line for one file and predicate: key,
    label, argv. Each prints the count."""
    out = [("sift", "sift filter", [sift, "filter", predicate["sift"], path, "--count"])]
    if python:
        fmt = "newline_delimited" if form == "lines" else "array"
        sql = f"SELECT count(*) FROM read_json('{path}', format='{fmt}') WHERE {predicate['sql']}"
        out.append(("duckdb", "DuckDB", [python, "-c", f"import duckdb; print(duckdb.sql({sql!r}).fetchall()[0][0])"]))
        index = PREDICATES.index(predicate)
        out.append(("orjson", "Python + orjson", [python, os.path.join(HERE, "files_orjson.py"), path, form,
                                                  str(index)]))
    for tool in ("jq", "gojq"):
        if shutil.which(tool):
            program = f"reduce ({'inputs' if form == 'lines' else '.[]'} | select({predicate['jq']})) as $x (0; . + 1)"
            argv = [tool, "-n", program, path] if form == "lines" else [tool, program, path]
            out.append((tool, tool, argv))
    return out


def timed(argv):
    """Runs one process: seconds, peak resident MB, and the count it printed."""
    time_tool = os.path.exists("/usr/bin/time")
    full = (["/usr/bin/time", "-f", "PEAK %M"] if time_tool else []) + argv
    started = time.perf_counter()
    process = subprocess.run(full, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    # sift exits with 1 when nothing matches; that is still a count.
    if process.returncode not in (0, 1) or not process.stdout.strip():
        sys.exit(f"failed ({process.returncode}): {' '.join(argv)}\n{process.stderr}")
    peak = float("nan")
    for line in process.stderr.splitlines():
        if line.startswith("PEAK "):
            peak = int(line.split()[1]) / 1024.0
    return seconds, peak, int(process.stdout.strip().splitlines()[-1])


def fmt(x):
    if x != x:
        return "–"
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2,000 people, 1 round, debug build")
    parser.add_argument("--n", type=int, help="people (default 1,000,000; 2,000 with --quick)")
    parser.add_argument("--rounds", type=int, help="processes per contender, file and predicate (default 3)")
    parser.add_argument("--markdown", help="write the table as Markdown to this file")
    args = parser.parse_args()
    n = args.n or (2000 if args.quick else 1_000_000)
    rounds = args.rounds or (1 if args.quick else 3)

    sift = build_sift(args.quick)
    python = python_venv(args.quick)
    lines_path = os.path.join(BUILD, f"people-{n}.jsonl")
    array_path = os.path.join(BUILD, f"people-{n}.json")
    if not (os.path.exists(lines_path) and os.path.exists(array_path)):
        print(f"writing {n:,} people…", file=sys.stderr)
        generate(n, lines_path, array_path)
    files = [("lines", "JSON Lines", lines_path), ("array", "JSON array", array_path)]

    results = {}  # (form, predicate index, key) -> {"label", "seconds": [], "peak", "counts": set()}
    started = time.time()
    for r in range(rounds):
        for form, _, path in files:
            for index, predicate in enumerate(PREDICATES):
                group = commands(sift, python, path, form, predicate)
                for key, label, argv in group[r % len(group):] + group[:r % len(group)]:
                    seconds, peak, count = timed(argv)
                    entry = results.setdefault((form, index, key), {"label": label, "seconds": [], "peak": 0.0,
                                                                    "counts": set()})
                    entry["seconds"].append(seconds)
                    entry["peak"] = max(entry["peak"], peak) if peak == peak else entry["peak"]
                    entry["counts"].add(count)
        print(f"round {r + 1} of {rounds} done ({time.time() - started:.0f} s)", file=sys.stderr)

    problems = []
    size = os.path.getsize(lines_path) / 1e6
    out = [f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, N = {n:,} people "
           f"({size:,.1f} MB of JSON Lines), {rounds} process{'es' if rounds > 1 else ''} per cell"
           + (" (quick: debug build, not a measurement)" if args.quick else ""), "",
           "Counting the matches of a file: seconds, median (lowest–highest), peak memory in MB, "
           "ratio to `sift filter` (> 1: slower than Sift)", ""]
    header = "| input | contender | " + " | ".join(f"`{p['sift']}`" for p in PREDICATES) + " | peak MB |"
    out += [header, "|---|---|" + "---:|" * (len(PREDICATES) + 1)]
    for form, form_label, _ in files:
        keys = []
        for (f, _, key) in results:
            if f == form and key not in keys:
                keys.append(key)
        for key in keys:
            cells, peak, label = [], 0.0, key
            for index in range(len(PREDICATES)):
                entry = results[(form, index, key)]
                label = entry["label"]
                sift_entry = results[(form, index, "sift")]
                median = statistics.median(entry["seconds"])
                ratio = median / statistics.median(sift_entry["seconds"])
                spread = f"{fmt(min(entry['seconds']))}–{fmt(max(entry['seconds']))}"
                cells.append(f"{fmt(median)} ({spread})" + ("" if key == "sift" else f" **{ratio:.1f}×**"))
                peak = max(peak, entry["peak"])
                if entry["counts"] != sift_entry["counts"]:
                    problems.append(f"{label} on {form_label}, `{PREDICATES[index]['sift']}`: counted "
                                    f"{sorted(entry['counts'])}, sift {sorted(sift_entry['counts'])}")
            out.append(f"| {form_label} | {label} | " + " | ".join(cells) + f" | {fmt(peak)} |")
    counts = ", ".join(f"`{p['sift']}` {sorted(results[('lines', i, 'sift')]['counts'])[0]:,}"
                       for i, p in enumerate(PREDICATES))
    out += ["", f"Matches: {counts}."]
    text = "\n".join(out)
    print(text)
    if args.markdown:
        os.makedirs(os.path.dirname(os.path.abspath(args.markdown)), exist_ok=True)
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if problems:
        sys.exit("contenders disagree with sift:\n  " + "\n  ".join(problems))


if __name__ == "__main__":
    main()
