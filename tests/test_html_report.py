"""HTML report: self-contained, escaped, and what a reader sees in a real headless Chromium.

The unit tests read the HTML with the standard library's parser. The browser
test compiles the example paper with pdflatex, lints the PDF with
`--format html`, copies the report alone into another folder and opens it
there in headless Chromium (`--dump-dom` and `--screenshot`): every flagged
figure must show a picture with its regions drawn (in the DOM, and the
regions' colours in the screenshot's pixels), and the pictures must load
from the copy (the page has more dark pixels than the same page whose
pictures point at a missing file). Without Chromium the browser test skips
locally and fails under CI, where scripts/install.sh installs it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fixtures.pdfs import GENERIC_CAPTION, make_paper_pdf, needs_pdf_route
from fixtures.results import sample_result

from figlint.model import CitingSite, Finding, Location
from figlint.report import FORMATS, render
from figlint.report import html as html_report

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "paper"
RESOURCE_ATTRS = {("img", "src"), ("image", "href"), ("image", "xlink:href"), ("script", "src"),
                  ("link", "href"), ("iframe", "src"), ("source", "src"), ("video", "src"), ("audio", "src"),
                  ("object", "data"), ("embed", "src"), ("use", "href")}


class Page(HTMLParser):
    """Tags, resource references and, per figure card, its picture and drawn regions."""

    def __init__(self):
        super().__init__()
        self.tags: dict[str, int] = {}
        self.resources: list[str] = []
        self.figures: dict[str, dict] = {}
        self.text: list[str] = []
        self._figure: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for name, value in attrs:
            if (tag, name) in RESOURCE_ATTRS and value is not None:
                self.resources.append(value)
            if name.startswith("on"):
                self.resources.append(f"event handler {name}")
        if "url(" in (a.get("style") or ""):
            self.resources.append(a["style"])
        if tag == "article" and "figure" in (a.get("class") or "").split():
            self._figure = a["id"]
            self.figures[self._figure] = {"findings": int(a.get("data-findings", 0)), "images": [], "regions": [],
                                          "region_codes": []}
        elif self._figure and tag == "image":
            self.figures[self._figure]["images"].append(a.get("href") or "")
        elif self._figure and tag == "g" and "region" in (a.get("class") or "").split():
            self.figures[self._figure]["region_codes"].append(a.get("data-code"))
        elif self._figure and tag == "rect":
            self.figures[self._figure]["regions"].append(a.get("stroke"))

    def handle_endtag(self, tag):
        if tag == "article":
            self._figure = None

    def handle_data(self, data):
        self.text.append(data)


def parse(text: str) -> Page:
    p = Page()
    p.feed(text)
    return p


@pytest.fixture
def in_repo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_registered_like_the_other_formats():
    assert FORMATS["html"] == "figlint.report.html"


def test_hostile_paper_text_is_escaped_and_stripped(in_repo):
    result = sample_result(in_repo)
    fig = result.results[0].paper.figures[0]
    fig.caption.text = 'Loss <script>alert(1)</script> \x1b]52;c;aGk=\x07 <img src=x onerror=alert(2)> "q" & more'
    fig.sites.append(CitingSite(paragraph="p", sentence="As \x1b[31mFigure 1\u202e shows <b>bold</b>.",
                                mention="Figure 1"))
    result.results[0].findings.append(Finding("FL205", "caption-mark-mismatch", "warning",
                                              "caption names <iframe src=//evil> that is not drawn",
                                              Location(file="paper/main.pdf", page=2), figure="1"))
    text = render("html", result)
    assert "<script" not in text and "<iframe" not in text and "<img" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    page = parse(text)
    assert page.tags.get("script", 0) == 0
    assert not [r for r in page.resources if not r.startswith("data:")]
    assert "<mark>Figure 1</mark>" in text  # the mention is highlighted, in escaped surroundings
    assert "&lt;b&gt;bold&lt;/b&gt;" in text


def test_scores_rubric_and_rule_pages(in_repo):
    text = render("html", sample_result(in_repo))
    page = parse(text)
    body = " ".join(page.text)
    assert "8/10" in text and "higher is safer" in body
    assert "not scored: the text never cites the figure" in body  # CTX null for figure 1
    assert "https://github.com/figlint/figlint/blob/main/rules/FL202.md" in text
    assert "Caption is too short or too generic to stand alone." in body  # the rule's summary (figlint explain)
    # the roll-up: one row per rule, with counts
    rows = re.findall(r'<tr data-code="(FL\d+)">.*?<td class="num">(\d+)</td>', text, re.S)
    assert dict(rows) == {"FL101": "1", "FL202": "1", "FL302": "1", "FL303": "1"}
    # a placeholder PDF cannot be drawn: a sentence, not a failure
    assert "No picture:" in body


@needs_pdf_route
def test_cli_writes_html(tmp_path):
    make_paper_pdf(tmp_path / "paper.pdf", GENERIC_CAPTION)
    out = tmp_path / "report.html"
    proc = subprocess.run([sys.executable, "-m", "figlint", "paper.pdf", "--format", "html", "-o", str(out)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    page = parse(out.read_text(encoding="utf-8"))
    flagged = {k: v for k, v in page.figures.items() if v["findings"]}
    assert flagged and all(v["images"] and v["images"][0].startswith("data:image/png;base64,")
                           for v in flagged.values())
    assert all(v["region_codes"] for v in flagged.values())


# --- the real browser ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    msg = "chromium not found (scripts/install.sh installs it)"
    if os.environ.get("CI"):
        pytest.fail(msg + " [CI is set, so this is an error, not a skip]")
    pytest.skip(msg)


def _browser(chromium: str, profile: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
           "--force-device-scale-factor=1", f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180)


def _pixels(png: Path):
    import numpy as np
    import pymupdf

    pix = pymupdf.Pixmap(str(png))
    if pix.alpha:
        pix = pymupdf.Pixmap(pix, 0)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, pix.n)[:, :, :3]


def _colour_count(img, hex_colour: str) -> int:
    import numpy as np

    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.int16)
    return int((np.abs(img.astype(np.int16) - rgb).max(axis=2) <= 6).sum())


@pytest.fixture(scope="module")
def example_report(tmp_path_factory, pdflatex):
    """The example paper compiled by pdflatex, linted to HTML and JSON."""
    work = tmp_path_factory.mktemp("example")
    paper = work / "paper"
    shutil.copytree(EXAMPLE, paper, ignore=shutil.ignore_patterns("main.pdf", "*.aux", "*.log"))
    for _ in range(2):  # twice: the references resolve on the second pass
        proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"], cwd=paper,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout[-2000:]
    report = work / "report.html"
    proc = subprocess.run([sys.executable, "-m", "figlint", "paper/main.pdf", "--no-cache", "--format", "html",
                           "-o", str(report)], cwd=work, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    js = subprocess.run([sys.executable, "-m", "figlint", "paper/main.pdf", "--no-cache", "--format", "json"],
                        cwd=work, capture_output=True, text=True, timeout=300)
    return report, json.loads(js.stdout)


def test_example_report_in_chromium(chromium, example_report, tmp_path):
    report, doc = example_report
    (paper,) = doc["papers"]
    # Expected, from the JSON: the flagged figures and, per figure, the findings boxed on its page.
    expected = {}
    for fig in paper["figures"]:
        own = [f for f in paper["findings"] if (f["figure"] or None) == (fig["number"] or None)
               and (fig["number"] or f["location"]["bbox"] == fig["bbox"])]
        if own:
            expected[fig["number"] or f"p{fig['page']}"] = sorted(
                f["code"] for f in own if f["location"]["page"] == fig["page"] and f["location"]["bbox"])
    assert len(expected) >= 5

    # The report alone, in another folder: nothing else travels with it.
    elsewhere = tmp_path / "mailed" / "to" / "a" / "reviewer"
    elsewhere.mkdir(parents=True)
    copy = elsewhere / "figlint-report.html"
    shutil.copy(report, copy)
    text = copy.read_text(encoding="utf-8")

    dom = _browser(chromium, tmp_path / "profile-dom", "--dump-dom", copy.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    page = parse(dom.stdout)
    assert page.tags.get("script", 0) == 0
    assert not [r for r in page.resources if not r.startswith("data:")], "external resources"
    cards = {k.split("-fig-")[1]: v for k, v in page.figures.items()}
    for number, codes in expected.items():
        card = cards[number]
        assert card["findings"] > 0
        assert card["images"] and card["images"][0].startswith("data:image/png;base64,"), number
        assert sorted(card["region_codes"]) == codes, number
        assert codes, f"figure {number} is flagged but has no region on its page"
    # captions and citing sentences are on the page, each mention highlighted
    body = " ".join(page.text)
    for fig in paper["figures"]:
        if fig["caption"]:
            assert " ".join(fig["caption"]["text"].split())[:60] in " ".join(body.split())
    assert page.tags.get("mark", 0) == sum(len(f["citing_sites"]) for f in paper["figures"])

    shot = tmp_path / "shot.png"
    proc = _browser(chromium, tmp_path / "profile-shot", "--window-size=1280,9000", f"--screenshot={shot}",
                    copy.as_uri())
    assert proc.returncode == 0 and shot.is_file(), proc.stderr[-2000:]
    img = _pixels(shot)
    severities = {f["severity"] for f in paper["findings"] if f["location"]["bbox"]}
    for sev in severities:
        assert _colour_count(img, html_report.COLOURS[sev]) > 200, f"{sev} regions not drawn"

    # The pictures themselves load from the copy: the same page with them pointing at a
    # missing file has far fewer dark (ink) pixels.
    broken = elsewhere / "broken.html"
    broken.write_text(re.sub(r'href="data:image/png;base64,[^"]*"', 'href="missing.png"', text), encoding="utf-8")
    shot2 = tmp_path / "shot-broken.png"
    _browser(chromium, tmp_path / "profile-broken", "--window-size=1280,9000", f"--screenshot={shot2}",
             broken.as_uri())
    dark = int((img.max(axis=2) < 90).sum())
    dark_broken = int((_pixels(shot2).max(axis=2) < 90).sum())
    assert dark > dark_broken + 20_000, (dark, dark_broken)
