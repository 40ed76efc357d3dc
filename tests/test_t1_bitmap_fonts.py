"""Text set in T1-encoded bitmap (Type 3) fonts, as pdfTeX makes it without CM-Super.

`\\usepackage[T1]{fontenc}` on a TeX installation without Type 1 EC fonts (Debian's
texlive-latex-base and the like) embeds bitmap Type 3 fonts whose glyphs carry no Unicode
names: MuPDF gives each glyph its code, so the ligatures and dashes come out as control
characters ("\\x1cgure" for "figure"). A field audit found every lower-case "figure N" of such
a paper unread on the PDF route (no citing site bound) and captions that differ from the
sources'. The ligatures of a text font are read as the letters they print; a math font's
delimiters (control characters too) are left alone.
"""

from __future__ import annotations

import pymupdf

from figlint.ingest import load
from figlint.ingest.pdf_layout import _t1_ligatures
from fixtures.pdf_build import compile_tex

IMAGES = {"a.png": ((300, 200), (90, 140, 200))}


def test_t1_ligatures_read_in_words_of_a_text_font():
    d = {"blocks": [{"lines": [{"spans": [
        {"font": "F33", "text": "the \x1cgure shows the e\x1bect of \x1dow \x15 see"},
        {"font": "F40", "text": "\x12\x13\x0c\x0c"},  # a math extension font's delimiters
        {"font": "F40", "text": "x\x1ay"},
    ]}]}]}
    _t1_ligatures(d)
    spans = d["blocks"][0]["lines"][0]["spans"]
    assert spans[0]["text"] == "the figure shows the effect of flow \u2013 see"
    assert spans[1]["text"] == "\x12\x13\x0c\x0c" and spans[2]["text"] == "x\x1ay"


def test_lower_case_figure_citations_bound_in_a_t1_bitmap_font_paper(tmp_path, pdflatex):
    body = "The effect of the flow on the final efficiency is small in the field. " * 12
    tex = ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{graphicx}\n\\begin{document}\n"
           + body + "As figure~\\ref{fig:a} shows, the effect is small.\n\n"
           + "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{a.png}\n"
           + "\\caption{The effect of the flow on the final efficiency.}\\label{fig:a}\n\\end{figure}\n"
           + body + "\n\\end{document}\n")
    pdf = compile_tex(tmp_path, tex, IMAGES)
    paper = load(pdf)
    assert [f.number for f in paper.figures] == ["1"]
    fig = paper.figures[0]
    assert fig.caption.text.startswith("The effect of the flow on the final efficiency")
    assert any("As figure 1 shows" in s.sentence for s in fig.sites), [s.sentence for s in fig.sites]
    types = {f[2] for f in pymupdf.open(pdf).get_page_fonts(0)}
    if "Type3" in types:  # the case of the field audit (no CM-Super here): read all the same
        sources = load(str(tmp_path / "main.tex"), pdf=pdf)
        assert not [p for p in sources.problems if p.code == "FL008"]
