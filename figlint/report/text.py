"""Text report: one ruff-like line per finding, then a per-figure summary.

`main.tex:42:3: FL202 [generic-caption] Figure 4: caption is generic ...`
for sources; `paper.pdf (page 3): FL101 [low-dpi] Figure 2: ...` for PDFs.
"""

from __future__ import annotations

import os
from collections import Counter

from figlint.model import Figure, Finding, Location


def display_path(file: str | None, root: str | None, default: str) -> str:
    """A path the user can click: source files are relative to the paper root."""
    if not file:
        return default
    if root and not os.path.isabs(file):
        return os.path.relpath(os.path.join(root, file))
    return file


def belongs(f: Finding, fig: Figure) -> bool:
    if fig.number:
        return f.figure == fig.number
    # uncaptioned figures have no number: match them by place
    loc = f.location
    return not f.figure and (
        (loc.line is not None and loc.line == fig.location.line and loc.file == fig.location.file)
        or (loc.line is None and loc.page == fig.page and loc.bbox == fig.bbox)
    )


def where(loc: Location, default: str, root: str | None = None) -> str:
    name = display_path(loc.file, root, default)
    if loc.line:
        return f"{name}:{loc.line}:{loc.column or 1}"
    if loc.page:
        return f"{name} (page {loc.page})"
    return name


def finding_line(f: Finding, default_file: str, root: str | None = None) -> str:
    fig = f"Figure {f.figure}: " if f.figure else ""
    return f"{where(f.location, default_file, root)}: {f.code} [{f.rule}] {fig}{f.message}"


def render(result) -> str:
    out: list[str] = []
    for r in result.results:
        root = r.paper.root if r.paper else None
        for f in r.findings:
            out.append(finding_line(f, r.path, root))
    for r in result.results:
        if r.error:
            continue
        paper = r.paper
        figs = paper.figures
        out.append("")
        pages = f", {paper.pages} page{'s' if paper.pages != 1 else ''}" if paper.pages else ""
        out.append(f"{r.path}: {len(figs)} figure{'s' if len(figs) != 1 else ''}{pages}")
        for fig in figs:
            codes = sorted({f.code for f in r.findings if belongs(f, fig)})
            name = fig.key if fig.number else "(uncaptioned)"
            page = f"p.{fig.page}" if fig.page else ""
            cap = "caption" if fig.has_caption else "no caption"
            cited = f"cited {len(fig.sites)}x" if fig.sites else "not cited"
            status = ", ".join(codes) if codes else "ok"
            kind = fig.kind
            if kind == "empty" and fig.extra.get("tikz") and not paper.pdf_path:
                # drawn by TeX: only a compiled PDF shows it (the main file's .pdf, or --pdf)
                kind, status = "tikz", f"{status} (drawing not checked: no compiled PDF)"
            out.append(f"  {name:<12} {page:<6} {kind:<7} {cap:<10} {cited:<10} {status}")
    counts = Counter(f.severity for f in result.findings)
    n = len(result.findings)
    parts = [f"{counts[k]} {k}{'s' if counts[k] != 1 else ''}" for k in ("error", "warning", "note") if counts[k]]
    papers = len(result.results)
    summary = f"Found {n} finding{'s' if n != 1 else ''}" + (f" ({', '.join(parts)})" if parts else "")
    summary += f" in {papers} input{'s' if papers != 1 else ''}."
    failed = [r for r in result.results if r.error]
    if failed:
        summary += f" {len(failed)} could not be read."
    out.append("")
    out.append(summary)
    return "\n".join(out).lstrip("\n") + "\n"
