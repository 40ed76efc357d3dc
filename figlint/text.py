"""Small text utilities shared by rules: words, content words, normalisation.

Pure Python and cheap to import; no language model. The stop lists are
deliberately short and scientific-writing specific.
"""

from __future__ import annotations

import re
import unicodedata

WORD_RE = re.compile(r"[A-Za-z][A-Za-z\-']*|\d+(?:\.\d+)?%?")

STOPWORDS = frozenset(
    """a an the of in on at to for from by with and or but as is are was were be been being
    this that these those it its we our us they their them he she his her you your i
    which who whom whose what where when while than then there here also both each all any
    some such not no nor so if into onto over under between among via per within without
    can could may might will would shall should do does did has have had""".split()
)

# Words that point at a figure without saying anything about it.
POINTER_WORDS = frozenset(
    """see shown show shows showing depicted depicts depict illustrated illustrates illustrate
    illustration presented presents present given gives provided provides displayed displays
    display found refer refers reported reports report visualized visualizes visualised
    plotted plots plot summarized summarizes summarised summarises detailed details detail
    overview example examples result results figure figures fig figs panel panel
    left right top bottom above below following further more additional appendix
    e.g i.e cf please respectively""".split()
)


def normalize(text: str) -> str:
    """NFKC, ligatures unfolded, dashes and quotes plain, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u2212", "-").replace("\u2013", "-").replace("\u2014", "-")
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip()


def words(text: str) -> list[str]:
    return [w.lower() for w in WORD_RE.findall(normalize(text))]


def latin_script(text: str) -> bool:
    """Most of the text's letters are Latin (with accents): the word lists of the caption
    rules (stop words, generic nouns, metric names) can read it. A caption in Greek,
    Cyrillic or CJK script is not judged by them: they would find no words in it at all."""
    letters = [ch for ch in text if ch.isalpha()]
    latin = sum(1 for ch in letters if ch < "\u0250" or "\u1e00" <= ch <= "\u1eff")
    return 2 * latin >= len(letters)


def content_words(text: str, extra_stop: frozenset[str] = frozenset()) -> list[str]:
    return [w for w in words(text) if w not in STOPWORDS and w not in extra_stop and len(w) > 1]


def symbol_font(font: str) -> bool:
    """A font of pictograms, not letters: ZapfDingbats (PDF's standard symbol font; R's pdf()
    device draws scatter points as its filled circle by default, `useDingbats`). Its glyphs in
    a figure are marks (markers, ticks, stars), not text to read, size or contrast."""
    return "dingbat" in (font or "").lower()
