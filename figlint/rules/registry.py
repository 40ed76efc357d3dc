"""The rule registry: one small unit per rule, declared with @rule.

A rule is a function over one figure (scope "figure") or the whole paper
(scope "paper") that yields Findings through its context. Its code, name,
family, default severity, rubric dimension, cap and options are declared in
the decorator; its docstring (What it does / Why is this bad? / Example /
Use instead) is the rule's documentation, from which `figlint explain`, the
rule pages under rules/ and SARIF rules[] are generated. Codes never change
meaning: a retired code is kept out of reuse in RETIRED.

Stable and preview: a rule is on by default only while its precision measured on
real papers nobody tuned it for (benchmarks/field_audit, recorded in
field_precision.json next to this module) is at least MIN_PRECISION over at least
MIN_AUDITED audited findings from at least MIN_PAPERS papers. Every other rule is
preview: off unless the run asks for preview rules (`--preview`, `preview = true`) or
select/extend-select names it (by code, prefix, name, family or ALL).
Tool/input findings (FL0xx) and judge thresholds the user sets (FL7xx) are exempt.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from figlint.model import Figure, Finding, Location, Paper, plain

FAMILIES = {
    "FL0": "tool",
    "FL1": "visual",
    "FL2": "caption",
    "FL3": "references",
    "FL4": "misleading",
    "FL5": "reasoning",
    "FL6": "accessibility",
    "FL7": "judge",
}
DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead")
RETIRED: set[str] = set()

# The stable/preview bar (issue 13): precision on audited real papers, debatable counting
# as not true. A rule with fewer audited findings has not been shown to be right on papers
# nobody tuned it for, so it is preview too ("unproven").
MIN_PRECISION = 0.90
MIN_AUDITED = 10
# ...and from at least this many papers: sixty findings of one cause in one paper (a
# misspelt figure folder) prove less about a rule than ten findings across ten papers
MIN_PAPERS = 3
PRECISION_FILE = Path(__file__).with_name("field_precision.json")
# FL0xx report the tool's own trouble with the input; FL7xx fire only below a judge
# threshold the user configured. Neither is a claim about the figure to be measured.
EXEMPT_PREFIXES = ("FL0", "FL7")


def exempt_from_preview(code: str) -> bool:
    return code.startswith(EXEMPT_PREFIXES)


def measured_enough(m: dict | None) -> bool:
    """Field-audit counts on enough findings from enough papers to decide a rule's status."""
    return bool(m) and m["audited"] >= MIN_AUDITED and m.get("papers", 0) >= MIN_PAPERS


def proven_wrong(m: dict | None) -> bool:
    """Measured enough, and below the bar: an exempt rule loses its exemption."""
    return measured_enough(m) and m["precision"] < MIN_PRECISION


_PRECISION: dict[str, dict] | None = None


def field_precision() -> dict[str, dict]:
    """code -> {audited, true, debatable, false, precision} from field_precision.json."""
    global _PRECISION
    if _PRECISION is None:
        try:
            _PRECISION = json.loads(PRECISION_FILE.read_text())["rules"]
        except (OSError, ValueError, KeyError):
            _PRECISION = {}
    return _PRECISION


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: str
    check: Callable[..., Iterable[Finding] | None] | None
    scope: str = "figure"  # "figure", "paper", or "engine" (emitted by the engine itself)
    dimension: str | None = None
    cap: int | None = None
    taxonomy: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    default_enabled: bool = True
    routes: tuple[str, ...] = ("pdf", "latex", "image")
    groups: tuple[str, ...] = ()

    @property
    def measured(self) -> dict | None:
        """This rule's field-audit counts, or None when no finding of it was audited."""
        return field_precision().get(self.code)

    @property
    def proven_wrong(self) -> bool:
        """The audit shows this rule's marks are mostly wrong (`proven_wrong`): an exempt rule
        loses its exemption."""
        return proven_wrong(self.measured)

    @property
    def stable(self) -> bool:
        """On by default (if default_enabled): exempt and not proven wrong, or proven on
        audited real papers."""
        if exempt_from_preview(self.code):
            return not self.proven_wrong
        m = self.measured
        return measured_enough(m) and m["precision"] >= MIN_PRECISION

    @property
    def status(self) -> str:
        return "stable" if self.stable else "preview"

    @property
    def status_text(self) -> str:
        """One line for the rule page and `figlint rules`: status and the measured figure."""
        m = self.measured
        if exempt_from_preview(self.code) and self.proven_wrong:
            return (f"preview (a tool/input finding, exempt from the field-audit bar until measured below it: "
                    f"field audit {m['true']}/{m['audited']} true, precision {m['precision']:.3f}, "
                    f"{m.get('papers', 0)} papers)")
        if exempt_from_preview(self.code):
            why = "tool/input finding" if self.code.startswith("FL0") else "fires only below a threshold you set"
            base = f"stable (exempt from the field-audit bar: {why})"
            if m:
                base += f"; field audit: {m['true']}/{m['audited']} true ({m['precision']:.3f})"
            return base
        if not m:
            return (f"preview (unproven: no audited finding on real papers yet; stable needs precision "
                    f">= {MIN_PRECISION:.2f} over >= {MIN_AUDITED})")
        figure = (f"field audit: {m['true']}/{m['audited']} true, precision {m['precision']:.3f} "
                  f"({m['debatable']} debatable, {m['false']} false; {m.get('papers', 0)} papers)")
        if self.stable:
            return f"stable ({figure})"
        if not measured_enough(m):
            return (f"preview (unproven: {figure}; stable needs >= {MIN_AUDITED} audited findings "
                    f"from >= {MIN_PAPERS} papers)")
        return f"preview ({figure}; stable needs >= {MIN_PRECISION:.2f})"

    @property
    def on_by_default(self) -> bool:
        return self.default_enabled and self.stable

    @property
    def family(self) -> str:
        return FAMILIES[self.code[:3]]

    @property
    def doc(self) -> str:
        return inspect.cleandoc(self.check.__doc__ or "") if self.check else ""

    def doc_sections(self) -> dict[str, str]:
        """Split the docstring into its summary and the four named sections."""
        sections: dict[str, list[str]] = {"summary": []}
        current = "summary"
        for line in self.doc.splitlines():
            stripped = line.strip().rstrip(":")
            if stripped in DOC_SECTIONS:
                current = stripped
                sections[current] = []
            else:
                sections[current].append(line)
        return {k: "\n".join(v).strip() for k, v in sections.items()}

    @property
    def summary(self) -> str:
        return self.doc_sections()["summary"].split("\n\n")[0].replace("\n", " ")


_REGISTRY: dict[str, Rule] = {}


def rule(
    code: str,
    name: str,
    *,
    severity: str = "warning",
    scope: str = "figure",
    dimension: str | None = None,
    cap: int | None = None,
    taxonomy: str | None = None,
    options: dict[str, Any] | None = None,
    default_enabled: bool = True,
    routes: tuple[str, ...] = ("pdf", "latex", "image"),
    groups: tuple[str, ...] = (),
) -> Callable:
    """Register the decorated function as rule `code`."""

    def wrap(fn: Callable) -> Callable:
        if code in _REGISTRY or code in RETIRED:
            raise ValueError(f"rule code {code} is already taken")
        _REGISTRY[code] = Rule(
            code=code,
            name=name,
            severity=severity,
            check=fn,
            scope=scope,
            dimension=dimension,
            cap=cap,
            taxonomy=taxonomy,
            options=dict(options or {}),
            default_enabled=default_enabled,
            routes=routes,
            groups=groups,
        )
        return fn

    return wrap


def all_rules() -> list[Rule]:
    """Every registered rule, sorted by code (imports the rule modules once)."""
    from figlint.rules import load_all

    load_all()
    return [_REGISTRY[c] for c in sorted(_REGISTRY)]


def get_rule(code: str) -> Rule:
    all_rules()
    return _REGISTRY[code]


def option_defaults() -> dict[str, tuple[str, Any]]:
    """option name -> (rule code, default value), across all rules."""
    out: dict[str, tuple[str, Any]] = {}
    for r in all_rules():
        for key, default in r.options.items():
            out[key] = (r.code, default)
    return out


class Context:
    """What a rule sees besides its figure: the paper, its options, a finding factory."""

    def __init__(self, rule: Rule, paper: Paper, options: dict[str, Any]):
        self.rule = rule
        self.paper = paper
        self.options = options

    def option(self, key: str) -> Any:
        return self.options.get(key, self.rule.options[key])

    def finding(
        self,
        message: str,
        *,
        figure: Figure | None = None,
        location: Location | None = None,
        evidence: dict[str, Any] | None = None,
        severity: str | None = None,
        cap: int | None = None,
        taxonomy: str | None = None,
        origin: str | None = None,
    ) -> Finding:
        r = self.rule
        if location is None:
            location = figure_location(figure) if figure is not None else Location(file=self.paper.path)
        return Finding(
            code=r.code,
            rule=r.name,
            severity=severity or r.severity,
            message=message,
            location=location,
            figure=figure.number if figure is not None else None,
            evidence=plain(evidence or {}),
            dimension=r.dimension,
            cap=cap if cap is not None else r.cap,
            taxonomy=taxonomy or r.taxonomy,
            origin=origin,
        )


def figure_location(fig: Figure) -> Location:
    """The best place to point at for a figure: its source line, else its page box."""
    loc = fig.location
    if loc.file and loc.line:
        return Location(file=loc.file, line=loc.line, column=loc.column, page=fig.page, bbox=fig.bbox)
    box = fig.bbox or (fig.caption.location.bbox if fig.caption else None)
    return Location(file=loc.file, page=fig.page, bbox=box)


def iter_enabled(rules: Iterable[Rule], route: str) -> Iterator[Rule]:
    for r in rules:
        if route in r.routes and r.check is not None and r.scope != "engine":
            yield r
