"""Small read-only helpers the SARIF, Markdown and GitHub reporters share.

Scores live in `figure.extra["scores"]` (a dict keyed by the five dimension
names, any of them null, or absent when the figure was not scored).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from figlint.model import DIMENSIONS, Figure, Finding, severity_rank


def scores_of(fig: Figure | None) -> dict[str, Any] | None:
    """The figure's five scores (missing dimensions as None), or None when unscored."""
    if fig is None:
        return None
    raw = fig.extra.get("scores")
    if not isinstance(raw, dict):
        return None
    return {d: raw.get(d) for d in DIMENSIONS}


def overall(scores: dict[str, Any] | None) -> float | None:
    """Mean of the dimensions present (missing evidence is never scored as low)."""
    if not scores:
        return None
    vals = [v for v in scores.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return round(sum(vals) / len(vals), 2) if vals else None


def worst(findings: list[Finding]) -> Finding | None:
    """The most severe finding (first of equals, in report order)."""
    best: Finding | None = None
    for f in findings:
        if best is None or severity_rank(f.severity) > severity_rank(best.severity):
            best = f
    return best


def severity_counts(findings: list[Finding]) -> dict[str, int]:
    counts = Counter(f.severity for f in findings)
    return {k: counts.get(k, 0) for k in ("error", "warning", "note")}


def belongs(f: Finding, fig: Figure) -> bool:
    """Whether finding `f` is about figure `fig` (uncaptioned figures have no number: they
    are matched by place, so FL201 sits on its uncaptioned figure in every report)."""
    if fig.number:
        return f.figure == fig.number
    loc = f.location
    return not f.figure and (
        (loc.line is not None and loc.line == fig.location.line and loc.file == fig.location.file)
        or (loc.line is None and loc.page == fig.page and loc.bbox == fig.bbox)
    )


def rule_counts(result) -> list[tuple[str, str, str, int]]:
    """(code, rule name, severity, count) per rule with findings, most frequent first."""
    counts: Counter = Counter()
    info: dict[str, tuple[str, str]] = {}
    for f in result.findings:
        counts[f.code] += 1
        info.setdefault(f.code, (f.rule, f.severity))
    return [(code, info[code][0], info[code][1], n)
            for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
