"""Colour features: series colours of a figure's data marks, their names, contrast and colour-vision collapse.

Pure-Python colour science for the few colours a chart has: sRGB to linear light
and WCAG relative luminance (contrast ratios), sRGB to CIELAB (D65) and the
CIEDE2000 difference, simulation of protanopia/deuteranopia with the Machado,
Oliveira & Fernandes (2009) matrices at severity 1.0, and basic colour names
("red", "blue", ...) by hue for matching what a caption says. Derived features
(see figlint.features.derived):

- ``series_colours``: the chromatic colours that carry data — stroked polylines
  (line series) and filled bars/areas in vector figures; for raster figures, the
  saturated colours of the non-text foreground — each with how many marks use it
  and the dash styles of its lines. Black, grey and white are left out: they are
  axes, grids, text and frames more often than series.
- ``palette``: every chromatic colour drawn (strokes, fills, text; raster:
  saturated pixels anywhere), named, for "the red bars" in a caption.
- ``dash_styles``: the dash styles of stroked paths ("solid", "dashed", "dotted").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from figlint.features import derived

RGB = tuple[float, float, float]

# Machado et al. 2009, severity 1.0, applied to linear RGB.
_CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
}


# ---- colour science ----------------------------------------------------------------------
def _lin(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gam(c: float) -> float:
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance of an sRGB colour (components 0..1)."""
    r, g, b = (_lin(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio (1..21) between two sRGB colours."""
    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def to_lab(rgb: RGB) -> tuple[float, float, float]:
    r, g, b = (_lin(v) for v in rgb[:3])
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def chroma(rgb: RGB) -> float:
    _l, a, b = to_lab(rgb)
    return math.hypot(a, b)


def hue_deg(rgb: RGB) -> float:
    """HSV hue in degrees (0 red, 120 green, 240 blue)."""
    r, g, b = rgb[:3]
    mx, mn = max(r, g, b), min(r, g, b)
    d = mx - mn
    if d <= 1e-9:
        return 0.0
    if mx == r:
        h = ((g - b) / d) % 6
    elif mx == g:
        h = (b - r) / d + 2
    else:
        h = (r - g) / d + 4
    return 60.0 * h


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005)."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cm = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = L2 - L1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lm, cmp_ = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hm = (h1p + h2p) / 2
    else:
        hm = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hm - 30)) + 0.24 * math.cos(math.radians(2 * hm))
         + 0.32 * math.cos(math.radians(3 * hm + 6)) - 0.20 * math.cos(math.radians(4 * hm - 63)))
    d_theta = 30 * math.exp(-(((hm - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cmp_ ** 7 / (cmp_ ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lm - 50) ** 2 / math.sqrt(20 + (lm - 50) ** 2)
    sc = 1 + 0.045 * cmp_
    sh = 1 + 0.015 * cmp_ * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dH / sh) ** 2 + rt * (dc / sc) * (dH / sh))


def delta_e(a: RGB, b: RGB) -> float:
    return ciede2000(to_lab(a), to_lab(b))


def simulate(rgb: RGB, kind: str) -> RGB:
    """How `rgb` looks to a dichromat (`protanopia` or `deuteranopia`), Machado 2009."""
    m = _CVD[kind]
    lin = [_lin(v) for v in rgb[:3]]
    out = [sum(m[i][j] * lin[j] for j in range(3)) for i in range(3)]
    return tuple(_gam(v) for v in out)  # type: ignore[return-value]


def hex_of(rgb: RGB) -> str:
    return "#" + "".join(f"{min(max(round(v * 255), 0), 255):02x}" for v in rgb[:3])


def from_int(c: int) -> RGB:
    return ((c >> 16 & 255) / 255, (c >> 8 & 255) / 255, (c & 255) / 255)


# ---- naming ------------------------------------------------------------------------------
ACHROMATIC_CHROMA = 12.0  # CIELAB chroma below which a colour is black, grey or white


def is_achromatic(rgb: RGB) -> bool:
    return chroma(rgb) < ACHROMATIC_CHROMA


def colour_name(rgb: RGB) -> str:
    """A basic colour term: black/grey/white, or a hue name (brown and pink by lightness)."""
    L, _a, _b = to_lab(rgb)
    if is_achromatic(rgb):
        return "black" if L < 25 else ("white" if L > 92 else "grey")
    h = hue_deg(rgb)
    v = max(rgb[:3])
    if (h < 45 or h >= 345) and v < 0.6 and L < 50:
        return "brown"
    if h < 15 or h >= 345:
        return "pink" if L > 70 else "red"
    if h < 45:
        return "orange"
    if h < 70:
        return "yellow"
    if h < 165:
        return "green"
    if h < 200:
        return "cyan"
    if h < 255:
        return "blue"
    if h < 290:
        return "purple"
    return "pink" if L > 60 else "magenta"


# What a caption's colour word accepts among the drawn colours: generous neighbours, so a
# finding means the colour is clearly absent, not merely a different shade's name.
CAPTION_COLOURS = {
    "red": {"red", "orange", "brown", "pink", "magenta"},
    "orange": {"orange", "red", "yellow", "brown"},
    "yellow": {"yellow", "orange", "green"},
    "green": {"green", "cyan", "yellow"},
    "blue": {"blue", "cyan", "purple"},
    "cyan": {"cyan", "blue", "green"},
    "teal": {"cyan", "green", "blue"},
    "turquoise": {"cyan", "green", "blue"},
    "purple": {"purple", "magenta", "blue", "pink"},
    "violet": {"purple", "magenta", "blue", "pink"},
    "magenta": {"magenta", "pink", "purple", "red"},
    "pink": {"pink", "magenta", "red", "purple"},
    "brown": {"brown", "orange", "red"},
}


# ---- the features ------------------------------------------------------------------------
@dataclass
class SeriesColour:
    rgb: RGB
    kind: str  # line | fill | pixels
    marks: int = 1  # paths (vector) or share of the saturated foreground in % (raster)
    dashes: set = field(default_factory=set)

    @property
    def name(self) -> str:
        return colour_name(self.rgb)

    def to_dict(self) -> dict:
        return {"hex": hex_of(self.rgb), "name": self.name, "kind": self.kind, "marks": self.marks,
                "dashes": sorted(self.dashes)}


def _merge(colours: list[SeriesColour], limit: float = 3.0) -> list[SeriesColour]:
    """Colours within `limit` CIEDE2000 of each other are one (a stroke and its fill, JPEG shades)."""
    out: list[SeriesColour] = []
    for c in sorted(colours, key=lambda c: -c.marks):
        for o in out:
            if delta_e(o.rgb, c.rgb) < limit:
                o.marks += c.marks
                o.dashes |= c.dashes
                if c.kind != o.kind:
                    o.kind = "line" if "line" in (c.kind, o.kind) else o.kind
                break
        else:
            out.append(SeriesColour(c.rgb, c.kind, c.marks, set(c.dashes)))
    return out


def _rgb(c) -> RGB | None:
    if c is None or len(c) < 3:
        return None
    return (float(c[0]), float(c[1]), float(c[2]))


def _drawings(an) -> list:
    return list(getattr(an, "drawings", None) or (an.figure.drawings if an.figure is not None else []))


def _is_series_line(d, fw: float, fh: float) -> bool:
    x0, y0, x1, y1 = d.bbox
    w, h = x1 - x0, y1 - y0
    # a data line: a stroked path of several segments that spans part of the plot and is
    # not a straight rule (grid lines and spines are one segment, flat or upright)
    return d.stroke is not None and d.fill is None and d.items >= 3 and (w > 0.1 * fw or h > 0.1 * fh) \
        and w > 1.6 and h > 1.6


def _is_series_fill(d, fw: float, fh: float) -> bool:
    x0, y0, x1, y1 = d.bbox
    w, h = x1 - x0, y1 - y0
    if d.fill is None or w < 1.0 or h < 1.0:
        return False
    return not (w > 0.9 * fw and h > 0.9 * fh)  # a panel background carries no series


@derived("series_colours")
def series_colours(an) -> list[SeriesColour]:
    """Chromatic colours of the data marks (lines and filled bars/areas), merged when alike."""
    if an.source == "vector":
        fw, fh = max(an.width, 1e-6), max(an.height, 1e-6)
        found: list[SeriesColour] = []
        for d in _drawings(an):
            if _is_series_line(d, fw, fh):
                rgb, kind = _rgb(d.stroke), "line"
            elif _is_series_fill(d, fw, fh):
                rgb, kind = _rgb(d.fill), "fill"
            else:
                continue
            if rgb is None or is_achromatic(rgb):
                continue
            found.append(SeriesColour(rgb, kind, 1, {d.dash} if kind == "line" and d.dash else set()))
        return _merge(found)
    if an.source == "raster":
        return _raster_palette(an, data_only=True)
    return []


def marker_shapes(an) -> list[tuple[RGB, str]]:
    """(colour, shape) of the markers of a vector figure: small paths, usually repeated (a
    scatter's circles, the triangles on a line, the one in its legend entry), by the kinds
    of their segments. Two series drawn with different markers are told apart by shape."""
    if an.source != "vector":
        return []
    fw, fh = max(an.width, 1e-6), max(an.height, 1e-6)
    limit = max(8.0, 0.04 * max(fw, fh))
    out: list[tuple[RGB, str]] = []
    seen = set()
    for d in _drawings(an):
        if not d.shape or not 0 < d.unit <= limit:
            continue
        fill = _rgb(d.fill)
        rgb = fill if fill is not None and not is_achromatic(fill) else _rgb(d.stroke)
        if rgb is None or is_achromatic(rgb):
            continue
        key = (tuple(round(v, 2) for v in rgb), d.shape, d.fill is not None)
        if key not in seen:
            seen.add(key)
            out.append((rgb, d.shape + ("/filled" if d.fill is not None else "/open")))
    return out


@derived("palette")
def palette(an) -> list[SeriesColour]:
    """Every chromatic colour drawn in the figure (strokes, fills, text), merged when alike."""
    if an.source == "vector":
        found = []
        for d in _drawings(an):
            for c, kind in ((d.stroke, "line"), (d.fill, "fill")):
                rgb = _rgb(c)
                if rgb is not None and not is_achromatic(rgb):
                    found.append(SeriesColour(rgb, kind, 1, {d.dash} if kind == "line" and d.dash else set()))
        spans = an.figure.spans if an.figure is not None else []
        for s in spans:
            if s.color is not None:
                rgb = from_int(s.color)
                if not is_achromatic(rgb):
                    found.append(SeriesColour(rgb, "text", 1))
        return _merge(found)
    if an.source == "raster":
        return _raster_palette(an, data_only=False)
    return []


@derived("dash_styles")
def dash_styles(an) -> list[str]:
    """Dash styles of the stroked paths drawn ("solid", "dashed", "dotted")."""
    if an.source != "vector":
        return []
    return sorted({d.dash for d in _drawings(an) if d.stroke is not None and d.dash})


def _raster_palette(an, data_only: bool) -> list[SeriesColour]:
    """Saturated colours covering a real share of the picture (JPEG and anti-aliasing shades merge)."""
    import numpy as np

    m = an.marks
    work = getattr(m, "work", None)
    if work is None or getattr(m, "photo", False) or getattr(m, "heatmap", False):
        return []
    import cv2

    hsv = cv2.cvtColor(work, cv2.COLOR_BGR2HSV)
    sel = (hsv[:, :, 1] >= 90) & (hsv[:, :, 2] >= 70)
    if data_only and m.fg is not None:
        sel &= m.fg
    n = int(sel.sum())
    if n < 30:
        return []
    px = work[sel].astype(np.int32)
    # bins of 16 levels; only bins holding at least 1.5 % of the saturated pixels are colours
    q = px // 16
    codes = (q[:, 0] << 8) | (q[:, 1] << 4) | q[:, 2]
    counts = np.bincount(codes, minlength=4096)
    out = []
    for code in np.nonzero(counts >= max(20, 0.015 * n))[0]:
        mean = px[codes == code].mean(axis=0)
        rgb = (mean[2] / 255, mean[1] / 255, mean[0] / 255)
        if is_achromatic(rgb):
            continue
        out.append(SeriesColour(rgb, "pixels", int(round(100 * counts[code] / n))))
    merged = _merge(out, limit=8.0)
    return [c for c in merged if c.marks >= 3]
