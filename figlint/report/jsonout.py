"""JSON report (schema version 1; documented in README "JSON output").

Shape: {"figlint_version", "schema_version", "papers": [{path, route, pages,
body_font_size, error, figures: [...], findings: [...]}], "summary"}.

Location paths follow the text report's convention (report/text.py
`display_path`: relative to the working directory, POSIX slashes; inside a
source zip, `paper.zip/main.tex`), so a path copied from one report finds the
same file in the other. Every finding carries the `fingerprint` SARIF and
baselines use (figlint/fingerprint.py). Paper text is cut to
safe.TEXT_LIMIT characters with an ellipsis (captions, sentences, paragraphs;
`truncated` says so); escaping is the JSON encoder's.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict

from figlint import __version__
from figlint.model import Figure, Finding, Location
from figlint.report.common import belongs
from figlint.report.safe import TEXT_LIMIT, clip

SCHEMA_VERSION = 1


def _loc(loc: Location, paper=None, default: str | None = None) -> dict:
    d = asdict(loc)
    if d["bbox"] is not None:
        d["bbox"] = [round(v, 2) for v in d["bbox"]]
    if d["file"]:
        from figlint.report.text import display_path

        d["file"] = display_path(d["file"], paper.root if paper is not None else None,
                                 default or d["file"], paper).replace("\\", "/")
    return d


def _text(value: str | None) -> str | None:
    return None if value is None else clip(value, TEXT_LIMIT)


def finding_dict(f: Finding, paper=None, default: str | None = None, fingerprint: str | None = None) -> dict:
    return {
        "code": f.code,
        "rule": f.rule,
        "severity": f.severity,
        "message": f.message,
        "figure": f.figure,
        "location": _loc(f.location, paper, default),
        "fingerprint": fingerprint,
        "dimension": f.dimension,
        "cap": f.cap,
        "taxonomy": f.taxonomy,
        "origin": f.origin,
        "evidence": f.evidence,
    }


def figure_dict(fig: Figure, findings: list[Finding], paper=None) -> dict:
    cap = fig.caption
    n_spans, min_pt, n_drawings = fig.content_counts()  # counts survive the results cache
    return {
        "number": fig.number or None,
        "labels": fig.labels,
        "page": fig.page,
        "bbox": [round(v, 2) for v in fig.bbox] if fig.bbox else None,
        # a float set sideways is read in the page turned clockwise by this many degrees: its
        # boxes (and its findings') are in that turned page (MuPDF's frame for that /Rotate)
        "turn": fig.extra.get("turn", 0),
        "env": fig.env,
        "in_appendix": fig.in_appendix,
        "location": _loc(fig.location, paper),
        "caption": None
        if cap is None
        else {"label": cap.label, "text": _text(cap.text), "short": _text(cap.short),
              "truncated": len(cap.text or "") > TEXT_LIMIT, "location": _loc(cap.location, paper)},
        "citing_sites": [
            {
                "sentence": _text(s.sentence),
                "paragraph": _text(s.paragraph),
                "mention": s.mention,
                "via": s.via,
                "macro": s.macro,
                "panels": s.panels,
                "location": _loc(s.location, paper),
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
        "findings": [f.code for f in findings if belongs(f, fig)],
    }


def paper_dict(r) -> dict:
    from figlint.fingerprint import fingerprints

    paper = r.paper
    return {
        "path": r.path,
        "route": paper.route if paper else None,
        "pages": paper.pages if paper else None,
        "body_font_size": paper.body_font_size if paper else None,
        "error": r.error,
        "figures": [figure_dict(f, r.findings, paper) for f in paper.figures] if paper else [],
        "findings": [finding_dict(f, paper, r.path, fp) for f, fp in zip(r.findings, fingerprints(r.findings, paper))],
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
