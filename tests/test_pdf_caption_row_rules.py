"""PDF route: a rule that a formula sets in a caption's row does not end the caption.

A radical's overbar, an \\overline and a fraction's bar are rules in the PDF, like a table's top
rule or a footnote rule. One set over a caption row's formula can lie in the white between
that row and the row above it (a wide radicand's bar stands above the row's letters), where
the stop for "a rule between the caption's last row and the next line" read it as the end of
the caption (issue 12: a caption cut at an inline square root). Such a rule lies in the row's
own height, over the row's glyphs from end to end, short of the measure; a separator (a
table's rule, reaching past its cells' text by the column padding; a rule across the float)
still ends the caption.
"""

from __future__ import annotations

from fixtures.pdf_build import caption_read

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}
AFTER = "More text after the figure closes the section on the ensemble. "
END = "Last words here."
# wide formulas: a rule shorter than four letters is no stop in any case
ROOT = "$V_0=\\sqrt{a\\beta\\gamma/\\rho R_0 b}$"
FRAC = "$\\textstyle\\frac{a+b+c+d}{\\alpha\\beta\\gamma\\delta}$"
BAR = "$\\overline{x+y+z+w}$ and $\\overline{XYZW}$"


def _paper(caption: str, under: str = "") -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            + "Some text before the figure. " * 40 + "See Figure~\\ref{fig:a}.\n"
            + "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{p.png}\n"
            + f"\\caption{{{caption}}}\\label{{fig:a}}\n{under}\\end{{figure}}\n" + AFTER * 30 + "\n\\end{document}\n")


def _caption(folder, tex: str) -> str:
    return caption_read(folder, tex, IMAGES)


def _text(formula: str, shift: int) -> str:
    # the words before the formula move it along the rows: on the second row, or the third
    return ("Short words " * shift + "The shaded band marks the spread of the ensemble around its mean for each "
            f"month, scaled with {formula} that the model sets for every run of the record. Then the "
            f"ensemble spread follows the mean closely. {END}")


def test_a_formula_rule_in_a_caption_row_does_not_end_the_caption(tmp_path):
    for name, formula in (("root", ROOT), ("frac", FRAC), ("bar", BAR)):
        for shift in (0, 3):
            got = _caption(tmp_path / f"{name}{shift}", _paper(_text(formula, shift)))
            assert got.startswith("Short words " * shift + "The shaded band") and got.endswith(END), (name, shift, got)
            assert "More text after" not in got


def test_a_rule_under_a_caption_ending_in_a_formula_still_ends_it(tmp_path):
    # a table whose top rule spans its cells' text and padding, then a rule across the float
    # over a note set at the caption's size: neither is read into the caption
    cap = ("The shaded band marks the spread of the ensemble around its mean for each month of "
           f"the record, scaled with the speed {ROOT} and the mean {BAR} of the runs. {END}")
    table = ("\\begin{tabular}{lll}\\hline\nModel & Accuracy & Train time\\\\\\hline\n"
             "First model here & 0.965 & 35 hours\\\\\\hline\\end{tabular}\n")
    got = _caption(tmp_path / "table", _paper(cap, table))
    assert got.startswith("The shaded band") and got.endswith(END) and "Accuracy" not in got
    note = "\\par\\vspace{2pt}\\hrule\\vspace{2pt}A note on the runs under the rule set in the float.\n"
    got = _caption(tmp_path / "note", _paper(cap, note))
    assert got.startswith("The shaded band") and got.endswith(END) and "note on the runs" not in got
