"""The claim rules' features (series, uncertainty) and text parsing, without pdflatex."""

from __future__ import annotations

import time

import pytest

from figlint.features import analyse
from figlint.ingest.graphics import read_graphics
from figlint.model import Caption, CitingSite, Figure, Paper
from figlint.rules.claims import relative_gap, trend_claims
from figlint.rules.registry import Context, get_rule
from fixtures import cases_claims as CC

CODES = ("FL408", "FL501", "FL502", "FL503", "FL504")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("claims")
    for name, gen in CC.GENERATORS.items():
        gen(d / name)
    return d


def _analysis(path):
    paper = read_graphics(str(path))
    return analyse(paper.figures[0], paper)


def test_series_direction_and_labels(files):
    up = _analysis(files / "claims_loss_rising.pdf").get("series")
    down = _analysis(files / "claims_loss_falling.pdf").get("series")
    assert [(s.direction, s.label) for s in up] == [("rising", "validation")]
    assert [(s.direction, s.label) for s in down] == [("falling", "validation")]
    lo, hi = up[0].x_range
    assert abs(lo - 0) < 1 and abs(hi - 100) < 1
    dots = _analysis(files / "claims_scatter.pdf").get("series")
    assert [(s.kind, s.direction) for s in dots] == [("markers", "rising")]


@pytest.mark.parametrize("name,shown", [
    ("claims_bars_close.pdf", False), ("claims_bars_close_err.pdf", True),
    ("claims_banded.pdf", True), ("claims_curves.pdf", False), ("claims_scatter.pdf", False),
])
def test_uncertainty(files, name, shown):
    u = _analysis(files / name).get("uncertainty")
    assert u.reliable and u.shown == shown, u.to_dict()


def test_trend_claims():
    t = trend_claims("As the batch size increases, accuracy drops (Figure 3).")
    assert [(c.subject.strip(), c.direction, c.along) for c in t] == [("accuracy", "falling", "batch size")]
    t = trend_claims("Accuracy drops as the batch size decreases.")
    assert [c.direction for c in t] == ["rising"]
    assert trend_claims("The loss does not decrease.") == []
    assert trend_claims("The loss may decrease with more data.") == []
    assert trend_claims("The loss first decreases, then rises again.") == []


def test_relative_gap_lower_is_better():
    assert relative_gap([0.50, 0.45, 0.70], "validation loss")[1:] == (0.45, 0.50)
    assert relative_gap([80.0, 81.0], "accuracy (%)")[1:] == (81.0, 80.0)


ODD = ["", "(", "significantly" * 200, "as " * 500 + "increases", "up to 1e999999 epochs outperforms",
       "X leads to" + " Y" * 3000, "\x00\ufffd\u202e significantly better than", "after ,,,, 10 k epochs better"]


@pytest.mark.parametrize("text", ODD)
def test_rules_never_raise_on_odd_text(files, text):
    paper = read_graphics(str(files / "claims_curves.pdf"))
    fig = paper.figures[0]
    fig.number = "1"
    fig.caption = Caption(text=text)
    fig.sites = [CitingSite(paragraph=text, sentence=text, mention="Figure 1")]
    for code in CODES:
        r = get_rule(code)
        list(r.check(fig, Context(r, paper, {})) or ())


def test_speed_on_a_vector_figure(files):
    paper = read_graphics(str(files / "claims_curves_close.pdf"))
    fig = paper.figures[0]
    fig.number = "1"
    fig.sites = [CitingSite(paragraph="", mention="Figure 1",
                            sentence="After 300 epochs our model significantly outperforms the baseline, "
                                     "and its accuracy decreases as the epochs increase; "
                                     "more epochs lead to higher accuracy.")]
    analyse(fig, paper)  # the analysis is shared with the other rules; time the claim rules
    t0 = time.process_time()
    for code in CODES:
        r = get_rule(code)
        list(r.check(fig, Context(r, paper, {})) or ())
    assert time.process_time() - t0 < 0.05


def test_empty_paper_figure():
    fig = Figure(number="1", caption=Caption(text="Ours significantly outperforms the baseline."))
    paper = Paper(path="x.pdf", route="pdf")
    for code in CODES:
        r = get_rule(code)
        assert list(r.check(fig, Context(r, paper, {})) or ()) == []
