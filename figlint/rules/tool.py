"""FL0xx: problems with the input or with figlint itself, emitted by the engine.

These rules have no check function of their own: ingestion reports Problems
and the engine turns them into findings with these codes, so that they can be
documented, listed, selected and ignored like every other rule.
"""

from figlint.rules.registry import rule


@rule("FL001", "unreadable-input", severity="error", scope="engine")
def unreadable_input():
    """Input cannot be read: missing, not a PDF/LaTeX/image file, corrupt or encrypted.

    What it does:
    Reports an input figlint could not open at all. The run goes on with the
    other inputs and exits with code 2.

    Why is this bad?
    Nothing in that input was checked; a green run would be a false comfort.

    Example:
    `figlint paper.pdf` on a PDF truncated by an interrupted upload.

    Use instead:
    Recompile the paper, or decrypt it (`qpdf --decrypt in.pdf out.pdf`), and lint the result.
    """


@rule("FL003", "path-outside-paper", severity="error", scope="engine", routes=("latex",))
def path_outside_paper():
    """An `\\input`/`\\include` points outside the paper's directory tree.

    What it does:
    Refuses to read a file that leaves the paper's root directory and reports
    where it was asked for.

    Why is this bad?
    figlint never reads outside the paper: a source that pulls in
    `../../etc/passwd` is either a mistake or an attempt to exfiltrate files.

    Example:
    `\\input{../../shared/macros}`

    Use instead:
    Keep every included file inside the paper's directory (copy shared macros in).
    """


@rule("FL004", "include-cycle", severity="error", scope="engine", routes=("latex",))
def include_cycle():
    """`\\input`/`\\include` files include each other in a cycle.

    What it does:
    Detects a file that (directly or indirectly) includes itself and stops following it.
    Also stops, with this finding, at includes nested more than 40 deep, and when files
    are included over and over (more than 2,000 includes or 40 MB of text: a file that
    includes the next one twice, 25 levels down, expands to 2^25 copies).

    Why is this bad?
    LaTeX would recurse until it runs out of memory; the paper cannot compile.

    Example:
    `a.tex` has `\\input{b}` and `b.tex` has `\\input{a}`.

    Use instead:
    Remove the back-reference.
    """


@rule("FL005", "missing-include", severity="error", scope="engine", routes=("latex",))
def missing_include():
    """An `\\input`/`\\include`d file does not exist.

    What it does:
    Reports the missing file with the line that asks for it; the rest of the paper is still linted.
    figlint looks where LaTeX would: beside the main file, in `\\import` folders, through paths
    built from text macros (`\\def\\PATH{.}` ... `\\import{\\PATH/ch1/}{ch1}`), and in the
    `TEXINPUTS` folders of the environment or of a `latexmkrc` beside the main file (read as
    text, never run) that lie inside the project (the folder with `.git` or `pyproject.toml`).
    A file found only in a folder above the main file's, where a build with `TEXINPUTS` finds
    it, is a note saying so, not an error.

    Why is this bad?
    The paper will not compile, and figures or citations in that file are missing from the check.

    Example:
    `\\input{sections/results}` with no `sections/results.tex`.

    Use instead:
    Add the file or fix the path.
    """


@rule("FL006", "unparsable-source", severity="warning", scope="engine", routes=("latex",))
def unparsable_source():
    """Part of a LaTeX source could not be parsed (e.g. unbalanced braces) or decoded.

    What it does:
    Reports the file and line where parsing gave up; what could be read is still linted.

    Why is this bad?
    Figures or citations after that point may be missed by every other rule.

    Example:
    A caption with an unclosed brace: `\\caption{Results {of the run}`.

    Use instead:
    Balance the braces (the LaTeX log will point at the same place); save files as UTF-8.
    """


@rule("FL009", "internal-error", severity="warning", scope="engine")
def internal_error():
    """figlint failed on one figure or rule; the rest of the run went on.

    What it does:
    Catches an unexpected error inside one rule or one figure's analysis and reports it
    instead of stopping the run. An error in the figure's analysis, or in a feature read
    from it (legend, panels, colours, ...), is reported once for the figure, naming the
    feature and the first rule that read it; every rule that needs that feature skips the
    figure, and the others check it as usual.

    Why is this bad?
    That figure was not fully checked. It is a bug in figlint, not in your paper.

    Example:
    A figure whose embedded image uses an exotic colour space the analysis cannot decode.

    Use instead:
    Report the message (it names the rule and figure) to the figlint issue tracker.
    """


@rule("FL002", "unused-suppression", severity="warning", scope="engine", routes=("latex",))
def unused_suppression():
    """An inline `% figlint: disable...` comment suppresses nothing.

    What it does:
    After the rules run, reports each rule named in a `% figlint: disable=...`,
    `disable-next=...` or `disable-file=...` comment that matched no finding, and
    names that are no figlint rule at all (a typo). A name is reported only when every
    rule it names is enabled and able to run on this input, so a suppression for a rule
    switched off in the configuration, or for a visual rule when no printed figure was
    read, is left alone.

    Why is this bad?
    A stale suppression hides the next real problem of that kind at that place without
    anyone noticing; a misspelled one never worked.

    Example:
    `% figlint: disable=FL202` left in a figure whose caption was since rewritten and no
    longer triggers FL202; or `% figlint: disable=FL2O1` (letter O).

    Use instead:
    Delete the comment, or correct the code (`% figlint: disable=FL201`).
    """


@rule("FL007", "stale-pdf", severity="warning", scope="engine", routes=("latex",))
def stale_pdf():
    """The compiled PDF was not built from the LaTeX sources or graphics as they are now.

    What it does:
    When figlint reads the sources together with the compiled PDF, compares each source
    and graphics file with the MD5 that latexmk recorded for it at the last compile
    (`main.fdb_latexmk`) and reports a file that changed since, or a `.tex` file the compile
    never read that was written after the PDF (one it skipped in a conditional branch the
    document does not take is not new). A fresh clone or a `git checkout` rewrites modification times but
    not contents, so that alone never makes the PDF stale. Without latexmk's record it
    falls back to modification times: a PDF older than the newest source or graphics file.

    Why is this bad?
    Visual checks (resolution, font sizes) run on the figures as printed in that PDF; if
    it is stale they describe an older version of the paper.

    Example:
    `figures/loss.png` was regenerated after `main.pdf` was last compiled.

    Use instead:
    Recompile (`latexmk -pdf main.tex`) before linting, or lint the sources alone.
    """


@rule("FL008", "routes-disagree", severity="note", scope="engine", routes=("latex",))
def routes_disagree():
    """A figure is in the sources but not in the compiled PDF, or the other way round.

    What it does:
    Binds each figure of the LaTeX sources to its figure in the compiled PDF: by number as
    LaTeX prints it (chapter numbers "3.1", appendix "A.2" and "A2" alike), then by caption
    text, then in order, and reports figures that none of these binds, or bound figures
    whose captions differ.

    Why is this bad?
    The PDF you would submit does not show what the sources say: usually a stale PDF, a
    figure lost to a LaTeX error, or a float pushed past `\\end{document}`.

    Example:
    The sources have five captioned figures, the PDF prints four.

    Use instead:
    Recompile and read the LaTeX log for float and reference warnings.
    """


@rule("FL010", "damaged-pdf", severity="warning", scope="engine", routes=("pdf", "latex", "image"))
def damaged_pdf():
    """The PDF is damaged: it had to be repaired on reading, or a page could not be read.

    What it does:
    Reports a PDF whose cross-reference table or page content is broken, including content
    the PDF library complains about while reading (an unknown colour space): those messages
    become this one finding and never reach standard output, so JSON and SARIF stay clean.
    figlint reads what it can and lints that.

    Why is this bad?
    Figures or citations on the broken parts may be missed, and some viewers and submission
    systems reject damaged PDFs outright.

    Example:
    A PDF cut short by an interrupted upload or copy.

    Use instead:
    Recompile the paper; if the PDF came from elsewhere, re-save it (`qpdf in.pdf out.pdf`).
    """


@rule("FL011", "figure-skipped", severity="warning", scope="engine")
def figure_skipped():
    """A figure was too large or too slow to analyse, and was skipped.

    What it does:
    Reports a figure whose content figlint did not analyse because it went over one
    of the per-figure budgets: more vector paths than can be read (100,000 on a page,
    50,000 or 2 million path segments in one figure), an image larger than 40 million
    pixels, a region that cannot be rendered at a readable resolution, or, as a last
    guard against a hang, an analysis that used more than 120 s of CPU time
    (`FIGLINT_FIGURE_CPU_SECONDS` changes it). Budgets count work, not wall-clock time,
    so a busy machine never changes the findings. The other figures and rules still
    run; the rules that read this figure's content stay silent on it.

    Why is this bad?
    Nothing inside that figure was checked (axes, bars, tick labels, text size from
    the drawing). Such figures are also slow to open and print for reviewers, and
    some submission systems reject the PDF outright.

    Example:
    A scatter plot of two million points saved as vector paths, or a photograph
    embedded at 50,000 x 50,000 pixels.

    Use instead:
    Rasterise dense plots (matplotlib `rasterized=True` on the scatter, keeping axes
    and labels as vectors) and downsample images to what print needs (300 DPI at
    the printed size).
    """


@rule("FL012", "unresolved-references", severity="warning", scope="engine")
def unresolved_references():
    """The compiled PDF prints `??` for figure references: LaTeX needs another run.

    What it does:
    Reports a PDF that shows LaTeX's `??` mark where a `\\ref` to a figure should
    print its number ("Figure ??", "Figs. 2 and ??"; a `??` after "Appendix" or
    natbib's "(??)" for a citation is not counted). With the sources linted beside
    it, it fires only when the PDF holds more such marks than the sources have
    references to labels they never define (those are FL304's): the labels exist,
    and the PDF is simply from a first run. While
    this finding stands, the citation rules whose evidence the `??` hides
    (FL301 uncited-figure, FL302 bare-pointer-citation, FL303 citation-order)
    are silent for that paper, since "Figure ??" would make every figure look
    uncited.

    Why is this bad?
    Readers see "Figure ??" instead of a number; a PDF submitted like that looks
    unfinished, and every check of how the text cites its figures is misled.

    Example:
    A PDF compiled once with `pdflatex main.tex`: the first run writes the labels
    to `main.aux`, and only the second prints them.

    Use instead:
    Compile until the references resolve (`latexmk -pdf main.tex` does it for you),
    then lint the new PDF.
    """
