"""The body text size is the text's, whatever the figures hold (field audit: a statistics
supplement of many plots and little prose had its body read at 4.5 pt, the plots' label size,
so its citing sentences were cut at their first line and its text block measured too narrow).

A generated paper: one short paragraph citing each figure and three plots whose labels (6 pt,
many of them) outnumber the paragraph's characters, compiled with pdflatex.
"""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from fixtures.latex_paper import compile_pdf  # noqa: E402


def _plot(path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"font.size": 6}):
        fig, ax = plt.subplots(figsize=(4.5, 3))
        for k in range(12):
            ax.plot([0, 1, 2, 3], [k, k + 1, k, k + 2], label=f"series number {k} of the run")
        ax.set_xticks([i / 4 for i in range(13)])
        ax.set_yticks(range(15))
        ax.legend(ncol=2)
        ax.set_xlabel("normalised time of the measurement window")
        ax.set_ylabel("signal amplitude in arbitrary units")
        fig.savefig(path)
        plt.close(fig)


def test_the_body_size_is_the_texts_in_a_paper_of_many_labelled_plots(tmp_path, pdflatex):
    from figlint.ingest import load

    for k in (1, 2, 3):
        _plot(tmp_path / f"p{k}.pdf")
    figs = "".join(f"\\begin{{figure}}[p]\\centering\\includegraphics[width=\\textwidth]{{p{k}.pdf}}"
                   f"\\caption{{Signal of run {k}.}}\\label{{f{k}}}\\end{{figure}}\n" for k in (1, 2, 3))
    (tmp_path / "main.tex").write_text(
        "\\documentclass[11pt]{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "Figure~\\ref{f1} shows the first run of the campaign over its whole window, and Figures~\\ref{f2} "
        "and~\\ref{f3} show the second and third runs over the same window.\n\n" + figs + "\\end{document}\n")
    pdf = compile_pdf(tmp_path / "main.tex")
    import pymupdf

    with pymupdf.open(pdf) as doc:  # the fixture does what it is for: labels outnumber the text
        chars = {}
        for page in doc:
            for b in page.get_text("dict")["blocks"]:
                for ln in b.get("lines", []):
                    for s in ln["spans"]:
                        chars[round(s["size"])] = chars.get(round(s["size"]), 0) + len(s["text"].strip())
        assert max(v for k, v in chars.items() if k != 11) > chars.get(11, 0)
    paper = load(str(pdf))
    assert paper.body_font_size == pytest.approx(11.0, abs=0.6)
    one = next(f for f in paper.figures if f.number == "1")
    assert any("whole window" in s.sentence for s in one.sites)
