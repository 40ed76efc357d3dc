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


def render(fmt: str, result) -> str:
    return importlib.import_module(FORMATS[fmt]).render(result)
