"""The compiled loop of :func:`esize_study._kernels.gather_sums` (imports numba).

Kept apart so that only processes that simulate pay for importing numba. With
``cache=True`` the machine code is stored beside this file (or in numba's user cache
when that is not writable), so later processes load it instead of compiling.
"""

import numba


@numba.njit(cache=True, nogil=True)
def gather_sums_kernel(table, codes, full, rtable, mr, out):  # pragma: no cover - compiled
    """``out[i, r]``: sum of ``table[i, codes[i, r, j]]`` for ``j < full``, left to
    right, plus ``rtable[i, codes[i, r, full] % mr]`` when ``mr > 0``."""
    c, R, _ = codes.shape
    for i in range(c):
        for r in range(R):
            s = table[i, codes[i, r, 0]]
            for j in range(1, full):
                s += table[i, codes[i, r, j]]
            if mr > 0:
                s += rtable[i, codes[i, r, full] % mr]
            out[i, r] = s
