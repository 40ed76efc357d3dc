"""`\\autoref` and `\\cref` print the word of the document's language, as its PDF shows.

The sources route printed "Figure N" for every `\\autoref` and English names for `\\cref`,
where babel's language makes hyperref print "Abbildung" or "Figura" and cleveref's language
option "Abb." (a German thesis). The word comes from babel's main language (hyperref's
translations, which replace a preamble `\\renewcommand{\\figureautorefname}` at
`\\begin{document}` unless it is added to the language's `\\extras`), cleveref's language
option, or the author's own definition (langnames). Each case is compiled and the sentence the
sources route reads must be the one printed on the page. babel's German and Italian `.ldf`
files are not installed here: `provide=*` loads the languages from babel's own locale files,
which hyperref and cleveref treat the same way.
"""

from __future__ import annotations

import pytest

from figlint.ingest import load
from figlint.ingest.langnames import added_to, babel_language, cleveref_language
from tests.fixtures.pdf_build import compile_tex

CASES = {
    # class option: babel, hyperref and cleveref all take the language
    "class-ngerman": ("[ngerman]", "\\usepackage[provide=*]{babel}\\usepackage{hyperref}\\usepackage{cleveref}",
                      "Siehe Abbildung 1 und Abb. 1 hier."),
    "class-italian": ("[italian]", "\\usepackage[provide=*]{babel}\\usepackage{hyperref}\\usepackage{cleveref}",
                      "Siehe Figura 1 und fig. 1 hier."),
    # babel's language replaces the preamble's word; cleveref is not told the language
    "babel-over-preamble": ("", "\\usepackage[provide=*,ngerman]{babel}\\usepackage{hyperref}\\usepackage{cleveref}"
                                "\\renewcommand{\\figureautorefname}{Bild}",
                            "Siehe Abbildung 1 und fig. 1 hier."),
    "extras": ("", "\\usepackage[provide=*,ngerman]{babel}\\usepackage{hyperref}\\usepackage[ngerman]{cleveref}"
                   "\\addto\\extrasngerman{\\renewcommand{\\figureautorefname}{Abb.}}",
               "Siehe Abb. 1 und Abb. 1 hier."),
    # no babel: the author's word stands
    "own-word": ("", "\\usepackage{hyperref}\\usepackage{cleveref}\\renewcommand{\\figureautorefname}{Bild}",
                 "Siehe Bild 1 und fig. 1 hier."),
    # what must not change: English babel still overrides, and hyperref loaded before babel
    # translates nothing
    "english": ("", "\\usepackage[english]{babel}\\usepackage{hyperref}\\usepackage{cleveref}"
                    "\\renewcommand{\\figureautorefname}{Bild}",
                "Siehe Figure 1 und fig. 1 hier."),
    "hyperref-first": ("", "\\usepackage{hyperref}\\usepackage[provide=*,ngerman]{babel}\\usepackage{cleveref}",
                       "Siehe Figure 1 und fig. 1 hier."),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_ref_word_is_the_one_printed(tmp_path, pdflatex, case):
    import pymupdf

    cls, preamble, printed = CASES[case]
    tex = (f"\\documentclass{cls}{{article}}\n{preamble}\n\\begin{{document}}\n"
           "Siehe \\autoref{fig:a} und \\cref{fig:a} hier.\n"
           "\\begin{figure}[h]\\centering\\rule{3cm}{2cm}\\caption{Ein Bild.}\\label{fig:a}\\end{figure}\n"
           "\\end{document}\n")
    pdf = compile_tex(tmp_path, tex)
    with pymupdf.open(pdf) as doc:
        assert doc[0].get_text().splitlines()[0] == printed  # what LaTeX printed, as the case says
    (fig,) = load(str(tmp_path / "main.tex")).figures
    assert [s.sentence for s in fig.sites] == [printed, printed]


def test_languages_read_from_the_options():
    assert babel_language(["11pt", "ngerman", "a4paper"], []) == "ngerman"
    assert babel_language(["ngerman"], ["english"]) == "english"  # the last one is the main language
    assert babel_language([], ["provide=*", "main=italian", "english"]) == "italian"
    assert babel_language(["a4paper"], ["shorthands=off"]) is None
    assert cleveref_language(["ngerman"], ["capitalise"]) == "ngerman"
    assert cleveref_language([], ["noabbrev"]) is None
    t = "\\addto\\extrasngerman{\\def\\x{a}\\renewcommand{\\figureautorefname}{Abb.}}\\renewcommand{\\y}{b}"
    assert added_to(t, t.index("\\renewcommand{\\fig")) == ("extras", "ngerman")
    assert added_to(t, t.index("\\renewcommand{\\y")) is None
