"""The visual rules' features (colour science, raster quality, caption colour words) and their chart cases.

The chart cases of tests/fixtures/cases_visual.py also run in test_chart_rules.py; here
they run on files drawn from that module alone, so a visual rule can be checked without
the other families' fixtures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from figlint.features import colours as C
from figlint.rules.caption_marks import caption_colours, caption_styles
from fixtures.session_store import session_cache_dir  # noqa: E402


def test_ciede2000_reference_pairs():
    # Sharma, Wu & Dalal (2005), table 1, pairs 1 and 3
    assert C.ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert C.ciede2000((50, -1.3802, -84.2814), (50, 0, -82.7485)) == pytest.approx(1.0000, abs=1e-4)


def test_contrast_and_names():
    assert C.contrast_ratio((0, 0, 0), (1, 1, 1)) == pytest.approx(21.0)
    assert C.contrast_ratio((1, 1, 0.2), (1, 1, 1)) < 1.2
    assert C.colour_name((0.84, 0.15, 0.16)) == "red"
    assert C.colour_name((0.12, 0.47, 0.71)) == "blue"
    assert C.colour_name((0.5, 0.5, 0.5)) == "grey"


def test_red_green_collapse_under_deuteranopia():
    red, green = (0.839, 0.153, 0.157), (0.173, 0.627, 0.173)
    assert C.delta_e(red, green) > 50
    assert C.delta_e(C.simulate(red, "deuteranopia"), C.simulate(green, "deuteranopia")) < 6
    blue, orange = (0.0, 0.447, 0.698), (0.902, 0.624, 0.0)  # Okabe-Ito
    for kind in ("deuteranopia", "protanopia"):
        assert C.delta_e(C.simulate(blue, kind), C.simulate(orange, kind)) > 20


def test_caption_colour_words():
    assert [w for w, _ in caption_colours("The red bars show accuracy; blue and green curves show loss.")] == \
        ["red", "blue", "green"]
    assert [w for w, _ in caption_colours("Our method (purple) and results shown in orange.")] == ["purple", "orange"]
    assert caption_colours("A red-team evaluation of the model on Reddit data.") == []
    assert [w for w, _ in caption_styles("The dashed line marks chance.")] == ["dashed"]


def _chart_png(path: Path) -> Path:
    from fixtures.cases_visual import _line_png

    return _line_png(path)


def test_quality_separates_png_jpeg_and_blur(tmp_path):
    pytest.importorskip("cv2")
    from figlint.features.quality import measure
    from figlint.features.raster import load_bgr
    from fixtures.cases_visual import write_blurred, write_jpeg, write_photo

    png = measure(load_bgr(str(_chart_png(tmp_path / "c.png"))))
    write_jpeg(tmp_path / "c.jpg")
    jpg = measure(load_bgr(str(tmp_path / "c.jpg")))
    write_blurred(tmp_path / "b.png")
    blur = measure(load_bgr(str(tmp_path / "b.png")))
    write_photo(tmp_path / "p.jpg")
    photo = measure(load_bgr(str(tmp_path / "p.jpg")))
    assert png.line_art and png.sharpness > 0.8 and png.mosquito < 0.01
    assert jpg.sharpness > 0.8 and jpg.mosquito > 0.05
    assert blur.sharpness < 0.4
    assert not photo.line_art


def test_quality_tells_picture_regions_from_line_art(tmp_path):
    # a rendering's outlines are a picture's, not line art's: no hard edge is left to measure
    # ringing around; beside a JPEG chart, the chart's own edges still count
    pytest.importorskip("cv2")
    from figlint.features.quality import measure
    from figlint.features.raster import load_bgr
    from fixtures.cases_visual import write_chart_beside_rendering, write_jpeg, write_rendering

    write_rendering(tmp_path / "r.jpg")
    write_chart_beside_rendering(tmp_path / "cr.jpg")
    write_jpeg(tmp_path / "c.jpg")
    scene, both, chart = (measure(load_bgr(str(tmp_path / n))) for n in ("r.jpg", "cr.jpg", "c.jpg"))
    assert scene.line_art and scene.picture_share > 0.3 and scene.mosquito is None
    assert chart.picture_share == 0 and chart.mosquito > 0.05
    assert 0 < both.picture_share < scene.picture_share and both.mosquito > 0.05


def test_quality_as_printed(tmp_path):
    # the same JPEG chart: printed at 600 DPI it is measured again at 300 DPI, where its ringing
    # is averaged away; at 300 DPI or of unknown printed size, its own pixels are what prints
    pytest.importorskip("cv2")
    from figlint.features.quality import Placed, measure_placed
    from figlint.features.raster import load_bgr
    from fixtures.cases_visual import write_jpeg_line_300

    write_jpeg_line_300(tmp_path / "c.jpg")
    bgr = load_bgr(str(tmp_path / "c.jpg"))
    inches = lambda w: (w * 72, w * 72 * bgr.shape[0] / bgr.shape[1])  # noqa: E731
    fine = measure_placed(Placed("c", bgr, True, inches(1.7)))
    at300 = measure_placed(Placed("c", bgr, True, inches(3.4)))
    unknown = measure_placed(Placed("c", bgr, True, inches(1.7), size_known=False))
    assert round(fine.print_dpi) == 600 and fine.at_print.width == 510
    assert fine.mosquito > 0.1 and fine.at_print.mosquito < 0.05
    assert round(at300.print_dpi) == 300 and at300.at_print is None
    assert unknown.print_dpi is None and unknown.at_print is None


@pytest.fixture(scope="module")
def visual_charts(tmp_path_factory) -> Path:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from fixtures import cases_visual as V

    d = tmp_path_factory.mktemp("visual-charts")
    plt.rcParams.update({"font.size": 9, "pdf.fonttype": 42})

    def normal_line(ax):
        ax.plot(V.YEARS, V.SERIES, marker="o")
        ax.set_ylabel("throughput (Gb/s)")

    def heatmap(ax):
        import numpy as np

        im = ax.imshow(np.arange(64, dtype=float).reshape(8, 8) % 7, cmap="viridis")
        ax.figure.colorbar(im, ax=ax)

    charts = {**V.CHARTS, "normal_line": normal_line, "heatmap": heatmap}
    for name, fn in charts.items():
        for ext in ("pdf", "png"):
            f, ax = plt.subplots(figsize=(3.4, 2.4))
            fn(ax)
            f.tight_layout()
            f.savefig(d / f"{name}.{ext}", **({"metadata": {"CreationDate": None, "ModDate": None}}
                                              if ext == "pdf" else {"dpi": 150}))
            plt.close(f)
    for fname, writer in V.WRITERS.items():
        writer(d / fname)
    return d


def _raster_ready() -> bool:
    try:
        import cv2  # noqa: F401
        import rapidocr  # noqa: F401
    except ImportError:
        return False
    return True


def _runs():
    from fixtures.cases_visual import CHART_CASES

    return [(c, ext) for c in CHART_CASES for ext in c.exts]


@pytest.mark.parametrize(("case", "ext"), _runs(), ids=[f"{c.name}-{e}" for c, e in _runs()])
def test_visual_chart_case(case, ext, visual_charts, tmp_path_factory, monkeypatch):
    from figlint.config import Config
    from figlint.engine import run

    if ext != "pdf" and not _raster_ready():
        pytest.skip("OpenCV/RapidOCR not installed")
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(session_cache_dir(tmp_path_factory)))
    result = run([str(visual_charts / f"{case.file}.{ext}")], Config(select=[case.rule]))
    got = {(f.code, f.figure or "") for f in result.findings if f.code == case.rule}
    assert got == case.expect, [f.message for f in result.findings]
    from figlint.rules.registry import get_rule

    for f in result.findings:
        # visual rules lower visual clarity, except FL110: a rainbow map misleads (misleading risk)
        assert f.evidence and f.origin == "figure" and f.dimension == get_rule(f.code).dimension
        assert f.dimension == "visual_clarity" or f.code == "FL110"


def test_a_one_pixel_strip_is_judged_along_its_length():
    """A colour bar's ramp of 300 x 1 (or 1 x 300) pixels has no detail across it: a smooth
    ramp has none to lose, a strip of alternating 1-pixel stripes (a barcode) has."""
    import numpy as np

    from figlint.features.quality import no_fine_detail

    ramp = np.zeros((1, 300, 3), np.uint8)
    ramp[0, :, 0] = np.linspace(0, 255, 300).astype(np.uint8)
    ramp[0, :, 2] = 255 - ramp[0, :, 0]
    assert no_fine_detail(ramp) and no_fine_detail(ramp.transpose(1, 0, 2))
    stripes = np.zeros((1, 300, 3), np.uint8)
    stripes[0, ::2] = 255
    assert not no_fine_detail(stripes) and not no_fine_detail(stripes.transpose(1, 0, 2))


def _inline_image_figure(path, pixels) -> None:
    """A figure PDF (200 x 60 pt) whose only raster is set inline in its content (BI ... ID ...
    EI, as some drawing tools write small images: no XObject), 160 x 4 px over 160 x 4 pt
    (72 DPI), set along the bottom of a vector box."""
    from fixtures.pdf_build import write_pdf

    data = "".join(f"{r:02x}{g:02x}{b:02x}" for r, g, b in pixels) + ">"
    content = ("0 0 0 RG 1 w 20 20 160 30 re S\n"
               f"q 160 0 0 4 20 22 cm BI /W 160 /H 4 /CS /RGB /BPC 8 /F /AHx ID {data} EI Q\n")
    write_pdf(path, ["<< /Type /Catalog /Pages 2 0 R >>",
                     "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                     "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 60] /Contents 4 0 R >>",
                     f"<< /Length {len(content)} >>\nstream\n{content}endstream"])


@pytest.mark.parametrize("detail", [False, True])
def test_an_image_set_inline_is_judged_for_detail_too(tmp_path, pdflatex, detail):
    """An image set inline in a page's content has no XObject, so it was never decoded and a
    flat strip (a white fade under a diagram's box, 163 x 4 px at 72 DPI) was reported as a
    low-resolution picture. Now decoded from the page: a flat strip is left out, one of
    alternating 1-pixel stripes (detail a low resolution loses) is still reported."""
    from figlint.config import Config
    from figlint.engine import lint_path
    from fixtures.pdf_build import compile_main

    from PIL import Image

    row = [((0, 0, 0) if detail and x % 2 else (255, 255, 255)) for x in range(160)]
    _inline_image_figure(tmp_path / "fig.pdf", row * 4)
    # a flat icon beside it (an image XObject, no detail to lose), as the field paper's diagram had
    Image.new("RGB", (60, 60), (40, 120, 200)).save(tmp_path / "icon.png")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "Figure~\\ref{fig:a} shows the machine and its store over the whole run.\n"
        "\\begin{figure}[h]\\centering\\includegraphics{fig.pdf}\\includegraphics[width=1in]{icon.png}\n"
        "\\caption{The machine and its store.}\\label{fig:a}\\end{figure}\n\\end{document}\n")
    pdf = compile_main(tmp_path)
    for path in (pdf, str(tmp_path / "main.tex")):
        res = lint_path(path, Config(select=["FL101"]))
        (fig,) = res.paper.figures
        assert sorted((im.width_px, im.height_px) for im in fig.images) == [(60, 60), (160, 4)]
        assert [f.code for f in res.findings] == (["FL101"] if detail else []), [f.message for f in res.findings]
