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
