"""Speed benchmark of the core path (issue budgets: lint < 1.0 s, --help < 0.3 s).

`python benchmarks/speed.py [--write]` generates a 10-page paper with 8 figures
(benchmarks/make_synthetic.py), then times whole `figlint` processes — what a
user waits for — as the median of several runs, and the bundled example.
With --write the table goes into benchmarks/RESULTS.md under "## Speed".
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from make_synthetic import make  # noqa: E402
from results_md import as_installed, write_section  # noqa: E402


def wall(cmd: list[str], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    installed = as_installed()
    fig = [sys.executable, "-m", "figlint"]
    with tempfile.TemporaryDirectory() as tmp:
        pdf = make(Path(tmp) / "syn10", pages=10, figures=8)
        import pymupdf

        pages = pymupdf.open(pdf).page_count
        env_cache = str(Path(tmp) / "cache")
        os.environ["FIGLINT_CACHE_DIR"] = env_cache
        rows = [
            ("`figlint --help`", wall([*fig, "--help"], a.runs), 0.3),
            (f"`figlint main.pdf --no-cache` (synthetic, {pages} pages, 8 figures, rules only)",
             wall([*fig, str(pdf), "--no-cache"], a.runs), 1.0),
        ]
        example = ROOT / "examples" / "paper" / "main.pdf"
        if example.exists():
            rows.append(("`figlint examples/paper/main.pdf --no-cache`",
                         wall([*fig, str(example), "--no-cache"], a.runs), 1.0))
            tex = ROOT / "examples" / "paper" / "main.tex"
            rows.append(("`figlint examples/paper/main.tex --no-cache` (sources + PDF)",
                         wall([*fig, str(tex), "--no-cache"], a.runs), 1.0))
            # An unchanged paper again, as pre-commit and CI re-runs see it: served from the cache.
            subprocess.run([*fig, str(tex)], capture_output=True, cwd=ROOT)
            rows.append(("`figlint examples/paper/main.tex`, unchanged, second run (results cache)",
                         wall([*fig, str(tex)], a.runs), 0.5))
    lines = [
        f"Command: `python benchmarks/speed.py --write` ({a.runs} runs each, whole process, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; {installed}).",
        "",
        "| what | median wall (s) | best (s) | budget (s) |",
        "|---|---|---|---|",
    ]
    for name, (med, best), budget in rows:
        lines.append(f"| {name} | {med:.3f} | {best:.3f} | {budget} |")
    table = "\n".join(lines)
    print(table)
    if a.write:
        write_section("Speed", table)


if __name__ == "__main__":
    main()
