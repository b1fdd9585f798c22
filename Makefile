# FedNode: `make run` starts a node on http://localhost:8080 with its data under ./data;
# `make test` runs the whole suite. Both install missing system packages first.

SWIFT ?= swift
DATA_DIR ?= ./data
PORT ?= 8080
ARGS ?=

VENV ?= .venv
PYTHON ?= python3

.PHONY: all deps test-deps venv build release run test test-postgres bench bench-quick clean fuzz fuzz-smoke

all: build

## Install the system packages the build links against (when missing and possible).
deps:
	@scripts/install-deps

## What the tests need besides: headless Chromium and its driver for the web app's browser tests.
test-deps:
	@scripts/install-deps chromium chromium-driver

## Python virtual environment with the independent implementations the interop tests use
## (httpsig, http-message-signatures, Mastodon.py); rebuilt when interop/requirements.txt changes.
venv: $(VENV)/.installed

$(VENV)/.installed: interop/requirements.txt | deps
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r interop/requirements.txt
	touch $@

## Debug build of everything, tests included.
build: deps
	$(SWIFT) build --build-tests

## Optimised build of the `fednode` executable.
release: deps
	$(SWIFT) build -c release --product fednode

## Build in release mode and start a node on http://localhost:$(PORT) storing under $(DATA_DIR).
run: release
	.build/release/fednode serve --port $(PORT) --data-dir $(DATA_DIR) $(ARGS)

## Build and run the whole test suite.
test: deps test-deps venv
	scripts/check-storage-boundary
	scripts/check-arrows
	$(SWIFT) build --build-tests
	scripts/check-lazy-vips .build/debug/fednode
	# At most 16 tests at once (Swift Testing's width, unbounded by default): with all 638 at once
	# on two cores, a one-line test waited a minute for its turn and a live server's answer
	# outlasted the test client's 20 s limit; the run takes as long either way.
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=16 FEDNODE_PYTHON=$(CURDIR)/$(VENV)/bin/python FEDNODE_REQUIRE_PYTHON=1 \
	  $(SWIFT) test --skip-build --skip FederationTests --skip CurlHTTPClientTests --skip DeliveryWorkerTests
	# The libcurl client's and the delivery worker's tests time real requests (10 s and 60 s
	# limits) against in-process servers: they run on their own too, so the other suites' work
	# (about a hundred test nodes, each with its libcurl threads) cannot delay those answers.
	$(SWIFT) test --skip-build --filter "CurlHTTPClientTests|DeliveryWorkerTests"
	# The multi-node federation tests run on their own: other suites' loopback helpers block
	# threads of the small cooperative pool, which delays every in-process node's answers.
	# In two halves: each suite starts two or three nodes, and all of them at once on two cores
	# delayed answers past the tests' bounds.
	FEDNODE_PYTHON=$(CURDIR)/$(VENV)/bin/python FEDNODE_REQUIRE_PYTHON=1 $(SWIFT) test --skip-build --filter 'FederationTests\.[A-I]'
	FEDNODE_PYTHON=$(CURDIR)/$(VENV)/bin/python FEDNODE_REQUIRE_PYTHON=1 $(SWIFT) test --skip-build --filter 'FederationTests\.[J-Z]' --skip WebBrowserTests
	# The web app in headless Chromium on its own: the browser's CPU would otherwise slow the
	# other federation tests' nodes past their bounds (and the browser's waits past theirs).
	FEDNODE_PYTHON=$(CURDIR)/$(VENV)/bin/python FEDNODE_REQUIRE_PYTHON=1 $(SWIFT) test --skip-build --filter WebBrowserTests
	scripts/crashloop --kills 6 --binary .build/debug/fednode
	$(MAKE) fuzz-smoke
	$(MAKE) test-postgres

## The tests on PostgreSQL as well as SQLite: installs Debian's postgresql package when missing,
## starts a throwaway cluster in a temporary directory (Unix socket only, as an unprivileged
## user), runs every suite that touches storage with every node on PostgreSQL (each test node
## gets a database of its own), and stops the cluster.
# (Expanded once per recipe, into a shell variable: each $(PG_DIR) would run mktemp again.)
PG_DIR ?= $(shell mktemp -u /tmp/fednode-pg.XXXXXX)
# The main group runs at most 16 tests at once (Swift Testing's width; unbounded by default): a
# test node on PostgreSQL holds server processes and connection threads of its own, and hundreds
# at once on two cores delayed answers past the tests' bounds.
# Suites that never open a database (parsers, signatures, the photo pipeline, the load
# generator) run on SQLite's pass only.
PG_SKIP := --skip '^ActivityTests\.' --skip '^SignaturesTests\.' --skip '^MediaTests\.' --skip '^BenchmarksTests\.'
test-postgres: deps test-deps venv
	@scripts/install-deps postgresql
	$(SWIFT) build --build-tests
	@dir='$(PG_DIR)'; url=$$(scripts/pg-cluster start "$$dir") || exit 1; \
	  trap 'scripts/pg-cluster stop "$$dir"' EXIT; trap 'exit 130' INT TERM; \
	  echo "PostgreSQL test cluster: $$url"; \
	  scripts/pg-cluster template "$$dir" fednode_template "$$($(SWIFT) build --show-bin-path)/fednode" || exit 1; \
	  export FEDNODE_TEST_DATABASE_URL="$$url" FEDNODE_TEST_DATABASE_TEMPLATE=fednode_template \
	    FEDNODE_PYTHON=$(CURDIR)/$(VENV)/bin/python FEDNODE_REQUIRE_PYTHON=1; \
	  status=0; \
	  SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=16 $(SWIFT) test --skip-build $(PG_SKIP) --skip FederationTests --skip CurlHTTPClientTests --skip DeliveryWorkerTests \
	    --skip MultiProcessTests || status=1; \
	  $(SWIFT) test --skip-build --filter "DeliveryWorkerTests|MultiProcessTests" || status=1; \
	  $(SWIFT) test --skip-build --filter 'FederationTests\.[A-I]' || status=1; \
	  $(SWIFT) test --skip-build --filter 'FederationTests\.[J-Z]' --skip WebBrowserTests || status=1; \
	  $(SWIFT) test --skip-build --filter WebBrowserTests || status=1; \
	  exit $$status

## Release build, then the benchmark suite (each figure against its budget and a same-run
## reference): prints one table and rewrites BENCHMARKS.md with it. Keys and generated
## databases are cached in $(BENCH_DIR) (about 2 GB).
BENCH_DIR ?= .bench
BENCH_ARGS ?=
bench: release
	@command -v openssl >/dev/null || { echo "make bench needs the openssl command (apt-get install openssl)" >&2; exit 1; }
	@scripts/install-deps postgresql
	@dir='$(PG_DIR)'; url=$$(scripts/pg-cluster start "$$dir" durable) || exit 1; \
	  FEDNODE_BENCH_DATABASE_URL="$$url" FEDNODE_BENCH_COMMAND="make bench" .build/release/fednode bench --data-dir $(BENCH_DIR) $(BENCH_ARGS); \
	  status=$$?; scripts/pg-cluster stop "$$dir"; exit $$status

## A fast smoke run of the suite (one small database); writes $(BENCH_DIR)/BENCHMARKS-quick.md.
bench-quick: release
	@command -v openssl >/dev/null || { echo "make bench-quick needs the openssl command (apt-get install openssl)" >&2; exit 1; }
	@scripts/install-deps postgresql
	@dir='$(PG_DIR)'; url=$$(scripts/pg-cluster start "$$dir" durable) || exit 1; \
	  FEDNODE_BENCH_DATABASE_URL="$$url" FEDNODE_BENCH_COMMAND="make bench-quick" .build/release/fednode bench --quick --data-dir $(BENCH_DIR) $(BENCH_ARGS); \
	  status=$$?; scripts/pg-cluster stop "$$dir"; exit $$status

## libFuzzer targets (Tests/Fuzz/Targets, built with swiftc into .build-fuzz): each runs FUZZ_RUNS
## executions, or FUZZ_SECONDS seconds when set, over its seed corpus; prints executions and crashes.
FUZZ_RUNS ?= 10000000
FUZZ_SECONDS ?=
fuzz: deps
	FUZZ_RUNS="$(FUZZ_RUNS)" FUZZ_SECONDS="$(FUZZ_SECONDS)" scripts/fuzz

## A few seconds of every fuzz target (part of `make test`).
FUZZ_SMOKE_SECONDS ?= 3
fuzz-smoke: deps
	FUZZ_RUNS= FUZZ_SECONDS="$(FUZZ_SMOKE_SECONDS)" FUZZ_FRESH=1 scripts/fuzz

clean:
	rm -rf .build $(VENV)

## Before a release (not part of `make test`): federate a FedNode node with third-party
## ActivityPub servers from PyPI (bovine-herd, the fediverse-pasture actor), all on 127.0.0.1,
## scenario both ways; prints a scenario x direction table. INTEROP_ARGS='--keep DIR' keeps logs.
INTEROP_VENV ?= .venv-interop
INTEROP_ARGS ?=
.PHONY: interop
$(INTEROP_VENV)/.installed: interop/servers-requirements.txt
	$(PYTHON) -m venv $(INTEROP_VENV)
	$(INTEROP_VENV)/bin/pip install --quiet --disable-pip-version-check -r interop/servers-requirements.txt
	touch $@

interop: deps $(INTEROP_VENV)/.installed
	$(SWIFT) build --product fednode
	timeout 600 $(INTEROP_VENV)/bin/python interop/run_interop.py --fednode "$$($(SWIFT) build --show-bin-path)/fednode" $(INTEROP_ARGS)
