"""Sources alone vs the compiled PDF on the corpus papers: same DPI, same printed text sizes.

Reads ../shared (skipped when absent). Each paper is loaded from its main .tex
with no compiled PDF next to it, so figure content comes from the graphics
files placed at print size (figlint/ingest/placement.py); its paper.pdf is read
by the PDF route. For every figure both routes see, the effective DPI of each
raster image and the size of each text label (matched by its text) must agree
within 2 %.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from figlint.ingest import load
from figlint.ingest.pdf import read_pdf

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
PAPERS = SHARED / "corpus" / "papers"
NAMES = sorted(p.name for p in PAPERS.iterdir() if (p / "truth.json").is_file()) if PAPERS.is_dir() else []

pytestmark = pytest.mark.skipif(not NAMES, reason="../shared corpus not present")


# Papers whose source-only reading does not match print yet, with the cause (strict xfails).
XFAIL: dict[str, str] = {}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=XFAIL[n]))
                                  if n in XFAIL else n for n in NAMES])
def test_source_only_content_matches_the_printed_paper(name):
    truth = json.loads((PAPERS / name / "truth.json").read_text())
    sources = load(str(PAPERS / name / "source" / truth["main_tex"]))
    assert sources.pdf_path is None, "a compiled PDF next to the sources: this test needs the sources alone"
    printed = read_pdf(str(PAPERS / name / "paper.pdf"))
    assert sources.body_font_size == printed.body_font_size
    dpis = spans = 0
    for fig in sources.figures:
        other = printed.figure(fig.number) if fig.number else None
        if other is None or fig.extra.get("content_source") != "graphics-files":
            continue
        mine = sorted(i.effective_dpi for i in fig.images)
        theirs = sorted(i.effective_dpi for i in other.images)
        if len(mine) == len(theirs):
            for a, b in zip(mine, theirs):
                assert a == pytest.approx(b, rel=0.02), f"Figure {fig.number}: {a:.1f} vs {b:.1f} DPI"
                dpis += 1
        by_text = defaultdict(list)
        for s in other.spans:
            by_text[s.text.strip()].append(s.size)
        for s in fig.spans:
            sizes = by_text.get(s.text.strip())
            if sizes and len(s.text.strip()) >= 3:
                closest = min(sizes, key=lambda v: abs(v - s.size))
                assert s.size == pytest.approx(closest, rel=0.02), f"Figure {fig.number} {s.text!r}"
                spans += 1
    with_files = [f for f in sources.figures if f.extra.get("graphics_options")]
    filled = [f for f in with_files if f.extra.get("content_source") == "graphics-files"]
    assert len(filled) >= 0.9 * len(with_files), [f.extra.get("placement_skipped") for f in with_files]
    assert dpis + spans > 0 or not with_files
