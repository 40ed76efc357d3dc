"""PDF route: a caption whose rows keep a manuscript's fixed pitch is read to its end.

A journal's draft option (a referee layout) gives every type size the same \\baselineskip,
20 pt, so a caption set a point smaller than the text keeps the text's pitch: the white
space between its rows is a little wider than the text's, scaled to the caption's size,
allows. A row whose box a formula's subscript stretches down (c_n) then stood, measured
from box bottom to box bottom, further below the row above than the caption's pitch, and
the caption was cut there. The pitch is measured from the foot of each row's own type. The
papers are compiled with pdflatex.
"""

from __future__ import annotations

from fixtures.pdf_build import compile_tex

FILLER = " ".join(f"Sentence {i} of this section says nothing about any figure." for i in range(14))
# The first row plain words; every later row holds a formula with a subscript.
CAPTION = ("Averaged statistics of the tracked features over the whole record of the survey. "
           + " ".join(f"Panel {p}) shows the count $c_n$ of kind {p} and its mean size $s_{{n}}$;"
                      for p in "abcdefgh")
           + " the last words close the caption here.")


def _paper(folder, skip: str) -> str:
    tex = ("\\documentclass[10pt]{article}\n\\usepackage{graphicx}\n\\makeatletter\n"
           # every size on one fixed pitch, as a journal's draft option sets them
           f"\\renewcommand\\normalsize{{\\@setfontsize\\normalsize\\@xpt{{{skip}}}}}\n"
           f"\\renewcommand\\small{{\\@setfontsize\\small\\@ixpt{{{skip}}}}}\n"
           "\\long\\def\\@makecaption#1#2{{\\small\\vskip\\abovecaptionskip"
           "\\textbf{#1.}\\quad #2\\par}}\n\\makeatother\n\\normalsize\n\\begin{document}\n"
           + FILLER + "\n\n\\begin{figure}[h]\n\\centering\n\\includegraphics[width=0.5\\linewidth]{a.png}\n"
           f"\\caption{{{CAPTION}}}\n\\end{{figure}}\n\n" + FILLER + "\n\\end{document}\n")
    folder.mkdir()
    return compile_tex(folder, tex, {"a.png": ((600, 300), (90, 120, 150))})


def _caption(pdf: str) -> str:
    from figlint.ingest.pdf import read_pdf

    figures = read_pdf(pdf).figures
    assert len(figures) == 1 and figures[0].caption is not None
    return figures[0].caption.text


def test_caption_on_the_texts_fixed_pitch_is_read_whole(tmp_path, pdflatex):
    text = _caption(_paper(tmp_path / "draft", "20"))
    assert "Panel h)" in text and text.rstrip().endswith("caption here."), text
    assert "Sentence" not in text  # the paragraph after the float is not the caption's


def test_caption_on_a_single_spaced_pitch_is_read_whole(tmp_path, pdflatex):
    text = _caption(_paper(tmp_path / "single", "11"))
    assert "Panel h)" in text and text.rstrip().endswith("caption here."), text
    assert "Sentence" not in text
