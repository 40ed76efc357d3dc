"""The field-audit harness pairs findings with verdicts by where they point, not by their
place in the report: when a finding before them goes, the others keep their own verdicts.

Records and findings here are made up (codes, keys, boxes); no paper content.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fixtures.scripts import load_script

RUN = Path(__file__).resolve().parents[1] / "benchmarks" / "field_audit" / "run.py"


@pytest.fixture(scope="module")
def run():
    return load_script(RUN, "field_audit_run")


def _finding(page: int, box, code: str = "FL201", message: str = "figure has no caption") -> dict:
    return {"code": code, "figure": "", "message": message,
            "location": {"file": "paper.pdf", "page": page, "bbox": list(box)}}


def _current(run, findings: list[dict]) -> dict:
    for f, key in zip(findings, run.finding_keys(findings)):
        f["key"] = key
    return {"pdf": {"findings": findings}, "latex": {"findings": []}}


BOXES = [(1, (50, 60, 300, 200)), (3, (60, 100, 500, 400)), (3, (60, 450, 500, 700)), (5, (70, 80, 400, 300))]


def _record(run, anchored: bool) -> dict:
    found = _current(run, [_finding(p, b) for p, b in BOXES])["pdf"]["findings"]
    verdicts = [{"route": "pdf", "figure": "", "code": f["code"], "key": f["key"],
                 "verdict": v, "reason": f"made up {k}"}
                for k, (f, v) in enumerate(zip(found, ["false", "true", "debatable", "true"]))]
    rec = {"repo": "someone/paper", "verdicts": verdicts}
    if anchored:
        pairs, new, gone = run.match(rec, _current(run, [_finding(p, b) for p, b in BOXES]))
        assert not new and not gone
        assert run.record_anchors(rec, pairs)
    return rec


def test_anchored_verdicts_survive_a_finding_that_goes(run):
    rec = _record(run, anchored=True)
    # the first finding (page 1) is fixed away; the others' keys shift down by one
    later = _current(run, [_finding(p, b) for p, b in BOXES[1:]])
    assert [f["key"].split(":")[1] for f in later["pdf"]["findings"]] == ["1", "2", "3"]
    pairs, new, gone = run.match(rec, later)
    assert not new
    assert [v["reason"] for v in gone] == ["made up 0"]
    assert [(f["location"]["page"], v["verdict"]) for f, v in pairs] == [(3, "true"), (3, "debatable"), (5, "true")]


def test_without_anchors_keys_shift_onto_the_neighbours_verdicts(run):
    """What the anchors are for: by key alone, each finding takes its neighbour's verdict."""
    rec = _record(run, anchored=False)
    later = _current(run, [_finding(p, b) for p, b in BOXES[1:]])
    pairs, _new, gone = run.match(rec, later)
    assert [v["verdict"] for _f, v in pairs] == ["false", "true", "debatable"]
    assert [v["reason"] for v in gone] == ["made up 3"]


def test_a_box_that_grows_keeps_its_verdict_and_a_new_place_is_new(run):
    rec = _record(run, anchored=True)
    moved = [_finding(1, (45, 55, 320, 260)),  # the same figure read a little larger
             _finding(3, (60, 100, 500, 400)), _finding(3, (60, 450, 500, 700)),
             _finding(7, (70, 80, 400, 300))]  # something else, on another page
    pairs, new, gone = run.match(rec, _current(run, moved))
    assert [(f["location"]["page"], v["verdict"]) for f, v in pairs] == [(1, "false"), (3, "true"), (3, "debatable")]
    assert [f["location"]["page"] for f in new] == [7]
    assert [v["reason"] for v in gone] == ["made up 3"]


def test_source_findings_anchor_by_file_and_line(run):
    f = {"code": "FL305", "figure": "2", "message": "m", "location": {"file": "/x/y/main.tex", "line": 12}}
    assert run.anchor(f) == {"file": "main.tex", "line": 12}
    assert run._same_place(run.anchor(f), {"file": "main.tex", "line": 12})
    assert not run._same_place(run.anchor(f), {"file": "main.tex", "line": 13})


def test_the_recorded_verdicts_are_well_formed(run):
    for rec in run.load_papers():
        assert not run.check_record(rec, rec["_file"])


def test_a_source_finding_that_gains_a_page_keeps_its_verdict(run):
    # A LaTeX-route finding anchored by file and line, whose figure the PDF now places on its
    # page (the reading improved): it pairs with its verdict by key, as before the anchor.
    f = {"code": "FL106", "figure": "3.1", "message": "4 labels below 2.5:1", "location": {"file": "ch3.tex", "line": 29}}
    f["key"] = run.finding_keys([f])[0]
    rec = {"repo": "someone/thesis", "verdicts": [{"route": "latex", "figure": "3.1", "code": "FL106", "key": f["key"],
                                                   "verdict": "true", "reason": "made up", "at": run.anchor(f)}]}
    moved = dict(f, location={"file": "ch3.tex", "line": 29, "page": 37, "bbox": [69.6, 482.2, 367.8, 611.1]})
    pairs, new, gone = run.match(rec, {"pdf": {"findings": []}, "latex": {"findings": [moved]}})
    assert len(pairs) == 1 and not new and not gone
    # negative: a finding anchored on a page still pairs only on that page
    g = _finding(3, (60, 100, 500, 400), code="FL106", message="4 labels below 2.5:1")
    g["figure"] = "3.1"
    g["key"] = run.finding_keys([g])[0]
    rec = {"repo": "someone/thesis", "verdicts": [{"route": "pdf", "figure": "3.1", "code": "FL106", "key": g["key"],
                                                   "verdict": "true", "reason": "made up", "at": run.anchor(g)}]}
    elsewhere = dict(g, location={"file": "paper.pdf", "page": 7, "bbox": [60, 100, 500, 400]})
    pairs, new, gone = run.match(rec, {"pdf": {"findings": [elsewhere]}, "latex": {"findings": []}})
    assert not pairs and len(new) == 1 and len(gone) == 1
