"""The judge: five rubric scores per figure, and the FL7xx findings of the thresholds.

`score_paper(paper, findings, config, enabled)` is the engine's one call after
the rules. It stores each scored figure's scores in `fig.extra["scores"]`
(the five dimension names + "overall"; what the reporters read) and the
judge's reasons in `fig.extra["judge"]`, and returns the FL7xx findings.

Protocol `rules` (the default) is the offline scorer: no model, no network,
well under 5 ms per figure, and this module imports nothing heavy for it.
Protocols `direct`, `sidecar` and `agent` go through litellm (imported only
then; `pip install 'figlint[judge]'`). One Judge (cache, budget, clients) is
kept per run on the Config, so the budget spans every paper of the run.
"""

from __future__ import annotations

from typing import Any

from figlint.model import DIMENSIONS, Finding, Location, Paper

_STATE = "_judge_run"  # attribute of the run's Config holding the Judge


def score_paper(paper: Paper, findings: list[Finding], config, enabled: set[str] | None = None) -> list[Finding]:
    """Score every figure of `paper`; returns the FL7xx findings (only codes in `enabled`, when given)."""
    from figlint.judge import offline
    from figlint.judge.thresholds import threshold_findings

    protocol = config.judge_setting("judge")
    out: list[Finding] = []
    if protocol == "rules":
        model = offline.load_model()
        for fig in paper.figures:
            scored = offline.score_figure(fig, findings, config.caps)
            _store(fig, scored, {"protocol": "rules", "model": model.version})
        if config.dry_run:
            paper.extra["judge_plan"] = {"protocol": "rules", "figures": 0, "calls": 0, "cached": 0}
    else:
        out += _model_judge(paper, findings, config)
    for fig in paper.figures:
        out += threshold_findings(paper, fig, config)
    if enabled is not None:
        out = [f for f in out if f.code in enabled]
    return out


def _store(fig, scored, info: dict[str, Any]) -> None:
    if scored is None:
        fig.extra.pop("scores", None)
        fig.extra.pop("judge", None)
        return
    fig.extra["scores"] = scored.as_dict()
    fig.extra["judge"] = {**info, "reasons": scored.reason_text()}


def run_judge(config):
    """The run's Judge (made on first use, kept on the Config)."""
    judge = getattr(config, _STATE, None)
    if judge is None:
        from figlint.judge.llm import load_litellm
        from figlint.judge.protocols import Judge, JudgeSettings

        settings = JudgeSettings.from_config(config)
        if not config.dry_run:
            load_litellm()  # fail early, once, with the install hint
        judge = Judge(settings)
        setattr(config, _STATE, judge)
    return judge


def _model_judge(paper: Paper, findings: list[Finding], config) -> list[Finding]:
    from figlint.judge import offline
    from figlint.judge.protocols import prepare
    from figlint.rules.registry import figure_location, get_rule

    judge = run_judge(config)
    s = judge.settings
    prepared = [p for p in (prepare(paper, fig, findings, s, config.caps) for fig in paper.figures) if p is not None]
    if config.dry_run:
        calls = cached = 0
        for p in prepared:
            c, h = judge.planned_calls(p)
            calls += c
            cached += h
        paper.extra["judge_plan"] = {"protocol": s.protocol, "model": s.model, "figures": len(prepared),
                                     "calls": calls, "cached": cached}
        return []
    out: list[Finding] = []
    budget_left: list[str] = []
    stop_reason = None
    for p, verdict in zip(prepared, judge.judge_all(prepared)):
        fig = p.fig
        if verdict.scored is not None:
            _store(fig, verdict.scored, {"protocol": s.protocol, "model": s.model, "calls": verdict.called,
                                         "cached": verdict.cached})
            continue
        # not judged: offline scores, so thresholds still hold, and say why
        fallback = offline.score_figure(fig, findings, config.caps)
        _store(fig, fallback, {"protocol": "rules", "model": offline.load_model().version,
                               "fallback_from": s.protocol, "error": verdict.error or verdict.budget})
        if verdict.budget:
            budget_left.append(fig.number or "(unnumbered)")
            stop_reason = verdict.budget
            continue
        rule = get_rule("FL702")
        out.append(Finding(code=rule.code, rule=rule.name, severity=rule.severity,
                           message=f"{fig.key} could not be judged by {s.protocol} ({s.model}): "
                                   f"{verdict.error}; scored offline instead",
                           location=figure_location(fig), figure=fig.number or None,
                           evidence={"protocol": s.protocol, "model": s.model, "error": verdict.error},
                           origin="judge"))
    if budget_left:
        rule = get_rule("FL708")
        b = judge.budget
        out.append(Finding(code=rule.code, rule=rule.name, severity=rule.severity,
                           message=f"judge stopped: {stop_reason} after {b.calls} calls; "
                                   f"{len(budget_left)} figure{'s' if len(budget_left) != 1 else ''} not judged "
                                   f"({', '.join(budget_left)}) carry offline scores",
                           location=Location(file=paper.path),
                           evidence={"calls": b.calls, "estimated_cost": round(b.cost, 6), "max_calls": b.max_calls,
                                     "max_cost": b.max_cost, "figures": budget_left}, origin="judge"))
    return out


__all__ = ["score_paper", "run_judge", "DIMENSIONS"]
