"""PDF route: a list of figures whose entries wrap is no place of captions.

Binding against the field papers' .aux (issue 12) found a Turkish thesis whose list of
figures, headed in its own language, prints each entry as "Şekil 1.1. Title" with a hanging
title: an entry that wraps ends in leaders and its page number on its last line only, so its
first line opened a caption, as well scored as the figure's own, and printed first: the
figures took the list's page (on the sources route too, which takes the PDF's page). Some
classes print no leaders at all (tocloft's \\cftnodots), only the number at the right margin.
The papers are compiled with pdflatex; the negative paper keeps captions that end in a
number, and a table of numbers under its caption, as they are.
"""

from __future__ import annotations

import pymupdf
import pytest

from figlint.ingest import load
from figlint.ingest.pdf_layout import body_stats, find_layout, mark_margins, read_page
from fixtures.pdf_build import compile_tex

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}


def _thesis(leaders: bool) -> str:
    """A report whose list of figures, headed and labelled in German, prints "Abbildung 1.1."
    before each title; the captions are labelled alike ("Abbildung 1.1. ...") and long, with
    no short optional caption, so the entries wrap over one to three lines."""
    pre = ("\\documentclass{report}\n\\usepackage{graphicx}\n\\usepackage[labelsep=period]{caption}\n"
           "\\renewcommand{\\figurename}{Abbildung}\\renewcommand{\\listfigurename}{Abbildungsverzeichnis}\n"
           "\\usepackage{tocloft}\\renewcommand{\\cftfigpresnum}{Abbildung~}\\renewcommand{\\cftfigaftersnum}{.}\n"
           "\\setlength{\\cftfignumwidth}{8em}\n" + ("" if leaders else "\\renewcommand{\\cftfigdotsep}{\\cftnodots}\n"))
    body = "\\begin{document}\n\\listoffigures\n\\chapter{Results}\n"
    for i in range(1, 7):
        words = " ".join(["the measured response of sample", str(i), "under a long series of loads"] * (1 + i % 3))
        body += ("Text of section %d. " % i) * 30 + "Figure~\\ref{fig:%d} shows it.\n" % i
        body += ("\\begin{figure}[p]\\centering\\includegraphics[width=0.6\\textwidth]{p.png}\n"
                 "\\caption{Panel %d shows %s.}\\label{fig:%d}\\end{figure}\n" % (i, words, i))
    return pre + body + "\\end{document}\n"


@pytest.mark.parametrize("leaders", [True, False], ids=["leaders", "no-leaders"])
def test_wrapped_list_entries_are_no_captions(tmp_path, pdflatex, leaders):
    pdf = compile_tex(tmp_path, _thesis(leaders), IMAGES)
    for paper in (load(pdf), load(str(tmp_path / "main.tex"), pdf=pdf)):
        figs = paper.figures
        assert [f.number for f in figs] == ["1.1", "1.2", "1.3", "1.4", "1.5", "1.6"]
        # the figures' own pages ([p] float pages after the chapter), never the list's page 1
        assert all(f.page > 1 for f in figs), [(f.number, f.page) for f in figs]
        for i, f in enumerate(figs, 1):
            assert f.caption.text.startswith(f"Panel {i} shows the measured response of sample {i}")
            assert f.caption.text.endswith("under a long series of loads.")


def _figure(caption: str) -> str:
    return "\\begin{figure}[h]\\centering\\includegraphics[width=0.2\\textwidth]{p.png}\\caption{%s}\\end{figure}\n" % caption


# captions whose first (justified) line ends in a year at the margin, captions whose last line
# ends in a year, and a table of numbers right under its caption, its numbers at the margin
NEGATIVE = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage[labelsep=period]{caption}\n"
            "\\begin{document}\n" + "Some text before the figures. " * 10 + "\n"
            + "".join(_figure(f"Rainfall in the {w} valley in each month from 1990 to 2023 \\mbox{{throughout}} the survey,"
                              " with its gaps filled in.") for w in ("upper", "lower"))
            + "".join(_figure(f"Rainfall over the {w} valley for every month of the record, as measured at the"
                              f" six stations of the survey that was recorded in {y}") for w, y in (("upper", 2023), ("lower", 2024)))
            + "\\begin{table}[h]\\captionsetup{skip=1pt}\\caption{Counts of the stations by valley and year of the survey.}\n"
            "\\begin{tabular*}{\\textwidth}{@{\\extracolsep{\\fill}}lr@{}}Northern valley & 12\\\\"
            "Southern valley & 34\\\\Eastern valley & 56\\\\\\end{tabular*}\\end{table}\n"
            + "More text after the floats. " * 30 + "\n\\end{document}\n")


def test_captions_ending_in_numbers_stay_captions(tmp_path, pdflatex):
    pdf = compile_tex(tmp_path, NEGATIVE, IMAGES)
    pages = [read_page(p) for p in pymupdf.open(pdf)]
    body, font = body_stats(pages)
    mark_margins(pages, find_layout(pages, body, font))
    assert not [ln.text for pd in pages for ln in pd.lines if ln.role == "toc"]
    figs = load(pdf).figures
    assert [f.number for f in figs] == ["1", "2", "3", "4"]
    ends = ["with its gaps filled in."] * 2 + ["was recorded in 2023", "was recorded in 2024"]
    assert all(f.caption.text.endswith(end) for f, end in zip(figs, ends)), [f.caption.text for f in figs]
