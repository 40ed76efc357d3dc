"""Linear text handling: a 1 MB LaTeX line, and a 2,000-page PDF against a 100-page one.

`python benchmarks/text_scale.py [--pages 100 2000] [--write]`

- 1 MB line: `read_latex` on a main file holding one line of about a megabyte (no
  newline): "Fig. 1, " repeated inside a caption (every repetition a mention to
  place), the same as running text, and plain words. CPU seconds of this process
  (time.process_time), not wall-clock: other processes loading the machine do not
  count. Budget: well under 5 s of CPU each.
- Pages: synthetic PDFs written with PyMuPDF (no pdflatex: a 2,000-page paper is
  made in seconds): every page a paragraph of running text that cites a figure by
  number ("Figure 3 shows ..."), a vector figure with its caption every tenth page.
  Each is linted as a whole process, `python -m figlint PAPER --no-cache --format
  json`, and its CPU time (user + system of the child) is compared. Budget: the
  largest at most 20x the time of the smallest one when it has 20x the pages.

With --write the table goes into benchmarks/RESULTS.md under "## Text and page scale".
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from results_md import as_installed, write_section  # noqa: E402

LINE_BUDGET_CPU = 5.0
PAGE_BUDGET_RATIO = 20.0
WORDS = ("model accuracy training budget depth width layer token corpus baseline error variance dataset "
         "benchmark compute scaling attention encoder decoder loss").split()


def huge_line(tmp: Path, kind: str) -> tuple[Path, str]:
    if kind == "caption":
        unit, what = "Fig. 1, ", '"Fig. 1, " x 125,000 in a caption'
    elif kind == "text":
        unit, what = "Fig. 1, ", '"Fig. 1, " x 125,000 as running text'
    else:
        unit, what = "word ", "plain words"
    line = (unit * (1_000_000 // len(unit) + 1))[:1_000_000]
    body = (f"\\begin{{figure}}\\caption{{{line}}}\\label{{fig:a}}\\end{{figure}} Figure~\\ref{{fig:a}}"
            if kind == "caption" else line)
    path = tmp / kind / "main.tex"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"\\documentclass{{article}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n")
    return path, what


def line_cpu(path: Path) -> float:
    """CPU seconds of read_latex on `path`, in a fresh process (no warm caches from other runs)."""
    code = ("import sys, time\nfrom figlint.ingest.latex import read_latex\n"
            "c = time.process_time()\nread_latex(sys.argv[1])\nprint(time.process_time() - c)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env,
                         timeout=3600, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def pages_pdf(path: Path, pages: int) -> Path:
    import random

    import pymupdf

    rng = random.Random(0)
    doc = pymupdf.open()
    n_fig = 0
    for i in range(pages):
        page = doc.new_page(width=612, height=792)
        y = 72
        if i % 10 == 0:
            n_fig += 1
            for k, h in enumerate((80, 140, 60, 110)):
                page.draw_rect(pymupdf.Rect(180 + 60 * k, 260 - h, 220 + 60 * k, 260), color=(0, 0, 0),
                               fill=(0.2, 0.4, 0.8))
            page.insert_text((110, 285), f"Figure {n_fig}: Accuracy of four models on benchmark {n_fig}.", fontsize=9)
            y = 320
        cited = max(1, n_fig - (i % 3))
        words = [rng.choice(WORDS) for _ in range(330)]
        text = (f"Figure {cited} shows that the accuracy rises with the compute budget. "
                + " ".join(words).capitalize() + ". See also Fig. " + str(cited) + " for the baseline.")
        page.insert_textbox(pymupdf.Rect(72, y, 540, 740), text, fontsize=10)
    doc.save(path, garbage=0, deflate=True)
    doc.close()
    return path


def lint_cpu(pdf: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of `figlint PDF --no-cache --format json` as a child process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "figlint", str(pdf), "--no-cache", "--format", "json"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, timeout=7200)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, nargs="+", default=[100, 2000])
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    note = as_installed()
    ok = True
    rows = ["| 1 MB LaTeX line | CPU s (read_latex) | budget |", "|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for kind in ("caption", "text", "words"):
            path, what = huge_line(tmp, kind)
            cpu = line_cpu(path)
            ok &= cpu < LINE_BUDGET_CPU
            rows.append(f"| {what} | {cpu:.2f} | < {LINE_BUDGET_CPU:g} |")
            print(rows[-1], flush=True)
        prow = ["| synthetic PDF | pages | CPU s | wall s | CPU per page (ms) |", "|---|---|---|---|---|"]
        measured = []
        for n in sorted(args.pages):
            pdf = pages_pdf(tmp / f"p{n}.pdf", n)
            cpu, wall = lint_cpu(pdf)
            measured.append((n, cpu))
            prow.append(f"| {n} pages | {n} | {cpu:.2f} | {wall:.2f} | {1000 * cpu / n:.1f} |")
            print(prow[-1], flush=True)
    (n0, c0), (n1, c1) = measured[0], measured[-1]
    ratio = c1 / c0
    allowed = PAGE_BUDGET_RATIO * (n1 / n0) / 20.0
    ok &= ratio <= allowed
    summary = (f"{n1} pages take {ratio:.1f}x the CPU time of {n0} pages ({n1 / n0:.0f}x the pages; "
               f"budget {allowed:g}x). Load average during the run: "
               f"{', '.join(f'{v:.1f}' for v in os.getloadavg())} on {os.cpu_count()} cores.")
    print(summary)
    body = (f"Command: `python benchmarks/text_scale.py --write` (Python {platform.python_version()}, {note}; "
            "CPU time, so other processes on the machine do not count).\n\n"
            + "\n".join(rows) + "\n\n" + "\n".join(prow) + "\n\n" + summary)
    if args.write:
        write_section("Text and page scale", body)
    print("budgets met" if ok else "BUDGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
