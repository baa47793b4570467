#!/usr/bin/env bash
# `make test-cluster`: the tiny pipeline through the SLURM profile on a real SLURM,
# checked against a local run of the same pipeline.
#
#   workflow/cluster/test-cluster.sh [--no-start]
#   workflow/cluster/test-cluster.sh --copy-only DIR
#
# 1. starts the single-node cluster of local-slurm.sh (not with --no-start, which
#    uses the cluster this machine's SLURM configuration names);
# 2. copies the workflow twice into a scratch directory and runs `make reproduce-test`
#    in one copy with the default profile (local) and in the other with
#    PROFILE=workflow/profiles/slurm (every job through sbatch). A copy holds what
#    the tiny run reads (copy_tree below): the Snakefile and Makefile, workflow/,
#    config/, notebooks/, tests/data/ and the committed data/ (not the stand-ins the
#    configurations' data_dir names: each run generates its own).
#    tests/study/test_cluster.py checks it against the inputs Snakemake lists for
#    config/test.yaml; --copy-only DIR makes one such copy in DIR and stops;
# 3. checks that every job of the SLURM run was submitted with sbatch and that sacct
#    reports each of them COMPLETED;
# 4. checks with compare.py that both runs wrote byte-identical files;
# 5. stops the cluster if it started it (also on failure) and prints the wall times.
# Runs of it on one machine wait for each other (a lock file in $TMPDIR or /tmp).
#
# Environment: VENV, the virtualenv with the study and the cluster extra (default
# .venv of the repository); KEEP=1 keeps the scratch directory.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
VENV=$(cd "${VENV:-$ROOT/.venv}" && pwd)
START=1
[[ ${1:-} == --no-start ]] && START=0

# One copy of what a run of config/test.yaml reads, into $1.
copy_tree() {
    local dest=$1 entry name skip
    mkdir -p "$dest/tests"
    cp "$ROOT/Snakefile" "$ROOT/Makefile" "$dest/"
    cp -r "$ROOT/workflow" "$ROOT/config" "$ROOT/notebooks" "$dest/"
    cp -r "$ROOT/tests/data" "$dest/tests/data"
    # data/ less the stand-ins (the data_dir of every configuration): generated anew
    skip=$("$VENV/bin/python" -c '
import sys, yaml
for f in sys.argv[1:]:
    d = (yaml.safe_load(open(f)) or {}).get("data_dir")
    if d: print(d.rstrip("/"))' "$ROOT"/config/*.yaml)
    mkdir -p "$dest/data"
    for entry in "$ROOT"/data/* "$ROOT"/data/.[!.]*; do
        [[ -e $entry ]] || continue
        name=data/${entry##*/}
        grep -qxF "$name" <<< "$skip" && continue
        cp -r "$entry" "$dest/data/"
    done
    find "$dest" \( -name __pycache__ -o -name .snakemake \) -prune -exec rm -rf {} +
}

if [[ ${1:-} == --copy-only ]]; then
    [[ -n ${2:-} ]] || { echo "usage: $0 --copy-only DIR" >&2; exit 2; }
    copy_tree "$2"
    exit 0
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/esize-test-cluster.XXXXXX")
STARTED=0
T0=$SECONDS

say() { echo "test-cluster: $*" >&2; }
fail() { echo "test-cluster: FAILED: $*" >&2; exit 1; }

finish() {
    local status=$?
    if ((STARTED)); then "$HERE/local-slurm.sh" stop || true; fi
    if ((status == 0)) && [[ ${KEEP:-0} != 1 ]]; then
        rm -rf "$WORK"
    else
        say "scratch directory kept: $WORK"
    fi
    say "total wall time $((SECONDS - T0)) s"
    exit "$status"
}
trap finish EXIT

# one test at a time on this machine (they share the local cluster)
exec 9> "${TMPDIR:-/tmp}/esize-test-cluster-$(id -u).lock"
flock -w 3600 9 || fail "another test-cluster run holds the lock for an hour"
if ((START)); then
    # a cluster already running (started by hand) is used and left running
    if ! "$HERE/local-slurm.sh" running; then STARTED=1; fi
    "$HERE/local-slurm.sh" start
fi
command -v sbatch >/dev/null || fail "sbatch is not on PATH"
sinfo -h >/dev/null || fail "no SLURM cluster answers (sinfo)"

# Two copies of the workflow: runs of the two never share a .snakemake directory.
for side in local slurm; do
    copy_tree "$WORK/$side"
done
# the copies use this virtualenv as it is (-o: never reinstall it)
MAKE_ARGS=(VENV="$VENV" -o "$VENV/.installed")
# ... but both with one snapshot of the packages' sources (ahead of the editable
# install on the path, and passed on to the SLURM jobs with the environment), so that
# an edit made meanwhile cannot make the two runs differ
cp -r "$ROOT/src" "$WORK/src"
find "$WORK/src" \( -name __pycache__ -o -name '*.egg-info' \) -prune -exec rm -rf {} +
export PYTHONPATH=$WORK/src${PYTHONPATH:+:$PYTHONPATH}
where=$("$VENV/bin/python" -c 'import esize, esize_study; print(esize.__file__, esize_study.__file__)')
[[ $where == "$WORK/src/esize/"*" $WORK/src/esize_study/"* ]] \
    || fail "the packages do not come from the snapshot: $where"

say "local run (default profile)"
t=$SECONDS
make -C "$WORK/local" --no-print-directory "${MAKE_ARGS[@]}" reproduce-test \
    > "$WORK/local.log" 2>&1 || { tail -20 "$WORK/local.log" >&2; fail "local run"; }
LOCAL_S=$((SECONDS - t))

say "SLURM run (workflow/profiles/slurm)"
t=$SECONDS
# first status query after 5 s instead of the profile's 20 (the jobs take seconds);
# SLURM's own logs of the jobs are kept in .snakemake/slurm_logs
make -C "$WORK/slurm" --no-print-directory "${MAKE_ARGS[@]}" reproduce-test \
    PROFILE=workflow/profiles/slurm \
    ARGS="--slurm-init-seconds-before-status-checks 5 --slurm-keep-successful-logs" \
    > "$WORK/slurm.log" 2>&1 || { tail -30 "$WORK/slurm.log" >&2; fail "SLURM run"; }
SLURM_S=$((SECONDS - t))

# Every job but the local `all` went through sbatch, and sacct saw each complete.
total=$(awk '$1 == "total" {print $2; exit}' "$WORK/slurm.log")
mapfile -t ids < <(sed -n 's/.*has been submitted with SLURM jobid \([0-9]*\).*/\1/p' "$WORK/slurm.log")
local_total=$(awk '$1 == "total" {print $2; exit}' "$WORK/local.log")
[[ -n $total && $total == "$local_total" ]] \
    || fail "the SLURM run had ${total:-no} jobs, the local run ${local_total:-none}"
((${#ids[@]} == total - 1)) \
    || fail "${#ids[@]} jobs submitted with sbatch, expected $((total - 1)) (all but rule all)"
joined=$(IFS=,; echo "${ids[*]}")
sacct -X -n -P -j "$joined" -o JobID,JobName,State > "$WORK/sacct.txt"
completed=$(awk -F'|' '$3 == "COMPLETED"' "$WORK/sacct.txt" | wc -l)
names=$(cut -d'|' -f2 "$WORK/sacct.txt" | sort -u | wc -l)
((completed == ${#ids[@]})) \
    || { cat "$WORK/sacct.txt" >&2; fail "sacct: $completed of ${#ids[@]} jobs COMPLETED"; }
say "${#ids[@]} of $total jobs submitted with sbatch, all COMPLETED in sacct" \
    "(one run, $names job name)"

# Same files, same bytes.
"$VENV/bin/python" "$HERE/compare.py" "$WORK/local" "$WORK/slurm" \
    || fail "the SLURM run's outputs differ from the local run's"

say "PASSED: local run ${LOCAL_S} s, SLURM run ${SLURM_S} s"
