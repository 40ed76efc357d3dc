"""benchmarks/invariance.py --write keeps the earlier runs of its RESULTS section as history."""

from __future__ import annotations

import sys
from pathlib import Path

from fixtures.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]


def _inv():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    return load_script(ROOT / "benchmarks" / "invariance.py", "bench_invariance")


def test_earlier_runs_are_kept_after_the_papers_line(tmp_path):
    inv = _inv()
    results = tmp_path / "RESULTS.md"
    results.write_text("# r\n\n## Invariance (issue 12)\n\nintro\n\n- papers: a, b\n- **run 2**: 9 of 9\n"
                       "- **run 1**: 8 of 9\n  - a cause\n\n## Next\n\nother\n")
    assert inv._history(results, "Invariance (issue 12)") == ["- **run 2**: 9 of 9", "- **run 1**: 8 of 9",
                                                               "  - a cause"]
    assert inv._history(results, "Missing") == []
    assert inv._revision().split(" at ")[-1]  # a short hash in a git checkout
