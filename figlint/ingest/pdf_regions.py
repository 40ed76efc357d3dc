"""The graphics regions that captions own, page by page (PDF route).

A caption's region (captions come from pdf_captions) is found by walking
outward from it — above or below it, decided per figure from its own geometry
(the captions of a page never share a graphic; a figure's caption sits under its
graphics unless the other side is much nearer; the sources' order of graphics and
caption decides when given), beside it when nothing is above or below — collecting images,
vector paths and small text, and stopping at body paragraphs, headings, other
captions, the running header, a hyperref anchor at the float's top, or a wide
empty gap (white margins inside an included graphic's own box do not count as
a gap). An element two captions reach goes to the nearer one. Tables, algorithms and listings get
regions the same way so their rules and cells are never taken for a figure;
graphics that no caption claims are clustered into uncaptioned figures when
they are big enough to be one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from figlint.ingest.pdf_captions import PANEL_OPEN as _PANEL_OPEN, CaptionBlock, _hoverlap, same_family
from figlint.mentions import parse_float_label
from figlint.model import union
from figlint.ingest.pdf_layout import BBox, Layout, Line, PageData, is_body_size

FIRST_GAP = 40.0  # caption to nearest graphics: caption skip plus white margin in the graphic
NEXT_GAP = 26.0  # between pieces of one figure; floats are set further apart than this
ANCHOR_MARGIN = 8.0  # a float's hyperref anchor (hypcap) stands this far above its top at most


@dataclass(slots=True)  # a page of scatter markers is 25,000 of them
class Elem:
    """A piece a region is made of, and the caption that took it."""

    bbox: BBox
    kind: str  # image, drawing, text
    ref: int  # index into page images / drawing groups / lines
    owner: CaptionBlock | None = None
    dist: float = 1e9
    frame: BBox | None = None  # the box of the included graphic it is part of, margins and all


# ---------------------------------------------------------------- elements


def drawing_groups(pd: PageData) -> tuple[list[BBox], list[int]]:
    """Consecutive paths that touch are one graphic element (a plot, a box of a diagram).

    Also returns, per group, how many of its paths are shapes rather than thin rules.
    """
    boxes: list[BBox] = []
    shapes: list[int] = []
    w, h = pd.width, pd.height
    g = None  # a group begun; its box is kept in g0..g3 while paths extend it (once per path)
    for p in pd.drawings:
        if p.white:
            continue  # white backgrounds of included graphics often reach past the visible figure
        x0, y0, x1, y1 = p.rect
        # cut to the page: max(x0, 0.0) is x0 unless 0.0 > x0, min(x1, w) x1 unless w < x1
        if 0.0 > x0:
            x0 = 0.0
        if 0.0 > y0:
            y0 = 0.0
        if w < x1:
            x1 = w
        if h < y1:
            y1 = h
        if g is not None and x0 <= g2 + 2 and x1 >= g0 - 2 and y0 <= g3 + 2 and y1 >= g1 - 2:
            # min(a, b) is a unless b < a; max(a, b) is a unless b > a
            if x0 < g0:
                g0 = x0
            if y0 < g1:
                g1 = y0
            if x1 > g2:
                g2 = x1
            if y1 > g3:
                g3 = y1
            n += (x1 - x0) > 3 and (y1 - y0) > 3
            continue
        if g is not None:
            boxes.append((g0, g1, g2, g3))
            shapes.append(int(n))
        g0, g1, g2, g3 = g = (x0, y0, x1, y1)
        n = int((x1 - x0) > 3 and (y1 - y0) > 3)
    if g is not None:
        boxes.append((g0, g1, g2, g3))
        shapes.append(int(n))
    return boxes, shapes


def _containers(pd: PageData, dgroups: list[BBox]) -> list[BBox]:
    """Images and drawn boxes big enough that text inside them is part of a graphic."""
    boxes = [im["bbox"] for im in pd.images] + dgroups
    return [b for b in boxes if (b[2] - b[0]) > 20 and (b[3] - b[1]) > 12]


def _overlap(a: BBox, b: BBox) -> bool:
    """The boxes share some area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(b: BBox, c: BBox, tol: float = 1.5) -> bool:
    """b's centre lies in c (grown by tol)."""
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    return c[0] - tol <= cx <= c[2] + tol and c[1] - tol <= cy <= c[3] + tol


def classify_text(pd: PageData, layout: Layout, containers: list[BBox], caption_lines: set[int]) -> tuple[list[Line], list[int]]:
    """Split page lines into blockers (body paragraphs, headings, titles) and figure-text candidates.

    Text inside an image or a drawn box is figure text whatever its size; outside,
    running text (dense, wide, in the body typeface) and headings stop a region.
    """
    body = layout.body_size
    subs = _subcaption_lines(pd, containers)
    prose = [ln for ln in pd.lines if not ln.role and ln.horizontal and id(ln) not in caption_lines and _prose(ln, layout)
             and id(ln) not in subs]
    wide_blocks = {ln.block for ln in prose}
    # An included graphic's own box (its clip, pdf_layout frames) that holds no running text:
    # every label inside it is the graphic's, however large and however far from the marks
    # (a colour bar's labels stand beside a strip too thin to be a container).
    page_area = pd.width * pd.height
    frames = [f for f in pd.frames if (f[2] - f[0]) * (f[3] - f[1]) < 0.6 * page_area
              and not any(inside(ln.bbox, f, 0) for ln in prose)]
    blockers: list[Line] = []
    text_elems: list[int] = []
    for idx, ln in enumerate(pd.lines):
        if ln.role or id(ln) in caption_lines:
            continue
        if not ln.horizontal:
            text_elems.append(idx)
            continue
        contained = any(inside(ln.bbox, c) for c in containers) or any(inside(ln.bbox, f, 0) for f in frames)
        fam_body = same_family(ln.font, layout.body_font)
        blocking = False
        if not contained:
            if is_body_size(ln.size, body):
                c0 = _col_bounds(ln, layout)[0]
                # a bold line flush with the column is a heading, unless it opens with a panel
                # letter: "(c) ACIC 2018" over the lower row of a grid is that panel's title
                heading = ln.bold and abs(ln.bbox[0] - c0) < 4 and fam_body and not _PANEL_TITLE.match(ln.text)
                blocking = _prose(ln, layout) or heading or (ln.block in wide_blocks and fam_body)
            elif ln.size > body + 0.6:
                # titles, author lines, section headings; not a panel's title ("(c) ACIC 2018")
                blocking = fam_body and not _PANEL_TITLE.match(ln.text)
        if not blocking and not contained and is_body_size(ln.size, body) and fam_body:
            blocking = _last_line_of(ln, prose, layout)
        if blocking and id(ln) in subs:
            blocking = False  # a panel's sub-caption set in the body's size, however wide or long
        if blocking:
            blockers.append(ln)
        elif ln.size <= body + 0.6 or contained or _near_any(ln.bbox, containers, 12.0):
            # Large free text joins a figure only next to its graphics (panel titles, not author lines).
            text_elems.append(idx)
    return blockers, text_elems


_PANEL_TITLE = re.compile(r"\s*\(?[a-zA-Z]\)\s")


def _subcaption_lines(pd: PageData, graphics: list[BBox]) -> set[int]:
    """ids of the page's sub-caption lines: each line opening with a panel letter right under
    a graphic (_subcaption), and the lines that go on from it as one paragraph (the next line
    down within half a line, in its size, overlapping it: "(B) Adjoin ..." over three lines
    between two rows of panels)."""
    lines = [ln for ln in pd.lines if ln.horizontal and not ln.role]
    subs = [ln for ln in lines if _subcaption(ln, graphics)]
    if not subs:
        return set()
    out = {id(ln) for ln in subs}
    last = list(subs)
    for ln in sorted(lines, key=lambda l: l.bbox[1]):
        if id(ln) in out or parse_float_label(ln.text):
            continue
        b = ln.bbox
        for s in last:
            sb = s.bbox
            if 0 <= b[1] - sb[3] + 1 <= 0.6 * ln.size and abs(ln.size - s.size) <= 0.6 \
                    and _hoverlap(b[0], b[2], sb[0], sb[2]) > 0 and not _inside_any(b, graphics):
                out.add(id(ln))
                last.append(ln)
                break
    return out


def _inside_any(b: BBox, boxes: list[BBox]) -> bool:
    return any(inside(b, c) for c in boxes)


def _subcaption(ln: Line, graphics: list[BBox]) -> bool:
    """A line that opens with a panel letter right under a graphic it overlaps (within a line
    and a half): a sub-caption, part of the figure, not running text, even at the body's size
    and half a column wide ("в) Длина робота ↑, профильная проходимость ↑" under its panel)."""
    if not _PANEL_OPEN.match(ln.text):
        return False
    b = ln.bbox
    return any(_hoverlap(g[0], g[2], b[0], b[2]) > 0 and -2 <= b[1] - g[3] <= 1.5 * ln.size for g in graphics)


_SENTENCE_END = re.compile(r"[.;:!?][)\]\u201d\u2019\"']*\s*$")


def _last_line_of(ln: Line, prose: list[Line], layout: Layout) -> bool:
    """A short line in the body's size and typeface that ends a sentence, set right under a
    line of running text at its left edge and the paragraph's own line spacing: the last line
    of that paragraph, even when a float follows close under it (a double-spaced preprint)."""
    if len(ln.text) <= 20 or not _SENTENCE_END.search(ln.text):
        return False
    for p in prose:
        gap = ln.bbox[1] - p.bbox[3]
        if p.page == ln.page and abs(p.bbox[0] - ln.bbox[0]) <= 2 and 0 <= gap <= layout.line_gap + 0.3 * layout.body_size:
            return True
    return False


def _col_bounds(ln: Line, layout: Layout) -> tuple[float, float]:
    col = layout.column_of(ln.bbox[0], ln.bbox[2])
    return layout.columns[col] if col is not None else (layout.columns[0][0], layout.columns[-1][1])


def _prose(ln: Line, layout: Layout) -> bool:
    """A line of running text: body size and typeface, at least half a column wide, no wide
    gaps (a row of tick labels is wide but gappy), and words in it (pgfplots sets its tick
    labels in the body's font and size, "-125 -120 ... -70" about a word space apart)."""
    c0, c1 = _col_bounds(ln, layout)
    return (is_body_size(ln.size, layout.body_size) and same_family(ln.font, layout.body_font)
            and ln.bbox[2] - ln.bbox[0] >= 0.5 * (c1 - c0) and len(ln.text) > 20 and ln.gap < 1.2 * ln.size
            and any(ch.isalpha() for ch in ln.text))


def _near_any(b: BBox, boxes: list[BBox], d: float) -> bool:
    return any(b[0] <= c[2] + d and b[2] >= c[0] - d and b[1] <= c[3] + d and b[3] >= c[1] - d for c in boxes)


# ---------------------------------------------------------------- regions


def _limits(cap: CaptionBlock, side: str, xr: tuple[float, float], walls: list[BBox], pd: PageData) -> float:
    """How far a region may reach on one side: the nearest wall across its horizontal range."""
    cb = cap.bbox
    if side == "above":
        lim = 0.0
        for w in walls:
            if w[3] <= cb[1] + 1 and _hoverlap(w[0], w[2], xr[0], xr[1]) > 0.3 * min(w[2] - w[0], xr[1] - xr[0]):
                lim = max(lim, w[3])
        if cap.anchor_y is not None and cap.anchor_y < cb[1]:
            lim = max(lim, cap.anchor_y - ANCHOR_MARGIN)
        return lim
    lim = pd.height
    for w in walls:
        if w[1] >= cb[3] - 1 and _hoverlap(w[0], w[2], xr[0], xr[1]) > 0.3 * min(w[2] - w[0], xr[1] - xr[0]):
            lim = min(lim, w[1])
    return lim


def first_gap(layout: Layout) -> float:
    """How far a caption may be from its graphics in this document: FIRST_GAP, and twice the
    white space the document leaves between lines beyond one-and-a-half spacing (half the
    body size). A double-spaced thesis sets the line over its caption and the caption's
    first line at its spacing: captions there stand 50-60 pt below their graphics (measured
    on a uwthesis MS thesis, 17 pt between its lines at 12 pt)."""
    extra = max(0.0, layout.line_gap - 0.5 * layout.body_size)
    return FIRST_GAP + 2.0 * extra


def _walk(cap: CaptionBlock, side: str, elems: list[Elem], lim: float, frames: bool = False,
          first: float = FIRST_GAP) -> list[Elem]:
    """Elements reached from the caption going up (or down), gap by gap, up to the wall at lim.

    With `frames`, the gap to a piece of an included graphic is measured to the graphic's
    own box (Elem.frame), so white margins inside the graphic do not count as distance.
    Which side a caption's graphics are on is decided without (nearest_gap): the box of
    the next float's graphic starts about as close to a caption as the caption's own.
    """
    cb = cap.bbox
    x0, x1 = cap.xrange
    lo, hi = x0 - 4, x1 + 4
    above = side == "above"
    # Written out for speed (a page of 25,000 scatter markers is as many elements): the
    # filters ask _mostly only of elements over 20 pt tall (it needs that), the range test is
    # _in_range, the gap is measured to box(e) below.
    if above:
        near, far = cb[1] + 2, lim - 1  # an element ends above the caption, starts below the wall
        # (a graphic's box may reach 3 pt into the text line over it: the line's box holds its
        # descenders' room, the picture starts right under the letters)
        cand = [e for e in elems if (e.bbox[3] <= near or (e.bbox[3] - e.bbox[1] > 20 and e.kind != "text" and _mostly(e, cb[1], -1)))
                and (e.bbox[1] >= far or (e.kind != "text" and e.bbox[1] >= far - 2 and e.bbox[3] - e.bbox[1] > 20))]
        cand.sort(key=_neg_bottom)
        edge = cb[1]
        fa, fb = lim - 1, cb[1] + 2  # a graphic's own box within these counts for the gap
    else:
        near, far = cb[3] - 2, lim + 1
        cand = [e for e in elems if (e.bbox[1] >= near or (e.bbox[3] - e.bbox[1] > 20 and e.kind != "text" and _mostly(e, cb[3], 1)))
                and (e.bbox[3] <= far or (e.kind != "text" and e.bbox[3] <= far + 2 and e.bbox[3] - e.bbox[1] > 20))]
        cand.sort(key=_top)
        edge = cb[3]
        fa, fb = cb[3] - 2, lim + 1
    out: list[Elem] = []
    for e in cand:
        b = e.bbox
        cx = (b[0] + b[2]) / 2
        if not (lo <= cx <= hi or _hoverlap(b[0], b[2], x0, x1) >= 0.6 * max(b[2] - b[0], 0.1)):
            continue
        f = e.frame if frames else None
        # the graphic's own box unless it reaches past the caption or the wall
        g = f if f is not None and fa <= f[1] and f[3] <= fb else b
        gap = edge - g[3] if above else g[1] - edge
        if gap > (first if not out else NEXT_GAP):
            break
        if out and b[3] - b[1] <= 1.5 and _rule_at_wall(e, b[1] - lim if above else lim - b[3]):
            break
        out.append(e)
        # edge = min(edge, top) going up, max(edge, bottom) going down
        if above:
            if b[1] < edge:
                edge = b[1]
        elif b[3] > edge:
            edge = b[3]
    return out


def _neg_bottom(e: Elem) -> float:
    return -e.bbox[3]


def _top(e: Elem) -> float:
    return e.bbox[1]


def _rule_at_wall(e: Elem, to_wall: float) -> bool:
    """A lone horizontal rule right against the text beyond the figure (a table's bottom rule,
    a footnote rule) belongs to that text, not to the graphic the walk came from."""
    h = e.bbox[3] - e.bbox[1]
    return e.kind == "drawing" and h <= 1.5 and e.bbox[2] - e.bbox[0] > 10 * max(h, 0.5) and 0 <= to_wall <= 5.0


def _mostly(e: Elem, y: float, sign: int) -> bool:
    """A graphic that pokes past the caption edge (a separator line) but lies mostly on one side."""
    if e.kind == "text":
        return False
    h = e.bbox[3] - e.bbox[1]
    part = (y - e.bbox[1]) if sign < 0 else (e.bbox[3] - y)
    return h > 20 and part >= 0.75 * h


def _in_range(b: BBox, x0: float, x1: float) -> bool:
    """Centred in the caption's range, or mostly inside it."""
    w = b[2] - b[0]
    cx = (b[0] + b[2]) / 2
    return x0 - 4 <= cx <= x1 + 4 or _hoverlap(b[0], b[2], x0, x1) >= 0.6 * max(w, 0.1)


def _xranges(caps: list[CaptionBlock], layout: Layout) -> None:
    """Each caption's horizontal range: its column or all columns, split between side-by-side captions."""
    for c in caps:
        b = c.bbox
        lo, hi = layout.span_range(b[0], b[2])
        # A caption of two or more lines fills the width of its float's box, so a clearly
        # narrower one sits in a wrapfigure or minipage: that box is the figure's range. A
        # label on a line of its own over a one-line title (APA: "Figure 2" in bold, the
        # title under it) is no paragraph that wrapped, and says nothing of the float's width.
        text_lines = c.lines[1:] if _label_alone(c) else c.lines
        if _rows(text_lines) >= 2 and b[2] - b[0] < 0.85 * (hi - lo):
            lo, hi = b[0] - 8, b[2] + 8
        c.xrange = (lo, hi)
    for c in caps:
        b = c.bbox
        first = c.lines[0].bbox
        sibs = [o for o in caps if o is not c and o.page == c.page and abs(o.lines[0].bbox[1] - first[1]) < 1.5 * c.lines[0].size
                and _hoverlap(o.bbox[0], o.bbox[2], b[0], b[2]) < 0]
        lo, hi = c.xrange
        for o in sibs:
            ob = o.bbox
            if ob[2] <= b[0]:
                lo = max(lo, (ob[2] + b[0]) / 2)
            elif ob[0] >= b[2]:
                hi = min(hi, (b[2] + ob[0]) / 2)
        c.xrange = (lo, hi)


def _rows(lines) -> int:
    """Printed rows of a caption's lines: a row the text reader split at a formula (its rest
    read as a line of its own) is one row, not a wrapped paragraph."""
    rows: list[tuple[float, float]] = []
    for ln in lines:
        y0, y1 = ln.bbox[1], ln.bbox[3]
        if not any(min(y1, b) - max(y0, a) > 0.5 * min(y1 - y0, b - a) for a, b in rows):
            rows.append((y0, y1))
    return len(rows)


def _label_alone(c: CaptionBlock) -> bool:
    """The caption's first line is its label alone ("Figure 2", "Fig. 3.")."""
    first = c.lines[0].text.strip().rstrip(".:|").strip()
    return len(c.lines) > 1 and first.lower() == c.label.strip().rstrip(".:|").strip().lower()


def nearest_gap(cap: CaptionBlock, side: str, elems: list[Elem], lim: float) -> float | None:
    """Distance from the caption to the chain of elements on one side, if that chain holds graphics."""
    got = _walk(cap, side, elems, lim)
    if not any(e.kind != "text" for e in got):
        return None
    cb = cap.bbox
    e = got[0]
    return max(0.0, cb[1] - e.bbox[3] if side == "above" else e.bbox[1] - cb[3])


@dataclass
class PageRegions:
    captions: list[CaptionBlock]
    elems: list[Elem]
    dgroups: list[BBox]
    shapes: list[int]  # per drawing group: paths that are shapes, not thin rules
    blockers: list[Line]
    margins: list[BBox]  # running header and footer lines
    first_gap: float = FIRST_GAP  # the document's (first_gap)


def prepare(pd: PageData, layout: Layout, caps: list[CaptionBlock]) -> PageRegions:
    """The page's elements (images, drawing groups, free text), blockers and caption ranges."""
    dgroups, shapes = drawing_groups(pd)
    containers = _containers(pd, dgroups)
    cap_lines = {id(ln) for c in caps for ln in c.lines}
    blockers, text_idx = classify_text(pd, layout, containers, cap_lines)
    elems: list[Elem] = []
    # Graphics above the running head or below the footer (rules, logos) belong to no figure.
    top = max([ln.bbox[3] for ln in pd.lines if ln.role == "header"], default=0.0)
    bottom = min([ln.bbox[1] for ln in pd.lines if ln.role == "footer"], default=pd.height)
    for i, im in enumerate(pd.images):
        b = im["bbox"]
        if b[3] > top and b[1] < bottom:
            elems.append(Elem(b, "image", i))
    if layout.columns:
        # the rule a class draws under the running head or over the footer (SIAM's 2 pt bar)
        # belongs to it too: as wide as the text block, a few points from its text
        reach = layout.columns[-1][1] - layout.columns[0][0]
        for b in dgroups:
            if b[3] - b[1] <= 3.0 and b[2] - b[0] >= 0.8 * reach:
                if 0 < top and top - 1 <= b[1] <= top + 6:
                    top = b[3]
                elif bottom < pd.height and bottom - 6 <= b[3] <= bottom + 1:
                    bottom = b[1]
    for i, b in enumerate(dgroups):
        if b[3] > top and b[1] < bottom:
            elems.append(Elem(b, "drawing", i))
    for i in text_idx:
        elems.append(Elem(pd.lines[i].bbox, "text", i))
    _frame_elements(pd, elems, blockers)
    _xranges(caps, layout)
    first = first_gap(layout)
    _spanning_graphics(caps, elems, layout, first)
    # A running head or page number printed over a graphic (a float taller than the text
    # block runs past the folio: its caption is set below it) walls off nothing.
    graphics = [e.bbox for e in elems if e.kind != "text"]
    margins = [ln.bbox for ln in pd.lines if ln.role in ("header", "footer")
               and not any(_overlap(ln.bbox, g) for g in graphics)]
    return PageRegions(caps, elems, dgroups, shapes, blockers, margins, first)


def _spanning_graphics(caps: list[CaptionBlock], elems: list[Elem], layout: Layout, first: float = FIRST_GAP) -> None:
    """A short caption set flush left in a figure* fits in one column, but its float spans
    the page when the graphic right above or below it crosses the gutter (no column's float
    does): its range is then all columns, so the whole graphic is its own."""
    if len(layout.columns) < 2:
        return
    full = (layout.columns[0][0], layout.columns[-1][1])
    for c in caps:
        if len(c.lines) != 1 or c.xrange[1] - c.xrange[0] >= 0.9 * (full[1] - full[0]):
            continue
        cb = c.bbox
        if any(o is not c and abs(o.bbox[1] - cb[1]) < 1.5 * c.lines[0].size for o in caps):
            continue  # side by side with another caption: each has its own part of the row
        for e in elems:
            if e.kind == "text":
                continue
            b = e.frame or e.bbox
            # on the convention's side only (a figure's graphic above its caption): what lies
            # on the other side is another float's
            if PRIOR_SIDE.get(c.kind, "below") == "above":
                gap = cb[1] - b[3] if b[3] <= cb[1] + 2 else None
            else:
                gap = b[1] - cb[3] if b[1] >= cb[3] - 2 else None
            if gap is None or gap > first or _hoverlap(b[0], b[2], cb[0], cb[2]) <= 0:
                continue
            if layout.column_of(b[0], b[2]) is None:
                c.xrange = (min(full[0], c.xrange[0]), max(full[1], c.xrange[1]))
                break


def _frame_elements(pd: PageData, elems: list[Elem], blockers: list[Line]) -> None:
    """Give each element the box of the included graphic it lies in (pdf_layout: the
    graphic's clip), when that box holds no running text. A diagram drawn with a wide
    white margin is then reached from its caption across the margin (see _walk)."""
    frames = [b for b in pd.frames if not any(inside(ln.bbox, b, 0) for ln in blockers)]
    if not frames:
        return
    if len(frames) == 1:  # the usual case, written out (a scatter plot is 25,000 elements)
        f = frames[0]
        f0, f1, f2, f3 = f
        for e in elems:
            b = e.bbox
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            if f0 <= cx <= f2 and f1 <= cy <= f3:  # inside(b, f, 0)
                e.frame = f
        return
    for e in elems:
        holders = [b for b in frames if inside(e.bbox, b, 0)]
        if holders:
            e.frame = min(holders, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))


def release(pr: PageRegions) -> None:
    """Drop the captions' lists of their elements once the regions are read: an element
    names its caption (Elem.owner) and the caption its elements, a cycle that reference
    counting cannot free, so a page of 29,000 scatter markers stayed alive until the next
    full collection had walked all of them."""
    for c in pr.captions:
        c.elems = []


def walls_of(pr: PageRegions) -> list[BBox]:
    """What no region may cross: body text, headings, captions, running heads."""
    return [ln.bbox for ln in pr.blockers] + [c.bbox for c in pr.captions] + pr.margins


# The side a caption's graphics are on when its own geometry does not say otherwise: LaTeX's
# convention (and every class's): a figure's caption under its graphics, a table's over it.
PRIOR_SIDE = {"figure": "above"}
MAX_JOINT = 10  # captions on one page decided jointly (2**10 combinations); more: one by one


def assign(pr: PageRegions, pd: PageData, sides: dict[str, str] | None = None) -> None:
    """Give each caption its side and its elements; an element goes to the nearest claimant.

    The side is decided per figure, never for the document: each caption may take the
    graphics above or below it (_options); the captions of a page choose jointly so that
    no two take the same graphic, then by cost (_cost: the kind's convention, unless the
    other side is much nearer). In a stack of floats (graphic, caption, graphic, caption)
    that makes the caption whose only graphics are on one side settle its neighbours.
    `sides` (figure number -> "above"/"below"), from the sources' order of graphics and
    caption in each environment, decides where it names a side that has graphics.
    """
    sides = sides or {}
    _drop_inner_anchors(pr)
    walls = walls_of(pr)
    lims = {id(c): {s: _limits(c, s, c.xrange, walls, pd) for s in ("above", "below")} for c in pr.captions}
    opts = {id(c): _options(c, pr.elems, lims[id(c)], pr.first_gap) for c in pr.captions}
    chosen = _choose(pr.captions, opts, sides)
    for cap in pr.captions:
        side = chosen.get(id(cap)) or PRIOR_SIDE.get(cap.kind, "below")
        cap.side = side
        got = opts[id(cap)][side][1] if side in opts[id(cap)] else _walk(cap, side, pr.elems, lims[id(cap)][side], frames=True,
                                                                              first=pr.first_gap)
        cb = cap.bbox
        for e in got:
            d = cb[1] - e.bbox[3] if side == "above" else e.bbox[1] - cb[3]
            if e.owner is None or d < e.dist:
                e.owner, e.dist = cap, d
    # An included graphic is one piece: what lies inside the box of a graphic a caption took
    # (its clip, Elem.frame) is that caption's too, however far it reaches past the caption's
    # column (a figure wider than the text block has its right-hand axis in the margin).
    taken = {}
    for e in pr.elems:
        if e.owner is not None and e.frame is not None and e.kind != "text":
            taken.setdefault(e.frame, e.owner)
    for e in pr.elems:
        if e.owner is None and e.frame in taken:
            e.owner = taken[e.frame]
    for cap in pr.captions:
        cap.elems = [e for e in pr.elems if e.owner is cap]
        # a rule is no graphic (a page's footer rule under the last lines of a text block)
        graphics = [e for e in cap.elems if e.kind != "text" and not _rule(e)]
        if not any(e.kind != "text" for e in cap.elems) and cap.kind == "figure":
            got = _beside(cap, pr.elems)
            if got:
                for e in cap.elems:
                    e.owner = None
                for e in got:
                    e.owner = cap
                cap.elems, cap.side = got, "beside"
        # Text alone makes a figure (a prompt, a listing) only when it is more than one
        # neighbouring line of the caption; the rules it took count for nothing.
        if cap.elems and (graphics or cap.side == "beside" or cap.kind != "figure"
                          or len([e for e in cap.elems if not _rule(e)]) >= 2):
            cap.region = union([e.bbox for e in cap.elems])
        else:
            cap.region = None


def _rule(e: Elem) -> bool:
    """A drawing that is a line alone, across or down the page (at most 3 pt thick)."""
    w, h = e.bbox[2] - e.bbox[0], e.bbox[3] - e.bbox[1]
    return e.kind == "drawing" and min(w, h) <= 3.0 and max(w, h) > 10 * max(min(w, h), 0.5)


def _drop_inner_anchors(pr: PageRegions) -> None:
    """A figure's anchor is a wall only where it marks the float's top (hyperref with hypcap).
    Without hypcap it is set where \\caption is called, raised above the caption, which for a
    graphic drawn in the float (TikZ, pgfplots) can be inside the graphic, or at its lower edge
    (raised by a double-spaced \\baselineskip): a graphic above the caption that runs across the
    wall the anchor would set (ANCHOR_MARGIN above it) shows the anchor is not the float's top."""
    for c in pr.captions:
        y = c.anchor_y
        if y is None:
            continue
        x0, x1 = c.xrange
        cb = c.bbox
        wall = y - ANCHOR_MARGIN
        for e in pr.elems:
            b = e.bbox
            if e.kind != "text" and b[1] < wall - 2 and wall + 2 < b[3] <= cb[1] + 2 and _hoverlap(b[0], b[2], x0, x1) > 0:
                c.anchor_y = None
                break


def _options(cap: CaptionBlock, elems: list[Elem], lims: dict[str, float],
             first: float = FIRST_GAP) -> dict[str, tuple[float, list[Elem]]]:
    """Per side holding graphics: (gap from the caption to its nearest piece, the pieces reached)."""
    out = {}
    cb = cap.bbox
    for side in ("above", "below"):
        # Gaps are measured to the included graphics' own boxes: a diagram drawn with a wide
        # white margin is as near its caption as a plot (the joint choice in _choose keeps the
        # next float's box, as near, from being taken as well).
        got = _walk(cap, side, elems, lims[side], frames=True, first=first)
        if not any(e.kind != "text" for e in got):
            continue
        boxes = [e.frame or e.bbox for e in got if e.kind != "text"]
        gap = min(cb[1] - b[3] if side == "above" else b[1] - cb[3] for b in boxes)
        out[side] = (max(0.0, gap), got)
    return out


def _cost(cap: CaptionBlock, side: str, gap: float, sides: dict[str, str]) -> float:
    """The convention's side costs nothing when its graphics are near (a caption skip plus a
    graphic's margin); the other side must be nearer by a clear margin to win."""
    want = sides.get(cap.number) if cap.kind == "figure" and cap.number else None
    if want is not None:
        return 0.0 if side == want else 1000.0
    if side == PRIOR_SIDE.get(cap.kind, "below"):
        return 0.0 if gap <= 24 else gap - 12
    return gap


def _choose(caps: list[CaptionBlock], opts: dict[int, dict], sides: dict[str, str]) -> dict[int, str]:
    """A side for each caption with graphics on either side: fewest graphics taken by two
    captions, then least cost."""
    open_ = [c for c in caps if opts[id(c)]]
    if not open_:
        return {}
    if len(open_) > MAX_JOINT:
        return {id(c): min(opts[id(c)], key=lambda s: _cost(c, s, opts[id(c)][s][0], sides)) for c in open_}
    taken = {(id(c), s): {id(e) for e in got if e.kind != "text"} for c in open_ for s, (_, got) in opts[id(c)].items()}
    best, best_key = None, None

    def search(i: int, pick: list[str], used: dict[int, int], clash: int, cost: float) -> None:
        nonlocal best, best_key
        if best_key is not None and (clash, cost) >= best_key:
            return
        if i == len(open_):
            best, best_key = list(pick), (clash, cost)
            return
        c = open_[i]
        # the last caption's picks are read by no one after it: `used` is left alone then
        # (each pick's graphics are a whole scatter plot's markers on a page of one)
        deeper = i + 1 < len(open_)
        for s in sorted(opts[id(c)], key=lambda s: _cost(c, s, opts[id(c)][s][0], sides)):
            ids = taken[(id(c), s)]
            more = sum(1 for e in ids if used.get(e)) if used else 0
            if deeper:
                for e in ids:
                    used[e] = used.get(e, 0) + 1
            pick.append(s)
            search(i + 1, pick, used, clash + more, cost + _cost(c, s, opts[id(c)][s][0], sides))
            pick.pop()
            if deeper:
                for e in ids:
                    used[e] -= 1

    search(0, [], {}, 0, 0.0)
    # search refers to itself through its closure: a cycle that would keep every option's
    # element lists (29,000 on a page of scatter markers) alive until the collector runs
    del search
    return {id(c): s for c, s in zip(open_, best or [])}


def _beside(cap: CaptionBlock, elems: list[Elem]) -> list[Elem]:
    """Graphics level with a side caption (SCfigure, a caption in a minipage next to the plot)."""
    cb = cap.bbox

    def gap(e: Elem) -> float:
        # from the graphic's own box (its frame) where it has one: white margins inside an
        # included graphic are no distance (a minipage of 3.5in beside one of 3in)
        b = e.frame if e.frame is not None and (e.frame[2] <= cb[0] + 2 or e.frame[0] >= cb[2] - 2) else e.bbox
        return cb[0] - b[2] if e.bbox[2] <= cb[0] + 2 else b[0] - cb[2]

    cand = [e for e in elems if e.owner is None and e.kind != "text"
            and (e.bbox[2] <= cb[0] + 2 or e.bbox[0] >= cb[2] - 2)
            and min(e.bbox[3], cb[3] + 40) - max(e.bbox[1], cb[1] - 40) > 0]
    if not cand:
        return []
    first = min(cand, key=gap)
    if gap(first) > 40:
        return []
    left = first.bbox[2] <= cb[0] + 2
    got, box = [first], first.bbox
    for _ in range(4):
        more = [e for e in elems if e.owner is None and e not in got and _near_any(e.bbox, [box], 8.0)
                and ((e.bbox[2] <= cb[0] + 2) if left else (e.bbox[0] >= cb[2] - 2))]
        if not more:
            break
        got += more
        box = union([box] + [e.bbox for e in more])
    # an included graphic is one piece: the rest of the graphic those belong to comes along
    frames = {e.frame for e in got if e.frame is not None}
    if frames:
        seen = {id(e) for e in got}
        got += [e for e in elems if e.owner is None and id(e) not in seen and e.frame in frames]
    return got


def uncaptioned(pr: PageRegions, pd: PageData, layout: Layout) -> list[BBox]:
    """Clusters of unclaimed graphics big enough to be a figure (not rules, not logos)."""
    free = [e for e in pr.elems if e.owner is None and e.kind != "text"]
    # the shaded ground of a code listing is no graphic, whatever stands near it (a listing in
    # the next column, a second one a line below): tested on its own box, before clustering
    free = [e for e in free if e.kind != "drawing" or not _set_text(e.bbox, pd.lines)]
    clusters: list[list[Elem]] = []
    # Each cluster's bounding box is kept up to date as it grows, and clusters that end
    # above the current element (elements come top-down) are retired: recomputing the union
    # of every cluster for every element was quadratic (10,000 tiny marks took seconds).
    # Same clusters as before: a retired cluster could never be matched again.
    boxes: list[list[float]] = []
    active: list[int] = []
    for e in sorted(free, key=lambda e: e.bbox[1]):
        b = e.bbox
        active = [k for k in active if b[1] <= boxes[k][3] + 8]
        for k in active:
            ub = boxes[k]
            if b[0] <= ub[2] + 8 and b[2] >= ub[0] - 8 and b[3] >= ub[1] - 8:
                clusters[k].append(e)
                ub[0], ub[1], ub[2], ub[3] = min(ub[0], b[0]), min(ub[1], b[1]), max(ub[2], b[2]), max(ub[3], b[3])
                break
        else:
            clusters.append([e])
            boxes.append(list(b))
            active.append(len(clusters) - 1)
    out = []
    blockers = [ln.bbox for ln in pr.blockers]
    prose = [ln.bbox for ln in pd.lines if not ln.role and ln.horizontal and _prose(ln, layout)]
    for cl in clusters:
        ub = union([x.bbox for x in cl])
        w, h = ub[2] - ub[0], ub[3] - ub[1]
        if w < 72 or h < 40:
            continue
        images = [x for x in cl if x.kind == "image"]
        img_area = sum((x.bbox[2] - x.bbox[0]) * (x.bbox[3] - x.bbox[1]) for x in images)
        shapes = sum(pr.shapes[x.ref] for x in cl if x.kind == "drawing")
        if img_area < 3000 and shapes < 3:
            continue  # rules of a table or an algorithm, a frame, a logo
        if not images and any(inside(b, ub, 0) for b in blockers + prose):
            continue  # a shaded box or frame around body text (a note, a theorem, a listing)
        if not images and _set_text(ub, pd.lines):
            continue  # a shaded box or frame around lines of set text in any face (a code listing)
        if not images and _text_boxes(ub, pd):
            continue  # framed notes of a line or a few (inline to-do notes stacked under a paragraph)
        if w * h > 0.6 * pd.width * pd.height and len(pd.lines) < 5:
            continue  # a scanned page: the image is the page, not a figure on it
        out.append(_grow(ub, [e for e in pr.elems if e.owner is None and e.kind == "text"]))
    return out


def _add_to_row(rows: list[list[float]], b: BBox, size: float) -> None:
    """Put a line's box `b` into the row ([y0, y1, x0, size]) whose middle is within half a
    size of its own, widening that row, or open a row for it."""
    for r in rows:
        if abs((r[0] + r[1]) - (b[1] + b[3])) < 0.5 * size:
            r[0], r[1], r[2] = min(r[0], b[1]), max(r[1], b[3]), min(r[2], b[0])
            return
    rows.append([b[1], b[3], b[0], size])


def _set_text(box: BBox, lines: list[Line]) -> bool:
    """The box holds lines of set text: at least three rows on one line grid (the nearest two
    0.8 to 1.6 times their size apart, every other pair a whole number of such steps, at most
    four), two thirds of them starting at three left edges or fewer (indentation levels), a
    quarter at one, running from near the box's top to near its bottom. A code listing on a
    shaded ground, a framed algorithm or a boxed note in a small or typewriter face (which
    _prose leaves out) is such a box; a drawn diagram's labels, a plot's tick labels (many
    sizes apart) and a legend's few rows are not."""
    rows: list[list[float]] = []  # [y0, y1, x0, size] per baseline
    for ln in lines:
        b = ln.bbox
        if not ln.horizontal or not inside(b, box, 0) or not any(ch.isalnum() for ch in ln.text):
            continue  # (a frame's corners set as glyphs are no row)
        if b[3] - b[1] > 1.6 * ln.size:
            # one glyph of another font with a box far taller than the row (a listing's
            # line-break arrow): the row is where the line's letters stand, at its bottom
            b = (b[0], b[3] - 1.2 * ln.size, b[2], b[3])
        _add_to_row(rows, b, ln.size)
    if len(rows) < 3:
        return False
    rows.sort()
    size = sorted(r[3] for r in rows)[len(rows) // 2]
    pitches = [(b[0] + b[1] - a[0] - a[1]) / 2 for a, b in zip(rows, rows[1:])]
    step = min(pitches)
    if not 0.8 * size <= step <= 1.6 * size:
        return False
    for p in pitches:  # rows on one grid: blank lines in a listing make a pitch two or three steps
        k = round(p / step)
        if k > 4 or abs(p / step - k) > 0.25:
            return False
    edges: list[list[float]] = []  # [x, rows] per left edge: indentation levels in set text
    for x in sorted(r[2] for r in rows):
        if edges and x <= edges[-1][0] + 1.5:
            edges[-1][1] += 1
        else:
            edges.append([x, 1])
    counts = sorted((n for _x, n in edges), reverse=True)
    if 4 * counts[0] < len(rows) or 3 * sum(counts[:3]) < 2 * len(rows):
        return False  # labels placed one by one: right-aligned or centred (a chart's categories)
    h = box[3] - box[1]
    return rows[-1][1] - rows[0][0] >= 0.6 * h


def _holds(outer: BBox, b: BBox, tol: float = 1.0) -> bool:
    """The box `b` lies within `outer` grown by `tol`."""
    return outer[0] - tol <= b[0] and b[2] <= outer[2] + tol and outer[1] - tol <= b[1] and b[3] <= outer[3] + tol


def _text_boxes(box: BBox, pd: PageData) -> bool:
    """Every drawing in the box is a framed or shaded box (its fill, its frame, its frame's
    rules) holding only rows of set text in one size, from its left edge and filling it from top
    to bottom with no gap wider than a line, and the boxes stand one under another: notes (an
    inline to-do note, an \\fcolorbox, a tcolorbox) of any number of lines, one included, which
    give _set_text no line grid. A flow chart's boxes come with arrows (paths that are no box
    nor a box's rule), a plot's frame with marks and ticks, a legend's box with line samples;
    boxes side by side are a diagram."""
    paths = [p.rect for p in pd.drawings if not p.white and _holds(box, p.rect)]
    if not paths:
        return False
    thin = [r for r in paths if min(r[2] - r[0], r[3] - r[1]) <= 3.5]
    boxes: list[BBox] = []  # the outer box of each note, a frame's fill and its ground one box
    for r in sorted((r for r in paths if min(r[2] - r[0], r[3] - r[1]) > 3.5),
                    key=lambda r: -(r[2] - r[0]) * (r[3] - r[1])):
        outer = next((b for b in boxes if _holds(b, r)), None)
        if outer is None:
            boxes.append(r)
        elif r[0] > outer[0] + 4 or r[2] < outer[2] - 4:
            return False  # a box inside a box, not across it (a diagram's part, not a note's ground)
    for r in thin:  # a frame's rules lie along one of the boxes' sides
        if not any((abs(r[3] - r[1]) <= 3.5 and (abs(r[1] - b[1]) < 2 or abs(r[3] - b[3]) < 2) and b[0] - 1 <= r[0] and r[2] <= b[2] + 1)
                   or (abs(r[2] - r[0]) <= 3.5 and (abs(r[0] - b[0]) < 2 or abs(r[2] - b[2]) < 2) and b[1] - 1 <= r[1] and r[3] <= b[3] + 1)
                   for b in boxes):
            return False
    if not boxes:
        return False
    ordered = sorted(boxes, key=lambda b: b[1])
    if any(b[1] < a[3] - 2 for a, b in zip(ordered, ordered[1:])):
        return False  # boxes side by side
    for b in ordered:
        rows: list[list[float]] = []  # [y0, y1, x0, size] per baseline
        for ln in pd.lines:
            if not inside(ln.bbox, b, 0):
                continue
            if not ln.horizontal:
                return False
            if not any(ch.isalnum() for ch in ln.text):
                continue
            _add_to_row(rows, ln.bbox, ln.size)
        if not rows:
            return False  # a box without text: a drawing's part
        rows.sort()
        sizes = sorted(r[3] for r in rows)
        size = sizes[len(sizes) // 2]
        if sizes[0] < 0.8 * size or sizes[-1] > 1.25 * size:
            return False
        if rows[0][0] - b[1] > 1.5 * size or b[3] - rows[-1][1] > 1.5 * size:
            return False  # room above or below the text: the box holds more than the text
        if min(r[2] for r in rows) - b[0] > 2 * size:
            return False  # text set apart from the box's left edge (centred labels)
        if any(q[0] - p[1] > size for p, q in zip(rows, rows[1:])):
            return False  # a gap wider than a line between rows
    return True


def _grow(box: BBox, texts: list[Elem], reach: float = 14.0) -> BBox:
    """Add the labels around a graphic (axis titles, tick labels) that sit just outside it."""
    for _ in range(3):
        near = [e.bbox for e in texts if _near_any(e.bbox, [box], reach) and not inside(e.bbox, box, 0)]
        if not near:
            break
        box = union([box] + near)
    return box
