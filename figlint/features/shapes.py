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


def _light(c) -> bool:
    return c is None or (len(c) >= 3 and min(c[:3]) > 0.93)


def _angle(p, q) -> float:
    return math.degrees(math.atan2(q[1] - p[1], q[0] - p[0])) % 180.0


def _quad(d) -> list[tuple[float, float]] | None:
    """The four corners of a closed four-sided path, else None."""
    if len(d.lines) != 1:
        return None
    pts = list(d.lines[0])
    if len(pts) == 5 and math.dist(pts[0], pts[-1]) < 0.5:
        pts = pts[:4]
    if len(pts) != 4:
        return None
    return pts


def _axis_aligned(a: float, tol: float = 3.0) -> bool:
    return min(a % 90.0, 90.0 - a % 90.0) <= tol


def oblique_faces(an, min_side: float) -> list[Face]:
    """Filled parallelograms with one axis-aligned and one slanted pair of edges, larger than markers."""
    if "oblique_faces" in an.derived:
        return an.derived["oblique_faces"]
    out: list[Face] = []
    for d in getattr(an, "drawings", None) or []:
        if d.fill is None or _light(d.fill) or d.items > 6:
            continue
        pts = _quad(d)
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
        out.append(Face(d.bbox, slant, d.fill))
    an.derived["oblique_faces"] = out
    return out


def circles(an, min_d: float) -> list[Circle]:
    """Filled closed curves with a square box (circles drawn as four or more Bezier pieces)."""
    if "circles" in an.derived:
        return an.derived["circles"]
    out: list[Circle] = []
    for d in getattr(an, "drawings", None) or []:
        if d.fill is None or _light(d.fill) or d.items < 4 or d.items > 16:
            continue
        x0, y0, x1, y1 = d.bbox
        w, h = x1 - x0, y1 - y0
        if w < min_d or abs(w - h) > 0.06 * max(w, h):
            continue
        if len(d.lines) != 1 or len(d.lines[0]) < 5:
            continue
        cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (w + h) / 4
        # every vertex on the circle (a square or an octagon marker is not one)
        if any(abs(math.dist((cx, cy), p) - r) > 0.08 * r for p in d.lines[0]):
            continue
        out.append(Circle(d.bbox, d.fill))
    an.derived["circles"] = out
    return out


def size_classes(ds: list[float], tol: float = 0.1) -> list[float]:
    """Distinct sizes among diameters (within `tol` relative)."""
    out: list[float] = []
    for d in sorted(ds):
        if not out or d > out[-1] * (1 + tol):
            out.append(d)
    return out
