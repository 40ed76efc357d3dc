"""Progress on a terminal (stderr), silent in pipes, never in machine output."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fixtures.terminal import read_until_closed

from figlint import progress

ROOT = Path(__file__).resolve().parents[1]
PDF = ROOT / "examples" / "paper" / "main.pdf"


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_reporter_draws_one_line_and_clears_it():
    out = _Tty()
    p = progress.Progress(stream=out, delay=0)
    p.step("reading page 1 of 3")
    p.done()
    text = out.getvalue()
    assert text.startswith("\rfiglint: reading page 1 of 3\x1b[K") and text.endswith("\r\x1b[K")


def test_reporter_is_quiet_on_a_pipe_and_during_the_delay():
    pipe = io.StringIO()  # not a terminal
    p = progress.Progress(stream=pipe, delay=0)
    p.step("x")
    p.done()
    assert pipe.getvalue() == ""
    slow = progress.Progress(stream=_Tty(), delay=3600)
    slow.step("x")
    assert slow.stream.getvalue() == ""


def _env(**extra):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(extra)
    return env


def test_nothing_on_stderr_when_it_is_not_a_terminal(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "figlint", str(PDF), "--no-cache", "--format", "json"],
                          capture_output=True, text=True, env=_env(FIGLINT_PROGRESS_DELAY="0"), cwd=tmp_path,
                          timeout=300)
    assert "\r" not in proc.stderr and "\x1b[K" not in proc.stderr
    json.loads(proc.stdout)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_terminal_gets_progress_and_stdout_stays_clean(tmp_path):
    """stderr on a pseudo-terminal: per page and per figure lines there, pure JSON on stdout."""
    master, slave = os.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "figlint", str(PDF), "--no-cache", "--format", "json"],
                              stdout=subprocess.PIPE, stderr=slave, env=_env(FIGLINT_PROGRESS_DELAY="0"),
                              cwd=tmp_path, timeout=300)
        os.close(slave)
        out = read_until_closed(master)
    finally:
        os.close(master)
    seen = out.decode("utf-8", "replace")
    assert "reading page" in seen and "on figure" in seen, seen[:500]
    assert seen.rstrip("\r\n").endswith("\x1b[K")  # the line is cleared at the end
    doc = json.loads(proc.stdout)
    assert doc["papers"][0]["figures"]
