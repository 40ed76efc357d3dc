"""The OCR models: rapidocr's PP-OCR text detector and recogniser (the ONNX files its wheel
ships), run in onnxruntime sessions built here, with rapidocr's own pre- and post-processing.

Why not `rapidocr.RapidOCR`: importing it parses the wheel's list of downloadable models
(an 85 kB YAML file, twice, through OmegaConf) and imports requests, 0.5-0.7 s of CPU in
every process that reads a raster figure, for a list figlint never needs (the models are
the installed files).

What stays rapidocr's: the model files, the detector's input scaling and normalisation
(DetPreProcess) and box extraction (DBPostProcess), the recogniser's character list (from
the model) and CTC decoding (CTCLabelDecode), loaded from their modules. Two small loops
of rapidocr's classes, whose modules cannot be imported without the model list, are
restated here as they are there: the detector's reading order of boxes and the
recogniser's batching (sorted by aspect ratio, padded to the batch's widest crop). The
settings are rapidocr's defaults and figlint's overrides (ocr.py); tests/test_ocr_engine.py
checks that boxes, texts and scores equal those of `rapidocr.RapidOCR` with the same
settings. Should rapidocr's layout change, `load()` falls back to `RapidOCR` itself.
"""

from __future__ import annotations

import importlib.util
import math
import sys
import types
from pathlib import Path

# rapidocr's config.yaml defaults (Det, Rec) with figlint's overrides (ocr.py)
DET = {"limit_side_len": 32, "limit_type": "min", "mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5],
       "thresh": 0.3, "box_thresh": 0.5, "max_candidates": 1000, "unclip_ratio": 1.6,
       "use_dilation": True, "score_mode": "fast"}
DET_MODEL, REC_MODEL = "PP-OCRv6_det_small.onnx", "PP-OCRv6_rec_small.onnx"
BOX_SORT_Y_THRESHOLD = 10  # rapidocr's TextDetector: boxes within 10 px in y are one line
READ_MEMO_MAX = 20_000  # crops' readings kept per process (about 100 bytes each)
# A batch padded wider than this (px at the model's 48 px height) is run one crop at a time, at
# the same padded width: the model's working memory grows with batch x width (four lines of
# 2,300 px took 226 MB at a paper's peak; issue 14), and a crop's reading depends only on its
# own pixels and that width (see Direct.recognise), so the readings are the same.
REC_SPLIT_WIDTH = 640


def load(rec_batch: int, rec_shape: tuple[int, int, int]):
    """The engine: `Direct` where rapidocr's files are where version 3 keeps them, else an
    adapter of `rapidocr.RapidOCR` with the same settings."""
    try:
        return Direct(rec_batch, rec_shape)
    except (ImportError, OSError, AttributeError, KeyError):
        return ViaRapidOCR(rec_batch, rec_shape)


def _rapidocr_dir() -> Path:
    spec = importlib.util.find_spec("rapidocr")  # finds the package without running it
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("rapidocr is not installed")
    return Path(list(spec.submodule_search_locations)[0])


def _modules(root: Path, *rels: str) -> list:
    """rapidocr's modules `rels` (paths below its package, without .py), loaded from their
    files without their packages' __init__ (which import the model list): a relative import
    of a sibling module would run that __init__, so the modules loaded here are registered
    under their own names while the others load, and the visualisation module (used only to
    draw results) is a placeholder then. Afterwards sys.modules is as it was: a later
    `import rapidocr` gets its own fresh modules."""
    added = {}
    if "rapidocr.utils.vis_res" not in sys.modules:
        placeholder = types.ModuleType("rapidocr.utils.vis_res")
        placeholder.VisRes = None
        added["rapidocr.utils.vis_res"] = placeholder
    out = []
    try:
        sys.modules.update(added)
        for rel in rels:
            name = "rapidocr." + rel.replace("/", ".")
            spec = importlib.util.spec_from_file_location(name, root / f"{rel}.py")
            if spec is None or spec.loader is None:
                raise ImportError(f"rapidocr has no {rel}.py")
            module = importlib.util.module_from_spec(spec)
            if name not in sys.modules:
                added[name] = sys.modules[name] = module
            spec.loader.exec_module(module)
            out.append(module)
    finally:
        for name, module in added.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    return out


def _session(path: Path):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.log_severity_level = 4
    # The memory arena (off in rapidocr too) saved 5 % of CPU but kept 100 MB more at the
    # peak of a paper of 60 charts (855 against 750 MB; the budget is 800).
    opts.enable_cpu_mem_arena = False
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # one thread: the pool's spinning cost about 20 % more CPU on a busy 2-core machine
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    if not path.is_file():
        raise OSError(f"no OCR model at {path}")
    return ort.InferenceSession(str(path), sess_options=opts,
                                providers=["CPUExecutionProvider"])


class Direct:
    def __init__(self, rec_batch: int, rec_shape: tuple[int, int, int]):
        import logging

        root = _rapidocr_dir()
        det_utils, _typings, rec_utils = _modules(root, "ch_ppocr_det/utils", "ch_ppocr_rec/typings",
                                                  "ch_ppocr_rec/utils")
        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        self.det_pre = det_utils.DetPreProcess(DET["limit_side_len"], DET["limit_type"], DET["mean"], DET["std"])
        self.det_post = det_utils.DBPostProcess(**{k: DET[k] for k in (
            "thresh", "box_thresh", "max_candidates", "unclip_ratio", "use_dilation", "score_mode")})
        self.det = _session(root / "models" / DET_MODEL)
        self.det_io = (self.det.get_inputs()[0].name, [o.name for o in self.det.get_outputs()])
        # The recogniser is loaded when first needed, as rapidocr does: after the first
        # detection, whose activations (the largest allocation) are then freed for it to
        # reuse. Loaded before, it added 20-30 MB to the peak of a one-chart run.
        rec_path = root / "models" / REC_MODEL
        if not rec_path.is_file():
            raise OSError(f"no OCR model at {rec_path}")
        self._rec_path, self._rec_utils = rec_path, rec_utils
        self.rec = self.decode = self.rec_io = None
        self.rec_batch = rec_batch
        self.rec_shape = tuple(rec_shape)
        self.read: dict[bytes, tuple[str, float]] = {}  # crop at its padded width -> (text, score)

    def _load_rec(self) -> None:
        if self.rec is None:
            self.rec = _session(self._rec_path)
            meta = self.rec.get_modelmeta().custom_metadata_map
            self.decode = self._rec_utils.CTCLabelDecode(character=meta["character"].splitlines())
            self.rec_io = (self.rec.get_inputs()[0].name, [o.name for o in self.rec.get_outputs()])

    def detect(self, img):
        """Text line quadrilaterals (N x 4 x 2, in `img`'s pixels) in reading order, or None."""
        x = self.det_pre(img)
        if x is None:
            return None
        preds = self.det.run(self.det_io[1], {self.det_io[0]: x})[0]
        boxes, _scores = self.det_post(preds, img.shape[:2])
        if len(boxes) < 1:
            return None
        return sorted_boxes(boxes)

    def recognise(self, crops) -> tuple[list[str], list[float]]:
        """Text and score of each crop (BGR arrays), as rapidocr's TextRecognizer reads them.

        rapidocr sorts the crops by aspect ratio and reads them REC_BATCH at a time, each
        batch padded to its widest crop: a crop's reading is a function of its pixels and
        that padded width (the model reads each sample of a batch on its own;
        tests/test_ocr_engine.py checks it). So each crop is read at the width rapidocr
        would pad it to, and a crop read before at that width (the same tick label or
        legend entry in another chart of the paper) is not read again."""
        import hashlib

        import numpy as np

        ratios = [c.shape[1] / float(c.shape[0]) for c in crops]
        order = np.argsort(np.array(ratios))  # rapidocr's own order
        _c, img_h, img_w = self.rec_shape
        keys: list = [None] * len(crops)
        todo: dict[float, list[tuple[bytes, int]]] = {}  # padded width (as a ratio) -> crops to read
        pending: set[bytes] = set()
        for beg in range(0, len(crops), self.rec_batch):
            idx = order[beg:beg + self.rec_batch]
            max_wh = max([img_w / img_h, *(ratios[i] for i in idx)])
            for i in idx:
                c = np.ascontiguousarray(crops[i])
                key = hashlib.sha1(c.tobytes() + repr((c.shape, c.dtype.str, max_wh)).encode()).digest()
                if key not in self.read and key not in pending:
                    pending.add(key)
                    todo.setdefault(max_wh, []).append((key, i))
                keys[i] = key
        if len(self.read) > READ_MEMO_MAX:
            self.read = {k: self.read[k] for k in keys if k in self.read}
        if todo:
            self._load_rec()
        for max_wh, items in todo.items():
            step = 1 if img_h * max_wh > REC_SPLIT_WIDTH else self.rec_batch
            for beg in range(0, len(items), step):
                chunk = items[beg:beg + step]
                batch = np.concatenate([self._norm(crops[i], max_wh)[np.newaxis, :] for _k, i in chunk])
                batch = batch.astype(np.float32)
                preds = self.rec.run(self.rec_io[1], {self.rec_io[0]: batch})[0]
                lines, _words = self.decode(preds, False)  # (text, score) per crop, from its own row
                for (key, _i), line in zip(chunk, lines):
                    self.read[key] = line
        return [self.read[k][0] for k in keys], [self.read[k][1] for k in keys]

    def forget(self) -> None:
        """Drop the readings kept in this process (benchmarks measure cold readings)."""
        self.read = {}

    def _norm(self, img, max_wh_ratio: float):
        """rapidocr's TextRecognizer.resize_norm_img: height to the model's, width in
        proportion, values to [-1, 1], zero-padded to the batch's widest."""
        import cv2
        import numpy as np

        c, img_h, _w = self.rec_shape
        img_w = int(img_h * max_wh_ratio)
        h, w = img.shape[:2]
        ratio = w / float(h)
        resized_w = img_w if math.ceil(img_h * ratio) > img_w else int(math.ceil(img_h * ratio))
        resized = cv2.resize(img, (resized_w, img_h)).astype("float32")
        resized = resized.transpose((2, 0, 1)) / 255
        resized -= 0.5
        resized /= 0.5
        padded = np.zeros((c, img_h, img_w), dtype=np.float32)
        padded[:, :, 0:resized_w] = resized
        return padded


def sorted_boxes(boxes):
    """rapidocr's TextDetector.sorted_boxes: top to bottom by the first corner's y (stable),
    lines split where y jumps by 10 px or more, left to right within a line."""
    import numpy as np

    if len(boxes) == 0:
        return boxes
    y = boxes[:, 0, 1]
    by_y = np.argsort(y, kind="stable")
    boxes, y = boxes[by_y], y[by_y]
    line = np.concatenate([[0], np.cumsum((np.diff(y) >= BOX_SORT_Y_THRESHOLD).astype(np.int32))])
    return boxes[np.lexsort((boxes[:, 0, 0], line))]


class ViaRapidOCR:
    """The same engine through `rapidocr.RapidOCR` (slower to load): the fallback, and the
    reference the tests compare `Direct` with."""

    def __init__(self, rec_batch: int, rec_shape: tuple[int, int, int]):
        import logging

        from rapidocr import RapidOCR

        self.eng = RapidOCR(params={
            "Global.use_cls": False,  # axis labels are upright or rotated 90°, never 180°
            "Global.log_level": "error",
            "Rec.rec_batch_num": rec_batch,
            "Rec.rec_img_shape": list(rec_shape),
            "Det.limit_side_len": DET["limit_side_len"],
            "EngineConfig.onnxruntime.intra_op_num_threads": 1,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        })
        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        self.det_model = self.eng._load_det_model()  # the recogniser loads on first use

    def detect(self, img):
        res = self.det_model(img)
        if res is None or res.boxes is None or len(res.boxes) == 0:
            return None
        return res.boxes

    def recognise(self, crops) -> tuple[list[str], list[float]]:
        rec = self.eng.recognize_txt(crops)
        return list(rec.txts or ()), list(rec.scores or ())

    def forget(self) -> None:
        pass
