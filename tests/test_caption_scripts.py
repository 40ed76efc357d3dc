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


def test_fl302_leaves_citing_sentences_in_another_script_alone(tmp_path):
    # a bare pointer in English is reported; the same pointer in Russian is not judged
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "The results are shown in Figure~\\ref{fig:a}.\n\nРезультаты показаны на рис.~\\ref{fig:b}.\n"
        + FIG % ("Growth rate of the mode against wave number for three plasmas.", "a")
        + FIG % ("Growth rate of the mode against wave number for three plasmas.", "b")
        + "\\end{document}\n")
    found = [(f.figure, f.code) for f in lint_path(str(tmp_path / "main.tex"), Config(preview=True)).findings
             if f.code == "FL302"]
    assert found == [("1", "FL302")]


def test_sentences_in_other_scripts_split_where_they_end():
    from figlint.mentions import sentence_spans

    def split(t):
        return [t[a:b].strip() for a, b in sentence_spans(t)]

    # a capital of another script starts a sentence; "рис." and "см." are abbreviations
    assert split("Это показано на рис. 2. Далее см. рис. 3 и табл. 1.") == \
        ["Это показано на рис. 2.", "Далее см. рис. 3 и табл. 1."]
    assert split("Όπως στο Σχ. 4. Το πλέγμα.") == ["Όπως στο Σχ. 4.", "Το πλέγμα."]
    # a Greek letter ending a sentence is no initial; a Latin one still is
    assert split("with parameter α. The next one.") == ["with parameter α.", "The next one."]
    assert split("J. Smith said so. Next.") == ["J. Smith said so.", "Next."]
