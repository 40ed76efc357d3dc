"""FL111: a figure whose graphics print past the text block (into the margin) or off the page.

Two ways to know where a figure prints, one finding: the compiled PDF (the figure's ink
against its page's columns and edges, ingest/pdf_layout.page_columns) and, without a PDF,
the sources (the placed width of its graphics, ingest/placement.py, against the
`\\linewidth` of its float). Ink, not boxes: the white margin of an included graphic
prints nothing (features/ink.py).
"""

from __future__ import annotations

from figlint.model import Figure
from figlint.rules.registry import Context, rule

# Floats measured otherwise or not at all: a margin figure belongs in the margin, a rotated
# one on its own page. (Those that span the text block: placement.set_at_text_width.)
_SKIP = {"marginfigure", "sidewaysfigure", "sidewaysfigure*"}
_BP = 72.27 / 72.0  # TeX points per PDF point


@rule(
    "FL111",
    "figure-exceeds-text-block",
    severity="warning",
    dimension="structure_layout",
    options={"max-overflow-pt": 3.0},
    routes=("pdf", "latex"),
)
def figure_exceeds_text_block(fig: Figure, ctx: Context):
    """A figure whose graphics print past the text block into the margin, or off the page.

    What it does:
    Measures where the figure's ink prints — its text, its strokes and fills that are not
    white, and the non-white pixels of its images, so an included file's white margin
    does not count — and compares it with the measure its float is set to. From the
    compiled PDF: the text block of the figure's page (two-sided documents move it from
    page to page), read from the lines of running text of the pages of its parity; for a
    single-column float of a multi-column paper, the column of its caption (a `figure`
    in a two-column paper is as wide as its column, unless `\\onecolumn` set the pages
    it is on in one column; `figure*` spans the text block;
    from the PDF alone, a float with no running text beside it in another column is
    taken to span). From
    the sources alone: the placed width of the graphics (`width=1.2\\linewidth`, a
    natural size) against the float's `\\linewidth` (the column, or the text width for
    `figure*`). Reports the figure when its ink reaches past that measure by more than
    `max-overflow-pt` (default 3 pt), or reaches the page edge. Margin figures are not
    reported: a figure printed wholly beside the text block (`\\marginpar`, tufte's
    `marginfigure`), nor a figure reaching into a margin where the document prints
    words (side notes and margin captions of the tufte classes), unless it runs off
    the page. A caption wider than the text block widens the measure (LaTeX wraps a
    caption at its float's width, so the float was set wide on purpose: a class's wide
    floats, `adjustwidth`), and floats turned on their page (`sidewaysfigure`) are
    not measured.

    Why is this bad?
    A figure set wider than its measure runs into the margin (or across the gutter
    into the next column), where publishers trim, print marks and page numbers; past
    the page edge it is cut off. Venues reject such submissions or shrink the figure
    in production, and LaTeX's only warning is an "Overfull \\hbox" in the log.

    Example:
    `\\includegraphics[width=1.2\\linewidth]{plot.pdf}` in a one-column paper: the plot
    prints about 69 pt into the right margin. A `figure` (not `figure*`) with
    `width=\\textwidth` in a two-column paper prints across the other column.

    Use instead:
    Size graphics relative to the measure (`width=\\linewidth`, at most), use `figure*`
    for a figure that should span both columns of a two-column paper, or crop the
    graphic's own white space (`bbox_inches="tight"`, `pdfcrop`) instead of
    enlarging it past the text.
    """
    if (fig.env or "") in _SKIP:
        return
    tol = float(ctx.option("max-overflow-pt"))
    if fig.extra.get("content_source") == "graphics-files":
        fit = _from_sources(fig, ctx, tol)
    else:
        fit = _from_pdf(fig, ctx, tol)
    if fit is None:
        return
    parts = []
    over = fit["overflow_pt"]
    for side in ("left", "right"):
        amount = over.get(side)
        if fit["cut"].get(side):
            parts.append(f"off the {side} edge of the page (cut off)")
        elif amount is not None and amount > tol:
            parts.append(f"{amount:.0f} pt past the {side} edge of {fit['measure_name']} "
                         f"(into the {fit['into'].get(side, 'margin')})")
    if not parts:
        return
    yield ctx.finding(
        f"the figure's graphics print {' and '.join(parts)}; at most {tol:g} pt of overflow is allowed",
        figure=fig,
        evidence=fit,
        origin="figure",
    )


# ---- the compiled PDF -----------------------------------------------------------------------
def _from_pdf(fig: Figure, ctx: Context, tol: float) -> dict | None:
    from figlint.features.ink import ink_extent

    lay = ctx.paper.extra.get("layout")
    if not lay or not fig.page or not fig.bbox or not lay.get("columns"):
        return None
    page = fig.page - 1
    widths = lay.get("page_widths") or []
    page_w = widths[page] if page < len(widths) else (ctx.paper.page_size or (0.0, 0.0))[0]
    if widths:
        usual = max(set(widths), key=widths.count)
        if abs(page_w - usual) > 1.0:
            return None  # a landscape or fold-out page: the text block measured on the others is not its
    cols = _page_columns(lay, page)
    rough = ink_extent(fig, ctx.paper, limits=(-1e9, 1e9), page_width=page_w)  # boxes only: no pixels
    if rough is None:
        return None
    tb = (cols[0][0], cols[-1][1])
    if _sideways(fig):
        return None  # a float turned on its page (rotating's sidewaysfigure): its text block is turned too
    if rough[1] <= tb[0] + 1 or rough[0] >= tb[1] - 1:
        measure, name = None, "the margin"  # a margin figure: only the page edge counts
    else:
        measure, name = _measure(fig, cols, rough)
        cap = fig.caption.location.bbox if fig.caption is not None else None
        if cap and min(cap[2], rough[1]) > max(cap[0], rough[0]):
            # LaTeX wraps a caption at its float's width: a caption wider than the text block
            # shows a float set wider on purpose (a class's wide floats, adjustwidth)
            measure = (min(measure[0], cap[0]), max(measure[1], cap[2]))
    limits = measure if measure is not None else (0.5, page_w - 0.5)
    ink = ink_extent(fig, ctx.paper, limits=(limits[0] - tol, limits[1] + tol), page_width=page_w)
    if ink is None:
        return None
    ink = (float(ink[0]), float(ink[1]))
    margins = lay.get("margin_text") or {}
    over = {}
    if measure is not None:
        # a side where the document prints words in the margin (side notes) is part of its design
        if "left" not in margins or measure[0] > tb[0] + 1:
            over["left"] = round(measure[0] - ink[0], 1)
        if "right" not in margins or measure[1] < tb[1] - 1:
            over["right"] = round(ink[1] - measure[1], 1)
    cut = {"left": ink[0] <= 0.5, "right": ink[1] >= page_w - 0.5}
    into = {"left": "margin" if measure is None or measure[0] <= tb[0] + 1 else "gutter and the next column",
            "right": "margin" if measure is None or measure[1] >= tb[1] - 1 else "gutter and the next column"}
    return {"route": "pdf", "ink_pt": [round(ink[0], 1), round(ink[1], 1)], "into": into,
            "measure_pt": None if measure is None else [round(measure[0], 1), round(measure[1], 1)],
            "measure_name": name, "page": fig.page, "page_width_pt": page_w, "overflow_pt": over, "cut": cut}


def _sideways(fig: Figure) -> bool:
    """Most of the figure's words are set at 90 degrees (its caption too): a turned float."""
    up = turned = 0
    for sp in fig.spans:
        n = len(sp.text.strip())
        if n < 3:
            continue
        w, h = sp.bbox[2] - sp.bbox[0], sp.bbox[3] - sp.bbox[1]
        if h > 1.5 * w:
            turned += n
        else:
            up += n
    return turned > 2 * up and turned >= 20


def in_margin(fig: Figure, paper) -> bool:
    """The figure stands wholly beside the text block, in a page margin: tufte's
    `marginfigure`, a graphic in a `\\marginpar`; from the PDF, its box beside the columns of
    running text of its page."""
    if (fig.env or "") == "marginfigure":
        return True
    lay = paper.extra.get("layout") if paper is not None else None
    if not lay or not fig.page or not fig.bbox or not lay.get("columns"):
        return False
    cols = _page_columns(lay, fig.page - 1)
    return fig.bbox[2] <= cols[0][0] + 1 or fig.bbox[0] >= cols[-1][1] - 1


def _page_columns(lay: dict, page: int) -> list[tuple[float, float]]:
    """The columns of a page: the median of what the pages of its parity show (two-sided
    documents move the text block between odd and even pages; one page whose column holds
    only an indented list would misplace it), else of all pages, else the document's."""
    from statistics import median

    per_page = lay.get("page_columns") or []
    out = []
    for i, g in enumerate(lay["columns"]):
        found = None
        for parity in (page % 2, None):
            seen = [per_page[p][i] for p in range(len(per_page))
                    if (parity is None or p % 2 == parity) and i < len(per_page[p]) and per_page[p][i] is not None]
            if seen:
                found = (median(c[0] for c in seen), median(c[1] for c in seen))
                break
        out.append(found or tuple(g))
    return out


def _column_of(cols, x0: float, x1: float) -> int | None:
    """The column a box lies in: the one it overlaps most, unless it reaches more than 12 pt
    into another."""
    overlaps = [min(x1, c1) - max(x0, c0) for c0, c1 in cols]
    best = max(range(len(cols)), key=lambda i: overlaps[i])
    if any(i != best and o > 12 for i, o in enumerate(overlaps)):
        return None
    return best


def _measure(fig: Figure, cols, ink) -> tuple[tuple[float, float], str]:
    """The horizontal measure a figure is set to: the text block, or for a single-column float
    of a multi-column page, its column."""
    from figlint.ingest.placement import set_at_text_width

    tb = (cols[0][0], cols[-1][1])
    if len(cols) == 1 or set_at_text_width(fig):
        return tb, "the text block"
    cap = fig.caption.location.bbox if fig.caption is not None else None
    col_w = min(c1 - c0 for c0, c1 in cols)
    if fig.env:  # from the sources: a column float, set in its caption's column
        col = _column_of(cols, cap[0], cap[2]) if cap else None
        if col is None:
            col = _column_of(cols, ink[0], ink[0] + 1)  # an overfull box starts at its column's left edge
        return tuple(cols[col]), "its column"
    # the PDF alone: a caption set at the column's width names the column, else the graphics
    # do (an overfull box starts at its column's left edge); but a float with no running text
    # beside it in another column spans the columns (figure*, whose short captions may each
    # sit in one column under side-by-side graphics)
    col = None
    if cap and cap[2] - cap[0] >= 0.6 * col_w:
        col = _column_of(cols, cap[0], cap[2])
    if col is None:
        col = _column_of(cols, ink[0], ink[1])
    if col is None:
        col = _column_of(cols, ink[0], ink[0] + 1)
    beside = fig.extra.get("text_beside") or []
    others = [c for i, c in enumerate(cols) if i != col]
    if not any(min(b[1], c[1]) - max(b[0], c[0]) > 0.5 * (c[1] - c[0]) for b in beside for c in others):
        return tb, "the text block"
    return tuple(cols[col]), "its column"


# ---- the sources alone ----------------------------------------------------------------------
def _from_sources(fig: Figure, ctx: Context, tol: float) -> dict | None:
    from figlint.features.ink import ink_extent
    from figlint.ingest.placement import set_at_text_width

    sl = ctx.paper.extra.get("source_layout") or {}
    if "textwidth_pt" not in sl or not fig.bbox:
        return None
    records = fig.extra.get("placement") or []
    if not records or any("sideways" in str(r.get("frames")) for r in records):
        return None
    if ".sty" in sl.get("source", "") or ".cls" in sl.get("source", ""):
        return None  # the layout came from reading a style file of the paper's own: a guess
    if any("unknown" in n for n in sl.get("notes") or []) and not all(_relative(r.get("how", "")) for r in records):
        return None  # an unknown class's text width is a guess: only widths relative to it are known
    # (a graphic inside cuted's `strip` or revtex's `widetext` is set over both columns)
    wide = (set_at_text_width(fig) or sl.get("columns", 1) == 1
            or any(f in ("strip", "widetext") for r in records for f in r.get("frames") or []))
    line_bp = (sl["textwidth_pt"] if wide else sl["columnwidth_pt"]) / _BP
    ink = ink_extent(fig, ctx.paper, limits=(-tol, line_bp + tol))
    if ink is None:
        return None
    ink = (float(ink[0]), float(ink[1]))
    over = {"right": round(ink[1] - line_bp, 1)}
    # an overfull float starts at the left of its measure: past the right margin, off the page
    # (one-column documents, whose text block is centred unless set otherwise)
    margin = (sl.get("paperwidth_pt", 0) - sl["textwidth_pt"]) / 2 / _BP
    cut = {"left": False, "right": bool(sl.get("columns", 1) == 1 and margin > 0 and over["right"] > margin + 0.5)}
    into = {"right": "margin" if wide else "gutter and the next column, or the margin"}
    return {"route": "sources", "ink_pt": [round(ink[0], 1), round(ink[1], 1)], "measure_pt": [0.0, round(line_bp, 1)],
            "into": into,
            "measure_name": "the text block" if wide else "its column", "overflow_pt": over, "cut": cut,
            "placement": records}


def _relative(how: str) -> bool:
    return any(k in how for k in ("\\linewidth", "\\textwidth", "\\columnwidth", "\\hsize"))
