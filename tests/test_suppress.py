"""Inline suppression (`% figlint: disable=...`) on the LaTeX route, and FL002.

Each test writes a small paper to tmp_path and lints it through engine.lint_path,
which applies figlint/suppress.py right after the rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from figlint.config import Config
from figlint.engine import lint_path
from figlint.model import Finding, Location, Paper
from figlint.suppress import apply_suppressions, comment_start, scan_file

PRE = "\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n"  # body starts on line 4
GENERIC = ("\\begin{figure}\n\\includegraphics{plot.pdf}\n\\caption{Overview of our method.}\\label{fig:a}\n"
           "\\end{figure}\n")
CLAIM = "Figure~\\ref{fig:a} shows that the retriever runs once per document, saving cost.\n"


def lint(root: Path, body: str, files: dict[str, str] | None = None, config: Config | None = None):
    (root / "main.tex").write_text(PRE + body + "\\end{document}\n")
    (root / "plot.pdf").write_bytes(b"%PDF-1.4\n")
    for name, text in (files or {}).items():
        (root / name).write_text(text)
    result = lint_path(str(root / "main.tex"), config or Config(select=["ALL"], ignore=["FL601"]))
    assert result.error is None
    return result


def codes(result) -> list[tuple[str, int | None]]:
    return sorted((f.code, f.location.line) for f in result.findings)


def has(result, code: str) -> bool:
    return any(f.code == code for f in result.findings)


# ---------------------------------------------------------------- comment syntax

@pytest.mark.parametrize("line, start", [
    ("text % c", 5),
    ("50\\% of runs", -1),
    ("50\\\\% c", 4),  # \\ is a line break; the % after it starts a comment
    ("\\verb|%x| % c", 10),
    ("% c", 0),
    ("no comment", -1),
])
def test_comment_start(line, start):
    assert comment_start(line) == start


def test_scan_file_forms_and_tokens():
    lines = [
        "% figlint: disable=FL201, generic-caption -- the caption is fine here",
        "text 50\\% figlint: disable=FL305",  # \% is not a comment
        "\\url{a%20b} % figlint: disable-next=FL3",
        "%% figlint:disable-file=FL305",
        "% figlint: disable FL201",  # malformed
        "\\begin{verbatim}",
        "% figlint: disable=FL201",
        "\\end{verbatim}",
    ]
    got = [(d.kind, d.tokens, d.line) for d in scan_file("x.tex", lines)]
    assert got == [
        ("disable", ["FL201", "generic-caption"], 1),
        ("disable-next", ["FL3"], 3),
        ("disable-file", ["FL305"], 4),
        ("malformed", ["% figlint: disable FL201"], 5),
    ]


# ---------------------------------------------------------------- figure scope

def test_disable_inside_figure(tmp_path):
    body = CLAIM + GENERIC.replace("\\caption", "% figlint: disable=FL202\n\\caption")
    result = lint(tmp_path, body)
    assert not has(result, "FL202") and not has(result, "FL002")


def test_disable_on_the_line_before_begin_figure_by_name_and_prefix(tmp_path):
    body = CLAIM + "% figlint: disable=generic-caption\n% figlint: disable=FL30\n" + GENERIC
    result = lint(tmp_path, body)
    # FL202 (by name) and FL302 (bare pointer? no: CLAIM makes a claim) -> FL30 prefix is unused
    assert not has(result, "FL202")
    unused = [f for f in result.findings if f.code == "FL002"]
    assert [(f.location.line, f.evidence["token"]) for f in unused] == [(6, "FL30")]


def test_figure_scope_covers_findings_attributed_to_the_figure_elsewhere(tmp_path):
    # the hard-coded mention is in the text, but the finding belongs to Figure 1
    body = ("Figure 1 shows that the retriever runs once per document.\n"
            + GENERIC.replace("\\end{figure}", "% figlint: disable=FL305, FL202\n\\end{figure}"))
    result = lint(tmp_path, body)
    assert not has(result, "FL305") and not has(result, "FL202") and not has(result, "FL002")


def test_blank_line_before_figure_makes_it_a_line_directive(tmp_path):
    body = CLAIM + "% figlint: disable=FL202\n\n" + GENERIC
    result = lint(tmp_path, body)
    assert has(result, "FL202") and has(result, "FL002")


# ---------------------------------------------------------------- line scope

def test_disable_elsewhere_covers_its_line_and_the_next(tmp_path):
    body = (CLAIM + "Figure 1 is typed by hand. % figlint: disable=FL305\n"
            "And Figure 1 again on the next line.\n"
            "And Figure 1 a third time.\n" + GENERIC.replace("Overview of our method.", "A specific caption of "
                                                              "the retriever cost per document"))
    result = lint(tmp_path, body)
    assert [f.location.line for f in result.findings if f.code == "FL305"] == [7]


def test_disable_next_skips_blank_and_comment_lines(tmp_path):
    body = (CLAIM + "% figlint: disable-next=hardcoded-figure-number\n\n% a note\n"
            "Figure 1 is typed by hand.\nFigure 1 again.\n"
            + GENERIC.replace("Overview of our method.", "A specific caption of the retriever cost per document"))
    result = lint(tmp_path, body)
    assert [f.location.line for f in result.findings if f.code == "FL305"] == [9]


def test_disable_file_only_in_that_file(tmp_path):
    section = "% figlint: disable-file=FL305\nFigure 1 is typed by hand.\n\nSo is Figure 1 here.\n"
    body = (CLAIM + "\\input{sec}\nFigure 1 in the main file.\n"
            + GENERIC.replace("Overview of our method.", "A specific caption of the retriever cost per document"))
    result = lint(tmp_path, body, {"sec.tex": section})
    assert [(f.location.file, f.location.line) for f in result.findings if f.code == "FL305"] == [("main.tex", 6)]
    assert not has(result, "FL002")


# ---------------------------------------------------------------- FL002

def test_unused_unknown_and_malformed_are_reported(tmp_path):
    body = (CLAIM + "% figlint: disable=FL2O1\n% figlint: disable FL202\n"
            + GENERIC.replace("Overview of our method.", "A specific caption of the retriever cost per document")
            .replace("\\caption", "% figlint: disable=FL202\n\\caption"))
    result = lint(tmp_path, body)
    msgs = sorted(f.message for f in result.findings if f.code == "FL002")
    assert len(msgs) == 3
    assert any("names no figlint rule" in m for m in msgs)
    assert any("malformed" in m for m in msgs)
    assert any("'FL202' (disable) matched no finding for Figure 1" in m for m in msgs)


def test_no_fl002_for_rules_that_could_not_fire(tmp_path):
    body = (CLAIM + "% figlint: disable=FL202,FL101\n"
            + GENERIC.replace("Overview of our method.", "A specific caption of the retriever cost per document"))
    # FL202 switched off in the configuration; FL101 needs the printed figure (no PDF read)
    result = lint(tmp_path, body, config=Config(ignore=["FL202"]))
    assert not has(result, "FL002")
    # and FL002 itself off: nothing reported either
    result = lint(tmp_path, body.replace("FL202,FL101", "FL999"), config=Config(ignore=["FL002"]))
    assert not has(result, "FL002")


def test_fl002_can_be_disabled_per_file(tmp_path):
    body = ("% figlint: disable-file=FL002\n" + CLAIM + "% figlint: disable=FL305\n"
            + GENERIC.replace("Overview of our method.", "A specific caption of the retriever cost per document"))
    assert not has(lint(tmp_path, body), "FL002")


def test_other_routes_are_untouched():
    paper = Paper(path="x.pdf", route="pdf")
    findings = [Finding("FL202", "generic-caption", "warning", "m", Location(file="x.pdf", page=1))]
    assert apply_suppressions(paper, findings, []) is findings
