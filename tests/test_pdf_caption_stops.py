"""PDF route: what stops a caption from reading on into what LaTeX set under it.

Binding against the field papers' .aux (issue 12) found captions read on past their end:
- a table set right under a caption: its rules (a horizontal rule between the caption and
  the table, the cells' vertical rules, which stretched the table's first row up to the
  caption as if they were marks set in that row) let the table's cells join the caption;
- small drawings in a figure of the other column (its labels drawn as paths) stretched a
  line of the text beside them, as if they were set in that line;
- a caption whose last row stops short, followed closely by a paragraph's indented first line
  (LaTeX sets a caption with no paragraph indent);
- a font whose boxes, as the PDF's metrics size them, are taller than the line pitch: the
  usual gap between two lines of a paragraph is negative, and leaving those gaps out made the
  gap between paragraphs the measure, so the text under a float read as the caption's;
- a glyph whose box stands far above its own baseline stretched its line up into the caption.
The compiled cases keep what is not the caption out and the caption whole.
"""

from __future__ import annotations

from figlint.ingest.pdf_layout import Line, _line_gap, _seat_displaced_spans
from fixtures.pdf_build import caption_read

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}
BAND = "The shaded band marks the spread of the ensemble around its mean for every month of the record. "
AFTER = "More text after the figure closes the section on the ensemble. "
END = "Last words here."


def _paper(fig: str, preamble: str = "", after: str = "") -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n" + preamble + "\\begin{document}\n"
            + "Some text before the figure. " * 40 + "See Figure~\\ref{fig:a}.\n" + fig + "\n"
            + after + AFTER * 30 + "\n\\end{document}\n")


def _caption(folder, tex: str) -> str:
    return caption_read(folder, tex, IMAGES)


def _with_table(spec: str, rule: str) -> str:
    return ("\\begin{figure}[h]\\centering\\includegraphics[width=0.5\\textwidth]{p.png}\n"
            f"\\caption{{{BAND * 2}{END}}}\\label{{fig:a}}\n"
            f"\\begin{{tabular}}{{{spec}}}{rule}\nModel & Accuracy & Train time\\\\{rule}\n"
            f"First model here & 0.965 & 35 hours\\\\{rule}\\end{{tabular}}\n\\end{{figure}}\n")


def test_a_table_under_the_caption_is_not_read_into_it(tmp_path):
    # ruled all round: the horizontal rule under the caption ends it, and the cells' vertical
    # rules are rules, not marks set in the table's first row
    got = _caption(tmp_path / "a", _paper(_with_table("|c|c|c|", "\\hline")))
    assert got.endswith(END) and "Accuracy" not in got
    got = _caption(tmp_path / "b", _paper(_with_table("lll", "\\hline")))
    assert got.endswith(END) and "Accuracy" not in got


def test_an_indented_paragraph_close_under_a_short_last_row_is_not_the_caption(tmp_path):
    fig = ("\\begin{figure}[h]\\centering\\includegraphics[width=0.3\\textwidth]{p.png}\n"
           f"\\caption{{{BAND}{END}}}\\label{{fig:a}}\n\\end{{figure}}\n\nThis one line of text then ends.\n\n")
    tight = "\\setlength{\\intextsep}{2pt}\\setlength{\\abovecaptionskip}{2pt}\n"
    got = _caption(tmp_path / "a", _paper(fig, tight))
    assert got.endswith(END) and "one line of text" not in got
    # a caption that goes on over several full rows still reads whole
    long_fig = fig.replace(BAND, BAND * 3)
    got = _caption(tmp_path / "b", _paper(long_fig, tight))
    assert got.count("The shaded band") == 3 and got.endswith(END)


def _line(y0: float, y1: float, page: int = 0) -> Line:
    return Line(page, (72.0, y0, 540.0, y1), "a line of running text set at the body size", [], 10.0, "Times", False, 0)


def test_line_gap_counts_lines_whose_boxes_overlap():
    # a font whose boxes are 12 pt tall set on an 11 pt pitch: each line's box overlaps the
    # next by a point; paragraphs 18 pt apart now and then
    lines, y = [], 100.0
    for k in range(40):
        lines.append(_line(y, y + 12.0))
        y += 11.0 if k % 8 else 29.0
    gap = _line_gap(lines, 10.0)
    assert -1.5 < gap < 0.0


def test_a_span_whose_box_misses_its_baseline_is_seated_on_it():
    text = {"text": "a line of text", "size": 10.0, "font": "CMR10", "bbox": (72.0, 450.0, 200.0, 460.0),
            "origin": (72.0, 457.8)}
    degree = {"text": "\u00b0", "size": 10.0, "font": "F82", "bbox": (200.0, 423.5, 203.0, 433.5),
              "origin": (200.0, 457.8)}
    d = {"blocks": [{"type": 0, "lines": [{"dir": (1, 0), "bbox": (72.0, 423.5, 203.0, 460.0),
                                            "spans": [text, degree]}]}]}
    _seat_displaced_spans(d)
    line = d["blocks"][0]["lines"][0]
    assert degree["bbox"][1] <= 457.8 <= degree["bbox"][3]
    assert line["bbox"][1] >= 445.0
    assert text["bbox"] == (72.0, 450.0, 200.0, 460.0)  # a span on its baseline is left as it is
