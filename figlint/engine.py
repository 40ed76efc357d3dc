"""The engine: ingest each input, run the enabled rules, decide what is reported.

Checking (rules), deciding (select/ignore, severities, fail level) and
formatting (report/) are separate: rules only yield findings, the engine
filters and orders them, reporters only read a RunResult. One bad figure or
rule never sinks the run: an exception inside a rule becomes an FL009 finding,
and one inside a figure's analysis or derived feature (errors.FeatureFailed)
an FL009 finding reported once for that figure, whichever rule met it first.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field

from figlint.budget import FigureSkipped, skipped_findings
from figlint.budget import skip as budget_skip
from figlint.config import Config, drop_per_figure_ignores, enabled_rules
from figlint.errors import FeatureFailed, InputError
from figlint.model import Figure, Finding, Location, Paper, Problem, severity_rank
from figlint.rules.registry import Context, Rule, iter_enabled
from figlint.suppress import apply_suppressions


@dataclass
class PaperResult:
    path: str
    paper: Paper | None = None
    findings: list[Finding] = field(default_factory=list)
    error: str | None = None  # set when the input could not be read at all
    timings: dict[str, float] = field(default_factory=dict)  # stage -> seconds (--profile)
    cached: bool = False  # loaded from the results cache


@dataclass
class RunResult:
    results: list[PaperResult]
    config: Config

    @property
    def findings(self) -> list[Finding]:
        return [f for r in self.results for f in r.findings]

    def exit_code(self) -> int:
        if any(r.error for r in self.results):
            return 2
        threshold = severity_rank(self.config.fail_on)
        return 1 if any(severity_rank(f.severity) >= threshold for f in self.findings) else 0


def run(paths: list[str], config: Config) -> RunResult:
    rules = enabled_rules(config)
    return RunResult([lint_path(p, config, rules) for p in paths], config)


def lint_path(path: str, config: Config, rules: list[Rule] | None = None) -> PaperResult:
    """One input read and checked. The cyclic collector is paused from the read to the last
    rule (figlint/gcpause.py): the rules build their analyses over everything the read keeps
    and free them by reference counting, so collections there found next to nothing to free
    (11 objects on the largest corpus paper) and cost a fiftieth of its run."""
    from figlint.gcpause import paused

    with paused():
        return _lint_path(path, config, rules)


def _lint_path(path: str, config: Config, rules: list[Rule] | None) -> PaperResult:
    rules = enabled_rules(config) if rules is None else rules
    enabled = {r.code for r in rules}
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    try:
        from figlint.ingest import load

        paper = load(path, pdf=config.pdf, ref_macros=config.ref_macros)
        timings["ingest"] = time.perf_counter() - t0
    except InputError as exc:
        return _unreadable(path, str(exc), enabled)
    except RecursionError:
        return _unreadable(path, f"{path}: input nested too deeply to read", enabled)
    except Exception as exc:  # noqa: BLE001 - a reader bug must not become a traceback
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return _unreadable(path, f"{path}: figlint could not read this input ({type(exc).__name__}: {exc} "
                           f"[{where.name}:{where.lineno}]); please report it", enabled)
    findings = [_problem_finding(p) for p in paper.problems if p.code in enabled]
    paper.extra["ocr"] = config.ocr != "off"  # auto: raster figures are read in papers too, where they carry text
    findings += lint_paper(paper, config, rules, timings)
    from figlint import judge  # the offline scorer unless a model protocol is configured

    t1 = time.perf_counter()
    findings += judge.score_paper(paper, findings, config, enabled)
    findings += skipped_findings(paper, enabled)  # FL011: figures over a per-figure budget (figlint/budget.py)
    timings["judge"] = time.perf_counter() - t1
    findings = apply_suppressions(paper, findings, rules) if paper.route == "latex" else findings
    findings = drop_per_figure_ignores(findings, paper, config)
    findings.sort(key=Finding.sort_key)
    return PaperResult(path=path, paper=paper, findings=findings, timings=timings)


def _unreadable(path: str, message: str, enabled: set[str]) -> PaperResult:
    result = PaperResult(path=path, error=message)
    if "FL001" in enabled:
        result.findings.append(_problem_finding(Problem("FL001", message, Location(file=path))))
    return result


def lint_paper(paper: Paper, config: Config, rules: list[Rule],
               timings: dict[str, float] | None = None) -> list[Finding]:
    from figlint import progress

    findings: list[Finding] = []
    timings = {} if timings is None else timings
    for rule in iter_enabled(rules, paper.route):
        t0 = time.perf_counter()
        ctx = Context(rule, paper, config.options)
        if rule.scope == "paper":
            findings += _guarded(rule, ctx, paper, None)
        else:
            for k, fig in enumerate(paper.figures):
                progress.step(f"{rule.code} on figure {k + 1} of {len(paper.figures)}")  # a terminal line only
                findings += _guarded(rule, ctx, fig, fig.number)
        stage = f"rules:{rule.family}"  # features and OCR run lazily inside the rules that need them
        timings[stage] = timings.get(stage, 0.0) + time.perf_counter() - t0
    return findings


def _guarded(rule: Rule, ctx: Context, target, figure: str | None) -> list[Finding]:
    try:
        return list(rule.check(target, ctx) or ())
    except FigureSkipped as exc:  # a size or time cap met inside a rule: FL011 for the figure
        if isinstance(target, Figure):
            budget_skip(target, str(exc))
        return []
    except FeatureFailed as exc:  # a feature the rule reads failed: reported once per figure
        if exc.reported:
            return []
        exc.reported = True
        return [_internal_error(ctx, figure, f"the {exc.feature} feature failed on {_what(figure)} "
                                f"(first read by {rule.code} {rule.name})", exc.exc)]
    except Exception as exc:  # noqa: BLE001 - one rule must never sink the run
        return [_internal_error(ctx, figure, f"rule {rule.code} ({rule.name}) failed on {_what(figure)}", exc)]


def _what(figure: str | None) -> str:
    return f"figure {figure}" if figure else "the paper"


def _internal_error(ctx: Context, figure: str | None, what: str, exc: BaseException) -> Finding:
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return Finding(
        code="FL009",
        rule="internal-error",
        severity="warning",
        message=f"{what}: {type(exc).__name__}: {exc} [{where.name}:{where.lineno}]",
        location=Location(file=ctx.paper.path),
        figure=figure,
    )


def _problem_finding(problem: Problem) -> Finding:
    from figlint.rules.registry import get_rule

    rule = get_rule(problem.code)
    return Finding(
        code=rule.code,
        rule=rule.name,
        severity=problem.severity or rule.severity,
        message=problem.message,
        location=problem.location,
        figure=problem.figure,
        origin="input",
    )
