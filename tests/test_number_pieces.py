"""Numbers printed from several fonts are read whole, on every route.

LaTeX sets a number in math mode from several fonts (the minus sign from the symbol font,
the digits from the roman one, the decimal point from the italic one), and the PDF lists
each font's glyphs as a span of its own: pgfplots' "-0.5" is the spans "-", "0", ".", "5",
and its 10^-5 an exponent "-" and "5" apart. Read apart, the signs were lost: an ordinary
downward-running negative axis (0 at the top, -1 at the bottom) read as 0, 0.5, 1 growing
downward (a false FL403), and a log axis 10^1 .. 10^-8 as the labels 1, 2, 5, 8. An EPS
figure converted with its minus glyphs as image masks prints the sign as a thin image.

The figures are compiled here with pdflatex (a standalone figure, then a paper that
includes it) and read as the file alone, from the paper's PDF and from its sources.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from figlint.model import TextSpan
from tests.fixtures.pdf_build import compile_tex

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")

PGF = r"""\documentclass[border=3pt]{standalone}
\usepackage{pgfplots}
\pgfplotsset{compat=1.17}
\begin{document}
\begin{tikzpicture}
\begin{axis}[width=6cm, height=5cm, ylabel={Change}, xlabel={Step}]
\addplot coordinates {(0,-1.5) (1,-0.9) (2,-0.4) (3,0)};
\end{axis}
\end{tikzpicture}
\begin{tikzpicture}
\begin{semilogyaxis}[width=6cm, height=5cm, ylabel={Residual}, xlabel={Iteration}, ytick={1e-8,1e-6,1e-4,1e-2,1}]
\addplot coordinates {(0,10) (1,1e-2) (2,1e-5) (3,1e-8)};
\end{semilogyaxis}
\end{tikzpicture}
\end{document}
"""

# a hand-drawn axis whose minus signs are thin images (as an EPS conversion leaves them)
IMAGE_MINUS = r"""\documentclass[border=3pt]{standalone}
\usepackage{tikz,graphicx}
\newcommand\m{\raisebox{2.4pt}{\includegraphics[width=4.6pt,height=0.6pt]{bar.png}}}
\begin{document}
\begin{tikzpicture}[x=1cm,y=0.8cm]
\draw (0,0) -- (0,5) (0,0) -- (5,0);
\foreach \y/\t in {5/0.0,4/\m0.2,3/\m0.4,2/\m0.6,1/\m0.8,0/\m1.0}
  {\draw (0,\y) -- (-0.1,\y) node[left,font=\small] {\t};}
\foreach \x in {0,1,2,3,4,5} {\draw (\x,0) -- (\x,-0.1) node[below,font=\small] {\x};}
\draw[thick] (0,5) -- (1,3.2) -- (2,2.5) -- (3,1.4) -- (4,1.1) -- (5,0.4);
\node[rotate=90] at (-1.1,2.5) {Position};
\node at (2.5,-1) {Time};
\end{tikzpicture}
\end{document}
"""

PAPER = r"""\documentclass{article}
\usepackage{graphicx}
\begin{document}
Some text before the figure, which Figure~\ref{fig:p} shows.
\begin{figure}[h]
\centering
\includegraphics[width=0.9\linewidth]{plot.pdf}
\caption{Two panels of a made-up result.}\label{fig:p}
\end{figure}
\end{document}
"""


def _build(tmp_path: Path, figure_tex: str, images: dict | None = None) -> tuple[str, str, str]:
    """(the figure file, the paper's PDF, the paper's main .tex)."""
    fig_dir = tmp_path / "fig"
    fig_dir.mkdir()
    fig = compile_tex(fig_dir, figure_tex, images=images, runs=1)
    paper_dir = tmp_path / "paper"
    paper_dir.mkdir()
    shutil.copy(fig, paper_dir / "plot.pdf")
    pdf = compile_tex(paper_dir, PAPER)
    return str(paper_dir / "plot.pdf"), pdf, str(paper_dir / "main.tex")


def _axes(path: str, pdf: str | None = None) -> list[tuple[str, list[str], bool, str]]:
    from figlint.features import analyses
    from figlint.ingest import load

    paper = load(path, pdf=pdf)
    out = []
    for fig in paper.figures:
        for an in analyses(fig, paper):
            out += [(ax.orient, [t.text for t in ax.ticks], ax.inverted, ax.scale) for ax in an.axes]
    return sorted(out)


def _findings(path: str) -> list[str]:
    r = subprocess.run(["python", "-m", "figlint", path, "--preview", "--no-cache", "--format", "json"],
                       capture_output=True, text=True, timeout=300)
    import json

    return [f["code"] for p in json.loads(r.stdout)["papers"] for f in p["findings"]]


def test_signed_decimals_and_negative_exponents_read_whole(tmp_path):
    fig, pdf, tex = _build(tmp_path, PGF)
    axes = _axes(fig)
    ys = [a for a in axes if a[0] == "y"]
    linear = [a for a in ys if a[3] == "linear"]
    log = [a for a in ys if a[3] == "log"]
    assert linear and all(t.startswith("\u2212") or t == "0" for t in linear[0][1]), ys
    assert "\u22120.5" in linear[0][1] and not linear[0][2], ys
    assert log and any(t.startswith("10^-") for t in log[0][1]) and not log[0][2], ys
    # the same reading from the paper's PDF and from its sources with that PDF
    assert _axes(pdf) == axes
    assert _axes(tex, pdf) == axes
    assert "FL403" not in _findings(fig) + _findings(pdf)


def test_a_minus_sign_printed_as_a_thin_image(tmp_path):
    fig, pdf, tex = _build(tmp_path, IMAGE_MINUS, images={"bar.png": ((36, 6), (0, 0, 0))})
    axes = _axes(fig)
    ys = [a for a in axes if a[0] == "y"]
    assert ys and ys[0][1][:2] == ["0.0", "\u22120.2"] and not ys[0][2], axes
    assert _axes(pdf) == axes
    assert "FL403" not in _findings(fig) + _findings(pdf)


def _span(text: str, x0: float, x1: float, size: float = 8.0, base: float = 100.0) -> TextSpan:
    return TextSpan(text=text, size=size, bbox=(x0, base - 0.9 * size, x1, base + 0.25 * size))


def test_only_abutting_number_pieces_join():
    from figlint.features.vector import _joined_numbers

    def texts(spans):
        return sorted(s.text for s in _joined_numbers(spans))

    # sign, digit, point, digit abutting: one number
    assert texts([_span("\u2212", 10, 16), _span("0", 16, 20), _span(".", 20, 22), _span("5", 22, 26)]) == ["\u22120.5"]
    # two labels a space apart stay two labels
    assert texts([_span("12", 10, 18), _span("34", 21, 29)]) == ["12", "34"]
    # a dash beside a word, or after a number, is not a sign of it
    assert texts([_span("\u2212", 10, 16), _span("width", 16, 36)]) == ["width", "\u2212"]
    assert texts([_span("5", 10, 14), _span("\u2212", 14, 20)]) == ["5", "\u2212"]
    # pieces of another size or on another line do not join (an exponent is not a digit of its base)
    assert texts([_span("10", 10, 18), _span("\u2212", 18, 22, size=5.6, base=97)]) == ["10", "\u2212"]
    assert texts([_span("1", 10, 14), _span("2", 14, 18, base=112)]) == ["1", "2"]
