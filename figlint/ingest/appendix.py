"""Which figures are an appendix's, as both routes settle it from the numbers printed.

Each route first places figures by position: after `\\appendix` in the sources, after an
appendix heading on the page. Numbering then corrects what position cannot tell:
- where the appendix numbers its figures by letter (A1, B.2), the figures numbered in the
  main series are the main text's wherever they print: a journal that collects all figures
  at the end of the manuscript (endfloat, AMS) sets them after the appendix;
- a plain number after figures numbered by chapter (3.1 ... 5.2, then 1, 2, 3) starts an appendix
  whose figures are numbered without a chapter: a thesis's appendix with no heading of its
  own the page shows.
"""

from __future__ import annotations

import re

from figlint.mentions import APPENDIX_WORD

_DOT = "[.\u00b7\u22c5]"  # a chapter's point, or the centred dot some thesis styles print ("A·3")
# "A1", "A.1", "A·3", "A 1" (a letter set off by a thin space, `\\thesection\\,\\arabic{figure}`)
_LETTERED = re.compile(r"[A-Z](?:" + _DOT + r"|[ \u00a0\u2009\u202f])?\d+(?:" + _DOT + r"\d+)?")
_PLAIN = re.compile(r"\d+")
_CHAPTER = re.compile(r"\d+" + _DOT + r"\d+")


def settle_appendix(figures) -> None:
    """Correct `in_appendix` of `figures` (in document order) by their numbers."""
    numbered = [f for f in figures if f.number]
    if any(_LETTERED.fullmatch(f.number) for f in numbered):
        for f in numbered:
            if not _LETTERED.fullmatch(f.number):
                f.in_appendix = False
        return
    chapters = 0  # figures numbered by chapter so far (a series: two at least)
    for k, f in enumerate(numbered):
        if _CHAPTER.fullmatch(f.number):
            chapters += 1
        elif chapters >= 2 and _PLAIN.fullmatch(f.number):
            for g in numbered[k:]:
                if _PLAIN.fullmatch(g.number):
                    g.in_appendix = True
            return


# "Appendix C", "Appendices B and C", "App. B.2", "Appendices A-C": the letters an appendix
# name designates (a section's own number, B.2, is of appendix B)
_DESIGNATED = re.compile(r"[\s~]*((?:[A-Z](?:\.\d+)*)(?:\s*(?:,|and|&|or|-{1,3}|[\u2013\u2014]|to|through)\s*[A-Z](?:\.\d+)*)*)(?![A-Za-z])")
_ABBREVIATED = re.compile(r"(?<![A-Za-z])Apps?\.")
_ONE = re.compile(r"(?<![A-Za-z])([A-Z])(?:\.\d+)*(?![A-Za-z])")
_RANGE = re.compile(r"(?<![A-Za-z])([A-Z])(?:\.\d+)*\s*(?:-{1,3}|[\u2013\u2014]|to|through)\s*([A-Z])(?![A-Za-z])")
_A_REFERENCE = re.compile(r"[\s~]*\\[A-Za-z]*ref\b")


def named_appendices(text: str) -> tuple[set[str], bool]:
    """The appendices `text` sends its reader to: (the letters it names, whether it names an
    appendix without a letter: "the curves are in the appendix"). A name followed by a
    reference command ("Appendix~\\ref{sec:x}") designates what the reference prints, which
    the LaTeX route reads from the label."""
    letters: set[str] = set()
    generic = False
    for m in list(APPENDIX_WORD.finditer(text)) + list(_ABBREVIATED.finditer(text)):
        after = text[m.end():m.end() + 80]
        got = _DESIGNATED.match(after)
        if got:
            letters |= designated(got.group(1))
        elif not _A_REFERENCE.match(after):
            generic = True
    return letters, generic


def designated(names: str) -> set[str]:
    """The appendix letters a list of designators names ("B and C" -> B, C; "A-C" -> A, B, C)."""
    out = {m.group(1) for m in _ONE.finditer(names)}
    for m in _RANGE.finditer(names):
        a, b = ord(m.group(1)), ord(m.group(2))
        if a < b <= a + 25:
            out |= {chr(c) for c in range(a, b + 1)}
    return out


def appendix_letter(number: str) -> str:
    """The appendix a section number printed as "C" or "C.2" is of ("" for a numbered one)."""
    head = (number or "").split(".")[0].strip()
    return head if re.fullmatch(r"[A-Z]", head) else ""
