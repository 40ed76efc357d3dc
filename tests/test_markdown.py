"""Markdown report: renders as a real table with a Markdown library, folds details, fits GitHub's limits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fixtures.pdfs import GENERIC_CAPTION, make_paper_pdf, needs_pdf_route
from fixtures.results import sample_result

from figlint.config import Config
from figlint.engine import PaperResult, RunResult
from figlint.model import Caption, Figure, Finding, Location, Paper
from figlint.report import markdown as md

CORPUS = Path(os.environ.get("FIGLINT_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus" / "papers"))
HEADER = ["Figure", "Page", "VC", "SL", "C", "CTX", "MR", "Overall", "Worst finding"]


class Tables(HTMLParser):
    """Collects every <table> as a list of rows of cell texts; counts other tags."""

    def __init__(self):
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.tags: dict[str, int] = {}
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def to_html(text: str) -> Tables:
    import markdown

    html = markdown.markdown(text, extensions=["tables"])
    parser = Tables()
    parser.feed(html)
    return parser


@pytest.fixture
def in_repo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_table_renders_with_scores_and_worst_finding(in_repo):
    text = md.render(sample_result(in_repo))
    parsed = to_html(text)
    assert len(parsed.tables) == 1
    header, *rows = parsed.tables[0]
    assert header == HEADER
    by_name = {r[0]: r for r in rows}
    assert by_name["Figure 1"][1:8] == ["2", "8", "7", "5", "—", "9", "7.2"]
    assert "FL302" in by_name["Figure 1"][8] or "FL202" in by_name["Figure 1"][8]
    assert by_name["Figure 2"][2:8] == ["—"] * 6 and "FL101" in by_name["Figure 2"][8]
    assert "none" in by_name["(uncaptioned figure)"][8]


def test_verdict_groups_evidence_and_links(in_repo):
    text = md.render(sample_result(in_repo))
    assert text.startswith("## figlint: ❌ failed")
    assert "**1 error, 2 warnings, 1 note** in 3 figures." in text
    assert text.count("<details>") == text.count("</details>") == 3
    assert "<summary><b>Figure 1</b> — 2 warnings" in text
    assert "  > Overview of our method." in text  # quoted evidence
    assert "  > For an overview, see Figure 1." in text
    assert "[FL202](https://github.com/figlint/figlint/blob/main/rules/FL202.md)" in text
    assert "`paper/main.tex:42:1`" in text
    assert "effective_dpi=72.0" in text
    assert "&lt;tags&gt;" in text and "<tags>" not in text  # user text cannot inject HTML


def test_passing_run(in_repo):
    result = sample_result(in_repo)
    for r in result.results:
        r.findings = []
    text = md.render(result)
    assert text.startswith("## figlint: ✅ passed") and "**No findings**" in text
    assert "<details>" not in text


def test_thumbnail_is_shown(in_repo):
    result = sample_result(in_repo)
    result.results[0].paper.figures[0].extra["thumbnail"] = "assets/paper1-figure-1.png"
    assert '<img src="assets/paper1-figure-1.png" alt="Figure 1" width="320">' in md.render(result)


def big_result(figures: int, per_figure: int) -> RunResult:
    figs = [Figure(number=str(i), page=i, caption=Caption(text=f"Caption {i} " + "words " * 40),
                   extra={"scores": {"visual_clarity": 7, "structure_layout": 6}}) for i in range(1, figures + 1)]
    findings = [
        Finding("FL202", "generic-caption", "warning", f"finding {j} of figure {i}: " + "long message " * 20,
                Location(file="paper.pdf", page=i), figure=str(i), evidence={"caption": "x " * 200})
        for i in range(1, figures + 1) for j in range(per_figure)
    ]
    paper = Paper(path="paper.pdf", route="pdf", pages=figures, figures=figs)
    return RunResult([PaperResult(path="paper.pdf", paper=paper, findings=findings)], Config())


@pytest.mark.parametrize("figures,per_figure", [(40, 30), (300, 5), (3000, 1)])
def test_stays_under_the_comment_limit(figures, per_figure):
    result = big_result(figures, per_figure)
    text = md.render(result)
    assert len(text) <= md.DEFAULT_LIMIT < 65_536
    assert text.count("<details>") == text.count("</details>")
    assert "**Note:**" in text and "the JSON and SARIF reports have every finding" in text
    parsed = to_html(text)
    assert parsed.tables and parsed.tables[0][0] == HEADER
    small = md.render(result, limit=1_000_000)
    assert len(small) > len(text)


def test_small_limit_keeps_valid_structure():
    text = md.render(big_result(50, 3), limit=6_000)
    assert len(text) <= 6_000
    assert text.count("<details>") == text.count("</details>")
    assert "not shown" in text or "not listed" in text


@needs_pdf_route
def test_cli_markdown_with_thumbnails(tmp_path):
    make_paper_pdf(tmp_path / "paper.pdf", GENERIC_CAPTION)
    out = tmp_path / "report" / "figlint.md"
    out.parent.mkdir()
    proc = subprocess.run([sys.executable, "-m", "figlint", "--format", "markdown", "-o", str(out),
                           "--assets-dir", str(tmp_path / "report" / "assets"), "paper.pdf"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    text = out.read_text()
    assert "FL202" in text and "Overview of our method." in text
    assert '<img src="assets/paper1-figure-1.png"' in text
    png = tmp_path / "report" / "assets" / "paper1-figure-1.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = to_html(text).tables[0]
    assert rows[0] == HEADER and rows[1][0] == "Figure 1"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus (shared/corpus/papers) not present")
@needs_pdf_route
def test_largest_corpus_paper(tmp_path):
    largest = max((p for p in CORPUS.iterdir() if (p / "truth.json").is_file()),
                  key=lambda p: len(json.loads((p / "truth.json").read_text()).get("figures", [])))
    out = tmp_path / "report.md"
    proc = subprocess.run([sys.executable, "-m", "figlint", "--format", "markdown", "-o", str(out),
                           str(largest / "paper.pdf")], capture_output=True, text=True, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr
    text = out.read_text()
    assert len(text) < 65_536
    table = to_html(text).tables[0]
    assert table[0] == HEADER
    assert len(table) - 1 >= 10  # one row per figure found
