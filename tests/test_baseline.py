"""Baselines: record today's findings, report only new ones, robust to line shifts."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from fixtures.pdfs import GENERIC_CAPTION, GOOD_CAPTION, make_paper_pdf, needs_pdf_route
from fixtures.results import sample_result

from figlint import baseline
from figlint.errors import UsageError
from figlint.fingerprint import fingerprints, normalise_message
from figlint.model import Finding, Location


def test_normalised_message_ignores_numbers_and_spacing():
    assert normalise_message("Printed at  150 dpi\n(line 42)") == normalise_message("printed at 160 dpi (line 43)")


def test_round_trip_drops_recorded_findings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = sample_result(tmp_path)
    baseline.write(result, "figlint-baseline.json")
    data = json.loads((tmp_path / "figlint-baseline.json").read_text())
    assert list(data["papers"]) == ["paper/main.pdf"]
    assert {e["code"] for e in data["papers"]["paper/main.pdf"]} == {"FL202", "FL302", "FL101", "FL303"}
    again = sample_result(tmp_path, line_shift=3)  # the paper moved down by three lines
    assert baseline.apply(again, "figlint-baseline.json") == 4
    assert again.findings == [] and again.exit_code() == 0
    assert again.results[0].paper.extra["baseline_suppressed"] == 4


def test_new_findings_survive(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    baseline.write(sample_result(tmp_path), "b.json")
    result = sample_result(tmp_path)
    new = Finding("FL102", "tiny-text", "warning", "text printed at 4 pt", Location(file="paper/main.pdf", page=2),
                  figure="1")
    result.results[0].findings.append(new)
    dup = result.results[0].findings[0]
    result.results[0].findings.append(Finding(**{**dup.__dict__}))  # a second, identical finding is new too
    assert baseline.apply(result, "b.json") == 4
    assert [f.code for f in result.findings] == ["FL102", dup.code]


def test_same_fingerprints_as_sarif(tmp_path, monkeypatch):
    from figlint.report import sarif

    monkeypatch.chdir(tmp_path)
    result = sample_result(tmp_path)
    run = sarif.build(result)["runs"][0]
    r = result.results[0]
    assert [x["partialFingerprints"]["primaryLocationLineHash"] for x in run["results"]] == fingerprints(r.findings, r.paper)


@pytest.mark.parametrize("content,needle", [("{", "cannot read"), ('{"papers": {}}', "not a figlint baseline"),
                                            ('{"figlint_baseline": 1, "papers": {"a": 3}}', "'a'")])
def test_bad_baseline_files(tmp_path, content, needle):
    p = tmp_path / "b.json"
    p.write_text(content)
    with pytest.raises(UsageError, match=needle):
        baseline.load(str(p))
    with pytest.raises(UsageError, match="not found"):
        baseline.load(str(tmp_path / "missing.json"))


@needs_pdf_route
def test_cli_write_then_use_baseline(tmp_path):
    (tmp_path / ".git").mkdir()
    paper = tmp_path / "paper"
    paper.mkdir()
    make_paper_pdf(paper / "main.pdf", GENERIC_CAPTION)

    def figlint(*args, cwd=tmp_path):
        return subprocess.run([sys.executable, "-m", "figlint", *args], capture_output=True, text=True, cwd=cwd)

    proc = figlint("paper/main.pdf", "--write-baseline", "figlint-baseline.json")
    assert proc.returncode == 1 and "FL202" in proc.stdout
    proc = figlint("paper/main.pdf", "--baseline", "figlint-baseline.json")
    assert proc.returncode == 0 and "FL202" not in proc.stdout, proc.stdout
    # same baseline from another directory, after the figure moved down the page
    make_paper_pdf(paper / "main.pdf", GENERIC_CAPTION, blank_lines_above=3)
    proc = figlint("main.pdf", "--baseline", "../figlint-baseline.json", cwd=paper)
    assert proc.returncode == 0, proc.stdout
    # a different problem is new
    make_paper_pdf(paper / "main.pdf", "Results.")
    proc = figlint("paper/main.pdf", "--baseline", "figlint-baseline.json", "--format", "markdown")
    assert proc.returncode == 1 and "FL202" in proc.stdout and "in the baseline" not in proc.stdout
    make_paper_pdf(paper / "main.pdf", GOOD_CAPTION)
    assert figlint("paper/main.pdf", "--baseline", "figlint-baseline.json").returncode == 0
    proc = figlint("paper/main.pdf", "--baseline", "nope.json")
    assert proc.returncode == 2 and "baseline file not found" in proc.stderr
