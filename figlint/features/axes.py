"""Value axes from positioned text: tick columns and rows, their scale, direction and spacing.

Works in any unit (PDF points or pixels) on Tokens: text with a box. Numeric
tokens that stack in a column (aligned right, left or centred edges) or line up
in a row, with values that change monotonically with position, are candidate
axes. An axis is *clean* when its values fit position linearly (or log-linearly)
within 3 % of its range: a strong sign that the numbers are tick labels and not
data labels or a table column. Direction follows the page: y grows downward, so
a normal vertical axis has values decreasing with y.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from statistics import median

from figlint.features.numbers import nice_step, parse_number

BBox = tuple[float, float, float, float]
FIT_TOL = 0.03  # max residual of the position fit, as a fraction of the value range


@dataclass
class Token:
    text: str
    bbox: BBox
    conf: float = 1.0
    value: float | None = None
    kind: str = ""  # number kind (plain, percent, pow10, ...) for numeric tokens
    rotated: bool = False
    size: float = 0.0  # font size in pt, when known (vector text); 0: unknown (OCR)
    # writing direction of vector text (TextSpan.dir: (0, -1) up the page, (0, 1) down it);
    # None where not known (OCR, whose rotated text is told by its box)
    dir: tuple[float, float] | None = None

    @property
    def cx(self) -> float:
        return (self.bbox[0] + self.bbox[2]) / 2

    @property
    def cy(self) -> float:
        return (self.bbox[1] + self.bbox[3]) / 2

    @property
    def h(self) -> float:
        return self.bbox[3] - self.bbox[1]

    @property
    def w(self) -> float:
        return self.bbox[2] - self.bbox[0]


@dataclass
class Tick:
    value: float
    pos: float  # y centre (vertical axis) or x centre (horizontal axis)
    text: str
    bbox: BBox = (0.0, 0.0, 0.0, 0.0)


@dataclass
class Axis:
    orient: str  # "y" (a vertical column of ticks) or "x" (a horizontal row)
    ticks: list[Tick]
    scale: str  # linear | log | irregular
    slope: float  # value (or log10 value) per unit of position
    intercept: float
    residual: float  # max fit error / value range
    cross: float  # x of the column's anchor (y axes) or y of the row (x axes)
    lo: float  # extent of the labels along the axis
    hi: float
    box: BBox  # union of the label boxes
    align: str = ""  # which edge the column's labels share: right, left, center
    side: str = ""  # left/right (y), bottom/top (x), assigned by the analysis
    even_spacing: bool = True
    nice: bool = True  # value step is 1, 2, 2.5 or 5 × 10^k
    title: str = ""
    # the title with each word's sub- and superscripts joined to it ("Teff (K)" where the title
    # reads "T (K)"): what names a field's convention (FL403); the rules that match titles with
    # captions read `title`, whose scripts stand apart
    title_scripts: str = ""

    @property
    def edge_spread(self) -> tuple[float, float]:
        """Spread (max - min) of the labels' left edges and of their right edges."""
        x0 = [t.bbox[0] for t in self.ticks]
        x1 = [t.bbox[2] for t in self.ticks]
        return max(x0) - min(x0), max(x1) - min(x1)

    @property
    def values(self) -> list[float]:
        return [t.value for t in self.ticks]

    @property
    def step(self) -> float:
        vals = sorted(self.values)
        steps = [b - a for a, b in zip(vals, vals[1:]) if b > a]
        return min(steps) if steps else 0.0

    @property
    def increasing(self) -> str:
        """Direction in which values grow: up/down (y axes), right/left (x axes)."""
        grows_with_pos = self.slope > 0
        if self.orient == "y":
            return "down" if grows_with_pos else "up"
        return "right" if grows_with_pos else "left"

    @property
    def inverted(self) -> bool:
        return self.increasing in ("down", "left")

    @property
    def clean(self) -> bool:
        return self.scale in ("linear", "log") and len(self.ticks) >= 3

    @property
    def index_like(self) -> bool:
        """Consecutive small integers (0,1,2,... or 1,2,3,...): row or category indices."""
        vals = sorted(self.values)
        return all(float(v).is_integer() for v in vals) and self.step == 1 and vals[0] in (0, 1) and vals[-1] < 100

    def value_at(self, pos: float) -> float:
        v = self.intercept + self.slope * pos
        return 10**v if self.scale == "log" else v

    def pos_of(self, value: float) -> float | None:
        if self.slope == 0:
            return None
        if self.scale == "log":
            if value <= 0:
                return None
            value = math.log10(value)
        return (value - self.intercept) / self.slope

    def to_dict(self) -> dict:
        d = asdict(self)
        d["ticks"] = [{"value": t.value, "pos": round(t.pos, 2), "text": t.text,
                       "bbox": [round(v, 1) for v in t.bbox]} for t in self.ticks]
        d["box"] = [round(v, 2) for v in self.box]
        d["increasing"] = self.increasing
        d["inverted"] = self.inverted
        d["clean"] = self.clean
        d["index_like"] = self.index_like
        for k in ("slope", "intercept", "residual", "cross", "lo", "hi"):
            d[k] = round(d[k], 6)
        return d


_OCR_DOLLAR = re.compile(r"^([-\u2212]?)S(?=[\d.])")


def split_numbers(t: Token) -> list[Token] | None:
    """A line OCR read across several neighbouring number labels ("10 15 20 25": a row of
    tick labels; "17.44 18.14": two bars' value labels) as one token per number, each with
    its share of the box by characters; None when the text is not two or more numbers (or is
    one number printed with space separators, "12 500")."""
    parts = t.text.split()
    if len(parts) < 2 or t.rotated or parse_number(t.text) is not None:
        return None
    nums = [parse_number(p) for p in parts]
    if any(n is None for n in nums):
        return None
    text = t.text.strip()
    x0, y0, x1, y1 = t.bbox
    w = (x1 - x0) / max(len(text), 1)
    out, at = [], 0
    for p, n in zip(parts, nums):
        i = text.index(p, at)
        at = i + len(p)
        out.append(Token(p, (x0 + w * i, y0, x0 + w * at, y1), t.conf, n.value, n.kind))
    return out


def numeric_tokens(tokens: list[Token]) -> list[Token]:
    out = []
    # OCR reads a "$" as "S" ("S0.60" among "$0.50", "$1.00"); where the figure prints dollar
    # labels, an S directly before a number is taken as one. Without other dollar labels an
    # "S2" stays a name (a subject, a supplement figure).
    dollars = sum(1 for t in tokens if not t.rotated and "$" in t.text and parse_number(t.text) is not None) >= 2
    for t in tokens:
        if t.rotated:
            continue
        n = parse_number(t.text)
        if n is None and dollars and _OCR_DOLLAR.match(t.text.strip()):
            n = parse_number(_OCR_DOLLAR.sub(r"\1$", t.text.strip()))
        if n is not None:
            t.value, t.kind = n.value, n.kind
            out.append(t)
        else:
            out += split_numbers(t) or []
    return out


def _dash_led(t: Token) -> bool:
    """A label read with a leading dash glued to it: a minus sign, or the axis' tick mark."""
    text = t.text.strip()
    return t.value is not None and t.value < 0 and text[:1] in "-\u2212\u2013\u2014" and text[1:2] not in (" ",)


def _tick_dash_reading(run: list[Token]) -> list[Token] | None:
    """The column read with leading dashes as tick marks, when that is the only consistent reading.

    A right-hand axis has its tick marks just left of the labels, and OCR glues them on as
    minus signs: "-2,880", "2,910", "-2,850" (some dashes dropped). Signed, such a column is
    not one monotonic scale; without the dashes it is. A genuine axis through zero
    (10, 5, 0, -5) is monotonic as printed and is never re-read.
    """
    dashed = [t for t in run if _dash_led(t)]
    if not dashed or len(dashed) == len(run) or any(t.value is not None and t.value < 0 for t in run if t not in dashed):
        return None
    if _monotone([t.value for t in sorted(run, key=lambda t: t.cy)]):
        return None
    out = []
    for t in run:
        if t in dashed:
            t = Token(text=t.text.strip()[1:], bbox=t.bbox, conf=t.conf, value=-t.value, kind=t.kind, rotated=t.rotated)
        out.append(t)
    return out


def _digits(t: Token) -> int:
    return sum(c.isdigit() for c in t.text.rstrip("0. -%")) + (2 if "." in t.text else 0)


def _drop_overlaps(run: list[Token], orient: str, unit: float) -> list[Token] | None:
    """The column without the labels that overlap a neighbour along the axis.

    Tick labels of one axis never overlap; a value badge (the last price, a marked value)
    printed over the column does. Of an overlapping pair the more precise number is the
    badge ("2,709.80" over "2,730"). None when more than a quarter of the column overlaps
    or fewer than five labels remain.
    """
    key = (lambda t: (t.bbox[1], t.bbox[3])) if orient == "y" else (lambda t: (t.bbox[0], t.bbox[2]))
    toks = sorted(run, key=lambda t: key(t)[0])
    drop: set[int] = set()
    for a, b in zip(toks, toks[1:]):
        if key(b)[0] < key(a)[1] - 0.25 * unit:
            drop.add(id(a) if _digits(a) > _digits(b) else id(b))
    if not drop:
        return run
    # Boxes OCR draws loose (a small image enlarged for reading) overlap a little along a
    # column whose labels are nonetheless one evenly spaced nice scale: no badge among them.
    whole = make_axis(orient, run)
    if whole is not None and whole.scale == "linear" and whole.nice and len(whole.ticks) == len(run):
        pos = sorted(t.pos for t in whole.ticks)
        gaps = [b - a for a, b in zip(pos, pos[1:])]
        if min(gaps) > 0.75 * median(gaps) and max(gaps) < 1.25 * median(gaps):
            return run
    if len(drop) > 0.25 * len(run) or len(run) - len(drop) < 5:
        return None  # only a long column survives a dropped label: short ones are not axes
    return [t for t in run if id(t) not in drop]


def _fit(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """Least squares y = a + b x; returns (a, b, max |residual| / range of y)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return my, 0.0, float("inf")
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    rng = max(ys) - min(ys)
    if rng == 0:
        return a, b, float("inf")
    return a, b, max(abs(a + b * x - y) for x, y in zip(xs, ys)) / rng


def _monotone(vals: list[float]) -> bool:
    inc = all(b > a for a, b in zip(vals, vals[1:]))
    dec = all(b < a for a, b in zip(vals, vals[1:]))
    return inc or dec


def _longest_monotone(vals: list[float], sign: int) -> list[int]:
    """Indices of a longest strictly increasing (sign 1) or decreasing (sign -1) subsequence."""
    n = len(vals)
    best = [1] * n
    prev = [-1] * n
    for i in range(n):
        for j in range(i):
            if sign * (vals[i] - vals[j]) > 0 and best[j] + 1 > best[i]:
                best[i], prev[i] = best[j] + 1, j
    i = max(range(n), key=lambda k: best[k])
    out = []
    while i != -1:
        out.append(i)
        i = prev[i]
    return out[::-1]


def _even(positions: list[float]) -> bool:
    gaps = [b - a for a, b in zip(positions, positions[1:])]
    if not gaps or min(gaps) <= 0:
        return False
    base = min(gaps)
    # Gaps may be multiples of the base gap when a label was not read.
    return all(abs(g / base - round(g / base)) < 0.12 for g in gaps)


def make_axis(orient: str, toks: list[Token], align: str = "", _dropping: bool = False) -> Axis | None:
    """An Axis from tokens ordered along it, or None when they are not one monotonic scale."""
    key = (lambda t: t.cy) if orient == "y" else (lambda t: t.cx)
    toks = sorted(toks, key=key)
    # Drop stray values (OCR misreads, a data label) when the rest — at least three
    # quarters of the column — is monotonic.
    vals = [t.value for t in toks]
    if not _monotone(vals):
        if len(toks) < 4:
            return None
        keep = max(_longest_monotone(vals, 1), _longest_monotone(vals, -1), key=len)
        if len(keep) < max(3, 0.75 * len(toks)):
            return None
        toks = [toks[i] for i in keep]
    pos = [key(t) for t in toks]
    vals = [t.value for t in toks]
    a, b, res = _fit(pos, vals)
    scale = "linear" if res <= FIT_TOL else "irregular"
    if scale != "linear" and all(v > 0 for v in vals):
        la, lb, lres = _fit(pos, [math.log10(v) for v in vals])
        if lres <= FIT_TOL and max(vals) / min(vals) >= 50:
            a, b, res, scale = la, lb, lres, "log"
    xs0 = [t.bbox[0] for t in toks]
    ys0 = [t.bbox[1] for t in toks]
    xs1 = [t.bbox[2] for t in toks]
    ys1 = [t.bbox[3] for t in toks]
    box = (min(xs0), min(ys0), max(xs1), max(ys1))
    if orient == "y":
        cross = {"right": median(xs1), "left": median(xs0)}.get(align, median(t.cx for t in toks))
    else:
        cross = median(t.cy for t in toks)
    ax = Axis(orient=orient, ticks=[Tick(t.value, key(t), t.text.strip(), t.bbox) for t in toks], scale=scale,
              slope=b, intercept=a, residual=res if math.isfinite(res) else 9.99, cross=cross,
              lo=min(pos), hi=max(pos), box=box, align=align, even_spacing=_even(pos))
    if scale == "linear":
        ax.nice = nice_step(ax.step)
    if len(toks) >= 5 and not (ax.scale == "linear" and ax.nice) and ax.scale != "log" and not _dropping:
        # one misread label or a data label sitting in the column ("47.8" among 40, 45, 50)
        best = None
        for i in range(len(toks)):
            alt = make_axis(orient, toks[:i] + toks[i + 1:], align, _dropping=True)
            if alt is not None and alt.scale == "linear" and alt.nice and (best is None or alt.residual < best.residual):
                best = alt
        if best is not None:
            return best
    return ax


def oblique(ax: Axis, unit: float) -> bool:
    """Whether the labels run along a slanted line: the receding edge of a 3D plot's box.

    A tick column (row) on a flat chart shares one edge or its centres; labels along a
    box edge drawn in perspective ("250000, 251000, ... 257000" climbing to the right)
    all drift sideways with their position, and only chain into a "column" because
    each is a few pixels from the next. Measured on the least drifting anchor (left,
    right or centre), which a flat column keeps within a fraction of a label's height.
    """
    if len(ax.ticks) < 3 or ax.hi - ax.lo <= 0:
        return False
    if ax.orient == "y":
        anchors = ([t.bbox[0] for t in ax.ticks], [t.bbox[2] for t in ax.ticks],
                   [(t.bbox[0] + t.bbox[2]) / 2 for t in ax.ticks])
    else:
        anchors = ([t.bbox[1] for t in ax.ticks], [t.bbox[3] for t in ax.ticks],
                   [(t.bbox[1] + t.bbox[3]) / 2 for t in ax.ticks])
    pos = [t.pos for t in ax.ticks]
    for a in anchors:
        _, slope, res = _fit(pos, a)
        # every anchor drifts, steadily (a fit within a fifth of the drift), at least 1 px
        # sideways per 6 px along, and by more than a label's height over the run
        if max(a) - min(a) <= unit or abs(slope) < 0.15 or res > 0.2:
            return False
    return True


def _cluster(items: list[tuple[float, Token]], tol: float) -> list[list[Token]]:
    items = sorted(items, key=lambda it: it[0])
    groups: list[list[tuple[float, Token]]] = []
    for it in items:
        if groups and it[0] - groups[-1][-1][0] <= tol:
            groups[-1].append(it)
        else:
            groups.append([it])
    return [[t for _, t in g] for g in groups]


def _split_runs(toks: list[Token], orient: str, unit: float) -> list[list[Token]]:
    """Split an aligned group where the gap between neighbours is far larger than usual."""
    key = (lambda t: t.cy) if orient == "y" else (lambda t: t.cx)
    toks = sorted(toks, key=key)
    if len(toks) < 3:
        return [toks]
    gaps = [key(b) - key(a) for a, b in zip(toks, toks[1:])]
    typical = median(gaps)
    runs, cur = [], [toks[0]]
    for g, t in zip(gaps, toks[1:]):
        if g > max(3.5 * typical, 8 * unit):
            runs.append(cur)
            cur = [t]
        else:
            cur.append(t)
    runs.append(cur)
    return runs


def _stacked_lines(run: list[Token]) -> bool:
    """Numbers set line under line, each less than 1.6 times its font size below the last: the
    entries of a legend ("8, 6, 4, 2" beside markers: 1.2 to 1.5 in LaTeX and matplotlib) or of
    a table column. A value axis spreads its labels along the plot. Measured against the font
    size, not the span's box: a font's box is 1.0 (Computer Modern) to 1.7 (DejaVu) times its
    size, and a matplotlib axis of seven ticks at 1.74 times the size read as a legend. Without
    a size, the box height stands in for it at 1.2."""
    tops = sorted(t.bbox[1] for t in run)
    pitch = median(b - a for a, b in zip(tops, tops[1:]))
    sizes = [t.size for t in run if t.size > 0]
    if sizes:
        return pitch < 1.6 * median(sizes)
    return pitch < 1.2 * median(t.h for t in run)


def find_axes(tokens: list[Token], printed_boxes: bool = False) -> list[Axis]:
    """Every candidate tick column (y axis) and tick row (x axis) among numeric tokens.
    `printed_boxes`: the tokens' boxes are the font's own (vector text), so a column of
    numbers set at line pitch is told from an axis (OCR boxes of an enlarged thumbnail
    overlap a little however far apart the labels stand)."""
    nums = numeric_tokens(tokens)
    if len(nums) < 3:
        return []
    unit = median(t.h for t in nums)
    found: dict[tuple, Axis] = {}

    def consider(orient: str, group: list[Token], align: str) -> None:
        for run in _split_runs(group, orient, unit):
            if len(run) < 3:
                continue
            # Tick labels of one axis do not overlap along it.
            run = _drop_overlaps(run, orient, unit)
            if run is None or len(run) < 3:
                continue
            if orient == "y" and printed_boxes and _stacked_lines(run):
                continue  # a legend or table column of numbers, set line under line: no scale
            ax = make_axis(orient, run, align)
            alt_run = _tick_dash_reading(run) if orient == "y" else None
            if alt_run:
                alt = make_axis(orient, alt_run, align)
                if alt is not None and alt.clean and (ax is None or not ax.clean or len(alt.ticks) >= len(ax.ticks)):
                    ax = alt
            if ax is None:
                continue
            ident = (orient, frozenset(id(t) for t in run))
            best = found.get(ident)
            if best is None or ax.residual < best.residual:
                found[ident] = ax

    tol = max(0.45 * unit, 1.5)
    for align, anchor in (("right", lambda t: t.bbox[2]), ("left", lambda t: t.bbox[0]), ("center", lambda t: t.cx)):
        for group in _cluster([(anchor(t), t) for t in nums], tol):
            consider("y", group, align)
    for group in _cluster([(t.cy, t) for t in nums], max(0.35 * unit, 1.0)):
        consider("x", group, "")
    axes = list(found.values())
    # Keep the best-fitting reading of a token set and drop subsets of a longer axis.
    axes.sort(key=lambda a: (-len(a.ticks), a.residual))
    kept: list[Axis] = []
    for ax in axes:
        mine = {(t.text, round(t.pos, 1)) for t in ax.ticks}
        if any(k.orient == ax.orient and mine <= {(t.text, round(t.pos, 1)) for t in k.ticks} for k in kept):
            continue
        kept.append(ax)
    return kept
