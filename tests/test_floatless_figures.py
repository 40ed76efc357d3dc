"""Figures set without a float, their caption's label typed by hand.

pandoc's PLOS template (R Markdown articles) and some authors set a figure as a graphic in
the running text followed by a paragraph that opens with a bold "Fig 1." label. LaTeX steps
no counter; the label is the figure's number. The PDF route reads such a paragraph as the
graphic's caption; the sources read no figure at all, so every figure was "in the PDF but not
in the sources" (false FL008, a field audit). And a figure set this way breaks where the page
does (a float never does): the graphic closes one page, its caption opens the next, and the
PDF route read an uncaptioned graphic (false FL201) and a caption without one.
"""

from __future__ import annotations

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest import load
from fixtures.pdf_build import compile_tex

IMAGES = {"a.png": ((400, 300), (90, 140, 200)), "b.png": ((400, 300), (200, 140, 90)),
          "c.png": ((400, 300), (60, 160, 90))}
TEXT = "The counts rise over the season in every plot of the survey. "


def _figure(name: str, number: int, title: str, height: str = "0.3\\textheight") -> str:
    return (f"\\begin{{flushleft}}\\includegraphics[width=0.6\\linewidth,height={height}]{{{name}}} \\end{{flushleft}}\n\n"
            f"\\textbf{{Fig {number}. {title}.}} Each panel shows one plot of the survey over the season.\n\n")


def _paper(fill_before_third: int) -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            + TEXT * 12 + "The plots are in Fig 1, their sites in Fig 2 and the controls in Fig 3.\n\n"
            + _figure("a.png", 1, "Counts over the season")
            + TEXT * 8 + "\n\n" + _figure("b.png", 2, "Sites of the survey")
            + TEXT * fill_before_third + "\n\n" + _figure("c.png", 3, "Controls of the survey", "0.42\\textheight")
            + TEXT * 10 + "\n\\end{document}\n")


def _check(tmp_path, tex: str) -> tuple:
    pdf = compile_tex(tmp_path, tex, IMAGES)
    printed = load(pdf)
    sources = load(str(tmp_path / "main.tex"), pdf=pdf)
    return pdf, printed, sources


def test_typed_labels_number_floatless_figures_on_both_routes(tmp_path, pdflatex):
    pdf, printed, sources = _check(tmp_path, _paper(6))
    for paper in (printed, sources):
        assert [f.number for f in paper.figures] == ["1", "2", "3"], (paper.route, [f.number for f in paper.figures])
        assert all(f.caption is not None and "Each panel shows one plot" in f.caption.text for f in paper.figures)
    assert sources.figures[0].caption.text.startswith("Counts over the season")
    assert [len(f.graphics) for f in sources.figures] == [1, 1, 1]
    assert not [p for p in sources.problems if p.code == "FL008"]
    found = lint_path(str(tmp_path / "main.tex"), Config(pdf=pdf, preview=True)).findings
    # no counter: nothing to \label, and a typed number is the only way to cite the figure
    assert not [f for f in found if f.code in ("FL008", "FL201", "FL203", "FL305")], [(f.code, f.message) for f in found]


def test_a_floatless_figure_broken_by_the_page_is_one_figure(tmp_path, pdflatex):
    """Enough text before the third figure that its graphic ends one page and its caption
    opens the next: one figure, on the graphic's page, its caption on the next."""
    import pymupdf

    for fill in range(8, 16):
        pdf = compile_tex(tmp_path, _paper(fill), IMAGES)
        doc = pymupdf.open(pdf)
        caption_page = next(i for i, p in enumerate(doc) if "Fig 3. Controls" in p.get_text())
        pictures = [i for i, p in enumerate(doc) if p.get_images()]
        top = doc[caption_page].search_for("Fig 3. Controls")[0].y0
        if caption_page not in pictures[-1:] and top < 150:
            break
    else:
        raise AssertionError("no fill put the third caption at the top of the page after its graphic")
    printed = load(pdf)
    assert [f.number for f in printed.figures] == ["1", "2", "3"], [(f.number, f.page) for f in printed.figures]
    third = printed.figures[2]
    assert third.page == caption_page and third.caption.location.page == caption_page + 1
    assert third.images and third.bbox is not None
    found = lint_path(pdf, Config(preview=True)).findings
    assert not [f for f in found if f.code == "FL201"], [f.message for f in found]
    sources = load(str(tmp_path / "main.tex"), pdf=pdf)
    assert [f.page for f in sources.figures] == [f.page for f in printed.figures]
