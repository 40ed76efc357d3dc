"""PDF route: a caption whose first line carries superscripts (isotopes, "${}^{10}$Be$^*$") after a
label set apart by a wide space (iopart's, or the caption package's labelsep=quad).

MuPDF gives the label a line of its own, and the raised superscripts lift the top of the rest of
the row above the label's top: read in the order of their tops, the rest came first and the
label second, so the row was not joined and the caption was read from its second line on (the
field audit's iopart paper). Pieces on one baseline join as pieces in order do.
"""

from __future__ import annotations

from fixtures.pdf_build import compile_tex

TEX = r"""\documentclass[10pt]{article}
\usepackage{graphicx}
\usepackage[labelsep=quad,font=small,labelfont=bf]{caption}
\begin{document}
Some body text that says what the paper is about and goes on for a while here. See Figure~\ref{fig:a}.
\begin{figure}[h]
\centering\rule{5cm}{3cm}
\caption{\label{fig:a}Differential cross sections for the ${}^9$Be($d,p$)${}^{10}$Be$^*$ reactions at 19.5 MeV
leading to different final states in ${}^{10}$Be, shown against theoretical results of the method.}
\end{figure}
More body text.
\end{document}
"""


def test_a_caption_s_first_line_raised_by_superscripts_stays_with_its_label(tmp_path, pdflatex):
    from figlint.ingest.pdf import read_pdf

    pdf = compile_tex(tmp_path, TEX)
    figs = read_pdf(pdf).figures
    assert [f.number for f in figs] == ["1"]
    assert figs[0].caption.text.startswith("Differential cross sections for the 9Be")
