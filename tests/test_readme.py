"""The README stays true: its example output is what figlint prints today."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def console_block(command: str) -> str:
    m = re.search(r"```console\n\$ " + re.escape(command) + r"\n(.*?)```", README, re.S)
    assert m, f"README has no console block for `{command}`"
    return m.group(1)


def test_first_example_output_is_current():
    # --preview: the example paper's defects include ones only preview rules report yet
    expected = console_block("figlint examples/paper/main.pdf --preview")
    proc = subprocess.run([sys.executable, "-m", "figlint", "examples/paper/main.pdf", "--preview"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stdout == expected


def test_sources_example_output_is_current():
    # the same paper read from its sources (with the PDF beside them): the same seven findings
    expected = console_block("figlint examples/paper/main.tex --preview")
    proc = subprocess.run([sys.executable, "-m", "figlint", "examples/paper/main.tex", "--preview"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stdout == expected


def test_readme_workflow_is_the_validated_one():
    workflow = (ROOT / "docs" / "figlint-workflow.yml").read_text()
    assert workflow.strip() in README


def test_ci_runs_the_readme_test_command():
    m = re.search(r"```console\nbash scripts/install.sh.*\n(python -m pytest -q)\s", README)
    assert m, "README install/test block changed"
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bash scripts/install.sh" in ci and "\npython -m pytest -q\n" in ci


def test_readme_configuration_examples_are_valid():
    """Every [tool.figlint] example in the README is accepted by the configuration loader."""
    import tomllib

    from figlint.config import from_table

    blocks = re.findall(r"```toml\n(.*?)```", README, re.S)
    tables = [b for b in blocks if "[tool.figlint]" in b]
    assert len(tables) >= 2
    for block in tables:
        from_table(tomllib.loads(block)["tool"]["figlint"])
