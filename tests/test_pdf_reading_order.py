"""PDF route: running text read in the order it prints, across columns, floats and page feet.

What the invariance suite (issue 12; tests/fixtures/variants.py) found moving the same
paper between classes, each as a small document compiled with pdflatex: a column that
holds only two lines of running text (the rest of it floats) is still a column; a short
centred line over the gutter ("(Dated: )" under a revtex title) is set over both
columns, not at the head of one; a paragraph runs on past a footnote or a page's foot
line and past a float set inside it; the one-line caption of a figure* set flush left
owns the whole graphic above it; hyperref's anchor just below one float on a float page
is the top of the next; math letters that a class maps to Unicode's mathematical italic
read as letters; a line-end hyphen before an upper-case letter joins the word.
"""

from __future__ import annotations

import subprocess

import pytest

from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import cut_sentences, long_sentence, paragraphs_read


def _compile(folder, runs: int = 2):
    for _ in range(runs):
        subprocess.run(["pdflatex", "-interaction=batchmode", "main.tex"], cwd=folder, capture_output=True, timeout=180)
    assert (folder / "main.pdf").exists(), (folder / "main.log").read_text(errors="replace")[-2000:]


def _plot_png(folder, name: str = "plot.png", size=(400, 300)):
    from PIL import Image

    Image.new("RGB", size, (90, 140, 200)).save(folder / name)


def _needs(cls: str):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from fixtures import variants as V

    if not V.class_available(cls):
        pytest.skip(f"TeX Live has no working {V.CLASSES[cls][2]} class here")


def _sentence(k: int, fig: str = "fig:a") -> str:
    return f"Sentence {k} of this part of the text says that Figure~\\ref{{{fig}}} holds nothing new at all. "


def test_a_column_with_two_lines_of_text_is_a_column(tmp_path, pdflatex):
    """Two columns, the second holding a figure and two lines of text: it was not seen as a
    column (too few lines of its own), so the figure took the whole page width and the left
    column's text with it, and the sentence citing it was lost. A margin note as long is no
    column: it is narrower than the text."""
    _plot_png(tmp_path)
    body = "".join(_sentence(k) for k in range(1, 9))
    (tmp_path / "main.tex").write_text(
        "\\documentclass[twocolumn]{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        + body + "\n\\newpage\n\\begin{figure}[t]\\centering\\includegraphics[width=\\columnwidth]{plot.png}"
        "\\caption{A plot that fills the right column.}\\label{fig:a}\\end{figure}\n"
        "These two last lines of the paper are the only running text in the right column here.\n"
        "\\end{document}\n")
    _compile(tmp_path)
    paper = read_pdf(str(tmp_path / "main.pdf"))
    assert paper.extra["columns"] == 2
    (fig,) = paper.figures
    assert fig.bbox[0] > 0.45 * paper.page_size[0], fig.bbox  # in the right column only
    assert len(fig.sites) == 8 and cut_sentences(fig) == []

    (tmp_path / "one").mkdir()
    one = tmp_path / "one"
    (one / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage[marginparwidth=1.6in]{geometry}\n\\begin{document}\n"
        + body + "\\marginpar{A margin note that runs over a few lines of its own beside the text.}\n"
        + body + "\n\\end{document}\n")
    _compile(one)
    assert read_pdf(str(one / "main.pdf")).extra["columns"] == 1


def test_a_short_line_over_the_gutter_is_not_the_head_of_a_column(tmp_path, pdflatex):
    """revtex centres "(Dated: )" under the title, over the gutter: it was read as the first
    line of the right column, which cut the sentence running from the left column into the
    right one. A short centred line inside one column stays in that column."""
    _needs("revtex")
    body = "".join(_sentence(k) for k in range(1, 60))
    (tmp_path / "main.tex").write_text(
        "\\documentclass[aps,prl,twocolumn,nofootinbib]{revtex4-2}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "\\title{A Title}\\author{A. Author}\\affiliation{An Institute}\\date{}\n\\maketitle\n" + body + "\n"
        "\\begin{figure}[b]\\centering\\rule{3cm}{2cm}\\caption{A drawn box.}\\label{fig:a}\\end{figure}\n"
        "\\begin{center}Short line\\end{center}\n" + _sentence(99) + "\n\\end{document}\n")
    _compile(tmp_path)
    paper = read_pdf(str(tmp_path / "main.pdf"))
    assert paper.extra["columns"] == 2
    (fig,) = paper.figures
    assert len(fig.sites) == 60 and cut_sentences(fig) == []
    from figlint.ingest.pdf_layout import Layout

    lay = paper.extra["layout"]
    layout = Layout(10.0, lay["body_font"], lay["columns"], lay["text_top"], lay["text_bottom"])
    import pymupdf

    with pymupdf.open(str(tmp_path / "main.pdf")) as doc:
        boxes = {t: [l["bbox"] for p in doc for b in p.get_text("dict")["blocks"] for l in b.get("lines", ())
                     if t in "".join(s["text"] for s in l["spans"])] for t in ("Dated", "Short line")}
    (dated,), (short,) = boxes["Dated"], boxes["Short line"]
    assert layout.column_of(dated[0], dated[2]) is None
    assert layout.column_of(short[0], short[2]) in (0, 1)


def test_a_paragraph_runs_on_past_a_footnote_and_a_float(tmp_path, pdflatex):
    """A paragraph that crosses a page under a footnote, and one with a float set inside it:
    the footnote (smaller type) and the float's gap ended the paragraph, so the sentence at
    the break was cut in two. The paragraphs after them still start paragraphs of their own."""
    _plot_png(tmp_path)
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        + long_sentence(0, 90).replace("part 0 of it", "part 0\\footnote{The footnote, in smaller type at the foot of the page.} of it")
        + "\n\n" + _sentence(40) + "\n\n" + long_sentence(50, 3)
        + "\\begin{figure}[h]\\centering\\includegraphics[width=5cm]{plot.png}\\caption{A plot set inside a "
        "paragraph.}\\label{fig:a}\\end{figure}" + long_sentence(51, 6) + "\n\n" + _sentence(60) + "\n\\end{document}\n")
    _compile(tmp_path)
    paper = read_pdf(str(tmp_path / "main.pdf"))
    (fig,) = paper.figures
    assert paper.pages >= 2 and fig.page >= 2
    assert len(fig.sites) == 90 + 1 + 3 + 6 + 1 and cut_sentences(fig) == [], cut_sentences(fig)[:2]
    starts = [p.split(" part")[0].split(" of this")[0] for p in paragraphs_read(str(tmp_path / "main.pdf")) if p.startswith("Sentence ")]
    assert starts == ["Sentence 0", "Sentence 40", "Sentence 50", "Sentence 60"], starts


def test_the_flush_left_caption_of_a_spanning_figure_owns_its_graphic(tmp_path, pdflatex):
    """IEEEtran sets a one-line caption flush left: under a figure* it fits in the left
    column, and the figure took only the half of its graphic over that column (the rest
    became an uncaptioned figure). A column figure's short caption keeps its column."""
    _needs("ieee-journal")
    _plot_png(tmp_path)
    _plot_png(tmp_path, "col.png", (300, 200))
    body = "".join(_sentence(k) for k in range(1, 30))
    (tmp_path / "main.tex").write_text(
        "\\documentclass[journal]{IEEEtran}\n\\usepackage{graphicx}\n\\begin{document}\n" + body
        + "\\begin{figure*}[t]\\centering\\includegraphics[width=4in]{plot.png}\\caption{Distribution of document "
        "lengths in tokens over the training set.}"
        "\\label{fig:a}\\end{figure*}\n"
        "\\begin{figure}[t]\\centering\\includegraphics[width=0.8\\columnwidth]{col.png}\\caption{Short too.}"
        "\\label{fig:b}\\end{figure}\n" + body + " And Figure~\\ref{fig:b}.\n\\end{document}\n")
    _compile(tmp_path)
    paper = read_pdf(str(tmp_path / "main.pdf"))
    assert sorted(f.number for f in paper.figures) == ["1", "2"], [(f.number, f.bbox) for f in paper.figures]
    wide, col = paper.figure("1"), paper.figure("2")
    assert len(wide.images) == 1 and wide.bbox[2] - wide.bbox[0] >= 4 * 72 - 2
    assert len(col.images) == 1
    c0, c1 = min(paper.extra["layout"]["columns"], key=lambda c: abs((c[0] + c[1]) / 2 - (col.bbox[0] + col.bbox[2]) / 2))
    assert c0 - 2 <= col.bbox[0] and col.bbox[2] <= c1 + 2, (col.bbox, (c0, c1))


def test_an_anchor_just_below_a_float_is_the_next_float_s(tmp_path, pdflatex):
    """figure* floats stacked tightly at the top of a page: the caption package puts each
    float's hyperref anchor at its top, and the second one's lies a point under the first
    one's caption; a bare \\ref to the second ("as in 2") was given to the first, then
    dropped. The bare \\ref to the first stays the first's."""
    _plot_png(tmp_path)
    filler = "Some more words of running text here, with no mention of any float in them at all. " * 12
    (tmp_path / "main.tex").write_text(
        "\\documentclass[twocolumn]{article}\n\\usepackage{graphicx}\n\\usepackage{caption}\n"
        "\\usepackage[hidelinks]{hyperref}\n\\setlength{\\dblfloatsep}{3pt}\n\\begin{document}\n"
        "The first plot is the one in~\\ref{fig:a} and the second the one in~\\ref{fig:b}, both bare numbers.\n"
        + "".join(f"\\begin{{figure*}}[t]\\centering\\includegraphics[width=2in]{{plot.png}}\\caption{{Plot number "
                  f"{k} of the two.}}\\label{{fig:{k}}}\\end{{figure*}}\n" for k in "ab")
        + filler + "\n\\newpage\n" + filler + "\n\\newpage\n" + filler + "\n\\end{document}\n")
    _compile(tmp_path)
    paper = read_pdf(str(tmp_path / "main.pdf"))
    assert [(f.number, [s.mention for s in f.sites]) for f in paper.figures] == [("1", ["1"]), ("2", ["2"])]


def test_math_letters_read_as_letters(tmp_path, pdflatex):
    """acmart maps its math fonts to Unicode, so $p$ is extracted as U+1D45D: the citing
    sentence then differed from the same sentence in every other class. Other characters
    (a superscript two, a micro sign, Greek) are left as they are."""
    from figlint.ingest.pdf_layout import _plain_math_letters

    _needs("acmart")
    (tmp_path / "main.tex").write_text(
        "\\documentclass[sigconf,nonacm]{acmart}\n\\begin{document}\n\\title{T}\\maketitle\n"
        "Figure~\\ref{fig:a} shows that ours is more accurate ($p < 0.01$ over five seeds, $x_i$).\n"
        "\\begin{figure}[h]\\centering\\rule{3cm}{2cm}\\caption{A drawn box.}\\label{fig:a}\\end{figure}\n"
        "\\end{document}\n")
    _compile(tmp_path)
    (fig,) = read_pdf(str(tmp_path / "main.pdf")).figures
    (site,) = fig.sites
    assert "p" in site.sentence.split("(")[1] and all(ord(ch) < 0x1D400 for ch in site.sentence), site.sentence
    d = {"blocks": [{"lines": [{"spans": [{"text": "N\u00b2 \u00b5m \u03b1 \U0001D45D \U0001D6FC"}]}]}]}
    _plain_math_letters(d)
    assert d["blocks"][0]["lines"][0]["spans"][0]["text"] == "N\u00b2 \u00b5m \u03b1 p \u03b1"


def test_a_line_end_hyphen_before_a_capital_joins_the_word(tmp_path, pdflatex):
    """"CI-" at a line end and "FAR" on the next (TeX's hyphenation of an upper-case word, or
    a compound's hyphen: the same glyphs) was read "CI- FAR", in captions and in running
    text. A compound's hyphen before a lower-case word is kept as before. (The text and the
    caption are set exactly as wide as their first line up to "CI-", so the line ends there.)"""
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{caption}\n"
        "\\newlength\\bodyw\\settowidth{\\bodyw}{Figure 1 shows the results on the CI-}\n"
        "\\newlength\\capw\\settowidth{\\capw}{Figure 1: Results on the CI-}\\captionsetup{width=\\capw}\n"
        "\\begin{document}\n\\noindent\\parbox{\\bodyw}{Figure~\\ref{fig:a} shows the results on the CI-FAR data, "
        "the state-of-the-art ones, and a few more words of text follow here.}\n"
        "\\begin{figure}[b]\\centering\\rule{3cm}{2cm}\\caption{Results on the CI-FAR data and a few more "
        "words.}\\label{fig:a}\\end{figure}\n\\end{document}\n")
    _compile(tmp_path)
    (fig,) = read_pdf(str(tmp_path / "main.pdf")).figures
    assert fig.caption.text.startswith("Results on the CI-FAR data and a few"), fig.caption.text
    (site,) = fig.sites
    assert "on the CI-FAR data, the state-of-the-art ones" in site.sentence, site.sentence


def test_a_paragraph_beside_a_wrapfigure_runs_on_over_the_page(tmp_path, pdflatex):
    """Lines set beside a wrapfigure end at the figure's edge; the last of them on a page
    looked like a paragraph's short last line across the page break, so the sentence there
    was cut. A short line with no float beside it still ends its paragraph."""
    from PIL import Image

    Image.new("RGB", (300, 600), (90, 140, 200)).save(tmp_path / "plot.png")
    wrap = ("\\begin{wrapfigure}{r}{0.4\\textwidth}\\centering\\includegraphics[width=0.38\\textwidth]{plot.png}"
            "\\caption{A tall plot.}\\label{fig:a}\\end{wrapfigure}\n")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{wrapfig}\n\\begin{document}\n"
        + long_sentence(0, 40) + "\n\n" + wrap + long_sentence(1, 20) + "\n\n" + _sentence(2) + "\n\n"
        + "\\newpage\\noindent " + _sentence(4) + "\n\\end{document}\n")
    _compile(tmp_path)
    paper = read_pdf(str(tmp_path / "main.pdf"))
    fig = next(f for f in paper.figures if f.number == "1")
    assert paper.pages >= 3
    assert len(fig.sites) == 40 + 20 + 1 + 1 and cut_sentences(fig) == [], cut_sentences(fig)[:2]
    starts = [p.split(" part")[0].split(" of this")[0] for p in paragraphs_read(str(tmp_path / "main.pdf")) if p.startswith("Sentence ")]
    assert starts == ["Sentence 0", "Sentence 1", "Sentence 2", "Sentence 4"], starts


def test_a_running_head_on_the_folio_s_row_is_a_running_head(tmp_path, pdflatex):
    """amsart sets its running heads (in capitals) on the page number's row, inside the
    page's outer strip: read as running text, they cut the sentence that goes on over
    the page. Text at that height elsewhere (a paper without folios there) stays text."""
    _needs("amsart")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{amsart}\n\\usepackage{graphicx}\n\\title{A Title Long Enough}\\author{A. Author}\n"
        "\\begin{document}\n\\maketitle\n\\begin{figure}[h]\\centering\\rule{3cm}{2cm}\\caption{A box.}\\label{fig:a}\\end{figure}\n"
        + "".join(long_sentence(k, 25) + "\n\n" for k in range(6)) + "\\end{document}\n")
    _compile(tmp_path)
    paper = read_pdf(str(tmp_path / "main.pdf"))
    (fig,) = paper.figures
    assert paper.pages >= 3
    assert len(fig.sites) == 6 * 25 and cut_sentences(fig) == [], cut_sentences(fig)[:2]
    paras = paragraphs_read(str(tmp_path / "main.pdf"))
    heads = [p for p in paras if "AUTHOR" in p or "TITLE" in p]
    assert heads == ["A TITLE LONG ENOUGH", "A. AUTHOR"], heads  # the title page's own, not the running heads
    # a paper whose folio is at the foot: a line at that height at the top is a line of text
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage[top=1.2in]{geometry}\n\\begin{document}\n"
        + "".join(long_sentence(k, 25) + "\n\n" for k in range(4)) + "\\end{document}\n")
    _compile(tmp_path)
    starts = [p.split(" part")[0] for p in paragraphs_read(str(tmp_path / "main.pdf")) if p.startswith("Sentence ")]
    assert starts == [f"Sentence {k}" for k in range(4)], starts


def test_a_page_set_a_little_right_of_the_usual_column_edge_is_not_indented_line_by_line():
    """A journal's first page sets its text block 4.5 pt right of where the other pages put
    the column's edge; each line there starts about one indent-threshold in. A line that does
    not start right of the line above is no paragraph indent (a citing sentence was cut in two
    at such a line), while a real indent against the line above still is."""
    from figlint.ingest.pdf_layout import Layout, Line
    from figlint.ingest.pdf_sites import _breaks

    layout = Layout(9.0, "Body", [(51.3, 301.5), (309.4, 560.2)], 50.0, 740.0, line_gap=1.9)

    def line(x0, y0, text):
        return Line(page=1, bbox=(x0, y0, 301.5, y0 + 9.0), text=text, spans=[], size=9.0, font="Body",
                    bold=False, block=0)

    a = line(55.85, 658.2, "and performed genome scans on the resulting")
    b = line(56.34, 669.2, "data (Fig. 2). We performed a similar genome scan on the pop-")
    assert not _breaks(a, b, layout)
    c = line(65.0, 680.2, "A new paragraph starts here, one indent in.")
    assert _breaks(b, c, layout)
