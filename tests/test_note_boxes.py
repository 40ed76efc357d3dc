"""Framed or shaded notes of set text are not figures, one line or many (issue 12).

An inline to-do note (todonotes' \\todo[inline]: a filled, framed, rounded box with a line of
small text in it) and a one-line \\fcolorbox note are drawn shapes with text inside. Several such
notes stacked under a paragraph were read as one figure without a caption (a false FL201 on a
field-audit paper): a box of set text was only known by rows on a line grid, which one line in
each box does not give. A box whose content is only rows of text, starting at its left edge and
filling it from top to bottom, is set text whatever its number of rows. A flow chart whose
one-line boxes are joined by arrows, and an uncaptioned plot, are still figures without captions
(the negative case). Compiled with pdflatex.
"""

from __future__ import annotations

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_tex

PARA = ("The solver was run with the same settings on every mesh, and the residual of each run "
        "was written to a separate file so that the runs could be compared afterwards. ") * 3

NOTES = ("\\todo[inline]{AB: describe how the meshes were refined}\n"
         "\\todo[inline]{CD: say which tolerance was used in every run}\n"
         "\\todo[inline]{AB: cite the solver and the version used here}\n")

LONG_NOTE = ("\\todo[inline, color=red!40]{Still to do: rerun every case with the final settings and "
             "replace the numbers in the tables, then check that the text agrees with them and that "
             "every claim made above still holds for the new runs.}\n")

BOXED = "\\noindent\\fcolorbox{black}{yellow!15}{\\small Note: the runs of the last section use the coarse mesh.}\n"

# a flow chart of one-line boxes joined by arrows, in the float-less text: a figure
FLOW = ("\\begin{center}\\begin{tikzpicture}[box/.style={draw, fill=green!20, rounded corners}]\n"
        "\\node[box] (a) at (0,0) {read the mesh};\n"
        "\\node[box] (b) at (0,-1.2) {solve the system};\n"
        "\\node[box] (c) at (0,-2.4) {write the residual};\n"
        "\\node[box] (d) at (4,-1.2) {refine the cells};\n"
        "\\draw[->] (a) -- (b); \\draw[->] (b) -- (c); \\draw[->] (b) -- (d); \\draw[->] (d) |- (a);\n"
        "\\end{tikzpicture}\\end{center}\n")


def _paper(loose_graphics: bool) -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx,xcolor,tikz}\n"
            "\\usepackage[color=green!30, textsize=small]{todonotes}\n"
            "\\begin{document}\n\\section{Method}\n" + PARA + "\n\n"
            + ("\\begin{center}\\includegraphics[width=6cm]{plot.png}\\end{center}\n\n" + PARA + "\n\n"
               + FLOW + "\n" + PARA + "\n\n" if loose_graphics else "")
            + NOTES + "\n" + PARA + "\n\n"
            + LONG_NOTE + "\n" + PARA + "\n\n" + BOXED + "\n" + PARA + "\n\n"
            + "\\begin{figure}[h]\\centering\\includegraphics[width=5cm]{plot.png}"
            "\\caption{The residual of every run.}\\label{fig:res}\\end{figure}\n"
            "Figure~\\ref{fig:res} shows the residuals. " + PARA + "\n\\end{document}\n")


def _compile(folder, loose_graphics: bool) -> str:
    return compile_tex(folder, _paper(loose_graphics), {"plot.png": ((400, 300), (200, 120, 60))})


def test_one_line_note_boxes_are_not_figures(tmp_path, pdflatex):
    pdf = _compile(tmp_path, loose_graphics=False)
    paper = read_pdf(pdf)
    assert [f.number for f in paper.figures] == ["1"], [(f.number, f.page, f.bbox) for f in paper.figures]
    for path in (pdf, str(tmp_path / "main.tex")):  # the PDF route and the sources with it
        codes = [f.code for f in lint_path(path, Config()).findings]
        assert "FL201" not in codes and "FL008" not in codes, (path, codes)


def test_a_flow_chart_of_one_line_boxes_is_still_a_figure(tmp_path, pdflatex):
    pdf = _compile(tmp_path, loose_graphics=True)
    paper = read_pdf(pdf)
    loose = [f for f in paper.figures if not f.number]
    assert len(loose) == 2, [(f.page, f.bbox) for f in loose]
    assert [f.number for f in paper.figures if f.number] == ["1"]
    assert [f.code for f in lint_path(pdf, Config()).findings].count("FL201") == 2
