#!/usr/bin/env python3
"""`sift serve` against Datasette on the same SQLite file, under wrk, in one run.

A SQLite file of 1,000,000 people (seeded: id, name, age, score; an index on
age, as one would add for the sort) is served read-only by `sift serve`
(release build) and by Datasette (PyPI, pinned, in its own virtual
environment under Benchmarks/.build/venv-datasette, `-i`: immutable, its
fastest read-only mode), one server at a time, on loopback. For each of three
requests — a comparison, a substring search and a sort with a limit, each
answering a JSON page of 50 rows as objects with the count of matches — wrk
(Debian) runs for DURATION seconds with 2 and then 16 connections against
each server in turn. The table gives requests per second, the p50 and p99
latency (wrk --latency), the ratio of Sift's throughput to Datasette's, and
each server's peak resident memory during the run (sampled from /proc).

Both servers are checked first to give the same rows for each request
(the first page: the same ids in the same order) and the same count.
Datasette's `name__contains` is SQLite's LIKE, case-insensitive for ASCII;
Sift's is `CONTAINS[c]`, which also folds other letters: the generated names
are ASCII, where the two agree.

  Benchmarks/peers/serve.py                  1,000,000 people, 10 s per cell (make bench)
  Benchmarks/peers/serve.py --quick          20,000 people, 2 s, 2 connections (a smoke run)
  Benchmarks/peers/serve.py --markdown FILE  also write the table as Markdown
"""
import argparse
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from files import publish  # noqa: E402
VENV = os.path.join(ROOT, "Benchmarks", ".build", "venv-datasette")
DATASETTE = "0.65.5"
NAMES = ["Ann Lee", "Joanna Smith", "Hannah Berg", "Bob Stone", "Carl Marx", "Dana Scully", "Eve Adams",
         "Frank Ocean", "Gina Tonic", "Ivan Petrov", "Johann Bach", "Leanne Rimes", "Zed Shaw"]

# name, Datasette's query, Sift's query (both on the people table)
REQUESTS = [
    ("age > 30", {"age__gt": "30"}, {"filter": "age > 30"}),
    ("name contains 'ann'", {"name__contains": "ann"}, {"filter": "name CONTAINS[c] 'ann'"}),
    ("sort by age, limit 50", {"_sort": "age"}, {"sort": "age"}),
]


def generate(path, people):
    random.seed(37)
    connection = sqlite3.connect(path)
    connection.executescript("CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER NOT NULL,"
                             " score REAL NOT NULL); CREATE INDEX people_age ON people (age, id);")
    connection.executemany("INSERT INTO people VALUES (?, ?, ?, ?)",
                           ((i, f"{random.choice(NAMES)} {i}", random.randint(0, 99), round(random.random(), 6))
                            for i in range(1, people + 1)))
    connection.commit()
    connection.close()


def datasette_venv():
    python = os.path.join(VENV, "bin", "python")
    have = subprocess.run([python, "-c", "import datasette.version as v; print(v.__version__)"],
                          capture_output=True, text=True) if os.path.exists(python) else None
    if have is None or have.stdout.strip() != DATASETTE:
        if not os.path.exists(python):
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        f"datasette=={DATASETTE}"], check=True)
    return os.path.join(VENV, "bin", "datasette")


def sift_binary(quick):
    config = "debug" if quick else "release"
    subprocess.run(["swift", "build", "-c", config, "--product", "sift"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(ROOT, ".build", config, "sift")


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(kind, database, sift, datasette):
    """The server's process and its base URL, once it answers."""
    if kind == "sift":
        process = subprocess.Popen([sift, "serve", database, "--port", "0", "--max-requests", "64"],
                                   stdout=subprocess.PIPE, text=True)
        for line in process.stdout:
            found = re.search(r" at (http://\S+)", line)
            if found:
                base = found.group(1).rstrip("/")
                break
        else:
            sys.exit("serve.py: sift serve printed no URL")
        threading.Thread(target=process.stdout.read, daemon=True).start()
    else:
        port = free_port()
        process = subprocess.Popen([datasette, "serve", "-i", database, "--host", "127.0.0.1", "--port", str(port),
                                    "--setting", "default_page_size", "50", "--setting", "sql_time_limit_ms", "20000",
                                    "--setting", "num_sql_threads", "3"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/-/versions.json", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit("serve.py: Datasette did not start")
    return process, base


def url(kind, base, query):
    if kind == "sift":
        return f"{base}/people.json?" + urllib.parse.urlencode({**query, "limit": "50"}, quote_via=urllib.parse.quote)
    return f"{base}/people/people.json?" + urllib.parse.urlencode({**query, "_size": "50", "_shape": "objects"})


def page(kind, address):
    body = json.loads(urllib.request.urlopen(address, timeout=60).read())
    if kind == "sift":
        return [r["id"] for r in body["rows"]], body["count"]
    return [r["id"] for r in body["rows"]], body["filtered_table_rows_count"]


def peak_rss(pid, stop, out):
    peak = 0
    while not stop.is_set():
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        peak = max(peak, int(line.split()[1]))
        except OSError:
            break
        time.sleep(0.1)
    out.append(peak / 1024)


def wrk(address, connections, seconds):
    out = subprocess.run(["wrk", "-t", str(min(connections, 2)), "-c", str(connections), "-d", f"{seconds}s",
                          "--latency", "--timeout", "30s", address], check=True, capture_output=True, text=True).stdout

    def ms(text):
        value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = ms(re.search(r"\s50%\s+(\S+)", out).group(1))
    p99 = ms(re.search(r"\s99%\s+(\S+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        sys.exit(f"serve.py: {errors.group(1)} error responses from {address}")
    return rps, p50, p99


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--people", type=int)
    parser.add_argument("--seconds", type=int)
    parser.add_argument("--markdown")
    options = parser.parse_args()
    people = options.people or (20_000 if options.quick else 1_000_000)
    seconds = options.seconds or (2 if options.quick else 10)
    connection_counts = [2] if options.quick else [2, 16]
    sift = sift_binary(options.quick)
    datasette = datasette_venv()
    results = []
    with tempfile.TemporaryDirectory(prefix="sift-serve-bench.") as directory:
        database = os.path.join(directory, "people.sqlite")
        generate(database, people)
        servers = {kind: start(kind, database, sift, datasette) for kind in ("sift", "datasette")}
        try:
            for name, datasette_query, sift_query in REQUESTS:
                pages = {kind: page(kind, url(kind, base, datasette_query if kind == "datasette" else sift_query))
                         for kind, (_, base) in servers.items()}
                if pages["sift"] != pages["datasette"]:
                    sys.exit(f"serve.py: {name}: the servers disagree: {pages}")
                for connections in connection_counts:
                    for kind, (process, base) in servers.items():
                        address = url(kind, base, datasette_query if kind == "datasette" else sift_query)
                        stop, peak = threading.Event(), []
                        sampler = threading.Thread(target=peak_rss, args=(process.pid, stop, peak))
                        sampler.start()
                        rps, p50, p99 = wrk(address, connections, seconds)
                        stop.set()
                        sampler.join()
                        results.append((name, connections, kind, rps, p50, p99, peak[0], pages[kind][1]))
                        print(f"{name}, {connections} connections, {kind}: {rps:.0f} req/s, p50 {p50:.2f} ms, "
                              f"p99 {p99:.2f} ms, {peak[0]:.0f} MB", file=sys.stderr)
        finally:
            for process, _ in servers.values():
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
    lines = [f"| request ({people:,} people, 50 rows a page) | connections | server | requests/s | p50 | p99 | peak MB | ratio |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    for name, connections, kind, rps, p50, p99, mb, _ in results:
        datasette_rps = next(r[3] for r in results if r[0] == name and r[1] == connections and r[2] == "datasette")
        ratio = f"**{rps / datasette_rps:.2f}×**" if kind == "sift" else ""
        lines.append(f"| {name} | {connections} | {'sift serve' if kind == 'sift' else 'Datasette ' + DATASETTE} | "
                     f"{rps:,.0f} | {p50:.2f} ms | {p99:.2f} ms | {mb:.0f} | {ratio} |")
    publish("\n".join(lines), options.markdown, [])


if __name__ == "__main__":
    main()
