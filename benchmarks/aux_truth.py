"""What LaTeX itself recorded about a compiled paper's figures: the truth for binding_aux.py.

Independent of figlint by design (it imports nothing from figlint): the measure of figlint's
binding must not be made with figlint's own parser.

* Figures: the list-of-figures entries of the .aux files (the main .aux and every .aux it
  `\\@input`s, i.e. those of `\\include`d files): `\\contentsline {figure}{\\numberline {N}{CAPTION}}
  {FOLIO}{ANCHOR}` gives number, printed folio, hyperref anchor and caption. `\\newlabel`
  entries whose anchor is `figure.*` (or whose cleveref type is `figure`) add figures the list
  lacks (`\\caption[]{..}` writes no entry); their caption then comes from the source.
* Printed caption: the entry's text, made plain (below). With `\\caption[short]{long}` the entry
  holds the short one: when a source `\\caption[..]` has an optional argument equal to it, the
  long argument is taken instead (`caption_from` = "source-long").
* Unprinted numbers: a float holding only sub-captions steps the figure counter but writes no
  entry and prints no "Figure N"; where the list's numbers skip and exactly so many such floats
  stand between the two listed figures in the source, the skipped numbers are theirs.
* Physical page: the anchor's named destination in the PDF; else the PDF page whose label is
  the folio; else the folio itself.
* Labels: a `\\newlabel` is a figure label when its anchor is `figure.*` / `subfigure.*`, its
  cleveref type is figure / subfigure, or (no hyperref, no cleveref) the label sits inside a
  figure environment of the source and its value is a figure number (or one with a panel
  suffix). Sub-figure labels belong to their parent.
* Citing sites: a small scanner of the sources (main file and everything it \\input /
  \\include / \\subfile / \\import's), after masking what is not printed: comments, the preamble
  and what follows \\end{document}, \\iffalse blocks, false branches of \\newif switches,
  comment/verbatim environments, and calls of user macros defined empty (\\newcommand\\cut[1]{}).
  Sites are \\ref-like commands (\\ref \\cref \\Cref \\autoref \\vref \\subref \\labelcref \\nameref
  \\hyperref[..] \\crefrange, and user macros whose body holds one of these) naming a figure
  label, and typed "Figure N" / "Fig. N" / "Figs. 2 and 3" / "Figs. 3-5" naming a figure
  number. A range names every figure in it, typed ("Figs. 3-5") or of two references
  ("Figs.~\\ref{a}--\\ref{b}", "to" or "through" alike). Sites inside the cited figure's own environment
  (its caption) are left out. Several commands naming the same figure in one mention
  ("Figs. \\ref{a}a and \\ref{a}b", only connectors between them) are one site.
  What the scanner cannot decide (conditionals other than \\iffalse and \\newif switches) is
  listed in `undecided`.
"""

from __future__ import annotations

import bisect
import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

# ------------------------------------------------------------------ TeX groups


def read_group(s: str, i: int) -> tuple[str, int]:
    """The brace group starting at s[i] == '{': (contents, index after the closing brace)."""
    depth = 0
    j = i
    n = len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return s[i + 1:j], j + 1
        j += 1
    return s[i + 1:], n


def skip_ws(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t\r\n":
        i += 1
    return i


def groups(s: str, i: int, count: int, optional: bool = True) -> tuple[list[str], int, list[str]]:
    """Read `count` brace groups from s[i:] (skipping [..] options before and between them).
    Returns (groups, end, options)."""
    out, opts = [], []
    while len(out) < count:
        j = skip_ws(s, i)
        if j < len(s) and s[j] == "*" and not out:
            i = j + 1
            continue
        if optional and j < len(s) and s[j] == "[":
            k = s.find("]", j)
            if k < 0:
                break
            opts.append(s[j + 1:k])
            i = k + 1
            continue
        if j < len(s) and s[j] == "{":
            g, i = read_group(s, j)
            out.append(g)
            continue
        break
    return out, i, opts


# ------------------------------------------------------------------ plain text

_DIM = (r"-?\s*\d*\.?\d+\s*(?:pt|em|ex|mm|cm|in|bp|sp|pc|dd|cc|mu|\\[A-Za-z@]+)"
        r"(?:\s*plus\s*-?\d*\.?\d+\s*(?:pt|em|ex|fil+|fill))?(?:\s*minus\s*-?\d*\.?\d+\s*(?:pt|em|ex|fil+))?")
# commands whose first k brace arguments are not printed
_DROP = {"label": 1, "hspace": 1, "vspace": 1, "color": 1, "textcolor": 1, "includegraphics": 1, "fontsize": 2,
         "setlength": 2, "addtolength": 2, "rule": 2, "hypertarget": 1, "href": 1, "footnote": 1, "footnotetext": 1,
         "index": 1, "raisebox": 1, "phantom": 1, "hphantom": 1, "vphantom": 1, "settowidth": 2, "pageref": 1,
         "scalebox": 1, "resizebox": 2, "definecolor": 3, "colorbox": 1, "fcolorbox": 2, "bibitem": 1,
         "linkcolor": 1, "pgfsetlinewidth": 1, "setcounter": 2, "addtocounter": 2, "hyperlink": 1,
         "vskip": 0, "begin": 1, "end": 1, "usefont": 4, "fontfamily": 1, "fontseries": 1, "fontshape": 1,
         "selectcolormodel": 1, "mbox": 0, "@setfontsize": 3, "@setsize": 4, "cprotect": 0,
         "texorpdfstring": 0, "pdfbookmark": 2, "belowcaptionskip": 0, "captionsetup": 1, "footnotemark": 0,
         "orcidlink": 1, "orcid": 1, "mathversion": 1,
         "fontencoding": 1, "blx@tocontentsinit": 1, "symbol": 1, "ding": 1}
_SPACE_CMDS = {"xspace", "nonbreakingspace", "quad", "qquad", "enspace", "thinspace", "newline", "par", "hfill",
               "hfil", "linebreak", "break",
               "enskip", "space", "medskip", "smallskip", "bigskip", "noindent", "indent", "cr", "tabularnewline"}
_WORD_CMDS = {"LaTeX": "LaTeX", "TeX": "TeX", "ss": "ss", "ae": "ae", "AE": "AE", "oe": "oe", "o": "o", "O": "O",
              "l": "l", "L": "L", "i": "i", "j": "j", "aa": "a", "AA": "A", "dag": "", "copyright": "",
              "textasciitilde": "~", "textbackslash": "", "textbar": "|", "textless": "<", "textgreater": ">",
              "textendash": "-", "textemdash": "-", "textdegree": "", "textregistered": "", "textperiodcentered": "",
              "S": "", "P": "", "ldots": "...", "dots": "...", "textellipsis": "...", "%": "%", "&": "&", "_": "_",
              "#": "#", "$": "$", "{": "", "}": "", "etal": "et al.", "eg": "e.g.", "ie": "i.e.", "etc": "etc.",
              "cf": "cf.", "wrt": "w.r.t.", "vs": "vs."}
_CITE = re.compile(r"\\(?:[A-Za-z]*cite[A-Za-z]*|citep|citet|citealp|citealt|citeauthor|citeyear|parencite|textcite|"
                   r"autocite|footcite)\*?(?=[\s\[{])")
_REFCMD = re.compile(r"\\(ref|Ref|cref|Cref|autoref|Autoref|vref|Vref|labelcref|subref|nameref|Nameref|eqref|"
                     r"cpageref|Cpageref|fref|Fref|figref|Figref)\*?(?=[\s{])")
_ACCENT = re.compile(r"\\(?:['\"^`~=.]|[cvuHdbkrt](?=\s*\{))\s*(?:\{\s*\\?([A-Za-z])\s*\}|\\?([A-Za-z]))")


# acronym / glossaries: the key stands for the printed short (or long) form
_ACRONYM = {"ac", "acs", "acl", "acf", "acp", "acsp", "aclp", "acfp", "Ac", "Acp", "gls", "Gls", "glspl", "Glspl",
            "acrshort", "acrlong", "acrfull", "glsentryshort"}
# siunitx as printed: \\SI{1}{\\second} -> "1 s", \\num{1E6} -> "1 × 10^6"
_SIUNITX = {"SI": 2, "qty": 2, "si": 1, "unit": 1, "num": 1, "ang": 1, "SIrange": 3, "qtyrange": 3, "numrange": 2,
            "SIlist": 2, "qtylist": 2, "numlist": 1}
_UNITS = {"second": "s", "metre": "m", "meter": "m", "gram": "g", "kilogram": "kg", "ampere": "A", "kelvin": "K",
          "mole": "mol", "candela": "cd", "hertz": "Hz", "newton": "N", "pascal": "Pa", "joule": "J", "watt": "W",
          "coulomb": "C", "volt": "V", "farad": "F", "ohm": "\u03a9", "siemens": "S", "weber": "Wb", "tesla": "T",
          "henry": "H", "celsius": "\u00b0C", "degreeCelsius": "\u00b0C", "lumen": "lm", "lux": "lx", "becquerel": "Bq",
          "gray": "Gy", "sievert": "Sv", "percent": "%", "degree": "\u00b0", "minute": "min", "hour": "h", "day": "d",
          "litre": "L", "liter": "L", "electronvolt": "eV", "bit": "bit", "byte": "B", "decibel": "dB", "bar": "bar",
          "angstrom": "\u00c5", "astronomicalunit": "au", "parsec": "pc", "tonne": "t", "radian": "rad",
          "yocto": "y", "zepto": "z", "atto": "a", "femto": "f", "pico": "p", "nano": "n", "micro": "\u00b5",
          "milli": "m", "centi": "c", "deci": "d", "kilo": "k", "mega": "M", "giga": "G", "tera": "T", "peta": "P",
          "exa": "E", "per": "/", "square": "", "squared": "2", "cubic": "", "cubed": "3"}


def _si_number(x: str) -> str:
    x = x.strip()
    m = re.fullmatch(r"([-+]?[\d.,]*)\s*[eE]\s*([-+]?\d+)", x)
    if m:
        return (m.group(1) + " \u00d7 " if m.group(1) else "") + "10" + m.group(2)
    return x.replace("+-", " \u00b1 ")


def _si_unit(u: str) -> str:
    u = re.sub(r"\\([A-Za-z]+)", lambda m: " " + _UNITS.get(m.group(1), "") + " ", u)
    u = re.sub(r"\s+", " ", u.replace("{", "").replace("}", "")).strip()
    return re.sub(r"(?<=[^\s/]) (?=[^\s/])", "", u) if len(u) < 12 else u


def _si_text(name: str, args: list[str]) -> str:
    if name in ("si", "unit"):
        return _si_unit(args[0]) if args else ""
    if name in ("num", "ang", "numlist"):
        return _si_number(args[0]) if args else ""
    if name == "numrange":
        return " \u2013 ".join(_si_number(a) for a in args)
    if name in ("SIrange", "qtyrange") and len(args) == 3:
        return f"{_si_number(args[0])} {_si_unit(args[2])} \u2013 {_si_number(args[1])} {_si_unit(args[2])}"
    if len(args) >= 2:
        return f"{_si_number(args[0])} {_si_unit(args[1])}"
    return " ".join(args)


@dataclass
class Context:
    """What plain-text rendering needs from the build: label values and bibliography."""
    labels: dict = field(default_factory=dict)      # label -> (value, anchor type)
    bibcite: dict = field(default_factory=dict)     # key -> (number, "Author Year")
    cite_mode: int = 0                              # 0: numbers, 1: author-year
    macros: dict = field(default_factory=dict)      # user macro -> (nargs, body), for source text
    wild: bool = False                              # print WILD where the record does not say what prints


def _find_math_end(s: str, i: int, closer: str) -> int:
    j = i
    while True:
        k = s.find(closer, j)
        if k < 0:
            return len(s)
        if k > 0 and s[k - 1] == "\\" and closer == "$":
            j = k + 1
            continue
        return k


def split_math(s: str) -> list[tuple[bool, str]]:
    """[(is_math, text)] pieces of s, for $..$, $$..$$, \\(..\\), \\[..\\] and \\ensuremath{..}."""
    out: list[tuple[bool, str]] = []
    i = 0
    buf = []
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\" and i + 1 < n:
            nxt = s[i + 1]
            if nxt in "([":
                closer = "\\)" if nxt == "(" else "\\]"
                k = s.find(closer, i + 2)
                k = n if k < 0 else k
                out.append((False, "".join(buf)))
                buf = []
                out.append((True, s[i + 2:k]))
                i = k + 2
                continue
            if s.startswith("ensuremath", i + 1):
                j = skip_ws(s, i + 11)
                if j < n and s[j] == "{":
                    g, e = read_group(s, j)
                    out.append((False, "".join(buf)))
                    buf = []
                    out.append((True, g))
                    i = e
                    continue
            buf.append(s[i:i + 2])
            i += 2
            continue
        if c == "$":
            dbl = s.startswith("$$", i)
            start = i + (2 if dbl else 1)
            k = s.find("$$", start) if dbl else _find_math_end(s, start, "$")
            k = n if k < 0 else k
            out.append((False, "".join(buf)))
            buf = []
            out.append((True, s[start:k]))
            i = k + (2 if dbl else 1)
            continue
        buf.append(c)
        i += 1
    out.append((False, "".join(buf)))
    return [p for p in out if p[1]]


# Where LaTeX's record does not say what is printed: a citation no \\bibcite records (biblatex
# styles print anything from "[3]" to the whole reference) and an acronym (its first use prints
# the long form). fill_wild reads those stretches off the printed page, each at most so many letters.
WILD = "\x00"  # one cited work
WILD_ACRONYM = "\x01"
WILD_LETTERS = {WILD: 250, WILD_ACRONYM: 80}


def _cite_text(keys: str, name: str, ctx: Context, notes: list[str] | tuple = ()) -> str:
    """What a citation prints, as words: its works' labels, with the notes natbib and biblatex
    print beside them (`\\citet[open squares]{k}` prints "Author (2014, open squares)"; with two
    optional arguments the first is a prenote)."""
    if ctx.wild and any(k.strip() not in ctx.bibcite for k in keys.split(",")):
        return " " + WILD * len([k for k in keys.split(",") if k.strip()]) + " "
    parts = []
    for key in keys.split(","):
        key = key.strip()
        parts.append(ctx.bibcite.get(key, ("?", "?"))[ctx.cite_mode])
    notes = [n.strip() for n in notes]
    pre, post = (notes[0], notes[1]) if len(notes) >= 2 else ("", notes[0] if notes else "")
    return " (" + (pre + " " if pre else "") + "; ".join(parts) + (", " + post if post else "") + ") "


def _ref_text(label: str, name: str, ctx: Context) -> str:
    label = " ".join(label.split())
    value, kind = ctx.labels.get(label, ("??", ""))
    if name in ("cref", "Cref", "autoref", "Autoref", "fref", "Fref", "figref", "Figref"):
        word = {"figure": "Figure", "subfigure": "Figure", "table": "Table", "section": "Section",
                "equation": "Equation", "chapter": "Chapter", "appendix": "Appendix"}.get(kind, "")
        if name == "cref" and word:
            word = {"Figure": "fig.", "Table": "tab.", "Section": "sec.", "Equation": "eq."}.get(word, word.lower())
        return f"{word} {value}"
    return value


def expand_macros(s: str, ctx: Context, depth: int = 3) -> str:
    """Expand simple user macros (text bodies) in source text, a few levels deep."""
    if not ctx.macros:
        return s
    pat = re.compile(r"\\([A-Za-z]+)(?![A-Za-z])")
    for _ in range(depth):
        changed = False
        out, i = [], 0
        for m in pat.finditer(s):
            if m.start() < i:
                continue
            name = m.group(1)
            if name not in ctx.macros:
                continue
            nargs, body = ctx.macros[name]
            args, end, _o = groups(s, m.end(), nargs, optional=False) if nargs else ([], m.end(), [])
            if len(args) < nargs:
                continue
            for k, a in enumerate(args, 1):
                body = body.replace(f"#{k}", a)
            out.append(s[i:m.start()])
            out.append(body + ("" if nargs else " " if end < len(s) and s[end] == " " else ""))
            i = end
            changed = True
        out.append(s[i:])
        s = "".join(out)
        if not changed:
            break
    return s


# What a formula's control words print, as the Unicode a PDF's text holds for them: Greek
# letters, the names of log-like operators (\\exp, \\log, \\max: upright words), letter-like
# symbols and arrows or relations (words() folds the letters, e.g. U+2133 to M, and splits at the
# symbols). Dropping them lost printed letters: "exp_p" read "p", "\\theta^\\varepsilon" nothing.
_GREEK = dict(zip(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa lambda mu nu xi "
    "omicron pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega digamma "
    "Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega".split(),
    "\u03b1\u03b2\u03b3\u03b4\u03f5\u03b5\u03b6\u03b7\u03b8\u03d1\u03b9\u03ba\u03f0\u03bb\u03bc\u03bd\u03be"
    "\u03bf\u03c0\u03d6\u03c1\u03f1\u03c3\u03c2\u03c4\u03c5\u03d5\u03c6\u03c7\u03c8\u03c9\u03dd"
    "\u0393\u0394\u0398\u039b\u039e\u03a0\u03a3\u03a5\u03a6\u03a8\u03a9"))
_GREEK.update({"var" + k: v for k, v in list(_GREEK.items()) if k[0].isupper()})   # amsmath's italic capitals
_GREEK.update({"up" + k: v for k, v in list(_GREEK.items()) if not k.startswith("var")})  # upgreek
_MATH_OPERATORS = {"exp", "log", "ln", "lg", "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan",
                   "sinh", "cosh", "tanh", "coth", "max", "min", "sup", "inf", "lim", "arg", "det", "dim", "gcd",
                   "hom", "ker", "deg", "Pr", "liminf", "limsup", "injlim", "projlim", "argmax", "argmin"}
_MATH_SYMBOLS = {"ell": "\u2113", "hbar": "\u210f", "imath": "\u0131", "jmath": "\u0237", "wp": "\u2118",
                 "Re": "\u211c", "Im": "\u2111", "aleph": "\u2135",
                 "to": "\u2192", "rightarrow": "\u2192", "longrightarrow": "\u27f6", "Rightarrow": "\u21d2",
                 "leftarrow": "\u2190", "gets": "\u2190", "Leftarrow": "\u21d0", "leftrightarrow": "\u2194",
                 "mapsto": "\u21a6", "times": "\u00d7", "cdot": "\u22c5", "pm": "\u00b1", "mp": "\u2213",
                 "le": "\u2264", "leq": "\u2264", "ge": "\u2265", "geq": "\u2265", "neq": "\u2260", "ne": "\u2260",
                 "approx": "\u2248", "sim": "\u223c", "simeq": "\u2243", "equiv": "\u2261", "propto": "\u221d",
                 "ll": "\u226a", "gg": "\u226b", "infty": "\u221e", "partial": "\u2202", "nabla": "\u2207",
                 "in": "\u2208", "notin": "\u2209", "subset": "\u2282", "subseteq": "\u2286", "cup": "\u222a",
                 "cap": "\u2229", "sum": "\u2211", "prod": "\u220f", "int": "\u222b", "circ": "\u2218",
                 "forall": "\u2200", "exists": "\u2203", "emptyset": "\u2205", "varnothing": "\u2205"}
# a letter in another alphabet prints that letter (its Unicode math form folds to it)
_MATH_ALPHABET = re.compile(r"\\(?:mathcal|mathscr|mathbb|mathfrak|mathbf|mathbfit|boldsymbol|bm|mathsf|mathtt|"
                            r"mathit|mathrm|mathnormal|mathbold|pmb)(?![A-Za-z])\s*(?:\{([^{}]*)\}|([A-Za-z0-9]))")


def math_symbols(text: str) -> str:
    """A formula's control words as what they print (letters, operator names, symbols); others
    are left for the caller to drop."""
    text = _MATH_ALPHABET.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)

    def one(m: re.Match) -> str:
        name = m.group(1)
        if name in _GREEK:
            return _GREEK[name]
        if name in _MATH_OPERATORS:
            # an operator keeps the space TeX sets after it, not before its limits or index
            return name + ("" if m.end() < len(m.string) and m.string[m.end()] in "_^" else m.group(2))
        if name in _MATH_SYMBOLS:
            return _MATH_SYMBOLS[name]
        return m.group(0)
    return re.sub(r"\\([A-Za-z]+)(?![A-Za-z])(\s*)", one, text)


def tex_plain(s: str, ctx: Context | None = None, math: str = "keep") -> str:
    """Plain printed text of a LaTeX fragment. math: "keep" (formulas as printed: letters,
    digits, Greek letters, operator names and symbols stay, other command names go) or "strip"
    (formulas removed)."""
    ctx = ctx or Context()
    s = s.replace("\\protect", " ").replace("\\relax", " ").replace("\\ignorespaces", " ")
    s = re.sub(r"\\unhbox\s*\\voidb@x\s*", "", s)
    s = re.sub(r"\\(?:kern|hskip|vskip|mkern|mskip|hspace\*?|vspace\*?)\s*" + _DIM, " ", s)
    s = re.sub(r"\\penalty\s*(?:-?\d+|\\@M|\\@m)", " ", s)
    # a glyph chosen by its code (\\char 90 in a symbol font: an icon): no text, not the number
    s = re.sub(r"\\char\s*(?:\d+|\"[0-9A-Fa-f]+|'[0-7]+|`\\?.)", " ", s)
    # glue of register assignments a redefined \\small leaves in the list of figures
    s = re.sub(r"(?:plus|minus)\s*-?\s*\d*\.?\d*\s*(?:\\p@|pt|em|ex|fil+)|-?\d*\.?\d+\s*\\p@|\\[pz]@", " ", s)
    s = re.sub(r"\\nobreakspace\s*\{\}", " ", s)
    s = re.sub(r"\\(?:@\w*)?(?:protected@)?(?:x?def)\s*\\[A-Za-z@]+[^{]*\{", "{", s)
    s = _ACCENT.sub(lambda m: m.group(1) or m.group(2), s)
    pieces = []
    for is_math, text in split_math(s):
        if is_math:
            if math == "strip":
                continue
            text = re.sub(r"\\(?:text|mathrm|mathit|mathbf|operatorname|mbox|textrm|mathsf|mathtt)\s*\{([^{}]*)\}",
                          r" \1 ", text)
            text = math_symbols(text).replace("-", "\u2212")  # a formula's hyphen prints a minus sign
            text = re.sub(r"\\[A-Za-z@]+", " ", text)
            text = re.sub(r"\\.", " ", text)
            text = re.sub(r"[_^{}]", "", text)  # sub/superscripts print glued to their base
            pieces.append(text)  # TeX puts no space around inline maths
        else:
            pieces.append(_text_part(text, ctx))
    s = "".join(pieces)
    s = s.replace("~", " ").replace("---", "\u2014").replace("--", "\u2013").replace("``", '"').replace("''", '"')
    return " ".join(s.split())


def _text_part(s: str, ctx: Context) -> str:
    out = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            m = re.match(r"\\([A-Za-z@]+)\*?|\\(.)", s[i:])
            if m is None:
                i += 1
                continue
            name = m.group(1) or m.group(2)
            j = i + m.end()
            if m.group(2):  # control symbol
                if name in "\\ ,;:!>":
                    out.append(" ")
                else:
                    out.append(_WORD_CMDS.get(name, ""))
                i = j
                continue
            if _CITE.match(s, i):
                args, e, notes = groups(s, j, 1)
                out.append(_cite_text(args[0], name, ctx, notes) if args else " ")
                i = e
                continue
            if _REFCMD.match(s, i) or name == "hyperref":
                if name == "hyperref":
                    args, e, opts = groups(s, j, 1)
                    out.append(" " + (tex_plain(args[0], ctx) if args else "") + " ")
                else:
                    args, e, _o = groups(s, j, 1)
                    labels = args[0].split(",") if args else []
                    out.append(" " + ", ".join(_ref_text(lb, name, ctx) for lb in labels) + " ")
                i = e
                continue
            if name == "autonum@processReference":
                # autonum's patched \\ref/\\cref as a list of figures records it:
                # \\autonum@processReference {autonum@reference<command>Old}{forcsvlist}[*]{labels}
                # prints what <command> prints for the labels
                args, e, _o = groups(s, j, 2, optional=False)
                e = skip_ws(s, e)
                if e < n and s[e] == "*":
                    e += 1
                lab, e, _o = groups(s, e, 1, optional=False)
                cm = re.fullmatch(r"\s*autonum@reference([A-Za-z]+?)Old\s*", args[0] if args else "")
                cmd = cm.group(1) if cm else "ref"
                labels = lab[0].split(",") if lab else []
                out.append(" " + ", ".join(_ref_text(lb, cmd, ctx) for lb in labels) + " ")
                i = e
                continue
            if name in ("crefrange", "Crefrange"):
                args, e, _o = groups(s, j, 2)
                out.append(" " + " to ".join(_ref_text(lb, name, ctx) for lb in args) + " ")
                i = e
                continue
            if name in _ACRONYM:
                args, e, _o = groups(s, j, 1)
                out.append(f" {WILD_ACRONYM} " if ctx.wild else (args[0] if args else "") + ("s" if name.endswith("p") else ""))
                i = e
                continue
            if name in _SIUNITX:
                k = _SIUNITX[name]
                args, e, _o = groups(s, j, k)
                out.append(" " + _si_text(name, args) + " ")
                i = e
                continue
            if name in ("url", "nolinkurl", "path"):
                args, e, _o = groups(s, j, 1, optional=False)
                out.append(args[0] if args else "")
                i = e
                continue
            if name in _DROP:
                k = _DROP[name]
                if k:
                    _args, e, _o = groups(s, j, k)
                    i = e
                else:
                    i = j
                out.append(" " if name in ("footnote", "label") else "")
                continue
            if name in _SPACE_CMDS:
                out.append(" ")
            elif name in _WORD_CMDS:
                out.append(_WORD_CMDS[name])
            i = j
            # a control word swallows the spaces after it
            if i < n and s[i] == " " and name not in _SPACE_CMDS and not (name in _WORD_CMDS and _WORD_CMDS[name]):
                while i < n and s[i] == " ":
                    i += 1
            if i < n and s[i] == "[" and name not in _SPACE_CMDS and name not in _WORD_CMDS:
                # an unknown command's optional argument sets options, it prints nothing
                # (\lstinline[style=inline]{code})
                close = s.find("]", i)
                if 0 < close - i < 80 and "{" not in s[i:close]:
                    i = close + 1
            continue
        if c in "{}":
            i += 1
            continue
        if c == "%":  # a comment in source text (lof text has none)
            k = s.find("\n", i)
            i = n if k < 0 else k
            continue
        out.append(c)
        i += 1
    return "".join(out)


def words(text: str) -> list[str]:
    """Lower-case words of a plain text, in any script (accents folded; apostrophes and hyphens
    inside words joined, so "Bundler's" / "Bundler’s" and "inter-annotator" / "interannotator"
    agree; other punctuation and symbols separate words), one-letter words dropped. (Folding to
    ASCII lost every Cyrillic or Greek word: the sites of a Russian thesis matched on numbers.)"""
    text = re.sub(r"\s*[\u2019\u2018\u02bc'`]\s*(?=[^\W\d_])", "", text)
    text = re.sub(r"(?<=[^\W\d_])[-\u2010\u2011\u00ad]\s*(?=[^\W\d_])", "", text)
    text = "".join(" " if unicodedata.category(c)[0] in "PSZ" else c for c in text)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()
    return [w for w in re.findall(r"[^\W_]+", text) if len(w) > 1 or w.isdigit()]


def prose(ws: list[str]) -> list[str]:
    """The words of running text: three characters or more, not a bare number (formula pieces,
    indices and numbers, which PDF text and LaTeX source render differently, left out)."""
    return [w for w in ws if len(w) >= 3 and not w.isdigit()]


# names a reference command prints before a number: "fig. 3" (cleveref), "Figure 3" (autoref),
# "equation 2": which one a class prints is its own setting, not part of the comparison
_REF_NAMES = {"fig", "figs", "figure", "figures", "eq", "eqs", "equation", "equations", "sec", "section",
              "sections", "tab", "table", "tables", "chap", "chapter", "app", "appendix", "alg", "algorithm"}


# a linear rendering of a formula marks an index or exponent ("T_p", "L^{2}"); the page sets it
# glued to its base, as tex_plain does ("Tp", "L2")
_SCRIPT = re.compile(r"(?<=[^\W_])[_^](?:\{([^{}]*)\}|(?=[^\W_]))")


def _glue_scripts(text: str) -> str:
    return _SCRIPT.sub(lambda m: m.group(1) or "", text)


def similarity(a: str, b: str) -> float:
    """Best of three views of two renderings of one caption (word sequence; its prose words;
    its letters alone, which spacing, digits and formula symbols cannot disturb)."""
    a, b = _glue_scripts(a), _glue_scripts(b)
    wa = [w for w in words(a) if w not in _REF_NAMES]
    wb = [w for w in words(b) if w not in _REF_NAMES]
    if not wa and not wb:
        return 1.0
    if not wa or not wb:
        return 0.0
    scores = [difflib.SequenceMatcher(None, wa, wb, autojunk=False).ratio()]
    pa, pb = prose(wa), prose(wb)
    if pa and pb:
        scores.append(difflib.SequenceMatcher(None, pa, pb, autojunk=False).ratio())
    la, lb = re.sub(r"[\W\d_]", "", "".join(wa)), re.sub(r"[\W\d_]", "", "".join(wb))
    if la and lb:
        scores.append(difflib.SequenceMatcher(None, la, lb, autojunk=False).ratio())
    return max(scores)


def prefix_similarity(short: str, long: str) -> float:
    """How well `short` matches the start of `long` (for \\caption[short]{long})."""
    ws, wl = words(short), words(long)
    if not ws:
        return 0.0
    return difflib.SequenceMatcher(None, ws, wl[:len(ws)], autojunk=False).ratio()


# ------------------------------------------------------------------ numbers


def norm_number(s: str) -> str:
    """'Figure 2.3' / 'Fig. A.1:' / '\\relax 3' / '1$\\cdot $2' -> '2.3' / 'A.1' / '3' / '1·2'."""
    s = re.sub(r"\$?\\(?:cdot|textperiodcentered|centerdot)(?![A-Za-z])\s*\$?", "\u00b7", s)
    s = tex_plain(s) if "\\" in s else s
    s = unicodedata.normalize("NFKC", s).strip()
    s = re.sub(r"^(?:fig(?:ure)?s?\.?)\s*", "", s, flags=re.I)
    s = s.strip(" .:;,()")
    return s.replace(" ", "")




def number_key(num: str) -> tuple[str, int] | None:
    """'A.12' -> ('A.', 12), '3' -> ('', 3), '2.3' -> ('2.', 3)."""
    m = re.match(r"^(.*?)(\d+)$", num)
    return (m.group(1), int(m.group(2))) if m else None


# ------------------------------------------------------------------ the .aux record


@dataclass
class AuxFigure:
    number: str
    folio: str
    anchor: str | None
    caption_tex: str | None     # None: no list-of-figures entry
    caption: str = ""
    caption_strip: str = ""     # with formulas removed
    variants: list = field(default_factory=list)  # renderings of the caption (formulas, citation styles)
    wild: str = ""  # the caption with WILD where the record does not say what prints
    caption_from: str = "lof"   # lof | source-long | source (no lof entry) | none
    pdf_page: int | None = None
    page_from: str = ""
    labels: list = field(default_factory=list)
    parts: int = 1              # list-of-figures entries of this number (a \\ContinuedFloat adds one)


@dataclass
class AuxRecord:
    figures: list[AuxFigure]
    labels: dict          # label -> (value, page, anchor, kind)
    bibcite: dict
    aux_files: list[str]
    notes: list[str]


def _aux_files(main_aux: Path) -> list[Path]:
    seen, order = set(), []

    def visit(p: Path) -> None:
        if p in seen or not p.is_file():
            return
        seen.add(p)
        order.append(p)
        text = p.read_text(errors="replace")
        for m in re.finditer(r"\\@input\{([^}]*)\}", text):
            visit(main_aux.parent / m.group(1))

    visit(main_aux)
    return order


def _entries(text: str, command: str):
    """Yield the brace groups after every occurrence of `command` (e.g. '\\newlabel')."""
    i = 0
    while True:
        k = text.find(command, i)
        if k < 0:
            return
        j = k + len(command)
        gs, e, _o = groups(text, j, 2, optional=False)
        i = max(e, j)
        if len(gs) == 2:
            yield gs


def _bib_text(value: str) -> tuple[str, str]:
    """(number, author-year) as a citation may print it: natbib entries carry both, the
    style decides which is printed."""
    gs, _e, _o = groups(value, 0, 4, optional=False)
    if len(gs) >= 3:  # natbib: {num}{year}{{short authors}}{{long}}
        ay = (tex_plain(gs[2]) + " " + tex_plain(gs[1])).strip()
        return tex_plain(gs[0]), ay or tex_plain(gs[0])
    return tex_plain(value), tex_plain(value)


_NUMBERISH = re.compile(r"^[A-Z]{0,3}[.\-]?\d+(?:[.\-]\d+)*\(?[a-z]?\)?$")


def _figure_type(name: str) -> bool:
    """A float type of its own whose entries are figures: a supplement's `sfigure` or
    `suppfigure` (\\DeclareCaptionType{sfigure}[Fig], printed "Fig S1"), in a list of its own
    (`\\@writefile{losfigure}`); not subfig's sub-figure entries."""
    return name.endswith("figure") and name not in ("subfigure", "figure") and name.isalpha()


# A float type a paper declares and names as a figure prints its own series: float's
# \floatname{suppfig}{Figure S} (as Quarto writes its supplementary and appendix figures) or
# caption's \DeclareCaptionType{sfig}[Figure A], the letters after the figure word beginning the
# printed number; or a name with a series word before the figure's ("Supplementary Figure",
# "Extended Data Fig."), which counts from 1 in print like the main figures: its figures are
# written with the series' letters ("S3" for what prints "Supplementary Figure 3", "ED3" for
# "Extended Data Fig. 3"), not further parts of the main Figure 3.
_SERIES_WORD = re.compile(r"^\s*(?:(extended\s+data)|supplementa(?:ry|l)|supporting)\b", re.I)
_FIGURE_NAME = re.compile(r"\s*(?:Figure|Fig\.?)(?:\s|~|\\,|\\ )*([A-Z]{0,2})\s*$")
_DECLARED_NAME = [
    # newfloat: \DeclareFloatingEnvironment[name=...]{type}; caption: \DeclareCaptionType[name=...]{type}[name]
    re.compile(r"\\(?:DeclareFloatingEnvironment|DeclareCaptionType)\s*\[(?P<opts>(?:[^\[\]{}]|\{[^{}]*\})*)\]\s*\{(?P<type>\w+)\}"),
    re.compile(r"\\DeclareCaptionType\s*(?:\[[^\]]*\])?\s*\{(?P<type>\w+)\}\s*\[(?P<name>[^\]]*)\]"),
    re.compile(r"\\(?:floatname|SetupFloatingEnvironment)\s*\{(?P<type>\w+)\}\s*\{(?P<name>[^{}]*)\}"),
]


def declared_figure_types(text: str) -> dict[str, str]:
    """float type -> the series letters it prints ("" for none), for the types the sources
    (`text`, flattened) name as figures (the last declaration of a type decides). LaTeX's
    record has such a float's entry in a list of its own (`\\@writefile{losuppfig}`) and the
    counter alone as its number ("1" for the printed "Figure S1")."""
    found: list[tuple[int, str, str]] = []
    for pat in _DECLARED_NAME:
        for m in pat.finditer(text):
            name = m.groupdict().get("name")
            if name is None:
                nm = re.search(r"(?:^|,)\s*name\s*=\s*\{?([^,{}]*)", m.group("opts"))
                name = nm.group(1) if nm else None
            if name is not None:
                found.append((m.start(), m.group("type"), name.replace("~", " ")))
    out: dict[str, str] = {}
    for _pos, kind, name in sorted(found):
        w = _SERIES_WORD.match(name)
        fm = _FIGURE_NAME.match(name)
        if w:
            out[kind] = "ED" if w.group(1) else "S"
        elif fm and kind not in ("figure", "table"):
            out[kind] = fm.group(1)
        else:
            out.pop(kind, None)
    return out


def read_aux(main_aux: Path, figure_types: dict[str, str] | None = None) -> AuxRecord:
    """LaTeX's record of the build: figures, labels, citations. `figure_types`: float types the
    sources declare as figures (declared_figure_types), the series letters their numbers print."""
    figure_types = figure_types or {}
    files = _aux_files(main_aux)
    lof: list[AuxFigure] = []
    labels: dict = {}
    cref_kind: dict = {}
    lot_anchors: set = set()  # anchors of list-of-tables entries
    bib: dict = {}
    notes: list[str] = []
    other_types: set = set()  # figure float types of their own (a supplement's "sfigure")
    for f in files:
        text = f.read_text(errors="replace")
        for target, body in _entries(text, "\\@writefile"):
            m = re.match(r"\s*\\contentsline\s*", body)
            if not m or target.strip() in ("toc", "lol", "loa"):
                continue
            gs, _e, _o = groups(body, m.end(), 4, optional=False)
            if target.strip() == "lot":
                if len(gs) > 3 and gs[3].strip():
                    lot_anchors.add(gs[3].strip())  # a table caption's anchor (see below)
                continue
            kind = gs[0].strip() if gs else ""
            if len(gs) < 3 or (kind != "figure" or target.strip() != "lof") and \
                    kind not in other_types and kind not in figure_types and not _figure_type(kind):
                continue  # a figure entry of the list of figures, or of a figure type of its own
            if kind != "figure":
                other_types.add(kind)
            entry = gs[1]
            k = entry.find("\\numberline")
            if k >= 0:
                ng, e, _o = groups(entry, k + len("\\numberline"), 1, optional=False)
                number = norm_number(ng[0]) if ng else ""
                cap = entry[e:].strip()
                if cap.startswith("{"):
                    g, e2 = read_group(cap, 0)
                    if not cap[e2:].strip():
                        cap = g
            else:
                mm = re.match(r"\s*(?:Fig(?:ure)?\.?\s*)?([A-Z]?[\d.]+)[:.]?\s*(.*)", tex_plain(entry), re.S)
                number, cap = (mm.group(1).rstrip("."), mm.group(2)) if mm else ("", entry)
            if figure_types.get(kind) and number[:1].isdigit():
                number = figure_types[kind] + number  # the printed "Figure S1", "Supplementary Figure 1"
            lof.append(AuxFigure(number=number, folio=tex_plain(gs[2]), anchor=gs[3].strip() if len(gs) > 3 else None,
                                 caption_tex=cap))
        if not any("\\@writefile{lof}" in q.read_text(errors="replace") for q in files):
            # a side run's record of every \@caption (classes that write no list of figures)
            k = 0
            while True:
                k = text.find("\\blxcaption", k)
                if k < 0:
                    break
                gs, k, _o = groups(text, k + len("\\blxcaption"), 4, optional=False)
                if len(gs) == 4 and gs[0].strip() == "figure":
                    lof.append(AuxFigure(number=norm_number(gs[1]), folio=tex_plain(gs[2]), anchor=None,
                                         caption_tex=gs[3]))
        for name, value in _entries(text, "\\newlabel"):
            gs, _e, _o = groups(value, 0, 5, optional=False)
            if name.endswith("@cref"):
                km = re.match(r"\s*\[([^\]]*)\]", gs[0] if gs else "")
                if km:
                    cref_kind[name[:-5]] = km.group(1)
                continue
            if not gs:
                continue
            tr = re.match(r"\s*\\M@TitleReference\s*(?=\{)", gs[0])
            if tr:  # memoir's titleref: {\M@TitleReference {number}{title}}, \ref prints the number
                gs[0] = read_group(gs[0], tr.end())[0]
            labels[name] = (norm_number(gs[0]) if gs[0].strip() else "", tex_plain(gs[1]) if len(gs) > 1 else "",
                            gs[3].strip() if len(gs) > 3 else None)
        for key, value in _entries(text, "\\bibcite"):
            bib[key] = _bib_text(value)
    out = {}
    for name, (value, page, anchor) in labels.items():
        kind = ""
        if anchor:
            kind = anchor.split(".")[0]
            if figure_types.get(kind) and value[:1].isdigit():
                value = figure_types[kind] + value  # \\ref prints the counter; the figure is "S1"
            kind = "figure" if kind in other_types or kind in figure_types else kind
        if name in cref_kind:
            kind = cref_kind[name] or kind
        out[name] = (value, page, anchor, kind)
    # one figure per number: a \ContinuedFloat or a repeated entry keeps the first
    seen, figs = set(), []
    for f in lof:
        if f.number in seen:
            notes.append(f"lof entry for Figure {f.number} repeated (continued float?)")
            next(g for g in figs if g.number == f.number).parts += 1
            continue
        seen.add(f.number)
        figs.append(f)
    lof_anchors: dict[str, set] = {}
    for f in figs:
        if f.anchor:
            lof_anchors.setdefault(f.anchor, set()).add(f.number)
    for name, (value, page, anchor, kind) in list(out.items()):
        # a caption that is not a figure's inside a figure float (a table's) gets a
        # figure.caption.N anchor too: with a list of figures, a figure label's anchor is one of
        # its entries' and its number is (or is a panel of) that entry's. A figure caption that
        # writes no entry (`\caption[]{..}`, whose empty short form the caption package keeps
        # out of the list) has an anchor of its own that no entry of either list has: a figure.
        own = anchor not in lof_anchors and anchor not in lot_anchors and value not in seen and \
            kind == "figure" and bool(lot_anchors or lof_anchors) and _NUMBERISH.match(value or "")
        if kind == "figure" and lof_anchors and not own and (anchor not in lof_anchors or
                                                             _parent_number(value, lof_anchors[anchor]) is None):
            out[name] = (value, page, anchor, "figure-float")
        elif kind == "figure" and not _NUMBERISH.match(value or ""):
            out[name] = (value, page, anchor, "figure-unnumbered")
    for name, (value, page, anchor, kind) in out.items():
        if kind == "figure" and value and value not in seen and not re.search(r"[a-z]\)?$", value):
            seen.add(value)
            figs.append(AuxFigure(number=value, folio=page, anchor=anchor, caption_tex=None, caption_from="none"))
            notes.append(f"Figure {value}: labelled, no list-of-figures entry")
    # a figure with sub-captions and no main caption writes no entry; its sub-figures' labels
    # ("2a", anchor subfigure.2.1) still show that LaTeX numbered it
    for name, (value, page, anchor, kind) in out.items():
        m = re.fullmatch(r"(.*\d)\(?[a-z]\)?", value or "")
        if name.startswith("sub@") or not m or m.group(1) in seen or kind not in ("subfigure", "figure"):
            continue
        seen.add(m.group(1))
        figs.append(AuxFigure(number=m.group(1), folio=page, anchor=None, caption_tex="", caption_from="none"))
        notes.append(f"Figure {m.group(1)}: only sub-figure labels, no main caption")
    return AuxRecord(figs, out, bib, [str(p) for p in files], notes)


# ------------------------------------------------------------------ sources


_INPUT = re.compile(r"\\(input|include|subfile|import|subimport|includefrom|subincludefrom)\*?\s*(\{|[^\s{\\])")
_FIG_ENVS = ("figure", "figure*", "wrapfigure", "wrapfigure*", "SCfigure", "SCfigure*", "sidewaysfigure",
             "sidewaysfigure*", "floatingfigure", "marginfigure", "widefigure", "fullwidthfigure", "subfigure",
             "figwindow", "mpfigure")
_REF_BUILTIN = {"ref", "Ref", "cref", "Cref", "autoref", "Autoref", "vref", "Vref", "labelcref", "subref", "nameref",
                "Nameref", "fref", "Fref", "figref", "Figref", "cref*", "Cref*"}
# reference commands that look their label up as one name, spaces typed inside the braces included
_AS_TYPED = {"ref", "autoref", "Autoref", "vref", "Vref"}
_NOT_SITE = {"pageref", "cpageref", "Cpageref", "eqref", "vpageref", "label"}


@dataclass
class Flat:
    """The sources flattened into one text (inputs spliced in), with a map back to files."""
    text: str
    starts: list[int]                   # flat offset where each segment starts
    segs: list[tuple[str, int]]         # (file, offset in that file's text)
    files: dict                         # file -> its text
    root: Path

    def where(self, pos: int) -> tuple[str, int, int]:
        k = bisect.bisect_right(self.starts, pos) - 1
        file, off = self.segs[k]
        off += pos - self.starts[k]
        text = self.files[file]
        line = text.count("\n", 0, off) + 1
        col = off - (text.rfind("\n", 0, off) + 1) + 1
        return file, line, col


def mask_comments(text: str) -> str:
    out = []
    for line in text.split("\n"):
        i = 0
        cut = None
        while True:
            k = line.find("%", i)
            if k < 0:
                break
            bs = 0
            j = k - 1
            while j >= 0 and line[j] == "\\":
                bs += 1
                j -= 1
            if bs % 2 == 0:
                cut = k
                break
            i = k + 1
        out.append(line if cut is None else line[:cut] + " " * (len(line) - cut))
    return "\n".join(out)


def _blank(s: str, a: int, b: int) -> str:
    """s with [a, b) replaced by spaces, newlines kept (positions stay valid)."""
    return s[:a] + re.sub(r"[^\n]", " ", s[a:b]) + s[b:]


def flatten(main: Path, root: Path | None = None) -> Flat:
    root = root or main.parent
    files: dict[str, str] = {}
    pieces: list[str] = []
    starts: list[int] = []
    segs: list[tuple[str, int]] = []
    pos = [0]

    main_text = mask_comments(main.read_text(encoding="utf-8", errors="replace"))
    path_macros = {m.group(1): m.group(2) for m in re.finditer(
        r"\\(?:re)?newcommand\*?\s*\{?\\([A-Za-z]+)\}?\s*\{([^{}\\]*)\}", main_text)}
    path_macros.update({m.group(1): m.group(2)
                        for m in re.finditer(r"\\def\s*\\([A-Za-z]+)\s*\{([^{}\\]*)\}", main_text)})

    def expand_path(name: str) -> str:
        """`\\PATH/ch1/` with \\newcommand{\\PATH}{.}: paths built from simple macros."""
        return re.sub(r"\\([A-Za-z]+)\s*", lambda m: path_macros.get(m.group(1), ""), name)

    def resolve(name: str, here: Path, base: Path | None = None) -> Path | None:
        name = expand_path(name.strip().strip('"'))
        cands = []
        for d in ([base] if base else []) + [main.parent, here, main.parent.parent]:
            p = (d / name)
            cands += [p, p.with_name(p.name + ".tex")]
        for p in cands:
            if p.is_file() and p.suffix in (".tex", ".ltx", ""):
                return p
        return None

    def emit(file: str, text: str, a: int, b: int) -> None:
        if b > a:
            starts.append(pos[0])
            segs.append((file, a))
            pieces.append(text[a:b])
            pos[0] += b - a

    def visit(path: Path, depth: int, body_only: bool = False) -> None:
        rel = str(path.resolve().relative_to(root.resolve())) if path.resolve().is_relative_to(root.resolve()) \
            else str(path.resolve())
        if rel in files or depth > 12:
            return
        raw = path.read_text(encoding="utf-8", errors="replace")
        files[rel] = raw
        text = mask_comments(raw)
        lo, hi = 0, len(text)
        if body_only:  # a \subfile is a document of its own: only its body is printed in the main one
            b, z = text.find("\\begin{document}"), text.find("\\end{document}")
            lo = b + len("\\begin{document}") if b >= 0 else 0
            hi = z if z >= lo else len(text)
        i = lo
        for m in _INPUT.finditer(text, lo, hi):
            kind = m.group(1)
            if m.group(2) == "{":
                gs, e, _o = groups(text, m.end() - 1, 2 if kind in ("import", "subimport", "includefrom",
                                                                     "subincludefrom") else 1, optional=False)
            else:
                mm = re.match(r"[^\s{}\\]+", text[m.end() - 1:])
                gs, e = [mm.group(0)], m.end() - 1 + mm.end()
            if not gs:
                continue
            if kind in ("import", "includefrom"):
                target = resolve(gs[-1], path.parent, (main.parent / expand_path(gs[0])) if len(gs) > 1 else None)
            elif kind in ("subimport", "subincludefrom"):
                target = resolve(gs[-1], path.parent, (path.parent / expand_path(gs[0])) if len(gs) > 1 else None)
            else:
                target = resolve(gs[0], path.parent)
            if target is None:
                continue
            emit(rel, text, i, m.start())  # the \input command itself is dropped
            visit(target, depth + 1, kind == "subfile")
            i = e
        emit(rel, text, i, hi)

    visit(main, 0)
    return Flat("".join(pieces), starts, segs, files, root)


@dataclass
class Site:
    figure: str
    file: str
    line: int
    column: int
    kind: str              # "ref" | "text"
    macro: str
    start: int             # flat offsets of the mention
    end: int
    context: list = field(default_factory=list)
    merged: int = 1
    before: list = field(default_factory=list)
    after: list = field(default_factory=list)
    alt: str | None = None  # the figure the label's anchor sits in, when the printed number names another


@dataclass
class SourceRecord:
    sites: list[Site]
    env_figures: list       # (start, end, [figure numbers]) of figure environments
    captions: dict          # figure number -> plain long caption from the source, when known
    short_long: list        # (short plain, long TeX) of \caption[short]{long}
    undecided: list[str]
    files: list[str]
    macros: dict = field(default_factory=dict)   # simple user macros, to render source captions
    unprinted: list = field(default_factory=list)  # numbers LaTeX gave floats that print no caption


def _macro_defs(text: str):
    """(name, nargs, body, start, end) of \\newcommand-like and \\def definitions."""
    pat = re.compile(r"\\(?:re)?newcommand\*?|\\providecommand\*?|\\DeclareRobustCommand\*?|"
                     r"\\(?:long\s*\\|protected\s*\\)*[gex]?def(?![A-Za-z])|"
                     r"\\NewDocumentCommand|\\RenewDocumentCommand|"
                     r"\\newrobustcmd\*?")
    for m in pat.finditer(text):
        i = skip_ws(text, m.end())
        name = None
        if text.startswith("{", i):
            g, i = read_group(text, i)
            name = g.strip().lstrip("\\")
        else:
            mm = re.match(r"\\([A-Za-z@]+)", text[i:])
            if mm:
                name = mm.group(1)
                i += mm.end()
        if not name:
            continue
        nargs = 0
        if "def" in m.group(0) and "newcommand" not in m.group(0):
            mm = re.match(r"((?:#\d)*)", text[i:])
            nargs = len(mm.group(1)) // 2
            i += mm.end()
        elif "DocumentCommand" in m.group(0):
            g, i = read_group(text, skip_ws(text, i)) if text[skip_ws(text, i):].startswith("{") else ("", i)
            nargs = len(re.findall(r"[mrRvbo]|O\{[^}]*\}", g))
        else:
            j = skip_ws(text, i)
            mm = re.match(r"\[(\d)\]", text[j:])
            if mm:
                nargs = int(mm.group(1))
                i = j + mm.end()
                j = skip_ws(text, i)
                mm2 = re.match(r"\[[^\]]*\]", text[j:])
                if mm2:
                    i = j + mm2.end()
        j = skip_ws(text, i)
        if not text.startswith("{", j):
            continue
        body, e = read_group(text, j)
        yield name, nargs, body, m.start(), e


_CONNECT = re.compile(r"^(?:\s|[,;~()\[\]\-\u2013\u2014/&]|\\,|\\ |\\textendash|\\textemdash|--+|and|or|to|through|"
                      r"\\&|fig(?:ure)?s?\.?|panels?|[a-z](?![a-z])|\(\w\))*$", re.I)


def scan_sources(main: Path, aux: AuxRecord, root: Path | None = None, flat: "Flat | None" = None) -> SourceRecord:
    flat = flat if flat is not None else flatten(main, root)
    text = flat.text
    undecided: list[str] = []
    # printed region: after \begin{document}, before \end{document}
    b = re.search(r"\\begin\s*\{document\}", text)
    e = re.search(r"\\end\s*\{document\}", text)
    body_start = b.end() if b else 0
    body_end = e.start() if e else len(text)
    preamble = text[:body_start]
    defs = list(_macro_defs(text))
    # blocks LaTeX does not print
    printed = _blank(text, 0, body_start)
    printed = _blank(printed, body_end, len(printed))
    excluded_envs = {"comment", "verbatim", "verbatim*", "lstlisting", "minted", "Verbatim", "filecontents",
                     "filecontents*"}
    excluded_envs |= set(re.findall(r"\\excludecomment\s*\{([^}]*)\}", preamble))
    for env in excluded_envs:
        for m in re.finditer(r"\\begin\s*\{" + re.escape(env) + r"\}", printed):
            k = printed.find("\\end{" + env + "}", m.end())
            printed = _blank(printed, m.start(), len(printed) if k < 0 else k + len(env) + 6)
    # \newif switches: their state after the preamble
    switches: dict[str, bool] = {}
    for name in re.findall(r"\\newif\s*\\if([A-Za-z@]+)", text):
        switches[name] = False
    for m in re.finditer(r"\\([A-Za-z@]+)(true|false)(?![A-Za-z])", preamble):
        if m.group(1) in switches:
            switches[m.group(1)] = m.group(2) == "true"
    switches["false"] = False
    switches["true"] = True
    switches.setdefault("pdf", True)  # ifpdf: true under pdfTeX and LuaTeX, the engines of these builds
    printed = _mask_conditionals(printed, switches, undecided, flat)
    # user macros defined empty, and user macros wrapping \ref
    empty: dict[str, int] = {}
    refmacros: dict[str, tuple[int, list]] = {}
    simple: dict[str, tuple[int, str]] = {}
    for name, nargs, body, _s, _e in defs:
        stripped = re.sub(r"\\(?:relax|ignorespaces|unskip)\b", "", body).strip()
        if not stripped and nargs >= 1:
            empty[name] = nargs
            continue
        for rm in re.finditer(r"\\(ref|cref|Cref|autoref|Autoref|vref|Vref|labelcref|subref|nameref)\*?\s*\{([^{}]*)\}",
                              body):
            refmacros.setdefault(name, (nargs, []))[1].append((rm.group(1), rm.group(2)))
        if nargs <= 3 and "@" not in body and "\\def" not in body and "\\newcommand" not in body and len(body) < 200 \
                and not re.search(r"\\(?:begin|end|if|else|fi|expandafter|csname|let)\b", body):
            simple[name] = (nargs, body)
    for _ in range(3):  # macros wrapping ref macros
        for name, nargs, body, _s, _e in defs:
            if name in refmacros:
                continue
            for other in list(refmacros):
                for rm in re.finditer(r"\\" + re.escape(other) + r"\*?\s*\{([^{}]*)\}", body):
                    refmacros.setdefault(name, (nargs, []))[1].append(("ref", rm.group(1)))
    # package commands that print nothing under the options this build used
    for opts, pkg, cmds in ((r"final", "changes", ("comment", "deleted")), (r"disable", "todonotes", ("todo",))):
        if re.search(r"\\usepackage\s*\[[^\]]*\b" + opts + r"\b[^\]]*\]\s*\{" + pkg + r"\}", preamble):
            for c in cmds:
                empty.setdefault(c, 1)
    # AASTeX's change tracking: without the class option trackchanges, \\explain{..} and
    # \\deleted{..} print nothing, \\added{new} its text, \\replaced{old}{new} the new text only
    dc = re.search(r"\\documentclass\s*(?:\[([^\]]*)\])?\s*\{aastex\d*\}", preamble)
    if dc and "trackchanges" not in (dc.group(1) or ""):
        for c in ("explain", "deleted"):
            empty.setdefault(c, 1)
        for m in re.finditer(r"\\replaced(?![A-Za-z@])", printed):
            _g, end, _o = groups(printed, m.end(), 1)
            printed = _blank(printed, m.start(), end)  # "\\replaced{old}" goes, "{new}" stays
    for name, nargs in empty.items():
        for m in re.finditer(r"\\" + re.escape(name) + r"(?![A-Za-z@])", printed):
            if printed[m.start():m.end()].strip() == "":
                continue
            _g, end, _o = groups(printed, m.end(), nargs)
            printed = _blank(printed, m.start(), end)
    ctx = Context(labels={k: (v[0], v[3]) for k, v in aux.labels.items()}, bibcite=aux.bibcite, macros=simple)
    # figure labels -> figure numbers
    fig_numbers = [f.number for f in aux.figures]
    fig_set = set(fig_numbers)
    envs = _figure_envs(printed)
    label_fig = _figure_labels(aux, printed, envs, fig_set)
    # labels in a float with no caption: its anchor counts on from the last figure, no figure's own
    uncaptioned = {" ".join(lb.split()) for a, z in envs if not re.search(r"\\caption(?:of)?\b", printed[a:z])
                   for lb in re.findall(r"\\label\s*\{([^}]*)\}", printed[a:z])}
    alt_of = {k: v for k, v in _anchor_figures(aux, label_fig).items() if k not in uncaptioned}
    # a sub-figure label in such a float prints a number no listed figure has ("Figure 4.7" where
    # the figures run 1-35): no reader finds its figure, so it cites none
    values = {" ".join(k.split()): v[0] for k, v in aux.labels.items()}
    label_fig = {k: v for k, v in label_fig.items() if k not in uncaptioned or values.get(k) == v}
    env_figs = []
    for (a, z) in envs:
        inside = re.findall(r"\\label\s*\{([^}]*)\}", printed[a:z])
        figs = sorted({label_fig[" ".join(lb.split())] for lb in inside if " ".join(lb.split()) in label_fig})
        env_figs.append([a, z, figs])
    captions, short_long = _source_captions(printed, envs, env_figs, aux, ctx)
    unprinted = _unprinted_numbers(printed, envs, aux)
    # sites
    raw: list[Site] = []
    body = _short_captions_blanked(printed)
    _ref_sites(body, ctx, label_fig, fig_numbers, refmacros, raw, flat, alt_of)
    _literal_sites(body, fig_set, fig_numbers, raw, flat)
    sites = []
    for s in raw:
        if any(a <= s.start < z and s.figure in figs for a, z, figs in env_figs):
            continue
        sites.append(s)
    sites = _merge(sites, printed)
    for s in sites:
        s.before, s.after = context_words(printed, s.start, s.end, ctx)
        s.context = s.before + s.after
    return SourceRecord(sites, env_figs, captions, short_long, undecided, list(flat.files), simple, unprinted)


def _mask_conditionals(text: str, switches: dict, undecided: list, flat: Flat) -> str:
    """Blank the false branch of \\iffalse / \\iftrue / \\newif switches (nesting counted over
    every \\if... token); other conditionals keep both branches and are reported."""
    # `\if 0` / `\if0` before a space or line end compares "0" with a space: false (a common off switch)
    tok = re.compile(r"\\(if\s*\d(?=\s)|if[A-Za-z@]*|else|fi|or)(?![A-Za-z@])")
    toks = [(m.start(), m.end(), "iffalse" if re.match(r"if\s*\d", m.group(1)) else m.group(1))
            for m in tok.finditer(text)]
    known_if = {"if", "ifx", "ifnum", "ifdim", "ifcase", "ifdefined", "ifcsname", "ifodd", "ifvmode", "ifhmode",
                "ifmmode", "ifinner", "ifvoid", "ifhbox", "ifvbox", "ifeof", "ifcat", "iftrue", "iffalse"}
    i = 0
    while i < len(toks):
        a, b, name = toks[i]
        cond = name[2:]
        is_switch = cond in switches
        if not is_switch and name not in known_if and not name.startswith("if@"):
            i += 1  # \iff (maths), \ifthenelse etc.: not a TeX conditional
            continue
        if not is_switch:  # \ifx, \ifnum ...: both branches kept (reported below when a mention is inside)
            i += 1
            continue
        # find the matching \else / \fi
        depth, j, els, fi = 0, i + 1, None, None
        while j < len(toks):
            n2 = toks[j][2]
            if n2.startswith("if") and (n2 in known_if or n2[2:] in switches or n2.startswith("if@")):
                depth += 1
            elif n2 == "fi":
                if depth == 0:
                    fi = j
                    break
                depth -= 1
            elif n2 == "else" and depth == 0 and els is None:
                els = j
            j += 1
        if fi is None:
            i += 1
            continue
        state = switches[cond]
        if state:
            if els is not None:
                text = _blank(text, toks[els][0], toks[fi][1])
        else:
            text = _blank(text, a, toks[els][1] if els is not None else toks[fi][1])
        i = fi + 1
    # conditionals on macros the scanner cannot evaluate, with a figure mention inside: report
    for m in re.finditer(r"\\(ifdefined|ifx|ifthenelse|ifboolexpr|ifbool|iftoggle|ifdraft|ifpdf)\b", text):
        chunk = text[m.end():m.end() + 800]
        if re.search(r"\\(?:c|C|auto)?ref\b|Fig", chunk[:chunk.find("\\fi") if "\\fi" in chunk else 800]):
            f, line, _c = flat.where(m.start())
            undecided.append(f"{f}:{line} \\{m.group(1)} around a figure mention (both branches kept)")
    return text


def _figure_envs(text: str) -> list[tuple[int, int]]:
    envs = []
    pat = re.compile(r"\\(begin|end)\s*\{(" + "|".join(re.escape(e) for e in _FIG_ENVS) + r")\}")
    stack = []
    for m in pat.finditer(text):
        if m.group(1) == "begin":
            stack.append((m.group(2), m.start()))
        elif stack:
            # close the innermost of the same name
            for k in range(len(stack) - 1, -1, -1):
                if stack[k][0] == m.group(2):
                    name, a = stack.pop(k)
                    if name != "subfigure" or not stack:
                        envs.append((a, m.end()))
                    break
    # \captionof{figure}: the caption and a label right after it
    for m in re.finditer(r"\\captionof\s*\{figure\}", text):
        gs, e, _o = groups(text, m.end(), 1)
        lm = re.match(r"\s*(?:\\label\s*\{[^}]*\}\s*)+", text[e:])
        envs.append((m.start(), e + (lm.end() if lm else 0)))
    envs.sort()
    return envs


def _figure_labels(aux: AuxRecord, printed: str, envs: list, fig_set: set) -> dict:
    """label -> figure number, for labels of figures and their sub-figures."""
    out = {}
    in_env = set()
    for a, z in envs:
        for lb in re.findall(r"\\label\s*\{([^}]*)\}", printed[a:z]):
            in_env.add(" ".join(lb.split()))
    anchor_fig = {f.anchor: f.number for f in aux.figures if f.anchor}
    for name, (value, _page, anchor, kind) in aux.labels.items():
        key = " ".join(name.split())
        if name.startswith("sub@"):
            continue
        if kind == "figure" and value in fig_set:
            out[key] = value
        elif key in in_env and value in fig_set and kind in _SECTIONAL:
            # a class whose margin captions set no figure anchor (tufte): the label, inside the
            # figure environment, took the caption's number while hyperref kept the section's anchor
            out[key] = value
        elif kind in ("figure", "subfigure", "sub@figure") or (kind == "" and key in in_env):
            parent = _parent_number(value, fig_set)
            if parent is None and anchor:
                m = re.match(r"subfigure\.(.*)\.\d+$", anchor)
                if m:
                    parent = anchor_fig.get("figure." + m.group(1))
            if parent is not None:
                out[key] = parent
    return out


_SECTIONAL = ("", "section", "subsection", "subsubsection", "chapter", "paragraph", "part", "appendix", "page",
              "Doc-Start")


def _parent_number(value: str, fig_set: set) -> str | None:
    if value in fig_set:
        return value
    best = None
    for n in fig_set:
        if value.startswith(n) and re.fullmatch(r"\(?[A-Za-z]{1,2}\)?|\.\d+|\(\d+\)|[ivx]+", value[len(n):], re.I):
            if best is None or len(n) > len(best):
                best = n
    return best


def _source_captions(printed: str, envs: list, env_figs: list, aux: AuxRecord, ctx: Context):
    """The long captions (plain) the source gives per figure number where the .aux lacks them,
    and every (short, long) pair of \\caption[short]{long}."""
    caps_by_fig: dict = {}
    short_long = []
    pat = re.compile(r"\\(caption|captionof)(?![A-Za-z])")
    # main captions in figure environments, in order, with the env they sit in
    ordered = []
    for m in pat.finditer(printed):
        j = m.end()
        if m.group(1) == "captionof":
            gs, j, _o = groups(printed, j, 1, optional=False)
            if not gs or gs[0].strip() != "figure":
                continue
        k = skip_ws(printed, j)
        if k < len(printed) and printed[k] == "*":
            continue  # \\caption*: no number
        opt = None
        k = skip_ws(printed, k)
        if k < len(printed) and printed[k] == "[":
            depth, q = 0, k
            while q < len(printed):
                if printed[q] == "[":
                    depth += 1
                elif printed[q] == "]":
                    depth -= 1
                    if depth == 0:
                        break
                q += 1
            opt = printed[k + 1:q]
            k = skip_ws(printed, q + 1)
        if k >= len(printed) or printed[k] != "{":
            continue
        long, _e = read_group(printed, k)
        env = next((i for i, (a, z) in enumerate(envs) if a <= m.start() < z), None)
        if env is None:
            continue
        # a \caption inside a sub-figure of a figure env is a sub-caption
        a, z = envs[env]
        before = printed[a:m.start()]
        if before.count("\\begin{subfigure}") > before.count("\\end{subfigure}") or \
                re.search(r"\\begin\{minipage\}", before) and False:
            continue
        plain_long = expand_macros(long, ctx)  # TeX, rendered per citation style later
        if opt is not None:
            short_long.append((tex_plain(expand_macros(opt, ctx), ctx), plain_long, opt.strip() == ""))
        ordered.append((env, plain_long))
    for env, plain_long in ordered:
        figs = env_figs[env][2]
        same_env = [p for e2, p in ordered if e2 == env]
        if len(figs) == 1 and len(same_env) == 1:
            caps_by_fig.setdefault(figs[0], plain_long)
    # unlabelled figures: by order, when the source has exactly one main caption per figure
    if len(ordered) == len(aux.figures):
        for (env, plain_long), f in zip(ordered, sorted(aux.figures, key=lambda f: _lof_order(aux, f))):
            caps_by_fig.setdefault(f.number, plain_long)
            if f.number not in env_figs[env][2]:
                env_figs[env][2].append(f.number)
    return caps_by_fig, short_long


_SUBCAPTION = re.compile(r"\\(?:subcaption|subcaptionbox|subfloat|subfigure|sidesubfloat)(?![A-Za-z])")


def _main_captions(printed: str, envs: list) -> list[int]:
    """Offsets of the numbered main captions of figure floats, in source order (a \\caption in a
    sub-figure environment is a sub-caption; \\caption* numbers nothing)."""
    out = []
    for m in re.finditer(r"\\(caption|captionof)(?![A-Za-z])", printed):
        j = m.end()
        if m.group(1) == "captionof":
            gs, j, _o = groups(printed, j, 1, optional=False)
            if not gs or gs[0].strip() != "figure":
                continue
        if printed[skip_ws(printed, j):skip_ws(printed, j) + 1] == "*":
            continue
        env = next(((a, z) for a, z in envs if a <= m.start() < z), None)
        if env is None:
            continue
        before = printed[env[0]:m.start()]
        if before.count("\\begin{subfigure}") > before.count("\\end{subfigure}"):
            continue
        out.append(m.start())
    return out


def _unprinted_numbers(printed: str, envs: list, aux: AuxRecord) -> list[str]:
    """Numbers LaTeX gave to floats that print no caption: a float holding only sub-captions
    steps the figure counter (subcaption does, so its panels can print "4a") but writes no
    list-of-figures entry and prints no "Figure 4". Known where the list's numbers skip: the
    skipped numbers are these floats' when exactly so many caption-less floats with sub-captions
    stand between the two listed figures in the source."""
    listed = [f for f in aux.figures if f.caption_tex != ""]  # those with a main caption
    if any(f.caption_tex is None for f in listed):  # labelled figures with no entry come last: sort
        # digits before letters, so "A1" (an appendix's) sorts after "9" and never meets an int
        listed.sort(key=lambda f: [(0, int(x), "") if x.isdigit() else (1, 0, x)
                                   for x in re.findall(r"\d+|\D+", f.number)])
    caps = _main_captions(printed, envs)
    if not listed or len(caps) != len(listed):
        return []
    sub_only = [a for a, z in envs if not any(a <= c < z for c in caps) and
                (_SUBCAPTION.search(printed[a:z]) or re.search(r"\\begin\{subfigure\}.*?\\caption\b",
                                                                printed[a:z], re.S))]
    out = []
    prev_key, prev_pos = None, -1
    for f, pos in zip(listed, caps):
        key = number_key(f.number)
        if key is None:
            prev_key, prev_pos = None, pos
            continue
        first = prev_key[1] + 1 if prev_key and prev_key[0] == key[0] else 1
        if key[1] > first:
            between = [a for a in sub_only if prev_pos < a < pos]
            if len(between) == key[1] - first:
                out += [f"{key[0]}{k}" for k in range(first, key[1])]
        prev_key, prev_pos = key, pos
    return out


def _lof_order(aux: AuxRecord, f: AuxFigure) -> int:
    return aux.figures.index(f)


def _label_list(arg: str) -> list[str]:
    return [" ".join(x.split()) for x in arg.split(",") if x.strip()]


def _expand_range(a: str, b: str, numbers: list[str]) -> list[str]:
    ka, kb = number_key(a), number_key(b)
    if not ka or not kb or ka[0] != kb[0] or kb[1] < ka[1] or kb[1] - ka[1] > 40:
        return [a, b]
    return [n for n in numbers if (number_key(n) or ("#", -1))[0] == ka[0] and ka[1] <= number_key(n)[1] <= kb[1]]


def _anchor_figures(aux: AuxRecord, label_fig: dict) -> dict:
    """label -> the figure its hyperref anchor lies in, for labels whose printed number names
    another figure (a sub-figure counter run out of step: "5a" printed for a panel of Figure 6,
    "1(a)" in Figure E1). The print names the one, LaTeX's structure the other: a site bound
    to either is the mention's."""
    anchor_fig = {f.anchor: f.number for f in aux.figures if f.anchor}
    out = {}
    for name, (_value, _page, anchor, _kind) in aux.labels.items():
        key = " ".join(name.split())
        if key not in label_fig or not anchor:
            continue
        m = re.match(r"subfigure\.(.*)\.\d+$", anchor)
        fig = anchor_fig.get("figure." + m.group(1)) if m else anchor_fig.get(anchor)
        if fig is not None and fig != label_fig[key]:
            out[key] = fig
    return out


_GAP_SPACE = r"(?:\s|~|\\,|\\ |\\nobreakspace\s*\{\})*"
# between the two references of a range: a dash (or "to", "through"), a figure word after it allowed
_REF_RANGE_GAP = re.compile(_GAP_SPACE + r"(?:-{1,3}|\u2013|\u2014|\\text(?:en|em)dash\b(?:\{\})?|to\b|through\b)"
                            + _GAP_SPACE + r"(?:(?:[Ff]ig(?:ure)?s?\.?|FIG(?:URE)?S?\.?)" + _GAP_SPACE + r")?")


def _ref_sites(printed: str, ctx: Context, label_fig: dict, numbers: list, refmacros: dict, out: list,
               flat: Flat, alt_of: dict | None = None) -> None:
    names = _REF_BUILTIN | set(refmacros) | {"crefrange", "Crefrange", "hyperref"}
    pat = re.compile(r"\\(" + "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True)) +
                     r")(?![A-Za-z@])\*?")
    ends: list = []  # (start, end, figures named) of each reference, for ranges
    for m in pat.finditer(printed):
        name = m.group(1)
        alts: dict = {}
        if name == "hyperref":
            gs, end, opts = groups(printed, m.end(), 1)
            labels = _label_list(opts[0]) if opts else []
            figs = [label_fig.get(lb) for lb in labels]
        elif name in ("crefrange", "Crefrange"):
            gs, end, _o = groups(printed, m.end(), 2)
            if len(gs) < 2:
                continue
            a, b = label_fig.get(" ".join(gs[0].split())), label_fig.get(" ".join(gs[1].split()))
            figs = _expand_range(a, b, numbers) if a and b else [a, b]
        elif name in refmacros and name not in _REF_BUILTIN:
            nargs, templates = refmacros[name]
            gs, end, _o = groups(printed, m.end(), nargs)
            figs = []
            for _cmd, tpl in templates:
                for lab in _label_list(tpl):
                    for k, a in enumerate(gs, 1):
                        lab = lab.replace(f"#{k}", a)
                    if "#" in lab:
                        continue
                    for sub in _label_list(lab):
                        figs.append(label_fig.get(sub))
        else:
            gs, end, _o = groups(printed, m.end(), 1)
            if not gs:
                continue
            if name in _AS_TYPED and re.match(r"[ \t]+\S", gs[0]) and gs[0].strip() in label_fig:
                # "\ref{ fig:a}": LaTeX looks the label up as typed, its leading space included,
                # finds none and prints "??" (the build's log warns of it): no figure is named
                continue
            figs = []
            for lb in _label_list(gs[0]):
                f = label_fig.get(lb)
                if f is None and name in ("figref", "Figref", "fref", "Fref"):
                    lb = "fig:" + lb
                    f = label_fig.get(lb)
                figs.append(f)
                if f is not None and (alt_of or {}).get(lb):
                    alts[f] = alt_of[lb]
        seen = set()
        for f in figs:
            if f is None or f in seen:
                continue
            seen.add(f)
            file, line, col = flat.where(m.start())
            out.append(Site(f, file, line, col, "ref", name, m.start(), end, alt=alts.get(f)))
        ends.append((m.start(), end, seen))
    # "Figs.~\ref{a}--\ref{b}" prints "Figs. 12-15": the range cites the figures between its ends
    for (a0, a1, fa), (b0, b1, fb) in zip(ends, ends[1:]):
        if len(fa) != 1 or len(fb) != 1 or b0 - a1 > 60 or not _REF_RANGE_GAP.fullmatch(printed, a1, b0):
            continue
        lo, hi = next(iter(fa)), next(iter(fb))
        inner = _expand_range(lo, hi, numbers)
        if inner == [lo, hi]:
            continue  # not one sequence, or not ascending: nothing between
        file, line, col = flat.where(a0)
        for f in inner:
            if f not in (lo, hi):
                out.append(Site(f, file, line, col, "ref", "range", a0, b1))


_LIT = re.compile(
    r"(?<![A-Za-z\\])(Figures?|Figs?\.?|FIGS?\.?|FIGURES?|fig\.|figs\.)"
    r"((?:\s|~|\\,|\\ |\\nobreakspace\s*\{\})+)"
    r"((?:[A-Z]?\d+(?:\.\d+)?(?:\s?\(?[a-z]\)?(?![a-z]))?)"
    r"(?:(?:\s|~|\\,)*(?:,|;|&|\\&|and|or|to|through|--+|\u2013|\u2014|-|\\textendash)(?:\s|~|\\,)*"
    r"(?:[A-Z]?\d+(?:\.\d+)?(?:\s?\(?[a-z]\)?(?![a-z]))?))*)"
    r"(?![\d.]*\d)")
# "Figure 1 of \\citet{x}", "Fig. 3 in Smith et al.", also past another part of that work ("Figure 1
# and Section 2.1 of \\citet{x}")
_OTHER_WORK = re.compile(r"^\s*(?:~|\s)*(?:(?:and|,)\s*(?:~|\s)*(?:Sections?|Secs?\.|Tables?|Eqs?\.|Equations?|"
                         r"Appendix)(?:~|\s)*[A-Z]?[\d.]*\d\s*(?:~|\s)*)?"
                         r"(?:of|in|from)\s*(?:~|\s)*(?:\\[A-Za-z]*cite|[Rr]efs?\.|"
                         r"\[|paper|the\s+(?:original|cited|paper|article|study|work)|their|"
                         r"[A-Z][a-z]+\s+(?:et\s+al|\(|and\s+[A-Z]|&)|[A-Z][a-z]+(?:~|\s)\\cite)")


def _short_captions_blanked(printed: str) -> str:
    """printed with each \\caption[short]'s short form blanked: it prints only in the list of
    figures, so a figure it names is cited there, not in the paper's text."""
    out = printed
    for m in re.finditer(r"\\caption\*?\s*\[", printed):
        depth, k = 0, m.end()
        while k < len(printed):
            c = printed[k]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif c == "]" and depth <= 0:
                out = _blank(out, m.end() - 1, k + 1)
                break
            k += 1
    return out


def _literal_sites(printed: str, fig_set: set, numbers: list, out: list, flat: Flat) -> None:
    masked = printed
    # arguments that are not running text
    for m in re.finditer(r"\\(?:includegraphics|label|input|include|ref|cref|Cref|autoref|url|href|graphicspath|"
                         r"bibliography|[A-Za-z]*cite[a-z]*|hyperref|subfile|import|includesvg|"
                         r"includestandalone)\*?\s*",
                         printed):  # a citation's notes ("\\autocite[][Fig. 5]{x}") name another work's figure
        k = m.end()
        if "cite" in m.group() and printed.startswith("<", k) and printed.find(">", k) > 0:
            k = printed.find(">", k) + 1  # apacite's prenote, \\cite<see Fig. 1 of>[]{x}: the cited work's
        gs, e, _o = groups(printed, k, 1)
        masked = _blank(masked, m.start(), e)
    for m in _LIT.finditer(masked):
        before = printed[max(0, m.start() - 40):m.start()]
        if re.search(r"(?:their|his|her|its|\\cite[a-z]*\{[^}]*\}'?s?|\\citet\{[^}]*\})\s*(?:~|\s)*$", before, re.I):
            continue
        if re.search(r"\b(?:supp|suppl|supplementary|supplemental|supporting|extended\s+data|SI)\.?\s*(?:~|\s)*$",
                     before, re.I):
            continue  # "Supp Fig. 5", "Extended Data Fig. 2": another series than the paper's figures
        if _OTHER_WORK.match(printed[m.end():m.end() + 60]):
            continue
        listing = m.group(3)
        nums = re.findall(r"[A-Z]?\d+(?:\.\d+)?", listing)
        seps = re.split(r"[A-Z]?\d+(?:\.\d+)?(?:\s?\(?[a-z]\)?(?![a-z]))?", listing)[1:-1]
        figs: list[str] = []
        for k, n in enumerate(nums):
            n = n.upper()
            if k > 0 and re.search(r"--|\u2013|\u2014|-|to|through|textendash", seps[k - 1]):
                figs += _expand_range(nums[k - 1].upper(), n, numbers)
            else:
                figs.append(n)
        seen = set()
        start = m.start()
        file, line, col = flat.where(start)
        for f in figs:
            if f not in fig_set or f in seen:
                continue
            seen.add(f)
            out.append(Site(f, file, line, col, "text", "literal", start, m.end()))


def _merge(sites: list[Site], printed: str) -> list[Site]:
    """One site per figure per mention: same-figure sites with only connectors between them."""
    sites.sort(key=lambda s: (s.start, s.figure))
    out: list[Site] = []
    last: dict[str, Site] = {}
    for s in sites:
        prev = last.get(s.figure)
        if prev is not None:
            gap = printed[prev.end:s.start]
            gap_clean = re.sub(r"\\(?:ref|cref|Cref|autoref|subref)\s*\{[^}]*\}", " ", gap)
            if prev.start == s.start or (len(gap) < 60 and _CONNECT.match(gap_clean)):
                prev.end = max(prev.end, s.end)
                prev.merged += 1
                continue
        out.append(s)
        last[s.figure] = s
    return out


# an environment's name is no printed word: \begin/\end are cut with it ("\end{align} and plot")
_STRUCT = re.compile(r"\n[ \t]*\n|\\(?:begin|end)\s*\{[^{}]*\}|\\(?:begin|end|section|subsection|subsubsection|paragraph|chapter|item|caption|"
                     r"captionof|subcaption|label|footnote|subfloat|subcaptionbox|maketitle|bibliography|"
                     r"printbibliography)\b\*?")
# in a table, a cell is read by itself: its words end at the cell's edge (& or the row's end)
_STRUCT_CELL = re.compile(_STRUCT.pattern + r"|(?<!\\)&|\\\\|\\tabularnewline\b")
_TABLE_ENV = re.compile(r"\\(begin|end)\s*\{(?:tabular\*?|tabularx|tabulary|longtable\*?|supertabular|xtabular|"
                        r"tblr|longtblr|NiceTabular\*?|array)\}")
_STOP = {"figure", "figures", "fig", "figs"}


def _in_table(printed: str, pos: int) -> bool:
    """pos lies in a tabular's cells (the nearest table environment before it is open)."""
    last = None
    for m in _TABLE_ENV.finditer(printed, max(0, pos - 20000), pos):
        last = m.group(1)
    return last == "begin"


# panel letters glued to a reference's number ("\\ref{fig:a}b-c" prints "4b-c", "\\ref{fig:a}AB"
# "1AB"): printed as one token with it
_PANEL_TAIL = re.compile(r"^(?:\(?[a-z]\)?|[A-Z]{1,2})(?:\s*(?:--?|\u2013|,|&)\s*\(?[A-Za-z]\)?)*(?![A-Za-z])")
# an inline formula glued to a word ("N$_2$H", "NH$_2$", "$k$-fold") prints inside that word
# ("N2H", "NH2", "k-fold"): a reader reads the word whole, so its letters and digits stay;
# other formulas are left out of the context
_GLUED_MATH = re.compile(r"(?:(?<=[A-Za-z0-9])|(?<=[A-Za-z]-))\$([^$]{1,24})\$|\$([^$]{1,24})\$(?=[A-Za-z0-9]|-[A-Za-z])")


def _glued(m: re.Match) -> str:
    body = m.group(1) if m.group(1) is not None else m.group(2)
    plain = re.sub(r"\\(?:text|mathrm|mathit|mathbf|rm)\s*\{([^{}]*)\}", r"\1", body)
    plain = re.sub(r"\\[A-Za-z@]+|\\.|[_^{}\s]", "", plain)
    return plain if plain and len(plain) <= 3 and plain.isalnum() else m.group(0)


def context_words(printed: str, start: int, end: int, ctx: Context, before: int = 4, after: int = 3
                  ) -> tuple[list[str], list[str]]:
    """Up to `before` words before the mention and `after` words after it, in its paragraph,
    as printed (commands, formulas, citations and other references removed)."""
    head = printed[max(0, start - 4000):start]  # from the paragraph's start: `$` parity stays right
    struct = _STRUCT_CELL if _in_table(printed, start) else _STRUCT
    cut = list(struct.finditer(head))
    if cut:
        head = head[cut[-1].end():]
    tail = printed[end:end + 700]
    m = struct.search(tail)
    if m:
        tail = tail[:m.start()]
    # a panel's letters glued to the number ("\\ref{fig:a}b-c" prints "4b-c") are the mention's own
    tail = _PANEL_TAIL.sub("", tail, count=1)

    def clean(s: str) -> list[str]:
        s = expand_macros(s, ctx)  # "\\sys's design": the words the paper's own text macros print
        s = re.sub(r"\\(?:[A-Za-z]*cite[A-Za-z]*|[A-Za-z]*ref|autoref|Autoref|cref|Cref|labelcref|crefrange|Crefrange|"
                   r"label|eqref|pageref|footnote|url|href|hyperref)\*?(?:\s*\[[^\]]*\])*(?:\s*\{[^{}]*\})*", " ", s)
        s = re.sub(r"(?<![A-Za-z\\])(?:Figures?|Figs?\.?|FIGS?\.?)(?:\s|~)*[A-Z]?\d+(?:\.\d+)?[a-z]?", " ", s)
        s = _GLUED_MATH.sub(_glued, s)
        s = tex_plain(s, ctx, math="strip")
        return [w for w in words(s) if w not in _STOP]

    return clean(head)[-before:], clean(tail)[:after]


# ------------------------------------------------------------------ PDF pages


def _label_text(label: str) -> str:
    if label.startswith("<FEFF") and label.endswith(">"):
        try:
            return bytes.fromhex(label[5:-1]).decode("utf-16-be")
        except ValueError:
            return label
    return label


def place_pages(figs: list[AuxFigure], pdf: Path) -> None:
    """Physical PDF page (1-based) of each figure, where its printed label and caption stand:
    the named destination of its anchor, else the page whose label is its folio, else the folio
    shifted by the one offset (physical - folio) that puts most captions on a page holding
    "Fig N" and their first words (a title page or unnumbered front matter shifts every folio
    alike; a list of figures repeating the captions does not agree with one offset). A page so
    found that does not hold "Fig N" and the caption's first words, when another page does, gives
    way to the nearest such page (an anchor left behind by a float moved to the end)."""
    import pymupdf

    with pymupdf.open(str(pdf)) as doc:
        try:
            names = doc.resolve_names()
        except Exception:  # noqa: BLE001 - an odd name tree must not stop the benchmark
            names = {}
        by_label: dict[str, list[int]] = {}
        for i, page in enumerate(doc):
            try:
                lab = _label_text(page.get_label() or "")
            except Exception:  # noqa: BLE001
                lab = ""
            if lab:
                by_label.setdefault(lab, []).append(i + 1)
        n_pages = len(doc)
        texts = [page.get_text() for page in doc]
    flat = [" ".join(words(t)) for t in texts]
    prose_pages = [" " + " ".join(prose(words(t))) + " " for t in texts]

    def candidates(f: AuxFigure) -> list[int]:
        """Pages with the printed label followed by the caption's first words (else pages with
        the label and those words anywhere)."""
        num = " ".join(words(f.number))
        if not num:
            return []
        # "Fig 3", and PLOS's supporting-information order "S1 Fig"
        named = r"(?:\bfig(?:ure)?\s+" + re.escape(num) + r"|\b" + re.escape(num) + r"\s+fig)"
        label = re.compile(named + r"\b")
        weak, sure = set(), set()
        for text in (f.variants or [f.caption or ""]):  # renderings differ in citations and formulas
            head = " " + " ".join(prose(words(text))[:5]) + " "
            first = words(text)[:3]
            strong = re.compile(named + r"\s+(?:\S+\s+){0,2}?" +
                                r"\s+".join(re.escape(w) for w in first) + r"\b") if first else None
            for i in range(n_pages):
                if label.search(flat[i]) and (not head.strip() or head in prose_pages[i]):
                    weak.add(i + 1)
                    if strong is not None and strong.search(flat[i]):
                        sure.add(i + 1)
        return sorted(sure or weak)

    cands = {id(f): candidates(f) for f in figs}
    # An anchor named by two floats marks neither: hyperref keeps the first destination of a name
    # ("destination with the same identifier ... duplicate ignored"), as when \theHfigure restarts
    # in each appendix section (figure.1 for "A 1", "C 1" and the paper's own Figure 1).
    from collections import Counter

    uses = Counter(f.anchor for f in figs if f.anchor)
    rest = []
    for f in figs:
        # only a figure anchor marks the float (tufte's margin figures carry the section's)
        dest = names.get(f.anchor) if f.anchor and f.anchor.startswith(("figure", "subfigure")) \
            and uses[f.anchor] == 1 else None
        if dest and isinstance(dest.get("page"), int) and dest["page"] >= 0:
            f.pdf_page, f.page_from = dest["page"] + 1, "anchor"
        elif f.folio in by_label and len(by_label[f.folio]) == 1:
            f.pdf_page, f.page_from = by_label[f.folio][0], "page-label"
        else:
            rest.append(f)
            continue
        c = cands[id(f)]
        if c and f.pdf_page not in c and f.caption:
            was = f.pdf_page
            f.pdf_page = min(c, key=lambda q: abs(q - was))
            f.page_from = f"caption-search ({f.page_from} p.{was})"
    votes: dict[int, int] = {}
    for f in rest:
        if f.folio.isdigit():
            for page in cands[id(f)]:
                votes[page - int(f.folio)] = votes.get(page - int(f.folio), 0) + 1
    shift = max(votes, key=lambda o: (votes[o], -abs(o))) if votes else 0
    for f in rest:
        c = cands[id(f)]
        guess = int(f.folio) + shift if f.folio.isdigit() else None
        if guess is not None and guess in c:
            f.pdf_page, f.page_from = guess, "folio+caption" if shift == 0 else f"folio{shift:+d}+caption"
        elif c and guess is not None:
            f.pdf_page, f.page_from = min(c, key=lambda q: abs(q - guess)), "caption-search"
        elif guess is not None and 1 <= guess <= n_pages:
            f.pdf_page, f.page_from = guess, "folio" if shift == 0 else f"folio{shift:+d}"
        elif guess is None and len(c) == 1:  # no folio (a figure the source alone knows): one page has it
            f.pdf_page, f.page_from = c[0], "caption-search"
        else:
            f.pdf_page, f.page_from = None, "unknown"


_TYPED_LABEL = re.compile(r"^\s*(?:Figure|FIGURE|Fig\.?|FIG\.?)\s*~?\s*([A-Z]{0,2}\d+(?:\.\d+)*[a-z]?)\s*"
                          r"(?:\([^)]{0,40}\))?\s*[:.]\s*")


def typed_labels(aux: AuxRecord, main: Path) -> None:
    """Captions printed with an empty label format (`\\captionsetup{labelformat=empty}`) whose
    text starts with a typed "Figure S2.1:": the printed number is the typed one, not LaTeX's
    counter (which nothing prints). Renumbers those figures and the labels that point at them."""
    srcs = " ".join(f.read_text(errors="replace") for f in main.parent.rglob("*.tex") if f.is_file())
    if not re.search(r"labelformat\s*=\s*empty", srcs):
        return
    renumber = {}
    for f in aux.figures:
        m = _TYPED_LABEL.match(tex_plain(f.caption_tex or ""))
        if m and m.group(1) != f.number:
            renumber[f.number] = m.group(1)
            aux.notes.append(f"Figure {f.number} prints as {m.group(1)} "
                             "(label typed in the caption, empty label format)")
            f.number = m.group(1)
            k = f.caption_tex.find(m.group(1))
            f.caption_tex = f.caption_tex[k + len(m.group(1)):].lstrip(" :.")
    for name, (value, page, anchor, kind) in list(aux.labels.items()):
        if value in renumber and kind == "figure":
            aux.labels[name] = (renumber[value], page, anchor, kind)


def complete_side_run(side: AuxRecord, own: AuxRecord, in_env: set = frozenset()) -> None:
    """A side run that stopped on a fatal error (a fragile command in a caption, which the
    build never wrote to a list and the side run's hook does: AASTeX's \\replaced exhausts TeX's
    memory) records only the figures and labels before it. The build's own .aux still labels
    the rest: figures, labels and citations the side record lacks are taken from it (their captions then
    come from the source, as for any labelled figure without an entry). Without hyperref a
    label has no anchor to say it is a figure's: one inside a figure environment (in_env) with a
    whole number is."""
    for name, value in own.labels.items():
        side.labels.setdefault(name, value)
    for key, value in own.bibcite.items():  # the bibliography comes last: a stopped run has none
        side.bibcite.setdefault(key, value)
    have = {f.number for f in side.figures}
    unanchored = [AuxFigure(number=value, folio=page, anchor=None, caption_tex=None, caption_from="none")
                  for name, (value, page, anchor, kind) in own.labels.items()
                  if not anchor and " ".join(name.split()) in in_env and re.fullmatch(r"[A-Z]?[\d.]*\d", value)]
    for f in own.figures + unanchored:
        if f.number not in have:
            have.add(f.number)
            side.figures.append(f)
            side.notes.append(f"Figure {f.number}: from the build's own .aux (the side run stopped before it)")


_SI_HEADING = re.compile(r"\\paragraph\*?\s*\{\s*(S\d+)[\s~]+Fig\.?\s*\}")


def si_figures(aux: AuxRecord, text: str) -> None:
    """PLOS's supporting-information figures: the template has each one's label typed as a
    paragraph heading, `\\paragraph*{S1 Fig.}`, its title and legend after it, and no \\caption,
    so LaTeX's record has no such figure. A figure environment holding a graphic and such a
    heading is figure S1, its caption the text after the heading (page by caption search).
    `text`: the flattened sources."""
    have = {f.number for f in aux.figures}
    for a, z in _figure_envs(text):
        body = text[a:z]
        m = _SI_HEADING.search(body)
        if not m or m.group(1) in have or re.search(r"\\caption\b", body) or "\\includegraphics" not in body:
            continue
        have.add(m.group(1))
        cap = re.sub(r"\\end\s*\{[^}]*\}\s*$", "", body[m.end():]).strip()
        aux.figures.append(AuxFigure(number=m.group(1), folio="", anchor=None, caption_tex=cap, caption_from="source"))
        aux.notes.append(f"Figure {m.group(1)}: a supporting-information figure, label typed as a paragraph heading")


def has_lof(main_aux: Path) -> bool:
    return any("\\@writefile{lof}" in p.read_text(errors="replace") or "\\blxcaption" in p.read_text(errors="replace")
               for p in _aux_files(main_aux))


def _junk(caption_tex: str) -> bool:
    """A record a fragile command wrote expanded: parameter junk ("##") from a citation macro,
    kernel internals (a \\label's \\@bsphack ... \\protected@write body) instead of the text, or
    the `\\let \\reserved@d =` of an \\@ifnextchar (a command with an optional argument that is
    not robust, AASTeX's \\replaced), after which the write lost the rest of the caption."""
    return "##" in caption_tex or bool(re.search(r"\\@(?:unexpandable@protect|savsk|bsphack)\b|\\reserved@d\b",
                                                 caption_tex))


def truth(main: Path, pdf: Path, root: Path | None = None, aux_path: Path | None = None
          ) -> tuple[AuxRecord, SourceRecord]:
    """The full record of one built paper (main .tex next to its .aux, and its PDF); aux_path
    overrides the .aux read (a side run that kept the list of figures a class switched off)."""
    flat = flatten(main, root)  # the sources, read once
    text = flat.text
    types = declared_figure_types(text)
    aux = read_aux(aux_path or main.with_suffix(".aux"), types)
    own = main.with_suffix(".aux")
    if aux_path and aux_path != own and own.is_file():
        in_env = {" ".join(lb.split()) for a, z in _figure_envs(text)
                  for lb in re.findall(r"\\label\s*\{([^}]*)\}", text[a:z])}
        complete_side_run(aux, read_aux(own, types), in_env)
    typed_labels(aux, main)
    si_figures(aux, text)
    src = scan_sources(main, aux, root, flat)
    aux.notes += [f"Figure {n}: numbered, no caption printed (sub-captions only)" for n in src.unprinted]
    ctxs = [Context(labels={k: (v[0], v[3]) for k, v in aux.labels.items()}, bibcite=aux.bibcite, cite_mode=m,
                    macros=src.macros) for m in (0, 1)]
    pairs = list(src.short_long)
    wild = Context(labels=ctxs[0].labels, bibcite=aux.bibcite, macros=src.macros, wild=True)
    for f in aux.figures:
        if f.caption_tex is not None:
            f.wild = tex_plain(f.caption_tex, wild)
            f.variants = [tex_plain(f.caption_tex, c, math=m) for c in ctxs for m in ("keep", "strip")]
            f.caption, f.caption_strip = f.variants[0], f.variants[1]
            for k, (short, long, _empty) in enumerate(pairs):
                if short and similarity(short, f.caption) >= 0.95 \
                        and similarity(tex_plain(long, ctxs[0]), f.caption) < 0.95:
                    f.variants = [tex_plain(long, c, math=m) for c in ctxs for m in ("keep", "strip")]
                    f.caption, f.caption_strip, f.caption_from = f.variants[0], f.variants[1], "source-long"
                    del pairs[k]  # several figures may share one short caption: take them in order
                    break
        if (f.caption_tex is None or _junk(f.caption_tex)) and f.number in src.captions:
            # no entry, or an entry a fragile macro expanded into parameter junk or internals
            f.variants = [tex_plain(src.captions[f.number], c, math=m) for c in ctxs for m in ("keep", "strip")]
            f.caption, f.caption_strip, f.caption_from = f.variants[0], f.variants[1], "source"
        elif f.caption_tex and _junk(f.caption_tex):
            f.caption_from = "none"  # unreadable record: not scored
        f.labels = sorted(k for k, v in aux.labels.items() if v[0] == f.number and v[3] == "figure")
    place_pages(aux.figures, pdf)
    clip_offpage(aux.figures, pdf)
    clip_unprinted(aux.figures, pdf)
    fill_wild(aux.figures, pdf)
    return aux, src


def fill_wild(figs: list[AuxFigure], pdf: Path) -> None:
    """A caption with citations or acronyms whose printed form LaTeX's record does not hold
    (WILD) is read off its page: every stretch the record does hold must stand there in order,
    with at most WILD_LETTERS letters between them for each citation or acronym, and what
    stands between them is what those printed. That reading is one more rendering of the
    truth (a full reference printed in a tufte caption, an acronym spelt out at its first
    use); a page that does not hold the record's stretches adds none. Where the caption ends
    with a citation, its end is not in the record: each end within its letters is a rendering."""
    import pymupdf

    todo = [f for f in figs if re.search("[\x00\x01]", f.wild or "") and f.pdf_page and f.caption_from == "lof"]
    if not todo:
        return
    with pymupdf.open(str(pdf)) as doc:
        for f in todo:
            if not 1 <= f.pdf_page <= len(doc):
                continue
            try:
                pw = words(doc[f.pdf_page - 1].get_text())
            except Exception:  # noqa: BLE001 - an odd page must not stop the benchmark
                continue
            joined, starts, n = "".join(pw), [], 0
            for w in pw:
                starts.append(n)
                n += len(w)
            parts = re.split("([\x00\x01]+)", f.wild)  # text, wild run, text, ...
            pieces = [_letters(t) for t in parts[0::2]]
            reach = [sum(WILD_LETTERS[c] for c in run) for run in parts[1::2]]
            if not pieces[0] or sum(map(len, pieces)) < 20:
                continue  # the caption opens with a citation, or the record holds too little
            begin = joined.find(pieces[0])
            if begin == -1:
                continue
            end, allowance = begin + len(pieces[0]), 0
            for piece, cap in zip(pieces[1:], reach):
                allowance += cap
                if not piece:
                    continue  # wild runs apart only by punctuation: one stretch
                k = joined.find(piece, end)
                if k == -1 or k - end > allowance:
                    break
                end, allowance = k + len(piece), 0
            else:
                i = max(j for j, s0 in enumerate(starts) if s0 <= begin)
                last = max(j for j, s0 in enumerate(starts) if s0 < end)
                stop = last + 1
                while stop < len(pw) and starts[stop] - end < allowance:
                    stop += 1  # a caption ending in a citation: every end within its letters
                for j in range(last + 1, stop + 1):
                    read = " ".join(pw[i:j])
                    if read not in f.variants:
                        f.variants.append(read)


def _letters(text: str) -> str:
    return "".join(words(text))


def clip_offpage(figs: list[AuxFigure], pdf: Path) -> None:
    """A caption LaTeX ran past the bottom of its page (a long in-text caption, PLOS style, that
    cannot break) goes on outside the page's box, where no reader sees it: what is printed is
    the record cut where that text begins (the first 20 letters set below the page's edge found
    in it). Both are renderings of the truth: the page shows the one, LaTeX set the other."""
    import pymupdf

    with pymupdf.open(str(pdf)) as doc:
        for f in figs:
            if not f.pdf_page or not f.variants or not 1 <= f.pdf_page <= len(doc):
                continue
            page = doc[f.pdf_page - 1]
            try:
                blocks = page.get_text("dict", clip=pymupdf.INFINITE_RECT())["blocks"]
            except Exception:  # noqa: BLE001 - an odd page must not stop the benchmark
                continue
            off = _letters(" ".join("".join(sp["text"] for sp in ln["spans"]) for b in blocks
                                    for ln in b.get("lines", []) if ln["bbox"][1] >= page.rect.height - 1))
            if len(off) < 20:
                continue
            cut = []
            for v in f.variants:
                ws, k, at_ = v.split(), 0, _letters(v).find(off[:20])
                if at_ <= 0:
                    cut.append(v)
                    continue
                n = 0
                while k < len(ws) and n + len(_letters(ws[k])) <= at_:
                    n += len(_letters(ws[k]))
                    k += 1
                cut.append(" ".join(ws[:k]))
            f.variants += [c for c in cut if c not in f.variants]


def clip_unprinted(figs: list[AuxFigure], pdf: Path) -> None:
    """A caption LaTeX set where nothing prints it (a wrapped figure pushed off its page loses
    its caption, or the caption's rows after those the page could hold: not even off the page's
    box is the text in the PDF) is, as printed, the part the PDF holds: its longest start found
    in the document's text, or no caption at all. Only when the end of the caption stands nowhere
    in the PDF (formula letters that the record renders otherwise do not cut a printed caption).
    Added as one more rendering of the truth, as clip_offpage's."""
    import pymupdf

    try:
        with pymupdf.open(str(pdf)) as doc:
            pages = [_letters(page.get_text(clip=pymupdf.INFINITE_RECT())) for page in doc]
    except Exception:  # noqa: BLE001 - an odd file must not stop the benchmark
        return
    printed = " ".join(pages)
    for f in figs:
        ends = [_letters(v)[-20:] for v in f.variants if len(_letters(v)) >= 40]
        if not ends or len(ends) < len(f.variants) or any(e in printed for e in ends):
            continue
        # its start is looked for on its own page (another caption may begin alike)
        own = pages[f.pdf_page - 1] if f.pdf_page and 1 <= f.pdf_page <= len(pages) else printed
        cut = []
        for v in f.variants:
            letters = _letters(v)
            lo, hi = 0, len(letters)
            while lo < hi:  # the longest start of the caption the PDF holds
                mid = (lo + hi + 1) // 2
                if letters[:mid] in own:
                    lo = mid
                else:
                    hi = mid - 1
            if lo < 20:
                cut.append("")
                continue
            ws, k, n = v.split(), 0, 0
            while k < len(ws) and n + len(_letters(ws[k])) <= lo:
                n += len(_letters(ws[k]))
                k += 1
            cut.append(" ".join(ws[:k]))
        f.variants += [c for c in cut if c not in f.variants]
