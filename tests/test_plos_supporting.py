"""PLoS's supporting items on both routes: labelled number first, headed by a paragraph.

The PLoS template lists each supporting item under `\\paragraph*{S1 Fig.}` (its files are sent
apart) and cites it number first, "S1 Fig"; a preprint sets some as floats, the heading (no
`\\caption`) printing the caption's label; other papers rename the figure "Supporting Figure"
and number it S1. Field audits found the PDF route reading none of these labels (the float an
uncaptioned figure: false FL201; the sources' figure missing from the PDF: false FL008), the
sources reading the float as uncaptioned, and the heading read as a hard-coded citation (FL305).
Now: a number-first label that owns a graphic captions it, one that owns none is an entry of
the list, and both routes read the same figures; the "Supporting information" section is the
paper's supplement, as an appendix is.
"""

from __future__ import annotations

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest import load
from figlint.mentions import parse_float_label
from fixtures.pdf_build import compile_tex

IMAGES = {"p.png": ((300, 200), (90, 140, 200)), "q.png": ((300, 200), (200, 140, 90))}
TEXT = "The counts rise over the season in every plot of the survey. "


def _paper() -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            + TEXT * 20 + "Fig~\\ref{fig:main} shows the counts.\n"
            + "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{p.png}\n"
            + "\\caption{Counts over the season.}\\label{fig:main}\n\\end{figure}\n"
            + TEXT * 10 + "The controls are in S1 Fig, the raw data in S2 Fig.\n\n" + TEXT * 10 + "\n"
            + "\\section*{Supporting information}\n"
            + "\\begin{figure}[!ht]\n\\includegraphics[width=0.4\\textwidth]{q.png}\n"
            + "\\paragraph*{S1 Fig.}\n\\textbf{Controls of the survey.} Each panel shows one control plot over the season.\n"
            + "\\end{figure}\n\n"
            + "\\paragraph*{S2 Fig.}\n\\textbf{Raw data.} The counts as recorded, sent as a separate file.\n\n"
            + TEXT * 5 + "\n\\end{document}\n")


def test_number_first_labels_read():
    assert parse_float_label("S1 Fig. Controls of the survey.")[:3] == ("figure", "S1 Fig", "S1")
    assert parse_float_label("S2 Table. Counts.")[:3] == ("table", "S2 Table", "S2")
    assert parse_float_label("Supporting Figure S3. Maps.")[2] == "S3"
    assert parse_float_label("S1 Fig shows the controls") is None  # running text: no stop after the word


def test_supporting_floats_read_alike_on_both_routes(tmp_path, pdflatex):
    pdf = compile_tex(tmp_path, _paper(), IMAGES)
    printed = load(pdf)
    sources = load(str(tmp_path / "main.tex"), pdf=pdf)
    for paper in (printed, sources):
        numbers = [f.number for f in paper.figures]
        assert numbers == ["1", "S1"], (paper.route, numbers)  # the list's S2 entry owns no graphic
        s1 = paper.figures[1]
        assert s1.caption is not None and "Controls of the survey" in s1.caption.text
        assert s1.in_appendix
    assert not [p for p in sources.problems if p.code == "FL008"]
    for path, kw in ((pdf, {}), (str(tmp_path / "main.tex"), {"pdf": pdf})):
        config = Config(**kw) if kw else Config()
        found = lint_path(path, config).findings
        assert not [f for f in found if f.code == "FL201"], [f.message for f in found]
        # the heading is the item's label as the journal prints it, not a typed citation
        assert not [f for f in found if f.code == "FL305" and "Fig." in f.message]


def test_a_renamed_supporting_figure_is_read_from_the_pdf(tmp_path, pdflatex):
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n" + TEXT * 20
           + "See Figure~\\ref{fig:s}.\n\\renewcommand{\\figurename}{Supporting Figure}\n"
           + "\\renewcommand{\\thefigure}{S\\arabic{figure}}\n"
           + "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{p.png}\n"
           + "\\caption{Dot plot of the two assemblies.}\\label{fig:s}\n\\end{figure}\n" + TEXT * 10 + "\n\\end{document}\n")
    pdf = compile_tex(tmp_path, tex, IMAGES)
    figs = load(pdf).figures
    assert [f.number for f in figs] == ["S1"] and "Dot plot" in figs[0].caption.text
    assert [f.number for f in load(str(tmp_path / "main.tex"), pdf=pdf).figures] == ["S1"]


def _headed_paper() -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n" + TEXT * 20
            + "Fig~\\ref{fig:main} and Fig~\\ref{fig:s1}.\n"
            + "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{p.png}\n"
            + "\\caption{Counts over the season.}\\label{fig:main}\n\\end{figure}\n" + TEXT * 10 + "\n"
            + "\\clearpage\n\\section*{Supporting information}\n" + TEXT * 3 + "\n\\begin{figure}[h]\n\\paragraph*{S1 Fig.}\\mbox{}\\\\\n"
            + "\\includegraphics[width=0.4\\textwidth]{q.png}\n"
            + "\\caption{Controls of the survey, one plot per panel.}\\label{fig:s1}\n\\end{figure}\n"
            + TEXT * 5 + "\n\\end{document}\n")


def test_a_headed_float_with_its_own_caption_is_numbered_by_the_caption(tmp_path, pdflatex):
    # the heading over the graphic and a \caption under it: LaTeX prints "S1 Fig." and "Figure 2: ..."
    tex = _headed_paper()
    pdf = compile_tex(tmp_path, tex, IMAGES)
    for paper in (load(pdf), load(str(tmp_path / "main.tex"), pdf=pdf)):
        assert [f.number for f in paper.figures] == ["1", "2"], paper.route
        assert "Controls of the survey" in paper.figures[1].caption.text and paper.figures[1].bbox is not None
        assert paper.figures[1].in_appendix
    for path, kw in ((pdf, {}), (str(tmp_path / "main.tex"), {"pdf": pdf})):
        found = lint_path(path, Config(**kw)).findings
        assert not [f for f in found if f.code in ("FL201", "FL008")], [f.message for f in found]


def _word_first_list_paper() -> str:
    # PLoS's template with its fancy footer (a 2 pt rule over "page/pages") and its captions
    # ("Fig 1." in bold); the supporting-information list headed word first, \paragraph*{Fig S1},
    # its first entry the last lines over a page's footer rule; then one supporting figure set
    # as a float in the paper, its caption a run-in "Fig S5." under its graphic
    entry = "Each panel shows one control plot over the season, as recorded. " * 4
    entries = "".join(f"\\paragraph*{{Fig S{i}}}\n\\label{{sup:{i}}}\n{{\\bf {title}.}} {entry}\n\n"
                      for i, title in ((2, "Raw counts of the survey"), (3, "Controls of each plot"), (4, "Counts by season")))
    return ("\\documentclass[10pt,letterpaper]{article}\n\\usepackage{graphicx,lastpage,fancyhdr}\n"
            "\\usepackage[labelsep=period,labelfont=bf]{caption}\n\\renewcommand{\\figurename}{Fig}\n"
            "\\usepackage{nameref,hyperref}\n\\pagestyle{fancy}\n\\fancyhf{}\n\\rfoot{\\thepage/\\pageref{LastPage}}\n"
            "\\renewcommand{\\headrulewidth}{0pt}\n\\renewcommand{\\footrule}{\\hrule height 2pt \\vspace{2mm}}\n"
            "\\begin{document}\n" + TEXT * 20 + "Fig~\\ref{fig:main} shows the counts, \\nameref{sup:1} the method.\n"
            "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{p.png}\n"
            "\\caption{Counts over the season.}\\label{fig:main}\n\\end{figure}\n"
            + TEXT * 10 + "The raw counts are in \\nameref{sup:2} and \\nameref{sup:3}.\n\n" + TEXT * 10 + "\n"
            "\\clearpage\n\\vspace*{\\fill}\n\\section*{Supporting information}\n"
            "\\paragraph*{Fig S1}\n\\label{sup:1}\n{\\bf Stencil of the numerical method.} "
            + "The nodes and edges of the scheme for one step. " * 5 + "\n\n\\clearpage\n" + entries
            + "\\renewcommand{\\thefigure}{S\\arabic{figure}}\\setcounter{figure}{4}\n"
            "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{q.png}\n"
            "\\caption{Counts of the fifth plot.}\\label{fig:s5}\n\\end{figure}\n"
            + TEXT * 3 + "See Fig~\\ref{fig:s5}.\n\\end{document}\n")


def test_a_word_first_supporting_list_is_no_figures(tmp_path, pdflatex):
    # the list's headings own no graphic (the footer rule under the first is none): entries of the
    # list, as on the sources route; the float's run-in caption over its graphic stays a figure
    pdf = compile_tex(tmp_path, _word_first_list_paper(), IMAGES, runs=3)
    printed = load(pdf)
    sources = load(str(tmp_path / "main.tex"), pdf=pdf)
    for paper in (printed, sources):
        assert [f.number for f in paper.figures] == ["1", "S5"], paper.route
        s5 = paper.figures[1]
        assert s5.bbox is not None and "fifth plot" in s5.caption.text and s5.in_appendix
    assert all(f.bbox[3] < 700 for f in printed.figures)  # no figure reaches the footer
    assert not [p for p in sources.problems if p.code == "FL008"], [p.message for p in sources.problems]
