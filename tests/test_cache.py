"""The caches behave like ruff's: at the project root, small, pruned, byte-identical, and off with --no-cache.

Runs the real command line (subprocesses) on the bundled example paper copied into
a temporary project, PDF route and sources route, and reads what was written.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "paper"
FORMATS = ("json", "text", "sarif")  # markdown and github read the same records as these


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "FIGLINT_CACHE_DIR"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def figlint(*args, cwd, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "figlint", *args], cwd=cwd, env=env or _env(),
                          capture_output=True, text=True, timeout=300)


@pytest.fixture()
def project(tmp_path):
    """A repository (pyproject.toml at its top) holding the example paper in paper/, and a
    user cache directory that must stay empty."""
    proj = tmp_path / "proj"
    shutil.copytree(EXAMPLE, proj / "paper", ignore=shutil.ignore_patterns(".figlint_cache"))
    (proj / "pyproject.toml").write_text("[project]\nname = 'a-paper'\n")
    (tmp_path / "xdg").mkdir()
    return proj


def _caches(top: Path) -> list[Path]:
    return sorted(p for p in top.rglob(".figlint_cache"))


@pytest.mark.parametrize("main", ["main.pdf", "main.tex"])
def test_cache_hit_gives_the_cold_report_byte_for_byte(project, main):
    env = _env(XDG_CACHE_HOME=str(project.parent / "xdg"))
    for fmt in FORMATS:
        cold = figlint(f"paper/{main}", "--format", fmt, cwd=project, env=env)
        warm = figlint(f"paper/{main}", "--format", fmt, cwd=project, env=env)
        fresh = figlint(f"paper/{main}", "--format", fmt, "--no-cache", cwd=project, env=env)
        assert cold.returncode in (0, 1) and cold.stdout, cold.stderr
        assert warm.stdout == cold.stdout, fmt
        assert fresh.stdout == cold.stdout, fmt
        assert warm.returncode == cold.returncode
    prof = figlint(f"paper/{main}", "--profile", cwd=project, env=env)
    assert "(cached)" in prof.stderr  # the warm runs were hits


def test_cache_lives_at_the_project_root_and_holds_no_drawings(project):
    env = _env(XDG_CACHE_HOME=str(project.parent / "xdg"))
    for main in ("main.pdf", "main.tex"):
        figlint(main, cwd=project / "paper", env=env)  # run from inside the paper's folder
    assert _caches(project.parent) == [project / ".figlint_cache"]
    assert not (project.parent / "xdg" / "figlint").exists()  # other tools (matplotlib) cache there too
    entries = list((project / ".figlint_cache" / "results").glob("*.json"))
    assert len(entries) == 2
    for e in entries:
        data = json.loads(e.read_text())
        assert data["format"] == 2
        figs = data["result"]["paper"]["figures"]
        assert figs and all("drawings" not in f and "spans" not in f for f in figs)
        assert not any(k.startswith("_") for f in figs for k in f["extra"])
        assert all(f["content"]["kind"] for f in figs)
        assert e.stat().st_size < 200_000


def test_no_project_root_means_the_user_cache(tmp_path):
    loose = tmp_path / "loose"
    shutil.copytree(EXAMPLE, loose, ignore=shutil.ignore_patterns(".figlint_cache"))
    xdg = tmp_path / "xdg"
    figlint("main.pdf", cwd=loose, env=_env(XDG_CACHE_HOME=str(xdg)))
    assert not _caches(loose)  # never silently inside the paper's folder
    assert list((xdg / "figlint" / "results").glob("*.json"))


def test_no_cache_writes_no_cache_at_all(project):
    """--no-cache: no results, no OCR boxes (a raster figure file read with OCR), nothing."""
    pytest.importorskip("rapidocr")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(3, 2))
    ax.bar(["a", "b", "c"], [3, 5, 2])
    ax.set_ylabel("Accuracy (%)")
    fig.savefig(project / "chart.png", dpi=150)
    plt.close(fig)
    env = _env(XDG_CACHE_HOME=str(project.parent / "xdg"))
    for target in ("paper/main.pdf", "paper/main.tex", "chart.png"):
        proc = figlint(target, "--no-cache", "--ocr", "on", cwd=project, env=env)
        assert proc.returncode in (0, 1), proc.stderr
    assert _caches(project.parent) == []
    assert not (project.parent / "xdg" / "figlint").exists()  # other tools (matplotlib) cache there too
    # and with the cache on, the OCR boxes are kept next to the results
    figlint("chart.png", cwd=project, env=env)
    assert list((project / ".figlint_cache" / "ocr").glob("*.json"))


def test_prune_drops_least_recently_used_first(tmp_path):
    from figlint import cache

    d = tmp_path / "results"
    d.mkdir()
    for i in range(10):
        f = d / f"{i}.json"
        f.write_bytes(b"x" * 1000)
        os.utime(f, (1_000_000 + i, 1_000_000 + i))  # 0 is the least recently used
    os.utime(d / "9.json")  # now: used today
    cache._PRUNED.discard(str(d))
    cache.prune(d, max_bytes=3500, max_age_days=10 ** 6)
    left = sorted(int(p.stem) for p in d.glob("*.json"))
    assert left == [7, 8, 9]
    cache._PRUNED.discard(str(d))
    cache.prune(d, max_bytes=10 ** 9, max_age_days=1)  # 7 and 8 are decades old
    assert sorted(int(p.stem) for p in d.glob("*.json")) == [9]


def test_a_skipped_figure_is_never_cached(tmp_path, monkeypatch):
    """A figure over a budget (here: more path segments than analysed) gets FL011 and the
    result is not stored, so a later run with another budget recomputes it."""
    from figlint import budget
    from figlint.cache import lint_cached
    from figlint.config import Config

    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(budget, "MAX_FIGURE_SEGMENTS", 3)
    pdf = tmp_path / "main.pdf"
    shutil.copy(EXAMPLE / "main.pdf", pdf)
    first = lint_cached(str(pdf), Config())
    skipped = [f for f in first.findings if f.code == "FL011"]
    assert skipped and "vector path segments (at most 3 are analysed)" in skipped[0].message
    assert not lint_cached(str(pdf), Config()).cached
    # no results entry (the OCR of the example's raster figure may be cached: it is not a skip)
    assert not list((tmp_path / "cache" / "results").rglob("*.json"))
