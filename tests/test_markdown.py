"""Markdown report: renders as a real table with a Markdown library, folds details, fits GitHub's limits."""

from __future__ import annotations

import json
import os
import re
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
HEADER = ["Figure", "Page", "VC", "SL", "C", "CTX", "MR", "Overall", "Findings"]


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


ROLLUP = ["Rule", "Severity", "Count", "Figures"]


def raw_tables(text: str) -> list[list[list[str]]]:
    """Every Markdown table in `text` as rows of raw cells (split on unescaped pipes)."""
    tables, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            current.append([c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]])
        elif current:
            tables.append(current)
            current = []
    return tables


def assert_tables_valid(text: str) -> None:
    for table in raw_tables(text):
        assert len(table) >= 2 and set("".join(table[1])) <= set(":-"), table[:2]
        assert {len(row) for row in table} == {len(table[0])}, table


def test_rollup_and_figure_table(in_repo):
    result = sample_result(in_repo)
    text = md.render(result)
    assert_tables_valid(text)
    parsed = to_html(text)
    assert len(parsed.tables) == 2
    rollup, figures = parsed.tables
    assert rollup[0] == ROLLUP
    counts = {row[0].split()[0]: int(row[2]) for row in rollup[1:-1]}
    assert counts == {"FL101": 1, "FL202": 1, "FL302": 1, "FL303": 1}
    assert rollup[-1][0] == "Total" and int(rollup[-1][2]) == len(result.findings)
    assert rollup[1][0].startswith("FL101")  # the error first
    header, *rows = figures
    assert header == HEADER
    by_name = {r[0]: r for r in rows}
    # integer scores out of 10; the overall mean (8, 7, 5, 9 -> 7.25) rounds to 7
    assert by_name["Figure 1"][1:8] == ["2", "8/10", "7/10", "5/10", "—", "9/10", "7/10"]
    assert "FL202" in by_name["Figure 1"][8] and "FL302" in by_name["Figure 1"][8]
    assert by_name["Figure 2"][2:8] == ["—"] * 6 and "FL101" in by_name["Figure 2"][8]
    assert "none" in by_name["(uncaptioned figure)"][8]
    assert "higher is safer" in text and "CTX context consistency" in text  # the legend


def test_verdict_groups_evidence_and_links(in_repo):
    text = md.render(sample_result(in_repo))
    assert text.startswith("## figlint: ❌ failed")
    assert "**1 error, 2 warnings, 1 note** in 3 figures." in text
    assert text.count("<details>") == text.count("</details>") == 3
    assert "<summary><b>Figure 1</b> — 2 warnings" in text
    assert "> Overview of our method." in text  # the caption, once
    assert "  > For an overview, see Figure 1." in text  # evidence the message does not hold
    assert "[FL202](https://github.com/figlint/figlint/blob/main/rules/FL202.md)" in text
    assert "paper/main.tex:42" in text and "paper/main.pdf p. 3" in text
    # no debug evidence, no quote twice
    assert "effective_dpi" not in text and "content_words" not in text and "=[" not in text
    quotes = [ln.strip() for ln in text.splitlines() if ln.lstrip().startswith(">")]
    assert len(quotes) == len(set(quotes))
    assert "  > Overview of our method." not in text  # the FL202 message already quotes the caption
    assert "&lt;tags&gt;" in text and "<tags>" not in text  # user text cannot inject HTML


def test_locations_link_to_the_lines_at_the_commit(in_repo):
    ctx = md.Context(blob_url="https://github.com/owner/paper/blob/0123abc")
    text = md.render(sample_result(in_repo), context=ctx)
    assert "[paper/main.tex:42](https://github.com/owner/paper/blob/0123abc/paper/main.tex#L42)" in text
    assert "[paper/main.tex:12](https://github.com/owner/paper/blob/0123abc/paper/main.tex#L12)" in text
    assert "[paper/main.pdf p. 3](https://github.com/owner/paper/blob/0123abc/paper/main.pdf)" in text


def test_hostile_text_is_inert(in_repo):
    result = sample_result(in_repo)
    fig = result.results[0].paper.figures[0]
    fig.caption.text = "Loss \x1b]52;c;aGk=\x07 ![x](https://evil.example/p.png) [click](https://evil.example) @octocat \u202e"
    text = md.render(result)
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "![x](" not in text and "[click](" not in text
    assert "@octocat" not in text and "@\u200boctocat" in text


def test_new_in_this_pull_request(in_repo):
    result = sample_result(in_repo)
    new = [f for f in result.findings if f.code == "FL202"]
    text = md.render(result, context=md.Context(new={id(f) for f in new}, new_how="on lines this pull request changes"))
    section = text.split("### New in this pull request", 1)[1].split("###", 1)[0]
    assert "**1 of 4** findings is new (on lines this pull request changes)" in section
    assert "FL202" in section and "FL101" not in section
    assert "🆕" in text
    none = md.render(result, context=md.Context(new=set(), new_how="on lines this pull request changes"))
    assert ("No new findings (on lines this pull request changes): none of the 4 below is on anything this pull "
            "request changes.") in none
    assert "### New in this pull request" not in md.render(result)


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


def rollup_total(text: str) -> int:
    rollup = to_html(text).tables[0]
    assert rollup[0] == ROLLUP and rollup[-1][0] == "Total"
    return int(rollup[-1][2])


@pytest.mark.parametrize("figures,per_figure", [(40, 30), (300, 5), (3000, 1)])
def test_stays_under_the_comment_limit(figures, per_figure):
    result = big_result(figures, per_figure)
    text = md.render(result)
    assert len(text) <= md.DEFAULT_LIMIT < 65_536
    assert text.count("<details>") == text.count("</details>")
    assert_tables_valid(text)
    assert "**Note:**" in text and "Every finding is counted in the roll-up above" in text
    assert "the full report is the JSON report" in text
    assert rollup_total(text) == len(result.findings)
    parsed = to_html(text)
    assert parsed.tables[1][0] == HEADER
    small = md.render(result, limit=1_000_000)
    assert len(small) > len(text)


def test_small_limit_keeps_valid_structure():
    result = big_result(50, 3)
    ctx = md.Context(full_report="[the HTML report](https://github.com/o/r/actions/runs/1#artifacts)")
    text = md.render(result, limit=6_000, context=ctx)
    assert len(text) <= 6_000
    assert text.count("<details>") == text.count("</details>")
    assert_tables_valid(text)
    assert "not shown" in text or "not listed" in text
    assert "the full report is [the HTML report](https://github.com/o/r/actions/runs/1#artifacts)" in text
    assert rollup_total(text) == len(result.findings)


def test_truncation_keeps_every_paper():
    """Many papers: every paper keeps its heading and table; what is cut is named in the note."""
    papers = [big_result(12, 4).results[0] for _ in range(8)]
    for i, r in enumerate(papers):
        r.path = r.paper.path = f"paper{i}.pdf"
    result = RunResult(papers, Config())
    text = md.render(result, limit=30_000)
    assert len(text) <= 30_000
    assert_tables_valid(text)
    assert all(f"### paper{i}.pdf" in text for i in range(8))
    assert rollup_total(text) == len(result.findings)
    assert "are not listed: paper" in text


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
    rows = to_html(text).tables[1]
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
    table = to_html(text).tables[1]
    assert table[0] == HEADER
    assert len(table) - 1 >= 10  # one row per figure found


def test_thousands_of_papers_still_fit():
    """More papers than even their headings can hold: whole sections go, tables stay valid, all counted."""
    papers = [big_result(1, 1).results[0] for _ in range(3000)]
    for i, r in enumerate(papers):
        r.path = r.paper.path = f"papers/paper{i}.pdf"
    result = RunResult(papers, Config())
    text = md.render(result)
    assert len(text) <= md.DEFAULT_LIMIT
    assert_tables_valid(text)
    assert text.count("<details>") == text.count("</details>")
    assert rollup_total(text) == 3000
    assert "### papers/paper0.pdf" in text and "inputs are not shown at all" in text
