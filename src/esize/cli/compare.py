"""``esize compare``: how much faster or slower is the new system, and is it certain?

The command line's side of the comparison: reading the two files with its options,
pairing their benchmarks (:func:`read_pairs`, or one hyperfine export's commands
against its first, :func:`baseline_pairs`) and handing the pairs to the engine,
:func:`esize.compare.compare_pairs`, whose :class:`~esize.compare.CompareResult`
prints the text or JSON. What the intervals and verdicts are is said there.

A caveat also names every harness setting recorded differently in the two files
(:mod:`esize.readers.settings`): a change of settings, not of code, can move the ratio.
"""

from __future__ import annotations

from .._design import Design
from .._errors import EsizeError, InputError
from ..compare import (
    MIN_BOOTSTRAP_UNITS,
    CompareResult,
    CompareRow,
    Pair,
    SuiteRow,
    align_designs,
    compare_pairs,
    directions,
    reading_caveats,
    robust_design,
    schemes_for,
    unobserved_top,
)
from ..plots import require_matplotlib
from ..readers import align_pair, match_benchmarks, names_text
from ..readers.settings import file_settings, settings_caveat
from ..text import dump_json, merge_warmup
from ._shared import progress_bar, read_input, select

__all__ = [
    "Pair",
    "CompareRow",
    "SuiteRow",
    "CompareResult",
    "MIN_BOOTSTRAP_UNITS",
    "directions",
    "read_pairs",
    "baseline_pairs",
    "compare",
    "cmd_compare",
]


def _schemes(args, old: Design, new: Design, wants_boot: bool) -> tuple[str, str]:
    return schemes_for(args.scheme, old, new, bootstrap=wants_boot, option="--scheme")


def read_pairs(args) -> tuple[str, str, list[Pair], list, list]:
    """Read both files, pair their benchmarks and make every pair comparable.

    The two systems of a pair may have different designs; each is resampled within
    itself and contributes the variance of its own top-level means.

    Returns
    -------
    (str, str, list of Pair, list, list)
        The formats of the old and the new file, the pairs, and the names found
        only in the old or only in the new file.

    Raises
    ------
    EsizeError
        Unreadable files, nothing to compare, or a scheme that does not fit.

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.compare import read_pairs
    >>> examples = Path(esize.__file__).parents[2] / "examples"  # in the repository
    >>> args = build_parser().parse_args(["compare", str(examples / "old.csv"),
    ...                                   str(examples / "new.csv")])
    >>> old_format, new_format, pairs, only_old, only_new = read_pairs(args)
    >>> old_format, len(pairs), pairs[0].old.counts, round(pairs[0].ratio, 4), only_old
    ('tidy', 1, {'binary': 3, 'execution': 2, 'measurement': 2}, 0.619, [])
    """
    max_bytes = getattr(args, "max_input_size", None)
    fo, old_b = read_input(args.old, args, singles=True)
    old_settings = file_settings(args.old, fo, max_bytes)  # while its document is cached
    fn, new_b = read_input(args.new, args, singles=True)
    new_settings = file_settings(args.new, fn, max_bytes)
    matching = match_benchmarks(
        old_b, new_b, args.benchmark, old_source=args.old, new_source=args.new
    )
    wants_boot = args.method not in ("fieller", "mixed")
    pairs = []
    for name, new_name, bo, bn in matching.pairs:
        old, new = align_designs(
            bo, bn, name=name, new_name=new_name, old_source=args.old, new_source=args.new,
        )
        changed = settings_caveat(old_settings.get(name), new_settings.get(new_name))
        est = getattr(args, "estimator", "mean")
        old, new = robust_design(old, est), robust_design(new, est)
        pairs.append(Pair(name, new_name, bo.unit, old, new,
                          _schemes(args, old, new, wants_boot),
                          reading_caveats(bo, bn) + ((changed,) if changed else ()),
                          merge_warmup(bo.warmup, bn.warmup), unobserved_top(bo, bn), est))
    return fo, fn, pairs, matching.only_old, matching.only_new


def baseline_pairs(args) -> tuple[str, str, list[Pair]]:
    """Every command of one hyperfine export against the first, its baseline.

    This is what hyperfine's own summary does (``'b' ran 1.5 times faster than
    'a'``). ``--benchmark`` picks the commands; the first picked is the baseline.

    Returns
    -------
    (str, str, list of Pair)
        The format, the baseline command, and one pair per other command (named
        after it).

    Raises
    ------
    InputError
        The file is not a hyperfine export, or it holds fewer than two commands.

    Examples
    --------
    >>> import json, os, tempfile
    >>> from esize.cli import build_parser
    >>> from esize.cli.compare import baseline_pairs
    >>> doc = {"results": [{"command": "sort", "times": [1.02, 0.98, 1.01, 0.99]},
    ...                    {"command": "sort -u", "times": [0.81, 0.79, 0.80, 0.82]}]}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "runs.json")
    ...     with open(path, "w") as fh:
    ...         json.dump(doc, fh)
    ...     fmt, baseline, pairs = baseline_pairs(build_parser().parse_args(["compare", path]))
    >>> fmt, baseline, [(p.name, round(p.ratio, 4)) for p in pairs]
    ('hyperfine', 'sort', [('sort -u', 0.805)])
    """
    fmt, benches = read_input(args.old, args)
    if fmt != "hyperfine":
        raise InputError(
            args.old,
            f"compare needs a NEW file to compare with; one file alone is compared command "
            f"by command only when it is a hyperfine export (this is {fmt})",
        )
    benches = select(args.old, benches, args.benchmark)
    if len(benches) < 2:
        raise InputError(
            args.old,
            f"one command ({names_text(list(benches))}); comparing within one hyperfine "
            "file needs two or more (or give a NEW file)",
        )
    wants_boot = args.method not in ("fieller", "mixed")
    (base, bo), *others = benches.items()
    pairs = []
    for name, bn in others:
        old, new = align_pair(bo, bn, name=base, new_name=name, old_source=args.old,
                              new_source=args.old)
        est = getattr(args, "estimator", "mean")
        old, new = robust_design(old, est), robust_design(new, est)
        pairs.append(Pair(name, name, bo.unit, old, new, _schemes(args, old, new, wants_boot),
                          reading_caveats(bo, bn), merge_warmup(bo.warmup, bn.warmup),
                          unobserved_top(bo, bn), est))
    return fmt, base, pairs


def compare(args) -> CompareResult:
    """Compare the two files of ``args`` (options as parsed by the command line); without
    a new file, the commands of one hyperfine export with its first.

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.compare import compare
    >>> examples = Path(esize.__file__).parents[2] / "examples"  # in the repository
    >>> argv = ["compare", str(examples / "old.csv"), str(examples / "new.csv"), "--seed", "1",
    ...         "--resamples", "2000"]
    >>> row = compare(build_parser().parse_args(argv)).rows[0]
    >>> print(row.verdict, round(row.bootstrap.lower, 3), round(row.bootstrap.upper, 3))
    inconclusive 0.232 1.364
    """
    baseline = None
    only_old: list
    only_new: list
    if args.new is None:
        fo, baseline, pairs = baseline_pairs(args)
        fn, only_old, only_new = fo, [], []
    else:
        fo, fn, pairs, only_old, only_new = read_pairs(args)
    return compare_pairs(
        pairs, method=args.method, alpha=args.alpha, threshold=args.threshold,
        normal=args.normal, resamples=args.resamples, seed=args.seed,
        assume_no_fork_variance=bool(getattr(args, "assume_no_fork_variance", False)),
        assume_bootstrap_covers=bool(getattr(args, "assume_bootstrap_covers", False)),
        files=(args.old, args.new), formats=(fo, fn), only_in_old=only_old,
        only_in_new=only_new, baseline=baseline,
        progress=lambda total: progress_bar(total, enabled=not args.json),
        paired=getattr(args, "paired", None) or False)


def cmd_compare(args) -> CompareResult:
    """``esize compare``: the result, and its figure drawn when ``--plot`` asks.

    Examples
    --------
    >>> import esize
    >>> from pathlib import Path
    >>> from esize.cli import build_parser
    >>> from esize.cli.compare import cmd_compare
    >>> examples = Path(esize.__file__).parents[2] / "examples"  # in the repository
    >>> argv = ["compare", str(examples / "old.csv"), str(examples / "new.csv"), "--method",
    ...         "fieller"]
    >>> row = cmd_compare(build_parser().parse_args(argv)).rows[0]  # no --plot: no figure
    >>> print(row.verdict, row.description)
    inconclusive new is 1.62x faster (95 % CI 1.49x slower .. 6.01x faster)
    """
    result = compare(args)
    if args.plot:
        try:
            require_matplotlib()
        except EsizeError:
            # the comparison is complete: show it, then fail on the figure alone
            print(dump_json(result.to_json()) if args.json else result.render_text())
            raise
        result.plot(args.plot)
    return result
