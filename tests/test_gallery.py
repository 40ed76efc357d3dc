"""Typical, well-made paper figures get no finding from any rule (tests/fixtures/gallery.py).

The rule cases check each rule on figures made for it; this checks the whole rule set
against the figures a careful author actually makes, in three matplotlib styles, as
vector PDF and as 300 DPI PNG
(the image route: visual and misleading-design rules; no caption, so the caption and
context rules are gated off). A finding here is a false alarm, the kind that teaches
authors to ignore the linter.
"""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from fixtures.charts import draw_chart  # noqa: E402
from fixtures.gallery import GALLERY  # noqa: E402
from figlint.config import Config  # noqa: E402
from figlint.engine import run  # noqa: E402
from fixtures.session_store import session_cache_dir  # noqa: E402

DPI = 300  # what a careful author exports at, for PNGs and for the images inside PDFs


def _raster_ready() -> bool:
    try:
        import cv2  # noqa: F401
        import rapidocr  # noqa: F401
    except ImportError:
        return False
    return True


# matplotlib's default look, and two common others: a grey panel with a white grid over
# everything (ggplot), and seaborn's darkgrid (white-rimmed markers on grey)
STYLES = ("default", "ggplot", "seaborn-v0_8-darkgrid")


@pytest.fixture(scope="module")
def gallery_files(tmp_path_factory):
    import matplotlib
    import matplotlib.pyplot as plt

    d = tmp_path_factory.mktemp("gallery")
    for style in STYLES:
        # a style sets every rcParam, savefig.dpi too: the export resolution is set inside it
        with plt.style.context(style), matplotlib.rc_context({"savefig.dpi": DPI}):
            for name, draw in GALLERY.items():
                for ext in ("pdf", "png"):
                    draw_chart(draw, d / f"{style}__{name}.{ext}", dpi=DPI)
    return d


@pytest.fixture(autouse=True)
def _ocr_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(session_cache_dir(tmp_path_factory)))


_RUNS = [(style, name, ext) for style in STYLES for name in GALLERY for ext in ("pdf", "png")]


@pytest.mark.parametrize(("style", "name", "ext"), _RUNS, ids=[f"{s}-{n}-{e}" for s, n, e in _RUNS])
def test_a_well_made_figure_gets_no_finding(style, name, ext, gallery_files):
    if ext == "png" and not _raster_ready():
        pytest.skip("OpenCV/RapidOCR not installed")
    # preview rules too: a rule not yet proven on real papers must stay silent on clean figures
    result = run([str(gallery_files / f"{style}__{name}.{ext}")], Config(preview=True))
    assert result.results[0].error is None
    assert [f"{f.code} {f.message}" for f in result.findings] == []
