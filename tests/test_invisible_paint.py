"""Paint at opacity 0 leaves no mark, and figlint reads none: a filled cell or a stroke drawn
with alpha 0 (a table's cells given a colour and made transparent, a hit area) is not a bar, a
swatch or a line. Compiled with pdflatex (TikZ opacity), read as a figure file and inside a
paper, the same drawings each way; the visible twin of each path is read (the negative case)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from figlint.ingest.graphics import read_graphics
from figlint.ingest.pdf import read_pdf

DRAW = r"""
\begin{tikzpicture}
\fill[blue] (0,0) rectangle (0.5,2);
\fill[red] (1,0) rectangle (1.5,3);
\fill[green, fill opacity=%(op)s] (0,2.5) rectangle (2,3.5);
\draw[black, draw opacity=%(op)s] (0,4) -- (2,4);
\filldraw[fill=orange, fill opacity=%(op)s, draw=black] (2.5,0) rectangle (3,1);
\end{tikzpicture}
"""


def _compile(folder: Path, name: str, src: str) -> Path:
    exe = shutil.which("pdflatex")
    if exe is None:
        pytest.skip("pdflatex not found")
    (folder / f"{name}.tex").write_text(src)
    proc = subprocess.run([exe, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=folder,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:]
    return folder / f"{name}.pdf"


def _marks(drawings) -> list[tuple]:
    """(fill, stroke) of each drawing, in paint order."""
    return [(d.fill, d.stroke) for d in drawings]


@pytest.mark.parametrize("op", ["0", "1"])
def test_paint_at_opacity_zero_is_not_read(tmp_path, op, pdflatex):
    fig = _compile(tmp_path, "fig", "\\documentclass{standalone}\n\\usepackage{tikz}\n\\begin{document}\n"
                   + DRAW % {"op": op} + "\\end{document}\n")
    marks = _marks(read_graphics(str(fig)).figures[0].drawings)
    fills = [f for f, _s in marks if f is not None]
    strokes = [s for _f, s in marks if s is not None]
    assert (0.0, 0.0, 1.0) in fills and (1.0, 0.0, 0.0) in fills  # the bars, always
    if op == "0":
        assert (0.0, 1.0, 0.0) not in fills and (1.0, 0.5, 0.0) not in fills
        assert len(strokes) == 1  # the outlined box keeps its stroke; the invisible line is gone
    else:
        assert (0.0, 1.0, 0.0) in fills and (1.0, 0.5, 0.0) in fills
        assert len(strokes) == 2


def test_invisible_paint_reads_the_same_from_the_paper_and_the_file(tmp_path, pdflatex):
    fig = _compile(tmp_path, "fig", "\\documentclass{standalone}\n\\usepackage{tikz}\n\\begin{document}\n"
                   + DRAW % {"op": "0"} + "\\end{document}\n")
    paper_pdf = _compile(tmp_path, "main", "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
                         "Some text before the figure. See Figure~\\ref{f}.\n"
                         "\\begin{figure}[h]\\centering\\includegraphics{fig.pdf}\n"
                         "\\caption{Two bars.}\\label{f}\\end{figure}\n\\end{document}\n")
    paper = read_pdf(str(paper_pdf))
    assert len(paper.figures) == 1
    in_paper = _marks(paper.figures[0].drawings)
    alone = _marks(read_graphics(str(fig)).figures[0].drawings)
    assert in_paper == alone
