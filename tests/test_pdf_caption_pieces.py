"""PDF route: a caption's text where its printed row comes in pieces, and where a note in
another face follows it (issue 12, "printed-caption match").

* A caption whose label is set apart by a wide space (a class's \\quad, a narrow justified
  margin caption's stretched space) and whose first word is set smaller (an acronym in small
  capitals) was read as its label alone: the smaller word's lower top put the rest of the row
  out of the text reader's order, and the pieces, one baseline and one size, were then joined
  only across a gap under one character's width.
* File names set smaller in a typewriter face under a caption (a thesis naming the scripts
  that made each figure) are a note beside the caption, not its text.

Each case is a small document compiled with pdflatex.
"""

from __future__ import annotations

from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_main, plot_png


_FILLER = ("The listening tests were run in a quiet room with a tracked pair of headphones, "
           "and every listener heard each condition three times in a random order. ")


def _captions(pdf) -> dict[str, str]:
    return {f.number: f.caption.text for f in read_pdf(str(pdf)).figures if f.number and f.caption}


def test_a_smaller_first_word_after_a_label_set_apart(tmp_path, pdflatex):
    plot_png(tmp_path, "p1.png")
    plot_png(tmp_path, "p2.png")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{caption}\n"
        "\\DeclareCaptionLabelSeparator{apart}{:\\quad}\n"
        "\\captionsetup{width=4.1cm,font=small,labelsep=apart,justification=justified}\n"
        "\\begin{document}\n" + _FILLER * 3 + "\n\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\textwidth]{p1.png}"
        "\\caption{{\\scriptsize HRTF} measurement of a loudspeaker array in the anechoic chamber of the "
        "university, seen from the position of the listener.}\\label{fig:1}\\end{figure}\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\textwidth]{p2.png}"
        "\\caption{Average ratings of all listeners with their confidence intervals.}\\label{fig:2}\\end{figure}\n"
        + _FILLER * 3 + "\n\\end{document}\n")
    compile_main(tmp_path)
    caps = _captions(tmp_path / "main.pdf")
    assert caps.get("1", "").startswith("HRTF measurement of a loudspeaker array"), caps
    assert "seen from the position of the listener" in caps["1"], caps
    assert caps.get("2", "").startswith("Average ratings of all listeners"), caps


def test_script_names_in_a_typewriter_face_under_a_caption(tmp_path, pdflatex):
    plot_png(tmp_path, "p1.png")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage[font=small,singlelinecheck=false]{caption}\n"
        "\\begin{document}\n" + _FILLER * 3 + "\n\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\textwidth]{p1.png}"
        "\\caption{Measurements with the artificial head in the anechoic chamber.}\\label{fig:1}\n\n"
        "\\raggedright{\\footnotesize\\ttfamily interpolate\\_responses.m}\\\\{\\footnotesize\\ttfamily "
        "get\\_impulse\\_responses.m}\\end{figure}\n" + _FILLER * 3 + "\n\\end{document}\n")
    compile_main(tmp_path)
    caps = _captions(tmp_path / "main.pdf")
    assert caps.get("1", "").rstrip() == "Measurements with the artificial head in the anechoic chamber.", caps


_STRETCHED = ("Alert photometry of the young candidate C202505201402422m202612abcdefghij0123456789xyz "
              "and later observed by the second survey as well.")


def test_a_first_row_stretched_before_a_long_identifier(tmp_path, pdflatex):
    # a word that cannot break pushed to the second row leaves the first stretched so far that
    # MuPDF sets each word apart, and the space after "Figure 1:" (the class's and the source's
    # own, "\caption{⏎Text") is the widest: the caption was read from its second row on
    plot_png(tmp_path, "p1.png")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n" + _FILLER * 3 + "\n\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\textwidth]{p1.png}\n\\caption{\n    "
        + _STRETCHED + "\n}\\label{fig:1}\\end{figure}\n"
        "As Figure~\\ref{fig:1} shows, the candidate " + _STRETCHED[6:] + " " + _FILLER * 2
        + "\n\\end{document}\n")
    compile_main(tmp_path)
    paper = read_pdf(str(tmp_path / "main.pdf"))
    caps = {f.number: f.caption.text for f in paper.figures if f.number and f.caption}
    assert caps.get("1", "").rstrip() == _STRETCHED, caps


def test_stretched_rows_side_by_side_stay_apart(tmp_path, pdflatex):
    # what must not change: two stretched subcaptions beside each other, and two table cells
    # of justified text, each keep their rows; their white channel is no stretched space
    plot_png(tmp_path, "p1.png")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{subcaption}\n"
        "\\captionsetup[sub]{justification=justified}\n\\begin{document}\n" + _FILLER * 3 + "\n\n"
        "\\begin{figure}[h]\\centering\n"
        "\\begin{subfigure}{0.45\\textwidth}\\includegraphics[width=\\textwidth]{p1.png}\n"
        "\\caption{Photometry of the candidate C2025052014024m202612abcdefgh and later of the others.}"
        "\\end{subfigure}\\hspace{0.5em}%\n"
        "\\begin{subfigure}{0.45\\textwidth}\\includegraphics[width=\\textwidth]{p1.png}\n"
        "\\caption{Spectra of the candidate D2025052014024m202612abcdefgh and later of the others.}"
        "\\end{subfigure}\n\\caption{Two views of the candidate.}\\label{fig:1}\\end{figure}\n\n"
        "\\noindent\\begin{tabular}{@{}p{5.5cm}@{\\hspace{8mm}}p{5.5cm}@{}}\n"
        "Photometry of the candidate E2025052014024m202612abcdefgh and later of the others seen. &\n"
        "Spectra of the candidate F2025052014024m202612abcdefgh and later of the others seen.\\\\\n"
        "\\end{tabular}\n\n" + _FILLER * 2 + "\n\\end{document}\n")
    compile_main(tmp_path)
    import pymupdf
    from figlint.ingest.pdf_layout import read_page

    with pymupdf.open(tmp_path / "main.pdf") as doc:
        texts = [ln.text for ln in read_page(doc[0]).lines]
    for row in ("(a) Photometry of the candidate", "(b) Spectra of the candidate",
                "Photometry of the candidate", "Spectra of the candidate"):
        assert row in texts, texts
    caps = {f.number: f.caption.text for f in read_pdf(str(tmp_path / "main.pdf")).figures if f.number and f.caption}
    assert caps.get("1", "").rstrip() == "Two views of the candidate.", caps


def test_stretched_pieces_join_only_across_a_bridged_stretched_space():
    # the rule itself, on MuPDF's raw lines of one block: pieces of one baseline join across a
    # stretched space a line of the paragraph runs across; not across a white channel, nor
    # between tokens that hold no space of their own (tick labels)
    from figlint.ingest.pdf_layout import _lines_of_block

    def word(x0, x1, y, text):
        return {"bbox": (x0, y - 8, x1, y + 2), "dir": (1, 0), "spans": [
            {"text": text, "size": 10.0, "font": "CMR10", "bbox": (x0, y - 8, x1, y + 2), "origin": (x0, y)}]}

    row = [word(100, 130, 100, "Figure"), word(140, 150, 100, "1:"), word(185, 210, 100, "Alert"),
           word(220, 260, 100, "photometry")]
    below = [word(100, 260, 112, "C2025 and later observed by the second")]
    assert [ln.text for ln in _lines_of_block(0, 0, {"lines": row + below})] == [
        "Figure 1: Alert photometry", "C2025 and later observed by the second"]
    # the same row without the line under it that crosses the space: a white channel
    under_each = [word(100, 150, 112, "left column"), word(185, 260, 112, "right column")]
    assert [ln.text for ln in _lines_of_block(0, 0, {"lines": row + under_each})][:2] == ["Figure 1:", "Alert photometry"]
    # tick labels: no space inside any of them
    ticks = [word(100, 105, 100, "0"), word(140, 150, 100, "10"), word(185, 195, 100, "20")]
    assert [ln.text for ln in _lines_of_block(0, 0, {"lines": ticks + below})][:3] == ["0", "10", "20"]
