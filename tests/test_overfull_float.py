"""A float taller than the text block runs past the page number (issue 12: what is a figure).

LaTeX sets an overfull float from the top of the text block down, so its graphic is printed
across the folio and its caption under it, in the page's outer strip. The PDF route took that
caption for page furniture (a line in the outer strip) and the folio for a wall between the
caption and its graphic: the figure was missing from the PDF route (field audit, an sn-jnl
paper whose two-panel figure overflowed its page). Compiled with pdflatex; the same paper
with a graphic that fits is the control, and the folios stay page furniture.

A float a little taller than the text block sets its caption's rows on the page number's own
row and under it: those rows were taken for the page's foot (the row of a folio; the outer
strip), and the figure lost its caption (a REVTeX paper of the field audit, FIG. 11).
"""

from __future__ import annotations

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_tex

IMAGES = {"plot.png": ((400, 300), (200, 120, 60)), "tall.png": ((300, 600), (60, 120, 200))}
PARA = ("The measurements were repeated on every run with the same window and the same filter, "
        "and the results of each run were written to a separate file for later analysis. ") * 4


SHORT = "The field of the second window over all runs."
LONG = ("The field of the second window over all runs, averaged over the ten windows of each run and "
        "drawn with the same colour scale as the first window so that both can be compared.")


def _paper(height: str, caption: str = SHORT) -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            "\\section{Results}\n" + PARA + " Figure~\\ref{fig:a} shows the runs.\n\n"
            "\\begin{figure}[h]\\centering\\includegraphics[width=6cm]{plot.png}"
            "\\caption{The runs of the first window.}\\label{fig:a}\\end{figure}\n"
            + PARA + "\n\n" + PARA + " Figure~\\ref{fig:b} shows the field.\n\n"
            "\\begin{figure}[p]\\centering\\includegraphics[width=5cm,height=" + height + "]{tall.png}"
            "\\caption{" + caption + "}\\label{fig:b}\\end{figure}\n"
            + ("\n\n" + PARA) * 44 + "\n\\end{document}\n")


@pytest.mark.parametrize("height", ["0.7\\textheight", "1.12\\textheight", "\\dimexpr\\textheight+8pt\\relax"])
def test_caption_under_the_folio_keeps_its_figure(tmp_path, pdflatex, height):
    caption = LONG if "dimexpr" in height else SHORT
    pdf = compile_tex(tmp_path, _paper(height, caption), IMAGES)
    paper = read_pdf(pdf)
    figs = {f.number: f for f in paper.figures}
    assert sorted(figs) == ["1", "2"]
    two = figs["2"]
    assert two.caption is not None and two.caption.text == caption
    assert two.bbox is not None
    import pymupdf

    page = pymupdf.open(pdf)[two.page - 1]
    [img] = [page.get_image_bbox(i) for i in page.get_images(full=True)]
    # the figure's box holds its whole graphic
    assert two.bbox[1] <= img.y0 + 1 and two.bbox[3] >= img.y1 - 1
    if height.startswith("1.12"):
        # the fixture does what it is for: the caption is set in the page's outer strip,
        # the graphic runs across the page number
        cap = two.caption.location.bbox
        assert cap[1] > 0.94 * page.rect.height
        folio = [b for b in page.get_text("blocks") if b[4].strip().isdigit()]
        assert folio and any(img.y0 < (f[1] + f[3]) / 2 < img.y1 for f in folio)
    if "dimexpr" in height:
        # the caption's first row is set on the page number's row, its others under it
        page = pymupdf.open(pdf)[two.page - 1]
        folio = [b for b in page.get_text("blocks") if b[4].strip().isdigit()]
        cap = two.caption.location.bbox
        assert folio and cap[1] < folio[0][3] and cap[3] > folio[0][3] + 10
    codes = [f.code for f in lint_path(pdf, Config(preview=True)).findings]
    assert "FL201" not in codes and "FL301" not in codes


def test_a_page_number_set_over_a_caption_row_is_not_caption_text():
    # A float far taller than the text block (a thesis's code listing, 49 pt over) runs its
    # caption over the folio, which the text block's estimate then holds: the folio is no page
    # furniture there, and "42" was read into the caption ("correctly ordered 42 and match").
    # A lone number set over the row's words is the page's; a script set in a gap between the
    # words ("x" then "2") is the caption's.
    from figlint.ingest.pdf_captions import _overprinted
    from figlint.ingest.pdf_layout import Line

    def line(text, x0, x1, y0=693.0, y1=704.0, spans=None):
        spans = spans or [{"text": text, "bbox": (x0, y0, x1, y1), "size": 10.0, "font": "CMR10"}]
        return Line(page=0, bbox=(x0, y0, x1, y1), text=text, spans=spans, size=10.0, font="CMR10", bold=False, block=0)

    words = [("server", 111, 141), ("design", 145, 177), ("must", 250, 280), ("be", 284, 296),
             ("correctly", 300, 345), ("ordered", 350, 390)]
    row = line(" ".join(w for w, *_ in words), 111, 390,
               spans=[{"text": w, "bbox": (a, 693.0, b, 704.0), "size": 10.0, "font": "CMR10"} for w, a, b in words])
    assert _overprinted(line("42", 299, 311, 693, 705), [row])
    assert not _overprinted(line("2", 296.5, 299.5, 690, 697), [row])  # a script in the gap after "be"
    assert not _overprinted(line("42", 299, 311, 720, 731), [row])  # on the next row: not over this one
    assert not _overprinted(line("cm", 299, 311, 693, 705), [row])
    # a product's lower limit under its sign: a script-size number over a symbol, not a word
    prod = line("U = \u220f x", 111, 200, spans=[{"text": "U", "bbox": (111.0, 693.0, 119.0, 704.0)},
                                                  {"text": "=", "bbox": (122.0, 693.0, 130.0, 704.0)},
                                                  {"text": "\u220f", "bbox": (133.0, 690.0, 145.0, 707.0)}])
    limit = line("1", 136, 141, 698, 705)
    limit.size = 7.0
    assert not _overprinted(limit, [prod])
