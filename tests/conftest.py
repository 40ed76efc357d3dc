"""Shared pytest fixtures.

compiled_paper / compiled_paper_two_column: the generated LaTeX paper of
tests/fixtures/latex_paper.py, compiled once per session, with its expected
facts (see fixtures.latex_paper.paper_facts). Without pdflatex they skip
locally and fail under CI (env CI set), where TeX Live must be installed.
"""

from __future__ import annotations

import os
import shutil

import pytest

# The suite exercises every rule, stable or preview (rules/registry.py): features such as
# baselines, SARIF or the GitHub Action are tested on whatever findings the fixtures give.
# Tests of the default selection itself construct Config(preview=False).
os.environ.setdefault("FIGLINT_PREVIEW", "1")


def _require_pdflatex() -> None:
    if shutil.which("pdflatex") is not None:
        return
    msg = (
        "pdflatex not found: install TeX Live (texlive-latex-base, texlive-latex-recommended, "
        "texlive-latex-extra, texlive-fonts-recommended) -- see .ci/run"
    )
    if os.environ.get("CI"):
        pytest.fail(msg + " [CI is set, so this is an error, not a skip]")
    pytest.skip(msg)


def _build(tmp_path_factory, name: str, two_column: bool):
    _require_pdflatex()
    from fixtures.latex_paper import build_paper

    return build_paper(tmp_path_factory.mktemp(name), two_column=two_column)


@pytest.fixture(scope="session")
def pdflatex() -> None:
    """Skip (locally) or fail (under CI) when pdflatex is missing."""
    _require_pdflatex()


@pytest.fixture(scope="session")
def compiled_paper(tmp_path_factory):
    """CompiledPaper(dir, tex, pdf, facts) for the one-column generated paper."""
    return _build(tmp_path_factory, "latex_paper", two_column=False)


@pytest.fixture(scope="session")
def compiled_paper_two_column(tmp_path_factory):
    """The same paper set in two columns (same figures, captions and citations)."""
    return _build(tmp_path_factory, "latex_paper_2col", two_column=True)


@pytest.fixture(scope="session")
def drawn_pdfs(tmp_path_factory):
    """PDFs drawn with PyMuPDF (tests/fixtures/make_pdfs.py): 'paper' plus the broken inputs."""
    from fixtures.make_pdfs import broken_inputs, two_column_paper

    root = tmp_path_factory.mktemp("drawn_pdfs")
    files = broken_inputs(root)
    files["paper"] = two_column_paper(root / "paper.pdf")
    return files
