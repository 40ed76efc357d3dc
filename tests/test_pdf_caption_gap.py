"""PDF route: a caption ends where the white under its last row grows wider than its own.

Binding against the field papers' .aux (issue 12) found captions read on into what LaTeX set a
few points under them, closer than the allowance a double-spaced caption needs (`lead`):
- a full-width caption (figure*) over two columns of text set a small \\textfloatsep below it
  took in both columns' lines, the left column's starting where the caption starts;
- a note set in the float under its caption, a few points down, was read as its last line.
The caption's own first two rows give its pitch and the white between its rows: a line whose
foot stands past that pitch with a wider white above it is not the caption's. Negative: a tall
formula in a caption's row pushes that row down as far, but TeX sets it \\lineskip apart, so the
white above it stays narrow and the caption reads on.
"""

from __future__ import annotations

from fixtures.pdf_build import caption_read

IMAGES = {"p.png": ((300, 120), (90, 140, 200))}
BAND = "The shaded band marks the spread of the ensemble around its mean for every month of the record. "
AFTER = "More text after the figure closes the section on the ensemble and goes on. "
END = "Last words here."


def _caption(folder, tex: str) -> str:
    return caption_read(folder, tex, IMAGES)


def _wide(caption: str, after_caption: str = "", gap: str = "3pt") -> str:
    return ("\\documentclass[twocolumn]{article}\n\\usepackage{graphicx}\n\\usepackage{amsmath}\n"
            f"\\setlength{{\\dbltextfloatsep}}{{{gap}}}\n\\begin{{document}}\n"
            "\\begin{figure*}[t]\\centering\\includegraphics[width=0.6\\textwidth]{p.png}\n"
            f"\\caption{{\\small {caption}}}\\label{{fig:a}}{after_caption}\n\\end{{figure*}}\n"
            "See Figure~\\ref{fig:a}. " + AFTER * 200 + "\n\\end{document}\n")


def test_two_columns_of_text_close_under_a_full_width_caption_are_not_the_caption(tmp_path, pdflatex):
    got = _caption(tmp_path / "a", _wide(BAND * 3 + END))
    assert got.endswith(END) and "More text" not in got, got


def test_a_note_a_few_points_under_the_caption_in_its_float_is_not_the_caption(tmp_path, pdflatex):
    note = "\\par\\vspace{3pt}{\\small " + "This note replaces the earlier version of the figure in the draft. " * 2 + "\\par}"
    got = _caption(tmp_path / "a", _wide(BAND * 3 + END, note, gap="20pt"))
    assert got.endswith(END) and "This note" not in got, got


def test_a_tall_formula_in_a_caption_row_does_not_end_the_caption(tmp_path, pdflatex):
    tall = ("the ratio $\\dfrac{\\sum_{i} a_i}{\\sum_{j} b_j}$ of the two sums is shown for every month. ")
    got = _caption(tmp_path / "a", _wide(BAND * 4 + tall + BAND * 2 + END))
    assert got.endswith(END) and "More text" not in got, got
