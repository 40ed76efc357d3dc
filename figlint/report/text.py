"""Text report: one ruff-like line per finding, then a per-figure summary.

`main.tex:42:3: FL202 [generic-caption] Figure 4: caption is generic ...`
for sources; `paper.pdf (page 3): FL101 [low-dpi] Figure 2: ...` for PDFs.
"""

from __future__ import annotations

from collections import Counter

from figlint.model import Finding, Location


def where(loc: Location, default: str) -> str:
    name = loc.file or default
    if loc.line:
        return f"{name}:{loc.line}:{loc.column or 1}"
    if loc.page:
        return f"{name} (page {loc.page})"
    return name


def finding_line(f: Finding, default_file: str) -> str:
    fig = f"Figure {f.figure}: " if f.figure else ""
    return f"{where(f.location, default_file)}: {f.code} [{f.rule}] {fig}{f.message}"


def render(result) -> str:
    out: list[str] = []
    for r in result.results:
        for f in r.findings:
            out.append(finding_line(f, r.path))
    for r in result.results:
        if r.error:
            continue
        paper = r.paper
        figs = paper.figures
        out.append("")
        out.append(f"{r.path}: {len(figs)} figure{'s' if len(figs) != 1 else ''}, {paper.pages} page{'s' if paper.pages != 1 else ''}")
        for fig in figs:
            codes = sorted({f.code for f in r.findings if fig.number and f.figure == fig.number})
            name = fig.key if fig.number else "(uncaptioned)"
            page = f"p.{fig.page}" if fig.page else ""
            cap = "caption" if fig.has_caption else "no caption"
            cited = f"cited {len(fig.sites)}x" if fig.sites else "not cited"
            status = ", ".join(codes) if codes else "ok"
            out.append(f"  {name:<12} {page:<6} {fig.kind:<7} {cap:<10} {cited:<10} {status}")
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
