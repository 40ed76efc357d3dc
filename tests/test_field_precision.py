"""The rule registry's stable/preview split agrees with the field-audit data file.

figlint/rules/field_precision.json is written by benchmarks/field_audit/run.py --write
from the audited verdicts; a rule is stable only with precision >= MIN_PRECISION over
>= MIN_AUDITED audited findings, FL0xx and FL7xx exempt until the audit measures them below
the bar on enough findings and papers (then they are preview like any other rule).
"""

from __future__ import annotations

import json

from figlint.rules.registry import (
    MIN_AUDITED,
    MIN_PAPERS,
    MIN_PRECISION,
    PRECISION_FILE,
    all_rules,
    exempt_from_preview,
)

DATA = json.loads(PRECISION_FILE.read_text())


def test_data_file_is_consistent():
    assert DATA["min_precision"] == MIN_PRECISION and DATA["min_audited"] == MIN_AUDITED
    assert DATA["min_papers"] == MIN_PAPERS
    codes = {r.code for r in all_rules()}
    for code, row in DATA["rules"].items():
        assert code in codes, f"{code} in field_precision.json is not a rule"
        assert row["true"] + row["debatable"] + row["false"] == row["audited"] > 0
        assert 1 <= row["papers"] <= DATA["papers"]
        assert abs(row["precision"] - row["true"] / row["audited"]) < 1e-3


def test_registry_follows_the_data():
    for r in all_rules():
        row = DATA["rules"].get(r.code)
        enough = bool(row) and row["audited"] >= MIN_AUDITED and row["papers"] >= MIN_PAPERS
        if exempt_from_preview(r.code):
            expected = not (enough and row["true"] / row["audited"] < MIN_PRECISION)
        else:
            expected = enough and row["true"] / row["audited"] >= MIN_PRECISION
        assert r.stable == expected, f"{r.code}: registry says {r.status}, data says otherwise"
        assert r.on_by_default == (r.default_enabled and expected)


def test_status_text_names_the_measured_figure():
    for r in all_rules():
        row = DATA["rules"].get(r.code)
        assert r.status_text.startswith(r.status)
        if row:
            assert f"{row['true']}/{row['audited']}" in r.status_text
        elif not exempt_from_preview(r.code):
            assert "unproven" in r.status_text


def test_an_exempt_rule_measured_wrong_waits_in_preview():
    """FL008 (routes-disagree) was wrong on every audited finding: a tool finding the audit
    proves mostly wrong is not shown by default, however it is classed."""
    from figlint.rules.registry import get_rule

    row = DATA["rules"].get("FL008")
    if row and row["audited"] >= MIN_AUDITED and row["papers"] >= MIN_PAPERS and row["precision"] < MIN_PRECISION:
        r = get_rule("FL008")
        assert not r.stable and not r.on_by_default
        assert r.status_text.startswith("preview") and f"{row['true']}/{row['audited']}" in r.status_text
