"""What each model stage must reply, as pydantic models (the JSON schema sent as structured output).

Scores are numbers 1-10 (a float is accepted and rounded later by the Runner;
out-of-range numbers are clipped to the rubric's range). Unknown fields are
ignored: a fusion reply that also states VC does not change VC, because the
fusion schema has no VC field and the Runner copies VC from the vision stage.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Severity = Literal["none", "minor", "moderate", "severe", "contradiction"]


def _clip(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, bool):
        raise ValueError("a score must be a number from 1 to 10")
    if isinstance(v, str):
        v = float(v.strip())
    if isinstance(v, (int, float)):
        return max(1.0, min(10.0, float(v)))
    raise ValueError("a score must be a number from 1 to 10")


def _reasons(v: Any) -> dict[str, str]:
    if v is None:
        return {}
    if isinstance(v, str):
        return {"summary": v}
    if isinstance(v, dict):
        return {str(k): str(x)[:500] for k, x in v.items()}
    raise ValueError("reasons must be an object of dimension -> short reason")


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")
    reasons: dict[str, str] = Field(default_factory=dict, description="dimension -> one short reason")

    @field_validator("reasons", mode="before")
    @classmethod
    def _r(cls, v: Any) -> dict[str, str]:
        return _reasons(v)


class DirectReport(_Reply):
    """direct / sidecar: the five scores in one reply (null where the evidence is missing)."""

    visual_clarity: float = Field(ge=1, le=10)
    structure_layout: float = Field(ge=1, le=10)
    caption_consistency: float | None = Field(default=None, ge=1, le=10)
    context_consistency: float | None = Field(default=None, ge=1, le=10)
    misleading_risk: float = Field(ge=1, le=10)

    @field_validator("visual_clarity", "structure_layout", "caption_consistency", "context_consistency",
                     "misleading_risk", mode="before")
    @classmethod
    def _s(cls, v: Any) -> Any:
        return _clip(v)


class VisionReport(_Reply):
    """agent, vision stage: VC, SL, visual facts and a visual risk band [low, high]; never C/CTX/MR."""

    visual_clarity: float = Field(ge=1, le=10)
    structure_layout: float = Field(ge=1, le=10)
    visual_facts: list[str] = Field(default_factory=list)
    risk_band: list[float] = Field(min_length=2, max_length=2, description="[low, high] MR band, 1-10")

    @field_validator("visual_clarity", "structure_layout", mode="before")
    @classmethod
    def _s(cls, v: Any) -> Any:
        return _clip(v)

    @field_validator("risk_band", mode="before")
    @classmethod
    def _band(cls, v: Any) -> Any:
        if isinstance(v, dict):
            v = [v.get("low", v.get("l")), v.get("high", v.get("h"))]
        if not isinstance(v, (list, tuple)) or len(v) != 2:
            raise ValueError("risk_band must be [low, high]")
        lo, hi = sorted(_clip(x) for x in v)
        return [lo, hi]

    @field_validator("visual_facts", mode="before")
    @classmethod
    def _facts(cls, v: Any) -> Any:
        return [str(x)[:300] for x in v][:20] if isinstance(v, list) else v


class LanguageReport(_Reply):
    """agent, language stage (no pixels): text facts, severity of text/figure problems, caps for C and CTX."""

    text_facts: list[str] = Field(default_factory=list)
    severity: Severity
    caption_cap: float | None = Field(default=None, ge=1, le=10)
    context_cap: float | None = Field(default=None, ge=1, le=10)

    @field_validator("severity", mode="before")
    @classmethod
    def _sev(cls, v: Any) -> Any:
        return v.strip().lower() if isinstance(v, str) else v

    @field_validator("caption_cap", "context_cap", mode="before")
    @classmethod
    def _c(cls, v: Any) -> Any:
        return _clip(v)

    @field_validator("text_facts", mode="before")
    @classmethod
    def _facts(cls, v: Any) -> Any:
        return [str(x)[:300] for x in v][:20] if isinstance(v, list) else v


class FusionReport(_Reply):
    """agent, fusion stage: C, CTX and MR from the two evidence reports (MR is replaced by the Runner)."""

    caption_consistency: float | None = Field(default=None, ge=1, le=10)
    context_consistency: float | None = Field(default=None, ge=1, le=10)
    misleading_risk: float | None = Field(default=None, ge=1, le=10)

    @field_validator("caption_consistency", "context_consistency", "misleading_risk", mode="before")
    @classmethod
    def _s(cls, v: Any) -> Any:
        return _clip(v)


STAGE_SCHEMAS: dict[str, type[BaseModel]] = {
    "direct": DirectReport,
    "sidecar": DirectReport,
    "vision": VisionReport,
    "language": LanguageReport,
    "fusion": FusionReport,
}
