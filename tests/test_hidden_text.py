"""Text painted over by a later opaque fill is not read as text (ingest/pdf_hidden.py).

All three PDF readers use it: the page reader of the PDF route (read_page), the
figure-file reader of the image route (read_graphics) and the LaTeX route's placement of
figure files when no PDF is compiled (placement.py). The fixtures are the
stacked answer cards of tests/fixtures/cases_visual.py: opaque top cards hide the
"Strong yes" under them; translucent ones let it show.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

pytest.importorskip("matplotlib")

from fixtures.all_cases import make_charts  # noqa: E402,F401  (registers every fixture family's charts)
from fixtures.charts import CHARTS, draw_chart  # noqa: E402

from figlint.ingest.graphics import read_graphics  # noqa: E402
from figlint.ingest.pdf_layout import read_page  # noqa: E402


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    d = tmp_path_factory.mktemp("cards")
    return {name: draw_chart(CHARTS[name], d / f"{name}.pdf") for name in ("stacked_cards", "see_through_cards")}


def _page_words(path: Path) -> list[str]:
    with pymupdf.open(path) as doc:
        return [ln.text for ln in read_page(doc[0]).lines]


def test_page_reader_drops_text_under_an_opaque_card(cards):
    words = _page_words(cards["stacked_cards"])
    assert not [w for w in words if "Strong yes" in w], words
    assert {"Yes", "No", "Neutral"} <= set(words)
    assert sum("Question" in w for w in words) == 3  # text beside the cards is untouched


def test_page_reader_keeps_text_under_a_translucent_card(cards):
    words = _page_words(cards["see_through_cards"])
    assert sum("Strong yes" in w for w in words) == 3


def test_figure_file_reader_agrees(cards):
    hidden = [s.text for s in read_graphics(str(cards["stacked_cards"])).figures[0].spans]
    shown = [s.text for s in read_graphics(str(cards["see_through_cards"])).figures[0].spans]
    assert "Strong yes" not in hidden and "Yes" in hidden
    assert shown.count("Strong yes") == 3


def test_latex_route_without_a_pdf_agrees(cards, tmp_path):
    """The LaTeX route places figure files itself when no compiled PDF exists (ingest/placement.py)."""
    from figlint.ingest import load

    for name in ("stacked_cards", "see_through_cards"):
        (tmp_path / f"{name}.pdf").write_bytes(cards[name].read_bytes())
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "\\begin{figure}\\includegraphics[width=\\linewidth]{stacked_cards}\\caption{Cards.}\\label{fig:a}\\end{figure}\n"
        "\\begin{figure}\\includegraphics[width=\\linewidth]{see_through_cards}\\caption{Cards.}\\label{fig:b}\\end{figure}\n"
        "Figures~\\ref{fig:a} and~\\ref{fig:b} show cards.\n\\end{document}\n")
    paper = load(str(tmp_path / "main.tex"))
    assert paper.pdf_path is None or not paper.pdf_path
    hidden, shown = ([s.text for s in f.spans] for f in paper.figures)
    assert "Strong yes" not in hidden and "Yes" in hidden
    assert shown.count("Strong yes") == 3


def _label_chart(path: Path, angle: float, gap: float) -> Path:
    """An opaque white card under tick-like labels set at `angle`, each `gap` type sizes across
    the line from the one before."""
    import math

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(3, 3))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.add_patch(plt.Rectangle((0.15, 0.15), 0.7, 0.7, color="white", zorder=0))
    size = 8
    step = gap * size / 216  # in axes fractions of the 3 in (216 pt) figure
    nx, ny = -math.sin(math.radians(angle)), math.cos(math.radians(angle))  # across the line
    for k in range(4):
        ax.text(0.4 + k * step * nx, 0.3 + k * step * ny, f"label {k}", fontsize=size, rotation=angle, zorder=1)
    fig.savefig(path)
    plt.close(fig)
    return path


@pytest.mark.parametrize("angle", [0, 45, 90])
def test_rows_of_a_label_are_no_suspects(tmp_path, angle, monkeypatch):
    """Lines of text one above another (a label's rows, tick labels side by side) have boxes
    that MuPDF draws to the font's full height, so they overlap; their letters do not, and
    their paint order is not asked (no get_texttrace)."""
    # across the line, the rows stand 0.76 of a size apart: their letters would share under a
    # quarter of their height, their full-height boxes over a third (at 45 degrees, 1.1 sizes:
    # the upright hulls of slanted rows overlap widely)
    path = _label_chart(tmp_path / "rows.pdf", angle, gap=1.1 if angle == 45 else 0.76)
    calls = []
    real = pymupdf.Page.get_texttrace
    monkeypatch.setattr(pymupdf.Page, "get_texttrace", lambda self: calls.append(1) or real(self))
    words = _page_words(path)
    assert sum(w.count("label") for w in words) == 4
    assert not calls


def test_text_printed_twice_on_one_spot_is_still_checked(cards, monkeypatch):
    calls = []
    real = pymupdf.Page.get_texttrace
    monkeypatch.setattr(pymupdf.Page, "get_texttrace", lambda self: calls.append(1) or real(self))
    _page_words(cards["stacked_cards"])
    assert calls


def _panel(path: Path, label: str) -> Path:
    """A panel file as plotting tools write them: a white ground over its whole page, the plot,
    a readable title and, along its bottom edge, a tiny colour-bar scale (3 pt)."""
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=150)
    page.draw_rect(page.rect, color=None, fill=(1, 1, 1))
    page.draw_rect(pymupdf.Rect(20, 20, 180, 120), color=None, fill=(0.2, 0.4, 0.8))
    page.insert_text((20, 14), f"Panel {label} of the run", fontsize=9)
    for k, v in enumerate(("0.0", "0.5", "1.0", "1.5", "2.0")):
        page.insert_text((30 + 35 * k, 144), v, fontsize=3)
    doc.save(path)
    return path


@pytest.mark.parametrize("overlap", [True, False])
def test_a_panel_ground_over_the_panel_before_hides_its_labels(tmp_path, pdflatex, overlap):
    """Panels tiled from separate files, the second pulled up over the first: its white ground
    covers the first panel's tiny scale (as in a simulation-snapshot grid of a field paper,
    whose covered colour-bar labels were reported as 2.9 pt text: FL102). Those labels overlap
    no other text; type that small inside an opaque fill is checked for a fill painted over it.
    Set apart, the same labels print and are reported."""
    from figlint.config import Config
    from figlint.engine import lint_path
    from fixtures.pdf_build import compile_main

    for k in ("a", "b"):
        _panel(tmp_path / f"panel_{k}.pdf", k)
    gap = "\\\\[-14pt]" if overlap else "\\\\[12pt]"
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "Figure~\\ref{fig:a} shows both panels of the run over the whole grid.\n"
        "\\begin{figure}[h]\\centering\\includegraphics{panel_a.pdf}" + gap + "\\includegraphics{panel_b.pdf}\n"
        "\\caption{The two panels of the run.}\\label{fig:a}\\end{figure}\n\\end{document}\n")
    pdf = compile_main(tmp_path)
    for path in (pdf, str(tmp_path / "main.tex")):
        res = lint_path(path, Config(select=["FL102"]))
        (fig,) = res.paper.figures
        tiny = [s.text for s in fig.spans if s.size < 4]
        codes = [f.code for f in res.findings]
        if overlap:
            # the first panel's scale is under the second's ground; the second's prints
            assert len(tiny) == 5, tiny
        else:
            assert len(tiny) == 10, tiny
        assert "FL102" in codes  # the second panel's scale prints either way
        assert sum(s.text.startswith("Panel") for s in fig.spans) == 2
