"""Graphics the template sets are not figures (issue 12: what is and is not a figure).

A journal's masthead logo above the title, a side panel of article data drawn as an image, a
thesis title page's crest, an emblem in every page's running head: the PDF route read each as a
figure without a caption (FL201, false on five field-audit papers: Elsevier Procedia, RSC, two
university theses, a biochemistry assignment's seal). A captionless graphic in the running text
is still reported (the negative case). Compiled with pdflatex.
"""

from __future__ import annotations


import pytest

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_tex

IMAGES = {"logo.png": ((300, 200), (90, 140, 200)), "plot.png": ((400, 300), (200, 120, 60))}


def _compile(folder, tex: str) -> str:
    return compile_tex(folder, tex, IMAGES)

PARA = ("The measurements were repeated on every run with the same window and the same filter, "
        "and the results of each run were written to a separate file for later analysis. ") * 4


def _article(inline_plot: bool) -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{fancyhdr}\n"
            "\\pagestyle{fancy}\\fancyhead[R]{\\includegraphics[height=0.9cm]{logo.png}}\n"
            "\\setlength{\\headheight}{30pt}\n\\begin{document}\n\\thispagestyle{fancy}\n"
            "\\noindent\\includegraphics[width=3.5cm]{logo.png}\\hfill\\includegraphics[width=3.5cm]{logo.png}\n\n"
            "\\begin{center}{\\LARGE A Study of Repeated Measurements}\\\\[1ex] A. Author\\end{center}\n"
            "\\section{Introduction}\n" + PARA + "\n\n" + PARA + "\n\\newpage\n\\section{Results}\n" + PARA + "\n\n"
            + ("\\begin{center}\\includegraphics[width=6cm]{plot.png}\\end{center}\n" if inline_plot else "")
            + PARA + "\n\n" + PARA + "\n\\end{document}\n")


@pytest.mark.parametrize("inline_plot", [False, True])
def test_masthead_and_running_head_graphics_are_not_figures(tmp_path, pdflatex, inline_plot):
    pdf = _compile(tmp_path, _article(inline_plot))
    paper = read_pdf(pdf)
    loose = [f for f in paper.figures if not f.number]
    codes = [f.code for f in lint_path(pdf, Config(preview=True)).findings]
    if inline_plot:  # a captionless plot in the running text is still a figure without a caption
        assert len(loose) == 1 and loose[0].page == 2
        assert codes.count("FL201") == 1
    else:
        assert loose == []
        assert "FL201" not in codes


def test_title_page_crest_is_not_a_figure(tmp_path, pdflatex):
    tex = ("\\documentclass{report}\n\\usepackage{graphicx}\n\\begin{document}\n"
           "\\begin{titlepage}\\centering{\\Huge A Thesis on Measurements}\\\\[2cm]"
           "\\includegraphics[width=4cm]{logo.png}\\\\[2cm]{\\Large A. Author}\\\\ University of Somewhere\n"
           "\\end{titlepage}\n\\chapter{Introduction}\n" + PARA + "\n\n" + PARA + "\n"
           "\\begin{figure}[h]\\centering\\includegraphics[width=5cm]{plot.png}\\caption{The runs.}\\end{figure}\n"
           + PARA + "\n\\end{document}\n")
    paper = read_pdf(_compile(tmp_path, tex))
    assert [f.number for f in paper.figures] == ["1.1"]


def _caption_alone_under_running_head() -> str:
    # a submission whose plots are sent as files of their own (PLoS): the float holds its caption
    # alone, set at the top of a page right under the running head's logo (rules drawn as boxes)
    # and the head's rule
    text = "The counts rise over the season in every plot of the survey. " * 12 + "\n\n"
    return ("\\documentclass[10pt,letterpaper]{article}\n\\usepackage{fancyhdr}\n"
            "\\usepackage[labelsep=period,labelfont=bf]{caption}\n\\renewcommand{\\figurename}{Fig}\n"
            "\\pagestyle{fancy}\n\\fancyhf{}\n\\fancyheadoffset[L]{1in}\n"
            "\\fancyhead[L]{\\rule{12pt}{14pt}\\,\\rule{8pt}{14pt}\\,\\rule{20pt}{10pt}\\,\\rule{16pt}{8pt}}\n"
            "\\renewcommand{\\headrulewidth}{0.4pt}\n\\begin{document}\n" + text * 3
            + "Fig~\\ref{fig:a} shows the counts.\n\\begin{figure}[t]\n\\caption{{\\bf Counts over the season.} "
            "The plot is sent as its own file, as the journal asks; this float holds its caption alone.}"
            "\\label{fig:a}\n\\end{figure}\n" + text * 6 + "\\end{document}\n")


def test_a_rule_is_no_graphic_of_a_caption(tmp_path, pdflatex):
    # the head's rule over the caption was taken for its graphic (a line as wide as the page,
    # measured against the text block: false FL111); the logo beside the caption's first line
    # is the running head's too: the caption owns no graphic
    pdf = compile_tex(tmp_path, _caption_alone_under_running_head())
    figs = read_pdf(pdf).figures
    assert [f.number for f in figs] == ["1"] and figs[0].caption is not None
    assert figs[0].bbox is None, figs[0].bbox
