"""Invariance benchmark (issue 12): fixture papers in hundreds of variants must read the same.

Builds every variant of tests/fixtures/variants.py (document classes TeX Live has,
filler sentences, float specifiers, figure*, hyperref/cleveref on and off, figures at
the end, classes combined with filler and figure*), compiles each with pdflatex into a
cache outside the repository (default $TMPDIR/figlint-invariance; compiled PDFs are
reused, readings are not), reads each three ways (PDF; sources with the PDF; sources
alone) and compares its signature with the original paper's in the same route. Prints
the share of identical variants and every difference; `--write` records the numbers in
benchmarks/RESULTS.md.

    python benchmarks/invariance.py [--base example] [--limit N] [--write] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(1, str(HERE))

from fixtures import variants as V  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", action="append", help="only these fixture papers (repeatable)")
    ap.add_argument("--match", help="only variants whose name contains this")
    ap.add_argument("--limit", type=int, help="at most N variants")
    ap.add_argument("--every", type=int, default=1, help="every N-th variant only (a sample of all papers and edits)")
    ap.add_argument("--like", help="exactly the variants of an earlier run's --json file (to compare two versions)")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "figlint-invariance"))
    ap.add_argument("--write", action="store_true", help="record the result in benchmarks/RESULTS.md")
    ap.add_argument("--json", help="write every variant's outcome to this file")
    ap.add_argument("--baseline", help="an earlier run's --json (e.g. of the code before a fix), quoted in RESULTS.md")
    ap.add_argument("--note", default="", help="one line for RESULTS.md: what was measured, on what machine")
    args = ap.parse_args()
    os.environ.setdefault("FIGLINT_CACHE_DIR", os.path.join(args.cache, "figlint-cache"))
    cache = Path(args.cache)
    bases = [b for b in V.bases() if not args.base or b.name in args.base]
    classes = [c for c in V.CLASSES if V.class_available(c)]
    vs = V.variants(bases, classes)
    if args.match:
        vs = [v for v in vs if args.match in v.name]
    if args.like:
        names = {(o["base"], o["variant"]) for o in json.loads(Path(args.like).read_text())}
        vs = [v for v in vs if (v.base, v.name) in names]
    vs = vs[::args.every]
    if args.limit:
        vs = vs[:args.limit]
    t0 = time.perf_counter()
    originals: dict[str, tuple[Path, dict]] = {}
    for b in bases:
        main_tex = V.build(b, b.tex, cache)
        originals[b.name] = (main_tex, {r: V.signature(V.route_path(main_tex, r)) for r in V.ROUTES})
    outcomes = []
    same = 0
    causes: Counter[str] = Counter()
    by_route: Counter[str] = Counter()
    for i, v in enumerate(vs, 1):
        base = next(b for b in bases if b.name == v.base)
        gdir = V.graphics_for(base, cache)
        orig_main, orig_sig = originals[v.base]
        try:
            main_tex = V.build(base, V.apply(base, v, gdir), cache, synctex=v.synctex)
        except V.BuildError as exc:
            outcomes.append({"base": v.base, "variant": v.name, "build_error": str(exc)})
            print(f"[{i}/{len(vs)}] {v.base} {v.name}: not built as the same paper: {str(exc).splitlines()[0] if str(exc) else ''}", flush=True)
            continue
        numbers = V.number_map(main_tex, orig_main)
        diffs = {}
        for r in V.ROUTES:
            d = V.compare(orig_sig[r], V.signature(V.route_path(main_tex, r), numbers), r, v)
            if d:
                diffs[r] = d
                by_route[r] += 1
        outcomes.append({"base": v.base, "variant": v.name, "causes": v.causes, "diffs": diffs,
                         "build": main_tex.parent.name})
        if not diffs:
            same += 1
            print(f"[{i}/{len(vs)}] {v.base} {v.name}: identical", flush=True)
        else:
            for c in v.causes:
                causes[c] += 1
            print(f"[{i}/{len(vs)}] {v.base} {v.name}: DIFFERS", flush=True)
            for r, d in diffs.items():
                for line in d:
                    print(f"      {r}: {line}", flush=True)
    built = [o for o in outcomes if "build_error" not in o]
    secs = time.perf_counter() - t0
    print()
    print(f"identical: {same}/{len(built)} variants ({100.0 * same / max(1, len(built)):.1f} %), "
          f"{len(outcomes) - len(built)} not built as the same paper (no PDF, lost floats, text past a page edge); {len(bases)} papers, classes {', '.join(classes)}; {secs:.0f} s")
    print("differing variants by route:", dict(by_route))
    print("differing variants by edit:", dict(causes))
    if args.json:
        Path(args.json).write_text(json.dumps(outcomes, indent=1))
    if args.write:
        from results_md import RESULTS, write_section

        heading = "Invariance (issue 12)"
        run = (f"- **{_revision()}, {time.strftime('%Y-%m-%d')} (`python benchmarks/invariance.py`"
               + (f"; {args.note}" if args.note else "") + f"): {same} of {len(built)} identical "
               f"({100.0 * same / max(1, len(built)):.1f} %) of {len(outcomes)} variants**, "
               f"{len(outcomes) - len(built)} not built as the same paper (no PDF, lost floats, or text set past a "
               f"page edge); differing by route: {dict(by_route) or 'none'}; by edit: {dict(causes) or 'none'} "
               f"({secs:.0f} s)")
        write_section(heading, "\n".join([
            "`python benchmarks/invariance.py` builds every variant of the fixture papers "
            "(tests/fixtures/variants.py) with pdflatex and reads each from the PDF, the sources with "
            "the PDF and the sources alone; a variant is identical when all three signatures equal the "
            "original paper's.",
            "",
            f"- papers: {', '.join(b.name for b in bases)}; classes: {', '.join(classes)}",
            run,
        ] + _baseline_lines(args.baseline) + _history(RESULTS, heading)))
    return 0


def _revision() -> str:
    """'main at <short hash>' of the checkout measured (its branch's name when not main)."""
    import subprocess

    def git(*a: str) -> str:
        try:
            return subprocess.run(["git", *a], capture_output=True, text=True, timeout=30,
                                  cwd=Path(__file__).resolve().parent).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    rev, branch = git("rev-parse", "--short", "HEAD"), git("rev-parse", "--abbrev-ref", "HEAD")
    return f"{branch or 'checkout'} at {rev}" if rev else "this checkout"


def _history(results: Path, heading: str) -> list[str]:
    """The section's earlier lines after its 'papers' line: each run is kept as history, the new
    one goes first."""
    import re

    text = results.read_text() if results.exists() else ""
    m = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        return []
    lines = m.group(1).strip().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("- papers:"):
            return lines[i + 1:]
    return []


def _baseline_lines(path: str | None) -> list[str]:
    if not path:
        return []
    old = json.loads(Path(path).read_text())
    built = [o for o in old if "build_error" not in o]
    same = sum(1 for o in built if not o.get("diffs"))
    return [f"- the same variants read by the code before the change ({Path(path).name}): "
            f"{same} of {len(built)} identical ({100.0 * same / max(1, len(built)):.1f} %)"]


if __name__ == "__main__":
    raise SystemExit(main())
