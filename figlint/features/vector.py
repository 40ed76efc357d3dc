"""Vector evidence: tokens from text spans, chart marks from drawing paths.

Spans become Tokens (a base "10" followed by a raised small exponent span is
merged into one "10^k" token). Drawings are sorted into marks: filled
rectangles (bars, heatmap cells, backgrounds), polylines (data lines), small
repeated shapes (scatter markers), and straight horizontal/vertical rules
(axis spines, grid lines), from which the visible extent of clipped bars is
found: matplotlib draws a bar from zero and clips it to the axes, so the
path's own box reaches below a truncated axis.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from figlint.features.axes import Token
from figlint.model import Drawing, Figure, TextSpan


def _is_rotated(s: TextSpan) -> bool:
    """Text set across the page. Where the PDF gives its line's writing direction, that
    decides however short the text: a turned axis title set in pieces has boxes no taller
    than wide (a usetex "log g" is the spans "log" and "g", matplotlib's "log(g)" is "log(",
    "g" and ")"), and read as upright words no vertical title was found beside its axis.
    Otherwise a box far taller than wide, of two characters or more."""
    if s.dir is not None:
        return abs(s.dir[1]) > 2 * abs(s.dir[0])
    w, h = s.bbox[2] - s.bbox[0], s.bbox[3] - s.bbox[1]
    return len(s.text.strip()) >= 2 and h > 1.5 * w


def _drawn_minus(s: TextSpan, bars: list[tuple[float, float, float, float]]) -> float | None:
    """Whether a minus sign is drawn just left of span `s`: a thin bar (the box of a filled,
    unstroked path, or of a thin image) about a digit wide at the middle of the line
    (matplotlib writes "−" as a filled rectangle when the font has no such glyph; the span
    then reads "5" for -5). Returns the bar's left edge, where the printed label starts."""
    fs = s.size or (s.bbox[3] - s.bbox[1])
    x0, y0, _x1, y1 = s.bbox
    for b in bars:
        w, h = b[2] - b[0], b[3] - b[1]
        # wider than a tick mark (3.5 pt against 10 pt labels)
        if not (0.4 * fs <= w <= 0.9 * fs and h <= max(0.12 * fs, 0.5)):
            continue
        if not (x0 - 0.45 * fs <= b[2] <= x0 + 0.2):
            continue
        cy = (b[1] + b[3]) / 2
        if y0 + 0.3 * (y1 - y0) <= cy <= y0 + 0.8 * (y1 - y0):
            return b[0]
    return None


def _unsigned_number(text: str) -> bool:
    t = text.strip()
    return bool(t) and t[0].isdigit() and all(c.isdigit() or c in ".," for c in t)


def _power_base(text: str) -> bool:
    base = text.strip().replace("\u2212", "-").lstrip("-")
    return base == "10" or base.endswith(("×10", "x10", "\u00d710"))


_NUMBER_PIECE = re.compile(r"^[-\u2212+\u00b1]?[\d.,]*$")


def _number_piece(text: str) -> bool:
    """A piece of a printed number: a sign, digits, a decimal point or separator, or a run
    of them ("\u2212", "0", ".", "5", "\u22120", "12,")."""
    return bool(text) and _NUMBER_PIECE.match(text) is not None


def _one_line(a, b) -> bool:
    """Two boxes of glyphs on one line: the middle of the shorter lies within the taller (a
    symbol font's minus has a box far deeper than the digits beside it)."""
    short, tall = (a, b) if a[3] - a[1] <= b[3] - b[1] else (b, a)
    return tall[1] <= (short[1] + short[3]) / 2 <= tall[3]


def _joined_numbers(spans: list[TextSpan]) -> list[TextSpan]:
    """Spans that together print one number, joined into one span. LaTeX sets a number in
    math mode from several fonts: the minus sign from the symbol font, the digits from the
    roman one, the decimal point from the italic one (pgfplots' tick labels, matplotlib's
    usetex labels), and a PDF lists each font's glyphs as a span of its own, so "\u22120.5"
    is the spans "\u2212", "0", ".", "5". Read apart, the sign is lost and the digits are
    three labels. Pieces join left to right when they abut on one line in one size (at
    most a sixth of the size apart: a space between two labels is wider) and the whole is
    still a number piece, so a dash beside a word, or after a number, stays apart. Pieces
    are found by the middle of their box on a 4 pt grid: linear in the spans."""
    pieces = [i for i, s in enumerate(spans) if _number_piece(s.text.strip())]
    if len(pieces) < 2:
        return spans
    chains: list[list[int]] = []
    texts: list[str] = []
    ends: dict[int, list[int]] = {}  # baseline cell -> chains whose last piece sits there
    for i in sorted(pieces, key=lambda i: spans[i].bbox[0]):
        s = spans[i]
        t = s.text.strip()
        try:
            cell = int((s.bbox[1] + s.bbox[3]) // 8.0)  # the box's centre, on a 4 pt grid
        except (ValueError, OverflowError):
            continue  # a non-finite box joins nothing (kept as it is below)
        best = None
        for c in (cell - 1, cell, cell + 1):
            for k in ends.get(c, ()):
                p = spans[chains[k][-1]]
                size = max(p.size or 0.0, s.size or 0.0) or max(p.bbox[3] - p.bbox[1], 1.0)
                gap = s.bbox[0] - p.bbox[2]
                if not (-0.2 * size <= gap <= size / 6 and _one_line(p.bbox, s.bbox)
                        and abs((s.size or 0.0) - (p.size or 0.0)) <= 0.15 * size and _number_piece(texts[k] + t)):
                    continue
                if best is None or abs(gap) < best[0]:
                    best = (abs(gap), k, c)
        if best is None:
            chains.append([i])
            texts.append(t)
            ends.setdefault(cell, []).append(len(chains) - 1)
            continue
        _, k, c = best
        chains[k].append(i)
        texts[k] += t
        ends[c].remove(k)
        ends.setdefault(cell, []).append(k)
    joined: dict[int, TextSpan] = {}
    gone: set[int] = set()
    for chain, text in zip(chains, texts):
        if len(chain) < 2:
            continue
        parts = [spans[i] for i in chain]
        first = parts[0]
        # the height of the digits: a symbol font's sign has a box far deeper than theirs, and
        # an exponent is told raised by where its digits stand
        digits = [p for p in parts if p.text.strip()[-1:].isdigit()] or parts
        joined[chain[0]] = TextSpan(text=text, size=first.size, font=first.font,
                                    bbox=(first.bbox[0], min(p.bbox[1] for p in digits), parts[-1].bbox[2],
                                          max(p.bbox[3] for p in digits)), color=first.color, dir=first.dir)
        gone.update(chain[1:])
    if not joined:
        return spans
    return [joined.get(i, s) for i, s in enumerate(spans) if i not in gone]


def span_tokens(fig: Figure) -> list[Token]:
    minus_bars = [d.bbox for d in fig.drawings if d.fill is not None and d.stroke is None
                  and d.bbox[3] - d.bbox[1] <= 2.0 and 0 < d.bbox[2] - d.bbox[0] <= 20]
    # a minus sign placed as an image: a thin bar a digit wide (an EPS figure converted with
    # its minus glyphs as image masks)
    minus_bars += [im.bbox for im in fig.images
                   if 0 < im.bbox[3] - im.bbox[1] <= 2.0 and 0 < im.bbox[2] - im.bbox[0] <= 20
                   and im.bbox[2] - im.bbox[0] >= 3 * (im.bbox[3] - im.bbox[1])]
    spans = _joined_numbers([s for s in fig.spans if s.text.strip()])
    spans.sort(key=lambda s: (round(s.bbox[1]), s.bbox[0]))
    used: set[int] = set()
    found: dict[int, Token] = {}
    # Bases of powers first: a raised exponent sorts before its "10" and must not be read
    # on its own (with a drawn minus, "10^-1" became a tick "-1").
    order = [i for i, s in enumerate(spans) if _power_base(s.text)]
    order += [i for i, s in enumerate(spans) if not _power_base(s.text)]
    for i in order:
        s = spans[i]
        if i in used:
            continue
        text = s.text.strip()
        bbox = tuple(s.bbox)
        start = _drawn_minus(s, minus_bars) if minus_bars and _unsigned_number(text) else None
        if start is not None:
            text = "\u2212" + text
            bbox = (min(start, bbox[0]), bbox[1], bbox[2], bbox[3])
        if _power_base(text):
            # Look for an exponent: a smaller span just right of it, raised.
            for j, e in enumerate(spans):
                if j == i or j in used:
                    continue
                et = e.text.strip().replace("\u2212", "-")
                if not et.lstrip("-+").isdigit() or e.size >= s.size:
                    continue
                left = e.bbox[0]
                if minus_bars and et.isdigit():
                    bar = _drawn_minus(e, minus_bars)
                    if bar is not None:
                        et, left = "-" + et, min(left, bar)
                gap = left - s.bbox[2]
                if -0.5 <= gap <= 0.5 * s.size and e.bbox[1] < s.bbox[1] + 0.1 * s.size and e.bbox[3] < s.bbox[3]:
                    text = f"{text}^{et}"
                    bbox = (s.bbox[0], min(s.bbox[1], e.bbox[1]), e.bbox[2], s.bbox[3])
                    used.add(j)
                    break
        used.add(i)
        found[i] = Token(text=text, bbox=bbox, rotated=_is_rotated(s), size=float(s.size or 0.0), dir=s.dir)
    return [found[i] for i in sorted(found)]


@dataclass
class Rect:
    bbox: tuple[float, float, float, float]
    fill: tuple[float, ...] | None

    @property
    def w(self) -> float:
        return self.bbox[2] - self.bbox[0]

    @property
    def h(self) -> float:
        return self.bbox[3] - self.bbox[1]


def is_light(c: tuple[float, ...] | None) -> bool:
    """No colour, or one within 7 % of white on every channel: paper, not ink."""
    return c is None or (len(c) >= 3 and min(c[:3]) > 0.93)


@dataclass
class VectorMarks:
    rects: list[Rect]  # filled, coloured, rectangle-like paths (bar candidates)
    hrules: list[tuple[float, float, float]]  # (y, x0, x1) horizontal lines and rect edges
    vrules: list[tuple[float, float, float]]  # (x, y0, y1)
    polylines: int
    polyline_boxes: list[tuple[float, float, float, float]]
    markers: int
    images: list[tuple[float, float, float, float]]
    areas: list[tuple[float, float, float, float]] = field(default_factory=list)  # filled wide polygons
    box_parts: int = 0  # filled boxes crossed by a median line: box plots


class TextIndex:
    """Text boxes indexed on a coarse grid, to ask how much of a box text covers."""

    CELL = 24.0  # grid step, in the boxes' units (pt for vector figures)

    def __init__(self, boxes) -> None:
        self.grid: dict[tuple[int, int], list] = {}
        c = self.CELL
        for b in boxes:
            for gx in range(int(b[0] // c), int(b[2] // c) + 1):
                for gy in range(int(b[1] // c), int(b[3] // c) + 1):
                    self.grid.setdefault((gx, gy), []).append(b)

    def covers(self, box, share: float) -> bool:
        """Whether the text boxes overlapping `box` add up to at least `share` of its area."""
        area = (box[2] - box[0]) * (box[3] - box[1])
        if area <= 0 or not self.grid:
            return False
        c = self.CELL
        seen: set[int] = set()
        covered = 0.0
        for gx in range(int(box[0] // c), int(box[2] // c) + 1):
            for gy in range(int(box[1] // c), int(box[3] // c) + 1):
                for b in self.grid.get((gx, gy), ()):
                    if id(b) in seen:
                        continue
                    seen.add(id(b))
                    w = min(b[2], box[2]) - max(b[0], box[0])
                    h = min(b[3], box[3]) - max(b[1], box[1])
                    if w > 0 and h > 0:
                        covered += w * h
                        if covered >= share * area:
                            return True
        return False


class Boxes:
    """Boxes on a coarse grid, for asking whether a point lies in one of them (thousands of
    markers against a figure's legend samples and labels). A box with a coordinate that is
    not finite holds nothing."""

    def __init__(self, boxes, cell: float) -> None:
        self.cell = max(cell, 1.0)
        self.grid: dict[tuple[int, int], list] = {}
        for b in boxes:
            try:
                xs = range(int(b[0] // self.cell), int(b[2] // self.cell) + 1)
                ys = range(int(b[1] // self.cell), int(b[3] // self.cell) + 1)
            except (ValueError, OverflowError):
                continue
            for gx in xs:
                for gy in ys:
                    self.grid.setdefault((gx, gy), []).append(b)

    def hold(self, x: float, y: float) -> bool:
        """Whether the point (x, y) lies in one of the boxes."""
        try:
            here = self.grid.get((int(x // self.cell), int(y // self.cell)))
        except (ValueError, OverflowError):  # a non-finite coordinate from an odd file
            return False
        return here is not None and any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in here)

    def held(self, points: list[tuple[float, float]]) -> list[bool]:
        """Whether each point lies in one of the boxes, in one loop (called for every marker
        of a scatter)."""
        grid, cell = self.grid, self.cell
        out = []
        for c in points:
            here = grid.get((int(c[0] // cell), int(c[1] // cell)))
            out.append(here is not None and any(b[0] <= c[0] <= b[2] and b[1] <= c[1] <= b[3] for b in here))
        return out


def run_box(run) -> tuple[float, float, float, float]:
    """The box of a vertex run, in one pass over its points (this runs once per marker of a
    scatter of tens of thousands: min() and max() over listed coordinates cost four passes)."""
    x0 = x1 = run[0][0]
    y0 = y1 = run[0][1]
    for x, y in run:
        if x < x0:
            x0 = x
        elif x > x1:
            x1 = x
        if y < y0:
            y0 = y
        elif y > y1:
            y1 = y
    return (x0, y0, x1, y1)


def run_boxes(an) -> dict[int, list[tuple[float, float, float, float]]]:
    """The box of every vertex run of each Drawing of an analysis that holds two or more
    runs, by the Drawing's index: made once per analysis (the legend's pieces and the
    legend-cover's marker shapes both split a scatter's groups into its markers)."""
    got = an.derived.get("_run_boxes")
    if got is None:
        got = {i: [run_box(r) for r in d.lines] for i, d in enumerate(an.drawings or ()) if len(d.lines) > 1}
        an.derived["_run_boxes"] = got
    return got


def pieces(an):
    """The analysis' drawings with each merged group (Drawing.paths > 1) split back into one
    piece per vertex run, each with its own box, as (box, drawing, items, run): the line
    sample of a legend entry and the error-bar caps drawn after it in the same style, or the
    markers of a scatter, are merged into one Drawing when a figure is read
    (ingest/paths.merge_paths, every route), and a test of one element's size must see the
    element, not the group. A run holds lines and curves only (rectangles are not runs), so a
    group without runs stays whole (run None; items the Drawing's). A piece of a group has
    the group's style, and as many items as its run has segments (at least one). No Drawing
    is made per piece: a scatter of 29,000 markers is one group of 29,000 pieces, most of
    which no reader keeps."""
    boxes = None
    for i, d in enumerate(an.drawings or ()):
        if d.paths <= 1 or len(d.lines) < 2:
            yield d.bbox, d, d.items, None
            continue
        if boxes is None:
            boxes = run_boxes(an)
        for r, b in zip(d.lines, boxes[i]):
            yield b, d, max(len(r) - 1, 1), r


def _chains(d: Drawing):
    """The connected runs of a Drawing's segments, runs joined where one ends at the next
    one's start (a merged group's paths each give a run)."""
    cur: list = []
    for r in d.lines:
        if not r:
            continue
        if cur and abs(r[0][0] - cur[-1][0]) <= 0.05 and abs(r[0][1] - cur[-1][1]) <= 0.05:
            cur.extend(r[1:])
        else:
            if cur:
                yield cur
            cur = list(r)
    if cur:
        yield cur


def data_line(d: Drawing) -> bool:
    """Whether a stroked Drawing holds a data line: a chain of at least two connected
    segments, slanted somewhere unless it is long (a step plot). The spines of a plot, its
    grid lines or its ticks are separate straight segments of one style, which the reading of
    a paper's or a file's paths merges into one Drawing (ingest/paths.py): many items, but no
    chain; a bracket or a corner is two straight segments at a right angle."""
    for c in _chains(d):
        if len(c) >= 5:
            return True
        if len(c) >= 3 and any(abs(b[0] - a[0]) > 0.05 and abs(b[1] - a[1]) > 0.05 for a, b in zip(c, c[1:])):
            return True
    return False


def _same_size(sizes: list[tuple[float, float]], tol: float = 0.15) -> int:
    """The most paths of one size: the markers of a scatter. Sizes are counted in cells of
    `tol` pt with their neighbours, not rounded to one grid, so the same marker read from a
    file (float32 coordinates), a paper's page or the sources' placement (rounded to 0.01 pt)
    counts the same. Linear in the number of paths."""
    cells = Counter((round(w / tol), round(h / tol)) for w, h in sizes)
    return max((sum(cells.get((a + i, b + j), 0) for i in (-1, 0, 1) for j in (-1, 0, 1)) for a, b in cells),
               default=0)


def fills_its_bottom(d: Drawing, depth: float = 0.08, share: float = 0.5) -> bool:
    """Whether a filled outline covers the bottom of its (clipped) box across most of its width.

    An area chart's layer is filled down to the baseline (or past the frame, on a cut axis):
    just above its box's bottom edge it covers the whole width. A band between two curves
    (a regression's confidence band, an interval around a line) reaches its box's bottom at
    one end only, where the lower curve leaves the plot: a scanline there crosses a sliver.
    Even-odd crossings of the outline's vertex runs, each closed; a path with no runs kept
    (boxes, quads) is taken as filling its box."""
    runs = [r for r in d.lines if len(r) >= 3]
    x0, y0, x1, y1 = d.bbox
    if not runs or x1 - x0 <= 0 or y1 - y0 <= 0:
        return True
    y = y1 - depth * (y1 - y0)
    xs: list[float] = []
    for run in runs:
        for (ax, ay), (bx, by) in zip(run, run[1:] + run[:1]):
            if (ay <= y) != (by <= y):
                xs.append(ax + (y - ay) * (bx - ax) / (by - ay))
    xs.sort()
    covered = 0.0
    for a, b in zip(xs[::2], xs[1::2]):
        covered += max(0.0, min(b, x1) - max(a, x0))
    return covered >= share * (x1 - x0)


def vector_marks(fig: Figure) -> VectorMarks:
    box = fig.bbox or (0, 0, 1, 1)
    fw, fh = box[2] - box[0], box[3] - box[1]
    rects: list[Rect] = []
    hrules, vrules = [], []
    text = TextIndex([sp.bbox for sp in fig.spans])
    poly_boxes = []
    areas: list = []
    small: list[tuple[float, float]] = []  # sizes of marker-sized paths
    for d in fig.drawings:
        x0, y0, x1, y1 = d.bbox
        w, h = x1 - x0, y1 - y0
        thin = 1.6
        if h <= thin and w > thin:
            hrules.append(((y0 + y1) / 2, x0, x1))
            continue
        if w <= thin and h > thin:
            vrules.append(((x0 + x1) / 2, y0, y1))
            continue
        if d.fill is not None and d.items <= 5 and w > thin and h > thin:
            big = w > 0.6 * fw and h > 0.6 * fh
            if is_light(d.fill) or big:
                if w > 0.95 * fw and h > 0.95 * fh:
                    continue  # the page/figure background clips nothing
                # axes patches, legend frames: their edges are rules
                hrules += [(y0, x0, x1), (y1, x0, x1)]
                vrules += [(x0, y0, y1), (x1, y0, y1)]
                continue
            if max(w, h) <= 8 and min(w, h) >= 1:
                small.append((w, h))
            if text.covers(d.bbox, 0.5):
                continue  # text covers most of it: a highlight or a table cell behind text, not a bar
            rects.append(Rect(d.bbox, d.fill))
            continue
        if (d.fill is not None and not is_light(d.fill) and d.items > 5 and w > 0.3 * fw and h > 0.1 * fh
                and d.paths <= 2):
            # fill_between / stackplot: a filled area chart layer is one outline. Many small
            # filled paths of one style merged into one drawing (markers, error bars, dash
            # pieces of a noisy line) only span the plot together: they fill no area.
            if fills_its_bottom(d):
                areas.append(d.bbox)
            continue
        if d.fill is None and d.stroke is not None and d.items >= 2 and w > 0.15 * fw and data_line(d):
            poly_boxes.append(d.bbox)
            continue
        if max(w, h) <= 8:
            small.append((w, h))
    markers = _same_size(small)
    imgs = [i.bbox for i in fig.images]
    vm = VectorMarks(rects, hrules, vrules, len(poly_boxes), poly_boxes, markers, imgs, areas)
    vm.box_parts = sum(1 for r in rects if any(
        abs(a - r.bbox[0]) <= 1 and abs(b - r.bbox[2]) <= 1 and r.bbox[1] + 0.5 < y < r.bbox[3] - 0.5
        for y, a, b in hrules))  # a line across a filled box, inside it: a median
    return vm
