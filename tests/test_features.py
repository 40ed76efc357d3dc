"""Unit tests of the figure analysis: tick-label numbers and axis reading."""

from __future__ import annotations

import pytest

from figlint.features.axes import Token, find_axes
from figlint.features.numbers import nice_step, parse_number


@pytest.mark.parametrize("text,value,kind", [
    ("\u22120.5", -0.5, "plain"), ("1,000", 1000, "plain"), ("25,000", 25000, "plain"),
    ("17,000-", 17000, "plain"), ("45%", 45, "percent"), ("1e3", 1000, "sci"), ("1E-3", 0.001, "sci"),
    ("10^3", 1000, "pow10"), ("10\u00b3", 1000, "pow10"), ("10\u207b\u00b2", 0.01, "pow10"),
    ("2.5k", 2500, "suffix"), ("3M", 3e6, "suffix"), ("$1.5bn", 1.5e9, "suffix"), ("$200", 200, "plain"),
    ("12 345", 12345, "plain"), (".5", 0.5, "plain"), ("1.5\u00d710^3", 1500, "pow10"), ("11 (80)", 11, "plain"),
])
def test_parse_number(text, value, kind):
    n = parse_number(text)
    assert n is not None and n.value == pytest.approx(value) and n.kind == kind


@pytest.mark.parametrize("text", ["abc", "-", "5\u201310", "Aug 09", "x10", ""])
def test_not_a_number(text):
    assert parse_number(text) is None


def test_nice_steps():
    assert all(nice_step(s) for s in (1, 2, 2.5, 5, 10, 0.2, 250, 5000))
    assert not any(nice_step(s) for s in (0.99, 1.3, 0, 4.7))


def _col(values, ys, x1=40.0, h=10.0):
    return [Token(str(v), (x1 - 6 * len(str(v)), y - h / 2, x1, y + h / 2)) for v, y in zip(values, ys)]


def test_vertical_axis_direction_and_scale():
    (ax,) = find_axes(_col([80, 60, 40, 20, 0], [20, 60, 100, 140, 180]))
    assert ax.orient == "y" and ax.scale == "linear" and ax.increasing == "up" and not ax.inverted
    assert ax.value_at(200) == pytest.approx(-10)
    (inv,) = find_axes(_col([0, 20, 40, 60], [20, 60, 100, 140]))
    assert inv.inverted and inv.increasing == "down"


def test_log_axis_and_uneven_ticks():
    (log,) = find_axes(_col(["10^0", "10^1", "10^2", "10^3"], [150, 110, 70, 30]))
    assert log.scale == "log" and log.value_at(90) == pytest.approx(10**1.5)
    (odd,) = find_axes(_col([0, 10, 50, 60], [150, 110, 70, 30]))
    assert odd.scale == "irregular" and not odd.clean


def test_horizontal_axis_and_data_labels_are_not_axes():
    row = [Token(str(v), (x, 100, x + 12, 110)) for v, x in zip([2010, 2012, 2014, 2016], [50, 100, 150, 200])]
    (ax,) = find_axes(row)
    assert ax.orient == "x" and ax.increasing == "right"
    # value labels above bars: neither aligned in a column nor in a row
    labels = [Token(str(v), (x, y, x + 12, y + 10)) for v, x, y in [(62, 50, 80), (71, 100, 60), (93, 150, 20)]]
    assert find_axes(labels) == []


def test_a_column_of_numbers_set_at_line_pitch_is_a_legend_not_an_axis(tmp_path):
    """The numeric legend of a chart ("8, 6, 4, 2" beside its swatches, line under line) is no
    value axis: read as one it made two side-by-side panels a dual-axis chart (FL402, field
    audit). The panels' own axes are still read."""
    pytest.importorskip("matplotlib")
    import fixtures.all_cases  # noqa: F401 - registers the families' charts
    from fixtures.charts import CHARTS, draw_chart

    from figlint.features import analyse
    from figlint.ingest.graphics import read_graphics

    path = draw_chart(CHARTS["numeric_legend_panels"], tmp_path / "chart.pdf")
    an = analyse(read_graphics(str(path)).figures[0])
    columns = sorted(tuple(a.values) for a in an.y_axes)
    assert (8.0, 6.0, 4.0, 2.0) not in columns
    assert (6.0, 4.0, 2.0, 0.0) in columns and (3.0, 2.0, 1.0, 0.0) in columns
