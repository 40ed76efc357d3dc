"""The deterministic Runner of the agent protocol (design.md; Algorithm 1 of SciFigQual-Bench).

Code, not prompt, decides who owns which score, so prompt drift (or an
instruction hidden in a caption) cannot change it:
- VC and SL are copied from the vision stage (the only stage that sees pixels);
  whatever the fusion stage says about them is ignored;
- C and CTX come from the fusion stage, clamped by the language stage's caps;
- MR is replaced by a closed-form function of the vision stage's risk band
  [l, h] (midpoint m = (l + h) / 2) and the language stage's severity:
  none -> m; minor -> max(l, m - 1), raised to 8 when l >= 9 or to 7 when l >= 7;
  moderate -> m if h <= 5 else 6.5; severe -> m if h <= 3 else 4.5;
  contradiction -> 2; rounded (a tie goes to the lower score, as the rubric says
  for MR) and clipped to [1, 10];
- then every cap holds: the rubric's (a contradiction puts CTX at most 2), the
  rule findings' (FL202 caps C at 6, FL302 caps CTX at 6) and the configuration's;
- L1 gating last: no caption, no C; no citing text, no CTX.
The direct and sidecar protocols go through `finish` too (caps and gating),
without the stage ownership they do not have.
"""

from __future__ import annotations

from typing import Iterable

from figlint.judge.offline import CONTRADICTION_SCORE, Scored, to_int
from figlint.model import DIMENSION_ABBREV, DIMENSIONS

Cap = tuple[str, int, str]  # (dimension, ceiling, why)


def mr_from_band(low: float, high: float, severity: str) -> int:
    """MR from the visual risk band and the text severity, rounded (ties lower) and clipped."""
    low, high = sorted((float(low), float(high)))
    m = (low + high) / 2
    if severity == "none":
        v = m
    elif severity == "minor":
        v = max(low, m - 1)
        if low >= 9:
            v = max(v, 8)
        elif low >= 7:
            v = max(v, 7)
    elif severity == "moderate":
        v = m if high <= 5 else 6.5
    elif severity == "severe":
        v = m if high <= 3 else 4.5
    elif severity == "contradiction":
        v = CONTRADICTION_SCORE
    else:
        raise ValueError(f"unknown severity {severity!r}")
    return to_int(v, "misleading_risk")


def run_agent(vision, language, fusion, *, gated: Iterable[str], caps: Iterable[Cap] = ()) -> Scored:
    """Final scores of the agent protocol from the three stage reports (schemas.py models)."""
    scores: dict[str, int | None] = {}
    reasons: dict[str, list[str]] = {d: [] for d in DIMENSIONS}
    scores["visual_clarity"] = to_int(vision.visual_clarity, "visual_clarity")
    scores["structure_layout"] = to_int(vision.structure_layout, "structure_layout")
    for dim in ("visual_clarity", "structure_layout"):
        reasons[dim].append(f"vision stage: {vision.reasons.get(dim) or vision.reasons.get(DIMENSION_ABBREV[dim], '')}".rstrip(": "))
    for dim, cap_field in (("caption_consistency", "caption_cap"), ("context_consistency", "context_cap")):
        value = getattr(fusion, dim)
        if value is None:
            scores[dim] = None
            continue
        scores[dim] = to_int(value, dim)
        reasons[dim].append(f"fusion stage: {fusion.reasons.get(dim) or fusion.reasons.get(DIMENSION_ABBREV[dim], '')}".rstrip(": "))
        cap = getattr(language, cap_field)
        if cap is not None and scores[dim] > to_int(cap, dim):
            reasons[dim].append(f"capped at {to_int(cap, dim)} by the language stage: {scores[dim]} -> {to_int(cap, dim)}")
            scores[dim] = to_int(cap, dim)
    low, high = vision.risk_band
    mr = mr_from_band(low, high, language.severity)
    scores["misleading_risk"] = mr
    reasons["misleading_risk"].append(f"Runner: band [{low:g}, {high:g}], text severity {language.severity} -> {mr}")
    extra: list[Cap] = list(caps)
    if language.severity == "contradiction":
        extra.append(("context_consistency", CONTRADICTION_SCORE, "the language stage found a contradiction"))
    return finish(scores, reasons, gated=gated, caps=extra)


def finish(scores: dict[str, int | None], reasons: dict[str, list[str]], *, gated: Iterable[str],
           caps: Iterable[Cap] = ()) -> Scored:
    """Apply every cap, then L1 gating."""
    for dim, ceiling, why in caps:
        if scores.get(dim) is not None and scores[dim] > ceiling:
            reasons.setdefault(dim, []).append(f"{why}: {scores[dim]} -> {ceiling}")
            scores[dim] = max(1, ceiling)
    allowed = set(gated)
    for dim in DIMENSIONS:
        if dim not in allowed:
            scores[dim] = None
            reasons.pop(dim, None)
        else:
            scores.setdefault(dim, None)
    return Scored(scores={d: scores[d] for d in DIMENSIONS}, reasons={d: r for d, r in reasons.items() if r})


def direct_scores(report, *, gated: Iterable[str], caps: Iterable[Cap] = ()) -> Scored:
    """Final scores of the direct/sidecar protocols: the model's five, rounded, capped, gated."""
    scores: dict[str, int | None] = {}
    reasons: dict[str, list[str]] = {}
    for dim in DIMENSIONS:
        value = getattr(report, dim)
        scores[dim] = None if value is None else to_int(value, dim)
        why = report.reasons.get(dim) or report.reasons.get(DIMENSION_ABBREV[dim])
        if why:
            reasons[dim] = [f"model: {why}"]
    return finish(scores, reasons, gated=gated, caps=caps)
