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

import math
import re

from figlint.features import FigureAnalysis, analyses, year_like
from figlint.features import second_axis
from figlint.features.dates import time_axes
from figlint.features.hanging import hanging_bars
from figlint.features.axes import Axis, oblique
from figlint.features.numbers import parse_number
from figlint.features.shapes import Circle, circles, oblique_faces, size_classes
from figlint.features.titles import rotated_title
from figlint.lazyre import lazy
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
        # the measured bars first, then other bar charts of the same picture (each on its own axis)
        for g, ax, base in [(g, ax, base)] + list(an.more_bars):
            found = _axis_truncation(g, ax, base, threshold)
            if found is not None:
                return found
        return None
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


def _axis_truncation(g, ax: Axis, base: float, threshold: float):
    if ax.scale != "linear" or not ax.clean or not ax.nice or ax.inverted:
        return None
    vals = ax.values
    top, low = max(vals), min(vals)
    if top <= 0 or low <= 0:
        return None  # the axis shows zero or negative values: the baseline is meant
    if base <= max(threshold * top, 0.25 * ax.step):
        return None
    # Bars measured on this axis cover a good part of its tick span; boxes a few points
    # long beside a row of step numbers are highlights in a diagram, not bars.
    longest = max(abs(e - g.baseline) for e in g.far_ends)
    if longest < 0.15 * (ax.hi - ax.lo):
        return None
    ev = {"baseline_value": round(base, 4), "axis_ticks": _ticks(ax), "bars": g.count,
          "bar_orientation": g.orient, "lowest_tick": low, "highest_tick": top}
    return base, "ticks read: " + ", ".join(t.text for t in ax.ticks[:6]), ev, ax.box


def _mirrored(a: Axis, b: Axis) -> bool:
    lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
    for pos in (lo, hi):
        va, vb = a.value_at(pos), b.value_at(pos)
        if abs(va - vb) > 0.02 * max(abs(va), abs(vb), 1e-9):
            return False
    return True


def _perspective(an: FigureAnalysis) -> bool:
    """A 3D plot: a scale of at least four labels runs along a slanted box edge.

    The tick columns at the left and right of a 3D box are the edges of different
    dimensions (or of one seen at two depths), not two scales of one plot.
    """
    return any(a.clean and len(a.ticks) >= 4 and oblique(a, an.unit_size) for a in an.axes)


def _dual_pair(an: FigureAnalysis) -> tuple[Axis, Axis, dict] | None:
    if an.chart_type in ("heatmap", "photo") or _perspective(an):
        return None
    ys = [a for a in an.y_axes if not a.index_like and (a.nice or a.scale == "log")]
    for i, left in enumerate(ys):
        for right in ys[i + 1:]:
            if _mirrored(left, right):
                continue
            extra = _two_sides(an, left, right)
            if extra is not None and not (_legend_column(an, left) or _legend_column(an, right)):
                return left, right, extra
    # A second axis OCR read only in part (features/second_axis.py): a two-label column
    # completed by reading its predicted labels, or labels on the clean axis' own rows
    # that say other values.
    for other in second_axis.completed(an):
        for ax in ys:
            left, right = (ax, other) if ax.cross < other.cross else (other, ax)
            if _mirrored(left, right):
                continue
            extra = _two_sides(an, left, right)
            if extra is not None:
                return left, right, {**extra, "second_axis": "completed by reading its predicted labels"}
    for col in second_axis.row_aligned(an):
        other = _row_axis(col)
        left, right = (col.axis, other) if col.axis.cross < other.cross else (other, col.axis)
        extra = _two_sides(an, left, right)
        if extra is not None:
            return left, right, {**extra, "second_axis": f"labels on {col.matched} rows of the other axis' ticks"}
    return None


def _label_conflict(an: FigureAnalysis) -> tuple[dict, dict] | None:
    """Value labels that contradict one shared scale (features/second_axis.py), when no axis pair did.
    Not in a 3D plot, where a mark further back stands higher whatever its value."""
    if an.chart_type in ("heatmap", "photo") or _perspective(an):
        return None
    pairs = second_axis.label_conflicts(an)
    if not pairs:
        return None
    up, low = pairs[0]
    return ({"text": up.text.strip(), "value": up.value, "pos": round(up.cy, 1)},
            {"text": low.text.strip(), "value": low.value, "pos": round(low.cy, 1)})


def _row_axis(col) -> Axis:
    """A row-aligned label column as an Axis (its values are as read, not fitted)."""
    from figlint.features.axes import Tick

    toks = sorted(col.tokens, key=lambda t: t.cy)
    ticks = [Tick(t.value, t.cy, t.text.strip(), t.bbox) for t in toks]
    cross = sum(t.cx for t in toks) / len(toks)
    ax = Axis(orient="y", ticks=ticks, scale="irregular", slope=0.0, intercept=0.0, residual=9.99, cross=cross,
              lo=ticks[0].pos, hi=ticks[-1].pos, box=col.box, align="", nice=False)
    ax.side = "left" if col.axis.cross > cross else "right"
    return ax


def _two_sides(an: FigureAnalysis, left: Axis, right: Axis) -> dict | None:
    """Evidence that two y tick columns are the two sides of one plot; None for the look-alikes."""
    u = an.unit_size
    gap = right.box[0] - left.box[2]
    if gap < 0.35 * an.width:
        return None
    overlap = min(left.hi, right.hi) - max(left.lo, right.lo)
    if overlap < 0.5 * min(left.hi - left.lo, right.hi - right.lo):
        return None
    between = [a for a in an.y_axes if a is not left and a is not right
               and left.box[2] < a.cross < right.box[0]
               and min(a.hi, left.hi) - max(a.lo, left.lo) > 0]
    if between:
        return None
    # The right axis' labels hang off its spine: aligned left, not right.
    spread_l, spread_r = right.edge_spread
    if spread_l > 0.6 * u and spread_r < 0.5 * spread_l:
        return None
    # Another panel to the right of the second column means side-by-side plots.
    reach = an.content_right(right.box[2] + 0.3 * u, right.lo, right.hi)
    if reach > 0.3 * gap:
        return None
    if any(a.box[2] > right.box[2] + u and a.box[0] > left.box[2] for a in an.x_axes):
        return None
    if an.strip_left_of(right.box[0] - 0.3 * u, right.lo, right.hi, 0.15 * gap):
        return None  # a colour bar's scale, not a second value axis
    if _separate_frames(an, left, right):
        return None  # each axis bounds its own panel (or a colour bar's, a histogram's)
    return {"gap": round(gap, 1), "reach_right": round(reach, 1)}


def _separate_frames(an: FigureAnalysis, left: Axis, right: Axis) -> bool:
    """Whether the two axes bound different plot areas, read from the horizontal lines between them.

    Both axes of a dual-axis chart bound one plot: its bottom (or top) edge, the x axis
    line, runs unbroken from the left axis to the right one. Side-by-side panels, a plot
    and its colour bar or marginal histogram each have their own frame: their edges end
    where the next one's begin. Without any long horizontal line (no frame drawn) this
    says nothing and the other checks decide.
    """
    u = an.unit_size
    xl, xr = left.box[2], right.box[0]
    y0 = min(left.lo, right.lo) - 2.0 * u
    y1 = max(left.hi, right.hi) + 2.0 * u
    lines = an.h_lines(y0, y1, xl, xr, 0.35)  # a panel's edge spans a good part of the width
    if not lines:
        return False
    # a spine stands a tick's length from its labels; a colour bar right of a plot stands
    # further from its own labels than the plot's right edge would
    tol_l = min(2.5 * u, 0.1 * (xr - xl))
    tol = max(0.8 * u, min(1.5 * u, 0.06 * (xr - xl)))
    lo, hi = max(left.lo, right.lo), min(left.hi, right.hi)
    rows: dict[float, list[tuple[float, float]]] = {}
    for y, a, b in lines:
        rows.setdefault(y, []).append((a, b))
    for segs in rows.values():
        segs.sort()
        # a break with marks drawn through it (a handle or marker on the frame edge, data
        # crossing it) is not the empty corridor between two panels
        joined = [list(segs[0])]
        for a, b in segs[1:]:
            if an.source == "raster" and an.marks.fg_columns(joined[-1][1] + 1, a - 1, lo, hi) >= 0.5:
                joined[-1][1] = max(joined[-1][1], b)
            else:
                joined.append([a, b])
        if any(a <= xl + tol_l and b >= xr - tol for a, b in joined):
            return False
    return True


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
    height, with different values at the same heights. Both must bound one plot
    area: where frame edges or axis lines are drawn, one of them runs unbroken
    from the left axis to the right one. Mirrored tick labels (the same scale
    repeated on the right), colour-bar scales, marginal histograms,
    side-by-side or stacked panels (each with its own frame) and 3D plots (tick
    labels running along a slanted box edge) are not reported.

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
            conflict = _label_conflict(an)
            if conflict is not None:
                up, low = conflict
                ev = _base_evidence(an)
                ev.update({"upper_label": up, "lower_label": low, "second_axis": "value labels of two scales"})
                yield ctx.finding(
                    f"value labels of two scales: {up['text']} is printed above {low['text']} in the same column, "
                    "so the series are drawn to different, unprinted scales",
                    figure=fig, evidence=ev, origin="figure", location=_location(fig, an, None),
                )
                return
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


# Quantities whose scale conventionally grows downward (or leftward): depth below a surface,
# rank (1 = best, at the top), astronomical magnitude (brighter is up), atmospheric pressure
# (altitude up), time before present (ages falling toward today), and the spectroscopies'
# abscissae: binding energy (photoelectron spectra), wavenumber (infrared), chemical shift (NMR:
# "δ (ppm)", a nucleus and the unit, "¹H (ppm)", "¹⁵N (ppm)", or a spectrometer's axis name,
# "f1 (ppm)"). A reader of such a chart expects the reversed scale; an axis whose title names one
# follows the convention.
_SPECTRUM = (r"binding\s*energ|wave\s*numbers?\b|chemical\s*shifts?\b|δ\s*\(?\s*ppm|\bf[12]\s*\(\s*ppm"
             r"|(?<![A-Za-z])(?:\d{1,3}\s*)?(?:H|C|N|F|P|Si|B|Li|Na|Al|Sn|Pt|Se|Cd|Xe)\s*\(\s*ppm\s*\)")
# Ages before present, as geology and palaeoclimate draw them toward today: "Age [Ma]", "age
# (ka)", "Time (Myr)", "cal yr BP". Stellar atmospheres: a Hertzsprung-Russell or Kiel diagram
# puts the effective temperature falling to the right and the surface gravity growing downward
# ("T_eff", "Teff [K]", "log g").
# (the units' case matters: "bp" is a genome's base pairs)
_AGE = (r"\bages?\b[^A-Za-z]{0,4}[(\[]\s*(?-i:[kMG]a|[kMG]yrs?)\s*[)\]]|[(\[]\s*(?-i:[kMG]a|[kMG]yr)\s*[)\]]"
        r"|(?-i:\bB\.?P\.?)(?![A-Za-z])")
_STELLAR = r"\bT\s*_?\s*\{?\s*\\?(?:mathrm\s*\{\s*)?eff\b|effective\s*temperature|\blog\s*\(?\s*g\b|surface\s*gravity"
_CONVENTION_WORDS = lazy(
    r"\bdepths?\b|\brank(?:s|ed|ing)?\b|\bmagnitudes?\b|\bmag\b|\bpressure\b|\bhPa\b|\bmbar\b"
    r"|\bago\b|before present|" + _AGE + "|" + _STELLAR + "|" + _SPECTRUM, re.I)
_SPECTRUM_WORDS = lazy(_SPECTRUM, re.I)
# Astronomy titles a magnitude axis by the photometric band alone: "G", "g", "V", "K_s", "G_0"
# (extinction-corrected), "M_G" (absolute), "G [mag]"; brighter (smaller) is up in a
# colour-magnitude or Hertzsprung-Russell diagram. The bands' case matters (SDSS "g", Gaia "G").
_BAND = r"(?:[UBVRIJHKugriz]|K\s*_?\s*s|G(?:\s*_?\s*\{?\s*(?:BP|RP)\s*\}?)?|BP|RP|W[1-4]|NUV|FUV)"
_MAGNITUDE_TITLE = lazy(r"^\s*(?:M\s*_?\s*\{?\s*)?" + _BAND + r"\s*\}?(?:\s*_?\s*\{?\s*0\s*\}?)?"
                        r"\s*(?:[\[(]\s*(?:mag|dex|AB|Vega)?\s*[\])])?\s*$")
# A colour index, one band's magnitude less another's ("BP - RP", "G_BP - G_RP", "(g - i)_0",
# "B-V"): a vertical axis beside it is a colour-magnitude diagram's magnitude, whose title the
# reading of a raster may have lost (one turned letter).
_COLOUR_TITLE = lazy(r"^\s*\(?\s*" + _BAND + r"\s*[-−–]\s*" + _BAND + r"\s*\)?(?:\s*_?\s*\{?\s*[0o]\s*\}?)?"
                     r"\s*(?:[\[(]\s*mag\s*[\])])?\s*$")
# A map of the sky is drawn as the sky is seen, east to the left: right ascension (and galactic
# longitude) grows leftward. "α" or "l" name it only beside a declination or latitude axis.
_SKY_LONGITUDE = lazy(r"^\s*(?:(?-i:R\.?\s?A\.?)(?![A-Za-z])|right\s*ascension|galactic\s*longitude)", re.I)
_SKY_SYMBOL = lazy(r"^\s*(?:α|ℓ|l)(?:\s*_?\s*\{?\s*(?:J?2000|ICRS)\s*\}?)?\s*(?:[\[(]\s*(?:deg|°|degrees?|h|hr)?\s*[\])])?\s*$")
_DEGREES = lazy(r"[\[(]\s*(?:deg|°|degrees)\s*[\])]")
_SKY_LATITUDE = lazy(r"^\s*(?:(?-i:Dec\.?)(?![A-Za-z])|declination|δ|b(?![A-Za-z])|galactic\s*latitude)", re.I)


def _conventional(an: FigureAnalysis, ax: Axis) -> bool:
    """Whether the axis' title names a quantity drawn reversed by convention (read upright
    when it is a raster y axis: OCR reads rotated titles poorly, features/titles.py). An axis
    whose title was not found, in a spectrum (a text of the figure names a spectroscopy's
    abscissa: "¹⁵N (ppm)" set over a 2D spectrum's vertical axis), follows its convention."""
    if _CONVENTION_WORDS.search(ax.title or "") or _CONVENTION_WORDS.search(ax.title_scripts or ""):
        return True
    if ax.orient == "y" and _CONVENTION_WORDS.search(rotated_title(an, ax)):
        return True
    if _astronomical(an, ax):
        return True
    return not ax.title and any(_SPECTRUM_WORDS.search(t.text) for t in an.tokens)


def _astronomical(an: FigureAnalysis, ax: Axis) -> bool:
    """A magnitude titled by its band alone (_MAGNITUDE_TITLE) or, untitled, beside a colour
    index (_COLOUR_TITLE), or a horizontal sky longitude (right ascension; "α" or "l" beside a
    declination, a latitude or another axis in degrees) drawn east-left."""
    titles = [t for t in (ax.title, ax.title_scripts) if t]
    if any(_MAGNITUDE_TITLE.match(t) for t in titles):
        return True
    others = [o for o in an.axes if o is not ax and o.orient != ax.orient]
    if ax.orient == "y":
        return not titles and any(_COLOUR_TITLE.match(o.title or "") for o in others)
    if any(_SKY_LONGITUDE.match(t) for t in titles):
        return True
    return any(_SKY_SYMBOL.match(t) for t in titles) and \
        any(_SKY_LATITUDE.match(o.title or "") or _DEGREES.search(o.title or "") for o in others)


def _legend_column(an: FigureAnalysis, ax: Axis) -> bool:
    """The axis' labels are a legend's: a swatch (line sample, patch) beside each of
    at least two thirds of them, as a legend of numeric keys sets them ("Month" 1, 3, 6, 9, 12;
    a parameter's values). Their pitch is the legend's keys', which may stand farther apart
    than lines of text (features/axes._stacked_lines), so only the swatches tell them from a
    value axis. Read only for an axis a rule would report."""
    if len(ax.ticks) > 12:
        return False
    from figlint.features.legend import numeric_keys

    entries = numeric_keys(an)
    if len(entries) < 2:
        return False
    along = 1 if ax.orient == "y" else 0

    def keyed(t) -> bool:
        text = t.text.strip()
        return any(e.text.strip() == text and e.bbox[along] - 1 <= t.pos <= e.bbox[along + 2] + 1 for e in entries)

    return sum(map(keyed, ax.ticks)) >= max(2, math.ceil(2 * len(ax.ticks) / 3))


def _inverted_axis(an: FigureAnalysis) -> Axis | None:
    if an.chart_type in ("heatmap", "photo"):
        return None
    if _perspective(an):
        # a 3D box in perspective: its axes' direction on the page is the camera's choice
        # (a horizontal edge runs leftward seen from the other side), and its vertical edge
        # is, in the subsurface views such plots mostly are, a depth axis growing downward
        return None
    min_ticks = 3 if an.chart_type in ("bar", "line", "scatter") and an.chart_confidence >= 0.6 else 4
    found = []
    for ax in an.axes:
        if not (ax.clean and ax.inverted and ax.even_spacing and len(ax.ticks) >= min_ticks):
            continue
        if ax.index_like or not (ax.nice or ax.scale == "log"):
            continue
        if ax.orient == "y" and year_like(ax):
            continue  # a timeline running down the page
        if ax.orient == "x" and ax.side == "top":
            continue
        found.append(ax)
    # dates the numeric reading does not take (months, days, quarters): a time axis whose
    # dates grow leftward runs against the reading direction as a value axis does
    found += [ax for ax in time_axes(an) if ax.inverted and ax.side != "top"]
    found = [ax for ax in found if not _legend_column(an, ax)]
    if any(_conventional(an, ax) for ax in found):
        # the convention holds for the figure: profile panels side by side print the depth
        # or pressure title once, and their other columns are the same quantity
        return None
    return found[0] if found else None


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
    convention), row or category indices, timelines, the axes of 3D plots in
    perspective, and axes whose title names a quantity drawn reversed by
    convention (depth, rank, magnitude, pressure, time or age before present as
    "Age [Ma]" or "cal yr BP", a stellar diagram's effective temperature and
    surface gravity, and a spectrum's binding energy, wavenumber or chemical
    shift) are not reported. An axis title is read in reading order, with its
    sub- and superscripts ("T" with a smaller "eff" beside it is "Teff"), a
    turned title set in pieces whole ("log", "g": "log g"), and beside a
    vertical axis from the side nearest its labels (not a column of names
    printed in the plot).
    Dates the numeric reading does not take ("Jan 2020", "Mar 30", "2019-06",
    "Q3 2018") are read as times: a row of them growing leftward is
    an inverted time axis. Without tick labels, a bar chart drawn upside down is
    recognised by its bars (at least three, evenly spaced, one width, different
    lengths) hanging from one common top edge, when no value axis stands beside
    them, no negative number is printed and nothing is stacked below them.

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
            g = hanging_bars(an) if not _perspective(an) else None
            if g is None:
                continue
            ev = _base_evidence(an)
            ev.update({"axis": "y", "increasing": "down", "hanging_bars": g.count,
                       "bar_lengths": [round(b[3] - b[1], 1) for b in g.boxes]})
            box = (min(b[0] for b in g.boxes), g.baseline, max(b[2] for b in g.boxes), max(g.far_ends))
            yield ctx.finding(
                f"bars hang from a common top edge ({g.count} bars, no value axis printed): the longer bar "
                "reaches further down, so values increase downward",
                figure=fig, evidence=ev, origin="figure", location=_location(fig, an, box),
            )
            return
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


# FL404-FL407 --------------------------------------------------------------------------------------

_LOG_WORDS = lazy(r"\blog(?:10|2|e)?\b|\blog[- ]?scale|logarithm|\bln\b|\blog[- ]?(?:axis|transformed|\()", re.I)


def _caption(fig: Figure) -> str:
    return fig.caption.text if fig.caption is not None and fig.caption.text else ""


def _kinds(ax: Axis) -> set[str]:
    out = set()
    for t in ax.ticks:
        n = parse_number(t.text)
        if n is not None:
            out.add(n.kind)
    return out


def _ratios(vals: list[float]) -> list[float]:
    vals = sorted(vals)
    return [b / a for a, b in zip(vals, vals[1:]) if a > 0]


def _log_evident(ax: Axis) -> str | None:
    """Why the tick labels already show a log scale, or None."""
    if _kinds(ax) & {"pow10", "sci"}:
        return "powers of ten"
    vals = sorted(ax.values)
    rs = _ratios(vals)
    if not rs:
        return None
    if all(abs(math.log10(v) - round(math.log10(v))) < 1e-6 for v in vals if v > 0):
        return "decades (1, 10, 100, ...)"
    # evenly spaced labels growing by one factor (1, 2, 4, 8 or 1, 3, 9): the ratio is visible
    if ax.even_spacing and max(rs) <= 1.05 * min(rs) and min(rs) >= 1.9:
        return "a constant ratio between evenly spaced labels"
    return None


def _hidden_log(an: FigureAnalysis, fig: Figure) -> Axis | None:
    if an.chart_type in ("heatmap", "photo"):
        return None
    text = " ".join([_caption(fig)] + [t.text for t in an.tokens if t.value is None])
    if _LOG_WORDS.search(text):
        return None
    for ax in an.axes:
        if ax.scale != "log" or len(ax.ticks) < 4 or year_like(ax) or ax.index_like:
            continue
        if _log_evident(ax) or _LOG_WORDS.search(ax.title or "") or any(v <= 0 for v in ax.values):
            continue
        if ax.orient == "y" and _LOG_WORDS.search(rotated_title(an, ax)):
            continue  # the title, read upright, says so
        return ax
    return None


@rule(
    "FL404",
    "log-scale-not-indicated",
    severity="warning",
    dimension="misleading_risk",
    taxonomy="unclear_encoding",
)
def log_scale_not_indicated(fig: Figure, ctx: Context):
    """Logarithmic value axis whose labels, title and caption never say it is one.

    What it does:
    Reads each axis' tick labels and their positions. Reports an axis whose
    positions are linear in the logarithm of the values (at least four labels,
    spanning a factor of 50 or more) when nothing tells the reader so: the labels
    are plain numbers at uneven steps (5, 20, 100, 500, 2000) rather than powers
    of ten (10^3, 1e3), successive decades (1, 10, 100, 1000) or evenly spaced
    doublings; and neither the axis title, any text in the figure, nor the caption
    says "log" or "logarithmic".

    Why is this bad?
    On a log axis equal distances are equal ratios, not equal differences. A
    reader who takes the axis for linear sees exponential growth as a straight
    line and large differences as small ones (taxonomy: unclear encoding).

    Example:
    `ax.set_yscale("log")` with custom tick labels "5, 20, 100, 500, 2000" and the
    y label "downloads".

    Use instead:
    Keep labels that show the scale (10^1, 10^2, ...), or say it in the axis
    title ("downloads (log scale)") and in the caption.
    """
    for an in analyses(fig, ctx.paper):
        ax = _hidden_log(an, fig)
        if ax is None:
            continue
        ev = _base_evidence(an)
        ev.update({"axis": ax.orient, "axis_ticks": _ticks(ax), "scale": ax.scale,
                   "log_fit_residual": round(ax.residual, 4), "axis_title": ax.title})
        which = "vertical" if ax.orient == "y" else "horizontal"
        yield ctx.finding(
            f"{which} axis is logarithmic ({', '.join(t.text for t in ax.ticks[:6])} at log-spaced positions) "
            "but neither its labels, its title nor the caption say so",
            figure=fig, evidence=ev, origin="figure", location=_location(fig, an, ax.box),
        )
        return


def _round_number(v: float) -> bool:
    """At most two significant digits: the values people choose for ticks."""
    if v == 0:
        return True
    mant = abs(v) / 10 ** math.floor(math.log10(abs(v)))
    return abs(mant * 10 - round(mant * 10)) < 1e-6


def _tick_confidence(an: FigureAnalysis, ax: Axis) -> float:
    confs = {tuple(round(v, 1) for v in t.bbox): t.conf for t in an.tokens}
    return min((confs.get(tuple(round(v, 1) for v in t.bbox), 1.0) for t in ax.ticks), default=0.0)


def _uneven_ticks(an: FigureAnalysis) -> tuple[Axis, str] | None:
    if an.chart_type in ("heatmap", "photo"):
        return None
    for ax in an.axes:
        if ax.orient != "y" or ax.scale != "irregular" or len(ax.ticks) < 4:
            continue
        if year_like(ax) or not all(_round_number(v) for v in ax.values):
            continue
        if an.source == "raster" and (len(ax.ticks) < 5 or _tick_confidence(an, ax) < 0.85):
            continue  # one misread digit makes any scale look irregular
        if _legend_column(an, ax):
            continue  # a legend's numeric keys (0.0, 0.1, ..., 0.9 with one left out) are no scale
        ticks = sorted(ax.ticks, key=lambda t: t.pos)
        gaps = [b.pos - a.pos for a, b in zip(ticks, ticks[1:])]
        steps = [abs(b.value - a.value) for a, b in zip(ticks, ticks[1:])]
        if min(gaps) <= 0 or min(steps) <= 0:
            continue
        rs = _ratios([t.value for t in ticks if t.value > 0])
        geometric = len(rs) >= 2 and max(rs) <= 1.1 * min(rs)
        if max(gaps) <= 1.08 * min(gaps) and max(steps) >= 1.5 * min(steps) and not geometric:
            return ax, "evenly spaced labels with value steps of " + ", ".join(_fmt(s) for s in steps)
        # two stacked panels whose labels share a column: split at the widest gap, each
        # part is evenly spaced on its own
        cut = gaps.index(max(gaps))
        parts = [gaps[:cut], gaps[cut + 1:]]
        panels = all(not p or max(p) <= 1.08 * min(p) for p in parts)
        if max(steps) <= 1.001 * min(steps) and max(gaps) >= 1.4 * min(gaps) and not panels:
            return ax, f"equal value steps of {_fmt(steps[0])} at unequal distances"
    return None


@rule(
    "FL405",
    "inconsistent-tick-intervals",
    severity="warning",
    dimension="misleading_risk",
    taxonomy="uneven_binning",
)
def inconsistent_tick_intervals(fig: Figure, ctx: Context):
    """Value axis whose tick labels are neither a linear nor a logarithmic scale.

    What it does:
    Reads the tick labels of each vertical value axis and their positions.
    Reports the axis when the labels are evenly spaced on the page but the value
    steps between them change (0, 10, 20, 50, 100) and do not grow by a constant
    factor (a log scale), or when the values step uniformly (0, 20, 40, 60) but
    sit at unequal distances. Only round tick values (at most two significant
    digits) in a clean column are considered; on raster figures at least five
    labels read with high OCR confidence. Horizontal axes are not checked
    (categorical x positions with numeric names are common and legitimate).

    Why is this bad?
    Readers measure values by distance along the axis. When a step of 10 and a
    step of 50 take the same length, the plotted shapes distort the data:
    differences at one end look larger than at the other (taxonomy: uneven
    binning).

    Example:
    `ax.set_yticks([0, 1, 2, 3, 4]); ax.set_yticklabels(["0", "10", "20", "50", "100"])`.

    Use instead:
    Let the plotting library place the ticks of a linear scale, or use a true log
    scale and say so; never relabel evenly spaced ticks with uneven values.
    """
    for an in analyses(fig, ctx.paper):
        found = _uneven_ticks(an)
        if found is None:
            continue
        ax, how = found
        ev = _base_evidence(an)
        ev.update({"axis": ax.orient, "axis_ticks": _ticks(ax), "linear_fit_residual": round(ax.residual, 4)})
        yield ctx.finding(
            f"tick intervals are inconsistent on the vertical axis ({', '.join(t.text for t in ax.ticks[:6])}): {how}",
            figure=fig, evidence=ev, origin="figure", location=_location(fig, an, ax.box),
        )
        return


# text that names what the axes measure: in the caption, or in the chart's own heading
_AXIS_NAMED = lazy(r"\b(?:y[- ]?axis|axes|axis|ordinate|versus|vs\.?|against|as a function of|per|number of"
                         r"|in (?:thousands|millions|billions|percent))\b|%|\([^)]*[A-Za-z%$][^)]*\)", re.I)
_CHARTS = ("bar", "line", "scatter", "area")


def _untitled_value_axis(an: FigureAnalysis, fig: Figure) -> Axis | None:
    if an.chart_type not in _CHARTS or an.chart_confidence < 0.6:
        return None
    u = an.unit_size
    # any rotated words (a title shared by panels, a title OCR placed elsewhere) or a
    # titled axis anywhere: small multiples share their titles
    if any(t.rotated and t.value is None and sum(c.isalpha() for c in t.text) >= 2 for t in an.tokens):
        return None
    if any(a.title for a in an.axes if a.orient == "y"):
        return None
    if _AXIS_NAMED.search(" ".join([_caption(fig)] + [t.text for t in an.tokens if t.value is None])):
        return None  # a unit in parentheses, "vs", "per": the text names the quantities
    if an.bar_axis is not None:
        cands = [an.bar_axis]
    else:
        cands = [a for a in an.y_axes if a.side == "left"]
    for ax in cands:
        if not ax.clean or ax.index_like or year_like(ax) or len(ax.ticks) < 3:
            continue
        if ax.orient == "x":
            if ax.title:
                continue
        # a title printed above the axis' top label (news-graphic style) or a unit in the labels
        top = ax.box[1] if ax.orient == "y" else ax.box[3]
        above = [t for t in an.tokens if t.value is None and sum(c.isalpha() for c in t.text) >= 2
                 and ax.orient == "y" and t.bbox[3] <= top + 0.2 * u and top - t.bbox[3] < 2.5 * u
                 and t.bbox[0] < ax.box[2] + 6 * u]
        if above or _kinds(ax) & {"percent"} or any("$" in t.text or "€" in t.text or "£" in t.text for t in ax.ticks):
            continue
        if an.source == "raster" and ax.orient == "y" and (rotated_title(an, ax) or _ink_left_of(an, ax)):
            continue  # a rotated title read upright, or marks beside the labels OCR could not read
        return ax
    return None


def _ink_left_of(an: FigureAnalysis, ax: Axis) -> bool:
    m = an.marks
    fg = getattr(m, "fg", None)
    if fg is None or ax.orient != "y":
        return False
    x1 = max(int(ax.box[0] - 1), 0)
    band = fg[max(int(ax.lo), 0):min(int(ax.hi) + 1, fg.shape[0]), 0:x1]
    return band.size > 0 and band.any(axis=0).sum() >= 2


@rule(
    "FL406",
    "missing-axis-title",
    severity="warning",
    dimension="misleading_risk",
    taxonomy="unclear_encoding",
)
def missing_axis_title(fig: Figure, ctx: Context):
    """Chart whose numeric value axis has no title: the reader cannot tell what is measured, in what unit.

    What it does:
    On a bar, line, scatter or area chart (read with confidence), finds the value
    axis — the scale the bars are measured on, else the left-hand tick column —
    and reports it when no axis title sits beside it or above it, no vertical
    axis in the figure has a title (small multiples share one), the tick labels
    carry no unit of their own (%, $) and the caption does not name the axes
    ("accuracy vs. epochs", "y-axis", a unit in parentheses), nor does the chart's own
    text (a heading such as "Revenue (USD millions)"). Heatmaps, photos,
    diagrams, index axes and timelines are not checked; on raster figures any
    unread marks beside the tick labels count as a possible title.

    Why is this bad?
    Numbers without a quantity or unit are an unexplained encoding: the reader
    has to guess whether 20 is a percentage, a count or milliseconds, and may
    compare it with the wrong thing (taxonomy: unclear encoding).

    Example:
    `plt.bar(methods, latency)` with no `plt.ylabel(...)`.

    Use instead:
    Title every value axis with the quantity and its unit: `plt.ylabel("latency (ms)")`.
    """
    for an in analyses(fig, ctx.paper):
        ax = _untitled_value_axis(an, fig)
        if ax is None:
            continue
        ev = _base_evidence(an)
        ev.update({"axis": ax.orient, "axis_ticks": _ticks(ax), "caption": _caption(fig)[:120]})
        which = "vertical" if ax.orient == "y" else "horizontal"
        yield ctx.finding(
            f"{an.chart_type} chart's {which} value axis ({', '.join(t.text for t in ax.ticks[:6])}) has no title: "
            "say what is measured and in which unit",
            figure=fig, evidence=ev, origin="figure", location=_location(fig, an, ax.box),
        )
        return


_SIZE_WORDS = lazy(r"\b(?:size[sd]?|area|radius|radii|diameter|proportional|bubble)\b", re.I)


def _size_legend(an: FigureAnalysis, circles: list[Circle]) -> bool:
    """Two or more circles of different sizes, each with a number (or word) just beside it."""
    u = an.unit_size
    keyed = []
    for c in circles:
        r = c.d / 2
        for t in an.tokens:
            if abs(t.cy - c.cy) < max(0.6 * u, 0.5 * r) and t.cx > c.cx and t.bbox[0] - c.cx <= r + 2.5 * u:
                keyed.append(c)
                break
    # legend entries stand in one column or one row
    for a in keyed:
        line = [b for b in keyed if abs(b.cx - a.cx) <= 1.0 or abs(b.cy - a.cy) <= 1.0]
        if len(size_classes([b.d for b in line])) >= 2:
            return True
    return False


def _area_encoding(an: FigureAnalysis, fig: Figure) -> tuple[str, dict] | None:
    if an.source != "vector":
        return None
    # Values need a scale to be values: a value axis, or values printed on the bars. Without
    # one, cuboids and circles of graded sizes are drawn objects (the layers of a network
    # diagram, the dots of a game board), not an encoding.
    if not (any(a.clean and not a.index_like for a in an.axes) or an.bar_labels):
        return None
    u = an.unit_size
    faces = oblique_faces(an, max(u, 6.0))
    if len(faces) >= 3:
        # one oblique projection: the slanted edges of all faces point the same way
        main = sorted(f.slant for f in faces)[len(faces) // 2]
        same = [f for f in faces if abs(f.slant - main) <= 8]
        if len(same) >= 3:
            return ("3D", {"oblique_faces": len(same), "slant_degrees": round(main, 1),
                           "faces": [[round(v, 1) for v in f.bbox] for f in same[:8]]})
    cs = circles(an, 1.0)
    if len(cs) >= 5:
        ds = [c.d for c in cs]
        classes = size_classes(ds)
        if len(classes) >= 3 and max(ds) >= 2.5 * min(ds) and max(ds) >= 1.5 * u:
            text = " ".join([_caption(fig)] + [t.text for t in an.tokens if t.value is None])
            if not _SIZE_WORDS.search(text) and not _size_legend(an, cs):
                return ("bubbles", {"circles": len(cs), "size_classes": len(classes),
                                    "diameters": [round(d, 1) for d in sorted(ds)[:12]],
                                    "size_legend": False})
    return None


@rule(
    "FL407",
    "value-as-area-or-volume",
    severity="warning",
    dimension="misleading_risk",
    taxonomy="value_as_area",
)
def value_as_area_or_volume(fig: Figure, ctx: Context):
    """Values drawn as 3D volumes (pseudo-3D bars) or as bubble areas without a size legend.

    What it does:
    Reads the vector paths of the figure. Reports pseudo-3D bars: three or more
    filled parallelograms with one pair of horizontal or vertical edges and one
    pair of slanted edges, all slanted the same way (the top and side faces that
    office tools add to bars). Reports a bubble chart: five or more filled circles
    of at least three clearly different sizes (largest at least 2.5 times the
    smallest diameter) with no size legend (circles of graded sizes beside
    numbers) and no text or caption saying what the size means. Only charts are
    checked: a figure with a numeric value axis or values printed on its bars.
    Cuboids and circles in a figure without one (the layers of a network diagram,
    the dots of a game board) are drawn objects, not values. Raster figures are
    not checked: the vector paths are the evidence.

    Why is this bad?
    Readers judge areas and volumes poorly and inconsistently: a bubble twice as
    wide holds four times the value, a 3D bar's top and side faces add length
    that is not data and hide where the bar ends on the axis (taxonomy: value as
    area/volume).

    Example:
    Bars with a "3-D" effect from a spreadsheet tool; `plt.scatter(x, y, s=users)`
    with no size legend.

    Use instead:
    Flat 2D bars; for a third variable, a size legend
    (`ax.legend(*sc.legend_elements("sizes"))`) or, better, a position or a
    second panel.
    """
    for an in analyses(fig, ctx.paper):
        found = _area_encoding(an, fig)
        if found is None:
            continue
        kind, extra = found
        ev = _base_evidence(an)
        ev.update({"encoding": kind, **extra})
        if kind == "3D":
            msg = (f"bars are drawn with 3D faces ({extra['oblique_faces']} slanted top/side faces): "
                   "the volume effect distorts the lengths that carry the values")
        else:
            msg = (f"a value is mapped to marker area ({extra['circles']} circles in {extra['size_classes']} sizes) "
                   "without a size legend: areas cannot be read back")
        yield ctx.finding(msg, figure=fig, evidence=ev, origin="figure", location=_location(fig, an, None))
        return
