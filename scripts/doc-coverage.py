#!/usr/bin/env python3
"""Counts the public symbols of modules that have no documentation.

Reads the public symbol graphs that swift-docc-plugin extracts for DocC
(`.build/<triple>/extracted-symbols/<package>/<Module>/`: `<Module>.symbols.json`,
and `<Module>@<Other>.symbols.json` for the module's extensions of other
modules' types; `swift package dump-symbol-graph` writes the same files)
and, for each module named,
prints how many public symbols it has and how many lack a doc comment,
listing those with their source location. Exits with 1 when any symbol is
undocumented, so that `make docs` fails.

What counts as documented is what DocC shows as the symbol's documentation:
- its own `///` comment;
- the comment of a protocol requirement of the same module that it
  implements: the symbol graph gives the symbol that comment, and DocC
  shows it.
A comment inherited from another module (the standard library's `==`,
`hash(into:)`, `description`…) does not count: DocC hides documentation
inherited from other modules unless it is run with
`--enable-inherited-docs`, so such a symbol would show "No overview
available".

Not counted, because they are not declarations of the module: extension
blocks (the "Extended Types" pages DocC makes for them), and members that a
type gets from a protocol extension (`::SYNTHESIZED::` identifiers), which
DocC documents with their origin. Members the compiler writes (an enum's
`init(rawValue:)`, a synthesised `init(from:)`) have no place in the source
for a comment; DocC says of each "Inherited from
`RawRepresentable.init(rawValue:)`.", and they are counted apart.

Usage: doc-coverage.py SYMBOLGRAPH_DIR MODULE...
"""

import json
import os
import sys

PUBLIC = {"public", "open"}


def graph_files(root, module):
    """The symbol graph files of `module` under `root`."""
    found = []
    for directory, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".symbols.json"):
                continue
            stem = name[: -len(".symbols.json")]
            if stem == module or stem.startswith(module + "@"):
                found.append(os.path.join(directory, name))
    return sorted(found)


def documented(symbol, module):
    comment = symbol.get("docComment")
    if not comment:
        return False
    if not any(line.get("text", "").strip() for line in comment.get("lines", [])):
        return False
    origin = comment.get("module")
    return origin is None or origin == module


def location(symbol):
    loc = symbol.get("location")
    if not loc:
        return "?"
    uri = loc.get("uri", "")
    path = uri[len("file://"):] if uri.startswith("file://") else uri
    here = os.getcwd() + os.sep
    if path.startswith(here):
        path = path[len(here):]
    return "%s:%d" % (path, loc.get("position", {}).get("line", 0) + 1)


def coverage(root, module):
    """(public symbols, undocumented ones as (location, name) pairs, and the
    number of members the compiler wrote)."""
    seen = {}
    implicit = set()
    for path in graph_files(root, module):
        with open(path, encoding="utf-8") as f:
            graph = json.load(f)
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in PUBLIC:
                continue
            if symbol.get("kind", {}).get("identifier") == "swift.extension":
                continue
            precise = symbol.get("identifier", {}).get("precise", "")
            if "::SYNTHESIZED::" in precise:
                continue
            if "location" not in symbol:
                implicit.add(precise)
                continue
            # A symbol can appear in more than one graph; it counts once,
            # documented if any of its appearances is.
            name = ".".join(symbol.get("pathComponents", [])) or symbol.get("names", {}).get("title", precise)
            ok = documented(symbol, module)
            if precise in seen:
                seen[precise] = (seen[precise][0] or ok, seen[precise][1], seen[precise][2])
            else:
                seen[precise] = (ok, location(symbol), name)
    missing = sorted((loc, name) for ok, loc, name in seen.values() if not ok)
    return len(seen), missing, len(implicit - set(seen))


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    root, modules = argv[1], argv[2:]
    total_missing = 0
    for module in modules:
        if not graph_files(root, module):
            print("%s: no symbol graph under %s" % (module, root))
            total_missing += 1
            continue
        count, missing, implicit = coverage(root, module)
        for loc, name in missing:
            print("%s: %s has no documentation" % (loc, name))
        print("%s: %d public symbols, %d undocumented (and %d written by the compiler)"
              % (module, count, len(missing), implicit))
        total_missing += len(missing)
    return 1 if total_missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
