"""Find printed figure mentions ("Fig. 3b", "Figures 2-4") and caption labels in plain text.

Pure string work, shared by the PDF route (text pulled from pages) and the
LaTeX route (hard-coded "Figure 3" in the sources), so it must not depend on
either. `find_mentions` returns every mention with the figure numbers it names
(ranges expanded) and the panel letters per number; `parse_caption_label`
recognises the label that opens a caption ("Figure 3:", "Fig. S1.", "FIGURE 3 |")
and `parse_float_label` does the same for tables, algorithms and listings, whose
captions own regions that must not be taken for figures. `sentence_at` cuts the
sentence around a position without breaking at "Fig." or "et al.".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from figlint.lazyre import lazy

# A figure number as printed: "3", "3.2" (chapter numbering), "S1", "A2", "A.2".
# "3", "3.2" (chapter), "A2"/"A.2" (appendix), "S2.3" (supplement of a chapter), "OA-2" (an
# online appendix's "OA-" prefix)
# A chapter may be joined by a centred dot ("1·2", \thechapter$\cdot$\arabic{figure}, a
# thesis style's choice), printed as U+00B7 or U+22C5.
_CHAPTER_DOT = "[.\u00b7\u22c5]"
_NUM = r"(?:(?:[A-Z]{1,2}-|[A-Z]" + _CHAPTER_DOT + r"?)?\d+(?:" + _CHAPTER_DOT + r"\d+)?)(?![\d])"
# What a caption label may print besides: a chapter joined by a dash ("4-1", \thechapter-
# \arabic{figure}) and a prefix set off by a thin space ("SI 3", SI\,\arabic{figure}). In
# running text "Figs. 4-6" is a range, so mentions read such a number only where the paper
# has a figure of that number (find_mentions' `known`).
# One capital set off by a thin space ("A 1", an appendix's `\thesection\,\arabic{figure}`) only
# before a delimiter: "Figure A 1." opens a caption.
_LABEL_NUM = (r"(?:[A-Z]{1,2}-|[A-Z]{2,3}[ \u00a0\u2009\u202f]|[A-Z][ \u00a0\u2009\u202f](?=\d+[ \u00a0\u2009\u202f]*[.:|\u2013\u2014])"
              r"|[A-Z]" + _CHAPTER_DOT + r"?)?\d+(?:(?:" + _CHAPTER_DOT + r"|-|\u2013)\d+)?")
_SP = r"[ \t\u00a0\u2009\u202f~]*"  # ~ survives in LaTeX text, nbsp in PDF text
_DASH = r"(?:-{1,3}|\u2013|\u2014|\u2212)"

# The figure name as babel and the classes print it in other languages: Figura (Spanish,
# Portuguese, Italian, Catalan, Romanian), Abbildung/Abb. (German), Figuur (Dutch), Figur
# (Danish, Norwegian, Swedish), Rysunek/Rys. (Polish), Obrázek/Obr. (Czech), Slika (Croatian,
# Serbian, Slovene), Kuva (Finnish), Şekil (Turkish), Gambar (Indonesian), Рисунок/Рис.
# (Russian, Ukrainian; every case, singular and plural: "на рисунках 2-5"), Фигура (Bulgarian,
# with its articles), Σχήμα/Σχ. (Greek; its capitals drop the accent);
# French and English share "Figure".
_FOREIGN_WORDS = (r"figuras?|abbildung(?:en)?|abb\.|figur(?:erna|er|ene|en)?|figuur|rysun(?:ek|ki)"
                  r"|rys\.|obr(?:ázek|ázky|\.)|slik(?:a|e|i)|kuv(?:assa|asta|at|a)|şekil|gambar"
                  r"|рисун(?:ками|ках|кам|ков|ків|ком|ок|ку|ки|ке|ка)|рис\.?|фигур(?:ата|ите|а|и|е)"
                  r"|σχ[ήη]μα(?:τα|τος|των)?|σχ\.")
# plural figure words that do not end in "s" (a comma list after them names several figures)
_PLURALS = frozenset({"abbildungen", "figuren", "figurer", "figurerna", "figurene", "rysunki", "obrázky",
                      "kuvat", "рисунки", "рисунков", "рисунків", "рисункам", "рисунками", "рисунках", "фигури",
                      "фигурите", "σχήματα", "σχηματα", "σχημάτων", "σχηματων"})
# what a letter is next to a figure word: Latin with accents, Greek, Cyrillic
_LETTER = r"A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff"
# The word ends before a space, a number, a parenthesis or a capital (an appendix figure
# "Fig.A1"): capitals only, not under IGNORECASE ("Figur" of "Figure" is no word)
_WORD_RE = re.compile(r"(?<![" + _LETTER + r"])(?:" + _FOREIGN_WORDS + r"|fig(?:ure)?s?\.?|figs?\.)"
                      r"(?=[\s\u00a0~\d(]|(?-i:[A-Z]))", re.IGNORECASE)
_NUM_RE = re.compile(_SP + "(" + _NUM + ")")
# The number in parentheses after the figure word: "figure (6)", "Figure (7).a", what
# `figure (\ref{x})` prints (the habit of writing equation references carried over to figures)
_PAREN_NUM_RE = re.compile(_SP + r"\((" + _NUM + r")\)")
# Panels written in parentheses right after the number: "(b)", "(a,b)", "(a-c)", "(a) and (b)".
_PAREN_PANELS_RE = re.compile(
    _SP + r"\(([a-z](?:\s*(?:,|and|&|" + _DASH + r")\s*[a-z])*)\)"
    r"(?:(?:\s*(?:,\s*|and\s+|&\s*|,\s*and\s+)|\s*" + _DASH + r"\s*)\(([a-z])\))*"
)
# Panels glued to the number: "3b", "3a-c", "3a–3c", "3a,b" is not supported (ambiguous).
_GLUED_PANELS_RE = re.compile(r"([a-z])(?:" + _DASH + r"(?:\d+)?([a-z]))?(?![A-Za-z0-9])")
# The leading space runs are possessive (*+): `_SP` and `\s` overlap, so "Figs. 1" followed
# by 300,000 spaces backtracked quadratically. Same matches: a run that ends in whitespace
# before "to" is exactly what the lookbehind asks for (_SP then \s+ before).
_SP_RUN = r"[ \t\u00a0\u2009\u202f~]*+"
_PREFIXED_NUM_RE = re.compile(_SP + r"([A-Z]{1,3}[ \u00a0\u2009\u202f]\d+)(?![\d])")
_RANGE_RE = re.compile(_SP_RUN + r"(?:" + _DASH + r"|\s*(?<=\s)(?:to|through)\s+)" + _SP)
# the figure word repeated at a range's end after a dash: "Fig. 10 \u2013 Fig. 15" ("Figure 3 to
# Figure 7" may compare two figures: not a range)
_RANGE_WORD_RE = lazy(r"(?:" + _FOREIGN_WORDS + r"|fig(?:ure)?s?\.?|figs?\.)(?=[\s\u00a0~\d])", re.IGNORECASE)
# "and"/"or" in the languages whose figure names are read above: y/e/o (Spanish, Portuguese,
# Italian), und/oder, et/ou, i/oraz, и/или ("las figuras 4-31 y 4-32"); not Dutch en/of,
# which are also Spanish "in" and English "of" ("la figura 3 en 2019", "Figure 3 of 5")
_SEP_RE = re.compile(r"(?:" + _SP_RUN + r",?\s*(?:and|&|or|y|e|o|und|oder|et|ou|i|oraz|и|или)\s+|"
                     + _SP_RUN + r",\s*)")

_LABEL_WORDS = {
    "figure": r"(?:Supplementary\s+|Supporting\s+|Extended\s+Data\s+)?(?:Figure|Fig\.?|FIGURE|FIG\.?"
              r"|Figura|FIGURA|Abbildung|Abb\.|ABBILDUNG|Figuur|FIGUUR|Figur|FIGUR|Rysunek|Rys\.|RYSUNEK"
              r"|Obrázek|Obr\.|Slika|SLIKA|Kuva|KUVA|Şekil|ŞEKİL|Gambar|GAMBAR"
              r"|Рисунок|Рис\.|РИСУНОК|Фигура|ФИГУРА|Σχήμα|Σχ\.|ΣΧΗΜΑ)",
    "table": r"(?:Supplementary\s+|Supporting\s+)?(?:Table|Tab\.|TABLE|Tabla|TABLA|Tabela|Tabelle|TABELLE|Tabel|Tabella|Tableau"
             r"|TABLEAU|Tabell|TABELL|Taulukko|TAULUKKO|Tablo|TABLO|Tablica|TABLICA|Tabulka|TABULKA"
             r"|Таблица|ТАБЛИЦА|Πίνακας|ΠΙΝΑΚΑΣ)",
    "algorithm": r"(?:Algorithm|ALGORITHM)",
    "listing": r"(?:Listing|LISTING)",
}
_LABEL_RES = {
    kind: re.compile(
        # a letter glued to the number before a colon: a figure continued on the next page
        # numbered "6.3a:", "6.3b:" (a thesis's \thefigure with a letter)
        r"^\s*(?P<word>" + word + r")" + _SP + r"(?P<num>" + _LABEL_NUM + r"(?:[a-z](?=\.?:))?"
        # IEEEtran and REVTeX number tables in roman numerals: "TABLE I.", "TABLE IV"
        + (r"|[IVX]{1,5}(?![A-Za-z])" if kind == "table" else "") + r")(?![\d])"
        # the delimiter: ":", ".", "|", a dash, or a period and a dash ("Fig. 3.—", AASTeX's
        # older style; "Fig. 3. — ")
        r"(?P<delim>" + _SP + r"(?:\.?[:|]|\.?" + _SP + _DASH + r"|\.)(?:\s|$)|" + _SP + r"(?:\.?[:|]|\.?" + _SP + _DASH
        + r")|\s*$|\s+)",
    )
    for kind, word in _LABEL_WORDS.items()
}

# The word for an appendix in running text, in the languages the figure words are read in:
# the main text pointing its reader to the appendices ("the curves for every epoch are in
# Appendix B"), which is how the figures set there are reached.
APPENDIX_WORD = re.compile(r"(?<![" + _LETTER + r"])(?:appendix|appendices|appendixes|anhang|ap[ée]ndices?|anexos?"
                           r"|annexes?|appendici|appendice|bijlage|liite|bilaga|vedlegg|приложени[а-яё]*)(?![" + _LETTER + r"])",
                           re.IGNORECASE)

# Abbreviations after which a period does not end a sentence.
_ABBREV = {
    "fig", "figs", "eq", "eqs", "sec", "secs", "tab", "tabs", "al", "e.g", "i.e", "cf", "vs",
    "resp", "approx", "no", "nos", "ref", "refs", "ch", "chap", "app", "appx", "alg", "def",
    "thm", "lem", "prop", "dr", "mr", "ms", "prof", "st", "viz", "ca", "incl", "p", "pp",
    "vol", "ed", "eds", "sect", "e.g.", "i.e.", "w.r.t", "a.k.a", "c.f",
    # the figure, table and reference words of other languages' abbreviations ("рис. 5")
    "abb", "rys", "obr", "рис", "табл", "см", "σχ", "tab", "bzw", "vgl",
}


@dataclass
class Mention:
    start: int
    end: int
    text: str
    numbers: list[str] = field(default_factory=list)
    panels: dict[str, list[str]] = field(default_factory=dict)
    # each number as printed, in order, with its own span and panels: "Figures 3a and 3b"
    # names Figure 3 twice (two references, a reader counts two citing sites)
    items: list[tuple[int, int, str, list[str]]] = field(default_factory=list)


# ---------------------------------------------------------------- a series named by a word
# Papers print a supplement's figures in a series of their own without a letter, the series
# named by a word before the figure's name: "Supplementary Figure 3", "Supp. Fig. 3", "SI Fig. 3",
# "Supporting Figure 3" are the supplement's (the series "Figure S3" prints with its letter),
# "Extended Data Fig. 3" is Nature's second series. Such a figure's number is written with its
# series' letters, "S3" and "ED3", on both routes: the form a series letter already gives a
# number ("Figure S3" is "S3"), so one number names one figure wherever numbers are compared
# (normalize_number, the binding of both routes, ranges "S1-S3"), "Supplementary Figure 3" and
# "Figure S3" name the same figure, and neither is the main Figure 3. The caption's label keeps
# what prints ("Supplementary Figure 3").
_SERIES_WORD = (r"(?:(?<![A-Za-z])(?i:(extended\s+data)|(?:supplementary|supplemental|supporting)"
                r"(?:\s+(?:information|materials?|data|notes?))?|supp\.?|suppl\.?)|\bSI)")
_SERIES_NAME_RE = lazy(r"^\s*" + _SERIES_WORD + r"[\s~\u00a0]")
# the word just before a figure word ("Supplementary |Fig. 3") or before its number ("Supp. Fig. |3")
_SERIES_BEFORE_RE = lazy(_SERIES_WORD + r"[\s~\u00a0]+(?:(?i:" + _FOREIGN_WORDS + r"|fig(?:ure)?s?\.?|figs?\.)"
                         + _SP + r")?$")


def name_series(name: str) -> str:
    """The series a figure's printed name puts its figures in: "S" for "Supplementary Figure",
    "Supp. Fig.", "Supporting Figure"; "ED" for "Extended Data Fig."; "" for "Figure"."""
    m = _SERIES_NAME_RE.match(name.replace("~", " ") + " ")
    return "" if m is None else ("ED" if m.group(1) else "S")


def series_before(text: str, pos: int) -> str:
    """The series a word just before `pos` names (name_series), where `pos` is a figure word's
    start or its number's: "Supplementary |Fig. 3", "Extended Data Fig. |3"."""
    window = text[max(0, pos - 60):pos]
    low = window.lower()
    if "supp" not in low and "extended" not in low and "SI" not in window:
        return ""  # most mentions: no search (a 1 MB line holds 125,000 of them)
    m = _SERIES_BEFORE_RE.search(window)
    return "" if m is None else ("ED" if m.group(1) else "S")


def in_series(number: str, series: str) -> str:
    """A figure's number as it is identified, its series' letters before it: "3" printed under
    "Supplementary Figure" is "S3"; a number that prints a letter of its own ("S3", "A2") is
    left as printed."""
    return series + number if series and number[:1].isdigit() else number


# a number as its series' prefix and its serial: "A2" (an appendix), "3.7" (chapter 3),
# "SI 4", "A 1" (a prefix set off by a space), "OA-2"
_SERIAL = lazy(r"((?:[A-Z]{1,3}[ \u00a0\u2009\u202f.-]?)?(?:\d+" + _CHAPTER_DOT + r")?)(\d+)")


def _expand(first: str, last: str, dashed: bool = False) -> list[str]:
    """Numbers from first to last inclusive when both share a prefix ("Figures 3.6 to 3.8"
    names 3.7 too, "Figs. SI 4–SI 6" SI 5); else just the ends.

    `dashed`: the two are joined by a dash, the compact form in which the end may be printed
    without the prefix its start carries: "figures S1-4" is S1 to S4, "Figs. A2–5" A2 to A5,
    "Figs. 2.3-5" 2.3 to 2.5, as "1-4" is 1 to 4 (read as S1 and Figure 4 it cited a main
    figure and left S2, S3 uncited). Not after "to" ("compare Figure S1 to 4" may name two
    figures), and not when the end is below the start ("Fig. 3.2-1"): then the two ends."""
    m1 = _SERIAL.fullmatch(first)
    m2 = _SERIAL.fullmatch(last)
    p1 = re.sub(r"\s", "", m1.group(1)) if m1 else ""
    p2 = re.sub(r"\s", "", m2.group(1)) if m2 else ""
    if m1 and m2 and (p1 == p2 or (dashed and p1 and not p2)):
        lo, hi = int(m1.group(2)), int(m2.group(2))
        if lo < hi and hi - lo <= 50:
            prefix = m1.group(1)
            return [f"{prefix}{n}" for n in range(lo, hi + 1)]
    return [first, last] if first != last else [first]


def _letters(lo: str, hi: str) -> list[str]:
    if ord(lo) <= ord(hi) and ord(hi) - ord(lo) < 26:
        return [chr(c) for c in range(ord(lo), ord(hi) + 1)]
    return [lo, hi]


def _parse_paren_panels(m: re.Match) -> list[str]:
    inner = m.group(0)
    out: list[str] = []
    # Each parenthesised group may be a list or a range; ranges expand.
    for group in re.findall(r"\(([^)]*)\)", inner):
        parts = re.split(r"\s*(?:,|and|&)\s*", group)
        for part in parts:
            r = re.fullmatch(r"([a-z])\s*" + _DASH + r"\s*([a-z])", part.strip())
            if r:
                out.extend(_letters(r.group(1), r.group(2)))
            elif part.strip():
                out.append(part.strip())
    # "(a)–(c)" as two groups joined by a dash is a range too.
    if re.search(r"\)\s*" + _DASH + r"\s*\(", inner) and len(out) == 2:
        out = _letters(out[0], out[1])
    return out


def _number_at(text: str, pos: int) -> int:
    """Where the number _parse_item read at pos starts (inside its parentheses when it has them)."""
    return (_NUM_RE.match(text, pos) or _PREFIXED_NUM_RE.match(text, pos) or _PAREN_NUM_RE.match(text, pos)).start(1)


def _parse_item(text: str, pos: int, known=None) -> tuple[int, list[str], dict[str, list[str]]] | None:
    """One number (with panels, and an optional range) at pos; returns new pos, numbers, panels.
    "4-1" is the one figure 4-1 when `known` (the paper's figure numbers, normalised) holds it
    (chapters joined by a dash), else a range."""
    m = _NUM_RE.match(text, pos) or _PAREN_NUM_RE.match(text, pos)
    if known:
        # a prefix set off by a space ("Fig. SI 6", `SI\,\arabic{figure}`) when the paper
        # prints such numbers: read only then, "Figure AB 3" is not a number elsewhere
        pm0 = _PREFIXED_NUM_RE.match(text, pos)
        if pm0 and normalize_number(pm0.group(1)) in known:
            m = pm0
    if not m:
        return None
    num = m.group(1)
    end = m.end()
    panels: dict[str, list[str]] = {}
    numbers = [num]
    pm = _PAREN_PANELS_RE.match(text, end)
    gm = None if pm else _GLUED_PANELS_RE.match(text, end)
    if pm:
        panels[num] = _parse_paren_panels(pm)
        end = pm.end()
    elif gm and not num[-1].isalpha():
        lo, hi = gm.group(1), gm.group(2)
        panels[num] = _letters(lo, hi) if hi else [lo]
        end = gm.end()
    if not panels:
        rm = _RANGE_RE.match(text, end)
        worded = None
        if rm and re.search(_DASH, rm.group(0)):
            worded = _RANGE_WORD_RE.match(text, rm.end())
        if rm:
            m2 = _NUM_RE.match(text, worded.end() if worded else rm.end())
            if known and m is not None and m.re is _PREFIXED_NUM_RE:
                # the range's end printed as its start is, prefix and all: "SI 4–SI 5"
                pm2 = _PREFIXED_NUM_RE.match(text, rm.end())
                m2 = pm2 if pm2 and normalize_number(pm2.group(1)) in known else m2
            joined = f"{num}-{m2.group(1)}" if m2 and known and not worded and re.fullmatch(_DASH, rm.group(0)) else ""
            if joined and normalize_number(joined) in known:
                numbers = [joined]
                end = m2.end()
            # "Figure 3 - 5 GB" is rare; a range end must not be followed by a unit-like word.
            elif m2 and not re.match(r"[A-Za-z]{2,}", text[m2.end():m2.end() + 2]):
                numbers = _expand(num, m2.group(1), dashed=not worded and bool(re.search(_DASH, rm.group(0))))
                end = m2.end()
                g2 = _GLUED_PANELS_RE.match(text, end)
                if g2 and not g2.group(2):
                    # the range's last figure, its prefix restored: "S1-4a" is panel a of S4
                    panels.setdefault(numbers[-1], [g2.group(1)])
                    end = g2.end()
    return end, numbers, panels


def find_mentions(text: str, known=None) -> list[Mention]:
    """All figure mentions in text, in order. Numbers keep their printed form. `known`: the
    paper's figure numbers (normalize_number), which tell "Figure 4-1" of a paper numbering
    by chapter and dash from the range "Figures 4-6"."""
    out: list[Mention] = []
    pos = 0
    while True:
        wm = _WORD_RE.search(text, pos)
        if not wm:
            break
        item = _parse_item(text, wm.end(), known)
        if item is None:
            pos = wm.end()
            continue
        first_at = _number_at(text, wm.end())
        items = [(first_at, item[0], n, list(item[2].get(n, []))) for n in item[1]]
        end, numbers, panels = item
        numbers = list(numbers)
        seen = set(numbers)  # membership in a set: "Figs. 1, 2, ..., 30000" was quadratic in a list
        word = wm.group(0).rstrip(".").lower()
        plural = word.endswith("s") or word in _PLURALS
        # Continue a list: "Figs. 2, 3, and 5", "Figures 3a and 4b", "Fig. 3(a) and 4".
        while True:
            sm = _SEP_RE.match(text, end)
            if not sm:
                break
            nxt = _parse_item(text, sm.end(), known)
            if nxt is None:
                break
            # A comma list needs a plural label ("Figs. 2, 3"): after a singular one,
            # "Figure 3, 80 users ..." is a clause, not a second figure; but "Figure 8a, 8b"
            # repeats one figure's number with another panel.
            same_fig = bool(panels) and len(nxt[1]) == 1 and nxt[1][0] == numbers[-1] and bool(nxt[2])
            if "," in sm.group(0) and not re.search(r"and|&|or", sm.group(0)) and not plural and not same_fig:
                break
            at = _number_at(text, sm.end())
            items += [(at, nxt[0], n, list(nxt[2].get(n, []))) for n in nxt[1]]
            end, more, more_panels = nxt
            for n in more:
                if n not in seen:
                    seen.add(n)
                    numbers.append(n)
            for k, v in more_panels.items():
                panels.setdefault(k, []).extend(x for x in v if x not in panels.get(k, []))
        series = series_before(text, wm.start()) if wm.start() else ""
        if series:  # "Supplementary Figs. 2 and 3": the supplement's S2 and S3, not Figures 2 and 3
            numbers = [in_series(n, series) for n in numbers]
            panels = {in_series(k, series): v for k, v in panels.items()}
            items = [(a, b, in_series(n, series), p) for a, b, n, p in items]
        out.append(Mention(wm.start(), end, text[wm.start():end], numbers, panels, items))
        pos = end
    if "Fig" in text:
        out += _number_first(text, out)
        out.sort(key=lambda m: m.start)
    return out


# PLoS's supporting figures are cited number first: "S1 Fig", "S1 and S2 Figs", "(S3-S5 Figs)",
# "S3, S4, ..., and S10 Fig." The last number is found with its word; the list before it is read
# backwards, token by token (a regex for the whole list backtracks quadratically on a long run of
# numbers that no word ends).
_NUMBER_FIRST_RE = re.compile(r"(?<![\w.])S\d+" + _SP + r"(?:Figs?|Figures?)\b\.?")
_LIST_SEPARATORS = frozenset(" \t\n\u00a0\u2009\u202f~,&-\u2013\u2014\u2212\u2026")


def _s_number_before(text: str, j: int) -> int:
    """Where an "S12" ending at j starts (not glued to a word before it), else -1."""
    k = j
    while k > 0 and text[k - 1].isdigit():
        k -= 1
    if k == j or k == 0 or text[k - 1] != "S" or (k >= 2 and (text[k - 2].isalnum() or text[k - 2] in "._")):
        return -1
    return k - 1


def _number_first(text: str, found: list[Mention]) -> list[Mention]:
    """Mentions that put the number before the word (PLoS's "S1 Fig"), outside those found."""
    from bisect import bisect_left

    starts = [f.start for f in found]  # in order, not overlapping one another
    out = []
    for m in _NUMBER_FIRST_RE.finditer(text):
        k = bisect_left(starts, m.end())  # the mentions starting before this one ends
        if k and found[k - 1].end > m.start():
            continue  # inside a mention already read ("Figs. S1 and S2 Fig" reads once)
        begin = m.start()
        while True:  # the list before it, backwards: separators, then another S number
            j = begin
            while j > 0:
                if text[j - 1] in _LIST_SEPARATORS:
                    j -= 1
                elif text[j - 3:j] in ("and", "...") and (j < 4 or not text[j - 4].isalpha()):
                    j -= 3
                else:
                    break
            at = _s_number_before(text, j) if j < begin else -1
            if at < 0:
                break
            begin = at
        start = begin
        listed = text[start:m.end()]
        numbers: list[str] = []
        items = []
        prev_end = 0
        for x in re.finditer(r"S\d+", listed):
            n = x.group(0)
            if numbers and re.search(_DASH + r"|\u2026|\.\.\.", listed[prev_end:x.start()]):
                lo, hi = int(numbers[-1][1:]), int(n[1:])
                numbers += [f"S{i}" for i in range(lo + 1, min(hi, lo + 200))]
            if n not in numbers[-1:]:
                numbers.append(n)
            items.append((start + x.start(), start + x.end(), n, []))
            prev_end = x.end()
        numbers = list(dict.fromkeys(numbers))
        out.append(Mention(start, m.end(), listed, numbers, {}, items))
    return out


def parse_float_label(text: str) -> tuple[str, str, str, str] | None:
    """(kind, label, number, rest) for a caption start of any float kind, else None."""
    for kind, rx in _LABEL_RES.items():
        m = rx.match(text)
        if not m:
            continue
        word, num, delim = m.group("word"), m.group("num"), m.group("delim")
        if num[0] == "." or num.endswith("."):
            continue
        rest = text[m.end():].strip()
        has_delim = bool(delim.strip(" \t\u00a0\u2009\u202f~"))
        # Without punctuation only an all-caps label ("FIGURE 3 Caption") or a bare label
        # line counts; "Figure 3 shows ..." is running text.
        if not has_delim and rest and not word.isupper():
            continue
        if delim.strip(" \t\u00a0\u2009\u202f~") in ("-", "\u2013", "\u2014") and _ITEM_OF_A_FIGURE.match(rest):
            return None  # eLife's "Figure 1–Figure supplement 2." captions an item of Figure 1, not Figure 1
        label = re.sub(r"\s+", " ", f"{word.strip()} {num}")
        if kind == "figure":
            num = in_series(num, name_series(word))  # "Supplementary Figure 3" is the supplement's S3
        return kind, label, num, rest
    m = _NUMBER_FIRST_LABEL.match(text)
    if m:
        # PLoS's supporting items, labelled number first: "S1 Fig. Title ...", "S2 Table."
        kind = "table" if m.group("word").startswith("Table") else "figure"
        return kind, f"{m.group('num')} {m.group('word').rstrip('.')}", m.group("num"), text[m.end():].strip()
    return None


# "S1 Fig." / "S3 Table:": the label PLoS prints over a supporting item (its SI list or the
# item's float), number first; the stop after the word is required ("S1 Fig shows" is text)
_NUMBER_FIRST_LABEL = re.compile(r"^\s*(?P<num>S\d+)" + _SP + r"(?P<word>Fig\.|Figure|Table)(?:[.:](?:\s|$)|(?<=\.)(?:\s|$))")


# what follows "Figure 1–" when the label names an item attached to the figure (eLife);
# pdf_captions ends a caption at such a label too
ITEM_OF_A_FIGURE = r"(?:figure\s+supplement|source\s+(?:data|code)|video)\s+\d"
_ITEM_OF_A_FIGURE = lazy(ITEM_OF_A_FIGURE, re.I)


def parse_caption_label(text: str) -> tuple[str, str, str] | None:
    """(label, number, rest) when text opens a figure caption ("Figure 3: ..."), else None."""
    found = parse_float_label(text)
    if found is None or found[0] != "figure":
        return None
    return found[1], found[2], found[3]


def normalize_number(number: str) -> str:
    """Canonical key for a figure number: "A.2" and "A2" are the same figure; "3.2" stays;
    "SI 3" (a thin space in print, `SI\\,3` in the sources) is "SI3"; "4–1" is "4-1"; a chapter
    joined by a centred dot, "1·2", is "1.2"."""
    number = re.sub(r"[\s\u00a0\u2009\u202f~]+|\\[,;: ]", "", number.strip()).replace("\u2013", "-")
    number = number.replace("\u00b7", ".").replace("\u22c5", ".")
    m = re.fullmatch(r"([A-Za-z])\.?(\d+)", number)
    if m:
        return m.group(1).upper() + m.group(2)
    return number


# ---------------------------------------------------------------- another work's figures
# "their Figure 5", "Figure 4 of Smith et al.", "Figure 2 in the paper \cite{x}" (or "[12]" in
# print), "Supp Fig. 5": a figure of another work or of another series, not this figure. The
# same patterns read the sources and the printed text, so both routes skip the same mentions.
# a page, section or equation of the cited work named before its figure: "(Binney & Tremaine
# 2008, pg. 260, Figure 3.45)", "[12, p. 5, Fig. 2]"
_LOCATOR = (r"(?:(?:p|pp|pg|pgs|page|pages|sect?|section|ch|chap|chapter|eqs?|equations?|tab|table|\u00a7)\.?[ \u00a0~]*"
            r"[\w.\u2013-]+\s*,\s*){0,2}")
_EXT_BEFORE = [
    lazy(r"(?i)(?<![A-Za-z])(?:their|its|his|her|whose)\s+(?:own\s+)?$"),
    lazy(r"(?i)(?:\bet\s+al\.?\s*(?:'s|’s)?|(?<=[A-Za-z])(?:'s|’s))\s+$"),
    # "[3], Figure 5": the cited work's; "the results of [109] (Figure B2)", the figure in its own
    # parentheses after the citation, is this paper's (where it compares them)
    lazy(r"(?:\\cite[a-zA-Z]*\*?(?:\[[^\]]*\])*\{[^}]*\}|\[\d+(?:\s*[,\u2013-]\s*\d+)*\])(?:'s|’s)?\s*,?\s*$"),
    lazy(r"(?:(?<![A-Za-z])(?i:supp|suppl|(?:supplementary|supplemental)(?:\s+(?:information|materials?|data|notes?))?"
               r"|supporting(?:\s+information)?|extended\s+data)"
               r"|\bSI)\.?\s+$"),
    # a pinpoint into a cited work, inside the citation's own brackets (natbib's and biblatex's
    # `\citep[Fig. 7]{x}` as printed): after an author-year citation in parentheses or square
    # brackets, "(Kratter & Perets 2012, Fig. 7)", "(see Smith et al., 2019, Figure 3)", "(Jones
    # 2018; Smith 2019, Fig. 2)", "[Smith and Lee, 2020, Fig. 2]"; after a year in parentheses
    # that follow an author, "Smith et al. (2020, Fig. 7)" (\citet); after a numeric citation in
    # its brackets, "[12, Fig. 7]", "[12, see Fig. 7]"; and in the source, inside a citation command's optional
    # argument, "\citep[Fig.~7]{x}", "\cite[see][Fig. 2]{x}"
    lazy(r"[(\[](?:[^()\[\]]{0,60}?\s)?(?!(?:In|On|By|For|From|Since|Until|After|Before|During|Through|As|At)\s)"
               r"[A-Z][^\s(),;\[\]]*,?\s+(?:et\s+al\.?,?\s+|(?:&|and)\s+[A-Z][^\s(),;\[\]]*,?\s+)?"
               r"(?:19|20)\d{2}[a-z]?\s*,\s*" + _LOCATOR + r"(?:their\s+)?$"
               r"|(?:\bet\s+al\.?|[A-Z][a-z]+)[ \u00a0~]*\(\s*(?:19|20)\d{2}[a-z]?\s*,\s*" + _LOCATOR + r"(?:their\s+)?$"
               r"|\[\s*\d+(?:\s*[,\u2013-]\s*\d+)*\s*,\s*" + _LOCATOR + r"(?:their\s+|see\s+|cf\.\s+)?$"
               # a citation LaTeX could not resolve prints "?": "(?, ?, Fig. 7)", "[?, Fig. 7]"
               r"|[(\[]\s*\?(?:\s*[,;]\s*\?)*\s*,\s*(?:their\s+|see\s+|cf\.\s+)?$"
               r"|\\[A-Za-z]*cite[A-Za-z]*\*?(?:\[[^\]\[{}]*\])?\[[^\]\[{}]*$"),
]
_EXT_WORDS = ("their", "its", "his", "her", "whose")
_SUPP_WORDS = ("supp", "supporting", "extended data", "si ")
# A citation as the sources write it (any citation command: \cite, \citet, biblatex's \parencite,
# \textcite) or as it prints: "[12]", "[3-5]", an alphabetic style's "[SJ19]", and a citation
# LaTeX could not resolve, "[?]" (numeric styles), "?" and "(?)" (natbib's \citet and \citep);
# an author-year one in its parentheses, "(Lee, 2020)", "(Smith et al. 2019)"
_CITATION = (r"(?:~?\\[A-Za-z]*cite[A-Za-z]*\b|\[\s*(?:\d|\?|[A-Z][A-Za-z+]{0,5}\d{2}[a-z]?\])"
             r"|\(\s*\?(?:\s*[,;]\s*\?)*\s*\)|\?(?![?\w])"
             r"|\([A-Z][\w'\u2019-]+(?:\s+et\s+al\.?|,?\s+(?:and|&)\s+[A-Z][\w'\u2019-]+)?,?\s+(?:19|20)\d{2}[a-z]?[,;)])")
# (no closing parenthesis before it: "(Figure 2.3) [77]" cites the sentence's source, and the
# figure in parentheses is this paper's)
_EXT_AFTER = re.compile(
    r"^\s*,?\s*(?:\\cite|~\\cite|\\citep|\\citet|\[\d|\[\s*\?\s*[\],;]"
    # joined by of/in/from ("of~\cite{x}" in the sources): a figure of the cited work
    r"|(?:in|of|from)(?:\s|~|\\ )+(?:" + _CITATION + r"|\(\d|the\s+(?:original|cited)"
    # "Fig. 11 of Ref.~\cite{x}", "of Refs. [3,4]", "in ref. [?]", "of Reference 12"
    r"|(?i:refs?\.?|references?)(?:\s|~|\\ )*(?:" + _CITATION + r"|\d)"
    r"|(?:our\s+)?Paper\s+[IVX]+\b"  # a companion paper of a series: "Fig. 4b of Paper I"
    r"|(?:the\s+)?(?:paper|work|study|article)\s+(?:of|by)\b"
    r"|(?:the|that|this)\s+(?:original\s+|cited\s+)?(?:paper|work|study|article|preprint)\s*(?:~?\\cite|\[\d)"
    r"|[A-Z][A-Za-z-]+\s+(?:et\s+al|(?:and|\\?&)\s+[A-Z]|\\cite|~?\\cite|\(\d{4}|\[\d)"
    # three or more authors, "of Maoz, Mannucci & Brandt 2012"
    r"|[A-Z][A-Za-z-]+(?:,\s+[A-Z][A-Za-z-]+)+,?\s+(?:and|\\?&)\s+[A-Z]"
    # one author and a bare year, as \citealt prints it: "Figure 6 of Pál 2009"
    r"|[A-Z][\w'\u2019-]+,?\s+(?:19|20)\d{2}[a-z]?\b))"
)
# another part of the same cited work named with the figure: "Figure 1 and Section 2.1 of
# \citet{x}", "Fig. 3, Table 2 of [4]": passed over before the "of <citation>" test
_COORDINATED = lazy(
    r"^\s*(?:,|and|&|or)\s+(?:Sections?|Secs?\.|Tables?|Tabs?\.|Eqs?\.|Equations?|Chapters?|Ch\.|"
    r"Appendix|Appendices|\u00a7)[ \u00a0~]*[\w.\u2013-]+")
# "Figure 2 in the Supplementary Material", "... of the SI", "... in the Supporting Information"
_SUPP_AFTER = re.compile(
    r"^\s*\)?\s*,?\s*(?:in|of|from)\s+the\s+(?:online\s+)?"
    r"(?:SI\b|(?i:supplement|supporting\s+information|electronic\s+supplementary))"
)
# the supplement's own series: "S1", "S.1", "SI 4" (a prefix set off by a thin space), and
# Extended Data's "ED1" ("Extended Data Fig. 1", in_series)
_SUPP_NUMBER = lazy(r"(?:S[A-Z]?|ED)[ \u00a0\u2009\u202f.]?\d")


def external_mention(text: str, start: int, end: int, numbers=(), known=None) -> bool:
    """The mention text[start:end] names a figure of another work or series, by what stands
    before and after it (LaTeX source or printed text alike).

    A mention of the supplement's series ("Supplementary Fig. S1A", "Supplementary Fig. 3",
    read as S3, "Fig. S2 in the Supplementary Material") is this paper's own when the paper
    prints those figures: every one of its `numbers` is a series number (S, ED) among `known`
    (normalised numbers of the paper's figures), as when the supplement is appended to the
    same PDF.
    """
    before = text[max(0, start - 80):start]
    low = before.lower()
    # each pattern only when its words are there (a 1 MB line has 125,000 mentions)
    if any(w in low for w in _EXT_WORDS) and _EXT_BEFORE[0].search(before):
        return True
    if ("et al" in low or "'s" in low or "’s" in low) and _EXT_BEFORE[1].search(before):
        return True
    if ("\\cite" in before or "]" in before) and _EXT_BEFORE[2].search(before):
        return True
    tail = before.rstrip()
    if (("(" in before or "[" in before) and (tail.endswith(",") or tail.lower().endswith(("their", "see", "cf.")))
            or "cite" in before) and _EXT_BEFORE[4].search(before):
        return True
    after = text[end:end + 120]
    if (any(w in low[-30:] + " " for w in _SUPP_WORDS) and _EXT_BEFORE[3].search(before)) or _SUPP_AFTER.match(after):
        return not (known and numbers and all(_SUPP_NUMBER.match(n) and normalize_number(n) in known for n in numbers))
    if _EXT_AFTER.match(after):
        return True
    more = _COORDINATED.match(after)
    return bool(more and _EXT_AFTER.match(after[more.end():]))


# A sentence ends at . ! ? before a capital, a digit, or a parenthesis ("... accuracy. (see Fig. 1).").
# a sentence starts with a capital of any of the scripts papers are written in (Latin with
# accents, Greek, Cyrillic), a digit or a bracket
_BREAK_RE = re.compile(r"[.!?]['\")\]\u201d\u2019]*\s+(?=[\"'\[\u201c\u2018]?[A-Z0-9\u00c0-\u00de\u0391-\u03a9\u0400-\u042f]|\()")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence; no break after common abbreviations or initials.

    One pass over the text: every candidate break is decided from the word before it,
    which is read backwards only as far as the previous whitespace.
    """
    spans: list[tuple[int, int]] = []
    start = 0
    depth = 0  # brackets the last sentence left open
    for m in _BREAK_RE.finditer(text):
        dot = m.start()
        if text[dot] == ".":
            # The word before the dot, scanned backwards: a regex search over text[start:dot]
            # was quadratic when many abbreviations follow each other ("Fig. A Fig. A ...").
            i = dot
            while i > start and not text[i - 1].isspace():
                i -= 1
            bare = _bare_word(text, i, dot)
            if bare in _ABBREV or bare.rstrip(".") in _ABBREV:
                continue
            if len(bare) == 1 and bare.isascii() and bare.isalpha():  # an initial: "J. Smith", "Fig. A. 2"
                continue  # (not a Greek letter ending a sentence: "... with parameter α. The")
            if _INITIALS_RE.fullmatch(bare):  # "e.g", "i.e", "w.r.t"
                continue
        end = m.end()
        if _has_text(text, start, end):
            depth = _add_span(spans, text, start, end, depth)
        start = end
    if _has_text(text, start, len(text)):
        _add_span(spans, text, start, len(text), depth)
    return spans


def _add_span(spans: list[tuple[int, int]], text: str, start: int, end: int, depth: int = 0) -> int:
    """Append a sentence and return the brackets left open at its end. A sentence belongs to
    the one before it, as the reader takes it, when it is only a parenthesis ("... rises
    quickly. (Figure 3A).": the mention in it refers to that sentence's claim, and on its own
    it holds no words around the mention), or when it closes a bracket the sentence before
    left open: the dot inside the brackets ended no sentence ("contact times (see. Fig. 2)."
    is one sentence, not "contact times (see." and "Fig. 2).").
    `depth`: the brackets the sentence before left open (kept as the text is split, so a
    long run of joined sentences is not read again for every join)."""
    low, final = _bracket_depth(text, start, end)
    if spans and (_only_parenthetical(text, start, end) or (depth > 0 and low < 0)):
        spans[-1] = (spans[-1][0], end)
        return max(depth + final, 0)
    spans.append((start, end))
    return max(final, 0)


def _bracket_depth(text: str, start: int, end: int) -> tuple[int, int]:
    """(lowest, final) depth of round and square brackets over text[start:end], from 0."""
    opens = text.count("(", start, end) + text.count("[", start, end)
    closes = text.count(")", start, end) + text.count("]", start, end)
    if not closes or not opens:
        return -closes, opens - closes  # no order to read: every closer comes before any opener
    depth = low = 0
    for ch in text[start:end]:
        if ch == "(" or ch == "[":
            depth += 1
        elif ch == ")" or ch == "]":
            depth -= 1
            if depth < low:
                low = depth
    return low, depth


def _only_parenthetical(text: str, start: int, end: int) -> bool:
    """text[start:end] is one bracketed group and closing punctuation, nothing else."""
    s = text[start:end].strip().rstrip(".!?;:")
    if len(s) < 2 or s[0] not in "([" or s[-1] not in ")]":
        return False
    depth = 0
    for i, ch in enumerate(s):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0 and i < len(s) - 1:
                return False  # the first group closes before the end: "(a) and (b)"
    return depth == 0


_INITIALS_RE = re.compile(r"(?:[a-z]\.)+[a-z]")
_NON_SPACE = re.compile(r"\S")


def _bare_word(text: str, i: int, dot: int) -> str:
    """The word that ends at `dot`, after any joining punctuation ("(Fig", "H/Fig", "Sec.~3/Fig"),
    lower-cased: the longest run of letters and dots before `dot`, from its first letter.
    (Read backwards, in time linear in the run: `re.search("[a-z][a-z.]*$", token)` tried
    every start in the token and was quadratic in a long word.)"""
    j = dot
    while j > i and (text[j - 1] == "." or text[j - 1].isalpha()):  # letters of any script
        j -= 1
    return text[j:dot].lower().lstrip(".")


def _has_text(text: str, a: int, b: int) -> bool:
    """text[a:b] holds something other than whitespace (without copying it)."""
    return _NON_SPACE.search(text, a, b) is not None


class Sentences:
    """The sentences of one text, split once; `at(pos)` finds the one holding a position by
    bisection. Callers that look up many positions in one text (every citing place of a
    paragraph) split it once instead of once per place."""

    def __init__(self, text: str):
        self.text = text
        self.spans = sentence_spans(text)
        self._starts = [a for a, _ in self.spans]

    def at(self, pos: int) -> str:
        """The sentence that contains position pos, stripped (the whole text if none does)."""
        import bisect

        k = bisect.bisect_right(self._starts, pos) - 1
        if k >= 0:
            a, b = self.spans[k]
            if a <= pos < b:
                return self.text[a:b].strip()
        return self.text.strip()


_SENTENCES: dict[int, Sentences] = {}


def sentence_at(text: str, pos: int) -> str:
    """The sentence of text that contains position pos, stripped.

    The split of the last few texts asked about is kept (keyed by the text object and
    checked by identity), so asking for every mention of one paragraph splits it once.
    """
    cached = _SENTENCES.get(id(text))
    if cached is None or cached.text is not text:
        if len(_SENTENCES) >= 8:
            _SENTENCES.clear()
        cached = _SENTENCES[id(text)] = Sentences(text)
    return cached.at(pos)
