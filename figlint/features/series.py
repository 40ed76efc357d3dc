"""Data series read from vector paths: their points in axis values, direction and x-range.

`an.get("series")` lists, for a vector analysis, every data line (a stroked, open
polyline of at least three vertices that is not a legend sample, a grid line or a
frame) and every group of scatter markers of one colour, each mapped to values
through the nearest clean x axis below it and y axis beside it. Its direction
(rising, falling, flat, mixed) is decided robustly: Kendall's tau between x and y
must agree with the change between the medians of the first and last fifth of the
points, measured against the y axis' visible span, so noise, a late dip or a single
outlier do not flip it. A legend entry (a short sample of the same colour with text
right of it) names the series. Raster analyses have no series (an empty list): the
rules that compare text with trends only read vector data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median
from typing import Any

from figlint.features import derived
from figlint.features.vector import run_box

MAX_POINTS = 60  # points per series for the O(n^2) tau


@dataclass
class Series:
    kind: str  # "line" | "markers"
    points: list[tuple[float, float]]  # (x value, y value), sorted by x
    pos_box: tuple[float, float, float, float]  # extent of the marks in figure units
    colour: tuple[float, ...] | None = None
    dash: str | None = None
    label: str = ""  # legend text, when a legend entry of the same style names it
    x_title: str = ""
    y_title: str = ""
    y_scale: str = "linear"
    direction: str = "mixed"  # rising | falling | flat | mixed
    tau: float = 0.0
    change: float = 0.0  # (last fifth - first fifth) / visible y span
    y_span: tuple[float, float] = (0.0, 0.0)  # the y axis' tick range
    axis_ids: tuple[int, int] = (-1, -1)  # (x axis index, y axis index) in an.axes

    @property
    def x_range(self) -> tuple[float, float]:
        xs = [p[0] for p in self.points]
        return (min(xs), max(xs)) if xs else (0.0, 0.0)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.x_range
        return {"kind": self.kind, "label": self.label, "direction": self.direction, "tau": round(self.tau, 3),
                "change": round(self.change, 3), "x_range": [round(lo, 4), round(hi, 4)], "points": len(self.points),
                "x_title": self.x_title, "y_title": self.y_title, "colour": self.colour, "dash": self.dash}


def _kendall(pts: list[tuple[float, float]]) -> float:
    n = len(pts)
    if n < 3:
        return 0.0
    s = tot = 0
    for i in range(n):
        xi, yi = pts[i]
        for j in range(i + 1, n):
            dx, dy = pts[j][0] - xi, pts[j][1] - yi
            if dx == 0:
                continue
            tot += 1
            if dy != 0:
                s += 1 if (dx > 0) == (dy > 0) else -1
    return s / tot if tot else 0.0


def direction_of(values: list[tuple[float, float]], span: float) -> tuple[str, float, float]:
    """(direction, tau, change/span) of points sorted by x; span: the y axis' visible range."""
    pts = sorted(values)
    if len(pts) < 3 or span <= 0:
        return "mixed", 0.0, 0.0
    sub = pts if len(pts) <= MAX_POINTS else [pts[round(i * (len(pts) - 1) / (MAX_POINTS - 1))] for i in range(MAX_POINTS)]
    tau = _kendall(sub)
    k = max(1, len(pts) // 5)
    change = (median(p[1] for p in pts[-k:]) - median(p[1] for p in pts[:k])) / span
    ys = [p[1] for p in pts]
    if (max(ys) - min(ys)) / span < 0.06:
        return "flat", tau, change
    if tau >= 0.6 and change >= 0.1:
        return "rising", tau, change
    if tau <= -0.6 and change <= -0.1:
        return "falling", tau, change
    return "mixed", tau, change


def _pick_axes(an, box, u: float):
    """The y axis beside a mark (left of it, else right) and the x axis below it (else above)."""
    x0, y0, x1, y1 = box
    ys = [a for a in an.y_axes if a.scale in ("linear", "log")]
    xs = [a for a in an.x_axes if a.scale in ("linear", "log")]

    def pad(a) -> float:
        return max((a.hi - a.lo) / max(len(a.ticks) - 1, 1), u)

    ys = [a for a in ys if a.lo - pad(a) <= y0 and y1 <= a.hi + pad(a)]
    left = [a for a in ys if a.box[2] <= x0 + u]
    right = [a for a in ys if a.box[0] >= x1 - u]
    ya = max(left, key=lambda a: a.box[2]) if left else (min(right, key=lambda a: a.box[0]) if right else None)
    xs = [a for a in xs if a.lo - pad(a) <= x0 and x1 <= a.hi + pad(a)]
    below = [a for a in xs if a.box[1] >= y1 - u]
    above = [a for a in xs if a.box[3] <= y0 + u]
    xa = min(below, key=lambda a: a.box[1]) if below else (max(above, key=lambda a: a.box[3]) if above else None)
    return xa, ya


def _legend_label(an, drawings, colour, dash, u: float, exclude) -> str:
    """Text right of a short legend sample drawn in the same colour and dash."""
    for d in drawings:
        if d.stroke is None or d.fill is not None or not d.lines:
            continue
        if not (_same_colour(d.stroke, colour) and (dash is None or d.dash == dash)):
            continue
        for run in d.lines:
            if len(run) > 3:
                continue
            x0, y0, x1, y1 = run_box(run)
            if y1 - y0 > 1.0 or not (0.5 * u <= x1 - x0 <= 5 * u):
                continue
            cy = (y0 + y1) / 2
            near = [t for t in an.tokens if not t.rotated and 0 <= t.bbox[0] - x1 <= 1.5 * u
                    and abs(t.cy - cy) <= 0.6 * max(t.h, 1e-6)]
            if near:
                return min(near, key=lambda t: t.bbox[0]).text.strip()
    return ""


def _same_colour(a, b, tol: float = 0.02) -> bool:
    if a is None or b is None or len(a) < 3 or len(b) < 3:
        return False
    return all(abs(p - q) <= tol for p, q in zip(a[:3], b[:3]))


def _span(ax) -> float:
    vals = ax.values
    if ax.scale == "log":
        vals = [math.log10(v) for v in vals if v > 0]
    return (max(vals) - min(vals)) if vals else 0.0


def _make(an, kind, pts_pos, box, colour, dash, u, drawings, source) -> Series | None:
    xa, ya = _pick_axes(an, box, u)
    if xa is None or ya is None:
        return None
    pts = sorted((xa.value_at(x), ya.value_at(y)) for x, y in pts_pos)
    span = _span(ya)
    dir_pts = [(x, math.log10(y)) for x, y in pts if y > 0] if ya.scale == "log" else pts
    direction, tau, change = direction_of(dir_pts, span)
    s = Series(kind, pts, box, colour, dash, x_title=xa.title, y_title=ya.title, y_scale=ya.scale,
               direction=direction, tau=tau, change=change, y_span=(min(ya.values), max(ya.values)),
               axis_ids=(an.axes.index(xa), an.axes.index(ya)))
    s.label = _legend_label(an, drawings, colour, dash, u, source)
    return s


def _closed(run) -> bool:
    return abs(run[0][0] - run[-1][0]) < 1e-3 and abs(run[0][1] - run[-1][1]) < 1e-3


@derived("series")
def series(an) -> list[Series]:
    if an.source != "vector" or not an.drawings or not an.axes:
        return []
    u = an.unit_size
    out: list[Series] = []
    markers: dict[tuple, list] = {}
    for d in an.drawings:
        if d.fill is None and d.stroke is not None and d.lines:
            # one Drawing may hold several runs (consecutive paths of one style are merged)
            for run in d.lines:
                if len(run) < 3 or _closed(run):
                    continue  # a rule, or a frame, box or arrow head
                box = run_box(run)
                w, h = box[2] - box[0], box[3] - box[1]
                if w < 3 * u or (h <= 1.0 and len(run) <= 3):
                    continue  # a legend sample or a rule
                xs = [p[0] for p in run]
                # a data series advances along x (a curve that doubles back is a shape, not a series)
                back = sum(1 for a, b in zip(xs, xs[1:]) if b < a - 0.05)
                fwd = sum(1 for a, b in zip(xs, xs[1:]) if b > a + 0.05)
                if min(back, fwd) > 0.1 * (len(xs) - 1):
                    continue
                s = _make(an, "line", run, box, d.stroke, d.dash, u, an.drawings, d)
                if s is not None:
                    out.append(s)
        elif d.fill is not None:
            boxes = [run_box(r) for r in d.lines if len(r) >= 3] if len(d.lines) > 1 else [d.bbox]
            for b in boxes:
                w, h = b[2] - b[0], b[3] - b[1]
                if max(w, h) <= 1.2 * u and min(w, h) >= 0.15 * u:
                    key = tuple(round(c, 2) for c in d.fill[:3]) + (round(w, 1), round(h, 1))
                    markers.setdefault(key, []).append(b)
    for key, bs in markers.items():
        if len(bs) < 5:
            continue
        centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in bs]
        colour = key[:3]
        # markers sitting on a line already read are that line's vertices
        if any(s.kind == "line" and _same_colour(s.colour, colour) for s in out):
            continue
        box = (min(c[0] for c in centres), min(c[1] for c in centres),
               max(c[0] for c in centres), max(c[1] for c in centres))
        if box[2] - box[0] < 3 * u:
            continue
        s = _make(an, "markers", centres, box, colour, None, u, an.drawings, None)
        if s is not None:
            if not s.label:
                s.label = _marker_label(an, bs, u)
            out.append(s)
    return out


def _marker_label(an, ds, u: float) -> str:
    """A legend entry for markers: one more marker of the group with text right of it."""
    for b in ds[:200]:
        cy = (b[1] + b[3]) / 2
        near = [t for t in an.tokens if not t.rotated and 0 <= t.bbox[0] - b[2] <= 1.5 * u
                and abs(t.cy - cy) <= 0.6 * max(t.h, 1e-6) and t.value is None]
        if near:
            return min(near, key=lambda t: t.bbox[0]).text.strip()
    return ""


__all__ = ["Series", "direction_of", "series"]
