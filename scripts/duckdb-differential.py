#!/usr/bin/env python3
"""Run Sift's DuckDB SQL of the generated differential predicates on DuckDB.

Usage: scripts/duckdb-differential.py FILE

FILE is written by the Swift suite DuckDBDifferentialTests: the tables'
CREATE statements and the rows' INSERTs (DuckDB dialect, with bindings), and
for each generated predicate either its DuckDB statement with memory's ids
(in memory's order) or the reason Sift refuses it for DuckDB. This creates
the tables in an in-process DuckDB database, runs every statement, compares
the ids it returns (first column, in order) with memory's, and prints the
counts and the refusals by reason. Exit status 1 on any disagreement or
statement DuckDB fails on; 2 when duckdb is missing.

Bindings are JSON as `sift sql --output json` writes them (SQLValue.jsonText):
a double always has a point or an exponent (Python reads it as a float, bit
for bit: it rounds correctly), {"$double": "NaN"|"Infinity"|"-Infinity"},
{"$blob": "<hex>"}, arrays as lists.
"""

import collections
import json
import sys
import time

try:
    import duckdb
except ImportError:
    print("duckdb is not installed (make python-deps)", file=sys.stderr)
    sys.exit(2)


def value(v):
    """A binding as the Python value DuckDB binds with the same type."""
    if isinstance(v, dict):
        if "$double" in v:
            return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[v["$double"]])
        if "$blob" in v:
            return bytes.fromhex(v["$blob"])
        raise ValueError(f"unknown binding {v!r}")
    if isinstance(v, list):
        return [value(x) for x in v]
    return v


def run(db, statement):
    bindings = [value(b) for b in statement["bindings"]]
    return db.execute(statement["sql"], bindings if bindings else None).fetchall()


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    started = time.monotonic()
    db = duckdb.connect(":memory:")
    for statement in doc["setup"]:
        run(db, statement)
    compared = 0
    failures = []
    refused = collections.Counter()
    for p in doc["predicates"]:
        if "refused" in p:
            refused[p["refused"]] += 1
            continue
        label = f"case {p['case']} [{p['format']}]"
        try:
            got = [row[0] for row in run(db, p["statement"])]
        except duckdb.Error as e:
            failures.append(f"{label}: DuckDB failed: {e}\n  {p['statement']['sql']}\n  {p['statement']['bindings']}")
            continue
        compared += 1
        if got != p["expected"]:
            failures.append(
                f"{label}\n  memory {p['expected']}\n  duckdb {got}\n  {p['statement']['sql']}\n  {p['statement']['bindings']}"
            )
    elapsed = time.monotonic() - started
    total = len(doc["predicates"])
    print(
        f"DuckDB {duckdb.__version__}: seed {doc['seed']}, {doc['cases']} generated predicates, {total} answered by memory: "
        f"{compared} run and compared, {len(failures)} disagreements or failures, {sum(refused.values())} refused "
        f"({elapsed:.1f} s)"
    )
    for reason, n in refused.most_common():
        print(f"  refused {n:5d}: {reason}")
    for failure in failures[:15]:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
