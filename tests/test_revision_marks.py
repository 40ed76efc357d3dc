"""Revision marks as the build prints them (issue 12: LaTeX text as printed).

A revised manuscript marks its edits in captions too. AASTeX's `\\replaced{old}{new}` prints
the new text alone unless the class option `trackchanges` is given; the `changes` package's
`\\replaced{new}{old}` prints both (the old struck out), or the new alone with `final`. Read
as unknown macros, the old words went into the LaTeX route's caption: a caption that looked
stale against the PDF (false FL008, field audit: an AASTeX 6.3 paper) and old values a rule
took for ones the figure must show. Each variant is compiled by pdflatex; the caption the
sources give must be the one the PDF prints.
"""

from __future__ import annotations

import subprocess

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from figlint.ingest.latex import read_latex
from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_tex

# (long enough to wrap: AASTeX sets a caption that fits on one line as measured, with the marks
# switched off, so both texts print there; a longer one is set again with the marks working)
CAPTION = ("Share of converged runs, \\replaced{OLD}{NEW} of them within ten steps\\deleted{ GONE}"
           "\\added{ over all seeds}, counted for every solver and every problem size of the benchmark, "
           "with the runs that stopped early left out of both the counts and the shares shown here.")


def _kpse(name: str) -> bool:
    try:
        return bool(subprocess.run(["kpsewhich", name], capture_output=True, text=True).stdout.strip())
    except OSError:
        return False


def _paper(preamble: str, caption: str) -> str:
    return (preamble + "\\usepackage{graphicx}\n\\begin{document}\n"
            "Figure~\\ref{fig:a} shows how many runs converge, and how quickly they do so.\n"
            "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}\\caption{" + caption
            + "}\\label{fig:a}\\end{figure}\n\\end{document}\n")


CASES = {
    # (preamble, caption, the words the PDF prints)
    "aastex": ("\\documentclass{aastex631}\n", CAPTION, "NEW", "OLD"),
    "changes-final": ("\\documentclass{article}\n\\usepackage[final]{changes}\n",
                      CAPTION.replace("{OLD}{NEW}", "{NEW}{OLD}"), "NEW", "OLD"),
    "changes-draft": ("\\documentclass{article}\n\\usepackage{changes}\n",
                      CAPTION.replace("{OLD}{NEW}", "{NEW}{OLD}"), "NEWOLD", None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_revision_marks_read_as_printed(tmp_path, pdflatex, case):
    preamble, caption, printed, hidden = CASES[case]
    if case == "aastex" and not _kpse("aastex631.cls"):
        pytest.skip("aastex631.cls is not installed (texlive-publishers)")
    compile_tex(tmp_path, _paper(preamble, caption), {"plot.png": ((400, 200), (90, 140, 200))})
    on_page = read_pdf(str(tmp_path / "main.pdf")).figure("1").caption.text
    from_tex = read_latex(str(tmp_path / "main.tex")).figure("1").caption.text
    assert printed in on_page and (hidden is None or hidden not in on_page), on_page  # the fixture
    assert printed in from_tex and (hidden is None or hidden not in from_tex), from_tex
    assert ("GONE" in from_tex) == ("GONE" in on_page)
    cfg = Config(preview=True, pdf=str(tmp_path / "main.pdf"))
    assert "FL008" not in [f.code for f in lint_path(str(tmp_path / "main.tex"), cfg).findings]


def test_inline_code_options_do_not_print(tmp_path, pdflatex):
    """`\\lstinline[style=...]{code}` (here through a paper's own macro, as a field-audit paper
    names its functions in captions) prints the code, not its options: the LaTeX route's caption
    read "[style=inline]fftn_mpi" and differed from the PDF's."""
    pre = ("\\documentclass{article}\n\\usepackage{listings}\n\\lstdefinestyle{inline}{basicstyle=\\ttfamily}\n"
           "\\newcommand{\\code}[1]{\\lstinline[style=inline]{#1}}\n"
           "\\newcommand{\\inpy}{\\lstinline[style=inline]}\n")  # a macro that ends awaiting its argument
    caption = ("Forward \\code{fftn} and inverse \\lstinline[language=C]{ifftn} transforms of the slab "
               "decomposition, then \\inpy{irfft} on each pencil.")
    compile_tex(tmp_path, _paper(pre, caption), {"plot.png": ((400, 200), (90, 140, 200))})
    on_page = read_pdf(str(tmp_path / "main.pdf")).figure("1").caption.text
    from_tex = read_latex(str(tmp_path / "main.tex")).figure("1").caption.text
    assert "irfft" in on_page and "style" not in on_page  # the fixture
    assert " ".join(from_tex.split()) == " ".join(on_page.split()), (from_tex, on_page)
