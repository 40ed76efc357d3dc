"""FL7xx: judge scores below configured thresholds, and figures the judge could not score.

These are emitted by the judge (figlint/judge/), not by a check over a figure,
so they are registered with scope "engine": here only for their codes, names,
severities and documentation. Thresholds are off by default: without a
`min-*` key in the configuration no FL701/FL703-FL707 finding is reported.
"""

from __future__ import annotations

from figlint.rules.registry import rule

@rule("FL701", "low-overall-score", severity="warning", scope="engine")
def low_overall_score():
    """Figure's overall judge score is below `min-overall`.

    What it does:
    After the judge scores a figure (the offline scorer by default, or a model with
    `--judge`), compares the overall score -- the mean of the rubric dimensions the
    figure's evidence allows -- with `min-overall` and reports the figure when it is
    lower, quoting the judge's reasons. Off unless `min-overall` is set.

    Why is this bad?
    A figure below the quality bar the paper's authors set for themselves (in CI, for
    instance) needs work before submission; the reasons say which dimension pulls it down.

    Example:
    ```toml
    [tool.figlint]
    min-overall = 6.0
    ```
    and a figure whose scores average 5.2: "overall score 5.2 below threshold 6.0".

    Use instead:
    Fix what the reasons and the other findings of the figure name (a generic caption, a
    bare "see Figure 3", small text), or lower the threshold if it is too strict.
    """


@rule("FL702", "figure-not-judged", severity="warning", scope="engine")
def figure_not_judged():
    """The model judge could not score this figure; it carries offline scores instead.

    What it does:
    Reports a figure for which the configured model judge gave no usable answer: the
    model replied with malformed JSON after every retry, timed out, was rate-limited
    past the retries, or no image of the figure could be made. The figure is scored by
    the offline scorer instead, so thresholds still apply.

    Why is this bad?
    Scores of a figure that was not judged as configured may differ from its neighbours';
    a silent fallback would hide it.

    Example:
    `figlint paper.pdf --judge agent --judge-model openai/gpt-4o-mini` with a model that
    replies "Sure! Here are the scores:" and no JSON, three times.

    Use instead:
    Re-run (timeouts and rate limits are often transient; cached figures cost nothing),
    raise `judge-timeout` or `judge-retries`, or use a model that supports JSON output.
    """


@rule("FL703", "low-visual-clarity-score", severity="warning", scope="engine", dimension="visual_clarity")
def low_visual_clarity_score():
    """Figure's visual clarity (VC) score is below `min-visual-clarity`.

    What it does:
    Compares the judge's VC score (resolution, blur, legibility of ticks and legends at
    print size) with `min-visual-clarity` and reports the figure when it is lower, with
    the judge's reasons. Off unless the key is set.

    Why is this bad?
    A figure readers cannot read at print size does not carry its evidence.

    Example:
    `min-visual-clarity = 7` and a screenshot printed at 49 DPI that scores 4.

    Use instead:
    Export vector graphics or rasters at 300 DPI at their printed size, with labels of
    at least 6-7 pt.
    """


@rule("FL704", "low-layout-score", severity="warning", scope="engine", dimension="structure_layout")
def low_structure_layout_score():
    """Figure's structure and layout (SL) score is below `min-structure-layout`.

    What it does:
    Compares the judge's SL score (reading path, panel labels, spacing, chartjunk) with
    `min-structure-layout` and reports the figure when it is lower, with the judge's
    reasons. Off unless the key is set.

    Why is this bad?
    A figure without a clear reading path makes readers work out its order themselves.

    Example:
    `min-structure-layout = 7` and a six-panel figure without (a)-(f) labels that scores 5.

    Use instead:
    Label panels (a), (b), ..., align them on a grid, and drop decoration that carries no data.
    """


@rule("FL705", "low-caption-score", severity="warning", scope="engine",
      dimension="caption_consistency")
def low_caption_consistency_score():
    """Figure's caption consistency (C) score is below `min-caption-consistency`.

    What it does:
    Compares the judge's C score (does the caption name the objects, metrics, panels and
    trends the figure shows) with `min-caption-consistency` and reports the figure when
    it is lower, with the judge's reasons. Off unless the key is set; figures without a
    caption have no C score (FL201 reports them).

    Why is this bad?
    Reviewers read figures and captions first; a caption that does not say what is shown
    leaves them guessing.

    Example:
    `min-caption-consistency = 7` and "Overview of our method." (capped at 6 by FL202).

    Use instead:
    Say what is shown, on which data, with which metric, and what to notice.
    """


@rule("FL706", "low-context-score", severity="warning", scope="engine",
      dimension="context_consistency")
def low_context_consistency_score():
    """Figure's context consistency (CTX) score is below `min-context-consistency`.

    What it does:
    Compares the judge's CTX score (are the claims of the citing text supported by the
    figure) with `min-context-consistency` and reports the figure when it is lower, with
    the judge's reasons. Off unless the key is set; uncited figures have no CTX score
    (FL301 reports them).

    Why is this bad?
    Text that only points at a figure, or claims what it does not show, weakens the
    argument the figure should support.

    Example:
    `min-context-consistency = 7` and a figure cited only as "see Figure 4" (capped at 6 by FL302).

    Use instead:
    Cite the figure where its evidence is used, and say what the reader should see in it.
    """


@rule("FL707", "low-misleading-risk-score", severity="warning", scope="engine", dimension="misleading_risk")
def low_misleading_risk_score():
    """Figure's misleading-risk (MR) score is below `min-misleading-risk` (higher MR = safer).

    What it does:
    Compares the judge's MR score (axes, baselines, fair comparison, conflicts between
    text and figure) with `min-misleading-risk` and reports the figure when it is lower,
    with the judge's reasons. Off unless the key is set.

    Why is this bad?
    A careful reader can be misled by a truncated bar axis, an inverted axis, or a claim
    the plot contradicts.

    Example:
    `min-misleading-risk = 6` and a bar chart whose value axis starts at 80 (FL401).

    Use instead:
    Start bar axes at zero, mark unusual axes, and make the text say what the plot shows.
    """


@rule("FL708", "judge-budget-exhausted", severity="warning", scope="engine")
def judge_budget_exhausted():
    """The model judge stopped at the run's budget (`judge-max-calls` or `judge-max-cost`).

    What it does:
    Counts the model calls and their estimated cost over the run; when the next call
    would pass `judge-max-calls` or the cost so far reaches `judge-max-cost`, stops
    calling the model and reports once which figures were left unjudged. Those figures
    carry offline scores.

    Why is this bad?
    Part of the paper was not judged as configured; its scores are not comparable with
    the judged figures'.

    Example:
    `judge-max-calls = 10` with the agent protocol (three calls per figure) on a paper
    with six figures: three figures are judged, three are not.

    Use instead:
    Raise the budget, or rely on the cache: figures judged before cost no call.
    """
