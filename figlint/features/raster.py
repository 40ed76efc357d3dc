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
from dataclasses import dataclass, field

from figlint import budget
from figlint.features.axes import Token

WORK_SIDE = 1000


def load_bgr(path: str):
    """Any image PIL reads, as a BGR uint8 array, transparent areas on white."""
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
        if im.mode in ("RGBA", "LA", "P", "PA"):
            im = im.convert("RGBA")
            bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
            im = Image.alpha_composite(bg, im)
        rgb = np.asarray(im.convert("RGB"))
    return np.ascontiguousarray(rgb[:, :, ::-1])


def render_region(pdf_path: str, page: int, bbox, images) -> "object | None":
    """Render a figure region of a PDF page (for raster figures inside a paper) as BGR."""
    import numpy as np
    import pymupdf

    # Rendering decodes the images placed in the region: one declared larger than the decode
    # cap (figlint/budget.py) is a decompression bomb whatever the resolution asked for.
    big = max(images, key=lambda i: i.width_px * i.height_px, default=None)
    if big is not None and big.width_px * big.height_px > budget.MAX_DECODE_PIXELS:
        raise budget.FigureSkipped(f"it places an image of {big.width_px:,} x {big.height_px:,} pixels "
                                   f"(at most {budget.MAX_DECODE_PIXELS:,} pixels are decoded)")
    native = max((i.effective_dpi for i in images), default=200.0)  # vector art: 200 DPI reads 6 pt labels
    dpi = max(100.0, min(native, 300.0))
    with pymupdf.open(pdf_path) as doc:
        pg = doc[page - 1]
        clip = pymupdf.Rect(*bbox) if bbox else pg.rect
        # Cap the pixels rendered (figlint/budget.py): a huge page or region at this resolution
        # would allocate gigabytes. Lower the resolution; skip when labels would be unreadable.
        area_in = max(clip.width, 0.0) * max(clip.height, 0.0) / 72.0 / 72.0
        if area_in * dpi * dpi > budget.MAX_RENDER_PIXELS:
            dpi = (budget.MAX_RENDER_PIXELS / area_in) ** 0.5
            if dpi < budget.MIN_RENDER_DPI:
                raise budget.FigureSkipped(f"a region of {clip.width / 72:.0f} x {clip.height / 72:.0f} in "
                                           "is too large to render at a readable resolution")
        pix = pg.get_pixmap(dpi=int(dpi), clip=clip, alpha=False)
        arr = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)
    return np.ascontiguousarray(arr[:, :, :3][:, :, ::-1])


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
        """How many pixel columns right of x hold non-text marks within rows y0..y1."""
        import numpy as np

        if self.fg is None:
            return 0.0
        x = max(int(x), 0)
        band = self.fg[max(int(y0), 0):min(int(y1), self.height), x:]
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
    return hashlib.sha256(img.tobytes() + repr(img.shape).encode()).hexdigest()[:32]


def ocr(img, digest: str, scale: float) -> list[Token]:
    from figlint.features.ocr import ocr_tokens

    out = []
    for d in ocr_tokens(img, digest):
        x0, y0, x1, y1 = (v * scale for v in d["bbox"])
        text = d["text"]
        rotated = (y1 - y0) > 1.5 * (x1 - x0) and len(text.strip()) >= 3
        out.append(Token(text=text, bbox=(x0, y0, x1, y1), conf=d["conf"], rotated=rotated))
    return out


def analyse_pixels(img, tokens: list[Token]) -> RasterMarks:
    import cv2
    import numpy as np

    h0, w0 = img.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h0, w0))
    work = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else img
    H, W = work.shape[:2]
    marks = RasterMarks(width=W, height=H, scale=scale)
    marks.work = work

    q = (work // 32).astype(np.int32)
    codes = (q[:, :, 0] << 6) | (q[:, :, 1] << 3) | q[:, :, 2]
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
    diff = np.abs(work.astype(np.int16) - bg.astype(np.int16)).max(axis=2)
    fg = diff > 48
    text = np.zeros((H, W), dtype=bool)
    boxes = []
    for t in tokens:
        x0, y0, x1, y1 = (int(round(v)) for v in t.bbox)
        boxes.append((x0 - 2, y0 - 2, x1 + 2, y1 + 2))
        text[max(y0 - 2, 0):y1 + 2, max(x0 - 2, 0):x1 + 2] = True
    fg &= ~text
    marks.fg = fg
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
    sq = (smooth // 32).astype(np.int32)
    scodes = (sq[:, :, 0] << 6) | (sq[:, :, 1] << 3) | sq[:, :, 2]
    masks = [(scodes == c) for c in frequent]
    hsv = cv2.cvtColor(smooth, cv2.COLOR_BGR2HSV)
    sat = (hsv[:, :, 1] >= 70) & (hsv[:, :, 2] >= 60)
    hue = hsv[:, :, 0].astype(np.int32) // 8  # 23 bins of 16 degrees
    hcounts = np.bincount(hue[sat].ravel(), minlength=23) if sat.any() else np.zeros(23, int)
    for hb in np.nonzero(hcounts >= 0.002 * total)[0]:
        masks.append(sat & (hue == hb))
    seen = set()
    # a second, wider opening cuts bars loose from axis lines and frames of their colour
    wide = np.ones((max(5, round(0.007 * max(W, H))),) * 2, np.uint8)
    for m, k in [(m, k) for m in masks for k in (kernel, wide)]:
        mask = cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_OPEN, k)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for cnt in contours:
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
    n, _lab, stats, _cent = cv2.connectedComponentsWithStats(rest, connectivity=8)
    blob_sizes = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if w >= 0.2 * W and area < 0.25 * w * max(h, 1) and h >= 4:
            marks.curves += 1
            marks.curve_boxes.append((float(x), float(y), float(x + w), float(y + h)))
        elif 4 <= w <= 0.03 * W + 4 and 4 <= h <= 0.03 * H + 4 and area >= 0.5 * w * h:
            blob_sizes.append((w, h))
    if blob_sizes:
        from collections import Counter

        marks.markers = max(Counter((w // 2, h // 2) for w, h in blob_sizes).values())
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
