"""The LaTeX route: source discovery, includes, comments, figures, labels and citing sites.

Every fixture is a small .tex tree written to tmp_path by the test itself.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from figlint.errors import InputError
from figlint.ingest.latex import read_latex
from fixtures.tex_tree import write

PRE = "\\documentclass{article}\n\\usepackage{graphicx}\n"


def doc(body: str, pre: str = "") -> str:
    return PRE + pre + "\\begin{document}\n" + body + "\n\\end{document}\n"


def fig(paper, number: str):
    f = paper.figure(number)
    assert f is not None, f"no figure {number}: {[x.number for x in paper.figures]}"
    return f


def codes(paper) -> list[str]:
    return [p.code for p in paper.problems]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


SIMPLE_FIG = "\\begin{figure}\n\\includegraphics{a.png}\n\\caption{Cap %s.}\n\\label{fig:%s}\n\\end{figure}\n"


# ------------------------------------------------------------------ discovery

def test_main_file_and_directory_give_the_same_paper(tmp_path):
    write(tmp_path, {"paper/main.tex": doc(SIMPLE_FIG % ("one", "a") + "See Figure~\\ref{fig:a}."),
                     "paper/a.png": b"x"})
    by_file = read_latex(str(tmp_path / "paper" / "main.tex"))
    by_dir = read_latex(str(tmp_path / "paper"))
    assert by_file.route == by_dir.route == "latex"
    assert by_dir.extra["main_tex"] == "main.tex"
    assert [f.number for f in by_dir.figures] == ["1"]
    assert by_dir.root == str((tmp_path / "paper").resolve()) or Path(by_dir.root) == tmp_path / "paper"
    assert by_dir.figures[0].location.file == "main.tex"


def test_directory_finds_root_in_subfolder(tmp_path):
    write(tmp_path, {"paper/ms.tex": doc(SIMPLE_FIG % ("x", "x")), "paper/sec.tex": "Some text.\n",
                     "README.md": "hi"})
    paper = read_latex(str(tmp_path))
    assert paper.extra["main_tex"] == "paper/ms.tex"
    assert paper.figures[0].location.file == "paper/ms.tex"


def test_magic_root_comment_is_followed(tmp_path):
    write(tmp_path, {"main.tex": doc("\\input{sections/intro}"),
                     "sections/intro.tex": "%!TEX root = ../main.tex\n" + SIMPLE_FIG % ("i", "i")})
    for root in (str(tmp_path), None):
        paper = read_latex(str(tmp_path / "sections" / "intro.tex"), root=root)
        assert paper.extra["main_tex"] == "main.tex"
        assert fig(paper, "1").location.file == "sections/intro.tex"


def test_several_roots_is_an_input_error_naming_them(tmp_path):
    write(tmp_path, {"a.tex": doc("A"), "b.tex": doc("B")})
    with pytest.raises(InputError) as err:
        read_latex(str(tmp_path))
    assert "a.tex" in str(err.value) and "b.tex" in str(err.value)


def test_the_main_file_among_several_roots(tmp_path):
    # the usual name at the top wins over a rebuttal and a root in a subfolder
    write(tmp_path / "named", {"main.tex": doc("M"), "rebuttal.tex": doc("R"), "rwc/rwc.tex": doc("W")})
    assert read_latex(str(tmp_path / "named")).extra["main_tex"] == "main.tex"
    # the only compiled root wins over names
    write(tmp_path / "compiled", {"main.tex": doc("M"), "camera.tex": doc("C"), "camera.pdf": b"%PDF-1.5"})
    assert read_latex(str(tmp_path / "compiled")).extra["main_tex"] == "camera.tex"
    # two roots with usual names, or none: still ambiguous
    write(tmp_path / "two", {"main.tex": doc("M"), "paper.tex": doc("P")})
    with pytest.raises(InputError):
        read_latex(str(tmp_path / "two"))


def test_no_root_and_missing_main_are_input_errors(tmp_path):
    write(tmp_path, {"notes.tex": "just text\n"})
    with pytest.raises(InputError):
        read_latex(str(tmp_path))
    with pytest.raises(InputError):
        read_latex(str(tmp_path / "nope.tex"))


# ------------------------------------------------------------------ includes

def test_input_include_subfile_import_resolve_relative_to_the_right_directory(tmp_path):
    write(tmp_path, {
        "main.tex": doc("\\input{sec/one}\n\\input{sec/two.tex}\n\\include{three}\n"
                        "\\subfile{parts/four}\n\\import{chap/}{five}\n"),
        "sec/one.tex": SIMPLE_FIG % ("1", "one"),
        "sec/two.tex": SIMPLE_FIG % ("2", "two"),
        "three.tex": SIMPLE_FIG % ("3", "three"),
        "parts/four.tex": "\\documentclass[../main.tex]{subfiles}\n\\begin{document}\n"
                          + SIMPLE_FIG % ("4", "four") + "\\end{document}\n",
        # inside an \import, \input and graphics resolve relative to chap/
        "chap/five.tex": "\\input{inner}\n",
        "chap/inner.tex": "\\begin{figure}\\includegraphics{pic}\\caption{Five.}\\label{fig:five}\\end{figure}\n",
        "chap/pic.pdf": b"%PDF",
    })
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1", "2", "3", "4", "5"]
    assert [f.location.file for f in paper.figures] == [
        "sec/one.tex", "sec/two.tex", "three.tex", "parts/four.tex", "chap/inner.tex"]
    assert fig(paper, "5").graphics == ["chap/pic.pdf"]
    assert paper.extra["sources"] == ["main.tex", "sec/one.tex", "sec/two.tex", "three.tex",
                                      "parts/four.tex", "chap/five.tex", "chap/inner.tex"]
    assert paper.problems == []


def test_a_subfile_without_a_preamble_is_read_whole(tmp_path):
    # \subfile{part} of a plain fragment (no \documentclass, no document environment): the
    # subfiles package reads it like \input; its figures and their citing text count
    write(tmp_path, {
        "main.tex": "\\documentclass{article}\n\\usepackage{subfiles}\n\\begin{document}\nIntro.\n"
                    "\\subfile{part}\n\\end{document}\n",
        "part.tex": "\\section{Part}\nAs Figure~\\ref{fig:p} shows, it works.\n"
                    "\\begin{figure}\\includegraphics{pic}\\caption{Part.}\\label{fig:p}\\end{figure}\n",
        "pic.pdf": b"%PDF",
    })
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1"]
    assert [s.location.file for s in fig(paper, "1").sites] == ["part.tex"]


def test_a_teaser_with_a_caption_is_the_first_figure(tmp_path):
    # sigchi's (and acmsiggraph's, egpubl's) \teaser{...} sets a figure under the title
    write(tmp_path, {
        "main.tex": doc("\\teaser{\n\\centering\n\\includegraphics{t}\n\\caption{The workflow.}\n\\label{fig:t}\n}\n"
                        "\\maketitle\nAs Figure~\\ref{fig:t} and Figure~\\ref{fig:b} show.\n"
                        "\\begin{figure}\\includegraphics{b}\\caption{Body.}\\label{fig:b}\\end{figure}\n"),
        "t.pdf": b"%PDF", "b.pdf": b"%PDF",
    })
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [(f.number, f.caption.text) for f in paper.figures] == [("1", "The workflow."), ("2", "Body.")]
    assert fig(paper, "1").graphics == ["t.pdf"] and len(fig(paper, "1").sites) == 1


def test_path_outside_tree_is_refused_with_fl003(tmp_path):
    outside = tmp_path / "secret.tex"
    outside.write_text("\\begin{figure}\\caption{Stolen}\\end{figure}\n")
    write(tmp_path, {"paper/main.tex": doc("\\input{../../etc/passwd}\n\\input{../secret}\nText.")})
    paper = read_latex(str(tmp_path / "paper" / "main.tex"))
    fl003 = [p for p in paper.problems if p.code == "FL003"]
    assert len(fl003) == 2
    assert "../../etc/passwd" in fl003[0].message and "../secret" in fl003[1].message
    assert fl003[0].location.file == "main.tex" and fl003[0].location.line == 4
    assert paper.figures == []
    assert paper.extra["sources"] == ["main.tex"]


def test_include_cycle_is_fl004_and_terminates(tmp_path):
    write(tmp_path, {"main.tex": doc("\\input{a}\n" + SIMPLE_FIG % ("m", "m")),
                     "a.tex": "A \\input{b}\n", "b.tex": "B \\input{a}\n" + SIMPLE_FIG % ("b", "b")})
    paper = read_latex(str(tmp_path / "main.tex"))
    cyc = [p for p in paper.problems if p.code == "FL004"]
    assert len(cyc) == 1 and "a.tex" in cyc[0].message and cyc[0].location.file == "b.tex"
    assert [f.number for f in paper.figures] == ["1", "2"]


def test_missing_file_is_fl005_and_the_rest_is_read(tmp_path):
    write(tmp_path, {"main.tex": doc("\\input{gone}\n" + SIMPLE_FIG % ("k", "k"))})
    paper = read_latex(str(tmp_path / "main.tex"))
    miss = [p for p in paper.problems if p.code == "FL005"]
    assert len(miss) == 1 and "gone" in miss[0].message and miss[0].location.line == 4
    assert len(paper.figures) == 1


def test_non_utf8_file_is_read_as_latin1_with_a_note(tmp_path):
    write(tmp_path, {"main.tex": doc("\\input{old}"),
                     "old.tex": "\\begin{figure}\\caption{Caf\xe9 au lait}\\label{fig:c}\\end{figure}\n"
                                .encode("latin-1")})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert fig(paper, "1").caption.text == "Café au lait"
    notes = [p for p in paper.problems if p.code == "FL006"]
    assert notes and "old.tex" in notes[0].message and "latin-1" in notes[0].message
    assert paper.extra["encodings"] == {"old.tex": "latin-1"}


def test_unbalanced_braces_in_one_file_do_not_lose_the_others(tmp_path):
    write(tmp_path, {
        "main.tex": doc("\\input{bad}\n\\input{good}\nSee \\ref{fig:g}."),
        "bad.tex": "\\begin{figure}\\caption{Broken {brace}\\label{fig:b}\\end{figure}\n\nMore text }}.\n",
        "good.tex": SIMPLE_FIG % ("good", "g"),
    })
    paper = read_latex(str(tmp_path / "main.tex"))
    probs = [p for p in paper.problems if p.code == "FL006"]
    assert probs and all(p.location.file == "bad.tex" for p in probs)
    good = next(f for f in paper.figures if "fig:g" in f.labels)
    assert good.caption.text == "Cap good."
    assert good.location.file == "good.tex"
    assert len(good.sites) == 1 and good.sites[0].location.file == "main.tex"


# ------------------------------------------------------------------ comments and disabled text

def test_comments_verbatim_iffalse_and_end_document(tmp_path):
    body = (
        "100\\% sure. % \\ref{fig:a} in a comment\n"
        "\\begin{comment}\n\\begin{figure}\\caption{Hidden}\\end{figure}\n\\end{comment}\n"
        "\\begin{verbatim}\n\\ref{fig:a} % not a comment\n\\end{verbatim}\n"
        "\\iffalse\n\\begin{figure}\\caption{Off \\ifx a b x\\fi}\\end{figure}\n\\ref{fig:a}\n\\fi\n"
        "\\iffalse skipped \\else Kept \\ref{fig:a}. \\fi\n"
        "\\if 0\nDraft \\ref{fig:a}\n\\fi\n"
        + SIMPLE_FIG % ("real", "a")
    )
    src = PRE + "\\begin{document}\n" + body + "\\end{document}\n\\ref{fig:a}\n\\input{never}\n"
    write(tmp_path, {"main.tex": src})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1"]
    sites = fig(paper, "1").sites
    assert len(sites) == 1
    assert sites[0].location.line == line_of(src, "Kept")
    assert "FL005" not in codes(paper)


def test_percent_escape_and_comment_positions(tmp_path):
    src = doc("Rate is 5\\% % trailing comment\nthen Fig.~\\ref{fig:z} ends.\n" + SIMPLE_FIG % ("z", "z"))
    write(tmp_path, {"main.tex": src})
    paper = read_latex(str(tmp_path / "main.tex"))
    site = fig(paper, "1").sites[0]
    assert (site.location.line, site.location.column) == (line_of(src, "then Fig"), 11)
    assert site.sentence == "Rate is 5% then Fig. 1 ends."


# ------------------------------------------------------------------ figures

def test_figure_kinds_numbers_and_locations(tmp_path):
    body = (
        "\\begin{figure}[t]\n\\includegraphics[width=.5\\linewidth,height=3cm]{a}\n"
        "\\caption[Short one]{Long \\emph{one} with $\\alpha+\\beta$ and \\mystery{x}.}\\label{fig:one.v2}\n"
        "\\end{figure}\n"
        "\\begin{figure*}\n\\includegraphics[scale=0.5]{b.jpg}\n\\caption{Wide.}\n\\label{fig:wide}\n\\end{figure*}\n"
        "\\begin{wrapfigure}{r}{0.4\\textwidth}\n\\includegraphics{c}\\caption{Wrapped.}\\label{fig:wrap}\n\\end{wrapfigure}\n"
        "\\begin{SCfigure}\n\\includegraphics{c}\\caption{Side.}\\label{fig:sc}\n\\end{SCfigure}\n"
        "\\begin{sidewaysfigure}\n\\includegraphics{c}\\caption{Rotated.}\\label{fig:rot}\n\\end{sidewaysfigure}\n"
        "\\begin{center}\n\\includegraphics{c}\n\\captionof{figure}{Inline.}\\label{fig:inl}\n\\end{center}\n"
        "\\begin{figure}\n\\begin{tikzpicture}\\draw (0,0)--(1,1);\\end{tikzpicture}\n"
        "\\caption{Drawn.}\\label{fig:tikz}\n\\end{figure}\n"
        "\\begin{figure}\\centering\\includegraphics{a}\\end{figure}\n"
    )
    src = doc(body, pre="\\graphicspath{{img/}{other/}}\n")
    write(tmp_path, {"main.tex": src, "img/a.pdf": b"%PDF", "img/b.jpg": b"x", "other/c.png": b"x"})
    paper = read_latex(str(tmp_path / "main.tex"))
    envs = [(f.number, f.env) for f in paper.figures if f.number]
    assert envs == [("1", "figure"), ("2", "figure*"), ("3", "wrapfigure"), ("4", "SCfigure"),
                    ("5", "sidewaysfigure"), ("6", "captionof"), ("7", "figure")]
    one = fig(paper, "1")
    assert one.location.file == "main.tex" and one.location.line == line_of(src, "\\begin{figure}[t]")
    assert one.caption.short == "Short one"
    # \mystery is defined nowhere figlint reads (a class or package): its name is not what it
    # prints, its argument most likely is
    assert one.caption.text == "Long one with α+β and x."
    assert one.caption.location.line == line_of(src, "\\caption[Short")
    assert one.labels == ["fig:one.v2"]
    assert one.graphics == ["img/a.pdf"]
    opts = one.extra["graphics_options"][0]
    assert opts["options"] == {"width": ".5\\linewidth", "height": "3cm"} and opts["file"] == "a"
    assert fig(paper, "2").graphics == ["img/b.jpg"]
    assert fig(paper, "2").extra["graphics_options"][0]["options"] == {"scale": "0.5"}
    assert fig(paper, "3").graphics == ["other/c.png"]
    inline = fig(paper, "6")
    assert inline.location.line == line_of(src, "\\begin{center}") and inline.labels == ["fig:inl"]
    assert inline.graphics == ["other/c.png"]
    drawn = fig(paper, "7")
    assert drawn.graphics == [] and drawn.extra["vector_only"] is True
    assert one.extra["vector_only"] is False
    assert paper.extra["labels"]["fig:tikz"] == "7"
    assert [(f.number, f.env, f.caption, f.graphics) for f in paper.figures[7:]] == [("", "figure", None, ["img/a.pdf"])]
    assert paper.figures[7].extra["uncaptioned"] is True and paper.figures[7].location.line == line_of(src, "\\centering")


def test_subfigures_minipages_and_label_binding(tmp_path):
    body = (
        "\\begin{figure}\n"
        "\\begin{subfigure}{.5\\linewidth}\\includegraphics{p}\\caption{Left}\\label{fig:sub:l}\\end{subfigure}\n"
        "\\begin{subfigure}{.5\\linewidth}\\includegraphics{p}\\caption{Right}\\label{fig:sub:r}\\end{subfigure}\n"
        "\\caption{Both.}\\label{fig:sub}\n\\end{figure}\n"
        "\\begin{figure}\n\\subcaptionbox{Box A\\label{fig:box:a}}{\\includegraphics{p}}\n"
        "\\subfloat[Float B]{\\includegraphics{p}\\label{fig:box:b}}\n"
        "\\caption{Boxes.}\\label{fig:box}\n\\end{figure}\n"
        "\\begin{figure}\n"
        "\\begin{minipage}{.5\\linewidth}\\includegraphics{p}\\caption{First of two.}\\label{fig:mp1}\\end{minipage}\n"
        "\\begin{minipage}{.5\\linewidth}\\includegraphics{q}\\caption{Second of two.}\\label{fig:mp2}\\end{minipage}\n"
        "\\end{figure}\n"
        "\\begin{figure}\n\\label{fig:early}\\includegraphics{p}\n\\caption{Label \\label{fig:incap}inside.}\n\\end{figure}\n"
        "See \\ref{fig:sub:l}, \\subref{fig:sub:r}, \\cref{fig:sub:l,fig:sub:r}, \\ref{fig:mp2} and \\ref{fig:early}.\n"
    )
    write(tmp_path, {"main.tex": doc(body), "p.png": b"x", "q.png": b"x"})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1", "2", "3", "4", "5"]
    one = fig(paper, "1")
    assert sorted(one.labels) == ["fig:sub", "fig:sub:l", "fig:sub:r"]
    assert [(s.label, s.caption) for s in one.subpanels] == [("a", "Left"), ("b", "Right")]
    assert paper.extra["label_refs"]["fig:sub:r"] == "1b"
    assert paper.extra["labels"]["fig:sub:r"] == "1"
    two = fig(paper, "2")
    assert sorted(two.labels) == ["fig:box", "fig:box:a", "fig:box:b"]
    assert [s.caption for s in two.subpanels] == ["Box A", "Float B"]
    assert fig(paper, "3").labels == ["fig:mp1"] and fig(paper, "4").labels == ["fig:mp2"]
    assert fig(paper, "3").graphics == ["p.png"] and fig(paper, "4").graphics == ["q.png"]
    five = fig(paper, "5")
    assert five.labels == ["fig:incap"]
    assert five.extra["misplaced_labels"] == ["fig:early"]
    # sites: one per command per figure; the cref naming two panels of one figure is one site
    sites = one.sites
    assert [s.macro for s in sites] == ["ref", "subref", "cref"]
    assert sites[2].labels == ["fig:sub:l", "fig:sub:r"] and sites[2].panels == ["a", "b"]
    assert sites[1].panels == ["b"]
    assert [s.macro for s in fig(paper, "4").sites] == ["ref"]
    assert five.sites == []
    assert paper.extra["misplaced_label_refs"][0]["label"] == "fig:early"


def test_appendix_numbering_with_renewcommand_and_chapter_classes(tmp_path):
    body = (SIMPLE_FIG % ("body", "b") + "\\appendix\n\\setcounter{figure}{0}\n"
            "\\renewcommand{\\thefigure}{A\\arabic{figure}}\n\\section{More}\n"
            + SIMPLE_FIG % ("app1", "a1") + SIMPLE_FIG % ("app2", "a2") + "See \\ref{fig:a2}.")
    write(tmp_path, {"main.tex": doc(body)})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [(f.number, f.in_appendix) for f in paper.figures] == [("1", False), ("A1", True), ("A2", True)]
    assert fig(paper, "A2").sites[0].mention == "A2"

    rep = ("\\documentclass{report}\n\\begin{document}\n\\chapter{One}\n" + SIMPLE_FIG % ("x", "x")
           + SIMPLE_FIG % ("y", "y") + "\\chapter{Two}\n" + SIMPLE_FIG % ("z", "z")
           + "\\appendix\n\\chapter{Extra}\n" + SIMPLE_FIG % ("w", "w") + "\\end{document}\n")
    write(tmp_path, {"report/main.tex": rep})
    paper = read_latex(str(tmp_path / "report" / "main.tex"))
    assert [f.number for f in paper.figures] == ["1.1", "1.2", "2.1", "A.1"]

    within = doc("\\section{S}\n" + SIMPLE_FIG % ("s", "s") + "\\section{T}\n" + SIMPLE_FIG % ("t", "t"),
                 pre="\\counterwithin{figure}{section}\n")
    write(tmp_path, {"within/main.tex": within})
    paper = read_latex(str(tmp_path / "within" / "main.tex"))
    assert [f.number for f in paper.figures] == ["1.1", "2.1"]


def test_empty_macro_hides_figures_refs_and_mentions(tmp_path):
    body = ("\\cut{\\begin{figure}\\caption{Gone.}\\label{fig:gone}\\end{figure} see Figure 1 and \\ref{fig:a}}\n"
            "\\hide[opt]{Figure 1 again \\ref{fig:a}}\n"
            "\\todo{Visible \\ref{fig:a}.}\n" + SIMPLE_FIG % ("kept", "a") + "Refer to \\ref{fig:gone}.")
    pre = "\\newcommand{\\cut}[1]{}\n\\newcommand{\\hide}[2][x]{#1}\n\\newcommand{\\todo}[1]{\\textbf{#1}}\n"
    write(tmp_path, {"main.tex": doc(body, pre=pre)})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1"]
    sites = fig(paper, "1").sites
    assert len(sites) == 1 and sites[0].sentence == "opt Visible 1."  # \hide prints its optional argument
    assert paper.extra["hardcoded"] == []
    assert [u["label"] for u in paper.extra["unresolved_refs"]] == ["fig:gone"]
    assert paper.extra["unresolved_refs"][0]["figure_like"] is True


def test_missing_graphics_file_is_kept_as_written(tmp_path):
    write(tmp_path, {"main.tex": doc("\\begin{figure}\\includegraphics{figs/none}\\caption{X.}\\end{figure}")})
    paper = read_latex(str(tmp_path / "main.tex"))
    f = fig(paper, "1")
    assert f.graphics == ["figs/none"]
    assert f.extra["missing_graphics"] == ["figs/none"]
    assert f.extra["graphics_options"][0]["path"] is None


def test_duplicate_label_belongs_to_its_last_definition(tmp_path):
    body = SIMPLE_FIG % ("first", "dup") + SIMPLE_FIG % ("second", "dup") + "See Figure~\\ref{fig:dup}."
    write(tmp_path, {"main.tex": doc(body)})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert fig(paper, "1").labels == [] and fig(paper, "1").extra["overridden_labels"] == ["fig:dup"]
    assert fig(paper, "2").labels == ["fig:dup"] and len(fig(paper, "2").sites) == 1
    assert len(paper.extra["duplicate_labels"]["fig:dup"]) == 2


# ------------------------------------------------------------------ citing sites

def test_reference_macros_and_what_is_not_a_reference(tmp_path):
    pre = ("\\usepackage{cleveref}\n\\newcommand{\\figg}[1]{Figure~\\ref{fig:#1}}\n"
           "\\def\\Fig#1{Fig.~\\ref{#1}}\n\\newcommand{\\figs}[2]{Figures~\\ref{#1} and~\\ref{#2}}\n"
           "\\DeclareRobustCommand{\\seefig}[1]{(see \\autoref{#1})}\n"
           "Preamble \\ref{fig:a}.\n")
    body = (SIMPLE_FIG % ("A", "a") + SIMPLE_FIG % ("B", "b") + SIMPLE_FIG % ("C", "c") +
            "Ref \\ref{fig:a}. Auto \\autoref{fig:a}. Big \\Autoref{fig:b}. Cref \\cref{fig:a,fig:b}.\n"
            "Range \\crefrange{fig:a}{fig:c}. Lab \\labelcref{fig:c}. V \\vref{fig:a} \\Vref{fig:b}.\n"
            "Name \\nameref{fig:c}. Link \\hyperref[fig:b]{this plot}. Fancy \\fref{fig:c}.\n"
            "User \\figg{a}; \\Fig{fig:b}; \\figs{fig:a}{fig:c}; \\seefig{fig:b}. Custom \\myref{fig:c}.\n"
            "Not: \\pageref{fig:a} \\cpageref{fig:b} \\eqref{eq:x} % \\ref{fig:c}\n"
            "Broken \\ref{fig:nowhere} and \\ref{sec:none}.\n\\section{Sec}\\label{sec:s} \\ref{sec:s}\n")
    src = doc(body, pre=pre)
    write(tmp_path, {"main.tex": src})
    paper = read_latex(str(tmp_path / "main.tex"), ref_macros=["myref"])
    a, b, c = fig(paper, "1"), fig(paper, "2"), fig(paper, "3")
    assert [s.macro for s in a.sites] == ["ref", "autoref", "cref", "crefrange", "vref", "figg", "figs"]
    assert [s.macro for s in b.sites] == ["Autoref", "cref", "Vref", "hyperref", "Fig", "seefig"]
    assert [s.macro for s in c.sites] == ["crefrange", "labelcref", "nameref", "fref", "figs", "myref"]
    assert all(s.via == "ref" for f in paper.figures for s in f.sites)
    figg = next(s for s in a.sites if s.macro == "figg")
    assert figg.labels == ["fig:a"] and figg.mention == "Figure 1"
    assert figg.location.line == line_of(src, "User") and figg.location.column == 6
    cref = next(s for s in a.sites if s.macro == "cref")
    assert cref.mention == "Figs. 1 and 2" or cref.mention.lower().startswith("figs")
    hyper = next(s for s in b.sites if s.macro == "hyperref")
    assert "this plot" in hyper.sentence
    unresolved = {u["label"]: u for u in paper.extra["unresolved_refs"]}
    assert set(unresolved) == {"fig:nowhere", "sec:none"}
    assert unresolved["fig:nowhere"]["figure_like"] and not unresolved["sec:none"]["figure_like"]
    assert unresolved["fig:nowhere"]["line"] == line_of(src, "Broken")
    assert unresolved["fig:nowhere"]["column"] == 8 and unresolved["fig:nowhere"]["macro"] == "ref"


def test_site_paragraph_sentence_and_mention(tmp_path):
    body = (SIMPLE_FIG % ("A", "a") + SIMPLE_FIG % ("B", "b") +
            "First paragraph here.\n\n"
            "We ran it twice. As Figure~\\ref{fig:a}(b) shows, the latency drops\n"
            "by 10\\% (cf.\\ Fig.~\\ref{fig:b}). Figs.~\\ref{fig:a} and~\\ref{fig:b} agree.\n\n"
            "Last paragraph.\n")
    write(tmp_path, {"main.tex": doc(body)})
    paper = read_latex(str(tmp_path / "main.tex"))
    a = fig(paper, "1")
    s0 = a.sites[0]
    assert s0.paragraph.startswith("We ran it twice.") and s0.paragraph.endswith("agree.")
    assert s0.sentence == "As Figure 1(b) shows, the latency drops by 10% (cf. Fig. 2)."
    assert s0.mention == "Figure 1(b)" and s0.panels == ["b"]
    assert a.sites[1].mention == "Figs. 1 and 2"
    assert a.sites[1].sentence == "Figs. 1 and 2 agree."


def test_hardcoded_mentions_and_other_works(tmp_path):
    body = (SIMPLE_FIG % ("A", "a") + SIMPLE_FIG % ("B", "b") +
            "Figure 1 shows it. See Figs.~1 and~2. Unlike their Figure 5, and Figure 4 in \\cite{x},\n"
            "Smith et al.'s Figure 3 or \\citet{y}'s Fig.~2, we do well (Figure~\\ref{fig:b}).\n"
            "Figure 7 does not exist.\n")
    src = doc(body)
    write(tmp_path, {"main.tex": src})
    paper = read_latex(str(tmp_path / "main.tex"))
    hard = paper.extra["hardcoded"]
    assert [(h["text"], h["figures"]) for h in hard] == [("Figure 1", ["1"]), ("Figs. 1 and 2", ["1", "2"]),
                                                         ("Figure 7", [])]
    assert hard[0]["line"] == line_of(src, "Figure 1 shows") and hard[0]["column"] == 1
    a, b = fig(paper, "1"), fig(paper, "2")
    assert [s.via for s in a.sites] == ["text", "text"]
    assert [s.via for s in b.sites] == ["text", "ref"]
    assert a.sites[0].sentence == "Figure 1 shows it."
    assert a.sites[1].location.column == len("Figure 1 shows it. See ") + 1


def test_refs_inside_captions_and_user_macro_in_caption(tmp_path):
    pre = "\\newcommand{\\name}{Bundler\\xspace}\n"
    body = (SIMPLE_FIG % ("A", "a") +
            "\\begin{figure}\\caption{As in Figure~\\ref{fig:a}, \\name's view.}\\label{fig:b}\\end{figure}\n")
    write(tmp_path, {"main.tex": doc(body, pre=pre)})
    paper = read_latex(str(tmp_path / "main.tex"))
    b = fig(paper, "2")
    assert b.caption.text == "As in Figure 1, Bundler's view."
    site = fig(paper, "1").sites[0]
    assert site.paragraph == "As in Figure 1, Bundler's view."


# ------------------------------------------------------------------ robustness and speed

def test_twenty_thousand_line_file(tmp_path):
    lines = [f"Line {k} of filler text with a number {k % 97} and no figures." for k in range(20000)]
    lines[19990] = SIMPLE_FIG % ("late", "late")
    lines[10] = "Early mention of \\ref{fig:late}."
    src = doc("\n".join(lines))
    write(tmp_path, {"main.tex": src})
    t0 = time.process_time()
    paper = read_latex(str(tmp_path / "main.tex"))
    elapsed = time.process_time() - t0
    f = fig(paper, "1")
    assert f.location.line == line_of(src, "\\begin{figure}")
    assert f.sites[0].location.line == line_of(src, "Early mention")
    assert elapsed < 10


def test_unclosed_figure_environment_is_reported(tmp_path):
    body = "\\begin{figure}\\caption{Never closed.}\\label{fig:n}\n\nText.\n" + SIMPLE_FIG % ("ok", "ok")
    write(tmp_path, {"main.tex": doc(body)})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert "FL006" in codes(paper)
    assert [f.caption.text for f in paper.figures] == ["Never closed.", "Cap ok."]


def test_more_include_forms_excludecomment_and_endinput(tmp_path):
    write(tmp_path, {
        "main.tex": PRE + "\\includeonly{chap/a}\n\\input{defs}\n\\begin{document}\n"
                    "\\input chap/plain\n\\include{chap/a}\n\\include{chap/b}\n\\subimport{deep/}{part}\n"
                    "\\begin{rebuttal}\n\\begin{figure}\\caption{Rebuttal only.}\\end{figure}\n\\end{rebuttal}\n"
                    "\\end{document}\n",
        "defs.tex": "\\excludecomment{rebuttal}\n\\NewDocumentCommand{\\drop}{m}{}\n",
        "chap/plain.tex": SIMPLE_FIG % ("plain", "p") + "\\drop{\\begin{figure}\\caption{No.}\\end{figure}}\n",
        "chap/a.tex": SIMPLE_FIG % ("a", "a") + "\\endinput trailing text\n" + SIMPLE_FIG % ("after", "x"),
        "chap/b.tex": SIMPLE_FIG % ("b", "b"),
        "deep/part.tex": "\\input{inner}\n",
        "deep/inner.tex": SIMPLE_FIG % ("deep", "d"),
    })
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.caption.text for f in paper.figures] == ["Cap plain.", "Cap a.", "Cap deep."]
    assert paper.extra["sources"] == ["main.tex", "defs.tex", "chap/plain.tex", "chap/a.tex",
                                      "deep/part.tex", "deep/inner.tex"]
    assert paper.problems == []


def test_endinput_in_a_definition_or_named_by_let_ends_no_file(tmp_path):
    """\\endinput stops TeX reading a file only where it runs. In a definition's body (an
    include guard that makes a file's name mean \\endinput, so that a second \\input of it
    reads nothing) or named by \\let it does not run there: reading it as the end of the main
    file lost every figure of a paper and reported its braces unbalanced."""
    guard = ("\\makeatletter\n\\def\\onlyonce{%\n  \\csname guard@\\jobname\\endcsname\n"
             "  \\global\\expandafter\\let\\csname guard@\\jobname\\endcsname = \\endinput\n}\n"
             "\\let\\stopfile\\endinput\n\\makeatother\n")
    write(tmp_path, {"main.tex": PRE + guard + "\\begin{document}\nSee Figure~\\ref{fig:a}.\n" + SIMPLE_FIG % ("a", "a")
                     + "\\end{document}\n"})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.caption.text for f in paper.figures] == ["Cap a."]
    assert paper.problems == []
    assert paper.figures[0].sites


def test_includeonly_inside_a_conditional_is_not_obeyed(tmp_path):
    """A thesis template sets \\includeonly inside flags its class options switch on
    (\\ifdefineChapter ... \\fi): obeying it unread would drop every chapter silently, so
    all chapters are read; an \\includeonly outside any conditional is still obeyed."""
    pre = PRE + "\\newif\\ifdefineChapter\n\\ifdefineChapter\n  \\includeonly{chap/b}\n\\fi\n"
    body = "\\begin{document}\n\\include{chap/a}\n\\include{chap/b}\n\\end{document}\n"
    files = {"chap/a.tex": SIMPLE_FIG % ("a", "a"), "chap/b.tex": SIMPLE_FIG % ("b", "b")}
    write(tmp_path, {"main.tex": pre + body, **files})
    assert [f.caption.text for f in read_latex(str(tmp_path / "main.tex")).figures] == ["Cap a.", "Cap b."]
    write(tmp_path, {"main.tex": PRE + "\\includeonly{chap/b}\n" + body})
    assert [f.caption.text for f in read_latex(str(tmp_path / "main.tex")).figures] == ["Cap b."]


def test_a_local_class_built_on_a_chapter_class_numbers_by_chapter(tmp_path):
    """A thesis template shipped as its own .cls that \\LoadClass{book}es: figures are numbered
    per chapter (1.1, 2.1) as printed, not 1, 2."""
    write(tmp_path, {
        "mythesis.cls": "\\NeedsTeXFormat{LaTeX2e}\n\\ProvidesClass{mythesis}\n\\LoadClass[12pt]{book}\n",
        "main.tex": "\\documentclass{mythesis}\n\\begin{document}\n\\chapter{One}\n" + SIMPLE_FIG % ("a", "a")
                    + "\\chapter{Two}\n" + SIMPLE_FIG % ("b", "b") + SIMPLE_FIG % ("c", "c") + "\\end{document}\n",
    })
    assert [f.number for f in read_latex(str(tmp_path / "main.tex")).figures] == ["1.1", "2.1", "2.2"]


def test_labels_with_dots_and_user_macro_definitions_by_def_and_xparse(tmp_path):
    pre = ("\\def\\figlabel#1{fig:#1}\n\\NewDocumentCommand{\\Fref}{m}{Figure~\\ref{#1}}\n"
           "\\newcommand\\subfigref[2]{Fig.~\\ref{#1}\\subref{#2}}\n")
    body = ("\\begin{figure}\\begin{subfigure}{.5\\linewidth}\\caption{P}\\label{fig:x.1.a}\\end{subfigure}"
            "\\caption{X.}\\label{fig:x.1}\\end{figure}\n"
            "See \\Fref{fig:x.1} and \\subfigref{fig:x.1}{fig:x.1.a}.\n")
    write(tmp_path, {"main.tex": doc(body, pre=pre)})
    paper = read_latex(str(tmp_path / "main.tex"))
    f = fig(paper, "1")
    assert sorted(f.labels) == ["fig:x.1", "fig:x.1.a"]
    assert [(s.macro, s.labels) for s in f.sites] == [("Fref", ["fig:x.1"]), ("subfigref", ["fig:x.1", "fig:x.1.a"])]
    assert f.sites[0].mention == "Figure 1"
    assert f.sites[1].panels == ["a"]


def test_percent_in_url_is_not_a_comment(tmp_path):
    body = "Data at \\url{http://x.org/a%20b} and \\href{http://y.org/%7E}{here}, see \\ref{fig:u}.\n" + SIMPLE_FIG % ("u", "u")
    write(tmp_path, {"main.tex": doc(body)})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert paper.problems == []
    assert len(fig(paper, "1").sites) == 1


def test_caption_text_as_printed_with_common_packages(tmp_path):
    """glossaries/acronym, siunitx and mhchem print their text; a local .sty that redefines
    LaTeX internals (\\small via \\@setsize) is never expanded into a caption, its plain
    macros are."""
    (tmp_path / "oldsizes.sty").write_text(
        "\\renewcommand{\\small}{\\@setsize\\small{10pt}\\ixpt\\@ixpt}\n"
        "\\newcommand{\\fancybox}[1]{\\@ifnextchar[{\\@tempa}{#1}}\n"
        "\\newcommand{\\ours}{OurNet}\n")
    (tmp_path / "main.tex").write_text(r"""\documentclass{article}
\usepackage{oldsizes}
\usepackage{glossaries}
\newacronym{cnn}{CNN}{convolutional neural network}
\acro{gpu}[GPU]{graphics processing unit}
\begin{document}
Figure~\ref{fig:a} shows the \ac{gpu} load of the \gls{cnn}.
\begin{figure}
\rule{1cm}{1cm}
\caption{{\small Accuracy} of \ours{} (\acrfull{cnn}) at \SI{20}{\kilo\hertz} and \qty{3}{\metre\per\second}
on \num{12} \acp{gpu} for \ce{H2O}, 10\textsuperscript{-4}; see \href{https://example.org}{the site}.}
\label{fig:a}
\end{figure}
\end{document}
""")
    paper = read_latex(str(tmp_path / "main.tex"))
    text = paper.figures[0].caption.text
    assert text == ("Accuracy of OurNet (convolutional neural network (CNN)) at 20 kHz and 3 m/s on 12 GPUs "
                    "for H2O, 10-4; see the site."), text
    assert "setsize" not in text and "@" not in text
    assert paper.figures[0].sites[0].sentence == "Figure 1 shows the GPU load of the CNN."


def test_a_figure_naming_itself_in_its_caption_is_not_a_citing_site(tmp_path):
    (tmp_path / "main.tex").write_text(r"""\documentclass{article}
\begin{document}
Figure~\ref{fig:a} shows the loss.
\begin{figure}
\rule{1cm}{1cm}
\caption{Loss per epoch; Figure~\ref{fig:a} repeats the run of Figure~\ref{fig:b}.}
\label{fig:a}
\end{figure}
\begin{figure}
\rule{1cm}{1cm}
\caption{Accuracy per epoch.}
\label{fig:b}
\end{figure}
\end{document}
""")
    paper = read_latex(str(tmp_path / "main.tex"))
    a, b = paper.figure("1"), paper.figure("2")
    assert [s.location.line for s in a.sites] == [3]
    assert [s.location.line for s in b.sites] == [6]  # another figure's caption does cite it


def test_a_caption_with_an_offset_argument_reads_its_long_text(tmp_path):
    """tufte-book's \\caption[short][offset]{long} (field audit: read as the caption "[")."""
    write(tmp_path, {"main.tex": "\\documentclass{article}\n\\begin{document}\nSee Figure~\\ref{a}.\n"
                     "\\begin{figure}\\caption[Short][-2cm]{Long caption of the margin figure.}\\label{a}\\end{figure}\n"
                     "\\begin{figure}\\caption[Short two]{Long caption two.}\\end{figure}\n\\end{document}\n"})
    figs = read_latex(str(tmp_path / "main.tex")).figures
    assert [(f.caption.text, f.caption.short) for f in figs] == [
        ("Long caption of the margin figure.", "Short"), ("Long caption two.", "Short two")]


def test_macros_that_typeset_are_not_expanded_into_captions(tmp_path):
    """A definition whose body typesets (math styles, skips, boxes, TikZ, a class error) prints
    no words of its own: \\bm-like macros show their argument, an error message shows nothing,
    a text macro still expands (field binding: 'mathchoice boldmath', 'mskip thinmuskip', a
    class's error text in 8 papers' captions)."""
    write(tmp_path, {"main.tex": "\\documentclass{article}\n"
                     "\\newcommand{\\bmx}[1]{\\mathchoice{\\mbox{\\boldmath$\\displaystyle#1$}}{#1}{#1}{#1}}\n"
                     "\\newcommand{\\gap}{\\mskip\\thinmuskip}\n\\newcommand{\\method}{\\textsc{FastNet}}\n"
                     "\\newcommand{\\err}{\\ClassError{foo}{To use the string}{help}}\n"
                     "\\begin{document}\nSee Figure~\\ref{a}.\n"
                     "\\begin{figure}\\caption{Weights \\bmx{w} of \\method{} per\\gap layer.\\err}\\label{a}\\end{figure}\n"
                     "\\end{document}\n"})
    assert read_latex(str(tmp_path / "main.tex")).figures[0].caption.text == "Weights w of FastNet per layer."


def test_caption_text_without_macro_internals():
    """What a macro prints, not its name or its font switches: a font set by hand in a
    paper's own \\def (\\fontfamily, \\fontsize, \\selectfont) prints nothing; a macro defined
    nowhere figlint reads (a class's \\csentence) prints its argument, not its name; SIunits'
    unit macros outside \\SI print their symbols."""
    from figlint.ingest.texparse import TextRenderer

    r = TextRenderer(None)
    code = r"{\mbox{\fontfamily{cmtt}\fontsize{\f@size}{\f@size}\selectfont DARE}} latency"
    assert r.latex_to_text(code) == "DARE latency"
    assert r.latex_to_text(r"\csentence{Energy potential.} Over time.") == "Energy potential. Over time."
    assert r.latex_to_text(r"the \SIunits{3.7}{\micro\meter} channel") == "the 3.7µm channel"
    assert r.latex_to_text(r"\SI{3.7}{\micro\metre} channel") == "3.7 µm channel"
    # mathtools' defining relations print as their glyphs do, not as nothing
    assert r.latex_to_text(r"$A\coloneqq\textit{word}$ and $x \eqqcolon y$") == "A := word and x =: y"


def test_document_environment_inside_a_preamble_definition_is_not_the_document(tmp_path):
    # a macro whose body holds \begin{document}...\end{document} (a template's wrapper) starts
    # and ends nothing where it is defined: the document begins where \begin{document} runs
    pre = ("\\newcommand{\\doc}[1]{%\n  \\begin{document}\n    #1\n  \\end{document}}\n"
           "\\def\\wrapped{\\begin{document}x\\end{document}}\n")
    src = doc(SIMPLE_FIG % ("one", "a") + "See Figure~\\ref{fig:a}.", pre)
    write(tmp_path, {"main.tex": src, "a.png": b"x"})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1"]
    assert len(fig(paper, "1").sites) == 1
    assert "FL006" not in codes(paper)


def test_end_document_inside_an_open_group_still_ends_the_document(tmp_path):
    # TeX stops at \end{document} even inside an unclosed group (it warns of the group): what
    # follows is not read, a negative case of the definition test above
    body = SIMPLE_FIG % ("one", "a") + "{\\bfseries See Figure~\\ref{fig:a}.\n"
    src = PRE + "\\begin{document}\n" + body + "\\end{document}\n" + SIMPLE_FIG % ("two", "b")
    write(tmp_path, {"main.tex": src, "a.png": b"x"})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1"]


def test_reference_in_a_citation_note_is_a_citing_site(tmp_path):
    # natbib/biblatex print the optional arguments with the citation ("(see Smith 2020, Fig. 1)"):
    # a \ref there cites the figure; the citation's key names none
    body = (SIMPLE_FIG % ("one", "a") + "As shown \\citep[see][Figure~\\ref{fig:a}]{smith}.\n"
            "Also \\cite[p.~3]{fig:a} and \\citet{fig:a}.\n")
    write(tmp_path, {"main.tex": doc(body), "a.png": b"x"})
    paper = read_latex(str(tmp_path / "main.tex"))
    sites = fig(paper, "1").sites
    assert len(sites) == 1
    assert "FL304" not in codes(paper)


def test_captionsetup_type_makes_a_figure_environment_caption_another_floats(tmp_path):
    # caption package: \captionsetup{type=table} inside a figure environment makes its caption a
    # table's ("Table 1"), so it takes no figure number; other keys leave the type alone
    tab = ("\\begin{figure}[h]\n\\captionsetup*{type=table}\n\\caption{Some statistics.}\\label{tbl:s}\n"
           "\\begin{tabular}{cc}a & b\\\\\\end{tabular}\n\\end{figure}\n")
    styled = ("\\begin{figure}\n\\captionsetup{font=small}\n\\includegraphics{a.png}\n"
              "\\caption{Styled.}\\label{fig:b}\n\\end{figure}\n")
    body = tab + SIMPLE_FIG % ("one", "a") + styled + "See Figure~\\ref{fig:a}, \\ref{fig:b} and Table~\\ref{tbl:s}."
    write(tmp_path, {"main.tex": doc(body, "\\usepackage{caption}\n"), "a.png": b"x"})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1", "2"]
    assert fig(paper, "1").caption.text.startswith("Cap one")
    assert fig(paper, "2").caption.text.startswith("Styled")


def test_kernel_font_sizes_redefined_in_the_preamble_print_nothing(tmp_path):
    # a template pasted into the main file (RSC's) redefines the font sizes with LaTeX internals:
    # \footnotesize in a caption prints no text, as the kernel's does
    pre = ("\\makeatletter\n\\renewcommand\\footnotesize{\\@setfontsize\\footnotesize{7pt}{10}}\n"
           "\\renewcommand\\large{\\@setfontsize\\large{10pt}{12}}\n\\makeatother\n"
           "\\newcommand{\\sample}{sample}\n")
    body = ("\\begin{figure}\n\\includegraphics{a.png}\n"
            "\\caption{\\footnotesize The spectrum of the \\sample{} in water.}\\label{fig:a}\n\\end{figure}\n")
    write(tmp_path, {"main.tex": doc(body, pre), "a.png": b"x"})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert fig(paper, "1").caption.text.strip() == "The spectrum of the sample in water."


def test_label_of_an_equation_set_in_a_figure_float_names_the_equation(tmp_path):
    # an author floats two displayed equations in a figure environment (no graphic, no caption):
    # each \label names its equation, not a figure missing its caption
    body = ("Windows (equation \\ref{eq:a}) and (equation \\ref{eq:b}).\n\\begin{figure}[h]\n"
            "\\begin{equation}\nI = e^{-t}\\label{eq:a}\n\\end{equation}\n"
            "\\begin{equation}\\label{eq:b}\nJ = e^{-t^2}\n\\end{equation}\n\\end{figure}\n"
            + SIMPLE_FIG % ("one", "c") + "See Figure~\\ref{fig:c}.")
    write(tmp_path, {"main.tex": doc(body), "a.png": b"x"})
    from figlint.config import Config
    from figlint.engine import lint_path

    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1"]  # the equations' float is no figure
    found = [f.code for f in lint_path(str(tmp_path / "main.tex"), Config(select=["FL306", "FL304"])).findings]
    assert found == []


def test_algorithm_inside_a_figure_float_keeps_its_own_caption(tmp_path):
    # algorithm2e's algorithm set with [H] in a minipage of a figure* beside a sub-figure: its
    # \caption is the algorithm's, and only the figure's caption takes a figure number
    body = ("\\begin{figure*}\n\\begin{minipage}{0.6\\textwidth}\n\\begin{algorithm}[H]\n"
            "Init the matrix\\label{step:init}\\;\n\\caption{Needleman-Wunsch}\\label{alg:nw}\n\\end{algorithm}\n"
            "\\end{minipage}\\begin{minipage}{0.35\\textwidth}\n\\includegraphics{a.png}\n"
            "\\caption{The score matrix.}\\label{fig:m}\n\\end{minipage}\n\\end{figure*}\n"
            "See Figure~\\ref{fig:m} and Algorithm~\\ref{alg:nw}.")
    write(tmp_path, {"main.tex": doc(body, "\\usepackage[ruled]{algorithm2e}\n"), "a.png": b"x"})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.number for f in paper.figures] == ["1"]
    assert fig(paper, "1").caption.text.startswith("The score matrix")
    assert len(fig(paper, "1").sites) == 1
    # a line's \label inside the algorithm names that line: no figure label out of place
    from figlint.config import Config
    from figlint.engine import lint_path

    assert [f.code for f in lint_path(str(tmp_path / "main.tex"), Config(select=["FL306"])).findings] == []
