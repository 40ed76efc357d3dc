"""FL409: an axis whose title names a bounded quantity and whose printed ticks leave its bounds.

Three bounded quantities, each named by its axis title: a probability, fraction or
proportion lies in [0, 1]; a share of a whole given in percent (accuracy (%), share (%))
lies in [0, 100]; a count, duration or size is never negative. The ticks are the axis'
own printed labels (features/axes.py, a clean linear or log scale of three or more).
Precision first: words that make a title name something unbounded ("change", "log",
"density", "error", "difference") keep it out, a multiplier printed at the axis' end
("1e-3", "×10⁻³") changes what the ticks mean, and only vector figures are read: OCR
drops decimal points and minus signs, exactly the characters these bounds turn on.
"""

from __future__ import annotations

import re

from figlint.features import FigureAnalysis, analyses
from figlint.features.axes import Axis
from figlint.lazyre import lazy
from figlint.model import Figure
from figlint.rules.registry import Context, figure_location, rule

_PROB = lazy(r"\b(?:probabilit(?:y|ies)|proportions?|fractions?|(?:true|false)\s+positive\s+rate|tpr|fpr)\b", re.I)
_PERCENT = lazy(r"%|\bpercent(?:age)?s?\b|\bpct\b", re.I)
_SHARE = lazy(
    r"\b(?:acc(?:uracy|\.)?|share|proportion|fraction|coverage|precision|recall|f1|f-score|"
    r"success(?:\s+rate)?|win\s+rate|hit\s+rate|pass\s+rate|positive\s+rate|top-?[15]|correct(?:ly)?|agreement|"
    r"survival)\b", re.I)
_COUNT = lazy(
    r"\b(?:counts?|number\s+of|#\s*of|no\.\s+of|duration|run\s?time|running\s+time|latency|"
    r"execution\s+time|wall[- ]clock(?:\s+time)?|training\s+time|inference\s+time|memory|"
    r"file\s+size|model\s+size|population)\b|^#\s*\w", re.I)
# words that make the quantity unbounded or signed: changes, differences, logs, densities,
# errors and residuals, effect sizes, rates of change, scores and transforms
_UNBOUNDED = lazy(
    r"\b(?:change[sd]?|growth|improve(?:ment|d)?|increase[sd]?|decrease[sd]?|reduction|gain|drop|"
    r"degradation|difference|diff|delta|relative|rel\.|error|residuals?|deviation|bias|anomal(?:y|ies)|"
    r"log(?:\d+|it|s)?|ln|density|densities|odds|ratio|excess|overhead|speed-?up|slowdown|return|"
    r"z-?score|standardi[sz]ed|normali[sz]ed|centered|centred|effect|versus|vs\.?|minus|net|"
    r"shift|offset|lift|advantage|margin|saved|savings|per|sum|total|cumulative|aggregated?)\b|[Δδ∆±−]|/", re.I)
_MULTIPLIER = lazy(r"[×x]\s*10|\b1e[-+−]?\d|10\^|‰|\bppm\b|\bbps?\b", re.I)
_OFFSET_TEXT = lazy(r"^(?:[×x]\s*)?10\^?[-+−]?\d+$|^1e[-+−]?\d+$|^[+−-]\s*\d+(?:\.\d+)?(?:e[-+−]?\d+)?$", re.I)
_EPS = 1e-9
# what may follow the bounded word when it is the head of the title ("probability of
# success", "fraction (train)"); any other word makes it a modifier of something unbounded
# ("probability density", misspelt or not; "probability mass"; "fraction bias")
_HEAD_AFTER = lazy(r"^\s*(?:$|of\b|that\b|to\b|in\b|for\b|at\b|with\b|[(\[,:;])", re.I)


def _head(title: str) -> bool:
    """Whether a probability word in the title is its head noun, not a modifier."""
    return any(_HEAD_AFTER.match(title[m.end():]) for m in _PROB.finditer(title))


def _title(an: FigureAnalysis, ax: Axis) -> str:
    """The axis title's first line: the words nearest the tick labels and those on their line.

    The analysis' title (features._axis_title) may join two lines, and the second is often
    not the title (a panel's heading printed under its x axis: "sample size" over a line
    that begins "Probabilities for ...")."""
    u = an.unit_size
    words = [t for t in an.tokens if t.value is None and any(c.isalpha() for c in t.text)]
    if ax.orient == "y":
        near = [t for t in words if t.rotated and abs(t.cy - (ax.lo + ax.hi) / 2) < (ax.hi - ax.lo) / 2 + 2 * u
                and (t.bbox[2] <= ax.box[0] + u and ax.box[0] - t.bbox[2] < 4 * u
                     or t.bbox[0] >= ax.box[2] - u and t.bbox[0] - ax.box[2] < 4 * u)]
        if not near:
            return ""
        first = min(near, key=lambda t: min(abs(t.bbox[2] - ax.box[0]), abs(t.bbox[0] - ax.box[2])))
        line = sorted((t for t in near if abs(t.cx - first.cx) <= 0.3 * u), key=lambda t: -t.cy)
    else:
        near = [t for t in words if not t.rotated and t.bbox[1] >= ax.box[3] - 0.2 * u
                and t.bbox[1] - ax.box[3] < 3 * u and ax.lo - 2 * u <= t.cx <= ax.hi + 2 * u]
        if not near:
            return ""
        first = min(near, key=lambda t: t.bbox[1])
        line = sorted((t for t in near if abs(t.cy - first.cy) <= 0.3 * u), key=lambda t: t.bbox[0])
    return " ".join(" ".join(t.text.split()) for t in line)


def _multiplied(an: FigureAnalysis, ax: Axis) -> bool:
    """Whether a multiplier or offset is printed at the axis' far end (matplotlib's "1e-3",
    "×10⁻³" or "+1.5e3" above a y axis or right of an x axis): the ticks are scaled."""
    u = an.unit_size
    ticks = {id(t) for t in an.tokens if any(t.bbox == k.bbox for k in ax.ticks)}
    for t in an.tokens:
        if id(t) in ticks:
            continue
        text = t.text.strip()
        if not _OFFSET_TEXT.match(text) and not _MULTIPLIER.search(text):
            continue
        if ax.orient == "y":
            if ax.box[0] - 2 * u <= t.cx <= ax.box[2] + 8 * u and ax.lo - 4 * u <= t.cy <= ax.lo:
                return True
            if ax.box[0] - 2 * u <= t.cx <= ax.box[2] + 8 * u and ax.hi <= t.cy <= ax.hi + 4 * u:
                return True
        else:
            if ax.hi <= t.cx <= ax.hi + 8 * u and abs(t.cy - ax.cross) <= 4 * u:
                return True
    return False


def _pieces(an: FigureAnalysis, ax: Axis) -> bool:
    """Whether the tick labels read are pieces of longer labels: text touching a tick on its
    line (the "0." of "0.75" in a span of its own, the "10" and the minus of a raised
    exponent "10⁻²" whose "2" the reading took for a tick), or a tick printed with a
    leading zero ("00"). Those values are not what the axis prints."""
    u = an.unit_size
    boxes = [k.bbox for k in ax.ticks]
    for k in ax.ticks:
        if re.match(r"^[-−]?0\d", k.text.strip()):
            return True
    for t in an.tokens:
        if t.bbox in boxes:
            continue
        for b in boxes:
            if min(t.bbox[3], b[3]) - max(t.bbox[1], b[1]) <= 0:
                continue  # not on the tick's line
            gap_left = b[0] - t.bbox[2]
            gap_right = t.bbox[0] - b[2]
            text = t.text.strip()
            if -0.2 * u <= gap_left <= 0.4 * u and re.search(r"[\d.,\-−×x^]$", text):
                return True
            if -0.2 * u <= gap_right <= 0.4 * u and re.match(r"^[\d.,^]", text):
                return True
    return False


def contradiction(an: FigureAnalysis, ax: Axis) -> tuple[str, str, list[float]] | None:
    """(kind, bounds, offending values) when the axis' title names a bounded quantity that
    its printed ticks leave; None otherwise."""
    if not ax.clean or len(ax.ticks) < 3:
        return None
    vals = ax.values
    lo, hi = min(vals), max(vals)
    if lo >= -_EPS and hi <= 1 + _EPS:
        return None  # inside every bound tested here
    title = _title(an, ax)
    if not title or _UNBOUNDED.search(title) or _MULTIPLIER.search(title):
        return None
    percent = bool(_PERCENT.search(title)) or any("%" in t.text for t in ax.ticks)
    out = None
    if _PROB.search(title) and not percent and _head(title):
        bad = [v for v in vals if v < -_EPS or v > 1 + _EPS]
        if bad:
            out = ("probability", "[0, 1]", bad)
    elif percent and _SHARE.search(title):
        bad = [v for v in vals if v < -_EPS or v > 100 + _EPS]
        if bad:
            out = ("percentage", "[0, 100]", bad)
    elif _COUNT.search(title) and not percent:
        bad = [v for v in vals if v < -_EPS]
        if bad:
            out = ("count", "≥ 0", bad)
    if out is None or _multiplied(an, ax) or _pieces(an, ax):
        return None
    return out


_WHAT = {"probability": "a probability, fraction or proportion (between 0 and 1)",
         "percentage": "a share of a whole in percent (between 0 and 100)",
         "count": "a count, duration or size (never negative)"}


@rule(
    "FL409",
    "axis-unit-contradiction",
    severity="warning",
    dimension="misleading_risk",
    taxonomy="unclear_encoding",
)
def axis_unit_contradiction(fig: Figure, ctx: Context):
    """An axis whose title names a bounded quantity and whose printed tick values leave its bounds.

    What it does:
    Reads each value axis of a vector chart — a clean linear or logarithmic scale of at
    least three tick labels — and its title, and reports the axis when the title names
    a quantity with fixed bounds that a printed tick value breaks: a probability,
    fraction or proportion (not in percent) with a tick below 0 or above 1; a share of
    a whole in percent (the title or the ticks say %, and the title names accuracy, a
    share, coverage, precision, recall, a success rate...) with a tick below 0 or above
    100; a count, duration or size (count, number of, runtime, latency, memory...) with
    a negative tick. Titles that name a change, difference, error, log, density, ratio,
    score or any other signed or unbounded quantity ("change (%)", "log probability",
    "error (%)", "Δ count") are not checked, nor an axis whose ticks are scaled by a
    multiplier printed at its end ("1e-3", "×10⁻³") or in its title. Raster charts are
    not read: OCR drops the decimal points and minus signs these bounds turn on.

    Why is this bad?
    A probability of 1.2, an accuracy of 110 % or −20 runs cannot exist. Either the
    axis is mislabelled (the values are percentages, not probabilities; a difference,
    not a count) or its range was stretched past what the quantity can take; both make
    the reader doubt what is plotted, and a range that extends past the bound makes the
    data look smaller than they are (taxonomy: unclear encoding).

    Example:
    `ax.set_ylabel("probability")` with `ax.set_ylim(0, 1.5)`: ticks 0.0 to 1.4 on a
    quantity that ends at 1; or `ax.set_ylabel("accuracy (%)")` with ticks up to 120.

    Use instead:
    End the axis at the quantity's bounds (`ax.set_ylim(0, 1)`), make the title say
    what is plotted ("probability (%)" for values 0–100, "change in accuracy (pp)" for
    differences), and leave room for labels with the axes' margins, not by extending
    the scale past its bound.
    """
    for an in analyses(fig, ctx.paper):
        if an.source != "vector":
            continue
        for ax in an.axes:
            hit = contradiction(an, ax)
            if hit is None:
                continue
            kind, bounds, bad = hit
            title = _title(an, ax)
            ev = {"source": an.source, "unit": an.unit, "axis": ax.orient, "axis_title": title,
                  "kind": kind, "bounds": bounds, "axis_ticks": [t.text for t in ax.ticks],
                  "outside": bad}
            if "file" in an.evidence:
                ev["file"] = an.evidence["file"]
            loc = figure_location(fig)
            if an.unit == "pt" and loc.line is None and "file" not in an.evidence:
                loc.bbox = tuple(round(v, 2) for v in ax.box)
            which = "vertical" if ax.orient == "y" else "horizontal"
            shown = ", ".join(t.text for t in sorted(ax.ticks, key=lambda t: t.value) if t.value in bad)
            fix = "fix the range or say what the values are"
            if kind == "probability" and min(ax.values) >= 0 and 10 <= max(ax.values) <= 100:
                fix = "the values look like percentages: say so in the title"
            yield ctx.finding(
                f"{which} axis '{title[:60]}' names {_WHAT[kind]}, but its ticks print {shown}, "
                f"outside {bounds}: {fix}",
                figure=fig, evidence=ev, origin="figure", location=loc,
            )
            return
