"""Run every per-rule fixture case through the real pipeline: pdflatex -> figlint.

Each case is compiled once (a paper pdflatex must reject, `compiles=False`, is only
written out) and linted on each of its routes: the compiled PDF, the .tex sources
when its rule runs on them (source-only rules run on the .tex only), and, for cases
that ask for it, the sources in a folder without the compiled PDF.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from fixtures.all_cases import CASES, GENERATORS
from fixtures.rule_cases import Case, document
from figlint.config import Config
from figlint.engine import run
from figlint.rules.registry import get_rule

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")


def case_routes(case: Case) -> tuple[str, ...]:
    if case.routes is not None:
        return case.routes
    return tuple(r for r in ("pdf", "latex") if r in get_rule(case.rule).routes)


PDF_CASES = [c for c in CASES if "pdf" in case_routes(c)]
LATEX_CASES = [c for c in CASES if "latex" in case_routes(c)]
SOURCES_CASES = [c for c in CASES if "sources" in case_routes(c)]


@pytest.fixture(scope="session")
def figure_files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("figfiles")
    for name, gen in GENERATORS.items():
        gen(d / name)
    return d


@pytest.fixture(scope="session")
def compiled(figure_files, tmp_path_factory):
    """case name -> its main.tex, compiled (at most once per session)."""
    done: dict[str, Path] = {}

    def get(case: Case) -> Path:
        if case.name not in done:
            done[case.name] = compile_case(case, figure_files, tmp_path_factory.mktemp(case.name))
        return done[case.name]

    return get


def compile_case(case, figure_files: Path, tmp: Path) -> Path:
    for name in case.files:
        shutil.copy(figure_files / name, tmp / name)
    tex = tmp / "main.tex"
    tex.write_text(document(case))
    if not case.compiles:
        return tex
    for _ in range(2):  # twice, so \ref numbers resolve
        proc = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"],
            cwd=tmp, capture_output=True, text=True, timeout=120,
        )
        assert proc.returncode == 0, proc.stdout[-2000:]
    return tex


def findings_of(case: Case, path: Path) -> tuple[set, list[str]]:
    result = run([str(path)], Config(select=["ALL"]))
    assert not any(r.error for r in result.results), [r.error for r in result.results]
    got = {(f.code, f.figure or None) for f in result.findings if f.code == case.rule}
    for f in result.findings:
        if f.code == case.rule and f.code[:3] in ("FL4", "FL5"):
            # misleading-design and reasoning findings name their taxonomy label, their
            # evidence, and whether the figure or the text shows the problem
            assert f.taxonomy and f.evidence and f.origin in ("figure", "text"), f
    return got, [f"{f.code} {f.location.short()}: {f.message}" for f in result.findings]


@pytest.mark.parametrize("case", PDF_CASES, ids=[c.name for c in PDF_CASES])
def test_rule_case_pdf(case, compiled):
    tex = compiled(case)
    got, messages = findings_of(case, tex.with_suffix(".pdf"))
    assert got == case.expect, messages


@pytest.mark.parametrize("case", LATEX_CASES, ids=[c.name for c in LATEX_CASES])
def test_rule_case_latex(case, compiled):
    tex = compiled(case)
    got, messages = findings_of(case, tex)
    assert got == case.expect, messages
    if case.expect:  # on the sources, every finding of the rule points at a line of a .tex file
        result = run([str(tex)], Config(select=["ALL"]))
        for f in result.findings:
            if f.code == case.rule:
                assert f.location.file and f.location.file.endswith(".tex") and f.location.line, f


@pytest.mark.parametrize("case", SOURCES_CASES, ids=[c.name for c in SOURCES_CASES])
def test_rule_case_sources_alone(case, compiled):
    tex = compiled(case)
    alone = tex.parent / "sources-alone"
    if not alone.exists():
        alone.mkdir()
        for f in tex.parent.iterdir():  # everything but LaTeX's outputs (included PDF graphics stay)
            if f.is_file() and f.name not in ("main.pdf", "main.aux", "main.log", "main.out"):
                shutil.copy(f, alone / f.name)
    got, messages = findings_of(case, alone / "main.tex")
    assert got == case.expect, messages
