"""`figlint eval`: figlint's scores and misleading-design findings against human gold.

Scores (SciFigQual-Bench form): gold is the CSV of eval1200 (figure_id,
paper_id, fig_index, caption, context_count, human_visual_clarity, ...,
human_overall_score) or JSONL with the same fields. Predictions are figlint's
JSON report (`--format json`); without one, each gold row is scored by the
offline scorer from the caption and citation count it carries (`--cv K` refits
the offline constants inside K folds by paper, for honest numbers on the data
they were fitted on). Per dimension, on L1-evaluable items only (both the
gold and figlint have a score): n, MAE, within-1 rate, Spearman rho, signed
bias (figlint minus gold) -- the metrics of the SciFigQual-Bench paper.

Misleading charts (MisVisBench-style): gold is a labels.jsonl with `image` and
`taxonomy` (a list of labels); predictions are figlint JSON reports over those
images (or figlint runs on each image). Reported: per label support, TP/FP/FN,
precision, recall, F1 and false-positive rate FP/(FP+TN); support-weighted F1;
exact match (predicted label set equals the gold set) and partial match (they
share a label, or both are empty). Every label of the gold file is scored,
including those no figlint rule emits (their F1 is 0): weighted F1 is honest
about coverage.
"""

from __future__ import annotations

import csv
import difflib
import json
import math
import os
import re
from pathlib import Path
from typing import Any, Iterable

from figlint.errors import UsageError
from figlint.model import DIMENSIONS

HUMAN = {d: f"human_{d}" for d in DIMENSIONS}
HUMAN_OVERALL = "human_overall_score"


# ---------------------------------------------------------------- gold files

def _num(v: Any) -> float | None:
    if v is None:
        return None
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return None if isinstance(v, float) and math.isnan(v) else float(v)
    s = str(v).strip()
    if not s or s.lower() in ("nan", "null", "none", "na"):
        return None
    try:
        return float(s)
    except ValueError:
        return None


def read_gold(path: str) -> list[dict[str, Any]]:
    """Gold rows as dicts: text fields as strings, human_* as floats or None, context_count as int."""
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"gold file not found: {path}")
    try:
        if p.suffix.lower() in (".jsonl", ".ndjson"):
            raw = [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
        elif p.suffix.lower() == ".json":
            data = json.loads(p.read_text(encoding="utf-8"))
            raw = data if isinstance(data, list) else data.get("rows", [])
        else:
            with p.open(newline="", encoding="utf-8") as fh:
                raw = list(csv.DictReader(fh))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, csv.Error) as exc:
        raise UsageError(f"cannot read gold file {path}: {exc}") from None
    rows = []
    for r in raw:
        if not isinstance(r, dict):
            raise UsageError(f"gold file {path}: every row must be an object")
        row = dict(r)
        for key in (*HUMAN.values(), HUMAN_OVERALL):
            row[key] = _num(r.get(key))
        row["context_count"] = int(_num(r.get("context_count")) or 0)
        row["caption"] = str(r.get("caption") or "")
        rows.append(row)
    return rows


def is_chart_gold(rows: list[dict[str, Any]]) -> bool:
    return bool(rows) and all("taxonomy" in r and "image" in r for r in rows[:20])


# ---------------------------------------------------------------- metrics

def _ranks(xs: list[float]) -> list[float]:
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rho (average ranks for ties); None when either side is constant or n < 3."""
    if len(xs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return None
    try:
        from scipy.stats import spearmanr
    except ImportError:  # same statistic: Pearson correlation of the average ranks
        rx, ry = _ranks(xs), _ranks(ys)
        mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
        cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
        vx = math.sqrt(sum((a - mx) ** 2 for a in rx))
        vy = math.sqrt(sum((b - my) ** 2 for b in ry))
        return round(cov / (vx * vy), 4)
    rho = spearmanr(xs, ys).statistic
    return None if rho is None or math.isnan(rho) else round(float(rho), 4)


def metrics(pairs: list[tuple[float, float]]) -> dict[str, Any]:
    """n, MAE, within-1, Spearman, bias over (predicted, gold) pairs."""
    n = len(pairs)
    if not n:
        return {"n": 0, "mae": None, "within1": None, "spearman": None, "bias": None}
    err = [p - g for p, g in pairs]
    return {
        "n": n,
        "mae": round(sum(abs(e) for e in err) / n, 4),
        "within1": round(sum(abs(e) <= 1.0 + 1e-9 for e in err) / n, 4),
        "spearman": spearman([p for p, _ in pairs], [g for _, g in pairs]),
        "bias": round(sum(err) / n, 4),
    }


def score_metrics(rows: list[dict[str, Any]], preds: list[dict[str, Any] | None]) -> dict[str, Any]:
    """The JSON of `figlint eval` for scores: {"dimensions": {dim: metrics}, "overall": metrics}."""
    dims: dict[str, Any] = {}
    for dim in DIMENSIONS:
        pairs = []
        for row, pred in zip(rows, preds):
            g = row.get(HUMAN[dim])
            p = pred.get(dim) if pred else None
            if g is not None and isinstance(p, (int, float)):
                pairs.append((float(p), g))
        dims[dim] = metrics(pairs)
    pairs = []
    for row, pred in zip(rows, preds):
        g = row.get(HUMAN_OVERALL)
        p = _overall(pred)
        if g is not None and p is not None:
            pairs.append((p, g))
    return {"dimensions": dims, "overall": metrics(pairs)}


def _overall(pred: dict[str, Any] | None) -> float | None:
    if not pred:
        return None
    if isinstance(pred.get("overall"), (int, float)):
        return float(pred["overall"])
    vals = [pred[d] for d in DIMENSIONS if isinstance(pred.get(d), (int, float))]
    return sum(vals) / len(vals) if vals else None


# ---------------------------------------------------------------- predictions

def _norm_caption(text: str) -> str:
    from figlint.judge.captionfeatures import caption_body

    body, _ = caption_body(text or "")
    return re.sub(r"[^a-z0-9]+", " ", body.lower()).strip()


def read_predictions(path: str) -> list[dict[str, Any]]:
    """figlint JSON reports (one document, or JSON lines of documents) -> figures with their paper path."""
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"predictions file not found: {path}")
    text = p.read_text(encoding="utf-8")
    try:
        docs = [json.loads(text)]
    except json.JSONDecodeError:
        try:
            docs = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            raise UsageError(f"predictions {path} is not figlint JSON output: {exc}") from None
    figs = []
    for doc in docs:
        if not isinstance(doc, dict) or "papers" not in doc:
            raise UsageError(f"predictions {path} is not figlint JSON output (no 'papers')")
        for paper in doc["papers"]:
            findings = paper.get("findings") or []
            for fig in paper.get("figures") or []:
                cap = (fig.get("caption") or {}).get("text") or ""
                figs.append({"paper": paper.get("path") or "", "number": fig.get("number"), "caption": cap,
                             "scores": fig.get("scores"),
                             "taxonomy": sorted({f["taxonomy"] for f in findings
                                                 if f.get("taxonomy") and f.get("figure") == fig.get("number")})})
            if not paper.get("figures"):
                figs.append({"paper": paper.get("path") or "", "number": None, "caption": "", "scores": None,
                             "taxonomy": sorted({f["taxonomy"] for f in findings if f.get("taxonomy")})})
    return figs


def match_predictions(rows: list[dict[str, Any]], figs: list[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """For each gold row, the predicted scores of its figure: same paper (paper_id in the path) and
    figure number (fig_index), else the figure whose caption matches (>= 0.9 similar)."""
    out: list[dict[str, Any] | None] = []
    for row in rows:
        pid = str(row.get("paper_id") or "")
        cands = [f for f in figs if pid and pid in f["paper"]] or figs
        hit = None
        idx = str(row.get("fig_index") or "").strip()
        if pid and idx and cands is not figs:
            hit = next((f for f in cands if str(f["number"]) == idx), None)
        if hit is None and row.get("caption"):
            want = _norm_caption(row["caption"])
            best, best_ratio = None, 0.0
            for f in cands:
                got = _norm_caption(f["caption"])
                if not got:
                    continue
                ratio = 1.0 if got == want else difflib.SequenceMatcher(None, want, got).ratio()
                if ratio > best_ratio:
                    best, best_ratio = f, ratio
            hit = best if best_ratio >= 0.9 else None
        out.append(hit["scores"] if hit and isinstance(hit.get("scores"), dict) else None)
    return out


def offline_predictions(rows: list[dict[str, Any]], cv: int = 0) -> list[dict[str, Any] | None]:
    """Score each gold row with the offline scorer (shipped constants, or refitted per fold)."""
    if cv and cv >= 2:
        from figlint.judge.calibrate import cross_validate

        return cross_validate(rows, cv)
    from figlint.judge.offline import score_caption_row

    out = []
    for r in rows:
        s = score_caption_row(r.get("caption"), int(r.get("context_count") or 0))
        out.append(s.as_dict() if s is not None else None)
    return out


def evaluate_scores(gold: str, predictions: str | None = None, cv: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """(metrics JSON, notes for the text/markdown report)."""
    rows = read_gold(gold)
    if predictions:
        preds = match_predictions(rows, read_predictions(predictions))
        source = f"figlint predictions in {predictions}"
    else:
        preds = offline_predictions(rows, cv)
        source = (f"offline scorer refitted in {cv}-fold cross-validation by paper" if cv and cv >= 2
                  else "offline scorer with the shipped constants")
    notes = {"gold": gold, "rows": len(rows), "source": source,
             "scored": sum(1 for p in preds if p), "unmatched": sum(1 for p in preds if not p)}
    return score_metrics(rows, preds), notes


# ---------------------------------------------------------------- misleading charts

def chart_metrics(gold: list[tuple[str, set[str]]], predicted: dict[str, set[str]],
                  labels: Iterable[str] | None = None) -> dict[str, Any]:
    """MisVisBench-style metrics over (image key, gold label set) and image key -> predicted label set."""
    keys = [k for k, _ in gold]
    if labels is None:  # every label gold or figlint knows: a label figlint cannot emit scores F1 0
        labels = {t for _, s in gold for t in s} | {t for s in predicted.values() for t in s} | _figlint_taxonomies()
    labels = sorted(set(labels))
    per: dict[str, Any] = {}
    wsum = wf1 = 0.0
    for lab in labels:
        tp = fp = fn = tn = 0
        for key, gl in gold:
            has, said = lab in gl, lab in predicted.get(key, set())
            tp += has and said
            fp += said and not has
            fn += has and not said
            tn += not has and not said
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        per[lab] = {"support": tp + fn, "tp": tp, "fp": fp, "fn": fn, "precision": round(p, 4),
                    "recall": round(r, 4), "f1": round(f1, 4), "fp_rate": round(fp / (fp + tn), 4) if fp + tn else None}
        wsum += tp + fn
        wf1 += (tp + fn) * f1
    scope = set(labels)
    exact = partial = 0
    for key, gl in gold:
        g = set(gl) & scope
        pr = set(predicted.get(key, set())) & scope
        exact += g == pr
        partial += bool(g & pr) or (not g and not pr)
    n = len(keys)
    return {"n": n, "labels": per, "weighted_f1": round(wf1 / wsum, 4) if wsum else None,
            "exact_match": round(exact / n, 4) if n else None, "partial_match": round(partial / n, 4) if n else None}


def _figlint_taxonomies() -> set[str]:
    from figlint.rules.registry import all_rules

    return {r.taxonomy for r in all_rules() if r.taxonomy}


def evaluate_charts(gold: str, predictions: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    base = Path(gold).resolve().parent
    rows = [json.loads(line) for line in Path(gold).read_text(encoding="utf-8").splitlines() if line.strip()]
    items = [(str((base / r["image"]).resolve()), set(r.get("taxonomy") or ())) for r in rows]
    predicted: dict[str, set[str]] = {}
    if predictions:
        for f in read_predictions(predictions):
            key = str(Path(f["paper"]).resolve()) if f["paper"] else ""
            predicted.setdefault(key, set()).update(f["taxonomy"])
            predicted.setdefault(os.path.basename(f["paper"]), set()).update(f["taxonomy"])
        predicted = {k: predicted.get(k) or predicted.get(os.path.basename(k), set()) for k, _ in items}
        source = f"figlint predictions in {predictions}"
    else:
        from figlint.config import Config
        from figlint.engine import lint_path

        cfg = Config()
        for key, _ in items:
            res = lint_path(key, cfg)
            predicted[key] = {f.taxonomy for f in res.findings if f.taxonomy}
        source = "figlint (default rules) on each image"
    return chart_metrics(items, predicted), {"gold": gold, "rows": len(items), "source": source}


# ---------------------------------------------------------------- formatting

ABBREV = {"visual_clarity": "VC", "structure_layout": "SL", "caption_consistency": "C",
          "context_consistency": "CTX", "misleading_risk": "MR"}


def _f(v: Any, nd: int = 3) -> str:
    return "–" if v is None else (f"{v:.{nd}f}" if isinstance(v, float) else str(v))


def render_scores(result: dict[str, Any], notes: dict[str, Any], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(result, indent=2) + "\n"
    rows = [(f"{ABBREV[d]} ({d})", result["dimensions"][d]) for d in DIMENSIONS] + [("overall", result["overall"])]
    head = (f"{notes['source']}; gold {notes['gold']} ({notes['rows']} rows, {notes['scored']} scored). "
            "L1-evaluable items only.")
    if fmt == "markdown":
        lines = [head, "", "| dimension | n | MAE | within-1 | Spearman | bias |", "|---|---|---|---|---|---|"]
        lines += [f"| {name} | {m['n']} | {_f(m['mae'])} | {_f(m['within1'])} | {_f(m['spearman'])} | {_f(m['bias'])} |"
                  for name, m in rows]
        return "\n".join(lines) + "\n"
    lines = [head, f"{'dimension':<28} {'n':>5} {'MAE':>7} {'W-1':>7} {'rho':>7} {'bias':>7}"]
    lines += [f"{name:<28} {m['n']:>5} {_f(m['mae']):>7} {_f(m['within1']):>7} {_f(m['spearman']):>7} {_f(m['bias']):>7}"
              for name, m in rows]
    return "\n".join(lines) + "\n"


def render_charts(result: dict[str, Any], notes: dict[str, Any], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(result, indent=2) + "\n"
    head = (f"{notes['source']}; gold {notes['gold']} ({notes['rows']} charts): weighted F1 "
            f"{_f(result['weighted_f1'])}, exact match {_f(result['exact_match'])}, "
            f"partial match {_f(result['partial_match'])}")
    if fmt == "markdown":
        lines = [head, "", "| label | support | TP | FP | FN | precision | recall | F1 | FP rate |",
                 "|---|---|---|---|---|---|---|---|---|"]
        lines += [f"| {k} | {m['support']} | {m['tp']} | {m['fp']} | {m['fn']} | {_f(m['precision'])} | "
                  f"{_f(m['recall'])} | {_f(m['f1'])} | {_f(m['fp_rate'])} |" for k, m in result["labels"].items()]
        return "\n".join(lines) + "\n"
    lines = [head, f"{'label':<24} {'supp':>5} {'TP':>4} {'FP':>4} {'FN':>4} {'P':>6} {'R':>6} {'F1':>6} {'FPR':>6}"]
    lines += [f"{k:<24} {m['support']:>5} {m['tp']:>4} {m['fp']:>4} {m['fn']:>4} {_f(m['precision']):>6} "
              f"{_f(m['recall']):>6} {_f(m['f1']):>6} {_f(m['fp_rate']):>6}" for k, m in result["labels"].items()]
    return "\n".join(lines) + "\n"


def run_eval(gold: str, predictions: str | None = None, fmt: str = "text", cv: int = 0) -> str:
    """What `figlint eval` prints."""
    if not Path(gold).is_file():
        raise UsageError(f"gold file not found: {gold}")
    if gold.endswith((".jsonl", ".ndjson")):
        first = next((json.loads(x) for x in Path(gold).read_text(encoding="utf-8").splitlines() if x.strip()), {})
        if isinstance(first, dict) and "taxonomy" in first and "image" in first:
            result, notes = evaluate_charts(gold, predictions)
            return render_charts(result, notes, fmt)
    result, notes = evaluate_scores(gold, predictions, cv)
    return render_scores(result, notes, fmt)
