"""PDF route: in a double-spaced document a caption stands far below its graphic, and is its.

A thesis class that double-spaces everything (its \\baselinestretch 2, floats included, as
the University of Washington's uwthesis does) sets a float's caption 50-60 pt below the
graphic: the caption's skip and the line spacing around it grow with the spacing. The PDF
route allowed a caption 40 pt of reach, so eight of a thesis's fourteen figures were read as
captionless graphics beside captions with no figure. Its hyperref anchor, raised a
double-spaced \\baselineskip above the caption, also fell on the graphic's lower edge and was
taken for the float's top. The reach now grows with the document's line spacing, and an
anchor that a graphic runs across is not a wall. The papers are compiled with pdflatex; the
caption skip is set to the distance that class gives.
"""

from __future__ import annotations

from fixtures.pdf_build import compile_tex

FILLER = " ".join(f"Sentence {i} of this chapter says nothing about the figures." for i in range(25))
CAPTIONS = (("0.8", "a", "The board with its peripherals attached."),
            ("1", "b", "Example of a pulse sequence with both factors set to one."),
            ("0.6", "c", "Two pulses, the second with half the amplitude of the first."))
IMAGES = {"a.png": ((800, 500), (90, 140, 90)), "b.png": ((900, 300), (140, 90, 90)),
          "c.png": ((600, 400), (90, 90, 140))}


def _thesis(folder, stretch: str, skip: str) -> str:
    body = ""
    for width, name, caption in CAPTIONS:
        body += (FILLER + f"\n\nFigure~\\ref{{fig:{name}}} shows part of the set-up.\n"
                 "\\begin{figure}[ht]\n\\setlength{\\abovecaptionskip}{" + skip + "}\n\\centering\n"
                 f"\\includegraphics[width={width}\\linewidth]{{{name}.png}}\n\\caption{{{caption}}}\n"
                 f"\\label{{fig:{name}}}\n\\end{{figure}}\n\n")
    tex = ("\\documentclass[12pt]{report}\n\\usepackage[margin=1in]{geometry}\n\\usepackage{graphicx}\n"
           "\\def\\baselinestretch{" + stretch + "}\n\\usepackage{hyperref}\n\\begin{document}\n"
           "\\chapter{Background}\n" + body + FILLER + "\n\\end{document}\n")
    folder.mkdir()
    return compile_tex(folder, tex, IMAGES)


def _gaps(pdf: str) -> list[float]:
    """Caption top minus the bottom of the image above it, per figure."""
    import pymupdf

    out = []
    for page in pymupdf.open(pdf):
        caps = [b["bbox"][1] for b in page.get_text("dict")["blocks"]
                if b["type"] == 0 and b["lines"][0]["spans"][0]["text"].startswith("Figure")]
        for info in page.get_image_info():
            below = [c - info["bbox"][3] for c in caps if c > info["bbox"][3]]
            out.append(min(below))
    return out


def _read(pdf: str):
    from figlint.ingest.pdf import read_pdf

    return [(f.number, f.bbox is not None, f.caption is not None) for f in read_pdf(pdf).figures]


def test_double_spaced_captions_far_below_their_graphics_own_them(tmp_path, pdflatex):
    pdf = _thesis(tmp_path / "double", "2.0", "36pt")
    gaps = _gaps(pdf)
    assert len(gaps) == 3 and all(50 < g < 60 for g in gaps), gaps  # as the thesis class sets them
    assert _read(pdf) == [("1.1", True, True), ("1.2", True, True), ("1.3", True, True)]


def test_single_spaced_captions_near_their_graphics_are_bound_as_before(tmp_path, pdflatex):
    pdf = _thesis(tmp_path / "single", "1.0", "10pt")
    assert all(g < 40 for g in _gaps(pdf))
    assert _read(pdf) == [("1.1", True, True), ("1.2", True, True), ("1.3", True, True)]
