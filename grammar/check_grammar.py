#!/usr/bin/env python3
"""Check that grammar/Predicate.ebnf accepts exactly what the parser accepts.

Usage:
    python3 grammar/check_grammar.py --sift PATH_TO_SIFT CASES.jsonl...

For every case, `SIFT check FILE` tells what the real parser did. The parser
rejects a case when it fails at the "parse" stage; failures at "bind" (a
missing format argument, %K with a number, ...) and "eval" are not grammar
matters, so the grammar must accept those cases. Parse failures that are
resource limits (nesting depth, length; the error text contains "limit") are
skipped and counted.

The parser binds format arguments while it reads the text, so a bind error
can stop it before it reaches a syntax error further on ('name == %@ AND
(NOT (%@))' with a predicate argument fails at bind, but is no predicate
whatever the argument). A case that fails at "bind" is therefore run once
more with a fitting argument for each specifier and no variables, and that
run decides whether the parser accepts the text.

The grammar is converted with ebnf_to_lark.py and run with Lark's Earley
parser. The script then checks grammar/examples/accept.txt and reject.txt
(one format string per line) against both the parser and the grammar; for
them it supplies a fitting argument for each format specifier, so that a
missing argument does not hide a syntax error after it.

Prints a summary and every disagreement; exits with 1 if there is any.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # keep grammar/ free of __pycache__

import ebnf_to_lark  # noqa: E402


class CheckError(Exception):
    pass


# --------------------------------------------------------------------------
# The two sides


class Grammar:
    def __init__(self, ebnf_path: str):
        from lark.exceptions import LarkError

        self.error_type = LarkError
        self.parser = ebnf_to_lark.build_parser(ebnf_path, start="format_string")

    def accepts(self, text: str) -> tuple[bool, str]:
        try:
            self.parser.parse(text)
            return True, ""
        except self.error_type as e:
            first_line = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            return False, first_line


def run_sift(sift: str, path: str) -> list[dict]:
    """The outcome of every non-blank line of a case file, in order."""
    try:
        proc = subprocess.run([sift, "check", path], capture_output=True, text=True, timeout=120)
    except OSError as e:
        raise CheckError(f"cannot run {sift}: {e}") from e
    # `sift check` exits with 1 when a case differs from its "expect": that is
    # not this script's business. Anything else is a failure to run.
    if proc.returncode not in (0, 1):
        raise CheckError(f"{sift} check {path} exited with {proc.returncode}:\n{proc.stderr.strip()}")
    outcomes = []
    for number, line in enumerate(proc.stdout.splitlines(), 1):
        if not line.strip():
            continue
        try:
            outcomes.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise CheckError(f"{sift} check {path}: output line {number} is not JSON: {line[:200]}") from e
    return outcomes


def read_cases(path: str) -> list[dict]:
    cases = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                cases.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise CheckError(f"{path}:{number}: not JSON: {e}") from e
    return cases


def parser_verdict(outcome: dict) -> str:
    """'accept', 'reject' or 'limit'."""
    if outcome.get("ok") is False and outcome.get("stage") == "parse":
        return "limit" if "limit" in str(outcome.get("error", "")) else "reject"
    return "accept"


# --------------------------------------------------------------------------
# Arguments for the example strings

ARGUMENT_FOR_CONVERSION = {
    "K": "name",
    "@": "value",
    "s": "text", "S": "text",
    "c": "c", "C": "c",
    **{c: 1 for c in "diDuUxXoO"},
    **{c: 1.5 for c in "feEgG"},
}


def example_arguments(text: str, specifier: re.Pattern) -> list:
    """One fitting argument per format specifier outside quoted strings."""
    arguments: dict[int, object] = {}
    following = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c in "'\"":
            i += 1
            while i < len(text) and text[i] != c:
                i += 2 if text[i] == "\\" else 1
            i += 1
            continue
        if c == "%":
            m = specifier.match(text, i)
            if m:
                spec = m.group(0)
                if spec != "%%":
                    position = re.match(r"%([1-9][0-9]*)\$", spec)
                    if position:
                        index = int(position.group(1)) - 1
                    else:
                        index = following
                        following += 1
                    # %@ takes anything: another specifier of the same
                    # argument decides its type.
                    if spec[-1] != "@" or index not in arguments:
                        arguments[index] = ARGUMENT_FOR_CONVERSION[spec[-1]]
                i = m.end()
                continue
        i += 1
    size = max(arguments) + 1 if arguments else 0
    return [arguments.get(k, "value") for k in range(size)]


def run_with_fitting_arguments(sift: str, texts: list[str], specifier: re.Pattern, label: str) -> list[dict]:
    """Runs each text through `sift check` with fitting arguments and no variables."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as tmp:
        for n, text in enumerate(texts, 1):
            case = {"id": f"{label}:{n}", "format": text, "object": {}, "expect": True}
            arguments = example_arguments(text, specifier)
            if arguments:
                case["args"] = arguments
            tmp.write(json.dumps(case) + "\n")
        tmp_path = tmp.name
    try:
        outcomes = run_sift(sift, tmp_path)
    finally:
        os.unlink(tmp_path)
    if len(outcomes) != len(texts):
        raise CheckError(f"{label}: {len(texts)} lines but {len(outcomes)} results from sift check")
    return outcomes


def read_examples(path: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").rstrip("\r") for line in f if line.strip()]


# --------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sift", required=True, help="the sift executable (its 'check' command is the parser)")
    ap.add_argument("--ebnf", default=ebnf_to_lark.DEFAULT_EBNF, help="the grammar (default: %(default)s)")
    ap.add_argument(
        "--examples", default=os.path.join(HERE, "examples"),
        help="folder with accept.txt and reject.txt (default: %(default)s)")
    ap.add_argument("cases", nargs="*", help="conformance case files (JSON Lines)")
    args = ap.parse_args(argv[1:])

    try:
        grammar = Grammar(args.ebnf)
        specifier = re.compile(ebnf_to_lark.lexical_regex("FORMAT_SPECIFIER", args.ebnf))
    except ebnf_to_lark.EBNFError as e:
        print(f"{args.ebnf}: {e}", file=sys.stderr)
        return 2

    problems: list[str] = []
    counts = {"cases": 0, "accept": 0, "reject": 0, "limit": 0, "agree": 0, "bind": 0}

    try:
        # ---- Conformance cases
        checked_cases: list[tuple[dict, dict]] = []
        for path in args.cases:
            cases = read_cases(path)
            outcomes = run_sift(args.sift, path)
            if len(outcomes) != len(cases):
                raise CheckError(f"{path}: {len(cases)} cases but {len(outcomes)} results from sift check")
            for case, outcome in zip(cases, outcomes):
                if str(outcome.get("id")) != str(case.get("id")):
                    raise CheckError(f"{path}: result {outcome.get('id')!r} does not match case {case.get('id')!r}")
                checked_cases.append((case, outcome))

        bound = [(case, outcome) for case, outcome in checked_cases if outcome.get("stage") == "bind"]
        reruns = run_with_fitting_arguments(
            args.sift, [case["format"] for case, _ in bound], specifier, "bind") if bound else []
        rerun_of = {id(case): rerun for (case, _), rerun in zip(bound, reruns)}
        counts["bind"] = len(bound)

        for case, outcome in checked_cases:
            counts["cases"] += 1
            if id(case) in rerun_of:
                outcome = rerun_of[id(case)]
            verdict = parser_verdict(outcome)
            counts[verdict] += 1
            if verdict == "limit":
                continue
            accepted, why = grammar.accepts(case["format"])
            if accepted == (verdict == "accept"):
                counts["agree"] += 1
                continue
            if verdict == "accept":
                problems.append(
                    f"{case['id']}: parser accepts, grammar rejects: {case['format']!r}\n"
                    f"    grammar: {why}")
            else:
                problems.append(
                    f"{case['id']}: parser rejects, grammar accepts: {case['format']!r}\n"
                    f"    parser: {outcome.get('error')}")

        # ---- Example strings
        example_counts = {}
        for name, wanted in (("accept.txt", "accept"), ("reject.txt", "reject")):
            path = os.path.join(args.examples, name)
            if not os.path.exists(path):
                problems.append(f"{path} is missing")
                continue
            examples = read_examples(path)
            outcomes = run_with_fitting_arguments(args.sift, examples, specifier, name)
            good = 0
            for n, (text, outcome) in enumerate(zip(examples, outcomes), 1):
                verdict = parser_verdict(outcome)
                accepted, why = grammar.accepts(text)
                grammar_verdict = "accept" if accepted else "reject"
                wrong = []
                if verdict != wanted:
                    detail = f" ({outcome.get('stage')}: {outcome.get('error')})" if verdict != "accept" else ""
                    wrong.append(f"parser {verdict}s{detail}")
                if grammar_verdict != wanted:
                    wrong.append(f"grammar {grammar_verdict}s" + (f" ({why})" if why else ""))
                if wrong:
                    problems.append(f"{name}:{n}: should {wanted}: {text!r}\n    " + "\n    ".join(wrong))
                else:
                    good += 1
            example_counts[name] = (good, len(examples))
    except CheckError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    checked = counts["accept"] + counts["reject"]
    print(
        f"cases: {counts['cases']} (parser accepts {counts['accept']}, rejects {counts['reject']}, "
        f"skipped as limits {counts['limit']}; {counts['bind']} bind errors re-run with fitting arguments); "
        f"grammar agrees on {counts['agree']} of {checked}")
    if example_counts:
        print("examples: " + ", ".join(f"{name} {g} of {t} as expected" for name, (g, t) in example_counts.items()))
    for problem in problems:
        print("DISAGREEMENT " + problem)
    print(f"{len(problems)} disagreement{'s' if len(problems) != 1 else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
