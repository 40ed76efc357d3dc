"""Text that a later opaque fill paints over: in the file, but not on the printed page.

Slide-style figures stack cards (one answer card over another, a "Yes" card over
a "Strong yes" card): the text of the lower card is still in the PDF, under the
upper card's fill. Read as text it overlaps the visible text and looks like a
label collision (FL109), though no reader ever sees it.

MuPDF numbers every paint operation of a page (`seqno`, shared by
`get_texttrace` and `get_drawings`), so a span is hidden when an opaque filled
path painted after it contains it. `get_texttrace` costs about 20 ms a page, so
it is asked only where hiding can matter: two text spans that overlap each
other inside one opaque filled shape, or text where two opaque grounds overlap
without one holding the other (panels tiled from separate files, each painting
its white ground over the panel before it). Everywhere else the page is read as
before.
"""

from __future__ import annotations

import math

BBox = tuple[float, float, float, float]

_MIN_OVERLAP = 0.3  # share of the smaller span's box two spans must share to be a suspect pair
_INSET = 0.15  # the span's box is shrunk by this share before the "inside the fill" test


def drop_hidden_text(page, d: dict, drawings: list[dict], matrix=None) -> None:
    """Remove from a text dict (`get_text("dict")`) the spans a later opaque fill paints over;
    `drawings` are the page's paths as get_drawings lists them (with their seqno). `matrix`:
    the dict and paths are in a turned frame (pdf_turn)."""
    if not any(_opaque_fill(d) for d in drawings):
        return  # nothing paints over text (hidden_span_boxes would find no fills)
    spans, turns = [], []
    for b in d["blocks"]:
        if b.get("type", 0) == 0:
            for l in b.get("lines", ()):
                for s in l["spans"]:
                    if s["text"].strip():
                        spans.append(s)
                        turns.append((l.get("dir"), s.get("size"), s.get("origin")))
    hidden = hidden_span_boxes(page, [(s["text"], tuple(s["bbox"])) for s in spans], drawings, matrix, turns)
    if not hidden:
        return
    gone = {id(spans[i]) for i in hidden}
    for b in d["blocks"]:
        for l in b.get("lines", ()):
            l["spans"] = [s for s in l["spans"] if id(s) not in gone]


def hidden_span_boxes(page, spans: list[tuple[str, BBox]], drawings: list[dict], matrix=None,
                      turns: list | None = None) -> set[int]:
    """Indices of `spans` ((text, bbox) in page order) that a later opaque fill covers.
    `turns`: each span's line direction, type size and origin (_suspects)."""
    fills = [d for d in drawings if _opaque_fill(d) and d.get("rect") is not None]
    if not fills or len(spans) < 2:
        return set()
    suspects = _suspects(spans, fills, turns) | _in_overlap(spans, fills)
    if not suspects:
        return set()
    by_text: dict[str, list[tuple[BBox, int]]] = {}
    traced: list[tuple[int, list[tuple[str, float, float]]]] = []  # each paint's characters and centres
    if matrix is not None:  # the spans and fills are in a turned frame (pdf_turn)
        from figlint.ingest.pdf_turn import box as turned
    for t in page.get_texttrace():
        if t.get("type", 0) != 3 and t.get("opacity", 1.0) > 0:
            b = tuple(t["bbox"])
            if matrix is not None:
                b = turned(b, matrix)
            by_text.setdefault(_text(t).strip(), []).append((b, t["seqno"]))
            chars = []
            for c in t.get("chars", ()):
                if chr(c[0]).isspace():
                    continue
                cb = tuple(c[3])
                if matrix is not None:
                    cb = turned(cb, matrix)
                chars.append((chr(c[0]), (cb[0] + cb[2]) / 2, (cb[1] + cb[3]) / 2))
            traced.append((t["seqno"], chars))
    hidden = set()
    for i in suspects:
        text, box = spans[i]
        same = [(b, seq) for b, seq in by_text.get(text.strip(), ()) if _iou(b, box) >= 0.7]
        if same:
            if all(_covered(b, seq, fills) for b, seq in same):
                hidden.add(i)
            continue
        # MuPDF's trace groups characters by paint, not as the text dict's spans: a span may be
        # part of one paint ("1.0" of "1.0log(2") or several, each box drawn to another height
        seqs = _paints_of(text, box, traced)
        if seqs and all(_covered(box, seq, fills) for seq in seqs):
            hidden.add(i)
    return hidden


def _paints_of(text: str, box: BBox, traced) -> set[int] | None:
    """The paints (seqno) that set exactly this span's characters: those of its letters whose
    centres lie in its box, in paint order, spelling its text (a tall delimiter's box reaches
    over a tick label above it: other letters are not its own). None when they spell anything
    else (another span with the same letters overlaps it: which is on top is then not this
    test's to tell)."""
    want = "".join(text.split())
    letters = set(want)
    got: list[str] = []
    seqs: set[int] = set()
    x0, y0, x1, y1 = box
    for seq, chars in traced:
        for ch, cx, cy in chars:
            if ch in letters and x0 <= cx <= x1 and y0 <= cy <= y1:
                got.append(ch)
                seqs.add(seq)
                if len(got) > len(want):
                    return None
    return seqs if got and "".join(got) == want else None


def _opaque_fill(d: dict) -> bool:
    return ("f" in (d.get("type") or "") and d.get("fill") is not None
            and (d.get("fill_opacity") if d.get("fill_opacity") is not None else 1.0) >= 0.99)


def _suspects(spans: list[tuple[str, BBox]], fills: list[dict], turns: list | None = None) -> set[int]:
    """Spans that overlap another span, both inside the box of one opaque fill.

    Pairs first, by a sweep down the page (spans rarely overlap), then the fills of those
    few: testing every span against every fill (300 x 600 on a chart's page) cost more
    than the rest of the check, and numpy's import more still. `turns` (each span's line
    direction, type size and baseline origin): two spans along one direction whose baselines
    stand apart by more than their letters' height do not overlap (_lines_apart)."""
    S = [b for _t, b in spans]
    F = [d["rect"] for d in fills]
    if not all(math.isfinite(v) for b in S for v in b) or not all(math.isfinite(v) for r in F for v in r):
        return _suspects_plain(S, F)
    order = sorted(range(len(S)), key=lambda i: S[i][1])
    pairs = []
    n = len(order)
    for k, i in enumerate(order):
        a = S[i]
        area_a = (a[2] - a[0]) * (a[3] - a[1])
        # an index walk, not a copy of the rest of the order per span (quadratic on a page of
        # thousands of spans, though the walk stops within a line or two)
        for jj in range(k + 1, n):
            j = order[jj]
            b = S[j]
            if b[1] >= a[3]:
                break  # this one and all below it start under a's bottom: no overlap
            if b[0] >= a[2] or b[2] <= a[0]:
                continue  # side by side on one line
            if _share(a, b, area_a) >= _MIN_OVERLAP and (turns is None or not _lines_apart(turns[i], turns[j])):
                pairs.append((i, j))
    if not pairs:
        return set()
    holders: dict[int, set[int]] = {}  # span -> the fills whose box holds its centre

    def held(i: int) -> set[int]:
        got = holders.get(i)
        if got is None:
            b = S[i]
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            got = holders[i] = {k for k, r in enumerate(F) if r[0] <= cx <= r[2] and r[1] <= cy <= r[3]}
        return got

    out: set[int] = set()
    for i, j in pairs:
        if held(i) & held(j):
            out.update((i, j))
    return out


def _in_overlap(spans: list[tuple[str, BBox]], fills: list[dict]) -> set[int]:
    """Spans whose centre lies where two opaque fills overlap, neither inside the other.

    Panels tiled from separate files overlap: each file paints a white ground over its box,
    and the later ground covers what the panel before it set near its edge (a tiny colour
    bar's labels, a trimmed-off title). Such text overlaps no other text, so the pairs of
    _suspects never find it. Grounds nested in one another (a chart's axes on its figure, a
    legend's box on the axes) are how text is set on a background, and are not asked about."""
    F = [d["rect"] for d in fills]
    if len(F) < 2:
        return set()
    eps = 0.5
    crossing = []  # pairs of fills that overlap, neither holding the other
    order = sorted(range(len(F)), key=lambda k: F[k][0])
    for n, a in enumerate(order):
        ra = F[a]
        for b in order[n + 1:]:
            rb = F[b]
            if rb[0] >= ra[2]:
                break
            if rb[1] >= ra[3] or rb[3] <= ra[1]:
                continue
            a_in_b = ra[0] >= rb[0] - eps and ra[1] >= rb[1] - eps and ra[2] <= rb[2] + eps and ra[3] <= rb[3] + eps
            b_in_a = rb[0] >= ra[0] - eps and rb[1] >= ra[1] - eps and rb[2] <= ra[2] + eps and rb[3] <= ra[3] + eps
            if not (a_in_b or b_in_a):
                crossing.append((max(ra[0], rb[0]), max(ra[1], rb[1]), min(ra[2], rb[2]), min(ra[3], rb[3])))
            if len(crossing) > 200:
                break
    if not crossing:
        return set()
    out = set()
    for i, (_t, b) in enumerate(spans):
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        if any(r[0] <= cx <= r[2] and r[1] <= cy <= r[3] for r in crossing):
            out.add(i)
    return out


def _share(a: BBox, b: BBox, area_a: float) -> float:
    """The overlap of two boxes as a share of the smaller one (0 when either has no area)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    small = min(area_a, (b[2] - b[0]) * (b[3] - b[1]))
    if w <= 0 or h <= 0 or small <= 0:
        return 0.0
    return w * h / small


def _lines_apart(ta, tb) -> bool:
    """Whether two spans set along one direction stand on baselines further apart, across that
    direction, than their letters could overlap by _MIN_OVERLAP: letters (cap height and
    descenders) take about one type size across the line, so bands of the larger size set more
    than 0.7 of it apart share less than 0.3 of it. Their boxes, which MuPDF draws to the
    font's full height, can share more (the rows of a two-line label, slanted tick labels side
    by side): such pairs are no suspects."""
    (da, sa, oa), (db, sb, ob) = ta, tb
    if not da or da != db or not sa or not sb or not oa or not ob:
        return False
    ux, uy = da
    across = (ob[1] - oa[1]) * ux - (ob[0] - oa[0]) * uy
    return abs(across) > (1.0 - _MIN_OVERLAP) * max(sa, sb)


def _suspects_plain(S: list[BBox], F: list) -> set[int]:
    """_suspects for boxes with a coordinate that is not finite: every pair, every fill."""
    def holds(r, b) -> bool:
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        return r[0] <= cx <= r[2] and r[1] <= cy <= r[3]

    held = [{k for k, r in enumerate(F) if holds(r, b)} for b in S]
    out: set[int] = set()
    for i, a in enumerate(S):
        area_a = (a[2] - a[0]) * (a[3] - a[1])
        for j, b in enumerate(S):
            if j != i and held[i] & held[j] and _share(a, b, area_a) >= _MIN_OVERLAP:
                out.add(i)
    return out


def _covered(box: BBox, seqno: int, fills: list[dict]) -> bool:
    """A fill painted after `seqno` whose shape contains the (slightly shrunk) box."""
    x0, y0, x1, y1 = box
    dx, dy = (x1 - x0) * _INSET, (y1 - y0) * _INSET
    corners = [(x0 + dx, y0 + dy), (x1 - dx, y0 + dy), (x1 - dx, y1 - dy), (x0 + dx, y1 - dy)]
    for d in fills:
        if d.get("seqno", -1) <= seqno:
            continue
        r = d["rect"]  # cut to the clip in force
        if not all(r[0] <= x <= r[2] and r[1] <= y <= r[3] for x, y in corners):
            continue
        # a marker written from another (pdf_markers) has that one's segments: the corners
        # are moved back onto them
        sx, sy = d.get("_shift") or (0.0, 0.0)
        moved = [(x - sx, y - sy) for x, y in corners]
        if any(all(_in_polygon(p, poly) for p in moved) for poly in _polygons(d.get("items") or ())):
            return True
    return False


def _polygons(items) -> list[list[tuple[float, float]]]:
    """The path's subpaths as polygons; curves by points on them (chords lie inside a convex
    curve, so the test errs toward "not covered")."""
    polys: list[list[tuple[float, float]]] = []
    cur: list[tuple[float, float]] = []
    for it in items:
        op = it[0]
        if op == "re":
            r = it[1]
            polys.append([(r[0], r[1]), (r[2], r[1]), (r[2], r[3]), (r[0], r[3])])
            continue
        if op == "qu":
            q = it[1]
            polys.append([tuple(q[0]), tuple(q[1]), tuple(q[3]), tuple(q[2])])
            continue
        if op not in ("l", "c"):
            continue
        pts = [tuple(p) for p in it[1:]]
        if cur and _far(cur[-1], pts[0]):
            polys.append(cur)
            cur = []
        if op == "l":
            cur += pts if not cur else pts[1:]
        elif op == "c":
            p0, c1, c2, p3 = pts
            curve = [_bezier(p0, c1, c2, p3, t) for t in (0.25, 0.5, 0.75, 1.0)]
            cur += ([p0] if not cur else []) + curve
    if cur:
        polys.append(cur)
    return [p for p in polys if len(p) >= 3]


def _bezier(p0, c1, c2, p3, t: float) -> tuple[float, float]:
    u = 1 - t
    return (u**3 * p0[0] + 3 * u * u * t * c1[0] + 3 * u * t * t * c2[0] + t**3 * p3[0],
            u**3 * p0[1] + 3 * u * u * t * c1[1] + 3 * u * t * t * c2[1] + t**3 * p3[1])


def _far(a, b) -> bool:
    return abs(a[0] - b[0]) > 0.01 or abs(a[1] - b[1]) > 0.01


def _in_polygon(p, poly) -> bool:
    x, y = p
    inside = False
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _iou(a: BBox, b: BBox) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _text(t: dict) -> str:
    return "".join(chr(c[0]) for c in t.get("chars", ()))
