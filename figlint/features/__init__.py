"""Figure analysis: what a figure shows, read from its vector content or its pixels.

`analyse(fig, paper)` builds (once per figure, cached in the figure's extra
dict) a FigureAnalysis: the text as tokens, numeric tick labels parsed and
grouped into value axes (direction, linear/log scale, spacing), the chart type
with a confidence, bar groups and where their baseline sits on the value axis.
Vector figures (a PDF figure file, a vector region of a paper) are read from
spans and drawings; raster figures go through OCR (lazily, cached per image
hash) and OpenCV. `to_dict()` is what `figlint extract --format json` prints.
"""

from __future__ import annotations

import importlib
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from figlint import budget
from figlint.errors import FeatureFailed
from figlint.features.axes import Axis, Token, find_axes
from figlint.features.bars import BarGroup, find_bar_groups
from figlint.model import Figure, Paper, union

_KEY = "_analysis"

# Derived features: read from an analysis on demand by the rules that need them, each
# computed once per analysis and cached. A module registers its features with
# @derived("name") on import; these modules are imported when the first one is asked for.
_DERIVED: dict[str, Callable[["FigureAnalysis"], Any]] = {}
_DERIVED_MODULES = (
    "figlint.features.colours",
    "figlint.features.quality",
    "figlint.features.legend",
    "figlint.features.legend_cover",
    "figlint.features.panels",
    "figlint.features.uncertainty",
    "figlint.features.series",
)
_derived_loaded = False


def _failure(feature: str, exc: Exception) -> FeatureFailed:
    """`exc` as the FeatureFailed to keep (a failure met in a feature read from this one stays as it is)."""
    return exc if isinstance(exc, FeatureFailed) else FeatureFailed(feature, exc)


def derived(name: str):
    """Register `fn(analysis) -> value` as the derived feature `name` (see FigureAnalysis.get)."""
    def deco(fn):
        _DERIVED[name] = fn
        return fn
    return deco


def _load_derived() -> None:
    global _derived_loaded
    if _derived_loaded:
        return
    for mod in _DERIVED_MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name != mod:
                raise
    _derived_loaded = True


def _jsonable(v: Any) -> Any:
    if hasattr(v, "to_dict"):
        return v.to_dict()
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, float):
        return round(v, 4) if v == v and abs(v) != float("inf") else None
    from figlint.model import plain

    return plain(v)
_WORD = re.compile(r"[A-Za-z][A-Za-z\-]+|\d+(?:\.\d+)?")


@dataclass
class FigureAnalysis:
    source: str  # vector | raster | empty
    unit: str  # pt | px
    width: float
    height: float
    # The figure's top-left corner in the coordinates its tokens and marks are given in:
    # a vector figure read from a paper keeps page coordinates (its findings point at the
    # page), so every test of where something stands in the figure (left or right half,
    # inside the figure) is made relative to this origin, never to 0 (one coordinate frame
    # for a chart read standalone, from a paper PDF or from the sources).
    x0: float = 0.0
    y0: float = 0.0
    tokens: list[Token] = field(default_factory=list)
    axes: list[Axis] = field(default_factory=list)
    chart_type: str = "other"  # bar | line | scatter | heatmap | photo | other
    chart_confidence: float = 0.0
    bars: BarGroup | None = None
    bar_axis: Axis | None = None
    baseline_value: float | None = None
    # without a value axis: the baseline implied by the bars' own value labels
    label_baseline: float | None = None
    bar_labels: list[tuple[float, float]] = field(default_factory=list)  # (value, bar length)
    # other bar charts in the picture, each measured on its own axis: (bars, axis, baseline value)
    more_bars: list = field(default_factory=list)
    evidence: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    marks: Any = None  # VectorMarks or RasterMarks (not dumped)
    drawings: list = field(default_factory=list)  # vector paths read (model.Drawing), for derived features
    derived: dict[str, Any] = field(default_factory=dict)  # derived features, computed on demand
    figure: Any = field(default=None, repr=False)  # the Figure analysed (its spans, drawings, images; not dumped)

    def get(self, name: str) -> Any:
        """The derived feature `name` (legend, colours, panels, ...), computed once."""
        if name not in self.derived:
            _load_derived()
            if name not in _DERIVED:
                raise KeyError(f"no derived feature {name!r}")
            try:
                self.derived[name] = _DERIVED[name](self)
            except budget.FigureSkipped:
                raise
            except Exception as exc:  # noqa: BLE001 - kept and reported once as FL009 (FeatureFailed)
                self.derived[name] = _failure(name, exc)
        value = self.derived[name]
        if isinstance(value, FeatureFailed):
            raise value
        return value

    @property
    def mid_x(self) -> float:
        return self.x0 + self.width / 2

    @property
    def mid_y(self) -> float:
        return self.y0 + self.height / 2

    @property
    def x1(self) -> float:
        return self.x0 + self.width

    @property
    def y1(self) -> float:
        return self.y0 + self.height

    @property
    def words(self) -> set[str]:
        return {w.lower() for t in self.tokens for w in _WORD.findall(t.text)}

    @property
    def y_axes(self) -> list[Axis]:
        return sorted((a for a in self.axes if a.orient == "y" and a.clean), key=lambda a: a.cross)

    @property
    def x_axes(self) -> list[Axis]:
        return sorted((a for a in self.axes if a.orient == "x" and a.clean), key=lambda a: a.cross)

    @property
    def unit_size(self) -> float:
        """Typical text height: the yardstick for distances."""
        from statistics import median

        hs = [t.h for t in self.tokens if not t.rotated and t.h > 0]
        return median(hs) if hs else max(self.height, 1) / 40

    # geometric queries used by the rules -------------------------------------------------
    def content_right(self, x: float, y0: float, y1: float) -> float:
        """How much width right of x is covered by non-text marks within rows y0..y1.

        A second panel covers much of it (its own frame, grid and data); a legend
        beside a single plot covers little (a few short line samples).
        """
        m = self.marks
        if m is None:
            return 0.0
        if self.source == "raster":
            return m.fg_columns_right(x, y0, y1)
        boxes = [r.bbox for r in m.rects] + list(m.polyline_boxes) + list(m.images)
        boxes += [(x0, y, x1, y) for y, x0, x1 in m.hrules]
        spans = sorted((max(b[0], x), b[2]) for b in boxes if b[2] > x and b[1] < y1 and b[3] > y0)
        covered, end = 0.0, x
        for a, b in spans:
            if b > end:
                covered += b - max(a, end)
                end = b
        return covered

    def h_lines(self, y0: float, y1: float, x0: float, x1: float, min_share: float = 0.25) -> list[tuple[float, float, float]]:
        """Horizontal lines (y, x_start, x_end) within rows y0..y1, clipped to columns x0..x1,
        at least `min_share` of that width long: frame edges, axis lines, dark rules.

        Raster: runs of ink (no text; light axis lines and grids included) along three pixel
        rows, gaps of up to three pixels closed, with the row 4 px above or below mostly clear
        (a line or an edge, not the body of filled marks). Vector: the horizontal rules and rectangle edges, joined where they
        touch. Used to tell whether two axes bound one plot (one bottom or top edge runs
        from one to the other) or separate panels (each frame ends before the other's begins).
        """
        m = self.marks
        if m is None or x1 <= x0:
            return []
        need = min_share * (x1 - x0)
        out: list[tuple[float, float, float]] = []
        if self.source == "raster":
            import numpy as np

            fg = m.ink if m.ink is not None else m.fg  # light axis lines and grids count
            if fg is None:
                return []
            ya, yb = max(int(y0), 0), min(int(y1) + 1, m.height)
            xa, xb = max(int(x0), 0), min(int(x1) + 1, m.width)
            if yb <= ya or xb <= xa:
                return []
            for y in range(ya, yb):
                # three rows at once: a line tilted by a scan or anti-aliased over two rows
                row = fg[max(y - 1, 0):y + 2, xa:xb].any(axis=0)
                if row.sum() < need:
                    continue
                # a line or an edge, not the body of filled marks: clear 4 px above or below it
                above = fg[y - 4, xa:xb] if y - 4 >= 0 else np.zeros(xb - xa, bool)
                below = fg[y + 4, xa:xb] if y + 4 < m.height else np.zeros(xb - xa, bool)
                clear = ~above | ~below
                idx = np.flatnonzero(row)
                if idx.size == 0:
                    continue
                breaks = np.flatnonzero(np.diff(idx) > 3)
                starts = np.concatenate(([idx[0]], idx[breaks + 1]))
                ends = np.concatenate((idx[breaks], [idx[-1]]))
                for a, b in zip(starts, ends):
                    if b - a + 1 >= need and clear[a:b + 1].mean() >= 0.5:
                        out.append((float(y), float(xa + a), float(xa + b + 1)))
            return out
        segs = sorted((y, max(a, x0), min(b, x1)) for y, a, b in m.hrules if y0 <= y <= y1 and b > x0 and a < x1)
        merged: list[list[float]] = []
        for y, a, b in segs:
            for g in merged:
                if abs(g[0] - y) <= 0.6 and a <= g[2] + 1.0 and b >= g[1] - 1.0:
                    g[1], g[2] = min(g[1], a), max(g[2], b)
                    break
            else:
                merged.append([y, a, b])
        return [(y, a, b) for y, a, b in merged if b - a >= need]

    def v_line(self, x0: float, x1: float, y0: float, y1: float, share: float = 0.9) -> bool:
        """Whether a vertical line (a spine, a frame edge) within columns x0..x1 covers at least
        `share` of rows y0..y1."""
        m = self.marks
        if m is None or y1 <= y0 or x1 <= x0:
            return False
        if self.source == "raster":
            if m.fg is None:
                return False
            ya, yb = max(int(y0), 0), min(int(y1) + 1, m.height)
            xa, xb = max(int(x0), 0), min(int(x1) + 1, m.width)
            if yb <= ya or xb <= xa:
                return False
            band = m.fg[ya:yb, xa:xb]
            return bool((band.mean(axis=0) >= share).any())
        for x, a, b in m.vrules:
            if x0 <= x <= x1 and min(b, y1) - max(a, y0) >= share * (y1 - y0):
                return True
        return False

    def strip_left_of(self, x: float, y0: float, y1: float, width: float) -> bool:
        """Whether a narrow filled strip (a colour bar) stands just left of x over rows y0..y1."""
        m = self.marks
        if m is None:
            return False
        span = max(y1 - y0, 1e-6)
        if self.source == "raster":
            if m.fg is None:
                return False
            x0 = max(int(x - width), 0)
            band = m.fg[max(int(y0), 0):min(int(y1), m.height), x0:max(int(x), x0 + 1)]
            if band.size == 0:
                return False
            full = band.mean(axis=0) >= 0.85
            # a colour bar is a block of filled columns (not a spine one or two pixels
            # wide) whose colour changes along it (unlike a tall bar)
            best = run = end = 0
            for i, f in enumerate(full):
                run = run + 1 if f else 0
                if run > best:
                    best, end = run, i + 1
            if best < max(4.0, 0.4 * self.unit_size):
                return False
            return m.gradient_strip(x0 + end - best, x0 + end, y0, y1)
        boxes = [r.bbox for r in m.rects] + list(m.images)
        inside = [b for b in boxes if x - width <= b[0] and b[2] <= x + 1 and b[1] < y1 and b[3] > y0]
        if not inside or (len(inside) < 5 and not any(b in m.images for b in inside)):
            return False  # one tall bar is not a colour bar: that is an image or a stack of cells
        top, bottom = min(b[1] for b in inside), max(b[3] for b in inside)
        return (min(bottom, y1) - max(top, y0)) >= 0.7 * span

    def to_dict(self) -> dict:
        return {
            "source": self.source,
            "unit": self.unit,
            "size": [round(self.width, 1), round(self.height, 1)],
            "chart_type": self.chart_type,
            "chart_confidence": round(self.chart_confidence, 2),
            "axes": [a.to_dict() for a in self.axes],
            "bars": self.bars.to_dict() if self.bars else None,
            "bar_axis": self.axes.index(self.bar_axis) if self.bar_axis in self.axes else None,
            "baseline_value": None if self.baseline_value is None else round(self.baseline_value, 6),
            "label_baseline": None if self.label_baseline is None else round(self.label_baseline, 6),
            "bar_labels": [[v, round(n, 2)] for v, n in self.bar_labels],
            "evidence": self.evidence,
            "tokens": [{"text": t.text, "bbox": [round(v, 1) for v in t.bbox], "conf": t.conf,
                        "value": t.value, "rotated": t.rotated} for t in self.tokens],
            "derived": self._derived_dict(),
            "seconds": round(self.seconds, 4),
        }

    def _derived_dict(self) -> dict:
        if self.source == "empty":
            return {}
        _load_derived()
        out = {}
        for name in sorted(_DERIVED):
            try:
                out[name] = _jsonable(self.get(name))
            except FeatureFailed as exc:
                out[name] = {"error": str(exc)}
        return out


def analyse(fig: Figure, paper: Paper | None = None) -> FigureAnalysis:
    """The analysis of `fig` (computed once, then cached on the figure)."""
    cached = fig.extra.get(_KEY)
    if isinstance(cached, FigureAnalysis):
        return cached
    if isinstance(cached, FeatureFailed):
        raise cached
    t0 = time.perf_counter()
    # Per-figure budget (figlint/budget.py): a figure over a size cap (marked while reading
    # or while analysing) or over the CPU-time guard is not analysed; the engine reports FL011.
    try:
        if budget.skipped(fig):
            raise budget.FigureSkipped(budget.skipped(fig))
        budget.check_size(fig)  # paths and path segments: work counted, not time
        with budget.figure_deadline("the analysis"):
            if _outlined_text(fig, paper):
                # Vector graphics whose text was converted to curves: the labels exist only as
                # shapes, so the region is rendered and read like a raster figure.
                an = _raster(fig, paper, render=True)
                an.evidence["outlined_text"] = True
            elif _is_vector(fig):
                an = _vector(fig)
            else:
                an = _raster(fig, paper)
    except budget.FigureSkipped as exc:
        budget.skip(fig, str(exc))
        an = FigureAnalysis("empty", "px", 0, 0)
        an.evidence["skipped"] = str(exc)
    except Exception as exc:  # noqa: BLE001 - kept and reported once as FL009 (FeatureFailed)
        fig.extra[_KEY] = failure = _failure("analysis", exc)
        raise failure
    an.seconds = time.perf_counter() - t0
    an.figure = fig
    fig.extra[_KEY] = an
    return an


def analyses(fig: Figure, paper: Paper | None = None) -> list[FigureAnalysis]:
    """Analyses of a figure: of its own content, else of each graphics file it includes.

    Figures from the PDF route carry their content (spans, drawings, images); a
    figure from the LaTeX route may only name its files, which are read here.
    """
    has_pdf = paper is not None and bool(paper.pdf_path) and fig.page is not None
    if fig.spans or fig.drawings or "image_path" in fig.extra or (fig.images and has_pdf) or not fig.graphics:
        return [analyse(fig, paper)]
    cached = fig.extra.get("_file_analyses")
    if isinstance(cached, FeatureFailed):
        raise cached
    if cached is not None:
        return cached
    out = []
    from pathlib import Path

    from figlint.ingest.graphics import read_graphics

    root = Path(paper.root) if paper is not None and paper.root else Path(".")
    for name in fig.graphics:
        p = Path(name)
        p = p if p.is_absolute() else root / p
        if not p.is_file() or p.suffix.lower() not in (".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp"):
            continue
        try:
            sub = read_graphics(str(p))
        except Exception:  # noqa: BLE001 - a file we cannot read is reported by ingestion, not here
            continue
        _placed_size(fig, str(p), sub)
        if paper is not None:
            sub.extra["ocr"] = paper.extra.get("ocr", True)
        for f in sub.figures:
            try:
                an = analyse(f, sub)
            except FeatureFailed as exc:
                fig.extra["_file_analyses"] = exc
                raise
            if budget.skipped(f):  # the FL011 is reported on the paper's figure (figlint/budget.py)
                budget.skip(fig, f"{name}: {budget.skipped(f)}")
            an.evidence["file"] = name
            out.append(an)
    fig.extra["_file_analyses"] = out
    return out


def _placed_size(fig: Figure, path: str, sub: Paper) -> None:
    """An image file read for a LaTeX figure prints at its placed size (ingest/placement.py),
    not at the size its own resolution suggests: the raster reading needs the printed size."""
    import os

    for k, p in (fig.extra.get("raster_files") or {}).items():
        if os.path.abspath(p) == os.path.abspath(path) and int(k) < len(fig.images) and sub.figures:
            b = fig.images[int(k)].bbox
            for f in sub.figures:
                for im in f.images:
                    im.bbox = (0.0, 0.0, b[2] - b[0], b[3] - b[1])
            return


def _outlined_text(fig: Figure, paper: Paper | None) -> bool:
    return (not fig.spans and len(fig.drawings) >= 40 and paper is not None and bool(paper.pdf_path)
            and fig.page is not None and "image_path" not in fig.extra)


def _is_vector(fig: Figure) -> bool:
    if "image_path" in fig.extra:
        return False
    if fig.spans or fig.drawings:
        # A vector figure with one big placed image and no text is a raster figure in a PDF.
        return bool(fig.spans) or not fig.images
    return False


def _vector(fig: Figure) -> FigureAnalysis:
    from figlint.features.vector import span_tokens, vector_marks

    box = fig.bbox or (0.0, 0.0, 0.0, 0.0)
    an = FigureAnalysis("vector", "pt", box[2] - box[0], box[3] - box[1], x0=box[0], y0=box[1])
    an.tokens = span_tokens(fig)
    marks = vector_marks(fig)
    an.marks = marks
    # numbers printed over a picture (the cell values of a heatmap or confusion matrix drawn
    # by imshow) are data labels: tick labels stand outside the plotted marks
    an.axes = find_axes([t for t in an.tokens if not _over_image(t.bbox, marks.images)], printed_boxes=True)
    an.drawings = fig.drawings
    groups = find_bar_groups([r.bbox for r in marks.rects], tol=0.6)
    figure_area = max(an.width * an.height, 1e-6)
    image_area = sum((b[2] - b[0]) * (b[3] - b[1]) for b in marks.images)
    cells = len(marks.rects)
    evid = {"filled_rects": cells, "polylines": marks.polylines, "markers": marks.markers,
            "image_area": round(image_area / figure_area, 3)}
    evid["areas"] = len(marks.areas)
    if groups:
        g = groups[0]
        g.baseline = _visible_baseline(g, marks)
        evid["bar_groups"] = len(groups)
    area = _area_group(marks) if not (groups and groups[0].count >= 3) else None
    if area is not None:
        groups = [area]
        an.chart_type, an.chart_confidence, an.bars = "area", 0.7, area
    else:
        _classify(an, groups, curves=marks.polylines, markers=marks.markers,
                  heatmap=image_area > 0.2 * figure_area or (cells >= 40 and not groups), photo=False)
    an.evidence.update(evid)
    _bar_baseline(an, groups[:1])
    _axis_sides(an)
    return an


def _over_image(b, images) -> bool:
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    return any(i[0] < cx < i[2] and i[1] < cy < i[3] for i in images)


def _frame_edge(g: BarGroup, marks) -> float | None:
    """The plot frame's edge on the baseline side: the outermost rule spanning the group."""
    if g.orient == "vertical":
        x0 = min(b[0] for b in g.boxes)
        x1 = max(b[2] for b in g.boxes)
        ys = [y for y, a, b in marks.hrules if a <= x0 + 1 and b >= x1 - 1 and y > min(g.far_ends)]
        return max(ys) if ys else None
    y0 = min(b[1] for b in g.boxes)
    y1 = max(b[3] for b in g.boxes)
    xs = [x for x, a, b in marks.vrules if a <= y0 + 1 and b >= y1 - 1 and x < max(g.far_ends)]
    return min(xs) if xs else None


def _visible_baseline(g: BarGroup, marks) -> float:
    """The baseline bars show: their own edge, or the frame that clips them.

    matplotlib draws a bar from zero and clips it to the axes, so on a truncated
    axis the path reaches below the frame; only the frame clips, never a grid line.
    """
    edge = _frame_edge(g, marks)
    if edge is None:
        return g.baseline
    if g.orient == "vertical":
        return min(g.baseline, edge)
    return max(g.baseline, edge)


def _area_group(marks) -> BarGroup | None:
    """A filled area standing on the plot's bottom edge (a shaded band inside the plot is not one)."""
    for box in sorted(marks.areas, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]), reverse=True):
        g = BarGroup("vertical", box[3], [box], [box[1]])
        edge = _frame_edge(g, marks)
        if edge is not None and box[3] >= edge - 1.0:
            g.baseline = edge
            return g
    return None


def _raster(fig: Figure, paper: Paper | None, render: bool = False) -> FigureAnalysis:
    if paper is not None and not paper.extra.get("ocr", True):
        # Pixels are read only where OCR is allowed (config `ocr`): without the tick labels
        # the pixel analysis cannot support a finding, and it would cost the render.
        an = FigureAnalysis("empty", "px", 0, 0)
        an.evidence["skipped"] = "raster analysis off (ocr = \"off\")"
        return an
    from figlint.features import raster as R

    img, printed, rendered = _raster_pixels(fig, paper, render)
    if img is None:
        return FigureAnalysis("empty", "px", 0, 0)
    # The one raster reading (features/raster.read_image), for every route: the image's own
    # pixels at its printed size, OCR where the pixels carry text.
    reading = R.read_image(img, printed, R.image_digest(img), size_known=print_size_known(fig))
    tokens, marks, scale = reading.tokens, reading.marks, reading.scale
    an = FigureAnalysis("raster", "px", marks.width, marks.height)
    an.tokens = tokens
    an.axes = find_axes(tokens)
    an.marks = marks
    an.evidence["ocr_scale"] = round(scale, 4)
    an.evidence["text_like"] = reading.text_like
    if rendered:
        an.evidence["rendered"] = True
    tol = max(2.0, 0.006 * marks.height)
    groups = find_bar_groups(marks.rects, tol=tol)
    an.evidence.update({"solid_rects": len(marks.rects), "curves": marks.curves, "markers": marks.markers,
                        "foreground": round(marks.fg_fraction, 3), "colours": marks.colours})
    an.evidence["areas"] = len(marks.areas)
    big = max(marks.areas, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if marks.areas else None
    inside = big is not None and groups and all(
        b[0] >= big[0] - 2 and b[2] <= big[2] + 2 and b[1] >= big[1] - 2 and b[3] <= big[3] + 2 for b in groups[0].boxes)
    if big is not None and (inside or not (groups and groups[0].count >= 3)):
        # an area chart: its filled region encodes magnitude from the baseline like a
        # bar (rectangles inside it are pieces cut out by grid lines drawn over it)
        box = big
        groups = [BarGroup("vertical", box[3], [box], [box[1]])]
        an.chart_type, an.chart_confidence, an.bars = "area", 0.7, groups[0]
    else:
        _classify(an, groups, curves=marks.curves, markers=marks.markers, heatmap=marks.heatmap, photo=marks.photo)
    if an.bars is not None and an.chart_type == "bar" and _whiskered(marks, an.bars, an.unit_size):
        # thin lines standing on the boxes' centres: a box plot (or error bars) — the
        # boxes' lower edges are quartiles, not a baseline
        an.chart_type, an.chart_confidence, an.bars = "box", 0.6, None
        an.evidence["whiskers"] = True
        groups = []
    _bar_baseline(an, groups)
    _axis_sides(an)
    return an


def _raster_pixels(fig: Figure, paper: Paper | None, render: bool):
    """The pixels a raster analysis reads and the size they print at (points, or None).

    An image file (an image input, a LaTeX figure that is one bitmap): its pixels, at the
    placed size. A PDF figure that is one placed image: that image's own pixels (the same
    as its file's, so the PDF and LaTeX routes read alike), at its placed size. Otherwise
    (several images, outlined text) the figure's region of the page, rendered.
    """
    from figlint.features import raster as R

    if "image_path" in fig.extra:
        box = fig.images[0].bbox if fig.images else None
        return R.load_bgr(fig.extra["image_path"]), _box_size(box), False
    if not ((fig.images or render) and paper is not None and paper.pdf_path and fig.page):
        return None, None, False
    one = _single_image(fig) if not render else None
    if one is not None:
        img = _decode(paper.pdf_path, one)
        if img is not None:
            return img, _box_size(one.bbox), False
    img = R.render_region(paper.pdf_path, fig.page, fig.bbox, fig.images, turn=fig.extra.get("turn", 0))
    return img, _box_size(fig.bbox), True


def print_size_known(fig: Figure) -> bool:
    """False for a standalone image file whose printed size is only assumed (it records no
    resolution: ingest/graphics.py takes 300 DPI); its reading detects text at its own pixels."""
    return not ("image_path" in fig.extra and fig.images and fig.images[0].dpi_source == "assumed")


def _box_size(box):
    if not box or box[2] <= box[0] or box[3] <= box[1]:
        return None
    return (box[2] - box[0], box[3] - box[1])


def _single_image(fig: Figure):
    """The placed image a figure region consists of (one image covering most of it), or None."""
    imgs = [i for i in fig.images if i.xref]
    if len(imgs) != 1 or fig.drawings and len(fig.drawings) > 4 or fig.bbox is None:
        return None
    i = imgs[0]
    area = lambda b: max(b[2] - b[0], 0) * max(b[3] - b[1], 0)  # noqa: E731
    if area(i.bbox) < 0.6 * area(fig.bbox) or i.width_px * i.height_px > budget.MAX_DECODE_PIXELS:
        return None
    return i


def _decode(pdf_path: str, im):
    from figlint.features.raster import decode_pdf_image
    from figlint.ingest.mupdf import open_pdf

    try:
        with open_pdf(pdf_path) as doc:
            return decode_pdf_image(doc, im.xref)
    except Exception:  # noqa: BLE001 - fall back to rendering the region
        return None


def _whiskered(marks, g: BarGroup, u: float) -> bool:
    fg = marks.fg
    if fg is None or g.orient != "vertical":
        return False
    hits = 0
    for b in g.boxes:
        x0, y0, x1, y1 = (int(v) for v in b)
        if x1 - x0 < 6:
            continue
        top, bottom = max(int(y0 - 1.5 * u), 0), max(y0 - 2, 0)
        if bottom - top < 3:
            continue
        cx = (x0 + x1) // 2
        centre = fg[top:bottom, max(cx - 1, 0):cx + 2].any(axis=1).mean()
        edges = max(fg[top:bottom, x0 + 1].mean(), fg[top:bottom, x1 - 2].mean())
        if centre >= 0.7 and edges <= 0.2:
            hits += 1
    return hits >= max(2, 0.5 * g.count)


def _classify(an: FigureAnalysis, groups: list[BarGroup], *, curves: int, markers: int,
              heatmap: bool, photo: bool) -> None:
    g = groups[0] if groups else None
    boxes = getattr(an.marks, "box_parts", 0)
    an.evidence["box_parts"] = boxes
    if boxes >= 2:
        # Box plots: their boxes share a bottom only by accident of the data.
        an.chart_type, an.chart_confidence = "box", min(0.9, 0.5 + 0.1 * boxes)
        groups.clear()
        return
    if g is not None and g.count >= 3:
        an.chart_type, an.chart_confidence, an.bars = "bar", min(0.95, 0.6 + 0.08 * g.count), g
    elif g is not None and g.count == 2 and not curves:
        an.chart_type, an.chart_confidence, an.bars = "bar", 0.55, g
    elif curves:
        an.chart_type, an.chart_confidence = "line", min(0.9, 0.6 + 0.1 * curves)
    elif markers >= 10:
        an.chart_type, an.chart_confidence = "scatter", min(0.9, 0.5 + markers / 100)
    elif heatmap:
        an.chart_type, an.chart_confidence = "heatmap", 0.6
    elif photo:
        an.chart_type, an.chart_confidence = "photo", 0.5
    else:
        an.chart_type, an.chart_confidence = "other", 0.3
    an.evidence["heatmap_like"] = bool(heatmap)
    an.evidence["photo_like"] = bool(photo)
    if g is not None and an.bars is None:
        an.evidence["bar_candidates"] = g.count


def _bar_baseline(an: FigureAnalysis, groups: list[BarGroup]) -> None:
    """Pick the bar group and the value axis it is measured on; read the baseline's value there."""
    if an.bars is None:
        return
    for g in groups[:4]:
        if g.count < 2 and an.chart_type != "area" or (g.count == 2 and an.chart_type != "bar"):
            continue
        axis = _axis_for(an, g)
        if axis is not None:
            an.bars, an.bar_axis = g, axis
            an.baseline_value = axis.value_at(g.baseline)
            _more_bar_charts(an, groups[:4])
            return
    if an.chart_type == "bar":
        for g in groups[:2]:
            if _label_baseline(an, g):
                an.bars = g
                return


def _more_bar_charts(an: FigureAnalysis, groups: list[BarGroup]) -> None:
    """Other bar charts of the same picture (a page or slide showing two charts): groups of
    three or more bars apart from the measured one, each beside a value axis of its own."""
    if an.chart_type != "bar":
        return

    def extent(g):
        return union(g.boxes)

    taken = [(extent(an.bars), an.bar_axis)]
    for g in groups:
        if g is an.bars or g.count < 3:
            continue
        e = extent(g)
        if any(min(e[2], t[2]) > max(e[0], t[0]) and min(e[3], t[3]) > max(e[1], t[1]) for t, _ in taken):
            continue  # bars among the measured ones (another colour of the same chart)
        axis = _axis_for(an, g)
        if axis is None or any(axis is a for _, a in taken):
            continue
        taken.append((e, axis))
        an.more_bars.append((g, axis, axis.value_at(g.baseline)))


def _label_baseline(an: FigureAnalysis, g: BarGroup) -> bool:
    """Where value labels printed on or above the bars put zero: bar length = k (value - base)."""
    u = an.unit_size
    used: set[int] = set()
    pairs = []
    labels = _value_labels(an.tokens)
    vert = g.orient == "vertical"
    for b in g.boxes:
        if vert:
            length, end = b[3] - b[1], b[1]
            near = [t for t in labels if _over_bar(t, b, g, u, vert)
                    and end - 2.5 * u <= t.cy <= end + max(0.5 * length, 1.5 * u)]
            dist = lambda t, end=end: abs(t.cy - end)  # noqa: E731
        else:
            length, end = b[2] - b[0], b[2]
            near = [t for t in labels if _over_bar(t, b, g, u, vert)
                    and end - max(0.5 * length, 1.5 * u) <= t.cx <= end + 4 * u]
            dist = lambda t, end=end: abs(t.cx - end)  # noqa: E731
        near = [t for t in near if id(t) not in used]
        if not near:
            continue
        t = min(near, key=dist)
        used.add(id(t))
        pairs.append((t.value, length))
    vals = [v for v, _ in pairs]
    # most bars must carry a label: a few stray numbers near bar tops prove nothing
    if len(pairs) < min(g.count, 3) or len(pairs) < 0.6 * g.count or len(set(vals)) < 2 or min(vals) <= 0:
        return False
    # least squares length = k * value + c; base = -c / k
    fit = _label_fit(pairs)
    # A label misread (its decimal point lost: "3292" for 32.92) or a number of another
    # bar's label is left out when many labels remain that agree on one line (the line
    # through two of them that most others lie on): at most a quarter of them, and never
    # below five or 60 % of the bars.
    tol = 0.05 * max(length for _, length in pairs)
    if fit is not None and fit[2] > tol and len(pairs) >= 6:
        best: list[tuple[float, float]] = []
        for i, (v1, l1) in enumerate(pairs):
            for v2, l2 in pairs[i + 1:]:
                if v2 == v1:
                    continue
                k = (l2 - l1) / (v2 - v1)
                if k <= 0:
                    continue
                c = l1 - k * v1
                agree = [p for p in pairs if abs(k * p[0] + c - p[1]) <= tol]
                if len(agree) > len(best):
                    best = agree
        if len(best) >= max(5, 0.6 * g.count) and len(pairs) - len(best) <= len(pairs) / 4:
            pairs = best
            fit = _label_fit(pairs)
    if fit is None:
        return False
    k, c, worst = fit
    if len(pairs) >= 3 and worst > 0.05 * max(length for _, length in pairs):
        return False  # labels and lengths disagree: not a consistent reading
    if len({v for v, _ in pairs}) < 2:
        return False
    an.bar_labels = pairs
    an.label_baseline = -c / k
    return True


def _over_bar(t: Token, b, g: BarGroup, u: float, vert: bool) -> bool:
    """Whether label `t` stands over bar `b` across the bars: centred on it, or a badge wider
    than the bar hanging over its edge (covering at least half the bar) whose centre is
    nearer this bar than any other of the group."""
    lo, hi = (b[0], b[2]) if vert else (b[1], b[3])
    t0, t1, c = (t.bbox[0], t.bbox[2], t.cx) if vert else (t.bbox[1], t.bbox[3], t.cy)
    if lo - 0.3 * u <= c <= hi + 0.3 * u:
        return True
    if min(t1, hi) - max(t0, lo) < 0.5 * (hi - lo):
        return False
    mid = lambda x: (x[0] + x[2]) / 2 if vert else (x[1] + x[3]) / 2  # noqa: E731
    return min(g.boxes, key=lambda x: abs(mid(x) - c)) is b


def _value_labels(tokens: list[Token]) -> list[Token]:
    """Upright numeric tokens, with a line OCR read across neighbouring value labels ("17.44
    18.14": the labels of two bars side by side) split into its numbers (axes.split_numbers)."""
    from figlint.features.axes import split_numbers

    out = []
    for t in tokens:
        if t.rotated:
            continue
        if t.value is not None:
            out.append(t)
        else:
            out += split_numbers(t) or []
    return out


def _label_fit(pairs: list[tuple[float, float]]) -> tuple[float, float, float] | None:
    """Least squares bar length = k * value + c over (value, length) pairs: (k, c, worst
    residual), None unless lengths grow with values."""
    n = len(pairs)
    vals = [v for v, _ in pairs]
    mv = sum(vals) / n
    ml = sum(length for _, length in pairs) / n
    svv = sum((v - mv) ** 2 for v in vals)
    if svv == 0:
        return None
    k = sum((v - mv) * (length - ml) for v, length in pairs) / svv
    if k <= 0:
        return None
    c = ml - k * mv
    return k, c, max(abs(k * v + c - length) for v, length in pairs)


def year_like(ax: Axis) -> bool:
    return all(float(v).is_integer() and 1800 <= v <= 2100 for v in ax.values)


def _axis_for(an: FigureAnalysis, g: BarGroup) -> Axis | None:
    """The value axis of a bar group: the nearest tick column beside it (row below it).

    Years are categories under bars, never the value scale of their lengths.
    """
    u = an.unit_size
    if g.orient == "vertical":
        x0 = min(b[0] for b in g.boxes)
        x1 = max(b[2] for b in g.boxes)
        lo, hi = min(g.far_ends), g.baseline
        cands = [a for a in an.y_axes if not year_like(a) and a.hi >= lo - 3 * u and a.lo <= hi + 3 * u
                 and (a.box[2] <= x0 + u or a.box[0] >= x1 - u)]
        # the nearest column left of the bars, else right of them
        left = [a for a in cands if a.box[2] <= x0 + u]
        axis = max(left, key=lambda a: a.box[2]) if left else (min(cands, key=lambda a: a.box[0]) if cands else None)
    else:
        y0 = min(b[1] for b in g.boxes)
        y1 = max(b[3] for b in g.boxes)
        lo, hi = g.baseline, max(g.far_ends)
        cands = [a for a in an.x_axes if not year_like(a) and a.hi >= lo - 3 * u and a.lo <= hi + 3 * u
                 and (a.box[1] >= y1 - u or a.box[3] <= y0 + u)]
        below = [a for a in cands if a.box[1] >= y1 - u]
        axis = min(below, key=lambda a: a.box[1]) if below else (max(cands, key=lambda a: a.box[3]) if cands else None)
    return axis


def _axis_sides(an: FigureAnalysis) -> None:
    for a in an.axes:
        if a.orient == "y":
            a.side = "left" if a.cross < an.mid_x else "right"
        else:
            a.side = "bottom" if a.cross > an.mid_y else "top"
        a.title, a.title_scripts = _axis_title(an, a)


def _axis_title(an: FigureAnalysis, a: Axis) -> tuple[str, str]:
    """The axis' title as read (its first two words, in reading order) and with those words'
    scripts joined."""
    u = an.unit_size
    words = [t for t in an.tokens if t.value is None and any(c.isalpha() for c in t.text)]
    if a.orient == "y":
        mid = (a.lo + a.hi) / 2
        near = [t for t in words if t.rotated and abs(t.cy - mid) < (a.hi - a.lo) / 2 + 2 * u
                and (t.bbox[2] <= a.box[0] + u and a.box[0] - t.bbox[2] < 4 * u
                     or t.bbox[0] >= a.box[2] - u and t.bbox[0] - a.box[2] < 4 * u)]
        near = _reading_order(_title_column(near, a), vertical=True)
    else:
        # under the tick labels: its top below theirs, or (OCR's boxes are padded, so a title
        # set close under the labels overlaps their box) its middle below their box
        near = [t for t in words if not t.rotated and (t.bbox[1] >= a.box[3] - 0.2 * u or t.cy >= a.box[3])
                and t.bbox[1] - a.box[3] < 3 * u and a.lo - 2 * u <= t.cx <= a.hi + 2 * u]
        near = _reading_order(near, vertical=False)
    return " ".join(t.text.strip() for t in near[:2]), " ".join(_with_scripts(near)[:2])


def _title_column(near: list[Token], a: Axis) -> list[Token]:
    """The turned words beside a vertical axis' labels that are its title: those on the side of
    the word nearest the labels, in its column or the next (a title of two lines). A title is
    set close beside the labels; the other side may hold a column of words set in the plot (a
    timeline's era names just right of its age labels), which read first took the title's
    place."""
    def gap(t: Token) -> float:
        return a.box[0] - t.bbox[2] if t.cx < a.box[0] else t.bbox[0] - a.box[2]

    if not near:
        return near
    first = min(near, key=gap)
    left = first.cx < a.box[0]
    side = [t for t in near if (t.cx < a.box[0]) == left]
    return [t for t in side if gap(t) <= gap(first) + 1.5 * max(t.w, first.w)]


def _reading_order(words: list[Token], vertical: bool) -> list[Token]:
    """Words in the order they are read: line by line, each line along its writing direction.
    Tokens come sorted by their tops, and a title's words of different fonts have different
    tops: "T", "eff" and "[K]" came "[K] T", a turned "log g" came "g log" (read bottom to
    top, its last word is highest). Turned text reads up the page unless its direction says
    down (a vertical title's lines then run right to left)."""
    if len(words) < 2:
        return words
    down = vertical and sum(1 for t in words if t.dir is not None and t.dir[1] > 0) > len(words) / 2
    if vertical:  # lines are columns, read up (or down) the page
        lo, hi, along = 0, 2, ((lambda t: t.cy) if down else (lambda t: -t.cy))
    else:
        lo, hi, along = 1, 3, (lambda t: t.cx)
    lines: list[list[Token]] = []
    for t in sorted(words, key=lambda t: (t.bbox[lo] + t.bbox[hi]) / 2):
        if lines:
            ref = lines[-1][0]
            over = min(ref.bbox[hi], t.bbox[hi]) - max(ref.bbox[lo], t.bbox[lo])
            if over >= 0.5 * min(ref.bbox[hi] - ref.bbox[lo], t.bbox[hi] - t.bbox[lo]):
                lines[-1].append(t)
                continue
        lines.append([t])
    if down:
        lines.reverse()  # text turned clockwise: its first line is the rightmost
    return [t for line in lines for t in sorted(line, key=along)]


def _with_scripts(near: list) -> list[str]:
    """The title's words, each with the sub- or superscript set smaller right after it joined to
    it ("T" then a smaller "eff" beside its foot: "Teff"): a script read as a word of its own
    took the title's second place, and "T (K)" named no quantity. Smaller by the printed size
    where both are known (7 pt under 10 pt): the box heights are the fonts', and an oblique "T"
    beside an upright "eff" has a box only a sixth taller. Horizontal words only (a rotated
    title's scripts are read with it or not at all). Kept apart from the title: a formula's
    symbols and scripts joined read as words ("Pω", "yia") a caption must name."""
    host: dict[int, int] = {}  # index of a script -> index of the word it belongs to
    for i, s in enumerate(near):
        if s.rotated:
            continue
        for j, t in enumerate(near):
            smaller = s.size <= 0.8 * t.size if s.size > 0 and t.size > 0 else s.h <= 0.8 * t.h
            if j != i and j not in host and not t.rotated and smaller \
                    and -0.05 * t.h <= s.bbox[0] - t.bbox[2] <= 0.3 * t.h \
                    and s.bbox[1] < t.bbox[3] and s.bbox[3] > t.bbox[1]:
                host[i] = j
                break
    texts = [t.text.strip() for t in near]
    for i in sorted(host, key=lambda i: near[i].bbox[0]):
        texts[host[i]] += texts[i]
    return [x for i, x in enumerate(texts) if i not in host]
