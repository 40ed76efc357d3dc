"""PDF route: figures numbered with a letter glued to the number ("Figure 6.3a:", "Figure 6.3b:",
one figure continued over two pages in a thesis), and a note typed under a plot that reads like
such a label ("Figure 2a:") in a paper that has a Figure 2.

The label's number was read without its letter, so neither figure was found, the text's
"Figure 1b" bound to no figure, and the gap between the figures around them was filled with an
uncaptioned graphic numbered 1. A lettered label is a figure's only where the paper has no
figure of the bare number; a mention's letter then names that figure, not a panel.
"""

from __future__ import annotations

TEX = r"""\documentclass{article}
\begin{document}
Some text before the figures says what they are about, as Figure~\ref{fig:b} shows for the second part.
\begin{figure}[h]\centering\rule{5cm}{2cm}
\renewcommand{\thefigure}{1a}\caption{The first part of a figure continued.}\label{fig:a}\end{figure}
\begin{figure}[h]\centering\rule{5cm}{2cm}
\addtocounter{figure}{-1}\renewcommand{\thefigure}{1b}\caption{The second part of that figure.}\label{fig:b}
\end{figure}
\begin{figure}[h]\centering\rule{5cm}{2cm}\par
Figure 2a: a note typed under the plot.\par
\caption{Another figure.}\label{fig:c}\end{figure}
And Figure~\ref{fig:c} is another one.
\end{document}
"""


def test_lettered_figure_numbers_are_figures_of_their_own(tmp_path, pdflatex):
    from figlint.ingest.pdf import read_pdf
    from fixtures.pdf_build import compile_tex

    paper = read_pdf(compile_tex(tmp_path, TEX))
    numbered = {f.number: f for f in paper.figures if f.number}
    assert sorted(numbered) == ["1a", "1b", "2"]
    assert [s.mention for s in numbered["1b"].sites] == ["Figure 1b"]
    assert numbered["1a"].sites == []
    assert "And Figure 2 is another one." in [s.sentence for s in numbered["2"].sites]
