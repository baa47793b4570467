"""``esize plan --budget`` prescribes one design, and its text and JSON agree.

The text used to print the plan ("binary dropped, 6 measurements per execution") and
then a budget design that contradicted it ("binary 8 x execution 11 x measurement
5"), and the JSON lost the build cost of the dropped binary level. Now the budget's
design is the one prescribed, in both outputs; a dropped level's row says why it is
there, and the plan's own counts are on a line named as the budget-free optimum.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import esize as ez
from esize.cli import main
from esize.cli.plan import PlanRow
from esize.readers.units import UnitInfo
from strategies import FOUR_LEVEL_T2, THREE_COSTS

from .helpers import cli, cli_json, write_csv

ALPHA = Path(__file__).resolve().parents[1] / "data" / "tiny-dataset" / "alpha.csv"
ROW = re.compile(r"^(\S+)\s+(\d+)(?:\s+per (\S+))?")


def binary_dropped_pilot(path: Path) -> Path:
    """A pilot of 4 binaries x 4 executions x 6 measurements in which binaries do not
    vary (their T^2 <= 0) and executions do: the plan drops the binary level."""
    rng = np.random.default_rng(1)
    e = rng.normal(0, 2.0, size=(4, 4, 1))
    m = rng.normal(0, 1.0, size=(4, 4, 6))
    return write_csv(path, np.round(100 + e + m, 2))


def text_counts(lines: list[str]) -> dict[str, int]:
    """The counts a benchmark's text block prescribes: with a budget the rows between
    the ``budget`` heading and the ``half-width`` line, else the plan's rows."""
    budget = [k for k, line in enumerate(lines) if line.startswith("budget ")]
    if budget:
        start = budget[0] + 1
        stop = next(k for k in range(start, len(lines)) if lines[k].startswith("half-width"))
    else:
        start = next(k for k, line in enumerate(lines) if line.startswith("levels")) + 1
        stop = len(lines)
    out = {}
    for line in lines[start:stop]:
        match = ROW.match(line)
        if match:
            out[match.group(1)] = int(match.group(2))
    return out


def no_budget_counts(lines: list[str]) -> dict[str, int]:
    """The plan's own counts on the ``no budget`` line ({} without that line)."""
    for line in lines:
        if line.startswith("no budget"):
            return {k: int(n) for k, n in re.findall(r"(\w+) (\d+) per \w+", line)}
    return {}


# == the reported contradiction ========================================================
def test_binary_dropped_text_and_json_prescribe_one_design(tmp_path, capsys):
    pilot = binary_dropped_pilot(tmp_path / "pilot.csv")
    argv = ["plan", pilot, "--costs", "40,250", "--budget", "6000"]
    doc = cli_json(argv, capsys)
    code, out, err = cli(argv, capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    # the plan drops binaries and, without a budget, wants 6 measurements per execution
    assert doc["dropped"] == ["binary"] and doc["counts"] == {"measurement": 6}
    # the budget buys 8 binaries x 11 executions x 5 measurements: that is the design
    design = {"binary": 8, "execution": 11, "measurement": 5}
    assert doc["dimensioning"]["counts"] == design
    assert text_counts(lines) == design
    # the binary row says why a dropped level still has units
    binary = next(line for line in lines if line.startswith("binary "))
    assert "dropped (T^2 <= 0) but kept" in binary and "2 or more binaries" in binary
    # the plan's 6 is named as what it is, not as a second prescription
    assert no_budget_counts(lines) == doc["counts"]
    assert "no budget   measurement 6 per execution (least variance per unit of cost" in out
    # the build cost of the dropped binary level is kept, and charged
    assert doc["given_costs"] == {"binary": 250.0, "execution": 40.0}
    assert doc["dimensioning"]["cost"] == 8 * (250 + 11 * (40 + 5)) <= 6000
    assert f"(it costs {doc['dimensioning']['cost']:g})" in out


def test_every_level_dropped_but_the_lowest(capsys):
    # the shipped alpha.csv: binaries and executions do not vary. The design still
    # builds binaries (at least 2) and runs one execution in each
    argv = ["plan", ALPHA, "--costs", "10,300", "--budget", "5000"]
    doc = cli_json(argv, capsys)
    code, out, _ = cli(argv, capsys)
    assert code == 0
    assert doc["dropped"] == ["execution", "binary"] and doc["costs"] == {}
    assert doc["given_costs"] == {"binary": 300.0, "execution": 10.0}
    counts = doc["dimensioning"]["counts"]
    assert list(counts) == ["binary", "execution", "measurement"]
    assert counts["binary"] >= 2 and counts["execution"] == 1
    assert text_counts(out.splitlines()) == counts
    assert "execution          1 per binary   dropped (T^2 <= 0): runs once" in out
    assert ez.experiment_cost(list(counts.values()), [300, 10]) == doc["dimensioning"]["cost"]
    assert "no budget" not in out  # the plan has no count of its own here


def test_without_a_budget_the_plan_is_the_prescription(tmp_path, capsys):
    pilot = binary_dropped_pilot(tmp_path / "pilot.csv")
    argv = ["plan", pilot, "--costs", "40,250"]
    doc = cli_json(argv, capsys)
    _, out, _ = cli(argv, capsys)
    assert "dimensioning" not in doc
    assert text_counts(out.splitlines()) == doc["counts"] == {"measurement": 6}
    assert "no budget" not in out and "budget" not in out.split("levels", 1)[1]


def test_plan_equal_to_the_design_is_not_repeated():
    # the plan's count is the budget's too: no "no budget" line to reconcile
    plan = ez.plan_from_variances([1.0, 4.0], [10.0], ("fork", "iteration"))
    own = plan.counts["iteration"]
    dim = ez.Dimensioning({"fork": 5, "iteration": own}, 0.01, 90, 0.02, plan)
    lines = PlanRow(None, UnitInfo(""), plan, 1000.0, dim).render_lines()
    assert text_counts(lines) == {"fork": 5, "iteration": own}
    assert not any(line.startswith("no budget") for line in lines)


# == property: text and JSON name the same counts =====================================
LEVELS = ("binary", "execution", "process", "measurement")


def _check_row(row: PlanRow) -> None:
    lines = row.render_lines()
    doc = row.to_json()
    dim = doc.get("dimensioning")
    if dim is None:
        assert text_counts(lines) == doc["counts"]
        return
    assert text_counts(lines) == dim["counts"] == row.prescribed()
    assert list(dim["counts"]) == list(row.plan.all_levels)
    assert no_budget_counts(lines) in ({}, doc["counts"])
    if no_budget_counts(lines):
        assert any(dim["counts"][k] != v for k, v in doc["counts"].items())
    assert dim["cost"] <= dim["budget"] * (1 + 1e-9)
    assert math.isfinite(dim["half_width_pct"]) and dim["half_width_pct"] > 0
    assert set(doc["given_costs"]) == set(LEVELS[:-1])


@settings(max_examples=150, deadline=None)
@given(t2=FOUR_LEVEL_T2, costs=THREE_COSTS, units=st.floats(2.0, 60.0))
def test_text_and_json_name_the_same_counts(t2, costs, units):
    # four levels, any of the upper three possibly dropped, a budget that pays for 2
    # or more top units of the cheapest design
    t2[-1] = abs(t2[-1]) + 1e-4
    budget = units * (sum(costs) + 1.0)
    plan = ez.plan_from_variances(t2, costs, LEVELS)
    dim = ez.dimension_for_plan(plan, budget, mean=10.0)
    _check_row(PlanRow(None, UnitInfo(""), plan, budget, dim))
    _check_row(PlanRow(None, UnitInfo(""), plan))


def _run(argv) -> tuple[int, str, str]:
    """``esize`` in-process, its output captured without pytest's capsys (whose
    function-scoped fixture hypothesis does not reset between examples)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    sd=st.lists(st.sampled_from([0.0, 0.5, 2.0]), min_size=3, max_size=3),
    costs=st.lists(st.integers(1, 400), min_size=3, max_size=3),
    units=st.floats(2.0, 30.0),
)
def test_cli_text_and_json_name_the_same_counts(seed, sd, costs, units):
    # a random four-level pilot through the command line, levels with no spread
    # likely dropped
    rng = np.random.default_rng(seed)
    shape = (3, 3, 2, 4)
    x = 100.0 + rng.normal(0, 1.0, size=shape)
    for k, s in enumerate(sd):
        x = x + rng.normal(0, s, size=shape[: k + 1] + (1,) * (3 - k))
    budget = math.ceil(units * (sum(costs) + 1))
    with tempfile.TemporaryDirectory() as tmp:
        pilot = write_csv(Path(tmp) / "pilot.csv", x, levels=LEVELS[:-1])
        argv = ["plan", pilot, "--levels", ",".join(LEVELS[:-1]),
                "--costs", ",".join(map(str, costs[::-1])), "--budget", str(budget)]
        code, out, err = _run(argv)
        assert code == 0, err
        code, js, err = _run([*argv, "--json"])
        assert code == 0, err
    doc = json.loads(js)
    lines = out.splitlines()
    assert text_counts(lines) == doc["dimensioning"]["counts"]
    assert list(doc["dimensioning"]["counts"]) == list(LEVELS)
    assert doc["dimensioning"]["counts"][LEVELS[0]] >= 2
    assert no_budget_counts(lines) in ({}, doc["counts"])
    assert doc["given_costs"] == dict(zip(LEVELS[:-1], map(float, costs)))
    assert doc["dimensioning"]["cost"] <= budget
