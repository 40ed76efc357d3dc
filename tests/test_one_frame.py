"""One coordinate frame: a chart reads the same standalone, from a paper's PDF and from its sources.

Every vector chart of the chart cases is included at its own size in a compiled paper
(tests/fixtures/frame_paper.py) and read four ways: the chart file alone (`figlint
chart.pdf`), the paper's PDF, the sources with that PDF, and the sources alone. The
features the rules stand on (chart type, each axis' orientation, side, ticks and
direction, the legend's entries) and the findings of the rules that read the figure
(FL1xx visual, FL4xx design) must be the same every way. Before this held, a left-hand
axis of a chart in a paper was called "right" (page coordinates compared with half the
figure's width), a colour bar's labels were cut off the figure, and merged paths made a
plot's frame a data line.
"""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("matplotlib")

from figlint.config import Config  # noqa: E402
from figlint.engine import run  # noqa: E402
from figlint.features import analyses  # noqa: E402
from fixtures.session_store import session_cache_dir  # noqa: E402

ROUTES = ["pdf", "latex+pdf", "sources only"]


@pytest.fixture(scope="module")
def frame_paper(tmp_path_factory, pdflatex):
    from fixtures.frame_paper import build_frame_paper
    from fixtures.session_store import chart_dir

    return build_frame_paper(tmp_path_factory.mktemp("frame_paper"), raster=True, charts=chart_dir(tmp_path_factory))


@pytest.fixture(scope="module")
def readings(frame_paper, tmp_path_factory):
    """{route: result} for the paper's three routes and {"alone": [result per chart]}."""
    src = tmp_path_factory.mktemp("frame_sources")
    shutil.copytree(frame_paper.tex.parent, src, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("main.pdf", "*.aux", "*.log", "*.out"))
    paths = {"pdf": frame_paper.pdf, "latex+pdf": frame_paper.tex, "sources only": src / "main.tex"}
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        # the session's OCR cache: a chart read alone here and by test_chart_rules is recognised once
        mp.setenv("FIGLINT_CACHE_DIR", str(session_cache_dir(tmp_path_factory)))
        cfg = Config(select=["FL1", "FL4"], preview=True)
        for route in ROUTES:
            r = run([str(paths[route])], cfg).results[0]
            assert r.error is None
            out[route] = r
        out["alone"] = run([str(p) for p in frame_paper.charts], cfg).results
    return out


def _features(result, fig) -> list:
    sig = []
    for an in analyses(fig, result.paper):
        axes = sorted((a.orient, a.side, tuple(a.values), a.inverted, a.scale) for a in an.axes)
        legend = sorted(e.text for e in an.get("legend"))
        sig.append({"chart": an.chart_type, "axes": axes, "legend": legend})
    return sig


# rules that judge a figure against the paper around it (the text block, the body's size):
# a chart file alone has neither
PAPER_CONTEXT = {"FL103", "FL111"}


def _findings(result, number: str) -> list:
    return sorted((f.code, f.message) for f in result.findings
                  if (f.figure or "") == number and f.code not in PAPER_CONTEXT)


def test_every_chart_is_a_figure_of_the_paper(frame_paper, readings):
    for route in ROUTES:
        numbers = [f.number for f in readings[route].paper.figures]
        assert numbers == [str(k) for k in range(1, len(frame_paper.charts) + 1)], route


def test_features_and_findings_are_the_same_every_way(frame_paper, readings):
    differ = []
    for k, chart in enumerate(frame_paper.charts, 1):
        alone = readings["alone"][k - 1]
        want_features = _features(alone, alone.paper.figures[0])
        want_findings = _findings(alone, "")
        for route in ROUTES:
            r = readings[route]
            fig = next(f for f in r.paper.figures if f.number == str(k))
            got_features, got_findings = _features(r, fig), _findings(r, str(k))
            if got_features != want_features:
                differ.append(f"{chart.name} {route}: features {got_features} != alone {want_features}")
            if got_findings != want_findings:
                differ.append(f"{chart.name} {route}: findings {got_findings} != alone {want_findings}")
    assert not differ, "\n".join(differ)
