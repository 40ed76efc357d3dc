"""Citation labels as the build printed them, from the main file's `.aux` (LaTeX route).

A caption or citing sentence that cites a work prints "[12]", "(Smith et al., 2019)" or
"Smith et al. (2019)", never the citation key. BibTeX writes each label into the `.aux`
(`\\bibcite{key}{12}`; natbib: `\\bibcite{key}{{12}{2019}{{Smith et~al.}}{{Smith, Jones,
and Lee}}}`), with `\\@input{chapter.aux}` for `\\include`d files. Without an `.aux` (a
first run, or the sources alone) LaTeX prints "?" for every citation, and so does the text
rendered here: a key's digits ("smith2019") must never read as a value of the caption.
Read as text only; never outside the paper's tree; at most MAX_BYTES per file.
"""

from __future__ import annotations

import os
import re

from figlint.ingest.searchpath import is_inside

MAX_BYTES = 4_000_000
MAX_FILES = 200

_BIBCITE = re.compile(r"\\bibcite\{([^{}]*)\}\{")
_INPUT = re.compile(r"\\@input\{([^{}]+\.aux)\}")


class Cite:
    """One work's printed label: `number` (numeric or alphabetic styles: "12", "Smi19"), and for
    author-year styles also `year` and `authors` (the short author list, "Smith et al.")."""

    __slots__ = ("number", "year", "authors")

    def __init__(self, number: str, year: str = "", authors: str = "") -> None:
        self.number, self.year, self.authors = number, year, authors


def _group(text: str, i: int) -> tuple[str, int] | None:
    """The balanced {...} group opening at text[i] (contents, index after it)."""
    if i >= len(text) or text[i] != "{":
        return None
    depth = 0
    j, end = i, min(len(text), i + 2000)
    while j < end:
        c = text[j]
        if c == "\\":
            j += 2  # an escaped brace is no group's edge
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1:j], j + 1
        j += 1
    return None


def _plain(tex: str) -> str:
    """An author list as printed: ties and thin spaces are spaces, braces and simple accents go."""
    s = tex.replace("~", " ").replace("\\,", " ").replace("\\ ", " ")
    # an accent over a letter: \'e, \"{o}, \v{c}; a letter accent (\u, \v, \t, ...) only as a
    # control word of its own ("\textbf" is not \t over "e")
    s = re.sub(r"\\(?:[`'^\"~=.]|[uvHtcdbk](?![A-Za-z]))\s*\{?([A-Za-z])\}?", r"\1", s)
    from figlint.ingest.texscan import number_symbols

    s = re.sub(r"\\[A-Za-z@]+\s*", "", number_symbols(s))  # a label's number may print "1·2"
    return re.sub(r"\s+", " ", s.replace("{", "").replace("}", "")).strip()


def _parse(label: str) -> Cite:
    if not label.startswith("{"):
        return Cite(_plain(label))
    parts = []
    i = 0
    while i < len(label) and len(parts) < 4:
        g = _group(label, i)
        if g is None:
            break
        parts.append(g[0])
        i = g[1]
    number = _plain(parts[0]) if parts else ""
    year = _plain(parts[1]) if len(parts) > 1 else ""
    authors = _plain(parts[2]) if len(parts) > 2 else ""
    return Cite(number, year, authors)


class AuxRecord:
    """What the build recorded: `cites` (key -> Cite), `labels` (label -> what `\\ref` prints,
    from `\\newlabel`), `lof` (list-of-figures entries in the order written: (number, caption
    TeX)) and `files` (the .aux files read)."""

    __slots__ = ("cites", "labels", "lof", "files")

    def __init__(self) -> None:
        self.cites: dict[str, Cite] = {}
        self.labels: dict[str, str] = {}
        self.lof: list[tuple[str, str]] = []
        self.files: list[str] = []


_NEWLABEL = re.compile(r"\\newlabel\{([^{}]*)\}\{")
_LOF = re.compile(r"\\contentsline\s*\{figure\}\s*\{\\numberline\s*\{")


def read_aux(main_tex: str, root: str) -> AuxRecord:
    """The .aux beside the main file and those it `\\@input`s (`\\include`d files); empty when
    there is none."""
    rec = AuxRecord()
    read = rec.files
    todo = [os.path.splitext(main_tex)[0] + ".aux"]
    base = os.path.dirname(main_tex)
    while todo and len(read) < MAX_FILES:
        path = os.path.normpath(todo.pop(0))
        if path in read or not is_inside(path, root) or not os.path.isfile(path):
            continue
        try:
            with open(path, "rb") as fh:
                text = fh.read(MAX_BYTES).decode("utf-8", "replace")
        except OSError:
            continue
        read.append(path)
        for m in _BIBCITE.finditer(text):
            g = _group(text, m.end() - 1)
            if g is not None:
                rec.cites.setdefault(m.group(1).strip(), _parse(g[0].strip()))
        for m in _NEWLABEL.finditer(text):
            name = m.group(1).strip()
            if name.endswith("@cref"):
                continue  # cleveref's own record of the same label
            g = _group(text, m.end() - 1)
            first = _group(g[0], 0) if g is not None else None
            if first is not None:
                # a \label before any \caption in a float: the caption package records a
                # placeholder, and \ref prints "??"
                if "caption@xref" in first[0]:
                    rec.labels[name] = "??"
                elif "@" not in first[0]:
                    # (an internal's placeholder, as pgfplots records for a legend's \label,
                    # prints no text the route can know: figlint's own reading stands)
                    rec.labels[name] = _plain(first[0])
        for m in _LOF.finditer(text):
            num = _group(text, m.end() - 1)
            if num is None:
                continue
            cap = _group(text, num[1])
            rec.lof.append((_plain(num[0]), cap[0] if cap is not None else ""))
        todo += [os.path.join(base, m.group(1)) for m in _INPUT.finditer(text)]
    return rec


def read_cites(main_tex: str, root: str) -> tuple[dict[str, Cite], list[str]]:
    """({key: Cite}, .aux files read) for the paper whose main file is `main_tex`; empty when
    there is no .aux beside it."""
    rec = read_aux(main_tex, root)
    return rec.cites, rec.files


def render(macro: str, keys: list[str], cites: dict[str, Cite], notes: list[str] | tuple = ()) -> str:
    """A citation command as printed (natbib/standard semantics): "[3, 7]" for numbers,
    "(Smith et al., 2019; Lee, 2020)" for \\citep in author-year styles, "Smith et al. (2019)"
    for \\citet (and \\cite there), "?" for a key the build did not resolve. The optional
    arguments are notes printed with the labels: one is a postnote ("Lee (2020, Fig. 3)",
    "[1, p. 5]"), two are a prenote and a postnote ("(see Lee, 2020, ch. 2)")."""
    got = [cites.get(k) for k in keys]
    base = macro.lower()
    notes = [" ".join(n.split()) for n in notes]
    pre, post = (notes[0], notes[1]) if len(notes) >= 2 else ("", notes[0] if notes else "")
    pre, post = (pre + " " if pre else ""), (", " + post if post else "")
    if not got or any(c is None for c in got):
        return "[?]" if base not in ("citeauthor", "citeyear", "citeyearpar") else "?"
    author_year = all(c.year and c.authors for c in got)
    if not author_year:
        return "[" + pre + ", ".join(c.number for c in got) + post + "]"
    if base == "citeauthor":
        return "; ".join(c.authors for c in got)
    if base == "citeyear":
        return ", ".join(c.year for c in got)
    if base == "citeyearpar":
        return "(" + pre + ", ".join(c.year for c in got) + post + ")"
    if base in ("citealp", "citealt"):
        return pre + "; ".join(f"{c.authors}, {c.year}" for c in got) + post
    if base in ("citep", "parencite", "autocite"):
        return "(" + pre + "; ".join(f"{c.authors}, {c.year}" for c in got) + post + ")"
    # \citet, \cite, \textcite: the notes go inside the last work's parentheses
    head = [f"{c.authors} ({c.year})" for c in got[:-1]]
    last = got[-1]
    return ", ".join(head + [f"{last.authors} ({pre}{last.year}{post})"])
