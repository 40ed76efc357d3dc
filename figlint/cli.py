"""Command line: `figlint PATH...` (check), `figlint rules`, `figlint explain CODE`, `figlint config --show`,
`figlint extract PATH` (the figure analysis, for debugging rules), `figlint eval --gold GOLD` (scores
against human gold).

Start-up stays light: only click and figlint's own small modules are imported
before a command runs; PyMuPDF, OpenCV, OCR and litellm load inside the routes
that need them. Errors the user can fix are one line on stderr with exit 2.

Output survives any locale: a stdout or stderr that cannot encode UTF-8 (a
cp1252 console, PYTHONIOENCODING) gets "?" for what it cannot show in the
human formats, and `\\uXXXX` escapes in the machine formats (valid JSON in any
ASCII-compatible encoding); files written with --output are always UTF-8.
Machine formats on stdout are only ever the format: notes go to stderr.
"""

from __future__ import annotations

import codecs
import os
import sys
import time

import click

from figlint import __version__
from figlint.errors import FeatureFailed, FiglintError, UsageError
from figlint.report import FORMATS



class DefaultGroup(click.Group):
    """A group whose first argument, when it is not a subcommand, is a path for `check`."""

    def parse_args(self, ctx, args):
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["check", *args]
        return super().parse_args(ctx, args)


def _json_escape(err: UnicodeEncodeError):
    """Encode error handler for JSON text: what the stream cannot take becomes a \\u escape
    (non-ASCII characters only ever occur inside JSON strings, where that is the same text)."""
    out = []
    for ch in err.object[err.start:err.end]:
        cp = ord(ch)
        if cp > 0xFFFF:
            cp -= 0x10000
            out.append(f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}")
        else:
            out.append(f"\\u{cp:04x}")
    return "".join(out), err.end


codecs.register_error("figlint-json", _json_escape)


def _utf8(stream) -> bool:
    enc = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    return enc in ("utf8", "utf8sig")


def _guard_streams() -> None:
    """Never die on a character the console cannot show: replace it instead."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not _utf8(stream) and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):  # pragma: no cover - a closed or exotic stream
                pass


def _write_stdout(text: str, machine: bool) -> None:
    if machine and not _utf8(sys.stdout) and hasattr(sys.stdout, "buffer"):
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode(sys.stdout.encoding or "ascii", "figlint-json"))
        sys.stdout.buffer.flush()
        return
    # color=True: never let click strip escape codes; the reporters decide (paper text is
    # sanitised by report/safe.py, and colour is only added when _use_color says so)
    click.echo(text, nl=False, color=True)


def _emit(text: str, output: str | None, machine: bool = False) -> None:
    """The report to FILE (--output, always UTF-8) or stdout."""
    if not output:
        _write_stdout(text, machine)
        return
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        _fail(f"cannot write {output}: {exc.strerror}")


def _fail(message: str) -> None:
    click.echo(f"figlint: error: {message}", err=True)
    sys.exit(2)


def run() -> None:
    """Console entry point: `main` with a last guard, so that a failure inside figlint itself
    is one line on stderr and exit 2, never a traceback (FIGLINT_DEBUG=1 shows it)."""
    _guard_streams()
    try:
        main()
    except Exception as exc:  # noqa: BLE001 - the last guard; click handles its own errors
        if os.environ.get("FIGLINT_DEBUG"):
            raise
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        click.echo(f"figlint: internal error: {type(exc).__name__}: {exc} [{where.name}:{where.lineno}]; "
                   "please report it (FIGLINT_DEBUG=1 shows the traceback)", err=True)
        sys.exit(2)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="figlint")
def main() -> None:
    """Lint the figures of a scientific paper: `figlint paper.pdf` or `figlint main.tex`.

    Exit codes: 0 no findings at or above the fail level, 1 findings at or
    above it, 2 usage or input error.
    """


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(list(FORMATS)), default="text", show_default=True,
              help="Report format.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), help="Write the report to FILE.")
@click.option("--select", help="Comma-separated rule codes, prefixes (FL1), names or families (visual, misleading, ...) to run instead of the defaults.")
@click.option("--extend-select", help="Comma-separated rules to run in addition to the defaults.")
@click.option("--ignore", help="Comma-separated rule codes, prefixes or names to skip.")
@click.option("--preview", is_flag=True, default=None,
              help="Also run the preview rules (not yet proven on audited real papers; see `figlint rules`).")
@click.option("--fail-on", type=click.Choice(["error", "warning", "note"]),
              help="Lowest severity that makes the exit code 1 (default: warning).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="Configuration file (default: [tool.figlint] in pyproject.toml, else .figlint.toml).")
@click.option("--pdf", "pdf_file", type=click.Path(dir_okay=False),
              help="Compiled PDF of a LaTeX input (default: the main file's .pdf next to it, if any).")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False),
              help="Report only findings not recorded in this baseline file.")
@click.option("--write-baseline", "write_baseline_file", type=click.Path(dir_okay=False, writable=True),
              help="Record the current findings in FILE (for --baseline).")
@click.option("--assets-dir", type=click.Path(file_okay=False, writable=True), metavar="DIR",
              help="Write figure thumbnails to DIR for the Markdown report.")
@click.option("--judge", "judge_protocol", type=click.Choice(["rules", "direct", "sidecar", "agent"]),
              help="Scoring protocol: rules (offline, default) or a model judge through litellm.")
@click.option("--judge-model", metavar="MODEL",
              help="litellm model string for the judge, e.g. openai/gpt-4o-mini or ollama/llava.")
@click.option("--dry-run", is_flag=True, help="Print how many model calls the judge would make, and make none.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="N",
              help="Papers linted in parallel (default: one per core).")
@click.option("--no-cache", is_flag=True,
              help="Do not read or write any cache (results, OCR, judge; $FIGLINT_CACHE_DIR, else .figlint_cache/ at the project root).")
@click.option("--ocr", "ocr_mode", type=click.Choice(["auto", "on", "off"]),
              help="OCR raster figures: auto (figure files only; default), on (papers too), off.")
@click.option("--profile", is_flag=True, help="Print where the time went, per paper and stage, on stderr.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings are reported (2 still means an input error).")
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule instead of the findings.")
@click.option("--show-source", is_flag=True, help="Show the source lines around each finding (text format).")
def check(paths, fmt, output, select, extend_select, ignore, fail_on, config_file, pdf_file=None,
          baseline_file=None, write_baseline_file=None, assets_dir=None, judge_protocol=None, judge_model=None,
          dry_run=False, jobs=None, no_cache=False, profile=False, ocr_mode=None, exit_zero=False,
          statistics=False, show_source=False, preview=None):
    """Lint PATHS: compiled PDFs, main .tex files, paper directories, figure files,
    or folders of papers (each PDF or LaTeX paper folder directly inside)."""
    try:
        from figlint.config import load_config, validate_codes

        cfg = load_config(config_file, list(paths))
        for attr, raw, key in (("select", select, "--select"), ("ignore", ignore, "--ignore"),
                               ("extend_select", extend_select, "--extend-select")):
            if raw is not None:
                tokens = [t.strip() for t in raw.split(",") if t.strip()]
                validate_codes(tokens, key)
                setattr(cfg, attr, tokens)
        if fail_on:
            cfg.fail_on = fail_on
        if preview:
            cfg.preview = True
        if pdf_file:
            if len(paths) != 1:
                raise UsageError("--pdf goes with exactly one LaTeX input")
            cfg.pdf = pdf_file
        if judge_protocol:
            cfg.judge["judge"] = judge_protocol
        if judge_model:
            cfg.judge["judge-model"] = judge_model
        cfg.dry_run = dry_run
        if ocr_mode:
            cfg.ocr = ocr_mode
        from figlint.batch import run_many
        from figlint.report import MACHINE_FORMATS, render, render_statistics

        machine = fmt in MACHINE_FORMATS
        stream = fmt == "jsonl" and not output and not (baseline_file or write_baseline_file) and not statistics
        from figlint import progress as progress_line

        progress = progress_line.start(enabled=sys.stderr.isatty() and not stream)  # stderr only, never in a pipe
        t_run = time.perf_counter()

        def on_result(r):
            progress.paper_done(r)
            if stream:
                from figlint.report.jsonl import render_paper

                _write_stdout(render_paper(r), machine=True)

        result = run_many(list(paths), cfg, jobs=jobs, on_result=on_result,
                          use_cache=not no_cache)  # --dry-run skips the results cache (figlint/cache.py)
        progress.done()
        wall = time.perf_counter() - t_run
        if dry_run:
            _print_plan(result)
            sys.exit(2 if any(r.error for r in result.results) else 0)
        if write_baseline_file or baseline_file:
            from figlint import baseline

            if write_baseline_file:
                baseline.write(result, write_baseline_file)
            if baseline_file:
                baseline.apply(result, baseline_file)
        if assets_dir:
            import os

            from figlint.report.markdown import write_thumbnails

            base = os.path.dirname(os.path.abspath(output)) if output else None
            for warning in write_thumbnails(result, assets_dir, relative_to=base):
                click.echo(f"figlint: warning: {warning}", err=True)
        t_report = time.perf_counter()
        color = _use_color(output)
        if statistics:
            text = render_statistics(fmt, result, color=color)
        else:
            text = "" if stream else render(fmt, result, color=color, show_source=show_source)
        report_time = time.perf_counter() - t_report
    except FiglintError as exc:
        _fail(str(exc))
    if profile:
        _print_profile(result, wall, report_time)
    if fmt == "jsonl":
        _print_batch_summary(result)
    _emit(text, output, machine)
    _print_notes(result)
    from figlint.report.safe import safe_text

    for r in result.results:
        if r.error:
            click.echo(f"figlint: error: {safe_text(r.error, limit=1000)}", err=True)
    code = result.exit_code()
    sys.exit(0 if exit_zero and code == 1 else code)


def _use_color(output: str | None) -> bool:
    """Colour only on a terminal (never into a file or a pipe), unless FORCE_COLOR asks for it;
    NO_COLOR (https://no-color.org) always wins."""
    if output or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


def _print_notes(result) -> None:
    """One line on stderr (never in the report) about how each input was read, when it matters:
    a chapter file linted through its main file, LaTeX sources linted without a compiled PDF."""
    from figlint.report.safe import safe_text

    for r in result.results:
        paper = r.paper
        if paper is None or paper.route != "latex":
            continue
        start = paper.extra.get("main_found_from")
        main = paper.extra.get("main_tex") or r.path
        if start:
            click.echo(f"figlint: note: {safe_text(start, limit=300)} is not a main file; linted "
                       f"{safe_text(main, limit=300)}, the main file that includes it", err=True)
        if not paper.pdf_path and paper.extra.get("pdf_searched") is not None:
            dirs = sorted({os.path.relpath(os.path.dirname(c), paper.root or ".")
                           for c in paper.extra["pdf_searched"]}, key=lambda d: (d != ".", d))
            where = ", ".join("beside it" if d == "." else f"{d}/" for d in dirs[:6])
            click.echo(f"figlint: note: no compiled PDF of {safe_text(main, limit=300)} found (looked {where}); "
                       "the sources were linted alone: pass --pdf FILE to check the figures as printed", err=True)


def _print_profile(result, wall: float, report_time: float) -> None:
    """--profile: seconds per stage and paper (rules include the features and OCR they use)."""
    stages = sorted({k for r in result.results for k in r.timings})
    click.echo("figlint profile (seconds; rules:* include the features and OCR they use)", err=True)
    header = ["paper", *stages, "total"]
    click.echo("  " + "  ".join(f"{h:>16}" if i else f"{h:<40}" for i, h in enumerate(header)), err=True)
    for r in result.results:
        row = [r.timings.get(k, 0.0) for k in stages]
        from figlint.report.safe import safe_text

        path = safe_text(r.path, limit=None)
        name = path if len(path) <= 40 else "…" + path[-39:]
        tag = " (cached)" if r.cached else (" (error)" if r.error else "")
        click.echo("  " + f"{name:<40}" + "".join(f"  {v:>16.3f}" for v in row) + f"  {sum(row):>16.3f}{tag}",
                   err=True)
    click.echo(f"  report: {report_time:.3f} s; whole run: {wall:.3f} s wall", err=True)


def _print_batch_summary(result) -> None:
    from collections import Counter

    counts = Counter(f.severity for f in result.findings)
    bad = sum(1 for r in result.results if r.error)
    click.echo(f"figlint: {len(result.results)} inputs, {bad} unreadable, "
               f"{counts['error']} errors, {counts['warning']} warnings, {counts['note']} notes; "
               f"exit {result.exit_code()}", err=True)


def _print_plan(result) -> None:
    """--dry-run: the judge's model calls per input and in all."""
    total = cached = 0
    for r in result.results:
        plan = (r.paper.extra.get("judge_plan") if r.paper else None) or {}
        from figlint.report.safe import safe_text

        if r.error:
            click.echo(f"figlint: error: {safe_text(r.error, limit=1000)}", err=True)
            continue
        calls, hits = plan.get("calls", 0), plan.get("cached", 0)
        total += calls
        cached += hits
        if plan.get("protocol", "rules") == "rules":
            click.echo(f"{safe_text(r.path, limit=300)}: offline scorer (protocol rules): 0 model calls")
        else:
            click.echo(f"{safe_text(r.path, limit=300)}: {plan['figures']} figures to judge with {plan['protocol']} ({plan['model']}): "
                       f"{calls} model calls, {hits} stage replies cached")
    click.echo(f"dry run: {total} model call{'s' if total != 1 else ''} would be made ({cached} cached)")


@main.command("eval")
@click.option("--gold", required=True, type=click.Path(dir_okay=False),
              help="Gold labels: SciFigQual-Bench CSV/JSONL (scores) or a charts labels.jsonl (misleading charts).")
@click.option("--predictions", type=click.Path(dir_okay=False),
              help="figlint JSON output to evaluate (default: score the gold rows with the offline scorer).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@click.option("--cv", type=click.IntRange(0, 20), default=0, show_default=True,
              help="Without --predictions: refit the offline scorer in K folds by paper (honest numbers on its own data).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), help="Write the report to FILE.")
def eval_cmd(gold, predictions, fmt, cv, output):
    """Compare figlint's scores (or misleading-design findings) with human gold labels."""
    try:
        from figlint.evaluate import run_eval

        text = run_eval(gold, predictions, fmt, cv)
    except FiglintError as exc:
        _fail(str(exc))
    _emit(text, output, machine=fmt == "json")


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules_cmd(fmt):
    """List every rule: code, name, family, default level, enabled by default."""
    from figlint.rules.registry import all_rules

    rules = all_rules()
    if fmt == "json":
        import json

        _write_stdout(json.dumps([
            {"code": r.code, "name": r.name, "family": r.family, "severity": r.severity,
             "enabled": r.on_by_default, "status": r.status, "field_audit": r.measured,
             "dimension": r.dimension, "cap": r.cap,
             "summary": r.summary} for r in rules], indent=2) + "\n", machine=True)
        return
    for r in rules:
        on = "on" if r.on_by_default else "off"
        click.echo(f"{r.code}  {r.name:<26} {r.family:<11} {r.severity:<8} {on:<4} {r.status:<8} {r.summary}")


@main.command()
@click.argument("code")
def explain(code):
    """Print the documentation of rule CODE (e.g. FL201 or generic-caption)."""
    from figlint.rules.registry import all_rules

    for r in all_rules():
        if code.upper() == r.code or code.lower() == r.name:
            click.echo(rule_page(r))
            return
    from figlint.config import nearest_name

    choices = [r.code for r in all_rules()] + [r.name for r in all_rules()]
    close = nearest_name(code.upper() if code[:2].lower() == "fl" else code.lower(), choices)
    hint = f"; did you mean '{close}'?" if close else ""
    _fail(f"unknown rule '{code}' (see `figlint rules`){hint}")


def rule_page(r) -> str:
    """The Markdown page of a rule (also written under rules/ by scripts/gen_rule_pages.py)."""
    sec = r.doc_sections()
    lines = [f"# {r.code} {r.name}", "", sec.get("summary", ""), ""]
    meta = [f"family: {r.family}", f"default severity: {r.severity}",
            f"enabled by default: {'yes' if r.on_by_default else 'no'}", f"status: {r.status_text}"]
    if r.dimension:
        meta.append(f"dimension: {r.dimension}")
    if r.cap is not None:
        meta.append(f"caps {r.dimension} at {r.cap}")
    if r.taxonomy:
        meta.append(f"taxonomy: {r.taxonomy}")
    if r.options:
        meta.append("options: " + ", ".join(f"`{k}` (default {v!r})" for k, v in r.options.items()))
    lines += [f"- {m}" for m in meta] + [""]
    for name in ("What it does", "Why is this bad?", "Example", "Use instead"):
        if sec.get(name):
            lines += [f"## {name}", "", sec[name], ""]
    return "\n".join(lines).rstrip() + "\n"


@main.command("config")
@click.option("--show", is_flag=True, help="Print the effective configuration (the default).")
@click.option("--config", "config_file", type=click.Path(dir_okay=False))
@click.argument("path", required=False, default=".")
def config_cmd(show, config_file, path):
    """Print the effective configuration for PATH (default: the current directory) as TOML
    that reads back as a configuration file."""
    try:
        from figlint.config import load_config

        cfg = load_config(config_file, [path])
    except FiglintError as exc:
        _fail(str(exc))
    click.echo(cfg.to_toml(), nl=False)


@main.command()
@click.argument("path")
@click.option("--format", "fmt", type=click.Choice(["json", "text"]), default="json", show_default=True)
@click.option("--figure", "only", help="Only the figure with this number.")
@click.option("--tokens/--no-tokens", default=True, show_default=True, help="Include every text token.")
def extract(path, fmt, only, tokens):
    """Dump the figure analysis of PATH (axes, ticks, chart type, bars) for debugging."""
    import json

    try:
        from figlint.features import analyses
        from figlint.ingest import load

        paper = load(path)
    except FiglintError as exc:
        _fail(str(exc))
    out = []
    for fig in paper.figures:
        if only is not None and fig.number != only:
            continue
        items = []
        try:
            found = analyses(fig, paper)
        except FeatureFailed as exc:
            out.append({"figure": fig.number, "page": fig.page, "kind": fig.kind, "error": str(exc)})
            continue
        for an in found:
            d = an.to_dict()
            if not tokens:
                d.pop("tokens")
            items.append(d)
        out.append({"figure": fig.number, "page": fig.page, "kind": fig.kind, "analyses": items})
    doc = {"path": path, "route": paper.route, "figures": out}
    if fmt == "json":
        _write_stdout(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", machine=True)
        return
    for f in out:
        if "error" in f:
            click.echo(f"Figure {f['figure'] or '(file)'}: analysis failed: {f['error']}")
        for d in f.get("analyses", ()):
            click.echo(f"Figure {f['figure'] or '(file)'}: {d['source']} {d['chart_type']} "
                       f"({d['chart_confidence']:.2f}), baseline value {d['baseline_value']}")
            for a in d["axes"]:
                vals = ", ".join(t["text"] for t in a["ticks"])
                click.echo(f"  {a['orient']} axis ({a['side']}, {a['scale']}, values grow {a['increasing']}"
                           f"{', clean' if a['clean'] else ''}): {vals}")


if __name__ == "__main__":  # pragma: no cover
    main()
