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
