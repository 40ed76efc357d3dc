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

_DOT = "[.\u00b7\u22c5]"  # a chapter's point, or the centred dot some thesis styles print ("A·3")
_LETTERED = re.compile(r"[A-Z]" + _DOT + r"?\d+(?:" + _DOT + r"\d+)?")
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
