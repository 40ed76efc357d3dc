"""PDF route: citing sites in two printing conventions of real manuscripts (issue 12, item 4).

* A review copy with line numbers (lineno): in a list item, or in any line set in from the
  column's edge, the line number is read as a piece of its own in small type before the row's
  words. It cut the paragraph at every numbered row, so a mention broken across two rows
  ("(Figures 1" / "and 2)") kept neither the words before it nor its second figure's context;
  and a word hyphenated at a row's end stayed split by the next row's number ("stel- 828 lar").
* The figure's number in parentheses, as `figure (\\ref{x})` prints it: "figure (2)" is a
  mention of Figure 2, in running text and in another figure's caption.

Each case is a small document compiled with pdflatex.
"""

from __future__ import annotations

from figlint.ingest.pdf import read_pdf
from fixtures.pdf_build import compile_main, plot_png


_FILLER = ("The simulated halos were followed over several hundred million years of cosmic time, "
           "and their gas was sampled at every output to measure how much of it had cooled. ")


def _figures(n: int, width: str = "\\columnwidth") -> str:
    return "".join(
        f"\\begin{{figure}}[t]\\centering\\includegraphics[width={width}]{{p{k}.png}}"
        f"\\caption{{Panel set number {k} of the comparison between the two models.}}\\label{{fig:{k}}}\\end{{figure}}\n"
        for k in range(1, n + 1))


def _sites(pdf) -> dict[str, list[str]]:
    paper = read_pdf(str(pdf))
    return {f.number: [s.sentence for s in f.sites] for f in paper.figures if f.number}


def test_line_numbers_in_a_list_do_not_cut_its_sentences(tmp_path, pdflatex):
    """lineno in two columns: the items of a list of findings cite figures at their ends,
    one mention broken across two numbered rows. Each site's sentence is the item's whole
    sentence, without the line numbers, for both figures of the mention."""
    for k in (1, 2, 3):
        plot_png(tmp_path, f"p{k}.png")
    items = (
        "\\item The approximation underestimates the shielding factor at low gas density while "
        "overestimating it at high density. This leads to halos in the simulation with the "
        "approximation model having their molecular fraction several dex lower than their "
        "counterparts in the simulation with ray tracing, especially for lower mass halos. "
        "(Figures~\\ref{fig:1} and~\\ref{fig:2})\n"
        "\\item The approximation also affects star formation in the cosmological simulation, "
        "and lower mass halos are harder to form stars in, as the gas there stays warm and "
        "diffuse for much longer than in the reference run (Figure~\\ref{fig:3}).\n")
    (tmp_path / "main.tex").write_text(
        "\\documentclass[twocolumn]{article}\n\\usepackage{graphicx}\n\\usepackage{lineno}\n\\linenumbers\n"
        # the numbers close to the text, as AASTeX sets them: read inside the column
        "\\setlength{\\linenumbersep}{4pt}\n"
        "\\begin{document}\n" + _figures(3) + _FILLER * 12 + "\n\nIn summary, our key findings are as follows:\n"
        "\\begin{itemize}\n" + items + "\\end{itemize}\n" + _FILLER * 4 + "\n\\end{document}\n")
    compile_main(tmp_path)
    sites = _sites(tmp_path / "main.pdf")
    for num in ("1", "2"):
        listed = [s for s in sites.get(num, []) if "lower mass halos" in s]
        assert listed, (num, sites.get(num))
        assert listed[0].startswith("This leads to halos in the simulation"), listed[0]
        assert listed[0].rstrip().endswith("(Figures 1 and 2)"), listed[0]
    third = [s for s in sites.get("3", []) if "harder to form stars" in s]
    assert third and "The approximation also affects star formation in the cosmological" in third[0], sites.get("3")
    # no line number is read into the text: a word hyphenated at a row's end is whole again
    import re

    for num, sents in sites.items():
        for s in sents:
            assert not re.search(r"[a-z]- ?\d{1,3} [a-z]", s), (num, s)


def test_a_number_in_parentheses_after_the_figure_word_is_a_mention(tmp_path, pdflatex):
    """`figure (\\ref{x})`, no hyperref: "figure (2)" in running text and "Figure (1).a" in
    another figure's caption cite those figures."""
    for k in (1, 2):
        plot_png(tmp_path, f"p{k}.png")
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "\\begin{figure}[t]\\centering\\includegraphics[width=0.6\\textwidth]{p1.png}"
        "\\caption{Growth of the energy norm for the linear run.}\\label{fig:1}\\end{figure}\n"
        "\\begin{figure}[t]\\centering\\includegraphics[width=0.6\\textwidth]{p2.png}"
        "\\caption{Fluxes for the simulation of Figure (\\ref{fig:1}).a with a weak shear.}\\label{fig:2}\\end{figure}\n"
        + _FILLER * 3 + "\n\nThe decaying linear simulation is shown in figure (\\ref{fig:1}), and the same "
        "parameters with nonlinearity switched on give the fluxes of figure (\\ref{fig:2}) over time.\n\n"
        + _FILLER * 3 + "\n\\end{document}\n")
    compile_main(tmp_path)
    sites = _sites(tmp_path / "main.pdf")
    assert any("decaying linear simulation" in s for s in sites.get("1", [])), sites.get("1")
    assert any("Fluxes for the simulation of" in s for s in sites.get("1", [])), sites.get("1")
    assert any("fluxes of figure (2)" in s for s in sites.get("2", [])), sites.get("2")
    # a caption does not cite its own figure
    assert not any("Fluxes for the simulation of" in s for s in sites.get("2", [])), sites.get("2")


def test_a_bare_ref_with_a_panel_letter_without_hyperref(tmp_path, pdflatex):
    """`shown in \\ref{fig:1}c`, no hyperref, no figure word: "shown in 1c" cites Figure 1 (panel
    c), whose graphic prints panels (a)-(c). The same after a figure without such a panel
    ("in 2c": Figure 2 has no panels) is no site."""
    for k in (1, 2):
        plot_png(tmp_path, f"p{k}.png")
    panel = "\\parbox{0.3\\textwidth}{\\centering\\includegraphics[width=0.28\\textwidth]{p1.png}\\\\(%s) run %s}"
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "\\begin{figure}[t]\\centering" + "\\hfill".join(panel % (x, x) for x in "abc")
        + "\\caption{Distribution of the sizes over the separation of the two spacecraft.}\\label{fig:1}\\end{figure}\n"
        "\\begin{figure}[t]\\centering\\includegraphics[width=0.5\\textwidth]{p2.png}"
        "\\caption{Probability of the model given the observed distribution.}\\label{fig:2}\\end{figure}\n"
        + _FILLER * 3 + "\n\nThe curves did not change with the bin width. The number of samples in each "
        "separation bin is shown in \\ref{fig:1}c. The same quantity for the other model is given in "
        "\\ref{fig:2}c of the appendix tables.\n\n" + _FILLER * 3 + "\n\\end{document}\n")
    compile_main(tmp_path)
    sites = _sites(tmp_path / "main.pdf")
    assert any("samples in each separation bin" in s for s in sites.get("1", [])), sites.get("1")
    assert not any("other model" in s for s in sites.get("2", [])), sites.get("2")
