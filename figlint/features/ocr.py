"""OCR for raster figures: RapidOCR (PP-OCR models shipped in its wheel), lazy and cached.

`ocr_tokens(image, digest)` returns the text boxes of an image in its own pixel
coordinates. The engine is created once per process, on first use, so vector
figures never pay for it. Results are cached per image content hash, in memory
and on disk as JSON under `<cache dir>/ocr/` (figlint/cache.py says where; with
--no-cache nothing is read from or written to disk). Large
images are downscaled to at most 1280 px on the long side before OCR (tick
labels stay legible there and it keeps a figure near a second on a laptop
CPU); small web graphics are upscaled towards 1000 px, which reads their
few-pixel labels far better.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

OCR_VERSION = "rapidocr3-ppocrv6-1280-b4"  # part of the cache key: bump when settings change
MAX_SIDE = 1280
MIN_SIDE = 700  # images smaller than this are upscaled for OCR ...
UPSCALE_TO = 1000  # ... towards this long side, at most 2x

_ENGINE = None
_LOCK = threading.Lock()
_MEMO: dict[str, list[dict]] = {}


def cache_dir() -> Path:
    from figlint.cache import cache_root  # one definition of where the cache lives

    return cache_root() / "ocr"


def digest_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def _engine():
    global _ENGINE
    with _LOCK:
        if _ENGINE is None:
            import logging

            from rapidocr import RapidOCR

            _ENGINE = RapidOCR(params={
                "Global.use_cls": False,  # axis labels are upright or rotated 90°, never 180°
                "Global.log_level": "error",
                "Global.max_side_len": MAX_SIDE,
                "Det.limit_side_len": 640,
                # Crops of a batch are padded to the widest one: with 16 a single long title
                # made every tick label cost as much as the title, and the padding blurred the
                # short labels' readings. 4 (crops are sorted by width) halves the time on
                # text-heavy charts and reads better (benchmarks/RESULTS.md, charts speed).
                "Rec.rec_batch_num": 4,
            })
            logging.getLogger("RapidOCR").setLevel(logging.ERROR)
    return _ENGINE


def _scale(img) -> float:
    """Downscale large images; upscale small ones (web graphics), whose labels are a few px high."""
    side = max(img.shape[:2])
    if side > MAX_SIDE:
        return MAX_SIDE / side
    if side < MIN_SIDE:
        return min(2.0, UPSCALE_TO / side)
    return 1.0


def _run(img) -> list[dict]:
    """OCR a BGR numpy image; boxes are returned in that image's pixels."""
    import cv2

    scale = _scale(img)
    if scale < 1:
        small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    elif scale > 1:
        small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    else:
        small = img
    out = _engine()(small)
    tokens = []
    if out is None or out.boxes is None or out.txts is None:
        return tokens
    for box, text, score in zip(out.boxes, out.txts, out.scores):
        xs = [float(p[0]) / scale for p in box]
        ys = [float(p[1]) / scale for p in box]
        tokens.append({
            "text": str(text),
            "bbox": [round(min(xs), 1), round(min(ys), 1), round(max(xs), 1), round(max(ys), 1)],
            "conf": round(float(score), 4),
        })
    return tokens


def ocr_tokens(img, digest: str) -> list[dict]:
    """Text boxes of `img` (BGR array) as dicts {text, bbox [x0,y0,x1,y1] px, conf}; cached by digest."""
    scale = _scale(img)
    key = f"{digest}-{OCR_VERSION}" + (f"-up{scale:.3f}" if scale > 1 else "")
    if key in _MEMO:
        return _MEMO[key]
    from figlint import cache

    if not cache.enabled():  # --no-cache
        tokens = _MEMO[key] = _run(img)
        return tokens
    path = cache_dir() / f"{key}.json"
    try:
        tokens = json.loads(path.read_text())
        _MEMO[key] = tokens
        cache.touch(path)
        return tokens
    except (OSError, ValueError):
        pass
    tokens = _run(img)
    _MEMO[key] = tokens
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(tokens))
        tmp.replace(path)
    except OSError:
        return tokens  # a read-only tree still gets the in-memory cache
    cache.prune(path.parent, cache.MAX_OCR_BYTES)
    return tokens
