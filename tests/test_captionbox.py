"""Figures captioned with the caption package's `\\captionbox`, read as pdflatex prints them.

`\\captionbox[list entry]{caption}[width][inner pos]{content}` sets a caption in a box with the
content it captions; two side by side in one float are two figures, each with its own number.
The caption is a `\\caption` inside a `\\parbox`: a `\\label` in the caption argument names the
figure, one after the box or in its content prints "??" (the .aux says so). `\\captionbox*`
prints no number. Both routes that read the sources (alone, and with the PDF) must number and
caption these figures, give each its own graphic, and bind the labels as LaTeX does.
"""

from __future__ import annotations

import re
import shutil

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest import load
from figlint.ingest.latex import read_latex
from fixtures.pdf_build import compile_tex

needs_pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")

TEX = r"""\documentclass{article}
\usepackage{graphicx}
\usepackage{caption}
\begin{document}
\section{Results}
Figure~\ref{fig:runs} shows the runs and Figure~\ref{fig:short} the short one, against the
baseline of Figure~\ref{fig:plain}; Figure~\ref{fig:after} is cited too.
\begin{figure}[h]
\centering
\captionbox{Average error of ten runs for each learning rate.\label{fig:runs}}{\includegraphics[width=4cm]{a.png}}
\captionbox{Error against epoch for the two networks, one column per algorithm.\label{fig:epochs}}{%
  \includegraphics[width=4cm]{b.png}}
\end{figure}
\begin{figure}[h]
\centering
\captionbox[Short entry]{Samples drawn from the trained generator.\label{fig:short}}[5cm][l]{\includegraphics[width=4cm]{c.png}}
\captionbox{Latent space walk between two samples.}{\includegraphics[width=4cm]{d.png}}\label{fig:after}
\captionbox*{An unnumbered companion box.}{\rule{2cm}{1cm}}
\end{figure}
\begin{figure}[h]
\centering
\includegraphics[width=4cm]{f.png}
\caption{Baseline method on the same data.}\label{fig:plain}
\end{figure}
\end{document}
"""
IMAGES = {name: ((200, 120), colour) for name, colour in (
    ("a.png", (200, 60, 60)), ("b.png", (60, 160, 60)), ("c.png", (60, 60, 200)),
    ("d.png", (200, 160, 40)), ("f.png", (40, 160, 200)))}
CAPTIONS = {
    "1": "Average error of ten runs for each learning rate.",
    "2": "Error against epoch for the two networks, one column per algorithm.",
    "3": "Samples drawn from the trained generator.",
    "4": "Latent space walk between two samples.",
    "5": "Baseline method on the same data.",
}
GRAPHICS = {"1": ["a.png"], "2": ["b.png"], "3": ["c.png"], "4": ["d.png"], "5": ["f.png"]}
LABELS = {"1": ["fig:runs"], "2": ["fig:epochs"], "3": ["fig:short"], "4": [], "5": ["fig:plain"]}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("captionbox")
    compile_tex(folder, TEX, IMAGES)
    return folder


def _read(paper):
    return {f.number: (f.caption.text if f.caption else None, f.graphics, sorted(f.labels)) for f in paper.figures}


@needs_pdflatex
def test_labels_print_what_the_aux_records(built):
    printed = dict(re.findall(r"\\newlabel\{([\w:]+)\}\{\{([^{}]*)\}", (built / "main.aux").read_text()))
    assert {k: printed.get(k) for k in ("fig:runs", "fig:epochs", "fig:short", "fig:plain")} == \
        {"fig:runs": "1", "fig:epochs": "2", "fig:short": "3", "fig:plain": "5"}
    assert "fig:after" not in printed  # caption's cross-check: the reference prints ??
    labels = read_latex(str(built / "main.tex")).extra["labels"]
    assert {k: labels.get(k) for k in printed} == printed


@needs_pdflatex
def test_sources_alone_number_and_caption_each_box(built):
    paper = read_latex(str(built / "main.tex"))
    assert _read(paper) == {n: (CAPTIONS[n], GRAPHICS[n], LABELS[n]) for n in CAPTIONS}
    short = next(f for f in paper.figures if f.number == "3")
    assert short.caption.short == "Short entry"


@needs_pdflatex
def test_sources_with_the_pdf_bind_each_box_to_its_printed_figure(built):
    paper = load(str(built / "main.tex"), pdf=str(built / "main.pdf"))
    assert _read(paper) == {n: (CAPTIONS[n], GRAPHICS[n], LABELS[n]) for n in CAPTIONS}
    boxes = {f.number: f.bbox for f in paper.figures}
    assert all(boxes[n] is not None for n in CAPTIONS)
    assert boxes["1"][2] <= boxes["2"][0]  # side by side, each its own graphic
    res = lint_path(str(built / "main.tex"), Config(select=["ALL"], pdf=str(built / "main.pdf")))
    assert res.error is None, res.error
    found = {(f.code, f.figure) for f in res.findings}
    assert not {c for c, _ in found} & {"FL008", "FL201"}
    # the one label no reference uses is the second box's: the figure is never cited
    assert ("FL301", "2") in found
