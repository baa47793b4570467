"""The reproduction report: the last stage, the only one that imports the claims.

``claim_tables``
    the claims as Markdown: the one table every section shows them in, the notes on
    those not in agreement, the method section's rules;
``sections``
    the bodies of the report's sections (the method, Tables tVariations and
    tPrecisions, the worked examples, false alarms, coverage) and its headline;
``assemble``
    the report assembled from its template (``report.md.j2``): numbered section
    headings, every figure under its title with its caption
    (:mod:`esize_study.render.registry`), and the HTML page.
"""
