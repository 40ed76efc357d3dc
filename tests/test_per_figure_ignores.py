"""per-figure-ignores: switch rules off for one figure, named by its \\label or its number."""

from __future__ import annotations

import subprocess
import sys

import pytest
from fixtures.pdfs import GENERIC_CAPTION, make_paper_pdf, needs_pdf_route

from figlint.config import Config, drop_per_figure_ignores, figure_selector_matches, from_table
from figlint.errors import UsageError
from figlint.model import Figure, Finding, Location, Paper


def test_parse_and_show():
    cfg = from_table({"per-figure-ignores": {"fig:overview": ["FL202", "bare-pointer-citation"], "3": ["FL1"]}})
    assert cfg.per_figure_ignores == {"fig:overview": ["FL202", "bare-pointer-citation"], "3": ["FL1"]}
    assert cfg.effective()["per-figure-ignores"] == cfg.per_figure_ignores


@pytest.mark.parametrize("value,needle", [
    (["FL202"], "'per-figure-ignores'"),
    ({"fig:a": "FL202"}, "'per-figure-ignores.fig:a'"),
    ({"fig:a": ["FL999"]}, "FL999"),
])
def test_errors_name_the_key(value, needle):
    with pytest.raises(UsageError, match=needle):
        from_table({"per-figure-ignores": value})


def test_selectors():
    assert figure_selector_matches("fig:overview", "4", ["fig:overview"])
    assert figure_selector_matches("4", "4", [])
    assert figure_selector_matches("Figure 4", "4", [])
    assert figure_selector_matches("Fig. A2", "A2", [])
    assert not figure_selector_matches("4", "14", [])
    assert not figure_selector_matches("4", None, [])


def test_drop_by_label_and_number():
    paper = Paper(path="p.pdf", route="latex", figures=[Figure(number="1", labels=["fig:overview"]), Figure(number="2")])
    fs = [Finding("FL202", "generic-caption", "warning", "m", Location(), figure="1"),
          Finding("FL302", "bare-pointer-citation", "warning", "m", Location(), figure="1"),
          Finding("FL101", "low-dpi", "warning", "m", Location(), figure="2"),
          Finding("FL202", "generic-caption", "warning", "m", Location(), figure="2"),
          Finding("FL303", "citation-order", "note", "m", Location())]
    cfg = Config(per_figure_ignores={"fig:overview": ["generic-caption"], "Figure 2": ["FL1"]})
    kept = drop_per_figure_ignores(fs, paper, cfg)
    assert [(f.code, f.figure) for f in kept] == [("FL302", "1"), ("FL202", "2"), ("FL303", None)]


@needs_pdf_route
def test_engine_applies_them(tmp_path):
    make_paper_pdf(tmp_path / "paper.pdf", GENERIC_CAPTION)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".figlint.toml").write_text('[per-figure-ignores]\n"1" = ["FL202"]\n')
    proc = subprocess.run([sys.executable, "-m", "figlint", "paper.pdf"], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0 and "FL202" not in proc.stdout, proc.stdout
