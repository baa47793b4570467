# Two entry points (see README): `make reproduce` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CORES  ?= 2

.PHONY: test reproduce reproduce-test lint bench clean-venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The library with its test extras, and the study (its own distribution under src/).
$(STAMP): pyproject.toml src/esize_study/pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]' -e src/esize_study
	# byte-compile the editable sources once, so that start-up does not recompile them
	$(BIN)/python -m compileall -q src > /dev/null
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q

# The reproduction at its default (paper) scale; outputs in results/, logs in logs/.
reproduce: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) --configfile config/config.yaml

# The same pipeline on tiny data (what the tests run).
reproduce-test: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) --configfile config/test.yaml

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_bootstrap.py
	$(BIN)/python benchmarks/bench_compare.py

clean-venv:
	rm -rf $(VENV)
