"""FL3xx: how the text refers to each figure (CTX dimension)."""

from __future__ import annotations

import re

from figlint.lazyre import lazy
from figlint.model import CitingSite, Figure, Paper
from figlint.rules.registry import Context, rule
from figlint.mentions import sentence_spans
from figlint.text import POINTER_WORDS, content_words, latin_script

_MENTION_RE = lazy(
    r"\b(?:fig(?:ure)?s?\.?|panels?)\s*~?\s*[A-Z]?\d+(?:[.\u00b7\u22c5]\d+)?(?:\s*\(?[a-z]\)?)?"
    r"(?:\s*(?:,|and|&|-|–|to)\s*[A-Z]?\d+(?:\s*\(?[a-z]\)?)?)*",
    re.IGNORECASE,
)


def site_order(site: CitingSite, paper: Paper) -> tuple:
    """Reading-order key: the ingester's order when known, else page, column, y."""
    if site.order is not None:
        return (0, site.order, 0.0)
    loc = site.location
    page = loc.page or 0
    if loc.bbox is None:
        return (1, page, 0.0, loc.line or 0)
    # Column order matters only in multi-column layouts; in one column a mention
    # can start anywhere on its line.
    width = paper.page_size[0] if paper.page_size else 612.0
    column = 1 if paper.extra.get("columns", 1) >= 2 and loc.bbox[0] > width / 2 else 0
    return (1, page, column, loc.bbox[1])


# What a sentence that reads a figure says: a comparison or a trend, an agreement, or the
# marks it points at. A sentence after a pointer that says one of these is the reading the
# pointer introduced ("... is shown in Fig. 2. The ratio stays below unity on all scales").
_READING_RE = lazy(
    r"\b(?:\w+er than|more than|less than|fewer than|higher|lower|larger|smaller|greater|"
    r"highest|lowest|largest|smallest|best|worst|"
    r"increas\w*|decreas\w*|declin\w*|grow\w*|drops?|dropp\w*|rises?|rising|falls?|falling|peaks?|peaked|"
    r"converg\w*|diverg\w*|remains?|stays?|exceed\w*|outperform\w*|improv\w*|reduc\w*|"
    r"agree\w*|match\w*|consistent|deviat\w*|depart\w*|similar\w*|differ\w*|correlat\w*|trends?|"
    r"steadily|sharply|significantly|prevalent|dominat\w*|"
    r"lines?|curves?|bars?|bands?|dots?|markers?|arrows?|boxes|blocks?|shaded|dashed|dotted|"
    r"colou?r(?:ed|s)?|red|blue|green|black|gr[ae]y|orange|purple|"
    r"x-axis|y-axis|axis|axes|histogram|we (?:see|observe|note|find)|can be seen|is visible|"
    r"\d+(?:\.\d+)?\s*%)\b",
    re.IGNORECASE,
)
READING_WINDOW = 2  # sentences after the pointer that may carry its reading


def reading_follows(site: CitingSite) -> bool:
    """Whether one of the next sentences of the paragraph reads the figure the pointer
    points at: it states a comparison, a trend or an agreement, or names the figure's marks,
    and cites no other figure (a sentence that does belongs to that figure)."""
    para, sentence = site.paragraph or "", (site.sentence or "").strip()
    if not para or not sentence:
        return False
    at = para.find(sentence[:60])
    if at < 0:
        return False
    end = at + len(sentence)
    following = [para[a:b] for a, b in sentence_spans(para) if a >= end - 1][:READING_WINDOW]
    for text in following:
        if _MENTION_RE.search(text) or re.search(r"\\[a-z]*ref\b", text):
            return False
        if _READING_RE.search(text):
            return True
    return False


def _word_key(w: str) -> str:
    """A word's key for overlap: plural off, the first five letters of a long word
    ("energies" and "energy", "illuminates" and "illumination" share one)."""
    w = w.lower().rstrip("s") if len(w) > 3 else w.lower()
    return w[:5] if len(w) > 5 else w


def _keys(text: str) -> set[str]:
    return {_word_key(w) for w in content_words(text, POINTER_WORDS) if len(w) > 2 and not w.isdigit()}


# a sentence that cites a figure, printed ("Fig. 3") or in LaTeX ("Figure~\ref{...}", \cref{fig:...});
# a \ref to a table or an equation is not one
_FIGURE_CITE = lazy(r"\bfig(?:ure)?s?\.?\s*~?\s*(?:\(?\s*\\[a-z]*ref|\(?\d)|\\[a-zA-Z]*ref\*?\{[^}]*fig", re.I)
EXPLAINED_SENTENCES = 2  # sentences of the paragraph before a closing pointer that explain the figure


def reading_precedes(site: CitingSite, caption: str) -> bool:
    """Whether the pointer closes a paragraph that has just explained the figure: it is the
    paragraph's last or next-to-last sentence, and the sentences before it (at least
    EXPLAINED_SENTENCES, citing no other figure) name what the caption names: three of its
    words, or half of a short caption's ("... each antenna illuminates the centre of its
    section. Fig. 6 depicts this scenario." under "Partial illumination")."""
    para, sentence = site.paragraph or "", (site.sentence or "").strip()
    if not para or not sentence or not caption:
        return False
    at = para.find(sentence[:60])
    if at < 0:
        return False
    spans = sentence_spans(para)
    before = [para[a:b] for a, b in spans if b <= at + 1]
    after = [para[a:b] for a, b in spans if a >= at + len(sentence) - 1 and para[a:b].strip()]
    if len(after) > 1:
        return False
    told: list[str] = []
    for t in reversed(before[-4:]):
        if _FIGURE_CITE.search(t):
            break  # the explanation runs back to the last sentence that cites a figure
        told.append(t)
    if len(told) < EXPLAINED_SENTENCES:
        return False
    cap = _keys(caption)
    shared = cap & _keys(" ".join(told))
    return len(shared) >= 3 or (bool(cap) and 2 * len(shared) >= len(cap))


def is_bare_pointer(site: CitingSite, max_claim_words: int) -> bool:
    """True when the sentence only points at the figure ("see Figure 3", "shown in Fig. 3")."""
    sentence = site.sentence or site.paragraph
    if site.mention:
        sentence = sentence.replace(site.mention, " ")
    sentence = _MENTION_RE.sub(" ", sentence)
    claim = content_words(sentence, POINTER_WORDS)
    return len(claim) <= max_claim_words


# a document with at least this many figures and no citation of any is one finding
UNCITED_DOCUMENT = 3


def reached_through_appendix(fig: Figure, paper) -> bool:
    """The figure is set in an appendix, the text before the appendices names one ("the
    curves of every epoch are in Appendix B", typed or printed by a reference), and no figure
    of the appendices is cited on its own: the paper sends its reader to the appendix, whose
    figures are read with it (field audit: such figures, reported uncited or unlabelled, were
    judged of no consequence on every paper). Where the text names the figure's own appendix
    by its letter, only the figures of that appendix count: a gallery in Appendix C the text
    sends its reader to is reached though a figure of Appendix A is cited on its own. Where
    the paper cites the figures of the appendix one by one, one it does not cite is an
    omission, and is reported."""
    if not fig.in_appendix:
        return False
    section = fig.extra.get("appendix_section") or ""
    if section and section in (paper.extra.get("appendix_named") or ()):
        # the text names this figure's own appendix ("Appendix C"): reached through it unless
        # a figure of that appendix is cited on its own
        return not any(f.sites for f in paper.figures
                       if f.in_appendix and f.number and (f.extra.get("appendix_section") or "") == section)
    if not paper.extra.get("appendix_cited"):
        return False
    return not any(f.sites for f in paper.figures if f.in_appendix and f.number)


def uncited(fig: Figure, paper) -> bool:
    """A figure FL301 reports: numbered, with no part cited (a continuation is part of the
    figure before it: cited when that one is), and not set in the margin beside the text it
    illustrates (tufte's margin figures are read where they stand)."""
    from figlint.rules.visual_fit import in_margin

    if not fig.number or fig.continuation or any(p.sites for p in paper.parts(fig)):
        return False
    return not in_margin(fig, paper)


@rule("FL301", "uncited-figure", severity="warning", dimension="context_consistency",
      options={"appendix-severity": "warning", "appendix-mention-cites": True})
def uncited_figure(fig: Figure, ctx: Context):
    """Figure is never cited in the text.

    What it does:
    Reports a numbered figure that no `\\ref`-style command and no printed "Figure N"
    in the body text refers to. A figure continued in another float (`\\ContinuedFloat`,
    which prints its number again) is one figure: cited when any of its parts is. Appendix
    figures can be given another severity with `appendix-severity`; where the text names an
    appendix as a whole ("the curves for every epoch are in Appendix B") and cites none of
    the appendix figures on their own, they are reached through it and not reported
    (`appendix-mention-cites = false` reports them). A margin figure
    (tufte's `marginfigure`, or a figure printed wholly beside the text block) stands
    next to the text it illustrates, so it is not reported. When the text cites
    none of three or more figures (a supplement whose figures the main article cites),
    that is one finding, on the first figure, not one per figure.

    Why is this bad?
    A figure the text never points to is either unneeded or a claim the paper forgot to
    make. Readers do not know when to look at it, and many venues require every figure to
    be referenced.

    Example:
    `\\label{fig:ablation}` on a figure, and no `\\ref{fig:ablation}` anywhere.

    Use instead:
    Cite it where its evidence is used: "Figure~\\ref{fig:ablation} shows that removing
    the retriever costs 7 points of recall."
    """
    if not uncited(fig, ctx.paper):
        return
    if ctx.option("appendix-mention-cites") and reached_through_appendix(fig, ctx.paper):
        return
    numbered = [f for f in ctx.paper.figures if f.number and not f.continuation]
    message = f"{fig.key} is never cited in the text"
    if len(numbered) >= UNCITED_DOCUMENT and not any(f.sites for f in ctx.paper.figures):
        # The text cites none of its figures: a supplement whose figures the main article
        # cites, or a collection of figures. One finding says so, not one per figure.
        if fig is not numbered[0]:
            return
        message = (f"none of the {len(numbered)} figures is cited in the text (if they are cited from another "
                   "document, such as the article this file supplements, ignore this)")
    marks = int(ctx.paper.extra.get("unresolved_pdf_refs") or 0)
    if marks:
        # reported beside FL012 only when more figures are uncited than the marks could cite
        message += (f" (the PDF prints '??' for {marks} reference{'s' if marks != 1 else ''}; "
                    f"{'that one' if marks == 1 else 'those'} may cite {'it' if marks == 1 else 'some of them'})")
    severity = ctx.option("appendix-severity") if fig.in_appendix else None
    yield ctx.finding(
        message,
        figure=fig,
        severity=severity,
        evidence={"labels": fig.labels, "in_appendix": fig.in_appendix},
        origin="text",
    )


@rule(
    "FL302",
    "bare-pointer-citation",
    severity="warning",
    dimension="context_consistency",
    cap=6,
    options={"max-claim-words": 2},
)
def bare_pointer(fig: Figure, ctx: Context):
    """Figure is cited only by bare pointers ("see Figure 3") that say nothing about it.

    What it does:
    Reads every sentence that cites the figure; after removing the reference and pointer
    words (*see, shown, illustrated, overview, results, ...*), a sentence with at most
    `max-claim-words` content words left is a bare pointer, unless one of the next two
    sentences of its paragraph reads the figure (states a comparison, a trend or an
    agreement, or names the figure's marks) and cites no other figure, or the pointer
    closes a paragraph (last or next-to-last sentence) whose sentences before it explain
    the figure (at least two, citing no other figure, naming three of the caption's words
    or half of a short caption's). Reports the figure
    when all its citations are bare pointers, and caps context consistency (CTX) at 6.
    Citing sentences written mostly in another script than Latin are not judged: the
    pointer words are English.

    Why is this bad?
    The text should tell the reader what to take from the figure. "Results are shown in
    Figure 3." leaves the reader to guess which trend matters and whether it supports the
    paper's claim.

    Example:
    `The overall pipeline is shown in Figure~\\ref{fig:pipeline}.`

    Use instead:
    `As Figure~\\ref{fig:pipeline} shows, the retriever runs once per document, so its cost
    is amortised over all questions.`
    """
    if not fig.sites or not all(latin_script(s.paragraph or s.sentence or "") for s in fig.sites):
        return  # (its pointer words are English: a sentence in another script is not judged)
    limit = int(ctx.option("max-claim-words"))
    caption = fig.caption.text if fig.caption else ""
    if all(is_bare_pointer(s, limit) and not reading_follows(s) and not reading_precedes(s, caption)
           for s in fig.sites):
        first = fig.sites[0]
        yield ctx.finding(
            f"{fig.key} is cited only by bare pointers ({len(fig.sites)} site"
            f"{'s' if len(fig.sites) != 1 else ''}), e.g. \"{first.sentence.strip()[:100]}\": "
            "say what the reader should see in it",
            figure=fig,
            location=first.location if first.location.line else None,
            evidence={"sentences": [s.sentence for s in fig.sites]},
            origin="text",
        )


@rule(
    "FL303",
    "citation-order",
    severity="note",
    scope="paper",
    dimension="context_consistency",
    options={"max-page-distance": 2},
)
def citation_order(paper: Paper, ctx: Context):
    """Figure is first cited far from where it appears, or out of numbering order.

    What it does:
    Compares the page where each figure appears with the page of its first citation and
    reports figures more than `max-page-distance` pages apart (either way). Also reports the
    figures cited out of numbering order: those outside the longest run of figures whose
    first citations follow their numbers (one figure cited late is one finding, not one per
    figure after it). A mention inside a caption does not count as a first citation. Appendix
    figures are not checked.

    Why is this bad?
    Readers meet figures by number and look for the discussion nearby. A figure pages
    away from its first mention makes them flip back and forth; an out-of-order first
    citation means the figures are numbered in a different order from the argument.

    Example:
    Figure 5 is on page 3 but first cited on page 7; or the text cites Figure 4 before
    it ever mentions Figure 3.

    Use instead:
    Move the figure environment next to the paragraph that first cites it (`[t]`
    placement near that paragraph), and cite figures first in their numbering order.
    """
    max_distance = int(ctx.option("max-page-distance"))
    captions = [re.sub(r"\s+", " ", f.caption.text) for f in paper.figures if f.caption and f.caption.text]
    main = [f for f in paper.figures if f.number and not f.in_appendix and f.sites]
    firsts = {}
    for fig in main:
        # A mention inside a caption (an overview figure pointing ahead) is not where the
        # text takes the figure up: the first citation is the first one in running text.
        text_sites = [s for s in fig.sites if not _in_caption(s, captions)]
        if text_sites:
            firsts[fig.number] = min(text_sites, key=lambda s: site_order(s, paper))
    for fig in main:
        first = firsts.get(fig.number)
        if first is None:
            continue
        if fig.page and first.location.page:
            distance = first.location.page - fig.page
            if abs(distance) > max_distance:
                where = "before" if distance > 0 else "after"
                yield ctx.finding(
                    f"{fig.key} appears on page {fig.page}, {abs(distance)} pages {where} its "
                    f"first citation (page {first.location.page})",
                    figure=fig,
                    evidence={"figure_page": fig.page, "first_citation_page": first.location.page},
                    origin="text",
                )
    ordered = [f for f in paper.figures if f.number and not f.in_appendix and not f.continuation]
    rank = {f.number: i for i, f in enumerate(ordered)}
    cited = sorted((f for f in ordered if f.number in firsts), key=lambda f: site_order(firsts[f.number], paper))
    # Only the figures outside the longest run cited in numbering order are out of order:
    # one figure cited late (or early) is one misplaced figure, not every figure after it.
    # Each series is numbered in its own order: "Supplementary Fig. 3" (S3) cited before
    # Figure 2 is in order.
    in_order = set().union(*(_in_order([f for f in cited if _series(f.number) == s], rank)
                             for s in {_series(f.number) for f in cited}))
    for fig in cited:
        if fig.number in in_order:
            continue
        mine = site_order(firsts[fig.number], paper)
        own = _series(fig.number)
        earlier = next((e for e in ordered[:rank[fig.number]] if e.number in firsts and _series(e.number) == own
                        and site_order(firsts[e.number], paper) > mine), None)
        if earlier is not None:
            msg = (f"{fig.key} is first cited before {earlier.key}: figures are numbered "
                   "in a different order from the text")
        else:
            later = max((f for f in cited if rank[f.number] > rank[fig.number] and _series(f.number) == own
                         and site_order(firsts[f.number], paper) < mine), key=lambda f: rank[f.number], default=None)
            if later is None:
                continue
            msg = (f"{fig.key} is first cited after {later.key}: figures are numbered "
                   "in a different order from the text")
        yield ctx.finding(
            msg,
            figure=fig,
            location=firsts[fig.number].location if firsts[fig.number].location.line else None,
            evidence={"cited_before": earlier.number if earlier is not None else None,
                      "sentence": firsts[fig.number].sentence},
            origin="text",
        )


def _series(number: str) -> str:
    """The numbering series a figure number is in: the letters before it ("S" of S3, the
    supplement's; "ED" of ED3; "" for the main figures, "3" or "3.2")."""
    return re.match(r"[A-Z]*", number).group(0)


def _in_caption(site: CitingSite, captions: list[str]) -> bool:
    probe = re.sub(r"\s+", " ", (site.sentence or "").strip())[:60]
    return len(probe) >= 20 and any(probe in c for c in captions)


def _in_order(cited: list[Figure], rank: dict[str, int]) -> set[str]:
    """Numbers of the figures on a longest subsequence of `cited` (figures in order of first
    citation) whose numbering increases; of equally long ones, the one ending lowest, so
    that of two figures cited in swapped order the higher-numbered one is reported."""
    n = len(cited)
    if n == 0:
        return set()
    length, prev = [1] * n, [-1] * n
    for i in range(n):
        for j in range(i):
            if rank[cited[j].number] < rank[cited[i].number] and length[j] + 1 > length[i]:
                length[i], prev[i] = length[j] + 1, j
    best = max(length)
    end = min((i for i in range(n) if length[i] == best), key=lambda i: rank[cited[i].number])
    keep = set()
    while end >= 0:
        keep.add(cited[end].number)
        end = prev[end]
    return keep
