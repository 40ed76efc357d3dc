"""The command line as a user meets it: exit codes, one-line errors, light start-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("litellm", "cv2", "rapidocr", "onnxruntime", "torch")


def figlint(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "figlint", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def assert_one_line_error(proc: subprocess.CompletedProcess, needle: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("figlint: error:")]
    assert len(errors) == 1 and needle in errors[0], proc.stderr


def make_pdf(path: Path, *, text: str = "Hello.", encrypt: bool = False) -> Path:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), text, fontsize=10)
    kwargs = {}
    if encrypt:
        kwargs = dict(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    doc.save(path, **kwargs)
    return path


def test_version_and_help():
    proc = figlint("--version")
    assert proc.returncode == 0 and "figlint" in proc.stdout
    proc = figlint("--help")
    assert proc.returncode == 0 and "Exit codes" in proc.stdout


def test_help_imports_nothing_heavy():
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "figlint", "--help"],
                          capture_output=True, text=True)
    imported = {ln.split("|")[-1].strip().split(".")[0] for ln in proc.stderr.splitlines() if "|" in ln}
    assert not imported & {*HEAVY, "pymupdf", "fitz", "pydantic", "jinja2"}, imported & {*HEAVY, "pymupdf"}


def test_missing_file(tmp_path):
    assert_one_line_error(figlint(str(tmp_path / "nope.pdf")), "no such file")


def test_not_a_pdf(tmp_path):
    p = tmp_path / "paper.pdf"
    p.write_text("this is not a PDF\n")
    assert_one_line_error(figlint(str(p)), "paper.pdf")


def test_truncated_pdf(tmp_path):
    good = make_pdf(tmp_path / "good.pdf", text="Figure 1: A caption.")
    data = good.read_bytes()
    bad = tmp_path / "truncated.pdf"
    bad.write_bytes(data[: len(data) // 3])
    proc = figlint(str(bad))
    assert proc.returncode in (0, 2) and "Traceback" not in proc.stderr
    if proc.returncode == 2:
        assert_one_line_error(proc, "truncated.pdf")


def test_garbage_after_header(tmp_path):
    bad = tmp_path / "corrupt.pdf"
    bad.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40)
    assert_one_line_error(figlint(str(bad)), "corrupt.pdf")


def test_encrypted_pdf(tmp_path):
    p = make_pdf(tmp_path / "locked.pdf", encrypt=True)
    assert_one_line_error(figlint(str(p)), "encrypted")


def test_pdf_without_figures_is_clean(tmp_path):
    p = make_pdf(tmp_path / "plain.pdf", text="A paper with no figures at all.")
    proc = figlint(str(p), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["papers"][0]["figures"] == [] and doc["summary"]["exit_code"] == 0


def test_unknown_rule_is_usage_error(tmp_path):
    p = make_pdf(tmp_path / "plain.pdf")
    assert_one_line_error(figlint(str(p), "--select", "FL999"), "FL999")


def test_one_bad_input_does_not_stop_others(tmp_path):
    good = make_pdf(tmp_path / "plain.pdf")
    proc = figlint(str(tmp_path / "missing.pdf"), str(good), "--format", "json")
    assert proc.returncode == 2
    doc = json.loads(proc.stdout)
    assert [p["error"] is None for p in doc["papers"]] == [False, True]
    assert doc["papers"][0]["findings"][0]["code"] == "FL001"


def test_output_file_and_fail_on(tmp_path):
    p = make_pdf(tmp_path / "plain.pdf")
    out = tmp_path / "report.json"
    proc = figlint(str(p), "--format", "json", "--output", str(out), "--fail-on", "note")
    assert proc.returncode == 0 and proc.stdout == ""
    assert json.loads(out.read_text())["summary"]["fail_on"] == "note"


def test_rules_and_explain():
    proc = figlint("rules")
    assert proc.returncode == 0 and "FL101" in proc.stdout and "low-dpi" in proc.stdout
    proc = figlint("explain", "generic-caption")
    assert proc.returncode == 0 and "## Why is this bad?" in proc.stdout
    assert_one_line_error(figlint("explain", "FL999"), "FL999")


def test_config_show_names_bad_key(tmp_path):
    (tmp_path / ".figlint.toml").write_text("min-dpy = 3\n")
    (tmp_path / ".git").mkdir()
    assert_one_line_error(figlint("config", "--show", str(tmp_path)), "min-dpy")
    (tmp_path / ".figlint.toml").write_text("min-dpi = 200\n")
    proc = figlint("config", "--show", str(tmp_path))
    assert proc.returncode == 0 and "min-dpi = 200" in proc.stdout


@pytest.mark.parametrize("module", HEAVY)
def test_rules_only_run_imports_nothing_heavy(tmp_path, module):
    p = make_pdf(tmp_path / "plain.pdf", text="Figure 1: Accuracy of the model over epochs.")
    code = (
        "import sys, runpy\n"
        f"sys.argv = ['figlint', {str(p)!r}]\n"
        "try:\n    runpy.run_module('figlint', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        f"print({module!r} in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stdout.strip().splitlines()[-1] == "False", proc.stdout + proc.stderr


def test_evidence_of_numpy_values_is_plain_json():
    import numpy as np

    from figlint.model import plain

    ev = plain({"ratio": np.float32(2.5), "px": np.int64(3), "arr": np.array([1.0, 2.0]),
                "bad": float("nan"), "names": {"b", "a"}, "pair": (1, 2)})
    assert ev == {"ratio": 2.5, "px": 3, "arr": [1.0, 2.0], "bad": None, "names": ["a", "b"], "pair": [1, 2]}
    import json

    json.dumps(ev)


def test_an_internal_failure_is_one_line_not_a_traceback(tmp_path):
    p = make_pdf(tmp_path / "plain.pdf", text="Figure 1: Accuracy of the model over epochs.")
    # the stimulus: a report renderer that fails; the thing under test: the CLI's last guard
    code = ("import sys, figlint.report.jsonl as j\n"
            "j.render_paper = lambda r: 1 / 0\n"
            f"sys.argv = ['figlint', {str(p)!r}, '--format', 'jsonl', '--no-cache']\n"
            "from figlint.cli import run\nrun()\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("figlint: internal error: ZeroDivisionError")
    debug = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "FIGLINT_DEBUG": "1"})
    assert "Traceback" in debug.stderr


def test_summary_says_a_tikz_figure_was_not_checked_without_a_pdf(tmp_path):
    """A TikZ figure is drawn by TeX: without a compiled PDF nothing of it can be read, and
    the summary must not call it "ok" as if its drawing had been checked."""
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n"
        "Figure~\\ref{fig:t} shows how the loss falls over the first ten epochs of training.\n"
        "\\begin{figure}\\centering\\begin{tikzpicture}\\draw (0,0) -- (1,1);\\end{tikzpicture}\n"
        "\\caption{Training loss per epoch on the validation set.}\\label{fig:t}\\end{figure}\n\\end{document}\n")
    proc = figlint(str(tmp_path / "main.tex"), "--no-cache")
    row = [ln for ln in proc.stdout.splitlines() if ln.strip().startswith("Figure 1")]
    assert len(row) == 1 and " tikz " in row[0] and "drawing not checked: no compiled PDF" in row[0], proc.stdout
