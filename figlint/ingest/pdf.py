"""Compiled PDF -> Paper: figures with caption, graphics region, contents and citing sites.

`read_pdf` refuses inputs it cannot read (missing, not a PDF, truncated, corrupt,
encrypted) with a one-line InputError, then reads every page once
(pdf_layout), finds captions and the regions they own (pdf_regions), fills each
Figure with the text spans, raster images (effective DPI from the displayed
size, not the image metadata), vector drawings and subpanel labels inside its
region, and binds citing sites found in the body text and in link annotations
(pdf_sites, bind). `render_crop` rasterises a region on demand; nothing is
rendered while reading.
"""

from __future__ import annotations

import os
import re

import pymupdf

from figlint.bind import bind_sites
from figlint.errors import InputError
from figlint.gcpause import paused
from figlint.ingest import mupdf as _mupdf  # noqa: F401 - keeps MuPDF messages off stdout
from figlint.ingest.mupdf import open_pdf
from figlint.ingest import pdf_regions as R
from figlint.ingest.pdf_turn import point as _turned_point, turn_matrix, turned_size, upright
from figlint.ingest.pdf_captions import CaptionBlock, _hoverlap, find_captions, legend_overleaf, listed_legend, next_to, pick_captions
from figlint.ingest import pdf_sites as S
from figlint.ingest.pdf_layout import (NONFIG_DESTS, BBox, column_lines, cut_from, Layout, Line, PageData, body_stats, find_layout, is_body_size, margin_text,
                                      mark_margins, number_widths, page_columns, page_layout, read_page)
from figlint.model import Caption, Drawing, Figure, Location, Paper, Problem, RasterImage, Subpanel, TextSpan, union
from figlint.ingest.paths import merge_paths



# A PDF up to this size is read into memory once and MuPDF reads it from there: from a file
# it reads a few kilobytes at a time, a seek and a read each (400,000 system calls for the
# largest corpus paper, whose chart page is interpreted more than once), a tenth of the run.
IN_MEMORY_BYTES = 128 * 2**20


def _open(path: str) -> pymupdf.Document:
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not a PDF")
    data = None
    with open(path, "rb") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        fh.seek(0)
        if size <= IN_MEMORY_BYTES:
            data = fh.read()
            head, tail = data[:1024], data[max(0, size - 2048):]
        else:
            head = fh.read(1024)
            fh.seek(max(0, size - 2048))
            tail = fh.read()
    if b"%PDF-" not in head:
        raise InputError(f"{path}: not a PDF (no %PDF header)")
    if b"%%EOF" not in tail:
        raise InputError(f"{path}: truncated PDF (no end-of-file marker)")
    try:
        doc = open_pdf(stream=data, filetype="pdf") if data is not None else open_pdf(path, filetype="pdf")
    except Exception as exc:  # pymupdf raises several types for damaged files
        raise InputError(f"{path}: corrupt PDF ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") from None
    if doc.needs_pass:
        doc.close()
        raise InputError(f"{path}: encrypted PDF (needs a password)")
    if doc.page_count == 0:
        doc.close()
        raise InputError(f"{path}: PDF has no pages")
    return doc


def read_pdf(path: str, sides: dict[str, str] | None = None) -> Paper:
    """Read a compiled paper. `sides` (figure number -> "above"/"below": where its graphics
    are, from the sources) decides which graphics each caption owns where it applies."""
    with paused():  # figlint/gcpause.py: a fifth of this read went to full collections
        return _read_pdf(path, sides)


def _read_pdf(path: str, sides: dict[str, str] | None) -> Paper:
    _mupdf.drain()  # messages about earlier files are not this one's
    doc = _open(path)
    paper = Paper(path=path, route="pdf", pdf_path=path, pages=doc.page_count)
    try:
        first = doc[0].rect
        paper.page_size = (round(first.width, 2), round(first.height, 2))
        pages = _read_pages(doc, paper, path)
        names = _dest_names(doc)
        repaired = bool(getattr(doc, "is_repaired", False))
    finally:
        doc.close()
    if repaired:
        paper.problems.append(Problem("FL010", "the PDF is damaged and was repaired on reading; figures may be missed", Location(file=path)))
    said = _mupdf.drain()
    if said:
        more = f" (and {len(said) - 1} more)" if len(said) > 1 else ""
        paper.problems.append(Problem("FL010", f"MuPDF reported damaged content while reading the PDF: {said[0]}{more}; "
                                      "what it could not parse may be missing", Location(file=path)))
    try:
        _build(paper, pages, names, path, sides)
    except Exception as exc:  # noqa: BLE001 - an odd page layout must not sink the whole run
        paper.problems.append(Problem("FL009", f"PDF layout analysis failed: {type(exc).__name__}: {exc}", Location(file=path)))
    _report_cut_pages(paper, pages, path)
    return paper


def _report_cut_pages(paper: Paper, pages: list[PageData], path: str) -> None:
    """Pages with more vector paths than are read (figlint/budget.py): their figures hold only
    part of their drawings, so they are not analysed, and each is reported once (FL011)."""
    from figlint import budget

    for pd in pages:
        if pd.paths_total <= budget.MAX_PAGE_DRAWINGS:
            continue
        why = (f"page {pd.index + 1} has {pd.paths_total:,} vector paths and only the first "
               f"{budget.MAX_PAGE_DRAWINGS:,} are read")
        figs = [f for f in paper.figures if f.page == pd.index + 1]
        for fig in figs:
            budget.skip(fig, why, reported=True)
            what = f"figure {fig.number}" if fig.number else "an uncaptioned figure"
            paper.problems.append(Problem("FL011", f"{what} was not analysed: {why}",
                                          Location(file=path, page=pd.index + 1, bbox=fig.bbox), figure=fig.number or None))
        if not figs:
            paper.problems.append(Problem("FL011", f"{why}: figures on it may be missed",
                                          Location(file=path, page=pd.index + 1)))


def _read_pages(doc: pymupdf.Document, paper: Paper, path: str) -> list[PageData]:
    from figlint import progress

    from figlint.ingest.pdf_forms import FormInflater

    pages = []
    forms = FormInflater(doc)  # a scatter's marker forms decoded once, not once per marker
    for i in range(doc.page_count):
        progress.step(f"reading page {i + 1} of {doc.page_count}")
        try:
            forms.page(i)
            pages.append(read_page(doc[i], forms))
        except Exception as exc:
            paper.problems.append(Problem("FL010", f"page {i + 1} could not be read: {exc}", Location(file=path, page=i + 1)))
            pages.append(PageData(i, paper.page_size[0], paper.page_size[1]))
        forms.done(i)  # what was kept decoded for this page's reading is let go
    return pages


def _dest_names(doc: pymupdf.Document) -> dict[str, dict]:
    try:
        return doc.resolve_names()
    except Exception:
        return {}


def _build(paper: Paper, pages: list[PageData], names: dict[str, dict], path: str,
           sides: dict[str, str] | None = None) -> None:
    body, font = body_stats(pages)
    paper.body_font_size = body if any(pd.lines for pd in pages) else None
    layout = find_layout(pages, body, font)
    mark_margins(pages, layout)

    # a page read turned (a float set sideways) has its own text block (page_layout)
    own = {pd.index: page_layout(layout, pd) for pd in pages}
    cands = [c for pd in pages for c in find_captions(pd, own[pd.index])]
    caps = pick_captions(cands)
    for c in caps:
        for ln in c.lines:
            ln.role = "caption"
    by_page: dict[int, list[CaptionBlock]] = {}
    for c in caps:
        by_page.setdefault(c.page, []).append(c)
    regions = {pd.index: R.prepare(pd, own[pd.index], by_page.get(pd.index, [])) for pd in pages}
    _anchor_captions(caps, names, pages)
    spanning: dict[int, list[BBox]] = {}
    loose: list[tuple[int, BBox]] = []
    block: tuple[float, float] | None = None  # the text block's reach, once a loose graphic asks
    for pd in pages:
        pr = regions[pd.index]
        lay = own[pd.index]
        R.assign(pr, pd, sides)
        for c in pr.captions:
            box = union([c.bbox] + ([c.region] if c.region else []))
            if lay.column_of(box[0], box[2]) is None and len(lay.columns) > 1:
                spanning.setdefault(pd.index, []).append(box)
            if c.region:
                _claim_lines(pd, c.region, "figure" if c.kind == "figure" else c.kind)
        boxes = [b for b in R.uncaptioned(pr, pd, lay)
                 if not _text_wraps_beside(pd, b, lay)]  # an inline picture (an author's photo, a logo)
        # parts of a float whose rows are set far apart, row by row away from the caption: each
        # pass decides against the regions as the last one left them (the two pictures of a
        # row join together), until no part joins
        while boxes:
            owners = [_float_part(b, pr, pd, lay) for b in boxes]
            if not any(owners):
                break
            for box, owner in zip(boxes, owners):
                if owner is not None:
                    owner.region = union([owner.region, box])
                    _claim_lines(pd, owner.region, "figure")
                    if lay.column_of(owner.region[0], owner.region[2]) is None and len(lay.columns) > 1:
                        spanning.setdefault(pd.index, []).append(union([owner.bbox, owner.region]))
            boxes = [b for b, o in zip(boxes, owners) if o is None]
        for box in boxes:
            if block is None:
                block = _text_block_reach(pages, layout, caps)
            if _page_furniture(pd, box, lay, block):
                continue  # what is left after the floats took their parts: a template's own graphics
            loose.append((pd.index, box))
            _claim_lines(pd, box, "figure")
            if lay.column_of(box[0], box[2]) is None and len(lay.columns) > 1:
                spanning.setdefault(pd.index, []).append(box)

    # A manuscript that keeps its legends apart from its figures (a list of legends after the
    # references, each figure on a page of its own under a heading that names it, no caption):
    # the heading over a graphic names it, the legend listed under that name is its caption
    legends: list[CaptionBlock] = []
    for c in [c for c in caps if c.kind == "figure" and c.region is not None and not c.text]:
        legend = next((d for d in caps if d.kind == "figure" and d.number == c.number and d.region is None and d.text), None)
        if legend is not None:
            caps.remove(legend)
            legends.append(legend)
            legend_overleaf(legend, pages, own)  # body text: it may run on past its page
            c.legend, c.text, c.continuation, c.apart = legend, legend.text, False, False
    # (a legend whose name nothing sets apart, a description list's item "Figure 1 Title. ...",
    # is no caption candidate: it is looked for by the name of the heading left without one)
    for c in [c for c in caps if c.kind == "figure" and c.heading and c.region is not None and not c.text]:
        legend = next((b for pd in pages for b in [listed_legend(pd, own[pd.index], c.number)] if b is not None), None)
        if legend is not None:
            for ln in legend.lines:
                ln.role = "caption"
            legends.append(legend)
            legend_overleaf(legend, pages, own)
            c.legend, c.text, c.continuation, c.apart = legend, legend.text, False, False
    # a caption kept as a float's continued part that owns no graphics is not one (pick_captions),
    # nor is a figure's heading or legend kept apart that nothing paired
    for c in [c for c in caps if (c.continuation or c.apart) and c.region is None and c.kind == "figure"]:
        caps.remove(c)
        for ln in c.lines:
            ln.role = ""
    # A line that holds a figure's name and nothing else, outside any float, names that figure:
    # it is no text, and no citing site. In a manuscript that keeps its legends apart, a heading
    # (an empty entry of the list of legends, a figure page whose graphic is missing, the heading
    # of one set twice); in any paper, a label no caption took and not set as a heading, the
    # first line of a block that does not run on as a sentence: the label a journal asks for
    # under a figure set on a page of its own ("Figure 1" over the authors' names and the
    # journal's). The sources route reads such a line alike (latex.py: _alone_on_line)
    for c in cands:
        if c.kind != "figure" or c.lines[0].role != "":
            continue
        if c.heading and not c.text and legends or not c.heading and _bare_label_line(c):
            c.lines[0].role = "heading"
    # A float headed by a number-first label that has its own caption too (PLoS's "S1 Fig." set
    # over the graphic, "Figure 9: ..." under it, as the sources' \\paragraph* and \\caption print):
    # the caption is the figure's, the heading a heading
    for c in [c for c in caps if c.kind == "figure" and c.region is not None and c.label.startswith(c.number)]:
        mine = next((d for d in caps if d is not c and d.kind == "figure" and d.region is None and d.page == c.page
                     and not d.label.startswith(d.number) and next_to(d.bbox, c.region, 36)), None)
        if mine is not None:
            mine.region, c.region = c.region, None
    # PLoS lists its supporting items under labels set number first ("S1 Fig. Title."), their
    # files sent apart: such a label that owns no graphic is an entry of that list, not a float
    # (its lines are text again, as the sources' \paragraph* is: its words may cite figures)
    # The template's list may label them word first too ("Fig S1 Title.", \\paragraph*{Fig S1}):
    # under its "Supporting information" heading, such a label that owns no graphic is an entry
    # of the list as well (a real supporting figure's caption owns its graphic; a rule is none)
    listed = _supporting_list_start(pages, layout)
    for c in [c for c in caps if c.kind == "figure" and c.region is None
              and (c.label.startswith(c.number) or (listed is not None and _SUPPORTING_NUMBER.fullmatch(c.number)
                                                    and _place(c.page, c.bbox, layout) > listed))]:
        caps.remove(c)
        for ln in c.lines:
            ln.role = ""
    _broken_figures(caps, loose, pages)
    figs = [c for c in caps if c.kind == "figure"]
    for c in figs:
        paper.figures.append(_figure(c, pages, path))
    for page, box in loose:
        fig = _fill(Figure(number="", page=page + 1, bbox=box, location=Location(file=path, page=page + 1, bbox=box)), pages[page], box)
        fig.extra["uncaptioned"] = True
        paper.figures.append(fig)
    paper.figures.sort(key=_reading_key)
    for fig in paper.figures:
        if fig.page and fig.bbox:
            fig.extra["text_beside"] = _text_beside(pages[fig.page - 1], fig.bbox, own[fig.page - 1])
    _number_gaps(paper, pages, layout, spanning)

    paras = S.paragraphs(pages, layout, spanning) + S.caption_paragraphs(caps + legends) + S.float_paragraphs(pages, caps)
    _mark_appendix(paper, pages, layout)
    from figlint.mentions import normalize_number

    sites, taken = S.text_sites(paras, path, {normalize_number(f.number) for f in paper.figures if f.number})
    targets = _link_targets(pages, names, caps)
    sites += S.link_sites(paras, pages, targets, taken, path)
    if not targets:
        # no link points at a figure (no hyperref): a bare \ref prints a number alone
        panels = {normalize_number(f.number): {p.label for p in f.subpanels} for f in paper.figures if f.number}
        sites += S.bare_panel_sites(paras, panels, taken, path)
    unbound = bind_sites(paper, sites)
    if unbound:
        paper.extra["unbound_sites"] = unbound
    from figlint.ingest.discover import unresolved_in_pages

    paper.extra["unresolved_marks"] = unresolved_in_pages(pages)  # "Figure ??": FL012 (ingest/__init__.py)
    paper.extra["columns"] = len(layout.columns)
    by_page = [column_lines(pd, layout) for pd in pages]  # each page's lines of running text, by column
    widths = number_widths(pages, layout, by_page)
    paper.extra["layout"] = {"columns": layout.columns, "body_font": font, "text_top": layout.text_top, "text_bottom": layout.text_bottom,
                             # where each page's text block and margins are, for a figure's fit (FL111)
                             "page_columns": [page_columns(by_col, layout, widths) for by_col in by_page],
                             "page_widths": [round(pd.width, 2) for pd in pages],
                             "margin_text": margin_text(pages, layout)}
    for pr in regions.values():
        R.release(pr)


def _text_beside(pd: PageData, box: BBox, layout: Layout) -> list[list[float]]:
    """Horizontal extents of the running text set at the height of a figure, merged: a float
    spanning the columns has none beside it, a column float's other column does (FL111)."""
    spans = []
    for ln in pd.lines:
        if ln.role or not ln.horizontal or not is_body_size(ln.size, layout.body_size) or len(ln.text) < 10:
            continue
        if min(ln.bbox[3], box[3]) - max(ln.bbox[1], box[1]) > 0.5 * (ln.bbox[3] - ln.bbox[1]):
            spans.append([ln.bbox[0], ln.bbox[2]])
    spans.sort()
    out: list[list[float]] = []
    for a, b in spans:
        if out and a <= out[-1][1] + 2:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [[round(a, 1), round(b, 1)] for a, b in out]


MAX_FLOAT_GAP = 72.0  # rows of one float's grid are set at most an inch apart


def _worded(ln, layout: Layout) -> bool:
    """A line of words, not a float's text between its graphics: half a column wide or more
    and four words of three letters or more (running text in a size the blockers do not take;
    a displayed equation, a matrix's row or a panel's label is neither)."""
    c0, c1 = layout.columns[0][0], layout.columns[-1][1]
    col = layout.column_of(ln.bbox[0], ln.bbox[2])
    if col is not None:
        c0, c1 = layout.columns[col]
    return ln.bbox[2] - ln.bbox[0] >= 0.5 * (c1 - c0) and len(re.findall(r"[^\W\d_]{3,}", ln.text)) >= 4


def _float_part(box: BBox, pr: R.PageRegions, pd: PageData, lay: Layout) -> CaptionBlock | None:
    """The figure whose float a caption-less graphic belongs to: a grid whose rows are set
    further apart than the region walk bridges (NEXT_GAP), the upper row lost to an
    uncaptioned figure. The graphic lies on the far side of a figure's graphics from its
    caption, over the float's width, with nothing printed between the two (no running text,
    no other caption, no other float's graphic) and at most MAX_FLOAT_GAP away."""
    best, best_gap = None, MAX_FLOAT_GAP
    blocking = {id(ln) for ln in pr.blockers}
    for c in pr.captions:
        r = c.region
        if c.kind != "figure" or r is None or c.side not in ("above", "below"):
            continue
        # over the float's width: its graphics' and its caption's (a row of two panels above a
        # centred third is wider than the third)
        fx0, fx1 = min(r[0], c.xrange[0]), max(r[2], c.xrange[1])
        if _hoverlap(box[0], box[2], fx0, fx1) < 0.5 * (box[2] - box[0]):
            continue
        if c.side == "above":  # graphics above the caption: the part lies above them
            lo, hi = box[3], r[1]
        else:
            lo, hi = r[3], box[1]
        if hi - lo < -2:
            continue
        x0, x1 = min(box[0], r[0]), max(box[2], r[2])
        between = lambda b: b[3] > lo + 1 and b[1] < hi - 1 and b[2] > x0 and b[0] < x1  # noqa: E731
        texts = [ln for ln in pd.lines if ln.role != "figure" and between(ln.bbox)]
        if any(ln.role or id(ln) in blocking or _worded(ln, lay) for ln in texts):
            continue  # running text, a heading, another caption: the two are not one float
        # the float's own text between its graphics (a displayed equation, a panel's labels)
        # fills the space it stands in: the white gaps around it are what sets parts apart
        gap, y = 0.0, lo
        for ln in sorted(texts, key=lambda ln: ln.bbox[1]):
            gap, y = max(gap, ln.bbox[1] - y), max(y, ln.bbox[3])
        gap = max(gap, hi - y)
        if gap > best_gap:
            continue
        if any(o is not c and o.region is not None and between(o.region) for o in pr.captions):
            continue
        best, best_gap = c, gap
    return best


def _text_block_reach(pages: list[PageData], layout: Layout, caps: list[CaptionBlock]) -> tuple[float, float]:
    """The highest top and lowest bottom that any page's running text or any captioned float
    reaches. Layout's text block is a typical page's (a low percentile), which floats set at
    the top of most pages push down; floats are set inside the text block, so theirs count
    (a paper whose every page opens with a float has no running text up there)."""
    top, bottom = layout.text_top, layout.text_bottom
    for pd in pages:
        for ln in pd.lines:
            if ln.horizontal and R._prose(ln, layout):
                top = min(top, ln.bbox[1])
                bottom = max(bottom, ln.bbox[3])
    for c in caps:
        box = union([c.bbox] + ([c.region] if c.region else []))
        top, bottom = min(top, box[1]), max(bottom, box[3])
    return top, bottom


def _page_furniture(pd: PageData, box: BBox, layout: Layout, block: tuple[float, float]) -> bool:
    """A captionless graphic the template sets, not the author: wholly above the highest or
    below the lowest running text of any page (a running head's emblem, a footer's badge), or
    on the document's first page above its running text (a journal's masthead logo, a side
    panel of article data drawn as an image, a thesis title page's crest: the running text is
    the first line of prose set in a text column, so a title page has none and a full-width
    abstract is not it). Floats are set inside the text block; a first page's figure has its
    caption."""
    if box[3] <= block[0] - 1.0 or box[1] >= block[1] + 1.0:
        return True
    if pd.index == 0:
        tops = [ln.bbox[1] for ln in pd.lines if ln.horizontal and R._prose(ln, layout)
                and layout.column_of(ln.bbox[0], ln.bbox[2]) is not None]
        return not tops or box[3] <= min(tops) + 1.0
    return False


def _text_wraps_beside(pd: PageData, box: BBox, layout: Layout) -> bool:
    """Running text set beside a picture over its height, in its column: the picture sits in
    the paragraph (IEEE biographies, wrapped logos); a float has the column to itself."""
    col = layout.column_of(box[0], box[2])
    pics = [im["bbox"] for im in pd.images if R.inside(im["bbox"], box, 2.0)]
    if col is None or not pics:
        return False
    c0, c1 = layout.columns[col]
    pic = union(pics)
    rows = [ln for ln in pd.lines if ln.role in ("", "figure") and ln.horizontal and len(ln.text) >= 20
            and abs(ln.size - layout.body_size) <= 2.0 and layout.column_of(ln.bbox[0], ln.bbox[2]) == col
            and (ln.bbox[0] >= pic[2] - 1 or ln.bbox[2] <= pic[0] + 1)
            and pic[1] - 2 <= (ln.bbox[1] + ln.bbox[3]) / 2 <= pic[3] + 2]
    return pic[2] - pic[0] < 0.6 * (c1 - c0) and len(rows) >= 3


def _number_gaps(paper: Paper, pages: list[PageData], layout: Layout, spanning: dict[int, list[BBox]]) -> None:
    """A figure printed without a caption line of its own (only sub-captions, which
    subcaption allows) still takes its number: when figures N-1 and N+1 are found and the
    uncaptioned regions between them in reading order sit on one page, they are Figure N."""
    def split(num: str) -> tuple[str, int] | None:
        m = re.fullmatch(r"((?:[A-Z]|\d+)\.)?(\d+)", num)
        return (m.group(1) or "", int(m.group(2))) if m else None

    def place(fig: Figure) -> tuple:
        box = fig.bbox or (fig.caption.location.bbox if fig.caption else None) or (0, 0, 0, 0)
        return (fig.page or 0, box[1])

    numbered = [f for f in paper.figures if f.number and split(f.number)]
    have = {split(f.number) for f in numbered}
    # figures numbered 6.3a, 6.3b (one continued over pages) are Figure 6.3: no gap
    have |= {split(f.number[:-1]) for f in paper.figures if f.number[-1:].islower() and split(f.number[:-1])}
    loose = [f for f in paper.figures if not f.number]
    for a in numbered:
        pre, n = split(a.number)
        if (pre, n + 1) in have or (pre, n + 2) not in have:
            continue
        b = next(f for f in numbered if split(f.number) == (pre, n + 2))
        between = [f for f in loose if place(a) < place(f) < place(b) and f.number == ""]
        if not between or len({f.page for f in between}) != 1:
            continue
        box = union([f.bbox for f in between if f.bbox])
        pg = between[0].page
        _claim_lines(pages[pg - 1], box, "figure")  # its sub-captions are not running text
        if layout.column_of(box[0], box[2]) is None and len(layout.columns) > 1:
            spanning.setdefault(pg - 1, []).append(box)
        fig = _fill(Figure(number=f"{pre}{n + 1}", page=pg, bbox=box,
                           location=Location(file=paper.path, page=pg, bbox=box)), pages[pg - 1], box)
        fig.extra["region"] = "no caption line; numbered from its neighbours"
        gone = {id(f) for f in between}
        paper.figures = [f for f in paper.figures if id(f) not in gone] + [fig]
        loose = [f for f in loose if id(f) not in gone]
        have.add((pre, n + 1))
    paper.figures.sort(key=_reading_key)


def _reading_key(fig: Figure) -> tuple:
    """Page, then figure number: LaTeX never reorders floats of one kind, so on a page the
    numbers give the order; uncaptioned regions follow, top to bottom."""
    if fig.number:
        return (fig.page or 0, 0, number_order(fig.number), 0.0)
    return (fig.page or 0, 1, ("", ()), fig.bbox[1] if fig.bbox else 0.0)


def number_order(number: str) -> tuple:
    """A figure number's place in numbering order: its letter prefix, then each numeric part
    as a number ("3.9" before "3.10", chapter-dash "4-9" before "4-10", "A2" before "A10")."""
    m = re.fullmatch(r"([A-Za-z]*)[\s.\u00a0]*(\d+(?:\s*[.\-\u2013]\s*\d+)*)", number.strip())
    if not m:
        return ("~", (), number)
    return (m.group(1), tuple(int(x) for x in re.findall(r"\d+", m.group(2))), "")


def _claim_lines(pd: PageData, box: BBox, role: str) -> None:
    for ln in pd.lines:
        if not ln.role and R.inside(ln.bbox, box, 1.0):
            ln.role = role


def _broken_figures(caps: list[CaptionBlock], loose: list[tuple[int, BBox]], pages: list[PageData]) -> None:
    """A figure set without a float breaks where the page does (a float never does): its
    graphic closes one page and its caption opens the next (pandoc's figures, a graphic and a
    typed "Fig 4." paragraph after it). A caption that owns no graphic and comes first on its
    page, under a loose graphic that comes last on the page before, in the same stretch of
    the width, is that graphic's: the figure is on the graphic's page, its caption on the next."""
    for c in caps:
        if c.kind != "figure" or c.region is not None or c.page == 0:
            continue
        x0, y0, x1, _y1 = c.bbox
        pd = pages[c.page]
        if any(_body_line(ln) and ln.bbox[3] <= y0 + 1 for ln in pd.lines):
            continue  # text comes before the caption on its page (in any column)
        prev = pages[c.page - 1]
        boxes = [b for p, b in loose if p == prev.index and _hoverlap(b[0], b[2], x0, x1) > 0.5 * min(b[2] - b[0], x1 - x0)]
        if not boxes:
            continue
        box = max(boxes, key=lambda b: b[3])
        if any(b[1] >= box[3] for p, b in loose if p == prev.index and b is not box) or \
                any(_body_line(ln) and ln.bbox[1] >= box[3] - 1 for ln in prev.lines):
            continue  # the graphic is not the last thing on its page (in any column)
        loose.remove((prev.index, box))
        c.region, c.region_page, c.side = box, prev.index, "above"


def _body_line(ln) -> bool:
    """A line of the running text (not a caption's, a figure's, a header's or a margin's)."""
    return not ln.role and ln.horizontal and bool(ln.text.strip())


def _bare_label_line(c: CaptionBlock) -> bool:
    """A caption candidate's first line is its label and nothing else ("Figure 1", "Fig. 3:"),
    and the line under it does not go on with the label's sentence ("Figure 3" / "shows the
    ..." is text broken in a narrow column). find_captions already left out a label the line
    above runs on into ("... as shown in" / "Figure 3")."""
    from figlint.mentions import parse_caption_label

    found = parse_caption_label(c.lines[0].text.strip())
    if found is None or not found[1] or found[2].strip():
        return False
    return len(c.lines) < 2 or not c.lines[1].text.strip()[:1].islower()


def _figure(c: CaptionBlock, pages: list[PageData], path: str) -> Figure:
    """The figure of a caption, on the page its region is on (c.region_page, else its own)."""
    at = c.legend or c  # a legend listed apart: the caption is printed where the list is
    cap = Caption(text=c.text, label=c.label, location=Location(file=path, page=at.page + 1, bbox=at.bbox))
    pd = pages[c.page if c.region_page is None else c.region_page]
    page = pd.index + 1
    fig = Figure(number=c.number, page=page, bbox=c.region, caption=cap,
                 location=Location(file=path, page=page, bbox=c.region or c.bbox))
    fig.extra["caption_side"] = {"above": "below", "below": "above"}.get(c.side, c.side)
    if c.continuation:
        fig.extra["continuation"] = True
    if pd.turn:
        fig.extra["turn"] = pd.turn
    if c.region is None:
        fig.extra["region"] = "not found"
        return fig
    return _fill(fig, pd, c.region)


def _fill(fig: Figure, pd: PageData, box: BBox) -> Figure:
    if pd.turn:  # its boxes are in the page turned upright (pdf_turn): renderers turn it too
        fig.extra["turn"] = pd.turn
    lines = [ln for ln in pd.lines if ln.role == "figure" and R.inside(ln.bbox, box, 1.0)]
    for ln in lines:
        for s in ln.spans:
            if s["text"].strip() and s["size"] >= 0.5:
                fig.spans.append(TextSpan(text=s["text"].strip(), size=round(s["size"], 2), font=s["font"], bbox=tuple(round(v, 2) for v in s["bbox"]), color=s["color"], dir=ln.dir))
    for im in pd.images:
        if R.inside(im["bbox"], box, 2.0):
            dx = im["width"] * 72.0 / im["disp_w"] if im["disp_w"] else 0.0
            dy = im["height"] * 72.0 / im["disp_h"] if im["disp_h"] else 0.0
            fig.images.append(RasterImage(width_px=im["width"], height_px=im["height"], bbox=tuple(round(v, 2) for v in im["bbox"]),
                                          dpi_x=round(dx, 1), dpi_y=round(dy, 1), xref=im["xref"], name=im["name"],
                                          placed=_rounded(cut_from(im["bbox"], im["full"]))))
    fig.drawings = _drawings_in(pd, box)
    fig.subpanels = _subpanels(lines)
    return fig


def _rounded(box: BBox | None) -> BBox | None:
    return None if box is None else tuple(round(v, 2) for v in box)


def _drawings_in(pd: PageData, box: BBox) -> list[Drawing]:
    """Paths inside the region; consecutive paths with one style (a data series, a grid) become one Drawing."""
    bx0, by0, bx1, by1 = box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2
    inside = []
    for p in pd.drawings + pd.marks if pd.marks else pd.drawings:
        r = p.rect
        if bx0 <= (r[0] + r[2]) / 2 <= bx1 and by0 <= (r[1] + r[3]) / 2 <= by1:
            inside.append(p)
    return merge_paths(inside)


_PANEL_RE = re.compile(r"\(([a-z])\)(?=\s|$)")


def _subpanels(lines) -> list[Subpanel]:
    """Panel labels "(a)", "(b)" that open a line or a text run of the region, in sequence from (a).

    "(s)" in an axis title like "Time (s)" is not a panel: a label must start its line or
    run, and the letters must follow on from (a).
    """
    found: dict[str, Subpanel] = {}
    for ln in lines:
        starts, pos = {0}, 0
        for sp in ln.spans:  # where each text run starts within the line text
            t = " ".join(sp["text"].split())
            at = ln.text.find(t, pos) if t else -1
            if at >= 0:
                starts.add(at)
                pos = at + len(t)
        hits = [m for m in _PANEL_RE.finditer(ln.text) if m.start() in starts]
        for k, m in enumerate(hits):
            end = hits[k + 1].start() if k + 1 < len(hits) else len(ln.text)
            letter = m.group(1)
            if letter not in found:
                found[letter] = Subpanel(label=letter, bbox=tuple(round(v, 2) for v in ln.bbox), caption=ln.text[m.end():end].strip())
    seq = []
    for i in range(26):
        letter = chr(ord("a") + i)
        if letter not in found:
            break
        seq.append(found[letter])
    return seq if len(seq) >= 2 else []


def _anchor_captions(caps: list[CaptionBlock], names: dict[str, dict], pages: list[PageData]) -> None:
    """hyperref puts a figure's anchor at the top of its float: a wall the region must not cross."""
    anchors: dict[int, list[tuple[float, float]]] = {}
    tops: dict[str, tuple[int, float, float]] = {}  # "figure.5" -> (page, x, y)
    parts: dict[str, list[tuple[int, float]]] = {}  # "figure.5" -> (page, y) of "subfigure.5.k"
    for name, dest in names.items():
        low = name.lower()
        if not low.startswith(("figure.", "subfigure.")) or not isinstance(dest, dict) or dest.get("page") is None:
            continue
        pg = dest["page"]
        if not 0 <= pg < len(pages) or not dest.get("to"):
            continue
        x, y = _to_page(pages[pg], dest["to"])
        if low.startswith("figure."):
            tops[low] = (pg, x, y)
        else:
            parts.setdefault("figure." + low.split(".")[1], []).append((pg, y))
    for key, (pg, x, y) in tops.items():
        # Without hypcap the anchor is set where \caption is called, under the sub-figures
        # (subcaption, subfig): a float's top lies above all of its parts' anchors.
        if any(p == pg and py < y - 1 for p, py in parts.get(key, ())):
            continue
        anchors.setdefault(pg, []).append((x, y))
    for c in caps:
        if c.kind != "figure":
            continue
        cb = c.bbox
        above = [(x, y) for x, y in anchors.get(c.page, []) if c.xrange[0] - 12 <= x <= c.xrange[1] and y < cb[1] - 30]
        others = [o.bbox for o in caps if o.page == c.page and o is not c and o.bbox[3] <= cb[1] and _hoverlap(o.bbox[0], o.bbox[2], *c.xrange) > 0]
        above = [(x, y) for x, y in above if not any(y < ob[1] for ob in others if ob[3] <= cb[1])] or []
        if above:
            c.anchor_y = max(y for _, y in above)


def _to_page(pd: PageData, to) -> tuple[float, float]:
    p = pymupdf.Point(to[0], to[1]) * pymupdf.Matrix(*pd.matrix)
    return (p.x, p.y)


def _link_targets(pages: list[PageData], names: dict[str, dict], caps: list[CaptionBlock]) -> list[tuple[int, dict, list[str]]]:
    """(page, link, candidate figure numbers) for every internal link that may point at a figure."""
    floats = [c for c in caps if c.region is not None or c.kind == "figure"]
    out = []
    for pd in pages:
        for link in pd.links:
            name = link.get("nameddest") or ""
            strict = True
            if name:
                prefix = name.split(".")[0].lower()
                if prefix in NONFIG_DESTS:
                    continue
                # a figure float type the paper declares (caption's \DeclareCaptionType{sfigure},
                # newfloat's suppfigure) names its anchors after itself; they sit at its float's
                # top as `figure.N` anchors do, held to the same distance
                strict = "fig" not in prefix
                dest = names.get(name)
                if not dest or dest.get("page") is None:
                    continue
                tp = dest["page"]
                if not 0 <= tp < len(pages) or not dest.get("to"):
                    continue
                x, y = _to_page(pages[tp], dest["to"])
            elif link.get("kind") == pymupdf.LINK_GOTO and link.get("page", -1) >= 0 and link.get("to") is not None:
                tp = link["page"]
                if not 0 <= tp < len(pages):
                    continue
                x, y = link["to"].x, link["to"].y
            else:
                continue
            numbers = []
            if pages[tp].turn:  # a point on a page read turned (pdf_turn), named or not
                t = pages[tp]
                x, y = _turned_point((x, y), turn_matrix(t.turn, *turned_size(t.turn, t.width, t.height)))
                if not strict:
                    # a sideways float (rotating's sidewaysfigure) on its page: hyperref set its
                    # anchor where the unturned page's text begins, far from the float as read
                    # turned; a figure's anchor there is the page's one figure's
                    only = _only_figure(floats, tp)
                    numbers = [only.number] if only is not None else []
            numbers = numbers or _float_at(floats, tp, x, y, strict)
            if not numbers and not strict:
                # a figure's anchor above the one figure of its page, further up than the
                # distance allowed (a float page's tall float, its drawing low in a canvas with
                # white space above it): that figure's, as on a turned page
                only = _only_figure(floats, tp)
                if only is not None and y < union([only.bbox] + ([only.region] if only.region else []))[1]:
                    numbers = [only.number]
            out.append((pd.index, link, numbers))
    return out


def _only_figure(floats: list[CaptionBlock], page: int) -> CaptionBlock | None:
    """The figure caption of page `page` when it is the page's only one."""
    on_page = [c for c in floats if c.page == page and c.kind == "figure"]
    return on_page[0] if len(on_page) == 1 else None


def _float_at(floats: list[CaptionBlock], page: int, x: float, y: float, strict: bool) -> list[str]:
    """Numbers of the figures an anchor at (x, y) may point to, nearest first.

    hyperref puts the anchor at the top of the float, at the left edge of its column,
    and floats holding several captions share one anchor: all of them are candidates.
    """
    scored = []
    for c in floats:
        if c.page != page:
            continue
        box = union([c.bbox] + ([c.region] if c.region else []))
        if not (min(box[0], c.xrange[0]) - 15 <= x <= max(box[2], c.xrange[1]) + 15):
            continue
        d = 0.0 if box[1] - 6 <= y <= box[3] + 6 else (box[1] - y if y < box[1] else y - box[3])
        # The anchor marks the float's top (hypcap), or its caption (a line above the caption's
        # first baseline): one lower than the caption's top is not this float's but the next
        # one's, stacked right under it (figure* at the top of a page), when that is near.
        below = y > c.bbox[1] + 2
        scored.append((d, c, d + 30 if below else d))
    scored.sort(key=lambda t: t[2])
    if not scored or scored[0][1].kind != "figure" or scored[0][0] > (20 if strict else 60):
        return []
    # Figures that start level with the nearest one share its float (and its anchor).
    top = union([scored[0][1].bbox] + ([scored[0][1].region] if scored[0][1].region else []))[1]
    out = []
    for _d, c, _k in scored:
        box = union([c.bbox] + ([c.region] if c.region else []))
        if c.kind == "figure" and (c is scored[0][1] or abs(box[1] - top) < 6):
            out.append(c.number)
    return out


_NUMBERED_HEADING = re.compile(r"^\d+\.?\s+[A-Z]")
# "A Every run", or in capitals ("A GAME MODES": ICLR's small capitals extract as capitals)
_FIRST_LETTERED = re.compile(r"^A[.:]?\s+(?:[A-Z][a-z]|[A-Z]{2,}\b(?![^a-z]*[a-z]))")
_APPENDIX_ALONE = re.compile(r"^(?:APPENDIX|APPENDICES|APPENDIXES|Appendix|Appendices)(?:\s+[A-Z])?:?$")


_SUPPORTING_HEADING = re.compile(r"^(?:\d+\.?\s+)?(?:Supporting\s+[Ii]nformation|SUPPORTING\s+INFORMATION)\.?$")
_SUPPORTING_NUMBER = re.compile(r"S\d+")


def _place(page: int, box: BBox, layout: Layout) -> tuple[int, int, float]:
    """Where a box comes in the reading: its page, its column (a full-width box first), its top."""
    col = layout.column_of(box[0], box[2])
    return (page, -1 if col is None else col, box[1])


def _supporting_list_start(pages: list[PageData], layout: Layout) -> tuple[int, int, float] | None:
    """Where the heading PLoS lists a paper's supporting items under ("Supporting information",
    set as a heading in the running text) is printed; None without one."""
    for pd in pages:
        for ln in pd.lines:
            if _body_line(ln) and _SUPPORTING_HEADING.match(ln.text.strip()) and S.heading_like(ln, layout):
                return _place(pd.index, ln.bbox, layout)
    return None


def _mark_appendix(paper: Paper, pages: list[PageData], layout: Layout) -> None:
    """Figures after an appendix heading, or numbered like A2 / S1, are appendix figures. The
    paper's `appendix_cited`: its body text before that heading names an appendix (the word,
    as printed; contents lines left out), as the LaTeX route tells from its sources."""
    from figlint.ingest.appendix import named_appendices
    from figlint.mentions import APPENDIX_WORD

    start = None
    before: list[str] = []
    captions: list[str] = []  # a caption may send its reader to an appendix too
    top = 0.0  # the size of the numbered section headings met ("2 Methods")
    heads: list[tuple[tuple, str]] = []  # (where, letter) of each appendix heading
    for pd in pages:
        for ln in pd.lines:
            if ln.role == "caption" and not start:
                captions.append(ln.text)
            if ln.role or not ln.horizontal:
                continue
            t = ln.text.strip()
            # (a line that is the word alone is a heading in any face: AASTeX sets "APPENDIX"
            # in the body's size and weight)
            head = len(t.split()) <= 8 and (S.heading_like(ln, layout) or bool(_APPENDIX_ALONE.match(t))
                                            or _caps_heading(ln, layout))
            # "Appendix A ...", or the first lettered heading after numbered ones, set as large
            # as they are ("A Every run": \appendix in article and most classes letters the
            # sections that follow; a paragraph heading "A Closer Look" is smaller)
            if head and (S._APPX_RE.match(t) or (top and ln.size >= top - 0.3 and _FIRST_LETTERED.match(t))):
                start = (pd.index, layout.column_of(ln.bbox[0], ln.bbox[2]), ln.bbox[1])
                heads = _appendix_heads(pages, layout, pd, ln)
                break
            if head and _NUMBERED_HEADING.match(t):
                top = max(top, ln.size)
            before.append(t)
        if start:
            break
    paper.extra["appendix_cited"] = bool(start) and any(APPENDIX_WORD.search(t) for t in before)
    letters: set[str] = set()
    if start:
        # the text joined: "Appendix" ends one line and its letter starts the next, or the word
        # is hyphenated at a line's end ("Ap-" / "pendix C")
        for lines in (before, captions):
            letters |= named_appendices(re.sub(r"(?<=[A-Za-z])-\s+(?=[a-z])", "", " ".join(lines)))[0]
    paper.extra["appendix_named"] = sorted(letters)
    for fig in paper.figures:
        if re.fullmatch(r"[A-Z][. \u00a0\u2009\u202f]?\d+", fig.number or ""):
            fig.in_appendix = True
            continue
        if start is None or fig.page is None:
            continue
        box = fig.bbox or (fig.caption.location.bbox if fig.caption else None)
        if box is None:
            continue
        pg = fig.page - 1
        col = layout.column_of(box[0], box[2])
        hp, hcol, hy = start
        if pg > hp:
            fig.in_appendix = True
        elif pg == hp:
            if hcol is None or col is None or col == hcol:
                fig.in_appendix = box[1] > hy
            else:
                fig.in_appendix = (col or 0) > hcol
    from figlint.ingest.appendix import settle_appendix

    settle_appendix(paper.figures)
    for fig in paper.figures:
        if fig.in_appendix:
            fig.extra["appendix_section"] = _appendix_at(fig, heads, layout)
    first = min((f.page for f in paper.figures if f.in_appendix and f.page), default=None)
    if start is None and first is not None:
        # an appendix the numbers tell (no heading printed): the text before its first figure
        before = [ln.text for pd in pages if pd.index < first - 1 for ln in pd.lines if not ln.role and ln.horizontal]
        paper.extra["appendix_cited"] = any(APPENDIX_WORD.search(t) for t in before)


_APPENDIX_LETTER = re.compile(r"^(?:APPENDIX|Appendix)\s+([A-Z])\b|^([A-Z])[.:]?\s+[A-Z]")


def _capitals(text: str, at_least: int = 6) -> bool:
    """A line set in capitals throughout, at least `at_least` letters (AASTeX's appendix
    headings, "B. ALL RUNS", are in the body's size and weight)."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= at_least and all(c.isupper() for c in letters)


def _caps_heading(ln: Line, layout: Layout) -> bool:
    """A heading set in small capitals (ICLR's style): capitals only, the first letters of its
    words larger than the body, the rest (the line's size) smaller."""
    return _capitals(ln.text, 4) and max((sp["size"] for sp in ln.spans), default=0.0) > layout.body_size + 0.5


def _appendix_heads(pages: list[PageData], layout: Layout, first_page: PageData, first: Line) -> list[tuple[tuple, str]]:
    """The appendices' headings from the first one on, each as (where, letter): "A Title",
    "Appendix B: Title", "APPENDIX C" set at least as large as the first (a lettered heading
    in a smaller face, "B.2 More runs", is a part of one). The letter is "" where the heading
    prints none (a lone "APPENDIX")."""
    out = []
    # the size of the appendices' headings: the first's when it is lettered, else (a title
    # such as "Supplementary Material" over them) the first lettered one's after it
    size = first.size if _APPENDIX_LETTER.match(first.text.strip()) else None
    for pd in pages:
        if pd.index < first_page.index:
            continue
        for ln in pd.lines:
            # (a heading set right over a figure may have been taken into its region)
            if ln.role not in ("", "figure") or not ln.horizontal or (
                    pd is first_page and ln.bbox[1] < first.bbox[1] and ln is not first):
                continue
            t = ln.text.strip()
            if ln is not first and (len(t.split()) > 16 or (size is not None and ln.size < size - 0.3) or not (
                    ln.bold or ln.size > layout.body_size + 0.5 or _caps_heading(ln, layout) or _capitals(t))):
                continue
            m = _APPENDIX_LETTER.match(t)
            if m and size is None:
                size = ln.size
            if m or ln is first:
                where = (pd.index, layout.column_of(ln.bbox[0], ln.bbox[2]) or 0, ln.bbox[1])
                out.append((where, (m.group(1) or m.group(2)) if m else ""))
    out.sort(key=lambda h: h[0])
    return out


def _appendix_at(fig, heads: list[tuple[tuple, str]], layout: Layout) -> str:
    """The letter of the appendix a figure prints in: the last appendix heading before its
    caption (no heading stands between a figure and its caption; the region of a figure set
    right under a heading may reach over it)."""
    box = (fig.caption.location.bbox if fig.caption else None) or fig.bbox
    if box is None or fig.page is None:
        return ""
    where = (fig.page - 1, layout.column_of(box[0], box[2]) or 0, box[1])
    letter = ""
    for at, name in heads:
        if at > where:
            break
        letter = name
    return letter


def render_crop(pdf_path: str, page: int, bbox: BBox, dpi: int = 150, turn: int = 0) -> bytes:
    """PNG bytes of one region of a page (1-based page), at the given resolution; `turn`: the
    region is in the page turned by that many degrees (figure.extra["turn"], pdf_turn)."""
    doc = _open(pdf_path)
    try:
        if not 1 <= page <= doc.page_count:
            raise InputError(f"{pdf_path}: no page {page}")
        pg = upright(doc[page - 1], turn)
        clip = pymupdf.Rect(bbox) & pg.rect
        if clip.is_empty:
            raise InputError(f"{pdf_path}: empty crop on page {page}")
        return pg.get_pixmap(dpi=dpi, clip=clip).tobytes("png")
    finally:
        doc.close()


__all__ = ["read_pdf", "render_crop"]
