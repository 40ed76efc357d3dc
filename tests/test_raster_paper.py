"""Raster figures in papers are read like standalone images, identically from both routes.

tests/fixtures/raster_paper.py: a two-column paper of PNG charts (matplotlib) compiled
with pdflatex. A chart whose labels print at about 3.3 pt (made with 10 pt labels, included
at a third of the column width) gets FL102 from the PDF, from the sources with the PDF
and from the sources alone, with the same measured size; the one whose labels print at
8 pt gets none; a bar chart with a truncated value axis gets FL401 from the paper.
"""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("rapidocr")

from figlint.config import Config  # noqa: E402
from figlint.engine import run  # noqa: E402

ROUTES = ["pdf", "latex+pdf", "sources only"]


@pytest.fixture(scope="module")
def raster_paper(tmp_path_factory, pdflatex):
    from fixtures.raster_paper import build_raster_paper

    return build_raster_paper(tmp_path_factory.mktemp("raster_paper"))


@pytest.fixture(scope="module")
def results(raster_paper, tmp_path_factory):
    out = {}
    src = tmp_path_factory.mktemp("raster_sources")
    shutil.copytree(raster_paper.parent, src, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("*.pdf", "*.aux", "*.log", "*.out"))
    paths = {"pdf": raster_paper.with_suffix(".pdf"), "latex+pdf": raster_paper, "sources only": src / "main.tex"}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FIGLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        for route in ROUTES:
            r = run([str(paths[route])], Config()).results[0]
            assert r.error is None
            assert bool(r.paper.pdf_path) == (route != "sources only")
            out[route] = r
    return out


def _by_figure(result, code: str) -> dict[str, list]:
    got: dict[str, list] = {}
    for f in result.findings:
        if f.code == code:
            got.setdefault(f.figure, []).append(f)
    return got


@pytest.mark.parametrize("route", ROUTES)
def test_tiny_raster_text_is_reported_and_readable_text_is_not(results, route):
    fl102 = _by_figure(results[route], "FL102")
    assert set(fl102) == {"1"}, [f.message for fs in fl102.values() for f in fs]
    ev = fl102["1"][0].evidence
    assert 2.5 <= ev["smallest_pt"] <= 4.5 and ev["raster_spans"] >= 2
    assert "read from pixels" in fl102["1"][0].message


def test_the_three_routes_agree_on_raster_text(results):
    messages = {route: [(f.figure, f.message, f.evidence["smallest_pt"]) for f in results[route].findings
                        if f.code == "FL102"] for route in ROUTES}
    assert messages["pdf"] == messages["latex+pdf"] == messages["sources only"]


@pytest.mark.parametrize("route", ROUTES)
def test_truncated_raster_bar_axis_is_reported_in_the_paper(results, route):
    fl401 = _by_figure(results[route], "FL401")
    assert "3" in fl401, [f"{f.code} {f.figure} {f.message}" for f in results[route].findings]
    assert "1" not in fl401 and "2" not in fl401


@pytest.mark.parametrize("route", ROUTES)
def test_readable_raster_figures_get_no_visual_finding(results, route):
    """The 8 pt chart and the bar chart (9 pt labels) are legible: no text size or contrast finding."""
    visual = [f"{f.code} fig {f.figure}: {f.message}" for f in results[route].findings
              if f.code in ("FL102", "FL103", "FL106") and f.figure != "1"]
    assert visual == []


def test_ocr_off_reads_no_raster_text(raster_paper, monkeypatch, tmp_path):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path / "cache"))
    cfg = Config()
    cfg.ocr = "off"
    r = run([str(raster_paper.with_suffix(".pdf"))], cfg).results[0]
    assert not [f for f in r.findings if f.code in ("FL102", "FL401")]
