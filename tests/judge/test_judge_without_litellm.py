"""Without litellm: the offline scorer works, and a model protocol is a one-line error naming the extra."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PDF = ROOT / "examples" / "paper" / "main.pdf"


def run_blocked(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    # sys.modules['litellm'] = None makes `import litellm` raise ImportError, as if it were not installed
    code = ("import sys, runpy\nsys.modules['litellm'] = None\n"
            f"sys.argv = ['figlint', *{list(args)!r}]\nrunpy.run_module('figlint', run_name='__main__')\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_model_protocol_without_litellm_is_one_line(tmp_path):
    for protocol in ("agent", "direct", "sidecar"):
        proc = run_blocked(str(PDF), "--judge", protocol, "--judge-model", "openai/gpt-4o-mini", cwd=tmp_path)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert "Traceback" not in proc.stderr
        lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("figlint: error:"), proc.stderr
        assert "pip install 'figlint[judge]'" in lines[0]


def test_offline_scorer_without_litellm(tmp_path):
    proc = run_blocked(str(PDF), "--format", "json", cwd=tmp_path)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    figs = json.loads(proc.stdout)["papers"][0]["figures"]
    scored = [f for f in figs if f["scores"]]
    assert len(scored) == 5 and all(f["scores"]["overall"] for f in scored)
