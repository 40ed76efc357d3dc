"""What a \\label inside a figure environment names, as pdflatex's own .aux records it.

LaTeX binds a \\label to the last counter stepped in its group. Before a figure's caption that
is the section (label-before-caption, FL306), but a figure environment also holds things that
step counters of their own: the items of a numbered list, the plots of a pgfplots axis (a label
after \\addplot names that plot, for a legend typed in a table), a table captioned with
\\captionof{table}, the lines of a pseudo-code listing. Labels on those are what the author
meant, and a label given again after the caption is the later one for LaTeX. The sources must
print what LaTeX prints, and FL306 must report only a misplaced label a reference uses.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest.texscan import scan_document
from figlint.ingest.texsource import load_document

PRE = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{caption}\n\\usepackage{pgfplots}\n"
       "\\pgfplotsset{compat=1.17}\n")
CAP = "Accuracy of the two models over ten training epochs, with the split used."

# a figure with a numbered list, a pgfplots axis with labelled plots, a table captioned inside
# it, and a label given twice (before and after the caption); then a table of the usual kind
BODY = r"""\section{Setup}
Filler text for the setup section.
\section{Results}
Step~\ref{it:second} of the list, the marker \ref{pl:base} of the baseline, Table~\ref{tab:split},
Figure~\ref{fig:twice} and Table~\ref{tab:later} are all cited here.
\begin{figure}[h]
\label{fig:twice}
\begin{minipage}{0.45\linewidth}
\captionof{table}{The split of the data.}\label{tab:split}
\begin{tabular}{ll}a & b\\\end{tabular}
\end{minipage}
\begin{enumerate}\item first step \item second step\label{it:second}\end{enumerate}
\begin{tikzpicture}\begin{axis}[width=4cm]
\addplot coordinates {(0,0) (1,1)};\label{pl:base}
\addplot coordinates {(0,1) (1,0)};\label{pl:ours}
\end{axis}\end{tikzpicture}
\caption{CAPTION}\label{fig:twice}
\end{figure}
\begin{table}[h]\centering\begin{tabular}{ll}c & d\\\end{tabular}\caption{Later results.}\label{tab:later}\end{table}
""".replace("CAPTION", CAP)

LABELS = ("it:second", "tab:split", "fig:twice", "tab:later")


def _codes(path, **options):
    res = lint_path(str(path), Config(select=["ALL"], options=options))
    assert res.error is None, res.error
    return [f for f in res.findings if f.code == "FL306"]


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")
def test_labels_in_a_figure_print_what_latex_prints(tmp_path):
    (tmp_path / "main.tex").write_text(PRE + "\\begin{document}\n" + BODY + "\\end{document}\n")
    # read before any .aux exists: the last definition of each label, as LaTeX keeps it
    ours = {lab.name: lab for lab in scan_document(load_document(str(tmp_path / "main.tex"), str(tmp_path))).labels}
    assert not _codes(tmp_path / "main.tex", **{"unreferenced-labels": True})
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=tmp_path, capture_output=True,
                       timeout=180)
    aux = (tmp_path / "main.aux").read_text()
    printed = dict(re.findall(r"\\newlabel\{([\w:]+)\}\{\{([^{}]*)\}", aux))
    assert {k: printed.get(k) for k in LABELS} == {"it:second": "2", "tab:split": "1", "fig:twice": "1",
                                                   "tab:later": "2"}
    # the tables' numbers and the figure's as printed; the item and the plots named as such
    assert {k: ours[k].printed for k in ("tab:split", "fig:twice", "tab:later")} == \
        {k: printed[k] for k in ("tab:split", "fig:twice", "tab:later")}
    assert {ours[k].kind for k in ("it:second", "pl:base", "pl:ours")} == {"other"}


def _write(tmp_path, body: str, pre: str = "") -> None:
    (tmp_path / "plot.pdf").write_bytes(b"%PDF-1.4\n")
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\usepackage{graphicx}\n" + pre
                                       + "\\begin{document}\n\\section{Results}\n" + body + "\\end{document}\n")


def test_line_labels_of_pseudo_code_in_a_figure_are_not_misplaced(tmp_path):
    _write(tmp_path, "Line~\\ref{line:init} sets up the table; Figure~\\ref{fig:alg} lists it all.\n"
           "\\begin{figure}[t]\n\\begin{algorithmic}[1]\n\\State initialise \\label{line:init}\n"
           "\\State repeat\n\\end{algorithmic}\n\\caption{" + CAP + "}\\label{fig:alg}\n\\end{figure}\n",
           "\\usepackage{algpseudocode}\n")
    assert not _codes(tmp_path / "main.tex", **{"unreferenced-labels": True})


def test_a_misplaced_label_is_reported_only_when_a_reference_uses_it(tmp_path):
    fig = ("\\begin{figure}[t]\n\\label{fig:%s}\n\\includegraphics{plot.pdf}\n\\caption{" + CAP + "}\n"
           "\\end{figure}\n")
    _write(tmp_path, "Figure~\\ref{fig:used} shows it.\n" + fig % "used" + fig % "latent")
    default = _codes(tmp_path / "main.tex")
    assert [f.evidence["label"] for f in default] == ["fig:used"]
    assert default[0].evidence["references"] == 1 and default[0].evidence["prints"] == "1"
    everything = _codes(tmp_path / "main.tex", **{"unreferenced-labels": True})
    assert [f.evidence["label"] for f in everything] == ["fig:used", "fig:latent"]
    assert everything[1].evidence["references"] == 0
