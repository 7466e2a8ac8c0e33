#!/usr/bin/env python3
"""Grouped fetches: `sift filter --group-by` on the people of files.py
against DuckDB running the same GROUP BY on the same JSON Lines file, in one
run.

Two groupings, each with a count and an average: by `age` (100 groups) and
by `author.name` through the nested object (21 groups, one of them the
records whose author is null). `sift filter` is timed whole process (start
to exit, reading and parsing included); DuckDB in process (a warm session:
the module imported, the connection made and the query run once on a
one-record file, all untimed; then the query alone, from the file's path to
the rows). Both give every group's key, count and average; the counts must
be equal and the averages equal to 12 significant digits (DuckDB adds in
its own order, Sift in the file's), or the run fails. `tags` is not a
grouping here: it is a list, and a grouped fetch (Core Data's rule) groups
by key paths through to-one relationships only.

  Benchmarks/peers/groups.py                  1,000,000 people, 5 rounds, release build (make bench)
  Benchmarks/peers/groups.py --quick          2,000 people, 1 round, debug build (make bench-quick)
  Benchmarks/peers/groups.py --markdown FILE  also write the table as Markdown
  Benchmarks/peers/groups.py --engine         the DuckDB session (started by the above)
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import fmt  # noqa: E402
from files import BUILD, build_sift, generate, publish, python_venv, run_timed  # noqa: E402
from files_engines import peak_mb, reset_peak, sql_path  # noqa: E402

GROUPINGS = [
    {"sift": ["--group-by", "age", "--select", "age, n = count:(id), avg = average:(score)"],
     "key": "age", "duckdb": "age"},
    {"sift": ["--group-by", "author.name", "--select", "author.name, n = count:(id), avg = average:(score)"],
     "key": "author.name", "duckdb": "author.name"},
]


def engine():
    """The DuckDB session: "ready", then for each line PATH INDEX a line of
    JSON with the groups, the seconds and the peak MB."""
    import duckdb
    connection = duckdb.connect()

    def query(path, index):
        column = GROUPINGS[index]["duckdb"]
        sql = (f"SELECT {column}, count(id), avg(score) FROM read_json('{sql_path(path)}', "
               f"format='newline_delimited') GROUP BY {column}")
        return connection.sql(sql).fetchall()

    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "warm-up.jsonl")
        with open(path, "w") as f:
            f.write('{"id":0,"name":"Ann Lee","age":40,"score":0.25,"tags":["x"],"author":{"name":"Ann","born":1950}}\n')
        for index in range(len(GROUPINGS)):
            query(path, index)
    print("ready", flush=True)
    for line in sys.stdin:
        path, index = line.rsplit(" ", 1)
        reset_peak()
        started = time.perf_counter()
        rows = query(path, int(index))
        seconds = time.perf_counter() - started
        groups = [[key, count, avg] for key, count, avg in rows]
        print(json.dumps({"groups": groups, "seconds": seconds, "peak": peak_mb()}), flush=True)


def sift_groups(sift, path, index):
    """One `sift filter` run: seconds, peak MB, and the groups."""
    argv = [sift, "filter", "TRUEPREDICATE", path] + GROUPINGS[index]["sift"] + ["--output", "jsonl"]
    seconds, peak, stdout = run_timed(argv)
    key = GROUPINGS[index]["key"]
    groups = []
    for line in stdout.splitlines():
        row = json.loads(line)
        groups.append([row[key], row["n"], row.get("avg")])
    return seconds, peak, groups


def same_groups(a, b):
    """Equal keys and counts; averages to 12 significant digits."""
    def table(groups):
        return {json.dumps(key): (n, avg) for key, n, avg in groups}
    x, y = table(a), table(b)
    if x.keys() != y.keys():
        return False
    for key in x:
        (n1, a1), (n2, a2) = x[key], y[key]
        if n1 != n2 or (a1 is None) != (a2 is None):
            return False
        if a1 is not None and abs(a1 - a2) > 1e-12 * max(abs(a1), abs(a2), 1e-300):
            return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2,000 people, 1 round, debug build")
    parser.add_argument("--n", type=int, help="people (default 1,000,000; 2,000 with --quick)")
    parser.add_argument("--rounds", type=int, help="runs per contender and grouping (default 5)")
    parser.add_argument("--markdown", help="write the table as Markdown to this file")
    parser.add_argument("--engine", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.engine:
        return engine()
    n = args.n or (2000 if args.quick else 1_000_000)
    rounds = args.rounds or (1 if args.quick else 5)
    sift = build_sift(args.quick)
    python, have = python_venv()
    lines_path = os.path.join(BUILD, f"people-{n}.jsonl")
    if not os.path.exists(lines_path):
        print(f"writing {n:,} people…", file=sys.stderr)
        generate(n, lines_path, os.path.join(BUILD, f"people-{n}.json"))
    duck = None
    if python and "duckdb" in have:
        duck = subprocess.Popen([python, os.path.abspath(__file__), "--engine"], text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        if duck.stdout.readline().strip() != "ready":
            sys.exit("the DuckDB session did not start")

    def duckdb_run(index):
        duck.stdin.write(f"{lines_path} {index}\n")
        duck.stdin.flush()
        answer = json.loads(duck.stdout.readline())
        return answer["seconds"], answer["peak"], answer["groups"]

    results = {}  # (index, key) -> {"seconds": [], "peak", "groups"}
    for r in range(rounds):
        for index in range(len(GROUPINGS)):
            runs = [("sift", lambda index=index: sift_groups(sift, lines_path, index))]
            if duck:
                runs.append(("duckdb", lambda index=index: duckdb_run(index)))
            for key, run in runs[r % len(runs):] + runs[:r % len(runs)]:
                seconds, peak, groups = run()
                entry = results.setdefault((index, key), {"seconds": [], "peak": 0.0, "groups": groups})
                entry["seconds"].append(seconds)
                entry["peak"] = max(entry["peak"], peak) if peak == peak else entry["peak"]
    if duck:
        duck.stdin.close()
        duck.wait()

    problems = []
    out = [f"{time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, N = {n:,} people, "
           f"{rounds} run{'s' if rounds > 1 else ''} per cell" + (" (quick: debug build, not a measurement)"
                                                                    if args.quick else ""), "",
           "Grouping a JSON Lines file: seconds, median (lowest–highest), peak memory in MB, ratio to "
           "`sift filter` (> 1: slower than Sift). sift: whole process. DuckDB: in process, a warm session, "
           "the query alone timed.", "",
           "| grouping | contender | timed | seconds | peak MB | groups |", "|---|---|---|---:|---:|---:|"]
    for index, grouping in enumerate(GROUPINGS):
        base = results[(index, "sift")]
        for key, label, how in (("sift", "sift filter", "whole process"), ("duckdb", "DuckDB", "in process")):
            entry = results.get((index, key))
            if not entry:
                continue
            median = statistics.median(entry["seconds"])
            ratio = median / statistics.median(base["seconds"])
            cell = f"{fmt(median)} ({fmt(min(entry['seconds']))}–{fmt(max(entry['seconds']))})"
            if key != "sift":
                cell += f" **{ratio:.2f}×**"
                if not same_groups(entry["groups"], base["groups"]):
                    problems.append(f"{label}, grouped by {grouping['key']}: other groups than sift's")
            out.append(f"| `{grouping['key']}` | {label} | {how} | {cell} | {fmt(entry['peak'])} | "
                       f"{len(entry['groups'])} |")
    if not duck:
        out += ["", "Left out: DuckDB, not installed."]
    publish("\n".join(out), args.markdown, problems)


if __name__ == "__main__":
    main()
