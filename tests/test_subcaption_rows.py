"""Sub-captions set like running text stay in their figure (issue 12: what is and is not a figure).

A thesis template sets its sub-captions in the body's size, one under each panel, and some run
half a column wide; a row of them under side-by-side panels is read as one wide line. The PDF
route took the wide one for running text (a wall between the panels and the caption: the
panels above it became figures without captions) and the row for a sentence that the caption
line under it continues (so no caption was found: the figure was missing, FL008 on the
sources). A picture whose box starts a point or two inside the text line above it was left
out of its figure. Field audit: a Russian thesis summary, 11 false FL201 and 2 FL008; the
mechanism is the same in any script (Latin letters here; а) б) в) are read alike).
Compiled with pdflatex.
"""

from __future__ import annotations

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest.pdf import read_pdf
from figlint.ingest.pdf_captions import PANEL_OPEN
from fixtures.pdf_build import compile_tex

PARA = ("The robot walked over every surface with the same gait, and the force of each contact "
        "was recorded so that the surfaces could be told apart afterwards. ") * 3
IMAGES = {f"p{k}.png": ((300, 220), (60 + 40 * k, 120, 200 - 30 * k)) for k in range(5)}

SUB = "\\begin{subfigure}[t]{%s\\textwidth}\\centering\\includegraphics[width=\\linewidth]{p%d.png}\\caption{%s}\\end{subfigure}"


def _paper() -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx,subcaption}\n"
            "\\captionsetup[sub]{font=normalsize,labelformat=simple,labelsep=space}\\renewcommand\\thesubfigure{(\\alph{subfigure})}\n"
            "\\captionsetup{labelsep=endash}\n\\begin{document}\n" + PARA + "\n\n"
            "\\begin{figure}[h]\\centering\n" + SUB % ("0.4", 0, "Number of legs up, detail of the surface up") + "\\hfill\n"
            + SUB % ("0.4", 1, "Length up, passability down") + "\\\\\n"
            + SUB % ("0.8", 2, "Length of the robot up and the profile passability up as well") + "\n"
            "\\caption{Criteria of the optimisation of the robot's design.}\\label{fig:a}\\end{figure}\n\n"
            + PARA + "\n\n"
            "\\begin{figure}[h]\\centering\n" + SUB % ("0.3", 3, "Convex hull") + "\\hfill\n"
            + SUB % ("0.3", 4, "Concave hull") + "\n"
            "\\caption{Why the algorithm had to be changed.}\\label{fig:b}\\end{figure}\n\n"
            "Figures~\\ref{fig:a} and~\\ref{fig:b} show the design. " + PARA + "\n\\end{document}\n")


def test_panel_letters_of_other_scripts_open_a_panel_line():
    for text in ("(a) Convex hull", "b) Concave hull", "а) Стенд для", "в) Длина робота", "α) panel"):
        assert PANEL_OPEN.match(text), text
    assert not PANEL_OPEN.match("Figure 3 shows it") and not PANEL_OPEN.match("ab) no")


def test_sub_captions_in_the_body_size_stay_in_their_figures(tmp_path, pdflatex):
    pdf = compile_tex(tmp_path, _paper(), IMAGES)
    paper = read_pdf(pdf)
    assert [f.number for f in paper.figures] == ["1", "2"], [(f.number, f.page, f.bbox) for f in paper.figures]
    codes = [f.code for f in lint_path(str(tmp_path / "main.tex"), Config(preview=True)).findings]
    assert "FL201" not in codes and "FL008" not in codes, codes
