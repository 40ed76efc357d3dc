"""Accents typed as commands keep their letters in the sources route's plain text.

The sources route swaps long runs of plain characters for one placeholder each before
pylatexenc reads a paragraph (texparse._pack_runs, paragraphs of 200 characters or more). A
run could start right after an accent command, so `\\"o` took the placeholder as its letter:
"o" lost its umlaut and the mark landed after the run's last character, on the next word or
before the "Figure N" an `\\autoref` printed; a mark moved to the start of a sentence hid its
capital and the citing sentence was merged with the one before (field audit: a German thesis
with umlauts typed as `\\"a`). Both routes now read the same citing sentence from the same
compiled paper.
"""

from __future__ import annotations

from figlint.ingest import load
from figlint.ingest.pdf import read_pdf
from figlint.ingest.texparse import TextRenderer
from tests.fixtures.pdf_build import compile_tex

GERMAN = ("Beide Schritte tragen nicht zur Behebung der St\\\"orung bei, sondern ordnen den Vorgang ein. "
          "\\\"Uber die eigenst\\\"andige L\\\"osung berichtet die Abbildung (siehe \\autoref{fig:a}), und sie "
          "ist f\\\"ur die weitere Bearbeitung des Vorgangs n\\\"utzlich. Die Dauer geht dennoch "
          "vollst\\\"andig ein.")
FRENCH = ("Fran\\c cois a lu le rapport tr\\`es attentivement ce matin. Il voit dans la \\autoref{fig:a} "
          "une fa\\c con d'\\^etre plus pr\\'ecis sur le d\\'ebat. Le \\'el\\`eve Se\\~nor Dvo\\v r\\'ak "
          "na\\\"{\\i}vement r\\'esume le d\\'ebat du jour.")
PLAIN = ("Both steps add nothing to the repair of the fault, but they order the work that follows it. "
         "The solution is shown in front (see \\autoref{fig:a}), and it is useful for the further work "
         "on the case. Its length counts all the same.")
FIG = "\\begin{figure}[h]\\centering\\rule{3cm}{2cm}\\caption{A picture.}\\label{fig:a}\\end{figure}\n"


def _sentences(tmp_path, para: str, label: str = "fig:a") -> tuple[list[str], list[str]]:
    tex = ("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{hyperref}\n\\begin{document}\n"
           + para + "\n" + FIG.replace("fig:a", label) + "\\end{document}\n")
    pdf = compile_tex(tmp_path, tex)
    (tfig,) = load(str(tmp_path / "main.tex")).figures
    (pfig,) = read_pdf(pdf).figures
    return [s.sentence for s in tfig.sites], [s.sentence for s in pfig.sites]


def test_umlauts_typed_as_commands_keep_their_letters_around_an_autoref(tmp_path, pdflatex):
    tex, pdf = _sentences(tmp_path, GERMAN)
    want = ("Über die eigenständige Lösung berichtet die Abbildung (siehe Figure 1), und sie ist für die "
            "weitere Bearbeitung des Vorgangs nützlich.")
    assert tex == [want] and pdf == [want], (tex, pdf)


def test_every_accent_command_keeps_its_letter(tmp_path, pdflatex):
    # the cedilla, grave, circumflex, acute, tilde and caron accents, \c and \v with a space
    tex, pdf = _sentences(tmp_path, FRENCH)
    want = "Il voit dans la Figure 1 une façon d'être plus précis sur le débat."
    assert tex == [want], tex
    assert [s.replace("\u2019", "'") for s in pdf] == [want], pdf


def test_a_paragraph_without_accents_reads_as_before(tmp_path, pdflatex):
    tex, pdf = _sentences(tmp_path, PLAIN)
    want = "The solution is shown in front (see Figure 1), and it is useful for the further work on the case."
    assert tex == [want] and pdf == [want], (tex, pdf)


def test_a_long_label_in_a_long_paragraph_is_still_a_label(tmp_path, pdflatex):
    # a key of 24 letters or more after \\ref or \\autoref was packed as a run of plain text,
    # and the reference printed "??" on the sources route (field audit: a German lab report)
    para = PLAIN.replace("\\autoref{fig:a}", "\\autoref{fig:measuredoutputoftheamplifierstage}") \
        + " The same output is drawn again in figure \\ref{fig:measuredoutputoftheamplifierstage} below."
    tex, pdf = _sentences(tmp_path, para.replace("fig:a", "fig:measuredoutputoftheamplifierstage"),
                          label="fig:measuredoutputoftheamplifierstage")
    assert len(tex) == 2 and "see Figure 1)" in tex[0] and "figure 1 below" in tex[1], tex
    assert tex == pdf, (tex, pdf)


def test_long_text_after_commands_is_still_packed_and_printed_whole():
    r = TextRenderer(None)
    # a control word or symbol followed by a long run: the run is still read as one piece
    s = ("\\emph{Note} that the ordering of these \\% values across the fifty runs is stable, "
         "\\LaTeX{} prints them unchanged; see \\S 3 for the complete list of the runs and their order. "
         "Na\\\"ive readers of the \\\"Ubersicht table will still find the ordering clear enough.")
    assert r.latex_to_text(s) == (
        "Note that the ordering of these % values across the fifty runs is stable, LaTeX prints them "
        "unchanged; see §3 for the complete list of the runs and their order. Naïve readers of the "
        "Übersicht table will still find the ordering clear enough.")
