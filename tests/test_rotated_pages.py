"""Floats set sideways read as when upright (issue 12, field audit: an APA paper set five of its
figures in `sidewaysfigure*`; their captions ran up the page and the PDF route found none).

One paper compiled four ways (tests/fixtures/rotated_paper.py): Figures 2 and 3 upright on
float pages, in `sidewaysfigure` turned either way (rotating's default and `figuresleft`),
and on a landscape page (pdflscape, which sets /Rotate). Every variant must give the same
figures, captions, citing sites, content, chart features and findings as the upright one,
from the PDF and from the sources with the PDF (no FL008: the routes agree), and render a
sideways figure upright. Figure 3's caption runs across the turned page, past the unturned
page's width (MuPDF clipped a turned text pass to the page's own box: the rows lost their ends).
"""

from __future__ import annotations

import io

import pytest

pytest.importorskip("matplotlib")

from figlint.config import Config  # noqa: E402
from figlint.engine import run  # noqa: E402
from figlint.features import analyses  # noqa: E402

TURNED = ["sideways", "sideways-left", "landscape"]


@pytest.fixture(scope="module")
def papers(tmp_path_factory, pdflatex):
    from fixtures.rotated_paper import build_rotated_papers

    return build_rotated_papers(tmp_path_factory.mktemp("rotated"))


@pytest.fixture(scope="module")
def readings(papers, tmp_path_factory):
    """{(variant, route): result}, route "pdf" (the PDF alone) or "latex+pdf"."""
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FIGLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        cfg = Config(preview=True)
        for variant, p in papers.items():
            for route, target in (("pdf", p.pdf), ("latex+pdf", p.tex)):
                r = run([str(target)], cfg).results[0]
                assert r.error is None, (variant, route, r.error)
                out[(variant, route)] = r
    return out


def _figure(result, fig) -> dict:
    features = []
    for an in analyses(fig, result.paper):
        features.append((an.chart_type, sorted((a.orient, a.side, tuple(a.values), a.inverted, a.scale) for a in an.axes),
                         sorted(e.text for e in an.get("legend"))))
    return {
        "number": fig.number,
        "caption": fig.caption.text if fig.caption else None,
        "sites": sorted(s.sentence for s in fig.sites),
        "spans": sorted((s.text, round(s.size, 1)) for s in fig.spans),
        "drawings": len(fig.drawings),
        # printed size of each image: the width it is read at is the upright one
        "images": [(i.width_px, i.height_px, round(i.bbox[2] - i.bbox[0]), round(i.bbox[3] - i.bbox[1])) for i in fig.images],
        "features": features,
        # where a finding is on the page aside (positions differ between the variants)
        "findings": sorted((f.code, f.message) for f in result.findings if (f.figure or "") == fig.number),
    }


def _summary(result) -> list[dict]:
    return [_figure(result, f) for f in result.paper.figures]


def test_upright_variant_reads_three_figures(readings):
    got = _summary(readings[("upright", "pdf")])
    assert [f["number"] for f in got] == ["1", "2", "3"]
    assert all(f["caption"] and len(f["sites"]) == 2 for f in got), got
    assert got[1]["drawings"] and got[2]["images"], got


@pytest.mark.parametrize("variant", TURNED)
@pytest.mark.parametrize("route", ["pdf", "latex+pdf"])
def test_sideways_figures_read_as_upright(readings, papers, variant, route):
    want = _summary(readings[("upright", route)])
    r = readings[(variant, route)]
    assert _summary(r) == want
    turned = {f.number: f.extra.get("turn", 0) for f in r.paper.figures}
    if route == "pdf":
        assert turned == {"1": 0, "2": papers[variant].turn, "3": papers[variant].turn}


@pytest.mark.parametrize("variant", TURNED)
def test_routes_agree_on_sideways_floats(readings, variant):
    pdf, tex = readings[(variant, "pdf")], readings[(variant, "latex+pdf")]
    assert [(f.number, f.caption.text) for f in pdf.paper.figures] == [(f.number, f.caption.text) for f in tex.paper.figures]
    assert not [f for f in tex.findings if f.code in ("FL007", "FL008")]


@pytest.mark.parametrize("variant", TURNED)
def test_a_sideways_figure_renders_upright(readings, variant):
    from PIL import Image

    from figlint.ingest.pdf import render_crop

    def shape(result) -> float:
        fig = next(f for f in result.paper.figures if f.number == "2")
        png = render_crop(result.paper.pdf_path, fig.page, fig.bbox, 72, turn=fig.extra.get("turn", 0))
        w, h = Image.open(io.BytesIO(png)).size
        return w / h

    want = shape(readings[("upright", "pdf")])
    assert shape(readings[(variant, "pdf")]) == pytest.approx(want, rel=0.05)


def test_an_upright_chart_with_labels_running_up_the_page_keeps_its_page_upright(tmp_path, pdflatex):
    # a thesis chart of 500 languages: its category labels, set turned, outnumber the page's
    # upright text; its caption runs upright, so the page is read upright
    from fixtures.latex_paper import compile_pdf

    from figlint.ingest.pdf import read_pdf

    labels = "".join(f"\\rotatebox{{90}}{{\\tiny language-{k:03d}}}\\," for k in range(90))
    tex = tmp_path / "main.tex"
    tex.write_text("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
                   "Figure~\\ref{fig:l} shows the training data of every language.\n"
                   "\\begin{figure}[h]\n\\centering\n\\parbox{\\textwidth}{" + labels + "}\n"
                   "\\caption{Training data per language.}\\label{fig:l}\n\\end{figure}\n\\end{document}\n")
    paper = read_pdf(str(compile_pdf(tex)))
    assert [(f.number, f.caption.text if f.caption else None, f.extra.get("turn", 0)) for f in paper.figures] == \
        [("1", "Training data per language.", 0)]
