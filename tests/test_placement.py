"""Graphics at print size from the LaTeX sources alone (figlint/ingest/placement.py).

Papers are written to tmp_path with PNGs of known pixel size (stdlib zlib/struct)
and matplotlib PDFs with text of known size; the expected DPI and printed font
sizes are computed here from LaTeX's own rules. With pdflatex, the same papers
are compiled and the numbers the PDF route measures must agree within 2 %, and
the text widths figlint assumes must be the ones LaTeX reports.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from figlint.ingest import load
from figlint.ingest.latex import read_latex
from figlint.ingest.placement import IN, Lengths, class_layout, document_layout, raster_info

ROOT = Path(__file__).resolve().parents[1]
BP = IN / 72.0
PNG_PX = (400, 300)
PDF_FIGSIZE_IN = (6.0, 2.0)
LABEL_PT = 10.0


# --------------------------------------------------------------------------- files

def png(path: Path, width: int, height: int, dpi: float | None = None) -> Path:
    """A grey-gradient RGB PNG of exactly width x height pixels, with a pHYs chunk when dpi is given."""
    rows = b"".join(b"\x00" + b"".join(bytes((x * 255 // max(1, width - 1), y * 255 // max(1, height - 1), 128))
                                        for x in range(width)) for y in range(height))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    body = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    if dpi:
        ppm = round(dpi / 0.0254)
        body += chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    body += chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + body)
    return path


def jpeg_header(path: Path, width: int, height: int, density: int, unit: int = 1) -> Path:
    """The headers of a baseline JPEG (SOI, JFIF APP0, SOF0, EOI): enough for a header reader."""
    app0 = b"JFIF\x00\x01\x01" + bytes([unit]) + struct.pack(">HH", density, density) + b"\x00\x00"
    sof = b"\x08" + struct.pack(">HH", height, width) + b"\x03" + b"\x01\x11\x00\x02\x11\x00\x03\x11\x00"
    data = (b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", len(app0) + 2) + app0
            + b"\xff\xc0" + struct.pack(">H", len(sof) + 2) + sof + b"\xff\xd9")
    path.write_bytes(data)
    return path


def plot_pdf(path: Path, label: str) -> Path:
    """A matplotlib PDF of PDF_FIGSIZE_IN whose only text is `label` at LABEL_PT."""
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcdefaults()
    plt.rcParams.update({"pdf.fonttype": 42, "font.family": "DejaVu Sans"})
    fig = plt.figure(figsize=PDF_FIGSIZE_IN)
    ax = fig.add_axes((0.05, 0.1, 0.9, 0.8))
    ax.plot([0, 1, 2, 3], [0, 1, 0.5, 1.5], color="#0072B2")
    ax.text(0.5, 0.5, label, fontsize=LABEL_PT, transform=ax.transAxes)
    ax.axis("off")
    fig.savefig(path, format="pdf", metadata={"Creator": None, "Producer": None, "CreationDate": None})
    plt.close(fig)
    return path


HEAT_PX = (50, 40)
HEAT_FIGSIZE_IN = (3.0, 2.4)


def heat_pdf(path: Path) -> Path:
    """A matplotlib PDF whose whole page is one embedded HEAT_PX bitmap (imshow, no resampling)."""
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcdefaults()
    fig = plt.figure(figsize=HEAT_FIGSIZE_IN)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.imshow([[(x * y) % 7 for x in range(HEAT_PX[0])] for y in range(HEAT_PX[1])], interpolation="none",
              aspect="auto")
    ax.axis("off")
    fig.savefig(path, format="pdf", metadata={"Creator": None, "Producer": None, "CreationDate": None})
    plt.close(fig)
    return path


def dpi_at(px: int, width_pt: float) -> float:
    """Effective DPI of `px` pixels printed `width_pt` TeX points wide."""
    return px / (width_pt / IN)


def label_pt(width_pt: float) -> float:
    """Printed size of the LABEL_PT label of a PDF_FIGSIZE_IN plot scaled to `width_pt` TeX points."""
    return LABEL_PT * width_pt / (PDF_FIGSIZE_IN[0] * IN)


def label_size(fig, text: str) -> float:
    sizes = [s.size for s in fig.spans if text in s.text]
    assert sizes, f"no span {text!r} in figure {fig.number}: {[s.text for s in fig.spans]}"
    return sizes[0]


# --------------------------------------------------------------------------- the document layout

def layout_of(tmp_path: Path, preamble: str) -> tuple:
    (tmp_path / "main.tex").write_text(preamble + "\n\\begin{document}\nx\n\\end{document}\n")
    paper = read_latex(str(tmp_path / "main.tex"))
    lay, _ = document_layout(paper)
    return lay


@pytest.mark.parametrize(
    "preamble, textwidth, columnwidth, body",
    [
        ("\\documentclass{article}", 345.0, 345.0, 10),
        ("\\documentclass[11pt]{article}", 360.0, 360.0, 11),
        ("\\documentclass[12pt,a4paper]{article}", 390.0, 390.0, 12),
        ("\\documentclass[twocolumn]{article}", 469.0, 229.5, 10),
        ("\\documentclass[a4paper,twocolumn]{article}", 452.0, 221.0, 10),
        ("\\documentclass{article}\n\\usepackage[margin=1in]{geometry}", 469.755, 469.755, 10),
        ("\\documentclass[a4paper]{article}\n\\usepackage[left=2cm,right=3cm]{geometry}", 455.244, 455.244, 10),
        ("\\documentclass[twocolumn]{article}\n\\usepackage[margin=1in,columnsep=20pt]{geometry}",
         469.755, 224.878, 10),
        ("\\documentclass{article}\n\\usepackage{geometry}", 430.005, 430.005, 10),
        ("\\documentclass{article}\n\\setlength{\\textwidth}{6in}", 433.62, 433.62, 10),
        # venue styles: numbers from the style files (see the placement module docstring)
        ("\\documentclass{article}\n\\usepackage[final]{neurips_2023}", 397.485, 397.485, 10),
        ("\\documentclass{article}\n\\usepackage{iclr2024_conference,times}", 397.485, 397.485, 10),
        ("\\documentclass{article}\n\\usepackage[accepted]{icml2024}", 487.823, 234.878, 10),
        ("\\documentclass[10pt,twocolumn,letterpaper]{article}\n\\usepackage[review]{cvpr}", 496.856, 237.136, 10),
        ("\\documentclass[11pt]{article}\n\\usepackage[review]{acl}", 455.244, 219.086, 11),
        ("\\documentclass[conference]{IEEEtran}", 516.0, 252.0, 10),
        ("\\documentclass[sigconf]{acmart}", 506.295, 241.148, 9),
        ("\\documentclass{llncs}", 347.124, 347.124, 10),
    ],
)
def test_text_and_column_width_of_the_class(tmp_path, preamble, textwidth, columnwidth, body):
    lay = layout_of(tmp_path, preamble)
    assert lay.textwidth == pytest.approx(textwidth, abs=0.01)
    assert lay.columnwidth == pytest.approx(columnwidth, abs=0.01)
    assert lay.body_pt == body


def test_class_layout_without_a_file():
    assert class_layout("IEEEtran", ["compsoc", "conference"]).columnwidth == pytest.approx((7 * IN - 0.25 * IN) / 2)
    assert class_layout("acmart", ["format=acmsmall"]).columns == 1
    lay = class_layout("mythesis", [])
    assert lay.textwidth == 345.0 and lay.notes  # unknown class: article rules, said so
    assert not class_layout("elsarticle", []).notes  # in the table (tests/test_class_layouts.py)


def test_length_expressions():
    L = Lengths({"linewidth": 200.0, "textwidth": 400.0}, body_pt=10.0, macros={"figw": "0.5\\linewidth"})
    assert L.eval("0.5\\linewidth") == pytest.approx(100.0)
    assert L.eval(".25\\textwidth") == pytest.approx(100.0)
    assert L.eval("0,5\\linewidth") == pytest.approx(100.0)  # TeX accepts a decimal comma
    assert L.eval("\\linewidth") == pytest.approx(200.0)
    assert L.eval("2in") == pytest.approx(2 * IN)
    assert L.eval("72bp") == pytest.approx(IN)
    assert L.eval("2.54cm") == pytest.approx(IN)
    assert L.eval("3em") == pytest.approx(30.0)
    assert L.eval("\\dimexpr\\linewidth-20pt\\relax") == pytest.approx(180.0)
    assert L.eval("(\\textwidth-2em)/2") == pytest.approx(190.0)
    assert L.eval("\\linewidth*\\real{0.3}") == pytest.approx(60.0)
    assert L.eval("\\figw") == pytest.approx(100.0)
    assert L.eval("0.5\\textheight") is None  # unknown: never guessed
    assert L.eval("0.5") is None  # a number is not a length


# --------------------------------------------------------------------------- graphics headers

def test_raster_headers(tmp_path):
    assert raster_info(str(png(tmp_path / "a.png", 123, 45))) == (123, 45, 0.0, 0.0)
    assert raster_info(str(png(tmp_path / "b.png", 600, 300, dpi=300))) == (600, 300, 300.0, 300.0)
    assert raster_info(str(jpeg_header(tmp_path / "c.jpg", 800, 600, 150))) == (800, 600, 150.0, 150.0)
    assert raster_info(str(jpeg_header(tmp_path / "d.jpg", 80, 60, 100, unit=2))) == (80, 60, 254.0, 254.0)
    assert raster_info(str(jpeg_header(tmp_path / "e.jpg", 80, 60, 1, unit=0))) == (80, 60, 0.0, 0.0)
    (tmp_path / "f.png").write_bytes(b"not an image")
    assert raster_info(str(tmp_path / "f.png")) is None


# --------------------------------------------------------------------------- placement

TWO_COL_TW, TWO_COL_CW = 469.0, 229.5  # article 10pt letterpaper twocolumn (checked against pdflatex below)

PARA = ("We measure the detector response under several loads and report the results in the figures "
        "below; each figure is discussed in the text where it is cited, and the numbers agree with "
        "the tables of the appendix. ")


def paper_files(root: Path) -> Path:
    png(root / "photo.png", *PNG_PX)
    png(root / "hires.png", 1200, 900, dpi=600)
    jpeg_header(root / "scan.jpg", 640, 480, 200)
    for name in ("wide", "sub", "half", "boxed", "mini", "plain"):
        plot_pdf(root / f"{name}.pdf", f"Label{name}")
    heat_pdf(root / "heat.pdf")
    (root / "old.eps").write_text("%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n")
    figures = [
        # 1: PNG at 0.8\linewidth in a column
        "\\begin{figure}[t]\\centering\n\\includegraphics[width=0.8\\linewidth]{photo}\n"
        "\\caption{Photo at eighty percent of the column.}\\label{fig:photo}\n\\end{figure}",
        # 2: figure* : PDF at 0.9\textwidth
        "\\begin{figure*}[t]\\centering\n\\includegraphics[width=0.9\\textwidth]{wide.pdf}\n"
        "\\caption{A wide plot across both columns.}\\label{fig:wide}\n\\end{figure*}",
        # 3: two subfigures of 0.48\linewidth with \linewidth graphics
        "\\begin{figure}[t]\\centering\n"
        "\\begin{subfigure}[t]{0.48\\linewidth}\n\\includegraphics[width=\\linewidth]{photo.png}\n"
        "\\caption{Left}\\end{subfigure}\\hfill\n"
        "\\begin{subfigure}[t]{0.48\\linewidth}\n\\includegraphics[width=\\textwidth]{sub}\n"
        "\\caption{Right}\\end{subfigure}\n"
        "\\caption{Two panels side by side.}\\label{fig:sub}\n\\end{figure}",
        # 4: scale=0.5, and a file that records its own resolution, at natural size
        "\\begin{figure}[t]\\centering\n\\includegraphics[scale=0.5]{half}\n"
        "\\includegraphics{hires}\n"
        "\\caption{Half-size plot and a high-resolution image.}\\label{fig:half}\n\\end{figure}",
        # 5: \resizebox to the column, and height= with keepaspectratio
        "\\begin{figure}[t]\\centering\n\\resizebox{\\columnwidth}{!}{\\includegraphics{boxed}}\n"
        "\\includegraphics[height=1in,width=\\linewidth,keepaspectratio]{scan.jpg}\n"
        "\\caption{A resized plot and a scan.}\\label{fig:boxed}\n\\end{figure}",
        # 6: figure* with a minipage of 0.3\textwidth, an explicit width, and an EPS
        "\\begin{figure*}[b]\\centering\n\\begin{minipage}{0.3\\textwidth}\n"
        "\\includegraphics[width=\\textwidth]{mini}\n\\end{minipage}\\hfill\n"
        "\\begin{minipage}{0.6\\textwidth}\\centering\n\\includegraphics[width=2in]{plain}\n"
        "\\end{minipage}\n"
        "\\caption{Minipages across the page.}\\label{fig:mini}\n\\end{figure*}",
        # 7: a PDF that embeds a bitmap, at 0.7\linewidth
        "\\begin{figure}[t]\\centering\n\\includegraphics[width=0.7\\linewidth]{heat}\n"
        "\\caption{A heat map stored as a bitmap inside a PDF.}\\label{fig:heat}\n\\end{figure}",
        # 8: figure*, a PNG without resolution at natural size (72 DPI, as pdfTeX assumes) and one rotated
        "\\begin{figure*}[t]\\centering\n\\includegraphics{photo}\\hfill\n"
        "\\includegraphics[angle=90,width=1in]{scan}\n"
        "\\caption{A photo at its natural size and a scan turned sideways.}\\label{fig:natural}\n\\end{figure*}",
        # 9: \parbox, \scalebox and adjustbox around graphics, and a trimmed, clipped bitmap
        "\\begin{figure}[t]\\centering\n\\parbox{0.5\\linewidth}{\\includegraphics[width=\\linewidth]{photo}}"
        "\\scalebox{0.5}{\\includegraphics[width=\\linewidth]{sub}}\n"
        "\\begin{adjustbox}{max width=\\linewidth}\\includegraphics{half}\\end{adjustbox}\n"
        "\\includegraphics[trim=0 0 200 0,clip,width=1in]{photo}\n"
        "\\caption{Boxes around graphics.}\\label{fig:boxes}\n\\end{figure}",
    ]
    body = []
    for k, f in enumerate(figures, 1):
        label = f.split("\\label{")[1].split("}")[0]
        body.append(PARA * 3 + f"Figure~\\ref{{{label}}} shows measurement {k} in detail. " + PARA)
        body.append(f)
    tex = ("\\documentclass[twocolumn]{article}\n\\usepackage{graphicx,subcaption,adjustbox}\n"
           "\\begin{document}\n\\section{Results}\n" + "\n\n".join(body) + "\n\n" + PARA * 6 + "\n\\end{document}\n")
    (root / "main.tex").write_text(tex)
    return root / "main.tex"


EXPECTED = {
    # figure -> ([raster DPIs], {label text: printed pt})
    "1": ([dpi_at(PNG_PX[0], 0.8 * TWO_COL_CW)], {}),
    "2": ([], {"Labelwide": label_pt(0.9 * TWO_COL_TW)}),
    "3": ([dpi_at(PNG_PX[0], 0.48 * TWO_COL_CW)], {"Labelsub": label_pt(0.48 * TWO_COL_CW)}),
    "4": ([600.0], {"Labelhalf": LABEL_PT / 2}),
    "5": ([480 / 1.0], {"Labelboxed": label_pt(TWO_COL_CW)}),  # 1in high: 480 px per inch
    "6": ([], {"Labelmini": label_pt(0.3 * TWO_COL_TW), "Labelplain": label_pt(2 * IN)}),
    "7": ([dpi_at(HEAT_PX[0], 0.7 * TWO_COL_CW)], {}),
    "8": ([72.0, 480.0], {}),  # 480 px of the scan's height across the 1in width
    "9": ([200.0, dpi_at(PNG_PX[0], 0.5 * TWO_COL_CW)],  # trimmed: 200 of the 400 px across 1in
          {"Labelsub": label_pt(0.5 * TWO_COL_CW), "Labelhalf": label_pt(TWO_COL_CW)}),
}


@pytest.fixture(scope="module")
def source_paper(tmp_path_factory):
    root = tmp_path_factory.mktemp("placement")
    tex = paper_files(root)
    return tex, load(str(tex))


def test_sources_alone_give_dpi_and_font_size_at_print_size(source_paper):
    _, paper = source_paper
    assert paper.pdf_path is None
    assert paper.body_font_size == 10.0
    assert paper.extra["source_layout"]["columnwidth_pt"] == pytest.approx(TWO_COL_CW)
    for number, (dpis, labels) in EXPECTED.items():
        fig = paper.figure(number)
        assert fig.extra["content_source"] == "graphics-files"
        got = sorted(i.effective_dpi for i in fig.images)
        assert got == pytest.approx(sorted(dpis), rel=1e-3), f"Figure {number}"
        for text, size in labels.items():
            assert label_size(fig, text) == pytest.approx(size, abs=0.011), f"Figure {number} {text}"


def test_placed_boxes_and_records(source_paper):
    _, paper = source_paper
    img = paper.figure("1").images[0]
    assert img.bbox[0] == 0 and img.bbox[1] == 0
    assert img.bbox[2] == pytest.approx(0.8 * TWO_COL_CW / BP, abs=0.01)  # PDF points
    assert img.bbox[3] == pytest.approx(img.bbox[2] * PNG_PX[1] / PNG_PX[0], abs=0.01)
    assert img.dpi_x == pytest.approx(img.dpi_y)
    sub = paper.figure("3")
    # the two panels sit side by side in one frame, not on top of each other
    assert sub.spans[0].bbox[0] >= sub.images[0].bbox[2] - 0.01
    assert [r["frames"] for r in sub.extra["placement"]] == [["subfigure"], ["subfigure"]]
    assert sub.bbox[2] <= TWO_COL_CW / BP
    assert paper.figure("5").extra["placement"][0]["how"].endswith("\\resizebox")
    assert paper.figure("2").drawings, "vector paths are copied too"


def test_eps_missing_and_empty_files_are_skipped(tmp_path):
    png(tmp_path / "ok.png", 100, 100)
    (tmp_path / "empty.png").write_bytes(b"")
    (tmp_path / "fig.eps").write_text("%!PS-Adobe-3.0 EPSF-3.0\n")
    (tmp_path / "main.tex").write_text(
        "\\documentclass[11pt]{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "\\begin{figure}\\includegraphics[width=\\linewidth]{fig.eps}\\caption{E.}\\end{figure}\n"
        "\\begin{figure}\\includegraphics{missing.png}\\includegraphics{empty.png}\\caption{M.}\\end{figure}\n"
        "\\begin{figure}\\includegraphics[width=0.3\\textheight]{ok.png}\\caption{H.}\\end{figure}\n"
        "\\begin{figure}\\includegraphics[width=\\linewidth]{ok.png}\\caption{K.}\\end{figure}\n"
        "\\end{document}\n")
    paper = load(str(tmp_path / "main.tex"))
    eps, missing, tall, ok = paper.figures
    assert not eps.images and eps.extra["placement_skipped"][0]["file"] == "fig.eps"
    assert not missing.images and "content_source" not in missing.extra
    assert not tall.images and "size not computable" in tall.extra["placement_skipped"][0]["reason"]
    assert ok.images[0].effective_dpi == pytest.approx(dpi_at(100, 360.0))
    assert paper.body_font_size == 11.0


def test_user_lengths_macros_and_graphicspath(tmp_path):
    (tmp_path / "img").mkdir()
    png(tmp_path / "img" / "a.png", 300, 100)
    (tmp_path / "defs.tex").write_text("\\newlength{\\figw}\n\\setlength{\\figw}{0.5\\textwidth}\n"
                                       "\\newcommand{\\halfw}{0.25\\linewidth}\n")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\input{defs}\n\\graphicspath{{img/}}\n"
        "\\begin{document}\n"
        "\\begin{figure}\\includegraphics[width=\\figw]{a}\\caption{A.}\\end{figure}\n"
        "\\begin{figure}\\begin{minipage}{0.5\\linewidth}\\includegraphics[width=\\halfw]{a}\\end{minipage}"
        "\\caption{B.}\\end{figure}\n"
        "\\begin{figure}\\includegraphics[angle=90,width=1in]{a}\\caption{C.}\\end{figure}\n"
        "\\end{document}\n")
    a, b, c = load(str(tmp_path / "main.tex")).figures
    assert a.images[0].effective_dpi == pytest.approx(dpi_at(300, 0.5 * 345))
    assert b.images[0].effective_dpi == pytest.approx(dpi_at(300, 0.25 * 0.5 * 345))
    # rotated first, then 1in wide: the image's own height (100 px) spans the inch
    assert c.images[0].dpi_y == pytest.approx(100.0) and c.images[0].dpi_x == pytest.approx(100.0)


def test_boxes_strips_and_trim(tmp_path):
    png(tmp_path / "a.png", 300, 100)
    body = [
        "\\begin{strip}\\includegraphics[width=\\linewidth]{a}\\captionof{figure}{Strip.}\\end{strip}",
        "\\begin{figure}\\parbox{0.5\\linewidth}{\\includegraphics[width=\\linewidth]{a}}\\caption{P.}\\end{figure}",
        "\\begin{figure}\\scalebox{0.5}{\\includegraphics[width=\\linewidth]{a}}\\caption{S.}\\end{figure}",
        "\\begin{figure}\\begin{adjustbox}{max width=\\linewidth}\\includegraphics{a}\\end{adjustbox}"
        "\\caption{A.}\\end{figure}",
        "\\begin{figure}\\includegraphics[trim=0 0 150 0,clip,width=1in]{a}\\caption{T.}\\end{figure}",
        "\\begin{figure}\\includegraphics[width=\\linewidth,height=1in]{a}\\caption{D.}\\end{figure}",
    ]
    (tmp_path / "main.tex").write_text(
        "\\documentclass[twocolumn]{article}\n\\usepackage{graphicx,cuted,capt-of,adjustbox}\n\\begin{document}\n"
        + "\n".join(body) + "\n\\end{document}\n")
    strip, parbox, scaled, adjusted, trimmed, distorted = load(str(tmp_path / "main.tex")).figures
    assert strip.images[0].effective_dpi == pytest.approx(dpi_at(300, TWO_COL_TW))
    assert parbox.images[0].effective_dpi == pytest.approx(dpi_at(300, 0.5 * TWO_COL_CW))
    assert scaled.images[0].effective_dpi == pytest.approx(dpi_at(300, 0.5 * TWO_COL_CW))
    # natural size 300 bp is wider than the column: adjustbox shrinks it to the column
    assert adjusted.images[0].effective_dpi == pytest.approx(dpi_at(300, TWO_COL_CW))
    # half of the bitmap (150 px) across 1 inch
    assert trimmed.images[0].dpi_x == pytest.approx(150.0)
    assert distorted.images[0].dpi_x == pytest.approx(dpi_at(300, TWO_COL_CW))
    assert distorted.images[0].dpi_y == pytest.approx(100.0)


# --------------------------------------------------------------------------- against pdflatex

def _pdflatex() -> str:
    exe = shutil.which("pdflatex")
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex not found [CI is set, so this is an error, not a skip]")
        pytest.skip("pdflatex not found")
    return exe


def _compile(tex: Path) -> Path:
    exe = _pdflatex()
    for _ in range(2):
        proc = subprocess.run([exe, "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=tex.parent,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout[-3000:]
    return tex.with_suffix(".pdf")


@pytest.mark.parametrize(
    "preamble",
    [
        "\\documentclass{article}",
        "\\documentclass[11pt,a4paper]{article}",
        "\\documentclass[twocolumn]{article}",
        "\\documentclass[12pt,twocolumn,a4paper]{article}",
        "\\documentclass{article}\n\\usepackage[margin=2cm]{geometry}",
        "\\documentclass[twocolumn]{article}\n\\usepackage[left=1in,right=0.75in,columnsep=0.3in]{geometry}",
        "\\documentclass{article}\n\\usepackage{geometry}\n\\geometry{a4paper,textwidth=15cm}",
        "\\documentclass{article}\n\\setlength{\\textwidth}{5in}\n\\addtolength{\\textwidth}{1cm}",
        "\\documentclass{article}\n\\usepackage[top=1in]{geometry}\n\\setlength{\\textwidth}{6in}",
        "\\documentclass[a4paper]{article}\n\\usepackage[margin=1in]{geometry}\n\\geometry{left=3cm}",
        "\\documentclass{article}\n\\usepackage[margin=1in]{geometry}\n\\newgeometry{top=2cm}",
        "\\documentclass[twoside]{report}\n\\usepackage[paperwidth=20cm,left=1cm]{geometry}",
    ],
)
def test_widths_agree_with_latex(tmp_path, preamble):
    tex = tmp_path / "main.tex"
    tex.write_text(preamble + "\n\\begin{document}\n\\typeout{@@TW=\\the\\textwidth@@CW=\\the\\columnwidth@@}\n"
                   "x\n\\end{document}\n")
    _compile(tex)
    line = next(l for l in tex.with_suffix(".log").read_text().splitlines() if l.startswith("@@TW="))
    tw, cw = (float(v.rstrip("pt")) for v in line.strip("@").replace("TW=", "").split("@@CW="))
    lay, _ = document_layout(read_latex(str(tex)))
    assert lay.textwidth == pytest.approx(tw, abs=0.01)
    assert lay.columnwidth == pytest.approx(cw, abs=0.01)


def test_sources_agree_with_the_compiled_pdf(tmp_path):
    """Source-only DPI and text sizes match what the PDF route measures on the compiled paper (2 %)."""
    _pdflatex()
    from figlint.ingest.pdf import read_pdf

    tex = paper_files(tmp_path)
    sources = load(str(tex))  # no PDF yet: graphics files
    assert sources.pdf_path is None
    pdf = _compile(tex)
    printed = read_pdf(str(pdf))
    compared = 0
    for number, (dpis, labels) in EXPECTED.items():
        src_fig, pdf_fig = sources.figure(number), printed.figure(number)
        assert pdf_fig is not None, f"the PDF route did not find Figure {number}"
        want = sorted(i.effective_dpi for i in src_fig.images)
        got = sorted(i.effective_dpi for i in pdf_fig.images)
        assert len(got) == len(want), f"Figure {number}: {got} vs {want}"
        for a, b in zip(want, got):
            assert a == pytest.approx(b, rel=0.02), f"Figure {number}: DPI {a:.1f} from sources, {b:.1f} in the PDF"
            compared += 1
        for text in labels:
            a, b = label_size(src_fig, text), label_size(pdf_fig, text)
            assert a == pytest.approx(b, rel=0.02), f"Figure {number} {text}: {a} pt from sources, {b} pt in the PDF"
            compared += 1
    assert compared == 17


# --------------------------------------------------------------------------- the CLI, end to end

def _cli_findings(target: Path) -> dict:
    proc = subprocess.run([sys.executable, "-m", "figlint", str(target), "--format", "json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    (paper,) = json.loads(proc.stdout)["papers"]
    assert paper["error"] is None, paper["error"]
    return paper


def test_cli_reports_low_dpi_and_tiny_text_without_a_pdf(tmp_path):
    src = ROOT / "examples" / "paper"
    dst = tmp_path / "paper"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("main.pdf", "*.aux", "*.log", "*.synctex.gz"))
    assert not (dst / "main.pdf").exists()
    paper = _cli_findings(dst / "main.tex")
    found = {(f["code"], f["figure"] or "") for f in paper["findings"]}
    assert ("FL101", "2") in found
    assert ("FL102", "3") in found
    low = next(f for f in paper["findings"] if f["code"] == "FL101")
    assert low["evidence"]["effective_dpi"] == pytest.approx(49.2, abs=0.1)  # 160 px at 3.25 in
    assert low["location"]["file"].endswith("main.tex") and low["location"]["line"]
    tiny = next(f for f in paper["findings"] if f["code"] == "FL102")
    assert tiny["evidence"]["smallest_pt"] == pytest.approx(4.0)
    # the sources alone find what the compiled PDF shows: the same (code, figure) pairs
    printed = _cli_findings(src / "main.pdf")
    assert found == {(f["code"], f["figure"] or "") for f in printed["findings"]}
