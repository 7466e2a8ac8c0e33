"""An in-process engine of files.py, kept warm: the module imported, one
connection (or session) made and a first query run on a one-record file
before any timing, then one query per request, timed alone.

  files_engines.py duckdb|datafusion|polars|chdb

Prints "ready" once set up, then reads requests from standard input, one a
line: FILE lines|array PREDICATE-INDEX (the predicates of files.py). For
each it answers with a line of JSON: the count, the seconds the query took
(from the file's path to the count: reading the file and inferring its
schema included, as a user's query would), and the process's peak resident
memory in MB while it ran (the peak is reset before each query through
/proc/self/clear_refs, so it is this query's peak; the interpreter and the
engine's libraries count, as they do in a process).
"""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from files import PREDICATES  # noqa: E402


def sql_path(path):
    return path.replace("'", "''")


def duckdb_engine():
    import duckdb
    connection = duckdb.connect()

    def query(path, form, predicate):
        fmt = "newline_delimited" if form == "lines" else "array"
        sql = f"SELECT count(*) FROM read_json('{sql_path(path)}', format='{fmt}') WHERE {predicate['duckdb']}"
        return connection.sql(sql).fetchall()[0][0]
    return query


def datafusion_engine():
    from datafusion import SessionContext
    context = SessionContext()

    def query(path, form, predicate):
        # read_json and register_json read newline-delimited JSON only; an
        # external table reads an array too, with format.newline_delimited,
        # but not in ranges read in parallel (as it reads JSON Lines).
        lines = "true" if form == "lines" else "false"
        context.sql(f"SET datafusion.optimizer.repartition_file_scans = {lines}").collect()
        context.sql(f"CREATE EXTERNAL TABLE people STORED AS JSON LOCATION '{sql_path(path)}' "
                    f"OPTIONS ('format.newline_delimited' '{lines}')")
        try:
            batches = context.sql(f"SELECT count(*) FROM people WHERE {predicate['datafusion']}").collect()
            return batches[0].column(0)[0].as_py()
        finally:
            context.deregister_table("people")
    return query


def polars_engine():
    import polars as pl

    def query(path, form, predicate):
        # scan_ndjson reads JSON Lines lazily; a JSON array has read_json
        # only, which reads the whole file into a DataFrame.
        frame = pl.scan_ndjson(path) if form == "lines" else pl.read_json(path).lazy()
        return frame.filter(predicate["polars"](pl)).select(pl.len()).collect().item()
    return query


def chdb_engine():
    from chdb import session
    connection = session.Session()

    def query(path, form, predicate):
        # JSONEachRow reads JSON Lines, and a JSON array of objects too.
        sql = f"SELECT count() FROM file('{sql_path(path)}', JSONEachRow) WHERE {predicate['clickhouse']}"
        return int(connection.query(sql, "CSV").data().strip())
    return query


ENGINES = {"duckdb": duckdb_engine, "datafusion": datafusion_engine, "polars": polars_engine, "chdb": chdb_engine}


def peak_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def main():
    query = ENGINES[sys.argv[1]]()
    record = '{"id":0,"name":"Ann Lee","age":40,"score":0.25,"tags":["x"],"author":{"name":"Ann","born":1950}}'
    with tempfile.TemporaryDirectory() as directory:
        for form, text in (("lines", record + "\n"), ("array", "[\n" + record + "\n]\n")):
            path = os.path.join(directory, "warm-up." + ("jsonl" if form == "lines" else "json"))
            with open(path, "w") as f:
                f.write(text)
            for predicate in PREDICATES:
                query(path, form, predicate)
    print("ready", flush=True)
    for line in sys.stdin:
        path, form, index = line.rsplit(" ", 2)
        reset_peak()
        started = time.perf_counter()
        count = query(path, form, PREDICATES[int(index)])
        seconds = time.perf_counter() - started
        print(json.dumps({"count": int(count), "seconds": seconds, "peak": peak_mb()}), flush=True)


if __name__ == "__main__":
    main()
