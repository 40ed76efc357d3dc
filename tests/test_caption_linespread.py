"""PDF route: a caption set in a smaller size on a wider skip than the text's is read whole.

A class may give its caption size a \\baselineskip larger than the text's (a geophysics
journal's class: 9 pt on 14 under 10 pt text on 12), and \\linespread (or \\baselinestretch,
setspace) scales both. The white space between the caption's rows is then far wider than
the text's, scaled down to the caption's size, suggests, and the caption was read to its
first line only. Rows in the caption's own type are judged against the text's own pitch;
the paragraph after the float, in the text's size, is still not the caption's. The papers
are compiled with pdflatex.
"""

from __future__ import annotations

from fixtures.pdf_build import compile_tex

FILLER = " ".join(f"Sentence {i} of this section says nothing about any figure." for i in range(30))
LONG = ("Averaged statistics of the tracked features over the whole record of the survey. "
        + " ".join(f"Panel {p}) shows the count of kind {p} and its mean size over the record;" for p in "abcdef")
        + " the last words close the long caption here.")
SHORT = "Profile of the averaged quantity over the depth of the model domain, with its spread shown as a band around it."


def _paper(folder, stretch: str) -> str:
    tex = ("\\documentclass[10pt]{article}\n\\usepackage{graphicx}\n\\makeatletter\n"
           "\\renewcommand\\normalsize{\\@setfontsize\\normalsize\\@xpt{12}}\n"
           # the caption's size on a wider skip than the text's
           "\\renewcommand\\small{\\@setfontsize\\small\\@ixpt{14}}\n"
           "\\long\\def\\@makecaption#1#2{{\\small\\vskip\\abovecaptionskip\\raggedright"
           "\\textbf{#1.} #2\\par}}\n\\makeatother\n"
           f"\\linespread{{{stretch}}}\n\\normalsize\n\\begin{{document}}\n"
           + FILLER + "\n\n\\begin{figure}[h]\n\\centering\n\\includegraphics[width=0.5\\linewidth]{a.png}\n"
           f"\\caption{{{LONG}}}\n\\end{{figure}}\n\n" + FILLER
           + "\n\n\\begin{figure}[h]\n\\centering\n\\includegraphics[width=0.4\\linewidth]{a.png}\n"
           f"\\caption{{{SHORT}}}\n\\end{{figure}}\n\n" + FILLER + "\n\\end{document}\n")
    folder.mkdir()
    return compile_tex(folder, tex, {"a.png": ((600, 300), (90, 120, 150))})


def _captions(pdf: str) -> list[str]:
    from figlint.ingest.pdf import read_pdf

    figures = read_pdf(pdf).figures
    assert len(figures) == 2 and all(f.caption is not None for f in figures), figures
    return [f.caption.text for f in figures]


def _check(texts: list[str]) -> None:
    long, short = texts
    assert "Panel f)" in long and long.rstrip().endswith("long caption here."), long
    assert short.rstrip().endswith("band around it."), short
    for text in texts:
        assert "Sentence" not in text, text  # the paragraph after the float is not the caption's


def test_caption_on_a_stretched_wider_skip_is_read_whole(tmp_path, pdflatex):
    _check(_captions(_paper(tmp_path / "stretched", "1.5")))


def test_caption_on_a_double_stretched_wider_skip_is_read_whole(tmp_path, pdflatex):
    _check(_captions(_paper(tmp_path / "double", "2")))


def test_caption_on_an_unstretched_wider_skip_is_read_whole(tmp_path, pdflatex):
    _check(_captions(_paper(tmp_path / "plain", "1")))
