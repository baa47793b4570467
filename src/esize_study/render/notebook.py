"""Notebooks rendered to HTML that reads offline: maths drawn at build time, no script
from the network.

nbconvert's HTML exporter leaves the maths of Markdown cells (``$...$``) as TeX for
MathJax, which its template loads from a CDN, and loads RequireJS and Mermaid from it
too: the page shows raw TeX without a network. :func:`offline_exporter` instead
draws every formula with matplotlib's mathtext (Computer Modern glyphs as SVG paths,
so no font needs to be installed) into an inline SVG (:func:`math_svg`), with the TeX
as its accessible label, and renders the page with a template that loads no script
at all. The output is byte-reproducible: the SVGs carry no date, their element ids a
fixed salt and a per-formula prefix.

matplotlib's mathtext knows a large subset of TeX maths (fractions, roots, sub- and
superscripts, Greek letters, delimiters such as ``\\lceil``); a formula it cannot
parse, and LaTeX environments (``\\begin{align}``), are shown as TeX in a ``<code>``
element instead of failing the build.
"""

from __future__ import annotations

import html
import io
import itertools
import re

__all__ = ["offline_exporter", "math_svg", "notebook_html", "MATH_FONT_SIZE"]

#: Size (points) of the maths: about that of the page's 14 px body text.
MATH_FONT_SIZE = 10.5

#: The template: nbconvert's "lab" page without its scripts (RequireJS, MathJax,
#: Mermaid and the widget manager, each loaded from a CDN).
_TEMPLATE = """{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""
_TEMPLATE_NAME = "esize_offline.html.j2"

_PAD = 1.0  # points
_ID = re.compile(r'\bid="([^"]+)"')


def math_svg(tex: str, *, display: bool = False, prefix: str = "m",
             size: float = MATH_FONT_SIZE) -> str:
    """One formula as an inline SVG element in a ``<span>`` (``<div>`` for display
    maths), sitting on the text's baseline.

    Parameters
    ----------
    tex : str
        The formula without its ``$`` delimiters.
    display : bool
        Display maths (a centred block) rather than inline.
    prefix : str
        Prefix of the SVG's element ids, distinct per formula of a page (ids must be
        unique in an HTML document).
    size : float
        Font size in points.

    Returns
    -------
    str
        HTML; the TeX in a ``<code>`` element when mathtext cannot parse it.
    """
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties
    from matplotlib.mathtext import MathTextParser

    label = html.escape(tex.strip(), quote=True)
    src = f"${tex.strip()}$"
    with matplotlib.rc_context({"mathtext.fontset": "cm", "svg.fonttype": "path",
                                "svg.hashsalt": "esize", "svg.image_inline": True}):
        prop = FontProperties(size=size)
        try:
            width, height, depth, *_ = MathTextParser("path").parse(src, dpi=72, prop=prop)
        except ValueError:
            return f'<code class="math-tex">{label}</code>'
        # a margin of _PAD points all round: strokes (a root's bar) reach the edge
        w, h = width + 2 * _PAD, height + 2 * _PAD
        fig = Figure(figsize=(w / 72, h / 72))
        FigureCanvasSVG(fig)
        fig.patch.set_alpha(0)
        fig.text(_PAD / w, (depth + _PAD) / h, src, fontproperties=prop)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", dpi=72, metadata={"Date": None, "Creator": None},
                    transparent=True)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>|<!--.*?-->", "", svg, flags=re.S)
    for old in sorted(set(_ID.findall(svg)), key=len, reverse=True):
        new = f"{prefix}-{old}"
        svg = svg.replace(f'id="{old}"', f'id="{new}"').replace(f"#{old}\"", f"#{new}\"") \
                 .replace(f"#{old})", f"#{new})")
    svg = re.sub(r">\s+<", "><", svg).replace("\n", " ").strip()
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{label}" '
                      f'style="vertical-align:-{depth + _PAD:.2f}pt" ', 1)
    end = svg.index(">") + 1
    svg = svg[:end] + f"<title>{label}</title>" + svg[end:]
    if display:
        return f'<div class="math math-display" style="text-align:center">{svg}</div>'
    return f'<span class="math">{svg}</span>'


def _renderer_class():
    from nbconvert.filters.markdown_mistune import IPythonRenderer

    class MathSVGRenderer(IPythonRenderer):
        """nbconvert's Markdown renderer with the maths drawn as SVG."""

        counter = itertools.count()

        def _svg(self, body: str, display: bool) -> str:
            return math_svg(body, display=display, prefix=f"m{next(self.counter)}")

        def inline_math(self, body: str) -> str:
            return self._svg(body, False)

        def block_math(self, body: str) -> str:
            return self._svg(body, True)

        def latex_environment(self, name: str, body: str) -> str:
            tex = f"\\begin{{{name}}}{body}\\end{{{name}}}"
            return f'<pre class="math-tex"><code>{html.escape(tex)}</code></pre>'

    return MathSVGRenderer


def _exporter_class():
    from jinja2 import DictLoader, pass_context
    from nbconvert import HTMLExporter
    from nbconvert.filters.markdown_mistune import MarkdownWithMath

    renderer_class = _renderer_class()

    class _OfflineHTMLExporter(HTMLExporter):
        """HTMLExporter whose page loads no script and whose maths is SVG."""

        def __init__(self, **kw):
            kw.setdefault("template_name", "lab")
            super().__init__(**kw)
            self.extra_loaders = [DictLoader({_TEMPLATE_NAME: _TEMPLATE})]
            self.template_file = _TEMPLATE_NAME
            self._ids = itertools.count()

        @pass_context
        def markdown2html(self, context, source):
            cell = context.get("cell", {})
            path = context.get("resources", {}).get("metadata", {}).get("path", "")
            renderer = renderer_class(
                escape=False, attachments=cell.get("attachments", {}),
                embed_images=self.embed_images, path=path,
                anchor_link_text=self.anchor_link_text,
                exclude_anchor_links=self.exclude_anchor_links, **self.lexer_options)
            renderer.counter = self._ids  # ids unique over the whole page
            return MarkdownWithMath(renderer=renderer).render(source)

    return _OfflineHTMLExporter


def offline_exporter(**kw):
    """An nbconvert ``HTMLExporter`` (keyword arguments are its settings) whose page
    loads no script and draws the Markdown cells' maths as SVG (:func:`math_svg`)."""
    return _exporter_class()(**kw)


def notebook_html(nb, name: str) -> str:
    """The page of the (executed) notebook ``nb`` titled ``name``: maths as SVG, no
    script loaded from anywhere (:func:`offline_exporter`)."""
    page, _ = offline_exporter().from_notebook_node(nb, resources={"metadata": {"name": name}})
    return page
