"""Source-only rules (LaTeX route): labels, references, graphics files and alt text.

These rules judge what only the sources show: a `\\ref` to a label that does not
exist, "Figure 3" typed by hand, a `\\label` that LaTeX binds to the section
instead of the figure, a figure with no label, a graphics file that is not
there, a figure with no alternative text. They read what ingest/latex.py
recorded in `paper.extra` and `figure.extra` and never parse LaTeX themselves;
on a PDF they do not run (routes=("latex",)).
"""

from __future__ import annotations

from figlint.model import Figure, Location, Paper
from figlint.rules.registry import Context, rule

FIGURE_PREFIXES = ("fig", "sfig", "subfig")


def _loc(entry: dict) -> Location:
    return Location(file=entry.get("file"), line=entry.get("line"), column=entry.get("column"))


def _suggest_label(label: str, paper: Paper) -> str | None:
    import difflib  # the LaTeX route's unknown labels only

    known = list(paper.extra.get("labels", {}))
    close = difflib.get_close_matches(label, known, n=1, cutoff=0.75)
    return close[0] if close else None


@rule(
    "FL304",
    "undefined-reference",
    severity="error",
    scope="paper",
    dimension="context_consistency",
    routes=("latex",),
    options={"non-figure-labels": False},
)
def undefined_reference(paper: Paper, ctx: Context):
    """A `\\ref`-style command names a label that is defined nowhere in the paper.

    What it does:
    Reports every `\\ref`, `\\autoref`, `\\cref`/`\\Cref`, `\\subref`, `\\vref`,
    `\\figref`-style or user wrapper macro (a `\\newcommand` whose body holds a `\\ref`)
    whose label no `\\label` in any source file defines, or that names none (`\\ref{}`),
    at the file, line and column of the command. By default only figure references are
    checked: the label starts with `fig`, or the command is a figure macro, or the text
    just before it says "Figure"; set `non-figure-labels = true` to check every label.

    Why is this bad?
    LaTeX prints "??" for the number and only warns in a log nobody reads; the reader is
    sent to a figure that does not exist. It usually means a typo or a label renamed in
    one file and not in another.

    Example:
    `As Figure~\\ref{fig:ablaton} shows, ...` with `\\label{fig:ablation}` on the figure.

    Use instead:
    `As Figure~\\ref{fig:ablation} shows, ...` (the finding suggests the closest existing
    label when there is one).
    """
    everything = bool(ctx.option("non-figure-labels"))
    for ref in paper.extra.get("unresolved_refs", []):
        if not (everything or ref.get("figure_like")):
            continue
        label, macro = ref["label"], ref.get("macro") or "ref"
        near = _suggest_label(label, paper) if label else None
        hint = f" (did you mean '{near}'?)" if near else ""
        what = "names no label" if not label else "names a label that is not defined anywhere"
        yield ctx.finding(
            f"\\{macro}{{{label}}} {what}: LaTeX prints \"??\"{hint}",
            location=_loc(ref),
            evidence={"label": label, "macro": macro, "reason": ref.get("reason"), "suggestion": near},
            origin="text",
        )


@rule(
    "FL305",
    "hardcoded-figure-number",
    severity="warning",
    scope="paper",
    routes=("latex",),
)
def hardcoded_figure_number(paper: Paper, ctx: Context):
    """The text names a figure by a typed number ("Figure 3") instead of a `\\ref`.

    What it does:
    Reports each hard-coded mention such as "Figure 3", "Fig. 2(b)" or "Figs. 2 and 3"
    in the body text (captions included) whose number is a figure of this paper, at the
    mention's file, line and column. Mentions of another work's figure ("their Figure 5",
    "Figure 4 in \\cite{x}") are not reported, nor are numbers no figure of the paper has.
    A figure cited only this way still counts as cited: FL301 does not fire for it. A figure
    set without a float whose caption's label is typed ("\\textbf{Fig 1.} ..." after an
    `\\includegraphics`, as pandoc's PLOS template writes them) has no counter to `\\ref`:
    mentions of it are not reported.

    Why is this bad?
    The number is right only until a figure is added, removed or moved; then the text
    silently points at the wrong figure. A typed number is also not a link in the PDF.

    Example:
    `Figure 1 shows the distribution of ratings.`

    Use instead:
    `\\label{fig:ratings}` after the figure's `\\caption`, and
    `Figure~\\ref{fig:ratings} shows the distribution of ratings.`
    """
    # a figure set without a float, its number typed into its caption, has no counter a \label
    # could name: the typed number is the only way to cite it
    by_number = {f.number: f for f in paper.figures if f.number and not f.continuation}
    hand = {n for n, f in by_number.items() if f.extra.get("hand_numbered")}
    for mention in paper.extra.get("hardcoded", []):
        if hand.intersection(mention.get("figures", [])):
            continue
        figures = [by_number[n] for n in mention.get("figures", []) if n in by_number]
        if not figures:
            continue
        first = figures[0]
        text = mention.get("text", "")
        if len(figures) == 1 and first.labels:
            word = text.split()[0] if text.split() else "Figure"
            fix = f"write {word}~\\ref{{{first.labels[0]}}}"
        elif len(figures) == 1:
            fix = f"give {first.key} a \\label and cite it with \\ref"
        else:
            fix = "cite each figure with \\ref (or \\cref{...} for several)"
        yield ctx.finding(
            f"hard-coded \"{text}\" instead of a reference: {fix}",
            figure=first,
            location=_loc(mention),
            evidence={"text": text, "figures": [f.number for f in figures],
                      "labels": {f.number: f.labels for f in figures}},
            origin="text",
        )


@rule(
    "FL306",
    "label-before-caption",
    severity="error",
    dimension="context_consistency",
    routes=("latex",),
    options={"unreferenced-labels": False},
)
def label_before_caption(fig: Figure, ctx: Context):
    """A `\\label` inside a figure comes before its `\\caption`, so it labels the section.

    What it does:
    Reports each `\\label` in a figure environment that LaTeX does not bind to the
    figure because no `\\caption` (or sub-caption) precedes it in the same group, with
    what `\\ref` prints for it instead and how many references use it. Only labels that
    some reference uses are reported: one nothing refers to prints nothing wrong (set
    `unreferenced-labels = true` to report those too). A label inside a numbered list, a
    pseudo-code listing (`algorithmic`) or a pgfplots axis names its item, line or plot,
    one after `\\captionof{table}` names the table, and one defined again after the
    caption is that later one for LaTeX: none of these is reported.

    Why is this bad?
    `\\label` takes the number of the last counter stepped: before the caption that is
    the section, so "Figure~\\ref{fig:x}" prints "Figure 2" (the section number) and the
    link goes to the wrong place. Nothing warns: the reference looks fine.

    Example:
    ```latex
    \\begin{figure}
      \\label{fig:loss}
      \\includegraphics{loss}
      \\caption{Training loss of the three optimisers.}
    \\end{figure}
    ```

    Use instead:
    ```latex
    \\begin{figure}
      \\includegraphics{loss}
      \\caption{Training loss of the three optimisers.}
      \\label{fig:loss}
    \\end{figure}
    ```
    """
    misplaced = list(fig.extra.get("misplaced_labels", []))
    if not misplaced:
        return
    sites = {s["label"]: s for s in fig.extra.get("misplaced_label_sites", [])}
    refs = ctx.paper.extra.get("misplaced_label_refs", [])
    unreferenced = bool(ctx.option("unreferenced-labels"))
    for label in dict.fromkeys(misplaced):
        site = sites.get(label)
        prints = (site or {}).get("prints") or ""
        used = sum(1 for r in refs if r.get("label") == label)
        if not used and not unreferenced:
            continue  # a latent fault: nothing prints wrong until a reference uses it
        if not prints:
            what = f"\\ref{{{label}}} prints nothing (no counter is stepped before it)"
        elif prints == "??":
            what = f"\\ref{{{label}}} prints \"??\" (the build recorded no number for a label set before the caption)"
        else:
            what = (f"\\ref{{{label}}} prints \"{prints}\", the number of the section (or other counter) "
                    "before it" + (", which matches the figure's only by chance" if prints == fig.number
                                   else ", not the figure's"))
        if fig.number:
            msg = f"\\label{{{label}}} comes before the \\caption of {fig.key}: {what}; move it after the caption"
        else:
            msg = f"\\label{{{label}}} is in a figure with no numbered \\caption to attach to: {what}"
        if used:
            msg += f" (used by {used} reference{'s' if used != 1 else ''})"
        yield ctx.finding(
            msg,
            figure=fig,
            location=_loc(site) if site else None,
            evidence={"label": label, "prints": prints, "references": used},
            origin="figure",
        )


@rule(
    "FL203",
    "missing-label",
    severity="warning",
    routes=("latex",),
)
def missing_label(fig: Figure, ctx: Context):
    """A numbered figure has no `\\label`, so the text cannot `\\ref` it.

    What it does:
    Reports a figure with a numbered caption (`figure`, `figure*`, `wrapfigure`, ...,
    and `\\captionof{figure}` outside a float, which is numbered and referenced the
    same way) that no `\\label` resolves to. A label on one of its subfigures counts. A
    label defined again later in the paper belongs to its last definition, as in LaTeX,
    so a figure whose only label is redefined elsewhere is reported too. A figure whose
    only label sits before the caption is left to FL306 (one defect, one finding), and a
    figure without a numbered caption to FL201. A float continued with `\\ContinuedFloat`
    prints the figure's number again and needs no label of its own: a label on any part
    counts for the whole figure. A figure in an appendix needs no label either where the
    text names the appendix as a whole and cites none of the appendix figures on their own:
    they are reached through the appendix (as FL301 reads it). A figure set without a float,
    its label typed into its caption, has no counter a label could name: not reported.

    Why is this bad?
    Without a label the text can only cite the figure by a typed number, which goes
    stale as soon as figures move (see FL305), and cross-reference tools cannot check it.

    Example:
    ```latex
    \\begin{figure}
      \\includegraphics{ratings}
      \\caption{Distribution of ratings per annotator.}
    \\end{figure}
    ```

    Use instead:
    ```latex
    \\begin{figure}
      \\includegraphics{ratings}
      \\caption{Distribution of ratings per annotator.}
      \\label{fig:ratings}
    \\end{figure}
    ```
    """
    if not fig.number or fig.continuation or fig.extra.get("hand_numbered"):
        return  # a continuation is cited through the first part's label; a typed number has no counter
    if any(p.labels or p.extra.get("misplaced_labels") for p in ctx.paper.parts(fig)):
        return
    from figlint.rules.references import reached_through_appendix

    if reached_through_appendix(fig, ctx.paper) and not any(p.sites for p in ctx.paper.parts(fig)):
        return
    overridden = fig.extra.get("overridden_labels", [])
    if overridden:
        label = overridden[0]
        owner = next((f for f in ctx.paper.figures if label in f.labels), None)
        where = f" by {owner.key}" if owner is not None else " later"
        msg = (f"{fig.key} has no label of its own: \\label{{{label}}} is defined again{where}, and "
               "LaTeX uses the last definition; give this figure a distinct label")
    else:
        msg = f"{fig.key} has no \\label: add one after its \\caption so the text can \\ref it"
    yield ctx.finding(msg, figure=fig, evidence={"overridden_labels": overridden}, origin="figure")


@rule(
    "FL307",
    "missing-graphics-file",
    severity="error",
    routes=("latex",),
)
def missing_graphics_file(fig: Figure, ctx: Context):
    """An `\\includegraphics` (or `\\includesvg`, `\\input` of a .pgf/.tikz) names a file that is not there.

    What it does:
    Resolves each graphics file of the figure as LaTeX does (against the including
    file's directory and every `\\graphicspath` entry, and the main file's folder for a
    file read with `\\import`; trying .pdf .png .jpg .jpeg .eps when no extension is
    given; a name that differs from the file's only in case counts as found, as TeX Live's
    search folds case; mwe's `example-image...` placeholders come with TeX Live) and reports
    the ones that do not exist, at the line of the command.

    Why is this bad?
    The paper does not compile (pdflatex stops with "File not found"), or a stale build
    keeps showing an old version of the figure. Often the file is present locally but was
    never committed, so the build fails on a co-author's machine or on the venue's server.

    Example:
    `\\includegraphics[width=\\linewidth]{plots/acuracy}` when the file is
    `plots/accuracy.pdf`.

    Use instead:
    Fix the name or path (`\\includegraphics[width=\\linewidth]{plots/accuracy}`), and
    commit the figure file with the sources.
    """
    options = fig.extra.get("graphics_options", [])
    missing = list(fig.extra.get("missing_graphics", []))
    seen: set[tuple] = set()
    for entry in options:
        if entry.get("path") is not None or entry.get("file") not in missing:
            continue
        where = entry.get("location") or {}
        key = (entry["file"], where.get("file"), where.get("line"))
        if key in seen:
            continue
        seen.add(key)
        macro = entry.get("macro") or "includegraphics"
        yield ctx.finding(
            f"\\{macro}{{{entry['file']}}}: graphics file not found (searched the including file's "
            "folder and \\graphicspath, with the usual extensions)",
            figure=fig,
            location=Location(file=where.get("file"), line=where.get("line")) if where.get("line") else None,
            evidence={"file": entry["file"], "macro": macro},
            origin="figure",
        )


@rule(
    "FL601",
    "missing-alt-text",
    severity="warning",
    routes=("latex",),
    default_enabled=False,
    groups=("accessibility",),
)
def missing_alt_text(fig: Figure, ctx: Context):
    """A figure has no alternative text for screen readers.

    What it does:
    Reports a figure with graphics (an image file or TikZ/pgfplots drawing) that has no
    alternative text: no non-empty `\\Description{...}` in the environment (acmart), no
    `\\alt{...}` (the LaTeX tagging project), and not every `\\includegraphics` has an
    `alt=` key. Figures made only of text or tables are not reported. Off by default:
    enable it with `extend-select = ["FL601"]` (or `"FL6"` for the accessibility family).

    Why is this bad?
    Blind and low-vision readers hear "figure" and the caption, which rarely says what the
    plot shows. ACM requires `\\Description` in its templates, and tagged, accessible PDFs
    are becoming a submission requirement.

    Example:
    ```latex
    \\begin{figure}
      \\includegraphics{latency}
      \\caption{Tail latency under load.}
    \\end{figure}
    ```

    Use instead:
    ```latex
    \\begin{figure}
      \\includegraphics[alt={Line plot: p99 latency stays under 20 ms up to 80% load,
        then rises to 200 ms at full load.}]{latency}
      \\caption{Tail latency under load.}
      \\Description{Line plot of p99 latency against load ...}  % acmart
    \\end{figure}
    ```
    """
    if fig.extra.get("alt_text", True):
        return
    if not fig.graphics and not fig.extra.get("tikz"):
        return
    what = ", ".join(fig.graphics[:3]) or "TikZ drawing"
    yield ctx.finding(
        f"{fig.key if fig.number else 'figure'} ({what}) has no alternative text: add alt= to "
        "\\includegraphics, or \\Description{...} (acmart)",
        figure=fig,
        evidence={"graphics": fig.graphics},
        origin="figure",
    )
