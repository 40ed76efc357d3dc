"""Raster evidence: OCR tokens and classical computer vision (OpenCV headless) on one image.

The image is analysed at most 1000 px on its long side (OCR runs on its own,
larger copy and its boxes are scaled to this one). From the pixels we find the
background colour, the foreground without text, solid rectangles of one colour
(bar candidates), curves that are not straight rules (data lines), many small
equal blobs (scatter markers), and whether the picture is a colour field
(heatmap) or a photograph rather than a chart.
"""

from __future__ import annotations

import hashlib
import weakref
from dataclasses import dataclass, field

from figlint import budget
from figlint.features.axes import Token

WORK_SIDE = 1000


_DECODED: dict[tuple, object] = {}  # images decoded lately, oldest first (a figure's rules ask in turn)
# ... holding at most this many bytes of pixels before the next image is decoded: a figure's
# reading asks for its image twice in a row (its analysis, then its labels), but a paper's
# 40-megapixel photographs, three of them kept, were 360 MB of the peak (issue 14).
_DECODED_MAX_BYTES = 64_000_000
# Every decoded image still held elsewhere, by the same key: a figure's analysis keeps its
# image's pixels (RasterMarks.work, the decoded array itself when it is at most WORK_SIDE
# px), and a later rule reading the same image (FL104's quality measures, after every
# figure's FL102) is served that array instead of decoding it again, at no memory cost.
_ALIVE: "weakref.WeakValueDictionary[tuple, object]" = weakref.WeakValueDictionary()


def _recall(key):
    arr = _DECODED.get(key)
    return arr if arr is not None else _ALIVE.get(key)


def make_room(nbytes: int | None) -> None:
    """Before pixels of `nbytes` (None: unknown) are decoded or rendered: forget the oldest
    decoded images until they and the new pixels fit in _DECODED_MAX_BYTES together. The
    newest image is kept whatever its size until then, for the next rule of its figure."""
    held = sum(a.nbytes for a in _DECODED.values())
    while _DECODED and (nbytes is None or held + nbytes > _DECODED_MAX_BYTES):
        held -= _DECODED.pop(next(iter(_DECODED))).nbytes


def _remember(key, arr):
    _DECODED.pop(key, None)
    _DECODED[key] = arr
    _ALIVE[key] = arr
    return arr


def drop_mupdf_store() -> None:
    """Empty MuPDF's store, the process-wide cache where it keeps every image it decodes (up to
    256 MB, after the document is closed): figlint keeps the pixels it needs itself."""
    import pymupdf

    pymupdf.TOOLS.store_shrink(100)


def load_bgr(path: str):
    """Any image PIL reads, as a BGR uint8 array, transparent areas on white (callers do not
    change it: the last few are kept, as several rules of one figure read the same file)."""
    import os

    try:
        st = os.stat(path)
        key = ("file", os.path.abspath(path), st.st_mtime_ns, st.st_size)
    except OSError:
        key = None
    hit = _recall(key) if key is not None else None
    if hit is not None:
        return hit
    arr = _load_bgr(path)
    return _remember(key, arr) if key is not None else arr


def _load_bgr(path: str):
    import numpy as np
    from PIL import Image

    # Opening reads the header only. PIL's own bomb check (which refuses to open) is off for
    # that moment: the stricter cap below runs before anything is decoded, with a clear message.
    limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
    try:
        im = Image.open(path)
    finally:
        Image.MAX_IMAGE_PIXELS = limit
    with im:
        im.seek(0)
        # Decompression bombs (figlint/budget.py): never decode more than MAX_DECODE_PIXELS.
        # A JPEG decodes at 1/2 to 1/8 scale for free; anything else that large is skipped.
        if im.width * im.height > budget.MAX_DECODE_PIXELS:
            f = (im.width * im.height / budget.MAX_DECODE_PIXELS) ** 0.5
            im.draft("RGB", (int(im.width / f) + 1, int(im.height / f) + 1))
            if im.width * im.height > budget.MAX_DECODE_PIXELS:
                raise budget.FigureSkipped(f"image of {im.width:,} x {im.height:,} pixels "
                                           f"(at most {budget.MAX_DECODE_PIXELS:,} pixels are decoded)")
        make_room(3 * im.width * im.height)
        alpha = im.mode in ("RGBA", "LA", "P", "PA") and (im.mode != "P" or "transparency" in im.info)
        return pil_bgr(im, alpha)


def pil_bgr(im, alpha: bool = False):
    """A PIL image's pixels as a new BGR uint8 array (with `alpha`: its transparency printed on
    white, on_white), copied a band of rows at a time: a whole-image array of PIL's pixels
    (np.asarray copies them) was one more copy of the image at the peak, 160 MB for a
    40-megapixel RGBA file. The same values as converting the whole image at once."""
    import numpy as np

    mode = "RGBA" if alpha else "RGB"
    src = im if im.mode == mode else im.convert(mode)
    if src is not im:
        im.close()  # its pixels are in src now
    w, h = src.size
    out = np.empty((h, w, 3), np.uint8)
    rows = max(1, (1 << 20) // max(w, 1))
    try:
        for y in range(0, h, rows):
            band = np.asarray(src.crop((0, y, w, min(y + rows, h))))
            if alpha:
                on_white(band[:, :, 2::-1], band[:, :, 3], out=out[y:y + rows])
            else:
                out[y:y + rows] = _bgr(band)
    finally:
        src.close()
    return out


def _bgr(rgb):
    """RGB pixels as a new contiguous BGR array (the same values as rgb[:, :, ::-1], in one copy)."""
    import cv2

    return cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)


def pixmap_bgr(pm):
    """A MuPDF pixmap's colours as a new BGR array: grey and CMYK converted to RGB (an image
    mask, which has no colours, raises), its alpha, if any, dropped (the caller applies it).
    Two steps: PyMuPDF 1.28 refuses the one that converted and dropped alpha together."""
    import numpy as np
    import pymupdf

    if pm.colorspace is None or pm.colorspace.n != 3:
        pm = pymupdf.Pixmap(pymupdf.csRGB, pm)
    if pm.alpha:
        pm = pymupdf.Pixmap(pm, 0)
    # the pixmap's own memory (samples_mv), not a copy of it (samples): one copy, to BGR
    return _bgr(np.frombuffer(pm.samples_mv, np.uint8).reshape(pm.height, pm.width, pm.n))


def on_white(bgr, alpha, out=None):
    """Pixels with transparency as printed on white paper (BGR uint8). One formula for an
    image file and for a PDF's image with its soft mask, so both routes see the same pixels.
    Computed a band of rows at a time (the 16-bit working copies of a 40-megapixel image
    were 700 MB); `out` (may be `bgr` itself) receives the result."""
    import numpy as np

    if int(alpha.min()) == 255:  # opaque everywhere (matplotlib's default)
        if out is None:
            return np.ascontiguousarray(bgr)
        if out is not bgr:
            out[...] = bgr
        return out
    if out is None:
        out = np.empty(bgr.shape, np.uint8)
    rows = max(1, (1 << 20) // max(bgr.shape[1], 1))
    for y in range(0, bgr.shape[0], rows):
        b = bgr[y:y + rows].astype(np.uint16)
        clear = (255 - alpha[y:y + rows].astype(np.uint16))[:, :, None]
        # bgr + (255 - bgr) * (1 - a), rounded: equal to (bgr a + 255 (255 - a) + 127) // 255
        out[y:y + rows] = b + ((255 - b) * clear + 127) // 255
    return out


def decode_pdf_image(doc, xref: int):
    """A PDF image stream's pixels as BGR, as printed on white (a soft mask applied), or None.
    A JPEG's own bytes are decoded as they are; other streams are decoded by MuPDF straight to
    pixels (extract_image would re-encode them as PNG first, 12 ms for a 900x600 image)."""
    import os

    try:
        st = os.stat(doc.name)
        key = ("pdf", os.path.abspath(doc.name), st.st_mtime_ns, st.st_size, xref)
    except (OSError, TypeError, ValueError):
        key = None
    hit = _recall(key) if key is not None else None
    if hit is not None:
        return hit
    try:
        n = int(doc.xref_get_key(xref, "Width")[1]) * int(doc.xref_get_key(xref, "Height")[1]) * 3
    except (TypeError, ValueError):
        n = None
    make_room(n)
    try:
        arr = _decode_pdf_image(doc, xref)
    finally:
        drop_mupdf_store()
    return _remember(key, arr) if key is not None and arr is not None else arr


def _decode_pdf_image(doc, xref: int):
    import cv2
    import numpy as np
    import pymupdf

    jpeg = "DCTDecode" in doc.xref_get_key(xref, "Filter")[1]
    if jpeg:
        import io

        from PIL import Image

        info = doc.extract_image(xref)
        if not info or not info.get("image"):
            return None
        # PIL, as load_bgr decodes a .jpg file: the same decoder gives the same pixels
        with Image.open(io.BytesIO(info["image"])) as im:
            del info
            bgr = pil_bgr(im)
    else:
        bgr = pixmap_bgr(pymupdf.Pixmap(doc, xref))  # its alpha, if MuPDF kept one, is the SMask below
    if bgr is None:
        return None
    kind, val = doc.xref_get_key(xref, "SMask")
    if kind == "xref":
        mask = pymupdf.Pixmap(doc, int(val.split()[0]))
        a = np.frombuffer(mask.samples_mv, np.uint8).reshape(mask.height, mask.width, mask.n)[:, :, 0]
        if a.shape != bgr.shape[:2]:
            a = cv2.resize(a, (bgr.shape[1], bgr.shape[0]), interpolation=cv2.INTER_LINEAR)
        bgr = on_white(bgr, a, out=bgr)  # bgr is this function's own array: changed in place
        del a, mask
    return bgr


def render_region(pdf_path: str, page: int, bbox, images, turn: int = 0) -> "object | None":
    """Render a figure region of a PDF page (for raster figures inside a paper) as BGR; `turn`:
    the region is in the page turned by that many degrees (figure.extra["turn"], pdf_turn)."""
    import numpy as np
    import pymupdf
    from figlint.ingest.mupdf import open_pdf

    # Rendering decodes the images placed in the region: one declared larger than the decode
    # cap (figlint/budget.py) is a decompression bomb whatever the resolution asked for.
    big = max(images, key=lambda i: i.width_px * i.height_px, default=None)
    if big is not None and big.width_px * big.height_px > budget.MAX_DECODE_PIXELS:
        raise budget.FigureSkipped(f"it places an image of {big.width_px:,} x {big.height_px:,} pixels "
                                   f"(at most {budget.MAX_DECODE_PIXELS:,} pixels are decoded)")
    native = max((i.effective_dpi for i in images), default=200.0)  # vector art: 200 DPI reads 6 pt labels
    dpi = max(100.0, min(native, 300.0))
    with open_pdf(pdf_path) as doc:
        from figlint.ingest.pdf_turn import upright

        pg = upright(doc[page - 1], turn)
        clip = pymupdf.Rect(*bbox) if bbox else pg.rect
        # Cap the pixels rendered (figlint/budget.py): a huge page or region at this resolution
        # would allocate gigabytes. Lower the resolution; skip when labels would be unreadable.
        area_in = max(clip.width, 0.0) * max(clip.height, 0.0) / 72.0 / 72.0
        if area_in * dpi * dpi > budget.MAX_RENDER_PIXELS:
            dpi = (budget.MAX_RENDER_PIXELS / area_in) ** 0.5
            if dpi < budget.MIN_RENDER_DPI:
                raise budget.FigureSkipped(f"a region of {clip.width / 72:.0f} x {clip.height / 72:.0f} in "
                                           "is too large to render at a readable resolution")
        make_room(None)
        try:
            pix = pg.get_pixmap(dpi=int(dpi), clip=clip, alpha=False)
        finally:
            drop_mupdf_store()  # the images it decoded to render the region
        arr = np.frombuffer(pix.samples_mv, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
        out = np.ascontiguousarray(arr[:, :, :3][:, :, ::-1])
        del arr, pix
    return out


@dataclass
class RasterMarks:
    width: int
    height: int
    scale: float  # work px per original px
    rects: list[tuple[float, float, float, float]] = field(default_factory=list)
    curves: int = 0
    curve_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    markers: int = 0
    heatmap: bool = False
    photo: bool = False
    fg_fraction: float = 0.0
    colours: int = 0
    areas: list[tuple[float, float, float, float]] = field(default_factory=list)
    box_parts: int = 0  # rectangles split by a median line: box plots, not bars
    work: object = None  # the analysed BGR image (numpy), for colour queries
    fg: object = None  # foreground mask without text (numpy bool array), for geometric queries
    ink: object = None  # anything but the background, light grid lines included, without text

    def __getstate__(self):
        # Pickled with a figure record (the results cache): the pixels stay behind, a few MB
        # per figure that no cached result reads.
        state = dict(self.__dict__)
        state["work"] = state["fg"] = state["ink"] = None
        return state

    def fg_columns(self, x0: float, x1: float, y0: float, y1: float) -> float:
        """Fraction of pixel columns in [x0, x1) that hold foreground between y0 and y1."""
        import numpy as np

        if self.fg is None:
            return 0.0
        x0, x1 = max(int(x0), 0), min(int(x1), self.width)
        y0, y1 = max(int(y0), 0), min(int(y1), self.height)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        band = self.fg[y0:y1, x0:x1]
        return float(np.count_nonzero(band.any(axis=0))) / (x1 - x0)

    def fg_columns_right(self, x: float, y0: float, y1: float) -> float:
        """How many pixel columns right of x hold non-text marks within rows y0..y1. Light
        grid lines count, as rules do in a vector figure: a second panel of a light style
        (seaborn's whitegrid) is otherwise only its data line and frame."""
        import numpy as np

        mask = self.ink if self.ink is not None else self.fg
        if mask is None:
            return 0.0
        x = max(int(x), 0)
        band = mask[max(int(y0), 0):min(int(y1), self.height), x:]
        return float(np.count_nonzero(band.sum(axis=0) >= 2))

    def gradient_strip(self, x0: float, x1: float, y0: float, y1: float) -> bool:
        """Whether the middle column of x0..x1 runs through several colours (a colour bar)."""
        import numpy as np

        if self.work is None:
            return False
        xm = int((x0 + x1) / 2)
        col = self.work[max(int(y0), 0):min(int(y1), self.height), min(max(xm, 0), self.width - 1)]
        if len(col) < 8:
            return False
        q = (col // 32).astype(np.int32)
        codes = (q[:, 0] << 6) | (q[:, 1] << 3) | q[:, 2]
        counts = np.bincount(codes, minlength=512)
        return int(np.count_nonzero(counts >= 0.04 * len(col))) >= 4


def image_digest(img) -> str:
    import numpy as np

    h = hashlib.sha256(memoryview(np.ascontiguousarray(img)).cast("B"))  # no copy of the pixels
    h.update(repr(img.shape).encode())
    return h.hexdigest()[:32]


def ocr(img, digest: str, scale: float) -> list[Token]:
    """OCR tokens of `img` in work pixels (`scale` work px per image px), legacy settings."""
    from figlint.features.ocr import ocr_tokens

    return [_token(d, scale) for d in ocr_tokens(img, digest)]


def _token(d: dict, scale: float) -> Token:
    x0, y0, x1, y1 = (v * scale for v in d["bbox"])
    text = d["text"]
    rotated = (y1 - y0) > 1.5 * (x1 - x0) and len(text.strip()) >= 3
    return Token(text=text, bbox=(x0, y0, x1, y1), conf=d["conf"], rotated=rotated)


# --- the raster reading: one image at its printed size --------------------------------------

DET_DPI = 200.0  # pixels per printed inch the text detector sees: 3 pt text is then ~8 px high
MAX_DET_SIDE = 1024  # ... and at most this many pixels on its long side (cost grows with pixels)
MAX_UPSCALE = 2.0  # small web graphics: labels a few px high read better enlarged
# Vertical metrics (fractions of the font size) of the glyphs that bound a label's ink: capitals
# and digits (Helvetica 0.72, DejaVu 0.73, Times 0.66, Computer Modern 0.68: a middle value),
# lowercase without ascenders, descenders, brackets.
CAP, XHEIGHT, DESC, BRACKET_TOP, BRACKET_BOTTOM = 0.70, 0.52, 0.21, 0.75, 0.20
_TALL = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789bdfhklt%$#&@!?/\\|")
_BRACKETS = set("()[]{}")
_DESCENDERS = set("gjpqy,;")


@dataclass
class Reading:
    """What the pixels of one raster image say: OCR tokens (in analysis pixels), the marks
    found by classical vision, and the printed size of each token's text."""

    tokens: list[Token]
    marks: RasterMarks
    scale: float  # analysis px per image px
    pt_per_px: float | None  # printed points per image pixel (None: print size unknown)
    sizes: list[float | None]  # printed text size of each token in pt (None: not measurable)
    det_scale: float
    text_like: bool  # the cheap test found text-like strokes (else OCR was not run)


def det_scale(shape, printed: tuple[float, float] | None) -> float:
    """The factor the detector's input is resized by: DET_DPI at the printed size when it is
    known, capped at MAX_DET_SIDE and MAX_UPSCALE. Of unknown size: the image's own pixels
    (small ones enlarged towards ocr.UPSCALE_TO), at most ocr.MAX_SIDE on the long side,
    since nothing says its labels are larger than the pixels show (a screen chart of
    1,200 px with 8 px tick labels loses them at 1,024)."""
    from figlint.features.ocr import MAX_SIDE, MIN_SIDE, UPSCALE_TO

    h, w = shape[:2]
    side = max(h, w, 1)
    if printed and printed[0] > 0 and printed[1] > 0:
        native = max(w / (printed[0] / 72.0), h / (printed[1] / 72.0))
        f = DET_DPI / native
        cap = MAX_DET_SIDE
    else:
        f = MAX_SIDE / side if side > MAX_SIDE else (min(2.0, UPSCALE_TO / side) if side < MIN_SIDE else 1.0)
        # and, as the detector was trained to see, at least 640 px on the short side (a 320 x
        # 236 px web chart's 8 px labels are found at 870 x 640, half of them at 640 x 472)
        f *= max(1.0, min(640.0 / max(f * min(h, w), 1), MAX_SIDE / max(f * side, 1)))
        return round(max(min(f, MAX_SIDE / side), 32.0 / max(min(h, w), 1)), 4)
    f = min(f, cap / side, MAX_UPSCALE)
    f = max(f, 32.0 / max(min(h, w), 1))  # the detector needs some pixels
    return round(f, 4)


def text_like(img, f: float) -> bool:
    """A cheap test for text: at the detector's scale, small high-contrast strokes of similar
    height standing side by side in a row (or a column), as glyphs of a label do. A
    photograph, a microscopy image or a heat map without labels has none or few such rows."""
    import cv2
    import numpy as np

    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    g = grey if abs(f - 1) < 1e-3 else cv2.resize(grey, None, fx=f, fy=f,
                                                  interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
    hist = np.bincount((g // 16).ravel(), minlength=16)
    bg = int(hist.argmax()) * 16 + 8
    # Strong ink first; then pale ink: light grey tick labels on white (a light theme's
    # #bbb is 60 grey levels from the paper) are text all the same.
    dev = cv2.absdiff(g, bg)  # |g - bg|, as np.abs(g.astype(np.int16) - bg) (values 0..255)
    return any(_strokes_text_like((dev > c).astype(np.uint8)) for c in (64, 36))


def _strokes_text_like(ink) -> bool:
    import cv2
    import numpy as np

    n, _lab, st, _c = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if n <= 2:
        return False
    x, y, w, h, a = (st[1:, i] for i in range(5))
    glyph = (h >= 4) & (h <= 60) & (w <= 1.6 * h) & (a >= 0.12 * w * h) & (w >= 1)
    idx = np.nonzero(glyph)[0]
    # Labels whose glyphs touch (a blurred JPEG, bold digits enlarged) are one stroke each, a
    # few times wider than high: a column of them ("306", "305", ... right-aligned) or a row
    # on one baseline is the layout of tick labels too.
    word = (h >= 4) & (h <= 60) & (w > 1.6 * h) & (w <= 6 * h) & (a >= 0.2 * w * h)
    wdx = np.nonzero(word)[0][:600]
    if len(wdx) >= 4 and _aligned(x[wdx].astype(float), y[wdx].astype(float), w[wdx].astype(float), h[wdx].astype(float)):
        return True
    if len(idx) < 3:
        return False
    if len(idx) > 4000:
        idx = idx[:4000]
    gx, gy, gw, gh = x[idx].astype(float), y[idx].astype(float), w[idx].astype(float), h[idx].astype(float)
    if _aligned(gx, gy, gw, gh):
        return True
    paired = 0
    order = np.argsort(gx)
    gx, gy, gw, gh = gx[order], gy[order], gw[order], gh[order]
    for axis in (0, 1):
        # along rows (axis 0) and, for rotated labels, along columns (axis 1)
        a0, a1, ext, hh = (gx, gy, gw, gh) if axis == 0 else (gy, gx, gh, gw)
        o = np.argsort(a0)
        a0, a1, ext, hh = a0[o], a1[o], ext[o], hh[o]
        for i in range(len(a0)):
            j = i + 1
            end = a0[i] + ext[i]
            while j < len(a0) and a0[j] <= end + 1.2 * hh[i]:
                if abs(hh[j] - hh[i]) <= 0.5 * max(hh[i], hh[j]) and abs((a1[j] + hh[j]) - (a1[i] + hh[i])) <= 0.35 * hh[i] + 1:
                    paired += 1
                    break
                j += 1
            if paired >= 4:
                return True
    return False


def _aligned(x, y, w, h) -> bool:
    """Four strokes of one height on one baseline (a row of tick labels "A B C D") or with one
    right edge (a column of tick labels "10 20 30 40"): the layout of a chart's labels."""
    import numpy as np

    if len(x) < 4:
        return False
    if len(x) > 600:
        x, y, w, h = x[:600], y[:600], w[:600], h[:600]
    similar = np.abs(h[:, None] - h[None, :]) <= 0.25 * np.maximum(h[:, None], h[None, :]) + 1
    tol = 0.15 * h[:, None] + 1
    row = similar & (np.abs((y + h)[:, None] - (y + h)[None, :]) <= tol)
    col = similar & (np.abs((x + w)[:, None] - (x + w)[None, :]) <= tol)
    return bool((row.sum(axis=1) >= 4).any() or (col.sum(axis=1) >= 4).any())


def text_height(grey, box, text: str) -> float | None:
    """The font size, in image pixels, of the label in `box` (image px): the height of its ink
    divided by the vertical extent its characters span (capitals/digits, x-height,
    descenders, brackets). Rules across the box (a grid line, a spine) are not ink of
    the label; glyphs cut by the box's edge are not counted."""
    import cv2
    import numpy as np

    chars = set(text.strip())
    if not chars or not any(c.isalnum() for c in chars):
        return None
    top = BRACKET_TOP if chars & _BRACKETS else (CAP if chars & _TALL or any(c.isupper() for c in chars) else XHEIGHT)
    bottom = BRACKET_BOTTOM if chars & _BRACKETS else (DESC if chars & _DESCENDERS else 0.0)
    H, W = grey.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    crop = grey[y0:y1, x0:x1].astype(np.int16)
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    bg = int(np.median(border))
    diff = np.abs(crop - bg)
    peak = int(diff.max())
    if peak < 40:
        return None
    ink = (diff > max(32, peak // 2)).astype(np.uint8)
    ink[ink.mean(axis=1) > 0.85, :] = 0  # horizontal rules through the box
    ink[:, ink.mean(axis=0) > 0.9] = 0  # vertical rules
    n, _lab, st, _c = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if n <= 1:
        return None
    h, w = ink.shape
    tops, bottoms = [], []
    for i in range(1, n):
        cx, cy, cw, ch, area = (int(v) for v in st[i])
        if area < 2 or cy == 0 or cy + ch >= h:
            continue  # specks; glyphs of a neighbouring line cut by the box
        tops.append(cy)
        bottoms.append(cy + ch)
    if not tops:
        return None
    ink_h = max(bottoms) - min(tops)
    if ink_h < 3:
        return None
    return ink_h / (top + bottom)


_READINGS: dict[tuple, Reading] = {}
_READINGS_MAX = 6  # readings hold pixels: keep only the last few (a figure's rules ask in turn)


def read_image(img, printed: tuple[float, float] | None, digest: str = "", size_known: bool = True) -> Reading:
    """The one raster reading, for a placed image of a paper (PDF or LaTeX route) and an image
    file alike: `img` is the image's own pixels (BGR), `printed` its printed size in points
    (None: unknown). OCR runs only when the cheap text test finds text-like strokes, with
    the detector at DET_DPI of the printed size; each token's text size is measured on the
    image's pixels and converted to points at print scale.

    `size_known=False`: `printed` is an assumption (a standalone image file that records no
    resolution is taken at 300 DPI, ingest/graphics.py). Text sizes are still converted at
    it, but the detector sees the image as an image of unknown size does (its own pixels,
    small web graphics enlarged): a chart saved for the screen at 96 DPI, read as if printed
    at 300, had its detector input shrunk to two thirds and lost tick labels 8-10 px high."""
    digest = digest or image_digest(img)
    key = (digest, None if printed is None else (round(printed[0], 2), round(printed[1], 2)), size_known)
    hit = _READINGS.get(key)
    if hit is not None:
        return hit
    import cv2

    h0, w0 = img.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h0, w0))
    f = det_scale(img.shape, printed if size_known else None)
    found = text_like(img, f)
    raw: list[dict] = []
    if found:
        from figlint.features.ocr import read_text

        raw = read_text(img, digest, f)
    tokens = [_token(d, scale) for d in raw]
    pt_per_px = None
    if printed and printed[0] > 0 and printed[1] > 0:
        pt_per_px = (printed[0] / w0 + printed[1] / h0) / 2
    sizes: list[float | None] = []
    if raw:
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        for d, t in zip(raw, tokens):
            px = None if t.rotated else text_height(grey, d["bbox"], d["text"])
            sizes.append(None if px is None or pt_per_px is None else round(px * pt_per_px, 2))
    marks = analyse_pixels(img, tokens)
    reading = Reading(tokens, marks, scale, pt_per_px, sizes, f, found)
    while len(_READINGS) >= _READINGS_MAX:
        _READINGS.pop(next(iter(_READINGS)))
    _READINGS[key] = reading
    return reading


def analyse_pixels(img, tokens: list[Token]) -> RasterMarks:
    import cv2
    import numpy as np

    from figlint.features import pixels as P

    h0, w0 = img.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h0, w0))
    work = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else img
    H, W = work.shape[:2]
    marks = RasterMarks(width=W, height=H, scale=scale)
    marks.work = work

    chans = P.planes(work)
    codes = P.colour_codes(chans, 3)
    counts = np.bincount(codes.ravel(), minlength=512)
    total = H * W
    # The background is the commonest colour, except that a white border wins: a
    # filled area can cover more of the picture than the paper it is printed on.
    bg_code = int(counts.argmax())
    b = max(2, min(H, W) // 50)
    border = np.concatenate([codes[:b].ravel(), codes[-b:].ravel(), codes[:, :b].ravel(), codes[:, -b:].ravel()])
    border_code = int(np.bincount(border, minlength=512).argmax())
    if border_code == 511 and bg_code != 511 and counts[511] >= 0.2 * total:
        bg_code = border_code
    bg = np.array([(bg_code >> 6) & 7, (bg_code >> 3) & 7, bg_code & 7]) * 32 + 16
    diff = P.deviation(chans, bg)
    fg = diff > 48
    text = np.zeros((H, W), dtype=bool)
    boxes = []
    for t in tokens:
        x0, y0, x1, y1 = (int(round(v)) for v in t.bbox)
        boxes.append((x0 - 2, y0 - 2, x1 + 2, y1 + 2))
        text[max(y0 - 2, 0):y1 + 2, max(x0 - 2, 0):x1 + 2] = True
    fg &= ~text
    marks.fg = fg
    marks.ink = (diff > 20) & ~text
    marks.fg_fraction = float(fg.mean())
    frequent = [c for c in np.argsort(counts)[::-1][:24] if counts[c] >= 0.002 * total and c != bg_code]
    marks.colours = len(frequent)
    marks.photo = int(np.count_nonzero(counts >= 0.0005 * total)) > 120

    # Solid rectangles of one colour: bar candidates. Colours are taken two ways —
    # coarse RGB bins and, for saturated pixels, hue bins (robust to JPEG noise and
    # gradients) — and a rectangle's holes (value labels printed inside) are ignored.
    min_area = max(30.0, 0.0004 * total)
    kernel = np.ones((3, 3), np.uint8)
    smooth = cv2.medianBlur(work, 3)
    scodes = P.colour_codes(P.planes(smooth), 3)
    masks = [(scodes == c) for c in frequent]
    hsv = cv2.cvtColor(smooth, cv2.COLOR_BGR2HSV)
    sat = (hsv[:, :, 1] >= 70) & (hsv[:, :, 2] >= 60)
    hue = hsv[:, :, 0] >> 3  # 23 bins of 16 degrees (OpenCV hue is 0..179)
    hcounts = np.bincount(hue[sat].ravel(), minlength=23) if sat.any() else np.zeros(23, int)
    for hb in np.nonzero(hcounts >= 0.002 * total)[0]:
        masks.append(sat & (hue == hb))
    seen = set()
    # a second, wider opening cuts bars loose from axis lines and frames of their colour
    wide = np.ones((max(5, round(0.007 * max(W, H))),) * 2, np.uint8)
    for m, k in [(m, k) for m in masks for k in (kernel, wide)]:
        for cnt in _opened_contours(m, k, wide.shape[0] + 1):
            x, y, w, h = cv2.boundingRect(cnt)
            if w < 3 or h < 3 or w * h < min_area:
                continue
            if w > 0.9 * W and h > 0.9 * H:
                continue  # a background panel
            if cv2.contourArea(cnt) >= 0.85 * w * h:
                key = (x // 3, y // 3, (x + w) // 3, (y + h) // 3)
                if key not in seen:
                    seen.add(key)
                    marks.rects.append((float(x), float(y), float(x + w), float(y + h)))

    marks.box_parts = _box_parts(marks.rects, smooth, H)

    # Data curves: foreground left after removing straight horizontal/vertical rules.
    fgu = fg.astype(np.uint8)
    long_h = cv2.morphologyEx(fgu, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (max(W // 12, 8), 1)))
    long_v = cv2.morphologyEx(fgu, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, max(H // 12, 8))))
    rest = fgu & ~(long_h | long_v)
    rest = cv2.dilate(rest, kernel)
    _n, _lab, stats, _cent = cv2.connectedComponentsWithStats(rest, connectivity=8)
    x, y, w, h, area = stats[1:].astype(np.int64).T  # every component but the background
    curve = (w >= 0.2 * W) & (area < 0.25 * w * np.maximum(h, 1)) & (h >= 4)
    marks.curves = int(np.count_nonzero(curve))
    marks.curve_boxes = [(float(a), float(b), float(a + c), float(b + d))
                         for a, b, c, d in zip(x[curve], y[curve], w[curve], h[curve])]
    blob = ~curve & (w >= 4) & (w <= 0.03 * W + 4) & (h >= 4) & (h <= 0.03 * H + 4) & (area >= 0.5 * w * h)
    if blob.any():
        _sizes, same = np.unique(np.stack([w[blob] // 2, h[blob] // 2], axis=1), axis=0, return_counts=True)
        marks.markers = int(same.max())
    # A colour field (heatmap, map, image): much of the picture is coloured, in many
    # colours none of which dominates. A filled area or big bars have one main colour.
    fg_counts = np.bincount(codes[fg].ravel(), minlength=512) if fg.any() else np.zeros(512, int)
    fg_total = max(int(fg_counts.sum()), 1)
    shares = np.sort(fg_counts)[::-1] / fg_total
    marks.heatmap = bool(marks.fg_fraction > 0.35 and shares[0] < 0.45 and np.count_nonzero(shares >= 0.02) >= 6)
    # Pale fills (a light tint under a line) differ from the paper by less than the
    # foreground threshold: a colour covering at least 5 % of the picture counts as filled,
    # with the grid lines drawn across it closed over.
    pale = np.zeros((H, W), np.uint8)
    for c in frequent:
        if counts[c] >= 0.05 * total:
            pale |= (scodes == c).astype(np.uint8)
    if pale.any():
        pale = cv2.morphologyEx(pale, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    filled = fgu | pale
    marks.areas = _areas(filled | _text_inside(filled, boxes), W, H, scodes)
    return marks


def _opened_contours(m, k, reach: int) -> list:
    """The outer contours of bool mask `m` opened with kernel `k`, in image coordinates.
    The opening (and so the contours) depends only on the pixels within `reach` (more than
    a kernel's size) of the set ones: it runs on that window of the image only, and the
    contours are shifted back, the same points in the same order as on the whole image."""
    import cv2
    import numpy as np

    u8 = np.ascontiguousarray(m).view(np.uint8)
    x, y, w, h = cv2.boundingRect(u8)
    if w == 0 or h == 0:
        return []
    H, W = u8.shape
    x0, y0 = max(x - reach, 0), max(y - reach, 0)
    win = u8[y0:min(y + h + reach, H), x0:min(x + w + reach, W)]
    opened = cv2.morphologyEx(win, cv2.MORPH_OPEN, k)
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0))
    return contours


def _box_parts(rects, img, H: int) -> int:
    """Box-plot boxes: a rectangle split by a thin median line into two parts of one colour."""
    import numpy as np

    def colour(r):
        x0, y0, x1, y1 = (int(v) for v in r)
        return img[y0:y1, x0:x1].reshape(-1, 3).mean(axis=0)

    gap_max = max(4.0, 0.012 * H)
    W = img.shape[1]
    pairs = 0
    for lower in rects:
        if lower[2] - lower[0] > 0.12 * W:
            continue  # a plot panel cut by grid lines, not a box
        c = colour(lower)
        if c.max() - c.min() < 25:
            continue  # grey: a panel background between grid lines; boxes of a box plot are filled with colour
        for upper in rects:
            if upper is lower or abs(upper[0] - lower[0]) > 2 or abs(upper[2] - lower[2]) > 2:
                continue
            gap = lower[1] - upper[3]
            if 0.5 <= gap <= gap_max and np.abs(colour(upper) - colour(lower)).max() < 24:
                # a grid line drawn over a bar or area runs on past its sides; a median does not
                y = int((upper[3] + lower[1]) / 2)
                w = W
                mid = img[y, int((lower[0] + lower[2]) / 2)].astype(int)
                outside = [img[y, x].astype(int) for x in (int(lower[0]) - 4, int(lower[2]) + 4) if 0 <= x < w]
                if outside and all(np.abs(o - mid).max() < 24 for o in outside):
                    continue
                # exactly two parts: a panel cut by several grid lines stacks three or more
                def stacked(r, above: bool) -> bool:
                    for q in rects:
                        if q is r or abs(q[0] - r[0]) > 2 or abs(q[2] - r[2]) > 2:
                            continue
                        g = (r[1] - q[3]) if above else (q[1] - r[3])
                        if 0.5 <= g <= gap_max:
                            return True
                    return False

                if stacked(upper, True) or stacked(lower, False):
                    continue
                pairs += 1
                break
    return pairs


def _text_inside(filled, boxes) -> "object":
    """The text boxes that a filled region surrounds (labels printed on an area), as a mask:
    filled just outside the box on all four sides. Tick labels beside or below an area
    touch it on one side only and stay out."""
    import numpy as np

    H, W = filled.shape
    out = np.zeros_like(filled)
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        probes = [(y0 - 3, cx), (y1 + 2, cx), (cy, x0 - 3), (cy, x1 + 2)]
        if all(0 <= y < H and 0 <= x < W and filled[y, x] for y, x in probes):
            out[max(y0, 0):y1, max(x0, 0):x1] = 1
    return out


def _areas(mask, W: int, H: int, codes=None) -> list[tuple[float, float, float, float]]:
    """Filled areas standing on a flat bottom edge with a varying top (area charts), filled
    with a few colours (one per layer; `codes`: the picture's colour bins). A heatmap's field,
    many colours in blocks, is not an area, whatever the outline of its coloured part."""
    import cv2
    import numpy as np

    # thick regions only: rules, grid lines and curves (a few px wide) drop out
    k = max(5, round(0.006 * max(W, H)))
    mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    # A connected region covers every column (row) between its ends: without a run of
    # occupied columns 0.3 W long and of rows 0.1 H long, no region is wide and tall
    # enough below, and the labelling (most of this function's time) is not needed.
    if _longest_run(mask.any(axis=0)) < 0.3 * W or _longest_run(mask.any(axis=1)) < 0.1 * H:
        return []
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    out = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if w < 0.3 * W or h < 0.1 * H or area < 0.2 * w * h:
            continue
        comp = lab[y:y + h, x:x + w] == i
        cols = comp.any(axis=0)
        if cols.mean() < 0.95:
            continue
        bottom = h - 1 - np.argmax(comp[::-1, :], axis=0)  # lowest pixel of each column
        top = np.argmax(comp, axis=0)
        heights = bottom - top + 1
        filled = comp.sum(axis=0) / np.maximum(heights, 1)
        if np.mean(np.abs(bottom - (h - 1)) <= 3) < 0.9 or filled.mean() < 0.85:
            continue
        if (heights.max() - heights.min()) < 0.15 * heights.max():
            continue  # a flat band: a panel or a single block, not an area
        if codes is not None:
            shares = np.bincount(codes[y:y + h, x:x + w][comp].ravel(), minlength=512) / max(int(comp.sum()), 1)
            if int((shares >= 0.05).sum()) > 4:
                continue  # many colours in blocks: a heatmap, not layers of an area chart
        out.append((float(x), float(y), float(x + w), float(y + h)))
    return out


def _longest_run(occupied) -> int:
    """The length of the longest run of True in a 1-D bool array."""
    import numpy as np

    edges = np.diff(np.concatenate(([0], occupied.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return int((ends - starts).max()) if len(starts) else 0
