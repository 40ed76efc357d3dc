"""Thresholds -> FL7xx findings: a figure scoring below a configured minimum, with the judge's reasons.

Off by default (every `min-*` key is 0). The finding quotes the score, the
threshold and the reasons the judge gave for that dimension (for the overall
score: the lowest dimension's), and carries all scores as evidence.
"""

from __future__ import annotations

from figlint.config import THRESHOLD_KEYS
from figlint.model import DIMENSION_ABBREV, DIMENSIONS, Figure, Finding, Paper

CODES = {
    "overall": "FL701",
    "visual_clarity": "FL703",
    "structure_layout": "FL704",
    "caption_consistency": "FL705",
    "context_consistency": "FL706",
    "misleading_risk": "FL707",
}
NAMES = {
    "overall": "overall score",
    "visual_clarity": "visual clarity (VC)",
    "structure_layout": "structure and layout (SL)",
    "caption_consistency": "caption consistency (C)",
    "context_consistency": "context consistency (CTX)",
    "misleading_risk": "misleading-risk (MR)",
}


def threshold_findings(paper: Paper, fig: Figure, config) -> list[Finding]:
    scores = fig.extra.get("scores")
    if not isinstance(scores, dict):
        return []
    from figlint.rules.registry import figure_location, get_rule

    info = fig.extra.get("judge") or {}
    reasons = info.get("reasons") or {}
    out: list[Finding] = []
    for key, dim in THRESHOLD_KEYS.items():
        threshold = float(config.judge_setting(key) or 0)
        if threshold <= 0:
            continue
        score = scores.get(dim)
        if not isinstance(score, (int, float)) or score >= threshold:
            continue
        if dim == "overall":
            present = [(d, scores[d]) for d in DIMENSIONS if isinstance(scores.get(d), (int, float))]
            low_dim, low = min(present, key=lambda kv: kv[1])
            why = f"lowest {DIMENSION_ABBREV[low_dim]} {low}" + (f": {reasons[low_dim]}" if reasons.get(low_dim) else "")
            value = f"{float(score):.1f}"
        else:
            why = reasons.get(dim, "")
            value = f"{score:g}"
        rule = get_rule(CODES[dim])
        out.append(Finding(
            code=rule.code,
            rule=rule.name,
            severity=rule.severity,
            message=f"{fig.key}: {NAMES[dim]} {value} below threshold {threshold:.1f}"
                    + (f" ({why[:240]})" if why else ""),
            location=figure_location(fig),
            figure=fig.number or None,
            evidence={"dimension": dim, "score": score, "threshold": threshold, "scores": scores,
                      "protocol": info.get("protocol"), "model": info.get("model"), "reasons": reasons},
            dimension=dim if dim != "overall" else None,
            origin="judge",
        ))
    return out
