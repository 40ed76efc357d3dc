"""The on-disk cache: where it lives, whether it is on, and whole-paper results keyed by content.

Where: $FIGLINT_CACHE_DIR, else `.figlint_cache/` at the project root of the
input (the nearest folder above it holding `.git` or `pyproject.toml`, as ruff
does), else figlint's folder in the user's cache directory ($XDG_CACHE_HOME or
~/.cache). Never silently inside a paper's folder or the working directory
that merely happens to hold it. Subfolders: `results/` (this module), `ocr/`
(features/ocr.py), `judge/` (judge/cache.py). Safe to delete at any time; safe
under concurrent runs (every write goes to a temporary file first and is
renamed into place, so a reader sees a whole entry or none). `--no-cache`
(`lint_cached(..., enabled=False)`) turns every one of them off for the run:
nothing is read or written.

A results entry is JSON: one input's findings and the small per-figure record
the reports print (caption, citing sites, boxes, image sizes, scores, counts of
text spans and drawings), never pixels, drawings or analyses, with the content
hashes of every file it was built from (the PDF; for LaTeX, every source,
graphics file and the compiled PDF). A re-run on unchanged files loads it and
skips extraction, OCR and rules: what pre-commit and CI re-runs need, with the
same report, byte for byte. The key also covers the configuration and
figlint's version, so changing either recomputes. Entries are pruned, least
recently used first, once the folder passes MAX_RESULTS_BYTES or an entry has
not been used for MAX_AGE_DAYS.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterator

from figlint import __version__

_FORMAT = 2  # bump when the stored record's shape changes (1: pickled PaperResult)
MAX_RESULTS_BYTES = 20 * 1024 * 1024  # results/ is pruned to this size
MAX_OCR_BYTES = 50 * 1024 * 1024  # ocr/ likewise (its entries are text boxes, a few KB each)
MAX_AGE_DAYS = 30  # entries not used for this long are removed
_DIR_NAME = ".figlint_cache"

# The cache settings of the input being linted: (root folder, enabled). Set by `session`
# around each input; the OCR and judge caches read them through cache_root()/enabled().
_SESSION: tuple[Path | None, bool] = (None, True)


def project_root(path: str) -> Path | None:
    """The nearest folder at or above `path` that holds `.git` or `pyproject.toml`."""
    p = Path(os.path.abspath(path))
    start = p if p.is_dir() else p.parent
    for d in (start, *start.parents):
        if (d / ".git").exists() or (d / "pyproject.toml").is_file():
            return d
    return None


def _user_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "figlint"


def root_for(path: str | None) -> Path:
    """Where the cache of an input at `path` lives (see the module doc)."""
    env = os.environ.get("FIGLINT_CACHE_DIR")
    if env:
        return Path(env)
    proj = project_root(path if path else os.getcwd())
    return proj / _DIR_NAME if proj is not None else _user_cache()


def cache_root() -> Path:
    """The cache folder in force: the linted input's (inside `session`), else the working directory's project."""
    env = os.environ.get("FIGLINT_CACHE_DIR")
    if env:
        return Path(env)
    root, _ = _SESSION
    return root if root is not None else root_for(None)


def enabled() -> bool:
    """False while an input is linted with --no-cache: no cache may be read or written."""
    return _SESSION[1]


@contextmanager
def session(path: str | None, on: bool = True) -> Iterator[None]:
    """Cache settings for linting one input: its cache folder, and whether caches are used."""
    global _SESSION
    previous = _SESSION
    _SESSION = (root_for(path), on)
    try:
        yield
    finally:
        _SESSION = previous


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


_PRUNED: set[str] = set()


def prune(folder: Path, max_bytes: int, max_age_days: float = MAX_AGE_DAYS) -> None:
    """Remove entries unused for `max_age_days`, then the least recently used ones until the
    folder holds at most `max_bytes`. Once per folder and process: a batch pays for one listing."""
    key = str(folder)
    if key in _PRUNED:
        return
    _PRUNED.add(key)
    try:
        entries = []
        for f in folder.rglob("*"):
            if f.is_file() and not f.name.startswith(".tmp-"):
                st = f.stat()
                entries.append((st.st_mtime, st.st_size, f))
    except OSError:
        return
    now = time.time()
    entries.sort(key=lambda e: e[0])  # oldest (least recently used) first
    total = sum(size for _, size, _ in entries)
    for mtime, size, f in entries:
        if now - mtime <= max_age_days * 86400 and total <= max_bytes:
            break
        try:
            f.unlink()
            total -= size
        except OSError:
            pass


def touch(path: Path) -> None:
    """Mark an entry as used (its mtime orders pruning)."""
    try:
        os.utime(path)
    except OSError:
        pass


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
    cfg.pop("dry_run", None)
    # The path as given and the working directory, not just the absolute path: reports
    # print paths as the user spelled them, so another spelling is another entry.
    raw = repr((_FORMAT, __version__, code_stamp(), path, os.getcwd(),
                sorted(cfg.items(), key=lambda kv: kv[0])))
    return hashlib.sha256(raw.encode()).hexdigest()[:40]


def _entry_path(path: str, config) -> Path:
    return cache_root() / "results" / f"{_key(path, config)}.json"


def dependencies(result) -> list[str]:
    """Absolute paths of every file the result was built from."""
    paper = result.paper
    if paper is None:
        return [os.path.abspath(result.path)] if os.path.isfile(result.path) else []
    deps: list[str] = []
    if paper.route == "latex" and paper.root:
        rels = list(paper.extra.get("sources", [])) + list(paper.extra.get("aux_files", []))
        rels += [g for f in paper.figures for g in f.graphics]
        deps += [os.path.abspath(os.path.join(paper.root, r)) for r in rels]
        if paper.pdf_path:
            deps.append(os.path.abspath(paper.pdf_path))
    else:
        deps.append(os.path.abspath(paper.path))
    return sorted(set(deps))


def load(path: str, config):
    """The cached result for `path` under `config`, if every file it came from is unchanged."""
    from figlint import record

    entry = _entry_path(path, config)
    try:
        stored = json.loads(entry.read_text(encoding="utf-8"))
        if stored.get("format") != _FORMAT:
            return None
        deps, absent = stored["deps"], stored.get("absent", [])
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    for dep, digest in deps.items():
        if file_digest(dep) != digest:
            return None
    # A LaTeX paper also depends on files that may appear later (a compiled PDF next to the
    # main file, a graphics file that was missing): the stored absence must still hold.
    for dep in absent:
        if os.path.exists(dep):
            return None
    try:
        result = record.result_from_plain(stored["result"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    touch(entry)
    return result


def store(path: str, config, result, absent: list[str] = ()) -> None:
    from figlint import record

    deps = {d: file_digest(d) for d in dependencies(result)}
    payload = {"format": _FORMAT, "figlint": __version__, "deps": deps, "absent": list(absent),
               "result": record.result_to_plain(result)}
    try:
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except (TypeError, ValueError):
        return  # something in the result is not plain data: recompute next time
    try:
        atomic_write(_entry_path(path, config), data)
    except OSError:
        return  # a read-only checkout still lints; it just doesn't cache
    prune(cache_root() / "results", MAX_RESULTS_BYTES)


def lint_cached(path: str, config, rules=None, enabled: bool = True):
    """lint_path with the results cache in front of it; `enabled=False` (--no-cache) turns off
    every cache (results, OCR, judge) for this input."""
    from figlint.engine import lint_path

    with session(path, enabled):
        # --dry-run must plan the judge's calls, which a stored result would skip
        use_results = enabled and not getattr(config, "dry_run", False)
        hit = load(path, config) if use_results else None
        if hit is not None:
            hit.cached = True
            hit.timings = {}
            return hit
        result = lint_path(path, config, rules)
        # inputs that failed are not cached (the error must show again), nor unpacked zips (their
        # files live in a temporary folder that is gone after the run: the entry could never hit)
        if use_results and result.paper is not None and not result.paper.extra.get("archive"):
            if not _over_budget(result):
                store(path, config, result, _absent(result))
        return result


def _over_budget(result) -> bool:
    """A figure skipped for a budget is not stored (figlint/budget.py): budgets count work, so
    the skip would come back, but a later figlint with a larger budget must not be served it."""
    from figlint.budget import skipped

    return result.paper is not None and any(skipped(f) for f in result.paper.figures)


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


def entry_sizes() -> dict[str, Any]:
    """Bytes per cache subfolder (for benchmarks and `--profile`)."""
    out: dict[str, Any] = {}
    root = cache_root()
    for sub in ("results", "ocr", "judge"):
        d = root / sub
        out[sub] = sum(f.stat().st_size for f in d.rglob("*") if f.is_file()) if d.is_dir() else 0
    return out
