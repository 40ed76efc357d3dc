"""SARIF 2.1.0 report (`--format sarif`) for GitHub code scanning.

Built from sarif-om objects; sarif-om has no serializer, so `to_json` walks the
attrs fields, names each key by its `schema_property_name` metadata (camelCase,
`$schema`) and drops unset values and defaults. What GitHub needs and we make
sure of: tool.driver.rules[] from the rule registry (descriptions <= 1024
chars, help text and markdown, helpUri to rules/<CODE>.md, tags <= 10,
precision, no security-severity: these are not security alerts); results with
ruleId/ruleIndex/level/message and exactly one physical location whose
artifactLocation.uri is repository-relative (uriBaseId SRCROOT, which the run's
originalUriBaseIds maps to the repository root) and percent-encoded and whose
region.startLine >= 1 (the `.tex` line when known, else line 1 of the PDF plus
properties.page); partialFingerprints.primaryLocationLineHash from
figlint.fingerprint (stable across line shifts); one run per paper with
automationDetails.id `figlint/<paper path>/` so several papers upload side by
side; at most 25,000 results per run (the rest dropped, lowest severity first,
with a notification) and at most 20 runs per file (more papers share one run).
"""

from __future__ import annotations

import json
import re
from typing import Any

import attr
import sarif_om as om

from figlint import __version__
from figlint.fingerprint import fingerprints
from figlint.model import DIMENSION_ABBREV, Finding, Paper, severity_rank
from figlint.report.common import overall, scores_of
from figlint.report.links import PROJECT_URL, rule_url
from figlint.report.paths import relative_path, repo_root, source_location, to_uri

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SARIF_VERSION = "2.1.0"
MAX_RESULTS = 25_000
SRCROOT = "SRCROOT"  # the uriBaseId of every artifactLocation: the repository root
MAX_RUNS = 20
MAX_TAGS = 10
MAX_DESCRIPTION = 1024
# Kept even when equal to sarif-om's default, because readers (and people) look for them.
ALWAYS_KEEP = {"level"}
# How much a rule family's findings can be trusted, for GitHub's precision property.
PRECISION = {
    "tool": "very-high",
    "visual": "high",
    "caption": "medium",
    "references": "high",
    "misleading": "medium",
    "reasoning": "low",
    "accessibility": "high",
    "judge": "low",
}


def to_json(obj: Any) -> Any:
    """sarif-om object tree -> JSON-ready dicts with SARIF's property names."""
    if attr.has(type(obj)):
        out: dict[str, Any] = {}
        for a in attr.fields(type(obj)):
            value = getattr(obj, a.name)
            if value is None:
                continue
            if a.name not in ALWAYS_KEEP and a.default is not attr.NOTHING:
                default = a.default.factory() if isinstance(a.default, attr.Factory) else a.default
                if value == default:
                    continue
            out[a.metadata.get("schema_property_name", a.name)] = to_json(value)
        return out
    if isinstance(obj, dict):
        return {k: to_json(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    return obj


def clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return cut + "…"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def rule_descriptor(rule) -> om.ReportingDescriptor:
    from figlint.cli import rule_page

    sections = rule.doc_sections()
    summary = rule.summary or rule.name
    full = sections.get("What it does") or sections.get("summary") or summary
    page = rule_page(rule)
    tags = ["figures", rule.family]
    if rule.dimension:
        tags.append(_slug(rule.dimension))
        tags.append(DIMENSION_ABBREV.get(rule.dimension, rule.dimension))
    if rule.taxonomy:
        tags.append(_slug(rule.taxonomy))
    tags += [_slug(g) for g in rule.groups]
    tags = list(dict.fromkeys(t for t in tags if t))[:MAX_TAGS]
    props: dict[str, Any] = {"tags": tags, "precision": PRECISION.get(rule.family, "medium")}
    if rule.dimension:
        props["dimension"] = rule.dimension
    if rule.cap is not None:
        props["cap"] = rule.cap
    if rule.taxonomy:
        props["taxonomy"] = rule.taxonomy
    return om.ReportingDescriptor(
        id=rule.code,
        name=rule.name,
        short_description=om.MultiformatMessageString(text=clip(summary)),
        full_description=om.MultiformatMessageString(text=clip(" ".join(full.split()))),
        help=om.MultiformatMessageString(text=_plain(page), markdown=page),
        help_uri=rule_url(rule.code),
        default_configuration=om.ReportingConfiguration(level=rule.severity, enabled=rule.on_by_default),
        properties=props,
    )


def _plain(markdown: str) -> str:
    lines = []
    for line in markdown.splitlines():
        line = re.sub(r"^#+\s*", "", line)
        lines.append(line.replace("`", ""))
    return "\n".join(lines).strip()


def _driver() -> tuple[om.ToolComponent, dict[str, int]]:
    from figlint.rules.registry import all_rules

    rules = all_rules()
    descriptors = [rule_descriptor(r) for r in rules]
    index = {r.code: i for i, r in enumerate(rules)}
    driver = om.ToolComponent(
        name="figlint",
        version=__version__,
        semantic_version=__version__,
        information_uri=PROJECT_URL,
        rules=descriptors,
    )
    return driver, index


def _artifact(file: str, paper: Paper | None, root) -> str:
    from pathlib import Path

    rel = relative_path(file, root, paper)
    target = root / rel
    if rel == "." or target.is_dir():
        # A paper directory is not an artifact: point at its main source when we can tell.
        main = (paper.extra.get("main") if paper is not None else None) or _first_source(paper)
        if main:
            return relative_path(main, root, paper)
        candidate = Path(rel) / "main.tex"
        return candidate.as_posix() if rel != "." else "main.tex"
    return rel


def _first_source(paper: Paper | None) -> str | None:
    if paper is None:
        return None
    for fig in paper.figures:
        if fig.location.file:
            return fig.location.file
    return None


def result_for(f: Finding, fp: str, rule_index: int, paper: Paper | None, default_file: str, root) -> om.Result:
    loc = source_location(f, paper, default_file)
    path = _artifact(loc.file or default_file, paper, root)
    region = om.Region(start_line=loc.line if loc.line and loc.line >= 1 else 1)
    if loc.line and loc.column and loc.column >= 1:
        region.start_column = loc.column
    fig = paper.figure(f.figure) if (paper is not None and f.figure) else None
    scores = scores_of(fig)
    props: dict[str, Any] = {
        "figure": f.figure,
        "page": loc.page if loc.page is not None else (fig.page if fig is not None else None),
        "dimension": f.dimension,
        "cap": f.cap,
        "taxonomy": f.taxonomy,
        "origin": f.origin,
        "rule": f.rule,
    }
    if scores is not None:
        props["scores"] = scores
        props["overall"] = overall(scores)
    text = f"Figure {f.figure}: {f.message}" if f.figure else f.message
    if not loc.line and props["page"]:
        text += f" (page {props['page']})"  # code scanning cannot show a PDF page; say it
    return om.Result(
        message=om.Message(text=text),
        rule_id=f.code,
        rule_index=rule_index,
        level=f.severity,
        locations=[
            om.Location(
                physical_location=om.PhysicalLocation(
                    artifact_location=om.ArtifactLocation(uri=to_uri(path), uri_base_id=SRCROOT),
                    region=region,
                )
            )
        ],
        partial_fingerprints={"primaryLocationLineHash": fp},
        properties={k: v for k, v in props.items() if v is not None},
    )


def _keep_most_severe(items: list, limit: int) -> list:
    """At most `limit` items, dropping the least severe first, in their original order."""
    if len(items) <= limit:
        return items
    order = sorted(range(len(items)), key=lambda i: (-severity_rank(items[i][0].severity), i))
    keep = set(order[:limit])
    return [it for i, it in enumerate(items) if i in keep]


def build(result, *, category: str | None = None) -> dict:
    """The SARIF log as a dict (what `render` dumps)."""
    papers = list(result.results)
    groups = [[r] for r in papers] if len(papers) <= MAX_RUNS else [papers]
    runs = []
    for group in groups:
        driver, index = _driver()
        items = []
        notes = []
        for r in group:
            root = repo_root(r.path)
            fps = fingerprints(r.findings, r.paper)
            items += [(f, fp, r, root) for f, fp in zip(r.findings, fps)]
        kept = _keep_most_severe(items, MAX_RESULTS)
        if len(kept) < len(items):
            notes.append(
                om.Notification(
                    message=om.Message(
                        text=f"figlint found {len(items)} results; this run holds the {MAX_RESULTS} most "
                        "severe (GitHub code scanning's limit). See the JSON or Markdown report for all."
                    ),
                    level="warning",
                )
            )
        results = []
        for f, fp, r, root in kept:
            if f.code not in index:  # a code not in the registry: describe it so ruleIndex stays valid
                index[f.code] = len(driver.rules)
                driver.rules.append(om.ReportingDescriptor(id=f.code, name=f.rule,
                                                           short_description=om.MultiformatMessageString(text=f.rule)))
            results.append(result_for(f, fp, index[f.code], r.paper, r.path, root))
        for r in group:
            if r.error:
                notes.append(om.Notification(message=om.Message(text=r.error), level="error"))
        if category:
            run_id = category.rstrip("/") + "/"
        elif len(group) == 1:
            r = group[0]
            run_id = f"figlint/{relative_path(r.path, repo_root(r.path), r.paper)}/"
        else:
            run_id = "figlint/"
        roots = {root for _, _, _, root in items} or {repo_root(group[0].path)}
        runs.append(
            om.Run(
                tool=om.Tool(driver=driver),
                # where the relative uris start (the repository root), when the run has one root
                original_uri_base_ids={SRCROOT: om.ArtifactLocation(uri=roots.pop().as_uri() + "/")}
                if len(roots) == 1 else None,
                results=results,
                automation_details=om.RunAutomationDetails(id=run_id),
                invocations=[
                    om.Invocation(
                        execution_successful=not any(r.error for r in group),
                        tool_execution_notifications=notes or None,
                    )
                ],
            )
        )
    doc = to_json(om.SarifLog(version=SARIF_VERSION, schema_uri=SCHEMA_URI, runs=runs))
    return {"$schema": doc.pop("$schema"), "version": doc.pop("version"), **doc}


def render(result) -> str:
    return json.dumps(build(result), indent=2, ensure_ascii=False) + "\n"
