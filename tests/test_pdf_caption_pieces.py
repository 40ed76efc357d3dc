"""PDF route: a caption's text where its printed row comes in pieces, and where a note in
another face follows it (issue 12, "printed-caption match").

* A caption whose label is set apart by a wide space (a class's \\quad, a narrow justified
  margin caption's stretched space) and whose first word is set smaller (an acronym in small
  capitals) was read as its label alone: the smaller word's lower top put the rest of the row
  out of the text reader's order, and the pieces, one baseline and one size, were then joined
  only across a gap under one character's width.
* File names set smaller in a typewriter face under a caption (a thesis naming the scripts
  that made each figure) are a note beside the caption, not its text.

Each case is a small document compiled with pdflatex.
"""

from __future__ import annotations

from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_main, plot_png


_FILLER = ("The listening tests were run in a quiet room with a tracked pair of headphones, "
           "and every listener heard each condition three times in a random order. ")


def _captions(pdf) -> dict[str, str]:
    return {f.number: f.caption.text for f in read_pdf(str(pdf)).figures if f.number and f.caption}


def test_a_smaller_first_word_after_a_label_set_apart(tmp_path, pdflatex):
    plot_png(tmp_path, "p1.png")
    plot_png(tmp_path, "p2.png")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{caption}\n"
        "\\DeclareCaptionLabelSeparator{apart}{:\\quad}\n"
        "\\captionsetup{width=4.1cm,font=small,labelsep=apart,justification=justified}\n"
        "\\begin{document}\n" + _FILLER * 3 + "\n\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\textwidth]{p1.png}"
        "\\caption{{\\scriptsize HRTF} measurement of a loudspeaker array in the anechoic chamber of the "
        "university, seen from the position of the listener.}\\label{fig:1}\\end{figure}\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\textwidth]{p2.png}"
        "\\caption{Average ratings of all listeners with their confidence intervals.}\\label{fig:2}\\end{figure}\n"
        + _FILLER * 3 + "\n\\end{document}\n")
    compile_main(tmp_path)
    caps = _captions(tmp_path / "main.pdf")
    assert caps.get("1", "").startswith("HRTF measurement of a loudspeaker array"), caps
    assert "seen from the position of the listener" in caps["1"], caps
    assert caps.get("2", "").startswith("Average ratings of all listeners"), caps


def test_script_names_in_a_typewriter_face_under_a_caption(tmp_path, pdflatex):
    plot_png(tmp_path, "p1.png")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage[font=small,singlelinecheck=false]{caption}\n"
        "\\begin{document}\n" + _FILLER * 3 + "\n\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\textwidth]{p1.png}"
        "\\caption{Measurements with the artificial head in the anechoic chamber.}\\label{fig:1}\n\n"
        "\\raggedright{\\footnotesize\\ttfamily interpolate\\_responses.m}\\\\{\\footnotesize\\ttfamily "
        "get\\_impulse\\_responses.m}\\end{figure}\n" + _FILLER * 3 + "\n\\end{document}\n")
    compile_main(tmp_path)
    caps = _captions(tmp_path / "main.pdf")
    assert caps.get("1", "").rstrip() == "Measurements with the artificial head in the anechoic chamber.", caps
