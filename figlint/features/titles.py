"""Rotated axis titles of raster figures, read upright on demand.

The OCR pass reads horizontal text well and text turned by 90° poorly ("downloads
(log scale)" comes back as "scale)", "6ol)", "oood"). A rule that needs to know what
a vertical axis title says calls `rotated_title(an, axis)`: the strip beside the tick
labels is cut from the analysed image, turned upright and read again. The result is
cached per analysis and, through the OCR cache, per image content.
"""

from __future__ import annotations


def rotated_title(an, ax) -> str:
    """The text of the vertical strip left (or right) of a y axis' labels, read upright; "" if none."""
    key = f"rotated_title:{id(ax)}"
    if key in an.derived:
        return an.derived[key]
    an.derived[key] = text = _read(an, ax)
    return text


def _read(an, ax) -> str:
    m = an.marks
    img = getattr(m, "work", None)
    if an.source != "raster" or img is None or ax.orient != "y":
        return ""
    try:
        import cv2

        from figlint.features.ocr import ocr_tokens
        from figlint.features.raster import image_digest

        u = an.unit_size
        h, w = img.shape[:2]
        y0, y1 = max(int(ax.lo - 3 * u), 0), min(int(ax.hi + 3 * u), h)
        if ax.side == "right":
            x0, x1 = min(int(ax.box[2] + 1), w), min(int(ax.box[2] + 4 * u), w)
        else:
            x0, x1 = max(int(ax.box[0] - 4 * u), 0), max(int(ax.box[0] - 1), 0)
        if x1 - x0 < 4 or y1 - y0 < 8:
            return ""
        crop = img[y0:y1, x0:x1]
        # left titles read bottom to top: turn clockwise; right ones read top to bottom
        rot = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE if ax.side != "right" else cv2.ROTATE_90_COUNTERCLOCKWISE)
        rot = cv2.copyMakeBorder(rot, 8, 8, 8, 8, cv2.BORDER_REPLICATE)
        toks = ocr_tokens(rot, image_digest(rot))
        return " ".join(t["text"] for t in toks if t.get("conf", 0) >= 0.5).strip()
    except Exception:  # noqa: BLE001 - a second look is optional evidence, never a failure
        return ""
