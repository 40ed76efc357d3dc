"""Colour scales: the colour map a figure draws a continuous quantity with, and what kind it is.

A colour scale is read from the figure's colour bar, a strip whose colour changes along
it with numbers beside it (ticks), in order along the strip:

- vector figures: a narrow placed image (matplotlib rasterises a colour bar of many
  levels) or a stack of five or more equal filled cells touching end to end (a contour
  plot's bar of a few levels);
- raster figures: a block of pixels whose colour is constant across it and changes
  along it, standing free (a heatmap's column of cells has more cells beside it).

Without a colour bar, a colour *field* is read instead: a heatmap or image's own colours
(a placed image of the figure, or a raster figure that is mostly colour), unordered,
kept only when they form one continuum (each colour a small step from another, as
smooth data drawn through a colour map give), which a few categorical colours or a
photograph's scattered colours do not.

`classify` then names what a scale is: "rainbow" (the hue sweeps blue-cyan-green-yellow-
red at high chroma and, along a bar, lightness rises and falls again) or "red-green"
(its two ends, which mean opposite things, differ in hue red against green and look
alike to red-green colour-blind readers). Anything else (viridis, cividis, magma,
greys, a blue-white-red diverging map) is None.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from figlint.features import colours as C

RGB = tuple[float, float, float]

# A colour counts towards a hue family at this CIELAB chroma or more: jet's cyan (0,1,1) has
# 50, viridis' greens 60-80, tab10's blue 39; pale tints and greys stay out.
FAMILY_CHROMA = 40.0
# Lightness must both rise and fall by this much along a bar to be "not monotone" (jet: up 83
# and down 70 L*; viridis, magma, cividis: never down).
LIGHTNESS_TURN = 15.0
# A rainbow's hue sweeps at least this far in one direction, with at most this share back.
MIN_SWEEP = 180.0
MAX_BACK = 0.15
# Ends of a red-green scale: they differ clearly in normal vision and hardly at all under
# deuteranopia or protanopia (RdYlGn: dE00 64 and 8; PiYG 18 and PRGn 32, which are safe).
ENDS_NORMAL = 40.0
ENDS_CVD = 12.0
# A bar: at least this many cells or pixels along it, this much longer than wide.
BAR_ASPECT = 4.0
MIN_BAR_STEPS = 5
# A field: this share of its pixels chromatic, its continuum at least this many colours.
FIELD_CHROMATIC = 0.2
FIELD_MIN_COLOURS = 12
FIELD_STEP = 10.0  # dE00 between neighbouring colours of a continuum
PHOTO_BINS = 120  # coarse colour bins a photograph fills (as features/raster.py counts them)


@dataclass
class ColourScale:
    kind: str  # "bar" (colours in order along a colour bar) | "field" (a heatmap's colours)
    source: str  # "image", "cells" or "pixels"
    box: tuple[float, float, float, float]  # in the analysis' coordinates
    colours: list[RGB] = field(default_factory=list)
    ticks: int = 0  # numbers printed beside a bar
    verdict: dict | None = None  # classify()'s answer

    def to_dict(self) -> dict:
        return {"kind": self.kind, "source": self.source, "box": [round(v, 1) for v in self.box],
                "colours": len(self.colours), "ticks": self.ticks,
                "sample": [C.hex_of(c) for c in _spread(self.colours, 7)], "verdict": self.verdict}


def _spread(cols: list, n: int) -> list:
    if len(cols) <= n:
        return list(cols)
    return [cols[round(i * (len(cols) - 1) / (n - 1))] for i in range(n)]


# ---- naming a scale ----------------------------------------------------------------------
def family(rgb: RGB) -> str:
    """The hue family of a colour (by HSV hue): red, orange, yellow, green, cyan, blue, purple."""
    h = C.hue_deg(rgb)
    if h < 20 or h >= 330:
        return "red"
    if h < 45:
        return "orange"
    if h < 75:
        return "yellow"
    if h < 160:
        return "green"
    if h < 200:
        return "cyan"
    if h < 265:
        return "blue"
    return "purple"


def _families(cols: list[RGB]) -> set[str]:
    return {family(c) for c in cols if C.chroma(c) >= FAMILY_CHROMA}


def _rainbow_hues(fams: set[str]) -> bool:
    """Blue and green, red or orange, and cyan or yellow: the hues of a spectrum, not of
    viridis (no red), plasma or magma (no green) or a blue-red diverging map."""
    return {"blue", "green"} <= fams and bool(fams & {"red", "orange"}) and bool(fams & {"cyan", "yellow"})


def _inner(cols: list[RGB]) -> list[RGB]:
    """The bar's colours without its edges: a sample at either end that differs from the next
    one inward by more than a colour map's step (CIEDE2000 8) is the bar's frame blended into
    its first or last pixel row (an olive row on a yellow end), at most a fiftieth of the bar."""
    k = max(1, len(cols) // 50)
    a, b = 0, len(cols)
    while a < k and b - a > 2 and C.delta_e(cols[a], cols[a + 1]) > 8:
        a += 1
    while len(cols) - b < k and b - a > 2 and C.delta_e(cols[b - 1], cols[b - 2]) > 8:
        b -= 1
    return cols[a:b]


def _lightness_turns(cols: list[RGB]) -> tuple[float, float]:
    """(largest rise, largest fall) of L* along the sequence."""
    ls = [C.to_lab(c)[0] for c in cols]
    up = down = 0.0
    lo = hi = ls[0]
    for v in ls[1:]:
        up = max(up, v - lo)
        down = max(down, hi - v)
        lo, hi = min(lo, v), max(hi, v)
    return up, down


def _hue_sweep(cols: list[RGB]) -> tuple[float, float]:
    """(sweep, back): how far the hue of the chromatic colours turns in its main direction
    along the sequence, and how far against it (degrees)."""
    hues = [C.hue_deg(c) for c in cols if C.chroma(c) >= 30]
    pos = neg = 0.0
    for a, b in zip(hues, hues[1:]):
        d = (b - a + 180.0) % 360.0 - 180.0
        if d > 0:
            pos += d
        else:
            neg -= d
    return max(pos, neg), min(pos, neg)


def _ends(cols: list[RGB]) -> tuple[RGB, RGB]:
    k = max(1, len(cols) // 12)

    def mean(part):
        return tuple(sum(c[i] for c in part) / len(part) for i in range(3))

    return mean(cols[:k]), mean(cols[-k:])  # type: ignore[return-value]


def _cvd_difference(a: RGB, b: RGB) -> tuple[float, str]:
    return min((C.delta_e(C.simulate(a, k), C.simulate(b, k)), k) for k in ("deuteranopia", "protanopia"))


def _red_green(a: RGB, b: RGB) -> dict | None:
    """The verdict when colours a and b are red (or orange) and green, clearly apart in normal
    vision and alike under red-green colour blindness."""
    fa, fb = family(a), family(b)
    if {fa, fb} not in ({"red", "green"}, {"orange", "green"}) or min(C.chroma(a), C.chroma(b)) < 30:
        return None
    normal = C.delta_e(a, b)
    cvd, kind = _cvd_difference(a, b)
    if normal < ENDS_NORMAL or cvd >= ENDS_CVD:
        return None
    return {"kind": "red-green", "ends": [C.hex_of(a), C.hex_of(b)], "delta_e_normal": round(normal, 1),
            "delta_e_cvd": round(cvd, 1), "deficiency": kind}


def classify(scale: ColourScale) -> dict | None:
    """"rainbow", "red-green" or None for a scale, with the measures that decided it."""
    cols = scale.colours
    if len(cols) < MIN_BAR_STEPS:
        return None
    fams = _families(cols)
    if scale.kind == "bar":
        cols = _inner(cols)
        up, down = _lightness_turns(cols)
        sweep, back = _hue_sweep(cols)
        if _rainbow_hues(fams) and min(up, down) >= LIGHTNESS_TURN and sweep >= MIN_SWEEP and back <= MAX_BACK * sweep:
            return {"kind": "rainbow", "hues": sorted(fams), "lightness_rise": round(up, 1),
                    "lightness_fall": round(down, 1), "hue_sweep": round(sweep)}
        if "blue" in fams:
            return None
        return _red_green(*_ends(cols))
    # a field: unordered colours of one continuum
    if _rainbow_hues(fams):
        return {"kind": "rainbow", "hues": sorted(fams)}
    if "blue" in fams:
        return None
    reds = [c for c in cols if family(c) in ("red", "orange") and C.chroma(c) >= 30]
    greens = [c for c in cols if family(c) == "green" and C.chroma(c) >= 30]
    if len(reds) < 3 or len(greens) < 3:
        return None  # a ramp of each, not one categorical red and one green
    # unordered, the ends are unknown: the red and green of the scale that look most alike
    # to a red-green colour-blind reader while clearly apart in normal vision
    best = None
    for a in _spread(sorted(reds, key=C.hue_deg), 16):
        for b in _spread(sorted(greens, key=C.hue_deg), 16):
            v = _red_green(a, b)
            if v is not None and (best is None or v["delta_e_cvd"] < best["delta_e_cvd"]):
                best = v
    return best


# ---- numbers beside a bar ----------------------------------------------------------------
def ticks_beside(an, box, vertical: bool) -> int:
    """Numbers printed along one long side of a bar, close to it as a colour bar's tick labels
    are (within 2.5 text heights), with no words between (the tick labels of a plot's axis
    above a spectrum strip, its axis title between, are not the strip's). The most on
    either side."""
    u = an.unit_size
    x0, y0, x1, y1 = box
    near: dict[int, list[float]] = {0: [], 1: []}
    words: dict[int, list[float]] = {0: [], 1: []}
    for t in an.tokens:
        tx0, ty0, tx1, ty1 = t.bbox
        cx, cy = (tx0 + tx1) / 2, (ty0 + ty1) / 2
        if vertical:
            if not y0 - u <= cy <= y1 + u:
                continue
            side, gap = (1, tx0 - x1) if tx0 >= x1 - 1 else ((0, x0 - tx1) if tx1 <= x0 + 1 else (None, 0.0))
        else:
            if not x0 - u <= cx <= x1 + u:
                continue
            side, gap = (1, ty0 - y1) if ty0 >= y1 - 1 else ((0, y0 - ty1) if ty1 <= y0 + 1 else (None, 0.0))
        if side is None:
            continue
        if t.value is not None:
            if gap <= 2.5 * u:
                near[side].append(gap)
        elif any(ch.isalpha() for ch in t.text):
            words[side].append(gap)
    counts = []
    for side in (0, 1):
        gaps = near[side]
        if gaps and any(w < min(gaps) for w in words[side]):
            gaps = []  # a word stands between: these numbers label something else
        counts.append(len(gaps))
    return max(counts)


# ---- colour bars in vector figures ----------------------------------------------------------
def _cell_bars(an) -> list[ColourScale]:
    """Stacks of at least five filled cells of one width touching end to end, of about one
    length each (a colour bar of a few levels; a stacked data bar's parts differ in length)."""
    return _cell_bar_runs(an.drawings, an.width, an.height, lambda box, vertical: ticks_beside(an, box, vertical))


def vector_scale_possible(drawings, width: float, height: float) -> bool:
    """Whether a vector figure's paths (without placed images) could hold a colour scale: a
    stack of cells `_cell_bars` takes, numbers beside it assumed, or the forty cells of a
    heatmap `_cell_fields` reads. The same code on the same paths, without the figure's
    analysis: when this is False, colour_scales finds nothing in the figure."""
    if _cell_bar_runs(drawings, width, height, None):
        return True
    return sum(1 for _ in _field_cells(drawings, width, height)) >= MIN_FIELD_CELLS


MIN_FIELD_CELLS = 40  # a vector heatmap's grid


def _field_cells(drawings, width: float, height: float):
    """(drawing, w, h) of each small filled cell a vector heatmap's grid is read from."""
    fw, fh = max(width, 1e-6), max(height, 1e-6)
    for d in drawings or []:
        if d.fill is None or len(d.fill) < 3 or d.items > 6 or d.paths > 1:
            continue
        w, h = d.bbox[2] - d.bbox[0], d.bbox[3] - d.bbox[1]
        if w <= 0 or h <= 0 or w * h > 0.05 * fw * fh:
            continue
        yield d, w, h


def _cell_bar_runs(drawings, width: float, height: float, ticks) -> list[ColourScale]:
    fw, fh = max(width, 1e-6), max(height, 1e-6)
    cells = []
    for d in drawings or []:
        if d.fill is None or len(d.fill) < 3 or d.items > 6:
            continue
        x0, y0, x1, y1 = d.bbox
        if x1 - x0 < 0.5 or y1 - y0 < 0.5 or (x1 - x0 > 0.5 * fw and y1 - y0 > 0.5 * fh):
            continue
        cells.append((d.bbox, tuple(float(v) for v in d.fill[:3])))
    out = []
    for vertical in (True, False):
        lanes: dict[tuple, list] = {}
        for b, rgb in cells:
            key = (round(b[0] * 2), round(b[2] * 2)) if vertical else (round(b[1] * 2), round(b[3] * 2))
            lanes.setdefault(key, []).append((b, rgb))
        for members in lanes.values():
            if len(members) < MIN_BAR_STEPS:
                continue
            lo, hi = (1, 3) if vertical else (0, 2)
            members.sort(key=lambda m: m[0][lo])
            run = [members[0]]
            for m in members[1:] + [None]:
                if m is not None and abs(m[0][lo] - run[-1][0][hi]) <= 0.6:
                    run.append(m)
                    continue
                bar = _cell_bar(ticks, run, vertical)
                if bar is not None and not _cells_beside(bar.box, cells, run, vertical):
                    out.append(bar)
                if m is not None:
                    run = [m]
    return out


def _cells_beside(box, cells: list, run: list, vertical: bool) -> bool:
    """Whether other filled cells touch the bar's long sides: then it is a column (or row) of
    a heatmap's grid, not a colour bar standing free."""
    mine = {id(m) for m in run}
    x0, y0, x1, y1 = box
    for m in cells:
        if id(m) in mine:
            continue
        b = m[0]
        if vertical and min(b[3], y1) - max(b[1], y0) > 0 and (abs(b[2] - x0) <= 1.0 or abs(b[0] - x1) <= 1.0):
            return True
        if not vertical and min(b[2], x1) - max(b[0], x0) > 0 and (abs(b[3] - y0) <= 1.0 or abs(b[1] - y1) <= 1.0):
            return True
    return False


def _cell_bar(ticks_of, run: list, vertical: bool) -> ColourScale | None:
    if len(run) < MIN_BAR_STEPS:
        return None
    lo, hi = (1, 3) if vertical else (0, 2)
    sizes = sorted(m[0][hi] - m[0][lo] for m in run)
    mid = sizes[len(sizes) // 2]
    if sum(1 for s in sizes if abs(s - mid) <= 0.25 * mid) < 0.7 * len(sizes):
        return None
    box = (min(m[0][0] for m in run), min(m[0][1] for m in run), max(m[0][2] for m in run), max(m[0][3] for m in run))
    w, h = box[2] - box[0], box[3] - box[1]
    if (h if vertical else w) < BAR_ASPECT * (w if vertical else h):
        return None
    if len({tuple(round(v, 2) for v in m[1]) for m in run}) < MIN_BAR_STEPS:
        return None
    ticks = ticks_of(box, vertical) if ticks_of is not None else 2  # None: assumed there
    if ticks < 2:
        return None
    return ColourScale("bar", "cells", box, [m[1] for m in run], ticks)


def _image_role(an, bbox) -> str | None:
    """What a placed image printed at `bbox` can be in a vector figure: "bar" (a narrow strip,
    a colour bar's gradient), "field" (a large image, a colour field) or None (an icon, a
    logo: neither). Decided on the printed box alone, so images that can be neither are
    never decoded."""
    if bbox is None:
        return None
    fw, fh = max(an.width, 1e-6), max(an.height, 1e-6)
    x0, y0, x1, y1 = bbox
    w, h = x1 - x0, y1 - y0
    if w <= 0 or h <= 0:
        return None
    vertical = h >= w
    if max(w, h) >= BAR_ASPECT * min(w, h) and min(w, h) <= 0.15 * (fw if vertical else fh):
        return "bar"
    return "field" if w * h >= 0.05 * fw * fh else None


def _image_scales(an, placed) -> tuple[list[ColourScale], list[ColourScale]]:
    """Colour bars (narrow images with numbers beside them) and colour fields (other images)
    among a vector figure's placed images, `placed` from features.quality.placed_images."""
    bars, fields = [], []
    for p in placed:
        if p.bgr is None:
            continue
        role = _image_role(an, p.bbox)
        if role == "bar":
            x0, y0, x1, y1 = p.bbox
            vertical = y1 - y0 >= x1 - x0
            cols = _strip_colours(p.bgr, vertical)
            ticks = ticks_beside(an, p.bbox, vertical)
            if len(cols) >= MIN_BAR_STEPS and ticks >= 2:
                bars.append(ColourScale("bar", "image", p.bbox, cols, ticks))
        elif role == "field":
            for cols in field_colours(p.bgr):
                fields.append(ColourScale("field", "image", p.bbox, cols))
    return bars, fields


def _strip_colours(bgr, vertical: bool) -> list[RGB]:
    """The colours along a strip of pixels: the middle half across it, averaged, per step;
    without the strip's outline at its ends (a grey row unlike the colour next to it)."""
    import numpy as np

    a = bgr if vertical else bgr.transpose(1, 0, 2)
    n = a.shape[1]
    mid = a[:, n // 4: max(n - n // 4, n // 4 + 1)].astype(np.float64).mean(axis=1)
    cols = [(float(r) / 255, float(g) / 255, float(b) / 255) for b, g, r in mid]
    for _end in range(2):  # up to three grey rows before the first coloured one, at each end
        k = next((i for i, c in enumerate(cols[:4]) if not C.is_achromatic(c)), 0)
        if len(cols) > 8:
            cols = cols[k:][::-1]
    if len(cols) > 256:
        cols = [cols[i] for i in np.linspace(0, len(cols) - 1, 256).round().astype(int)]
    return cols


# ---- colour bars and fields in pixels -------------------------------------------------------
def pixel_bars(an) -> list[ColourScale]:
    """Colour bars in a raster figure: blocks of pixels whose colour is constant across and
    changes along, standing free, with numbers beside them."""
    import numpy as np

    m = an.marks
    work = getattr(m, "work", None)
    if work is None or getattr(m, "photo", False):
        return []
    import cv2

    out = []
    # a median over 3x3 first: JPEG noise on a saturated strip breaks "equal to its neighbours"
    img = cv2.medianBlur(work, 3)
    for vertical in (True, False):
        a = img if vertical else np.ascontiguousarray(img.transpose(1, 0, 2))
        bar_boxes = _uniform_strips(a)
        for x0, y0, x1, y1 in bar_boxes:
            box = (float(x0), float(y0), float(x1), float(y1)) if vertical else (float(y0), float(x0), float(y1), float(x1))
            ticks = ticks_beside(an, box, vertical)
            if ticks < 2:
                continue
            strip = work[int(box[1]):int(box[3]), int(box[0]):int(box[2])]
            cols = _strip_colours(strip, vertical)
            if len({tuple(round(v * 16) for v in c) for c in cols}) >= MIN_BAR_STEPS and _even_steps(cols):
                out.append(ColourScale("bar", "pixels", box, cols, ticks))
    return out


def _even_steps(cols: list[RGB]) -> bool:
    """Whether colours along a strip change as a colour bar's do: gradually (many short runs of
    one colour), or in steps of about one length (a bar of a few levels). A stacked data bar's
    parts have the lengths of their data."""
    runs = [1]
    start = cols[0]
    for c in cols[1:]:
        if C.delta_e(start, c) < 3:  # still the colour the run began with
            runs[-1] += 1
        else:
            runs.append(1)
            start = c
    long_runs = [r for r in runs if r >= 0.03 * len(cols)]
    if sum(long_runs) < 0.8 * len(cols):
        return True  # gradual: no few long steps make up the strip
    if len(long_runs) < MIN_BAR_STEPS:
        return False  # two or three blocks of colour: a stacked bar, not a scale
    inner = sorted(long_runs[1:-1]) or sorted(long_runs)
    mid = inner[len(inner) // 2]
    return sum(1 for r in inner if abs(r - mid) <= 0.25 * mid) >= 0.7 * len(inner)


def _channel_max(d):
    """The largest of the three channels of a uint8 image (faster than .max(axis=2))."""
    import numpy as np

    return np.maximum(np.maximum(d[:, :, 0], d[:, :, 1]), d[:, :, 2])


def _uniform_strips(a) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of upright strips in image `a` (uint8 BGR, contiguous): pixels
    equal to their neighbours left and right and unlike the white paper, in a block at least
    four times taller than wide, with no coloured pixels just outside its long sides."""
    import cv2
    import numpy as np

    H, W = a.shape[:2]
    if H < 20 or W < 8:
        return []
    mid = np.ascontiguousarray(a[:, 1:-1])
    dl = _channel_max(cv2.absdiff(mid, np.ascontiguousarray(a[:, :-2])))
    dr = _channel_max(cv2.absdiff(mid, np.ascontiguousarray(a[:, 2:])))
    uni = np.zeros((H, W), bool)
    uni[:, 1:-1] = (dl <= 12) & (dr <= 12)
    lo = np.minimum(np.minimum(a[:, :, 0], a[:, :, 1]), a[:, :, 2])
    paper = lo >= 225  # within 30 levels of white on every channel
    cand = (uni & ~paper).astype(np.uint8)
    n, lab, stats, _c = cv2.connectedComponentsWithStats(cand, connectivity=4)
    coloured = (_channel_max(a).astype(np.int16) - lo) >= 40  # a map's colour, not a grey frame or tick
    out = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if w < 3 or h < max(20, 0.2 * H) or area < 0.5 * w * h:
            continue
        # the strip is the columns of the block filled over (nearly) its whole length: tick
        # marks or an outline joined to it at a few rows do not widen it
        full = (lab[y:y + h, x:x + w] == i).mean(axis=0) >= 0.85
        idx = np.flatnonzero(full)
        if idx.size < 3:
            continue
        runs = np.split(idx, np.flatnonzero(np.diff(idx) > 1) + 1)
        core = max(runs, key=len)
        bx, bw = x, w
        x, w = x + int(core[0]), int(core.size)
        if w < 3 or h < BAR_ASPECT * w or w < 0.5 * bw:
            continue  # (a band of like colour inside a heatmap is a small part of a wide block)
        # free standing: a heatmap's column of cells has coloured cells right beside it
        # (3-6 px out of the block: its outline, anti-aliased over its colours, comes first)
        left = coloured[y:y + h, max(bx - 6, 0):max(bx - 2, 0)]
        right = coloured[y:y + h, min(bx + bw + 2, W):min(bx + bw + 6, W)]
        if any(side.size and side.mean() >= 0.3 for side in (left, right)):
            continue
        out.append((x, y, x + w, y + h))
    return out


def field_colours(bgr, mask=None) -> list[list[RGB]]:
    """The colours of a colour field, when its pixels are one: mostly chromatic, not a
    photograph, in continua (each colour within FIELD_STEP dE00 of another) of at least
    FIELD_MIN_COLOURS colours; one list per continuum. A colour map's colours are one
    continuum from end to end (RdYlGn through its pale yellow too); a rendering's objects,
    each shaded from dark to light in its own hue, are one each."""
    import numpy as np

    px = bgr.reshape(-1, 3) if mask is None else bgr[mask]
    if len(px) < 64:
        return []
    if len(px) > 100_000:  # an even sample is enough to see which colours a field holds
        px = px[np.linspace(0, len(px) - 1, 100_000).round().astype(int)]
    q8 = px.astype(np.int32) // 32
    coarse = np.bincount((q8[:, 0] << 6) | (q8[:, 1] << 3) | q8[:, 2], minlength=512)
    if int(np.count_nonzero(coarse >= 0.0005 * len(px))) > PHOTO_BINS:
        return []  # a photograph or a rendering: colours everywhere, not along one map
    q = px.astype(np.int32) // 16
    codes = (q[:, 0] << 8) | (q[:, 1] << 4) | q[:, 2]
    counts = np.bincount(codes, minlength=4096)
    sums = [np.bincount(codes, weights=px[:, k], minlength=4096) for k in range(3)]
    cols, weights = [], []
    for code in np.nonzero(counts)[0]:
        b, g, r = (sums[k][code] / counts[code] / 255.0 for k in range(3))
        rgb = (float(r), float(g), float(b))
        if C.chroma(rgb) >= 30:
            cols.append(rgb)
            weights.append(int(counts[code]))
    return _field(list(zip(cols, weights)), len(px))


def _field(weighted: list[tuple[RGB, float]], total: float) -> list[list[RGB]]:
    """The continua of a field's chromatic colours (colour, area), `total` its whole area."""
    chromatic = sum(w for _c, w in weighted)
    if chromatic < FIELD_CHROMATIC * total:
        return []
    keep = [(c, w) for c, w in weighted if w >= 0.003 * chromatic]
    if len(keep) < FIELD_MIN_COLOURS:
        return []
    return [g for g in _continua(keep) if len(g) >= FIELD_MIN_COLOURS]


def _cell_fields(an) -> list[list[RGB]]:
    """A vector heatmap's colours: the fills of a grid of at least 40 small filled cells
    (pcolormesh, seaborn), by area, as a field."""
    merged: dict[tuple, list] = {}
    area = 0.0
    n = 0
    for d, w, h in _field_cells(an.drawings, an.width, an.height):
        n += 1
        area += w * h
        rgb = tuple(float(v) for v in d.fill[:3])
        if C.chroma(rgb) >= 30:
            key = tuple(round(v * 255) // 4 for v in rgb)
            entry = merged.setdefault(key, [rgb, 0.0])
            entry[1] += w * h
    if n < MIN_FIELD_CELLS:
        return []
    return _field([(c, w) for c, w in merged.values()], area)


def _continua(keep: list[tuple[RGB, int]]) -> list[list[RGB]]:
    """The colours in groups linked by steps under FIELD_STEP dE00 (a diverging map through
    white or black is two groups, its ends' ramps)."""
    labs = [C.to_lab(c) for c, _ in keep]
    n = len(keep)
    parent = list(range(n))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            # a cheap bound first: dE00 is never far above the Euclidean Lab distance / 3
            if math.dist(labs[i], labs[j]) > 6 * FIELD_STEP:
                continue
            if C.ciede2000(labs[i], labs[j]) < FIELD_STEP:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return [[keep[i][0] for i in g] for g in groups.values()]


# ---- a figure's scales ----------------------------------------------------------------------
def colour_scales(an, paper=None) -> list[ColourScale]:
    """The colour bars of an analysed figure, each classified; without any, its colour fields.
    Cached on the analysis."""
    cached = an.derived.get("_colour_scales")
    if cached is not None:
        return cached
    bars: list[ColourScale] = []
    fields: list[ColourScale] = []
    if an.source == "vector":
        bars += _cell_bars(an)
        fig = an.figure
        # only images that can be a colour bar or field are decoded (an icon is neither)
        wanted = {im.name for im in fig.images if _image_role(an, im.bbox)} if fig is not None else set()
        if wanted:
            from figlint.features.quality import placed_images

            img_bars, img_fields = _image_scales(an, placed_images(fig, paper, min_side_px=1, names=wanted))
            bars += img_bars
            fields += img_fields
        if not bars and an.chart_type == "heatmap":
            fields += [ColourScale("field", "cells", (an.x0, an.y0, an.x1, an.y1), cols) for cols in _cell_fields(an)]
    elif an.source == "raster":
        bars += pixel_bars(an)
        m = an.marks
        work = getattr(m, "work", None)
        if not bars and work is not None and not getattr(m, "photo", False):
            for cols in field_colours(work):
                fields.append(ColourScale("field", "pixels", (0.0, 0.0, float(m.width), float(m.height)), cols))
    scales = bars or fields
    for s in scales:
        s.verdict = classify(s)
    an.derived["_colour_scales"] = scales
    return scales
