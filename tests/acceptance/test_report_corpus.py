"""Acceptance: the pull-request comment and the HTML report for the largest real paper of the corpus.

The 49-page paper (value-profiles, 20 figures) is linted by the Action's own
script in a simulated runner (event payload, GITHUB_STEP_SUMMARY,
GITHUB_OUTPUT, a local HTTP server for the API), with the PDF placed in a
throw-away repository so that every location is a link, as in real use. The
comment must stay under 20,000 characters and still count every finding
(the JSON report's) in its roll-up per rule; it shows no debug evidence and
every table is valid. The HTML report of the same run has a drawn picture
for every flagged figure. Reads ../shared (test data, never copied into the
repository) and skips cleanly when it is absent.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
PAPER = SHARED / "corpus" / "papers" / "value-profiles" / "paper.pdf"

pytestmark = pytest.mark.skipif(not PAPER.is_file(), reason=f"corpus paper not found at {PAPER}")


def test_comment_of_the_49_page_paper(tmp_path):
    from test_action import FakeGitHub, fake_env, outputs, run_action
    from test_html_report import parse
    from test_markdown import assert_tables_valid, to_html

    work = tmp_path / "work"
    (work / ".git").mkdir(parents=True)
    (work / "paper").mkdir()
    shutil.copy(PAPER, work / "paper" / "paper.pdf")
    with FakeGitHub() as gh:
        proc = run_action(tmp_path, fake_env(tmp_path, gh.url, FIGLINT_PATHS="paper/paper.pdf"))
    assert proc.returncode in (0, 1), proc.stdout[-3000:] + proc.stderr[-3000:]
    out = outputs(tmp_path)
    findings = json.loads(Path(out["json-file"]).read_text())["papers"][0]["findings"]
    assert len(findings) >= 10
    body = Path(out["comment-file"]).read_text(encoding="utf-8")
    assert len(body) < 20_000, len(body)
    assert_tables_valid(body)
    rollup = to_html(body).tables[0]
    assert rollup[0] == ["Rule", "Severity", "Count", "Figures"] and rollup[-1][0] == "Total"
    assert int(rollup[-1][2]) == len(findings)
    assert {row[0].split()[0]: int(row[2]) for row in rollup[1:-1]} == dict(Counter(f["code"] for f in findings))
    assert not re.search(r"\b(chart_type|chart_confidence|smallest_pt|in_appendix)=", body)
    assert "higher is safer" in body and re.search(r"\| \d+/10 \|", body)
    assert "https://github.com/owner/paper/blob/" in body  # locations are links
    # the HTML report: every flagged figure has its picture with the regions drawn
    page = parse(Path(out["html-file"]).read_text(encoding="utf-8"))
    flagged = {k: v for k, v in page.figures.items() if v["findings"]}
    assert len(flagged) >= 10
    for name, card in flagged.items():
        assert card["images"] and card["images"][0].startswith("data:image/png;base64,"), name
        assert card["region_codes"], name
