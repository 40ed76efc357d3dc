"""One figure file -> Paper(route "image") with one Figure: a raster image or a one-page PDF figure.

Raster files (PNG, JPEG, TIFF, ...) become one RasterImage. A standalone image
has no placement, so its printed resolution is not known: we take the DPI the
file records (PNG pHYs, JPEG/TIFF density) when it records a real one, and
otherwise assume it will be printed at 300 DPI (`dpi_source="assumed"`), which
keeps FL101 silent instead of guessing a size — resolution is judged where the
image is placed (the PDF and LaTeX routes). The figure box is the image at that
resolution, in points.

A one-page PDF figure (what `plt.savefig("fig.pdf")` writes) is read like a figure
region of a paper: text spans with their sizes, vector drawings with colours and
widths, placed images with their effective DPI. There is no caption and no citing
text, so the caption and context dimensions are gated off.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from figlint.budget import MAX_PAGE_DRAWINGS, capped_drawings, skip
from figlint.errors import InputError
from figlint.model import Figure, Location, Paper, Problem, RasterImage, TextSpan
from figlint.ingest.paths import clipped_drawings, glyph_marks
from figlint.ingest.pdf_hidden import drop_hidden_text
from figlint.ingest.type3 import fix_sizes as fix_type3_sizes

ASSUMED_DPI = 300.0
# Tools write these when the user set nothing: they say nothing about print size.
_DEFAULT_DPIS = {0.0, 1.0, 72.0, 96.0}
# A one-page PDF larger than this in words is a document, not a figure.
_MAX_FIGURE_WORDS = 400


def is_figure_pdf(path: str | Path) -> bool:
    """A one-page PDF that looks like a figure (little running text), not a paper."""
    try:
        from figlint.ingest.mupdf import open_pdf

        with open_pdf(str(path)) as doc:
            if doc.page_count != 1:
                return False
            page = doc[0]
            words = len(page.get_text("words"))
            w, h = page.rect.width, page.rect.height
    except Exception:  # noqa: BLE001 - unreadable files go to the PDF route, which reports them
        return False
    page_like = any(abs(w - a) < 15 and abs(h - b) < 15 for a, b in ((612, 792), (595, 842), (792, 612), (842, 595)))
    # A page of paper size is a (one-page) paper, whatever its word count: treating a
    # short paper as one big figure would report its text as figure text.
    return words <= _MAX_FIGURE_WORDS and not page_like


def read_graphics(path: str) -> Paper:
    p = Path(path)
    if p.suffix.lower() == ".pdf":
        return _read_pdf_figure(path)
    return _read_raster(path)


def _file_digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()[:32]


def _read_raster(path: str) -> Paper:
    p = Path(path)
    try:
        from PIL import Image

        # Only the header is read here (size, resolution): PIL's decompression-bomb check,
        # which refuses to even open a huge image, belongs to decoding (features/raster.py
        # decodes at most budget.MAX_DECODE_PIXELS and reports the figure as skipped, FL011).
        limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
        try:
            with Image.open(p) as im:
                w_px, h_px = im.size
                dpi = im.info.get("dpi")
        finally:
            Image.MAX_IMAGE_PIXELS = limit
    except Exception as exc:  # noqa: BLE001 - PIL raises many types for bad files
        raise InputError(f"{path}: cannot read image ({type(exc).__name__}: {exc})") from None
    source = "assumed"
    dpi_x = dpi_y = ASSUMED_DPI
    if dpi:
        try:
            dx, dy = float(dpi[0]), float(dpi[1])
        except (TypeError, ValueError, IndexError):
            dx = dy = 0.0
        if dx >= 30 and dy >= 30 and round(dx) not in _DEFAULT_DPIS:
            dpi_x, dpi_y, source = dx, dy, "metadata"
    bbox = (0.0, 0.0, w_px * 72.0 / dpi_x, h_px * 72.0 / dpi_y)
    img = RasterImage(width_px=w_px, height_px=h_px, bbox=bbox, dpi_x=dpi_x, dpi_y=dpi_y,
                      name=p.name, digest=_file_digest(p), dpi_source=source)
    fig = Figure(number="", page=1, bbox=bbox, images=[img], graphics=[path],
                 location=Location(file=path, page=1, bbox=bbox),
                 extra={"image_path": str(p), "figure_file": str(p)})
    return Paper(path=path, route="image", pages=1, page_size=(bbox[2], bbox[3]), figures=[fig])


def _raw_digest(doc, xref) -> bytes | None:
    """Hash of an image's stream as stored (compressed): identifies it without decoding it."""
    if not xref:
        return None
    try:
        return hashlib.sha256(doc.xref_stream_raw(xref) or b"").digest()[:16]
    except Exception:  # noqa: BLE001 - a damaged stream just has no digest
        return None


def _read_pdf_figure(path: str) -> Paper:
    from figlint.ingest.mupdf import open_pdf, pymupdf

    try:
        doc = open_pdf(path)
    except Exception as exc:  # noqa: BLE001
        raise InputError(f"{path}: cannot open PDF ({exc})") from None
    with doc:
        if doc.page_count < 1:
            raise InputError(f"{path}: PDF has no pages")
        page = doc[0]
        from figlint.ingest.pdf_forms import FormInflater

        forms = FormInflater(doc)
        forms.page(0)  # a scatter's marker forms decoded once, not once per marker
        rect = page.rect
        # At most budget.MAX_PAGE_DRAWINGS paths are read (a dict per path: a million-path
        # figure would take gigabytes); a figure with more is reported and not analysed (FL011).
        with forms.path_pass(0):  # the markers read as their paths alone, where that is the same
            paths, total_paths = capped_drawings(page, extended=True)
        with forms.text_pass(0):  # the markers hold no text: not interpreted for it
            text = page.get_text("dict", flags=pymupdf.TEXT_MEDIABOX_CLIP)
        marks = glyph_marks(text)  # a symbol font's glyphs are marks (R's Dingbats points)
        fix_type3_sizes(doc, text)
        from figlint.ingest.pdf_layout import compose_accents

        compose_accents(text)  # an OT1 font's accent glyphs over their letters (pdf_layout)
        drop_hidden_text(page, text, paths)  # text a later opaque fill paints over is not printed
        paths.extend(marks)  # (after the hidden-text check: their paint order is not known)
        spans: list[TextSpan] = []
        for block in text["blocks"]:
            for line in block.get("lines", ()):
                for s in line.get("spans", ()):
                    if not s["text"].strip():
                        continue
                    spans.append(TextSpan(text=s["text"], size=round(float(s["size"]), 2), font=s.get("font", ""),
                                          bbox=tuple(round(v, 2) for v in s["bbox"]), color=s.get("color"),
                                          dir=tuple(line.get("dir", (1.0, 0.0)))))
        # the same marks as the figure's region in a paper and its file placed from the sources
        # (paths.clipped_drawings): one reading, one set of features, whichever way it is read
        drawings = clipped_drawings(paths, page_box=tuple(rect))
        images: list[RasterImage] = []
        # Not get_image_info(xrefs=True) or hashes=True: MuPDF would decode every image in full
        # to hash its pixels (an image declared 15,000 x 15,000 costs 700 MB, 50,000 x 50,000
        # raises FzErrorLimit); the raw, still-compressed stream identifies the image as well.
        from figlint.ingest.pdf_layout import cut_from, image_info_xrefs

        for info in image_info_xrefs(page):  # boxes cut to the page box and clips: what prints
            x0, y0, x1, y1 = info["bbox"]
            placed = cut_from(info["bbox"], info["full"])
            # the resolution is the whole image's, however much of it prints
            f0, f1, f2, f3 = placed or info["bbox"]
            w_in, h_in = max(f2 - f0, 1e-6) / 72.0, max(f3 - f1, 1e-6) / 72.0
            digest = _raw_digest(doc, info.get("xref"))
            images.append(RasterImage(width_px=int(info["width"]), height_px=int(info["height"]),
                                      bbox=(x0, y0, x1, y1), dpi_x=info["width"] / w_in, dpi_y=info["height"] / h_in,
                                      xref=info.get("xref") or None, name=f"image{len(images) + 1}",
                                      placed=placed,
                                      digest=digest.hex() if isinstance(digest, bytes) else ""))
    bbox = (rect.x0, rect.y0, rect.x1, rect.y1)
    fig = Figure(number="", page=1, bbox=bbox, spans=spans, drawings=drawings, images=images, graphics=[path],
                 location=Location(file=path, page=1, bbox=bbox), extra={"figure_file": path})
    paper = Paper(path=path, route="image", pages=1, page_size=(rect.width, rect.height), figures=[fig],
                  pdf_path=path)
    if total_paths > MAX_PAGE_DRAWINGS:
        why = f"it has {total_paths:,} vector paths and only the first {MAX_PAGE_DRAWINGS:,} are read"
        skip(fig, why, reported=True)
        paper.problems.append(Problem("FL011", f"the figure was not analysed: {why}", Location(file=path, page=1)))
    return paper
