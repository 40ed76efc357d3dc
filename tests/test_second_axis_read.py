"""features.second_axis: the recogniser's second look at one crop (a right-hand axis label
OCR missed) runs on figlint's own OCR engine and obeys --no-cache.

It used to call rapidocr's `recognize_txt`, which figlint's engine does not have; the error
was swallowed as "no second look", and only disk-cache entries written before the engine
changed kept the FL402 finding on a real chart alive."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")


def _digit_image():
    import cv2
    import numpy as np

    img = np.full((60, 80, 3), 255, np.uint8)
    cv2.putText(img, "12", (14, 44), cv2.FONT_HERSHEY_SIMPLEX, 1.3, (0, 0, 0), 3, cv2.LINE_AA)
    return img


def test_a_crop_is_read_by_the_recogniser(tmp_path, monkeypatch):
    from figlint import cache
    from figlint.features import second_axis

    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path / "cache"))
    second_axis._MEMO.clear()
    with cache.session(str(tmp_path), on=True):
        text, conf = second_axis._read(_digit_image(), (0, 0, 80, 60))
    assert text.strip() == "12" and conf > 0.5
    assert list((tmp_path / "cache").rglob("*.json"))  # cached on disk when caches are on


def test_no_cache_reads_and_writes_no_cache(tmp_path, monkeypatch):
    from figlint import cache
    from figlint.features import second_axis

    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path / "cache"))
    second_axis._MEMO.clear()
    with cache.session(str(tmp_path), on=False):
        text, _ = second_axis._read(_digit_image(), (0, 0, 80, 60))
    assert text.strip() == "12"
    assert not (tmp_path / "cache").exists()
