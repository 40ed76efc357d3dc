"""FL007 from content, not modification times alone; FL008 after matching by number, caption, order.

A small paper is compiled by real latexmk (which records each input's MD5 in
main.fdb_latexmk). Rewriting the sources' modification times, as a fresh clone
or a `git checkout` does, must not make the PDF look stale; editing a source
must. Without latexmk's record, times are all there is.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from figlint.config import Config
from figlint.engine import lint_path

PAPER = r"""\documentclass{article}
\begin{document}
\section{Results}
Figure~\ref{fig:a} shows the accuracy of both models.
\begin{figure}[h]
\centering
\rule{4cm}{2cm}
\caption{Accuracy of the two models over ten training epochs.}
\label{fig:a}
\end{figure}
\end{document}
"""


def _latexmk(folder, text: str, files: dict[str, str] | None = None):
    """main.tex (and `files`) in `folder`, compiled by latexmk, which records its inputs."""
    if shutil.which("latexmk") is None:
        pytest.skip("latexmk not installed")
    (folder / "main.tex").write_text(text)
    for name, body in (files or {}).items():
        (folder / name).write_text(body)
    proc = subprocess.run(["latexmk", "-pdf", "-interaction=nonstopmode", "main.tex"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert (folder / "main.fdb_latexmk").is_file()
    return folder


@pytest.fixture()
def compiled(tmp_path, pdflatex):
    return _latexmk(tmp_path, PAPER)


def codes(folder) -> list[str]:
    res = lint_path(str(folder / "main.tex"), Config(select=["ALL"], pdf=str(folder / "main.pdf")))
    return [f.code for f in res.findings]


def _touch_later(path) -> None:
    later = os.path.getmtime(path) + 3600
    os.utime(path, (later, later))


def test_checkout_times_do_not_make_the_pdf_stale(compiled):
    assert "FL007" not in codes(compiled)
    _touch_later(compiled / "main.tex")  # what a fresh clone or a checkout does
    found = codes(compiled)
    assert "FL007" not in found and "FL008" not in found


def test_an_edited_source_makes_the_pdf_stale(compiled):
    tex = compiled / "main.tex"
    tex.write_text(PAPER.replace("both models", "both models and the baseline"))
    _touch_later(tex)
    assert "FL007" in codes(compiled)


# the same paper naming an input in each branch of a conditional (a template's back-end switch)
BRANCHES = PAPER.replace("\\end{document}", "\\ifbibtex\\input{backend-bibtex}\\else\\input{backend-other}\\fi\n\\end{document}")
BRANCHES = BRANCHES.replace("\\begin{document}", "\\newif\\ifbibtex\n\\begin{document}")


@pytest.fixture()
def branches(tmp_path, pdflatex):
    """A paper that names two inputs in the branches of a conditional; the compile reads one."""
    return _latexmk(tmp_path, BRANCHES, {"backend-bibtex.tex": "Read only with the other back-end.\n",
                                         "backend-other.tex": "Read by this build.\n"})


def test_an_input_of_a_branch_not_taken_is_not_new(branches):
    """The compile rightly skipped backend-bibtex.tex: the sources are as compiled."""
    assert "backend-bibtex.tex" not in (branches / "main.fls").read_text()
    assert "FL007" not in codes(branches)
    _touch_later(branches / "main.tex")  # a checkout's times change nothing either
    assert "FL007" not in codes(branches)


def test_an_unread_input_written_after_the_compile_is_new(branches):
    """The same file, written after the PDF (the author created it and did not recompile)."""
    _touch_later(branches / "backend-bibtex.tex")
    res = lint_path(str(branches / "main.tex"), Config(select=["ALL"], pdf=str(branches / "main.pdf")))
    stale = [f for f in res.findings if f.code == "FL007"]
    assert stale and "backend-bibtex.tex was added" in stale[0].message


def test_without_latexmk_record_times_decide(compiled):
    (compiled / "main.fdb_latexmk").unlink()
    assert "FL007" not in codes(compiled)
    _touch_later(compiled / "main.tex")
    assert "FL007" in codes(compiled)


def test_figures_matched_by_caption_and_order_when_numbers_differ():
    """Numbers read from the sources that differ from the printed ones (a class numbering its own
    way) still bind by caption text, then by order; only what stays unbound is FL008."""
    from figlint.ingest.merge import match_figures
    from figlint.model import Caption, Figure

    def fig(num, text):
        return Figure(number=num, caption=Caption(text=text, label=f"Figure {num}") if text else None)

    tex = [fig("1", "Accuracy of the two models."), fig("2", "Loss curves of all runs."), fig("3", "")]
    printed = [fig("1.1", "Accuracy of the two models."), fig("1.2", "Loss curves of all runs."),
               fig("1.3", "A schematic of the pipeline.")]
    pairs = match_figures(tex, printed)
    assert [pairs[id(f)].number for f in tex] == ["1.1", "1.2", "1.3"]
    # same numbers but one caption that does not fit: bound by number, the caption check reports it
    other = [fig("1", "Accuracy of the two models."), fig("2", "Something else entirely, a map of sites.")]
    pairs = match_figures(tex[:2], other)
    assert [pairs[id(f)].number for f in tex[:2]] == ["1", "2"]
