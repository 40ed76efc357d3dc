"""PDF route: a float's graphics are one figure however far apart its rows are set.

Field audit (issue 12, "an image grid ... is one figure"): a thesis set a 2x2 grid of
plots with a wide gap between the rows, and a Springer Nature paper a 2x2 grid of
sub-figures whose hyperref anchor sits under the grid (no hypcap), so the upper rows
became captionless figures (false FL201, and FL102 reported twice). Each case compiled
with pdflatex; the negative cases keep two stacked floats, and a picture set in the
running text above a figure, apart.
"""

from __future__ import annotations


import pytest

from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_tex

IMAGES = {f"p{k}.png": ((300, 200), (40 * k, 120, 200)) for k in range(1, 5)}


def _compile(folder, tex: str) -> str:
    return compile_tex(folder, tex, IMAGES)

PREAMBLE = r"""\documentclass{article}
\usepackage{graphicx}
\usepackage[hidelinks]{hyperref}
"""

TEXT = ("The measurements were repeated on each of the four runs and the periodograms were "
        "computed with the same window for every run of the campaign. ")


def _grid(gap: str) -> str:
    return (r"\includegraphics[width=0.45\textwidth]{p1.png}\hfill\includegraphics[width=0.45\textwidth]{p2.png}"
            f"\n\n\\vspace*{{{gap}}}\n\n"
            r"\includegraphics[width=0.45\textwidth]{p3.png}\hfill\includegraphics[width=0.45\textwidth]{p4.png}")


def _figures(pdf: str):
    paper = read_pdf(pdf)
    return [(f.number, len(f.images)) for f in paper.figures]


def test_grid_rows_set_far_apart_are_one_figure(tmp_path, pdflatex):
    tex = (PREAMBLE + "\\begin{document}\n" + TEXT * 6 + "See Figure~\\ref{fig:g}.\n"
           "\\begin{figure}[t]\n\\centering\n" + _grid("60pt") +
           "\n\\caption{Light curves and periodograms of the four runs.}\\label{fig:g}\n\\end{figure}\n"
           + TEXT * 6 + "\n\\end{document}\n")
    assert _figures(_compile(tmp_path, tex)) == [("1", 4)]


def test_subfigure_grid_with_the_anchor_under_it_is_one_figure(tmp_path, pdflatex):
    panel = ("\\begin{{subfigure}}{{0.45\\textwidth}}\\includegraphics[width=\\linewidth]{{p{k}.png}}"
             "\\caption{{Run {k}}}\\end{{subfigure}}")
    row = lambda a, b: panel.format(k=a) + "\\hfill" + panel.format(k=b)  # noqa: E731
    sub = row(1, 2) + "\n\n\\vspace{30pt}\n\n" + row(3, 4)
    tex = (PREAMBLE.replace("\\usepackage[hidelinks]{hyperref}",
                            "\\usepackage[hypcap=false]{caption}\n\\usepackage{subcaption}\n\\usepackage[hidelinks]{hyperref}")
           + "\\begin{document}\n" + TEXT * 6 + "See Figure~\\ref{fig:g}.\n"
           "\\begin{figure}[t]\n\\centering\n" + sub +
           "\n\\caption{Error convergence of the four meshes.}\\label{fig:g}\n\\end{figure}\n"
           + TEXT * 6 + "\n\\end{document}\n")
    assert _figures(_compile(tmp_path, tex)) == [("1", 4)]


def test_two_stacked_floats_stay_two_figures(tmp_path, pdflatex):
    fig = ("\\begin{{figure}}[t]\n\\centering\n\\includegraphics[width=0.45\\textwidth]{{p{k}.png}}\n"
           "\\caption{{Run {k} of the campaign.}}\\label{{fig:{k}}}\n\\end{{figure}}\n")
    tex = (PREAMBLE + "\\begin{document}\n" + TEXT * 3 + "See Figures~\\ref{fig:1} and~\\ref{fig:2}.\n"
           + fig.format(k=1) + fig.format(k=2) + TEXT * 8 + "\n\\end{document}\n")
    assert _figures(_compile(tmp_path, tex)) == [("1", 1), ("2", 1)]


def test_a_picture_in_the_text_above_a_figure_is_not_part_of_it(tmp_path, pdflatex):
    tex = (PREAMBLE + "\\begin{document}\n" + TEXT * 2 + "\n\n\\noindent\\includegraphics[width=0.45\\textwidth]{p1.png}\n\n"
           + TEXT * 2 + "See Figure~\\ref{fig:g}.\n"
           "\\begin{figure}[h]\n\\centering\n\\includegraphics[width=0.45\\textwidth]{p2.png}\n"
           "\\caption{Run 2 of the campaign.}\\label{fig:g}\n\\end{figure}\n" + TEXT * 4 + "\n\\end{document}\n")
    figs = _figures(_compile(tmp_path, tex))
    assert ("1", 1) in figs and len(figs) == 2, figs


def test_a_label_on_its_own_line_over_a_short_title_owns_the_graphic_below(tmp_path, pdflatex):
    # APA (apa7): "Figure 1" in bold on a line of its own, the title under it, the graphic
    # below both, wider than the title; a note under the graphic
    tex = (PREAMBLE.replace("\\usepackage[hidelinks]{hyperref}",
                            "\\usepackage[labelsep=newline,singlelinecheck=false,labelfont=bf,textfont=it]{caption}\n"
                            "\\usepackage[hidelinks]{hyperref}")
           + "\\begin{document}\n" + TEXT * 6 + "See Figure~\\ref{fig:g}.\n"
           "\\begin{figure}[t]\n\\caption{Simulation conditions}\\label{fig:g}\n"
           "\\includegraphics[width=\\textwidth]{p1.png}\n\n\\small\\textit{Note.} Each run was simulated "
           "one hundred times with the same settings.\n\\end{figure}\n" + TEXT * 6 + "\n\\end{document}\n")
    assert _figures(_compile(tmp_path, tex)) == [("1", 1)]


def test_pgfplots_axes_in_the_body_font_under_a_thick_header_rule(tmp_path, pdflatex):
    """pgfplots sets tick labels in the body's font and size: a row of them spanning the text
    block ("-125 -120 ... -105", "-100 ... -75") is no running text that ends the figure's
    region, though it is wide and its gaps are about a word space. The rule a class draws under
    its running head (2 pt here) belongs to the head, not to the figure below it."""
    axis = ("\\begin{{tikzpicture}}\\begin{{axis}}[width=0.5\\linewidth, height=5cm, xtick={{{t}}}]"
            "\\addplot coordinates {{({a},1) ({b},3)}};\\end{{axis}}\\end{{tikzpicture}}")
    tex = (PREAMBLE + "\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.17}\n\\usepackage{fancyhdr}\n"
           "\\pagestyle{fancy}\n\\fancyhead[L]{RUNNING HEAD OF THE PAPER}\n\\fancyhead[R]{\\thepage}\n\\renewcommand{\\headrulewidth}{2pt}\n"
           "\\begin{document}\nSee Figure~\\ref{fig:g}.\n\\begin{figure}[t]\n\\centering\n"
           + axis.format(t="-125,-120,-115,-110,-105", a=-125, b=-105) + "%\n"
           + axis.format(t="-100,-95,-90,-85,-80,-75", a=-100, b=-75)
           + "\n\\caption{Two runs of the model over the western and the eastern half.}\\label{fig:g}\n"
           "\\end{figure}\n" + (TEXT * 6 + "\n\n") * 14 + "\\end{document}\n")
    paper = read_pdf(_compile(tmp_path, tex))
    assert [f.number for f in paper.figures] == ["1"]
    box = paper.figures[0].bbox
    head_rule_bottom = 102.0  # the 2 pt rule under the running head, as pdflatex sets it here
    assert box is not None and box[1] > head_rule_bottom + 10  # the plots' top, not the rule
    assert box[3] - box[1] > 100  # both axes, their ticks and tick labels


@pytest.mark.parametrize("size", ["\\normalsize", "\\large"])
def test_bold_panel_titles_between_the_rows_are_not_headings(tmp_path, pdflatex, size):
    """A grid whose panels carry bold titles such as "(c) Second site", flush with the column
    and at body size or larger: they read like run-in headings or titles, which end a
    figure's region, but a line opening with a panel letter is the panel's title."""
    def panel(k: int, name: str) -> str:
        return (f"\\begin{{minipage}}{{0.45\\textwidth}}{{{size}\\bfseries ({chr(96 + k)}) {name}}}\\\\[2pt]"
                f"\\includegraphics[width=\\linewidth]{{p{k}.png}}\\end{{minipage}}")
    grid = (panel(1, "First site") + "\\hfill" + panel(2, "Second site") + "\n\n\\vspace{12pt}\n\n"
            + panel(3, "Third site") + "\\hfill" + panel(4, "Fourth site"))
    tex = (PREAMBLE + "\\begin{document}\n" + TEXT * 6 + "See Figure~\\ref{fig:g}.\n"
           "\\begin{figure}[t]\n\\noindent " + grid +
           "\n\\caption{Rank correlation of the four sites against the overlap of the two groups.}\\label{fig:g}\n"
           "\\end{figure}\n" + TEXT * 6 + "\n\\end{document}\n")
    assert _figures(_compile(tmp_path, tex)) == [("1", 4)]


def test_a_displayed_equation_between_a_floats_panels_does_not_split_it(tmp_path, pdflatex):
    """A float holding a graphic, then a displayed matrix equation, then a row of two charts and
    the caption: the equation is the float's text, not running text, and the top graphic is the
    figure's first panel however far the equation sets it from the charts (field audit: the top
    panel was read as a figure without a caption, false FL201)."""
    matrix = ("\\[\\begin{bmatrix} p_1 \\\\ p_2 \\\\ p_3 \\\\ \\vdots \\\\ p_n \\end{bmatrix} = "
              "\\begin{bmatrix} 1 & 1 & \\cdots & 1 \\\\ k_1 & -h & \\cdots & 0 \\\\ 0 & k_2 & \\cdots & 0 \\\\ "
              "\\vdots & \\vdots & \\ddots & \\vdots \\\\ 0 & 0 & \\cdots & -h \\end{bmatrix}^{-1}"
              "\\begin{bmatrix} 1 \\\\ 0 \\\\ 0 \\\\ \\vdots \\\\ 0 \\end{bmatrix}\\]\n")
    tex = (PREAMBLE.replace("\\usepackage{graphicx}", "\\usepackage{graphicx,amsmath}")
           + "\\begin{document}\n" + TEXT * 6 + "See Figure~\\ref{fig:g}.\n"
           "\\begin{figure}[t]\n\\centering\n\\includegraphics[width=0.4\\textwidth]{p1.png}\n\n"
           "\\vspace*{30pt}\n" + matrix + "\\vspace*{30pt}\n\n"
           "\\includegraphics[width=0.45\\textwidth]{p2.png}\\hfill\\includegraphics[width=0.45\\textwidth]{p3.png}\n"
           "\\caption{The populations of the three states against the acidity.}\\label{fig:g}\n\\end{figure}\n"
           + TEXT * 6 + "\n\\end{document}\n")
    assert _figures(_compile(tmp_path, tex)) == [("1", 3)]


def test_a_picture_and_an_equation_in_the_text_above_a_figure_stay_apart(tmp_path, pdflatex):
    tex = (PREAMBLE.replace("\\usepackage{graphicx}", "\\usepackage{graphicx,amsmath}")
           + "\\begin{document}\n" + TEXT * 2 + "\n\n\\noindent\\includegraphics[width=0.45\\textwidth]{p1.png}\n\n"
           + TEXT * 2 + "\\[ p = \\frac{1}{1 + 10^{\\,h - k}} \\]\n" + TEXT + "See Figure~\\ref{fig:g}.\n"
           "\\begin{figure}[h]\n\\centering\n\\includegraphics[width=0.45\\textwidth]{p2.png}\n"
           "\\caption{Run 2 of the campaign.}\\label{fig:g}\n\\end{figure}\n" + TEXT * 4 + "\n\\end{document}\n")
    figs = _figures(_compile(tmp_path, tex))
    assert ("1", 1) in figs and len(figs) == 2, figs
