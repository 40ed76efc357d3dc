"""PDF route: a caption set beside its graphic (a minipage of the plot next to a minipage of
the caption, as ecology and other journals' templates do) owns the whole graphic.

The field audit (an ecology paper) found the graphic of such a figure split into captionless
panels: its panels stand apart with white space between them, the caption's search for
graphics beside it grew only across small gaps, and the gap to the caption was measured from
the plot's ink, not from the included graphic's own box (its white margin made it "too far").
The graphic here is a PDF of four panels with wide gaps, drawn by a script; the paper is
compiled with pdflatex.
"""

from __future__ import annotations

import pymupdf

from fixtures.pdf_build import compile_tex

PANELS = 4


def _panel_pdf(path) -> None:
    """A 3.4 x 7 in figure of four stacked panels, each a frame with ticks, a line and labels,
    26 pt of white between them and a white margin on the right."""
    doc = pymupdf.open()
    page = doc.new_page(width=245, height=504)
    for k in range(PANELS):
        y0 = 10 + k * 124
        page.draw_rect(pymupdf.Rect(40, y0, 200, y0 + 90), color=(0, 0, 0), width=0.8)
        for t in range(5):
            x = 40 + t * 40
            page.draw_line((x, y0 + 90), (x, y0 + 93), color=(0, 0, 0), width=0.5)
        page.draw_polyline([(45, y0 + 80), (90, y0 + 40 + 5 * k), (140, y0 + 60), (195, y0 + 20)],
                           color=(0.1, 0.3, 0.8), width=1.2)
        page.insert_text((10, y0 + 50), f"{k}.5", fontsize=7)
        page.insert_text((4, y0 + 8), "abcd"[k], fontsize=10)
    doc.save(path)


def _paper(folder, side: bool) -> str:
    folder.mkdir()
    _panel_pdf(folder / "panels.pdf")
    caption = ("\\caption{\\label{fig:est}Estimates from the model, including (a) coefficients for each taxon "
               "and (b--d) responses to each predictor. Points are posterior medians and error bars are "
               "posterior standard errors; grey lines mark zero.}")
    if side:
        body = ("\\begin{figure}\n\\begin{minipage}[c]{3.5in}\n\\includegraphics{panels.pdf}\n\\end{minipage}\\hfill\n"
                "\\begin{minipage}[b]{2.6in}\n" + caption + "\n\\end{minipage}\n\\end{figure}\n")
    else:
        body = "\\begin{figure}\n\\centering\\includegraphics{panels.pdf}\n" + caption + "\n\\end{figure}\n"
    tex = ("\\documentclass{article}\n\\usepackage[margin=1in]{geometry}\n\\usepackage{graphicx}\n\\begin{document}\n"
           "Figure~\\ref{fig:est} shows the estimates.\n\n" + body + "\\clearpage\nThe end.\n\\end{document}\n")
    return compile_tex(folder, tex)


def _figures(pdf: str):
    from figlint.ingest.pdf import read_pdf

    return read_pdf(pdf).figures


def test_a_caption_beside_its_graphic_owns_all_its_panels(tmp_path, pdflatex):
    figs = _figures(_paper(tmp_path / "side", side=True))
    assert [f.number for f in figs] == ["1"], [(f.number, f.bbox) for f in figs]
    box = figs[0].bbox
    # the four panels, top to bottom (the page's scale: the figure prints at its own size)
    assert box[3] - box[1] > 0.85 * 504 - 20, box


def test_the_same_graphic_with_its_caption_below_is_one_figure_too(tmp_path, pdflatex):
    figs = _figures(_paper(tmp_path / "below", side=False))
    assert [f.number for f in figs] == ["1"], [(f.number, f.bbox) for f in figs]
    assert figs[0].bbox[3] - figs[0].bbox[1] > 0.85 * 504 - 20
