"""PDF route: a caption set across two columns ends where the two columns of text under it begin.

Binding against the field papers' .aux (issue 12): an AAS journal's figure* caption read on into
the text under the float, row after row of both columns. The class leaves little white under a
float set across the columns (\\dbltextfloatsep), and the text's first line opened with a tall
symbol ($\\lesssim$) whose box reaches up into that white: the stops that tell a caption's end by
its rhythm (a foot further down than the caption's own pitch and a white wider than its own
between rows) missed by a fraction of a point. The layout tells it whatever the white: a caption
set across the columns never breaks a row at the gutter, and the text under it does, with a line
of the other column beside each line. Compiled with pdflatex; the negative cases keep a caption
set in one column whole beside the other column's text, and the caption above a plain first line
as it was.
"""

from __future__ import annotations

from fixtures.pdf_build import caption_read

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}
BAND = "The shaded band marks the spread of the ensemble around its mean for each month of the record. "
END = "Last words here."
AFTER = "More text after the figure closes the section on the ensemble and its mean. "
TALL = "$\\lesssim$10\\% of the population in any cluster."
PLAIN = "Ten per cent of the population in any cluster."


def _paper(opening: str, env: str = "figure*") -> str:
    # a figure* goes to the next page's top; a column's figure stays here, in the first column
    width, where, before = ("0.7\\textwidth", "t", 100) if env == "figure*" else ("\\linewidth", "h", 30)
    return ("\\documentclass[twocolumn]{article}\n\\usepackage{graphicx,amssymb}\n\\usepackage[font=small]{caption}\n"
            "\\setlength{\\dbltextfloatsep}{3pt}\n\\begin{document}\n" + "Some text before the figure. " * before
            + "See Figure~\\ref{fig:a}.\n"
            + f"\\begin{{{env}}}[{where}]\\centering\\includegraphics[width={width}]{{p.png}}\n"
            + f"\\caption{{\\textbf{{Potential impact of the binaries.}} {BAND * 4}{END}}}\\label{{fig:a}}\n\\end{{{env}}}\n"
            + f"\\newpage\\noindent {opening} " + AFTER * 40 + "\n\\end{document}\n")


def test_a_spanning_caption_ends_over_the_two_columns_of_text(tmp_path):
    got = caption_read(tmp_path / "tall", _paper(TALL), IMAGES)
    assert got.endswith(END) and got.count("The shaded band") == 4, got
    assert "population" not in got and "More text" not in got


def test_captions_beside_or_above_the_text_read_as_before(tmp_path):
    # the same caption over a plain first line, and a caption set in one column with the other
    # column's text beside every row of it: whole, and no further
    got = caption_read(tmp_path / "plain", _paper(PLAIN), IMAGES)
    assert got.endswith(END) and got.count("The shaded band") == 4 and "population" not in got
    got = caption_read(tmp_path / "column", _paper(TALL, env="figure"), IMAGES)
    assert got.startswith("Potential impact") and got.count("The shaded band") == 4 and got.endswith(END), got
