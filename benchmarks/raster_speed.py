"""Raster figures: CPU per figure (cold, OCR included) and for a paper of N PNG charts.

Builds a two-column paper of N matplotlib charts saved as PNG at 300 DPI (lines, bars,
scatter plots, labelled heat maps, and unlabelled noise fields standing for
microscopy), included at the column width, compiles it with pdflatex, then measures:

* per figure: in one process (OCR models loaded once, then every cache emptied), the
  CPU time of all default rules on each figure alone, cold: median and maximum;
* the paper, cold: `figlint main.pdf` (and `figlint main.tex`, sources alone) in a fresh
  process with an empty cache directory: CPU time (user + system) and peak memory;
* the paper, warm: the same command again with the same cache directory (results cache).

CPU, not wall-clock: the machine may be shared. Prints one JSON object.

    python benchmarks/raster_speed.py [--figures 60] [--dir DIR] [--skip-paper]
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
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-c",
           "import resource, sys\nfrom figlint.cli import main\n"
           "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
           "print('maxrss_kb', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)",
           str(path), "--format", "json", "-o", os.devnull] + ([] if use_cache else ["--no-cache"])
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=str(cache))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    rss = [int(line.split()[1]) for line in proc.stderr.splitlines() if line.startswith("maxrss_kb")]
    return {"cpu_s": round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 2),
            "peak_mb": round(rss[0] / 1024) if rss else None}


def per_figure(pdf: Path) -> dict:
    """CPU of all default rules on each figure alone, cold (models loaded once beforehand)."""
    from figlint.config import Config, enabled_rules
    from figlint.engine import lint_paper
    from figlint.features import ocr, raster
    from figlint.ingest import load

    cache = Path(tempfile.mkdtemp())
    os.environ["FIGLINT_CACHE_DIR"] = str(cache)
    cfg = Config()
    rules = enabled_rules(cfg)
    paper = load(str(pdf))
    paper.extra["ocr"] = True
    eng = ocr._engine()
    eng._load_det_model()
    eng._load_rec_model()
    figures = list(paper.figures)
    times = []
    for fig in figures:
        ocr._MEMO.clear()
        raster._READINGS.clear()
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


if __name__ == "__main__":
    main()
