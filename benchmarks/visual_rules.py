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


# What the findings above were found to be, by hand (update when the findings change).
NOTES = """Inspected by hand:

- FL107: every pair flagged is a real collision under the Machado et al. (2009) simulation used. The
  tab10 pair orange #ff7f0e / green #2ca02c (value-profiles 4, 8, A4, A6) maps to linear RGB
  (0.375, 0.282, 0.000) and (0.369, 0.282, 0.010) under protanopia, checked by hand from the matrix:
  the two series are one colour to a protanope. proteus-provenance 5 is a pastel orange/green pair
  (2.4 under deuteranopia). So the 9 % is defects, not false alarms: the
  default matplotlib palette's second and third colours collide, and figures keyed by them alone are
  common.
- FL106 value-profiles 5: white on mid-green at 2.4:1, a real (mild) contrast defect.
- FL106 onecommon-gpt 4: the "Human" series is a gold line (#ffd700) on white, 1.40:1, the
  rule's own example of a line that fades in print. It was missed until a line's background
  had to be one filled shape: a merged group of band or marker paths used to stand in.
- FL109 no longer fires on value-profiles 1 (stacked answer cards): the lower cards' text is in the
  file but painted over by the upper cards, and text under a later opaque fill is no longer read
  (ingest/pdf_hidden.py, by MuPDF's paint order). It was the one FL109 false alarm.
- FL108 no longer fires on value-profiles 6 (a diagram with coloured highlights): filled boxes that
  text covers are highlights or cells, not bars, and colours count as series only on a chart with
  a value axis of round ticks (a row of table numbers is not one)."""


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
        write_section("Visual rules on the corpus papers", f"`{cmd}`\n\n{out}\n\n{NOTES}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
