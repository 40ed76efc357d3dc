"""Inline suppression comments in LaTeX sources (`% figlint: disable=...`).

Three forms, each naming rules by code, code prefix or name, comma-separated:

* `% figlint: disable=FL201,generic-caption` inside a figure environment (from the
  `\\begin` line to the `\\end` line) or on the line just before its `\\begin` (other
  comment-only lines may sit in between): every finding of that figure — attributed to
  it, or located inside the environment. Anywhere else: findings on that line and on
  the next one.
* `% figlint: disable-next=FL305`: findings on the next line of source (blank and
  comment-only lines are skipped, so the directive can sit above a paragraph).
* `% figlint: disable-file=FL305`: every finding located in that file.

Comments are stripped from the flattened text ingestion works on, so the raw source
files (paper.root + paper.extra["sources"]) are scanned here; `\\%` is not a comment
and verbatim-like environments are skipped. A rule named by a directive that
suppressed nothing is reported as FL002 (unused-suppression) when every rule it names
is enabled and could have fired on this input; a name that is no rule is reported too.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from figlint.config import matches
from figlint.lazyre import lazy
from figlint.model import Figure, Finding, Location, Paper

_DIRECTIVE = lazy(
    r"%+\s*figlint\s*:\s*(disable-next|disable-file|disable)\s*=\s*"
    r"([A-Za-z0-9_\-]+(?:[ \t]*,[ \t]*[A-Za-z0-9_\-]+)*)",
    re.IGNORECASE,
)
_LOOSE = lazy(r"%+\s*figlint\s*:\s*(disable|enable)", re.IGNORECASE)
_VERB_ENV = lazy(
    r"\\(begin|end)\s*\{(verbatim\*?|Verbatim\*?|BVerbatim|LVerbatim|lstlisting|minted|comment|"
    r"filecontents\*?|alltt|spverbatim)\}"
)
_VERB_INLINE = lazy(r"\\(?:verb|lstinline|mintinline\{[^}]*\})\*?(.)")
# families whose rules judge the printed figure: they cannot fire from sources alone
_PRINTED_FAMILIES = ("FL1", "FL4")


@dataclass
class Directive:
    kind: str  # disable | disable-next | disable-file
    tokens: list[str]
    file: str
    line: int
    column: int
    scope: str = "lines"  # figure | lines | file
    lines: set[int] = field(default_factory=set)
    figures: list[Figure] = field(default_factory=list)
    used: set[str] = field(default_factory=set)


def comment_start(line: str) -> int:
    """Index of the `%` that starts the comment on this line, or -1 (`\\%` is a literal %)."""
    i = 0
    n = len(line)
    while i < n:
        c = line[i]
        if c == "\\":
            m = _VERB_INLINE.match(line, i)
            if m is not None:
                end = line.find(m.group(1), m.end())
                i = n if end < 0 else end + 1
                continue
            i += 2  # the escaped character (\%, \\) is never a comment start
            continue
        if c == "%":
            return i
        i += 1
    return -1


def _read_lines(path: str) -> list[str] | None:
    from figlint.ingest.texsource import decode_bytes

    try:
        with open(path, "rb") as fh:
            text, _enc = decode_bytes(fh.read())
    except OSError:
        return None
    return text.split("\n")


def scan_file(rel: str, lines: list[str]) -> list[Directive]:
    """Every suppression directive in one source file (also malformed ones, kind "malformed")."""
    out: list[Directive] = []
    verb_env: str | None = None
    for k, raw in enumerate(lines, start=1):
        if verb_env is None and "figlint" not in raw and "\\begin" not in raw:
            continue
        if verb_env is not None:
            for m in _VERB_ENV.finditer(raw):
                if m.group(1) == "end" and m.group(2) == verb_env:
                    verb_env = None
            continue
        cut = comment_start(raw)
        code = raw if cut < 0 else raw[:cut]
        for m in _VERB_ENV.finditer(code):
            verb_env = m.group(2) if m.group(1) == "begin" else None
        if cut < 0 or "figlint" not in raw[cut:]:
            continue
        comment = raw[cut:]
        m = _DIRECTIVE.match(comment)
        if m is None:
            # a later % on the line may start it (the first was e.g. inside \url{a%20b})
            for extra in re.finditer(r"(?<!\\)%", comment[1:]):
                m = _DIRECTIVE.match(comment, extra.start() + 1)
                if m is not None:
                    break
        if m is None:
            if _LOOSE.match(comment):
                out.append(Directive("malformed", [comment.strip()], rel, k, cut + 1))
            continue
        tokens = [t.strip() for t in m.group(2).split(",") if t.strip()]
        out.append(Directive(m.group(1).lower(), tokens, rel, k, cut + m.start() + 1))
    return out


def _kind_of(line: str) -> str:
    """blank | comment (comment-only) | code."""
    stripped = line.strip()
    if not stripped:
        return "blank"
    return "comment" if stripped.startswith("%") else "code"


def _figure_spans(paper: Paper) -> list[tuple[str, int, int, Figure]]:
    spans = []
    for fig in paper.figures:
        loc = fig.location
        if not loc.file or not loc.line:
            continue
        end = fig.extra.get("end_line")
        if not end or fig.extra.get("end_file", loc.file) != loc.file or end < loc.line:
            end = loc.line
        spans.append((loc.file, loc.line, end, fig))
    return spans


def _resolve(d: Directive, lines: list[str], spans) -> None:
    if d.kind == "disable-file":
        d.scope = "file"
        return
    if d.kind == "disable-next":
        nxt = d.line + 1
        while nxt <= len(lines) and _kind_of(lines[nxt - 1]) != "code":
            nxt += 1
        d.lines = {nxt}
        return
    inside = [fig for f, a, b, fig in spans if f == d.file and a <= d.line <= b]
    if not inside:
        # the line just before \begin{figure} (stacked comment lines allowed)
        nxt = d.line + 1
        while nxt <= len(lines) and _kind_of(lines[nxt - 1]) == "comment":
            nxt += 1
        inside = [fig for f, a, _b, fig in spans if f == d.file and a == nxt]
    if inside:  # several figures when one float holds several numbered captions
        d.scope = "figure"
        d.figures = inside
        return
    d.lines = {d.line, d.line + 1}


def _applies(d: Directive, f: Finding, spans_of: dict[int, tuple[str, int, int]]) -> bool:
    loc = f.location
    if d.scope == "file":
        return loc.file == d.file
    if d.scope == "lines":
        return loc.file == d.file and loc.line in d.lines
    for fig in d.figures:
        if fig.number and f.figure == fig.number:
            return True
        file, a, b = spans_of[id(fig)]
        if loc.file == file and loc.line is not None and a <= loc.line <= b:
            return True
    return False


def collect(paper: Paper) -> list[Directive]:
    """All directives in the paper's source files, with their scope resolved."""
    root = paper.root
    if not root:
        return []
    spans = _figure_spans(paper)
    out: list[Directive] = []
    for rel in dict.fromkeys(paper.extra.get("sources", [])):
        lines = _read_lines(os.path.join(root, rel))
        if lines is None:
            continue
        for d in scan_file(rel, lines):
            if d.kind != "malformed":
                _resolve(d, lines, spans)
            out.append(d)
    return out


def _can_fire(paper: Paper, enabled: dict[str, object]) -> set[str]:
    """Codes of the enabled rules that could have produced a finding on this input."""
    printed = bool(paper.pdf_path) or any(f.images or f.drawings or f.spans for f in paper.figures)
    out = set()
    for code, r in enabled.items():
        if paper.route not in getattr(r, "routes", (paper.route,)):
            continue
        if not printed and code.startswith(_PRINTED_FAMILIES):
            continue
        out.add(code)
    return out


def apply_suppressions(paper: Paper, findings: list[Finding], rules) -> list[Finding]:
    """Findings minus the suppressed ones, plus FL002 for suppressions that did nothing.

    `rules` are the enabled rules of this run (FL002 is reported only when it is one of them).
    """
    if paper.route != "latex":
        return findings
    directives = collect(paper)
    if not directives:
        return findings
    from figlint.rules.registry import all_rules

    names = {r.code: r.name for r in all_rules()}
    spans_of = {id(fig): (f, a, b) for f, a, b, fig in _figure_spans(paper)}
    active = [d for d in directives if d.kind != "malformed"]

    def suppress(items: list[Finding]) -> list[Finding]:
        kept = []
        for f in items:
            name = names.get(f.code, f.rule)
            hit = False
            for d in active:
                for tok in d.tokens:
                    if matches(tok, f.code, name) and _applies(d, f, spans_of):
                        d.used.add(tok)
                        hit = True
            if not hit:
                kept.append(f)
        return kept

    kept = suppress(findings)
    enabled = {r.code: r for r in rules}
    if "FL002" not in enabled:
        return kept
    able = _can_fire(paper, enabled)
    unused: list[Finding] = []
    for d in directives:
        if d.kind == "malformed":
            unused.append(_fl002(d, f"malformed figlint directive '{d.tokens[0][:60]}': write "
                                    "'% figlint: disable=FL201' (or disable-next=, disable-file=)", None))
            continue
        for tok in d.tokens:
            if tok in d.used:
                continue
            named = [c for c, n in names.items() if matches(tok, c, n)]
            if not named:
                unused.append(_fl002(d, f"'{tok}' in a figlint {d.kind} comment names no figlint rule", tok))
            elif named != ["FL002"] and all(c in able for c in named):
                unused.append(_fl002(d, f"unused suppression: '{tok}' ({d.kind}) matched no finding "
                                        f"{_where(d)}; remove it", tok))
    # an FL002 can itself be disabled (e.g. `% figlint: disable-file=FL002`)
    unused = suppress(unused)
    for d in active:
        for tok in d.tokens:
            if tok not in d.used and [c for c, n in names.items() if matches(tok, c, n)] == ["FL002"]:
                unused.append(_fl002(d, f"unused suppression: 'FL002' ({d.kind}) matched no finding "
                                        f"{_where(d)}; remove it", tok))
    return kept + unused


def _where(d: Directive) -> str:
    if d.scope == "file":
        return f"in {d.file}"
    if d.scope == "figure":
        figs = ", ".join(f.key if f.number else "this figure" for f in d.figures)
        return f"for {figs}"
    lines = sorted(d.lines)
    return f"on line {lines[0]}" if len(lines) == 1 else f"on lines {lines[0]}-{lines[-1]}"


def _fl002(d: Directive, message: str, token: str | None) -> Finding:
    from figlint.rules.registry import get_rule

    r = get_rule("FL002")
    return Finding(
        code=r.code,
        rule=r.name,
        severity=r.severity,
        message=message,
        location=Location(file=d.file, line=d.line, column=d.column),
        evidence={"directive": d.kind, "token": token, "scope": d.scope,
                  "figures": [f.number for f in d.figures]},
        origin="input",
    )
