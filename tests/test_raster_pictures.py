"""FL102 reads the labels of charts and diagrams, not the text a picture depicts.

Field audit: map screenshots (a basemap's street and place names), a photographed receipt
and a mock table inside a schematic were reported as tiny text, on six papers, although
that text is part of what the picture shows, not labels the author set. The same small
words on a flat light background (a chart's labels) are still reported. Images are
generated here (PIL, numpy) with their resolution recorded, so they print at a known size.
"""

from __future__ import annotations

import pytest

pytest.importorskip("rapidocr")
np = pytest.importorskip("numpy")

from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from figlint.config import Config  # noqa: E402
from figlint.engine import run  # noqa: E402

WORDS = ["Main Street", "Riverside", "Old Town", "Harbour", "North Gate", "Market"]


def _font(px: int):
    try:
        return ImageFont.truetype("DejaVuSans.ttf", px)
    except OSError:
        return ImageFont.load_default()


def _image(path, background) -> str:
    """600x400 px at 200 DPI (3 x 2 in): words set at 9 px print at about 3.5 pt."""
    img = Image.fromarray(background)
    d = ImageDraw.Draw(img)
    for k, w in enumerate(WORDS):
        d.text((30 + 180 * (k % 3), 60 + 120 * (k // 3)), w, fill=(20, 20, 20), font=_font(9))
    img.save(path, dpi=(200, 200))
    return str(path)


def _fl102(path, monkeypatch, tmp_path):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path / "cache"))
    res = run([path], Config(select=["FL102"]))
    return [f.message for f in res.findings if f.code == "FL102"]


def test_small_labels_on_a_light_background_are_reported(tmp_path, monkeypatch):
    flat = np.full((400, 600, 3), 250, np.uint8)
    assert len(_fl102(_image(tmp_path / "chart.png", flat), monkeypatch, tmp_path)) == 1


def test_text_inside_a_picture_is_not_a_label(tmp_path, monkeypatch):
    rng = np.random.default_rng(7)
    # a map-like picture: smooth patches of many colours, no flat paper background
    coarse = rng.integers(60, 230, size=(20, 30, 3)).astype(np.uint8)
    picture = np.array(Image.fromarray(coarse).resize((600, 400), Image.BICUBIC))
    picture = np.clip(picture.astype(int) + rng.integers(-12, 12, size=picture.shape), 0, 255).astype(np.uint8)
    assert _fl102(_image(tmp_path / "map.png", picture), monkeypatch, tmp_path) == []
