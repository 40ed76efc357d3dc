"""A percent sign made an ordinary character (`\\catcode`\\%=12`) starts no comment: a file name
with a % written between such an assignment and the one that restores comments, or a macro
defined in a group to print one, is LaTeX like any other (field audit: a paper's table
templates switch % off for one \\detokenize'd file name; the reader took the % for a comment,
lost the closing braces after it and reported FL006). Outside those regions % still comments."""

from __future__ import annotations

import subprocess

import pytest

from figlint.ingest.latex import read_latex

PAPER = r"""\documentclass{article}
\usepackage{graphicx}
\begin{document}
Figure~\ref{fig:a} shows the speed of the solver against the baseline over ten runs.
\catcode`\%=12
\newcommand\datafile{\detokenize{runs/a=scaling%20results+nproc=16.csv}}
\catcode`\%=14
{\catcode`\%=12 \gdef\pct{%}}
\begingroup\catcode37=12 \gdef\pcttwo{{%}}\endgroup
The data come from \texttt{\datafile}, 40\pct{} of them from \pcttwo{} runs. % a comment { with a brace
\begin{figure}[h]\centering\includegraphics[width=3cm]{plot.png}
\caption{Speed of the solver against the baseline over ten runs.}\label{fig:a}\end{figure}
\end{document}
"""


@pytest.fixture()
def paper(tmp_path, pdflatex):
    from PIL import Image

    Image.new("RGB", (300, 200), (90, 140, 200)).save(tmp_path / "plot.png")
    (tmp_path / "main.tex").write_text(PAPER)
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:]  # TeX reads it: the braces balance
    return tmp_path / "main.tex"


def test_percent_made_ordinary_is_no_comment(paper):
    doc = read_latex(str(paper))
    assert not [p for p in doc.problems if p.code == "FL006"], doc.problems
    assert [f.number for f in doc.figures] == ["1"]
    assert doc.figure("1").caption.text.startswith("Speed of the solver")


def test_comments_still_comment_outside_those_regions(paper):
    """The same paper with the restoring assignment removed: % stays ordinary to the end, and the
    comment's lone brace (a real one now, to TeX as well) is unbalanced."""
    text = paper.read_text().replace("\\catcode`\\%=14\n", "")
    paper.write_text(text)
    assert [p for p in read_latex(str(paper)).problems if p.code == "FL006"]
    paper.write_text(PAPER.replace("\\catcode`\\%=12\n\\newcommand", "\\newcommand").replace("\\catcode`\\%=14\n", ""))
    assert [p for p in read_latex(str(paper)).problems if p.code == "FL006"]  # the % of the file name comments


# Other ways papers switch % off: LaTeX's \@makeother, a category named by \chardef, and the
# active % matplotlib's PGF backend writes into every text label it exports ("50%" in a tick
# label); each compiles, and each was read as a comment (false FL006, field audit follow-up).
OTHER_FORMS = {
    "makeother": r"\makeatletter{\@makeother\% \gdef\pct{%}}\makeatother",
    "chardef": r"\chardef\other=12 {\catcode`\%=\other \gdef\pct{%}}",
    "pgf-label": r"\def\pct{}{\rmfamily\catcode`\%=\active\def%{\%}50%}",
}


@pytest.mark.parametrize("form", sorted(OTHER_FORMS))
def test_other_ways_of_making_percent_ordinary(tmp_path, pdflatex, form):
    tex = ("\\documentclass{article}\n\\begin{document}\n" + OTHER_FORMS[form]
           + "\nThe share is 40\\pct{} of the runs. % a comment { with a brace\n\\end{document}\n")
    (tmp_path / "main.tex").write_text(tex)
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert not [p for p in read_latex(str(tmp_path / "main.tex")).problems if p.code == "FL006"]
    # the comment after the group still comments: its brace unbalanced would be reported
    (tmp_path / "main.tex").write_text(tex.replace("% a comment {", "{ not closed"))
    assert [p for p in read_latex(str(tmp_path / "main.tex")).problems if p.code == "FL006"]
