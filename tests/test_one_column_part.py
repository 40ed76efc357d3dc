"""PDF route: a two-column paper with pages set in one column (an appendix, a list of items or
the references set full width).

The document-wide columns come from where long lines start. The one-column part's indented
lines (list items) start a little right of the left column's edge and reach the right margin:
merged with the left column they made one column over the whole text block, every line of
the right column then crossed no gutter of its own, and two-column pages were read row by row
across both columns (the field audit's two-column paper with a one-column appendix: a citing
sentence of the right column was cut and glued to the left column's line beside it).
"""

from __future__ import annotations

from fixtures.pdf_build import compile_tex, cut_sentences

ITEM = ("This item of the appendix is set over the full width of the page and says nothing about any "
        "figure at all, only that the list goes on with more words in it, line after line, so that "
        "it reaches the right margin several times before it ends here. ")


def _tex(parts: int = 10, sentences: int = 14, items: int = 14) -> str:
    body = "\n\n".join(f"Sentence {k} " + "; ".join(f"part {i} of it says that Figure~\\ref{{fig:a}} holds nothing new"
                                                    for i in range(parts)) + " at all." for k in range(sentences))
    lst = "\n".join("\\item " + ITEM * 3 for _ in range(items))
    return ("\\documentclass[twocolumn]{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            "\\begin{figure}[t]\\centering\\rule{4cm}{3cm}\\caption{A plot.}\\label{fig:a}\\end{figure}\n"
            + body + "\n\n\\onecolumn\n\\section*{Appendix}\n\\begin{enumerate}\n" + lst + "\n\\end{enumerate}\n\\end{document}\n")


def test_a_one_column_appendix_does_not_merge_the_columns(tmp_path, pdflatex):
    from figlint.ingest.pdf import read_pdf

    paper = read_pdf(compile_tex(tmp_path, _tex()))
    (fig,) = paper.figures
    assert len(fig.sites) >= 14 * 10 - 2
    assert cut_sentences(fig) == [], cut_sentences(fig)[:2]
