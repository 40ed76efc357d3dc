"""Fit the offline scorer's constants on SciFigQual-Bench dev gold and report cross-validated accuracy.

    python benchmarks/calibrate_offline.py [--gold ../shared/data/eval1200_dev.csv] [--write] [--splits 10]

Reproducible: the fit is closed-form (ridge + median intercept, see
figlint/judge/calibrate.py), folds are by paper (sha1 of paper_id), and the
repeated splits use fixed seeds. What it does:

1. 2-fold cross-validation by paper (the canonical split, as `figlint eval
   --cv 2` reports it), plus the mean over `--splits` reshuffled 2-fold splits
   (seeded paper hashes) to show how much the canonical numbers owe to the split;
2. with --write: fits on all rows and writes figlint/judge/data/offline.json
   (numbers only: intercepts and weights; no rows, captions or scores of the
   gold file), and the results table into benchmarks/RESULTS.md under
   "## Offline scorer vs human gold (eval1200 dev)".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

DATA = ROOT / "figlint" / "judge" / "data" / "offline.json"
HEADING = "Offline scorer vs human gold (eval1200 dev)"
TARGETS = {"mae": 0.85, "spearman": 0.60}


def default_gold() -> Path:
    shared = Path(os.environ.get("FIGLINT_SHARED") or ROOT.parent / "shared")
    return shared / "data" / "eval1200_dev.csv"


def _reshuffled(rows, seed: int, k: int = 2):
    from figlint.judge import calibrate as C
    from figlint.judge.offline import score_caption_row

    preds = [None] * len(rows)
    folds = [int(hashlib.sha1(f"{seed}:{r['paper_id']}".encode()).hexdigest(), 16) % k for r in rows]
    for fold in range(k):
        model = C.fit([r for r, f in zip(rows, folds) if f != fold])
        for i, (r, f) in enumerate(zip(rows, folds)):
            if f == fold:
                s = score_caption_row(r["caption"], r["context_count"], model)
                preds[i] = s.as_dict() if s else None
    return preds


def _continuous_c(rows, k: int = 2):
    """C as an unrounded estimate (same folds, same caps): what integer scores cost."""
    from figlint.evaluate import metrics
    from figlint.judge import calibrate as C
    from figlint.judge.captionfeatures import caption_features

    from figlint.judge.offline import generic_caption_finding

    folds = [C.fold_of(r["paper_id"], k) for r in rows]
    pairs = []
    for fold in range(k):
        model = C.fit([r for r, f in zip(rows, folds) if f != fold])
        for r, f in zip(rows, folds):
            if f == fold and r["human_caption_consistency"] is not None:
                v = min(10.0, max(1.0, model.estimate("caption_consistency", caption_features(r["caption"]))))
                if generic_caption_finding(r["caption"]) is not None:
                    v = min(v, 6.0)
                pairs.append((v, r["human_caption_consistency"]))
    return metrics(pairs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gold", type=Path, default=default_gold())
    ap.add_argument("--write", action="store_true", help="write offline.json and the RESULTS.md section")
    ap.add_argument("--splits", type=int, default=10, help="reshuffled 2-fold splits to average (default 10)")
    a = ap.parse_args()
    if not a.gold.is_file():
        print(f"gold file not found: {a.gold}", file=sys.stderr)
        return 2
    from figlint.evaluate import ABBREV, read_gold, score_metrics
    from figlint.judge import calibrate as C
    from figlint.judge.offline import score_caption_row
    from figlint.model import DIMENSIONS

    rows = read_gold(str(a.gold))
    cv = score_metrics(rows, C.cross_validate(rows, 2))
    reps = [score_metrics(rows, _reshuffled(rows, seed)) for seed in range(1, a.splits + 1)]
    cont = _continuous_c(rows)
    model = C.fit(rows)
    insample = []
    for r in rows:
        s = score_caption_row(r["caption"], r["context_count"], model)
        insample.append(s.as_dict() if s else None)
    ins = score_metrics(rows, insample)
    # speed of the offline scorer on these captions (features + scoring), per figure
    t0 = time.perf_counter()
    for r in rows:
        score_caption_row(r["caption"], r["context_count"], model)
    per_fig_ms = (time.perf_counter() - t0) / len(rows) * 1000

    def mean_of(dim, key):
        vals = [m["dimensions"][dim][key] if dim != "overall" else m["overall"][key] for m in reps]
        vals = [v for v in vals if v is not None]
        return statistics.mean(vals) if vals else None

    def fmt(v):
        return "–" if v is None else f"{v:.3f}"

    lines = ["| dimension | n | MAE (CV) | within-1 (CV) | Spearman (CV) | bias (CV) | MAE / rho, mean of "
             f"{a.splits} reshuffled splits | MAE / rho, in-sample (shipped constants) |",
             "|---|---|---|---|---|---|---|---|"]
    for dim in [*DIMENSIONS, "overall"]:
        m = cv["dimensions"][dim] if dim != "overall" else cv["overall"]
        i = ins["dimensions"][dim] if dim != "overall" else ins["overall"]
        name = f"{ABBREV[dim]} ({dim})" if dim != "overall" else "overall"
        lines.append(f"| {name} | {m['n']} | {fmt(m['mae'])} | {fmt(m['within1'])} | {fmt(m['spearman'])} | "
                     f"{fmt(m['bias'])} | {fmt(mean_of(dim, 'mae'))} / {fmt(mean_of(dim, 'spearman'))} | "
                     f"{fmt(i['mae'])} / {fmt(i['spearman'])} |")
    c = cv["dimensions"]["caption_consistency"]
    met = c["mae"] <= TARGETS["mae"] and (c["spearman"] or 0) >= TARGETS["spearman"]
    table = "\n".join(lines)
    print(table)
    print(f"\nC (2-fold CV by paper): MAE {c['mae']:.3f}, W-1 {c['within1']:.3f}, Spearman {c['spearman']:.3f} "
          f"-> targets MAE <= {TARGETS['mae']}, Spearman >= {TARGETS['spearman']}: {'met' if met else 'NOT met'}")
    print(f"C as a continuous estimate (same CV): MAE {cont['mae']:.3f}, W-1 {cont['within1']:.3f}, "
          f"Spearman {cont['spearman']:.3f}")
    print(f"offline scorer: {per_fig_ms:.3f} ms per figure (caption features + scoring)")
    if not a.write:
        return 0
    model.meta["gold_sha256"] = hashlib.sha256(a.gold.read_bytes()).hexdigest()
    model.meta["cv_2fold"] = {ABBREV[d]: {k: cv["dimensions"][d][k] for k in ("n", "mae", "within1", "spearman")}
                              for d in DIMENSIONS}
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(model.to_dict(), indent=2) + "\n")
    from results_md import write_section

    w = model.models["caption_consistency"]["weights"]
    top = sorted(w.items(), key=lambda kv: -abs(kv[1]))[:5]
    body = f"""Produced by `python benchmarks/calibrate_offline.py --write` (same numbers: `figlint eval --gold
../shared/data/eval1200_dev.csv --cv 2`). The offline scorer (protocol `rules`, no model call) scores each
gold row from what the file has: the caption text (C) and the number of citing paragraphs (CTX; gated when 0).
No images are in the gold file, so VC, SL and MR can only be the typical rating here (their Spearman is
undefined: constant predictions); in a real run the rule findings lower them. Metrics on L1-evaluable items
(both gold and figlint have a score); scores are integers with ties to the lower score for C, CTX and MR.
"CV" columns: 2-fold cross-validation by paper (sha1 of paper_id), constants refitted on the other fold.
The shipped constants (figlint/judge/data/offline.json) are fitted on all {len(rows)} rows ({model.meta['papers']}
papers); their in-sample numbers are shown only for comparison.

{table}

**Caption consistency, 2-fold CV by paper: MAE {c['mae']:.3f}, within-1 {c['within1']:.3f}, Spearman
{c['spearman']:.3f}.** Targets were MAE <= {TARGETS['mae']} and Spearman >= {TARGETS['spearman']}: **{'met' if met else 'not met'}**.
A caption-only scorer is bounded here: the human C rating judges the caption *against the image*, which a
caption-only model cannot see; the caption's length alone has a Spearman of about 0.48 with C, and richer
caption features (bag of words, metric/dataset/panel/trend lexicons, length splines, the caption's length
relative to its paper's other captions, least-absolute-deviation fits) did not improve the cross-validated
numbers. Scores are integers (the rubric's scale); the same model as an unrounded estimate would reach MAE
{cont['mae']:.3f}, within-1 {cont['within1']:.3f}, Spearman {cont['spearman']:.3f} in the same CV (rounding makes
ties, which costs Spearman). Largest C weights (raw feature scale): {', '.join(f'{k} {v:+.2f}' for k, v in top)}.

Sentence embeddings of the caption (all-MiniLM-L6-v2, alone, with these features, kNN, boosted trees;
penalties tuned in nested CV by paper) were tried too, with `benchmarks/c_embedding_probe.py`: the best
variant ties this scorer (MAE 0.907, Spearman 0.456 integer; nested tuning drops the embedding), the
embedding alone reaches Spearman 0.25, and it would cost about 1.3 GB of dependencies, 6 s of start-up
and 25 ms per caption. What would meet the target is the image: the gold file has none, so a caption-only
model is judged against ratings of caption *and* figure.

Speed: {per_fig_ms:.2f} ms per figure for caption features + scoring (target < 5 ms).
"""
    write_section(HEADING, body)
    print(f"wrote {DATA.relative_to(ROOT)} and the RESULTS.md section")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
