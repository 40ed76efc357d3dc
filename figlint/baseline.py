"""Baselines: adopt figlint on a paper with existing debt and report only new findings.

`figlint --write-baseline FILE` records the current findings' fingerprints
(figlint.fingerprint: rule + figure identity + message, not line numbers, so
the baseline survives edits around the figures); `--baseline FILE` drops the
findings whose fingerprint is recorded. Papers are keyed by their path
relative to the repository root, so the baseline works from any directory.
The file is JSON and diff-friendly: one entry per finding with its code,
figure and message next to the fingerprint, for humans reviewing it.
"""

from __future__ import annotations

import json
from pathlib import Path

from figlint.errors import UsageError
from figlint.fingerprint import fingerprints
from figlint.report.paths import relative_path, repo_root

FORMAT_VERSION = 1


def paper_key(path: str, paper=None) -> str:
    return relative_path(path, repo_root(path), paper)


def build(result) -> dict:
    papers: dict[str, list[dict]] = {}
    for r in result.results:
        entries = papers.setdefault(paper_key(r.path, r.paper), [])
        for f, fp in zip(r.findings, fingerprints(r.findings, r.paper)):
            entries.append({"fingerprint": fp, "code": f.code, "figure": f.figure, "message": f.message})
    return {"figlint_baseline": FORMAT_VERSION, "papers": papers}


def write(result, path: str) -> None:
    try:
        Path(path).write_text(json.dumps(build(result), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write baseline {path}: {exc.strerror}") from None


def load(path: str) -> dict[str, set[str]]:
    """paper key -> recorded fingerprints."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"baseline file not found: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"cannot read baseline {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("figlint_baseline") != FORMAT_VERSION or not isinstance(
        data.get("papers"), dict
    ):
        raise UsageError(f"{path} is not a figlint baseline (version {FORMAT_VERSION})")
    out: dict[str, set[str]] = {}
    for key, entries in data["papers"].items():
        if not isinstance(entries, list):
            raise UsageError(f"{path}: entries of '{key}' must be a list")
        out[key] = {e["fingerprint"] for e in entries if isinstance(e, dict) and "fingerprint" in e}
    return out


def apply(result, path: str) -> int:
    """Drop the findings recorded in the baseline at `path`; return how many were dropped.

    The only place findings are filtered by a baseline (CLI and Action both call it).
    The count is kept in paper.extra["baseline_suppressed"] for the reports.
    """
    known = load(path)
    dropped = 0
    for r in result.results:
        recorded = known.get(paper_key(r.path, r.paper), set())
        if not recorded:
            continue
        keep = [f for f, fp in zip(r.findings, fingerprints(r.findings, r.paper)) if fp not in recorded]
        n = len(r.findings) - len(keep)
        r.findings = keep
        dropped += n
        if r.paper is not None:
            r.paper.extra["baseline_suppressed"] = n
    return dropped
