"""Date tick labels read as times (features/dates.py): the forms charts print, and what is not one."""

from __future__ import annotations

import pytest

from figlint.features.dates import parse_date


@pytest.mark.parametrize(("a", "b"), [
    ("Jan 2020", "Feb 2020"), ("Dec-19", "Jan-20"), ("Nov '98", "Jan '99"), ("2019 Dec", "2020 Jan"),
    ("Mar 30", "Apr 10"), ("30 Mar", "2 Apr"), ("Mar 30, 2020", "Apr 1, 2020"), ("2020-01", "2020-02-15"),
    ("12/2019", "01/2020"), ("Q4 2019", "Q1 2020"), ("2019 Q2", "2019 Q3"), ("'99", "'01"), ("Sept", "Oct"),
])
def test_later_dates_read_larger(a, b):
    da, db = parse_date(a), parse_date(b)
    assert da is not None and db is not None and da[1] == db[1]
    assert da[0] < db[0]


def test_a_month_and_two_digits_is_a_day_unless_marked_as_a_year():
    assert parse_date("Mar 30")[1] == "day"
    assert parse_date("Mar-30")[1] == "date"


@pytest.mark.parametrize("text", ["2020", "12", "Mayo", "Ma", "13/2020", "2020-13", "Q5 2019", "Jan 32", "", "rank"])
def test_not_dates(text):
    assert parse_date(text) is None
