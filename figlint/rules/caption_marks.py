"""FL2xx rules that compare what a caption says about marks (colours, line styles) with the marks drawn."""

from __future__ import annotations

import re

from figlint.lazyre import lazy
from figlint.model import Figure
from figlint.rules.registry import Context, rule

_COLOUR_WORDS = ("red", "orange", "yellow", "green", "blue", "cyan", "teal", "turquoise", "purple", "violet",
                 "magenta", "pink", "brown")
_MARK_NOUNS = (r"lines?|curves?|bars?|columns?|dots?|points?|markers?|circles?|squares?|triangles?|crosses|"
               r"stars?|diamonds?|regions?|areas?|shad(?:ing|ed\s+\w+)|bands?|boxe?s?|arrows?|edges?|nodes?|"
               r"segments?|histograms?|bins?|cells?|contours?|trajector(?:y|ies)|paths?|plots?|scatter|"
               r"outlines?|borders?|fills?|patches|highlights?")
_COLOUR = "|".join(_COLOUR_WORDS)
# "red bars", "the dashed blue line", "blue and red curves", "shown in red", "(red)", "coloured green"
_COLOUR_MARK = lazy(
    rf"\b({_COLOUR})(?:ish)?(?:\s*(?:/|,|and|or)\s*(?:{_COLOUR}))*(?:\s+(?:dashed|dotted|solid|thick|thin|"
    rf"shaded|filled|vertical|horizontal|dash-dotted))*\s+(?:{_MARK_NOUNS})\b"
    rf"|\b(?:in|with|by|colou?red)\s+({_COLOUR})\b|\(\s*({_COLOUR})\s*\)",
    re.I)
_STYLE = lazy(r"\b(dashed|dotted|dash-dotted|dash-dot|broken)\b(?:\s+\w+){0,2}?\s+(?:" + _MARK_NOUNS + r")\b"
                    r"|\b(dashed|dotted)\b", re.I)


def caption_colours(text: str) -> list[tuple[str, str]]:
    """(colour word, the phrase naming it) for each colour the caption gives a mark."""
    out: list[tuple[str, str]] = []
    for m in _COLOUR_MARK.finditer(text):
        phrase = m.group(0)
        for w in re.findall(rf"\b({_COLOUR})", phrase, re.I):
            w = w.lower()
            if w not in [c for c, _ in out]:
                out.append((w, phrase))
    return out


def caption_styles(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for m in _STYLE.finditer(text):
        w = (m.group(1) or m.group(2)).lower()
        w = {"broken": "dashed", "dash-dot": "dashed", "dash-dotted": "dashed"}.get(w, w)
        if w not in [s for s, _ in out]:
            out.append((w, m.group(0)))
    return out


def _readable(an) -> bool:
    """Whether the figure's marks were read well enough to say a colour is absent."""
    if an.source == "vector":
        f = an.figure
        if f is None or not f.drawings:
            return False
        # a placed picture may hold the colour: only vector art mostly free of images counts
        area = max(an.width * an.height, 1e-6)
        img = sum((b[2] - b[0]) * (b[3] - b[1]) for b in (i.bbox for i in f.images))
        return img < 0.05 * area
    if an.source == "raster":
        m = an.marks
        return getattr(m, "work", None) is not None and not getattr(m, "photo", False)
    return False


@rule(
    "FL205",
    "caption-mark-mismatch",
    severity="warning",
    dimension="caption_consistency",
)
def caption_mark_mismatch(fig: Figure, ctx: Context):
    """The caption names a colour or line style ("red bars", "the dashed line") the figure does not draw.

    What it does:
    Finds colour words the caption attaches to marks ("the red bars", "blue and green
    curves", "shown in orange", "(purple)") and line styles ("dashed line", "dotted").
    Reads the colours the figure draws (vector: every stroke, fill and text colour;
    raster: its saturated colours) and names them by hue; reads the dash style of every
    stroked vector path. Reports the figure when a named colour matches none of the drawn
    colours, even allowing neighbouring names (a caption's "red" accepts orange, pink,
    brown and magenta shades), or when a dashed/dotted line is named and every stroked
    path is solid. Black, grey and white are not checked (they are everywhere). Figures
    whose marks cannot be read (placed photographs, raster figures without analysis)
    are skipped.

    Why is this bad?
    The caption is the reader's key to the figure. When it says "the red line is our
    method" and no line is red — the colours changed when the plot was redrawn — readers
    map the results to the wrong method, or give up.

    Example:
    The caption says "Our method (red) converges faster than the baseline (dashed)",
    but the plot uses matplotlib's default blue and orange, both solid.

    Use instead:
    Update the caption whenever the plot's style changes, or refer to series by their
    legend labels rather than by colour.
    """
    cap = fig.caption.text if fig.caption is not None else ""
    if not cap.strip():
        return
    colours = caption_colours(cap)
    styles = caption_styles(cap)
    if not colours and not styles:
        return
    try:
        from figlint.features import analyses

        ans = [an for an in analyses(fig, ctx.paper)]
    except ImportError:
        return
    if not ans or not all(_readable(an) for an in ans):
        return
    from figlint.features import colours as C

    drawn = []
    dashes: set[str] = set()
    vector = all(an.source == "vector" for an in ans)
    for an in ans:
        drawn += an.get("palette") or []
        if an.source == "vector":
            dashes |= set(an.get("dash_styles") or [])
    names = {c.name for c in drawn}
    missing = []
    for word, phrase in colours:
        accept = C.CAPTION_COLOURS.get(word, {word})
        if not names & accept:
            missing.append({"named": word, "phrase": phrase})
    missing_styles = []
    if vector and dashes:  # dash styles are only read from vector paths
        non_solid = dashes - {"solid"}
        for style, phrase in styles:
            if not non_solid:
                missing_styles.append({"named": style, "phrase": phrase})
    if not missing and not missing_styles:
        return
    parts = []
    if missing:
        parts.append(", ".join(f'"{m["phrase"].strip()}"' for m in missing[:3]) + " but nothing "
                     + "/".join(m["named"] for m in missing[:3]) + " is drawn")
    if missing_styles:
        parts.append(f'"{missing_styles[0]["phrase"].strip()}" but every line is solid')
    present = sorted({c.name for c in drawn})
    yield ctx.finding(
        "caption says " + "; and ".join(parts) + f" (figure colours: {', '.join(present) or 'black/grey only'})",
        figure=fig,
        evidence={"missing_colours": missing, "missing_styles": missing_styles,
                  "figure_colours": [c.to_dict() for c in drawn[:12]], "dash_styles": sorted(dashes)},
        origin="figure",
    )
