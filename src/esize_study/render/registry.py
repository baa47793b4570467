"""The study's figures and the report's sections, defined once.

Every figure is written as ``<results>/<dataset>/figures/<name>.<ext>`` for each
extension of :data:`FIGURE_FORMATS`. The names follow the paper's figures of the
sections "False Alarm Rate" and "Coverage"; the validation figures and a few extras
(``fCOVGridBoot``, ``fCOVNormal``, ``fCOVSchemes``) are the study's own. Each has one
entry in :data:`REGISTRY`: its family (the rule that draws it), a title and a caption.
The report shows every figure under its title with its caption, the Snakemake rules
declare the files with the same caption (``workflow/report/<name>.rst``, written from
here by :func:`write_captions`; ``snakemake --report``), and the figure scripts save
exactly the names registered for their family.

:data:`SECTIONS` holds the titles of the report's sections; a section file
(``report_false_alarms.md``...) is its title as a level-2 heading, a blank line and
its body (:func:`section`, :func:`section_body`), and the report numbers the titles.

This module imports nothing heavy, so the Snakefile can read it when it parses the
rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "FA_FFT", "FA_2L", "FA_BOOT", "FA_VALIDATION",
    "COV", "COV_GRID", "COV_GRID_BOOT", "COV_R", "COV_RS_GRID", "COV_NORMAL", "COV_SCHEMES",
    "COV_VALIDATION", "Figure", "REGISTRY", "FIGURES", "FAMILIES", "FIGURE_FORMATS",
    "figure", "figure_names", "figure_paths", "caption_text", "write_captions",
    "SECTIONS", "section_title", "section", "section_body",
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


@dataclass(frozen=True)
class Figure:
    """One figure of the study.

    Attributes
    ----------
    name : str
        File name without extension, and the figure's name in the text.
    family : str
        The rule family that draws it (a key of :data:`FAMILIES`).
    title : str
        A heading, in a few words.
    caption : str
        What the figure shows, in plain sentences (no markup: the same text is
        Markdown in the report and reStructuredText in Snakemake's report).
    """

    name: str
    family: str
    title: str
    caption: str


_HEAT = ("White is the nominal coverage, blue above and red below, darker further away; "
         "labelled black contour lines keep it readable in grey scale.")

#: Every figure, in the order the report shows them.
REGISTRY: tuple[Figure, ...] = (
    Figure(FA_FFT, "false_alarm", "False alarms against the number of binaries",
           "The smallest threshold (in % of the mean) that keeps the false alarms at 1, 2, 3, "
           "4 or 5 % (one line each), against the number of binaries per system. Both systems "
           "are drawn from the same benchmark, each binary with all its executions, so every "
           "alarm is false. One panel per benchmark and method: the RRR bootstrap and the "
           "asymptotic method (Fieller's interval with the t quantile). The paper shows FFT "
           "NA OPT and Rijndael."),
    Figure(FA_2L, "false_alarm", "False alarms when the binary level is ignored",
           "The smallest threshold that keeps the false alarms at 1 to 5 %, against the "
           "number of executions per system, when each system is one binary and the methods "
           "ignore the binary level (asymptotic method). The paper shows FFT NA OPT and TCP "
           "OPT; the flat case of one execution is in the tables, not plotted."),
    Figure(FA_BOOT, "false_alarm", "False alarms of the bootstrap's resampling schemes",
           "The smallest threshold that keeps the false alarms at 5 %, against the number of "
           "binaries per system, one line per resampling scheme of the bootstrap (RRR, RRN, "
           "RNN, FLAT). The paper shows FFT and TCP."),
    Figure(FA_VALIDATION, "false_alarm", "Approximate against exact bootstrap: false alarms",
           "The false-alarm rate against the threshold on the same simulated comparisons, "
           "with the approximate bootstrap the simulations use and with the exact one; the "
           "grey band is two Monte Carlo standard errors of the exact rate. The study's own "
           "check, not a figure of the paper."),
    Figure(COV, "coverage", "Coverage against the number of binaries",
           "Coverage of the intervals for a known ratio of means, in the hierarchical normal "
           "model fed with each benchmark's variance estimates, against the number of "
           "binaries per system: one curve per benchmark, for the RRR bootstrap and for the "
           "asymptotic method (Fieller, t quantile). The dotted line is the nominal coverage."),
    Figure(COV_GRID, "coverage", "Coverage over binaries and executions (asymptotic)",
           "Coverage of the asymptotic method over the grid of binaries per system and "
           "executions per binary, one heat map per benchmark (the dashed line: as many "
           "binaries as executions); each title's range is over the cells of 3 or more "
           f"binaries, the grid the paper's own figure shows. {_HEAT}"),
    Figure(COV_GRID_BOOT, "coverage", "Coverage over binaries and executions (RRR bootstrap)",
           "The grid of fCOVGrid for the RRR bootstrap, which the paper skipped as too costly. "
           f"{_HEAT} The study's own figure."),
    Figure(COV_R, "coverage", "Coverage against the number of executions (one binary)",
           "Coverage against the number of executions per system when each system is one "
           "binary and the methods treat executions as the top level: the RR bootstrap and "
           "the asymptotic method, one curve per benchmark. The dotted line is the nominal "
           "coverage."),
    Figure(COV_RS_GRID, "coverage", "Coverage over executions and measurements (one binary)",
           "Coverage of the asymptotic method with one binary per system over the grid of "
           "executions per system and measurements per execution, one heat map per benchmark. "
           "White is 95 %, blue above and red below, on a scale symmetric around it (as dark "
           "5 points below as 5 above); "
           "labelled contours mark 90, 95 and 99 %, and cells below 95 % are hatched, so that the "
           "figure reads in greyscale."),
    Figure(COV_NORMAL, "coverage", "Coverage of the normal-quantile interval",
           "Coverage of Fieller's interval with the normal quantile instead of Student's t, "
           "against the number of binaries per system, one curve per benchmark; the study's "
           "own figure for the paper's statements on it. The dotted line is the nominal "
           "coverage."),
    Figure(COV_SCHEMES, "coverage", "Coverage of the bootstrap's resampling schemes",
           "Coverage of the percentile bootstrap with each resampling scheme (RRR, RRN, RNN, "
           "FLAT) against the number of binaries per system, one curve per benchmark. The "
           "study's own figure, beyond the paper."),
    Figure(COV_VALIDATION, "coverage", "Approximate against exact simulation: coverage",
           "Coverage from the approximate simulation against the exact one (every "
           "measurement simulated, the hierarchical bootstrap run on them) on the validation "
           "cases: on the same experiments (paired), on independent experiments, and every "
           "difference in standard errors (the grey band is +-2). The study's own check."),
)

#: The families of figures, each drawn by one rule: their titles (the categories of
#: Snakemake's report).
FAMILIES: dict[str, str] = {"false_alarm": "False alarms", "coverage": "Coverage"}

#: Figures of each family, in the order the report shows them.
FIGURES: dict[str, tuple[str, ...]] = {
    fam: tuple(f.name for f in REGISTRY if f.family == fam) for fam in FAMILIES
}
#: File formats every figure is written in.
FIGURE_FORMATS: tuple[str, ...] = ("pdf", "png")

_BY_NAME = {f.name: f for f in REGISTRY}


def figure(name: str) -> Figure:
    """The registry's entry of figure ``name``."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no figure {name!r} in the registry") from None


def figure_names(*families: str) -> list[str]:
    """Figure names of the given families (all families when none is given)."""
    return [n for f in (families or tuple(FIGURES)) for n in FIGURES[f]]


def figure_paths(directory: str, *families: str, formats=FIGURE_FORMATS) -> list[str]:
    """``directory/name.ext`` for every figure of ``families`` and every format."""
    return [f"{directory}/{n}.{e}" for n in figure_names(*families) for e in formats]


def caption_text(name: str) -> str:
    """The caption file of figure ``name`` (``workflow/report/<name>.rst``): its title,
    then its caption."""
    f = figure(name)
    return f"**{f.name}: {f.title}**\n\n{f.caption}\n"


def write_captions(directory: str | Path) -> list[Path]:
    """Write every figure's caption file into ``directory`` (the workflow's
    ``workflow/report``); returns the files."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for f in REGISTRY:
        path = directory / f"{f.name}.rst"
        path.write_text(caption_text(f.name), encoding="utf-8")
        out.append(path)
    return out


# -- the report's sections ----------------------------------------------------------------
#: Titles of the report's sections (``{dataset}`` is filled in).
SECTIONS: dict[str, str] = {
    "method": "Method: what is counted and how a claim is judged",
    "data": "The data: relative variation per level (Table tVariations)",
    "examples": "Worked examples (Section \"For Practitioners: The New Method without "
                "Statistics\")",
    "precision": "Dimensioning (Table tPrecisions)",
    "false_alarms": f"False alarms (Figures {', '.join((FA_FFT, FA_2L, FA_BOOT))})",
    "coverage": f"Coverage (Figures {', '.join((COV, COV_GRID, COV_R, COV_RS_GRID))})",
    "measured": "Measured data: {dataset}",
    "real_coverage": "Coverage on the measured data by subsampling (fCOV, fCOVR)",
}


def section_title(key: str, **fields) -> str:
    """The title of section ``key`` (a key of :data:`SECTIONS`), its fields filled in."""
    return SECTIONS[key].format(**fields)


def section(key: str, body: str, number: int | None = None, **fields) -> str:
    """Section ``key`` as Markdown: ``## [number. ]title``, a blank line, ``body``."""
    title = section_title(key, **fields)
    return f"## {f'{number}. ' if number else ''}{title}\n\n{body}"


def section_body(text: str, key: str, **fields) -> str:
    """The body of a section file written by :func:`section` (without a number).

    Raises
    ------
    ValueError
        When ``text`` does not start with the section's heading.
    """
    head = section(key, "", **fields)
    if not text.startswith(head):
        first = text.split("\n", 1)[0]
        raise ValueError(f"not the section {key!r}: it starts {first!r}, not {head.strip()!r}")
    return text[len(head):]
