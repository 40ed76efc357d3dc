"""Sources + compiled PDF on the corpus papers: every figure bound, every finding on a .tex line.

Reads ../shared (skipped when absent). Each paper is linted from its main .tex
with its paper.pdf given as the compiled PDF.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from figlint.config import Config
from figlint.engine import lint_path

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
PAPERS = SHARED / "corpus" / "papers"
NAMES = sorted(p.name for p in PAPERS.iterdir() if (p / "truth.json").is_file()) if PAPERS.is_dir() else []

pytestmark = pytest.mark.skipif(not NAMES, reason="../shared corpus not present")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = {}
    for name in NAMES:
        truth = json.loads((PAPERS / name / "truth.json").read_text())
        # A fresh copy of the PDF, newer than the sources, as after a compile.
        pdf = tmp_path_factory.mktemp(name) / "paper.pdf"
        shutil.copy(PAPERS / name / "paper.pdf", pdf)
        os.utime(pdf)
        tex = PAPERS / name / "source" / truth["main_tex"]
        out[name] = (truth, lint_path(str(tex), Config(select=["ALL"], pdf=str(pdf))))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_every_figure_bound_to_its_printed_page(results, name):
    truth, result = results[name]
    assert result.error is None
    assert not [f.message for f in result.findings if f.code in ("FL008", "FL001")]
    pages = {f.number: f.page for f in result.paper.figures if f.number}
    assert pages == {t["number"]: t["pdf_page"] for t in truth["figures"]}
    for fig in result.paper.figures:
        if fig.number:
            assert fig.location.file.endswith(".tex") and fig.location.line >= 1


@pytest.mark.parametrize("name", NAMES)
def test_every_finding_points_at_a_tex_line(results, name):
    _truth, result = results[name]
    for f in result.findings:
        assert f.location.file and f.location.file.endswith(".tex"), (f.code, f.location)
        assert f.location.line and f.location.line >= 1, (f.code, f.location)
