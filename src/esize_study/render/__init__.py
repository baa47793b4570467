"""Rendering figures and tables: the stage after the claims, which it never imports.

``registry``
    the figures' names, families, titles and captions, and the report's section
    titles, defined once (light: the Snakefile reads it);
``figures``
    the study's one figure style and the helpers every figure uses (panel grid, line
    styles, summaries of many benchmarks, atomic saving);
``figures_falsealarm``, ``figures_coverage``
    the figures of "False Alarm Rate" and "Coverage";
``tables``
    Tables tVariations and tPrecisions in Markdown and LaTeX, and the coverage of
    the resampling schemes;
``validation``
    the approximate simulations against the exact ones, in Markdown;
``knowneffect``
    the known-effect tables in Markdown;
``measured``, ``measured_results``
    the report section on a measured dataset;
``notebook``
    the walk-through notebook as HTML whose maths is drawn at build time (no script,
    works offline).

The sections that show the paper's claims are the report's (:mod:`esize_study.report`).
"""
