# Two entry points (see README): `make reproduce` and `make test`.
#
#   make reproduce                      the paper-scale pipeline (config/config.yaml)
#   make reproduce CONFIG=my.yaml       the same with your configuration on top of it
#   make reproduce-test                 the tiny configuration the tests run
#   make reproduce ARGS="--dry-run"     any further Snakemake arguments
#   make reproduce CORES=8              more cores than the profile's 2
#
# Snakemake reads its defaults from workflow/profiles/default (cores, and
# rerun-incomplete, so that a run stopped with Ctrl-C resumes with the same command).
PYTHON  ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
CONFIG  ?= config/config.yaml
CORES   ?=
ARGS    ?=
PROFILE := workflow/profiles/default
SNAKEMAKE = $(BIN)/snakemake --workflow-profile $(PROFILE) $(if $(CORES),--cores $(CORES))
# A bad configuration file stops here with one line (FILE:LINE: problem), exit status 2.
CHECK_CONFIG = @$(BIN)/python -m esize_study.pipeline check-config

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
	$(CHECK_CONFIG) config/config.yaml $(CONFIG)
	$(SNAKEMAKE) --configfile $(CONFIG) $(ARGS)

# The same pipeline on tiny data (what the tests run).
reproduce-test: $(STAMP)
	$(CHECK_CONFIG) config/config.yaml config/test.yaml
	$(SNAKEMAKE) --configfile config/test.yaml $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_bootstrap.py
	$(BIN)/python benchmarks/bench_compare.py
	$(BIN)/python benchmarks/bench_warmup.py

clean-venv:
	rm -rf $(VENV)
