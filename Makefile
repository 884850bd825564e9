# The two commands a newcomer needs: `make serve` and `make test`.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Test worker processes: one per core (pytest-xdist); `make test JOBS=0` runs in one process.
JOBS   ?= auto
# JUnit XML reports of each run (CI keeps them; .ci/slowest.py reads them).
REPORTS := build/reports
PYTEST  := $(BIN)/python -m pytest -q -n $(JOBS) --junitxml=$(REPORTS)

.PHONY: serve test check lint sample-all openapi bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

serve: $(STAMP)
	$(BIN)/hearthlog serve --data-dir .hearthlog

# The quick suite: every test not marked slow, random samples at their budgeted counts.
test: $(STAMP)
	$(PYTEST)/quick.xml -m "not slow"

# The slow checks: races, crashes, outages, fuzzing, browsers, soak (docs/reliability.md).
check: $(STAMP)
	$(PYTEST)/slow.xml -m slow

# ruff and mypy over the code (run first by .ci/run; fails on any finding).
lint: $(STAMP)
	$(BIN)/ruff check domain projections service tests bench
	$(BIN)/mypy domain projections service
	$(BIN)/lint-imports

# Every random-sampling test at its full volume (about 22 minutes on two cores, never in CI):
# docs/testing.md.
sample-all: $(STAMP)
	HEARTHLOG_SAMPLES=all $(PYTEST)/sample-all.xml -m "sampling"

# Benchmarks (about 12 minutes; never part of `make test`): docs/benchmarks.md says what they mean.
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	@touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	PYTHONPATH=. $(BIN)/python -m bench.run

openapi: $(STAMP)
	$(BIN)/hearthlog openapi

clean:
	rm -rf $(VENV) .hearthlog .pytest_cache build
