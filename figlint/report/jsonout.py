"""JSON report (schema version 1; documented in README "JSON output").

Shape: {"figlint_version", "schema_version", "papers": [{path, route, pages,
body_font_size, error, figures: [...], findings: [...]}], "summary"}.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict

from figlint import __version__
from figlint.model import Figure, Finding, Location

SCHEMA_VERSION = 1


def _loc(loc: Location) -> dict:
    d = asdict(loc)
    if d["bbox"] is not None:
        d["bbox"] = [round(v, 2) for v in d["bbox"]]
    return d


def finding_dict(f: Finding) -> dict:
    return {
        "code": f.code,
        "rule": f.rule,
        "severity": f.severity,
        "message": f.message,
        "figure": f.figure,
        "location": _loc(f.location),
        "dimension": f.dimension,
        "cap": f.cap,
        "taxonomy": f.taxonomy,
        "origin": f.origin,
        "evidence": f.evidence,
    }


def figure_dict(fig: Figure, findings: list[Finding]) -> dict:
    cap = fig.caption
    n_spans, min_pt, n_drawings = fig.content_counts()  # counts survive the results cache
    return {
        "number": fig.number or None,
        "labels": fig.labels,
        "page": fig.page,
        "bbox": [round(v, 2) for v in fig.bbox] if fig.bbox else None,
        "env": fig.env,
        "in_appendix": fig.in_appendix,
        "location": _loc(fig.location),
        "caption": None
        if cap is None
        else {"label": cap.label, "text": cap.text, "short": cap.short, "location": _loc(cap.location)},
        "citing_sites": [
            {
                "sentence": s.sentence,
                "paragraph": s.paragraph,
                "mention": s.mention,
                "via": s.via,
                "macro": s.macro,
                "panels": s.panels,
                "location": _loc(s.location),
            }
            for s in fig.sites
        ],
        "gated_dimensions": fig.gated_dimensions(),
        "content": {
            "kind": fig.kind,
            "graphics": fig.graphics,
            "text_spans": n_spans,
            "min_font_pt": round(min_pt, 2) if min_pt is not None else None,
            "drawings": n_drawings,
            "images": [
                {
                    "pixels": [i.width_px, i.height_px],
                    "printed_in": [round((i.bbox[2] - i.bbox[0]) / 72, 3), round((i.bbox[3] - i.bbox[1]) / 72, 3)],
                    "effective_dpi": round(i.effective_dpi, 1),
                }
                for i in fig.images
            ],
            "subpanels": [p.label for p in fig.subpanels],
        },
        "scores": fig.extra.get("scores"),
        "findings": [f.code for f in findings if f.figure == fig.number and fig.number],
    }


def paper_dict(r) -> dict:
    paper = r.paper
    return {
        "path": r.path,
        "route": paper.route if paper else None,
        "pages": paper.pages if paper else None,
        "body_font_size": paper.body_font_size if paper else None,
        "error": r.error,
        "figures": [figure_dict(f, r.findings) for f in paper.figures] if paper else [],
        "findings": [finding_dict(f) for f in r.findings],
    }


def summary_dict(result) -> dict:
    counts = Counter(f.severity for f in result.findings)
    return {
        "papers": len(result.results),
        "figures": sum(len(r.paper.figures) for r in result.results if r.paper),
        "findings": len(result.findings),
        "by_severity": {k: counts.get(k, 0) for k in ("error", "warning", "note")},
        "fail_on": result.config.fail_on,
        "exit_code": result.exit_code(),
    }


def render(result) -> str:
    doc = {
        "figlint_version": __version__,
        "schema_version": SCHEMA_VERSION,
        "papers": [paper_dict(r) for r in result.results],
        "summary": summary_dict(result),
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
