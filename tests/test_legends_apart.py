"""Manuscripts that keep their figure legends apart from the figures, with no \\caption.

Journals ask submissions for a list of legends after the references and each figure on a page
of its own: the list names each figure in a heading over its legend ("\\subsection*{Figure 1}",
a bold "Figure 1" paragraph, a description list's "\\item[Figure 1]", a run-in
"\\paragraph*{Fig. 1}"), and each figure page sets a caption-less float under a heading of the
same name. The text cites them by typed numbers ("Fig. 1"). The PDF route read the list's
headings as empty figures 1-N (the text's citations bound to them) and the figure pages as a
second, uncaptioned figure 1-N (false FL201); the sources numbered none of the caption-less
floats, so every printed figure was "absent from the sources" (false FL008; an ecology
manuscript of the field audit). A heading that names a figure over a caption-less graphic
numbers it, and the legend listed under the same name is its caption, on both routes.
"""

from __future__ import annotations

import shutil

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest import load
from fixtures.pdf_build import compile_tex

IMAGES = {"a.png": ((400, 300), (90, 140, 200)), "b.png": ((400, 300), (200, 140, 90)),
          "c.png": ((400, 300), (60, 160, 90)), "d.png": ((400, 300), (160, 60, 90))}
TEXT = "The counts rise over the season in every plot of the survey. "
LEGENDS = [("Counts over the season", "The colour gives the count of each plot, from the poorest to the richest."),
           ("Sites of the survey", "Each dot is one site; the sites are those of Fig. 1 again."),
           ("Controls of the survey", "The controls were run as in Fig. 2.")]
HEADINGS = {
    "subsection": lambda n: f"\\subsection*{{Figure {n}}}\n",
    "bold": lambda n: f"\\noindent\\textbf{{Figure {n}}}\n\n",
    "paragraph": lambda n: f"\\paragraph*{{Fig. {n}}}\n",
    "item": lambda n: f"\\item[Figure {n}] ",
    "interleaved": lambda n: f"\\subsection*{{Figure {n}}}\n",
}


def _manuscript(style: str, legends_last: bool = False) -> str:
    head = HEADINGS[style]
    legends = "".join(head(n) + f"\\textbf{{{title}}}. {text}\n\n" for n, (title, text) in enumerate(LEGENDS, 1))
    if style == "item":  # a description list of legends; the figure pages headed by sections
        legends, head = "\\begin{description}\n" + legends + "\\end{description}\n", HEADINGS["subsection"]
    legends = "\\newpage\n\\section*{Figure legends}\n" + legends
    pages = "".join(f"\\newpage\n{head(n)}\n\\begin{{figure}}[ht!]\n\\centering\\includegraphics[width=0.6\\textwidth]{{{g}}}\n"
                    "\\end{figure}\n\n" for n, g in enumerate("abc", 1))
    if style == "interleaved":  # each figure's page: its heading, its legend, then the float
        legends, pages = "", "".join(
            f"\\newpage\n{head(n)}\\textbf{{{title}}}. {text}\n\n\\begin{{figure}}[h!]\n\\centering"
            f"\\includegraphics[width=0.6\\textwidth]{{{g}}}\n\\end{{figure}}\n\n"
            for n, ((title, text), g) in enumerate(zip(LEGENDS, "abc"), 1))
    return ("\\documentclass[12pt]{article}\n\\usepackage{graphicx,setspace}\n\\begin{document}\n\\doublespacing\n"
            "\\section*{Introduction}\n" + TEXT * 10 + "The plots are mapped in Fig. 1.\n\n" + TEXT * 6
            + "Their sites are in Fig. 2, and the controls in Fig. 3.\n\n" + TEXT * 5
            + "\\section*{References}\nA. Author. A book of counts. 2001.\n\n"
            + (pages + legends if legends_last else legends + pages) + "\\end{document}\n")


def _three_routes(tmp_path, tex: str):
    """The paper read from its PDF, from its sources alone and from both."""
    built = tmp_path / "built"
    built.mkdir()
    pdf = compile_tex(built, tex, IMAGES)
    alone = tmp_path / "sources"
    alone.mkdir()
    shutil.copy(built / "main.tex", alone / "main.tex")
    for name in IMAGES:
        shutil.copy(built / name, alone / name)
    return pdf, load(pdf), load(str(alone / "main.tex")), load(str(built / "main.tex"), pdf=pdf)


@pytest.mark.parametrize("style,legends_last", [("subsection", False), ("bold", False), ("paragraph", False),
                                                ("item", False), ("subsection", True), ("interleaved", False)])
def test_legends_listed_apart_caption_the_figures_their_headings_name(tmp_path, pdflatex, style, legends_last):
    pdf, printed, sources, both = _three_routes(tmp_path, _manuscript(style, legends_last))
    for paper in (printed, sources, both):
        what = (paper.route, [(f.number, f.page, f.caption.text[:30] if f.caption else None) for f in paper.figures])
        assert [f.number for f in paper.figures] == ["1", "2", "3"], what
        for fig, (title, text) in zip(paper.figures, LEGENDS):
            assert fig.caption is not None and fig.caption.text == f"{title}. {text}", what
        # the text's typed numbers cite them; Figure 2's legend cites Figure 1
        assert [sorted(s.sentence for s in f.sites) for f in paper.figures] == [
            ["Each dot is one site; the sites are those of Fig. 1 again.", "The plots are mapped in Fig. 1."],
            ["The controls were run as in Fig. 2.", "Their sites are in Fig. 2, and the controls in Fig. 3."],
            ["Their sites are in Fig. 2, and the controls in Fig. 3."]], what
    # the graphic is the one on the page its heading is on
    pages = [3, 4, 5] if legends_last or style == "interleaved" else [4, 5, 6]
    assert [f.page for f in printed.figures] == pages and all(len(f.images) == 1 for f in printed.figures)
    assert [f.page for f in both.figures] == pages
    assert [f.graphics for f in sources.figures] == [["a.png"], ["b.png"], ["c.png"]]
    for found in (lint_path(pdf, Config(preview=True)).findings,
                  lint_path(str(tmp_path / "built" / "main.tex"), Config(pdf=pdf, preview=True)).findings):
        # no counter to \label and a typed number the only way to cite such a figure
        assert not [f for f in found if f.code in ("FL008", "FL201", "FL203", "FL301", "FL305")], \
            [(f.code, f.message) for f in found]


NEGATIVE = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            "\\section{Figure quality}\n" + TEXT * 8 + "The plots are in Figure~\\ref{fig:a}.\n\n"
            + "".join(f"\\begin{{figure}}[t]\\centering\\includegraphics[width=0.5\\linewidth]{{{g}}}"
                      f"\\caption{{{title}.}}\\label{{fig:{g[0]}}}\\end{{figure}}\n" for g, (title, _) in zip(IMAGES, LEGENDS))
            + TEXT * 6 + "\n\nFigure 3 shows the controls, and Figure~\\ref{fig:b} the sites.\n\n"
            + "\\subsection*{Figure 2}\nThe sites were chosen at random.\n\n"
            + "\\begin{figure}[b]\\centering\\includegraphics[width=0.4\\linewidth]{d.png}\\end{figure}\n"
            + TEXT * 6 + "\n\\end{document}\n")


def test_captioned_papers_and_graphics_under_no_heading_read_as_before(tmp_path, pdflatex):
    """A section titled "Figure quality", a paragraph opening "Figure 3 shows", a heading naming
    a figure over plain text: the captioned figures keep their captions, and a caption-less
    graphic under no heading stays uncaptioned (FL201), on both routes."""
    pdf, printed, sources, both = _three_routes(tmp_path, NEGATIVE)
    for paper in (printed, sources, both):
        what = (paper.route, [(f.number, f.caption.text[:30] if f.caption else None) for f in paper.figures])
        assert sorted(f.number for f in paper.figures) == ["", "1", "2", "3"], what
        captions = {f.number: f.caption.text if f.caption else "" for f in paper.figures}
        assert [captions[n] for n in "123"] == [title + "." for title, _ in LEGENDS], what
        assert not captions[""], what
    for found in (lint_path(pdf, Config(preview=True)).findings,
                  lint_path(str(tmp_path / "built" / "main.tex"), Config(pdf=pdf, preview=True)).findings):
        assert len([f for f in found if f.code == "FL201"]) == 1, [(f.code, f.message) for f in found]
        assert not [f for f in found if f.code == "FL008"], [(f.code, f.message) for f in found]


def test_caption_less_floats_under_no_heading_after_a_list_of_legends_stay_unnumbered(tmp_path):
    """The last legend of a list, then a page break and caption-less floats with no heading
    over them: the sources name none of them (nothing says which legend is whose)."""
    from figlint.ingest.latex import read_latex

    tex = _manuscript("subsection").replace("\\subsection*{Figure 1}\n\n\\begin{figure}", "\\begin{figure}")
    tex = tex.replace("\\subsection*{Figure 2}\n\n\\begin{figure}", "\\begin{figure}")
    tex = tex.replace("\\subsection*{Figure 3}\n\n\\begin{figure}", "\\begin{figure}")
    (tmp_path / "main.tex").write_text(tex)
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [(f.number, f.caption) for f in paper.figures] == [("", None)] * 3


def _long(n: int) -> str:
    return " ".join(f"Panel {i} gives the counts of plot {i} over the season, as measured by the second team of observers."
                    for i in range(1, n))


# Figure 2's legend is too long for what is left of the list's first page: LaTeX breaks it like
# any paragraph, its last line and a half at the top of the next page (under the running head),
# over Figure 3's heading
BROKEN = [("Counts over the season", "The colour gives the count of each plot. " + _long(5)),
          ("Sites of the survey", "Each dot is one site. " + _long(10) + " The sites are those of Fig. 1 again, mapped at the same scale."),
          ("Controls of the survey", "The controls were run as in Fig. 2.")]


def _broken_legend() -> str:
    legends = "".join(f"\\subsection*{{Figure {n}}}\n\\textbf{{{title}}}. {text}\n\n" for n, (title, text) in enumerate(BROKEN, 1))
    pages = "".join(f"\\newpage\n\\subsection*{{Figure {n}}}\n\\begin{{figure}}[ht!]\n\\centering"
                    f"\\includegraphics[width=0.6\\textwidth]{{{g}}}\n\\end{{figure}}\n\n" for n, g in enumerate("abc", 1))
    return ("\\documentclass[12pt]{article}\n\\usepackage{graphicx,setspace}\n\\pagestyle{myheadings}\\markright{Submitted manuscript}\n"
            "\\begin{document}\n\\doublespacing\n\\section*{Introduction}\n" + TEXT * 10 + "The plots are mapped in Fig. 1.\n\n"
            + TEXT * 6 + "Their sites are in Fig. 2, and the controls in Fig. 3.\n\n"
            + "\\section*{References}\nA. Author. A book of counts. 2001.\n\n"
            + "\\newpage\n\\section*{Figure legends}\n" + legends + pages + "\\end{document}\n")


def test_a_listed_legend_broken_across_a_page_runs_on_at_the_next_pages_top(tmp_path, pdflatex):
    """A legend listed apart is body text, broken across a page like any paragraph: the PDF
    route read it to its page's foot and lost the rest (an ecology manuscript of the field
    audit: two legends cut short). It goes on at the top of the next page's text block, after
    the running head, to the next legend's heading; the citation in its overleaf part is a
    site of the figure it names, read once, in its whole sentence."""
    pdf, printed, sources, both = _three_routes(tmp_path, _broken_legend())
    import fitz

    with fitz.open(pdf) as doc:  # the fixture breaks Figure 2's legend over a page
        assert "Figure 2" in doc[1].get_text() and "mapped at the same scale" in doc[2].get_text()
    for paper in (printed, sources, both):
        what = (paper.route, [(f.number, f.caption.text[-60:] if f.caption else None) for f in paper.figures])
        assert [f.number for f in paper.figures] == ["1", "2", "3"], what
        assert [f.caption.text for f in paper.figures] == [f"{title}. {text}" for title, text in BROKEN], what
        assert [sorted(s.sentence for s in f.sites) for f in paper.figures] == [
            ["The plots are mapped in Fig. 1.", "The sites are those of Fig. 1 again, mapped at the same scale."],
            ["The controls were run as in Fig. 2.", "Their sites are in Fig. 2, and the controls in Fig. 3."],
            ["Their sites are in Fig. 2, and the controls in Fig. 3."]], what
    # the caption is located where the legend opens
    assert [f.caption.location.page for f in printed.figures] == [2, 2, 3]


def _graphic_missing() -> str:
    """Figure 3's graphic never made it into the manuscript (its file missing, as in a draft):
    its figure page prints the heading "Figure 3" over nothing, its entry in the list of legends
    is the heading alone, and the text never cites it."""
    tex = _manuscript("subsection")
    tex = tex.replace("Their sites are in Fig. 2, and the controls in Fig. 3.", "Their sites are in Fig. 2, mapped as before.")
    title, text = LEGENDS[2]
    tex = tex.replace(f"\\textbf{{{title}}}. {text}\n\n", "")
    return tex.replace("{c}\n\\end{figure}", "{missing}\n\\end{figure}")


def test_a_heading_naming_a_figure_is_no_citing_site_of_it(tmp_path, pdflatex):
    """In a manuscript that keeps its legends apart, a heading that names a figure is no
    sentence citing it: neither the empty entry of the list of legends nor the figure page's
    heading over a missing graphic (a draft of the field audit: the figure page's heading was
    read as the figure's only citation, false FL302/FL303/FL305, and the true FL301 hidden)."""
    tex = _graphic_missing()
    built = tmp_path / "built"
    built.mkdir()
    pdf = compile_tex(built, tex, IMAGES)
    import fitz

    with fitz.open(pdf) as doc:  # the list's entry and the figure page: the heading alone
        assert doc[2].get_text().split()[-3:] == ["Figure", "3", "3"] and doc[-1].get_text().split() == ["Figure", "3", "6"]
    papers = (load(pdf), load(str(built / "main.tex")), load(str(built / "main.tex"), pdf=pdf))
    for paper in papers:
        what = (paper.route, [(f.number, [s.sentence for s in f.sites]) for f in paper.figures])
        sites = {f.number: sorted(s.sentence for s in f.sites) for f in paper.figures}
        assert sites == {"1": ["Each dot is one site; the sites are those of Fig. 1 again.", "The plots are mapped in Fig. 1."],
                         "2": ["Their sites are in Fig. 2, mapped as before."],
                         "3": []}, what
    for found in (lint_path(pdf, Config(preview=True)).findings,
                  lint_path(str(built / "main.tex"), Config(pdf=pdf, preview=True)).findings):
        codes = sorted(f.code for f in found if f.figure == "3" and f.code.startswith("FL3"))
        assert codes[:1] == ["FL301"] and not set(codes) & {"FL302", "FL303", "FL305"}, \
            [(f.code, f.figure, f.message) for f in found]
        # Figures 1 and 2 are cited by their typed numbers, as before
        assert not [f for f in found if f.figure in ("1", "2") and f.code in ("FL301", "FL305")]


# Each figure a caption-less float on a page of its own, its legend typed as the paragraph right
# after it (a population-genetics manuscript of the field audit: "\end{figure*}" then a bold
# "Figure 1." and the legend, ten figures and eight supplementary ones)
LEGENDS_AFTER = {
    "bold": lambda n: f"\\textbf{{Figure {n}.}} ",
    "plain": lambda n: f"\n\\noindent Fig. {n}: ",
    "bare": lambda n: f"{{\\bf Figure {n}}} ",
}


def _legends_after(style: str, page_breaks: bool = True) -> str:
    label = LEGENDS_AFTER[style]
    pages = "".join(("\\newpage\n" if page_breaks else "\n") + f"\\begin{{figure*}}[!ht]\n\\centering\n"
                    f"\\includegraphics[width=0.6\\textwidth]{{{g}}}\\\\\n\\end{{figure*}}\n"
                    + label(n) + f"\\textbf{{{title}}}. {text}\n\n"
                    for n, ((title, text), g) in enumerate(zip(LEGENDS, "abc"), 1))
    return ("\\documentclass[11pt]{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            "\\section*{Introduction}\n" + TEXT * 10 + "The plots are mapped in Fig. 1.\n\n" + TEXT * 6
            + "Their sites are in Fig. 2, and the controls in Fig. 3.\n\n" + TEXT * 5
            + "\\section*{References}\nA. Author. A book of counts. 2001.\n\n\\section*{Figures}\n"
            + pages + "\\end{document}\n")


@pytest.mark.parametrize("style", ["bold", "plain", "bare"])
def test_a_legend_typed_right_after_a_caption_less_float_captions_it(tmp_path, pdflatex, style):
    """The sources read such floats as uncaptioned figures with no number (false FL201, and
    false FL008: each printed figure "absent from the sources") while the PDF route bound each
    graphic to the legend under it. The paragraph after the float, opening with a label set
    apart (bold, or a stop after its number), numbers the float and is its caption."""
    pdf, printed, sources, both = _three_routes(tmp_path, _legends_after(style))
    for paper in (printed, sources, both):
        what = (paper.route, [(f.number, f.caption.text[:40] if f.caption else None) for f in paper.figures])
        assert [f.number for f in paper.figures] == ["1", "2", "3"], what
        assert [f.caption.label for f in paper.figures] == [f"{'Fig.' if style == 'plain' else 'Figure'} {n}" for n in "123"]
        # the whole legend: its later lines start an indent left of its first (a paragraph's
        # indent), which the PDF route once took for the end of the caption
        assert [f.caption.text for f in paper.figures] == [f"{title}. {text}" for title, text in LEGENDS], what
    for paper in (sources, both):
        what = (paper.route, [(f.number, f.caption.text) for f in paper.figures])
        # the label opening each legend is no citing site; Figure 2's legend cites Figure 1
        assert [sorted(s.sentence for s in f.sites) for f in paper.figures] == [
            ["Each dot is one site; the sites are those of Fig. 1 again.", "The plots are mapped in Fig. 1."],
            ["The controls were run as in Fig. 2.", "Their sites are in Fig. 2, and the controls in Fig. 3."],
            ["Their sites are in Fig. 2, and the controls in Fig. 3."]], what
    assert [f.graphics for f in sources.figures] == [["a.png"], ["b.png"], ["c.png"]]
    assert [f.page for f in both.figures] == [f.page for f in printed.figures] == [2, 3, 4]
    for found in (lint_path(pdf, Config(preview=True)).findings,
                  lint_path(str(tmp_path / "built" / "main.tex"), Config(pdf=pdf, preview=True)).findings):
        assert not [f for f in found if f.code in ("FL008", "FL201", "FL203", "FL301")], \
            [(f.code, f.figure, f.message) for f in found]


def test_legends_typed_after_floats_with_no_page_breaks_each_go_to_the_float_before_them(tmp_path):
    """Float, legend, float, legend with no page break: each legend is the float's before it
    (the second float's legend is not the first's, nor the first's the second's)."""
    from figlint.ingest.latex import read_latex

    (tmp_path / "main.tex").write_text(_legends_after("bold", page_breaks=False))
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [(f.number, f.caption.text if f.caption else None) for f in paper.figures] == [
        (str(n), f"{title}. {text}") for n, (title, text) in enumerate(LEGENDS, 1)]


def test_a_legend_typed_before_its_float_is_not_the_float_before_it(tmp_path):
    """Legend, float, legend, float: the first float is not captioned by the second legend,
    typed after it (its own stands before it)."""
    from figlint.ingest.latex import read_latex

    tex = "".join(f"\\textbf{{Figure {n}. {title}.}} {text}\n\n\\begin{{figure}}[h]\\centering"
                  f"\\includegraphics[width=0.5\\linewidth]{{{g}}}\\end{{figure}}\n\n"
                  for n, ((title, text), g) in enumerate(zip(LEGENDS, "abc"), 1))
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
                                       + TEXT * 5 + "\n\n" + tex + "\\end{document}\n")
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures][:2] == ["", ""], [(f.number, f.caption) for f in paper.figures]


AFTER_NEGATIVE = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n\\section{Results}\n"
                  + TEXT * 8 + "The plots are in Figure~\\ref{fig:a}.\n\n"
                  "\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\linewidth]{a.png}"
                  "\\caption{Counts over the season.}\\label{fig:a}\\end{figure}\n\n" + TEXT * 4 + "\n\n"
                  "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\linewidth]{b.png}\\end{figure}\n"
                  "Figure 2 shows the sites of the survey, chosen at random. " + TEXT * 4 + "\n\n"
                  "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\linewidth]{c.png}\\end{figure}\n"
                  "Figure 1. " + TEXT * 2 + "\n\n" + TEXT * 6 + "\n\\end{document}\n")


def test_a_paragraph_after_a_float_opening_figure_n_shows_is_no_legend(tmp_path, pdflatex):
    """"Figure 2 shows ..." after a caption-less float is a sentence of the text, and a typed
    "Figure 1." names a number a caption prints: both floats stay uncaptioned (FL201), on both
    routes, and the captioned figure keeps its caption and citation."""
    pdf, printed, sources, both = _three_routes(tmp_path, AFTER_NEGATIVE)
    for paper in (sources, both):
        what = (paper.route, [(f.number, f.caption.text[:30] if f.caption else None) for f in paper.figures])
        assert [(f.number, f.caption.text if f.caption else None) for f in paper.figures] == [
            ("1", "Counts over the season."), ("", None), ("", None)], what
    found = lint_path(str(tmp_path / "built" / "main.tex"), Config(pdf=pdf, preview=True)).findings
    assert len([f for f in found if f.code == "FL201"]) == 2, [(f.code, f.message) for f in found]


def _figure_pages(label: str) -> str:
    """A submission whose legends are floats holding only a caption (after the references), then
    each figure on a page of its own, in no float, with the label the journal asks for to
    identify it: "Figure N" alone on its line in a box of its own, the authors' names and the
    journal's on the lines under it (set under the graphic as a J. Comput. Chem. submission
    does, the box's width and a \\baselineskip assignment typed around it), or over the graphic
    through \\figurename and the figure's \\ref. The text cites Figures 1 and 2 by \\ref and
    Figure 3 by its typed number, in sentences of its own lines too."""
    legends = "".join(f"\\begin{{figure}}[h!]\\caption{{{title}. {text}}}\\label{{fig:{g}}}\\end{{figure}}\n"
                      for g, (title, text) in zip("abc", LEGENDS))
    tag = "Hallen, Martin,~\\textit{et al.}\\\\\nJ.\\ Comput.\\ Chem."
    if label == "under":
        pages = "".join(f"\\newpage\n\\begin{{center}}\n\\includegraphics[width=3in]{{{g}}}\n\\end{{center}}\n"
                        f"\\vspace{{0.25in}}\n\\hspace*{{3in}}\n{{\\Large\n\\begin{{minipage}}[t]{{3in}}\n"
                        f"\\baselineskip = .5\\baselineskip\nFigure {n} \\\\\n{tag}\n\\end{{minipage}}\n}}\n\n"
                        for n, g in enumerate("abc", 1))
    else:
        pages = "".join(f"\\newpage\n\\noindent\\figurename~\\ref{{fig:{g}}}\\\\\n{tag}\n\n\\begin{{center}}\n"
                        f"\\includegraphics[width=3in]{{{g}}}\n\\end{{center}}\n\n" for g in "abc")
    return ("\\documentclass[12pt]{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            "\\section*{Introduction}\n" + TEXT * 10 + "The plots are mapped in Fig.~\\ref{fig:a}.\n\n" + TEXT * 6
            + "Their sites are in Figure~\\ref{fig:b}, and the controls in Figure 3.\n\n"
            + "\\noindent Controls and sites come next.\\\\\nFigure 3 shows the controls.\n\n" + TEXT * 5
            + "\\section*{References}\nA. Author. A book of counts. 2001.\n\n\\newpage\n" + legends + pages
            + "\\end{document}\n")


@pytest.mark.parametrize("label", ["under", "over"])
def test_a_label_naming_a_figure_on_its_own_page_is_no_citing_site(tmp_path, pdflatex, label):
    """Each figure on a page of its own with a label that identifies it, "Figure N" on a line of
    its own over the authors' names (a J. Comput. Chem. submission of the field audit): the label
    names the figure, in no sentence, and cites it no more than a heading does. Both routes read
    it as a citing site (false FL305 on the sources, one per figure page), and the sources' text
    of it also held the box's width and the \\baselineskip assignment ("3in = .5Figure 1 Hallen,
    ..."). The text's sentences stay sites, a typed one opening a line of its own too."""
    pdf, printed, sources, both = _three_routes(tmp_path, _figure_pages(label))
    import fitz

    with fitz.open(pdf) as doc:  # the figure pages: the label alone on its line, the names under it
        lines = [ln.strip() for ln in doc[-1].get_text().splitlines() if ln.strip()]
        assert lines[:3] == ["Figure 3", "Hallen, Martin, et al.", "J. Comput. Chem."], lines
    for paper in (printed, sources, both):
        sites = {f.number: sorted(s.sentence for s in f.sites) for f in paper.figures if f.number}
        assert sites == {"1": ["Each dot is one site; the sites are those of Fig. 1 again.", "The plots are mapped in Fig. 1."],
                         "2": ["The controls were run as in Fig. 2.", "Their sites are in Figure 2, and the controls in Figure 3."],
                         "3": ["Figure 3 shows the controls.", "Their sites are in Figure 2, and the controls in Figure 3."]}, \
            (paper.route, sites)
    found = lint_path(str(tmp_path / "built" / "main.tex"), Config(pdf=pdf, preview=True)).findings
    # the typed numbers of the text and the legends are hard-coded, the labels are not
    assert sorted(f.figure for f in found if f.code == "FL305") == ["1", "2", "3", "3"], [(f.code, f.figure, f.message) for f in found]


def test_register_assignments_and_environment_arguments_print_no_words(tmp_path):
    """A \\baselineskip (or \\parindent, \\tolerance) assignment typed in the text and the
    arguments of the environment a paragraph opens in (a minipage's width, a tabular's columns)
    print nothing: the sources route's text of a site never holds them."""
    from figlint.ingest.latex import read_latex
    from figlint.ingest.texparse import TextRenderer

    r = TextRenderer(None)
    assert r.latex_to_text("\\baselineskip = .5\\baselineskip Figure 1") == "Figure 1"
    assert r.latex_to_text("\\parindent 0pt\\parskip=6pt plus 2pt \\tolerance=1000 Text") == "Text"
    assert r.latex_to_text("half of \\textwidth, as 0.5\\linewidth shows") == "half of , as 0.5shows"
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\begin{figure}\\caption{A.}\\label{fig:a}\\end{figure}\n"
        "\\begin{minipage}[t]{3in}\n\\parindent=1em The plots are in Figure~\\ref{fig:a}.\n\\end{minipage}\n\n"
        "\\begin{tabular}{lc}\nPlots & Figure~\\ref{fig:a}\\\\\n\\end{tabular}\n\\end{document}\n")
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [s.sentence for s in paper.figures[0].sites] == ["The plots are in Figure 1.", "Plots Figure 1"]


def test_a_figure_named_alone_in_a_list_item_stays_a_site(tmp_path, pdflatex):
    """A list's item that names a figure and nothing else ("\\item Figure 1" in an outline of
    what the figures show) prints its mark before the name: it is read as before on both routes,
    a site of the figure, as is a sentence opening after a forced line break."""
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n" + TEXT * 4 + "\n\n"
           "The figures, in order:\n\\begin{itemize}\n\\item Figure~\\ref{fig:a}\n\\item Figure 2\n\\end{itemize}\n"
           + TEXT * 3 + "\\\\\nFigure 2 shows the sites.\n\n"
           + "".join(f"\\begin{{figure}}[h]\\centering\\includegraphics[width=0.3\\linewidth]{{{g}.png}}"
                     f"\\caption{{{title}.}}\\label{{fig:{g}}}\\end{{figure}}\n" for g, (title, _) in zip("ab", LEGENDS))
           + "\\end{document}\n")
    built = tmp_path / "built"
    built.mkdir()
    pdf = compile_tex(built, tex, IMAGES)
    for paper in (load(pdf), load(str(built / "main.tex"), pdf=pdf)):
        sites = {f.number: sorted(s.sentence.lstrip("\u2022 ") for s in f.sites) for f in paper.figures}  # the PDF's bullet
        assert sites == {"1": ["Figure 1"], "2": ["Figure 2", "Figure 2 shows the sites."]}, (paper.route, sites)
