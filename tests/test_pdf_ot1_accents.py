"""PDF route: accented letters set in an OT1 font read as the letters the page shows.

LaTeX's default font encoding (OT1, no \\usepackage[T1]{fontenc}) has no accented letters: `\\"u`
is the accent glyph set over the letter, and MuPDF reads it as a spacing accent before the letter
("f¨ur", "Brunt-V¨ais¨al¨a", "Rodr´ıguez"). Captions and citing sentences then differed from the
sources route's ("für") in every paper that names a person or a place with an accent. The accent
and the letter are composed where Unicode has the accented letter.
"""

from __future__ import annotations

import pytest

from figlint.ingest import load
from fixtures.pdf_build import compile_tex

CAPTION = ("Squared Brunt-V\\\"ais\\\"al\\\"a frequency after Rodr\\'{\\i}guez and Poincar\\'e, "
           "with the na\\\"{\\i}ve \\c{c}a\\~no fit.")
CITE = "As Schr\\\"odinger noted, Figure~\\ref{fig:a} shows the frequency f\\\"ur alle L\\\"aufe."


@pytest.mark.parametrize("encoding", ["", "\\usepackage[T1]{fontenc}\n"])
def test_accents_of_an_ot1_font_read_as_accented_letters(tmp_path, pdflatex, encoding):
    tex = ("\\documentclass{article}\n" + encoding + "\\begin{document}\n" + CITE + "\n"
           "\\begin{figure}[h]\\centering\\rule{4cm}{2cm}\\caption{" + CAPTION + "}\\label{fig:a}\\end{figure}\n"
           "\\end{document}\n")
    pdf = compile_tex(tmp_path, tex)
    want_cap = "Squared Brunt-Väisälä frequency after Rodríguez and Poincaré, with the naïve çaño fit."
    want_site = "As Schrödinger noted, Figure 1 shows the frequency für alle Läufe."
    for paper in (load(pdf), load(str(tmp_path / "main.tex"), pdf=pdf)):
        (fig,) = paper.figures
        assert fig.caption.text == want_cap, fig.caption.text
        assert [s.sentence for s in fig.sites] == [want_site], [s.sentence for s in fig.sites]
