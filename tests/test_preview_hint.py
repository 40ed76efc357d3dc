"""The text report says when preview rules did not run, so 'ok' beside a figure is not
read as 'checked by every rule'; machine formats and runs with preview on stay silent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "paper" / "main.pdf"


def _run(*args: str, preview: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "FIGLINT_PREVIEW": preview}
    return subprocess.run([sys.executable, "-m", "figlint", str(EXAMPLE), "--no-cache", *args],
                          capture_output=True, text=True, env=env, timeout=600)


def test_default_run_names_the_preview_rules_it_left_out():
    out = _run(preview="0").stdout
    hint = [line for line in out.splitlines() if "preview rules did not run" in line]
    assert len(hint) == 1 and "--preview" in hint[0]
    shown = _run("--preview", preview="0").stdout
    assert "preview rules did not run" not in shown
    assert "Found 0 findings" not in shown  # the example's known defects are preview findings


def test_machine_output_has_no_hint():
    res = _run("--format", "json", preview="0")
    json.loads(res.stdout)
    assert "preview rules" not in res.stdout
