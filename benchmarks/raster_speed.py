"""Raster figures: CPU per figure (cold, OCR included) and for a paper of N PNG charts.

Builds a two-column paper of N matplotlib charts saved as PNG at 300 DPI (lines, bars,
scatter plots, labelled heat maps, and unlabelled noise fields standing for
microscopy), included at the column width, compiles it with pdflatex, then measures,
with the preview rules on (the raster-reading ones, FL102 among them, are to be on by
default):

* per figure: in one process (OCR models loaded once, then every cache emptied), the
  CPU time of all rules on each figure alone, cold: median and maximum;
* the paper, cold: `figlint main.pdf --preview` (and `figlint main.tex --preview`,
  sources alone) in a fresh process with an empty cache directory: CPU time (user +
  system) and peak memory;
* the paper, warm: the same command again with the same cache directory (results cache).

CPU, not wall-clock: the machine may be shared. Prints one JSON object; `--write` puts
the numbers into benchmarks/RESULTS.md ("## Raster figures") and into the README's
paragraph on raster figures (between its raster-speed markers).

    python benchmarks/raster_speed.py [--figures 60] [--dir DIR] [--skip-paper] [--write]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))


def _chart(path: Path, k: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    rng = np.random.default_rng(k)
    kind = ("line", "bars", "scatter", "heatmap", "noise")[k % 5]
    with matplotlib.rc_context({"font.size": 8}):
        fig, ax = plt.subplots(figsize=(3.3, 2.3))
        if kind == "line":
            x = np.arange(1, 31)
            for j in range(3):
                ax.plot(x, np.exp(-x / (6 + 3 * j + k % 4)) + 0.1 * j, label=f"Model {j + 1}")
            ax.set_xlabel("Epoch")
            ax.set_ylabel("Loss")
            ax.legend()
        elif kind == "bars":
            ax.bar(["A", "B", "C", "D", "E"], rng.uniform(20, 90, 5))
            ax.set_ylabel("Accuracy (%)")
        elif kind == "scatter":
            ax.scatter(rng.normal(size=80), rng.normal(size=80), s=8)
            ax.set_xlabel("Feature 1")
            ax.set_ylabel("Feature 2")
        elif kind == "heatmap":
            im = ax.imshow(rng.uniform(size=(6, 6)), cmap="viridis")
            ax.set_xticks(range(6))
            ax.set_yticks(range(6))
            fig.colorbar(im, ax=ax)
        else:
            ax.imshow(rng.gamma(2.0, size=(200, 300)), cmap="gray")
            ax.axis("off")
        fig.tight_layout()
        fig.savefig(path, dpi=300)
        plt.close(fig)


def build(directory: Path, n: int) -> Path:
    sys.path.insert(0, str(ROOT / "tests"))
    from fixtures.latex_paper import compile_pdf

    body = []
    for k in range(n):
        _chart(directory / f"chart{k}.png", k)
        body.append(f"Figure~\\ref{{fig:c{k}}} shows result {k} of our study on the benchmark.\n"
                    "\\begin{figure}[t]\n\\centering\n"
                    f"\\includegraphics[width=\\columnwidth]{{chart{k}.png}}\n"
                    f"\\caption{{Result {k} of our model and the baselines on the benchmark.}}\\label{{fig:c{k}}}\n"
                    "\\end{figure}\n")
        if k % 4 == 3:
            body.append("\\clearpage\n")
    tex = directory / "main.tex"
    tex.write_text("\\documentclass[twocolumn]{article}\n\\usepackage{graphicx}\n\\begin{document}\n"
                   + "\n".join(body) + "\\end{document}\n")
    compile_pdf(tex, timeout=600)
    return tex


def _run(path: Path, cache: Path, use_cache: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), FIGLINT_CACHE_DIR=str(cache))
    env.pop("FIGLINT_PREVIEW", None)  # --preview below says it
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-c",
           "import resource, sys\nfrom figlint.cli import main\n"
           "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
           "print('maxrss_kb', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)",
           str(path), "--preview", "--format", "json", "-o", os.devnull] + ([] if use_cache else ["--no-cache"])
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=str(cache))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    rss = [int(line.split()[1]) for line in proc.stderr.splitlines() if line.startswith("maxrss_kb")]
    return {"cpu_s": round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 2),
            "peak_mb": round(rss[0] / 1024) if rss else None}


def per_figure(pdf: Path) -> dict:
    """CPU of all rules (preview ones included) on each figure alone, cold (models loaded once
    beforehand)."""
    from figlint.config import Config, enabled_rules
    from figlint.engine import lint_paper
    from figlint.features import ocr, raster
    from figlint.ingest import load

    cache = Path(tempfile.mkdtemp())
    os.environ["FIGLINT_CACHE_DIR"] = str(cache)
    cfg = Config(preview=True)
    rules = enabled_rules(cfg)
    paper = load(str(pdf))
    paper.extra["ocr"] = True
    ocr.load_models()
    figures = list(paper.figures)
    times = []
    for fig in figures:
        ocr.forget()
        raster._READINGS.clear()
        raster._DECODED.clear()
        raster._ALIVE.clear()
        shutil.rmtree(cache, ignore_errors=True)
        paper.figures = [fig]
        t = time.process_time()
        lint_paper(paper, cfg, rules)
        times.append(time.process_time() - t)
    paper.figures = figures
    shutil.rmtree(cache, ignore_errors=True)
    return {"figures": len(times), "median_s": round(statistics.median(times), 3),
            "max_s": round(max(times), 3), "mean_s": round(statistics.mean(times), 3)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--figures", type=int, default=60)
    ap.add_argument("--dir")
    ap.add_argument("--pdf", help="measure per figure on this PDF instead of the generated paper")
    ap.add_argument("--skip-paper", action="store_true", help="only the per-figure medians")
    ap.add_argument("--write", action="store_true",
                    help="write the numbers into benchmarks/RESULTS.md and the README (needs the paper runs)")
    a = ap.parse_args(argv)
    out: dict = {"load_average": os.getloadavg()[0], "cores": os.cpu_count()}
    if a.pdf:
        out["per_figure"] = per_figure(Path(a.pdf))
        print(json.dumps(out, indent=1))
        return
    directory = Path(a.dir or tempfile.mkdtemp())
    directory.mkdir(parents=True, exist_ok=True)
    tex = directory / "main.tex"
    if not (directory / "main.pdf").exists():
        tex = build(directory, a.figures)
    # the paper runs first: a child process starts with its parent's peak memory on Linux
    # (ru_maxrss survives fork/exec), and per_figure below grows this process
    if not a.skip_paper:
        src = directory / "sources"
        shutil.copytree(directory, src, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.pdf", "*.aux", "*.log", "sources"))
        for name, path in (("pdf", directory / "main.pdf"), ("latex", src / "main.tex")):
            with tempfile.TemporaryDirectory() as cache:
                out[f"{name}_cold"] = _run(path, Path(cache), True)
                out[f"{name}_warm"] = _run(path, Path(cache), True)
    out["per_figure"] = per_figure(directory / "main.pdf")
    out["load_average_end"] = os.getloadavg()[0]
    print(json.dumps(out, indent=1))
    if a.write and not a.skip_paper:
        write(out, a.figures)


def write(out: dict, n: int) -> None:
    """The numbers into RESULTS.md (a table) and the README's raster paragraph (a sentence)."""
    from results_md import write_section

    pf = out["per_figure"]
    load = f"load average {out['load_average']:.1f} to {out['load_average_end']:.1f} on {out['cores']} cores"
    rows = [("per raster figure, cold (all rules with OCR, in process; median / max)",
             f"{pf['median_s']:.2f} / {pf['max_s']:.2f} s CPU", "median 0.4 s"),
            (f"`figlint main.pdf --preview`, {n} raster figures, cold",
             f"{out['pdf_cold']['cpu_s']:.1f} s CPU, {out['pdf_cold']['peak_mb']} MB", "30 s, 800 MB"),
            ("the same, unchanged, second run (results cache)",
             f"{out['pdf_warm']['cpu_s']:.2f} s CPU, {out['pdf_warm']['peak_mb']} MB", "1.5 s"),
            (f"`figlint main.tex --preview` (sources alone), cold",
             f"{out['latex_cold']['cpu_s']:.1f} s CPU, {out['latex_cold']['peak_mb']} MB", "30 s, 800 MB"),
            ("the same, unchanged, second run (results cache)",
             f"{out['latex_warm']['cpu_s']:.2f} s CPU, {out['latex_warm']['peak_mb']} MB", "1.5 s")]
    table = "\n".join([
        f"Command: `python benchmarks/raster_speed.py --write` (a generated two-column paper of {n} PNG "
        f"charts at 300 DPI, column width; lines, bars, scatter plots, labelled heat maps, unlabelled "
        f"noise fields; preview rules on; {load}; CPU time = user + system).",
        "", "| what | measured | budget |", "|---|---|---|",
        *(f"| {a} | {b} | {c} |" for a, b, c in rows)])
    write_section("Raster figures", table)
    sentence = (f"Measured (`python benchmarks/raster_speed.py --write`, a generated paper of {n} PNG charts at "
                f"column width, preview rules on, {load}): all rules per raster figure, cold, median "
                f"{pf['median_s']:.2f} s CPU (max {pf['max_s']:.2f} s); the paper cold {out['pdf_cold']['cpu_s']:.0f} s "
                f"CPU, {out['pdf_cold']['peak_mb']} MB peak (from its sources {out['latex_cold']['cpu_s']:.0f} s, "
                f"{out['latex_cold']['peak_mb']} MB); unchanged, second run {out['pdf_warm']['cpu_s']:.2f} s "
                "(results cache).")
    readme = ROOT / "README.md"
    text = readme.read_text()
    start, end = "<!-- raster-speed -->", "<!-- /raster-speed -->"
    if start in text and end in text:
        import textwrap

        head, rest = text.split(start, 1)
        # the markers hold spaces: kept whole while the paragraph is wrapped
        wrapped = textwrap.fill(sentence + "\1", width=88, initial_indent=start, break_on_hyphens=False)
        wrapped = wrapped.replace("\1", end)
        readme.write_text(head + wrapped + rest[rest.index(end) + len(end):])


if __name__ == "__main__":
    main()
