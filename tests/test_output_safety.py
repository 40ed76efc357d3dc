"""Output that survives any locale and cannot be used against the reader's terminal, through
the real CLI: a cp1252 stdout, hostile control sequences in a caption, a 200,000-character
caption, and machine formats that are only ever the format."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HOSTILE = ("Accuracy \x1b]0;pwned-title\x07 per epoch \x1b]52;c;ZXZpbA==\x1b\\ on CIFAR-10 "
           "\x1b[31mred\x1b[0m \x9d0;c1-title\x9c bell\x07 \u202eevil\u202c \u2192 done.")
# an undefined label: FL304's message quotes it
HOSTILE_LABEL = "fig:\x1b]0;pwned-title\x07\u202eb\x9b31m\x1b[2Jz"
# what must never reach the reader: ESC, BEL, 8-bit C1 controls, bidi overrides
FORBIDDEN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def figlint(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "figlint", *args, "--no-cache"], capture_output=True,
                          cwd=cwd, env={**os.environ, **(env or {})}, timeout=300)


def paper(tmp_path: Path, caption: str, label: str = "fig:a") -> Path:
    from PIL import Image

    d = tmp_path / "paper"
    d.mkdir()
    Image.new("RGB", (1500, 1000), (40, 90, 200)).save(d / "chart.png")
    (d / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        f"See Figure~\\ref{{{label}}}. Also Figure~\\ref{{{HOSTILE_LABEL}}}.\n\n"
        "\\begin{figure}\\centering\\includegraphics[width=0.5\\linewidth]{chart}\n"
        f"\\caption{{{caption}}}\\label{{{label}}}\\end{{figure}}\n"
        "\\begin{figure}\\centering\\includegraphics[width=0.5\\linewidth]{chart}\\end{figure}\n"
        "\\end{document}\n", encoding="utf-8")
    return d / "main.tex"


@pytest.mark.parametrize("fmt", ["text", "github", "json", "sarif"])
def test_non_utf8_stdout_does_not_crash(tmp_path, fmt):
    tex = paper(tmp_path, "Loss \u2192 0 and \u03b1 \u2248 0.5 over the \u2116 of epochs \U0001F600 on the test set.")
    proc = figlint(str(tex), "--format", fmt, env={"PYTHONIOENCODING": "cp1252"})
    assert proc.returncode in (0, 1), proc.stderr.decode("cp1252", "replace")
    assert b"Traceback" not in proc.stderr and b"internal error" not in proc.stderr
    out = proc.stdout.decode("cp1252")
    if fmt in ("json", "sarif"):
        doc = json.loads(out)  # escapes, not "?": the data survives
        if fmt == "json":
            assert "\u2192" in doc["papers"][0]["figures"][0]["caption"]["text"]
    # files are always UTF-8, whatever the locale
    report = tmp_path / f"report.{fmt}"
    proc = figlint(str(tex), "--format", fmt, "-o", str(report), env={"PYTHONIOENCODING": "cp1252"})
    assert proc.returncode in (0, 1) and proc.stdout == b""
    report.read_bytes().decode("utf-8")


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_control_sequences_from_the_paper_never_reach_the_terminal(tmp_path, fmt):
    tex = paper(tmp_path, HOSTILE, label="fig:\u202eevil")
    proc = figlint(str(tex), "--format", fmt, "--select", "ALL", "--show-source")
    out = proc.stdout.decode("utf-8")
    assert proc.returncode in (0, 1), proc.stderr
    assert not FORBIDDEN.search(out), [m.group(0) for m in FORBIDDEN.finditer(out)]
    assert "pwned-title" not in out and "ZXZpbA==" not in out  # whole OSC payloads dropped
    assert "fig:\\u202eb" in out  # the label reached the report, with its override made visible
    err = proc.stderr.decode("utf-8")
    assert not FORBIDDEN.search(err)


def test_control_sequences_in_file_names_are_escaped_too(tmp_path):
    from PIL import Image

    name = tmp_path / "evil\x1b]0;t\x07.png"
    Image.new("RGB", (100, 60), (0, 0, 0)).save(name, format="PNG")
    proc = figlint(str(name))
    out = proc.stdout.decode() + proc.stderr.decode()
    assert "\x1b" not in out and "\x07" not in out


def test_a_huge_caption_is_cut_in_messages_and_json(tmp_path):
    from figlint.report.safe import MESSAGE_LIMIT, TEXT_LIMIT

    caption = "Overview " + "of the many results " * 10_500  # about 200,000 characters
    assert len(caption) > 200_000
    tex = paper(tmp_path, caption)
    proc = figlint(str(tex), "--format", "json", "--select", "ALL")
    doc = json.loads(proc.stdout)
    fig = doc["papers"][0]["figures"][0]
    assert len(fig["caption"]["text"]) <= TEXT_LIMIT and fig["caption"]["text"].endswith("\u2026")
    assert fig["caption"]["truncated"] is True
    assert all(len(f["message"]) <= MESSAGE_LIMIT for f in doc["papers"][0]["findings"])
    assert len(proc.stdout) < 100_000
    text = figlint(str(tex), "--select", "ALL").stdout.decode()
    assert max(len(line) for line in text.splitlines()) < MESSAGE_LIMIT + 200


@pytest.mark.parametrize("fmt", ["json", "sarif", "jsonl"])
def test_machine_formats_are_only_the_format(tmp_path, fmt):
    tex = paper(tmp_path, "Accuracy of two models over ten epochs on CIFAR-10.")
    proc = figlint(str(tex), "--format", fmt, env={"FORCE_COLOR": "1"})
    out = proc.stdout.decode()
    if fmt == "jsonl":
        [json.loads(line) for line in out.splitlines()]
    else:
        json.loads(out)
    assert "\x1b" not in out
    assert b"no compiled PDF" in proc.stderr  # the note goes to stderr, never into the format


def test_sanitiser_unit_cases():
    from figlint.report.safe import clip, safe_text

    assert safe_text("a\x1b]0;title\x07b") == "ab"
    assert safe_text("a\x1b]52;c;aGk=\x1b\\b") == "ab"
    assert safe_text("\x1b[1;31mred\x1b[0m") == "red"
    assert safe_text("x\u202ey") == "x\\u202ey" and safe_text("nul\x00") == "nul\\x00"
    assert safe_text("two\nlines\ttab") == "two lines tab"
    assert safe_text("two\r\nlines", keep_newlines=True) == "two\nlines"
    assert safe_text("caf\u00e9 \u2192 \u03b1") == "caf\u00e9 \u2192 \u03b1"  # ordinary text untouched
    assert clip("x" * 50, 10) == "x" * 9 + "\u2026" and clip("short", 10) == "short"


def test_other_commands_json_survives_a_non_utf8_stdout():
    proc = subprocess.run([sys.executable, "-m", "figlint", "rules", "--format", "json"], capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": "cp1252"}, timeout=120)
    assert proc.returncode == 0
    rules = json.loads(proc.stdout.decode("cp1252"))
    assert any(r["code"] == "FL012" for r in rules)
