"""A dataset's own report: ``results/<dataset>/report.md`` and ``report.html``.

Each section has its builder, which takes the JSON the workflow wrote
(``analysis/estimates.json``, ``comparisons.json``, ``simulations.json``) and returns
Markdown: :func:`headline`, :func:`data_section`, :func:`variance_section`,
:func:`warmup_section`, :func:`plan_section`, :func:`comparisons_section`,
:func:`false_alarm_section`; :func:`render` puts them together and :func:`to_html`
makes the page self-contained (its figures embedded). Every count and number comes
from the dataset: the report holds nothing of the paper's.
"""

from __future__ import annotations

import base64
import html
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from esize.readers import plural

from .config import parse_warmup
from .figures import CAPTIONS, TITLES

__all__ = ["headline", "answers", "data_section", "variance_section", "warmup_section",
           "plan_section", "comparisons_section", "false_alarm_section", "figure_block",
           "render", "to_html", "VERDICT_ORDER"]

VERDICT_ORDER = ("slower", "faster", "same", "inconclusive")


# -- text helpers ---------------------------------------------------------------------------
def _name(x) -> str:
    """A benchmark name as a code span, safe in a table cell."""
    return "`" + str(x).replace("|", "\\|").replace("`", "'") + "`"


def _cell(x) -> str:
    return str(x).replace("|", "\\|").replace("\n", " ")


def _f(x, nd: int = 2, suffix: str = "") -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:.{nd}f}{suffix}"


def _g(x, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    return f"{x:.{digits}g}"


def _table(head: Sequence[str], rows: Sequence[Sequence]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in rows]
    return out + [""]


def _plural(n: int, word: str) -> str:
    return f"{n} {plural(word, n)}"


def _interval(d: Mapping | None) -> str:
    if not d:
        return "–"
    lo, hi = d.get("lower"), d.get("upper")
    if d.get("bounded") is False or lo is None or hi is None:
        return "unbounded"
    return f"[{lo:.4g}, {hi:.4g}]"


def figure_block(number: int, which: str, *, subject: str = "") -> list[str]:
    """A figure with its heading and caption (``figures/<which>.png``)."""
    title = TITLES[which] + (f": {subject}" if subject else "")
    return [f"### Figure {number}. {title}", "", f"![{which}](figures/{which}.png)", "",
            f"*Figure {number}.* {CAPTIONS[which]}", ""]


# -- sections ------------------------------------------------------------------------------
def headline(est: Mapping, cmp: Mapping | None) -> str:
    """What was computed from this dataset, counted: ``"3 comparisons: 1 slower, 2
    inconclusive; 12 benchmarks"``."""
    n_bench = sum(1 for b in est["benchmarks"] if "variance" in b)
    benches = _plural(n_bench, "benchmark")
    comps = (cmp or {}).get("comparisons") or []
    if not comps:
        return f"No comparison configured; {benches}."
    counts = {v: 0 for v in VERDICT_ORDER}
    for c in comps:
        counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
    said = ", ".join(f"{n} {v}" for v, n in counts.items() if n)
    return f"{_plural(len(comps), 'comparison')}: {said}; {benches}."


def answers(cmp: Mapping | None) -> list[str]:
    """One line per comparison for the top of the report: its name, verdict and what
    ``esize compare`` says of it (``"- **qs-new vs qs-old: slower.** New is 4.73 %
    slower (95 % CI ...)."``), then a blank line; nothing without comparisons."""
    comps = (cmp or {}).get("comparisons") or []
    out = []
    for c in comps:
        said = c.get("description") or f"ratio {c['ratio']:.4g}"
        out.append(f"- **{c['label']}: {c['verdict']}.** {said[:1].upper()}{said[1:]}.")
    return out + [""] if out else []


def data_section(est: Mapping, *, number: int = 2) -> str:
    """The files read, their formats and benchmarks, and what was left out."""
    lines = [f"## {number}. Data", ""]
    s = est["settings"]
    where = f"the directory `{s['path']}`" if s["kind"] == "directory" else "the files listed"
    tables = any(f["format"] == "tidy" for f in est["files"])
    lines += [f"The dataset's files are read from {where} as `esize` reads them "
              "(tidy tables one benchmark per file, named by the file; harness JSON files "
              "with the benchmarks they hold)."
              + (f" A table's levels are `{', '.join(s['levels'])}`, its values the column "
                 f"`{s['value']}`, in the order of "
                 f"`{s.get('order') or 'iteration'}` where the table has it." if tables else ""),
              ""]
    by_name = {b["name"]: b for b in est["benchmarks"]}
    rows = []
    for f in est["files"]:
        designs = sorted({" x ".join(map(str, by_name[n]["variance"]["counts"]))
                          for n in f["benchmarks"] if n in by_name and "variance" in by_name[n]})
        shown = ", ".join(_name(n) for n in f["benchmarks"][:6])
        more = f" and {len(f['benchmarks']) - 6} more" if len(f["benchmarks"]) > 6 else ""
        rows.append([f"`{f['file']}`", f["format"], shown + more, "; ".join(designs)])
    lines += _table(["file", "format", "benchmarks", "design (after the warm-up)"], rows)
    problems = [b for b in est["benchmarks"] if "problem" in b]
    for b in problems:
        lines.append(f"- {_name(b['name'])} is left out of the estimates: {b['problem']}")
    for note in est["notes"]:
        lines.append(f"- {note}")
    return "\n".join(lines).rstrip() + "\n"


def variance_section(est: Mapping, figure: int = 2, *, number: int = 3) -> str:
    """``S`` and ``T`` per level in % of the mean, each level's share, and one sentence
    per benchmark on which level dominates."""
    lines = [f"## {number}. Variance per level", "",
             "For every level, S is the spread of its units' means and T the model's estimate "
             "of the level's own variation (the spread of the level below removed), both in % "
             "of the mean, as `esize summary` prints them; *share* is the level's part of the "
             "variance of one measurement (the sum of the positive T^2). The level with the "
             "largest share is where repetition pays.", ""]
    rows = []
    for b in est["benchmarks"]:
        v = b.get("variance")
        if v is None:
            continue
        for k, lv in enumerate(v["levels"]):
            rows.append([_name(b["name"]) if k == 0 else "", lv, v["counts"][k],
                         _f(v["S_pct"][k], 3), _f(v["T_pct"][k], 3),
                         _f(100 * v["share"][k], 0, " %")
                         + (" (T^2 <= 0)" if lv in v["nonpositive"] else "")])
    lines += _table(["benchmark", "level", "n", "S %", "T %", "share"], rows)
    for b in est["benchmarks"]:
        if "variance" in b:
            lines.append(f"- {_name(b['name'])}: {b['variance']['sentence']}")
            for c in b["caveats"]:
                if not c.startswith("warm-up"):
                    lines.append(f"  Caveat: {c}")
    lines.append("")
    lines += figure_block(figure, "variance")
    return "\n".join(lines).rstrip() + "\n"


def warmup_section(est: Mapping, figure: int = 3, *, number: int = 4) -> str:
    """What the warm-up dropped from every benchmark, in esize's words."""
    spec = parse_warmup(est["settings"]["warmup"])
    how = {
        "auto": "`auto`: where each group's steady state starts, by changepoint detection "
                "(`esize --warmup auto`); every group keeps as many of its last values as the "
                "shortest steady part, so that the design stays balanced",
        "fixed": (f"`{spec.get('count')}`: the first {spec.get('count')} values of every group"
                  if spec.get("count") else
                  "`0`: none dropped (the default of `make analyse` and `esize compare`; "
                  "`warmup: auto` detects a warm-up, a count or a fraction drops it)"),
        "fraction": f"`{spec.get('fraction')}`: that share of every group's values, rounded "
                    "half up",
    }[spec["mode"]]
    lines = [f"## {number}. Warm-up", "", f"Warm-up: {how}.", ""]
    rows = []
    for b in est["benchmarks"]:
        w = b["warmup"]
        rows.append([_name(b["name"]), w["raw_per_group"], w["kept_per_group"], w["groups"],
                     w["dropped"], w["text"]])
    lines += _table(["benchmark", "values per group", "kept", "groups", "dropped in all",
                     "what was dropped"], rows)
    s = est.get("series")
    if s is not None:
        lines += figure_block(figure, "warmup", subject=f"`{s['name']}`")
    return "\n".join(lines).rstrip() + "\n"


def _counts_text(counts: Mapping) -> str:
    return " x ".join(f"{k} {v}" for k, v in counts.items())


def plan_section(est: Mapping, *, number: int = 5) -> str:
    """Optimal counts for the costs (given or assumed) and what each budget buys, with
    the one-level default beside it (esize's planning)."""
    lines = [f"## {number}. Planning the next experiment", "",
             "The optimal number of units per level for the costs of a new unit of each "
             "level (`esize plan`), and, for each budget, the design it buys and the "
             "half-width of the confidence interval for the mean to expect, beside the "
             "one-level default (one value per top-level unit). Costs and budgets count "
             "in measurements: a duration is divided by the duration of one measurement."]
    given = est.get("costs_given") or {}
    levels = list(dict.fromkeys(c["level"] for b in est["benchmarks"] if b.get("plan")
                                for c in b["plan"]["costs"]))
    hint = "{" + ", ".join(f"{lv}: 1 s" for lv in levels) + "}"
    lines += ["", "Costs given: " + (", ".join(f"{k} {v}" for k, v in given.items())
                                      if given else "none (the costs below are assumed: add "
                                      f"`costs: {hint}` to the entry, with your times)")
              + f". Budgets: {', '.join(est['budgets']) or 'none'}.", ""]
    rows, brows, assumed = [], [], {}
    for b in est["benchmarks"]:
        p = b.get("plan")
        if not p:
            continue
        cells = []
        for c in p["costs"]:
            star = ""
            if c["source"].startswith("assumed"):
                star = "*"
                assumed[c["source"]] = True
            cells.append(f"{c['level']} {_g(c['measurements'], 3)}{star}")
        costs = ", ".join(cells) or "one level: none"
        if p["problem"]:
            rows.append([_name(b["name"]), costs, f"no plan: {p['problem']}"])
            continue
        plan = p["plan"]
        counts = ", ".join(f"{n} {plural(lv, n)} per "
                           f"{plan['levels'][plan['levels'].index(lv) - 1]}"
                           for lv, n in plan["counts"].items()) or (
            f"only the number of {plan['levels'][0]} units matters")
        if plan["dropped"]:
            counts += f" (dropped, T^2 <= 0: {', '.join(plan['dropped'])})"
        rows.append([_name(b["name"]), costs, counts])
        for d in p["budgets"]:
            if "problem" in d:
                brows.append([_name(b["name"]), d["budget"], "–", d["problem"], "–", "–"])
                continue
            design = _counts_text(d["counts"]) + (f" (`{d['options']}`)" if d.get("options") else "")
            brows.append([_name(b["name"]), d["budget"], _g(d["measurements"], 4), design,
                          "±" + _f(d["half_width_pct"], 2, " %"),
                          f"{d['default_n']}: ±{_f(d['default_half_width_pct'], 2, ' %')}"])
    lines += _table(["benchmark", "cost of a new unit, in measurements", "optimal counts"], rows)
    if assumed:
        lines += ["\\* assumed, no cost given: a new unit of the level just above the "
                  "measurements (an execution, a process) costs the warm-up values it drops (at "
                  "least one measurement), a new unit of a higher level (a build) one "
                  "measurement. Give the costs for a plan that means something.", ""]
    if brows:
        lines += ["What each budget buys:", ""]
        lines += _table(["benchmark", "budget", "measurements", "design", "half-width",
                         "one-level default"], brows)
    return "\n".join(lines).rstrip() + "\n"


def _covers_text(c: Mapping) -> str:
    if c.get("known_ratio") is None:
        return "–"
    cov = c["covers_known"]
    said = [f"{m} {'yes' if cov[m] else 'no'}" for m in ("fieller", "bootstrap")
            if cov.get(m) is not None]
    return f"{c['known_ratio']:g}: " + ", ".join(said)


def comparisons_section(cmp: Mapping, sims: Mapping | None, figure: int = 1, *,
                        number: int = 1) -> str:
    """Each comparison's ratio, Fieller and bootstrap intervals and verdict with its
    caveats (the words of ``esize compare``), the forest plot, and for a known ratio
    whether the intervals cover it and, where the data allow, coverage and power by
    subsampling."""
    comps = cmp.get("comparisons") or []
    conf = f"{100 * (1 - cmp['alpha']):g} %"
    lines = [f"## {number}. Comparisons", ""]
    if not comps:
        lines += ["No comparison is configured. Add pairs to the entry, e.g. "
                  "`comparisons: [{old: A, new: B}]` (with `ratio: 1.05` when the change is "
                  "known).", ""]
        return "\n".join(lines)
    lines += [f"The ratio of means new/old with Fieller's {conf} interval and the hierarchical "
              f"bootstrap's ({cmp['resamples']} resamples, seed {cmp['seed']}), and the verdict "
              f"at the threshold of relevance {100 * cmp['threshold']:g} %, as `esize compare` "
              "gives them: the verdict comes from Fieller's interval and is `inconclusive` when "
              "the interval reaches into the band of the threshold or is unbounded.", ""]
    rows = [[_name(c["label"]), f"{c['ratio']:.4g}", _interval(c.get("fieller")),
             _interval(c.get("bootstrap")), f"**{c['verdict']}**", _covers_text(c)]
            for c in comps]
    lines += _table(["comparison (new vs old)", "ratio", f"Fieller {conf}", f"bootstrap {conf}",
                     "verdict", "known ratio covered"], rows)
    for c in comps:
        lines += [f"### {c['label']}", "", f"{c['description'][:1].upper()}{c['description'][1:]}."
                  if c.get("description") else "", ""]
        lines += ["```text", *c["text"], "```", ""]
        if c.get("known_ratio") is not None:
            cov = c["covers_known"]
            words = {True: "covers", False: "does not cover"}
            lines += [f"Known ratio {c['known_ratio']:g}: Fieller's interval "
                      f"{words[cov['fieller']]} it, the bootstrap's {words[cov['bootstrap']]} it "
                      f"(the estimate is {_f(c['known_ratio_error_pct'], 2)} % off).", ""]
    lines += figure_block(figure, "forest")
    kr = (sims or {}).get("known_ratio")
    if kr and (kr["rows"] or kr["left_out"]):
        st = kr["settings"]
        lines += ["### Known ratios: coverage and power by subsampling", "",
                  f"Each system is drawn again as {st['comparisons']} smaller experiments of "
                  "*k* binaries (without replacement): *coverage* is the share of their "
                  f"{conf} intervals that hold the known ratio, *power* the share of verdicts "
                  f"at {100 * st['threshold']:g} % that say what the known ratio calls for "
                  "(*expected*), *wrong* the share that say something false; ± one standard "
                  f"error ({st['resamples']} bootstrap resamples per interval).", ""]
        rows = [[_name(r["comparison"]), r["binaries"], r["method"],
                 f"{100 * r['coverage']:.1f} ± {100 * r['coverage_se']:.1f} %",
                 r["expected"], f"{100 * r['power']:.1f} ± {100 * r['power_se']:.1f} %",
                 f"{100 * r['wrong']:.1f} %", _f(r["median_halfwidth_pct"], 2, " %")]
                for r in kr["rows"]]
        if rows:
            lines += _table(["comparison", "k", "method", "coverage", "expected", "power",
                             "wrong", "median half-width"], rows)
        for r in kr["left_out"]:
            lines.append(f"- Not subsampled: {_name(r['comparison'])}: {r['reason']}.")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def false_alarm_section(sims: Mapping | None, *, number: int = 6) -> str:
    """False alarms (A/A) on the dataset's own pool of binaries, or why they are left out."""
    lines = [f"## {number}. False alarms on this dataset", ""]
    fa = (sims or {}).get("false_alarm")
    if not fa:
        return "\n".join(lines + ["Not computed.", ""])
    st = fa["settings"]
    if not fa["rows"]:
        left = "; ".join(f"{_name(r['benchmark'])}: {r['reason']}" for r in fa["left_out"][:12])
        more = f"; and {len(fa['left_out']) - 12} more" if len(fa["left_out"]) > 12 else ""
        return "\n".join(lines + [
            "Not computed: false alarms are simulated by drawing binaries from a benchmark's "
            f"own pool, which needs three levels and at least {st['min_binaries']} binaries "
            f"(analysis.false_alarm.min_binaries). Here: {left}{more}.", ""])
    lines += [f"Two systems of *k* binaries are drawn with replacement from a benchmark's own "
              f"binaries, {st['comparisons']} times ({st['resamples']} bootstrap resamples per "
              "interval): both are the same program, so an interval that excludes 1 is a false "
              f"alarm. *At 0* is that share (about {100 * st['alpha']:g} % for a well-calibrated "
              f"interval), *at {100 * st['threshold']:g} %* the share of verdicts `slower` or "
              "`faster` at the comparisons' threshold; *5 % needs* is the smallest threshold "
              "that keeps false alarms at 5 % or below.", ""]
    order = ("Fieller (t)", "Fieller (normal)", "bootstrap RRR")
    methods = sorted(dict.fromkeys(r["method"] for r in fa["rows"]),
                     key=lambda m: order.index(m) if m in order else len(order))
    cells: dict = {}
    for r in fa["rows"]:
        key = (r["benchmark"], " x ".join(map(str, r["pool"])), r["binaries"])
        cells.setdefault(key, {})[r["method"]] = (
            f"{100 * r['rate_0']:.1f} % / {100 * r['rate_threshold']:.1f} %")
    rows = [[_name(b) if k == min(x[2] for x in cells if x[0] == b) else "", pool, k,
             *(cells[(b, pool, k)].get(m, "–") for m in methods)]
            for (b, pool, k) in cells]
    if rows:
        lines += [f"Each cell: false alarms at 0 / at {100 * st['threshold']:g} %.", ""]
        lines += _table(["benchmark", "pool", "k", *methods], rows)
        worst = []
        for m in methods:
            mine = [r for r in fa["rows"] if r["method"] == m]
            top = max(mine, key=lambda r: r["threshold_5pct"])
            worst.append(f"{m} {100 * top['threshold_5pct']:.2f} % ({_name(top['benchmark'])}, "
                         f"k = {top['binaries']})")
        lines += ["*5 % needs*, the largest over the benchmarks and sizes: " + "; ".join(worst)
                  + ". A threshold of relevance at least this large keeps this dataset's false "
                  "alarms at 5 % or below.", ""]
    if fa["left_out"]:
        left = "; ".join(f"{_name(r['benchmark'])} ({r['reason']})" for r in fa["left_out"][:12])
        more = f"; and {len(fa['left_out']) - 12} more" if len(fa["left_out"]) > 12 else ""
        lines += [f"Left out: {left}{more}.", ""]
    return "\n".join(lines).rstrip() + "\n"


def _settings_section(est: Mapping, cmp: Mapping | None) -> str:
    s = est["settings"]
    keys = ", ".join(f"{k}: `{v}`" for k, v in s.items() if v not in (None, [], ""))
    return "\n".join(["## Settings", "", f"Entry (with its defaults): {keys}.", ""])


def render(est: Mapping, cmp: Mapping | None, sims: Mapping | None, *, version: str = "") -> str:
    """The whole report in Markdown."""
    name = est["dataset"]
    parts = [
        f"# Analysis of the dataset {name}", "",
        f"**{headline(est, cmp)}**", "", *answers(cmp),
        "Made by `make analyse`" + (f" with esize {version}" if version else "")
        + " from this dataset's files alone: every number below is computed from them. "
        "Figures are in `figures/` beside this file.", "", "",
    ]
    # the answer first (issue 41): the comparisons, then what they rest on
    body = [comparisons_section(cmp or {"comparisons": [], "alpha": 0.05}, sims, 1),
            data_section(est), variance_section(est, 2), warmup_section(est, 3),
            plan_section(est), false_alarm_section(sims), _settings_section(est, cmp)]
    return "\n".join(parts) + "\n".join(body)


# -- HTML ----------------------------------------------------------------------------------
# Everything fits the width of the page (a 1280 px screen and less): long lines of
# esize's text output and long names in tables wrap instead of scrolling sideways
# (tests/study/test_report_browser.py checks it in a real browser).
_STYLE = (
    "body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;line-height:1.4;"
    "overflow-wrap:anywhere}"
    "table{border-collapse:collapse;margin:1em 0;font-size:0.9em;max-width:100%}"
    "td,th{border:1px solid #999;padding:0.2em 0.5em;text-align:left}"
    "th{background:#eee}code{background:#f4f4f4}pre{background:#f4f4f4;padding:0.5em;"
    "white-space:pre-wrap;overflow-wrap:anywhere}img{max-width:100%;height:auto}"
)
_IMG = re.compile(r'src="([^"]+\.png)"')


def to_html(markdown: str, base: str | Path, title: str) -> str:
    """The report as one HTML page: CommonMark with tables, every PNG figure embedded
    (a data URI; nothing is fetched from elsewhere)."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)

    def embed(m: re.Match) -> str:
        p = Path(base) / html.unescape(m.group(1))
        data = base64.b64encode(p.read_bytes()).decode("ascii")
        return f'src="data:image/png;base64,{data}"'

    body = _IMG.sub(embed, body)
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>\n"
            + body + "</body></html>\n")
