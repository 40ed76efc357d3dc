"""Float types a paper declares itself, read as figures when they print a figure's name.

A supplement declares its own float type (caption's `\\DeclareCaptionType{sfigure}[Fig.]`,
newfloat's `\\DeclareFloatingEnvironment`, float's `\\newfloat` with `\\floatname`) and numbers
it by its own counter, often `\\renewcommand{\\thesfigure}{S\\arabic{sfigure}}`: "Fig. S1". The
PDF route reads those captions by their printed label; a field audit (a population-genetics
preprint) found the sources route reading none of them (its figure environments a fixed list),
so on the sources + PDF route most of the paper's figures had no source, and their citations
none either. Now both routes read the same figures, numbers, captions and citing sentences; a
declared type printed as a table ("Table S1") stays a table.
"""

from __future__ import annotations


from figlint.ingest import load
from figlint.ingest.texscan import float_type_is_figure
from fixtures.pdf_build import compile_tex, sources_alone

IMAGES = {"p.png": ((300, 200), (90, 140, 200)), "q.png": ((300, 200), (200, 140, 90)),
          "r.png": ((300, 200), (60, 180, 90))}
TEXT = "The counts rise over the season in every plot of the survey. "


def _float(env: str, image: str, caption: str, label: str) -> str:
    return (f"\\begin{{{env}}}[h]\\centering\\includegraphics[width=0.35\\textwidth]{{{image}}}\n"
            f"\\caption{{{caption}}}\\label{{{label}}}\n\\end{{{env}}}\n")


def _caption_paper() -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{caption}\n"
            "\\DeclareCaptionType{sfigure}[Fig.][List of supplementary figures]\n"
            "\\DeclareCaptionType{stable}[Table][List of supplementary tables]\n"
            "\\begin{document}\n" + TEXT * 15
            + "Fig.~\\ref{fig:main} shows the counts.\n\n" + TEXT * 8
            + "The controls are shown in Fig.~\\ref{sfig:controls} and the raw data in Fig.~\\ref{sfig:raw}.\n"
            + "The sites are listed in Table~\\ref{stab:sites}.\n\n"
            + _float("figure", "p.png", "Counts over the season.", "fig:main") + TEXT * 6 + "\n"
            + "\\clearpage\n\\section*{Supplementary material}\n"
            + "\\renewcommand{\\thesfigure}{S\\arabic{sfigure}}\n\\renewcommand{\\thestable}{S\\arabic{stable}}\n"
            + _float("sfigure", "q.png", "Controls of the survey, one per plot.", "sfig:controls")
            + _float("sfigure", "r.png", "Raw data as recorded in the field.", "sfig:raw")
            + "\\begin{stable}[h]\\centering\\caption{Sites of the survey.}\\label{stab:sites}\n"
            + "\\begin{tabular}{ll}a & b\\\\ c & d\\end{tabular}\n\\end{stable}\n"
            + TEXT * 3 + "\n\\end{document}\n")


def _reading(paper) -> list[tuple[str, str, list[str]]]:
    return [(f.number, f.caption.text.strip() if f.caption else "",
             sorted(" ".join(s.sentence.split()) for s in f.sites)) for f in paper.figures]


def _sources_alone(tmp_path) -> str:
    """The sources copied without the build's .aux: what the counters alone print."""
    return sources_alone(tmp_path, ["main.tex", *IMAGES])


def test_declared_figure_type_read_alike_on_every_route(tmp_path, pdflatex):
    pdf = compile_tex(tmp_path, _caption_paper(), IMAGES)
    printed = load(pdf)
    both = load(str(tmp_path / "main.tex"), pdf=pdf)
    alone = load(_sources_alone(tmp_path))
    want = ["1", "S1", "S2"]  # the stable "Table S1" is no figure
    for paper in (printed, both, alone):
        assert [f.number for f in paper.figures] == want, (paper.route, [f.number for f in paper.figures])
        assert "Controls of the survey" in paper.figures[1].caption.text
        assert "Raw data as recorded" in paper.figures[2].caption.text
        assert [len(f.sites) for f in paper.figures] == [1, 1, 1], (paper.route, _reading(paper))
    assert _reading(both) == _reading(alone)
    assert [n for n, _, _ in _reading(printed)] == [n for n, _, _ in _reading(both)]
    for a, b in zip(_reading(printed), _reading(both)):
        assert a[1] == b[1] and a[2] == b[2], (a, b)
    assert [f.caption.label for f in both.figures] == ["Figure 1", "Fig. S1", "Fig. S2"]
    assert not [p for p in both.problems if p.code == "FL008"], [p.message for p in both.problems]


def _newfloat_paper() -> str:
    """newfloat's and float's declarations: a "Supplementary Figure" numbered S1 after the
    main figure, a "Listing" (no figure's name) left alone."""
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{newfloat}\n"
            "\\DeclareFloatingEnvironment[name={Supplementary Figure},listname={List of supplementary figures}]{suppfig}\n"
            "\\DeclareFloatingEnvironment[name=Listing]{code}\n"
            "\\renewcommand{\\thesuppfig}{S\\arabic{suppfig}}\n"
            "\\begin{document}\n" + TEXT * 15 + "Figure~\\ref{fig:main} shows the counts; "
            + "Supplementary Figure~\\ref{sfig:controls} the controls and Listing~\\ref{ls:count} the code.\n\n"
            + _float("figure", "p.png", "Counts over the season.", "fig:main") + TEXT * 6 + "\n"
            + _float("suppfig", "q.png", "Controls of the survey, one per plot.", "sfig:controls")
            + "\\begin{code}[h]\\caption{Code that counts.}\\label{ls:count}\\texttt{count(plot)}\\end{code}\n"
            + TEXT * 3 + "\n\\end{document}\n")


def test_newfloat_declared_figure_type(tmp_path, pdflatex):
    pdf = compile_tex(tmp_path, _newfloat_paper(), IMAGES)
    printed = load(pdf)
    both = load(str(tmp_path / "main.tex"), pdf=pdf)
    alone = load(_sources_alone(tmp_path))
    for paper in (printed, both, alone):
        assert [f.number for f in paper.figures] == ["1", "S1"], (paper.route, [f.number for f in paper.figures])
        assert "Controls of the survey" in paper.figures[1].caption.text
    assert _reading(both) == _reading(alone)


def test_which_declared_names_are_figures():
    assert float_type_is_figure("Fig")
    assert float_type_is_figure("Fig.")
    assert float_type_is_figure("Supplementary Figure")
    assert float_type_is_figure("\\suppname", "List of Supplementary Figures")
    assert not float_type_is_figure("Table")
    assert not float_type_is_figure("Sfigure")  # caption's default name: the PDF reads no figure label
    assert not float_type_is_figure("Listing")
    assert not float_type_is_figure("Algorithm")
    assert not float_type_is_figure("\\suppname", "List of Supplementary Tables")


def _quarto_paper(documentclass: str) -> str:
    """Quarto's cross-referenceable supplementary figures: float's \\newfloat in both branches of
    \\@ifundefined{c@chapter} (numbered within the chapter where the class has chapters),
    named "Figure S", its label format gluing the number to that name ("Figure S1"), cited by a
    macro that types the "S" before a \\ref printing the counter alone."""
    chapter = "\\chapter{Results}\n" if documentclass == "report" else ""
    return (f"\\documentclass{{{documentclass}}}\n\\usepackage{{graphicx}}\n\\usepackage{{float}}\n"
            "\\usepackage{caption}\n\\usepackage{hyperref}\n\\makeatletter\n"
            "\\@ifundefined{c@chapter}{\\newfloat{suppfig}{h}{losuppfig}}{\\newfloat{suppfig}{h}{losuppfig}[chapter]}\n"
            "\\makeatother\n\\floatname{suppfig}{Figure S}\n"
            "\\newcommand*\\quartosuppfigref[1]{Figure \\hyperref[#1]{S\\ref{#1}}}\n"
            "\\DeclareCaptionLabelFormat{quartosuppfigreflabelformat}{#1#2}\n"
            "\\captionsetup[suppfig]{labelformat=quartosuppfigreflabelformat}\n"
            "\\begin{document}\n" + chapter + TEXT * 15
            + "Figure~\\ref{fig:main} shows the counts, \\quartosuppfigref{sfig:controls} the controls "
            + "and \\quartosuppfigref{sfig:raw} the raw data.\n\n"
            + _float("figure", "p.png", "Counts over the season.", "fig:main") + TEXT * 6 + "\n"
            + "\\clearpage\n"
            + _float("suppfig", "q.png", "Controls of the survey, one per plot.", "sfig:controls")
            + _float("suppfig", "r.png", "Raw data as recorded in the field.", "sfig:raw")
            + TEXT * 3 + "\n\\end{document}\n")


def test_quarto_series_named_figure_type(tmp_path, pdflatex):
    """A field audit (three Quarto manuscripts) found the sources route reading none of these
    figures: "Figure S" was no figure's name, so each printed "Figure S1" was a PDF figure with
    no source (FL008); and the [chapter] branch of \\@ifundefined was read in an article,
    numbering them 0.1, 0.2. Now the series letter begins the number on every route, and only
    the branch LaTeX takes declares the type."""
    for cls, want in (("article", ["1", "S1", "S2"]), ("report", ["1.1", "S1.1", "S1.2"])):
        d = tmp_path / cls
        d.mkdir()
        pdf = compile_tex(d, _quarto_paper(cls), IMAGES)
        printed = load(pdf)
        both = load(str(d / "main.tex"), pdf=pdf)
        alone = load(_sources_alone(d))
        for paper in (printed, both, alone):
            assert [f.number for f in paper.figures] == want, (cls, paper.route, [f.number for f in paper.figures])
            assert "Controls of the survey" in paper.figures[1].caption.text
            assert "Raw data as recorded" in paper.figures[2].caption.text
        assert [len(f.sites) for f in both.figures] == [1, 1, 1], (cls, _reading(both))
        assert [n for n, _, _ in _reading(printed)] == [n for n, _, _ in _reading(both)]
        assert not [p for p in both.problems if p.code == "FL008"], [p.message for p in both.problems]


def test_series_letters_after_a_figure_name():
    assert float_type_is_figure("Figure S")
    assert float_type_is_figure("Figure A")
    assert float_type_is_figure("Supplementary Figure S")
    assert not float_type_is_figure("Table S")
    assert not float_type_is_figure("Figure Set")  # a word, not series letters
    assert not float_type_is_figure("Figures")
