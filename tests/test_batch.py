"""Many inputs: folders, a process pool, JSON Lines streaming, the results cache, --profile."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from figlint.batch import expand_inputs, run_many
from figlint.cache import lint_cached
from figlint.config import Config


def make_pdf(path: Path, caption: str) -> Path:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_rect(pymupdf.Rect(100, 100, 400, 300), color=(0, 0, 1), fill=(0.8, 0.8, 1))
    page.insert_text((100, 320), caption, fontsize=9)
    page.insert_text((72, 400), "Figure 1 shows that accuracy rises with model size in all runs.", fontsize=10)
    doc.save(path)
    return path


def figlint(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "figlint", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, cwd=cwd, timeout=300)


def test_folder_of_papers_expands_in_name_order(tmp_path):
    make_pdf(tmp_path / "b.pdf", "Figure 1: Accuracy of two models over ten epochs on CIFAR-10.")
    make_pdf(tmp_path / "a.pdf", "Figure 1: Overview.")
    (tmp_path / "notes.txt").write_text("not a paper")
    assert expand_inputs([str(tmp_path)]) == [str(tmp_path / "a.pdf"), str(tmp_path / "b.pdf")]


def test_folder_of_chart_images_lints_each_image(tmp_path):
    import pymupdf

    for name in ("b.png", "a.jpg"):
        pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 120, 80), False)
        pix.clear_with(255)
        pix.save(str(tmp_path / name), jpg_quality=90) if name.endswith(".jpg") else pix.save(str(tmp_path / name))
    (tmp_path / "readme.md").write_text("charts")
    assert expand_inputs([str(tmp_path)]) == [str(tmp_path / "a.jpg"), str(tmp_path / "b.png")]
    proc = figlint(str(tmp_path), "--format", "jsonl", "--no-cache")
    lines = [json.loads(ln) for ln in proc.stdout.splitlines()]
    assert [d["route"] for d in lines] == ["image", "image"] and all(d["error"] is None for d in lines)


def test_jsonl_streams_every_paper_and_reports_bad_ones(tmp_path):
    good = [make_pdf(tmp_path / f"p{i}.pdf", "Figure 1: Accuracy of two models over ten epochs.") for i in range(3)]
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 100)
    proc = figlint(*map(str, good), str(bad), "--format", "jsonl", "--jobs", "2", "--no-cache")
    lines = [json.loads(ln) for ln in proc.stdout.splitlines()]
    assert sorted(d["path"] for d in lines) == sorted(map(str, [*good, bad]))
    errors = {d["path"]: d["error"] for d in lines}
    assert errors[str(bad)] and all(errors[str(g)] is None for g in good)
    assert proc.returncode == 2  # an unreadable input is an input error
    assert "4 inputs, 1 unreadable" in proc.stderr and "Traceback" not in proc.stderr


def test_parallel_equals_serial(tmp_path):
    papers = [str(make_pdf(tmp_path / f"p{i}.pdf", cap)) for i, cap in
              enumerate(["Figure 1: Overview.", "Figure 1: Accuracy of two models over ten epochs."])]
    one = run_many(papers, Config(), jobs=1)
    two = run_many(papers, Config(), jobs=2)
    assert [[f.code for f in r.findings] for r in one.results] == [[f.code for f in r.findings] for r in two.results]
    assert [r.path for r in two.results] == papers  # input order, whatever finished first


def test_results_cache_hits_then_invalidates(tmp_path, monkeypatch):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path / "cache"))
    pdf = make_pdf(tmp_path / "p.pdf", "Figure 1: Overview.")
    first = lint_cached(str(pdf), Config())
    again = lint_cached(str(pdf), Config())
    assert not first.cached and again.cached
    assert [f.code for f in again.findings] == [f.code for f in first.findings]
    assert (tmp_path / "cache" / ".gitignore").read_text().strip().endswith("*")
    make_pdf(pdf, "Figure 1: Accuracy of two models over ten epochs on CIFAR-10.")
    changed = lint_cached(str(pdf), Config())
    assert not changed.cached
    assert "FL202" in {f.code for f in first.findings} and "FL202" not in {f.code for f in changed.findings}
    other = lint_cached(str(pdf), Config(ignore=["FL301"]))  # another configuration: recomputed
    assert not other.cached


def test_latex_cache_sees_a_new_compiled_pdf(tmp_path, monkeypatch):
    monkeypatch.setenv("FIGLINT_CACHE_DIR", str(tmp_path / "cache"))
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "main.tex").write_text(
        "\\documentclass{article}\\begin{document}\n"
        "Figure~\\ref{fig:a} shows that accuracy rises with depth in every run.\n"
        "\\begin{figure}\\caption{Accuracy against depth on CIFAR-10 for three widths.}\\label{fig:a}"
        "\\end{figure}\n\\end{document}\n")
    first = lint_cached(str(paper / "main.tex"), Config())
    assert lint_cached(str(paper / "main.tex"), Config()).cached
    make_pdf(paper / "main.pdf", "Figure 1: Accuracy against depth on CIFAR-10 for three widths.")
    assert not lint_cached(str(paper / "main.tex"), Config()).cached
    assert first.paper.pdf_path is None


def test_profile_prints_stages(tmp_path):
    pdf = make_pdf(tmp_path / "p.pdf", "Figure 1: Accuracy of two models over ten epochs.")
    proc = figlint(str(pdf), "--profile", "--no-cache")
    assert "figlint profile" in proc.stderr and "ingest" in proc.stderr and "rules:caption" in proc.stderr
