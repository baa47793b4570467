"""The notebook's HTML page reads offline: maths drawn at build time, no remote script."""

import re
from pathlib import Path

import nbformat
import pytest

from esize_study.render.notebook import math_svg, notebook_html

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "worked_examples.ipynb"


@pytest.fixture(scope="module")
def page():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    return nb, notebook_html(nb, NOTEBOOK.stem)


def _formulas(nb):
    """The TeX of every $...$ of the notebook's Markdown cells."""
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    return re.findall(r"(?<![$\\])\$([^$]+?)(?<![$\\])\$", text)


def test_the_page_loads_nothing_from_the_network(page):
    _, html = page
    assert not re.search(r"<script[^>]*\bsrc\s*=", html)  # no script file at all
    assert not re.search(r"""\bimport\s*\(\s*["']https?:""", html)  # nor a module import
    assert not re.search(r"""<link[^>]*href\s*=\s*["']https?:""", html)  # nor a stylesheet
    assert "mathjax" not in html.lower() and "require.min.js" not in html


def test_every_formula_is_drawn_as_svg_with_its_tex_as_label(page):
    nb, html = page
    formulas = _formulas(nb)
    assert len(formulas) >= 3
    labels = re.findall(r'<svg[^>]*aria-label="([^"]*)"', html)
    unescape = __import__("html").unescape
    assert [unescape(x) for x in labels] == [f.strip() for f in formulas]
    body = html[html.index("<main>"):]
    assert not re.search(r"\$[^$<]*\\[a-z]+[^$<]*\$", body)  # no TeX left for a script


def test_element_ids_are_unique_on_the_page(page):
    _, html = page
    ids = re.findall(r'\bid="([^"]+)"', html)
    dupes = {i for i in ids if ids.count(i) > 1}
    assert not dupes


def test_the_page_is_byte_reproducible(page):
    nb, html = page
    assert notebook_html(nb, NOTEBOOK.stem) == html


def test_a_formula_mathtext_cannot_draw_is_shown_as_tex():
    out = math_svg(r"\frac{1}{")
    assert out.startswith("<code") and r"\frac{1}{" in out and "<svg" not in out


def test_math_svg_sits_on_the_baseline_and_prefixes_its_ids():
    out = math_svg(r"n_1 = \lceil\sqrt{c_1 T_1^2 / T_2^2}\rceil", prefix="q7")
    assert re.search(r'style="vertical-align:-\d+\.\d+pt"', out)
    ids = re.findall(r'\bid="([^"]+)"', out)
    assert ids and all(i.startswith("q7-") for i in ids)
    refs = re.findall(r'href="#([^"]+)"', out)
    assert refs and set(refs) <= set(ids)
    assert "Date" not in out and "<!--" not in out


def test_the_page_is_built_without_a_network(monkeypatch):
    """Rendering opens no connection: with every socket refused it gives the page."""
    import socket

    def refuse(*args, **kwargs):
        raise OSError("network is off")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    html = notebook_html(nb, NOTEBOOK.stem)
    assert html.count('class="math"') == len(_formulas(nb))
