"""Second value axes that the OCR pass read only in part (raster figures).

A dual-axis chart needs two clean tick columns, but OCR often reads the second one
badly: small single-digit labels ("8", "6", "4") are not detected at all, or a low
resolution web image garbles every label of one side ("16.6", "2.5", "8.0" for 10.0,
8.0, 6.0). Two kinds of evidence are read here, both only opposite a clean value axis:

* `completed`: a column of just two numeric labels. Two labels fix a scale (value step
  per pixel), which predicts where the other labels must stand and what they say. Each
  predicted label is cut from the image and read by the recogniser alone (no detection
  step, which is what misses single digits); a label counts only when it reads exactly
  the predicted value. Two read and one verified label make a three-label axis.
* `row_aligned`: a column of numeric labels standing on the very rows of the clean
  axis' tick labels (the grid of a second axis drawn on the same gridlines), whose
  values differ from the clean axis' at every shared row. A mirrored axis repeats the
  same labels on the same rows; a second scale does not. The labels need not read as
  one clean scale themselves.

Results are cached per analysis; recogniser readings per crop content (memory and disk).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from statistics import median

from figlint.features.axes import Axis, Token, make_axis, numeric_tokens
from figlint.features.numbers import parse_number

REC_VERSION = "rec-v3"  # v3: read by figlint's own OCR engine (v2 readings came from rapidocr.RapidOCR)
_MEMO: dict[str, tuple[str, float]] = {}
MIN_REC_CONF = 0.6


@dataclass
class RowColumn:
    """Labels on the rows of `axis`' ticks, on the other side, with other values."""

    axis: Axis  # the clean axis whose rows they share
    tokens: list[Token]
    box: tuple[float, float, float, float]
    matched: int  # rows shared with the clean axis (all with different values)


def _columns(toks: list[Token], unit: float) -> list[list[Token]]:
    """Groups of tokens sharing a right, left or centred edge (the way tick columns align)."""
    tol = max(0.45 * unit, 1.5)
    out: list[list[Token]] = []
    seen: set[frozenset] = set()
    for anchor in (lambda t: t.bbox[2], lambda t: t.bbox[0], lambda t: t.cx):
        items = sorted(toks, key=anchor)
        group: list[Token] = []
        for t in items:
            if group and anchor(t) - anchor(group[-1]) > tol:
                key = frozenset(id(g) for g in group)
                if key not in seen:
                    seen.add(key)
                    out.append(group)
                group = []
            group.append(t)
        if group:
            key = frozenset(id(g) for g in group)
            if key not in seen:
                seen.add(key)
                out.append(group)
    return out


def _opposite(an, ax: Axis, toks: list[Token]) -> list[Token]:
    """Tokens on the other side of the figure from a y axis, at least 35 % of its width away."""
    if ax.cross < an.mid_x:
        return [t for t in toks if t.bbox[0] - ax.box[2] >= 0.35 * an.width]
    return [t for t in toks if ax.box[0] - t.bbox[2] >= 0.35 * an.width]


def _clean_value_axes(an) -> list[Axis]:
    return [a for a in an.y_axes if not a.index_like and (a.nice or a.scale == "log")]


def _free_numbers(an) -> list[Token]:
    """Numeric tokens that are not a tick of a clean axis (ticks keep their token's box)."""
    boxes = {tuple(t.bbox) for a in an.axes if a.clean for t in a.ticks}
    return [t for t in numeric_tokens(list(an.tokens)) if tuple(t.bbox) not in boxes]


# --- row-aligned columns -------------------------------------------------------------------

def row_aligned(an) -> list[RowColumn]:
    key = "second_axis:row_aligned"
    if key not in an.derived:
        an.derived[key] = _row_aligned(an)
    return an.derived[key]


def _row_aligned(an) -> list[RowColumn]:
    if an.source != "raster":
        return []
    u = an.unit_size
    nums = _free_numbers(an)
    out = []
    for ax in _clean_value_axes(an):
        ticks = sorted(ax.ticks, key=lambda t: t.pos)
        spacing = min((b.pos - a.pos for a, b in zip(ticks, ticks[1:])), default=0.0)
        if spacing <= 0:
            continue
        tol = min(0.35 * u, 0.2 * spacing)
        for col in _columns(_opposite(an, ax, nums), u):
            pairs = {}
            for t in col:
                near = min(ticks, key=lambda k: abs(k.pos - t.cy))
                if abs(near.pos - t.cy) <= tol and id(near) not in pairs:
                    pairs[id(near)] = (near, t)
            if len(pairs) < 3 or len(pairs) < 0.75 * len(ticks):
                continue
            if any(abs(k.value - t.value) <= 1e-9 * max(abs(k.value), 1.0) for k, t in pairs.values()):
                continue  # a repeated label: a mirrored axis (some labels misread), not a second scale
            if len({round(t.value, 9) for _, t in pairs.values()}) < len(pairs):
                continue  # one value on several rows: a table column or repeated data labels
            toks = [t for _, t in pairs.values()]
            box = (min(t.bbox[0] for t in toks), min(t.bbox[1] for t in toks),
                   max(t.bbox[2] for t in toks), max(t.bbox[3] for t in toks))
            out.append(RowColumn(ax, toks, box, len(pairs)))
    return out


# --- two-label columns completed by reading the predicted labels -----------------------------

def completed(an) -> list[Axis]:
    key = "second_axis:completed"
    if key not in an.derived:
        an.derived[key] = _completed(an)
    return an.derived[key]


def _completed(an) -> list[Axis]:
    img = getattr(an.marks, "work", None)
    if an.source != "raster" or img is None:
        return []
    u = an.unit_size
    nums = [t for t in _free_numbers(an) if t.kind in ("plain", "percent")]
    out: list[Axis] = []
    tried: set[frozenset] = set()
    for ax in _clean_value_axes(an):
        for col in _columns(_opposite(an, ax, nums), u):
            if len(col) != 2:
                continue
            a, b = sorted(col, key=lambda t: t.cy)
            key = frozenset((id(a), id(b)))
            if key in tried:
                continue
            tried.add(key)
            d = b.cy - a.cy
            if a.value == b.value or d < 1.5 * max(a.h, b.h) or d > 0.5 * an.height:
                continue
            if max(a.h, b.h) > 1.6 * min(a.h, b.h):
                continue  # one label size per axis
            if not (ax.lo - d <= a.cy <= ax.hi + d and ax.lo - d <= b.cy <= ax.hi + d):
                continue  # the two labels stand beside the clean axis' rows
            found = _verify(an, img, a, b, ax)
            if found:
                axis = make_axis("y", [a, b, *found], align="")
                if axis is not None and axis.clean and axis.scale == "linear" and axis.nice:
                    axis.side = "left" if axis.cross < an.mid_x else "right"
                    out.append(axis)
    return out


def _verify(an, img, a: Token, b: Token, ax: Axis) -> list[Token]:
    """Labels found by reading, one by one, where the scale of a and b puts its other ticks."""
    h_lab = median([a.h, b.h])
    d = b.cy - a.cy
    step = b.value - a.value
    x0 = min(a.bbox[0], b.bbox[0]) - 0.4 * h_lab
    x1 = max(a.bbox[2], b.bbox[2]) + 0.4 * h_lab
    top = min(ax.lo, a.cy) - d
    bottom = max(ax.hi, b.cy) + 1.5 * d
    found = []
    for k in list(range(-4, 0)) + list(range(2, 8)):
        y = a.cy + k * d
        if y < top or y > bottom or y - 0.8 * h_lab < an.y0 or y + 0.8 * h_lab > an.y1:
            continue
        want = a.value + k * step
        box = (max(x0, an.x0), y - 0.8 * h_lab, min(x1, an.x1), y + 0.8 * h_lab)
        text, conf = _read(img, box)
        n = parse_number(text) if conf >= MIN_REC_CONF else None
        if n is not None and abs(n.value - want) <= 1e-6 * max(abs(want), 1.0):
            found.append(Token(text=text, bbox=box, conf=conf, value=n.value, kind=n.kind))
    return found


def _read(img, box) -> tuple[str, float]:
    """The recogniser's reading of one crop (no detection step), upscaled 3x."""
    try:
        import cv2

        from figlint.features.ocr import _engine, cache_dir
        from figlint.features.raster import image_digest

        x0, y0, x1, y1 = (int(round(v)) for v in box)
        crop = img[max(y0, 0):y1, max(x0, 0):x1]
        if crop.size == 0 or crop.shape[0] < 4 or crop.shape[1] < 3:
            return "", 0.0
        crop = cv2.resize(crop, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
        crop = cv2.copyMakeBorder(crop, 12, 12, 12, 12, cv2.BORDER_REPLICATE)
        from figlint import cache

        key = f"{image_digest(crop)}-{REC_VERSION}"
        if key in _MEMO:
            return _MEMO[key]
        path = cache_dir() / f"{key}.json" if cache.enabled() else None  # --no-cache: none read or written
        try:
            if path is None:
                raise OSError("no cache")
            text, conf = json.loads(path.read_text())
        except (OSError, ValueError):
            # the recogniser alone (figlint's OCR engine, features/ocr_engine.py)
            txts, scores = _engine().recognise([crop])
            text, conf = (str(txts[0]), float(scores[0])) if txts else ("", 0.0)
            if path is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    tmp = path.with_suffix(f".{os.getpid()}.tmp")
                    tmp.write_text(json.dumps([text, conf]))
                    tmp.replace(path)
                except OSError:
                    pass
        _MEMO[key] = (text, conf)
        return text, conf
    except Exception:  # noqa: BLE001 - a second look is optional evidence, never a failure
        return "", 0.0


# --- data labels that no single value scale can place ------------------------------------------

_YEAR = (1800, 2100)


_GROUPED = re.compile(r"^\d{1,3}(,\d{3})+$")
_GROUPED_DOT = re.compile(r"^\d{1,3}(,\d{3})+\.\d{3}$")


def _data_labels(an) -> list[Token]:
    out = []
    free = _free_numbers(an)
    # OCR reads the last comma of "2,007,371" as a point ("2,007.371"); where the other
    # labels are comma-grouped integers, a grouped number with three decimals is one too.
    grouped = sum(1 for t in free if _GROUPED.match(t.text.strip())) >= 2
    for t in free:
        if grouped and _GROUPED_DOT.match(t.text.strip()):
            text = t.text.strip().replace(".", ",")
            t = Token(text=text, bbox=t.bbox, conf=t.conf, value=float(text.replace(",", "")), kind=t.kind)
        text = t.text.strip()
        if t.conf < 0.9 or any(c.isalpha() for c in text.replace("%", "")):
            continue
        if float(t.value).is_integer() and _YEAR[0] <= t.value <= _YEAR[1] and text.isdigit():
            continue  # a year, not a value
        out.append(t)
    return out


def label_conflicts(an) -> list[tuple[Token, Token]]:
    key = "second_axis:label_conflicts"
    if key not in an.derived:
        an.derived[key] = _label_conflicts(an)
    return an.derived[key]


def _label_conflicts(an) -> list[tuple[Token, Token]]:
    """Pairs (upper, lower) of value labels in one column where the upper one is far smaller.

    Printed by the marks they label, value labels of series on one upright scale stand
    higher the larger they are. A label clearly smaller than one printed below it in the
    same column means two series drawn to two scales: a second value axis left unprinted.
    Counted only in a plot: above a clean bottom axis or beside a clean upright value axis
    (where at least one of the two labels also stands far from its own value's height),
    never inside bars (stacked segments), and, without a value axis, only when another
    column keeps the natural order (an inverted scale reverses every column).
    """
    if an.source != "raster" or an.chart_type in ("heatmap", "photo", "pie"):
        return []
    u = an.unit_size
    ys = [a for a in an.y_axes if not a.index_like and a.scale == "linear" and a.nice]
    bottom = [a for a in an.x_axes if a.side == "bottom"]
    if ys:
        # The x axis' labels stand below the value axis' lowest tick. A row of numbers
        # inside the value axis' span is the bars' or points' value labels (12.7, 12.1,
        # 11.3 over a bar row), not the plot's lower edge: taking it for one cut the
        # labels above it off from those in the row.
        bottom = [a for a in bottom if a.cross > ys[0].hi - 0.5 * u]
    if not ys and not bottom:
        return []
    bars = list(an.bars.boxes) if an.bars is not None else []
    labels = [t for t in _data_labels(an)
              if not any(b[0] <= t.cx <= b[2] and b[1] <= t.cy <= b[3] for b in bars)]
    if ys:
        y = ys[0]
        if y.inverted:
            return []
        labels = [t for t in labels if y.lo - u <= t.cy <= y.hi + u and t.bbox[0] > y.box[2]]
    if bottom:
        row = min(bottom, key=lambda a: -a.cross)
        reach = max(2 * u, (row.hi - row.lo) / max(len(row.ticks) - 1, 1))  # up to a tick step beyond
        labels = [t for t in labels if t.bbox[3] < row.box[1] and row.lo - reach <= t.cx <= row.hi + reach]
    # Rows of horizontal tick labels: one standing between two labels separates two panels
    # stacked in one picture (each with its own scale), not two series of one plot.
    rows = [a.box for a in an.axes if a.orient == "x" and len(a.ticks) >= 3]
    # the rows of the value axis' inner ticks, where its gridlines run (labels already lie within
    # its span); its first and last rows carry the plot's frame or axis line, which a label
    # beyond it (a tick label of the x axis) stands outside of
    grid = sorted(t.pos for t in ys[0].ticks)[1:-1] if ys else []
    conflicts, natural = [], 0
    for a in labels:
        for b in labels:
            if a is b or a.bbox[3] > b.bbox[1] or b.cy - a.cy < 1.5 * u:
                continue
            overlap = min(a.bbox[2], b.bbox[2]) - max(a.bbox[0], b.bbox[0])
            if overlap < 0.5 * min(a.w, b.w):
                continue
            if any(a.cy < (r[1] + r[3]) / 2 < b.cy and r[0] <= max(a.bbox[2], b.bbox[2]) + 3 * u
                   and r[2] >= min(a.bbox[0], b.bbox[0]) - 3 * u for r in rows):
                continue
            if _other_plot_areas(an, a, b, labels, u, grid):
                continue
            diff = b.value - a.value
            big = max(abs(a.value), abs(b.value))
            if diff >= 0.5 * big:
                if ys:
                    span = ys[0].hi - ys[0].lo
                    off = max(abs((ys[0].pos_of(t.value) or t.cy) - t.cy) for t in (a, b))
                    if off < 0.25 * span:
                        continue
                conflicts.append((a, b))
            elif -diff >= 0.5 * big:
                natural += 1
    if not ys and not natural:
        return []
    return conflicts


def _other_plot_areas(an, a: Token, b: Token, labels: list[Token], u: float, grid: list[float] = ()) -> bool:
    """Whether labels a (upper) and b (lower) stand in different plot areas, not in one plot.

    Stacked panels each with their own scale put a small value above a large one in the
    same column without any second scale in one plot. Told apart by the geometry between
    the two labels: a frame edge or axis line running across the figure (the lower edge of
    one panel, the top of the next), a spine running beside both (tick labels outside a
    frame, not labels in a plot), a row of tick or category labels, each label being
    one of a column of tick labels of its own (two panels' value axes stacked), or a 0 above or
    between them in the column (one axis whose minus signs were lost: 0.5 above 0 above 0.5).
    `grid`: rows of the inner ticks of the value axis beside both labels; a line on such a
    row is that plot's gridline, not the edge between two stacked panels (one axis does not
    span two panels, and a panel's own edges stand at its first and last tick rows).
    """
    lo_x = min(a.bbox[0], b.bbox[0])
    hi_x = max(a.bbox[2], b.bbox[2])
    # a frame edge or axis line crossing the column between (or through) the two labels
    for y, x0, x1 in an.h_lines(a.bbox[1], b.bbox[3], an.x0, an.x1, 0.2):
        if any(abs(y - g) <= 0.35 * u for g in grid):
            continue
        if x0 <= hi_x + 3 * u and x1 >= lo_x - 3 * u:
            return True
    # tick labels outside a frame: the panel's spine runs beside both, from one to the other
    if an.v_line(hi_x, hi_x + 3 * u, a.cy, b.cy) or an.v_line(lo_x - 3 * u, lo_x, a.cy, b.cy):
        return True
    # a row of at least three words or numbers on one line between them (tick or category labels)
    ids = {id(t) for t in labels}
    between = [t for t in an.tokens if not t.rotated and id(t) not in ids and t.h <= 1.5 * u
               and a.cy + 0.5 * u < t.cy < b.cy - 0.5 * u]
    for t in between:
        row = [o for o in between if abs(o.cy - t.cy) <= 0.3 * u and max(o.h, t.h) <= 1.4 * min(o.h, t.h)]
        if len(row) >= 3 and max(o.bbox[2] for o in row) - min(o.bbox[0] for o in row) >= 0.4 * an.width:
            return True
    column = [t for t in labels if min(t.bbox[2], hi_x) - max(t.bbox[0], lo_x) > 0]
    if a.value == 0 or any(t.value == 0 and a.cy < t.cy < b.cy for t in column):
        return True
    mid = (a.cy + b.cy) / 2
    upper = [t for t in column if t.cy < mid]
    lower = [t for t in column if t.cy > mid]
    return _tick_column(upper, a) and _tick_column(lower, b)


def _tick_column(toks: list[Token], member: Token) -> bool:
    """Whether `member` is one of at least three labels forming a linear scale growing upward."""
    if len(toks) < 3:
        return False
    ax = make_axis("y", toks, align="")
    return (ax is not None and ax.clean and ax.scale == "linear" and not ax.inverted
            and any(t.bbox == member.bbox for t in ax.ticks))
