"""FL1xx: visual legibility of the figure as printed (VC dimension)."""

from __future__ import annotations

from statistics import median

from figlint.model import Figure, Location
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
    DPI metadata) and reports the figure when any image is below `min-dpi`.

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
        w = img.bbox[2] - img.bbox[0]
        h = img.bbox[3] - img.bbox[1]
        if w < _MIN_IMAGE_SIDE_PT and h < _MIN_IMAGE_SIDE_PT:
            continue
        if img.effective_dpi < min_dpi:
            low.append((img, w, h))
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


def _legible_spans(fig: Figure):
    """Spans that carry readable text, without sub/superscripts of larger labels."""
    spans = [s for s in fig.spans if any(c.isalnum() for c in s.text)]
    if not spans:
        return []
    typical = median(s.size for s in spans)
    # A span of one or two characters well below the typical size is an exponent
    # or index ("10^3", "x_i") printed at script size by design.
    return [s for s in spans if not (len(s.text.strip()) <= 2 and s.size < 0.8 * typical)]


@rule(
    "FL102",
    "tiny-text",
    severity="warning",
    dimension="visual_clarity",
    options={"min-font-pt": 6.0, "min-font-ratio": 0.5},
)
def tiny_text(fig: Figure, ctx: Context):
    """Text in the figure is smaller than `min-font-pt` at print size, or much smaller than the body text.

    What it does:
    Reads the printed size of every text span inside the figure (vector text: its font
    size scaled by the placement; raster figures need OCR) and reports the figure when
    any label prints below `min-font-pt` (default 6 pt) or below `min-font-ratio` times
    the paper's body font size (default 0.5).

    Why is this bad?
    Tick labels and legends are where readers get the numbers. At 4–5 pt they are
    unreadable in print, and most venues ask for figure text no smaller than the
    caption's or at least 6–7 pt.

    Example:
    A matplotlib figure made at 12×8 inches with 10 pt labels, scaled down to a
    3.3-inch column: its labels print at about 2.8 pt.

    Use instead:
    Make the figure at its printed size (`figsize=(3.3, 2.2)` for one column) and set
    font sizes there, or scale fonts up before shrinking the figure.
    """
    spans = _legible_spans(fig)
    if not spans:
        return
    min_pt = float(ctx.option("min-font-pt"))
    body = ctx.paper.body_font_size
    limit = min_pt
    if body:
        limit = max(limit, float(ctx.option("min-font-ratio")) * body)
    small = [s for s in spans if s.size < limit - 0.05]
    if not small:
        return
    smallest = min(small, key=lambda s: s.size)
    samples = sorted({s.text.strip() for s in small})[:6]
    reason = f"smaller than {min_pt:g} pt" if smallest.size < min_pt else f"less than half the {body:.1f} pt body text"
    yield ctx.finding(
        f"{len(small)} of {len(spans)} text labels print below {limit:.1f} pt "
        f"(smallest {smallest.size:.1f} pt, {reason}), e.g. {', '.join(repr(t) for t in samples[:3])}",
        figure=fig,
        evidence={
            "smallest_pt": round(smallest.size, 2),
            "limit_pt": round(limit, 2),
            "body_pt": body,
            "small_spans": len(small),
            "spans": len(spans),
            "samples": samples,
        },
        location=_span_location(fig, smallest.bbox),
        origin="figure",
    )


def _span_location(fig: Figure, bbox) -> Location:
    from figlint.rules.registry import figure_location

    loc = figure_location(fig)
    if loc.line is None:
        loc.bbox = tuple(bbox)
    return loc
