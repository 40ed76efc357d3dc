"""LaTeX route: figure numbers and `\\ref` texts as the build printed them (the .aux).

The counters read from the sources cannot follow every way a class or package sets
`\\thefigure` (PNAS/PLOS supplements "S1", class appendices, `labelformat`); the build's
.aux records what was printed. Here `\\thefigure` is set through `\\csname`, which no
reading of the sources follows: compiled with pdflatex, the route must report S1 and S2 (the
labelled figure by its `\\newlabel`, the unlabelled one by its list-of-figures entry), and
the citing sentence must print "S2"; without the .aux, the counted numbers come back.
"""

from __future__ import annotations

import subprocess

from figlint.ingest.latex import read_latex


def _paper(folder) -> None:
    from PIL import Image

    Image.new("RGB", (300, 200), (90, 140, 200)).save(folder / "plot.png")
    (folder / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n"
        "\\expandafter\\renewcommand\\csname thefigure\\endcsname{S\\arabic{figure}}\n"
        "\\begin{document}\n"
        "The growth of the data is shown in Figure~\\ref{fig:b} for every week of the study.\n\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{plot.png}\n"
        "\\caption{Weekly counts of new records in the first site.}\\end{figure}\n\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{plot.png}\n"
        "\\caption{Weekly counts of new records in the second site.}\\label{fig:b}\\end{figure}\n"
        "\\end{document}\n")
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=folder, capture_output=True, timeout=120)


def test_numbers_and_refs_as_the_build_printed_them(tmp_path, pdflatex):
    _paper(tmp_path)
    assert (tmp_path / "main.aux").is_file()
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["S1", "S2"]
    (site,) = paper.figures[1].sites
    assert "Figure S2" in site.sentence
    assert paper.figures[1].caption.label.endswith("S2")


def test_without_an_aux_the_counted_numbers_stand(tmp_path, pdflatex):
    _paper(tmp_path)
    (tmp_path / "main.aux").unlink()
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1", "2"]


def test_a_label_typed_into_the_caption_under_an_empty_label_format(tmp_path, pdflatex):
    """R Markdown supplements set `labelformat=empty` and type "Figure S2.1: ..." into the
    caption: that label is what the reader sees, on the page and from the sources alike; a
    figure after `labelformat=default` prints its counter again."""
    from figlint.ingest.pdf import read_pdf
    from PIL import Image

    Image.new("RGB", (300, 200), (90, 140, 200)).save(tmp_path / "plot.png")
    fig = "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{plot.png}\\caption{%s}\\end{figure}\n"
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{caption}\n\\begin{document}\n"
        "Main text of the paper with enough words to be a paragraph of running text here.\n"
        + fig % "Growth of the colony radius over the first three days."
        + "\\captionsetup{labelformat=empty}\n"
        + fig % "Figure S2.1: Evolution of male search under different mortality rates."
        + fig % "Figure S2.3 ($T = 10$): The coevolution of search and choosiness."
        + "\\captionsetup{labelformat=default}\n"
        + fig % "Fecundity increment above which males search for gifts."
        + "\\end{document}\n")
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=tmp_path, capture_output=True, timeout=120)
    tex = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in tex.figures] == ["1", "S2.1", "S2.3", "4"]
    assert tex.figures[1].caption.text.startswith("Evolution of male search")
    pdf = read_pdf(str(tmp_path / "main.pdf"))
    assert [f.number for f in pdf.figures if f.number] == ["1", "S2.1", "S2.3", "4"]
    # the typed label is the caption's own, not a hard-coded citation (FL305)
    from figlint.config import Config
    from figlint.engine import lint_path

    result = lint_path(str(tmp_path / "main.tex"), Config(select=["FL305"]))
    assert [f.code for f in result.findings] == []


def test_a_label_before_the_caption_prints_question_marks_as_the_aux_says(tmp_path, pdflatex):
    """With the caption package, a \\label before \\caption in a float records a placeholder
    (\\caption@xref) in the .aux and \\ref prints "??": that is what the route reports."""
    from PIL import Image

    Image.new("RGB", (300, 200), (90, 140, 200)).save(tmp_path / "plot.png")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{caption}\n\\begin{document}\n"
        "As Figure~\\ref{fig:a} shows, the counts grow over the weeks of the study.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{plot.png}\\label{fig:a}"
        "\\caption{Weekly counts of new records.}\\end{figure}\n\\end{document}\n")
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=tmp_path, capture_output=True, timeout=120)
    assert "caption@xref" in (tmp_path / "main.aux").read_text()
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [s["prints"] for s in paper.figures[0].extra["misplaced_label_sites"]] == ["??"]
    from figlint.config import Config
    from figlint.engine import lint_path

    (f,) = [f for f in lint_path(str(tmp_path / "main.tex"), Config(select=["FL306"])).findings]
    assert 'prints "??"' in f.message and "caption@xref" not in f.message


def test_aux_entries_read_as_printed(tmp_path):
    """A bold number in the list of figures (\\numberline {\\textbf {4-5}}) is "4-5", not
    "extbf 4-5" (\\t is an accent only as a control word of its own); a label whose record is
    an internal's placeholder (pgfplots' legend \\label) is left to figlint's own reading."""
    from figlint.ingest.auxcite import read_aux

    (tmp_path / "main.tex").write_text("\\documentclass{article}\n")
    (tmp_path / "main.aux").write_text(
        "\\@writefile{lof}{\\contentsline {figure}{\\numberline {\\textbf {4-5}}{\\ignorespaces Mapa}}{12}{figure.5}}\n"
        "\\newlabel{fig:mapa}{{\\textbf {4-5}}{12}{Mapa}{figure.5}{}}\n"
        "\\newlabel{pgfplots:ours}{{\\pgfplots@show@ref@{ours}}{3}}\n"
        "\\newlabel{fig:x}{{\\caption@xref {fig:x}{ on input line 9}}{4}}\n")
    aux = read_aux(str(tmp_path / "main.tex"), str(tmp_path))
    assert aux.lof == [("4-5", "\\ignorespaces Mapa")]
    assert aux.labels == {"fig:mapa": "4-5", "fig:x": "??"}
