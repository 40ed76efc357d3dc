"""A colour bar's edge pixels are its frame, not its colour map (FL110, field audit).

The first or last pixel row of a placed colour-bar image is often its frame blended into the
map's end colour: an olive row on parula's yellow end. Read as part of the map it gave a
lightness-monotone map (parula) a lightness rise and fall, and the stable rule FL110 called
it a rainbow (2 false findings on a physics summary). A jet bar with the same frame row is
still a rainbow. Colours sampled from matplotlib's own colour maps; classify is pure.
"""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from figlint.features.colour_scale import ColourScale, classify  # noqa: E402


# a parula-like map (dark blue, blue, cyan, green, orange, yellow; lightness rising all along)
PARULA = ["#362d8c", "#0268e1", "#0899d0", "#38b99e", "#98bf71", "#e1b952", "#fec832", "#f5e919"]


def _bar(name: str, edge: tuple[float, float, float] | None) -> ColourScale:
    from matplotlib import colormaps
    from matplotlib.colors import LinearSegmentedColormap

    cmap = LinearSegmentedColormap.from_list("parula-like", PARULA) if name == "parula" else colormaps[name]
    cols = [tuple(float(v) for v in cmap(1 - i / 179)[:3]) for i in range(180)]  # read from the top end
    if edge is not None:  # the frame blended into the top row
        cols[0] = tuple(0.55 * a + 0.45 * b for a, b in zip(cols[0], edge))
    return ColourScale(kind="bar", source="image", box=(0, 0, 10, 180), colours=cols, ticks=5)


@pytest.mark.parametrize("edge", [None, (0.0, 0.0, 0.0), (0.35, 0.35, 0.0)])
@pytest.mark.parametrize("name", ["parula", "viridis"])
def test_a_frame_row_at_the_end_of_a_monotone_bar_makes_no_rainbow(name, edge):
    assert classify(_bar(name, edge)) is None


@pytest.mark.parametrize("edge", [None, (0.0, 0.0, 0.0)])
def test_a_jet_bar_is_a_rainbow_with_or_without_its_frame_row(edge):
    verdict = classify(_bar("jet", edge))
    assert verdict is not None and verdict["kind"] == "rainbow"
