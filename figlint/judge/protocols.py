"""The model protocols: direct, sidecar and agent (SFQ-Agent), through litellm.

- direct: one call over the image, the caption and the citing text -> five scores;
- sidecar: the same call plus the features figlint measured (text in the
  figure with printed sizes, OCR, resolution, chart analysis, rule findings);
- agent: vision stage (image + visual features -> VC, SL, visual facts, a
  visual risk band), language stage (caption + citing text only, never pixels
  -> text facts, severity, caps for C and CTX), fusion stage (the two reports
  -> C, CTX, MR), then the deterministic Runner (runner.py).

A run first prepares every figure in the main thread (image crop, features:
PyMuPDF and OCR are not thread-safe), then sends the model calls from a pool
of `judge-concurrency` threads. Each stage's validated reply is cached by
content (cache.py). A figure the model cannot judge (no valid reply within
the retries, no image) gets FL702 and offline scores; when the run's budget
is spent, the remaining figures get offline scores and one FL708 says which.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from figlint.judge import offline
from figlint.judge.cache import Budget, BudgetExhausted, JudgeCache, cache_key, digest
from figlint.judge.offline import Scored
from figlint.model import Figure, Finding, Paper

STAGES = {"direct": ("direct",), "sidecar": ("sidecar",), "agent": ("vision", "language", "fusion")}
_VISUAL_FAMILIES = ("FL1", "FL4", "FL6")
MAX_SITES = 6
MAX_PARAGRAPH = 1200


@dataclass
class JudgeSettings:
    protocol: str = "agent"
    model: str = ""
    vision_model: str = ""
    language_model: str = ""
    api_base: str = ""
    api_key: str | None = None
    timeout: float = 60.0
    retries: int = 2
    concurrency: int = 4
    dpi: int = 150
    max_calls: int = 200
    max_cost: float = 2.0

    @classmethod
    def from_config(cls, cfg) -> "JudgeSettings":
        from figlint.errors import UsageError

        s = cfg.judge_setting
        model = s("judge-model")
        protocol = s("judge")
        vision = s("judge-vision-model") or model
        language = s("judge-language-model") or model
        if not (vision and language if protocol == "agent" else model):
            raise UsageError(f"--judge {protocol} needs a model: set judge-model (e.g. --judge-model "
                             "openai/gpt-4o-mini) in [tool.figlint] or on the command line")
        key_env = s("judge-api-key-env")
        api_key = os.environ.get(key_env) if key_env else os.environ.get("FIGLINT_JUDGE_API_KEY")
        return cls(protocol=protocol, model=model or vision, vision_model=vision, language_model=language,
                   api_base=s("judge-api-base"), api_key=api_key or None, timeout=s("judge-timeout"),
                   retries=s("judge-retries"), concurrency=s("judge-concurrency"), dpi=s("judge-dpi"),
                   max_calls=s("judge-max-calls"), max_cost=s("judge-max-cost"))

    def stage_model(self, stage: str) -> str:
        if stage == "vision":
            return self.vision_model or self.model
        if stage in ("language", "fusion"):
            return self.language_model or self.model
        return self.model


@dataclass
class Prepared:
    """One figure's inputs, made in the main thread."""

    fig: Figure
    gated: list[str]
    caption: str
    citing: str
    image: bytes | None
    image_sha: str
    visual_features: str  # JSON text
    all_features: str  # JSON text (sidecar: visual features + every finding of the figure)
    caps: list[tuple[str, int, str]]
    findings: list[Finding]


@dataclass
class Verdict:
    scored: Scored | None
    protocol: str
    model: str = ""
    error: str | None = None
    budget: str | None = None
    cached: list[str] = field(default_factory=list)
    called: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- inputs

def figure_image(fig: Figure, paper: Paper, dpi: int = 150) -> bytes | None:
    """PNG bytes of the figure as printed (PDF crop), else of its graphics file; None when neither exists."""
    from pathlib import Path

    pdf = paper.pdf_path or (paper.path if paper.route == "pdf" else None)
    if pdf and fig.page and fig.bbox:
        from figlint.ingest.pdf import render_crop

        try:
            return render_crop(pdf, fig.page, fig.bbox, dpi, turn=fig.extra.get("turn", 0))
        except Exception:  # noqa: BLE001 - fall through to the graphics file
            pass
    for g in fig.graphics:
        for base in filter(None, (paper.root, str(Path(paper.path).parent), "")):
            p = Path(base) / g if base else Path(g)
            if p.is_file():
                return _png_of(p, dpi)
    return None


def _png_of(path, dpi: int) -> bytes | None:
    import pymupdf
    from figlint.ingest.mupdf import open_pdf

    try:
        if path.suffix.lower() == ".pdf":
            with open_pdf(str(path)) as doc:
                return doc[0].get_pixmap(dpi=dpi).tobytes("png")
        return pymupdf.Pixmap(str(path)).tobytes("png")
    except Exception:  # noqa: BLE001
        return None


def citing_text(fig: Figure) -> str:
    seen: list[str] = []
    for s in fig.sites:
        para = (s.paragraph or s.sentence or "").strip()
        if para and para not in seen:
            seen.append(para)
    return "\n\n".join(f"[{i + 1}] {p[:MAX_PARAGRAPH]}" for i, p in enumerate(seen[:MAX_SITES])) or "(none)"


def visual_features(fig: Figure, paper: Paper, findings: list[Finding]) -> dict[str, Any]:
    """What figlint measured about the figure's pixels and drawing (no caption, no citing text)."""
    out: dict[str, Any] = {"kind": fig.kind}
    if fig.bbox:
        out["printed_size_in"] = [round((fig.bbox[2] - fig.bbox[0]) / 72, 2), round((fig.bbox[3] - fig.bbox[1]) / 72, 2)]
    if fig.spans:
        out["smallest_text_pt"] = round(min(s.size for s in fig.spans), 1)
        out["text_in_figure"] = [f"{s.text.strip()} ({s.size:.1f} pt)" for s in fig.spans[:60]]
    if paper.body_font_size:
        out["body_text_pt"] = paper.body_font_size
    if fig.images:
        out["raster_images"] = [{"pixels": [i.width_px, i.height_px], "effective_dpi": round(i.effective_dpi)}
                                for i in fig.images[:8]]
    if fig.subpanels:
        out["panel_labels"] = [p.label for p in fig.subpanels]
    try:
        from figlint.features import analyses

        charts = []
        for an in analyses(fig, paper):
            d = an.to_dict()
            charts.append({"chart_type": d.get("chart_type"), "axes": [
                {"orient": a.get("orient"), "scale": a.get("scale"), "ticks": [t.get("text") for t in a.get("ticks", [])][:12]}
                for a in d.get("axes", [])]})
            if not fig.spans:
                out["ocr_text"] = [t.get("text") for t in d.get("tokens", [])][:60]
        if charts:
            out["charts"] = charts
    except Exception:  # noqa: BLE001 - features are a bonus for the model, never a failure
        pass
    visual = [f"{f.code} {f.rule}: {f.message}" for f in findings if f.code.startswith(_VISUAL_FAMILIES)]
    if visual:
        out["visual_findings"] = visual
    return out


def prepare(paper: Paper, fig: Figure, findings: list[Finding], settings: JudgeSettings,
            config_caps: dict[str, int]) -> Prepared | None:
    gated = fig.gated_dimensions()
    if not gated:
        return None
    mine = offline.figure_findings(fig, findings)
    image = figure_image(fig, paper, settings.dpi)
    vis = visual_features(fig, paper, mine)
    allf = dict(vis, findings=[f"{f.code} {f.rule}: {f.message}" for f in mine])
    caps = [c for f in mine for c in offline.finding_ceilings(f, config_caps, bands=False)]
    return Prepared(fig=fig, gated=gated, caption=fig.caption.text if fig.has_caption else "(none)",
                    citing=citing_text(fig), image=image, image_sha=digest(image) if image else "",
                    visual_features=json.dumps(vis, ensure_ascii=False), all_features=json.dumps(allf, ensure_ascii=False),
                    caps=caps, findings=mine)


# ---------------------------------------------------------------- the judge

class Judge:
    """One run's model judge: settings, cache, budget and one client per model."""

    def __init__(self, settings: JudgeSettings, cache: JudgeCache | None = None, budget: Budget | None = None):
        self.settings = settings
        self.cache = cache or JudgeCache()
        self.budget = budget or Budget(settings.max_calls, settings.max_cost)
        self._clients: dict[str, Any] = {}

    def client(self, model: str):
        if model not in self._clients:
            from figlint.judge.llm import LLM

            s = self.settings
            self._clients[model] = LLM(model, api_base=s.api_base, api_key=s.api_key, timeout=s.timeout,
                                       retries=s.retries, budget=self.budget)
        return self._clients[model]

    # keys: each stage is addressed by what it sees
    def _key(self, stage: str, p: Prepared, **more: Any) -> str:
        from figlint.judge.prompts import prompt_version

        parts: dict[str, Any] = {"protocol": self.settings.protocol, "stage": stage, "prompt": prompt_version(),
                                 "model": self.settings.stage_model(stage), "gated": p.gated, "number": p.fig.number}
        if stage in ("direct", "sidecar", "vision"):
            parts["image"] = p.image_sha
        if stage in ("direct", "sidecar", "language"):
            parts["caption"] = p.caption
            parts["citing"] = p.citing
        if stage == "sidecar":
            parts["features"] = p.all_features
        if stage == "vision":
            parts["features"] = p.visual_features
        parts.update(more)
        return cache_key(**parts)

    def _stage(self, stage: str, p: Prepared, schema, build, check=None, verdict: Verdict | None = None, **more):
        key = self._key(stage, p, **more)
        hit = self.cache.get(key)
        if hit is not None:
            try:
                parsed = schema.model_validate(hit["reply"])
                if verdict is not None:
                    verdict.cached.append(stage)
                return parsed
            except Exception:  # noqa: BLE001 - a stale or damaged entry is just a miss
                pass
        parsed = self.client(self.settings.stage_model(stage)).complete(build(), schema, check)
        self.cache.put(key, {"stage": stage, "model": self.settings.stage_model(stage), "reply": parsed.model_dump()})
        if verdict is not None:
            verdict.called.append(stage)
        return parsed

    def planned_calls(self, p: Prepared) -> tuple[int, int]:
        """(calls needed, stages cached) for one figure, without calling anything."""
        stages = STAGES[self.settings.protocol]
        if self.settings.protocol != "agent":
            return (0, 1) if self.cache.has(self._key(stages[0], p)) else (1, 0)
        from figlint.judge.schemas import LanguageReport, VisionReport

        calls = cached = 0
        got = {}
        for stage, schema in (("vision", VisionReport), ("language", LanguageReport)):
            hit = self.cache.get(self._key(stage, p))
            if hit is None:
                calls += 1
            else:
                cached += 1
                got[stage] = schema.model_validate(hit["reply"])
        if len(got) == 2 and self.cache.has(self._fusion_key(p, got["vision"], got["language"])):
            cached += 1
        else:
            calls += 1
        return calls, cached

    def _fusion_key(self, p: Prepared, vision, language) -> str:
        return self._key("fusion", p, vision=vision.model_dump(), language=language.model_dump())

    def judge(self, p: Prepared) -> Verdict:
        """One figure through the configured protocol; never raises (errors become the verdict)."""
        from figlint.judge.cache import BudgetExhausted
        from figlint.judge.llm import JudgeCallError

        proto = self.settings.protocol
        verdict = Verdict(scored=None, protocol=proto, model=self.settings.model)
        if p.image is None:
            verdict.error = "no image of the figure could be made (no PDF page and no readable graphics file)"
            return verdict
        try:
            verdict.scored = self._agent(p, verdict) if proto == "agent" else self._direct(p, verdict)
        except BudgetExhausted as exc:
            verdict.budget = str(exc)
        except JudgeCallError as exc:
            verdict.error = str(exc)
        return verdict

    def _direct(self, p: Prepared, verdict: Verdict) -> Scored:
        from figlint.judge import prompts
        from figlint.judge.runner import direct_scores
        from figlint.judge.schemas import DirectReport

        stage = self.settings.protocol

        def build():
            system, user = prompts.render(stage, number=p.fig.number or "(unnumbered)", caption=p.caption,
                                          citing=p.citing, gating=prompts.gating_note(p.gated),
                                          features=p.all_features if stage == "sidecar" else "")
            return prompts.messages(system, user, p.image)

        report = self._stage(stage, p, DirectReport, build, _require(p.gated), verdict)
        return direct_scores(report, gated=p.gated, caps=p.caps)

    def _agent(self, p: Prepared, verdict: Verdict) -> Scored:
        from figlint.judge import prompts
        from figlint.judge.runner import run_agent
        from figlint.judge.schemas import FusionReport, LanguageReport, VisionReport

        number = p.fig.number or "(unnumbered)"

        def build_vision():
            system, user = prompts.render("vision", number=number, features=p.visual_features)
            return prompts.messages(system, user, p.image)

        def build_language():  # no pixels: the language stage never sees the image
            system, user = prompts.render("language", number=number, caption=p.caption, citing=p.citing,
                                          gating=prompts.gating_note(p.gated))
            return prompts.messages(system, user)

        vision = self._stage("vision", p, VisionReport, build_vision, None, verdict)
        language = self._stage("language", p, LanguageReport, build_language, None, verdict)

        def build_fusion():
            system, user = prompts.render("fusion", number=number, gating=prompts.gating_note(p.gated),
                                          vision=json.dumps(vision.model_dump(), ensure_ascii=False, indent=1),
                                          language=json.dumps(language.model_dump(), ensure_ascii=False, indent=1))
            return prompts.messages(system, user)

        fusion = self._stage("fusion", p, FusionReport, build_fusion, _require(p.gated), verdict,
                             vision=vision.model_dump(), language=language.model_dump())
        return run_agent(vision, language, fusion, gated=p.gated, caps=p.caps)

    def judge_all(self, prepared: list[Prepared]) -> list[Verdict]:
        if self.settings.concurrency <= 1 or len(prepared) <= 1:
            return [self.judge(p) for p in prepared]
        with ThreadPoolExecutor(max_workers=self.settings.concurrency, thread_name_prefix="figlint-judge") as pool:
            return list(pool.map(self.judge, prepared))


def _require(gated: list[str]):
    """A reply check: the dimensions the evidence allows must be scored (C, CTX)."""

    def check(report) -> None:
        missing = [d for d in ("caption_consistency", "context_consistency")
                   if d in gated and getattr(report, d, None) is None]
        if missing:
            raise ValueError(f"{', '.join(missing)} must be a number for this figure, not null")

    return check


__all__ = ["Judge", "JudgeSettings", "Prepared", "Verdict", "prepare", "figure_image", "BudgetExhausted"]
