#!/usr/bin/env python3
"""Lowered grouped fetches against hand-written GROUP BY on SQLite, in one run.

A SQLite file of 1,000,000 books and 100,000 authors (seeded; a year, a
price and an author a book, some years and prices nil) is queried in one
process with Python's sqlite3 module: for each shape, `sift sql` gives the
lowered grouped statement and its values; it and the GROUP BY one would
write by hand for the same rows are executed alternately ROUNDS times (rows
fetched and dropped). The table gives each one's median time, the ratio
lowered / hand-written (issue 36's target: at most 1.1), and the groups,
which must be the same (as sets where the fetch is unsorted), or the run
fails. Both statements run in the same connection, so the ratio is the
statements' alone.

The shapes use no function of Sift's (`sift_compare` and the others exist in
Sift's own connections only): a sort by a text key would order with the
collation `sift_compare`, so the to-one grouping is unsorted.

  Benchmarks/peers/sqlgroups.py                  1,000,000 books, 7 rounds (make bench)
  Benchmarks/peers/sqlgroups.py --quick          20,000 books, 1 round (make bench-quick)
  Benchmarks/peers/sqlgroups.py --markdown FILE  also write the table as Markdown
"""
import argparse
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from files import publish  # noqa: E402
from postgres import sift_binary  # noqa: E402

SELECT_YEAR = "year, n = count:(SELF), lo = min:(price), hi = max:(price)"
SHAPES = [
    {
        "name": "by a column, sorted",
        "sift": ["year > 1900", "--group-by", "year", "--select", SELECT_YEAR, "--sort", "year"],
        "hand": "SELECT year, count(*), min(price), max(price) FROM books WHERE year > ? GROUP BY year ORDER BY year",
        "sorted": True,
    },
    {
        "name": "through a to-one, integer sum",
        "sift": ["year > 1900", "--group-by", "author.name", "--select", "author.name, n = count:(SELF), s = sum:(year)"],
        "hand": "SELECT a.name, count(*), sum(b.year) FROM books b LEFT JOIN authors a ON a.id = b.author_id "
        "WHERE b.year > ? GROUP BY a.name",
        "sorted": False,
    },
    {
        "name": "all rows, one group",
        "sift": ["price > 10", "--select", "n = count:(SELF), lo = min:(year), hi = max:(year)"],
        "hand": "SELECT count(*), min(year), max(year) FROM books WHERE price > ?",
        "sorted": True,
    },
]


def generate(path, books):
    random.seed(36)
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
        "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT, year INTEGER, price REAL,"
        " author_id INTEGER REFERENCES authors (id));")
    authors = max(books // 10, 1)
    connection.executemany("INSERT INTO authors VALUES (?, ?)", ((i, f"author {i}") for i in range(1, authors + 1)))
    connection.executemany(
        "INSERT INTO books VALUES (?, ?, ?, ?, ?)",
        ((i, f"book {i}", None if i % 50 == 0 else random.randint(1800, 2025),
          None if i % 70 == 0 else round(random.uniform(1, 100), 2), random.randint(1, authors))
         for i in range(1, books + 1)))
    connection.commit()
    connection.close()


def literal(text):
    """A value as `sift sql` prints it: a number, or text in single quotes."""
    if text.startswith("'"):
        return text[1:-1].replace("''", "'")
    return int(text) if re.fullmatch(r"-?\d+", text) else float(text)


def lowered(sift, database, shape):
    """The lowered statement (with `?N` parameters) and its values."""
    out = subprocess.run([sift, "sql", shape["sift"][0], "--schema", database, "--entity", "books", *shape["sift"][1:]],
                         check=True, text=True, capture_output=True).stdout
    lines = out.rstrip("\n").split("\n")
    values = [literal(re.sub(r"^-- \?\d+ = ", "", l)) for l in lines if l.startswith("-- ?")]
    return "\n".join(l for l in lines if not l.startswith("-- ?")), values


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--books", type=int)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--markdown")
    options = parser.parse_args()
    books = options.books or (20_000 if options.quick else 1_000_000)
    rounds = options.rounds or (1 if options.quick else 7)
    sift = sift_binary()
    with tempfile.TemporaryDirectory(prefix="sift-sqlgroups.") as directory:
        database = os.path.join(directory, "books.sqlite")
        generate(database, books)
        connection = sqlite3.connect(database)
        rows = []
        for shape in SHAPES:
            sql, values = lowered(sift, database, shape)
            hand_values = values[: shape["hand"].count("?")]
            times = {"lowered": [], "hand": []}
            answers = {}
            for _ in range(rounds + 1):
                for which, statement, bound in (("lowered", sql, values), ("hand", shape["hand"], hand_values)):
                    start = time.perf_counter()
                    result = connection.execute(statement, bound).fetchall()
                    times[which].append(time.perf_counter() - start)
                    answers[which] = result
            same = (answers["lowered"] == answers["hand"] if shape["sorted"]
                    else sorted(answers["lowered"], key=repr) == sorted(answers["hand"], key=repr))
            if not same:
                sys.exit(f"sqlgroups.py: {shape['name']}: the lowered and hand-written statements differ")
            # The first round warms the cache, untimed.
            lowered_s = statistics.median(times["lowered"][1:])
            hand_s = statistics.median(times["hand"][1:])
            rows.append((shape["name"], lowered_s, hand_s, len(answers["hand"])))
            print(f"{shape['name']}: {lowered_s * 1000:.1f} ms lowered, {hand_s * 1000:.1f} ms by hand", file=sys.stderr)
    lines = [f"| shape ({books:,} books, SQLite {sqlite3.sqlite_version}, median of {rounds}) | lowered | by hand | ratio | groups |",
             "|---|---:|---:|---:|---:|"]
    for name, lo, hand, groups in rows:
        lines.append(f"| {name} | {lo * 1000:.1f} ms | {hand * 1000:.1f} ms | {lo / hand:.2f}× | {groups:,} |")
    publish("\n".join(lines), options.markdown, [])


if __name__ == "__main__":
    main()
