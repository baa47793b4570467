"""The simulation engine shared by the false-alarm, coverage and known-effect studies.

Both families of simulations run many independent cells (an experiment at one size),
each split into fixed-size blocks of comparisons or experiments. The engine holds
what they have in common:

``seeds``
    :func:`~.seeds.bench_id`, a stable integer naming a benchmark in seeds, and
    :func:`~.seeds.generator`, the random stream of one (seed, benchmark, cell,
    block, stream);
``resampling``
    :func:`~.resampling.resampled_sums`, the sums of unit statistics over units drawn
    with replacement (the inner loop of every approximate bootstrap of the study),
    and :func:`~.resampling.percentile_interval`;
``tasks``
    :func:`~.tasks.tasks_for` and :func:`~.tasks.run_tasks`, which split cells into
    blocks, pick a shard of them and run them serially or with joblib;
``_kernels`` (with ``_gather.c``)
    the gather-and-sum loop and numpy's normal and 16-bit integer draws, compiled on
    first use.

Determinism
-----------
Block ``j`` of a cell draws only from
``SeedSequence(seed, spawn_key=(bench, *cell_key, j, stream))``, where ``cell_key``
is the family's integer description of the cell. A block's numbers therefore do not
depend on which other blocks run, in which order, in which process, or in which
shard: the union of all shards equals the unsharded run, whatever ``n_jobs``.
"""
