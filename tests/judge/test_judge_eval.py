"""`figlint eval`: metrics, gold formats, matching figlint's JSON to gold rows, misleading-chart metrics."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from figlint import evaluate as E
from figlint.model import DIMENSIONS

FIELDS = ["figure_id", "paper_id", "fig_index", "venue", "year", "image", "caption", "context_count",
          "annotator_count", *[f"human_{d}" for d in DIMENSIONS], "human_overall_score"]
ROWS = [
    ["p1__fig1", "p1", "1", "X", "2024", "", "Figure 1: Top-1 accuracy of A and B on ImageNet over 90 epochs.",
     "2", "3", "8", "9", "8.3333", "7.6667", "8", "8.2"],
    ["p1__fig2", "p1", "2", "X", "2024", "", "Figure 2: Overview of our method.", "0", "3", "9", "8.6667", "5.3333",
     "", "8.3333", "7.8"],
    ["p2__fig1", "p2", "1", "X", "2024", "", "Figure 1. Loss curves of three optimisers on CIFAR-100; Adam "
     "converges fastest but ends higher.", "1", "3", "7", "8", "9", "9", "7.6667", "8.1"],
    ["p3__fig1", "p3", "1", "X", "2024", "", "Figure 1: Results.", "1", "3", "6", "7", "4", "6", "6", "5.8"],
]


def write_gold(tmp_path: Path, kind: str = "csv") -> Path:
    if kind == "csv":
        p = tmp_path / "gold.csv"
        with p.open("w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(FIELDS)
            w.writerows(ROWS)
        return p
    p = tmp_path / "gold.jsonl"
    p.write_text("".join(json.dumps(dict(zip(FIELDS, r))) + "\n" for r in ROWS))
    return p


def test_metrics_by_hand():
    m = E.metrics([(8, 7.0), (6, 8.0), (9, 9.0), (5, 3.5)])
    assert m["n"] == 4
    assert m["mae"] == pytest.approx((1 + 2 + 0 + 1.5) / 4)
    assert m["within1"] == pytest.approx(0.5)
    assert m["bias"] == pytest.approx((1 - 2 + 0 + 1.5) / 4)
    assert m["spearman"] == pytest.approx(0.8)
    assert E.metrics([])["mae"] is None
    assert E.metrics([(8, 7.0), (8, 9.0), (8, 6.0)])["spearman"] is None  # constant prediction


def test_spearman_fallback_matches_scipy(monkeypatch):
    xs, ys = [1, 2, 2, 4, 5, 7], [2.0, 1.0, 3.0, 3.0, 6.0, 5.5]
    with_scipy = E.spearman(xs, ys)
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    assert E.spearman(xs, ys) == pytest.approx(with_scipy, abs=1e-4)


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
def test_offline_eval_shape_and_gating(tmp_path, kind):
    gold = write_gold(tmp_path, kind)
    result, notes = E.evaluate_scores(str(gold))
    assert set(result) == {"dimensions", "overall"}
    assert set(result["dimensions"]) == set(DIMENSIONS)
    for m in [*result["dimensions"].values(), result["overall"]]:
        assert set(m) == {"n", "mae", "within1", "spearman", "bias"}
    assert result["dimensions"]["caption_consistency"]["n"] == 4
    assert result["dimensions"]["context_consistency"]["n"] == 3  # p1__fig2: not cited and no gold CTX
    assert notes["scored"] == 4


def test_cv_refits_per_fold(tmp_path):
    gold = write_gold(tmp_path)
    result, notes = E.evaluate_scores(str(gold), cv=2)
    assert "cross-validation" in notes["source"]
    assert result["dimensions"]["caption_consistency"]["n"] == 4


def test_predictions_are_matched_by_paper_and_number_or_caption(tmp_path):
    gold = write_gold(tmp_path)
    pred = {"papers": [
        {"path": "papers/p1.pdf", "figures": [
            {"number": "1", "caption": {"text": "whatever"}, "scores": {d: 8 for d in DIMENSIONS}},
            {"number": "2", "caption": {"text": "Overview of our method."},
             "scores": {**{d: 6 for d in DIMENSIONS}, "context_consistency": None}}], "findings": []},
        {"path": "other/paper.pdf", "figures": [
            {"number": "7", "caption": {"text": "Loss curves of three optimisers on CIFAR-100; Adam converges "
                                                "fastest but ends higher."}, "scores": {d: 9 for d in DIMENSIONS}}],
         "findings": []}]}
    p = tmp_path / "pred.json"
    p.write_text(json.dumps(pred))
    result, notes = E.evaluate_scores(str(gold), str(p))
    assert notes["scored"] == 3 and notes["unmatched"] == 1  # p3 has no prediction
    c = result["dimensions"]["caption_consistency"]
    assert c["n"] == 3 and c["mae"] == pytest.approx((abs(8 - 8.3333) + abs(6 - 5.3333) + 0) / 3, abs=1e-3)


def test_chart_metrics():
    gold = [("a", {"truncated_axis"}), ("b", {"dual_axis"}), ("c", {"area_encoding"}), ("d", set())]
    pred = {"a": {"truncated_axis"}, "b": {"truncated_axis"}, "c": set(), "d": set()}
    m = E.chart_metrics(gold, pred, labels=["truncated_axis", "dual_axis", "area_encoding"])
    t = m["labels"]["truncated_axis"]
    assert (t["tp"], t["fp"], t["fn"]) == (1, 1, 0) and t["fp_rate"] == pytest.approx(1 / 3, abs=1e-3)
    assert t["f1"] == pytest.approx(2 / 3, abs=1e-3)
    assert m["labels"]["dual_axis"]["f1"] == 0 and m["labels"]["area_encoding"]["support"] == 1
    assert m["weighted_f1"] == pytest.approx((2 / 3) / 3, abs=1e-3)
    assert m["exact_match"] == pytest.approx(0.5)  # a and d
    assert m["partial_match"] == pytest.approx(0.5)


def test_chart_eval_from_figlint_json(tmp_path):
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(r) + "\n" for r in [
        {"image": "images/one.png", "taxonomy": ["truncated_axis"]},
        {"image": "images/two.png", "taxonomy": ["inverted_axis"]}]))
    pred = {"papers": [
        {"path": str(tmp_path / "images" / "one.png"), "figures": [{"number": None, "caption": None, "scores": None}],
         "findings": [{"code": "FL401", "figure": None, "taxonomy": "truncated_axis"}]},
        {"path": "images/two.png", "figures": [], "findings": []}]}
    p = tmp_path / "pred.json"
    p.write_text(json.dumps(pred))
    text = E.run_eval(str(labels), str(p), "json")
    m = json.loads(text)
    assert m["n"] == 2 and m["labels"]["truncated_axis"]["tp"] == 1 and m["labels"]["inverted_axis"]["fn"] == 1
    assert m["exact_match"] == 0.5


def test_cli_eval_formats_and_errors(tmp_path):
    gold = write_gold(tmp_path)
    for fmt, needle in (("text", "C (caption_consistency)"), ("markdown", "| dimension |"), ("json", '"dimensions"')):
        proc = subprocess.run([sys.executable, "-m", "figlint", "eval", "--gold", str(gold), "--format", fmt],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0 and needle in proc.stdout, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "figlint", "eval", "--gold", str(tmp_path / "nope.csv")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.startswith("figlint: error: gold file not found")
