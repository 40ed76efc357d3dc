"""Many inputs at once: expand directories, lint papers in a process pool, stream results.

`run_many(paths, config, jobs, on_result)` lints every input and calls
`on_result(PaperResult)` in completion order (so JSON Lines can stream);
one failing paper never stops the others (lint_path turns every failure
into an error result). With one job, or one input, everything stays in this
process: no pool start-up cost for the common single-paper run.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Callable

from figlint.config import Config, enabled_rules
from figlint.engine import PaperResult, RunResult

PAPER_SUFFIXES = (".pdf",)
# figure files directly inside a folder are inputs too (`figlint figs/` on a folder of charts)
FIGURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp")


def _is_latex_dir(d: Path) -> bool:
    for tex in d.glob("*.tex"):
        try:
            head = tex.read_text(encoding="utf-8", errors="replace")[:20000]
        except OSError:
            continue
        if "\\documentclass" in head:
            return True
    return False


def expand_inputs(paths: list[str]) -> list[str]:
    """A directory that holds a LaTeX paper is one input; any other directory stands
    for the PDFs, figure images and LaTeX paper folders directly inside it, in name order."""
    out: list[str] = []
    for raw in paths:
        p = Path(raw)
        if not p.is_dir() or _is_latex_dir(p):
            out.append(raw)
            continue
        found = []
        for child in sorted(p.iterdir()):
            if child.is_file() and child.suffix.lower() in PAPER_SUFFIXES + FIGURE_SUFFIXES:
                found.append(str(child))
            elif child.is_dir() and _is_latex_dir(child):
                found.append(str(child))
        out.extend(found or [raw])  # an empty folder still gets its one-line error
    return out


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _lint_one(path: str, config: Config, use_cache: bool = False, rules=None) -> PaperResult:
    from figlint.cache import lint_cached  # use_cache=False (--no-cache) turns off every cache

    return lint_cached(path, config, rules, enabled=use_cache)


def run_many(
    paths: list[str],
    config: Config,
    jobs: int | None = None,
    on_result: Callable[[PaperResult], None] | None = None,
    use_cache: bool = False,
) -> RunResult:
    from figlint import progress

    inputs = expand_inputs(paths)
    progress.set_total(len(inputs))
    jobs = default_jobs() if jobs is None else max(1, jobs)
    results: dict[int, PaperResult] = {}
    if jobs == 1 or len(inputs) == 1:
        rules = enabled_rules(config)
        for i, path in enumerate(inputs):
            progress.begin(path)
            results[i] = _lint_one(path, config, use_cache, rules)
            if on_result:
                on_result(results[i])
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, len(inputs))) as pool:
            futures = {pool.submit(_lint_one, path, config, use_cache): i for i, path in enumerate(inputs)}
            for fut in as_completed(futures):
                i = futures[fut]
                try:
                    results[i] = fut.result()
                except Exception as exc:  # noqa: BLE001 - a dead worker is one failed paper
                    results[i] = PaperResult(path=inputs[i], error=f"{inputs[i]}: worker failed: {exc}")
                if on_result:
                    on_result(results[i])
    # Reports list papers in input order, whatever order they finished in.
    return RunResult([results[i] for i in range(len(inputs))], config)
