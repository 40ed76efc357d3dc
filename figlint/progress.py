"""Progress on the terminal: one line on stderr, rewritten in place, for runs longer than about 2 s.

The command line starts a reporter (`start`) when stderr is a terminal and the
report does not stream there; nothing is ever written when stderr is a pipe or a
file, and never to stdout, so machine output (JSON, SARIF, JSON Lines) is never
mixed with it. Nothing shows for the first DELAY seconds (a quick run stays
silent), then the line says what is being done: the page being read and the
figure being checked for one big paper (`step`, called by ingestion and the
engine), the papers done for a batch (`paper_done`). Only the process that
started the reporter writes: workers of a `--jobs` pool, which inherit it,
stay quiet. The clock here decides only when the line is redrawn, never a
result.
"""

from __future__ import annotations

import os
import shutil
import sys
import time

DELAY = 2.0  # seconds before the first line
INTERVAL = 0.1  # at most this often a redraw


class Progress:
    def __init__(self, stream=None, enabled: bool | None = None, delay: float = DELAY):
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            try:
                enabled = self.stream.isatty()
            except (AttributeError, ValueError):
                enabled = False
        self.enabled = enabled
        self.delay = delay
        self.started = time.monotonic()
        self.pid = os.getpid()
        self.shown = False
        self._last = 0.0
        self.total: int | None = None
        self.papers = 0
        self.current = ""

    def _write(self, text: str, force: bool = False) -> None:
        if not self.enabled or os.getpid() != self.pid:
            return
        now = time.monotonic()
        if now - self.started < self.delay or (not force and now - self._last < INTERVAL):
            return
        self._last = now
        width = max(20, shutil.get_terminal_size((100, 20)).columns - 1)
        if len(text) > width:
            text = text[: width - 1] + "…"
        try:
            self.stream.write("\r" + text + "\x1b[K")
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False
            return
        self.shown = True

    def _prefix(self) -> str:
        if self.total and self.total > 1:
            return f"figlint: {self.papers}/{self.total} inputs"
        return "figlint"

    def step(self, what: str) -> None:
        """What one input is doing now ("reading page 40 of 900", "figure 3 of 20")."""
        self._write(f"{self._prefix()}: {self.current}{': ' if self.current else ''}{what}")

    def paper_done(self, result) -> None:
        self.papers += 1
        name = result.path if len(result.path) <= 50 else "…" + result.path[-49:]
        self._write(f"{self._prefix()}, last {name}", force=True)

    def done(self) -> None:
        if self.shown and os.getpid() == self.pid:
            try:
                self.stream.write("\r\x1b[K")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self.shown = False


_CURRENT: Progress | None = None


def start(enabled: bool | None = None, stream=None) -> Progress:
    """The run's reporter (enabled by default when stderr is a terminal)."""
    global _CURRENT
    try:  # FIGLINT_PROGRESS_DELAY: seconds before the first line (tests and demos use 0)
        delay = float(os.environ.get("FIGLINT_PROGRESS_DELAY") or DELAY)
    except ValueError:
        delay = DELAY
    _CURRENT = Progress(stream=stream, enabled=enabled, delay=delay)
    return _CURRENT


def current() -> Progress | None:
    p = _CURRENT
    return p if p is not None and p.enabled and os.getpid() == p.pid else None


def set_total(n: int) -> None:
    p = current()
    if p is not None:
        p.total = n


def begin(path: str) -> None:
    """An input starts (its name prefixes the steps)."""
    p = current()
    if p is not None:
        p.current = path if len(path) <= 40 else "…" + path[-39:]


def step(what: str) -> None:
    p = current()
    if p is not None:
        p.step(what)
