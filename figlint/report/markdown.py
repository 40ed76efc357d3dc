"""Markdown report (`--format markdown`) for pull-request comments and `$GITHUB_STEP_SUMMARY`.

What a reviewer reads, top down: a verdict line; optionally the findings new
in this pull request (the Action decides which, see figlint.action); a
roll-up table with one row per rule and its count (every finding is counted
there, whatever is cut later); per paper a table of figures with their five
integer scores out of 10 and the codes of their findings, with a legend; then
the findings grouped per figure inside folded `<details>` blocks, each
location a link to the file and line at the commit under review when the
caller gives a blob URL. Evidence is shown only as quotes the message does
not already hold, never as debug facts, and each quote once per figure.

The pieces are jinja2 templates (figlint/report/templates/); this module
assembles them under a character budget (GitHub's comment limit is 65,536):
the header, the roll-up and the figure tables are kept first; then the
per-figure lists shrink (10, 3, 1 finding each) and whole figure blocks are
dropped, and a note says what was cut and where the full report is. Tables
only ever lose whole rows (with a "… N more" row), so every table stays
valid Markdown. Paper text is untrusted: `plain` drops control characters,
`md_escape` makes it inert (no HTML, no links or images, no @mentions).
Thumbnails appear when a figure has `extra["thumbnail"]` (see write_thumbnails).
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from figlint import __version__
from figlint.model import DIMENSIONS, Figure, Finding, Location, Paper, severity_rank
from figlint.report import rubric
from figlint.report.common import overall, plural, scores_of, severity_counts, worst
from figlint.report.links import PROJECT_URL, rule_url

COMMENT_LIMIT = 65_536
DEFAULT_LIMIT = COMMENT_LIMIT - 536  # room for a marker or a heading around the report
ICONS = {"error": "❌", "warning": "⚠️", "note": "ℹ️"}
QUOTE_KEYS = ("quote", "claim", "sentence", "sentences", "caption", "mention", "text")
MAX_QUOTES = 2
MAX_QUOTE_CHARS = 240
MAX_CAPTION_CHARS = 240
MAX_MESSAGE_CHARS = 400
MAX_NEW_LISTED = 25
MAX_FIGURES_IN_ROLLUP = 8

# Paper text is untrusted: report/safe.py drops escape sequences (OSC 52 writes the
# clipboard) and shows other controls and bidi overrides as visible escapes.
from figlint.report.safe import safe_text  # noqa: E402


def plain(text: Any, limit: int | None = None) -> str:
    """Untrusted text as one clean line: control characters dropped, whitespace collapsed, cut with '…'."""
    s = " ".join(safe_text(text, limit=None).split())
    if limit is not None and len(s) > limit:
        s = s[: max(0, limit - 1)].rstrip() + "…"
    return s


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


_MD_SPECIAL = re.compile(r"([\\`*_\[\]~!])")


def md_escape(text: Any, limit: int | None = None) -> str:
    """User text (captions, sentences, messages) as inert inline Markdown: no HTML, one line.

    Emphasis, code, links and images are backslash-escaped so a caption cannot
    load a remote image or fake a link, and `@name` gets a zero-width space so it
    notifies nobody.
    """
    s = html.escape(plain(text, limit), quote=False)
    s = _MD_SPECIAL.sub(r"\\\1", s)
    return s.replace("@", "@\u200b")


def cell(text: Any) -> str:
    return md_escape(text).replace("|", "\\|")


def fmt_score(v: Any) -> str:
    n = rubric.as_int(v)
    return "—" if n is None else f"{n}/10"


@dataclass
class Context:
    """What the caller knows beyond the RunResult (the Action fills it in).

    blob_url: `https://github.com/OWNER/REPO/blob/SHA`, to link locations to
    the lines at the commit under review. new: ids of the findings new in
    this pull request (None: no such section); new_how says how they were
    found. full_report: a Markdown link to the full report (the HTML artifact).
    """

    blob_url: str | None = None
    new: set[int] | None = None
    new_how: str = ""
    full_report: str | None = None
    notes: list[str] = field(default_factory=list)


def where_text(f: Finding | None, default_file: str, root: str | None = None, loc: Location | None = None) -> str:
    """The location as the text report prints it (`main.tex:42:1`, `paper.pdf (page 3)`)."""
    from figlint.report.text import where

    return where(loc if loc is not None else f.location, default_file, root)


def repo_path(file: str, root: Path, paper: Paper | None) -> str | None:
    """`file` relative to the repository root, or None when it lies outside it."""
    from figlint.report.paths import _resolve

    absolute = _resolve(file, paper)
    for candidate in (absolute, absolute.resolve()):
        try:
            return candidate.relative_to(root).as_posix()
        except ValueError:
            continue
    return None


def _location_md(f: Finding, r, ctx: Context, roots: dict) -> str:
    """`main.tex:42` or `paper.pdf p. 3`, linked to the line at the commit when a blob URL is known."""
    from figlint.report.paths import repo_root, source_location

    loc = source_location(f, r.paper, r.path)
    if r.path not in roots:
        roots[r.path] = repo_root(r.path)
    root = roots[r.path]
    file = loc.file or r.path
    key = ("rel", r.path, file)
    if key not in roots:  # resolving a path touches the file system: once per file and render
        roots[key] = repo_path(file, root, r.paper) if file else None
    rel = roots[key]
    name = rel or os.path.basename(loc.file or r.path)
    label = f"{name}:{loc.line}" if loc.line else (f"{name} p. {loc.page}" if loc.page else name)
    label = md_escape(label)
    if ctx.blob_url and rel and rel != ".":
        url = f"{ctx.blob_url.rstrip('/')}/{quote(rel, safe='/')}" + (f"#L{loc.line}" if loc.line else "")
        return f"[{label}]({url})"
    return label


def _norm(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .\"'“”")


def _quotes(f: Finding, seen: set[str]) -> list[str]:
    """Quoted evidence the message does not already hold, each at most once per figure block."""
    message = _norm(f.message)
    out: list[str] = []
    for key in QUOTE_KEYS:
        value = f.evidence.get(key)
        values = value if isinstance(value, list) else [value]
        for v in values:
            if not isinstance(v, str) or not v.strip():
                continue
            n = _norm(plain(v))
            if not n or n in seen or n in message:
                continue
            seen.add(n)
            out.append(v)
    return out[:MAX_QUOTES]


def _finding_view(f: Finding, r, ctx: Context, roots: dict, seen: set[str]) -> dict:
    return {
        "icon": ICONS.get(f.severity, ""),
        "code": f.code,
        "rule": f.rule,
        "url": rule_url(f.code),
        "severity": f.severity,
        "where": _location_md(f, r, ctx, roots),
        "message": md_escape(f.message, MAX_MESSAGE_CHARS),
        "quotes": [md_escape(q, MAX_QUOTE_CHARS) for q in _quotes(f, seen)],
        "new": ctx.new is not None and id(f) in ctx.new,
    }


def _counts_text(findings: list[Finding]) -> str:
    c = severity_counts(findings)
    parts = [plural(c[k], k) for k in ("error", "warning", "note") if c[k]]
    return ", ".join(parts) if parts else "no findings"


def _figure_name(fig: Figure) -> str:
    return fig.key if fig.number else "(uncaptioned figure)"


def assign(paper: Paper | None, findings: list[Finding]) -> tuple[list[tuple[Figure, list[Finding]]], list[Finding]]:
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


_assign = assign  # the name earlier callers used


def _figure_title(fig: Figure) -> str:
    if fig.number:
        return fig.key
    return f"Uncaptioned figure (page {fig.page})" if fig.page else "Uncaptioned figure"


def _groups(paper: Paper | None, findings: list[Finding]) -> list[tuple[str, Figure | None, list[Finding]]]:
    """Findings grouped by figure, in the paper's figure order; the rest first, as "Paper"."""
    per_figure, rest = assign(paper, findings)
    groups: list[tuple[str, Figure | None, list[Finding]]] = []
    numbered_rest = [f for f in rest if f.figure]
    paper_level = [f for f in rest if not f.figure]
    if paper_level:
        groups.append(("Paper", None, paper_level))
    groups += [(_figure_title(fig), fig, own) for fig, own in per_figure if own]
    for number in dict.fromkeys(f.figure for f in numbered_rest):
        groups.append((f"Figure {number}", None, [f for f in numbered_rest if f.figure == number]))
    return groups


def _by_severity(findings: list[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: -severity_rank(f.severity))


def _figure_block(title: str, fig: Figure | None, findings: list[Finding], r, ctx: Context, roots: dict,
                  max_findings: int | None = None) -> str:
    ordered = _by_severity(findings)
    shown = ordered if max_findings is None else ordered[:max_findings]
    w = worst(ordered)
    caption = fig.caption.text if fig is not None and fig.has_caption else ""
    seen = {_norm(plain(caption))} if caption else set()
    return _tpl(
        "figure.md.j2",
        title=title,
        counts=_counts_text(findings),
        worst=f"{w.code} {w.rule}" if w else "",
        thumbnail=fig.extra.get("thumbnail") if fig is not None else None,
        caption=md_escape(caption, MAX_CAPTION_CHARS) if caption else "",
        findings=[_finding_view(f, r, ctx, roots, seen) for f in shown],
        hidden=len(findings) - len(shown),
    )


def _rows(paper: Paper | None, findings: list[Finding]) -> list[dict]:
    rows = []
    for fig, own in assign(paper, findings)[0]:
        scores = scores_of(fig)
        w = worst(own)
        codes = ", ".join(dict.fromkeys(f.code for f in _by_severity(own)))
        rows.append({
            "name": _figure_name(fig),
            "page": fig.page or "—",
            "scores": [fmt_score(scores.get(d) if scores else None) for d in DIMENSIONS],
            "overall": fmt_score(overall(scores)),
            "findings": f"{ICONS[w.severity]} {codes}" if w else "✅ none",
        })
    return rows


def _paper_section(r, rows: list[dict], hidden_rows: int, legend: bool) -> str:
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
        legend=rubric.LEGEND if legend and (rows or hidden_rows) else "",
    )


def _rollup(result) -> str:
    """One row per rule with its count and the figures it flags; a total row. Never cut."""
    rows: dict[str, dict] = {}
    for r in result.results:
        uncaptioned = {id(f): f"uncaptioned (p. {fig.page})" if fig.page else "uncaptioned"
                       for fig, own in assign(r.paper, r.findings)[0] if not fig.number for f in own}
        for f in r.findings:
            row = rows.setdefault(f.code, {"code": f.code, "rule": f.rule, "severity": f.severity, "count": 0,
                                           "figures": {}})
            row["count"] += 1
            if severity_rank(f.severity) > severity_rank(row["severity"]):
                row["severity"] = f.severity
            label = f.figure or uncaptioned.get(id(f), "paper")
            if len(result.results) > 1:  # figure numbers repeat across papers
                label = f"{os.path.basename(r.path)} {label}"
            row["figures"].setdefault(label, None)
    ordered = sorted(rows.values(), key=lambda x: (-severity_rank(x["severity"]), -x["count"], x["code"]))
    view = []
    for row in ordered:
        figs = list(row["figures"])
        text = ", ".join(cell(x) for x in figs[:MAX_FIGURES_IN_ROLLUP])
        if len(figs) > MAX_FIGURES_IN_ROLLUP:
            text += f", … ({len(figs)} in all)"
        view.append({**row, "icon": ICONS.get(row["severity"], ""), "url": rule_url(row["code"]),
                     "figures": text})
    return _tpl("rollup.md.j2", rows=view, total=sum(r["count"] for r in ordered))


def _new_section(result, ctx: Context, roots: dict) -> str:
    if ctx.new is None:
        return ""
    new = [(f, r) for r in result.results for f in r.findings if id(f) in ctx.new]
    items = []
    for f, r in new[:MAX_NEW_LISTED]:
        fig = f"Figure {f.figure}" if f.figure else "(no figure)"
        items.append({"icon": ICONS.get(f.severity, ""), "code": f.code, "rule": f.rule, "url": rule_url(f.code),
                      "figure": fig, "where": _location_md(f, r, ctx, roots),
                      "message": md_escape(f.message, MAX_MESSAGE_CHARS)})
    return _tpl("new.md.j2", items=items, total=len(new), hidden=max(0, len(new) - MAX_NEW_LISTED),
                how=ctx.new_how, all_findings=len(result.findings))


def _header(result, ctx: Context) -> str:
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
        full_report=ctx.full_report or "",
        notes=ctx.notes,
    )


def render(result, limit: int = DEFAULT_LIMIT, context: Context | None = None) -> str:
    """The Markdown report, at most `limit` characters."""
    ctx = context or Context()
    rows = [_rows(r.paper, r.findings) for r in result.results]
    tables = [_paper_section(r, x, 0, legend=i == 0) for i, (r, x) in enumerate(zip(result.results, rows))]
    for max_findings in (None, 10, 3, 1):
        text = _assemble(result, limit, max_findings, ctx, rows, tables)
        if text is not None:
            return text
    return _assemble(result, limit, 1, ctx, rows, tables, force=True)


def _fit_tables(result, rows: list[list[dict]], budget: int) -> tuple[list[str], int]:
    """Every paper's table, cutting rows only if they cannot all fit.

    Rows go whole, the longest table first, each cut table ending in a
    '… N more' row; if even empty tables do not fit, the last papers' sections
    go whole. Returns the sections kept (in paper order, a prefix of the
    papers) and how many rows were cut.
    """
    keep = [len(x) for x in rows]

    def section(i: int) -> str:
        return _paper_section(result.results[i], rows[i][:keep[i]], len(rows[i]) - keep[i], legend=i == 0)

    out = [section(i) for i in range(len(rows))]
    total = sum(map(len, out))
    while total > budget and any(keep):
        i = max(range(len(keep)), key=keep.__getitem__)
        keep[i] = max(0, keep[i] - max(1, keep[i] // 4))
        new = section(i)
        total += len(new) - len(out[i])
        out[i] = new
    while total > budget and out:
        total -= len(out.pop())
    return out, sum(len(x) - k for x, k in zip(rows, keep))


def _assemble(result, limit: int, max_findings: int | None, ctx: Context, rows: list[list[dict]],
              full_tables: list[str], force: bool = False) -> str | None:
    """The report with at most `max_findings` per figure block, or None to retry with fewer.

    With `force`, the figure blocks that do not fit are dropped (the header,
    the roll-up and the tables come first) and the note says which.
    """
    note_budget = 600
    budget = limit - note_budget
    roots: dict = {}
    head = _header(result, ctx) + _new_section(result, ctx, roots) + _rollup(result)
    if force:
        tables, hidden_rows = _fit_tables(result, rows, budget - len(head))
    else:
        tables, hidden_rows = full_tables, 0
    size = len(head) + sum(map(len, tables))
    if size > budget and not force:
        return None
    if size > budget:  # even the overview does not fit: keep what does, in whole lines
        head = head[: max(0, budget - sum(map(len, tables)))].rsplit("\n", 1)[0] + "\n"
        size = len(head) + sum(map(len, tables))
    parts = [head]
    dropped_papers = len(result.results) - len(tables)
    dropped: list[str] = []
    dropped_findings = 0
    multi = len(result.results) > 1
    for r, table in zip(result.results, tables):
        parts.append(table)
        for title, fig, own in _groups(r.paper, r.findings):
            # No block is shorter than this: once the room left is smaller, name the rest unrendered.
            block = "" if budget - size < 120 else _figure_block(title, fig, own, r, ctx, roots, max_findings)
            if not block or size + len(block) > budget:
                if not force:
                    return None
                dropped.append(f"{os.path.basename(r.path)}: {title}" if multi else title)
                dropped_findings += len(own)
                continue
            parts.append(block)
            size += len(block)
    notes = []
    if max_findings is not None:
        notes.append(f"at most {plural(max_findings, 'finding')} per figure are listed")
    if dropped:
        names = ", ".join(md_escape(x, 60) for x in dropped[:8]) + (", …" if len(dropped) > 8 else "")
        notes.append(f"the details of {plural(len(dropped), 'figure')} ({plural(dropped_findings, 'finding')}) "
                     f"are not listed: {names}")
    if hidden_rows:
        notes.append(f"{plural(hidden_rows, 'figure table row')} are not shown")
    if dropped_papers:
        notes.append(f"the last {plural(dropped_papers, 'input')} are not shown at all")
    note = ""
    if notes:
        where = ctx.full_report or "the JSON report (`--format json`) or the HTML report (`--format html`)"
        note = (f"To stay under {limit:,} characters, " + "; ".join(notes)
                + f". Every finding is counted in the roll-up above; the full report is {where}.")
    parts.append(_tpl("footer.md.j2", note=note))
    text = "".join(parts)
    return text[:limit] if force else text


def write_thumbnails(result, assets_dir: str, relative_to: str | None = None, dpi: int = 72) -> list[str]:
    """Render each figure's crop to PNG under `assets_dir`; set fig.extra["thumbnail"].

    Returns warnings (one line each) instead of failing: thumbnails are optional.
    """
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
                data = render_crop(pdf, fig.page, fig.bbox, dpi, turn=fig.extra.get("turn", 0))
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
