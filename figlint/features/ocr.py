"""OCR for raster figures: RapidOCR's PP-OCR models (features/ocr_engine.py), lazy and cached.

`read_text(image, digest, det_scale)` is what the raster reading uses: the text
detector runs on a copy of the image resized by `det_scale` (chosen by the caller
from the size the image prints at: detection only needs the text a few pixels
high, and its cost grows with the pixels it sees), then every detected line is
cut from the image's own pixels and all of them are recognised in batches. Boxes
come back in the image's own pixels. `ocr_tokens(image, digest)` (detector and
recogniser on one image, at most 1280 px on its long side, small images
upscaled) serves the second looks at small crops (rotated axis titles).

The engine is created once per process, on first use, so vector figures never
pay for it; onnxruntime runs on one thread (its thread pool's spinning cost about
20 % more CPU on a busy 2-core machine for no gain in CPU time). The recogniser
pads a batch to the widest crop but to at least 96 px (rapidocr's default is
320): a tick label "0.5" then costs a third of what it did, with the same readings
on the benchmark charts. Results are cached per image content hash and settings,
in memory and on disk as JSON under `<cache dir>/ocr/` (figlint/cache.py says where;
with --no-cache nothing is read from or written to disk).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

OCR_VERSION = "rapidocr3-ppocrv6-1280-b4-w96"  # part of the cache key: bump when settings change
READ_VERSION = "read1"  # read_text's own settings (cache key)
MAX_SIDE = 1280
MIN_SIDE = 700  # images smaller than this are upscaled for OCR ...
UPSCALE_TO = 1000  # ... towards this long side, at most 2x
REC_MIN_WIDTH = 96  # the recogniser's narrowest batch (px at 48 px height)
REC_BATCH = 4  # crops recognised per model run
MIN_SCORE = 0.5  # rapidocr's own text_score: readings below it are dropped

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
            from figlint.features.ocr_engine import load

            # Crops of a batch are padded to the widest one: with 16 a single long title
            # made every tick label cost as much as the title, and the padding blurred the
            # short labels' readings. 4 (crops are sorted by width) halves the time on
            # text-heavy charts and reads better (benchmarks/RESULTS.md, charts speed).
            _ENGINE = load(REC_BATCH, (3, 48, REC_MIN_WIDTH))
    return _ENGINE


def load_models() -> None:
    """Load the OCR models now (benchmarks time the reading without them)."""
    eng = _engine()
    getattr(eng, "_load_rec", lambda: None)()


def forget() -> None:
    """Drop every reading kept in this process (benchmarks measure cold readings)."""
    _MEMO.clear()
    if _ENGINE is not None:
        _ENGINE.forget()


def _scale(img) -> float:
    """Downscale large images; upscale small ones (web graphics), whose labels are a few px high."""
    side = max(img.shape[:2])
    if side > MAX_SIDE:
        return MAX_SIDE / side
    if side < MIN_SIDE:
        return min(2.0, UPSCALE_TO / side)
    return 1.0


def _run(img) -> list[dict]:
    """OCR a BGR numpy image as rapidocr does (detector input at least 640 px on its short
    side); boxes are returned in that image's pixels."""
    import cv2

    scale = _scale(img)
    if scale < 1:
        small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    elif scale > 1:
        small = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    else:
        small = img
    # rapidocr enlarged the detector's input to 640 px on its short side; a strip of text (a
    # rotated axis title cut out by titles.py, 80 x 750 px) became 640 x 5,900 px and cost
    # 5 s of CPU: the input's long side is kept within 1280 px
    h, w = small.shape[:2]
    det_scale = max(1.0, min(640.0 / max(min(h, w), 1), 1280.0 / max(h, w, 1)))
    tokens = _detect_recognise(small, det_scale)
    for t in tokens:
        t["bbox"] = [round(v / scale, 1) for v in t["bbox"]]
    return tokens


def _resized(img, f: float):
    import cv2

    if abs(f - 1.0) < 1e-3:
        return img
    return cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC)


def _crop(img, quad):
    """The text line inside a detected quadrilateral, upright (vertical lines turned clockwise:
    an axis title reads bottom to top)."""
    import cv2
    import numpy as np

    pts = np.asarray(quad, np.float32)
    w = int(max(np.linalg.norm(pts[0] - pts[1]), np.linalg.norm(pts[2] - pts[3])))
    h = int(max(np.linalg.norm(pts[0] - pts[3]), np.linalg.norm(pts[1] - pts[2])))
    if w < 2 or h < 2:
        return None
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(pts, dst)
    crop = cv2.warpPerspective(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE, flags=cv2.INTER_CUBIC)
    if h >= 1.5 * w:
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return crop


def _detect_recognise(img, det_scale: float) -> list[dict]:
    """Detect text lines on `img` resized by det_scale; recognise each line cut from `img`
    itself, all in one batched call. Boxes in `img`'s pixels."""
    import numpy as np

    eng = _engine()
    small = _resized(img, det_scale)
    if min(small.shape[:2]) < 8:
        return []
    boxes = eng.detect(small)
    if boxes is None:
        return []
    quads, crops = [], []
    for box in boxes:
        q = np.asarray(box, np.float32) / det_scale
        q[:, 0] = q[:, 0].clip(0, img.shape[1] - 1)
        q[:, 1] = q[:, 1].clip(0, img.shape[0] - 1)
        c = _crop(img, q)
        if c is not None:
            quads.append(q)
            crops.append(c)
    if not crops:
        return []
    txts, scores = eng.recognise(crops)
    tokens = []
    for q, text, score in zip(quads, txts, scores):
        if not str(text).strip() or float(score) < MIN_SCORE:
            continue
        tokens.append({
            "text": str(text),
            "bbox": [round(float(q[:, 0].min()), 1), round(float(q[:, 1].min()), 1),
                     round(float(q[:, 0].max()), 1), round(float(q[:, 1].max()), 1)],
            "conf": round(float(score), 4),
        })
    return tokens


def _cached(key: str, compute) -> list[dict]:
    """`compute()`'s tokens, memoised in this process and on disk under cache_dir()."""
    if key in _MEMO:
        return _MEMO[key]
    from figlint import cache

    if not cache.enabled():  # --no-cache
        tokens = _MEMO[key] = compute()
        return tokens
    path = cache_dir() / f"{key}.json"
    try:
        tokens = json.loads(path.read_text())
        _MEMO[key] = tokens
        cache.touch(path)
        return tokens
    except (OSError, ValueError):
        pass
    tokens = compute()
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


def read_text(img, digest: str, det_scale: float) -> list[dict]:
    """Text lines of `img` (BGR array) as dicts {text, bbox [x0,y0,x1,y1] px, conf}, found by
    the detector at `det_scale` and read from the image's own pixels; cached by digest."""
    key = f"{digest}-{OCR_VERSION}-{READ_VERSION}-d{det_scale:.4f}"
    return _cached(key, lambda: _detect_recognise(img, det_scale))


def ocr_tokens(img, digest: str) -> list[dict]:
    """Text boxes of `img` (BGR array) as dicts {text, bbox [x0,y0,x1,y1] px, conf}; cached by digest."""
    scale = _scale(img)
    key = f"{digest}-{OCR_VERSION}" + (f"-up{scale:.3f}" if scale > 1 else "")
    return _cached(key, lambda: _run(img))
