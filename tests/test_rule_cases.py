"""Run every per-rule fixture case through the real pipeline: pdflatex -> figlint."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from fixtures.figures import GENERATORS
from fixtures.rule_cases import CASES, document
from figlint.config import Config
from figlint.engine import run

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")


@pytest.fixture(scope="session")
def figure_files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("figfiles")
    for name, gen in GENERATORS.items():
        gen(d / name)
    return d


def compile_case(case, figure_files: Path, tmp: Path) -> Path:
    for name in case.files:
        shutil.copy(figure_files / name, tmp / name)
    tex = tmp / "main.tex"
    tex.write_text(document(case))
    for _ in range(2):  # twice, so \ref numbers resolve
        proc = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"],
            cwd=tmp, capture_output=True, text=True, timeout=120,
        )
        assert proc.returncode == 0, proc.stdout[-2000:]
    return tex


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rule_case_pdf(case, figure_files, tmp_path):
    tex = compile_case(case, figure_files, tmp_path)
    result = run([str(tex.with_suffix(".pdf"))], Config(select=["ALL"]))
    got = {(f.code, f.figure or None) for f in result.findings if f.code == case.rule}
    assert got == case.expect, [f.message for f in result.findings]
