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
