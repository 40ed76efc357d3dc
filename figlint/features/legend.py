"""Legend entries: a swatch (short line sample, small patch or marker) beside a text label.

`@derived("legend")` gives a list of LegendEntry(text, colour, style, bbox) for a
FigureAnalysis. Vector figures are read from their paths (an.drawings): a short
horizontal stroked segment, a small filled patch or a small marker, with a text
token starting just right of it on the same line. Raster figures are read from
the pixels just left of each OCR token (the foreground mask, which excludes
text): a coloured run of pixels there is a swatch. Entries must look like a
legend — two or more swatches aligned in a column or a row — unless the single
swatch is a line sample or a patch beside words. The colour-vision rule and the
caption rules (FL204) consume exactly these attributes.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

import re
from dataclasses import dataclass

from figlint.features import derived
from figlint.features.vector import Boxes, TextIndex, is_light

BBox = tuple[float, float, float, float]
_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f\u0370-\u03ff]")


@dataclass
class LegendEntry:
    text: str
    colour: tuple[float, float, float] | None  # RGB 0..1
    style: str | None  # solid | dashed | dotted | marker | patch
    bbox: BBox  # swatch and text together
    swatch: BBox | None = None
    text_x: float = 0.0  # where the label starts (labels of one legend share it)

    def to_dict(self) -> dict:
        return {
            "text": self.text,
            "colour": None if self.colour is None else [round(c, 3) for c in self.colour],
            "style": self.style,
            "bbox": [round(v, 1) for v in self.bbox],
        }


@derived("legend")
def legend(an) -> list[LegendEntry]:
    if an.source == "vector":
        return _vector_legend(an)
    if an.source == "raster":
        return _raster_legend(an)
    return []


# --- shared ------------------------------------------------------------------------------

def _is_label(text: str) -> bool:
    """Legend text has letters (tick labels beside tick marks do not)."""
    return bool(_LETTER.search(text))


def _by_height(an) -> tuple[list[float], list[int]]:
    """The figure's tokens ordered by the height of their centre line (cy, index), made once
    per analysis: a swatch's label is looked for among the tokens of its own line only (a
    scatter of 30,000 markers was 30,000 scans of every token)."""
    got = an.derived.get("_tokens_by_cy")
    if got is None or len(got[1]) != len(an.tokens):
        order = sorted(range(len(an.tokens)), key=lambda i: an.tokens[i].cy)
        got = ([an.tokens[i].cy for i in order], order)
        an.derived["_tokens_by_cy"] = got
    return got


def label_windows(an, near: float, far: float, dy: float):
    """A test of whether a point (the right edge of a shape, the height of its centre) lies
    where a label could follow it: a token that is not rotated starts between `near` and
    `far` right of x (near may be negative), its centre line within `dy` of y. The tokens'
    windows are put on a grid once (vector.Boxes); the test is a look-up, so the thousands
    of markers of a scatter, which have no word beside them, are passed over cheaply. The
    windows are a hair larger than the callers' own test of the label, which decides."""
    pad = 1e-3 * max(far - near, 2 * dy, 1.0)
    windows = [(t.bbox[0] - far - pad, t.cy - dy - pad, t.bbox[0] - near + pad, t.cy + dy + pad)
               for t in an.tokens if not t.rotated]
    return Boxes(windows, max(far - near, 2 * dy, 1.0)).hold


def _label_for(an, sw: BBox, u: float, used: set[int], is_label=_is_label):
    """The text token starting just right of a swatch, on its line, and the rest of that line
    (`is_label`: what the first token's text must be)."""
    cy = (sw[1] + sw[3]) / 2
    cys, order = _by_height(an)
    lo = bisect_left(cys, cy - 0.45 * u - 1e-6)
    hi = bisect_right(cys, cy + 0.45 * u + 1e-6)
    best = None
    # the nearest token right of the swatch; of equal gaps the first in the figure's order
    for i in order[lo:hi]:
        t = an.tokens[i]
        if i in used or t.rotated:
            continue
        gap = t.bbox[0] - sw[2]
        if -0.15 * u <= gap <= 1.3 * u and abs(t.cy - cy) <= 0.45 * u:
            if best is None or (gap, i) < (best[1], best[0]):
                best = (i, gap)
    if best is None:
        return None
    i = best[0]
    first = an.tokens[i]
    if not is_label(first.text):
        return None
    parts, idx, right = [first], [i], first.bbox[2]
    # words of the same entry printed as separate tokens: same line, small gaps
    rest = sorted((j for j, t in enumerate(an.tokens) if j != i and not t.rotated
                   and abs(t.cy - first.cy) <= 0.3 * u and t.bbox[0] >= right - 0.1 * u), key=lambda j: an.tokens[j].bbox[0])
    for j in rest:
        t = an.tokens[j]
        if t.bbox[0] - right > 0.6 * u:
            break
        parts.append(t)
        idx.append(j)
        right = t.bbox[2]
    text = " ".join(p.text.strip() for p in parts)
    box = (min(sw[0], first.bbox[0]), min(sw[1], *(p.bbox[1] for p in parts)),
           right, max(sw[3], *(p.bbox[3] for p in parts)))
    return text, box, idx, first.bbox[0]


def _aligned(entries: list[LegendEntry], u: float, lone: bool = True) -> list[LegendEntry]:
    """Keep entries that line up with another (a column or a row); a lone line/patch entry may stay."""
    if len(entries) <= 1:
        if not lone:
            return []
        return [e for e in entries if e.style in ("solid", "dashed", "dotted", "patch")]
    keep = []
    for e in entries:
        sw = e.swatch or e.bbox
        for o in entries:
            if o is e:
                continue
            osw = o.swatch or o.bbox
            column = abs(e.text_x - o.text_x) <= 0.4 * u and abs((sw[1] + sw[3]) / 2 - (osw[1] + osw[3]) / 2) <= 4 * u
            row = abs((sw[1] + sw[3]) / 2 - (osw[1] + osw[3]) / 2) <= 0.3 * u
            if column or row:
                keep.append(e)
                break
    return keep


# --- vector ------------------------------------------------------------------------------

def numeric_keys(an) -> list[LegendEntry]:
    """A legend whose labels are numbers (a month, a parameter's value, a block size),
    each beside a line sample or a patch at least a letter wide: `legend` leaves them out,
    since a tick label has its tick mark beside it (a right-hand axis' marks stand left of
    its labels, as a sample does, but are shorter than a letter is wide); markers beside
    numbers are a scatter's data labels as often. Computed once per analysis."""
    got = an.derived.get("_numeric_keys")
    if got is None:
        read = _vector_legend if an.source == "vector" else _raster_legend if an.source == "raster" else None
        got = an.derived["_numeric_keys"] = read(an, numeric=True) if read is not None else []
    return got


_NUMBER = re.compile(r"^\s*[-\u2212]?\d+(?:[.,]\d+)?\s*$")


def _is_number(text: str) -> bool:
    return bool(_NUMBER.match(text))


def _vector_legend(an, numeric: bool = False) -> list[LegendEntry]:
    u = an.unit_size
    from figlint.features.vector import pieces

    if not getattr(an, "drawings", None) or not an.tokens:
        return []
    cands: list[tuple[BBox, str, tuple | None, int]] = []  # (box, style, colour, priority)
    line_w = (max(4.0, u if numeric else 0.5 * u), 3.5 * u)
    line_h = max(1.6, 0.12 * u)
    is_label = _is_number if numeric else _is_label
    styles: dict[int, tuple] = {}  # per Drawing: its patch and marker colours (a group's pieces share them)
    beside_label = label_windows(an, -0.15 * u, 1.3 * u, 0.45 * u)
    for (x0, y0, x1, y1), d, items, run in pieces(an):
        if not beside_label(x1, (y0 + y1) / 2):
            continue  # no word starts just right of it: no label (_label_for), so no swatch
        w, h = x1 - x0, y1 - y0
        if d.stroke is not None and h <= line_h and line_w[0] <= w <= line_w[1] and items <= 12:
            mid = (y0 + y1) / 2
            if all(abs(p[1] - mid) <= 1.0 for r in ((run,) if run is not None else d.lines) for p in r):
                cands.append(((x0, y0, x1, y1), d.dash or "solid", tuple(d.stroke[:3]), 0))
                continue
        got = styles.get(id(d))
        if got is None:
            dark_fill = d.fill is not None and not is_light(d.fill)
            colour = d.fill if dark_fill else d.stroke
            mark = None if colour is None or is_light(colour) or (d.fill is None and d.stroke is None) else tuple(colour[:3])
            got = styles[id(d)] = (tuple(d.fill[:3]) if dark_fill else None, mark)
        if got[0] is not None and items <= 5 and 0.3 * u <= w <= 2.5 * u and 0.2 * u <= h <= 1.2 * u:
            cands.append(((x0, y0, x1, y1), "patch", got[0], 1))
            continue
        if not numeric and got[1] is not None and 0.1 * u <= w <= 0.75 * u and 0.1 * u <= h <= 0.75 * u:
            cands.append(((x0, y0, x1, y1), "marker", got[1], 2))
    if not cands:
        return []
    # line samples first (a marker drawn on a sample adds no entry), the longest first: the
    # caps of an error-bar sample are short solid strokes over the dashed sample itself
    cands.sort(key=lambda c: (c[3], -(c[0][2] - c[0][0])))
    entries: list[LegendEntry] = []
    used: set[int] = set()
    swatch_boxes: list[BBox] = []
    under_text = TextIndex([t.bbox for t in an.tokens])
    for box, style, colour, _p in cands:
        # the label first: it is looked up among the tokens of the swatch's line only, and
        # most candidates (a scatter's markers) have none beside them
        got = _label_for(an, box, u, used, is_label)
        if got is None:
            continue
        if any(_overlaps(box, b) for b in swatch_boxes):
            continue
        if under_text.covers(box, 1 / 3):
            continue  # a highlight behind text (a diagram, a table), not a swatch beside its label
        text, ebox, idx, tx = got
        used.update(idx)
        swatch_boxes.append(box)
        entries.append(LegendEntry(text=text, colour=_rgb(colour), style=style, bbox=ebox, swatch=box, text_x=tx))
    if numeric:
        return _aligned(entries, u, lone=False)
    # every swatch-and-label pair before the alignment test, for readers that align them
    # otherwise (legend_cover.py: pgfplots centres its labels, so they share no left edge)
    an.derived["_legend_pairs"] = list(entries)
    return _aligned(entries, u)


def _overlaps(a: BBox, b: BBox) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _rgb(c) -> tuple[float, float, float] | None:
    if c is None or len(c) < 3:
        return None
    return (float(c[0]), float(c[1]), float(c[2]))


# --- raster ------------------------------------------------------------------------------

def _raster_legend(an, numeric: bool = False) -> list[LegendEntry]:
    import numpy as np

    m = an.marks
    if m is None or m.fg is None or m.work is None or not an.tokens:
        return []
    u = an.unit_size
    fg = m.fg
    H, W = fg.shape[:2]
    entries: list[LegendEntry] = []
    used: set[int] = set()
    is_label = _is_number if numeric else _is_label
    order = sorted(range(len(an.tokens)), key=lambda i: (an.tokens[i].cy, an.tokens[i].bbox[0]))
    for i in order:
        t = an.tokens[i]
        if i in used or t.rotated or not is_label(t.text) or t.conf < 0.5:
            continue
        x1 = int(t.bbox[0] - 0.1 * u)
        x0 = max(int(t.bbox[0] - 4.0 * u), 0)
        y0, y1 = max(int(t.cy - 0.45 * u), 0), min(int(t.cy + 0.45 * u) + 1, H)
        if x1 - x0 < 3 or y1 - y0 < 2:
            continue
        band = fg[y0:y1, x0:x1]
        cols = band.any(axis=0)
        if not cols.any():
            continue
        # the run of swatch columns ending nearest the text (allowing dash gaps)
        idxs = np.nonzero(cols)[0]
        end = idxs[-1]
        if (x1 - x0) - 1 - end > 1.2 * u:
            continue
        start = end
        gap_max = max(2, int(0.35 * u))
        for k in idxs[::-1]:
            if start - k > gap_max:
                break
            start = k
        sw_w = end - start + 1
        rows = band[:, start:end + 1].any(axis=1)
        ry = np.nonzero(rows)[0]
        sw_h = ry[-1] - ry[0] + 1
        if sw_w < (u if numeric else 0.25 * u) or sw_w > 3.5 * u or sw_h > (2.0 if numeric else 1.1) * u:
            continue  # numbers' keys: at least a letter wide (a tick mark is shorter), up to a key box
        # the swatch must stand alone: nothing on its left within a short distance (not a curve crossing)
        left0 = max(x0 + start - int(0.6 * u), 0)
        if left0 < x0 + start - 1 and fg[y0:y1, left0:x0 + start - 1].any(axis=0).mean() > 0.4:
            continue
        sub = band[ry[0]:ry[-1] + 1, start:end + 1]
        fill = sub.mean()
        if sw_w <= 0.8 * u and 0.6 * sw_w <= sw_h <= 1.6 * sw_w:
            style = "marker"  # small and about square: a marker (a patch is wider than tall)
        elif sw_h >= 0.35 * u and fill >= 0.7 and sw_w >= 0.5 * sw_h:
            style = "patch"
        else:
            colfill = sub.any(axis=0)
            holes = int(np.count_nonzero(~colfill))
            runs = int(np.count_nonzero(colfill[1:] & ~colfill[:-1])) + 1
            style = "solid" if holes <= 1 else ("dotted" if runs >= 4 and holes >= 0.35 * sw_w else "dashed")
        pix = m.work[y0 + ry[0]:y0 + ry[-1] + 1, x0 + start:x0 + end + 1][sub]
        colour = None
        if len(pix):
            b, g, r = np.median(pix, axis=0)
            colour = (float(r) / 255, float(g) / 255, float(b) / 255)
        sw = (float(x0 + start), float(y0 + ry[0]), float(x0 + end + 1), float(y0 + ry[-1] + 1))
        got = _label_for(an, sw, u, used, is_label)
        if got is None:
            continue
        text, ebox, idx, tx = got
        used.update(idx)
        entries.append(LegendEntry(text=text, colour=colour, style=style, bbox=ebox, swatch=sw, text_x=tx))
    return _aligned(entries, u, lone=False)
