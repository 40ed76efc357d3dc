"""Parse tick-label text into numbers: the forms plotting tools and news graphics print.

Handles U+2212 and dash minus signs, thousands separators (comma, thin space,
apostrophe), percent and currency signs, scientific notation (1e3, 1E-3,
1.5×10^3), powers of ten (10^3, 10³, 10−2 as read from a superscript), k/M/B
suffixes, and the stray punctuation OCR leaves at a label's edge ("17,000-").
Anything else (words, dates, ranges) is not a tick number and gives None.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_MINUS = "\u2212\u2012\u2013\u2014\u2010\u2011\ufe63\uff0d"
_SUFFIX = {"k": 1e3, "K": 1e3, "M": 1e6, "m": 1e6, "B": 1e9, "bn": 1e9, "G": 1e9, "T": 1e12}
_CURRENCY = "$€£¥₹"

_NUM = r"[-+]?(?:\d{1,3}(?:[,\u2009\u202f' ]\d{3})+|\d+)(?:\.\d+)?|[-+]?\.\d+"
_PLAIN = re.compile(rf"^(?P<num>{_NUM})(?:[eE](?P<exp>[-+]?\d+))?$")
_POW = re.compile(r"^(?:(?P<mant>[-+]?\d+(?:\.\d+)?)\s*[x×·*]\s*)?10\s*(?:\^|\*\*)?\s*\{?(?P<exp>[-+]?\d{1,3})\}?$")
_PAIRED = re.compile(r"^([-+]?\d[\d,.]*)\s*\(\s*[-+]?\d[\d,.]*\s*\)$")
_SUFFIXED = re.compile(rf"^(?P<num>{_NUM})\s*(?P<suf>bn|[kKMBGTm])$")


@dataclass(frozen=True)
class Number:
    value: float
    kind: str = "plain"  # plain | percent | pow10 (printed as a power of ten) | suffix | sci


def _clean(text: str) -> str:
    t = text.strip()
    sup = re.search(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+$", t)
    if sup and sup.start() > 0:
        t = t[: sup.start()] + "^" + sup.group(0)
    t = t.translate(_SUPERSCRIPT)
    for ch in _MINUS:
        t = t.replace(ch, "-")
    t = t.replace("\u00a0", " ")
    # OCR and layout leave tick marks or punctuation at the edges: "17,000-", "—20".
    t = t.strip(" :;|_").rstrip(".")
    if t.startswith(".") and not t[1:2].isdigit():
        t = t.lstrip(".")
    if t.endswith("-") and len(t) > 1 and t[-2].isdigit():
        t = t[:-1].rstrip()
    if t.startswith("(") and t.endswith(")"):
        t = t[1:-1]
    return t.strip()


def parse_number(text: str) -> Number | None:
    """The number a tick label prints, or None when the text is not one number."""
    t = _clean(text)
    if not t or len(t) > 24:
        return None
    m = _PAIRED.match(t)
    if m:
        # "11 (80)": one tick labelled in two units; the first is the axis' own
        t = m.group(1)
    kind = "plain"
    sign = 1.0
    for cur in _CURRENCY:
        if t.startswith(cur) or t.startswith("-" + cur):
            if t.startswith("-"):
                sign = -1.0
                t = t[1:]
            t = t[1:].strip()
            break
    if t.endswith("%"):
        t = t[:-1].strip()
        kind = "percent"
    t = t.replace(" ", "") if re.fullmatch(r"[-+]?\d{1,3}( \d{3})+(\.\d+)?", t) else t
    m = _PLAIN.match(t)
    if m:
        num = float(re.sub(r"[,\u2009\u202f' ]", "", m.group("num")))
        if m.group("exp") is not None:
            return Number(sign * num * 10.0 ** int(m.group("exp")), "sci" if kind == "plain" else kind)
        return Number(sign * num, kind)
    m = _POW.match(t.replace(" ", ""))
    if m and kind == "plain":
        mant = float(m.group("mant")) if m.group("mant") else 1.0
        exp = int(m.group("exp"))
        if abs(exp) > 300:
            return None
        return Number(sign * mant * 10.0 ** exp, "pow10")
    m = _SUFFIXED.match(t)
    if m and kind == "plain":
        num = float(re.sub(r"[,\u2009\u202f' ]", "", m.group("num")))
        return Number(sign * num * _SUFFIX[m.group("suf")], "suffix")
    return None


def is_number(text: str) -> bool:
    return parse_number(text) is not None


def nice_step(step: float) -> bool:
    """Whether `step` is a round number times a power of ten (the steps axis tools and people choose)."""
    if step <= 0 or not math.isfinite(step):
        return False
    exp = math.floor(math.log10(step))
    mant = step / 10.0**exp
    # whole mantissas, and the halves and quarters axis tools use (1.5, 2.5, 7.5, 1.2)
    return any(abs(mant - m) < 0.004 * m for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 7.5, 8, 9, 10))
