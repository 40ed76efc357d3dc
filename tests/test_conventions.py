"""The conventions users of ruff and chktex expect, through the real CLI: --exit-zero,
--statistics, --show-source, colour and NO_COLOR/FORCE_COLOR, did-you-mean, `figlint config`
as TOML that reads back, per-file-ignores globs, sorted findings, JSON fingerprints and
paths, FL201 on its uncaptioned figure."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from fixtures.terminal import read_until_closed


def figlint(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "figlint", *args], capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, **(env or {})}, timeout=300)


@pytest.fixture
def repo(tmp_path):
    """A paper repository: main.tex with two chapters; uncited figures (FL301) with generic
    captions (FL202) in main.tex and a chapter, and an uncaptioned figure (FL201)."""
    from PIL import Image

    (tmp_path / ".git").mkdir()
    d = tmp_path / "paper"
    (d / "sections").mkdir(parents=True)
    Image.new("RGB", (1500, 1000), (40, 90, 200)).save(d / "big.png")
    Image.new("RGB", (120, 90), (40, 90, 200)).save(d / "small.png")
    (d / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
        "\\input{sections/one}\n\\input{sections/two}\n\n"
        "\\begin{figure}\\centering\\includegraphics[width=0.5\\linewidth]{big}\n"
        "\\caption{Results.}\\label{fig:res}\\end{figure}\n\\end{document}\n")
    (d / "sections" / "one.tex").write_text(
        "Figure~\\ref{fig:small} shows that the loss falls over the first ten epochs of training.\n\n"
        "\\begin{figure}\\centering\\includegraphics[width=0.9\\linewidth]{small}\n"
        "\\caption{Training loss per epoch on the validation set of CIFAR-10.}\\label{fig:small}\\end{figure}\n")
    (d / "sections" / "two.tex").write_text(
        "\\begin{figure}\\centering\\includegraphics[width=0.5\\linewidth]{big}\n"
        "\\caption{Overview.}\\label{fig:gen}\\end{figure}\n\n"
        "\\begin{figure}\\centering\\includegraphics[width=0.5\\linewidth]{big}\\end{figure}\n")
    return tmp_path


def codes_of(proc) -> list[str]:
    doc = json.loads(proc.stdout)
    return [f["code"] for p in doc["papers"] for f in p["findings"]]


def test_exit_zero(repo):
    main = str(repo / "paper" / "main.tex")
    assert figlint(main, "--no-cache").returncode == 1
    proc = figlint(main, "--exit-zero", "--no-cache")
    assert proc.returncode == 0 and "FL202" in proc.stdout
    assert figlint(str(repo / "missing.pdf"), "--exit-zero").returncode == 2  # input errors still count


def test_statistics_counts_per_rule(repo):
    main = str(repo / "paper" / "main.tex")
    found = codes_of(figlint(main, "--format", "json"))
    proc = figlint(main, "--statistics")
    rows = [ln.split() for ln in proc.stdout.splitlines()]
    got = {r[1]: int(r[0]) for r in rows}
    assert got == {c: found.count(c) for c in set(found)}
    assert [int(r[0]) for r in rows] == sorted((int(r[0]) for r in rows), reverse=True)
    doc = json.loads(figlint(main, "--statistics", "--format", "json").stdout)
    assert {r["code"]: r["count"] for r in doc} == got


def test_show_source_prints_the_line_with_a_caret(repo):
    proc = figlint(str(repo / "paper" / "main.tex"), "--show-source")
    lines = proc.stdout.splitlines()
    i = next(k for k, ln in enumerate(lines) if " FL202 " in ln)
    block = "\n".join(lines[i + 1:i + 6])
    assert "\\caption{Results.}" in block and "^" in block and "|" in block


def test_colour_only_on_request_never_into_pipes_or_files(repo, tmp_path):
    main = str(repo / "paper" / "main.tex")
    assert "\x1b[" not in figlint(main).stdout  # a pipe: no colour
    forced = figlint(main, env={"FORCE_COLOR": "1"}).stdout
    assert "\x1b[" in forced
    assert "\x1b[" not in figlint(main, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    out = tmp_path / "r.txt"
    figlint(main, "-o", str(out), env={"FORCE_COLOR": "1"})
    assert "\x1b[" not in out.read_text()


def test_colour_on_a_real_terminal_honours_no_color(repo):
    import pty

    main = str(repo / "paper" / "main.tex")

    def on_tty(env):
        pid, fd = pty.fork()
        if pid == 0:  # the child: figlint with a terminal as stdout
            os.environ.update(env)
            os.execv(sys.executable, [sys.executable, "-m", "figlint", main])
        out = read_until_closed(fd)
        os.waitpid(pid, 0)
        return out.decode("utf-8", "replace")

    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    assert "\x1b[" in on_tty({**env, "TERM": "xterm", "NO_COLOR": ""})
    assert "\x1b[3" not in on_tty({**env, "TERM": "xterm", "NO_COLOR": "1"})


def test_did_you_mean(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".figlint.toml").write_text("min-dpy = 3\n")
    proc = figlint("config", str(tmp_path))
    assert proc.returncode == 2 and "did you mean 'min-dpi'?" in proc.stderr
    (tmp_path / ".figlint.toml").write_text('ignore = ["FL1O1"]\n')
    assert "did you mean 'FL101'?" in figlint("config", str(tmp_path)).stderr
    (tmp_path / ".figlint.toml").unlink()
    assert "did you mean 'FL202'?" in figlint("explain", "FL2O2").stderr
    # a letter for a digit is read as the digit, whatever other codes exist (FL1O1 is one
    # edit from FL111 too)
    assert "did you mean 'FL111'?" in figlint("explain", "fl1l1").stderr
    assert "did you mean 'FL101'?" in figlint("explain", "FL1O1").stderr
    proc = figlint(str(tmp_path), "--select", "generic-captoin")
    assert proc.returncode == 2 and "did you mean 'generic-caption'?" in proc.stderr


def test_config_prints_toml_that_reads_back(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".figlint.toml").write_text(
        'min-dpi = 200\nignore = ["FL302"]\nfail-on = "error"\n'
        '[per-figure-ignores]\n"fig:overview" = ["FL202"]\n'
        '[per-file-ignores]\n"sections/*.tex" = ["FL301"]\n[caps]\nFL202 = 5\n')
    shown = figlint("config", str(tmp_path))
    assert shown.returncode == 0, shown.stderr
    assert figlint("config", "--show", str(tmp_path)).stdout == shown.stdout
    table = tomllib.loads(shown.stdout)
    assert table["min-dpi"] == 200 and table["per-file-ignores"] == {"sections/*.tex": ["FL301"]}
    again = tmp_path / "again.toml"
    again.write_text(shown.stdout)
    back = figlint("config", "--config", str(again), str(tmp_path))
    assert back.returncode == 0, back.stderr
    assert back.stdout.splitlines()[1:] == shown.stdout.splitlines()[1:]  # line 0 names the source


def test_per_file_ignores_globs_are_relative_to_the_config_file(repo):
    main = str(repo / "paper" / "main.tex")
    before = codes_of(figlint(main, "--format", "json", "--no-cache"))
    assert before.count("FL202") == 2 and before.count("FL301") == 2
    (repo / ".figlint.toml").write_text('[per-file-ignores]\n"paper/sections/*.tex" = ["FL202"]\n'
                                        '"**/main.tex" = ["uncited-figure"]\n')
    doc = json.loads(figlint(main, "--format", "json", "--no-cache").stdout)
    after = [(Path(f["location"]["file"]).name, f["code"]) for f in doc["papers"][0]["findings"]]
    assert sorted(after) == [("main.tex", "FL202"), ("two.tex", "FL201"), ("two.tex", "FL301")], after
    after = [c for _, c in after]
    # the same glob from another working directory: paths are the config file's, not the cwd's
    elsewhere = codes_of(figlint(main, "--format", "json", "--no-cache", cwd=repo / "paper" / "sections"))
    assert sorted(elsewhere) == sorted(after)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_findings_sorted_by_file_and_line(repo, fmt):
    proc = figlint(str(repo / "paper" / "main.tex"), "--format", "json")
    doc = json.loads(proc.stdout)
    keys = [(f["location"]["file"] or "", f["location"]["line"] or 0) for f in doc["papers"][0]["findings"]]
    assert keys == sorted(keys) and len({k[0] for k in keys}) >= 2
    if fmt == "text":
        text = figlint(str(repo / "paper" / "main.tex")).stdout
        places = [ln.split(": ")[0] for ln in text.splitlines() if " FL" in ln and ln.count(":") >= 3]
        parsed = [(p.rsplit(":", 2)[0], int(p.rsplit(":", 2)[1])) for p in places]
        assert parsed == sorted(parsed)


def test_json_fingerprints_paths_and_fl201_on_its_figure(repo):
    from figlint.fingerprint import fingerprints  # noqa: F401 - the identity SARIF and baselines use

    main = repo / "paper" / "main.tex"
    doc = json.loads(figlint(str(main), "--format", "json").stdout)
    paper = doc["papers"][0]
    fps = [f["fingerprint"] for f in paper["findings"]]
    assert all(fps) and len(set(fps)) == len(fps)
    # stable: an unrelated edit above the figures keeps every fingerprint
    one = repo / "paper" / "sections" / "one.tex"
    one.write_text("% a comment line\n\n" + one.read_text())
    again = json.loads(figlint(str(main), "--format", "json").stdout)["papers"][0]
    assert sorted(f["fingerprint"] for f in again["findings"]) == sorted(fps)
    # the same path convention as the text report
    text = figlint(str(main)).stdout
    for f in paper["findings"]:
        if f["location"]["line"]:
            assert f"{f['location']['file']}:{f['location']['line']}:" in text
    sarif = json.loads(figlint(str(main), "--format", "sarif", cwd=repo).stdout)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    from_repo = json.loads(figlint("paper/main.tex", "--format", "json", cwd=repo).stdout)["papers"][0]
    assert {f["location"]["file"] for f in from_repo["findings"]} <= uris | {"paper/main.pdf"}
    uncaptioned = [fig for fig in paper["figures"] if fig["number"] is None]
    assert len(uncaptioned) == 1 and uncaptioned[0]["findings"] == ["FL201"]


def test_hook_pattern_matches_figure_sources():
    import re

    import yaml

    hook = yaml.safe_load((Path(__file__).resolve().parents[1] / ".pre-commit-hooks.yaml").read_text())[0]
    pattern = re.compile(hook["files"])
    for name in ("plot.pgf", "diagram.tikz", "chart.SVG", "fig.eps", "paper.zip"):
        assert pattern.search(name), name
