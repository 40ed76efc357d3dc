"""Fitting the offline scorer's constants on human gold (captions, citation counts, five means).

Used by benchmarks/calibrate_offline.py (which writes figlint/judge/data/offline.json)
and by `figlint eval --cv K` (which refits inside each fold to report honest,
cross-validated numbers). numpy only; nothing here runs during linting.

The fit, per dimension, on L1-evaluable rows only:
- C: ridge regression (features standardised, penalty `lam`) over the caption
  features of captionfeatures.FEATURES, then the intercept moved so the
  residuals have median zero (MAE is the metric, and the ratings are skewed);
- CTX: the median rating of figures cited at least once (the number of citing
  paragraphs predicts nothing out of fold: tried, Spearman about 0);
- VC, SL, MR: the median rating (no image in the gold file, and a weak caption
  must not lower VC: dimensions are independent).
A search for the MAE-best intercept under integer rounding was tried too: it
fits the training fold better and the held-out fold worse.
Folds are by paper (sha1 of paper_id modulo K), so no paper is on both sides.
"""

from __future__ import annotations

import hashlib
from typing import Any

from figlint.judge.captionfeatures import FEATURES, caption_features
from figlint.judge.offline import OfflineModel, score_caption_row
from figlint.model import DIMENSIONS

RIDGE_LAMBDA = 30.0
MODEL_VERSION = "offline-1"


def fold_of(paper_id: str, k: int) -> int:
    return int(hashlib.sha1(paper_id.encode("utf-8")).hexdigest(), 16) % k


def _ridge(rows_x: list[list[float]], ys: list[float], names: list[str], lam: float) -> dict[str, Any]:
    import numpy as np

    X = np.asarray(rows_x, dtype=float)
    y = np.asarray(ys, dtype=float)
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd < 1e-9] = 1.0
    Z = np.c_[np.ones(len(X)), (X - mu) / sd]
    pen = np.eye(Z.shape[1]) * lam
    pen[0, 0] = 0.0
    w = np.linalg.solve(Z.T @ Z + pen, Z.T @ y)
    raw = w[1:] / sd  # back to the raw feature scale
    intercept = float(w[0] - (raw * mu).sum())
    intercept += float(np.median(y - (intercept + X @ raw)))
    return {"intercept": round(intercept, 6), "weights": {n: round(float(v), 6) for n, v in zip(names, raw)}}


def fit(rows: list[dict[str, Any]], lam: float = RIDGE_LAMBDA) -> OfflineModel:
    """Fit the constants on gold rows (dicts with caption, context_count and human_<dimension>)."""
    import numpy as np

    models: dict[str, dict[str, Any]] = {}
    cap_rows = [r for r in rows if r.get("caption") and r.get("human_caption_consistency") is not None]
    feats = [caption_features(r["caption"]) for r in cap_rows]
    models["caption_consistency"] = _ridge([[f[n] for n in FEATURES] for f in feats],
                                           [r["human_caption_consistency"] for r in cap_rows], list(FEATURES), lam)
    for dim in ("visual_clarity", "structure_layout", "context_consistency", "misleading_risk"):
        vals = [r[f"human_{dim}"] for r in rows if r.get(f"human_{dim}") is not None
                and (dim != "context_consistency" or r.get("context_count", 0) > 0)]
        models[dim] = {"intercept": round(float(np.median(vals)), 6) if vals else 8.0, "weights": {}}
    ordered = {d: models[d] for d in DIMENSIONS}
    meta = {"rows": len(rows), "papers": len({r.get("paper_id") for r in rows}), "ridge_lambda": lam,
            "features": list(FEATURES)}
    return OfflineModel(version=MODEL_VERSION, models=ordered, meta=meta)


def cross_validate(rows: list[dict[str, Any]], k: int = 2, lam: float = RIDGE_LAMBDA) -> list[dict[str, Any] | None]:
    """Each row's scores from a model fitted on the other folds (by paper); None when not scored."""
    preds: list[dict[str, Any] | None] = [None] * len(rows)
    folds = [fold_of(str(r.get("paper_id") or r.get("figure_id") or i), k) for i, r in enumerate(rows)]
    for fold in range(k):
        train = [r for r, f in zip(rows, folds) if f != fold]
        if not train:
            continue
        model = fit(train, lam)
        for i, (r, f) in enumerate(zip(rows, folds)):
            if f == fold:
                s = score_caption_row(r.get("caption"), int(r.get("context_count") or 0), model)
                preds[i] = s.as_dict() if s is not None else None
    return preds
