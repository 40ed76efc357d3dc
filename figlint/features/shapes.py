"""Shapes that encode a value by area or volume, read from vector paths.

Two readings, both on the vector paths of a figure (model.Drawing with its vertex
runs); raster figures are not read here:

- oblique faces: filled quadrilaterals with one pair of horizontal or vertical
  edges and one pair of parallel slanted edges — the top and side faces that
  office tools add to bars ("3D bars"), all slanted the same way by the oblique
  projection. Diamond markers (four slanted edges) and plain rectangles are not;
- circles: closed filled curves with a square box. Many circles of clearly
  different sizes are a bubble chart (a value mapped to marker area); circles of
  graded sizes each beside a number form its size legend.

Results are cached in the analysis' `derived` dict under "oblique_faces" and "circles".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from figlint.features.vector import is_light

BBox = tuple[float, float, float, float]


@dataclass
class Face:
    bbox: BBox
    slant: float  # direction of the slanted edges, degrees in [0, 180)
    fill: tuple[float, ...] | None


@dataclass
class Circle:
    bbox: BBox
    fill: tuple[float, ...] | None

    @property
    def d(self) -> float:
        return (self.bbox[2] - self.bbox[0] + self.bbox[3] - self.bbox[1]) / 2

    @property
    def cx(self) -> float:
        return (self.bbox[0] + self.bbox[2]) / 2

    @property
    def cy(self) -> float:
        return (self.bbox[1] + self.bbox[3]) / 2


def _angle(p, q) -> float:
    return math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) % 180.0


def _quad(run) -> list[tuple[float, float]] | None:
    pts = list(run)
    if len(pts) == 5 and math.dist(pts[0], pts[-1]) < 0.5:
        pts = pts[:4]
    if len(pts) != 4:
        return None
    return pts


def _box(pts) -> BBox:
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _outlines(an):
    """(vertex run, fill) of every filled outline of the figure's paths. Consecutive paths of
    one style are one Drawing (ingest/paths.merge_paths: a paper's figure region, a figure
    file and its placement from the sources alike), so each of its runs is one outline: one
    bubble of a scatter, one face of a 3D bar."""
    for d in getattr(an, "drawings", None) or []:
        if d.fill is None or is_light(d.fill):
            continue
        for run in d.lines:
            yield run, d.fill


def _axis_aligned(a: float, tol: float = 3.0) -> bool:
    return min(a % 90.0, 90.0 - a % 90.0) <= tol


def oblique_faces(an, min_side: float) -> list[Face]:
    """Filled parallelograms with one axis-aligned and one slanted pair of edges, larger than markers."""
    if "oblique_faces" in an.derived:
        return an.derived["oblique_faces"]
    out: list[Face] = []
    for run, fill in _outlines(an):
        pts = _quad(run)
        if pts is None:
            continue
        edges = [(pts[i], pts[(i + 1) % 4]) for i in range(4)]
        angles = [_angle(p, q) for p, q in edges]
        lengths = [math.dist(p, q) for p, q in edges]
        if min(lengths) < 0.25 * min_side or max(lengths) < min_side:
            continue
        # opposite edges parallel (a parallelogram)
        if any(min(abs(angles[i] - angles[i + 2]), 180 - abs(angles[i] - angles[i + 2])) > 3 for i in (0, 1)):
            continue
        aligned = [_axis_aligned(a) for a in angles[:2]]
        if aligned.count(True) != 1:
            continue
        slant = angles[0] if not aligned[0] else angles[1]
        if min(abs(slant - 90), abs(slant % 90)) < 12:
            continue  # nearly a rectangle
        out.append(Face(_box(pts), slant, fill))
    an.derived["oblique_faces"] = out
    return out


def circles(an, min_d: float) -> list[Circle]:
    """Filled closed curves with a square box (circles drawn as four or more Bezier pieces)."""
    if "circles" in an.derived:
        return an.derived["circles"]
    out: list[Circle] = []
    for run, fill in _outlines(an):
        # a circle is four to sixteen curves: their end points, the first one again at the end
        if not 5 <= len(run) <= 17 or math.dist(run[0], run[-1]) > 0.5:
            continue
        x0, y0, x1, y1 = box = _box(run)
        w, h = x1 - x0, y1 - y0
        if w < min_d or abs(w - h) > 0.06 * max(w, h):
            continue
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (w + h) / 4
        # every vertex on the circle (a square or an octagon marker is not one)
        if any(abs(math.dist((cx, cy), p) - r) > 0.08 * r for p in run):
            continue
        out.append(Circle(box, fill))
    an.derived["circles"] = out
    return out


def size_classes(ds: list[float], tol: float = 0.1) -> list[float]:
    """Distinct sizes among diameters (within `tol` relative)."""
    out: list[float] = []
    for d in sorted(ds):
        if not out or d > out[-1] * (1 + tol):
            out.append(d)
    return out
