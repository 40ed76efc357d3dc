"""Body paragraphs and the places in them that cite a figure (PDF route).

Lines left over once captions, float regions, running headers and margins are
taken out are put in reading order (column by column, between full-width
elements) and cut into paragraphs at indents, short last lines, gaps and size
changes, keeping for every character run its page and box; a paragraph runs on
past a float set inside it, and past a footnote or a page's foot line into the
next column or page. Citing sites come from two sources: printed mentions ("Fig. 3b", via mentions.py) and link
annotations whose target is a figure anchor, which catch a bare number printed
by a lone \\ref ("as shown in 3"). A link whose text is already part of a
printed mention is not counted twice; the bibliography (back-references) and
lists of figures are skipped.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from figlint.ingest.pdf_layout import BBox, Layout, Line, PageData, break_joiner
from figlint.mentions import external_mention, find_mentions, in_series, normalize_number, sentence_at, series_before
from figlint.model import CitingSite, Location, union

_REFS_RE = re.compile(r"^(?:\d+\.?\s*|[A-Z]\.?\s+)?(References|REFERENCES|Bibliography|BIBLIOGRAPHY|Literature Cited|Works Cited)$")
_APPX_RE = re.compile(r"^(?:(?:[A-Z]|\d+)\.?\s+)?(?:Appendix|APPENDIX|Appendices|APPENDICES|Supplementary|SUPPLEMENTARY|Supplemental|SUPPLEMENTAL"
                      r"|Supporting\s+[Ii]nformation|SUPPORTING\s+INFORMATION|Online\s+[Aa]ppendix|Electronic\s+[Ss]upplementary)\b")
# "A Proofs", "B.2 Extra results", "S1: Sensitivity analysis" (a supplement's sections)
_LETTERED_RE = re.compile(r"^[A-Z](?:\d+)?(?:\.\d+)*[.:]?\s+[A-Z][a-z]")
_LOF_RE = re.compile(r"^(List of Figures|LIST OF FIGURES|Table of Contents|Contents|CONTENTS|List of Tables)$")


# Roles of the lines a float is made of (pdf.py: captions and the text inside its region).
_FLOAT_ROLES = ("caption", "figure", "table", "algorithm", "listing")


@dataclass
class Para:
    text: str = ""
    pieces: list[tuple[int, int, int, BBox, float]] = field(default_factory=list)  # start, end, page, bbox, order
    lines: list[Line] = field(default_factory=list)
    skip: bool = False  # bibliography, list of figures
    owner: str | None = None  # a caption's own figure number: it does not cite itself

    def order_at(self, pos: int) -> float | None:
        """Reading-order position of character pos (line order, then place in the line)."""
        for s, e, _pg, _bb, order in self.pieces:
            if s <= pos < e or pos < s:
                return order + min(pos, e) / 1e6
        return self.pieces[-1][4] if self.pieces else None

    def locate(self, start: int, end: int) -> tuple[int | None, BBox | None]:
        """Page (0-based) and approximate box of characters [start, end)."""
        boxes, page = [], None
        for s, e, pg, bb, _o in self.pieces:
            if e <= start or s >= end:
                continue
            n = max(e - s, 1)
            a, b = max(start, s) - s, min(end, e) - s
            w = bb[2] - bb[0]
            box = (bb[0] + w * a / n, bb[1], bb[0] + w * b / n, bb[3])
            if page is None:
                page = pg
            if pg == page:
                boxes.append(box)
        if not boxes:
            return None, None
        return page, union(boxes)


def heading_like(ln: Line, layout: Layout) -> bool:
    """A short line set bold or larger than the body: a section heading."""
    return (ln.bold or ln.size > layout.body_size + 0.5) and len(ln.text.split()) <= 10


def _col_bounds(ln: Line, layout: Layout) -> tuple[int, float, float]:
    col = layout.column_of(ln.bbox[0], ln.bbox[2])
    if col is None:
        return -1, layout.columns[0][0], layout.columns[-1][1]
    c0, c1 = layout.columns[col]
    return col, c0, c1


def reading_order(pd: PageData, layout: Layout, spanning: list[BBox], roles: tuple[str, ...] = ("",)) -> list[Line]:
    """Body lines of a page: full-width lines and float regions cut the page into bands."""
    lines = [ln for ln in pd.lines if ln.role in roles and ln.horizontal and ln.text.strip()]
    if len(layout.columns) == 1:
        c0, c1 = layout.columns[0]
        # a line wholly beside the text block is a margin note (a thesis's sidenotes): after the
        # page's text, not between two of its lines, where it cut the paragraph it stands by
        return _left_to_right(sorted(lines, key=lambda l: (l.bbox[0] >= c1 - 1 or l.bbox[2] <= c0 + 1,
                                                           round(l.bbox[1]), l.bbox[0])), layout)
    cols = {id(l): layout.column_of(l.bbox[0], l.bbox[2]) for l in lines}
    wide = [l for l in lines if not l.role and cols[id(l)] is None]
    cuts = sorted([b[1] for b in spanning] + [l.bbox[1] for l in wide])
    # a heading that fits in a column's width, over full-width text: read with that text
    heads = {id(l): y for l in lines if cols[id(l)] is not None and not l.role and heading_like(l, layout)
             for y in [_wide_text_under(l, lines, wide, cols)] if y is not None}

    def key(l: Line):
        col = None if id(l) in heads else cols[id(l)]
        # a full-width line opens its own band: the columns' lines above it come first (a
        # section set in one column after two-column text)
        top = heads.get(id(l), l.bbox[1]) + 0.5 if col is None else l.bbox[1] - 0.5
        band = sum(1 for y in cuts if y < top)
        return (band, -1 if col is None else col, l.bbox[1], l.bbox[0])

    return _left_to_right(sorted(lines, key=key), layout)


def _wide_text_under(head: Line, lines: list[Line], wide: list[Line], cols: dict) -> float | None:
    """The top of the full-width text right below a heading set within a column's width, with no
    line of the heading's column between them: the heading's section is set full width."""
    below = [w.bbox[1] for w in wide if head.bbox[3] - 1 <= w.bbox[1] < head.bbox[3] + 3 * head.size]
    if not below or any(cols[id(l)] == cols[id(head)] and head.bbox[3] - 1 <= l.bbox[1] < min(below)
                        for l in lines if l is not head):
        return None
    return min(below)


def _left_to_right(lines: list[Line], layout: Layout) -> list[Line]:
    """Pieces of one printed row come left to right. Sorted by their tops, a row split at a
    formula comes out of order: a superscript lifts the top of a right-hand piece above that
    of the words on its left (a run-in heading, "that x^F"), and a subscript stacked under it
    ("_(7,6)", set apart by pymupdf) starts lower than the words after it. So a piece that
    ends left of the one before it on the same row comes first, and within a column the
    pieces whose middle lies within the body text of the row's first piece (a row of normal
    height, not a tall formula, which may reach into the rows around it) are read as one row,
    by x. What stands beside the column (review line numbers, margin notes) keeps its place."""
    out = list(lines)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        h = min(a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1])
        over = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
        if b.bbox[2] <= a.bbox[0] + 1 and h > 0 and over > 0.6 * h \
                and layout.column_of(a.bbox[0], a.bbox[2]) == layout.column_of(b.bbox[0], b.bbox[2]):
            out[i], out[i + 1] = b, a
    lines, out = out, []
    i, n = 0, len(lines)
    while i < n:
        a = lines[i]
        j = i + 1
        y0, y1 = _body_band(a)
        col = layout.column_of(a.bbox[0], a.bbox[2])
        if col is not None and y1 - y0 <= 1.6 * max(a.size, 1.0) and _within(a, layout.columns[col]):
            while j < n:
                b = lines[j]
                mid = (b.bbox[1] + b.bbox[3]) / 2
                if not (y0 <= mid <= y1) or b.page != a.page or layout.column_of(b.bbox[0], b.bbox[2]) != col \
                        or not _within(b, layout.columns[col]):
                    break
                j += 1
        row = lines[i:j]
        if len(row) > 1:
            row = sorted(row, key=lambda l: l.bbox[0])
        out.extend(row)
        i = j
    return out


def _within(ln: Line, column: tuple[float, float]) -> bool:
    """The line lies within the column's measure (not in a gutter of line numbers beside it)."""
    return ln.bbox[0] >= column[0] - 2 and ln.bbox[2] <= column[1] + 2


def _body_band(ln: Line) -> tuple[float, float]:
    """The vertical extent of a line's text in its own size (its scripts left out)."""
    own = [sp["bbox"] for sp in ln.spans if sp["text"].strip() and abs(sp["size"] - ln.size) <= 0.5]
    if not own:
        return ln.bbox[1], ln.bbox[3]
    return min(b[1] for b in own), max(b[3] for b in own)


def number_lines(pages: list[PageData], layout: Layout, spanning: dict[int, list[BBox]]) -> None:
    """Give body and caption lines their place in the document's reading order."""
    n = 0
    for pd in pages:
        for ln in reading_order(pd, layout, spanning.get(pd.index, []), roles=("", "caption")):
            ln.order = float(n)
            n += 1


def paragraphs(pages: list[PageData], layout: Layout, spanning: dict[int, list[BBox]]) -> list[Para]:
    number_lines(pages, layout, spanning)
    paras: list[Para] = []
    cur = Para()
    prev: Line | None = None
    held: Para | None = None  # the paragraph a footnote or foot line interrupted
    row: Line | None = None  # the main piece of the printed row prev is on
    in_refs, refs_size = False, 0.0
    ragged = ragged_right(pages, layout)
    # what stands beside the text on each page: float lines, graphics (a wrapfigure)
    beside = {pd.index: [l.bbox for l in pd.lines if l.role in _FLOAT_ROLES]
              + [tuple(im["bbox"]) for im in pd.images] + list(pd.frames) for pd in pages}
    for pd in pages:
        ordered = reading_order(pd, layout, spanning.get(pd.index, []))
        lof_page = any(_LOF_RE.match(l.text.strip()) for l in ordered[:12])
        floats = [l.bbox for l in pd.lines if l.role in _FLOAT_ROLES]
        marks = pd.note_marks
        for i, ln in enumerate(ordered):
            if _row_number(ln, ordered[i + 1] if i + 1 < len(ordered) else None):
                # a review line number read as its own piece before its row's words (lineno sets
                # it apart from a list item's or an indented line's text): no part of the text,
                # and no size change that would cut the paragraph at every numbered row
                continue
            head = heading_like(ln, layout)
            if head and _REFS_RE.match(ln.text.strip()):
                in_refs, refs_size = True, ln.size
            elif head and in_refs and (_APPX_RE.match(ln.text.strip()) or _LETTERED_RE.match(ln.text.strip())
                                       or layout.body_size + 0.5 < ln.size >= refs_size - 0.2):
                # the appendix after the bibliography is running text again, and so is a heading
                # as large as the bibliography's own: the next chapter of a book whose chapters
                # each end with their references (svmult), a section after a mid-paper bibliography
                in_refs = False
            if prev is not None and held is not None and held.lines and _resumes(held.lines[-1], ln, layout, beside, ragged):
                # the interrupted paragraph goes on in the next column or page
                if cur.text:
                    paras.append(cur)
                cur, held = held, None
            elif prev is None or _breaks(prev, ln, layout, floats, beside, ragged, row):
                if held is not None and not _smaller(ln, held.lines[-1]):
                    paras.append(held)  # the asides are over and ln does not continue it
                    held = None
                if held is None and prev is not None and cur.text and _aside(prev, ln, layout):
                    held = cur
                elif cur.text:
                    paras.append(cur)
                cur = Para(skip=in_refs or lof_page)
            _append(cur, ln, marks)
            cur.lines.append(ln)
            # the main piece of the printed row ln is on (a row split at a formula's script, or
            # led by a review line number): the largest type, then the longest
            if row is None or prev is None or not _same_row(prev, ln, layout):
                row = ln
            elif (ln.size, len(ln.text)) > (row.size, len(row.text)):
                row = ln
            prev = ln
    if held is not None and held.text:
        paras.append(held)
    if cur.text:
        paras.append(cur)
    return paras


_ROW_NUMBER = re.compile(r"\d{1,5}")


def _row_number(ln: Line, nxt: Line | None) -> bool:
    """ln is a review line number leading its printed row: a number alone in small type, the
    row's words in larger type right after it on the same height."""
    return nxt is not None and nxt.page == ln.page and bool(_ROW_NUMBER.fullmatch(ln.text.strip())) \
        and ln.size < nxt.size - 1.0 and ln.bbox[2] <= nxt.bbox[0] + 1 and _rest_of_row(ln, nxt)


def _lead_number(ln: Line) -> int:
    """How many of the line's first spans are a review line number joined to its row ("828 lar
    feedback"): a number in small type set apart from the larger words after it. 0 if none."""
    spans = ln.spans
    k = 0
    while k < len(spans) and not spans[k]["text"].strip():
        k += 1
    if k >= len(spans) or not _ROW_NUMBER.fullmatch(spans[k]["text"].strip()):
        return 0
    num = spans[k]
    rest = [sp for sp in spans[k + 1:] if sp["text"].strip()]
    if not rest or num["size"] >= rest[0]["size"] - 1.0 or rest[0]["bbox"][0] - num["bbox"][2] < 0.3 * rest[0]["size"]:
        return 0  # a footnote mark or a superscript glued to its word is no line number
    return k + 1


def _aside(prev: Line, ln: Line, layout: Layout) -> bool:
    """ln, set smaller than the line of running text before it, may be a footnote or a page's
    foot line ("Preprint submitted to ...") that a paragraph runs past into the next column
    or page."""
    return abs(prev.size - layout.body_size) <= 0.6 and _smaller(ln, prev) and ln.page == prev.page


def _smaller(ln: Line, ref: Line) -> bool:
    """ln is set in smaller type than ref, as a footnote is: a point smaller at least (a 9 pt
    class sets its footnotes in 8 pt: mnras), allowing for sizes read a little off."""
    return ln.size < ref.size - 0.9


def _resumes(last: Line, ln: Line, layout: Layout, beside: dict[int, list[BBox]] | None = None,
             ragged: list[float] | None = None) -> bool:
    """After such an aside, ln continues the paragraph whose last line was `last`: the same
    size, in another column or on a later page, not indented, and `last` filled its column
    (what _breaks asks of any line that follows across a column or page break)."""
    if abs(ln.size - last.size) > 0.5 or heading_like(ln, layout):
        return False
    if last.page == ln.page and _col_bounds(last, layout)[0] == _col_bounds(ln, layout)[0]:
        return False
    return not _breaks(last, ln, layout, beside=beside, ragged=ragged)


def caption_paragraphs(captions) -> list[Para]:
    """Captions as paragraphs: one float's caption may cite another figure ("as in Figure 3")."""
    out = []
    for cap in captions:
        para = Para(owner=normalize_number(cap.number) if cap.kind == "figure" else None)
        for ln in cap.lines:
            _append(para, ln)
            para.lines.append(ln)
        out.append(para)
    return out


def float_paragraphs(pages: list[PageData], captions) -> list[Para]:
    """Text a float prints besides its caption, one paragraph per text block: a table's
    cells, the notes under a figure's graphic, its sub-captions. They cite figures too ("see
    Fig. 9" in a table's cell, "(b) ... marked in Figure 7"); the float's own figure number is
    not a citation of itself. Each is read where its caption is, in reading order."""
    out = []
    for cap in captions:
        if cap.region is None or not cap.lines:
            continue
        role = "figure" if cap.kind == "figure" else cap.kind
        mine = [ln for ln in pages[cap.page].lines if ln.role == role and ln.horizontal and ln.text.strip()
                and cap.region[0] - 1 <= ln.bbox[0] and ln.bbox[2] <= cap.region[2] + 1
                and cap.region[1] - 1 <= ln.bbox[1] and ln.bbox[3] <= cap.region[3] + 1]
        blocks: dict[int, list[Line]] = {}
        for ln in mine:
            blocks.setdefault(ln.block, []).append(ln)
        order = cap.lines[0].order
        for lines in blocks.values():
            para = Para(owner=normalize_number(cap.number) if cap.kind == "figure" else None)
            for ln in sorted(lines, key=lambda l: (round(l.bbox[1]), l.bbox[0])):
                ln.order = order  # read with the float's caption
                _append(para, ln)
                para.lines.append(ln)
            out.append(para)
    return out


def _breaks(prev: Line, ln: Line, layout: Layout, floats: list[BBox] = (),
            beside: dict[int, list[BBox]] | None = None, ragged: list[float] | None = None,
            row: Line | None = None) -> bool:
    """Does ln open a new paragraph? A size change (footnotes), a heading before it, a vertical
    gap, an indent, or a short line before it; across a column or page break only the last two.
    `row`: the main piece of the printed row prev belongs to (prev itself when None)."""
    pcol, p0, p1 = _col_bounds(prev, layout)
    col, c0, c1 = _col_bounds(ln, layout)
    if heading_like(prev, layout) and len(prev.text) < 80 and prev.bold and prev.bbox[2] < p1 - 1.5:
        # (a bold line set out to the column's right edge is justified running text: words in
        # bold inside a paragraph, or a run-in heading's line, which the paragraph continues)
        return True
    same_page_col = prev.page == ln.page and pcol == col
    if same_page_col and _rest_of_row(prev, ln) and not (ln.size > prev.size + 1.0 and (row is None or row is prev)):
        # the rest of the same printed line (pymupdf split it at a gap or a link, or between
        # a superscript and the subscript stacked under it, x^-_m, which overlap), whatever
        # its size: a piece in script size (a norm's subscript and bars) is no footnote. Only
        # a row's first piece in small type before larger words (a review line number) is
        # left to the size test below.
        return False
    # the size of the printed row prev ends, not of its last piece: a row that ends in a
    # subscripted formula (||x||_(n+1,n) at the right margin) is still running text
    ref = row if row is not None else prev
    if abs(ref.size - ln.size) > 1.0 and not (_half_in(ref, ln.size) or _half_in(ln, ref.size)):
        return True
    indented = c0 + 0.5 * ln.size < ln.bbox[0] < c0 + 3 * ln.size
    if indented and same_page_col and ((_LIST_ITEM.match(prev.text) and c0 + 0.5 * prev.size < prev.bbox[0] <= ln.bbox[0] + 1)
                                       or ln.bbox[0] - prev.bbox[0] < 0.5 * ln.size):
        # the hanging indent under a list item's first line ("• Simple: ...⏎  text"), or a line
        # not right of the line above (a page whose text block starts a little right of the
        # usual column edge: every line there would read as indented)
        indented = False
    # Short against the column, or against the next line when both end early: text set
    # around a wrapfigure ends every line at the figure's edge, not at the column's.
    right = min(p1, max(prev.bbox[2], ln.bbox[2])) if same_page_col else p1
    short_prev = prev.bbox[2] < right - 2 * prev.size and (not ragged or _room_for(prev, ln, ragged[pcol] if pcol >= 0 else p1))
    if short_prev and beside and _float_beside(prev, beside.get(prev.page, []), p1):
        short_prev = False  # it ends where a float set beside the text (a wrapfigure) begins
    if not same_page_col or ln.bbox[1] < prev.bbox[1] - 2:
        return indented or short_prev
    # double-spaced manuscripts: a gap counts only when wider than the usual one between lines
    if ln.bbox[1] - prev.bbox[3] > max(0.8 * ln.size, layout.line_gap + 0.4 * ln.size) \
            and not _float_between(prev, ln, floats, c0, c1):
        return True
    return indented or short_prev


def _same_row(prev: Line, ln: Line, layout: Layout) -> bool:
    """ln continues prev's printed row, in the same column of the same page (what _breaks asks
    first, from the column bounds it has already)."""
    return prev.page == ln.page and _col_bounds(prev, layout)[0] == _col_bounds(ln, layout)[0] and _rest_of_row(prev, ln)


def _rest_of_row(prev: Line, ln: Line) -> bool:
    """ln continues prev's printed row (both in one column of one page): on the same height, and it
    starts where prev ends (or overlaps its last piece when either is a script)."""
    if ln.bbox[0] < prev.bbox[2] - 1 - max(_script_width(prev, -1), _script_width(ln, 0)):
        return False
    if abs(ln.bbox[1] - prev.bbox[1]) <= 2:
        return True
    # tops further apart when a script lifts one piece: the two still share most of a height
    h = min(ln.bbox[3] - ln.bbox[1], prev.bbox[3] - prev.bbox[1])
    return h > 0 and min(ln.bbox[3], prev.bbox[3]) - max(ln.bbox[1], prev.bbox[1]) >= 0.6 * h


def _half_in(ln: Line, size: float) -> bool:
    """Half the line's characters or more are set in `size`: a piece of a row split at a
    formula ("1 =", a subscript and a sign) reads as small as its script by a tie of one
    character each, yet it is text of the row's size, not a footnote's line."""
    n = sum(len(s["text"].strip()) for s in ln.spans)
    k = sum(len(s["text"].strip()) for s in ln.spans if abs(s["size"] - size) <= 1.0)
    return n > 0 and 2 * k >= n


def ragged_right(pages: list[PageData], layout: Layout) -> list[float] | None:
    """Where each column's lines end at most, when the running text is set ragged right (fewer
    than half of its long lines end within a point of where most end; justified text ends all
    but each paragraph's last there); None for justified text."""
    ends: dict[int, list[float]] = {}
    for pd in pages:
        for ln in pd.lines:
            if ln.role or not ln.horizontal or abs(ln.size - layout.body_size) > 0.6 or len(ln.text) < 40:
                continue
            col = layout.column_of(ln.bbox[0], ln.bbox[2])
            if col is not None:
                ends.setdefault(col, []).append(_text_end(ln))
    total = sum(len(v) for v in ends.values())
    if total < 20:
        return None
    flush = 0
    for v in ends.values():
        mode = Counter(round(x) for x in v).most_common(1)[0][0]
        flush += sum(1 for x in v if abs(x - mode) <= 1.5)
    if flush >= 0.5 * total:
        return None
    # the column's measure: the end of its longest lines (the 95th percentile, past a stray one)
    return [sorted(ends[c])[int(0.95 * (len(ends[c]) - 1))] if ends.get(c) else c1
            for c, (_c0, c1) in enumerate(layout.columns)]


def _text_end(ln: Line) -> float:
    """Where the line's text in its own size ends: a review line number in small type set in
    the margin may have been joined to it (PLOS)."""
    ends = [sp["bbox"][2] for sp in ln.spans if sp["text"].strip() and sp["size"] >= ln.size - 1.0]
    return max(ends) if ends else ln.bbox[2]


def _script_width(ln: Line, k: int) -> float:
    """Width of the line's first (k=0) or last (k=-1) run of text set smaller than the line, as
    a sub- or superscript is; else 0."""
    spans = [sp for sp in ln.spans if sp["text"].strip()]
    if not spans or spans[k]["size"] >= ln.size - 1.0:
        return 0.0
    # the whole run of script pieces at that end ("t,", "Ω", "t,", "Φ" of one superscript)
    run = spans if k == 0 else spans[::-1]
    n = next((i for i, sp in enumerate(run) if sp["size"] >= ln.size - 1.0), len(run))
    x0 = min(sp["bbox"][0] for sp in run[:n])
    x1 = max(sp["bbox"][2] for sp in run[:n])
    return x1 - x0


def _room_for(prev: Line, ln: Line, right: float) -> bool:
    """ln's first word would have fit after prev, before the column's right edge: prev was
    ended on purpose. Text set ragged right (\\raggedright: PLOS, APA manuscripts) ends every
    line short where the next word did not fit, which is no paragraph's end. The word's width
    is estimated from ln's mean character width."""
    text = ln.text.strip()
    if not text:
        return True
    word = text.split(None, 1)[0]
    width = (ln.bbox[2] - ln.bbox[0]) * len(word) / len(text)
    return _text_end(prev) + 0.2 * ln.size + width <= right + 1


# a list item's first line: a bullet, or an enumerator "1.", "(a)", "ii)". pdflatex's own
# \textbullet (cmsy, no Unicode mapping) is read as the control character U+0088
_LIST_ITEM = re.compile(r"\s*(?:[\u2022\u25e6\u25aa\u2023\u2013\u2014\u00b7\u0088*-]|\(?[0-9a-zA-Z]{1,4}[.)])\s")


def _float_beside(prev: Line, boxes: list[BBox], p1: float) -> bool:
    """A float's box stands in prev's row between the line's end and its column's edge."""
    y0, y1 = prev.bbox[1], prev.bbox[3]
    return any(prev.bbox[2] - 1 <= b[0] < p1 and min(b[3], y1) - max(b[1], y0) > 0.3 * (y1 - y0)
               and b[0] - prev.bbox[2] < 3 * prev.size for b in boxes)


def _float_between(prev: Line, ln: Line, floats: list[BBox], c0: float, c1: float) -> bool:
    """A float (its caption or graphic text) fills the space between two lines of a column:
    the paragraph runs on past it, as it does past a column or page break, so the gap alone
    does not end it."""
    return any(prev.bbox[3] - 1 <= b[1] and b[3] <= ln.bbox[1] + 1 and min(b[2], c1) - max(b[0], c0) > 0
               for b in floats)


_WS = re.compile(r"\s+")


def _is_mark(s: dict, ln: Line, marks) -> bool:
    """A footnote mark: a raised run of small type under a link to a footnote ("cross-attention⁶")."""
    b = s["bbox"]
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    return s["size"] < 0.85 * ln.size and len(s["text"].strip()) <= 3 \
        and any(m[0] - 1 <= cx <= m[2] + 1 and m[1] - 1 <= cy <= m[3] + 1 for m in marks)


def _append(para: Para, ln: Line, marks=()) -> None:
    """Add a line's text runs to the paragraph, recording where each run sits on the page.
    Footnote marks (`marks`: their links' boxes) are left out: glued to the word before them
    they made another word of it ("cross-attention6"), and they are no words of the sentence."""
    # a review line number leading the row is no word of the text: "stel- 828 lar" is "stellar"
    spans = ln.spans[_lead_number(ln):]
    if para.text:
        joiner = break_joiner(para.text, "".join(s["text"] for s in spans).lstrip())
        if joiner == "-":
            para.text = para.text[:-1]
        else:
            para.text += joiner
    last_x1 = None
    for s in spans:
        t = _WS.sub(" ", s["text"])
        if marks and t.strip() and _is_mark(s, ln, marks):
            continue
        if not t.strip():
            if para.text and not para.text.endswith(" "):
                para.text += " "
            continue
        if para.text.endswith(" ") and t.startswith(" "):
            t = t.lstrip()
        elif last_x1 is not None and s["bbox"][0] - last_x1 > 0.2 * s["size"] and not para.text.endswith(" ") and not t.startswith(" "):
            para.text += " "
        start = len(para.text)
        para.text += t
        para.pieces.append((start, len(para.text), ln.page, s["bbox"], ln.order))
        last_x1 = s["bbox"][2]


def text_sites(paras: list[Para], path: str, known=None) -> tuple[list[tuple[str, CitingSite]], list[tuple[Para, int, int, str]]]:
    """Printed mentions; also returns (para, start, end, number) spans for link de-duplication.
    `known`: the paper's figure numbers (normalised), for numbers joined by a dash."""
    out: list[tuple[str, CitingSite]] = []
    spans: list[tuple[Para, int, int, str]] = []
    for para in paras:
        if para.skip:
            continue
        for m in find_mentions(para.text, known):
            if external_mention(para.text, m.start, m.end, m.numbers, known):
                continue  # "their Figure 5", "Supp Fig. 2": not this paper's figure (as on the LaTeX route)
            page, bbox = para.locate(m.start, m.end)
            sentence = sentence_at(para.text, m.start)
            for num in m.numbers:
                if para.owner is not None and (normalize_number(num) == para.owner or any(
                        normalize_number(num + p) == para.owner for p in m.panels.get(num, []))):
                    continue  # the caption's own label ("Figure 6.3a:" read as 6.3, panel a)
                # "Figures 3a and 3b" prints two references to Figure 3: one site each, each
                # placed at its own number (the first with the word), so binding keeps both
                occ = [it for it in m.items if it[2] == num] or [(m.start, m.end, num, list(m.panels.get(num, [])))]
                for k, (a, b, _n, panels) in enumerate(occ):
                    pg, box = (page, bbox) if len(occ) == 1 else para.locate(m.start if k == 0 else a, b)
                    site = CitingSite(
                        paragraph=para.text.strip(), sentence=sentence, mention=m.text,
                        location=Location(file=path, page=(pg + 1) if pg is not None else None, bbox=box),
                        via="text", panels=list(panels) if len(occ) > 1 else list(m.panels.get(num, [])),
                        order=para.order_at(m.start if k == 0 else a),
                    )
                    out.append((num, site))
                spans.append((para, m.start, m.end, normalize_number(num)))
    return out, spans


# A number with a panel letter after "in"/"see", no figure word: "is shown in 3c" ("in 3(c)"),
# what `in \ref{fig3}c` prints; a chapter number may lead ("in 4.2b")
_BARE_PANEL_RE = re.compile(r"(?<![\w.])(?:[Ii]n|[Ss]ee)\s+(\d+(?:\.\d+)?)(?:([a-z])|\(([a-z])\))(?![\w(])")


def bare_panel_sites(paras: list[Para], panels: dict[str, set[str]], taken: list[tuple[Para, int, int, str]],
                     path: str) -> list[tuple[str, CitingSite]]:
    """Sites of a bare \ref printed without hyperref: a figure's number glued to one of its own
    panel letters ("shown in 3c") after "in" or "see". Without a link nothing else tells the
    reference from text, so only a number the paper's figures hold with a panel that figure
    prints (`panels`: normalised number -> the panel letters read from its graphic) counts; the
    caller asks this only of a PDF in which no link points at a figure (no hyperref)."""
    out: list[tuple[str, CitingSite]] = []
    for para in paras:
        if para.skip or "in" not in para.text and "ee" not in para.text:
            continue
        for m in _BARE_PANEL_RE.finditer(para.text):
            num, letter = m.group(1), m.group(2) or m.group(3)
            key = normalize_number(num)
            if letter not in panels.get(key, ()) or para.owner == key:
                continue
            a, b = m.start(1), m.end()
            if any(p is para and s < b and a < e for p, s, e, _n in taken):
                continue  # part of a printed mention ("Figs. 3a and in 4b")
            pg, bbox = para.locate(a, b)
            out.append((num, CitingSite(
                paragraph=para.text.strip(), sentence=sentence_at(para.text, a), mention=para.text[a:b],
                location=Location(file=path, page=(pg + 1) if pg is not None else None, bbox=bbox), via="text",
                panels=[letter], order=para.order_at(a),
            )))
            taken.append((para, a, b, key))
    return out


# the number a lone \ref prints under its link: "3", "A.2", "3b", "(b)"; a chapter-hyphen number
# ("4-16", a thesis class's \thefigure) is one number too: a link covers one reference. A capital
# panel letter ("(1A)") names the figure as well; like a printed "Fig. 1A" (mentions.py) it
# records no panel
_LINK_TEXT_RE = re.compile(r"^\(?([A-Z]?\.?\d+(?:[.\-\u2013]\d+)?)?\(?(?:([a-z])|(?<=\d)[A-Z])?\)?$")


# the series prefix typed again before a number that prints it: "S\\ref{x} Fig" with
# \\thesfigure = S\\arabic{sfigure} prints "SS2" under the link to Figure S2
_PREFIX_TWICE_RE = re.compile(r"([A-Z]{1,2})(\1\d+)")


def link_sites(paras: list[Para], pages: list[PageData], targets: list[tuple[int, dict, list[str]]],
               taken: list[tuple[Para, int, int, str]], path: str) -> list[tuple[str, CitingSite]]:
    """Sites from link annotations that point at a figure: targets holds (page, link, candidate numbers).

    The printed text under the link decides among candidates (a float with two captions has
    one anchor) and must be that figure's number: back-references in a bibliography also
    link to figure anchors, with a section or page number as text.
    """
    by_page: dict[int, list[tuple[Para, int, int, int, BBox]]] = {}
    for para in paras:
        if para.skip:
            continue
        for s, e, pg, bb, _o in para.pieces:
            by_page.setdefault(pg, []).append((para, s, e, pg, bb))
    out: list[tuple[str, CitingSite]] = []
    for page, link, numbers in targets:
        if not numbers:
            continue
        r = link["from"]
        token = re.sub(r"^[\s(\[]+|[\s.,;:)\]]+$", "", link.get("text") or "")
        hit = _find_token(by_page.get(page, []), (r.x0, r.y0, r.x1, r.y1), token) if token else None
        if hit is None:
            hit = _chars_under(by_page.get(page, []), (r.x0, r.y0, r.x1, r.y1))
        if hit is None:
            continue
        para, a, b = hit
        text = para.text[a:b].strip().strip(".,;:")
        keys = {normalize_number(n): n for n in numbers}
        named = find_mentions(text, set(keys))
        m = _LINK_TEXT_RE.match(text.replace(" ", ""))
        twice = _PREFIX_TWICE_RE.fullmatch(text.replace(" ", ""))
        if named:
            hits = [(normalize_number(n), mm.panels.get(n, [])) for mm in named for n in mm.numbers if normalize_number(n) in keys]
        elif twice and normalize_number(twice.group(2)) in keys:
            hits = [(normalize_number(twice.group(2)), [])]
        elif m and m.group(1):
            num = m.group(1)
            if normalize_number(num) not in keys:
                # "Supplementary Fig. 3" with the link on the "3" \ref prints: the number of the
                # supplement's S3, the series named before it (mentions.series_before)
                num = in_series(num, series_before(para.text, a))
            hits = [(normalize_number(num), [m.group(2)] if m.group(2) else [])]
            hits = [h for h in hits if h[0] in keys]
        elif m and m.group(2):
            hits = [(normalize_number(numbers[0]), [m.group(2)])]  # \subref: "(b)" alone
        else:
            hits = []
        for key, panels in hits:
            if para.owner == key or any(p is para and s < b and a < e and n == key for p, s, e, n in taken):
                continue
            pg, bbox = para.locate(a, b)
            out.append((keys[key], CitingSite(
                paragraph=para.text.strip(), sentence=sentence_at(para.text, a), mention=text,
                location=Location(file=path, page=page + 1, bbox=bbox), via="link", panels=list(panels),
                order=para.order_at(a),
            )))
            taken.append((para, a, b, key))
    return out


def _find_token(pieces: list[tuple[Para, int, int, int, BBox]], rect: BBox, token: str) -> tuple[Para, int, int] | None:
    """The occurrence of token in a text piece on the link's line that lies nearest the link."""
    best, best_d = None, 1e9
    cx = (rect[0] + rect[2]) / 2
    pat = re.compile(r"(?<![\w])" + re.escape(token) + r"(?![\w])" if token[:1].isalnum() else re.escape(token))
    for para, s, e, _pg, bb in pieces:
        cy = (bb[1] + bb[3]) / 2
        if not (rect[1] - 1 <= cy <= rect[3] + 1) or bb[2] < rect[0] - 2 or bb[0] > rect[2] + 2:
            continue
        n = max(e - s, 1)
        w = (bb[2] - bb[0]) / n
        for m in pat.finditer(para.text, s, e):
            d = abs(bb[0] + w * ((m.start() - s) + (m.end() - s)) / 2 - cx)
            if d < best_d:
                best, best_d = (para, m.start(), m.end()), d
    return best


def _chars_under(pieces: list[tuple[Para, int, int, int, BBox]], rect: BBox) -> tuple[Para, int, int] | None:
    """Paragraph and character range whose estimated boxes fall inside rect."""
    best: tuple[Para, int, int] | None = None
    for para, s, e, _pg, bb in pieces:
        cy = (bb[1] + bb[3]) / 2
        if not (rect[1] - 1 <= cy <= rect[3] + 1) or bb[2] < rect[0] or bb[0] > rect[2]:
            continue
        n = max(e - s, 1)
        w = (bb[2] - bb[0]) / n
        idx = [s + k for k in range(n) if rect[0] - 0.5 <= bb[0] + w * (k + 0.5) <= rect[2] + 0.5]
        if not idx:
            continue
        if best is None or best[0] is not para:
            if best is None:
                best = (para, idx[0], idx[-1] + 1)
            continue
        best = (para, min(best[1], idx[0]), max(best[2], idx[-1] + 1))
    return best
