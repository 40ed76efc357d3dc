"""A failure inside a figure's features is reported once per figure (FL009), and the run goes on.

Derived features (legend, panels, ...) used to swallow their own exceptions and
return nothing, which hid bugs as silently missing findings. Now a failing
feature is kept in place of its value: every rule that reads it meets the same
failure, the engine reports one FL009 for the figure, and the other rules and
figures are linted as usual.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from figlint.config import from_table
from figlint.engine import lint_paper
from figlint.errors import FeatureFailed
from figlint.features import _DERIVED, analyse
from figlint.ingest import load
from figlint.rules.registry import Rule

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "paper" / "main.pdf"


@pytest.fixture
def broken_feature():
    """A derived feature that raises on every figure, counting its calls."""
    calls = []

    def broken(an):
        calls.append(an)
        raise ZeroDivisionError("the feature divided by zero")

    _DERIVED["test_broken"] = broken
    yield calls
    del _DERIVED["test_broken"]


def _reader(code: str):
    def check(fig, ctx):
        """Reads the broken feature."""
        analyse(fig, ctx.paper).get("test_broken")
        yield ctx.finding("never reached", figure=fig)
    return Rule(code=code, name=f"reads-broken-{code}", severity="warning", check=check)


def _counter(code: str):
    def check(fig, ctx):
        """A rule that works: one finding per figure."""
        yield ctx.finding("figure seen", figure=fig)
    return Rule(code=code, name="counts-figures", severity="warning", check=check)


def test_one_fl009_per_figure_and_the_other_rules_go_on(broken_feature):
    paper = load(str(EXAMPLE))
    figures = [f.number for f in paper.figures]
    assert len(figures) >= 2
    rules = [_reader("FL191"), _counter("FL192"), _reader("FL193")]
    findings = lint_paper(paper, from_table({}), rules)

    internal = [f for f in findings if f.code == "FL009"]
    # two rules read the broken feature, but each figure gets one report of it
    assert sorted(f.figure for f in internal) == sorted(figures)
    assert all("test_broken feature failed" in f.message and "ZeroDivisionError" in f.message
               and "first read by FL191" in f.message and "[broken:" in f.message for f in internal)
    # the feature ran once per figure: its failure is kept, not recomputed by the second reader
    assert len(broken_feature) == len(figures)
    # the working rule reported on every figure, between the two failing readers
    assert sorted(f.figure for f in findings if f.code == "FL192") == sorted(figures)
    assert not [f for f in findings if f.code in ("FL191", "FL193")]


def test_the_kept_failure_is_raised_again(broken_feature):
    paper = load(str(EXAMPLE))
    an = analyse(paper.figures[0], paper)
    with pytest.raises(FeatureFailed) as first:
        an.get("test_broken")
    with pytest.raises(FeatureFailed) as second:
        an.get("test_broken")
    assert first.value is second.value and first.value.feature == "test_broken"
    assert isinstance(first.value.exc, ZeroDivisionError)
    # `figlint extract` shows the failure in place of the feature instead of failing
    assert an.to_dict()["derived"]["test_broken"] == {"error": "test_broken: ZeroDivisionError: the feature divided by zero"}
