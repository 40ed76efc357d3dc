"""Per-pixel primitives of the raster measures, on separate colour planes.

NumPy reductions over the three interleaved channels of a BGR image (a maximum over
axis 2, a boolean gather then a mean) cost 15-20 ms per megapixel each; OpenCV does
the same on the split planes in under 1 ms. Each function returns exactly what its
NumPy statement (in its docstring) returns, value for value: the raster readings and
the findings built on them do not change.
"""

from __future__ import annotations


def planes(bgr) -> list:
    """The three channels of a BGR uint8 image as contiguous planes."""
    import cv2

    return list(cv2.split(bgr))


def deviation(chans, colour) -> "object":
    """`np.abs(bgr.astype(np.int16) - np.asarray(colour).astype(np.int16)).max(axis=2)`,
    as uint8 (the values are 0..255 either way): how far each pixel is from `colour`
    (three values 0..255, truncated to integers as astype does) in its farthest channel."""
    import cv2

    d = [cv2.absdiff(p, int(c)) for p, c in zip(chans, colour)]
    return cv2.max(cv2.max(d[0], d[1]), d[2])


def masked_mean(chans, mask) -> "object":
    """`bgr[mask].reshape(-1, 3).mean(axis=0)`: the mean colour (float64) of the pixels
    where `mask` (bool) is set. Sums of uint8 values are exact in both ways, and both
    divide them by the count."""
    import cv2
    import numpy as np

    m = mask.view(np.uint8)
    n = cv2.countNonZero(m)
    return np.array([cv2.sumElems(cv2.bitwise_and(p, p, mask=m))[0] for p in chans]) / n


def colour_codes(chans, bits: int) -> "object":
    """`q = (bgr // 2**(8 - bits)).astype(np.int32); (q[..., 0] << 2 bits) | (q[..., 1] << bits)
    | q[..., 2]`, as uint16: each pixel's coarse colour bin (`bits` bits per channel)."""
    import numpy as np

    k = 8 - bits
    b, g, r = ((c >> k).astype(np.uint16) for c in chans)
    return (b << (2 * bits)) | (g << bits) | r
