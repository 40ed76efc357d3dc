"""Document-level scan of the flattened LaTeX: what LaTeX would number and link.

A fast pass over the control sequences of the whole paper (pylatexenc is
used only where structure matters: inside figure floats and for plain text,
so a long paper stays fast). It follows definitions (`\\newcommand`, `\\def`,
xparse), skips the arguments of macros that throw them away (`\\cut{...}`),
simulates the counters LaTeX uses for figure numbers (sections, chapters,
`\\appendix`, `\\setcounter`, `\\renewcommand{\\thefigure}`, `\\counterwithin`),
binds every `\\label` to what it would print, and records every reference
command with the labels it names. It also keeps the ranges that are not
body text (preamble, definitions, discarded arguments, command arguments) so
hard-coded "Figure 3" mentions can be searched in the rest.
"""

from __future__ import annotations

import bisect
import os
import re
from collections import deque
from dataclasses import dataclass, field

from pylatexenc import latexwalker as lw

from figlint.ingest.texparse import (
    CITE_MACROS, EQUATION_ENVS, FIGURE_ENVS, NON_FIGURE_REFS, REF_MACROS, TABLE_ENVS, CapEvent, FloatInfo,
    GraphicEvent, MacroDef, MacroTable, _alph, held_by, margs, numbered_caption_args, parse_float, split_labels,
    walker_context, xparse_kinds,
)
from figlint.ingest.texsource import (
    _CMD, Document, _scan_file, _skip_space, decode_bytes, match_brace, read_arg, read_args, shipped_file,
)
from figlint.ingest.revisions import class_marks, package_marks
from figlint.mentions import in_series, name_series
from figlint.model import Problem

# How a class numbers figures (what `class_numbering` reads from its file, and what pdflatex
# prints for it: tests/test_numbering.py checks both against TeX Live's class files):
#   "within"  reset at every \chapter, "chapter.n" once a chapter has begun (book: 1, 1.1, 2.1)
#   "within!" reset at every \chapter and always prefixed (memoir, ucthesis: 0.1 before a chapter)
#   "reset"   reset at every \chapter, printed without a prefix (amsbook: 1, 2, 1)
#   ""        straight through the document (article)
# with the class's own \secnumdepth where it numbers no chapters (tufte-book: -1, so 1, 2, 3).
# A class the paper ships (svmult, a thesis template) is read from its file instead; these are
# the classes of TeX Live, and a few common thesis classes outside it built on book or report.
CLASS_NUMBERING: dict[str, tuple[str, int | None]] = {
    "book": ("within", None), "report": ("within", None), "scrbook": ("within", None),
    "scrreprt": ("within", None), "memoir": ("within!", None), "ucthesis": ("within!", None),
    "amsbook": ("reset", None), "tufte-book": ("within", -1),
    "thesis": ("within", None), "mitthesis": ("within", None), "Dissertate": ("within", None),
    "kaobook": ("within", None), "suthesis": ("within", None), "ociamthesis": ("within", None),
}
CHAPTER_CLASSES = {c for c, (style, _) in CLASS_NUMBERING.items() if style}
_RESET_DECL = re.compile(
    r"\\newcounter\s*\{figure\}\s*\[chapter\]|\\@addtoreset\s*\{?figure\}?\s*\{?chapter\}?"
    r"|\\(?:counterwithin|numberwithin)\s*\*?\s*\{figure\}\s*\{chapter\}"
    r"|type=figure,[^\]]*?counterwithin=chapter")
_THEFIGURE_DEF = re.compile(r"\\(?:re)?newcommand\s*\*?\s*\{?\\thefigure\}?|\\[gex]?def\s*\\thefigure(?![A-Za-z@])")
_SECNUMDEPTH = re.compile(r"\\setcounter\s*\{secnumdepth\}\s*\{\s*(-?\d+)\s*\}")
_STEPS_CHAPTER = re.compile(r"\\(?:ref)?stepcounter\s*\{chapter\}")
_LOADCLASS = re.compile(r"\\LoadClass(?:WithOptions)?\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")


def class_numbering(text: str) -> tuple[str, int | None] | None:
    """How the class file `text` numbers figures (a CLASS_NUMBERING value), from its own
    declarations: the figure counter reset by the chapter (\\newcounter{figure}[chapter],
    \\@addtoreset, \\counterwithin, KOMA's counterwithin=chapter) and \\thefigure printing
    \\thechapter, guarded by \\ifnum\\c@chapter>\\z@ or not; None when it declares neither
    (it numbers as the class it loads does)."""
    body = None
    for m in _THEFIGURE_DEF.finditer(text):
        k = _skip_space(text, m.end())
        if k < len(text) and text[k] == "{":
            got = text[k:match_brace(text, k)]
            if "\\thechapter" in got:
                body = got
    reset = bool(_RESET_DECL.search(text))
    depth = _SECNUMDEPTH.findall(text)
    secnum = int(depth[-1]) if depth else None
    if re.search(r"type=figure,[^\]]*?counterwithin=chapter", text):
        return "within", secnum  # KOMA-Script's tocbasic prefixes the chapter once there is one
    if body is not None:
        guarded = re.search(r"\\ifnum\s*\\c@chapter\s*>\s*\\z@", body) is not None
        return ("within" if guarded else "within!"), secnum
    if re.search(r"\\counterwithin\s*\{figure\}\s*\{chapter\}", text):
        return "within!", secnum
    if reset:
        return "reset", secnum
    return ("", secnum) if secnum is not None else None


def class_base(text: str) -> str | None:
    """The class a class file builds on (\\LoadClass), when it names one literally."""
    m = _LOADCLASS.search(text)
    return m.group(1).strip() if m and "\\" not in m.group(1) else None


# How \appendix numbers figures in classes of TeX Live a paper does not ship (one it ships is
# read: appendix_numbering): \thefigure's format and whether the section resets the counter.
# elsarticle: the paper's fourth figure, in appendix A, prints "A.4"; mnras: A1, A2, B1.
APPENDIX_NUMBERING: dict[str, tuple[str, bool]] = {
    "elsarticle": (r"\Alph{section}.\arabic{figure}", False),
    "mnras": (r"\thesection\arabic{figure}", True),
}
_APPENDIX_DEF = re.compile(r"\\(?:re)?newcommand\s*\*?\s*\{?\\appendix\}?|\\[gex]?def\s*\\appendix(?![A-Za-z@])")
_FIGURE_RESET_BY_SECTION = re.compile(r"\\@addtoreset\s*\{?figure\}?\s*\{?section\}?|\\counterwithin\s*\{figure\}\s*\{section\}")


def appendix_numbering(text: str) -> tuple[str, bool] | None:
    """How a class file's own \\appendix numbers figures: the \\thefigure it sets there and
    whether it ties the figure counter to the section (\\@addtoreset{figure}{section}); None
    when its \\appendix leaves figures alone or it defines none."""
    for m in _APPENDIX_DEF.finditer(text):
        k = _skip_space(text, m.end())
        if k >= len(text) or text[k] != "{":
            continue
        body = text[k:match_brace(text, k)]
        fmt = None
        for d in _THEFIGURE_DEF.finditer(body):
            j = _skip_space(body, d.end())
            if j < len(body) and body[j] == "{":
                fmt = body[j + 1:match_brace(body, j) - 1]
        if fmt is not None:
            return fmt, bool(_FIGURE_RESET_BY_SECTION.search(body))
    return None
DEF_NEWCOMMAND = {"newcommand", "renewcommand", "providecommand", "DeclareRobustCommand",
                  "newrobustcmd", "renewrobustcmd", "providerobustcmd", "DeclareTextFontCommand"}
DEF_TEX = {"def", "gdef", "edef", "xdef"}
DEF_XPARSE = {"NewDocumentCommand", "RenewDocumentCommand", "ProvideDocumentCommand",
              "DeclareDocumentCommand", "NewExpandableDocumentCommand", "DeclareExpandableDocumentCommand"}
DEF_ENV = {"newenvironment", "renewenvironment", "NewDocumentEnvironment", "RenewDocumentEnvironment",
           "DeclareDocumentEnvironment", "newtheorem"}
MASK_ARG_CMDS = {
    "url", "href", "bibliography", "bibliographystyle", "addbibresource", "input", "include",
    "usepackage", "RequirePackage", "documentclass", "graphicspath", "hypersetup", "setlength",
    "includegraphics", "includesvg", "includestandalone", "includepdf", "definecolor", "nocite",
    "crefname", "Crefname", "pgfplotsset", "tikzset", "captionsetup", "setcounter",
    "addtocounter", "hyperlink", "hypertarget", "Cpageref", "cpageref", "pageref", "eqref",
}
# Commands of the LaTeX kernel and standard classes that a local package may redefine
# for typesetting: their printed text (none, or the argument) is known without the package.
_KERNEL_COMMANDS = {
    "tiny", "scriptsize", "footnotesize", "small", "normalsize", "large", "Large", "LARGE",
    "huge", "Huge", "caption", "section", "subsection", "subsubsection", "paragraph",
    "subparagraph", "chapter", "part", "footnote", "emph", "textbf", "textit", "texttt",
    "textsc", "textsf", "textrm", "label", "ref", "cite", "maketitle", "title", "author",
    "date", "thanks", "item", "par", "centering", "includegraphics", "url", "href",
}
_CONTINUED = re.compile(r"\\ContinuedFloat(?![A-Za-z@])\s*(\*?)")
_LETTERED_APPENDIX = re.compile(r"^\s*(?:Appendix|APPENDIX)\s+([A-Z])(?![A-Za-z])")
# (the headings the PDF route takes for an appendix's start too: pdf_sites._APPX_RE)
_APPENDIX_TITLE = re.compile(r"^\s*(appendi(x|ces)|supplementa(ry|l)\b|supplement\b|supporting\s+information\b"
                             r"|online\s+appendix\b|electronic\s+supplementary\b)", re.I)


# Float types a paper declares itself (caption's \DeclareCaptionType, newfloat's
# \DeclareFloatingEnvironment, float's \newfloat): a supplement's "sfigure" printed "Fig. S1".
# Each is numbered by its own counter and read as a figure when what it prints before its
# number is a figure's name: the labels the PDF route reads (pdf_captions._BARE_LABEL).
FLOAT_DECLS = {"DeclareCaptionType", "DeclareFloatingEnvironment", "newfloat", "floatname",
               "SetupFloatingEnvironment"}
# A float type's name ending in series letters after a word: "Figure S", "Figure A" (Quarto).
_SERIES_NAME = re.compile(r"^(\S.*?\S)[ ~\u00a0]+([A-Z]{1,2})$")
_FIGURE_NAME = re.compile(r"^(?:(?:supplementa(?:ry|l)|supporting|extended\s+data)\s+)?fig(?:ure|\.)?$", re.I)


def float_type_is_figure(name: str, listname: str = "") -> bool:
    """Whether a declared float type prints as a figure: its name ("Fig", "Supplementary
    Figure"; a "Table S" or "Listing" never), or, where the name is a macro we cannot read,
    its list's name ("List of supplementary figures")."""
    plain = re.sub(r"\s+", " ", name.replace("~", " ")).strip()
    if plain and "\\" not in plain:
        m = _SERIES_NAME.match(plain)  # "Figure S": a figure's name, its series letter after it
        return _FIGURE_NAME.match(m.group(1) if m else plain) is not None
    return re.search(r"figures", listname, re.I) is not None and re.search(r"table", listname, re.I) is None


def _key_value(opts: str, key: str) -> str | None:
    """The value of key= in a key-value list (braces around it dropped; a braced value may
    hold braces of its own, one level: name={Supplementary~\textbf{Figure}})."""
    m = re.search(r"(?:^|,)\s*" + key + r"\s*=\s*(\{(?:[^{}]|\{[^{}]*\})*\}|[^,]*)", opts)
    return m.group(1).strip().strip("{}").strip() if m else None


_CAPTIONSETUP = re.compile(r"\\captionsetup\s*(?:\[\s*figure\s*\])?\s*\{")
# the figure counter set in a macro's body (\beginsupplement's \setcounter{figure}{0})
_FIGURE_COUNTER_SET = re.compile(r"\\setcounter\s*\{figure\}\s*\{\s*(\d+)\s*\}")
# a definition added to babel's names of a language: \addto\captionsenglish{\renewcommand...}
_IN_CAPTIONS_HOOK = re.compile(r"\\(?:addto|appto|gappto|g@addto@macro)\s*\{?\s*\\captions[A-Za-z]+\s*\}?\s*\{[^{}]*$")
# a figure's name set in a macro's body: \renewcommand{\figurename}{...}, \def\figurename{...}
_FIGURENAME_DEF = re.compile(r"\\(?:(?:re)?newcommand\*?\s*\{?\s*\\figurename\s*\}?|g?def\s*\\figurename)\s*"
                             r"\{((?:[^{}]|\{[^{}]*\})*)\}")


def _caption_name(keys: str) -> str | None:
    """The figure name a \\captionsetup key list sets (name=, figurename=), or None."""
    return _key_value(keys, "(?:figure)?name")


def _name_set_in(body: str) -> str | None:
    """The figure name a macro's body sets (the last it sets), or None."""
    found = None
    for m in _FIGURENAME_DEF.finditer(body):
        found = m.group(1)
    for m in _CAPTIONSETUP.finditer(body):
        close = body.find("}", m.end())
        named = _caption_name(body[m.end():close if close >= 0 else len(body)])
        found = named if named is not None else found
    return found


def printed_number(rec) -> str:
    """What \\ref prints for figure `rec`: its number without the series a word of its name
    puts it in (FigRec.series: "S1" of "Supplementary Figure 1" prints "1")."""
    return rec.number[len(rec.series):] if rec.series and rec.number.startswith(rec.series) else rec.number


def labels_in_args(t: str, name: str, spec: str, args) -> list[str]:
    """The labels a reference command names, from its argument ranges in t."""
    if name == "hyperref":
        return split_labels(t[args[0][0]:args[0][1]]) if args and args[0] else []
    out: list[str] = []
    for kind, a in zip(spec, args):
        if kind == "{" and a is not None:
            out += split_labels(t[a[0]:a[1]])
    return out


# ---------------------------------------------------------------- counters

_ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
          (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]


def _fmt_num(style: str, n: int) -> str:
    if style == "arabic":
        return str(n)
    if style in ("alph", "Alph"):
        if n <= 0:
            return ""
        s = ""
        while n > 0:
            n, r = divmod(n - 1, 26)
            s = chr(ord("a") + r) + s
        return s.upper() if style == "Alph" else s
    if style in ("roman", "Roman"):
        s = ""
        for v, r in _ROMAN:
            while n >= v:
                s += r
                n -= v
        return s.upper() if style == "Roman" else s
    if style == "fnsymbol":
        return "*†‡§¶‖"[n - 1] if 0 < n <= 6 else str(n)
    return str(n)


class Counters:
    """The counters that decide what \\thefigure prints."""

    LEVELS = ("part", "chapter", "section", "subsection", "subsubsection")

    def __init__(self, style: str = "", secnumdepth: int | None = None) -> None:
        chapter_class = bool(style)
        self.chapters = chapter_class
        self.secnumdepth = secnumdepth
        self.values = {c: 0 for c in self.LEVELS + ("figure", "table", "equation")}
        prefix = {"within": r"\@chapprefix", "within!": r"\thechapter.", "reset": ""}.get(style, "")
        self.fmt: dict[str, str] = {
            "part": r"\Roman{part}",
            "chapter": r"\arabic{chapter}",
            "section": (r"\thechapter.\arabic{section}" if chapter_class else r"\arabic{section}"),
            "subsection": r"\thesection.\arabic{subsection}",
            "subsubsection": r"\thesubsection.\arabic{subsubsection}",
            "figure": prefix + r"\arabic{figure}",
            "table": prefix + r"\arabic{table}",
            "equation": prefix + r"\arabic{equation}",
        }
        self.resets: dict[str, set[str]] = {
            "part": {"chapter"} if chapter_class else {"section"},
            "chapter": {"section", "figure", "table", "equation"} if chapter_class else set(),
            "section": {"subsection"},
            "subsection": {"subsubsection"},
        }

    def numbered(self, level: str) -> bool:
        """Whether a sectioning command steps its counter (LaTeX's secnumdepth: a class that
        numbers no chapters, like tufte-book, never resets what the chapter would)."""
        if self.secnumdepth is None:
            return True
        depth = {"part": -1, "chapter": 0, "section": 1, "subsection": 2, "subsubsection": 3}[level]
        if not self.chapters:
            depth = {"part": 0}.get(level, depth)
        return depth <= self.secnumdepth

    def step(self, name: str) -> None:
        self.values[name] = self.values.get(name, 0) + 1
        self._reset(name)

    def _reset(self, name: str) -> None:
        for child in self.resets.get(name, ()):
            self.values[child] = 0
            self._reset(child)

    def set(self, name: str, value: int) -> None:
        self.values[name] = value

    def within(self, child: str, parent: str, prefix: bool) -> None:
        self.resets.setdefault(parent, set()).add(child)
        if prefix:
            self.fmt[child] = "\\the" + parent + ".\\arabic{" + child + "}"

    def without(self, child: str, parent: str) -> None:
        self.resets.get(parent, set()).discard(child)
        self.fmt[child] = "\\arabic{" + child + "}"

    def the(self, name: str, depth: int = 0) -> str:
        fmt = self.fmt.get(name, "\\arabic{" + name + "}")
        if depth > 6:
            return str(self.values.get(name, 0))

        def num(m: re.Match) -> str:
            return _fmt_num(m.group(1), self.values.get(m.group(2), 0))

        s = fmt
        s = s.replace(r"\@chapprefix", (self.the("chapter", depth + 1) + ".") if self.values.get("chapter", 0) > 0 else "")
        s = re.sub(r"\\@?(arabic|alph|Alph|roman|Roman|fnsymbol)\s*(?:\{\s*([A-Za-z@]+)\s*\}|\\c@([A-Za-z@]+))",
                   lambda m: _fmt_num(m.group(1), self.values.get(m.group(2) or m.group(3), 0)), s)
        s = re.sub(r"\\the([A-Za-z@]+)", lambda m: self.the(m.group(1), depth + 1) if m.group(1) in self.values else "", s)
        s = re.sub(r"\\[A-Za-z@]+\s*", "", number_symbols(s))
        return s.replace("{", "").replace("}", "").strip()


def number_symbols(s: str) -> str:
    """The separators a number's format prints as symbols, as printed, and math shifts gone:
    "\\thechapter$\\cdot$\\arabic{figure}" prints "1·2" (a thesis style's choice),
    "\\textendash" and "--" a dash "1–2". Other commands are left to the caller."""
    s = re.sub(r"\\(?:cdot|textperiodcentered|centerdot)(?![A-Za-z])\s*", "\u00b7", s)
    s = re.sub(r"\\textendash(?![A-Za-z])\s*|(?<!-)--(?!-)", "\u2013", s)
    return s.replace("$", "")


# ---------------------------------------------------------------- records

@dataclass
class FigRec:
    """One numbered figure as LaTeX would print it."""

    index: int
    number: str
    env: str
    begin_pos: int
    caption: CapEvent | None  # None: a float without a numbered caption (number "")
    float_info: FloatInfo | None
    subs: list[CapEvent] = field(default_factory=list)
    graphics: list[GraphicEvent] = field(default_factory=list)
    graphics_base: str = ""
    graphicspath: list[str] = field(default_factory=list)
    in_appendix: bool = False
    misplaced: list[str] = field(default_factory=list)
    tikz: bool = False
    float_index: int = 0  # which caption of its float (0 for the first)
    continues: int | None = None  # \ContinuedFloat: the FigRec whose number it prints again
    sub_end: int = 0  # sub-figure letters used up to here, by it and the parts it continues
    # the series a word of its name puts it in ("Supplementary Figure", mentions.name_series):
    # written before its number, "S1", though the page prints "Supplementary Figure 1" and \ref "1"
    series: str = ""
    name: str = ""  # the name it prints before its number where the sources set one (LaTeX)


@dataclass
class LabelDef:
    pos: int
    name: str
    kind: str  # figure, subfigure, misplaced, section, table, equation, other
    fig: int | None = None  # FigRec index (figure/subfigure; misplaced: the float's figure)
    printed: str = "??"
    letter: str = ""


@dataclass
class RefEvent:
    pos: int
    end: int
    macro: str
    labels: list[str]
    user: bool = False


@dataclass
class ScanResult:
    figures: list[FigRec] = field(default_factory=list)
    labels: list[LabelDef] = field(default_factory=list)
    refs: list[RefEvent] = field(default_factory=list)
    masks: list[tuple[int, int]] = field(default_factory=list)
    skipped: list[tuple[int, int]] = field(default_factory=list)  # not in the document at all
    table: MacroTable = field(default_factory=MacroTable)
    docclass: str = ""
    float_names: dict[str, str] = field(default_factory=dict)  # declared figure types: what they print
    # declared float types whose name ends in series letters ("Figure S"): the letters, which
    # begin the number the reader reads ("S1") though \\ref and the .aux print the counter ("1")
    float_series: dict[str, str] = field(default_factory=dict)
    chapters: bool = False  # the class numbers figures per chapter (itself or the class it loads)
    cleveref_options: set[str] = field(default_factory=set)
    # \documentclass's options and each package's first \usepackage (position, options), in the
    # order written: a language option's place decides which language babel sets (langnames)
    class_options: list[str] = field(default_factory=list)
    packages: dict[str, tuple[int, list[str]]] = field(default_factory=dict)
    crefnames: dict[str, tuple[str, str]] = field(default_factory=dict)
    caption_ranges: list[tuple[int, int, int]] = field(default_factory=list)  # (start, end, fig index)
    # headings that name a figure in a manuscript keeping its legends apart (Scanner.legends_apart)
    figure_heads: list[tuple[int, int]] = field(default_factory=list)
    appendix_pos: int | None = None
    appendix_heads: list[tuple[int, str]] = field(default_factory=list)  # (pos, printed number) of each appendix
    packages_read: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


# ---------------------------------------------------------------- definitions

def parse_definition(t: str, i: int, name: str, star: str) -> tuple[MacroDef | None, int]:
    """A definition command whose name ends at i: (MacroDef or None, end)."""
    j = i
    if name in DEF_NEWCOMMAND:
        if not star and t.startswith("*", _skip_space(t, j, False)):
            j = _skip_space(t, j, False) + 1
        j = _skip_space(t, j)
        if j < len(t) and t[j] == "{":
            e = match_brace(t, j)
            target = t[j + 1:e - 1].strip()
            j = e
        else:
            m = _CMD.match(t, j)
            if not m:
                return None, i
            target = m.group(0)
            j = m.end()
        if not target.startswith("\\"):
            return None, j
        mname = target[1:].strip()
        nargs, default = 0, None
        r = read_arg(t, j, "[")
        if r:
            try:
                nargs = int(t[r[0]:r[1]].strip())
            except ValueError:
                nargs = 0
            j = r[2]
            r2 = read_arg(t, j, "[")
            if r2:
                default = t[r2[0]:r2[1]]
                j = r2[2]
        b = read_arg(t, j, "{")
        if not b:
            return None, j
        body = t[b[0]:b[1]]
        nargs = max(0, min(nargs, 9))
        kinds = (["["] if default is not None else []) + ["{"] * (nargs - (1 if default is not None else 0))
        return MacroDef(mname, nargs, default, body, i, "".join(kinds), kinds), b[2]
    if name in DEF_TEX:
        m = re.compile(r"\s*\\([A-Za-z@]+|.)").match(t, j)
        if not m:
            return None, i
        mname = m.group(1)
        j = m.end()
        k = t.find("{", j)
        if k < 0 or k - j > 60:
            return None, j
        params = t[j:k]
        nargs = len(re.findall(r"#[1-9]", params))
        e = match_brace(t, k)
        body = t[k + 1:e - 1]
        return MacroDef(mname, nargs, None, body, i, "{" * nargs, ["{"] * nargs), e
    if name in DEF_XPARSE:
        a1 = read_arg(t, j, "{")
        if not a1:
            return None, j
        target = t[a1[0]:a1[1]].strip()
        a2 = read_arg(t, a1[2], "{")
        if not a2:
            return None, a1[2]
        a3 = read_arg(t, a2[2], "{")
        if not a3:
            return None, a2[2]
        if not target.startswith("\\"):
            return None, a3[2]
        kinds = xparse_kinds(t[a2[0]:a2[1]])
        body = t[a3[0]:a3[1]]
        return MacroDef(target[1:], len(kinds), None, body, i, "".join(kinds), kinds), a3[2]
    return None, i


def _skip_env_definition(t: str, i: int, name: str) -> int:
    if name == "newtheorem":
        _, end = read_args(t, i, "*{[{[")
        return end
    if name in ("newenvironment", "renewenvironment"):
        _, end = read_args(t, i, "*{[[{{")
        return end
    _, end = read_args(t, i, "{{{{")
    return end


# ---------------------------------------------------------------- the scanner

class _Scanner:
    def __init__(self, doc: Document, extra_refs: tuple[str, ...]) -> None:
        self.doc = doc
        self.t = doc.text
        self.res = ScanResult(table=MacroTable(extra_refs))
        self.table = self.res.table
        self.counters = Counters()
        self.ctx = None
        self.skips: deque[tuple[int, int]] = deque()
        self.env_stack: list[list] = []  # [name, begin_pos, saved_target]
        self.target: tuple | None = None
        self.cur_float: FloatInfo | None = None
        self.graphicspath: list[str] = []
        self.class_options: set[str] = set()  # \documentclass[...]: global options, packages see them too
        self.extra_refs = set(self.table.extra_refs)
        self.chapter_steps: set[str] = set()  # class commands that step the chapter (local_package)
        # \frontmatter and \backmatter (book, scrbook, memoir): chapters there are unnumbered
        self.mainmatter = True
        self.appendix_figures: tuple[str, bool] | None = None  # a shipped class's \appendix (appendix_numbering)
        self.float_types: dict[str, list[str]] = {}  # declared float types (FLOAT_DECLS): [name, listname]
        # (position, name, by a definition) where the figure's printed name is set:
        # \renewcommand{\figurename}, \captionsetup{name=...} outside a float, a macro called
        # in the body that does either
        self.figure_names: list[tuple[int, str, bool]] = []

    # -- helpers
    def mask(self, a: int, b: int) -> None:
        if b > a:
            self.res.masks.append((a, b))

    def skip(self, a: int, b: int) -> None:
        """The text from a to b is not scanned (the main loop jumps over it), nor read as text."""
        bisect.insort(self.skips, (a, b))  # in order: the loop takes them from the front
        self.res.skipped.append((a, b))
        self.mask(a, b)

    def walker_ctx(self):
        if self.ctx is None or self.ctx_version != self.table.version:
            self.ctx = walker_context(self.table)
            self.ctx_version = self.table.version
        return self.ctx

    ctx_version = -1

    def in_appendix(self, pos: int) -> bool:
        return self.res.appendix_pos is not None and pos >= self.res.appendix_pos

    # -- main loop
    def run(self) -> ScanResult:
        t = self.t
        body = self.doc.body_start
        self.mask(0, body)
        pos = 0
        while True:
            m = _CMD.search(t, pos)
            if not m:
                break
            i = m.start()
            if self.skips:
                while self.skips and self.skips[0][1] <= i:
                    self.skips.popleft()
                if self.skips and self.skips[0][0] <= i:
                    pos = self.skips.popleft()[1]
                    continue
            if self.cur_float is not None and i >= self.cur_float.end:
                self.cur_float = None
            name = m.group(1)
            star = m.group(2) or ""
            pos = m.end()
            if name is None:
                continue
            pos = self.dispatch(name, star, i, pos, i >= body)
        self.legends_apart()
        self.res.float_names = {f: v[0] for f, v in self.float_types.items() if self.declared_figure(f)}
        self.finish()
        return self.res

    def dispatch(self, name: str, star: str, i: int, pos: int, in_body: bool) -> int:
        t = self.t
        if name in DEF_NEWCOMMAND or name in DEF_TEX or name in DEF_XPARSE:
            d, end = parse_definition(t, pos, name, star)
            if d is not None:
                if d.name == "figurename" and d.nargs == 0:
                    # one babel sets again at \begin{document} unless added to its \captions<language>
                    reset = i < self.doc.body_start and not _IN_CAPTIONS_HOOK.search(t, max(0, i - 160), i)
                    self.figure_names.append((i, d.body, reset))
                if self.float_type_def(d):
                    pass  # a declared float type's number format
                elif d.name in ("thefigure", "thesection", "thechapter", "thetable", "thesubsection"):
                    self.counters.fmt[d.name[3:]] = d.body
                elif d.name in _KERNEL_COMMANDS:
                    pass  # a template's font size or sectioning set by hand: prints what the kernel's does
                elif not (name == "providecommand" and self.table.defs.get(d.name)):
                    d.pos = i
                    self.table.add(d)
            self.mask(i, end)
            self.res.skipped.append((i, end))
            return max(end, pos)
        if name in DEF_ENV:
            end = _skip_env_definition(t, pos, name)
            self.mask(i, end)
            return max(end, pos)
        if name in FLOAT_DECLS:
            end = self.declare_float(name, t, pos)
            self.mask(i, end)
            return max(end, pos)
        if name == "captionsetup":  # \captionsetup[sfigure]{name=Fig.}
            args, _ = read_args(t, pos, "[{")
            ftype = t[args[0][0]:args[0][1]].strip() if args[0] else ""
            if ftype in self.float_types and args[1]:
                self.name_float(ftype, _key_value(t[args[1][0]:args[1][1]], "name"))
            elif ftype in ("", "figure") and args[1] and self.cur_float is None:
                named = _caption_name(t[args[1][0]:args[1][1]])
                if named is not None:
                    self.figure_names.append((i, named, False))
        if name == "@ifundefined":
            return self.if_undefined(t, pos)
        if name == "begin":
            return self.begin(i, pos)
        if name == "end":
            return self.end(i, pos)
        if in_body and name in self.table.defs:
            self.supplement_macro(self.table.at(name, i), i)
        if name in ("appendix", "beginsupplement", "maketitlesupplementary", "supplementarysection") and in_body:
            if name == "appendix":
                self.appendix(i)
            elif self.res.appendix_pos is None:
                self.res.appendix_pos = i
            return pos
        if name in ("newacronym", "acro", "acrodef", "newglossaryentry"):
            return self.glossary_entry(name, i, pos)
        if name in self.table.defs:
            return self.user_macro(name, star, i, pos, in_body)
        if name == "label":
            r = read_arg(t, pos, "{")
            if r is None:
                return pos
            self.mask(i, r[2])
            if in_body and self.cur_float is None:
                self.doc_label(i, re.sub(r"\s+", " ", t[r[0]:r[1]]).strip())
            return r[2]
        if name in REF_MACROS or name in self.extra_refs or name in NON_FIGURE_REFS:
            spec = REF_MACROS.get(name) or NON_FIGURE_REFS.get(name) or "*{"
            if star and spec.startswith("*"):
                spec = spec[1:]
            args, end = read_args(t, pos, spec)
            self.mask(i, end)
            if in_body and name not in NON_FIGURE_REFS:
                labels = labels_in_args(t, name, spec, args)
                if not labels and any(k == "{" and a is not None and not t[a[0]:a[1]].strip()
                                      for k, a in zip(spec, args)):
                    labels = [""]  # \ref{}: names no label, and LaTeX prints "??" for it
                if labels:
                    self.res.refs.append(RefEvent(i, end, name, labels))
            return end
        if name in CITE_MACROS:
            spec = "[[{" if star else "*[[{"
            args, end = read_args(t, pos, spec)
            self.mask(i, end)
            if in_body:
                # a note printed with the citation may cite a figure: \citep[see][Figure~\ref{f}]{key}
                for kind, a in zip(spec, args):
                    if kind == "[" and a is not None and "\\" in t[a[0]:a[1]]:
                        self.cite_note_refs(a[0], a[1])
            return end
        if name == "teaser" and in_body and self.cur_float is None:
            # a class's \teaser{...} (sigchi, acmsiggraph, egpubl) sets its argument as a figure
            # under the title: a caption in it numbers a figure as a float's does
            r = read_arg(t, pos, "{")
            if r is not None and re.search(r"\\caption\b", t[r[0]:r[1]]):
                self.figure_float("teaserfigure", i, r[0], span=(r[0], r[1]))
            return pos
        if name in ("caption", "captionof") and self.cur_float is None and in_body:
            return self.doc_caption(name, star, i, pos)
        if name in ("frontmatter", "mainmatter", "backmatter") and in_body:
            self.mainmatter = name == "mainmatter"
            return pos
        if name in self.chapter_steps and in_body and not star:
            if self.counters.numbered("chapter") and self.mainmatter:
                self.counters.step("chapter")
                self.target = ("section", self.counters.the("chapter"))
            return pos
        if name in ("part", "chapter", "section", "subsection", "subsubsection"):
            if not star and self.counters.numbered(name) and (name != "chapter" or self.mainmatter):
                self.counters.step(name)
                self.target = ("section", self.counters.the(name))
                if in_body and self.in_appendix(i) and name == ("chapter" if self.res.chapters else "section"):
                    self.res.appendix_heads.append((i, self.target[1]))
            else:
                r = read_arg(t, pos, "{")
                if r and in_body and _APPENDIX_TITLE.match(t[r[0]:r[1]]) and self.res.appendix_pos is None:
                    self.res.appendix_pos = i
                # an unnumbered heading that types its letter ("\\section*{Appendix C: ...}")
                m = _LETTERED_APPENDIX.match(t[r[0]:r[1]]) if r and in_body else None
                if m and self.in_appendix(i):
                    self.res.appendix_heads.append((i, m.group(1)))
            return pos
        if name in ("setcounter", "addtocounter", "stepcounter", "refstepcounter"):
            spec = "{{" if name in ("setcounter", "addtocounter") else "{"
            args, end = read_args(t, pos, spec)
            if args[0]:
                cname = t[args[0][0]:args[0][1]].strip()
                if cname == "secnumdepth" and name == "setcounter" and args[1]:
                    try:
                        self.counters.secnumdepth = int(t[args[1][0]:args[1][1]].strip())
                    except ValueError:
                        pass
                if cname in self.counters.values:
                    if name == "stepcounter" or name == "refstepcounter":
                        self.counters.step(cname)
                    elif args[1]:
                        try:
                            v = int(t[args[1][0]:args[1][1]].strip())
                        except ValueError:
                            v = None
                        if v is not None:
                            if name == "setcounter":
                                self.counters.set(cname, v)
                            else:
                                self.counters.set(cname, self.counters.values[cname] + v)
            self.mask(i, end)
            return end
        if name in ("counterwithin", "numberwithin", "counterwithout"):
            args, end = read_args(t, pos, "{{")
            if args[0] and args[1]:
                child = t[args[0][0]:args[0][1]].strip()
                parent = t[args[1][0]:args[1][1]].strip()
                if name == "counterwithout":
                    self.counters.without(child, parent)
                else:
                    self.counters.within(child, parent, prefix=not star)
            self.mask(i, end)
            return end
        if name == "@addtoreset":
            args, end = read_args(t, pos, "{{")
            if args[0] and args[1]:
                self.counters.within(t[args[0][0]:args[0][1]].strip(), t[args[1][0]:args[1][1]].strip(), prefix=False)
            return end
        if name == "graphicspath":
            r = read_arg(t, pos, "{")
            if r:
                self.graphicspath = _graphicspath_dirs(t[r[0]:r[1]])
                self.mask(i, r[2])
                return r[2]
            return pos
        if name == "documentclass":
            args, end = read_args(t, pos, "[{")
            if args[1]:
                cls = t[args[1][0]:args[1][1]].strip()
                self.res.docclass = cls
                self.res.class_options = split_labels(t[args[0][0]:args[0][1]]) if args[0] else []
                self.class_options = set(self.res.class_options)
                for d in class_marks(cls, self.class_options, i):
                    self.table.add(d)
                self._numbering(CLASS_NUMBERING.get(cls))
                if cls == "memoir" and "article" in self.class_options:
                    # memoir's article option: \\chapter is the top heading, its floats and
                    # equations numbered straight through (\\counterwithout{figure}{chapter})
                    for child in ("figure", "table", "equation"):
                        self.counters.without(child, "chapter")
                self.local_package(cls, i, ext=".cls")  # a shipped class: what its file declares
            self.mask(i, end)
            return end
        if name in ("usepackage", "RequirePackage"):
            args, end = read_args(t, pos, "[{")
            if args[1]:
                names = split_labels(t[args[1][0]:args[1][1]])
                written = split_labels(t[args[0][0]:args[0][1]]) if args[0] else []
                opts = set(written)
                for pkg in names:
                    self.res.packages.setdefault(pkg, (i, written))
                    for d in package_marks(pkg, opts | self.class_options, i):
                        self.table.add(d)
                    if pkg == "cleveref":
                        self.res.cleveref_options |= opts
                    elif pkg in ("chngcntr",):
                        pass
                    else:
                        self.local_package(pkg, i)
            self.mask(i, end)
            return end
        if name in ("crefname", "Crefname"):
            args, end = read_args(t, pos, "{{{")
            if all(args):
                kind = t[args[0][0]:args[0][1]].strip()
                sing = t[args[1][0]:args[1][1]].strip()
                plur = t[args[2][0]:args[2][1]].strip()
                self.res.crefnames[name + ":" + kind] = (sing, plur)
            self.mask(i, end)
            return end
        if name in ("verb", "lstinline"):
            k = pos
            if name == "lstinline" and k < len(t) and t[k] == "[":
                close = t.find("]", k)
                k = close + 1 if close > 0 else k
            if k < len(t) and t[k] not in " \n{":
                close = t.find(t[k], k + 1)
                if close > 0:
                    self.mask(i, close + 1)
                    return close + 1
            return pos
        if name in MASK_ARG_CMDS:
            spec = {"href": "[{", "url": "{", "includegraphics": "*[[{", "setlength": "{{",
                    "definecolor": "{{{", "hyperlink": "{", "hypertarget": "{"}.get(name, "[{")
            _, end = read_args(t, pos, spec)
            if name in _TYPED_GRAPHICS and in_body and self.cur_float is None and not self.in_table():
                self.typed_figure(i, end)
            self.mask(i, end)
            return end
        return pos

    # -- pieces
    def user_macro(self, name: str, star: str, i: int, pos: int, in_body: bool) -> int:
        t = self.t
        d = self.table.at(name, i)
        if d is None:
            return pos
        kinds = list(d.kinds)
        if self.table.is_ref_wrapper(d):
            args, end = read_args(t, pos, "".join(kinds))
            vals = [t[a[0]:a[1]] if a else None for a in args]
            labels = self.expand_refs(d.expand(vals), i, 0)
            self.mask(i, end)
            if in_body and labels:
                self.res.refs.append(RefEvent(i, end, name, labels, user=True))
            return end
        disc = d.discarded
        if disc:
            args, end = read_args(t, pos, "".join(kinds))
            for k, a in enumerate(args):
                if a is None or (k + 1) not in disc:
                    continue
                # the whole argument, braces included
                a0 = a[0] - 1 if a[0] > 0 and t[a[0] - 1] in "{[" else a[0]
                a1 = a[1] + 1 if a[1] < len(t) and t[a[1]:a[1] + 1] in ("}", "]") else a[1]
                self.skip(a0, a1)
            self.mask(i, pos)
            return pos
        return pos

    def glossary_entry(self, name: str, i: int, pos: int) -> int:
        """An acronym or glossary entry (glossaries, acronym): what \\gls / \\ac print for it."""
        t = self.t
        if name == "newacronym":
            args, end = read_args(t, pos, "[{{{")
            vals = [t[a[0]:a[1]] if a else None for a in args]
            key, short, long = vals[1], vals[2], vals[3]
        elif name in ("acro", "acrodef"):
            args, end = read_args(t, pos, "{[{")
            vals = [t[a[0]:a[1]] if a else None for a in args]
            key, short, long = vals[0], vals[1] if vals[1] is not None else vals[0], vals[2]
        else:
            args, end = read_args(t, pos, "{{")
            vals = [t[a[0]:a[1]] if a else None for a in args]
            key = vals[0]
            m = re.search(r"(?:^|,)\s*name\s*=\s*(\{(?:[^{}]|\{[^{}]*\})*\}|[^,]*)", vals[1] or "")
            short = long = m.group(1).strip().strip("{}") if m else key
        if key and short is not None:
            self.table.acronyms[key.strip()] = (short.strip(), (long or short).strip())
        self.mask(i, end)
        return max(end, pos)

    def expand_refs(self, s: str, pos: int, depth: int) -> list[str]:
        """Labels named by reference commands in an expanded user-macro body."""
        out: list[str] = []
        k = 0
        while depth < 6:
            m = _CMD.search(s, k)
            if not m:
                break
            k = m.end()
            nm = m.group(1)
            if not nm:
                continue
            star = m.group(2)
            if nm in self.table.defs and nm not in REF_MACROS:
                d = self.table.at(nm, pos)
                if d is not None and self.table.is_ref_wrapper(d):
                    args, end = read_args(s, k, "".join(d.kinds))
                    vals = [s[a[0]:a[1]] if a else None for a in args]
                    out += self.expand_refs(d.expand(vals), pos, depth + 1)
                    k = end
                continue
            if nm in REF_MACROS or nm in self.extra_refs:
                spec = REF_MACROS.get(nm, "*{")
                if star and spec.startswith("*"):
                    spec = spec[1:]
                args, end = read_args(s, k, spec)
                out += labels_in_args(s, nm, spec, args)
                k = end
        return out

    def local_package(self, pkg: str, at: int, ext: str = ".sty") -> bool:
        """Definitions from a package (or class) file shipped in the paper's tree (True when
        there is one). A class's figure numbering is its own declarations' (class_numbering),
        else that of the class it loads: shipped too, or one of CLASS_NUMBERING."""
        # beside the file that loads it, else the class or package a TEXINPUTS build finds
        path = shipped_file(pkg + ext, [self.doc.dir_at(at), *self.doc.search_dirs], self.doc.root)
        if path is None:
            return False
        try:
            with open(path, "rb") as fh:
                text, _ = decode_bytes(fh.read(2_000_000))
        except OSError:
            return False
        rel = os.path.relpath(path, self.doc.root).replace(os.sep, "/")
        if rel in self.res.packages_read:
            return True
        self.res.packages_read.append(rel)
        ops, _ = _scan_file(text, False)
        clean = "".join(text[o.start:o.end] for o in ops if o.kind in ("keep", "verb"))
        if ext == ".cls":
            self.appendix_figures = appendix_numbering(clean) or self.appendix_figures
            own = class_numbering(clean)
            parent = class_base(clean)
            if parent is not None and parent != pkg and not self.local_package(parent, at, ext=".cls"):
                self._numbering(CLASS_NUMBERING.get(parent))
            if own is not None:
                self._numbering(own)
        k = 0
        while True:
            m = _CMD.search(clean, k)
            if not m:
                break
            k = m.end()
            nm = m.group(1)
            if nm in ("LoadClass", "LoadClassWithOptions") and ext == ".cls":
                _, end = read_args(clean, k, "[{")  # its numbering: above
                k = max(k, end)
                continue
            if nm == "graphicspath":  # a house style that sets where the figures are
                r = read_arg(clean, k, "{")
                if r:
                    self.graphicspath = _graphicspath_dirs(clean[r[0]:r[1]])
                    k = max(k, r[2])
                continue
            if nm in FLOAT_DECLS:  # a house style's supplement floats
                k = max(k, self.declare_float(nm, clean, k))
                continue
            if nm in DEF_NEWCOMMAND or nm in DEF_TEX or nm in DEF_XPARSE:
                d, end = parse_definition(clean, k, nm, m.group(2) or "")
                if d is not None:
                    self.float_type_def(d)
                if d is not None and ext == ".cls" and "@" not in d.name and d.name != "chapter" \
                        and _STEPS_CHAPTER.search(d.body):
                    # a class's own command that begins a chapter: svmult's \maketitle opens each
                    # contribution of a volume as one (figures 1.1, 1.2, then 2.1)
                    self.chapter_steps.add(d.name)
                if d is not None and "@" not in d.name and numbered_caption_args(d.body) is not None \
                        and not self.table.defs.get(d.name):
                    ni, ti = numbered_caption_args(d.body)
                    if max(ni, ti) < d.nargs:
                        # a caption that numbers by hand: read as one (texparse), never expanded
                        self.table.numbered_captions[d.name] = (ni, ti)
                        self.table.add(MacroDef(d.name, d.nargs, None, "", -1, d.argspec, d.kinds))
                        k = max(k, end)
                        continue
                # A package's definitions that reach into LaTeX's internals (a body using
                # \@setsize, \@ifnextchar, ...) or redefine the kernel's own commands (font
                # sizes, \caption) typeset; they are not text to put into a caption.
                if d is not None and "@" not in d.name and not d.name.startswith("the") \
                        and "@" not in d.body and d.name not in _KERNEL_COMMANDS:
                    d.pos = -1
                    if not self.table.defs.get(d.name):
                        self.table.add(d)
                        if d.name == "figurename" and not d.nargs:  # IEEEtran's "Fig."
                            self.figure_names.insert(0, (-1, d.body, False))
                k = max(k, end)
        return True

    def declare_float(self, nm: str, text: str, k: int) -> int:
        """Read a float type's declaration (FLOAT_DECLS) in `text` from k, or a name it is
        given afterwards; returns where the command ends. The type gets its own counter,
        numbered within the chapter where both packages' default puts it."""
        if nm in ("floatname", "SetupFloatingEnvironment"):
            args, end = read_args(text, k, "{{")
            ftype = text[args[0][0]:args[0][1]].strip() if args[0] else ""
            if ftype in self.float_types and args[1]:
                got = text[args[1][0]:args[1][1]]
                self.name_float(ftype, got if nm == "floatname" else _key_value(got, "name"))
            return end
        if nm == "newfloat":  # float: \newfloat{type}{placement}{ext}[within], named as its type
            args, end = read_args(text, k, "{{{[")
            if not args[0]:
                return end
            ftype = text[args[0][0]:args[0][1]].strip()
            name, listname = ftype, ""
            within = text[args[3][0]:args[3][1]].strip() if args[3] else "none"
        else:  # \DeclareCaptionType / \DeclareFloatingEnvironment [options]{type}[name][listname]
            args, end = read_args(text, k, "[{[[")
            if not args[1]:
                return end
            ftype = text[args[1][0]:args[1][1]].strip()
            opts = text[args[0][0]:args[0][1]] if args[0] else ""
            name = text[args[2][0]:args[2][1]].strip() if args[2] else _key_value(opts, "name")
            if name is None:
                name = ftype[:1].upper() + ftype[1:]
            listname = text[args[3][0]:args[3][1]] if args[3] else (_key_value(opts, "listname") or "")
            within = _key_value(opts, "within")
        if not ftype or ftype in ("figure", "table"):
            return end
        self.float_types[ftype] = [name, listname]
        c = self.counters
        c.values[ftype] = 0
        c.fmt.pop(ftype, None)
        if within is None:  # as the figure counter: within the chapter of a class that has them
            c.fmt[ftype] = c.fmt["figure"].replace("{figure}", "{" + ftype + "}")
            if "figure" in c.resets.get("chapter", set()):
                c.resets["chapter"].add(ftype)
        elif within not in ("", "none") and "\\" not in within:  # a macro (algorithm.sty's): not followed
            c.within(ftype, within, prefix=True)
        self.name_float(ftype, name)
        return end

    def name_float(self, ftype: str, name: str | None) -> None:
        """Give the declared float type `ftype` its printed name. A name that ends in a series
        letter or two after a word ("Figure S", "Figure A": Quarto's supplementary and appendix
        figures, printed "Figure S1" with the number right after the letter) is that word, and
        the letters begin the type's number, as the reader reads it ("S1", as "Fig. S1" is)."""
        if name is None:
            return
        name = name.strip()
        m = _SERIES_NAME.match(name)
        if m:
            name, series = m.group(1), m.group(2)
            fmt = self.counters.fmt.get(ftype, "\\arabic{" + ftype + "}")
            if not fmt.startswith(series):
                self.counters.fmt[ftype] = series + fmt
            self.res.float_series[ftype] = series
        self.float_types[ftype][0] = name

    def if_undefined(self, t: str, pos: int) -> int:
        """\\@ifundefined{c@chapter}{...}{...} in a preamble (Quarto declares its float types
        so, with [chapter] in the second branch): where the counter's existence is known (the
        chapter's: whether the class has chapters; the counters every class has), the branch
        LaTeX takes is read and the other skipped. Otherwise both are read, as before."""
        args, end = read_args(t, pos, "{{{")
        if None in args:
            return pos
        m = re.fullmatch(r"\s*c@([A-Za-z]+)\s*", t[args[0][0]:args[0][1]])
        if m is None:
            return pos
        counter = m.group(1)
        if counter == "chapter":
            defined = self.counters.chapters
        elif counter in self.counters.values:
            defined = True
        else:
            return pos
        skip = args[1] if defined else args[2]
        self.skip(skip[0] - 1, skip[1] + 1)  # the braces too
        return args[1][0]

    def float_type_def(self, d: MacroDef) -> bool:
        """A declared float type's name (\\renewcommand{\\sfigurename}{Fig.}, still a macro the
        text may use) or number format (\\renewcommand{\\thesfigure}{S\\arabic{sfigure}}, which
        the counters keep); True for the number format."""
        if d.name.endswith("name") and d.name[:-4] in self.float_types:
            self.float_types[d.name[:-4]][0] = d.body.strip()
            return False
        if d.name.startswith("the") and d.name[3:] in self.float_types:
            self.counters.fmt[d.name[3:]] = d.body
            return True
        return False

    def supplement_macro(self, d: MacroDef, i: int) -> None:
        """A macro without arguments called at i that opens a supplement (bioRxiv templates'
        \\beginsupplement): what its body does to the figures from there on, which the scan of
        its definition did not do: the counter set again (\\setcounter{figure}{0}), the number's
        format (\\renewcommand{\\thefigure}{S\\arabic{figure}}) and the name
        (\\renewcommand{\\figurename}{Supplementary Figure}, \\captionsetup{name=...})."""
        if d.nargs or "figure" not in d.body:
            return
        named = _name_set_in(d.body)
        if named is not None:
            self.figure_names.append((i, named, False))
        for m in _FIGURE_COUNTER_SET.finditer(d.body):
            self.counters.set("figure", int(m.group(1)))
        for m in _THEFIGURE_DEF.finditer(d.body):
            j = _skip_space(d.body, m.end())
            if j < len(d.body) and d.body[j] == "{":
                self.counters.fmt["figure"] = d.body[j + 1:match_brace(d.body, j) - 1]

    def figure_name(self, env: str, counter: str, i: int, end: int) -> tuple[str, str]:
        """(the name a figure float at i..end prints before its number, as written in the
        sources or "" when unknown; the series a word of that name puts it in, "S" for
        "Supplementary Figure", mentions.name_series). A declared type's name is its own; a
        figure's is set by \\captionsetup{name=...} inside the float, else by the last
        \\renewcommand{\\figurename} or \\captionsetup{name=...} before it: a supplement after
        the main text, its figures renamed "Supplementary Figure" and counted from 1 again."""
        if counter != "figure":
            name = self.float_types.get(counter, [""])[0]
        else:
            local = _CAPTIONSETUP.search(self.t, i, end)
            keys = read_arg(self.t, local.end() - 1, "{") if local else None
            named = _caption_name(self.t[keys[0]:keys[1]]) if keys else None
            if named is None:
                # babel (and polyglossia) set \figurename again at \begin{document}: a
                # \renewcommand of the preamble prints only without them
                reset = ("babel" in self.res.packages or "polyglossia" in self.res.packages) and self.doc.body_start
                named = next((n for p, n, by_def in reversed(self.figure_names)
                              if p <= i and not (reset and by_def and p < reset)), "")
            name = named
        plain = re.sub(r"\\[A-Za-z@]+\*?|[{}]", " ", name.replace("~", " "))
        return name, name_series(plain)

    def declared_figure(self, env: str) -> str:
        """The counter of a declared float type `env` (or its starred form) that prints as a
        figure; "" for any other environment."""
        base = env[:-1] if env.endswith("*") else env
        got = self.float_types.get(base)
        return base if got is not None and float_type_is_figure(*got) else ""

    def _numbering(self, how: tuple[str, int | None] | None) -> None:
        """Number figures as a class does (a CLASS_NUMBERING value; None: as article does)."""
        style, secnum = how if how is not None else ("", None)
        self.res.chapters = bool(style)
        self.counters = Counters(style, secnum)

    def appendix(self, i: int) -> None:
        if self.res.appendix_pos is None:
            self.res.appendix_pos = i
        c = self.counters
        if self.res.chapters:
            c.values["chapter"] = 0
            c.fmt["chapter"] = r"\Alph{chapter}"
        else:
            c.values["section"] = 0
            c.fmt["section"] = r"\Alph{section}"
        how = self.appendix_figures or APPENDIX_NUMBERING.get(self.res.docclass)
        if how is not None and not self.res.chapters:
            fmt, reset = how
            c.fmt["figure"] = fmt
            if reset:  # A1, A2, then B1: the section restarts the count
                c.within("figure", "section", prefix=False)
                c.values["figure"] = 0

    def begin(self, i: int, pos: int) -> int:
        t = self.t
        r = read_arg(t, pos, "{")
        if r is None:
            return pos
        env = t[r[0]:r[1]].strip()
        end_of_begin = r[2]
        self.mask(i, end_of_begin)
        if env == "appendices" and i >= self.doc.body_start:
            self.appendix(i)
        if env == "thebibliography":
            m = re.compile(r"\\end\s*\{thebibliography\}").search(t, end_of_begin)
            stop = m.end() if m else len(t)
            self.mask(i, stop)
            return stop
        counter = "figure" if env in FIGURE_ENVS else self.declared_figure(env)
        if counter and self.cur_float is None and i >= self.doc.body_start:
            self.env_stack.append([env, i, self.target])
            self.figure_float(env, i, end_of_begin, counter=counter)
            return end_of_begin
        self.env_stack.append([env, i, self.target])
        if env in TABLE_ENVS:
            pass
        return end_of_begin

    def end(self, i: int, pos: int) -> int:
        t = self.t
        r = read_arg(t, pos, "{")
        if r is None:
            return pos
        env = t[r[0]:r[1]].strip()
        self.mask(i, r[2])
        for k in range(len(self.env_stack) - 1, -1, -1):
            if self.env_stack[k][0] == env:
                saved = self.env_stack[k][2]
                del self.env_stack[k:]
                self.target = saved
                break
        if self.cur_float is not None and env == self.cur_float.env and r[2] >= self.cur_float.end - 1:
            self.cur_float = None
        return r[2]

    def _float_end(self, env: str, start: int) -> int:
        t = self.t
        # Every \begin{env} is matched with its \end{env} in one pass over the text, once per
        # environment name: counting depth afresh from each float was quadratic when many never
        # close (a megabyte line of \begin{figure} took minutes). Same ends as that count.
        cache = self.__dict__.setdefault("_env_ends", {})
        ends = cache.get(env)
        if ends is None:
            ends = cache[env] = {}
            stack: list[int] = []
            for m in re.finditer(r"\\(begin|end)\s*\{" + re.escape(env) + r"\}", t):
                if m.group(1) == "begin":
                    stack.append(m.start())
                elif stack:
                    ends[stack.pop()] = m.end()
        if start in ends:
            return ends[start]
        if not re.match(r"\\begin\s*\{" + re.escape(env) + r"\}", t[start:start + len(env) + 40]):
            depth = 0  # not at a \begin{env} (never expected): count depth from here as before
            for m in re.finditer(r"\\(begin|end)\s*\{" + re.escape(env) + r"\}", t[start:]):
                depth += 1 if m.group(1) == "begin" else -1
                if depth == 0:
                    return start + m.end()
        # never closed: stop at the next figure float or the end of the text
        envs = FIGURE_ENVS | {e for e in (f + s for f in self.float_types for s in ("", "*")) if self.declared_figure(e)}
        nxt = re.compile(r"\\begin\s*\{(" + "|".join(re.escape(e) for e in envs) + r")\}").search(t, start + 1)
        stop = nxt.start() if nxt else len(t)
        loc = self.doc.locate(start)
        self.res.problems.append(Problem(
            code="FL006", message=f"\\begin{{{env}}} is never closed; figure read up to the next float",
            location=loc))
        return stop

    def figure_float(self, env: str, i: int, after_begin: int, span: tuple[int, int] | None = None,
                     counter: str = "figure") -> None:
        """Read one figure float; `counter` numbers it (a declared type's own: "sfigure")."""
        end = self._float_end(env, i) if span is None else span[1]
        info = parse_float(self.t, i if span is None else span[0], end, env, self.table, self.walker_ctx())
        self.cur_float = info
        if info.trouble:  # too long or too tangled to parse whole in reasonable time (texparse)
            self.res.problems.append(Problem(code="FL006", message=f"\\begin{{{env}}} {info.trouble}",
                                             location=self.doc.locate(i)))
        figs: list[int] = []
        # captions the float gives another type (\captionsetup{type=table}): that type's number
        others = []
        for _pos, ctype in info.others:
            if ctype == "table":
                self.counters.step("table")
                others.append(("table", self.counters.the("table")))
            else:
                others.append(("other", ""))
        cont = self._continued(i, end, info)
        fname, series = self.figure_name(env, counter, i, end)
        for k, cap in enumerate(info.mains):
            continues = cont if k == 0 and not cap.number else None
            if not cap.number and continues is None:
                self.counters.step(counter)
            number = self.counters.the(counter)
            rec = FigRec(index=len(self.res.figures), number=cap.number or in_series(number, series), env=env,
                         begin_pos=i, caption=cap, float_info=info, in_appendix=self.in_appendix(cap.pos),
                         graphicspath=list(self.graphicspath), graphics_base=self.doc.dir_at(i),
                         tikz=info.tikz, float_index=k, continues=continues,
                         series="" if cap.number or number[:1].isalpha() else series, name=fname)
            self.res.figures.append(rec)
            figs.append(rec.index)
            if cap.long_range:
                self.res.caption_ranges.append((cap.long_range[0], cap.long_range[1], rec.index))
        for sub in info.subs:
            if sub.parent is not None:
                self.res.figures[figs[sub.parent]].subs.append(sub)
        for k in figs:
            self._letter_subs(self.res.figures[k])
        # graphics go to the \captionbox holding them, else the first caption after them (or the last)
        for g in info.graphics:
            if not figs:
                break
            k = held_by(info.mains, g.pos)
            if k is None:
                k = next((j for j, c in enumerate(info.mains) if c.pos > g.pos), len(figs) - 1)
            self.res.figures[figs[k]].graphics.append(g)
        if not figs and i >= self.doc.body_start and any(
                sub.macro in ("subcaption", "subcaptionbox", "phantomsubcaption") or sub.sub_env is not None for sub in info.subs):
            # subcaption's sub-captions number a float that has no main caption: LaTeX steps
            # the figure counter at the first one (references print "2a"), and writes no
            # list-of-figures line, so the figure has a number and no caption
            if cont is None:
                self.counters.step(counter)
            number = self.counters.the(counter)
            rec = FigRec(index=len(self.res.figures), number=in_series(number, series), env=env,
                         begin_pos=i, caption=None, float_info=info, in_appendix=self.in_appendix(i),
                         graphicspath=list(self.graphicspath), graphics_base=self.doc.dir_at(i),
                         tikz=info.tikz, graphics=list(info.graphics), continues=cont,
                         series="" if number[:1].isalpha() else series, name=fname)
            self.res.figures.append(rec)
            figs.append(rec.index)
            for sub in info.subs:
                sub.parent = 0
                rec.subs.append(sub)
            self._letter_subs(rec)
        equations_only = info.equations and not (info.graphics or info.tikz or info.subs or info.starred)
        if not figs and i >= self.doc.body_start and not others and not equations_only:
            # no numbered caption: still a figure (rules report it), with no number; a float
            # holding only displayed equations (an author floating them) is no figure
            rec = FigRec(index=len(self.res.figures), number="", env=env, begin_pos=i,
                         caption=info.starred[0] if info.starred else None,
                         float_info=info, in_appendix=self.in_appendix(i),
                         graphicspath=list(self.graphicspath), graphics_base=self.doc.dir_at(i),
                         tikz=info.tikz, graphics=list(info.graphics))
            self.res.figures.append(rec)
            figs.append(rec.index)
            for sub in info.subs:
                rec.subs.append(sub)
        # labels: what each would print
        for lpos, lab, target in info.labels:
            if i < self.doc.body_start:
                break
            if target is None:
                kind, printed = "misplaced", self._printed(self.target)
                fig = figs[0] if figs else None
                if fig is not None:
                    self.res.figures[fig].misplaced.append(lab)
                self.res.labels.append(LabelDef(lpos, lab, kind, fig, printed))
            elif target[0] == "main":
                fig = figs[target[1]]
                self.res.labels.append(LabelDef(lpos, lab, "figure", fig, printed_number(self.res.figures[fig])))
            elif target[0] == "equation":
                self.res.labels.append(LabelDef(lpos, lab, "equation", None, "?"))
            elif target[0] == "other-env":
                self.res.labels.append(LabelDef(lpos, lab, "other", None, ""))
            elif target[0] == "other":
                kind, printed = others[target[1]]
                self.res.labels.append(LabelDef(lpos, lab, kind, None, printed))
            else:
                sub = info.subs[target[1]]
                if sub.parent is None:
                    self.res.labels.append(LabelDef(lpos, lab, "misplaced", None, "??"))
                    continue
                fig = figs[sub.parent]
                self.res.labels.append(LabelDef(lpos, lab, "subfigure", fig,
                                                printed_number(self.res.figures[fig]) + sub.letter, sub.letter))

    def _continued(self, start: int, end: int, info: FloatInfo) -> int | None:
        """The figure a float continues: caption's (and subfig's) \\ContinuedFloat before the
        float's first caption takes the figure counter back by one, so that caption prints the
        previous figure's number again (and its sub-figures go on lettering where that one's
        stopped); the figure after it is numbered as if the continuation were not there.
        \\ContinuedFloat* (the first part announcing a continuation) numbers as usual."""
        first = info.mains[0].pos if info.mains else end
        m = _CONTINUED.search(self.t, start, first)
        if m is None or m.group(1) or start < self.doc.body_start:
            return None
        prev = next((r for r in reversed(self.res.figures) if r.number), None)
        return prev.index if prev is not None else None

    def _letter_subs(self, rec: FigRec) -> None:
        """Sub-figure letters, going on from the part a continuation continues ("1c" after "1b")."""
        prev = self.res.figures[rec.continues] if rec.continues is not None else None
        base = prev.sub_end if prev is not None else 0
        for k, sub in enumerate(rec.subs):
            sub.letter = _alph(base + k + 1)
        rec.sub_end = base + len(rec.subs)

    def _printed(self, target) -> str:
        if target is None:
            return ""
        if target[0] in ("section", "table", "equation"):
            return target[1]
        if target[0] == "captionof":
            return self.res.figures[target[1]].number
        return "??"

    def cite_note_refs(self, a: int, b: int) -> None:
        """The figure references in a citation's note (its optional argument, printed with
        the citation), as citing places like any other."""
        t = self.t
        for m in re.finditer(r"\\([A-Za-z]+)(\*?)", t[a:b]):
            name = m.group(1)
            if name not in REF_MACROS and name not in self.extra_refs:
                continue
            spec = REF_MACROS.get(name) or "*{"
            if m.group(2) and spec.startswith("*"):
                spec = spec[1:]
            args, end = read_args(t, a + m.end(), spec)
            if end > b:
                continue
            labels = labels_in_args(t, name, spec, args)
            if labels:
                self.res.refs.append(RefEvent(a + m.start(), end, name, labels))

    def doc_label(self, i: int, lab: str) -> None:
        tg = self.target
        if any(e[0] in EQUATION_ENVS for e in self.env_stack):
            self.res.labels.append(LabelDef(i, lab, "equation", None, "?"))
            return
        if tg is None:
            self.res.labels.append(LabelDef(i, lab, "other", None, ""))
        elif tg[0] == "captionof":
            fig = tg[1]
            self.res.labels.append(LabelDef(i, lab, "figure", fig, self.res.figures[fig].number))
        else:
            self.res.labels.append(LabelDef(i, lab, tg[0], None, tg[1]))

    def in_table(self) -> bool:
        """Inside a table environment (a graphic or a caption there is the table's)."""
        return any(e[0] in TABLE_ENVS for e in self.env_stack)

    def typed_figure(self, i: int, end: int) -> None:
        """A graphic set outside any float whose next paragraph opens with a figure label typed
        by hand: "\\includegraphics{..}" then "\\textbf{Fig 1.} The caption..." (pandoc's PLOS
        and other R Markdown templates, and authors who set figures without floats). It prints
        as a figure numbered by that label, as the PDF route reads it: LaTeX steps no counter.
        The caption is the paragraph from the label on. Graphics set before it in the same
        environment (a row of pictures in a center) are the figure's too."""
        from figlint.mentions import parse_caption_label

        t = self.t
        a = _after_graphic(t, end)
        if a is None:
            return
        m = _TYPED_OPEN.match(t, a)
        head = _TYPED_STRIP.sub("", t[m.end():m.end() + 160]).replace("~", " ")
        found = parse_caption_label(head)
        if found is None or not found[1] or not found[2].strip():
            return
        b = _paragraph_end(t, m.end())
        outer = next((e for e in reversed(self.env_stack) if e[0] != "document"), None)
        begin = outer[1] if outer is not None and outer[1] < i else i
        info = parse_float(t, begin, end, outer[0] if outer is not None else "graphic", self.table, self.walker_ctx())
        label_at = a  # the bold or small-capitals group the label opens is the caption's
        cap = CapEvent(pos=label_at, macro="typed", long_node=_group(t, label_at, b, self.walker_ctx()),
                       long_range=(label_at, b), number=found[1])
        rec = FigRec(index=len(self.res.figures), number=found[1], env="", begin_pos=begin, caption=cap,
                     float_info=None, in_appendix=self.in_appendix(i), graphicspath=list(self.graphicspath),
                     graphics_base=self.doc.dir_at(i))
        rec.graphics = list(info.graphics)
        self.res.figures.append(rec)
        self.res.caption_ranges.append((label_at, b, rec.index))
        self.target = ("captionof", rec.index)  # a \\label in the caption names this figure

    def legends_apart(self) -> None:
        """A submission manuscript that keeps its legends apart from its figures: a list of
        legends (after the references, as journals ask), each under a heading that names its
        figure ("\\subsection*{Figure 1}", "\\item[Fig. 1]", a bold "Figure 1" paragraph), and
        each figure a float with no \\caption under a heading of the same name (on a page of its
        own), or right after its legend. LaTeX numbers nothing; the headings are what the reader
        goes by, as the PDF route reads them: the heading over a caption-less float gives it its
        number, the legend under that heading or listed under the same name is its caption. A
        caption-less float under no such heading stays uncaptioned, a heading over a text names
        no figure unless a float has that name, and none names a number a caption prints.

        A manuscript may also type each legend right after its caption-less float, as the
        paragraph that follows it: "\\end{figure}" then "\\textbf{Figure 1.} The legend ..."
        (figures at the end of a submission, one a page). That paragraph's label numbers the
        float and the paragraph is its caption, as the PDF route reads the page; the label must
        be set apart (bold, or a stop after the number: "Figure 3 shows ..." opens no legend).
        Floats are taken in order: one whose legend stands right before it keeps that legend
        (headings and legends first, then the float), so a legend after a float is its own only
        when no earlier float took it and none stands before it."""
        t = self.t
        taken = {rec.number for rec in self.res.figures if rec.number}  # a heading may name those only in passing
        heads = [h for h in _figure_heads(t, self.doc.body_start)
                 if h[2] not in taken and not any(a <= h[0] < b for a, b in self.res.skipped)]
        spans = {h[0]: _legend_span(t, h) for h in heads}  # the legend under each heading, if any
        named: dict[int, tuple] = {}  # FigRec index -> its heading
        after: dict[int, tuple[int, int, int, int, str, str]] = {}  # FigRec index -> the legend typed after it
        for rec in self.res.figures:
            if rec.number or rec.caption is not None or not (rec.graphics or rec.tikz) or not rec.env:
                continue
            first = min([g.pos for g in rec.graphics], default=rec.begin_pos)
            head = next((h for h in heads if not any(la <= h[1] <= b for la, _, _, b, *_ in after.values())
                         and (_FILLER.fullmatch(t, h[1], rec.begin_pos)
                              or rec.begin_pos < h[0] and _FILLER.fullmatch(t, h[1], first)
                              or spans[h[0]] is not None and _FILLER.fullmatch(t, spans[h[0]][1], rec.begin_pos)
                              and not _PAGE_BREAK.search(t, spans[h[0]][1], rec.begin_pos))), None)
            if head is not None:
                named[rec.index] = head
            elif rec.float_info is not None:
                legend = _legend_after(t, rec.float_info.end)
                if legend is None or legend[4] in taken:
                    continue
                before = _legend_before(t, rec.begin_pos)
                if before is None or any(v[0] == before[0] for v in after.values()):
                    after[rec.index] = legend
        for idx, (label_at, label_end, a, b, number, macro) in after.items():
            rec = self.res.figures[idx]
            rec.number = number
            rec.caption = CapEvent(pos=a, macro=macro, long_node=_group(t, a, b, self.walker_ctx()),
                                   long_range=(a, b), number=number)
            self.res.caption_ranges.append((a, b, idx))
            self.res.figure_heads.append((label_at, label_end))  # its label names it, citing nothing
        if not named:
            return
        # (none of these headings is a citing site: each names the figure set under it or the
        # legend listed under it, or stands over nothing, a figure whose graphic is missing or
        # whose legend is still empty; latex.py skips what figure_heads hold)
        self.res.figure_heads += [(h[0], h[1]) for h in heads]
        used = {h[0] for h in named.values()}
        listed: dict[str, tuple] = {}  # number -> the first heading over a legend that names no float
        for h in heads:
            if h[0] not in used and spans[h[0]] is not None:
                listed.setdefault(h[2], h)
        for idx, head in named.items():
            rec = self.res.figures[idx]
            rec.number = head[2]
            if spans[head[0]] is None:
                head = listed.pop(head[2], None)
                if head is None:
                    continue  # named, with no legend: a figure without a caption
            a, b = spans[head[0]]
            rec.caption = CapEvent(pos=a, macro="legend", long_node=_group(t, a, b, self.walker_ctx()),
                                   long_range=(a, b), number=rec.number)
            self.res.caption_ranges.append((a, b, idx))

    def doc_caption(self, name: str, star: str, i: int, pos: int) -> int:
        t = self.t
        if name == "captionof":
            args, end = read_args(t, pos, "{[{")
            ctype = t[args[0][0]:args[0][1]].strip() if args[0] else ""
            if star:
                return end
            counter = "figure" if ctype == "figure" else self.declared_figure(ctype)
            if counter:
                w = lw.LatexWalker(t, latex_context=self.walker_ctx(), tolerant_parsing=True)
                try:
                    nodes, _, _ = w.get_latex_nodes(pos=i, read_max_nodes=1)
                except Exception:  # pragma: no cover
                    nodes = []
                node = nodes[0] if nodes else None
                a = margs(node) if node is not None else []
                short = a[2] if len(a) > 2 else None
                long = a[3] if len(a) > 3 else None
                rng = None
                if long is not None and long.isNodeType(lw.LatexGroupNode):
                    rng = (long.pos + 1, long.pos + long.len - 1)
                cap = CapEvent(pos=i, macro="captionof", short_node=short, long_node=long, long_range=rng)
                self.counters.step(counter)
                outer = next((e for e in reversed(self.env_stack) if e[0] != "document"), None)
                begin = outer[1] if outer else i
                fname, series = self.figure_name("captionof", counter, i, i)
                number = self.counters.the(counter)
                rec = FigRec(index=len(self.res.figures), number=in_series(number, series), env="captionof",
                             begin_pos=begin, caption=cap, float_info=None, in_appendix=self.in_appendix(i),
                             graphicspath=list(self.graphicspath), graphics_base=self.doc.dir_at(i),
                             series="" if number[:1].isalpha() else series, name=fname)
                # graphics placed in the same environment before the caption
                if outer is not None:
                    sub = parse_float(t, outer[1], i, outer[0], self.table, self.walker_ctx())
                    rec.graphics = list(sub.graphics)
                    rec.tikz = sub.tikz
                self.res.figures.append(rec)
                if rng:
                    self.res.caption_ranges.append((rng[0], rng[1], rec.index))
                self.target = ("captionof", rec.index)
                return pos  # keep scanning inside the caption (refs, labels)
            if ctype == "table":
                self.counters.step("table")
                self.target = ("table", self.counters.the("table"))
            return pos
        # \caption outside a figure float: a table caption, or nothing LaTeX would number
        own = next((e[0].rstrip("*") for e in reversed(self.env_stack) if e[0].rstrip("*") in self.float_types), None)
        if own is not None and not star:  # a declared type that is no figure ("Table S1"): its own counter
            self.counters.step(own)
            kind = "table" if re.match(r"\s*(?:\w+\s+)?tab", self.float_types[own][0], re.I) else "other"
            self.target = (kind, self.counters.the(own))
            return pos
        if self.in_table() and not star:
            self.counters.step("table")
            self.target = ("table", self.counters.the("table"))
        return pos

    def finish(self) -> None:
        self.res.masks.sort()
        merged: list[tuple[int, int]] = []
        for a, b in sorted(self.res.skipped):
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        self.res.skipped = merged


def _graphicspath_dirs(inner: str) -> list[str]:
    """The folders of a \\graphicspath argument: {{a/}{b/}}, or one bare folder."""
    dirs = re.findall(r"\{([^{}]*)\}", inner)
    if not dirs and inner.strip():
        dirs = [inner.strip()]
    return [d.strip() for d in dirs if d.strip()]


def scan_document(doc: Document, extra_refs: tuple[str, ...] = ()) -> ScanResult:
    """Scan the flattened document: figures, labels, references, masks."""
    return _Scanner(doc, extra_refs).run()


# --- figures set without a float, their label typed (Scanner.typed_figure) --------------------
_TYPED_GRAPHICS = {"includegraphics", "includesvg"}
# between the graphic and its caption's label: space, comments, line ends, vertical space,
# and the ends and starts of the alignment environments that hold either
_BETWEEN = re.compile(
    r"(?:\s+|%[^\n]*|\\\\(?:\[[^\]]*\])?|\\(?:par|noindent|centering|medskip|smallskip|bigskip|newline|hfill|null)(?![A-Za-z])"
    r"|\\vspace\*?\s*\{[^{}]*\}|~"
    r"|\\(?:begin|end)\s*\{(?:center|flushleft|flushright)\})")
# the label may open a bold or small-capitals group
_TYPED_OPEN = re.compile(r"(?:\\textbf\s*\{|\\textsc\s*\{|\{\\(?:bf|bfseries|sc|scshape)(?![A-Za-z])\s*|\\(?:bfseries|bf)(?![A-Za-z])\s*)*")
_TYPED_STRIP = re.compile(r"\\(?:textbf|textsc|textit|emph|bfseries|bf|sc|scshape|itshape)(?![A-Za-z])\s*|[{}]")


def _after_graphic(t: str, end: int) -> int | None:
    """Where the text after a graphic resumes past what only spaces or aligns it (at most a
    few hundred characters on), None when the graphic's own paragraph goes on with words."""
    k = end
    stop = min(len(t), end + 400)
    while k < stop:
        m = _BETWEEN.match(t, k)
        if m is None or m.end() == k:
            break
        k = m.end()
    return k if k < len(t) else None


def _paragraph_end(t: str, a: int) -> int:
    """The end of the paragraph from `a`: a blank line, the end of the environment it is set
    in, or the next \\begin (at most 4,000 characters on)."""
    stop = min(len(t), a + 4000)
    m = re.compile(r"\n[ \t]*\n|\\end\s*\{|\\begin\s*\{|\\(?:section|subsection|chapter)\b").search(t, a, stop)
    return m.start() if m else stop


def _group(t: str, a: int, b: int, ctx):
    """The nodes of t[a:b] as one group (what a caption's argument would be)."""
    # parsed in the text up to b, then closed as a group is: its verbatim form is "{" t[a:b] "}"
    # (the character before a stands for the opening brace), as a caption argument's is
    w = lw.LatexWalker(t[:b] + "}", latex_context=ctx, tolerant_parsing=True)
    state = w.make_parsing_state()
    try:
        nodes, _, _ = w.get_latex_nodes(pos=a, stop_upon_closing_brace="}")
    except Exception:  # noqa: BLE001 - a tangled paragraph: its text as it stands
        nodes = [lw.LatexCharsNode(chars=t[a:b], parsing_state=state, pos=a, len=b - a)]
    return lw.LatexGroupNode(nodelist=nodes, parsing_state=state, delimiters=("{", "}"), pos=a - 1, len=b - a + 2)


# --- legends kept apart from their figures (Scanner.legends_apart) -----------------------------
# A heading that holds a figure's name and nothing else: a sectioning command's title, a list
# item's label, or a bold group that opens a paragraph
_HEAD_LABEL = r"\s*(?:\\textbf\s*\{|\{\\(?:bf|bfseries)(?![A-Za-z])\s*|\\(?:bfseries|bf)(?![A-Za-z])\s*)*([^{}\[\]\n]{1,40}?)\}*\s*"
_FIGURE_HEAD = re.compile(
    r"\\(?:part|chapter|section|subsection|subsubsection|paragraph|subparagraph)\*?\s*\{" + _HEAD_LABEL + r"\}"
    r"|\\item\s*\[" + _HEAD_LABEL + r"\]"
    r"|(?:(?<=\n\n)|(?<=\\noindent)|(?<=\\par))\s*(?:\\textbf\s*\{|\{\\(?:bf|bfseries)(?![A-Za-z])\s*)([^{}\n]{1,40}?)\}")
# what may stand between a heading and the float or graphic it is set over
_FILLER = re.compile(
    r"(?:\s+|%[^\n]*|\\(?:newpage|clearpage|cleardoublepage|pagebreak|par|noindent|centering|medskip|smallskip|bigskip"
    r"|vfill|hfill|null)(?![A-Za-z])|\\\\(?:\[[^\]]*\])?|\\vspace\*?\s*\{[^{}]*\}|\\(?:begin|end)\s*\{center\}|[.:~])*")
# (a float right after a legend is that legend's figure, unless a page break parts them: the
# last legend of a list is not the first figure's after it)
_PAGE_BREAK = re.compile(r"\\(?:newpage|clearpage|cleardoublepage|pagebreak)(?![A-Za-z])")
_LEGEND_STOP = re.compile(r"\n[ \t]*\n|\\end\s*\{|\\begin\s*\{|\\item(?![A-Za-z])|\\(?:newpage|clearpage)(?![A-Za-z])"
                          r"|\\(?:part|chapter|section|subsection|subsubsection|paragraph|subparagraph)(?![A-Za-z])")


def _figure_heads(t: str, start: int, end: int | None = None) -> list[tuple[int, int, str]]:
    """(start, end, number) of each heading in the body (or in t[start:end]) that names a figure
    and nothing else."""
    from figlint.mentions import parse_caption_label

    out = []
    for m in _FIGURE_HEAD.finditer(t, start, len(t) if end is None else end):
        inner = next(g for g in m.groups() if g is not None)
        found = parse_caption_label(_TYPED_STRIP.sub("", inner).replace("~", " ").strip())
        if found and found[1] and not found[2].strip():
            out.append((m.start(), m.end(), found[1]))
    return out


# what may stand between a float's end and the legend typed after it: spaces (a blank line
# too), comments, a paragraph's start and vertical space; no page break, heading or text
_AFTER_FLOAT = re.compile(r"(?:\s+|%[^\n]*|\\(?:par|noindent|medskip|smallskip|bigskip)(?![A-Za-z])"
                          r"|\\vspace\*?\s*\{[^{}]*\})*")
# a bold group holding a figure's label and nothing else: "\textbf{Figure 1}", "{\bf Fig. 1:}"
_BOLD_LABEL = re.compile(r"(?:\\textbf\s*\{|\{\\(?:bf|bfseries)(?![A-Za-z])\s*)([^{}\n]{1,40}?)\}")
_AFTER_LABEL = re.compile(r"[\s.:~]*")
_PARAGRAPH_START = re.compile(r"\n[ \t]*\n|\\end\s*\{[^{}]*\}|\\par(?![A-Za-z])")


def _legend_after(t: str, end: int) -> tuple[int, int, int, int, str, str] | None:
    """(label's start and end, caption's start and end, number, caption macro) of a legend
    typed as the paragraph right after a float ending at `end`: it opens with a figure's label set apart, with a stop after its number
    ("Figure 1. The ...", "Fig. 1: The ...", bold or not) or in bold on its own ("\\textbf{Figure
    1} The ..."), and words follow. None for anything else ("Figure 3 shows ..." is text)."""
    from figlint.mentions import parse_caption_label

    a = _AFTER_FLOAT.match(t, end).end()
    if a >= len(t):
        return None
    m = _TYPED_OPEN.match(t, a)
    head = _TYPED_STRIP.sub("", t[m.end():m.end() + 160]).replace("~", " ")
    found = parse_caption_label(head)
    b = _paragraph_end(t, a)
    if found is not None and found[1] and found[2].strip():
        # the label is the caption's (latex._typed_labels reads it off), the bold group it opens too
        k = t.find(found[1], m.end(), b)
        return (a, k + len(found[1]), a, b, found[1], "typed") if k >= 0 else None
    bold = _BOLD_LABEL.match(t, a)
    inner = parse_caption_label(_TYPED_STRIP.sub("", bold.group(1)).replace("~", " ").strip()) if bold else None
    if inner is None or not inner[1] or inner[2].strip():
        return None
    # "\\textbf{Figure 1} The ...": the caption is the words after the bold label
    c = _AFTER_LABEL.match(t, bold.end()).end()
    return (a, bold.end(), c, b, inner[1], "legend") if t[c:b].strip() else None


def _legend_before(t: str, begin: int) -> tuple[int, int, int, int, str, str] | None:
    """A legend typed as the paragraph right before a float beginning at `begin` (no page break
    between), as _legend_after reads one: the float may be that legend's."""
    j = begin
    while j > 0 and t[j - 1].isspace():  # the text's end before it (no copy of all that text)
        j -= 1
    lo = max(0, j - 4000)
    starts = [m.end() for m in _PARAGRAPH_START.finditer(t, lo, j)]
    legend = _legend_after(t, starts[-1] if starts else lo)
    if legend is None or not _FILLER.fullmatch(t, legend[3], begin) or _PAGE_BREAK.search(t, legend[3], begin):
        return None
    return legend


def _legend_span(t: str, head: tuple[int, int, str]) -> tuple[int, int] | None:
    """The legend under a figure's heading: the words after it (in the same paragraph, or the
    next one) to its paragraph's end (a blank line, the next heading, list item or environment,
    a page break; at most 4,000 characters on). None when a float, a graphic or another
    heading comes first."""
    a = _FILLER.match(t, head[1]).end()
    if a >= len(t) or re.match(r"\\(?:begin|end|includegraphics|includesvg|item|part|chapter|section|subsection"
                               r"|subsubsection|paragraph|subparagraph)(?![A-Za-z])", t[a:a + 40]):
        return None
    m = _LEGEND_STOP.search(t, a, min(len(t), a + 4000))
    b = len(t[:m.start() if m else min(len(t), a + 4000)].rstrip())
    return (a, b) if b > a else None
