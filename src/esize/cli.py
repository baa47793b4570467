"""The ``esize`` command line: summary, compare, plan.

A friendly shell over the strict library: every user mistake becomes one line on
stderr naming the file and the problem, and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import secrets
import sys
from collections.abc import Sequence

from . import __version__
from .bootstrap import bootstrap_ratio_ci, parse_scheme
from .decision import describe, verdict
from .design import Design
from .errors import EsizeError, InputError
from .estimators import variance_components
from .intervals import fieller_ci, mean_ci
from .io import atomic_write_text, load_design
from .planning import dimension_for_plan, plan_from_design

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


def _alpha_arg(text: str) -> float:
    try:
        a = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < a < 1:
        raise argparse.ArgumentTypeError(f"alpha must lie in (0, 1), got {a}")
    return a


def _positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {v}")
    return v


def _nonneg_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {v}")
    return v


def _threshold_arg(text: str) -> float:
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= t < 1:
        raise argparse.ArgumentTypeError(
            f"threshold is a fraction in [0, 1) (0.02 means 2 %), got {t}"
        )
    return t


def _add_input_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("input")
    g.add_argument(
        "--levels",
        type=_levels_arg,
        default=["binary", "execution"],
        help="grouping columns, highest level first (default: binary,execution); "
        "the rows are the lowest level, 'measurement'",
    )
    g.add_argument("--value", default="time", help="column with the measured values (default: time)")
    g.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="COL=VALUE",
        help="keep only rows where COL equals VALUE (repeatable)",
    )
    g.add_argument(
        "--warmup",
        type=_nonneg_int,
        default=0,
        metavar="K",
        help="drop the first K measurements of every lowest-level group",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--output", "-o", metavar="FILE", help="also write the JSON result to FILE (atomically)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="esize",
        description="Effect-size confidence intervals for performance measurements "
        "(Kalibera & Jones): per-level variation, CIs for a mean and for the ratio of "
        "two systems' means, and how to dimension the next experiment.",
    )
    parser.add_argument("--version", action="version", version=f"esize {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("summary", help="per-level variances and a CI for the mean")
    p.add_argument("data", help="tidy CSV or Parquet file")
    _add_input_options(p)
    p.add_argument("--alpha", type=_alpha_arg, default=0.05, help="1 - confidence (default 0.05)")
    p.add_argument("--normal", action="store_true", help="normal instead of t quantile")

    p = sub.add_parser("compare", help="CI for the ratio of means NEW/OLD and a verdict")
    p.add_argument("old", help="measurements of the old (baseline) system")
    p.add_argument("new", help="measurements of the new system (same design)")
    _add_input_options(p)
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
    p.add_argument("data", help="tidy CSV or Parquet file from a pilot experiment")
    _add_input_options(p)
    p.add_argument(
        "--costs",
        type=_costs_arg,
        required=True,
        help="cost of a new unit at each level from the lowest up, in measurements: "
        "c1 (warm-up per execution), c2 (build per binary), ...",
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


def _load(path: str, args) -> Design:
    return load_design(path, levels=args.levels, value=args.value, where=args.where, warmup=args.warmup)


def _num(x: float):
    return float(x) if math.isfinite(x) else None


# -- commands -----------------------------------------------------------------------
def cmd_summary(args) -> tuple[dict, str]:
    d = _load(args.data, args)
    try:
        d.require_replication(2)
    except EsizeError as exc:
        raise InputError(args.data, str(exc)) from None
    vc = variance_components(d)
    ci = mean_ci(d, alpha=args.alpha, normal=args.normal)
    out = {
        "file": args.data,
        "levels": list(d.levels),
        "counts": d.counts,
        "mean": ci.estimate,
        "ci": {"method": ci.method, "alpha": ci.alpha, "lower": ci.lower, "upper": ci.upper},
        "variance": vc.as_dict(),
    }
    conf = f"{100 * (1 - args.alpha):g} %"
    rows = [
        f"file        {args.data}",
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
    return out, "\n".join(rows)


def cmd_compare(args) -> tuple[dict, str]:
    old, new = _load(args.old, args), _load(args.new, args)
    if old.shape != new.shape:
        raise InputError(
            args.new,
            f"design {dict(new.counts)} differs from {args.old}'s {dict(old.counts)}; "
            "both systems need the same repetition counts",
        )
    if old.shape[0] < 2:
        raise InputError(args.old, f"level {old.levels[0]!r} has {old.shape[0]} unit(s); at least 2 needed")
    scheme = parse_scheme("R" * old.n_levels if args.scheme is None else args.scheme, old.n_levels)
    if args.method != "fieller" and "R" not in scheme and scheme != "FLAT":
        raise EsizeError(f"scheme {scheme!r} resamples no level; use at least one R, or FLAT")
    out: dict = {
        "files": {"old": args.old, "new": args.new},
        "ratio": new.mean / old.mean,
        "old": {"mean": old.mean},
        "new": {"mean": new.mean},
        "alpha": args.alpha,
        "threshold": args.threshold,
    }
    conf = f"{100 * (1 - args.alpha):g} %"
    rows = [f"ratio new/old   {out['ratio']:.6g}   (old mean {old.mean:.6g}, new mean {new.mean:.6g})"]
    chosen = None
    if args.method in ("fieller", "both"):
        f = fieller_ci(old, new, alpha=args.alpha, normal=args.normal)
        out["fieller"] = {
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
    if args.method in ("bootstrap", "both"):
        seed = args.seed if args.seed is not None else secrets.randbits(32)
        b = bootstrap_ratio_ci(
            old, new, scheme=scheme, n_resamples=args.resamples, alpha=args.alpha, rng=seed
        )
        out["bootstrap"] = {
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
    if chosen is None:
        out["verdict"] = "inconclusive"
        out["verdict_method"] = None
        out["description"] = "no bounded interval"
    else:
        name, ci = chosen
        out["verdict"] = verdict(ci.lower, ci.upper, args.threshold, bounded=ci.bounded)
        out["verdict_method"] = name
        out["description"] = describe(out["ratio"], ci.lower, ci.upper, args.alpha)
    rows.append(
        f"verdict         {out['verdict']} at threshold {100 * args.threshold:g} % "
        f"(from {out['verdict_method'] or 'no interval'}): {out['description']}"
    )
    return out, "\n".join(rows)


def cmd_plan(args) -> tuple[dict, str]:
    d = _load(args.data, args)
    try:
        d.require_replication(2)
    except EsizeError as exc:
        raise InputError(args.data, str(exc)) from None
    if len(args.costs) != d.n_levels - 1:
        raise InputError(
            args.data,
            f"{len(args.costs)} cost(s) given for {d.n_levels} levels {list(d.levels)}; "
            f"--costs needs {d.n_levels - 1} (from the lowest level up)",
        )
    bad = [c for c in args.costs if not (math.isfinite(c) and c > 0)]
    if bad:
        raise EsizeError(f"--costs must be positive and finite, got {args.costs}")
    costs = list(reversed(args.costs))  # library order: highest level first
    plan = plan_from_design(d, costs, dropped_cost=args.dropped_cost)
    out = plan.as_dict()
    rows = [
        f"file        {args.data}",
        f"levels      {' > '.join(plan.levels)}"
        + (f"   (dropped: {', '.join(plan.dropped)}, T^2 <= 0)" if plan.dropped else ""),
    ]
    for name, n in plan.counts.items():
        rows.append(f"{name:<12}{n:>8} per {plan.levels[plan.levels.index(name) - 1]}")
    if args.budget is not None:
        dim = dimension_for_plan(plan, args.budget, mean=d.mean, alpha=args.alpha)
        out["dimensioning"] = {
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
    return out, "\n".join(rows)


COMMANDS = {"summary": cmd_summary, "compare": cmd_compare, "plan": cmd_plan}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        out, table = COMMANDS[args.command](args)
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
