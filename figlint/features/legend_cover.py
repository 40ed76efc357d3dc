"""Legends printed over plotted data: which data marks lie under each legend of a chart.

`an.get("legend_cover")` lists, for a vector analysis, one LegendCover per legend — the
legend entries of features/legend.py grouped into blocks that stand together, with the
frame drawn around them if any — and the data marks inside its box: the length of data
lines running through it, the scatter markers whose centres lie in it, and the area of
bars under it. Data marks are read from the same paths as the rest of the analysis:
lines are open stroked runs of three or more vertices advancing along x (as
features/series.py reads them), markers are small shapes of one size and colour
repeated at least five times, bars are the filled rectangles of a bar group
(features/bars.py). The legend's own samples, markers and patches are not data.

Only in a chart (a figure with a value axis: a key in a diagram is not measured). Where
the legend stands needs no test of its own: data marks lie inside plots, so marks under a
legend put it inside one (the tick labels cannot bound the plots: panels stacked on one
shared axis print their ticks once).

Raster figures are not read (an empty list): an opaque legend frame leaves no pixels of
what it hides, and the foreground mask does not tell a data line from a frame or a grid
line, so what a raster legend covers cannot be measured reliably.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, field

from figlint.features import derived
from figlint.features.bars import find_bar_groups
from figlint.features.vector import Boxes, TextIndex, is_light, run_box, run_boxes

BBox = tuple[float, float, float, float]


@dataclass
class LegendCover:
    box: BBox  # the legend: its frame, else its entries (samples and labels) together
    entries: list[str]
    framed: bool
    line_length: float = 0.0  # length of data lines inside the box, in the analysis' unit
    line_count: int = 0  # distinct data lines crossing it
    markers: int = 0  # data markers whose centres lie in it
    all_markers: int = 0  # data markers in the figure
    bar_area: float = 0.0  # area of bars under it
    unit: float = 0.0  # the figure's text height: the yardstick of the thresholds
    examples: list[BBox] = field(default_factory=list)  # where data marks meet the legend

    @property
    def area(self) -> float:
        return max(self.box[2] - self.box[0], 0.0) * max(self.box[3] - self.box[1], 0.0)

    def to_dict(self) -> dict:
        return {"box": [round(v, 1) for v in self.box], "entries": self.entries, "framed": self.framed,
                "line_length": round(self.line_length, 1), "line_count": self.line_count,
                "markers": self.markers, "bar_area": round(self.bar_area, 1)}


@derived("legend_cover")
def legend_cover(an) -> list[LegendCover]:
    if an.source != "vector" or not an.drawings or not an.axes:
        return []
    if not any(a.clean for a in an.axes):
        return []  # no value axis: a diagram's key, not a chart's legend
    u = an.unit_size
    entries = list(an.get("legend"))
    entries += _centred_entries(an, u, entries)
    entries += _scatter_entries(an, u, entries)
    if not entries:
        return []
    blocks = [b for b in _blocks(entries, u) if not (len(b) == 1 and not _lone_legend(b[0]) or not _legend_like(b))]
    if not blocks:
        return []  # no legend among the entries: the chart's marks need not be read
    swatches = [_grow(e.swatch or e.bbox, 0.4 * u) for e in entries]
    text = TextIndex([t.bbox for t in an.tokens])
    lines = _data_lines(an, u)
    labels = [_grow(e.bbox, 0.3 * u) for e in entries]
    marks = _markers(an, u, swatches, labels)
    mark_grid = _Points([c for c, _b, _k in marks], 4 * u)  # a legend's box asks for the few inside it
    bars = _bars(an, u, swatches)
    out = []
    for block in blocks:
        inner = _union([e.bbox for e in block])
        frame = _frame(an, inner, u)
        box = frame[0] if frame else inner
        lc = LegendCover(box, [e.text for e in block], frame is not None, unit=u, all_markers=len(marks))
        # grazing contact is not cover: the box shrunk by a fifth of a text height
        core = _grow(box, -0.2 * u)
        for run, shown in lines:
            n = _clipped_length(run, _meet(core, shown))
            if n > 0:
                lc.line_length += n
                lc.line_count += 1
                lc.examples.append(run_box(run))
        # a marker on one of the legend's lines of entries is one of its samples, whichever
        # label it belongs to and on whichever side (gnuplot puts samples right of their
        # labels, where the entry reading may take them for the next column's swatches)
        rows = [((e.swatch or e.bbox)[1] + (e.swatch or e.bbox)[3]) / 2 for e in block]
        beside = [z for e in block for z in ((e.text_x - 2.5 * u, e.bbox[1], e.text_x, e.bbox[3]),
                                             (e.bbox[2], e.bbox[1], e.bbox[2] + 2.5 * u, e.bbox[3]))]
        for c, b, k in (marks[j] for j in mark_grid.in_box(core)):
            if not (core[0] <= c[0] <= core[2] and core[1] <= c[1] <= core[3]) or text.covers(b, 0.3):
                continue  # outside, or a glyph drawn as a path over text
            if frame:
                # paint order tells data from samples: a frame hides what was drawn before
                # it; the legend's samples are drawn after it (on it)
                if k < frame[1]:
                    lc.markers += 1
            elif not any(abs(c[1] - y) <= 0.35 * u for y in rows) and not any(_within(c, z) for z in beside):
                lc.markers += 1  # no frame: not a sample on an entry's line or beside its label
        for b in bars:
            if _inside(inner, _grow(b, 0.3 * u)):
                continue  # a box around the whole legend: its frame, or a panel's background
            w = min(b[2], core[2]) - max(b[0], core[0])
            h = min(b[3], core[3]) - max(b[1], core[1])
            if w > 0 and h > 0:
                lc.bar_area += w * h
                lc.examples.append(b)
        out.append(lc)
    return out


def covers_data(lc: LegendCover, min_line: float = 2.5, min_markers: int = 2, min_bar_share: float = 0.1) -> bool:
    """Whether the marks under a legend amount to hidden data: a stretch of line at least
    `min_line` text heights long, `min_markers` markers (and at least 0.5 % of the figure's: a
    legend grazing the edge of a cloud of thousands of points hides nothing a reader
    misses), or bars under `min_bar_share` of it."""
    return (lc.line_length >= min_line * lc.unit or hidden_markers(lc, min_markers)
            or lc.bar_area >= min_bar_share * lc.area)


def hidden_markers(lc: LegendCover, min_markers: int = 2) -> bool:
    return lc.markers >= max(min_markers, 0.005 * lc.all_markers)


# --- legend blocks and frames ------------------------------------------------------------

def _blocks(entries, u: float) -> list[list]:
    """Entries that stand together (within a text height of each other): one legend each."""
    groups: list[list] = []
    for e in entries:
        near = [g for g in groups if any(_touch(_grow(e.bbox, 0.6 * u), _grow(o.bbox, 0.6 * u)) for o in g)]
        merged = [e]
        for g in near:
            merged += g
            groups.remove(g)
        groups.append(merged)
    # entries in reading order (top to bottom, left to right), as the legend lists them
    return [sorted(g, key=lambda e: (round(e.bbox[1]), e.bbox[0])) for g in groups]


def _centred_entries(an, u: float, known: list) -> list:
    """Legend entries whose labels are centred (pgfplots' default): their samples share
    both edges in a column, one under the other, though the labels start at different x.
    features/legend.py reads the pairs but keeps only labels that share a left edge."""
    pairs = [e for e in an.derived.get("_legend_pairs", []) if e not in known and e.swatch is not None]
    out = []
    for e in pairs:
        cy = (e.swatch[1] + e.swatch[3]) / 2
        for o in pairs:
            if o is e:
                continue
            if (abs(o.swatch[0] - e.swatch[0]) <= 0.2 * u and abs(o.swatch[2] - e.swatch[2]) <= 0.2 * u
                    and 0 < abs((o.swatch[1] + o.swatch[3]) / 2 - cy) <= 4 * u):
                out.append(e)
                break
    return out


def _scatter_entries(an, u: float, known: list) -> list:
    """Legend entries of scatter plots that features/legend.py does not read: a marker
    centred in a sample as long as a line's (matplotlib's scatter and marker-only legends)
    stands up to 2.5 text heights left of its label, farther than a line sample's end.
    Only entries that stand in a column of two or more, with different labels, not on the
    line of an entry already read: a data point left of a word is one, not a column."""
    from figlint.features.legend import LegendEntry, _is_label, _rgb, label_windows

    cands = []
    shown: dict[tuple, tuple | None] = {}  # (fill, stroke) -> the colour a marker shows, None if light
    drawings = an.drawings
    beside_label = label_windows(an, 0.2 * u, 2.5 * u, 0.35 * u)
    for b, i in _small_shapes(an, u):
        if b[2] - b[0] > 1.0 * u or b[3] - b[1] > 1.0 * u or not beside_label(b[2], (b[1] + b[3]) / 2):
            continue  # too large, or no word starts where its label would
        d = drawings[i]
        style = (d.fill, d.stroke)
        if style in shown:
            colour = shown[style]
        else:
            colour = d.fill if d.fill is not None and not is_light(d.fill) else d.stroke
            colour = shown[style] = None if colour is None or is_light(colour) else colour
        if colour is not None:
            cands.append((b, colour))
    if not cands:
        return []
    grid = _Points([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b, _ in cands], 3 * u)
    taken = [e.bbox for e in known]
    found = []
    for t in an.tokens:
        if t.rotated or t.value is not None or not _is_label(t.text) or any(_touch(t.bbox, k) for k in taken):
            continue
        best = None
        for i in grid.near((t.bbox[0] - 1.5 * u, t.cy)):
            b, colour = cands[i]
            gap = t.bbox[0] - b[2]
            if 0.2 * u <= gap <= 2.5 * u and abs((b[1] + b[3]) / 2 - t.cy) <= 0.35 * u:
                if best is None or gap < best[0]:
                    best = (gap, b, colour)
        if best is not None:
            _, b, colour = best
            box = (b[0], min(b[1], t.bbox[1]), t.bbox[2], max(b[3], t.bbox[3]))
            found.append(LegendEntry(text=t.text.strip(), colour=_rgb(colour), style="marker", bbox=box,
                                     swatch=b, text_x=t.bbox[0]))
    out = []
    for e in found:
        column = [o for o in found if abs(o.text_x - e.text_x) <= 0.4 * u
                  and abs((o.bbox[1] + o.bbox[3]) / 2 - (e.bbox[1] + e.bbox[3]) / 2) <= 4 * u]
        if len(column) >= 2 and len({" ".join(o.text.split()).lower() for o in column}) == len(column):
            out.append(e)
    return out


class _Points:
    """Points on a coarse grid: the indices of those within a cell of a place."""

    def __init__(self, points: list[tuple[float, float]], cell: float) -> None:
        self.cell = max(cell, 1.0)
        self.grid: dict[tuple[int, int], list[int]] = {}
        for i, (x, y) in enumerate(points):
            try:
                key = (int(x // self.cell), int(y // self.cell))
            except (ValueError, OverflowError):
                continue  # a non-finite point is in no box
            self.grid.setdefault(key, []).append(i)

    def near(self, c: tuple[float, float]) -> list[int]:
        gx, gy = int(c[0] // self.cell), int(c[1] // self.cell)
        return [i for dx in (-1, 0, 1) for dy in (-1, 0, 1) for i in self.grid.get((gx + dx, gy + dy), ())]

    def in_box(self, b: BBox) -> list[int]:
        """The indices of the points in the cells a box overlaps (those in the box and some
        beside it), in their order."""
        c = self.cell
        try:
            xs = range(int(b[0] // c), int(b[2] // c) + 1)
            ys = range(int(b[1] // c), int(b[3] // c) + 1)
        except (ValueError, OverflowError):
            return []
        if len(xs) * len(ys) > len(self.grid):
            return sorted(i for pts in self.grid.values() for i in pts)
        return sorted(i for gx in xs for gy in ys for i in self.grid.get((gx, gy), ()))


def _lone_legend(e) -> bool:
    """A legend of one entry: a line sample beside a label of two or more letters. A lone
    marker or patch beside a letter or numeral is a region's badge ("I", "B" in a circle
    over a phase diagram), not a legend."""
    return e.style in ("solid", "dashed", "dotted") and sum(c.isalpha() for c in e.text) >= 2


def _legend_like(block) -> bool:
    """Labels a legend prints: not one label repeated, and more than a letter or a digit
    for a lone entry. The same letter beside each of two coloured cells ("A", "A") is a diagram's
    cells, not a legend's entries (a legend may repeat a label across two groups of its
    lines: "N = 1000" solid and dashed)."""
    texts = [" ".join(e.text.split()).lower() for e in block]
    if len(texts) > 1:
        return len(set(texts)) > 1  # letters alone may label groups ("A", "B", "C")
    return any(sum(c.isalnum() for c in t) >= 2 for t in texts)


def _frame(an, inner: BBox, u: float) -> tuple[BBox, int] | None:
    """The smallest box drawn around a legend's entries, at most three text heights wider
    on any side (a legend's frame pads its entries; the axes' own patch is far larger)."""
    best = None
    shapes = _frame_shapes(an)
    widths, order = _frame_widths(an, shapes)
    # a frame is at least as wide as the entries less its allowance on either side: of the
    # shapes by width, only the wide ones are tested (a scatter's markers are shapes too)
    for k in sorted(order[bisect_left(widths, inner[2] - inner[0] - 0.6 * u - 1e-9):]):
        i, d = shapes[k]
        b = d.bbox
        if not (b[0] <= inner[0] + 0.3 * u and b[1] <= inner[1] + 0.3 * u
                and b[2] >= inner[2] - 0.3 * u and b[3] >= inner[3] - 0.3 * u):
            continue
        if max(inner[0] - b[0], inner[1] - b[1], b[2] - inner[2], b[3] - inner[3]) > 3 * u:
            continue
        if best is None or _area(b) < _area(best[0]):
            best = (b, i)
    return best


def _frame_widths(an, shapes: list) -> tuple[list[float], list[int]]:
    """The widths of the frame shapes in ascending order, and their places in `shapes`
    (shapes of no finite width are left out: no frame test passes them)."""
    got = an.derived.get("_frame_widths")
    if got is None:
        pairs = sorted((w, k) for k, (_i, d) in enumerate(shapes)
                       if math.isfinite(w := d.bbox[2] - d.bbox[0]))
        got = an.derived["_frame_widths"] = ([w for w, _k in pairs], [k for _w, k in pairs])
    return got


def _frame_shapes(an) -> list:
    """(paint index, Drawing) of the drawings that can frame a legend: closed shapes or
    fills of at most 16 segments. Listed once per analysis for all its legends."""
    got = an.derived.get("_frame_shapes")
    if got is None:
        got = []
        for i, d in enumerate(an.drawings):
            if d.items > 16 or (d.fill is None and d.stroke is None):
                continue
            if d.fill is None and not (d.shape.startswith("re") or any(len(r) >= 4 and _closed(r) for r in d.lines)):
                continue  # an open stroke (a data line with few points) around the entries is no frame
            got.append((i, d))
        an.derived["_frame_shapes"] = got
    return got


# --- data marks --------------------------------------------------------------------------

def _data_lines(an, u: float) -> list[tuple[list[tuple[float, float]], BBox]]:
    """Open stroked runs of three or more vertices, at least three text heights wide, that
    advance along x (features/series.py): data lines, not rules, frames, samples or shapes.
    Each with the box it prints in: its Drawing's box, which is cut to the clip in force
    (a curve of a log plot runs on far below its axes, clipped; on the page it passes under
    the panel below, where it prints nothing)."""
    out = []
    for d in an.drawings:
        if d.fill is not None or d.stroke is None or not d.lines:
            continue
        for run in d.lines:
            if len(run) < 3 or _closed(run):
                continue
            b = run_box(run)
            if b[2] - b[0] < 3 * u:
                continue
            xs = [p[0] for p in run]
            back = sum(1 for a, c in zip(xs, xs[1:]) if c < a - 0.05)
            fwd = sum(1 for a, c in zip(xs, xs[1:]) if c > a + 0.05)
            if min(back, fwd) > 0.1 * (len(xs) - 1):
                continue
            out.append((run, d.bbox))
    return out


def _small_shapes(an, u: float) -> list[tuple[BBox, int]]:
    """Marker-sized shapes, each as (box, paint index): the pieces of the paths (a merged
    group of markers gives one per vertex run), between 0.15 and 1.2 text heights. Read
    once per analysis for the markers and the scatter legends alike."""
    key = "_small_shapes"
    if key in an.derived:
        return an.derived[key]
    out = []
    lo, hi = 0.15 * u, 1.2 * u
    boxes = run_boxes(an)
    for i, d in enumerate(an.drawings):
        if d.fill is None and d.stroke is None:
            continue
        runs = [b for r, b in zip(d.lines, boxes[i]) if len(r) >= 3] if len(d.lines) > 1 else (d.bbox,)
        for b in runs:
            if lo <= b[2] - b[0] <= hi and lo <= b[3] - b[1] <= hi:
                out.append((b, i))
    an.derived[key] = out
    return out


def _markers(an, u: float, swatches: list[BBox], labels: list[BBox]) -> list[tuple[tuple[float, float], BBox, int]]:
    """Small shapes of one size and colour drawn at least five times (a scatter's or a
    line's markers), as (centre, box, paint index), legend samples left out. A group of shapes mostly
    inside legend entries is the legends' own: a symbol of the labels drawn as a path
    (matplotlib draws an "ε" its font lacks), repeated in every legend of a figure of
    panels, between the words the text layer holds."""
    groups: dict[tuple, list] = {}
    rounded: dict[tuple, tuple] = {}  # colour -> its rounding (a cloud of markers has a few colours)
    drawings = an.drawings
    for b, i in _small_shapes(an, u):
        d = drawings[i]
        colour = d.fill if d.fill is not None else d.stroke
        key = rounded.get(colour)
        if key is None:
            key = rounded[colour] = tuple(round(c, 2) for c in colour[:3])
        key = key + (round(b[2] - b[0], 1), round(b[3] - b[1], 1))
        groups.setdefault(key, []).append((b, i))
    in_labels = Boxes(labels, 4 * u)
    in_samples = Boxes(swatches, 4 * u)
    out = []
    for bs in groups.values():
        if len(bs) < 5:
            continue
        centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b, _ in bs]
        if sum(in_labels.held(centres)) >= 0.5 * len(bs):
            continue
        out += [(c, b, i) for c, (b, i), sample in zip(centres, bs, in_samples.held(centres)) if not sample]
    return out


def _bars(an, u: float, swatches: list[BBox]) -> list[BBox]:
    """Filled rectangles of a chart with bars (two or more standing on one baseline, as
    features/bars.py groups them): every such rectangle, the segments of stacked bars and
    bars of another series included, legend patches left out."""
    m = an.marks
    rects = [r.bbox for r in getattr(m, "rects", [])
             if not any(_inside(r.bbox, s) for s in swatches)]
    if not any(g.count >= 2 for g in find_bar_groups(rects, tol=0.6)):
        return []
    return rects


# --- geometry ----------------------------------------------------------------------------

def _clipped_length(run, box: BBox) -> float:
    """Length of a polyline inside a box (Liang-Barsky clipping of each segment)."""
    x0, y0, x1, y1 = box
    if x1 <= x0 or y1 <= y0:
        return 0.0
    total = 0.0
    for (ax, ay), (bx, by) in zip(run, run[1:]):
        if max(ax, bx) < x0 or min(ax, bx) > x1 or max(ay, by) < y0 or min(ay, by) > y1:
            continue
        dx, dy = bx - ax, by - ay
        t0, t1 = 0.0, 1.0
        ok = True
        for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
            if p == 0:
                if q < 0:
                    ok = False
                    break
                continue
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                ok = False
                break
        if ok:
            total += (t1 - t0) * (dx * dx + dy * dy) ** 0.5
    return total


def _closed(run) -> bool:
    return abs(run[0][0] - run[-1][0]) < 1e-3 and abs(run[0][1] - run[-1][1]) < 1e-3


def _grow(b: BBox, d: float) -> BBox:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def _meet(a: BBox, b: BBox) -> BBox:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _within(c: tuple[float, float], b: BBox) -> bool:
    return b[0] <= c[0] <= b[2] and b[1] <= c[1] <= b[3]


def _touch(a: BBox, b: BBox) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _inside(a: BBox, b: BBox) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def _union(boxes) -> BBox:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _area(b: BBox) -> float:
    return max(b[2] - b[0], 0.0) * max(b[3] - b[1], 0.0)


__all__ = ["LegendCover", "covers_data", "hidden_markers", "legend_cover"]
