"""FL111 on the floats of a two-column paper's pages set in one column (`\\onecolumn`: a
supplement, an appendix, a wide table section).

LaTeX sets a `figure` after `\\onecolumn` at the text width (`\\linewidth` is `\\textwidth`
there). The sources route measured every `figure` of a two-column paper against one column,
so a supplement's figures set at 0.9`\\textwidth` under a one-line caption were reported as
printing across the gutter (the field audit: an astronomy paper's and a population-genetics
preprint's `\\onecolumn` supplements). A `figure` set wider than its column on a two-column
page is still reported, and so is a figure wider than the text block after `\\onecolumn`.
"""

from __future__ import annotations

import shutil

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from fixtures.pdf_build import compile_tex

IMAGES = {"p.png": ((800, 300), (90, 140, 200))}
WORDS = ("The measurements agree with the model within the stated uncertainty, and the residuals show "
         "no trend with time, temperature or the order in which the samples were taken. ")


def _paper(wide_in_columns: str, wide_after: str, head: str = "\\documentclass[twocolumn]{article}",
           switch: str = "\\onecolumn") -> str:
    text = (WORDS * 6 + "\n\n") * 3
    return (
        head + "\n\\usepackage{graphicx}\n\\begin{document}\n"
        + text
        + "Figure~\\ref{fig:a} shows the first result and Figure~\\ref{fig:b} the second.\n\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=" + wide_in_columns + "]{p.png}"
        "\\caption{The first result.}\\label{fig:a}\\end{figure}\n\n"
        + text + switch + "\n\\section*{Supplement}\n" + text
        + "\\begin{figure}[h]\\centering\\includegraphics[width=" + wide_after + "]{p.png}"
        "\\caption{The second result.}\\label{fig:b}\\end{figure}\n\n" + text + "\\end{document}\n")


def _routes(tmp_path, tex: str) -> dict:
    pdf = compile_tex(tmp_path / "built", tex, IMAGES)
    src = tmp_path / "sources"
    src.mkdir()
    shutil.copy(tmp_path / "built" / "main.tex", src / "main.tex")
    shutil.copy(tmp_path / "built" / "p.png", src / "p.png")
    return {"pdf": pdf, "sources with the PDF": str(tmp_path / "built" / "main.tex"), "sources alone": str(src / "main.tex")}


def _fl111(path: str) -> dict:
    result = lint_path(path, Config(select=["FL111"]))
    assert result.error is None, result.error
    return {f.figure: f.message for f in result.findings if f.code == "FL111"}


@pytest.fixture
def built(tmp_path):
    (tmp_path / "built").mkdir()
    return tmp_path


def test_a_figure_after_onecolumn_is_measured_against_the_text_block(built, pdflatex):
    # the first figure is at its column's width; the second, after \onecolumn, at 0.9\textwidth
    for route, path in _routes(built, _paper("\\linewidth", "0.9\\textwidth")).items():
        assert _fl111(path) == {}, route


def test_figures_wider_than_their_measure_are_still_reported(built, pdflatex):
    # the first figure is set at the text width in its column; the second past the text width
    # (into the margin, not off the page)
    for route, path in _routes(built, _paper("\\textwidth", "1.1\\textwidth")).items():
        found = _fl111(path)
        assert set(found) == {"1", "2"}, (route, found)
        assert "text block" in found["2"], (route, found)


def test_revtex_onecolumngrid_sets_the_floats_after_it_at_the_text_width(built, pdflatex):
    """REVTeX switches columns with \\onecolumngrid (no page break): a float after it is set in
    one column, as after \\onecolumn (the field audit: a REVTeX paper's appendix)."""
    paper = _paper("\\linewidth", "0.9\\textwidth", "\\documentclass[reprint]{revtex4-2}", "\\onecolumngrid")
    for route, path in _routes(built, paper).items():
        assert _fl111(path) == {}, route
