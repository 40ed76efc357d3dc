"""Replace one `## heading` section of benchmarks/RESULTS.md, keeping the others."""

from __future__ import annotations

import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def write_section(heading: str, body: str, path: Path = RESULTS) -> None:
    text = path.read_text() if path.exists() else "# figlint benchmark results\n"
    block = f"## {heading}\n\n{body.strip()}\n"
    pattern = re.compile(rf"^## {re.escape(heading)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _m: block + "\n", text).rstrip() + "\n"
    else:
        text = text.rstrip() + "\n\n" + block
    path.write_text(text)


def as_installed() -> str:
    """Time figlint as an installed user runs it: with compiled bytecode.

    `pip install` compiles the package's .pyc files; an environment with
    PYTHONDONTWRITEBYTECODE=1 (this project's sandbox sets it) would make every timed
    process compile the sources again (about 0.1 s). Clears that for the child
    processes and compiles figlint once. Returns a note for the results table.
    """
    import compileall
    import os
    import sys

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    compileall.compile_dir(str(Path(__file__).resolve().parents[1] / "figlint"), quiet=1)
    return "bytecode compiled, as after `pip install`"
