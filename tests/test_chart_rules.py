"""FL4xx chart cases: figlint on matplotlib charts with and without each defect, as PDF and PNG."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from fixtures.all_cases import CHART_CASES  # noqa: E402
from fixtures.session_store import chart_dir, session_cache_dir  # noqa: E402
from figlint.config import Config  # noqa: E402
from figlint.engine import run  # noqa: E402


@pytest.fixture(scope="session")
def chart_files(tmp_path_factory) -> Path:
    return chart_dir(tmp_path_factory)  # drawn once per session, read only


@pytest.fixture(autouse=True)
def _ocr_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(session_cache_dir(tmp_path_factory)))


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

    env = {**os.environ, "FIGLINT_CACHE_DIR": str(session_cache_dir(tmp_path_factory))}
    for fmt in ("json", "sarif"):
        proc = subprocess.run([sys.executable, "-m", "figlint", str(chart_files), "--format", fmt, "--jobs", "2"],
                              capture_output=True, text=True, env=env, timeout=600)
        assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr[-2000:]
        doc = json.loads(proc.stdout)
        assert doc


def _bars_with_labels(labels):
    """A FigureAnalysis of eight bars on one baseline (y 300) with value-label tokens above them."""
    from figlint.features import FigureAnalysis
    from figlint.features.axes import Token
    from figlint.features.bars import BarGroup

    tops = [300 - 5 * (v - 10) for v in (17.4, 39.1, 24.9, 32.9, 22.2, 21.0, 21.8, 20.1)]
    boxes = [(20 + 40 * i, t, 50 + 40 * i, 300.0) for i, t in enumerate(tops)]
    g = BarGroup("vertical", 300.0, boxes, [b[1] for b in boxes])
    an = FigureAnalysis("raster", "px", 400, 320)
    from figlint.features.numbers import parse_number

    for text, i in labels:
        b = boxes[i]
        n = parse_number(text)
        an.tokens.append(Token(text, (b[0] - 2, b[1] - 14, b[2] + 2 if " " not in text else b[2] + 42, b[1] - 2),
                               value=None if n is None else n.value))
    return an, g


def test_label_baseline_reads_joined_labels_and_skips_a_misread():
    """Two neighbours' labels OCR read as one line are split; one label read without its decimal
    point ("3290" for 32.9) is left out when the other seven agree."""
    from figlint.features import _label_baseline

    an, g = _bars_with_labels([("17.4", 0), ("39.1", 1), ("24.9", 2), ("3290", 3), ("22.2", 4), ("21.0 21.8", 5),
                               ("20.1", 7)])
    assert _label_baseline(an, g)
    assert 9.5 < an.label_baseline < 10.5 and len(an.bar_labels) == 7


def test_label_baseline_refuses_labels_that_disagree():
    """Labels that fit no one line (numbers of something else) give no baseline."""
    from figlint.features import _label_baseline

    an, g = _bars_with_labels([("17.4", 0), ("3.9", 1), ("240", 2), ("32.9", 3), ("2.2", 4), ("71.0", 5),
                               ("1.8", 6), ("20.1", 7)])
    assert not _label_baseline(an, g)


def test_a_tick_row_read_as_one_line_is_split_into_labels():
    """OCR reads a row of tick labels as one line "10 15 20 25 30 35": each number is a tick."""
    from figlint.features.axes import Token, find_axes

    (ax,) = [a for a in find_axes([Token("10 15 20 25 30 35", (100, 500, 400, 520))]) if a.orient == "x"]
    assert ax.values == [10, 15, 20, 25, 30, 35] and ax.clean and ax.nice


def test_a_number_with_space_separators_or_words_is_not_split():
    from figlint.features.axes import Token, split_numbers

    assert split_numbers(Token("12 500", (0, 0, 60, 10))) is None
    assert split_numbers(Token("3840 X 2160", (0, 0, 60, 10))) is None
    assert split_numbers(Token("Q1 2012", (0, 0, 60, 10))) is None


def test_detector_scale_of_images_of_unknown_print_size():
    """A small web image of unknown print size reaches the detector with at least 640 px on its
    short side (its 8 px labels are lost at 640 x 472); a large one keeps its own pixels up to
    1,280 px; an image whose print size is known is read at 200 DPI of it, as before."""
    from figlint.features.raster import DET_DPI, MAX_UPSCALE, det_scale

    f = det_scale((236, 320, 3), None)
    assert 236 * f >= 639 and 320 * f <= 1280
    assert abs(det_scale((619, 1200, 3), None) * 1200 - 1240) < 5
    known = det_scale((236, 320, 3), (320 * 72 / 96, 236 * 72 / 96))
    assert abs(known - min(DET_DPI / 96, MAX_UPSCALE)) < 1e-3


def test_powers_of_ten_with_drawn_minus_signs_are_read_whole():
    """A log axis labelled 10^3, 10^1, 10^-1, 10^-3 whose exponents' minus signs are drawn as
    filled bars: each raised exponent sorts before its "10" and was read on its own, so the
    negative ones became ticks -1, -3 beside 10^3, 10^1 (a false FL405). Bases come first now,
    and every label is one token with its sign."""
    from figlint.features.vector import span_tokens
    from figlint.model import Drawing, Figure, TextSpan

    spans, bars = [], []
    for k, (y, exp) in enumerate([(10, "3"), (40, "1"), (70, "1"), (100, "3")]):
        spans.append(TextSpan(text="10", size=8.0, bbox=(20.0, y, 29.0, y + 8.0)))
        x = 33.0 if k >= 2 else 29.5  # a negative exponent stands right of its drawn minus
        spans.append(TextSpan(text=exp, size=5.6, bbox=(x, y - 2.5, x + 3.2, y + 3.1)))
        if k >= 2:
            bars.append(Drawing(bbox=(29.6, y - 0.05, 32.8, y + 0.35), fill=(0.0, 0.0, 0.0)))
    fig = Figure(number="1")
    fig.spans, fig.drawings = spans, bars
    assert sorted(t.text for t in span_tokens(fig)) == ["10^-1", "10^-3", "10^1", "10^3"]
