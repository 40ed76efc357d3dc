"""PDF route: where a caption ends, as LaTeX set it.

Binding against the field papers' .aux (issue 12) found five general causes of captions read
cut short or running on:
- a long caption at a page's foot runs past the text block, over the folio's row and into
  the page's outer strip, where its lines were taken for the running foot (two papers);
- a caption ending in a closing quote ("... 25 cm.”) did not read as ended, so the table
  caption set right under it was read as its next line;
- a formula's raised sign right after the label ("Rate-√M ...") stood between the label
  line and the rest of its row, so the caption was read as "Rate-";
- an image box reaching down behind the caption (set over the graphic's lower part) ended
  the caption at its first line whose middle lay inside that box;
- "2-" at a line's end before "element" is a compound's own hyphen (TeX breaks no number):
  it was joined as "2- element";
- a tall formula (a hat) makes a caption line's box reach into the next line's: the two were
  read as one row and sorted by where they start, a fraction of a point apart, so the next
  line's words came first;
- eLife's "Figure 1–Figure supplement 2." captions an item attached to Figure 1, not Figure 1;
- a caption whose first line breaks for width mid-sentence right before "Fig. 6." ended there
  (only later lines were asked whether they end a sentence);
- a display formula of the text set right under a tiny caption ("H(p) = 1", short, so only its
  size tells) and the sum's limits read before it were taken as the caption's last lines;
- a side note set right under a margin caption (tufte) was read as the caption's next lines.
Each case is compiled with pdflatex; the negative cases keep what is not the caption out.
"""

from __future__ import annotations

from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import caption_read, compile_tex

IMAGES = {"p.png": ((300, 200), (90, 140, 200)), "t.png": ((300, 600), (90, 140, 200))}
BAND = "The shaded band marks the spread of the ensemble around its mean for every month of the record. "
AFTER = "More text after the figure closes the section on the ensemble. "


def _paper(fig: str, preamble: str = "") -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n" + preamble + "\\begin{document}\n"
            + "Some text before the figure. " * 40 + "See Figure~\\ref{fig:a}.\n" + fig + "\n"
            + AFTER * 30 + "\n\\end{document}\n")


def _float(body: str, caption: str, where: str = "h") -> str:
    return (f"\\begin{{figure}}[{where}]\n{body}\n\\caption{{{caption}}}\\label{{fig:a}}\n\\end{{figure}}")


def _caption(folder, tex: str) -> str:
    return caption_read(folder, tex, IMAGES)


def test_a_caption_run_past_the_page_foot_keeps_its_last_lines(tmp_path, pdflatex):
    # a float taller than the text block: its caption runs over the folio and into the foot strip
    got = _caption(tmp_path / "a", _paper(_float(
        "\\centering\\includegraphics[width=0.5\\textwidth,height=0.8\\textheight]{p.png}",
        BAND * 12 + "Last words here.", "p")))
    assert got.endswith("Last words here.")
    # negative: a running foot set in the caption's size under a caption at the page's bottom
    foot = "\\usepackage{fancyhdr}\n\\pagestyle{fancy}\n\\cfoot{Preprint submitted to the journal}\n"
    got = _caption(tmp_path / "b", _paper(_float("\\centering\\includegraphics[width=0.5\\textwidth]{p.png}",
                                                 BAND * 3 + "Last words here.", "b"), foot))
    assert got.endswith("Last words here.") and "Preprint" not in got


def test_a_caption_ending_in_a_closing_quote_is_over(tmp_path, pdflatex):
    graphic = "\\centering\\includegraphics[width=0.5\\textwidth]{p.png}"
    quoted = ("Histogram of the maximum point estimation error for two contacts with different random "
              "contact configurations. Read: ``34\\% lie between 15 and 25 cm.''")
    table = "\\par\\vspace{-8pt}\\captionof{table}{Possibilities of detection with different numbers of sensors.}"
    got = _caption(tmp_path / "a", _paper(_float(graphic, quoted)[:-len("\\end{figure}")] + table + "\\end{figure}",
                                         "\\usepackage{caption}\n"))
    assert got.endswith("25 cm.\u201d") and "Possibilities" not in got
    # negative: "Table 2" opening a line mid-sentence is a mention inside the caption
    mention = ("Histogram of the maximum point estimation error for two contacts, as listed in\\protect\\newline "
               "Table~2 of the appendix together with the random contact configurations.")
    got = _caption(tmp_path / "b", _paper(_float(graphic, mention), "\\usepackage{caption}\n"))
    assert got.endswith("random contact configurations.") and "Table 2 of the appendix" in got


def test_a_raised_sign_after_the_label_keeps_the_row(tmp_path, pdflatex):
    graphic = "\\centering\\includegraphics[width=0.5\\textwidth]{p.png}"
    got = _caption(tmp_path / "a", _paper(_float(graphic, "Rate-$\\sqrt{M}$ with guard interval $\\tau = T_s$ and $L = 10$")))
    assert "with guard interval" in got and got.rstrip().endswith("10")
    assert AFTER[:20] not in got


def test_an_image_box_behind_the_caption_does_not_end_it(tmp_path, pdflatex):
    # the graphic's box reaches down behind the caption (set over its lower part)
    got = _caption(tmp_path / "a", _paper(_float(
        "\\includegraphics[width=0.3\\textwidth]{t.png}\\par\\vspace{-4cm}", BAND * 3 + "Last words here.")))
    assert got.endswith("Last words here.") and AFTER[:20] not in got
    # negative: a graphic set below the caption still ends it (its text is not the caption's)
    below = ("\\centering\\includegraphics[width=0.5\\textwidth]{p.png}\n\\caption{" + BAND + "Last words here.}"
             "\\label{fig:a}\n\\par\\includegraphics[width=0.5\\textwidth]{p.png}\\par{\\small Notes set below the "
             "second graphic.}")
    got = _caption(tmp_path / "b", _paper("\\begin{figure}[h]\n" + below + "\n\\end{figure}"))
    assert got.endswith("Last words here.") and "Notes set below" not in got


def test_a_number_hyphen_at_a_line_end_is_kept_with_its_word(tmp_path, pdflatex):
    graphic = "\\centering\\includegraphics[width=0.5\\textwidth]{p.png}"
    got = _caption(tmp_path / "a", _paper(_float(
        graphic, "Waves calculated using the 2-\\protect\\newline element model and the 3-element model.")))
    assert "the 2-element model" in got
    # negative: a number ending a line without a hyphen stays a word of its own
    got = _caption(tmp_path / "b", _paper(_float(
        graphic, "Waves calculated using model 2\\protect\\newline element by element and the 3-element model.")))
    assert "model 2 element by element" in got


def test_a_figure_supplement_caption_is_not_its_figure_s(tmp_path, pdflatex):
    """eLife captions each figure supplement "Figure 1–Figure supplement 2. ..." under its own
    graphic: that is an item attached to Figure 1, not Figure 1's caption (the field paper set
    this way reported Figure 1 twice). Negative: the same typed style with a plain label
    ("Figure 2. ...") is a figure's caption."""
    graphic = "\\centering\\includegraphics[width=0.4\\textwidth]{p.png}\\par\n"
    supp = ("\\begin{figure}[h]\n" + graphic + "{\\small\\textbf{Figure 1--Figure supplement 1.} " + BAND
            + "}\n\\end{figure}\n")
    typed = ("\\begin{figure}[h]\n" + graphic + "{\\small\\textbf{Figure 2.} " + BAND + "}\n\\end{figure}\n")
    tex = _paper(_float(graphic, "The main figure of the paper. " + BAND) + "\n" + supp + typed)
    (tmp_path / "a").mkdir()
    figs = read_pdf(compile_tex(tmp_path / "a", tex, IMAGES)).figures
    numbered = sorted(f.number for f in figs if f.number)
    assert numbered == ["1", "2"], numbered
    (one,) = [f for f in figs if f.number == "1"]
    assert one.caption.text.startswith("The main figure of the paper.")
    # the supplement's caption set right under the figure's own ends that caption
    close = _float(graphic, "The main figure of the paper. " + BAND)[:-len("\\end{figure}")]
    close += "\\par\\vspace{-6pt}\\textbf{Figure 1--Figure supplement 1.} Another view of the runs.\\end{figure}"
    got = _caption(tmp_path / "b", _paper(close))
    assert got.endswith("month of the record.") and "supplement" not in got, got


def test_a_tall_formula_does_not_merge_two_caption_lines(tmp_path, pdflatex):
    """The line under a line with a hat set over a formula starts a hair left of it (math
    italic; here a point, by hand): read as one row with it, it was put first. Negative: a
    formula's sub- and superscript pieces, stacked in one row, stay in the row's order."""
    cap = ("Example of a complete recovery of the angles. The loss converges to zero when the "
           "estimated distance is exact, that is when $\\widehat{d_p}(p_i, p_j) =$\\protect\\\\[-5pt]"
           "\\hspace*{-1pt}$d_q(q_i, q_j)$ for every pair of the set.")
    narrow = "\\begin{minipage}{0.3\\textwidth}\\includegraphics[width=\\linewidth]{p.png}"
    tex = _paper("\\begin{figure}[h]\\centering" + narrow + "\\caption{" + cap + "}\\label{fig:a}"
                 "\\end{minipage}\\end{figure}", "\\usepackage{amsmath}\n")
    got = _caption(tmp_path / "a", tex)
    assert got.index("(pi, pj) =") < got.index("dq(qi, qj) for every pair"), got
    cap = ("Example of a complete recovery of the angles, with the loss $L^{a}_{b}$ and the "
           "estimate $x^{2}_{k}$ set in the same line of the caption text.")
    tex = _paper("\\begin{figure}[h]\\centering" + narrow + "\\caption{" + cap + "}\\label{fig:a}"
                 "\\end{minipage}\\end{figure}")
    got = _caption(tmp_path / "b", tex)
    assert got.startswith("Example of a complete recovery") and got.endswith("the caption text."), got


def test_a_row_split_at_a_formula_is_one_row_of_the_caption(tmp_path, pdflatex):
    """The label line's row read as two lines (split at a formula's raised sign) is one printed
    row: taken for a caption wrapped in a narrow box, it narrowed the float's horizontal range,
    and the hyperref anchor at the column's edge no longer found the figure, so a citation
    only the link shows ("shown in 11", a bare \\ref) was lost. Negative: a text link to a section
    is no figure's citation. ("Fig. (11)" is a printed mention now, which needs no link.)"""
    graphic = "\\centering\\includegraphics[width=0.5\\textwidth]{p.png}"
    fig = _float(graphic, "Rate-$\\sqrt{M}$ with guard interval $\\tau = T_s$ and $L = 10$")
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{caption}\n\\usepackage{hyperref}\n\\begin{document}\n"
           "\\section{Results}\\label{sec:r}\n" + "Some text before the figure. " * 40 + "\n" + fig + "\n\\clearpage\n"
           "The plot shown in \\ref{fig:a} tells that the rate grows with the number of elements, as Section~\\ref{sec:r} "
           "said. " + AFTER * 10 + "\n\\end{document}\n")
    (tmp_path / "a").mkdir()
    figs = [f for f in read_pdf(compile_tex(tmp_path / "a", tex, IMAGES)).figures if f.number == "1"]
    assert len(figs) == 1 and "with guard interval" in figs[0].caption.text
    assert [s.via for s in figs[0].sites] == ["link"], [(s.via, s.sentence) for s in figs[0].sites]


def test_a_notes_paragraph_under_a_title_caption_is_not_the_caption(tmp_path, pdflatex):
    """Economics and social-science papers give a figure a title-style caption (no stop) and
    a smaller paragraph of notes under it that opens with "Notes:" (here as such a working
    paper sets it: 11 pt, captions \\small, notes \\footnotesize in a minipage): the caption
    ran on into the notes, which are not the caption LaTeX records (field audit: 8 captions
    of one paper). A "Notes:" written inside the caption itself is the caption's."""
    pre = "\\usepackage[font=small,labelfont=bf]{caption}\n\\usepackage{float}\n"
    notes = ("\\begin{minipage}{0.85\\textwidth}\\footnotesize \\textit{Notes:} Each line shows the share of the "
             "units in a group that meet the rule of the indicated design, computed from the joint distribution "
             "of the scores of all units.\\end{minipage}")
    body = "\\centering\\includegraphics[width=0.5\\textwidth]{p.png}"
    title = "Decomposition of the Response: How Each Part of the Design Narrows the Set of Outcomes Seen"
    fig = ("\\begin{figure}[H]\n" + body + "\n\\caption{" + title + "}\\label{fig:a}\n"
           "\\vspace{1mm}\n" + notes + "\n\\end{figure}")
    tex = _paper(fig, pre).replace("\\documentclass{article}", "\\documentclass[11pt]{article}")
    assert _caption(tmp_path / "a", tex) == title
    inside = "Eligibility Rates by Group and Design. Notes: each line shows the share of the units in a group"
    tex = _paper(_float(body, inside), pre).replace("\\documentclass{article}", "\\documentclass[11pt]{article}")
    assert _caption(tmp_path / "b", tex) == inside


def test_a_label_the_caption_first_line_wraps_onto_is_a_mention(tmp_path, pdflatex):
    # the caption's first line breaks for width mid-sentence, right before "Figure 2": a
    # mention inside the caption, which goes on past it (it used to end at "from the")
    graphic = "\\centering\\includegraphics[width=0.5\\textwidth]{p.png}"
    wrapped = ("Path signatures of the part and of the whole shape drawn in the\\protect\\linebreak "
               "Figure~2. The array index corresponds to the index location of the part.")
    got = _caption(tmp_path / "a", _paper(_float(graphic, wrapped)))
    assert "Figure 2. The array index" in got and got.endswith("location of the part.")
    # negative: a short title-style caption (no stop) with the next float's caption right under
    # it: two captions, not one
    stacked = (_float(graphic, "Rates by group")[:-len("\\end{figure}")]
               + "\\par\\captionof{figure}{Counts by region and year of the survey.}\\end{figure}")
    got = _caption(tmp_path / "b", _paper(stacked, "\\usepackage{caption}\n"))
    assert got == "Rates by group"


def test_a_display_formula_right_under_a_small_caption_is_not_the_caption(tmp_path, pdflatex):
    # a caption in tiny type with the text's display formula set right under the float (a
    # journal's tight float spacing): "H(p) = 1" is short, so only its size tells it apart; the
    # sum's limits read before it went with it. The caption's own short last line stays
    pre = "\\usepackage{caption}\n\\captionsetup{font=tiny}\n\\setlength{\\intextsep}{0pt}\n"
    graphic = "\\centering\\includegraphics[width=0.5\\textwidth]{p.png}"
    cap = BAND * 3 + "Last words of the runs."
    tex = ("\\documentclass[12pt]{article}\n\\usepackage{graphicx}\n" + pre + "\\begin{document}\n"
           + "Some text before the figure. " * 40 + "See Figure~\\ref{fig:a}.\n" + _float(graphic, cap)
           + "\\vspace{-14pt}\\[ H(p) = \\frac{1}{n} \\sum_{i=1}^{n} \\sum_{j=0}^{n} p_{ij} \\log p_{ij} \\]\n"
           + AFTER * 20 + "\n\\end{document}\n")
    got = _caption(tmp_path / "a", tex)
    assert got.endswith("Last words of the runs."), got[-120:]


def test_a_side_note_under_a_margin_caption_is_not_the_caption(tmp_path, pdflatex):
    # tufte: a margin figure's caption, and right under it in the margin the side note the
    # text sets next ("10 The HRTF set is ..."): the note opens with its small raised mark
    tex = ("\\documentclass{tufte-handout}\n\\usepackage{graphicx}\n\\begin{document}\n"
           + "Some text before the figure. " * 30 + "\n\n"
           "\\begin{marginfigure}\\includegraphics[width=\\linewidth]{p.png}"
           "\\caption{Measurements with the artificial head in the anechoic chamber.}\\label{fig:a}\\end{marginfigure}\n"
           "The set used here was measured in the horizontal plane only.\\sidenote{The set is freely available "
           "and is described elsewhere in full.} " + "More text after the figure. " * 30 + "\n\\end{document}\n")
    got = _caption(tmp_path / "a", tex)
    assert got == "Measurements with the artificial head in the anechoic chamber.", got
    # negative: a caption line opening with an isotope's mass number ("13C", no space) goes on
    tex = tex.replace("in the anechoic chamber.}", "in the anechoic chamber, as \\protect\\linebreak "
                      "\\textsuperscript{13}C spectra of the samples.}")
    got = _caption(tmp_path / "b", tex)
    assert got.endswith("C spectra of the samples."), got


def test_a_single_spaced_caption_in_a_double_spaced_paper_ends_at_its_last_line(tmp_path, pdflatex):
    # a referee layout (GJI's, from pandoc): the text double-spaced at 12 pt, captions single-spaced
    # a size smaller; the white space under a caption is about one of the text's own line gaps
    pre = ("\\usepackage{setspace}\n\\setstretch{2}\n\\usepackage[font=small]{caption}\n"
           "\\setlength{\\textfloatsep}{8pt}\n")
    tex = ("\\documentclass[12pt]{article}\n\\usepackage{graphicx}\n" + pre + "\\begin{document}\n"
           + "Some text before the figure. " * 40 + "See Figure~\\ref{fig:a}.\n"
           + _float("\\centering\\includegraphics[width=0.5\\textwidth]{p.png}", BAND * 3 + "Last words here.")
           + "\n" + AFTER * 30 + "\n\\end{document}\n")
    got = _caption(tmp_path / "a", tex)
    assert got.endswith("Last words here.")
    assert got.startswith("The shaded band") and got.count("The shaded band") == 3


def test_a_caption_with_a_bold_title_wins_over_a_heading_naming_its_figure(tmp_path, pdflatex):
    # An appendix whose paragraph headings name the figures they discuss ("Figure 20 - Flexible
    # models ...", bold or italic like the class's \paragraph) ahead of the float; the caption
    # sets its label and its title sentence in bold, so its line reads as bold: it lost the
    # score of a bold label before regular text, tied with the heading, and the heading (first)
    # was taken as the figure's caption, on the wrong page.
    title = "Flexible models do well on these data."
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage[labelfont=bf,labelsep=period]{caption}\n"
           "\\begin{document}\n" + "Some text before the figure. " * 40 + "\n\n"
           "\\paragraph{\\mdseries\\itshape Figure~\\ref{fig:a} - Flexible models are performant in recovering "
           "nuisances}\\mbox{}\\\\\n" + "The models do well. " * 3 + "\n\n" + "More text in the appendix here. " * 200 + "\n\n"
           + _float("\\centering\\includegraphics[width=0.5\\textwidth]{p.png}",
                    "\\textbf{" + title + "} The propensity score is linear in this setup, a hard case.", "p")
           + "\n\\end{document}\n")
    folder = tmp_path / "a"
    folder.mkdir()
    figs = [f for f in read_pdf(compile_tex(folder, tex, IMAGES)).figures if f.number == "1"]
    assert len(figs) == 1
    assert figs[0].caption.text.startswith(title), figs[0].caption.text
