"""The records every stage shares: Paper, Figure, Caption, CitingSite, Finding, Scores.

Plain dataclasses (cheap to import, easy to serialise). Ingestion fills them,
binding attaches captions and citing sites, rules read them and emit Findings,
the judge adds Scores, and reporters only read. Coordinates are PDF points
(1/72 in) in PyMuPDF's page space: origin top-left, y grows downward.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from operator import itemgetter
from typing import Any

BBox = tuple[float, float, float, float]


def union(boxes) -> BBox:
    """The smallest box holding every box of `boxes` (any iterable, not empty)."""
    boxes = list(boxes)
    return (min(map(_X0, boxes)), min(map(_Y0, boxes)), max(map(_X1, boxes)), max(map(_Y1, boxes)))


_X0, _Y0, _X1, _Y1 = itemgetter(0), itemgetter(1), itemgetter(2), itemgetter(3)


def overlap_share(a: BBox, b: BBox) -> float:
    """The share of the smaller box that the two boxes have in common (0 when they do not
    meet; boxes that meet have areas above 0)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))

SEVERITIES = ("note", "warning", "error")  # ordered, lowest first
DIMENSIONS = (
    "visual_clarity",
    "structure_layout",
    "caption_consistency",
    "context_consistency",
    "misleading_risk",
)
DIMENSION_ABBREV = {
    "visual_clarity": "VC",
    "structure_layout": "SL",
    "caption_consistency": "C",
    "context_consistency": "CTX",
    "misleading_risk": "MR",
}


def severity_rank(level: str) -> int:
    return SEVERITIES.index(level)


@dataclass
class Location:
    """Where something is: a source file and line, and/or a PDF page and box."""

    file: str | None = None  # path as the user gave it / relative to the paper root
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based
    page: int | None = None  # 1-based physical PDF page
    bbox: BBox | None = None

    def short(self) -> str:
        parts = [self.file or "?"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        text = ":".join(parts)
        if self.page is not None and self.line is None:
            text += f" (page {self.page})"
        return text


@dataclass
class TextSpan:
    """A run of text inside a figure, with its printed size."""

    text: str
    size: float  # font size in pt as printed
    font: str = ""
    bbox: BBox = (0.0, 0.0, 0.0, 0.0)
    color: int | None = None  # sRGB as 0xRRGGBB
    # the writing direction of its line, a unit vector with y down as MuPDF gives it ((1, 0)
    # left to right, (0, -1) up the page); None where not known
    dir: tuple[float, float] | None = None


@dataclass
class RasterImage:
    """A raster image placed in a figure, with its resolution as printed."""

    width_px: int
    height_px: int
    bbox: BBox  # displayed box in points: the part that prints, cut to its clip and the page
    dpi_x: float  # pixels per inch at the displayed size
    dpi_y: float
    xref: int | None = None
    name: str = ""
    digest: str = ""  # content hash, for caches
    # how dpi_x/dpi_y were found: "placement" (printed box in a PDF), "metadata" (the
    # file's own DPI, for a standalone image) or "assumed" (standalone, none recorded)
    dpi_source: str = "placement"
    # the whole image's box when a clip (or the page edge) cuts what prints: its pixels map
    # onto this box, not onto `bbox` (None: the same as bbox)
    placed: BBox | None = None

    @property
    def effective_dpi(self) -> float:
        return min(self.dpi_x, self.dpi_y)


@dataclass
class Drawing:
    """One vector path (or a merged group) inside a figure."""

    bbox: BBox
    stroke: tuple[float, ...] | None = None  # RGB 0..1
    fill: tuple[float, ...] | None = None
    width: float | None = None  # line width in pt
    items: int = 0  # number of path segments
    dash: str | None = None  # "solid" | "dashed" | "dotted" for stroked paths (ingest/paths.py)
    lines: list[list[tuple[float, float]]] = field(default_factory=list)  # connected vertex runs, thinned
    paths: int = 1  # PDF paths merged into this one (consecutive paths of one style: markers, a grid)
    shape: str = ""  # segment kinds of its (first) path: "cccc" a circle, "lll" a triangle, "re" a box
    unit: float = 0.0  # the larger side of its (first) path's box, pt: a marker's size
    fill_alpha: float = 1.0  # the fill's opacity: a translucent band tints what lies under it


@dataclass
class Caption:
    """The caption as printed: its label ("Figure 3"), the text after it, where it is."""

    text: str  # caption body, without the "Figure 3:" prefix
    label: str = ""  # e.g. "Figure 3", "Fig. S1"
    location: Location = field(default_factory=Location)
    short: str | None = None  # \caption[short]{long}: the short form


@dataclass
class CitingSite:
    """One place in the body text that mentions a figure."""

    paragraph: str
    sentence: str
    mention: str  # the text that mentions the figure, e.g. "Figure 3(b)", "Figs. 2 and 3"
    location: Location = field(default_factory=Location)
    via: str = "text"  # "text" (printed "Figure N"), "link" (PDF link annotation), "ref" (LaTeX macro)
    macro: str | None = None  # \ref, \cref, ... for the LaTeX route
    panels: list[str] = field(default_factory=list)  # subpanels named, e.g. ["b"]
    order: float | None = None  # position in reading order across the document, when known
    labels: list[str] = field(default_factory=list)  # LaTeX route: the \label keys this command names


@dataclass
class Subpanel:
    label: str  # "a", "b", ...
    bbox: BBox | None = None
    caption: str = ""


@dataclass
class Figure:
    """One figure: image region I, caption c, citing text T, metadata m."""

    number: str  # as printed: "3", "A2", "S1"
    page: int | None = None  # 1-based physical PDF page
    bbox: BBox | None = None  # graphics region in points (without the caption)
    caption: Caption | None = None
    sites: list[CitingSite] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    subpanels: list[Subpanel] = field(default_factory=list)
    location: Location = field(default_factory=Location)  # source location when known
    spans: list[TextSpan] = field(default_factory=list)
    images: list[RasterImage] = field(default_factory=list)
    drawings: list[Drawing] = field(default_factory=list)
    graphics: list[str] = field(default_factory=list)  # graphics files (LaTeX route / file input)
    env: str | None = None  # figure, figure*, wrapfigure, captionof, ...
    in_appendix: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    # A figure loaded from the results cache (figlint/record.py) keeps no spans or drawings,
    # only what the reports print about them: {text_spans, min_font_pt, drawings, kind}.
    content_summary: dict[str, Any] | None = None

    @property
    def key(self) -> str:
        return f"Figure {self.number}"

    @property
    def continuation(self) -> bool:
        """A further part of the figure before it: a float that prints that figure's number again
        (caption's `\\ContinuedFloat`, "Figure 3 (continued)"). Citations and labels name the
        first part; `Paper.parts` gives them all."""
        return bool(self.extra.get("continuation"))

    @property
    def has_caption(self) -> bool:
        return self.caption is not None and bool(self.caption.text.strip())

    @property
    def has_context(self) -> bool:
        return bool(self.sites)

    @property
    def kind(self) -> str:
        """raster, vector, mixed or empty — what the figure region is made of."""
        if self.content_summary is not None:
            return self.content_summary["kind"]
        has_raster = bool(self.images)
        has_vector = bool(self.drawings) or bool(self.spans)
        if has_raster and has_vector:
            return "mixed"
        return "raster" if has_raster else ("vector" if has_vector else "empty")

    def content_counts(self) -> tuple[int, float | None, int]:
        """(text spans, smallest text size in pt, vector drawings) of the figure region."""
        if self.content_summary is not None:
            c = self.content_summary
            return c["text_spans"], c["min_font_pt"], c["drawings"]
        sizes = [s.size for s in self.spans]
        return len(self.spans), (min(sizes) if sizes else None), len(self.drawings)

    def gated_dimensions(self) -> list[str]:
        """L1 gating: which rubric dimensions this figure's evidence allows."""
        if not self.has_caption and not self.has_context:
            return []
        dims = list(DIMENSIONS)
        if not self.has_caption:
            dims.remove("caption_consistency")
        if not self.has_context:
            dims.remove("context_consistency")
        return dims


@dataclass
class Problem:
    """Something ingestion could not do; the engine turns it into an FL0xx finding."""

    code: str
    message: str
    location: Location = field(default_factory=Location)
    figure: str | None = None
    severity: str | None = None  # None: the rule's own; "note" where the input is likely right (FL005 via TEXINPUTS)


@dataclass
class Paper:
    path: str  # the input as given
    route: str  # "pdf", "latex", "image"
    pages: int = 0
    body_font_size: float | None = None
    page_size: tuple[float, float] | None = None
    figures: list[Figure] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    pdf_path: str | None = None
    root: str | None = None  # paper directory (LaTeX route)
    extra: dict[str, Any] = field(default_factory=dict)

    def figure(self, number: str) -> Figure | None:
        for fig in self.figures:
            if fig.number == number and not fig.continuation:
                return fig
        return None

    def parts(self, fig: Figure) -> list[Figure]:
        """The figure `fig` belongs to, as its parts: the first part and the continuations that
        print its number after it (`Figure.continuation`); [fig] for a figure in one piece."""
        k = next((i for i, f in enumerate(self.figures) if f is fig), None)
        if not fig.number or k is None:
            return [fig]
        same = [i for i, f in enumerate(self.figures) if f.number == fig.number]
        start = max((i for i in same if i <= k and not self.figures[i].continuation), default=k)
        got = [start]
        for i in same:
            if i <= start:
                continue
            if not self.figures[i].continuation:
                break
            got.append(i)
        # a continuation also continues the float right before it when the author printed
        # the parts under numbers of their own (\ContinuedFloat with the counter's format
        # changed by hand: "6.3a", "6.3b"), as LaTeX does
        first = k
        while first > 0 and self.figures[first].continuation:
            first -= 1
        last = k + 1
        while last < len(self.figures) and self.figures[last].continuation:
            last += 1
        if last - first > 1:
            got = sorted(set(got) | set(range(first, last)))
        return [self.figures[i] for i in got]


@dataclass
class Finding:
    code: str
    rule: str  # kebab-case rule name
    severity: str  # note | warning | error
    message: str
    location: Location = field(default_factory=Location)
    figure: str | None = None  # figure number
    evidence: dict[str, Any] = field(default_factory=dict)
    dimension: str | None = None  # rubric dimension it affects
    cap: int | None = None  # cap it imposes on that dimension
    taxonomy: str | None = None  # misleading-figure taxonomy label
    origin: str | None = None  # "figure" or "text"

    def sort_key(self) -> tuple:
        loc = self.location
        return (loc.file or "", loc.page or 0, loc.line or 0, loc.column or 0, self.code)


@dataclass
class Scores:
    visual_clarity: float | None = None
    structure_layout: float | None = None
    caption_consistency: float | None = None
    context_consistency: float | None = None
    misleading_risk: float | None = None
    reasons: dict[str, str] = field(default_factory=dict)

    @property
    def overall(self) -> float | None:
        vals = [getattr(self, d) for d in DIMENSIONS if getattr(self, d) is not None]
        return round(sum(vals) / len(vals), 2) if vals else None


def to_dict(obj: Any) -> Any:
    """Dataclass -> JSON-ready dict (tuples become lists)."""
    return asdict(obj)


def plain(value: Any) -> Any:
    """`value` as plain JSON data: numpy scalars and arrays to Python numbers and lists, tuples
    and sets to lists, non-finite floats to None, other objects to their text. Evidence is
    built from measurements (often numpy values); every report must be able to print it."""
    import math

    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=str)
    if hasattr(value, "tolist"):  # numpy scalar or array
        return plain(value.tolist())
    return str(value)

