"""A caption line of words in faked small capitals is the caption's, not a line of smaller type.

Times as the `times` package (and most conference styles) load it has no small capitals of its
own: \\textsc prints each word's first capital at the text's size and its other letters as
capitals about a fifth smaller. A caption's later line that lists several such words (names of
games, data sets, methods) holds more characters of the smaller size, and the PDF route read it
as a line set two points smaller, not the caption's: the caption ended a line early. Now the
caption's size is measured with faked small capitals counted at their words' size.
"""

from __future__ import annotations

from figlint.ingest import load
from fixtures.pdf_build import compile_tex

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}
TEXT = "The counts rise over the season in every plot of the survey. "
NAMES = ("Freeway", "Hero", "Breakout", "Space Invaders", "Seaquest", "Asterix", "Pong", "Montezuma Revenge")


def _paper() -> str:
    names = ", ".join(f"\\textsc{{{n}}}" for n in NAMES[:-1]) + f", and \\textsc{{{NAMES[-1]}}}"
    return ("\\documentclass{article}\n\\usepackage{times}\n\\usepackage{graphicx}\n\\begin{document}\n"
            + TEXT * 3 + "Figure~\\ref{fig:a} shows the modes.\n"
            + "\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\textwidth]{p.png}\n"
            + "\\caption{Each column shows the variation between two selected modes of each game. "
            + f"From left to right: {names}.}}\\label{{fig:a}}\n\\end{{figure}}\n"
            + TEXT * 6 + "\n\\end{document}\n")


def test_faked_small_caps_line_continues_the_caption(tmp_path, pdflatex):
    pdf = compile_tex(tmp_path, _paper(), IMAGES)
    paper = load(pdf)
    assert [f.number for f in paper.figures] == ["1"]
    caption = paper.figures[0].caption
    assert caption is not None
    # the last two lines are mostly the smaller capitals: all of them belong to the caption
    assert caption.text.endswith("PONG, and MONTEZUMA REVENGE."), caption.text
    assert "The counts rise" not in caption.text
