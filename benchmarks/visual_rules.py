"""The visual rules (FL1xx) and caption-vs-marks (FL205) on the shared corpus papers.

For every paper under ../shared/corpus/papers (next to the repository) this lints
paper.pdf with only those rules selected and prints, per rule, how many of the
corpus figures it flags and which ones, with the message — so each finding can be
inspected by hand (a rule that flags more than 2 % of the figures without a real
defect is too loose). Nothing from the corpus is written into the repository: only
the counts, figure numbers and rule messages go to RESULTS.md with --write. Skips
cleanly (exit 0) when the corpus is absent.

Run: python benchmarks/visual_rules.py [--write] [--ocr on]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "papers"
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="record the output in benchmarks/RESULTS.md")
    ap.add_argument("--ocr", default="auto", choices=("auto", "on", "off"))
    ap.add_argument("--corpus", default=str(CORPUS))
    args = ap.parse_args(argv)

    from figlint.config import Config
    from figlint.engine import run
    from figlint.rules.registry import all_rules

    corpus = Path(args.corpus)
    papers = sorted(p for p in corpus.glob("*/paper.pdf")) if corpus.is_dir() else []
    if not papers:
        print(f"no corpus at {corpus}: nothing to measure")
        return 0
    codes = [r.code for r in all_rules() if r.code.startswith("FL1") or r.code == "FL205"]
    flagged: dict[str, list[str]] = {c: [] for c in codes}
    n_figs = 0
    t0 = time.perf_counter()
    for pdf in papers:
        cfg = Config(select=codes)
        cfg.ocr = args.ocr
        result = run([str(pdf)], cfg)
        paper = result.results[0].paper
        n_figs += len(paper.figures) if paper else 0
        for f in result.findings:
            if f.code in flagged:
                flagged[f.code].append(f"{pdf.parent.name} Figure {f.figure or '?'} (p.{f.location.page}): {f.message}")
    secs = time.perf_counter() - t0
    lines = [f"{len(papers)} papers, {n_figs} figures, {secs:.1f} s (ocr = {args.ocr})", ""]
    lines.append("| rule | figures flagged | share |")
    lines.append("|---|---|---|")
    for c in codes:
        k = len(flagged[c])
        lines.append(f"| {c} | {k} / {n_figs} | {100 * k / max(n_figs, 1):.1f} % |")
    lines.append("")
    for c in codes:
        for item in flagged[c]:
            lines.append(f"- {c} {item}")
    out = "\n".join(lines)
    print(out)
    if args.write:
        from benchmarks.results_md import write_section

        cmd = "python benchmarks/visual_rules.py --write" + (f" --ocr {args.ocr}" if args.ocr != "auto" else "")
        write_section("Visual rules on the corpus papers", f"`{cmd}`\n\n{out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
