#!/usr/bin/env python3
"""Writes the seed corpus: the "format" of every conformance case, one file
each, into DIR/<target>/ for every target named. Files are named by the
case id, so a second run rewrites the same files.

    seeds.py DIR TARGET... < cases.jsonl
"""
import json
import os
import sys


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    root, targets = sys.argv[1], sys.argv[2:]
    formats = {}
    for line in sys.stdin:
        if line.strip():
            case = json.loads(line)
            formats[case["id"]] = case["format"]
    for target in targets:
        directory = os.path.join(root, target)
        os.makedirs(directory, exist_ok=True)
        for case_id, text in formats.items():
            with open(os.path.join(directory, "seed-" + case_id), "w", encoding="utf-8") as f:
                f.write(text)
    print(f"{len(formats)} seeds for each of {', '.join(targets)} in {root}")


if __name__ == "__main__":
    main()
