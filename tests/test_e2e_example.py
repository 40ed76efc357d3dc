"""End to end: figlint on the bundled example paper finds exactly its known defects.

The expected (code, figure) pairs come from KNOWN_DEFECTS in
examples/make_example.py, the script that generated the paper; a figure id
of None (the uncaptioned figure) matches null or "" in the JSON report.
Both input routes are checked: the compiled PDF and the LaTeX source.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _known_defects() -> set[tuple[str, str]]:
    # make_example.py is a script, not a package module: load it by path.
    # Importing it runs nothing (generation is behind __main__) and needs no
    # matplotlib (imported lazily inside the figure functions).
    mod = load_script(EXAMPLES / "make_example.py", "figlint_make_example")
    return {(code, fig or "") for code, fig in mod.KNOWN_DEFECTS}


def _findings(target: Path) -> set[tuple[str, str]]:
    proc = subprocess.run(
        # --preview: some of the known defects are reported only by rules still in preview
        [sys.executable, "-m", "figlint", str(target), "--format", "json", "--preview"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"no JSON on stdout (exit {proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    (paper,) = doc["papers"]
    assert paper["error"] is None, paper["error"]
    return {(f["code"], f["figure"] or "") for f in paper["findings"]}


@pytest.mark.parametrize("name", ["main.pdf", "main.tex"])
def test_example_paper_has_exactly_the_known_defects(name):
    target = EXAMPLES / "paper" / name
    assert target.exists(), f"{target} missing: run python examples/make_example.py"
    got = _findings(target)
    expected = _known_defects()
    assert got == expected, f"missing: {sorted(expected - got)}; unexpected: {sorted(got - expected)}"
