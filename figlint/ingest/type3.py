"""The printed size of text set in Type 3 fonts whose glyphs are not drawn on a 1/1000 em grid.

MuPDF reports a span's size as the font size of the `Tf` operator, which is the em only when
the font matrix maps 1000 glyph units to one em. A Type 3 font may use any grid: Ghostscript's
EPS-to-PDF conversion (epstopdf, `-eps-converted-to.pdf`) writes fonts with a matrix of 1/204.8
and glyphs some 1,500 units tall, set at `1.4 Tf`. Such text prints at 7-9 pt while its size
reads as 0.5-1.4 pt, and its box is as thin. The glyphs themselves say how tall the text is: in
text fonts digits and capitals stand about 0.7 em (Helvetica 0.72, Times 0.66-0.68, Computer
Modern 0.64-0.68), so the em follows from their height in glyph space.
"""

from __future__ import annotations

import re
from statistics import median

from figlint.model import union

_XREF = re.compile(r"^Type3 \((\d+) 0 R\)$")
_NUM = re.compile(rb"-?\d*\.?\d+(?:[eE][-+]?\d+)?")
_DIGITS = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
_CAPS = {chr(c) for c in range(ord("A"), ord("Z") + 1)} - {"J", "Q"}  # J and Q reach below the baseline
HEIGHT_EM = 0.70  # height of digits and capitals, in em
_CLOSE = 1.3  # a factor within 1/1.3 .. 1.3 of 1 is the font's own design: left alone


def _array(doc, xref: int, key: str) -> list[float]:
    kind, val = doc.xref_get_key(xref, key)
    if kind != "array":
        return []
    try:
        return [float(v) for v in val.strip("[]").split()]
    except ValueError:
        return []


def _factor(doc, xref: int) -> float | None:
    """How much larger the font's em is than MuPDF's size says, or None when it is as said."""
    matrix = _array(doc, xref, "FontMatrix")
    kind, procs = doc.xref_get_key(xref, "CharProcs")
    if len(matrix) != 6 or kind != "dict" or not matrix[3]:
        return None
    tops = []
    for name, ref in re.findall(r"/([A-Za-z]+)\s+(\d+)\s+0\s+R", procs):
        if name not in _DIGITS and name not in _CAPS:
            continue
        try:
            head = doc.xref_stream(int(ref))[:200]
        except Exception:  # noqa: BLE001 - a damaged glyph is no evidence
            continue
        m = re.search(rb"((?:-?\d*\.?\d+\s+){6})d1", head or b"")
        if m:
            _wx, _wy, _llx, lly, _urx, ury = (float(v) for v in _NUM.findall(m.group(1)))
            if ury > lly:
                tops.append(ury)
        if len(tops) >= 12:
            break
    if len(tops) < 2:
        return None
    factor = median(tops) * abs(matrix[3]) / HEIGHT_EM
    if 1 / _CLOSE <= factor <= _CLOSE or not 0.01 < factor < 1000:
        return None
    return factor


def fix_sizes(doc, text: dict) -> None:
    """Correct, in place, the size and box of spans in Type 3 fonts of `text` (a page's
    get_text('dict')) whose glyph grid is not 1/1000 em."""
    cache = getattr(doc, "_figlint_type3", None)
    if cache is None:
        cache = {}
        try:
            doc._figlint_type3 = cache
        except AttributeError:
            pass
    for block in text.get("blocks", ()):
        fixed_block = False
        for line in block.get("lines", ()):
            fixed = False
            for s in line.get("spans", ()):
                m = _XREF.match(s.get("font", ""))
                if not m:
                    continue
                xref = int(m.group(1))
                if xref not in cache:
                    try:
                        cache[xref] = _factor(doc, xref)
                    except Exception:  # noqa: BLE001 - an unreadable font keeps MuPDF's size
                        cache[xref] = None
                f = cache[xref]
                if f is None:
                    continue
                size = s["size"] * f
                s["size"] = size
                fixed = True
                if tuple(line.get("dir", (1.0, 0.0))) == (1.0, 0.0) and "origin" in s:
                    x0, _y0, x1, _y1 = s["bbox"]
                    base = s["origin"][1]
                    s["bbox"] = (x0, base - 0.8 * size, x1, base + 0.2 * size)
            if fixed:
                fixed_block = True
                line["bbox"] = union(s["bbox"] for s in line["spans"])
        if fixed_block and block.get("lines"):
            block["bbox"] = union(ln["bbox"] for ln in block["lines"])


