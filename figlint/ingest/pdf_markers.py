"""A scatter plot's markers read once per run, not once per point.

matplotlib paints every marker of a scatter as `1 0 0 1 dx dy cm /P0 Do`, each translation
moving on from the last, with `r g b rg` and `r g b RG` between two paints where the point's
colour changes. For the path pass pdf_forms already writes each paths-only marker form in place
(`q <its path> Q`); MuPDF then still builds a fill dict and a stroke dict of every marker's
curves: on a page of 29,000 markers that is most of a second, more than reading the page's text.
Yet all those markers are one path moved: the same segments, the same style but for the colour
the stream sets.

So, for the path pass of a page read by pdf_layout (`FormInflater.path_pass(collapse=True)`), a
run of at least MIN_RUN paints (cut into runs of at most MAX_RUN) of one such form, with nothing between two paints but those
translations and RGB colours, keeps its first KEEP paints and, after them, a SENTINEL: a clip
(clips take no paint number, `seqno`, and paint nothing) of four lines from the origin of the
transform in force, to (u, 0), to (0, u), back, and out to (R u, 0), R telling which run it ends.
The paints after it are taken out; their `cm` and colour operators stay, so what follows the run
is painted exactly as before. `read_paths` meets the sentinel and hands the run to `Run.moved`:
the linear part of the transform is read off the sentinel's points; each kept paint must be the
first one moved by its translation, with the colours the stream gives it and paint numbers one
step apart, or nothing is written and the page is read again without runs (`Collapsed`); then
every paint taken out is written as the last kept one moved (its box, vertex runs and, for the
hidden-text check, an opaque fill's segments as a shift of that one's), numbered on from it.

MuPDF works in single precision: its transform after many translations drifts from the exact
sums used here, which is why a run is at most MAX_RUN paints from MuPDF's own reading of its
first ones, and a written box is rounded to single precision as MuPDF's are. What remains is a
few ten-thousandths of a point (test_pdf_markers measures it on a compiled scatter), far below
anything a rule reads; only a marker whose box a clip cuts to nothing or to a line exactly
could be kept by one reading and not the other.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass

# A run shorter than this is read as it is (its paints cost less than the checks).
MIN_RUN = 16
# A longer run is cut into runs of this many paints, each anchored at paints MuPDF reads: MuPDF's
# single-precision transform drifts from exact sums as translations add up (by about a
# thousandth of a point over 300 paints), so a run written from one anchor is kept short.
MAX_RUN = 64
# Paints of a run MuPDF reads before the sentinel: the first one is what the others are moved
# from; the next ones check that moving it gives what MuPDF gives (colours, boxes, numbers).
KEEP = 3

_NUM = rb"[+-]?(?:\d+\.?\d*|\.\d+)"
# What may stand between two paints of a run: translations and RGB colours, nothing else.
_BETWEEN = re.compile(rb"(?:\s*(?:" + _NUM + rb"\s+" + _NUM + rb"\s+" + _NUM + rb"\s+(?:rg|RG)|1\s+0\s+0\s+1\s+"
                      + _NUM + rb"\s+" + _NUM + rb"\s+cm))*\s*")
_STEP = re.compile(rb"(" + _NUM + rb")\s+(" + _NUM + rb")\s+(" + _NUM + rb")\s+(rg|RG|cm)")
# Operators of a marker's own content that disqualify it: colours (the run's colours would not
# be the ones it prints), clips (entries of their own) and more than one painting operator.
_OWN_COLOUR = re.compile(rb"(?<![A-Za-z])(?:g|G|rg|RG|k|K|sc|SC|scn|SCN|cs|CS|W\*?)(?![A-Za-z*])")
_PAINTS = re.compile(rb"(?<![A-Za-z])(?:f\*?|F|S|s|B\*?|b\*?)(?![A-Za-z*])")
# The sentinel's R: which run, as 2 + id / 16 (exact in binary, read back to well within 1/32).
_ID_STEP = 16
# The sentinel's unit, in the user space it is painted in: its points are MuPDF's single
# precision numbers, so the transform's linear part is read off points this far apart (read off
# (1, 0), its error times a translation of 100 points would be thousandths of a point).
_UNIT = 4096
# Key and value tolerances of the check (points; colour components).
_TOL = 1e-3
_SAME_KEYS = ("type", "width", "dashes", "lineCap", "lineJoin", "closePath", "even_odd",
              "fill_opacity", "stroke_opacity", "level", "layer")


class Collapsed(Exception):
    """A run's kept paints are not what moving its first paint gives: read the page again
    without runs."""


def markable(content: bytes) -> bool:
    """Whether a marker form's content (as written in place) can be moved as one path: one
    painting operator, no colour or clip of its own."""
    return len(_PAINTS.findall(content)) == 1 and not _OWN_COLOUR.search(content)


def sentinel(run_id: int) -> bytes:
    r = (2 + run_id / _ID_STEP) * _UNIT
    return b"q 0 0 m %d 0 l 0 %d l 0 0 l %r 0 l W n Q" % (_UNIT, _UNIT, r)


def _f32(values) -> list[float]:
    """Numbers as MuPDF holds them: single precision."""
    return array("f", values).tolist()


def _reader():
    """A number of a content stream as MuPDF reads it (fz_atof: single precision, and not
    always the nearest single to the decimal, so Python's own reading would differ now and
    then in the last bit of a colour), each distinct one read once."""
    from figlint.ingest import mupdf as _mupdf

    atof = _mupdf.pymupdf.mupdf.fz_atof
    seen: dict[bytes, float] = {}

    def read(text: bytes) -> float:
        got = seen.get(text)
        if got is None:
            got = seen[text] = atof(text.decode("ascii"))
        return got
    return read


@dataclass
class Run:
    """One run of paints: per paint, its translation from the first paint (in the user space of
    the painting form) and the fill and stroke colours the stream set before it since the run
    began (None: the colour the first paint has)."""

    offsets: list[tuple[float, float]]
    fills: list[tuple | None]
    strokes: list[tuple | None]

    def moved(self, recent: list[dict], clip: dict):
        """Yield (dict, dx, dy) for each paint after the KEEP kept ones, in paint order: the last
        kept paint's dict with this paint's colours, box and paint number, and its shift from
        that one in page coordinates. `recent`: the kept paints' dicts as read, `clip`: the
        sentinel. Raises Collapsed where the kept paints do not check."""
        pts = _points(clip)
        if pts is None or len(recent) != KEEP:
            raise Collapsed
        (x0, y0), (x1, y1), (x2, y2) = pts
        ax, ay, bx, by = (x1 - x0) / _UNIT, (y1 - y0) / _UNIT, (x2 - x0) / _UNIT, (y2 - y0) / _UNIT
        first = recent[0]
        step = None
        for k in range(1, KEEP):
            ox, oy = self.offsets[k]
            want = _colour(first, self.fills[k], self.strokes[k])
            got = recent[k]
            if not _same(got, first, ox * ax + oy * bx, ox * ay + oy * by, want):
                raise Collapsed
            gap = got.get("seqno", 0) - recent[k - 1].get("seqno", 0)
            if step is None:
                step = gap
            if gap != step or step < 1:
                raise Collapsed
        last = recent[-1]
        lx, ly = self.offsets[KEEP - 1]
        seqno = last.get("seqno", 0)
        r0, r1, r2, r3 = last["rect"]
        for i in range(KEEP, len(self.offsets)):
            ox, oy = self.offsets[i]
            ox -= lx
            oy -= ly
            dx, dy = ox * ax + oy * bx, ox * ay + oy * by
            seqno += step
            q = dict(last)
            fill, stroke = self.fills[i], self.strokes[i]
            if fill is not None and "fill" in q:
                q["fill"] = fill
            if stroke is not None and "color" in q:
                q["color"] = stroke
            q["rect"] = tuple(_f32((r0 + dx, r1 + dy, r2 + dx, r3 + dy)))  # on MuPDF's grid
            q["seqno"] = seqno
            q["_shift"] = (dx, dy)  # its segments are the last kept paint's, moved by this
            yield q, dx, dy


def _colour(first: dict, fill, stroke) -> tuple:
    return (fill if fill is not None else first.get("fill"), stroke if stroke is not None else first.get("color"))


def _same(got: dict, first: dict, dx: float, dy: float, colours: tuple) -> bool:
    """Whether `got` is `first` moved by (dx, dy) with fill and stroke `colours`."""
    for key in _SAME_KEYS:
        if got.get(key) != first.get(key):
            return False
    fill, stroke = colours
    if not _close(got.get("fill"), fill, 1e-6) or not _close(got.get("color"), stroke, 1e-6):
        return False
    g, f = got.get("rect"), first.get("rect")
    if g is None or f is None or not _close(g, (f[0] + dx, f[1] + dy, f[2] + dx, f[3] + dy), _TOL):
        return False
    gi, fi = got.get("items") or (), first.get("items") or ()
    if len(gi) != len(fi):
        return False
    for a, b in zip(gi, fi):
        kind = a[0]
        if kind != b[0] or len(a) != len(b):
            return False
        if kind == "re":  # a box (x0, y0, x1, y1) and its orientation
            if a[2:] != b[2:] or not _close(a[1], (b[1][0] + dx, b[1][1] + dy, b[1][2] + dx, b[1][3] + dy), _TOL):
                return False
            continue
        points = zip(a[1], b[1]) if kind == "qu" else zip(a[1:], b[1:]) if kind in ("l", "c") else None
        if points is None:
            return False
        for p, q in points:
            if abs(p[0] - q[0] - dx) > _TOL or abs(p[1] - q[1] - dy) > _TOL:
                return False
    return True


def _close(a, b, tol: float) -> bool:
    if a is None or b is None:
        return a is b
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b))


def _points(clip: dict):
    """The sentinel's origin and the images of (_UNIT, 0) and (0, _UNIT), or None if `clip` is
    not one."""
    items = clip.get("items") or ()
    if len(items) != 4 or any(it[0] != "l" for it in items):
        return None
    p0, p1 = items[0][1], items[0][2]
    if items[1][1] != p1 or items[2][2] != p0 or items[3][1] != p0:
        return None
    return p0, p1, items[1][2]


def run_id(clip: dict) -> int | None:
    """Which run a clip ends if it is a sentinel (module docstring), else None."""
    pts = _points(clip)
    if pts is None:
        return None
    (x0, y0), (x1, y1) = pts[0], pts[1]
    ax, ay = x1 - x0, y1 - y0
    norm = ax * ax + ay * ay
    if norm < 1e-12:
        return None
    px, py = clip["items"][3][2]
    r = ((px - x0) * ax + (py - y0) * ay) / norm
    got = round((r - 2) * _ID_STEP)
    if got < 0 or abs(r - 2 - got / _ID_STEP) > 1 / (4 * _ID_STEP):
        return None
    return got


def collapse(parts: list[bytes], names: list[bytes], inline: dict[bytes, bytes | None],
             first_id: int) -> tuple[list[bytes], dict[int, Run]]:
    """The painting form's content as the path pass writes it (`parts`: text, paint, text,
    paint, ..., text, each paint of a paths-only form written in place), with its long runs
    collapsed (module docstring): (the parts to join, the runs by id from `first_id` on).
    `names`: the name each paint paints; `inline`: name -> the content written in place, or
    None where the paint is left as it is."""
    out = list(parts)
    runs: dict[int, Run] = {}
    read = None
    n = len(names)
    movable = {name: bool(c) and markable(c) for name, c in inline.items()}
    k = 0
    while k < n:
        name = names[k]
        end = k + 1
        if movable.get(name):
            while end < n and names[end] == name and _BETWEEN.fullmatch(parts[2 * end]):
                end += 1
        while end - k >= MIN_RUN:
            stop = min(end, k + MAX_RUN)
            rid = first_id + len(runs)
            read = read or _reader()
            runs[rid] = _run(parts, k, stop, read)
            out[2 * (k + KEEP - 1) + 1] += b" " + sentinel(rid)
            for j in range(k + KEEP, stop):
                out[2 * j + 1] = b""
            k = stop
        k = end
    return out, runs


def _run(parts: list[bytes], start: int, end: int, read) -> Run:
    """The translations and colours of paints start..end-1 (module docstring), their numbers as
    MuPDF reads them (`read`)."""
    ox = oy = 0.0
    fill = stroke = None
    offsets, fills, strokes = [(0.0, 0.0)], [None], [None]
    for j in range(start + 1, end):
        for a, b, c, op in _STEP.findall(parts[2 * j]):
            if op == b"cm":
                ox += read(b)
                oy += read(c)
            elif op == b"rg":
                fill = (read(a), read(b), read(c))
            else:
                stroke = (read(a), read(b), read(c))
        offsets.append((ox, oy))
        fills.append(fill)
        strokes.append(stroke)
    return Run(offsets, fills, strokes)
