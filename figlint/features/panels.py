"""Panel labels printed in a figure: (a), (b), a), or bare A, B at panel corners.

`@derived("panels")` gives the labels found in a FigureAnalysis's text, as
PanelLabel(label, text, style, bbox, standalone, title), in sequence from "a":
letters that do not follow on from (a) are not panels ("(s)" in "time (s)" is a
unit). A label is *standalone* when nothing follows it on its line (a title such
as "(a) Accuracy" is a sub-caption). Bare letters are accepted only as a run of
two or more starting at A or a, each with nothing drawn or printed above it in
its column (panel labels sit at a panel's top-left corner; category tick labels
"A B C" sit under bars, node names inside boxes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from figlint.features import derived

BBox = tuple[float, float, float, float]
_PAREN = re.compile(r"^\(([a-zA-Z])\)(?:\s+(.*))?$")
_HALF = re.compile(r"^([a-z])\)(?:\s+(.*))?$")
_BARE = re.compile(r"^([A-Ha-h])[.:]?$")


@dataclass
class PanelLabel:
    label: str  # lower-case letter: "a", "b", ...
    text: str  # as printed: "(a)", "b)", "A"
    style: str  # paren | half | bare
    bbox: BBox
    standalone: bool = True  # nothing follows it on its line
    title: str = ""  # the words after it on its line, if any

    def to_dict(self) -> dict:
        return {"label": self.label, "text": self.text, "style": self.style,
                "bbox": [round(v, 1) for v in self.bbox], "standalone": self.standalone, "title": self.title}


@derived("panels")
def panels(an) -> list[PanelLabel]:
    if an.source in ("vector", "raster") and an.tokens:
        return _panels(an)
    return []


def _rest_of_line(an, t, u: float) -> str:
    words = sorted((o for o in an.tokens if o is not t and not o.rotated and abs(o.cy - t.cy) <= 0.3 * u
                    and 0 <= o.bbox[0] - t.bbox[2] <= 1.0 * u), key=lambda o: o.bbox[0])
    return " ".join(o.text.strip() for o in words[:1])


def _panels(an) -> list[PanelLabel]:
    u = an.unit_size
    found: dict[str, list[PanelLabel]] = {"paren": [], "half": [], "bare": []}
    for t in an.tokens:
        if t.rotated:
            continue
        text = t.text.strip()
        if getattr(t, "conf", 1.0) < 0.5:
            continue
        m = _PAREN.match(text) or _HALF.match(text)
        if m:
            style = "paren" if text.startswith("(") else "half"
            title = (m.group(2) or "").strip() or _rest_of_line(an, t, u)
            found[style].append(PanelLabel(m.group(1).lower(), text.split()[0], style, tuple(t.bbox), not title, title))
            continue
        m = _BARE.match(text)
        if m and _corner(an, t, u):
            found["bare"].append(PanelLabel(m.group(1).lower(), text, "bare", tuple(t.bbox), True, _rest_of_line(an, t, u)))
    for style in ("paren", "half", "bare"):
        seq = _sequence(found[style], style)
        if seq:
            return seq
    return []


def _sequence(labels: list[PanelLabel], style: str) -> list[PanelLabel]:
    by: dict[str, PanelLabel] = {}
    for p in labels:
        by.setdefault(p.label, p)
    seq = []
    for i in range(26):
        letter = chr(ord("a") + i)
        if letter not in by:
            break
        seq.append(by[letter])
    if len(seq) < 2:
        return []
    if style == "bare":
        # bare letters of one figure share a case, and no bare letter beyond the run is a "panel"
        cases = {p.text[0].isupper() for p in seq}
        if len(cases) > 1 or len(by) > len(seq):
            return []
    return seq


def _corner(an, t, u: float) -> bool:
    """Nothing printed or drawn above the token in its column, and something below or right of it."""
    x0, x1 = t.bbox[0] - 1.0 * u, t.bbox[2] + 1.0 * u
    top = t.bbox[1]
    for o in an.tokens:
        if o is not t and o.bbox[3] <= top + 0.1 * u and o.bbox[0] < x1 and o.bbox[2] > x0:
            return False
    for b in _mark_boxes(an):
        if b[3] <= top and b[0] < x1 and b[2] > x0 and (b[2] - b[0]) < 0.9 * max(an.width, 1):
            return False  # a frame or a bar above it (the figure's own background does not count)
    if an.source == "raster" and an.marks is not None and getattr(an.marks, "fg", None) is not None:
        fg = an.marks.fg
        y = max(int(top - 0.2 * u), 0)
        band = fg[:y, max(int(x0), 0):max(int(x1), 0)]
        if band.size and band.any(axis=1).mean() > 0.05:
            return False
    return True


def _mark_boxes(an) -> list[BBox]:
    out = []
    for d in getattr(an, "drawings", None) or []:
        fill = d.fill
        if fill is not None and len(fill) >= 3 and min(fill[:3]) > 0.93 and d.stroke is None:
            continue  # white backgrounds
        out.append(d.bbox)
    return out
