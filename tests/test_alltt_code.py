"""Sources route: knitr's highlighted code (an alltt environment) is code, not text.

alltt keeps \\, { and } but makes % an ordinary character, so an R operator `%in%` inside it
is no comment; and an R variable named `fig3A` is no hard-coded mention of Figure 3. Field
audit (a knitr manuscript): 2 false FL006 (a brace read as commented out) and 6 false FL305.
"""

from __future__ import annotations

from figlint.ingest.latex import read_latex


def test_knitr_code_is_neither_comment_nor_citation(tmp_path):
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{alltt}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "\\begin{figure}\\includegraphics{a.png}\\caption{One.}\\label{fig:a}\\end{figure}\n"
        "\\begin{figure}\\includegraphics{a.png}\\caption{Two.}\\label{fig:b}\\end{figure}\n"
        "\\begin{figure}\\includegraphics{a.png}\\caption{Three.}\\label{fig:c}\\end{figure}\n"
        "See Figures~\\ref{fig:a}, \\ref{fig:b} and \\ref{fig:c}.\n"
        "\\begin{alltt}\n\\hlstd{fig3A} \\hlkwb{<-} \\hlstd{dt[t} \\hlopt{%between%} \\hlkwd{days}\\hlstd{(}\\hlnum{2}\\hlstd{)]}\n"
        "\\end{alltt}\nText after the code.\n\\end{document}\n")
    paper = read_latex(str(tmp_path / "main.tex"))
    assert not [p for p in paper.problems if p.code == "FL006"], [p.message for p in paper.problems]
    assert not paper.extra.get("hardcoded")
    assert [f.number for f in paper.figures] == ["1", "2", "3"]
