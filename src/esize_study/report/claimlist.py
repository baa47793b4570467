"""ARTIFACT.md's one-screen list of the paper's claims: supported, partly, not supported.

Made from the claim rows the report judges, the same records as each dataset's
``report.md``: its ``claims.json`` (``workflow/scripts/report.py`` writes every row
there). Two steps, so that ARTIFACT.md's block is checked against a committed file
rather than against results, which are not committed:

``snapshot``
    the rows of every dataset with a report in a results directory, with the run's
    provenance (version, commit, code hash, configuration), as JSON
    (``docs/artifact-claims.json``);
``render``
    the block: one line per paper item (table or figure) and dataset, the item
    *supported* when every compared reproduction row agrees, *not supported* when
    none does, *partly* otherwise; written between :data:`BEGIN` and :data:`END`
    (``--write ARTIFACT.md``) or compared with them (``--check ARTIFACT.md``).

    python -m esize_study.report.claimlist snapshot results -o docs/artifact-claims.json
    python -m esize_study.report.claimlist render docs/artifact-claims.json --write ARTIFACT.md

``make artifact-claims`` runs both (``CLAIMS_RESULTS=results-test`` for the tiny run).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from esize import InputError

from ..claims import claim as cl
from ..datasets import files

__all__ = ["BEGIN", "END", "FORMAT", "records", "snapshot", "render", "replace_block",
           "main"]

BEGIN = "<!-- claims-list: begin (make artifact-claims; do not edit by hand) -->"
END = "<!-- claims-list: end -->"
#: the snapshot's format version
FORMAT = 1
#: what the artifact does not address at all (ARTIFACT.md, "Not reproduced")
NOT_ADDRESSED = (
    "Table tPapers (the survey of 122 papers): classified by hand, not computational",
    "the paper's own Mono measurements: unpublished; the stand-in and data/mono-x86_64/ "
    "stand for them",
)
_ITEMS = {"tvariations": "Table tVariations", "examples": "Worked examples (tables tWE*, tWQE*)",
          "tprecisions": "Table tPrecisions"}
_MARKS = {cl.PARTLY: "~", cl.DISAGREE: "x", cl.UNDECIDED: "?"}
_ROW_KEYS = ("id", "figure", "verdict", "role", "evidence")


def _item(row: dict) -> str:
    """The paper item (table or figure) a row (a snapshot's dict) belongs to."""
    head, fig = row["id"].split(".", 1)[0], row["figure"]
    if head in _ITEMS:
        return _ITEMS[head]
    if fig == "all":  # statements on every figure, e.g. where Fieller's condition fails
        return "Statements across the evaluation (Fieller's unbounded sets)"
    kind = {"f": "Figure", "t": "Table", "s": "Section"}.get(fig[:1])
    return f"{kind} {fig}" if kind and fig[1:2].isupper() else fig


def records(results: Path, dataset: str) -> list[cl.Claim]:
    """The claim rows of ``dataset``'s report, in the report's order: its ``claims.json``
    (every row of the report, written beside it by ``workflow/scripts/report.py``)."""
    return cl.read_claims(results / dataset / "claims.json")


def snapshot(results: str | Path, datasets: Sequence[str] = ()) -> dict:
    """The claim rows of ``datasets`` (default: every dataset of ``results`` that has a
    report's inputs)."""
    results = Path(results)
    names = sorted(p.name for p in results.iterdir() if (p / "provenance.json").is_file()
                   and (p / "claims.json").is_file()) if results.is_dir() else []
    missing = [d for d in datasets if d not in names]
    if missing:
        raise InputError(results, f"no claim rows of {', '.join(missing)} (claims.json and "
                         "provenance.json): run the pipeline first (results of an older "
                         "version: run it again)")
    names = list(datasets) or names
    if not names:
        raise InputError(results, "no dataset with claim rows (claims.json): run the "
                         "pipeline first (make reproduce)")
    out = {"format": FORMAT, "results_dir": results.name, "datasets": {}}
    for name in names:
        prov = files.read_json(results / name / "provenance.json")
        src = prov.get("source") or {}
        out["datasets"][name] = {
            "standin": name in (prov.get("seeds") or {}).get("datasets", {}),
            "version": (prov.get("project") or {}).get("version"),
            "commit": src.get("commit"), "dirty": src.get("dirty"),
            "code_hash": prov.get("code_hash"),
            "config_hash": str(prov.get("config_hash"))[:16],
            "created": prov.get("created"),
            "rows": [{k: getattr(c, k) for k in _ROW_KEYS} for c in records(results, name)],
        }
    return out


def _cell(rows: Sequence[dict]) -> str:
    rep = [r for r in rows if r["role"] == cl.REPRODUCTION]
    n = {v: sum(r["verdict"] == v for r in rep) for v in cl.VERDICTS}
    compared = len(rep) - n[cl.UNDECIDED]
    if not compared:
        cal = [r for r in rows if r["role"] == cl.CALIBRATION]
        if cal:
            held = sum(r["verdict"] == cl.AGREE for r in cal)
            return f"calibration ({held} of {len(cal)} hold)"
        return f"undecided ({n[cl.UNDECIDED]})" if n[cl.UNDECIDED] else "-"
    if n[cl.AGREE] == compared:
        word = "**supported**"
    elif n[cl.AGREE] == 0 and n[cl.PARTLY] == 0:
        word = "**not supported**"
    else:
        word = "**partly**"
    more = "".join(f", {n[v]}{mark}" for v, mark in _MARKS.items() if n[v])
    return f"{word} ({n[cl.AGREE]}/{compared}{more})"


def render(snap: dict) -> str:
    """The block between the markers (markers included), from a :func:`snapshot`."""
    if snap.get("format") != FORMAT:
        raise InputError("claims snapshot", f"format {snap.get('format')!r}, expected {FORMAT}")
    datasets = snap["datasets"]
    # the paper's tables first, then its figures as the report meets them
    items: dict[str, dict[str, list]] = {item: {} for item in _ITEMS.values()}
    for name, ds in datasets.items():
        for row in ds["rows"]:
            if row["role"] != cl.CONTEXT:  # another convention, or not the paper's claim
                items.setdefault(_item(row), {}).setdefault(name, []).append(row)
    first = next(iter(datasets.values()))
    runs = sorted({(d["version"], f"commit {d['commit'][:12]}" if d["commit"] else
                    "no git commit", d["code_hash"], bool(d["dirty"]))
                   for d in datasets.values()})
    made = "; ".join(f"version {v}, {c}{' (uncommitted changes)' if dirty else ''}, code {h}"
                     for v, c, h, dirty in runs)
    lines = [BEGIN, "",
             f"Generated from the claim rows of `{snap['results_dir']}/` ({made}; "
             f"{str(first['created'])[:10]}) by `make artifact-claims`. An item is "
             "**supported** when every compared row of the paper's claims agrees, "
             "**not supported** when none does, **partly** otherwise; undecided rows "
             "(Monte Carlo error too large to decide) are not compared; calibration rows "
             "agree by construction. A cell gives the rows that agree of those compared, "
             "then the rows that agree partly (~), disagree (x) or are undecided (?); each "
             "row is in `<results>/<dataset>/report.md`."
             + ("" if snap["results_dir"] == "results" else
                " **This is the tiny configuration's run**: it shows that every step runs, "
                "not the paper-scale verdicts (`make reproduce`, then `make artifact-claims`)."),
             ""]
    heads = [f"{n} ({'stand-in' if d['standin'] else 'measured'})" for n, d in datasets.items()]
    lines.append("| paper item | " + " | ".join(heads) + " |")
    lines.append("| --- |" + " --- |" * len(heads))
    for item, by in items.items():
        if not by:
            continue
        lines.append(f"| {item} | " + " | ".join(_cell(by.get(n, [])) for n in datasets) + " |")
    lines += ["", "Not supported by the artifact at all: " + "; ".join(NOT_ADDRESSED) + ".",
              "", END]
    return "\n".join(lines) + "\n"


def replace_block(text: str, block: str, where: str = "ARTIFACT.md") -> str:
    """``text`` with the part from :data:`BEGIN` to :data:`END` replaced by ``block``."""
    lo, hi = text.find(BEGIN), text.find(END)
    if lo < 0 or hi < lo:
        raise InputError(where, f"no claims block (the lines {BEGIN!r} ... {END!r})")
    return text[:lo] + block + text[hi + len(END) + 1:]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m esize_study.report.claimlist",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("snapshot", help="the claim rows of a results directory as JSON")
    s.add_argument("results", help="results directory (results, results-test)")
    s.add_argument("-o", "--output", required=True, help="the JSON file to write")
    s.add_argument("--dataset", action="append", default=[],
                   help="a dataset to list (repeat; default: every one with claim rows)")
    r = sub.add_parser("render", help="ARTIFACT.md's claims block from a snapshot")
    r.add_argument("snapshot", help="the JSON file of `snapshot`")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--write", metavar="MD", help="replace the block between the markers")
    g.add_argument("--check", metavar="MD", help="exit 1 when the block differs")
    args = parser.parse_args(argv)
    try:
        if args.command == "snapshot":
            snap = snapshot(args.results, args.dataset)
            files.atomic_write_text(args.output, json.dumps(snap, indent=1) + "\n")
            n = sum(len(d["rows"]) for d in snap["datasets"].values())
            print(f"wrote {args.output}: {n} rows of {', '.join(snap['datasets'])}")
            return 0
        block = render(files.read_json(args.snapshot))
        target = args.write or args.check
        if target is None:
            sys.stdout.write(block)
            return 0
        text = Path(target).read_text(encoding="utf-8")
        new = replace_block(text, block, target)
        if args.check:
            if new != text:
                print(f"{target}: the claims block differs from {args.snapshot}: run "
                      "make artifact-claims", file=sys.stderr)
                return 1
            return 0
        if new != text:
            files.atomic_write_text(target, new)
            print(f"wrote the claims block of {target}")
        return 0
    except InputError as exc:
        print(f"esize: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
