"""pylatexenc specs, user macros, figure-float parsing and LaTeX -> plain text.

`MacroTable` holds the paper's own `\\newcommand`/`\\def`/... definitions:
their argument specs (so pylatexenc parses their arguments), which of them
wrap a reference command (`\\newcommand{\\figg}[1]{Figure~\\ref{fig:#1}}`),
and which throw an argument away (`\\newcommand{\\cut}[1]{}`) so that what is
inside is not in the document. `parse_float` parses one figure environment
with pylatexenc and reports its captions, sub-captions, labels (with the
caption each one binds to, following TeX's grouping) and graphics.
`TextRenderer` turns caption and paragraph LaTeX into readable plain text:
math kept as Unicode, references rendered as the numbers LaTeX prints,
user macros expanded; a macro defined nowhere figlint reads prints its
arguments, not its name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from pylatexenc import latex2text as l2t
from pylatexenc import latexwalker as lw
from pylatexenc import macrospec as ms

_LABEL_IN_TEXT = re.compile(r"\\label\s*\{([^{}]*)\}")


def _label_name(text: str) -> str:
    """A label as LaTeX keys it: runs of spaces (a name broken over lines) folded."""
    return re.sub(r"\s+", " ", text).strip()

# ---------------------------------------------------------------- vocabulary

FIGURE_ENVS = {
    "figure", "figure*", "wrapfigure", "wrapfigure*", "SCfigure", "SCfigure*",
    "sidewaysfigure", "sidewaysfigure*", "teaserfigure", "marginfigure", "widefigure",
    "figwindow", "cutwin",
}
TABLE_ENVS = {"table", "table*", "sidewaystable", "sidewaystable*", "wraptable", "SCtable", "margintable"}
# floats of other kinds whose captions number themselves (algorithm2e, algorithm, minted, listings)
OTHER_FLOAT_ENVS = {"algorithm", "algorithm*", "algorithm2e", "procedure", "function", "listing", "listing*"}
# reference commands: name -> argspec; the label(s) are in the mandatory
# argument(s) (for \hyperref in the optional one)
REF_MACROS: dict[str, str] = {
    "ref": "*{", "autoref": "*{", "Autoref": "*{", "cref": "*{", "Cref": "*{",
    "labelcref": "*{", "crefrange": "*{{", "Crefrange": "*{{", "subref": "*{",
    "vref": "*{", "Vref": "*{", "vrefrange": "*{{", "nameref": "*{", "Nameref": "*{",
    "hyperref": "[{", "figref": "*{", "Figref": "*{", "fref": "*{", "Fref": "*{",
    "cref*": "{", "Cref*": "{",
}
# look like references but never name a figure's number
NON_FIGURE_REFS: dict[str, str] = {
    "pageref": "*{", "cpageref": "*{", "Cpageref": "*{", "cpagerefrange": "*{{",
    "Cpagerefrange": "*{{", "eqref": "*{", "vpageref": "*[[{", "vpagerefrange": "*[[{{",
    "labelcpageref": "*{",
}
CITE_MACROS = {
    "cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear", "citeyearpar",
    "Citep", "Citet", "Citealp", "Citealt", "Citeauthor", "parencite", "Parencite", "textcite",
    "Textcite", "autocite", "Autocite", "footcite", "footcitetext", "smartcite", "supercite",
    "citenum", "nocite", "fullcite", "citetitle", "cites", "shortcite", "citeN", "citeA",
    # apacite's (its <prenote> is read as a first optional argument: texsource.angle_cite_notes)
    "citeNP", "citeANP", "citeauthorNP", "citeyearNP", "fullciteA", "fullciteNP", "shortciteA", "shortciteNP",
}
EQUATION_ENVS = {"equation", "equation*", "align", "align*", "gather", "gather*", "multline",
                 "multline*", "eqnarray", "eqnarray*", "flalign", "alignat", "subequations", "dmath"}
GRAPHICS_MACROS = {"includegraphics", "includesvg", "includestandalone", "includepdf", "includetikz"}
# builtin names a paper may not re-spec through \renewcommand (we keep our reading)
# (\figref & co. are often the paper's own macros: those stay redefinable)
USER_DEFINABLE_REFS = {"figref", "Figref", "fref", "Fref"}
PROTECTED = (set(REF_MACROS) - USER_DEFINABLE_REFS) | set(NON_FIGURE_REFS) | GRAPHICS_MACROS | {
    "caption", "captionof", "captionbox", "subcaption", "subcaptionbox", "subfloat", "subfigure", "label",
    "begin", "end", "input", "include", "section", "chapter", "item", "par", "appendix",
    "newcommand", "renewcommand", "def", "thefigure", "part", "subsection", "subsubsection",
    "setcounter", "addtocounter", "stepcounter", "refstepcounter", "graphicspath", "documentclass",
    "usepackage", "crefname", "Crefname", "counterwithin", "numberwithin", "verb", "url", "href",
} | CITE_MACROS

_WALKER_MACROS = {
    # tufte-book's \caption[short][offset]{long} takes a second optional argument: without it
    # in the spec the caption read as "[" (one optional argument more is harmless elsewhere)
    "caption": "*[[{", "captionof": "*{[{", "subcaption": "*[{", "subcaptionbox": "*[{[[{",
    "captionbox": "*[{[[{",
    "subfloat": "[[{", "subfigure": "[[{", "sidesubfloat": "[[{", "label": "{",
    "includegraphics": "*[[{", "includesvg": "[{", "includestandalone": "[{",
    "includepdf": "[{", "includetikz": "[{", "input": "{", "graphicspath": "{",
    "crefname": "{{{", "Crefname": "{{{", "captionsetup": "*[{", "url": "{", "href": "[{{",
    "textcolor": "[{{", "colorbox": "[{{", "fcolorbox": "[{{{", "color": "[{",
    "hspace": "*{", "vspace": "*{", "resizebox": "*{{{", "scalebox": "{[{", "rotatebox": "[{{",
    "raisebox": "{[[{", "adjustbox": "{{", "makebox": "[[{", "framebox": "[[{",
    "parbox": "[[[{{", "tikz": "[", "footnote": "[{", "footnotemark": "[", "footnotetext": "[{",
    "textsuperscript": "{", "textsubscript": "{", "circled": "{", "xspace": "",
    # listings/minted inline code with options: the code prints, the options do not
    "lstinline": "*[{", "mintinline": "[{{",
    "setlength": "{{", "addtolength": "{{", "setcounter": "{{", "addtocounter": "{{",
    "stepcounter": "{", "refstepcounter": "{", "phantomsection": "", "phantom": "{",
    "hphantom": "{", "vphantom": "{", "rule": "[{{", "hfill": "", "vfill": "",
    # NFSS font selection (a paper's \def of a code font): prints nothing
    "fontfamily": "{", "fontseries": "{", "fontshape": "{", "fontencoding": "{", "fontsize": "{{",
    "usefont": "{{{{", "linespread": "{",
    # siunitx, mhchem, glossaries, acronym: rendered as printed (TextRenderer)
    "SI": "[{[{", "si": "[{", "num": "[{", "qty": "[{{", "unit": "[{", "ang": "[{",
    "numrange": "[{{", "SIrange": "[{{{", "qtyrange": "[{{{", "ce": "{",
    "gls": "[{[", "Gls": "[{[", "GLS": "[{[", "glspl": "[{[", "Glspl": "[{[", "glsentryshort": "{",
    "acrshort": "[{[", "Acrshort": "[{[", "acrlong": "[{[", "Acrlong": "[{[", "acrfull": "[{[",
    "Acrfull": "[{[", "ac": "*{", "Ac": "*{", "acs": "*{", "acl": "*{", "Acl": "*{", "acf": "*{",
    "Acf": "*{", "acp": "*{", "Acp": "*{", "acsp": "*{", "aclp": "*{",
}
_WALKER_MACROS.update(REF_MACROS)
_WALKER_MACROS.update(NON_FIGURE_REFS)
for _c in CITE_MACROS:
    _WALKER_MACROS[_c] = "*[[{"

_WALKER_ENVS = {
    "figure": "[", "figure*": "[", "wrapfigure": "[{[{", "wrapfigure*": "[{[{",
    "SCfigure": "[[", "SCfigure*": "[[", "sidewaysfigure": "[", "sidewaysfigure*": "[",
    "teaserfigure": "", "marginfigure": "[[", "widefigure": "[", "subfigure": "[[[{",
    "minipage": "[[[{", "tikzpicture": "[", "axis": "[", "semilogxaxis": "[",
    "semilogyaxis": "[", "loglogaxis": "[", "groupplot": "[", "table": "[", "table*": "[",
    "tabular": "[{", "tabular*": "{[{", "tabularx": "{[{", "subtable": "[[[{", "adjustbox": "{",
    "strip": "", "center": "", "floatrow": "[",
}
_TIKZ_ENVS = {"tikzpicture", "axis", "semilogxaxis", "semilogyaxis", "loglogaxis", "groupplot", "pgfpicture", "circuitikz", "forest"}
# environments whose own items step a counter, so that a \label in them names an item, not
# the figure: numbered lists (\item), pseudo-code lines (algorithmic, algpseudocode), and
# pgfplots axes (a \label after \addplot names that plot, for a legend typed elsewhere)
ITEM_ENVS = {"enumerate", "enumerate*", "algorithmic", "algorithmic*", "axis", "semilogxaxis", "semilogyaxis",
             "loglogaxis", "groupplot", "polaraxis", "ternaryaxis", "smithchart"}

# text rendering: macros whose printed content is their last argument
_CONTENT_LAST = {
    "mbox", "hbox", "fbox", "makebox", "framebox", "raisebox", "parbox", "resizebox",
    "scalebox", "rotatebox", "colorbox", "fcolorbox", "textcolor", "adjustbox", "text",
    "textnormal", "textup", "textmd", "textsf", "texttt", "textrm", "textsc", "textsl",
    "uline", "underline", "ul", "hl", "sout", "st", "textsuperscript", "textsubscript",
    "mathbf", "mathrm", "mathit", "mathsf", "mathtt", "boldsymbol", "bm", "operatorname",
    "textbf", "textit", "emph", "circled", "ensuremath", "mathnormal",
}
# layout noise: rendered as nothing
_NOISE = {
    "xspace", "centering", "raggedright", "raggedleft", "noindent", "protect", "relax",
    "small", "footnotesize", "scriptsize", "tiny", "large", "Large", "LARGE", "huge", "Huge",
    "normalsize", "bfseries", "itshape", "rmfamily", "sffamily", "ttfamily", "mdseries",
    "upshape", "scshape", "normalfont", "em", "bf", "it", "rm", "sf", "tt", "sc", "sl",
    "ignorespaces", "unskip", "strut", "null", "leavevmode", "allowbreak", "nobreak",
    "selectfont", "hfill", "vfill", "medskip", "smallskip", "bigskip", "clearpage",
    "newpage", "FloatBarrier", "captionsetup", "setlength", "addtolength", "color",
    "phantomsection", "label", "includegraphics", "includesvg", "includestandalone",
    "includepdf", "graphicspath", "phantom", "hphantom", "vphantom", "rule", "hline",
    "toprule", "midrule", "bottomrule", "cline", "cmidrule", "vspace", "hspace",
    "linewidth", "textwidth", "columnwidth", "baselineskip", "par", "break", "index",
    "nopagebreak", "pagebreak", "linebreak", "newline", "setcounter", "addtocounter",
    "stepcounter", "refstepcounter", "footnotemark", "tikz", "definecolor", "looseness",
    "sloppy", "fussy", "frenchspacing", "bigbreak", "crefname", "Crefname", "marginpar",
    "hypertarget", "pdfbookmark", "bookmark", "input", "maketitle", "balance",
}
# TeX's assignments to its own length and number registers, typed in the text ("\\baselineskip
# = .5\\baselineskip", "\\parindent 0pt", "\\tolerance=1000"): they print nothing, but the
# register alone is a macro the text renders as nothing, so the value after it was read as
# words ("= .5Figure 1"). The value is a number with a unit or a register (times a factor),
# with its stretch and shrink; an integer for a number register
_DIMEN = (r"[-+]?\s*(?:\d+(?:[.,]\d*)?|[.,]\d+)?\s*(?:(?:true\s*)?(?:pt|pc|in|bp|cm|mm|dd|cc|sp|em|ex|mu)(?![A-Za-z])"
          r"|\\[A-Za-z@]+)")
_ASSIGNMENT = re.compile(
    r"\\(?:baselineskip|lineskip|lineskiplimit|parskip|parindent|hsize|vsize|textwidth|textheight|linewidth"
    r"|columnwidth|columnsep|tabcolsep|arraycolsep|arrayrulewidth|fboxsep|fboxrule|unitlength|leftskip|rightskip"
    r"|parfillskip|hangindent|emergencystretch|abovedisplayskip|belowdisplayskip|abovecaptionskip|belowcaptionskip"
    r"|intextsep|floatsep|textfloatsep|topsep|itemsep|partopsep|leftmargin|rightmargin|labelsep|labelwidth)(?![A-Za-z@])"
    r"(?:\s*=\s*|\s*(?=[-+]?\s*[.,]?\d))" + _DIMEN + r"(?:\s*(?:plus|minus)\s*[-+]?\s*(?:\d+(?:[.,]\d*)?|[.,]\d+)?\s*"
    r"(?:fil+|pt|pc|in|bp|cm|mm|dd|cc|sp|em|ex|mu)(?![A-Za-z]))*"
    r"|\\(?:tolerance|pretolerance|looseness|hangafter|hyphenpenalty|exhyphenpenalty|clubpenalty|widowpenalty"
    r"|interlinepenalty|brokenpenalty|displaywidowpenalty|linepenalty|binoppenalty|relpenalty)(?![A-Za-z@])\s*=?\s*[-+]?\d+")
_SPACE_MACROS = {"quad": " ", "qquad": " ", "newline": " ", "linebreak": " ", "\\": " ", "enspace": " ",
                 "thinspace": " ", "enskip": " ", ",": " ", ";": " ", ":": " ", "!": "", " ": " "}


# ---------------------------------------------------------------- user macros

@dataclass
class MacroDef:
    """One definition of a user macro, as written in the source."""

    name: str
    nargs: int
    optional_default: str | None  # default of an optional first argument, if any
    body: str
    pos: int  # position in the flattened text (-1 for local packages)
    argspec: str = ""  # pylatexenc argspec
    kinds: list[str] = field(default_factory=list)  # per argument: "{" or "[" or "*"

    @property
    def used(self) -> set[int]:
        return {int(d) for d in re.findall(r"#+([1-9])", self.body)}

    @property
    def discarded(self) -> list[int]:
        """1-based indices of arguments the body never uses."""
        used = self.used
        return [k for k in range(1, self.nargs + 1) if k not in used]

    def expand(self, args: list[str | None]) -> str:
        vals: list[str] = []
        for k in range(self.nargs):
            a = args[k] if k < len(args) else None
            if a is None:
                a = self.optional_default if (k == 0 and self.optional_default is not None) else ""
            vals.append(a)

        def sub(m: re.Match) -> str:
            hashes, d = m.group(1), int(m.group(2))
            if len(hashes) > 1:
                return "#" * (len(hashes) // 2) + m.group(2)
            return vals[d - 1] if 0 < d <= len(vals) else ""

        return re.sub(r"(#+)([1-9])", sub, self.body)


_REF_IN_BODY = re.compile(r"\\(" + "|".join(sorted((re.escape(k) for k in REF_MACROS if "*" not in k), key=len, reverse=True)) + r")(?![A-Za-z@])")


# A definition that writes a list-of-figures entry numbered by one of its arguments:
# \addcontentsline{lof}{figure}{\protect\numberline{#1}{\ignorespaces #2}}
_LOF_ENTRY = re.compile(r"\\addcontentsline\s*\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}\s*\{figure\}\s*\{\s*(?:\\protect\s*)?"
                        r"\\numberline\s*\{\s*#([1-9])\s*\}\s*\{[^#}]*#([1-9])")


def numbered_caption_args(body: str) -> tuple[int, int] | None:
    """(number argument, text argument), 0-based, of a caption macro that numbers by hand."""
    m = _LOF_ENTRY.search(body)
    return (int(m.group(1)) - 1, int(m.group(2)) - 1) if m and m.group(1) != m.group(2) else None


class MacroTable:
    """The paper's user macros, position-aware (a later \\renewcommand wins from there on)."""

    def __init__(self, extra_ref_macros: tuple[str, ...] = ()) -> None:
        self.defs: dict[str, list[MacroDef]] = {}
        self.extra_refs = {m.lstrip("\\") for m in extra_ref_macros}
        self._ref_cache: dict[int, bool] = {}
        self.version = 0
        # caption commands of a class that print a number given by hand (ametsoc's
        # \appendcaption{A1}{text}): name -> (index of the number argument, of the text)
        self.numbered_captions: dict[str, tuple[int, int]] = {}
        # glossaries / acronym entries: key -> (short form, long form), as LaTeX source
        self.acronyms: dict[str, tuple[str, str]] = {}

    def add(self, d: MacroDef) -> None:
        if d.name in PROTECTED:
            return
        self.defs.setdefault(d.name, []).append(d)
        self._ref_cache.clear()
        self.version += 1

    def at(self, name: str, pos: int) -> MacroDef | None:
        lst = self.defs.get(name)
        if not lst:
            return None
        best = None
        for d in lst:
            if d.pos <= pos:
                best = d
        return best or lst[0]

    def latest(self, name: str) -> MacroDef | None:
        lst = self.defs.get(name)
        return lst[-1] if lst else None

    def is_ref_wrapper(self, d: MacroDef, depth: int = 0) -> bool:
        key = id(d)
        if key in self._ref_cache:
            return self._ref_cache[key]
        self._ref_cache[key] = False  # guard against recursion
        res = bool(_REF_IN_BODY.search(d.body))
        if not res and depth < 6:
            for name in re.findall(r"\\([A-Za-z@]+)", d.body):
                if name in self.extra_refs:
                    res = True
                    break
                other = self.latest(name)
                if other is not None and other is not d and self.is_ref_wrapper(other, depth + 1):
                    res = True
                    break
        self._ref_cache[key] = res
        return res

    def walker_specs(self) -> dict[str, ms.MacroSpec]:
        out: dict[str, ms.MacroSpec] = {}
        for name, lst in self.defs.items():
            d = lst[-1]
            out[name] = ms.MacroSpec(name, d.argspec)
        for name in self.extra_refs:
            out.setdefault(name, ms.MacroSpec(name, "*{"))
        return out

    def expand_simple(self, text: str, pos: int, depth: int = 0) -> str:
        """Expand argument-less user macros in a short string (graphics paths).

        TeX's own ways of writing a special character into a file name are read as that
        character: `\\string_` (and `\\string~`, `\\string#`...) is the character itself, and
        `\\detokenize{a_b}` its argument as written."""
        if "\\" not in text or depth > 4:
            return text
        if "\\string" in text or "\\detokenize" in text:
            text = _TEX_CHARS.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)

        def sub(m: re.Match) -> str:
            d = self.at(m.group(1), pos)
            if d is None or d.nargs:
                return m.group(0)
            return self.expand_simple(d.body, pos, depth + 1)

        return re.sub(r"\\([A-Za-z@]+)\s*", sub, text)


# `\\string<char>` and `\\detokenize{...}` in a file name (expand_simple)
_TEX_CHARS = re.compile(r"\\string\s*([^\sA-Za-z\\])|\\detokenize\s*\{([^{}]*)\}")


def xparse_kinds(spec: str) -> list[str]:
    """`m O{} s` -> ["{", "[", "*"] (pylatexenc argspec letters)."""
    kinds: list[str] = []
    i = 0
    while i < len(spec):
        c = spec[i]
        if c in "mvb":
            kinds.append("{")
        elif c in "oO" or c == "d" or c == "D":
            kinds.append("[")
            if c in "OD" and i + 1 < len(spec) and spec[i + 1] == "{":
                depth = 0
                j = i + 1
                while j < len(spec):
                    if spec[j] == "{":
                        depth += 1
                    elif spec[j] == "}":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                i = j
        elif c == "s":
            kinds.append("*")
        elif c in "rRgGtTe":
            kinds.append("{")
        i += 1
    return kinds


# ---------------------------------------------------------------- contexts

def _fast_specials(db: ms.LatexContextDb) -> tuple[dict, set, list]:
    specials: dict[str, Any] = {}
    for cat in db.category_list:
        for k, v in db.d[cat]["specials"].items():
            specials.setdefault(k, v)
    return specials, {k[0] for k in specials}, sorted(specials, key=len, reverse=True)


class _Ctx(ms.LatexContextDb):
    """A context layered over a shared base: per-paper overrides, fast specials lookup."""

    def __init__(self, base: ms.LatexContextDb, macros: dict | None = None, envs: dict | None = None,
                 specials: tuple | None = None) -> None:
        super().__init__()
        self._base = base
        self._macros = macros or {}
        self._envs = envs or {}
        self._sp, self._first, self._bylen = specials or _fast_specials(base)

    def get_macro_spec(self, macroname):  # noqa: D102 - pylatexenc API
        s = self._macros.get(macroname)
        return s if s is not None else self._base.get_macro_spec(macroname)

    def get_environment_spec(self, environmentname):  # noqa: D102
        s = self._envs.get(environmentname)
        return s if s is not None else self._base.get_environment_spec(environmentname)

    def get_specials_spec(self, specials_chars):  # noqa: D102
        return self._sp.get(specials_chars)

    def test_for_specials(self, s, pos, parsing_state=None):  # noqa: D102
        if pos >= len(s) or s[pos] not in self._first:
            return None
        for k in self._bylen:
            if s.startswith(k, pos):
                return self._sp[k]
        return None

    def knows_macro(self, name: str) -> bool:
        return name in self._macros or self._base.get_macro_spec(name) is not None


_BASES: dict[str, Any] = {}


def _bases() -> dict[str, Any]:
    if not _BASES:
        wdb = lw.get_default_latex_context_db()
        wdb.add_context_category(
            "figlint", prepend=True,
            macros=[ms.MacroSpec(k, v) for k, v in _WALKER_MACROS.items()],
            environments=[ms.EnvironmentSpec(k, v) for k, v in _WALKER_ENVS.items()],
        )
        tdb = l2t.get_default_latex_context_db()
        _BASES["walker"] = wdb
        _BASES["walker_specials"] = _fast_specials(wdb)
        _BASES["text"] = tdb
        _BASES["text_specials"] = _fast_specials(tdb)
    return _BASES


def walker_context(table: MacroTable | None) -> _Ctx:
    b = _bases()
    macros = table.walker_specs() if table else {}
    for k in list(macros):
        if k in PROTECTED:
            del macros[k]
    return _Ctx(b["walker"], macros, None, b["walker_specials"])


def arg_text(node) -> str:
    """The LaTeX inside a macro argument node, without its outer braces/brackets."""
    if node is None:
        return ""
    s = node.latex_verbatim()
    if node.isNodeType(lw.LatexGroupNode) and len(s) >= 2 and s[0] in "{[" and s[-1] in "}]":
        return s[1:-1]
    return s


def margs(node) -> list:
    if node is None or node.nodeargd is None or not node.nodeargd.argnlist:
        return []
    return list(node.nodeargd.argnlist)


def split_labels(s: str) -> list[str]:
    # TeX reads a line end as a space and a run of spaces as one: "\\ref{fig:<newline>data}"
    # names the label "fig: data"
    return [p for p in (re.sub(r"\s+", " ", q).strip() for q in s.split(",")) if p]


def ref_labels(name: str, args: list) -> list[str]:
    """Labels named by a builtin reference macro node's parsed arguments."""
    spec = REF_MACROS.get(name) or NON_FIGURE_REFS.get(name) or "*{"
    out: list[str] = []
    if name == "hyperref":
        if args and args[0] is not None:
            out += split_labels(arg_text(args[0]))
        return out
    for kind, a in zip(spec, args):
        if kind == "{" and a is not None:
            out += split_labels(arg_text(a))
    return out


def parse_options(raw: str) -> dict[str, Any]:
    """`width=.5\\linewidth,clip` -> {"width": ".5\\linewidth", "clip": True}."""
    out: dict[str, Any] = {}
    depth = 0
    cur = ""
    parts: list[str] = []
    for c in raw:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    for p in parts:
        p = p.strip()
        if not p:
            continue
        if "=" in p:
            k, v = p.split("=", 1)
            v = v.strip()
            if v.startswith("{") and v.endswith("}"):
                v = v[1:-1]
            out[k.strip()] = v
        else:
            out[p] = True
    return out


# ---------------------------------------------------------------- figure floats

@dataclass
class CapEvent:
    pos: int  # absolute position of the \caption backslash
    macro: str
    short_node: Any = None
    long_node: Any = None
    long_range: tuple[int, int] | None = None  # absolute range of the long argument's content
    sub_env: int | None = None  # which subfigure environment, for sub-captions
    parent: int | None = None  # sub-captions: index of the main caption they belong to
    letter: str = ""
    number: str = ""  # printed number given by hand (a class's \appendcaption{A1}{...}), else ""
    holds: tuple[int, int] | None = None  # \captionbox: absolute range of the content it captions


@dataclass
class GraphicEvent:
    pos: int
    macro: str
    path: str
    options_raw: str = ""
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class FloatInfo:
    env: str
    start: int
    end: int
    mains: list[CapEvent] = field(default_factory=list)
    subs: list[CapEvent] = field(default_factory=list)
    labels: list[tuple[int, str, tuple | None]] = field(default_factory=list)
    graphics: list[GraphicEvent] = field(default_factory=list)
    tikz: bool = False
    starred: list[CapEvent] = field(default_factory=list)  # \caption*{...}: text without a number
    trouble: str = ""  # why the float was parsed only in part (reported as FL006), else ""
    # captions of another float type (\captionsetup{type=table} in a figure): (position, type)
    others: list[tuple[int, str]] = field(default_factory=list)
    equations: int = 0  # displayed equations set in the float


class _Scope:
    __slots__ = ("target", "sub_env", "ctype")

    def __init__(self, target=None, sub_env=None, ctype=None) -> None:
        self.target = target
        self.sub_env = sub_env
        self.ctype = ctype  # the caption type \captionsetup{type=..} set in this group (None: the float's)

    def child(self) -> "_Scope":
        return _Scope(self.target, self.sub_env, self.ctype)


class _FloatWalker:
    def __init__(self, info: FloatInfo, table: MacroTable, ctx: _Ctx, offset: int) -> None:
        self.info = info
        self.table = table
        self.ctx = ctx
        self.offset = offset
        self.sub_envs = 0
        self.depth = 0

    def pos(self, node, override: int | None) -> int:
        return override if override is not None else node.pos + self.offset

    def walk(self, nodes, sc: _Scope, override: int | None = None) -> None:
        if not nodes:
            return
        for k, node in enumerate(nodes):
            if node is None:
                continue
            if node.isNodeType(lw.LatexMacroNode):
                if node.macroname == "paragraph" and self._label_heading(node, nodes[k + 1:], sc, override):
                    continue  # its title is the label: nothing in it to walk
                self.macro(node, sc, override)
            elif node.isNodeType(lw.LatexEnvironmentNode):
                self.env(node, sc, override)
            elif node.isNodeType(lw.LatexGroupNode):
                self.walk(node.nodelist, sc.child(), override)
            elif node.isNodeType(lw.LatexMathNode):
                self.walk(node.nodelist, sc.child(), override)

    def _label_heading(self, node, rest, sc: _Scope, override) -> bool:
        """A float with no \\caption headed by a paragraph that is its label alone: PLoS's
        supporting items, `\\paragraph*{S1 Fig.}` then the title and text, which print as the
        item's caption. Read as a caption numbered by that label (no counter is stepped), its
        text what follows the heading in the float."""
        from figlint.mentions import parse_float_label

        if sc.sub_env is not None or sc.ctype not in (None, "figure") or self.info.mains:
            return False
        args = margs(node)
        rest = [n for n in rest if n is not None]
        title = args[-1] if args else None
        if title is None:
            # a walker that does not know \\paragraph leaves its star and title as the next nodes
            if rest and rest[0].isNodeType(lw.LatexCharsNode) and rest[0].chars.strip() == "*":
                rest = rest[1:]
            if not rest or not rest[0].isNodeType(lw.LatexGroupNode):
                return False
            title, rest = rest[0], rest[1:]
        found = parse_float_label(arg_text(title).strip())
        if found is None or found[0] != "figure" or found[3] or not rest:
            return False
        text = lw.LatexGroupNode(nodelist=rest, parsing_state=rest[0].parsing_state, delimiters=("", ""),
                                 pos=rest[0].pos, len=rest[-1].pos + rest[-1].len - rest[0].pos)
        # the range from the heading's label on: that label is no mention of the figure in the text
        start = title.pos + (1 if title.isNodeType(lw.LatexGroupNode) else 0) + self.offset
        end = rest[-1].pos + rest[-1].len + self.offset
        self.info.mains.append(CapEvent(pos=self.pos(node, override), macro="paragraph", long_node=text,
                                        long_range=None if override is not None else (start, end),
                                        number=found[2]))
        sc.target = ("main", len(self.info.mains) - 1)  # a \\label after it names the item
        return True

    def args(self, node, sc: _Scope, override, skip: set[int] = frozenset()) -> None:
        for k, a in enumerate(margs(node)):
            if a is None or k in skip:
                continue
            if a.isNodeType(lw.LatexGroupNode):
                self.walk(a.nodelist, sc.child(), override)
            else:
                self.walk([a], sc.child(), override)

    def _range(self, a, override) -> tuple[int, int] | None:
        if a is None or override is not None:
            return None
        s = a.pos + self.offset
        e = s + a.len
        if a.isNodeType(lw.LatexGroupNode):
            return s + 1, e - 1
        return s, e

    def caption(self, node, sc: _Scope, override, short, long, is_sub: bool) -> None:
        p = self.pos(node, override)
        ev = CapEvent(pos=p, macro=node.macroname, short_node=short, long_node=long,
                      long_range=self._range(long, override))
        if is_sub:
            ev.sub_env = sc.sub_env
            self.info.subs.append(ev)
            sc.target = ("sub", len(self.info.subs) - 1)
        else:
            self.info.mains.append(ev)
            sc.target = ("main", len(self.info.mains) - 1)

    def captionbox(self, node, sc: _Scope, override, args) -> None:
        """The caption package's `\\captionbox[list]{caption}[width][pos]{content}`: a caption
        set in a box with the content it captions (two side by side in one float are two
        figures). It is a \\caption inside a \\parbox, so only a \\label in the caption
        argument names it; one in the content or after the box does not (pdflatex prints ??)."""
        star, short, long = (args + [None] * 6)[:3]
        content = args[5] if len(args) > 5 else None
        inner = sc.child()
        if sc.ctype not in (None, "figure", "subfigure"):
            if star is None:
                self.info.others.append((self.pos(node, override), sc.ctype))
                inner.target = ("other", len(self.info.others) - 1)
        elif star is not None:  # \captionbox*: no number
            self.info.starred.append(CapEvent(pos=self.pos(node, override), macro="captionbox", long_node=long,
                                              long_range=self._range(long, override)))
        else:
            self.caption(node, inner, override, short, long, sc.sub_env is not None)
            ev = self.info.subs[-1] if sc.sub_env is not None else self.info.mains[-1]
            ev.holds = self._range(content, override)
        for k, a in enumerate(args):
            if a is not None and k > 0:
                self.walk(a.nodelist if a.isNodeType(lw.LatexGroupNode) else [a],
                          inner.child() if k in (1, 2) else sc.child(), override)

    def macro(self, node, sc: _Scope, override) -> None:
        name = node.macroname
        args = margs(node)
        if name == "captionsetup":
            # \captionsetup{type=table} inside a figure makes its captions a table's (caption
            # package): "Table B1", no figure number taken, until the group ends
            m = re.search(r"\btype\s*=\s*([A-Za-z*]+)", arg_text(args[-1]) if args and args[-1] is not None else "")
            if m:
                sc.ctype = m.group(1)
            return
        if name == "caption" and sc.ctype not in (None, "figure", "subfigure"):
            # another float type's caption: not this figure's; labels after it name it
            if not (args and args[0] is not None):  # \caption* takes no number
                self.info.others.append((self.pos(node, override), sc.ctype))
                sc.target = ("other", len(self.info.others) - 1)
            self.args(node, sc.child(), override)
            return
        if name == "captionbox":
            self.captionbox(node, sc, override, args)
            return
        if name in ("caption", "captionof"):
            if name == "captionof":
                ctype = arg_text(args[1]).strip() if len(args) > 1 else ""
                short = args[2] if len(args) > 2 else None
                long = args[3] if len(args) > 3 else None
                if ctype not in ("figure", "subfigure"):
                    # another type's caption set in the figure (\captionof{table} in a minipage):
                    # it steps that type's counter, and a \label after it names it
                    if not (args and args[0] is not None):
                        self.info.others.append((self.pos(node, override), ctype))
                        sc.target = ("other", len(self.info.others) - 1)
                    self.args(node, sc.child(), override)
                    return
                is_sub = ctype == "subfigure" or sc.sub_env is not None
            else:
                short = args[1] if len(args) > 1 else None
                long = args[3] if len(args) > 3 else None
                is_sub = sc.sub_env is not None
            if args and args[0] is not None:  # \caption*: no number
                self.info.starred.append(CapEvent(pos=self.pos(node, override), macro=name, long_node=long,
                                                  long_range=self._range(long, override)))
                self.args(node, sc.child(), override)
                return
            self.caption(node, sc, override, short, long, is_sub)
            self.args(node, sc, override)  # labels inside the caption bind to it
            return
        if name in self.table.numbered_captions and sc.sub_env is None:
            ni, ti = self.table.numbered_captions[name]
            number = arg_text(args[ni]).strip() if ni < len(args) and args[ni] is not None else ""
            long = args[ti] if ti < len(args) else None
            if number and long is not None:
                ev = CapEvent(pos=self.pos(node, override), macro=name, long_node=long,
                              long_range=self._range(long, override), number=number)
                self.info.mains.append(ev)
                # no counter is stepped: a \label after it names the enclosing section
                sc.target = None
                self.args(node, sc, override)
                return
        if name == "phantomsubcaption":
            # subcaption's text-less sub-caption: it steps the sub-figure counter like
            # \subcaption (a \label after it prints "2a"), for panels lettered in the graphic
            self.caption(node, sc, override, None, None, True)
            return
        if name == "subcaption":
            short = args[1] if len(args) > 1 else None
            long = args[2] if len(args) > 2 else None
            if args and args[0] is not None:
                return
            self.caption(node, sc, override, short, long, True)
            self.args(node, sc, override)
            return
        if name in ("subcaptionbox", "subfloat", "subfigure", "sidesubfloat"):
            inner = sc.child()
            if name == "subcaptionbox":
                if args and args[0] is not None:
                    self.args(node, inner, override)
                    return
                short = args[1] if len(args) > 1 else None
                long = args[2] if len(args) > 2 else None
                self.caption(node, inner, override, short, long, True)
            else:
                opt1 = args[0] if args else None
                opt2 = args[1] if len(args) > 1 else None
                if opt1 is not None or opt2 is not None:
                    long = opt2 if opt2 is not None else opt1
                    short = opt1 if opt2 is not None else None
                    self.caption(node, inner, override, short, long, True)
            self.args(node, inner, override)
            return
        if name == "label":
            if args and args[0] is not None:
                self.info.labels.append((self.pos(node, override), _label_name(arg_text(args[0])), sc.target))
            return
        if name in GRAPHICS_MACROS or name == "input":
            if name == "input":
                path = arg_text(args[0]).strip() if args and args[0] is not None else ""
                if not path:
                    return
                raw = ""
            else:
                path = arg_text(args[-1]).strip() if args and args[-1] is not None else ""
                raws = [arg_text(a) for a in args[:-1] if a is not None and a.isNodeType(lw.LatexGroupNode)]
                raw = raws[0] if raws else ""
            p = self.pos(node, override)
            path = self.table.expand_simple(path, p)
            self.info.graphics.append(GraphicEvent(pos=p, macro=name, path=path, options_raw=raw,
                                                   options=parse_options(raw)))
            if name != "input" and "\\label" in raw:
                # a \label in the key list still runs (`width=.4\textwidth\label{fig:x}`) and
                # names what is being captioned, as one beside the graphic would
                for m in _LABEL_IN_TEXT.finditer(raw):
                    self.info.labels.append((p, _label_name(m.group(1)), sc.target))
            return
        if name == "tikz":
            self.info.tikz = True
            return
        d = self.table.at(name, self.pos(node, override)) if self.table.defs.get(name) else None
        if d is not None:
            disc = {k - 1 for k in d.discarded}
            if self.depth < 5 and re.search(r"\\(caption|captionof|subcaption|subcaptionbox|subfloat|label|includegraphics|includesvg|includestandalone|input|begin\s*\{\s*(?:subfigure|tikzpicture))", d.body):
                # a macro that typesets figure parts: walk its expansion
                expanded = d.expand([arg_text(a) if a is not None else None for a in args])
                self.depth += 1
                try:
                    w = lw.LatexWalker(expanded, latex_context=self.ctx, tolerant_parsing=True)
                    nodes, _, _ = w.get_latex_nodes()
                    self.walk(nodes, sc, self.pos(node, override))
                finally:
                    self.depth -= 1
                return
            kinds = d.kinds
            skip = {k for k in disc if k < len(kinds)}
            self.args(node, sc, override, skip)
            return
        self.args(node, sc, override)

    def env(self, node, sc: _Scope, override) -> None:
        name = node.environmentname
        inner = sc.child()
        if name in ("subfigure", "subfigure*"):
            self.sub_envs += 1
            inner.sub_env = self.sub_envs
        elif name in _TIKZ_ENVS:
            self.info.tikz = True
        if name in ITEM_ENVS:
            inner.target = ("other-env", None)  # its \label names an item, a line or a plot
        elif name in EQUATION_ENVS:
            inner.target = ("equation", None)  # a \label in a displayed equation names the equation
            self.info.equations += 1
        elif name in TABLE_ENVS or name in OTHER_FLOAT_ENVS:
            # an algorithm or a table set inside a figure ([H], in a minipage): its \caption is
            # its own ("Algorithm 2.1"), and takes no figure number
            inner.ctype = "table" if name in TABLE_ENVS else "algorithm"
            inner.target = ("other-env", None)  # its \label names its lines or itself, not a figure
        for a in margs(node):
            if a is not None and a.isNodeType(lw.LatexGroupNode):
                self.walk(a.nodelist, inner.child(), override)
        self.walk(node.nodelist, inner, override)


# pylatexenc takes about 10 µs a token, and runs of plain characters cost quadratic time
# (a 1 MB caption took 20 s): a longer float is parsed as its first and last halves of
# this size, where its captions, labels and graphics are in practice (FL006 says so).
MAX_FLOAT_CHARS = 300_000


def parse_float(text: str, start: int, end: int, env: str, table: MacroTable, ctx: _Ctx | None = None) -> FloatInfo:
    """Parse one figure environment text[start:end] (from \\begin to after \\end)."""
    info = FloatInfo(env=env, start=start, end=end)
    ctx = ctx or walker_context(table)
    if end - start <= MAX_FLOAT_CHARS:
        _parse_part(info, text, start, end, table, ctx, whole=True)
    else:
        info.trouble = (f"holds {(end - start) // 1000:,} KB of source; only its first and last "
                        f"{MAX_FLOAT_CHARS // 2000:,} KB were parsed")
        half = MAX_FLOAT_CHARS // 2
        _parse_part(info, text, start, start + half, table, ctx, whole=True)
        _parse_part(info, text, end - half, end, table, ctx, whole=False)
    _heading_or_caption(info)
    # sub-captions belong to the \captionbox whose content holds them, else the nearest
    # following main caption, else the preceding one
    for sub in info.subs:
        parent = held_by(info.mains, sub.pos)
        if parent is None:
            parent = next((k for k, mc in enumerate(info.mains) if mc.pos > sub.pos), None)
        if parent is None and info.mains:
            parent = len(info.mains) - 1
        sub.parent = parent
    counts: dict[int, int] = {}
    for sub in info.subs:
        if sub.parent is None:
            continue
        counts[sub.parent] = counts.get(sub.parent, 0) + 1
        sub.letter = _alph(counts[sub.parent])
    return info


def held_by(caps: list[CapEvent], pos: int) -> int | None:
    """Index of the caption whose \\captionbox content holds `pos` (set before it in the
    source, printed above it), else None."""
    return next((k for k, c in enumerate(caps) if c.holds and c.holds[0] <= pos < c.holds[1]), None)


def _heading_or_caption(info: FloatInfo) -> None:
    """A float headed by its label (PLoS's `\\paragraph*{S1 Fig.}`) that also has a \\caption
    is numbered and captioned by the \\caption, as LaTeX prints it ("Figure 9: ..." under the
    heading): the heading read as a caption (Walker._label_heading) is dropped, and what
    referred to it (a \\label after it) refers to the float's first caption."""
    if not any(m.macro == "paragraph" for m in info.mains) or all(m.macro == "paragraph" for m in info.mains):
        return
    kept = [k for k, m in enumerate(info.mains) if m.macro != "paragraph"]
    new = {old: k for k, old in enumerate(kept)}
    info.mains = [info.mains[k] for k in kept]
    info.labels = [(pos, lab, ("main", new.get(t[1], 0)) if t is not None and t[0] == "main" else t)
                   for pos, lab, t in info.labels]


class _OverBudget(BaseException):
    """Raised inside pylatexenc when a parse reads far more tokens than the text holds
    (a BaseException: pylatexenc's own handlers must not swallow it)."""


class _BoundedWalker(lw.LatexWalker):
    """A LatexWalker that stops after `budget` tokens. pylatexenc retries an optional argument
    that never closes by re-reading everything after it, so nested unclosed `[` cost 2^depth
    tokens (16 levels with math inside took 10 s, 20 levels minutes)."""

    def __init__(self, s: str, budget: int, **kwargs) -> None:
        super().__init__(s, **kwargs)
        self.budget_left = budget

    def get_token(self, *args, **kwargs):  # noqa: D102 - pylatexenc API
        self.budget_left -= 1
        if self.budget_left < 0:
            raise _OverBudget()
        return super().get_token(*args, **kwargs)


def _unmatched_brackets(s: str) -> list[int]:
    """Positions of the `[` that no `]` closes within the same brace group."""
    stack: list[tuple[str, int]] = []
    bad: list[int] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2  # \[ \] \{ \} are not delimiters
            continue
        if c in "{[":
            stack.append((c, i))
        elif c == "}":
            while stack and stack[-1][0] == "[":
                bad.append(stack.pop()[1])
            if stack:
                stack.pop()
        elif c == "]" and stack and stack[-1][0] == "[":
            stack.pop()
        i += 1
    return bad + [p for c, p in stack if c == "["]


def _read_nodes(part: str, ctx: _Ctx):
    """pylatexenc's nodes of `part` within a token budget; when the budget runs out, once
    more with the unmatched `[` turned into `(` (same length, so positions hold). None if
    that fails too."""
    budget = 4 * len(part) + 20_000
    for attempt in (0, 1):
        if attempt:
            chars = list(part)
            for p in _unmatched_brackets(part):
                chars[p] = "("
            part = "".join(chars)
        w = _BoundedWalker(part, budget, latex_context=ctx, tolerant_parsing=True)
        try:
            nodes, _, _ = w.get_latex_nodes()
            return nodes, attempt
        except _OverBudget:
            continue
        except RecursionError:  # groups nested hundreds deep: pylatexenc recurses per level
            return None, 3
        except Exception:  # pragma: no cover - tolerant parsing should not raise
            return None, attempt
    return None, 2


def _parse_part(info: FloatInfo, text: str, a: int, b: int, table: MacroTable, ctx: _Ctx, whole: bool) -> None:
    """Add what text[a:b] holds to info. `whole`: it opens with the float's \\begin, whose body is
    walked; otherwise (the tail of a long float) every top-level node is."""
    nodes, attempt = _read_nodes(text[a:b], ctx)
    if attempt == 1:
        info.trouble = info.trouble or "has '[' that never close (nested optional arguments); read as text"
    elif attempt == 2:
        info.trouble = info.trouble or "is nested too intricately to parse; its caption, labels and graphics are not read"
    elif attempt == 3:
        info.trouble = info.trouble or "is nested too deeply to parse; its caption, labels and graphics are not read"
    if nodes is None:
        return
    walker = _FloatWalker(info, table, ctx, a)
    body = nodes
    first = next((n for n in nodes or () if n is not None and n.isNodeType(lw.LatexEnvironmentNode)), None)
    if whole and first is not None:
        body = first.nodelist
    try:
        walker.walk(body, _Scope())
    except RecursionError:
        info.trouble = info.trouble or "is nested too deeply to read whole; what follows the deepest part is not read"


def _alph(n: int) -> str:
    s = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        s = chr(ord("a") + r) + s
    return s


# ---------------------------------------------------------------- plain text

_WS = re.compile(r"[ \t\r\f\v\u00a0\n]+")


_XSPACE = "\ue010"  # where \xspace was: a space unless punctuation follows


def squash(s: str) -> str:
    if _XSPACE in s:
        s = re.sub(_XSPACE + r"+(?=[\w(\[{\u201c`]|$)", " ", s)
        s = s.replace(_XSPACE, "")
    return _WS.sub(" ", s).strip()


# TeX primitives and internals that typeset rather than print words: a macro whose body uses
# one is not expanded into text (its body would read "mathchoice boldmath", "mskip thinmuskip",
# a class's error message or TikZ code)
_TYPESETTING = re.compile(
    r"\\(?:mathchoice|boldmath|unboldmath|mskip|mkern|hskip|vskip|kern|setbox|hbox|vbox|raise|lower"
    r"|ClassError|PackageError|ClassWarning|PackageWarning|GenericError|expandafter|csname|futurelet"
    r"|afterassignment|noexpand|ifx|ifdim|ifnum|ifmmode|ifcase|tikz|draw|node|path|pgf[A-Za-z]*)(?![A-Za-z])")


def typesetting(body: str) -> bool:
    return bool(_TYPESETTING.search(body))


# Symbols pylatexenc does not know (amsmath delimiters, \Re): printed as themselves, since an
# unknown macro prints nothing (_L2T.macro_node_to_text).
_SYMBOLS = {"|": "‖", "Vert": "‖", "lVert": "‖", "rVert": "‖", "vert": "|", "lvert": "|", "rvert": "|",
            "Re": "ℜ", "Im": "ℑ", "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉",
            "lfloor": "⌊", "rfloor": "⌋",
            # mathtools' relations (printed ":=" in a PDF's text layer, as its glyphs are)
            "coloneqq": " := ", "Coloneqq": " ::= ", "eqqcolon": " =: ", "coloneq": " :− ", "vcentcolon": ":"}


# a command (and its optional argument) at the very end of a macro's body
_AWAITING = re.compile(r"\\([A-Za-z]+)\*?\s*(?:\[[^\]]*\])?\s*$")


class _L2T(l2t.LatexNodes2Text):
    """latex2text with user macro expansion; unknown macros print their arguments only."""

    renderer: "TextRenderer"

    def macro_node_to_text(self, node):  # noqa: D102 - pylatexenc API
        name = node.macroname
        r = self.renderer
        d = r.table.at(name, r.pos_hint) if r.table and r.table.defs.get(name) else None
        if d is not None and r.depth < 6 and not typesetting(d.body):
            args = [arg_text(a) if a is not None else None for a in margs(node)]
            body = d.expand(args)
            m = _AWAITING.search(body)
            if m:
                inner = r.table.at(m.group(1), r.pos_hint) if r.table.defs.get(m.group(1)) else None
                if "{" in (_WALKER_MACROS.get(m.group(1)) or "") or (inner is not None and inner.nargs > 0):
                    # a definition that ends in a command still awaiting its argument
                    # (\newcommand{\code}{\lstinline[style=inline]}): that argument follows the
                    # macro in the text and prints there; the command itself prints nothing more
                    body = body[:m.start()]
            return r.latex_to_text(body, raw=True, nested=True)
        if d is not None and name not in r.text_macros:
            # a definition that typesets (boxes, skips, math styles, TikZ, error messages) prints
            # no words of its own: its last argument is what the reader sees (\bm{x}: x)
            a = [x for x in margs(node) if x is not None]
            if a and a[-1].isNodeType(lw.LatexGroupNode):
                return self._groupnodecontents_to_text(a[-1])
            return " " if re.search(r"\\(?:[hm]skip|m?kern|quad|enspace)(?![A-Za-z])", d.body) else ""  # a space macro
        fn = r.text_macros.get(name)
        if fn is not None:
            return fn(node, self)
        if name in _SPACE_MACROS:
            return _SPACE_MACROS[name]
        spec = self.latex_context.get_macro_spec(name)
        if spec is not None:
            return super().macro_node_to_text(node)
        if name in _NOISE:
            return ""
        if name in _CONTENT_LAST:
            a = [x for x in margs(node) if x is not None]
            return self._groupnodecontents_to_text(a[-1]) if a else ""
        if r.walker_ctx._base.get_macro_spec(name) is not None or name in _WALKER_MACROS:
            return ""
        if name in _UNITS:  # prefixes too
            return _UNITS[name]  # SIunits' unit macros outside \SI (\unit{3.7}{\micro\meter})
        if name in _SYMBOLS:
            return _SYMBOLS[name]
        # Unknown here, yet defined where the paper's build found it (a class, a package, a
        # definition inside another): what it prints is unknown, and its name is not it
        # (\csentence{Title} prints the title in bold, not "csentence").
        return ""

    def environment_node_to_text(self, node):  # noqa: D102
        if node.environmentname in _TIKZ_ENVS:
            return ""
        return super().environment_node_to_text(node)


# pylatexenc reads text one character at a time; long runs of characters that
# need no LaTeX processing are swapped for one placeholder character each
# before parsing and put back afterwards (a paragraph parses ~10x faster).
# The run may hold the position marks latex.render_with_marks inserts (plane-15 private use
# characters): a paragraph full of marked mentions ("Fig. 1, Fig. 1, ...") had no run of 24
# plain characters left, and pylatexenc's character-by-character accumulation of the text
# was quadratic in the paragraph's length (a 250 KB caption took 30 s).
# The character after a control sequence never starts a run: it may be the macro's argument
# (an accent's letter: \"o, \c c, \'e), and a placeholder there took the accent for the whole
# run, which printed the mark after the run's last letter instead ("Losung ... siehe ¨Figure 1").
# Nor is a short braced argument right after a control word: a key (\ref{...}, \cite{...},
# \label{...}) of 24 letters or more was swapped for a placeholder, which the macro's reader then
# took for the key ("??" printed for a long label). Long arguments (a caption's text) are packed.
_RUN_TOKENS = re.compile(r"\\(?:[A-Za-z@]+\*?(?:\s*\[[^\]\\{}]{0,200}\])*(?:\s*\{[^{}\\]{0,200}\})*|.)\s*[^\\]?|(?P<run>[A-Za-z0-9 ,.;:!?()/\n\t=+*<>|\U000F0000-\U000FFFFD]{24,})", re.S)
_PLACEHOLDER = 0x100000
_PLACEHOLDERS = re.compile("[\U00100000-\U0010FFFD]")


def _pack_runs(s: str) -> tuple[str, list[str]]:
    if len(s) < 200:
        return s, []
    runs: list[str] = []
    parts: list[str] = []
    cur = 0
    for m in _RUN_TOKENS.finditer(s):
        if m.group("run") is None:
            continue
        a, b = m.span("run")
        run = s[a:b]
        if "\n\n" in run or len(runs) >= 60000:
            continue
        parts.append(s[cur:a])
        parts.append(chr(_PLACEHOLDER + len(runs)))
        runs.append(run)
        cur = b
    if not runs:
        return s, []
    parts.append(s[cur:])
    return "".join(parts), runs


def _unpack_runs(s: str, runs: list[str]) -> str:
    return _PLACEHOLDERS.sub(lambda m: runs[ord(m.group(0)) - _PLACEHOLDER]
                             if ord(m.group(0)) - _PLACEHOLDER < len(runs) else "", s)


RefRenderer = Callable[[str, list[str], list, "_L2T"], str]


_UNITS = {
    "metre": "m", "meter": "m", "second": "s", "gram": "g", "kilogram": "kg", "hertz": "Hz",
    "kelvin": "K", "celsius": "°C", "degreeCelsius": "°C", "volt": "V", "watt": "W", "ampere": "A",
    "joule": "J", "newton": "N", "pascal": "Pa", "byte": "B", "bit": "bit", "hour": "h", "minute": "min",
    "day": "d", "litre": "L", "liter": "L", "mole": "mol", "ohm": "Ω", "candela": "cd", "radian": "rad",
    "percent": "%", "degree": "°", "decibel": "dB", "electronvolt": "eV", "tesla": "T", "bar": "bar",
    "kilo": "k", "mega": "M", "giga": "G", "tera": "T", "milli": "m", "micro": "µ", "nano": "n",
    "pico": "p", "femto": "f", "centi": "c", "deci": "d", "hecto": "h",
}


_PREFIXES = {"kilo", "mega", "giga", "tera", "milli", "micro", "nano", "pico", "femto", "centi", "deci", "hecto"}


def _unit_text(src: str, renderer: "TextRenderer") -> str:
    """A siunitx unit written with macros (\\kilo\\metre\\per\\second -> "km/s") or literally."""
    if "\\" not in src:
        return squash(src.replace("~", " ").replace(".", "·"))
    out, prefix, per = "", "", False
    for m in re.finditer(r"\\([A-Za-z]+)|([^\\{}\s]+)", src):
        word, lit = m.groups()
        if word == "per":
            per = True
        elif word in ("squared", "cubic"):
            out += "²" if word == "squared" else "³"
        elif word in _PREFIXES:
            prefix += _UNITS[word]
        elif word in _UNITS or lit:
            piece = prefix + (_UNITS[word] if word else lit)
            out += ("/" if per else (" " if out else "")) + piece
            prefix, per = "", False
    return out.strip()


class TextRenderer:
    """LaTeX fragments -> readable plain text, with this paper's macros and labels."""

    def __init__(self, table: MacroTable | None, ref_renderer: RefRenderer | None = None, cites=None) -> None:
        self.table = table
        self.cites = cites or {}  # key -> auxcite.Cite, the labels the build printed
        self.walker_ctx = walker_context(table)
        b = _bases()
        self.text_ctx = _Ctx(b["text"], {}, None, b["text_specials"])
        self.ref_renderer = ref_renderer
        self.depth = 0
        self.pos_hint = 10 ** 12
        self.text_macros: dict[str, Callable] = {}
        for name in list(REF_MACROS) + list(NON_FIGURE_REFS):
            self.text_macros[name] = self._ref
        for name in (table.extra_refs if table else ()):
            self.text_macros[name] = self._ref
        for name in CITE_MACROS:
            self.text_macros[name] = self._cite
        self.text_macros.update({
            "caption": self._last, "captionof": self._last, "subcaption": self._last,
            "footnote": lambda n, o: " (" + self._last(n, o) + ")",
            "S": lambda n, o: "§", "figurename": lambda n, o: "Figure",
            "tablename": lambda n, o: "Table", "textsuperscript": self._last,
            "textsubscript": self._last, "url": self._last, "circled": lambda n, o: "(" + self._last(n, o) + ")",
            "href": self._last, "ie": lambda n, o: "i.e.", "eg": lambda n, o: "e.g.",
            "lstinline": self._last, "mintinline": self._last,
            "etal": lambda n, o: "et al.", "textasciitilde": lambda n, o: "~",
            "LaTeX": lambda n, o: "LaTeX", "TeX": lambda n, o: "TeX",
        })
        for name in GRAPHICS_MACROS | {"label", "input", "tikz", "graphicspath", "setcounter",
                                       "addtocounter", "stepcounter", "crefname", "Crefname",
                                       "captionsetup", "color", "definecolor", "vspace", "hspace",
                                       "phantom", "hphantom", "vphantom", "rule", "footnotemark"}:
            self.text_macros[name] = lambda n, o: ""
        self.text_macros["xspace"] = lambda n, o: _XSPACE
        for name in ("SI", "qty"):
            self.text_macros[name] = lambda n, o: self._quantity(n, o, with_number=True)
        for name in ("si", "unit"):
            self.text_macros[name] = lambda n, o: self._quantity(n, o, with_number=False)
        self.text_macros["num"] = lambda n, o: self._plain_arg(n, -1)
        self.text_macros["ang"] = lambda n, o: self._plain_arg(n, -1) + "°"
        self.text_macros["numrange"] = lambda n, o: self._plain_arg(n, -2) + "–" + self._plain_arg(n, -1)
        self.text_macros["ce"] = lambda n, o: re.sub(r"\s*->\s*", " → ", self._plain_arg(n, -1))
        for name in ("gls", "Gls", "GLS", "glspl", "Glspl", "acrshort", "Acrshort", "acrlong", "Acrlong",
                     "acrfull", "Acrfull", "ac", "Ac", "acs", "acl", "Acl", "acf", "Acf", "acp", "Acp",
                     "acsp", "aclp", "glsentryshort"):
            self.text_macros[name] = self._acronym

    def _plain_arg(self, node, k: int) -> str:
        a = [x for x in margs(node) if x is not None and x.isNodeType(lw.LatexGroupNode)]
        if not a or len(a) < -k:
            return ""
        return squash(self.nodes_to_text(a[k].nodelist))

    def _quantity(self, node, obj, with_number: bool) -> str:
        r"""siunitx: \SI{3}{\kilo\metre} -> "3 km", \si{\per\second} -> "/s"."""
        a = [x for x in margs(node) if x is not None and x.isNodeType(lw.LatexGroupNode)]
        if not a:
            return ""
        unit = _unit_text(a[-1].latex_verbatim()[1:-1], self)
        if with_number and len(a) >= 2:
            return squash(self.nodes_to_text(a[0].nodelist)) + " " + unit
        return unit

    def _acronym(self, node, obj) -> str:
        """glossaries / acronym: the short form an entry prints (its long form for the long
        commands), from the paper's \newacronym / \acro / \newglossaryentry."""
        name = node.macroname
        a = [x for x in margs(node) if x is not None and x.isNodeType(lw.LatexGroupNode)]
        key = arg_text(a[0]).strip() if a else ""
        short, long = (self.table.acronyms.get(key) if self.table else None) or (key, key)
        low = name.lower()
        if low in ("acrlong", "acl", "aclp"):
            out = long
        elif low in ("acrfull", "acf"):
            out = f"{long} ({short})"
        else:
            out = short
        if low in ("glspl", "acp", "acsp", "aclp"):
            out += "s"
        text = squash(self.latex_to_text(out, nested=True)) if "\\" in out or "$" in out else out
        if name[:1].isupper():
            text = text.upper() if name.isupper() and len(name) > 2 else text[:1].upper() + text[1:]
        return text

    def _last(self, node, obj) -> str:
        a = [x for x in margs(node) if x is not None and x.isNodeType(lw.LatexGroupNode)]
        return obj._groupnodecontents_to_text(a[-1]) if a else ""

    def _cite(self, node, obj) -> str:
        """As printed: the labels of the build's .aux ("[12]", "(Smith et al., 2019)"), else
        "[?]" as LaTeX prints an unresolved citation (never the key: "smith2019" is no value)."""
        from figlint.ingest.auxcite import render

        a = [x for x in margs(node) if x is not None and x.isNodeType(lw.LatexGroupNode)]
        keys = split_labels(arg_text(a[-1])) if a else []
        if node.macroname == "nocite":
            return ""
        # the [pre][post] notes print beside the labels ("Lee (2020, open squares)")
        notes = [obj._groupnodecontents_to_text(x) for x in a[:-1] if (getattr(x, "delimiters", None) or "{")[0] == "["]
        return render(node.macroname, keys, self.cites, notes)

    def _ref(self, node, obj) -> str:
        args = margs(node)
        labels = ref_labels(node.macroname, args)
        if self.ref_renderer is None:
            return "??"
        return self.ref_renderer(node.macroname, labels, args, obj)

    def nodes_to_text(self, nodes) -> str:
        conv = _L2T(latex_context=self.text_ctx, math_mode="text", strict_latex_spaces="macros",
                    fill_text=False)
        conv.renderer = self
        try:
            return conv.nodelist_to_text(nodes)
        except Exception:  # a conversion bug must not lose the whole text
            return " ".join(squash(n.latex_verbatim()) for n in nodes if n is not None)

    def latex_to_text(self, s: str, raw: bool = False, nested: bool = False) -> str:
        if nested:
            self.depth += 1
        try:
            if "\\" in s:
                s = _ASSIGNMENT.sub("", s)
            packed, runs = _pack_runs(s)
            w = lw.LatexWalker(packed, latex_context=self.walker_ctx, tolerant_parsing=True)
            try:
                nodes, _, _ = w.get_latex_nodes()
            except Exception:
                return s if raw else squash(s)
            out = self.nodes_to_text(nodes)
            if runs:
                out = _unpack_runs(out, runs)
        finally:
            if nested:
                self.depth -= 1
        return out if raw else squash(out)

    def node_text(self, node) -> str:
        if node is None:
            return ""
        if node.isNodeType(lw.LatexGroupNode):
            return squash(self.nodes_to_text(node.nodelist))
        return squash(self.nodes_to_text([node]))
