"""Many inputs at once: expand directories, lint papers in a process pool, stream results.

This is the one input expansion of every route (CLI, Action, pre-commit hook,
batches): `expand_inputs` turns a folder into its inputs, and `run_many`
finishes each paper's result the same way wherever it came from (`finish`:
citation rules silenced by unresolved references, per-file-ignores, messages
cut to a bounded length, findings sorted by file and line).

A folder that holds a LaTeX paper (a main `.tex` at its top with figures, or
built from other files) is one input, whatever else lies beside it. Any other
folder stands for what is directly inside it, in name order: each PDF, figure
image, source zip and paper folder, and a main `.tex` that is not a paper (a
stray `cover.tex` among submissions) as an input of its own. An input that
cannot be read is its own FL001 finding and makes the exit code 2; it never
hides the others.

`run_many(paths, config, jobs, on_result)` lints every input and calls
`on_result(PaperResult)` in completion order (so JSON Lines can stream);
one failing paper never stops the others (lint_path turns every failure
into an error result). With one job, or one input, everything stays in this
process: no pool start-up cost for the common single-paper run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable

from figlint.config import Config, enabled_rules
from figlint.engine import PaperResult, RunResult

PAPER_SUFFIXES = (".pdf", ".zip")
# figure files directly inside a folder are inputs too (`figlint figs/` on a folder of charts)
FIGURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp")


def _roots(d: Path) -> list[Path]:
    from figlint.ingest.discover import _head, is_main_file

    return [tex for tex in sorted(d.glob("*.tex")) if is_main_file(_head(tex))]


def _is_latex_dir(d: Path) -> bool:
    return bool(_roots(d))


_PAPER_MARKS = re.compile(r"\\begin\s*\{(?:figure|wrapfigure|subfigure)|\\includegraphics|\\(?:input|include|subfile|import)\s*\{")


def _is_paper_root(tex: Path) -> bool:
    """A main file that is a paper, not a cover letter or a note: it has figures or is
    built from other files. Template folders often hold other PDFs (ICML's example_paper.pdf,
    AMS's amsdocs.pdf): beside such a main file they stay part of the one paper folder."""
    from figlint.ingest.discover import _head

    return bool(_PAPER_MARKS.search(_head(tex)))


def expand_folder(p: Path) -> list[str]:
    """The inputs a folder stands for (see the module docstring); [] when it holds none."""
    children = sorted(p.iterdir())
    roots = _roots(p)
    if any(_is_paper_root(r) for r in roots):
        return [str(p)]  # one paper: the LaTeX reader picks its main file
    files = [c for c in children if c.is_file()]
    found = [c for c in files if c.suffix.lower() in PAPER_SUFFIXES + FIGURE_SUFFIXES] + roots
    found += [c for c in children if c.is_dir() and not c.name.startswith(".") and _is_latex_dir(c)]
    if roots and not [c for c in found if c not in roots]:
        return [str(p)]  # main files that are all there is: the folder is their paper
    return [str(c) for c in sorted(found)]


def expand_inputs(paths: list[str]) -> list[str]:
    """Every input the paths stand for, folders expanded (see the module docstring)."""
    out: list[str] = []
    for raw in paths:
        p = Path(raw)
        if not p.is_dir():
            out.append(raw)
            continue
        out.extend(expand_folder(p) or [raw])  # an empty folder still gets its one-line error
    return out


def finish(r: PaperResult, config: Config) -> PaperResult:
    """What every route does to a paper's findings after the engine (and the cache)."""
    from figlint.config import drop_per_file_ignores
    from figlint.report.safe import MESSAGE_LIMIT, clip

    paper = r.paper
    findings = r.findings
    silenced = set((paper.extra.get("silenced_rules") or ()) if paper is not None else ())
    # only while FL012 is reported: a user who ignores FL012 gets the citation rules back
    if silenced and any(f.code == "FL012" for f in findings):
        if "FL301" in silenced and _more_uncited_than_marks(paper):
            silenced.discard("FL301")
        findings = [f for f in findings if f.code not in silenced]
    findings = drop_per_file_ignores(findings, paper, config)
    for f in findings:
        f.message = clip(f.message, MESSAGE_LIMIT)
    findings.sort(key=lambda f: finding_order(f, r.path))
    r.findings = findings
    return r


def _more_uncited_than_marks(paper) -> bool:
    """More figures are uncited than the PDF prints `??` marks: each mark stands for one
    reference, so it can hide the citation of one figure at most, and the others are
    uncited however the marks resolve (a draft with one undefined label and a dozen figures
    its text never cites). Their FL301 findings stand; the rule's message names the marks."""
    from figlint.rules.references import uncited

    marks = int(paper.extra.get("unresolved_pdf_refs") or 0)
    return sum(1 for f in paper.figures if uncited(f, paper)) > marks


def finding_order(f, default_file: str) -> tuple:
    loc = f.location
    return (loc.file or default_file, loc.line or 0, loc.page or 0, loc.column or 0, f.code, f.figure or "")


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
            results[i] = finish(_lint_one(path, config, use_cache, rules), config)
            if on_result:
                on_result(results[i])
    else:
        # imported here: loading multiprocessing costs a run of one paper about 20 ms
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=min(jobs, len(inputs))) as pool:
            futures = {pool.submit(_lint_one, path, config, use_cache): i for i, path in enumerate(inputs)}
            for fut in as_completed(futures):
                i = futures[fut]
                try:
                    results[i] = fut.result()
                except Exception as exc:  # noqa: BLE001 - a dead worker is one failed paper
                    results[i] = PaperResult(path=inputs[i], error=f"{inputs[i]}: worker failed: {exc}")
                results[i] = finish(results[i], config)
                if on_result:
                    on_result(results[i])
    # Reports list papers in input order, whatever order they finished in.
    return RunResult([results[i] for i in range(len(inputs))], config)
