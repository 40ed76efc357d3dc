"""Text painted over by a later opaque fill is not read as text (ingest/pdf_hidden.py).

Both PDF readers use it: the page reader of the PDF route (read_page) and the
figure-file reader of the image route (read_graphics). The fixtures are the
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
