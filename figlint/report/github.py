"""GitHub Actions annotations (`--format github`): one workflow command per finding.

`::error file=paper/main.tex,line=42,col=3,title=FL202 generic-caption::Figure 4: caption is generic`
Levels map error -> error, warning -> warning, note -> notice. Data is escaped
(% -> %25, CR -> %0D, LF -> %0A) and property values additionally escape
`:` and `,`, as the runner's own toolkit does. Paths are repository-relative
with forward slashes; for a PDF-only finding there is no line, so the
annotation sits on the file and the message names the page. GitHub shows only
about ten annotations per level per step, which is why the Action also
writes the full list to the job summary. Paper text (messages quoting
captions, figure numbers, file names) goes through report/safe.py first: an
escape sequence in a caption must not reach the log viewer, and a `::` in it
cannot start a workflow command of its own (the line starts with ours, and
newlines are escaped).
"""

from __future__ import annotations

from figlint.model import Finding
from figlint.report.paths import relative_path, repo_root, source_location
from figlint.report.safe import safe_text

LEVELS = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(f: Finding, paper, default_file: str, root) -> str:
    loc = source_location(f, paper, default_file)
    props = [f"file={escape_property(safe_text(relative_path(loc.file or default_file, root, paper), limit=500))}"]
    if loc.line and loc.line >= 1:
        props.append(f"line={loc.line}")
        if loc.column and loc.column >= 1:
            props.append(f"col={loc.column}")
    props.append(f"title={escape_property(f'{f.code} {f.rule}')}")
    message = safe_text(f.message, keep_newlines=True)  # %0A keeps a multi-line message
    text = f"Figure {safe_text(f.figure, limit=40)}: {message}" if f.figure else message
    if not loc.line and loc.page:
        text += f" (page {loc.page})"
    return f"::{LEVELS.get(f.severity, 'warning')} {','.join(props)}::{escape_data(text)}"


def render(result) -> str:
    lines = []
    for r in result.results:
        root = repo_root(r.path)
        lines += [command(f, r.paper, r.path, root) for f in r.findings]
    n = len(result.findings)
    lines.append(f"figlint: {n} finding{'' if n == 1 else 's'} (exit code {result.exit_code()})")
    return "\n".join(lines) + "\n"
