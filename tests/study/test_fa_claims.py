"""False-alarm claims evaluated on a small simulation (records, verdicts, rendering)."""

import numpy as np
import pandas as pd
import pytest

from esize_study import engine, fa_claims
from esize_study import falsealarm as fa
from esize_study.claims import VERDICTS, tally


@pytest.fixture(scope="module")
def tables():
    rng = np.random.default_rng(3)
    frames, rows = [], []
    for name in ("FFT NA OPT", "Rijndael", "TCP OPT"):
        y = 10.0 * rng.lognormal(0, 0.03, (12, 1, 1)) * rng.lognormal(0, 0.02, (12, 6, 1)) \
            * rng.gamma(30, 1 / 30, (12, 6, 10))
        st = fa.bench_stats(y)
        cells = [fa.CellSpec("binaries", k, 40, 30, ("RRR", "RRN", "RNN", "FLAT"))
                 for k in (1, 2, 3, 5)]
        cells += [fa.CellSpec("executions", e, 40, 30) for e in (1, 2, 3, 4, 6)]
        recs = fa.simulate_cells(st, cells, seed=1, bench_id=engine.bench_id(name), block_size=20)
        f = fa.records_to_frame(recs, name)
        frames.append(f)
        rows += fa.rate_rows(f, [0, 0.5, 1, 2, 5, 10, 20], 6)
    return pd.concat(frames, ignore_index=True), pd.DataFrame(rows)


def test_claims_are_records_with_unique_ids(tables):
    claims = fa_claims.evaluate(*tables)
    assert len(claims) > 10
    assert len({c.id for c in claims}) == len(claims)
    assert all(c.verdict in VERDICTS and c.rule for c in claims)
    yes, total = tally(claims)
    assert 0 <= yes <= total == len(claims)


def test_render_has_the_table_and_notes(tables):
    claims = fa_claims.evaluate(*tables)
    text = fa_claims.render(claims, "### extra")
    assert text.startswith("## False alarms")
    assert "| fFAFFT " in text and text.rstrip().endswith("### extra")
