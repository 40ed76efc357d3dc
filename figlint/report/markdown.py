"""Markdown report (`--format markdown`) for pull-request comments and `$GITHUB_STEP_SUMMARY`.

A verdict line, per paper a table of figures with their five scores (— when a
dimension is null or the figure is unscored) and worst finding, then the
findings grouped by figure inside folded `<details>` blocks, with the quoted
evidence and a link to each rule's page. The pieces are jinja2 templates
(figlint/report/templates/); this module assembles them under a character
budget (GitHub's comment limit is 65,536), dropping the least important
parts first — per-figure findings, then whole figure blocks, then table rows
— and saying so in a note, so the report is always valid Markdown that fits.
Thumbnails appear when a figure has `extra["thumbnail"]` (see write_thumbnails).
"""

from __future__ import annotations

import html
from functools import lru_cache
from pathlib import Path
from typing import Any

from figlint import __version__
from figlint.model import DIMENSIONS, Figure, Finding, Paper
from figlint.report.common import overall, plural, scores_of, severity_counts, worst
from figlint.report.links import PROJECT_URL, rule_url

COMMENT_LIMIT = 65_536
DEFAULT_LIMIT = COMMENT_LIMIT - 536  # room for a marker or a heading around the report
ICONS = {"error": "❌", "warning": "⚠️", "note": "ℹ️"}
QUOTE_KEYS = ("quote", "claim", "sentence", "sentences", "caption", "mention", "text")
MAX_QUOTES = 3
MAX_QUOTE_CHARS = 300


@lru_cache(maxsize=1)
def _env():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("figlint.report", "templates"),
        autoescape=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = md_escape
    env.filters["cell"] = cell
    return env


def _tpl(name: str, **kw: Any) -> str:
    return _env().get_template(name).render(**kw)


def md_escape(text: Any) -> str:
    """User text (captions, sentences, messages) as inert inline Markdown: no HTML, one line."""
    return html.escape(" ".join(str(text).split()), quote=False)


def cell(text: Any) -> str:
    return md_escape(text).replace("|", "\\|")


def fmt_score(v: Any) -> str:
    if v is None or isinstance(v, bool) or not isinstance(v, (int, float)):
        return "—"
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"


def _where(f: Finding, default: str) -> str:
    from figlint.report.text import where

    return where(f.location, default)


def _quotes(f: Finding) -> list[str]:
    out: list[str] = []
    for key in QUOTE_KEYS:
        value = f.evidence.get(key)
        values = value if isinstance(value, list) else [value]
        for v in values:
            if isinstance(v, str) and v.strip() and v not in out:
                v = " ".join(v.split())
                out.append(v if len(v) <= MAX_QUOTE_CHARS else v[: MAX_QUOTE_CHARS - 1] + "…")
    return out[:MAX_QUOTES]


def _facts(f: Finding) -> str:
    """Short non-quote evidence, e.g. `effective_dpi=150.0, pixels=[160, 120]`."""
    parts = []
    for key, v in f.evidence.items():
        if key in QUOTE_KEYS or v is None:
            continue
        if isinstance(v, (int, float, bool)) or (isinstance(v, str) and len(v) <= 60):
            parts.append(f"{key}={v}")
        elif isinstance(v, (list, tuple)) and 0 < len(v) <= 4 and all(isinstance(x, (int, float)) for x in v):
            parts.append(f"{key}=[{', '.join(str(x) for x in v)}]")
    return ", ".join(parts[:5])


def _finding_view(f: Finding, default_file: str) -> dict:
    return {
        "icon": ICONS.get(f.severity, ""),
        "code": f.code,
        "rule": f.rule,
        "url": rule_url(f.code),
        "severity": f.severity,
        "where": _where(f, default_file),
        "message": f.message,
        "quotes": _quotes(f),
        "facts": _facts(f),
    }


def _counts_text(findings: list[Finding]) -> str:
    c = severity_counts(findings)
    parts = [plural(c[k], k) for k in ("error", "warning", "note") if c[k]]
    return ", ".join(parts) if parts else "no findings"


def _figure_name(fig: Figure) -> str:
    return fig.key if fig.number else "(uncaptioned figure)"


def _assign(paper: Paper | None, findings: list[Finding]) -> tuple[list[tuple[Figure, list[Finding]]], list[Finding]]:
    """Each figure with its findings (paper order), and the findings no figure claims.

    A numbered figure owns the findings naming its number; an uncaptioned one
    (no number) owns the unnumbered findings placed on its page and box.
    """
    by_number: dict[str, list[Finding]] = {}
    by_box: dict[tuple, list[Finding]] = {}
    for f in findings:
        if f.figure:
            by_number.setdefault(f.figure, []).append(f)
        elif f.location.page is not None and f.location.bbox is not None:
            by_box.setdefault((f.location.page, tuple(f.location.bbox)), []).append(f)
    claimed: set[int] = set()
    out = []
    seen_numbers: set[str] = set()
    for fig in paper.figures if paper else []:
        if fig.number:
            own = [] if fig.number in seen_numbers else by_number.get(fig.number, [])
            seen_numbers.add(fig.number)
        else:
            own = by_box.pop((fig.page, tuple(fig.bbox)), []) if fig.bbox is not None else []
        claimed.update(id(f) for f in own)
        out.append((fig, own))
    rest = [f for f in findings if id(f) not in claimed]
    return out, rest


def _figure_title(fig: Figure) -> str:
    if fig.number:
        return fig.key
    return f"Uncaptioned figure (page {fig.page})" if fig.page else "Uncaptioned figure"


def _groups(paper: Paper | None, findings: list[Finding]) -> list[tuple[str, Figure | None, list[Finding]]]:
    """Findings grouped by figure, in the paper's figure order; the rest first, as "Paper"."""
    per_figure, rest = _assign(paper, findings)
    groups: list[tuple[str, Figure | None, list[Finding]]] = []
    numbered_rest = [f for f in rest if f.figure]
    paper_level = [f for f in rest if not f.figure]
    if paper_level:
        groups.append(("Paper", None, paper_level))
    groups += [(_figure_title(fig), fig, own) for fig, own in per_figure if own]
    for number in dict.fromkeys(f.figure for f in numbered_rest):
        groups.append((f"Figure {number}", None, [f for f in numbered_rest if f.figure == number]))
    return groups


def _figure_block(title: str, fig: Figure | None, findings: list[Finding], default_file: str,
                  max_findings: int | None = None) -> str:
    shown = findings if max_findings is None else findings[:max_findings]
    w = worst(findings)
    return _tpl(
        "figure.md.j2",
        title=title,
        counts=_counts_text(findings),
        worst=f"{w.code} {w.rule}" if w else "",
        thumbnail=fig.extra.get("thumbnail") if fig is not None else None,
        caption=fig.caption.text if fig is not None and fig.has_caption else "",
        findings=[_finding_view(f, default_file) for f in shown],
        hidden=len(findings) - len(shown),
    )


def _rows(paper: Paper | None, findings: list[Finding]) -> list[dict]:
    rows = []
    for fig, own in _assign(paper, findings)[0]:
        scores = scores_of(fig)
        w = worst(own)
        rows.append({
            "name": _figure_name(fig),
            "page": fig.page or "—",
            "scores": [fmt_score(scores.get(d) if scores else None) for d in DIMENSIONS],
            "overall": fmt_score(overall(scores)),
            "worst": f"{ICONS[w.severity]} [{w.code}]({rule_url(w.code)}) {cell(w.rule)}" if w else "✅ none",
        })
    return rows


def _paper_section(r, rows: list[dict], hidden_rows: int) -> str:
    paper = r.paper
    return _tpl(
        "paper.md.j2",
        path=r.path,
        route=paper.route if paper else None,
        pages=paper.pages if paper else 0,
        nfigures=len(paper.figures) if paper else 0,
        error=r.error,
        rows=rows,
        hidden_rows=hidden_rows,
    )


def _header(result) -> str:
    findings = result.findings
    code = result.exit_code()
    verdict = {0: "✅ passed", 1: "❌ failed", 2: "⚠️ some inputs could not be read"}[code]
    nfig = sum(len(r.paper.figures) for r in result.results if r.paper)
    counts = _counts_text(findings)
    counts_line = f"**{counts[0].upper() + counts[1:]}** in {plural(nfig, 'figure')}."
    suppressed = sum(int(r.paper.extra.get("baseline_suppressed", 0)) for r in result.results if r.paper)
    return _tpl(
        "header.md.j2",
        verdict=verdict,
        counts_line=counts_line,
        suppressed=suppressed,
        fail_on=result.config.fail_on,
        papers=len(result.results),
        version=__version__,
        rules_url=f"{PROJECT_URL}/tree/main/rules",
    )


def render(result, limit: int = DEFAULT_LIMIT) -> str:
    """The Markdown report, at most `limit` characters."""
    for max_findings in (None, 10, 3, 1):
        text = _assemble(result, limit, max_findings)
        if text is not None:
            return text
    return _assemble(result, limit, 1, force=True)


def _assemble(result, limit: int, max_findings: int | None, force: bool = False) -> str | None:
    """All figure blocks with at most `max_findings` each, or None to retry with fewer.

    With `force`, whatever does not fit is dropped (tables keep their rows
    first, since they are the overview) and the note says how much.
    """
    note_budget = 400
    budget = limit - note_budget
    parts = [_header(result)]
    size = len(parts[0])
    dropped_blocks = dropped_rows = 0
    blocks: list[str] = []
    for r in result.results:
        rows = _rows(r.paper, r.findings)
        section = _paper_section(r, rows, 0)
        if size + len(section) > budget:
            if not force:
                return None
            keep = len(rows)
            while keep > 0 and size + len(section) > budget:
                keep = max(0, keep - max(1, keep // 4))
                section = _paper_section(r, rows[:keep], len(rows) - keep)
            dropped_rows += len(rows) - keep
            if size + len(section) > budget:
                section = _paper_section(r, [], len(rows))[:max(0, budget - size)]
        parts.append(section)
        size += len(section)
        for title, fig, own in _groups(r.paper, r.findings):
            block = _figure_block(title, fig, own, r.path, max_findings)
            if size + len(block) > budget:
                if not force:
                    return None
                dropped_blocks += 1
                continue
            blocks.append(block)
            parts.append(block)
            size += len(block)
    notes = []
    if max_findings is not None:
        notes.append(f"to stay under {limit:,} characters, at most {plural(max_findings, 'finding')} "
                     "per figure are listed")
    if dropped_blocks:
        notes.append(f"{plural(dropped_blocks, 'figure')} with findings are not listed")
    if dropped_rows:
        notes.append(f"{plural(dropped_rows, 'table row')} are not shown")
    if notes:
        notes.append("the JSON and SARIF reports have every finding")
    note = "; ".join(notes)
    if note:
        note = note[0].upper() + note[1:] + "."
    parts.append(_tpl("footer.md.j2", note=note))
    text = "".join(parts)
    return text[:limit] if force else text


def write_thumbnails(result, assets_dir: str, relative_to: str | None = None, dpi: int = 72) -> list[str]:
    """Render each figure's crop to PNG under `assets_dir`; set fig.extra["thumbnail"].

    Returns warnings (one line each) instead of failing: thumbnails are optional.
    """
    import os

    try:
        from figlint.ingest.pdf import render_crop
    except ImportError:
        return ["--assets-dir: thumbnails need figlint.ingest.pdf.render_crop, which this build lacks; "
                "the report has no thumbnails"]
    out = Path(assets_dir)
    out.mkdir(parents=True, exist_ok=True)
    base = Path(relative_to) if relative_to else Path.cwd()
    warnings: list[str] = []
    for i, r in enumerate(result.results):
        paper = r.paper
        pdf = (paper.pdf_path or (paper.path if paper.route == "pdf" else None)) if paper else None
        if not pdf:
            continue
        for fig in paper.figures:
            if not fig.page or not fig.bbox or not fig.number:
                continue
            target = out / f"paper{i + 1}-figure-{_safe(fig.number)}.png"
            try:
                data = render_crop(pdf, fig.page, fig.bbox, dpi)
                if hasattr(data, "save"):
                    data.save(str(target))
                else:
                    target.write_bytes(data)
            except Exception as exc:  # noqa: BLE001 - a thumbnail never fails the run
                warnings.append(f"--assets-dir: no thumbnail for {r.path} {fig.key}: {exc}")
                continue
            fig.extra["thumbnail"] = Path(os.path.relpath(target, base)).as_posix()
    return warnings


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text)
