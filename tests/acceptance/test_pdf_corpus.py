"""Acceptance: the PDF route against the shared corpus of real papers.

Reads ../shared/corpus/papers next to the repository (test data only, never
copied here) and skips cleanly when it is absent. Scoring is the one of
benchmarks/corpus_pdf.py (see its docstring for the site matcher): figure
recall and precision on number and physical page must be 1.0 for every
paper; in every paper at least 95 % of figures must have a caption with
similarity >= 0.95 and at least 95 % of truth citing sites (ref + literal) must
be found on the right figure. A paper that cannot pass a check yet is a strict
xfail naming its cause (XFAIL below). Misses are printed, so a failure says
what to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fixtures.scripts import load_script

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CORPUS = SHARED / "corpus" / "papers"
PAPERS = sorted(p.name for p in CORPUS.iterdir() if (p / "truth.json").is_file()) if CORPUS.is_dir() else []

pytestmark = pytest.mark.skipif(not PAPERS, reason=f"shared corpus not found at {CORPUS}")

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus_pdf.py"
_RESULTS: dict = {}


def _bench():
    return load_script(_BENCH, "corpus_pdf_bench", register=True)


def result(name: str):
    if name not in _RESULTS:
        _RESULTS[name] = _bench().evaluate(CORPUS / name)
    return _RESULTS[name]


# Papers that cannot pass a check yet, with the cause: each is a strict xfail, so fixing it
# shows up as a failure to remove here, and every other paper is held to the threshold.
XFAIL: dict[tuple[str, str], str] = {
    ("captions", "qleet-revtex"): "a caption ending in display-size math (U(θ) = ∏ ⊗ ...) is printed as "
                                  "glyph pieces that no plain-text reading of the formula matches",
    ("sites", "ldade-elsevier"): "46/50: the bold 'Figure 7a:' notes typed under the plots inside a float are "
                                 "read as figure text, not citing text; around two more mentions the printed "
                                 "words differ from the source (a superscript glued to 'Algorithm 1', a list "
                                 "item cut from its lead-in 'we recommend LDADE since:')",
}


def per_paper(check: str) -> list:
    return [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=XFAIL[(check, n)]))
            if (check, n) in XFAIL else n for n in PAPERS]


@pytest.mark.parametrize("name", per_paper("figures"))
def test_figures_found_on_their_pages(name):
    r = result(name)
    assert not r.problems, r.problems
    assert r.found == r.truth_figures, r.misses
    assert r.correct == r.predicted, r.misses


@pytest.mark.parametrize("name", per_paper("captions"))
def test_captions(name):
    r = result(name)
    assert r.truth_figures == 0 or r.captions_ok / r.truth_figures >= 0.95, [m for m in r.misses if "caption" in m]


@pytest.mark.parametrize("name", per_paper("sites"))
def test_citing_sites(name):
    r = result(name)
    misses = [m for m in r.misses if m.startswith("site")]
    assert r.truth_sites == 0 or r.sites_hit / r.truth_sites >= 0.95, misses


@pytest.mark.parametrize("name", per_paper("uncaptioned"))
def test_no_uncaptioned_figures(name):
    # Every figure of these papers has a caption: a region reported as uncaptioned is a false alarm.
    assert result(name).uncaptioned == 0
