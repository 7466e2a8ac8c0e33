# make repl   build sift and open the REPL on the built-in sample data
# make test   install what is missing, build, run every test, and make docs
# make check  build, and run the tests that need no server, tmux, tsan or
#             fuzzing: the everyday loop (about 75 seconds after a build)
# make golden rewrite the golden SQL files (Tests/Fixtures/golden) from the
#             lowering as it is, after a change meant to change the SQL
# make swift-predicates  regenerate the #Predicate corpus of issue 35
#             (Tests/SiftSQLTests/SwiftPredicateCorpus) from its seeded grammar
# make fuzz   run each fuzz target for FUZZ_SECONDS (300 by default)
# make docs   build the DocC archives of the libraries, warnings as errors,
#             and check that every public symbol is documented
# make serve  build sift and serve the built-in sample data (a SQLite file
#             in a new temporary folder) with `sift serve`; prints the URL
SWIFT ?= swift
PYTHON ?= python3
# A crash in a test run prints every thread's backtrace with symbol names
# but no line numbers (symbolicate=fast): the full symbolication of a test
# binary this size once took longer than a CI run may, which then ended
# without saying what had crashed.
export SWIFT_BACKTRACE ?= enable=yes,symbolicate=fast,interactive=no
# Each test run of make test and make check ends within TEST_SECONDS: a
# stalled run gets SIGQUIT (every thread's backtrace, as above), then
# SIGKILL (scripts/timed.sh). The longest run takes about 4 minutes on
# 2 cores.
TEST_SECONDS ?= 900
TIMED = scripts/timed.sh $(TEST_SECONDS)
APT_PACKAGES = libpcre2-dev pkg-config libsqlite3-dev libpq-dev libedit-dev tmux zlib1g-dev
LARK_VERSION = 1.3.1
DUCKDB_VERSION = 2.0.0
SIFT = .build/debug/sift
CASES = Tests/Fixtures/cases/language.jsonl Tests/Fixtures/cases/probe.jsonl Tests/Fixtures/cases/observed.jsonl

# The tmux suite drives the REPL in a terminal (two minutes); the
# PostgreSQL suites skip themselves without SIFT_POSTGRES.
CHECK_SKIPPED = ReplTerminalTests

.PHONY: all build check golden swift-predicates test repl deps system-deps python-deps swift-test grammar-check check-cases tsan stress neighbours \
	bench bench-quick bench-deps fuzz fuzz-build fuzz-smoke docs

all: build

# System packages, installed with apt-get when run as root and missing.
system-deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing$$missing"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "missing system packages:$$missing (run 'sudo apt-get install$$missing' or run make as root)"; exit 1; \
	  fi; \
	fi

# lark, for checking grammar/Predicate.ebnf against the parser; duckdb, for
# running the DuckDB dialect's SQL (DuckDBDifferentialTests runs
# scripts/duckdb-differential.py).
python-deps:
	@$(PYTHON) -c "import lark, sys; sys.exit(lark.__version__ != '$(LARK_VERSION)')" 2>/dev/null || \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check "lark==$(LARK_VERSION)" || \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check --break-system-packages "lark==$(LARK_VERSION)"
	@$(PYTHON) -c "import duckdb, sys; sys.exit(duckdb.__version__ != '$(DUCKDB_VERSION)')" 2>/dev/null || \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check "duckdb==$(DUCKDB_VERSION)" || \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check --break-system-packages "duckdb==$(DUCKDB_VERSION)"

deps: system-deps python-deps

build: system-deps
	$(SWIFT) build --build-tests

# The tests run against a throwaway PostgreSQL server of their own
# (SIFT_POSTGRES); scripts/postgres.sh starts it and removes it afterwards.
# SiftPostgresTests and the differential suite reach it through SiftPostgres
# (PostgresNIO, whose first build is most of a clean build's time), the
# other SQL suites through the test-only libpq client.
# The REPL is driven in tmux, which must be there (SIFT_REQUIRE_TMUX).
# Then the suites that evaluate run again on other evaluation paths, with
# the same expectations:
# - LAYOUT_SUITES, of the fast paths that read the standard library's
#   layouts, with every layout check made to fail (SIFT_LAYOUT_CHECKS=fail,
#   as on a platform whose layouts differ), so that the fallbacks are tested;
# - GENERAL_SUITES, the evaluation, conformance and differential suites,
#   with the general path for every comparison (SIFT_EVAL_GENERAL_ONLY=1),
#   so that the reference of every fast path is tested as it is; the
#   differential suite against SQLite and PostgreSQL on fewer cases.
LAYOUT_SUITES = EvaluationPlanTests|InPlaceProgramTests|InPlaceReaderTests|TypedObjectTests|TypedReaderTests|FastPathTests|StringSemanticsTests|EvaluationTests|ValueTableTests|KeyValueReadableMacroTests|SwiftPredicateCorpusTests
GENERAL_SUITES = $(LAYOUT_SUITES)|ConformanceTests|RawJSONTests|SetExpressionTests|ReadmeExamplesTests|FuzzRegressionTests|DifferentialTests/testGenerated
GENERAL_CASES = 1000

# The first run also has the sharded profile (scripts/postgres.sh
# run-sharded: a coordinator and two shards over postgres_fdw,
# SIFT_POSTGRES_SHARDED), for the differential suite's fourth engine, the
# pushdown table of ShardedPushdownTests and ShardedCommandLineTests.
swift-test: build
	SIFT_REQUIRE_TMUX=1 SIFT_REQUIRE_DUCKDB=1 scripts/postgres.sh run scripts/postgres.sh run-sharded $(TIMED) $(SWIFT) test --skip-build
	SIFT_LAYOUT_CHECKS=fail $(TIMED) $(SWIFT) test --skip-build --filter '$(LAYOUT_SUITES)'
	SIFT_EVAL_GENERAL_ONLY=1 SIFT_CASES=$(GENERAL_CASES) scripts/postgres.sh run $(TIMED) $(SWIFT) test --skip-build --filter '$(GENERAL_SUITES)'

# Everyday work: the build and every test that needs nothing beside it,
# whatever the environment says (no PostgreSQL, no tmux). make test runs
# these and the rest.
check: build
	env -u SIFT_POSTGRES -u SIFT_REQUIRE_POSTGRES -u SIFT_REQUIRE_TMUX -u SIFT_REQUIRE_STORES -u SIFT_REQUIRE_DUCKDB \
	  $(TIMED) $(SWIFT) test --skip-build --skip '$(CHECK_SKIPPED)'

# GoldenSQLTests compares the SQL of a fixed set of fetches, in both
# dialects, with Tests/Fixtures/golden/<name>.<dialect>.sql byte for byte;
# a missing or different file fails. After a change meant to change the
# SQL, this rewrites the files (and removes those of fetches that are
# gone): review the diff and commit it with the change.
golden: build
	SIFT_UPDATE_GOLDEN=1 $(SWIFT) test --skip-build --filter GoldenSQLTests

# The corpus of Swift #Predicate literals that SwiftPredicateCorpusTests
# runs (Tests/SiftSQLTests/SwiftPredicateCorpus/Corpus+*.swift), generated
# from a seeded grammar. The generated files are committed, so that the
# build needs no Python: after changing the script, run this and commit
# both (the script's --seed, --count and --parts default to the
# committed corpus's).
swift-predicates:
	$(PYTHON) scripts/swift-predicate-corpus.py

# The conformance cases through the command-line runner: every case must
# parse (or fail to parse) as expected; results are compared by the tests.
check-cases: build
	@$(SIFT) check $(CASES) > /dev/null 2> .build/check-summary.txt || true
	@cat .build/check-summary.txt

grammar-check: build python-deps
	$(PYTHON) grammar/check_grammar.py --sift $(SIFT) $(CASES)

# The concurrency stress tests (compiled filters, sorting, SQL lowering and
# the SQLite functions from many tasks) under ThreadSanitizer.
tsan: system-deps
	SIFT_WITHOUT_POSTGRES=1 SIFT_WITHOUT_MACROS=1 $(SWIFT) build --build-tests -Xswiftc -sanitize=thread --build-path .build/tsan
	SIFT_WITHOUT_POSTGRES=1 SIFT_WITHOUT_MACROS=1 TSAN_OPTIONS=halt_on_error=1 $(TIMED) $(SWIFT) test --skip-build --build-path .build/tsan --filter 'ConcurrencyTests'

# The peers of Benchmarks/peers/compare.py: Go's expr, GNUstep's
# NSPredicate, and GNU time (peak memory); of Benchmarks/peers/files.py, jq
# and gojq (DuckDB, DataFusion, Polars, chDB and orjson come from PyPI into
# Benchmarks/.build/venv) and python3-venv for that environment.
BENCH_APT_PACKAGES = golang-go golang-github-antonmedv-expr-dev gobjc libgnustep-base-dev gnustep-make time \
	jq gojq python3-venv wrk
bench-deps:
	@$(MAKE) --no-print-directory system-deps APT_PACKAGES="$(BENCH_APT_PACKAGES)"

# Sift against hand-written Swift, #Predicate, SQLite, Go's expr and GNUstep
# on the same 1,000,000 people: medians, spread, ratios, memory; then Sift
# from 10^3 to 10^7 people and 1 to 5,000 terms; then `sift filter` on a
# 1,000,000-record JSON file against DuckDB, DataFusion, Polars, chDB (each in
# process), orjson, jq and gojq; then `sift filter --group-by` against
# DuckDB's GROUP BY on the same file (in process); then lowered grouped
# fetches against hand-written GROUP BY on 1,000,000 SQLite books (in
# process); then `sift serve` against Datasette on 1,000,000 rows under
# wrk (requests per second, p50/p99, memory); then lowered fetches,
# grouped ones included, against hand-written SQL on 10,000,000 books in
# a throwaway PostgreSQL server.
bench: system-deps bench-deps neighbours
	$(PYTHON) Benchmarks/peers/compare.py --scaling --markdown Benchmarks/.build/peers/last-run.md
	$(PYTHON) Benchmarks/peers/files.py --markdown Benchmarks/.build/files/last-run.md
	$(PYTHON) Benchmarks/peers/groups.py --markdown Benchmarks/.build/files/groups-last-run.md
	$(PYTHON) Benchmarks/peers/sqlgroups.py --markdown Benchmarks/.build/files/sqlgroups-last-run.md
	$(PYTHON) Benchmarks/peers/serve.py --markdown Benchmarks/.build/serve/last-run.md
	$(PYTHON) Benchmarks/peers/postgres.py --markdown Benchmarks/.build/postgres/last-run.md

# The same harness on 2,000 people in a debug build: a smoke run so that it
# cannot rot (part of make test).
bench-quick: system-deps bench-deps
	$(PYTHON) Benchmarks/peers/compare.py --quick --scaling
	$(PYTHON) Benchmarks/peers/files.py --quick
	$(PYTHON) Benchmarks/peers/groups.py --quick
	$(PYTHON) Benchmarks/peers/sqlgroups.py --quick
	$(PYTHON) Benchmarks/peers/serve.py --quick

# A file importing SQLKit and FluentKit with Sift (and SiftSQLKit), using
# the names of each unqualified (NeighbourCheck/, a package of its own, so
# that the check builds against the products as a user's package would; it
# builds NIO a second time, spent here and by make bench rather than by
# every make test). GRDB, PostgresNIO and Foundation are checked the same
# way by the tests, SwiftData against its documented names.
neighbours: system-deps
	$(SWIFT) build --package-path NeighbourCheck
	NeighbourCheck/.build/debug/NeighbourCheck > /dev/null

# The libFuzzer targets in Fuzz/ (a package of its own, which the main
# package's build never builds), with AddressSanitizer. SwiftPM's --sanitize
# fuzzer links libFuzzer and its main; -Xswiftc -sanitize=fuzzer adds the
# coverage instrumentation to every module, the library's included. The
# corpus grows in Fuzz/.build/corpus, seeded from the conformance cases;
# inputs that fail are written to Fuzz/.build/artifacts/<target>/.
FUZZ_TARGETS = FuzzParse FuzzEvaluate FuzzSQL
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 10

fuzz-build: system-deps
	$(SWIFT) build --package-path Fuzz --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer

fuzz: fuzz-build
	Fuzz/scripts/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Part of make test: each target for a short, bounded time.
fuzz-smoke: fuzz-build
	Fuzz/scripts/run.sh $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

# Each part in turn, and after each the seconds since make started (the
# 30-minute budget of a fresh clone on 2 cores is spent mostly by the
# first build): a `done-PART` target after each part prints them.
TEST_PARTS = deps build swift-test browser-test docs grammar-check tsan fuzz-smoke bench-quick
MAKE_STARTED := $(shell date +%s)
test: $(foreach part,$(TEST_PARTS),$(part) done-$(part))

# (Not .PHONY: make applies no pattern rule to a phony target.)
done-%:
	@echo "make test: $* done, $$(( $$(date +%s) - $(MAKE_STARTED) )) s since make started"

# The page of `sift serve` in a real browser: headless Chromium (Debian's
# chromium and chromium-driver) driven by Selenium (PyPI, pinned; 4.52.0
# needs a certifi newer than PyPI's mirror here has) opens the page,
# filters, follows a relationship, sees a caret and an escaped <script>
# (Tests/Browser/serve_page.py); screenshots in .build/browser. About 30 s
# to install the first time, 10 s to run.
BROWSER_APT_PACKAGES = chromium chromium-driver
SELENIUM_VERSION = 4.51.0
.PHONY: browser-test
browser-test: build
	@$(MAKE) --no-print-directory system-deps APT_PACKAGES="$(BROWSER_APT_PACKAGES)"
	@$(PYTHON) -c "import selenium, sys; sys.exit(selenium.__version__ != '$(SELENIUM_VERSION)')" 2>/dev/null || \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check "selenium==$(SELENIUM_VERSION)" || \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check --break-system-packages "selenium==$(SELENIUM_VERSION)"
	$(PYTHON) Tests/Browser/serve_page.py $(SIFT) .build/browser

# The documentation: a DocC archive for each library product, built with
# swift-docc-plugin (`swift package generate-documentation`) with DocC's
# warnings (a link that does not resolve, a parameter that does not
# exist…) as errors; then scripts/doc-coverage.py reads the public symbol
# graphs the plugin extracted for DocC and fails if a public symbol of
# these modules has no documentation. The plugin builds the targets in the
# debug build folder, so after `make build` only the documentation is made:
# 84 s on the 2-core machine, the plugin's own build included (part of
# make test).
DOC_TARGETS = Sift SiftSQL SiftSQLite SiftPostgres SiftMacros
DOC_TARGETS += SiftServer
DOC_TARGETS += SiftSQLKit

docs: system-deps
	$(SWIFT) package generate-documentation $(addprefix --target ,$(DOC_TARGETS)) --warnings-as-errors
	$(PYTHON) scripts/doc-coverage.py "$$(ls -d .build/*/extracted-symbols | head -n 1)" $(DOC_TARGETS)
	@echo "documentation archives:"; for t in $(DOC_TARGETS); do echo "  .build/plugins/Swift-DocC/outputs/$$t.doccarchive"; done

# The memory/SQLite/PostgreSQL differential run at scale (not part of
# make test, which runs 3,000 cases): STRESS_CASES generated predicates,
# SIFT_SEED to choose the data and predicates.
STRESS_CASES ?= 100000
stress: build
	SIFT_CASES=$(STRESS_CASES) scripts/postgres.sh run $(SWIFT) test --skip-build --filter 'DifferentialTests/testGeneratedPredicates'

repl: system-deps
	$(SWIFT) build --product sift
	@$(SIFT) repl

# The REPL's sample data (books, authors, tags, memos), written by
# `sift serve --sample` to a SQLite file in a new temporary folder and
# served on SERVE_PORT (8001; 0 picks a free port) until Ctrl-C.
SERVE_PORT ?= 8001
.PHONY: serve
serve: system-deps
	$(SWIFT) build --product sift
	@$(SIFT) serve --sample --port $(SERVE_PORT)
