"""Bar groups: rectangles that stand on one common baseline (or start at one common left edge).

Shared by the vector and raster analyses. A group is at least two (usually
three or more) rectangles of similar thickness, side by side without
overlapping, whose bottoms (vertical bars) or left edges (horizontal bars)
agree within a tolerance and whose lengths differ — legend swatches and
table cells share edges too, but not with varying lengths.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median

BBox = tuple[float, float, float, float]


@dataclass
class BarGroup:
    orient: str  # "vertical" (bars rise from a baseline) or "horizontal" (bars extend right)
    baseline: float  # y of the common bottom (vertical) or x of the common left edge (horizontal)
    boxes: list[BBox] = field(default_factory=list)
    far_ends: list[float] = field(default_factory=list)  # bar tops (vertical) or right ends

    @property
    def count(self) -> int:
        return len(self.boxes)

    @property
    def uniform(self) -> bool:
        """Three or more "bars" of one length: the cells of a colour bar or of a heatmap's
        row or column. Bars that all have one length compare nothing, so they are not
        taken for a bar chart."""
        if self.count < 3:
            return False
        lengths = [abs(f - self.baseline) for f in self.far_ends]
        return max(lengths) - min(lengths) <= max(2.0, 0.03 * max(lengths))

    def to_dict(self) -> dict:
        return {"orient": self.orient, "baseline": round(self.baseline, 2), "count": self.count,
                "boxes": [[round(v, 1) for v in b] for b in self.boxes[:40]]}


def _group(boxes: list[BBox], orient: str, tol: float) -> list[BarGroup]:
    if orient == "vertical":
        base = lambda b: b[3]  # noqa: E731
        far = lambda b: b[1]  # noqa: E731
        thick = lambda b: b[2] - b[0]  # noqa: E731
        across = lambda b: (b[0], b[2])  # noqa: E731
    else:
        base = lambda b: b[0]  # noqa: E731
        far = lambda b: b[2]  # noqa: E731
        thick = lambda b: b[3] - b[1]  # noqa: E731
        across = lambda b: (b[1], b[3])  # noqa: E731
    boxes = sorted(boxes, key=base)
    clusters: list[list[BBox]] = []
    for b in boxes:
        if clusters and abs(base(b) - base(clusters[-1][0])) <= tol:
            clusters[-1].append(b)
        else:
            clusters.append([b])
    groups = []
    for cl in clusters:
        if len(cl) < 2:
            continue
        # Bars of one group have similar thickness and do not overlap across the axis.
        t_med = median(thick(b) for b in cl)
        cl = [b for b in cl if 0.6 * t_med <= thick(b) <= 1.6 * t_med]
        cl.sort(key=lambda b: across(b)[0])
        sel: list[BBox] = []
        for b in cl:
            if sel and across(b)[0] < across(sel[-1])[1] - 0.2 * t_med:
                continue
            sel.append(b)
        if len(sel) < 2:
            continue
        lengths = [abs(base(b) - far(b)) for b in sel]
        if max(lengths) < 1.05 * min(lengths) and len(sel) < 4:
            continue  # equal-length rectangles in a row: legend swatches, table cells
        if max(lengths) < 1.02 * min(lengths):
            continue
        groups.append(BarGroup(orient, median(base(b) for b in sel), sel, [far(b) for b in sel]))
    return groups


def find_bar_groups(boxes: list[BBox], tol: float) -> list[BarGroup]:
    """Candidate vertical and horizontal bar groups, best (most bars, most area) first;
    not cells of one length (a colour bar, a heatmap's row: see BarGroup.uniform)."""
    groups = [g for g in _group(boxes, "vertical", tol) + _group(boxes, "horizontal", tol) if not g.uniform]

    def score(g: BarGroup) -> tuple:
        area = sum((b[2] - b[0]) * (b[3] - b[1]) for b in g.boxes)
        return (g.count >= 3, area, g.count)

    return sorted(groups, key=score, reverse=True)
