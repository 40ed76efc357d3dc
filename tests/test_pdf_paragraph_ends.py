"""PDF route: where a body paragraph ends, so that a citing sentence is read whole.

Binding against the field papers' .aux (issue 12) found, in a double-spaced preprint, a
sentence citing "Figure 7a, middle" cut in two by two general causes:
- a row split at a formula into pieces, the last one "1=" (a subscript and a sign, one
  character each), read as small as the subscript by the tie, so the size change opened a
  new paragraph as a footnote's would;
- the paragraph's last line (short, ending the sentence), set close above a float, was taken
  into the figure's region as figure text.
Both compiled with pdflatex; the negative keeps a note set inside the float, over its
graphic, out of the paragraph above it.
"""

from __future__ import annotations

from fixtures.pdf_build import compile_tex, paragraphs_read

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}
PRE = "\\documentclass[12pt]{article}\n\\usepackage{graphicx}\n\\usepackage{setspace}\n\\doublespacing\n\\begin{document}\n"
BEFORE = "Some text before. " * 30 + "\n\n"


def _fig(note: str = "") -> str:
    return ("\\begin{figure}[h]\\centering " + note + "\\includegraphics[width=0.6\\textwidth]{p.png}"
            "\\caption{Bias as a function of the threshold.}\\label{fig:a}\\end{figure}\n")


def _paragraph_with(folder, tex: str, words: str) -> str:
    folder.mkdir()
    got = [p for p in paragraphs_read(compile_tex(folder, tex, IMAGES)) if words in p]
    assert len(got) == 1, got
    return got[0]


def test_a_row_piece_of_a_script_and_a_sign_does_not_end_the_paragraph(tmp_path, pdflatex):
    para = ("Setting the threshold to the decision boundary yields a smaller bias when $\\beta^g_1$ is large, "
            "and the two approaches coincide when $\\beta^g_1$ is intermediate (i.e., $\\beta^g_1{=}$\\linebreak "
            "$2\\Phi^{-1}(3/4)$; Figure~\\ref{fig:a}a, middle).\n\n")
    tex = PRE + BEFORE + para + "Another paragraph follows here. " * 10 + "\n\n" + _fig() + "\\end{document}\n"
    got = _paragraph_with(tmp_path / "a", tex, "middle")
    assert got.startswith("Setting the threshold") and got.endswith("Figure 1a, middle).")


def test_the_last_line_of_a_paragraph_over_a_float_is_the_paragraph_s(tmp_path, pdflatex):
    para = ("The two approaches coincide when the effect is intermediate, as the middle panel of "
            "Figure~\\ref{fig:a} shows for all of the settings we tried in this study. "
            "Nothing else is drawn in that panel at all.\n\n")
    tex = PRE + BEFORE + para + _fig() + "More text. " * 20 + "\\end{document}\n"
    got = _paragraph_with(tmp_path / "a", tex, "coincide")
    assert got.endswith("Nothing else is drawn in that panel at all.")
    # negative: a note set in the float over its graphic is the float's, not the paragraph's
    tex = PRE + BEFORE + para + _fig("All values are given in units of the ensemble mean.\\\\\n") + "More text. " * 20 \
        + "\\end{document}\n"
    got = _paragraph_with(tmp_path / "b", tex, "coincide")
    assert got.endswith("in that panel at all.")


def test_a_row_split_at_stacked_scripts_is_read_in_order(tmp_path, pdflatex):
    # A physics paper (binding against .aux): inline formulas with a superscript and a
    # subscript stacked under it ($\Delta^F_{(7,6)}$, a norm $||x^{a,b}_{(n,n)}||_\infty$)
    # split each row into pieces; sorted by their tops the subscript came after the words
    # to its right, and a row ending in a script-size piece opened a new paragraph (its size
    # read as a footnote's), which cut the citing sentences.
    pre = "\\documentclass[twocolumn]{article}\n\\usepackage{graphicx}\n\\usepackage{amsmath}\n\\begin{document}\n"
    para = ("We plot $\\Delta^F_{(7,6)}$ in Figure~\\ref{fig:a}, demonstrating that $\\Delta^F_{(7,6)} < 10^{-6}$ "
            "across the domain. To estimate the interpolation error of our spline, $\\Delta^F_{(8,7)}$, we examine "
            "the convergence rate of $|| \\Delta^{t,\\Omega t,\\Phi}_{(n+1,n)} ||_\\infty$\\linebreak in "
            "Figure~\\ref{fig:a}. We find that it holds.\n\n")
    fig = ("\\begin{figure}[t]\\centering\\includegraphics[width=0.6\\columnwidth]{p.png}"
           "\\caption{Bias as a function of the threshold.}\\label{fig:a}\\end{figure}\n")
    tex = pre + BEFORE + para + "Another paragraph follows here. " * 10 + "\n\n" + fig + "\\end{document}\n"
    got = _paragraph_with(tmp_path / "a", tex, "convergence")
    assert got.startswith("We plot") and got.endswith("We find that it holds.")
    assert "that ∆F (7,6) < 10−6 across the domain. To estimate the" in got
    # negative: the paragraph after it (a new paragraph, indented) stays apart
    assert "Another paragraph" not in got


def test_a_raised_radical_sign_inside_a_row_does_not_open_a_paragraph(tmp_path, pdflatex):
    # A double-spaced preprint (binding against .aux): "... spans a factor⏎of ∼√N (Fig. 3)."
    # The radical sign stands higher than its row (it covers the radicand) and comes as a
    # piece of its own: read as a row of its own, set right of the column's edge, it looked
    # like a new paragraph's indented first line and cut the citing sentence in two.
    para = ("On the same synthetic network the recovered means nearly coincide, but the reported error spans a "
            "factor\\linebreak of $\\sim\\!\\sqrt{N}$ (Figure~\\ref{fig:a}). A change that is significant under "
            "one convention is not under another.\n\n")
    tex = PRE + BEFORE + para + "Another paragraph follows here. " * 10 + "\n\n" + _fig() + "\\end{document}\n"
    got = _paragraph_with(tmp_path / "a", tex, "convention")
    assert got.startswith("On the same synthetic") and got.endswith("not under another.")
    assert "spans a factor of" in got
    # negative: the paragraph after it stays apart
    assert "Another paragraph" not in got
