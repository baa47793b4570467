"""The reproduction report assembled from its template, in Markdown and HTML.

The template (``report.md.j2``, Jinja) lays the report out: its title, the provenance,
the headline and the note on the data, then the sections in :data:`ORDER` under
numbered headings (their titles from :data:`esize_study.render.registry.SECTIONS`,
their bodies from :mod:`esize_study.report.sections` or read from the section files
with :func:`esize_study.render.registry.section_body`), then every figure under its
title with its caption (:data:`esize_study.render.registry.REGISTRY`).
:func:`to_html` renders the Markdown with markdown-it-py.
"""

from __future__ import annotations

import html
import os
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from ..render import registry

__all__ = ["ORDER", "report_markdown", "figure_entries", "to_html"]

#: The report's sections in order, with their numbers (None: not numbered). A section
#: that is not given (the measured data of a stand-in) is left out.
ORDER: tuple[tuple[str, int | None], ...] = (
    ("method", None),
    ("data", 1),
    ("examples", 2),
    ("precision", 3),
    ("false_alarms", 4),
    ("coverage", 5),
    ("measured", 6),
    ("real_coverage", 7),
)

_TEMPLATE = Path(__file__).with_name("report.md.j2")


@cache
def _template():
    import jinja2

    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)
    return env.from_string(_TEMPLATE.read_text(encoding="utf-8"))


def figure_entries(paths: Sequence[str], here: str) -> list[dict]:
    """The figures the report shows: for each PNG of ``paths``, its name, title and
    caption from the registry and its path relative to the report's directory."""
    out = []
    for p in paths:
        if not p.endswith(".png"):
            continue
        f = registry.figure(os.path.basename(p)[: -len(".png")])
        out.append({"name": f.name, "title": f.title, "caption": f.caption,
                    "path": os.path.relpath(p, here)})
    return out


def report_markdown(*, dataset: str, provenance: str, config_summary: str, headline: str,
                    dataset_note: str, sections: Mapping[str, str],
                    figures: Sequence[Mapping]) -> str:
    """The report in Markdown, from its template.

    Parameters
    ----------
    dataset : str
        The dataset's name (the title; the measured section's title).
    provenance : str
        :func:`esize_study.artifact.provenance.header_markdown`, without its final
        newlines.
    config_summary, headline, dataset_note : str
        One line each: the configuration's sizes and seeds, the agreement counts
        (:func:`esize_study.report.sections.headline`), what the data are.
    sections : mapping
        ``{key: body}`` for keys of :data:`ORDER` (each body ends with a newline).
    figures : sequence of mapping
        :func:`figure_entries`.
    """
    unknown = set(sections) - {k for k, _ in ORDER}
    if unknown:
        raise ValueError(f"unknown report section(s) {sorted(unknown)}")
    shown = [{"number": n, "title": registry.section_title(k, dataset=dataset),
              "body": sections[k]} for k, n in ORDER if k in sections]
    return _template().render(dataset=dataset, provenance=provenance,
                              config_summary=config_summary, headline=headline,
                              dataset_note=dataset_note, sections=shown, figures=figures)


_STYLE = (
    "body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;line-height:1.4}"
    "table{border-collapse:collapse;margin:1em 0;font-size:0.9em}"
    "td,th{border:1px solid #999;padding:0.2em 0.5em;text-align:left}"
    "th{background:#eee}code{background:#f4f4f4}img{max-width:100%}"
)


def to_html(markdown: str, title: str = "esize reproduction report") -> str:
    """Render the report's Markdown (CommonMark with tables) as a standalone HTML page."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>\n"
        + body
        + "</body></html>\n"
    )
