"""Whether a figure shows uncertainty: error bars, shaded bands, box plots.

`an.get("uncertainty")` reads, for a vector analysis:

* error bars: short vertical strokes (not grid lines, not spines) tied to a data mark —
  a cap (a short horizontal stroke centred on either end), a marker or a vertex of a
  data line strictly inside the stroke, or the top of a bar crossing it;
* shaded bands: filled polygons whose outline is not flat at the bottom, around a data
  line (most of the line's vertices inside the polygon) and thin relative to the plot
  (an area chart under its line is not a band);
* box plots: the chart type "box" or boxes crossed by a median line;
* text in the figure that names uncertainty ("±", "std", "CI", "s.e.").

Raster analyses are read best effort: box plots and whiskers found by the pixel
analysis count; otherwise the answer is "unknown" (`reliable` False), and rules that
need to know that uncertainty is absent must not conclude it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from figlint.features import derived

UNCERTAINTY_WORDS = re.compile(
    r"±|\+/-|\bstd\b|\bs\.?d\.?\b|\bs\.?e\.?m?\.?\b|\bstd\.?\s*dev|\bstandard (?:deviation|error)s?\b|"
    r"\b\d{2}\s?%\s*(?:ci|c\.i\.|confidence)|\bci\b|\bconfidence interval|\bquartiles?\b|\biqr\b|\bvariance\b",
    re.IGNORECASE,
)


@dataclass
class Uncertainty:
    error_bars: int = 0
    bands: int = 0
    boxes: bool = False
    text: list[str] = field(default_factory=list)  # figure text naming uncertainty
    reliable: bool = False  # True: a vector reading (absence means absent); False: unknown when none found

    @property
    def kinds(self) -> list[str]:
        out = []
        if self.error_bars:
            out.append("error bars")
        if self.bands:
            out.append("shaded bands")
        if self.boxes:
            out.append("box plots")
        if self.text:
            out.append("uncertainty labels")
        return out

    @property
    def shown(self) -> bool:
        return bool(self.kinds)

    def to_dict(self) -> dict[str, Any]:
        return {"error_bars": self.error_bars, "bands": self.bands, "boxes": self.boxes, "text": self.text,
                "reliable": self.reliable, "kinds": self.kinds}


def _inside(poly: list[tuple[float, float]], x: float, y: float) -> bool:
    """Ray casting (even-odd) point-in-polygon test."""
    hit = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / ((yj - yi) or 1e-12) + xi:
            hit = not hit
        j = i
    return hit


def _thickness(poly: list[tuple[float, float]], x: float) -> float:
    """Vertical extent of the polygon along the line at x."""
    ys = []
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (x1 <= x <= x2 or x2 <= x <= x1) and x1 != x2:
            ys.append(y1 + (y2 - y1) * (x - x1) / (x2 - x1))
    return (max(ys) - min(ys)) if len(ys) >= 2 else 0.0


def _bands(an, lines, u: float) -> int:
    found = 0
    for d in an.drawings:
        if d.fill is None or not d.lines or d.items <= 5:
            continue
        poly = max(d.lines, key=len)
        if len(poly) < 6:
            continue
        x0, y0, x1, y1 = d.bbox
        if x1 - x0 < 3 * u:
            continue
        # an area chart stands on a flat bottom edge: several vertices at the lowest y
        bottom = sum(1 for p in poly if abs(p[1] - y1) < 0.3)
        if bottom >= 0.3 * len(poly):
            continue
        for run in lines:
            if not (x0 - 1 <= min(p[0] for p in run) and max(p[0] for p in run) <= x1 + 1):
                continue
            step = max(1, len(run) // 60)
            sample = run[::step]
            inner = [p for p in sample if _inside(poly, p[0], p[1])]
            if len(inner) < max(3, 0.6 * len(sample)):
                continue
            thick = sorted(_thickness(poly, p[0]) for p in inner[:40])
            if thick and thick[len(thick) // 2] <= 0.25 * an.height:
                found += 1
                break
    return found


def _box(run) -> tuple[float, float, float, float]:
    xs = [p[0] for p in run]
    ys = [p[1] for p in run]
    return (min(xs), min(ys), max(xs), max(ys))


def _segments(an):
    """Straight two-vertex strokes of the figure, split by orientation: (vertical, horizontal)."""
    vert, horiz = [], []
    for d in an.drawings:
        if d.stroke is None or not d.lines:
            continue
        for run in d.lines:
            if len(run) != 2:
                continue
            (ax, ay), (bx, by) = run
            if abs(ax - bx) <= 0.6 and abs(ay - by) > 0.8:
                vert.append(((ax + bx) / 2, min(ay, by), max(ay, by)))
            elif abs(ay - by) <= 0.6 and abs(ax - bx) > 0.3:
                horiz.append(((ay + by) / 2, min(ax, bx), max(ax, bx)))
    return vert, horiz


def _grid_like(segs, length_limit: float) -> set[int]:
    """Indices of long strokes sharing their extent with three others: grid lines, not error bars."""
    extent: dict[tuple, list[int]] = {}
    for i, (_, a, b) in enumerate(segs):
        extent.setdefault((round(a), round(b)), []).append(i)
    return {i for (a, b), idx in extent.items() if len(idx) >= 4 and b - a > length_limit for i in idx}


def _error_bars(an, lines, u: float) -> int:
    vert, horiz = _segments(an)
    if not vert and not horiz:
        return 0
    marks, rects = [], []
    for d in an.drawings:
        if d.fill is None:
            continue
        # merged paths (one Drawing, several runs): each closed run is a marker
        boxes = [_box(r) for r in d.lines if len(r) >= 3] if len(d.lines) > 1 else [d.bbox]
        for x0, y0, x1, y1 in boxes:
            w, h = x1 - x0, y1 - y0
            if max(w, h) <= 1.2 * u and min(w, h) >= 0.1 * u:
                marks.append(((x0 + x1) / 2, (y0 + y1) / 2))
            elif d.items <= 5 and w > 0.6 and h > 0.6:
                rects.append((x0, y0, x1, y1))

    def table(points, key):
        out: dict[int, list] = {}
        for p in points:
            out.setdefault(round(key(p)), []).append(p)
        return out

    def near(tab, v):
        return [p for k in (round(v) - 1, round(v), round(v) + 1) for p in tab.get(k, ())]

    hcaps = table([(y, (a + b) / 2) for y, a, b in horiz if b - a <= 2 * u], key=lambda p: p[1])  # (y, cx) by cx
    vcaps = table([(x, (a + b) / 2) for x, a, b in vert if b - a <= 2 * u], key=lambda p: p[1])  # (x, cy) by cy
    by_x = table(marks, key=lambda p: p[0])
    verts = table([p for run in lines for p in run], key=lambda p: p[0])
    grid_v = _grid_like(vert, 0.3 * an.height)
    grid_h = _grid_like(horiz, 0.3 * an.width)
    n = 0
    for i, (x, y0, y1) in enumerate(vert):
        if i in grid_v or y1 - y0 >= 0.6 * an.height:
            continue
        ok = any(abs(cx - x) <= 0.6 and (abs(cy - y0) <= 0.8 or abs(cy - y1) <= 0.8) for cy, cx in near(hcaps, x))
        ok = ok or any(abs(mx - x) <= 0.6 and y0 + 0.5 < my < y1 - 0.5 for mx, my in near(by_x, x))
        ok = ok or any(abs(vx - x) <= 0.6 and y0 + 0.5 < vy < y1 - 0.5 for vx, vy in near(verts, x))
        ok = ok or any(abs((r[0] + r[2]) / 2 - x) <= 0.1 * (r[2] - r[0]) + 0.5 and y0 + 0.5 < r[1] < y1 - 0.5
                       for r in rects)
        n += ok
    for i, (y, x0, x1) in enumerate(horiz):
        if i in grid_h or x1 - x0 >= 0.6 * an.width:
            continue
        # horizontal error bars: caps at the ends, or the end of a horizontal bar inside
        ok = any(abs(cy - y) <= 0.6 and (abs(cx - x0) <= 0.8 or abs(cx - x1) <= 0.8) for cx, cy in near(vcaps, y))
        ok = ok or any(abs((r[1] + r[3]) / 2 - y) <= 0.1 * (r[3] - r[1]) + 0.5 and x0 + 0.5 < r[2] < x1 - 0.5
                       for r in rects)
        n += ok
    return n


@derived("uncertainty")
def uncertainty(an) -> Uncertainty:
    out = Uncertainty()
    out.text = sorted({m.group(0) for t in an.tokens for m in [UNCERTAINTY_WORDS.search(t.text)] if m})[:5]
    if an.source == "vector":
        out.reliable = True
        lines = [r for d in an.drawings if d.fill is None and d.stroke is not None for r in d.lines if len(r) >= 3]
        u = an.unit_size
        out.error_bars = _error_bars(an, lines, u)
        if out.error_bars < 2:
            out.error_bars = 0
        out.bands = _bands(an, lines, u)
        marks = an.marks
        out.boxes = an.chart_type == "box" or getattr(marks, "box_parts", 0) >= 2
    elif an.source == "raster":
        out.boxes = an.chart_type == "box" or bool(an.evidence.get("whiskers"))
    return out
