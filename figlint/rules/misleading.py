"""FL4xx: misleading design read from the figure itself (MR dimension, taxonomy-mapped).

Each rule reads the figure analysis (figlint.features): value axes parsed from
tick labels, the chart type, bar baselines. Precision comes first — a clean
figure must almost never be flagged — so a rule fires only on clean evidence:
at least three tick labels that fit their positions linearly (or log-linearly)
within 3 % of the range, a confident chart type, and none of the known
look-alikes (image/heatmap axes, mirrored tick labels, side-by-side panels,
colour bars, row indices, years on a timeline).
"""

from __future__ import annotations

from figlint.features import FigureAnalysis, analyses, year_like
from figlint.features.axes import Axis
from figlint.model import Figure, Location
from figlint.rules.registry import Context, figure_location, rule


def _ticks(ax: Axis) -> list[dict]:
    return [{"text": t.text, "value": t.value, "pos": round(t.pos, 1)} for t in ax.ticks]


def _fmt(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"


def _location(fig: Figure, an: FigureAnalysis, box) -> Location:
    loc = figure_location(fig)
    # Points only mean something on the page: raster analyses are in pixels.
    if an.unit == "pt" and loc.line is None and "file" not in an.evidence and box is not None:
        loc.bbox = tuple(round(v, 2) for v in box)
    return loc


def _base_evidence(an: FigureAnalysis) -> dict:
    ev = {"chart_type": an.chart_type, "chart_confidence": round(an.chart_confidence, 2),
          "source": an.source, "unit": an.unit}
    if "file" in an.evidence:
        ev["file"] = an.evidence["file"]
    return ev


@rule(
    "FL401",
    "truncated-bar-axis",
    severity="warning",
    dimension="misleading_risk",
    taxonomy="truncated_axis",
    options={"min-truncation": 0.05},
)
def truncated_bar_axis(fig: Figure, ctx: Context):
    """Bar (or filled area) chart whose value axis does not start at zero.

    What it does:
    Finds bars standing on a common baseline (or an area filled down to a flat
    bottom edge), the value axis they are measured on (tick labels read from the
    vector text or by OCR), and the value at the visible baseline. Reports the
    figure when that value is above zero by more than `min-truncation` (default
    5 %) of the axis' largest tick, on a clean linear axis whose ticks are all
    positive. Line and scatter charts are not checked: a zoomed value range is
    normal there.

    Why is this bad?
    A bar's length encodes its value. Cut the axis at 55 and a bar of 62 looks a
    quarter the length of a bar of 93, where it is two thirds of it: the chart
    exaggerates differences (taxonomy: truncated axis).

    Example:
    `plt.bar(methods, accuracy); plt.ylim(55, 95)` — the bars start at 55.

    Without a value axis, the baseline is read from the bars' own value labels:
    when bar lengths are proportional to each label minus a common amount well
    above zero, the bars were cut off there.

    Use instead:
    Start bar axes at zero (`plt.ylim(bottom=0)`), or show the values as points or
    a dot plot, or plot the differences to a baseline method, when the range of
    interest is narrow.
    """
    threshold = float(ctx.option("min-truncation"))
    for an in analyses(fig, ctx.paper):
        found = _truncation(an, threshold)
        if found is None:
            continue
        base, how, ev_extra, box = found
        what = "bar lengths exaggerate" if an.chart_type == "bar" else "the filled area exaggerates"
        ev = _base_evidence(an)
        ev.update(ev_extra)
        yield ctx.finding(
            f"{an.chart_type} chart's value axis starts at about {_fmt(base)}, not 0 ({how}); "
            f"{what} the differences",
            figure=fig, evidence=ev, origin="figure", location=_location(fig, an, box),
        )
        return


def _truncation(an: FigureAnalysis, threshold: float):
    """(baseline value, how it was read, evidence, box) when the bars do not start at zero."""
    g = an.bars
    if an.chart_type not in ("bar", "area") or g is None:
        return None
    ax, base = an.bar_axis, an.baseline_value
    if ax is not None and base is not None:
        if ax.scale != "linear" or not ax.clean or not ax.nice or ax.inverted:
            return None
        vals = ax.values
        top, low = max(vals), min(vals)
        if top <= 0 or low <= 0:
            return None  # the axis shows zero or negative values: the baseline is meant
        if base <= max(threshold * top, 0.25 * ax.step):
            return None
        ev = {"baseline_value": round(base, 4), "axis_ticks": _ticks(ax), "bars": g.count,
              "bar_orientation": g.orient, "lowest_tick": low, "highest_tick": top}
        return base, "ticks read: " + ", ".join(t.text for t in ax.ticks[:6]), ev, ax.box
    base = an.label_baseline
    if base is None or an.chart_type != "bar" or an.chart_confidence < 0.55:
        return None
    vals = [v for v, _ in an.bar_labels]
    # Only a clear cut: zero lies far below the baseline the labels imply, and the
    # baseline sits below every labelled bar.
    if base <= max(2 * threshold, 0.1) * max(vals) or base >= min(vals):
        return None
    ev = {"baseline_value": round(base, 4), "bar_labels": [{"value": v, "length": round(n, 1)} for v, n in an.bar_labels],
          "bars": g.count, "bar_orientation": g.orient, "read_from": "value labels (no value axis)"}
    labels = ", ".join(_fmt(v) for v in vals[:6])
    return base, f"bar lengths are proportional to their labels {labels} minus {_fmt(base)}", ev, None


def _mirrored(a: Axis, b: Axis) -> bool:
    lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
    for pos in (lo, hi):
        va, vb = a.value_at(pos), b.value_at(pos)
        if abs(va - vb) > 0.02 * max(abs(va), abs(vb), 1e-9):
            return False
    return True


def _dual_pair(an: FigureAnalysis) -> tuple[Axis, Axis, dict] | None:
    if an.chart_type in ("heatmap", "photo"):
        return None
    ys = [a for a in an.y_axes if not a.index_like and (a.nice or a.scale == "log")]
    u = an.unit_size
    for i, left in enumerate(ys):
        for right in ys[i + 1:]:
            gap = right.box[0] - left.box[2]
            if gap < 0.35 * an.width:
                continue
            overlap = min(left.hi, right.hi) - max(left.lo, right.lo)
            if overlap < 0.5 * min(left.hi - left.lo, right.hi - right.lo):
                continue
            between = [a for a in an.y_axes if a is not left and a is not right
                       and left.box[2] < a.cross < right.box[0]
                       and min(a.hi, left.hi) - max(a.lo, left.lo) > 0]
            if between:
                continue
            if _mirrored(left, right):
                continue
            # The right axis' labels hang off its spine: aligned left, not right.
            spread_l, spread_r = right.edge_spread
            if spread_l > 0.6 * u and spread_r < 0.5 * spread_l:
                continue
            # Another panel to the right of the second column means side-by-side plots.
            reach = an.content_right(right.box[2] + 0.3 * u, right.lo, right.hi)
            if reach > 0.3 * gap:
                continue
            if any(a.box[2] > right.box[2] + u and a.box[0] > left.box[2] for a in an.x_axes):
                continue
            if an.strip_left_of(right.box[0] - 0.3 * u, right.lo, right.hi, 0.15 * gap):
                continue  # a colour bar's scale, not a second value axis
            return left, right, {"gap": round(gap, 1), "reach_right": round(reach, 1)}
    return None


@rule(
    "FL402",
    "dual-value-axes",
    severity="warning",
    dimension="misleading_risk",
    taxonomy="dual_axis",
)
def dual_value_axes(fig: Figure, ctx: Context):
    """Chart with two value axes of different scales, one on each side.

    What it does:
    Finds two columns of tick labels that are each a clean numeric scale, one at
    the left and one at the right edge of the same plot, covering the same
    height, with different values at the same heights. Mirrored tick labels (the
    same scale repeated on the right), colour-bar scales and side-by-side panels
    are not reported.

    Why is this bad?
    Where two series cross, and how steep each looks, depends only on how the two
    scales were chosen. Readers compare the lines as if they shared a scale and
    infer a correlation the data may not have (taxonomy: dual axis).

    Example:
    `ax.plot(years, throughput); ax.twinx().plot(years, users)`.

    Use instead:
    Two panels stacked with a shared x axis (`plt.subplots(2, 1, sharex=True)`),
    or index both series to a common base (e.g. 100 at the first year) on one axis.
    """
    for an in analyses(fig, ctx.paper):
        pair = _dual_pair(an)
        if pair is None:
            continue
        left, right, extra = pair
        ev = _base_evidence(an)
        ev.update({"left_ticks": _ticks(left), "right_ticks": _ticks(right),
                   "left_title": left.title, "right_title": right.title, **extra})
        box = (left.box[0], min(left.box[1], right.box[1]), right.box[2], max(left.box[3], right.box[3]))
        yield ctx.finding(
            f"two value axes with different scales: left {_fmt(min(left.values))}–{_fmt(max(left.values))}, "
            f"right {_fmt(min(right.values))}–{_fmt(max(right.values))}",
            figure=fig, evidence=ev, origin="figure", location=_location(fig, an, box),
        )
        return


def _inverted_axis(an: FigureAnalysis) -> Axis | None:
    if an.chart_type in ("heatmap", "photo"):
        return None
    min_ticks = 3 if an.chart_type in ("bar", "line", "scatter") and an.chart_confidence >= 0.6 else 4
    for ax in an.axes:
        if not (ax.clean and ax.inverted and ax.even_spacing and len(ax.ticks) >= min_ticks):
            continue
        if ax.index_like or not (ax.nice or ax.scale == "log"):
            continue
        if ax.orient == "y" and year_like(ax):
            continue  # a timeline running down the page
        if ax.orient == "x" and ax.side == "top":
            continue
        return ax
    return None


@rule(
    "FL403",
    "inverted-value-axis",
    severity="warning",
    dimension="misleading_risk",
    taxonomy="inverted_axis",
)
def inverted_value_axis(fig: Figure, ctx: Context):
    """Value axis that runs against convention: values growing downward or leftward.

    What it does:
    Reads the tick labels of each value axis and reports an axis whose values
    increase downward (vertical) or leftward (horizontal), when the ticks form a
    clean evenly spaced scale. Image and heatmap axes (row 0 at the top is their
    convention), row or category indices and timelines are not reported.

    Why is this bad?
    Readers take "up" as "more". On an inverted axis a rising line means a falling
    value, so the chart shows the opposite trend to a reader who does not check
    the tick labels (taxonomy: inverted axis).

    Example:
    `ax.plot(years, deaths); ax.invert_yaxis()` with the area under the line filled.

    Use instead:
    Keep values increasing upward and rightward. When a reversed scale is the
    field's convention (depth, rank, magnitude), label it prominently in the axis
    title and caption, e.g. "rank (1 = best, top)".
    """
    for an in analyses(fig, ctx.paper):
        ax = _inverted_axis(an)
        if ax is None:
            continue
        ev = _base_evidence(an)
        ev.update({"axis": ax.orient, "increasing": ax.increasing, "axis_ticks": _ticks(ax),
                   "scale": ax.scale, "axis_title": ax.title})
        which = "vertical" if ax.orient == "y" else "horizontal"
        yield ctx.finding(
            f"{which} value axis is inverted: values increase {ax.increasing}ward "
            f"({', '.join(t.text for t in ax.ticks[:6])})",
            figure=fig, evidence=ev, origin="figure", location=_location(fig, an, ax.box),
        )
        return
