"""Caption rules read English words: a caption in another script is not judged by them.

A Greek thesis's captions (xgreek) gave FL202 "too short to stand alone" on every figure:
the rule's word pattern found no words at all in Greek text (field audit, 8 false findings).
FL202 and FL204 leave a caption written mostly in another script than Latin alone, while a
short English caption, and an English one with Greek symbols in it, are still judged.
Sources-only route, nothing compiled.
"""

from __future__ import annotations

from figlint.config import Config
from figlint.engine import lint_path
from figlint.text import latin_script

FIG = "\\begin{figure}\\centering\\includegraphics{plot.png}\\caption{%s}\\label{fig:%s}\\end{figure}\n"


def test_latin_script():
    assert latin_script("Mesh of the problem with μ = 3 and α = 0.5")
    assert latin_script("Schéma de l'expérience, vue de dessus")
    assert not latin_script("Το υπολογιστικό πλέγμα με μ = 3")
    assert not latin_script("Схема установки")


def test_fl202_leaves_captions_in_another_script_alone(tmp_path):
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "Figure~\\ref{fig:a}, Figure~\\ref{fig:b} and Figure~\\ref{fig:c}.\n"
        + FIG % ("Αποτελέσματα.", "a") + FIG % ("Overview.", "b")
        + FIG % ("Growth rate $\\gamma$ of the mode against wave number.", "c")
        + "\\end{document}\n")
    found = [(f.figure, f.code) for f in lint_path(str(tmp_path / "main.tex"), Config()).findings if f.code == "FL202"]
    assert found == [("2", "FL202")]
