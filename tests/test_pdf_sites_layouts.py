"""PDF route: citing sites where the field audit's papers print them (issue 12, binding
against LaTeX's own record).

Each case is a small paper compiled with pdflatex, with a negative case beside it:
text set ragged right (every line ends short where the next word did not fit) is one
paragraph, and its paragraphs still end; words set in bold out to the column's edge do
not make a heading, a bold heading line still does; footnotes one point smaller than the
text (a 9 pt class) are passed over like any footnote; a section set full width after
two-column text is read after the columns above it; margin notes are read after the page's
text, not between two of its lines; a table's cell, a figure's note and a sub-caption cite
figures too, and a float's own number in its note is no citation of itself.
"""

from __future__ import annotations

from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_tex, cut_sentences, long_sentence, paragraphs_read

PLOT = {"plot.png": ((300, 200), (90, 140, 200))}


def _compile(folder, tex: str) -> str:
    return compile_tex(folder, tex, PLOT)


# long words leave wide gaps at the ends of lines set ragged right
RAGGED = "holds incomprehensibilities notwithstanding characteristically"


def _starts(pdf: str) -> list[str]:
    return [p.split(" part")[0].split(" says")[0] for p in paragraphs_read(pdf) if p.startswith(("Sentence ", "Heading"))]


# running text over two more pages, so that the folio is a running foot, not a line of text
FILLER = "\n\n".join(["Some more words of running text here, with no mention of any float in them at all. " * 8] * 14)
FIG = ("\\begin{figure}[t]\\centering\\includegraphics[width=4cm]{plot.png}\\caption{A plot of the runs.}"
       "\\label{fig:a}\\end{figure}\n")


def test_ragged_right_lines_are_one_paragraph(tmp_path, pdflatex):
    """\\raggedright (PLOS, APA manuscripts) ends every line short of the column's edge: each
    line end was taken for a paragraph's end when the line was two ems short, which cut the
    sentence there. Its paragraphs, indented (an APA manuscript), still end where they do."""
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n\\raggedright\\setlength{\\parindent}{1.5em}\n"
           + FIG + long_sentence(0, 30, words=RAGGED) + "\n\n" + long_sentence(1, 12, words=RAGGED) + "\n\n"
           + long_sentence(2, 12, words=RAGGED)
           + "\n\\end{document}\n")
    pdf = _compile(tmp_path, tex)
    (fig,) = read_pdf(pdf).figures
    assert len(fig.sites) == 54 and cut_sentences(fig) == [], cut_sentences(fig)[:2]
    assert _starts(pdf) == ["Sentence 0", "Sentence 1", "Sentence 2"]


def test_words_in_bold_to_the_column_edge_are_no_heading(tmp_path, pdflatex):
    """A run of bold words inside a paragraph that fills a line, and a run-in heading's first
    line, were read as headings and ended the paragraph there. A bold heading of its own line
    still starts a paragraph after it."""
    # long words: a line of them holds fewer than ten, as a heading's line does
    bold = "\\textbf{" + " ".join(["considerably longer emphasised statements stretching comfortably"] * 4) + "}"
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n" + FIG
           + long_sentence(0, 6).replace("part 3 of it", "part 3 " + bold + " of it") + "\n\n"
           + "\\textbf{Heading run in with words enough to fill the first line of this paragraph here.} "
           + long_sentence(1, 6) + "\n\n"
           + "\\subsubsection*{Heading alone}\n" + long_sentence(2, 6) + "\n\\end{document}\n")
    pdf = _compile(tmp_path, tex)
    (fig,) = read_pdf(pdf).figures
    assert len(fig.sites) == 18 and cut_sentences(fig) == [], cut_sentences(fig)[:2]
    assert [p[:12] for p in paragraphs_read(pdf) if p[:1] in "SH"] == ["Sentence 0 p", "Heading run ", "Heading alon", "Sentence 2 p"]


def test_footnotes_a_point_smaller_than_the_text(tmp_path, pdflatex):
    """A 9 pt class sets footnotes in 8 pt (mnras): one point smaller was not taken for an
    aside, so a paragraph running past a footnote into the next column ended at it."""
    tex = ("\\documentclass[twocolumn]{article}\n\\usepackage{graphicx}\n"
           "\\renewcommand\\footnotesize{\\fontsize{9}{11}\\selectfont}\n\\begin{document}\n" + FIG
           + long_sentence(0, 40).replace("part 1 of it", "part 1\\footnote{The footnote, one point smaller than "
                                           "the text, at the foot of the column.} of it")
           + "\n\n" + long_sentence(50, 3) + "\n\n" + FILLER + "\n\\end{document}\n")
    pdf = _compile(tmp_path, tex)
    (fig,) = read_pdf(pdf).figures
    assert len(fig.sites) == 43 and cut_sentences(fig) == [], cut_sentences(fig)[:2]
    assert _starts(pdf) == ["Sentence 0", "Sentence 50"]


def test_a_full_width_section_after_two_columns_is_read_after_them(tmp_path, pdflatex):
    """A supplement set in one column after two-column text on the same page (multicols):
    a full-width line was read before the column lines above it, so a heading that fits in a
    column's width came after the sentence below it and cut it."""
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{multicol}\n\\begin{document}\n"
           "\\begin{multicols}{2}\n" + long_sentence(0, 14) + "\n\\end{multicols}\n" + FIG
           + "\\subsection*{Heading}\n" + long_sentence(1, 5) + "\n\\end{document}\n")
    pdf = _compile(tmp_path, tex)
    (fig,) = read_pdf(pdf).figures
    assert len(fig.sites) == 19 and cut_sentences(fig) == [], cut_sentences(fig)[:2]
    assert _starts(pdf) == ["Sentence 0", "Heading", "Sentence 1"]


def test_margin_notes_are_read_after_the_page_s_text(tmp_path, pdflatex):
    """A thesis with notes in a wide margin: read line by line from the top, a note's lines
    came between the paragraph's lines beside it and cut the paragraph. The note is still read."""
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n"
           "\\usepackage[textwidth=4in,marginparwidth=1.6in,marginparsep=0.4in,left=1in]{geometry}\n\\begin{document}\n" + FIG
           + long_sentence(0, 12).replace("part 2 of it", "part 2\\marginpar{\\footnotesize A margin note set in "
                                           "smaller type over four or five lines beside the text, as in Figure~\\ref{fig:a}.} of it")
           + "\n\n" + long_sentence(1, 3) + "\n\\end{document}\n")
    pdf = _compile(tmp_path, tex)
    (fig,) = read_pdf(pdf).figures
    notes = [s for s in fig.sites if s.sentence.startswith("A margin note")]
    assert len(fig.sites) == 16 and len(notes) == 1
    assert [s for s in cut_sentences(fig) if s not in {n.sentence for n in notes}] == []
    assert _starts(pdf) == ["Sentence 0", "Sentence 1"]


def test_text_inside_floats_cites_figures(tmp_path, pdflatex):
    """A table's cell ("see Fig. 2"), the note under a figure's graphic and a sub-caption
    cite figures, but were read as the float's own (not running text) and lost. A figure's
    note that names its own number is no citation of itself."""
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
           "Figure~\\ref{fig:a} and Figure~\\ref{fig:b} and Table~\\ref{tab:a} are the results.\n\n"
           "\\begin{figure}[h]\\centering\\caption{A plot of the runs.}\\label{fig:a}\\includegraphics[width=4cm]{plot.png}"
           "\n\n\\footnotesize Note: the runs of Figure~\\ref{fig:b} are the same runs; "
           "Figure~\\ref{fig:a} shows their means.\\end{figure}\n"
           "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}\\caption{The other plot.}"
           "\\label{fig:b}\\end{figure}\n"
           "\\begin{table}[h]\\centering\\caption{Sensors.}\\label{tab:a}\\begin{tabular}{ll}\n"
           "sensor & what it finds \\\\\njoint torque & single contacts (see Fig.~\\ref{fig:b}) \\\\\n"
           "force & all contacts \\\\\n\\end{tabular}\\end{table}\n"
           "More words.\n\\end{document}\n")
    pdf = _compile(tmp_path, tex)
    paper = read_pdf(pdf)
    a, b = paper.figure("1"), paper.figure("2")
    assert len(a.sites) == 1  # the running text's; the note's "Figure 1" is its own
    assert len(b.sites) == 3, [s.sentence for s in b.sites]
    assert any(s.sentence.startswith("Note: the runs of Figure 2") for s in b.sites)
    assert any("single contacts (see Fig. 2)" in s.sentence for s in b.sites)


def test_stacked_scripts_do_not_split_a_line(tmp_path, pdflatex):
    """A superscript with a subscript stacked under it ($\\eta^{x}_{m}$) overlaps the script
    before or after it, and pymupdf may set the rest of the line apart as text of its own:
    that piece did not start right of the line's end, so it was read as a new paragraph."""
    words = "holds the pattern $\\eta^{x}_{m}$ with nothing new in it, as the pattern before it did"
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n" + FIG
           + long_sentence(0, 30, words=words) + "\n\n" + long_sentence(1, 3) + "\n\\end{document}\n")
    pdf = _compile(tmp_path, tex)
    (fig,) = read_pdf(pdf).figures
    assert len(fig.sites) == 33 and cut_sentences(fig) == [], cut_sentences(fig)[:2]
    assert _starts(pdf) == ["Sentence 0", "Sentence 1"]


def test_a_note_set_smaller_under_a_caption_is_not_the_caption(tmp_path, pdflatex):
    """A float that prints a note a point smaller under its caption ({\\small This figure
    gives ...} after \\caption): the caption ran on into the note. A caption of two sentences
    over several lines in its own size is read whole."""
    short_caption = ("Two example functions for obtaining the predicates of the runs of the system, one "
                     "general and one specific, over two lines.")
    long_caption = ("Two example functions of the runs. The second sentence of the same caption goes on "
                    "over a further line or two of text in the same size as the first, as long captions do.")
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
           "Figure~\\ref{fig:a} and Figure~\\ref{fig:b} are the results.\n\n"
           "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}\\caption{" + short_caption + "}"
           "\\label{fig:a}\n\n{\\small\\noindent This figure gives two functions for obtaining the predicates of "
           "the runs, the first of them general and the second one specific to a system.}\\end{figure}\n"
           "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}\\caption{" + long_caption + "}"
           "\\label{fig:b}\\end{figure}\nMore words.\n\\end{document}\n")
    paper = read_pdf(_compile(tmp_path, tex))
    assert paper.figure("1").caption.text == short_caption
    assert paper.figure("2").caption.text == long_caption


def test_a_folio_read_with_its_running_head_is_page_furniture(tmp_path, pdflatex):
    """The folio and the running head set on one row a little inside the page ("16 G. Author
    et al.", mnras's even pages) read as one line, no lone page number: it was taken for the
    next page's first line of text, so every paragraph running onto such a page was cut there.
    Negative: a number that does not count with the pages (the same "7" on each) is no folio,
    so the line it heads is not taken for one."""
    head = ("\\usepackage[top=1.5in,headsep=0.3in]{geometry}\n\\usepackage{fancyhdr}\n\\pagestyle{fancy}\n"
            "\\fancyhf{}\n\\renewcommand{\\headrulewidth}{0pt}\n"
            "\\fancyhead[L]{\\large\\thepage\\quad A. Author et al.}\n")
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n" + head + "\\begin{document}\n" + FIG
           + "\n\n".join(long_sentence(k, 8) for k in range(12)) + "\n\n" + FILLER + "\n\\end{document}\n")
    pdf = _compile(tmp_path, tex)
    (fig,) = read_pdf(pdf).figures
    assert len(fig.sites) == 96 and cut_sentences(fig) == [], cut_sentences(fig)[:2]
    assert not any("A. Author" in p for p in paragraphs_read(pdf))
    (tmp_path / "n").mkdir()
    pdf = _compile(tmp_path / "n", tex.replace("\\thepage\\quad", "7\\quad"))
    assert any("7 A. Author" in p for p in paragraphs_read(pdf))


APA_HEAD = "BRIDGING TWO MODELS OF MEMORY IN SERIAL RECALL"


def _running_head(head: str) -> str:
    return ("\\documentclass[12pt]{article}\n\\usepackage{graphicx}\n\\usepackage{fancyhdr}\n"
            "\\pagestyle{fancy}\\fancyhf{}\\renewcommand{\\headrulewidth}{0pt}\n"
            "\\fancyhead[L]{" + head + "}\\fancyhead[R]{\\thepage}\n\\begin{document}\n" + FIG
            + long_sentence(0, 60) + "\n\n" + long_sentence(1, 3) + "\n\n" + FILLER + "\n\\end{document}\n")


def test_a_long_running_head_in_capitals_is_no_text(tmp_path, pdflatex):
    """An APA manuscript's running head, the title in capitals at body size, is two thirds of a
    line: it was taken for the text block's first line, so every page's head was read as text
    and cut the sentence that runs over the page turn (a mention at the top of the next page
    lost its sentence). A short running head read the same before (the negative case)."""
    for head in (APA_HEAD, "SHORT HEAD"):
        folder = tmp_path / head.split()[0].lower()
        folder.mkdir()
        pdf = _compile(folder, _running_head(head))
        (fig,) = read_pdf(pdf).figures
        assert len(fig.sites) == 63 and cut_sentences(fig) == [], (head, cut_sentences(fig)[:2])
        assert _starts(pdf) == ["Sentence 0", "Sentence 1"], (head, _starts(pdf))
        assert not any(head in p for p in paragraphs_read(pdf)), head
