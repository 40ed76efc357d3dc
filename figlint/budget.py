"""Budgets that keep one pathological figure from hanging or swamping a run.

Budgets count work, never wall-clock time, so the same input gives the same
findings on an idle and on a loaded machine. Sizes are capped where content is
read: vector paths per page (ingest/pdf_layout, ingest/graphics), paths and path
segments per figure analysed (`check_size`), pixels decoded from an image file
and pixels rendered from a PDF region (features). As a last safety net against
a hang, the analysis of one figure (features.analyse) runs under
`figure_deadline`, a limit in CPU time of this process (FIGURE_CPU_SECONDS),
which other processes loading the machine do not consume; a figure that meets
it is far over every size budget's intent.

A figure over any budget is not analysed: `skip(fig, reason)` records why in
`fig.extra["figure_skipped"]`, the analysis comes back empty (so the figure's
content rules stay silent rather than guess), and the engine reports one FL011
(figure-skipped) finding per such figure through `skipped_findings`. Every other
figure and rule still runs. A result with a skipped figure is never stored in the
results cache (figlint/cache.py).

The CPU limit is preemptive where that is safe (a SIGPROF timer, on the main
thread of a Unix process when no other such timer is armed): the timer never
breaks into an import or a PyMuPDF call (a Python exception raised inside a MuPDF
callback crashes the process), it waits for them to return; everything those
calls do is bounded by the size caps. Elsewhere (a worker thread) only the size
caps apply. FIGLINT_FIGURE_CPU_SECONDS overrides the limit (0 turns it off;
FIGLINT_FIGURE_SECONDS, its old name, is read as CPU seconds too).
"""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager
from typing import Iterator

# vector paths kept per page; beyond this a page's drawings are cut off (FL011 on its figures)
MAX_PAGE_DRAWINGS = 100_000
# paths one figure's vector analysis looks at
MAX_FIGURE_DRAWINGS = 50_000
# path segments (lines, curves, rectangles) over all of one figure's paths
MAX_FIGURE_SEGMENTS = 2_000_000
# pixels decoded from an image file for analysis (OCR and pixel analysis work on <= 1,280 px)
MAX_DECODE_PIXELS = 40_000_000
# pixels rendered from a PDF region for analysis (a letter page at 300 DPI is 8.4 M)
MAX_RENDER_PIXELS = 16_000_000
# below this resolution a rendered region is useless for reading labels: skipped instead
MIN_RENDER_DPI = 36.0
# CPU seconds of this process one figure's analysis may take (a hang guard; see the module doc)
DEFAULT_FIGURE_CPU_SECONDS = 120.0

SKIP_KEY = "figure_skipped"
_REPORTED_KEY = "figure_skipped_reported"


def figure_seconds() -> float:
    """The per-figure CPU-time limit in seconds (FIGLINT_FIGURE_CPU_SECONDS, else the older
    FIGLINT_FIGURE_SECONDS; 0 or less: none)."""
    raw = os.environ.get("FIGLINT_FIGURE_CPU_SECONDS") or os.environ.get("FIGLINT_FIGURE_SECONDS", "")
    try:
        return float(raw) if raw.strip() else DEFAULT_FIGURE_CPU_SECONDS
    except ValueError:
        return DEFAULT_FIGURE_CPU_SECONDS


class FigureSkipped(BaseException):
    """A figure's analysis went over budget; the message says which and by how much.

    A BaseException, like KeyboardInterrupt: the timer can fire anywhere in the
    analysis, and broad `except Exception` handlers there must not swallow it.
    """


def skip(fig, reason: str, reported: bool = False) -> None:
    """Mark `fig` as not analysed. `reported`: a Problem for it was already filed (ingestion)."""
    fig.extra.setdefault(SKIP_KEY, reason)
    if reported:
        fig.extra[_REPORTED_KEY] = True


def skipped(fig) -> str | None:
    return fig.extra.get(SKIP_KEY)


# ---------------------------------------------------------------- size


def check_size(fig) -> None:
    """Raise FigureSkipped when the figure holds more vector content than is analysed:
    MAX_FIGURE_DRAWINGS paths or MAX_FIGURE_SEGMENTS path segments (a count of the work the
    vector analysis would do, so the verdict is the same on every machine)."""
    n = len(fig.drawings)
    if n > MAX_FIGURE_DRAWINGS:
        raise FigureSkipped(f"{n:,} vector paths (at most {MAX_FIGURE_DRAWINGS:,} are analysed)")
    segments = sum(d.items for d in fig.drawings)
    if segments > MAX_FIGURE_SEGMENTS:
        raise FigureSkipped(f"{segments:,} vector path segments (at most {MAX_FIGURE_SEGMENTS:,} are analysed)")


def capped_drawings(page, extended: bool = False, limit: int = MAX_PAGE_DRAWINGS) -> tuple[list[dict], int]:
    """The page's vector paths as `page.get_cdrawings(extended)` lists them, at most `limit`
    of them, and how many there are in all.

    get_cdrawings builds a dict per path before it returns (about 1.2 KB each: a page of a
    million paths would take over a gigabyte); its callback form hands them over one at a
    time, so only `limit` are ever kept. The callback form does not merge a fill and the
    stroke of the same path into one "fs" path as the list form does: that is done here,
    the same way. The callback must never raise: an exception inside a MuPDF callback
    crashes the process.
    """
    kept: list[dict] = []
    total = 0
    last: dict | None = None

    def take(p: dict) -> bool:
        nonlocal total, last
        try:
            if (last is not None and p.get("type") == "s" and last.get("type") == "f"
                    and last.get("items") == p.get("items")):
                for k, v in p.items():
                    last.setdefault(k, v)
                last["type"] = "fs"
                return True
            last = p
            total += 1
            if len(kept) < limit:
                kept.append(p)
        except Exception:  # noqa: BLE001 - see the docstring: never raise into MuPDF
            pass
        return True  # a false answer makes PyMuPDF print a warning

    page.get_cdrawings(extended=extended, callback=take)
    return kept, total


# ---------------------------------------------------------------- CPU time


def _can_alarm() -> bool:
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return False
    # someone else's timer (a profiler, an embedding application) is left alone
    return signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


_UNSAFE = ("importlib", "pymupdf", "fitz")


def _unsafe(frame) -> bool:
    """Inside an import or a PyMuPDF call: raising there could corrupt state or crash MuPDF."""
    while frame is not None:
        name = frame.f_code.co_filename
        if any(u in name for u in _UNSAFE):
            return True
        frame = frame.f_back
    return False


@contextmanager
def figure_deadline(what: str, seconds: float | None = None) -> Iterator[None]:
    """Raise FigureSkipped in the block once this process has spent `seconds` of CPU time in it
    (ITIMER_PROF counts the process's own user and system time, not the wall clock)."""
    seconds = figure_seconds() if seconds is None else seconds
    if seconds <= 0 or not _can_alarm():
        yield
        return

    def on_alarm(signum, frame):
        if _unsafe(frame):
            signal.setitimer(signal.ITIMER_PROF, 0.05)  # try again once that call has returned
            return
        raise FigureSkipped(f"{what} took more than {seconds:g} s of CPU time")

    previous = signal.signal(signal.SIGPROF, on_alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


# ---------------------------------------------------------------- findings


def skipped_findings(paper, enabled: set[str]) -> list:
    """One FL011 finding per figure whose analysis was skipped during the rules (the ones
    skipped while reading the input were filed as Problems by ingestion already)."""
    if "FL011" not in enabled or paper is None:
        return []
    from figlint.model import Finding
    from figlint.rules.registry import figure_location, get_rule

    rule = get_rule("FL011")
    out = []
    for fig in paper.figures:
        reason = fig.extra.get(SKIP_KEY)
        if not reason or fig.extra.get(_REPORTED_KEY):
            continue
        fig.extra[_REPORTED_KEY] = True
        what = f"figure {fig.number}" if fig.number else "an uncaptioned figure"
        out.append(Finding(code=rule.code, rule=rule.name, severity=rule.severity,
                           message=f"{what} was not analysed: {reason}", location=figure_location(fig),
                           figure=fig.number or None, evidence={"reason": reason}, origin="figure"))
    return out
