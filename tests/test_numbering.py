"""Figure numbers on the LaTeX route as pdflatex prints them (issue 12: binding on real papers).

Generated papers compiled by real pdflatex: a float continued with caption's \\ContinuedFloat
prints the figure's number again and is part of that figure on both routes; classes number
figures within chapters (or not) as their class files say, a class the paper ships is read
from its file, and what TeX Live's classes print is what CLASS_NUMBERING says.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest.latex import read_latex
from figlint.ingest.pdf import read_pdf
from figlint.ingest.texscan import CLASS_NUMBERING, class_base, class_numbering

FIG = "\\begin{figure}[h]%s\\centering\\includegraphics[width=3cm]{plot.png}\\caption{%s}%s\\end{figure}\n"


def _compile(folder, name="main.tex"):
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", name], cwd=folder, capture_output=True, timeout=120)


def _plot(folder):
    from PIL import Image

    Image.new("RGB", (400, 300), (90, 140, 200)).save(folder / "plot.png")


def _paper(folder, figures: str, cite: str, preamble: str = "\\usepackage{caption}\n") -> None:
    _plot(folder)
    (folder / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n" + preamble + "\\begin{document}\n\\section{Results}\n"
        + cite + "\n" + figures + "\\end{document}\n")


CONTINUED = (FIG % ("", "Accuracy of the two models over ten training epochs, first part.", "\\label{fig:a}")
             + FIG % ("\\ContinuedFloat", "Accuracy of the two models over ten training epochs (continued).", "")
             + FIG % ("", "Loss of the baseline model over ten training epochs.", "\\label{fig:b}"))
CITES = ("The accuracy of both models is shown in Figure~\\ref{fig:a}, and the loss of the baseline "
         "in Figure~\\ref{fig:b}.")


def _codes(path, **kw):
    res = lint_path(str(path), Config(select=["ALL"], **kw))
    return sorted((f.code, f.figure) for f in res.findings if f.code not in ("FL601",))


def test_continued_float_prints_the_number_again_on_both_routes(tmp_path, pdflatex):
    """Numbers 1, 1, 2 from the sources as in print; the continuation needs no label of its
    own and is cited with its figure (no FL203, FL301); the routes agree (no FL008), and the
    PDF route keeps the second "Figure 1" caption as the continued part (no FL201)."""
    _paper(tmp_path, CONTINUED, CITES)
    _compile(tmp_path)
    tex = read_latex(str(tmp_path / "main.tex"))
    assert [(f.number, f.continuation) for f in tex.figures] == [("1", False), ("1", True), ("2", False)]
    assert tex.extra["labels"] == {"fig:a": "1", "fig:b": "2"}
    assert len(tex.figures[0].sites) == 1 and not tex.figures[1].sites
    pdf = read_pdf(str(tmp_path / "main.pdf"))
    assert [(f.number, f.continuation) for f in pdf.figures] == [("1", False), ("1", True), ("2", False)]
    assert len(pdf.figures[0].sites) == 1 and not pdf.figures[1].sites
    assert _codes(tmp_path / "main.tex") == []  # sources with the PDF
    assert _codes(tmp_path / "main.pdf") == []
    (tmp_path / "main.pdf").rename(tmp_path / "printed.pdf")
    assert _codes(tmp_path / "main.tex") == []  # sources alone


def test_continued_float_goes_on_lettering_its_subfigures(tmp_path, pdflatex):
    """subcaption's sub-figures of a continuation go on from the first part's: 1a, 1b, then 1c."""
    sub = "\\begin{subfigure}{3cm}\\includegraphics[width=2cm]{plot.png}\\caption{%s}\\label{%s}\\end{subfigure}"
    figs = ("\\begin{figure}[h]" + sub % ("Left", "s:a") + sub % ("Right", "s:b")
            + "\\caption{Accuracy over ten epochs.}\\label{fig:a}\\end{figure}\n"
            + "\\begin{figure}[h]\\ContinuedFloat" + sub % ("Third", "s:c")
            + "\\caption{Accuracy over ten epochs, continued.}\\end{figure}\n")
    _paper(tmp_path, figs, "Panels \\ref{s:a}, \\ref{s:b} and \\ref{s:c} of Figure~\\ref{fig:a}.",
           "\\usepackage{caption}\n\\usepackage{subcaption}\n")
    _compile(tmp_path)
    aux = (tmp_path / "main.aux").read_text()
    printed = dict(re.findall(r"\\newlabel\{(s:[abc])\}\{\{([^{}]*)\}", aux))
    tex = read_latex(str(tmp_path / "main.tex"))
    assert tex.extra["label_refs"] == {"fig:a": "1", **printed} == {"fig:a": "1", "s:a": "1a", "s:b": "1b", "s:c": "1c"}


def test_without_continued_float_every_float_steps_the_number(tmp_path, pdflatex):
    """The negative: \\ContinuedFloat* (a first part announcing it will go on), a commented-out
    \\ContinuedFloat, and one after the caption number as usual; an uncited, unlabelled
    figure that continues nothing is still reported."""
    figs = (FIG % ("\\ContinuedFloat*", "Accuracy of the two models, first of two parts.", "\\label{fig:a}")
            + FIG % ("%\\ContinuedFloat\n", "Loss of the baseline model over ten epochs.", "")
            + FIG % ("", "Runtime of the two models per epoch on one core.", "\\label{fig:b}"))
    _paper(tmp_path, figs, CITES)
    _compile(tmp_path)
    tex = read_latex(str(tmp_path / "main.tex"))
    assert [(f.number, f.continuation) for f in tex.figures] == [("1", False), ("2", False), ("3", False)]
    assert [f.number for f in read_pdf(str(tmp_path / "main.pdf")).figures] == ["1", "2", "3"]
    codes = _codes(tmp_path / "main.tex")
    assert ("FL203", "2") in codes and ("FL301", "2") in codes and not any(c == "FL008" for c, _ in codes)


# ---------------------------------------------------------------- chapters

CHAPTERS = ("\\begin{document}\n" + FIG % ("", "Before any chapter.", "")
            + "\\chapter{One}\n" + FIG % ("", "Alpha.", "") + FIG % ("", "Beta.", "")
            + "\\chapter{Two}\n" + FIG % ("", "Gamma.", "")
            + "\\appendix\n\\chapter{Extra}\n" + FIG % ("", "Delta.", "") + "\\end{document}\n")
_PRINTED = re.compile(r"(?:Figure|FIGURE|Fig\.)\s*([0-9A-Z]+(?:\.[0-9]+)?)")


def _printed_numbers(pdf) -> list[str]:
    import pymupdf

    with pymupdf.open(pdf) as doc:
        return _PRINTED.findall(" ".join(p.get_text() for p in doc))


CLASSES = ["book", "report", "memoir", "scrbook", "scrreprt", "amsbook", "tufte-book", "ucthesis", "article"]


@pytest.mark.parametrize("cls", CLASSES)
def test_tex_live_classes_number_as_printed(tmp_path, pdflatex, cls):
    """What CLASS_NUMBERING says of a TeX Live class is what pdflatex prints with it, and what
    class_numbering reads from its file (following \\LoadClass) agrees where it reads anything."""
    path = subprocess.run(["kpsewhich", cls + ".cls"], capture_output=True, text=True).stdout.strip()
    if not path:
        pytest.skip(f"{cls}.cls is not installed")
    _plot(tmp_path)
    text = CHAPTERS if cls != "article" else CHAPTERS.replace("\\chapter", "\\section")
    (tmp_path / "main.tex").write_text(f"\\documentclass{{{cls}}}\n\\usepackage{{graphicx}}\n" + text)
    _compile(tmp_path)
    printed = _printed_numbers(tmp_path / "main.pdf")
    assert len(printed) == 5, printed
    assert [f.number for f in read_latex(str(tmp_path / "main.tex")).figures] == printed
    read, name = None, cls
    while read is None and name:
        f = subprocess.run(["kpsewhich", name + ".cls"], capture_output=True, text=True).stdout.strip()
        if not f:
            break
        body = open(f, encoding="latin-1").read()
        read, name = class_numbering(body), class_base(body)
    if read is not None and cls != "tufte-book":  # tufte-book loads \@tufte@class, read by name
        assert read[0] == CLASS_NUMBERING.get(cls, ("", None))[0]


def test_memoir_article_option_numbers_straight_through(tmp_path, pdflatex):
    """memoir's `article` option makes \\chapter the top heading and numbers floats straight
    through (a Russian thesis template's synopsis is built that way): 1, 2, 3, not 1.1, 1.2, 2.1."""
    _plot(tmp_path)
    (tmp_path / "main.tex").write_text("\\documentclass[article]{memoir}\n\\usepackage{graphicx}\n" + CHAPTERS)
    _compile(tmp_path)
    printed = _printed_numbers(tmp_path / "main.pdf")
    assert printed[:3] == ["1", "2", "3"], printed
    assert [f.number for f in read_latex(str(tmp_path / "main.tex")).figures] == printed


SHIPPED = r"""\NeedsTeXFormat{LaTeX2e}
\ProvidesClass{volume}
\LoadClass{article}
\newcounter{chapter}
\renewcommand\thechapter{\arabic{chapter}}
\let\if@numbered\iftrue
\renewcommand\maketitle{\par\refstepcounter{chapter}\setcounter{figure}{0}%
  \begin{center}\Large\@title\end{center}}
\@addtoreset{figure}{chapter}
\renewcommand\thefigure{\thechapter.\@arabic\c@figure}
"""


def test_a_shipped_class_numbers_figures_within_its_chapters(tmp_path, pdflatex):
    """A contributed-volume class the paper ships (like Springer's svmult: built on article,
    each contribution's \\maketitle begins a chapter, figures reset and prefixed, a switch set
    with \\let\\if...\\iftrue): read from its file, numbers as printed (1.1, 1.2, 2.1)."""
    _plot(tmp_path)
    (tmp_path / "volume.cls").write_text(SHIPPED)
    contrib = ("\\title{Contribution %s}\\maketitle\n" + FIG % ("", "Alpha %s.", "") + "%s")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{volume}\n\\usepackage{graphicx}\n\\begin{document}\n"
        + contrib % ("one", "one", FIG % ("", "Beta one.", "")) + contrib % ("two", "two", "") + "\\end{document}\n")
    _compile(tmp_path)
    printed = _printed_numbers(tmp_path / "main.pdf")
    assert printed == ["1.1", "1.2", "2.1"]
    assert [f.number for f in read_latex(str(tmp_path / "main.tex")).figures] == printed
    # the negative: the same volume without the class's chapter numbering is numbered straight through
    (tmp_path / "volume.cls").write_text(SHIPPED.replace("\\@addtoreset{figure}{chapter}\n", "").replace(
        "\\renewcommand\\thefigure{\\thechapter.\\@arabic\\c@figure}\n", "").replace("\\setcounter{figure}{0}", ""))
    _compile(tmp_path)
    printed = _printed_numbers(tmp_path / "main.pdf")
    assert printed == ["1", "2", "3"]
    assert [f.number for f in read_latex(str(tmp_path / "main.tex")).figures] == printed


def test_a_document_that_numbers_within_sections_itself(tmp_path, pdflatex):
    """article with \\counterwithin{figure}{section}: 1.1, 1.2, 2.1, as printed."""
    _plot(tmp_path)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\counterwithin{figure}{section}\n\\begin{document}\n"
        "\\section{A}\n" + FIG % ("", "Alpha.", "") + FIG % ("", "Beta.", "") + "\\section{B}\n"
        + FIG % ("", "Gamma.", "") + "\\end{document}\n")
    _compile(tmp_path)
    printed = _printed_numbers(tmp_path / "main.pdf")
    assert printed == ["1.1", "1.2", "2.1"]
    assert [f.number for f in read_latex(str(tmp_path / "main.tex")).figures] == printed


@pytest.fixture(autouse=True)
def _need_tex():
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")


def test_a_chapter_in_the_front_matter_is_not_numbered(tmp_path, pdflatex):
    """book (and scrbook, memoir): \\chapter in \\frontmatter prints no number and steps no
    counter, so the first main-matter chapter's figures are 1.1, not 2.1 (field audit: two
    scrbook theses numbered every figure one chapter too high on the LaTeX route)."""
    _plot(tmp_path)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{book}\n\\usepackage{graphicx}\n\\begin{document}\n\\frontmatter\n\\chapter{Preface}\nText.\n"
        "\\mainmatter\n\\chapter{One}\n" + FIG % ("", "Alpha.", "") + FIG % ("", "Beta.", "")
        + "\\backmatter\n\\chapter{Notes}\nText.\n\\end{document}\n")
    _compile(tmp_path)
    printed = _printed_numbers(tmp_path / "main.pdf")
    assert printed == ["1.1", "1.2"]
    assert [f.number for f in read_latex(str(tmp_path / "main.tex")).figures] == printed


def test_another_figure_name_and_a_dash_scheme_read_alike_on_both_routes(tmp_path, pdflatex):
    """A thesis that calls figures "Figura" and numbers them chapter-dash-figure ("Figura
    4-1.", as \\renewcommand{\\thefigure} and \\figurename make it): both routes number the
    figures as printed, bind the text's "Figura 1-2" to Figure 1-2 (not a range 1 to 2), and
    agree (field audit: 74 false FL201 and 64 false FL008 on one such thesis)."""
    _plot(tmp_path)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\renewcommand{\\figurename}{Figura}\n"
        "\\renewcommand{\\thefigure}{\\arabic{section}-\\arabic{figure}}\n\\begin{document}\n\\section{Resultados}\n"
        "La presi\\'on del yacimiento se muestra en la Figura~\\ref{fig:a}, y el caudal en la Figura 1-2.\n"
        + FIG % ("", "Presi\\'on del yacimiento durante diez a\\~nos.", "\\label{fig:a}")
        + FIG % ("", "Caudal de los pozos durante diez a\\~nos.", "\\label{fig:b}") + "\\end{document}\n")
    _compile(tmp_path)
    pdf = read_pdf(str(tmp_path / "main.pdf"))
    assert [f.number for f in pdf.figures] == ["1-1", "1-2"]
    assert [len(f.sites) for f in pdf.figures] == [1, 1]
    tex = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in tex.figures] == ["1-1", "1-2"]
    codes = _codes(tmp_path / "main.tex")
    assert not [c for c in codes if c[0] in ("FL008", "FL201", "FL301")], codes


def test_a_chapter_joined_by_a_centred_dot_reads_alike_on_both_routes(tmp_path, pdflatex):
    """A thesis style that prints "Figure 1·2" (its .sty: \\def\\thefigure{\\thechapter$\\cdot$
    \\arabic{figure}} in a report): both routes number the figures as printed, bind the
    references and the hand-written "Figure 2·1" (FL305) to them, and agree (field audit: 104 false
    FL201 and 117 false FL008 on one such thesis, whose numbers the sources read as "1$$2")."""
    _plot(tmp_path)
    (tmp_path / "dotthesis.sty").write_text(
        "\\ProvidesPackage{dotthesis}\n\\@ifundefined{thechapter}{}{\\def\\thefigure{\\thechapter$\\cdot$\\arabic{figure}}}\n")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{report}\n\\usepackage{graphicx}\n\\usepackage{dotthesis}\n\\begin{document}\n"
        "\\chapter{Instruments}\nThe camera's field of view is drawn in Figure~\\ref{fig:a}, its noise in "
        "Figure~\\ref{fig:b}.\n"
        + FIG % ("", "Field of view of the camera over the sky at the station.", "\\label{fig:a}")
        + FIG % ("", "Noise of the camera against exposure time at the station.", "\\label{fig:b}")
        + "\\chapter{Observations}\nThe auroral arc of Figure 2·1 moved east within a minute.\n"
        + FIG % ("", "Auroral arc seen by the camera on the night of the campaign.", "\\label{fig:c}")
        + "\\end{document}\n")
    _compile(tmp_path)
    pdf = read_pdf(str(tmp_path / "main.pdf"))
    assert [f.number for f in pdf.figures] == ["1·1", "1·2", "2·1"]
    assert [len(f.sites) for f in pdf.figures] == [1, 1, 1]
    tex = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in tex.figures] == ["1·1", "1·2", "2·1"]
    assert [len(f.sites) for f in tex.figures] == [1, 1, 1]
    codes = _codes(tmp_path / "main.tex")
    # the hand-written number is one (FL305), bound to its figure like the others
    assert [c for c in codes if c[0] in ("FL008", "FL201", "FL301", "FL305")] == [("FL305", "2\u00b71")], codes


def test_appendix_numbers_with_a_thin_space_read_alike_on_both_routes(tmp_path, pdflatex):
    """A paper whose appendices number figures "A 1", "B 1" (\\renewcommand{\\thefigure}
    {\\thesection\\,\\arabic{figure}}, as a fluid-dynamics journal prints its appendix
    equations): the PDF route reads "Figure A 1." as a caption label (it did not: the figures were
    uncaptioned, five false FL201 and three FL008 on a field paper) and binds the text's
    "Figure A 1" to it; both routes agree."""
    _plot(tmp_path)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n\\section{Results}\n"
        "The sheet breaks up as Figure~\\ref{fig:a} shows; the grid study is in Figure~\\ref{fig:b}, "
        "and Figure~\\ref{fig:c} compares both limits.\n"
        + FIG % ("", "Break-up of the sheet over time at the highest speed.", "\\label{fig:a}")
        + "\\clearpage\\appendix\n\\renewcommand{\\thefigure}{\\thesection\\,\\arabic{figure}}\n"
        "\\section{Grid}\\setcounter{figure}{0}\nThe grid study of Figure~\\ref{fig:b} converges.\n"
        + FIG % ("", "Convergence of the interface position with the grid level.", "\\label{fig:b}")
        + "\\section{Limits}\\setcounter{figure}{0}\nFigure B 1 compares both limits again.\n"
        + FIG % ("", "The two limits of the jet speed against the elastic number.", "\\label{fig:c}")
        + "\\end{document}\n")
    _compile(tmp_path)
    pdf = read_pdf(str(tmp_path / "main.pdf"))
    from figlint.ingest import load

    tex = load(str(tmp_path / "main.tex"), pdf=str(tmp_path / "main.pdf"))
    for paper in (pdf, tex):
        assert [re.sub(r"[\s\u2009]|\\\\,", "", f.number) for f in paper.figures] == ["1", "A1", "B1"]
        assert all(f.caption and f.caption.text.endswith(".") for f in paper.figures)
        assert [f.in_appendix for f in paper.figures] == [False, True, True]
    assert [len(f.sites) for f in pdf.figures] == [1, 2, 2]
    codes = _codes(tmp_path / "main.tex")
    assert not [c for c in codes if c[0] in ("FL008", "FL201", "FL301")], codes


CLS = r"""\NeedsTeXFormat{LaTeX2e}
\ProvidesClass{myjournal}
\LoadClass{article}
\def\appendix{\par
 \@addtoreset{figure}{section}
 \setcounter{section}{0}
 \setcounter{figure}{0}
 \def\thesection{\Alph{section}}
 \renewcommand\thefigure{\thesection\@arabic\c@figure}}
"""


@pytest.mark.parametrize("cls", ["myjournal", "mnras"])
def test_appendix_figures_numbered_as_the_class_declares(tmp_path, pdflatex, cls):
    """A class whose \\appendix numbers figures A1, A2, B1 (mnras, and journal classes papers
    ship): read from the class's own \\appendix, a shipped class or one of TeX Live (field
    binding: 20 appendix figures of 4 papers numbered 5, 6, 7 on the LaTeX route)."""
    if cls == "mnras" and not shutil.which("kpsewhich") or cls == "mnras" and not subprocess.run(
            ["kpsewhich", "mnras.cls"], capture_output=True, text=True).stdout.strip():
        pytest.skip("mnras.cls not in this TeX Live")
    _plot(tmp_path)
    if cls == "myjournal":
        (tmp_path / "myjournal.cls").write_text(CLS)
    (tmp_path / "main.tex").write_text(
        f"\\documentclass{{{cls}}}\n\\usepackage{{graphicx}}\n\\begin{{document}}\n\\section{{Main}}\n"
        + FIG % ("", "Alpha.", "") + "\\appendix\n\\section{First}\n" + FIG % ("", "Beta.", "")
        + FIG % ("", "Gamma.", "") + "\\section{Second}\n" + FIG % ("", "Delta.", "") + "\\end{document}\n")
    _compile(tmp_path)
    printed = _printed_numbers(tmp_path / "main.pdf")
    assert printed == ["1", "A1", "A2", "B1"], printed
    assert [f.number for f in read_latex(str(tmp_path / "main.tex")).figures] == printed


def test_phantom_subcaption_labels_print_lettered_panels(tmp_path, pdflatex):
    """subcaption's \\phantomsubcaption (panels lettered inside the graphic, no sub-caption
    text) steps the sub-figure counter: a \\label after it, even before the main caption,
    prints "1a", "1b" as LaTeX's own .aux records, and a \\ref to it cites Figure 1. So the
    sources bind those citing places to the figure and report no label-before-caption (FL306)."""
    fig = ("\\begin{figure}[h]\n{\\phantomsubcaption\\label{fig:q:left}}\n"
           "{\\phantomsubcaption\\label{fig:q:right}}\n\\centering\\includegraphics[width=3cm]{plot.png}\n"
           "\\caption{Two panels of quality ratings: (a) by rater and (b) by site.}\\label{fig:q}\n\\end{figure}\n")
    cite = ("Ratings differ by rater (Figure~\\ref{fig:q:left}) and by site (Figure~\\ref{fig:q:right}); "
            "Figure~\\ref{fig:q} shows both.")
    _paper(tmp_path, fig, cite, "\\usepackage{caption}\n\\usepackage{subcaption}\n")
    _compile(tmp_path)
    aux = (tmp_path / "main.aux").read_text()
    printed = dict(re.findall(r"\\newlabel\{(fig:q:\w+)\}\{\{([^}]*)\}", aux))
    assert printed == {"fig:q:left": "1a", "fig:q:right": "1b"}
    paper = read_latex(str(tmp_path / "main.tex"))
    assert {k: paper.extra["label_refs"][k] for k in printed} == printed
    one = paper.figures[0]
    assert sorted(one.labels) == ["fig:q", "fig:q:left", "fig:q:right"]
    assert [s.label for s in one.subpanels] == ["a", "b"]
    assert len(one.sites) == 3
    assert "FL306" not in {c for c, _f in _codes(tmp_path / "main.tex")}


def test_a_continuation_numbered_by_hand_is_cited_with_its_first_part(tmp_path, pdflatex):
    """A thesis prints a \\ContinuedFloat pair as "1a" and "1b" by changing \\thefigure by hand
    and gives both parts one label; \\ref then prints "1b" (the label's last definition), and
    the text citing the pair cites both parts: no FL301 for "1a" (field audit, a PhD thesis).
    The negative: an uncited figure after the pair is still reported."""
    figs = ("\\renewcommand{\\thefigure}{\\arabic{figure}a}\n"
            + FIG % ("", "Localisation results of the model, first part.", "\\label{fig:pair}")
            + "\\renewcommand{\\thefigure}{\\arabic{figure}b}\n"
            + FIG % ("\\ContinuedFloat", "Localisation results of the model, second part.", "\\label{fig:pair}")
            + "\\renewcommand{\\thefigure}{\\arabic{figure}}\n"
            + FIG % ("", "Loss of the baseline model over ten training epochs.", "\\label{fig:b}"))
    _paper(tmp_path, figs, "The results of the model are shown in Figure~\\ref{fig:pair}.")
    tex = read_latex(str(tmp_path / "main.tex"))
    assert [(f.number, f.continuation) for f in tex.figures] == [("1a", False), ("1b", True), ("2", False)]
    got = [(f.code, f.figure) for f in lint_path(str(tmp_path / "main.tex"), Config(select=["FL301"])).findings]
    assert got == [("FL301", "2")], got


def test_margin_figures_are_read_where_they_stand(tmp_path, pdflatex):
    """A tufte document sets small figures in the margin beside the paragraph they illustrate
    and seldom cites them: FL301 leaves a margin figure alone, from the sources (its
    environment) and from the PDF (it prints beside the text block). The negative: an
    uncited figure in the text block is reported on both routes."""
    _plot(tmp_path)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{tufte-handout}\n\\usepackage{graphicx}\n\\begin{document}\n\\section{Results}\n"
        + "The loss falls over the first ten epochs of training and then levels off. " * 12 + "\n\n"
        "\\begin{marginfigure}\\includegraphics[width=\\linewidth]{plot.png}"
        "\\caption{Loss of the baseline model over ten epochs.}\\end{marginfigure}\n"
        + "The accuracy of both models rises over the same epochs and then levels off. " * 12 + "\n\n"
        "\\begin{figure}[h]\\includegraphics[width=6cm]{plot.png}"
        "\\caption{Accuracy of the two models over ten training epochs.}\\label{fig:acc}\\end{figure}\n"
        + "More text follows here about other things. " * 20 + "\n\\end{document}\n")
    _compile(tmp_path)
    for path in ("main.tex", "main.pdf"):
        got = [(f.code, f.figure) for f in lint_path(str(tmp_path / path), Config(select=["FL301"])).findings]
        assert got == [("FL301", "2")], (path, got)
