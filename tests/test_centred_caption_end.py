"""A centred caption ends at its centred last line (issue 12: captions as printed).

Thesis styles (GOST among them) set captions in the body's size and face, centred, with the
next paragraph right under them. The PDF route read such a caption on into the following
paragraphs (field audit: three captions of a Russian thesis summary, each a false FL008
against the sources). A centred caption's last line is centred and short; the paragraph's
first line under it is wider and not centred (indented, running to the column's edge).
A caption that is centred line by line goes on. Also: a soft hyphen (what fonts in T2A and
other encodings print for TeX's hyphen) ends a broken word when lines are joined.
Compiled with pdflatex.
"""

from __future__ import annotations

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest.pdf import read_pdf
from figlint.ingest.pdf_layout import break_joiner
from fixtures.pdf_build import compile_tex

PARA = ("The robot walked over every surface with the same gait, and the force of each contact "
        "was recorded so that the surfaces could be told apart afterwards. ") * 3
CAPTION = ("Examples of situations where a navigation based on the camera or on the lidar builds "
           "a wrong map of the cave")


def _paper(justification: str) -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx,caption}\n"
            f"\\captionsetup{{justification={justification},labelsep=endash,font=normalsize,skip=4pt}}\n"
            "\\setlength{\\textfloatsep}{2pt}\\setlength{\\intextsep}{2pt}\n"
            "\\begin{document}\n" + PARA + "\n\n"
            "\\begin{figure}[h]\\centering\\includegraphics[width=5cm]{plot.png}"
            "\\caption{" + CAPTION + "}\\label{fig:a}\\end{figure}\n"
            "The aim of the work is a method that builds a map of the surface from the contacts of the "
            "legs. " + PARA + "\n\nFigure~\\ref{fig:a} shows the map.\n\\end{document}\n")


def test_a_centred_caption_ends_at_its_centred_last_line(tmp_path, pdflatex):
    for justification in ("centering", "centerlast"):
        folder = tmp_path / justification
        folder.mkdir()
        pdf = compile_tex(folder, _paper(justification), {"plot.png": ((400, 200), (90, 140, 200))})
        (fig,) = read_pdf(pdf).figures
        assert fig.caption.text == CAPTION + "", (justification, fig.caption.text)
        codes = [f.code for f in lint_path(str(folder / "main.tex"), Config(preview=True)).findings]
        assert "FL008" not in codes, codes


def test_a_soft_hyphen_ends_a_broken_word():
    assert break_joiner("по\u00ad", "строения") == "-"
    assert break_joiner("hyphen-", "ation") == "-" and break_joiner("state-of-the-", "art") == ""


def _two_sided(key: bool) -> str:
    """A two-sided book page layout (inner and outer margins differ, mirrored on facing pages)
    with a centred caption in the body's size on an even and on an odd page, each float set in
    the middle of a paragraph that goes on under it with a full, unindented line."""
    extra = " \\\\ (a) the left panel; (b) the right panel" if key else ""
    fig = ("\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}"
           "\\caption{" + CAPTION + extra + "}\\end{figure}")
    body = "".join(f"The robot walked over surface {k} with the same gait, and the force of each contact was "
                   "recorded so that the surfaces could be told apart afterwards. " for k in range(9))
    return ("\\documentclass[twoside]{article}\n\\usepackage[twoside,inner=1.2cm,outer=3cm]{geometry}\n"
            "\\usepackage{graphicx,caption}\n\\captionsetup{justification=centering,labelsep=endash,font=normalsize}\n"
            "\\setlength{\\intextsep}{1pt}\n"
            "\\begin{document}\n" + (body * 3) + "\n\n" + body + fig + body + "\n\n" + (body * 2) + "\n\n"
            + body + fig + body + "\n\\end{document}\n")


def test_a_centred_caption_ends_on_either_side_of_a_two_sided_layout(tmp_path, pdflatex):
    for key in (False, True):
        folder = tmp_path / f"key{int(key)}"
        folder.mkdir()
        pdf = compile_tex(folder, _two_sided(key), {"plot.png": ((400, 200), (90, 140, 200))})
        figs = read_pdf(pdf).figures
        assert len(figs) == 2 and len({f.page % 2 for f in figs}) == 2, [(f.number, f.page) for f in figs]
        for fig in figs:
            want = CAPTION + (" (a) the left panel; (b) the right panel" if key else "")
            assert fig.caption.text == want, (key, fig.page, fig.caption.text)


HANGING = [
    "Share of the text covered by the top words in one document of the collection; the positions of "
    "words are grey, those of the top words red, and green marks the positions that count towards the "
    "coherence of the topic (those inside the sliding window with another top word).",
    "A two-stage experiment: in the first stage a regulariser is applied with a coefficient taken from "
    "a set of three values, and the best models go on; the second stage adds another regulariser, so "
    "that each model kept after the first stage gets two descendants in the end.",
    "Perplexity of the models over the iterations of training for the three collections of documents, "
    "with and without the regulariser, averaged over five runs with different seeds of the random "
    "number generator used for the initial distributions.",
]


def test_a_ragged_right_hanging_caption_is_read_whole(tmp_path, pdflatex):
    """Captions set ragged right with a hanging indent (format=hang), in the body's size, with the
    paragraph right under them: a short line of theirs can stand about as far from either edge
    of the column as a centred line, but the rows before it are not centred, so the caption does
    not end there (field audit: a Russian summary's captions cut after their second and third
    lines)."""
    figs = "".join("\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}"
                   "\\caption{" + c + "}\\end{figure}\n" + PARA + "\n\n" for c in HANGING)
    tex = ("\\documentclass{article}\n\\usepackage{graphicx,caption}\n"
           "\\captionsetup{format=hang,justification=raggedright,labelsep=endash,font=normalsize,skip=4pt}\n"
           "\\begin{document}\n" + PARA + "\n\n" + figs + "\\end{document}\n")
    pdf = compile_tex(tmp_path, tex, {"plot.png": ((400, 200), (90, 140, 200))})
    got = [f.caption.text for f in read_pdf(pdf).figures]
    assert got == HANGING, got


WIDER = ("Dependence on the temperature of the magnetic \\mbox{susceptibility-of-the-four-synthetic-compounds} "
         "of the series, measured in one cryostat")


def test_a_centred_caption_may_have_a_wider_second_line(tmp_path, pdflatex):
    """A centred caption whose first line broke before a long word: its second line is the wider,
    and as wide as the column, centred on the same centre, and its short last line is centred
    too. It is all the caption's (field audit: such a caption was cut after its first line and
    its four panels split off as figures without captions)."""
    import pymupdf

    tex = ("\\documentclass{article}\n\\usepackage{graphicx,caption}\n"
           "\\captionsetup{justification=centering,labelsep=endash,font=normalsize,skip=4pt}\n"
           "\\setlength{\\intextsep}{2pt}\n\\begin{document}\n" + PARA + "\n\n"
           "\\begin{figure}[h]\\centering\\includegraphics[width=5cm]{plot.png}\\caption{" + WIDER + "}\\end{figure}\n"
           + PARA + "\n\\end{document}\n")
    pdf = compile_tex(tmp_path, tex, {"plot.png": ((400, 200), (90, 140, 200))})
    with pymupdf.open(pdf) as doc:  # the premise: the caption's second line is the wider
        rows = [ln["bbox"] for b in doc[0].get_text("dict")["blocks"] for ln in b.get("lines", [])
                if "".join(s["text"] for s in ln["spans"]).startswith(("Figure 1", "susceptibility"))]
    assert len(rows) == 2 and rows[1][2] - rows[1][0] > rows[0][2] - rows[0][0] + 20, rows
    (fig,) = read_pdf(pdf).figures
    assert fig.caption.text == WIDER.replace("\\mbox{", "").replace("}", ""), fig.caption.text


BROKEN = ("of a chosen resolution, filled with the readings of the two sensors that arrive in each of them "
          "at their own rates, which differ by a factor of ten or more between them, so that every frame holds "
          "one reading of each")


def test_a_centred_caption_broken_after_its_first_sentence_is_read_whole(tmp_path, pdflatex):
    """A centred caption whose author broke the line after a short opening sentence (`\\\\`): a
    short centred line, then a line its words fill from edge to edge, then a centred line
    nearly as wide (a few points short of each edge) and a short one. The full line is the
    caption's, not the text's: the centred line under it, at the caption's pitch, shows the
    paragraph goes on (field audit: an MSc thesis's captions cut after their first line, five
    false FL008). The line widths are asserted from the page."""
    import pymupdf

    tex = ("\\documentclass[12pt]{article}\n\\usepackage{graphicx,caption}\n"
           "\\captionsetup{justification=centering,font=normalsize}\n\\begin{document}\n" + PARA + "\n\n"
           "\\begin{figure}[h]\\centering\\includegraphics[width=5cm]{plot.png}"
           "\\caption[The data frames.]{The data frames.\\\\ " + BROKEN + "}\\end{figure}\n" + PARA + "\n\\end{document}\n")
    pdf = compile_tex(tmp_path, tex, {"plot.png": ((400, 200), (90, 140, 200))})
    with pymupdf.open(pdf) as doc:
        lines = [ln["bbox"] for b in doc[0].get_text("dict")["blocks"] for ln in b.get("lines", [])]
    body = max(b[2] for b in lines) - min(b[0] for b in lines)
    cap = [b for b in lines if b[1] > lines[5][3] + 20][:4]  # the caption's rows, under the graphic
    widths = [b[2] - b[0] for b in cap]
    assert widths[0] < 0.5 * body and widths[1] > body - 1.5 and body - 30 < widths[2] < body - 4, widths
    (fig,) = read_pdf(pdf).figures
    assert fig.caption.text == "The data frames. " + BROKEN, fig.caption.text


MARGINS = ("Counts of the marked beetles in the four plots of the survey over the whole season of the "
           "study in the wet meadow and in the dry meadow.\\linebreak{} The two plots at the forest edge "
           "are left out. A Spring B Autumn.")


def test_a_justified_caption_with_side_margins_goes_on_past_a_protruding_stop(tmp_path, pdflatex):
    """A caption set justified with side margins (the caption package's `margin=`, as MDPI's
    class sets it) under microtype, on a float page: its full rows stand as far in from either
    edge of the column as a centred short line does, and a row that ends with a stop reaches a
    point or two further right (character protrusion), so it looked like a wider line of the
    text under a centred caption's last line. It is the caption's next row, set to the same
    measure (field audit: an MDPI paper's caption cut after its first line, with false FL206 and
    FL204 on the PDF route and a false FL008 on the sources). The protrusion is asserted from the
    page."""
    import pymupdf

    para = ("The robot walked over every surface with the same gait, and the force of each contact "
            "was recorded so that the surfaces could be told apart afterwards. ") * 3
    tex = ("\\documentclass{article}\n\\usepackage{graphicx,microtype,caption}\n"
           "\\captionsetup{margin=0.75cm,justification=justified,font=small,labelfont=bf,labelsep=period}\n"
           "\\begin{document}\n" + (para + "\n\n") * 4
           + "\\begin{figure}[p]\\centering\\includegraphics[width=10cm,height=14cm]{plot.png}"
           "\\caption{" + MARGINS + "}\\label{fig:a}\\end{figure}\n" + (para + "\n\n") * 6
           + "Figure~\\ref{fig:a} shows the counts.\n\\end{document}\n")
    pdf = compile_tex(tmp_path, tex, {"plot.png": ((400, 200), (90, 140, 200))})
    with pymupdf.open(pdf) as doc:  # the caption's first two rows, on the float page
        lines = [(ln["bbox"], "".join(s["text"] for s in ln["spans"])) for page in doc
                 for b in page.get_text("dict")["blocks"] for ln in b.get("lines", [])]
    start = next(k for k, (_, text) in enumerate(lines) if text.startswith("Figure 1."))
    rows = [box for box, _ in lines[start:start + 2]]
    assert lines[start + 1][1].endswith("meadow."), lines[start + 1]
    assert abs(rows[0][0] - rows[1][0]) < 0.5 and 1.2 < rows[1][2] - rows[0][2] < 2.5, rows
    (fig,) = read_pdf(pdf).figures
    assert fig.caption.text == MARGINS.replace("\\linebreak{}", ""), fig.caption.text
    codes = [f.code for f in lint_path(str(tmp_path / "main.tex"), Config(preview=True)).findings]
    assert "FL008" not in codes, codes
