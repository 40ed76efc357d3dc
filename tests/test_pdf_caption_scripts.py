"""PDF route: a caption row that a formula's stacked scripts split into pieces is read whole.

MuPDF sets a formula's stacked sub- and superscript ("E^{1/2}_p", "k_{max}^{-5/3}") as lines of
their own and starts the row's next piece there: "... and k^{-5/3}" | "max into late time and
the ...". The caption reader joins the pieces of its first row that follow it closely, but it
took a justified row's stretched word space after the formula (over half the type size) for the
gap beside a narrow float, and a piece that opens with the subscript under the row's end for a
script's own line; the rest of the row was lost (a field paper's caption lost half its first line).
"""

from __future__ import annotations

import pytest

from fixtures.pdf_build import caption_read

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}
END = "Last words here."


def _paper(caption: str) -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            + "Some text before the figure. " * 40 + "See Figure~\\ref{fig:a}.\n"
            + "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{p.png}\n"
            + f"\\caption{{{caption}}}\\label{{fig:a}}\n\\end{{figure}}\n" + "More text after the figure. " * 30
            + "\n\\end{document}\n")


@pytest.mark.parametrize("formula", ["$E^{1/2}_p$", "$\\langle u^{2}\\rangle^{1/2}_{x}$", "$k_{\\max}^{-5/3}$"])
def test_a_row_split_at_stacked_scripts_is_read_whole(tmp_path, pdflatex, formula):
    # the words before the formula move it along the first row and change the stretch after it
    for k, lead in enumerate(["", "Evolution ", "Evolution of "]):
        cap = (f"{lead}the fields $u'$, $v'$, $w'$ and {formula} into late time and the reference slopes shown "
               f"for a wide range of times. {END}")
        got = caption_read(tmp_path / f"c{k}", _paper(cap))
        assert got.startswith(lead + "the fields") and "into late time and the reference slopes" in got, (lead, got)
        assert got.endswith(END) and "More text after" not in got


def test_text_beside_a_narrow_float_is_still_not_the_caption(tmp_path, pdflatex):
    # a wrapped figure's one-line caption with the text beside it \columnsep (10 pt) away
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{wrapfig}\n\\begin{document}\n"
           "\\begin{wrapfigure}{l}{0.4\\textwidth}\\centering\\includegraphics[width=0.35\\textwidth]{p.png}\n"
           "\\caption{Growth of $E^{1/2}_p$.}\\label{fig:a}\\end{wrapfigure}\n"
           + "Text set beside the figure runs on in the column. " * 30 + "See Figure~\\ref{fig:a}.\n\\end{document}\n")
    got = caption_read(tmp_path / "wrap", tex, IMAGES)
    assert got.startswith("Growth of") and "Text set beside" not in got, got
