"""Designs: trimming, merging and validation (``from_tidy`` is tested in
``tests/readers/test_tidy.py``)."""

import numpy as np
import pytest

import esize as ez


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


# -- the table-to-design fast paths agree with the sorting routes ------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

from esize import _design  # noqa: E402


def _sorting_label_codes(keys):
    return np.unique(keys, return_inverse=True)[1].reshape(-1).astype(np.int64)


def _sorting_first_appearance(key):
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return rank[inverse.reshape(-1)], first[order]


def _sorting_positions(parent):
    order = np.argsort(parent, kind="stable")
    sp = parent[order]
    pos = np.empty(parent.size, dtype=np.int64)
    pos[order] = np.arange(parent.size) - np.searchsorted(sp, sp, side="left")
    return pos


INT_KEYS = st.one_of(
    hnp.arrays(np.int64, st.integers(1, 60), elements=st.integers(-5, 5)),
    hnp.arrays(np.uint16, st.integers(1, 60), elements=st.integers(0, 9)),
    hnp.arrays(np.int64, st.integers(1, 20), elements=st.integers(-2**62, 2**62)),  # sparse
    hnp.arrays(np.int8, st.integers(1, 60)),  # the whole range of a narrow type
    hnp.arrays(np.uint64, st.integers(1, 20), elements=st.integers(2**64 - 40, 2**64 - 1)),
)


@settings(max_examples=300, deadline=None)
@given(INT_KEYS, st.booleans())
def test_label_codes_equal_numpy_unique(keys, grouped):
    """Integer labels: the table route gives numpy.unique's inverse, sorted or not."""
    if grouped:
        keys = np.sort(keys)
    codes = _design._label_codes(keys)
    assert codes.dtype == np.int64
    np.testing.assert_array_equal(codes, _sorting_label_codes(keys))


@settings(max_examples=300, deadline=None)
@given(hnp.arrays(np.int64, st.integers(1, 60), elements=st.integers(0, 6)), st.booleans())
def test_first_appearance_and_positions_equal_sorting_route(key, grouped):
    """Run-based ids and positions (grouped rows) equal the sorting route's (any rows)."""
    if grouped:  # contiguous runs in an arbitrary order of values
        vals, counts = np.unique(key, return_counts=True)
        perm = np.argsort((vals * 7919) % 13, kind="stable")
        key = np.repeat(vals[perm], counts[perm])
    ids, first = _design._first_appearance(key)
    want_ids, want_first = _sorting_first_appearance(key)
    np.testing.assert_array_equal(ids, want_ids)
    np.testing.assert_array_equal(first, want_first)
    np.testing.assert_array_equal(_design._positions(ids), _sorting_positions(ids))
    np.testing.assert_array_equal(_design._positions(key), _sorting_positions(key))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_grouped_and_shuffled_tables_give_one_design(b, e, n, seed):
    """The same measurements, rows in order or shuffled: the same design."""
    rng = np.random.default_rng(seed)
    bi, ei, ii = np.meshgrid(np.arange(b) * 3 + 10, np.arange(e), np.arange(n), indexing="ij")
    t = rng.random(bi.size) + 0.5
    table = {"binary": bi.ravel(), "execution": ei.ravel(), "time": t}
    d = ez.from_tidy(table, ["binary", "execution"])
    assert d.shape == (b, e, n)
    np.testing.assert_array_equal(d.data.ravel(), t)
    perm = rng.permutation(bi.size)
    shuffled = {k: v[perm] for k, v in table.items()}
    d2 = ez.from_tidy(shuffled, ["binary", "execution"])
    # units numbered by first appearance, measurements in table order: the same sets
    np.testing.assert_array_equal(np.sort(d2.data.ravel()), np.sort(t))
    assert d2.shape == d.shape


@pytest.mark.parametrize("k", [-320, -300, -5, 0, 7, 300])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mean_is_the_scaled_mean_bit_for_bit(k, seed):
    # the grand mean in units of 2**e (scale_exponent), as numpy computes it, at any
    # magnitude: subnormal data (k = -320) and data near the largest floats included
    from esize._design import scale_exponent

    y = np.random.default_rng(seed).lognormal(0.0, 1.0, size=(5, 3)) * 10.0**k
    y[0, 0] *= -1.0
    e = scale_exponent(y)
    want = float(np.ldexp(np.ldexp(y, -e).mean(), e)) if e else float(y.mean())
    got = ez.Design(y, ("a", "b")).mean
    assert np.float64(got).tobytes() == np.float64(want).tobytes()
    assert ez.Design(np.zeros((2, 2)), ("a", "b")).mean == 0.0
