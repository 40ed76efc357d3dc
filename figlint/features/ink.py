"""Where a figure prints ink: the horizontal extent of its marks, not of its graphics' boxes.

An included graphic often carries white margins: matplotlib paints a white rectangle
under the whole figure, a PNG may have white borders, a PDF's page is larger than its
drawing. What a reader sees reach into the page margin is the ink: text spans, strokes
and fills that are not white, and the non-white pixels of placed images. `ink_extent`
gives (x0, x1) in the figure's coordinates (page points on the PDF route, points from
the left of the line on the sources route), measuring image pixels only where the box
alone would put ink past `limits` (decoding every image of a paper costs time).
"""

from __future__ import annotations

# A paint this close to white on every channel (0..1) is the paper, not ink.
_WHITE = 0.94
# A pixel column holds ink when at least this many pixels in it are darker than white by
# more than _PIXEL_INK levels on some channel (JPEG noise on white stays within 10).
_PIXEL_INK = 25
_MIN_INK_PIXELS = 2


def _white(c) -> bool:
    return c is None or (len(c) >= 3 and min(c[:3]) >= _WHITE)


def vector_extent(fig) -> tuple[float, float] | None:
    """(x0, x1) of the figure's text and of its strokes and fills that are not white."""
    xs0, xs1 = [], []
    for s in fig.spans:
        box = _glyph_box(s)
        if box is not None:
            xs0.append(box[0])
            xs1.append(box[1])
    for d in fig.drawings:
        if _white(d.fill) and _white(d.stroke):
            continue
        if d.bbox[2] < d.bbox[0]:
            continue
        xs0.append(d.bbox[0])
        xs1.append(d.bbox[2])
    if not xs0:
        return None
    return min(xs0), max(xs1)


def _glyph_box(s) -> tuple[float, float] | None:
    """(x0, x1) of a text span's glyphs. Upright text: its box (advance widths, tight to the
    glyphs within their side bearings). Text set at 90 degrees: its box less the ascender and
    descender room a font box keeps (0.15 of its size a side), as FL109 shrinks boxes. A box
    much wider than its characters can be (a brace or bracket drawn as one glyph at 80 pt,
    rotated: its font box spans far beyond the stroke) says nothing of the ink: None."""
    text = s.text.strip()
    w, h = s.bbox[2] - s.bbox[0], s.bbox[3] - s.bbox[1]
    if not text or w <= 0 or s.size <= 0:
        return None
    if h > w and len(text) >= 2 or (len(text) == 1 and h > 1.6 * s.size):
        if w > 1.6 * s.size:
            return None
        pad = min(0.15 * s.size, 0.3 * w)
        return s.bbox[0] + pad, s.bbox[2] - pad
    if w > 1.3 * s.size * len(text) + 1.0:
        return None
    return s.bbox[0], s.bbox[2]


def image_box(im, page_width: float | None = None) -> tuple[float, float]:
    """(x0, x1) where an image's pixels print, unclipped: a PDF reader cuts a placed image's
    box at the page edge, but its resolution still gives its displayed width."""
    x0, x1 = im.bbox[0], im.bbox[2]
    if im.dpi_x and im.width_px:
        full = im.width_px * 72.0 / im.dpi_x
        if full > (x1 - x0) + 1.0:
            if page_width is not None and x1 >= page_width - 0.5:
                return x0, x0 + full
            if x0 <= 0.5:
                return x1 - full, x1
    return x0, x1


def pixel_extent(bgr) -> tuple[float, float] | None:
    """(first, last) fraction of the image's width holding ink, or None when it is all white."""
    import numpy as np

    if bgr is None or bgr.size == 0:
        return None
    # 255 - v > _PIXEL_INK on some channel: the darkest channel below 255 - _PIXEL_INK (on the
    # uint8 pixels: a 16-bit copy of a 40-megapixel image was 240 MB, twice)
    dark = bgr.min(axis=2) < 255 - _PIXEL_INK
    cols = np.flatnonzero(dark.sum(axis=0) >= min(_MIN_INK_PIXELS, bgr.shape[0]))
    if cols.size == 0:
        return None
    w = bgr.shape[1]
    return cols[0] / w, (cols[-1] + 1) / w


def ink_extent(fig, paper, limits: tuple[float, float] | None = None,
               page_width: float | None = None) -> tuple[float, float] | None:
    """(x0, x1) of the figure's ink. Images whose box stays within `limits` count by their box;
    those past it by their non-white pixels (when they can be decoded)."""
    parts = []
    vec = vector_extent(fig)
    if vec is not None:
        parts.append(vec)
    need = []
    for im in fig.images:
        a, b = image_box(im, page_width)
        if limits is not None and a >= limits[0] and b <= limits[1]:
            parts.append((a, b))
        else:
            need.append((im, a, b))
    if need:
        parts += _image_ink(fig, paper, need)
    if not parts:
        return None
    return min(p[0] for p in parts), max(p[1] for p in parts)


def _image_ink(fig, paper, need) -> list[tuple[float, float]]:
    out = []
    extents: dict = {}  # image name -> its pixels' ink extent (None: all white); measured one by one
    try:
        from figlint.features.quality import placed_images

        for p in placed_images(fig, paper, min_side_px=1, names={im.name for im, _a, _b in need}):
            extents[p.name] = pixel_extent(p.bgr)
    except Exception:  # noqa: BLE001 - no pixels (OpenCV missing, an odd image): its box counts
        extents = {}
    for im, a, b in need:
        if im.name not in extents:
            out.append((a, b))
            continue
        ext = extents[im.name]
        if ext is not None:
            out.append((a + ext[0] * (b - a), a + ext[1] * (b - a)))
    return out
