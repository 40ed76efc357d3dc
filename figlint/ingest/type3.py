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


def _codes(doc, xref: int) -> dict[str, int]:
    """Glyph name -> character code, from the font's /Encoding /Differences array."""
    kind, val = doc.xref_get_key(xref, "Encoding")
    if kind == "xref":
        kind, val = doc.xref_get_key(int(val.split()[0]), "Differences")
    elif kind == "dict":
        m = re.search(r"/Differences\s*(\[[^\]]*\])", val)
        kind, val = ("array", m.group(1)) if m else (None, "")
    if kind != "array":
        return {}
    out: dict[str, int] = {}
    code = 0
    for tok in re.findall(r"/[^\s/\[\]]+|-?\d+", val):
        if tok.startswith("/"):
            out.setdefault(tok[1:], code)
            code += 1
        else:
            code = int(tok)
    return out


_PATH_OP = re.compile(rb"((?:-?\d*\.?\d+(?:[eE][-+]?\d+)?\s+){2,6})(?:m|l|c|v|y)\b")
_CM = re.compile(rb"((?:-?\d*\.?\d+\s+){6})cm\b")


def _top(stream: bytes) -> float | None:
    """A glyph's top in glyph space: its `d1` box, or (a `d0` glyph, which paints in colour
    and declares no box) the highest point its path reaches, through a first scaling `cm`."""
    m = re.search(rb"((?:-?\d*\.?\d+\s+){6})d1", stream[:200])
    if m:
        _wx, _wy, _llx, lly, _urx, ury = (float(v) for v in _NUM.findall(m.group(1)))
        return ury if ury > lly else None
    scale, shift = 1.0, 0.0
    cm = _CM.search(stream[:200])
    if cm:
        a, b, c, d, _e, f = (float(v) for v in _NUM.findall(cm.group(1)))
        if b or c or d <= 0:
            return None  # rotated or flipped: not read
        scale, shift = d, f
    ys = [float(nums[k]) for op in _PATH_OP.finditer(stream)
          for nums in [_NUM.findall(op.group(1))] for k in range(1, len(nums), 2)]
    return max(ys) * scale + shift if ys else None


def _factor(doc, xref: int) -> float | None:
    """How much larger the font's em is than MuPDF's size says, or None when it is as said."""
    matrix = _array(doc, xref, "FontMatrix")
    kind, procs = doc.xref_get_key(xref, "CharProcs")
    if len(matrix) != 6 or kind != "dict" or not matrix[3]:
        return None
    codes = None
    tops = []
    for name, ref in re.findall(r"/([^\s/<>\[\]]+)\s+(\d+)\s+0\s+R", procs):
        if name not in _DIGITS and name not in _CAPS:
            # Ghostscript names some fonts' glyphs by code ("s48" for "0"): the encoding says
            if codes is None:
                codes = _codes(doc, xref)
            code = codes.get(name)
            if code is None or not (48 <= code <= 57 or chr(code) in _CAPS):
                continue
        try:
            stream = doc.xref_stream(int(ref))[:20000]
        except Exception:  # noqa: BLE001 - a damaged glyph is no evidence
            continue
        top = _top(stream or b"")
        if top is not None and top > 0:
            tops.append(top)
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


