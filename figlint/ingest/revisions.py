"""Revision marks as the build prints them: `\\added`, `\\deleted`, `\\replaced` of AASTeX's
classes and of the `changes` package.

A revised manuscript marks its edits (`\\replaced{30\\%}{56\\%}` in a caption). What prints
depends on who defines the marks: AASTeX's `\\replaced{old}{new}` prints the new text alone
unless the class option `trackchanges` is given; the `changes` package's
`\\replaced{new}{old}` prints the new text and the old one struck out, or the new one alone
with the option `final` (given to the package or to the class). Read as unknown macros,
both arguments went into the caption text: words that never print looked like stale text
(FL008) or like values the figure must show (FL207). The marks are given the definitions
the build uses, as if the paper had written them where it loads the class or package; a
paper's own definition later in the preamble still wins. (AASTeX sets a caption that fits on
one line as it measured it, with the marks switched off: both texts print there. The sources
cannot tell the line's width; such a caption is read as a longer one.)
"""

from __future__ import annotations

from figlint.ingest.texparse import MacroDef


def _defs(source: str, at: int) -> list[MacroDef]:
    from figlint.ingest.texscan import parse_definition

    out = []
    k = 0
    while True:
        k = source.find("\\newcommand", k)
        if k < 0:
            return out
        d, end = parse_definition(source, k + len("\\newcommand"), "newcommand", "")
        if d is not None:
            d.pos = at
            out.append(d)
        k = max(end, k + 1)


def class_marks(docclass: str, options: set[str], at: int) -> list[MacroDef]:
    """AASTeX (aastex6*, aastex7*): the new text alone, without `trackchanges`."""
    if not docclass.startswith("aastex") or "trackchanges" in options:
        return []
    return _defs("\\newcommand{\\added}[2][]{#2}\\newcommand{\\deleted}[2][]{}"
                 "\\newcommand{\\replaced}[3][]{#3}\\newcommand{\\explain}[2][]{}", at)


def package_marks(package: str, options: set[str], at: int) -> list[MacroDef]:
    """The `changes` package: new and old text (the old struck out), or with `final` the new."""
    if package != "changes":
        return []
    if "final" in options:
        return _defs("\\newcommand{\\added}[2][]{#2}\\newcommand{\\deleted}[2][]{}"
                     "\\newcommand{\\replaced}[3][]{#2}", at)
    return _defs("\\newcommand{\\added}[2][]{#2}\\newcommand{\\deleted}[2][]{#2}"
                 "\\newcommand{\\replaced}[3][]{#2#3}", at)
