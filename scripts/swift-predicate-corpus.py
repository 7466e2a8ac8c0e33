#!/usr/bin/env python3
"""Generate the corpus of Swift `#Predicate` literals of issue 35.

Writes Tests/SiftSQLTests/SwiftPredicateCorpus/Corpus+PartN.swift (and
Corpus+Parts.swift, which lists the parts): `#Predicate<Book>` literals over
`SwiftLibrary.Book` (Tests/SiftTestSupport/SwiftLibrary.swift), drawn from
a seeded grammar, each with what it is expected to give:

  .sql              converts, and lowers to SQLite and PostgreSQL
  .memoryOnly       converts, but the lowering refuses it (arithmetic on
                    a value that may be nil, as `(b.price ?? 0) * 2`; an
                    index, which throws out of range in Swift and Sift)
  .notOnPostgreSQL  converts and lowers to SQLite; PostgreSQL refuses it (a
                    search by character or an ordering with [s], which
                    it cannot do)
  .refused("Type")  conversion is refused with this `expressionType`

SwiftPredicateCorpusTests checks each one: the Swift answer against the
converted filter (typed and on values), SQLite and PostgreSQL.

Each literal has at most three leaves (a closure over a relationship with
two tests inside counts two): the type checker gives up on larger
#Predicate bodies. Negative numbers, edge values and dates are constants
captured from outside the closure (Corpus+Parts.swift).

Usage: scripts/swift-predicate-corpus.py [--seed N] [--count N] [--parts N]
(make swift-predicates runs it with the defaults). The output depends only
on the seed, count and parts.
"""
import argparse
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "SiftSQLTests", "SwiftPredicateCorpus")

SQL, MEM, SQLITE = "sql", "mem", "sqlite"

# String constants. Those no other string is canonically equivalent to
# (ASCII without ; ` K) convert to ==; the others to BETWEEN {c, c}.
ASCII_STRINGS = ["Ann", "ann", "ANN", "Anna", "ab", "abc", "Ab", "b", "emile", "file2", "file10", "zoe", "100%",
                 "a_b", "a*b", "x?y", "", "strasse", "STRASSE", "istanbul", "ss", "nope"]
OTHER_STRINGS = ["Stra\u00dfe", "caf\u00e9", "cafe\u0301", "CAF\u00c9", "\u00c9mile", "\u0130stanbul", "Zo\u00eb",
                 "\u00f1and\u00fa", "na\u00efve", "\u03a9", "Kelvin", "\u212aelvin", "x;y", "x\u037ey", "a`b",
                 "a\u1fefb", "\u1ec7", "e\u0323\u0302", "e\u0302\u0323", "\u00df", "\u00c5", "A\u030a", "\u212b",
                 "back\\slash", "i\u0307", "\u0130"]

# Constants captured from outside the closures: negative numbers and edge
# values (a literal `-1` compared with an optional does not type-check).
CAPTURED = [
    ("minus1", "Int", "-1"), ("minus44", "Int", "-44"), ("intMax", "Int", "Int.max"), ("intMin", "Int", "Int.min"),
    ("twoPow31", "Int", "2_147_483_648"), ("minus3e9", "Int", "-3_000_000_000"),
    ("twoPow53Plus1", "Int", "9_007_199_254_740_993"),
    ("negZero", "Double", "-0.0"), ("minus2_25", "Double", "-2.25"), ("pointThree", "Double", "0.1 + 0.2"),
    ("tiny", "Double", "Double.leastNonzeroMagnitude"), ("huge", "Double", "1e300"), ("minusHuge", "Double", "-1e300"),
    ("largest", "Double", "Double.greatestFiniteMagnitude"), ("inf", "Double", "Double.infinity"),
    ("minusInf", "Double", "-Double.infinity"),
    ("epoch", "Date", "Date(timeIntervalSince1970: 0)"),
    ("y2k", "Date", "Date(timeIntervalSince1970: 946_684_800)"),
    ("early", "Date", "Date(timeIntervalSince1970: -400_000_000)"),
    ("reference", "Date", "Date(timeIntervalSinceReferenceDate: 0)"),
    ("counts1", "[Int]", "[0, 2, 4]"), ("counts2", "[Int]", "[1, 5, 99, -1]"), ("counts3", "[Int]", "[]"),
    ("years1", "[Int?]", "[1995, 2000, nil]"), ("years2", "[Int?]", "[1990, 2010, 0, -1]"),
    ("prices1", "[Double?]", "[2.5, 0, -0.0, 1e300]"), ("prices2", "[Double?]", "[nil, 10]"),
    # Lists of strings are captured: a literal one inside a `? :` can defeat
    # the type checker. titles* are ASCII, others* have non-ASCII and
    # canonically equivalent spellings.
    ("titles1", "[String]", '["Ann", "a*b"]'), ("titles2", "[String]", '["file2", "zoe", "strasse"]'),
    ("titles3", "[String]", '["", "100%"]'),
    ("others1", "[String]", '["caf\\u{E9}", "Ann"]'), ("others2", "[String]", '["\\u{212A}elvin", "x\\u{37E}y", "Ann"]'),
    ("others3", "[String]", '["A\\u{30A}", "\\u{C5}", "\\u{130}stanbul"]'),
]
INT_EDGES = [n for n, t, _ in CAPTURED if t == "Int"]
DOUBLE_EDGES = [n for n, t, _ in CAPTURED if t == "Double"]
DATES = [n for n, t, _ in CAPTURED if t == "Date"]


def swift_string(s):
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        else:
            out.append("\\u{%X}" % ord(ch))
    return '"' + "".join(out) + '"'


class Grammar:
    def __init__(self, rng):
        self.r = rng

    def pick(self, xs):
        return self.r.choice(xs)

    def chance(self, p):
        return self.r.random() < p

    # Constants

    def string(self):
        return swift_string(self.pick(ASCII_STRINGS) if self.chance(0.5) else self.pick(OTHER_STRINGS))

    def year(self):
        return self.pick(INT_EDGES) if self.chance(0.2) else str(self.r.randint(1990, 2010))

    def price(self):
        if self.chance(0.25):
            return self.pick(DOUBLE_EDGES)
        return repr(self.r.randint(-8, 40) / 4)

    def optional_price(self):
        # A negative literal does not type-check against an optional.
        price = self.price()
        return "minus2_25" if price.startswith("-") else price

    def positive_price(self):
        return repr(self.r.randint(0, 40) / 4)

    def order(self):
        return self.pick(["<", "<=", ">", ">="])

    def equality(self):
        return self.pick(["==", "!="])

    # Leaves: (Swift text, class, leaves). class is SQL, MEM or the refused
    # expression type.

    def chapter_test(self, c):
        return self.pick([
            lambda: f"{c}.pages {self.equality()} {self.r.randint(1, 40)}",
            lambda: f"{c}.pages {self.equality()} nil",
            lambda: f"{c}.pages == {self.pick(INT_EDGES)}",
            lambda: f"{c}.name {self.equality()} {self.string()}",
            lambda: f"{c}.name == nil",
        ])()

    def tag_test(self, t):
        return self.pick([
            lambda: f"{t}.name {self.equality()} {self.string()}",
            lambda: f"{t}.name == nil",
            lambda: f"{t}.name {self.equality()} nil",
        ])()

    def relationship(self):
        """A closure over chapters or tags: (text, class, leaves)."""
        if self.chance(0.6):
            rel, var, test = "chapters", "c", self.chapter_test
        else:
            rel, var, test = "tags", "t", self.tag_test
        inner, leaves, cls = test(var), 1, SQL
        if self.chance(0.25):
            inner = f"{inner} {self.pick(['&&', '||'])} {test(var)}"
            leaves = 2
        elif rel == "chapters" and self.chance(0.15):
            inner = f"({var}.pages ?? 0) {self.order()} {self.r.randint(1, 40)}"
        shape = self.r.randint(0, 3)
        if shape == 0:
            return f"b.{rel}.contains {{ {var} in {inner} }}", cls, leaves
        if shape == 1:
            return f"b.{rel}.allSatisfy {{ {var} in {inner} }}", cls, leaves
        if shape == 2:
            return f"b.{rel}.filter {{ {var} in {inner} }}.count {self.pick(['==', '>', '>=', '<'])} {self.r.randint(0, 2)}", cls, leaves
        return f"!b.{rel}.contains {{ {var} in {inner} }}", cls, leaves

    def sql_leaf(self):
        g = self
        choices = [
            lambda: f"b.title {g.equality()} {g.string()}",
            lambda: f"b.code {g.equality()} {g.string()}",
            lambda: f"b.code {g.equality()} nil",
            lambda: f"b.year {g.equality()} {g.year()}",
            lambda: f"b.year {g.equality()} nil",
            lambda: f"b.price {g.equality()} {g.optional_price()}",
            lambda: f"b.price {g.equality()} nil",
            lambda: f"b.published {g.equality()} {g.pick(DATES + ['nil', 'nil'])}",
            lambda: f"({g.r.randint(0, 2)}...{g.r.randint(2, 4)}).contains(b.{g.pick(['chapters', 'tags'])}.count)",
            lambda: f"({g.r.randint(0, 2)}..<{g.r.randint(2, 4)}).contains(b.{g.pick(['chapters', 'tags'])}.count)",
            lambda: f"b.author {g.equality()} nil",
            lambda: f"b.author?.name {g.equality()} {g.string()}",
            lambda: f"b.author?.name == nil",
            lambda: f"b.author?.age {g.equality()} {g.pick([str(g.r.randint(20, 90)), 'nil', g.pick(INT_EDGES)])}",
            lambda: f"b.author?.active {g.equality()} {g.pick(['true', 'false', 'nil'])}",
            lambda: f"b.author?.rating {g.equality()} {g.pick([repr(g.r.randint(0, 50) / 10), 'nil', g.pick(DOUBLE_EDGES)])}",
            lambda: f"b.author?.born {g.equality()} {g.pick(DATES + ['nil'])}",
            lambda: f"b.{g.pick(['chapters', 'tags'])}.count {g.pick(['==', '!=', '<', '>', '>='])} {g.r.randint(0, 3)}",
            lambda: f"{g.pick(['', '!'])}b.{g.pick(['chapters', 'tags'])}.isEmpty",
            lambda: f"{g.pick(['counts1', 'counts2', 'counts3', '[1, 3]'])}.contains(b.{g.pick(['chapters', 'tags'])}.count)",
            lambda: f"{g.pick(['titles1', 'titles2', 'titles3'])}.contains(b.title)",
            lambda: f"{g.pick(['years1', 'years2'])}.contains(b.year)",
            lambda: f"{g.pick(['prices1', 'prices2'])}.contains(b.price)",
            # Strings in Swift's order ([s]; PostgreSQL refuses it, see
            # SQLITE_ONLY) and by canonical equivalence.
            lambda: f"b.title {g.order()} {g.string()}",
            lambda: f"b.code {g.equality()} b.author?.name",
            lambda: f"{g.pick(['others1', 'others2', 'others3'])}.contains(b.title)",
        ]
        # [s] orderings are Swift's <, which orders a few unequal strings
        # neither way: SQLite's functions answer as it does, PostgreSQL
        # refuses them.
        SQLITE_ONLY = {len(choices) - 3}
        if self.chance(0.12):
            # Searches by character ([s]): SQLite's functions find them,
            # PostgreSQL has no grapheme clusters and refuses them.
            search = self.pick([
                lambda: f"b.title.contains({g.string()})",
                lambda: f"b.title.starts(with: {g.string()})",
            ])
            return search(), SQLITE, 1
        i = self.pick(list(range(len(choices))))
        return choices[i](), SQLITE if i in SQLITE_ONLY else SQL, 1

    def memory_leaf(self):
        """A leaf drawn from those that once were memory-only: `??`, a `? :`
        giving a value and `.first`/`.last` now lower (TERNARY operands are
        distributed, [FIRST]/[LAST] read the ordered relationship), and so
        does arithmetic on values that are never nil (counts); arithmetic
        on a value that may be nil has no SQL form (memory raises on nil)."""
        g = self
        choices = [
            (lambda: f"(b.year ?? 0) {g.order()} {g.r.randint(1990, 2010)}", SQL),
            (lambda: f"(b.year ?? {g.r.randint(1990, 2010)}) {g.order()} {g.pick(INT_EDGES)}", SQL),
            (lambda: f"(b.price ?? 0) {g.order()} {g.price()}", SQL),
            (lambda: f"(b.price ?? -1) {g.order()} {g.positive_price()}", SQL),
            (lambda: f"(b.author?.age ?? -1) {g.order()} {g.r.randint(20, 90)}", SQL),
            (lambda: f"(b.author?.rating ?? 0) {g.order()} {repr(g.r.randint(0, 50) / 10)}", SQL),
            (lambda: f"(b.published ?? {g.pick(DATES)}) {g.order()} {g.pick(DATES)}", SQL),
            (lambda: f"(b.author?.born ?? {g.pick(DATES)}) {g.order()} {g.pick(DATES)}", SQL),
            (lambda: f"b.chapters.count {g.pick(['+', '-', '*'])} {g.r.randint(1, 3)} {g.order()} {g.r.randint(0, 6)}", SQL),
            (lambda: f"b.tags.count * {g.pick(['minus1', 'minus44', '-3'])} {g.order()} {g.pick(['-1', 'minus44', '-3'])}", SQL),
            (lambda: f"b.chapters.count * 2 {g.order()} {g.r.randint(0, 8)}", SQL),
            (lambda: f"(b.price ?? 0) {g.pick(['+', '-', '*', '/'])} {g.positive_price()} {g.order()} {g.price()}", MEM),
            (lambda: f"(b.price ?? 1) / {g.pick(['2', '0.5', '3', 'pointThree', 'negZero', 'huge'])} {g.order()} {g.positive_price()}", MEM),
            (lambda: f"-(b.price ?? 0) {g.order()} {g.price()}", MEM),
            # Not on year or age: they hold Int.max, and Swift traps on overflow.
            (lambda: f"b.tags.count + {g.r.randint(1, 3)} == {g.r.randint(1, 5)}", SQL),
            (lambda: f"(b.author == nil ? 0 : b.chapters.count) {g.order()} {g.r.randint(0, 4)}", SQL),
            (lambda: f"(b.year == nil ? b.tags.count : {g.r.randint(0, 3)}) {g.order()} {g.r.randint(0, 3)}", SQL),
            (lambda: f"b.chapters.first?.pages {g.equality()} {g.r.randint(1, 40)}", SQL),
            (lambda: f"b.chapters.last?.name == {g.string()}", SQL),
            (lambda: f"b.tags.first?.name {g.equality()} {g.string()}", SQL),
        ]
        make, cls = self.pick(choices)
        return make(), cls, 1

    def refused_leaf(self):
        g = self
        choices = [
            (lambda: f"b.title.count {g.order()} {g.r.randint(1, 6)}", "KeyPath"),
            (lambda: f"b.title.isEmpty", "KeyPath"),
            (lambda: f"b.chapters.count / {g.r.randint(2, 3)} == {g.r.randint(0, 2)}", "IntDivision"),
            (lambda: f"(b.year ?? 0) % {g.r.randint(2, 9)} == 0", "IntRemainder"),
            (lambda: f"b.year! > {g.r.randint(1990, 2010)}", "ForcedUnwrap"),
            (lambda: f"b.chapters[0..<{g.r.randint(1, 2)}].isEmpty", "CollectionRangeSubscript"),
            (lambda: f"b.title.contains(/{g.pick(['A.n', 'a+', 'x;y', 'K'])}/)", "StringContainsRegex"),
            (lambda: f"b.author.flatMap {{ _ in 1 }} == 1", "OptionalFlatMap"),
            (lambda: f"b.code?.count == {g.r.randint(1, 6)}", "OptionalFlatMap"),
        ]
        make, type_name = self.pick(choices)
        return make(), type_name, 1

    def subscript_leaf(self):
        """An index into chapters or tags (memory only: out of range it throws,
        in Swift and in Sift), or a regular expression of plain characters
        (CONTAINS[s]): (text, class, leaves)."""
        g = self
        choices = [
            (lambda: f"b.chapters[{g.r.randint(0, 1)}].pages {g.equality()} {g.r.randint(1, 40)}", MEM, 1),
            (lambda: f"!b.chapters.isEmpty && b.chapters[0].name {g.equality()} {g.string()}", MEM, 2),
            (lambda: f"b.tags.count < 2 || b.tags[1].name == {g.string()}", MEM, 2),
            (lambda: f"b.title.contains(/{g.pick(['Ann', 'ab', 'file', 'e', 'ss', '100%'])}/)", SQLITE, 1),
        ]
        make, cls, leaves = self.pick(choices)
        return make(), cls, leaves

    def leaf(self, kind):
        if kind == "refused":
            return self.refused_leaf()
        if kind == MEM:
            return self.subscript_leaf() if self.chance(0.2) else self.memory_leaf()
        if self.chance(0.3):
            return self.relationship()
        return self.sql_leaf()

    def predicate(self):
        """(Swift body, expectation): at most three leaves."""
        roll = self.r.random()
        special = "refused" if roll < 0.13 else MEM if roll < 0.36 else None
        wanted = self.pick([1, 1, 2, 2, 2, 3, 3])
        leaves = []
        total = 0
        special_at = self.r.randrange(wanted)
        while len(leaves) < wanted:
            kind = special if special and len(leaves) == special_at else SQL
            text, cls, n = self.leaf(kind)
            if total + n > 3 and leaves:
                break
            leaves.append((text, cls))
            total += n
        body = self.combine(leaves)
        classes = [c for _, c in leaves]
        refused = [c for c in classes if c not in (SQL, MEM, SQLITE)]
        if refused:
            return body, f'.refused("{refused[0]}")'
        if MEM in classes:
            return body, ".memoryOnly"
        return body, ".notOnPostgreSQL" if SQLITE in classes else ".sql"

    def operand(self, text):
        # `!` before a comparison needs parentheses; a closure call keeps
        # them for clarity.
        return f"!({text})" if self.chance(0.15) else f"({text})"

    def combine(self, leaves):
        if len(leaves) == 1:
            text = leaves[0][0]
            return f"!({text})" if self.chance(0.15) else text
        if len(leaves) == 3 and self.chance(0.25):
            a, b, c = (self.operand(t) for t, _ in leaves)
            return f"{a} ? {b} : {c}"
        parts = [self.operand(t) for t, _ in leaves]
        if len(parts) == 2:
            return f"{parts[0]} {self.pick(['&&', '||'])} {parts[1]}"
        return f"({parts[0]} {self.pick(['&&', '||'])} {parts[1]}) {self.pick(['&&', '||'])} {parts[2]}"


HEADER = """// Generated by scripts/swift-predicate-corpus.py{args} (make swift-predicates).
// Do not edit: change the script and run it again.
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--count", type=int, default=360)
    parser.add_argument("--parts", type=int, default=4)
    opts = parser.parse_args()
    rng = random.Random(opts.seed)
    grammar = Grammar(rng)
    entries = []
    seen = set()
    while len(entries) < opts.count:
        body, expect = grammar.predicate()
        if body in seen:
            continue
        seen.add(body)
        entries.append((body, expect))

    args = "" if (opts.seed, opts.count, opts.parts) == (35, 360, 4) else f" --seed {opts.seed} --count {opts.count} --parts {opts.parts}"
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        if name.startswith("Corpus+") and name.endswith(".swift"):
            os.remove(os.path.join(OUT, name))
    per_part = -(-len(entries) // opts.parts)
    for p in range(opts.parts):
        chunk = entries[p * per_part:(p + 1) * per_part]
        lines = [HEADER.format(args=args), "import Foundation", "import SiftTestSupport", "",
                 "extension SwiftPredicateCorpus {",
                 f"    static func part{p + 1}() -> [Entry] {{", "        var entries: [Entry] = []"]
        for i, (body, expect) in enumerate(chunk):
            n = p * per_part + i + 1
            lines.append(f"        entries.append(Entry({n}, {expect}, #Predicate<Book> {{ b in {body} }}))")
        lines += ["        return entries", "    }", "}", ""]
        with open(os.path.join(OUT, f"Corpus+Part{p + 1}.swift"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines))

    lines = [HEADER.format(args=args), "import Foundation", "", "extension SwiftPredicateCorpus {",
             "    /// Every entry of the corpus, in order.",
             "    static func all() -> [Entry] {",
             "        " + " + ".join(f"part{p + 1}()" for p in range(opts.parts)),
             "    }", ""]
    lines.append("    // Constants the predicates capture.")
    for name, type_name, value in CAPTURED:
        lines.append(f"    static let {name}: {type_name} = {value}")
    lines += ["}", ""]
    with open(os.path.join(OUT, "Corpus+Parts.swift"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    refused = sum(1 for _, e in entries if e.startswith(".refused"))
    memory = sum(1 for _, e in entries if e == ".memoryOnly")
    sqlite_only = sum(1 for _, e in entries if e == ".notOnPostgreSQL")
    print(f"{len(entries)} predicates in {opts.parts} parts: {len(entries) - refused - memory - sqlite_only} .sql, "
          f"{sqlite_only} .notOnPostgreSQL, {memory} .memoryOnly, {refused} refused")


if __name__ == "__main__":
    main()
