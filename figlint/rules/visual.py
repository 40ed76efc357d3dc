"""FL1xx: visual legibility of the figure as printed (VC dimension)."""

from __future__ import annotations

from statistics import median

from figlint.model import Figure, Location, TextSpan, overlap_share
from figlint.rules.registry import Context, rule

# Images smaller than this on both sides (points) are icons or logos inside a
# diagram; their resolution does not decide whether the figure reads well.
_MIN_IMAGE_SIDE_PT = 36.0


@rule(
    "FL101",
    "low-dpi",
    severity="warning",
    dimension="visual_clarity",
    options={"min-dpi": 300},
)
def low_dpi(fig: Figure, ctx: Context):
    """Raster image printed below the minimum effective resolution (default 300 DPI).

    What it does:
    For every raster image in the figure, divides its pixel size by the size at which it
    is printed (the placed box in the compiled PDF, or, from sources alone, the
    `\\includegraphics` width resolved against the document class; never the image's own
    DPI metadata) and reports the figure when any image is below `min-dpi`. An image
    with no detail to lose is not reported, as it prints sharp at any resolution: a
    few flat colours in blocks with no line or letter a pixel or two wide (a heatmap
    or confusion matrix drawn by `imshow`, its numbers drawn as text on top), a
    smooth gradient (its colour bar, also a ramp one pixel thick such as a 300×1
    legend key), or an image of at most 2×2 pixels (a colour fill, whose printed
    shape, if any, is its soft mask's).

    Why is this bad?
    A low-resolution bitmap looks sharp on screen at 200 % zoom and blurry in print and
    in the proceedings PDF; tick labels and thin lines are the first to go.

    Example:
    A 640×480 screenshot of a plot placed at `width=\\linewidth` in a two-column paper
    prints at about 190 DPI.

    Use instead:
    Export plots as vector PDF (`plt.savefig("fig.pdf")`), or raster images at
    300 DPI or more at their printed size (`plt.savefig("fig.png", dpi=300)` with a
    figure size equal to the printed width).
    """
    min_dpi = float(ctx.option("min-dpi"))
    low = []
    for img in fig.images:
        box = img.placed or img.bbox  # the whole image, as its pixels and DPI measure it
        w = box[2] - box[0]
        h = box[3] - box[1]
        if w < _MIN_IMAGE_SIDE_PT and h < _MIN_IMAGE_SIDE_PT:
            continue
        # to the whole DPI, as the message shows it: PNG stores pixels per metre, so an
        # image saved at 300 DPI reads back as 299.9994
        if round(img.effective_dpi) < min_dpi:
            low.append((img, w, h))
    if low:
        low = _without_fine_detail(fig, ctx, low)
    if not low:
        return
    # One finding per figure: a grid of six thumbnails is one defect to fix, not six.
    img, w, h = min(low, key=lambda t: t[0].effective_dpi)
    dpi = img.effective_dpi
    several = f"{len(low)} raster images print below {min_dpi:.0f} DPI; the lowest " if len(low) > 1 else "raster image "
    yield ctx.finding(
        f"{several}prints at {dpi:.0f} DPI ({img.width_px}×{img.height_px} px "
        f"at {w / 72:.2f}×{h / 72:.2f} in); at least {min_dpi:.0f} DPI is needed",
        figure=fig,
        evidence={
            "effective_dpi": round(dpi, 1),
            "pixels": [img.width_px, img.height_px],
            "printed_in": [round(w / 72, 3), round(h / 72, 3)],
            "min_dpi": min_dpi,
            "image": img.name,
            "low_images": [
                {"pixels": [i.width_px, i.height_px], "effective_dpi": round(i.effective_dpi, 1), "image": i.name}
                for i, _w, _h in low
            ],
        },
        origin="figure",
    )


def _without_fine_detail(fig: Figure, ctx: Context, low: list) -> list:
    """The low-resolution images less those with no detail to lose (quality.no_fine_detail):
    a heatmap drawn by `imshow` at 100 DPI, or its colour bar, prints as sharp as at 300."""
    from figlint.features.quality import inline_images, no_fine_detail, placed_images

    names = {t[0].name for t in low}
    # At most 2 x 2 pixels is a colour fill, not a picture: no letter or line fits in it, and
    # where it prints a shape (a label set as a flat colour under a fine 1-bit soft mask, as
    # Mathematica writes text in PDFs) the shape is the mask's. Too small to decode below.
    flat = {t[0].name for t in low if t[0].width_px <= 2 and t[0].height_px <= 2}
    # strips one pixel thick are decoded too: a colour bar's ramp is often 300 x 1 pixels
    for p in placed_images(fig, ctx.paper, min_side_px=1, names=names):  # one image at a time
        if no_fine_detail(p.bgr):
            flat.add(p.name)
    # an image set inline in the page's content has no XObject to decode it by: read from the
    # page's image blocks (a 163 x 4 px white fade under a diagram's box, judged at 72 DPI)
    unnamed = [t[0] for t in low if not t[0].xref and t[0].name not in flat]
    inline = {id(img) for img, bgr in inline_images(ctx.paper, fig.page, unnamed) if no_fine_detail(bgr)}
    return [t for t in low if t[0].name not in flat and id(t[0]) not in inline]


def _legible_spans(fig: Figure, spans=None):
    """Spans that carry readable text, without sub/superscripts of larger labels."""
    spans = [s for s in (fig.spans if spans is None else spans) if any(c.isalnum() for c in s.text)]
    if not spans:
        return []
    typical = median(s.size for s in spans)
    # A span of one or two characters well below the typical size is an exponent
    # or index ("10^3", "x_i") printed at script size by design.
    return [s for s in spans if not (len(s.text.strip()) <= 2 and s.size < 0.8 * typical)]


_RASTER_FONT = "(raster)"  # the font of a text span read from pixels (features/raster_text.py)


def _raster_spans(fig: Figure, ctx: Context):
    """The figure's raster labels with a measured print size, as text spans (font "(raster)")."""
    try:
        from figlint.features.raster_text import sized_labels
    except ImportError:
        return []
    labels = sized_labels(fig, ctx.paper)
    if labels:
        # Text inside a picture (a photograph, a map or a rendering: many colours, no flat
        # paper background) is part of what it depicts (a basemap's place names, a receipt's
        # print), not a label the author set: only charts, diagrams and screenshots on a
        # light background are read for their labels' size.
        pictures = {n for p, q in _placed(fig, ctx) if not _line_art(q, PICTURE_COLOURS) for n in p.parts or (p.name,)}
        labels = [lb for lb in labels if lb.image not in pictures]
    spans = [TextSpan(text=lb.text, size=lb.size, font=_RASTER_FONT, bbox=lb.bbox) for lb in labels]
    return _legible_spans(fig, spans)


# a raster image with more distinct colours than this (quality.measure) is a picture
PICTURE_COLOURS = 64


def _below(spans, limit: float):
    """The spans printed below `limit` pt. A raster label's size is measured (within about
    10 %): it counts below the limit under RASTER_TOLERANCE x the limit, and only with a
    second one (one misread or mis-sized label is not evidence)."""
    from figlint.features.raster_text import RASTER_TOLERANCE

    vec = [s for s in spans if s.font != _RASTER_FONT and _half_point(s.size) < limit]
    if vec:
        near = _neighbours(spans)
        vec = [s for s in vec if not _is_script(s, near(s))]
    ras = [s for s in spans if s.font == _RASTER_FONT and s.size < RASTER_TOLERANCE * limit]
    return vec + (ras if len(ras) >= 2 else [])


def _half_point(size: float) -> float:
    """A printed size to the nearest half point, the precision type sizes are specified in:
    a 6 pt label in a figure scaled to 98 % measures 5.9 pt and is a 6 pt label to a reader."""
    return round(size * 2 + 1e-9) / 2


def _vertical(s) -> bool:
    """Set at 90 degrees, by its box: a long label much taller than wide, or one or two
    glyphs much wider than tall."""
    w, h = s.bbox[2] - s.bbox[0], s.bbox[3] - s.bbox[1]
    n = len(s.text.strip())
    return (n >= 3 and h > 2 * w) or (n <= 2 and w > 1.5 * h)


def _neighbours(spans):
    """A function giving, for a span, the vector spans that could be its base: those whose box
    comes within half the largest box side of it (a base lies beside its script, at most half
    its own height away). A grid of that cell size keeps this linear in the number of spans."""
    from collections import defaultdict

    bases = [b for b in spans if b.font != _RASTER_FONT]
    reach = 0.5 * max((max(b.bbox[2] - b.bbox[0], b.bbox[3] - b.bbox[1]) for b in bases), default=0.0)
    cell = max(2 * reach, 1.0)
    grid: dict[tuple[int, int], list] = defaultdict(list)
    for b in bases:
        for gx in range(int(b.bbox[0] // cell), int(b.bbox[2] // cell) + 1):
            for gy in range(int(b.bbox[1] // cell), int(b.bbox[3] // cell) + 1):
                grid[(gx, gy)].append(b)

    def near(s):
        x0, y0, x1, y1 = s.bbox[0] - reach, s.bbox[1] - reach, s.bbox[2] + reach, s.bbox[3] + reach
        seen: dict[int, object] = {}
        for gx in range(int(x0 // cell), int(x1 // cell) + 1):
            for gy in range(int(y0 // cell), int(y1 // cell) + 1):
                for b in grid.get((gx, gy), ()):
                    seen.setdefault(id(b), b)
        return list(seen.values())

    return near


def _is_script(s, spans) -> bool:
    """A sub- or superscript (or prescript) of a larger label: it touches the label's side,
    sits raised or lowered against it, and is set at least a fifth smaller ("10" and its
    exponent "-18", "T" and its subscript "eff"). Scripts print at 60-80 % of their base by
    design; the base's size is what a reader reads."""
    if s.bbox[3] <= s.bbox[1] or s.bbox[2] <= s.bbox[0]:
        return False
    for b in spans:
        if b is s or b.size < 1.2 * s.size or b.font == _RASTER_FONT:
            continue
        bx0, by0, bx1, by1 = b.bbox
        x0, y0, x1, y1 = s.bbox
        if _vertical(b) or _vertical(s):  # a rotated label (a y-axis title): swap the axes
            bx0, by0, bx1, by1 = by0, bx0, by1, bx1
            x0, y0, x1, y1 = y0, x0, y1, x1
        cy = (y0 + y1) / 2
        hb = by1 - by0
        if hb <= 0 or y0 >= by1 or y1 <= by0:  # no vertical overlap with the base
            continue
        if abs(cy - (by0 + by1) / 2) < 0.15 * hb:  # on the base's line: not raised or lowered
            continue
        after = -0.3 * hb <= x0 - bx1 <= 0.5 * hb
        before = -0.3 * hb <= bx0 - x1 <= 0.5 * hb
        if after or before:
            return True
    return False


def _size_text(s) -> str:
    return f"about {s.size:.1f} pt, read from pixels" if s.font == _RASTER_FONT else f"{s.size:.1f} pt"


@rule(
    "FL102",
    "tiny-text",
    severity="warning",
    dimension="visual_clarity",
    options={"min-font-pt": 5.0},
)
def tiny_text(fig: Figure, ctx: Context):
    """Text in the figure is smaller than `min-font-pt` at print size.

    What it does:
    Reads the printed size of every text span inside the figure (vector text: its font
    size scaled by the placement; text in raster images: OCR'd labels, their size
    measured from their ink at the size the image prints) and reports the figure when
    its labels print below `min-font-pt`: at least three of them, or all of them (one or
    two small labels in a figure whose other text is readable, a footnote mark or a
    "close-up" note, do not make it unreadable). The default, 5 pt, is the smallest size
    any major publisher accepts (Nature's minimum); most venues ask for more (Science and
    Cell 6 pt, Elsevier 7 pt, IEEE and PLOS 8 pt): set `min-font-pt` to your venue's.
    Labels between 5 and 6 pt were judged small but legible on the audited papers, so
    the default does not report them. Text inside a picture (a photograph, a map or a
    rendering: many colours, no flat paper background) is part of what it depicts, not a
    label the author set, and is not read. Sizes are compared to the
    nearest half point, the precision type sizes are given in (a 6 pt label in a figure
    scaled to 98 % measures 5.9 pt). Sub- and superscripts of larger labels (the
    exponent of "10^-3", the "eff" of "T_eff") print smaller by design and are judged by
    their base. Text in Type 3 fonts drawn on another grid than 1/1000 em (EPS figures
    converted by epstopdf) is measured by its glyphs' height. A size read from pixels is
    an estimate (within about 10 %): such labels count when at least two print below
    0.9x the limit. Text that is small only relative to the paper's body font is FL103's
    concern.

    Why is this bad?
    Tick labels and legends are where readers get the numbers. At 3–4 pt they are
    unreadable in print; no major venue accepts figure text below 5 pt, and most ask
    for text no smaller than the caption's or at least 6–8 pt.

    Example:
    A matplotlib figure made at 12×8 inches with 10 pt labels, scaled down to a
    3.3-inch column: its labels print at about 2.8 pt.

    Use instead:
    Make the figure at its printed size (`figsize=(3.3, 2.2)` for one column) and set
    font sizes there, or scale fonts up before shrinking the figure.
    """
    spans = _legible_spans(fig)
    min_pt = float(ctx.option("min-font-pt"))
    raster = _raster_spans(fig, ctx)
    spans = spans + raster
    if not spans:
        return
    small = _below(spans, min_pt)
    if not small or (len(small) < MIN_SMALL_LABELS and len(small) < len(spans)):
        return
    smallest = min(small, key=lambda s: s.size)
    samples = sorted({s.text.strip() for s in small})[:6]
    yield ctx.finding(
        f"{len(small)} of {len(spans)} text labels print below {min_pt:.1f} pt "
        f"(smallest {_size_text(smallest)}, smaller than {min_pt:g} pt), e.g. {', '.join(repr(t) for t in samples[:3])}",
        figure=fig,
        evidence={
            "smallest_pt": round(smallest.size, 2),
            "limit_pt": round(min_pt, 2),
            "body_pt": ctx.paper.body_font_size,
            "small_spans": len(small),
            "spans": len(spans),
            "raster_spans": sum(1 for s in small if s.font == _RASTER_FONT),
            "samples": samples,
        },
        location=_span_location(fig, smallest.bbox),
        origin="figure",
    )


@rule(
    "FL103",
    "text-smaller-than-body",
    severity="warning",
    dimension="visual_clarity",
    options={"min-font-ratio": 0.5},
    routes=("pdf", "latex"),
)
def text_smaller_than_body(fig: Figure, ctx: Context):
    """Text in the figure prints much smaller than the paper's body text (below `min-font-ratio` of it).

    What it does:
    Compares the printed size of every text span inside the figure with the body font
    size of the paper (the commonest size of its running text) and reports the figure
    when labels of at least `min-font-pt` (FL102 owns smaller ones) still print below
    `min-font-ratio` times the body size (default 0.5: below 6 pt in a 12 pt paper).
    Sub- and superscripts of larger labels are not counted. Needs the paper: a single
    figure file has no body text to compare with.

    Why is this bad?
    Readers read a figure at the distance they read the text. Labels at less than half
    the body size force them to zoom or squint, and look out of place next to the
    caption; style guides ask for figure text close to the caption's size.

    Example:
    A paper set in 12 pt whose plots, made for a 10 pt two-column venue and shrunk to
    the text width, print their tick labels at 5.5 pt.

    Use instead:
    Make the figure at its printed width and set its fonts at 70–100 % of the body
    size (e.g. `plt.rcParams["font.size"] = 9` for a 10–11 pt paper).
    """
    body = ctx.paper.body_font_size
    if not body:
        return
    spans = _legible_spans(fig) + _raster_spans(fig, ctx)
    if not spans:
        return
    ratio = float(ctx.option("min-font-ratio"))
    min_pt = float(_other_option(ctx, "FL102", "min-font-pt"))
    limit = ratio * body
    tiny = {id(s) for s in _below(spans, min_pt)}
    # labels FL102 owns (below min-font-pt) are not counted again here
    small = [s for s in _below(spans, limit) if id(s) not in tiny]
    if not small:
        return
    smallest = min(small, key=lambda s: s.size)
    samples = sorted({s.text.strip() for s in small})[:6]
    yield ctx.finding(
        f"{len(small)} of {len(spans)} text labels print below {limit:.1f} pt, {ratio:g}× the {body:.1f} pt "
        f"body text (smallest {_size_text(smallest)}), e.g. {', '.join(repr(t) for t in samples[:3])}",
        figure=fig,
        evidence={
            "smallest_pt": round(smallest.size, 2),
            "limit_pt": round(limit, 2),
            "body_pt": body,
            "ratio": ratio,
            "small_spans": len(small),
            "spans": len(spans),
            "samples": samples,
        },
        location=_span_location(fig, smallest.bbox),
        origin="figure",
    )


# FL102 reports a figure with at least this many labels below the limit (or all of them)
MIN_SMALL_LABELS = 3


def _span_location(fig: Figure, bbox) -> Location:
    from figlint.rules.registry import figure_location

    loc = figure_location(fig)
    if loc.line is None:
        loc.bbox = tuple(bbox)
    return loc


def _other_option(ctx: Context, code: str, key: str):
    """An option another rule declares (configured, else that rule's default)."""
    from figlint.rules.registry import get_rule

    return ctx.options.get(key, get_rule(code).options[key])


def _placed(fig: Figure, ctx: Context):
    """The figure's raster images with their own pixels and quality measures (cached on the figure)."""
    cached = fig.extra.get("_placed_quality")
    if cached is not None:
        return cached
    out = []
    try:
        from figlint.features.quality import measure_placed, placed_images

        # a picture exported in tiles is measured whole: a tile is too small to tell the
        # picture's own shading from ringing, and its edges are cuts, not content
        for p in placed_images(fig, ctx.paper, mosaics=True):
            q = measure_placed(p)
            p.bgr = None  # the measures are kept, not the pixels (a paper's worth of them is gigabytes)
            if q is not None:
                out.append((p, q))
    except ImportError:  # OpenCV/numpy not installed: nothing measured, nothing reported
        out = []
    fig.extra["_placed_quality"] = out
    return out


def _line_art(q, max_colours: int = 64) -> bool:
    # A chart, diagram or screenshot on paper-like background: a photograph (no flat
    # background, many colours) is allowed its soft focus and its JPEG compression.
    return q.line_art and q.background_light and q.colours <= max_colours


@rule(
    "FL104",
    "blurry-raster",
    severity="warning",
    dimension="visual_clarity",
    options={"min-sharpness": 0.4},
)
def blurry_raster(fig: Figure, ctx: Context):
    """A raster chart, diagram or screenshot whose edges are blurred.

    What it does:
    For each raster image of the figure (read at its own resolution: the image file, or
    the image stream in the PDF, never a re-rendering) that is line art — a flat light
    background over at least 35 % of the picture and at most 64 distinct colours, so
    not a photograph — measures edge sharpness: at strong edges (a local contrast of at
    least 60 grey levels) the steepest one-pixel step divided by that contrast, 90th
    percentile. A crisp edge scores 0.5–1; a Gaussian blur of sigma s about 1/(2.5 s).
    Reports the figure when an image scores below `min-sharpness` (default 0.4, about a
    1.5 px blur). The variance of the Laplacian is given as evidence too.

    Why is this bad?
    Lines and labels of a blurred chart lose their edges: thin strokes fade into the
    background and small text becomes hard to read, whatever the printed resolution.
    It usually means the figure was upscaled from a small export or a screenshot.

    Example:
    A plot exported at 72 DPI and enlarged to 300 DPI in an image editor, or a chart
    screenshot scaled with smoothing.

    Use instead:
    Export the chart again from its source as vector PDF, or as PNG at the printed size
    and 300 DPI or more; never upscale a bitmap.
    """
    min_sharp = float(ctx.option("min-sharpness"))
    blurry = [(p, q) for p, q in _placed(fig, ctx)
              if _line_art(q) and q.sharpness is not None and q.sharpness < min_sharp]
    if not blurry:
        return
    p, q = min(blurry, key=lambda t: t[1].sharpness)
    several = f"{len(blurry)} raster images are blurred; the worst, " if len(blurry) > 1 else "raster image "
    yield ctx.finding(
        f"{several}{p.name} ({q.width}×{q.height} px), has soft edges: edge sharpness {q.sharpness:.2f} "
        f"(crisp line art scores 0.5–1; below {min_sharp:g} looks blurred)",
        figure=fig,
        evidence={"image": p.name, "sharpness": round(q.sharpness, 3), "min_sharpness": min_sharp,
                  "laplacian_var": round(q.laplacian_var, 1), "edge_pixels": q.edge_pixels,
                  "background_share": round(q.background_share, 3), "colours": q.colours,
                  "pixels": [q.width, q.height], "images": len(blurry)},
        origin="figure",
    )


@rule(
    "FL105",
    "jpeg-artefacts",
    severity="warning",
    dimension="visual_clarity",
    options={"max-ringing": 0.05},
)
def jpeg_artefacts(fig: Figure, ctx: Context):
    """A chart, diagram or screenshot stored with visible JPEG compression artefacts.

    What it does:
    For each raster image of the figure that is line art (see FL104; photographs are
    left alone), read at its own resolution, measures the ringing ("mosquito noise")
    JPEG leaves around sharp edges: the share of background pixels 2–5 px from a hard
    edge (a local contrast of 100 grey levels or more: text, axes, dark lines; JPEG
    rings in proportion to an edge's contrast) that differ from the background colour
    by 4–60 levels (and by 8–60), and the same shares next to edges of any contrast. A
    PNG chart has none: its background is exactly one colour up to the anti-aliased
    pixel next to a line. Edges in or next to a picture region (a rendering, a
    photograph, or such a part of a composite: 32×32 tiles a quarter shaded or textured
    inside) are left out: JPEG is right for pictures, whose outlines ring too. Reports
    the figure when both shares are above `max-ringing` (default 0.05) and the stronger
    ones above 0.015 (ringing surrounds every edge, the hard ones most; faint content,
    such as a dotted grid, translucent markers or a pale band along a dark curve,
    gathers next to some edges only) while the edges are still sharp (blur spreads
    edges too; that is FL104), and when the off-colour pixels gather next to the edges:
    where the background 17–32 px from any edge is off-colour a quarter as often or
    more, they are the picture's own faint content (the pale grid lines of a 3D surface
    plot, the shading of a rendering), not ringing. An image printed finer than 300 DPI
    must also ring measured as it prints, resampled to 300 DPI: a halo a pixel or two
    wide at 600 DPI is averaged away on paper. Evidence gives the 8×8 blockiness,
    whether the image is stored as JPEG and the DPI it prints at.

    Why is this bad?
    JPEG is made for photographs. On flat colours, thin lines and text it leaves halos
    and blotches that look dirty in print and make small labels harder to read.

    Example:
    A matplotlib chart saved with `plt.savefig("fig.jpg")`, or a PNG converted to JPEG
    to make the submission smaller.

    Use instead:
    Save charts and diagrams as vector PDF or as PNG (lossless); keep JPEG for
    photographs and renderings.
    """
    max_ring = float(ctx.option("max-ringing"))
    bad = [(p, q) for p, q in _placed(fig, ctx)
           if _line_art(q, 256) and _rings(q, max_ring) and _rings_as_printed(q, max_ring)]
    if not bad:
        return
    p, q = max(bad, key=lambda t: t[1].mosquito)
    stored = "stored as JPEG" if p.jpeg else "stored losslessly, but compressed as JPEG before"
    yield ctx.finding(
        f"raster line art {p.name} ({q.width}×{q.height} px, {stored}) shows JPEG ringing around its edges: "
        f"{100 * q.mosquito:.0f} % of the background next to lines and text is off-colour (a PNG chart has ~0 %)",
        figure=fig,
        evidence={"image": p.name, "jpeg": p.jpeg, "ringing": round(q.mosquito, 3),
                  "ringing_strong": round(q.mosquito_strong or 0.0, 3), "max_ringing": max_ring,
                  "ringing_far": None if q.mosquito_far is None else round(q.mosquito_far, 3),
                  "blockiness": None if q.blockiness is None else round(q.blockiness, 2),
                  "sharpness": None if q.sharpness is None else round(q.sharpness, 3),
                  "background_share": round(q.background_share, 3), "pixels": [q.width, q.height],
                  "print_dpi": None if q.print_dpi is None else round(q.print_dpi),
                  "ringing_as_printed": None if q.at_print is None or q.at_print.mosquito is None
                  else round(q.at_print.mosquito, 3),
                  "images": len(bad)},
        origin="figure",
    )


def _shadow_copy(s, shown) -> bool:
    """A label drawn again, in another colour, overlapping a copy of it that reads well
    (less than a line away across and along): the drop shadow drawing programs paint under
    a label (white on a white shadow box, or in a pale shade), a duplicate nobody reads; the
    label is its twin. Legend rows that repeat words stand a line apart or more."""
    text = s.text.strip()
    x, y = (s.bbox[0] + s.bbox[2]) / 2, (s.bbox[1] + s.bbox[3]) / 2
    for t in shown:
        if t is s or t.text.strip() != text or t.color == s.color or abs(t.size - s.size) > 0.1 * max(s.size, 1e-6):
            continue
        reach = max(s.size, 1.0)
        if abs((t.bbox[0] + t.bbox[2]) / 2 - x) < reach and abs((t.bbox[1] + t.bbox[3]) / 2 - y) < reach:
            return True
    return False


def _rings(q, max_ring: float) -> bool:
    """The measures `q` show JPEG ringing: off-colour background next to hard edges and next
    to edges of any contrast (above max_ring, the stronger share above 0.3 of it), gathered
    there, in an image still sharp."""
    def above(share, strong):
        return share is not None and share > max_ring and (strong or 0.0) > 0.3 * max_ring

    return (above(q.mosquito, q.mosquito_strong) and above(q.mosquito_all, q.mosquito_all_strong)
            and (q.sharpness or 0.0) >= 0.6 and _near_edges(q))


def _rings_as_printed(q, max_ring: float) -> bool:
    """The ringing shows in print: the image prints at 300 DPI or coarser (or at a size not
    known), or it still rings measured as it prints, resampled to 300 DPI. Finer pixels are
    not printed one by one: a pale halo a pixel or two wide at 600 DPI is averaged away."""
    from figlint.features.quality import prints_finer

    if not prints_finer(q.print_dpi):
        return True
    return q.at_print is not None and _rings(q.at_print, max_ring)


def _near_edges(q) -> bool:
    """The off-colour background is ringing only where it gathers next to edges: JPEG rings
    inside the blocks that hold an edge (8x8; 16x16 where colour is subsampled). Where the
    background 17-32 px from any edge is off-colour a quarter as often or more, the picture
    has faint content of its own spread over it (the pale grid lines of a 3D plot, shading).
    Compared with the lower of the shares next to hard edges and next to any edge."""
    return q.mosquito_far is None or q.mosquito_far < min(q.mosquito, q.mosquito_all) / 4


def _analyses(fig: Figure, ctx: Context):
    try:
        from figlint.features import analyses

        return [an for an in analyses(fig, ctx.paper) if an.source in ("vector", "raster")]
    except ImportError:
        return []


def _over(rgb, alpha: float, ground):
    """The colour a fill of `rgb` at opacity `alpha` prints over `ground` (source-over)."""
    if alpha >= 0.99:
        return rgb
    return tuple(alpha * c + (1.0 - alpha) * g for c, g in zip(rgb, ground))


def _line_background(drawings, index: int, box, exclude):
    """The ground a path `index` is drawn on: the filled shapes painted before it that contain
    its box, laid over the white page in paint order (a band at 5 % opacity is a faint tint
    of the colour under it, not an opaque grey).

    One filled shape at a time: a merged group of paths (the markers of a scatter plot) does
    not fill the box around it, so a fitted line drawn across the markers is not "on" them.
    A fill of the line's own colour (its marker, its band drawn opaque) is not its ground.
    """
    from figlint.features import colours as C

    x0, y0, x1, y1 = box
    ground = (1.0, 1.0, 1.0)
    for d in drawings[:index]:
        a = d.bbox
        if d.fill is not None and d.paths == 1 and a[0] <= x0 + 0.5 and a[1] <= y0 + 0.5 and a[2] >= x1 - 0.5 and a[3] >= y1 - 0.5:
            rgb = tuple(float(v) for v in d.fill[:3])
            if C.delta_e(rgb, exclude) >= 3:
                ground = _over(rgb, d.fill_alpha, ground)
    return ground


class _Fills:
    """The filled paths of one figure, in paint order, as arrays: which of them contain a
    point is one vectorised test, not a loop over every path for every label."""

    def __init__(self, drawings):
        import numpy as np

        filled = [d for d in drawings if d.fill is not None]
        self.rgb = [tuple(float(v) for v in d.fill[:3]) for d in filled]
        self.alpha = [d.fill_alpha for d in filled]
        self.boxes = np.array([d.bbox for d in filled], dtype=float).reshape(-1, 4)

    def containing(self, cx: float, cy: float) -> list[tuple[float, float, float]]:
        """The colours of the fills that contain the point, each as it prints over the fills
        under it (in paint order) and the white page: an opaque fill is its own colour."""
        import numpy as np

        b = self.boxes
        hit = np.flatnonzero((b[:, 0] <= cx) & (cx <= b[:, 2]) & (b[:, 1] <= cy) & (cy <= b[:, 3]))
        out = []
        ground = (1.0, 1.0, 1.0)
        for i in hit:
            ground = _over(self.rgb[i], self.alpha[i], ground)
            out.append(ground)
        return out


def _backgrounds(drawings, images, box, exclude=None):
    """Colours that may lie behind `box`: the white page and every filled path that contains it.

    The paint order of text and paths is not kept, so all are candidates; a fill of the
    mark's own colour (`exclude`: the mark itself, a marker, its legend swatch) is not a
    background. None when the box lies on a placed image (its colour there is unknown).
    `drawings` is a list of paths or their _Fills.
    """
    from figlint.features import colours as C

    x0, y0, x1, y1 = box
    for b in images:
        if b[0] <= (x0 + x1) / 2 <= b[2] and b[1] <= (y0 + y1) / 2 <= b[3]:
            return None
    fills = drawings if isinstance(drawings, _Fills) else _Fills(drawings)
    out = [(1.0, 1.0, 1.0)]
    for rgb in fills.containing((x0 + x1) / 2, (y0 + y1) / 2):
        if exclude is not None and C.delta_e(rgb, exclude) < 3:
            continue
        out.append(rgb)
    return out


# text whose colour is the colour behind it (contrast under 1.05:1, no reader sees it) is set so on
# purpose: a white letter as a spacer (`\textcolor{white}{i}`), hidden text; not a pale label
INVISIBLE_CONTRAST = 1.05


@rule(
    "FL106",
    "low-contrast",
    severity="warning",
    dimension="visual_clarity",
    options={"min-text-contrast": 2.5, "min-line-contrast": 1.5},
)
def low_contrast(fig: Figure, ctx: Context):
    """Labels or data lines whose colour barely stands out from the background.

    What it does:
    Computes the WCAG 2 contrast ratio (1:1 to 21:1) of each text label (vector: the
    span's colour against the fill behind it, or white; raster: the darkest tenth of the
    label's pixels against its box's background) and of each coloured data line (vector:
    stroked polylines, against the fill behind them). Reports the figure when a label is
    below `min-text-contrast` (default 2.5:1, below WCAG's 3:1 minimum for large text)
    against every colour that may lie behind it (the page and the filled shapes around
    it: paint order is not known, so a white label on a dark box passes) or a coloured
    series line below `min-line-contrast` (default 1.5:1, e.g. yellow on white). Grid
    lines, spines and grey context lines are not data and are not checked. A label's
    shadow is not a label: a copy of the same text in another colour less than a line
    from a copy that reads well (the white drop shadow drawing programs paint under boxes
    and their labels) is left out, and so is text set in the very colour behind it (under
    1.05:1: a white letter used as a spacer is invisible on purpose, not pale).

    Why is this bad?
    Pale labels and light-yellow lines vanish in print, on projectors and for readers
    with low vision; the data they carry is lost first.

    Example:
    Tick labels in light grey (`#bbbbbb`, 1.9:1 on white), or a series drawn in
    `yellow` (1.07:1 on white).

    Use instead:
    Keep text dark (at least 4.5:1 on its background) and pick series colours with
    contrast against the background (e.g. a darker gold `#b8860b` instead of yellow).
    """
    from figlint.features import colours as C

    min_text = float(ctx.option("min-text-contrast"))
    min_line = float(ctx.option("min-line-contrast"))
    texts: list[tuple[float, str, str, str]] = []  # (ratio, text, fg hex, bg hex)
    lines: list[tuple[float, str, str]] = []
    for an in _analyses(fig, ctx):
        f = an.figure
        if an.source == "vector" and f is not None:
            imgs = [i.bbox for i in f.images]
            fills = _Fills(f.drawings)  # once per figure, for all its labels
            read = []  # (span, ratio, fg, bg)
            for s in f.spans:
                if s.color is None or not any(ch.isalnum() for ch in s.text):
                    continue
                fg = C.from_int(s.color)
                bgs = _backgrounds(fills, imgs, s.bbox)
                if bgs is None:
                    continue
                # low against every possible background: a white label on a dark box is fine
                r, bg = max((C.contrast_ratio(fg, b), b) for b in bgs)
                if r < INVISIBLE_CONTRAST:
                    continue  # set in the colour behind it: invisible on purpose (a white filler letter)
                read.append((s, r, fg, bg))
            shown = [t[0] for t in read if t[1] >= min_text]
            for s, r, fg, bg in read:
                if r < min_text and not _shadow_copy(s, shown):
                    texts.append((r, s.text.strip(), C.hex_of(fg), C.hex_of(bg)))
            fw, fh = max(an.width, 1e-6), max(an.height, 1e-6)
            for k, d in enumerate(f.drawings):
                if not C._is_series_line(d, fw, fh) or d.stroke is None:
                    continue
                fg = tuple(d.stroke[:3])
                if C.is_achromatic(fg):
                    continue  # grey context lines (individual runs behind a mean) are a design choice
                if any(b[0] <= (d.bbox[0] + d.bbox[2]) / 2 <= b[2] and b[1] <= (d.bbox[1] + d.bbox[3]) / 2 <= b[3]
                       for b in imgs):
                    continue
                bg = _line_background(f.drawings, k, d.bbox, fg)
                r = C.contrast_ratio(fg, bg)
                if r < min_line:
                    lines.append((r, C.hex_of(fg), C.hex_of(bg)))
        elif an.source == "raster" and an.evidence.get("rendered"):
            texts += _raster_text_contrast(an, min_text)  # a rendered region: no placed image to read
    texts += _raster_label_contrast(fig, ctx, min_text)
    if not texts and not lines:
        return
    parts = []
    ev: dict = {"min_text_contrast": min_text, "min_line_contrast": min_line}
    if texts:
        worst = min(texts)
        samples = sorted({t[1] for t in texts})[:5]
        parts.append(f"{len(texts)} text label{'s' if len(texts) > 1 else ''} below {min_text:g}:1 contrast "
                     f"(lowest {worst[0]:.2f}:1, {worst[2]} on {worst[3]}), e.g. {', '.join(repr(x) for x in samples[:3])}")
        ev.update({"low_text": len(texts), "lowest_text_contrast": round(worst[0], 2), "text_colour": worst[2],
                   "text_background": worst[3], "samples": samples})
    if lines:
        worst_l = min(lines)
        n = len({c for _r, c, _b in lines})
        parts.append(f"{n} data line colour{'s' if n > 1 else ''} below {min_line:g}:1 "
                     f"(lowest {worst_l[0]:.2f}:1, {worst_l[1]} on {worst_l[2]})")
        ev.update({"low_lines": len(lines), "lowest_line_contrast": round(worst_l[0], 2),
                   "line_colour": worst_l[1], "line_background": worst_l[2]})
    yield ctx.finding("; ".join(parts), figure=fig, evidence=ev, origin="figure")


def _raster_label_contrast(fig: Figure, ctx: Context, min_ratio: float) -> list[tuple[float, str, str, str]]:
    """Labels of the figure's raster images whose ink barely differs from the background around
    them (features/raster_text.py), per image; one pale OCR box in an image is more likely
    noise than a pale label."""
    try:
        from figlint.features.raster_text import MIN_CONF, raster_labels
    except ImportError:
        return []
    by_image: dict[str, list] = {}
    for lb in raster_labels(fig, ctx.paper):
        if lb.contrast is None or lb.conf < max(MIN_CONF, 0.85) or len(lb.text) < 2:
            continue
        # raster ink is lightened by anti-aliasing: be stricter than on vector text
        if lb.contrast < min(min_ratio, 2.0):
            by_image.setdefault(lb.image, []).append((lb.contrast, lb.text, lb.ink, lb.background))
    return [t for low in by_image.values() if len(low) >= 2 for t in low]


def _raster_text_contrast(an, min_ratio: float) -> list[tuple[float, str, str, str]]:
    """OCR'd labels whose ink barely differs from the background around them (raster)."""
    from figlint.features.raster_text import ink_contrast

    work = getattr(an.marks, "work", None)
    if work is None or getattr(an.marks, "photo", False):
        return []
    out = []
    for t in an.tokens:
        if (t.conf or 0) < 0.85 or len(t.text.strip()) < 2 or not any(ch.isalnum() for ch in t.text):
            continue
        measured = ink_contrast(work, t.bbox)
        # raster ink is lightened by anti-aliasing: be stricter than on vector text
        if measured is not None and measured[0] < min(min_ratio, 2.0):
            out.append((measured[0], t.text.strip(), measured[1], measured[2]))
    # one pale OCR box is more likely noise than a pale label
    return out if len(out) >= 2 else []


def _legend_colours(an):
    """(label, rgb, style) of the legend entries with a colour, or None when there is no legend feature."""
    try:
        entries = an.get("legend")
    except KeyError:
        return None
    out = []
    for e in entries or []:
        rgb = getattr(e, "colour", None)
        if rgb is not None and len(rgb) >= 3:
            out.append((str(getattr(e, "text", "") or ""), tuple(float(v) for v in rgb[:3]), getattr(e, "style", None)))
    return out or None


_CHARTS = ("line", "bar", "scatter", "area", "box")


def _series(an, need_legend: bool = False):
    """Series colours to compare: the legend's, else the chromatic data-mark colours of a chart.

    Each as (label, rgb, dash styles). None when the figure has no separable series.
    """
    from figlint.features import colours as C

    leg = _legend_colours(an)
    if leg:
        return [(t, rgb, {style} if isinstance(style, str) else set()) for t, rgb, style in leg
                if not C.is_achromatic(rgb)], "legend"
    if an.chart_type not in _CHARTS or (need_legend and an.chart_type != "line"):
        # without a legend read, only lines are known to be told apart by colour alone:
        # bars, boxes and points usually sit over their own category labels as well
        return None, "marks"
    if not any(a.clean and a.nice and not a.index_like for a in an.axes):
        # data series are plotted against a value axis; coloured shapes without one
        # (a diagram whose arrows look like lines) are not series
        return None, "marks"
    cols = an.get("series_colours") or []
    if an.source == "raster":
        cols = [c for c in cols if c.marks >= 5]
    # pale fills (chroma < 25) are boxes of a diagram or shading more often than series
    cols = [c for c in cols if c.kind == "line" or C.chroma(c.rgb) >= 25]
    return [("", c.rgb, set(c.dashes)) for c in cols], "marks"


@rule(
    "FL107",
    "colour-vision-collision",
    severity="warning",
    dimension="visual_clarity",
    options={"min-cvd-difference": 6.0},
)
def colour_vision_collision(fig: Figure, ctx: Context):
    """Two series colours that look distinct but merge for readers with red-green colour blindness.

    What it does:
    Takes the colours that separate the series (the legend's entries when the legend
    is read, else the chromatic colours of a line chart's lines — bars and points
    usually stand over their own category labels too; black,
    grey and white are left out), simulates how they look with protanopia and
    deuteranopia (Machado, Oliveira & Fernandes 2009, severity 1), and measures every
    pair's CIEDE2000 difference. Reports the figure when a pair differs clearly in
    normal vision (ΔE00 ≥ 20) but by less than `min-cvd-difference` (default 6) under
    either simulation, unless the two series also differ in dash style or in marker
    shape (circles against triangles, filled against open).

    Why is this bad?
    About 1 in 12 men has a red-green colour-vision deficiency. When two series differ
    only by a red/green (or blue/purple, orange/green) contrast, those readers cannot
    tell which line is which: the legend stops working.

    Example:
    "ours" in `tab:red` and "baseline" in `tab:green`: ΔE00 72 in normal vision, 4.6
    under deuteranopia.

    Use instead:
    Use a colour-blind-safe palette (Okabe–Ito, `tableau-colorblind10`, viridis
    samples), or make the series differ in something besides hue as well: dash style,
    markers, or direct labels.
    """
    from itertools import combinations

    from figlint.features import colours as C

    limit = float(ctx.option("min-cvd-difference"))
    worst = None
    pairs = []
    for an in _analyses(fig, ctx):
        series, source = _series(an, need_legend=True)
        if not series or len(series) < 2 or len(series) > 12:
            continue  # more than a dozen colours is a colour scale, not series
        markers = C.marker_shapes(an)

        def shapes(rgb):
            return {shape for c, shape in markers if C.delta_e(c, rgb) < 12}

        for (ta, a, da), (tb, b, db) in combinations(series, 2):
            if da and db and da != db:
                continue  # told apart by dash style as well
            sa, sb = shapes(a), shapes(b)
            if sa and sb and not sa & sb:
                continue  # told apart by marker shape as well
            normal = C.delta_e(a, b)
            if normal < 20:
                continue
            for kind in ("deuteranopia", "protanopia"):
                sim = C.delta_e(C.simulate(a, kind), C.simulate(b, kind))
                if sim < limit:
                    item = {"colours": [C.hex_of(a), C.hex_of(b)], "names": [C.colour_name(a), C.colour_name(b)],
                            "labels": [ta, tb] if (ta or tb) else [], "deficiency": kind,
                            "delta_e_normal": round(normal, 1), "delta_e_simulated": round(sim, 1), "source": source}
                    pairs.append(item)
                    if worst is None or sim < worst["delta_e_simulated"]:
                        worst = item
                    break
    if not worst:
        return
    who = " and ".join(repr(x) for x in worst["labels"]) if worst["labels"] else \
        f"{worst['names'][0]} and {worst['names'][1]}"
    more = f" ({len(pairs)} pairs in all)" if len(pairs) > 1 else ""
    yield ctx.finding(
        f"series {who} ({worst['colours'][0]} vs {worst['colours'][1]}) differ by ΔE00 {worst['delta_e_normal']:.0f} "
        f"but only {worst['delta_e_simulated']:.1f} under {worst['deficiency']}{more}: "
        "colour-blind readers cannot tell them apart",
        figure=fig,
        evidence={"worst": worst, "pairs": pairs[:10], "min_cvd_difference": limit},
        origin="figure",
    )


@rule(
    "FL108",
    "too-many-colours",
    severity="warning",
    dimension="visual_clarity",
    options={"max-series-colours": 8},
)
def too_many_colours(fig: Figure, ctx: Context):
    """A chart whose series use more distinct colours than readers can match to a legend.

    What it does:
    Counts the distinct colours of the data marks of a chart (lines, bars, markers;
    legend entries when the legend is read), merging colours closer than CIEDE2000 12
    and leaving out black, grey and white. Reports the figure when there are more than
    `max-series-colours` (default 8). Heatmaps and images (continuous colour scales)
    and figures with more than 30 colours (a gradient, not categories) are not counted.

    Why is this bad?
    Beyond 6–8 categorical colours some of them are necessarily similar; the reader
    matches lines to legend entries by trial and error, and in print or for colour-blind
    readers several series become one.

    Example:
    Twelve methods drawn as twelve coloured lines in one panel with a twelve-entry
    legend.

    Use instead:
    Split the series over panels (small multiples), highlight the two or three that
    matter and draw the rest in grey, or label lines directly at their ends.
    """
    from figlint.features import colours as C

    limit = int(ctx.option("max-series-colours"))
    best: list = []
    for an in _analyses(fig, ctx):
        series, source = _series(an)
        if not series:
            continue
        distinct: list = []
        for _t, rgb, _d in series:
            if all(C.delta_e(rgb, o) >= 12 for o in distinct):
                distinct.append(rgb)
        if 30 >= len(distinct) > limit and len(distinct) > len(best):
            best = distinct
    if not best:
        return
    names = [C.colour_name(c) for c in best]
    yield ctx.finding(
        f"the chart's series use {len(best)} distinct colours (more than {limit}): "
        f"{', '.join(C.hex_of(c) for c in best[:10])}",
        figure=fig,
        evidence={"colours": [C.hex_of(c) for c in best], "names": names, "count": len(best),
                  "max_series_colours": limit},
        origin="figure",
    )


@rule(
    "FL109",
    "overlapping-text",
    severity="warning",
    dimension="visual_clarity",
    options={"max-text-overlap": 0.3},
)
def overlapping_text(fig: Figure, ctx: Context):
    """Text labels printed over each other (crowded tick labels, colliding annotations).

    What it does:
    In vector figures, compares the boxes of every pair of text spans (horizontal or
    upright text; diagonal labels, whose boxes overlap by construction, are skipped) and
    reports the figure when two different labels of similar size (two or more
    characters each) overlap by more than `max-text-overlap` (default 0.3) of the
    smaller one's area. The same text drawn twice at one place (a shadow, fake bold),
    accents and sub/superscripts are not collisions, and text that an opaque shape
    painted later covers (a card stacked on another card) is not on the page at all.
    Raster figures are not checked: OCR merges or drops overlapping text.

    Why is this bad?
    Overlapping labels are unreadable: typically tick labels crowded on a short axis, or
    annotations placed at fixed coordinates that collide once the data change.

    Example:
    Twenty category names under a narrow bar chart, each 40 pt wide, 25 pt apart.

    Use instead:
    Rotate or thin the tick labels (`ax.tick_params(labelrotation=45)`,
    `MaxNLocator`), abbreviate them, or widen the figure; move colliding annotations.
    """
    limit = float(ctx.option("max-text-overlap"))
    hits = []
    for an in _analyses(fig, ctx):
        f = an.figure
        if an.source != "vector" or f is None:
            continue
        spans = []
        for s in f.spans:
            t = s.text.strip()
            if len(t) < 2 or not any(ch.isascii() and ch.isalnum() for ch in t):
                continue  # accents, primes and one-letter math pieces sit on other glyphs by design
            w, h = s.bbox[2] - s.bbox[0], s.bbox[3] - s.bbox[1]
            if min(w, h) > 1.6 * max(s.size, 1e-6):
                continue  # diagonal text: its upright box is mostly empty
            # shrink to the glyph body: font boxes include ascender/descender room
            pad = 0.15 * min(w, h)
            spans.append((t, (s.bbox[0] + pad, s.bbox[1] + pad, s.bbox[2] - pad, s.bbox[3] - pad), s.size))
        if len(spans) > 400:
            spans = spans[:400]
        for i in range(len(spans)):
            ta, a, sa = spans[i]
            for j in range(i + 1, len(spans)):
                tb, b, sb = spans[j]
                if min(sa, sb) < 0.7 * max(sa, sb):
                    continue  # a sub/superscript or index against its base
                if b[0] > a[2] or a[0] > b[2] or b[1] > a[3] or a[1] > b[3]:
                    continue
                ov = overlap_share(a, b)
                if ov <= limit:
                    continue
                if ta == tb and abs(a[0] - b[0]) < 1 and abs(a[1] - b[1]) < 1:
                    continue  # the same text drawn twice in place
                hits.append((ov, ta, tb))
    if not hits:
        return
    hits.sort(reverse=True)
    ov, ta, tb = hits[0]
    yield ctx.finding(
        f"{len(hits)} pair{'s' if len(hits) > 1 else ''} of text labels overlap, e.g. {ta!r} and {tb!r} "
        f"({100 * ov:.0f} % of the smaller one covered)",
        figure=fig,
        evidence={"pairs": len(hits), "max_overlap": round(ov, 2), "max_text_overlap": limit,
                  "examples": [[a, b, round(o, 2)] for o, a, b in hits[:5]]},
        origin="figure",
    )


@rule(
    "FL110",
    "rainbow-colour-map",
    severity="warning",
    dimension="misleading_risk",
    taxonomy="inappropriate_encoding",
)
def rainbow_colour_map(fig: Figure, ctx: Context):
    """A continuous quantity drawn with a rainbow (jet-like) or red-green colour map.

    What it does:
    Reads the figure's colour scale from its colour bar: a strip beside a heatmap,
    contour plot or image whose colour changes along it, with numbers printed beside it
    (in a vector figure a narrow placed image or a stack of five or more equal cells; in
    a raster figure a free-standing block of pixels constant across and changing along),
    its colours taken in order along the strip, less an end row that is the bar's frame
    blended into it (a jump of more than a colour map's step). Without a colour bar it reads a heatmap's
    own colours (a placed image, or a raster figure at least a fifth colour), when they
    form one continuum of at least 12 colours, each a small step (under CIEDE2000 10)
    from another — as smooth data drawn through a colour map give, and a few categorical
    colours or a photograph do not (a photograph fills more than 120 coarse colour bins).
    Reports the figure when the scale is a **rainbow**: colours of chroma 40 or more in
    the blue, green, red or orange, and cyan or yellow hue families, and, along a bar,
    a hue sweeping at least 180° one way while lightness (CIELAB L*) rises and falls by
    at least 15 (jet, rainbow, turbo, hsv, nipy_spectral, Spectral); or a **red-green**
    scale without blue: its two ends red (or orange) and green, apart by CIEDE2000 40 or
    more in normal vision and by less than 12 under deuteranopia or protanopia
    (RdYlGn, green-black-red). viridis, cividis, magma, greys, and blue-white-red or
    purple-green diverging maps are not reported; neither are series colours in a legend.

    Why is this bad?
    A rainbow map is not perceptually ordered: its lightness rises to cyan and yellow
    and falls again to red, so readers see bands and boundaries where the data change
    smoothly, and cannot tell which of two colours stands for the larger value without
    the bar. In greyscale print the order is lost. Red-green colour-blind readers (about
    1 in 12 men) cannot tell the two ends of a red-green map apart, which on a diverging
    map means they cannot tell gains from losses.

    Example:
    `plt.imshow(field, cmap="jet"); plt.colorbar()`, or a gene-expression heatmap from
    green through black to red.

    Use instead:
    A perceptually uniform, lightness-monotone map for ordered data (`viridis`,
    `cividis`, `magma`, `batlow`), and a colour-blind-safe diverging map (`RdBu`,
    `coolwarm`, `PuOr`, `vik`) for data around a midpoint.
    """
    from figlint.features.colour_scale import colour_scales

    if _no_colour_scale_in(fig, ctx.paper):
        return  # nothing a colour scale is read from: the figure's analysis is not needed
    hits = []
    for an in _analyses(fig, ctx):
        for s in colour_scales(an, ctx.paper):
            if s.verdict:
                hits.append(s)
    if not hits:
        return
    s = hits[0]
    v = s.verdict
    where = "its colour bar" if s.kind == "bar" else "the heatmap's colours"
    if v["kind"] == "rainbow":
        what = (f"{where} sweep{'s' if s.kind == 'bar' else ''} through the rainbow ({', '.join(v['hues'])})")
        if "lightness_rise" in v:
            what += f", lightness rising by {v['lightness_rise']:.0f} and falling by {v['lightness_fall']:.0f} L*"
        why = "a rainbow colour map shows false boundaries and no visual order"
    else:
        pair = f"run{'s' if s.kind == 'bar' else ''} from" if s.kind == "bar" else "include"
        what = (f"{where} {pair} {v['ends'][0]} {'to' if s.kind == 'bar' else 'and'} {v['ends'][1]}, red against "
                f"green: ΔE00 {v['delta_e_normal']:.0f} in normal vision, {v['delta_e_cvd']:.0f} under {v['deficiency']}")
        why = "red-green colour-blind readers cannot tell its ends apart"
    yield ctx.finding(
        f"a continuous quantity is drawn with a {v['kind']} colour map: {what}; {why}",
        figure=fig,
        evidence={"scale": s.to_dict(), "scales": len(hits)},
        origin="figure",
    )


def _no_colour_scale_in(fig: Figure, paper) -> bool:
    """A figure analysed as its own vector content (paths and text, no placed image, text not
    drawn as outlines) whose paths hold no stack of cells a colour bar is read from and no
    heatmap grid (colour_scale.vector_scale_possible: the same code on the same paths,
    `an.drawings` being `fig.drawings`) has no colour scale. Checked before the figure's
    analysis, which a default run needs for nothing else on such a figure (a bar or line
    chart: about 9 ms a figure)."""
    from figlint.features import _KEY, _outlined_text
    from figlint.features.colour_scale import vector_scale_possible

    if fig.extra.get(_KEY) is not None or not (fig.spans or fig.drawings):
        return False  # analysed already (costs nothing), or read from its graphics files
    if fig.images or "image_path" in fig.extra or _outlined_text(fig, paper):
        return False
    box = fig.bbox or (0.0, 0.0, 0.0, 0.0)
    return not vector_scale_possible(fig.drawings, box[2] - box[0], box[3] - box[1])
