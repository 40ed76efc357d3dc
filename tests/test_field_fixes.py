"""The fix ledger of issue 13 (benchmarks/field_audit/causes.json, fixes.py).

causes.json must name real rules, papers of the manifest (or the issue's sample / the corpus)
and existing tests; fixes.py's counting is checked on a small made-up manifest, and its
command line runs without a traceback.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from figlint.rules.registry import all_rules
from fixtures.scripts import load_script

ROOT = Path(__file__).resolve().parents[1]
AUDIT = ROOT / "benchmarks" / "field_audit"
SCRIPT = AUDIT / "fixes.py"


@pytest.fixture(scope="module")
def fixes():
    return load_script(SCRIPT, "field_audit_fixes")


@pytest.fixture(scope="module")
def causes(fixes):
    return fixes.load_causes(AUDIT / "causes.json")


# ---------------------------------------------------------------- causes.json as written

def test_every_cause_is_well_formed_and_names_real_rules(causes, fixes):
    codes = {r.code for r in all_rules()}
    ids = [c["id"] for c in causes]
    assert len(ids) == len(set(ids)), "cause ids repeat"
    for c in causes:
        assert fixes.check_cause(c) == [], c["id"]
        assert c["rules"] and set(c["rules"]) <= codes, f"{c['id']}: unknown rule in {c['rules']}"
        assert all(re.fullmatch(r"[0-9a-f]{7,40}", h) for h in c["commits"]), c["id"]
        assert c["cause"].strip() and c["shown_on"], c["id"]


def test_shown_on_names_audited_papers_or_the_sample(causes):
    repos = {json.loads(p.read_text())["repo"] for p in (AUDIT / "papers").glob("*.json")}
    for c in causes:
        for s in c["shown_on"]:
            assert s in repos or s in ("issue sample", "corpus"), f"{c['id']}: {s} is not in the manifest"


def test_still_seen_keys_name_papers_other_than_shown_on(causes):
    for c in causes:
        for key in c["still_seen"]:
            parts = key.split("|")
            assert len(parts) == 5, key
            assert parts[0] not in c["shown_on"] and parts[3] in c["rules"], f"{c['id']}: {key}"


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test")}


def test_every_test_id_names_an_existing_test(causes):
    fixture_text = "\n".join(p.read_text() for p in (ROOT / "tests" / "fixtures").glob("*.py"))
    for c in causes:
        for test_id in c["tests"]:
            m = re.fullmatch(r"(tests/[\w/]+\.py)::(\w+)(?:\[(.+)\])?", test_id)
            assert m, f"{c['id']}: malformed test id {test_id}"
            path = ROOT / m.group(1)
            assert path.exists(), test_id
            assert m.group(2) in _test_functions(path), f"{test_id}: no such test function"
            if m.group(3):  # a parametrised case: its name is written in the fixtures
                case = re.sub(r"-(pdf|png|jpg|svg|eps)$", "", m.group(3))
                assert f'"{case}"' in fixture_text, f"{test_id}: no case named {case}"


# ---------------------------------------------------------------- counting on a made-up manifest

def _paper(directory: Path, repo: str, verdicts: list[dict], retired: list[dict]) -> None:
    rec = {"repo": repo, "commit": "0" * 40, "main": "main.tex", "field": "f", "template": "t",
           "build": "latexmk -pdf", "notes": "", "verdicts": verdicts, "retired": retired}
    (directory / (repo.replace("/", "__") + ".json")).write_text(json.dumps(rec))


def _v(code: str, verdict: str, figure: str = "1", key: str = "aaaaaaaa:1", reason: str = "r", **kw) -> dict:
    return {"route": "pdf", "figure": figure, "code": code, "key": key, "verdict": verdict, "reason": reason, **kw}


@pytest.fixture()
def manifest(tmp_path):
    d = tmp_path / "papers"
    d.mkdir()
    # the paper that showed the cause: two false retired by the fix, one current false
    _paper(d, "a/shown", [_v("FL900", "false")],
           [_v("FL900", "false", figure="2", retired_by="FL900 fix (abc1234)"),
            _v("FL900", "false", figure="3", retired_by="abc1234def0: no longer reported")])
    # another paper: the fix retired a false and a TRUE finding; one true and one false are current
    _paper(d, "b/other", [_v("FL900", "true", figure="1"), _v("FL900", "false", figure="4", key="bbbbbbbb:1")],
           [_v("FL900", "false", figure="2", retired_by="lead (abc1234, 9999999)"),
            _v("FL900", "true", figure="3", retired_by="abc1234"),
            _v("FL901", "false", figure="5", retired_by="abc1234"),  # another rule: not this cause's
            _v("FL900", "false", figure="6", retired_by="fedcba9 unrelated")])
    # a third paper: retired at a rerun tag, attributed by its reason
    _paper(d, "c/third", [_v("FL900", "debatable")],
           [_v("FL900", "false", figure="7", retired_by="not reported at 1111111", reason="a scatter read as area"),
            _v("FL900", "false", figure="8", retired_by="not reported at 1111111", reason="something else")])
    (d / "broken.json").write_text("{not json")
    return d


def _cause(**kw) -> dict:
    c = {"id": "X", "rules": ["FL900"], "cause": "c", "commits": ["abc1234"], "shown_on": ["a/shown"],
         "tests": [], "still_seen": ["b/other|pdf|4|FL900|bbbbbbbb:1", "b/other|pdf|9|FL900|gone:1"],
         "retired_as": [{"text": "not reported at 1111111", "reason": "scatter"}]}
    c.update(kw)
    return c


def test_counts_retired_on_shown_and_other_papers(fixes, manifest):
    records, bad = fixes.load_records(manifest)
    assert [r["repo"] for r in records] == ["a/shown", "b/other", "c/third"]
    assert len(bad) == 1 and bad[0].startswith("broken.json")
    row = fixes.ledger_row(_cause(), records, None, None)
    assert row["retired_shown"] == Counter({"false": 2})
    assert row["retired_other"] == Counter({"false": 2, "true": 1})  # b's two by hash, c's one by its reason
    assert row["retired_other_papers"] == {"b/other", "c/third"}
    assert row["other"] == Counter({"true": 1, "false": 1, "debatable": 1})  # current verdicts off shown_on
    assert row["other_papers"] == row["after_papers"] == {"b/other", "c/third"}  # no git: every other paper
    assert row["still_seen"] == 1 and row["still_seen_stale"] == ["b/other|pdf|9|FL900|gone:1"]
    assert row["verdict"] == "checked elsewhere (still seen: 1)"


def test_verdict_says_what_is_missing(fixes, manifest):
    records, _ = fixes.load_records(manifest)
    only_shown = _cause(commits=["fedcba9"], shown_on=["a/shown", "b/other"], retired_as=[])
    row = fixes.ledger_row(only_shown, records, None, None)
    assert row["retired_other"] == Counter()
    assert row["still_seen"] == 0 and len(row["still_seen_stale"]) == 2  # keys on a shown paper do not count
    assert row["verdict"] == ("not checked: retired no false finding on another paper; "
                              "audited on 1 other papers after it, 0 exercising the construct (3 needed)")
    # three other papers audited after the fix, nothing still seen: checked elsewhere
    row = fixes.ledger_row(_cause(commits=["fedcba9"], shown_on=["x/y"], retired_as=[], still_seen=[]),
                           records, None, None)
    assert row["retired_other"] == Counter({"false": 1}) and row["verdict"] == "checked elsewhere"
    none = fixes.ledger_row(_cause(commits=[]), records, None, None)
    assert none["verdict"] == "no fix commit"
    chart = fixes.ledger_row(_cause(commits=["fedcba9"], shown_on=["a/shown", "b/other"], scope="charts",
                                     retired_as=[]), records, None, None)
    assert chart["verdict"].startswith("real-chart cause, measured on the chart set; field: not checked")


def test_papers_audited_after_the_fix_come_from_when_their_record_was_added(fixes, manifest):
    records, _ = fixes.load_records(manifest)
    commits = {"abc1234": {"exists": True, "time": 100, "subject": "s"}}
    added = {"b__other.json": 50, "c__third.json": 150}
    row = fixes.ledger_row(_cause(), records, commits, added)
    assert row["after_papers"] == {"c/third"}
    missing = fixes.ledger_row(_cause(), records, {"abc1234": {"exists": False, "time": None, "subject": ""}}, added)
    assert missing["verdict"] == "commit not found"


def test_papers_that_exercise_the_construct_count_without_findings_of_the_rule(fixes, tmp_path):
    d = tmp_path / "papers"
    d.mkdir()
    ex = [{"cause": "X", "where": "page 2, figure 1", "note": "a JPEG photograph"}]
    _paper(d, "a/shown", [_v("FL900", "false")], [])
    for name in ("d/one", "e/two"):  # the construct, no finding of the rule: the fix held there
        _paper(d, name, [_v("FL102", "true")], [])
        rec = json.loads((d / (name.replace("/", "__") + ".json")).read_text())
        rec["exercises"] = ex + [{"cause": "Y"}]
        (d / (name.replace("/", "__") + ".json")).write_text(json.dumps(rec))
    _paper(d, "f/three", [_v("FL900", "false")], [])  # exercises it but the rule is still wrong there
    rec = json.loads((d / "f__three.json").read_text())
    rec["exercises"] = ex
    (d / "f__three.json").write_text(json.dumps(rec))
    records, _ = fixes.load_records(d)
    cause = _cause(still_seen=[], retired_as=[])
    row = fixes.ledger_row(cause, records, None, None)
    assert row["exercised"] == {"d/one", "e/two"} and row["exercised_false"] == {"f/three"}
    assert row["verdict"] == ("not checked: retired no false finding on another paper; audited on 1 other papers "
                              "after it, 2 exercising the construct (3 needed); false findings of the rule on 1 "
                              "papers that exercise it")
    _paper(d, "g/four", [], [])
    rec = json.loads((d / "g__four.json").read_text())
    rec["exercises"] = ex
    (d / "g__four.json").write_text(json.dumps(rec))
    records, _ = fixes.load_records(d)
    row = fixes.ledger_row(cause, records, None, None)
    assert len(row["exercised"]) == 3 and row["verdict"] == "checked elsewhere"
    # recorded before the fix: no evidence of it
    commits = {"abc1234": {"exists": True, "time": 100, "subject": "s"}}
    added = {f: 50 for f in ("d__one.json", "e__two.json", "g__four.json", "f__three.json")}
    assert fixes.ledger_row(cause, records, commits, added)["exercised"] == set()
    assert "| 3 (+1 with false findings) |" in fixes.table([row])


def test_true_findings_a_fix_retired_are_listed(fixes, manifest):
    records, _ = fixes.load_records(manifest)
    assert fixes.true_retired([_cause()], records) == [("abc1234", "b/other", "FL900", 1)]


def test_commit_names_match_by_prefix_either_way(fixes):
    assert fixes.names_commit("merged (abc1234def)", ["abc1234"])
    assert fixes.names_commit("abc1234", ["abc1234def0123"])
    assert not fixes.names_commit("abc1235", ["abc1234"]) and not fixes.names_commit("", ["abc1234"])


def test_malformed_causes_are_refused_with_their_name(fixes, tmp_path):
    p = tmp_path / "causes.json"
    p.write_text(json.dumps({"causes": [{"id": "bad", "rules": "FL101"}]}))
    with pytest.raises(ValueError, match="bad"):
        fixes.load_causes(p)


# ---------------------------------------------------------------- the command line

def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)


def test_cli_help_and_default_table():
    assert _run("--help").returncode == 0
    proc = _run()
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "| cause | rules | commits |" in proc.stdout and "FL207" in proc.stdout


def test_cli_on_bad_input_says_why_without_a_traceback(tmp_path, manifest):
    bad = tmp_path / "causes.json"
    bad.write_text("{")
    proc = _run("--causes", str(bad))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "cannot read" in proc.stderr
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"causes": [_cause()]}))
    proc = _run("--causes", str(good), "--papers", str(manifest))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "unreadable verdict file broken.json" in proc.stdout


def test_a_retired_entry_naming_its_cause_counts_for_that_cause_only(fixes):
    """One commit may fix two causes; the entry that names the cause which removed its finding
    counts for that one only (a commit's hash alone would credit both)."""
    a = {"id": "a", "rules": ["FL201"], "commits": ["8f2b180"]}
    b = {"id": "b", "rules": ["FL201"], "commits": ["8f2b180"]}
    v = {"code": "FL201", "retired_by": "8f2b180: a listing row read at its letters' place"}
    assert fixes.retired_by_cause(a, v) and fixes.retired_by_cause(b, v)
    v["cause"] = "b"
    assert not fixes.retired_by_cause(a, v) and fixes.retired_by_cause(b, v)
