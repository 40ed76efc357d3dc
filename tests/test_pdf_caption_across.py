"""PDF route: the caption of a float set across the columns, whose first row is a short title.

Binding against the field papers' .aux (issue 12): a class's caption macro that sets a bold
title and a forced line break before the legend (\\caption{\\textbf{Title.}\\\\ legend ...},
GSA's gsajnl, and hand-made "title line then legend" captions) in a two-column paper prints
the title row within the first column's width, while the legend under it runs across the
gutter to the text block's far edge. The caption's measure was taken from its first row's
column, so every legend line read as too wide and the caption was only its title (FL206,
FL204 and FL008 false; the legend's "Fig. 2", read as running text, made FL303 false). The
same on a page set in one column by \\onecolumn, where the title row crosses the gutter but
stops short of the legend's width, and for a hanging caption (format=hang), whose legend rows
start where its words after the label start. Each case is compiled with pdflatex and read by both
routes; the negative cases keep short captions short.
"""

from __future__ import annotations

import re

from figlint.ingest import load
from fixtures.pdf_build import compile_tex

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}
TEXT = "Some running text of the paper that fills the columns with words. "
LEGEND = ("(A) The shaded band marks the spread of the ensemble around its mean for every month of the "
          "record. (B) The dots mark the single runs, as in Fig.~2, and the line their median over the "
          "whole record. (C) The map shows where the stations stand, coloured by the length of their record. ")
CAPTION_PKG = "\\usepackage[font=small,labelfont=bf,labelsep=space,justification=justified,singlelinecheck=off]{caption}\n"


def _paper(figure: str, preamble: str = CAPTION_PKG, between: str = "") -> str:
    return ("\\documentclass[twocolumn]{article}\n\\usepackage{graphicx}\n" + preamble + "\\begin{document}\n"
            + TEXT * 20 + "See Figure~\\ref{fig:a}.\n" + figure + "\n" + TEXT * 30 + between
            + "\n\\begin{figure}[h]\\centering\\includegraphics[width=0.3\\textwidth]{p.png}"
            "\\caption{Other runs.}\\label{fig:b}\\end{figure}\n"
            + "Figure~\\ref{fig:b} closes the section. " + TEXT * 30 + "\n\\end{document}\n")


def _titled(env: str, where: str = "t") -> str:
    width = "\\textwidth,height=4cm" if env == "figure*" else "\\linewidth"
    return (f"\\begin{{{env}}}[{where}]\\centering\\includegraphics[width={width}]{{p.png}}"
            "\\caption{\\textbf{Title sentence of the figure.}\\\\ " + LEGEND + "}\\label{fig:a}"
            f"\\end{{{env}}}")


def _routes(folder, tex: str):
    folder.mkdir()
    pdf = compile_tex(folder, tex, IMAGES)
    return load(pdf), load(str(folder / "main.tex"), pdf=pdf)


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _caption(paper, number: str = "1") -> str:
    (fig,) = [f for f in paper.figures if f.number == number]
    return _flat(fig.caption.text)


def test_a_spanning_caption_goes_on_past_its_title_line(tmp_path, pdflatex):
    pdf, src = _routes(tmp_path / "a", _paper(_titled("figure*")))
    assert _caption(pdf) == _caption(src), (_caption(pdf), _caption(src))
    assert _caption(pdf).startswith("Title sentence of the figure. (A)") and _caption(pdf).endswith("their record.")
    # the legend's "Fig. 2" is a mention inside Figure 1's caption on both routes, not running text
    assert not [p for p in src.problems if p.code in ("FL008", "FL303")], [p.message for p in src.problems]
    two = {r: [s.sentence for s in next(f for f in p.figures if f.number == "2").sites] for r, p in (("pdf", pdf), ("src", src))}
    assert sorted(two["pdf"]) == sorted(two["src"]), two
    # a page set in one column by \onecolumn: the title row crosses the gutter, the legend is wider
    tex = _paper("", between="\\onecolumn\n" + _titled("figure", "h") + "\n" + TEXT * 10)
    pdf, src = _routes(tmp_path / "b", tex.replace("See Figure~\\ref{fig:a}.", "See Figure~\\ref{fig:a} below."))
    assert _caption(pdf) == _caption(src), (_caption(pdf), _caption(src))


def test_a_hanging_caption_goes_on_past_its_title_line(tmp_path, pdflatex):
    """A hanging caption (format=hang) sets its legend's rows where its words after the label
    start, under a title row that a forced line break ends; in one column as across two.
    Negative: a short hanging caption, the text's paragraph under it, stays short."""
    hang = "\\usepackage[font=small,labelfont=bf,format=hang]{caption}\n"
    for name, env in (("a", "figure*"), ("b", "figure")):
        tex = _paper(_titled(env, "t" if env == "figure*" else "h"), preamble=hang)
        if env == "figure":
            tex = tex.replace("[twocolumn]", "")
        pdf, src = _routes(tmp_path / name, tex)
        assert _caption(pdf) == _caption(src), (_caption(pdf), _caption(src))
    short = ("\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\textwidth]{p.png}"
             "\\caption{Title only.}\\label{fig:a}\\end{figure}")
    pdf, _src = _routes(tmp_path / "c", _paper(short, preamble=hang).replace("[twocolumn]", ""))
    assert _caption(pdf) == "Title only."


def test_a_short_caption_still_ends_at_its_line(tmp_path, pdflatex):
    # a spanning float's one-line caption at the text's size, the two columns' text right under it
    star = ("\\begin{figure*}[t]\\centering\\includegraphics[width=\\textwidth,height=4cm]{p.png}"
            "\\caption{\\textbf{Title only.}}\\label{fig:a}\\end{figure*}")
    pdf, _src = _routes(tmp_path / "a", _paper(star, preamble=""))
    assert _caption(pdf) == "Title only."
    # a column's float: its short caption, then the column's text at the same size
    col = ("\\begin{figure}[h]\\centering\\includegraphics[width=\\linewidth]{p.png}"
           "\\caption{Title only.}\\label{fig:a}\\end{figure}")
    pdf, _src = _routes(tmp_path / "b", _paper(col, preamble=""))
    assert _caption(pdf) == "Title only."
    # a spanning float's short caption with another graphic right under it, then its own caption
    two = ("\\begin{figure*}[t]\\centering\\includegraphics[width=\\textwidth,height=3cm]{p.png}"
           "\\caption{\\textbf{Title only.}}\\label{fig:a}\n\\includegraphics[width=\\textwidth,height=3cm]{p.png}"
           "\\caption{\\textbf{Second title.}\\\\ " + LEGEND.replace("Fig.~2", "the first") + "}\\label{fig:c}"
           "\\end{figure*}")
    pdf, src = _routes(tmp_path / "c", _paper(two, preamble=CAPTION_PKG))
    assert _caption(pdf) == "Title only."
    assert _caption(pdf, "2") == _caption(src, "2") and _caption(pdf, "2").endswith("their record.")
