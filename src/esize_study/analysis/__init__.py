"""A user's own dataset, analysed on its own: ``make analyse CONFIG=my.yaml``.

The reproduction study (the rest of :mod:`esize_study`) sets the paper's numbers beside
ours; this subpackage answers what a user with their own benchmark results asks: how
their measurements vary level by level, what warm-up was dropped, how to dimension
their next experiment for their own costs and budgets, and for each configured pair
``{old, new}`` how much faster or slower the new one is, with the verdict and the
caveats of ``esize compare``. It writes ``results/<dataset>/report.md`` and
``report.html``, whose every number comes from the dataset itself.

Modules, in the order the workflow (``workflow/rules/analyse.smk``) uses them:

:mod:`.config`
    A dataset entry with its defaults (the schema's) and the durations and costs it
    may hold.
:mod:`.read`
    The dataset's files in any format esize reads, with the entry's warm-up.
:mod:`.estimate`
    Variance per level, warm-up, plan and dimensioning (esize's planning).
:mod:`.compare`
    The comparisons, with the functions of ``esize compare``.
:mod:`.simulate`
    False alarms on the dataset's own pool and coverage of a known ratio by
    subsampling, with the reproduction study's engines.
:mod:`.figures`, :mod:`.report`
    Figures (esize's own plots) and the Markdown/HTML report.
:mod:`.check`, :mod:`.jobs`
    The configuration check (``python -m esize_study.analysis check-config``: each
    entry's settings and files, one line naming file, key and problem) and what the
    workflow's scripts share.
:mod:`._study`
    The one module importing the reproduction study's code (to re-point when it
    moves); nothing of the study imports this subpackage, so the reproduction's code
    hashes do not follow it.
"""
