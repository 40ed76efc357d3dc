"""FL2xx: the caption, read against what a caption must do (C dimension)."""

from __future__ import annotations

from figlint.model import Figure
from figlint.rules.registry import Context, rule
from figlint.text import content_words

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
    `min-caption-words` content words in all. Caps caption consistency (C) at 6.

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
    if not fig.has_caption:
        return
    text = fig.caption.text
    why, words, specific = caption_verdict(
        text, int(ctx.option("min-caption-words")), int(ctx.option("min-specific-words"))
    )
    if why is None:
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
