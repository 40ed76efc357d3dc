"""Typical, well-made paper figures get no finding from any rule (tests/fixtures/gallery.py).

The rule cases check each rule on figures made for it; this checks the whole rule set
against the figures a careful author actually makes, as vector PDF and as 300 DPI PNG
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

DPI = 300  # what a careful author exports at, for PNGs and for the images inside PDFs


def _raster_ready() -> bool:
    try:
        import cv2  # noqa: F401
        import rapidocr  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def gallery_files(tmp_path_factory):
    import matplotlib

    d = tmp_path_factory.mktemp("gallery")
    old = matplotlib.rcParams["savefig.dpi"]
    matplotlib.rcParams["savefig.dpi"] = DPI
    try:
        for name, draw in GALLERY.items():
            for ext in ("pdf", "png"):
                draw_chart(draw, d / f"{name}.{ext}", dpi=DPI)
    finally:
        matplotlib.rcParams["savefig.dpi"] = old
    return d


@pytest.fixture(autouse=True)
def _ocr_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "ocr-cache"))


_RUNS = [(name, ext) for name in GALLERY for ext in ("pdf", "png")]


@pytest.mark.parametrize(("name", "ext"), _RUNS, ids=[f"{n}-{e}" for n, e in _RUNS])
def test_a_well_made_figure_gets_no_finding(name, ext, gallery_files):
    if ext == "png" and not _raster_ready():
        pytest.skip("OpenCV/RapidOCR not installed")
    result = run([str(gallery_files / f"{name}.{ext}")], Config())
    assert result.results[0].error is None
    assert [f"{f.code} {f.message}" for f in result.findings] == []
