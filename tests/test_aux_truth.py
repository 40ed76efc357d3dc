"""The binding benchmark's truth (benchmarks/aux_truth.py) on small papers compiled with pdflatex.

Each case is a convention that once made the truth, not figlint, wrong on a field paper:
- memoir writes a label's value as `\\M@TitleReference {number}{title}`: the figure labels were
  not recognised, so a thesis citing its figures with \\ref had no citing site at all;
- a range of two references ("Figs.~\\ref{a}--\\ref{d}", printed "Figs. 1-4") cites every
  figure between its ends, as a typed range does;
- the side run for classes that write no list of figures recorded a caption that begins with
  `\\label{..}` (iopart's habit) as the label's expanded internals, read back as the page number.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
