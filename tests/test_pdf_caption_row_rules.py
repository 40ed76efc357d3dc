"""PDF route: a rule that a formula sets in a caption's row does not end the caption.

A radical's overbar, an \\overline and a fraction's bar are rules in the PDF, like a table's top
rule or a footnote rule. One set over a caption row's formula can lie in the white between
that row and the row above it (a wide radicand's bar stands above the row's letters), where
the stop for "a rule between the caption's last row and the next line" read it as the end of
the caption (issue 12: a caption cut at an inline square root). Such a rule lies in the row's
own height, over the row's glyphs from end to end, short of the measure; a separator (a
table's rule, reaching past its cells' text by the column padding; a rule across the float)
still ends the caption.

Nor does a rule drawn over the page: a running head's rule under a head taller than the room
the class leaves it (a logo in a head offset into a wide margin, the PLOS template's layout)
lies across the text block and cut a caption there (issue 12: a field paper's caption lost its
last two rows). It reaches far into a margin, and the caption's rows go on under it where they
start, at their own pitch: a rule set in the text takes room of its own.
"""

from __future__ import annotations

from fixtures.pdf_build import caption_read

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}
AFTER = "More text after the figure closes the section on the ensemble. "
END = "Last words here."
# wide formulas: a rule shorter than four letters is no stop in any case
ROOT = "$V_0=\\sqrt{a\\beta\\gamma/\\rho R_0 b}$"
FRAC = "$\\textstyle\\frac{a+b+c+d}{\\alpha\\beta\\gamma\\delta}$"
BAR = "$\\overline{x+y+z+w}$ and $\\overline{XYZW}$"


def _paper(caption: str, under: str = "") -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            + "Some text before the figure. " * 40 + "See Figure~\\ref{fig:a}.\n"
            + "\\begin{figure}[h]\\centering\\includegraphics[width=0.4\\textwidth]{p.png}\n"
            + f"\\caption{{{caption}}}\\label{{fig:a}}\n{under}\\end{{figure}}\n" + AFTER * 30 + "\n\\end{document}\n")


def _caption(folder, tex: str) -> str:
    return caption_read(folder, tex, IMAGES)


def _text(formula: str, shift: int) -> str:
    # the words before the formula move it along the rows: on the second row, or the third
    return ("Short words " * shift + "The shaded band marks the spread of the ensemble around its mean for each "
            f"month, scaled with {formula} that the model sets for every run of the record. Then the "
            f"ensemble spread follows the mean closely. {END}")


def test_a_formula_rule_in_a_caption_row_does_not_end_the_caption(tmp_path):
    for name, formula in (("root", ROOT), ("frac", FRAC), ("bar", BAR)):
        for shift in (0, 3):
            got = _caption(tmp_path / f"{name}{shift}", _paper(_text(formula, shift)))
            assert got.startswith("Short words " * shift + "The shaded band") and got.endswith(END), (name, shift, got)
            assert "More text after" not in got


def test_a_rule_under_a_caption_ending_in_a_formula_still_ends_it(tmp_path):
    # a table whose top rule spans its cells' text and padding, then a rule across the float
    # over a note set at the caption's size: neither is read into the caption
    cap = ("The shaded band marks the spread of the ensemble around its mean for each month of "
           f"the record, scaled with the speed {ROOT} and the mean {BAR} of the runs. {END}")
    table = ("\\begin{tabular}{lll}\\hline\nModel & Accuracy & Train time\\\\\\hline\n"
             "First model here & 0.965 & 35 hours\\\\\\hline\\end{tabular}\n")
    got = _caption(tmp_path / "table", _paper(cap, table))
    assert got.startswith("The shaded band") and got.endswith(END) and "Accuracy" not in got
    note = "\\par\\vspace{2pt}\\hrule\\vspace{2pt}A note on the runs under the rule set in the float.\n"
    got = _caption(tmp_path / "note", _paper(cap, note))
    assert got.startswith("The shaded band") and got.endswith(END) and "note on the runs" not in got


# PLOS's layout: a wide left margin, the running head offset into it, its logo here a framed
# box taller than \headheight, so that the head's rule is drawn across the top float's caption
HEAD = ("\\usepackage[top=0.85in,left=2.75in]{geometry}\n\\usepackage{fancyhdr}\n\\pagestyle{fancy}\\fancyhf{}\n"
        "\\setlength{\\headheight}{27pt}\\fancyheadoffset[L]{2.25in}\n\\lhead{\\framebox[2in]{\\rule{0pt}{%.1fpt}logo}}\n")
BAND = "The shaded band marks the spread of the ensemble around its mean for each month of the record. "


def _headed(logo: float, under: str = "") -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n" + HEAD % logo + "\\begin{document}\n"
            + "Some text before the figure. " * 40 + "See Figure~\\ref{fig:a}.\n"
            + "\\begin{figure}[t]\\centering\\includegraphics[width=0.4\\textwidth]{p.png}\n"
            + f"\\caption{{{BAND * 4}{END}}}\\label{{fig:a}}\n{under}\\end{{figure}}\n" + AFTER * 60 + "\n\\end{document}\n")


def _rule_between_rows(pdf: str) -> bool:
    """The page's widest rule lies in the white between two of the caption's rows."""
    import pymupdf

    page = pymupdf.open(pdf)[0]
    rule = max((d["rect"] for d in page.get_drawings()), key=lambda r: r.width)
    rows = [b[:4] for b in page.get_text("blocks") if "shaded band" in b[4] or END in b[4]]
    lines = [l["bbox"] for b in page.get_text("dict")["blocks"] for l in b.get("lines", [])
             if rows and rows[0][1] - 1 <= l["bbox"][1] <= rows[-1][3]]
    return any(a[3] + 0.5 < rule.y0 and rule.y1 < b[1] for a, b in zip(lines, lines[1:]))


def test_a_running_heads_rule_across_a_caption_does_not_end_it(tmp_path):
    # the head's rule between the caption's second and third rows, then its third and fourth
    from figlint.ingest.pdf import read_pdf
    from fixtures.pdf_build import compile_tex

    for name, logo in (("two", 166.6), ("three", 178.6)):
        (tmp_path / name).mkdir()
        pdf = compile_tex(tmp_path / name, _headed(logo), IMAGES)
        assert _rule_between_rows(pdf), "the head's rule no longer falls between two caption rows"
        (fig,) = [f for f in read_pdf(pdf).figures if f.number == "1"]
        got = fig.caption.text
        assert got.startswith("The shaded band") and got.count("The shaded band") == 4 and got.endswith(END), (name, got)
        assert "More text after" not in got


def test_a_rule_in_the_float_reaching_into_the_margins_still_ends_the_caption(tmp_path):
    # a rule across the float wider than the text block, over a note at the caption's size, and
    # a table wider than the text block centred under the caption: neither is read into it
    note = ("\\par\\vspace{2pt}\\noindent\\makebox[\\linewidth][c]{\\rule{1.6\\linewidth}{0.4pt}}\\par\\vspace{2pt}"
            "\\noindent A note on the runs under the rule set in the float.\n")
    got = _caption(tmp_path / "note", _headed(10.0, note))
    assert got.startswith("The shaded band") and got.endswith(END) and "note on the runs" not in got
    table = ("\\par\\vspace{4pt}\\makebox[\\linewidth][c]{\\begin{tabular}{p{5cm}p{5cm}p{5cm}}\\hline\n"
             "Model & Accuracy & Train time\\\\\\hline\nFirst model here & 0.965 & 35 hours\\\\\\hline\\end{tabular}}\n")
    got = _caption(tmp_path / "table", _headed(10.0, table))
    assert got.startswith("The shaded band") and got.endswith(END) and "Accuracy" not in got and "hours" not in got
