"""The same input gives byte-identical JSON on an idle and on a loaded machine.

Budgets count work (paths, path segments, pixels; figlint/budget.py), and the only
clock-based guard counts CPU time of figlint's own process, so processes that keep
every core busy must not change a single finding. The load here is real: busy
loops on every core while the second run goes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "paper"


def _lint(target: Path, cwd: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "figlint", str(target), "--no-cache", "--format", "json"],
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.stdout


def test_same_json_with_every_core_busy(tmp_path):
    targets = [EXAMPLE / "main.pdf", EXAMPLE / "main.tex"]
    idle = [_lint(t, tmp_path) for t in targets]
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
               for _ in range(os.cpu_count() or 1)]
    try:
        loaded = [_lint(t, tmp_path) for t in targets]
    finally:
        for p in burners:
            p.kill()
        for p in burners:
            p.wait()
    for a, b in zip(idle, loaded):
        assert a and a == b
