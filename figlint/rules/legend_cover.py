"""FL112: a chart's legend printed over its plotted data, hiding lines, markers or bars.

The legend and what lies under it come from the figure analysis (features/legend.py for
the entries, features/legend_cover.py for the frame and the data marks under it), so the
PDF route, the sources and a standalone figure file read the same chart alike.
"""

from __future__ import annotations

from figlint.features import analyses
from figlint.features.legend_cover import covers_data, hidden_markers
from figlint.model import Figure
from figlint.rules.registry import Context, figure_location, rule


@rule(
    "FL112",
    "legend-covers-data",
    severity="warning",
    dimension="visual_clarity",
    options={"min-hidden-line": 2.5, "min-hidden-markers": 2, "min-hidden-bar-share": 0.1},
)
def legend_covers_data(fig: Figure, ctx: Context):
    """A chart's legend sits over its plotted data, hiding lines, markers or bars.

    What it does:
    Finds each legend of a vector chart — its entries (a line sample, marker or patch
    beside a label) grouped into the block they stand in, and the frame drawn around
    them if there is one — and measures the data marks inside that box: the length of
    the data lines running through it, the markers whose centres lie in it and the area
    of bars under it. Reports the figure when a stretch of line at least
    `min-hidden-line` text heights long (default 2.5), at least `min-hidden-markers`
    markers (default 2, and at least 0.5 % of the figure's markers) or bars covering at least `min-hidden-bar-share` of the legend
    (default 0.1) lie under a legend. A legend outside the axes, in an empty part of
    the plot (framed or not) or merely near a line is not reported; nor are grid lines,
    reference lines, shaded bands and heatmap images, which are not data marks here.
    Only figures with a value axis are read (a key in a diagram is not a chart's
    legend), and only vector figures: in pixels an opaque frame leaves no trace of what
    it hides, so raster charts are not checked.

    Why is this bad?
    A legend drawn over the data hides exactly what the figure is meant to show: an
    opaque frame blanks out part of a curve or the tops of bars, and a frameless legend
    prints its labels across the lines so that neither reads cleanly. Automatic
    placement (`loc="best"`) only minimises the overlap; once the data change or the
    figure is resized, the legend often lands on a peak or a crossing.

    Example:
    `ax.legend(loc="center")` on two curves that cross in the middle of the plot: the
    legend frame covers the crossing the text discusses.

    Use instead:
    Put the legend where there is no data (`loc="upper left"` after checking the plot),
    outside the axes (`ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1))`, or
    `fig.legend(..., loc="outside upper center")`), widen the axis limits to leave an
    empty corner, or label the lines directly at their ends.
    """
    min_line = float(ctx.option("min-hidden-line"))
    min_markers = int(ctx.option("min-hidden-markers"))
    min_share = float(ctx.option("min-hidden-bar-share"))
    for an in analyses(fig, ctx.paper):
        if an.source != "vector":
            continue
        for lc in an.get("legend_cover"):
            if not covers_data(lc, min_line, min_markers, min_share):
                continue
            what = []
            if lc.line_length >= min_line * lc.unit:
                n = lc.line_count
                what.append(f"{n} data line{'s' if n != 1 else ''} ({lc.line_length / max(lc.unit, 1e-6):.1f} text heights)")
            if hidden_markers(lc, min_markers):
                what.append(f"{lc.markers} markers")
            if lc.area and lc.bar_area >= min_share * lc.area:
                what.append(f"bars under {100 * lc.bar_area / lc.area:.0f}% of it")
            names = ", ".join(repr(t) for t in lc.entries[:3]) + (", ..." if len(lc.entries) > 3 else "")
            how = "its frame hides" if lc.framed else "its entries are printed over"
            ev = {"source": an.source, "unit": an.unit, "legend": lc.to_dict()}
            if "file" in an.evidence:
                ev["file"] = an.evidence["file"]
            loc = figure_location(fig)
            if an.unit == "pt" and loc.line is None and "file" not in an.evidence:
                loc.bbox = tuple(round(v, 2) for v in lc.box)
            yield ctx.finding(
                f"legend ({names}) sits over the plotted data: {how} {' and '.join(what)}; "
                "move it to an empty corner or outside the axes",
                figure=fig, evidence=ev, origin="figure", location=loc,
            )
            return
