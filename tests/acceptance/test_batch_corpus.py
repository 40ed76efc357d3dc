"""Acceptance (issue 7): one batch run over the shared corpus papers plus two corrupt files.

Every good paper yields its result with all its truth figures, each corrupt file an
error line of its own, and the run exits 2 (an unreadable input is an input error, as
the README documents) without a traceback. Skips when ../shared is absent.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPUS = SHARED / "corpus" / "papers"
PAPERS = sorted(p for p in CORPUS.iterdir() if (p / "truth.json").is_file()) if CORPUS.is_dir() else []

pytestmark = pytest.mark.skipif(not PAPERS, reason=f"shared corpus not found at {CORPUS}")


def test_batch_of_corpus_papers_and_two_corrupt_files(tmp_path):
    truncated = tmp_path / "truncated.pdf"
    whole = (PAPERS[0] / "paper.pdf").read_bytes()
    truncated.write_bytes(whole[: len(whole) // 3])  # cut mid-stream: no xref, no trailer
    garbage = tmp_path / "garbage.pdf"
    garbage.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 64)
    good = [str(p / "paper.pdf") for p in PAPERS]
    bad = [str(truncated), str(garbage)]
    proc = subprocess.run(
        [sys.executable, "-m", "figlint", *good, *bad, "--format", "jsonl", "--jobs", "2", "--no-cache"],
        capture_output=True, text=True, timeout=600, env={**os.environ, "CI": "true"})
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [json.loads(ln) for ln in proc.stdout.splitlines()]
    by_path = {d["path"]: d for d in lines}
    assert sorted(by_path) == sorted(good + bad) and len(lines) == len(good + bad)
    for p in PAPERS:
        d = by_path[str(p / "paper.pdf")]
        truth = json.loads((p / "truth.json").read_text())
        assert d["error"] is None, (p.name, d["error"])
        assert {f["number"] for f in d["figures"]} >= {str(f["number"]) for f in truth["figures"]}, p.name
    for b in bad:
        err = by_path[b]["error"]
        assert err and "\n" not in err and by_path[b]["figures"] == []
    assert proc.returncode == 2
    assert f"{len(good) + len(bad)} inputs, 2 unreadable" in proc.stderr
