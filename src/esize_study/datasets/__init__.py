"""Reading a dataset: the first stage of the study after the paper's own numbers.

``settings``
    the datasets of the workflow configuration: their settings with defaults, their
    benchmarks (a stand-in's, or a directory's data files), known effects, sizes;
``costs``
    a dataset's costs file: reading, checking, the build time it gives;
``config``
    the workflow configuration checked in one line per problem (``python -m
    esize_study.datasets.config check-config FILE...``, the Makefile's pre-check);
``yamlfile``
    configuration and costs files read within limits (regular files of at most
    1 MiB; YAML aliases, nesting, digits bounded; a key given twice refused);
``outputs``
    the directories the workflow writes into (results, logs, generated data)
    checked to be directories of their own;
``files``
    raw tidy files read into designs, the pipeline's intermediate files (designs,
    JSON, CSV, Parquet) written atomically, and the scripts' logging;
``process``
    a job's process set up at start (glibc's reuse of freed memory);
``measured``
    a measured dataset's raw files read once (wall and CPU times), how it was
    measured, and the committed sample cut from it;
``standin_model``, ``standin``
    the calibrated Mono-style stand-in: its model solved from the paper's Table
    tVariations, and the generator.

Nothing here estimates, simulates, judges or renders.
"""
