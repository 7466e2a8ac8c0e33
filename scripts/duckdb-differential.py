#!/usr/bin/env python3
"""Run Sift's DuckDB SQL of the generated differential predicates on DuckDB.

Usage: scripts/duckdb-differential.py FILE [--rows OUT]

FILE is written by the Swift suite DuckDBDifferentialTests: the tables'
CREATE statements and the rows' INSERTs (DuckDB dialect, with bindings), and
for each generated predicate either its DuckDB statement with memory's ids
(in memory's order) or the reason Sift refuses it for DuckDB. This creates
the tables in an in-process DuckDB database, runs every statement, compares
the ids it returns (first column, in order) with memory's, and prints the
counts and the refusals by reason. Exit status 1 on any disagreement or
statement DuckDB fails on; 2 when duckdb is missing.

The document may also hold "fetches", written by DuckDBFetchDifferentialTests:
sorted and paged fetches, each with memory's ids in memory's order (the
statement sorts by the primary key last, so the order is total and the ids
must be the same in the same order) and its count statement with memory's
count; and "grouped": grouped fetches, each with its count statement and
memory's count, or marked "raises" where DuckDB must fail the statement.
Their refusals are counted by reason as the predicates'.
DuckDB's rows of each grouped fetch are written to OUT (--rows), one cell a
tagged string ("i" and an integer, "d" and a double's 64 bits, "b1"/"b0",
"s" and a string, null), for the Swift suite to compare with memory's
dictionaries by the grouped differential's own rule.

Bindings are JSON as `sift sql --output json` writes them (SQLValue.jsonText):
a double always has a point or an exponent (Python reads it as a float, bit
for bit: it rounds correctly), {"$double": "NaN"|"Infinity"|"-Infinity"},
{"$blob": "<hex>"}, arrays as lists.
"""

import collections
import json
import struct
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


def cell(v):
    """A cell of a result as a tagged string, exact: a double by its bits."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "b1" if v else "b0"
    if isinstance(v, int):
        return f"i{v}"
    if isinstance(v, float):
        return f"d{struct.unpack('<Q', struct.pack('<d', v))[0]}"
    if isinstance(v, str):
        return "s" + v
    raise ValueError(f"unexpected {type(v).__name__} {v!r}")


class Section:
    """The outcome of one section of the document."""

    def __init__(self, name):
        self.name = name
        self.compared = 0
        self.total = 0
        self.failures = []
        self.refused = collections.Counter()

    def entries(self, doc, key):
        """The entries of the document's section `key` that have a
        statement; the refused ones are counted by reason."""
        for p in doc.get(key, []):
            self.total += 1
            if "refused" in p:
                self.refused[p["refused"]] += 1
            else:
                yield p

    def failed(self, label, what, statement):
        self.failures.append(f"{label}: {what}\n  {statement['sql']}\n  {statement['bindings']}")

    def report(self):
        print(
            f"  {self.name}: {self.total} answered by memory: {self.compared} run and compared, "
            f"{len(self.failures)} disagreements or failures, {sum(self.refused.values())} refused"
        )
        for reason, n in self.refused.most_common():
            print(f"    refused {n:5d}: {reason}")
        for failure in self.failures[:15]:
            print(failure)


def fetched(db, entry, section, label):
    """The rows of the entry's statement, and whether its count is memory's;
    None when DuckDB fails. An entry marked "raises" (memory's answer has no
    SQL value: a sum past 64 bits) must fail instead."""
    if entry.get("raises"):
        try:
            got = run(db, entry["statement"])
        except duckdb.Error:
            section.compared += 1
            return None
        section.failed(label, f"DuckDB answered {got} where it must fail", entry["statement"])
        return None
    try:
        rows = run(db, entry["statement"])
        count = run(db, entry["countStatement"])[0][0]
    except duckdb.Error as e:
        section.failed(label, f"DuckDB failed: {e}", entry["statement"])
        return None
    section.compared += 1
    if count != entry["count"]:
        section.failed(label, f"count memory {entry['count']} duckdb {count}", entry["countStatement"])
    return rows


def main():
    args = sys.argv[1:]
    rows_file = None
    if len(args) == 3 and args[1] == "--rows":
        rows_file = args[2]
        args = args[:1]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        doc = json.load(f)
    started = time.monotonic()
    db = duckdb.connect(":memory:")
    for statement in doc["setup"]:
        run(db, statement)
    predicates, fetches, grouped = Section("predicates"), Section("sorted and paged fetches"), Section("grouped fetches")
    for p in predicates.entries(doc, "predicates"):
        label = f"case {p['case']} [{p['format']}]"
        try:
            got = [row[0] for row in run(db, p["statement"])]
        except duckdb.Error as e:
            predicates.failed(label, f"DuckDB failed: {e}", p["statement"])
            continue
        predicates.compared += 1
        if got != p["expected"]:
            predicates.failed(label, f"memory {p['expected']}\n  duckdb {got}", p["statement"])
    for p in fetches.entries(doc, "fetches"):
        label = f"case {p['case']} {p['format']}"
        rows = fetched(db, p, fetches, label)
        if rows is not None and [row[0] for row in rows] != p["expected"]:
            fetches.failed(label, f"memory {p['expected']}\n  duckdb {[row[0] for row in rows]}", p["statement"])
    results = []
    for p in grouped.entries(doc, "grouped"):
        rows = fetched(db, p, grouped, f"case {p['case']} {p['format']}")
        if rows is not None:
            results.append({"case": p["case"], "rows": [[cell(v) for v in row] for row in rows]})
    if rows_file is not None:
        with open(rows_file, "w", encoding="utf-8") as f:
            json.dump(results, f)
    elapsed = time.monotonic() - started
    print(f"DuckDB {duckdb.__version__}: seed {doc['seed']}, {doc['cases']} generated cases ({elapsed:.1f} s)")
    sections = [s for s in (predicates, fetches, grouped) if s.total]
    for section in sections:
        section.report()
    return 1 if any(s.failures for s in sections) else 0


if __name__ == "__main__":
    sys.exit(main())
