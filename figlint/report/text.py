"""Text report: one ruff-like line per finding, then a per-figure summary.

`main.tex:42:3: FL202 [generic-caption] Figure 4: caption is generic ...`
for sources; `paper.pdf (page 3): FL101 [low-dpi] Figure 2: ...` for PDFs.
Everything that comes from the paper (messages quoting captions, file names)
goes through report/safe.py: no escape sequence reaches the terminal.
`show_source` adds ruff-like context lines under each finding with a source
line; `color` (decided by the CLI: a terminal, NO_COLOR/FORCE_COLOR) adds ANSI
colours to the parts figlint writes itself, never to paper text.
"""

from __future__ import annotations

import os
from collections import Counter

from figlint.model import Finding, Location
from figlint.report.common import belongs  # noqa: F401 - re-exported for older imports
from figlint.report.safe import safe_text

_SGR = {"bold": "1", "red": "31", "yellow": "33", "cyan": "36", "dim": "2", "blue": "34"}
_LEVEL_COLOUR = {"error": "red", "warning": "yellow", "note": "cyan"}
CONTEXT_LINES = 1  # lines shown above and below a finding's line with show_source


def _paint(text: str, style: str, color: bool) -> str:
    return f"\x1b[{_SGR[style]}m{text}\x1b[0m" if color else text


def display_path(file: str | None, root: str | None, default: str, paper=None) -> str:
    """A path the user can click: source files are relative to the paper root; a file
    inside an unpacked source zip is named inside the zip (`paper.zip/main.tex`)."""
    if not file:
        return default
    archive = paper.extra.get("archive") if paper is not None else None
    if root and not os.path.isabs(file):
        full = os.path.join(root, file)
        if archive:
            inner = os.path.relpath(full, archive["dir"]).replace(os.sep, "/")
            return f"{archive['path']}/{inner}"
        return os.path.relpath(full)
    return file


def where(loc: Location, default: str, root: str | None = None, paper=None) -> str:
    name = safe_text(display_path(loc.file, root, default, paper), limit=300)
    if loc.line:
        return f"{name}:{loc.line}:{loc.column or 1}"
    if loc.page:
        return f"{name} (page {loc.page})"
    return name


def finding_line(f: Finding, default_file: str, root: str | None = None, paper=None, color: bool = False) -> str:
    fig = f"Figure {safe_text(f.figure, limit=40)}: " if f.figure else ""
    code = _paint(f.code, _LEVEL_COLOUR.get(f.severity, "yellow"), color)
    place = _paint(where(f.location, default_file, root, paper), "bold", color)
    rule = _paint(f"[{f.rule}]", "dim", color)
    return f"{place}: {code} {rule} {fig}{safe_text(f.message)}"


def source_lines(f: Finding, root: str | None, color: bool = False) -> list[str]:
    """Context lines for a finding on a source line (ruff's "full" output); [] when none."""
    loc = f.location
    if not loc.file or not loc.line:
        return []
    path = loc.file if os.path.isabs(loc.file) or not root else os.path.join(root, loc.file)
    if not path.lower().endswith((".tex", ".sty", ".cls", ".bib", ".ltx", ".pgf", ".tikz")):
        return []
    try:
        with open(path, "rb") as fh:
            lines = fh.read(8 * 1024 * 1024).decode("utf-8", errors="replace").split("\n")
    except OSError:
        return []
    if loc.line > len(lines):
        return []
    first, last = max(1, loc.line - CONTEXT_LINES), min(len(lines), loc.line + CONTEXT_LINES)
    width = len(str(last))
    bar = _paint("|", "blue", color)
    out = [f"{' ' * width} {bar}"]
    for n in range(first, last + 1):
        text = safe_text(lines[n - 1].rstrip("\r"), limit=200)
        out.append(f"{_paint(str(n).rjust(width), 'blue', color)} {bar} {text}")
        if n == loc.line:
            col = max(1, loc.column or 1)
            caret = " " * min(col - 1, len(text)) + "^"
            out.append(f"{' ' * width} {bar} {_paint(caret, _LEVEL_COLOUR.get(f.severity, 'yellow'), color)}")
    out.append(f"{' ' * width} {bar}")
    return out


def render(result, color: bool = False, show_source: bool = False) -> str:
    out: list[str] = []
    for r in result.results:
        root = r.paper.root if r.paper else None
        for f in r.findings:
            out.append(finding_line(f, r.path, root, r.paper, color))
            if show_source:
                out += source_lines(f, root, color)
    for r in result.results:
        if r.error:
            continue
        paper = r.paper
        figs = paper.figures
        out.append("")
        pages = f", {paper.pages} page{'s' if paper.pages != 1 else ''}" if paper.pages else ""
        out.append(f"{safe_text(r.path, limit=300)}: {len(figs)} figure{'s' if len(figs) != 1 else ''}{pages}")
        for fig in figs:
            codes = sorted({f.code for f in r.findings if belongs(f, fig)})
            name = safe_text(fig.key, limit=40) if fig.number else "(uncaptioned)"
            page = f"p.{fig.page}" if fig.page else ""
            cap = "caption" if fig.has_caption else "no caption"
            cited = f"cited {len(fig.sites)}x" if fig.sites else "continued" if fig.continuation else "not cited"
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
    hint = preview_hint(result.config)
    if hint:
        out.append(hint)
    return "\n".join(out).lstrip("\n") + "\n"


def preview_hint(cfg) -> str:
    """Say that preview rules did not run, so 'ok' is not read as 'checked by every rule'."""
    if cfg is None or cfg.preview or cfg.select is not None:
        return ""
    from figlint.config import enabled_rules
    from figlint.rules.registry import all_rules

    ran = {r.code for r in enabled_rules(cfg)}
    waiting = [r for r in all_rules() if r.default_enabled and not r.stable and r.code not in ran]
    if not waiting:
        return ""
    return (f"{len(waiting)} preview rules did not run (not yet precise enough on audited real papers, "
            "see `figlint rules`); `--preview` runs them.")


def render_statistics(result, color: bool = False) -> str:
    """`--statistics`: findings counted per rule, most frequent first (as ruff prints them)."""
    from figlint.report.common import rule_counts

    rows = rule_counts(result)
    if not rows:
        return "No findings.\n"
    width = max(len(str(n)) for _, _, _, n in rows)
    lines = [f"{str(n).rjust(width)}  {_paint(code, _LEVEL_COLOUR.get(sev, 'yellow'), color)}  [{name}]"
             for code, name, sev, n in rows]
    return "\n".join(lines) + "\n"
