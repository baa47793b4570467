"""Readers of benchmark results: tidy tables and the files of common harnesses.

Every reader turns one file into ``{benchmark name: Benchmark(design, unit)}``: a
balanced :class:`~esize.Design` per benchmark plus a :class:`UnitInfo` recording the
unit of the values and whether lower values are better. Nothing here computes
statistics; every problem with a file is an :class:`~esize.InputError` naming the
file and the benchmark, and every note (what ``balance="truncate"`` dropped, a
failed benchmark skipped, a unit converted) an :class:`~esize.EsizeWarning`.

One module per format: :mod:`~esize.readers.tidy` (CSV, Parquet),
:mod:`~esize.readers.pyperf`, :mod:`~esize.readers.jmh`,
:mod:`~esize.readers.gbench`, :mod:`~esize.readers.hyperfine`,
:mod:`~esize.readers.benchmarkdotnet`, :mod:`~esize.readers.asv`,
:mod:`~esize.readers.julia`, :mod:`~esize.readers.gotest` (Go benchmark text),
:mod:`~esize.readers.pytestbench` (pytest-benchmark), :mod:`~esize.readers.criterion`
(criterion.rs directories); units in
:mod:`~esize.readers.units`. Importing this package loads numpy only.
"""

from ._common import (
    BALANCE_MODES,
    Benchmark,
    design_from_ragged,
    drop_single_top,
    drop_warmup,
    one_process_caveat,
    plural,
    trim,
)
from ._match import Matching, align_pair, match_benchmarks, names_text
from ._read import (
    FORMATS,
    GBENCH_TIMES,
    HARNESS_LEVELS,
    UNOBSERVED_LEVELS,
    detect_format,
    load,
    next_run_options,
    read_benchmarks,
)
from ._suffixes import (
    COMPRESSED as COMPRESSED_SUFFIXES,
)
from ._suffixes import (
    DATA_SUFFIXES,
    JSON_SUFFIXES,
    PARQUET_SUFFIXES,
    TABLE_SUFFIXES,
    is_json_name,
    is_table_name,
    strip_data_suffixes,
)
from .units import UnitInfo, unit_info

__all__ = [
    "FORMATS",
    "BALANCE_MODES",
    "GBENCH_TIMES",
    "HARNESS_LEVELS",
    "UNOBSERVED_LEVELS",
    "UnitInfo",
    "unit_info",
    "Benchmark",
    "detect_format",
    "read_benchmarks",
    "Matching",
    "match_benchmarks",
    "align_pair",
    "next_run_options",
    "names_text",
    "design_from_ragged",
    "plural",
    "load",
    "trim",
    "drop_warmup",
    "drop_single_top",
    "one_process_caveat",
    "TABLE_SUFFIXES",
    "PARQUET_SUFFIXES",
    "JSON_SUFFIXES",
    "COMPRESSED_SUFFIXES",
    "DATA_SUFFIXES",
    "is_table_name",
    "is_json_name",
    "strip_data_suffixes",
]
