"""Hypothesis strategies shared by the planning tests."""

from hypothesis import strategies as st

#: Variance estimates of four levels, highest first; any of them may be <= 0 (a level
#: the plan drops). Tests make the last one positive.
FOUR_LEVEL_T2 = st.lists(st.one_of(st.floats(-1.0, -1e-6), st.floats(1e-4, 100.0)),
                         min_size=4, max_size=4)
#: Costs of new units of the upper three of four levels, in measurements.
THREE_COSTS = st.lists(st.floats(0.5, 3000.0), min_size=3, max_size=3)
