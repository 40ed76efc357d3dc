"""Sources route: a document's own switches (\\newif) decide which branch is read.

A thesis template builds the dissertation and its synopsis from one set of files: each main
file sets `\\synopsistrue` or `\\synopsisfalse`, and figures meant for one of them sit in
`\\ifsynopsis ... \\else ... \\fi`. Both branches were read, so the synopsis's sources held a
figure it never prints, which shifted every number after it (field audit: two Russian theses).
Now a switch the main file sets one way only, outside any group or definition, is read as set;
one set both ways (or only inside a definition) still has both branches read. A switch declared
in the main file itself (`\\newif\\iflong` then `\\longfalse`) is declared there, not tested.
"""

from __future__ import annotations

from figlint.ingest.latex import read_latex
from figlint.ingest.texsource import document_flags
from fixtures.pdf_build import compile_main

FIG = "\\begin{figure}[h]\\centering\\includegraphics[width=3cm]{p.png}\\caption{%s}\\end{figure}\n"


def _paper(folder, main_sets: str) -> str:
    from PIL import Image

    Image.new("RGB", (300, 200), (90, 140, 200)).save(folder / "p.png")
    (folder / "flags.tex").write_text("\\newif\\ifshort\n")
    (folder / "body.tex").write_text(
        "Text before. " * 20 + "\n\\ifshort\n" + FIG % "Only in the short version."
        + "\\else\n" + FIG % "Only in the long version." + "\\fi\n"
        + "\\ifshort\\else\n" + FIG % "Long again." + "\\fi\n" + FIG % "In both versions." + "Text after. " * 20 + "\n")
    (folder / "main.tex").write_text("\\documentclass{article}\n\\usepackage{graphicx}\n\\input{flags}\n"
                                     + "\\newif\\iflong\n" + main_sets.replace("short", "long").replace("true", "@").replace("false", "true").replace("@", "false")
                                     + main_sets
                                     + "\\begin{document}\n\\input{body}\n\\end{document}\n")
    return str(folder / "main.tex")


def _captions(path: str) -> list[str]:
    return [f.caption.text for f in read_latex(path).figures]


def test_a_switch_set_one_way_reads_its_branch(tmp_path, pdflatex):
    main = _paper(tmp_path, "\\shorttrue\n")
    compile_main(tmp_path)
    assert _captions(main) == ["Only in the short version.", "In both versions."]
    import pymupdf

    with pymupdf.open(tmp_path / "main.pdf") as doc:
        printed = " ".join(p.get_text() for p in doc)
    assert "Only in the long version" not in printed and "Figure 2: In both versions." in printed


def test_a_switch_left_false_or_set_both_ways(tmp_path, pdflatex):
    a = tmp_path / "a"
    a.mkdir()
    assert _captions(_paper(a, "\\shortfalse\n")) == ["Only in the long version.", "Long again.", "In both versions."]
    b = tmp_path / "b"
    b.mkdir()
    # set both ways: which one holds where is not read; both branches stay, as before
    both = _captions(_paper(b, "\\shorttrue\n\\shortfalse\n"))
    assert len(both) == 4


def test_document_flags_reads_settings_outside_groups_and_comments():
    text = ("\\newif\\ifdraft\\newif\\ifblind\n\\drafttrue\n% \\blindtrue\n"
            "\\newcommand{\\setblind}{\\blindtrue}\n\\def\\x{\\arxivtrue}\n\\iffalse old text \\fi\n")
    assert document_flags(text) == {"draft": True}
