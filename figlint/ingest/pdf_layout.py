"""Page geometry for the PDF route: text lines, raster images, vector paths, layout statistics.

One pass over each page (text dict, raw drawings, image placements, links) fills
plain records; everything downstream (caption and region finding, citing sites)
works on these and never asks pymupdf again, which keeps a 10-page paper well
under a second. Lines that pymupdf splits at wide gaps within one block are
re-joined (so "Figure 1:" and the caption text that follows are one line), and
document statistics — body font size and font, text columns, header and footer
zones — are computed once, by character counts, so one odd page cannot skew them.
"""

from __future__ import annotations

import math
import re
import statistics
import unicodedata
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field

import pymupdf

from figlint.budget import MAX_DECODE_PIXELS
from figlint.ingest import mupdf as _mupdf  # noqa: F401 - keeps MuPDF messages off stdout
from figlint.ingest.pdf_hidden import drop_hidden_text
from figlint.ingest import pdf_turn as turn
from figlint.ingest.paths import PathRecord, glyph_marks
from figlint.ingest.pdf_markers import Collapsed
from figlint.ingest.pdf_paths import read_paths
from figlint.ingest.type3 import fix_sizes as fix_type3_sizes
from figlint.lazyre import lazy
from figlint.mentions import parse_float_label
from figlint.model import union

BBox = tuple[float, float, float, float]

# Without TEXT_PRESERVE_LIGATURES ligatures come out as letters ("fi"), which keeps
# caption text and mentions comparable with the source.
_TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP


@dataclass
class Line:
    """One printed line: pymupdf lines of a block that share a baseline, joined."""

    page: int  # 0-based
    bbox: BBox
    text: str
    spans: list[dict]
    size: float
    font: str
    bold: bool
    block: int
    horizontal: bool = True
    dir: tuple[float, float] = (1.0, 0.0)  # writing direction (MuPDF's, y down); horizontal: (1, 0)
    gap: float = 0.0  # widest horizontal gap between the pieces joined into this line
    role: str = ""  # header, footer, margin, toc, caption, figure, table, ... ("" = body text)
    order: float = 0.0  # position in the document's reading order


@dataclass
class PageData:
    """Everything read from one page; index is 0-based."""

    index: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)
    images: list[dict] = field(default_factory=list)
    drawings: list = field(default_factory=list)  # paths.PathRecord, in paint order (pdf_paths)
    marks: list = field(default_factory=list)  # paths.PathRecord of symbol glyphs (paths.glyph_marks)
    links: list[dict] = field(default_factory=list)
    matrix: tuple = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)  # PDF user space -> page space
    paths_total: int = 0  # vector paths on the page; more than budget.MAX_PAGE_DRAWINGS are not read
    turn: int = 0  # read turned by this many degrees clockwise: its text runs sideways (pdf_turn)
    frames: list[BBox] = field(default_factory=list)  # outermost clips: an included graphic's box
    note_marks: list[BBox] = field(default_factory=list)  # hyperref's links to footnotes: over the marks


_MISSING = object()


@dataclass
class Layout:
    """Document-wide typesetting: body size and font, text columns, the text block's top and bottom."""

    body_size: float
    body_font: str
    columns: list[tuple[float, float]]
    text_top: float
    text_bottom: float
    line_gap: float = 0.0  # usual white space between two lines of a paragraph (double spacing: large)
    # column_of's answers for the columns they were given for: asked about every line many
    # times over (regions, paragraphs, reading order: 39,000 times for a 49-page paper)
    _memo: dict = field(default_factory=dict, repr=False, compare=False)
    _memo_of: object = field(default=None, repr=False, compare=False)

    def column_of(self, x0: float, x1: float) -> int | None:
        """Index of the column holding [x0, x1], or None when it crosses a gutter."""
        if self._memo_of is not self.columns:
            self._memo = {}
            self._memo_of = self.columns
        key = (x0, x1)
        got = self._memo.get(key, _MISSING)
        if got is _MISSING:
            got = self._column_of(x0, x1)
            if len(self._memo) < 100_000:
                self._memo[key] = got
        return got

    def _column_of(self, x0: float, x1: float) -> int | None:
        # A short line centred over a whole gutter (revtex's "(Dated: )" under the title) is
        # set over both columns: no column's own text reaches across the gutter, and text
        # that overflows its column by a few points is centred in that column, not here.
        cx = (x0 + x1) / 2
        if any(x0 < a1 - 1 and x1 > b0 + 1 and a1 - 2 <= cx <= b0 + 2
               for (_a0, a1), (b0, _b1) in zip(self.columns, self.columns[1:])):
            return None
        hits = [i for i, (c0, c1) in enumerate(self.columns) if min(x1, c1) - max(x0, c0) > 0.25 * (x1 - x0) or (c0 - 3 <= x0 and x1 <= c1 + 3)]
        if len(hits) == 1:
            return hits[0]
        if not hits:
            return min(range(len(self.columns)), key=lambda i: abs(cx - sum(self.columns[i]) / 2))
        # Crossing a gutter by a few points (oversized text) still belongs to one column.
        overl = [min(x1, self.columns[i][1]) - max(x0, self.columns[i][0]) for i in hits]
        best = max(range(len(hits)), key=lambda k: overl[k])
        if sorted(overl)[-2] < 12:
            return hits[best]
        return None

    def span_range(self, x0: float, x1: float) -> tuple[float, float]:
        """Horizontal range a float occupies: its column, or all columns when it spans."""
        col = self.column_of(x0, x1)
        if col is None or len(self.columns) == 1:
            return (min(self.columns[0][0], x0), max(self.columns[-1][1], x1))
        c0, c1 = self.columns[col]
        return (min(c0, x0), max(c1, x1))


def is_bold(font: str, flags: int = 0) -> bool:
    """Bold by the font's flags or its name (subset fonts often lose the flag)."""
    if flags & 16:
        return True
    got = _BOLD_NAMES.get(font)
    if got is None:  # a paper uses a few dozen fonts and asks this of every span
        name = font.lower()
        got = any(k in name for k in ("bold", "medi", "semib", "black", "heavy", "cmbx"))
        if len(_BOLD_NAMES) < 10_000:
            _BOLD_NAMES[font] = got
    return got


_BOLD_NAMES: dict[str, bool] = {}
_TENTHS: dict[float, float] = {}  # a type size -> round(size, 1), which formats the float to round it


def _dominant(spans: list[dict]) -> tuple[float, str, bool]:
    """The line's size and font by characters, and whether most of them are bold. Ties go
    to the first met (as Counter.most_common(1) gives them)."""
    sizes: dict = {}
    fonts: dict = {}
    bold = 0
    total = 0
    for s in spans:
        n = len(s["text"].strip())
        if not n:
            continue
        # round(size, 1), worked out once per size (a page sets its text in a few): for
        # positive floats only (an int 10 would find 10.0's entry, 0.0 answer for -0.0)
        size = s["size"]
        k = _TENTHS.get(size) if type(size) is float else None
        if k is None:
            k = round(size, 1)
            if type(size) is float and size > 0 and len(_TENTHS) < 10_000:
                _TENTHS[size] = k
        sizes[k] = sizes.get(k, 0) + n
        f = s["font"]
        fonts[f] = fonts.get(f, 0) + n
        total += n
        if is_bold(f, s.get("flags", 0)):
            bold += n
    if not total:
        return (spans[0]["size"] if spans else 0.0), (spans[0]["font"] if spans else ""), False
    return max(sizes.items(), key=_count)[0], max(fonts.items(), key=_count)[0], bold * 2 > total


def _count(item: tuple) -> int:
    return item[1]


def _span(s: dict) -> dict:
    return {"text": s["text"], "size": s["size"], "font": s["font"], "bbox": tuple(s["bbox"]),
            "color": s.get("color"), "flags": s.get("flags", 0)}


def _make_line(page: int, block: int, raw_lines: list[dict]) -> Line:
    spans = [_span(s) for rl in raw_lines for s in rl["spans"] if s["text"]]
    if len(raw_lines) == 1:
        x0, y0, x1, y1 = raw_lines[0]["bbox"]
    else:
        x0, y0, x1, y1 = union([rl["bbox"] for rl in raw_lines])
    parts = []
    for rl in raw_lines:
        t = "".join(s["text"] for s in rl["spans"])
        if parts and t and not parts[-1].endswith(" ") and not t.startswith(" "):
            parts.append(" ")
        parts.append(t)
    size, font, bold = _dominant(spans)
    d = raw_lines[0].get("dir", (1, 0))
    horizontal = abs(d[1]) < 0.05 and d[0] > 0
    gap = 0.0
    pieces = sorted((s["bbox"] for s in spans if s["text"].strip()), key=lambda b: b[0])
    for a, b in zip(pieces, pieces[1:]):
        if b[0] - a[2] > gap:  # gap = max(gap, b[0] - a[2])
            gap = b[0] - a[2]
    return Line(page, (x0, y0, x1, y1), " ".join("".join(parts).split()), spans, size, font, bold, block, horizontal,
                tuple(d), gap)


# Spacing accents a math accent prints as a glyph of its own above a letter (\\hat F_{ST}):
# MuPDF gives each its own line, which split the printed line around it.
_ACCENTS = set("\u02c6\u02dc\u00af\u02d9\u00a8\u00b4\u0060\u02c7\u02d8\u02da\u005e\u007e")


def _lines_of_block(page: int, bno: int, block: dict) -> list[Line]:
    """Join raw lines of one block that sit on the same baseline with a moderate gap.

    Raw lines are taken in the order of their tops; a line joins the one before it when
    both sit on one baseline. A piece of a line that stands a little higher (math with an
    accent, \\hat F_{ST}) comes earlier in that order and split the printed line around it,
    so a second pass joins neighbouring pieces on one row that nearly touch (a gap under
    one character), in either order, and drops an accent glyph printed over a piece.
    A wider gutter (review line numbers beside the text) keeps its pieces apart.
    """
    raw = [l for l in block["lines"] if any(s["text"].strip() for s in l["spans"])]
    raw.sort(key=lambda l: (round(l["bbox"][1]), l["bbox"][0]))
    groups: list[list[dict]] = []
    for rl in raw:
        if groups:
            last = groups[-1][-1]
            a, b = last["bbox"], rl["bbox"]
            # min() and max() spelled out (this runs once per raw line): min(x, y) is y if
            # y < x else x, max(x, y) y if y > x else x; the type size only once the rest holds
            ha, hb = a[3] - a[1], b[3] - b[1]
            h = hb if hb < ha else ha
            overlap = (b[3] if b[3] < a[3] else a[3]) - (b[1] if b[1] > a[1] else a[1])
            if last.get("dir") == rl.get("dir") and h > 0 and overlap >= 0.5 * h and -2 <= b[0] - a[2] \
                    and b[0] - a[2] <= 2.5 * max((s["size"] for s in rl["spans"]), default=10):
                groups[-1].append(rl)
                continue
        groups.append([rl])
    if len(groups) > 1:
        groups = _join_row_pieces(groups)
    if len(groups) > 2:
        groups = _join_stretched(groups)
    return [_make_line(page, bno, g) for g in groups]


def _word_gap(g: list[dict]) -> float:
    """The widest gap between the consecutive pieces of a group (0: one piece)."""
    boxes = sorted((rl["bbox"] for rl in g), key=lambda b: b[0])
    return max((b[0] - a[2] for a, b in zip(boxes, boxes[1:])), default=0.0)


def _join_stretched(groups: list[list[dict]]) -> list[list[dict]]:
    """Join the pieces of a justified line TeX stretched far, split where its widest space is.

    A long word that cannot break (an identifier, a URL) pushed to the next line leaves the
    line before it stretched: MuPDF then gives each word its own line, and the space after a
    sentence's or a label's full stop stretches three times as much as the others (twice that
    where the source adds a space of its own: "\\caption{⏎Text"), past the first pass's gap;
    "Figure 5." stood as a line of its own beside the rest of its caption's first row. Two
    pieces of one block on one baseline, in one size, join when the gap between them is at most
    six times the widest space inside them, that space itself stretched (half the type size or
    more, so MuPDF split the words), and a line of the same paragraph just above or below runs
    across the gap: a gutter between columns, subcaptions side by side or table cells is a
    white channel no line crosses, and tick labels and line numbers hold no space of their own.
    """
    out = list(groups)
    boxes = [union([l["bbox"] for l in g]) for g in out]
    i = 0
    while i + 1 < len(out):
        a, b = out[i], out[i + 1]
        la, lb = boxes[i], boxes[i + 1]
        left, right = (a, b) if la[0] < lb[0] else (b, a)
        lk, rk = (la, lb) if la[0] < lb[0] else (lb, la)
        gap = rk[0] - lk[2]
        ba, bb = _baseline(a), _baseline(b)
        joined = False
        if (gap > 0 and ba is not None and bb is not None and ba[0] == bb[0] and abs(ba[1] - bb[1]) < 0.3
                and a[0].get("dir") == b[0].get("dir")):
            space = max(_word_gap(left), _word_gap(right))
            size = ba[1]
            if space >= 0.5 * size and gap <= 6 * space:
                near = 2.5 * size
                joined = any(k not in (i, i + 1) and ok[0] <= lk[2] and ok[2] >= rk[0]
                             and (abs(ok[1] - lk[1]) <= near or abs(ok[3] - lk[3]) <= near)
                             for k, ok in enumerate(boxes))
        if joined:
            out[i] = left + right
            boxes[i] = union([lk, rk])
            del out[i + 1], boxes[i + 1]
        else:
            i += 1
    return out


# Spacing accents a math accent prints as a glyph of its own above a letter.
_ACCENTS = set("\u02c6\u02dc\u00af\u02d9\u00a8\u00b4\u0060\u02c7\u02d8\u02da^~")


def _join_row_pieces(groups: list[list[dict]]) -> list[list[dict]]:
    def text(g) -> str:
        return "".join(s["text"] for l in g for s in l["spans"]).strip()

    out = list(groups)
    # each group's box and writing direction (its first line's), kept beside it in step
    boxes = [union([l["bbox"] for l in g]) for g in out]
    dirs = [g[0].get("dir") for g in out]
    i = 0
    while i < len(out):
        merged = False
        a = boxes[i]
        for j in range(max(0, i - 4), min(len(out), i + 5)):
            if j == i:
                continue
            b = boxes[j]
            # on one row: the same direction and overlapping by half the lower height (this
            # runs for every pair of neighbours: min(x, y) spelled out is y if y < x else x,
            # max(x, y) y if y > x else x)
            ha, hb = a[3] - a[1], b[3] - b[1]
            h = hb if hb < ha else ha
            if not (dirs[i] == dirs[j] and h > 0 and
                    (b[3] if b[3] < a[3] else a[3]) - (b[1] if b[1] > a[1] else a[1]) >= 0.5 * h):
                continue
            t = text(out[i])
            if t and all(c in _ACCENTS for c in t) and b[0] - 1 <= a[0] and a[2] <= b[2] + 1:
                del out[i], boxes[i], dirs[i]  # an accent over a letter of its neighbour
                merged = True
                break
            if a[2] <= b[0]:
                left, right, lk = out[i], out[j], a
                gap, rk = b[0] - a[2], b
            else:
                left, right, lk = out[j], out[i], b
                gap, rk = a[0] - b[2], a
            # the smaller type decides: a gutter of review line numbers is wider than their size
            size = min(max((s["size"] for l in g for s in l["spans"]), default=10) for g in (out[i], out[j]))
            # a piece out of the first pass's order, which joins pieces in order only (a
            # superscript raises its top above its left neighbour's; a word in smaller type, an
            # acronym in small capitals, lowers its top below the rest of its row): on one
            # baseline they join with that pass's gap, in one size or when neither piece is a
            # number alone (review line numbers share the baseline but are set smaller)
            bi, bj = _baseline(out[i]), _baseline(out[j])
            wide = (2.5 * size if bi is not None and bj is not None and bi[0] == bj[0]
                    and (abs(bi[1] - bj[1]) < 0.3 or not any(_NUMBER_PIECE.fullmatch(text(g)) for g in (left, right)))
                    else size)
            if -2 <= gap <= wide and lk[0] < rk[0]:
                k, gone = min(i, j), max(i, j)
                out[k] = left + right
                boxes[k] = union([l["bbox"] for l in out[k]])
                dirs[k] = out[k][0].get("dir")
                del out[gone], boxes[gone], dirs[gone]
                merged = True
                break
        if merged:
            i = max(0, i - 5)
        else:
            i += 1
    return out


_NUMBER_PIECE = re.compile(r"[\d\s]+")


def _baseline(g: list[dict]) -> tuple[float, float] | None:
    """The baseline of a group's largest type, to the nearest half point, and that size (None:
    no origin)."""
    spans = [s for l in g for s in l["spans"] if s["text"].strip() and "origin" in s]
    if not spans:
        return None
    top = max(spans, key=lambda s: s["size"])
    return round(2 * top["origin"][1]) / 2, top["size"]


_RADICALS = set("\u221a\u221b\u221c")


def _seat_raised_signs(lines: list[Line]) -> None:
    """A radical sign stands higher than its row (it covers the radicand: "of ∼√N") and MuPDF
    gives it a block of its own, so no block's joining sees it. Read by its own box it is a
    row between two rows, indented: out of order, or a new paragraph's first line. Seated on
    the row of the radicand it touches on its right (the sign's foot lies in that row), it is
    read as that row's piece."""
    for ln in lines:
        if not ln.horizontal or not ln.text.strip() or any(c not in _RADICALS for c in ln.text.strip()):
            continue
        x0, y0, x1, y1 = ln.bbox
        for r in lines:
            if r is ln or not r.horizontal or abs(r.bbox[0] - x1) > 0.3 * ln.size:
                continue
            if r.bbox[1] > y0 + 1 and r.bbox[1] < y1 <= r.bbox[3] + 1:
                ln.bbox = (x0, r.bbox[1], x1, r.bbox[3])
                break


def read_page(page: pymupdf.Page, forms=None) -> PageData:
    """`forms`: the document's pdf_forms.FormInflater, whose paths-only forms are left out of
    the text pass."""
    with forms.text_pass(page.number) if forms is not None else nullcontext():
        tp = page.get_textpage(flags=_TEXT_FLAGS)
        d = tp.extractDICT()
        # MuPDF reads a page in its unrotated coordinates, whatever its /Rotate; a page whose
        # text runs sideways (a float set turned) is read again in the frame where it runs upright
        w, h = turn.unrotated_size(page)
        angle = turn.page_turn(d)
        m = None
        if angle:
            m = turn.turn_matrix(angle, w, h)
            w, h = turn.turned_size(angle, w, h)
            # the mediabox clip is the turned page's: MuPDF would clip to the page's own box,
            # the turned frame's width cut at the page's height (a sideways caption lost its end)
            tp = page.get_textpage(flags=_TEXT_FLAGS, matrix=m, clip=pymupdf.Rect(0, 0, w, h))
            d = tp.extractDICT()
    data = PageData(page.number, w, h, turn=angle)
    texts = [s["text"] for b in d["blocks"] for l in b.get("lines", ()) for s in l["spans"]]
    if any(_spaceless(t) for t in texts if len(t) >= 30):
        d = _respaced(tp)
    _t1_ligatures(d, texts)
    fix_type3_sizes(page.parent, d)
    _seat_displaced_spans(d)
    data.drawings, data.paths_total, data.frames, fills = _paths(page, forms, m)
    # a symbol font's glyphs (R's Dingbats points) are marks, not text: lines of "●●●" would
    # outnumber the prose and move the text columns (paths.glyph_marks). They are a figure's
    # marks where a figure is found, not what finds it (a table's check marks are no figure).
    data.marks = [PathRecord(p, p["rect"]) for p in glyph_marks(d)]
    drop_hidden_text(page, d, fills, matrix=m)
    joined = "\n".join(texts)  # the span texts as first read, searched once for each kind of fix
    _plain_math_letters(d, joined)
    compose_accents(d, joined)
    for bno, block in enumerate(d["blocks"]):
        if block.get("type") == 0:
            data.lines.extend(_lines_of_block(page.number, bno, block))
    _seat_raised_signs(data.lines)
    data.images = _images(page, m)
    data.matrix = tuple(page.transformation_matrix * m) if m is not None else tuple(page.transformation_matrix)
    every = _links(page)
    data.links = [l for l in every if l.get("kind") in (pymupdf.LINK_GOTO, pymupdf.LINK_NAMED) and not _other_dest(l)]
    notes = [l for l in every if (l.get("nameddest") or "").startswith("Hfootnote.")]
    if m is not None:
        for link in data.links + notes:  # get_links gives the hot area on the page as displayed
            link["from"] = pymupdf.Rect(turn.box(link["from"] * page.derotation_matrix, m))
    data.note_marks = [tuple(l["from"]) for l in notes]
    if data.links:
        # mupdf's own words under each link: exact, unlike estimates from span boxes
        words = tp.extractWORDS()
        for link in data.links:
            r = link["from"]
            link["text"] = " ".join(w[4] for w in words if r.x0 - 1 <= (w[0] + w[2]) / 2 <= r.x1 + 1 and r.y0 - 1 <= (w[1] + w[3]) / 2 <= r.y1 + 1)
    return data


def _paths(page: pymupdf.Page, forms, m):
    """read_paths of the page, its scatters' runs of markers read once each (pdf_markers) and
    the page read again as it is where a run does not check."""
    if forms is None:
        return read_paths(page, matrix=m)
    try:
        with forms.path_pass(page.number, collapse=True) as runs:
            return read_paths(page, matrix=m, runs=runs)
    except Collapsed:
        with forms.path_pass(page.number):
            return read_paths(page, matrix=m)


def _links(page: pymupdf.Page) -> list[dict]:
    """The page's links as `page.get_links()` gives those figlint reads (kind, "from" and, for
    a named destination, "nameddest"), read from MuPDF's list directly where every internal
    link names its destination, as hyperref's do. get_links resolves each destination to its
    page and point (loading the target page, a look-up in the name tree), which figlint does
    once for all names (pdf._dest_names): 0.13 ms a link, 47 ms on a paper of 360 links. A page
    with another kind of internal link (a page number and view) is read by get_links."""
    mu = pymupdf.mupdf
    out = []
    link = mu.fz_load_links(page.this)
    while link.m_internal:
        uri = link.uri()
        if uri:
            if uri.startswith("#nameddest=") and "%" not in uri:  # an escaped name: get_links unescapes it
                r = link.rect()
                out.append({"kind": pymupdf.LINK_NAMED, "from": pymupdf.Rect(r.x0, r.y0, r.x1, r.y1),
                            "nameddest": uri[len("#nameddest="):]})
            elif not mu.fz_is_external_link(uri):
                return page.get_links()
        link = link.next()
    return out


NONFIG_DESTS = {
    "section", "subsection", "subsubsection", "paragraph", "subparagraph", "chapter", "part", "appendix",
    "table", "subtable", "equation", "cite", "hfootnote", "footnote", "page", "item", "algorithm",
    "algocf", "alg", "lstlisting", "lstnumber", "theorem", "lemma", "definition", "proposition",
    "corollary", "remark", "example", "doc-start", "section*", "subsection*", "chapter*", "enumi",
    "hline", "mpfootnote", "ams", "nomenclature", "glossary", "index", "toc", "lof", "lot", "x1",
}


def _other_dest(link: dict) -> bool:
    """A named destination hyperref gives to something that is not a figure (a citation, a section)."""
    name = link.get("nameddest") or ""
    return bool(name) and name.split(".")[0].lower() in NONFIG_DESTS


# Mathematical Alphanumeric Symbols (U+1D400-U+1D7FF) and the italic h (U+210E): a class
# that maps its math fonts to Unicode (acmart; unicode-math) prints $p$ as U+1D45D, which a
# reader reads as the letter p, as the same $p$ set in other classes is extracted.
_MATH_LETTERS = {cp: unicodedata.normalize("NFKC", chr(cp)) for cp in [*range(0x1D400, 0x1D800), 0x210E]
                 if len(unicodedata.normalize("NFKC", chr(cp))) == 1}


_MATH_CHAR = re.compile("[\U0001D400-\U0010FFFF\u210e]")  # a character _MATH_LETTERS may map


# A TeX font in the OT1 encoding (LaTeX's default without \usepackage[T1]{fontenc}) has no
# accented letters: \"u is the accent glyph set over the letter, which MuPDF reads as a spacing
# accent before it ("f¨ur", "Poincar´e", "na¨ıve"). Read as the letter the page shows: the spacing
# accent and the letter after it composed, where Unicode has the accented letter (a dotless i
# takes the accent as i does). The grave (also a typewriter font's backquote) only outside
# typewriter fonts.
_SPACING_ACCENTS = {"\u00a8": "\u0308", "\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "\u02dc": "\u0303",
                    "\u00b8": "\u0327", "\u02c7": "\u030c", "\u02d8": "\u0306", "\u02d9": "\u0307", "\u00af": "\u0304",
                    "\u02dd": "\u030b", "\u02da": "\u030a"}
_ACCENT_LETTER = re.compile("([\u00a8\u00b4`\u02c6\u02dc\u00b8\u02c7\u02d8\u02d9\u00af\u02dd\u02da])([A-Za-z\u0131])")


def _accent_letter(m: re.Match) -> str:
    letter = "i" if m.group(2) == "\u0131" else m.group(2)
    got = unicodedata.normalize("NFC", letter + _SPACING_ACCENTS[m.group(1)])
    return got if len(got) == 1 else m.group(0)


def _spans_of(d: dict):
    """Every span of a text dict, in its order."""
    for b in d["blocks"]:
        for l in b.get("lines", ()):
            yield from l["spans"]


def compose_accents(d: dict, joined: str | None = None) -> None:
    """Spacing accents before letters in a text dict's spans composed into accented letters
    (_ACCENT_LETTER). `joined`: the page's span texts joined, when at hand (one search first)."""
    if joined is not None and not _ACCENT_LETTER.search(joined):
        return
    for s in _spans_of(d):
        t = s["text"]
        if _ACCENT_LETTER.search(t) and not ("`" in t and is_mono(s.get("font", ""), s.get("flags", 0))):
            s["text"] = _ACCENT_LETTER.sub(_accent_letter, t)  # (a backquote in code is left alone)


def _plain_math_letters(d: dict, joined: str | None = None) -> None:
    """`joined`: the page's span texts as first read, joined, when at hand (one search over them
    first: a page without such a character, most pages, is not walked span by span)."""
    if joined is not None and not _MATH_CHAR.search(joined):
        return
    for s in _spans_of(d):
        t = s["text"]
        if _MATH_CHAR.search(t):
            s["text"] = t.translate(_MATH_LETTERS)


def _seat_displaced_spans(d: dict) -> None:
    """A span whose box does not hold its own baseline (a font whose metrics MuPDF cannot
    read right: a degree sign's box 25 pt above the line it is set on) is seated on that
    baseline, as its line's other spans sit on theirs, and its line's box is measured again: a
    line stretched up into the caption above it read as that caption's next line."""
    for b in d["blocks"]:
        for l in b.get("lines", ()):
            spans = l["spans"]
            if l.get("dir", (1, 0)) != (1, 0) or not spans:
                continue
            off = [s for s in spans if "origin" in s and s["text"].strip()
                   and not s["bbox"][1] - 0.2 * s["size"] <= s["origin"][1] <= s["bbox"][3] + 0.2 * s["size"]]
            if not off:
                continue
            good = [s["bbox"][3] - s["origin"][1] for s in spans if "origin" in s and s not in off and s["size"] > 0]
            for s in off:
                x0, y0, x1, y1 = s["bbox"]
                below = min(good) if good else 0.22 * (y1 - y0)
                y = s["origin"][1]
                s["bbox"] = (x0, y + below - (y1 - y0), x1, y + below)
            boxes = [s["bbox"] for s in spans]
            l["bbox"] = (min(x[0] for x in boxes), min(x[1] for x in boxes), max(x[2] for x in boxes), max(x[3] for x in boxes))


def _spaceless(text: str) -> bool:
    """Long text without spaces: the PDF positions words apart instead of printing spaces."""
    return len(text) >= 30 and text.count(" ") < 0.03 * len(text)


# pdfTeX sets text in the T1 (Cork) encoding with bitmap Type 3 fonts when the EC fonts have no
# Type 1 form (a TeX installation without CM-Super): their glyphs have no Unicode names, and
# MuPDF gives each as its code. Letters are where ASCII has them; the ligatures and dashes are
# control characters ("\x1cgure" for "figure", "re\x1dection"), so no word with them is read.
_T1_CODES = {0x15: "\u2013", 0x16: "\u2014", 0x1B: "ff", 0x1C: "fi", 0x1D: "fl", 0x1E: "ffi", 0x1F: "ffl"}
_T1_CONTROL = lazy("[\x15\x16\x1b-\x1f]")
_T1_IN_WORD = re.compile("[A-Za-z][\x1b-\x1f]|[\x1b-\x1f][A-Za-z]")


def _t1_ligatures(d: dict, texts: list[str] | None = None) -> None:
    """The T1 ligatures and dashes of a page's text fonts read as the letters they print. Only
    in a font whose text on the page is mostly letters with such a code inside a word: a math
    extension font's delimiters (also control characters, by themselves) stay as they are.
    `texts`: the page's span texts, if listed already (one search over them first)."""
    if texts is not None and not _T1_IN_WORD.search("\n".join(texts)):
        return
    spans = [s for b in d["blocks"] for l in b.get("lines", ()) for s in l["spans"]]
    fonts = {s["font"] for s in spans if _T1_IN_WORD.search(s["text"])}
    if not fonts:
        return
    letters: dict[str, list[int]] = {f: [0, 0] for f in fonts}
    for s in spans:
        n = letters.get(s["font"])
        if n is not None:
            t = s["text"]
            n[0] += sum(c.isalpha() for c in t)
            n[1] += len(t) - t.count(" ")
    text_fonts = {f for f, (a, n) in letters.items() if n and a >= 0.6 * n}
    for s in spans:
        if s["font"] in text_fonts and _T1_CONTROL.search(s["text"]):
            s["text"] = s["text"].translate(_T1_CODES)


def _respaced(tp: pymupdf.TextPage) -> dict:
    """Text dict rebuilt from characters, with a space wherever the gap is a word gap."""
    d = tp.extractRAWDICT()
    for b in d["blocks"]:
        for l in b.get("lines", ()):
            for s in l["spans"]:
                chars = s.pop("chars", [])
                out = []
                for a, c in zip([None] + chars, chars):
                    if a is not None and c["c"] != " " and a["c"] != " " and c["bbox"][0] - a["bbox"][2] > 0.1 * s["size"]:
                        out.append(" ")
                    out.append(c["c"])
                s["text"] = "".join(out)
    return d


def _images(page: pymupdf.Page, m: pymupdf.Matrix | None = None) -> list[dict]:
    listed = page.get_images(full=True)
    if not listed:
        return []  # get_image_info walks the content stream: skip it on pages without images
    names = {item[0]: item[7] for item in listed}
    out = []
    w, h = turn.unrotated_size(page)
    prect = pymupdf.Rect(0, 0, w, h)  # image boxes come in unrotated coordinates, like the text
    for info in image_info_xrefs(page):  # one matching of placements to image streams
        bbox = pymupdf.Rect(info["bbox"]) & prect
        if bbox.is_empty:
            continue
        full = pymupdf.Rect(info["full"])
        if m is not None:
            bbox = pymupdf.Rect(turn.box(bbox, m))
            full = pymupdf.Rect(turn.box(full, m))
        a, b, c, dd = info["transform"][:4]
        disp_w, disp_h = math.hypot(a, b), math.hypot(c, dd)
        xref = info.get("xref") or None
        out.append({
            "bbox": tuple(bbox), "width": info["width"], "height": info["height"], "full": tuple(full),
            "disp_w": disp_w, "disp_h": disp_h, "xref": xref,
            "name": names.get(xref, "") if xref else "",
        })
    return out


def image_info_xrefs(page: pymupdf.Page) -> list[dict]:
    """`page.get_image_info()` with an "xref" for each image whose pixel size names one image of
    the page (0 when several share it), as _images matches them; each "bbox" cut to its clip,
    "full" the whole placed box; images clipped away entirely left out (_clipped_image_info).

    Never `get_image_info(xrefs=True)`: it decodes every image of the page in full to hash it,
    a decompression bomb (an image declared 15,000 x 15,000 pixels over a few bytes of data
    costs 700 MB; larger ones raise FzErrorLimit).
    """
    listed = page.get_images(full=True)
    if not listed:
        return []  # get_image_info walks the content stream: skip it on pages without images
    by_size: dict[tuple[int, int], list[int]] = {}
    for item in listed:
        by_size.setdefault((item[2], item[3]), []).append(item[0])
    infos = _clipped_image_info(page)
    if any(len(v) > 1 for v in by_size.values()) and all(item[2] * item[3] <= MAX_DECODE_PIXELS for item in listed):
        # Several images of one pixel size (two charts exported alike, side by side): only
        # MuPDF's own matching, which decodes each image to hash it, tells them apart. Safe
        # when every image of the page is below the decode cap (figlint/budget.py).
        try:
            matched = page.get_image_info(xrefs=True)
        except Exception:  # noqa: BLE001 - keep the unmatched reading
            matched = None
        if matched is not None and len(matched) == len(infos):
            return [dict(a, xref=b.get("xref") or 0) for a, b in zip(infos, matched) if a["shown"]]
    out = []
    for info in infos:
        if info["shown"]:
            match = by_size.get((info["width"], info["height"]), [])
            out.append(dict(info, xref=match[0] if len(match) == 1 else 0))
    return out


def cut_from(shown, full) -> tuple | None:
    """`full` (an image's whole placed box) when the part that prints (`shown`) is smaller, else
    None: RasterImage.placed."""
    if max(abs(a - b) for a, b in zip(shown, full)) < 0.01:
        return None
    return tuple(full)


def _clipped_image_info(page: pymupdf.Page) -> list[dict]:
    """`get_image_info()`'s list (every placement, in content order), each "bbox" cut to the clip
    in force when the image is painted, "full" its whole placed box, "shown" False when the
    clip leaves nothing of it.

    A figure PDF cut out of a larger page often keeps the images outside its new page box;
    pdfTeX places it as a Form XObject whose /BBox clips them, so they never print. MuPDF's
    text device cuts image boxes to the clip with TEXT_CLIP (the flag that also drops clipped
    characters, as the text reading does); an image clipped away entirely comes back with an
    inverted box. The list keeps every entry, so that it pairs one to one with
    `get_image_info(xrefs=True)`."""
    tp = page.get_textpage(flags=pymupdf.TEXT_PRESERVE_IMAGES | pymupdf.TEXT_CLIP)
    infos = tp.extractIMGINFO()
    del tp
    for info in infos:
        x0, y0, x1, y1 = info["bbox"]
        full = pymupdf.Rect(0, 0, 1, 1) * pymupdf.Matrix(info["transform"])
        info["full"] = (full.x0, full.y0, full.x1, full.y1)
        # inverted: clipped away; cut to nothing (no area left of a box that had some): as well
        info["shown"] = x1 >= x0 and y1 >= y0 and ((x1 > x0 and y1 > y0) or full.is_empty)
    return infos


def is_mono(font: str, flags: int = 0) -> bool:
    """Typewriter fonts set code and prompts, never the running text of a paper."""
    if flags & 8:
        return True
    got = _MONO_NAMES.get(font)
    if got is None:  # asked of every span: one answer per font name
        name = font.lower()
        got = any(k in name for k in ("mono", "courier", "cmtt", "lmtt", "typewriter", "consol", "inconsolata"))
        if len(_MONO_NAMES) < 10_000:
            _MONO_NAMES[font] = got
    return got


_MONO_NAMES: dict[str, bool] = {}


def body_stats(pages: list[PageData]) -> tuple[float, str]:
    """Most common text size (by characters, to the half point) and the font used at it.

    Typewriter text is left out: a paper full of code listings still has its prose in a text face.
    So is text inside an included graphic's box (a plot's labels): a supplement of many figures
    and little prose has more label characters than text ones (its body read as 4.5 pt). Unless
    that leaves no text to speak of: then every line counts.
    """
    sizes, fonts = _size_counts(pages, outside_graphics=True)
    if sum(sizes.values()) < 100:
        sizes, fonts = _size_counts(pages, outside_graphics=False)
    if not sizes:
        return 10.0, ""
    body = sizes.most_common(1)[0][0]
    at_body = Counter({f: n for (sz, f), n in fonts.items() if sz == body})
    return body, (at_body.most_common(1)[0][0] if at_body else "")


def _size_counts(pages: list[PageData], outside_graphics: bool) -> tuple[Counter, Counter]:
    sizes: Counter = Counter()
    fonts: Counter = Counter()
    for pd in pages:
        for ln in pd.lines:
            if not ln.horizontal or outside_graphics and pd.frames and _in_graphic(ln.bbox, pd):
                continue
            for s in ln.spans:
                n = len(s["text"].strip())
                if n and s["size"] >= 1 and not is_mono(s["font"], s.get("flags", 0)):
                    sizes[round(s["size"] * 2) / 2] += n
                    fonts[(round(s["size"] * 2) / 2, s["font"])] += n
    return sizes, fonts


def page_layout(layout: Layout, pd: PageData) -> Layout:
    """The layout as it lies on a page read turned (pdf_turn): the text block turned with the
    page. A float set sideways spans the text block's height, its caption as wide as that
    (the portrait columns would cut it); on an upright page the layout itself."""
    if not pd.turn or not layout.columns:
        return layout
    c0, c1 = layout.columns[0][0], layout.columns[-1][1]
    top, bottom = layout.text_top, layout.text_bottom
    w, h = pd.width, pd.height  # the turned page's: its width is the portrait height
    if pd.turn == 90:  # u = H - y, v = x
        cols, v0, v1 = [(w - bottom, w - top)], c0, c1
    elif pd.turn == 270:  # u = y, v = W - x
        cols, v0, v1 = [(top, bottom)], h - c1, h - c0
    else:  # upside down: the columns mirrored
        cols, v0, v1 = [(w - b, w - a) for a, b in reversed(layout.columns)], h - bottom, h - top
    return Layout(layout.body_size, layout.body_font, cols, v0, v1, layout.line_gap)


def break_joiner(before: str, after: str) -> str:
    """How a printed line ending in `before` goes on with the next line's `after`: "-" when
    the hyphen at its end is TeX's hyphenation (dropped, the word joined: "hyphen-" +
    "ation"), "" when the hyphen is printed as part of the word ("state-of-the-" + "art",
    "CI-" + "FAR" (an upper-case word), "non-" + "English", "2-" + "element": TeX breaks no
    number), else " ". The one rule for captions (pdf_captions.join_lines) and paragraphs
    (pdf_sites). A soft hyphen (U+00AD, what fonts in T2A and other encodings print for TeX's
    hyphen) always ends a broken word: "-", dropped."""
    if before.endswith("\u00ad") and len(before) > 1:
        return "-"
    if before.endswith("-") and len(before) > 1:
        c = before[-2]
        if c.isalpha() and after[:1].islower():
            word = before.rsplit(None, 1)[-1]  # from the right: a paragraph may be long
            return "" if "-" in word[:-1] else "-"
        if c.isalpha() and after[:1].isupper() or c.isdigit() and after[:1].isalnum():
            return ""
    return " "


def is_body_size(size: float, body: float) -> bool:
    return abs(size - body) <= 0.6


def find_layout(pages: list[PageData], body: float, font: str) -> Layout:
    """Text columns and the vertical text block, from long lines at body size."""
    cand = [ln for pd in pages for ln in pd.lines
            if ln.horizontal and is_body_size(ln.size, body) and len(ln.text) >= 25]
    if not cand:
        width = pages[0].width if pages else 612.0
        height = pages[0].height if pages else 792.0
        return Layout(body, font, [(0.08 * width, 0.92 * width)], 0.06 * height, 0.94 * height)
    bins: Counter = Counter(round(ln.bbox[0] / 4) for ln in cand)
    need = max(3, 0.06 * len(cand))
    found: list[tuple[float, float, int]] = []  # (x0, x1, lines)
    for key, count in bins.most_common():
        if count < need:
            break
        members = [ln for ln in cand if abs(ln.bbox[0] - key * 4) <= 4]
        found.append((min(ln.bbox[0] for ln in members), statistics.median_high([ln.bbox[2] for ln in members]),
                      len(members)))
    columns = _merge_columns(_one_column_part(found))
    columns = _sparse_columns(cand, columns)
    columns.sort()
    if not columns:  # too little running text to see columns: one column over the text's extent
        columns = [(min(ln.bbox[0] for ln in cand), max(ln.bbox[2] for ln in cand))]
    tops, bottoms = [], []
    # Full lines of running text only: a running head ("4 SPECIALIZED INSTALLATIONS") is
    # long and at body size too, but much shorter than a line of a paragraph.
    full = 0.6 * statistics.median(ln.bbox[2] - ln.bbox[0] for ln in cand)
    # Nor is a page's first or last line running text when it is printed alike, at the same
    # height, on three pages or more and set apart from the text: an APA manuscript's running
    # head, the title in capitals at body size, is two thirds of a line, and taken for the text
    # block's first line it left every running head in the text.
    pages_at: dict[tuple[str, int], set[int]] = {}
    for ln in cand:
        pages_at.setdefault((_shape(ln.text), round(ln.bbox[1])), set()).add(ln.page)
    repeated = {k for k, on in pages_at.items() if len(on) >= 3}
    line_gap = _line_gap(cand, body)
    apart = line_gap + 0.8 * body  # a head's distance from the text: wider than a line's
    for pd in pages:
        full_lines = sorted((ln for ln in pd.lines if ln.horizontal and is_body_size(ln.size, body)
                             and len(ln.text) >= 25 and ln.bbox[2] - ln.bbox[0] >= full and ln.gap < 1.5 * ln.size),
                            key=lambda l: l.bbox[1])
        while len(full_lines) > 1 and _set_apart(full_lines[0], full_lines[1], repeated, apart):
            del full_lines[0]
        while len(full_lines) > 1 and _set_apart(full_lines[-1], full_lines[-2], repeated, apart):
            del full_lines[-1]
        ys = [ln.bbox for ln in full_lines]
        if ys:
            tops.append(min(b[1] for b in ys))
            bottoms.append(max(b[3] for b in ys))
    # A low percentile, not the minimum: one stray long line in a header must not move the text block.
    tops.sort()
    bottoms.sort(reverse=True)
    text_top = tops[len(tops) // 10] if tops else 0.0
    text_bottom = bottoms[len(bottoms) // 10] if bottoms else pages[0].height
    return Layout(body, font, columns, text_top, text_bottom, line_gap)


def _set_apart(ln: Line, nxt: Line, repeated: set, apart: float) -> bool:
    """ln, a page's first (last) full line, is printed alike at that height on three pages or
    more and stands further from the next (previous) line than lines of text do: a running head
    (foot), not the text block's edge. Repetitive text inside the block is as close as any."""
    gap = nxt.bbox[1] - ln.bbox[3] if nxt.bbox[1] >= ln.bbox[1] else ln.bbox[1] - nxt.bbox[3]
    return (_shape(ln.text), round(ln.bbox[1])) in repeated and gap > apart


def _merge_columns(found: list[tuple[float, float, int]]) -> list[tuple[float, float]]:
    """Extents of left-aligned lines that overlap by half are one column."""
    columns: list[tuple[float, float]] = []
    for x0, x1, _n in found:
        for i, (c0, c1) in enumerate(columns):
            if min(c1, x1) - max(c0, x0) > 0.5 * min(c1 - c0, x1 - x0):
                columns[i] = (min(c0, x0), max(c1, x1))
                break
        else:
            columns.append((x0, x1))
    return columns


def _one_column_part(found: list[tuple[float, float, int]]) -> list[tuple[float, float, int]]:
    """A two-column paper with pages set in one column (an appendix, supplementary material,
    the references): the full-width lines start where the left column's do, and merged with
    it they made one column over the whole text block, so that every line of the right column
    crossed its "gutter" and two-column pages were read row by row across both columns. When
    two columns side by side hold more lines than an extent that crosses the gutter between
    them, that extent is the one-column part (or its indented lines), not a column: its lines
    are read as full-width lines, like a one-column abstract over two columns."""
    pairs = [(a, b) for a in found for b in found if a[1] < b[0]]
    if not pairs:
        return found
    a, b = max(pairs, key=lambda p: p[0][2] + p[1][2])
    return [c for c in found if not (c[0] < a[1] - 6 and c[1] > b[0] + 6 and c[2] < a[2] + b[2])]


def _sparse_columns(cand: list[Line], columns: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A column that holds only a few lines of running text in the whole paper (a short paper
    whose second column is mostly floats) is still a column: two or more long lines set over
    one another beside the columns found, outside all of them with a gutter between, and
    together as wide as one of them. A margin note is narrower; in a one-column paper
    nothing as wide fits beside the text."""
    if not columns:
        return columns
    out = list(columns)
    rest = [ln for ln in cand if all(min(ln.bbox[2], c1) - max(ln.bbox[0], c0) <= 0 for c0, c1 in out)]
    rest.sort(key=lambda l: l.bbox[0])
    used: set[int] = set()
    for ln in rest:
        if id(ln) in used:
            continue
        # lines over one another (a paragraph's indented first line included)
        members = [m for m in rest if id(m) not in used
                   and min(m.bbox[2], ln.bbox[2]) - max(m.bbox[0], ln.bbox[0]) > 0.5 * min(m.bbox[2] - m.bbox[0], ln.bbox[2] - ln.bbox[0])]
        if len(members) < 2:
            continue
        x0 = min(m.bbox[0] for m in members)
        x1 = max(m.bbox[2] for m in members)
        if not any(abs((x1 - x0) - (c1 - c0)) <= 0.05 * (c1 - c0) for c0, c1 in out):
            continue
        if any(min(x1, c1) - max(x0, c0) > -2 for c0, c1 in out):
            continue  # no gutter between it and a column found
        out.append((x0, x1))
        used.update(id(m) for m in members)
    return out


def _line_gap(cand: list[Line], body: float) -> float:
    """Median white space between consecutive body lines of one column on one page: negative
    where a font's boxes, as the PDF's metrics size them, are taller than the line pitch (the
    lines' boxes overlap by a point or two; left out, the median was the gap between
    paragraphs, and a caption read on into the text under it)."""
    gaps = []
    by_x: dict[tuple[int, int], list[Line]] = {}
    for ln in cand:
        by_x.setdefault((ln.page, round(ln.bbox[0] / 20)), []).append(ln)
    for group in by_x.values():
        group.sort(key=lambda l: l.bbox[1])
        for a, b in zip(group, group[1:]):
            g = b.bbox[1] - a.bbox[3]
            if -0.5 * body < g < 3 * body:
                gaps.append(g)
    return statistics.median(gaps) if len(gaps) >= 10 else 0.0


def mark_margins(pages: list[PageData], layout: Layout) -> None:
    """Running headers, footers (page numbers) and margin stamps (arXiv id) get a role.

    A line outside the text block is a header or footer only when it looks like
    one: a page number, text repeated on other pages, or a line in the outer
    strip of the page. The text block itself is estimated, so a caption line
    just below it must not be lost.
    """
    zone: list[tuple[PageData, Line, str]] = []
    for pd in pages:
        for ln in pd.lines:
            outside = ln.bbox[2] < layout.columns[0][0] - 2 or ln.bbox[0] > layout.columns[-1][1] + 2
            # A figure wider than the text block reaches into the margin: its labels there are
            # the graphic's (inside its own box), not margin notes or line numbers.
            if outside and _in_graphic(ln.bbox, pd):
                outside = False
            if not ln.horizontal:
                if outside:
                    ln.role = "margin"
                continue
            if outside and _LINE_NO.match(ln.text.strip()):
                ln.role = "margin"  # line numbers of a review copy (lineno, ametsoc, ICML)
                continue
            if ln.bbox[3] <= layout.text_top - 1.5:
                zone.append((pd, ln, "header"))
            elif ln.bbox[1] >= layout.text_bottom + 1.5:
                zone.append((pd, ln, "footer"))
    # Only the outer strip of a page holds running heads: a float at the top of every page
    # can put the estimated text block far down, and its tick labels look like page numbers.
    folios = _folios(zone)
    # The running head set on the folio's row (amsart's small text block puts both well
    # inside the page's outer strip) is as much a running head as the folio itself.
    rows = {(pd.index, role): [ln.bbox for p2, ln, r2 in zone if p2 is pd and r2 == role and id(ln) in folios]
            for pd, _ln, role in zone}
    on_row = {id(ln) for pd, ln, role in zone if any(_same_row(ln.bbox, b) for b in rows[(pd.index, role)])}
    zone = [(pd, ln, role) for pd, ln, role in zone
            if ln.bbox[3] < 0.1 * pd.height or ln.bbox[1] > 0.9 * pd.height or id(ln) in folios or id(ln) in on_row]
    # Text inside an included graphic's own box (a tick label of a plot set at the top of a
    # page, in classes with a tall text block such as IEEEtran) is part of that graphic.
    zone = [(pd, ln, role) for pd, ln, role in zone if not _in_graphic(ln.bbox, pd)]
    seen: Counter = Counter(_shape(ln.text) for _, ln, _ in zone)
    # A float taller than the text block (overfull) prints its caption in the page's foot, over
    # or under the page number: the caption's lines there are the float's, not the page's.
    caption = _caption_rows(pages, zone)
    for pd, ln, role in zone:
        if id(ln) in caption:
            continue
        outer = ln.bbox[3] < 0.06 * pd.height or ln.bbox[1] > 0.94 * pd.height
        if _PAGE_NO.match(ln.text.strip()) or outer or id(ln) in on_row:
            ln.role = role
        elif seen[_shape(ln.text)] >= 2 and not parse_float_label(ln.text):
            # two captions alike ("FIG. 6. As in Fig. 5, but for ...") are not a running foot
            ln.role = role
    # Entries of a list of figures ("Figure 3: Caption . . . . 12") are neither captions nor citations.
    for pd in pages:
        for ln in pd.lines:
            if not ln.role and _TOC_ENTRY.search(ln.text):
                ln.role = "toc"
    for pd in pages:
        _mark_wrapped_entries(pd, layout)
    _mark_lists_of_figures(pages)


def _caption_rows(pages: list[PageData], zone: list[tuple[PageData, Line, str]]) -> set[int]:
    """The lines of `zone` (outside the text block) that are a caption's: one that opens a
    caption, and each line set right under a caption line at its size (the page number between
    them, set over the caption's rows, skipped)."""
    out: set[int] = set()
    by_page: dict[int, list[Line]] = {}
    for pd, ln, _role in zone:
        by_page.setdefault(pd.index, []).append(ln)
    for pd in pages:
        mine = sorted(by_page.get(pd.index, ()), key=lambda l: l.bbox[1])
        if not mine:
            continue
        text = [l for l in pd.lines if l.horizontal and not _PAGE_NO.match(l.text.strip())]
        for ln in mine:
            if _PAGE_NO.match(ln.text.strip()):
                continue
            if _opens_caption(ln):
                out.add(id(ln))
                continue
            above = [l for l in text if l.bbox[3] <= ln.bbox[1] + 0.3 * (ln.bbox[3] - ln.bbox[1])
                     and min(l.bbox[2], ln.bbox[2]) - max(l.bbox[0], ln.bbox[0]) > 0 and l is not ln]
            prev = max(above, key=lambda l: l.bbox[3], default=None)
            if prev is not None and (id(prev) in out or (prev.role in ("", "caption") and _opens_caption(prev))) \
                    and abs(prev.size - ln.size) <= 0.5 and ln.bbox[1] - prev.bbox[3] < 0.8 * ln.size:
                out.add(id(ln))
    return out


def _same_row(a: BBox, b: BBox) -> bool:
    h = min(a[3] - a[1], b[3] - b[1])
    return h > 0 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5 * h


def _folios(zone: list[tuple[PageData, Line, str]]) -> set[int]:
    """Page numbers outside the outer strip (article prints them 1.2 in above the page's
    foot): lone numbers at one height on several pages that count up with the pages.
    Otherwise the number ran into the paragraph continued at the top of the next column."""
    rows: dict[tuple[str, int, str], list[tuple[int, int, Line]]] = {}
    for pd, ln, role in zone:
        t = ln.text.strip()
        if t.isdigit() and len(t) <= 4:
            rows.setdefault((role, round(ln.bbox[1]), ""), []).append((pd.index, int(t), ln))
            continue
        # the folio and the running head read as one line ("16 G. Author et al."): the same
        # head on each page of the row, the number counting with the pages
        m = re.match(r"^(\d{1,4})\s+(\D.*)$", t) or re.match(r"^(\D.*?)\s+(\d{1,4})$", t)
        if m:
            num, head = (m.group(1), m.group(2)) if m.group(1).isdigit() else (m.group(2), m.group(1))
            rows.setdefault((role, round(ln.bbox[1]), head), []).append((pd.index, int(num), ln))
    out: set[int] = set()
    for row in rows.values():
        row.sort(key=lambda r: r[0])
        if len(row) >= 2 and all(b[1] - a[1] == b[0] - a[0] for a, b in zip(row, row[1:])):
            out.update(id(ln) for _, _, ln in row)
    return out


def _in_graphic(b: BBox, pd: PageData) -> bool:
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    return any(f[0] <= cx <= f[2] and f[1] <= cy <= f[3] and (f[2] - f[0]) * (f[3] - f[1]) < 0.6 * pd.width * pd.height
               for f in pd.frames)


def _mark_wrapped_entries(pd: PageData, layout: Layout) -> None:
    """The lines of a list-of-figures entry that wraps ("Figure 1.1. A long title that runs
    on" over "onto a second line . . . . 23"): only its last line ends in leaders and the page
    number, while its first line opens like a caption, and a list headed in a language
    _LOF_HEAD does not read leaves it one. Up from each entry's last line, through the lines
    set tight over it, to the line that opens with a float label: the entry's lines.
    Some classes print no leaders (or the title fills the line and leaves room for none), only
    the page number at the right margin: such an entry counts when its number ends at a
    column's right edge, as another entry of the page does, nothing but the next entry runs
    on under it, and, wrapped, it hangs its lines under its title (a caption's lines run back
    to its label): a caption ending in a number ("... in 2023") or a table of numbers under
    its caption does not."""
    lines = [ln for ln in pd.lines if ln.horizontal and ln.role not in ("header", "footer", "margin")]
    tails: list[tuple[Line, Line | dict | None]] = []  # (an entry's last line, its number set apart)
    for ln in lines:
        pieces = [s for s in ln.spans if s["text"].strip()]
        if ln.role == "toc":
            tails.append((ln, None))
        elif ln.role:
            continue
        elif not any(abs(c1 - ln.bbox[2]) <= 2 for _c0, c1 in layout.columns):
            continue  # an entry's page number ends at the margin
        elif _PAGE_NO.match(ln.text.strip()):
            row = [t for t in lines if t is not ln and not t.role and _same_row(t.bbox, ln.bbox)
                   and ln.bbox[0] - t.bbox[2] >= ln.size]
            if row:
                tails.append((max(row, key=lambda t: t.bbox[2]), ln))
        elif len(pieces) >= 2 and _PAGE_NO.match(pieces[-1]["text"].strip()) and pieces[-1]["bbox"][0] > pieces[-2]["bbox"][2]:
            tails.append((ln, pieces[-1]))
    # a walk up stops at another entry's end: leaders, or a number on a line of its own
    ends = {id(t) for t, n in tails if not isinstance(n, dict)}
    entries: list[tuple[list[Line], Line | dict | None]] = []
    for last, number in tails:
        entry = [last]
        while not _opens_caption(entry[0]) and len(entry) < 8:
            cur = entry[0]
            above = [l for l in lines if l.bbox[3] <= cur.bbox[1] + 0.3 * (cur.bbox[3] - cur.bbox[1])
                     and min(l.bbox[2], cur.bbox[2]) - max(l.bbox[0], cur.bbox[0]) > 0]
            prev = max(above, key=lambda l: l.bbox[3], default=None)
            if prev is None or prev.role or id(prev) in ends or abs(prev.size - cur.size) > 1 \
                    or cur.bbox[1] - prev.bbox[3] > 0.8 * cur.size:
                break
            entry.insert(0, prev)
        if _opens_caption(entry[0]):
            entries.append((entry, number))
    # where each entry's page number ends: its last line's end, or the number's own
    right = [e[-1].bbox[2] if n is None else n["bbox"][2] if isinstance(n, dict) else n.bbox[2] for e, n in entries]
    for k, (entry, number) in enumerate(entries):
        if number is not None:
            aligned = any(abs(r - right[k]) <= 1.5 for j, r in enumerate(right) if j != k)
            if not aligned or any(ln.bbox[0] < entry[0].bbox[0] + ln.size for ln in entry[1:]) \
                    or not _entry_ends(entry[-1], lines):
                continue
        for ln in entry + ([number] if isinstance(number, Line) else []):
            ln.role = "toc"


def _entry_ends(last: Line, lines: list[Line]) -> bool:
    """Nothing runs on under `last` but the next entry: a caption's line that ends in a number
    (a justified line "... from 1990 to 2023") goes on in the line set tight under it."""
    below = [l for l in lines if l.bbox[1] >= last.bbox[3] - 0.3 * (last.bbox[3] - last.bbox[1])
             and min(l.bbox[2], last.bbox[2]) - max(l.bbox[0], last.bbox[0]) > 0 and l is not last]
    nxt = min(below, key=lambda l: l.bbox[1], default=None)
    return nxt is None or nxt.bbox[1] - last.bbox[3] > 0.8 * last.size or nxt.role == "toc" or _opens_caption(nxt)


# A list of figures repeats every caption (endfloat's "LIST OF FIGURES" before the figures,
# a thesis's front matter): its entries are neither captions nor citing text.
_LOF_HEAD = re.compile(r"^(?:List of (?:Figures|Illustrations|Tables)|LIST OF (?:FIGURES|ILLUSTRATIONS|TABLES)|"
                       r"Figure Captions|FIGURE CAPTIONS|(?:Table of )?Contents|(?:TABLE OF )?CONTENTS)$")


def _mark_lists_of_figures(pages: list[PageData]) -> None:
    """Every line from a "List of Figures" heading on, and its continuation pages (no images,
    entries ending in dot leaders and a page number), is marked as a table-of-contents line.
    Only the lines that carry the number of an entry end in leaders, so marking those alone
    leaves each entry's first line looking like a caption."""
    listing = False
    for pd in pages:
        lines = sorted((ln for ln in pd.lines if ln.horizontal and ln.role not in ("header", "footer", "margin")),
                       key=lambda l: (l.bbox[1], l.bbox[0]))
        head = next((ln for ln in lines if _LOF_HEAD.match(ln.text.strip())), None)
        # the heading's page must hold entries (dot leaders and page numbers) below it
        if head is not None and sum(1 for ln in lines if ln.role == "toc" and ln.bbox[1] > head.bbox[1]) >= 2:
            listing = True
            lines = [ln for ln in lines if ln.bbox[1] >= head.bbox[1] - 1]
        elif listing:
            listing = not pd.images and any(ln.role == "toc" for ln in lines)
        if listing:
            for ln in lines:
                if not ln.role:
                    ln.role = "toc"


# "Fig. 24 Predicted ..." / "Figure 3: ...": a float label, its number and words after it
_CAPTION_OPENER = lazy(r"^\s*(?:Supplementary\s+|Supporting\s+)?(?:Figure|Fig\.|FIGURE|FIG\.|Table|TABLE)[ \u00a0]*"
                       r"(?:[A-Z]{1,2}-|[A-Z][.\u00b7\u22c5]?)?\d+(?:[.\u00b7\u22c5]\d+)*[.:|]?[ \u00a0]+\S+\s+\S")


def _opens_caption(ln: Line) -> bool:
    """The line starts as a float caption does: a label and number followed by words."""
    return bool(_CAPTION_OPENER.match(ln.text)) or parse_float_label(ln.text) is not None


_LINE_NO = lazy(r"^\d{1,5}(?:\s+\d{1,5})*$")
_TOC_ENTRY = re.compile(r"(?:\.\s?){4,}\s*(?:\d+|[ivxlc]+)\s*$")


_PAGE_NO = lazy(r"^(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:/|of)\s*\d{1,4})?$", re.I)


def _shape(text: str) -> str:
    return re.sub(r"\d+", "#", text.strip().lower())


# ---- page geometry for a figure's fit (FL111) -------------------------------------------------
def page_columns(by_col: dict[int, list[Line]], layout: Layout,
                 widths: list[float | None] | None = None) -> list[tuple[float, float] | None]:
    """Each column's extent on a page, from its own lines of running text (`by_col`, the page's
    column_lines): a two-sided
    document shifts the text block between odd and even pages, which the document-wide
    columns merge. None for a column with fewer than three such lines on the page. Each edge
    is where many lines end (a fifth of them, three or more, within a point: flush-left and
    justified lines), so a line of a one-column abstract above two columns or one set too
    wide (an overfull URL) does not move it. A ragged right margin has no such edge (or one
    that a few lines share by chance, or a narrower list's, the references' set with a right
    indent): in a column set ragged right the width its displayed equations' numbers show
    (`widths`, number_widths: set flush right against the full measure) gives the edge; with
    no numbers either, the second largest right end, which still reaches near the edge."""
    out: list[tuple[float, float] | None] = []
    for i in range(len(layout.columns)):
        lines = by_col.get(i, [])
        if len(lines) < 3:
            out.append(None)
            continue
        x1s = sorted(ln.bbox[2] for ln in lines)
        left = _left_edge(lines)
        right = _shared_edge(x1s, max)
        width = widths[i] if widths and i < len(widths) else None
        if width is not None:
            right = left + width
        out.append((round(left, 2), round(right or x1s[-2], 2)))
    return out


def column_lines(pd: PageData, layout: Layout) -> dict[int, list[Line]]:
    """The page's lines of running text (long, at body size), by column."""
    tb0, tb1 = layout.columns[0][0], layout.columns[-1][1]
    by_col: dict[int, list[Line]] = {}
    for ln in pd.lines:
        if ln.role or not ln.horizontal or not is_body_size(ln.size, layout.body_size) or len(ln.text) < 25:
            continue
        if ln.bbox[0] > tb1 - 20 or ln.bbox[2] < tb0 + 20:
            continue  # a margin note
        col = layout.column_of(ln.bbox[0], ln.bbox[2])
        if col is not None:
            by_col.setdefault(col, []).append(ln)
    return by_col


def _left_edge(lines: list[Line]) -> float:
    """A column's left edge on its page, from three or more of its lines: where many start
    (_shared_edge), else the second leftmost start."""
    x0s = sorted(ln.bbox[0] for ln in lines)
    return _shared_edge(x0s, min) or x0s[1]


# A displayed equation's number: "(3)", "(12a)", "(A.4)", "(2-1)", "(S2)"
_EQ_NUMBER = re.compile(r"\((?:[A-Z]{1,2}\.?)?\d{1,3}(?:[.\-\u2013]\d{1,3}){0,2}[a-z]?\)")


def _equation_number_end(ln: Line) -> float | None:
    """Where a displayed equation's number ends, for a line that ends in one set apart: the
    whole line, or a piece after a gap of at least a quad (a citation "(2001)" or a
    reference "Eq. (3)" inside a sentence follows a word space)."""
    if not ln.horizontal or not ln.text.endswith(")") or is_mono(ln.font):
        return None
    spans = [s for s in ln.spans if s["text"].strip()]
    tail = ""
    for k in range(len(spans) - 1, -1, -1):
        tail = spans[k]["text"].strip() + tail
        if "(" in tail:
            break
    else:
        return None
    if not _EQ_NUMBER.fullmatch(tail):
        return None
    if k > 0 and spans[k]["bbox"][0] - max(s["bbox"][2] for s in spans[:k]) < ln.size:
        return None
    return spans[-1]["bbox"][2]


def number_widths(pages: list[PageData], layout: Layout, by_page: list[dict[int, list[Line]]]) -> list[float | None]:
    """Per column of a ragged right text, the width from the column's left edge on its page to
    where displayed equations' numbers end: set flush right against the full measure, they
    show the edge the running text does not. A column is ragged when on most pages most of
    its lines end more than 3 pt from where its full lines do (a justified one, None, shows
    its edge where its lines end). The width is one at least two numbers share within a
    point, the one shared on the most pages, then by the most numbers, in the right half of
    the column (numbers set on the left, leqno, show no right edge); None without one.
    `by_page`: each page's column_lines."""
    found: dict[int, list[tuple[float, int]]] = {}  # column -> (width, page)
    flush: Counter = Counter()  # column -> pages whose lines mostly end together, less pages whose do not
    for pd, by_col in zip(pages, by_page):
        for i, lines in by_col.items():
            x1s = sorted(ln.bbox[2] for ln in lines if not is_mono(ln.font))  # code is set ragged in any layout
            if len(x1s) >= 8:
                # most lines end within a few points (microtype's protrusion) of where full lines do
                full = x1s[int(0.75 * len(x1s))]
                flush[i] += 1 if sum(abs(x - full) <= 3.0 for x in x1s) >= 0.5 * len(x1s) else -1
        for ln in pd.lines:
            if ln.role or not is_body_size(ln.size, layout.body_size):
                continue
            end = _equation_number_end(ln)
            if end is None:
                continue
            # the column the number starts in: the ragged lines' median end, the document's
            # column edge, may lie left of it
            col = max((i for i, c in enumerate(layout.columns) if c[0] <= ln.bbox[0]), default=None)
            if col is None:
                continue
            lines = by_col.get(col, [])
            if len(lines) < 3:
                continue  # no left edge to measure from on this page
            left = _left_edge(lines)
            c0, c1 = layout.columns[col]
            if end - left < 0.5 * (c1 - c0):
                continue
            found.setdefault(col, []).append((end - left, pd.index))
    out: list[float | None] = []
    for i in range(len(layout.columns)):
        if flush[i] >= 0:
            out.append(None)  # justified: its lines show the edge
            continue
        ws = sorted(found.get(i, []))
        best, most = None, (1, 1)
        lo = hi = 0
        for w, _p in ws:  # the numbers within a point of w: a window sliding with w
            while w - ws[lo][0] > 1.0:
                lo += 1
            hi = max(hi, lo)
            while hi < len(ws) and ws[hi][0] - w <= 1.0:
                hi += 1
            # on the most pages (a table's column of bracketed counts stands on one), then most
            score = (len({p for _w, p in ws[lo:hi]}), hi - lo)
            if hi - lo >= 2 and score > most:
                best, most = statistics.median(v for v, _p in ws[lo:hi]), score
        out.append(best)
    return out


def _shared_edge(xs: list[float], pick) -> float | None:
    """The outermost (`pick`: min or max) position at which many of the lines end: at least a
    fifth of them, and three, within a point of it."""
    need = max(3, 0.2 * len(xs))
    # xs is sorted: the lines within a point of x are a window that slides with x (one pass,
    # not a count over all lines for each line; a page has hundreds), compared exactly as
    # abs(y - x) <= 1.0 compares
    shared = []
    lo = hi = 0
    n = len(xs)
    for x in xs:
        while x - xs[lo] > 1.0:
            lo += 1
        if hi < lo:
            hi = lo
        while hi < n and xs[hi] - x <= 1.0:
            hi += 1
        if hi - lo >= need:
            shared.append(x)
    return pick(shared) if shared else None


def margin_text(pages: list[PageData], layout: Layout) -> dict[str, list[float]]:
    """Where the document prints words beside its text block: side notes, margin captions,
    \\marginpar notes (tufte's classes set a whole column of them). {"left"|"right": [x0, x1,
    lines]} for a side with at least two lines of words there; line numbers, vertical stamps
    and the labels of an included graphic are not margin text."""
    tb0, tb1 = layout.columns[0][0], layout.columns[-1][1]
    sides: dict[str, list[float]] = {}
    for pd in pages:
        for ln in pd.lines:
            if not ln.horizontal or ln.role in ("header", "footer", "figure", "toc"):
                continue
            if sum(1 for w in ln.text.split() if sum(ch.isalpha() for ch in w) >= 3) < 2:
                continue
            if ln.bbox[0] >= tb1 + 2:
                side = "right"
            elif ln.bbox[2] <= tb0 - 2:
                side = "left"
            else:
                continue
            if _in_graphic(ln.bbox, pd):
                continue
            s = sides.setdefault(side, [ln.bbox[0], ln.bbox[2], 0])
            s[0], s[1], s[2] = min(s[0], ln.bbox[0]), max(s[1], ln.bbox[2]), s[2] + 1
    return {k: [round(v[0], 2), round(v[1], 2), v[2]] for k, v in sides.items() if v[2] >= 2}
