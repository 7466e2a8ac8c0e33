#!/usr/bin/env python3
"""Count the Swift files under Sources/ that name each comparison operator.

For each operator, a file counts when one of its code lines (comments
stripped: `//` and `///` to the end of the line, and `/* ... */` blocks)
names the operator: its keyword or its Swift case name (`endsWith`), as a
case-insensitive whole word or a whole camel-case part of an identifier
(`kwEndsWith`, `endsWithFast`; not `endsWithin`). Text inside string literals counts: a literal
"ENDSWITH" is a name. This is the proxy of issue 34 ("an operator is
spread over many files"); read the files it lists to judge.

Prints, for each operator, the number of files naming it in code, and
the number naming it outside string literals too (help texts, samples and
English words such as "nothing matches" aside).

Usage: scripts/operator-files.py [-v] [ROOT]   (ROOT defaults to the
repository this script is in; -v lists the files.)
"""
import os
import re
import sys

OPERATORS = {
    "ENDSWITH": ["ENDSWITH", "endsWith"],
    "BEGINSWITH": ["BEGINSWITH", "beginsWith"],
    "CONTAINS": ["CONTAINS", "contains"],
    "LIKE": ["LIKE", "like"],
    "MATCHES": ["MATCHES", "matches"],
    "IN": ["IN", "in"],
    "BETWEEN": ["BETWEEN", "between"],
    "UNION": ["UNION", "union"],
}


def strip_comments(text, keep_strings=True):
    """The text without comments, and without the contents of string
    literals unless `keep_strings`."""
    out = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if not in_string and text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(text[i:j] if keep_strings else '""""""')
            i = j
            continue
        if in_string:
            if c == "\\":
                if keep_strings:
                    out.append(text[i:i + 2])
                i += 2
                continue
            if c == '"' or c == "\n":
                in_string = False
            if keep_strings or not in_string:
                out.append(c)
            i += 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == '"':
            in_string = True
        out.append(c)
        i += 1
    return "".join(out)


def names_any(code, names):
    """Whether an identifier or word of `code` has one of `names` as a
    whole part: case-insensitive, bounded by the identifier's ends or by
    camel-case boundaries (a lower-case letter or digit, then an
    upper-case one)."""
    lowered = [n.lower() for n in names]
    for match in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", code):
        word = match.group(0)
        # Split at underscores and camel-case boundaries: kwEndsWith ->
        # kw, Ends, With; ENDSWITH stays one part.
        parts = [p for p in re.split(r"_|(?<=[a-z0-9])(?=[A-Z])", word) if p]
        low = [p.lower() for p in parts]
        for name in lowered:
            for start in range(len(low)):
                text = ""
                for end in range(start, len(low)):
                    text += low[end]
                    if text == name:
                        return True
                    if len(text) >= len(name):
                        break
    return False


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    verbose = "-v" in sys.argv[1:]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sources = os.path.join(root, "Sources")
    files = {}
    for directory, _, names in os.walk(sources):
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                    files[os.path.relpath(path, root)] = (strip_comments(text), strip_comments(text, False))
    for op, names in OPERATORS.items():
        hits = sorted(path for path, (code, _) in files.items() if names_any(code, names))
        in_identifiers = [path for path, (_, bare) in files.items() if names_any(bare, names)]
        print(f"{op:<11} {len(hits):>3} {len(in_identifiers):>3}")
        if verbose:
            for path in hits:
                print(f"    {path}")


if __name__ == "__main__":
    main()
