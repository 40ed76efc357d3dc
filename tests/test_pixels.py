"""The per-pixel primitives (features/pixels.py) equal the NumPy statements they replace,
value for value, on seeded random images, flat ones and non-contiguous views."""

from __future__ import annotations

import numpy as np
import pytest

from figlint.features import pixels


def _images():
    rng = np.random.default_rng(7)
    yield rng.integers(0, 256, size=(37, 53, 3), dtype=np.uint8)
    flat = np.full((40, 60, 3), 250, np.uint8)
    flat[10:20, 5:50] = (12, 200, 90)
    yield flat
    yield np.zeros((24, 24, 3), np.uint8)
    big = rng.integers(0, 256, size=(90, 120, 3), dtype=np.uint8)
    yield big[::2, 1::3]  # not contiguous


@pytest.mark.parametrize("k", range(4))
def test_pixel_primitives_equal_numpy(k):
    img = list(_images())[k]
    chans = pixels.planes(img)
    for bits in (3, 4):
        q = (img // 2 ** (8 - bits)).astype(np.int32)
        ref = (q[:, :, 0] << 2 * bits) | (q[:, :, 1] << bits) | q[:, :, 2]
        assert np.array_equal(pixels.colour_codes(chans, bits), ref)
    codes = pixels.colour_codes(chans, 4)
    mask = codes == int(np.bincount(codes.ravel()).argmax())
    mean = img[mask].reshape(-1, 3).mean(axis=0)
    assert np.array_equal(pixels.masked_mean(chans, mask), mean)
    for colour in (mean, np.array([0, 255, 16]), np.array([127.9, 3.2, 254.99])):
        ref = np.abs(img.astype(np.int16) - colour.astype(np.int16)).max(axis=2)
        assert np.array_equal(pixels.deviation(chans, colour), ref)


def test_opened_contours_in_a_window_equal_those_of_the_whole_image():
    import cv2

    from figlint.features.raster import _opened_contours

    rng = np.random.default_rng(11)
    for trial in range(40):
        H, W = int(rng.integers(20, 120)), int(rng.integers(20, 120))
        m = np.zeros((H, W), bool)
        for _ in range(int(rng.integers(0, 6))):  # blocks, some at the image's edges
            x, y = int(rng.integers(-5, W)), int(rng.integers(-5, H))
            m[max(y, 0):y + int(rng.integers(1, 30)), max(x, 0):x + int(rng.integers(1, 30))] = True
        m ^= rng.random((H, W)) < 0.02  # specks and holes
        for size in (3, 5, 7):
            k = np.ones((size, size), np.uint8)
            whole, _ = cv2.findContours(cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_OPEN, k),
                                        cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            part = _opened_contours(m, k, 8)
            assert len(part) == len(whole)
            assert all(np.array_equal(a, b) for a, b in zip(part, whole))


def test_longest_run():
    from figlint.features.raster import _longest_run

    rng = np.random.default_rng(5)
    for _ in range(300):
        a = rng.random(int(rng.integers(0, 40))) < rng.random()
        best = cur = 0
        for v in a:
            cur = cur + 1 if v else 0
            best = max(best, cur)
        assert _longest_run(a) == best
