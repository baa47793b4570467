# Two entry points (see README): `make reproduce` and `make test`.
#
#   make reproduce                      the paper-scale pipeline (config/config.yaml)
#   make reproduce CONFIG=my.yaml       the same with your configuration on top of it
#   make reproduce CONFIG=my.yaml ARGS=--replace-workflow-config
#                                       your configuration alone (your datasets only)
#   make reproduce-refined              the same, refining more cells (config/refine-wide.yaml)
#   make reproduce-test                 the tiny configuration the tests run
#   make analyse CONFIG=my.yaml         your datasets alone, each with its own report
#                                       (results/<dataset>/report.md;
#                                       docs/add-dataset.md)
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
CHECK_CONFIG = @$(BIN)/python -m esize_study.datasets.config check-config
# Snakemake merges CONFIG into config/config.yaml (whose datasets stay); with Snakemake's
# --replace-workflow-config in ARGS, CONFIG is the whole configuration, checked alone.
BASE_CONFIG = $(if $(findstring --replace-workflow-config,$(ARGS)),,config/config.yaml)

.PHONY: test reproduce reproduce-refined reproduce-test analyse docs lint bench clean-venv measure measure-tiny archive test-cluster measure-mono measure-mono-pilot measure-mono-tiny

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
	$(CHECK_CONFIG) $(BASE_CONFIG) $(CONFIG)
	@# bytecode of sources edited since the install (each job would compile them anew
	@# where PYTHONDONTWRITEBYTECODE is set)
	@$(BIN)/python -m compileall -q src > /dev/null
	$(SNAKEMAKE) $(ARGS) --configfile $(CONFIG)

# The paper-scale pipeline with the wider refinement of the cells claims hinge on
# (config/refine-wide.yaml on top of config/config.yaml and CONFIG): beyond
# `make reproduce`'s time, a named target; on a cluster add PROFILE=workflow/profiles/slurm
# (and CONFIG=workflow/profiles/slurm/paper.yaml).
reproduce-refined: $(STAMP)
	$(CHECK_CONFIG) config/config.yaml config/refine-wide.yaml $(filter-out config/config.yaml,$(CONFIG))
	@$(BIN)/python -m compileall -q src > /dev/null
	$(SNAKEMAKE) $(ARGS) --configfile config/refine-wide.yaml $(filter-out config/config.yaml,$(CONFIG))

# The same pipeline on tiny data (what the tests run).
reproduce-test: $(STAMP)
	$(CHECK_CONFIG) config/config.yaml config/test.yaml
	$(SNAKEMAKE) $(ARGS) --configfile config/test.yaml

# Your datasets alone, each analysed on its own (esize_study.analysis): CONFIG on top
# of config/analyse-defaults.yaml (mode: analyse), replacing config/config.yaml.
ANALYSE_DEFAULTS := config/analyse-defaults.yaml
analyse: $(STAMP)
	@test "$(origin CONFIG)" != file || { echo "make analyse needs your configuration: make analyse CONFIG=my.yaml (docs/add-dataset.md)" >&2; exit 2; }
	@$(BIN)/python -m esize_study.analysis check-config $(ANALYSE_DEFAULTS) $(CONFIG)
	$(SNAKEMAKE) analyse --configfile $(ANALYSE_DEFAULTS) $(CONFIG) --replace-workflow-config $(ARGS)

# The documentation site (docs/, Sphinx with MyST) into docs/_build/html; any warning
# fails the build (.ci/run runs it).
docs: $(STAMP)
	$(BIN)/python -m sphinx -W --keep-going -q -b html docs docs/_build/html

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks measure

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_bootstrap.py
	$(BIN)/python benchmarks/bench_compare.py
	$(BIN)/python benchmarks/bench_warmup.py
	$(BIN)/python benchmarks/bench_study_engine.py
	$(BIN)/python benchmarks/bench_tidy.py

clean-venv:
	rm -rf $(VENV)

# cffconvert (the CITATION.cff check of the tests) pins jsonschema<4, which the
# workflow's configuration check (JSON Schema 2020-12) cannot run with: it gets an
# environment of its own, which tests/test_artifact.py finds and `make test` installs.
CFFCONVERT := $(VENV)/cffconvert/bin/cffconvert
$(CFFCONVERT):
	$(PYTHON) -m venv $(VENV)/cffconvert
	$(VENV)/cffconvert/bin/python -m pip install --quiet 'cffconvert>=2.0,<3'
test: $(CFFCONVERT)

# One tarball for deposit (e.g. on Zenodo): dist/esize-<version>-<config>.tar.gz
# (<config>: ARCHIVE_CONFIG's file name without folder and extension, so `config` for
# the paper scale, `test` for the tiny one) with the source as committed at HEAD
# (committed data included), the results of the pipeline run with ARCHIVE_CONFIG less
# the intermediates it remakes in seconds (esize_study.artifact.archive.INTERMEDIATES:
# steady/*.npz, sim/false_alarm_comparisons.parquet), CITATION.bib, VERSION_INFO.json
# (commit, tag, dirty, version, date, what was left out) and a SHA256SUMS manifest
# (`sha256sum -c SHA256SUMS` in the unpacked directory); it ends by printing the size.
# Release first: set the version, commit, `git tag v<version>`, `make reproduce`; the
# target warns when HEAD is not tagged and refuses results made by other code or config.
#   make archive                                   after make reproduce
#   make archive ARCHIVE_CONFIG=config/test.yaml   after make reproduce-test (tiny)
#   make archive ARCHIVE_ARGS=--with-intermediates keep the intermediates too
#   make archive ARCHIVE_ARGS=--allow-stale        archive mismatched results anyway
ARCHIVE_CONFIG ?= config/config.yaml
ARCHIVE_ARGS ?=
archive: $(STAMP)
	$(CHECK_CONFIG) config/config.yaml $(ARCHIVE_CONFIG)
	$(BIN)/python -m esize_study.artifact.archive --config config/config.yaml --config $(ARCHIVE_CONFIG) $(ARCHIVE_ARGS)

# A release (docs/releasing.md, scripts/release.py): checks a clean tree and a non-empty
# "Unreleased" in CHANGELOG.md, dates that section, sets the version in pyproject.toml
# (its one place) and rewrites its copies (the study's pyproject.toml, esize.__version__,
# CITATION.cff, .zenodo.json), commits, tags v$(VERSION), reruns the pipeline of
# ARCHIVE_CONFIG, then `make archive` and the tarball's .sha256. DRY_RUN=1 prints every
# step with a diff of each file and changes nothing. `python scripts/release.py check`:
# every copy of the version agrees.
#   make release VERSION=0.3.0 DRY_RUN=1
#   make release VERSION=0.3.0 [ARCHIVE_CONFIG=config/test.yaml] [RELEASE_ARGS=--no-archive]
RELEASE_ARGS ?=
.PHONY: release
release: $(STAMP)
	@$(BIN)/python scripts/release.py release $(VERSION) $(if $(DRY_RUN),--dry-run) --archive-config $(ARCHIVE_CONFIG) $(RELEASE_ARGS)

# ARTIFACT.md's list of the paper's claims (supported / partly / not supported), between
# its markers, from the claim rows of a finished run: CLAIMS_RESULTS (results, after
# make reproduce; results-test after make reproduce-test) snapshotted into
# docs/artifact-claims.json, then rendered (esize_study.report.claimlist).
CLAIMS_RESULTS ?= results
.PHONY: artifact-claims
artifact-claims: $(STAMP)
	$(BIN)/python -m esize_study.report.claimlist snapshot $(CLAIMS_RESULTS) -o docs/artifact-claims.json
	$(BIN)/python -m esize_study.report.claimlist render docs/artifact-claims.json --write ARTIFACT.md

# Measuring the real three-level dataset (measure/README.md): opt-in, never part of
# `make reproduce`, which reads the committed data. A preflight refuses a busy machine
# (ARGS=--force measures anyway and provenance says so); one core, processes pinned to
# one CPU; ARGS="--forceall" measures again.
measure: $(STAMP)
	@$(BIN)/python measure/measure.py make measure/config.yaml -- $(ARGS)

# The same on the tiny configuration the tests run (seconds; output not committed).
measure-tiny: $(STAMP)
	@$(BIN)/python measure/measure.py make measure/config-tiny.yaml -- $(ARGS)

# The paper's benchmarks on Mono, in sessions (measure/mono/README.md): opt-in, like
# make measure. measure-mono-pilot once (the pilot and the design per session), then
# measure-mono once per session, at different times: each appends sessions/sNN/ to
# data/mono-x86_64/ and joins every session's rows anew. Needs mono-runtime and
# mono-mcs (Debian); a busy machine is refused in one line (ARGS=--force measures anyway).
MONO_CONFIG ?= measure/mono/config.yaml
measure-mono-pilot: $(STAMP)
	@$(BIN)/python measure/mono/mono.py pilot $(MONO_CONFIG) $(ARGS)
measure-mono: $(STAMP)
	@$(BIN)/python measure/mono/mono.py session $(MONO_CONFIG) $(ARGS)
# Seconds: a pilot and one session of the tiny configuration the tests run.
measure-mono-tiny: $(STAMP)
	@rm -rf measure/build-mono-tiny
	@$(BIN)/python measure/mono/mono.py pilot measure/mono/config-tiny.yaml $(ARGS)
	@$(BIN)/python measure/mono/mono.py session measure/mono/config-tiny.yaml $(ARGS)

# The tiny pipeline through the SLURM profile (workflow/profiles/slurm) on a real,
# single-node SLURM started on this machine (workflow/cluster/local-slurm.sh: root,
# Debian's slurm-wlm, munge, slurmdbd and MariaDB, installed with apt if missing),
# checked against a local run: every job submitted with sbatch and COMPLETED in sacct,
# every output file byte-identical. Stops the cluster afterwards. `.ci/run` runs it
# after `make test`; the tests run it (tests/study/test_cluster.py) only where sbatch
# and the plugin are installed, and not under `make test`.
test-cluster: $(STAMP)
	@$(BIN)/python -c "import snakemake_executor_plugin_slurm" 2>/dev/null \
		|| $(BIN)/python -m pip install --quiet -e 'src/esize_study[cluster]'
	VENV=$(VENV) workflow/cluster/test-cluster.sh

# Per-rule job times and memory of the last run, from the benchmark file every rule
# writes beside its log (esize_study.artifact.ruletimes): a markdown table sorted by
# summed time. RUN_LOGS=logs-test for the tiny run; RULE_TIMES_ARGS="--dataset NAME".
RUN_LOGS ?= logs
RULE_TIMES_ARGS ?=
.PHONY: rule-times
rule-times: $(STAMP)
	@$(BIN)/python -m esize_study.artifact.ruletimes $(RUN_LOGS) $(RULE_TIMES_ARGS)
