"""A paper written with care gets no finding at all, from the PDF and from the sources.

tests/fixtures/clean_paper.py: eight well-made figures with specific captions, each
cited in order by a sentence that says what to see and claims only what the figure
shows; a two-column paper with \\cref citations, a figure* and subfigures; and a paper
of other constructs (\\autoref, a wrapfigure, a 300 DPI raster figure, Left:/Right:
panels, a table, an appendix figure); and one whose captions name colours and line styles
and whose citing text states trends and a tested significance, all true. Every default rule runs (visual, caption, context, misleading design,
reasoning), on the PDF, on the sources with it, and on the sources alone (a paper
repository without its PDF, as the pre-commit hook sees it); any finding here is a false
alarm on a good paper.
"""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("matplotlib")

from figlint.config import Config  # noqa: E402
from figlint.engine import run  # noqa: E402


@pytest.fixture(scope="module")
def clean_papers(tmp_path_factory, pdflatex):
    from fixtures.clean_paper import (build_clean_claims_paper, build_clean_mixed_paper, build_clean_paper,
                                      build_clean_two_column_paper)

    return {"one-column": (build_clean_paper(tmp_path_factory.mktemp("clean_paper")), 8),
            "two-column": (build_clean_two_column_paper(tmp_path_factory.mktemp("clean_paper_2col")), 4),
            "other-constructs": (build_clean_mixed_paper(tmp_path_factory.mktemp("clean_paper_mixed")), 4),
            "colours-and-claims": (build_clean_claims_paper(tmp_path_factory.mktemp("clean_paper_claims")), 2)}


@pytest.mark.parametrize("route", ["pdf", "latex", "sources only"])
@pytest.mark.parametrize("layout", ["one-column", "two-column", "other-constructs", "colours-and-claims"])
def test_a_careful_paper_gets_no_finding(clean_papers, layout, route, monkeypatch, tmp_path):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path / "cache"))
    tex, figures = clean_papers[layout]
    path = tex.with_suffix(".pdf") if route == "pdf" else tex
    if route == "sources only":  # a paper repository without its PDF (the pre-commit hook's case)
        src = tmp_path / "src"
        shutil.copytree(tex.parent, src, ignore=shutil.ignore_patterns("*.pdf", "*.aux", "*.log", "*.out"))
        for graphic in tex.parent.glob("*.pdf"):
            if graphic.name != "main.pdf":
                shutil.copy(graphic, src / graphic.name)
        path = src / "main.tex"
    result = run([str(path)], Config(preview=True))  # preview rules must stay silent too
    r = result.results[0]
    assert r.error is None and r.paper.route == ("latex" if route == "sources only" else route)
    assert bool(r.paper.pdf_path) == (route != "sources only")
    assert len(r.paper.figures) == figures
    assert [f"{f.code} fig {f.figure}: {f.message}" for f in result.findings] == []
