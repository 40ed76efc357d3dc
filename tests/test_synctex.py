"""Sources with their PDF: the SyncTeX file a build leaves beside the PDF binds each figure
environment to the figure printed where its lines printed.

Without it, a source figure is bound to a printed one by number and caption text. A paper
whose captions print no label (`\\captionsetup{labelformat=empty}`, a figure's number set by
hand, a class the sources cannot be simulated for) has printed figures the PDF route cannot
number: each source figure was reported as missing from the PDF (FL008) and linted without
its printed content. Papers are compiled with pdflatex (-synctex=1, as latexmk -synctex=1,
Overleaf and editors build).
"""

from __future__ import annotations

import gzip
import shutil

import pytest

from fixtures.pdf_build import compile_tex

FILLER = " ".join(f"Sentence {i} of this part says nothing about the figures." for i in range(60))
IMAGES = {"a.png": ((600, 400), (200, 40, 40)), "b.png": ((500, 300), (40, 40, 200))}


def _tex(unlabelled: bool) -> str:
    style = "\\usepackage{caption}\n\\captionsetup{labelformat=empty}\n" if unlabelled else ""
    return ("\\documentclass{article}\n\\usepackage[margin=1in]{geometry}\n\\usepackage{graphicx}\n" + style +
            "\\begin{document}\n" + FILLER + "\n\n" + FILLER + "\n\n"
            "Figure~\\ref{fig:a} shows the first result and Figure~\\ref{fig:b} the second one.\n\n"
            "\\begin{figure}[t]\n\\centering\n\\includegraphics[width=3in]{a.png}\n"
            "\\caption{Results of the first experiment, with the baseline in grey.}\n\\label{fig:a}\n\\end{figure}\n\n"
            "\\begin{figure}[b]\n\\centering\n\\includegraphics[width=2in]{b.png}\n"
            "\\caption{Results of the second experiment over ten seeds.}\n\\label{fig:b}\n\\end{figure}\n"
            + FILLER + "\n\n" + FILLER + "\n\\end{document}\n")


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """The papers, each compiled once: {name: folder}. Tests that change a folder copy it."""
    if shutil.which("pdflatex") is None:
        return None
    root = tmp_path_factory.mktemp("synctex")
    short = _tex(unlabelled=True).replace(FILLER + "\n\n" + FILLER + "\n\\end", "\\end")
    out = {}
    for name, tex, sync in (("labelled", _tex(unlabelled=False), True), ("unlabelled", _tex(unlabelled=True), True),
                            ("plain", _tex(unlabelled=True), False), ("short", short, True)):
        out[name] = root / name
        out[name].mkdir()
        compile_tex(out[name], tex, IMAGES, synctex=sync)
    return out


def _copy(builds, name, tmp_path):
    dst = tmp_path / name
    shutil.copytree(builds[name], dst)
    return dst


def _image_boxes(pdf: str) -> list[tuple[int, tuple]]:
    import pymupdf

    doc = pymupdf.open(pdf)
    return [(p.number + 1, tuple(i["bbox"])) for p in doc for i in p.get_image_info()]


def _inside(inner, outer, tol=1.0) -> bool:
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


def test_each_environment_is_placed_where_its_lines_printed(builds, pdflatex):
    from figlint.ingest import synctex
    from figlint.ingest.latex import read_latex
    from figlint.ingest.merge import _printed_places
    from figlint.ingest.pdf import read_pdf

    folder = builds["labelled"]
    pdf = str(folder / "main.pdf")
    assert synctex.find(pdf) is not None
    tex, printed = read_latex(str(folder / "main.tex")), read_pdf(pdf)
    places = _printed_places(tex, printed)
    images = _image_boxes(pdf)
    assert len(images) == 2 and len(tex.figures) == 2
    for fig, (page, image) in zip(tex.figures, images):
        got_page, box = places[id(fig)]
        assert got_page == page
        # the box holds the picture at its printed size (graphicx scales a box built at the
        # picture's own size: that inner box is not where it printed) and the caption below it
        assert _inside(image, box), (image, box)
        assert box[3] - box[1] < (image[3] - image[1]) + 60, box
    # the ordinary route binds them by number, to the same printed figures
    assert [f.page for f in printed.figures] == [p for p, _ in images]


def test_unlabelled_captions_bind_to_their_printed_figures(builds, pdflatex):
    from figlint.ingest import load

    without, with_sync = builds["plain"], builds["unlabelled"]

    plain = load(str(without / "main.tex"))
    # what the ordinary binding makes of it: no printed figure has a number to match
    assert [p.code for p in plain.problems] == ["FL008", "FL008"]
    assert all(f.bbox is None for f in plain.figures)

    paper = load(str(with_sync / "main.tex"))
    assert not [p for p in paper.problems if p.code == "FL008"], paper.problems
    images = _image_boxes(str(with_sync / "main.pdf"))
    assert [(f.page, f.bbox) for f in paper.figures] == [(p, b) for p, b in images] or \
        all(f.page == p and _inside(b, f.bbox, 15) for f, (p, b) in zip(paper.figures, images))
    assert [f.number for f in paper.figures] == ["1", "2"]
    assert all(f.extra.get("content_source") == "pdf" for f in paper.figures)


def test_a_synctex_file_that_is_not_this_builds_is_ignored(builds, tmp_path, pdflatex):
    from figlint.ingest import load

    short, long_ = builds["short"], _copy(builds, "plain", tmp_path)
    # another build's record (fewer pages): positions of another PDF are no evidence
    shutil.copy(short / "main.synctex.gz", long_ / "main.synctex.gz")
    paper = load(str(long_ / "main.tex"))
    assert [p.code for p in paper.problems] == ["FL008", "FL008"]
    # a damaged or foreign file is no evidence either, and no error
    for data in (b"not gzip at all", gzip.compress(b"SyncTeX Version:1\nContent:\n{1\n(1,x:y\n"),
                 gzip.compress(b"\xff" * 1000)):
        (long_ / "main.synctex.gz").write_bytes(data)
        paper = load(str(long_ / "main.tex"))
        assert [p.code for p in paper.problems] == ["FL008", "FL008"]


def test_inputs_recorded_on_another_machine_are_the_papers_files():
    from pathlib import Path

    from figlint.ingest.synctex import _relative

    sources = ["main.tex", "sections/results.tex", "results.tex"]
    root = Path("/home/author/paper")
    assert _relative("/home/author/paper/./main.tex", root, sources) == "main.tex"
    # an Overleaf download records its build folder
    assert _relative("/compile/sections/results.tex", root, sources) == "sections/results.tex"
    assert _relative("/compile/results.tex", root, sources) == "results.tex"
    assert _relative("/usr/share/texlive/texmf-dist/tex/latex/base/article.cls", root, sources) is None


def test_a_synctex_file_older_than_its_pdf_is_a_former_builds(builds, tmp_path, pdflatex):
    import os

    from figlint.ingest import load

    folder = _copy(builds, "unlabelled", tmp_path)
    pdf = str(folder / "main.pdf")
    assert not [p for p in load(str(folder / "main.tex")).problems if p.code == "FL008"]
    # the PDF built again later without -synctex: the old record may name moved lines
    t = os.path.getmtime(pdf)
    os.utime(folder / "main.synctex.gz", (t - 600, t - 600))
    assert [p.code for p in load(str(folder / "main.tex")).problems] == ["FL008", "FL008"]
