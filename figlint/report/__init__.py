"""Reporters: read-only views of a RunResult. One module per format.

`render(fmt, result)` returns the report as a string. Adding a format is adding
a module with a `render(result) -> str` function and a line in FORMATS.
"""

from __future__ import annotations

import importlib

FORMATS = {
    "text": "figlint.report.text",
    "json": "figlint.report.jsonout",
    "jsonl": "figlint.report.jsonl",
    "sarif": "figlint.report.sarif",
    "markdown": "figlint.report.markdown",
    "html": "figlint.report.html",
    "github": "figlint.report.github",
}


MACHINE_FORMATS = ("json", "jsonl", "sarif")


def render(fmt: str, result, **options) -> str:
    """The report; `options` (color, show_source, ...) go to the formats that take them."""
    import inspect

    fn = importlib.import_module(FORMATS[fmt]).render
    accepted = inspect.signature(fn).parameters
    return fn(result, **{k: v for k, v in options.items() if k in accepted})


def render_statistics(fmt: str, result, color: bool = False) -> str:
    """`--statistics`: counts per rule, as JSON for the machine formats, else a text table."""
    from figlint.report.common import rule_counts

    if fmt in MACHINE_FORMATS:
        import json

        rows = [{"code": c, "rule": n, "severity": s, "count": k} for c, n, s, k in rule_counts(result)]
        return json.dumps(rows, indent=2) + "\n"
    from figlint.report.text import render_statistics as text_stats

    return text_stats(result, color=color)
