"""What the five scores mean, in the words the Markdown and HTML reports show next to them.

The rubric is SciFigQual-Bench's (design notes, "The rubric in brief"): every
dimension an integer 1–10, higher is better; for misleading risk higher means
safer (a careful reader is less likely to be misled). A null dimension is
missing evidence (no caption: no caption score; never cited: no context
score), never a low score. Scores are shown as integers: the judge's
dimensions are integers already, and the overall mean is rounded half up so
that 7.5 reads 8, as a reader rounding by eye would.
"""

from __future__ import annotations

import math
from typing import Any

from figlint.model import DIMENSION_ABBREV, DIMENSIONS

NAMES = {
    "visual_clarity": "visual clarity",
    "structure_layout": "structure & layout",
    "caption_consistency": "caption consistency",
    "context_consistency": "context consistency",
    "misleading_risk": "misleading risk",
}
LOOKS_AT = {
    "visual_clarity": "resolution, blur, tick and legend legibility at print size",
    "structure_layout": "reading path, panel labels (a)/(b), spacing, chartjunk",
    "caption_consistency": "whether the caption names the objects, metrics, panels and trends shown",
    "context_consistency": "whether the citing text's claims are supported by the figure",
    "misleading_risk": "axes, baselines, fair comparison, conflicts between text and figure (higher = safer)",
}
# Per dimension: what a score in each band means (9–10, 7–8, 5–6, 3–4, 1–2).
BANDS = {
    "visual_clarity": ("readable at print size", "minor legibility defects", "reading takes effort",
                       "key labels illegible", "unreadable"),
    "structure_layout": ("clear reading path, complete labels", "minor layout defects", "reading path is costly",
                         "disordered", "no visual hierarchy"),
    "caption_consistency": ("covers objects, metrics and panels", "minor omissions", "vague",
                            "caption and figure disagree", "caption of another figure"),
    "context_consistency": ("the text makes a specific, supported point", "minor gaps", "bare pointer (\"see Figure 3\")",
                            "the text claims what the figure does not show",
                            "the text contradicts the figure or describes another one"),
    "misleading_risk": ("trustworthy and fair", "minor risk", "ambiguous", "missing signals (axes, baselines)",
                        "contradiction: likely to mislead"),
}
MISSING = {
    "caption_consistency": "not scored: the figure has no caption",
    "context_consistency": "not scored: the text never cites the figure",
}
LEGEND = ("Scores are integers 1–10, higher is better; for MR (misleading risk) higher is safer. "
          "VC visual clarity · SL structure & layout · C caption consistency · CTX context consistency · "
          "MR misleading risk · — not scored (no caption: no C; never cited: no CTX).")


def as_int(value: Any) -> int | None:
    """A score as the integer shown (half up), or None when absent or not a number."""
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        return None
    return int(math.floor(float(value) + 0.5))


def band(dim: str, value: Any) -> str:
    """What `value` means on dimension `dim` (e.g. 'reading takes effort'), '' when absent."""
    v = as_int(value)
    if v is None:
        return MISSING.get(dim, "not scored")
    index = 0 if v >= 9 else 1 if v >= 7 else 2 if v >= 5 else 3 if v >= 3 else 4
    return BANDS[dim][index]


def dimension_views(scores: dict[str, Any] | None) -> list[dict]:
    """One row per dimension: abbreviation, name, integer value, band meaning, what it looks at."""
    rows = []
    for d in DIMENSIONS:
        v = as_int(scores.get(d)) if scores else None
        rows.append({"dim": d, "abbr": DIMENSION_ABBREV[d], "name": NAMES[d], "value": v,
                     "meaning": band(d, v), "looks_at": LOOKS_AT[d]})
    return rows
