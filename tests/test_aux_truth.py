"""The binding benchmark's truth (benchmarks/aux_truth.py) on small papers compiled with pdflatex.

Each case is a convention that once made the truth, not figlint, wrong on a field paper:
- memoir writes a label's value as `\\M@TitleReference {number}{title}`: the figure labels were
  not recognised, so a thesis citing its figures with \\ref had no citing site at all;
- a range of two references ("Figs.~\\ref{a}--\\ref{d}", printed "Figs. 1-4") cites every
  figure between its ends, as a typed range does;
- the side run for classes that write no list of figures recorded a caption that begins with
  `\\label{..}` (iopart's habit) as the label's expanded internals, read back as the page number;
- a formula in a caption printed Greek letters, operator names (exp, log) and calligraphic letters
  that the truth's plain text dropped, so a caption read exactly as printed scored below the bar;
- autonum's patched \\cref records itself in the list of figures as
  `\\autonum@processReference {..}{..}{label}`, which the truth kept instead of the number printed;
- a float holding only sub-captions takes a figure number (the next captioned figure skips it)
  but prints no "Figure N": a report of that number, as LaTeX counts, was scored as an extra;
- an appendix that restarts the figure counter ("A 1") restarts hyperref's anchors too: every
  "figure.1" after the first is a duplicate hyperref ignores, and the truth placed the appendix
  figures on the page of the paper's Figure 1;
- a wrapped figure pushed off its page lost its caption in print (and another the rows after those
  its page could hold): the truth kept the whole caption LaTeX set, and scored figlint's reading of
  the printed page as wrong;
- a side run that stopped on a fatal error (a fragile caption command only its hook's write
  expands) recorded the figures before it only: an astronomy paper's twelve later figures were
  scored as figlint's extras;
- a command with an optional argument that is not robust writes `\\let \\reserved@d =` into a
  caption's record and the rest of the caption is lost: the cut record was scored as the caption;
- "Figure 1 and Section 2.1 of \\citet{x}" and apacite's `\\cite<see fig.~1 of>[]{x}` name the cited
  work's figure, yet were counted as sites of the paper's own Figure 1;
- AASTeX's `\\explain{..}` prints nothing unless the class option trackchanges is on, and
  `\\replaced{old}{new}` only its new text: mentions in what does not print were counted as sites
  (and a source caption read both texts);
- PLOS's supporting figures carry their label as a `\\paragraph*{S1 Fig.}` heading, no \\caption:
  LaTeX records no such figure, and figlint's reports of them were scored as extras;
- a supplement's float type of its own (`\\DeclareCaptionType{sfigure}[Fig]`, "Fig S1") lists its
  entries in a list of its own, which the truth did not read: ten printed figures were extras;
- Quarto names its supplementary and appendix float types "Figure S" and "Figure A" (float's
  \\floatname), prints "Figure S1" and records the counter alone: the truth counted none of them;
- one named "Supplementary Figure" (newfloat) prints plain numbers, "Supplementary Figure 1": the
  truth took its figures for second parts of the main Figures 1-4 (a neuroscience manuscript).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.pdf_build import compile_tex

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))

import aux_truth as at  # noqa: E402
import binding_aux as ba  # noqa: E402

IMAGES = {"p.png": ((300, 200), (90, 140, 200))}


def _figs(n: int, caption_first: str = "") -> str:
    return "".join("\\begin{figure}[p]\\centering\\includegraphics[width=0.3\\textwidth]{p.png}"
                   f"\\caption{{{caption_first.format(k=k)}Panel set number {k} of the study.}}"
                   + ("" if caption_first else f"\\label{{fig:{k}}}") + "\\end{figure}\n" for k in range(1, n + 1))


def _truth(folder: Path, tex: str, aux: Path | None = None):
    folder.mkdir()
    pdf = Path(compile_tex(folder, tex, IMAGES))
    return at.truth(folder / "main.tex", pdf, folder, aux)


def test_memoir_title_references_are_figure_labels(tmp_path, pdflatex):
    tex = ("\\documentclass{memoir}\n\\usepackage{graphicx}\n\\usepackage{hyperref}\n\\begin{document}\n"
           "\\chapter{Data}\nCounts are shown in Figure~\\ref{fig:1}, and the trend in Figure~\\ref{fig:2}.\n\n"
           + _figs(2) + "\\end{document}\n")
    aux, src = _truth(tmp_path / "a", tex)
    assert "M@TitleReference" in (tmp_path / "a" / "main.aux").read_text()  # the convention is exercised
    assert [f.number for f in aux.figures] == ["1.1", "1.2"]
    assert sorted(s.figure for s in src.sites) == ["1.1", "1.2"]


def test_a_range_of_two_references_cites_the_figures_between(tmp_path, pdflatex):
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
           "All sets are alike (Figs.~\\ref{fig:1}--\\ref{fig:4}). The last two differ in scale, "
           "see Figure~\\ref{fig:5} to Figure~\\ref{fig:6}. Figures~\\ref{fig:2} and~\\ref{fig:5} agree.\n\n"
           + _figs(6) + "\\end{document}\n")
    _aux, src = _truth(tmp_path / "a", tex)
    by_line = sorted((s.figure, s.start) for s in src.sites)
    figs = [f for f, _s in by_line]
    # 1-4 from the range (2 and 3 between its ends), 5 and 6 from the second; "2 and 5" is no range
    assert figs == ["1", "2", "2", "3", "4", "5", "5", "6"]
    first = min(s.start for s in src.sites)
    assert {s.figure for s in src.sites if s.start == first} == {"1", "2", "3"}


def test_side_run_keeps_a_caption_that_begins_with_a_label(tmp_path, pdflatex):
    # a class whose \@caption writes no list-of-figures entry (iopart's, here in the preamble)
    pre = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\makeatletter\n"
           "\\long\\def\\@caption#1[#2]#3{\\par\\begingroup\\@parboxrestore\\normalsize"
           "\\@makecaption{\\csname fnum@#1\\endcsname}{\\ignorespaces #3}\\par\\endgroup}\n\\makeatother\n")
    tex = pre + "\\begin{document}\nAs Figure~\\ref{fig:1} shows.\n\n" + _figs(2, "\\label{{fig:{k}}} ") \
        + "\\end{document}\n"
    folder = tmp_path / "a"
    folder.mkdir()
    compile_tex(folder, tex, IMAGES)
    assert not at.has_lof(folder / "main.aux")
    subprocess.run(["pdflatex", "-interaction=batchmode", "-jobname=side", ba.HOOK + "\\input{main.tex}"],
                   cwd=folder, capture_output=True, timeout=180)
    aux, src = at.truth(folder / "main.tex", folder / "main.pdf", folder, folder / "side.aux")
    assert [f.number for f in aux.figures] == ["1", "2"]
    assert [f.caption for f in aux.figures] == [f"Panel set number {k} of the study." for k in (1, 2)]
    assert [f.caption_from for f in aux.figures] == ["lof", "lof"]
    assert [s.figure for s in src.sites] == ["1"]


def test_a_caption_record_of_expanded_internals_is_not_the_caption():
    assert at._junk("\\relax \\@savsk \\lastskip \\@savsf \\spacefactor \\begingroup \\let 4\\relax")
    assert not at._junk("Spectra of the deposited energy at $\\theta$ = 32")


def test_a_glyph_chosen_by_its_code_prints_no_number():
    # a caption ending in a linked icon (\char 90 of a symbol font), as a thesis's list of figures holds it
    rec = "Measured in the chamber. \\href {http://x}{\\fontfamily {mvs}\\selectfont \\char 90}"
    assert at.tex_plain(rec) == "Measured in the chamber."


def test_a_table_cell_s_context_ends_at_the_cell():
    src = ("\\begin{tabular}{ll} Weighting & A factor or more (Fig.~\\ref{fig:a}) \\\\ Quality control & min "
           "\\end{tabular} and the text (Fig.~\\ref{fig:a}) goes on here")
    k = src.find("Fig.")
    assert at.context_words(src, k, src.find(")", k) + 1, at.Context()) == (["factor", "or", "more"], [])
    k = src.rfind("Fig.")
    assert at.context_words(src, k, src.find(")", k) + 1, at.Context())[1] == ["goes", "on", "here"]


def test_the_words_after_a_display_do_not_include_its_environment_name():
    src = "measures,\n\\begin{align}\n x &= y\n\\end{align}\nand plot $z$ in Figure~\\ref{fig:a}. As before, the end"
    k = src.find("Figure")
    assert at.context_words(src, k, src.find(".", k), at.Context()) == (["and", "plot", "in"], ["as", "before", "the"])


def test_panel_letters_glued_to_a_reference_are_the_mention_s_own():
    """'\\ref{fig:a}b-c' prints '4b-c' and '\\ref{fig:a}AB' prints '1AB': one printed token with
    the number, so the letters are no context word of the mention (a table cell citing panels
    had the suffix 'ab' as its only word, which no printed word can match)."""
    for glued, after in (("b-c", ["shows", "the", "rise"]), ("AB", ["shows", "the", "rise"]),
                         ("A,B", ["shows", "the", "rise"]), ("", ["shows", "the", "rise"])):
        src = f"As plotted, Figure~\\ref{{fig:a}}{glued} shows the rise of the counts."
        k = src.find("Figure")
        end = src.find("}", k) + 1
        assert at.context_words(src, k, end, at.Context())[1] == after, glued
    src = "the cells \\begin{tabular}{ll} dose & Figure~\\ref{fig:a}CD \\\\ \\end{tabular}"
    k = src.find("Figure")
    assert at.context_words(src, k, src.find("}", k) + 1, at.Context())[1] == []


def test_a_site_file_is_read_relative_to_the_run_that_wrote_it(tmp_path):
    """figlint writes a site's file relative to the folder it ran in: a run from another
    checkout (a worktree one level deeper) names the same file with one more '..', and the
    scorer must still find it under the paper's root."""
    root = tmp_path / "build" / "paper"
    (root / "sections").mkdir(parents=True)
    p = ba.Paper(name="p", repo="o/p", commit="c", main_rel="main.tex", template="", root=root,
                 main=root / "main.tex", pdf=root / "main.pdf")
    for depth in ("../..", "../../.."):
        run_main = f"{depth}/build/paper/main.tex"
        assert ba._rel(p, f"{depth}/build/paper/sections/intro.tex", run_main) == "sections/intro.tex"
    assert ba._rel(p, str(root / "sections" / "intro.tex")) == "sections/intro.tex"


def _page_words(pdf: Path) -> list[str]:
    import pymupdf
    with pymupdf.open(str(pdf)) as doc:
        return at.words(" ".join(page.get_text() for page in doc))


def test_a_caption_formula_reads_as_printed(tmp_path, pdflatex):
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{amsmath,amssymb}\n\\begin{document}\n"
           "\\begin{figure}[p]\\centering\\includegraphics[width=0.3\\textwidth]{p.png}"
           "\\caption{Exponential map $\\exp_p : T_p(\\mathcal{M}) \\to \\mathcal{M}$ and logarithmic map "
           "$\\log_p$; the error $\\|\\theta^\\varepsilon - \\theta\\|_{L^2(\\Omega)}$ of $\\alpha\\beta$.}"
           "\\label{fig:1}\\end{figure}\n\\end{document}\n")
    aux, _src = _truth(tmp_path / "a", tex)
    cap = aux.figures[0].caption
    for printed in ("exp", "log", "\u03b8", "\u03b5", "\u03a9", "\u03b1\u03b2"):
        assert printed in cap, printed
    assert "M" in cap.replace("Map", "")
    # every word of the truth's caption stands on the printed page (PDF text, as a reader copies it)
    page = set(_page_words(tmp_path / "a" / "main.pdf"))
    assert [w for w in at.words(cap) if w not in page] == []


def test_a_linear_formula_rendering_matches_the_printed_one():
    """A caption text that writes indices and exponents as T_p / L^2 (a linear rendering) is the
    same caption as the page's Tp / L2."""
    truth = at.tex_plain("Error $\\|\\theta^\\varepsilon - \\theta\\|_{L^2(\\Omega)}$")
    assert at.similarity("Error ||\u03b8^\u03b5 - \u03b8||_L^2(\u03a9)", truth) >= 0.95
    assert at.similarity("Error ||\u03b8\u03b5\u2212\u03b8||L2(\u03a9)", truth) >= 0.95
    assert at._glue_scripts("file my_name and a _ b") == "file myname and a _ b"


def test_an_autonum_reference_in_a_caption_prints_its_number(tmp_path, pdflatex):
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{amsmath}\n\\usepackage{hyperref}\n"
           "\\usepackage{cleveref}\n\\usepackage{autonum}\n\\begin{document}\n"
           "See \\cref{fig:1} and \\cref{fig:2}.\n\n" + _figs(1)
           + "\\begin{figure}[p]\\centering\\includegraphics[width=0.3\\textwidth]{p.png}"
           "\\caption{The same sets as in \\cref{fig:1} and \\ref{fig:1}, rescaled.}\\label{fig:2}\\end{figure}\n"
           "\\end{document}\n")
    aux, _src = _truth(tmp_path / "a", tex)
    assert "autonum@processReference" in (tmp_path / "a" / "main.aux").read_text()  # the convention is exercised
    cap = aux.figures[1].caption
    assert "autonum" not in cap and "forcsvlist" not in cap
    assert cap.replace(" ", "") in ("Thesamesetsasinfig.1and1,rescaled.", "Thesamesetsasinfigure1and1,rescaled.")


def test_a_float_of_sub_captions_only_takes_a_number_printed_nowhere(tmp_path, pdflatex):
    sub = ("\\begin{figure}[p]" + "".join(
        f"\\begin{{subfigure}}{{0.3\\textwidth}}\\includegraphics[width=\\linewidth]{{p.png}}"
        f"\\caption{{Panel {k}}}\\end{{subfigure}}" for k in (1, 2)) + "\\end{figure}\n")
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{subcaption}\n\\begin{document}\n"
           "Figure~\\ref{fig:1} and Figure~\\ref{fig:2}.\n\n" + _figs(1) + sub + sub
           + _figs(1).replace("fig:1", "fig:2").replace("number 1", "number 2") + "\\end{document}\n")
    aux, src = _truth(tmp_path / "a", tex)
    assert [f.number for f in aux.figures] == ["1", "4"]  # the two floats took 2 and 3
    assert src.unprinted == ["2", "3"]
    assert "Figure 2" not in " ".join(_page_words(tmp_path / "a" / "main.pdf"))
    # a report of those numbers (as LaTeX counts) is no extra; a number LaTeX never gave is
    p = ba.Paper(name="p", repo="o/p", commit="c", main_rel="main.tex", template="", root=tmp_path / "a",
                 main=tmp_path / "a" / "main.tex", pdf=tmp_path / "a" / "main.pdf")
    rec = {"figures": [{"number": n, "page": aux.figures[0].pdf_page if n == "1" else
                        (aux.figures[1].pdf_page if n == "4" else None), "caption": {"text": ""}}
                       for n in ("1", "2", "3", "4", "5")]}
    s = ba.score_route(p, "pdf", rec, aux, src)
    assert (s.figures, s.found, s.predicted, s.correct) == (2, 2, 3, 2)


def test_an_anchor_two_floats_share_gives_neither_its_page(tmp_path, pdflatex):
    one = ("\\begin{figure}[p]\\centering\\includegraphics[width=0.3\\textwidth]{p.png}"
           "\\caption{Panel set %s of the study.}\\end{figure}\n")
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{hyperref}\n\\begin{document}\n"
           "Text.\n\n" + one % "one" + "\\clearpage\n\\appendix\n"
           "\\renewcommand{\\thefigure}{\\thesection\\,\\arabic{figure}}\n"
           + "".join("\\section{More}\\setcounter{figure}{0}\nText.\n\n" + one % w + "\\clearpage\n"
                     for w in ("two", "three"))
           + "\\end{document}\n")
    aux, _src = _truth(tmp_path / "a", tex)
    assert [f.anchor for f in aux.figures] == ["figure.1"] * 3  # the convention is exercised
    assert [(f.number, f.pdf_page) for f in aux.figures] == [("1", 2), ("A1", 4), ("B1", 6)]


def test_a_caption_the_pdf_does_not_hold_is_scored_as_printed(tmp_path):
    import pymupdf

    def caption(k: int) -> str:
        name = ("alpha", "beta", "gamma")[k - 1]
        return (f"Validation and test losses of run {name} during the optimisation of every weight decay, "
                f"with one hyperparameter for each weight of the model and the losses of the {name} baseline.")

    doc = pymupdf.open()
    page = doc.new_page()
    # Figure 1's caption printed whole, Figure 2's first row only, Figure 3's not at all
    page.insert_text((72, 100), "Figure 1: " + caption(1)[:70], fontsize=8)
    page.insert_text((72, 112), caption(1)[70:], fontsize=8)
    page.insert_text((72, 200), "Figure 2: " + caption(2)[:60], fontsize=8)
    doc.new_page()
    doc.save(tmp_path / "p.pdf")
    # Figure 3 belongs on page 2, which prints nothing of it
    figs = [at.AuxFigure(number=str(k), folio="1", anchor=None, caption_tex=caption(k), caption=caption(k),
                         variants=[caption(k)], pdf_page=1 if k < 3 else 2) for k in (1, 2, 3)]
    at.clip_unprinted(figs, tmp_path / "p.pdf")
    one, two, three = figs
    assert one.variants == [caption(1)]  # printed whole: nothing added
    assert two.variants[0] == caption(2) and len(two.variants) == 2
    assert caption(2).startswith(two.variants[1]) and 40 <= len(two.variants[1]) <= 60
    assert three.variants == [caption(3), ""]  # printed nowhere: no caption is right too


@pytest.mark.parametrize("hyperref", [True, False])
def test_a_side_run_that_stops_keeps_the_figures_the_build_labelled(tmp_path, pdflatex, hyperref):
    # a class that writes no list of figures (ICML's way), and a caption command that only an expanding write
    # sends into a loop (AASTeX's \replaced does so in the side run): the side run stops at its
    # page, and the figures after it are known only to the build's own .aux (by their hyperref
    # anchors; without hyperref, by their labels' place inside a figure environment)
    pre = ("\\documentclass{article}\n\\usepackage{graphicx}\n"
           + ("\\usepackage{hyperref}\n" if hyperref else "") + "\\makeatletter\n"
           "\\let\\addcontentsline\\@gobblethree\n"
           "\\def\\onlyprinted{\\ifx\\protect\\@typeset@protect two\\else\\onlyprinted\\fi}\n\\makeatother\n")
    figs = _figs(3).replace("{p.png}\\caption{Panel set number 2", "{p.png}\\caption{Panel set \\onlyprinted{} 2")
    figs = figs.replace("[p]", "[h]", 1).replace("\\end{figure}\n", "\\end{figure}\n\\clearpage\n", 1)
    tex = pre + "\\begin{document}\nAs Figure~\\ref{fig:1} shows.\n\n" + figs + \
        "Figures~\\ref{fig:2} and~\\ref{fig:3} agree.\n\\end{document}\n"
    folder = tmp_path / "a"
    folder.mkdir()
    compile_tex(folder, tex, IMAGES)
    assert not at.has_lof(folder / "main.aux")
    (folder / "side.aux").write_text((folder / "main.aux").read_text())  # as side_aux() does
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-jobname=side", ba.HOOK + "\\input{main.tex}"],
                   cwd=folder, capture_output=True, timeout=180, stdin=subprocess.DEVNULL)
    assert [f.number for f in at.read_aux(folder / "side.aux").figures] == ["1"]  # it stopped
    aux, src = at.truth(folder / "main.tex", folder / "main.pdf", folder, folder / "side.aux")
    assert [f.number for f in aux.figures] == ["1", "2", "3"]
    assert [f.caption_from for f in aux.figures] == ["lof", "source", "source"]
    assert aux.figures[2].caption == "Panel set number 3 of the study."
    assert sorted(s.figure for s in src.sites) == ["1", "2", "3"]
    # the build's own record alone (no side run) is unchanged: its labelled figures, no captions read
    own, _src = at.truth(folder / "main.tex", folder / "main.pdf", folder)
    assert [f.number for f in own.figures] == (["1", "2", "3"] if hyperref else [])


def test_labelled_figures_with_appendix_numbers_sort_after_the_listed_ones():
    # labelled figures with no entry (a stopped side run's) are sorted by number before the
    # source's captions are paired with them: "A1" and "10" once compared a letter with an int
    figs = [at.AuxFigure(number=n, folio="1", anchor=None, caption_tex=c)
            for n, c in (("1", "One."), ("A1", None), ("10", None), ("2", "Two."))]
    aux = at.AuxRecord(figs, {}, {}, [], [])
    printed = "".join(f"\\begin{{figure}}\\caption{{C{k}}}\\end{{figure}}" for k in range(4))
    assert at._unprinted_numbers(printed, at._figure_envs(printed), aux) == []
    assert [f.number for f in figs] == ["1", "A1", "10", "2"]  # the record itself keeps its order


def test_a_caption_cut_by_an_optional_argument_command_is_read_from_the_source(tmp_path, pdflatex):
    # a command with an optional argument that is not robust (AASTeX's \replaced) writes
    # "\let \reserved@d =[..." in the side run's record and the caption's rest is lost there
    pre = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\makeatletter\n\\let\\addcontentsline\\@gobblethree\n"
           "\\def\\replaced{\\@ifnextchar[{\\xreplaced}{\\yreplaced}}\\def\\xreplaced[#1]#2{#2}"
           "\\def\\yreplaced#1{#1}\n\\makeatother\n")
    figs = _figs(2).replace("Panel set number 2 of", "Panel set \\replaced{count} 2 of")
    tex = pre + "\\begin{document}\nAs Figures~\\ref{fig:1} and~\\ref{fig:2} show.\n\n" + figs + "\\end{document}\n"
    folder = tmp_path / "a"
    folder.mkdir()
    compile_tex(folder, tex, IMAGES)
    (folder / "side.aux").write_text((folder / "main.aux").read_text())
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "-jobname=side", ba.HOOK + "\\input{main.tex}"],
                   cwd=folder, capture_output=True, timeout=180, stdin=subprocess.DEVNULL)
    assert "\\reserved@d" in (folder / "side.aux").read_text()  # the convention is exercised
    aux, _src = at.truth(folder / "main.tex", folder / "main.pdf", folder, folder / "side.aux")
    assert [f.caption_from for f in aux.figures] == ["lof", "source"]  # the first, intact, kept
    assert [f.caption for f in aux.figures] == ["Panel set number 1 of the study.", "Panel set count 2 of the study."]


def test_a_typed_figure_of_a_cited_work_is_no_site(tmp_path):
    # "Figure 1 and Section 2.1 of \citet{x}" and apacite's prenote "\cite<see fig.~1 of>[]{x}"
    # name the cited work's figure; "Figure 2 shows" and "Figure~1 and Table~2 show" are this paper's
    tex = ("\\documentclass{article}\n\\begin{document}\n"
           "Masses are presented in Figure~1 and Section~2.1 of \\citet{negin}.\n"
           "The framework \\cite<see fig.~1 of>[]{moss} is principled.\n"
           "Figure~2 shows the noise, and Figure~1 and Table~2 show the fit.\n\\end{document}\n")
    (tmp_path / "main.tex").write_text(tex)
    figs = [at.AuxFigure(number=n, folio="1", anchor=None, caption_tex="C.") for n in ("1", "2")]
    src = at.scan_sources(tmp_path / "main.tex", at.AuxRecord(figs, {}, {}, [], []), tmp_path)
    assert sorted((s.figure, s.line) for s in src.sites) == [("1", 5), ("2", 5)]


@pytest.mark.parametrize("option, sites", [("twocolumn", [("1", 4)]),
                                            ("twocolumn,trackchanges", [("1", 3), ("1", 4), ("1", 5)])])
def test_aastex_explanations_print_only_when_changes_are_tracked(tmp_path, option, sites):
    # AASTeX's \explain{..} (a note to the referee) prints nothing without the trackchanges option,
    # and \replaced{old}{new} prints only the new text
    tex = (f"\\documentclass[{option}]{{aastex63}}\n\\begin{{document}}\n"
           "\\explain{Figure~\\ref{fig:1} has been updated.}\n"
           "Figure~\\ref{fig:1} shows the rotation periods.\n"
           "\\replaced{As Figure~\\ref{fig:1} showed}{As shown}, they are short.\n\\end{document}\n")
    (tmp_path / "main.tex").write_text(tex)
    figs = [at.AuxFigure(number="1", folio="1", anchor="figure.1", caption_tex="C.")]
    aux = at.AuxRecord(figs, {"fig:1": ("1", "1", "figure.1", "figure")}, {}, [], [])
    src = at.scan_sources(tmp_path / "main.tex", aux, tmp_path)
    assert sorted((s.figure, s.line) for s in src.sites) == sites


def test_a_plos_supporting_figure_typed_as_a_paragraph_heading_is_a_figure(tmp_path, pdflatex):
    # PLOS's template: a supporting figure's label is a \paragraph* heading, no \caption; one
    # outside any figure environment (a legend for a figure uploaded apart) is no figure here
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
           "See Figure~\\ref{fig:1}.\n\n" + _figs(1) + "\\clearpage\n\\section*{Supporting information}\n"
           "\\begin{figure}[!ht]\n\\includegraphics[width=0.3\\textwidth]{p.png}\n\\paragraph*{S1 Fig.}\n"
           "\\textbf{Size factors in a trivial design.} Each line is a median.\n\\end{figure}\n\n"
           "\\paragraph*{S2 Fig.}\n\\textbf{Motif plots for all peaks.} Uploaded apart.\n\\end{document}\n")
    aux, _src = _truth(tmp_path / "a", tex)
    assert [f.number for f in aux.figures] == ["1", "S1"]
    s1 = aux.figures[1]
    assert (s1.caption, s1.caption_from, s1.pdf_page) == \
        ("Size factors in a trivial design. Each line is a median.", "source", 3)  # after Figure 1's float page
    assert "S1 Fig" in " ".join(_page_words_of(tmp_path / "a" / "main.pdf", 3))


def _page_words_of(pdf: Path, page: int) -> list[str]:
    import pymupdf
    with pymupdf.open(str(pdf)) as doc:
        return doc[page - 1].get_text().split()


def test_a_supplement_figure_type_of_its_own_is_figures(tmp_path, pdflatex):
    # \DeclareCaptionType{sfigure}[Fig] (caption package): "Fig S1." floats listed in a list of
    # their own (\@writefile{losfigure}); a subfig sub-figure's entry is still no figure
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{caption}\n\\usepackage{subfig}\n"
           "\\DeclareCaptionType{sfigure}[Fig]\n\\renewcommand{\\thesfigure}{S\\arabic{sfigure}}\n\\usepackage{hyperref}\n"
           "\\begin{document}\nSee Figure~\\ref{fig:1} and Fig~\\ref{sfig:1}.\n\n" + _figs(1)
           + "\\begin{figure}[p]\\subfloat[Left]{\\includegraphics[width=0.2\\textwidth]{p.png}}"
           "\\caption{Two panels of the study.}\\end{figure}\n"
           "\\begin{sfigure}[p]\\centering\\includegraphics[width=0.3\\textwidth]{p.png}"
           "\\caption{All times of the supplement.}\\label{sfig:1}\\end{sfigure}\n\\end{document}\n")
    aux, src = _truth(tmp_path / "a", tex)
    assert "\\@writefile{losfigure}" in (tmp_path / "a" / "main.aux").read_text()  # the convention is exercised
    assert [f.number for f in aux.figures] == ["1", "2", "S1"]
    assert aux.figures[2].caption == "All times of the supplement."
    assert sorted(s.figure for s in src.sites) == ["1", "S1"]


def test_a_float_type_named_as_a_series_figure_is_that_series(tmp_path, pdflatex):
    # Quarto's supplementary figures: float's \newfloat{suppfig} named "Figure S", the counter
    # glued to the name by the label format, so the PDF prints "Figure S1" while LaTeX's record
    # holds "1" in a list of its own (\@writefile{losuppfig}); \ref prints the counter too. A
    # float type named otherwise (a listing) stays no figure.
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{float}\n\\usepackage{caption}\n"
           "\\newfloat{suppfig}{h}{losuppfig}\n\\floatname{suppfig}{Figure S}\n"
           "\\DeclareCaptionLabelFormat{glued}{#1#2}\n\\captionsetup[suppfig]{labelformat=glued}\n"
           "\\newfloat{codelisting}{h}{lop}\n\\floatname{codelisting}{Listing}\n\\usepackage{hyperref}\n"
           "\\begin{document}\nSee Figure~\\ref{fig:1} and Figure S\\ref{sfig:1}.\n\n" + _figs(1)
           + "\\begin{suppfig}\\centering\\includegraphics[width=0.3\\textwidth]{p.png}"
           "\\caption{All times of the supplement.}\\label{sfig:1}\\end{suppfig}\n"
           "\\begin{codelisting}\\caption{A listing of the code.}\\end{codelisting}\n\\end{document}\n")
    aux, src = _truth(tmp_path / "a", tex)
    assert "\\@writefile{losuppfig}" in (tmp_path / "a" / "main.aux").read_text()  # the convention is exercised
    assert sorted(f.number for f in aux.figures) == ["1", "S1"]
    assert next(f for f in aux.figures if f.number == "S1").caption == "All times of the supplement."
    assert sorted(s.figure for s in src.sites) == ["1", "S1"]
    assert at.declared_figure_types("\\floatname{sfig}{Figure A}\\floatname{x}{Listing}") == {"sfig": "A"}


@pytest.mark.parametrize("hyperref", [False, True])
def test_a_figure_type_named_supplementary_is_a_series_of_its_own(tmp_path, pdflatex, hyperref):
    # newfloat's \DeclareFloatingEnvironment[name={Supplementary Figure}]{suppfigure}, written to
    # the list of figures with the main ones and counted from 1: "Supplementary Figure 1" is S1
    tex = ("\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{newfloat}\n"
           "\\DeclareFloatingEnvironment[name={Supplementary Figure},fileext=lof]{suppfigure}\n"
           + ("\\usepackage{hyperref}\n" if hyperref else "")
           + "\\begin{document}\nSee Figure~\\ref{fig:1} and Supp. Fig.~\\ref{sfig:1}.\n\n" + _figs(2)
           + "\\begin{suppfigure}[p]\\centering\\includegraphics[width=0.3\\textwidth]{p.png}"
           "\\caption{All times of the supplement.}\\label{sfig:1}\\end{suppfigure}\n\\end{document}\n")
    aux, src = _truth(tmp_path / "a", tex)
    assert [f.number for f in aux.figures] == ["1", "2", "S1"]
    assert aux.figures[2].caption == "All times of the supplement."
    # with hyperref the label's anchor (suppfigure.1) tells its series; without, no place does
    assert sorted(s.figure for s in src.sites) == (["1", "S1"] if hyperref else ["1"])
