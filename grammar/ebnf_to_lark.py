#!/usr/bin/env python3
"""Convert grammar/Predicate.ebnf into a Lark grammar.

The EBNF file is the only grammar; this script translates it mechanically
(see the notation section at the top of Predicate.ebnf):

* lower_case productions become Lark rules;
* UPPER_CASE productions are lexical: each one that a rule uses becomes a
  Lark terminal whose regular expression is compiled from the production and
  everything it refers to; WHITESPACE becomes %ignore;
* a quoted literal in a rule becomes a terminal of its own; a literal that
  ends with a word character is followed by the look-ahead !WORD_PART, which
  is the whole-word rule stated in the EBNF;
* "x"i becomes (?i:x), e{m,n} becomes (?:e){m,n}, !e becomes (?!e) and
  a - b becomes (?!b)a. The last one is exact for this grammar because every
  b used with '-' either has the same length as a (HEX_QUAD - SURROGATE) or
  ends with its own whole-word look-ahead (WORD - KEYWORD).

The result is meant for Lark's Earley parser with the dynamic lexer
(build_parser below): terminals are matched where the parser expects them,
so identifiers, option letters and function names may overlap, and the
look-aheads keep every token as long as the real lexer makes it.

Usage: python3 grammar/ebnf_to_lark.py [Predicate.ebnf] > predicate.lark
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_EBNF = os.path.join(HERE, "Predicate.ebnf")
START_RULES = ["format_string", "expression_format_string"]
IGNORED = "WHITESPACE"
WORD_PART = "WORD_PART"


class EBNFError(Exception):
    pass


# --------------------------------------------------------------------------
# Reading the EBNF


TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>/\*.*?\*/)
  | (?P<define>::=)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<literal>'[^']*'i?|"[^"]*"i?)
  | (?P<charclass>\[[^\]]*\])
  | (?P<codepoint>\#x[0-9A-Fa-f]+)
  | (?P<repeat>\{\s*\d+\s*(?:,\s*\d+\s*)?\})
  | (?P<punct>[()|?*+!-])
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass
class Tok:
    kind: str
    text: str
    line: int


def tokenize(text: str) -> list[Tok]:
    tokens: list[Tok] = []
    pos = 0
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            line = text.count("\n", 0, pos) + 1
            raise EBNFError(f"line {line}: cannot read {text[pos:pos + 20]!r}")
        kind = m.lastgroup
        if kind not in ("ws", "comment"):
            tokens.append(Tok(kind, m.group(0), text.count("\n", 0, pos) + 1))
        pos = m.end()
    return tokens


# AST nodes are tuples:
#   ("alt", [nodes]) ("seq", [nodes]) ("rep", node, min, max|None)
#   ("diff", a, b) ("not", node) ("lit", text, case_insensitive)
#   ("class", negated, [(lo, hi)]) ("ref", name)


@dataclass
class Production:
    name: str
    body: tuple
    line: int


@dataclass
class Parser:
    tokens: list[Tok]
    pos: int = 0
    productions: dict[str, Production] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)

    def peek(self, offset: int = 0) -> Tok | None:
        i = self.pos + offset
        return self.tokens[i] if i < len(self.tokens) else None

    def at_production_start(self) -> bool:
        t, d = self.peek(), self.peek(1)
        return t is not None and t.kind == "name" and d is not None and d.kind == "define"

    def error(self, message: str) -> EBNFError:
        t = self.peek()
        where = f"line {t.line}, at {t.text!r}" if t else "at the end"
        return EBNFError(f"{where}: {message}")

    def parse(self) -> None:
        while self.peek() is not None:
            if not self.at_production_start():
                raise self.error("expected 'name ::='")
            name_tok = self.peek()
            self.pos += 2
            body = self.alternatives()
            if self.peek() is not None and not self.at_production_start():
                raise self.error("unexpected token")
            if name_tok.text in self.productions:
                raise EBNFError(f"line {name_tok.line}: {name_tok.text} is defined twice")
            self.productions[name_tok.text] = Production(name_tok.text, body, name_tok.line)
            self.order.append(name_tok.text)

    def alternatives(self) -> tuple:
        options = [self.sequence()]
        while self.peek() is not None and self.peek().text == "|" and self.peek().kind == "punct":
            self.pos += 1
            options.append(self.sequence())
        return options[0] if len(options) == 1 else ("alt", options)

    def sequence(self) -> tuple:
        items = []
        while True:
            t = self.peek()
            if t is None or self.at_production_start():
                break
            if t.kind == "punct" and t.text in "|)":
                break
            items.append(self.difference())
        if not items:
            raise self.error("empty sequence")
        return items[0] if len(items) == 1 else ("seq", items)

    def difference(self) -> tuple:
        left = self.prefix()
        t = self.peek()
        if t is not None and t.kind == "punct" and t.text == "-":
            self.pos += 1
            right = self.prefix()
            return ("diff", left, right)
        return left

    def prefix(self) -> tuple:
        t = self.peek()
        if t is not None and t.kind == "punct" and t.text == "!":
            self.pos += 1
            return ("not", self.prefix())
        return self.postfix()

    def postfix(self) -> tuple:
        node = self.atom()
        while True:
            t = self.peek()
            if t is None:
                return node
            if t.kind == "punct" and t.text in "?*+":
                self.pos += 1
                low, high = {"?": (0, 1), "*": (0, None), "+": (1, None)}[t.text]
                node = ("rep", node, low, high)
            elif t.kind == "repeat":
                self.pos += 1
                numbers = [int(x) for x in t.text.strip("{}").split(",")]
                low, high = (numbers[0], numbers[0]) if len(numbers) == 1 else tuple(numbers)
                node = ("rep", node, low, high)
            else:
                return node

    def atom(self) -> tuple:
        t = self.peek()
        if t is None:
            raise self.error("expected an item")
        self.pos += 1
        if t.kind == "name":
            return ("ref", t.text)
        if t.kind == "literal":
            ci = t.text.endswith("i")
            text = t.text[1:-2] if ci else t.text[1:-1]
            if not text:
                raise self.error("empty literal")
            return ("lit", text, ci)
        if t.kind == "charclass":
            return parse_charclass(t)
        if t.kind == "codepoint":
            c = int(t.text[2:], 16)
            return ("class", False, [(c, c)])
        if t.kind == "punct" and t.text == "(":
            node = self.alternatives()
            close = self.peek()
            if close is None or close.text != ")":
                raise self.error("expected ')'")
            self.pos += 1
            return node
        self.pos -= 1
        raise self.error("expected an item")


def parse_charclass(tok: Tok) -> tuple:
    """[abc], [a-z], [^'\\], [#x20#x9]: W3C classes, with no escapes."""
    body = tok.text[1:-1]
    negated = body.startswith("^")
    if negated:
        body = body[1:]

    def one(i: int) -> tuple[int, int]:
        m = re.match(r"#x([0-9A-Fa-f]+)", body[i:])
        if m:
            return int(m.group(1), 16), i + m.end()
        return ord(body[i]), i + 1

    ranges: list[tuple[int, int]] = []
    i = 0
    while i < len(body):
        lo, i = one(i)
        hi = lo
        if i + 1 < len(body) and body[i] == "-":
            hi, i = one(i + 1)
            if hi < lo:
                raise EBNFError(f"line {tok.line}: bad range in {tok.text}")
        ranges.append((lo, hi))
    if not ranges:
        raise EBNFError(f"line {tok.line}: empty character class")
    return ("class", negated, ranges)


def read_ebnf(text: str) -> Parser:
    p = Parser(tokenize(text))
    p.parse()
    for name in p.order:
        for ref in references(p.productions[name].body):
            if ref not in p.productions:
                raise EBNFError(f"line {p.productions[name].line}: {name} uses undefined {ref}")
    return p


def references(node: tuple):
    kind = node[0]
    if kind == "ref":
        yield node[1]
    elif kind in ("alt", "seq"):
        for child in node[1]:
            yield from references(child)
    elif kind == "rep":
        yield from references(node[1])
    elif kind == "diff":
        yield from references(node[1])
        yield from references(node[2])
    elif kind == "not":
        yield from references(node[1])


def is_lexical(name: str) -> bool:
    return name.isupper() or not any(c.islower() for c in name)


# --------------------------------------------------------------------------
# Lexical productions to regular expressions

REGEX_SPECIAL = set("\\.^$*+?{}[]()|/-#&~ ")


def regex_char(c: int, in_class: bool) -> str:
    ch = chr(c)
    named = {0x9: "\\t", 0xA: "\\n", 0xD: "\\r"}
    if c in named:
        return named[c]
    if c < 0x20 or c == 0x7F or c > 0x7E:
        return f"\\u{c:04x}" if c <= 0xFFFF else f"\\U{c:08x}"
    if ch in REGEX_SPECIAL or (in_class and ch in "]^-"):
        return "\\" + ch
    return ch


class RegexCompiler:
    def __init__(self, productions: dict[str, Production]):
        self.productions = productions
        self.cache: dict[str, str] = {}
        self.active: set[str] = set()

    def production(self, name: str) -> str:
        if name in self.cache:
            return self.cache[name]
        if not is_lexical(name):
            raise EBNFError(f"lexical production uses the syntactic production {name}")
        if name in self.active:
            raise EBNFError(f"lexical production {name} is recursive")
        self.active.add(name)
        regex = self.compile(self.productions[name].body)
        self.active.discard(name)
        self.cache[name] = regex
        return regex

    def compile(self, node: tuple) -> str:
        kind = node[0]
        if kind == "lit":
            text = "".join(regex_char(ord(c), False) for c in node[1])
            # ASCII-only case folding: "SELF"i must not match a long s.
            return f"(?ai:{text})" if node[2] else text
        if kind == "class":
            negated, ranges = node[1], node[2]
            parts = []
            for lo, hi in ranges:
                parts.append(regex_char(lo, True) if lo == hi else f"{regex_char(lo, True)}-{regex_char(hi, True)}")
            return "[" + ("^" if negated else "") + "".join(parts) + "]"
        if kind == "ref":
            return group(self.production(node[1]))
        if kind == "seq":
            # Alternatives are always emitted inside (?:...), so the items
            # of a sequence need no extra grouping.
            return "".join(self.compile(child) for child in node[1])
        if kind == "alt":
            return "(?:" + "|".join(self.compile(child) for child in node[1]) + ")"
        if kind == "rep":
            inner = group(self.compile(node[1]))
            low, high = node[2], node[3]
            if (low, high) == (0, 1):
                return inner + "?"
            if (low, high) == (0, None):
                return inner + "*"
            if (low, high) == (1, None):
                return inner + "+"
            if low == high:
                return inner + "{%d}" % low
            return inner + "{%d,%s}" % (low, "" if high is None else high)
        if kind == "diff":
            return f"(?!{self.compile(node[2])}){group(self.compile(node[1]))}"
        if kind == "not":
            return f"(?!{self.compile(node[1])})"
        raise EBNFError(f"unknown node {kind}")


def is_atomic(regex: str) -> bool:
    """Whether a regex can take a quantifier without a group."""
    if re.fullmatch(r"\\?.", regex) or re.fullmatch(r"\\u[0-9a-f]{4}|\\U[0-9a-f]{8}", regex):
        return True
    if regex.startswith("[") and regex.endswith("]") and regex.count("]") - regex.count("\\]") == 1:
        return True
    if regex.startswith("(?") and matching_paren(regex, 0) == len(regex) - 1:
        return not regex.startswith("(?!") and not regex.startswith("(?=")
    return False


def matching_paren(regex: str, start: int) -> int:
    depth = 0
    i = start
    in_class = False
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def group(regex: str) -> str:
    return regex if is_atomic(regex) else f"(?:{regex})"


# --------------------------------------------------------------------------
# Syntactic productions to Lark rules

PUNCTUATION_NAMES = {
    "(": "LPAR", ")": "RPAR", "[": "LSQB", "]": "RSQB", "{": "LBRACE", "}": "RBRACE",
    ",": "COMMA", ".": "DOT", "+": "PLUS", "-": "MINUS", "/": "SLASH", "^": "CIRCUMFLEX",
    "~": "TILDE", "&&": "DOUBLE_AMPERSAND", "||": "DOUBLE_PIPE",
}


@dataclass
class Conversion:
    lark: str
    terminals: dict[str, str]  # terminal name -> intended regex
    ignore: list[str]


def convert(ebnf_text: str) -> Conversion:
    grammar = read_ebnf(ebnf_text)
    compiler = RegexCompiler(grammar.productions)
    if WORD_PART not in grammar.productions:
        raise EBNFError(f"the grammar must define {WORD_PART} (used by the whole-word rule)")
    word_part = compiler.production(WORD_PART)

    terminals: dict[str, str] = {}
    literal_names: dict[tuple[str, bool], str] = {}

    def literal_terminal(text: str, ci: bool) -> str:
        key = (text, ci)
        if key in literal_names:
            return literal_names[key]
        if text in PUNCTUATION_NAMES:
            base = PUNCTUATION_NAMES[text]
        elif re.fullmatch(r"[A-Za-z0-9_-]+", text):
            base = "LIT_" + text.upper().replace("-", "_") + ("_I" if ci else "")
        else:
            base = "LIT_%d" % len(literal_names)
        name = base
        n = 2
        while name in terminals or name in grammar.productions:
            name = f"{base}_{n}"
            n += 1
        regex = compiler.compile(("lit", text, ci))
        if re.match(r"\w", text[-1], re.ASCII):
            regex += f"(?!{word_part})"
        terminals[name] = regex
        literal_names[key] = name
        return name

    def rule_expr(node: tuple, top: bool = False) -> str:
        kind = node[0]
        if kind == "ref":
            name = node[1]
            if is_lexical(name):
                if name not in terminals:
                    terminals[name] = compiler.production(name)
                return name
            return name
        if kind == "lit":
            return literal_terminal(node[1], node[2])
        if kind == "seq":
            return " ".join(rule_expr(child) for child in node[1])
        if kind == "alt":
            joined = ("\n    | " if top else " | ").join(rule_expr(child) for child in node[1])
            return joined if top else f"({joined})"
        if kind == "rep":
            low, high = node[2], node[3]
            inner = rule_expr(node[1])
            if node[1][0] == "seq":
                inner = f"({inner})"
            suffix = {(0, 1): "?", (0, None): "*", (1, None): "+"}.get((low, high))
            if suffix is None:
                raise EBNFError("counted repetition {m,n} is only supported in lexical productions")
            return inner + suffix
        raise EBNFError(f"{kind} is only supported in lexical productions")

    rules = []
    for name in grammar.order:
        if is_lexical(name):
            continue
        body = grammar.productions[name].body
        rules.append(f"{name}: {rule_expr(body, top=True)}")

    ignore = []
    if IGNORED in grammar.productions:
        terminals[IGNORED] = compiler.production(IGNORED)
        ignore.append(IGNORED)

    lines = [
        "// Generated from Predicate.ebnf by ebnf_to_lark.py. Do not edit;",
        "// edit Predicate.ebnf and regenerate.",
        "// Use with Lark(..., parser='earley', lexer='dynamic').",
        "",
    ]
    lines += rules
    lines.append("")
    for name, regex in terminals.items():
        lines.append(f"{name}: /{regex}/")
    for name in ignore:
        lines.append(f"%ignore {name}")
    return Conversion("\n".join(lines) + "\n", terminals, ignore)


def lexical_regex(name: str, ebnf_path: str = DEFAULT_EBNF) -> str:
    """The regular expression of one lexical production (FORMAT_SPECIFIER, ...)."""
    with open(ebnf_path, encoding="utf-8") as f:
        grammar = read_ebnf(f.read())
    return RegexCompiler(grammar.productions).production(name)


def build_parser(ebnf_path: str = DEFAULT_EBNF, start: str | list[str] = "format_string"):
    """A Lark Earley parser for the grammar, checked against the intended regexes."""
    from lark import Lark

    with open(ebnf_path, encoding="utf-8") as f:
        conversion = convert(f.read())
    parser = Lark(conversion.lark, parser="earley", lexer="dynamic", start=start)
    # Lark re-reads the escapes in /regex/ literals (turning \\t, \\n, \\uXXXX
    # into the characters themselves): make sure every terminal ended up with
    # the regular expression that was meant.
    actual = {t.name: t.pattern.value for t in parser.terminals}
    for name, regex in conversion.terminals.items():
        if name in actual and actual[name] != unescape(regex):
            raise EBNFError(f"terminal {name} changed in Lark: {actual[name]!r} != {regex!r}")
    return parser


def unescape(regex: str) -> str:
    """The regex as Lark reads it back: \\t \\n \\r \\uXXXX become characters."""
    out = []
    i = 0
    while i < len(regex):
        c = regex[i]
        if c == "\\" and i + 1 < len(regex):
            n = regex[i + 1]
            if n in "tnr":
                out.append({"t": "\t", "n": "\n", "r": "\r"}[n])
                i += 2
                continue
            if n in "uU":
                width = 4 if n == "u" else 8
                out.append(chr(int(regex[i + 2:i + 2 + width], 16)))
                i += 2 + width
                continue
            out.append(regex[i:i + 2])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def main(argv: list[str]) -> int:
    path = argv[1] if len(argv) > 1 else DEFAULT_EBNF
    try:
        with open(path, encoding="utf-8") as f:
            sys.stdout.write(convert(f.read()).lark)
    except EBNFError as e:
        print(f"{path}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
