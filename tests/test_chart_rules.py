"""FL4xx chart cases: figlint on matplotlib charts with and without each defect, as PDF and PNG."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from fixtures.all_cases import CHART_CASES, make_charts  # noqa: E402
from figlint.config import Config  # noqa: E402
from figlint.engine import run  # noqa: E402


@pytest.fixture(scope="session")
def chart_files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("charts")
    make_charts(d)
    return d


@pytest.fixture(autouse=True)
def _ocr_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "ocr-cache"))


def _raster_ready() -> bool:
    try:
        import cv2  # noqa: F401
        import rapidocr  # noqa: F401
    except ImportError:
        return False
    return True


_RUNS = [(c, ext) for c in CHART_CASES for ext in c.exts]


@pytest.mark.parametrize(("case", "ext"), _RUNS, ids=[f"{c.name}-{ext}" for c, ext in _RUNS])
def test_chart_case(case, ext, chart_files):
    if ext != "pdf" and not _raster_ready():
        pytest.skip("OpenCV/RapidOCR not installed")
    path = chart_files / f"{case.file}.{ext}"
    result = run([str(path)], Config(select=[case.rule]))
    assert result.results[0].paper.route == "image"
    got = {(f.code, f.figure or "") for f in result.findings if f.code == case.rule}
    assert got == case.expect, [f.message for f in result.findings]
    for f in result.findings:
        assert f.evidence
        if f.code.startswith("FL4"):
            assert f.taxonomy and f.origin == "figure"


def test_evidence_carries_the_ticks_read(chart_files):
    result = run([str(chart_files / "bar_truncated.pdf")], Config(select=["FL401"]))
    (f,) = result.findings
    assert [t["value"] for t in f.evidence["axis_ticks"]] == [90.0, 80.0, 70.0, 60.0]
    assert 54 < f.evidence["baseline_value"] < 56
    assert f.taxonomy == "truncated_axis" and f.dimension == "misleading_risk"


def test_figure_pdf_and_image_take_the_image_route(chart_files):
    from figlint.ingest import load

    vec = load(str(chart_files / "normal_line.pdf"))
    assert vec.route == "image" and len(vec.figures) == 1
    fig = vec.figures[0]
    assert fig.spans and fig.drawings and fig.caption is None and fig.gated_dimensions() == []
    ras = load(str(chart_files / "normal_line.png"))
    (img,) = ras.figures[0].images
    assert ras.route == "image" and img.width_px == 510 and img.dpi_source == "metadata"


def test_every_chart_serialises_to_json_and_sarif(chart_files, tmp_path_factory):
    """All rules on every chart file, through the real CLI: reports print whatever a rule measured."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "FIGLINT_CACHE_DIR": str(tmp_path_factory.getbasetemp() / "ocr-cache")}
    for fmt in ("json", "sarif"):
        proc = subprocess.run([sys.executable, "-m", "figlint", str(chart_files), "--format", fmt, "--jobs", "2"],
                              capture_output=True, text=True, env=env, timeout=600)
        assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr[-2000:]
        doc = json.loads(proc.stdout)
        assert doc
