"""Content of an included PDF outside its page box is not printed, so it is not read.

A figure PDF cut out of a larger page keeps images, text and paths outside its page box;
pdfTeX places it as a Form XObject whose /BBox clips them away (tests/fixtures/clipped_pdf.py).
Read as visible, those images made captionless "figures" over the body text, 2 x 2 px images
quoted at a few DPI, and figure boxes reaching over the text beside them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fixtures.clipped_pdf import GONE, KEPT, OUTSIDE_TEXT, STRADDLE, STRADDLE_INSIDE, write_cropped_figure, write_paper
from fixtures.pdf_build import paragraphs_read


@pytest.fixture(scope="module", params=["media", "crop"])
def cropped_paper(request, tmp_path_factory, pdflatex):
    return write_paper(tmp_path_factory.mktemp(f"cropped_{request.param}"), request.param)


def _load(folder, route):
    from figlint.ingest import load

    if route == "pdf":
        return load(str(folder / "main.pdf"))
    return load(str(folder / "main.tex"), pdf=str(folder / "main.pdf"))


@pytest.mark.parametrize("route", ["pdf", "latex"])
def test_clipped_images_and_text_of_an_included_pdf_are_not_read(cropped_paper, route):
    paper = _load(cropped_paper, route)
    assert [f.number for f in paper.figures] == ["1", "2"]  # no captionless "figure" over the text
    one, two = paper.figures
    sizes = sorted((im.width_px, im.height_px) for im in one.images)
    # kept: the image inside the box, the one across its edge, and the PNG placed beside it
    assert sizes == sorted([KEPT, STRADDLE, (60, 60)])
    assert not any((im.width_px, im.height_px) in GONE for f in paper.figures for im in f.images)
    straddle = next(im for im in one.images if (im.width_px, im.height_px) == STRADDLE)
    assert abs((straddle.bbox[2] - straddle.bbox[0]) - STRADDLE_INSIDE) < 0.5  # cut at the box's edge
    assert abs(straddle.dpi_x - 72) < 1  # the resolution stays the whole image's (50 px over 50 pt)
    # its pixels map onto the whole image's box (pixel readings measure sizes through it)
    assert straddle.placed is not None and abs((straddle.placed[2] - straddle.placed[0]) - 50) < 0.5
    assert all(im.placed is None for im in one.images + two.images if im is not straddle)
    side = next(im for im in one.images if (im.width_px, im.height_px) == (60, 60))
    assert one.bbox[2] <= side.bbox[2] + 0.5  # the figure ends at the PNG beside the cropped PDF
    assert [(im.width_px, im.height_px) for im in two.images] == [(100, 50)]
    assert one.caption.text.endswith("towing speed in calm water.")
    assert two.caption.text.endswith("at the design speed.")
    texts = [s.text for f in paper.figures for s in f.spans]
    assert "inside label" in " ".join(texts)
    assert not any("Zanzibar" in t for t in texts)


def test_clipped_text_is_not_in_the_body(cropped_paper):
    got = paragraphs_read(str(cropped_paper / "main.pdf"))
    assert any("Froude number" in p for p in got)
    assert not any(OUTSIDE_TEXT.split()[0] in p for p in got)


@pytest.mark.parametrize("box", ["media", "crop"])
def test_a_cropped_figure_file_is_read_within_its_page_box(tmp_path, box):
    from figlint.ingest.graphics import read_graphics

    path = write_cropped_figure(tmp_path / "fig.pdf", box)
    fig = read_graphics(str(path)).figures[0]
    w, h = 200, 140
    assert sorted((im.width_px, im.height_px) for im in fig.images) == sorted([KEPT, STRADDLE])
    for im in fig.images:
        x0, y0, x1, y1 = im.bbox
        assert 0 <= x0 and 0 <= y0 and x1 <= w and y1 <= h
        assert abs(im.dpi_x - 72) < 1  # 60 px over 60 pt, 50 px over 50 pt: the whole image's
        assert (im.placed is None) == ((im.width_px, im.height_px) == KEPT)
    assert fig.drawings and all(d.bbox[2] <= w and d.bbox[3] <= h for d in fig.drawings)
    assert [s.text for s in fig.spans] == ["inside label"]


@pytest.mark.parametrize("coarse", [False, True])
def test_a_two_pixel_fill_shaped_by_its_soft_mask_is_not_a_low_resolution_picture(tmp_path, coarse):
    """Mathematica writes a label as a 2 x 2 px flat colour under a fine 1-bit soft mask: the
    2 x 2 image has no detail to lose (FL101 silent); a 12 x 12 px checkerboard over 80 pt has."""
    from fixtures.clipped_pdf import write_stencil_figure

    path = write_stencil_figure(tmp_path / "fig.pdf", coarse=coarse)
    proc = subprocess.run([sys.executable, "-m", "figlint", str(path), "--select", "FL101", "--format", "json",
                           "--no-cache"], capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    found = [f["message"] for p in json.loads(proc.stdout)["papers"] for f in p["findings"]]
    if coarse:
        assert len(found) == 1 and "12×12 px" in found[0] and "raster image prints" in found[0], found
    else:
        assert found == []
