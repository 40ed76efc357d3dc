"""Raster reading on the shared corpus: findings, CPU and peak memory per paper and route.

For each paper of shared/corpus/papers (or those named), lints its PDF (route pdf) and
its main .tex file (route latex: the sources, with a compiled PDF only where one sits
beside the main file) in a fresh process with an empty cache directory (cold: no OCR or
results cache), and records the CPU time (user + system) and peak resident memory of
that process and its findings as JSON lines. `--code ROOT` lints with the figlint
package found under ROOT (to compare two checkouts). Test data only: nothing of the
corpus is written anywhere but the output file.

    python benchmarks/raster_corpus.py --out /tmp/corpus.jsonl [--code DIR] [--preview] [paper ...]

`--preview` adds the preview rules (the raster-reading ones among them).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "papers"


def lint(path: Path, code: Path, extra: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPATH=str(code), FIGLINT_CACHE_DIR=cache)
        env.pop("FIGLINT_PREVIEW", None)  # only --preview decides
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(
            [sys.executable, "-c",
             "import resource, sys, json\n"
             "from figlint.cli import main\n"
             "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
             "print(json.dumps({'maxrss_kb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}), file=sys.stderr)",
             str(path), "--format", "json", "--no-cache", *extra],
            env=env, capture_output=True, text=True, cwd=cache)  # not the caller's folder: it would come first on sys.path
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss = None
    for line in proc.stderr.splitlines()[::-1]:
        if line.startswith("{\"maxrss_kb\""):
            rss = json.loads(line)["maxrss_kb"]
            break
    try:
        out = json.loads(proc.stdout)
    except ValueError:
        return {"error": proc.stderr[-2000:], "cpu_s": round(cpu, 2), "peak_mb": rss and round(rss / 1024)}
    paper = out["papers"][0]
    figs = {f.get("number"): f for f in paper.get("figures", [])}
    findings = []
    for f in paper.get("findings", []):
        fig = figs.get(f.get("figure")) or {}
        kind = (fig.get("content") or {}).get("kind")
        findings.append({"code": f["code"], "figure": f.get("figure"), "message": f["message"],
                         "kind": kind, "page": (f.get("location") or {}).get("page") or fig.get("page"),
                         "bbox": fig.get("bbox")})
    return {"cpu_s": round(cpu, 2), "peak_mb": rss and round(rss / 1024), "findings": findings,
            "figures": len(figs)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--code", default=str(Path(__file__).resolve().parents[1]))
    ap.add_argument("--routes", default="pdf,latex")
    ap.add_argument("--preview", action="store_true", help="also run the preview rules")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("papers", nargs="*")
    a = ap.parse_args(argv)
    corpus = a.corpus
    names = a.papers or sorted(p.name for p in corpus.iterdir() if (p / "truth.json").exists())
    with open(a.out, "a") as fh:
        for name in names:
            d = corpus / name
            truth = json.loads((d / "truth.json").read_text())
            for route in a.routes.split(","):
                path = d / "paper.pdf" if route == "pdf" else d / "source" / truth["main_tex"]
                rec = {"paper": name, "route": route, **lint(path, Path(a.code), ["--preview"] if a.preview else [])}
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                print(name, route, rec.get("cpu_s"), "s", rec.get("peak_mb"), "MB",
                      len(rec.get("findings", [])), "findings", rec.get("error", "")[:200], flush=True)


if __name__ == "__main__":
    main()
