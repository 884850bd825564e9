# The two commands a newcomer needs: `make serve` and `make test`.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: serve test check openapi bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

serve: $(STAMP)
	$(BIN)/hearthlog serve --data-dir .hearthlog

test: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow"

check: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

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
	rm -rf $(VENV) .hearthlog .pytest_cache
