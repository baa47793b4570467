#!/bin/sh
# Time the example workload with hyperfine and write hyperfine's JSON export to $1.
# Run it from the root of the checkout to measure (the base or the head): both runs
# use the same command names, which is how esize pairs the benchmarks. BENCH_RUNS
# sets the number of timed runs of each command (default 30).
set -eu
hyperfine --style basic --warmup 3 --runs "${BENCH_RUNS:-30}" --shell=none --export-json "$1" \
    --command-name sort "python examples/ci/workload.py sort" \
    --command-name primes "python examples/ci/workload.py primes"
