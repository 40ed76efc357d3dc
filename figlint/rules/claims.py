"""Claims in the caption and the citing text checked against what the figure shows (FL408, FL5xx).

Each rule first reads the text (cheap regular expressions over the caption and each
citing sentence) and only then, for a sentence that makes the claim it checks, the
figure analysis (figlint.features: axes, chart type, and the derived features
"series" and "uncertainty"). Precision comes first, as for the design rules: a
claim is judged only when the sentence names what it is about unambiguously and
the figure was read cleanly (vector data, clean axes, a clear trend); hedged,
negated or conditional statements are left alone. Every finding quotes the
sentence, says what was read from the figure, and carries its taxonomy label
(design.md: reasoning errors in the caption or citing text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from figlint.lazyre import lazy
from figlint.model import CitingSite, Figure, Location
from figlint.rules.registry import Context, figure_location, rule

MAX_SENTENCE = 1500  # characters of one sentence read (paper text is untrusted input)


# ---------------------------------------------------------------- the text side

@dataclass
class Claim:
    """One sentence that may make a claim about the figure: from a citing site or the caption."""

    sentence: str
    paragraph: str
    where: str  # "text" (a citing sentence) or "caption"
    location: Location | None
    site: CitingSite | None = None


_SENT_SPLIT = lazy(r"(?<=[.!?])\s+(?=[A-Z(])")


def claims_of(fig: Figure) -> Iterator[Claim]:
    """The citing sentences, then the caption's sentences (each at most MAX_SENTENCE chars)."""
    for s in fig.sites:
        sent = (s.sentence or "")[:MAX_SENTENCE]
        if sent.strip():
            loc = s.location if (s.location.line or s.location.page) else None
            yield Claim(sent, (s.paragraph or sent)[: 6 * MAX_SENTENCE], "text", loc, s)
    if fig.caption is not None and fig.caption.text:
        cap = fig.caption.text[: 4 * MAX_SENTENCE]
        loc = fig.caption.location if (fig.caption.location.line or fig.caption.location.page) else None
        for sent in _SENT_SPLIT.split(cap):
            if sent.strip():
                yield Claim(sent[:MAX_SENTENCE], cap, "caption", loc)


def _location(fig: Figure, claim: Claim) -> Location:
    return claim.location if claim.location is not None else figure_location(fig)


def _quote(sentence: str, limit: int = 160) -> str:
    s = " ".join(sentence.split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


# Statistical support named in the text: a test, a p-value, an interval, a spread.
STATS_TEXT = lazy(
    r"\bp\s*[<=≤>]|\bp-?values?\b|\bt-?tests?\b|\bwilcoxon|\bmann[- ]whitney|\banova\b|\bchi[- ]?squared?|χ\s*2|"
    r"\bbootstrap\w*|\bpermutation tests?|\bbonferroni|\bmcnemar|\bfisher'?s? exact|\bkolmogorov|\bz-?tests?\b|"
    r"\btukey|\bholm\b|\bsignificance (?:tests?|level)|\b(?:α|alpha)\s*=|\bci\b|\bconfidence intervals?|"
    r"\bcredible intervals?|±|\+/-|\+-|\bstd\b|\bstandard (?:deviations?|errors?)|\bs\.d\.|\bs\.e\.|\bsem\b|"
    r"\berror[- ]bars?\b|\bshaded\b|\bshading\b|\bvariances?\b|\bquartiles?\b|\bwhiskers?\b|\biqr\b|"
    r"\binter-?quartile|\bbox ?plots?\b|\bviolin|\bspread\b|\bpaired test|\bstatistical tests?",
    re.IGNORECASE,
)

_HEDGE = lazy(
    r"\b(?:may|might|could|can|possibly|potentially|perhaps|likely|unlikely|suggests?|suggesting|hypothes\w*|"
    r"speculate\w*|whether|if|would|should|expect\w*|presumably|plausibl\w*|cannot|can't)\b",
    re.IGNORECASE,
)
_NEGATION = lazy(r"\b(?:not|no|never|neither|nor|without|hardly|barely|n't|fails? to|none)\b|n't\b", re.IGNORECASE)


# ---------------------------------------------------------------- the figure side

def _analyses(fig: Figure, ctx: Context) -> list:
    from figlint.features import analyses

    return [an for an in analyses(fig, ctx.paper) if an.source != "empty"]


def _uncertainty_state(ans: list) -> tuple[str, dict]:
    """'shown', 'absent' (read from vector data) or 'unknown' (nothing readable), with evidence."""
    if not ans:
        return "unknown", {}
    found = {}
    reliable = True
    for an in ans:
        u = an.get("uncertainty")
        if u.shown:
            return "shown", u.to_dict()
        reliable = reliable and u.reliable
        found = u.to_dict()
    return ("absent" if reliable else "unknown"), found


def _evidence(an) -> dict:
    ev = {"chart_type": an.chart_type, "chart_confidence": round(an.chart_confidence, 2), "source": an.source}
    if "file" in an.evidence:
        ev["file"] = an.evidence["file"]
    return ev


def _fmt(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.4g}"


def _fmt_range(a: float, b: float) -> str:
    """A plotted range, rounded to its own scale (0.1722–10,000 reads as 0–10,000)."""
    if abs(b - a) >= 100:
        return f"{a:,.0f}–{b:,.0f}"
    return f"{_fmt(a)}–{_fmt(b)}"


_LOWER_BETTER = lazy(
    r"\b(?:loss|error|err|latency|time|delay|perplexity|ppl|cost|mse|rmse|mae|fct|slowdown|runtime|"
    r"wer|cer|fid|regret|distance|overhead|energy|memory|seconds|ms|miss rate|fpr|eer)\b", re.IGNORECASE)


def _values(an) -> tuple[list[float], str] | None:
    """The compared values read from a chart: bar heights, or each line's last value (one y axis)."""
    if an.chart_type == "bar" and an.bars is not None and an.bar_axis is not None and an.bar_axis.scale == "linear":
        g, ax = an.bars, an.bar_axis
        if not ax.clean or g.count < 2:
            return None
        return [ax.value_at(e) for e in g.far_ends], ax.title
    if an.chart_type == "line":
        ss = [s for s in an.get("series") if s.kind == "line"]
        if len(ss) < 2 or len({s.axis_ids[1] for s in ss}) != 1:
            return None
        return [s.points[-1][1] for s in ss], ss[0].y_title
    return None


def relative_gap(values: list[float], title: str) -> tuple[float, float, float] | None:
    """(gap, best, runner-up): the relative difference between the best value and the next one."""
    vals = sorted(values)
    if len(vals) < 2:
        return None
    if _LOWER_BETTER.search(title or ""):
        best, second = vals[0], vals[1]
    else:
        best, second = vals[-1], vals[-2]
    scale = max(abs(best), abs(second))
    if scale <= 0:
        return None
    return abs(best - second) / scale, best, second


# ---------------------------------------------------------------- FL408

_SUPERIORITY = lazy(
    r"\b(?:significantly|statistically significant|outperform\w*|better than|superior to|beats?|beating|"
    r"surpass\w*|improves? (?:up)?on|exceeds?|clearly (?:better|higher|lower|ahead)|more accurate than|"
    r"state[- ]of[- ]the[- ]art)\b",
    re.IGNORECASE,
)


@rule(
    "FL408",
    "missing-uncertainty",
    severity="warning",
    dimension="misleading_risk",
    taxonomy="statistical_nuance",
    options={"max-difference": 0.03},
)
def missing_uncertainty(fig: Figure, ctx: Context):
    """Text claims one result beats another on a small difference the figure shows without uncertainty.

    What it does:
    Reads the caption and the sentences citing the figure for claims of significance or
    superiority (*significantly better*, *outperforms*, *beats*, *superior to*). For such a
    claim it reads the compared values from the figure — bar heights on a clean value axis,
    or the last value of each line on one y axis — and the relative difference between the
    best value and the runner-up (lower is better for losses, errors, latencies). It reports
    the figure when that difference is below `max-difference` (default 3 %) and the figure
    shows no error bars, shaded bands or box plots, and no text near the claim names a
    spread or a test (±, std, confidence interval, p-value). Figures whose values or marks
    cannot be read from vector data are not judged.

    Why is this bad?
    A one-point gap between two bars means nothing until the reader knows how much the
    numbers vary between runs, seeds or samples. Claiming superiority from it, with no sign
    of variance on the chart, invites readers to over-trust a difference that may be noise
    (taxonomy: failure to account for statistical nuance).

    Example:
    `plt.bar(["baseline", "ours"], [81.2, 82.0])` and the text "our method clearly outperforms
    the baseline (Figure 3)".

    Use instead:
    Show the spread: `plt.bar(..., yerr=std, capsize=3)` over several seeds, a band with
    `fill_between`, or box plots; say what the bars are (mean ± std over 5 seeds) and, for a
    claim of significance, which test was run.
    """
    limit = float(ctx.option("max-difference"))
    ans = None
    for claim in claims_of(fig):
        m = _SUPERIORITY.search(claim.sentence)
        if m is None or _NEGATION.search(claim.sentence[max(0, m.start() - 25):m.start()]):
            continue
        if STATS_TEXT.search(claim.sentence) or STATS_TEXT.search(claim.paragraph) or (
                fig.caption is not None and STATS_TEXT.search(fig.caption.text[: 4 * MAX_SENTENCE])):
            return  # the text names a spread or a test
        if ans is None:
            ans = _analyses(fig, ctx)
        state, unc = _uncertainty_state(ans)
        if state != "absent":
            return
        for an in ans:
            read = _values(an)
            if read is None:
                continue
            vals, title = read
            gap = relative_gap(vals, title)
            if gap is None or gap[0] >= limit:
                continue
            rel, best, second = gap
            ev = _evidence(an)
            ev.update({"sentence": claim.sentence, "claim": m.group(0), "where": claim.where,
                       "values": [round(v, 4) for v in vals], "best": round(best, 4), "runner_up": round(second, 4),
                       "relative_difference": round(rel, 4), "value_title": title, "uncertainty": unc})
            yield ctx.finding(
                f"\"{_quote(claim.sentence)}\" claims superiority ('{m.group(0)}') from a "
                f"{rel * 100:.1f} % difference ({_fmt(best)} vs {_fmt(second)} read from the {an.chart_type} chart), "
                "and the figure shows no error bars, bands or box plots",
                figure=fig, location=_location(fig, claim), evidence=ev, origin="figure",
            )
            return


# ---------------------------------------------------------------- FL501

_CAUSAL = lazy(
    r"\b(?:causes|caused|causing|cause|leads? to|led to|drives|drove|driven by|results? in|resulted in|"
    r"(?:is|are|was|were) responsible for|gives? rise to|gave rise to|(?:is|are) the cause of)\b",
    re.IGNORECASE,
)
_NOT_CAUSAL_AFTER = lazy(r"^\s*(?:fig\w*|table|tab\.|section|sec\.|appendix|§|the (?:appendix|table|figure))",
                               re.IGNORECASE)
_EXPERIMENT = lazy(
    r"\b(?:experiment\w*|intervention\w*|interven\w*|ablat\w*|randomi[sz]\w*|controlled|control group|manipulat\w*|"
    r"treatment|we (?:vary|varied|increase|decrease|change|changed|set|fix|fixed|inject\w*|add|remove|perturb\w*)|"
    r"varying|by (?:increasing|decreasing|adding|removing|changing)|simulat\w*|a/b test\w*|causal|instrumental)\b",
    re.IGNORECASE,
)
_GENERIC = frozenset("""value values number numbers data rate ratio score scores time times result results
    model models method methods mean average total count percent fraction level levels index""".split())


def _vocabulary(an) -> tuple[set[str], set[str]]:
    """Words naming the x and the y quantities (axis titles, legend labels)."""
    from figlint.text import content_words

    xs, ys = set(), set()
    for a in an.axes:
        words = {w for w in content_words(a.title or "") if len(w) >= 4 and w not in _GENERIC}
        (xs if a.orient == "x" else ys).update(words)
    for s in an.get("series"):
        ys.update(w for w in content_words(s.label or "") if len(w) >= 4 and w not in _GENERIC)
    return xs, ys


def _stem(w: str) -> str:
    return w[:-1] if w.endswith("s") and len(w) > 4 else w


def _mentions(text: str, vocab: set[str]) -> bool:
    from figlint.text import content_words

    words = {_stem(w) for w in content_words(text)}
    return any(_stem(v) in words for v in vocab)


@rule(
    "FL501",
    "causal-claim-from-correlation",
    severity="warning",
    dimension="context_consistency",
    taxonomy="causal_inference",
)
def causal_claim(fig: Figure, ctx: Context):
    """Text draws a causal conclusion from a plot that only shows a correlation.

    What it does:
    Finds sentences citing a scatter plot (or a line chart over calendar years, i.e.
    observational time series) that link two quantities causally — *X causes Y*, *leads
    to*, *drives*, *results in*, *is responsible for* — where the quantities on both
    sides of the verb are named on the figure (axis titles, legend labels). Hedged
    statements (*may*, *suggests*), negations, and paragraphs that describe an experiment,
    intervention, ablation, randomisation or simulation are skipped: there the causal
    reading may be earned.

    Why is this bad?
    A scatter of two measured quantities shows that they move together, not which one moves
    the other; a third factor, reverse causation or selection can produce the same cloud.
    Stating cause from it is the classic correlation-to-causation error (taxonomy: causal
    inference).

    Example:
    A scatter of cities' ice-cream sales against drownings, cited as "Figure 2 shows that
    ice-cream sales lead to more drownings."

    Use instead:
    Say what the plot shows — "drownings rise with ice-cream sales (Figure 2; Spearman ρ =
    0.8)" — and name the likely confounder (summer heat), or cite the experiment or the
    causal analysis that supports the stronger claim.
    """
    ans = None
    for claim in claims_of(fig):
        if claim.where != "text":
            continue
        m = _CAUSAL.search(claim.sentence)
        if m is None or _NOT_CAUSAL_AFTER.match(claim.sentence[m.end():]):
            continue
        before, after = claim.sentence[: m.start()], claim.sentence[m.end():]
        if _HEDGE.search(claim.sentence) or _NEGATION.search(before[-40:]):
            continue
        if _EXPERIMENT.search(claim.paragraph) or _EXPERIMENT.search(claim.sentence):
            continue
        if ans is None:
            ans = _analyses(fig, ctx)
        for an in ans:
            if an.source != "vector":
                continue
            ser = an.get("series")
            scatter = (an.chart_type == "scatter" and an.chart_confidence >= 0.5) or (
                bool(ser) and all(x.kind == "markers" for x in ser))
            observational = scatter or (an.chart_type == "line" and any(_year_axis(a) for a in an.x_axes))
            if not observational:
                continue
            xs, ys = _vocabulary(an)
            vocab = xs | ys
            if not (vocab and _mentions(before, vocab) and _mentions(after, vocab)):
                continue
            ev = _evidence(an)
            ev.update({"sentence": claim.sentence, "causal_phrase": m.group(0),
                       "x_titles": [a.title for a in an.x_axes], "y_titles": [a.title for a in an.y_axes]})
            yield ctx.finding(
                f"\"{_quote(claim.sentence)}\" states a cause ('{m.group(0)}') from a "
                f"{'scatter' if scatter else 'time-series'} plot of observed data, which shows a correlation only",
                figure=fig, location=_location(fig, claim), evidence=ev, origin="text",
            )
            return


def _year_axis(a) -> bool:
    from figlint.features import year_like

    return a.clean and year_like(a)


# ---------------------------------------------------------------- FL502

_SIGNIFICANT = lazy(
    r"\b(?:statistically significant(?:ly)?|significantly|significant (?:improvements?|gains?|differences?|"
    r"increases?|decreases?|reductions?|drops?|boosts?|advantages?|margins?|effects?|correlations?|"
    r"speed-?ups?|degradations?|benefits?))\b",
    re.IGNORECASE,
)
_COMPARATIVE = lazy(
    r"\b(?:better|worse|higher|lower|more|less|fewer|faster|slower|larger|smaller|greater|outperform\w*|"
    r"improv\w*|reduc\w*|increas\w*|decreas\w*|boost\w*|differ\w*|exceed\w*|surpass\w*|beat\w*|enhanc\w*|"
    r"degrad\w*|drops?|dropped|lift\w*|rais\w*|lower\w*|affect\w*|impact\w*|alter\w*|chang\w*|gains?|"
    r"correlat\w*|effects?|advantages?|margins?|speed-?ups?|benefits?|shrink\w*|grow\w*|cut)\b",
    re.IGNORECASE,
)


@rule(
    "FL502",
    "significance-without-test",
    severity="warning",
    dimension="context_consistency",
    taxonomy="statistical_nuance",
)
def significance_without_test(fig: Figure, ctx: Context):
    """Text calls a difference "significant" with no test, interval or spread anywhere in sight.

    What it does:
    Finds "significant(ly)" used about a comparison (*significantly better*, *a significant
    improvement*, *statistically significant*) in the caption or a sentence citing the
    figure. Reports it when neither the sentence, its paragraph nor the caption names a
    test or a measure of spread (p-value, t-test, Wilcoxon, bootstrap, confidence
    interval, ±, std, standard error, error bars) and the figure, read from its vector
    data, shows no error bars, shaded bands or box plots. Negated uses ("not
    significantly") and figures that cannot be read are not reported.

    Why is this bad?
    "Significant" is a statistical claim. Without a test, or at least the spread that lets
    a reader judge the difference, it is an assertion dressed as a result (taxonomy:
    failure to account for statistical nuance); reviewers ask for the test.

    Example:
    "As Figure 4 shows, our model is significantly faster than the baseline." over a bar
    chart of single-run means.

    Use instead:
    Name the test and its outcome — "significantly faster (paired t-test over 10 runs,
    p < 0.01)" — and show the spread with error bars, or say "faster" and give the numbers.
    """
    ans = None
    caption_stats = fig.caption is not None and bool(STATS_TEXT.search(fig.caption.text[: 4 * MAX_SENTENCE]))
    if caption_stats:
        return
    for claim in claims_of(fig):
        m = _SIGNIFICANT.search(claim.sentence)
        if m is None:
            continue
        if _NEGATION.search(claim.sentence[max(0, m.start() - 20):m.start()]):
            continue
        if m.group(0).lower() == "significantly":
            window = claim.sentence[m.end(): m.end() + 40] + " " + claim.sentence[max(0, m.start() - 40): m.start()]
            if not _COMPARATIVE.search(window):
                continue
        if STATS_TEXT.search(claim.sentence) or STATS_TEXT.search(claim.paragraph):
            continue
        if ans is None:
            ans = _analyses(fig, ctx)
        state, unc = _uncertainty_state(ans)
        if state != "absent":
            return
        ev = {"sentence": claim.sentence, "phrase": m.group(0), "where": claim.where, "uncertainty": unc}
        if ans:
            ev.update(_evidence(ans[0]))
        where = "the caption" if claim.where == "caption" else "the text"
        yield ctx.finding(
            f"\"{_quote(claim.sentence)}\" says '{m.group(0)}' but {where} names no test, interval "
            "or spread and the figure shows no error bars, bands or box plots",
            figure=fig, location=_location(fig, claim), evidence=ev, origin="text",
        )
        return


# ---------------------------------------------------------------- FL503

_UP = r"increases|increased|increasing|increase|rises|rose|rising|rise|grows|grew|growing|grow|goes up|went up|climbs|climbed|climbing|climb"
_DOWN = (r"decreases|decreased|decreasing|decrease|drops|dropped|dropping|drop|falls|fell|falling|fall|declines|declined|"
         r"declining|decline|goes down|went down|shrinks|shrank|shrinking|shrink|diminishes|diminished|diminishing|"
         r"decays|decayed|decaying|decay")
_TREND = lazy(rf"\b(?:(?P<up>{_UP})|(?P<down>{_DOWN}))\b", re.IGNORECASE)
# "as N increases", "with increasing N", "with more N": the variable the trend runs along
_ALONG_VERB = lazy(
    rf"\b(?:as|when|with)\s+(?:the\s+)?(?P<var>(?:[\w-]+\s+){{0,3}}?[\w-]+)\s+(?P<verb>{_UP}|{_DOWN})\b", re.IGNORECASE)
_ALONG_PRE = lazy(
    r"\b(?:as|when|with)\s+(?P<pre>increasing|growing|larger|more|higher|decreasing|fewer|smaller|lower)\s+"
    r"(?P<var>[\w-]+(?:\s+[\w-]+){0,3})", re.IGNORECASE)
_ALONG_PLAIN = lazy(r"\b(?:as|when|with)\s+(?:the\s+)?(?P<var>[\w-]+(?:\s+[\w-]+){0,4})", re.IGNORECASE)
_CLAUSE = lazy(r"[;:,]|\b(?:while|whereas|but|although|though|and then)\b", re.IGNORECASE)
_PARTIAL = lazy(
    r"\b(?:then|until|initially|at first|first|before|after|eventually|later|beyond|up to|plateau\w*|saturat\w*|"
    r"stabili[sz]\w*|remains?|stays?|slightly|marginally|briefly|temporarily|early|late|beginning|end|"
    r"peak\w*|gap|difference|relative|ratio|compared|than|variance|std|spread|noise|fluctuat\w*|oscillat\w*|"
    r"respectively)\b",
    re.IGNORECASE,
)
_UP_WORDS = lazy(rf"^(?:{_UP})$", re.IGNORECASE)


@dataclass
class TrendClaim:
    subject: str
    direction: str  # claimed direction along the x variable: rising | falling
    verb: str
    along: str  # the words naming the variable the trend runs along ("" when none is named)


def _clauses(sentence: str) -> list[tuple[int, int]]:
    spans, last = [], 0
    for m in _CLAUSE.finditer(sentence):
        spans.append((last, m.start()))
        last = m.end()
    spans.append((last, len(sentence)))
    return spans


def trend_claims(sentence: str) -> list[TrendClaim]:
    """Trend statements of a sentence: one trend verb about its subject per clause."""
    if _HEDGE.search(sentence) or _PARTIAL.search(sentence):
        return []
    along = _ALONG_VERB.search(sentence) or _ALONG_PRE.search(sentence)
    flip, along_words = False, ""
    if along is not None:
        word = (along.groupdict().get("verb") or along.groupdict().get("pre") or "").lower()
        flip = word in ("decreasing", "fewer", "smaller", "lower") or (
            bool(along.groupdict().get("verb")) and not _UP_WORDS.match(word))
        along_words = along.group("var")
    else:
        plain = _ALONG_PLAIN.search(sentence)  # "rises with the number of labels": the variable, no direction
        along_words = plain.group("var") if plain else ""
    out = []
    for a, b in _clauses(sentence):
        verbs = [v for v in _TREND.finditer(sentence, a, b)
                 if along is None or not (along.start() <= v.start() < along.end())]
        if len(verbs) != 1:
            continue
        v = verbs[0]
        subject = sentence[a: v.start()]
        if along is not None and a <= along.start() < v.start():
            subject = sentence[a: along.start()] if along.start() > a else sentence[along.end(): v.start()]
        if _NEGATION.search(subject[-30:]) or not subject.strip():
            continue
        up = v.group("up") is not None
        out.append(TrendClaim(subject, "rising" if up != flip else "falling", v.group(0), along_words))
    return out


def _targets(an, subject: str) -> tuple[list, str] | None:
    """The series a subject names: by legend label, else every series on the y axis it names."""
    from figlint.text import content_words

    series = list(an.get("series"))
    if not series:
        return None
    words = {_stem(w) for w in content_words(subject)}
    labelled = []
    for s in series:
        lw = {_stem(w) for w in content_words(s.label or "")}
        if lw and lw <= words:
            labelled.append(s)
    if labelled:
        # another series' label named too: the subject is ambiguous
        return labelled, "legend label"
    named = []
    for s in series:
        tw = {_stem(w) for w in content_words(s.y_title or "") if len(w) >= 3 and w not in _GENERIC}
        if tw and tw & words:
            named.append(s)
    if named:
        return named, "y axis title"
    return None


@rule(
    "FL503",
    "trend-contradiction",
    severity="warning",
    dimension="context_consistency",
    taxonomy="incorrect_reading",
)
def trend_contradiction(fig: Figure, ctx: Context):
    """Text says a quantity falls where the plotted series rises (or the other way round).

    What it does:
    Reads trend statements in the caption and the citing sentences — *loss decreases*,
    *accuracy drops as the batch size grows*, *latency increases with load* — whose subject
    names one series by its legend label, or the quantity on the y axis by its title.
    It reads that series from the figure's vector data (its points mapped to axis values)
    and decides its direction robustly (rank correlation with x and the change between
    the first and last fifth). It reports the sentence when every series it names has a
    clear direction opposite to the claim. Statements about part of the range (*first*,
    *after*, *until*, *then*), about gaps or ratios, hedged or negated ones, and series
    that are flat or mixed are left alone. The finding is a contradiction: context
    consistency and misleading risk go to 2.

    Why is this bad?
    A sentence that reverses the plotted trend either describes another figure, an old
    version of the plot, or misreads it; readers who trust the text are misled and readers
    who check the figure stop trusting the text (taxonomy: incorrect reading of the chart).

    Example:
    A training curve whose validation loss climbs from 0.4 to 0.9 over the epochs, cited as
    "Figure 2 shows that the validation loss decreases steadily during training."

    Use instead:
    Describe what is plotted ("validation loss rises after epoch 3: the model overfits"), or
    fix the figure if it shows the wrong run or an inverted axis.
    """
    for claim in claims_of(fig):
        trends = trend_claims(claim.sentence)
        if not trends:
            continue
        for an in _analyses(fig, ctx):
            if an.source != "vector":
                continue
            for tc in trends:
                subject, claimed, verb = tc.subject, tc.direction, tc.verb
                got = _targets(an, subject)
                if got is None:
                    continue
                targets, how = got
                if tc.along and not all(_mentions(tc.along, {w for w in re.findall(r"[a-z]{3,}", s.x_title.lower())})
                                        for s in targets):
                    continue  # the trend runs along another variable than the x axis
                dirs = {s.direction for s in targets}
                if len(dirs) != 1:
                    continue
                plotted = dirs.pop()
                if plotted not in ("rising", "falling") or plotted == claimed:
                    continue
                if any(abs(s.tau) < 0.7 or abs(s.change) < 0.2 for s in targets):
                    continue
                s0 = targets[0]
                ev = _evidence(an)
                ev.update({"sentence": claim.sentence, "where": claim.where, "claimed": claimed, "verb": verb,
                           "subject": subject.strip()[-80:], "matched_by": how, "contradiction": True,
                           "series": [{"label": s.label, "direction": s.direction, "tau": round(s.tau, 3),
                                       "change": round(s.change, 3), "first": [round(v, 4) for v in s.points[0]],
                                       "last": [round(v, 4) for v in s.points[-1]], "y_title": s.y_title,
                                       "x_title": s.x_title} for s in targets]})
                name = f"'{s0.label}'" if how == "legend label" else f"the {s0.y_title or 'y'} series"
                yield ctx.finding(
                    f"\"{_quote(claim.sentence)}\" says it {verb}, but {name} "
                    f"{'rises' if plotted == 'rising' else 'falls'} in the figure "
                    f"({_fmt(s0.points[0][1])} → {_fmt(s0.points[-1][1])} over {s0.x_title or 'x'} "
                    f"{_fmt_range(s0.points[0][0], s0.points[-1][0])})",
                    figure=fig, location=_location(fig, claim), evidence=ev, origin="text",
                )
                return


# ---------------------------------------------------------------- FL504

_UNITS = (r"epochs?|steps?|iterations?|iters?|rounds?|updates?|layers?|tokens?|samples?|examples?|episodes?|"
          r"seconds?|minutes?|hours?|days?|generations?|frames?|queries|nodes?|users?|clients?|gpus?|"
          r"labels?|shots?|trials?|batches|turns?")
_RANGE = lazy(
    rf"\b(?P<prep>up to|until|till|after|beyond|past|over|for|within|across|through|at|to|by)\s+"
    rf"(?:the\s+(?:first|last|initial|final)\s+)?(?:about|around|roughly|approximately|~|nearly|almost)?\s*"
    rf"(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<mult>[kKmM]\b|k(?=\s)|thousand|million)?\s*(?P<unit>{_UNITS})\b",
    re.IGNORECASE,
)
_CLAIMING = lazy(
    r"\b(?:outperform\w*|better|worse|higher|lower|exceed\w*|surpass\w*|beat\w*|converg\w*|stable|stabl\w*|"
    r"remain\w*|stays?|keeps?|continu\w*|consistent\w*|always|improv\w*|increas\w*|decreas\w*|ris\w*|drops?|"
    r"falls?|reach\w*|achiev\w*|match\w*|maintain\w*|still|ahead|behind|overtak\w*|saturat\w*|plateau\w*)\b",
    re.IGNORECASE,
)
_MULT = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}


@rule(
    "FL504",
    "claim-beyond-plotted-range",
    severity="warning",
    dimension="context_consistency",
    taxonomy="cherry_picking",
    options={"range-margin": 0.1},
)
def claim_beyond_range(fig: Figure, ctx: Context):
    """Text makes a claim about an x range the figure does not plot (a truncated window).

    What it does:
    Finds claims in the caption or a citing sentence that are tied to a value of the plotted
    variable — *after 200 epochs ours stays ahead*, *up to 1M steps*, *at 64 GPUs* — where the
    unit (epochs, steps, tokens, layers, GPUs, ...) appears in the x axis title, and the
    figure's x axis (read from vector tick labels) ends more than `range-margin` (default
    10 %) of its span before that value. The sentence must make a claim (outperforms,
    converges, remains, improves, ...), not just describe a setting. This rule is narrow on
    purpose: it does not yet judge windows inside the plotted range ("in the first 10
    epochs") or generalisations without a number ("always", "consistently").

    Why is this bad?
    The reader checks the claim against the figure and finds the plot stops short of the
    range the claim is about: either the claim is unsupported, or the plot was cut to a
    favourable window (taxonomy: cherry-picking).

    Example:
    A training curve plotted for epochs 0–100, cited as "after 300 epochs our model still
    outperforms the baseline (Figure 5)".

    Use instead:
    Plot the whole range the text talks about (`ax.set_xlim(0, 300)`), or limit the claim to
    what is plotted ("over the 100 epochs shown").
    """
    margin = float(ctx.option("range-margin"))
    ans = None
    for claim in claims_of(fig):
        hits = [m for m in _RANGE.finditer(claim.sentence)]
        if not hits or not _CLAIMING.search(claim.sentence) or _HEDGE.search(claim.sentence):
            continue
        if ans is None:
            ans = _analyses(fig, ctx)
        for m in hits:
            try:
                value = float(m.group("num").replace(",", ""))
            except ValueError:
                continue
            mult = (m.group("mult") or "").lower()
            value *= _MULT.get(mult, 1.0)
            unit = _stem(m.group("unit").lower())
            for an in ans:
                if an.source != "vector" or an.chart_type not in ("line", "scatter", "bar", "area"):
                    continue
                for ax in an.x_axes:
                    title = {_stem(w) for w in re.findall(r"[a-z]+", (ax.title or "").lower())}
                    if unit not in title or _year_axis(ax) or ax.inverted:
                        continue
                    vals = ax.values
                    lo, hi = min(vals), max(vals)
                    end = ax.value_at(_plot_end(an, ax))
                    top = max(hi, end)
                    if value <= top + margin * (hi - lo):
                        continue
                    ev = _evidence(an)
                    ev.update({"sentence": claim.sentence, "where": claim.where, "phrase": m.group(0),
                               "claimed_value": value, "x_title": ax.title, "x_ticks": vals,
                               "plotted_end": round(top, 4)})
                    yield ctx.finding(
                        f"\"{_quote(claim.sentence)}\" speaks of '{m.group(0).strip()}', but the "
                        f"figure's x axis ({ax.title}) ends at about {_fmt(top)}",
                        figure=fig, location=_location(fig, claim), evidence=ev, origin="text",
                    )
                    return


def _plot_end(an, ax) -> float:
    """Position of the right end of the plotted data above an x axis (the axis' last tick if unknown)."""
    ends = [s.pos_box[2] for s in an.get("series") if an.axes.index(ax) == s.axis_ids[0]]
    return max(ends) if ends else ax.hi
