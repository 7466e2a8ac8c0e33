#!/usr/bin/env python3
"""Lowered fetches against the best hand-written SQL on PostgreSQL, at scale.

A throwaway server (scripts/postgres.sh) is loaded with 10,000,000 books,
100,000 authors, 10,000 tags and one or two tags a book (generate_series, then
the indexes, then ANALYZE). For each shape, `sift sql --dialect postgres` gives
the lowered statement and its values; both it and the hand-written statement
are prepared with the parameter types SiftPostgres binds (bigint, double
precision, text) and executed alternately ROUNDS times in one psql session
(rows sent to the client and dropped). The table gives each one's median time
(psql's \\timing: planning, execution and transfer), the ratio lowered /
hand-written (target: at most 1.2), the rows (which must be the same, or the
run fails), and the indexes the lowered statement's plan reads.

  Benchmarks/peers/postgres.py                  10,000,000 books, 7 rounds (make bench)
  Benchmarks/peers/postgres.py --quick          20,000 books, 1 round (a smoke run)
  Benchmarks/peers/postgres.py --markdown FILE  also write the table as Markdown

The indexes are the ones ExplainTests shows the lowered statements need:
books (year NULLS FIRST), books (author_id), books (title COLLATE "C"),
books ((normalize(title, NFD) COLLATE "C")), authors (name), tags (name),
book_tags (tag_id, book_id).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
POSTGRES_SH = os.path.join(ROOT, "scripts", "postgres.sh")

COLUMNS = "b.id, b.title, b.year, b.price, b.author_id"

# Each shape: the fetch as Sift takes it, and the SQL one would write by hand
# for the same rows (in the same order), with the same parameters.
SHAPES = [
    {
        "name": "comparison",
        "sift": ["year == 1850"],
        "hand": f"SELECT {COLUMNS} FROM books b WHERE b.year = $1 ORDER BY b.id",
    },
    {
        "name": "to-one path",
        "sift": ["author.name == 'author 17'"],
        "hand": f"SELECT {COLUMNS} FROM books b JOIN authors a ON a.id = b.author_id WHERE a.name = $1 ORDER BY b.id",
    },
    {
        "name": "ANY over a to-many",
        "sift": ["ANY tags.name == 'tag 5'"],
        "hand": f"SELECT {COLUMNS} FROM books b WHERE EXISTS (SELECT 1 FROM book_tags bt JOIN tags t "
        "ON t.id = bt.tag_id WHERE bt.book_id = b.id AND t.name = $1) ORDER BY b.id",
    },
    {
        "name": "BEGINSWITH",
        "sift": ["title BEGINSWITH 'abcd'"],
        # By hand, the one range of the title itself: the same rows here,
        # but not the titles spelled otherwise (`abcḋ…` also begins with
        # `abcd`), which BEGINSWITH's range of their NFD form takes.
        "hand": f"SELECT {COLUMNS} FROM books b WHERE b.title COLLATE \"C\" >= $1 AND b.title COLLATE \"C\" < $2 "
        "ORDER BY b.id",
        "hand_values": ["'abcd'", "'abce'"],
    },
    {
        "name": "BEGINSWITH[n]",
        "sift": ["title BEGINSWITH[n] 'abcd'"],
        "hand": f"SELECT {COLUMNS} FROM books b WHERE b.title COLLATE \"C\" >= $1 AND b.title COLLATE \"C\" < $2 "
        "ORDER BY b.id",
    },
    {
        "name": "sort with limit",
        "sift": ["year > 1900", "--sort", "year DESC", "--limit", "20"],
        "hand": f"SELECT {COLUMNS} FROM books b WHERE b.year > $1 ORDER BY b.year DESC NULLS LAST, b.id LIMIT $2",
    },
    {
        "name": "count",
        "sift": ["year >= 1990", "--count"],
        "hand": "SELECT count(*) FROM books b WHERE b.year >= $1",
    },
    # Grouped fetches (issue 36's target: within 1.1× of the hand-written
    # GROUP BY). The lowered statement groups in a derived table and sorts
    # outside it.
    {
        "name": "grouped by a column",
        "sift": ["year > 1900", "--group-by", "year", "--select",
                 "year, n = count:(SELF), lo = min:(price), hi = max:(price)", "--sort", "year"],
        "hand": "SELECT b.year, count(*), min(b.price), max(b.price) FROM books b WHERE b.year > $1 "
        "GROUP BY b.year ORDER BY b.year",
    },
    {
        # Unsorted (the groups compared as sets): Sift sorts text by its
        # NFD form, which a hand-written statement would not.
        "name": "grouped through a to-one",
        "sift": ["year > 1900", "--group-by", "author.name", "--select", "author.name, n = count:(SELF)"],
        "hand": "SELECT a.name, count(*) FROM books b LEFT JOIN authors a ON a.id = b.author_id WHERE b.year > $1 "
        "GROUP BY a.name",
        "unordered": True,
    },
    {
        # A sum and an average of doubles, which Sift adds in key order
        # (`SUM(price ORDER BY id)`, memory's order) where a plain SUM adds
        # in the order the rows come: the ratio is what that exactness
        # costs. The plain sums may differ in their last bits, so the two
        # answers are compared to 1e-9 of their size, not digit for digit.
        "name": "grouped sum of doubles, key order vs plain SUM",
        "sift": ["year > 1900", "--group-by", "year", "--select",
                 "year, s = sum:(price), a = average:(price)", "--sort", "year"],
        "hand": "SELECT b.year, sum(b.price), avg(b.price) FROM books b WHERE b.year > $1 "
        "GROUP BY b.year ORDER BY b.year",
        "approximate": True,
    },
]


def close(a, b):
    """Whether two result rows (psql's `a|b|c` lines) are equal, numbers to
    1e-9 of their size."""
    x, y = a.split("|"), b.split("|")
    if len(x) != len(y):
        return False
    for u, v in zip(x, y):
        if u == v:
            continue
        try:
            f, g = float(u), float(v)
        except ValueError:
            return False
        if abs(f - g) > 1e-9 * max(abs(f), abs(g)):
            return False
    return True


def run(args, **kwargs):
    return subprocess.run(args, check=True, text=True, capture_output=True, **kwargs).stdout


def sift_binary():
    for config in ("release", "debug"):
        path = os.path.join(ROOT, ".build", config, "sift")
        if os.access(path, os.X_OK):
            return path
    subprocess.run(["swift", "build", "--product", "sift"], cwd=ROOT, check=True)
    return os.path.join(ROOT, ".build", "debug", "sift")


def psql_binary():
    found = shutil.which("psql")
    if found:
        return found
    for version in sorted(os.listdir("/usr/lib/postgresql"), reverse=True):
        path = f"/usr/lib/postgresql/{version}/bin/psql"
        if os.access(path, os.X_OK):
            return path
    sys.exit("postgres.py: no psql")


def load_sql(books):
    authors = max(books // 100, 10)
    tags = max(books // 1000, 10)
    return f"""
CREATE TABLE authors (id bigint PRIMARY KEY, name text NOT NULL, born integer);
CREATE TABLE books (id bigint PRIMARY KEY, title text NOT NULL, year integer, price double precision,
                    author_id bigint REFERENCES authors);
CREATE TABLE tags (id bigint PRIMARY KEY, name text NOT NULL);
CREATE TABLE book_tags (book_id bigint REFERENCES books, tag_id bigint REFERENCES tags, PRIMARY KEY (book_id, tag_id));
INSERT INTO authors SELECT g, 'author ' || g, 1700 + g % 300 FROM generate_series(1, {authors}) g;
INSERT INTO books SELECT g, md5(g::text), 1800 + g % 220, (g % 1000) / 10.0, 1 + g % {authors}
    FROM generate_series(1, {books}) g;
INSERT INTO tags SELECT g, 'tag ' || g FROM generate_series(1, {tags}) g;
INSERT INTO book_tags SELECT g, 1 + g % {tags} FROM generate_series(1, {books}) g;
INSERT INTO book_tags SELECT g, 1 + (g * 7 + 3) % {tags} FROM generate_series(1, {books}, 2) g ON CONFLICT DO NOTHING;
CREATE INDEX books_year ON books (year NULLS FIRST);
CREATE INDEX books_author ON books (author_id);
CREATE INDEX books_title ON books (title COLLATE "C");
CREATE INDEX books_title_order ON books ((normalize(title, NFD) COLLATE "C"));
CREATE INDEX authors_name ON authors (name);
CREATE INDEX tags_name ON tags (name);
CREATE INDEX book_tags_tag ON book_tags (tag_id, book_id);
VACUUM ANALYZE;
"""


def lowered(sift, schema, shape):
    """The lowered statement and its values as SQL literals."""
    out = run([sift, "sql", *shape["sift"][:1], "--schema", schema, "--entity", "books", "--dialect", "postgres",
               *shape["sift"][1:]])
    lines = out.rstrip("\n").split("\n")
    values = [re.sub(r"^-- \$\d+ = ", "", l) for l in lines if l.startswith("-- $")]
    sql = "\n".join(l for l in lines if not l.startswith("-- $"))
    return sql, values


def sql_type(literal):
    """The type SiftPostgres binds a value as."""
    if literal.startswith("'"):
        return "text"
    return "double precision" if re.search(r"[.eE]", literal) else "bigint"


def indexes(plan):
    found = set()
    if plan.get("Node Type") in ("Index Scan", "Index Only Scan", "Bitmap Index Scan") and "Index Name" in plan:
        found.add(plan["Index Name"])
    for child in plan.get("Plans", []):
        found |= indexes(child)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--books", type=int)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--markdown")
    options = parser.parse_args()
    books = options.books or (20_000 if options.quick else 10_000_000)
    rounds = options.rounds or (1 if options.quick else 7)
    sift = sift_binary()
    psql = psql_binary()

    directory = tempfile.mkdtemp(prefix="sift-pgbench.", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    os.rmdir(directory)
    conninfo = run([POSTGRES_SH, "start", directory]).strip().split("\n")[-1]
    try:
        def session(script):
            return run([psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", conninfo], input=script)

        print(f"loading {books:,} books …", file=sys.stderr)
        session("\\timing on\n" + load_sql(books))
        url = "postgresql://{user}@{host}:{port}/{dbname}".format(
            **dict(pair.split("=", 1) for pair in conninfo.split()))
        schema = os.path.join(directory + ".schema.json")
        with open(schema, "w") as f:
            f.write(run([sift, "schema", url]))

        rows = []
        for shape in SHAPES:
            sql, values = lowered(sift, schema, shape)
            hand_values = shape.get("hand_values", values[: shape["hand"].count("$")])
            types = ", ".join(sql_type(v) for v in values)
            hand_types = ", ".join(sql_type(v) for v in hand_values)
            plan = json.loads(session(
                f"PREPARE lowered ({types}) AS {sql};\n\\pset format unaligned\n\\pset tuples_only on\n"
                f"EXPLAIN (FORMAT JSON) EXECUTE lowered ({', '.join(values)});\n"))[0]["Plan"]
            script = [
                f"PREPARE lowered ({types}) AS {sql};",
                f"PREPARE hand ({hand_types}) AS {shape['hand']};",
                "\\pset format unaligned",
                "\\pset tuples_only on",
            ]
            lowered_call = f"EXECUTE lowered ({', '.join(values)});"
            hand_call = f"EXECUTE hand ({', '.join(hand_values)});"
            # Warm the cache, then alternate; the first rows of each are
            # compared, every row in order.
            script += [lowered_call, hand_call, "\\timing on"]
            for _ in range(rounds):
                script += ["\\echo @lowered", lowered_call, "\\echo @hand", hand_call]
            out = session("\n".join(script) + "\n")
            times = {"lowered": [], "hand": []}
            results = {"lowered": [], "hand": []}
            current = None
            for line in out.split("\n"):
                if line.startswith("@"):
                    current = line[1:]
                    results[current].append([])
                elif line.startswith("Time: ") and current:
                    times[current].append(float(line.split()[1]))
                elif current and line:
                    results[current][-1].append(line)
            if shape.get("unordered"):
                results = {k: [sorted(v[0])] for k, v in results.items()}
            if shape.get("approximate"):
                same = len(results["lowered"][0]) == len(results["hand"][0]) and all(
                    close(a, b) for a, b in zip(results["lowered"][0], results["hand"][0]))
            else:
                same = results["lowered"][0] == results["hand"][0]
            if not same:
                sys.exit(f"postgres.py: {shape['name']}: the lowered and hand-written statements differ")
            lowered_ms = statistics.median(times["lowered"])
            hand_ms = statistics.median(times["hand"])
            rows.append({
                "shape": shape["name"], "lowered": lowered_ms, "hand": hand_ms, "ratio": lowered_ms / hand_ms,
                "rows": len(results["lowered"][0]), "indexes": ", ".join(sorted(indexes(plan))) or "none",
            })
            print(f"{shape['name']}: {lowered_ms:.2f} ms lowered, {hand_ms:.2f} ms by hand", file=sys.stderr)
    finally:
        subprocess.run([POSTGRES_SH, "stop", directory], check=False)
        if os.path.exists(directory + ".schema.json"):
            os.remove(directory + ".schema.json")

    header = f"| shape ({books:,} books, median of {rounds}) | lowered | by hand | ratio | rows | indexes read (lowered) |"
    lines = [header, "|---|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['shape']} | {r['lowered']:.2f} ms | {r['hand']:.2f} ms | {r['ratio']:.2f}× | {r['rows']:,} | "
                     f"{r['indexes']} |")
    table = "\n".join(lines)
    print(table)
    if options.markdown:
        os.makedirs(os.path.dirname(os.path.abspath(options.markdown)), exist_ok=True)
        with open(options.markdown, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
