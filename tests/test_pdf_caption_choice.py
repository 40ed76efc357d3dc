"""PDF route: which printed "Figure N:" is the figure's caption.

An appendix may open its paragraphs with run-in headings that name a figure,
`\\paragraph{\\autoref{fig:x}: Excess error.}`, printed bold as "Figure 3: Excess error." with the
text running on. Read as a caption candidate it outscored the real caption (a bold label before
regular type), so the figure's graphic was left captionless (false FL201) and the sources' figure
was placed on the appendix page (false FL303, FL008). A caption set right at an included graphic
is now preferred to one set apart from any (field audit audit25a: 8 false findings on one paper).
"""

from __future__ import annotations

from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_tex

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}
TEXT = "The estimator's error falls as the sample grows in every setting we tried. "


def test_a_run_in_heading_naming_a_figure_is_not_its_caption(tmp_path):
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{hyperref}\n\\begin{document}\n"
           + TEXT * 10 + "See \\autoref{fig:err}.\n"
           + "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{p.png}\n"
           + "\\caption{Excess generalization error against the sample size.}\\label{fig:err}\n\\end{figure}\n"
           + TEXT * 30 + "\n\\clearpage\n\\appendix\n\\section{More on the experiments}\n"
           + "\\paragraph{\\autoref{fig:err}: Excess error.} " + TEXT * 6 + "\n\\end{document}\n")
    pdf = compile_tex(tmp_path, tex, IMAGES)
    figs = [f for f in read_pdf(pdf).figures if f.number]
    assert [f.number for f in figs] == ["1"]
    assert figs[0].page == 1 and figs[0].bbox is not None
    assert figs[0].caption.text.startswith("Excess generalization error against")
