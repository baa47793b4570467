"""Each system on its own scale (``esize compare``): scaling one result file by any
factor scales every ratio and its limits by that factor, in every input format.

The two systems of a comparison meet only as relative quantities (the ratio of
their means, each computed in units of its own power of two, and relative
variances), so a file :math:`10^{\\pm 200}` times the other, or one stray value of
:math:`10^{\\pm 300}`, neither underflows a squared mean nor changes the interval
relative to the ratio. Only a ratio that is itself beyond the floats is refused (one
line, exit status 2).
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pandas as pd
import pytest

from .helpers import assert_one_line_error, cli

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "tests" / "data" / "harness"
EXAMPLES = ROOT / "examples"

#: Relative tolerance of "scales exactly": the data are scaled by a factor that is not
#: a power of two, so each value is rounded once (about 1e-16 relative).
REL = 1e-9

RESAMPLES = "2000"


# -- scaling the values of each format ----------------------------------------------------
def _gbench(doc, scale):
    for b in doc["benchmarks"]:
        if b.get("run_type") != "aggregate" and "aggregate_name" not in b:
            b["real_time"], b["cpu_time"] = scale(b["real_time"]), scale(b["cpu_time"])


def _jmh(doc, scale):
    for entry in doc:
        pm = entry["primaryMetric"]
        if pm.get("rawData") is not None:
            pm["rawData"] = [[scale(v) for v in fork] for fork in pm["rawData"]]
        if pm.get("rawDataHistogram") is not None:
            pm["rawDataHistogram"] = [[[[scale(v), c] for v, c in it] for it in fork]
                                      for fork in pm["rawDataHistogram"]]


def _hyperfine(doc, scale):
    for r in doc["results"]:
        r["times"] = [scale(v) for v in r["times"]]


def _pyperf(doc, scale):
    for bench in doc.get("benchmarks", [doc]):
        for run in bench["runs"]:
            for key in ("values", "samples"):  # what the reader reads (warm-ups are not)
                if run.get(key):
                    run[key] = [scale(v) for v in run[key]]


#: format -> (old file, new file, function scaling the values of a parsed document)
FORMATS = {
    "gbench": (HARNESS / "gbench-old.json", HARNESS / "gbench-new.json", _gbench),
    "jmh": (HARNESS / "jmh-old.json", HARNESS / "jmh-new.json", _jmh),
    "hyperfine": (HARNESS / "hyperfine-old.json", HARNESS / "hyperfine-new.json", _hyperfine),
    "pyperf": (EXAMPLES / "pyperf" / "mult_list_py36.json",
               EXAMPLES / "pyperf" / "mult_list_py37.json", _pyperf),
    "tidy": (EXAMPLES / "old.csv", EXAMPLES / "new.csv", None),
}


def _load(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def scaled_copy(fmt: str, side: str, scale, tmp_path: Path) -> Path:
    """A copy of the format's ``side`` file with every value replaced by ``scale(value)``."""
    old, new, how = FORMATS[fmt]
    src = old if side == "old" else new
    dst = tmp_path / f"{side}-scaled{src.suffix}"
    if how is None:  # tidy CSV: column time
        frame = pd.read_csv(src)
        frame["time"] = frame["time"].map(scale)
        frame.to_csv(dst, index=False)
    else:
        doc = _load(src)
        how(doc, scale)
        dst.write_text(json.dumps(doc))
    return dst


def compare_json(old, new, capsys, *extra) -> tuple[dict, str]:
    code, out, err = cli(["compare", old, new, "--json", "--seed", "1", "--resamples",
                          RESAMPLES, *extra], capsys)
    assert code == 0, err
    assert "Traceback" not in err
    return json.loads(out), err


# -- what must scale, and what must not -------------------------------------------------
def _close(got, want, factor):
    """``got == want * factor`` up to REL (both None for an infinite limit)."""
    if want is None or got is None:
        return got is None and want is None
    return math.isclose(got, want * factor, rel_tol=REL, abs_tol=0.0)


def _scale_free(caveats: list) -> list:
    """The caveats but the threshold band's reason (``esize.compare.band_reason``)."""
    return [c for c in caveats if not c.startswith("no verdict: new is ")]


def assert_scaled(base: dict, scaled: dict, factor: float) -> None:
    """Every ratio and limit of ``scaled`` is ``factor`` (or its inverse, for rates that
    enter the geometric mean as old/new) times that of ``base``; the verdict relative to
    the ratio (boundedness, caveats) is the same."""
    assert len(base["benchmarks"]) == len(scaled["benchmarks"])
    for b, s in zip(base["benchmarks"], scaled["benchmarks"]):
        assert s["name"] == b["name"]
        assert _close(s["ratio"], b["ratio"], factor), (b["name"], b["ratio"], s["ratio"])
        for method in ("fieller", "bootstrap"):
            if method in b:
                for key in ("lower", "upper"):
                    assert _close(s[method][key], b[method][key], factor), (
                        b["name"], method, key, b[method][key], s[method][key])
        assert s["fieller"]["bounded"] == b["fieller"]["bounded"]
        # a verdict's own reason follows the ratio, which the scaling moves; the rest stay
        assert _scale_free(s["caveats"]) == _scale_free(b["caveats"])
        assert ("p_value" in s["fieller"]) == ("p_value" in b["fieller"])
        assert s["design"] == b["design"]
    if "suite" not in base:
        assert "suite" not in scaled
        return
    bs, ss = base["suite"], scaled["suite"]
    inverted = set(bs["inverted"])
    assert set(ss["inverted"]) == inverted
    signs = [-1.0 if b["name"] in inverted else 1.0 for b in base["benchmarks"]]
    gm_factor = math.exp(math.log(factor) * sum(signs) / len(signs))
    assert _close(ss["geometric_mean"], bs["geometric_mean"], gm_factor)
    for key in ("lower", "upper"):
        assert _close(ss[key], bs[key], gm_factor), (key, bs[key], ss[key])
        assert _close(ss["parametric"][key], bs["parametric"][key], gm_factor)
        if bs["bootstrap"] is not None:
            assert _close(ss["bootstrap"][key], bs["bootstrap"][key], gm_factor)
    assert ss["parametric"]["bounded"] == bs["parametric"]["bounded"]
    assert ss["parametric"]["df"] == pytest.approx(bs["parametric"]["df"], rel=REL)
    assert ss["parametric"]["log_se"] == pytest.approx(bs["parametric"]["log_se"], rel=REL)
    assert ss["verdict_method"] == bs["verdict_method"]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("side", ["old", "new"])
@pytest.mark.parametrize("factor", [1e-200, 1e200])
def test_scaling_one_file_scales_every_ratio_and_limit(fmt, side, factor, tmp_path, capsys):
    old, new, _ = FORMATS[fmt]
    both = ("--method", "both")  # the bootstrap's limits scale too
    base, base_err = compare_json(old, new, capsys, *both)
    path = scaled_copy(fmt, side, lambda v: v * factor, tmp_path)
    if side == "old":
        scaled, err = compare_json(path, new, capsys, *both)
        ratio_factor = 1.0 / factor
    else:
        scaled, err = compare_json(old, path, capsys, *both)
        ratio_factor = factor
    assert err.replace(str(path), "FILE") == base_err.replace(str(old if side == "old" else new),
                                                            "FILE")
    assert_scaled(base, scaled, ratio_factor)
    for b, s in zip(base["benchmarks"], scaled["benchmarks"]):
        side_mean = s[side]["mean"]
        assert math.isclose(side_mean, b[side]["mean"] * factor, rel_tol=REL)


@pytest.mark.parametrize("k", [-300, -150, -7, 7, 150, 300])
def test_tidy_old_scaled_by_powers_of_ten_keeps_the_interval_relative_to_the_ratio(
        k, tmp_path, capsys):
    old, new, _ = FORMATS["tidy"]
    base, _ = compare_json(old, new, capsys)
    path = scaled_copy("tidy", "old", lambda v: v * 10.0**k, tmp_path)
    scaled, _ = compare_json(path, new, capsys)
    assert_scaled(base, scaled, 10.0**-k)
    assert scaled["verdict_method"] == "fieller"


def test_scaled_old_file_is_not_too_narrow_nor_unbounded(tmp_path, capsys):
    # the reported symptoms: old.csv times 1e200 gave a Fieller interval some 90x too
    # narrow relative to its ratio, without a caveat; divided by 1e200, "unbounded"
    old, new, _ = FORMATS["tidy"]
    base, _ = compare_json(old, new, capsys)
    rel = (base["fieller"]["upper"] - base["fieller"]["lower"]) / base["ratio"]
    for factor in (1e200, 1e-200):
        path = scaled_copy("tidy", "old", lambda v, f=factor: v * f, tmp_path)
        out, _ = compare_json(path, new, capsys)
        f = out["fieller"]
        assert f["bounded"] is True
        assert (f["upper"] - f["lower"]) / out["ratio"] == pytest.approx(rel, rel=REL)
        assert out["caveats"] == base["caveats"]


# -- stray values and the regressions of the report ---------------------------------------
def _set_one(fmt: str, doc, value: float) -> None:
    """Replace one measurement of the first benchmark by ``value``."""
    if fmt == "gbench":
        runs = [b for b in doc["benchmarks"] if b.get("run_type") != "aggregate"]
        runs[1]["real_time"] = value
    elif fmt == "jmh":
        doc[0]["primaryMetric"]["rawData"][1][2] = value
    elif fmt == "hyperfine":
        doc["results"][0]["times"][3] = value


def stray_copy(fmt: str, side: str, value: float, tmp_path: Path) -> Path:
    old, new, _ = FORMATS[fmt]
    src = old if side == "old" else new
    doc = _load(src)
    _set_one(fmt, doc, value)
    dst = tmp_path / f"{side}-stray{src.suffix}"
    dst.write_text(json.dumps(doc))
    return dst


@pytest.mark.parametrize("fmt", ["gbench", "jmh", "hyperfine"])
@pytest.mark.parametrize("side", ["old", "new"])
@pytest.mark.parametrize("value", [1e300, 1e-300])
@pytest.mark.parametrize("method", ["both", "fieller", "bootstrap"])
def test_one_stray_value_gives_a_result_not_a_traceback(fmt, side, value, method, tmp_path,
                                                         capsys):
    old, new, _ = FORMATS[fmt]
    path = stray_copy(fmt, side, value, tmp_path)
    argv = [path, new] if side == "old" else [old, path]
    code, out, err = cli(["compare", *argv, "--json", "--seed", "1", "--resamples", RESAMPLES,
                          "--method", method], capsys)
    assert "Traceback" not in err
    assert code == 0, err
    doc = json.loads(out)
    base, _ = compare_json(old, new, capsys, "--method", method)
    # the benchmarks without the stray value are untouched
    for b, s in zip(base["benchmarks"][1:], doc["benchmarks"][1:]):
        assert s == b
    hit = doc["benchmarks"][0]
    assert hit["ratio"] > 0 and math.isfinite(hit["ratio"])
    if "fieller" in hit and side == "old" and value == 1e300:
        # one huge value among a few: the old mean is not distinguishable from zero
        assert hit["fieller"]["bounded"] is False and hit["verdict"] == "inconclusive"
        assert len(hit["description"]) < 100


def test_one_tiny_value_is_no_range_error_even_with_fieller_only(tmp_path, capsys):
    # the reported case: one real_time of 1e-300 in gbench-old.json ended in "the ratio
    # of means (about e^0) is beyond the floating-point range", even with --method
    # fieller (the suite's bootstrap still runs): one replicate of five copies of the
    # tiny value has a ratio of about 4e304, which is a float
    # (with 10000 replicates, as reported: such a replicate then comes up, p = 1 / 5**5)
    old, new, _ = FORMATS["gbench"]
    path = stray_copy("gbench", "old", 1e-300, tmp_path)
    for method in ("fieller", "both"):
        out, err = compare_json(path, new, capsys, "--method", method, "--resamples", "10000")
        assert "beyond" not in err
        first = out["benchmarks"][0]
        assert first["fieller"]["bounded"] is True
        assert first["fieller"]["lower"] < first["ratio"] < first["fieller"]["upper"]
        assert out["suite"]["parametric"]["bounded"] is True


@pytest.mark.parametrize("fmt", ["gbench", "jmh", "hyperfine", "pyperf", "tidy"])
@pytest.mark.parametrize("method", ["both", "fieller"])
def test_ratio_truly_beyond_the_floats_is_one_line(fmt, method, tmp_path, capsys):
    # old 1e-300 and new 1e300 times their values: the ratio, about 10^600, is no float
    old = scaled_copy(fmt, "old", lambda v: v * 1e-300, tmp_path)
    new = scaled_copy(fmt, "new", lambda v: v * 1e300, tmp_path)
    code, out, err = cli(["compare", old, new, "--seed", "1", "--resamples", RESAMPLES,
                          "--method", method], capsys)
    line = assert_one_line_error(code, out, err, file=new,
                                 words=["beyond the floating-point range"])
    assert "10^6" in line  # about 10^600 (the data's own ratio shifts it a little)


def test_unbounded_verdict_text_is_compact(tmp_path, capsys):
    # an old system not distinguishable from zero, some 1e200 times smaller than the new:
    # the ratio in words is "6.5e+199"-like, not 200 digits in fixed point
    rows = ["binary,execution,time"]
    for b, level in enumerate((1.0, 100.0, 1.0), 1):
        rows += [f"{b},{e},{level * (1 + 0.01 * e) * 1e-200!r}" for e in (1, 2)]
    old = tmp_path / "old.csv"
    old.write_text("\n".join(rows) + "\n")
    _, new, _ = FORMATS["tidy"]
    code, out, err = cli(["compare", old, new, "--seed", "1", "--resamples", RESAMPLES],
                         capsys)
    assert code == 0, err
    verdict = next(line for line in out.splitlines() if line.startswith("verdict"))
    assert "unbounded" in verdict
    assert "e+" in verdict and ".0000" not in verdict
    assert len(verdict) < 150, verdict
    doc, _ = compare_json(old, new, capsys)
    assert doc["fieller"]["bounded"] is False
    assert len(doc["description"]) < 80, doc["description"]


def test_suite_table_keeps_long_numbers_apart(tmp_path, capsys):
    old, new, _ = FORMATS["gbench"]
    path = scaled_copy("gbench", "old", lambda v: v * 1e200, tmp_path)
    code, out, err = cli(["compare", path, new, "--seed", "1", "--resamples", RESAMPLES],
                         capsys)
    assert code == 0, err
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("benchmark"))
    for line in lines[head + 1: head + 4]:
        name, unit, ratio, lower, upper = line.split()[:5]
        values = [float(ratio), float(lower), float(upper)]
        assert all(1e-202 < v < 1e-199 for v in values), line
        assert values[1] < values[0] < values[2]
    gm = next(line for line in lines if line.startswith("geometric mean"))
    ratio, lower, upper = (float(v) for v in gm.split()[2:5])
    assert lower < ratio < upper


def test_unit_conversion_beyond_the_floats_is_one_line(tmp_path, capsys):
    # values near the largest float in seconds (hyperfine) cannot be converted to the
    # nanoseconds of the old file (Google Benchmark): a clear error, not "infinite values"
    gb = _load(FORMATS["gbench"][0])
    gb["benchmarks"] = [b for b in gb["benchmarks"] if b["name"] == "BM_Hash"]
    old = tmp_path / "gbench.json"
    old.write_text(json.dumps(gb))
    hf = _load(FORMATS["hyperfine"][1])
    hf["results"] = hf["results"][:1]  # two single-benchmark files pair by position
    _hyperfine(hf, lambda v: v * 1e300)
    new = tmp_path / "hyperfine.json"
    new.write_text(json.dumps(hf))
    code, out, err = cli(["compare", old, new, "--seed", "1", "--resamples", RESAMPLES],
                         capsys)
    assert_one_line_error(code, out, err, file=new, words=["beyond the floating-point range"])
