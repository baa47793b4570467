"""The paper's statements, each with the claim rows that judge it, kept as data.

The report says that every number the paper states is set beside ours; this list is
what that sentence is checked against (``tests/study/test_paper_statements.py``):
every statement names the section, figure or table label of the paper where it is
made, says what it says in our own words, and names the ids of the claim rows
(:class:`esize_study.claims.claim.Claim`) that judge it. A statement whose rows are
missing from the evaluated claims fails the test.

The ``issue`` field marks the thirteen statements an independent reading found without
a row (issue 42, item 1); the others had rows before and are listed for completeness
where their ids are fixed (rows whose id is filled in from the results are left out).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Statement", "STATEMENTS"]


@dataclass(frozen=True)
class Statement:
    """One statement of the paper.

    Attributes
    ----------
    id : str
        Stable identifier.
    label : str
        The paper's LaTeX label of the section, figure or table where it is made.
    text : str
        What the paper says, paraphrased in our words.
    claims : tuple of str
        Ids of the claim rows that judge it (all must be present).
    issue : bool
        One of the thirteen statements of issue 42 that had no row.
    """

    id: str
    label: str
    text: str
    claims: tuple[str, ...]
    issue: bool = False


_DIM = tuple(f"dimensioning.fft6h.{k}" for k in (
    "c1", "c2", "n1", "n2", "execution-seconds", "binary-executions-seconds", "binary-seconds",
    "binaries", "samples", "default-execution-seconds", "default-samples", "ours-pct",
    "default-pct"))

_S = Statement

#: The statements, the thirteen of issue 42 first.
STATEMENTS: tuple[Statement, ...] = (
    # -- issue 42, item 1 ---------------------------------------------------------------
    _S("tvariations-brackets", "tVariations", "T is given in brackets only where it differs "
       "from S by more than 0.1 % (the table's note)", ("tvariations.brackets",), True),
    _S("fafft-threshold-1pct", "fFAFFT", "a threshold above 0 costs fewer binaries, and "
       "1 % already makes a large difference", ("fa.fft.threshold1-helps",), True),
    _S("fafft-caption-limits", "fFAFFT", "caption: the thresholds shown reach 10 % for FFT but "
       "only 0.5 % for Rijndael, for which binaries do not matter",
       ("fa.ffaft.caption-limits",), True),
    _S("fa2l-nonfft-trends", "fFA2L", "all non-FFT benchmarks show similar trends with one "
       "binary; only the rates differ", ("fa.fa2l.nonfft-similar-trends",), True),
    _S("fa2l-bootstrap-higher", "fFA2L", "with the RRR bootstrap the FFT rates are slightly "
       "higher than asymptotic, and much higher with few executions",
       ("fa.fa2l.fft-bootstrap-higher",), True),
    _S("faboot-class", "fFABoot", "the resampling observations for FFT and TCP Ping hold for the "
       "other benchmarks of each class", ("fa.faboot.class-observations",), True),
    _S("faboot-tenfold", "fFABoot", "FLAT needing 35 binaries where RRR needs 3 is more than a "
       "tenfold reduction of experimentation time", ("fa.faboot.tenfold",), True),
    _S("faboot-nonfft-scheme", "fFABoot", "for non-FFT benchmarks the resampling scheme makes no "
       "practical difference, and even FLAT is acceptable",
       ("fa.faboot.nonfft-scheme-no-matter",), True),
    _S("fcovr-first-good", "fCOVR", "at first, coverage falling as executions are "
       "added is welcome: it removes the over-coverage of the asymptotic method (all "
       "benchmarks) and of the bootstrap (non-FFT)", ("cov.fcovr.first-good",), True),
    _S("tprecisions-note-counts", "tPrecisions", "note: for FFT and Rijndael our method uses "
       "several executions per binary and several measurements per execution; for HTTP and "
       "TCP one execution and several measurements", ("tprecisions.note-counts",), True),
    _S("dimensioning-always-better", "sDimensioning", "the planned design never gives a wider "
       "interval than the one-level default (also in the note of tPrecisions)",
       ("tprecisions.always-better", "tprecisions.always-better.data"), True),
    _S("evaluation-fieller-2-or-3", "sEvaluation", "summary of the evaluation: the asymptotic "
       "method failed to give an interval only with 2 or 3 binaries or executions, never with "
       "more", ("fa.fieller-2-or-3", "cov.fieller-2-or-3"), True),
    _S("dimensioning-worked-example", "sDimensioning", "FFT in 6 hours: c1 = 19, c2 = 5343, "
       "n1 = 4, n2 = 28, executions within 6 s, about 150 s per binary, 16 binaries, 1792 "
       "samples, 2.3 % against 4.7 % for 17 one-level samples", _DIM, True),
    # -- statements with rows before issue 42 ---------------------------------------------
    _S("fafft-tends-5", "fFAFFT", "with a 0 % threshold the FFT NA OPT rate approaches 5 % as "
       "binaries grow, for both methods",
       ("fa.fft.rate0.asymptotic.-", "fa.fft.rate0.bootstrap.RRR")),
    _S("fafft-asymptotic-fewer", "fFAFFT", "the asymptotic method does better than the "
       "bootstrap for 2 to 20 binaries", ("fa.fft.asymptotic-fewer",)),
    _S("fafft-threshold-2pct", "fFAFFT", "a 2 % threshold gives at most 2 % false alarms with "
       "3 binaries, either method",
       ("fa.fft.threshold2.asymptotic", "fa.fft.threshold2.bootstrap")),
    _S("fafft-nonfft-1pct", "fFAFFT", "non-FFT, 1 % threshold, 2 binaries: at most 1 % false "
       "alarms, either method", ("fa.nonfft.threshold1",)),
    _S("fafft-unbounded-2", "fFAFFT", "Fieller's condition failed rarely, and only with 2 "
       "binaries", ("fa.unbounded",)),
    _S("fa2l-fft-9pct", "fFA2L", "one binary: FFT NA OPT needs a threshold of nearly 9 %",
       ("fa.fft-na-opt.threshold-5pct",)),
    _S("fa2l-tcp-2pct", "fFA2L", "one binary: TCP OPT stays at 5 % with a threshold below 2 %",
       ("fa.tcp-opt.threshold-5pct",)),
    _S("fa2l-flat", "fFA2L", "one execution: FFT NA OPT about 95 % at 0 %, about 9 % at 20 %; "
       "TCP OPT below 0.1 %", ("fa.fft.flat-threshold0", "fa.fft.flat-threshold20",
                               "fa.tcp-opt.flat-threshold0")),
    _S("faboot-flat-35", "fFABoot", "FFT, 2 % threshold: FLAT needs as many as 35 binaries, RRR "
       "only 3", ("fa.fft.flat-binaries",)),
    _S("faboot-tcp-flat-cost", "fFABoot", "TCP: FLAT raises the threshold by under 0.5 %",
       ("fa.tcp.flat-cost",)),
    _S("fcov-asymptotic", "fCOV", "asymptotic coverage about 99 % at 3 binaries, below 98 % at "
       "10, below 97 % at 20, 95-96 % at 50",
       ("cov.fcov.asymptotic.3b", "cov.fcov.asymptotic.10b", "cov.fcov.asymptotic.20b",
        "cov.fcov.asymptotic.50b")),
    _S("fcovr-falls", "fCOVR", "one binary: coverage falls as the executions grow",
       ("cov.fcovr.asymptotic.falls",)),
    _S("twe2data-n1", "tWE2Data", "the worked example's n1 with c1 = 10", ("examples.tWE2Data.n1",)),
)
