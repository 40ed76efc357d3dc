"""A figure in an appendix that the text names as a whole is reached through the appendix.

Papers send their reader to an appendix ("the curves of every run are in Appendix A") and set
figures there that no sentence cites on its own. The field audit judged FL301 (uncited) and
FL203 (no label) on such figures of no consequence on every paper where they fired; they are
not reported, on either route, while a figure in an appendix the text never names still is.
Compiled with pdflatex; both routes read the same paper and must agree.
"""

from __future__ import annotations

from figlint.config import Config
from figlint.engine import lint_path
from fixtures.pdf_build import compile_tex


def _paper(pointer: str) -> str:
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            "\\section{Results}\\label{sec:res}\n"
            "Figure~\\ref{fig:main} shows the accuracy of the model over the ten training runs. " + pointer + "\n"
            "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}"
            "\\caption{Accuracy of the model over ten training runs.}\\label{fig:main}\\end{figure}\n"
            "\\clearpage\n\\appendix\n\\section{Every run}\\label{app:runs}\n"
            "The loss of each run is drawn below, one curve per seed.\n"
            "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}"
            "\\caption{Loss of every run over the training steps, one curve per seed.}\\end{figure}\n"
            "\\end{document}\n")


def _codes(folder, source: bool) -> dict[str, list[str]]:
    target = folder / ("main.tex" if source else "main.pdf")
    cfg = Config(select=["FL301", "FL203"], pdf=str(folder / "main.pdf") if source else None)
    out: dict[str, list[str]] = {}
    for f in lint_path(str(target), cfg).findings:
        out.setdefault(f.code, []).append(f.figure)
    return out


def test_an_appendix_the_text_names_carries_its_figures(tmp_path, pdflatex):
    for pointer in ("The loss of every run is in Appendix~\\ref{app:runs}.",
                    "The loss of every run is in the appendix."):
        folder = tmp_path / str(len(pointer))
        folder.mkdir()
        compile_tex(folder, _paper(pointer), {"plot.png": ((400, 200), (90, 140, 200))})
        for source in (False, True):
            assert _codes(folder, source) == {}, (pointer, source, _codes(folder, source))


def test_an_appendix_whose_figures_are_cited_one_by_one_does_not(tmp_path, pdflatex):
    """The text names the appendix but also cites a figure set there on its own: the paper cites
    its appendix figures one by one, so the one it leaves out is reported."""
    tex = _paper("The loss of every run is in Appendix~\\ref{app:runs}.").replace(
        "one curve per seed.}\\end{figure}\n\\end{document}",
        "one curve per seed.}\\end{figure}\n"
        "Figure~\\ref{fig:lr} shows the learning rate of every run, which falls in steps.\n"
        "\\begin{figure}[h]\\centering\\includegraphics[width=4cm]{plot.png}"
        "\\caption{Learning rate of every run over the training steps.}\\label{fig:lr}\\end{figure}\n\\end{document}")
    assert "fig:lr" in tex
    compile_tex(tmp_path, tex, {"plot.png": ((400, 200), (90, 140, 200))})
    for source in (False, True):
        assert len(_codes(tmp_path, source).get("FL301", [])) == 1, (source, _codes(tmp_path, source))


def test_an_appendix_the_text_never_names_does_not(tmp_path, pdflatex):
    compile_tex(tmp_path, _paper(""), {"plot.png": ((400, 200), (90, 140, 200))})
    assert _codes(tmp_path, False) == {"FL301": ["A1"]} or _codes(tmp_path, False) == {"FL301": ["2"]}
    got = _codes(tmp_path, True)
    assert set(got) == {"FL301", "FL203"} and len(got["FL301"]) == 1, got


def test_numbering_settles_which_figures_are_the_appendix_s():
    """Lettered appendix figures: the main series is the main text's wherever it prints (all
    figures collected at the end of a manuscript); a plain number after chapter numbers starts an
    appendix that prints no heading of its own."""
    from figlint.ingest.appendix import settle_appendix
    from figlint.model import Figure

    end = [Figure(number=n, in_appendix=True) for n in ("1", "2", "A1", "A2")]
    settle_appendix(end)
    assert [f.in_appendix for f in end] == [False, False, True, True]
    dotted = [Figure(number=n, in_appendix=a) for n, a in (("1\u00b71", False), ("A\u00b71", True), ("C1", True))]
    settle_appendix(dotted)  # a thesis style's centred dot: "A·1" is lettered too
    assert [f.in_appendix for f in dotted] == [False, True, True]
    thesis = [Figure(number=n) for n in ("3.1", "5.2", "1", "2")]
    settle_appendix(thesis)
    assert [f.in_appendix for f in thesis] == [False, False, True, True]
    one = [Figure(number=n) for n in ("0.1", "2", "3")]  # one figure numbered apart is no series
    settle_appendix(one)
    assert not any(f.in_appendix for f in one)
    plain = [Figure(number=n) for n in ("1", "2", "3")]
    settle_appendix(plain)
    assert not any(f.in_appendix for f in plain)


def _sections_paper(pointer: str, headings: str = "numbered") -> str:
    """Three appendices: A's figure cited on its own, B's and C's not; `pointer` names some."""
    def head(letter: str, title: str, label: str) -> str:
        if headings == "numbered":
            return f"\\section{{{title}}}\\label{{{label}}}\n"
        return f"\\section*{{Appendix {letter}: {title}}}\n"

    fig = ("\\begin{{figure}}[h]\\centering\\includegraphics[width=3cm]{{plot.png}}"
           "\\caption{{{}}}{}\\end{{figure}}\n")
    return ("\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
            "\\section{Results}\n"
            "Figure~\\ref{fig:main} shows the accuracy of the model over the ten training runs. " + pointer + "\n"
            + fig.format("Accuracy of the model over ten training runs.", "\\label{fig:main}")
            + "\\clearpage\n\\appendix\n"
            + head("A", "Learning rates", "app:a")
            + "Figure~\\ref{fig:lr} shows the learning rate of every run, which falls in steps.\n"
            + fig.format("Learning rate of every run over the training steps.", "\\label{fig:lr}")
            + "\\clearpage\n" + head("B", "Every run", "app:b")
            + "The loss of each run is drawn below, one curve per seed.\n"
            + fig.format("Loss of every run over the training steps, one curve per seed.", "")
            + "\\clearpage\n" + head("C", "Gradients", "app:c")
            + "The gradient norms follow.\n"
            + fig.format("Gradient norm of every run over the training steps.", "")
            + "\\end{document}\n")


def test_a_named_appendix_carries_its_figures_though_another_s_are_cited(tmp_path, pdflatex):
    """The text names Appendix B (by reference, or typed with its letter on an unnumbered
    heading): B's figure is reached through it although a figure of Appendix A is cited on its
    own. C's figure, in an appendix the text never names, is still reported, on both routes."""
    cases = {"numbered": "The loss of every run is in Appendix~\\ref{app:b}.",
             "typed": "The loss of every run is shown in Appendix~B."}
    for headings, pointer in cases.items():
        folder = tmp_path / headings
        folder.mkdir()
        compile_tex(folder, _sections_paper(pointer, headings), {"plot.png": ((400, 200), (90, 140, 200))})
        for source in (False, True):
            got = _codes(folder, source)
            assert len(got.get("FL301", [])) == 1, (headings, source, got)
            # the one reported is the last appendix's figure (C), whatever the route numbers it
            assert got["FL301"][0] in ("4", "C1"), (headings, source, got)


def test_appendix_names_read_from_text():
    from figlint.ingest.appendix import named_appendices

    assert named_appendices("the curves are in Appendix C.") == ({"C"}, False)
    assert named_appendices("see Appendices B and D, and App. E.2") == ({"B", "D", "E"}, False)
    assert named_appendices("Appendices A--C hold the proofs") == ({"A", "B", "C"}, False)
    assert named_appendices("the proofs are in the appendix") == (set(), True)
    assert named_appendices("in Appendix~\\ref{app:x}") == (set(), False)


def test_appendix_headings_in_capitals(tmp_path, pdflatex):
    """Section titles set in capitals (ICLR's small capitals extract as "A GAME MODES"): the PDF
    route finds the appendix at its first lettered heading as it does "A Game modes", so the
    figure of the named appendix is reached through it (field audit: an ICLR submission's
    appendix was never found on the PDF route)."""
    tex = _paper("The loss of every run is in Appendix~\\ref{app:runs}.")
    tex = tex.replace("\\section{Results}", "\\section{\\MakeUppercase{Results}}")
    tex = tex.replace("\\section{Every run}", "\\section{\\MakeUppercase{Every run}}")
    compile_tex(tmp_path, tex, {"plot.png": ((400, 200), (90, 140, 200))})
    for source in (False, True):
        assert _codes(tmp_path, source) == {}, (source, _codes(tmp_path, source))
