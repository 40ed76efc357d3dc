"""PDF route: a lone \\ref prints only a number; its hyperref link says which figure it is.

Binding against the field papers' .aux (issue 12) found a thesis numbering its figures
chapter-hyphen-number ("Figura 4-16", \\thefigure = \\thechapter-\\arabic{figure}) whose bare
references ("se muestra en 4-17") were lost: the link's text was read as a number only when
it had no hyphen; a paper citing "(1A)" with a capital panel letter likewise. A footnote mark
glued to a word ("cross-attention6") made another word of it; its link to the footnote tells it
from an exponent. Compiled with pdflatex and hyperref; the negative cases keep a section's
link and a link whose text is not its figure's number out.
"""

from __future__ import annotations

from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_tex

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}


def _figure_one(tmp_path, number: str, caption: str, text: str, preamble: str = "", heading: str = ""):
    """Figure `number` of a one-figure paper (text, the figure, more text, then `text`),
    compiled with hyperref."""
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{hyperref}\n" + preamble
           + "\\begin{document}\n" + heading + "Some text before the figure. " * 40 + "\n"
           "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{p.png}"
           "\\caption{" + caption + "}\\label{fig:a}\\end{figure}\n"
           + "More text after the figure. " * 20 + "\n\n" + text + "\n\\end{document}\n")
    (tmp_path / "a").mkdir()
    figs = [f for f in read_pdf(compile_tex(tmp_path / "a", tex, IMAGES)).figures if f.number == number]
    assert len(figs) == 1
    return figs[0]


def test_a_bare_chapter_hyphen_number_is_bound_through_its_link(tmp_path, pdflatex):
    fig = _figure_one(tmp_path, "1-1", "Events of the simulation.",
                      "The order of the events is shown in \\ref{fig:a}, as Section~\\ref{sec:r} set out. "
                      "A stray link reads \\hyperref[fig:a]{2-7} but names no figure of this paper.",
                      preamble="\\renewcommand{\\thefigure}{\\arabic{section}-\\arabic{figure}}\n",
                      heading="\\section{Results}\\label{sec:r}\n")
    got = [(s.via, s.mention) for s in fig.sites]
    # one site: the bare "1-1"; the section's link and the "2-7" link are no site of it
    assert got == [("link", "1-1")], [(s.via, s.mention, s.sentence) for s in fig.sites]
    assert "events is shown in 1-1" in fig.sites[0].sentence


def test_a_bare_number_with_a_capital_panel_letter_is_bound_through_its_link(tmp_path, pdflatex):
    # "(\ref{fig:a}A)" prints "(1A)", the link under "1" (read with the letter); like a printed
    # "Fig. 1A" it names Figure 1. Negative: a link whose text is a lone capital names nothing
    fig = _figure_one(tmp_path, "1", "Lipid classes by condition.",
                      "The expansion is identified in the class plots (\\ref{fig:a}A) of the survey. "
                      "Appendix \\hyperref[fig:a]{B} lists the rest.")
    got = [(s.via, s.panels) for s in fig.sites]
    assert got == [("link", [])], [(s.via, s.mention, s.sentence) for s in fig.sites]
    assert "identified in the class plots" in fig.sites[0].sentence


def test_a_footnote_mark_is_no_part_of_the_citing_sentence(tmp_path, pdflatex):
    # "cross-attention\footnote{..}" prints "cross-attention¹": read glued to the word it made
    # another word ("cross-attention1"). hyperref links the mark to its footnote, which tells it
    # from a unit's exponent ("54 m³", no link), kept
    fig = _figure_one(tmp_path, "1", "Attention weights of the baseline.",
                      "Figure~\\ref{fig:a} visualizes cross-attention\\footnote{Also known as encoder-decoder attention.} "
                      "from our baseline model in a room of 54~m$^3$ as well.")
    assert len(fig.sites) == 1
    sentence = fig.sites[0].sentence
    assert "cross-attention from our baseline" in sentence and "m3 as well" in sentence, sentence


# A figure float type the paper declares (caption's \DeclareCaptionType, newfloat): hyperref
# names its anchors after it ("sfigure.caption.3"), at the float's top as for `figure`; a
# canvas with white space above its drawing (a plot's bounding box) and a centred block put the
# drawing tens of points below that anchor (each float here on a page of its own, as a
# supplement sets them)
_CANVAS = ("\\begin{center}\\begin{tikzpicture}\\path (0,0) rectangle (6,5);"
           "\\fill[blue!40] (0,0) rectangle (6,3.2);\\end{tikzpicture}\\end{center}")
_TALL = _CANVAS.replace("rectangle (6,5)", "rectangle (6,7)")  # the drawing 3.8 cm under the top
_SUPPLEMENT = (
    "\\documentclass{article}\n\\usepackage{tikz}\n\\usepackage{caption}\n\\usepackage{hyperref}\n"
    "\\DeclareCaptionType{sfigure}[Fig]\n\\renewcommand{\\thesfigure}{S\\arabic{sfigure}}\n"
    "\\DeclareCaptionType{stable}[Table]\n\\renewcommand{\\thestable}{S\\arabic{stable}}\n"
    "\\begin{document}\n" + "Some text before the figures. " * 30 + "\n\n"
    "The growth curves are drawn in \\ref{fig:a} for every site. "
    "The migration times are spread widely in \\ref{sf:a} across the runs. "
    "The remaining combinations are shown in S\\ref{sf:b} Fig for completeness. "
    "The parameter values are listed in \\ref{st:a} of the appendix.\n\n"
    "\\begin{figure}[p]" + _CANVAS + "\\caption{Growth curves of the main runs.}\\label{fig:a}\\end{figure}\n\\clearpage\n"
    "\\begin{sfigure}[p]" + _CANVAS + "\\caption{Migration times of all runs.}\\label{sf:a}\\end{sfigure}\n\\clearpage\n"
    "\\begin{sfigure}[p]" + _TALL + "\\caption{Mutation times of all runs.}\\label{sf:b}\\end{sfigure}\n"
    "\\clearpage\n\\begin{stable}[h]\\centering\\caption{Parameters of the runs.}\\label{st:a}"
    "\\begin{tabular}{ll}a & 1\\\\ b & 2\\end{tabular}\\end{stable}\n"
    "\\end{document}\n")


def test_links_to_a_declared_figure_float_type_are_bound(tmp_path, pdflatex):
    # a PLoS-style supplement: \DeclareCaptionType{sfigure}, numbers "S1"; a bare \ref prints
    # "S1" under a link to "sfigure.caption.N", read before as some other float's anchor held
    # to a few points, so no reference to a supplementary figure was bound unless the word
    # "Fig" stood by it. "S\ref{..} Fig" prints the prefix twice ("SS2 Fig"): the link says it is S2.
    # Negative: a declared table type numbered the same way ("S1" under a link to
    # "stable.caption.N") cites no figure
    (tmp_path / "a").mkdir()
    figs = {f.number: f for f in read_pdf(compile_tex(tmp_path / "a", _SUPPLEMENT)).figures if f.number}
    assert set(figs) == {"1", "S1", "S2"}, sorted(figs)
    got = {n: [(s.via, s.mention) for s in f.sites] for n, f in figs.items()}
    assert got == {"1": [("link", "1")], "S1": [("link", "S1")], "S2": [("link", "SS2")]}, got
    assert "spread widely in S1 across" in figs["S1"].sites[0].sentence
    assert "shown in SS2 Fig for completeness" in figs["S2"].sites[0].sentence
