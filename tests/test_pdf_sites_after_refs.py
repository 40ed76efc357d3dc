"""PDF route: text after a bibliography is running text again when a heading as large as the
bibliography's own starts the next part (issue 12: citing sites as a reader counts them).

Field audit: a Springer contributed book (svmult) ends every chapter with its references,
and every citation after the first chapter's bibliography was skipped as a back-reference
(44 of 51 citing sites lost); a numbered appendix after the references ("9 Appendix") was
lost the same way. Compiled with pdflatex; the bibliography's own entries stay skipped.
"""

from __future__ import annotations


from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_tex

IMAGES = {"plot.png": ((300, 200), (90, 140, 200))}


def _compile(folder, tex: str) -> str:
    return compile_tex(folder, tex, IMAGES)

TEXT = "The measurements were repeated on every run with the same window and the same filter. "


def _fig(label: str, what: str) -> str:
    return ("\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}"
            f"\\caption{{{what} of the four runs.}}\\label{{{label}}}\\end{{figure}}\n")


def _bib(n: int) -> str:
    # an entry that names a figure: a back-reference, never a citing site
    return ("\\begin{thebibliography}{9}\n"
            + "".join(f"\\bibitem{{k{n}{i}}} A. Author. Figure {i} of a report. 2020.\n" for i in range(1, 3))
            + "\\end{thebibliography}\n")


def test_each_chapter_ending_with_its_references(tmp_path, pdflatex):
    tex = ("\\documentclass{book}\n\\usepackage{graphicx}\n\\begin{document}\n"
           "\\chapter{First}\n" + TEXT * 4 + "Figure~\\ref{fig:a} shows the first result.\n" + _fig("fig:a", "Latency")
           + _bib(1) + "\\chapter{Second}\n" + TEXT * 4 + "Figure~\\ref{fig:b} shows the second result.\n"
           + _fig("fig:b", "Throughput") + _bib(2) + "\\end{document}\n")
    paper = read_pdf(_compile(tmp_path, tex))
    assert [(f.number, len(f.sites)) for f in paper.figures] == [("1.1", 1), ("2.1", 1)]


def test_a_numbered_appendix_after_the_references(tmp_path, pdflatex):
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n\\section{Results}\n"
           + TEXT * 4 + "Figure~\\ref{fig:a} shows the result.\n" + _fig("fig:a", "Latency")
           + _bib(1) + "\\section{Appendix}\n" + TEXT * 3 + "Figure~\\ref{fig:a} is read again here.\n\\end{document}\n")
    paper = read_pdf(_compile(tmp_path, tex))
    assert [(f.number, len(f.sites)) for f in paper.figures] == [("1", 2)]
