"""The text block of a paper set ragged right, where FL111 measures a figure's fit.

A class that sets the body ragged right (draft layouts; agujournal's \\RaggedRight) leaves no
edge where the lines of running text end together: the text block's right edge was taken from
the uneven line ends, short of the real one, and a figure set at exactly the text width was
reported as printing into the margin. Displayed equations' numbers are set flush right against
the full measure: they show the edge, in one column and in each column of two.
"""

from __future__ import annotations

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest import load
from fixtures.pdf_build import compile_tex

IMAGES = {"p.png": ((400, 250), (90, 140, 200))}
# words of many lengths: the ragged lines end anywhere up to a word's width short of the edge
WORDS = ("Measurements of heterogeneous instrumentation show considerable reproducibility "
         "notwithstanding small environmental perturbations in the laboratory and in the field; "
         "the calibration drifts by a fraction of a percent over several weeks, which we correct "
         "with reference spectra taken every morning before any sample is measured. ")
TEXT = WORDS * 3 + "\n\n"
# a narrow column: long words leave its ragged lines well short of the edge
LONG = ("Measurements of characteristically heterogeneous instrumentation demonstrate "
        "considerable reproducibility notwithstanding environmental perturbations; ") * 4 + "\n\n"


def _equation(k: int) -> str:
    return f"\\begin{{equation}} y_{k} = a_{k} x + b_{k} \\label{{eq:{k}}} \\end{{equation}}\n"


def _paper(two_columns: bool, scale: str = "") -> str:
    cls = "[twocolumn]{article}" if two_columns else "{article}"
    width = scale + ("\\columnwidth" if two_columns else "\\textwidth")
    body = ""
    for k in range(1, 9):
        body += (LONG if two_columns else TEXT) + _equation(k)
        if k == 4:
            body += ("Figure~\\ref{fig:a} shows the series.\n"
                     f"\\begin{{figure}}[t]\\includegraphics[width={width}]{{p.png}}\n"
                     "\\caption{The series.}\\label{fig:a}\n\\end{figure}\n")
    return ("\\documentclass" + cls + "\n\\usepackage{graphicx}\n\\hyphenpenalty=10000\n"
            "\\begin{document}\n\\raggedright\n" + body + "\\end{document}\n")


@pytest.mark.parametrize("two_columns", [False, True])
def test_a_figure_at_the_text_width_fits_a_ragged_text_block(tmp_path, pdflatex, two_columns):
    pdf = compile_tex(tmp_path, _paper(two_columns), IMAGES)
    paper = load(pdf)
    lay = paper.extra["layout"]
    fig = next(f for f in paper.figures if f.number == "1")
    # every column's measure on every page is as wide as the graphic set at its width (the
    # equation numbers end there), not where the ragged lines end
    width = fig.bbox[2] - fig.bbox[0]
    for p in lay["page_columns"]:
        for c in p:
            if c is not None:
                assert abs((c[1] - c[0]) - width) <= 1.0, (fig.bbox, lay["page_columns"])
    result = lint_path(pdf, Config(select=["FL111"]))
    assert [f.message for f in result.findings if f.code == "FL111"] == []


def test_a_figure_wider_than_a_ragged_text_block_is_still_reported(tmp_path, pdflatex):
    pdf = compile_tex(tmp_path, _paper(False, "1.1"), IMAGES)
    result = lint_path(pdf, Config(select=["FL111"]))
    found = [f for f in result.findings if f.code == "FL111"]
    assert len(found) == 1 and "past the right edge of the text block" in found[0].message, [f.message for f in found]
    assert 30 <= found[0].evidence["overflow_pt"]["right"] <= 38, found[0].evidence
