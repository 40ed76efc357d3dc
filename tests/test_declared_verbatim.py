"""Verbatim environments a paper declares itself (listings' \\lstnewenvironment, fancyvrb's
\\DefineVerbatimEnvironment, minted's \\newminted, tcolorbox's \\newtcblisting), in the main
file or in a package the paper ships, hold code, not LaTeX: a brace of the code is no
unbalanced brace (field audit: a software paper's C++ listing in an environment its own .sty
declares gave a false FL006), and a \\ref written in the code cites nothing."""

from __future__ import annotations

import subprocess

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest.latex import read_latex
from figlint.ingest.texsource import declared_verbatim

STY = ("\\ProvidesPackage{paperlisting}\n\\RequirePackage{listings}\n"
       "\\lstnewenvironment{cppcode}{\\lstset{language=C++}}{}\n")
BODY = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{paperlisting}\n\\begin{document}\n"
        "Figure~\\ref{fig:a} shows the speed of the library against the baseline over ten runs.\n"
        "\\begin{cppcode}\nint main() {\n  if (x) { // the closing brace is elided: ...\n"
        "  see \\ref{fig:b} in the code\n\\end{cppcode}\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{plot.png}"
        "\\caption{Speed of the library against the baseline over ten runs.}\\label{fig:a}\\end{figure}\n"
        "\\end{document}\n")


def test_declarations_name_the_environments():
    assert declared_verbatim("\\lstnewenvironment{code}{}{}\n\\DefineVerbatimEnvironment{Sinput}{Verbatim}{}\n"
                             "\\newminted{python}{}\n\\newminted[pyc]{python}{}\n% \\lstnewenvironment{off}{}{}\n"
                             "\\newtcblisting[auto counter]{mylisting}{}\n") \
        == {"code", "Sinput", "pythoncode", "pyc", "mylisting"}
    # fancyvrb's wrapper (a SIGPLAN pearl's Haskell listings): \VerbatimEnvironment, then minted or Verbatim
    assert declared_verbatim("\\newenvironment{spec}{\\VerbatimEnvironment\\begin{minted}{haskell}}{\\end{minted}}\n"
                             "\\newenvironment{plain}{\\begin{center}}{\\end{center}}\n") == {"spec"}


def test_an_environment_the_paper_s_own_package_declares_is_verbatim(tmp_path, pdflatex):
    from PIL import Image

    Image.new("RGB", (300, 200), (90, 140, 200)).save(tmp_path / "plot.png")
    (tmp_path / "paperlisting.sty").write_text(STY)
    (tmp_path / "main.tex").write_text(BODY)
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=tmp_path, capture_output=True, timeout=120)
    assert (tmp_path / "main.pdf").exists()  # LaTeX reads the listing as code: it compiles
    paper = read_latex(str(tmp_path / "main.tex"))
    assert not [p for p in paper.problems if p.code == "FL006"], paper.problems
    assert [f.number for f in paper.figures] == ["1"]
    codes = {f.code for f in lint_path(str(tmp_path / "main.tex"), Config(select=["ALL"])).findings}
    assert not codes & {"FL006", "FL304"}, codes  # no brace trouble, no \ref to an unknown label
    (tmp_path / "paperlisting.sty").write_text("\\ProvidesPackage{paperlisting}\n\\RequirePackage{listings}\n")
    assert [p.code for p in read_latex(str(tmp_path / "main.tex")).problems if p.code == "FL006"]  # undeclared: read


def test_a_verbatim_wrapper_declared_with_newenvironment_is_verbatim(tmp_path, pdflatex):
    """\\newenvironment{code}{\\VerbatimEnvironment\\begin{Verbatim}}{\\end{Verbatim}}, as fancyvrb's
    manual shows: the code in it is not LaTeX (no FL006 for its lone brace)."""
    from PIL import Image

    Image.new("RGB", (300, 200), (90, 140, 200)).save(tmp_path / "plot.png")
    (tmp_path / "main.tex").write_text(BODY.replace("\\usepackage{paperlisting}", "\\usepackage{fancyvrb}\n"
                                                    "\\newenvironment{cppcode}{\\VerbatimEnvironment\\begin{Verbatim}}"
                                                    "{\\end{Verbatim}}"))
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=tmp_path, capture_output=True, timeout=120)
    assert (tmp_path / "main.pdf").exists()
    paper = read_latex(str(tmp_path / "main.tex"))
    assert not [p for p in paper.problems if p.code == "FL006"], paper.problems
    assert [f.number for f in paper.figures] == ["1"]


def test_environments_of_distributed_packages_and_classes_are_verbatim(tmp_path):
    """A package the paper loads from TeX Live (pythonhighlight's `python`), R's Sweave.sty
    or the JSS class declares its code environments where the paper cannot be read: they are
    known by name, so the code in them is not LaTeX either (no FL006 for a lone brace)."""
    code = "def f(x):\n    return {x: 1  # a lone brace, and \\ref{fig:b} in the code\n"
    for preamble, env in (("\\documentclass{article}\n\\usepackage{graphicx,pythonhighlight}", "python"),
                          ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{Sweave}", "Sinput"),
                          ("\\documentclass[article]{jss}\n\\usepackage{graphicx}", "CodeInput")):
        (tmp_path / "main.tex").write_text(
            preamble + "\n\\begin{document}\nFigure~\\ref{fig:a} shows the speed.\n"
            f"\\begin{{{env}}}\n{code}\\end{{{env}}}\n"
            "\\begin{figure}[h]\\includegraphics{plot.png}\\caption{Speed over ten runs.}\\label{fig:a}\\end{figure}\n"
            "\\end{document}\n")
        paper = read_latex(str(tmp_path / "main.tex"))
        assert not [p for p in paper.problems if p.code == "FL006"], (env, paper.problems)
        assert [f.number for f in paper.figures] == ["1"], env
    # the same environment name with no package that declares it is read as LaTeX
    (tmp_path / "main.tex").write_text((tmp_path / "main.tex").read_text().replace("[article]{jss}", "{article}"))
    assert [p.code for p in read_latex(str(tmp_path / "main.tex")).problems if p.code == "FL006"]
