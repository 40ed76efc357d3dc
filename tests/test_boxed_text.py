"""Boxes of set text are not figures (issue 12: what is and is not a figure).

A code listing on a shaded ground (listings' backgroundcolor, one grey strip per line), a framed
box of short algorithm lines and a tcolorbox of typewriter text are drawn shapes with text
inside, and the PDF route read each as a figure without a caption: seven false FL201 on a
field-audit paper whose Julia listings are set on grey. Their rows sit on one line grid
(blank lines in code are whole steps of it), which no diagram's labels or plot's ticks do.
An uncaptioned chart drawn in TikZ and an uncaptioned plot are still figures without captions (the
negative cases), and the sources route, which knows a listing from a figure, agrees.
Compiled with pdflatex.
"""

from __future__ import annotations

from fixtures.boxed_paper import PARA, assert_only_the_captioned_figure, assert_two_uncaptioned_figures, compile_boxed_paper

LISTING = "\n".join([
    "using Statistics",
    "function step!(state, dt)",
    "    for i in eachindex(state.u)",
    "        state.u[i] += dt * state.v[i]",
    "    end",
    "",
    "    state.t += dt",
    "    return state",
    "end",
    "",
    "",
    "run = simulate(step!, 100)",
])

ALGORITHM = "\\\\\n".join([
    "\\textbf{Input:} a mesh $M$ and a tolerance $\\epsilon$",
    "set $r \\leftarrow \\infty$",
    "\\textbf{while} $r > \\epsilon$ \\textbf{do}",
    "\\quad refine the marked cells",
    "\\quad solve on $M$ and set $r$",
    "\\textbf{return} $M$",
])

# a bar chart drawn in the float-less text: its tick labels are rows of text too, but many
# sizes apart
CHART = ("\\begin{center}\\begin{tikzpicture}[font=\\tiny]\n"
         "\\draw (0,0) -- (6,0); \\draw (0,0) -- (0,3);\n"
         + "".join(f"\\fill[blue!50] ({k + 0.2},0) rectangle ({k + 0.8},{h});\n"
                   for k, h in enumerate((1.2, 2.5, 1.8, 2.9, 0.7, 2.1)))
         + "".join(f"\\node[left] at (0,{y}) {{{10 * y}}};\n" for y in range(4))
         + "".join(f"\\node[below] at ({k + 0.5},0) {{run {k + 1}}};\n" for k in range(6))
         + "\\end{tikzpicture}\\end{center}\n")


def _compile(folder, loose_graphics: bool) -> str:
    return compile_boxed_paper(
        folder, "\\usepackage{graphicx,xcolor,listings,tikz,tcolorbox}\n"
        "\\lstset{basicstyle=\\ttfamily\\scriptsize, backgroundcolor=\\color{gray!12}, frame=none}\n",
        "\\begin{lstlisting}\n" + LISTING + "\n\\end{lstlisting}\n\n" + PARA + "\n\n"
        "\\noindent\\fcolorbox{black}{yellow!10}{\\begin{minipage}{0.6\\textwidth}\\small\n"
        + ALGORITHM + "\n\\end{minipage}}\n\n" + PARA + "\n\n"
        "\\begin{tcolorbox}\\ttfamily\\footnotesize " + "\\\\\n".join(
            f"solver.tolerance[{k}] = 1e-{k + 3}" for k in range(6)) + "\n\\end{tcolorbox}\n\n"
        + PARA + "\n\n"
        + (CHART + "\n" + PARA + "\n\n\\begin{center}\\includegraphics[width=6cm]{plot.png}\\end{center}\n\n"
           if loose_graphics else ""))


def test_listings_and_boxed_text_are_not_figures(tmp_path, pdflatex):
    assert_only_the_captioned_figure(_compile(tmp_path, loose_graphics=False), str(tmp_path / "main.tex"))


def test_uncaptioned_charts_are_still_figures(tmp_path, pdflatex):
    assert_two_uncaptioned_figures(_compile(tmp_path, loose_graphics=True))
