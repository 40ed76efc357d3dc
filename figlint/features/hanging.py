"""Bars hanging from one common top edge: a bar chart drawn upside down.

A bar chart whose value axis is inverted (`ax.invert_yaxis()`, or a graphic drawn so)
hangs every bar from the top: the longer the bar, the further down it reaches. When
tick labels are printed, the axis reading finds the inversion (features/axes.py);
graphics that print no value axis (values in a table beside the chart, or none) show
only the bars. `hanging_bars(an)` finds them on the marks alone: at least three solid
rectangles of one width, evenly spaced, whose tops agree and whose lengths differ,
making up most of the picture.

Look-alikes it keeps out: the top segments of a 100 % stacked bar chart (another
segment stands directly below each), the lower half of a diverging chart (bars rise
from the same line), bars of negative values (a minus sign printed anywhere), and any
chart with a vertical value axis beside the bars (the axis' own direction decides).
"""

from __future__ import annotations

from statistics import median

from figlint.features import year_like
from figlint.features.bars import BarGroup, _group

MIN_BARS = 3
MIN_SPREAD = 1.3  # the longest bar at least this many times the shortest: bars that compare values
MIN_COVER = 0.2  # the bars' bounding box covers this share of the picture: the chart, not a detail


def _boxes(an) -> list[tuple[float, float, float, float]]:
    rects = getattr(an.marks, "rects", None) or []
    return [tuple(getattr(r, "bbox", r)) for r in rects]


def hanging_bars(an) -> BarGroup | None:
    """The group of bars hanging from one top edge, or None (see the module docstring)."""
    if an.marks is None or an.chart_type in ("heatmap", "photo"):
        return None
    boxes = _boxes(an)
    if len(boxes) < MIN_BARS:
        return None
    tol = max(2.0, 0.006 * an.height) if an.source == "raster" else 0.6
    # the bars' grouping (features/bars.py) on the picture turned upside down: common tops
    flipped = [(b[0], -b[3], b[2], -b[1]) for b in boxes]
    for g in _group(flipped, "vertical", tol):
        hung = [(b[0], -b[3], b[2], -b[1]) for b in g.boxes]
        if _is_chart(an, hung, boxes, tol):
            return BarGroup("hanging", -g.baseline, hung, [b[3] for b in hung])
    return None


def _is_chart(an, hung, boxes, tol: float) -> bool:
    if len(hung) < MIN_BARS:
        return False
    widths = [b[2] - b[0] for b in hung]
    wm = median(widths)
    if any(not 0.8 * wm <= w <= 1.25 * wm for w in widths):
        return False
    centres = sorted((b[0] + b[2]) / 2 for b in hung)
    gaps = [b - a for a, b in zip(centres, centres[1:])]
    gm = median(gaps)
    if gm <= 0 or any(not 0.75 * gm <= g <= 1.25 * gm for g in gaps):
        return False  # bars stand at even steps; boxes of a diagram need not
    lengths = [b[3] - b[1] for b in hung]
    if max(lengths) < MIN_SPREAD * min(lengths):
        return False
    x0, x1 = min(b[0] for b in hung), max(b[2] for b in hung)
    top, bottom = min(b[1] for b in hung), max(b[3] for b in hung)
    if (x1 - x0) * (bottom - top) < MIN_COVER * max(an.width * an.height, 1e-6):
        return False
    for r in boxes:
        if r in hung or r[2] <= x0 or r[0] >= x1:
            continue
        if abs(r[3] - top) <= tol and r[3] - r[1] > tol:
            return False  # a bar standing on the same line: a diverging chart
        for b in hung:
            overlap = min(r[2], b[2]) - max(r[0], b[0])
            if overlap > 0.5 * (b[2] - b[0]) and abs(r[1] - b[3]) <= tol and r[3] - r[1] > tol:
                return False  # a segment directly below: a stacked bar reaching a common total
    if any(t.value is not None and t.value < 0 for t in an.tokens):
        return False  # negative values hang below their zero line
    u = an.unit_size
    for a in an.y_axes:
        beside = a.box[2] <= x0 + u or a.box[0] >= x1 - u  # a column among the bars is a table's
        if beside and not year_like(a) and min(a.hi, bottom) - max(a.lo, top) > 0.3 * (bottom - top):
            return False  # a value axis beside the bars: its labels say which way values grow
    return True
