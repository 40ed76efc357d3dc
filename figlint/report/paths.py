"""Where a finding points, as a repository-relative path (SARIF, GitHub annotations, baselines).

Finding locations hold paths as the user gave them or relative to the paper's
root. Code scanning and workflow commands want a path relative to the
repository root, with forward slashes, never absolute and never climbing out
with `..`. The root is the git root above the input, else the current
directory. Everything here is pure path arithmetic: no git process is run.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

from figlint.model import Finding, Location, Paper

def repo_root(start: str | os.PathLike | None) -> Path:
    """The nearest directory above `start` holding .git, else the current directory."""
    cwd = Path.cwd().resolve()
    if not start:
        return cwd
    here = Path(start)
    if not here.is_absolute():
        here = cwd / here
    here = Path(os.path.normpath(here))
    for directory in [here, *here.parents]:
        if (directory / ".git").exists():
            return directory.resolve()
    return cwd


def _resolve(file: str, paper: Paper | None) -> Path:
    """The absolute file a (possibly relative) location path names."""
    p = Path(file)
    if p.is_absolute():
        return Path(os.path.normpath(p))
    candidates = [Path.cwd() / p]
    if paper is not None:
        if paper.root:
            candidates.append(Path(paper.root) / p)
        candidates.append(Path(paper.path).parent / p)
        if paper.pdf_path:
            candidates.append(Path(paper.pdf_path).parent / p)
    for c in candidates:
        if c.exists():
            return Path(os.path.normpath(c.resolve()))
    return Path(os.path.normpath(candidates[0].absolute()))


def relative_path(file: str, root: Path, paper: Paper | None = None) -> str:
    """`file` relative to `root` in POSIX form; never absolute, never with `..`."""
    absolute = _resolve(file, paper)
    try:
        rel = absolute.relative_to(root)
    except ValueError:
        try:
            rel = absolute.resolve().relative_to(root)
        except ValueError:
            # Outside the repository: the best we can do without lying is the bare name.
            rel = Path(absolute.name)
    text = rel.as_posix()
    return "." if text in ("", ".") else text


def to_uri(path: str) -> str:
    """Percent-encode a relative POSIX path for artifactLocation.uri (slashes kept)."""
    return quote(path, safe="/")


def source_location(f: Finding, paper: Paper | None, default_file: str) -> Location:
    """The location to report: the finding's own, else its figure's source line, else the input.

    Code scanning cannot show a PDF, so a `.tex` line is preferred whenever the
    sources are known (the finding has no line but its figure does).
    """
    loc = f.location
    if loc.file and loc.line:
        return loc
    if paper is not None and f.figure:
        fig = paper.figure(f.figure)
        if fig is not None and fig.location.file and fig.location.line:
            return Location(file=fig.location.file, line=fig.location.line, column=fig.location.column,
                            page=loc.page or fig.page, bbox=loc.bbox)
    return Location(file=loc.file or default_file, line=loc.line, column=loc.column, page=loc.page,
                    bbox=loc.bbox)
