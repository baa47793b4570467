"""Names of the study's figures, defined once for the workflow, its scripts and tests.

Every figure is written as ``<results>/<dataset>/figures/<name>.<ext>`` for each
extension of :data:`FIGURE_FORMATS`. The names follow the paper's figures of the
sections "False Alarm Rate" and "Coverage"; the validation figures and a few extras
(``fCOVGridBoot``, ``fCOVNormal``, ``fCOVSchemes``) are the study's own. This module
imports nothing heavy, so the Snakefile can read it when it parses the rules.
"""

from __future__ import annotations

__all__ = [
    "FA_FFT", "FA_2L", "FA_BOOT", "FA_VALIDATION",
    "COV", "COV_GRID", "COV_GRID_BOOT", "COV_R", "COV_RS_GRID", "COV_NORMAL", "COV_SCHEMES",
    "COV_VALIDATION", "FIGURES", "FIGURE_FORMATS", "figure_names", "figure_paths",
]

# False alarms
FA_FFT = "fFAFFT"
FA_2L = "fFA2L"
FA_BOOT = "fFABoot"
FA_VALIDATION = "fFAValidation"
# Coverage
COV = "fCOV"
COV_GRID = "fCOVGrid"
COV_GRID_BOOT = "fCOVGridBoot"
COV_R = "fCOVR"
COV_RS_GRID = "fCOVRSGrid"
COV_NORMAL = "fCOVNormal"
COV_SCHEMES = "fCOVSchemes"
COV_VALIDATION = "fCOVValidation"

#: Figures of each family, in the order the report shows them.
FIGURES: dict[str, tuple[str, ...]] = {
    "false_alarm": (FA_FFT, FA_2L, FA_BOOT, FA_VALIDATION),
    "coverage": (COV, COV_GRID, COV_GRID_BOOT, COV_R, COV_RS_GRID, COV_NORMAL, COV_SCHEMES,
                 COV_VALIDATION),
}
#: File formats every figure is written in.
FIGURE_FORMATS: tuple[str, ...] = ("pdf", "png")


def figure_names(*families: str) -> list[str]:
    """Figure names of the given families (all families when none is given)."""
    return [n for f in (families or tuple(FIGURES)) for n in FIGURES[f]]


def figure_paths(directory: str, *families: str, formats=FIGURE_FORMATS) -> list[str]:
    """``directory/name.ext`` for every figure of ``families`` and every format."""
    return [f"{directory}/{n}.{e}" for n in figure_names(*families) for e in formats]
