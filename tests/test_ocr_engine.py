"""The OCR engine figlint builds from rapidocr's parts reads exactly as rapidocr.RapidOCR does
with the same settings. Charts are drawn by tests/fixtures/charts.py (matplotlib, fixed data).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from fixtures.charts import make_chart  # noqa: E402

from figlint.features import ocr, ocr_engine  # noqa: E402
from figlint.features.raster import det_scale, load_bgr  # noqa: E402

pytest.importorskip("rapidocr")
pytest.importorskip("onnxruntime")


@pytest.fixture(scope="module")
def engines():
    shape = (3, 48, ocr.REC_MIN_WIDTH)
    return ocr_engine.Direct(ocr.REC_BATCH, shape), ocr_engine.ViaRapidOCR(ocr.REC_BATCH, shape)


@pytest.fixture(scope="module")
def charts(tmp_path_factory):
    d = tmp_path_factory.mktemp("charts")
    names = ("bar_truncated", "line_band", "dual_axis", "heatmap", "barh_truncated")
    return [load_bgr(str(make_chart(n, d / f"{n}.png", dpi=dpi))) for n in names for dpi in (100, 200)]


def test_direct_engine_reads_as_rapidocr(engines, charts):
    direct, via = engines
    crops_read = 0
    for img in charts:
        for printed in ((230.0, 160.0), None):  # placed at a column's width; of unknown size
            f = det_scale(img.shape, printed)
            small = ocr._resized(img, f)
            a, b = direct.detect(small), via.detect(small)
            assert (a is None) == (b is None)
            if a is None:
                continue
            assert np.array_equal(a, b)
            crops = [c for c in (ocr._crop(img, np.asarray(q, np.float32) / f) for q in a) if c is not None]
            assert direct.recognise(crops) == via.recognise(crops)
            crops_read += len(crops)
    assert crops_read > 100  # the charts' labels were read, not skipped


def test_recognition_does_not_depend_on_the_rest_of_the_batch(engines, charts):
    """Each crop's reading depends on its own pixels and its batch's padded width only."""
    direct, _via = engines
    img = charts[0]
    boxes = direct.detect(img)
    crops = [c for c in (ocr._crop(img, np.asarray(q, np.float32)) for q in boxes) if c is not None]
    together = direct.recognise(crops)
    # crops whose batch (rapidocr's: sorted by aspect ratio, REC_BATCH at a time) is padded
    # to REC_MIN_WIDTH are padded alike when read alone
    ratios = np.array([c.shape[1] / c.shape[0] for c in crops])
    order = np.argsort(ratios)
    least = ocr.REC_MIN_WIDTH / 48
    alike = [int(k) for b in range(0, len(crops), ocr.REC_BATCH) for k in order[b:b + ocr.REC_BATCH]
             if ratios[order[b:b + ocr.REC_BATCH]].max() <= least]
    assert len(alike) >= 3
    for k in alike:
        alone = direct.recognise([crops[k]])
        assert (together[0][k], together[1][k]) == (alone[0][0], alone[1][0])


def test_sorted_boxes_is_rapidocrs_order():
    from rapidocr.ch_ppocr_det.main import TextDetector

    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 7, 40):
        boxes = rng.integers(0, 300, size=(n, 4, 2)).astype(np.int32)
        boxes[: n // 2, 0, 1] = boxes[0, 0, 1] if n else 0  # lines of equal y: the x order decides
        assert np.array_equal(ocr_engine.sorted_boxes(boxes), TextDetector.sorted_boxes(boxes))


def test_direct_engine_leaves_rapidocr_importable():
    """Loading rapidocr's modules from their files leaves no placeholder behind, and rapidocr
    imported afterwards is whole (its visualisation included)."""
    code = (
        "from figlint.features import ocr_engine\n"
        "ocr_engine.Direct(4, (3, 48, 96))\n"
        "import sys\n"
        "assert 'rapidocr.utils.vis_res' not in sys.modules\n"
        "assert 'rapidocr.ch_ppocr_det' not in sys.modules\n"
        "from rapidocr.utils.vis_res import VisRes\n"
        "assert VisRes is not None\n"
        "from rapidocr import RapidOCR\n"
        "print('ok')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.stdout.strip() == "ok", proc.stderr


def test_falls_back_to_rapidocr_when_its_files_are_not_where_version_3_keeps_them(monkeypatch):
    monkeypatch.setattr(ocr_engine, "DET_MODEL", "no-such-model.onnx")
    eng = ocr_engine.load(ocr.REC_BATCH, (3, 48, ocr.REC_MIN_WIDTH))
    assert isinstance(eng, ocr_engine.ViaRapidOCR)
