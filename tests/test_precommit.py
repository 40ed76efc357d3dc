"""The pre-commit hook, for real: a temporary paper repository runs `pre-commit run --all-files`.

The hook definition is read from this checkout's .pre-commit-hooks.yaml and
installed as a `repo: local` hook, so what is tested is our manifest (files
pattern, pass_filenames, require_serial, args) with pre-commit's own runner.
Only `language: python` is swapped for `system` with this interpreter, so the
test needs no network; `FIGLINT_TRY_REPO=1` also runs `pre-commit try-repo`
against a copy of the checkout, which installs figlint into a fresh virtualenv.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from fixtures.pdfs import GENERIC_CAPTION, GOOD_CAPTION, make_paper_pdf, needs_pdf_route

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git not installed"),
    needs_pdf_route,
]


def manifest_hook() -> dict:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    (hook,) = [h for h in hooks if h["id"] == "figlint"]
    return hook


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=figlint", "-c", "user.email=figlint@example.invalid", *args],
                   cwd=repo, check=True, capture_output=True)


def pre_commit(repo: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home"), "NO_COLOR": "1",
           "PRE_COMMIT_COLOR": "never", "SKIP": ""}
    return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=repo, env=env, capture_output=True,
                          text=True, timeout=900)


@pytest.fixture
def paper_repo(tmp_path):
    repo = tmp_path / "paper-repo"
    repo.mkdir()
    git(repo, "init", "-q")
    hook = manifest_hook()
    local = {k: v for k, v in hook.items() if k not in ("language", "entry", "minimum_pre_commit_version")}
    local.update(language="system", entry=f"{sys.executable} -m figlint", args=["paper/main.pdf"])
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]}))
    (repo / "paper").mkdir()
    (repo / "README.md").write_text("A paper.\n")
    return repo


def test_manifest_is_what_the_hook_needs():
    hook = manifest_hook()
    assert hook["entry"] == "figlint" and hook["language"] == "python"
    assert hook["pass_filenames"] is False and hook["require_serial"] is True
    import re

    pattern = re.compile(hook["files"])
    for name in ("main.tex", "fig/plot.PDF", "a.png", "b.jpg", "c.jpeg", "d.eps", "e.svg", "f.pgf", "g.tikz", "paper.zip"):
        assert pattern.search(name), name
    for name in ("refs.bib", "README.md", "main.tex.bak"):
        assert not pattern.search(name), name
    proc = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_failing_then_passing_paper(paper_repo):
    make_paper_pdf(paper_repo / "paper" / "main.pdf", GENERIC_CAPTION)
    git(paper_repo, "add", "-A")
    proc = pre_commit(paper_repo, "run", "--all-files")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "figlint" in proc.stdout and "Failed" in proc.stdout
    assert "FL202 [generic-caption] Figure 1" in proc.stdout

    make_paper_pdf(paper_repo / "paper" / "main.pdf", GOOD_CAPTION)
    git(paper_repo, "add", "-A")
    proc = pre_commit(paper_repo, "run", "--all-files")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout


def test_skipped_when_no_paper_file_changed(paper_repo):
    make_paper_pdf(paper_repo / "paper" / "main.pdf", GENERIC_CAPTION)
    git(paper_repo, "add", "README.md")  # only a non-paper file is staged
    proc = pre_commit(paper_repo, "run")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no files to check" in proc.stdout.lower() and "Skipped" in proc.stdout


LATEX_PAPER = r"""\documentclass{article}
\usepackage{graphicx}
\begin{document}
We study learning speed. For an overview, see Figure~\ref{fig:overview}.

\begin{figure}[h]
\centering
\includegraphics[width=0.5\linewidth]{plot.pdf}
\caption{%s}
\label{fig:overview}
\end{figure}
\end{document}
"""


@pytest.mark.skipif(importlib.util.find_spec("figlint.ingest.latex") is None, reason="LaTeX route not in this tree yet")
def test_default_args_lint_the_repository_paper(tmp_path):
    """With the manifest's default args ("."), a LaTeX paper at the repository root is linted."""
    repo = tmp_path / "paper-repo"
    repo.mkdir()
    git(repo, "init", "-q")
    local = {k: v for k, v in manifest_hook().items() if k not in ("language", "entry", "minimum_pre_commit_version")}
    local.update(language="system", entry=f"{sys.executable} -m figlint")
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]}))
    (repo / "main.tex").write_text(LATEX_PAPER % "Overview of our method.")
    git(repo, "add", "-A")
    proc = pre_commit(repo, "run", "--all-files")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "main.tex:9:1: FL202 [generic-caption]" in proc.stdout


@pytest.mark.skipif(os.environ.get("FIGLINT_TRY_REPO") != "1", reason="set FIGLINT_TRY_REPO=1 (installs from PyPI)")
def test_published_hook_installs_and_runs(paper_repo, tmp_path):
    """The hook as users get it (language: python, entry: figlint), installed by pre-commit from a snapshot."""
    checkout = tmp_path / "figlint-checkout"
    shutil.copytree(ROOT, checkout, ignore=shutil.ignore_patterns(".git", "*.egg-info", "__pycache__", ".pytest_cache",
                                                                  "build", "dist"))
    git(checkout, "init", "-q")
    git(checkout, "add", "-A")
    git(checkout, "commit", "-q", "-m", "snapshot")
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True,
                         check=True).stdout.strip()
    config = {"repos": [{"repo": str(checkout), "rev": rev, "hooks": [{"id": "figlint", "args": ["paper/main.pdf"]}]}]}
    (paper_repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    make_paper_pdf(paper_repo / "paper" / "main.pdf", GENERIC_CAPTION)
    git(paper_repo, "add", "-A")
    proc = pre_commit(paper_repo, "run", "--all-files")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FL202 [generic-caption] Figure 1" in proc.stdout
    make_paper_pdf(paper_repo / "paper" / "main.pdf", GOOD_CAPTION)
    git(paper_repo, "add", "-A")
    proc = pre_commit(paper_repo, "run", "--all-files")
    assert proc.returncode == 0, proc.stdout + proc.stderr
