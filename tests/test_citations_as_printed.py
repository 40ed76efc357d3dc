"""LaTeX route: citations in captions read as the build printed them (issue 12, "LaTeX text
as printed": \\citep/\\citet as "(Author, Year)", not the key).

The labels come from the `.aux` BibTeX (here: thebibliography) leaves beside the main file:
numbers ("[1]") or natbib's author-year ("(Smith et al., 2019)", "Smith et al. (2019)").
Without an .aux LaTeX itself prints "?": so does the sources-only reading, and a key's digits
("smith2019") never appear as text a rule could take for a value. Compiled with pdflatex;
the caption read from the sources matches the one read from the PDF.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from figlint.ingest.auxcite import read_cites, render
from figlint.ingest.latex import read_latex
from figlint.ingest.pdf import read_pdf

BIB = (r"\begin{thebibliography}{9}" "\n"
       r"\bibitem[Smith et~al.(2019)Smith, Jones, and Lee]{smith2019} A. Smith, B. Jones, C. Lee. A study. 2019." "\n"
       r"\bibitem[Lee(2020)]{lee2020} C. Lee. Another study. 2020." "\n"
       r"\end{thebibliography}" "\n")


BIB_NUM = (r"\begin{thebibliography}{9}" "\n" r"\bibitem{smith2019} A. Smith. A study. 2019." "\n"
           r"\bibitem{lee2020} C. Lee. Another study. 2020." "\n" r"\end{thebibliography}" "\n")


def _paper(folder, natbib: bool, caption: str) -> None:
    from PIL import Image

    Image.new("RGB", (300, 200), (90, 140, 200)).save(folder / "plot.png")
    pre = "\\usepackage[round]{natbib}\n" if natbib else ""
    (folder / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n" + pre + "\\begin{document}\n"
        "Figure~\\ref{fig:a} shows the growth of the data.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{plot.png}\n"
        f"\\caption{{{caption}}}\\label{{fig:a}}\\end{{figure}}\n" + (BIB if natbib else BIB_NUM) + "\\end{document}\n")
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=folder, capture_output=True, timeout=120)


def _words(s: str) -> list[str]:
    return re.findall(r"[A-Za-z]+|\d+", s)


def test_numeric_citations_read_as_numbers(tmp_path, pdflatex):
    _paper(tmp_path, natbib=False, caption="Growth of the stored data, from \\cite{smith2019} and \\cite{lee2020}.")
    tex = read_latex(str(tmp_path / "main.tex")).figures[0].caption.text
    pdf = read_pdf(str(tmp_path / "main.pdf")).figures[0].caption.text
    assert "[1]" in tex and "[2]" in tex and "smith" not in tex
    assert _words(tex) == _words(pdf)


def test_author_year_citations_read_as_printed(tmp_path, pdflatex):
    _paper(tmp_path, natbib=True, caption="Growth of the stored data \\citep{smith2019}, as \\citet{lee2020} found.")
    tex = read_latex(str(tmp_path / "main.tex")).figures[0].caption.text
    pdf = read_pdf(str(tmp_path / "main.pdf")).figures[0].caption.text
    assert "(Smith et al., 2019)" in tex and "Lee (2020)" in tex
    assert _words(tex) == _words(pdf)


def test_citation_notes_print_with_the_labels(tmp_path, pdflatex):
    # natbib prints a postnote inside the parentheses ("Lee (2020, open squares)"), a prenote
    # before the first label, and a numeric style's note inside the brackets: the sources
    # route reads the caption with the same words as the page
    _paper(tmp_path, natbib=True, caption="Stars of \\citet[open squares]{lee2020} and "
                                          "\\citep[see][ch.~2]{smith2019} over the disk sample.")
    tex = read_latex(str(tmp_path / "main.tex")).figures[0].caption.text
    pdf = read_pdf(str(tmp_path / "main.pdf")).figures[0].caption.text
    assert "Lee (2020, open squares)" in tex and "(see Smith et al., 2019, ch" in tex
    assert _words(tex) == _words(pdf)
    num = tmp_path / "num"
    num.mkdir()
    _paper(num, natbib=False, caption="Growth of the stored data \\cite[p.~5]{smith2019}.")
    tex = read_latex(str(num / "main.tex")).figures[0].caption.text
    assert "[1, p" in tex and _words(tex) == _words(read_pdf(str(num / "main.pdf")).figures[0].caption.text)


def test_without_an_aux_a_citation_prints_a_question_mark(tmp_path, pdflatex):
    _paper(tmp_path, natbib=True, caption="Growth of the stored data \\citep{smith2019}.")
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(tmp_path / "main.tex", src / "main.tex")
    shutil.copy(tmp_path / "plot.png", src / "plot.png")
    text = read_latex(str(src / "main.tex")).figures[0].caption.text
    assert "[?]" in text and "2019" not in text and "smith" not in text


def test_labels_of_included_aux_files_and_unknown_keys(tmp_path):
    (tmp_path / "main.aux").write_text("\\relax\n\\@input{ch1.aux}\n\\bibcite{a}{3}\n")
    (tmp_path / "ch1.aux").write_text("\\bibcite{b}{{4}{2021}{{Doe}}{{Doe}}}\n")
    cites, read = read_cites(str(tmp_path / "main.tex"), str(tmp_path))
    assert len(read) == 2 and cites["a"].number == "3" and cites["b"].authors == "Doe"
    assert render("cite", ["a"], cites) == "[3]"
    assert render("citep", ["b"], cites) == "(Doe, 2021)"
    assert render("cite", ["a", "zzz"], cites) == "[?]"


def _pinpoint_paper(folder, natbib: bool) -> None:
    """Two figures; before Figure 1 is cited, the text points into a cited work's Figure 2 with
    the citation's own note (natbib's `\\citep[Fig.~2]{k}`, `\\citet[Fig.~2]{k}`, a numeric
    `\\cite[Fig.~2]{k}`), as printed "(Smith et al., 2019, Fig. 2)", "Lee (2020, Fig. 2)", "[1, Fig. 2]"."""
    from PIL import Image

    for name, colour in (("a.png", (90, 140, 200)), ("b.png", (200, 120, 60))):
        Image.new("RGB", (300, 200), colour).save(folder / name)
    pre = "\\usepackage[round]{natbib}\n" if natbib else ""
    if natbib == "harvard":  # one author, a comma, the year: "(Lee, 2020, Fig. 2)"
        pre += "\\bibpunct{(}{)}{;}{a}{,}{,}\n"
    cites = ("The disk was modelled before \\citep[Fig.~2]{smith2019}, and \\citep[Fig.~2]{lee2020} "
             "measured its edge." if natbib == "harvard" else
             "The disk was modelled before \\citep[Fig.~2]{smith2019}, and \\citet[Fig.~2]{lee2020} "
             "measured its edge." if natbib else
             "The disk was modelled before \\cite[Fig.~2]{smith2019} and its edge measured \\cite[see Fig.~2]{lee2020}.")
    (folder / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{hyperref}\n" + pre + "\\begin{document}\n"
        + cites + "\n\nFigure~\\ref{fig:a} shows the growth of the disk over the whole run.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{a.png}\n"
        "\\caption{Growth of the disk.}\\label{fig:a}\\end{figure}\n"
        "Figure~\\ref{fig:b} shows the edge of the disk against its radius.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{b.png}\n"
        "\\caption{Edge of the disk.}\\label{fig:b}\\end{figure}\n" + (BIB if natbib else BIB_NUM) + "\\end{document}\n")
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=folder, capture_output=True, timeout=120)


def test_a_pinpoint_into_a_cited_work_is_not_a_citation_of_this_papers_figure(tmp_path, pdflatex):
    # "(Smith et al., 2019, Fig. 2)", "Lee (2020, Fig. 2)", "[1, Fig. 2]": the cited work's
    # Figure 2, set inside the citation's own brackets; read as this paper's it made Figure 2
    # "cited before Figure 1" (FL303) on the PDF route of a field paper
    from figlint.ingest import load

    for natbib in (True, "harvard", False):
        folder = tmp_path / (str(natbib) if natbib else "numeric")
        folder.mkdir()
        _pinpoint_paper(folder, natbib)
        for paper in (load(str(folder / "main.pdf")), load(str(folder / "main.tex"), pdf=str(folder / "main.pdf"))):
            assert [f.number for f in paper.figures] == ["1", "2"]
            one, two = paper.figures
            assert len(one.sites) == 1 and len(two.sites) == 1, (natbib, [s.sentence for s in two.sites])
            assert "edge of the disk against" in two.sites[0].sentence


def test_an_apacite_prenote_pointing_into_a_cited_work_is_not_this_papers_figure(tmp_path, pdflatex):
    # apacite writes the citation's prenote in angle brackets, `\cite<see Fig.~2 of>[]{k}`,
    # printed "(see Fig. 2 of Moss & Schneider, 2000)": the sources route read the note as the
    # paper's own text (a hard-coded "Fig.~2", FL305) and the PDF route did not take the two
    # authors joined by "&" for a cited work (an AGU paper of the field audit)
    import shutil

    from figlint.config import Config
    from figlint.engine import lint_path
    from figlint.ingest import load

    if not shutil.which("bibtex"):
        pytest.skip("bibtex not installed")
    from PIL import Image

    for name, colour in (("a.png", (90, 140, 200)), ("b.png", (200, 120, 60))):
        Image.new("RGB", (300, 200), colour).save(tmp_path / name)
    (tmp_path / "refs.bib").write_text(
        "@article{moss2000, author={Moss, Richard and Schneider, Stephen}, title={Uncertainties},"
        " journal={Guidance Papers}, year={2000}, pages={33--51}}\n")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{apacite}\n"
        "\\begin{document}\n"
        "Uncertain outcomes were framed before \\cite<see Fig.~2 of>[]{moss2000}, and the edge was measured.\n\n"
        "Figure~\\ref{fig:a} shows the growth of the disk over the whole run.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{a.png}\n"
        "\\caption{Growth of the disk.}\\label{fig:a}\\end{figure}\n"
        "Figure~\\ref{fig:b} shows the edge of the disk against its radius.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{b.png}\n"
        "\\caption{Edge of the disk.}\\label{fig:b}\\end{figure}\n"
        "\\bibliographystyle{apacite}\n\\bibliography{refs}\n\\end{document}\n")
    for cmd in (["pdflatex"], ["bibtex"], ["pdflatex"], ["pdflatex"]):
        arg = "main" if cmd == ["bibtex"] else "main.tex"
        subprocess.run(cmd + (["-interaction=batchmode"] if cmd != ["bibtex"] else []) + [arg], cwd=tmp_path,
                       capture_output=True, timeout=120)
    pdf, tex = tmp_path / "main.pdf", tmp_path / "main.tex"
    import pymupdf

    with pymupdf.open(pdf) as doc:
        assert "see Fig. 2 of Moss & Schneider, 2000" in " ".join(doc[0].get_text().split())  # as the field paper
    for paper in (load(str(pdf)), load(str(tex), pdf=str(pdf))):
        assert [f.number for f in paper.figures] == ["1", "2"]
        two = paper.figures[1]
        assert len(two.sites) == 1 and "edge of the disk against" in two.sites[0].sentence, \
            [s.sentence for s in two.sites]
    for path in (pdf, tex):
        codes = {f.code for f in lint_path(path, Config(preview=True)).findings}
        assert not codes & {"FL303", "FL305"}, (path.suffix, codes)


def _other_works_paper(folder, natbib: bool) -> None:
    """Two figures, each cited once by \\ref; then typed mentions of a cited work's figures with
    the citation after the number ("Fig.~1 of Ref.~\\cite{k}", "of~\\cite{k}", "in ref.~\\cite{k}",
    natbib's "of \\citet{k}"), some of keys the bibliography lacks (printed "[?]", "?", "(?)");
    and typed mentions of this paper's own figures joined the same way to a section or an
    appendix, which stay its citing sites."""
    from PIL import Image

    for name, colour in (("a.png", (90, 140, 200)), ("b.png", (200, 120, 60))):
        Image.new("RGB", (300, 200), colour).save(folder / name)
    pre = "\\usepackage[round]{natbib}\n" if natbib else ""
    other = ("The dominant background was estimated from Figure~1 of \\citet{nokey} in earlier work.\n"
             "The signal shape follows Fig.~2 of \\citep{lee2020} closely at low mass.\n"
             "The efficiency drop is taken from Fig.~2 in \\citet{smith2019} for the barrel.\n"
             if natbib else
             "Based on Fig.~1 of Ref.~\\cite{nokey}, we expect the dominant background to be small.\n"
             "The signal shape follows Fig.~2 of~\\cite{smith2019} closely at low mass.\n"
             "The efficiency drop is taken from Fig.~2 in ref.~\\cite{lee2020} for the barrel.\n")
    (folder / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n" + pre + "\\begin{document}\n"
        "\\section{Setup}\\label{sec:setup}\n"
        "Figure~\\ref{fig:a} shows the growth of the disk over the whole run.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{a.png}\n"
        "\\caption{Growth of the disk.}\\label{fig:a}\\end{figure}\n"
        "Figure~\\ref{fig:b} shows the edge of the disk against its radius.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{b.png}\n"
        "\\caption{Edge of the disk.}\\label{fig:b}\\end{figure}\n\n" + other + "\n"
        "The outer rim is marked in Figure~2 in Section~\\ref{sec:setup} by a dashed line.\n"
        "The inner rim is as in Fig.~1 of the appendix, where it is drawn in full.\n"
        + (BIB if natbib else BIB_NUM) + "\\end{document}\n")
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=folder, capture_output=True, timeout=120)


def test_a_figure_of_a_cited_work_named_with_its_citation_is_not_this_papers(tmp_path, pdflatex):
    # "Fig. 1 of Ref. [?]" (a citation the build left unresolved) was a citing site of this
    # paper's Figure 1 on the PDF route of a physics preprint; "of~\cite{k}" and "in ref.~\cite{k}"
    # were on the sources route. "Figure 2 in Section 1" and "Fig. 1 of the appendix" stay sites.
    import pymupdf

    from figlint.ingest import load
    from figlint.ingest.latex import read_latex

    for natbib in (False, True):
        folder = tmp_path / ("natbib" if natbib else "numeric")
        folder.mkdir()
        _other_works_paper(folder, natbib)
        with pymupdf.open(folder / "main.pdf") as doc:
            page = " ".join(doc[0].get_text().split())
        assert ("Figure 1 of ?" if natbib else "Fig. 1 of Ref. [?]") in page
        for paper in (load(str(folder / "main.pdf")), read_latex(str(folder / "main.tex")),
                      load(str(folder / "main.tex"), pdf=str(folder / "main.pdf"))):
            assert [f.number for f in paper.figures] == ["1", "2"]
            got = {f.number: sorted(" ".join(s.sentence.split())[:22] for s in f.sites) for f in paper.figures}
            assert got == {"1": ["Figure 1 shows the gro", "The inner rim is as in"],
                           "2": ["Figure 2 shows the edg", "The outer rim is marke"]}, (natbib, got)
