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

from fixtures.boxed_paper import PARA, assert_only_the_captioned_figure, assert_two_uncaptioned_figures, compile_boxed_paper

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


def _compile(folder, loose_graphics: bool) -> str:
    loose = ("\\begin{center}\\includegraphics[width=6cm]{plot.png}\\end{center}\n\n" + PARA + "\n\n"
             + FLOW + "\n" + PARA + "\n\n" if loose_graphics else "")
    return compile_boxed_paper(folder, "\\usepackage{graphicx,xcolor,tikz}\n"
                               "\\usepackage[color=green!30, textsize=small]{todonotes}\n",
                               loose + NOTES + "\n" + PARA + "\n\n" + LONG_NOTE + "\n" + PARA + "\n\n"
                               + BOXED + "\n" + PARA + "\n\n")


def test_one_line_note_boxes_are_not_figures(tmp_path, pdflatex):
    assert_only_the_captioned_figure(_compile(tmp_path, loose_graphics=False), str(tmp_path / "main.tex"))


def test_a_flow_chart_of_one_line_boxes_is_still_a_figure(tmp_path, pdflatex):
    assert_two_uncaptioned_figures(_compile(tmp_path, loose_graphics=True))
