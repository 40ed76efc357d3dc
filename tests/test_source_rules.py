"""Source-only rules (FL203, FL304-FL307, FL601) and FL301 on LaTeX sources, end to end.

Each test writes a small .tex tree to tmp_path and lints it through
engine.lint_path, so ingestion, the rules and suppressions all take part. The
cases are the ones on which existing LaTeX linters go wrong (issue 3): labels
defined in one file and cited in another, wrapper macros around \\ref,
\\autoref and lowercase \\cref, labels with dots, \\caption[short]{long},
figure*, labels on subfigures and inside minipages, appendix figures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from fixtures.tex_tree import write

PRE = "\\documentclass{article}\n\\usepackage{graphicx}\n"
CAP = "Validation accuracy of the two models over ten epochs on CIFAR-10"
SOURCE_CODES = ("FL203", "FL301", "FL304", "FL305", "FL306", "FL307", "FL601")


def doc(body: str, pre: str = "") -> str:
    return PRE + pre + "\\begin{document}\n" + body + "\n\\end{document}\n"


def figure(label: str | None = "fig:a", graphic: str = "plot.pdf", caption: str = CAP, env: str = "figure",
           extra: str = "") -> str:
    lab = f"\\label{{{label}}}" if label else ""
    return (f"\\begin{{{env}}}[t]\n\\centering\n\\includegraphics[width=\\linewidth]{{{graphic}}}\n"
            f"\\caption{{{caption}}}{lab}{extra}\n\\end{{{env}}}\n")


def lint(root: Path, main: str = "main.tex", config: Config | None = None, graphics=("plot.pdf",)):
    for g in graphics:
        p = root / g
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"%PDF-1.4\n")
    result = lint_path(str(root / main), config or Config(select=["ALL"]))
    assert result.error is None, result.error
    return result


def got(result, codes=SOURCE_CODES) -> set[tuple[str, str | None]]:
    return {(f.code, f.figure or None) for f in result.findings if f.code in codes}


def by_code(result, code: str) -> list:
    return [f for f in result.findings if f.code == code]


# ---------------------------------------------------------------- clean papers: nothing fires

def test_label_in_one_file_cited_in_another(tmp_path):
    write(tmp_path, {
        "main.tex": doc("\\input{sections/intro}\n\\input{sections/results}\n"),
        "sections/intro.tex": "As Figure~\\ref{fig:res.acc} shows, accuracy rises with depth.\n",
        "sections/results.tex": figure("fig:res.acc"),
    })
    assert got(lint(tmp_path), SOURCE_CODES[:-1]) == set()


def test_wrapper_macro_autoref_and_lowercase_cref_count_as_citations(tmp_path):
    pre = ("\\usepackage{hyperref}\n\\usepackage{cleveref}\n"
           "\\newcommand{\\figg}[1]{Figure~\\ref{fig:#1}}\n\\def\\Fig#1{Fig.~\\ref{#1}}\n")
    body = ("\\figg{one} shows the first result in detail.\n"
            "\\Fig{fig:two} shows that the second variant is slower.\n"
            "As \\autoref{fig:three} shows, the third one converges.\n"
            "The curves in \\cref{fig:four,fig:five} are flat after epoch 3.\n"
            + "".join(figure(f"fig:{n}") for n in ("one", "two", "three", "four", "five")))
    write(tmp_path, {"main.tex": doc(body, pre)})
    assert got(lint(tmp_path), SOURCE_CODES[:-1]) == set()


def test_short_caption_figure_star_subfigure_and_minipage_labels(tmp_path):
    pre = "\\usepackage{subcaption}\n"
    body = (
        "Figure~\\ref{fig:short} shows the loss. Figure~\\ref{fig:wide} spans both columns.\n"
        "Panel~\\ref{fig:sub-left} shows the left half of the grid.\n"
        "Figure~\\ref{fig:mini} shows the minipage result.\n"
        "\\begin{figure}\\centering\\includegraphics{plot.pdf}"
        "\\caption[Loss]{Training loss of the three optimisers over 90 epochs}\\label{fig:short}\\end{figure}\n"
        + figure("fig:wide", env="figure*")
        + "\\begin{figure}\\centering\n"
        "\\begin{subfigure}{0.45\\linewidth}\\includegraphics{plot.pdf}\\caption{Left}\\label{fig:sub-left}"
        "\\end{subfigure}\n"
        "\\begin{subfigure}{0.45\\linewidth}\\includegraphics{plot.pdf}\\caption{Right}\\end{subfigure}\n"
        "\\caption{Accuracy on the left and right halves of the grid}\\end{figure}\n"
        "\\begin{figure}\\centering\\begin{minipage}{0.5\\linewidth}\\includegraphics{plot.pdf}"
        "\\caption{Minipage result of the ablation study}\\label{fig:mini}\\end{minipage}\\end{figure}\n"
    )
    write(tmp_path, {"main.tex": doc(body, pre)})
    assert got(lint(tmp_path), SOURCE_CODES[:-1]) == set()


def test_label_inside_the_graphics_options_names_the_subfigure(tmp_path):
    # `\includegraphics[width=.45\textwidth\label{fig:x}]{...}`: LaTeX runs the \label while it
    # reads the keys, so it names the sub-figure being captioned; the figure is citable through it
    pre = "\\usepackage{subfig}\n"
    body = ("Panels~\\ref{fig:left} and~\\ref{fig:right} compare both runs.\n"
            "\\begin{figure}\\centering\n"
            "\\subfloat[Left run]{\\includegraphics[width=0.45\\textwidth\\label{fig:left}]{plot.pdf}}\n"
            "\\subfloat[Right run]{\\includegraphics[width=0.45\\textwidth\\label{fig:right}]{plot.pdf}}\n"
            "\\caption{Accuracy of the left and right runs over ten epochs}\\end{figure}\n"
            "\\begin{figure}\\centering\\includegraphics[width=0.5\\textwidth]{plot.pdf}\n"
            "\\caption{A second figure without any label at all, for contrast}\\end{figure}\n")
    write(tmp_path, {"main.tex": doc(body, pre)})
    result = lint(tmp_path)
    assert got(result, ("FL203", "FL304")) == {("FL203", "2")}


# ---------------------------------------------------------------- FL301 / FL305 split

def test_cited_only_by_hardcoded_text_is_fl305_not_fl301(tmp_path):
    body = ("Figure 1 shows the loss, and Figs.~1 and~2 compare both runs.\n"
            "Unlike Figure 2 in \\cite{smith}, we plot every epoch.\n"
            + figure("fig:a") + figure(None, caption="Second figure with its own specific caption text"))
    write(tmp_path, {"main.tex": doc(body)})
    result = lint(tmp_path)
    assert ("FL301", "1") not in got(result) and ("FL301", "2") not in got(result)
    hard = by_code(result, "FL305")
    assert [(f.location.line, f.location.column) for f in hard] == [(4, 1), (4, 30)]
    assert hard[0].figure == "1" and "\\ref{fig:a}" in hard[0].message
    assert hard[1].evidence["figures"] == ["1", "2"]
    assert ("FL203", "2") in got(result)  # figure 2 has no label at all


def test_a_list_of_figure_legends_headed_by_their_names_is_not_hardcoded(tmp_path):
    # a manuscript that ends with its legends listed (`\item[Figure 1] \textbf{Title.} ...`,
    # as journals ask of submissions) names each figure to head its legend: no \ref belongs
    # there (field audit: six false FL305 on a Nature Communications manuscript)
    body = ("Figure~\\ref{fig:a} shows the loss; Figure 2 compares both runs.\n" + figure("fig:a")
            + figure("fig:b", caption="Second figure with its own specific caption text")
            + "\\section*{Figure captions}\n\\begin{description}\n"
            "\\item[Figure 1] \\textbf{Loss per epoch.} The loss of both runs.\n"
            "\\item[Figure 2] \\textbf{Both runs.} Accuracy of both runs.\n\\end{description}\n")
    write(tmp_path, {"main.tex": doc(body)})
    hard = by_code(lint(tmp_path), "FL305")
    assert [(f.figure, f.location.line) for f in hard] == [("2", 4)]  # the typed "Figure 2" of the text


def test_never_mentioned_figure_is_fl301_also_in_the_appendix(tmp_path):
    body = ("Figure~\\ref{fig:a} shows that accuracy rises with depth.\n" + figure("fig:a")
            + figure("fig:b") + "\\appendix\n\\section{More}\n" + figure("fig:app"))
    write(tmp_path, {"main.tex": doc(body)})
    cfg = Config(select=["ALL"], options={"appendix-severity": "note"})
    result = lint(tmp_path, config=cfg)
    uncited = {f.figure: f.severity for f in by_code(result, "FL301")}
    assert uncited == {"2": "warning", "3": "note"}


# ---------------------------------------------------------------- FL203

def test_missing_label_on_figure_and_captionof(tmp_path):
    pre = "\\usepackage{caption}\n"
    body = ("Figure 1 and Figure 2 are typed by hand.\n" + figure(None)
            + "\\begin{minipage}{\\linewidth}\\includegraphics{plot.pdf}"
            "\\captionof{figure}{A captionof figure with a specific caption}\\end{minipage}\n"
            + "\\begin{figure}\\includegraphics{plot.pdf}\\end{figure}\n")  # uncaptioned: FL201, not FL203
    write(tmp_path, {"main.tex": doc(body, pre)})
    result = lint(tmp_path)
    assert {k for k in got(result) if k[0] == "FL203"} == {("FL203", "1"), ("FL203", "2")}
    assert any(f.code == "FL201" for f in result.findings)


def test_label_redefined_later_leaves_the_first_figure_without_one(tmp_path):
    body = ("Figure~\\ref{fig:x} shows the second one.\n" + figure("fig:x") + figure("fig:x"))
    write(tmp_path, {"main.tex": doc(body)})
    result = lint(tmp_path)
    missing = by_code(result, "FL203")
    assert [f.figure for f in missing] == ["1"]
    assert "defined again by Figure 2" in missing[0].message


# ---------------------------------------------------------------- FL304

def test_undefined_reference_location_and_suggestion(tmp_path):
    body = ("Intro text.\nAs shown in Figure~\\ref{fig:acuracy}, and in Section~\\ref{sec:nowhere}.\n"
            + figure("fig:accuracy"))
    write(tmp_path, {"main.tex": doc(body)})
    result = lint(tmp_path)
    undefined = by_code(result, "FL304")
    assert len(undefined) == 1  # the section label is not a figure's: off by default
    f = undefined[0]
    assert (f.location.file, f.location.line, f.location.column) == ("main.tex", 5, 20)
    assert f.severity == "error" and f.evidence["suggestion"] == "fig:accuracy"
    everything = lint(tmp_path, config=Config(select=["ALL"], options={"non-figure-labels": True}))
    assert len(by_code(everything, "FL304")) == 2


def test_undefined_reference_through_a_wrapper_macro(tmp_path):
    pre = "\\newcommand{\\figg}[1]{Figure~\\ref{fig:#1}}\n"
    body = "\\figg{gone} shows nothing.\n" + figure("fig:a") + "Figure~\\ref{fig:a} is fine.\n"
    write(tmp_path, {"main.tex": doc(body, pre)})
    undefined = by_code(lint(tmp_path), "FL304")
    assert [f.evidence["label"] for f in undefined] == ["fig:gone"]


def test_an_empty_reference_names_no_label(tmp_path):
    """\\ref{} prints "??" like an undefined label (issue 13: a miss of the field audit)."""
    body = "As Figure~\\ref{} shows, and Figure~\\ref{fig:a} too.\n" + figure("fig:a")
    write(tmp_path, {"main.tex": doc(body)})
    undefined = by_code(lint(tmp_path), "FL304")
    assert [f.evidence["label"] for f in undefined] == [""]
    assert "names no label" in undefined[0].message and undefined[0].evidence["suggestion"] is None


# ---------------------------------------------------------------- FL306

def test_label_before_caption_points_at_the_label(tmp_path):
    body = ("\\section{Setup}\nText.\n\\section{Results}\nFigure~\\ref{fig:loss} shows the loss.\n"
            "\\begin{figure}\n\\label{fig:loss}\n\\includegraphics{plot.pdf}\n\\caption{" + CAP + "}\n"
            "\\end{figure}\n")
    write(tmp_path, {"main.tex": doc(body)})
    result = lint(tmp_path)
    (f,) = by_code(result, "FL306")
    assert f.figure == "1" and f.location.line == 9 and f.evidence["prints"] == "2"
    assert f.evidence["references"] == 1
    assert ("FL203", "1") not in got(result)  # one defect, one finding


# ---------------------------------------------------------------- FL307

def test_missing_graphics_file_with_graphicspath(tmp_path):
    pre = "\\graphicspath{{figs/}}\n"
    body = ("Figures~\\ref{fig:a} and~\\ref{fig:b} compare both runs in detail.\n"
            + figure("fig:a", graphic="present") + figure("fig:b", graphic="absent"))
    write(tmp_path, {"main.tex": doc(body, pre)})
    result = lint(tmp_path, graphics=("figs/present.png",))
    (f,) = by_code(result, "FL307")
    assert f.figure == "2" and f.location.file == "main.tex" and f.location.line == 13
    assert f.evidence["file"] == "absent"


def test_missing_graphics_file_resolves_as_tex_live_does(tmp_path):
    """Found by a real build, so no FL307: a name relative to the main file's folder in a file
    read with \\import{sections/}{...}; a name that differs from the file's only in case
    (TeX Live folds case when the exact name is missing); mwe's placeholder example-image,
    which TeX Live installs. A file that is nowhere is still reported."""
    body = ("Figures~\\ref{fig:a}, \\ref{fig:b}, \\ref{fig:c} and~\\ref{fig:d} compare the runs.\n"
            "\\import{sections/}{results.tex}\n"
            + figure("fig:b", graphic="figs/Accuracy_Plot") + figure("fig:c", graphic="example-image-a")
            + figure("fig:d", graphic="figs/nowhere"))
    write(tmp_path, {"main.tex": doc(body, "\\usepackage{import}\n"),
                     "sections/results.tex": figure("fig:a", graphic="figs/in_top_folder.pdf")})
    result = lint(tmp_path, graphics=("figs/in_top_folder.pdf", "figs/accuracy_plot.pdf"))
    assert [(f.figure, f.evidence["file"]) for f in by_code(result, "FL307")] == [("4", "figs/nowhere")]


def test_graphicspath_set_in_a_local_package(tmp_path):
    """A house style (style.sty beside the paper) that sets \\graphicspath{{figures/}}: bare
    names in a section file are found there; a name that is nowhere is still reported."""
    body = ("Figures~\\ref{fig:a} and~\\ref{fig:b} compare the runs.\n\\input{sections/results}\n")
    write(tmp_path, {"main.tex": doc(body, "\\usepackage{style}\n"),
                     "style.sty": "\\RequirePackage{graphicx}\n\\graphicspath{{./}{figures/}}\n",
                     "sections/results.tex": figure("fig:a", graphic="chi2") + figure("fig:b", graphic="absent")})
    result = lint(tmp_path, graphics=("figures/chi2.pdf",))
    assert [(f.figure, f.evidence["file"]) for f in by_code(result, "FL307")] == [("2", "absent")]


# ---------------------------------------------------------------- FL601

def test_alt_text_off_by_default_and_its_three_forms(tmp_path):
    pre = "\\usepackage{tikz}\n\\providecommand{\\Description}[1]{}\n"
    body = (
        "Figures~\\ref{fig:a}, \\ref{fig:b}, \\ref{fig:c}, \\ref{fig:d} and \\ref{fig:e} matter.\n"
        + figure("fig:a")  # no alt text
        + "\\begin{figure}\\includegraphics[alt={Bar chart of accuracy}]{plot.pdf}\\caption{" + CAP
        + " b}\\label{fig:b}\\end{figure}\n"
        + figure("fig:c", extra="\\Description{Bar chart: accuracy per model.}")
        + "\\begin{figure}\\begin{tikzpicture}\\draw (0,0) -- (1,1);\\end{tikzpicture}\\caption{" + CAP
        + " d}\\label{fig:d}\\end{figure}\n"
        + "\\begin{figure}\\begin{tabular}{cc}a & b\\end{tabular}\\caption{" + CAP + " e}\\label{fig:e}"
        "\\end{figure}\n"
    )
    write(tmp_path, {"main.tex": doc(body, pre)})
    assert not by_code(lint(tmp_path, config=Config()), "FL601")
    result = lint(tmp_path, config=Config(extend_select=["FL6"]))
    assert sorted(f.figure for f in by_code(result, "FL601")) == ["1", "4"]


# ---------------------------------------------------------------- routes

@pytest.mark.parametrize("code", ["FL203", "FL304", "FL305", "FL306", "FL307", "FL601"])
def test_source_rules_run_on_sources_only(code):
    from figlint.rules.registry import get_rule

    assert get_rule(code).routes == ("latex",)


# ---------------------------------------------------------------- FL301 on a document that cites none

def test_a_document_citing_none_of_its_figures_is_one_finding(tmp_path):
    """A supplement whose figures the main article cites: its own text cites none of them.
    One FL301 finding says so, on the first figure; once the text cites any figure, each
    uncited one is reported again."""
    figs = "".join(figure(f"fig:{k}", caption=f"{CAP}, run {k}.") for k in "abc")
    write(tmp_path, {"main.tex": doc("\\section{Supplementary figures}\nThe runs follow.\n" + figs)})
    found = by_code(lint(tmp_path), "FL301")
    assert [(f.figure, "none of the 3 figures" in f.message) for f in found] == [("1", True)]
    write(tmp_path, {"main.tex": doc("\\section{Runs}\nFigure~\\ref{fig:b} shows the second run.\n" + figs)})
    found = by_code(lint(tmp_path), "FL301")
    assert sorted((f.figure, f.message) for f in found) == [
        ("1", "Figure 1 is never cited in the text"), ("3", "Figure 3 is never cited in the text")]
