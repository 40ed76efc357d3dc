"""features.axes.oblique: tick labels along a slanted edge (a 3D plot's box) against a flat
tick column, whose labels share an edge however their widths differ."""

from __future__ import annotations

from figlint.features.axes import Token, find_axes, oblique


def _token(text: str, x1: float, cy: float, h: float = 10.0, cw: float = 6.0) -> Token:
    """A label of `text` ending at x1 (right-aligned), centred on row cy."""
    return Token(text, (x1 - cw * len(text), cy - h / 2, x1, cy + h / 2))


def _column(toks: list[Token]):
    (ax,) = [a for a in find_axes(toks) if a.orient == "y" and len(a.ticks) == len(toks)]
    return ax


def test_labels_drifting_along_a_slanted_edge_are_oblique():
    # 250000 .. 257000 climbing to the right: 4 px sideways for every 9 px up
    toks = [_token(str(250000 + 1000 * i), 100 + 4 * i, 300 - 9 * i) for i in range(8)]
    ax = _column(toks)
    assert ax.clean and oblique(ax, 10.0)


def test_a_flat_column_of_labels_of_different_widths_is_not():
    # right-aligned 0 .. 2500: the left edges and centres move, the right edges do not
    toks = [_token(str(v), 100, 300 - 30 * i) for i, v in enumerate((0, 500, 1000, 1500, 2000, 2500))]
    ax = _column(toks)
    assert ax.clean and not oblique(ax, 10.0)


def test_a_column_shifted_by_ocr_jitter_is_not():
    # boxes read a pixel or two off, with no steady drift along the column
    jitter = [0, 2, -1, 1, -2, 0]
    toks = [_token(str(10 * i), 100 + j, 300 - 30 * i) for i, j in enumerate(jitter)]
    ax = _column(toks)
    assert ax.clean and not oblique(ax, 10.0)
