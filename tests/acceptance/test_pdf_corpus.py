"""Acceptance: the PDF route against the shared corpus of real papers.

Reads ../shared/corpus/papers next to the repository (test data only, never
copied here) and skips cleanly when it is absent. Scoring is the one of
benchmarks/corpus_pdf.py (see its docstring for the site matcher): figure
recall and precision on number and physical page must be 1.0 for every
paper; at least 95 % of figures must have a caption with similarity >= 0.95;
at least 95 % of truth citing sites (ref + literal) must be found on the
right figure. Misses are printed, so a failure says what to look at.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPUS = SHARED / "corpus" / "papers"
PAPERS = sorted(p.name for p in CORPUS.iterdir() if (p / "truth.json").is_file()) if CORPUS.is_dir() else []

pytestmark = pytest.mark.skipif(not PAPERS, reason=f"shared corpus not found at {CORPUS}")

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus_pdf.py"
_RESULTS: dict = {}


def _bench():
    name = "corpus_pdf_bench"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, _BENCH)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod  # dataclasses look their module up while the class is built
        spec.loader.exec_module(mod)
    return sys.modules[name]


def result(name: str):
    if name not in _RESULTS:
        _RESULTS[name] = _bench().evaluate(CORPUS / name)
    return _RESULTS[name]


@pytest.mark.parametrize("name", PAPERS)
def test_figures_found_on_their_pages(name):
    r = result(name)
    assert not r.problems, r.problems
    assert r.found == r.truth_figures, r.misses
    assert r.correct == r.predicted, r.misses


def test_captions():
    rs = [result(n) for n in PAPERS]
    ok = sum(r.captions_ok for r in rs)
    total = sum(r.truth_figures for r in rs)
    assert total == 0 or ok / total >= 0.95, [m for r in rs for m in r.misses if "caption" in m]


def test_citing_sites():
    rs = [result(n) for n in PAPERS]
    hit = sum(r.sites_hit for r in rs)
    total = sum(r.truth_sites for r in rs)
    misses = [f"{r.name}: {m}" for r in rs for m in r.misses if m.startswith("site")]
    print("\n".join(misses))
    assert total == 0 or hit / total >= 0.95, misses


def test_no_uncaptioned_figures_in_the_corpus():
    # Every figure of these papers has a caption: a region reported as uncaptioned is a false alarm.
    assert {n: result(n).uncaptioned for n in PAPERS} == {n: 0 for n in PAPERS}
