"""Geometry of vector paths kept for the figure analysis: polylines and dash style.

MuPDF lists a path as items ("l" line, "c" Bézier curve, "re" rectangle, "qu" quad).
The analysis needs the vertices of data series (to read a trend) and whether a line is
dashed or dotted (to check a caption's "dashed line"); both are kept small: at most
`MAX_POINTS` vertices per Drawing, evenly thinned beyond that.
"""

from __future__ import annotations

import math
from itertools import chain

MAX_POINTS = 1000
_chain = chain.from_iterable
# Filled boxes (bars, legend patches) kept as separate Drawings per figure region before
# consecutive boxes of one style are merged again like any other path (a scatter plot of
# ten thousand square markers stays cheap).
MAX_SEPARATE_BOXES = 400


def polylines(items, ox: float = 0.0, oy: float = 0.0, sx: float = 1.0, sy: float = 1.0,
              kinds: list | None = None) -> list[list[tuple[float, float]]]:
    """The connected runs of line/curve segments of a path, as vertex lists.

    A run breaks where a segment does not start at the previous one's end. Curves
    contribute their end points; rectangles and quads are not series and are skipped.
    Coordinates are mapped by (x - ox) * sx, (y - oy) * sy. `kinds`: the items' kinds, when
    the caller has listed them.
    """
    runs: list[list[tuple[float, float]]] = []
    if not items:
        return runs
    # without a mapping (the PDF route's paths) the arithmetic is skipped: (x - 0.0) * 1.0 is x
    plain = ox == 0 and oy == 0 and sx == 1 and sy == 1
    if kinds is None:
        kinds = [it[0] for it in items]
    if plain and kinds.count("c") + kinds.count("l") == len(kinds):
        # One run when every segment starts exactly where the one before ends (a marker, a
        # data line): the same vertices the loop below gives, without its per-point work.
        # MuPDF's points are tuples of two floats, the vertices the loop builds: used as they are
        starts = [it[1] for it in items]
        first = starts[0]
        if type(first) is tuple and len(first) == 2 and type(first[0]) is float:
            ends = [it[-1] for it in items]
            if starts[1:] == ends[:-1]:
                try:
                    total = sum(_chain(ends))
                except TypeError:
                    total = math.nan  # the loop below decides
                # every coordinate finite: equal is connected (the first point is in no test)
                if total - total == 0.0:
                    return [[first, *ends]]
    cur: list[tuple[float, float]] | None = None
    lx = ly = 0.0  # the end of cur
    for it in items:
        kind = it[0]
        if kind == "l":
            p, q = it[1], it[2]
        elif kind == "c":
            p, q = it[1], it[4]
        else:
            if cur:
                runs.append(cur)
                cur = None
            continue
        if plain:
            ax, ay, bx, by = float(p[0]), float(p[1]), float(q[0]), float(q[1])
        else:
            ax, ay = (float(p[0]) - ox) * sx, (float(p[1]) - oy) * sy
            bx, by = (float(q[0]) - ox) * sx, (float(q[1]) - oy) * sy
        if cur is not None and abs(lx - ax) < 1e-3 and abs(ly - ay) < 1e-3:
            cur.append((bx, by))
        else:
            if cur:
                runs.append(cur)
            cur = [(ax, ay), (bx, by)]
        lx, ly = bx, by
    if cur:
        runs.append(cur)
    return runs


def thin(runs: list[list[tuple[float, float]]], limit: int = MAX_POINTS) -> list[list[tuple[float, float]]]:
    """At most `limit` vertices over all runs: long runs keep every k-th vertex and their ends."""
    total = sum(map(len, runs))
    if total <= limit:
        return runs
    step = -(-total // limit)
    out = []
    for r in runs:
        if len(r) <= 2:
            continue
        t = r[::step]
        if t[-1] != r[-1]:
            t.append(r[-1])
        out.append(t)
    return out[: max(1, limit // 2)]


_DASH_STYLES: dict[tuple, str] = {}  # (dash string, width) -> style: a figure repeats a few of them


def dash_style(dashes, width: float | None = None) -> str | None:
    """'solid', 'dashed' or 'dotted' from a MuPDF dash string like '[ 3 2 ] 0' (None: not stroked)."""
    if dashes is None:
        return None
    key = (str(dashes), width)
    style = _DASH_STYLES.get(key)
    if style is None:
        style = _dash_style(dashes, width)
        if len(_DASH_STYLES) < 10_000:
            _DASH_STYLES[key] = style
    return style


def _dash_style(dashes, width: float | None) -> str:
    try:
        nums = [float(v) for v in str(dashes).split("]")[0].strip(" [").split()]
    except ValueError:
        return "solid"
    nums = [v for v in nums if v > 0]
    if not nums:
        return "solid"
    on = nums[0]
    w = width or 1.0
    return "dotted" if on <= 1.5 * w else "dashed"


def is_filled_box(kind: str | None, items) -> bool:
    """A filled rectangle or quad: one "re"/"qu" item, or a closed run of at most four lines."""
    if not kind or "f" not in kind or not items:
        return False
    if len(items) == 1:
        return items[0][0] in ("re", "qu")
    return len(items) <= 4 and all(it[0] == "l" for it in items)


def path_style(p: dict) -> tuple:
    """What makes consecutive paths one series: kind, stroke colour, fill, line width, dash."""
    kind = p.get("type") or ""
    stroke = "s" in kind
    width = p.get("width") if stroke else None
    return (kind, p.get("color") if stroke else None, p.get("fill") if "f" in kind else None,
            round(width, 2) if width is not None else None, dash_style(p.get("dashes"), width) if stroke else None)


def path_shape(items) -> str:
    """The kinds of a path's segments in order ("cccc" a circle, "lll" a triangle, "re" a
    box), up to 12: what tells one marker shape from another."""
    return "".join(str(it[0]) for it in (items or ())[:12])


_STYLES: dict[tuple, tuple] = {}  # (type, color, fill, width, dashes) as MuPDF gives them -> path_style


def _style(p: dict) -> tuple:
    """path_style(p), one tuple per style: a cloud of markers shares it (memory; merge_paths
    compares it), and it is worked out once per style, not once per path."""
    key = (p.get("type"), p.get("color"), p.get("fill"), p.get("width"), p.get("dashes"))
    try:
        got = _STYLES.get(key)
    except TypeError:  # an unhashable colour from an odd file
        return path_style(p)
    if got is None:
        got = path_style(p)
        if len(_STYLES) < 10_000:
            _STYLES[key] = got
    return got


class PathRecord:
    """One vector path as the figure reading keeps it: its box (cut to the clip in force and
    shifted), its style, its segment count and shape, whether it is a filled box, and its
    vertex runs (polylines). MuPDF's dict for a path, with every segment's points as tuples,
    is kept by nobody: a page of 29,000 scatter markers held 440 MB of them, and allocating
    and freeing that memory cost more than reading the page's text."""

    __slots__ = ("rect", "style", "n", "shape", "box", "lines", "white", "alpha")

    def __init__(self, p: dict, rect: tuple, ox: float = 0.0, oy: float = 0.0):
        get = p.get
        items = get("items") or ()
        kind = get("type")
        fill = get("fill")
        kinds = [it[0] for it in items]
        n = len(kinds)
        # (x - 0.0) is x: the PDF route's boxes are kept as given
        self.rect = (rect[0] - ox, rect[1] - oy, rect[2] - ox, rect[3] - oy) if ox or oy else rect
        # _style(p), its look-up spelled out (this runs once per path)
        key = (kind, get("color"), fill, get("width"), get("dashes"))
        try:
            style = _STYLES.get(key)
        except TypeError:  # an unhashable colour from an odd file
            style = path_style(p)
        else:
            if style is None:
                style = path_style(p)
                if len(_STYLES) < 10_000:
                    _STYLES[key] = style
        self.style = style
        self.n = n
        try:
            self.shape = "".join(kinds[:12])  # path_shape: MuPDF's kinds are strings
        except TypeError:
            self.shape = path_shape(items)
        # is_filled_box, from the kinds already listed
        self.box = bool(kind and "f" in kind and n and (kinds[0] in ("re", "qu") if n == 1 else n <= 4 and kinds.count("l") == n))
        self.lines = polylines(items, ox, oy, kinds=kinds)
        self.white, self.alpha = _tone(kind, fill, get("fill_opacity"))

    def moved(self, p: dict, rect: tuple, dx: float, dy: float) -> "PathRecord":
        """This path moved by (dx, dy), with the style of `p` (its dict, moved, segments left
        out) and the box `rect`: a scatter's marker written from another (pdf_markers)."""
        new = MovedRecord.__new__(MovedRecord)
        new.rect = rect
        new.style = _style(p)
        new.n = self.n
        new.shape = self.shape
        new.box = self.box
        new.base = self
        new.dx = dx
        new.dy = dy
        new.white, new.alpha = _tone(p.get("type"), p.get("fill"), p.get("fill_opacity"))
        return new


class MovedRecord(PathRecord):
    """A PathRecord moved from another (PathRecord.moved): its vertex runs are that one's,
    moved when they are first asked for (merge_paths thins a cloud of markers to MAX_POINTS
    vertices a Drawing: most are never asked for)."""

    __slots__ = ("base", "dx", "dy")

    @property
    def lines(self):
        dx, dy = self.dx, self.dy
        return [[(x + dx, y + dy) for x, y in run] for run in self.base.lines]


def _tone(kind, fill, fo) -> tuple[bool, float]:
    """(whether a path is a white filled background, which pdf_regions.drawing_groups leaves
    out; its fill's opacity: a confidence band at 5 % is a faint tint, not an opaque ground;
    not part of the style, so paths merge as they always did)."""
    return bool(kind == "f" and fill and min(fill) > 0.97), fo if fo is not None and fo < 0.99 and fill is not None else 1.0


def merge_paths(paths) -> list:
    """Drawings from PathRecords in paint order.

    Consecutive paths of one style (a data series, a grid, a cloud of markers) become one
    Drawing; filled boxes stay apart, so bars keep their own baseline and count (up to
    MAX_SEPARATE_BOXES per call). The PDF route (ingest/pdf.py) and the LaTeX route's
    reading of figure files (ingest/placement.py) both use this, so a figure reads the same
    from either.
    """
    from figlint.model import Drawing

    out: list = []
    last = None
    boxes = 0
    full = False  # the last Drawing holds MAX_POINTS vertices: what it merges adds none
    npoints = 0  # vertices the last Drawing holds
    # The last Drawing's box, segment and path counts, kept here while paths merge into it
    # and written back when the next Drawing starts (this runs once per path of a figure).
    d = None
    bx0 = by0 = bx1 = by1 = 0.0
    nitems = npaths = 0
    for rec in paths:
        r = rec.rect
        st = rec.style
        if rec.box and boxes < MAX_SEPARATE_BOXES:
            boxes += 1  # a bar is a bar: same-coloured bars stay apart
        elif last is not None and st == last:
            # min(a, b) is a unless b < a; max(a, b) is a unless b > a
            if r[0] < bx0:
                bx0 = r[0]
            if r[1] < by0:
                by0 = r[1]
            if r[2] > bx1:
                bx1 = r[2]
            if r[3] > by1:
                by1 = r[3]
            nitems += rec.n
            npaths += 1
            # The vertices are only added while the Drawing has room for them.
            if not full:
                more = rec.lines
                if more:
                    total = npoints + sum(map(len, more))
                    if total <= MAX_POINTS:  # thin() would return them as they are
                        d.lines.extend(more)  # d.lines is this Drawing's own list
                        npoints = total
                    else:
                        d.lines = thin(d.lines + more)
                        npoints = sum(map(len, d.lines))
                    full = npoints >= MAX_POINTS
            continue
        if d is not None and npaths > 1:
            d.bbox, d.items, d.paths = (bx0, by0, bx1, by1), nitems, npaths
        # a list of its own: merging extends it (the runs in it are shared and never changed)
        lines = thin(list(rec.lines))
        d = Drawing(bbox=r, stroke=tuple(st[1]) if st[1] else None, fill=tuple(st[2]) if st[2] else None,
                    width=st[3], items=rec.n, dash=st[4], lines=lines, shape=rec.shape,
                    unit=max(r[2] - r[0], r[3] - r[1]), fill_alpha=rec.alpha)
        out.append(d)
        bx0, by0, bx1, by1 = r
        nitems, npaths = rec.n, 1
        npoints = sum(map(len, lines))
        full = npoints >= MAX_POINTS
        last = st
    if d is not None and npaths > 1:
        d.bbox, d.items, d.paths = (bx0, by0, bx1, by1), nitems, npaths
    return out


def printed(p: dict) -> dict | None:
    """The path as it prints: a fill or a stroke painted at opacity (nearly) 0 leaves no mark
    (a table's cells given a colour and alpha 0, a transparent hit area), so it is dropped from
    the path; None when nothing of the path is left. Read as drawn, such cells were bars under
    a legend and colours beside its labels."""
    kind = p.get("type") or ""
    fo = p.get("fill_opacity")
    so = p.get("stroke_opacity")
    no_fill = fo is not None and fo <= INVISIBLE and "f" in kind
    no_stroke = so is not None and so <= INVISIBLE and "s" in kind
    if not (no_fill or no_stroke):
        return p
    if no_fill:
        kind = kind.replace("f", "")
    if no_stroke:
        kind = kind.replace("s", "")
    if not kind:
        return None
    q = dict(p)
    q["type"] = kind
    return q


INVISIBLE = 0.01  # opacity at or below which paint leaves no visible mark


def clipped_drawings(paths: list[dict], ox: float = 0.0, oy: float = 0.0, page_box: tuple | None = None) -> list:
    """Vector paths (`page.get_cdrawings(extended=True)`) as the PDF route reads them: boxes
    cut to the clip in force, consecutive paths of one style merged (merge_paths). A figure
    file read on its own (ingest/graphics.py) and placed from the sources (ingest/placement.py)
    go through this, as a paper's figure region does (ingest/pdf.py), so a chart has the same
    marks whichever way it is read. `page_box`: a figure file's page box (page.rect), the
    outermost clip: MuPDF pushes no clip for it, and a figure cut from a larger page keeps
    paths outside it, which never print (pdfTeX clips an included PDF to its box)."""
    clipped: list[PathRecord] = []
    clips: list[tuple[int, tuple]] = [(-1, page_box)] if page_box is not None else []
    for d in paths:
        level = d.get("level", 0)
        while clips and clips[-1][0] >= level:
            clips.pop()
        kind = d.get("type") or ""
        if kind in ("clip", "group"):
            box = d.get("scissor")
            if box is not None:
                if clips:
                    cb = clips[-1][1]
                    box = (max(box[0], cb[0]), max(box[1], cb[1]), min(box[2], cb[2]), min(box[3], cb[3]))
                clips.append((level, box))
            continue
        d = printed(d)
        if d is None:
            continue
        x0, y0, x1, y1 = d["rect"]
        if clips:
            cb = clips[-1][1]
            x0, y0, x1, y1 = max(x0, cb[0]), max(y0, cb[1]), min(x1, cb[2]), min(y1, cb[3])
            if x1 < x0 or y1 < y0:
                continue
        clipped.append(PathRecord(d, (x0, y0, x1, y1), ox, oy))
    return merge_paths(clipped)


def glyph_marks(text: dict) -> list[dict]:
    """The glyphs of symbol fonts in a page's text (`get_text("dict")`) taken out of it, as the
    marks they are: each a small filled octagon of the glyph's colour, in the form MuPDF gives a
    path. R's pdf() device draws scatter points as ZapfDingbats' filled circle (`useDingbats`):
    read as text they were thousands of tiny overlapping labels, and their colours were lost to
    the chart (a caption's "in red" found nothing red). A span of several glyphs ("●●●", points
    side by side) gives one mark per glyph across its box. The dict loses those spans."""
    from figlint.text import symbol_font

    out: list[dict] = []
    for block in text.get("blocks", ()):
        for line in block.get("lines", ()):
            spans = line.get("spans", ())
            if not any(symbol_font(s.get("font", "")) for s in spans):
                continue
            keep = []
            for s in spans:
                if not symbol_font(s.get("font", "")):
                    keep.append(s)
                    continue
                n = len(s["text"].replace(" ", ""))
                if not n:
                    continue
                x0, y0, x1, y1 = s["bbox"]
                c = s.get("color") or 0
                rgb = (((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0, (c & 255) / 255.0)
                # the glyph's ink: as wide as its advance, a square centred in the line's height
                w = (x1 - x0) / n
                r = 0.4 * min(w, y1 - y0)
                cy = (y0 + y1) / 2
                for k in range(n):
                    cx = x0 + (k + 0.5) * w
                    pts = [(cx + r * math.cos(a * math.pi / 4), cy + r * math.sin(a * math.pi / 4)) for a in range(8)]
                    items = [("l", pts[i], pts[(i + 1) % 8]) for i in range(8)]
                    out.append({"type": "f", "fill": rgb, "color": None, "fill_opacity": s.get("alpha", 255) / 255.0,
                                "items": items, "rect": (cx - r, cy - r, cx + r, cy + r), "width": None,
                                "dashes": None, "level": 0, "closePath": True, "even_odd": False})
            line["spans"] = keep
    return out
