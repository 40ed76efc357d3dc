"""Supplementary figures numbered in a series of their own without a letter: "Supplementary Figure 3".

Papers number a supplement's figures from 1 again and print the series as a word before the
figure's name rather than as a letter before its number: "Supplementary Figure 3", cited
"Supplementary Fig. 3" or "Supp. Fig. 3" (Nature's "Extended Data Fig. 3" likewise), set with
`\\renewcommand{\\figurename}{Supplementary Figure}`, `\\captionsetup[figure]{name=...}` or a float
type of its own named so. A field audit (a neuroscience manuscript with newfloat's
`suppfigure`) found both routes numbering such figures 1-4 like the main Figures 1-4: the
supplementary figures' captions collided with the main ones, and the PDF route bound their
citations to the main figures or to none. Now the series word gives the number its series'
letters ("S3", "ED3", as "Figure S3" is S3, mentions.in_series), on both routes; the caption's
label keeps what prints. A paper that prints "Figure S1" and the word "supplementary" in the
running text near a plain "Figure 2" read as before.
"""

from __future__ import annotations


import pytest

from figlint.ingest import load
from figlint.mentions import find_mentions, parse_caption_label
from fixtures.pdf_build import compile_tex, sources_alone

IMAGES = {f"p{k}.png": ((300, 200), (40 * k, 140, 200 - 30 * k)) for k in range(1, 6)}
TEXT = "The counts rise over the season in every plot of the survey. "

# how the supplement names its figures: (preamble, what opens the supplement, its float type)
WAYS = {
    "renewcommand": ("", "\\setcounter{figure}{0}\n\\renewcommand{\\figurename}{Supplementary Figure}\n", "figure"),
    "captionsetup": ("\\usepackage{caption}\n\\usepackage{hyperref}\n",
                     "\\setcounter{figure}{0}\n\\renewcommand{\\theHfigure}{S\\arabic{figure}}\n"
                     "\\captionsetup[figure]{name=Supplementary Figure}\n", "figure"),
    # a macro the supplement opens with (bioRxiv templates' \\beginsupplement)
    "macro": ("\\newcommand{\\beginsupplement}{\\setcounter{figure}{0}\\renewcommand{\\figurename}{Supplementary Figure}}\n",
              "\\beginsupplement\n", "figure"),
    "newfloat": ("\\usepackage{newfloat}\n\\DeclareFloatingEnvironment[name={Supplementary Figure},fileext=lsf]"
                 "{suppfigure}\n", "", "suppfigure"),
}


def _float(env: str, image: str, caption: str, label: str) -> str:
    return (f"\\begin{{{env}}}[h!]\\centering\\includegraphics[width=0.3\\textwidth]{{{image}}}\n"
            f"\\caption{{{caption}}}\\label{{{label}}}\n\\end{{{env}}}\n")


def _paper(way: str) -> str:
    preamble, opening, env = WAYS[way]
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n" + preamble + "\\begin{document}\n"
            + TEXT * 4 + "Figure~\\ref{fig:one} shows the counts over the season.\n\n"
            + TEXT * 2 + "The supplementary analyses agree with the trend of Figure~2 in every plot.\n\n"
            + "The rates are in Fig.~\\ref{fig:three}; the controls are in Supplementary Figure~\\ref{sfig:a}.\n\n"
            + "The raw data are shown in Supplementary Fig.~2 for every site.\n\n"
            + "Figure~\\ref{fig:two} and Supplementary Figure~\\ref{sfig:b} compare the two years.\n\n"
            + _float("figure", "p1.png", "Counts over the season.", "fig:one") + TEXT * 3 + "\n\n"
            + _float("figure", "p2.png", "Trend of the counts per plot.", "fig:two") + TEXT * 3 + "\n\n"
            + _float("figure", "p3.png", "Rates of change over the years.", "fig:three") + TEXT * 3 + "\n\n"
            + "\\clearpage\n\\section*{Supplementary Information}\n" + opening
            + _float(env, "p4.png", "Controls of the survey, one per plot.", "sfig:a") + TEXT * 3 + "\n\n"
            + _float(env, "p5.png", "Raw data as recorded in the field.", "sfig:b") + TEXT * 3
            + "\n\\end{document}\n")


def _sources_alone(tmp_path) -> str:
    """The sources copied without the build's .aux: what the counters alone print."""
    return sources_alone(tmp_path, ["main.tex", *IMAGES])


def _sites(fig) -> list[str]:
    return sorted(" ".join(s.sentence.split()) for s in fig.sites)


@pytest.mark.parametrize("way", sorted(WAYS))
def test_supplementary_figures_a_series_of_their_own(tmp_path, pdflatex, way):
    pdf = compile_tex(tmp_path, _paper(way), IMAGES)
    for paper in (load(pdf), load(str(tmp_path / "main.tex"), pdf=pdf), load(_sources_alone(tmp_path))):
        got = {f.number: f for f in paper.figures}
        assert [f.number for f in paper.figures] == ["1", "2", "3", "S1", "S2"], (way, paper.route, list(got))
        assert got["S1"].caption.label == "Supplementary Figure 1", (way, paper.route)
        assert "Controls of the survey" in got["S1"].caption.text
        assert "Raw data as recorded" in got["S2"].caption.text
        assert got["2"].caption.label == "Figure 2" and "Trend of the counts" in got["2"].caption.text
        # "Supplementary Figure 1" cites the supplement's S1; "Figure 2" near the word
        # "supplementary" stays the main Figure 2
        assert [len(got[n].sites) for n in ["1", "2", "3", "S1", "S2"]] == [1, 2, 1, 1, 2], \
            (way, paper.route, {n: _sites(f) for n, f in got.items()})
        assert any("supplementary analyses" in s for s in _sites(got["2"]))
        assert not any("Supplementary" in s for s in _sites(got["2"]) if "compare" not in s)
        assert any("raw data are shown" in s for s in _sites(got["S2"]))
        assert any("controls are in" in s for s in _sites(got["S1"]))
        assert not any("controls are in" in s for s in _sites(got["1"]))
        assert not [p for p in paper.problems if p.code == "FL008"], [p.message for p in paper.problems]


def test_figure_s_series_unchanged(tmp_path, pdflatex):
    """A supplement that prints its letter ("Figure S1", \\thefigure = S\\arabic{figure}) reads as
    before, cited as "Supplementary Fig. S1" or "Fig. S2"."""
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
           + TEXT * 4 + "Figure~\\ref{fig:one} shows the counts; the supplementary data agree with Figure~2.\n\n"
           + "The controls are in Supplementary Fig.~\\ref{sfig:a}, the raw data in Fig.~S2.\n\n"
           + _float("figure", "p1.png", "Counts over the season.", "fig:one") + TEXT * 3 + "\n\n"
           + _float("figure", "p2.png", "Trend of the counts per plot.", "fig:two") + TEXT * 3 + "\n\n"
           + "\\clearpage\n\\section*{Supplementary Information}\n\\setcounter{figure}{0}\n"
           + "\\renewcommand{\\thefigure}{S\\arabic{figure}}\n"
           + _float("figure", "p4.png", "Controls of the survey, one per plot.", "sfig:a") + TEXT * 3 + "\n\n"
           + _float("figure", "p5.png", "Raw data as recorded in the field.", "sfig:b") + TEXT * 3
           + "\n\\end{document}\n")
    pdf = compile_tex(tmp_path, tex, IMAGES)
    for paper in (load(pdf), load(str(tmp_path / "main.tex"), pdf=pdf)):
        got = {f.number: f for f in paper.figures}
        assert list(got) == ["1", "2", "S1", "S2"], (paper.route, list(got))
        assert got["S1"].caption.label == "Figure S1"
        assert [len(got[n].sites) for n in ["1", "2", "S1", "S2"]] == [1, 1, 1, 1], \
            (paper.route, {n: _sites(f) for n, f in got.items()})


def test_series_words_in_print():
    """The word before the name decides the series, in captions and in citing text alike."""
    assert parse_caption_label("Supplementary Figure 3: Controls.")[:2] == ("Supplementary Figure 3", "S3")
    assert parse_caption_label("Extended Data Fig. 4 | Controls.")[1] == "ED4"
    assert parse_caption_label("Supplementary Figure S3: Controls.")[1] == "S3"
    assert parse_caption_label("Figure 3: Controls.")[1] == "3"
    ms = find_mentions("as in Supp. Figs. 2 and 3a, Extended Data Fig. 1 and Figure 2.")
    assert [m.numbers for m in ms] == [["S2", "S3"], ["ED1"], ["2"]]
    assert ms[0].panels == {"S3": ["a"]}
    # the word ends a sentence, or names no series before the figure's name
    assert [m.numbers for m in find_mentions("We list the supplementary data. Figure 2 shows it.")] == [["2"]]
    assert [m.numbers for m in find_mentions("The supplementary analyses agree with Figure 2.")] == [["2"]]


def test_each_series_cited_in_its_own_order(tmp_path, pdflatex):
    """The supplement's figures are numbered in their own order: a supplementary figure cited
    before the main Figure 1 is in order (FL303 once took "Supplementary Fig. 1" for Figure 1,
    then for a figure numbered after Figure 3)."""
    from pathlib import Path

    from figlint.config import Config
    from figlint.engine import lint_path

    tex = _paper("renewcommand").replace(
        "\\begin{document}\n", "\\begin{document}\nThe design follows Supplementary Fig.~\\ref{sfig:a}.\n\n", 1)
    # no heading that opens an appendix: the supplement's figures are checked too
    tex = tex.replace("\\section*{Supplementary Information}\n", "")
    pdf = compile_tex(tmp_path, tex, IMAGES)
    for path in (Path(pdf), tmp_path / "main.tex"):
        order = [f.message for f in lint_path(path, Config(preview=True)).findings
                 if f.code == "FL303" and "first cited" in f.message]
        assert not order, (path.suffix, order)


def test_a_preamble_name_babel_sets_again_is_not_printed(tmp_path, pdflatex):
    """babel sets \\figurename again at \\begin{document}: a \\renewcommand of the preamble to
    "Supplementary Figure" prints "Figure 1", and the figures stay the main series."""
    tex = _paper("renewcommand").replace(
        "\\usepackage{graphicx}\n", "\\usepackage{graphicx}\n\\usepackage[english]{babel}\n"
        "\\renewcommand{\\figurename}{Supplementary Figure}\n", 1)
    tex = tex.replace("\\setcounter{figure}{0}\n\\renewcommand{\\figurename}{Supplementary Figure}\n", "")
    pdf = compile_tex(tmp_path, tex, IMAGES)
    for paper in (load(pdf), load(str(tmp_path / "main.tex"), pdf=pdf)):
        assert [f.number for f in paper.figures] == ["1", "2", "3", "4", "5"], (paper.route, [f.number for f in paper.figures])
        assert paper.figures[0].caption.label == "Figure 1"
