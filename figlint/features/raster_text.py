"""The text of a figure's raster images, at print size: what FL102, FL103 and FL106 read.

`raster_labels(fig, paper)` goes through every raster image the figure prints
(an image input; a bitmap placed by the LaTeX sources, at its placed size; an
image placed in the compiled PDF, decoded from its stream: features/quality.
placed_images) and reads each with the one raster reading (features/raster.
read_image): OCR'd labels, each with its text size in points at print scale,
its box in the figure's points, and the contrast of its ink against the
background around it. The result is small (no pixels) and cached on the figure.
Nothing is read when OCR is off (config `ocr = "off"`).

Raster text sizes are measured, not known: a label's ink height over the
vertical extent of its characters, with a middle value for the cap height of
common fonts (features/raster.py). They can err by about 10 %, so the rules
compare them with their limits with that margin (RASTER_TOLERANCE).
"""

from __future__ import annotations

from dataclasses import dataclass

RASTER_TOLERANCE = 0.9  # a raster label counts as smaller than a limit below 0.9x the limit
MIN_CONF = 0.8  # readings below this are too unsure to size or judge
MIN_SIDE_PX = 48  # icons and rules: no labels to read


@dataclass
class RasterLabel:
    text: str
    size: float | None  # printed text size in pt (None: not measurable, or print size unknown)
    bbox: tuple[float, float, float, float]  # in the figure's points
    conf: float
    image: str
    rotated: bool = False
    contrast: float | None = None  # WCAG ratio of its ink against its background
    ink: str = ""  # colours (hex) of the ink and the background, for messages
    background: str = ""


def raster_labels(fig, paper) -> list[RasterLabel]:
    """The OCR'd labels of every raster image of `fig`, at print size (cached on the figure)."""
    cached = fig.extra.get("_raster_labels")
    if cached is not None:
        return cached
    out: list[RasterLabel] = []
    if paper is None or paper.extra.get("ocr", True):
        try:
            out = _read(fig, paper)
        except ImportError:  # OpenCV/numpy/OCR not installed: nothing read, nothing reported
            out = []
    fig.extra["_raster_labels"] = out
    return out


def _read(fig, paper) -> list[RasterLabel]:
    from figlint.features.quality import placed_images
    from figlint.features.raster import image_digest, read_image

    out: list[RasterLabel] = []
    if fig.images and not fig.spans:
        # A raster figure: its analysis (which the FL4xx rules read later, cached on the
        # figure) makes the same reading of the same pixels; made now, the reading below is
        # served from read_image's memo instead of being made twice.
        try:
            from figlint.features import analyses

            analyses(fig, paper)
        except Exception:  # noqa: BLE001 - a failed analysis is reported by the rules that need it
            pass
    for p in placed_images(fig, paper, min_side_px=MIN_SIDE_PX):
        # p.bgr only (no name of our own for the pixels): placed_images drops them before it
        # decodes the next image; the reading keeps what it needs
        h, w = p.bgr.shape[:2]
        reading = read_image(p.bgr, p.printed, image_digest(p.bgr), size_known=p.size_known)
        if not reading.tokens:
            continue
        box = p.bbox or (0.0, 0.0, float(w), float(h))
        kx = (box[2] - box[0]) / w
        ky = (box[3] - box[1]) / h
        s = reading.scale
        contrasts = _contrasts(reading)
        shown = p.visible
        for t, size, c in zip(reading.tokens, reading.sizes, contrasts):
            x0, y0, x1, y1 = (v / s for v in t.bbox)
            at = (round(box[0] + x0 * kx, 2), round(box[1] + y0 * ky, 2),
                  round(box[0] + x1 * kx, 2), round(box[1] + y1 * ky, 2))
            if shown is not None and not (shown[0] <= (at[0] + at[2]) / 2 <= shown[2]
                                          and shown[1] <= (at[1] + at[3]) / 2 <= shown[3]):
                continue  # in the part of the image its clip cuts away: it does not print
            label = RasterLabel(text=t.text.strip(), size=size, conf=float(t.conf or 0.0), image=p.name,
                                bbox=at, rotated=t.rotated)
            if c is not None:
                label.contrast, label.ink, label.background = c
            out.append(label)
    return out


def _contrasts(reading) -> list[tuple[float, str, str] | None]:
    """Each token's ink against the background around it (WCAG ratio, ink hex, background
    hex), on the analysed pixels; photographs are not judged."""
    marks = reading.marks
    work = getattr(marks, "work", None)
    if work is None or getattr(marks, "photo", False):
        return [None] * len(reading.tokens)
    return [ink_contrast(work, t.bbox) for t in reading.tokens]


def ink_contrast(work, bbox) -> tuple[float, str, str] | None:
    """(WCAG ratio, ink hex, background hex) of the text in `bbox` of a BGR image, or None
    when the box is too small to tell. The background is the median of the box's border;
    the ink is the darkest or the lightest tenth of the box, whichever stands out more: a
    grid line of the other polarity drawn across the label (white grid over a heatmap
    behind black numbers) must not be averaged into it."""
    import numpy as np

    from figlint.features import colours as C

    H, W = work.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in bbox)
    x0, y0, x1, y1 = max(x0 - 1, 0), max(y0 - 1, 0), min(x1 + 1, W), min(y1 + 1, H)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    box = work[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32)
    border = np.concatenate([work[y0, x0:x1], work[y1 - 1, x0:x1], work[y0:y1, x0], work[y0:y1, x1 - 1]]).astype(np.float32)
    bg = np.median(border, axis=0)
    bg_rgb = (bg[2] / 255, bg[1] / 255, bg[0] / 255)
    lum = box @ np.array([0.0722, 0.7152, 0.2126], np.float32)
    k = max(3, len(lum) // 10)
    order = np.argsort(lum)
    r, fg_rgb = max((C.contrast_ratio(rgb, bg_rgb), rgb) for rgb in (
        tuple(float(v) / 255 for v in box[idx].mean(axis=0)[::-1]) for idx in (order[:k], order[-k:])))
    return r, C.hex_of(fg_rgb), C.hex_of(bg_rgb)


def sized_labels(fig, paper) -> list[RasterLabel]:
    """The raster labels whose printed size is known and trustworthy: read with confidence,
    upright, with a letter or digit."""
    return [lb for lb in raster_labels(fig, paper)
            if lb.size is not None and not lb.rotated and lb.conf >= MIN_CONF and any(c.isalnum() for c in lb.text)]
