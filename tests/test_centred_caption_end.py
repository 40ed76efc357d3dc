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
