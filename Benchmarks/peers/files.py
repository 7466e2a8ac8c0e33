#!/usr/bin/env python3
"""`sift filter` on a real-size JSON file against the tools people would
pick instead, side by side, in one run.

The same generated people (id, a name with non-ASCII letters, age, score,
tags, and an author object that is sometimes null) are written once as JSON
Lines and once as one JSON array. Every contender counts the records that
match the same three predicates, each written in its own dialect, the
contenders alternating in a rotating order, ROUNDS times (default 5).

Each contender is timed as a user meets it. A command-line tool (`sift
filter`, jq, gojq, and Python with orjson, a script) is timed whole
process: a process per run, from its start to its exit, startup, reading
and parsing included. An engine used from a program (DuckDB, DataFusion,
Polars, chDB) is timed in process: one warm session per engine
(files_engines.py: the module imported, the connection made and a first
query run on a one-record file, all untimed), then the query alone, from
the file's path to the count (reading the file and inferring its schema
included). The table says which is which, and gives each contender's median
seconds, the spread (lowest-highest), its peak resident memory (of the
process, or of the session's process during the query), and its ratio to
`sift filter` (> 1: slower than Sift). Every contender's count must equal
Sift's, or the run fails.

  Benchmarks/peers/files.py                  1,000,000 people, 5 rounds, release build (make bench)
  Benchmarks/peers/files.py --quick          2,000 people, 1 round, debug build (make bench-quick)
  Benchmarks/peers/files.py --markdown FILE  also write the table as Markdown

Contenders: `sift filter FORMAT FILE --count`; DuckDB (`read_json`),
DataFusion (an external table of format JSON; for an array
`format.newline_delimited` false, read in one range, as DataFusion cannot
split an array between its threads), Polars (`scan_ndjson` for JSON Lines,
`read_json` for an array, which it reads only whole) and chDB (ClickHouse's
`file()` with JSONEachRow, which reads both); Python with orjson, a loop
over the lines (or over the parsed array); jq and gojq (Debian). The Python packages come
from PyPI, pinned (PYPI), into a virtual environment under
Benchmarks/.build; jq and gojq from make bench-deps. Each one that is not
installed, or cannot be, is left out with a note under the table.

--quick (make bench-quick, part of make test) installs and runs them all
too: in a new environment without pip's cache, the pinned packages took 18
to 22 s to install against 5 s for DuckDB and orjson alone (55 s against
15 s while a release build had both cores), and take 1.3 GB against 93 MB
(chDB's ClickHouse, pyarrow and Polars); the whole --quick run, sift built,
28 s against 9 s.
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
import tempfile
import time

# Numbers in the tables as compare.py writes them (this folder is on the path
# of a script run from it).
from compare import fmt

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
ROOT = os.path.dirname(BENCH)
BUILD = os.path.join(BENCH, ".build", "files")
VENV = os.path.join(BENCH, ".build", "venv")
# Pinned, so that a ratio means the same from one run to the next: the
# engines and the libraries they read through (pyarrow for DataFusion's
# results and chDB's, chdb-core for ClickHouse itself).
PYPI = {"duckdb": "2.0.0", "orjson": "3.13.0", "datafusion": "55.0.0", "polars": "2.1.0", "chdb": "4.4.0",
        "chdb-core": "26.9.0", "pyarrow": "26.0.1"}
# The in-process engines (Benchmarks/peers/files_engines.py): key, label,
# the packages each needs.
ENGINES = [("duckdb", "DuckDB", ["duckdb"]), ("datafusion", "DataFusion", ["datafusion", "pyarrow"]),
           ("polars", "Polars", ["polars"]), ("chdb", "chDB", ["chdb", "chdb-core", "pyarrow"])]

# The predicates, as Sift writes them, and as each peer does. The names are
# made so that case folding agrees everywhere: every 'ann' in any case is
# ASCII, the non-ASCII letters are elsewhere in the names.
PREDICATES = [
    {
        "sift": "age > 30",
        "duckdb": "age > 30",
        "datafusion": "age > 30",
        "polars": lambda pl: pl.col("age") > 30,
        "clickhouse": "age > 30",
        "python": lambda r: r["age"] > 30,
        "jq": ".age > 30",
    },
    {
        "sift": "name CONTAINS[c] 'ann'",
        "duckdb": "lower(name) LIKE '%ann%'",
        "datafusion": "name ILIKE '%ann%'",
        "polars": lambda pl: pl.col("name").str.to_lowercase().str.contains("ann", literal=True),
        "clickhouse": "name ILIKE '%ann%'",
        "python": lambda r: "ann" in r["name"].lower(),
        "jq": '(.name | ascii_downcase | contains("ann"))',
    },
    {
        # author is null in about a fifth of the records: its name is then
        # null, and null = 'Ann' is not true, in every engine.
        "sift": "age > 30 AND score < 0.5 OR author.name == 'Ann'",
        "duckdb": "(age > 30 AND score < 0.5) OR author.name = 'Ann'",
        "datafusion": "(age > 30 AND score < 0.5) OR author['name'] = 'Ann'",
        "polars": lambda pl: ((pl.col("age") > 30) & (pl.col("score") < 0.5))
        | (pl.col("author").struct.field("name") == "Ann"),
        "clickhouse": "(age > 30 AND score < 0.5) OR tupleElement(author, 'name') = 'Ann'",
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


def python_venv():
    """The virtual environment under Benchmarks/.build/venv, with every
    package of PYPI that can be installed (one that cannot is left out, with
    the reason on standard error): its python and the names of the packages
    in it at their pinned versions; or None and nothing when the environment
    cannot be made."""
    python = os.path.join(VENV, "bin", "python")
    check = ("import importlib.metadata as m, json\n"
             "def version(name):\n"
             "    try:\n"
             "        return m.version(name)\n"
             "    except m.PackageNotFoundError:\n"
             "        return None\n"
             f"print(json.dumps([n for n, v in {PYPI!r}.items() if version(n) == v]))")

    def installed():
        done = subprocess.run([python, "-c", check], capture_output=True, text=True)
        return set(json.loads(done.stdout)) if done.returncode == 0 else set()

    have = installed() if os.path.exists(python) else set()
    missing = [name for name in PYPI if name not in have]
    if not missing:
        return python, have
    pins = [f"{name}=={PYPI[name]}" for name in missing]
    print("installing " + " ".join(pins) + " into Benchmarks/.build/venv…", file=sys.stderr)
    if not os.path.exists(python):
        made = subprocess.run([sys.executable, "-m", "venv", "--clear", VENV], capture_output=True, text=True)
        if made.returncode != 0:
            print("no virtual environment (" + (made.stderr.strip().splitlines() or ["?"])[-1]
                  + "): DuckDB, orjson, DataFusion, Polars and chDB left out", file=sys.stderr)
            return None, set()
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if subprocess.run(pip + pins, capture_output=True, text=True).returncode != 0:
        for pin in pins:  # one at a time, so that one that fails leaves the others in
            made = subprocess.run(pip + [pin], capture_output=True, text=True)
            if made.returncode != 0:
                print(f"{pin} could not be installed (" + (made.stderr.strip().splitlines() or ["?"])[-1]
                      + ")", file=sys.stderr)
    return python, installed()


def build_sift(quick):
    config = "debug" if quick else "release"
    print(f"building sift ({config})…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", config, "--product", "sift"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(ROOT, ".build", config, "sift")


class Engine:
    """An in-process engine: a process of files_engines.py, set up once (the
    module imported, one connection, a first query on a one-record file),
    then asked for one query at a time; only the query is timed."""

    def __init__(self, python, key, label):
        self.key, self.label = key, label
        self.errors = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen([python, os.path.join(HERE, "files_engines.py"), key], text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors)
        line = self.process.stdout.readline()
        while line and line.strip() != "ready":
            line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(self.last_error())

    def last_error(self):
        self.process.wait()
        self.errors.seek(0)
        return (self.errors.read().strip().splitlines() or [f"exited with {self.process.returncode}"])[-1]

    def run(self, path, form, index):
        """One query: seconds, peak resident MB, and the count."""
        self.process.stdin.write(f"{path} {form} {index}\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"{self.label} failed on {path}, `{PREDICATES[index]['sift']}`: {self.last_error()}")
            if line.startswith("{"):
                answer = json.loads(line)
                return answer["seconds"], answer["peak"], answer["count"]

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def start_engines(python, have):
    """The in-process engines whose packages are installed, each set up;
    and a note for each one left out."""
    engines, notes = [], []
    for key, label, needs in ENGINES:
        if python is None or not all(name in have for name in needs):
            notes.append(f"{label}, not installed")
            continue
        try:
            engines.append(Engine(python, key, label))
        except RuntimeError as error:
            notes.append(f"{label}, which did not start ({error})")
    for tool in ("jq", "gojq"):
        if not shutil.which(tool):
            notes.append(f"{tool}, not installed (make bench-deps installs it)")
    for note in notes:
        print("left out: " + note, file=sys.stderr)
    return engines, notes


def contenders(sift, python, have, engines, path, form, index):
    """Each contender for one file and predicate: key, label, how it is
    timed, and a function that runs it once and returns seconds, peak
    resident MB and the count."""
    predicate = PREDICATES[index]
    out = [("sift", "sift filter", "whole process",
            lambda: timed([sift, "filter", predicate["sift"], path, "--count"]))]
    for engine in engines:
        out.append((engine.key, engine.label, "in process", lambda engine=engine: engine.run(path, form, index)))
    if python and "orjson" in have:
        out.append(("orjson", "Python + orjson", "whole process",
                    lambda: timed([python, os.path.join(HERE, "files_orjson.py"), path, form, str(index)])))
    for tool in ("jq", "gojq"):
        if shutil.which(tool):
            program = f"reduce ({'inputs' if form == 'lines' else '.[]'} | select({predicate['jq']})) as $x (0; . + 1)"
            argv = [tool, "-n", program, path] if form == "lines" else [tool, program, path]
            out.append((tool, tool, "whole process", lambda argv=argv: timed(argv)))
    return out


def run_timed(argv, statuses=(0,)):
    """Runs one process (under /usr/bin/time when there is one): seconds,
    peak resident MB, and what it printed; exits when its status is not
    one of `statuses`."""
    time_tool = os.path.exists("/usr/bin/time")
    full = (["/usr/bin/time", "-f", "PEAK %M"] if time_tool else []) + argv
    started = time.perf_counter()
    process = subprocess.run(full, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if process.returncode not in statuses:
        sys.exit(f"failed ({process.returncode}): {' '.join(argv)}\n{process.stderr}")
    peak = float("nan")
    for line in process.stderr.splitlines():
        if line.startswith("PEAK "):
            peak = int(line.split()[1]) / 1024.0
    return seconds, peak, process.stdout


def timed(argv):
    """Runs one process: seconds, peak resident MB, and the count it printed."""
    # sift exits with 1 when nothing matches; that is still a count.
    seconds, peak, stdout = run_timed(argv, statuses=(0, 1))
    if not stdout.strip():
        sys.exit(f"printed nothing: {' '.join(argv)}")
    return seconds, peak, int(stdout.strip().splitlines()[-1])


def publish(text, markdown, problems):
    """Prints the table, writes it to `markdown` if given, and exits with
    the problems, if any."""
    print(text)
    if markdown:
        os.makedirs(os.path.dirname(os.path.abspath(markdown)), exist_ok=True)
        with open(markdown, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if problems:
        sys.exit("contenders disagree with sift:\n  " + "\n  ".join(problems))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2,000 people, 1 round, debug build")
    parser.add_argument("--n", type=int, help="people (default 1,000,000; 2,000 with --quick)")
    parser.add_argument("--rounds", type=int, help="runs (processes, or queries in process) per contender, file "
                        "and predicate (default 5)")
    parser.add_argument("--markdown", help="write the table as Markdown to this file")
    args = parser.parse_args()
    n = args.n or (2000 if args.quick else 1_000_000)
    rounds = args.rounds or (1 if args.quick else 5)

    sift = build_sift(args.quick)
    python, have = python_venv()
    lines_path = os.path.join(BUILD, f"people-{n}.jsonl")
    array_path = os.path.join(BUILD, f"people-{n}.json")
    if not (os.path.exists(lines_path) and os.path.exists(array_path)):
        print(f"writing {n:,} people…", file=sys.stderr)
        generate(n, lines_path, array_path)
    files = [("lines", "JSON Lines", lines_path), ("array", "JSON array", array_path)]

    engines, notes = start_engines(python, have)
    results = {}  # (form, predicate index, key) -> {"label", "how", "seconds": [], "peak", "counts": set()}
    started = time.time()
    for r in range(rounds):
        for form, _, path in files:
            for index, predicate in enumerate(PREDICATES):
                group = contenders(sift, python, have, engines, path, form, index)
                for key, label, how, run in group[r % len(group):] + group[:r % len(group)]:
                    seconds, peak, count = run()
                    entry = results.setdefault((form, index, key), {"label": label, "how": how, "seconds": [],
                                                                    "peak": 0.0, "counts": set()})
                    entry["seconds"].append(seconds)
                    entry["peak"] = max(entry["peak"], peak) if peak == peak else entry["peak"]
                    entry["counts"].add(count)
        print(f"round {r + 1} of {rounds} done ({time.time() - started:.0f} s)", file=sys.stderr)
    for engine in engines:
        engine.close()

    problems = []
    size = os.path.getsize(lines_path) / 1e6
    out = [f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, N = {n:,} people "
           f"({size:,.1f} MB of JSON Lines), {rounds} run{'s' if rounds > 1 else ''} per cell"
           + (" (quick: debug build, not a measurement)" if args.quick else ""), "",
           "Counting the matches of a file: seconds, median (lowest–highest), peak memory in MB, "
           "ratio to `sift filter` (> 1: slower than Sift). Whole process: a process per run, from its start "
           "to its exit. In process: one warm session per engine, the query alone timed (from the file's "
           "path to the count), peak memory that of the session's process during the query.", ""]
    header = ("| input | contender | timed | " + " | ".join(f"`{p['sift']}`" for p in PREDICATES)
              + " | peak MB |")
    out += [header, "|---|---|---|" + "---:|" * (len(PREDICATES) + 1)]
    for form, form_label, _ in files:
        keys = []
        for (f, _, key) in results:
            if f == form and key not in keys:
                keys.append(key)
        for key in keys:
            cells, peak, label, how = [], 0.0, key, ""
            for index in range(len(PREDICATES)):
                entry = results[(form, index, key)]
                label, how = entry["label"], entry["how"]
                sift_entry = results[(form, index, "sift")]
                median = statistics.median(entry["seconds"])
                ratio = median / statistics.median(sift_entry["seconds"])
                spread = f"{fmt(min(entry['seconds']))}–{fmt(max(entry['seconds']))}"
                shown = f"{ratio:.2f}" if ratio < 10 else f"{ratio:.1f}"
                cells.append(f"{fmt(median)} ({spread})" + ("" if key == "sift" else f" **{shown}×**"))
                peak = max(peak, entry["peak"])
                if entry["counts"] != sift_entry["counts"]:
                    problems.append(f"{label} on {form_label}, `{PREDICATES[index]['sift']}`: counted "
                                    f"{sorted(entry['counts'])}, sift {sorted(sift_entry['counts'])}")
            out.append(f"| {form_label} | {label} | {how} | " + " | ".join(cells) + f" | {fmt(peak)} |")
    counts = ", ".join(f"`{p['sift']}` {sorted(results[('lines', i, 'sift')]['counts'])[0]:,}"
                       for i, p in enumerate(PREDICATES))
    out += ["", f"Matches: {counts}."] + (["", "Left out: " + "; ".join(notes) + "."] if notes else [])
    publish("\n".join(out), args.markdown, problems)


if __name__ == "__main__":
    main()
