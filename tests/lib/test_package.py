"""The package's face: what ``import esize`` exports and what it loads."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

import esize as ez

HEAVY = ("scipy.stats", "scipy.special", "pandas", "pyarrow", "matplotlib", "joblib",
         "snakemake", "tqdm", "esize_study", "esize.cli", "esize.readers")


def _loaded_by(statement: str) -> list[str]:
    code = (f"import sys, json; {statement}; "
            f"print(json.dumps([m for m in {list(HEAVY)!r} if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def test_import_esize_loads_numpy_only():
    assert _loaded_by("import esize") == []


def test_planning_and_warmup_load_on_first_use():
    lazy = ["esize._planning", "esize._warmup"]
    code = (f"import sys, json, esize; before = [m for m in {lazy!r} if m in sys.modules]; "
            "f = esize.dimension; w = esize.auto_warmup; from esize import Plan; "
            f"print(json.dumps([before, [m for m in {lazy!r} if m in sys.modules], "
            "f.__module__, Plan.__module__, 'dimension' in dir(esize)]))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    before, after, mod_f, mod_plan, listed = json.loads(out.stdout)
    assert before == [] and after == lazy
    assert (mod_f, mod_plan, listed) == ("esize._planning", "esize._planning", True)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        ez.no_such_name  # noqa: B018


def test_quantiles_load_no_scipy_and_extreme_levels_load_special_not_stats():
    assert _loaded_by("import esize; esize.critical_value(0.05, 3); esize.critical_value(0.01)") == []
    # fractional df (Welch's, the suite's) and other levels: computed (esize._tdist)
    assert _loaded_by("import esize; esize.critical_value(0.05, 2.5)") == []
    assert _loaded_by("import esize; esize.critical_value(0.02, 3)") == []
    loaded = _loaded_by("import esize; esize.critical_value(1e-15, 3)")
    assert "scipy.special" in loaded and "scipy.stats" not in loaded


def test_all_names_resolve_and_are_public_objects():
    assert len(ez.__all__) == len(set(ez.__all__))
    for name in ez.__all__:
        obj = getattr(ez, name)
        assert not name.startswith("_")
        assert getattr(obj, "__module__", "esize").startswith("esize")
    # the private modules are not part of the public surface
    assert not any(n.startswith("_") for n in ez.__all__)
    assert "read_benchmarks" not in ez.__all__  # readers live in esize.readers


def test_quantiles_equal_scipy_stats():
    stats = pytest.importorskip("scipy.stats")
    # the table holds scipy's values; the rest is computed to about 1e-13 (esize._tdist)
    for alpha in (0.2, 0.1, 0.05, 0.01, 0.001):
        assert ez.critical_value(alpha) == pytest.approx(stats.norm.ppf(1 - alpha / 2), rel=1e-13)
        for df in (1, 2, 3, 7, 29, 99, 400, 401, 12345, 2.5):
            assert ez.critical_value(alpha, df) == pytest.approx(stats.t.ppf(1 - alpha / 2, df),
                                                                 rel=1e-12)


def test_quantile_table_matches_scipy_special():
    special = pytest.importorskip("scipy.special")
    from esize import _qtable

    assert set(_qtable.NORMAL) == set(_qtable.STUDENT_T) == {0.1, 0.05, 0.01}
    for alpha, row in _qtable.STUDENT_T.items():
        assert len(row) == _qtable.MAX_DF
        df = np.arange(1, _qtable.MAX_DF + 1)
        np.testing.assert_array_max_ulp(np.array(row), special.stdtrit(df, 1 - alpha / 2), maxulp=4)
        np.testing.assert_array_max_ulp(_qtable.NORMAL[alpha], special.ndtri(1 - alpha / 2), maxulp=4)
        # the table and scipy are the two routes of critical_value: they meet at the edge
        assert ez.critical_value(alpha, _qtable.MAX_DF) == pytest.approx(ez.critical_value(alpha, 401.0), rel=1e-4)


def test_warning_class_is_a_user_warning():
    assert issubclass(ez.EsizeWarning, UserWarning)
    assert issubclass(ez.InputError, ez.EsizeError) and issubclass(ez.EsizeError, ValueError)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("dropped 3 values", ez.EsizeWarning, stacklevel=1)
    assert caught[0].category is ez.EsizeWarning


def test_input_error_names_the_source():
    err = ez.InputError("old.csv", "unbalanced design")
    assert str(err) == "old.csv: unbalanced design" and err.source == "old.csv"


def test_study_is_a_separate_distribution():
    from importlib import metadata

    files = metadata.files("esize") or []
    assert not any("esize_study" in str(f) for f in files)
    assert metadata.version("esize-study")
