"""Float captions on a PDF page: "Figure 3:", "Fig. 3.", "Table 2", with their full text.

A caption starts at a line whose text opens with a float label (mentions.py
decides what a label is) and that is not the continuation of a running
sentence ("... as shown in / Figure 3. Then ..."); the lines right below it,
within its width and at its size, continue it, with end-of-line hyphenation
undone. When one number has several candidates the best scored wins (a label
set apart in bold, a block of its own, a colon). Also the font-family helpers
that tell body text from text set in a figure's own typeface.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field

from figlint.ingest.pdf_layout import BBox, Layout, Line, PageData, break_joiner, is_body_size, is_bold, is_mono
from figlint.mentions import ITEM_OF_A_FIGURE, in_series, name_series, parse_float_label
from figlint.model import union

# a float's note under its caption opens with one of these ("Notes: ...", "Source. ...")
_NOTE_LEAD = re.compile(r"(?:Notes?|Sources?)\s*[:.]\s")


@dataclass
class CaptionBlock:
    """A float caption as printed, and (filled by pdf_regions) the region it owns."""

    kind: str  # figure, table, algorithm, listing
    label: str
    number: str
    page: int  # 0-based
    lines: list[Line]
    text: str
    score: float
    side: str = ""  # where its graphics are: above, below, beside
    xrange: tuple[float, float] = (0.0, 0.0)
    region: BBox | None = None
    elems: list = field(default_factory=list)  # pdf_regions.Elem records it owns
    anchor_y: float | None = None  # hyperref anchor above the float, when the PDF has one
    continuation: bool = False  # prints an earlier caption's number again (\ContinuedFloat)
    run_in: bool = False  # a bold run-in paragraph heading set apart from any graphic (find_captions)
    region_page: int | None = None  # the page its region is on, when not its own (pdf._broken_figures)
    heading: bool = False  # the label alone on its line, set as a heading (bold or larger than the text)
    apart: bool = False  # a figure's heading or legend kept beside its number's best caption (pick_captions)
    legend: "CaptionBlock | None" = None  # the legend listed apart that is its caption (pdf._build)

    @property
    def bbox(self) -> BBox:
        # (a legend listed apart may run on to the next page: pdf_captions.legend_overleaf)
        return union([ln.bbox for ln in self.lines if ln.page == self.page] or [ln.bbox for ln in self.lines])


def _hoverlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(a1, b1) - max(a0, b0)


@functools.lru_cache(maxsize=1024)
def family(font: str) -> str:
    """Font family without subset prefix and style suffix ("ABCDEF+NimbusRomNo9L-Regu" -> "nimbusromno9l")."""
    name = re.sub(r"^[A-Z]{6}\+", "", font).split("-")[0].split(",")[0].lower()
    m = re.match(r"(cm|lm|sf)[a-z]*?(?=\d|$)", name)
    if m:
        return m.group(1)
    name = re.sub(r"(mt)$", "", name)
    name = re.sub(r"(ps)$", "", name)
    return re.sub(r"(bold|italic|oblique|medium|regular|semibold|light)+$", "", name)


def same_family(a: str, b: str) -> bool:
    """Variants of one typeface ("LinLibertineT", "LinLibertineTB") share their family name as a prefix."""
    fa, fb = family(a), family(b)
    return bool(fa) and bool(fb) and (fa.startswith(fb) or fb.startswith(fa))


def join_lines(texts: list[str]) -> str:
    """Join printed lines into one string, undoing end-of-line hyphenation."""
    out = ""
    for t in texts:
        t = t.strip()
        if not t:
            continue
        if not out:
            out = t
            continue
        joiner = break_joiner(out, t)
        out = out[:-1] + t if joiner == "-" else out + joiner + t
    return out


def find_captions(pd: PageData, layout: Layout) -> list[CaptionBlock]:
    """Every line of the page that opens a float caption, with the lines that continue it."""
    lines = pd.lines
    out: list[CaptionBlock] = []
    graphics = marks = None  # the page's graphic and path boxes, listed once when a caption is found
    for i, ln in enumerate(lines):
        if ln.role or not ln.horizontal:
            continue
        found = (parse_float_label(ln.text) or _label_set_apart(ln) or _small_bare_label(ln, layout)
                 or _bare_label_by_graphic(ln, pd))
        if not found:
            continue
        kind, label, number, rest = found
        prev = _line_above_in_block(lines, i)
        score = 0.0
        if prev is None:
            score += 2
        elif _runs_on(prev, layout):
            continue  # "... as shown in\nFigure 3. Then ..." is a sentence, not a caption
        label_spans = [s for s in ln.spans if s["text"].strip()][:2]
        if label_spans and any(_bold(s) for s in label_spans) and (not ln.bold or _regular_part(ln) >= 0.15):
            # a bold label before regular text; the caption's title may be bold too (its line
            # then reads bold), so long as the line goes on in regular type: a heading that
            # names a figure ("Figure 20 - Flexible models ...") is bold or italic throughout
            score += 2
        if ":" in ln.text[: len(label) + 3] or "|" in ln.text[: len(label) + 4]:
            score += 1
        if graphics is None:
            graphics, marks = _graphic_boxes(pd), [d.rect for d in pd.drawings]
        body = [ln] + _continuation(lines, i, layout, bare=not rest, graphics=graphics, marks=marks,
                                    hang=_text_start(ln, label) if rest else None)
        heading = not rest and len(body) == 1 and (ln.bold or ln.size > layout.body_size + 0.5)
        if heading:
            body += _legend_under(lines, i, layout, graphics, marks)
        text = join_lines([rest] + [l.text for l in body[1:]])
        block = CaptionBlock(kind, label, number, pd.index, body, text, score, heading=heading)
        block.run_in = _run_in_heading(ln, label) and not any(next_to(block.bbox, g) for g in graphics)
        out.append(block)
    return out


def _legend_under(lines: list[Line], i: int, layout: Layout, graphics: list, marks: list) -> list[Line]:
    """The legend set under a heading that names a figure and nothing else, in a list of legends
    kept apart from the figures ("Figure 1" as a \\subsection*, then its legend in the text's
    type): the paragraph that opens right under the heading, in its column, set no larger than
    the text, with no graphic between them. Nothing under a heading set over its graphic (a
    figure on a page of its own), whose labels are the graphic's."""
    head = lines[i]
    pitch = max(3.0 * layout.body_size, 2.5 * (layout.body_size + max(layout.line_gap, 0.0)))
    below = [ln for ln in lines if ln is not head and ln.horizontal and not ln.role and ln.text.strip()
             and ln.bbox[1] >= head.bbox[3] - 1 and _hoverlap(ln.bbox[0], ln.bbox[2], head.bbox[0], head.bbox[2] + 20 * head.size) > 0]
    if not below:
        return []
    nxt = min(below, key=lambda ln: ln.bbox[1])
    if nxt.bbox[1] - head.bbox[3] > pitch or nxt.size > layout.body_size + 0.5 or parse_float_label(nxt.text) \
            or any(_inside(nxt.bbox, g) or (g[1] >= head.bbox[3] - 1 and g[3] <= nxt.bbox[1] + 1) for g in graphics):
        return []
    j = lines.index(nxt)
    return [nxt] + _continuation(lines, j, layout, bare=False, graphics=graphics, marks=marks)


def listed_legend(pd: PageData, layout: Layout, number: str) -> CaptionBlock | None:
    """The legend of figure `number` in a list of legends kept apart from the figures, where its
    name opens the entry with no stop after it and nothing sets it apart: a description list's
    item ("Figure 1 Title of it. The text ...", label and title both bold). Read only for a
    figure whose heading over its graphic has no legend of its own (pdf._build): in running
    text "Figure 1 Shows" opens no legend. The entry opens its paragraph."""
    lines = pd.lines
    for i, ln in enumerate(lines):
        m = _BARE_LABEL.match(ln.text) if not ln.role and ln.horizontal else None
        if m is None or _bare_found(m, ln)[2] != number:
            continue
        prev = _line_above_in_block(lines, i)
        if prev is not None and _runs_on(prev, layout):
            continue
        graphics, marks = _graphic_boxes(pd), [d.rect for d in pd.drawings]
        body = [ln] + _continuation(lines, i, layout, bare=False, graphics=graphics, marks=marks)
        text = join_lines([ln.text[m.end():]] + [l.text for l in body[1:]])
        return CaptionBlock("figure", f"{m.group(1)} {m.group(2)}", number, pd.index, body, text, 0.0)
    return None


def legend_overleaf(legend: CaptionBlock, pages: list[PageData], layouts: dict[int, Layout]) -> None:
    """A legend listed apart from its figure is a paragraph of the text, not a float: LaTeX
    breaks it across a page (or a column) like any other. When its last line ends its column's
    text block and runs on (a full line, or one that ends no sentence), it goes on at the top of
    the next text block, after the running head: that block's first line, in the same place
    across its column (a paragraph's later lines are not indented), set in the text's type and
    no heading or float label, and the lines that continue it, to the paragraph's end (the next
    legend's "Figure N" heading, a section heading, a float). They join the legend (its text,
    lines and role); where it opens stays its place."""
    while True:
        last = legend.lines[-1]
        pd, lay = pages[last.page], layouts[last.page]
        col = lay.column_of(last.bbox[0], last.bbox[2])
        c0, c1 = lay.columns[col] if col is not None else (lay.columns[0][0], lay.columns[-1][1])
        pitch = lay.body_size + max(lay.line_gap, 0.0)
        if last.bbox[3] < lay.text_bottom - 2 * pitch or not (last.bbox[2] >= c1 - last.size or _runs_on(last, lay)):
            return
        if any(ln.horizontal and ln.role in ("", "caption") and ln.text.strip() and ln.bbox[1] > last.bbox[3] - 1
               and _hoverlap(ln.bbox[0], ln.bbox[2], c0, c1) > 0 for ln in pd.lines) \
                or any(_hoverlap(g[0], g[2], c0, c1) > 0 and g[1] > last.bbox[3] - 1 for g in _graphic_boxes(pd)):
            return  # something follows it in its column: the legend ends there
        # the next text block: the page's next column, else the next page's first
        if col is not None and col + 1 < len(lay.columns):
            n0, n1 = lay.columns[col + 1]
        elif last.page + 1 < len(pages):
            pd = pages[last.page + 1]
            lay = layouts[pd.index]
            n0, n1 = lay.columns[0] if col is not None else (lay.columns[0][0], lay.columns[-1][1])
        else:
            return
        block = [ln for ln in pd.lines if ln.horizontal and not ln.role and ln.text.strip()
                 and _hoverlap(ln.bbox[0], ln.bbox[2], n0, n1) > 0.5 * (ln.bbox[2] - ln.bbox[0])]
        graphics = _graphic_boxes(pd)
        if not block:
            return
        first = min(block, key=lambda ln: (ln.bbox[1], ln.bbox[0]))
        if any(_hoverlap(g[0], g[2], n0, n1) > 0 and g[1] < first.bbox[1] for g in graphics) \
                or first.bbox[1] > lay.text_top + pitch:
            return  # the block opens with a graphic, or lower down (under a float)
        # where a line of the legend's paragraph starts, moved to the next column
        ref = last.bbox[0] - c0 + n0
        body = [ln for ln in legend.lines if not (legend.heading and ln is legend.lines[0])]
        opening = len(body) == 1  # the legend's one line so far may open it indented
        # (a line that opens with a figure's name is the next entry or a caption, unless the
        # legend's sentence runs on into it: "... as in" | "Fig. 2. The ...")
        if not (abs(first.bbox[0] - ref) <= 0.5 * first.size or opening and first.bbox[0] < ref) \
                or not is_body_size(first.size, lay.body_size) or first.bold and not last.bold \
                or (parse_float_label(first.text) or _BARE_LABEL.match(first.text)) and not _runs_on(last, lay):
            return  # an indented paragraph, a heading, the next entry, a caption: not the legend's
        more = [first] + _continuation(pd.lines, pd.lines.index(first), lay, bare=False, graphics=graphics,
                                       marks=[d.rect for d in pd.drawings])
        for ln in more:
            ln.role = "caption"
        legend.lines += more
        legend.text = join_lines([legend.text] + [ln.text for ln in more])


def _text_start(ln: Line, label: str) -> float | None:
    """Where the caption's words after its label start on the label row ("Figure 1:" then
    "Title ..."): the start of the first run after the runs that print the label and its
    separator. None when a run holds both the label and the words after it."""
    want = re.sub(r"\s+", "", label)
    spans = [s for s in ln.spans if s["text"].strip()]
    got = ""
    for k, s in enumerate(spans):
        got += re.sub(r"\s+", "", s["text"])
        if len(got) >= len(want):
            if not got.startswith(want) or any(c.isalnum() for c in got[len(want):]) or k + 1 >= len(spans):
                return None
            return spans[k + 1]["bbox"][0]
    return None


def _run_in_heading(ln: Line, label: str) -> bool:
    """The line opens with a bold run that goes on past the label and the text runs on after it
    in regular type: a run-in paragraph heading ("Figure 3: Excess error." then the paragraph)."""
    spans = [s for s in ln.spans if s["text"].strip()]
    k = 0
    while k < len(spans) and _bold(spans[k]):
        k += 1
    head = "".join(s["text"] for s in spans[:k]).strip()
    rest = "".join(s["text"] for s in spans[k:]).strip()
    return k > 0 and len(head) > len(label) + 3 and len(rest) >= 10


def next_to(cap: BBox, box, within: float = 24.0) -> bool:
    """A caption set right above or below a graphic's box (within `within` points: two lines),
    over it."""
    gap = max(cap[1] - box[3], box[1] - cap[3])
    return gap <= within and min(cap[2], box[2]) - max(cap[0], box[0]) > 0


def _regular_part(ln: Line) -> float:
    """The share of the line's letters set in regular (not bold) type."""
    total = sum(len(s["text"].strip()) for s in ln.spans)
    return sum(len(s["text"].strip()) for s in ln.spans if not _bold(s)) / total if total else 0.0


def _label_set_apart(ln: Line) -> tuple[str, str, str, str] | None:
    """A label with no punctuation after it ("Figure 5  user interface ...") still opens a
    caption when it is set apart: in its own font (bold) or by a wide gap.

    The label itself may be spread over several runs with wide gaps ("Fig." "1" in sn-jnl's
    bold): the split is taken at the first gap or font change after which what came before
    reads as a whole label with its number.
    """
    spans = [s for s in ln.spans if s["text"].strip()]
    gaps = sorted(b["bbox"][0] - a["bbox"][2] for a, b in zip(spans, spans[1:]))
    # wider than the line's usual word space: justified running text stretches every space
    wide = max(0.4 * ln.size, 1.6 * gaps[len(gaps) // 2]) if len(gaps) >= 3 else 0.4 * ln.size
    head = ""
    for i in range(1, min(len(spans), 5)):
        cur, nxt = spans[i - 1], spans[i]
        head = (head + " " + cur["text"].strip()).strip()
        apart = nxt["bbox"][0] - cur["bbox"][2] > wide or _bold(nxt) != _bold(cur)
        if not apart:
            continue
        found = parse_float_label(head)
        if not found or found[3]:
            continue
        # the rest as printed, spaces included (whitespace runs are spans of their own)
        at = ln.spans.index(nxt)
        rest = " ".join("".join(s["text"] for s in ln.spans[at:]).split())
        return found[0], found[1], found[2], rest
    return None


_BARE_LABEL = re.compile(r"^\s*((?:Supplementary\s+|Supporting\s+|Extended\s+Data\s+)?(?:Figure|Fig\.|FIGURE|FIG\.))[ \u00a0]*((?:[A-Z]{1,2}-|[A-Z][.\u00b7\u22c5]?)?\d+(?:[.\u00b7\u22c5]\d+)?)[ \u00a0]+(?=[A-Z(\u201c\"])")


def _bare_found(m: re.Match, ln: Line) -> tuple[str, str, str, str]:
    """(kind, label, number, rest) of a _BARE_LABEL match, its number in the series its name
    names (mentions.in_series: "Supplementary Figure 3" is S3), as parse_float_label reads it."""
    return "figure", f"{m.group(1)} {m.group(2)}", in_series(m.group(2), name_series(m.group(1))), ln.text[m.end():].strip()


def _small_bare_label(ln: Line, layout: Layout) -> tuple[str, str, str, str] | None:
    """"Figure 11 Datasets vs ..." with only a space after the number (caption's labelsep=space)
    opens a caption when it is set smaller than the running text, as captions usually are;
    at body size "Figure 11 Then ..." may as well begin a sentence of the text."""
    if is_body_size(ln.size, layout.body_size) or ln.size > layout.body_size:
        return None
    m = _BARE_LABEL.match(ln.text)
    if not m or m.group(2).endswith("."):
        return None
    return _bare_found(m, ln)


def _bare_label_by_graphic(ln: Line, pd: PageData) -> tuple[str, str, str, str] | None:
    """"Fig. 2.3 Time evolution ..." with only a space after the number, at body size and in
    the body font (a thesis class with the caption label plain), opens a caption when the
    line touches an included graphic's box: directly under it, or directly over it. The
    running text's "Fig. 2.3 Shows" does not stand against a graphic's edge."""
    m = _BARE_LABEL.match(ln.text)
    if not m or m.group(2).endswith("."):
        return None
    gap = 2.0 * ln.size
    boxes = _graphic_boxes(pd)
    # a sub-figure's letter set under its panel ("(d)") belongs to the graphic: a caption under
    # a grid of lettered panels stands against the letters, not against the images
    letters = [l.bbox for l in pd.lines if _PANEL_LETTER.match(l.text)]
    grown = []
    for b in boxes:
        bottom = b[3]
        for lb in letters:
            if _hoverlap(b[0], b[2], lb[0], lb[2]) > 0 and -1 <= lb[1] - bottom <= gap:
                bottom = max(bottom, lb[3])
        grown.append((b[0], b[1], b[2], bottom))
    for b in grown:
        if _hoverlap(b[0], b[2], ln.bbox[0], ln.bbox[2]) <= 0:
            continue
        if -1 <= ln.bbox[1] - b[3] <= gap or -1 <= b[1] - ln.bbox[3] <= gap:
            return _bare_found(m, ln)
    return None


def _set_size(ln: Line) -> float:
    """The size the line's words are set in, by characters, with faked small capitals counted
    at their words' size. A font with no small capitals of its own (Times as the `times`
    package and most conference styles load it) prints \\textsc as each word's first capital
    at the text's size and its other letters as capitals about a fifth smaller: a line of
    such words holds more characters of the smaller size, yet is a line of the text's type.
    A line with no such capitals keeps its own size (Line.size)."""
    sizes: dict = {}
    faked = False
    prev = None
    for s in ln.spans:
        t = s["text"]
        n = len(t.strip())
        if not n:
            prev = None
            continue
        k = round(s["size"], 1)
        if prev is not None and s["font"] == prev["font"] and 0.6 * prev["size"] <= s["size"] <= 0.9 * prev["size"] \
                and not t[:1].isspace() and prev["text"][-1:].isupper() and not any(c.islower() for c in t) \
                and any(c.isupper() for c in t) and abs(s["bbox"][0] - prev["bbox"][2]) <= 0.1 * prev["size"]:
            k, faked = round(prev["size"], 1), True  # the rest of a word its capital opened
        else:
            prev = s
        sizes[k] = sizes.get(k, 0) + n
    if not faked:
        return ln.size
    return max(sizes.items(), key=lambda kv: kv[1])[0]


def _capitals(text: str) -> bool:
    """Set in capitals (small caps): no lower-case Latin letter and a few capitals."""
    return not any("a" <= c <= "z" for c in text) and sum(1 for c in text if "A" <= c <= "Z") >= 3


_PANEL_LETTER = re.compile(r"^\s*\(?[a-z]\)\s*$|^\s*\([a-z]\)\s")


def _bold(span: dict) -> bool:
    return is_bold(span["font"], span.get("flags", 0))


def _line_above_in_block(lines: list[Line], i: int) -> Line | None:
    ln = lines[i]
    for j in range(i - 1, -1, -1):
        p = lines[j]
        if p.block != ln.block:
            return None
        if p.bbox[3] <= ln.bbox[1] + 1 and ln.bbox[1] - p.bbox[3] < 0.8 * ln.size and _hoverlap(p.bbox[0], p.bbox[2], ln.bbox[0], ln.bbox[2]) > 0:
            return p
    return None


# a panel letter opening a line, in the scripts papers letter panels in: (a), b), а) б) в), α)
PANEL_OPEN = re.compile(r"\s*\(?[a-zA-Z\u0430-\u044f\u0410-\u042f\u03b1-\u03c9]\)\s")


def _runs_on(prev: Line, layout: Layout) -> bool:
    """A wide body line that does not end a sentence: the next line continues it. A row of
    sub-captions ("б) Выпуклая оболочка   в) Вогнутая оболочка", read as one line across its
    panels) is no sentence: the caption under it opens a line of its own."""
    if PANEL_OPEN.match(prev.text):
        return False
    col = layout.column_of(prev.bbox[0], prev.bbox[2])
    c0, c1 = layout.columns[col] if col is not None else (layout.columns[0][0], layout.columns[-1][1])
    wide = prev.bbox[2] - prev.bbox[0] >= 0.6 * (c1 - c0)
    return wide and is_body_size(prev.size, layout.body_size) and not _ENDS.search(prev.text)


def _past_the_foot(ln: Line, first: Line) -> bool:
    """A line the page's foot zone holds that may still be the caption's: a long caption at a
    page's bottom runs on past the text block, over the folio's row and into the page's outer
    strip (mark_margins calls those lines footers). Set in the caption's size and no page
    number; the caption's own rhythm (gap, alignment) decides the rest."""
    return ln.role == "footer" and abs(ln.size - first.size) <= 0.3 and not _FOLIO.match(ln.text.strip())


_FOLIO = re.compile(r"^(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:/|of)\s*\d{1,4})?$", re.I)


# the label of an item attached to a figure (eLife's "Figure 1–Figure supplement 2."): no
# caption of the figure's own (mentions.parse_float_label), but the end of the caption above it
_ITEM_LABEL = re.compile(r"\s*(?:figure|fig\.)\s*[A-Z]?\d+(?:[.\u00b7\u22c5]\d+)?\s*[-\u2013\u2014]\s*" + ITEM_OF_A_FIGURE, re.I)


# a line that ends a sentence or clause, closing quotes after its stop included ("... 25 cm.”)
_ENDS = re.compile(r"[.:;!?)\]][\u201d\u2019\"']*\s*$")


def _graphic_boxes(pd: PageData) -> list[tuple]:
    """The boxes of the page's included graphics: placed images and the clip frames of
    included PDFs (whose own text labels sit inside them)."""
    return [tuple(im["bbox"]) for im in pd.images] + [tuple(f) for f in pd.frames]


def _inside(bbox, box) -> bool:
    cx, cy = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def _row_extent(box, marks: list, x0: float, x1: float) -> tuple[float, float]:
    """(top, bottom) of a text line with the small drawings set in its row: a circled letter,
    an inline icon or a tall formula drawn as paths stretches the line's height and pushes its
    neighbours apart, while the line's own text box stays as high as its letters. `marks`:
    drawings of text size (_continuation picks them), those within x0..x1 counted."""
    top, bottom = box[1], box[3]
    for m in marks:
        h = m[3] - m[1]
        if m[0] >= x0 and m[2] <= x1 and min(m[3], box[3]) - max(m[1], box[1]) >= 0.3 * h:
            top, bottom = min(top, m[1]), max(bottom, m[3])
    return top, bottom


# The widest gap between two pieces of one caption row, in type sizes: a justified row
# stretches its word spaces (TeX's tolerance lets a space reach about 0.55 of the size, and a
# formula's scripts add \scriptspace), while text set beside a narrow float keeps \columnsep
# (10 pt or more) away.
_ROW_GAP = 0.8


def _continuation(lines: list[Line], i: int, layout: Layout, bare: bool, graphics: list = (),
                  marks: list = (), hang: float | None = None) -> list[Line]:
    """Lines below the label line that continue the caption paragraph (bare: the label stands
    alone). The caption ends where an included graphic begins: the labels printed inside the
    next figure's frame ("TC2 TC3 VM2") are that figure's text, not this caption's. `marks`:
    the boxes of the page's vector paths, for rows stretched by small drawings in them. `hang`:
    where the caption's words after its label start on the label row (_text_start)."""
    first = lines[i]
    # A graphic that begins below the label line's top is what may follow the caption; one
    # that begins above it and reaches down past it (an image box larger than what the
    # float shows of it, the caption set over its hidden part) does not end the caption.
    graphics = [b for b in graphics if not _inside(first.bbox, b) and b[1] >= first.bbox[1] - 1]
    # The rest of the label line, when the text reader split it at a formula (a subscript
    # set as a line of its own: "... up to O(α" | "S). Note ..."): pieces on its row that
    # follow it closer than a word space (text wrapped beside a narrow float keeps
    # \columnsep, 10 pt, away; a caption set beside it starts with its own label). The
    # caption's width is the row's.
    pieces: list[Line] = []
    row_box = first.bbox
    for ln in sorted((l for l in lines if l is not first and l.horizontal and not l.role
                      and l.bbox[0] >= first.bbox[0] + 1), key=lambda l: l.bbox[0]):
        h = min(ln.bbox[3] - ln.bbox[1], first.bbox[3] - first.bbox[1])
        over = min(ln.bbox[3], first.bbox[3]) - max(ln.bbox[1], first.bbox[1])
        if h <= 0 or over <= 0.5 * h:
            if h > 0 and over > 0 and abs(ln.bbox[0] - row_box[2]) <= 0.5 * first.size \
                    and ln.bbox[2] - ln.bbox[0] <= 1.5 * first.size:
                # a formula's raised sign that touches the row's end (a radical, \sqrt M):
                # the row goes on past it
                row_box = (row_box[0], row_box[1], max(row_box[2], ln.bbox[2]), row_box[3])
            continue
        if ln.bbox[2] <= row_box[2] + 1:
            continue  # within what the row already holds (a sub- or superscript's own line)
        if ln.bbox[0] < row_box[2] - 1.5 * first.size and not _opens_with_script(ln, first.size):
            continue
        # (a piece that opens with a script stacked under the row's last superscript, "k" with
        # "max" under "-5/3", and runs on with the row's words: the rest of the row)
        if ln.bbox[0] - row_box[2] > _ROW_GAP * first.size or parse_float_label(ln.text):
            break
        pieces.append(ln)
        row_box = (row_box[0], min(row_box[1], ln.bbox[1]), max(row_box[2], ln.bbox[2]), max(row_box[3], ln.bbox[3]))
    cur = row_box
    # A caption's later lines stay within its first line (justified, or shorter and centred),
    # or start where it starts and run on to its column's edge (a short first line before a
    # long word); reaching wider would take in a neighbouring caption set side by side. The
    # edge is the next column's start: a ragged-right page's column edge, measured from its
    # body lines, lies a little left of where a caption's full lines end.
    x0, x1 = row_box[0] - 3, row_box[2] + 3
    col = layout.column_of(row_box[0], row_box[2])
    if col is None:
        right = x1
    elif col + 1 < len(layout.columns):
        right = max(layout.columns[col][1] + 3, layout.columns[col + 1][0] - 2)
    else:
        right = float("inf")
    # A float set across the columns (figure*) whose caption's first row is short (a title
    # that a forced line break ends: \caption{\textbf{Title.}\\ legend ...}, as a class's own
    # caption macro sets it) fits in the first column, yet its legend runs on under it to the
    # text block's far edge: a line that starts where the caption starts, in its size, and
    # crosses the gutter (no column's text does) widens the caption's measure to the block.
    # So too when the short first row already crosses the gutter (a page set in one column by
    # \onecolumn in a two-column paper): the caption's measure is the block's, not that row's.
    across = layout.columns[-1][1] + 3 if col in (0, None) and len(layout.columns) > 1 else None
    size = first.size
    # A legend typed as a paragraph of the text (a manuscript's "Figure 1. ..." after its float,
    # or listed apart) opens with the paragraph's indent and runs to the column's edge; its later
    # lines start at the column's left edge, an indent left of its first. LaTeX's own captions
    # have no indent, so a full first row set an indent in is such a paragraph's.
    indent_left = None
    if col is not None and 0.5 * size < row_box[0] - layout.columns[col][0] < 3 * size \
            and row_box[2] >= layout.columns[col][1] - 3:
        indent_left = layout.columns[col][0]
    ccol = _page_column(lines, layout, col)
    # drawings of text size from the label line down: what can stretch the caption's rows
    # horizontal rules of some length under the label line (a footnote rule, a table's top
    # rule, a frame round the float): no caption runs on across one
    rules = [m for m in marks if m[1] > first.bbox[3] and m[3] - m[1] <= 1.0 and m[2] - m[0] >= 4 * size]
    # (a drawing thinner than a tenth of the text size is a rule, not a mark set in a row: the
    # vertical rules of a table's cells under the caption would stretch its rows up to it)
    marks = [m for m in marks if m[3] >= first.bbox[1] - 2 * size
             and 0 < m[3] - m[1] <= 2.2 * size and 0.1 * size < m[2] - m[0] <= 4 * size]

    def extent(box) -> tuple[float, float]:
        # a row's with its marks: those within the caption's current range and beside the row's
        # own text (glyphs drawn as paths in a figure of the other column are not in this row)
        return _row_extent(box, marks, max(x0, box[0] - 2 * size), min(max(x1, min(right, 1e9)), box[2] + 2 * size))

    def white_above(ln: Line) -> float:
        # the white between the caption so far (its rows with their marks) and the line's top
        return min(ln.bbox[1], extent(ln.bbox)[0]) - max(cur[3], row_bottom)

    row_bottom = extent(row_box)[1]
    if col is not None and bare:
        x0, x1 = min(x0, layout.columns[col][0]), max(x1, layout.columns[col][1])
    out: list[Line] = list(pieces)
    taken = {id(p) for p in pieces}
    cands = sorted((l for l in lines if l is not first and id(l) not in taken and l.horizontal
                    and (not l.role or _past_the_foot(l, first)) and l.bbox[1] >= first.bbox[1] + 2),
                   key=lambda l: l.bbox[1])
    # Double-spaced manuscripts leave a body line's height between the lines of a caption too.
    lead = max(0.6 * max(first.size, 6), 1.2 * layout.line_gap * first.size / max(layout.body_size, 1.0))
    row = first.bbox  # the label line's own text: a formula piece beside it is taller
    row_text = first.text
    ref = _set_size(first)  # the size the caption's lines are set in
    row_foot = _foot(first, ref)
    # bottom to bottom of two rows: the body's, scaled to the caption's size, until the
    # caption's own first two rows give it
    text_pitch = layout.line_gap + layout.body_size if layout.line_gap > 0 and layout.body_size > 0 else 0.0
    pitch = text_pitch * first.size / layout.body_size if text_pitch else 0.0
    own = False
    own_white = 0.0  # the white between the caption's first two rows
    # every row so far is set centred (or full, a justified line): the caption is a centred
    # paragraph, whose short last line can tell where it ends (a ragged-right caption's
    # hanging-indented line can stand near the column's middle by chance)
    centred_rows = _centred_row(row_box, ccol, size)
    for k, ln in enumerate(cands):
        lsize = _set_size(ln)  # faked small capitals at their words' size
        foot = _foot(ln, lsize)
        if any(_inside(ln.bbox, b) for b in graphics):
            if _hoverlap(ln.bbox[0], ln.bbox[2], x0, x1) > 0:
                break  # a graphic below the caption, in its column: the caption is over
            continue
        if ln.bbox[1] > cur[3] + lead and extent(ln.bbox)[0] > row_bottom + lead:
            # Tall maths (a superscript, a root, a fraction) narrows the white space above a
            # line, not the caption's rhythm: a line that keeps the caption's own pitch
            # continues it (a double-spaced preprint's captions lost their last lines). The
            # pitch is measured from the foot of one row's type to the next's (_foot): a
            # subscript hanging under either row moves its box's bottom by a point or two.
            # Until the caption's own rows have given its pitch, a row in the caption's own type,
            # smaller than the text's, may stand as far below as the text's own pitch and a
            # little more: a class may set its caption size on a wider skip than the text's
            # (9 pt on 14 under 10 pt on 12), and \linespread or setspace stretches both, so the
            # text's pitch scaled down to the caption's size falls short of the caption's. The
            # text after the float, in the text's size, is still judged by the scaled pitch.
            step = _step(ln, foot, row_foot, cur[3])
            own_type = not own and text_pitch and abs(lsize - first.size) <= 0.3 \
                and min(layout.body_size - first.size, abs(layout.body_size - lsize)) >= 0.5
            if not (0 < step and abs(lsize - first.size) <= 1.3
                    and (pitch and step <= 1.15 * pitch or own_type and step <= 1.25 * text_pitch)):
                break
        elif own and pitch > 0 and not _same_row(ln.bbox, row):
            # A gap under the lead allowance, but wider than the caption's own: the text under a
            # float (a full-width caption over two columns of text, a note set in the float under
            # its caption) begins a few points further down than the caption's rows stand apart.
            # Its foot stands well past the caption's pitch, and the white above it is wider
            # than the caption's own between its rows (tall maths in a row of the caption moves
            # its foot down as far, but leaves no wider white: TeX sets it \lineskip apart).
            step = _step(ln, foot, row_foot, row[3])
            white = white_above(ln)
            if step > 1.15 * pitch and white > max(own_white, 0.0) + 0.3 * size:
                break
        w = ln.bbox[2] - ln.bbox[0]
        # A hanging caption (the caption package's format=hang) sets its later rows where its
        # words after the label start: under a short title row, the legend starts there and
        # runs on to the column's edge. Exact to a point (a paragraph's indent is no label's
        # width but for a coincidence; the line's rhythm decides the rest).
        hung = hang is not None and abs(ln.bbox[0] - hang) <= 1 and abs(lsize - ref) <= 0.5
        starts = abs(ln.bbox[0] - first.bbox[0]) <= 3 or hung \
            or (indent_left is not None and abs(ln.bbox[0] - indent_left) <= 3)
        if across is not None and (col is None or right == across) and not _same_row(ln.bbox, row) \
                and _split_by_gutter(ln, cands, layout):
            break  # the two columns of text under a caption set across them (figure*)
        if rules:
            # a line that goes on with the caption's rows where they start, at their pitch and
            # size: a rule drawn over the page may cross the caption there (_over_the_page)
            in_step = own and pitch > 0 and starts and abs(lsize - ref) <= 0.3 \
                and abs(_step(ln, foot, row_foot, row[3]) - pitch) <= 0.1 * size
            if any(cur[3] + 0.5 < r[1] and r[3] < ln.bbox[1] + 1 and r[0] < min(x1, ln.bbox[2])
                   and r[2] > max(x0, ln.bbox[0]) and not _set_in_row(r, ln, cands, x1 - x0, size)
                   and not (in_step and _over_the_page(r, layout, size))
                   for r in rules):
                break  # a rule between the caption's last row and this line: what follows is not the caption's
        if across is not None and right < ln.bbox[2] <= across and starts \
                and abs(lsize - ref) <= 0.5 and layout.column_of(ln.bbox[0], ln.bbox[2]) is None:
            right = across  # the legend of a caption set across the columns
        aligned = starts and ln.bbox[2] <= right
        # a centred caption's lines share their centre, and a later one may be the wider (the
        # first broke before a long word)
        aligned = aligned or (centred_rows and ln.bbox[2] <= right and _symmetric(ln.bbox, ccol, size)
                              and abs(ln.bbox[0] + ln.bbox[2] - row[0] - row[2]) <= 4)
        if _hoverlap(ln.bbox[0], ln.bbox[2], x0, x1) < 0.9 * w and not aligned:
            continue
        # a piece of the row already taken (a formula's sub- and superscripts are set
        # smaller and come as lines of their own) is part of the caption whatever its size
        same_row = _same_row(ln.bbox, row)
        # (a label alone on its line over a caption in small capitals, IEEEtran's older
        # compsoc style "Fig. 1" / "SHIP INPUTS AND ACTIONS.": the capitals are set smaller)
        small_caps = bare and not out and _capitals(ln.text)
        if not same_row and abs(lsize - ref) > 1.3 and len(ln.text) > 12 and not small_caps:
            break
        if not same_row and lsize >= 1.5 * ref and lsize - ref > 2 and not small_caps:
            # a display formula of the text under a small caption ("H(p) = 1"): however short, not
            # the caption's, and nor are the formula's scripts read before it (a sum's limits):
            # the lines off the caption's size taken after its last line in its own size
            while out and abs(_set_size(out[-1]) - ref) > 1.0:
                out.pop()
            break
        if not same_row and lsize < ref - 0.9 and len(ln.text) > 12 and not small_caps \
                and (re.search(r"[.!?]\s*$", (out[-1] if out else first).text) and ln.text[:1].isupper()
                     or _NOTE_LEAD.match(ln.text)):
            # a note set a point smaller under the caption, after the caption's sentence ended
            # (\caption{..} then {\small This figure gives ...} in the float), or opening with
            # "Notes:" / "Source:" under a title-style caption that ends with no stop (the
            # economics and social-science convention): not the caption's
            break
        if own and not same_row and pitch > 0 and abs(lsize - ref) > 0.6 and ln.bbox[3] - cur[3] > 1.6 * pitch \
                and _ENDS.search((out[-1] if out else first).text):
            # a caption set single-spaced in a double-spaced paper (a referee layout): the text
            # below it, a size larger, is no more than one of the text's line gaps away, which the
            # allowance for double-spaced captions (`lead`) takes in; the caption's own rows,
            # measured, tell that a row this far down after its sentence ended is not its own
            break
        if not same_row and lsize < ref - 0.9 and _typewriter(ln) and not _typewriter(first):
            # file names set smaller in a typewriter face under a margin caption (the scripts
            # that made the figure, tufte-style theses): a note beside it, not its text
            break
        if not same_row and out and abs(row[0] - first.bbox[0]) <= 2 \
                and first.bbox[0] + 0.5 * size < ln.bbox[0] < first.bbox[0] + 3 * size \
                and _row_right(out, row) < x1 - 3 - 2 * size:
            # The caption's last row starts at its left edge (no hanging caption) and stops short:
            # its paragraph ended there. A line set a paragraph's indent in is the text's (LaTeX
            # sets a caption with no paragraph indent), however close under the float it stands.
            break
        if indent_left is not None and not same_row and abs(row[0] - indent_left) <= 3 \
                and _row_right(out, row) < x1 - 3 - 2 * size:
            # A legend typed as an indented paragraph ends with its short last row, set from the
            # column's edge: the next line (the next paragraph's indented first, or a line set
            # flush after it) is the text's.
            break
        if small_caps:
            ref = lsize  # the caption's text goes on at its own size
        if not same_row and (out or not bare) and sum(c.isalpha() for c in row_text) >= 3 \
                and centred_rows and _centred(row, ccol, size) and ln.bbox[2] - ln.bbox[0] > row[2] - row[0] \
                and not _same_measure(ln.bbox, row, size) and not PANEL_OPEN.match(ln.text) \
                and (not _symmetric(ln.bbox, ccol, size)
                     or (_full(ln.bbox, ccol) and not _centred_next(ln, cands[k + 1:], ccol, size, ref, ln.bbox[3] - row[3]))
                     or (own and pitch > 0 and min(ln.bbox[1] - row[1], ln.bbox[3] - row[3]) > 1.05 * pitch)):
            # The caption's last line is set centred and short (a centred caption paragraph's
            # last line, GOST and thesis styles). The wider line under it is the text's, however
            # close in size and face, when it is not centred (a paragraph's indented first
            # line), runs from edge to edge (a justified line of the paragraph the float
            # interrupted), or stands further down than the caption's own rows stand apart (a
            # paragraph's full line after the float's skip; tops and bottoms both, a formula's
            # script moves one). A caption centred line by line goes on (its next line is
            # centred too, however wide, at the caption's pitch), and so does one whose key to
            # the panels follows ("а) ..., б) ..." under its first part), and so does a full line
            # that a centred short line closes (a justified paragraph never ends centred: the
            # wider line is the centred caption's). Not after a label alone on its line (centred
            # over its caption by design) nor a folio the caption ran over (a number, no words).
            # Nor when the wider line is set to the row's own measure (_same_measure): a justified
            # caption with side margins looks centred and short in its column, and its next line
            # reaches a point or two further only by a stop or hyphen protruding into the margin.
            break
        if not same_row and _opens_note(ln, ref):
            break  # a side note set right under a margin caption (tufte): "¹⁰ The HRTF set is ..."
        if (parse_float_label(ln.text) or _ITEM_LABEL.match(ln.text)) and not _wraps_on(out[-1] if out else first, first, bare, col, layout):
            break  # the next caption; "Figure 4" wrapped to a line's start mid-sentence is a mention
        if same_row and _overprinted(ln, [first, *out]):
            continue  # the page number printed over the caption's row (a float taller than the page)
        out.append(ln)
        if not same_row:
            if not own:
                pitch, own = max(0.0, _step(ln, foot, row_foot, row[3])), True
                own_white = white_above(ln)
            row, row_text, row_foot = ln.bbox, ln.text, foot
            centred_rows = centred_rows and _centred_row(ln.bbox, ccol, size)
        cur = (cur[0], cur[1], cur[2], max(cur[3], ln.bbox[3]))
        row_bottom = max(row_bottom, extent(ln.bbox)[1])
    # reading order: row by row, left to right
    rows: list[list[Line]] = []
    for ln in out:
        last = rows[-1][-1] if rows else first
        h = min(ln.bbox[3] - ln.bbox[1], last.bbox[3] - last.bbox[1])
        # two lines of words one above the other are two rows, however much a tall formula
        # (a hat, a fraction) makes their boxes overlap; only a script's narrow piece stacks
        w = min(ln.bbox[2] - ln.bbox[0], last.bbox[2] - last.bbox[0])
        stacked = w > 2 * size and _hoverlap(ln.bbox[0], ln.bbox[2], last.bbox[0], last.bbox[2]) > 0.5 * w
        if rows and h > 0 and min(ln.bbox[3], last.bbox[3]) - max(ln.bbox[1], last.bbox[1]) > 0.5 * h and not stacked:
            rows[-1].append(ln)
        else:
            rows.append([ln])
    return [ln for r in rows for ln in sorted(r, key=lambda l: l.bbox[0])]


def _overprinted(ln: Line, rows: list[Line]) -> bool:
    """A lone number set over the caption's own words (a folio a float taller than the text block
    ran over), not in a gap between them as a formula's script is, nor a formula's limit set
    over or under its big operator: the number at the row's size, over a word of letters."""
    if not ln.text.strip().isdigit() or len(ln.text.strip()) > 4:
        return False
    x0, x1 = ln.bbox[0], ln.bbox[2]
    return any(_same_row(ln.bbox, r.bbox) and ln.size >= 0.9 * r.size and any(
        sum(c.isalpha() for c in s["text"]) >= 2 and min(s["bbox"][2], x1) - max(s["bbox"][0], x0) > 0.3 * (x1 - x0)
        for s in r.spans) for r in rows)


def _opens_with_script(ln: Line, size: float) -> bool:
    """The line's first characters are set a script's size smaller than `size` (a subscript
    stacked under a superscript, which MuPDF starts the row's next piece with), and its words
    go on at the row's size."""
    spans = [s for s in ln.spans if s.get("text", "").strip()]
    return (len(spans) >= 2 and spans[0].get("size", size) <= 0.85 * size
            and any(abs(s.get("size", 0) - size) <= 0.3 for s in spans[1:]))


def _set_in_row(rule, ln: Line, lines: list[Line], measure: float, size: float) -> bool:
    """The rule is part of the typesetting of `ln`'s row, not a separator under the caption: a
    radical's overbar, an \\overline or a fraction's bar that a formula in that row sets. It
    lies within the row's own boxes, the row's glyphs run under it from end to end with no gap
    wider than a word space (one formula, not a table's cells), and it spans well short of the
    measure. A table's rule reaches past its cells' text by the column padding, and a footnote
    rule starts at the column's edge over a note's indented mark; a frame round a float and a
    rule of the measure span most of it."""
    if rule[2] - rule[0] > 0.6 * measure:
        return False
    row = [l for l in lines if l is ln or _same_row(l.bbox, ln.bbox)]
    boxes = sorted(tuple(s["bbox"]) for l in row for s in l.spans
                   if isinstance(s, dict) and s.get("text", "").strip() and "bbox" in s)
    # the glyphs under the rule (a radical's sign, which ends where its bar starts, included)
    under = [b for b in boxes if b[2] > rule[0] - 1 and b[0] < rule[2] + 1]
    if not under:
        return False
    if min(b[0] for b in under) > rule[0] + 0.3 * size or max(b[2] for b in under) < rule[2] - 0.3 * size:
        return False
    reach = under[0][2]
    for b in under[1:]:
        if b[0] - reach > 0.5 * size:
            return False
        reach = max(reach, b[2])
    # within the row's height: its glyphs (the radical sign's top, a capital's) reach up to it
    top = min(b[1] for b in under)
    return top - 0.3 * size <= rule[1] and rule[3] <= max(b[3] for b in under)


def _split_by_gutter(ln: Line, lines: list[Line], layout: Layout) -> bool:
    """The line is one column's text and another column's line stands beside it on its row,
    the white between them covering the gutter: two columns of text, as set under a float that
    spans them (figure*). A caption set across the columns never breaks a row at the gutter; a
    short last row of it stays within one column with nothing beside it. The white above the
    text under such a float may be no wider than the caption's own between its rows (a class's
    small \\dbltextfloatsep, a tall symbol opening the text's first line), so the layout tells
    where the caption ends."""
    c = layout.column_of(ln.bbox[0], ln.bbox[2])
    if c is None or c + 1 >= len(layout.columns) or ln.bbox[2] > layout.columns[c][1] + 3:
        return False
    gutter = layout.columns[c + 1][0]
    return any(o is not ln and _same_row(o.bbox, ln.bbox) and o.bbox[0] >= gutter - 3
               and layout.column_of(o.bbox[0], o.bbox[2]) == c + 1 for o in lines)


def _over_the_page(rule, layout: Layout, size: float) -> bool:
    """The rule reaches far out of the text block into a margin: page furniture drawn over the
    page, not a rule set in the text's flow. A running head's rule lies under a head taller than
    the room the class leaves it (a logo in a head offset into a wide margin, as the PLOS
    template sets it, when the logo is taller than meant) and crosses the text block, where it
    may cut through a caption. A rule set in the text (a table's, the footnote rule, a frame
    round a float) stays within the text block, or overruns it by a few points of an overfull
    box. The caller also asks that the line under the rule keep the caption's own pitch: a
    rule in the text's flow takes room of its own, or comes with a change of line (a table's
    first row)."""
    if not layout.columns:
        return False
    return rule[0] < layout.columns[0][0] - 4 * size or rule[2] > layout.columns[-1][1] + 4 * size


def _same_row(box, row) -> bool:
    """The box shares the row's height for more than half the lower one (a piece of that row)."""
    h = min(box[3] - box[1], row[3] - row[1])
    return h > 0 and min(box[3], row[3]) - max(box[1], row[1]) > 0.5 * h


def _step(ln: Line, foot: float | None, row_foot: float | None, row_bottom: float) -> float:
    """How far the line's type stands below the row's: foot to foot (`foot`, the line's _foot),
    or, where either foot is unknown, the line's box bottom below `row_bottom`."""
    return foot - row_foot if foot is not None and row_foot is not None else ln.bbox[3] - row_bottom


def _foot(ln: Line, size: float) -> float | None:
    """Where the line's own type ends below: the bottom its spans in the line's size (`size`,
    its _set_size) share (one font's boxes all reach its descender, whatever the letters; a
    formula's scripts, set smaller, hang below it or stand above it), to the nearest half
    point. It keeps the baseline's distance from row to row. None: no span of that size."""
    ys = [s["bbox"][3] for s in ln.spans
          if isinstance(s, dict) and s.get("text", "").strip() and "bbox" in s and abs(s.get("size", 0) - size) <= 0.5]
    if not ys:
        return None
    return Counter(round(2 * y) / 2 for y in ys).most_common(1)[0][0]


def _row_right(out: list[Line], row) -> float:
    """Where the row `row` of the caption's lines `out` ends: its pieces (a formula's scripts,
    the rest of a line split at a formula) included."""
    right = row[2]
    for ln in out:
        h = min(ln.bbox[3] - ln.bbox[1], row[3] - row[1])
        if h > 0 and min(ln.bbox[3], row[3]) - max(ln.bbox[1], row[1]) > 0.5 * h:
            right = max(right, ln.bbox[2])
    return right


def _page_column(lines: list[Line], layout: Layout, col: int | None) -> tuple[float, float]:
    """The text column as set on this page: the document's column (or the text block) narrowed
    to where this page's full body lines run. Two-sided documents mirror their margins, so
    the document-wide column spans both pages' text and is centred on neither."""
    c0, c1 = layout.columns[col] if col is not None else (layout.columns[0][0], layout.columns[-1][1])
    full = [ln.bbox for ln in lines if ln.horizontal and not ln.role and is_body_size(ln.size, layout.body_size)
            and ln.bbox[2] - ln.bbox[0] >= 0.8 * (c1 - c0) - 30 and ln.bbox[0] >= c0 - 3 and ln.bbox[2] <= c1 + 3]
    # the outermost edges that two lines or more share (a paragraph's indented first line, a
    # list item or a display's line stands alone, or stands inside them)
    lefts = Counter(round(b[0]) for b in full)
    rights = Counter(round(b[2]) for b in full)
    left = min((x for x, n in lefts.items() if n >= 2), default=None)
    right = max((x for x, n in rights.items() if n >= 2), default=None)
    if left is None or right is None or right - left < 0.5 * (c1 - c0):
        return c0, c1
    return float(left), float(right)


def _centred(box, col: tuple[float, float], size: float) -> bool:
    """The box is set centred in its column and short of both edges (by two letters or more)."""
    left, right = box[0] - col[0], col[1] - box[2]
    return left > 2 * size and right > 2 * size and abs(left - right) <= 1.5 * size


def _centred_row(box, col: tuple[float, float], size: float) -> bool:
    """A caption's row as a centred paragraph sets it: its margins equal to half a letter, or
    none (a full, justified line)."""
    return abs((box[0] - col[0]) - (col[1] - box[2])) <= 0.5 * size or _full(box, col)


def _centred_next(ln: Line, after: list[Line], col: tuple[float, float], size: float, ref: float,
                  step: float) -> bool:
    """The row right under `ln`, in the caption's size and at the pitch `step` the caption's rows
    keep down to `ln`, is set centred and short of the column's edges: a centred paragraph's
    line, so `ln` belongs to that paragraph (a justified one never ends centred; a display
    formula under a paragraph's line stands further down)."""
    for nxt in after:
        if nxt.bbox[1] <= ln.bbox[1] + 0.5 * (ln.bbox[3] - ln.bbox[1]):
            continue  # a piece of ln's own row
        return abs((nxt.bbox[3] - ln.bbox[3]) - step) <= 0.15 * size and abs(nxt.size - ref) <= 1.3 \
            and _symmetric(nxt.bbox, col, size) and nxt.bbox[0] - col[0] > 3
    return False


def _same_measure(box, row, size: float) -> bool:
    """The line is set to the row's measure: it starts where the row starts and ends where the
    row ends, give or take what character protrusion moves a line's ends (microtype sets a stop,
    comma or hyphen ending a line partly into the margin, and round letters opening one) or a
    slightly overfull line. A justified caption with side margins (the caption package's
    `margin=`) has rows that look centred and short in the column: its next line, a point or two
    wider by a stop at its end, is the caption's, not a wider line of the text under it (which
    starts at the column's edge or a paragraph indent and runs to the column's other edge)."""
    return abs(box[0] - row[0]) <= 0.3 * size and box[2] - row[2] <= 0.3 * size


def _full(box, col: tuple[float, float]) -> bool:
    """The box runs from the column's one edge to the other (a justified line)."""
    return abs(box[0] - col[0]) <= 1.5 and abs(col[1] - box[2]) <= 1.5


def _symmetric(box, col: tuple[float, float], size: float) -> bool:
    """The box stands as far from one edge of its column as from the other (a centred line of
    any width; a paragraph's indented first line does not)."""
    return abs((box[0] - col[0]) - (col[1] - box[2])) <= 2.0  # centring is exact to a fraction of a point


def _typewriter(ln: Line) -> bool:
    """All the line's words are set in a typewriter face."""
    spans = [s for s in ln.spans if s["text"].strip()]
    return bool(spans) and all(is_mono(s["font"], s.get("flags", 0)) for s in spans)


def _opens_note(ln: Line, size: float) -> bool:
    """The line opens a foot- or side note: its first run is a note's mark (one to three digits
    or a dagger, much smaller than the caption's type and raised) with a space after it. An
    isotope's mass number ("¹³C") has none."""
    spans = [s for s in ln.spans if s["text"].strip()]
    if len(spans) < 2:
        return False
    mark, nxt = spans[0], spans[1]
    if not re.fullmatch(r"\d{1,3}|[*\u2020\u2021\u00a7]", mark["text"].strip()) or mark["size"] > 0.75 * size:
        return False
    spaced = nxt["text"].startswith(" ") or mark["text"].endswith(" ") or nxt["bbox"][0] - mark["bbox"][2] > 0.15 * size
    return spaced and mark["bbox"][3] < nxt["bbox"][3] - 0.15 * size


def _wraps_on(prev: Line, first: Line, bare: bool, col: int | None, layout: Layout) -> bool:
    """The caption line above a line that opens with a float label ends mid-sentence, so that
    label is a mention the caption's sentence wrapped onto ("... of the motion shown in" /
    "Fig. 3. The array ..."). A later line needs only no stop at its end; the label line
    itself also needs words after its label and to fill its column to the edge (the line
    broke for width): a short title-style caption over another caption is no running sentence."""
    if _ENDS.search(prev.text):
        return False
    if prev is not first:
        return True
    if bare or col is None:
        return False
    return prev.bbox[2] >= layout.columns[col][1] - 1.5 * prev.size


def pick_captions(cands: list[CaptionBlock]) -> list[CaptionBlock]:
    """One caption per (kind, number): the best-scored, then the first; a later candidate
    printed alike (as well scored, its label in the same font and size) is a further part of
    that float, continued (caption's \\ContinuedFloat prints "Figure 3" again) and kept as
    such: `pdf._build` drops it again when it owns no graphics."""
    # "Figure 7a:" where the paper has a Figure 7 is a note on a panel of it, typed under the
    # plot; only a paper with no Figure 7 numbers figures 7a, 7b (a figure continued)
    plain = {(c.kind, c.number) for c in cands}
    cands = [c for c in cands if not (c.number[-1:].isalpha() and c.number[-1:].islower()
                                      and (c.kind, c.number[:-1]) in plain)]
    best: dict[tuple[str, str], CaptionBlock] = {}
    for c in cands:
        key = (c.kind, c.number)
        # any caption before a run-in paragraph heading that names the figure, set apart from any
        # graphic ("Figure 3: Excess error." that an appendix opens with \autoref, set bold: its
        # bold label scored it above the real caption), then the score
        if key not in best or (not c.run_in, c.score) > (not best[key].run_in, best[key].score):
            best[key] = c
    keep = set(map(id, best.values()))
    for c in cands:
        b = best[(c.kind, c.number)]
        if id(c) not in keep and c.score >= b.score and _label_look(c) == _label_look(b) \
                and (c.page, c.bbox[1]) > (b.page, b.bbox[1]):
            c.continuation = True
            keep.add(id(c))
        elif id(c) not in keep and c.kind == "figure" and (c.heading or b.heading) and bool(c.text) != bool(b.text):
            # a heading that names a figure alone beside a legend of that number, one set over the
            # graphic, the other in a list of legends kept apart: pdf._build pairs them
            c.apart = True
            keep.add(id(c))
    return [c for c in cands if id(c) in keep]


def _label_look(c: CaptionBlock) -> tuple:
    """How a caption's label is printed: the font and size of its first run."""
    span = next((s for s in c.lines[0].spans if s["text"].strip()), None)
    return (span["font"], round(span["size"], 1), _bold(span)) if span is not None else ()
