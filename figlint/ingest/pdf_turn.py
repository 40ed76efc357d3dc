"""Pages read in their own upright frame: floats set sideways.

`sidewaysfigure` (rotating), `landscape` (lscape; pdflscape also sets the page's /Rotate)
and `\\rotatebox{90}` around a whole float print the float turned by a quarter: in the page's
coordinates (MuPDF gives text, paths and images in the unrotated page, whatever /Rotate says)
its caption runs up or down the page, so no caption line is found. A page whose text mostly
runs at 90, 180 or 270 degrees is read turned: every box (text, images, paths, clips, links)
goes through one matrix into the frame in which that text reads left to right, and the whole
reading (captions, regions, binding, features) happens there, as for an upright float. The
matrix is the one MuPDF applies for a page /Rotate of the same angle, so a page is rendered in
that frame by giving it that rotation (`upright`).
"""

from __future__ import annotations

import pymupdf

BBox = tuple[float, float, float, float]

# Writing direction (rounded, y down) -> the page rotation that sets it left to right.
_TURN_OF_DIR = {(0, -1): 90, (0, 1): 270, (-1, 0): 180}


LONG_LINE = 30  # characters: a line of a caption or of prose, not a chart's tick or axis label


def page_turn(d: dict) -> int:
    """0, 90, 180 or 270: the clockwise rotation under which a page's captions and prose (a
    text dict in unrotated page coordinates) read left to right.

    A float caption's label line decides ("Figure 3: ..." runs up the page: the page is
    turned; an upright caption under a chart whose many labels run up the page keeps the
    page upright); without one, or with labels both ways, the direction most characters of
    long lines run in (a sideways table's caption on an earlier page, a running head left
    upright over a sideways float). Short lines (tick labels, table cells) never count."""
    from figlint.mentions import parse_float_label

    lines: list[tuple[int, str]] = []
    for b in d.get("blocks", ()):
        for ln in b.get("lines", ()):
            dx, dy = ln.get("dir", (1.0, 0.0))
            key = (round(dx), round(dy))
            if key == (1, 0):
                turn = 0
            elif key in _TURN_OF_DIR and abs(abs(dx) + abs(dy) - 1) < 0.01:
                turn = _TURN_OF_DIR[key]
            else:
                continue
            lines.append((turn, "".join(s["text"] for s in ln["spans"]).strip()))
    if all(turn == 0 or len(text) < LONG_LINE for turn, text in lines):
        return 0  # (nearly every page) no long line runs sideways
    long = {0: 0, 90: 0, 180: 0, 270: 0}
    labels = {0: 0, 90: 0, 180: 0, 270: 0}
    for turn, text in lines:
        if len(text) >= LONG_LINE:
            long[turn] += len(text)
        if len(text) >= 6 and parse_float_label(text):
            labels[turn] += 1
    by_label = [t for t in labels if labels[t]]
    if len(by_label) == 1:
        return by_label[0]
    best = max((90, 180, 270), key=lambda t: long[t])
    return best if long[best] > long[0] else 0


def unrotated_size(page: pymupdf.Page) -> tuple[float, float]:
    """Width and height of the page in the coordinates MuPDF reads it in (before /Rotate)."""
    r = page.rect * page.derotation_matrix
    return abs(r.width), abs(r.height)


def turn_matrix(turn: int, width: float, height: float) -> pymupdf.Matrix:
    """Unrotated page coordinates -> the frame turned by `turn` degrees clockwise (the same
    matrix as MuPDF's page.rotation_matrix for a page given that /Rotate)."""
    if turn == 90:
        return pymupdf.Matrix(0, 1, -1, 0, height, 0)
    if turn == 180:
        return pymupdf.Matrix(-1, 0, 0, -1, width, height)
    if turn == 270:
        return pymupdf.Matrix(0, -1, 1, 0, 0, width)
    return pymupdf.Matrix(1, 0, 0, 1, 0, 0)


def turned_size(turn: int, width: float, height: float) -> tuple[float, float]:
    return (height, width) if turn in (90, 270) else (width, height)


def box(b, m: pymupdf.Matrix) -> BBox:
    """A box through the matrix (a quarter turn keeps boxes boxes), ordered."""
    r = pymupdf.Rect(b) * m
    r.normalize()
    return (r.x0, r.y0, r.x1, r.y1)


def point(p, m: pymupdf.Matrix) -> tuple[float, float]:
    q = pymupdf.Point(p[0], p[1]) * m
    return (q.x, q.y)


def path_dict(p: dict, m: pymupdf.Matrix) -> dict:
    """A path as get_cdrawings lists it (segments as tuples of points, rects, quads), turned."""
    out = dict(p)
    for key in ("rect", "scissor"):
        if p.get(key) is not None:
            out[key] = box(p[key], m)
    items = p.get("items")
    if items:
        turned = []
        for it in items:
            kind = it[0]
            if kind == "re":
                turned.append((kind, box(it[1], m), *it[2:]))
            elif kind == "qu":
                turned.append((kind, tuple(point(q, m) for q in it[1])))
            else:
                turned.append((kind, *(point(q, m) for q in it[1:])))
        out["items"] = turned
    return out


def upright(page: pymupdf.Page, turn: int) -> pymupdf.Page:
    """The page given the rotation whose frame its figures were read in (figure.extra["turn"]),
    so a clip in that frame renders the float upright (0: the unrotated page, the frame every
    other page is read in, also under a /Rotate). Only the open document changes."""
    if page.rotation != turn:
        page.set_rotation(turn)
    return page
