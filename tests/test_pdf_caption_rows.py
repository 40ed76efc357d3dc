"""PDF route: a caption's lines as LaTeX sets them, however its rows are stretched or ragged.

Binding against the field papers' .aux (issue 12) found two general causes of captions read
cut short after their first line:
- small drawings set in a caption's rows (circled letters drawn with TikZ, an inline icon)
  stretch the rows' height, so the white space between the lines' text boxes grew past
  the caption's leading (an ACM paper, "(A) shows a ..." then nothing);
- on a ragged-right page the text column's edge, measured from the body lines, lies left of
  where a justified caption's full lines end, so the caption's second line "reached past its
  column" (a PLOS paper).
Each case is compiled with pdflatex and compared with the same caption set plainly; the
negative cases keep the body text after the caption out of it.
"""

from __future__ import annotations


from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_tex

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}


def _compile(folder, tex: str) -> str:
    return compile_tex(folder, tex, IMAGES)

TEXT = ("The measurements were repeated on each of the four runs and the periodograms were "
        "computed with the same window for every run of the campaign. ")
CAPTION = ("Artifacts made by the first participant during the study; %s shows a model of the "
           "interactions within a traffic intersection, %s represents a possible layout for roads "
           "and the intersections on a grid, and the last panel lists the notes kept while coding.")
AFTER = "Here we present what the participants did with the artifacts during the sessions."
# long words: a ragged-right line ends well short of the text block's edge
LONG = ("Interdisciplinary characterisations of electrophysiological measurements notwithstanding "
        "thermoregulatory counterbalancing mechanisms demonstrate incomprehensibilities. ")


def _paper(preamble: str, caption: str, body_setup: str = "", text: str = TEXT) -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n" + preamble + "\\begin{document}\n" + body_setup
            + text * 4 + "See Figure~\\ref{fig:a}.\n\\begin{figure}[h]\n\\centering\n"
            "\\includegraphics[width=0.6\\textwidth]{p.png}\n\\caption{" + caption + "}\\label{fig:a}\n"
            "\\end{figure}\n" + AFTER + " " + text * 4 + "\n\\end{document}\n")


def _caption(pdf: str) -> str:
    figs = [f for f in read_pdf(pdf).figures if f.number == "1"]
    assert len(figs) == 1
    return figs[0].caption.text


def test_circled_letters_in_a_caption_keep_its_lines(tmp_path, pdflatex):
    circled = ("\\usepackage{tikz}\n\\DeclareRobustCommand{\\circled}[1]{\\tikz[baseline=(c.base)]"
               "\\node[draw,circle,inner sep=1pt,minimum size=17pt](c){\\small #1};}\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    drawn = _caption(_compile(tmp_path / "a", _paper(circled, CAPTION % ("\\circled{A}", "\\circled{B}"))))
    plain = _caption(_compile(tmp_path / "b", _paper("", CAPTION % ("(A)", "(B)"))))
    assert plain.endswith("kept while coding.")
    assert drawn.endswith("kept while coding.") and "traffic intersection" in drawn
    assert AFTER[:20] not in drawn and AFTER[:20] not in plain


def test_a_ragged_right_page_keeps_a_justified_caption_whole(tmp_path, pdflatex):
    (tmp_path / "r").mkdir()
    # a bold title on a line of its own, then the legend's full lines (as PLOS sets them)
    caption = "\\textbf{Overview of the study artifacts.}\\newline " + CAPTION % ("(A)", "(B)")
    got = _caption(_compile(tmp_path / "r", _paper("", caption, body_setup="\\raggedright\n", text=LONG)))
    assert got.endswith("kept while coding.") and AFTER[:20] not in got
