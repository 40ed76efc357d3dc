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


def _long_sub(k: int, letter: str) -> str:
    return (f"\\par\\medskip\\includegraphics[width=0.9\\textwidth,height=2.5cm]{{p{k}.png}}\\par\\smallskip\n"
            f"\\noindent\\normalsize ({letter}) Panel {letter}. " + "The offspring group begins as one cell at the edge of "
            "the parent group and then grows into it over the following updates, " * 3 + "\n")


def test_sub_caption_paragraphs_between_rows_of_panels_stay_in_the_figure(tmp_path, pdflatex):
    """Sub-captions written as paragraphs of their own (several full-width lines in the body's
    size under each row of panels): the lines that go on from a panel letter's line are the
    sub-caption's too (field audit: a Frontiers paper's time-lapse figure split into four
    captionless rows)."""
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n" + PARA + "\n\n"
           "\\begin{figure}[p]\\centering\n" + _long_sub(0, "A") + _long_sub(1, "B") + _long_sub(2, "C")
           + "\\caption{Time lapse of the three life histories.}\\label{fig:a}\\end{figure}\n\n"
           "Figure~\\ref{fig:a} shows them. " + PARA + "\n\\end{document}\n")
    paper = read_pdf(compile_tex(tmp_path, tex, IMAGES))
    assert [f.number for f in paper.figures] == ["1"], [(f.number, f.page, f.bbox) for f in paper.figures]


def test_a_listing_row_with_one_tall_glyph_keeps_its_place_on_the_grid():
    """A line-break arrow of another font gives its line a box four rows tall: the row is read
    where the line's letters stand (its bottom), so the listing's rows stay on one grid."""
    from figlint.ingest.pdf_layout import Line
    from figlint.ingest.pdf_regions import _set_text

    def line(y: float, x: float = 80.0, tall: float = 0.0) -> Line:
        return Line(page=0, bbox=(x, y - tall, 300.0, y + 10.0), text="code = value + 1", spans=[],
                    size=10.0, font="Courier", bold=False, block=0)

    rows = [line(100 + 12 * k) for k in range(8)]
    assert _set_text((70.0, 95.0, 320.0, 200.0), rows)
    rows[3] = line(136, x=95.0, tall=40.0)  # "↪ rest of a broken line", its arrow's box 50 pt tall
    assert _set_text((70.0, 95.0, 320.0, 200.0), rows)
