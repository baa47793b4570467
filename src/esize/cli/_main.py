"""The ``esize`` command line: summary, compare, plan.

A friendly shell over the strict library: every user mistake becomes one line on
stderr naming the file (and the benchmark) and the problem, and exit status 2.
Reading files is :mod:`esize.formats`, the suite's geometric mean
:mod:`esize.suite`, figures :mod:`esize.plots`; this module only wires them to
options and prints tables. Notes (what ``--balance truncate`` dropped, benchmarks
found in one file only) go to stderr after a successful run.
"""

from __future__ import annotations

import argparse
import json
import math
import secrets
import sys
from collections.abc import Sequence

from .. import __version__
from .._bootstrap import parse_scheme
from .._decision import describe, verdict
from .._design import Design
from .._errors import EsizeError, InputError
from .._estimators import variance_components
from ..readers._formats import (
    BALANCE_MODES,
    FORMATS,
    GBENCH_TIMES,
    Benchmark,
    detect_format,
    plural,
    read_benchmarks,
)
from .._intervals import fieller_ci, mean_ci
from .._atomic import atomic_write_text
from .._planning import dimension_for_plan, experiment_cost, plan_from_design
from ._progress import ProgressBar
from .. import geometric_mean_ratio_ci

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def _levels_arg(text: str) -> list[str]:
    levels = [x.strip() for x in text.split(",") if x.strip()]
    if not levels:
        raise argparse.ArgumentTypeError("--levels needs at least one column name")
    return levels


def _costs_arg(text: str) -> list[float]:
    try:
        costs = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"costs must be numbers, got {text!r}") from None
    if not costs:
        raise argparse.ArgumentTypeError("--costs needs at least one number")
    return costs


def _number(convert, ok, requirement: str):
    """An argparse type: ``convert`` the text and check ``ok``, else say ``requirement``."""

    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            kind = "an integer" if convert is int else "a number"
            raise argparse.ArgumentTypeError(f"not {kind}: {text!r}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(f"{requirement}, got {value}")
        return value

    return parse


_alpha_arg = _number(float, lambda a: 0 < a < 1, "alpha must lie in (0, 1)")
_positive_int = _number(int, lambda v: v >= 1, "must be a positive integer")
_nonneg_int = _number(int, lambda v: v >= 0, "must be >= 0")
_threshold_arg = _number(
    float, lambda t: 0 <= t < 1, "threshold is a fraction in [0, 1) (0.02 means 2 %)"
)


def _plot_arg(text: str) -> str:
    from ._plots import PLOT_SUFFIXES

    suffix = text[text.rfind(".") :].lower() if "." in text else ""
    if suffix not in PLOT_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"the plot file must end in {', '.join(PLOT_SUFFIXES)}, got {text!r}"
        )
    return text


DEFAULT_LEVELS = ["binary", "execution"]


def _add_input_options(p: argparse.ArgumentParser, *, plot: bool = False) -> None:
    g = p.add_argument_group("input")
    g.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="input format (default: detected; tidy for CSV/Parquet, else the harness "
        "that wrote the JSON: pyperf, jmh, gbench or hyperfine)",
    )
    g.add_argument(
        "--benchmark",
        action="append",
        default=[],
        metavar="NAME",
        help="only this benchmark (repeatable); in a tidy table it implies "
        "--benchmark-column benchmark",
    )
    g.add_argument(
        "--balance",
        choices=BALANCE_MODES,
        default=None,
        help="make unbalanced data balanced: 'truncate' keeps the first m units of every "
        "group, m being the smallest group's size, and reports what it dropped "
        "(default: unbalanced data is an error)",
    )
    g.add_argument(
        "--warmup",
        type=_nonneg_int,
        default=0,
        metavar="K",
        help="drop the first K measurements of every lowest-level group",
    )
    t = p.add_argument_group("tidy CSV/Parquet tables")
    t.add_argument(
        "--levels",
        type=_levels_arg,
        default=None,
        help="grouping columns, highest level first (default: binary,execution); "
        "the rows are the lowest level, 'measurement'",
    )
    t.add_argument("--value", default=None, help="column with the measured values (default: time)")
    t.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="COL=VALUE",
        help="keep only rows where COL equals VALUE (repeatable)",
    )
    t.add_argument(
        "--benchmark-column",
        nargs="?",
        const="benchmark",
        default=None,
        metavar="COL",
        help="split the table into benchmarks by column COL (default COL: benchmark); "
        "without it the whole table is one benchmark",
    )
    h = p.add_argument_group("Google Benchmark files")
    h.add_argument(
        "--gbench-time",
        choices=GBENCH_TIMES,
        default=None,
        help="which time to read (default: real_time)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--output", "-o", metavar="FILE", help="also write the JSON result to FILE (atomically)")
    if plot:
        p.add_argument(
            "--plot",
            type=_plot_arg,
            default=None,
            metavar="FILE",
            help="also draw a figure into FILE (.png, .pdf or .svg)",
        )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="esize",
        description="Effect-size confidence intervals for performance measurements "
        "(Kalibera & Jones): per-level variation, CIs for a mean and for the ratio of "
        "two systems' means, and how to dimension the next experiment. Reads tidy "
        "CSV/Parquet tables and the JSON results of pyperf, JMH, Google Benchmark and "
        "hyperfine.",
    )
    parser.add_argument("--version", action="version", version=f"esize {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("summary", help="per-level variances and a CI for the mean")
    p.add_argument("data", help="tidy CSV/Parquet table or harness JSON result file")
    _add_input_options(p, plot=True)
    p.add_argument("--alpha", type=_alpha_arg, default=0.05, help="1 - confidence (default 0.05)")
    p.add_argument("--normal", action="store_true", help="normal instead of t quantile")

    p = sub.add_parser("compare", help="CI for the ratio of means NEW/OLD and a verdict")
    p.add_argument("old", help="measurements of the old (baseline) system")
    p.add_argument("new", help="measurements of the new system (same design)")
    _add_input_options(p, plot=True)
    p.add_argument("--alpha", type=_alpha_arg, default=0.05, help="1 - confidence (default 0.05)")
    p.add_argument("--normal", action="store_true", help="Fieller with the normal quantile")
    p.add_argument("--method", choices=["fieller", "bootstrap", "both"], default="both")
    p.add_argument(
        "--threshold",
        type=_threshold_arg,
        default=0.02,
        help="smallest relative change that matters, as a fraction (default 0.02)",
    )
    p.add_argument("--resamples", type=_positive_int, default=10_000, help="bootstrap replicates (default 10000)")
    p.add_argument("--scheme", default=None, help="bootstrap scheme: R/N per level or FLAT (default all R)")
    p.add_argument("--seed", type=_nonneg_int, default=None, help="bootstrap seed (default: fresh, reported)")

    p = sub.add_parser("plan", help="optimal repetition counts for the next experiment")
    p.add_argument("data", help="pilot measurements: tidy table or harness JSON result file")
    _add_input_options(p)
    p.add_argument(
        "--costs",
        type=_costs_arg,
        default=None,
        help="cost of a new unit at each level from the lowest up, in measurements: "
        "c1 (warm-up per execution, process or fork), c2 (build per binary), ...; "
        "required unless the data have a single level",
    )
    p.add_argument("--budget", type=float, default=None, help="time budget in measurements: also dimension the experiment")
    p.add_argument(
        "--dropped-cost",
        choices=["fold", "replace"],
        default="fold",
        help="after dropping a level with T^2 <= 0, optimise with the true cost of a new "
        "unit above it (fold, default) or with the dropped level's cost alone (replace, "
        "the paper's convention)",
    )
    p.add_argument("--alpha", type=_alpha_arg, default=0.05, help="1 - confidence for --budget (default 0.05)")
    return parser


# -- reading ------------------------------------------------------------------------
def _prefix(name) -> str:
    return "" if name is None else f"benchmark {name!r}: "


def _names(names, limit: int = 8) -> str:
    shown = [str(n) for n in names[:limit]]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(shown) + more if shown else "none"


def _read(path: str, args) -> tuple[str, dict]:
    """Format and ``{name: Benchmark}`` of one input file, with the CLI's options."""
    fmt = args.format or detect_format(path)
    if fmt != "tidy":
        for opt, val in (
            ("--levels", args.levels),
            ("--value", args.value),
            ("--where", args.where),
            ("--benchmark-column", args.benchmark_column),
        ):
            if val:
                raise InputError(path, f"{opt} applies to tidy CSV/Parquet tables; this is a {fmt} file")
    if args.gbench_time and fmt != "gbench":
        raise InputError(path, f"--gbench-time applies to Google Benchmark files; this is a {fmt} file")
    column = args.benchmark_column
    if fmt == "tidy" and column is None and args.benchmark:
        column = "benchmark"
    benches = read_benchmarks(
        path,
        fmt,
        levels=args.levels or DEFAULT_LEVELS,
        value=args.value or "time",
        where=args.where,
        warmup=args.warmup,
        benchmark_column=column,
        balance=args.balance,
        gbench_time=args.gbench_time or "real_time",
        notes=args.notes,
    )
    return fmt, benches


def _select(path: str, benches: dict, wanted: Sequence[str]) -> dict:
    if not wanted:
        return benches
    wanted = list(dict.fromkeys(wanted))
    missing = [n for n in wanted if n not in benches]
    if missing:
        raise InputError(
            path, f"{_prefix(missing[0])}not in the file; it has {_names(list(benches))}"
        )
    return {n: benches[n] for n in wanted}


def _replicated(path: str, name, design: Design) -> None:
    try:
        design.require_replication(2)
    except EsizeError as exc:
        raise InputError(path, f"{_prefix(name)}{exc}") from None


def _num(x: float):
    return float(x) if math.isfinite(x) else None


def _unit_text(unit) -> str:
    if not unit.unit:
        return ""
    return f"({unit.unit}, {unit.direction})"


def _save_plot(path: str, fig) -> None:
    from ._plots import save_figure

    try:
        save_figure(fig, path)
    except OSError as exc:
        raise EsizeError(f"{path}: cannot write: {exc.strerror or exc}") from None


# -- commands -----------------------------------------------------------------------
def _summary_rows(d: Design, vc, ci, alpha: float) -> list[str]:
    conf = f"{100 * (1 - alpha):g} %"
    rows = [
        f"design      {' > '.join(d.levels)}: {' x '.join(map(str, d.shape))} "
        f"({d.data.size} measurements)",
        f"mean        {ci.estimate:.6g}",
        f"{conf} CI  [{ci.lower:.6g}, {ci.upper:.6g}]  ({ci.method}, "
        f"+-{100 * ci.half_width / ci.estimate:.2f} % of the mean)",
        "",
        f"{'level':<14}{'n':>6}{'S2':>14}{'T2':>14}{'S %':>9}{'T %':>9}",
    ]
    for k, name in enumerate(d.levels):
        rows.append(
            f"{name:<14}{d.shape[k]:>6}{vc.S2[k]:>14.6g}{vc.T2[k]:>14.6g}"
            f"{vc.S_pct[k]:>9.3f}{vc.T_pct[k]:>9.3f}"
        )
    return rows


def cmd_summary(args) -> tuple[dict, str]:
    fmt, benches = _read(args.data, args)
    benches = _select(args.data, benches, args.benchmark)
    results, blocks, plot_rows = [], [], []
    for name, (d, unit) in benches.items():
        _replicated(args.data, name, d)
        vc = variance_components(d)
        ci = mean_ci(d, alpha=args.alpha, normal=args.normal)
        results.append(
            {
                "name": name,
                **unit.as_dict(),
                "levels": list(d.levels),
                "counts": d.counts,
                "mean": ci.estimate,
                "ci": {"method": ci.method, "alpha": ci.alpha, "lower": ci.lower, "upper": ci.upper},
                "variance": vc.as_dict(),
            }
        )
        head = [] if name is None else [f"benchmark   {name}   {_unit_text(unit)}".rstrip()]
        blocks.append(head + _summary_rows(d, vc, ci, args.alpha))
        plot_rows.append(
            {
                "name": "data" if name is None else name,
                "levels": list(d.levels),
                "T_pct": [float(x) for x in vc.T_pct],
                "T2": [float(x) for x in vc.T2],
            }
        )
    out: dict = {"file": args.data}
    if len(results) == 1:
        one = results[0]
        out.update({k: one[k] for k in ("levels", "counts", "mean", "ci", "variance")})
    out["benchmarks"] = results
    file_line = f"file        {args.data}" + ("" if fmt == "tidy" else f"   ({fmt})")
    rows = [file_line]
    for k, block in enumerate(blocks):
        if k:
            rows.append("")
        rows += block
    if args.plot:
        from ._plots import summary_figure

        _save_plot(args.plot, summary_figure(plot_rows))
    return out, "\n".join(rows)


def _match(args, old_b: dict, new_b: dict):
    """Pairs (name, new name, old Benchmark, new Benchmark) and the unmatched names."""
    if len(old_b) == 1 and len(new_b) == 1 and not args.benchmark:
        (no, bo), (nn, bn) = next(iter(old_b.items())), next(iter(new_b.items()))
        return [(no, nn, bo, bn)], [], []
    if args.benchmark:
        wanted = list(dict.fromkeys(args.benchmark))
        absent = [n for n in wanted if n not in old_b and n not in new_b]
        if absent:
            raise InputError(
                args.old,
                f"{_prefix(absent[0])}in neither file; {args.old} has {_names(list(old_b))}",
            )
    else:
        wanted = list(old_b) + [n for n in new_b if n not in old_b]
    common = [n for n in wanted if n in old_b and n in new_b]
    only_old = [n for n in wanted if n in old_b and n not in new_b]
    only_new = [n for n in wanted if n in new_b and n not in old_b]
    if not common:
        raise InputError(
            args.new,
            f"no benchmark matches one in {args.old} (old: {_names(list(old_b))}; "
            f"new: {_names(list(new_b))})",
        )
    if only_old:
        args.notes.append(f"only in {args.old}, not compared: {_names(only_old)}")
    if only_new:
        args.notes.append(f"only in {args.new}, not compared: {_names(only_new)}")
    return [(n, n, old_b[n], new_b[n]) for n in common], only_old, only_new


def _align(args, name, new_name, bo: Benchmark, bn: Benchmark) -> tuple[Design, Design]:
    """The two designs of one benchmark in the same unit and shape (or an error)."""
    uo, un = bo.unit, bn.unit
    old, new = bo.design, bn.design
    if uo.lower_is_better != un.lower_is_better:
        raise InputError(
            args.new,
            f"{_prefix(new_name)}{un.unit or 'unit'} ({un.direction}) cannot be compared with "
            f"{uo.unit or 'unit'} ({uo.direction}) in {args.old}",
        )
    # a tidy table carries no unit: it is taken to be the other file's
    if uo.unit and un.unit and (uo.unit, uo.kind) != (un.unit, un.kind):
        factor = un.factor_to(uo)
        if factor is None:
            raise InputError(
                args.new,
                f"{_prefix(new_name)}unit {un.unit!r} cannot be converted to {uo.unit!r} of {args.old}",
            )
        new = Design(new.data * factor, new.levels)
        args.notes.append(f"{args.new}: {_prefix(new_name)}values converted from {un.unit} to {uo.unit}")
    if old.levels != new.levels:
        raise InputError(
            args.new,
            f"{_prefix(new_name)}levels {list(new.levels)} differ from {args.old}'s {list(old.levels)}",
        )
    if old.shape != new.shape:
        if args.balance == "truncate":
            shape = tuple(min(a, b) for a, b in zip(old.shape, new.shape))
            cut = tuple(slice(0, n) for n in shape)
            args.notes.append(
                f"{_prefix(name)}--balance truncate cut both systems to "
                f"{dict(zip(old.levels, shape))} (old {dict(old.counts)}, new {dict(new.counts)})"
            )
            old, new = Design(old.data[cut], old.levels), Design(new.data[cut], new.levels)
        else:
            hint = "" if name is None else " (or use --balance truncate)"
            raise InputError(
                args.new,
                f"{_prefix(new_name)}design {dict(new.counts)} differs from {args.old}'s "
                f"{dict(old.counts)}; both systems need the same repetition counts{hint}",
            )
    if old.shape[0] < 2:
        raise InputError(
            args.old,
            f"{_prefix(name)}level {old.levels[0]!r} has {old.shape[0]} unit(s); at least 2 needed",
        )
    return old, new


def _verdict_fields(ratio, ci, args, lower_is_better: bool) -> dict:
    if ci is None:
        return {"verdict": "inconclusive", "verdict_method": None, "description": "no bounded interval"}
    name, iv = ci
    return {
        "verdict": verdict(
            iv.lower, iv.upper, args.threshold, bounded=iv.bounded, lower_is_better=lower_is_better
        ),
        "verdict_method": name,
        "description": describe(ratio, iv.lower, iv.upper, args.alpha, lower_is_better=lower_is_better),
    }


def cmd_compare(args) -> tuple[dict, str]:
    fo, old_b = _read(args.old, args)
    fn, new_b = _read(args.new, args)
    matched, only_old, only_new = _match(args, old_b, new_b)
    pairs, schemes = [], []
    for name, new_name, bo, bn in matched:
        old, new = _align(args, name, new_name, bo, bn)
        scheme = parse_scheme("R" * old.n_levels if args.scheme is None else args.scheme, old.n_levels)
        if args.method != "fieller" and "R" not in scheme and scheme != "FLAT":
            raise EsizeError(f"scheme {scheme!r} resamples no level; use at least one R, or FLAT")
        pairs.append((old, new))
        schemes.append(scheme)
    k = len(matched)
    want_fieller = args.method in ("fieller", "both")
    want_boot = args.method in ("bootstrap", "both")
    directions = [bo.unit.lower_is_better for _, _, bo, _ in matched]
    mixed = len(set(directions)) > 1
    invert = [mixed and not d for d in directions]

    suite = seed = None
    if want_boot or k >= 2:
        seed = args.seed if args.seed is not None else secrets.randbits(32)
        unnamed = k == 1 and matched[0][0] is None
        with ProgressBar(
            2 * k * args.resamples, enabled=None if not args.json else False
        ) as bar:
            suite = geometric_mean_ratio_ci(
                pairs,
                scheme=schemes,
                n_resamples=args.resamples,
                alpha=args.alpha,
                rng=seed,
                names=None if unnamed else [m[0] for m in matched],
                invert=invert,
                progress=bar if bar.enabled else None,
            )

    conf = f"{100 * (1 - args.alpha):g} %"
    results, detail = [], []
    for j, ((name, new_name, bo, _), (old, new), scheme) in enumerate(zip(matched, pairs, schemes)):
        lib = bo.unit.lower_is_better
        res: dict = {"name": name}
        if new_name != name:
            res["new_name"] = new_name
        res.update(bo.unit.as_dict())
        res.update(
            {
                "ratio": new.mean / old.mean,
                "old": {"mean": old.mean},
                "new": {"mean": new.mean},
                "alpha": args.alpha,
                "threshold": args.threshold,
            }
        )
        rows = [f"ratio new/old   {res['ratio']:.6g}   (old mean {old.mean:.6g}, new mean {new.mean:.6g})"]
        chosen = None
        if want_fieller:
            f = fieller_ci(old, new, alpha=args.alpha, normal=args.normal)
            res["fieller"] = {
                "lower": _num(f.lower),
                "upper": _num(f.upper),
                "bounded": f.bounded,
                "quantile": "normal" if args.normal else "t",
            }
            rows.append(
                f"Fieller {conf:<8}[{f.lower:.6g}, {f.upper:.6g}]"
                if f.bounded
                else f"Fieller {conf:<8}unbounded: the old mean is not distinguishable from zero"
            )
            if f.bounded:
                chosen = ("fieller", f)
        if want_boot:
            b = suite.intervals[j]
            res["bootstrap"] = {
                "lower": _num(b.lower),
                "upper": _num(b.upper),
                "scheme": scheme,
                "resamples": args.resamples,
                "seed": seed,
            }
            rows.append(
                f"bootstrap {scheme:<6}[{b.lower:.6g}, {b.upper:.6g}]  "
                f"({args.resamples} resamples, seed {seed})"
            )
            if chosen is None:
                chosen = ("bootstrap", b)
        res.update(_verdict_fields(res["ratio"], chosen, args, lib))
        rows.append(
            f"verdict         {res['verdict']} at threshold {100 * args.threshold:g} % "
            f"(from {res['verdict_method'] or 'no interval'}): {res['description']}"
        )
        res["design"] = {"old": old.counts, "new": new.counts}
        iv = chosen[1] if chosen else None
        res["_plot"] = {
            "name": "data" if name is None else name,
            "ratio": res["ratio"],
            "lower": _num(iv.lower) if iv is not None else None,
            "upper": _num(iv.upper) if iv is not None else None,
            "unit": bo.unit.unit,
            "lower_is_better": lib,
        }
        if name is not None:
            label = name if new_name == name else f"{name} (new: {new_name})"
            rows.insert(0, f"benchmark       {label}   {_unit_text(bo.unit)}".rstrip())
        results.append(res)
        detail.append(rows)

    plot_rows = [r.pop("_plot") for r in results]
    out: dict = {"files": {"old": args.old, "new": args.new}}
    if k == 1:
        one = results[0]
        for key in ("ratio", "old", "new", "alpha", "threshold", "fieller", "bootstrap",
                    "verdict", "verdict_method", "description"):
            if key in one:
                out[key] = one[key]
    else:
        out.update({"alpha": args.alpha, "threshold": args.threshold})
    out["benchmarks"] = results
    out["only_in_old"] = only_old
    out["only_in_new"] = only_new
    suite_plot = None
    if k >= 2:
        # rates are inverted when the suite mixes them with times
        suite_lib = mixed or directions[0]
        s = suite.as_dict()
        s.update(
            {
                "scheme": schemes[0] if len(set(schemes)) == 1 else schemes,
                "seed": seed,
                "lower_is_better": suite_lib,
                "inverted": [m[0] for m, inv in zip(matched, invert) if inv],
                "verdict": verdict(s["lower"], s["upper"], args.threshold, lower_is_better=suite_lib),
                "description": describe(
                    s["geometric_mean"], s["lower"], s["upper"], args.alpha, lower_is_better=suite_lib
                ),
            }
        )
        out["suite"] = s
        suite_plot = s
        text = _compare_table(args, fo, fn, results, s, conf)
    else:
        text = "\n".join(detail[0])
    if args.plot:
        from ._plots import compare_figure

        _save_plot(
            args.plot,
            compare_figure(plot_rows, threshold=args.threshold, alpha=args.alpha, suite=suite_plot),
        )
    return out, text


def _compare_table(args, fo, fn, results, s, conf) -> str:
    width = max(14, *(len(str(r["name"])) for r in results)) + 2
    units = [r["unit"] + ("" if r["lower_is_better"] else " ↑") for r in results]
    uw = max(6, *(len(u) for u in units)) + 2
    rows = [
        f"old         {args.old}   ({fo})",
        f"new         {args.new}   ({fn})",
        f"intervals   {conf} Fieller (bootstrap where Fieller is unbounded or not run); "
        f"threshold {100 * args.threshold:g} %",
        "",
        f"{'benchmark':<{width}}{'unit':<{uw}}{'ratio':>9}{'lower':>9}{'upper':>9}  "
        f"{'verdict':<14}change",
    ]
    for r, unit in zip(results, units):
        iv = r.get(r["verdict_method"] or "", {})
        lo = iv.get("lower")
        hi = iv.get("upper")
        rows.append(
            f"{str(r['name']):<{width}}{unit:<{uw}}{r['ratio']:>9.4f}"
            f"{(f'{lo:.4f}' if lo is not None else '-inf'):>9}"
            f"{(f'{hi:.4f}' if hi is not None else 'inf'):>9}  "
            f"{r['verdict']:<14}{r['description']}"
        )
    rows.append("")
    rows.append(
        f"{'geometric mean':<{width}}{'':<{uw}}{s['geometric_mean']:>9.4f}{s['lower']:>9.4f}"
        f"{s['upper']:>9.4f}  {s['verdict']:<14}{s['description']}"
    )
    scheme = s["scheme"] if isinstance(s["scheme"], str) else "/".join(s["scheme"])
    rows.append(
        f"{'':<{width}}(bootstrap {scheme} within each benchmark, {s['resamples']} resamples, "
        f"seed {s['seed']})"
    )
    if any(not r["lower_is_better"] for r in results):
        rows.append("")
        rows.append("↑ marks rates (higher is better): for them a ratio above 1 means new is faster")
    if s["inverted"]:
        rows.append(
            "the geometric mean mixes rates and times: rates enter it as old/new, so below 1 "
            "means new is faster"
        )
    return "\n".join(rows)


_HARNESS_OPTIONS = {
    # format: {level: option}
    "pyperf": {"process": "--processes", "value": "--values"},
    "jmh": {"fork": "-f", "iteration": "-i"},
    "gbench": {"repetition": "--benchmark_repetitions="},
    "hyperfine": {"run": "--runs"},
}


def _harness_hint(fmt: str, plans: list, costs, budget) -> str | None:
    """Harness options for the next run: the largest count of every lower level over
    the benchmarks and, with a budget, the number of top-level units it then buys."""
    opts = _HARNESS_OPTIONS.get(fmt)
    plans = [p for p in plans if p is not None]
    if not opts or not plans:
        return None
    levels = list(opts)
    lower = {lv: max(p.counts[lv] for p in plans) for lv in levels[1:]}
    counts = dict(lower)
    if budget is not None:
        per_top = experiment_cost([1, *lower.values()], list(reversed(costs))) if lower else 1.0
        counts = {levels[0]: int(math.floor(budget / per_top + 1e-9)), **lower}
    parts = []
    for lv, n in counts.items():
        opt = opts[lv]
        parts.append(f"{opt}{'' if opt.endswith('=') else ' '}{n}")
    return " ".join(parts) or None


def cmd_plan(args) -> tuple[dict, str]:
    if args.costs is None and (args.format == "tidy" or (args.format is None and not _is_json(args.data))):
        raise EsizeError("the following arguments are required: --costs")
    fmt, benches = _read(args.data, args)
    benches = _select(args.data, benches, args.benchmark)
    if args.costs is not None:
        bad = [c for c in args.costs if not (math.isfinite(c) and c > 0)]
        if bad:
            raise EsizeError(f"--costs must be positive and finite, got {args.costs}")
    results, blocks, plans_for_hint = [], [], []
    for name, (d, unit) in benches.items():
        _replicated(args.data, name, d)
        costs = [] if args.costs is None else list(args.costs)
        if args.costs is None and d.n_levels > 1:
            raise InputError(
                args.data,
                f"{_prefix(name)}the following arguments are required: --costs "
                f"({d.n_levels - 1} for levels {list(d.levels)}, from the lowest level up)",
            )
        if len(costs) != d.n_levels - 1:
            raise InputError(
                args.data,
                f"{_prefix(name)}{len(costs)} cost(s) given for {d.n_levels} levels "
                f"{list(d.levels)}; --costs needs {d.n_levels - 1} (from the lowest level up)",
            )
        plan = plan_from_design(d, list(reversed(costs)), dropped_cost=args.dropped_cost)
        res = {"name": name, **unit.as_dict(), **plan.as_dict()}
        rows = [] if name is None else [f"benchmark   {name}   {_unit_text(unit)}".rstrip()]
        rows.append(
            f"levels      {' > '.join(plan.levels)}"
            + (f"   (dropped: {', '.join(plan.dropped)}, T^2 <= 0)" if plan.dropped else "")
        )
        for lv, n in plan.counts.items():
            rows.append(f"{lv:<12}{n:>8} per {plan.levels[plan.levels.index(lv) - 1]}")
        if not plan.counts:
            rows.append(
                f"{plan.levels[0]:<12}{'':>8} nothing to optimise: only the number of "
                f"{plural(plan.levels[0])} matters (see --budget)"
            )
        # a benchmark whose plan dropped a level puts no constraint on the counts
        plans_for_hint.append(None if plan.dropped else plan)
        if args.budget is not None:
            dim = dimension_for_plan(plan, args.budget, mean=d.mean, alpha=args.alpha)
            res["dimensioning"] = {
                "budget": args.budget,
                "counts": dim.counts,
                "half_width_pct": _num(100 * dim.half_width),
                "default_n": dim.default_n,
                "default_half_width_pct": _num(100 * dim.default_half_width),
            }
            rows.append(
                f"budget {args.budget:g}: {' x '.join(f'{k} {v}' for k, v in dim.counts.items())} "
                f"gives +-{100 * dim.half_width:.2f} %; one-level default ({dim.default_n} samples) "
                f"+-{100 * dim.default_half_width:.2f} %"
            )
        results.append(res)
        blocks.append(rows)
    out: dict = {}
    if len(results) == 1:
        out.update({k: v for k, v in results[0].items() if k not in ("name", "unit", "lower_is_better")})
    else:
        out["file"] = args.data
    out["benchmarks"] = results
    rows = [f"file        {args.data}" + ("" if fmt == "tidy" else f"   ({fmt})")]
    for k, block in enumerate(blocks):
        if k:
            rows.append("")
        rows += block
    hint = _harness_hint(fmt, plans_for_hint, args.costs or [], args.budget)
    if hint:
        out["suggestion"] = f"{fmt} {hint}"
        top = next(iter(_HARNESS_OPTIONS[fmt]))
        notes = []
        used = sum(p is not None for p in plans_for_hint)
        if len(results) > 1 and len(_HARNESS_OPTIONS[fmt]) > 1:
            among = f"the {used}" if used == len(results) else f"{used} of the {len(results)}"
            notes.append(
                f"counts per {top}: the largest over {among} benchmarks"
                + ("" if used == len(results) else " that keep every level")
            )
        if args.budget is not None:
            notes.append(f"{plural(top)}: what the budget buys with those counts")
        more = f" ({'; '.join(notes)})" if notes else ""
        rows += ["", f"next run    {fmt} options: {hint}{more}"]
    return out, "\n".join(rows)


def _is_json(path: str) -> bool:
    try:
        return detect_format(path) != "tidy"
    except EsizeError:
        return False


COMMANDS = {"summary": cmd_summary, "compare": cmd_compare, "plan": cmd_plan}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.notes = []
    try:
        out, table = COMMANDS[args.command](args)
        for note in args.notes:  # on success only: an error stays a single line
            print(f"esize: note: {note}", file=sys.stderr)
        text = json.dumps(out, indent=2, allow_nan=False)
        if args.output:
            atomic_write_text(args.output, text + "\n")
    except EsizeError as exc:
        print(f"esize: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:  # writing --output
        print(f"esize: error: {args.output}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(text if args.json else table)
    return 0


def run() -> None:  # console-script entry point
    try:
        code = main()
    except KeyboardInterrupt:
        print("esize: interrupted", file=sys.stderr)
        code = 130
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
