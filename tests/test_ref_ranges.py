"""A range of figures cites every figure in it, on both routes (issue 12: sites as a reader counts).

"Figs. 12-15" cites 13 and 14 too. On the sources the range is two references joined by a dash
("Figs.~\\ref{a}--\\ref{b}", or "Fig.~\\ref{a} -- Fig.~\\ref{b}") or by "to" with no figure word
before its end ("Figures~\\ref{a} to~\\ref{b}"); in the PDF it is printed "Figs. 2-4" or
"Fig. 2 - Fig. 4". "Figure 1 to Figure 5" may compare two figures and is not a range, and a
range never runs from one numbering sequence into another. A figure cited only inside a range
is cited (no FL301). Compiled with real pdflatex; the PDF alone, the sources with the PDF and
the sources alone all give the same sites.
"""

from __future__ import annotations

import shutil

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from fixtures.pdf_build import compile_tex

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")

FIG = ("\\begin{figure}[h]\\centering\\includegraphics[width=2cm]{p.png}\\caption{Measured %s of the "
       "prototype over the whole test period.}\\label{fig:%s}\\end{figure}\n")
NAMES = ("speed", "load", "heat", "noise", "cost", "drift")


def _paper(tmp_path, text: str) -> str:
    figs = "".join(FIG % (n, n) for n in NAMES)
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{hyperref}\n\\begin{document}\n"
           "\\section{Results}\n" + text + "\n\n" + figs + "\\end{document}\n")
    return compile_tex(tmp_path, tex, {"p.png": ((200, 150), (90, 140, 200))})


def _cited(path: str, **kw) -> dict[str, int]:
    res = lint_path(path, Config(select=["ALL"], **kw))
    assert res.error is None, res.error
    return {f.number: len(f.sites) for f in res.paper.figures}


@pytest.mark.parametrize("joined", ["Figs.~\\ref{fig:speed}--\\ref{fig:noise}",
                                    "Fig.~\\ref{fig:speed} -- Fig.~\\ref{fig:noise}",
                                    "Figures~\\ref{fig:speed} to~\\ref{fig:noise}"])
def test_a_range_cites_the_figures_between_its_ends(tmp_path, joined):
    pdf = _paper(tmp_path, "The four measurements are shown in " + joined + " for every run. "
                 "The cost is in Figure~\\ref{fig:cost} and the drift in Figure~\\ref{fig:drift}.")
    want = {"1": 1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1}
    assert _cited(pdf) == want
    assert _cited(str(tmp_path / "main.tex")) == want
    src_only = tmp_path / "alone"
    src_only.mkdir()
    shutil.copy(tmp_path / "main.tex", src_only / "main.tex")
    shutil.copy(tmp_path / "p.png", src_only / "p.png")
    assert _cited(str(src_only / "main.tex")) == want
    res = lint_path(str(tmp_path / "main.tex"), Config(select=["FL301"]))
    assert not res.findings


def test_two_figures_compared_are_not_a_range(tmp_path):
    pdf = _paper(tmp_path, "We compare Figure~\\ref{fig:speed} to Figure~\\ref{fig:cost}, which differ. "
                 "Figure~\\ref{fig:drift} shows the drift.")
    want = {"1": 1, "2": 0, "3": 0, "4": 0, "5": 1, "6": 1}
    assert _cited(pdf) == want
    assert _cited(str(tmp_path / "main.tex")) == want
    uncited = {f.figure for f in lint_path(pdf, Config(select=["FL301"])).findings}
    assert uncited == {"2", "3", "4"}
