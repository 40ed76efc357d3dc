"""The word `\\autoref` and `\\cref` print before a figure's number in the document's language.

hyperref's `\\autoref{fig:a}` prints `\\figureautorefname`: "Figure", unless babel's main
language is one hyperref translates (hyperref.sty, `\\HyLang@...`: "Abbildung" in German,
"Figura" in Italian). hyperref adds its translation to babel's `\\extras<language>`, which
babel runs at `\\begin{document}`, so it replaces a `\\renewcommand{\\figureautorefname}` of
the preamble; an author's own word survives only when added to the same `\\extras<language>`
(`\\addto\\extrasngerman{...}`) or set in the body. cleveref's language is an option of its
own or of the class (not babel's), and gives `\\cref`'s names (cleveref.sty, `\\DeclareOption`):
"Abb." / "Abbildung" in German.

The tables copy the figure words of those two packages as TeX Live ships them.
"""

from __future__ import annotations

import re

# hyperref's \figureautorefname per babel language (\HyLang@DeclareLang{babel name}{set})
_HYPERREF_SETS = {
    "english": "Figure", "german": "Abbildung", "russian": "рис.", "portuges": "Figura",
    "spanish": "Figura", "catalan": "Figura", "afrikaans": "Figuur", "french": "figure",
    "italian": "Figura", "magyar": "Ábra", "greek": "Σχήμα", "dutch": "Figuur", "norsk": "Figur",
    "danish": "Figur",
}
HYPERREF_FIGURE = {lang: _HYPERREF_SETS[s] for lang, s in {
    "english": "english", "UKenglish": "english", "british": "english", "USenglish": "english",
    "american": "english", "german": "german", "austrian": "german", "ngerman": "german",
    "naustrian": "german", "russian": "russian", "brazil": "portuges", "brazilian": "portuges",
    "portuguese": "portuges", "spanish": "spanish", "catalan": "catalan", "afrikaans": "afrikaans",
    "french": "french", "frenchb": "french", "francais": "french", "acadian": "french",
    "canadien": "french", "italian": "italian", "magyar": "magyar", "hungarian": "magyar",
    "greek": "greek", "dutch": "dutch", "norsk": "norsk", "norwegian": "norsk", "danish": "danish",
}.items()}

# cleveref's figure names per language option: (full singular, plural), (abbreviated singular,
# plural) or None where the language has no abbreviation, nouns always capitalised (German)
CLEVEREF_FIGURE: dict[str, tuple[tuple[str, str], tuple[str, str] | None, bool]] = {
    "english": (("Figure", "Figures"), ("Fig.", "Figs."), False),
    "german": (("Abbildung", "Abbildungen"), ("Abb.", "Abb."), True),
    "ngerman": (("Abbildung", "Abbildungen"), ("Abb.", "Abb."), True),
    "dutch": (("Figuur", "Figuren"), ("Fig.", "Fig's."), False),
    "french": (("Figure", "Figures"), None, False),
    "spanish": (("Figura", "Figuras"), None, False),
    "italian": (("Figura", "Figure"), ("Fig.", "Fig."), False),
    "norsk": (("Figur", "Figurene"), None, False),
    "danish": (("Figur", "Figurer"), None, False),
    "swedish": (("Figur", "Figur"), ("Fig.", "Fig."), False),
    "brazilian": (("Figura", "Figuras"), ("Fig.", "Figs."), False),
    "catalan": (("Gràfic", "Gràfics"), None, False),
}

# other babel language names: an option that names one is a language, not a class option
# like a4paper (babel's main language is the last language among the options)
_OTHER_LANGUAGES = {
    "polish", "czech", "slovak", "finnish", "swedish", "turkish", "ukrainian", "romanian", "croatian",
    "slovene", "serbian", "estonian", "latvian", "lithuanian", "icelandic", "irish", "welsh", "hebrew",
    "arabic", "bulgarian", "basque", "galician", "esperanto", "interlingua", "latin", "indonesian",
    "bahasa", "malay", "vietnamese", "australian", "canadian", "newzealand", "swissgerman",
    "nswissgerman", "nynorsk", "portuges", "brazil", "albanian", "armenian", "belarusian", "bosnian",
    "georgian", "hindi", "japanese", "korean", "chinese", "thai", "persian", "scottish", "breton",
    "friulan", "occitan", "romansh", "macedonian", "northernsami", "samin", "lsorbian", "usorbian",
    "spanishmx", "mexican", "polutonikogreek", "ancientgreek",
}
LANGUAGES = set(HYPERREF_FIGURE) | set(CLEVEREF_FIGURE) | _OTHER_LANGUAGES


def babel_language(class_options: list[str], babel_options: list[str]) -> str | None:
    """babel's main language: `main=`, else the last language named among the class's and
    babel's options (babel reads the class's options too)."""
    for o in babel_options:
        if o.replace(" ", "").startswith("main="):
            return o.split("=", 1)[1].strip()
    langs = [o for o in class_options + babel_options if o in LANGUAGES]
    return langs[-1] if langs else None


def cleveref_language(class_options: list[str], cleveref_options: list[str]) -> str | None:
    """The language cleveref names things in: the last of its languages among the class's and
    its own options (LaTeX hands it the class's first)."""
    langs = [o for o in class_options + cleveref_options if o in CLEVEREF_FIGURE]
    return langs[-1] if langs else None


# \addto\extrasngerman{ ... }: code babel runs when it selects the language
_ADDTO = re.compile(r"\\(?:addto|g@addto@macro|appto|gappto)\s*\{?\s*\\(extras|captions)([A-Za-z]+)\s*\}?\s*\{")


def added_to(t: str, pos: int) -> tuple[str, str] | None:
    """("extras" or "captions", language) when the code at `pos` is inside an `\\addto` of a
    babel language's macro, else None."""
    last = None
    for m in _ADDTO.finditer(t, max(0, pos - 500), pos):
        last = m
    if last is None:
        return None
    depth = 1
    for c in t[last.end():pos]:
        depth += (c == "{") - (c == "}")
        if depth <= 0:
            return None
    return last.group(1), last.group(2)


def autoref_figure_word(scan, t: str, body_start: int, pos: int, render) -> str:
    """What `\\autoref` to a figure at `pos` prints before the number: the order LaTeX sets
    `\\figureautorefname` in (preamble definitions, then babel's language at
    `\\begin{document}`: its captions, hyperref's word, the extras added to it; then the
    body's definitions up to `pos`). `render` turns a definition's body into text."""
    opts = {name: o for name, (_, o) in scan.packages.items()}
    hooked = False
    main = None
    if "babel" in scan.packages:
        main = babel_language(scan.class_options, opts["babel"])
        bpos, hpos = scan.packages["babel"][0], scan.packages.get("hyperref", (-1, []))[0]
        # hyperref translates for babel when babel came first, or is told the language
        hooked = main in HYPERREF_FIGURE and (
            (0 <= bpos < hpos and main in opts["babel"]) or main in scan.class_options
            or main in opts.get("hyperref", []))
    defs = [d for d in scan.table.defs.get("figureautorefname", []) if d.nargs == 0]
    word = "Figure"
    begin: dict[str, str] = {}
    for d in defs:
        if d.pos >= body_start:
            continue
        where = added_to(t, d.pos)
        if where is None:
            word = d.body
        elif where[1] == main:
            begin[where[0]] = d.body
    if main is not None:
        word = begin.get("captions", word)
        if hooked:
            word = HYPERREF_FIGURE[main]
        word = begin.get("extras", word)
    for d in defs:
        if body_start <= d.pos <= pos:
            word = d.body
    return render(word) if "\\" in word or "{" in word else word.strip()


def cref_figure_names(scan, capital: bool, abbrev: bool) -> tuple[str, str] | None:
    """(singular, plural) cleveref prints for a figure in a language other than English;
    None for English (or no language option)."""
    lang = cleveref_language(scan.class_options, scan.packages.get("cleveref", (-1, []))[1])
    if lang is None or lang == "english":
        return None
    full, short, nouns = CLEVEREF_FIGURE[lang]
    sing, plur = short if (abbrev and short) else full
    if not (capital or nouns):
        sing, plur = sing[:1].lower() + sing[1:], plur[:1].lower() + plur[1:]
    return sing, plur
