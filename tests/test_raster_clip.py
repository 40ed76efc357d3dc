"""Text in the part of a raster image that a clip cuts away does not print, so it is not read.

A screenshot included with `\\includegraphics[trim=..., clip]` prints only part of its pixels;
the image stream (and the file) still holds all of them. The raster text reading mapped every
OCR'd word onto the whole placed image and kept those outside the printed part: a thesis's
cropped screenshots gave FL102 (tiny text) and FL106 (low contrast) for interface words no
reader sees (field audit, audit38a). The same image, trimmed to show its tiny words, still gets
FL102: on the PDF, the sources with the PDF and the sources alone alike (there the placement of a
raster file records the whole file's box beside the part its clip prints, as the PDF does).
"""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("rapidocr")

from figlint.config import Config  # noqa: E402
from figlint.engine import run  # noqa: E402

from fixtures.pdf_build import compile_tex  # noqa: E402

ROUTES = ["pdf", "latex+pdf", "sources only"]

# The image is 6 x 2 in at 300 DPI: large words on its left half, rows of 3.5 pt interface
# words on its right half. Figure 1 prints the left half only (the right 3 in trimmed and
# clipped), Figure 2 the right half only (the left 3 in trimmed), both at their natural size.
TEX = r"""\documentclass{article}
\usepackage{graphicx}
\usepackage[hidelinks]{hyperref}
\begin{document}
Figure~\ref{fig:left} shows the settings window of the tool with its title in large type.
\begin{figure}[h]
\centering
\includegraphics[trim=0 0 216 0, clip]{window.png}
\caption{The settings window of the tool, its title bar cropped to the left half.}
\label{fig:left}
\end{figure}
Figure~\ref{fig:right} shows the buttons of the same window, which print very small.
\begin{figure}[h]
\centering
\includegraphics[trim=216 0 0 0, clip]{window.png}
\caption{The buttons of the settings window, cropped to the right half.}
\label{fig:right}
\end{figure}
\end{document}
"""


def _window(path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(6, 2), dpi=300)
    fig.text(0.04, 0.55, "Settings", fontsize=22)
    fig.text(0.04, 0.25, "Project overview", fontsize=14)
    for row, words in enumerate(("Fade Hide Others", "Apply Reset Cancel", "Window Layers Help")):
        fig.text(0.56, 0.75 - 0.2 * row, words, fontsize=3.5)
    fig.savefig(path, dpi=300)
    plt.close(fig)


@pytest.fixture(scope="module")
def results(tmp_path_factory, pdflatex):
    folder = tmp_path_factory.mktemp("raster_clip")
    _window(folder / "window.png")
    pdf = compile_tex(folder, TEX)
    src = tmp_path_factory.mktemp("raster_clip_sources")
    shutil.copy(folder / "main.tex", src / "main.tex")
    shutil.copy(folder / "window.png", src / "window.png")
    paths = {"pdf": pdf, "latex+pdf": str(folder / "main.tex"), "sources only": str(src / "main.tex")}
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FIGLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        for route in ROUTES:
            r = run([paths[route]], Config()).results[0]
            assert r.error is None
            out[route] = r
    return out


@pytest.mark.parametrize("route", ROUTES)
def test_words_a_clip_cuts_away_are_not_read(results, route):
    fl102 = {f.figure for f in results[route].findings if f.code == "FL102"}
    assert fl102 == {"2"}, [f"{f.code} {f.figure} {f.message}" for f in results[route].findings]


def test_the_three_routes_measure_the_printed_words_alike(results):
    sizes = {route: [f.evidence["smallest_pt"] for f in results[route].findings if f.code == "FL102"] for route in ROUTES}
    assert sizes["pdf"] == sizes["latex+pdf"] == sizes["sources only"]
    assert 3.0 <= sizes["pdf"][0] <= 4.2  # made at 3.5 pt, printed at its natural size
