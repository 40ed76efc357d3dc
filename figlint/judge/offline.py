"""The offline scorer (protocol `rules`, the default): five rubric scores with no model call.

A figure's base scores are the fitted estimates of what human raters give a
figure like it (data/offline.json, fitted by benchmarks/calibrate_offline.py
on SciFigQual-Bench dev gold: C from caption features, CTX from how often the
figure is cited, VC/SL/MR the typical rating). The rule findings then lower or
cap their dimension by the rubric bands (9-10 no defect; 7-8 minor; 5-6
noticeable; 3-4 serious; 1-2 unusable or contradiction): a finding's own cap
(FL202 caps C at 6, FL302 caps CTX at 6) holds whatever the base says, a text
claim contradicting the figure sets CTX and MR to 2, and caps from the
configuration come on top. Scores are integers; for C, CTX and MR a tie
between two adjacent scores goes to the lower one. L1 gating: no caption, no
C; no citing text, no CTX; neither, no scores at all.

Nothing is trained at run time; the constants are loaded once per process.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

from figlint.judge.captionfeatures import caption_features
from figlint.model import DIMENSION_ABBREV, DIMENSIONS, Figure, Finding

LOWER_TIES = frozenset({"caption_consistency", "context_consistency", "misleading_risk"})

# Rubric bands: the highest score a finding of this severity leaves its dimension.
SEVERITY_CEILING = {"note": 8, "warning": 6, "error": 4}
# Misleading-design and reasoning errors, by taxonomy label (design.md): the
# highest MR a figure carrying one keeps. "incorrect_reading" is a text claim
# the figure contradicts: CTX and MR go to the contradiction band.
TAXONOMY_CEILING = {
    "truncated_axis": 5,
    "dual_axis": 6,
    "value_as_area": 5,
    "inverted_axis": 5,
    "uneven_binning": 5,
    "unclear_encoding": 6,
    "inappropriate_encoding": 5,
    "cherry_picking": 5,
    "causal_inference": 5,
    "arbitrary_threshold": 6,
    "statistical_nuance": 6,
    "data_validity": 6,
    "misrepresented_studies": 5,
}
CONTRADICTION_TAXONOMIES = frozenset({"incorrect_reading"})
CONTRADICTION_SCORE = 2
# Each further finding on a dimension already lowered by one takes one more point.
EXTRA_FINDING_STEP = 1


@dataclass
class OfflineModel:
    """Fitted constants: per dimension an intercept and weights over named features."""

    version: str
    models: dict[str, dict[str, Any]]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "OfflineModel":
        return cls(version=data["version"], models=data["models"], meta=data.get("meta", {}))

    def to_dict(self) -> dict[str, Any]:
        return {"version": self.version, "meta": self.meta, "models": self.models}

    def estimate(self, dim: str, features: dict[str, float]) -> float:
        m = self.models[dim]
        return m["intercept"] + sum(w * features.get(k, 0.0) for k, w in m.get("weights", {}).items())


@lru_cache(maxsize=1)
def load_model() -> OfflineModel:
    text = resources.files("figlint.judge").joinpath("data/offline.json").read_text(encoding="utf-8")
    return OfflineModel.from_dict(json.loads(text))


def to_int(value: float, dim: str) -> int:
    """Round to an integer 1-10; ties go to the lower score for C, CTX and MR."""
    if dim in LOWER_TIES:
        v = math.ceil(value - 0.5)  # 6.5 -> 6
    else:
        v = math.floor(value + 0.5)  # 6.5 -> 7
    return max(1, min(10, int(v)))


@dataclass
class Scored:
    """A figure's scores with the reasons behind each (what the FL7xx findings quote)."""

    scores: dict[str, int | None]
    reasons: dict[str, list[str]] = field(default_factory=dict)

    @property
    def overall(self) -> float | None:
        vals = [v for v in self.scores.values() if v is not None]
        return round(sum(vals) / len(vals), 2) if vals else None

    def as_dict(self) -> dict[str, Any]:
        return {**{d: self.scores.get(d) for d in DIMENSIONS}, "overall": self.overall}

    def reason_text(self) -> dict[str, str]:
        return {d: "; ".join(r) for d, r in self.reasons.items() if r}


def finding_ceilings(f: Finding, config_caps: dict[str, int] | None = None,
                     bands: bool = True) -> list[tuple[str, int, str]]:
    """(dimension, ceiling, why) for one finding, by the rubric bands and the caps.

    With bands=False only the caps that hold for every protocol: the finding's own
    cap, a contradiction, and the configuration's caps (a model judge reads the
    severity of a defect itself; the offline scorer needs the bands).
    """
    out: list[tuple[str, int, str]] = []
    who = f"{f.code} {f.rule}"
    contradiction = f.taxonomy in CONTRADICTION_TAXONOMIES or bool(f.evidence.get("contradiction"))
    if contradiction:
        out.append(("context_consistency", CONTRADICTION_SCORE, f"text contradicts the figure ({who})"))
        out.append(("misleading_risk", CONTRADICTION_SCORE, f"text contradicts the figure ({who})"))
    if f.dimension in DIMENSIONS:
        if f.cap is not None:
            out.append((f.dimension, int(f.cap), f"capped at {f.cap} by {who}"))
        elif bands:
            ceiling = _graded_ceiling(f)
            out.append((f.dimension, ceiling, f"at most {ceiling} with {who} ({f.severity})"))
    if config_caps and f.dimension in DIMENSIONS:
        for key in (f.code, f.rule):
            if key in config_caps:
                out.append((f.dimension, int(config_caps[key]), f"capped at {config_caps[key]} by configuration ({key})"))
    return out


def _graded_ceiling(f: Finding) -> int:
    """The band a finding without an explicit cap puts its dimension in."""
    ceiling = SEVERITY_CEILING.get(f.severity, 6)
    if f.taxonomy in TAXONOMY_CEILING:
        ceiling = min(ceiling, TAXONOMY_CEILING[f.taxonomy])
    ev = f.evidence or {}
    # Serious impediment (3-4): key labels illegible, not merely effortful.
    if f.code == "FL101" and isinstance(ev.get("effective_dpi"), (int, float)) and ev["effective_dpi"] < 100:
        ceiling = min(ceiling, 4)
    if f.code == "FL102" and isinstance(ev.get("smallest_pt"), (int, float)) and ev["smallest_pt"] < 4.0:
        ceiling = min(ceiling, 4)
    return ceiling


def score_evidence(
    caption: str | None,
    n_sites: int,
    findings: Iterable[Finding] = (),
    *,
    config_caps: dict[str, int] | None = None,
    model: OfflineModel | None = None,
) -> Scored | None:
    """Scores from what a figure has: caption text, number of citing sites, its findings."""
    has_caption = bool(caption and caption.strip())
    has_context = n_sites > 0
    if not has_caption and not has_context:
        return None
    model = model or load_model()
    feats: dict[str, float] = caption_features(caption) if has_caption else {}
    feats["log_sites"] = math.log1p(max(0, n_sites))
    scores: dict[str, int | None] = {}
    reasons: dict[str, list[str]] = {d: [] for d in DIMENSIONS}
    for dim in DIMENSIONS:
        if (dim == "caption_consistency" and not has_caption) or (dim == "context_consistency" and not has_context):
            scores[dim] = None
            continue
        scores[dim] = to_int(model.estimate(dim, feats), dim)
        reasons[dim].append(f"base {scores[dim]} ({_base_reason(dim, feats, n_sites)})")
    hits: dict[str, int] = {}
    for f in findings:
        for dim, ceiling, why in finding_ceilings(f, config_caps):
            if scores.get(dim) is None:
                continue
            hits[dim] = hits.get(dim, 0) + 1
            before = scores[dim]
            value = min(before, max(1, ceiling))
            if hits[dim] > 1 and value == before and before < 9:
                value = max(1, before - EXTRA_FINDING_STEP)  # another defect on an already lowered dimension
            scores[dim] = value
            reasons[dim].append(why + (f": {before} -> {value}" if value != before else ""))
    return Scored(scores=scores, reasons={d: r for d, r in reasons.items() if r})


def _base_reason(dim: str, feats: dict[str, float], n_sites: int) -> str:
    if dim == "caption_consistency":
        words = round(math.expm1(feats.get("log_words", 0.0)))
        return f"caption of {words} words" + (", generic" if feats.get("generic") else "")
    if dim == "context_consistency":
        return f"cited {n_sites}x"
    return f"typical {DIMENSION_ABBREV[dim]} of figures without findings"


def figure_findings(fig: Figure, findings: Iterable[Finding]) -> list[Finding]:
    """The findings about this figure (numbered figures only: unnumbered ones cannot be matched)."""
    if not fig.number:
        return []
    return [f for f in findings if f.figure == fig.number]


def score_figure(fig: Figure, findings: Iterable[Finding], config_caps: dict[str, int] | None = None) -> Scored | None:
    caption = fig.caption.text if fig.has_caption else None
    return score_evidence(caption, len(fig.sites), figure_findings(fig, findings), config_caps=config_caps)


def generic_caption_finding(caption: str) -> Finding | None:
    """FL202 as the rule would report it with default options, for scoring a bare caption (gold rows)."""
    from figlint.judge.captionfeatures import caption_body
    from figlint.rules.caption import caption_verdict

    body, _ = caption_body(caption)
    why, _w, _s = caption_verdict(body)
    if why is None:
        return None
    return Finding(code="FL202", rule="generic-caption", severity="warning", message=f"caption is {why}",
                   dimension="caption_consistency", cap=6)


def score_caption_row(caption: str | None, context_count: int, model: OfflineModel | None = None) -> Scored | None:
    """Score a gold row (caption and citation count only, no image): what `figlint eval` does without predictions."""
    findings = []
    if caption:
        f = generic_caption_finding(caption)
        if f is not None:
            findings.append(f)
    return score_evidence(caption, context_count, findings, model=model)


__all__ = ["OfflineModel", "Scored", "load_model", "score_evidence", "score_figure", "score_caption_row",
           "finding_ceilings", "to_int"]
