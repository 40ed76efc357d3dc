"""FL2xx: the caption, read against what a caption must do (C dimension)."""

from __future__ import annotations

import re

from figlint.lazyre import lazy
from figlint.model import Figure
from figlint.rules.registry import Context, rule
from figlint.text import STOPWORDS, content_words, latin_script, normalize

# Nouns that name a kind of figure rather than what it shows: a caption made only
# of these ("Overview of our method.") tells a reader nothing the figure doesn't.
GENERIC_WORDS = frozenset(
    """overview illustration illustrations method methods approach approaches model models
    framework pipeline architecture architectures result results example examples comparison
    comparisons visualization visualisation visualizations visualisations proposed system
    qualitative quantitative diagram schematic figure sample samples performance analysis
    overall main different various several some experiment experiments experimental setup
    demonstration overview workflow structure process procedure scheme schema""".split()
)


# Formal figures (inference rules, grammars, order diagrams, automata) are captioned by naming
# the object drawn, often in its notation: "Typing rules.", "The interval [1, 123] of M." Such a
# caption says exactly what is shown; there is no data or metric to name.
FORMAL_WORDS = frozenset(
    """typing inference derivation derivations judgment judgments judgement judgements syntax grammar
    semantics reduction reductions calculus axioms axiom proof proofs poset posets lattice lattices hasse
    automaton automata subtyping""".split()
)
# words that name a formal object only beside its notation ("The interval [1, 123] of M.",
# "Rules for Γ ⊢ e : τ."; "Confidence intervals." and "Targeting rules." caption data figures)
FORMAL_WITH_NOTATION = frozenset(
    "rule rules interval intervals relation relations order orders transition transitions".split())
# notation: set and logic symbols, Greek and script letters, super/subscripts, tuples "(0,3)"
_NOTATION = lazy(r"[\u2200-\u22ff\u0391-\u03c9\u2100-\u214f\u27e8-\u27e9]|[\w)\]]\^|\\(?:mathcal|emptyset|"
                       r"vdash|to|lambda|Gamma|leq|subseteq)\b|\(\s*\d+\s*,\s*\d+\s*\)")


def names_formal_object(text: str, specific: list[str]) -> bool:
    """A caption that names a formal object: a word for one (rules, syntax, poset, interval)
    among two specific words, or with the object's notation."""
    notation = bool(_NOTATION.search(text))
    if any(w in FORMAL_WITH_NOTATION for w in specific) and notation:
        return True
    return any(w in FORMAL_WORDS for w in specific) and (len(specific) >= 2 or notation)


@rule("FL201", "missing-caption", severity="error", dimension="caption_consistency", routes=("pdf", "latex"))
def missing_caption(fig: Figure, ctx: Context):
    """Figure has no caption.

    What it does:
    Reports a figure environment (LaTeX) or a graphics region (PDF) that has no caption.

    Why is this bad?
    Without a caption the figure has no number, so the text cannot refer to it, and
    readers who skim figures first (most reviewers) cannot tell what it shows.

    Example:
    ```latex
    \\begin{figure}
      \\includegraphics{plot}
    \\end{figure}
    ```

    Use instead:
    ```latex
    \\begin{figure}
      \\includegraphics{plot}
      \\caption{Top-1 accuracy of ResNet-50 and ViT-B on ImageNet over 90 epochs.}
      \\label{fig:accuracy}
    \\end{figure}
    ```
    """
    if not fig.has_caption:
        yield ctx.finding(
            "figure has no caption, so it has no number and cannot be cited",
            figure=fig,
            evidence={"page": fig.page, "graphics": fig.graphics},
            origin="figure",
        )


@rule(
    "FL202",
    "generic-caption",
    severity="warning",
    dimension="caption_consistency",
    cap=6,
    options={"min-caption-words": 3, "min-specific-words": 2},
)
def generic_caption(fig: Figure, ctx: Context):
    """Caption is too short or too generic to stand alone.

    What it does:
    Counts the content words of the caption (without "Figure N:", stop words and
    generic nouns such as *overview*, *method*, *results*, *illustration*) and reports
    captions with fewer than `min-specific-words` specific words, or fewer than
    `min-caption-words` content words in all. A caption that names a formal object
    (inference rules, a grammar, a poset's interval: *Typing rules.*, *The interval [1, 123]
    of M.*) with two specific words or with its notation is left alone: it says exactly
    what is drawn, and so is a caption written mostly in another script than Latin (Greek,
    Cyrillic, CJK), whose words these lists cannot count. Caps caption consistency (C) at 6.

    Why is this bad?
    A caption should say what is shown, on what data, with which metric, and what to
    notice. "Overview of our method." names the figure's genre, not its content; in the
    SciFigQual-Bench human ratings such captions score about 5.3 of 10.

    Example:
    `\\caption{Overview of our method.}`

    Use instead:
    `\\caption{Our pipeline: a frozen encoder embeds each page, a retriever selects the
    top-5 passages, and a reader produces the answer; dashed arrows are training-only.}`
    """
    if not fig.has_caption or not latin_script(fig.caption.text):
        return  # (a caption in another script has none of the words this rule counts)
    text = fig.caption.text
    why, words, specific = caption_verdict(
        text, int(ctx.option("min-caption-words")), int(ctx.option("min-specific-words"))
    )
    if why is None or names_formal_object(text, specific):
        return
    yield ctx.finding(
        f'caption is {why} to stand alone ("{text.strip()[:80]}"): say what is shown, '
        "on which data, with which metric",
        figure=fig,
        location=_caption_location(fig),
        evidence={"caption": text, "content_words": words, "specific_words": specific},
        origin="text",
    )


def caption_verdict(text: str, min_words: int = 3, min_specific: int = 2) -> tuple[str | None, list[str], list[str]]:
    """Why a caption cannot stand alone ("too short", "generic") or None, with its content and specific words.

    Pure (no figure, no context): FL202 and the offline judge, which scores bare
    captions from a gold file, share it.
    """
    words = content_words(text)
    specific = [w for w in words if w not in GENERIC_WORDS]
    if len(words) >= min_words and len(specific) >= min_specific:
        return None, words, specific
    return ("too short" if len(words) < min_words else "generic"), words, specific


def _caption_location(fig: Figure):
    from figlint.rules.registry import figure_location

    cap = fig.caption.location if fig.caption else None
    if cap is not None and cap.file and cap.line:
        return cap
    loc = figure_location(fig)
    if cap is not None and cap.bbox and loc.line is None:
        loc.bbox = cap.bbox
    return loc


# --- caption against the figure (FL204, FL206, FL207) -------------------------------------
# These compare what the caption says with what the figure shows (legend entries, axis
# titles, panel labels, printed numbers). They read the figure analysis lazily and fire
# only on clear evidence: a figure that could not be read, or was read only in part, is
# never reported.

# axis titles that name no metric of their own ("Count", "Value", "Density")
GENERIC_AXIS_WORDS = frozenset(
    """count counts number num frequency freq density value values amount total fraction proportion
    percentage percent ratio normalized normalised relative mean average avg score scores magnitude
    level index rank probability prob cumulative cdf pdf log scale unit units axis data sample samples
    x y z""".split()
)
# words that name the authors' own method in a legend ("Ours", "Proposed")
OWN_WORDS = frozenset({"our", "ours", "proposed", "we"})
ABBREVIATIONS = {
    "acc": "accuracy", "accu": "accuracy", "err": "error", "perf": "performance", "prec": "precision",
    "rec": "recall", "avg": "average", "std": "deviation", "val": "validation", "valid": "validation",
    "trn": "train", "tst": "test", "iter": "iteration", "iters": "iteration", "num": "number",
    "prob": "probability", "freq": "frequency", "temp": "temperature", "dist": "distance",
    "sim": "similarity", "mem": "memory", "tput": "throughput", "thru": "throughput", "lat": "latency",
    "ppl": "perplexity", "seq": "sequence", "len": "length", "params": "parameter", "param": "parameter",
    "eval": "evaluation", "gen": "generation", "lr": "learning", "epochs": "epoch", "img": "image",
    "imgs": "image", "sec": "second", "secs": "second", "ms": "millisecond", "exec": "execution",
    "util": "utilization", "utilisation": "utilization", "colour": "color", "behaviour": "behavior",
}
_LATEX_CMD_DROP = lazy(r"\\(?:cite[tp]?|citep|citet|ref|cref|Cref|autoref|eqref|label|url|footnote)\*?\s*(?:\[[^\]]*\])?\{[^}]*\}")
_LATEX_CMD = lazy(r"\\[A-Za-z]+\*?\s*")
_UNITS_PAREN = lazy(r"[\(\[][^\)\]]{0,20}[\)\]]")


def _strip_latex(text: str) -> str:
    text = _LATEX_CMD_DROP.sub(" ", text)
    text = _LATEX_CMD.sub(" ", text)
    return text.replace("{", " ").replace("}", " ").replace("$", " ").replace("~", " ")


def stem(word: str) -> str:
    """A light stem: lower case, abbreviations expanded, plural and -ing/-ed/-ation endings off."""
    w = word.lower().strip("'.-_")
    w = ABBREVIATIONS.get(w, w)
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suf in ("ation", "ing", "ed"):
        if len(w) - len(suf) >= 4 and w.endswith(suf):
            w = w[: -len(suf)]
            break
    return w


def norm_words(text: str) -> list[str]:
    """Stems of a text's words: LaTeX stripped, hyphenated and slashed words split and joined."""
    text = normalize(_strip_latex(text))
    out: list[str] = []
    for tok in re.findall(r"[A-Za-z0-9][A-Za-z0-9\-/+.]*", text):
        tok = tok.rstrip(".")
        parts = [p for p in re.split(r"[-/+.]", tok) if p]
        if len(parts) > 1:
            out.append(stem("".join(parts)))  # "ResNet-50" -> "resnet50"
        out.extend(stem(p) for p in parts)
    return [w for w in out if w]


def _compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", normalize(_strip_latex(text)).lower())


def _matches(word: str, caption_words: set[str]) -> bool:
    if word in caption_words:
        return True
    if len(word) >= 5:  # "accur" in "accuracy": a shared stem of five letters or more
        return any(len(c) >= 5 and (c.startswith(word) or word.startswith(c)) for c in caption_words)
    return False


def _key_words(text: str) -> list[str]:
    """The words of a legend entry or axis title that can name it: not stop words, not units."""
    stops = STOPWORDS | GENERIC_WORDS
    return [w for w in norm_words(text) if w not in stops and not w.isdigit() and len(w) > 1]


def _param_like(text: str) -> bool:
    """Legend entries that are parameter values ("k=3", "0.1", "n = 100"), not named groups."""
    t = text.strip()
    return "=" in t or not re.search(r"[A-Za-z]{2,}", t) or bool(re.fullmatch(r"[A-Za-z]\s*[<>≤≥]\s*\S+", t))


def _readable(analyses_: list) -> bool:
    return bool(analyses_) and all(an.source in ("vector", "raster") and an.tokens for an in analyses_)


def _figure_analyses(fig: Figure, ctx: Context) -> list:
    try:
        from figlint.features import analyses

        return analyses(fig, ctx.paper)
    except Exception:  # noqa: BLE001 - an unreadable figure is not a caption defect
        return []


def figure_content(ans: list) -> dict:
    """Legend entries and value-axis titles of a figure's analyses, as FL204 reads them."""
    legend: list[str] = []
    titles: list[str] = []
    for an in ans:
        chart = an.chart_type in ("line", "bar", "scatter", "area", "box") and an.chart_confidence >= 0.5 and bool(
            an.x_axes or an.y_axes)
        try:
            # only a chart's legend names compared groups: labels beside the arrows of a
            # diagram or a timeline look like legend entries but are parts of the drawing
            if chart:
                legend += [e.text for e in an.get("legend")]
        except Exception:  # noqa: BLE001
            pass
        if an.source != "vector" or an.chart_type not in ("line", "bar", "area", "box") or an.chart_confidence < 0.6:
            continue  # titles read by OCR are too often misread to judge a caption by
        axes = [an.bar_axis] if an.bar_axis is not None else an.y_axes
        titles += [a.title for a in axes if a is not None and a.title.strip()]
    return {"legend": legend, "titles": titles}


@rule(
    "FL204",
    "caption-omits-content",
    severity="warning",
    dimension="caption_consistency",
    cap=6,
    options={"min-legend-entries": 2},
)
def caption_omits_content(fig: Figure, ctx: Context):
    """Caption names none of the compared groups or none of the metric the figure shows.

    What it does:
    Reads the figure's legend entries and the titles of its value axes (vector text of
    line, bar, area and box charts), and compares their words with the caption's, after
    normalising case, plurals, hyphens, common abbreviations (*acc* = *accuracy*) and
    LaTeX markup. Reports the figure when it has a clear legend (at least
    `min-legend-entries` named entries) and the caption names none of its groups, or
    when its value axis has a metric title and the caption names none of the title's
    words. The subcaptions of subfigures count as part of the caption. Legends of
    parameter values (`k=3`), generic titles (*Count*, *Value*), captions FL202
    already reports as generic and captions written mostly in another script than Latin
    are left alone. Caps caption consistency (C) at 6.

    Why is this bad?
    A reader looks at the caption to learn what is compared and how it is measured. The
    SciFigQual-Bench rubric caps C at 6 when a caption describes the figure but omits
    the key metric or the compared groups; in its human gold this is the most common
    caption defect.

    Example:
    A plot of *top-1 accuracy* with a legend *ResNet-50*, *ViT-B/16* captioned
    `\\caption{Training curves over 90 epochs on ImageNet.}`

    Use instead:
    `\\caption{Top-1 accuracy of ResNet-50 and ViT-B/16 over 90 training epochs on ImageNet.}`
    """
    if not fig.has_caption or not latin_script(fig.caption.text):
        return  # (the caption's words cannot be compared with the figure's in another script)
    text = fig.caption.text
    if caption_verdict(text)[0] is not None:
        return  # FL202 reports a generic caption; one cap for one defect
    ans = _figure_analyses(fig, ctx)
    if not _readable(ans):
        return
    content = figure_content(ans)
    # the subcaptions are read with the caption: "(a) Latency of our system and the baseline"
    # names the groups of panel (a) as well as the main caption would
    said = " ".join([text] + [p.caption for p in fig.subpanels if p.caption])
    words = set(norm_words(said))
    compact = _compact(said)
    own = bool(words & OWN_WORDS)
    groups = [g for g in content["legend"] if not _param_like(g)]
    missing: list[str] = []
    named_groups: list[str] = []
    if len(groups) >= int(ctx.option("min-legend-entries")) and len(groups) == len(content["legend"]):
        for g in groups:
            keys = _key_words(g)
            gw = set(norm_words(g))
            if (own and gw & OWN_WORDS) or any(_matches(k, words) for k in keys) or (
                    len(_compact(g)) >= 3 and _compact(g) in compact):
                named_groups.append(g)
        if not named_groups:
            missing.append("groups")
    metric_words = sorted({w for t in content["titles"] for w in _key_words(_UNITS_PAREN.sub(" ", t))
                           if w not in GENERIC_AXIS_WORDS})
    named_metric = [w for w in metric_words if _matches(w, words)]
    if metric_words and not named_metric:
        missing.append("metric")
    if not missing:
        return
    what = []
    if "groups" in missing:
        what.append("the compared groups (legend: " + ", ".join(f"'{g}'" for g in groups[:6]) + ")")
    if "metric" in missing:
        what.append("the metric (axis: " + ", ".join(f"'{t}'" for t in content["titles"][:3]) + ")")
    yield ctx.finding(
        "caption names none of " + " and none of ".join(what) + ": say what is compared and how it is measured",
        figure=fig,
        location=_caption_location(fig),
        evidence={"caption": text, "legend": content["legend"], "axis_titles": content["titles"],
                  "missing": missing, "metric_words": metric_words},
        origin="figure",
    )


# Panel letters in a caption, lower or upper case in parentheses ("(a)", "(A) ...", "(A-C)").
_CAP_PANEL = lazy(r"\(\s*([a-hA-H])\s*\)|\(\s*([a-hA-H])\s*[-\u2013,]\s*([a-hA-H])\s*\)|(?<![A-Za-z(_^])([a-hA-H])\)"
                        r"|\b[Pp]anels?\s+\(?([a-hA-H])\b(?:\)?\s*(?:and|,|-|\u2013|to)\s*\(?([a-hA-H])\b)?")
_CAP_POSITION = lazy(
    r"\b(left|right|top|bottom|middle|upper|lower|center|centre|row|rows|column|columns|panel|panels|"
    r"inset|subfigure|subfigures|subplot|subplots|first|second|third)\b", re.IGNORECASE)


# A key opening a sentence of the caption: "A: ...", "B & C: ...", "E-H: ...", "a, ...", "b-d, ..."
# (Nature style), or a bare capital before a capitalised word ("A Compilation time. B Kernel
# time."), which counts only when the caption has at least keys A and B that way (a lone "A"
# opening a sentence is the article).
_KEY_START = lazy(r"(?:^|(?<=[.;!?])\s+)([A-Ha-h])(?:\s*(?:[-\u2013,&]|and|to)\s*([A-Ha-h]))?"
                        r"(?:\s*([:,])\s|\s+(?=[A-Z]))")


def _sentence_keys(text: str) -> set[str]:
    out: set[str] = set()
    bare: set[str] = set()
    for m in _KEY_START.finditer(text):
        first, second, punct = m.group(1), m.group(2), m.group(3)
        if second and (first.isupper() != second.isupper()):
            continue
        letters = [first.lower()] + ([second.lower()] if second else [])
        if second and re.search(r"[-\u2013]|\bto\b", m.group(0)):
            lo, hi = sorted(letters)
            letters = [chr(c) for c in range(ord(lo), ord(hi) + 1)]
        if punct:
            out.update(letters)
        elif first.isupper():
            bare.update(letters)
    if {"a", "b"} <= bare:
        out |= bare
    return out


def _closes_open_paren(text: str, i: int, reach: int = 40) -> bool:
    """Whether the letter at i closes a function's argument list opened within `reach`
    characters before it ("f(x, c)", "g_2(t,c)": the parenthesis follows a name), not a key
    standing on its own nor one inside a parenthesised aside ("(left: a)", "(see a)")."""
    opened, closed = text.rfind("(", max(0, i - reach), i), text.rfind(")", max(0, i - reach), i)
    return opened > closed and opened > 0 and (text[opened - 1].isalnum() or text[opened - 1] in "_}^")


def caption_panels(text: str, number: str | None = None) -> set[str]:
    """Panel letters a caption refers to: (a), (a-c), (a, b), a), A), panel b, panels a and c;
    keys opening its sentences (A: ..., b-d, ...), and, given the figure's number, 'Figure 7a'."""
    text = normalize(_strip_latex(text))
    out: set[str] = set()
    for m in _CAP_PANEL.finditer(text):
        raw = [g for g in m.groups() if g]
        before = re.search(r"([A-Za-z]+)\s*$", text[:m.start()])
        if raw and raw[0].isupper() and before and before.group(1)[0] == raw[0]:
            continue  # an abbreviation: "Control (C)", not panel C
        if m.group(4) and m.group(4).isupper() and text[:m.start()].count("(") > text[:m.start()].count(")"):
            continue  # "(type A)" closes a parenthesis; a key "A) the control ..." opens nothing
        if m.group(4) and m.group(4).islower() and _closes_open_paren(text, m.start()):
            continue  # "f(x, c)": a function's last argument, not a key "c) the control ..."
        groups = [g.lower() for g in raw]
        if len(groups) == 2 and re.search(r"[-\u2013]|\bto\b", m.group(0)):
            lo, hi = sorted(groups)
            out.update(chr(c) for c in range(ord(lo), ord(hi) + 1))
        else:
            out.update(groups)
    if not out:
        # keys opening sentences count only when they are the caption's own style: beside
        # "(a) ... (e) ..." a sentence "f: flagella." keys a label drawn in a panel
        out = _sentence_keys(text)
    if number:
        # "Figure 10a shows ..., Fig. 10b the ...": the caption names its own panels by number,
        # after the figure word ("a 3d representation" in a caption of Figure 3 names none)
        for m in re.finditer(r"(?i:\bfig(?:ure)?s?\.?)\s*" + re.escape(str(number)) + r"\s?\(?([a-h])\)?(?![\w])", text):
            out.add(m.group(1))
    return out


def figure_panels(fig: Figure, ans: list) -> tuple[list[str], str, bool]:
    """(panel letters, where from, all standalone) — LaTeX subfigures or printed labels."""
    if fig.subpanels:
        letters = [p.label for p in fig.subpanels]
        return letters, "subfigures", not any(p.caption.strip() for p in fig.subpanels)
    found: list = []
    for an in ans:
        try:
            found += an.get("panels")
        except Exception:  # noqa: BLE001
            continue
    letters = sorted({p.label for p in found})
    return letters, "labels", bool(found) and all(p.standalone for p in found)


def _first_row_size(ans: list) -> int:
    """How many panel labels share the top row of the figure's reading (1 when none is read)."""
    best = 1
    for an in ans:
        try:
            found = an.get("panels")
        except Exception:  # noqa: BLE001
            continue
        if not found:
            continue
        top = min(found, key=lambda p: p.bbox[1])
        h = max(top.bbox[3] - top.bbox[1], 1.0)
        best = max(best, sum(1 for p in found if abs(p.bbox[1] - top.bbox[1]) <= h))
    return best


@rule("FL206", "caption-panel-mismatch", severity="warning", dimension="caption_consistency")
def caption_panel_mismatch(fig: Figure, ctx: Context):
    """Caption refers to panels the figure does not have, or ignores the panels it has.

    What it does:
    Collects the panels of the figure — LaTeX subfigures, or panel labels printed in it:
    (a), (b), a), or bare A, B at panel corners — and the panels the caption names:
    (a), (a–c), a), panel b, keys opening its sentences (*A: ...*, *b–d, ...*, or
    *A Loss ... B Accuracy ...* when both A and B open one), and the figure's own number
    with a letter (*Figure 7a shows ...*). A letter the figure prints, and the letters
    after it in its row of panels (as wide as the first row), count as the figure's
    panels: a reading of a raster can drop a bold letter. Reports a caption that names a panel beyond the last one
    the figure has ("(c)" when the figure has (a) and (b)), and a figure with two or more
    labelled panels, without sub-captions, whose caption never refers to a panel at all
    (no letters, no *left*/*top*/*panel*).

    Why is this bad?
    Panel letters are how a caption tells the reader which part shows what. A letter
    that points nowhere sends the reader searching, usually because panels were
    removed or reordered after the caption was written; labelled panels the caption
    never explains leave the reader to guess what each one shows.

    Example:
    A figure with panels (a) and (b), captioned
    `\\caption{(a) Loss and (b) accuracy during training; (c) test accuracy.}`

    Use instead:
    `\\caption{(a) Training loss and (b) test accuracy of ResNet-50 over 90 epochs.}`
    """
    if not fig.has_caption:
        return
    text = fig.caption.text
    ans = _figure_analyses(fig, ctx) if not fig.subpanels else []
    if not fig.subpanels and not _readable(ans):
        return
    letters, source, standalone = figure_panels(fig, ans)
    if len(letters) < 2:
        return
    named = caption_panels(text, fig.number)
    last = max(letters)
    extra = sorted(x for x in named if x > last)
    if extra and source == "labels":
        # A letter the figure does print as a label of its own (a lower row's "c", "d", which
        # the corner test rejects because the upper row stands above it) is a panel the
        # reading missed, not a panel the figure lacks.
        printed = {m.group(1).lower() for an in ans for t in an.tokens
                   if (m := re.fullmatch(r"\(?([A-Za-z])[.:)]?", t.text.strip()))}
        extra = [x for x in extra if x not in printed]
        # Panels come in rows as wide as the first: the row of the last letter the figure prints
        # (in the run a, b, c, ...) has room for the letters after it that a reading of a raster
        # missed (bold letters OCR drops), so those are not panels the figure lacks.
        run = 0
        while chr(ord("a") + run) in printed | set(letters):
            run += 1
        per_row = _first_row_size(ans)
        room = -(-run // per_row) * per_row
        extra = [x for x in extra if ord(x) - ord("a") >= room]
    evidence = {"caption": text, "figure_panels": letters, "panels_from": source, "caption_panels": sorted(named)}
    if extra:
        shown = ", ".join(f"({x})" for x in extra)
        yield ctx.finding(
            f"caption refers to panel{'s' if len(extra) > 1 else ''} {shown}, but the figure has only "
            + ", ".join(f"({x})" for x in letters),
            figure=fig, location=_caption_location(fig), evidence={**evidence, "extra": extra}, origin="figure")
        return
    if not named and standalone and not _CAP_POSITION.search(normalize(_strip_latex(text))):
        yield ctx.finding(
            "figure has panels " + ", ".join(f"({x})" for x in letters)
            + " but the caption never says what each panel shows",
            figure=fig, location=_caption_location(fig), evidence=evidence, origin="figure")


_NUM_IN_TEXT = lazy(r"(?<![\w.\-/])(\d+(?:\.\d+)?)(\s*%)?")
_CAP_NUMBER = lazy(r"(?<![\w.])([-+±]?)(\d+(?:,\d{3})*(?:\.\d+)?)(\s*(?:%|\\%|percent\b|×|x\b|times\b))?")
_REF_WORDS = lazy(
    r"(?:fig(?:ure)?s?|tables?|tab|sec(?:tion)?s?|eqs?|equations?|appendix|algorithms?|alg|chapters?|lines?|"
    r"theorems?|lemmas?|definitions?|corollary|propositions?|steps?|layers?|stages?|v|ver|version|rows?|columns?|"
    r"panels?|seeds?|runs?|blocks?|§§?|¶)\.?\s*$", re.IGNORECASE)
_SETTING_WORDS = lazy(
    r"(?:rate|lr|threshold|dropout|temperature|decay|momentum|weight|alpha|beta|gamma|lambda|epsilon|sigma|"
    r"coefficient|margin|p|p-value|significance|level|budget|ratio of|size|of size|top|k|n|=|<|>|≤|≥|~|≈|±)\s*$",
    re.IGNORECASE)


# Conventional coverage levels (1, 2, 3 sigma; 50 ... 99 %) and the words that say a percentage is
# the level of an error, interval or region drawn in the figure ("68% errors", "95% HPD bounds",
# "68 % highest-density interval", "68% (95%) errors"): a setting of how the spread is drawn.
_LEVELS = {50.0, 68.0, 68.3, 68.27, 80.0, 90.0, 95.0, 95.4, 95.45, 99.0, 99.7, 99.73}
_SPREAD_WORDS = lazy(
    r"\b(?:errors?|uncertaint(?:y|ies)|dispersions?|scatter|spreads?|intervals?|HPDs?|HDIs?|highest|credib\w*|"
    r"confiden\w*|percentiles?|quantiles?|regions?|contours?|bands?|bounds?|limits?|levels?|envelopes?|"
    r"C\.?L\.?|CI|CrI)\b", re.IGNORECASE)
# Units of measure: a number with one is a physical quantity of the object or setup shown (a
# 9.6 M_sun progenitor, the 1.4 um band, a period of 4.02 hr), read off an axis if at all, not a
# value label the figure prints.
_UNIT = lazy(
    r"(?:\s|\\[,;: ])*(?:\^?\{?(?:\\circ|[°◦∘])\}?|[LMR]_?⊙|(?:(?:[kMGTmμµnp]?(?:m|s|Hz|eV|K|g|W|V|J|Pa|bar|pc|yr)|hrs?|h|"
    r"min|days?|AU|au|[LMR]_?\{?\\?odot\}?|Msun|Lsun|mag|dex|deg|arcsec|arcmin|mas|Jy|mJy|erg|"
    r"\\?mu\s*m|\\micron|μm|µm)(?![A-Za-z])))")


def _coverage_level(value: float, t: str, end: int) -> bool:
    """A conventional level followed, in its clause, by the error or region it sets."""
    if value not in _LEVELS:
        return False
    clause = re.split(r"[.;:]\s", t[end:end + 48])[0]
    return bool(_SPREAD_WORDS.search(clause))


def caption_numbers(text: str, number: str | None = None) -> list[dict]:
    """Measured values a caption states: decimals, percentages and ratios, not names or settings.

    Skipped: citations ([12]), figure/section/table numbers, years, numbers inside names
    (CIFAR-10, ResNet-50, top-5, GPT-4), settings after "=" or "rate", "threshold", ...,
    ranges (0.2-0.8, from 10 to 20, between), values with ± (spreads), bare integers;
    interval levels (68% errors), quantities with units (9.6 M_sun, 4.02 hr), significances
    (2.7 sigma), thresholds compared with a variable (0.01 <= p), interval bounds ([0.04; 2.86[),
    a setting's alternatives (x=0 (left) and 7.5 (right)), approximate figures (~93x) and
    statistics over all the plotted items (1.2 over all positions). Given the figure's
    number, when it is numbered by chapter (3.8), a number alone in parentheses written the
    same way from an earlier or the same chapter ("synthesized by WFS (2.55)") is an
    equation number.
    """
    chapter = re.fullmatch(r"[A-Z]?(\d+)\.\d+", str(number or "").strip())
    t = normalize(_LATEX_CMD_DROP.sub(" ", text)).replace("\\%", "%").replace("$", "")
    t = re.sub(r"\\pm\b\s*", "± ", t).replace("\\times", "×")
    t = re.sub(r"\[[\d,;\s\-\u2013]+\]", " ", t)  # numeric citations
    out = []
    for m in _CAP_NUMBER.finditer(t):
        sign, num, suffix = m.group(1), m.group(2), (m.group(3) or "").strip()
        end = m.end(0)
        # the text before the sign: "I = -69.3" is a setting as "I = 69.3" is
        before, after = t[max(0, m.start(0) - 24):m.start(0)], t[end:end + 12]
        unit = _UNIT.match(t, m.end(2)) if not suffix else None
        after_unit = t[unit.end():unit.end() + 12] if unit else after
        if sign == "±" or re.match(r"\s*±", after) or re.match(r"\s*±", after_unit) or re.search(r"±\s*$", before):
            continue  # a value given with its uncertainty (85.3 ± 0.4, -69.26° ± 0.01°): a spread or an estimate
        if unit:
            continue  # a physical quantity (9.6 M_sun, 4.02 hr, 1.4 um, -16.2°): the setup, not a value label
        if re.match(r"\s*(?:σ|\\sigma\b|sigma\b)", t[m.end(2):m.end(2) + 8]):
            continue  # a number of standard deviations (2.66 sigma): a significance or a level
        if re.match(r"\s*(?:<=?|>=?|≤|≥|\\[lg]e(?:q)?(?![A-Za-z])|\\[lg]t(?![A-Za-z]))\s*[A-Za-z]", t[end:end + 10]):
            continue  # "0.01 <= p < 0.05": a threshold compared with a variable
        if re.search(r"[\[\]]\s*[-+]?\d[\d.]*\s*[;,]\s*$", before) or (
                re.search(r"[\[\]]\s*$", before) and re.match(r"\s*[;,]\s*[-+]?\d", after)):
            continue  # a bound of an interval written [0.04; 2.86[ or [0, 1]: a bin's or a range's limits
        if (chapter and not sign and not suffix and re.fullmatch(r"[1-9]\d?\.[1-9]\d{0,2}", num)
                and re.search(r"\(\s*$", before) and re.match(r"\s*\)", t[end:end + 3])
                and int(num.split(".")[0]) <= int(chapter.group(1))):
            continue  # "(2.55)" under Figure 3.8: an equation numbered by chapter, as the figures are
        if suffix in ("%", "percent") and _coverage_level(float(num.replace(",", "")), t, end):
            continue  # "68% errors", "95% HPD bounds": the level the spread is drawn at
        if re.search(r"(?:∼|≃|≈|~|\b(?:about|approximately|roughly|nearly|around|some))\s*$", before, re.IGNORECASE):
            continue  # an approximate figure (~93x better): read off the chart, not a printed value
        if re.match(r"\s*(?:%|[A-Za-z]{1,4})?\s*(?:over|across|averaged\s+over)\s+(?:all|every|the\s+whole)\b",
                    t[m.end(2):m.end(2) + 40], re.IGNORECASE):
            continue  # a statistic over all the plotted items ("is 1.2 over all positions")
        if re.match(r"\s*(?:CI\b|C\.I\.|CrI\b|HDI\b|HPD|PI\b|UI\b|confiden|credib|interval|percentile|quantile|"
                    r"posterior|predictive|prediction|uncertainty|coverage|threshold|cut-?off|filter|significance|"
                    r"of\b|th\b)", t[end:end + 14], re.IGNORECASE):
            continue  # "95% CI", "10% of the data": a level or a share of the setup, not a plotted value
        if (re.match(r"[.]\d|/\S", t[m.end(2):m.end(2) + 2]) or re.search(r"\d[.]$|doi:?\s*$|\^\{?\s*$", before,
                                                                             re.IGNORECASE)):
            continue  # part of an identifier or an exponent: GCC 7.5.0, DOI 10.5281/..., 10^10.5
        if re.search(r"\d\s*[×x]\s*$", before) or re.match(r"\s*[×x]\s*\d", t[m.end(2):m.end(2) + 6]):
            continue  # a size: 1024 × 1024
        if re.search(r"\d\s+(?:out\s+)?of\s+\d[\d,]*\s*\(?\s*$", before):
            continue  # "1035 out of 1134 (91%)": a statistic derived from the plotted points
        if re.search(r"(?:correlation|coefficient|rho|ρ|tau|τ|R\^?2|R²)\s*(?:of|is|was)?\s*$", before, re.IGNORECASE):
            continue  # a statistic computed from the plotted data, not a value it prints
        if re.search(r"\d\s*(?:%|[A-Za-z]{1,4})?\s*(?:\([A-Za-z ]{1,12}\))?,?\s+(?:and|or)\s+$", before) or re.match(r"\s*(?:%|[A-Za-z]{1,4})?\s*,?\s*(?:and|or)\s+\d", after):
            continue  # a list of values (4.0, 2.0, 1.0 and 0.5 bar): the settings of the runs shown
        if re.search(r"[A-Za-z][\-_]?$", before) or re.match(r"[A-Za-z]", t[m.end(2):m.end(2) + 1] or " ") and not suffix:
            continue  # part of a name: CIFAR-10, ResNet50, 3D, 10k
        if _REF_WORDS.search(before) or _SETTING_WORDS.search(before):
            continue
        if re.search(r"(?:\d\s*[\-\u2013/:]|\bfrom\s+|\bbetween\s+|\bto\s+|\bthan\s+|\bover\s+|\bunder\s+|\bbelow\s+|\babove\s+)\s*$",
                     before) or re.match(r"\s*(?:[\-\u2013/:]\s*\d|to\s+\d|and\s+\d|,\s*[-+]?\d)", after):
            continue  # ranges, lists, thresholds, times, ratios written n/m
        value = float(num.replace(",", ""))
        percent = suffix in ("%", "percent")
        ratio = suffix in ("×", "x", "times")
        if "." not in num and not percent and not ratio:
            continue  # bare integers: counts of seeds, epochs, layers, rarely printed in the figure
        if float(value).is_integer() and 1900 <= value <= 2100:
            continue
        decimals = len(num.split(".")[1]) if "." in num else 0
        out.append({"text": m.group(0).strip(), "value": value, "decimals": decimals,
                    "percent": percent, "ratio": ratio})
    return out


def figure_numbers(ans: list) -> tuple[list[tuple[float, int]], list[tuple[float, int]]]:
    """Numbers printed in the figure as (value, decimals): all of them, and those not tick labels."""
    nums: list[tuple[float, int]] = []
    labels: list[tuple[float, int]] = []
    for an in ans:
        tick_boxes = {tuple(t.bbox) for a in an.axes for t in a.ticks}
        for tok in an.tokens:
            for num, _pct in _NUM_IN_TEXT.findall(normalize(tok.text).replace(",", "")):
                n = (float(num), len(num.split(".")[1]) if "." in num else 0)
                nums.append(n)
                if tuple(tok.bbox) not in tick_boxes and not tok.rotated:
                    labels.append(n)
    return nums, labels


def _close(v: float, dv: int, f: float, df: int, slack: float = 1.0) -> bool:
    tol = 0.5 * 10 ** (-min(dv, max(df, 0))) * slack + 1e-9
    return abs(v - f) <= tol


def number_shown(n: dict, nums: list[tuple[float, int]], labels: list[tuple[float, int]] | None = None) -> bool:
    """Whether a stated value is printed (rounded, as percent or fraction), or derives from two value labels."""
    v, dv = n["value"], n["decimals"]
    for f, df in nums:
        if _close(v, dv, f, df) or _close(v, dv, f * 100, df - 2) or _close(v, dv, f / 100, df + 2):
            return True
    # a difference, ratio or relative change of two printed value labels ("+3.2 points", "2.1x")
    vals = sorted({f for f, _ in (labels if labels is not None else nums)})[:60]
    for i, a in enumerate(vals):
        for b in vals[i + 1:]:
            cands = [b - a, (b - a) * 100]
            if n["ratio"] and a > 0:
                cands.append(b / a)
            if n["percent"] and a > 0:
                cands.append((b - a) / a * 100)
            if any(_close(v, dv, c, dv, slack=2.0) for c in cands):
                return True
    return False


@rule(
    "FL207",
    "caption-numbers-absent",
    severity="warning",
    dimension="caption_consistency",
    options={"min-value-labels": 2},
)
def caption_numbers_absent(fig: Figure, ctx: Context):
    """Caption states values that the figure's printed numbers do not show.

    What it does:
    Reads the measured values a caption states — decimals, percentages, ratios — and
    looks for each among the numbers printed in the figure (value labels, tick labels,
    legend entries), allowing rounding (85.31 printed, 85.3 stated), percent and
    fraction forms (0.853 and 85.3 %), and differences or ratios of two printed values
    ("+3.2 points", "2.1x"). Only figures that print their own values (at least
    `min-value-labels` numbers that are not tick labels) are checked. Years,
    citations, figure/section/table numbers, numbers in names (CIFAR-10, ResNet-50),
    settings ("learning rate 0.001", "p = 0.05"), interval levels ("95 % CrI"), sizes
    ("1024 × 1024"), lists of run settings ("4.0, 2.0 and 0.5 bar"), identifiers (versions,
    DOIs), exponents, statistics derived from the data ("rank correlation 0.81", "1035 out
    of 1134 (91 %)", "2.7σ", "1.2 over all positions"), levels of drawn errors ("68 % (95 %)
    errors"), quantities with units ("a 9.6 M☉ star", "folded at 4.02 hr"), thresholds
    ("0.01 ≤ p"), bin bounds ("[0.04; 2.86["), a setting's alternatives ("α = 0 (left) and
    0.35 (right)"), approximate figures ("∼93×"), ranges, spreads (± 0.4) and bare integers
    are ignored.

    Why is this bad?
    A value in the caption that the figure does not show is either stale (the figure
    was regenerated and the caption was not) or a typo; either way the reader cannot
    check it, and a caption that disagrees with its figure is a mismatch (C 3–4 in the
    rubric).

    Example:
    Bars labelled 85.3, 78.1 and 72.4, captioned
    `\\caption{Our model reaches 87.5\\% F1 on SST-2, ahead of BERT.}`

    Use instead:
    `\\caption{Our model reaches 85.3\\% F1 on SST-2, ahead of BERT (80.2\\%).}`
    """
    if not fig.has_caption:
        return
    stated = caption_numbers(fig.caption.text, fig.number)
    if not stated:
        return
    ans = _figure_analyses(fig, ctx)
    if not _readable(ans) or any(an.source == "raster" and min((t.conf for t in an.tokens), default=0) < 0.8 for an in ans):
        return  # numbers read by uncertain OCR cannot prove a value absent
    nums, labels = figure_numbers(ans)
    if len(labels) < int(ctx.option("min-value-labels")):
        return
    absent = [n for n in stated if not number_shown(n, nums, labels)]
    if not absent:
        return
    shown = ", ".join(f"'{n['text']}'" for n in absent[:4])
    yield ctx.finding(
        f"caption states {shown}, which the figure's printed values do not show: check the caption against the figure",
        figure=fig, location=_caption_location(fig),
        evidence={"caption": fig.caption.text, "absent": [n["text"] for n in absent],
                  "stated": [n["text"] for n in stated], "figure_numbers": sorted({f for f, _ in nums})[:40]},
        origin="figure")
