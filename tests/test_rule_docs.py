"""Every rule is documented, has fixture cases, and its generated page is current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.all_cases import CASES, CHART_CASES
from figlint.rules.registry import DOC_SECTIONS, all_rules

ROOT = Path(__file__).resolve().parents[1]
RULES = all_rules()


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_rule_has_all_doc_sections(rule):
    sections = rule.doc_sections()
    assert sections["summary"], f"{rule.code} has no summary line"
    for name in DOC_SECTIONS:
        assert sections.get(name), f"{rule.code} docstring lacks the section '{name}'"
    assert rule.name == rule.name.lower() and " " not in rule.name


@pytest.mark.parametrize("rule", [r for r in RULES if r.scope != "engine"], ids=lambda r: r.code)
def test_rule_has_positive_and_negative_case(rule):
    # LaTeX paper cases, and chart-file cases (image route) for the FL4xx figure rules
    mine = [c for c in [*CASES, *CHART_CASES] if c.rule == rule.code]
    assert any(c.expect for c in mine), f"{rule.code} has no positive fixture case"
    assert any(not c.expect for c in mine), f"{rule.code} has no negative fixture case"


def test_rule_pages_are_current():
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_rule_pages.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr + "\nrun: python scripts/gen_rule_pages.py"


def test_codes_are_unique_and_well_formed():
    codes = [r.code for r in RULES]
    assert len(codes) == len(set(codes))
    assert all(len(c) == 5 and c.startswith("FL") and c[2:].isdigit() for c in codes)
