"""The on-disk cache: where it lives, and whole-paper results keyed by content.

Directory: $FIGLINT_CACHE_DIR, else `.figlint_cache/` in the working directory
(like .ruff_cache). Safe to delete at any time; safe under concurrent runs
(every write goes to a temporary file first and is renamed into place, so a
reader sees a whole entry or none). Subfolders: `results/` (this module),
`ocr/` (features/ocr.py), `judge/` (judge/cache.py).

A results entry holds one input's PaperResult and the content hashes of every
file it was built from (the PDF; for LaTeX, every source, graphics file and
the compiled PDF). A re-run on unchanged files loads it and skips extraction,
OCR and rules: what pre-commit and CI re-runs need. The key also covers the
configuration and figlint's version, so changing either recomputes.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from dataclasses import asdict
from pathlib import Path

from figlint import __version__

_FORMAT = 1  # bump when PaperResult's shape changes


def cache_root() -> Path:
    return Path(os.environ.get("FIGLINT_CACHE_DIR") or ".figlint_cache")


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    root = cache_root()
    ignore = root / ".gitignore"
    if not ignore.exists():
        try:  # keep the cache out of the user's commits, as ruff and mypy do
            ignore.write_text("# created by figlint\n*\n")
        except OSError:
            pass
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def file_digest(path: str) -> str | None:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


_CODE_STAMP: str | None = None


def code_stamp() -> str:
    """Size and mtime of figlint's own files: a development checkout whose rules changed
    must not be served results computed by the old rules."""
    global _CODE_STAMP
    if _CODE_STAMP is None:
        pkg = Path(__file__).resolve().parent
        parts = []
        for f in sorted(pkg.rglob("*")):
            if f.suffix in (".py", ".json", ".j2"):
                st = f.stat()
                parts.append(f"{f.relative_to(pkg)}:{st.st_size}:{st.st_mtime_ns}")
        _CODE_STAMP = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]
    return _CODE_STAMP


def _key(path: str, config) -> str:
    cfg = asdict(config)
    cfg.pop("source", None)
    # The path as given and the working directory, not just the absolute path: reports
    # print paths as the user spelled them, so another spelling is another entry.
    raw = repr((_FORMAT, __version__, code_stamp(), path, os.getcwd(),
                sorted(cfg.items(), key=lambda kv: kv[0])))
    return hashlib.sha256(raw.encode()).hexdigest()[:40]


def _entry_path(path: str, config) -> Path:
    return cache_root() / "results" / f"{_key(path, config)}.pickle"


def dependencies(result) -> list[str]:
    """Absolute paths of every file the result was built from."""
    paper = result.paper
    if paper is None:
        return [os.path.abspath(result.path)] if os.path.isfile(result.path) else []
    deps: list[str] = []
    if paper.route == "latex" and paper.root:
        rels = list(paper.extra.get("sources", [])) + [g for f in paper.figures for g in f.graphics]
        deps += [os.path.abspath(os.path.join(paper.root, r)) for r in rels]
        if paper.pdf_path:
            deps.append(os.path.abspath(paper.pdf_path))
    else:
        deps.append(os.path.abspath(paper.path))
    return sorted(set(deps))


def load(path: str, config):
    """The cached result for `path` under `config`, if every file it came from is unchanged."""
    entry = _entry_path(path, config)
    try:
        with open(entry, "rb") as fh:
            stored = pickle.load(fh)
    except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError, ValueError):
        return None
    for dep, digest in stored["deps"].items():
        if file_digest(dep) != digest:
            return None
    # A LaTeX paper also depends on files that may appear later (a compiled PDF next to the
    # main file, a graphics file that was missing): the stored absence must still hold.
    for dep in stored.get("absent", []):
        if os.path.exists(dep):
            return None
    return stored["result"]


def store(path: str, config, result, absent: list[str] = ()) -> None:
    deps = {d: file_digest(d) for d in dependencies(result)}
    payload = {"deps": deps, "absent": list(absent), "result": result}
    try:
        atomic_write(_entry_path(path, config), pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        pass  # a read-only checkout still lints; it just doesn't cache


def lint_cached(path: str, config, rules=None):
    """lint_path with the results cache in front of it."""
    from figlint.engine import lint_path

    hit = load(path, config)
    if hit is not None:
        hit.cached = True
        hit.timings = {}
        return hit
    result = lint_path(path, config, rules)
    # inputs that failed are not cached (the error must show again), nor unpacked zips (their
    # files live in a temporary folder that is gone after the run: the entry could never hit)
    if result.paper is not None and not result.paper.extra.get("archive"):
        store(path, config, result, _absent(result))
    return result


def _absent(result) -> list[str]:
    paper = result.paper
    out = []
    if paper.route == "latex" and paper.root and not paper.pdf_path and paper.extra.get("main_tex"):
        out.append(os.path.abspath(os.path.join(paper.root, Path(paper.extra["main_tex"]).with_suffix(".pdf"))))
        out += paper.extra.get("pdf_searched", [])  # build/, out/, latexmk's output directory
    for fig in paper.figures:
        for g in fig.extra.get("missing_graphics", []):
            base = os.path.abspath(os.path.join(paper.root or "", g))
            out += [base] + [base + ext for ext in (".pdf", ".png", ".jpg", ".jpeg", ".eps")]
    return out
