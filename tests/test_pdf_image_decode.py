"""Images placed in a PDF are read as the pixels of the files they came from, whatever their
colour type: the PDF route and the sources route see the same picture.

pdfTeX keeps a greyscale PNG as a DeviceGray image, a palette PNG as Indexed, an alpha channel
as a soft mask and a JPEG as its own bytes. Each must decode to the file's pixels (as printed
on white). A greyscale PNG once failed to decode on the PDF route (PyMuPDF 1.28 refuses the call that
converted colours and dropped alpha in one step), so its text was never read there: a chart
with 3 pt labels saved in greyscale got FL102 from its sources and nothing from its PDF.
"""

from __future__ import annotations

import pytest

from fixtures.latex_paper import compile_pdf

MODES = ["L", "LA", "P", "RGB", "RGBA", "1", "CMYK.jpg", "L.jpg", "RGB.jpg"]


def _images(directory):
    import numpy as np
    from PIL import Image

    rng = np.random.default_rng(7)
    rgb = Image.fromarray((rng.random((40, 60, 3)) * 255).astype(np.uint8))
    names = []
    for mode in MODES:
        mode, _, ext = mode.partition(".")
        name = f"img_{mode}.{ext or 'png'}"
        im = rgb.convert(mode)
        if mode in ("LA", "RGBA"):  # a ramp of transparency, not a constant one
            a = np.tile(np.linspace(0, 255, 60).astype(np.uint8), (40, 1))
            im.putalpha(Image.fromarray(a))
        im.save(directory / name, quality=95) if ext else im.save(directory / name)
        names.append(name)
    return names


@pytest.fixture(scope="module")
def placed(tmp_path_factory, pdflatex):
    d = tmp_path_factory.mktemp("decode")
    names = _images(d)
    body = "".join(rf"\includegraphics[width=2cm]{{{n}}}\par " for n in names)
    (d / "main.tex").write_text(rf"\documentclass{{article}}\usepackage{{graphicx}}\begin{{document}}{body}\end{{document}}")
    return d, names, compile_pdf(d / "main.tex")


def test_every_image_colour_type_decodes_from_the_pdf_as_from_its_file(placed):
    import numpy as np
    import pymupdf

    from figlint.features.raster import decode_pdf_image, load_bgr

    d, names, pdf = placed
    with pymupdf.open(pdf) as doc:
        xrefs = [im[0] for im in doc[0].get_images(full=True)]
        assert len(xrefs) == len(names)
        for name, xref in zip(names, xrefs):
            got = decode_pdf_image(doc, xref)
            assert got is not None, name
            want = load_bgr(str(d / name))
            assert got.shape == want.shape, name
            # a CMYK JPEG's conversion to RGB may differ by a few levels between decoders
            tol = 8 if "CMYK" in name else 0
            assert int(np.abs(got.astype(int) - want.astype(int)).max()) <= tol, name


@pytest.fixture(scope="module")
def grey_paper(tmp_path_factory, pdflatex):
    pytest.importorskip("matplotlib")
    pytest.importorskip("rapidocr")
    from fixtures.raster_paper import build_raster_paper

    return build_raster_paper(tmp_path_factory.mktemp("grey_raster"), mode="L")


def test_a_greyscale_chart_with_tiny_labels_is_reported_from_the_pdf_as_from_its_sources(grey_paper, monkeypatch,
                                                                                         tmp_path):
    from figlint.config import Config
    from figlint.engine import run

    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path))
    got = {}
    for route, path in (("pdf", grey_paper.with_suffix(".pdf")), ("latex+pdf", grey_paper)):
        r = run([str(path)], Config()).results[0]
        assert r.error is None
        got[route] = sorted((f.figure, f.message) for f in r.findings if f.code == "FL102")
    assert [fig for fig, _m in got["pdf"]] == ["1"], got
    assert got["pdf"] == got["latex+pdf"]
