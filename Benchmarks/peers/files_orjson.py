"""Python with orjson, as a user would count a file's matches: a loop over
the lines of JSON Lines, or over the elements of a parsed JSON array.

  files_orjson.py FILE lines|array PREDICATE-INDEX   (the predicates of files.py)
"""
import sys

import orjson

sys.path.insert(0, __import__("os").path.dirname(__file__))
from files import PREDICATES  # noqa: E402

path, form, index = sys.argv[1], sys.argv[2], int(sys.argv[3])
test = PREDICATES[index]["python"]
count = 0
with open(path, "rb") as f:
    if form == "lines":
        for line in f:
            if line.strip() and test(orjson.loads(line)):
                count += 1
    else:
        for record in orjson.loads(f.read()):
            if test(record):
                count += 1
print(count)
