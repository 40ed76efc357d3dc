"""Glyphs of a symbol font in a figure are marks, not text (field audit: R's pdf() device draws
scatter points as ZapfDingbats' filled circle by default, `useDingbats`; thousands of 2-4 pt
"labels" that overlap gave false FL102 tiny text and FL109 overlapping text on a genetics
paper's figures). The same points set as letters of a text font are still read as text (the
negative case). The figure file is written with PyMuPDF and placed by pdflatex; both routes.
"""

from __future__ import annotations

import pymupdf
import pytest

from figlint.config import Config
from figlint.engine import lint_path
from fixtures.pdf_build import compile_tex


def _scatter(path, marker_font: str) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=220)
    shape = page.new_shape()
    shape.draw_line((40, 20), (40, 190))
    shape.draw_line((40, 190), (290, 190))
    shape.finish(color=(0, 0, 0), width=0.8)
    shape.commit()
    for k, v in enumerate(("0", "10", "20", "30")):
        page.insert_text((22, 192 - 55 * k), v, fontname="helv", fontsize=10)
        page.insert_text((36 + 80 * k, 206), v, fontname="helv", fontsize=10)
    page.insert_text((120, 218), "Window position", fontname="helv", fontsize=10)
    for k in range(60):  # a cloud of points, some overlapping
        x, y = 50 + (k * 37) % 230, 30 + (k * 53) % 150
        page.insert_text((x, y), "l", fontname=marker_font, fontsize=5, color=(0.2, 0.3, 0.8))
        page.insert_text((x + 1.5, y + 0.5), "l", fontname=marker_font, fontsize=5, color=(0.2, 0.3, 0.8))
    doc.save(str(path))


def _paper() -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            "Figure~\\ref{fig:a} shows the first axis of every window along the chromosome.\n"
            "\\begin{figure}[h]\\centering\\includegraphics[width=9cm]{scatter.pdf}"
            "\\caption{First axis of every window along the chromosome.}\\label{fig:a}\\end{figure}\n"
            "\\end{document}\n")


@pytest.mark.parametrize("font", ["zadb", "helv"])
def test_symbol_font_glyphs_are_marks(tmp_path, pdflatex, font):
    _scatter(tmp_path / "scatter.pdf", font)
    compile_tex(tmp_path, _paper())
    for target, pdf in ((tmp_path / "main.pdf", None), (tmp_path / "main.tex", str(tmp_path / "main.pdf"))):
        codes = [f.code for f in lint_path(str(target), Config(select=["FL102", "FL109"], pdf=pdf)).findings]
        if font == "zadb":  # ZapfDingbats: the points are marks
            assert codes == [], (target.name, codes)
            # ... with their colour: the figure's marks hold the 120 blue points
            from figlint.ingest import load

            fig = load(str(target), pdf).figure("1")
            blue = [d for d in fig.drawings if d.fill and d.fill[2] > 0.7 and d.fill[0] < 0.3]
            assert sum(d.paths for d in blue) == 120, (target.name, [(d.fill, d.paths) for d in fig.drawings])
        else:  # the same points as letters of a text font: tiny, overlapping text
            assert "FL102" in codes, (target.name, codes)


def test_symbol_glyphs_make_no_text_lines(tmp_path, pdflatex):
    """The page's text lines hold no symbol glyphs: a figure of R's points set in Dingbats made
    lines of them that outnumbered the prose, so the text column was found among the points
    and a citation broken over two lines was read apart (field audit, FL301)."""
    from figlint.ingest.pdf_layout import read_page

    _scatter(tmp_path / "scatter.pdf", "zadb")
    compile_tex(tmp_path, _paper())
    page = pymupdf.open(str(tmp_path / "main.pdf"))[0]
    assert any("ingbat" in s["font"] for b in page.get_text("dict")["blocks"] for l in b.get("lines", ())
               for s in l["spans"])  # the fixture: the points are on the page as glyphs
    lines = read_page(page).lines
    assert lines and not any("ingbat" in s["font"] for ln in lines for s in ln.spans)
    assert any("chromosome" in ln.text for ln in lines)
