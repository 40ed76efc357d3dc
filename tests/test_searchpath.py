"""Where the author's build finds inputs: text macros in include paths, TEXINPUTS from the
environment or a latexmkrc, and the hint when an include sits above the paper's folder.

Each fixture is a small project written to tmp_path by the test (a `.git` folder marks the
project root, as in a paper repository).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from figlint.cli import main
from figlint.ingest.latex import read_latex
from fixtures.tex_tree import write

PRE = "\\documentclass{article}\n\\usepackage{graphicx}\n\\usepackage{import}\n"
FIG = "\\begin{figure}\n\\includegraphics{%s}\n\\caption{Cap %s.}\n\\label{fig:%s}\n\\end{figure}\nSee Figure~\\ref{fig:%s}.\n"


def doc(body: str, pre: str = "") -> str:
    return PRE + pre + "\\begin{document}\n" + body + "\n\\end{document}\n"


def fl005(paper):
    return [p for p in paper.problems if p.code == "FL005"]


def test_import_path_built_from_a_text_macro_is_followed(tmp_path):
    # \def\PATH{.} then \import{\PATH/ch1/}{ch1}: LaTeX expands the macro; so must figlint
    write(tmp_path, {
        "main.tex": doc("\\import{\\PATH/ch1/}{ch1}\n\\input{\\secdir/two}\n",
                        pre="\\def\\PATH{.}\n\\newcommand{\\secdir}{sections}\n"),
        "ch1/ch1.tex": FIG % ("a.png", "one", "one", "one"),
        "sections/two.tex": FIG % ("b.png", "two", "two", "two"),
    })
    paper = read_latex(str(tmp_path / "main.tex"))
    assert fl005(paper) == []
    assert [f.number for f in paper.figures] == ["1", "2"]
    assert paper.figures[0].location.file == "ch1/ch1.tex"
    assert paper.figures[1].location.file == "sections/two.tex"


def test_unknown_macro_in_a_path_is_left_alone_not_reported_missing(tmp_path):
    write(tmp_path, {"main.tex": doc("\\input{\\undefineddir/x}\n" + FIG % ("a.png", "k", "k", "k"))})
    paper = read_latex(str(tmp_path / "main.tex"))
    assert fl005(paper) == []
    assert [f.number for f in paper.figures] == ["1"]


def _texinputs_project(tmp_path: Path) -> Path:
    # a repository whose main file sits in Content/ and whose sections, class-free
    # helpers and figures sit one level up, found by the author's `TEXINPUTS=..: latexmk`
    (tmp_path / ".git").mkdir()
    write(tmp_path, {
        "Content/Main.tex": doc("\\input{Intro}\n"),
        "Intro.tex": FIG % ("plot.png", "intro", "intro", "intro"),
        "plot.png": "not really a png",
    })
    return tmp_path / "Content" / "Main.tex"


def test_include_above_the_folder_is_a_note_saying_where_the_build_finds_it(tmp_path, monkeypatch):
    monkeypatch.delenv("TEXINPUTS", raising=False)
    main_tex = _texinputs_project(tmp_path)
    paper = read_latex(str(main_tex))
    (p,) = fl005(paper)
    assert p.severity == "note"
    assert "../Intro.tex" in p.message and "TEXINPUTS" in p.message
    assert paper.figures == []


def test_texinputs_from_the_environment_is_searched_inside_the_project(tmp_path, monkeypatch):
    main_tex = _texinputs_project(tmp_path)
    monkeypatch.setenv("TEXINPUTS", "..:")
    paper = read_latex(str(main_tex))
    assert fl005(paper) == []
    assert [f.number for f in paper.figures] == ["1"]
    f = paper.figures[0]
    assert f.location.file == "Intro.tex"  # the tree widened to the project: paths from its root
    assert f.graphics == ["plot.png"]
    assert not [p for p in paper.problems if p.code in ("FL003", "FL307")]


def test_texinputs_from_latexmkrc_is_read_as_text(tmp_path, monkeypatch):
    monkeypatch.delenv("TEXINPUTS", raising=False)
    main_tex = _texinputs_project(tmp_path)
    marker = tmp_path / "ran"
    (main_tex.parent / "latexmkrc").write_text(
        f"# set by the author\nensure_path('TEXINPUTS', '../');\nsystem('touch {marker}');\n")
    paper = read_latex(str(main_tex))
    assert fl005(paper) == [] and [f.number for f in paper.figures] == ["1"]
    assert not marker.exists()  # a latexmkrc is read, never run


def test_texinputs_never_leaves_the_project(tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    write(outside, {"Secret.tex": FIG % ("s.png", "s", "s", "s")})
    proj = tmp_path / "proj"
    (proj / ".git").mkdir(parents=True)
    write(proj, {"main.tex": doc("\\input{Secret}\n")})
    monkeypatch.setenv("TEXINPUTS", f"{outside}:../outside:/etc:")
    paper = read_latex(str(proj / "main.tex"))
    assert paper.figures == []
    (p,) = fl005(paper)
    assert p.severity is None and "file not found" in p.message
    assert paper.extra["sources"] == ["main.tex"]


def test_without_a_project_root_texinputs_is_not_followed(tmp_path, monkeypatch):
    write(tmp_path, {"paper/main.tex": doc("\\input{Up}\n"), "Up.tex": FIG % ("u.png", "u", "u", "u")})
    monkeypatch.setenv("TEXINPUTS", "..:")
    paper = read_latex(str(tmp_path / "paper" / "main.tex"))
    assert paper.figures == [] and len(fl005(paper)) == 1


def test_the_note_does_not_fail_the_run(tmp_path, monkeypatch):
    monkeypatch.delenv("TEXINPUTS", raising=False)
    main_tex = _texinputs_project(tmp_path)
    res = CliRunner().invoke(main, [str(main_tex), "--no-cache", "--format", "json"])
    data = json.loads(res.stdout)
    found = [f for p in data["papers"] for f in p["findings"] if f["code"] == "FL005"] \
        if "papers" in data else [f for f in data["findings"] if f["code"] == "FL005"]
    assert [f["severity"] for f in found] == ["note"]
    assert res.exit_code == 0, res.output


def test_the_builds_own_record_of_its_inputs_is_a_search_path(tmp_path, monkeypatch, pdflatex):
    """The author built with `TEXINPUTS=..:` in their shell; figlint runs without it. The
    build's .fls (latexmk, `pdflatex -recorder`) says it read ../Figures/Fig1.tex: that folder
    and the project folder above it are searched, as the build did (inside the project only)."""
    import os
    import subprocess

    from PIL import Image

    (tmp_path / ".git").mkdir()
    write(tmp_path, {
        "Content/Main.tex": doc("See Figure~\\ref{fig:one} for the counts over time.\n\\input{Figures/Fig1}\n"),
        "Figures/Fig1.tex": "\\begin{figure}\\centering\\includegraphics[width=3cm]{Figures/plot.png}"
                            "\\caption{Counts over time.}\\label{fig:one}\\end{figure}\n",
    })
    Image.new("RGB", (60, 40), (90, 140, 200)).save(tmp_path / "Figures" / "plot.png")
    env = {**os.environ, "TEXINPUTS": "..:"}
    subprocess.run(["pdflatex", "-recorder", "-interaction=batchmode", "Main.tex"], cwd=tmp_path / "Content",
                   env=env, capture_output=True, timeout=120)
    assert "../Figures/Fig1.tex" in (tmp_path / "Content" / "Main.fls").read_text()
    monkeypatch.delenv("TEXINPUTS", raising=False)
    paper = read_latex(str(tmp_path / "Content" / "Main.tex"))
    assert fl005(paper) == []
    assert [f.number for f in paper.figures] == ["1"]
    # without the record, the include is a note saying where the build would find it
    (tmp_path / "Content" / "Main.fls").unlink()
    assert [p.severity for p in fl005(read_latex(str(tmp_path / "Content" / "Main.tex")))] == ["note"]


def test_a_label_in_an_unread_file_is_not_undefined_when_the_aux_knows_it(tmp_path, monkeypatch, pdflatex):
    """The same build, unpacked without its repository (no `.git`: a downloaded archive):
    figlint cannot follow the include above the main file's folder (FL005 says so), but the
    build's .aux records the label it defines, so its `\\ref` is no undefined reference
    (FL304): LaTeX printed a number for it. A label the .aux does not know still is."""
    import os
    import subprocess

    from PIL import Image

    from figlint.config import Config
    from figlint.engine import lint_path

    write(tmp_path, {
        "Content/Main.tex": doc("See Figure~\\ref{fig:one} for the counts, and Figure~\\ref{fig:typo}.\n"
                                "\\input{Figures/Fig1}\n"),
        "Figures/Fig1.tex": "\\begin{figure}\\centering\\includegraphics[width=3cm]{Figures/plot.png}"
                            "\\caption{Counts over time.}\\label{fig:one}\\end{figure}\n",
    })
    Image.new("RGB", (60, 40), (90, 140, 200)).save(tmp_path / "Figures" / "plot.png")
    env = {**os.environ, "TEXINPUTS": "..:"}
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=batchmode", "Main.tex"], cwd=tmp_path / "Content",
                       env=env, capture_output=True, timeout=120)
    assert "\\newlabel{fig:one}" in (tmp_path / "Content" / "Main.aux").read_text()
    monkeypatch.delenv("TEXINPUTS", raising=False)
    res = lint_path(str(tmp_path / "Content" / "Main.tex"), Config(select=["ALL"]))
    undefined = [f.evidence["label"] for f in res.findings if f.code == "FL304"]
    assert undefined == ["fig:typo"]
    assert any(f.code == "FL005" for f in res.findings)


def _fl307(main_tex):
    from figlint.config import Config
    from figlint.engine import lint_path

    return [f for f in lint_path(str(main_tex), Config(select=["FL307"])).findings if f.code == "FL307"]


def _png(path: Path) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (60, 40), (90, 140, 200)).save(path)


def test_a_latexmkrc_above_the_main_file_sets_the_search_path_of_its_folder(tmp_path, monkeypatch):
    """latexmk run from the repository's root, its .latexmkrc naming src/main.tex and a search
    path written with Windows separators and trees: `.;./src//;./fig//;` (kpathsea reads ';'
    too, and `dir//` searches every folder below). A section in src/sections/, a graphic by
    bare name in fig/tof/, another named from the root: all found as the build finds them."""
    monkeypatch.delenv("TEXINPUTS", raising=False)
    (tmp_path / ".git").mkdir()
    write(tmp_path, {
        ".latexmkrc": "@default_files = ('src/main.tex');\n$out_dir = 'build';\n"
                      "$ENV{TEXINPUTS} = \".;./src//;./fig//;\";\n",
        "src/main.tex": doc("\\input{intro}\n" + FIG % ("fig/readout/board.png", "two", "two", "two")),
        "src/sections/intro.tex": FIG % ("tofCR.png", "one", "one", "one"),
    })
    _png(tmp_path / "fig" / "tof" / "tofCR.png")
    _png(tmp_path / "fig" / "readout" / "board.png")
    paper = read_latex(str(tmp_path / "src" / "main.tex"))
    assert fl005(paper) == [] and [f.number for f in paper.figures] == ["1", "2"]
    assert _fl307(tmp_path / "src" / "main.tex") == []
    (tmp_path / ".latexmkrc").unlink()  # the build's path unknown: the section and both graphics are missing
    assert len(fl005(read_latex(str(tmp_path / "src" / "main.tex")))) == 1


def test_the_builds_record_in_its_output_folder_names_a_subfolder_it_searched(tmp_path, monkeypatch, pdflatex):
    """A build script ran `TEXINPUTS=.:./figures/: pdflatex -recorder -output-directory=build`:
    `\\includegraphics{plot}` was read from figures/plot.png. The record sits in build/ (the
    latexmkrc's $out_dir); its input in a folder below the main file's is searched too."""
    import os
    import subprocess

    (tmp_path / ".git").mkdir()
    write(tmp_path, {"paper/main.tex": doc("See Figure~\\ref{fig:p}.\n" + FIG % ("plot", "p", "p", "p")),
                     "paper/latexmkrc": "$out_dir = 'build';\n"})
    _png(tmp_path / "paper" / "figures" / "plot.png")
    (tmp_path / "paper" / "build").mkdir()
    subprocess.run(["pdflatex", "-recorder", "-interaction=batchmode", "-output-directory=build", "main.tex"],
                   cwd=tmp_path / "paper", env={**os.environ, "TEXINPUTS": ".:./figures/:"}, capture_output=True,
                   timeout=120)
    assert "figures/plot.png" in (tmp_path / "paper" / "build" / "main.fls").read_text()
    monkeypatch.delenv("TEXINPUTS", raising=False)
    assert _fl307(tmp_path / "paper" / "main.tex") == []
    (tmp_path / "paper" / "build" / "main.fls").unlink()
    assert len(_fl307(tmp_path / "paper" / "main.tex")) == 1


def test_files_the_tex_distribution_provides_are_no_missing_inputs(tmp_path, pdflatex):
    """`\\input{glyphtounicode}` (AAAI, IEEE and thesis templates) and other files a build reads
    from TeX Live are not the paper's to ship: no FL005. Known by name, or by the build's own
    record (`pdflatex -recorder` / latexmk's .fls) of what it read from outside the project;
    a file of the paper that is missing is still reported."""
    import subprocess

    (tmp_path / ".git").mkdir()
    (tmp_path / "main.tex").write_text(doc("Hello.", pre="\\input{glyphtounicode}\n\\input glyphtounicode-cmr.tex\n"
                                                     "\\pdfgentounicode=1\n\\input{random}\n"))
    subprocess.run(["pdflatex", "-interaction=batchmode", "-recorder", "main.tex"], cwd=tmp_path,
                   capture_output=True, timeout=120)
    assert "random.tex" in (tmp_path / "main.fls").read_text()  # the build read it from TeX Live
    assert fl005(read_latex(str(tmp_path / "main.tex"))) == []
    (tmp_path / "main.fls").unlink()  # no record: only the names figlint knows are the distribution's
    assert [p.message for p in fl005(read_latex(str(tmp_path / "main.tex")))] == ["\\input{random}: file not found"]
    (tmp_path / "main.tex").write_text(doc("Hello.", pre="\\input{glyphtounicode}\n\\input{mytables}\n"))
    assert [p.message for p in fl005(read_latex(str(tmp_path / "main.tex")))] == ["\\input{mytables}: file not found"]


def test_a_file_name_written_with_string_or_detokenize_is_the_name_tex_reads(tmp_path, pdflatex):
    """Underscores in graphics names written as `\\string_` (knitr and hand-written papers) or
    inside `\\detokenize{...}` are the file's own underscores: pdflatex reads the files, and
    the sources route finds them too (no FL307); a name that is really missing is reported."""
    import subprocess

    (tmp_path / ".git").mkdir()
    body = (FIG % ("plots/pre\\string_test\\string_main.png", "a", "a", "a")
            + FIG % ("\\detokenize{plots/post_test}.png", "b", "b", "b"))
    (tmp_path / "main.tex").write_text(doc(body))
    _png(tmp_path / "plots" / "pre_test_main.png")
    _png(tmp_path / "plots" / "post_test.png")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"], cwd=tmp_path,
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stdout[-800:]
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.graphics for f in paper.figures] == [["plots/pre_test_main.png"], ["plots/post_test.png"]]
    assert _fl307(tmp_path / "main.tex") == []
    (tmp_path / "plots" / "post_test.png").unlink()
    assert [f.figure for f in _fl307(tmp_path / "main.tex")] == ["2"]


def test_an_eps_printed_through_its_epstopdf_conversion_is_found(tmp_path, pdflatex):
    """`\\includegraphics{figs/a.eps}` prints through epstopdf's `figs/a-eps-converted-to.pdf`;
    a repository may keep only that conversion (the build warns the .eps is missing and prints
    the PDF): the sources route finds the graphic (no FL307), as it does the .eps when present;
    with neither file the figure is reported."""
    import subprocess

    import pymupdf

    (tmp_path / ".git").mkdir()
    (tmp_path / "figs").mkdir()
    d = pymupdf.open()
    d.new_page(width=100, height=80).draw_rect(pymupdf.Rect(10, 10, 90, 70), color=(1, 0, 0))
    d.save(tmp_path / "figs" / "a-eps-converted-to.pdf")
    (tmp_path / "main.tex").write_text(doc(FIG % ("figs/a.eps", "a", "a", "a")))
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "main.tex"], cwd=tmp_path,
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stdout[-800:]
    with pymupdf.open(tmp_path / "main.pdf") as out:
        assert out[0].get_drawings()  # the conversion printed
    paper = read_latex(str(tmp_path / "main.tex"))
    assert [f.graphics for f in paper.figures] == [["figs/a-eps-converted-to.pdf"]]
    assert _fl307(tmp_path / "main.tex") == []
    (tmp_path / "figs" / "a-eps-converted-to.pdf").unlink()
    assert [f.figure for f in _fl307(tmp_path / "main.tex")] == ["1"]
