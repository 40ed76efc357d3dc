"""Printed text sizes that FL102 (tiny-text) can trust: Type 3 fonts of converted EPS figures,
sub- and superscripts, and sizes at the precision they are given in (half points).

Each cause came from real papers (an EPS-converted aastex paper read at 0.5 pt for 7-9 pt text;
exponents and subscripts of 7 pt labels reported at 5.2 pt; legend text of 6 pt figures scaled to
98 % reported at 5.9 pt). The papers here are generated and compiled with pdflatex."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.type3_pdf import write_type3_figure


@pytest.mark.parametrize("converted,coded", [(True, False), (False, False), (True, True), (False, True)])
def test_type3_text_is_measured_by_its_glyphs(tmp_path, converted, coded):
    """Glyphs named "zero" with a `d1` box, or (Origin's EPS through Ghostscript) named by their
    code, "s48", painted with `d0` and no box: their height is read from their outline."""
    from figlint.ingest.graphics import read_graphics

    pdf = write_type3_figure(tmp_path / "fig.pdf", 9.0, converted=converted, coded=coded)
    paper = read_graphics(str(pdf))
    sizes = [s.size for f in paper.figures for s in f.spans]
    assert sizes and all(abs(s - 9.0) < 0.2 for s in sizes), sizes
    for f in paper.figures:
        for s in f.spans:  # the box is as tall as the text, around its baseline
            assert 8.5 < s.bbox[3] - s.bbox[1] < 9.5


def _paper(folder: Path, figure_body: str, *, preamble: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{fix-cm}\n\\usepackage{graphicx}\n\\usepackage{tikz}\n" + preamble
        + "\\begin{document}\nFigure~\\ref{fig:a} shows the measured optical depth of each model atmosphere.\n"
        "\\begin{figure}[h]\\centering\n" + figure_body
        + "\\caption{Optical depth of the model atmospheres against wavelength.}\\label{fig:a}\n\\end{figure}\n"
        "\\end{document}\n")
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=folder, capture_output=True, timeout=120)
    assert (folder / "main.pdf").exists()
    return folder


def _fl102(folder: Path, route: str) -> list[dict]:
    target = "main.pdf" if route == "pdf" else "main.tex"
    proc = subprocess.run([sys.executable, "-m", "figlint", target, "--select", "FL102", "--format", "json", "--no-cache"],
                          cwd=folder, capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    return [f for p in doc["papers"] for f in p["findings"] if f["code"] == "FL102"]


@pytest.mark.parametrize("route", ["pdf", "latex"])
def test_converted_eps_labels_are_judged_at_their_printed_size(tmp_path, pdflatex, route):
    big = tmp_path / "big"
    big.mkdir()
    write_type3_figure(big / "plot.pdf", 8.0)
    _paper(big, "\\includegraphics{plot.pdf}\n")
    assert _fl102(big, route) == []  # 8 pt labels, shown at Tf 0.8

    small = tmp_path / "small"
    small.mkdir()
    write_type3_figure(small / "plot.pdf", 8.0)
    _paper(small, "\\includegraphics[width=100pt]{plot.pdf}\n")  # half size: 4 pt
    found = _fl102(small, route)
    assert len(found) == 1
    assert 3.8 <= found[0]["evidence"]["smallest_pt"] <= 4.2


_NODE = "\\fontsize{%s}{%s}\\selectfont "


def _tikz(*nodes: str) -> str:
    return "\\begin{tikzpicture}\\draw (0,0) rectangle (6,3);\n" + "".join(nodes) + "\\end{tikzpicture}\n"


def test_scripts_of_larger_labels_and_half_points(tmp_path, pdflatex):
    """Exponents beside 7 pt tick labels, a subscript, a rotated axis title with its exponent:
    no finding. Three labels of 4.5 pt beside a 7 pt title: a finding; one of them alone
    beside it is a stray small label in a readable figure: none. At half-point precision
    4.8 pt is a 5 pt label (not below the 5 pt default), 4.6 pt is not."""
    f7 = _NODE % (7, 8)
    f45 = _NODE % (4.5, 5)
    scripts = _tikz(
        *(f"\\node at ({x},-0.3) {{{f7}10\\raisebox{{0.9ex}}{{{f45}$-${x}}}}};\n" for x in range(1, 5)),
        f"\\node at (3,3.3) {{{f7}T\\raisebox{{-0.5ex}}{{{f45}eff}} of the model}};\n",
        f"\\node[rotate=90] at (-0.5,1.5) {{{f7}Density (Mpc/h)\\raisebox{{0.9ex}}{{{f45}3}}}};\n",
    )
    ok = _paper(tmp_path / "scripts", scripts)
    for route in ("pdf", "latex"):
        assert _fl102(ok, route) == [], route

    three = _tikz(*(f"\\node at (3,{y}) {{{f45}42{y} small}};\n" for y in (1, 2, 3)),
                  f"\\node at (3,-0.3) {{{f7}Wavelength}};\n")
    bad = _paper(tmp_path / "three", three)
    for route in ("pdf", "latex"):
        found = _fl102(bad, route)
        assert len(found) == 1 and found[0]["evidence"]["smallest_pt"] == pytest.approx(4.5, abs=0.2), route

    stray = _paper(tmp_path / "stray", _tikz(f"\\node at (3,1.5) {{{f45}423 alone}};\n",
                                             f"\\node at (3,-0.3) {{{f7}Wavelength}};\n"))
    for route in ("pdf", "latex"):
        assert _fl102(stray, route) == [], route

    def labels(pt):
        return _tikz(*(f"\\node at (3,{y}) {{{_NODE % (pt, pt + 1.5)}legend entry {y}}};\n" for y in (1, 2, 3)))

    assert _fl102(_paper(tmp_path / "near", labels(4.8)), "pdf") == []
    assert len(_fl102(_paper(tmp_path / "under", labels(4.6)), "pdf")) == 1
