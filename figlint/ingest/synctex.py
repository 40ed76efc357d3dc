"""Where LaTeX printed each source line: the SyncTeX file a build leaves beside its PDF.

`latexmk -synctex=1`, Overleaf and most editors write `<main>.synctex.gz` next to
`<main>.pdf`: for every box TeX shipped out, the input file and line it was read from, its
page and its position. A figure environment's \\includegraphics and \\caption lines thus
say exactly which page and which box of the PDF are that figure, however the PDF route
reads the page. Only horizontal boxes are used, the outermost of each nest: a vertical
box or a page's furniture can carry the line at which TeX happened to ship a page out
(the `\\begin{figure}` line when a float starts a page), a box built inside a float
cannot.

Format (SyncTeX 1, as pdfTeX, XeTeX and LuaTeX write it): a header of `Input:TAG:PATH`
lines and `Unit:`, `Magnification:`, `X Offset:`, `Y Offset:`; after `Content:`, `{N`
opens page N, and an hbox is `(TAG,LINE:H,V:W,H,D` in scaled points from the page's top
left corner, V its baseline. The file is untrusted input like the rest of the paper: it
is parsed as numbers, never followed, and left alone when larger than MAX_BYTES or when
it does not describe the PDF beside it (another page count, or older than the PDF).
"""

from __future__ import annotations

import gzip
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

BBox = tuple[float, float, float, float]

MAX_BYTES = 256 * 1024 * 1024  # uncompressed; a 600-page book writes about 60 MB
_SAME_BUILD_S = 2.0  # a checkout writes the PDF and its SyncTeX file within this of each other
_SP_PER_BP = 65781.76  # scaled points per PostScript point (65536 * 72.27 / 72)

_RECORD = re.compile(rb"^(?:\{(\d+)|\((\d+),(\d+):(-?\d+),(-?\d+):(-?\d+),(-?\d+),(-?\d+)|(\)))$", re.M)
_INPUT = re.compile(rb"^Input:(\d+):(.*)$", re.M)


@dataclass
class SyncTeX:
    path: str
    pages: int = 0
    # (source file relative to the paper's root, line) -> [(1-based page, box in PDF points)]
    boxes: dict[tuple[str, int], list[tuple[int, BBox]]] = field(default_factory=dict)


def find(pdf_path: str) -> Path | None:
    """The SyncTeX file LaTeX wrote beside `pdf_path`, if any."""
    p = Path(pdf_path)
    for cand in (p.with_suffix(".synctex.gz"), p.with_suffix(".synctex")):
        if cand.is_file():
            return cand
    return None


def _read(path: Path) -> bytes | None:
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        else:
            with open(path, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
    except (OSError, EOFError, gzip.BadGzipFile, ValueError):
        return None
    return None if len(data) > MAX_BYTES else data


def _header_number(head: bytes, name: bytes, default: float) -> float:
    m = re.search(rb"^" + name + rb":(-?[0-9.]+)\s*$", head, re.M)
    try:
        return float(m.group(1)) if m else default
    except ValueError:
        return default


def _relative(name: str, root: Path, sources: list[str]) -> str | None:
    """A SyncTeX input path as the paper names its sources (relative to its root). The
    build may have run elsewhere (an Overleaf download names /compile/main.tex): then the
    source whose path is the longest tail of the recorded one."""
    name = name.strip()
    try:
        rel = os.path.relpath(os.path.normpath(name), root)
        if not rel.startswith(".."):
            rel = rel.replace(os.sep, "/")
            if rel in sources:
                return rel
    except ValueError:
        pass
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
    best, best_n = None, 0
    for s in sources:
        sp = s.split("/")
        n = 0
        while n < min(len(sp), len(parts)) and sp[-1 - n] == parts[-1 - n]:
            n += 1
        if n == len(sp) and n > best_n:
            best, best_n = s, n
    return best


def load(pdf_path: str, root: str, wanted: dict[str, set[int]], pages: int) -> SyncTeX | None:
    """The boxes of the `wanted` source lines ({relative file: lines}) from the SyncTeX file
    beside `pdf_path`; None when there is none, it is unreadable, or it describes a PDF of
    another page count than `pages`."""
    path = find(pdf_path)
    if path is None or not wanted:
        return None
    try:
        # pdfTeX writes it after closing the PDF: one older than the PDF is a former build's
        # (the PDF built again without -synctex), whose lines may have moved since
        if os.path.getmtime(path) < os.path.getmtime(pdf_path) - _SAME_BUILD_S:
            return None
    except OSError:
        return None
    data = _read(path)
    if not data:
        return None
    start = data.find(b"\nContent:")
    if start < 0:
        return None
    head = data[:start]
    unit = _header_number(head, b"Unit", 1.0)
    mag = _header_number(head, b"Magnification", 1000.0) / 1000.0
    xoff = _header_number(head, b"X Offset", 0.0)
    yoff = _header_number(head, b"Y Offset", 0.0)
    if unit <= 0 or mag <= 0:
        return None
    k = unit * mag / _SP_PER_BP
    sources = sorted(wanted)
    rootp = Path(root)
    tags: dict[int, str] = {}
    for m in _INPUT.finditer(head):
        rel = _relative(m.group(2).decode("utf-8", "replace"), rootp, sources)
        if rel is not None:
            tags[int(m.group(1))] = rel
    if not tags:
        return None
    out = SyncTeX(path=str(path))
    want = {(tag, line) for tag, rel in tags.items() for line in wanted.get(rel, ())}
    page = 0
    seen_pages = 0
    # Only the outermost box of wanted lines counts: the boxes inside it were built at their
    # natural size and scaled when shipped (\includegraphics[width=...] records the picture
    # at its own size inside the box of the printed size), so their sizes are not printed ones.
    inside: list[bool] = []  # per open hbox: it or an hbox around it is a wanted line's
    for m in _RECORD.finditer(data, start):
        if m.group(9) is not None:
            if inside:
                inside.pop()
            continue
        if m.group(1) is not None:
            page = int(m.group(1))
            seen_pages = max(seen_pages, page)
            inside.clear()
            continue
        key = (int(m.group(2)), int(m.group(3)))
        outer = bool(inside) and inside[-1]
        hit = key in want
        inside.append(outer or hit)
        if not hit or outer or page <= 0:
            continue
        h, v, w, ht, dp = (int(m.group(i)) for i in range(4, 9))
        if w <= 0 or ht + dp <= 0:
            continue  # an empty box places nothing
        box = ((h + xoff) * k, (v - ht + yoff) * k, (h + w + xoff) * k, (v + dp + yoff) * k)
        out.boxes.setdefault((tags[key[0]], key[1]), []).append((page, box))
    out.pages = seen_pages
    if seen_pages != pages:
        return None  # not the build of this PDF
    return out


def figure_places(sync: SyncTeX, spans: dict[int, tuple[str, int, int]]) -> dict[int, tuple[int, BBox]]:
    """For each figure (key -> (file, first line, last line) of its environment): the page
    and box where its contents printed, from the boxes of the lines strictly inside the
    environment (the \\begin and \\end lines can tag page furniture shipped out there). The
    page is the one holding most of those boxes' area (a float body does not break across
    pages); figures whose lines printed nothing are left out."""
    out: dict[int, tuple[int, BBox]] = {}
    for key, (rel, first, last) in spans.items():
        by_page: dict[int, list[BBox]] = {}
        for line in range(first + 1, last):
            for page, box in sync.boxes.get((rel, line), ()):
                by_page.setdefault(page, []).append(box)
        if not by_page:
            continue
        page, boxes = max(by_page.items(), key=lambda kv: sum((b[2] - b[0]) * (b[3] - b[1]) for b in kv[1]))
        out[key] = (page, (min(b[0] for b in boxes), min(b[1] for b in boxes),
                           max(b[2] for b in boxes), max(b[3] for b in boxes)))
    return out
