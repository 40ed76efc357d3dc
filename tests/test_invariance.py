"""A sample of the invariance suite (issue 12; the full run is benchmarks/invariance.py).

Fixture papers rewritten by edits that move things on the page but change nothing a
reader is told (tests/fixtures/variants.py) must give the same figures, captions,
citing sentences and findings as the original, from the PDF, from the sources with
the PDF and from the sources alone. The sample covers what broke binding before:
filler sentences that make floats stack (a graphic, its caption, the next float's
graphic: which one the caption owns was decided once per document), a class whose
text block starts high enough that a plot's tick labels look like a running head
(IEEEtran), chapter numbering (report), figure* and [p] floats, figures moved to the
end, papers without hyperref or cleveref, and what the full list found next: a revtex
title line over the gutter, a column holding two lines of text, the flush-left caption of
a figure* in IEEEtran. A class TeX Live lacks is skipped.
"""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from fixtures import variants as V  # noqa: E402

SAMPLE = [
    ("example", "filler(sec1,3)"),
    ("example", "filler(before_fig1,1)"),
    ("example", "ieee-conf"),
    ("example", "report"),
    ("example", "figures-at-end"),
    ("example", "no-hyperref"),
    ("clean-2col", "no-cleveref"),
    ("clean-2col", "llncs"),
    ("generated", "[p]"),
    ("generated", "acmart"),
    ("clean-mixed", "no-hyperref"),
    ("example", "acmart+filler(sec2,3)"),  # a table's bottom rule right above a figure is not the figure's
    ("generated", "revtex+figure*"),  # "(Dated: )" over the gutter is not the head of the right column
    ("clean-claims", "elsarticle-5p+filler(sec2,3)"),  # a column with two lines of text is a column
    ("clean-1col", "ieee-journal+figure*"),  # a flush-left one-line caption under a figure*
    ("clean-2col", "report"),  # Figure 1.2 ... (Figure 1.2a): every mention's number mapped
    ("example", "report+synctex"),  # bound by where each environment printed (SyncTeX beside the PDF)
    ("generated", "no-hyperref"),  # a bare "in 2." without its link
]


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("invariance")


@pytest.fixture(scope="module")
def bases():
    return {b.name: b for b in V.bases()}


@pytest.fixture(scope="module")
def originals(cache, bases, pdflatex):
    out = {}

    def get(name):
        if name not in out:
            main = V.build(bases[name], bases[name].tex, cache)
            out[name] = (main, {r: V.signature(V.route_path(main, r)) for r in V.ROUTES})
        return out[name]
    return get


@pytest.mark.parametrize("base,name", SAMPLE, ids=[f"{b}:{n}" for b, n in SAMPLE])
def test_variant_reads_as_the_original(base, name, bases, originals, cache, monkeypatch, tmp_path):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path / "figlint-cache"))
    b = bases[base]
    (v,) = [v for v in V.variants([b], [c for c in V.CLASSES if c in name.split("+")[0]] or []) if v.name == name]
    if v.cls not in ("article", "article-2col") and not V.class_available(v.cls):
        pytest.skip(f"TeX Live has no working {V.CLASSES[v.cls][2]} class here")
    orig_main, orig = originals(base)
    assert orig["pdf"]["figures"], "the original paper must have figures"
    main = V.build(b, V.apply(b, v, V.graphics_for(b, cache)), cache, synctex=v.synctex)
    numbers = V.number_map(main, orig_main)
    diffs = {r: V.compare(orig[r], V.signature(V.route_path(main, r), numbers), r, v) for r in V.ROUTES}
    assert {r: d for r, d in diffs.items() if d} == {}


def test_text_set_past_the_page_edge_is_not_the_same_paper(tmp_path):
    """A variant whose print loses text (a wrapfigure caption run off the page foot) is not
    compared as the same paper: the comparison finds the line outside the page."""
    import pymupdf

    for name, y in (("inside", 700), ("outside", 810)):
        doc = pymupdf.open()
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 100), "Body text on the page.", fontsize=10)
        page.insert_text((72, y), "tance of the six input features.", fontsize=10)
        doc.save(tmp_path / f"{name}.pdf")
    assert V._off_page_text(tmp_path / "inside.pdf") is None
    assert V._off_page_text(tmp_path / "outside.pdf") == (1, "tance of the six input feature")  # 30 characters
