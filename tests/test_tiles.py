"""Pictures exported in tiles are one picture (figlint/features/quality.py: tile_groups).

The paper-level behaviour (a tiled rendering is not JPEG line art, a tiled JPEG chart still is)
is in tests/fixtures/cases_visual.py (jpeg-artefacts-tiled-*); here, which images group.
"""

from __future__ import annotations

from figlint.features.quality import tile_groups
from figlint.model import RasterImage


def _img(name, x0, y0, w_px=100, h_px=100, pt_per_px=0.24, placed=None):
    box = (x0, y0, x0 + w_px * pt_per_px, y0 + h_px * pt_per_px)
    dpi = 72 / pt_per_px
    return RasterImage(width_px=w_px, height_px=h_px, bbox=box, dpi_x=dpi, dpi_y=dpi, xref=1, name=name,
                       placed=placed)


def test_a_grid_of_abutting_tiles_is_one_group():
    tiles = [_img(f"t{r}{c}", 10 + 24 * c, 20 + 24 * r) for r in range(3) for c in range(4)]
    groups, rest = tile_groups(tiles)
    assert [len(g) for g in groups] == [12] and rest == []


def test_tiles_cut_by_a_clip_group_by_their_whole_boxes():
    # the outer column printed cut to the text block: its shown box is narrower, its pixels span 24 pt
    left = _img("a", 10, 20)
    cut = _img("b", 34, 20)
    cut.placed, cut.bbox = cut.bbox, (34, 20, 44, 44)
    groups, rest = tile_groups([left, cut])
    assert len(groups) == 1 and rest == []


def test_images_apart_or_at_another_scale_or_offset_are_not_tiles():
    a = _img("a", 10, 20)
    gap = _img("gap", 10 + 24 + 2, 20)  # 2 pt of white between two photographs
    other_scale = _img("scale", 10, 44, pt_per_px=0.3, w_px=80, h_px=80)  # below, 24 pt wide, other DPI
    shifted = _img("shift", 34, 30)  # beside, but 10 pt lower: not a row of a grid
    groups, rest = tile_groups([a, gap, other_scale, shifted])
    assert groups == [] and {i.name for i in rest} == {"a", "gap", "scale", "shift"}


def test_separate_pictures_of_one_figure_stay_apart():
    row1 = [_img(f"p{c}", 10 + 24 * c, 20) for c in range(2)]
    row2 = [_img(f"q{c}", 100 + 24 * c, 20) for c in range(2)]
    groups, rest = tile_groups(row1 + row2 + [_img("lone", 10, 200)])
    assert sorted(sorted(i.name for i in g) for g in groups) == [["p0", "p1"], ["q0", "q1"]]
    assert [i.name for i in rest] == ["lone"]
