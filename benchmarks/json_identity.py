"""The JSON report of every shared corpus paper, PDF route and sources route, written to a
folder, and two such folders compared byte for byte: a speed change must not change one.

    python benchmarks/json_identity.py write OUT_DIR [--code TREE] [--preview] [--charts]
    python benchmarks/json_identity.py compare DIR_A DIR_B

Each paper is linted as `python -m figlint paper.pdf --no-cache --format json` from its
folder and as `python -m figlint <main .tex> --no-cache --format json` from its source
folder (the main file named in truth.json), one process each, one after another
(TREE: figlint's parent folder). `--preview` adds the preview rules (the raster-reading
ones among them). `--charts` also lints the chart images of shared/corpus/charts, one
process per image folder (each image is an input of that run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "papers"


def _papers(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if (p / "truth.json").exists())


def write(out: Path, code: Path, root: Path, extra: list[str], charts: Path | None = None) -> int:
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(code))
    env.pop("FIGLINT_PREVIEW", None)  # only --preview decides
    for paper in _papers(root):
        truth = json.loads((paper / "truth.json").read_text())
        runs = [("pdf", paper, truth.get("pdf", "paper.pdf"))]
        if truth.get("main_tex"):
            runs.append(("tex", paper / "source", truth["main_tex"]))
        for route, cwd, arg in runs:
            _lint(out / f"{paper.name}.{route}", [arg], cwd, env, extra)
    if charts is not None:
        for folder in sorted({p.parent for p in charts.rglob("*") if p.suffix.lower() in (".png", ".jpg", ".jpeg")}):
            names = sorted(p.name for p in folder.iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg"))
            _lint(out / ("charts." + "-".join(folder.relative_to(charts).parts)), names, folder, env,
                  [*extra, "--jobs", "1"])  # one core: the machine is shared
    return 0


def _lint(stem: Path, args: list[str], cwd: Path, env: dict, extra: list[str]) -> None:
    r = subprocess.run([sys.executable, "-m", "figlint", *args, "--no-cache", "--format", "json", *extra],
                       cwd=cwd, env=env, capture_output=True)
    stem.with_name(stem.name + ".json").write_bytes(r.stdout)
    stem.with_name(stem.name + ".rc").write_text(f"{r.returncode}\n")
    print(f"{stem.name}: exit {r.returncode}, {len(r.stdout):,} bytes", flush=True)


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    bad = [n for n in names if not (a / n).exists() or not (b / n).exists()
           or (a / n).read_bytes() != (b / n).read_bytes()]
    for n in bad:
        print(f"differs: {n}")
    print(f"{len(names) - len(bad)} of {len(names)} files identical")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("out", type=Path)
    w.add_argument("--code", type=Path, default=Path(__file__).resolve().parents[1])
    w.add_argument("--corpus", type=Path, default=CORPUS)
    w.add_argument("--preview", action="store_true", help="also run the preview rules")
    w.add_argument("--charts", action="store_true", help="also lint the images of shared/corpus/charts")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.cmd == "write":
        if not args.corpus.is_dir():
            print(f"no corpus at {args.corpus}", file=sys.stderr)
            return 2
        charts = args.corpus.parent / "charts" if args.charts else None
        return write(args.out.resolve(), args.code.resolve(), args.corpus,
                     ["--preview"] if args.preview else [], charts if charts and charts.is_dir() else None)
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
