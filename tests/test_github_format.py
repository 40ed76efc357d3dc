"""`--format github`: workflow commands with GitHub's escaping and level mapping."""

from __future__ import annotations

import re
import subprocess
import sys

from fixtures.pdfs import GENERIC_CAPTION, make_paper_pdf, needs_pdf_route
from fixtures.results import sample_result

from figlint.report import github

COMMAND = re.compile(r"^::(error|warning|notice) ((?:[a-z]+=[^,:]*)(?:,[a-z]+=[^,:]*)*)::(.*)$")


def parse(line: str) -> tuple[str, dict[str, str], str]:
    m = COMMAND.match(line)
    assert m, line
    props = dict(p.split("=", 1) for p in m.group(2).split(","))
    return m.group(1), props, m.group(3)


def unescape(text: str) -> str:
    return (text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",")
            .replace("%25", "%"))


def test_escaping_rules():
    assert github.escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert github.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    # % first, so an escape is never escaped twice
    assert github.escape_data("%0A") == "%250A"


def test_commands_for_each_finding(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = github.render(sample_result(tmp_path)).splitlines()
    commands = [parse(line) for line in out if line.startswith("::")]
    assert len(commands) == 4
    by_title = {props["title"]: (level, props, msg) for level, props, msg in commands}
    level, props, msg = by_title["FL202 generic-caption"]
    assert level == "warning" and props["file"] == "paper/main.tex" and props["line"] == "42" and props["col"] == "1"
    assert msg.startswith("Figure 1: caption is generic")
    level, props, msg = by_title["FL101 low-dpi"]
    assert level == "error" and props["file"] == "paper/main.pdf" and "line" not in props
    assert msg.endswith("(page 3)")
    level, props, msg = by_title["FL303 citation-order"]
    assert level == "notice"
    assert "\n" not in msg and unescape(msg) == "figures are cited out of order\nsecond line: 50% done, a,b (page 1)"
    assert out[-1] == "figlint: 4 findings (exit code 1)"


def test_property_values_are_escaped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = sample_result(tmp_path)
    f = result.results[0].findings[0]
    f.location.file = "paper/odd:name,1.tex"
    (tmp_path / "paper" / "odd:name,1.tex").write_text("x")
    line = github.render(result).splitlines()[0]
    level, props, _ = parse(line)
    assert unescape(props["file"]) == "paper/odd:name,1.tex"


@needs_pdf_route
def test_cli_github_format(tmp_path):
    make_paper_pdf(tmp_path / "paper.pdf", GENERIC_CAPTION)
    proc = subprocess.run([sys.executable, "-m", "figlint", "--format", "github", "paper.pdf"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 1
    level, props, msg = parse(proc.stdout.splitlines()[0])
    assert (level, props["file"], props["title"]) == ("warning", "paper.pdf", "FL202 generic-caption")
    assert "(page 1)" in msg
