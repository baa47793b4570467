"""Tables in Markdown and LaTeX: Tables tVariations and tPrecisions, and the coverage of
the bootstrap's resampling schemes.

:func:`render_variations` and :func:`render_precisions` lay the rows out as the
paper's tables; :func:`variations_markdown` and :func:`precisions_markdown` write
``variations.md`` and ``precisions.md``, each number beside the paper's;
:func:`schemes_table` the coverage of every resampling scheme (``coverage.csv``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from esize import EsizeError

from ..estimate.coverage import CoverageTable, grid_share
from ..estimate.precision import CONVENTION_TEXT, PRECISION_MARKS, precision_mark
from ..estimate.variation import variation_tolerance
from ..paper import numbers as paper
from . import registry

__all__ = [
    "render_variations",
    "render_precisions",
    "variations_markdown",
    "precisions_markdown",
    "schemes_table",
]


def _ref(name: str) -> str:
    """A figure's file as the text names it: ```figures/<name>```."""
    return f"`figures/{name}`"


def _fmt(x: float, nd: int = 1) -> str:
    return "inf" if not math.isfinite(x) else f"{x:.{nd}f}"


def render_variations(rows: Sequence[Mapping], fmt: str = "md") -> str:
    """Table tVariations layout: one row per benchmark, S (T) per level."""
    by = {}
    for r in rows:
        by.setdefault(r["benchmark"], {})[r["level"]] = r
    head = ["benchmark", "compilation [%]", "execution [%]", "measurement [%]"]
    body = []
    for b, levels in by.items():
        cells = [b]
        for lev in paper.LEVELS:
            r = levels[lev]
            cell = _fmt(r["S_pct"])
            if not r["T2_positive"]:
                cell += " (0)"
            elif abs(r["T_pct"] - r["S_pct"]) > 0.1:
                cell += f" ({_fmt(r['T_pct'])})"
            cells.append(cell)
        body.append(cells)
    caption = (
        "Relative variation per level, S in % of the grand mean; T in brackets where it "
        "differs from S by more than 0.1, (0) where T^2 <= 0."
    )
    return _table(head, body, fmt, caption)


def _convention(rows: Sequence[Mapping]) -> str:
    """The convention of the rows' ``ours_pct`` column (they share one)."""
    found = {r.get("convention", "paper") for r in rows}
    if len(found) != 1:
        raise EsizeError(f"precision rows mix conventions {sorted(found)}")
    return found.pop()


def render_precisions(rows: Sequence[Mapping], fmt: str = "md", source: str | None = None) -> str:
    """Table tPrecisions layout: the paper's rule / our optimum / default per time window.

    The first number of a cell follows the rows' ``convention`` (the paper's
    procedure in ``precisions.csv``), the second is our optimum (``optimum_pct``),
    the third the one-level default. The caption says which is which.
    """
    sel = [r for r in rows if source is None or r["source"] == source]
    hours = sorted({float(r["hours"]) for r in sel})
    conv = _convention(sel) if sel else "paper"
    by = {}
    for r in sel:
        by.setdefault((r["source"], r["benchmark"]), {})[float(r["hours"])] = r
    head = ["source", "benchmark"] + [
        f"{h:g} h [{conv} / optimum / default %]" for h in hours
    ]
    body = []
    for (src, b), cells in by.items():
        body.append(
            [src, b]
            + [
                " / ".join(
                    _fmt(float(cells[h][k])) for k in ("ours_pct", "optimum_pct", "default_pct")
                )
                for h in hours
            ]
        )
    caption = (
        "95 % CI half-width relative to the mean for each time window. First number "
        f"({conv}): {CONVENTION_TEXT[conv]}. Second (optimum): {CONVENTION_TEXT['optimum']}. "
        "Third: the one-level default (one build, one execution, one measurement per sample)."
    )
    return _table(head, body, fmt, caption)


def _table(head, body, fmt, caption) -> str:
    """One table as Markdown (pandas ``to_markdown``) or LaTeX (``to_latex``)."""
    import pandas as pd

    frame = pd.DataFrame([[str(c) for c in row] for row in body], columns=list(head))
    if fmt == "md":
        return frame.to_markdown(index=False, disable_numparse=True) + f"\n\n{caption}\n"
    if fmt == "tex":
        esc = str.maketrans({"%": r"\%", "_": r"\_", "&": r"\&", "#": r"\#", "^": r"\^{}"})
        return frame.to_latex(index=False, caption=caption.translate(esc), escape=True,
                              position="htbp", column_format="l" + "r" * (len(head) - 1))
    raise ValueError(f"unknown format {fmt!r}")


def variations_markdown(rows: Sequence[Mapping]) -> str:
    """The paper-like table, then each number beside the paper's where it has one."""
    out = ["# Relative variation per level (Table tVariations)", "", render_variations(rows, "md")]
    cmp = []
    for r in rows:
        b = r["benchmark"]
        if b not in paper.VARIATION_S:
            continue
        k = paper.LEVELS.index(r["level"])
        ps = paper.VARIATION_S[b][k]
        tol = variation_tolerance(ps)
        line = [b, r["level"], f"{r['S_pct']:.2f}", f"{ps:.1f}", f"{r['S_pct'] - ps:+.2f}",
                "yes" if abs(r["S_pct"] - ps) <= tol else "NO"]
        note = ""
        if r["level"] == "execution":
            pt = paper.VARIATION_T_EXECUTION[b]
            if pt == 0.0:
                note = "T^2 <= 0 " + ("(as paper)" if not r["T2_positive"] else "(paper: T^2 <= 0; NOT reproduced)")
            elif pt is not None:
                ok = abs(r["T_pct"] - pt) <= variation_tolerance(pt)
                note = f"T {r['T_pct']:.2f} vs {pt:.1f} " + ("(within tolerance)" if ok else "(OUTSIDE tolerance)")
        cmp.append(line + [note])
    if cmp:
        import pandas as pd

        head = ["benchmark", "level", "S % (ours)", "S % (paper)", "difference", "within",
                "T (execution)"]
        out += [
            "## Beside the paper",
            "",
            "Tolerance: 10 % of the paper's value or 0.15 percentage points, whichever is larger.",
            "",
            pd.DataFrame(cmp, columns=head).to_markdown(index=False, disable_numparse=True),
            "",
        ]
    return "\n".join(out) + "\n"


def _design(r: Mapping, prefix: str = "") -> str:
    return f"{r[prefix + 'binaries']} x {r[prefix + 'n2']} x {r[prefix + 'n1']}"


def precisions_markdown(rows: Sequence[Mapping], folded: Sequence[Mapping] | None = None) -> str:
    """Paper-like precision table with the paper's printed numbers beside ours, then
    our optimum beside the paper's rule."""
    import pandas as pd

    out = ["# Result precision: optimised design against the one-level default (Table tPrecisions)", ""]
    sel = [r for r in rows if r["source"] == "paper"]
    hours = sorted({r["hours"] for r in sel})
    if sel:
        conv = _convention(sel)
        out += [
            "## From the paper's Table tVariations and costs",
            "",
            f"Cells: ours / default half-width in %, where ours follows the convention "
            f"`{conv}` ({CONVENTION_TEXT[conv]}); the paper's printed value in brackets. "
            "One rule marks every number against the paper's (which rounds to 0.1): "
            + "; ".join(f"`{m}` {t}" if m else f"no mark: {t}" for m, t in PRECISION_MARKS.items())
            + ". A cell shows the worse mark of its two numbers.",
            "",
        ]
        by = {}
        for r in sel:
            by.setdefault(r["benchmark"], {})[r["hours"]] = r
        marks_seen = {m: 0 for m in PRECISION_MARKS}
        table = []
        for b, cells in by.items():
            line = [b]
            for h in hours:
                r = cells[h]
                txt = f"{_fmt(r['ours_pct'])} / {_fmt(r['default_pct'])}"
                if b in paper.PRECISIONS and h in paper.PRECISION_HOURS:
                    po, pd_ = paper.PRECISIONS[b][paper.PRECISION_HOURS.index(h)]
                    found = [precision_mark(ours, theirs)
                             for ours, theirs in ((r["ours_pct"], po), (r["default_pct"], pd_))]
                    for m in found:
                        marks_seen[m] += 1
                    txt += f" ({po:.1f} / {pd_:.1f}){max(found, key=list(PRECISION_MARKS).index)}"
                line.append(txt)
            r6 = cells.get(6, cells[hours[len(hours) // 2]])
            line.append(_design(r6))
            table.append(line)
        head = ["benchmark"] + [f"{h:g} h" for h in hours] + ["design at 6 h"]
        out.append(pd.DataFrame(table, columns=head).to_markdown(index=False,
                                                                 disable_numparse=True))
        n_all = sum(marks_seen.values())
        if n_all:
            out += ["", f"Of {n_all} numbers, {marks_seen['']} round to the paper's, "
                    f"{marks_seen['~']} more are within +-0.1 and {marks_seen['*']} differ by "
                    "more than 0.1.", ""]
        out += _merged_markdown(by, hours)
        out += [
            "## Our optimum beside the paper's rule",
            "",
            f"Cells: half-width in % and design (binaries x executions x measurements), "
            f"`{conv}` -> optimum. The optimum is {CONVENTION_TEXT['optimum']}. It is never "
            "wider; the paper's column above is kept so that the comparison with the paper "
            "stays meaningful.",
            "",
        ]
        table = []
        for b, cells in by.items():
            table.append([b] + [
                f"{_fmt(cells[h]['ours_pct'], 2)} ({_design(cells[h])}) -> "
                f"{_fmt(cells[h]['optimum_pct'], 2)} ({_design(cells[h], 'opt_')})"
                for h in hours
            ])
        out += [
            pd.DataFrame(table, columns=["benchmark"] + [f"{h:g} h" for h in hours]).to_markdown(
                index=False, disable_numparse=True),
            "",
        ]
    data = [r for r in rows if r["source"] == "data"]
    if data:
        out += ["## From this dataset's estimates", "", render_precisions(data, "md")]
    if folded:
        fd = [r for r in folded if r["source"] == "paper"]
        out += [
            "## With the true cost of a binary after dropping executions",
            "",
            "The paper (and the first table above) optimises the measurements per binary "
            "against the warm-up cost alone once executions are dropped. Charging the "
            "build as well, with the paper's procedure otherwise unchanged, gives the first "
            "number of each cell (precisions_folded.csv); the optimum is the same as above:",
            "",
            render_precisions(fd, "md"),
        ]
    return "\n".join(out) + "\n"


def _merged_markdown(by: Mapping[str, Mapping], hours: Sequence[float]) -> list[str]:
    """Lines of Markdown: HTTP and TCP planned in both conventions beside the paper's.

    The paper plans them from the two-level variances of its text after merging
    executions (:func:`esize_study.estimate.precision.merged_cells`); the table above
    (``by``: benchmark -> hours -> row of the paper's inputs) uses the three-level Table
    tVariations.
    """
    import pandas as pd

    from ..estimate.precision import merged_cells

    table = []
    for b, cells in by.items():
        merged = {c["hours"]: c for c in merged_cells(b, hours)}
        if not merged or b not in paper.PRECISIONS:
            continue
        line = [b]
        for h in hours:
            po = paper.PRECISIONS[b][paper.PRECISION_HOURS.index(int(h))][0]
            m, t = merged[float(h)]["ours_pct"], float(cells[h]["ours_pct"])
            line.append(f"{_fmt(m, 2)}{precision_mark(m, po)} / {_fmt(t, 2)}"
                        f"{precision_mark(t, po)} ({po:.1f})")
        table.append(line)
    if not table:
        return []
    return [
        "## HTTP and TCP in both conventions",
        "",
        "Our method's cells: **merged** (the paper's convention: one execution per binary, "
        "the binary-level variation its text gives after merging executions, 0.2 % for HTTP "
        "and 0.5 % for TCP, the measurement level pooled from Table tVariations) / "
        "three-level (the table above: the binary level of the three-level Table "
        "tVariations); the paper's printed value in brackets, marks as above. The report "
        "counts the merged cells.",
        "",
        pd.DataFrame(table, columns=["benchmark"] + [f"{h:g} h" for h in hours]).to_markdown(
            index=False, disable_numparse=True),
        "",
    ]


def _pct(x: float, digits: int = 1) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f} %"


def schemes_table(table) -> list[str]:
    """Lines of Markdown: the coverage of each resampling scheme of the bootstrap in the
    fCOV setting (``coverage.csv``), and the RRR bootstrap over the fCOVGrid grid."""
    import pandas as pd

    d = CoverageTable(table)
    sel = d.t[(d.t["experiment"] == "fCOV") & (d.t["method"] == "bootstrap")]
    if sel.empty:
        return []
    ks = sorted(set(sel["binaries"]))
    show = [k for k in (3, 10, max(ks)) if k in ks] or ks[:3]
    schemes = [s for s in ("RRR", "RRN", "RNN", "FLAT") if s in set(sel["scheme"])]
    n2, n1 = int(sel["executions"].iloc[0]), int(sel["measurements"].iloc[0])
    rows = []
    for b in d.names:
        row = {"benchmark": b}
        for s in schemes:
            for k in show:
                v = d.at("fCOV", "bootstrap", s, "binaries", k).get(b)
                row[f"{s}, {k} b"] = _pct(v[0]) if v else "n/a"
        rows.append(row)
    lines = [
        f"### Beyond the paper: resampling schemes ({_ref(registry.COV_SCHEMES)})",
        "",
        f"Coverage of the percentile bootstrap in the fCOV setting ({n2} executions x {n1} "
        "measurements per binary) for each resampling scheme.",
        "",
        pd.DataFrame(rows).to_markdown(index=False, disable_numparse=True),
    ]
    grid = d.t[(d.t["experiment"] == "fCOVGrid") & (d.t["method"] == "bootstrap")]
    if not grid.empty:
        lines += ["", "RRR bootstrap over the binaries x executions grid "
                  f"({_ref(registry.COV_GRID_BOOT)}, "
                  "the grid the paper skipped as too costly):", ""]
        for b, g in grid.groupby("benchmark", sort=False):
            lo, hi = g.loc[g["coverage"].idxmin()], g.loc[g["coverage"].idxmax()]
            r2, _ = grid_share(g, "binaries")
            lines.append(f"- {b}: {_pct(lo.coverage)} ({int(lo.binaries)} b, {int(lo.executions)} e) "
                         f"to {_pct(hi.coverage)} ({int(hi.binaries)} b, {int(hi.executions)} e); "
                         f"binaries explain {100 * r2:.0f} % of the variation over the grid.")
    return lines
