"""Building designs from tidy tables; trimming and merging."""

import numpy as np
import pandas as pd
import pytest

import esize as ez


def test_round_trip_and_row_order():
    y = np.arange(24, dtype=float).reshape(2, 3, 4) + 1
    d = ez.Design(y, ("binary", "execution", "measurement"))
    frame = d.to_frame()
    # shuffle rows across groups but keep the order inside each execution
    rng = np.random.default_rng(0)
    groups = [g for _, g in frame.groupby(["binary", "execution"])]
    shuffled = pd.concat([groups[k] for k in rng.permutation(len(groups))])
    back = ez.from_tidy(shuffled, ["binary", "execution"])
    assert back.shape == (2, 3, 4)
    # units are numbered by first appearance, so compare the multiset of executions
    rows = sorted(map(tuple, back.data.reshape(-1, 4)))
    assert rows == sorted(map(tuple, y.reshape(-1, 4)))
    assert ez.s2(back) == pytest.approx(ez.s2(d))


def test_labels_are_local_to_parent():
    frame = pd.DataFrame(
        {"binary": ["a"] * 4 + ["b"] * 4, "execution": [1, 1, 2, 2] * 2, "time": np.arange(1, 9.0)}
    )
    d = ez.from_tidy(frame, ["binary", "execution"])
    assert d.shape == (2, 2, 2)
    np.testing.assert_array_equal(d.data[1, 0], [5, 6])


@pytest.mark.parametrize(
    "frame, message",
    [
        (pd.DataFrame({"binary": [1, 1, 1, 2, 2], "time": [1.0] * 5}), "unbalanced"),
        (
            pd.DataFrame(
                {"binary": [1, 1, 1, 2, 2, 2], "execution": [1, 1, 2, 1, 1, 1], "time": [1.0] * 6}
            ),
            "unbalanced",
        ),
        (pd.DataFrame({"binary": [1, 2], "time": [1.0, float("nan")]}), "NaN"),
        (pd.DataFrame({"binary": [1, 2], "time": ["x", "1"]}), "non-numeric"),
        (pd.DataFrame({"binary": [1, 2], "t": [1.0, 2.0]}), "missing column"),
    ],
)
def test_bad_tidy_input(frame, message):
    levels = [c for c in ("binary", "execution") if c in frame.columns]
    with pytest.raises(ez.DesignError, match=message):
        ez.from_tidy(frame, levels)


def test_trim_and_merge():
    d = ez.Design(np.arange(1, 25.0).reshape(2, 3, 4), ("b", "e", "m"))
    t = d.trim(1)
    assert t.shape == (2, 3, 3)
    np.testing.assert_array_equal(t.data[0, 0], [2, 3, 4])
    with pytest.raises(ez.DesignError):
        d.trim(4)
    m = d.merge("e")
    assert m.levels == ("b", "m") and m.shape == (2, 12)
    top = d.merge("b")
    assert top.levels == ("e", "m") and top.shape == (6, 4)
    with pytest.raises(ez.DesignError):
        d.merge("m")


def test_design_validation():
    with pytest.raises(ez.DesignError):
        ez.Design(np.ones((2, 2)), ("a",))
    with pytest.raises(ez.DesignError):
        ez.Design(np.ones((2, 2)), ("a", "a"))
    with pytest.raises(ez.DesignError):
        ez.Design([[1.0, np.inf]], ("a", "b"))
    d = ez.Design(np.ones((2, 2)), ("a", "b"))
    assert not d.data.flags.writeable
